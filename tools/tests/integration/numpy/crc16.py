"""CRC-16/ARC (reflected polynomial 0xA001, init 0) of a byte array, computed bit by bit with the running CRC in a
scalar DaCe promotes to a symbol; exercises bitwise operators on inter-state edges (>>, ^, and & in a condition)."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def crc16(data: dace.int64[N], out: dace.int64[1]):
    crc = 0
    for i in range(N):
        crc = crc ^ data[i]
        for k in range(8):
            if crc & 1:
                crc = (crc >> 1) ^ 0xA001
            else:
                crc = crc >> 1
    out[0] = crc


PROGRAM = crc16
SYMBOLS = dict(N=32)
CONFIG = {}


def inputs(rng, S):
    """Every array argument, from a numpy Generator."""
    return dict(data=rng.integers(0, 256, size=32).astype(np.int64), out=np.zeros(1, dtype=np.int64))


def reference(a, S):
    """Pure-Python reference for every array argument."""
    crc = 0
    for b in a['data']:
        crc ^= int(b)
        for _ in range(8):
            crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
    return dict(data=a['data'], out=np.array([crc], dtype=np.int64))
