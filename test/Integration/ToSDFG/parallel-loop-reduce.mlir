// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// scf.reduce from a parallel body with a loop (a nested SDFG): each partial goes through a transient of its iteration into the wcr (found in review).
// SDFG: sdfg.map
// SDFG: sdfg.nested
// SDFG: ["0", wcr sum]
// CHECK: [276,  0.5]

func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}
func.func @k(%A: memref<6x4xf64>, %O: memref<2xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %z = arith.constant 0.0 : f64
  %tot = scf.parallel (%i) = (%c0) to (%c6) step (%c1) init (%z) -> f64 {
    %s = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc = %z) -> f64 {
      %x = memref.load %A[%i, %j] : memref<6x4xf64>
      %a2 = arith.addf %acc, %x : f64
      scf.yield %a2 : f64
    }
    scf.reduce(%s : f64) {
    ^bb0(%l: f64, %r: f64):
      %t = arith.addf %l, %r : f64
      scf.reduce.return %t : f64
    }
  }
  memref.store %tot, %O[%c0] : memref<2xf64>
  return
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %A = memref.alloc() : memref<6x4xf64>
  %O = memref.alloc() : memref<2xf64>
  %half = arith.constant 0.5 : f64
  memref.store %half, %O[%c1] : memref<2xf64>
  scf.for %i = %c0 to %c6 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %a = arith.muli %i, %c4 : index
      %b = arith.addi %a, %j : index
      %ri = arith.index_cast %b : index to i64
      %f = arith.sitofp %ri : i64 to f64
      memref.store %f, %A[%i, %j] : memref<6x4xf64>
    }
  }
  call @k(%A, %O) : (memref<6x4xf64>, memref<2xf64>) -> ()
  %u3 = memref.cast %O : memref<2xf64> to memref<*xf64>
  call @printMemrefF64(%u3) : (memref<*xf64>) -> ()
  return
}
