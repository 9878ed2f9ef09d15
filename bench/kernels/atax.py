"""PolyBench ATAX, y = A^T (A x): two chained matrix-vector products (`@`), the second
one from the left."""
import numpy as np
import dace

M, N = (dace.symbol(s) for s in 'MN')


@dace.program
def atax(A: dace.float64[M, N], x: dace.float64[N], y: dace.float64[N]):
    y[:] = (A @ x) @ A


PROGRAM = atax
SYMBOLS = dict(M=11, N=7)
BENCH_SYMBOLS = dict(M=2000, N=2000)
CONFIG = {}


def inputs(rng, S):
    """Every argument of PROGRAM for the sizes S (a dict like SYMBOLS), from a numpy Generator."""
    m, n = S['M'], S['N']
    return dict(A=rng.random((m, n)), x=rng.random(n), y=np.zeros(n))


def reference(a, S):
    """NumPy reference: every array argument after the program (a holds copies of the inputs)."""
    return dict(A=a['A'], x=a['x'], y=(a['A'] @ a['x']) @ a['A'])
