// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-print-executions)' -o /dev/null 2>&1 | FileCheck %s

// A counted loop of a state machine (DaCe's guard, with init and latch
// edges): the body runs N times with i in 0:N, the guard once more, the
// states around it once.
// CHECK-LABEL: executions in @guarded_loop_is_counted:
// CHECK-NEXT: @init: 1
// CHECK-NEXT: @guard: Max(0, N) + 1
// CHECK-NEXT: @body: Max(0, N), i in 0:N
// CHECK-NEXT: @done: 1
sdfg.sdfg @guarded_loop_is_counted() symbols {N = i64, i = i64} {
  sdfg.state @init {
  }
  sdfg.state @guard {
  }
  sdfg.state @body {
  }
  sdfg.state @done {
  }
  sdfg.edge @init -> @guard assign("i" = "0")
  sdfg.edge @guard -> @body if "i < N"
  sdfg.edge @guard -> @done if "not (i < N)"
  sdfg.edge @body -> @guard assign("i" = "i + 1")
}

// -----

// Branches run at most as often as the block that splits, and the block
// where they merge again exactly as often: the two conditions cover every
// case. Without an else, a branch may be skipped.
// CHECK-LABEL: executions in @branches_merge:
// CHECK-NEXT: @split: 1
// CHECK-NEXT: @then: at most 1
// CHECK-NEXT: @else: at most 1
// CHECK-NEXT: @merge: 1
// CHECK-NEXT: @c: 1
// CHECK-NEXT: @only: at most 1
// CHECK-NEXT: @a: at most 1
sdfg.sdfg @branches_merge() symbols {x = i64} {
  sdfg.state @split {
  }
  sdfg.state @then {
  }
  sdfg.state @else {
  }
  sdfg.state @merge {
  }
  sdfg.conditional @c {
    sdfg.branch @only if "x > 0" {
      sdfg.state @a {
      }
    }
  }
  sdfg.edge @split -> @then if "x > 0"
  sdfg.edge @split -> @else if "x <= 0"
  sdfg.edge @then -> @merge
  sdfg.edge @else -> @merge
  sdfg.edge @merge -> @c
}

// -----

// Loop regions nest: the inner range may depend on the outer variable (its
// trip count is then bounded by the largest, N, and an upper bound); a
// break makes the counts upper bounds, and a while loop's are unknown.
// CHECK-LABEL: executions in @loop_regions:
// CHECK-NEXT: @outer: 1
// CHECK-NEXT: @inner: Max(0, N), i in 0:N
// CHECK-NEXT: @check: at most N*Max(0, N), i in 0:N, j in i:N
// CHECK-NEXT: @stop: at most N*Max(0, N), i in 0:N, j in i:N
// CHECK-NEXT: @work: at most N*Max(0, N), i in 0:N, j in i:N
// CHECK-NEXT: @w: 1
// CHECK-NEXT: @spin: unknown
sdfg.sdfg @loop_regions() symbols {N = i64, i = i64, j = i64, n = i64} {
  sdfg.loop @outer var "i" init "0" cond "i < N" update "i + 1" {
    sdfg.loop @inner var "j" init "i" cond "j < N" update "j + 1" {
      sdfg.state @check {
      }
      sdfg.break @stop
      sdfg.state @work {
      }
      sdfg.edge @check -> @stop if "j > 2 * i"
      sdfg.edge @check -> @work if "j <= 2 * i"
    }
  }
  sdfg.loop @w cond "n > 0" {
    sdfg.state @spin {
    }
  }
  sdfg.edge @outer -> @w
}

// -----

// A cycle without a loop guard runs an unknown number of times; a block no
// path reaches runs never.
// CHECK-LABEL: executions in @unstructured_cycle:
// CHECK-NEXT: @a: 1
// CHECK-NEXT: @b: unknown
// CHECK-NEXT: @c: unknown
// CHECK-NEXT: @d: 1
// CHECK-NEXT: @dead: 0
sdfg.sdfg @unstructured_cycle() symbols {x = i64} {
  sdfg.state @a {
  }
  sdfg.state @b {
  }
  sdfg.state @c {
  }
  sdfg.state @d {
  }
  sdfg.state @dead {
  }
  sdfg.edge @a -> @b
  sdfg.edge @b -> @c
  sdfg.edge @c -> @b if "x > 0"
  sdfg.edge @c -> @d if "x <= 0"
}

// -----

// Do-while loops run their body once before the first check. Checking
// before the update (the back edge assigns), the body runs N + 1 times
// with t in 0..=N; updating first, the check sees the next value, so
// u in 0..N-1 (N times, never fewer than 1; sizes are positive). A
// state-machine self-loop is such a loop too.
// CHECK-LABEL: executions in @do_while_loops:
// CHECK-NEXT: @check_first: 1
// CHECK-NEXT: @a: N + 1, t in 0:N + 1
// CHECK-NEXT: @update_first: 1
// CHECK-NEXT: @b: N, u in 0:N
// CHECK-NEXT: @self: N + 1, v in 0:N + 1
// CHECK-NEXT: @done: 1
sdfg.sdfg @do_while_loops(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64, t = i64, u = i64, v = i64} {
  sdfg.loop @check_first var "t" init "0" cond "t < N" update "t + 1" inverted {
    sdfg.state @a {
    }
  }
  sdfg.loop @update_first var "u" init "0" cond "u < N" update "u + 1" inverted update_before_condition {
    sdfg.state @b {
    }
  }
  sdfg.state @self {
  }
  sdfg.state @done {
  }
  sdfg.edge @check_first -> @update_first
  sdfg.edge @update_first -> @self assign("v" = "0")
  sdfg.edge @self -> @self if "v < N" assign("v" = "v + 1")
  sdfg.edge @self -> @done if "not (v < N)"
}
