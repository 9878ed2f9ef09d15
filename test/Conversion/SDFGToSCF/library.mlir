// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(convert-sdfg-to-scf)' | FileCheck %s

// Library nodes lower as DaCe's pure expansions compute them.

// MatMul: rows in parallel; each row of C is zeroed, then A[i, k] * B[k, :]
// is accumulated into it (vectorisable over j).
// CHECK-LABEL: func.func @matmul
// CHECK: scf.parallel (%[[I:.*]]) =
// CHECK: scf.for %[[J:.*]] =
// CHECK: memref.store %{{.*}}, %[[C:.*]][%{{.*}}] : memref<?xf64>
// CHECK: scf.for %[[K:.*]] =
// CHECK: %[[A:.*]] = memref.load
// CHECK: scf.for %[[J2:.*]] =
// CHECK: %[[B:.*]] = memref.load
// CHECK: %[[P:.*]] = arith.mulf %[[A]], %[[B]] : f64
// CHECK: %[[OLD:.*]] = memref.load %[[C]]
// CHECK: arith.addf %[[OLD]], %[[P]] : f64
sdfg.sdfg @matmul(%A: !sdfg.array<f64 ["M", "K"]> as "A", %B: !sdfg.array<f64 ["K", "N"]> as "B", %C: !sdfg.array<f64 ["M", "N"]> as "C") symbols {K = i64, M = i64, N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["M", "K"]>
    %b = sdfg.access %B : !sdfg.array<f64 ["K", "N"]>
    %mm = sdfg.library "_MatMult_" "dace.libraries.blas.nodes.matmul.MatMul"
        ins("_a" = %a["0:M, 0:K"] : !sdfg.array<f64 ["M", "K"]>, "_b" = %b["0:K, 0:N"] : !sdfg.array<f64 ["K", "N"]>)
        outs("_c" : !sdfg.array<f64 ["M", "N"]>) properties {}
    %c = sdfg.access %C writes(%mm["0:M, 0:N"] : !sdfg.array<f64 ["M", "N"]>) : !sdfg.array<f64 ["M", "N"]>
  }
}

// -----

// Reduce over axis 0 with an identity: the kept axis runs in parallel, the
// output is initialised, then each input element is combined into it.
// CHECK-LABEL: func.func @reduce_columns
// CHECK: scf.parallel
// CHECK: %[[ID:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: memref.store %[[ID]]
// CHECK: scf.for
// CHECK: arith.maximumf
sdfg.sdfg @reduce_columns(%A: !sdfg.array<f64 ["M", "N"]> as "A", %r: !sdfg.array<f64 ["N"]> as "r") symbols {M = i64, N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["M", "N"]>
    %red = sdfg.library "Reduce" "dace.libraries.standard.nodes.reduce.Reduce"
        ins("" = %a["0:M, 0:N"] : !sdfg.array<f64 ["M", "N"]>)
        outs("" : !sdfg.array<f64 ["N"]>)
        properties {axes = "[0]", identity = "\220\22", wcr = "\22(lambda a, b: max(a, b))\22"}
    %ra = sdfg.access %r writes(%red["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// Transpose swaps the indices of the store.
// CHECK-LABEL: func.func @transpose
// CHECK: scf.parallel (%[[I:.*]], %[[J:.*]]) =
// CHECK: %[[RI:.*]] = arith.muli %{{.*}}, %[[I]] : index
// CHECK: %[[SI:.*]] = arith.addi %[[RI]], %[[J]] : index
// CHECK: %[[V:.*]] = memref.load %{{.*}}[%[[SI]]]
// CHECK: %[[RJ:.*]] = arith.muli %{{.*}}, %[[J]] : index
// CHECK: %[[SJ:.*]] = arith.addi %[[RJ]], %[[I]] : index
// CHECK: memref.store %[[V]], %{{.*}}[%[[SJ]]]
sdfg.sdfg @transpose(%A: !sdfg.array<f32 ["M", "N"]> as "A", %B: !sdfg.array<f32 ["N", "M"]> as "B") symbols {M = i64, N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f32 ["M", "N"]>
    %t = sdfg.library "transpose" "dace.libraries.standard.nodes.transpose.Transpose"
        ins("_inp" = %a["0:M, 0:N"] : !sdfg.array<f32 ["M", "N"]>)
        outs("_out" : !sdfg.array<f32 ["N", "M"]>) properties {}
    %b = sdfg.access %B writes(%t["0:N, 0:M"] : !sdfg.array<f32 ["N", "M"]>) : !sdfg.array<f32 ["N", "M"]>
  }
}
