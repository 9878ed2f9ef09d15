"""A small CNN forward pass in NCHW layout: 3x3 valid convolution + bias, ReLU, 2x2 max
pooling, flattening by reshape and a dense layer (matmul + broadcast bias); 4-D
`dace.map`s whose bodies reduce a window (np.sum of a 3-D product, np.max of a 2x2 block)."""
import numpy as np
import dace

N, C, F, H2, W2, O = (dace.symbol(s) for s in ('N', 'C', 'F', 'H2', 'W2', 'O'))


@dace.program
def cnn(x: dace.float64[N, C, 2 * H2 + 2, 2 * W2 + 2], w: dace.float64[F, C, 3, 3],
        b: dace.float64[F], wd: dace.float64[F * H2 * W2, O], bd: dace.float64[O],
        out: dace.float64[N, O]):
    conv = np.empty((N, F, 2 * H2, 2 * W2), dtype=np.float64)
    for n, f, i, j in dace.map[0:N, 0:F, 0:2 * H2, 0:2 * W2]:
        conv[n, f, i, j] = np.sum(x[n, :, i:i + 3, j:j + 3] * w[f, :, :, :]) + b[f]
    act = np.maximum(conv, 0.0)
    pooled = np.empty((N, F, H2, W2), dtype=np.float64)
    for n, f, i, j in dace.map[0:N, 0:F, 0:H2, 0:W2]:
        pooled[n, f, i, j] = np.max(act[n, f, 2 * i:2 * i + 2, 2 * j:2 * j + 2])
    flat = np.reshape(pooled, (N, F * H2 * W2))
    out[:] = flat @ wd + bd


PROGRAM = cnn
SYMBOLS = dict(N=2, C=3, F=4, H2=3, W2=5, O=6)
BENCH_SYMBOLS = dict(N=16, C=8, F=16, H2=16, W2=16, O=10)
CONFIG = {}


def inputs(rng, S):
    """Every argument of PROGRAM for the sizes S (a dict like SYMBOLS), from a numpy Generator."""
    n, c, f, h2, w2, o = (S[k] for k in ('N', 'C', 'F', 'H2', 'W2', 'O'))
    return dict(x=rng.random((n, c, 2 * h2 + 2, 2 * w2 + 2)),
                w=rng.random((f, c, 3, 3)) - 0.5, b=rng.random(f) - 0.5,
                wd=(rng.random((f * h2 * w2, o)) - 0.5) / np.sqrt(f * h2 * w2),
                bd=rng.random(o), out=np.zeros((n, o)))


def reference(a, S):
    """NumPy reference: every array argument after the program (a holds copies of the inputs)."""
    x, w, b, wd, bd = a['x'], a['w'], a['b'], a['wd'], a['bd']
    n, c, hh, ww = x.shape
    f = w.shape[0]
    oh, ow = hh - 2, ww - 2
    conv = np.zeros((n, f, oh, ow))
    for di in range(3):
        for dj in range(3):
            conv += np.einsum('nchw,fc->nfhw', x[:, :, di:di + oh, dj:dj + ow], w[:, :, di, dj])
    conv += b[None, :, None, None]
    act = np.maximum(conv, 0.0)
    pooled = act.reshape(n, f, oh // 2, 2, ow // 2, 2).max(axis=(3, 5))
    out = pooled.reshape(n, -1) @ wd + bd
    return dict(x=x, w=w, b=b, wd=wd, bd=bd, out=out)
