// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-constant-propagation)' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-constant-propagation,sdfg-remove-unused-symbols,sdfg-validate)' | FileCheck %s --check-prefix=CLEAN
// RUN: sdfg-run %s --function propagate_along_a_path --set N=6 --seed 2 | FileCheck %s --check-prefix=SAME
// RUN: sdfg-run %s --function propagate_along_a_path --set N=6 --seed 2 --pass-pipeline='builtin.module(sdfg-constant-propagation,sdfg-remove-unused-symbols)' | FileCheck %s --check-prefix=SAME
// RUN: sdfg-run %s --function propagate_into_loops_and_nested_sdfgs --set N=6 --seed 2 | FileCheck %s --check-prefix=LOOP
// RUN: sdfg-run %s --function propagate_into_loops_and_nested_sdfgs --set N=6 --seed 2 --pass-pipeline='builtin.module(sdfg-constant-propagation,sdfg-remove-unused-symbols)' | FileCheck %s --check-prefix=LOOP
// RUN: sdfg-run %s --function propagate_copies_of_changing_symbols --set N=6 --seed 2 | FileCheck %s --check-prefix=COPY
// RUN: sdfg-run %s --function propagate_copies_of_changing_symbols --set N=6 --seed 2 --pass-pipeline='builtin.module(sdfg-constant-propagation,sdfg-remove-unused-symbols)' | FileCheck %s --check-prefix=COPY

// Constants assigned on the way reach the map range, the memlets, a
// tasklet's symbol and the next edge's condition (decided: True) (k = N + 1 is known too:
// N never changes); afterwards nothing reads n or k, and their
// assignments go.
// SAME: B: <f8[6] checksum 5.8426176382e1
// CHECK-LABEL: sdfg.sdfg @propagate_along_a_path
// CHECK: sdfg.map "m" ["i" = "0:2"]
// CHECK: sdfg.sym "N + 1" : f64
// CHECK: writes(%{{.*}}["0:2"]
// CHECK: sdfg.edge @work -> @done if "True"
// CLEAN-LABEL: sdfg.sdfg @propagate_along_a_path
// CLEAN-SAME: symbols {N = i64}
// CLEAN: sdfg.edge @init -> @work{{$}}
sdfg.sdfg @propagate_along_a_path(%B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64, k = i64, n = i64} {
  sdfg.state @init {
  }
  sdfg.state @work {
    %m = sdfg.map "m" ["i" = "0:n"] outs("B" : !sdfg.array<f64 ["N"]>) {
      %t = sdfg.tasklet "t" outs("o" : f64) {
        %v = sdfg.sym "k" : f64
        sdfg.yield %v : f64
      }
      sdfg.exit ("B" = %t["i"] : f64)
    }
    %b = sdfg.access %B writes(%m["0:n"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
  sdfg.state @done {
    %t = sdfg.tasklet "t" outs("o" : f64) {
      %v = sdfg.sym "n * 21" : f64
      sdfg.yield %v : f64
    }
    %b = sdfg.access %B writes(%t["5"] : f64) : !sdfg.array<f64 ["N"]>
  }
  sdfg.edge @init -> @work assign("n" = "2", "k" = "N + 1")
  sdfg.edge @work -> @done if "n < 3"
}

// -----

// Two paths that assign different values: each branch knows its own, the
// merge block neither; a value read from data is never known.
// CHECK-LABEL: sdfg.sdfg @do_not_propagate_disagreeing_or_data_values
// CHECK: sdfg.edge @a -> @m if "True"
// CHECK: sdfg.edge @b -> @m if "True"
// CHECK: sdfg.edge @m -> @e if "(v > 0) and (s > 0)"
sdfg.sdfg @do_not_propagate_disagreeing_or_data_values(%A: !sdfg.array<i64 ["1"]> as "A") symbols {s = i64, v = i64, x = i64} {
  sdfg.state @s {
  }
  sdfg.state @a {
  }
  sdfg.state @b {
  }
  sdfg.state @m {
  }
  sdfg.state @e {
  }
  sdfg.edge @s -> @a if "x > 0" assign("v" = "1", "s" = "A[0]")
  sdfg.edge @s -> @b if "x <= 0" assign("v" = "2", "s" = "A[0]")
  sdfg.edge @a -> @m if "v > 0"
  sdfg.edge @b -> @m if "v > 0"
  sdfg.edge @m -> @e if "(v > 0) and (s > 0)"
}

// -----

// In a loop, what the loop assigns is unknown (its variable, and c, which
// the body changes); a constant set before it and not changed inside
// reaches the body and the loop's bounds. A nested SDFG gets the
// constant its mapping passes (K = 3) and uses it inside.
// LOOP: B: <f8[6] checksum 4.0464981591e1
// CHECK-LABEL: sdfg.sdfg @propagate_into_loops_and_nested_sdfgs
// CHECK: sdfg.loop @l var "i" init "0" cond "i <= 2" update "i + 1" {
// CHECK: sdfg.sym "i + c" : f64
// CHECK: sdfg.edge @w -> @latch assign("c" = "c + 1")
// CHECK: sdfg.nested "inner" {{.*}} symbols("K" = "3", "N" = "N")
// CHECK: sdfg.sym "3" : f64
sdfg.sdfg @propagate_into_loops_and_nested_sdfgs(%B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64, c = i64, i = i64, t = i64} {
  sdfg.state @init {
  }
  sdfg.loop @l var "i" init "0" cond "i < t" update "i + 1" {
    sdfg.state @w {
      %x = sdfg.tasklet "x" outs("o" : f64) {
        %v = sdfg.sym "i + c" : f64
        sdfg.yield %v : f64
      }
      %b = sdfg.access %B writes(%x["i"] : f64) : !sdfg.array<f64 ["N"]>
    }
    sdfg.state @latch {
    }
    sdfg.edge @w -> @latch assign("c" = "c + 1")
  }
  sdfg.state @after {
    %n = sdfg.nested "inner" outs("b" : !sdfg.array<f64 ["N"]>) symbols("K" = "t", "N" = "N") {
      sdfg.sdfg @inner(%bb: !sdfg.array<f64 ["N"]> as "b") symbols {K = i64, N = i64} {
        sdfg.state @only {
          %y = sdfg.tasklet "y" outs("o" : f64) {
            %v = sdfg.sym "K" : f64
            sdfg.yield %v : f64
          }
          %w = sdfg.access %bb writes(%y["5"] : f64) : !sdfg.array<f64 ["N"]>
        }
      }
    }
    %b = sdfg.access %B writes(%n["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
  sdfg.edge @init -> @l assign("t" = "3", "c" = "10")
  sdfg.edge @l -> @after
}

// -----

// A copy of the loop counter (`s = i`, as DaCe's frontend writes
// `__sym___tmp0 = i` before each use) holds until the counter changes:
// the body reads `i` instead of `s`. `t = i` is a copy too, but the
// counter changes before the body reads it again, and `w = i` is
// narrower than `i`: the body reads both as they are. The latch's edge
// `u = s` reads the copy, whose value `i` that edge assigns: it stays.
// COPY: B: <f8[6] checksum 2.5000000000e1
// CHECK-LABEL: sdfg.sdfg @propagate_copies_of_changing_symbols
// CHECK: sdfg.sym "t + w" : f64
// CHECK: writes(%{{.*}}["i"]
// CHECK: sdfg.edge @latch -> @guard assign("i" = "i + 1", "u" = "s")
// CLEAN-LABEL: sdfg.sdfg @propagate_copies_of_changing_symbols
// CLEAN: sdfg.edge @guard -> @body if "i < N" assign("w" = "i")
sdfg.sdfg @propagate_copies_of_changing_symbols(%B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64, i = i64, s = i64, t = i64, u = i64, w = i32} {
  sdfg.state @init {
  }
  sdfg.state @guard {
  }
  sdfg.state @body {
    %x = sdfg.tasklet "x" outs("o" : f64) {
      %v = sdfg.sym "t + w" : f64
      sdfg.yield %v : f64
    }
    %b = sdfg.access %B writes(%x["s"] : f64) : !sdfg.array<f64 ["N"]>
  }
  sdfg.state @latch {
  }
  sdfg.state @done {
  }
  sdfg.edge @init -> @guard assign("i" = "0", "t" = "0")
  sdfg.edge @guard -> @body if "i < N" assign("s" = "i", "w" = "i")
  sdfg.edge @body -> @latch assign("t" = "i")
  sdfg.edge @latch -> @guard assign("i" = "i + 1", "u" = "s")
  sdfg.edge @guard -> @done if "not (i < N)"
}
