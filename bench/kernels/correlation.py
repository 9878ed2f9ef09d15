"""Correlation matrix of N samples of M variables (PolyBench correlation): mean and standard
deviation reductions over axis 0, a boolean-masked assignment guarding tiny deviations, broadcast
normalisation written back into the argument, and a row loop of vector-matrix products with mirrored writes."""
import numpy as np
import dace

M, N = (dace.symbol(s) for s in 'MN')


@dace.program
def correlation(float_n: dace.float64, data: dace.float64[N, M], corr: dace.float64[M, M]):
    mean = np.mean(data, axis=0)
    stddev = np.sqrt(np.mean((data - mean)**2, axis=0))
    stddev[stddev <= 0.1] = 1.0
    data[:] = (data - mean) / (np.sqrt(float_n) * stddev)  # (`data -= mean` fails DaCe 1.0.2 validation)
    for i in range(M - 1):
        corr[i, i] = 1.0
        corr[i, i + 1:] = data[:, i] @ data[:, i + 1:]
        corr[i + 1:, i] = corr[i, i + 1:]
    corr[M - 1, M - 1] = 1.0


PROGRAM = correlation
SYMBOLS = dict(M=12, N=17)
BENCH_SYMBOLS = dict(M=280, N=340)
CONFIG = {}


def inputs(rng, S):
    m, n = S['M'], S['N']
    data = rng.random((n, m))
    data[:, 3] = 0.5 + 0.01 * rng.random(n)  # a nearly constant column takes the stddev guard
    return dict(float_n=np.float64(n), data=data, corr=np.zeros((m, m)))


def reference(a, S):
    data = a['data']
    mean = data.mean(axis=0)
    std = data.std(axis=0)
    std = np.where(std <= 0.1, 1.0, std)
    z = (data - mean) / (np.sqrt(S['N']) * std)
    corr = z.T @ z
    np.fill_diagonal(corr, 1.0)
    return dict(data=z, corr=corr)
