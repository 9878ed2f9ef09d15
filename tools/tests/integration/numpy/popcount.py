"""Kernighan popcount of each element (while v != 0: v = v & (v - 1); c = c + 1), a data-dependent while loop;
exercises bitwise operators on inter-state edges."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def popcount(a: dace.int64[N], out: dace.int64[N]):
    for i in range(N):
        v = a[i]
        c = 0
        while v != 0:
            v = v & (v - 1)
            c = c + 1
        out[i] = c


PROGRAM = popcount
SYMBOLS = dict(N=40)
CONFIG = {}


def inputs(rng, S):
    """Every array argument, from a numpy Generator."""
    n = 40
    return dict(a=rng.integers(0, 1 << 16, size=n).astype(np.int64), out=np.zeros(n, dtype=np.int64))


def reference(a, S):
    """Pure-Python reference for every array argument."""
    return dict(a=a['a'], out=np.array([bin(int(v)).count('1') for v in a['a']], dtype=np.int64))
