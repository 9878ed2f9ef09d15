"""Covariance matrix of N samples of M variables (PolyBench covariance): a sum reduction over
axis 0, broadcast centring written back into the argument, and a row loop of vector-matrix
products with mirrored writes."""
import numpy as np
import dace

M, N = (dace.symbol(s) for s in 'MN')


@dace.program
def covariance(float_n: dace.float64, data: dace.float64[N, M], cov: dace.float64[M, M]):
    mean = np.sum(data, axis=0) / float_n
    data[:] = data - mean  # (`data -= mean` fails DaCe 1.0.2 validation)
    for i in range(M):
        cov[i, i:] = data[:, i] @ data[:, i:] / (float_n - 1.0)
        cov[i:, i] = cov[i, i:]


PROGRAM = covariance
SYMBOLS = dict(M=12, N=17)
BENCH_SYMBOLS = dict(M=280, N=340)
CONFIG = {}


def inputs(rng, S):
    m, n = S['M'], S['N']
    return dict(float_n=np.float64(n), data=rng.random((n, m)), cov=np.zeros((m, m)))


def reference(a, S):
    data = a['data']
    return dict(data=data - data.mean(axis=0), cov=np.cov(data, rowvar=False))
