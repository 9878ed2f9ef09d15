"""PolyBench BiCG kernel, s = r A and q = A p: two independent matrix-vector products
(`@`) over the same matrix, one from each side."""
import numpy as np
import dace

M, N = (dace.symbol(s) for s in 'MN')


@dace.program
def bicg(A: dace.float64[M, N], p: dace.float64[N], r: dace.float64[M], s: dace.float64[N],
         q: dace.float64[M]):
    s[:] = r @ A
    q[:] = A @ p


PROGRAM = bicg
SYMBOLS = dict(M=11, N=7)
BENCH_SYMBOLS = dict(M=2000, N=2000)
CONFIG = {}


def inputs(rng, S):
    """Every argument of PROGRAM for the sizes S (a dict like SYMBOLS), from a numpy Generator."""
    m, n = S['M'], S['N']
    return dict(A=rng.random((m, n)), p=rng.random(n), r=rng.random(m), s=np.zeros(n), q=np.zeros(m))


def reference(a, S):
    """NumPy reference: every array argument after the program (a holds copies of the inputs)."""
    return dict(A=a['A'], p=a['p'], r=a['r'], s=a['r'] @ a['A'], q=a['A'] @ a['p'])
