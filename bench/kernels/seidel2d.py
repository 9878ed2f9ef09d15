"""PolyBench Seidel 2-D: T in-place Gauss-Seidel sweeps of a 9-point average; each row
adds its neighbours with vectorized slices, then a sequential loop along the row carries
the dependence on the just-updated left neighbour (nested sequential loops, in-place
slices)."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def seidel2d(A: dace.float64[N, N], T: dace.int64):
    for t in range(T):
        for i in range(1, N - 1):
            # all neighbours except the left one, which changes while the row is swept
            A[i, 1:-1] += (A[i - 1, :-2] + A[i - 1, 1:-1] + A[i - 1, 2:] + A[i, 2:]
                           + A[i + 1, :-2] + A[i + 1, 1:-1] + A[i + 1, 2:])
            for j in range(1, N - 1):
                A[i, j] = (A[i, j] + A[i, j - 1]) / 9.0


PROGRAM = seidel2d
SYMBOLS = dict(N=16)
BENCH_SYMBOLS = dict(N=1000)
CONFIG = {}


def inputs(rng, S):
    """Every argument of PROGRAM for the sizes S (a dict like SYMBOLS), from a numpy Generator."""
    return dict(A=rng.random((S['N'], S['N'])), T=np.int64(4))


def reference(a, S):
    """NumPy reference: every array argument after the program (a holds copies of the inputs)."""
    A = a['A']
    n = A.shape[0]
    for _ in range(int(a['T'])):
        for i in range(1, n - 1):
            for j in range(1, n - 1):
                A[i, j] = (A[i - 1, j - 1] + A[i - 1, j] + A[i - 1, j + 1]
                           + A[i, j - 1] + A[i, j] + A[i, j + 1]
                           + A[i + 1, j - 1] + A[i + 1, j] + A[i + 1, j + 1]) / 9.0
    return dict(A=A)
