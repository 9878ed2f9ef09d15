// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-inline-multistate)' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-inline-multistate,sdfg-validate)' -o /dev/null
// RUN: sdfg-run %s --function inline_loop_between_two_halves --set N=7 --seed 4 | FileCheck %s --check-prefix=SAME
// RUN: sdfg-run %s --function inline_loop_between_two_halves --set N=7 --seed 4 --pass-pipeline='builtin.module(sdfg-inline-multistate)' | FileCheck %s --check-prefix=SAME
// RUN: sdfg-run %s --function inline_loop_between_two_halves --set N=7 --seed 4 --pass-pipeline='builtin.module(sdfg-simplify)' | FileCheck %s --check-prefix=SAME
// RUN: sdfg-run %s --function rename_the_loop_counter_the_caller_names --set N=5 --seed 4 | FileCheck %s --check-prefix=RENAME
// RUN: sdfg-run %s --function rename_the_loop_counter_the_caller_names --set N=5 --seed 4 --pass-pipeline='builtin.module(sdfg-inline-multistate)' | FileCheck %s --check-prefix=RENAME
// RUN: sdfg-run %s --function rename_the_transient_the_caller_names --set N=3 --seed 4 | FileCheck %s --check-prefix=TRANSIENT
// RUN: sdfg-run %s --function rename_the_transient_the_caller_names --set N=3 --seed 4 --pass-pipeline='builtin.module(sdfg-inline-multistate)' | FileCheck %s --check-prefix=TRANSIENT

// A nested SDFG with a loop (prefix sums of A into B), called on whole
// containers between a map that fills A and one that reads B: the map
// before stays in @s, the loop's blocks follow, and the map after moves
// to @s_after, reading B from a new access node. The loop counter becomes
// the caller's symbol.
// SAME: A: <f8[7] checksum 1.0317427436e1
// SAME: B: <f8[7] checksum 4.0493794927e1
// SAME: C: <f8[7] checksum 8.0987589855e1
// CHECK-LABEL: sdfg.sdfg @inline_loop_between_two_halves
// CHECK-SAME: symbols {N = i64, i = i64}
// CHECK: sdfg.state @s {
// CHECK: sdfg.map "fill"
// CHECK-NOT: sdfg.nested
// CHECK: sdfg.state @init {
// CHECK: sdfg.state @body {
// CHECK: sdfg.access %B writes
// CHECK: sdfg.edge @guard -> @done
// CHECK: sdfg.state @s_after {
// CHECK: %[[B:.*]] = sdfg.access %B : !sdfg.array<f64 ["N"]>
// CHECK: sdfg.map "double" ["j" = "0:N"] ins("b" = %[[B]]["0:N"]
// CHECK: sdfg.edge @s_after -> @end
// CHECK: sdfg.edge @s -> @init
// CHECK: sdfg.edge @done -> @s_after
sdfg.sdfg @inline_loop_between_two_halves(%X: !sdfg.array<f64 ["N"]> as "X", %A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B", %C: !sdfg.array<f64 ["N"]> as "C") symbols {N = i64} {
  sdfg.state @s {
    %x = sdfg.access %X : !sdfg.array<f64 ["N"]>
    %f = sdfg.map "fill" ["j" = "0:N"] ins("x" = %x["0:N"] : !sdfg.array<f64 ["N"]>) outs("A" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%xi: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "inc" ins("v" = %xi["j"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        %one = arith.constant 1.0 : f64
        %r = arith.addf %v, %one : f64
        sdfg.yield %r : f64
      }
      sdfg.exit ("A" = %t["j"] : f64)
    }
    %a = sdfg.access %A writes(%f["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %n = sdfg.nested "prefix" ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("b" : !sdfg.array<f64 ["N"]>) symbols("N" = "N") {
      sdfg.sdfg @prefix(%ia: !sdfg.array<f64 ["N"]> as "a", %ib: !sdfg.array<f64 ["N"]> as "b") symbols {N = i64, i = i64} {
        sdfg.state @init {
          %ra = sdfg.access %ia : !sdfg.array<f64 ["N"]>
          %wb = sdfg.access %ib writes(%ra["0" -> "0"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
        }
        sdfg.state @guard {
        }
        sdfg.state @body {
          %ra = sdfg.access %ia : !sdfg.array<f64 ["N"]>
          %rb = sdfg.access %ib : !sdfg.array<f64 ["N"]>
          %t = sdfg.tasklet "add" ins("p" = %rb["i - 1"] : !sdfg.array<f64 ["N"]>, "q" = %ra["i"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
          ^bb0(%p: f64, %q: f64):
            %r = arith.addf %p, %q : f64
            sdfg.yield %r : f64
          }
          %wb = sdfg.access %ib writes(%t["i"] : f64) : !sdfg.array<f64 ["N"]>
        }
        sdfg.state @done {
        }
        sdfg.edge @init -> @guard assign("i" = "1")
        sdfg.edge @guard -> @body if "i < N"
        sdfg.edge @body -> @guard assign("i" = "i + 1")
        sdfg.edge @guard -> @done if "not (i < N)"
      }
    }
    %b = sdfg.access %B writes(%n["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %d = sdfg.map "double" ["j" = "0:N"] ins("b" = %b["0:N"] : !sdfg.array<f64 ["N"]>) outs("C" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%bi: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "twice" ins("v" = %bi["j"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        %r = arith.addf %v, %v : f64
        sdfg.yield %r : f64
      }
      sdfg.exit ("C" = %t["j"] : f64)
    }
    %c = sdfg.access %C writes(%d["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
  sdfg.state @end {
  }
  sdfg.edge @s -> @end
}

// -----

// The nested loop counter `i` is also the caller's symbol (its own loop
// counter, read after the call): inlined, the nested one becomes `i_0`,
// in its assignments, conditions and memlets alike.
// RENAME: B: <f8[5] checksum 2.0000000000e1
// CHECK-LABEL: sdfg.sdfg @rename_the_loop_counter_the_caller_names
// CHECK-SAME: symbols {N = i64, i = i64, i_0 = i64}
// CHECK: sdfg.access %B writes(%{{.*}}["i_0"] : f64)
// CHECK-DAG: sdfg.edge @fill_init -> @fill_guard assign("i_0" = "0")
// CHECK-DAG: sdfg.edge @fill_guard -> @fill_body if "i_0 < N"
// CHECK-DAG: sdfg.edge @fill_body -> @fill_guard assign("i_0" = "i_0 + 1")
// CHECK-DAG: sdfg.edge @s_after -> @guard assign("i" = "0")
sdfg.sdfg @rename_the_loop_counter_the_caller_names(%B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64, i = i64} {
  sdfg.state @s {
    %n = sdfg.nested "fill" outs("b" : !sdfg.array<f64 ["N"]>) symbols("N" = "N") {
      sdfg.sdfg @fill(%ib: !sdfg.array<f64 ["N"]> as "b") symbols {N = i64, i = i64} {
        sdfg.state @fill_init {
        }
        sdfg.state @fill_guard {
        }
        sdfg.state @fill_body {
          %t = sdfg.tasklet "count" outs("o" : f64) {
            %v = sdfg.sym "i" : f64
            sdfg.yield %v : f64
          }
          %w = sdfg.access %ib writes(%t["i"] : f64) : !sdfg.array<f64 ["N"]>
        }
        sdfg.state @fill_done {
        }
        sdfg.edge @fill_init -> @fill_guard assign("i" = "0")
        sdfg.edge @fill_guard -> @fill_body if "i < N"
        sdfg.edge @fill_body -> @fill_guard assign("i" = "i + 1")
        sdfg.edge @fill_guard -> @fill_done if "not (i < N)"
      }
    }
    %b = sdfg.access %B writes(%n["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
  sdfg.state @guard {
  }
  sdfg.state @body {
    %b = sdfg.access %B : !sdfg.array<f64 ["N"]>
    %t = sdfg.tasklet "double" ins("x" = %b["i"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
    ^bb0(%x: f64):
      %r = arith.addf %x, %x : f64
      sdfg.yield %r : f64
    }
    %w = sdfg.access %B writes(%t["i"] : f64) : !sdfg.array<f64 ["N"]>
  }
  sdfg.state @done {
  }
  sdfg.edge @s -> @guard assign("i" = "0")
  sdfg.edge @guard -> @body if "i < N"
  sdfg.edge @body -> @guard assign("i" = "i + 1")
  sdfg.edge @guard -> @done if "not (i < N)"
}

// -----

// The nested transient `t` has the name of a transient of the caller: it
// becomes `t_0`, in its allocation and in the edge that reads it, and
// the caller's `t` keeps its own value (B[0] = 3 from the nested one,
// B[1] = 7 from the caller's).
// TRANSIENT: B: <f8[3] checksum 1.0{{[0-9]+}}e1
// CHECK-LABEL: sdfg.sdfg @rename_the_transient_the_caller_names
// CHECK-DAG: sdfg.alloc "t" : !sdfg.scalar<i64>
// CHECK-DAG: sdfg.alloc "t_0" : !sdfg.scalar<i64>
// CHECK-DAG: sdfg.edge @put -> @use assign("k" = "t_0")
// CHECK-DAG: sdfg.edge @own -> @last assign("m" = "t")
sdfg.sdfg @rename_the_transient_the_caller_names(%B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64, m = i64} {
  %t = sdfg.alloc "t" : !sdfg.scalar<i64>
  sdfg.state @s {
    %n = sdfg.nested "fill" outs("b" : !sdfg.array<f64 ["N"]>) symbols("N" = "N") {
      sdfg.sdfg @fill(%ib: !sdfg.array<f64 ["N"]> as "b") symbols {N = i64, k = i64} {
        %it = sdfg.alloc "t" : !sdfg.scalar<i64>
        sdfg.state @put {
          %c = sdfg.tasklet "three" outs("o" : i64) {
            %v = arith.constant 3 : i64
            sdfg.yield %v : i64
          }
          %w = sdfg.access %it writes(%c["0"] : i64) : !sdfg.scalar<i64>
        }
        sdfg.state @use {
          %c = sdfg.tasklet "copy" outs("o" : f64) {
            %v = sdfg.sym "k" : f64
            sdfg.yield %v : f64
          }
          %w = sdfg.access %ib writes(%c["0"] : f64) : !sdfg.array<f64 ["N"]>
        }
        sdfg.edge @put -> @use assign("k" = "t")
      }
    }
    %b = sdfg.access %B writes(%n["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
  sdfg.state @own {
    %c = sdfg.tasklet "seven" outs("o" : i64) {
      %v = arith.constant 7 : i64
      sdfg.yield %v : i64
    }
    %w = sdfg.access %t writes(%c["0"] : i64) : !sdfg.scalar<i64>
  }
  sdfg.state @last {
    %c = sdfg.tasklet "copy" outs("o" : f64) {
      %v = sdfg.sym "m" : f64
      sdfg.yield %v : f64
    }
    %w = sdfg.access %B writes(%c["1"] : f64) : !sdfg.array<f64 ["N"]>
  }
  sdfg.edge @s -> @own
  sdfg.edge @own -> @last assign("m" = "t")
}

// -----

// Calls that stay: one on part of a container, one whose mapping renames
// a symbol, and one whose guard may stop the nested SDFG (no condition
// holds when `k` is 0), which inlined would stop the caller.
// CHECK-LABEL: sdfg.sdfg @keep_partial_renamed_and_stopping_calls
// CHECK-COUNT-3: sdfg.nested
sdfg.sdfg @keep_partial_renamed_and_stopping_calls(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %n = sdfg.nested "part" ins("a" = %a["1:N"] : !sdfg.array<f64 ["N"]>) outs("b" : !sdfg.array<f64 ["N"]>) symbols("N" = "N") {
      sdfg.sdfg @part(%ia: !sdfg.array<f64 ["N - 1"]> as "a", %ib: !sdfg.array<f64 ["N"]> as "b") symbols {N = i64} {
        sdfg.state @one {
          %ra = sdfg.access %ia : !sdfg.array<f64 ["N - 1"]>
          %wb = sdfg.access %ib writes(%ra["0" -> "0"] : !sdfg.array<f64 ["N - 1"]>) : !sdfg.array<f64 ["N"]>
        }
        sdfg.state @two {
        }
        sdfg.edge @one -> @two
      }
    }
    %b = sdfg.access %B writes(%n["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
  sdfg.state @t {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %n = sdfg.nested "renamed" ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("b" : !sdfg.array<f64 ["N"]>) symbols("M" = "N") {
      sdfg.sdfg @renamed(%ia: !sdfg.array<f64 ["M"]> as "a", %ib: !sdfg.array<f64 ["M"]> as "b") symbols {M = i64} {
        sdfg.state @one {
          %ra = sdfg.access %ia : !sdfg.array<f64 ["M"]>
          %wb = sdfg.access %ib writes(%ra["0" -> "0"] : !sdfg.array<f64 ["M"]>) : !sdfg.array<f64 ["M"]>
        }
        sdfg.state @two {
        }
        sdfg.edge @one -> @two
      }
    }
    %b = sdfg.access %B writes(%n["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
  sdfg.state @u {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %n = sdfg.nested "stopping" ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("b" : !sdfg.array<f64 ["N"]>) symbols("N" = "N") {
      sdfg.sdfg @stopping(%ia: !sdfg.array<f64 ["N"]> as "a", %ib: !sdfg.array<f64 ["N"]> as "b") symbols {N = i64, k = i64} {
        sdfg.state @one {
          %ra = sdfg.access %ia : !sdfg.array<f64 ["N"]>
          %wb = sdfg.access %ib writes(%ra["0" -> "0"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
        }
        sdfg.state @two {
        }
        sdfg.state @three {
        }
        sdfg.edge @one -> @two assign("k" = "N - 1")
        sdfg.edge @two -> @three if "k > 0"
      }
    }
    %b = sdfg.access %B writes(%n["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
  sdfg.edge @s -> @t
  sdfg.edge @t -> @u
}
