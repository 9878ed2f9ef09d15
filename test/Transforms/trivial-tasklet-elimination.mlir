// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-trivial-tasklet-elimination)' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-trivial-tasklet-elimination,sdfg-validate)' -o /dev/null

// A tasklet that yields its input unchanged between two access nodes
// becomes a copy from the source element to the destination element.
// CHECK-LABEL: sdfg.sdfg @replace_assignment_by_copy
// CHECK: %[[T:.*]] = sdfg.access %t
// CHECK-NOT: sdfg.tasklet
// CHECK: sdfg.access %S writes(%[[T]]["0" -> "0"] : !sdfg.scalar<f64>) : !sdfg.scalar<f64>
sdfg.sdfg @replace_assignment_by_copy(%S: !sdfg.scalar<f64> as "S") {
  %tmp = sdfg.alloc "t" : !sdfg.scalar<f64>
  sdfg.state @s {
    %t = sdfg.access %tmp : !sdfg.scalar<f64>
    %o = sdfg.tasklet "assign" ins("i" = %t["0"] : !sdfg.scalar<f64>) outs("o" : f64) {
    ^bb0(%i: f64):
      sdfg.yield %i : f64
    }
    %s = sdfg.access %S writes(%o["0"] : f64) : !sdfg.scalar<f64>
  }
}

// -----

// An element of an array moves to an element of another array.
// CHECK-LABEL: sdfg.sdfg @replace_element_move_by_copy
// CHECK: %[[A:.*]] = sdfg.access %A
// CHECK: sdfg.access %B writes(%[[A]]["i + 1" -> "2 * i"] : !sdfg.array<f64 ["N"]>)
sdfg.sdfg @replace_element_move_by_copy(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64, i = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %o = sdfg.tasklet "move" ins("x" = %a["i + 1"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) {
    ^bb0(%x: f64):
      sdfg.yield %x : f64
    }
    %b = sdfg.access %B writes(%o["2 * i"] : f64) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// Tasklets that compute, convert between element types, or resolve write
// conflicts stay.
// CHECK-LABEL: sdfg.sdfg @keep_nontrivial_tasklets
// CHECK-COUNT-3: sdfg.tasklet
sdfg.sdfg @keep_nontrivial_tasklets(%A: !sdfg.array<f64 ["4"]> as "A", %B: !sdfg.array<f64 ["4"]> as "B", %C: !sdfg.array<f32 ["4"]> as "C") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4"]>
    %o1 = sdfg.tasklet "negate" ins("x" = %a["0"] : !sdfg.array<f64 ["4"]>) outs("y" : f64) {
    ^bb0(%x: f64):
      %n = arith.negf %x : f64
      sdfg.yield %n : f64
    }
    %o2 = sdfg.tasklet "accumulate" ins("x" = %a["1"] : !sdfg.array<f64 ["4"]>) outs("y" : f64) {
    ^bb0(%x: f64):
      sdfg.yield %x : f64
    }
    %b = sdfg.access %B writes(%o1["0"] : f64, %o2["1", wcr sum] : f64) : !sdfg.array<f64 ["4"]>
    %o3 = sdfg.tasklet "narrow" ins("x" = %a["2"] : !sdfg.array<f64 ["4"]>) outs("y" : f32) {
    ^bb0(%x: f64):
      %t = arith.truncf %x : f64 to f32
      sdfg.yield %t : f32
    }
    %c = sdfg.access %C writes(%o3["2"] : f32) : !sdfg.array<f32 ["4"]>
  }
}
