// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// PolyBench atax: y = A^T (A x) with a transient, two phases.

// SDFG-DAG: sdfg.loop
// CHECK: [-4.21875,  5.90625,  -0.125,  -4.26562,  5.85938,  -3.09375]

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
func.func @atax(%A: memref<?x?xf64>, %x: memref<?xf64>, %y: memref<?xf64>, %tmp: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %m = memref.dim %A, %c0 : memref<?x?xf64>
  %n = memref.dim %A, %c1 : memref<?x?xf64>
  scf.parallel (%j) = (%c0) to (%n) step (%c1) {
    memref.store %zero, %y[%j] : memref<?xf64>
  }
  scf.for %i = %c0 to %m step %c1 {
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
      %a = memref.load %A[%i, %j] : memref<?x?xf64>
      %b = memref.load %x[%j] : memref<?xf64>
      %p = arith.mulf %a, %b : f64
      %t = arith.addf %acc, %p : f64
      scf.yield %t : f64
    }
    memref.store %s, %tmp[%i] : memref<?xf64>
    scf.for %j = %c0 to %n step %c1 {
      %yj = memref.load %y[%j] : memref<?xf64>
      %a = memref.load %A[%i, %j] : memref<?x?xf64>
      %p = arith.mulf %a, %s : f64
      %t = arith.addf %yj, %p : f64
      memref.store %t, %y[%j] : memref<?xf64>
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
  %A = memref.alloc(%c5, %c6) : memref<?x?xf64>
  call @init2(%A, %c1) : (memref<?x?xf64>, index) -> ()
  %x = memref.alloc(%c6) : memref<?xf64>
  call @init1(%x, %c2) : (memref<?xf64>, index) -> ()
  %y = memref.alloc(%c6) : memref<?xf64>
  %t = memref.alloc(%c5) : memref<?xf64>
  call @atax(%A, %x, %y, %t) : (memref<?x?xf64>, memref<?xf64>, memref<?xf64>, memref<?xf64>) -> ()
  %u_y = memref.cast %y : memref<?xf64> to memref<*xf64>
  call @printMemrefF64(%u_y) : (memref<*xf64>) -> ()
  return
}
