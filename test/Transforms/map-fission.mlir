// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-map-fission)' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(sdfg-map-fission{label=keep})' -o /dev/null
// RUN: rm -rf %t && mkdir -p %t
// RUN: for f in split_through_a_scalar split_through_a_row split_writes_of_one_output; do \
// RUN:   sdfg-run %s --function $f --set N=7 --set M=5 --seed 3 --out %t/$f.before > /dev/null && \
// RUN:   sdfg-run %s --function $f --set N=7 --set M=5 --seed 3 --out %t/$f.after --pass-pipeline='builtin.module(sdfg-map-fission)' > /dev/null && \
// RUN:   %python %S/../Target/HLS/Inputs/compare.py %t/$f.before %t/$f.after; done | FileCheck %s --check-prefix=SAME
// SAME: 2 outputs match
// SAME: 1 outputs match
// SAME: 1 outputs match

// t = A[i]^2 carries a value to two consumers: three maps, and t holds
// one value per iteration.
// CHECK-LABEL: sdfg.sdfg @split_through_a_scalar
// CHECK: %[[T:.*]] = sdfg.alloc "t" : !sdfg.array<f64 ["N"]>
// CHECK: %[[M1:.*]] = sdfg.map "f" ["i" = "0:N"] schedule CPU_Multicore ins("a" = %{{.*}}["0:N"] : !sdfg.array<f64 ["N"]>) outs("t" : !sdfg.array<f64 ["N"]>)
// CHECK: sdfg.tasklet "sq"
// CHECK: sdfg.exit("t" = %{{.*}}["i"] : f64)
// CHECK: %[[TN:.*]] = sdfg.access %[[T]] writes(%[[M1]]["0:N"] : !sdfg.array<f64 ["N"]>)
// CHECK: sdfg.map "f" ["i" = "0:N"] schedule CPU_Multicore ins("t" = %[[TN]]["0:N"] : !sdfg.array<f64 ["N"]>) outs("b" : !sdfg.array<f64 ["N"]>)
// CHECK: sdfg.tasklet "inc" ins("v" = %{{.*}}["i"] : !sdfg.array<f64 ["N"]>)
// CHECK: sdfg.map "f" ["i" = "0:N"] schedule CPU_Multicore ins("t" = %[[TN]]["0:N"] : !sdfg.array<f64 ["N"]>, "a" = %{{.*}}["0:N"] : !sdfg.array<f64 ["N"]>) outs("c" : !sdfg.array<f64 ["N"]>)
// CHECK: sdfg.tasklet "mix" ins("v" = %{{.*}}["i"] : !sdfg.array<f64 ["N"]>, "w" = %{{.*}}["i"] : !sdfg.array<f64 ["N"]>)
// CHECK-NOT: sdfg.map
sdfg.sdfg @split_through_a_scalar(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B", %C: !sdfg.array<f64 ["N"]> as "C") symbols {N = i64} {
  %T = sdfg.alloc "t" : !sdfg.scalar<f64>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %r:2 = sdfg.map "f" ["i" = "0:N"] schedule CPU_Multicore ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("b" : !sdfg.array<f64 ["N"]>, "c" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N"]>):
      %x = sdfg.tasklet "sq" ins("v" = %ai["i"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        %w = arith.mulf %v, %v : f64
        sdfg.yield %w : f64
      }
      %n = sdfg.access %T writes(%x["0"] : f64) : !sdfg.scalar<f64>
      %y = sdfg.tasklet "inc" ins("v" = %n["0"] : !sdfg.scalar<f64>) outs("o" : f64) {
      ^bb0(%v: f64):
        %one = arith.constant 1.0 : f64
        %w = arith.addf %v, %one : f64
        sdfg.yield %w : f64
      }
      %z = sdfg.tasklet "mix" ins("v" = %n["0"] : !sdfg.scalar<f64>, "w" = %ai["i"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64, %w: f64):
        %p = arith.mulf %v, %w : f64
        sdfg.yield %p : f64
      }
      sdfg.exit("b" = %y["i"] : f64, "c" = %z["i"] : f64)
    }
    %b = sdfg.access %B writes(%r#0["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %c = sdfg.access %C writes(%r#1["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// A row buffer between two inner maps (what map fusion of two row
// computations leaves): it grows to one row per i, and the inner maps'
// memlets index it by i first.
// CHECK-LABEL: sdfg.sdfg @split_through_a_row
// CHECK: %[[R:.*]] = sdfg.alloc "row" : !sdfg.array<f64 ["N", "M"]>
// CHECK: %[[M1:.*]] = sdfg.map "rows" ["i" = "0:N"]
// CHECK: sdfg.map "fill" ["j" = "0:M"]
// CHECK: sdfg.exit("row" = %{{.*}}["i, j"] : f64)
// CHECK: sdfg.exit("row" = %{{.*}}["i, 0:M"] : !sdfg.array<f64 ["N", "M"]>)
// CHECK: %[[RN:.*]] = sdfg.access %[[R]] writes(%[[M1]]["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>)
// CHECK: sdfg.map "rows" ["i" = "0:N"] ins("row" = %[[RN]]["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>)
// CHECK: sdfg.map "use" ["j" = "0:M"] ins("r" = %{{.*}}["i, 0:M"] : !sdfg.array<f64 ["N", "M"]>)
// CHECK: sdfg.tasklet "twice" ins("v" = %{{.*}}["i, M - j - 1"] : !sdfg.array<f64 ["N", "M"]>)
sdfg.sdfg @split_through_a_row(%A: !sdfg.array<f64 ["N", "M"]> as "A", %B: !sdfg.array<f64 ["N", "M"]> as "B") symbols {N = i64, M = i64} {
  %R = sdfg.alloc "row" : !sdfg.array<f64 ["M"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "M"]>
    %o = sdfg.map "rows" ["i" = "0:N"] ins("a" = %a["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) outs("b" : !sdfg.array<f64 ["N", "M"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N", "M"]>):
      %f = sdfg.map "fill" ["j" = "0:M"] ins("a" = %ai["i, 0:M"] : !sdfg.array<f64 ["N", "M"]>) outs("row" : !sdfg.array<f64 ["M"]>) {
      ^bb0(%aj: !sdfg.array<f64 ["N", "M"]>):
        %t = sdfg.tasklet "sq" ins("v" = %aj["i, j"] : !sdfg.array<f64 ["N", "M"]>) outs("o" : f64) {
        ^bb0(%v: f64):
          %w = arith.mulf %v, %v : f64
          sdfg.yield %w : f64
        }
        sdfg.exit("row" = %t["j"] : f64)
      }
      %rn = sdfg.access %R writes(%f["0:M"] : !sdfg.array<f64 ["M"]>) : !sdfg.array<f64 ["M"]>
      %u = sdfg.map "use" ["j" = "0:M"] ins("r" = %rn["0:M"] : !sdfg.array<f64 ["M"]>) outs("b" : !sdfg.array<f64 ["N", "M"]>) {
      ^bb0(%rj: !sdfg.array<f64 ["M"]>):
        %t = sdfg.tasklet "twice" ins("v" = %rj["M - 1 - j"] : !sdfg.array<f64 ["M"]>) outs("o" : f64) {
        ^bb0(%v: f64):
          %w = arith.addf %v, %v : f64
          sdfg.yield %w : f64
        }
        sdfg.exit("b" = %t["i, j"] : f64)
      }
      sdfg.exit("b" = %u["i, 0:M"] : !sdfg.array<f64 ["N", "M"]>)
    }
    %b = sdfg.access %B writes(%o["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) : !sdfg.array<f64 ["N", "M"]>
  }
}

// -----

// Two computations write the two columns of one output: both new maps
// write the access node.
// CHECK-LABEL: sdfg.sdfg @split_writes_of_one_output
// CHECK: %[[M1:.*]] = sdfg.map "cols" ["i" = "0:N"]
// CHECK: sdfg.exit("b" = %{{.*}}["i, 0"] : f64)
// CHECK: %[[M2:.*]] = sdfg.map "cols" ["i" = "0:N"]
// CHECK: sdfg.exit("b" = %{{.*}}["i, 1"] : f64)
// CHECK: sdfg.access %{{.*}} writes(%[[M1]]["0:N, 0"] : !sdfg.array<f64 ["N", "2"]>, %[[M2]]["0:N, 1"] : !sdfg.array<f64 ["N", "2"]>)
sdfg.sdfg @split_writes_of_one_output(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N", "2"]> as "B") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %r = sdfg.map "cols" ["i" = "0:N"] ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("b" : !sdfg.array<f64 ["N", "2"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N"]>):
      %x = sdfg.tasklet "neg" ins("v" = %ai["i"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        %w = arith.negf %v : f64
        sdfg.yield %w : f64
      }
      %y = sdfg.tasklet "half" ins("v" = %ai["i"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        %h = arith.constant 0.5 : f64
        %w = arith.mulf %v, %h : f64
        sdfg.yield %w : f64
      }
      sdfg.exit("b" = %x["i, 0"] : f64, "b" = %y["i, 1"] : f64)
    }
    %b = sdfg.access %B writes(%r["0:N, 0:2"] : !sdfg.array<f64 ["N", "2"]>) : !sdfg.array<f64 ["N", "2"]>
  }
}

// -----

// Maps the transformation leaves alone, each with its reason.
sdfg.sdfg @do_not_split(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  %T = sdfg.alloc "t" : !sdfg.scalar<f64>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    // expected-warning @+1 {{sdfg-map-fission does not apply: the map holds fewer than two computations}}
    %r1 = sdfg.map "keep" ["i" = "0:N"] ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("b" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N"]>):
      %x = sdfg.tasklet "id" ins("v" = %ai["i"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        sdfg.yield %v : f64
      }
      sdfg.exit("b" = %x["i"] : f64)
    }
    %b1 = sdfg.access %B writes(%r1["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    // expected-warning @+1 {{sdfg-map-fission does not apply: the result of 'sdfg.tasklet' goes to a 'sdfg.tasklet' directly}}
    %r2 = sdfg.map "keep" ["i" = "0:N"] ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("b" : !sdfg.array<f64 ["N"]>) after(%b1 : !sdfg.array<f64 ["N"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N"]>):
      %x = sdfg.tasklet "id" ins("v" = %ai["i"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        sdfg.yield %v : f64
      }
      %y = sdfg.tasklet "id2" ins("v" = %x["0"] : f64) outs("o" : f64) {
      ^bb0(%v: f64):
        sdfg.yield %v : f64
      }
      sdfg.exit("b" = %y["i"] : f64)
    }
    %b2 = sdfg.access %B writes(%r2["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    // expected-warning @+1 {{sdfg-map-fission does not apply: `t` is also accessed outside the map}}
    %r3 = sdfg.map "keep" ["i" = "0:N"] ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("b" : !sdfg.array<f64 ["N"]>) after(%b2 : !sdfg.array<f64 ["N"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N"]>):
      %x = sdfg.tasklet "id" ins("v" = %ai["i"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        sdfg.yield %v : f64
      }
      %n = sdfg.access %T writes(%x["0"] : f64) : !sdfg.scalar<f64>
      %y = sdfg.tasklet "id2" ins("v" = %n["0"] : !sdfg.scalar<f64>) outs("o" : f64) {
      ^bb0(%v: f64):
        sdfg.yield %v : f64
      }
      sdfg.exit("b" = %y["i"] : f64)
    }
    %b3 = sdfg.access %B writes(%r3["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %t = sdfg.access %T : !sdfg.scalar<f64>
  }
}

// -----

// A transient read by name after the state (an inter-state assignment)
// keeps its shape.
sdfg.sdfg @do_not_split_a_named_transient(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64, x = f64} {
  %T = sdfg.alloc "t" : !sdfg.scalar<f64>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    // expected-warning @+1 {{sdfg-map-fission does not apply: `t` is also accessed outside the map}}
    %r = sdfg.map "keep" ["i" = "0:N"] ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("b" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N"]>):
      %x = sdfg.tasklet "id" ins("v" = %ai["i"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        sdfg.yield %v : f64
      }
      %n = sdfg.access %T writes(%x["0"] : f64) : !sdfg.scalar<f64>
      %y = sdfg.tasklet "id2" ins("v" = %n["0"] : !sdfg.scalar<f64>) outs("o" : f64) {
      ^bb0(%v: f64):
        sdfg.yield %v : f64
      }
      sdfg.exit("b" = %y["i"] : f64)
    }
    %b = sdfg.access %B writes(%r["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
  sdfg.state @after {
  }
  sdfg.edge @s -> @after assign("x" = "t")
}
