"""PolyBench's trmm as NPBench writes it: B = alpha * (B + strictly-lower(A)^T B), through np.dot of
column slices of shrinking symbolic length (strided views feeding a Dot library node inside loops)."""
import numpy as np
import dace

M = dace.symbol('M')
N = dace.symbol('N')


@dace.program
def trmm(alpha: dace.float64, A: dace.float64[M, M], B: dace.float64[M, N]):
    for i in range(B.shape[0]):
        for j in range(B.shape[1]):
            B[i, j] += np.dot(A[i + 1:, i], B[i + 1:, j])
    B *= alpha


PROGRAM = trmm
SYMBOLS = dict(M=20, N=30)
CONFIG = {}


def inputs(rng, S):
    """Every array argument, from a numpy Generator."""
    return dict(alpha=np.float64(1.5), A=rng.random((20, 20)), B=rng.random((20, 30)))


def reference(a, S):
    """NumPy reference for every array argument."""
    A, B = a['A'], a['B']
    for i in range(20):
        for j in range(30):
            B[i, j] += np.dot(A[i + 1:, i], B[i + 1:, j])
    B *= a["alpha"]
    return dict(alpha=a["alpha"], A=A, B=B)
