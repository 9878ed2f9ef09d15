// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-raise-branches)' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-raise-branches,sdfg-validate)' -o /dev/null
// RUN: sdfg-run %s --function raise_if_else --set x=3 | FileCheck %s --check-prefix=POS
// RUN: sdfg-run %s --function raise_if_else --set x=3 --pass-pipeline='builtin.module(sdfg-raise-branches)' | FileCheck %s --check-prefix=POS
// RUN: sdfg-run %s --function raise_if_else --set x=-2 | FileCheck %s --check-prefix=NEG
// RUN: sdfg-run %s --function raise_if_else --set x=-2 --pass-pipeline='builtin.module(sdfg-raise-branches)' | FileCheck %s --check-prefix=NEG

// An if/else whose paths merge becomes a conditional followed by the merge
// block, its branches in the order of the edges; each edge's assignment
// moves to an edge from its branch's start state, and the merge block
// reads it (B[1] = y).
// POS: B: <f8[2] checksum 1.3000000000e1
// NEG: B: <f8[2] checksum 3.0000000000e0
// CHECK-LABEL: sdfg.sdfg @raise_if_else
// CHECK: sdfg.state @split
// CHECK: sdfg.conditional @split_branches {
// CHECK-NEXT: sdfg.branch @pos_branch if "x > 0" {
// CHECK-NEXT: sdfg.state @pos_branch_start {
// CHECK: sdfg.state @pos {
// CHECK: sdfg.edge @pos_branch_start -> @pos assign("y" = "3")
// CHECK: sdfg.branch @neg_branch if "x <= 0" {
// CHECK-NEXT: sdfg.state @neg_branch_start {
// CHECK: sdfg.state @neg {
// CHECK: sdfg.edge @neg_branch_start -> @neg assign("y" = "2")
// CHECK: sdfg.state @merge
// CHECK-DAG: sdfg.edge @split -> @split_branches{{$}}
// CHECK-DAG: sdfg.edge @split_branches -> @merge{{$}}
sdfg.sdfg @raise_if_else(%B: !sdfg.array<f64 ["2"]> as "B") symbols {x = i64, y = i64} {
  sdfg.state @split {
  }
  sdfg.state @pos {
    %t = sdfg.tasklet "p" outs("o" : f64) {
      %v = sdfg.sym "10" : f64
      sdfg.yield %v : f64
    }
    %b = sdfg.access %B writes(%t["0"] : f64) : !sdfg.array<f64 ["2"]>
  }
  sdfg.state @neg {
    %t = sdfg.tasklet "n" outs("o" : f64) {
      %v = sdfg.sym "1" : f64
      sdfg.yield %v : f64
    }
    %b = sdfg.access %B writes(%t["0"] : f64) : !sdfg.array<f64 ["2"]>
  }
  sdfg.state @merge {
    %t = sdfg.tasklet "m" outs("o" : f64) {
      %v = sdfg.sym "y" : f64
      sdfg.yield %v : f64
    }
    %b = sdfg.access %B writes(%t["1"] : f64) : !sdfg.array<f64 ["2"]>
  }
  sdfg.edge @split -> @pos if "x > 0" assign("y" = "3")
  sdfg.edge @split -> @neg if "x <= 0" assign("y" = "2")
  sdfg.edge @pos -> @merge
  sdfg.edge @neg -> @merge
}

// -----

// An if without else (the other edge goes straight to the merge block) has
// an empty branch; the paths need not be single blocks.
// CHECK-LABEL: sdfg.sdfg @raise_if_without_else
// CHECK: sdfg.conditional @s_branches {
// CHECK-NEXT: sdfg.branch @a_branch if "x > 0" {
// CHECK-NEXT: sdfg.state @a {
// CHECK: sdfg.state @b {
// CHECK: sdfg.edge @a -> @b
// CHECK: sdfg.branch @s_branches_empty_branch if "x <= 0" {
// CHECK-NEXT: }
sdfg.sdfg @raise_if_without_else() symbols {x = i64} {
  sdfg.state @s {
  }
  sdfg.state @a {
  }
  sdfg.state @b {
  }
  sdfg.state @m {
  }
  sdfg.edge @s -> @a if "x > 0"
  sdfg.edge @a -> @b
  sdfg.edge @b -> @m
  sdfg.edge @s -> @m if "x <= 0"
}

// -----

// Conditions that do not cover every case stop the state machine where a
// conditional would go on, and a path that runs into another one (c -> d)
// is no branch: neither split is raised.
// CHECK-LABEL: sdfg.sdfg @do_not_raise_partial_or_crossing_paths
// CHECK-NOT: sdfg.conditional
sdfg.sdfg @do_not_raise_partial_or_crossing_paths() symbols {x = i64, y = i64} {
  sdfg.state @s {
  }
  sdfg.state @a {
  }
  sdfg.state @b {
  }
  sdfg.state @m {
  }
  sdfg.state @t {
  }
  sdfg.state @c {
  }
  sdfg.state @d {
  }
  sdfg.state @e {
  }
  sdfg.edge @s -> @a if "x > 0"
  sdfg.edge @s -> @b if "x < 0"
  sdfg.edge @a -> @m
  sdfg.edge @b -> @m
  sdfg.edge @m -> @t
  sdfg.edge @t -> @c if "x > 1"
  sdfg.edge @t -> @d if "x <= 1"
  sdfg.edge @c -> @d if "y > 0"
  sdfg.edge @c -> @e if "y <= 0"
  sdfg.edge @d -> @e
}
