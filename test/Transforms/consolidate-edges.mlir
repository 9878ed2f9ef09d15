// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-consolidate-edges)' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-consolidate-edges,sdfg-validate)' -o /dev/null
// RUN: sdfg-run %s --set N=9 --seed 2 | FileCheck %s --check-prefix=SAME
// RUN: sdfg-run %s --set N=9 --seed 2 --pass-pipeline='builtin.module(sdfg-consolidate-edges)' | FileCheck %s --check-prefix=SAME

// `B[0:N-1] = A[0:N-1] + A[1:N]`: the map's two inputs from the same
// access node of A become one, whose memlet covers both boxes and moves
// the sum of their volumes.
// SAME: B: <f8[9] checksum 1.1722527036e1
// CHECK-LABEL: sdfg.sdfg @join_inputs_from_the_same_node
// CHECK: sdfg.map "add" ["i" = "0:N - 1"] ins("a0" = %{{.*}}["0:N", volume "2*N - 2"] : !sdfg.array<f64 ["N"]>)
// CHECK: ^bb0(%[[IN:.*]]: !sdfg.array<f64 ["N"]>):
// CHECK: sdfg.tasklet "add" ins("x" = %[[IN]]["i"] : !sdfg.array<f64 ["N"]>, "y" = %[[IN]]["i + 1"] : !sdfg.array<f64 ["N"]>)
sdfg.sdfg @join_inputs_from_the_same_node(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %m = sdfg.map "add" ["i" = "0:N - 1"] ins("a0" = %a["0:N - 1"] : !sdfg.array<f64 ["N"]>, "a1" = %a["1:N"] : !sdfg.array<f64 ["N"]>) outs("B" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%a0: !sdfg.array<f64 ["N"]>, %a1: !sdfg.array<f64 ["N"]>):
      %o = sdfg.tasklet "add" ins("x" = %a0["i"] : !sdfg.array<f64 ["N"]>, "y" = %a1["i + 1"] : !sdfg.array<f64 ["N"]>) outs("z" : f64) {
      ^bb0(%x: f64, %y: f64):
        %r = arith.addf %x, %y : f64
        sdfg.yield %r : f64
      }
      sdfg.exit("B" = %o["i"] : f64)
    }
    %b = sdfg.access %B writes(%m["0:N - 1"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// Inputs from two different access nodes of A stay apart.
// CHECK-LABEL: sdfg.sdfg @keep_inputs_from_different_nodes
// CHECK: ins("a0" = %{{.*}}["0:N - 1"] : !sdfg.array<f64 ["N"]>, "a1" = %{{.*}}["1:N"] : !sdfg.array<f64 ["N"]>)
sdfg.sdfg @keep_inputs_from_different_nodes(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %a2 = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %m = sdfg.map "add" ["i" = "0:N - 1"] ins("a0" = %a["0:N - 1"] : !sdfg.array<f64 ["N"]>, "a1" = %a2["1:N"] : !sdfg.array<f64 ["N"]>) outs("B" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%a0: !sdfg.array<f64 ["N"]>, %a1: !sdfg.array<f64 ["N"]>):
      %o = sdfg.tasklet "add" ins("x" = %a0["i"] : !sdfg.array<f64 ["N"]>, "y" = %a1["i + 1"] : !sdfg.array<f64 ["N"]>) outs("z" : f64) {
      ^bb0(%x: f64, %y: f64):
        %r = arith.addf %x, %y : f64
        sdfg.yield %r : f64
      }
      sdfg.exit("B" = %o["i"] : f64)
    }
    %b = sdfg.access %B writes(%m["0:N - 1"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}
