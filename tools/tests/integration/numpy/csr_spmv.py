"""CSR sparse matrix-vector product with a dace.map over rows, whose inner loop bounds start = rowptr[i] and
stop = rowptr[i + 1] are symbols a nested SDFG assigns itself; exercises symbols the program defines itself
(promoted scalars, loop counters)."""
import numpy as np
import dace

M = dace.symbol('M')
N = dace.symbol('N')
NNZ = dace.symbol('NNZ')


@dace.program
def csr_spmv(rowptr: dace.int64[M + 1], col: dace.int64[NNZ], val: dace.float64[NNZ], x: dace.float64[N],
             y: dace.float64[M]):
    for i in dace.map[0:M]:
        start = rowptr[i]
        stop = rowptr[i + 1]
        acc = 0.0
        for j in range(start, stop):
            acc += val[j] * x[col[j]]
        y[i] = acc


PROGRAM = csr_spmv
SYMBOLS = dict(M=12, N=16, NNZ=48)
CONFIG = {}


def inputs(rng, S):
    """Every array argument, from a numpy Generator: a 12x16 matrix with exactly NNZ = 48 nonzeros (density 0.25)."""
    m, n, nnz = 12, 16, 48
    pos = np.sort(rng.choice(m * n, size=nnz, replace=False))
    rows, cols = pos // n, pos % n
    rowptr = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=m))]).astype(np.int64)
    return dict(rowptr=rowptr, col=cols.astype(np.int64), val=rng.random(nnz), x=rng.random(n), y=np.zeros(m))


def reference(a, S):
    """Pure-Python reference for every array argument."""
    m = a['y'].shape[0]
    y = np.zeros(m)
    for i in range(m):
        for j in range(a['rowptr'][i], a['rowptr'][i + 1]):
            y[i] += a['val'][j] * a['x'][a['col'][j]]
    return dict(rowptr=a['rowptr'], col=a['col'], val=a['val'], x=a['x'], y=y)
