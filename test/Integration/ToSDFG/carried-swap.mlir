// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// Fibonacci with two loop-carried values, one computed from the other: a yield assigns all results at once (found in review).
// SDFG-DAG: sdfg.alloc "tmp" : !sdfg.scalar<f64>
// SDFG-DAG: sdfg.loop
// CHECK: [8,  13]

func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}
func.func @fib(%O: memref<2xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %z = arith.constant 0.0 : f64
  %one = arith.constant 1.0 : f64
  %r:2 = scf.for %i = %c0 to %c6 step %c1 iter_args(%a = %z, %b = %one) -> (f64, f64) {
    %s = arith.addf %a, %b : f64
    scf.yield %b, %s : f64, f64
  }
  memref.store %r#0, %O[%c0] : memref<2xf64>
  memref.store %r#1, %O[%c1] : memref<2xf64>
  return
}
func.func @main() {
  %O = memref.alloc() : memref<2xf64>
  call @fib(%O) : (memref<2xf64>) -> ()
  %u = memref.cast %O : memref<2xf64> to memref<*xf64>
  call @printMemrefF64(%u) : (memref<*xf64>) -> ()
  return
}
