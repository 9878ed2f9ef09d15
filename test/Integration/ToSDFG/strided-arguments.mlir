// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// Functions whose arguments have strided layouts, called on parts of a
// matrix. Each container is the memref as DaCe sees a NumPy view: from its
// first element, with the memref's strides (symbols the wrapper binds
// where they are dynamic). The invoke passes the memref as it is.

// SDFG-LABEL: sdfg.sdfg @scale_sdfg
// SDFG-SAME: !sdfg.array<f64 ["arg0_d0", "arg0_d1"] strides ["arg0_s0", "arg0_s1"]> as "arg0"
// SDFG: sdfg.tasklet {{.*}} ins("__in0" = %{{.*}}["i, j"]
// SDFG-LABEL: func.func @scale(
// SDFG: %{{.*}}, %{{.*}}, %{{.*}}:2, %[[T:.*]]:2 = memref.extract_strided_metadata %arg0
// SDFG: sdfg.invoke @scale_sdfg(%arg0, %{{.*}} : memref<?x?xf64, strided<[?, ?], offset: ?>>, memref<f64>) symbols ["arg0_d0", "arg0_d1", "arg0_s0", "arg0_s1"](%{{.*}}, %{{.*}}, %[[T]]#0, %[[T]]#1)
// SDFG-LABEL: sdfg.sdfg @row_sums_sdfg
// SDFG-SAME: !sdfg.array<f64 ["3", "arg0_d1"] strides ["8", "1"]> as "arg0"
// SDFG-SAME: !sdfg.array<f64 ["arg1_d0"] strides ["arg1_s0"]> as "arg1"
// SDFG-LABEL: func.func @row_sums(
// SDFG-NOT: memref.extract_strided_metadata %arg0
// SDFG: sdfg.invoke @row_sums_sdfg(%arg0, %arg1 : memref<3x?xf64, strided<[8, 1], offset: 9>>, memref<?xf64, strided<[?], offset: ?>>)

// CHECK: {{\[\[}}0,   1,   2,   3,   4,   5,   6,   55],
// CHECK-NEXT:  [8,   9,   10,   11,   12,   13,   14,   15],
// CHECK-NEXT:  [16,   17,   9,   19,   11,   21,   13,   77],
// CHECK-NEXT:  [24,   25,   13,   27,   15,   29,   17,   31],
// CHECK-NEXT:  [32,   33,   17,   35,   19,   37,   21,   109],
// CHECK-NEXT:  [40,   41,   21,   43,   23,   45,   25,   47],
// CHECK-NEXT:  [48,   49,   50,   51,   52,   53,   54,   55],
// CHECK-NEXT:  [56,   57,   58,   59,   60,   61,   62,   63]]

func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}

// Fully dynamic layout, as one-shot bufferization gives function arguments.
func.func @scale(%x: memref<?x?xf64, strided<[?, ?], offset: ?>>, %a: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?x?xf64, strided<[?, ?], offset: ?>>
  %m = memref.dim %x, %c1 : memref<?x?xf64, strided<[?, ?], offset: ?>>
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<?x?xf64, strided<[?, ?], offset: ?>>
    %w = arith.mulf %v, %a : f64
    %k = arith.index_cast %j : index to i64
    %f = arith.sitofp %k : i64 to f64
    %u = arith.addf %w, %f : f64
    memref.store %u, %x[%i, %j] : memref<?x?xf64, strided<[?, ?], offset: ?>>
  }
  return
}

// A unit innermost stride and a static offset; a row sum into a vector.
func.func @row_sums(%x: memref<3x?xf64, strided<[8, 1], offset: 9>>, %y: memref<?xf64, strided<[?], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %m = memref.dim %x, %c1 : memref<3x?xf64, strided<[8, 1], offset: 9>>
  scf.for %i = %c0 to %c3 step %c1 {
    %z = arith.constant 0.0 : f64
    %s = scf.for %j = %c0 to %m step %c1 iter_args(%acc = %z) -> f64 {
      %v = memref.load %x[%i, %j] : memref<3x?xf64, strided<[8, 1], offset: 9>>
      %t = arith.addf %acc, %v : f64
      scf.yield %t : f64
    }
    memref.store %s, %y[%i] : memref<?xf64, strided<[?], offset: ?>>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %A = memref.alloc() : memref<8x8xf64>
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %k = arith.muli %i, %c8 : index
      %l = arith.addi %k, %j : index
      %li = arith.index_cast %l : index to i64
      %f = arith.sitofp %li : i64 to f64
      memref.store %f, %A[%i, %j] : memref<8x8xf64>
    }
  }
  %half = arith.constant 0.5 : f64
  // Every other column of rows 2..5, from column 2: offset 18, strides [8, 2].
  %s = memref.subview %A[2, 2] [4, 3] [1, 2] : memref<8x8xf64> to memref<4x3xf64, strided<[8, 2], offset: 18>>
  %d = memref.cast %s : memref<4x3xf64, strided<[8, 2], offset: 18>> to memref<?x?xf64, strided<[?, ?], offset: ?>>
  func.call @scale(%d, %half) : (memref<?x?xf64, strided<[?, ?], offset: ?>>, f64) -> ()
  // A block of rows 1..3 from column 1, and a column of the result as the output.
  %b = memref.subview %A[1, 1] [3, 5] [1, 1] : memref<8x8xf64> to memref<3x5xf64, strided<[8, 1], offset: 9>>
  %bc = memref.cast %b : memref<3x5xf64, strided<[8, 1], offset: 9>> to memref<3x?xf64, strided<[8, 1], offset: 9>>
  %col = memref.subview %A[0, 7] [3, 1] [2, 1] : memref<8x8xf64> to memref<3xf64, strided<[16], offset: 7>>
  %cc = memref.cast %col : memref<3xf64, strided<[16], offset: 7>> to memref<?xf64, strided<[?], offset: ?>>
  func.call @row_sums(%bc, %cc) : (memref<3x?xf64, strided<[8, 1], offset: 9>>, memref<?xf64, strided<[?], offset: ?>>) -> ()
  %u = memref.cast %A : memref<8x8xf64> to memref<*xf64>
  call @printMemrefF64(%u) : (memref<*xf64>) -> ()
  memref.dealloc %A : memref<8x8xf64>
  return
}
