"""A small CNN layer in NumPy style: an NHWC convolution written with
slicing and broadcasting inside loops over the output positions, a bias,
ReLU and 2x2 max pooling, returning new arrays."""
import numpy as np
import dace

N, H, W, C_in, C_out, K = (dace.symbol(s) for s in ('N', 'H', 'W', 'C_in', 'C_out', 'K'))


@dace.program
def conv2d(inp: dace.float64[N, H, W, C_in], w: dace.float64[K, K, C_in, C_out]):
    out = np.ndarray((N, H - K + 1, W - K + 1, C_out), dtype=np.float64)
    for i in range(H - K + 1):
        for j in range(W - K + 1):
            out[:, i, j, :] = np.sum(inp[:, i:i + K, j:j + K, :, np.newaxis] * w[np.newaxis, :, :, :], axis=(1, 2, 3))
    return out


@dace.program
def conv_nhwc(inp: dace.float64[N, H, W, C_in], w: dace.float64[K, K, C_in, C_out], bias: dace.float64[C_out],
              res: dace.float64[N, (H - K + 1) // 2, (W - K + 1) // 2, C_out]):
    x = conv2d(inp, w) + bias
    x = np.maximum(x, 0)
    for i in range((H - K + 1) // 2):
        for j in range((W - K + 1) // 2):
            res[:, i, j, :] = np.maximum(np.maximum(x[:, 2 * i, 2 * j, :], x[:, 2 * i + 1, 2 * j, :]),
                                         np.maximum(x[:, 2 * i, 2 * j + 1, :], x[:, 2 * i + 1, 2 * j + 1, :]))


PROGRAM = conv_nhwc
SYMBOLS = dict(N=2, H=10, W=9, C_in=3, C_out=4, K=3)
CONFIG = {}


def inputs(rng, S):
    """Every array argument, from a numpy Generator."""
    return dict(inp=rng.random((2, 10, 9, 3)) - 0.5, w=rng.random((3, 3, 3, 4)) - 0.5, bias=rng.random(4) - 0.5,
                res=np.zeros((2, 4, 3, 4)))


def reference(a, S):
    """NumPy reference for every array argument."""
    inp, w, bias = a['inp'], a['w'], a['bias']
    out = np.zeros((2, 8, 7, 4))
    for i in range(8):
        for j in range(7):
            out[:, i, j, :] = np.sum(inp[:, i:i + 3, j:j + 3, :, np.newaxis] * w[np.newaxis], axis=(1, 2, 3))
    x = np.maximum(out + bias, 0)
    res = a['res']
    for i in range(4):
        for j in range(3):
            res[:, i, j, :] = np.maximum(np.maximum(x[:, 2 * i, 2 * j, :], x[:, 2 * i + 1, 2 * j, :]),
                                         np.maximum(x[:, 2 * i, 2 * j + 1, :], x[:, 2 * i + 1, 2 * j + 1, :]))
    return dict(inp=inp, w=w, bias=bias, res=res)
