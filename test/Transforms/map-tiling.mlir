// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-map-tiling{tile-sizes=4,3})' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-map-tiling{tile-sizes=4 label=rows level=outermost})' | FileCheck %s --check-prefix=TARGET
// RUN: sdfg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(sdfg-map-tiling{tile-sizes=8 label=small})' -o /dev/null
// RUN: not sdfg-opt %s --pass-pipeline='builtin.module(sdfg-map-tiling{tile-sizes=0})' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: rm -rf %t && mkdir -p %t
// RUN: sdfg-run %s --function tile_a_2d_map --set N=10 --set M=7 --seed 3 --out %t/before > /dev/null
// RUN: sdfg-run %s --function tile_a_2d_map --set N=10 --set M=7 --seed 3 --out %t/after --pass-pipeline='builtin.module(sdfg-map-tiling{tile-sizes=4,3})' > /dev/null
// RUN: cmp %t/before/B.npy %t/after/B.npy
// RUN: sdfg-run %s --function tile_a_reduction --set N=10 --seed 3 --out %t/rbefore > /dev/null
// RUN: sdfg-run %s --function tile_a_reduction --set N=10 --seed 3 --out %t/rafter --pass-pipeline='builtin.module(sdfg-map-tiling{tile-sizes=4,3})' > /dev/null
// RUN: cmp %t/rbefore/S.npy %t/rafter/S.npy
// RUN: sdfg-run %s --function tile_evenly --seed 3 --out %t/ebefore > /dev/null
// RUN: sdfg-run %s --function tile_evenly --seed 3 --out %t/eafter --pass-pipeline='builtin.module(sdfg-map-tiling{tile-sizes=4,3})' > /dev/null
// RUN: cmp %t/ebefore/B.npy %t/eafter/B.npy

// A 2-D map over N x M in tiles of 4 x 3: the outer map runs over the
// tiles with the original schedule, the inner one over a tile (the last
// tiles partial), sequentially. The outer memlets stay those of the whole
// map; the ones between the maps are one tile. The outputs are the same,
// bit for bit (the cmp above).
// CHECK-LABEL: sdfg.sdfg @tile_a_2d_map
// CHECK: sdfg.map "scale" ["tile_i" = "0:N:4", "tile_j" = "0:M:3"] schedule CPU_Multicore ins("x" = %{{.*}}["0:N, 0:M"]
// CHECK-NEXT: ^bb0(%[[X:.*]]: !sdfg.array<f64 ["N", "M"]>):
// CHECK-NEXT: sdfg.map "scale" ["i" = "tile_i:Min(tile_i + 4, N)", "j" = "tile_j:Min(tile_j + 3, M)"] schedule Sequential ins("x" = %[[X]]["tile_i:Min(tile_i + 4, N), tile_j:Min(tile_j + 3, M)"]
// CHECK: sdfg.exit("y" = %{{.*}}["tile_i:Min(tile_i + 4, N), tile_j:Min(tile_j + 3, M)"]
// CHECK: sdfg.access %B writes(%{{.*}}["0:N, 0:M"]
// TARGET-LABEL: sdfg.sdfg @tile_a_2d_map
// TARGET-NOT: tile_
sdfg.sdfg @tile_a_2d_map(%A: !sdfg.array<f64 ["N", "M"]> as "A", %B: !sdfg.array<f64 ["N", "M"]> as "B") symbols {N = i64, M = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "M"]>
    %r = sdfg.map "scale" ["i" = "0:N", "j" = "0:M"] schedule CPU_Multicore ins("x" = %a["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) outs("y" : !sdfg.array<f64 ["N", "M"]>) {
    ^bb0(%xin: !sdfg.array<f64 ["N", "M"]>):
      %t = sdfg.tasklet "s" ins("v" = %xin["i, j"] : !sdfg.array<f64 ["N", "M"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        %c = sdfg.sym "i * 1000 + j" : f64
        %w = arith.addf %v, %c : f64
        sdfg.yield %w : f64
      }
      sdfg.exit("y" = %t["i, j"] : f64)
    }
    %b = sdfg.access %B writes(%r["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) : !sdfg.array<f64 ["N", "M"]>
  }
}

// -----

// A reduction into one element (a write-conflict resolution) and a
// nested pair of maps: with label=rows and level=outermost only the outer
// map "rows" is tiled (one tile size for its one parameter), the inner
// "cols" is not; without targeting both are. The sum is the same.
// CHECK-LABEL: sdfg.sdfg @tile_a_reduction
// CHECK: sdfg.map "rows" ["tile_i" = "0:N:4"]
// CHECK: sdfg.map "rows" ["i" = "tile_i:Min(tile_i + 4, N)"] schedule Sequential
// CHECK: sdfg.map "cols" ["tile_j" = "0:N:4"]
// CHECK: sdfg.exit("s" = %{{.*}}["0", wcr sum] : !sdfg.scalar<f64>)
// TARGET-LABEL: sdfg.sdfg @tile_a_reduction
// TARGET: sdfg.map "rows" ["tile_i" = "0:N:4"]
// TARGET: sdfg.map "rows" ["i" = "tile_i:Min(tile_i + 4, N)"]
// TARGET: sdfg.map "cols" ["j" = "0:N"]
sdfg.sdfg @tile_a_reduction(%A: !sdfg.array<f64 ["N", "N"]> as "A", %S: !sdfg.scalar<f64> as "S") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "N"]>
    %r = sdfg.map "rows" ["i" = "0:N"] ins("x" = %a["0:N, 0:N"] : !sdfg.array<f64 ["N", "N"]>) outs("s" : !sdfg.scalar<f64>) {
    ^bb0(%xin: !sdfg.array<f64 ["N", "N"]>):
      %c = sdfg.map "cols" ["j" = "0:N"] ins("x" = %xin["i, 0:N"] : !sdfg.array<f64 ["N", "N"]>) outs("s" : !sdfg.scalar<f64>) {
      ^bb0(%row: !sdfg.array<f64 ["N", "N"]>):
        %t = sdfg.tasklet "add" ins("v" = %row["i, j"] : !sdfg.array<f64 ["N", "N"]>) outs("o" : f64) {
        ^bb0(%v: f64):
          sdfg.yield %v : f64
        }
        sdfg.exit("s" = %t["0", wcr sum] : f64)
      }
      sdfg.exit("s" = %c["0", wcr sum] : !sdfg.scalar<f64>)
    }
    %s = sdfg.access %S writes(%r["0", wcr sum] : !sdfg.scalar<f64>) : !sdfg.scalar<f64>
  }
}

// -----

// Tiles that divide the extents evenly (12 by 4, 9 by 3) are all whole:
// the inner ranges have no minimum. The outputs are the same (the
// EVEN runs).
// CHECK-LABEL: sdfg.sdfg @tile_evenly
// CHECK: sdfg.map "even" ["tile_i" = "0:12:4", "tile_j" = "0:9:3"]
// CHECK: sdfg.map "even" ["i" = "tile_i:tile_i + 4", "j" = "tile_j:tile_j + 3"] schedule Sequential
// CHECK: sdfg.exit("y" = %{{.*}}["tile_i:tile_i + 4, tile_j:tile_j + 3"]
sdfg.sdfg @tile_evenly(%A: !sdfg.array<f64 ["12", "9"]> as "A", %B: !sdfg.array<f64 ["12", "9"]> as "B") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["12", "9"]>
    %r = sdfg.map "even" ["i" = "0:12", "j" = "0:9"] ins("x" = %a["0:12, 0:9"] : !sdfg.array<f64 ["12", "9"]>) outs("y" : !sdfg.array<f64 ["12", "9"]>) {
    ^bb0(%xin: !sdfg.array<f64 ["12", "9"]>):
      %t = sdfg.tasklet "s" ins("v" = %xin["i, j"] : !sdfg.array<f64 ["12", "9"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        %c = sdfg.sym "i * 100 + j" : f64
        %w = arith.addf %v, %c : f64
        sdfg.yield %w : f64
      }
      sdfg.exit("y" = %t["i, j"] : f64)
    }
    %b = sdfg.access %B writes(%r["0:12, 0:9"] : !sdfg.array<f64 ["12", "9"]>) : !sdfg.array<f64 ["12", "9"]>
  }
}

// -----

// A map no longer than one tile is left alone; named by label, it says so.
// BAD: tile-sizes `0` are not positive integers
sdfg.sdfg @do_not_tile_a_small_map(%B: !sdfg.array<f64 ["8"]> as "B") {
  sdfg.state @s {
    // expected-warning @+1 {{sdfg-map-tiling does not apply: no dimension is longer than its tile}}
    %r = sdfg.map "small" ["i" = "0:8"] outs("y" : !sdfg.array<f64 ["8"]>) {
      %t = sdfg.tasklet "one" outs("o" : f64) {
        %c = arith.constant 1.0 : f64
        sdfg.yield %c : f64
      }
      sdfg.exit("y" = %t["i"] : f64)
    }
    %b = sdfg.access %B writes(%r["0:8"] : !sdfg.array<f64 ["8"]>) : !sdfg.array<f64 ["8"]>
  }
}
