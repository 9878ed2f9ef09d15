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

// With blas=true (sdfg-run --blas) the BLAS library nodes call CBLAS, as
// DaCe's fast implementations do; without it they are loop nests. On
// integer-valued inputs both give the same numbers exactly: the same
// checksums, and the CBLAS results equal NumPy's element by element (the
// last RUN line).
// CHECK-DAG: func.func private @cblas_dgemm(i32, i32, i32, i32, i32, i32, f64, !llvm.ptr, i32, !llvm.ptr, i32, f64, !llvm.ptr, i32)
// CHECK-DAG: func.func private @cblas_dgemv(i32, i32, i32, i32, f64, !llvm.ptr, i32, !llvm.ptr, i32, f64, !llvm.ptr, i32)
// CHECK-DAG: func.func private @cblas_ddot(i32, !llvm.ptr, i32, !llvm.ptr, i32) -> f64
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
