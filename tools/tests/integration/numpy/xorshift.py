"""Marsaglia xorshift32 pseudo-random sequence with the 32-bit state in an int64 scalar (masked with & 0xFFFFFFFF
after left shifts); exercises bitwise operators on inter-state edges (<<, >>, ^, &)."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def xorshift(seed: dace.int64[1], out: dace.int64[N]):
    s = seed[0]
    for i in range(N):
        s = s ^ ((s << 13) & 0xFFFFFFFF)
        s = s ^ (s >> 17)
        s = s ^ ((s << 5) & 0xFFFFFFFF)
        out[i] = s


PROGRAM = xorshift
SYMBOLS = dict(N=24)
CONFIG = {}


def inputs(rng, S):
    """Every array argument, from a numpy Generator."""
    n = 24
    return dict(seed=rng.integers(1, 2**31, size=1).astype(np.int64), out=np.zeros(n, dtype=np.int64))


def reference(a, S):
    """Pure-Python reference for every array argument."""
    s = int(a['seed'][0])
    out = np.zeros_like(a['out'])
    for i in range(out.shape[0]):
        s ^= (s << 13) & 0xFFFFFFFF
        s ^= s >> 17
        s ^= (s << 5) & 0xFFFFFFFF
        out[i] = s
    return dict(seed=a['seed'], out=out)
