"""PolyBench FDTD 2-D: TMAX steps of the electric (ex, ey) and magnetic (hz) field
updates on a 2-D grid with a per-step source row; a time loop over in-place shifted
slice updates and a row broadcast from a 1-D array."""
import numpy as np
import dace

NX, NY, TMAX = (dace.symbol(s) for s in ('NX', 'NY', 'TMAX'))


@dace.program
def fdtd2d(ex: dace.float64[NX, NY], ey: dace.float64[NX, NY], hz: dace.float64[NX, NY],
           fict: dace.float64[TMAX]):
    for t in range(TMAX):
        ey[0, :] = fict[t]
        ey[1:, :] -= 0.5 * (hz[1:, :] - hz[:-1, :])
        ex[:, 1:] -= 0.5 * (hz[:, 1:] - hz[:, :-1])
        hz[:-1, :-1] -= 0.7 * (ex[:-1, 1:] - ex[:-1, :-1] + ey[1:, :-1] - ey[:-1, :-1])


PROGRAM = fdtd2d
SYMBOLS = dict(NX=13, NY=10, TMAX=6)
BENCH_SYMBOLS = dict(NX=500, NY=600, TMAX=10)
CONFIG = {}


def inputs(rng, S):
    """Every argument of PROGRAM for the sizes S (a dict like SYMBOLS), from a numpy Generator."""
    nx, ny, tm = S['NX'], S['NY'], S['TMAX']
    return dict(ex=rng.random((nx, ny)), ey=rng.random((nx, ny)), hz=rng.random((nx, ny)),
                fict=np.arange(tm, dtype=np.float64))


def reference(a, S):
    """NumPy reference: every array argument after the program (a holds copies of the inputs)."""
    ex, ey, hz, fict = a['ex'], a['ey'], a['hz'], a['fict']
    for t in range(S['TMAX']):
        ey[0, :] = fict[t]
        ey[1:, :] = ey[1:, :] - 0.5 * (hz[1:, :] - hz[:-1, :])
        ex[:, 1:] = ex[:, 1:] - 0.5 * (hz[:, 1:] - hz[:, :-1])
        hz[:-1, :-1] = hz[:-1, :-1] - 0.7 * (ex[:-1, 1:] - ex[:-1, :-1] + ey[1:, :-1] - ey[:-1, :-1])
    return dict(ex=ex, ey=ey, hz=hz, fict=fict)
