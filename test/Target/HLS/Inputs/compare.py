"""Compares the .npy files of two directories: every file of the first
(the reference) must be in the second with the same shape and close values
(NumPy's allclose at single-precision tolerances, NaN equal to NaN).

usage: compare.py REFERENCE_DIR OTHER_DIR
"""
import os
import sys

import numpy as np

reference, other = sys.argv[1], sys.argv[2]
names = sorted(n for n in os.listdir(reference) if n.endswith(".npy"))
if not names:
    sys.exit(f"no .npy files in {reference}")
for name in names:
    a = np.load(os.path.join(reference, name))
    b = np.load(os.path.join(other, name))
    if a.shape != b.shape or not np.allclose(a, b, rtol=1e-5, atol=1e-6, equal_nan=True):
        sys.exit(f"{name} differs:\n{a}\n{b}")
print(f"{len(names)} outputs match")
