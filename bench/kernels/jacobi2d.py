"""PolyBench Jacobi 2-D: T time steps of a 5-point stencil alternating between A and B,
written with 2-D shifted NumPy slices inside a sequential loop."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def jacobi2d(A: dace.float64[N, N], B: dace.float64[N, N], T: dace.int64):
    for t in range(T):
        B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] + A[2:, 1:-1] + A[:-2, 1:-1])
        A[1:-1, 1:-1] = 0.2 * (B[1:-1, 1:-1] + B[1:-1, :-2] + B[1:-1, 2:] + B[2:, 1:-1] + B[:-2, 1:-1])


PROGRAM = jacobi2d
SYMBOLS = dict(N=19)
BENCH_SYMBOLS = dict(N=1000)
CONFIG = {}


def inputs(rng, S):
    """Every argument of PROGRAM for the sizes S (a dict like SYMBOLS), from a numpy Generator."""
    n = S['N']
    return dict(A=rng.random((n, n)), B=rng.random((n, n)), T=np.int64(10))


def reference(a, S):
    """NumPy reference: every array argument after the program (a holds copies of the inputs)."""
    A, B = a['A'], a['B']
    for _ in range(int(a['T'])):
        B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] + A[2:, 1:-1] + A[:-2, 1:-1])
        A[1:-1, 1:-1] = 0.2 * (B[1:-1, 1:-1] + B[1:-1, :-2] + B[1:-1, 2:] + B[2:, 1:-1] + B[:-2, 1:-1])
    return dict(A=A, B=B)
