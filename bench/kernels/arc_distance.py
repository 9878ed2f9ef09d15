"""Great-circle (haversine) distance between pairs of points on the unit sphere:
elementwise trigonometry on 1-D arrays (np.sin, np.cos, np.sqrt, np.arctan2, powers)."""
import numpy as np
import dace

N = dace.symbol('N')


@dace.program
def arc_distance(theta_1: dace.float64[N], phi_1: dace.float64[N], theta_2: dace.float64[N],
                 phi_2: dace.float64[N], distance: dace.float64[N]):
    h = (np.sin(0.5 * (theta_2 - theta_1)) ** 2
         + np.cos(theta_1) * np.cos(theta_2) * np.sin(0.5 * (phi_2 - phi_1)) ** 2)
    distance[:] = 2.0 * np.arctan2(np.sqrt(h), np.sqrt(1.0 - h))


PROGRAM = arc_distance
SYMBOLS = dict(N=101)
BENCH_SYMBOLS = dict(N=1 << 20)
CONFIG = {}


def inputs(rng, S):
    """Every argument of PROGRAM for the sizes S (a dict like SYMBOLS), from a numpy Generator."""
    n = S['N']
    lat = lambda: (rng.random(n) - 0.5) * np.pi
    lon = lambda: (rng.random(n) - 0.5) * 2.0 * np.pi
    return dict(theta_1=lat(), phi_1=lon(), theta_2=lat(), phi_2=lon(), distance=np.zeros(n))


def reference(a, S):
    """NumPy reference: every array argument after the program (a holds copies of the inputs)."""
    t1, p1, t2, p2 = a['theta_1'], a['phi_1'], a['theta_2'], a['phi_2']
    h = np.sin((t2 - t1) / 2) ** 2 + np.cos(t1) * np.cos(t2) * np.sin((p2 - p1) / 2) ** 2
    r = dict(a)
    r['distance'] = 2.0 * np.arctan2(np.sqrt(h), np.sqrt(1.0 - h))
    return r
