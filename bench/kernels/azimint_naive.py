"""Naive azimuthal integration: the mean of the data in each of NPT radial rings,
computed ring by ring with masks; a sequential loop over the bins, comparisons combined
with np.logical_and, an np.where selection and an astype cast, summed with np.sum."""
import numpy as np
import dace

N, NPT = dace.symbol('N'), dace.symbol('NPT')


@dace.program
def azimint_naive(data: dace.float64[N], radius: dace.float64[N], res: dace.float64[NPT]):
    rmax = np.max(radius)
    for i in range(NPT):
        r1 = rmax * i / NPT
        r2 = rmax * (i + 1) / NPT
        in_ring = np.logical_and(radius >= r1, radius < r2)
        total = np.sum(np.where(in_ring, data, 0.0))
        count = np.sum(in_ring.astype(np.float64))
        res[i] = total / count


PROGRAM = azimint_naive
SYMBOLS = dict(N=400, NPT=7)
BENCH_SYMBOLS = dict(N=250000, NPT=48)
CONFIG = {}


def inputs(rng, S):
    """Every argument of PROGRAM for the sizes S (a dict like SYMBOLS), from a numpy Generator."""
    n = S['N']
    return dict(data=rng.random(n), radius=np.sqrt(rng.random(n)), res=np.zeros(S['NPT']))


def reference(a, S):
    """NumPy reference: every array argument after the program (a holds copies of the inputs)."""
    data, radius, npt = a['data'], a['radius'], S['NPT']
    rmax = radius.max()
    res = np.zeros(npt)
    for i in range(npt):
        r1 = rmax * i / npt
        r2 = rmax * (i + 1) / npt
        res[i] = data[(r1 <= radius) & (radius < r2)].mean()
    return dict(data=data, radius=radius, res=res)
