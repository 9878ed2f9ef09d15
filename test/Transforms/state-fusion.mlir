// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-state-fusion)' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-state-fusion,sdfg-validate)' -o /dev/null
// RUN: sdfg-run %s --function fuse_writes_of_disjoint_parts --set N=6 --seed 3 | FileCheck %s --check-prefix=PARTS
// RUN: sdfg-run %s --function fuse_writes_of_disjoint_parts --set N=6 --seed 3 --pass-pipeline='builtin.module(sdfg-state-fusion)' | FileCheck %s --check-prefix=PARTS

// A write of a scalar and the next state's read of it become one state:
// the read node is the node the write went to, so the read is ordered
// after the write, and the second state's outgoing edge leaves the first.
// CHECK-LABEL: sdfg.sdfg @fuse_write_then_read
// CHECK: sdfg.state @s1 {
// CHECK: %[[T:.*]] = sdfg.tasklet "produce"
// CHECK: %[[X:.*]] = sdfg.access %{{.*}} writes(%[[T]]["0"] : f64) : !sdfg.scalar<f64>
// CHECK-NOT: sdfg.access %{{[a-z0-9_]*}} :
// CHECK: sdfg.tasklet "consume" ins("i" = %[[X]]["0"] : !sdfg.scalar<f64>)
// CHECK: sdfg.access %B writes
// CHECK-NOT: sdfg.state @s2
// CHECK: sdfg.edge @s1 -> @s3 if "N > 0"
sdfg.sdfg @fuse_write_then_read(%B: !sdfg.array<f64 ["1"]> as "B") symbols {N = i64} {
  %x = sdfg.alloc "x" : !sdfg.scalar<f64>
  sdfg.state @s1 {
    %t = sdfg.tasklet "produce" outs("o" : f64) {
      %c = arith.constant 1.0 : f64
      sdfg.yield %c : f64
    }
    %xw = sdfg.access %x writes(%t["0"] : f64) : !sdfg.scalar<f64>
  }
  sdfg.state @s2 {
    %xr = sdfg.access %x : !sdfg.scalar<f64>
    %u = sdfg.tasklet "consume" ins("i" = %xr["0"] : !sdfg.scalar<f64>) outs("o" : f64) {
    ^bb0(%i: f64):
      sdfg.yield %i : f64
    }
    %b = sdfg.access %B writes(%u["0"] : f64) : !sdfg.array<f64 ["1"]>
  }
  sdfg.state @s3 {
  }
  sdfg.edge @s1 -> @s2
  sdfg.edge @s2 -> @s3 if "N > 0"
}

// -----

// Empty states fuse with their neighbours whatever their edges carry
// elsewhere: the chain init -> a -> b -> guard keeps two states (the
// start state has no edge in to take an assignment), and the assignment
// on the last edge moves to the edge into the state it leaves.
// CHECK-LABEL: sdfg.sdfg @fuse_empty_chain
// CHECK: sdfg.state @init {
// CHECK-NEXT: }
// CHECK-NEXT: sdfg.state @b
// CHECK-NOT: sdfg.state
// CHECK: sdfg.edge @init -> @b assign("i" = "0")
sdfg.sdfg @fuse_empty_chain() symbols {i = i64} {
  sdfg.state @init {
  }
  sdfg.state @a {
  }
  sdfg.state @b {
  }
  sdfg.state @guard {
  }
  sdfg.edge @init -> @a
  sdfg.edge @a -> @b
  sdfg.edge @b -> @guard assign("i" = "0")
}

// -----

// The assignment on the fused edge moves onto the edge into the state
// that absorbs the other.
// CHECK-LABEL: sdfg.sdfg @fuse_hoisting_assignment
// CHECK: sdfg.state @init {
// CHECK-NEXT: }
// CHECK-NEXT: sdfg.state @a {
// CHECK-NEXT: }
// CHECK-NEXT: sdfg.edge @init -> @a if "N > 0" assign("i" = "0")
// CHECK-NOT: sdfg.edge
sdfg.sdfg @fuse_hoisting_assignment() symbols {N = i64, i = i64} {
  sdfg.state @init {
  }
  sdfg.state @a {
  }
  sdfg.state @b {
  }
  sdfg.edge @init -> @a if "N > 0"
  sdfg.edge @a -> @b assign("i" = "0")
}

// -----

// The first state reads A into B, the second overwrites A from a constant:
// nothing orders the read before the overwrite in one state, so the states
// stay apart.
// CHECK-LABEL: sdfg.sdfg @do_not_fuse_unordered_write_after_read
// CHECK: sdfg.state @s1
// CHECK: sdfg.state @s2
// CHECK: sdfg.edge @s1 -> @s2
sdfg.sdfg @do_not_fuse_unordered_write_after_read(%A: !sdfg.array<f64 ["1"]> as "A", %B: !sdfg.array<f64 ["1"]> as "B") {
  sdfg.state @s1 {
    %a = sdfg.access %A : !sdfg.array<f64 ["1"]>
    %b = sdfg.access %B writes(%a["0"] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
  }
  sdfg.state @s2 {
    %t = sdfg.tasklet "zero" outs("o" : f64) {
      %c = arith.constant 0.0 : f64
      sdfg.yield %c : f64
    }
    %a = sdfg.access %A writes(%t["0"] : f64) : !sdfg.array<f64 ["1"]>
  }
  sdfg.edge @s1 -> @s2
}

// -----

// Unordered accesses of one container whose subsets provably do not meet
// do not conflict (DaCe's memlet intersection test): the diagonal element
// written first and the rest of the row copied and read afterwards fuse.
// The last state's read of `A[0:2]` then reads the node that `A[0]` was
// written into, which orders it after that write, and `A[2:N]`, written
// by an unordered copy, does not meet it: all three states fuse.
// PARTS: A: <f8[6] checksum 4.0296572252e0
// PARTS: C: <f8[6, 6] checksum 2.0046803209e1
// CHECK-LABEL: sdfg.sdfg @fuse_writes_of_disjoint_parts
// CHECK: sdfg.state @diag {
// CHECK: sdfg.access %C writes(%{{.*}}["1, 1"] : f64)
// CHECK: sdfg.access %A writes(%{{.*}}["1, 2:N" -> "2:N"]
// CHECK: %[[A0:.*]] = sdfg.access %A writes(%{{.*}}["0"] : f64)
// CHECK: sdfg.access %C writes(%[[A0]]["0:2" -> "0, 0:2"]
// CHECK-NOT: sdfg.state
sdfg.sdfg @fuse_writes_of_disjoint_parts(%A: !sdfg.array<f64 ["N"]> as "A", %C: !sdfg.array<f64 ["N", "N"]> as "C") symbols {N = i64} {
  sdfg.state @diag {
    %t = sdfg.tasklet "one" outs("o" : f64) {
      %c = arith.constant 1.0 : f64
      sdfg.yield %c : f64
    }
    %c = sdfg.access %C writes(%t["1, 1"] : f64) : !sdfg.array<f64 ["N", "N"]>
  }
  sdfg.state @rest {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %c = sdfg.access %C writes(%a["2:N" -> "1, 2:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N", "N"]>
    %a2 = sdfg.access %A writes(%c["1, 2:N" -> "2:N"] : !sdfg.array<f64 ["N", "N"]>) : !sdfg.array<f64 ["N"]>
    %t = sdfg.tasklet "two" outs("o" : f64) {
      %c2 = arith.constant 2.0 : f64
      sdfg.yield %c2 : f64
    }
    %a3 = sdfg.access %A writes(%t["0"] : f64) : !sdfg.array<f64 ["N"]>
  }
  sdfg.state @last {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %c = sdfg.access %C writes(%a["0:2" -> "0, 0:2"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N", "N"]>
  }
  sdfg.edge @diag -> @rest
  sdfg.edge @rest -> @last
}

// -----

// The same overwrite fuses when the data it depends on orders it: the
// second state computes A from B, which the first state wrote from A, so
// the read of A comes first along B.
// CHECK-LABEL: sdfg.sdfg @fuse_write_after_read_ordered_by_data
// CHECK: sdfg.state @s1 {
// CHECK: %[[A:.*]] = sdfg.access %A :
// CHECK: %[[B:.*]] = sdfg.access %B writes(%[[A]]["0"]
// CHECK: sdfg.tasklet "double" ins("i" = %[[B]]["0"]
// CHECK: sdfg.access %A writes
// CHECK-NOT: sdfg.state
sdfg.sdfg @fuse_write_after_read_ordered_by_data(%A: !sdfg.array<f64 ["1"]> as "A", %B: !sdfg.array<f64 ["1"]> as "B") {
  sdfg.state @s1 {
    %a = sdfg.access %A : !sdfg.array<f64 ["1"]>
    %b = sdfg.access %B writes(%a["0"] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
  }
  sdfg.state @s2 {
    %b = sdfg.access %B : !sdfg.array<f64 ["1"]>
    %t = sdfg.tasklet "double" ins("i" = %b["0"] : !sdfg.array<f64 ["1"]>) outs("o" : f64) {
    ^bb0(%i: f64):
      %v = arith.addf %i, %i : f64
      sdfg.yield %v : f64
    }
    %a = sdfg.access %A writes(%t["0"] : f64) : !sdfg.array<f64 ["1"]>
  }
  sdfg.edge @s1 -> @s2
}

// -----

// Two unordered writes of the same array (write after write) keep their
// states; so do states joined by a conditional edge, states whose edge
// assigns a symbol that an edge into the first one assigns too, and a
// state with two predecessors.
// CHECK-LABEL: sdfg.sdfg @do_not_fuse
// CHECK-COUNT-5: sdfg.state
// CHECK: sdfg.edge @w1 -> @w2
// CHECK: sdfg.edge @w2 -> @c if "N > 1" assign("k" = "2")
// CHECK: sdfg.edge @c -> @d assign("k" = "1")
// CHECK: sdfg.edge @d -> @c
sdfg.sdfg @do_not_fuse(%A: !sdfg.array<f64 ["1"]> as "A") symbols {N = i64, k = i64} {
  sdfg.state @w1 {
    %t = sdfg.tasklet "one" outs("o" : f64) {
      %c = arith.constant 1.0 : f64
      sdfg.yield %c : f64
    }
    %a = sdfg.access %A writes(%t["0"] : f64) : !sdfg.array<f64 ["1"]>
  }
  sdfg.state @w2 {
    %t = sdfg.tasklet "two" outs("o" : f64) {
      %c = arith.constant 2.0 : f64
      sdfg.yield %c : f64
    }
    %a = sdfg.access %A writes(%t["0"] : f64) : !sdfg.array<f64 ["1"]>
  }
  sdfg.state @c {
  }
  sdfg.state @d {
  }
  sdfg.state @e {
  }
  sdfg.edge @w1 -> @w2
  sdfg.edge @w2 -> @c if "N > 1" assign("k" = "2")
  sdfg.edge @c -> @d assign("k" = "1")
  sdfg.edge @d -> @c
  sdfg.edge @w2 -> @e if "N <= 1"
}

// -----

// States inside a loop region fuse within the loop body.
// CHECK-LABEL: sdfg.sdfg @fuse_in_loop_body
// CHECK: sdfg.loop @loop
// CHECK: sdfg.state @body {
// CHECK: sdfg.tasklet "inc"
// CHECK-NOT: sdfg.state
// CHECK-NOT: sdfg.edge
sdfg.sdfg @fuse_in_loop_body(%A: !sdfg.array<f64 ["10"]> as "A") symbols {i = i64} {
  sdfg.loop @loop var "i" init "0" cond "i < 10" update "i + 1" {
    sdfg.state @body {
    }
    sdfg.state @work {
      %a = sdfg.access %A : !sdfg.array<f64 ["10"]>
      %t = sdfg.tasklet "inc" ins("x" = %a["i"] : !sdfg.array<f64 ["10"]>) outs("o" : f64) {
      ^bb0(%x: f64):
        %c = arith.constant 1.0 : f64
        %v = arith.addf %x, %c : f64
        sdfg.yield %v : f64
      }
      %w = sdfg.access %A writes(%t["i"] : f64) : !sdfg.array<f64 ["10"]>
    }
    sdfg.edge @body -> @work
  }
}

// -----

// An empty state between two edges that carry assignments goes: the edges
// join, with the first one's condition and both assignments. Where the
// second edge reads what the first assigns, the state stays; so does the
// assignment after @keep, whose code reads what it assigns.
// CHECK-LABEL: sdfg.sdfg @absorb_empty_state_between_assignments
// CHECK: sdfg.state @guard
// CHECK: sdfg.state @keep
// CHECK-NOT: sdfg.state @between
// CHECK: sdfg.edge @guard -> @keep if "i < N" assign("s" = "s + 1", "i" = "i + 1")
// CHECK: sdfg.edge @keep -> @reads
// CHECK: sdfg.edge @reads -> @guard assign("k" = "s")
sdfg.sdfg @absorb_empty_state_between_assignments() symbols {N = i64, i = i64, k = i64, s = i64} {
  sdfg.state @guard {
  }
  sdfg.state @between {
  }
  sdfg.state @keep {
    sdfg.tasklet "side" side_effects code cpp "printf(\"%ld\\n\", s);"
  }
  sdfg.state @reads {
  }
  sdfg.edge @guard -> @between if "i < N" assign("s" = "s + 1")
  sdfg.edge @between -> @keep assign("i" = "i + 1")
  sdfg.edge @keep -> @reads assign("s" = "s * 2")
  sdfg.edge @reads -> @guard assign("k" = "s")
}

// -----

// The empty branch state of an if without else stays: joining its edges
// would make a second edge from @branch to @join, which DaCe's state
// machines (graphs, not multigraphs) cannot hold.
// CHECK-LABEL: sdfg.sdfg @keep_empty_state_whose_edges_would_double
// CHECK: sdfg.state @then
// CHECK: sdfg.edge @branch -> @then if "k > 0" assign("s" = "1")
// CHECK: sdfg.edge @then -> @join
sdfg.sdfg @keep_empty_state_whose_edges_would_double() symbols {k = i64, s = i64} {
  sdfg.state @branch {
  }
  sdfg.state @then {
  }
  sdfg.state @join {
    sdfg.tasklet "side" side_effects code cpp "printf(\"hi\\n\");"
  }
  sdfg.edge @branch -> @then if "k > 0" assign("s" = "1")
  sdfg.edge @then -> @join
  sdfg.edge @branch -> @join if "not (k > 0)"
}
