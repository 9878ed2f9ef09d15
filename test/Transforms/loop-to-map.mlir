// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-loop-to-map)' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(sdfg-loop-to-map{label=keep})' -o /dev/null
// RUN: not sdfg-opt %s --pass-pipeline='builtin.module(sdfg-loop-to-map{all=true})' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: rm -rf %t && mkdir -p %t
// RUN: sdfg-run %s --function scale_each_element --set N=9 --seed 3 --out %t/a0 > /dev/null
// RUN: sdfg-run %s --function scale_each_element --set N=9 --seed 3 --out %t/a1 --pass-pipeline='builtin.module(sdfg-loop-to-map)' > /dev/null
// RUN: cmp %t/a0/B.npy %t/a1/B.npy
// RUN: sdfg-run %s --function privatize_a_temporary --set N=9 --seed 3 --out %t/b0 > /dev/null
// RUN: sdfg-run %s --function privatize_a_temporary --set N=9 --seed 3 --out %t/b1 --pass-pipeline='builtin.module(sdfg-loop-to-map,sdfg-simplify)' > /dev/null
// RUN: cmp %t/b0/B.npy %t/b1/B.npy
// RUN: sdfg-run %s --function convert_the_outer_loop --set N=6 --set M=5 --seed 3 --out %t/c0 > /dev/null
// RUN: sdfg-run %s --function convert_the_outer_loop --set N=6 --set M=5 --seed 3 --out %t/c1 --pass-pipeline='builtin.module(sdfg-loop-to-map)' > /dev/null
// RUN: cmp %t/c0/B.npy %t/c1/B.npy
// RUN: sdfg-run %s --function do_not_convert_a_recurrence --set N=9 --seed 3 --out %t/d0 > /dev/null
// RUN: sdfg-run %s --function do_not_convert_a_recurrence --set N=9 --seed 3 --out %t/d1 --pass-pipeline='builtin.module(sdfg-loop-to-map)' > /dev/null
// RUN: cmp %t/d0/A.npy %t/d1/A.npy

// BAD: sdfg-loop-to-map: unknown option `all=true` (the option is label=NAME)

// Each iteration writes its own element of B: a map over a nested SDFG.
// The nested SDFG's arguments are the whole containers, so its memlets
// keep their start (where the argument is bound) and tighten only their
// end, with the volume exact.
// CHECK-LABEL: sdfg.sdfg @scale_each_element
// CHECK: sdfg.state @l {
// CHECK: %[[A:.*]] = sdfg.access %A
// CHECK: %[[M:.*]] = sdfg.map "l" ["i" = "0:N"] ins("A" = %[[A]]["0:N"] : !sdfg.array<f64 ["N"]>) outs("B" : !sdfg.array<f64 ["N"]>)
// CHECK: sdfg.nested "l_body" ins("A" = %{{.*}}["0:i + 1", volume "1"]
// CHECK-SAME: symbols("N" = "N", "i" = "i")
// CHECK: sdfg.sdfg @l_body(%{{.*}}: !sdfg.array<f64 ["N"]> as "A", %{{.*}}: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64, i = i64}
// CHECK: sdfg.state @body
// CHECK: sdfg.exit("B" = %{{.*}}["0:i + 1", volume "1"]
// CHECK: sdfg.access %B writes(%[[M]]["0:N"]
// CHECK-NOT: sdfg.loop
sdfg.sdfg @scale_each_element(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64, i = i64} {
  sdfg.loop @l var "i" init "0" cond "i < N" update "i + 1" {
    sdfg.state @body {
      %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
      %t = sdfg.tasklet "twice" ins("v" = %a["i"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        %w = arith.addf %v, %v : f64
        sdfg.yield %w : f64
      }
      %b = sdfg.access %B writes(%t["i"] : f64) : !sdfg.array<f64 ["N"]>
    }
  }
}

// -----

// t is written before it is read in every iteration and used nowhere
// else: each iteration gets its own (it moves into the nested SDFG).
// CHECK-LABEL: sdfg.sdfg @privatize_a_temporary
// CHECK-NOT: sdfg.alloc "t"
// CHECK: sdfg.map "l"
// CHECK: sdfg.sdfg @l_body
// CHECK-NEXT: sdfg.alloc "t" : !sdfg.scalar<f64>
sdfg.sdfg @privatize_a_temporary(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64, i = i64} {
  %T = sdfg.alloc "t" : !sdfg.scalar<f64>
  sdfg.loop @l var "i" init "0" cond "i < N" update "i + 1" {
    sdfg.state @body {
      %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
      %t = sdfg.tasklet "sq" ins("v" = %a["N - 1 - i"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        %w = arith.mulf %v, %v : f64
        sdfg.yield %w : f64
      }
      %s = sdfg.access %T writes(%t["0"] : f64) : !sdfg.scalar<f64>
      %u = sdfg.tasklet "inc" ins("v" = %s["0"] : !sdfg.scalar<f64>) outs("o" : f64) {
      ^bb0(%v: f64):
        %one = arith.constant 1.0 : f64
        %w = arith.addf %v, %one : f64
        sdfg.yield %w : f64
      }
      %b = sdfg.access %B writes(%u["i"] : f64) : !sdfg.array<f64 ["N"]>
    }
  }
}

// -----

// Rows are independent, columns within a row are not (each reads the
// previous one): the outer loop becomes a map, the inner one stays a
// loop inside the nested SDFG.
// CHECK-LABEL: sdfg.sdfg @convert_the_outer_loop
// CHECK: sdfg.map "rows" ["i" = "0:N"]
// CHECK: sdfg.sdfg @rows_body
// CHECK: sdfg.loop @cols var "j" init "1" cond "j < M" update "j + 1"
sdfg.sdfg @convert_the_outer_loop(%B: !sdfg.array<f64 ["N", "M"]> as "B") symbols {N = i64, M = i64, i = i64, j = i64} {
  sdfg.loop @rows var "i" init "0" cond "i < N" update "i + 1" {
    sdfg.loop @cols var "j" init "1" cond "j < M" update "j + 1" {
      sdfg.state @body {
        %b = sdfg.access %B : !sdfg.array<f64 ["N", "M"]>
        %t = sdfg.tasklet "next" ins("v" = %b["i, j - 1"] : !sdfg.array<f64 ["N", "M"]>) outs("o" : f64) {
        ^bb0(%v: f64):
          %c = sdfg.sym "i + j" : f64
          %w = arith.addf %v, %c : f64
          sdfg.yield %w : f64
        }
        %b2 = sdfg.access %B writes(%t["i, j"] : f64) : !sdfg.array<f64 ["N", "M"]>
      }
    }
  }
}

// -----

// Iteration i reads what iteration i - 1 wrote.
// CHECK-LABEL: sdfg.sdfg @do_not_convert_a_recurrence
// CHECK: sdfg.loop @keep
sdfg.sdfg @do_not_convert_a_recurrence(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64, i = i64} {
  // expected-warning @+1 {{sdfg-loop-to-map does not apply: iterations may both touch `A`: `i` written, `i - 1` accessed in another iteration}}
  sdfg.loop @keep var "i" init "1" cond "i < N" update "i + 1" {
    sdfg.state @body {
      %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
      %t = sdfg.tasklet "next" ins("v" = %a["i - 1"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        %one = arith.constant 1.0 : f64
        %w = arith.addf %v, %one : f64
        sdfg.yield %w : f64
      }
      %a2 = sdfg.access %A writes(%t["i"] : f64) : !sdfg.array<f64 ["N"]>
    }
  }
}

// -----

// A scalar accumulated across iterations is not private.
// CHECK-LABEL: sdfg.sdfg @do_not_convert_an_accumulation
// CHECK: sdfg.loop @keep
sdfg.sdfg @do_not_convert_an_accumulation(%A: !sdfg.array<f64 ["N"]> as "A", %S: !sdfg.scalar<f64> as "S") symbols {N = i64, i = i64} {
  // expected-warning @+1 {{sdfg-loop-to-map does not apply: iterations may both touch `S`: `0` written, `0` accessed in another iteration}}
  sdfg.loop @keep var "i" init "0" cond "i < N" update "i + 1" {
    sdfg.state @body {
      %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
      %s = sdfg.access %S : !sdfg.scalar<f64>
      %t = sdfg.tasklet "add" ins("v" = %a["i"] : !sdfg.array<f64 ["N"]>, "u" = %s["0"] : !sdfg.scalar<f64>) outs("o" : f64) {
      ^bb0(%v: f64, %u: f64):
        %w = arith.addf %v, %u : f64
        sdfg.yield %w : f64
      }
      %s2 = sdfg.access %S writes(%t["0"] : f64) : !sdfg.scalar<f64>
    }
  }
}

// -----

// The loop variable is read after the loop, which a map would not set.
// CHECK-LABEL: sdfg.sdfg @do_not_convert_when_the_variable_is_read_after
// CHECK: sdfg.loop @keep
sdfg.sdfg @do_not_convert_when_the_variable_is_read_after(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["1"]> as "B") symbols {N = i64, i = i64} {
  // expected-warning @+1 {{sdfg-loop-to-map does not apply: `i` is read after the loop}}
  sdfg.loop @keep var "i" init "0" cond "i < N" update "i + 1" {
    sdfg.state @body {
      %t = sdfg.tasklet "zero" outs("o" : f64) {
        %z = arith.constant 0.0 : f64
        sdfg.yield %z : f64
      }
      %a = sdfg.access %A writes(%t["i"] : f64) : !sdfg.array<f64 ["N"]>
    }
  }
  sdfg.state @after {
    %t = sdfg.tasklet "last" outs("o" : f64) {
      %v = sdfg.sym "i" : f64
      sdfg.yield %v : f64
    }
    %b = sdfg.access %B writes(%t["0"] : f64) : !sdfg.array<f64 ["1"]>
  }
  sdfg.edge @keep -> @after
}

// -----

// The bound is data (a scalar argument), which a map range cannot read.
// CHECK-LABEL: sdfg.sdfg @do_not_convert_a_loop_bounded_by_data
// CHECK: sdfg.loop @keep
sdfg.sdfg @do_not_convert_a_loop_bounded_by_data(%A: !sdfg.array<f64 ["N"]> as "A", %n: !sdfg.scalar<i64> as "n") symbols {N = i64, i = i64} {
  // expected-warning @+1 {{sdfg-loop-to-map does not apply: the loop's range reads `n`, which is not a symbol}}
  sdfg.loop @keep var "i" init "0" cond "i < n" update "i + 1" {
    sdfg.state @body {
      %t = sdfg.tasklet "zero" outs("o" : f64) {
        %z = arith.constant 0.0 : f64
        sdfg.yield %z : f64
      }
      %a = sdfg.access %A writes(%t["i"] : f64) : !sdfg.array<f64 ["N"]>
    }
  }
}
