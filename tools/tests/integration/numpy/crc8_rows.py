"""CRC-8 (polynomial 0x07, MSB first, init 0) of every row of a byte matrix inside a dace.map, so the promoted crc
symbol is updated on a nested SDFG's edges; exercises bitwise operators on inter-state edges."""
import numpy as np
import dace

M = dace.symbol('M')
N = dace.symbol('N')


@dace.program
def crc8_rows(data: dace.int64[M, N], out: dace.int64[M]):
    for r in dace.map[0:M]:
        crc = 0
        for i in range(N):
            crc = crc ^ data[r, i]
            for k in range(8):
                if crc & 0x80:
                    crc = ((crc << 1) ^ 0x07) & 0xFF
                else:
                    crc = (crc << 1) & 0xFF
        out[r] = crc


PROGRAM = crc8_rows
SYMBOLS = dict(M=6, N=10)
CONFIG = {}


def inputs(rng, S):
    """Every array argument, from a numpy Generator."""
    m, n = 6, 10
    return dict(data=rng.integers(0, 256, size=(m, n)).astype(np.int64), out=np.zeros(m, dtype=np.int64))


def reference(a, S):
    """Pure-Python reference for every array argument."""
    out = np.zeros(a['data'].shape[0], dtype=np.int64)
    for r, row in enumerate(a['data']):
        crc = 0
        for b in row:
            crc ^= int(b)
            for _ in range(8):
                crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
        out[r] = crc
    return dict(data=a['data'], out=out)
