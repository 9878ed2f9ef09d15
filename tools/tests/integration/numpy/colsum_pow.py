"""Views a length-R**K vector as (R, R**(K - 1)), sums over the first axis into a transient of size R**(K - 1) and
scales by 1/R; exercises symbolic integer powers in sizes and ranges."""
import numpy as np
import dace

R = dace.symbol('R')
K = dace.symbol('K')


@dace.program
def colsum_pow(x: dace.float64[R**K], out: dace.float64[R**(K - 1)]):
    xv = np.reshape(x, (R, R**(K - 1)))
    tmp = np.empty([R**(K - 1)], dtype=np.float64)
    tmp[:] = np.sum(xv, axis=0)
    out[:] = tmp / R


RR, KK = 3, 3

PROGRAM = colsum_pow
SYMBOLS = dict(R=3, K=3)
CONFIG = {}


def inputs(rng, S):
    """Every array argument, from a numpy Generator."""
    return dict(x=rng.random(RR**KK), out=np.zeros(RR**(KK - 1)))


def reference(a, S):
    """NumPy reference for every array argument."""
    return dict(x=a['x'], out=a['x'].reshape(RR, -1).sum(axis=0) / RR)
