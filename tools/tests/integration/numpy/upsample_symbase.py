"""R-fold sample-and-hold upsampling of a length-R**L signal into a length-R**(L + 1) output written through an
(R**L, R) reshape view, plus its first difference via a transient of size R**L - 1; exercises symbolic integer powers
in sizes and ranges."""
import numpy as np
import dace

R = dace.symbol('R')
L = dace.symbol('L')


@dace.program
def upsample_symbase(x: dace.float64[R**L], y: dace.float64[R**(L + 1)], d: dace.float64[R**L - 1]):
    diff = np.empty([R**L - 1], dtype=np.float64)
    diff[:] = x[1:] - x[:R**L - 1]
    yv = np.reshape(y, (R**L, R))
    for r in range(R):
        yv[:, r] = x
    d[:] = diff


RR, LL = 2, 4

PROGRAM = upsample_symbase
SYMBOLS = dict(R=2, L=4)
CONFIG = {}


def inputs(rng, S):
    """Every array argument, from a numpy Generator."""
    return dict(x=rng.random(RR**LL), y=np.zeros(RR**(LL + 1)), d=np.zeros(RR**LL - 1))


def reference(a, S):
    """NumPy reference for every array argument."""
    x = a['x']
    return dict(x=x, y=np.repeat(x, RR), d=x[1:] - x[:-1])
