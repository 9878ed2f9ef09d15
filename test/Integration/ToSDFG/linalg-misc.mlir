// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// linalg.transpose, linalg.copy, linalg.matvec, linalg.dot and linalg.batch_matmul:
// library nodes (Transpose, Gemv, Dot, Gemm in a map over the batch) and
// an access-to-access copy; linalg.fill is a map.

// SDFG-LABEL: sdfg.sdfg @misc_sdfg
// SDFG-DAG: sdfg.library "{{.*}}" "dace.libraries.standard.nodes.transpose.Transpose"
// SDFG-DAG: sdfg.library "{{.*}}" "dace.libraries.blas.nodes.gemv.Gemv"
// SDFG-DAG: sdfg.library "{{.*}}" "dace.libraries.blas.nodes.dot.Dot"
// SDFG-DAG: sdfg.library "{{.*}}" "dace.libraries.blas.nodes.gemm.Gemm"
// SDFG-DAG: sdfg.map
// CHECK: {{\[\[}}-0.25,   1.25,   0],
// CHECK-NEXT: [1.5,   0.25,   -1],
// CHECK-NEXT: [0.5,   -0.75,   0.75],
// CHECK-NEXT: [-0.5,   1,   -0.25]]
// CHECK-NEXT: [-0.0625,  0.25,  1.25]
// CHECK-NEXT: {{\[\[}}[3.3125,    0.5625,    1.25],
// CHECK-NEXT: [0.4375,    -0.0625,    -0.5625],
// CHECK-NEXT: [0.3125,    -0.6875,    2.4375]],
// CHECK-NEXT: {{\[\[}}0.0625,    -0.75,    1.1875],
// CHECK-NEXT: [0.125,    -1.875,    -0.4375],
// CHECK-NEXT: [0.1875,    -0.9375,    2.0625]]]
// CHECK-NEXT: {{\[\[}}-0.25,   1.5,   0.5,   -0.5],
// CHECK-NEXT: [1.25,   0.25,   -0.75,   1],
// CHECK-NEXT: [0,   -1,   0.75,   -0.25]]
// CHECK-NEXT: 3.125

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
func.func @misc(%A: memref<3x4xf64>, %T: memref<4x3xf64>, %x: memref<4xf64>, %y: memref<3xf64>, %d: memref<f64>, %P: memref<2x3x4xf64>, %Q: memref<2x4x3xf64>, %R: memref<2x3x3xf64>, %K: memref<3x4xf64>) {
  %z = arith.constant 0.0 : f64
  linalg.transpose ins(%A : memref<3x4xf64>) outs(%T : memref<4x3xf64>) permutation = [1, 0]
  linalg.copy ins(%A : memref<3x4xf64>) outs(%K : memref<3x4xf64>)
  linalg.fill ins(%z : f64) outs(%y : memref<3xf64>)
  linalg.matvec ins(%A, %x : memref<3x4xf64>, memref<4xf64>) outs(%y : memref<3xf64>)
  linalg.fill ins(%z : f64) outs(%d : memref<f64>)
  linalg.dot ins(%x, %x : memref<4xf64>, memref<4xf64>) outs(%d : memref<f64>)
  linalg.fill ins(%z : f64) outs(%R : memref<2x3x3xf64>)
  linalg.batch_matmul ins(%P, %Q : memref<2x3x4xf64>, memref<2x4x3xf64>) outs(%R : memref<2x3x3xf64>)
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
  %A_flat = memref.alloc() : memref<12xf64>
  %A_dyn = memref.cast %A_flat : memref<12xf64> to memref<?xf64>
  call @init1(%A_dyn, %c2) : (memref<?xf64>, index) -> ()
  %A = memref.reinterpret_cast %A_flat to offset: [0], sizes: [3, 4], strides: [4, 1] : memref<12xf64> to memref<3x4xf64>
  %T = memref.alloc() : memref<4x3xf64>
  %x_flat = memref.alloc() : memref<4xf64>
  %x_dyn = memref.cast %x_flat : memref<4xf64> to memref<?xf64>
  call @init1(%x_dyn, %c1) : (memref<?xf64>, index) -> ()
  %x = memref.reinterpret_cast %x_flat to offset: [0], sizes: [4], strides: [1] : memref<4xf64> to memref<4xf64>
  %y = memref.alloc() : memref<3xf64>
  %d = memref.alloc() : memref<f64>
  %P_flat = memref.alloc() : memref<24xf64>
  %P_dyn = memref.cast %P_flat : memref<24xf64> to memref<?xf64>
  call @init1(%P_dyn, %c3) : (memref<?xf64>, index) -> ()
  %P = memref.reinterpret_cast %P_flat to offset: [0], sizes: [2, 3, 4], strides: [12, 4, 1] : memref<24xf64> to memref<2x3x4xf64>
  %Q_flat = memref.alloc() : memref<24xf64>
  %Q_dyn = memref.cast %Q_flat : memref<24xf64> to memref<?xf64>
  call @init1(%Q_dyn, %c3) : (memref<?xf64>, index) -> ()
  %Q = memref.reinterpret_cast %Q_flat to offset: [0], sizes: [2, 4, 3], strides: [12, 3, 1] : memref<24xf64> to memref<2x4x3xf64>
  %R = memref.alloc() : memref<2x3x3xf64>
  %K = memref.alloc() : memref<3x4xf64>
  call @misc(%A, %T, %x, %y, %d, %P, %Q, %R, %K) : (memref<3x4xf64>, memref<4x3xf64>, memref<4xf64>, memref<3xf64>, memref<f64>, memref<2x3x4xf64>, memref<2x4x3xf64>, memref<2x3x3xf64>, memref<3x4xf64>) -> ()
  %u_T = memref.cast %T : memref<4x3xf64> to memref<*xf64>
  call @printMemrefF64(%u_T) : (memref<*xf64>) -> ()
  %u_y = memref.cast %y : memref<3xf64> to memref<*xf64>
  call @printMemrefF64(%u_y) : (memref<*xf64>) -> ()
  %u_R = memref.cast %R : memref<2x3x3xf64> to memref<*xf64>
  call @printMemrefF64(%u_R) : (memref<*xf64>) -> ()
  %u_K = memref.cast %K : memref<3x4xf64> to memref<*xf64>
  call @printMemrefF64(%u_K) : (memref<*xf64>) -> ()
  %dv = memref.load %d[] : memref<f64>
  call @printF64(%dv) : (f64) -> ()
  call @printNewline() : () -> ()
  return
}
