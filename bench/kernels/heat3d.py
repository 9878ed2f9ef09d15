"""PolyBench Heat 3-D: T time steps of a 7-point heat-equation stencil alternating
between A and B, written with 3-D shifted NumPy slices inside a sequential loop."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def heat3d(A: dace.float64[N, N, N], B: dace.float64[N, N, N], T: dace.int64):
    for t in range(T):
        B[1:-1, 1:-1, 1:-1] = (0.125 * (A[2:, 1:-1, 1:-1] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[:-2, 1:-1, 1:-1])
                               + 0.125 * (A[1:-1, 2:, 1:-1] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[1:-1, :-2, 1:-1])
                               + 0.125 * (A[1:-1, 1:-1, 2:] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[1:-1, 1:-1, :-2])
                               + A[1:-1, 1:-1, 1:-1])
        A[1:-1, 1:-1, 1:-1] = (0.125 * (B[2:, 1:-1, 1:-1] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[:-2, 1:-1, 1:-1])
                               + 0.125 * (B[1:-1, 2:, 1:-1] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[1:-1, :-2, 1:-1])
                               + 0.125 * (B[1:-1, 1:-1, 2:] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[1:-1, 1:-1, :-2])
                               + B[1:-1, 1:-1, 1:-1])


PROGRAM = heat3d
SYMBOLS = dict(N=11)
BENCH_SYMBOLS = dict(N=100)
CONFIG = {}


def step(X, Y):
    Y[1:-1, 1:-1, 1:-1] = (0.125 * (X[2:, 1:-1, 1:-1] - 2.0 * X[1:-1, 1:-1, 1:-1] + X[:-2, 1:-1, 1:-1])
                           + 0.125 * (X[1:-1, 2:, 1:-1] - 2.0 * X[1:-1, 1:-1, 1:-1] + X[1:-1, :-2, 1:-1])
                           + 0.125 * (X[1:-1, 1:-1, 2:] - 2.0 * X[1:-1, 1:-1, 1:-1] + X[1:-1, 1:-1, :-2])
                           + X[1:-1, 1:-1, 1:-1])


def inputs(rng, S):
    """Every argument of PROGRAM for the sizes S (a dict like SYMBOLS), from a numpy Generator."""
    n = S['N']
    return dict(A=rng.random((n, n, n)), B=rng.random((n, n, n)), T=np.int64(5))


def reference(a, S):
    """NumPy reference: every array argument after the program (a holds copies of the inputs)."""
    A, B = a['A'], a['B']
    for _ in range(int(a['T'])):
        step(A, B)
        step(B, A)
    return dict(A=A, B=B)
