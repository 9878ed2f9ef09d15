"""Symmetric rank-k update of the lower triangle, C = alpha A A^T + beta C (PolyBench syrk):
a sequential row loop whose body is a matrix-vector product over a growing row range."""
import numpy as np
import dace

N, M = (dace.symbol(s) for s in 'NM')


@dace.program
def syrk(alpha: dace.float64, beta: dace.float64, C: dace.float64[N, N], A: dace.float64[N, M]):
    for i in range(N):
        C[i, :i + 1] = beta * C[i, :i + 1] + alpha * (A[:i + 1, :] @ A[i, :])


PROGRAM = syrk
SYMBOLS = dict(N=15, M=11)
BENCH_SYMBOLS = dict(N=400, M=320)
CONFIG = {}


def inputs(rng, S):
    n, m = S['N'], S['M']
    return dict(alpha=np.float64(1.5), beta=np.float64(1.2), C=rng.random((n, n)), A=rng.random((n, m)))


def reference(a, S):
    C, A = a['C'], a['A']
    full = a['beta'] * C + a['alpha'] * (A @ A.T)
    return dict(C=np.tril(full) + np.triu(C, 1), A=A)
