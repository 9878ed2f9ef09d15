"""In-place fast Walsh-Hadamard transform of a length-B**L vector (B = 2 passed as a symbol), with block starts
stepping by B * B**l over range(0, B**L); exercises symbolic integer powers in sizes and ranges (with a loop variable
in the exponent)."""
import numpy as np
import dace

B = dace.symbol('B')
L = dace.symbol('L')


@dace.program
def walsh_hadamard_symbase(a: dace.float64[B**L]):
    for l in range(L):
        for i in range(0, B**L, B * B**l):
            for j in range(i, i + B**l):
                u = a[j]
                v = a[j + B**l]
                a[j] = u + v
                a[j + B**l] = u - v


LL = 4

PROGRAM = walsh_hadamard_symbase
SYMBOLS = dict(B=2, L=4)
# "C" makes the loop variable l an int so that dace::math::pow(B, l) takes the integer overload; with the default
# "Python" (int64_t) it resolves to the floating std::pow and the generated C++ does not compile.
CONFIG = {("compiler", "default_data_types"): "C"}


def inputs(rng, S):
    """Every array argument, from a numpy Generator."""
    return dict(a=rng.random(2**LL))


def reference(a, S):
    """NumPy reference for every array argument."""
    x = a['a'].copy()
    n = x.shape[0]
    H = np.array([[1.0]])
    while H.shape[0] < n:
        H = np.block([[H, H], [H, -H]])
    return dict(a=H @ x)
