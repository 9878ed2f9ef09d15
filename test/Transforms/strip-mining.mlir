// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-strip-mining{tile-size=4})' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-strip-mining{dim=i tile-size=4 strided=true prefix=part label=scale})' | FileCheck %s --check-prefix=STRIDED
// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-strip-mining{dim=k tile-size=4 label=scale})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOPARAM
// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-strip-mining{dim=2 tile-size=4 label=scale})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: sdfg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(sdfg-strip-mining{dim=0 tile-size=64 label=small})' -o /dev/null
// RUN: not sdfg-opt %s --pass-pipeline='builtin.module(sdfg-strip-mining{tile-size=0})' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: rm -rf %t && mkdir -p %t
// RUN: sdfg-run %s --function strip_a_2d_map --set N=10 --set M=7 --seed 3 --out %t/before > /dev/null
// RUN: sdfg-run %s --function strip_a_2d_map --set N=10 --set M=7 --seed 3 --out %t/after --pass-pipeline='builtin.module(sdfg-strip-mining{tile-size=4})' > /dev/null
// RUN: sdfg-run %s --function strip_a_2d_map --set N=10 --set M=7 --seed 3 --out %t/strided --pass-pipeline='builtin.module(sdfg-strip-mining{dim=i tile-size=4 strided=true})' > /dev/null
// RUN: cmp %t/before/B.npy %t/after/B.npy
// RUN: cmp %t/before/B.npy %t/strided/B.npy
// RUN: sdfg-run %s --function strip_a_reduction --set N=11 --seed 3 --out %t/rbefore > /dev/null
// RUN: sdfg-run %s --function strip_a_reduction --set N=11 --seed 3 --out %t/rafter --pass-pipeline='builtin.module(sdfg-strip-mining{dim=0 tile-size=4})' > /dev/null
// RUN: sdfg-run %s --function strip_a_reduction --set N=11 --seed 3 --out %t/rstrided --pass-pipeline='builtin.module(sdfg-strip-mining{dim=0 tile-size=4 strided=true})' > /dev/null
// RUN: cmp %t/rbefore/S.npy %t/rafter/S.npy
// RUN: cmp %t/rbefore/S.npy %t/rstrided/S.npy

// The last dimension (by default) of an N x M map in tiles of 4: the new
// map runs over the tiles of `j` with the original schedule, the map over
// all of `i` and one tile of `j` (the last partial), sequentially. With
// `dim=i strided=true` the tiles of `i` are its first four iterations and
// each runs every fourth `i` from there. The outputs are the same, bit for
// bit (the cmp lines above).
// CHECK-LABEL: sdfg.sdfg @strip_a_2d_map
// CHECK: sdfg.map "scale" ["tile_j" = "0:M:4"] schedule CPU_Multicore ins("x" = %{{.*}}["0:N, 0:M"]
// CHECK-NEXT: ^bb0(%[[X:.*]]: !sdfg.array<f64 ["N", "M"]>):
// CHECK-NEXT: sdfg.map "scale" ["i" = "0:N", "j" = "tile_j:Min(tile_j + 4, M)"] schedule Sequential ins("x" = %[[X]]["0:N, tile_j:Min(tile_j + 4, M)"]
// CHECK: sdfg.exit("y" = %{{.*}}["0:N, tile_j:Min(tile_j + 4, M)"]
// CHECK: sdfg.access %B writes(%{{.*}}["0:N, 0:M"]
// STRIDED-LABEL: sdfg.sdfg @strip_a_2d_map
// STRIDED: sdfg.map "scale" ["part_i" = "0:4"] schedule CPU_Multicore
// STRIDED: sdfg.map "scale" ["i" = "part_i:N:4", "j" = "0:M"] schedule Sequential ins("x" = %{{.*}}["part_i:{{.*}}:4, 0:M"]
// A dimension the map does not have is a warning on the map, with the
// reason, and the map stays as it was.
// NOPARAM: warning: 'sdfg.map' op sdfg-strip-mining does not apply: the map has no parameter `k`
// RANGE: warning: 'sdfg.map' op sdfg-strip-mining does not apply: dimension 2 is out of range (the map has 2 parameters)
sdfg.sdfg @strip_a_2d_map(%A: !sdfg.array<f64 ["N", "M"]> as "A", %B: !sdfg.array<f64 ["N", "M"]> as "B") symbols {N = i64, M = i64} {
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

// A sum over `i` (a write-conflict resolution) cut into tiles of `i`: the
// tiles still add into S, contiguous or strided.
// CHECK-LABEL: sdfg.sdfg @strip_a_reduction
// CHECK: sdfg.map "sum" ["tile_i" = "0:N:4"]
// CHECK: sdfg.map "sum" ["i" = "tile_i:Min(tile_i + 4, N)"] schedule Sequential
// CHECK: sdfg.access %S writes(%{{.*}}["0", wcr sum]
sdfg.sdfg @strip_a_reduction(%A: !sdfg.array<f64 ["N"]> as "A", %S: !sdfg.array<f64 ["1"]> as "S") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %r = sdfg.map "sum" ["i" = "0:N"] ins("x" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("y" : !sdfg.array<f64 ["1"]>) {
    ^bb0(%xin: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "s" ins("v" = %xin["i"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        sdfg.yield %v : f64
      }
      sdfg.exit("y" = %t["0", wcr sum] : f64)
    }
    %s = sdfg.access %S writes(%r["0", wcr sum] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
  }
}

// -----

// 64 iterations in tiles of 4: every tile is whole, so the inner range
// has no minimum. A map of at most one tile is left alone, with the reason
// where it was named.
// CHECK-LABEL: sdfg.sdfg @strip_evenly
// CHECK: sdfg.map "even" ["tile_i" = "0:64:4"]
// CHECK: sdfg.map "even" ["i" = "tile_i:tile_i + 4"]
// CHECK: sdfg.map "small" ["i" = "0:3"]
sdfg.sdfg @strip_evenly(%A: !sdfg.array<f64 ["64"]> as "A", %B: !sdfg.array<f64 ["3"]> as "B") {
  sdfg.state @s {
    %r = sdfg.map "even" ["i" = "0:64"] outs("y" : !sdfg.array<f64 ["64"]>) {
      %t = sdfg.tasklet "s" outs("o" : f64) {
        %c = sdfg.sym "i" : f64
        sdfg.yield %c : f64
      }
      sdfg.exit("y" = %t["i"] : f64)
    }
    %a = sdfg.access %A writes(%r["0:64"] : !sdfg.array<f64 ["64"]>) : !sdfg.array<f64 ["64"]>
    // expected-warning @+1 {{sdfg-strip-mining does not apply: `i` runs at most 64 times, one tile}}
    %q = sdfg.map "small" ["i" = "0:3"] outs("y" : !sdfg.array<f64 ["3"]>) {
      %t = sdfg.tasklet "s" outs("o" : f64) {
        %c = sdfg.sym "i" : f64
        sdfg.yield %c : f64
      }
      sdfg.exit("y" = %t["i"] : f64)
    }
    %b = sdfg.access %B writes(%q["0:3"] : !sdfg.array<f64 ["3"]>) : !sdfg.array<f64 ["3"]>
  }
}

// BAD: sdfg-strip-mining: tile-size `0` is not a positive integer
