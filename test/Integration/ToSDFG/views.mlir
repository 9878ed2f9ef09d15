// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: mlir-opt %s --expand-strided-metadata | sdfg-opt --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.expanded
// RUN: diff %t.expected %t.expanded
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// Views of a flat buffer: a reinterpretation (memref.reinterpret_cast),
// whose layout memref.extract_strided_metadata reads back for the loop
// bounds; an expansion copied from and to, and passed to a call; a
// subview of the expansion. The program also runs after upstream's
// --expand-strided-metadata, which writes every subview as a
// reinterpretation of its base buffer.

// SDFG-LABEL: sdfg.sdfg @views_sdfg
// The reinterpretation: element (i, j) is the buffer's 6*i + j + 12.
// SDFG: sdfg.loop @{{.*}} var "i" init "0" cond "i < 4"
// SDFG: sdfg.loop @{{.*}} var "j" init "0" cond "j < 6"
// SDFG: ins("__in0" = %{{.*}}["6*i + j + 12"]
// A copy from the expansion: a map of element copies.
// SDFG: sdfg.map "copy{{[0-9]+}}" ["__copy{{[0-9]+}}_0" = "0:3", "__copy{{[0-9]+}}_1" = "0:8"]
// The expansion passed to the call: the source subset, reshaped inside.
// SDFG: sdfg.nested "row_totals_{{[0-9]+}}" ins("arg0" = %{{.*}}["0:24"] : !sdfg.array<f64 ["48"]>)
// SDFG: "__in1" = %{{.*}}["8*{{[a-z0-9]+}} + {{[a-z0-9]+}}"] : !sdfg.array<f64 ["24"] strides ["1"]>
// Into a subview of an expansion, which no subset says: a dynamic write.
// SDFG: sdfg.exit("arg1" = %{{.*}}["4*__copy{{[0-9]+}}_0 + __copy{{[0-9]+}}_1", dynamic] : f64)

// CHECK: [0,  1,  2,  3,  4,  5,  6,  21,  8,  9,  10,  11,  24,  26,  28,  116,  32,  34,  36,  38,  40,  42,  44,  266,  48,  50,  52,  54,  56,  58,  60,  62,  64,  66,  68,  70,  36,  37,  38,  39,  40,  41,  42,  43,  44,  45,  46,  47]
// CHECK-NEXT: [24,  26,  28,  116,  40,  42,  44,  266,  -1,  -1,  -1,  -1]

func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}

// Sums each row of a matrix into its last column.
func.func @row_totals(%m: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.dim %m, %c0 : memref<?x?xf64>
  %cols = memref.dim %m, %c1 : memref<?x?xf64>
  %last = arith.subi %cols, %c1 : index
  scf.for %i = %c0 to %rows step %c1 {
    %z = arith.constant 0.0 : f64
    %s = scf.for %j = %c0 to %last step %c1 iter_args(%acc = %z) -> f64 {
      %v = memref.load %m[%i, %j] : memref<?x?xf64>
      %t = arith.addf %acc, %v : f64
      scf.yield %t : f64
    }
    memref.store %s, %m[%i, %last] : memref<?x?xf64>
  }
  return
}

// A flat buffer seen as matrices: a reinterpretation, whose layout the
// loop bounds read back; an expansion passed to a call; a subview of the
// expansion; and copies through reshaped views.
func.func @views(%flat: memref<48xf64>, %out: memref<12xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f64
  // Rows of 6 from element 12 on: a 4x6 matrix.
  %m = memref.reinterpret_cast %flat to offset: [12], sizes: [4, 6], strides: [6, 1] : memref<48xf64> to memref<4x6xf64, strided<[6, 1], offset: 12>>
  %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %m : memref<4x6xf64, strided<[6, 1], offset: 12>> -> memref<f64>, index, index, index, index, index
  scf.for %i = %c0 to %sizes#0 step %c1 {
    scf.for %j = %c0 to %sizes#1 step %c1 {
      %v = memref.load %m[%i, %j] : memref<4x6xf64, strided<[6, 1], offset: 12>>
      %w = arith.mulf %v, %two : f64
      memref.store %w, %m[%i, %j] : memref<4x6xf64, strided<[6, 1], offset: 12>>
    }
  }
  // The first 24 elements as a 3x8 matrix, passed to a call.
  %head = memref.subview %flat[0] [24] [1] : memref<48xf64> to memref<24xf64>
  %e = memref.expand_shape %head [[0, 1]] output_shape [3, 8] : memref<24xf64> into memref<3x8xf64>
  %a = memref.alloc() : memref<3x8xf64>
  memref.copy %e, %a : memref<3x8xf64> to memref<3x8xf64>
  %ad = memref.cast %a : memref<3x8xf64> to memref<?x?xf64>
  func.call @row_totals(%ad) : (memref<?x?xf64>) -> ()
  // The expansion itself, passed to the call.
  %ec = memref.cast %e : memref<3x8xf64> to memref<?x?xf64>
  func.call @row_totals(%ec) : (memref<?x?xf64>) -> ()
  // Back into the buffer through the expansion, then its middle rows'
  // last four columns through a subview of it.
  memref.copy %a, %e : memref<3x8xf64> to memref<3x8xf64>
  %part = memref.subview %e[1, 4] [2, 4] [1, 1] : memref<3x8xf64> to memref<2x4xf64, strided<[8, 1], offset: 12>>
  %o2 = memref.expand_shape %out [[0, 1]] output_shape [3, 4] : memref<12xf64> into memref<3x4xf64>
  %o = memref.subview %o2[0, 0] [2, 4] [1, 1] : memref<3x4xf64> to memref<2x4xf64, strided<[4, 1]>>
  memref.copy %part, %o : memref<2x4xf64, strided<[8, 1], offset: 12>> to memref<2x4xf64, strided<[4, 1]>>
  memref.dealloc %a : memref<3x8xf64>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c12 = arith.constant 12 : index
  %c48 = arith.constant 48 : index
  %flat = memref.alloc() : memref<48xf64>
  %out = memref.alloc() : memref<12xf64>
  %minus = arith.constant -1.0 : f64
  scf.for %i = %c0 to %c48 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f64
    memref.store %f, %flat[%i] : memref<48xf64>
  }
  scf.for %i = %c0 to %c12 step %c1 {
    memref.store %minus, %out[%i] : memref<12xf64>
  }
  func.call @views(%flat, %out) : (memref<48xf64>, memref<12xf64>) -> ()
  %u = memref.cast %flat : memref<48xf64> to memref<*xf64>
  call @printMemrefF64(%u) : (memref<*xf64>) -> ()
  %v = memref.cast %out : memref<12xf64> to memref<*xf64>
  call @printMemrefF64(%v) : (memref<*xf64>) -> ()
  return
}
