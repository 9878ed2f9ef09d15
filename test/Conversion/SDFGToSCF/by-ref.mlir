// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(convert-sdfg-to-scf)' | FileCheck %s

// A by_ref output is passed as a view of its memlet's subset; the body's
// stores stay stores, inside the body's own control flow.

// CHECK-LABEL: func.func @conditional
// CHECK: %[[V:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [], strides: [] : memref<?xf64> to memref<f64, strided<[], offset: ?>>
// CHECK: func.call @__tasklet_clip(%{{.*}}, %[[V]]) : (f64, memref<f64, strided<[], offset: ?>>) -> ()
// CHECK: func.func private @__tasklet_clip(%{{.*}}: f64, %[[O:.*]]: memref<f64, strided<[], offset: ?>>)
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %[[O]][] : memref<f64, strided<[], offset: ?>>
sdfg.sdfg @conditional(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %r = sdfg.map "m" ["i" = "0:N"] ins("A" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("A" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%in: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "clip" ins("x" = %in["i"] : !sdfg.array<f64 ["N"]>) outs("y" : f64 by_ref) {
      ^bb0(%x: f64, %y: memref<f64>):
        %zero = arith.constant 0.0 : f64
        %neg = arith.cmpf olt, %x, %zero : f64
        scf.if %neg {
          memref.store %zero, %y[] : memref<f64>
        }
        sdfg.yield
      }
      sdfg.exit ("A" = %t["i", dynamic] : f64)
    }
    %w = sdfg.access %A writes(%r["0:N", dynamic] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// With a write-conflict resolution, every store of the body calls a helper
// that applies it (atomically: the map is parallel and the element shared).

// CHECK-LABEL: func.func private @__write_w_o(%{{.*}}: i64, %{{.*}}: memref<i64, strided<[], offset: ?>>)
// CHECK: memref.atomic_rmw addi %arg0, %arg1[]
// CHECK-LABEL: func.func @accumulate
// CHECK: scf.parallel
// CHECK: func.call @__tasklet_w(
// CHECK-LABEL: func.func private @__tasklet_w(
// CHECK-NOT: memref.store
// CHECK: call @__write_w_o(%arg1, %arg0)
// CHECK-NEXT: call @__write_w_o(%arg1, %arg0)
sdfg.sdfg @accumulate(%out: !sdfg.array<i64 ["1"]> as "out") symbols {N = i64} {
  sdfg.state @s {
    %r = sdfg.map "m" ["i" = "0:N"] outs("out" : !sdfg.array<i64 ["1"]>) {
      %v = sdfg.tasklet "w" outs("o" : i64 by_ref) {
      ^bb0(%o: memref<i64>):
        %i = sdfg.sym "i" : i64
        memref.store %i, %o[] : memref<i64>
        memref.store %i, %o[] : memref<i64>
        sdfg.yield
      }
      sdfg.exit ("out" = %v["0", dynamic, wcr sum] : i64)
    }
    %a = sdfg.access %out writes(%r["0", dynamic, wcr sum] : !sdfg.array<i64 ["1"]>) : !sdfg.array<i64 ["1"]>
  }
}

// -----

// A stream output: the call passes the queue handle, each push in the body
// calls a helper (in its own alloca_scope) that pushes the value's bits.

// CHECK-LABEL: func.func private @__push_w_o(%{{.*}}: i64, %{{.*}}: i32)
// CHECK: func.call @sdfg_stream_push
// CHECK-LABEL: func.func @pushes
// CHECK: %[[H:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<?xi64>
// CHECK: call @__tasklet_w(%[[H]]) : (i64) -> ()
// CHECK-LABEL: func.func private @__tasklet_w(
// CHECK-SAME: %[[S:.*]]: i64)
// CHECK: memref.alloca_scope
// CHECK-NEXT: func.call @__push_w_o(%[[S]], %{{.*}}) : (i64, i32) -> ()
sdfg.sdfg @pushes(%out: !sdfg.array<i32 ["2"]> as "out") {
  %s = sdfg.alloc "s" : !sdfg.stream<i32>
  sdfg.state @fill {
    %v = sdfg.tasklet "w" outs("o" : i32 by_ref) {
    ^bb0(%o: !sdfg.stream<i32>):
      %c = arith.constant 7 : i32
      sdfg.push %o, %c : !sdfg.stream<i32>
      sdfg.yield
    }
    %a = sdfg.access %s writes(%v["0", dynamic] : i32) : !sdfg.stream<i32>
  }
  sdfg.state @drain {
    %a = sdfg.access %s : !sdfg.stream<i32>
    %o = sdfg.access %out writes(%a["0" -> "0:2"] : !sdfg.stream<i32>) : !sdfg.array<i32 ["2"]>
  }
  sdfg.edge @fill -> @drain
}
