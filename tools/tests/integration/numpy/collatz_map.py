"""Collatz step count of each element inside a dace.map, each iteration a data-dependent while loop in a nested
SDFG where v and c become symbols; exercises symbols the program defines itself (promoted scalars, loop counters)."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def collatz_map(a: dace.int64[N], steps: dace.int64[N]):
    for i in dace.map[0:N]:
        v = a[i]
        c = 0
        while v != 1:
            if v % 2 == 0:
                v = v // 2
            else:
                v = 3 * v + 1
            c = c + 1
        steps[i] = c


PROGRAM = collatz_map
SYMBOLS = dict(N=16)
CONFIG = {}


def inputs(rng, S):
    """Every array argument, from a numpy Generator."""
    n = 16
    return dict(a=rng.integers(1, 100, size=n).astype(np.int64), steps=np.zeros(n, dtype=np.int64))


def reference(a, S):
    """Pure-Python reference for every array argument."""
    out = np.zeros_like(a['a'])
    for i, v in enumerate(a['a']):
        v, c = int(v), 0
        while v != 1:
            v = v // 2 if v % 2 == 0 else 3 * v + 1
            c += 1
        out[i] = c
    return dict(a=a['a'], steps=out)
