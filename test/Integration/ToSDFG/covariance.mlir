// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// PolyBench covariance: column means (symbol sizes as floats in tasklets), centring, then the symmetric product.

// SDFG-DAG: sdfg.sym "arg0_d0"
// CHECK: {{\[\[}}0.891667,   -0.3,   -0.116667,   0.158333],
// CHECK-NEXT: [-0.3,   0.525,   -0.3,   -0.025],
// CHECK-NEXT: [-0.116667,   -0.3,   0.891667,   -0.345833],
// CHECK-NEXT: [0.158333,   -0.025,   -0.345833,   0.685417]]

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
func.func @cov(%data: memref<?x?xf64>, %cov: memref<?x?xf64>, %mean: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %n = memref.dim %data, %c0 : memref<?x?xf64>
  %m = memref.dim %data, %c1 : memref<?x?xf64>
  %ni = arith.index_cast %n : index to i64
  %nf = arith.sitofp %ni : i64 to f64
  scf.parallel (%j) = (%c0) to (%m) step (%c1) {
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
      %v = memref.load %data[%i, %j] : memref<?x?xf64>
      %t = arith.addf %acc, %v : f64
      scf.yield %t : f64
    }
    %mu = arith.divf %s, %nf : f64
    memref.store %mu, %mean[%j] : memref<?xf64>
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m) step (%c1, %c1) {
    %v = memref.load %data[%i, %j] : memref<?x?xf64>
    %mu = memref.load %mean[%j] : memref<?xf64>
    %d = arith.subf %v, %mu : f64
    memref.store %d, %data[%i, %j] : memref<?x?xf64>
  }
  %nm1 = arith.subf %nf, %one : f64
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %i to %m step %c1 {
      %s = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
        %a = memref.load %data[%k, %i] : memref<?x?xf64>
        %b = memref.load %data[%k, %j] : memref<?x?xf64>
        %p = arith.mulf %a, %b : f64
        %t = arith.addf %acc, %p : f64
        scf.yield %t : f64
      }
      %c = arith.divf %s, %nm1 : f64
      memref.store %c, %cov[%i, %j] : memref<?x?xf64>
      memref.store %c, %cov[%j, %i] : memref<?x?xf64>
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
  %D = memref.alloc(%c6, %c4) : memref<?x?xf64>
  call @init2(%D, %c1) : (memref<?x?xf64>, index) -> ()
  %C = memref.alloc(%c4, %c4) : memref<?x?xf64>
  %M = memref.alloc(%c4) : memref<?xf64>
  call @cov(%D, %C, %M) : (memref<?x?xf64>, memref<?x?xf64>, memref<?xf64>) -> ()
  %u_C = memref.cast %C : memref<?x?xf64> to memref<*xf64>
  call @printMemrefF64(%u_C) : (memref<*xf64>) -> ()
  return
}
