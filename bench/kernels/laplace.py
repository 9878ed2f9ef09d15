"""1-D Laplace operator applied T times, ping-ponging between the two rows of A:
a sequential time loop around a `dace.map` with modular (t % 2) row indices."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def laplace(A: dace.float64[2, N], T: dace.uint32):
    for t in range(T):
        for i in dace.map[1:N - 1]:
            A[(t + 1) % 2, i] = A[t % 2, i - 1] - 2 * A[t % 2, i] + A[t % 2, i + 1]


PROGRAM = laplace
SYMBOLS = dict(N=37)
BENCH_SYMBOLS = dict(N=1 << 20)
CONFIG = {}


def inputs(rng, S):
    """Every argument of PROGRAM for the sizes S (a dict like SYMBOLS), from a numpy Generator."""
    return dict(A=rng.random((2, S['N'])), T=np.uint32(20))


def reference(a, S):
    """NumPy reference: every array argument after the program (a holds copies of the inputs)."""
    A = a['A']
    for t in range(int(a['T'])):
        A[(t + 1) % 2, 1:-1] = A[t % 2, :-2] - 2 * A[t % 2, 1:-1] + A[t % 2, 2:]
    return dict(A=A)
