"""The Numba "go_fast" example: accumulate tanh of the diagonal into a scalar in a
sequential loop, then add that scalar to every element (scalar loop carry, np.tanh,
scalar-to-array broadcasting)."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def go_fast(a: dace.float64[N, N], out: dace.float64[N, N]):
    trace = 0.0
    for i in range(N):
        trace += np.tanh(a[i, i])
    out[:] = a + trace


PROGRAM = go_fast
SYMBOLS = dict(N=21)
BENCH_SYMBOLS = dict(N=3000)
CONFIG = {}


def inputs(rng, S):
    """Every argument of PROGRAM for the sizes S (a dict like SYMBOLS), from a numpy Generator."""
    n = S['N']
    return dict(a=rng.random((n, n)), out=np.zeros((n, n)))


def reference(a, S):
    """NumPy reference: every array argument after the program (a holds copies of the inputs)."""
    A = a['a']
    return dict(a=A, out=A + np.sum(np.tanh(np.diag(A))))
