"""Run-length encoding with nested while loops, the inner scan index j = i + 1 starting from the data-dependent outer
position i (x[N] is a -1 sentinel); exercises symbols the program defines itself (promoted scalars, loop counters)."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def rle(x: dace.int64[N + 1], run_val: dace.int64[N], run_len: dace.int64[N], nruns: dace.int64[1]):
    i = 0
    r = 0
    while i < N:
        j = i + 1
        while x[j] == x[i]:
            j = j + 1
        run_val[r] = x[i]
        run_len[r] = j - i
        r = r + 1
        i = j
    nruns[0] = r


PROGRAM = rle
SYMBOLS = dict(N=40)
CONFIG = {}


def inputs(rng, S):
    """Every array argument, from a numpy Generator."""
    n = 40
    x = np.repeat(rng.integers(0, 4, size=n), rng.integers(1, 4, size=n))[:n]
    x = np.concatenate([x, [-1]]).astype(np.int64)
    return dict(x=x, run_val=np.zeros(n, dtype=np.int64), run_len=np.zeros(n, dtype=np.int64),
                nruns=np.zeros(1, dtype=np.int64))


def reference(a, S):
    """Pure-Python reference for every array argument."""
    x = a['x'][:-1]
    vals, lens = [], []
    for v in x:
        if vals and vals[-1] == v:
            lens[-1] += 1
        else:
            vals.append(int(v))
            lens.append(1)
    rv, rl = a['run_val'].copy(), a['run_len'].copy()
    rv[:len(vals)] = vals
    rl[:len(lens)] = lens
    return dict(x=a['x'], run_val=rv, run_len=rl, nruns=np.array([len(vals)], dtype=np.int64))
