// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// PolyBench mvt: two independent matrix-vector products, parallel outer loops with sequential inner sums.

// SDFG-DAG: sdfg.nested
// CHECK: [-0.1875,  -1,  4.375,  1.5,  -0.6875]
// CHECK-NEXT: [0.5625,  1.5625,  -1.5625,  0.8125,  1.125]

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
func.func @mvt(%x1: memref<?xf64>, %x2: memref<?xf64>, %y1: memref<?xf64>, %y2: memref<?xf64>, %A: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %A, %c0 : memref<?x?xf64>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.for %j = %c0 to %n step %c1 {
      %x = memref.load %x1[%i] : memref<?xf64>
      %a = memref.load %A[%i, %j] : memref<?x?xf64>
      %y = memref.load %y1[%j] : memref<?xf64>
      %p = arith.mulf %a, %y : f64
      %s = arith.addf %x, %p : f64
      memref.store %s, %x1[%i] : memref<?xf64>
    }
  }
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.for %j = %c0 to %n step %c1 {
      %x = memref.load %x2[%i] : memref<?xf64>
      %a = memref.load %A[%j, %i] : memref<?x?xf64>
      %y = memref.load %y2[%j] : memref<?xf64>
      %p = arith.mulf %a, %y : f64
      %s = arith.addf %x, %p : f64
      memref.store %s, %x2[%i] : memref<?xf64>
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
  %x1 = memref.alloc(%c5) : memref<?xf64>
  call @init1(%x1, %c1) : (memref<?xf64>, index) -> ()
  %x2 = memref.alloc(%c5) : memref<?xf64>
  call @init1(%x2, %c2) : (memref<?xf64>, index) -> ()
  %y1 = memref.alloc(%c5) : memref<?xf64>
  call @init1(%y1, %c3) : (memref<?xf64>, index) -> ()
  %y2 = memref.alloc(%c5) : memref<?xf64>
  call @init1(%y2, %c4) : (memref<?xf64>, index) -> ()
  %A = memref.alloc(%c5, %c5) : memref<?x?xf64>
  call @init2(%A, %c5) : (memref<?x?xf64>, index) -> ()
  call @mvt(%x1, %x2, %y1, %y2, %A) : (memref<?xf64>, memref<?xf64>, memref<?xf64>, memref<?xf64>, memref<?x?xf64>) -> ()
  %u_x1 = memref.cast %x1 : memref<?xf64> to memref<*xf64>
  call @printMemrefF64(%u_x1) : (memref<*xf64>) -> ()
  %u_x2 = memref.cast %x2 : memref<?xf64> to memref<*xf64>
  call @printMemrefF64(%u_x2) : (memref<*xf64>) -> ()
  return
}
