"""Packs 0/1 flags into bytes MSB first (word = (word << 1) | bit) and computes each byte's parity by xor-folding;
exercises bitwise operators on inter-state edges."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def bitpack(bits: dace.int64[8 * N], words: dace.int64[N], parity: dace.int64[N]):
    for i in range(N):
        word = 0
        for j in range(8):
            bit = bits[8 * i + 7 - j]
            word = (word << 1) | bit
        words[i] = word
        p = word ^ (word >> 4)
        p = p ^ (p >> 2)
        p = p ^ (p >> 1)
        parity[i] = p & 1


PROGRAM = bitpack
SYMBOLS = dict(N=6)
CONFIG = {}


def inputs(rng, S):
    """Every array argument, from a numpy Generator."""
    n = 6
    return dict(bits=rng.integers(0, 2, size=8 * n).astype(np.int64), words=np.zeros(n, dtype=np.int64),
                parity=np.zeros(n, dtype=np.int64))


def reference(a, S):
    """NumPy reference for every array argument."""
    b = a['bits'].reshape(-1, 8)
    words = (b << np.arange(8)).sum(axis=1).astype(np.int64)
    parity = b.sum(axis=1) % 2
    return dict(bits=a['bits'], words=words, parity=parity.astype(np.int64))
