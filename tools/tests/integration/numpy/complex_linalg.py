"""Linear algebra on complex matrices: a matrix product, a matrix-vector
product and a dot product (MatMul, Gemv and Dot library nodes on
complex128, no conjugation as in np.dot), then a solve with a Hermitian
positive definite matrix (LAPACK's zgesv) whose right-hand side is a
transposed view. (DaCe 1.0.2's own zpotrf and zgetri calls do not compile:
it passes std::complex pointers where LAPACKE wants C99 complex ones.)"""
import numpy as np
import dace

N, K = (dace.symbol(s) for s in ('N', 'K'))


@dace.program
def complex_linalg(A: dace.complex128[N, K], B: dace.complex128[K, N], x: dace.complex128[K],
                   C: dace.complex128[N, N], y: dace.complex128[N], d: dace.complex128[1],
                   X: dace.complex128[N, N]):
    C[:] = A @ B
    y[:] = A @ x
    d[0] = np.dot(x, B[:, 0])
    H = A @ np.conj(A.T) + N * np.eye(N)
    X[:] = np.linalg.solve(H, C.T)


PROGRAM = complex_linalg
SYMBOLS = dict(N=7, K=5)
CONFIG = {}


def inputs(rng, S):
    c = lambda *shape: rng.random(shape) + 1j * rng.random(shape)  # noqa: E731
    n, k = S['N'], S['K']
    z = lambda *shape: np.zeros(shape, complex)  # noqa: E731
    return dict(A=c(n, k), B=c(k, n), x=c(k), C=z(n, n), y=z(n), d=z(1), X=z(n, n))


def reference(a, S):
    A, B, x = a['A'], a['B'], a['x']
    a['C'][:] = A @ B
    a['y'][:] = A @ x
    a['d'][0] = np.dot(x, B[:, 0])
    H = A @ np.conj(A.T) + S['N'] * np.eye(S['N'])
    a['X'][:] = np.linalg.solve(H, a['C'].T)
    return a
