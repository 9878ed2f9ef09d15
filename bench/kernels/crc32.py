"""Bitwise CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320) of a byte array: a
sequential loop over the bytes with an inner loop over the 8 bits, carrying one integer
scalar through xor, shift, and, and negation masks."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def crc32(data: dace.uint8[N], crc: dace.uint32[1]):
    c = 0xFFFFFFFF
    for i in range(N):
        c = c ^ data[i]
        for k in range(8):
            c = (c >> 1) ^ (0xEDB88320 & -(c & 1))
    crc[0] = c ^ 0xFFFFFFFF


PROGRAM = crc32
SYMBOLS = dict(N=77)
BENCH_SYMBOLS = dict(N=1 << 22)
CONFIG = {}


def inputs(rng, S):
    """Every argument of PROGRAM for the sizes S (a dict like SYMBOLS), from a numpy Generator."""
    return dict(data=rng.integers(0, 256, size=S['N'], dtype=np.uint8), crc=np.zeros(1, dtype=np.uint32))


def reference(a, S):
    """NumPy reference: every array argument after the program (a holds copies of the inputs)."""
    import zlib
    return dict(data=a['data'], crc=np.array([zlib.crc32(a['data'].tobytes())], dtype=np.uint32))
