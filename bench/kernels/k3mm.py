"""Three matrix products, E = A B, F = C D, G = E F (PolyBench 3mm): matmul library nodes on
rectangular operands of five different sizes, writing into argument arrays."""
import numpy as np
import dace

NI, NJ, NK, NL, NM = (dace.symbol(s) for s in ('NI', 'NJ', 'NK', 'NL', 'NM'))


@dace.program
def k3mm(A: dace.float64[NI, NK], B: dace.float64[NK, NJ], C: dace.float64[NJ, NM], D: dace.float64[NM, NL],
         E: dace.float64[NI, NJ], F: dace.float64[NJ, NL], G: dace.float64[NI, NL]):
    E[:] = A @ B
    F[:] = C @ D
    G[:] = E @ F


PROGRAM = k3mm
SYMBOLS = dict(NI=12, NJ=13, NK=14, NL=15, NM=16)
BENCH_SYMBOLS = dict(NI=150, NJ=170, NK=180, NL=200, NM=220)
CONFIG = {}


def inputs(rng, S):
    ni, nj, nk, nl, nm = S['NI'], S['NJ'], S['NK'], S['NL'], S['NM']
    return dict(A=rng.random((ni, nk)), B=rng.random((nk, nj)), C=rng.random((nj, nm)), D=rng.random((nm, nl)),
                E=np.zeros((ni, nj)), F=np.zeros((nj, nl)), G=np.zeros((ni, nl)))


def reference(a, S):
    E = a['A'] @ a['B']
    F = a['C'] @ a['D']
    return dict(A=a['A'], B=a['B'], C=a['C'], D=a['D'], E=E, F=F, G=E @ F)
