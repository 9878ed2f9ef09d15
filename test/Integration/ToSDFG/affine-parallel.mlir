// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// affine.parallel over a 2-d domain with affine subscripts: a map.

// SDFG-DAG: sdfg.map "{{.*}}" ["i" = "0:6", "j" = "0:7"]
// SDFG-DAG: ["i, j + 1"]
// CHECK: {{\[\[}}-1.5,   -0.5,   0.5,   -1.25,   -0.25,   0.75,   -1,   1],
// CHECK-NEXT: [1,   -0.75,   0.25,   -1.5,   -0.5,   0.5,   -1.25,   1.25],
// CHECK-NEXT: [0.75,   -1,   -0,   1,   -0.75,   0.25,   -1.5,   1.5],
// CHECK-NEXT: [0.5,   -1.25,   -0.25,   0.75,   -1,   -0,   1,   -1],
// CHECK-NEXT: [0.25,   -1.5,   -0.5,   0.5,   -1.25,   -0.25,   0.75,   -0.75],
// CHECK-NEXT: [-0,   1,   -0.75,   0.25,   -1.5,   -0.5,   0.5,   -0.5]]

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
func.func @shift(%A: memref<6x8xf64>, %B: memref<6x8xf64>) {
  affine.parallel (%i, %j) = (0, 0) to (6, 7) {
    %v = affine.load %A[%i, %j + 1] : memref<6x8xf64>
    %w = arith.negf %v : f64
    affine.store %w, %B[%i, %j] : memref<6x8xf64>
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
  %A_flat = memref.alloc() : memref<48xf64>
  %A_dyn = memref.cast %A_flat : memref<48xf64> to memref<?xf64>
  call @init1(%A_dyn, %c2) : (memref<?xf64>, index) -> ()
  %A = memref.reinterpret_cast %A_flat to offset: [0], sizes: [6, 8], strides: [8, 1] : memref<48xf64> to memref<6x8xf64>
  %B_flat = memref.alloc() : memref<48xf64>
  %B_dyn = memref.cast %B_flat : memref<48xf64> to memref<?xf64>
  call @init1(%B_dyn, %c2) : (memref<?xf64>, index) -> ()
  %B = memref.reinterpret_cast %B_flat to offset: [0], sizes: [6, 8], strides: [8, 1] : memref<48xf64> to memref<6x8xf64>
  call @shift(%A, %B) : (memref<6x8xf64>, memref<6x8xf64>) -> ()
  %u_B = memref.cast %B : memref<6x8xf64> to memref<*xf64>
  call @printMemrefF64(%u_B) : (memref<*xf64>) -> ()
  return
}
