// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// C += A * B with three scf.for loops on static shapes: nested sdfg.loops.

// SDFG-LABEL: sdfg.sdfg @matmul_sdfg(%arg0: !sdfg.array<f64 ["4", "6"]>
// SDFG: sdfg.loop @{{.*}} var "i" init "0" cond "i < 4"
// SDFG: sdfg.loop @{{.*}} var "k" init "0" cond "k < 6"
// SDFG: ["i, k"]
// SDFG: ["k, j"]
// CHECK: {{\[\[}}3.625,   2.8125,   -0.0625,   2.5625,   0.375],
// CHECK-NEXT: [-2.75,   4.3125,   1.0625,   -3.5625,   4.1875],
// CHECK-NEXT: [1.875,   -3.8125,   2.875,   1.3125,   -1.625],
// CHECK-NEXT: [2.375,   1.8125,   -2.1875,   2.0625,   -1.25]]

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
func.func @matmul(%A: memref<4x6xf64>, %B: memref<6x5xf64>, %C: memref<4x5xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c5 step %c1 {
      scf.for %k = %c0 to %c6 step %c1 {
        %a = memref.load %A[%i, %k] : memref<4x6xf64>
        %b = memref.load %B[%k, %j] : memref<6x5xf64>
        %c = memref.load %C[%i, %j] : memref<4x5xf64>
        %p = arith.mulf %a, %b : f64
        %s = arith.addf %c, %p : f64
        memref.store %s, %C[%i, %j] : memref<4x5xf64>
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
  %a = memref.alloc(%c4, %c6) : memref<?x?xf64>
  call @init2(%a, %c1) : (memref<?x?xf64>, index) -> ()
  %b = memref.alloc(%c6, %c5) : memref<?x?xf64>
  call @init2(%b, %c2) : (memref<?x?xf64>, index) -> ()
  %c = memref.alloc(%c4, %c5) : memref<?x?xf64>
  call @init2(%c, %c3) : (memref<?x?xf64>, index) -> ()
  %A = memref.cast %a : memref<?x?xf64> to memref<4x6xf64>
  %B = memref.cast %b : memref<?x?xf64> to memref<6x5xf64>
  %C = memref.cast %c : memref<?x?xf64> to memref<4x5xf64>
  call @matmul(%A, %B, %C) : (memref<4x6xf64>, memref<6x5xf64>, memref<4x5xf64>) -> ()
  %u_c = memref.cast %c : memref<?x?xf64> to memref<*xf64>
  call @printMemrefF64(%u_c) : (memref<*xf64>) -> ()
  return
}
