"""One step of a softened direct-sum N-body simulation: all pairwise separations by
broadcasting the positions against themselves into an [N, N, 3] tensor (np.newaxis),
inverse cube distances with a fractional power, accelerations as a mass-weighted
np.sum over the second axis, then in-place velocity and position updates."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def nbody(pos: dace.float64[N, 3], vel: dace.float64[N, 3], mass: dace.float64[N],
          acc: dace.float64[N, 3], G: dace.float64, dt: dace.float64, softening: dace.float64):
    # d[i, j, :] = pos[j] - pos[i]
    d = pos[np.newaxis, :, :] - pos[:, np.newaxis, :]
    r2 = np.sum(d * d, axis=2) + softening ** 2
    weight = G * mass[np.newaxis, :] * r2 ** (-1.5)
    acc[:] = np.sum(d * weight[:, :, np.newaxis], axis=1)
    vel += acc * dt
    pos += vel * dt


PROGRAM = nbody
SYMBOLS = dict(N=19)
BENCH_SYMBOLS = dict(N=1200)
CONFIG = {}


def inputs(rng, S):
    """Every argument of PROGRAM for the sizes S (a dict like SYMBOLS), from a numpy Generator."""
    n = S['N']
    return dict(pos=rng.standard_normal((n, 3)), vel=rng.standard_normal((n, 3)),
                mass=20.0 * np.ones(n) / n, acc=np.zeros((n, 3)), G=np.float64(1.0),
                dt=np.float64(0.01), softening=np.float64(0.1))


def reference(a, S):
    """NumPy reference: every array argument after the program (a holds copies of the inputs)."""
    pos, vel, mass = a['pos'], a['vel'], a['mass']
    d = pos[np.newaxis, :, :] - pos[:, np.newaxis, :]          # d[i, j] = pos[j] - pos[i]
    r2 = np.sum(d ** 2, axis=2) + a['softening'] ** 2
    acc = a['G'] * np.einsum('ijk,ij,j->ik', d, r2 ** -1.5, mass)
    vel = vel + acc * a['dt']
    pos = pos + vel * a['dt']
    return dict(pos=pos, vel=vel, mass=mass, acc=acc)
