// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(convert-sdfg-to-scf)' | FileCheck %s

// Streams are arrays of runtime queue handles (memref<?xi64>), created with
// the transient and destroyed with it; elements travel as i64 bits. Every
// runtime call sits in its own alloca_scope (see streams.rs).

// CHECK-DAG: func.func private @sdfg_stream_create() -> i64
// CHECK-DAG: func.func private @sdfg_stream_push(i64, i64)
// CHECK-DAG: func.func private @sdfg_stream_pop(i64) -> i64
// CHECK-DAG: func.func private @sdfg_stream_pop_bulk(i64, i64, i64) -> i64
// CHECK-LABEL: func.func @push_pop
// CHECK: %[[H:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK: scf.for
// CHECK: func.call @sdfg_stream_create() : () -> i64
// CHECK: memref.store %{{.*}}, %[[H]][%{{.*}}] : memref<?xi64>
// A value pushed: its bits, then one push.
// CHECK: %[[B:.*]] = arith.bitcast %{{.*}} : f64 to i64
// CHECK: func.call @sdfg_stream_push(%{{.*}}, %[[B]]) : (i64, i64) -> ()
// A tasklet input from a stream: one pop, bits back to f64.
// CHECK: %[[P:.*]] = func.call @sdfg_stream_pop(%{{.*}}) : (i64) -> i64
// CHECK: arith.bitcast %{{.*}} : i64 to f64
// The handles are destroyed at the function's exit.
// CHECK: func.call @sdfg_stream_destroy
// CHECK: memref.dealloc %[[H]] : memref<?xi64>
sdfg.sdfg @push_pop(%A: !sdfg.array<f64 ["1"]> as "A") {
  %s = sdfg.alloc "s" : !sdfg.stream<f64>
  sdfg.state @push {
    %t = sdfg.tasklet "one" outs("o" : f64) {
      %c = arith.constant 1.5 : f64
      sdfg.yield %c : f64
    }
    %a = sdfg.access %s writes(%t["0"] : f64) : !sdfg.stream<f64>
  }
  sdfg.state @pop {
    %a = sdfg.access %s : !sdfg.stream<f64>
    %t = sdfg.tasklet "twice" ins("x" = %a["0"] : !sdfg.stream<f64>) outs("y" : f64) {
    ^bb0(%x: f64):
      %y = arith.addf %x, %x : f64
      sdfg.yield %y : f64
    }
    %b = sdfg.access %A writes(%t["0"] : f64) : !sdfg.array<f64 ["1"]>
  }
  sdfg.edge @push -> @pop
}

// -----

// A stream copied into an array: a bulk pop of at most the subset's volume
// into consecutive elements from its first one; narrower types are
// truncated back from the i64 bits.
// CHECK-LABEL: func.func @drain
// CHECK: %[[BUF:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK: %[[ADDR:.*]] = memref.extract_aligned_pointer_as_index %[[BUF]]
// CHECK: func.call @sdfg_stream_pop_bulk(%{{.*}}, %{{.*}}, %{{.*}}) : (i64, i64, i64) -> i64
// CHECK: %[[COUNT:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[COUNT]]
// CHECK: arith.trunci %{{.*}} : i64 to i32
// CHECK: %[[I:.*]] = arith.addi %{{.*}}, %[[K]] : index
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[I]]] : memref<?xi32>
sdfg.sdfg @drain(%A: !sdfg.array<i32 ["N"]> as "A") symbols {N = i64} {
  %s = sdfg.alloc "s" : !sdfg.stream<i32>
  sdfg.state @s {
    %a = sdfg.access %s : !sdfg.stream<i32>
    %b = sdfg.access %A writes(%a["0" -> "1:N"] : !sdfg.stream<i32>) : !sdfg.array<i32 ["N"]>
  }
}

// -----

// A consume scope: P processing elements in parallel, each taking elements
// until none is pending, and marking what it took done after the body ran.
// CHECK-LABEL: func.func @consume
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step
// CHECK: %[[CELL:.*]] = memref.alloca(%{{.*}}) : memref<?xi64>
// CHECK: scf.while : () -> i64
// CHECK: %[[N:.*]] = func.call @sdfg_stream_consume_next(%{{.*}}, %{{.*}}, %{{.*}}, %c0_i32) : (i64, i64, i64, i32) -> i64
// CHECK: scf.condition
// CHECK: } do {
// CHECK: ^bb0(%[[TOOK:.*]]: i64):
// CHECK: memref.load %[[CELL]][%{{.*}}] : memref<?xi64>
// CHECK: memref.atomic_rmw addi
// CHECK: func.call @sdfg_stream_consume_done(%{{.*}}, %[[TOOK]]) : (i64, i64) -> ()
sdfg.sdfg @consume(%out: !sdfg.array<i64 ["1"]> as "out") symbols {P = i64} {
  %s = sdfg.alloc "s" : !sdfg.stream<i64>
  sdfg.state @s {
    %a = sdfg.access %s : !sdfg.stream<i64>
    %c = sdfg.consume "c" (%a["0"] : !sdfg.stream<i64>) pe "p" pes "P" outs("out" : !sdfg.array<i64 ["1"]>) {
    ^bb0(%e: i64):
      %t = sdfg.tasklet "add" ins("x" = %e["0", data "s"] : i64) outs("o" : i64) {
      ^bb0(%x: i64):
        sdfg.yield %x : i64
      }
      sdfg.exit ("out" = %t["0", wcr sum] : i64)
    }
    %o = sdfg.access %out writes(%c["0", wcr sum] : !sdfg.array<i64 ["1"]>) : !sdfg.array<i64 ["1"]>
  }
}
