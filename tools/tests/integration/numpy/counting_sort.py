"""Stable counting sort (count keys, exclusive prefix sum, scatter through a per-key cursor p = pos[keys[i]]);
exercises symbols the program defines itself (promoted scalars, loop counters)."""
import numpy as np
import dace

N = dace.symbol('N')
K = dace.symbol('K')


@dace.program
def counting_sort(keys: dace.int64[N], vals: dace.float64[N], offs: dace.int64[K + 1], out_keys: dace.int64[N],
                  out_vals: dace.float64[N]):
    cnt = np.zeros([K], dtype=np.int64)
    for i in range(N):
        cnt[keys[i]] += 1
    offs[0] = 0
    for k in range(K):
        offs[k + 1] = offs[k] + cnt[k]
    pos = np.zeros([K], dtype=np.int64)
    for k in range(K):
        pos[k] = offs[k]
    for i in range(N):
        kk = keys[i]
        p = pos[kk]
        out_keys[p] = kk
        out_vals[p] = vals[i]
        pos[kk] = p + 1


KK = 6

PROGRAM = counting_sort
SYMBOLS = dict(N=30, K=6)
CONFIG = {}


def inputs(rng, S):
    """Every array argument, from a numpy Generator."""
    n = 30
    return dict(keys=rng.integers(0, KK, size=n).astype(np.int64), vals=rng.random(n),
                offs=np.zeros(KK + 1, dtype=np.int64), out_keys=np.zeros(n, dtype=np.int64), out_vals=np.zeros(n))


def reference(a, S):
    """NumPy reference for every array argument."""
    order = np.argsort(a['keys'], kind='stable')
    cnt = np.bincount(a['keys'], minlength=KK)
    offs = np.concatenate([[0], np.cumsum(cnt)]).astype(np.int64)
    return dict(keys=a['keys'], vals=a['vals'], offs=offs, out_keys=a['keys'][order], out_vals=a['vals'][order])
