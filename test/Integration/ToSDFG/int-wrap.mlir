// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// i32 arithmetic wraps and index_castui is unsigned: narrow integer arithmetic is not folded into symbols (found in review).
// SDFG: arith.muli
// SDFG: arith.extsi
// CHECK: [4.29497e+09,  -7.2738e+08]

func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}
func.func @k(%S: memref<2xf64>, %n: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cm1 = arith.constant -1 : i32
  %u = arith.index_castui %cm1 : i32 to index
  %ui = arith.index_cast %u : index to i64
  %uf = arith.sitofp %ui : i64 to f64
  memref.store %uf, %S[%c0] : memref<2xf64>
  %m = arith.constant 1000000 : i32
  %p = arith.muli %n, %m : i32
  %e = arith.extsi %p : i32 to i64
  %g = arith.sitofp %e : i64 to f64
  memref.store %g, %S[%c1] : memref<2xf64>
  return
}
func.func @main() {
  %n = arith.constant 1000000 : i32
  %S = memref.alloc() : memref<2xf64>
  call @k(%S, %n) : (memref<2xf64>, i32) -> ()
  %v = memref.cast %S : memref<2xf64> to memref<*xf64>
  call @printMemrefF64(%v) : (memref<*xf64>) -> ()
  return
}
