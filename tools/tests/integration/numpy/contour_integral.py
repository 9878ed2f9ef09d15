"""A contour integral over complex quadrature points (as in quantum transport
codes): the complex scalar `z = pts[idx]` becomes a symbol of type
complex128 when DaCe's simplification promotes it (an `abs(z) < 1.0`
condition reads it), complex powers build T(z), and a complex linear solve
(LAPACK's zgesv) gives each point's contribution."""
import numpy as np
import dace

NR, NM, S, P = (dace.symbol(s) for s in ('NR', 'NM', 'S', 'P'))


@dace.program
def contour_integral(Ham: dace.complex128[S + 1, NR, NR], pts: dace.complex128[P], Y: dace.complex128[NR, NM],
                     P0: dace.complex128[NR, NM], P1: dace.complex128[NR, NM]):
    for idx in range(P):
        z = pts[idx]
        Tz = np.zeros((NR, NR), dtype=np.complex128)
        for n in range(S + 1):
            zz = np.power(z, S / 2 - n)
            Tz += zz * Ham[n]
        X = np.linalg.solve(Tz, Y)
        if abs(z) < 1.0:
            X = -X
        P0 += X
        P1 += z * X


PROGRAM = contour_integral
SYMBOLS = dict(NR=6, NM=4, S=2, P=7)
CONFIG = {}


def inputs(rng, S):
    c = lambda *shape: rng.random(shape) + 1j * rng.random(shape)  # noqa: E731
    nr, nm = S['NR'], S['NM']
    return dict(Ham=c(S['S'] + 1, nr, nr) + nr * np.eye(nr), pts=c(S['P']) * 1.3, Y=c(nr, nm),
                P0=np.zeros((nr, nm), complex), P1=np.zeros((nr, nm), complex))


def reference(a, S):
    P0, P1 = a['P0'], a['P1']
    for z in a['pts']:
        Tz = sum(np.power(z, S['S'] / 2 - n) * a['Ham'][n] for n in range(S['S'] + 1))
        X = np.linalg.solve(Tz, a['Y'])
        if abs(z) < 1.0:
            X = -X
        P0 += X
        P1 += z * X
    return dict(Ham=a['Ham'], pts=a['pts'], Y=a['Y'], P0=P0, P1=P1)
