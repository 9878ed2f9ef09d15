"""Forward pass of a 3-layer perceptron on a batch: matmuls with broadcast bias rows,
ReLU via np.maximum, and a row-wise softmax (np.max / np.sum over axis 1, broadcast back
with np.newaxis)."""
import numpy as np
import dace

B, D0, D1, D2, D3 = (dace.symbol(s) for s in ('B', 'D0', 'D1', 'D2', 'D3'))


@dace.program
def mlp(x: dace.float64[B, D0], w1: dace.float64[D0, D1], b1: dace.float64[D1],
        w2: dace.float64[D1, D2], b2: dace.float64[D2], w3: dace.float64[D2, D3],
        b3: dace.float64[D3], out: dace.float64[B, D3]):
    h1 = np.maximum(x @ w1 + b1, 0.0)
    h2 = np.maximum(h1 @ w2 + b2, 0.0)
    logits = h2 @ w3 + b3
    m = np.max(logits, axis=1)
    e = np.exp(logits - m[:, np.newaxis])
    s = np.sum(e, axis=1)
    out[:] = e / s[:, np.newaxis]


PROGRAM = mlp
SYMBOLS = dict(B=4, D0=9, D1=7, D2=6, D3=5)
BENCH_SYMBOLS = dict(B=64, D0=512, D1=256, D2=128, D3=10)
CONFIG = {}


def inputs(rng, S):
    """Every argument of PROGRAM for the sizes S (a dict like SYMBOLS), from a numpy Generator."""
    b, d0, d1, d2, d3 = (S[k] for k in ('B', 'D0', 'D1', 'D2', 'D3'))

    def layer(i, o):
        return (rng.random((i, o)) - 0.5) * (2.0 / np.sqrt(i)), 0.1 * rng.random(o)

    w1, b1 = layer(d0, d1)
    w2, b2 = layer(d1, d2)
    w3, b3 = layer(d2, d3)
    return dict(x=rng.random((b, d0)), w1=w1, b1=b1, w2=w2, b2=b2, w3=w3, b3=b3,
                out=np.zeros((b, d3)))


def reference(a, S):
    """NumPy reference: every array argument after the program (a holds copies of the inputs)."""
    h = np.maximum(a['x'] @ a['w1'] + a['b1'], 0.0)
    h = np.maximum(h @ a['w2'] + a['b2'], 0.0)
    z = h @ a['w3'] + a['b3']
    e = np.exp(z - z.max(axis=1, keepdims=True))
    r = dict(a)
    r['out'] = e / e.sum(axis=1, keepdims=True)
    return r
