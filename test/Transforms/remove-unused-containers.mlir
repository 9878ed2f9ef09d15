// RUN: sdfg-opt %s --pass-pipeline='builtin.module(sdfg-remove-unused-containers)' | FileCheck %s

// A transient no access node uses goes; one an inter-state condition
// reads by name stays, and so does one that is accessed.
// CHECK-LABEL: sdfg.sdfg @remove_only_unnamed_unused
// CHECK-NOT: sdfg.alloc "unused"
// CHECK: sdfg.alloc "flag"
// CHECK: sdfg.alloc "used"
// CHECK-NOT: sdfg.alloc "unused"
sdfg.sdfg @remove_only_unnamed_unused() {
  %unused = sdfg.alloc "unused" : !sdfg.array<f64 ["8"]>
  %flag = sdfg.alloc "flag" : !sdfg.scalar<i32>
  %used = sdfg.alloc "used" : !sdfg.scalar<f64>
  sdfg.state @s {
    %t = sdfg.tasklet "one" outs("o" : f64) {
      %c = arith.constant 1.0 : f64
      sdfg.yield %c : f64
    }
    %u = sdfg.access %used writes(%t["0"] : f64) : !sdfg.scalar<f64>
  }
  sdfg.state @e {
  }
  sdfg.edge @s -> @e if "flag > 0"
}
