// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// linalg's products on parts of dynamically sized containers: subviews that
// move with a loop (a library node in a loop body, which the DaCe export
// puts in a nested SDFG), accumulation onto values already there (no
// fill), a transpose of a view, and integer products, each a library node
// on memlet subsets; and a product on every other column and element
// (strided subviews), which goes through upstream's loops.

// SDFG-LABEL: sdfg.sdfg @blocks_sdfg
// SDFG: sdfg.loop
// SDFG: sdfg.library "{{.*}}" "dace.libraries.blas.nodes.gemm.Gemm" ins("_a" = %{{.*}}["0:4, i:i + 3"] : {{.*}}, "_b" = %{{.*}}["i:i + 3, 0:5"] : {{.*}}, "_cin" = %{{.*}}["0:4, 0:5"] : {{.*}})
// SDFG: sdfg.library "{{.*}}" "dace.libraries.blas.nodes.gemv.Gemv" {{.*}} properties {alpha = "1", beta = "1", transA = "true"}
// SDFG-NOT: Gemv
// SDFG: sdfg.map
// SDFG: sdfg.library "{{.*}}" "dace.libraries.standard.nodes.transpose.Transpose" ins("_inp" = %{{.*}}["1:4, 0:5"] : {{.*}})
// SDFG-LABEL: sdfg.sdfg @imm_sdfg
// SDFG: sdfg.library "{{.*}}" "dace.libraries.blas.nodes.gemm.Gemm" ins("_a" = %{{.*}} : !sdfg.array<i32 ["3", "3"]>
// CHECK: {{\[\[}}4.4375,   3.125,   -3,   3.25,   1.9375],
// CHECK-NEXT: [-2.5625,   4,   3,   -3.5,   3.0625],
// CHECK-NEXT: [2.8125,   -3.375,   3.5,   2.125,   -4.0625],
// CHECK-NEXT: [2.6875,   1.625,   -4.25,   2.25,   1.1875]]
// CHECK-NEXT: [8.6875,  -3.6875,  -0.25,  6.96875,  -4.34375,  0]
// CHECK: {{^}}2.8125
// CHECK-NEXT: {{\[\[}}-7,   -33,   -59],
// CHECK-NEXT: [5,   6,   7],
// CHECK-NEXT: [17,   45,   73]]

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
func.func @blocks(%A: memref<?x?xf64>, %B: memref<?x?xf64>, %C: memref<?x?xf64>, %x: memref<?xf64>, %y: memref<?xf64>, %d: memref<f64>, %T: memref<5x3xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    %a = memref.subview %A[0, %i] [4, 3] [1, 1] : memref<?x?xf64> to memref<4x3xf64, strided<[?, 1], offset: ?>>
    %b = memref.subview %B[%i, 0] [3, 5] [1, 1] : memref<?x?xf64> to memref<3x5xf64, strided<[?, 1], offset: ?>>
    %c = memref.subview %C[0, 0] [4, 5] [1, 1] : memref<?x?xf64> to memref<4x5xf64, strided<[?, 1]>>
    linalg.matmul ins(%a, %b : memref<4x3xf64, strided<[?, 1], offset: ?>>, memref<3x5xf64, strided<[?, 1], offset: ?>>) outs(%c : memref<4x5xf64, strided<[?, 1]>>)
  }
  %x4 = memref.subview %x[0] [4] [1] : memref<?xf64> to memref<4xf64, strided<[1]>>
  %c45 = memref.subview %C[0, 0] [4, 5] [1, 1] : memref<?x?xf64> to memref<4x5xf64, strided<[?, 1]>>
  %y5 = memref.subview %y[0] [5] [1] : memref<?xf64> to memref<5xf64, strided<[1]>>
  linalg.vecmat ins(%x4, %c45 : memref<4xf64, strided<[1]>>, memref<4x5xf64, strided<[?, 1]>>) outs(%y5 : memref<5xf64, strided<[1]>>)
  %col = memref.subview %A[0, 1] [4, 3] [1, 2] : memref<?x?xf64> to memref<4x3xf64, strided<[?, 2], offset: 1>>
  %xs = memref.subview %x[1] [3] [2] : memref<?xf64> to memref<3xf64, strided<[2], offset: 1>>
  %y4 = memref.subview %y[0] [4] [1] : memref<?xf64> to memref<4xf64, strided<[1]>>
  linalg.matvec ins(%col, %xs : memref<4x3xf64, strided<[?, 2], offset: 1>>, memref<3xf64, strided<[2], offset: 1>>) outs(%y4 : memref<4xf64, strided<[1]>>)
  linalg.dot ins(%xs, %xs : memref<3xf64, strided<[2], offset: 1>>, memref<3xf64, strided<[2], offset: 1>>) outs(%d : memref<f64>)
  %c35 = memref.subview %C[1, 0] [3, 5] [1, 1] : memref<?x?xf64> to memref<3x5xf64, strided<[?, 1], offset: ?>>
  linalg.transpose ins(%c35 : memref<3x5xf64, strided<[?, 1], offset: ?>>) outs(%T : memref<5x3xf64>) permutation = [1, 0]
  return
}

func.func @imm(%P: memref<3x3xi32>, %Q: memref<3x3xi32>, %R: memref<3x3xi32>) {
  linalg.matmul ins(%P, %Q : memref<3x3xi32>, memref<3x3xi32>) outs(%R : memref<3x3xi32>)
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
  %A = memref.alloc(%c4, %c8) : memref<?x?xf64>
  call @init2(%A, %c1) : (memref<?x?xf64>, index) -> ()
  %B = memref.alloc(%c6, %c5) : memref<?x?xf64>
  call @init2(%B, %c2) : (memref<?x?xf64>, index) -> ()
  %C = memref.alloc(%c4, %c5) : memref<?x?xf64>
  call @init2(%C, %c3) : (memref<?x?xf64>, index) -> ()
  %x = memref.alloc(%c8) : memref<?xf64>
  call @init1(%x, %c4) : (memref<?xf64>, index) -> ()
  %y = memref.alloc(%c6) : memref<?xf64>
  call @init1(%y, %c5) : (memref<?xf64>, index) -> ()
  %d = memref.alloc() : memref<f64>
  %h = arith.constant 1.5 : f64
  memref.store %h, %d[] : memref<f64>
  %T = memref.alloc() : memref<5x3xf64>
  call @blocks(%A, %B, %C, %x, %y, %d, %T) : (memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>, memref<?xf64>, memref<?xf64>, memref<f64>, memref<5x3xf64>) -> ()
  %u_C = memref.cast %C : memref<?x?xf64> to memref<*xf64>
  call @printMemrefF64(%u_C) : (memref<*xf64>) -> ()
  %u_y = memref.cast %y : memref<?xf64> to memref<*xf64>
  call @printMemrefF64(%u_y) : (memref<*xf64>) -> ()
  %u_T = memref.cast %T : memref<5x3xf64> to memref<*xf64>
  call @printMemrefF64(%u_T) : (memref<*xf64>) -> ()
  %dv = memref.load %d[] : memref<f64>
  call @printF64(%dv) : (f64) -> ()
  call @printNewline() : () -> ()
  %P = memref.alloc() : memref<3x3xi32>
  %Q = memref.alloc() : memref<3x3xi32>
  %R = memref.alloc() : memref<3x3xi32>
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %k = arith.muli %i, %c3 : index
      %l = arith.addi %k, %j : index
      %v = arith.index_cast %l : index to i32
      %w = arith.subi %v, %v : i32
      %s = arith.constant 4 : i32
      %p = arith.subi %v, %s : i32
      memref.store %p, %P[%i, %j] : memref<3x3xi32>
      memref.store %v, %Q[%j, %i] : memref<3x3xi32>
      memref.store %v, %R[%i, %j] : memref<3x3xi32>
    }
  }
  call @imm(%P, %Q, %R) : (memref<3x3xi32>, memref<3x3xi32>, memref<3x3xi32>) -> ()
  %u_R = memref.cast %R : memref<3x3xi32> to memref<*xi32>
  call @printMemrefI32(%u_R) : (memref<*xi32>) -> ()
  return
}
