"""Forward substitution L x = b with a lower triangular L (PolyBench trisolv): a sequential
loop over rows whose body is a dot product of a growing row slice with the solved prefix."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def trisolv(L: dace.float64[N, N], x: dace.float64[N], b: dace.float64[N]):
    for i in range(N):
        x[i] = (b[i] - L[i, :i] @ x[:i]) / L[i, i]


PROGRAM = trisolv
SYMBOLS = dict(N=16)
BENCH_SYMBOLS = dict(N=2000)
CONFIG = {}


def inputs(rng, S):
    n = S['N']
    L = np.tril(rng.random((n, n))) + n * np.eye(n)
    return dict(L=L, x=np.zeros(n), b=rng.random(n))


def reference(a, S):
    x = np.linalg.solve(a['L'], a['b'])
    return dict(L=a['L'], x=x, b=a['b'])
