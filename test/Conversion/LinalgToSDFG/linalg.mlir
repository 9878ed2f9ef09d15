// RUN: sdfg-opt %s -split-input-file --convert-to-sdfg | FileCheck %s

// The BLAS-like named ops keep their meaning as DaCe library nodes;
// linalg's products accumulate into their output, so a matmul is a Gemm
// with alpha 1 and beta 1 that reads C as `_cin`.
// CHECK-LABEL: sdfg.sdfg @mm_sdfg
// CHECK: %[[A:.*]] = sdfg.access %arg0
// CHECK: %[[B:.*]] = sdfg.access %arg1
// CHECK: %[[C:.*]] = sdfg.access %arg2
// CHECK: %[[G:.*]] = sdfg.library "gemm{{.*}}" "dace.libraries.blas.nodes.gemm.Gemm" ins("_a" = %[[A]]["0:4, 0:6"] : !sdfg.array<f64 ["4", "6"]>, "_b" = %[[B]]["0:6, 0:5"] : !sdfg.array<f64 ["6", "5"]>, "_cin" = %[[C]]["0:4, 0:5"] : !sdfg.array<f64 ["4", "5"]>) outs("_c" : !sdfg.array<f64 ["4", "5"]>) properties {alpha = "1", beta = "1"}
// CHECK: sdfg.access %arg2 writes(%[[G]]["0:4, 0:5"] : !sdfg.array<f64 ["4", "5"]>)
func.func @mm(%A: memref<4x6xf64>, %B: memref<6x5xf64>, %C: memref<4x5xf64>) {
  linalg.matmul ins(%A, %B : memref<4x6xf64>, memref<6x5xf64>) outs(%C : memref<4x5xf64>)
  return
}

// -----

// Operands that are dense parts of containers (subviews with unit
// strides) are memlet subsets of the containers.
// CHECK-LABEL: sdfg.sdfg @mm_blocks_sdfg
// CHECK: sdfg.library "gemm{{.*}}" "dace.libraries.blas.nodes.gemm.Gemm" ins("_a" = %{{.*}}["0:4, 2:5"] : {{.*}}, "_b" = %{{.*}}["1:4, 0:5"] : {{.*}}, "_cin" = %{{.*}}["i, 0:4, 0:5"] : {{.*}})
// CHECK: sdfg.access %arg2 writes(%{{.*}}["i, 0:4, 0:5"] : !sdfg.array<f32 ["2", "4", "5"]>)
func.func @mm_blocks(%A: memref<4x8xf32>, %B: memref<6x5xf32>, %C: memref<2x4x5xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    %a = memref.subview %A[0, 2] [4, 3] [1, 1] : memref<4x8xf32> to memref<4x3xf32, strided<[8, 1], offset: 2>>
    %b = memref.subview %B[1, 0] [3, 5] [1, 1] : memref<6x5xf32> to memref<3x5xf32, strided<[5, 1], offset: 5>>
    %c = memref.subview %C[%i, 0, 0] [1, 4, 5] [1, 1, 1] : memref<2x4x5xf32> to memref<4x5xf32, strided<[5, 1], offset: ?>>
    linalg.matmul ins(%a, %b : memref<4x3xf32, strided<[8, 1], offset: 2>>, memref<3x5xf32, strided<[5, 1], offset: 5>>) outs(%c : memref<4x5xf32, strided<[5, 1], offset: ?>>)
  }
  return
}

// -----

// matvec and vecmat are Gemv (vecmat with transA), dot a Dot into a
// transient added to the result, transpose a Transpose, batch_matmul a map
// over the batch of Gemm on slices, copy an access-to-access copy.
// CHECK-LABEL: sdfg.sdfg @products_sdfg
// CHECK: sdfg.library "gemv{{.*}}" "dace.libraries.blas.nodes.gemv.Gemv" ins("_A" = %{{.*}}["0:3, 0:4"] : {{.*}}, "_x" = %{{.*}}["0:4"] : {{.*}}, "_y" = %{{.*}}["0:3"] : {{.*}}) outs("_y" : {{.*}}) properties {alpha = "1", beta = "1"}
// CHECK: sdfg.library "gemv{{.*}}" "dace.libraries.blas.nodes.gemv.Gemv" ins("_A" = %{{.*}}["0:3, 0:4"] : {{.*}}, "_x" = %{{.*}}["0:3"] : {{.*}}, "_y" = %{{.*}}["0:4"] : {{.*}}) outs("_y" : {{.*}}) properties {alpha = "1", beta = "1", transA = "true"}
// CHECK: %[[D:.*]] = sdfg.library "dot{{.*}}" "dace.libraries.blas.nodes.dot.Dot" ins("_x" = {{.*}}, "_y" = {{.*}}) outs("_result" : !sdfg.array<f64 ["1"]>)
// CHECK: sdfg.access %dot writes(%[[D]]["0:1"]
// CHECK: sdfg.state
// CHECK: sdfg.tasklet "add{{.*}}" ins("__in0" = %{{.*}}["0"] : !sdfg.array<f64 ["1"]>, "__in1" = %{{.*}}["0"] : !sdfg.scalar<f64>)
// CHECK: arith.addf
// CHECK: sdfg.library "transpose{{.*}}" "dace.libraries.standard.nodes.transpose.Transpose" ins("_inp" = %{{.*}}["0:3, 0:4"] : {{.*}}) outs("_out" : !sdfg.array<f64 ["4", "3"]>)
// CHECK: sdfg.map "{{.*}}" ["__b" = "0:2"]
// CHECK: sdfg.library "gemm{{.*}}" {{.*}} ins("_a" = %{{.*}}["__b, 0:3, 0:4"] : {{.*}}, "_b" = %{{.*}}["__b, 0:4, 0:5"] : {{.*}}, "_cin" = %{{.*}}["__b, 0:3, 0:5"] : {{.*}})
// CHECK: sdfg.exit("arg7" = %{{.*}}["__b, 0:3, 0:5"] : !sdfg.array<f64 ["2", "3", "5"]>)
// CHECK: sdfg.access %arg9 writes(%{{.*}}["0:3, 0:4" -> "0:3, 0:4"]
func.func @products(%A: memref<3x4xf64>, %x: memref<4xf64>, %y: memref<3xf64>,
                    %r: memref<f64>, %T: memref<4x3xf64>,
                    %P: memref<2x3x4xf64>, %Q: memref<2x4x5xf64>, %R: memref<2x3x5xf64>,
                    %xt: memref<4xf64>, %K: memref<3x4xf64>) {
  linalg.matvec ins(%A, %x : memref<3x4xf64>, memref<4xf64>) outs(%y : memref<3xf64>)
  linalg.vecmat ins(%y, %A : memref<3xf64>, memref<3x4xf64>) outs(%xt : memref<4xf64>)
  linalg.dot ins(%x, %x : memref<4xf64>, memref<4xf64>) outs(%r : memref<f64>)
  linalg.transpose ins(%A : memref<3x4xf64>) outs(%T : memref<4x3xf64>) permutation = [1, 0]
  linalg.batch_matmul ins(%P, %Q : memref<2x3x4xf64>, memref<2x4x5xf64>) outs(%R : memref<2x3x5xf64>)
  linalg.copy ins(%A : memref<3x4xf64>) outs(%K : memref<3x4xf64>)
  return
}

// -----

// A product whose output is also an input, one on every other column (DaCe
// 1.0.2's BLAS expansions ignore memlet steps), and a transpose of another
// permutation, go through upstream's loops.
// CHECK-LABEL: sdfg.sdfg @stays_loops_sdfg
// CHECK-NOT: sdfg.library
// CHECK: sdfg.map
// CHECK-NOT: sdfg.library
// CHECK-LABEL: func.func @stays_loops
func.func @stays_loops(%A: memref<4x4xf64>, %X: memref<2x3x4xf64>, %Y: memref<4x2x3xf64>, %B: memref<4x2xf64>) {
  linalg.matmul ins(%A, %A : memref<4x4xf64>, memref<4x4xf64>) outs(%A : memref<4x4xf64>)
  %odd = memref.subview %A[0, 0] [4, 2] [1, 2] : memref<4x4xf64> to memref<4x2xf64, strided<[4, 2]>>
  %sq = memref.subview %X[0, 0, 0] [1, 2, 2] [1, 1, 1] : memref<2x3x4xf64> to memref<2x2xf64, strided<[4, 1]>>
  linalg.matmul ins(%odd, %sq : memref<4x2xf64, strided<[4, 2]>>, memref<2x2xf64, strided<[4, 1]>>) outs(%B : memref<4x2xf64>)
  linalg.transpose ins(%X : memref<2x3x4xf64>) outs(%Y : memref<4x2x3xf64>) permutation = [2, 0, 1]
  return
}

// -----

// An elementwise linalg.generic is one map whose tasklet holds the body;
// its indexing maps are the memlets' subsets.
// CHECK-LABEL: sdfg.sdfg @bias_sdfg
// CHECK: sdfg.map "{{.*}}" ["i" = "0:arg0_d0", "j" = "0:arg0_d1"]
// CHECK: sdfg.tasklet "{{.*}}" ins("__in0" = %{{.*}}["i, j"] : {{.*}}, "__in1" = %{{.*}}["j"] : {{.*}}) outs("__out0" : f32)
// CHECK: arith.addf
// CHECK: sdfg.exit("arg2" = %{{.*}}["i, j"] : f32)
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @bias(%X: memref<?x?xf32>, %b: memref<?xf32>, %Y: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%X, %b : memref<?x?xf32>, memref<?xf32>) outs(%Y : memref<?x?xf32>) {
  ^bb0(%x: f32, %v: f32, %y: f32):
    %t = arith.addf %x, %v : f32
    linalg.yield %t : f32
  }
  return
}

// -----

// linalg.fill is a map of constant stores.
// CHECK-LABEL: sdfg.sdfg @zero_sdfg
// CHECK: sdfg.map "{{.*}}" ["i" = "0:8"] outs("arg0" : !sdfg.array<f64 ["8"]>)
func.func @zero(%x: memref<8xf64>) {
  %z = arith.constant 0.0 : f64
  linalg.fill ins(%z : f64) outs(%x : memref<8xf64>)
  return
}
