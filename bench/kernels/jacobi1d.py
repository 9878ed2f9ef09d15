"""PolyBench Jacobi 1-D: T time steps of a 3-point stencil alternating between A and B,
written with shifted NumPy slices inside a sequential loop."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def jacobi1d(A: dace.float64[N], B: dace.float64[N], T: dace.int64):
    for t in range(T):
        B[1:-1] = 0.33333 * (A[:-2] + A[1:-1] + A[2:])
        A[1:-1] = 0.33333 * (B[:-2] + B[1:-1] + B[2:])


PROGRAM = jacobi1d
SYMBOLS = dict(N=41)
BENCH_SYMBOLS = dict(N=1 << 20)
CONFIG = {}


def inputs(rng, S):
    """Every argument of PROGRAM for the sizes S (a dict like SYMBOLS), from a numpy Generator."""
    n = S['N']
    return dict(A=rng.random(n), B=rng.random(n), T=np.int64(10))


def reference(a, S):
    """NumPy reference: every array argument after the program (a holds copies of the inputs)."""
    A, B = a['A'], a['B']
    for _ in range(int(a['T'])):
        B[1:-1] = 0.33333 * (A[:-2] + A[1:-1] + A[2:])
        A[1:-1] = 0.33333 * (B[:-2] + B[1:-1] + B[2:])
    return dict(A=A, B=B)
