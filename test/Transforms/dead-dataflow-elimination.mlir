// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-dead-dataflow-elimination)' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-dead-dataflow-elimination,sdfg-validate)' -o /dev/null

// A transient written by a map and never read: the write and the map that
// only fed it go, and then the read of A that only fed the map.
// CHECK-LABEL: sdfg.sdfg @remove_unread_map_result
// CHECK: sdfg.state @s {
// CHECK-NEXT: }
sdfg.sdfg @remove_unread_map_result(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64} {
  %t = sdfg.alloc "t" : !sdfg.array<f64 ["N"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %m = sdfg.map "double" ["i" = "0:N"] ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("t" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%ain: !sdfg.array<f64 ["N"]>):
      %o = sdfg.tasklet "double" ins("x" = %ain["i"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        %v = arith.addf %x, %x : f64
        sdfg.yield %v : f64
      }
      sdfg.exit("t" = %o["i"] : f64)
    }
    %tw = sdfg.access %t writes(%m["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// A transient read on an inter-state edge is live; an argument is always
// live; a tasklet with foreign code stays even when its output is dead.
// CHECK-LABEL: sdfg.sdfg @keep_live_and_effectful_writes
// CHECK: sdfg.tasklet "flag"
// CHECK: sdfg.access %flag writes
// CHECK: sdfg.tasklet "out"
// CHECK: sdfg.access %B writes
// CHECK: sdfg.tasklet "foreign"
sdfg.sdfg @keep_live_and_effectful_writes(%B: !sdfg.array<f64 ["1"]> as "B") {
  %flag = sdfg.alloc "flag" : !sdfg.scalar<i64>
  %dead = sdfg.alloc "dead" : !sdfg.scalar<f64>
  sdfg.state @s {
    %f = sdfg.tasklet "flag" outs("o" : i64) {
      %c = arith.constant 1 : i64
      sdfg.yield %c : i64
    }
    %fw = sdfg.access %flag writes(%f["0"] : i64) : !sdfg.scalar<i64>
    %o = sdfg.tasklet "out" outs("o" : f64) {
      %c = arith.constant 2.0 : f64
      sdfg.yield %c : f64
    }
    %b = sdfg.access %B writes(%o["0"] : f64) : !sdfg.array<f64 ["1"]>
    %g = sdfg.tasklet "foreign" outs("o" : f64) code cpp "o = 3.0; printf(\"hi\\n\");"
    %d = sdfg.access %dead writes(%g["0"] : f64) : !sdfg.scalar<f64>
  }
  sdfg.state @e {
  }
  sdfg.edge @s -> @e if "flag > 0"
}

// -----

// An access node with no edge goes, even of an argument (DaCe's validation
// rejects isolated nodes); one that is written stays.
// CHECK-LABEL: sdfg.sdfg @isolated
// CHECK: sdfg.state @s {
// CHECK-NEXT: sdfg.tasklet
// CHECK: sdfg.access %B writes
// CHECK-NOT: sdfg.access
sdfg.sdfg @isolated(%A: !sdfg.array<f64 ["4"]> as "A", %B: !sdfg.array<f64 ["4"]> as "B") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4"]>
    %t = sdfg.tasklet "one" outs("o" : f64) {
      %c = arith.constant 1.0 : f64
      sdfg.yield %c : f64
    }
    %b = sdfg.access %B writes(%t["0"] : f64) : !sdfg.array<f64 ["4"]>
  }
}
