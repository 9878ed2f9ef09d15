// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-raise-loops)' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-raise-loops,sdfg-validate)' -o /dev/null
// RUN: sdfg-run %s --function raise_counted_loop --set N=7 --seed 5 | FileCheck %s --check-prefix=SAME
// RUN: sdfg-run %s --function raise_counted_loop --set N=7 --seed 5 --pass-pipeline='builtin.module(sdfg-raise-loops)' | FileCheck %s --check-prefix=SAME
// RUN: sdfg-run %s --function raise_while_loop --seed 5 | FileCheck %s --check-prefix=WHILE
// RUN: sdfg-run %s --function raise_while_loop --seed 5 --pass-pipeline='builtin.module(sdfg-raise-loops)' | FileCheck %s --check-prefix=WHILE
// RUN: sdfg-run %s --function raise_do_while_loops --set N=5 --seed 5 | FileCheck %s --check-prefix=DOWHILE
// RUN: sdfg-run %s --function raise_do_while_loops --set N=5 --seed 5 --pass-pipeline='builtin.module(sdfg-raise-loops)' | FileCheck %s --check-prefix=DOWHILE
// RUN: sdfg-run %s --function raise_do_while_in_for_loop --set N=4 --seed 5 | FileCheck %s --check-prefix=NESTED
// RUN: sdfg-run %s --function raise_do_while_in_for_loop --set N=4 --seed 5 --pass-pipeline='builtin.module(sdfg-raise-loops)' | FileCheck %s --check-prefix=NESTED
// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-print-executions)' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BEFORE
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

// -----

// Two do-while loops (DaCe's rotated loops): the latch's back edge goes to
// the loop's only entry under the condition, its other edge leaves under
// the negation. A self-loop checks, then updates on its back edge: it runs
// for i in 0..=N. The second updates on the edge into its empty latch
// before the check (update_before_condition): k in 0..N, at least once.
// Each becomes an inverted sdfg.loop; the other assignment on the update
// edge (t) stays there. The analysis counts them before and after.
// DOWHILE: B: <f8[8] checksum 6.7460739748e1
// CHECK-LABEL: sdfg.sdfg @raise_do_while_loops
// CHECK: sdfg.loop @body_loop var "i" init "0" cond "i < N" update "i + 1" inverted {
// CHECK-NEXT: sdfg.state @body {
// CHECK: sdfg.loop @second_loop var "k" init "0" cond "k < N" update "k + 1" inverted update_before_condition {
// CHECK-NEXT: sdfg.state @second {
// CHECK: sdfg.state @latch {
// CHECK: sdfg.edge @second -> @latch assign("t" = "2")
// CHECK: sdfg.edge @init -> @body_loop{{$}}
// CHECK: sdfg.edge @body_loop -> @between{{$}}
// CHECK: sdfg.edge @between -> @second_loop{{$}}
// CHECK: sdfg.edge @second_loop -> @done{{$}}
// BEFORE-LABEL: executions in @raise_do_while_loops:
// BEFORE: @body: N + 1, i in 0:N + 1
// BEFORE: @second: N, k in 0:N
// RUNS-LABEL: executions in @raise_do_while_loops:
// RUNS: @body: N + 1, i in 0:N + 1
// RUNS: @second: N, k in 0:N
sdfg.sdfg @raise_do_while_loops(%B: !sdfg.array<f64 ["N + 3"]> as "B") symbols {N = i64, i = i64, k = i64, t = i64} {
  sdfg.state @init {
  }
  sdfg.state @body {
    %t = sdfg.tasklet "put" outs("o" : f64) {
      %v = sdfg.sym "i" : f64
      sdfg.yield %v : f64
    }
    %b = sdfg.access %B writes(%t["i"] : f64) : !sdfg.array<f64 ["N + 3"]>
  }
  sdfg.state @between {
  }
  sdfg.state @second {
    %t = sdfg.tasklet "put" outs("o" : f64) {
      %v = sdfg.sym "k" : f64
      sdfg.yield %v : f64
    }
    %b = sdfg.access %B writes(%t["k + 1"] : f64) : !sdfg.array<f64 ["N + 3"]>
  }
  sdfg.state @latch {
  }
  sdfg.state @done {
    %t = sdfg.tasklet "last" outs("o" : f64) {
      %v = sdfg.sym "i + 10 * k + t" : f64
      sdfg.yield %v : f64
    }
    %b = sdfg.access %B writes(%t["N + 2"] : f64) : !sdfg.array<f64 ["N + 3"]>
  }
  sdfg.edge @init -> @body assign("i" = "0")
  sdfg.edge @body -> @body if "i < N" assign("i" = "i + 1")
  sdfg.edge @body -> @between if "not (i < N)"
  sdfg.edge @between -> @second assign("k" = "0")
  sdfg.edge @second -> @latch assign("k" = "k + 1", "t" = "2")
  sdfg.edge @latch -> @second if "k < N"
  sdfg.edge @latch -> @done if "not (k < N)"
}

// -----

// A do-while loop inside a for loop, exiting straight into the outer
// loop's back edge: raised first, it becomes the outer loop's body. Its
// range depends on the outer variable (j in 0..=i).
// NESTED: A: <f8[4] checksum 1.2821193114e1
// CHECK-LABEL: sdfg.sdfg @raise_do_while_in_for_loop
// CHECK: sdfg.loop @outer var "i" init "0" cond "i < N" update "i + 1" {
// CHECK-NEXT: sdfg.loop @inner_loop var "j" init "0" cond "j < i" update "j + 1" inverted {
// CHECK-NEXT: sdfg.state @inner
// RUNS-LABEL: executions in @raise_do_while_in_for_loop:
// RUNS: @inner: at most N**2, i in 0:N, j in 0:Max(0, i) + 1
sdfg.sdfg @raise_do_while_in_for_loop(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64, i = i64, j = i64} {
  sdfg.state @start {
  }
  sdfg.state @outer {
  }
  sdfg.state @inner {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %t = sdfg.tasklet "add" ins("x" = %a["j"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
    ^bb0(%x: f64):
      %one = arith.constant 1.0 : f64
      %y = arith.addf %x, %one : f64
      sdfg.yield %y : f64
    }
    %w = sdfg.access %A writes(%t["j"] : f64) : !sdfg.array<f64 ["N"]>
  }
  sdfg.state @done {
  }
  sdfg.edge @start -> @outer assign("i" = "0")
  sdfg.edge @outer -> @inner if "i < N" assign("j" = "0")
  sdfg.edge @outer -> @done if "not (i < N)"
  sdfg.edge @inner -> @inner if "j < i" assign("j" = "j + 1")
  sdfg.edge @inner -> @outer if "not (j < i)" assign("i" = "i + 1")
}

// -----

// A do-while loop whose back edge assigns more than its variable: moved
// into the body, the assignment would also run after the last iteration.
// The loop is left alone.
// CHECK-LABEL: sdfg.sdfg @do_not_raise_do_while_with_back_edge_assignment
// CHECK-NOT: sdfg.loop
sdfg.sdfg @do_not_raise_do_while_with_back_edge_assignment() symbols {N = i64, i = i64, s = i64} {
  sdfg.state @init {
  }
  sdfg.state @body {
  }
  sdfg.state @done {
  }
  sdfg.edge @init -> @body assign("i" = "0", "s" = "1")
  sdfg.edge @body -> @body if "i < N" assign("i" = "i + 1", "s" = "s * 2")
  sdfg.edge @body -> @done if "not (i < N)"
}
