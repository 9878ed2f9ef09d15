"""Cholesky factor L of an SPD matrix through np.linalg.cholesky, which DaCe turns into a
LAPACK potrf library node (with copies in and out of the factored buffer)."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def cholesky_lapack(A: dace.float64[N, N], L: dace.float64[N, N]):
    L[:] = np.linalg.cholesky(A)


PROGRAM = cholesky_lapack
SYMBOLS = dict(N=16)
BENCH_SYMBOLS = dict(N=2000)
CONFIG = {}


def inputs(rng, S):
    n = S['N']
    M = rng.random((n, n))
    return dict(A=M @ M.T + n * np.eye(n), L=np.zeros((n, n)))


def reference(a, S):
    return dict(A=a['A'], L=np.linalg.cholesky(a['A']))
