"""Numerically stable softmax over the last axis of a 4-D tensor (attention scores):
axis reductions np.max and np.sum over axis=-1, broadcasting of the reduced 3-D arrays
back over the axis with np.newaxis, and np.exp."""
import numpy as np
import dace

B, H, SQ, SK = (dace.symbol(s) for s in ('B', 'H', 'SQ', 'SK'))


@dace.program
def softmax(x: dace.float64[B, H, SQ, SK], out: dace.float64[B, H, SQ, SK]):
    row_max = np.max(x, axis=-1)
    e = np.exp(x - row_max[:, :, :, np.newaxis])
    row_sum = np.sum(e, axis=-1)
    out[:] = e / row_sum[:, :, :, np.newaxis]


PROGRAM = softmax
SYMBOLS = dict(B=2, H=3, SQ=5, SK=7)
BENCH_SYMBOLS = dict(B=8, H=16, SQ=128, SK=128)
CONFIG = {}


def inputs(rng, S):
    """Every argument of PROGRAM for the sizes S (a dict like SYMBOLS), from a numpy Generator."""
    shape = (S['B'], S['H'], S['SQ'], S['SK'])
    return dict(x=4.0 * rng.standard_normal(shape), out=np.zeros(shape))


def reference(a, S):
    """NumPy reference: every array argument after the program (a holds copies of the inputs)."""
    x = a['x']
    e = np.exp(x - x.max(axis=-1)[..., None])
    return dict(x=x, out=e / e.sum(axis=-1)[..., None])
