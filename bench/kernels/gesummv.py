"""PolyBench GESUMMV, y = alpha A x + beta B x: two matrix-vector products (`@`) with
scalar scaling, summed into an argument vector."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def gesummv(alpha: dace.float64, beta: dace.float64, A: dace.float64[N, N], B: dace.float64[N, N],
            x: dace.float64[N], y: dace.float64[N]):
    y[:] = alpha * A @ x + beta * B @ x


PROGRAM = gesummv
SYMBOLS = dict(N=13)
BENCH_SYMBOLS = dict(N=2000)
CONFIG = {}


def inputs(rng, S):
    """Every argument of PROGRAM for the sizes S (a dict like SYMBOLS), from a numpy Generator."""
    n = S['N']
    return dict(alpha=np.float64(1.5), beta=np.float64(1.2), A=rng.random((n, n)),
                B=rng.random((n, n)), x=rng.random(n), y=np.zeros(n))


def reference(a, S):
    """NumPy reference: every array argument after the program (a holds copies of the inputs)."""
    y = a['alpha'] * a['A'] @ a['x'] + a['beta'] * a['B'] @ a['x']
    return dict(A=a['A'], B=a['B'], x=a['x'], y=y)
