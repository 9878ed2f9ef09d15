// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-expand-library-nodes)' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-expand-library-nodes,sdfg-validate)' -o /dev/null

// A matrix product becomes a nested SDFG with the node's connectors as
// arguments (typed by the subsets, with the data's strides) and the
// symbols of their shapes mapped to themselves: a state that zeroes C,
// then rows in parallel, k and j sequential, adding A[i, k] * B[k, j]
// into C[i, j].
// CHECK-LABEL: sdfg.sdfg @matmul
// CHECK-NOT: sdfg.library
// CHECK: sdfg.nested "mm" ins("_a" = %{{.*}}["1:M, 0:K"] : !sdfg.array<f64 ["M", "K"]>, "_b" = %{{.*}}["0:K, 0:N"] : !sdfg.array<f64 ["K", "N"]>) outs("_c" : !sdfg.array<f64 ["M - 1", "N"]>) symbols("K" = "K", "M" = "M", "N" = "N")
// CHECK: sdfg.sdfg @mm_expansion_0(%_a: !sdfg.array<f64 ["M - 1", "K"] strides ["K", "1"]> as "_a", %_b: !sdfg.array<f64 ["K", "N"] strides ["N", "1"]> as "_b", %_c: !sdfg.array<f64 ["M - 1", "N"] strides ["N", "1"]> as "_c") symbols {K = i64, M = i64, N = i64}
// CHECK: sdfg.state @init
// CHECK: sdfg.map "expansion" ["__i" = "0:M - 1", "__j" = "0:N"]
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: sdfg.state @accumulate
// CHECK: sdfg.map "rows" ["__i" = "0:M - 1"]
// CHECK: sdfg.map "k" ["__k" = "0:K"] schedule Sequential
// CHECK: sdfg.map "j" ["__j" = "0:N"] schedule Sequential
// CHECK: sdfg.tasklet "multiply" ins("in0" = %{{.*}}["__i, __k"] : {{.*}}, "in1" = %{{.*}}["__k, __j"] : {{.*}})
// CHECK: arith.mulf
// CHECK: sdfg.exit("_c" = %{{.*}}["__i, __j", wcr sum] : f64)
// CHECK: sdfg.edge @init -> @accumulate
sdfg.sdfg @matmul(%A: !sdfg.array<f64 ["M", "K"]> as "A", %B: !sdfg.array<f64 ["K", "N"]> as "B", %C: !sdfg.array<f64 ["M - 1", "N"]> as "C") symbols {K = i64, M = i64, N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["M", "K"]>
    %b = sdfg.access %B : !sdfg.array<f64 ["K", "N"]>
    %m = sdfg.library "mm" "dace.libraries.blas.nodes.matmul.MatMul"
        ins("_a" = %a["1:M, 0:K"] : !sdfg.array<f64 ["M", "K"]>, "_b" = %b["0:K, 0:N"] : !sdfg.array<f64 ["K", "N"]>)
        outs("_c" : !sdfg.array<f64 ["M - 1", "N"]>) properties {}
    %c = sdfg.access %C writes(%m["0:M - 1, 0:N"] : !sdfg.array<f64 ["M - 1", "N"]>) : !sdfg.array<f64 ["M - 1", "N"]>
  }
}

// -----

// A reduction accumulates per kept element in a private scalar: set to the
// identity, combined with the node's wcr in a sequential map over the
// reduced axis, then stored. Unnamed connectors become _in and _out.
// CHECK-LABEL: sdfg.sdfg @reduce_rows
// CHECK: sdfg.nested "Reduce" ins("_in" = {{.*}}) outs("_out" : !sdfg.array<f64 ["N"]>)
// CHECK: %__acc = sdfg.alloc "__acc" : !sdfg.scalar<f64>
// CHECK: sdfg.map "expansion" ["__r1" = "0:N"]
// CHECK: sdfg.tasklet "init"
// CHECK: arith.constant -1.000000e+30 : f64
// CHECK: sdfg.map "reduce" ["__r0" = "0:M"] schedule Sequential
// CHECK: sdfg.exit("__acc" = %{{.*}}["0", wcr "lambda a, b: max(a, b)"] : f64)
// CHECK: sdfg.tasklet "finish"
// CHECK: sdfg.exit("_out" = %{{.*}}["__r1"] : f64)
sdfg.sdfg @reduce_rows(%A: !sdfg.array<f64 ["M", "N"]> as "A", %r: !sdfg.array<f64 ["N"]> as "r") symbols {M = i64, N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["M", "N"]>
    %red = sdfg.library "Reduce" "dace.libraries.standard.nodes.reduce.Reduce"
        ins("" = %a["0:M, 0:N"] : !sdfg.array<f64 ["M", "N"]>) outs("" : !sdfg.array<f64 ["N"]>)
        properties {axes = "[0]", wcr = "lambda a, b: max(a, b)", identity = "-1e30"}
    %c = sdfg.access %r writes(%red["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// A dot product has no outer map: the reduction map itself is sequential
// and the result is written from the final tasklet.
// CHECK-LABEL: sdfg.sdfg @dot
// CHECK: sdfg.map "reduce" ["__k" = "0:N"] schedule Sequential
// CHECK: sdfg.access %_result writes(%{{.*}}["0"] : f32)
sdfg.sdfg @dot(%x: !sdfg.array<f32 ["N"]> as "x", %y: !sdfg.array<f32 ["N"]> as "y", %r: !sdfg.array<f32 ["1"]> as "r") symbols {N = i64} {
  sdfg.state @s {
    %xa = sdfg.access %x : !sdfg.array<f32 ["N"]>
    %ya = sdfg.access %y : !sdfg.array<f32 ["N"]>
    %d = sdfg.library "dot" "dace.libraries.blas.nodes.dot.Dot"
        ins("_x" = %xa["0:N"] : !sdfg.array<f32 ["N"]>, "_y" = %ya["0:N"] : !sdfg.array<f32 ["N"]>)
        outs("_result" : !sdfg.array<f32 ["1"]>) properties {}
    %c = sdfg.access %r writes(%d["0"] : !sdfg.array<f32 ["1"]>) : !sdfg.array<f32 ["1"]>
  }
}
