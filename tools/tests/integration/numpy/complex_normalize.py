"""Per-element normalization of complex samples written with scalar code in
a loop: `s = x[i]` is read by `if abs(s) > r` and `if s != 0.0`, so DaCe
promotes it to a complex symbol that tasklets and inter-state conditions
read (C++'s std::abs and complex comparison)."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def complex_normalize(x: dace.complex128[N], y: dace.complex128[N], flags: dace.int64[N], r: dace.float64):
    for i in range(N):
        s = x[i]
        if abs(s) > r:
            y[i] = s * (r / abs(s))
            flags[i] = 1
        else:
            y[i] = s
        if s != 0.0:
            flags[i] += 2


PROGRAM = complex_normalize
SYMBOLS = dict(N=20)
CONFIG = {}


def inputs(rng, S):
    n = S['N']
    x = (rng.random(n) * 4 - 2) + 1j * (rng.random(n) * 4 - 2)
    x[3] = 0
    return dict(x=x, y=np.zeros(n, complex), flags=np.zeros(n, np.int64), r=np.float64(1.5))


def reference(a, S):
    r = a['r']
    for i, s in enumerate(a['x']):
        if abs(s) > r:
            a['y'][i] = s * (r / abs(s))
            a['flags'][i] = 1
        else:
            a['y'][i] = s
        if s != 0.0:
            a['flags'][i] += 2
    return dict(x=a['x'], y=a['y'], flags=a['flags'], r=r)
