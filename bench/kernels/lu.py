"""In-place LU decomposition without pivoting (PolyBench lu, Doolittle order): sequential loops
over rows and columns with triangular bounds, each step a dot product of a row and a column slice."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def lu(A: dace.float64[N, N]):
    for i in range(N):
        for j in range(i):
            A[i, j] = (A[i, j] - A[i, :j] @ A[:j, j]) / A[j, j]
        for j in range(i, N):
            A[i, j] -= A[i, :i] @ A[:i, j]


PROGRAM = lu
SYMBOLS = dict(N=16)
BENCH_SYMBOLS = dict(N=250)
CONFIG = {}


def inputs(rng, S):
    n = S['N']
    return dict(A=rng.random((n, n)) + n * np.eye(n))


def reference(a, S):
    A = a['A'].copy()
    n = S['N']
    for k in range(n - 1):  # right-looking elimination, same factors
        A[k + 1:, k] /= A[k, k]
        A[k + 1:, k + 1:] -= np.outer(A[k + 1:, k], A[k, k + 1:])
    return dict(A=A)
