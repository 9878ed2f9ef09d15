"""Triangular matrix product B = alpha * A^T B with A unit lower triangular (PolyBench trmm):
two nested sequential loops whose body is np.dot of two strided column slices."""
import numpy as np
import dace

M, N = (dace.symbol(s) for s in 'MN')


@dace.program
def trmm_blas(alpha: dace.float64, A: dace.float64[M, M], B: dace.float64[M, N]):
    # Row i only reads rows below it, which are still unchanged when it is written.
    for i in range(M):
        for j in range(N):
            B[i, j] = alpha * (B[i, j] + np.dot(A[i + 1:, i], B[i + 1:, j]))


PROGRAM = trmm_blas
SYMBOLS = dict(M=14, N=11)
BENCH_SYMBOLS = dict(M=200, N=240)
CONFIG = {}


def inputs(rng, S):
    m, n = S['M'], S['N']
    return dict(alpha=np.float64(1.5), A=rng.random((m, m)), B=rng.random((m, n)))


def reference(a, S):
    m = S['M']
    U = np.tril(a['A'], -1) + np.eye(m)
    return dict(A=a['A'], B=a['alpha'] * (U.T @ a['B']))
