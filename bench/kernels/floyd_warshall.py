"""PolyBench Floyd-Warshall all-pairs shortest paths: a sequential loop over the
intermediate vertex k, each step an elementwise np.minimum of the path matrix with the
outer sum of its column k and row k (np.add.outer)."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def floyd_warshall(path: dace.float64[N, N]):
    for k in range(N):
        path[:] = np.minimum(path, np.add.outer(path[:, k], path[k, :]))


PROGRAM = floyd_warshall
SYMBOLS = dict(N=23)
BENCH_SYMBOLS = dict(N=400)
CONFIG = {}


def inputs(rng, S):
    """Every argument of PROGRAM for the sizes S (a dict like SYMBOLS), from a numpy Generator."""
    n = S['N']
    w = rng.integers(1, 100, size=(n, n)).astype(np.float64)
    w[rng.random((n, n)) < 0.7] = 999.0        # no direct edge
    np.fill_diagonal(w, 0.0)
    return dict(path=w)


def reference(a, S):
    """NumPy reference: every array argument after the program (a holds copies of the inputs)."""
    p = a['path']
    for k in range(p.shape[0]):
        p = np.minimum(p, p[:, k:k + 1] + p[k:k + 1, :])
    return dict(path=p)
