"""Two chained matrix products, D = alpha A B C + beta D (PolyBench 2mm): matmul library nodes on
rectangular operands, a transient intermediate, and elementwise scaling maps."""
import numpy as np
import dace

NI, NJ, NK, NL = (dace.symbol(s) for s in ('NI', 'NJ', 'NK', 'NL'))


@dace.program
def k2mm(alpha: dace.float64, beta: dace.float64, A: dace.float64[NI, NK], B: dace.float64[NK, NJ],
         C: dace.float64[NJ, NL], D: dace.float64[NI, NL]):
    D[:] = alpha * A @ B @ C + beta * D


PROGRAM = k2mm
SYMBOLS = dict(NI=12, NJ=13, NK=14, NL=15)
BENCH_SYMBOLS = dict(NI=160, NJ=180, NK=220, NL=240)
CONFIG = {}


def inputs(rng, S):
    ni, nj, nk, nl = S['NI'], S['NJ'], S['NK'], S['NL']
    return dict(alpha=np.float64(1.5), beta=np.float64(1.2), A=rng.random((ni, nk)), B=rng.random((nk, nj)),
                C=rng.random((nj, nl)), D=rng.random((ni, nl)))


def reference(a, S):
    D = a['alpha'] * (a['A'] @ a['B']) @ a['C'] + a['beta'] * a['D']
    return dict(A=a['A'], B=a['B'], C=a['C'], D=D)
