"""Levinson-Durbin recursion for a Toeplitz (Yule-Walker) system (PolyBench durbin): a sequential
loop carrying scalars, whose body has maps with reversed indices (k - 1 - i), an np.sum
reduction and slice copies of a growing prefix."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def durbin(r: dace.float64[N], y: dace.float64[N]):
    # np.flip(r[:k]) would be the NumPy spelling; DaCe 1.0.2 rejects flipped views in a dot
    t = np.empty_like(y)
    z = np.empty_like(y)
    y[0] = -r[0]
    alpha = -r[0]
    beta = 1.0
    for k in range(1, N):
        beta *= 1.0 - alpha * alpha
        for i in dace.map[0:k]:
            t[i] = r[k - 1 - i] * y[i]
        alpha = -(r[k] + np.sum(t[:k])) / beta
        for i in dace.map[0:k]:
            z[i] = y[i] + alpha * y[k - 1 - i]
        y[:k] = z[:k]
        y[k] = alpha


PROGRAM = durbin
SYMBOLS = dict(N=16)
BENCH_SYMBOLS = dict(N=4000)
CONFIG = {}


def inputs(rng, S):
    n = S['N']
    # |r| sums well below 1/2, so the Toeplitz matrix is diagonally dominant (SPD)
    r = 0.08 * rng.uniform(-1.0, 1.0, n) * 0.8**np.arange(n)
    return dict(r=r, y=np.zeros(n))


def reference(a, S):
    r, n = a['r'], S['N']
    col = np.concatenate(([1.0], r[:n - 1]))
    T = col[np.abs(np.arange(n)[:, None] - np.arange(n)[None, :])]
    return dict(r=r, y=np.linalg.solve(T, -r))
