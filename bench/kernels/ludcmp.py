"""LU decomposition followed by forward and back substitution (PolyBench ludcmp): triangular
loops of dot products, then a forward and a reversed (negative step) sequential loop."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def ludcmp(A: dace.float64[N, N], b: dace.float64[N], x: dace.float64[N], y: dace.float64[N]):
    for i in range(N):
        for j in range(i):
            A[i, j] = (A[i, j] - A[i, :j] @ A[:j, j]) / A[j, j]
        for j in range(i, N):
            A[i, j] -= A[i, :i] @ A[:i, j]
    for i in range(N):
        y[i] = b[i] - A[i, :i] @ y[:i]
    for i in range(N - 1, -1, -1):
        x[i] = (y[i] - A[i, i + 1:] @ x[i + 1:]) / A[i, i]


PROGRAM = ludcmp
SYMBOLS = dict(N=16)
BENCH_SYMBOLS = dict(N=250)
CONFIG = {}


def inputs(rng, S):
    n = S['N']
    return dict(A=rng.random((n, n)) + n * np.eye(n), b=rng.random(n), x=np.zeros(n), y=np.zeros(n))


def reference(a, S):
    n = S['N']
    A0 = a['A']
    A = A0.copy()
    for k in range(n - 1):
        A[k + 1:, k] /= A[k, k]
        A[k + 1:, k + 1:] -= np.outer(A[k + 1:, k], A[k, k + 1:])
    L = np.tril(A, -1) + np.eye(n)
    y = np.linalg.solve(L, a['b'])
    x = np.linalg.solve(A0, a['b'])
    return dict(A=A, b=a['b'], x=x, y=y)
