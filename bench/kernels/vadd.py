"""Vector addition with a scalar factor, c = a + 2.5 b: one flat `dace.map` over
three 1-D arrays."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def vadd(a: dace.float64[N], b: dace.float64[N], c: dace.float64[N]):
    for i in dace.map[0:N]:
        c[i] = a[i] + 2.5 * b[i]


PROGRAM = vadd
SYMBOLS = dict(N=53)
BENCH_SYMBOLS = dict(N=1 << 20)
CONFIG = {}


def inputs(rng, S):
    """Every argument of PROGRAM for the sizes S (a dict like SYMBOLS), from a numpy Generator."""
    n = S['N']
    return dict(a=rng.random(n), b=rng.random(n), c=np.zeros(n))


def reference(a, S):
    """NumPy reference: every array argument after the program (a holds copies of the inputs)."""
    c = a['a'] + 2.5 * a['b']
    return dict(a=a['a'], b=a['b'], c=c)
