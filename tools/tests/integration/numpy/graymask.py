"""Gray code, inverse Gray code (shift/xor while loop) and complement mask ~v & 0xFF of each byte, with a branch on
(~v) & 0x80; exercises bitwise operators on inter-state edges (~, &, ^, >>)."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def graymask(a: dace.int64[N], g: dace.int64[N], ginv: dace.int64[N], m: dace.int64[N], hi: dace.int64[N]):
    for i in range(N):
        v = a[i]
        gg = v ^ (v >> 1)
        g[i] = gg
        w = a[i]  # NOTE: 'w = v' would alias w to v in DaCe's frontend (see notes)
        s = v >> 1
        while s > 0:
            w = w ^ s
            s = s >> 1
        ginv[i] = w
        mm = ~v & 0xFF
        m[i] = mm
        if (~v) & 0x80:
            hi[i] = 1
        else:
            hi[i] = 0


PROGRAM = graymask
SYMBOLS = dict(N=20)
CONFIG = {}


def inputs(rng, S):
    """Every array argument, from a numpy Generator."""
    n = 20
    return dict(a=rng.integers(0, 256, size=n).astype(np.int64), g=np.zeros(n, dtype=np.int64),
                ginv=np.zeros(n, dtype=np.int64), m=np.zeros(n, dtype=np.int64), hi=np.zeros(n, dtype=np.int64))


def reference(a, S):
    """NumPy reference for every array argument."""
    v = a['a']
    g = v ^ (v >> 1)
    ginv = np.zeros_like(v)
    for i, x in enumerate(v):
        w, s = int(x), int(x) >> 1
        while s:
            w ^= s
            s >>= 1
        ginv[i] = w
    m = ~v & 0xFF
    hi = ((~v) & 0x80 != 0).astype(np.int64)
    return dict(a=v, g=g, ginv=ginv, m=m, hi=hi)
