// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(convert-sdfg-to-scf)' | FileCheck %s

// A reference keeps its target and base index in two index variables: a
// node that sets it stores them, and every node reads them, selecting the
// target's memref with scf.index_switch and indexing from the base through
// the reference's own strides.

// CHECK-LABEL: func.func @choose
// CHECK-SAME: (%[[A:.*]]: memref<?xf64>, %[[B:.*]]: memref<?xf64>, %[[C:.*]]: memref<?xf64>, %{{.*}}: index)
// CHECK: %[[SEL:.*]] = memref.alloca() : memref<index>
// CHECK: %[[BASE:.*]] = memref.alloca() : memref<index>
// Pointed at A[2:N]: target 0, base 2.
// CHECK: %[[TWO:.*]] = arith.constant 2 : index
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: memref.store %[[ZERO]], %[[SEL]][] : memref<index>
// CHECK: memref.store %[[TWO]], %[[BASE]][] : memref<index>
// Pointed at B: target 1.
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: memref.store %[[ONE]], %[[SEL]][] : memref<index>
// Read through the reference in the state after the two branches.
// CHECK: 2 preds
// CHECK: %[[S:.*]] = memref.load %[[SEL]][] : memref<index>
// CHECK: %[[M:.*]] = scf.index_switch %[[S]] -> memref<?xf64>
// CHECK: case 1 {
// CHECK: scf.yield %[[B]] : memref<?xf64>
// CHECK: default {
// CHECK: scf.yield %[[A]] : memref<?xf64>
// CHECK: %[[OFF:.*]] = memref.load %[[BASE]][] : memref<index>
// CHECK: scf.for
// CHECK: %[[I:.*]] = arith.addi %[[OFF]], %{{.*}} : index
// CHECK: memref.load %[[M]][%[[I]]] : memref<?xf64>
sdfg.sdfg @choose(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B", %C: !sdfg.array<f64 ["2"]> as "C") symbols {N = i64} {
  %r = sdfg.alloc "r" : !sdfg.ref<f64 ["2"]>
  sdfg.state @start {
  }
  sdfg.state @a {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %ra = sdfg.access %r bind(%a ["2:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.ref<f64 ["2"]>
  }
  sdfg.state @b {
    %b = sdfg.access %B : !sdfg.array<f64 ["N"]>
    %rb = sdfg.access %r bind(%b ["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.ref<f64 ["2"]>
  }
  sdfg.state @read {
    %r0 = sdfg.access %r : !sdfg.ref<f64 ["2"]>
    %c = sdfg.access %C writes(%r0["0:2" -> "0:2"] : !sdfg.ref<f64 ["2"]>) : !sdfg.array<f64 ["2"]>
  }
  sdfg.edge @start -> @a if "N > 4"
  sdfg.edge @start -> @b if "N <= 4"
  sdfg.edge @a -> @read
  sdfg.edge @b -> @read
}
