// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// PolyBench 2mm: D = alpha A B C + beta D through a transient product (memref.alloc with dynamic sizes).

// SDFG-DAG: sdfg.alloc "tmp" : !sdfg.array<f64 ["arg2_d0", "arg3_d1"]>
// CHECK: {{\[\[}}1.39688,   3.31406,   -3.32812],
// CHECK-NEXT: [-12.0469,   8.08125,   7.84219],
// CHECK-NEXT: [8.07656,   -2.62031,   -0.117188],
// CHECK-NEXT: [2.625,   0.135937,   -5.24062]]

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
func.func @k2mm(%alpha: f64, %beta: f64, %A: memref<?x?xf64>, %B: memref<?x?xf64>, %C: memref<?x?xf64>, %D: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %ni = memref.dim %A, %c0 : memref<?x?xf64>
  %nk = memref.dim %A, %c1 : memref<?x?xf64>
  %nj = memref.dim %B, %c1 : memref<?x?xf64>
  %nl = memref.dim %C, %c1 : memref<?x?xf64>
  %tmp = memref.alloc(%ni, %nj) : memref<?x?xf64>
  scf.parallel (%i, %j) = (%c0, %c0) to (%ni, %nj) step (%c1, %c1) {
    %s = scf.for %k = %c0 to %nk step %c1 iter_args(%acc = %zero) -> f64 {
      %a = memref.load %A[%i, %k] : memref<?x?xf64>
      %b = memref.load %B[%k, %j] : memref<?x?xf64>
      %p = arith.mulf %a, %b : f64
      %q = arith.mulf %alpha, %p : f64
      %t = arith.addf %acc, %q : f64
      scf.yield %t : f64
    }
    memref.store %s, %tmp[%i, %j] : memref<?x?xf64>
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%ni, %nl) step (%c1, %c1) {
    %d = memref.load %D[%i, %j] : memref<?x?xf64>
    %db = arith.mulf %d, %beta : f64
    %s = scf.for %k = %c0 to %nj step %c1 iter_args(%acc = %db) -> f64 {
      %a = memref.load %tmp[%i, %k] : memref<?x?xf64>
      %b = memref.load %C[%k, %j] : memref<?x?xf64>
      %p = arith.mulf %a, %b : f64
      %t = arith.addf %acc, %p : f64
      scf.yield %t : f64
    }
    memref.store %s, %D[%i, %j] : memref<?x?xf64>
  }
  memref.dealloc %tmp : memref<?x?xf64>
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
  %A = memref.alloc(%c4, %c5) : memref<?x?xf64>
  call @init2(%A, %c1) : (memref<?x?xf64>, index) -> ()
  %B = memref.alloc(%c5, %c6) : memref<?x?xf64>
  call @init2(%B, %c2) : (memref<?x?xf64>, index) -> ()
  %C = memref.alloc(%c6, %c3) : memref<?x?xf64>
  call @init2(%C, %c3) : (memref<?x?xf64>, index) -> ()
  %D = memref.alloc(%c4, %c3) : memref<?x?xf64>
  call @init2(%D, %c4) : (memref<?x?xf64>, index) -> ()
  %alpha = arith.constant 1.5 : f64
  %beta = arith.constant 1.2 : f64
  call @k2mm(%alpha, %beta, %A, %B, %C, %D) : (f64, f64, memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>) -> ()
  %u_D = memref.cast %D : memref<?x?xf64> to memref<*xf64>
  call @printMemrefF64(%u_D) : (memref<*xf64>) -> ()
  return
}
