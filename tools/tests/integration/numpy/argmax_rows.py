"""Row-wise argmax through a nested @dace.program call in a Python loop, whose running best index b (a promoted
scalar) is used as an array index; exercises symbols the program defines itself (promoted scalars, loop counters)."""
import numpy as np
import dace

M = dace.symbol('M')
N = dace.symbol('N')


@dace.program
def row_argmax(row: dace.float64[N], idx: dace.int64[1]):
    b = 0
    for j in range(1, N):
        if row[j] > row[b]:
            b = j
    idx[0] = b


@dace.program
def argmax_rows(A: dace.float64[M, N], idx: dace.int64[M], best: dace.float64[M]):
    for i in range(M):
        row_argmax(A[i], idx[i:i + 1])
        best[i] = A[i, idx[i]]


PROGRAM = argmax_rows
SYMBOLS = dict(M=8, N=12)
CONFIG = {}


def inputs(rng, S):
    """Every array argument, from a numpy Generator."""
    m, n = 8, 12
    return dict(A=rng.random((m, n)), idx=np.zeros(m, dtype=np.int64), best=np.zeros(m))


def reference(a, S):
    """NumPy reference for every array argument."""
    idx = np.argmax(a['A'], axis=1).astype(np.int64)
    return dict(A=a['A'], idx=idx, best=a['A'][np.arange(a['A'].shape[0]), idx])
