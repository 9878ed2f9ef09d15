"""Several reductions of one matrix into separate outputs: row sums, column maxima,
column means and (two-pass) column variances, and the overall mean and variance; axis
reductions (np.sum, np.max, np.mean) with broadcasting of a reduced row."""
import numpy as np
import dace

M, N = dace.symbol('M'), dace.symbol('N')


@dace.program
def reductions(A: dace.float64[M, N], row_sum: dace.float64[M], col_max: dace.float64[N],
               col_mean: dace.float64[N], col_var: dace.float64[N], total: dace.float64[2]):
    row_sum[:] = np.sum(A, axis=1)
    col_max[:] = np.max(A, axis=0)
    col_mean[:] = np.mean(A, axis=0)
    dev = A - col_mean
    col_var[:] = np.sum(dev * dev, axis=0) / M
    mu = np.mean(A)
    total[0] = mu
    total[1] = np.mean((A - mu) ** 2)


PROGRAM = reductions
SYMBOLS = dict(M=23, N=17)
BENCH_SYMBOLS = dict(M=2000, N=1500)
CONFIG = {}


def inputs(rng, S):
    """Every argument of PROGRAM for the sizes S (a dict like SYMBOLS), from a numpy Generator."""
    m, n = S['M'], S['N']
    return dict(A=rng.normal(1.0, 3.0, size=(m, n)), row_sum=np.zeros(m), col_max=np.zeros(n),
                col_mean=np.zeros(n), col_var=np.zeros(n), total=np.zeros(2))


def reference(a, S):
    """NumPy reference: every array argument after the program (a holds copies of the inputs)."""
    A = a['A']
    return dict(A=A, row_sum=A.sum(axis=1), col_max=A.max(axis=0), col_mean=A.mean(axis=0),
                col_var=A.var(axis=0), total=np.array([A.mean(), A.var()]))
