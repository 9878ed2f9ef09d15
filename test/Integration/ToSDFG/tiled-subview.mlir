// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// Tiled matrix product in the form tiling passes produce: subviews of 2x2 tiles, loops over the tiles, accesses through the subviews.

// SDFG-DAG: ["i" = "0:4:2", "j" = "0:4:2"]
// SDFG-DAG: sdfg.nested
// CHECK: {{\[\[}}1,   0,   1.0625,   0.75],
// CHECK-NEXT: [1.625,   -1.875,   -0.5625,   0.75],
// CHECK-NEXT: [2.9375,   1.75,   0.5625,   0.0625],
// CHECK-NEXT: [0.8125,   4.6875,   -1.75,   4.1875]]

func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
func.func private @printF64(f64)
func.func private @printNewline()

func.func @init1(%A: memref<?xf64>, %seed: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %q = arith.constant 0.25 : f64
  %one = arith.constant 1.0 : f64
  %n = memref.dim %A, %c0 : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %k = arith.addi %i, %seed : index
    %k7 = arith.muli %k, %c7 : index
    %r = arith.remui %k7, %c11 : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f64
    %g = arith.mulf %f, %q : f64
    %h = arith.subf %g, %one : f64
    memref.store %h, %A[%i] : memref<?xf64>
  }
  return
}
func.func @init2(%A: memref<?x?xf64>, %seed: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %c13 = arith.constant 13 : index
  %q = arith.constant 0.25 : f64
  %one = arith.constant 1.0 : f64
  %n = memref.dim %A, %c0 : memref<?x?xf64>
  %m = memref.dim %A, %c1 : memref<?x?xf64>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %m step %c1 {
      %a = arith.muli %i, %c13 : index
      %b = arith.addi %a, %j : index
      %k = arith.addi %b, %seed : index
      %k7 = arith.muli %k, %c7 : index
      %r = arith.remui %k7, %c11 : index
      %ri = arith.index_cast %r : index to i64
      %f = arith.sitofp %ri : i64 to f64
      %g = arith.mulf %f, %q : f64
      %h = arith.subf %g, %one : f64
      memref.store %h, %A[%i, %j] : memref<?x?xf64>
    }
  }
  return
}
func.func @tiled(%A: memref<4x6xf64>, %B: memref<6x4xf64>, %C: memref<4x4xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  scf.parallel (%ti, %tj) = (%c0, %c0) to (%c4, %c4) step (%c2, %c2) {
    %cv = memref.subview %C[%ti, %tj] [2, 2] [1, 1] : memref<4x4xf64> to memref<2x2xf64, strided<[4, 1], offset: ?>>
    scf.for %tk = %c0 to %c6 step %c2 {
      %av = memref.subview %A[%ti, %tk] [2, 2] [1, 1] : memref<4x6xf64> to memref<2x2xf64, strided<[6, 1], offset: ?>>
      %bv = memref.subview %B[%tk, %tj] [2, 2] [1, 1] : memref<6x4xf64> to memref<2x2xf64, strided<[4, 1], offset: ?>>
      scf.for %i = %c0 to %c2 step %c1 {
        scf.for %j = %c0 to %c2 step %c1 {
          scf.for %k = %c0 to %c2 step %c1 {
            %a = memref.load %av[%i, %k] : memref<2x2xf64, strided<[6, 1], offset: ?>>
            %b = memref.load %bv[%k, %j] : memref<2x2xf64, strided<[4, 1], offset: ?>>
            %c = memref.load %cv[%i, %j] : memref<2x2xf64, strided<[4, 1], offset: ?>>
            %p = arith.mulf %a, %b : f64
            %s = arith.addf %c, %p : f64
            memref.store %s, %cv[%i, %j] : memref<2x2xf64, strided<[4, 1], offset: ?>>
          }
        }
      }
    }
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %A_flat = memref.alloc() : memref<24xf64>
  %A_dyn = memref.cast %A_flat : memref<24xf64> to memref<?xf64>
  call @init1(%A_dyn, %c2) : (memref<?xf64>, index) -> ()
  %A = memref.reinterpret_cast %A_flat to offset: [0], sizes: [4, 6], strides: [6, 1] : memref<24xf64> to memref<4x6xf64>
  %B_flat = memref.alloc() : memref<24xf64>
  %B_dyn = memref.cast %B_flat : memref<24xf64> to memref<?xf64>
  call @init1(%B_dyn, %c2) : (memref<?xf64>, index) -> ()
  %B = memref.reinterpret_cast %B_flat to offset: [0], sizes: [6, 4], strides: [4, 1] : memref<24xf64> to memref<6x4xf64>
  %C_flat = memref.alloc() : memref<16xf64>
  %C_dyn = memref.cast %C_flat : memref<16xf64> to memref<?xf64>
  call @init1(%C_dyn, %c2) : (memref<?xf64>, index) -> ()
  %C = memref.reinterpret_cast %C_flat to offset: [0], sizes: [4, 4], strides: [4, 1] : memref<16xf64> to memref<4x4xf64>
  call @tiled(%A, %B, %C) : (memref<4x6xf64>, memref<6x4xf64>, memref<4x4xf64>) -> ()
  %u_C = memref.cast %C : memref<4x4xf64> to memref<*xf64>
  call @printMemrefF64(%u_C) : (memref<*xf64>) -> ()
  return
}
