// RUN: sdfg-opt %s --pass-pipeline='builtin.module(convert-sdfg-to-scf{linalg=true})' | FileCheck %s
// RUN: sdfg-opt %s --pass-pipeline='builtin.module(convert-sdfg-to-scf{linalg=true})' | mlir-opt --linalg-generalize-named-ops --convert-linalg-to-loops | FileCheck %s --check-prefix=UPSTREAM
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as n; n.save('%t/a.npy', n.arange(12.0).reshape(4, 3) - 5); n.save('%t/b.npy', n.arange(15.0).reshape(3, 5) %% 7); n.save('%t/c.npy', n.arange(20.0).reshape(4, 5) %% 3); n.save('%t/x.npy', n.arange(3.0) + 1); n.save('%t/v.npy', n.arange(4.0) - 2); n.save('%t/p.npy', n.arange(24.0).reshape(2, 3, 4) %% 5); n.save('%t/q.npy', n.arange(24.0).reshape(2, 4, 3) %% 4)"
// RUN: sdfg-run %s --function matmul --input A=%t/a.npy --input B=%t/b.npy --linalg --out %t/mm | FileCheck %s --check-prefix=MATMUL
// RUN: sdfg-run %s --function matmul --input A=%t/a.npy --input B=%t/b.npy | FileCheck %s --check-prefix=MATMUL
// RUN: sdfg-run %s --function gemm_accumulate --input A=%t/a.npy --input B=%t/b.npy --input C=%t/c.npy --input D=%t/c.npy --linalg --out %t/gemm | FileCheck %s --check-prefix=GEMM
// RUN: sdfg-run %s --function gemm_accumulate --input A=%t/a.npy --input B=%t/b.npy --input C=%t/c.npy --input D=%t/c.npy | FileCheck %s --check-prefix=GEMM
// RUN: sdfg-run %s --function products_with_vectors --input A=%t/a.npy --input x=%t/x.npy --input v=%t/v.npy --linalg --out %t/vec | FileCheck %s --check-prefix=VECTORS
// RUN: sdfg-run %s --function products_with_vectors --input A=%t/a.npy --input x=%t/x.npy --input v=%t/v.npy | FileCheck %s --check-prefix=VECTORS
// RUN: sdfg-run %s --function batched_and_transposed --input P=%t/p.npy --input Q=%t/q.npy --input A=%t/a.npy --linalg --out %t/bt | FileCheck %s --check-prefix=BATCHED
// RUN: sdfg-run %s --function batched_and_transposed --input P=%t/p.npy --input Q=%t/q.npy --input A=%t/a.npy | FileCheck %s --check-prefix=BATCHED
// RUN: %python -c "import numpy as n; l = lambda f: n.load('%t/' + f + '.npy'); A, B, C, x, v, P, Q = l('a'), l('b'), l('c'), l('x'), l('v'), l('p'), l('q'); G = C.copy(); G[1:4] = A[0:3, 0:3].T @ B + C[1:4]; H = C[0:3].copy(); H[:] = A[0:3, 0:3].T @ B + C[1:4]; assert n.array_equal(l('mm/C'), A @ B); assert n.array_equal(l('gemm/C'), G); assert n.array_equal(l('gemm/E'), H); assert n.array_equal(l('gemm/F'), 2 * A[0:3, 0:3] @ B); assert n.array_equal(l('vec/y'), A @ x); assert n.array_equal(l('vec/z'), v @ A); assert l('vec/d')[0] == x @ x; assert n.array_equal(l('bt/R'), P @ Q); assert n.array_equal(l('bt/T'), A[1:4, 0:3:2].T)"

// With linalg=true (sdfg-run --linalg) the BLAS library nodes and Transpose
// are linalg named ops on strided views of the containers' buffers, which
// upstream's linalg passes take (the UPSTREAM line generalizes them and
// lowers them to loops); without it they are loop nests. Both give the
// same numbers, equal to NumPy's (the last RUN line).

// A (4x3) @ B (3x5): MatMul overwrites C, so a fill comes first.
// CHECK-LABEL: func.func @matmul
// CHECK: %[[A:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [%{{.*}}, %{{.*}}], strides: [%{{.*}}, %{{.*}}] : memref<?xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
// CHECK: %[[B:.*]] = memref.reinterpret_cast
// CHECK: %[[C:.*]] = memref.reinterpret_cast
// CHECK: linalg.fill ins(%{{.*}} : f64) outs(%[[C]] : memref<?x?xf64, strided<[?, ?], offset: ?>>)
// CHECK: linalg.matmul ins(%[[A]], %[[B]] : memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<?x?xf64, strided<[?, ?], offset: ?>>) outs(%[[C]] : memref<?x?xf64, strided<[?, ?], offset: ?>>)
// UPSTREAM-LABEL: func.func @matmul
// UPSTREAM-NOT: linalg.
// UPSTREAM: arith.mulf
// UPSTREAM: arith.addf
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

// C[1:4] = A[0:3, 0:3]^T @ B + C[1:4] (beta 1, `_cin` the output's own
// subset): a matmul on A's view with its dimensions swapped, accumulating
// in place. E = the same with `_cin` from another container (D): a copy
// first. With alpha 2 the node keeps its loop nest.
// CHECK-LABEL: func.func @gemm_accumulate
// CHECK-NOT: linalg.fill
// CHECK: linalg.matmul
// CHECK: linalg.copy ins(%{{.*}} : memref<?x?xf64, strided<[?, ?], offset: ?>>) outs(%{{.*}} : memref<?x?xf64, strided<[?, ?], offset: ?>>)
// CHECK-NEXT: linalg.matmul
// CHECK-NOT: linalg.
// CHECK: return
// GEMM-DAG: C: <f8[4, 5] checksum -3.5000000000e1
// GEMM-DAG: E: <f8[3, 5] checksum -3.9000000000e1
// GEMM-DAG: F: <f8[3, 5] checksum -2.0400000000e2
sdfg.sdfg @gemm_accumulate(%A: !sdfg.array<f64 ["4", "3"]> as "A", %B: !sdfg.array<f64 ["3", "5"]> as "B", %C: !sdfg.array<f64 ["4", "5"]> as "C", %D: !sdfg.array<f64 ["4", "5"]> as "D", %E: !sdfg.array<f64 ["3", "5"]> as "E", %F: !sdfg.array<f64 ["3", "5"]> as "F") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4", "3"]>
    %b = sdfg.access %B : !sdfg.array<f64 ["3", "5"]>
    %c = sdfg.access %C : !sdfg.array<f64 ["4", "5"]>
    %d = sdfg.access %D : !sdfg.array<f64 ["4", "5"]>
    %m = sdfg.library "gemm" "dace.libraries.blas.nodes.gemm.Gemm"
        ins("_a" = %a["0:3, 0:3"] : !sdfg.array<f64 ["4", "3"]>, "_b" = %b["0:3, 0:5"] : !sdfg.array<f64 ["3", "5"]>, "_cin" = %c["1:4, 0:5"] : !sdfg.array<f64 ["4", "5"]>)
        outs("_c" : !sdfg.array<f64 ["4", "5"]>) properties {alpha = "1", beta = "1", transA = "true"}
    %w = sdfg.access %C writes(%m["1:4, 0:5"] : !sdfg.array<f64 ["4", "5"]>) : !sdfg.array<f64 ["4", "5"]>
    %n = sdfg.library "gemm2" "dace.libraries.blas.nodes.gemm.Gemm"
        ins("_a" = %a["0:3, 0:3"] : !sdfg.array<f64 ["4", "3"]>, "_b" = %b["0:3, 0:5"] : !sdfg.array<f64 ["3", "5"]>, "_cin" = %d["1:4, 0:5"] : !sdfg.array<f64 ["4", "5"]>)
        outs("_c" : !sdfg.array<f64 ["3", "5"]>) properties {alpha = "1", beta = "1", transA = "true"}
    %e = sdfg.access %E writes(%n["0:3, 0:5"] : !sdfg.array<f64 ["3", "5"]>) : !sdfg.array<f64 ["3", "5"]>
    %o = sdfg.library "gemm3" "dace.libraries.blas.nodes.gemm.Gemm"
        ins("_a" = %a["0:3, 0:3"] : !sdfg.array<f64 ["4", "3"]>, "_b" = %b["0:3, 0:5"] : !sdfg.array<f64 ["3", "5"]>)
        outs("_c" : !sdfg.array<f64 ["3", "5"]>) properties {alpha = "2"}
    %f = sdfg.access %F writes(%o["0:3, 0:5"] : !sdfg.array<f64 ["3", "5"]>) : !sdfg.array<f64 ["3", "5"]>
  }
}

// A @ x (matvec), v @ A (vecmat) and x . x (dot, into a rank-0 view).
// CHECK-LABEL: func.func @products_with_vectors
// CHECK: linalg.matvec
// CHECK: linalg.vecmat
// CHECK: linalg.fill ins(%{{.*}} : f64) outs(%{{.*}} : memref<f64, strided<[], offset: ?>>)
// CHECK: linalg.dot
// VECTORS-DAG: y: <f8[4] checksum 2.0000000000e1
// VECTORS-DAG: z: <f8[3] checksum 4.2000000000e1
// VECTORS-DAG: d: <f8[1] checksum 1.4000000000e1
sdfg.sdfg @products_with_vectors(%A: !sdfg.array<f64 ["4", "3"]> as "A", %x: !sdfg.array<f64 ["3"]> as "x", %v: !sdfg.array<f64 ["4"]> as "v", %y: !sdfg.array<f64 ["4"]> as "y", %z: !sdfg.array<f64 ["3"]> as "z", %d: !sdfg.array<f64 ["1"]> as "d") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4", "3"]>
    %xa = sdfg.access %x : !sdfg.array<f64 ["3"]>
    %va = sdfg.access %v : !sdfg.array<f64 ["4"]>
    %m1 = sdfg.library "mv" "dace.libraries.blas.nodes.gemv.Gemv"
        ins("_A" = %a["0:4, 0:3"] : !sdfg.array<f64 ["4", "3"]>, "_x" = %xa["0:3"] : !sdfg.array<f64 ["3"]>)
        outs("_y" : !sdfg.array<f64 ["4"]>) properties {}
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

// A batched (3-D) MatMul, and a Transpose of a strided subset.
// CHECK-LABEL: func.func @batched_and_transposed
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : memref<?x?x?xf64, strided<[?, ?, ?], offset: ?>>, memref<?x?x?xf64, strided<[?, ?, ?], offset: ?>>)
// CHECK: linalg.transpose ins(%{{.*}} : memref<?x?xf64, strided<[?, ?], offset: ?>>) outs(%{{.*}} : memref<?x?xf64, strided<[?, ?], offset: ?>>) permutation = [1, 0]
// BATCHED-DAG: R: <f8[2, 3, 3] checksum 2.1200000000e2
// BATCHED-DAG: T: <f8[2, 3] checksum 1.2000000000e1
sdfg.sdfg @batched_and_transposed(%P: !sdfg.array<f64 ["2", "3", "4"]> as "P", %Q: !sdfg.array<f64 ["2", "4", "3"]> as "Q", %A: !sdfg.array<f64 ["4", "3"]> as "A", %R: !sdfg.array<f64 ["2", "3", "3"]> as "R", %T: !sdfg.array<f64 ["2", "3"]> as "T") {
  sdfg.state @s {
    %p = sdfg.access %P : !sdfg.array<f64 ["2", "3", "4"]>
    %q = sdfg.access %Q : !sdfg.array<f64 ["2", "4", "3"]>
    %a = sdfg.access %A : !sdfg.array<f64 ["4", "3"]>
    %m = sdfg.library "bmm" "dace.libraries.blas.nodes.matmul.MatMul"
        ins("_a" = %p["0:2, 0:3, 0:4"] : !sdfg.array<f64 ["2", "3", "4"]>, "_b" = %q["0:2, 0:4, 0:3"] : !sdfg.array<f64 ["2", "4", "3"]>)
        outs("_c" : !sdfg.array<f64 ["2", "3", "3"]>) properties {}
    %r = sdfg.access %R writes(%m["0:2, 0:3, 0:3"] : !sdfg.array<f64 ["2", "3", "3"]>) : !sdfg.array<f64 ["2", "3", "3"]>
    %t = sdfg.library "t" "dace.libraries.standard.nodes.transpose.Transpose"
        ins("_inp" = %a["1:4, 0:3:2"] : !sdfg.array<f64 ["4", "3"]>)
        outs("_out" : !sdfg.array<f64 ["2", "3"]>) properties {dtype = "\22float64\22"}
    %ta = sdfg.access %T writes(%t["0:2, 0:3"] : !sdfg.array<f64 ["2", "3"]>) : !sdfg.array<f64 ["2", "3"]>
  }
}
