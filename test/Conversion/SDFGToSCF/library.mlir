// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(convert-sdfg-to-scf)' | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as n; n.save('%t/a.npy', n.arange(37 * 301.0).reshape(37, 301) %% 11); n.save('%t/v.npy', n.arange(9000.0) %% 11 - 0.5 * (n.arange(9000) == 5000))"
// RUN: sdfg-run %s --function reduce_all --set M=37 --set N=301 --input A=%t/a.npy | FileCheck %s --check-prefix=SUM
// RUN: sdfg-run %s --function reduce_max_of_a_vector --set N=9000 --input v=%t/v.npy | FileCheck %s --check-prefix=MAX
// RUN: %python -c "import numpy as n; n.save('%t/c.npy', n.random.default_rng(1).standard_normal((37, 1100)) - 2.5)"
// RUN: sdfg-run %s --function reduce_columns --set M=37 --set N=1100 --input A=%t/c.npy --out %t/cols > /dev/null
// RUN: %python -c "import numpy as n; a = n.load('%t/c.npy'); r = n.load('%t/cols/r.npy'); assert (r == n.maximum(a.max(0), 0)).all() and (r > 0).any() and (r == 0).any(); print('columns', r.shape)" | FileCheck %s --check-prefix=COLS
// COLS: columns (1100,)

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
// CHECK: %[[P:.*]] = arith.mulf %[[A]], %[[B]] fastmath<reassoc,arcp,contract> : f64
// CHECK: %[[OLD:.*]] = memref.load %[[C]]
// CHECK: arith.addf %[[OLD]], %[[P]] fastmath<reassoc,arcp,contract> : f64
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

// Reduce over axis 0 with an identity (0: the maximum of a column and 0):
// the kept (last) axis is the contiguous one, so the output row is the
// accumulator. Blocks of 512 of it run in parallel, each set to the
// identity and then combined with one row of the input after another:
// the innermost loop runs along the rows (vectorisable), and each
// iteration owns its block (no atomics).
// CHECK-LABEL: func.func @reduce_columns
// CHECK: scf.parallel
// CHECK: scf.for
// CHECK: %[[ID:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: memref.store %[[ID]], %arg1
// CHECK: scf.for
// CHECK-NEXT: scf.for
// CHECK: memref.load %arg0
// CHECK: %[[M:.*]] = arith.maximumf %{{.*}}, %{{.*}} : f64
// CHECK-NEXT: memref.store %[[M]], %arg1
// CHECK-NOT: atomic_rmw
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

// -----

// A sum of a whole input outside any parallel loop: the rows are split
// over threads, each thread folds its rows from the identity in a register
// (whose additions may be reassociated, as DaCe's -ffast-math build does,
// so that they vectorize), and OpenMP combines the parts (scf.reduce).
// SUM: r: <f8[1] checksum 5.5670000000e4
// MAX: m: <f8[1] checksum 1.0000000000e1
// CHECK-LABEL: func.func @reduce_all
// CHECK: %[[ID:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: %[[R:.*]] = scf.parallel (%{{.*}}) = {{.*}} init (%[[ID]]) -> f64
// CHECK: scf.for {{.*}} iter_args(%[[A0:.*]] = %[[ID]]) -> (f64)
// CHECK: scf.for {{.*}} iter_args(%[[A1:.*]] = %[[A0]]) -> (f64)
// CHECK: arith.addf %[[A1]], %{{.*}} fastmath<reassoc,arcp,contract> : f64
// CHECK: scf.reduce(
// CHECK: arith.addf
// CHECK: scf.reduce.return
// CHECK: memref.store %[[R]]
sdfg.sdfg @reduce_all(%A: !sdfg.array<f64 ["M", "N"]> as "A", %r: !sdfg.array<f64 ["1"]> as "r") symbols {M = i64, N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["M", "N"]>
    %red = sdfg.library "Reduce" "dace.libraries.standard.nodes.reduce.Reduce"
        ins("" = %a["0:M, 0:N"] : !sdfg.array<f64 ["M", "N"]>)
        outs("" : !sdfg.array<f64 ["1"]>)
        properties {axes = "[0, 1]", identity = "0", wcr = "\22(lambda a, b: a + b)\22"}
    %ra = sdfg.access %r writes(%red["0"] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
  }
}

// -----

// A maximum of a vector: blocks of 4096 elements in parallel, combined as
// a compare and a select (the form OpenMP's reductions take).
// CHECK-LABEL: func.func @reduce_max_of_a_vector
// CHECK: scf.parallel
// CHECK: arith.maximumf
// CHECK: scf.reduce(
// CHECK: arith.cmpf ogt
// CHECK: arith.select
sdfg.sdfg @reduce_max_of_a_vector(%v: !sdfg.array<f64 ["N"]> as "v", %m: !sdfg.array<f64 ["1"]> as "m") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %v : !sdfg.array<f64 ["N"]>
    %red = sdfg.library "Reduce" "dace.libraries.standard.nodes.reduce.Reduce"
        ins("" = %a["0:N"] : !sdfg.array<f64 ["N"]>)
        outs("" : !sdfg.array<f64 ["1"]>)
        properties {axes = "[0]", identity = "-1.7976931348623157e+308", wcr = "\22(lambda a, b: max(a, b))\22"}
    %ma = sdfg.access %m writes(%red["0"] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
  }
}
