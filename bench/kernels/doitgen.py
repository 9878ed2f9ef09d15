"""Multiresolution analysis kernel (PolyBench doitgen): two nested sequential loops over a 3-D
array, each body a vector-matrix product into a 1-D buffer that is copied back into the slice."""
import numpy as np
import dace

NR, NQ, NP = (dace.symbol(s) for s in ('NR', 'NQ', 'NP'))


@dace.program
def doitgen(A: dace.float64[NR, NQ, NP], C4: dace.float64[NP, NP], sum: dace.float64[NP]):
    for r in range(NR):
        for q in range(NQ):
            sum[:] = A[r, q, :] @ C4
            A[r, q, :] = sum


PROGRAM = doitgen
SYMBOLS = dict(NR=5, NQ=7, NP=9)
BENCH_SYMBOLS = dict(NR=60, NQ=64, NP=80)
CONFIG = {}


def inputs(rng, S):
    nr, nq, np_ = S['NR'], S['NQ'], S['NP']
    return dict(A=rng.random((nr, nq, np_)), C4=rng.random((np_, np_)), sum=np.zeros(np_))


def reference(a, S):
    A = np.einsum('rqs,sp->rqp', a['A'], a['C4'])
    return dict(A=A, C4=a['C4'], sum=A[-1, -1].copy())
