// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-wcr-tiling{tile-size=4})' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(sdfg-wcr-tiling{label=leave})' -o /dev/null
// RUN: not sdfg-opt %s --pass-pipeline='builtin.module(sdfg-wcr-tiling{tile-size=0})' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: rm -rf %t && mkdir -p %t
// RUN: sdfg-run %s --function tile_shared_reductions --set N=1001 --seed 3 --out %t/before > /dev/null
// RUN: sdfg-run %s --function tile_shared_reductions --set N=1001 --seed 3 --out %t/after --pass-pipeline='builtin.module(sdfg-wcr-tiling{tile-size=4})' > /dev/null
// RUN: %python %S/../Target/HLS/Inputs/compare.py %t/before %t/after | FileCheck %s --check-prefix=SAME
// SAME: 2 outputs match

// DaCe's tile_wcrs: a parallel map whose resolved writes its iterations
// share (a sum and a product into S, a column maximum into R that every i
// shares) is tiled in the parameters that share, and the map over one
// tile resolves into accumulators that start at the identities (0, 1,
// -inf); each tile resolves its accumulator into the data once. The numbers are the same
// up to the order of the additions (the compare above).
// CHECK-LABEL: sdfg.sdfg @tile_shared_reductions
// CHECK: sdfg.map "total" ["tile_i" = "0:N:4"]
// CHECK: sdfg.map "init_S_acc" ["__acc0" = "0:1"] outs("S_acc" : !sdfg.array<f64 ["1"]>) {
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: %[[S0:.*]] = sdfg.access %S_acc writes(%{{.*}}["0"] : !sdfg.array<f64 ["1"]>)
// CHECK: arith.constant 1.000000e+00 : f64
// CHECK: %[[P0:.*]] = sdfg.access %S2_acc writes(
// CHECK: %[[T:.*]]:2 = sdfg.map "total" ["i" = "tile_i:Min(tile_i + 4, N)"] schedule Sequential {{.*}} after(%[[S0]], %[[P0]] :
// CHECK: sdfg.exit("S" = %{{.*}}["0", wcr sum] : f64, "S2" = %{{.*}}["0", wcr product] : f64)
// CHECK: %[[S1:.*]] = sdfg.access %S_acc writes(%[[T]]#0["0", wcr sum] : !sdfg.array<f64 ["1"]>)
// CHECK: %[[P1:.*]] = sdfg.access %S2_acc writes(%[[T]]#1["0", wcr product] : !sdfg.array<f64 ["1"]>)
// CHECK: sdfg.exit("S" = %[[S1]]["0" -> "0", wcr sum] : !sdfg.array<f64 ["1"]>, "S2" = %[[P1]]["0" -> "1", wcr product] : !sdfg.array<f64 ["1"]>)
// The column maximum: j gives each iteration an element of its own, so
// the outer map keeps j as it is and runs over tiles of i; each tile
// accumulates one element from -inf.
// CHECK: sdfg.map "cols" ["tile_i0" = "0:N:4", "j" = "0:4"]
// CHECK: sdfg.map "init_R_acc" ["__acc0" = "0:1"]
// CHECK: arith.constant 0xFFF0000000000000 : f64
// CHECK: sdfg.map "cols" ["i" = "tile_i0:Min(tile_i0 + 4, N)"] schedule Sequential
// CHECK: sdfg.exit("R" = %{{.*}}["0", wcr max] : f64)
// CHECK: sdfg.exit("R" = %{{.*}}["0" -> "j", wcr max] : !sdfg.array<f64 ["1"]>)
// BAD: tile-size `0` is not a positive integer
sdfg.sdfg @tile_shared_reductions(%A: !sdfg.array<f64 ["N"]> as "A", %S: !sdfg.array<f64 ["2"]> as "S", %M: !sdfg.array<f64 ["N", "4"]> as "M", %R: !sdfg.array<f64 ["4"]> as "R") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %m:2 = sdfg.map "total" ["i" = "0:N"] ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("S" : !sdfg.array<f64 ["2"]>, "S2" : !sdfg.array<f64 ["2"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N"]>):
      %t:2 = sdfg.tasklet "t" ins("x" = %ai["i"] : !sdfg.array<f64 ["N"]>) outs("y" : f64, "z" : f64) {
      ^bb0(%x: f64):
        %h = arith.constant 0.001 : f64
        %z = arith.mulf %x, %h : f64
        %one = arith.constant 1.0 : f64
        %p = arith.addf %z, %one : f64
        sdfg.yield %x, %p : f64, f64
      }
      sdfg.exit ("S" = %t#0["0", wcr sum] : f64, "S2" = %t#1["1", wcr product] : f64)
    }
    %s = sdfg.access %S writes(%m#0["0", wcr sum] : !sdfg.array<f64 ["2"]>, %m#1["1", wcr product] : !sdfg.array<f64 ["2"]>) : !sdfg.array<f64 ["2"]>
    %mm = sdfg.access %M : !sdfg.array<f64 ["N", "4"]>
    %c = sdfg.map "cols" ["i" = "0:N", "j" = "0:4"] ins("m" = %mm["0:N, 0:4"] : !sdfg.array<f64 ["N", "4"]>) outs("R" : !sdfg.array<f64 ["4"]>) {
    ^bb0(%mi: !sdfg.array<f64 ["N", "4"]>):
      %t = sdfg.tasklet "u" ins("x" = %mi["i, j"] : !sdfg.array<f64 ["N", "4"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit ("R" = %t["j", wcr max] : f64)
    }
    %r = sdfg.access %R writes(%c["0:4", wcr max] : !sdfg.array<f64 ["4"]>) : !sdfg.array<f64 ["4"]>
  }
}

// -----

// Writes that every iteration resolves into an element of its own need
// no accumulator: no two iterations share one. (The maps left alone are
// labelled `leave`, so that the pass says why.)
// CHECK-LABEL: sdfg.sdfg @do_not_tile_pinned_writes
// CHECK-NOT: _acc
sdfg.sdfg @do_not_tile_pinned_writes(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    // expected-warning @+1 {{sdfg-wcr-tiling does not apply: resolves no write into elements its iterations share}}
    %m = sdfg.map "leave" ["i" = "0:N"] ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("B" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "t" ins("x" = %ai["i"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit ("B" = %t["i", wcr sum] : f64)
    }
    %b = sdfg.access %B writes(%m["0:N", wcr sum] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// A sequential map updates its data one iteration after the other: no
// atomics to save.
// CHECK-LABEL: sdfg.sdfg @do_not_tile_a_sequential_map
// CHECK-NOT: _acc
sdfg.sdfg @do_not_tile_a_sequential_map(%A: !sdfg.array<f64 ["N"]> as "A", %S: !sdfg.array<f64 ["1"]> as "S") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    // expected-warning @+1 {{sdfg-wcr-tiling does not apply: runs sequentially: its resolutions are not atomic}}
    %m = sdfg.map "leave" ["i" = "0:N"] schedule Sequential ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("S" : !sdfg.array<f64 ["1"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "t" ins("x" = %ai["i"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit ("S" = %t["0", wcr sum] : f64)
    }
    %s = sdfg.access %S writes(%m["0", wcr sum] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
  }
}

// -----

// Iterations share the elements of S (i % 4), but which ones moves with
// i, the parameter tiling would split: a tile's accumulator would have
// no fixed size, so the map is not tiled at all.
// CHECK-LABEL: sdfg.sdfg @do_not_tile_elements_that_move_with_the_tile
// CHECK-NOT: tile_
sdfg.sdfg @do_not_tile_elements_that_move_with_the_tile(%A: !sdfg.array<f64 ["N"]> as "A", %S: !sdfg.array<f64 ["4"]> as "S") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    // expected-warning @+1 {{sdfg-wcr-tiling does not apply: resolves writes into elements that move with `i`, so a tile's accumulator would have no fixed size}}
    %m = sdfg.map "leave" ["i" = "0:N"] ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("S" : !sdfg.array<f64 ["4"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "t" ins("x" = %ai["i"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit ("S" = %t["i % 4", wcr sum] : f64)
    }
    %s = sdfg.access %S writes(%m["0:4", wcr sum] : !sdfg.array<f64 ["4"]>) : !sdfg.array<f64 ["4"]>
  }
}
