// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// Rank-reducing and strided subviews: a row, a column and every other element, written through memref.copy and accesses.

// SDFG-DAG: ["1, 0:arg0_d1" -> "0:arg0_d1"]
// SDFG-DAG: ["2*{{[a-z0-9]+}}, 2"]
// CHECK: [1.5,  0.5,  -0.5,  1.25,  0.25]
// CHECK-NEXT: [3,  0.5,  -2]

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
func.func @rows(%A: memref<?x?xf64>, %r: memref<?xf64>, %e: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %m = memref.dim %A, %c1 : memref<?x?xf64>
  %row = memref.subview %A[1, 0] [1, %m] [1, 1] : memref<?x?xf64> to memref<?xf64, strided<[1], offset: ?>>
  memref.copy %row, %r : memref<?xf64, strided<[1], offset: ?>> to memref<?xf64>
  %n = memref.dim %e, %c0 : memref<?xf64>
  %col = memref.subview %A[0, 2] [%n, 1] [2, 1] : memref<?x?xf64> to memref<?xf64, strided<[?], offset: 2>>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %col[%i] : memref<?xf64, strided<[?], offset: 2>>
    %w = arith.addf %v, %v : f64
    memref.store %w, %e[%i] : memref<?xf64>
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
  %A = memref.alloc(%c6, %c5) : memref<?x?xf64>
  call @init2(%A, %c1) : (memref<?x?xf64>, index) -> ()
  %r = memref.alloc(%c5) : memref<?xf64>
  %e = memref.alloc(%c3) : memref<?xf64>
  call @rows(%A, %r, %e) : (memref<?x?xf64>, memref<?xf64>, memref<?xf64>) -> ()
  %u_r = memref.cast %r : memref<?xf64> to memref<*xf64>
  call @printMemrefF64(%u_r) : (memref<*xf64>) -> ()
  %u_e = memref.cast %e : memref<?xf64> to memref<*xf64>
  call @printMemrefF64(%u_e) : (memref<*xf64>) -> ()
  return
}
