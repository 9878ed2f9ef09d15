// RUN: sdfg-opt %s -split-input-file --convert-to-sdfg | FileCheck %s

// linalg ops are lowered to loops first (upstream's
// convert-linalg-to-parallel-loops): parallel iterators are maps, reduction
// iterators loops in a nested SDFG inside the map.
// CHECK-LABEL: sdfg.sdfg @mm_sdfg
// CHECK: sdfg.map "{{.*}}" ["i" = "0:4", "j" = "0:5"]
// CHECK: sdfg.nested
// CHECK: sdfg.loop @{{.*}} var "{{.*}}" init "0" cond "{{.*}} < 6"
// CHECK: arith.mulf
// CHECK: arith.addf
func.func @mm(%A: memref<4x6xf64>, %B: memref<6x5xf64>, %C: memref<4x5xf64>) {
  linalg.matmul ins(%A, %B : memref<4x6xf64>, memref<6x5xf64>) outs(%C : memref<4x5xf64>)
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
