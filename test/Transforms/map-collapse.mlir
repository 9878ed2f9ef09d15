// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-map-collapse)' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(sdfg-map-collapse{label=tri})' -o /dev/null
// RUN: rm -rf %t && mkdir -p %t
// RUN: sdfg-run %s --function collapse_three_nested_maps --set N=6 --seed 3 --out %t/before > /dev/null
// RUN: sdfg-run %s --function collapse_three_nested_maps --set N=6 --seed 3 --out %t/after --pass-pipeline='builtin.module(sdfg-map-collapse)' > /dev/null
// RUN: cmp %t/before/B.npy %t/after/B.npy
// RUN: sdfg-run %s --function collapse_three_nested_maps --set N=6 --seed 3 --out %t/round --pass-pipeline='builtin.module(sdfg-map-expansion,sdfg-map-collapse)' > /dev/null
// RUN: cmp %t/before/B.npy %t/round/B.npy

// Three directly nested maps become one over (i, j, k), with the outer
// map's label, schedule and memlets; the tasklet moves with it.
// CHECK-LABEL: sdfg.sdfg @collapse_three_nested_maps
// CHECK: sdfg.map "outer" ["i" = "0:N", "j" = "0:N", "k" = "0:N"] schedule CPU_Multicore ins("x" = %{{.*}}["0:N, 0:N, 0:N"]
// CHECK-NEXT: ^bb0(%[[X:.*]]: !sdfg.array
// CHECK-NEXT: sdfg.tasklet "s" ins("v" = %[[X]]["k, j, i"]
// CHECK-NOT: sdfg.map
// CHECK: sdfg.access %B writes(%{{.*}}["0:N, 0:N, 0:N"]
sdfg.sdfg @collapse_three_nested_maps(%A: !sdfg.array<f64 ["N", "N", "N"]> as "A", %B: !sdfg.array<f64 ["N", "N", "N"]> as "B") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "N", "N"]>
    %r = sdfg.map "outer" ["i" = "0:N"] schedule CPU_Multicore ins("x" = %a["0:N, 0:N, 0:N"] : !sdfg.array<f64 ["N", "N", "N"]>) outs("y" : !sdfg.array<f64 ["N", "N", "N"]>) {
    ^bb0(%x1: !sdfg.array<f64 ["N", "N", "N"]>):
      %m = sdfg.map "middle" ["j" = "0:N"] ins("x" = %x1["0:N, 0:N, i"] : !sdfg.array<f64 ["N", "N", "N"]>) outs("y" : !sdfg.array<f64 ["N", "N", "N"]>) {
      ^bb0(%x2: !sdfg.array<f64 ["N", "N", "N"]>):
        %n = sdfg.map "inner" ["k" = "0:N"] ins("x" = %x2["0:N, j, i"] : !sdfg.array<f64 ["N", "N", "N"]>) outs("y" : !sdfg.array<f64 ["N", "N", "N"]>) {
        ^bb0(%x3: !sdfg.array<f64 ["N", "N", "N"]>):
          %t = sdfg.tasklet "s" ins("v" = %x3["k, j, i"] : !sdfg.array<f64 ["N", "N", "N"]>) outs("o" : f64) {
          ^bb0(%v: f64):
            %c = sdfg.sym "i * 100 + j * 10 + k" : f64
            %w = arith.addf %v, %c : f64
            sdfg.yield %w : f64
          }
          sdfg.exit("y" = %t["i, j, k"] : f64)
        }
        sdfg.exit("y" = %n["i, j, 0:N"] : !sdfg.array<f64 ["N", "N", "N"]>)
      }
      sdfg.exit("y" = %m["i, 0:N, 0:N"] : !sdfg.array<f64 ["N", "N", "N"]>)
    }
    %b = sdfg.access %B writes(%r["0:N, 0:N, 0:N"] : !sdfg.array<f64 ["N", "N", "N"]>) : !sdfg.array<f64 ["N", "N", "N"]>
  }
}

// -----

// A triangular nest (the inner range reads the outer parameter) is not a
// rectangular map: it stays.
// CHECK-LABEL: sdfg.sdfg @do_not_collapse_a_triangular_nest
// CHECK: sdfg.map "tri" ["i" = "0:N"]
// CHECK: sdfg.map "cols" ["j" = "0:i + 1"]
sdfg.sdfg @do_not_collapse_a_triangular_nest(%B: !sdfg.array<f64 ["N", "N"]> as "B") symbols {N = i64} {
  sdfg.state @s {
    // expected-warning @+1 {{sdfg-map-collapse does not apply: the inner range `0:i + 1` depends on an outer parameter}}
    %r = sdfg.map "tri" ["i" = "0:N"] outs("y" : !sdfg.array<f64 ["N", "N"]>) {
      %m = sdfg.map "cols" ["j" = "0:i + 1"] outs("y" : !sdfg.array<f64 ["N", "N"]>) {
        %t = sdfg.tasklet "one" outs("o" : f64) {
          %c = arith.constant 1.0 : f64
          sdfg.yield %c : f64
        }
        sdfg.exit("y" = %t["i, j"] : f64)
      }
      sdfg.exit("y" = %m["i, 0:i + 1"] : !sdfg.array<f64 ["N", "N"]>)
    }
    %b = sdfg.access %B writes(%r["0:N, 0:N"] : !sdfg.array<f64 ["N", "N"]>) : !sdfg.array<f64 ["N", "N"]>
  }
}
