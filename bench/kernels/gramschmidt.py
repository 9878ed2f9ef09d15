"""QR factorisation by modified Gram-Schmidt (PolyBench gramschmidt): a sequential loop over
columns with np.dot of strided column slices, np.sqrt, and column updates in a triangular inner loop."""
import numpy as np
import dace

M, N = (dace.symbol(s) for s in 'MN')


@dace.program
def gramschmidt(A: dace.float64[M, N], R: dace.float64[N, N], Q: dace.float64[M, N]):
    for k in range(N):
        R[k, k] = np.sqrt(np.dot(A[:, k], A[:, k]))
        Q[:, k] = A[:, k] / R[k, k]
        for j in range(k + 1, N):
            R[k, j] = np.dot(Q[:, k], A[:, j])
            A[:, j] -= Q[:, k] * R[k, j]


PROGRAM = gramschmidt
SYMBOLS = dict(M=20, N=13)
BENCH_SYMBOLS = dict(M=280, N=240)
CONFIG = {}


def inputs(rng, S):
    m, n = S['M'], S['N']
    return dict(A=rng.standard_normal((m, n)), R=np.zeros((n, n)), Q=np.zeros((m, n)))


def reference(a, S):
    Q, R = np.linalg.qr(a['A'])
    s = np.sign(np.diag(R))  # Householder QR up to column signs
    Q, R = Q * s, R * s[:, None]
    # every column ends as its residual after projecting out the earlier ones: q_j * r_jj
    return dict(A=Q * np.diag(R), R=R, Q=Q)
