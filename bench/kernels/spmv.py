"""Sparse matrix-vector product b += A x with A in CSR form: a `dace.map` over rows with
a nested map whose range comes from the row pointers, an indirect read x[A_col[j]] and a
write-conflict-resolved (sum) tasklet output."""
import numpy as np
import dace

H, W, nnz = dace.symbol('H'), dace.symbol('W'), dace.symbol('nnz')


@dace.program
def spmv(A_row: dace.uint32[H + 1], A_col: dace.uint32[nnz], A_val: dace.float32[nnz],
         x: dace.float32[W], b: dace.float32[H]):
    for i in dace.map[0:H]:
        for j in dace.map[A_row[i]:A_row[i + 1]]:
            with dace.tasklet:
                aval << A_val[j]
                xval << x[A_col[j]]
                out = aval * xval
                out >> b(1, lambda a, b: a + b)[i]


PROGRAM = spmv
SYMBOLS = dict(H=12, W=9, nnz=30)
BENCH_SYMBOLS = dict(H=4000, W=4000, nnz=160000)
CONFIG = {}


def csr(rng, h, w, nz):
    """A random h x w CSR matrix with exactly nz nonzeros. Values (and x below) are
    multiples of 1/16 in (0, 1], so float32 products and row sums are exact in any order."""
    flat = np.sort(rng.choice(h * w, size=nz, replace=False))
    rows, cols = np.divmod(flat, w)
    row_ptr = np.zeros(h + 1, dtype=np.uint32)
    row_ptr[1:] = np.cumsum(np.bincount(rows, minlength=h))
    vals = (rng.integers(1, 17, size=nz) / 16).astype(np.float32)
    return row_ptr, cols.astype(np.uint32), vals


def inputs(rng, S):
    """Every argument of PROGRAM for the sizes S (a dict like SYMBOLS), from a numpy Generator."""
    a_row, a_col, a_val = csr(rng, S['H'], S['W'], S['nnz'])
    x = (rng.integers(1, 17, size=S['W']) / 16).astype(np.float32)
    return dict(A_row=a_row, A_col=a_col, A_val=a_val, x=x, b=np.zeros(S['H'], dtype=np.float32))


def spmv_np(A_row, A_col, A_val, x, b):
    rows = np.repeat(np.arange(len(b)), np.diff(A_row.astype(np.int64)))
    b += np.bincount(rows, weights=A_val * x[A_col], minlength=len(b)).astype(np.float32)


def reference(a, S):
    """NumPy reference: every array argument after the program (a holds copies of the inputs)."""
    spmv_np(**a)
    return dict(a)
