"""Histogram with a data-dependent bin index b = int(x[i] * NBINS), a scalar that simplify promotes to a symbol
assigned on an inter-state edge; exercises symbols the program defines itself (promoted scalars, loop counters)."""
import numpy as np
import dace

N = dace.symbol('N')
NBINS = dace.symbol('NBINS')


@dace.program
def histogram(x: dace.float64[N], hist: dace.int64[NBINS]):
    for i in range(N):
        b = int(x[i] * NBINS)
        hist[b] += 1


NB = 8

PROGRAM = histogram
SYMBOLS = dict(N=50, NBINS=8)
CONFIG = {}


def inputs(rng, S):
    """Every array argument, from a numpy Generator."""
    n = 50
    return dict(x=rng.random(n), hist=np.zeros(NB, dtype=np.int64))


def reference(a, S):
    """Pure-Python reference for every array argument."""
    hist = np.zeros(NB, dtype=np.int64)
    for v in a['x']:
        hist[int(v * NB)] += 1
    return dict(x=a['x'], hist=hist)
