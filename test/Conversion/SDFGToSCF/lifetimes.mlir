// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(convert-sdfg-to-scf)' | FileCheck %s

// A transient sized by a symbol assigned between states and used by several
// states lives from the nearest state dominating its uses to the nearest
// one post-dominating them (lifetimes.rs): here from @body to @latch, once
// per iteration of the loop the edges make.

// CHECK-LABEL: func.func @per_iteration
// CHECK: %[[TMP:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK: call @__tasklet_w
// CHECK: memref.store %{{.*}}, %[[TMP]]
// CHECK: memref.load %[[TMP]]
// CHECK: memref.dealloc %[[TMP]] : memref<?xi64>
// CHECK-NOT: memref.dealloc
// CHECK: return
sdfg.sdfg @per_iteration(%out: !sdfg.array<i64 ["5"]> as "out") symbols {i = i64} {
  %tmp = sdfg.alloc "tmp" : !sdfg.array<i64 ["i + 1"]>
  sdfg.state @init {
  }
  sdfg.state @latch {
    %t = sdfg.access %tmp : !sdfg.array<i64 ["i + 1"]>
    %o = sdfg.access %out writes(%t["i" -> "i"] : !sdfg.array<i64 ["i + 1"]>) : !sdfg.array<i64 ["5"]>
  }
  sdfg.state @guard {
  }
  sdfg.state @body {
    %v = sdfg.tasklet "w" outs("o" : i64) {
      %s = sdfg.sym "10 * i" : i64
      sdfg.yield %s : i64
    }
    %t = sdfg.access %tmp writes(%v["i"] : i64) : !sdfg.array<i64 ["i + 1"]>
  }
  sdfg.state @done {
  }
  sdfg.edge @init -> @guard assign("i" = "0")
  sdfg.edge @guard -> @body if "i < 5"
  sdfg.edge @guard -> @done if "not (i < 5)"
  sdfg.edge @body -> @latch
  sdfg.edge @latch -> @guard assign("i" = "i + 1")
}
