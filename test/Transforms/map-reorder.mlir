// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-map-reorder{order=k,i,j})' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(sdfg-map-reorder{order=i,j label=box})' -o /dev/null
// RUN: not sdfg-opt %s --pass-pipeline='builtin.module(sdfg-map-reorder)' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: rm -rf %t && mkdir -p %t
// RUN: sdfg-run %s --function reorder_parameters --set N=5 --seed 3 --out %t/before > /dev/null
// RUN: sdfg-run %s --function reorder_parameters --set N=5 --seed 3 --out %t/after --pass-pipeline='builtin.module(sdfg-map-reorder{order=k,i,j})' > /dev/null
// RUN: cmp %t/before/B.npy %t/after/B.npy

// The parameters in the given order, each with its range; the memlets,
// which name parameters, not positions, stay.
// BAD: the option order=P1,P2,... is required
// CHECK-LABEL: sdfg.sdfg @reorder_parameters
// CHECK: sdfg.map "box" ["k" = "0:N", "i" = "0:N", "j" = "1:N"]
sdfg.sdfg @reorder_parameters(%A: !sdfg.array<f64 ["N", "N", "N"]> as "A", %B: !sdfg.array<f64 ["N", "N", "N"]> as "B") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "N", "N"]>
    // expected-warning @+1 {{sdfg-map-reorder does not apply: the order names 2 parameters, the map has 3}}
    %r = sdfg.map "box" ["i" = "0:N", "j" = "1:N", "k" = "0:N"] ins("x" = %a["0:N, 0:N, 0:N"] : !sdfg.array<f64 ["N", "N", "N"]>) outs("y" : !sdfg.array<f64 ["N", "N", "N"]>) {
    ^bb0(%xin: !sdfg.array<f64 ["N", "N", "N"]>):
      %t = sdfg.tasklet "s" ins("v" = %xin["k, j, i"] : !sdfg.array<f64 ["N", "N", "N"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        %c = sdfg.sym "i * 100 + j * 10 + k" : f64
        %w = arith.addf %v, %c : f64
        sdfg.yield %w : f64
      }
      sdfg.exit("y" = %t["i, j, k"] : f64)
    }
    %b = sdfg.access %B writes(%r["0:N, 1:N, 0:N"] : !sdfg.array<f64 ["N", "N", "N"]>) : !sdfg.array<f64 ["N", "N", "N"]>
  }
}
