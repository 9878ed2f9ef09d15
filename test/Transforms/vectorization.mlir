// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-vectorization{vector-length=8})' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-vectorization{vector-length=4 label=scale})' | FileCheck %s --check-prefix=FOUR
// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-vectorization{vector-length=4 param=k})' | FileCheck %s --check-prefix=PARAM
// RUN: sdfg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(sdfg-vectorization{label=leave})' -o /dev/null
// RUN: rm -rf %t && mkdir -p %t
// RUN: for f in vectorize_scale vectorize_row_sums vectorize_into_shared_sums vectorize_with_a_remainder; do \
// RUN:   sdfg-run %s --function $f --seed 5 --set N=13 --out %t/$f.before > /dev/null && \
// RUN:   sdfg-run %s --function $f --seed 5 --set N=13 --out %t/$f.after --pass-pipeline='builtin.module(sdfg-vectorization{vector-length=8})' > /dev/null && \
// RUN:   %python %S/../Target/HLS/Inputs/compare.py %t/$f.before %t/$f.after; done | FileCheck %s --check-prefix=SAME
// SAME: 1 outputs match
// SAME: 1 outputs match
// SAME: 1 outputs match
// SAME: 2 outputs match

// B[i, j] = A[i, j] * S[i] + 2 * j + 1: the row of A moves as vectors,
// S[i] is broadcast, and the symbol's lanes are j + (0, 2, 4, ...).
// CHECK-LABEL: sdfg.sdfg @vectorize_scale
// CHECK: sdfg.map "scale" ["i" = "0:4", "j" = "0:16:8"]
// CHECK: sdfg.tasklet "s" ins("x" = %{{.*}}["i, j:j + 8"] : !sdfg.array<f64 ["4", "16"]>, "y" = %{{.*}}["i"] : !sdfg.array<f64 ["4"]>) outs("o" : vector<8xf64>)
// CHECK: ^bb0(%[[X:.*]]: vector<8xf64>, %[[Y:.*]]: f64):
// CHECK: %[[C:.*]] = sdfg.sym "2 * j + 1" : f64
// CHECK: %[[SPLAT:.*]] = vector.broadcast %[[C]] : f64 to vector<8xf64>
// CHECK: %[[STEPS:.*]] = arith.constant dense<[0.000000e+00, 2.000000e+00, 4.000000e+00, 6.000000e+00, 8.000000e+00, 1.000000e+01, 1.200000e+01, 1.400000e+01]> : vector<8xf64>
// CHECK: %[[LANES:.*]] = arith.addf %[[SPLAT]], %[[STEPS]] : vector<8xf64>
// CHECK: %[[YV:.*]] = vector.broadcast %[[Y]] : f64 to vector<8xf64>
// CHECK: %[[P:.*]] = arith.mulf %[[X]], %[[YV]] : vector<8xf64>
// CHECK: %[[W:.*]] = arith.addf %[[P]], %[[LANES]] : vector<8xf64>
// CHECK: sdfg.yield %[[W]] : vector<8xf64>
// CHECK: sdfg.exit("c" = %{{.*}}["i, j:j + 8"] : vector<8xf64>)
// FOUR-LABEL: sdfg.sdfg @vectorize_scale
// FOUR: ["i" = "0:4", "j" = "0:16:4"]
// FOUR: outs("o" : vector<4xf64>)
// FOUR-LABEL: sdfg.sdfg @vectorize_row_sums
// FOUR: ["i" = "0:4", "j" = "0:16"]
sdfg.sdfg @vectorize_scale(%A: !sdfg.array<f64 ["4", "16"]> as "A", %S: !sdfg.array<f64 ["4"]> as "S", %B: !sdfg.array<f64 ["4", "16"]> as "B") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4", "16"]>
    %s = sdfg.access %S : !sdfg.array<f64 ["4"]>
    %r = sdfg.map "scale" ["i" = "0:4", "j" = "0:16"] ins("a" = %a["0:4, 0:16"] : !sdfg.array<f64 ["4", "16"]>, "s" = %s["0:4"] : !sdfg.array<f64 ["4"]>) outs("c" : !sdfg.array<f64 ["4", "16"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["4", "16"]>, %si: !sdfg.array<f64 ["4"]>):
      %t = sdfg.tasklet "s" ins("x" = %ai["i, j"] : !sdfg.array<f64 ["4", "16"]>, "y" = %si["i"] : !sdfg.array<f64 ["4"]>) outs("o" : f64) {
      ^bb0(%x: f64, %y: f64):
        %c = sdfg.sym "2 * j + 1" : f64
        %p = arith.mulf %x, %y : f64
        %w = arith.addf %p, %c : f64
        sdfg.yield %w : f64
      }
      sdfg.exit("c" = %t["i, j"] : f64)
    }
    %b = sdfg.access %B writes(%r["0:4, 0:16"] : !sdfg.array<f64 ["4", "16"]>) : !sdfg.array<f64 ["4", "16"]>
  }
}

// -----

// R[i] += max(A[i, j], 0) over j: the eight lanes are summed by a
// vector.reduction before the resolution adds them into R[i].
// CHECK-LABEL: sdfg.sdfg @vectorize_row_sums
// CHECK: ["i" = "0:4", "j" = "0:16:8"]
// CHECK: ins("x" = %{{.*}}["i, j:j + 8"] : !sdfg.array<f64 ["4", "16"]>) outs("o" : f64)
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: %[[ZV:.*]] = vector.broadcast %[[Z]] : f64 to vector<8xf64>
// CHECK: %[[M:.*]] = arith.maximumf %{{.*}}, %[[ZV]] : vector<8xf64>
// CHECK: %[[S:.*]] = vector.reduction <add>, %[[M]] : vector<8xf64> into f64
// CHECK: sdfg.yield %[[S]] : f64
// CHECK: sdfg.exit("r" = %{{.*}}["i", wcr sum] : f64)
sdfg.sdfg @vectorize_row_sums(%A: !sdfg.array<f64 ["4", "16"]> as "A", %R: !sdfg.array<f64 ["4"]> as "R") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4", "16"]>
    %r = sdfg.map "sums" ["i" = "0:4", "j" = "0:16"] ins("a" = %a["0:4, 0:16"] : !sdfg.array<f64 ["4", "16"]>) outs("r" : !sdfg.array<f64 ["4"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["4", "16"]>):
      %t = sdfg.tasklet "relu" ins("x" = %ai["i, j"] : !sdfg.array<f64 ["4", "16"]>) outs("o" : f64) {
      ^bb0(%x: f64):
        %z = arith.constant 0.0 : f64
        %m = arith.maximumf %x, %z : f64
        sdfg.yield %m : f64
      }
      sdfg.exit("r" = %t["i", wcr sum] : f64)
    }
    %o = sdfg.access %R writes(%r["0:4", wcr sum] : !sdfg.array<f64 ["4"]>) : !sdfg.array<f64 ["4"]>
  }
}

// -----

// C[j] += A[k, j] with k outer and parallel: iterations of k share C's
// lanes, which are resolved one atomic update per lane; the constant
// output of `ones` is broadcast.
// CHECK-LABEL: sdfg.sdfg @vectorize_into_shared_sums
// CHECK: sdfg.map "ones" ["j" = "0:24:8"]
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK: %[[V:.*]] = vector.broadcast %[[ONE]] : f64 to vector<8xf64>
// CHECK: sdfg.yield %[[V]] : vector<8xf64>
// CHECK: sdfg.map "colsum" ["k" = "0:5", "j" = "0:24:8"]
// CHECK: sdfg.exit("c" = %{{.*}}["j:j + 8", wcr sum] : vector<8xf64>)
// Only the map with a parameter `k` (targeting by parameter):
// PARAM-LABEL: sdfg.sdfg @vectorize_into_shared_sums
// PARAM: sdfg.map "ones" ["j" = "0:24"]
// PARAM: sdfg.map "colsum" ["k" = "0:5", "j" = "0:24:4"]
sdfg.sdfg @vectorize_into_shared_sums(%A: !sdfg.array<f64 ["5", "24"]> as "A", %C: !sdfg.array<f64 ["24"]> as "C") {
  sdfg.state @s {
    %i = sdfg.map "ones" ["j" = "0:24"] outs("c" : !sdfg.array<f64 ["24"]>) {
      %t = sdfg.tasklet "one" outs("o" : f64) {
        %one = arith.constant 1.0 : f64
        sdfg.yield %one : f64
      }
      sdfg.exit("c" = %t["j"] : f64)
    }
    %c0 = sdfg.access %C writes(%i["0:24"] : !sdfg.array<f64 ["24"]>) : !sdfg.array<f64 ["24"]>
    %a = sdfg.access %A : !sdfg.array<f64 ["5", "24"]>
    %r = sdfg.map "colsum" ["k" = "0:5", "j" = "0:24"] schedule CPU_Multicore ins("a" = %a["0:5, 0:24"] : !sdfg.array<f64 ["5", "24"]>) outs("c" : !sdfg.array<f64 ["24"]>) after(%c0 : !sdfg.array<f64 ["24"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["5", "24"]>):
      %t = sdfg.tasklet "add" ins("x" = %ai["k, j"] : !sdfg.array<f64 ["5", "24"]>) outs("o" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit("c" = %t["j", wcr sum] : f64)
    }
    %o = sdfg.access %C writes(%r["0:24", wcr sum] : !sdfg.array<f64 ["24"]>) : !sdfg.array<f64 ["24"]>
  }
}

// -----

// A count that is not a multiple of the length (N = 13 in the run above):
// the vector map covers the first N - N % 8 columns, a copy of the map as
// it was the rest, and both write B (a store) and R (a sum) through the
// same access nodes.
// CHECK-LABEL: sdfg.sdfg @vectorize_with_a_remainder
// CHECK: %[[V:.*]]:2 = sdfg.map "scale2" ["i" = "0:3", "j" = "0:N - Mod(N, 8):8"]
// CHECK: outs("o" : vector<8xf64>, "s" : f64)
// CHECK: %[[REST:.*]]:2 = sdfg.map "scale2_remainder" ["i" = "0:3", "j" = "N - Mod(N, 8):N"] ins("a" = %{{.*}}["0:3, N - Mod(N, 8):N"]
// CHECK: outs("o" : f64, "s" : f64)
// CHECK: sdfg.access %B writes(%[[V]]#0["0:3, 0:{{.*}}"] : !sdfg.array<f64 ["3", "N"]>, %[[REST]]#0["0:3, N - Mod(N, 8):N"] : !sdfg.array<f64 ["3", "N"]>)
// CHECK: sdfg.access %R writes(%[[V]]#1["0:3", volume "{{.*}}", wcr sum] : !sdfg.array<f64 ["3"]>, %[[REST]]#1["0:3", volume "3*Mod(N, 8)", wcr sum] : !sdfg.array<f64 ["3"]>)
sdfg.sdfg @vectorize_with_a_remainder(%A: !sdfg.array<f64 ["3", "N"]> as "A", %B: !sdfg.array<f64 ["3", "N"]> as "B", %R: !sdfg.array<f64 ["3"]> as "R") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["3", "N"]>
    %r:2 = sdfg.map "scale2" ["i" = "0:3", "j" = "0:N"] ins("a" = %a["0:3, 0:N"] : !sdfg.array<f64 ["3", "N"]>) outs("b" : !sdfg.array<f64 ["3", "N"]>, "r" : !sdfg.array<f64 ["3"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["3", "N"]>):
      %t:2 = sdfg.tasklet "s" ins("x" = %ai["i, j"] : !sdfg.array<f64 ["3", "N"]>) outs("o" : f64, "s" : f64) {
      ^bb0(%x: f64):
        %c = sdfg.sym "j + 1" : f64
        %p = arith.mulf %x, %c : f64
        sdfg.yield %p, %x : f64, f64
      }
      sdfg.exit("b" = %t#0["i, j"] : f64, "r" = %t#1["i", wcr sum] : f64)
    }
    %b = sdfg.access %B writes(%r#0["0:3, 0:N"] : !sdfg.array<f64 ["3", "N"]>) : !sdfg.array<f64 ["3", "N"]>
    %s = sdfg.access %R writes(%r#1["0:3", wcr sum] : !sdfg.array<f64 ["3"]>) : !sdfg.array<f64 ["3"]>
  }
}

// -----

// Maps the transformation leaves alone, each with its reason.
sdfg.sdfg @do_not_vectorize(%A: !sdfg.array<f64 ["8", "N"]> as "A", %B: !sdfg.array<f64 ["8", "16"]> as "B", %R: !sdfg.array<f64 ["8"]> as "R") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["8", "N"]>
    %b = sdfg.access %B : !sdfg.array<f64 ["8", "16"]>
    %m1 = sdfg.map "outer" ["i" = "0:8"] ins("a" = %a["0:8, 0:N"] : !sdfg.array<f64 ["8", "N"]>) outs("r" : !sdfg.array<f64 ["8"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["8", "N"]>):
      // expected-warning @+1 {{sdfg-vectorization does not apply: the count of `j` in `0:N` is not provably a multiple of 8, and the map is inside another scope, where no remainder map can follow it (tile the map first)}}
      %in = sdfg.map "leave" ["j" = "0:N"] ins("a" = %ai["i, 0:N"] : !sdfg.array<f64 ["8", "N"]>) outs("r" : !sdfg.array<f64 ["8"]>) {
      ^bb0(%aj: !sdfg.array<f64 ["8", "N"]>):
        %t = sdfg.tasklet "id" ins("x" = %aj["i, j"] : !sdfg.array<f64 ["8", "N"]>) outs("o" : f64) {
        ^bb0(%x: f64):
          sdfg.yield %x : f64
        }
        sdfg.exit("r" = %t["i", wcr sum] : f64)
      }
      sdfg.exit("r" = %in["i", wcr sum] : !sdfg.array<f64 ["8"]>)
    }
    // expected-warning @+1 {{sdfg-vectorization does not apply: `j, i` moves with `j` in a dimension whose stride is not 1}}
    %m2 = sdfg.map "leave" ["i" = "0:16", "j" = "0:8"] ins("b" = %b["0:8, 0:16"] : !sdfg.array<f64 ["8", "16"]>) outs("r" : !sdfg.array<f64 ["8"]>) {
    ^bb0(%bi: !sdfg.array<f64 ["8", "16"]>):
      %t = sdfg.tasklet "id" ins("x" = %bi["j, i"] : !sdfg.array<f64 ["8", "16"]>) outs("o" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit("r" = %t["j", wcr sum] : f64)
    }
    // expected-warning @+1 {{sdfg-vectorization does not apply: `i, 2*j` indexes with `2*j`, which is not `j` plus an offset}}
    %m3 = sdfg.map "leave" ["i" = "0:8", "j" = "0:8"] ins("b" = %b["0:8, 0:16"] : !sdfg.array<f64 ["8", "16"]>) outs("r" : !sdfg.array<f64 ["8"]>) {
    ^bb0(%bi: !sdfg.array<f64 ["8", "16"]>):
      %t = sdfg.tasklet "id" ins("x" = %bi["i, 2*j"] : !sdfg.array<f64 ["8", "16"]>) outs("o" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit("r" = %t["i", wcr sum] : f64)
    }
    // expected-warning @+1 {{sdfg-vectorization does not apply: every lane writes output `o` at `i` without a resolution the lanes can be combined by}}
    %m4 = sdfg.map "leave" ["i" = "0:8", "j" = "0:16"] ins("b" = %b["0:8, 0:16"] : !sdfg.array<f64 ["8", "16"]>) outs("r" : !sdfg.array<f64 ["8"]>) {
    ^bb0(%bi: !sdfg.array<f64 ["8", "16"]>):
      %t = sdfg.tasklet "id" ins("x" = %bi["i, j"] : !sdfg.array<f64 ["8", "16"]>) outs("o" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit("r" = %t["i"] : f64)
    }
    // expected-warning @+1 {{sdfg-vectorization does not apply: `scf.if` in the tasklet uses a value that differs per lane}}
    %m5 = sdfg.map "leave" ["i" = "0:8", "j" = "0:16"] ins("b" = %b["0:8, 0:16"] : !sdfg.array<f64 ["8", "16"]>) outs("r" : !sdfg.array<f64 ["8"]>) {
    ^bb0(%bi: !sdfg.array<f64 ["8", "16"]>):
      %t = sdfg.tasklet "pos" ins("x" = %bi["i, j"] : !sdfg.array<f64 ["8", "16"]>) outs("o" : f64) {
      ^bb0(%x: f64):
        %z = arith.constant 0.0 : f64
        %c = arith.cmpf ogt, %x, %z : f64
        %v = scf.if %c -> f64 {
          scf.yield %x : f64
        } else {
          scf.yield %z : f64
        }
        sdfg.yield %v : f64
      }
      sdfg.exit("r" = %t["i", wcr sum] : f64)
    }
    // An empty range written backwards: a remainder map would run.
    // expected-warning @+1 {{sdfg-vectorization does not apply: the count of `j` in `1:0` is not provably a multiple of 8, and its count `-1` is not provably non-negative}}
    %m6 = sdfg.map "leave" ["i" = "0:8", "j" = "1:0"] ins("b" = %b["0:8, 0:16"] : !sdfg.array<f64 ["8", "16"]>) outs("r" : !sdfg.array<f64 ["8"]>) {
    ^bb0(%bi: !sdfg.array<f64 ["8", "16"]>):
      %t = sdfg.tasklet "id" ins("x" = %bi["i, j"] : !sdfg.array<f64 ["8", "16"]>) outs("o" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit("r" = %t["i", wcr sum] : f64)
    }
    %r = sdfg.access %R writes(%m1["0:8", wcr sum] : !sdfg.array<f64 ["8"]>, %m2["0:8", wcr sum] : !sdfg.array<f64 ["8"]>, %m3["0:8", wcr sum] : !sdfg.array<f64 ["8"]>, %m4["0:8"] : !sdfg.array<f64 ["8"]>, %m5["0:8", wcr sum] : !sdfg.array<f64 ["8"]>, %m6["0:8", wcr sum] : !sdfg.array<f64 ["8"]>) : !sdfg.array<f64 ["8"]>
  }
}
