// RUN: sdfg-opt %s -split-input-file --convert-to-sdfg | FileCheck %s

// Static dimensions stay numbers, dynamic ones become symbols; integer
// arguments are symbols (cast to index in the wrapper), float arguments
// scalars; allocations are transients sized by symbolic expressions;
// deallocations go away with them.
// CHECK-LABEL: sdfg.sdfg @containers_sdfg(%arg0: !sdfg.array<f32 ["4", "arg0_d1"]> as "arg0", %arg2: !sdfg.scalar<f32> as "arg2") symbols {arg0_d1 = i64, arg1 = i64}
// CHECK: %[[T:.*]] = sdfg.alloc "tmp" : !sdfg.array<f32 ["arg1", "4"]>
// CHECK: %[[S:.*]] = sdfg.alloc "s" : !sdfg.scalar<f32>
// CHECK-LABEL: func.func @containers(%arg0: memref<4x?xf32>, %arg1: i32, %arg2: f32)
// CHECK: memref.dim %arg0, %{{.*}} : memref<4x?xf32>
// CHECK: arith.index_cast %arg1 : i32 to index
// CHECK: sdfg.invoke @containers_sdfg(%arg0, %{{.*}} : memref<4x?xf32>, memref<f32>) symbols ["arg0_d1", "arg1"]
// CHECK-NOT: memref.dealloc
func.func @containers(%A: memref<4x?xf32>, %n: i32, %a: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ni = arith.index_cast %n : i32 to index
  %t = memref.alloc(%ni) : memref<?x4xf32>
  %s = memref.alloca() : memref<f32>
  memref.store %a, %s[] : memref<f32>
  %v = memref.load %s[] : memref<f32>
  memref.store %v, %t[%c0, %c1] : memref<?x4xf32>
  %w = memref.load %t[%c0, %c1] : memref<?x4xf32>
  memref.store %w, %A[%c1, %c0] : memref<4x?xf32>
  memref.dealloc %t : memref<?x4xf32>
  return
}

// -----

// A subview is the container at shifted, strided subscripts: accesses
// through it are memlets of the container, and a copy of it copies the
// subset (rank-reducing subviews drop their unit dimensions).
// CHECK-LABEL: sdfg.sdfg @views_sdfg
// CHECK: sdfg.access %arg1 writes(%{{.*}}["2, 1:7" -> "0:6"] : !sdfg.array<f64 ["8", "8"]>)
// CHECK: sdfg.map "{{.*}}" ["i" = "0:3"]
// CHECK: ins("__in0" = %{{.*}}["2*i + 1, 3"]
func.func @views(%A: memref<8x8xf64>, %r: memref<6xf64>, %c: memref<3xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %row = memref.subview %A[2, 1] [1, 6] [1, 1] : memref<8x8xf64> to memref<6xf64, strided<[1], offset: 17>>
  memref.copy %row, %r : memref<6xf64, strided<[1], offset: 17>> to memref<6xf64>
  %col = memref.subview %A[1, 3] [3, 1] [2, 1] : memref<8x8xf64> to memref<3xf64, strided<[16], offset: 11>>
  scf.parallel (%i) = (%c0) to (%c3) step (%c1) {
    %v = memref.load %col[%i] : memref<3xf64, strided<[16], offset: 11>>
    memref.store %v, %c[%i] : memref<3xf64>
  }
  return
}

// -----

// A subview of a subview composes offsets and strides; memref.dim of a
// subview is its size.
// CHECK-LABEL: sdfg.sdfg @nested_views_sdfg
// CHECK: sdfg.map "{{.*}}" ["i" = "0:2"]
// CHECK: ins("__in0" = %{{.*}}["3, 4*i + 2"]
func.func @nested_views(%A: memref<8x16xf64>, %y: memref<2xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.subview %A[2, 0] [4, 16] [1, 2] : memref<8x16xf64> to memref<4x16xf64, strided<[16, 2], offset: 32>>
  %b = memref.subview %a[1, 1] [1, 2] [1, 2] : memref<4x16xf64, strided<[16, 2], offset: 32>> to memref<2xf64, strided<[4], offset: 50>>
  %n = memref.dim %b, %c0 : memref<2xf64, strided<[4], offset: 50>>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %b[%i] : memref<2xf64, strided<[4], offset: 50>>
    memref.store %v, %y[%i] : memref<2xf64>
  }
  return
}

// -----

// An argument with a strided layout is a container with its strides
// (symbols where dynamic, bound from extract_strided_metadata in the
// wrapper); the invoke passes the memref as it is.
// CHECK-LABEL: sdfg.sdfg @strided_sdfg(%arg0: !sdfg.array<f64 ["4", "arg0_d1"] strides ["arg0_s0", "1"]> as "arg0")
// CHECK: "__in0" = %{{.*}}["2, 3"]
// CHECK-LABEL: func.func @strided(%arg0: memref<4x?xf64, strided<[?, 1], offset: ?>>)
// CHECK: %{{.*}}, %{{.*}}, %{{.*}}:2, %[[T:.*]]:2 = memref.extract_strided_metadata %arg0
// CHECK: sdfg.invoke @strided_sdfg(%arg0 : memref<4x?xf64, strided<[?, 1], offset: ?>>) symbols ["arg0_d1", "arg0_s0"](%{{.*}}, %[[T]]#0)
func.func @strided(%A: memref<4x?xf64, strided<[?, 1], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %v = memref.load %A[%c2, %c3] : memref<4x?xf64, strided<[?, 1], offset: ?>>
  memref.store %v, %A[%c0, %c0] : memref<4x?xf64, strided<[?, 1], offset: ?>>
  return
}

// -----

// A reinterpretation reads its source's buffer at offset + i * s0 + j * s1,
// unravelled in C order over the container (element (i, 0) is the
// container's ((4*i + 5) // 4, (4*i + 5) % 4), which simplifies);
// extract_strided_metadata gives expressions of the view (the loop bound).
// CHECK-LABEL: sdfg.sdfg @reinterpreted_sdfg
// CHECK: sdfg.loop @{{.*}} var "i" init "0" cond "i < 3" update "i + 1"
// CHECK: "__in0" = %{{.*}}["i + 1, 1"]
func.func @reinterpreted(%A: memref<4x4xf64>, %B: memref<3x1xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = memref.reinterpret_cast %A to offset: [5], sizes: [3, 2], strides: [4, 1] : memref<4x4xf64> to memref<3x2xf64, strided<[4, 1], offset: 5>>
  %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %r : memref<3x2xf64, strided<[4, 1], offset: 5>> -> memref<f64>, index, index, index, index, index
  scf.for %i = %c0 to %sizes#0 step %c1 {
    %v = memref.load %r[%i, %c0] : memref<3x2xf64, strided<[4, 1], offset: 5>>
    memref.store %v, %B[%i, %c0] : memref<3x1xf64>
  }
  return
}
