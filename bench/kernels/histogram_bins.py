"""Histogram of float data into NB equal-width bins spanning [min, max] of the data:
whole-array np.min/np.max reductions, a `dace.map` computing each element's bin with a
data-dependent (indirect) increment of the counts (write-conflict resolution), and a map
writing the bin edges."""
import numpy as np
import dace

N, NB = dace.symbol('N'), dace.symbol('NB')


@dace.program
def histogram_bins(data: dace.float64[N], counts: dace.int64[NB], edges: dace.float64[NB + 1]):
    lo = np.min(data)
    hi = np.max(data)
    width = (hi - lo) / NB
    counts[:] = 0
    for i in dace.map[0:N]:
        b = min(dace.int64((data[i] - lo) / width), NB - 1)   # the maximum goes in the last bin
        counts[b] += 1
    for j in dace.map[0:NB + 1]:
        edges[j] = lo + j * width


PROGRAM = histogram_bins
SYMBOLS = dict(N=500, NB=13)
BENCH_SYMBOLS = dict(N=1 << 23, NB=256)
CONFIG = {}


def inputs(rng, S):
    """Every argument of PROGRAM for the sizes S (a dict like SYMBOLS), from a numpy Generator."""
    return dict(data=rng.normal(3.0, 2.0, size=S['N']), counts=np.zeros(S['NB'], dtype=np.int64),
                edges=np.zeros(S['NB'] + 1))


def reference(a, S):
    """NumPy reference: every array argument after the program (a holds copies of the inputs)."""
    data, nb = a['data'], S['NB']
    lo, hi = data.min(), data.max()
    width = (hi - lo) / nb
    idx = np.minimum(((data - lo) / width).astype(np.int64), nb - 1)
    counts = np.bincount(idx, minlength=nb).astype(np.int64)
    edges = lo + np.arange(nb + 1) * width
    return dict(data=data, counts=counts, edges=edges)
