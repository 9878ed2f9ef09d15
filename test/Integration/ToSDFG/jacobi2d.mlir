// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// PolyBench jacobi-2d: 2-d five-point stencils in a time loop.

// SDFG-DAG: sdfg.map
// CHECK: {{\[\[}}0.75,   -0.25,   1.5,   0.5,   -0.5,   1.25],
// CHECK-NEXT: [1.5,   0.5,   0.644,   0.282,   -0.19,   -0.75],
// CHECK-NEXT: [-0.5,   0.106,   0.25,   0.196,   0.054,   0],
// CHECK-NEXT: [0.25,   0.218,   0.12,   0.198,   0.342,   0.75],
// CHECK-NEXT: [1,   0.462,   0.144,   0.508,   0.63,   1.5],
// CHECK-NEXT: [-1,   0.75,   -0.25,   1.5,   0.5,   -0.5]]

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
func.func @jacobi2d(%A: memref<?x?xf64>, %B: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %fifth = arith.constant 0.2 : f64
  %n = memref.dim %A, %c0 : memref<?x?xf64>
  %l = arith.subi %n, %c1 : index
  scf.for %t = %c0 to %c3 step %c1 {
    scf.parallel (%i, %j) = (%c1, %c1) to (%l, %l) step (%c1, %c1) {
      %im = arith.subi %i, %c1 : index
      %ip = arith.addi %i, %c1 : index
      %jm = arith.subi %j, %c1 : index
      %jp = arith.addi %j, %c1 : index
      %a = memref.load %A[%i, %j] : memref<?x?xf64>
      %b = memref.load %A[%im, %j] : memref<?x?xf64>
      %c = memref.load %A[%ip, %j] : memref<?x?xf64>
      %d = memref.load %A[%i, %jm] : memref<?x?xf64>
      %e = memref.load %A[%i, %jp] : memref<?x?xf64>
      %s1 = arith.addf %a, %b : f64
      %s2 = arith.addf %s1, %c : f64
      %s3 = arith.addf %s2, %d : f64
      %s4 = arith.addf %s3, %e : f64
      %r = arith.mulf %s4, %fifth : f64
      memref.store %r, %B[%i, %j] : memref<?x?xf64>
    }
    scf.parallel (%i, %j) = (%c1, %c1) to (%l, %l) step (%c1, %c1) {
      %v = memref.load %B[%i, %j] : memref<?x?xf64>
      memref.store %v, %A[%i, %j] : memref<?x?xf64>
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
  %A = memref.alloc(%c6, %c6) : memref<?x?xf64>
  call @init2(%A, %c1) : (memref<?x?xf64>, index) -> ()
  %B = memref.alloc(%c6, %c6) : memref<?x?xf64>
  call @init2(%B, %c2) : (memref<?x?xf64>, index) -> ()
  call @jacobi2d(%A, %B) : (memref<?x?xf64>, memref<?x?xf64>) -> ()
  %u_A = memref.cast %A : memref<?x?xf64> to memref<*xf64>
  call @printMemrefF64(%u_A) : (memref<*xf64>) -> ()
  return
}
