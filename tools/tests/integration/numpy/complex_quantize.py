"""Magnitude-band quantization of complex samples with an if/elif chain:
`s = x[i]` is only read, by `abs(s) < t0` and `abs(s) < t1` on
inter-state edges and by the tasklets of each band, so DaCe promotes it to
a complex symbol."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def complex_quantize(x: dace.complex128[N], q: dace.complex128[N], band: dace.int64[N], t0: dace.float64,
                     t1: dace.float64):
    for i in range(N):
        s = x[i]
        if abs(s) < t0:
            q[i] = s * 0.0
            band[i] = 0
        elif abs(s) < t1:
            q[i] = s * 0.5
            band[i] = 1
        else:
            q[i] = s
            band[i] = 2


PROGRAM = complex_quantize
SYMBOLS = dict(N=24)
CONFIG = {}


def inputs(rng, S):
    n = S['N']
    x = (rng.random(n) * 4 - 2) + 1j * (rng.random(n) * 4 - 2)
    return dict(x=x, q=np.zeros(n, complex), band=np.zeros(n, np.int64), t0=np.float64(0.8), t1=np.float64(1.9))


def reference(a, S):
    for i, s in enumerate(a['x']):
        if abs(s) < a['t0']:
            a['q'][i], a['band'][i] = s * 0.0, 0
        elif abs(s) < a['t1']:
            a['q'][i], a['band'][i] = s * 0.5, 1
        else:
            a['q'][i], a['band'][i] = s, 2
    return a
