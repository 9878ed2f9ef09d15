// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// scf.while whose condition region stores: the second copy of the region loads again (found in review).
// SDFG: sdfg.loop @{{.*}} cond "c{{[0-9]*}}"
// CHECK: [5,  0]
// CHECK-NEXT: [5,  0]

func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}
func.func @w(%A: memref<2xf64>, %B: memref<2xf64>) {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %five = arith.constant 5.0 : f64
  %ten = arith.constant 10.0 : f64
  %r:2 = scf.while (%n = %z) : (f64) -> (f64, f64) {
    %x = memref.load %A[%c0] : memref<2xf64>
    %y = arith.addf %x, %one : f64
    memref.store %y, %A[%c0] : memref<2xf64>
    %c1 = arith.cmpf olt, %x, %five : f64
    %c2 = arith.cmpf olt, %n, %ten : f64
    %c = arith.andi %c1, %c2 : i1
    scf.condition(%c) %n, %x : f64, f64
  } do {
  ^bb0(%m: f64, %xx: f64):
    %b = memref.load %B[%c0] : memref<2xf64>
    %b2 = arith.addf %b, %xx : f64
    memref.store %b2, %B[%c0] : memref<2xf64>
    %m2 = arith.addf %m, %one : f64
    scf.yield %m2 : f64
  }
  memref.store %r#0, %B[%c0] : memref<2xf64>
  memref.store %r#1, %A[%c0] : memref<2xf64>
  return
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %A = memref.alloc() : memref<2xf64>
  %B = memref.alloc() : memref<2xf64>
  memref.store %z, %A[%c0] : memref<2xf64>
  memref.store %z, %A[%c1] : memref<2xf64>
  memref.store %z, %B[%c0] : memref<2xf64>
  memref.store %z, %B[%c1] : memref<2xf64>
  call @w(%A, %B) : (memref<2xf64>, memref<2xf64>) -> ()
  %u = memref.cast %A : memref<2xf64> to memref<*xf64>
  call @printMemrefF64(%u) : (memref<*xf64>) -> ()
  %v = memref.cast %B : memref<2xf64> to memref<*xf64>
  call @printMemrefF64(%v) : (memref<*xf64>) -> ()
  return
}
