"""A direct DFT and its inverse written with complex exponentials of
angle arrays: `np.exp(1j * ang)` puts imaginary literals and complex casts
into DaCe's tasklets. (The angles are arrays: with symbols in the exponent
DaCe 1.0.2 folds them into a complex-by-integer division its C++ cannot
compile.)"""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def dft_twiddle(x: dace.complex128[N], X: dace.complex128[N], Y: dace.complex128[N]):
    n = np.arange(N)
    for k in range(N):
        ang = (-2.0 * np.pi / N) * (k * n)
        X[k] = np.sum(x * np.exp(1j * ang))
    for k in range(N):
        ang = (2.0 * np.pi / N) * (k * n)
        Y[k] = np.sum(X * np.exp(1j * ang)) / N


PROGRAM = dft_twiddle
SYMBOLS = dict(N=12)
CONFIG = {}


def inputs(rng, S):
    n = S['N']
    return dict(x=rng.random(n) + 1j * rng.random(n), X=np.zeros(n, complex), Y=np.zeros(n, complex))


def reference(a, S):
    a['X'][:] = np.fft.fft(a['x'])
    a['Y'][:] = a['x']
    return a
