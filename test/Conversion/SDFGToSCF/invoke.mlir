// RUN: sdfg-opt %s -split-input-file --convert-sdfg-to-scf | FileCheck %s

// An invoke calls an adapter that flattens each memref to the SDFG's
// C interface (memref<?xT>, memref<T> for scalars) and passes the symbols
// in the interface's order, whatever order the invoke binds them in.
// CHECK-LABEL: func.func private @__invoke_prog(
// CHECK-SAME: %[[A2:.*]]: memref<4x?xf64>, %[[S2:.*]]: memref<f64>, %[[M2:.*]]: index, %[[N2:.*]]: index)
// CHECK: %[[F:.*]] = memref.collapse_shape %[[A2]] {{\[\[}}0, 1]] : memref<4x?xf64> into memref<?xf64>
// CHECK: call @prog(%[[F]], %[[S2]], %[[M2]], %[[N2]]) : (memref<?xf64>, memref<f64>, index, index) -> ()
// CHECK-LABEL: func.func @caller(
// CHECK-SAME: %[[A:.*]]: memref<4x?xf64>, %[[S:.*]]: memref<f64>, %[[M:.*]]: index, %[[N:.*]]: index)
// CHECK: call @__invoke_prog(%[[A]], %[[S]], %[[M]], %[[N]]) : (memref<4x?xf64>, memref<f64>, index, index) -> ()
sdfg.sdfg @prog(%A: !sdfg.array<f64 ["4", "N"]> as "A", %s: !sdfg.scalar<f64> as "s") symbols {M = i64, N = i64} {
  sdfg.state @s {
  }
}
func.func @caller(%A: memref<4x?xf64>, %s: memref<f64>, %m: index, %n: index) {
  sdfg.invoke @prog(%A, %s : memref<4x?xf64>, memref<f64>) symbols ["N", "M"](%n, %m)
  return
}

// -----

// A static memref is collapsed, then cast to the dynamic size.
// CHECK-LABEL: func.func private @__invoke_flat
// CHECK: %[[C:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0, 1]] : memref<2x3xf32> into memref<6xf32>
// CHECK: %[[D:.*]] = memref.cast %[[C]] : memref<6xf32> to memref<?xf32>
// CHECK: call @flat(%[[D]])
sdfg.sdfg @flat(%A: !sdfg.array<f32 ["2", "3"]> as "A") {
  sdfg.state @s {
  }
}
func.func @static(%A: memref<2x3xf32>) {
  sdfg.invoke @flat(%A : memref<2x3xf32>) symbols []()
  return
}


// -----

// A strided memref is passed from its first element: the buffer from the
// base at its offset, whose descriptor takes the offset into its aligned
// pointer (a memref<?xT> has offset 0).
// CHECK-LABEL: func.func private @__invoke_column
// CHECK-SAME: (%[[A:.*]]: memref<?xf64, strided<[?], offset: ?>>, %{{.*}}: index, %{{.*}}: index)
// CHECK: %[[B:.*]], %[[O:.*]], %[[Z:.*]], %[[T:.*]] = memref.extract_strided_metadata %[[A]]
// CHECK: %[[V:.*]] = memref.reinterpret_cast %[[B]] to offset: [%[[O]]], sizes: [%{{.*}}], strides: [1] : memref<f64> to memref<?xf64, strided<[1], offset: ?>>
// CHECK: %[[D:.*]] = builtin.unrealized_conversion_cast %[[V]]
// CHECK: %[[P:.*]] = llvm.getelementptr
// CHECK: %[[F:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> to memref<?xf64>
// CHECK: call @column(%[[F]], %{{.*}}, %{{.*}}) : (memref<?xf64>, index, index) -> ()
sdfg.sdfg @column(%x: !sdfg.array<f64 ["N"] strides ["S"]> as "x") symbols {N = i64, S = i64} {
  sdfg.state @s {
  }
}
func.func @strided(%x: memref<?xf64, strided<[?], offset: ?>>, %n: index, %s: index) {
  sdfg.invoke @column(%x : memref<?xf64, strided<[?], offset: ?>>) symbols ["N", "S"](%n, %s)
  return
}
