"""Escape-time iteration of z -> z^2 + c for complex points, written with a
scalar loop per point: `np.abs(z)` is read by an `if`, so DaCe promotes
the magnitude to a float symbol while z stays a complex scalar. (With
Python's `abs`, DaCe 1.0.2 types the magnitude as complex and its code
does not compile.)"""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def escape_time(c: dace.complex128[N], steps: dace.int64[N], last: dace.complex128[N], maxit: dace.int64):
    for i in range(N):
        z = c[i] * 0.0
        k = 0
        for t in range(maxit):
            if np.abs(z) < 2.0:
                z = z * z + c[i]
                k += 1
        steps[i] = k
        last[i] = z


PROGRAM = escape_time
SYMBOLS = dict(N=24)
CONFIG = {}


def inputs(rng, S):
    n = S['N']
    c = (rng.random(n) * 3 - 2) + 1j * (rng.random(n) * 2.4 - 1.2)
    return dict(c=c, steps=np.zeros(n, np.int64), last=np.zeros(n, complex), maxit=np.int64(40))


def reference(a, S):
    for i, c in enumerate(a['c']):
        z, k = 0j, 0
        for t in range(a['maxit']):
            if np.abs(z) < 2.0:
                z = z * z + c
                k += 1
        a['steps'][i] = k
        a['last'][i] = z
    return dict(c=a['c'], steps=a['steps'], last=a['last'], maxit=a['maxit'])
