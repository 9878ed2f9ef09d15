// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-map-interchange{label=rows})' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(sdfg-map-interchange{label=busy})' -o /dev/null
// RUN: rm -rf %t && mkdir -p %t
// RUN: sdfg-run %s --function interchange_two_maps --set N=6 --set M=4 --seed 3 --out %t/before > /dev/null
// RUN: sdfg-run %s --function interchange_two_maps --set N=6 --set M=4 --seed 3 --out %t/after --pass-pipeline='builtin.module(sdfg-map-interchange)' > /dev/null
// RUN: cmp %t/before/B.npy %t/after/B.npy

// The outer map "rows" (over i) and the inner "cols" (over j) swap their
// parameters: j is iterated outside. Each map keeps its label and
// schedule; the memlet between them is now a column.
// CHECK-LABEL: sdfg.sdfg @interchange_two_maps
// CHECK: sdfg.map "rows" ["j" = "0:M"] schedule CPU_Multicore ins("x" = %{{.*}}["0:N, 0:M"]
// CHECK: sdfg.map "cols" ["i" = "0:N"] ins("x" = %{{.*}}["0:N, j"]
// CHECK: sdfg.exit("y" = %{{.*}}["0:N, j"]
sdfg.sdfg @interchange_two_maps(%A: !sdfg.array<f64 ["N", "M"]> as "A", %B: !sdfg.array<f64 ["N", "M"]> as "B") symbols {N = i64, M = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "M"]>
    %r = sdfg.map "rows" ["i" = "0:N"] schedule CPU_Multicore ins("x" = %a["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) outs("y" : !sdfg.array<f64 ["N", "M"]>) {
    ^bb0(%x1: !sdfg.array<f64 ["N", "M"]>):
      %m = sdfg.map "cols" ["j" = "0:M"] ins("x" = %x1["i, 0:M"] : !sdfg.array<f64 ["N", "M"]>) outs("y" : !sdfg.array<f64 ["N", "M"]>) {
      ^bb0(%x2: !sdfg.array<f64 ["N", "M"]>):
        %t = sdfg.tasklet "s" ins("v" = %x2["i, j"] : !sdfg.array<f64 ["N", "M"]>) outs("o" : f64) {
        ^bb0(%v: f64):
          %c = sdfg.sym "i * 10 + j" : f64
          %w = arith.mulf %v, %c : f64
          sdfg.yield %w : f64
        }
        sdfg.exit("y" = %t["i, j"] : f64)
      }
      sdfg.exit("y" = %m["i, 0:M"] : !sdfg.array<f64 ["N", "M"]>)
    }
    %b = sdfg.access %B writes(%r["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) : !sdfg.array<f64 ["N", "M"]>
  }
}

// -----

// A map that holds more than the inner map (here a second tasklet) cannot
// swap with it: the tasklet runs once per outer iteration.
sdfg.sdfg @do_not_interchange_a_busy_map(%B: !sdfg.array<f64 ["N", "N"]> as "B", %C: !sdfg.array<f64 ["N"]> as "C") symbols {N = i64} {
  sdfg.state @s {
    // expected-warning @+1 {{sdfg-map-interchange does not apply: the map holds more than one map and its exit}}
    %r:2 = sdfg.map "busy" ["i" = "0:N"] outs("y" : !sdfg.array<f64 ["N", "N"]>, "z" : !sdfg.array<f64 ["N"]>) {
      %m = sdfg.map "cols" ["j" = "0:N"] outs("y" : !sdfg.array<f64 ["N", "N"]>) {
        %t = sdfg.tasklet "one" outs("o" : f64) {
          %c = arith.constant 1.0 : f64
          sdfg.yield %c : f64
        }
        sdfg.exit("y" = %t["i, j"] : f64)
      }
      %u = sdfg.tasklet "two" outs("o" : f64) {
        %c = arith.constant 2.0 : f64
        sdfg.yield %c : f64
      }
      sdfg.exit("y" = %m["i, 0:N"] : !sdfg.array<f64 ["N", "N"]>, "z" = %u["i"] : f64)
    }
    %b = sdfg.access %B writes(%r#0["0:N, 0:N"] : !sdfg.array<f64 ["N", "N"]>) : !sdfg.array<f64 ["N", "N"]>
    %c = sdfg.access %C writes(%r#1["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}
