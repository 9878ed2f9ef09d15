// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// A value computed from a load, then the loaded element overwritten, then the value stored: the value is kept before the write (found in review).
// SDFG: sdfg.alloc "v" : !sdfg.scalar<f64>
// CHECK: [1,  3,  6,  9]
// CHECK-NEXT: [6,  1,  2,  3]

func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}
func.func @kernel(%A: memref<4xf64>, %B: memref<4xf64>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f64
  %v = memref.load %A[%c0] : memref<4xf64>
  %w = arith.addf %v, %one : f64
  memref.store %one, %A[%c0] : memref<4xf64>
  memref.store %w, %B[%c0] : memref<4xf64>
  return
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %A = memref.alloc() : memref<4xf64>
  %B = memref.alloc() : memref<4xf64>
  scf.for %i = %c0 to %c4 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f64
    %g = arith.addf %f, %f : f64
    %h = arith.addf %g, %f : f64
    memref.store %h, %A[%i] : memref<4xf64>
    memref.store %f, %B[%i] : memref<4xf64>
  }
  %a0 = arith.constant 5.0 : f64
  memref.store %a0, %A[%c0] : memref<4xf64>
  call @kernel(%A, %B) : (memref<4xf64>, memref<4xf64>) -> ()
  %ua = memref.cast %A : memref<4xf64> to memref<*xf64>
  %ub = memref.cast %B : memref<4xf64> to memref<*xf64>
  call @printMemrefF64(%ua) : (memref<*xf64>) -> ()
  call @printMemrefF64(%ub) : (memref<*xf64>) -> ()
  return
}
