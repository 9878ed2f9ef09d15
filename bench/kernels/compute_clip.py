"""npbench's `compute` (from the Cython tutorial): clip an int64 matrix to [2, 10] and
combine it with a second matrix and int64 scalars; integer elementwise arithmetic, the
clip written as np.minimum(np.maximum(...)) with scalar bounds, scalar broadcasting."""
import numpy as np
import dace

M, N = dace.symbol('M'), dace.symbol('N')


@dace.program
def compute_clip(array_1: dace.int64[M, N], array_2: dace.int64[M, N], a: dace.int64,
                 b: dace.int64, c: dace.int64, out: dace.int64[M, N]):
    out[:] = np.minimum(np.maximum(array_1, 2), 10) * a + array_2 * b + c


PROGRAM = compute_clip
SYMBOLS = dict(M=13, N=21)
BENCH_SYMBOLS = dict(M=2000, N=2000)
CONFIG = {}


def inputs(rng, S):
    """Every argument of PROGRAM for the sizes S (a dict like SYMBOLS), from a numpy Generator."""
    shape = (S['M'], S['N'])
    return dict(array_1=rng.integers(0, 1000, size=shape, dtype=np.int64),
                array_2=rng.integers(0, 1000, size=shape, dtype=np.int64),
                a=np.int64(4), b=np.int64(3), c=np.int64(9), out=np.zeros(shape, dtype=np.int64))


def reference(a, S):
    """NumPy reference: every array argument after the program (a holds copies of the inputs)."""
    r = dict(a)
    r['out'] = np.clip(a['array_1'], 2, 10) * a['a'] + a['array_2'] * a['b'] + a['c']
    return {k: v for k, v in r.items() if isinstance(v, np.ndarray) and v.ndim > 0}
