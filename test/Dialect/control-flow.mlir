// RUN: sdfg-opt %s -split-input-file | sdfg-opt -split-input-file | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --mlir-print-op-generic | sdfg-opt -split-input-file | FileCheck %s

// Round trips of the SDFG op and the control-flow ops: states, inter-state
// edges, loops, conditionals, regions, call regions and jump blocks.

// The SDFG prints its arguments with their DaCe names, its symbols and
// extra attributes such as constants; arguments take their DaCe names.
// CHECK-LABEL: sdfg.sdfg @signature
// CHECK-SAME: (%A: !sdfg.array<f64 ["N"]> as "A", %x.y: !sdfg.scalar<f32> as "x.y")
// CHECK-SAME: symbols {M = i32, N = i64, k = index}
// CHECK-SAME: attributes {constants = {C = 3 : i64}}
// CHECK-NEXT: sdfg.state @start {
sdfg.sdfg @signature(%A: !sdfg.array<f64 ["N"]> as "A", %x: !sdfg.scalar<f32> as "x.y")
    symbols {N = i64, M = i32, k = index} attributes {constants = {C = 3 : i64}} {
  sdfg.state @start {
  }
}

// -----

// States are joined by edges with an optional condition and assignments;
// an edge without either prints only its endpoints.
// CHECK-LABEL: sdfg.sdfg @state_machine
// CHECK: sdfg.state @init {
// CHECK: sdfg.state @guard {
// CHECK: sdfg.state @body {
// CHECK: sdfg.state @done {
// CHECK: sdfg.edge @init -> @guard assign("i" = "0")
// CHECK: sdfg.edge @guard -> @body if "i < N"
// CHECK: sdfg.edge @body -> @guard assign("i" = "i + 1", "j" = "j + 2")
// CHECK: sdfg.edge @guard -> @done if "not (i < N)"
// CHECK: sdfg.edge @done -> @init{{$}}
sdfg.sdfg @state_machine() symbols {N = i64, i = i64, j = i64} {
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
  sdfg.edge @body -> @guard assign("i" = "i + 1", "j" = "j + 2")
  sdfg.edge @guard -> @done if "not (i < N)"
  sdfg.edge @done -> @init
}

// -----

// A for loop keeps its variable, init, condition and update.
// CHECK-LABEL: sdfg.sdfg @for_loop
// CHECK: sdfg.loop @time var "t" init "0" cond "t < T" update "t + 1" {
// CHECK-NEXT: sdfg.state @step {
sdfg.sdfg @for_loop() symbols {T = i64, t = i64} {
  sdfg.loop @time var "t" init "0" cond "t < T" update "t + 1" {
    sdfg.state @step {
    }
  }
}

// -----

// A while loop has only a condition; a do-while loop is `inverted` and may
// update before checking the condition.
// CHECK-LABEL: sdfg.sdfg @while_loops
// CHECK: sdfg.loop @w cond "n > 0" {
// CHECK: sdfg.loop @dw var "i" init "N" cond "i > 0" update "i - 1" inverted update_before_condition {
// CHECK: sdfg.loop @inv var "j" cond "j < 10" inverted {
// CHECK: sdfg.edge @w -> @dw
sdfg.sdfg @while_loops() symbols {N = i64, i = i64, j = i64, n = i64} {
  sdfg.loop @w cond "n > 0" {
    sdfg.state @ws {
    }
  }
  sdfg.loop @dw var "i" init "N" cond "i > 0" update "i - 1" inverted update_before_condition {
    sdfg.state @dws {
    }
  }
  sdfg.loop @inv var "j" cond "j < 10" inverted {
    sdfg.state @invs {
    }
  }
  sdfg.edge @w -> @dw
  sdfg.edge @dw -> @inv
}

// -----

// Loops nest, and inner control flow is a graph with its own edges,
// break and continue blocks.
// CHECK-LABEL: sdfg.sdfg @nested_loops
// CHECK: sdfg.loop @outer var "i" init "0" cond "i < N" update "i + 1" {
// CHECK:   sdfg.loop @inner var "j" init "0" cond "j < N" update "j + 1" {
// CHECK:     sdfg.state @check {
// CHECK:     sdfg.break @stop
// CHECK:     sdfg.continue @next
// CHECK:     sdfg.state @work {
// CHECK:     sdfg.edge @check -> @stop if "j > i"
// CHECK:     sdfg.edge @check -> @next if "j == i"
// CHECK:     sdfg.edge @check -> @work if "j < i"
sdfg.sdfg @nested_loops() symbols {N = i64, i = i64, j = i64} {
  sdfg.loop @outer var "i" init "0" cond "i < N" update "i + 1" {
    sdfg.loop @inner var "j" init "0" cond "j < N" update "j + 1" {
      sdfg.state @check {
      }
      sdfg.break @stop
      sdfg.continue @next
      sdfg.state @work {
      }
      sdfg.edge @check -> @stop if "j > i"
      sdfg.edge @check -> @next if "j == i"
      sdfg.edge @check -> @work if "j < i"
    }
  }
}

// -----

// A conditional holds branches with conditions and a final else branch.
// CHECK-LABEL: sdfg.sdfg @conditional
// CHECK: sdfg.conditional @sign {
// CHECK-NEXT: sdfg.branch @pos if "x > 0" {
// CHECK-NEXT: sdfg.state @p {
// CHECK: sdfg.branch @zero if "x == 0" {
// CHECK: sdfg.branch @neg {
// CHECK-NEXT: sdfg.state @n {
sdfg.sdfg @conditional() symbols {x = i64} {
  sdfg.conditional @sign {
    sdfg.branch @pos if "x > 0" {
      sdfg.state @p {
      }
    }
    sdfg.branch @zero if "x == 0" {
      sdfg.state @z {
      }
    }
    sdfg.branch @neg {
      sdfg.state @n {
      }
    }
  }
}

// -----

// A conditional needs no else branch, and a branch may itself be a
// control-flow graph with a return block.
// CHECK-LABEL: sdfg.sdfg @conditional_no_else
// CHECK: sdfg.conditional @c {
// CHECK-NEXT: sdfg.branch @only if "x > 0" {
// CHECK: sdfg.state @a {
// CHECK: sdfg.return @r
// CHECK: sdfg.edge @a -> @r
sdfg.sdfg @conditional_no_else() symbols {x = i64} {
  sdfg.conditional @c {
    sdfg.branch @only if "x > 0" {
      sdfg.state @a {
      }
      sdfg.return @r
      sdfg.edge @a -> @r
    }
  }
}

// -----

// Regions and call regions are control-flow blocks with their own graphs;
// a call region maps parameter names to caller data or expressions.
// CHECK-LABEL: sdfg.sdfg @regions
// CHECK: sdfg.region @phase {
// CHECK-NEXT: sdfg.state @a {
// CHECK: sdfg.edge @a -> @b
// CHECK: sdfg.call_region @f args("a" = "A", "n" = "N - 1") {
// CHECK-NEXT: sdfg.state @fbody {
// CHECK: sdfg.call_region @g {
// CHECK: sdfg.edge @phase -> @f
sdfg.sdfg @regions(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64} {
  sdfg.region @phase {
    sdfg.state @a {
    }
    sdfg.state @b {
    }
    sdfg.edge @a -> @b
  }
  sdfg.call_region @f args("a" = "A", "n" = "N - 1") {
    sdfg.state @fbody {
    }
  }
  sdfg.call_region @g {
    sdfg.state @gbody {
    }
  }
  sdfg.edge @phase -> @f
  sdfg.edge @f -> @g
}

// -----

// Jump blocks: return is allowed anywhere, break and continue in any
// control-flow region nested (possibly deeply) in a loop.
// CHECK-LABEL: sdfg.sdfg @jumps
// CHECK: sdfg.return @early
// CHECK: sdfg.loop @l cond "True" {
// CHECK: sdfg.region @r {
// CHECK: sdfg.conditional @c {
// CHECK: sdfg.branch @b if "n > 3" {
// CHECK: sdfg.break @out
// CHECK: sdfg.branch @e {
// CHECK: sdfg.continue @again
// CHECK: sdfg.edge @start -> @early if "n < 0"
sdfg.sdfg @jumps() symbols {n = i64} {
  sdfg.state @start {
  }
  sdfg.return @early
  sdfg.loop @l cond "True" {
    sdfg.region @r {
      sdfg.conditional @c {
        sdfg.branch @b if "n > 3" {
          sdfg.break @out
        }
        sdfg.branch @e {
          sdfg.continue @again
        }
      }
    }
  }
  sdfg.edge @start -> @early if "n < 0"
  sdfg.edge @start -> @l if "n >= 0"
}

// -----

// Several SDFGs may live in one module; control-flow blocks may carry extra
// attributes.
// CHECK-LABEL: sdfg.sdfg @first
// CHECK: sdfg.state @s attributes {note = "kept"} {
// CHECK-LABEL: sdfg.sdfg @second
// CHECK: sdfg.loop @l cond "False" attributes {note = 1 : i64} {
sdfg.sdfg @first() {
  sdfg.state @s attributes {note = "kept"} {
  }
}
sdfg.sdfg @second() {
  sdfg.loop @l cond "False" attributes {note = 1 : i64} {
    sdfg.state @s {
    }
  }
}
