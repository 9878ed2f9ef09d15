// RUN: sdfg-opt %s --pass-pipeline='builtin.module(convert-sdfg-to-scf)' | FileCheck %s
// RUN: sdfg-run %s --function chunks --set N=10 | FileCheck %s --check-prefix=CHUNKS
// RUN: not sdfg-run %s --function stuck 2>&1 | FileCheck %s --check-prefix=STUCK

// Consume scopes that take chunks of elements, and that stop on a
// quiescence condition.

// A chunk: each processing element takes up to 4 elements into a buffer of
// bits, converts them into an array of the stream's element type, and the
// body sees how many it took as `__dace_c_numelems`.
// CHECK-LABEL: func.func @chunks
// CHECK: %[[FOUR:.*]] = arith.constant 4 : index
// CHECK: %[[MAX:.*]] = arith.index_cast %[[FOUR]] : index to i64
// CHECK: scf.parallel
// CHECK: %[[BITS:.*]] = memref.alloca(%[[FOUR]]) : memref<?xi64>
// CHECK: %[[ELEMS:.*]] = memref.alloca(%[[FOUR]]) : memref<?xi32>
// CHECK: scf.while : () -> i64
// CHECK: func.call @sdfg_stream_consume_next(%{{.*}}, %{{.*}}, %[[MAX]], %c0_i32) : (i64, i64, i64, i32) -> i64
// CHECK: } do {
// CHECK: ^bb0(%[[TOOK:.*]]: i64):
// CHECK: %[[COUNT:.*]] = arith.index_cast %[[TOOK]] : i64 to index
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[COUNT]]
// CHECK: %[[B:.*]] = memref.load %[[BITS]][%[[K]]] : memref<?xi64>
// CHECK: %[[E:.*]] = arith.trunci %[[B]] : i64 to i32
// CHECK: memref.store %[[E]], %[[ELEMS]][%[[K]]] : memref<?xi32>
// CHECK: func.call @sdfg_stream_consume_done(%{{.*}}, %[[TOOK]])
// The elements 0..9 sum to 45, in three chunks (4, 4 and 2 elements).
// CHUNKS: out: <i8[2] checksum 4.8000000000e1
sdfg.sdfg @chunks(%out: !sdfg.array<i64 ["2"]> as "out") symbols {N = i64} {
  %s = sdfg.alloc "s" : !sdfg.stream<i32>
  sdfg.state @fill {
    %r = sdfg.map "m" ["i" = "0:N"] schedule Sequential outs("s" : !sdfg.stream<i32>) {
      %v = sdfg.tasklet "w" outs("o" : i32) {
        %i = sdfg.sym "i" : i32
        sdfg.yield %i : i32
      }
      sdfg.exit ("s" = %v["0"] : i32)
    }
    %a = sdfg.access %s writes(%r["0"] : !sdfg.stream<i32>) : !sdfg.stream<i32>
  }
  sdfg.state @init {
    %z = sdfg.map "z" ["j" = "0:2"] outs("out" : !sdfg.array<i64 ["2"]>) {
      %t = sdfg.tasklet "zero" outs("o" : i64) {
        %c = arith.constant 0 : i64
        sdfg.yield %c : i64
      }
      sdfg.exit ("out" = %t["j"] : i64)
    }
    %o = sdfg.access %out writes(%z["0:2"] : !sdfg.array<i64 ["2"]>) : !sdfg.array<i64 ["2"]>
  }
  sdfg.state @sum {
    %a = sdfg.access %s : !sdfg.stream<i32>
    %c = sdfg.consume "c" (%a["0"] : !sdfg.stream<i32>) pe "p" pes "2" chunksize "4" outs("out" : !sdfg.array<i64 ["2"]>) {
    ^bb0(%e: !sdfg.array<i32 ["4"]>):
      %t:2 = sdfg.tasklet "add" ins("x" = %e["0:4", data "s"] : !sdfg.array<i32 ["4"]>) outs("sum" : i64, "one" : i64) {
      ^bb0(%x: memref<4xi32>):
        %n = sdfg.sym "__dace_c_numelems" : index
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %zero = arith.constant 0 : i64
        %sum = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i64) {
          %xk = memref.load %x[%k] : memref<4xi32>
          %wide = arith.extsi %xk : i32 to i64
          %next = arith.addi %acc, %wide : i64
          scf.yield %next : i64
        }
        %one = arith.constant 1 : i64
        sdfg.yield %sum, %one : i64, i64
      }
      sdfg.exit ("out" = %t#0["0", wcr sum] : i64, "out" = %t#1["1", wcr sum] : i64)
    }
    %o = sdfg.access %out writes(%c["0:2", wcr sum] : !sdfg.array<i64 ["2"]>) : !sdfg.array<i64 ["2"]>
  }
  sdfg.edge @fill -> @init
  sdfg.edge @init -> @sum
}

// A quiescence condition that reads data: evaluated (in its own
// alloca_scope) before each take; the runtime does not wait for elements
// then (mode 1), and a stream drained for good makes the condition final:
// if it still does not hold, the program ends.
// CHECK-LABEL: func.func @stuck
// CHECK: scf.while : () -> i64
// CHECK: %[[STOP:.*]] = memref.alloca_scope -> (i1) {
// CHECK: memref.load
// CHECK: arith.cmpi sle
// CHECK: %[[TAKEN:.*]] = scf.if %[[STOP]] -> (i64) {
// CHECK: } else {
// CHECK: %[[GOT:.*]] = func.call @sdfg_stream_consume_next(%{{.*}}, %{{.*}}, %{{.*}}, %c1_i32)
// CHECK: %[[DRAINED:.*]] = arith.cmpi eq, %{{.*}}, %c-2_i64 : i64
// CHECK: scf.if %[[DRAINED]] {
// CHECK: memref.alloca_scope -> (i1)
// CHECK: func.call @sdfg_stream_consume_stuck() : () -> ()
// CHECK: arith.select %[[DRAINED]]
// CHECK: scf.condition(%{{.*}}) %[[TAKEN]] : i64
// STUCK: error: a consume scope drained its stream, but its quiescence condition does not hold (DaCe would wait forever)
// STUCK: sdfg-run: error: the program stopped at a failed check or a runtime error
sdfg.sdfg @stuck(%out: !sdfg.array<i64 ["1"]> as "out") {
  %s = sdfg.alloc "s" : !sdfg.stream<i64>
  sdfg.state @fill {
    %r = sdfg.map "m" ["i" = "0:10"] schedule Sequential outs("s" : !sdfg.stream<i64>) {
      %v = sdfg.tasklet "w" outs("o" : i64) {
        %i = sdfg.sym "i + 1" : i64
        sdfg.yield %i : i64
      }
      sdfg.exit ("s" = %v["0"] : i64)
    }
    %a = sdfg.access %s writes(%r["0"] : !sdfg.stream<i64>) : !sdfg.stream<i64>
  }
  sdfg.state @init {
    %t = sdfg.tasklet "zero" outs("o" : i64) {
      %z = arith.constant 0 : i64
      sdfg.yield %z : i64
    }
    %o = sdfg.access %out writes(%t["0"] : i64) : !sdfg.array<i64 ["1"]>
  }
  sdfg.state @sum {
    %a = sdfg.access %s : !sdfg.stream<i64>
    %c = sdfg.consume "q" (%a["0"] : !sdfg.stream<i64>) pe "p" pes "2" quiescence "out[0] >= 1000" outs("out" : !sdfg.array<i64 ["1"]>) {
    ^bb0(%e: i64):
      %t = sdfg.tasklet "add" ins("x" = %e["0", data "s"] : i64) outs("o" : i64) {
      ^bb0(%x: i64):
        sdfg.yield %x : i64
      }
      sdfg.exit ("out" = %t["0", wcr sum] : i64)
    }
    %o = sdfg.access %out writes(%c["0", wcr sum] : !sdfg.array<i64 ["1"]>) : !sdfg.array<i64 ["1"]>
  }
  sdfg.edge @fill -> @init
  sdfg.edge @init -> @sum
}
