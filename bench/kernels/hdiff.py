"""COSMO horizontal diffusion: a 4th-order Laplacian with flux limiting on a 3-D field
with a halo of 2 in I and J; shifted 3-D slices, temporaries of several shapes and
np.where masks."""
import numpy as np
import dace

I, J, K = (dace.symbol(s) for s in 'IJK')


@dace.program
def hdiff(in_field: dace.float64[I + 4, J + 4, K], out_field: dace.float64[I, J, K],
          coeff: dace.float64[I, J, K]):
    # Laplacian on the interior plus a halo of one: [I + 2, J + 2, K]
    lap = 4.0 * in_field[1:I + 3, 1:J + 3, :] - (
        in_field[2:I + 4, 1:J + 3, :] + in_field[0:I + 2, 1:J + 3, :]
        + in_field[1:I + 3, 2:J + 4, :] + in_field[1:I + 3, 0:J + 2, :])

    # x fluxes on faces i-1/2 .. I+1/2: [I + 1, J, K], zeroed where they would
    # steepen the gradient of the field
    fx = lap[1:I + 2, 1:J + 1, :] - lap[0:I + 1, 1:J + 1, :]
    gx = in_field[2:I + 3, 2:J + 2, :] - in_field[1:I + 2, 2:J + 2, :]
    flx = np.where(fx * gx > 0.0, 0.0, fx)

    # y fluxes: [I, J + 1, K]
    fy = lap[1:I + 1, 1:J + 2, :] - lap[1:I + 1, 0:J + 1, :]
    gy = in_field[2:I + 2, 2:J + 3, :] - in_field[2:I + 2, 1:J + 2, :]
    fly = np.where(fy * gy > 0.0, 0.0, fy)

    out_field[:] = in_field[2:I + 2, 2:J + 2, :] - coeff * (
        (flx[1:, :, :] - flx[:-1, :, :]) + (fly[:, 1:, :] - fly[:, :-1, :]))


PROGRAM = hdiff
SYMBOLS = dict(I=9, J=7, K=5)
BENCH_SYMBOLS = dict(I=128, J=128, K=64)
CONFIG = {}


def inputs(rng, S):
    """Every argument of PROGRAM for the sizes S (a dict like SYMBOLS), from a numpy Generator."""
    i, j, k = S['I'], S['J'], S['K']
    return dict(in_field=rng.random((i + 4, j + 4, k)), out_field=np.zeros((i, j, k)),
                coeff=0.1 * rng.random((i, j, k)))


def reference(a, S):
    """NumPy reference: every array argument after the program (a holds copies of the inputs)."""
    f, c = a['in_field'], a['coeff']
    i, j = S['I'], S['J']
    # straightforward per-point formulation (differs in form from the program)
    c0 = f[2:i + 2, 2:j + 2]

    def lap(di, dj):
        """Laplacian at interior point (p + di, q + dj) for every interior (p, q)."""
        x0, y0 = 2 + di, 2 + dj
        return (4.0 * f[x0:x0 + i, y0:y0 + j] - f[x0 + 1:x0 + 1 + i, y0:y0 + j] - f[x0 - 1:x0 - 1 + i, y0:y0 + j]
                - f[x0:x0 + i, y0 + 1:y0 + 1 + j] - f[x0:x0 + i, y0 - 1:y0 - 1 + j])

    def limit(flux, grad):
        out = flux.copy()
        out[flux * grad > 0] = 0.0
        return out

    sh = lambda di, dj: f[2 + di:2 + di + i, 2 + dj:2 + dj + j]
    flx_p = limit(lap(1, 0) - lap(0, 0), sh(1, 0) - c0)
    flx_m = limit(lap(0, 0) - lap(-1, 0), c0 - sh(-1, 0))
    fly_p = limit(lap(0, 1) - lap(0, 0), sh(0, 1) - c0)
    fly_m = limit(lap(0, 0) - lap(0, -1), c0 - sh(0, -1))
    out = c0 - c * ((flx_p - flx_m) + (fly_p - fly_m))
    return dict(in_field=f, out_field=out, coeff=c)
