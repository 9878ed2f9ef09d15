"""NumPy reference for examples/laplace.mlir (the README's main job).

    laplace_reference.py INPUT.npy OUTPUT.npy T

INPUT is the double buffer A (2 x N) sdfg-run started from, OUTPUT what it
wrote; the script recomputes T time steps of the Laplace stencil of DaCe's
documentation with NumPy and says whether the two agree.
"""

import sys

import numpy as np


def laplace(A, T):
    A = A.copy()
    for t in range(T):
        A[(t + 1) % 2, 1:-1] = A[t % 2, :-2] - 2 * A[t % 2, 1:-1] + A[t % 2, 2:]
    return A


def main():
    start, result, steps = np.load(sys.argv[1]), np.load(sys.argv[2]), int(sys.argv[3])
    expected = laplace(start, steps)
    error = np.max(np.abs(expected - result) / (1 + np.abs(expected)))
    ok = np.allclose(result, expected, rtol=1e-12, atol=1e-12)
    print(f"NumPy reference checksum {expected.sum():.10e}, max relative error {error:.2e}: "
          + ("MATCH" if ok else "MISMATCH"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
