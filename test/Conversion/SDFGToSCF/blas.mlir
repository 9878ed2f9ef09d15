// RUN: sdfg-opt %s --pass-pipeline='builtin.module(convert-sdfg-to-scf{blas=true})' | FileCheck %s
// RUN: sdfg-opt %s --pass-pipeline='builtin.module(convert-sdfg-to-scf)' | FileCheck %s --check-prefix=LOOPS
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as n; n.save('%t/a.npy', n.arange(12.0).reshape(4, 3) - 5); n.save('%t/b.npy', n.arange(15.0).reshape(3, 5) %% 7); n.save('%t/c.npy', n.ones((4, 5))); n.save('%t/x.npy', n.arange(3.0) + 1); n.save('%t/v.npy', n.arange(4.0) - 2)"
// RUN: sdfg-run %s --function matmul --input A=%t/a.npy --input B=%t/b.npy --blas --out %t/mm | FileCheck %s --check-prefix=MATMUL
// RUN: sdfg-run %s --function matmul --input A=%t/a.npy --input B=%t/b.npy | FileCheck %s --check-prefix=MATMUL
// RUN: sdfg-run %s --function gemm_transposed --input A=%t/a.npy --input B=%t/b.npy --input C=%t/c.npy --blas --out %t/gemm | FileCheck %s --check-prefix=GEMM
// RUN: sdfg-run %s --function gemm_transposed --input A=%t/a.npy --input B=%t/b.npy --input C=%t/c.npy | FileCheck %s --check-prefix=GEMM
// RUN: sdfg-run %s --function products_with_vectors --input A=%t/a.npy --input x=%t/x.npy --input v=%t/v.npy --blas --out %t/vec | FileCheck %s --check-prefix=VECTORS
// RUN: sdfg-run %s --function products_with_vectors --input A=%t/a.npy --input x=%t/x.npy --input v=%t/v.npy | FileCheck %s --check-prefix=VECTORS
// RUN: sdfg-run %s --function empty_inner_dimension --set K=0 --seed 5 --blas | FileCheck %s --check-prefix=EMPTY
// RUN: sdfg-run %s --function empty_inner_dimension --set K=0 --seed 5 | FileCheck %s --check-prefix=EMPTY
// RUN: %python -c "import numpy as n; N = 203; n.save('%t/sa.npy', (n.arange(N * N) %% 7 - 3.0).reshape(N, N)); n.save('%t/sb.npy', (n.arange(N * N) %% 5 * 1.0).reshape(N, N)); n.save('%t/sx.npy', n.arange(N) %% 3 - 1.0)"
// RUN: sdfg-run %s --function split_among_threads --set N=203 --input A=%t/sa.npy --input B=%t/sb.npy --input x=%t/sx.npy --blas --out %t/split > /dev/null
// RUN: %python -c "import numpy as n; l = lambda f: n.load('%t/' + f + '.npy'); A, B, x = l('sa'), l('sb'), l('sx'); assert n.array_equal(l('split/C'), A.T @ B); assert n.array_equal(l('split/D'), A @ B); assert n.array_equal(l('split/y'), A @ x); assert n.array_equal(l('split/z'), x @ A)"
// RUN: %python -c "import numpy as n; l = lambda f: n.load('%t/' + f + '.npy'); A, B, C, x, v = l('a'), l('b'), l('c'), l('x'), l('v'); G = C.copy(); G[1:4] = 2 * A[0:3, 0:3].T @ B + C[1:4]; assert n.array_equal(l('mm/C'), A @ B); assert n.array_equal(l('gemm/C'), G); assert n.array_equal(l('vec/y'), A @ x); assert n.array_equal(l('vec/z'), v @ A); assert l('vec/d')[0] == x @ x"
// RUN: %python -c "import numpy as n; n.save('%t/ba.npy', (n.arange(36.0) %% 7 - 3).reshape(3, 4, 3)); n.save('%t/bb.npy', (n.arange(45.0) %% 5).reshape(3, 3, 5)); n.save('%t/bw.npy', n.arange(12.0).reshape(4, 3) - 6)"
// RUN: sdfg-run %s --function batched --set NB=3 --input A=%t/ba.npy --input B=%t/bb.npy --input W=%t/bw.npy --blas --out %t/bat > /dev/null
// RUN: env OMP_NUM_THREADS=4 sdfg-run %s --function batched --set NB=3 --input A=%t/ba.npy --input B=%t/bb.npy --input W=%t/bw.npy --blas --out %t/bat4 > /dev/null
// RUN: sdfg-run %s --function batched --set NB=3 --input A=%t/ba.npy --input B=%t/bb.npy --input W=%t/bw.npy --out %t/batloops > /dev/null
// RUN: %python -c "import numpy as n; l = lambda f: n.load('%t/' + f + '.npy'); A, B, W = l('ba'), l('bb'), l('bw'); [n.testing.assert_array_equal(l(d + '/C'), A @ B) for d in ('bat', 'bat4', 'batloops')]; [n.testing.assert_array_equal(l(d + '/D'), W @ B) for d in ('bat', 'bat4', 'batloops')]; [n.testing.assert_array_equal(l(d + '/E'), A[:, 1:4, :] @ B[:, :, 1:4]) for d in ('bat', 'bat4', 'batloops')]"
// RUN: %python -c "import numpy as n; n.save('%t/ga.npy', n.arange(12.0).reshape(4, 3) - 5); n.save('%t/gx.npy', n.arange(4.0) - 1); n.save('%t/gy.npy', n.arange(3.0) * 2); n.save('%t/gs.npy', n.arange(24.0).reshape(8, 3)); n.save('%t/gt.npy', -n.arange(24.0).reshape(4, 6))"
// RUN: sdfg-run %s --function ger --input A=%t/ga.npy --input x=%t/gx.npy --input y=%t/gy.npy --input S=%t/gs.npy --input T=%t/gt.npy --blas --out %t/ger > /dev/null
// RUN: sdfg-run %s --function ger --input A=%t/ga.npy --input x=%t/gx.npy --input y=%t/gy.npy --input S=%t/gs.npy --input T=%t/gt.npy --out %t/gerloops > /dev/null
// RUN: %python -c "import numpy as n; l = lambda f: n.load('%t/' + f + '.npy'); A, x, y, S, T = l('ga'), l('gx'), l('gy'), l('gs'), l('gt'); S[0:4] += 2 * n.outer(x, y); T[:, 0:6:2] = n.outer(x, y) + A; [n.testing.assert_array_equal(l(d + '/R'), 2 * n.outer(x, y) + A) for d in ('ger', 'gerloops')]; [n.testing.assert_array_equal(l(d + '/S'), S) for d in ('ger', 'gerloops')]; [n.testing.assert_array_equal(l(d + '/T'), T) for d in ('ger', 'gerloops')]"

// With blas=true (sdfg-run --blas) the BLAS library nodes call CBLAS, as
// DaCe's fast implementations do; without it they are loop nests. On
// integer-valued inputs both give the same numbers exactly: the same
// checksums, and the CBLAS results equal NumPy's element by element (the
// last RUN line).
// CHECK-DAG: func.func private @cblas_dgemm(i32, i32, i32, i32, i32, i32, f64, !llvm.ptr, i32, !llvm.ptr, i32, f64, !llvm.ptr, i32)
// CHECK-DAG: func.func private @cblas_dgemv(i32, i32, i32, i32, f64, !llvm.ptr, i32, !llvm.ptr, i32, f64, !llvm.ptr, i32)
// CHECK-DAG: func.func private @cblas_ddot(i32, !llvm.ptr, i32, !llvm.ptr, i32) -> f64
// CHECK-DAG: func.func private @cblas_dger(i32, i32, i32, f64, !llvm.ptr, i32, !llvm.ptr, i32, !llvm.ptr, i32)
// LOOPS-NOT: cblas

// A (4x3) @ B (3x5): row-major, neither transposed (111).
// CHECK-LABEL: func.func @matmul
// CHECK: call @cblas_dgemm(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// MATMUL: C: <f8[4, 5] checksum 1.1600000000e2
sdfg.sdfg @matmul(%A: !sdfg.array<f64 ["4", "3"]> as "A", %B: !sdfg.array<f64 ["3", "5"]> as "B", %C: !sdfg.array<f64 ["4", "5"]> as "C") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4", "3"]>
    %b = sdfg.access %B : !sdfg.array<f64 ["3", "5"]>
    %m = sdfg.library "mm" "dace.libraries.blas.nodes.matmul.MatMul"
        ins("_a" = %a["0:4, 0:3"] : !sdfg.array<f64 ["4", "3"]>, "_b" = %b["0:3, 0:5"] : !sdfg.array<f64 ["3", "5"]>)
        outs("_c" : !sdfg.array<f64 ["4", "5"]>) properties {}
    %c = sdfg.access %C writes(%m["0:4, 0:5"] : !sdfg.array<f64 ["4", "5"]>) : !sdfg.array<f64 ["4", "5"]>
  }
}

// C[1:4] = 2 * A[0:3, 0:3]^T @ B + C[1:4]: alpha 2, beta 1, transA (112),
// on subsets of A and C.
// CHECK-LABEL: func.func @gemm_transposed
// CHECK: call @cblas_dgemm
// GEMM: C: <f8[4, 5] checksum -8.8000000000e1
sdfg.sdfg @gemm_transposed(%A: !sdfg.array<f64 ["4", "3"]> as "A", %B: !sdfg.array<f64 ["3", "5"]> as "B", %C: !sdfg.array<f64 ["4", "5"]> as "C") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4", "3"]>
    %b = sdfg.access %B : !sdfg.array<f64 ["3", "5"]>
    %c = sdfg.access %C : !sdfg.array<f64 ["4", "5"]>
    %m = sdfg.library "gemm" "dace.libraries.blas.nodes.gemm.Gemm"
        ins("_a" = %a["0:3, 0:3"] : !sdfg.array<f64 ["4", "3"]>, "_b" = %b["0:3, 0:5"] : !sdfg.array<f64 ["3", "5"]>, "_cin" = %c["1:4, 0:5"] : !sdfg.array<f64 ["4", "5"]>)
        outs("_c" : !sdfg.array<f64 ["4", "5"]>) properties {alpha = "2", beta = "1", transA = "True"}
    %w = sdfg.access %C writes(%m["1:4, 0:5"] : !sdfg.array<f64 ["4", "5"]>) : !sdfg.array<f64 ["4", "5"]>
  }
}

// A @ x (gemv), v @ A (gemv on A transposed, 112) and x . x (dot).
// CHECK-LABEL: func.func @products_with_vectors
// CHECK: call @cblas_dgemv
// CHECK: call @cblas_dgemv
// CHECK: call @cblas_ddot
// VECTORS-DAG: y: <f8[4] checksum 2.0000000000e1
// VECTORS-DAG: z: <f8[3] checksum 4.2000000000e1
// VECTORS-DAG: d: <f8[1] checksum 1.4000000000e1
sdfg.sdfg @products_with_vectors(%A: !sdfg.array<f64 ["4", "3"]> as "A", %x: !sdfg.array<f64 ["3"]> as "x", %v: !sdfg.array<f64 ["4"]> as "v", %y: !sdfg.array<f64 ["4"]> as "y", %z: !sdfg.array<f64 ["3"]> as "z", %d: !sdfg.array<f64 ["1"]> as "d") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4", "3"]>
    %xa = sdfg.access %x : !sdfg.array<f64 ["3"]>
    %va = sdfg.access %v : !sdfg.array<f64 ["4"]>
    %m1 = sdfg.library "mv" "dace.libraries.blas.nodes.matmul.MatMul"
        ins("_a" = %a["0:4, 0:3"] : !sdfg.array<f64 ["4", "3"]>, "_b" = %xa["0:3"] : !sdfg.array<f64 ["3"]>)
        outs("_c" : !sdfg.array<f64 ["4"]>) properties {}
    %ya = sdfg.access %y writes(%m1["0:4"] : !sdfg.array<f64 ["4"]>) : !sdfg.array<f64 ["4"]>
    %m2 = sdfg.library "vm" "dace.libraries.blas.nodes.matmul.MatMul"
        ins("_a" = %va["0:4"] : !sdfg.array<f64 ["4"]>, "_b" = %a["0:4, 0:3"] : !sdfg.array<f64 ["4", "3"]>)
        outs("_c" : !sdfg.array<f64 ["3"]>) properties {}
    %za = sdfg.access %z writes(%m2["0:3"] : !sdfg.array<f64 ["3"]>) : !sdfg.array<f64 ["3"]>
    %m3 = sdfg.library "dot" "dace.libraries.blas.nodes.dot.Dot"
        ins("_x" = %xa["0:3"] : !sdfg.array<f64 ["3"]>, "_y" = %xa["0:3"] : !sdfg.array<f64 ["3"]>)
        outs("_result" : !sdfg.array<f64 ["1"]>) properties {}
    %da = sdfg.access %d writes(%m3["0"] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
  }
}

// A product over an empty inner dimension is zeros: CBLAS returns at once
// for it (and rejects a leading dimension of 0), so the result buffer
// starts zeroed and every leading dimension is at least 1.
// EMPTY-DAG: C: <f8[4, 5] checksum 0.0000000000e0
// EMPTY-DAG: y: <f8[4] checksum 0.0000000000e0
sdfg.sdfg @empty_inner_dimension(%A: !sdfg.array<f64 ["4", "K"]> as "A", %B: !sdfg.array<f64 ["K", "5"]> as "B", %x: !sdfg.array<f64 ["K"]> as "x", %C: !sdfg.array<f64 ["4", "5"]> as "C", %y: !sdfg.array<f64 ["4"]> as "y") symbols {K = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4", "K"]>
    %b = sdfg.access %B : !sdfg.array<f64 ["K", "5"]>
    %xa = sdfg.access %x : !sdfg.array<f64 ["K"]>
    %m = sdfg.library "mm" "dace.libraries.blas.nodes.matmul.MatMul"
        ins("_a" = %a["0:4, 0:K"] : !sdfg.array<f64 ["4", "K"]>, "_b" = %b["0:K, 0:5"] : !sdfg.array<f64 ["K", "5"]>)
        outs("_c" : !sdfg.array<f64 ["4", "5"]>) properties {}
    %c = sdfg.access %C writes(%m["0:4, 0:5"] : !sdfg.array<f64 ["4", "5"]>) : !sdfg.array<f64 ["4", "5"]>
    %v = sdfg.library "mv" "dace.libraries.blas.nodes.matmul.MatMul"
        ins("_a" = %a["0:4, 0:K"] : !sdfg.array<f64 ["4", "K"]>, "_b" = %xa["0:K"] : !sdfg.array<f64 ["K"]>)
        outs("_c" : !sdfg.array<f64 ["4"]>) properties {}
    %ya = sdfg.access %y writes(%v["0:4"] : !sdfg.array<f64 ["4"]>) : !sdfg.array<f64 ["4"]>
  }
}

// Large products are split by rows of their output among the OpenMP
// threads, one CBLAS call per thread on its rows (of op(A) as well: for
// A^T, columns of A), behind a test of the work; smaller ones (the
// `else`) are one call. N = 203 splits unevenly; the outputs on
// integer-valued inputs equal NumPy's element by element (the RUN lines).
// CHECK-LABEL: func.func @split_among_threads
// CHECK: scf.if
// CHECK: call @omp_get_max_threads()
// CHECK: scf.parallel
// CHECK: arith.minsi
// CHECK: llvm.getelementptr
// CHECK: call @cblas_dgemm
// CHECK: } else {
// CHECK: call @cblas_dgemm
sdfg.sdfg @split_among_threads(%A: !sdfg.array<f64 ["N", "N"]> as "A", %B: !sdfg.array<f64 ["N", "N"]> as "B", %x: !sdfg.array<f64 ["N"]> as "x", %C: !sdfg.array<f64 ["N", "N"]> as "C", %D: !sdfg.array<f64 ["N", "N"]> as "D", %y: !sdfg.array<f64 ["N"]> as "y", %z: !sdfg.array<f64 ["N"]> as "z") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "N"]>
    %b = sdfg.access %B : !sdfg.array<f64 ["N", "N"]>
    %xa = sdfg.access %x : !sdfg.array<f64 ["N"]>
    %g = sdfg.library "gemm" "dace.libraries.blas.nodes.gemm.Gemm"
        ins("_a" = %a["0:N, 0:N"] : !sdfg.array<f64 ["N", "N"]>, "_b" = %b["0:N, 0:N"] : !sdfg.array<f64 ["N", "N"]>)
        outs("_c" : !sdfg.array<f64 ["N", "N"]>) properties {transA = "True"}
    %c = sdfg.access %C writes(%g["0:N, 0:N"] : !sdfg.array<f64 ["N", "N"]>) : !sdfg.array<f64 ["N", "N"]>
    %m = sdfg.library "mm" "dace.libraries.blas.nodes.matmul.MatMul"
        ins("_a" = %a["0:N, 0:N"] : !sdfg.array<f64 ["N", "N"]>, "_b" = %b["0:N, 0:N"] : !sdfg.array<f64 ["N", "N"]>)
        outs("_c" : !sdfg.array<f64 ["N", "N"]>) properties {}
    %d = sdfg.access %D writes(%m["0:N, 0:N"] : !sdfg.array<f64 ["N", "N"]>) : !sdfg.array<f64 ["N", "N"]>
    %v1 = sdfg.library "mv" "dace.libraries.blas.nodes.matmul.MatMul"
        ins("_a" = %a["0:N, 0:N"] : !sdfg.array<f64 ["N", "N"]>, "_b" = %xa["0:N"] : !sdfg.array<f64 ["N"]>)
        outs("_c" : !sdfg.array<f64 ["N"]>) properties {}
    %ya = sdfg.access %y writes(%v1["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %v2 = sdfg.library "vm" "dace.libraries.blas.nodes.matmul.MatMul"
        ins("_a" = %xa["0:N"] : !sdfg.array<f64 ["N"]>, "_b" = %a["0:N, 0:N"] : !sdfg.array<f64 ["N", "N"]>)
        outs("_c" : !sdfg.array<f64 ["N"]>) properties {}
    %za = sdfg.access %z writes(%v2["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// Batched products (a 3-D `_b`), one `cblas_dgemm` per batch on pointers
// advanced by each operand's batch stride: A[b] @ B[b]; one matrix W for
// every batch (stride 0), as DaCe's `BatchedMatMul` class, which is a
// `MatMul`; and blocks of A and B (offsets and leading dimensions). As
// many batches as threads run in parallel, one call each; fewer (the RUN
// line with four threads) one after the other, each call split by rows.
// The results equal NumPy's element by element, with and without CBLAS.
// CHECK-LABEL: func.func @batched
// CHECK: scf.if
// CHECK: scf.parallel
// CHECK: call @cblas_dgemm
// CHECK: } else {
// CHECK: scf.for
// CHECK: call @cblas_dgemm
sdfg.sdfg @batched(%A: !sdfg.array<f64 ["NB", "4", "3"]> as "A", %B: !sdfg.array<f64 ["NB", "3", "5"]> as "B", %W: !sdfg.array<f64 ["4", "3"]> as "W", %C: !sdfg.array<f64 ["NB", "4", "5"]> as "C", %D: !sdfg.array<f64 ["NB", "4", "5"]> as "D", %E: !sdfg.array<f64 ["NB", "3", "3"]> as "E") symbols {NB = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["NB", "4", "3"]>
    %b = sdfg.access %B : !sdfg.array<f64 ["NB", "3", "5"]>
    %w = sdfg.access %W : !sdfg.array<f64 ["4", "3"]>
    %m1 = sdfg.library "bmm" "dace.libraries.blas.nodes.matmul.MatMul"
        ins("_a" = %a["0:NB, 0:4, 0:3"] : !sdfg.array<f64 ["NB", "4", "3"]>, "_b" = %b["0:NB, 0:3, 0:5"] : !sdfg.array<f64 ["NB", "3", "5"]>)
        outs("_c" : !sdfg.array<f64 ["NB", "4", "5"]>) properties {}
    %c = sdfg.access %C writes(%m1["0:NB, 0:4, 0:5"] : !sdfg.array<f64 ["NB", "4", "5"]>) : !sdfg.array<f64 ["NB", "4", "5"]>
    %m2 = sdfg.library "shared" "dace.libraries.blas.nodes.batched_matmul.BatchedMatMul"
        ins("_a" = %w["0:4, 0:3"] : !sdfg.array<f64 ["4", "3"]>, "_b" = %b["0:NB, 0:3, 0:5"] : !sdfg.array<f64 ["NB", "3", "5"]>)
        outs("_c" : !sdfg.array<f64 ["NB", "4", "5"]>) properties {}
    %d = sdfg.access %D writes(%m2["0:NB, 0:4, 0:5"] : !sdfg.array<f64 ["NB", "4", "5"]>) : !sdfg.array<f64 ["NB", "4", "5"]>
    %m3 = sdfg.library "blocks" "dace.libraries.blas.nodes.matmul.MatMul"
        ins("_a" = %a["0:NB, 1:4, 0:3"] : !sdfg.array<f64 ["NB", "4", "3"]>, "_b" = %b["0:NB, 0:3, 1:4"] : !sdfg.array<f64 ["NB", "3", "5"]>)
        outs("_c" : !sdfg.array<f64 ["NB", "3", "3"]>) properties {}
    %e = sdfg.access %E writes(%m3["0:NB, 0:3, 0:3"] : !sdfg.array<f64 ["NB", "3", "3"]>) : !sdfg.array<f64 ["NB", "3", "3"]>
  }
}

// Ger (res = alpha * x y^T + A) adds into its matrix in place: into R
// after A is copied there; into S itself, which is both `_A` and the
// output (no copy); and, for T's every other column (not a matrix CBLAS
// takes in place), into a staged copy of A, copied into T after. T's other
// columns and S's other rows keep their values.
// CHECK-LABEL: func.func @ger
// CHECK: call @cblas_dger
// CHECK: call @cblas_dger
// CHECK: call @cblas_dger
sdfg.sdfg @ger(%A: !sdfg.array<f64 ["4", "3"]> as "A", %x: !sdfg.array<f64 ["4"]> as "x", %y: !sdfg.array<f64 ["3"]> as "y", %R: !sdfg.array<f64 ["4", "3"]> as "R", %S: !sdfg.array<f64 ["8", "3"]> as "S", %T: !sdfg.array<f64 ["4", "6"]> as "T") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4", "3"]>
    %xa = sdfg.access %x : !sdfg.array<f64 ["4"]>
    %ya = sdfg.access %y : !sdfg.array<f64 ["3"]>
    %s = sdfg.access %S : !sdfg.array<f64 ["8", "3"]>
    %g1 = sdfg.library "copied" "dace.libraries.blas.nodes.ger.Ger"
        ins("_A" = %a["0:4, 0:3"] : !sdfg.array<f64 ["4", "3"]>, "_x" = %xa["0:4"] : !sdfg.array<f64 ["4"]>, "_y" = %ya["0:3"] : !sdfg.array<f64 ["3"]>)
        outs("_res" : !sdfg.array<f64 ["4", "3"]>) properties {alpha = "2"}
    %r = sdfg.access %R writes(%g1["0:4, 0:3"] : !sdfg.array<f64 ["4", "3"]>) : !sdfg.array<f64 ["4", "3"]>
    %g2 = sdfg.library "in_place" "dace.libraries.blas.nodes.ger.Ger"
        ins("_A" = %s["0:4, 0:3"] : !sdfg.array<f64 ["8", "3"]>, "_x" = %xa["0:4"] : !sdfg.array<f64 ["4"]>, "_y" = %ya["0:3"] : !sdfg.array<f64 ["3"]>)
        outs("_res" : !sdfg.array<f64 ["8", "3"]>) properties {alpha = "2"}
    %sw = sdfg.access %S writes(%g2["0:4, 0:3"] : !sdfg.array<f64 ["8", "3"]>) : !sdfg.array<f64 ["8", "3"]>
    %g3 = sdfg.library "staged" "dace.libraries.blas.nodes.ger.Ger"
        ins("_A" = %a["0:4, 0:3"] : !sdfg.array<f64 ["4", "3"]>, "_x" = %xa["0:4"] : !sdfg.array<f64 ["4"]>, "_y" = %ya["0:3"] : !sdfg.array<f64 ["3"]>)
        outs("_res" : !sdfg.array<f64 ["4", "6"]>) properties {}
    %t = sdfg.access %T writes(%g3["0:4, 0:6:2"] : !sdfg.array<f64 ["4", "6"]>) : !sdfg.array<f64 ["4", "6"]>
  }
}
