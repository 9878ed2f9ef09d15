// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// A 3-d convolution, one channel, with affine.for.

// SDFG-DAG: sdfg.loop
// CHECK: {{\[\[}}[3.25,    1.375,    -2.5625,    5.1875],
// CHECK-NEXT: [0.0625,    3,    -2.3125,    -0.0625],
// CHECK-NEXT: [-1.75,    3.25,    1.375,    -2.5625],
// CHECK-NEXT: [0.5625,    0.0625,    3,    -2.3125]],
// CHECK-NEXT: {{\[\[}}5.1875,    0.5625,    0.0625,    3],
// CHECK-NEXT: [-0.0625,    2.1875,    -1.75,    3.25],
// CHECK-NEXT: [-2.5625,    5.1875,    0.5625,    0.0625],
// CHECK-NEXT: [-2.3125,    -0.0625,    2.1875,    -1.75]],
// CHECK-NEXT: {{\[\[}}3,    -2.3125,    -0.0625,    2.1875],
// CHECK-NEXT: [3.25,    1.375,    -2.5625,    5.1875],
// CHECK-NEXT: [0.0625,    3,    -2.3125,    -0.0625],
// CHECK-NEXT: [-1.75,    3.25,    1.375,    -2.5625]],
// CHECK-NEXT: {{\[\[}}2.1875,    -1.75,    3.25,    1.375],
// CHECK-NEXT: [5.1875,    0.5625,    0.0625,    3],
// CHECK-NEXT: [-0.0625,    2.1875,    -1.75,    3.25],
// CHECK-NEXT: [-2.5625,    5.1875,    0.5625,    0.0625]]]

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
func.func @conv3d(%I: memref<5x5x5xf64>, %W: memref<2x2x2xf64>, %O: memref<4x4x4xf64>) {
  affine.for %z = 0 to 4 {
    affine.for %y = 0 to 4 {
      affine.for %x = 0 to 4 {
        %zero = arith.constant 0.0 : f64
        affine.store %zero, %O[%z, %y, %x] : memref<4x4x4xf64>
        affine.for %kz = 0 to 2 {
          affine.for %ky = 0 to 2 {
            affine.for %kx = 0 to 2 {
              %i = affine.load %I[%z + %kz, %y + %ky, %x + %kx] : memref<5x5x5xf64>
              %w = affine.load %W[%kz, %ky, %kx] : memref<2x2x2xf64>
              %o = affine.load %O[%z, %y, %x] : memref<4x4x4xf64>
              %p = arith.mulf %i, %w : f64
              %s = arith.addf %o, %p : f64
              affine.store %s, %O[%z, %y, %x] : memref<4x4x4xf64>
            }
          }
        }
      }
    }
  }
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
  %I_flat = memref.alloc() : memref<125xf64>
  %I_dyn = memref.cast %I_flat : memref<125xf64> to memref<?xf64>
  call @init1(%I_dyn, %c3) : (memref<?xf64>, index) -> ()
  %I = memref.reinterpret_cast %I_flat to offset: [0], sizes: [5, 5, 5], strides: [25, 5, 1] : memref<125xf64> to memref<5x5x5xf64>
  %W_flat = memref.alloc() : memref<8xf64>
  %W_dyn = memref.cast %W_flat : memref<8xf64> to memref<?xf64>
  call @init1(%W_dyn, %c3) : (memref<?xf64>, index) -> ()
  %W = memref.reinterpret_cast %W_flat to offset: [0], sizes: [2, 2, 2], strides: [4, 2, 1] : memref<8xf64> to memref<2x2x2xf64>
  %O = memref.alloc() : memref<4x4x4xf64>
  call @conv3d(%I, %W, %O) : (memref<5x5x5xf64>, memref<2x2x2xf64>, memref<4x4x4xf64>) -> ()
  %u_O = memref.cast %O : memref<4x4x4xf64> to memref<*xf64>
  call @printMemrefF64(%u_O) : (memref<*xf64>) -> ()
  return
}
