"""Symmetric matrix product C = alpha A B + beta C with A given by its lower triangle (PolyBench
symm): a sequential row loop with a broadcast outer-product update of the rows above, a
transposed matrix-vector product, and elementwise row arithmetic."""
import numpy as np
import dace

M, N = (dace.symbol(s) for s in 'MN')


@dace.program
def symm(alpha: dace.float64, beta: dace.float64, C: dace.float64[M, N], A: dace.float64[M, M],
         B: dace.float64[M, N]):
    for i in range(M):
        # contribution of A[i, :i] (standing for A[:i, i] too) to the rows above
        C[:i, :] += alpha * A[i, :i, np.newaxis] * B[i, :]
        tmp = B[:i, :].T @ A[i, :i]
        C[i, :] = beta * C[i, :] + alpha * A[i, i] * B[i, :] + alpha * tmp


PROGRAM = symm
SYMBOLS = dict(M=14, N=11)
BENCH_SYMBOLS = dict(M=260, N=300)
CONFIG = {}


def inputs(rng, S):
    m, n = S['M'], S['N']
    return dict(alpha=np.float64(1.5), beta=np.float64(1.2), C=rng.random((m, n)), A=rng.random((m, m)),
                B=rng.random((m, n)))


def reference(a, S):
    A = a['A']
    S_ = np.tril(A) + np.tril(A, -1).T
    return dict(C=a['beta'] * a['C'] + a['alpha'] * (S_ @ a['B']), A=A, B=a['B'])
