"""While loop whose counter advances by a data-dependent stride (i = i + step[i]) and counts its iterations in c;
exercises symbols the program defines itself (promoted scalars, loop counters)."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def while_step(x: dace.float64[N], step: dace.int64[N], out: dace.float64[N], count: dace.int64[1]):
    i = 0
    c = 0
    while i < N:
        out[i] = x[i] * 2.0 + c
        i = i + step[i]
        c = c + 1
    count[0] = c


PROGRAM = while_step
SYMBOLS = dict(N=40)
CONFIG = {}


def inputs(rng, S):
    """Every array argument, from a numpy Generator."""
    n = 40
    return dict(x=rng.random(n), step=rng.integers(1, 4, size=n).astype(np.int64), out=np.zeros(n),
                count=np.zeros(1, dtype=np.int64))


def reference(a, S):
    """Pure-Python reference for every array argument."""
    out = a['out'].copy()
    i = c = 0
    n = a['x'].shape[0]
    while i < n:
        out[i] = a['x'][i] * 2.0 + c
        i += int(a['step'][i])
        c += 1
    return dict(x=a['x'], step=a['step'], out=out, count=np.array([c], dtype=np.int64))
