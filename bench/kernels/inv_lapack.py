"""Inverse of an SPD matrix through np.linalg.inv, which DaCe lowers to LAPACK getrf/getri
library nodes."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def inv_lapack(A: dace.float64[N, N], Ainv: dace.float64[N, N]):
    Ainv[:] = np.linalg.inv(A)


PROGRAM = inv_lapack
SYMBOLS = dict(N=16)
BENCH_SYMBOLS = dict(N=1000)
CONFIG = {}


def inputs(rng, S):
    n = S['N']
    M = rng.random((n, n))
    return dict(A=M @ M.T + n * np.eye(n), Ainv=np.zeros((n, n)))


def reference(a, S):
    return dict(A=a['A'], Ainv=np.linalg.inv(a['A']))
