"""The DaCe 1.0.2 and NumPy side of `sdfg-bench kernels`.

usage: kernels.py OUTDIR REPS

For every kernel (the seed programs and Polybench-style kernels written
here), OUTDIR/<kernel>/ receives the program as DaCe saves it
(program.sdfg), `symbols`, the inputs (in/*.npy) and DaCe's outputs
(dace/*.npy); the script prints one line per kernel:
    KERNEL <name> <dace median ms> <numpy median ms>
Both are medians of REPS calls on fresh copies of the inputs (copies not
timed); DaCe's compilation is not timed.
"""
import copy
import os
import sys
import time
import warnings

warnings.filterwarnings("ignore")
import numpy as np  # noqa: E402
import dace  # noqa: E402

N, M, K = (dace.symbol(s) for s in "NMK")
H, W, nnz = dace.symbol("H"), dace.symbol("W"), dace.symbol("nnz")
T = dace.symbol("T")


@dace.program
def laplace(A: dace.float64[2, N], T: dace.uint32):
    for t in range(T):
        for i in dace.map[1:N - 1]:
            A[(t + 1) % 2, i] = A[t % 2, i - 1] - 2 * A[t % 2, i] + A[t % 2, i + 1]


def laplace_np(A, T):
    for t in range(T):
        A[(t + 1) % 2, 1:-1] = A[t % 2, :-2] - 2 * A[t % 2, 1:-1] + A[t % 2, 2:]


@dace.program
def spmv(A_row: dace.uint32[H + 1], A_col: dace.uint32[nnz], A_val: dace.float32[nnz],
         x: dace.float32[W], b: dace.float32[H]):
    for i in dace.map[0:H]:
        for j in dace.map[A_row[i]:A_row[i + 1]]:
            with dace.tasklet:
                aval << A_val[j]
                xval << x[A_col[j]]
                out = aval * xval
                out >> b(1, lambda a, b: a + b)[i]


def spmv_np(A_row, A_col, A_val, x, b):
    rows = np.repeat(np.arange(len(b)), np.diff(A_row.astype(np.int64)))
    b += np.bincount(rows, weights=A_val * x[A_col], minlength=len(b)).astype(np.float32)


@dace.program
def jacobi1d(A: dace.float64[N], B: dace.float64[N], T: dace.int64):
    for t in range(T):
        B[1:-1] = 0.33333 * (A[:-2] + A[1:-1] + A[2:])
        A[1:-1] = 0.33333 * (B[:-2] + B[1:-1] + B[2:])



@dace.program
def jacobi2d(A: dace.float64[N, N], B: dace.float64[N, N], T: dace.int64):
    for t in range(T):
        B[1:-1, 1:-1] = 0.2 * (A[1:-1, 1:-1] + A[1:-1, :-2] + A[1:-1, 2:] + A[2:, 1:-1] + A[:-2, 1:-1])
        A[1:-1, 1:-1] = 0.2 * (B[1:-1, 1:-1] + B[1:-1, :-2] + B[1:-1, 2:] + B[2:, 1:-1] + B[:-2, 1:-1])



@dace.program
def heat3d(A: dace.float64[N, N, N], B: dace.float64[N, N, N], T: dace.int64):
    for t in range(T):
        B[1:-1, 1:-1, 1:-1] = (0.125 * (A[2:, 1:-1, 1:-1] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[:-2, 1:-1, 1:-1])
                               + 0.125 * (A[1:-1, 2:, 1:-1] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[1:-1, :-2, 1:-1])
                               + 0.125 * (A[1:-1, 1:-1, 2:] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[1:-1, 1:-1, :-2])
                               + A[1:-1, 1:-1, 1:-1])
        A[1:-1, 1:-1, 1:-1] = (0.125 * (B[2:, 1:-1, 1:-1] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[:-2, 1:-1, 1:-1])
                               + 0.125 * (B[1:-1, 2:, 1:-1] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[1:-1, :-2, 1:-1])
                               + 0.125 * (B[1:-1, 1:-1, 2:] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[1:-1, 1:-1, :-2])
                               + B[1:-1, 1:-1, 1:-1])



@dace.program
def gemm(alpha: dace.float64, beta: dace.float64, C: dace.float64[M, N], A: dace.float64[M, K],
         B: dace.float64[K, N]):
    C[:] = alpha * A @ B + beta * C



@dace.program
def atax(A: dace.float64[M, N], x: dace.float64[N], y: dace.float64[N]):
    y[:] = (A @ x) @ A



@dace.program
def bicg(A: dace.float64[M, N], p: dace.float64[N], r: dace.float64[M], s: dace.float64[N],
         q: dace.float64[M]):
    s[:] = r @ A
    q[:] = A @ p



@dace.program
def gesummv(alpha: dace.float64, beta: dace.float64, A: dace.float64[N, N], B: dace.float64[N, N],
            x: dace.float64[N], y: dace.float64[N]):
    y[:] = alpha * A @ x + beta * B @ x



@dace.program
def mvt(x1: dace.float64[N], x2: dace.float64[N], y_1: dace.float64[N], y_2: dace.float64[N],
        A: dace.float64[N, N]):
    x1 += A @ y_1
    x2 += y_2 @ A



@dace.program
def vadd(a: dace.float64[N], b: dace.float64[N], c: dace.float64[N]):
    for i in dace.map[0:N]:
        c[i] = a[i] + 2.5 * b[i]


def vadd_np(a, b, c):
    c[:] = a + 2.5 * b


def csr(rng, h, w, density):
    dense = rng.random((h, w)) * (rng.random((h, w)) < density)
    rows, cols, vals = [0], [], []
    for i in range(h):
        nz = np.nonzero(dense[i])[0]
        cols.extend(nz)
        vals.extend(dense[i, nz])
        rows.append(len(cols))
    return (np.array(rows, dtype=np.uint32), np.array(cols, dtype=np.uint32),
            np.array(vals, dtype=np.float32))


def kernels(rng):
    """(name, program, numpy function, symbols, inputs) for every kernel.

    A program written in NumPy syntax is its own NumPy reference (`.f` is
    the undecorated function); the others have a NumPy version above."""
    n = 1 << 20
    a_row, a_col, a_val = csr(rng, 4000, 4000, 0.01)
    yield "laplace", laplace, laplace_np, {"N": n}, {"A": rng.random((2, n)), "T": np.uint32(20)}
    yield "spmv", spmv, spmv_np, {"H": 4000, "W": 4000, "nnz": len(a_col)}, {
        "A_row": a_row, "A_col": a_col, "A_val": a_val, "x": rng.random(4000).astype(np.float32),
        "b": np.zeros(4000, dtype=np.float32)}
    yield "vadd", vadd, vadd_np, {"N": n}, {"a": rng.random(n), "b": rng.random(n), "c": np.zeros(n)}
    yield "jacobi1d", jacobi1d, jacobi1d.f, {"N": n}, {"A": rng.random(n), "B": rng.random(n),
                                                        "T": np.int64(10)}
    yield "jacobi2d", jacobi2d, jacobi2d.f, {"N": 1000}, {"A": rng.random((1000, 1000)),
                                                          "B": rng.random((1000, 1000)), "T": np.int64(10)}
    yield "heat3d", heat3d, heat3d.f, {"N": 100}, {"A": rng.random((100, 100, 100)),
                                                   "B": rng.random((100, 100, 100)), "T": np.int64(5)}
    yield "gemm", gemm, gemm.f, {"M": 400, "N": 400, "K": 400}, {
        "alpha": np.float64(1.5), "beta": np.float64(1.2), "C": rng.random((400, 400)),
        "A": rng.random((400, 400)), "B": rng.random((400, 400))}
    yield "atax", atax, atax.f, {"M": 2000, "N": 2000}, {"A": rng.random((2000, 2000)),
                                                         "x": rng.random(2000), "y": np.zeros(2000)}
    yield "bicg", bicg, bicg.f, {"M": 2000, "N": 2000}, {
        "A": rng.random((2000, 2000)), "p": rng.random(2000), "r": rng.random(2000),
        "s": np.zeros(2000), "q": np.zeros(2000)}
    yield "gesummv", gesummv, gesummv.f, {"N": 2000}, {
        "alpha": np.float64(1.5), "beta": np.float64(1.2), "A": rng.random((2000, 2000)),
        "B": rng.random((2000, 2000)), "x": rng.random(2000), "y": np.zeros(2000)}
    yield "mvt", mvt, mvt.f, {"N": 2000}, {
        "x1": rng.random(2000), "x2": rng.random(2000), "y_1": rng.random(2000), "y_2": rng.random(2000),
        "A": rng.random((2000, 2000))}


def median_ms(call, args, reps):
    times = []
    for _ in range(reps):
        fresh = copy.deepcopy(args)
        start = time.perf_counter()
        call(**fresh)
        times.append((time.perf_counter() - start) * 1e3)
    return sorted(times)[len(times) // 2]


def main():
    out, reps = sys.argv[1], int(sys.argv[2])
    dace.Config.set("compiler", "allow_view_arguments", value=True)
    rng = np.random.default_rng(0)
    for name, program, reference, symbols, inputs in kernels(rng):
        case = os.path.join(out, name)
        os.makedirs(os.path.join(case, "in"), exist_ok=True)
        os.makedirs(os.path.join(case, "dace"), exist_ok=True)
        sdfg = program.to_sdfg(simplify=True)
        sdfg.build_folder = os.path.join(case, "build")
        sdfg.save(os.path.join(case, "program.sdfg"))
        with open(os.path.join(case, "symbols"), "w") as f:
            for k, v in symbols.items():
                f.write(f"{k}={v}\n")
        for k, v in inputs.items():
            np.save(os.path.join(case, "in", k + ".npy"), np.asarray(v))
        compiled = sdfg.compile()
        arrays = copy.deepcopy(inputs)
        compiled(**arrays, **{k: v for k, v in symbols.items() if k not in arrays})
        for k, v in arrays.items():
            if isinstance(v, np.ndarray) and v.ndim > 0:
                np.save(os.path.join(case, "dace", k + ".npy"), v)

        def run_dace(**args):
            compiled(**args, **{k: v for k, v in symbols.items() if k not in args})

        dace_ms = median_ms(run_dace, inputs, reps)
        numpy_ms = median_ms(reference, inputs, reps)
        print("KERNEL", name, dace_ms, numpy_ms, flush=True)


if __name__ == "__main__":
    main()
