// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(convert-sdfg-to-scf)' | FileCheck %s
// RUN: sdfg-run %s --function around_a_conditional --seed 1 --set x=1 | FileCheck %s --check-prefix=POS
// RUN: sdfg-run %s --function around_a_conditional --seed 1 --set x=0 | FileCheck %s --check-prefix=NEG
// RUN: sdfg-run %s --function allocated_once_for_a_sequential_map --set N=5 | FileCheck %s --check-prefix=ROWS

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

// -----

// Uses in two branches of a conditional are uses of the conditional: the
// transient lives from the state that dominates it (@split, after n is
// assigned) to the one that post-dominates it (@merge). Each branch writes
// its element of out (the other keeps its random input).
// POS: out: <f8[2] checksum 1.6990740190e0
// NEG: out: <f8[2] checksum 2.1197146868e0
// CHECK-LABEL: func.func @around_a_conditional
// CHECK: memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: cf.cond_br
// CHECK: memref.dealloc %{{.*}} : memref<?xf64>
// CHECK: return
sdfg.sdfg @around_a_conditional(%out: !sdfg.array<f64 ["2"]> as "out") symbols {n = i64, x = i64} {
  %tmp = sdfg.alloc "tmp" : !sdfg.array<f64 ["n"]>
  sdfg.state @init {
  }
  sdfg.state @split {
  }
  sdfg.conditional @c {
    sdfg.branch @pos if "x > 0" {
      sdfg.state @a {
        %v = sdfg.tasklet "one" outs("o" : f64) {
          %s = sdfg.sym "1" : f64
          sdfg.yield %s : f64
        }
        %t = sdfg.access %tmp writes(%v["0"] : f64) : !sdfg.array<f64 ["n"]>
        %o = sdfg.access %out writes(%t["0" -> "0"] : !sdfg.array<f64 ["n"]>) : !sdfg.array<f64 ["2"]>
      }
    }
    sdfg.branch @neg {
      sdfg.state @b {
        %v = sdfg.tasklet "two" outs("o" : f64) {
          %s = sdfg.sym "2" : f64
          sdfg.yield %s : f64
        }
        %t = sdfg.access %tmp writes(%v["1"] : f64) : !sdfg.array<f64 ["n"]>
        %o = sdfg.access %out writes(%t["1" -> "1"] : !sdfg.array<f64 ["n"]>) : !sdfg.array<f64 ["2"]>
      }
    }
  }
  sdfg.state @merge {
  }
  sdfg.edge @init -> @split assign("n" = "2")
  sdfg.edge @split -> @c
  sdfg.edge @c -> @merge
}

// -----

// A transient private to a map whose size does not name the map's
// parameters is allocated once, before the map's sequential loop, and each
// iteration reuses it (a scope's transient starts undefined); it is freed
// after the loop. out[i] = 2 * i.
// ROWS: out: <f8[5] checksum 2.0000000000e1
// CHECK-LABEL: func.func @allocated_once_for_a_sequential_map
// CHECK: %[[T:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: scf.for
// CHECK-NOT: memref.alloc
// CHECK: scf.for
// CHECK-NOT: memref.alloc
// CHECK: memref.store %{{.*}}, %[[T]]
// CHECK: }
// CHECK-NEXT: memref.dealloc %[[T]]
sdfg.sdfg @allocated_once_for_a_sequential_map(%out: !sdfg.array<f64 ["N"]> as "out") symbols {N = i64} {
  %t = sdfg.alloc "t" : !sdfg.array<f64 ["2"]>
  sdfg.state @s {
    %m = sdfg.map "rows" ["i" = "0:N"] schedule Sequential outs("out" : !sdfg.array<f64 ["N"]>) {
      %v = sdfg.tasklet "w" outs("o" : f64) {
        %s = sdfg.sym "i" : f64
        sdfg.yield %s : f64
      }
      %tw = sdfg.access %t writes(%v["1"] : f64) : !sdfg.array<f64 ["2"]>
      %o = sdfg.tasklet "twice" ins("x" = %tw["1"] : !sdfg.array<f64 ["2"]>) outs("o" : f64) {
      ^bb0(%x: f64):
        %y = arith.addf %x, %x : f64
        sdfg.yield %y : f64
      }
      sdfg.exit("out" = %o["i"] : f64)
    }
    %ow = sdfg.access %out writes(%m["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}
