"""A Cauchy-integral (resolvent) sum over complex nodes z_k on a circle:
X_k = (z_k I - A)^-1 B through LAPACK's zgesv, weighted by w_k and split
by `np.abs(z) < rho`, which DaCe promotes to a float symbol. (With
Python's `abs`, DaCe 1.0.2 types the magnitude as complex and its code
does not compile.)"""
import numpy as np
import dace

N, M, P = (dace.symbol(s) for s in ('N', 'M', 'P'))


@dace.program
def resolvent_sum(A: dace.complex128[N, N], B: dace.complex128[N, M], nodes: dace.complex128[P],
                  w: dace.complex128[P], inner: dace.complex128[N, M], outer: dace.complex128[N, M], rho: dace.float64):
    I = np.eye(N, dtype=np.complex128)
    for k in range(P):
        z = nodes[k]
        X = np.linalg.solve(z * I - A, B)
        if np.abs(z) < rho:
            inner += w[k] * X
        else:
            outer += w[k] * X


PROGRAM = resolvent_sum
SYMBOLS = dict(N=6, M=3, P=9)
CONFIG = {}


def inputs(rng, S):
    n, m, p = S['N'], S['M'], S['P']
    c = lambda *shape: rng.random(shape) + 1j * rng.random(shape)  # noqa: E731
    theta = 2 * np.pi * (np.arange(p) + 0.5) / p
    radius = 3.0 + rng.random(p) * 2.0
    nodes = radius * np.exp(1j * theta)
    return dict(A=c(n, n) * 0.3, B=c(n, m), nodes=nodes, w=nodes / p, inner=np.zeros((n, m), complex),
                outer=np.zeros((n, m), complex), rho=np.float64(4.0))


def reference(a, S):
    n = S['N']
    for z, w in zip(a['nodes'], a['w']):
        X = np.linalg.solve(z * np.eye(n) - a['A'], a['B'])
        if abs(z) < a['rho']:
            a['inner'] += w * X
        else:
            a['outer'] += w * X
    return a
