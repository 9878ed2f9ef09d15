"""Inputs and NumPy reference outputs for the seed programs.

usage: seed_reference.py OUTDIR

For each seed (../shared/corpus/seeds/<name>.sdfg), OUTDIR/<name>/ gets
  symbols        NAME=VALUE lines
  in/*.npy       the inputs
  expected/*.npy what NumPy computes for the containers the program writes
SpMV gets a real CSR matrix (sorted column indices, rows of varying length,
an empty row), so its dynamic map ranges and its WCR output are exercised.
"""
import os
import sys

import numpy as np


def laplace(rng):
    N, T = 100, 7
    A = rng.random((2, N))
    B = A.copy()
    for t in range(T):
        B[(t + 1) % 2, 1:-1] = B[t % 2, :-2] - 2 * B[t % 2, 1:-1] + B[t % 2, 2:]
    return {"N": N}, {"A": A, "T": np.uint32(T)}, {"A": B}


def spmv(rng):
    H, W = 50, 40
    dense = rng.random((H, W)) * (rng.random((H, W)) < 0.2)
    dense[7, :] = 0
    rows = [0]
    cols, vals = [], []
    for i in range(H):
        nz = np.nonzero(dense[i])[0]
        cols.extend(nz)
        vals.extend(dense[i, nz])
        rows.append(len(cols))
    A_row = np.array(rows, dtype=np.uint32)
    A_col = np.array(cols, dtype=np.uint32)
    A_val = np.array(vals, dtype=np.float32)
    x = rng.random(W).astype(np.float32)
    b = np.zeros(H, dtype=np.float32)
    expected = (dense.astype(np.float32) @ x).astype(np.float32)
    symbols = {"H": H, "W": W, "nnz": len(cols)}
    return symbols, {"A_row": A_row, "A_col": A_col, "A_val": A_val, "x": x, "b": b}, {"b": expected}


def matmul_wcr(rng):
    M, N, K = 30, 20, 25
    A = rng.random((M, K)).astype(np.float32)
    B = rng.random((K, N)).astype(np.float32)
    C = np.zeros((M, N), dtype=np.float32)
    return {"M": M, "N": N, "K": K}, {"A": A, "B": B, "C": C}, {"C": A @ B}


def addone(rng):
    a = rng.random(20)
    return {}, {"a": a, "__return": np.zeros(20)}, {"__return": a + 1}


def jacobi2d(rng):
    N, T = 30, 5
    A = rng.random((N, N))
    B = rng.random((N, N))
    a, b = A.copy(), B.copy()
    for _ in range(1, T):
        b[1:-1, 1:-1] = 0.2 * (a[1:-1, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:] + a[2:, 1:-1] + a[:-2, 1:-1])
        a[1:-1, 1:-1] = 0.2 * (b[1:-1, 1:-1] + b[1:-1, :-2] + b[1:-1, 2:] + b[2:, 1:-1] + b[:-2, 1:-1])
    return {"N": N}, {"A": A, "B": B, "TSTEPS": np.int64(T)}, {"A": a, "B": b}


def gemm(rng):
    M, N, K = 20, 30, 25
    alpha, beta = 1.5, 1.2
    A, B, C = rng.random((M, K)), rng.random((K, N)), rng.random((M, N))
    inputs = {"alpha": np.float64(alpha), "beta": np.float64(beta), "A": A, "B": B, "C": C}
    return {"M": M, "N": N, "K": K}, inputs, {"C": alpha * A @ B + beta * C}


def branchy(rng):
    N = 50
    # The sum is 0.5: positive, but not at least 1 (an integer reading of
    # the condition `s > 0` would take the wrong branch).
    x = rng.random(N)
    x = x - x.mean() + 0.01
    y = np.zeros(N)
    expected = x * 2 if np.sum(x) > 0 else x - 1
    return {"N": N}, {"x": x, "y": y}, {"y": expected}


SEEDS = [laplace, spmv, matmul_wcr, addone, jacobi2d, gemm, branchy]


def main():
    out = sys.argv[1]
    rng = np.random.default_rng(7)
    for seed in SEEDS:
        symbols, inputs, expected = seed(rng)
        case = os.path.join(out, seed.__name__)
        os.makedirs(os.path.join(case, "in"), exist_ok=True)
        os.makedirs(os.path.join(case, "expected"), exist_ok=True)
        with open(os.path.join(case, "symbols"), "w") as f:
            for k, v in symbols.items():
                f.write(f"{k}={v}\n")
        for name, value in inputs.items():
            np.save(os.path.join(case, "in", name + ".npy"), np.asarray(value))
        for name, value in expected.items():
            np.save(os.path.join(case, "expected", name + ".npy"), np.asarray(value))


if __name__ == "__main__":
    main()
