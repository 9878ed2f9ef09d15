"""Solves A X = B for an SPD A and a matrix right-hand side through np.linalg.solve, which DaCe
lowers to LAPACK getrf/getrs library nodes."""
import numpy as np
import dace

N, K = (dace.symbol(s) for s in 'NK')


@dace.program
def solve_lapack(A: dace.float64[N, N], B: dace.float64[N, K], X: dace.float64[N, K]):
    X[:] = np.linalg.solve(A, B)


PROGRAM = solve_lapack
SYMBOLS = dict(N=16, K=5)
BENCH_SYMBOLS = dict(N=1200, K=150)
CONFIG = {}


def inputs(rng, S):
    n, k = S['N'], S['K']
    M = rng.random((n, n))
    return dict(A=M @ M.T + n * np.eye(n), B=rng.random((n, k)), X=np.zeros((n, k)))


def reference(a, S):
    return dict(A=a['A'], B=a['B'], X=np.linalg.solve(a['A'], a['B']))
