"""COSMO vertical advection: builds the coefficients of one tridiagonal system per (i, j)
column from staggered vertical velocities, then solves all columns at once with the
Thomas algorithm, a forward and a backward sequential loop over k on 2-D slices of 3-D
arrays (strided last-axis slices, loop-carried dependences, scalar broadcasting)."""
import numpy as np
import dace

I, J, K = (dace.symbol(s) for s in 'IJK')

BET_M = 0.5
BET_P = 0.5


@dace.program
def vadv(utens_stage: dace.float64[I, J, K], u_stage: dace.float64[I, J, K],
         wcon: dace.float64[I + 1, J, K], u_pos: dace.float64[I, J, K],
         utens: dace.float64[I, J, K], dtr_stage: dace.float64):
    acol = np.zeros((I, J, K), dtype=np.float64)
    bcol = np.empty((I, J, K), dtype=np.float64)
    ccol = np.zeros((I, J, K), dtype=np.float64)
    dcol = np.empty((I, J, K), dtype=np.float64)

    # velocity at the upper (gav, k >= 1) and lower (gcv, k <= K - 2) face of each cell,
    # averaged over the two staggered i positions
    gav = -0.25 * (wcon[1:, :, 1:] + wcon[:-1, :, 1:])
    gcv = 0.25 * (wcon[1:, :, 1:] + wcon[:-1, :, 1:])
    acol[:, :, 1:] = BET_P * gav
    ccol[:, :, :-1] = BET_P * gcv
    bcol[:] = dtr_stage - acol - ccol

    # right-hand side with the explicit part of the advection
    dcol[:] = dtr_stage * u_pos + utens + utens_stage
    dcol[:, :, 1:] -= BET_M * gav * (u_stage[:, :, :-1] - u_stage[:, :, 1:])
    dcol[:, :, :-1] -= BET_M * gcv * (u_stage[:, :, 1:] - u_stage[:, :, :-1])

    # Thomas algorithm, forward elimination
    ccol[:, :, 0] = ccol[:, :, 0] / bcol[:, :, 0]
    dcol[:, :, 0] = dcol[:, :, 0] / bcol[:, :, 0]
    for k in range(1, K):
        divided = 1.0 / (bcol[:, :, k] - ccol[:, :, k - 1] * acol[:, :, k])
        ccol[:, :, k] = ccol[:, :, k] * divided
        dcol[:, :, k] = (dcol[:, :, k] - dcol[:, :, k - 1] * acol[:, :, k]) * divided

    # back substitution; the result is the tendency relative to u_pos
    utens_stage[:, :, K - 1] = dtr_stage * (dcol[:, :, K - 1] - u_pos[:, :, K - 1])
    for k in range(K - 2, -1, -1):
        dcol[:, :, k] = dcol[:, :, k] - ccol[:, :, k] * dcol[:, :, k + 1]
        utens_stage[:, :, k] = dtr_stage * (dcol[:, :, k] - u_pos[:, :, k])


PROGRAM = vadv
SYMBOLS = dict(I=7, J=5, K=9)
BENCH_SYMBOLS = dict(I=128, J=128, K=64)
CONFIG = {}


def inputs(rng, S):
    """Every argument of PROGRAM for the sizes S (a dict like SYMBOLS), from a numpy Generator."""
    i, j, k = S['I'], S['J'], S['K']
    # small vertical velocities keep every system diagonally dominant
    return dict(utens_stage=rng.random((i, j, k)), u_stage=rng.random((i, j, k)),
                wcon=0.1 * rng.random((i + 1, j, k)), u_pos=rng.random((i, j, k)),
                utens=rng.random((i, j, k)), dtr_stage=np.float64(3.0 / 20.0))


def reference(a, S):
    """NumPy reference: every array argument after the program (a holds copies of the inputs)."""
    us, u, w, upos, ut, dtr = (a[n] for n in ('utens_stage', 'u_stage', 'wcon', 'u_pos', 'utens', 'dtr_stage'))
    ni, nj, nk = S['I'], S['J'], S['K']
    wc = 0.25 * (w[1:] + w[:-1])          # [I, J, K], face velocity at the top of level k
    out = np.empty_like(us)
    # assemble each column's dense tridiagonal matrix and solve it directly
    for i in range(ni):
        for j in range(nj):
            Amat = np.zeros((nk, nk))
            rhs = dtr * upos[i, j] + ut[i, j] + us[i, j]
            for k in range(nk):
                diag = dtr
                if k > 0:
                    ga = -wc[i, j, k]
                    Amat[k, k - 1] = BET_P * ga
                    diag -= BET_P * ga
                    rhs[k] -= BET_M * ga * (u[i, j, k - 1] - u[i, j, k])
                if k < nk - 1:
                    gc = wc[i, j, k + 1]
                    Amat[k, k + 1] = BET_P * gc
                    diag -= BET_P * gc
                    rhs[k] -= BET_M * gc * (u[i, j, k + 1] - u[i, j, k])
                Amat[k, k] = diag
            out[i, j] = dtr * (np.linalg.solve(Amat, rhs) - upos[i, j])
    return dict(utens_stage=out, u_stage=u, wcon=w, u_pos=upos, utens=ut)
