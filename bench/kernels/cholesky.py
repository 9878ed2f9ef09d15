"""In-place Cholesky factorisation of the lower triangle (PolyBench cholesky): sequential
triangular loops whose bodies are np.dot of row slices, a division and a square root."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def cholesky(A: dace.float64[N, N]):
    for i in range(N):
        for j in range(i):
            A[i, j] = (A[i, j] - np.dot(A[i, :j], A[j, :j])) / A[j, j]
        A[i, i] = np.sqrt(A[i, i] - np.dot(A[i, :i], A[i, :i]))


PROGRAM = cholesky
SYMBOLS = dict(N=16)
BENCH_SYMBOLS = dict(N=350)
CONFIG = {}


def inputs(rng, S):
    n = S['N']
    M = rng.random((n, n))
    return dict(A=M @ M.T + n * np.eye(n))


def reference(a, S):
    A = a['A']
    return dict(A=np.tril(np.linalg.cholesky(A)) + np.triu(A, 1))
