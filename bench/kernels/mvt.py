"""PolyBench MVT, x1 += A y_1 and x2 += A^T y_2: two matrix-vector products (`@`)
accumulated in place with augmented assignment."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def mvt(x1: dace.float64[N], x2: dace.float64[N], y_1: dace.float64[N], y_2: dace.float64[N],
        A: dace.float64[N, N]):
    x1 += A @ y_1
    x2 += y_2 @ A


PROGRAM = mvt
SYMBOLS = dict(N=13)
BENCH_SYMBOLS = dict(N=2000)
CONFIG = {}


def inputs(rng, S):
    """Every argument of PROGRAM for the sizes S (a dict like SYMBOLS), from a numpy Generator."""
    n = S['N']
    return dict(x1=rng.random(n), x2=rng.random(n), y_1=rng.random(n), y_2=rng.random(n),
                A=rng.random((n, n)))


def reference(a, S):
    """NumPy reference: every array argument after the program (a holds copies of the inputs)."""
    x1 = a['x1'] + a['A'] @ a['y_1']
    x2 = a['x2'] + a['y_2'] @ a['A']
    return dict(x1=x1, x2=x2, y_1=a['y_1'], y_2=a['y_2'], A=a['A'])
