"""Stream compaction of the elements above 0.5, with a running counter k (a promoted scalar) as the write index;
exercises symbols the program defines itself (promoted scalars, loop counters)."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def compact(x: dace.float64[N], out: dace.float64[N], cnt: dace.int64[1]):
    k = 0
    for i in range(N):
        if x[i] > 0.5:
            out[k] = x[i]
            k = k + 1
    cnt[0] = k


PROGRAM = compact
SYMBOLS = dict(N=48)
CONFIG = {}


def inputs(rng, S):
    """Every array argument, from a numpy Generator."""
    n = 48
    return dict(x=rng.random(n), out=np.zeros(n), cnt=np.zeros(1, dtype=np.int64))


def reference(a, S):
    """NumPy reference for every array argument."""
    sel = a['x'][a['x'] > 0.5]
    out = a['out'].copy()
    out[:sel.shape[0]] = sel
    return dict(x=a['x'], out=out, cnt=np.array([sel.shape[0]], dtype=np.int64))
