// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// An in-place butterfly in a parallel loop: both elements are read before either is written (found in review).
// SDFG: sdfg.map
// SDFG: sdfg.nested
// CHECK: [1,  -1,  13,  -5,  41,  -9,  85,  -13]

func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}
func.func @haar(%A: memref<8xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %e = arith.muli %i, %c2 : index
    %o = arith.addi %e, %c1 : index
    %u = memref.load %A[%e] : memref<8xf64>
    %v = memref.load %A[%o] : memref<8xf64>
    %s = arith.addf %u, %v : f64
    %d = arith.subf %u, %v : f64
    memref.store %s, %A[%e] : memref<8xf64>
    memref.store %d, %A[%o] : memref<8xf64>
    scf.reduce
  }
  return
}
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %A = memref.alloc() : memref<8xf64>
  scf.for %i = %c0 to %c8 step %c1 {
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f64
    %g = arith.mulf %f, %f : f64
    memref.store %g, %A[%i] : memref<8xf64>
  }
  call @haar(%A) : (memref<8xf64>) -> ()
  %u = memref.cast %A : memref<8xf64> to memref<*xf64>
  call @printMemrefF64(%u) : (memref<*xf64>) -> ()
  return
}
