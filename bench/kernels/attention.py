"""Scaled dot-product attention over heads: batched matrix products (a 3-D @ a 3-D, DaCe's
BatchedMatMul), a numerically stable softmax over the last axis (np.max / np.sum with
np.newaxis), and a projection by one weight matrix shared by every head (a 2-D @ a 3-D)."""
import numpy as np
import dace

H, S, D = (dace.symbol(s) for s in ('H', 'S', 'D'))


@dace.program
def attention(q: dace.float64[H, S, D], kt: dace.float64[H, D, S], v: dace.float64[H, S, D],
              wo: dace.float64[S, S], out: dace.float64[H, S, D]):
    scores = (q @ kt) / np.sqrt(np.float64(D))
    m = np.max(scores, axis=-1)
    e = np.exp(scores - m[:, :, np.newaxis])
    p = e / np.sum(e, axis=-1)[:, :, np.newaxis]
    out[:] = wo @ (p @ v)


PROGRAM = attention
SYMBOLS = dict(H=3, S=5, D=4)
BENCH_SYMBOLS = dict(H=16, S=256, D=64)
CONFIG = {}


def inputs(rng, S):
    """Every argument of PROGRAM for the sizes S (a dict like SYMBOLS), from a numpy Generator."""
    h, s, d = S['H'], S['S'], S['D']
    return dict(q=rng.standard_normal((h, s, d)), kt=rng.standard_normal((h, d, s)),
                v=rng.standard_normal((h, s, d)), wo=rng.standard_normal((s, s)) / np.sqrt(s),
                out=np.zeros((h, s, d)))


def reference(a, S):
    """NumPy reference: every array argument after the program (a holds copies of the inputs)."""
    z = (a['q'] @ a['kt']) / np.sqrt(np.float64(S['D']))
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    r = dict(a)
    r['out'] = a['wo'] @ ((e / e.sum(axis=-1, keepdims=True)) @ a['v'])
    return r
