// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// PolyBench gemm as Polygeist writes it: i32 sizes cast to index, scalars alpha and beta.

// SDFG-LABEL: sdfg.sdfg @kernel_gemm_sdfg
// SDFG: symbols {{.*}}arg0 = i64
// SDFG: cond "i < arg0"
// SDFG: cond "k < arg2"
// CHECK: {{\[\[}}-3.31875,   3.73125,   3.76875,   0.50625],
// CHECK-NEXT: [4.89375,   0.0375,   1.36875,   0.84375],
// CHECK-NEXT: [3.61875,   1.5,   -3.91875,   3.0375],
// CHECK-NEXT: [-4.66875,   0.69375,   3.16875,   -1.78125],
// CHECK-NEXT: [-0.58125,   0.09375,   -0.2625,   4.74375]]

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
func.func @kernel_gemm(%ni: i32, %nj: i32, %nk: i32, %alpha: f64, %beta: f64, %C: memref<?x?xf64>, %A: memref<?x?xf64>, %B: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %ni_ = arith.index_cast %ni : i32 to index
  %nj_ = arith.index_cast %nj : i32 to index
  %nk_ = arith.index_cast %nk : i32 to index
  scf.for %i = %c0 to %ni_ step %c1 {
    scf.for %j = %c0 to %nj_ step %c1 {
      %c = memref.load %C[%i, %j] : memref<?x?xf64>
      %cb = arith.mulf %c, %beta : f64
      memref.store %cb, %C[%i, %j] : memref<?x?xf64>
    }
    scf.for %k = %c0 to %nk_ step %c1 {
      scf.for %j = %c0 to %nj_ step %c1 {
        %a = memref.load %A[%i, %k] : memref<?x?xf64>
        %aa = arith.mulf %alpha, %a : f64
        %b = memref.load %B[%k, %j] : memref<?x?xf64>
        %p = arith.mulf %aa, %b : f64
        %c = memref.load %C[%i, %j] : memref<?x?xf64>
        %s = arith.addf %c, %p : f64
        memref.store %s, %C[%i, %j] : memref<?x?xf64>
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
  %C = memref.alloc(%c5, %c4) : memref<?x?xf64>
  call @init2(%C, %c1) : (memref<?x?xf64>, index) -> ()
  %A = memref.alloc(%c5, %c6) : memref<?x?xf64>
  call @init2(%A, %c2) : (memref<?x?xf64>, index) -> ()
  %B = memref.alloc(%c6, %c4) : memref<?x?xf64>
  call @init2(%B, %c3) : (memref<?x?xf64>, index) -> ()
  %ni = arith.constant 5 : i32
  %nj = arith.constant 4 : i32
  %nk = arith.constant 6 : i32
  %alpha = arith.constant 1.5 : f64
  %beta = arith.constant 1.2 : f64
  call @kernel_gemm(%ni, %nj, %nk, %alpha, %beta, %C, %A, %B) : (i32, i32, i32, f64, f64, memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>) -> ()
  %u_C = memref.cast %C : memref<?x?xf64> to memref<*xf64>
  call @printMemrefF64(%u_C) : (memref<*xf64>) -> ()
  return
}
