"""Bit-reversal permutation out[rev(i)] = x[i] of a length-2**L array, the reversed index built with <<, |, & and >>
on scalars DaCe promotes to symbols; exercises bitwise operators on inter-state edges."""
import numpy as np
import dace

N = dace.symbol('N')
L = dace.symbol('L')


@dace.program
def bitrev(x: dace.float64[N], out: dace.float64[N]):
    for i in range(N):
        r = 0
        v = i
        for b in range(L):
            r = (r << 1) | (v & 1)
            v = v >> 1
        out[r] = x[i]


LBITS = 5

PROGRAM = bitrev
SYMBOLS = dict(N=32, L=5)
CONFIG = {}


def inputs(rng, S):
    """Every array argument, from a numpy Generator."""
    n = 2**LBITS
    return dict(x=rng.random(n), out=np.zeros(n))


def reference(a, S):
    """Pure-Python reference for every array argument."""
    n, l = a['x'].shape[0], LBITS
    out = np.zeros_like(a['x'])
    for i in range(n):
        r = int('{:0{w}b}'.format(i, w=l)[::-1], 2)
        out[r] = a['x'][i]
    return dict(x=a['x'], out=out)
