// RUN: sdfg-opt %s --pass-pipeline='builtin.module(sdfg-simplify,sdfg-map-tiling{tile-sizes=4},sdfg-validate)' | FileCheck %s
// RUN: sdfg-opt %s --pass-pipeline='builtin.module(sdfg-simplify,sdfg-map-tiling{tile-sizes=4})' | sdfg-opt --pass-pipeline='builtin.module(sdfg-map-collapse)' > %t.stepwise
// RUN: sdfg-opt %t.stepwise --pass-pipeline='builtin.module(sdfg-print-transformations)' -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHAIN
// RUN: sdfg-opt %s --pass-pipeline='builtin.module(sdfg-simplify,sdfg-map-tiling{tile-sizes=4},sdfg-map-collapse)' > %t.replayed
// RUN: diff %t.stepwise %t.replayed
// RUN: sdfg-opt %s --pass-pipeline='builtin.module(sdfg-print-transformations)' -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONE

// Each transformation records itself with its options; printing and
// validation do not. The chain printed after three steps in two sdfg-opt
// runs, replayed as one pipeline on the original, gives the same module.
// CHECK: module attributes {sdfg.transformations = ["sdfg-simplify", "sdfg-map-tiling{tile-sizes=4}"]}
// CHAIN: builtin.module(sdfg-simplify,sdfg-map-tiling{tile-sizes=4},sdfg-map-collapse)
// NONE: builtin.module()
sdfg.sdfg @scale(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %r = sdfg.map "scale" ["i" = "0:N"] ins("x" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("y" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%x: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "twice" ins("v" = %x["i"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        %w = arith.addf %v, %v : f64
        sdfg.yield %w : f64
      }
      sdfg.exit("y" = %t["i"] : f64)
    }
    %b = sdfg.access %B writes(%r["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}
