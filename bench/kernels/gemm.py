"""PolyBench GEMM, C = alpha A B + beta C: a NumPy matrix product (`@`) with scalar
scaling, written back into an argument array."""
import numpy as np
import dace

M, N, K = (dace.symbol(s) for s in 'MNK')


@dace.program
def gemm(alpha: dace.float64, beta: dace.float64, C: dace.float64[M, N], A: dace.float64[M, K],
         B: dace.float64[K, N]):
    C[:] = alpha * A @ B + beta * C


PROGRAM = gemm
SYMBOLS = dict(M=7, N=9, K=5)
BENCH_SYMBOLS = dict(M=400, N=400, K=400)
CONFIG = {}


def inputs(rng, S):
    """Every argument of PROGRAM for the sizes S (a dict like SYMBOLS), from a numpy Generator."""
    m, n, k = S['M'], S['N'], S['K']
    return dict(alpha=np.float64(1.5), beta=np.float64(1.2), C=rng.random((m, n)),
                A=rng.random((m, k)), B=rng.random((k, n)))


def reference(a, S):
    """NumPy reference: every array argument after the program (a holds copies of the inputs)."""
    C = a['alpha'] * a['A'] @ a['B'] + a['beta'] * a['C']
    return dict(C=C, A=a['A'], B=a['B'])
