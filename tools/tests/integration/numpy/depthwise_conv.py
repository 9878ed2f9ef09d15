"""A depthwise NHWC convolution written with slicing and broadcasting in
loops over the output positions (each channel its own K x K filter), a
bias broadcast over the channels and a ReLU, returning a new array: the
slice-and-sum style of class 2, with an axis=(1, 2) reduction."""
import numpy as np
import dace

N, H, W, C, K = (dace.symbol(s) for s in ('N', 'H', 'W', 'C', 'K'))


@dace.program
def depthwise(inp: dace.float64[N, H, W, C], w: dace.float64[K, K, C], bias: dace.float64[C]):
    out = np.ndarray((N, H - K + 1, W - K + 1, C), dtype=np.float64)
    for i in range(H - K + 1):
        for j in range(W - K + 1):
            out[:, i, j, :] = np.sum(inp[:, i:i + K, j:j + K, :] * w[np.newaxis, :, :, :], axis=(1, 2))
    return out


@dace.program
def depthwise_conv(inp: dace.float64[N, H, W, C], w: dace.float64[K, K, C], bias: dace.float64[C],
                   res: dace.float64[N, H - K + 1, W - K + 1, C]):
    res[:] = np.maximum(depthwise(inp, w, bias) + bias, 0)


PROGRAM = depthwise_conv
SYMBOLS = dict(N=2, H=7, W=9, C=3, K=3)
CONFIG = {}


def inputs(rng, S):
    n, h, w, c, k = (S[x] for x in ('N', 'H', 'W', 'C', 'K'))
    return dict(inp=rng.random((n, h, w, c)) - 0.5, w=rng.random((k, k, c)) - 0.5, bias=rng.random(c) - 0.5,
                res=np.zeros((n, h - k + 1, w - k + 1, c)))


def reference(a, S):
    k = S['K']
    inp, w = a['inp'], a['w']
    out = np.zeros_like(a['res'])
    for i in range(out.shape[1]):
        for j in range(out.shape[2]):
            out[:, i, j, :] = np.sum(inp[:, i:i + k, j:j + k, :] * w[np.newaxis], axis=(1, 2))
    a['res'][:] = np.maximum(out + a['bias'], 0)
    return a
