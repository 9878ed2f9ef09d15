"""R-ary tree reduction of a length-R**L vector in which, at level l, the first R**(L - l - 1) entries absorb the
R - 1 following blocks of that size; exercises symbolic integer powers in sizes and ranges (with a loop variable in
the exponent)."""
import numpy as np
import dace

R = dace.symbol('R')
L = dace.symbol('L')


@dace.program
def tree_reduce_radix(x: dace.float64[R**L], out: dace.float64[1]):
    buf = np.copy(x)
    for l in range(L):
        for r in range(1, R):
            buf[:R**(L - l - 1)] = buf[:R**(L - l - 1)] + buf[r * R**(L - l - 1):(r + 1) * R**(L - l - 1)]
    out[0] = buf[0]


RR, LL = 3, 3

PROGRAM = tree_reduce_radix
SYMBOLS = dict(R=3, L=3)
# "C" makes the loop variable l an int so that dace::math::pow(R, L - l - 1) takes the integer overload; with the
# default "Python" (int64_t) it resolves to the floating std::pow and the generated C++ does not compile.
CONFIG = {("compiler", "default_data_types"): "C"}


def inputs(rng, S):
    """Every array argument, from a numpy Generator."""
    return dict(x=rng.random(RR**LL), out=np.zeros(1))


def reference(a, S):
    """NumPy reference for every array argument."""
    b = a['x'].copy()
    n = b.shape[0]
    while n > 1:
        h = n // RR
        for r in range(1, RR):
            b[:h] = b[:h] + b[r * h:(r + 1) * h]
        n = h
    return dict(x=a['x'], out=np.array([b[0]]))
