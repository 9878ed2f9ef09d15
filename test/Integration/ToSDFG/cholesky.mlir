// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// PolyBench cholesky: in-place, triangular loops, math.sqrt, divisions (sequential dependences).

// SDFG-DAG: math.sqrt
// SDFG-DAG: cond "j < i"
// CHECK: {{\[\[}}2.44949,   0.1,   0.2,   0.3,   0.4],
// CHECK-NEXT: [0.0408248,   2.44915,   0.3,   0.4,   0.5],
// CHECK-NEXT: [0.0816497,   0.12113,   2.44513,   0.5,   0.6],
// CHECK-NEXT: [0.122474,   0.16128,   0.192409,   2.43351,   0.7],
// CHECK-NEXT: [0.163299,   0.20143,   0.229954,   0.2479,   2.41214]]

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
func.func @cholesky(%A: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %A, %c0 : memref<?x?xf64>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %i step %c1 {
      scf.for %k = %c0 to %j step %c1 {
        %a = memref.load %A[%i, %k] : memref<?x?xf64>
        %b = memref.load %A[%j, %k] : memref<?x?xf64>
        %c = memref.load %A[%i, %j] : memref<?x?xf64>
        %p = arith.mulf %a, %b : f64
        %s = arith.subf %c, %p : f64
        memref.store %s, %A[%i, %j] : memref<?x?xf64>
      }
      %c = memref.load %A[%i, %j] : memref<?x?xf64>
      %d = memref.load %A[%j, %j] : memref<?x?xf64>
      %q = arith.divf %c, %d : f64
      memref.store %q, %A[%i, %j] : memref<?x?xf64>
    }
    scf.for %k = %c0 to %i step %c1 {
      %a = memref.load %A[%i, %k] : memref<?x?xf64>
      %c = memref.load %A[%i, %i] : memref<?x?xf64>
      %p = arith.mulf %a, %a : f64
      %s = arith.subf %c, %p : f64
      memref.store %s, %A[%i, %i] : memref<?x?xf64>
    }
    %c = memref.load %A[%i, %i] : memref<?x?xf64>
    %r = math.sqrt %c : f64
    memref.store %r, %A[%i, %i] : memref<?x?xf64>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %A = memref.alloc(%c5, %c5) : memref<?x?xf64>
  scf.for %i = %c0 to %c5 step %c1 {
    scf.for %j = %c0 to %c5 step %c1 {
      %eq = arith.cmpi eq, %i, %j : index
      %s = arith.addi %i, %j : index
      %si = arith.index_cast %s : index to i64
      %sf = arith.sitofp %si : i64 to f64
      %tenth = arith.constant 0.1 : f64
      %off = arith.mulf %sf, %tenth : f64
      %diag = arith.constant 6.0 : f64
      %v = arith.select %eq, %diag, %off : f64
      memref.store %v, %A[%i, %j] : memref<?x?xf64>
    }
  }
  call @cholesky(%A) : (memref<?x?xf64>) -> ()
  %u = memref.cast %A : memref<?x?xf64> to memref<*xf64>
  call @printMemrefF64(%u) : (memref<*xf64>) -> ()
  return
}
