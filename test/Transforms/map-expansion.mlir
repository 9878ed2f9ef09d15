// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-map-expansion)' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-map-expansion{inner-schedule=CPU_Multicore label=box})' | FileCheck %s --check-prefix=OPTS
// RUN: sdfg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(sdfg-map-expansion{label=line})' -o /dev/null
// RUN: not sdfg-opt %s --pass-pipeline='builtin.module(sdfg-map-expansion{inner-schedule=Fast})' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: rm -rf %t && mkdir -p %t
// RUN: sdfg-run %s --function expand_a_3d_map --set N=5 --seed 3 --out %t/before > /dev/null
// RUN: sdfg-run %s --function expand_a_3d_map --set N=5 --seed 3 --out %t/after --pass-pipeline='builtin.module(sdfg-map-expansion)' > /dev/null
// RUN: cmp %t/before/B.npy %t/after/B.npy

// A map of three parameters becomes three nested maps, in parameter
// order: the outermost keeps the schedule, the inner ones run
// sequentially (or with inner-schedule); each boundary's memlet is what
// one iteration of the maps around it moves.
// BAD: `Fast` is not a schedule
// CHECK-LABEL: sdfg.sdfg @expand_a_3d_map
// CHECK: sdfg.map "box" ["i" = "0:N"] schedule CPU_Multicore ins("x" = %{{.*}}["0:N, 0:N, 0:N"]
// CHECK: sdfg.map "box" ["j" = "0:N"] schedule Sequential ins("x" = %{{.*}}["0:N, 0:N, i"]
// CHECK: sdfg.map "box" ["k" = "0:N"] schedule Sequential ins("x" = %{{.*}}["0:N, j, i"]
// CHECK: sdfg.exit("y" = %{{.*}}["i, j, 0:N"]
// CHECK: sdfg.exit("y" = %{{.*}}["i, 0:N, 0:N"]
// OPTS-LABEL: sdfg.sdfg @expand_a_3d_map
// OPTS: sdfg.map "box" ["j" = "0:N"] schedule CPU_Multicore
sdfg.sdfg @expand_a_3d_map(%A: !sdfg.array<f64 ["N", "N", "N"]> as "A", %B: !sdfg.array<f64 ["N", "N", "N"]> as "B") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "N", "N"]>
    %r = sdfg.map "box" ["i" = "0:N", "j" = "0:N", "k" = "0:N"] schedule CPU_Multicore ins("x" = %a["0:N, 0:N, 0:N"] : !sdfg.array<f64 ["N", "N", "N"]>) outs("y" : !sdfg.array<f64 ["N", "N", "N"]>) {
    ^bb0(%xin: !sdfg.array<f64 ["N", "N", "N"]>):
      %t = sdfg.tasklet "s" ins("v" = %xin["k, j, i"] : !sdfg.array<f64 ["N", "N", "N"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        %c = sdfg.sym "i * 100 + j * 10 + k" : f64
        %w = arith.addf %v, %c : f64
        sdfg.yield %w : f64
      }
      sdfg.exit("y" = %t["i, j, k"] : f64)
    }
    %b = sdfg.access %B writes(%r["0:N, 0:N, 0:N"] : !sdfg.array<f64 ["N", "N", "N"]>) : !sdfg.array<f64 ["N", "N", "N"]>
  }
}

// -----

// A map of one parameter has nothing to expand.
sdfg.sdfg @do_not_expand_a_1d_map(%B: !sdfg.array<f64 ["8"]> as "B") {
  sdfg.state @s {
    // expected-warning @+1 {{sdfg-map-expansion does not apply: the map has one parameter}}
    %r = sdfg.map "line" ["i" = "0:8"] outs("y" : !sdfg.array<f64 ["8"]>) {
      %t = sdfg.tasklet "one" outs("o" : f64) {
        %c = arith.constant 1.0 : f64
        sdfg.yield %c : f64
      }
      sdfg.exit("y" = %t["i"] : f64)
    }
    %b = sdfg.access %B writes(%r["0:8"] : !sdfg.array<f64 ["8"]>) : !sdfg.array<f64 ["8"]>
  }
}
