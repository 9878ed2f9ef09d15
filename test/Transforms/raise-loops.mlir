// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-raise-loops)' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-raise-loops,sdfg-validate)' -o /dev/null
// RUN: sdfg-run %s --function raise_counted_loop --set N=7 --seed 5 | FileCheck %s --check-prefix=SAME
// RUN: sdfg-run %s --function raise_counted_loop --set N=7 --seed 5 --pass-pipeline='builtin.module(sdfg-raise-loops)' | FileCheck %s --check-prefix=SAME
// RUN: sdfg-run %s --function raise_while_loop --seed 5 | FileCheck %s --check-prefix=WHILE
// RUN: sdfg-run %s --function raise_while_loop --seed 5 --pass-pipeline='builtin.module(sdfg-raise-loops)' | FileCheck %s --check-prefix=WHILE
// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-raise-loops,sdfg-print-executions)' -o /dev/null 2>&1 | FileCheck %s --check-prefix=RUNS

// The frontend's loop form (guard, init, condition and latch edges) becomes
// an sdfg.loop named after the guard; the latch's other assignment (s)
// moves into a tail state, the loop variable keeps its last value after
// the loop (B[0] = i), and the body runs as often as before.
// SAME: B: <f8[7] checksum 1.3300000000e2
// CHECK-LABEL: sdfg.sdfg @raise_counted_loop
// CHECK: sdfg.state @init
// CHECK: sdfg.loop @guard var "i" init "0" cond "i < N" update "i + 1" {
// CHECK-NEXT: sdfg.state @body {
// CHECK: sdfg.state @guard_tail {
// CHECK: sdfg.edge @body -> @guard_tail assign("s" = "s * 2")
// CHECK: }
// CHECK: sdfg.state @done
// CHECK-NOT: sdfg.state @guard {
// CHECK: sdfg.edge @init -> @guard assign("s" = "1")
// CHECK: sdfg.edge @guard -> @done{{$}}
// RUNS-LABEL: executions in @raise_counted_loop:
// RUNS: @body: N, i in 0:N
sdfg.sdfg @raise_counted_loop(%B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64, i = i64, s = i64} {
  sdfg.state @init {
  }
  sdfg.state @guard {
  }
  sdfg.state @body {
    %t = sdfg.tasklet "put" outs("o" : f64) {
      %v = sdfg.sym "s" : f64
      sdfg.yield %v : f64
    }
    %b = sdfg.access %B writes(%t["i"] : f64) : !sdfg.array<f64 ["N"]>
  }
  sdfg.state @done {
    %t = sdfg.tasklet "last" outs("o" : f64) {
      %v = sdfg.sym "i" : f64
      sdfg.yield %v : f64
    }
    %b = sdfg.access %B writes(%t["0"] : f64) : !sdfg.array<f64 ["N"]>
  }
  sdfg.edge @init -> @guard assign("i" = "0", "s" = "1")
  sdfg.edge @guard -> @body if "i < N"
  sdfg.edge @guard -> @done if "not (i < N)"
  sdfg.edge @body -> @guard assign("i" = "i + 1", "s" = "s * 2")
}

// -----

// Nested loops are raised from the inside out: the inner loop exits
// straight into the outer loop's back edge (the frontend's form once empty
// states are gone), which is the outer latch once the inner loop is one
// block. The inner loop's start reads the outer variable.
// CHECK-LABEL: sdfg.sdfg @raise_nested_loops
// CHECK: sdfg.loop @outer var "i" init "0" cond "i < N" update "i + 1" {
// CHECK-NEXT: sdfg.loop @inner var "j" init "i" cond "j < N" update "j + 1" {
// CHECK-NEXT: sdfg.state @work
// CHECK: sdfg.edge @start -> @outer{{$}}
// CHECK: sdfg.edge @outer -> @done{{$}}
// RUNS-LABEL: executions in @raise_nested_loops:
// RUNS: @work: at most N*Max(0, N), i in 0:N, j in i:N
sdfg.sdfg @raise_nested_loops() symbols {N = i64, i = i64, j = i64} {
  sdfg.state @start {
  }
  sdfg.state @outer {
  }
  sdfg.state @inner {
  }
  sdfg.state @work {
  }
  sdfg.state @done {
  }
  sdfg.edge @start -> @outer assign("i" = "0")
  sdfg.edge @outer -> @inner if "i < N" assign("j" = "i")
  sdfg.edge @outer -> @done if "not (i < N)"
  sdfg.edge @inner -> @work if "j < N"
  sdfg.edge @inner -> @outer if "not (j < N)" assign("i" = "i + 1")
  sdfg.edge @work -> @inner assign("j" = "j + 1")
}

// -----

// A loop without a counted variable (the body halves n) is a while loop:
// raised with its condition only, its back edge's assignment in the tail
// state, n's last value (1) read after it; it runs an unknown number of
// times.
// WHILE: B: <f8[1] checksum 1.0000000000e0
// CHECK-LABEL: sdfg.sdfg @raise_while_loop
// CHECK: sdfg.loop @w cond "n > 1" {
// CHECK-NEXT: sdfg.state @b {
// CHECK: sdfg.state @w_tail {
// CHECK: sdfg.edge @b -> @w_tail assign("n" = "n // 2")
// CHECK: sdfg.edge @s -> @w assign("n" = "100")
// CHECK: sdfg.edge @w -> @d{{$}}
// RUNS-LABEL: executions in @raise_while_loop:
// RUNS: @b: unknown
sdfg.sdfg @raise_while_loop(%B: !sdfg.array<f64 ["1"]> as "B") symbols {n = i64} {
  sdfg.state @s {
  }
  sdfg.state @w {
  }
  sdfg.state @b {
  }
  sdfg.state @d {
    %t = sdfg.tasklet "last" outs("o" : f64) {
      %v = sdfg.sym "n" : f64
      sdfg.yield %v : f64
    }
    %b = sdfg.access %B writes(%t["0"] : f64) : !sdfg.array<f64 ["1"]>
  }
  sdfg.edge @s -> @w assign("n" = "100")
  sdfg.edge @w -> @b if "n > 1"
  sdfg.edge @w -> @d if "not (n > 1)"
  sdfg.edge @b -> @w assign("n" = "n // 2")
}

// -----

// The guard's edge into the body assigns: the assignment moves to an edge
// from a head state at the start of the body.
// CHECK-LABEL: sdfg.sdfg @raise_assignment_into_body
// CHECK: sdfg.loop @g var "i" init "0" cond "i < N" update "i + 1" {
// CHECK-NEXT: sdfg.state @g_head {
// CHECK: sdfg.edge @g_head -> @b assign("t" = "2 * i")
sdfg.sdfg @raise_assignment_into_body() symbols {N = i64, i = i64, t = i64} {
  sdfg.state @s {
  }
  sdfg.state @g {
  }
  sdfg.state @b {
  }
  sdfg.state @d {
  }
  sdfg.edge @s -> @g assign("i" = "0")
  sdfg.edge @g -> @b if "i < N" assign("t" = "2 * i")
  sdfg.edge @g -> @d if "not (i < N)"
  sdfg.edge @b -> @g assign("i" = "i + 1")
}

// -----

// A guard that holds dataflow runs once more than the body, and a body
// left by a jump that bypasses the guard: neither loop is raised.
// CHECK-LABEL: sdfg.sdfg @do_not_raise_busy_guard_or_break
// CHECK-NOT: sdfg.loop
sdfg.sdfg @do_not_raise_busy_guard_or_break(%B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64, i = i64, j = i64} {
  sdfg.state @first {
  }
  sdfg.state @g1 {
    %t = sdfg.tasklet "t" outs("o" : f64) {
      %v = sdfg.sym "i" : f64
      sdfg.yield %v : f64
    }
    %b = sdfg.access %B writes(%t["0"] : f64) : !sdfg.array<f64 ["N"]>
  }
  sdfg.state @b1 {
  }
  sdfg.state @g2 {
  }
  sdfg.state @b2 {
  }
  sdfg.state @done {
  }
  sdfg.edge @first -> @g1 assign("i" = "0")
  sdfg.edge @g1 -> @b1 if "i < N"
  sdfg.edge @g1 -> @g2 if "not (i < N)" assign("j" = "0")
  sdfg.edge @b1 -> @g1 assign("i" = "i + 1")
  sdfg.edge @g2 -> @b2 if "j < N"
  sdfg.edge @g2 -> @done if "not (j < N)"
  sdfg.edge @b2 -> @g2 if "j < 3" assign("j" = "j + 1")
  sdfg.edge @b2 -> @done if "j >= 3"
}
