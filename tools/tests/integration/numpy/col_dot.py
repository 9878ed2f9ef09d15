"""Each B[i, j] adds the dot product of the column of A below the diagonal
with the column of B below row i (a triangular-product step): strided
column slices of shrinking symbolic length passed to np.dot, which DaCe
writes as views feeding a Dot library node inside loops."""
import numpy as np
import dace

M = dace.symbol('M')
N = dace.symbol('N')


@dace.program
def col_dot(A: dace.float64[M, M], B: dace.float64[M, N]):
    for i in range(M):
        for j in range(N):
            B[i, j] += np.dot(A[i + 1:, i], B[i + 1:, j])


PROGRAM = col_dot
SYMBOLS = dict(M=12, N=7)
CONFIG = {}


def inputs(rng, S):
    """Every array argument, from a numpy Generator."""
    return dict(A=rng.random((12, 12)), B=rng.random((12, 7)))


def reference(a, S):
    """NumPy reference for every array argument."""
    A, B = a['A'], a['B']
    for i in range(12):
        for j in range(7):
            B[i, j] += np.dot(A[i + 1:, i], B[i + 1:, j])
    return dict(A=A, B=B)
