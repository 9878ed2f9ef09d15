// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// A 2-d convolution in NCHW/FCHW layout with affine.for on static shapes.

// SDFG-DAG: ["{{.*}}, {{.*}}, {{.*}} + {{.*}}, {{.*}} + {{.*}}"]
// CHECK: {{\[\[}}{{\[\[}}6,     -2.25,     1.875,     2.5625],
// CHECK-NEXT: [2.5,     -0.9375,     3.1875,     -0.25],
// CHECK-NEXT: [-1,     0.375,     3.8125,     -1.6875],
// CHECK-NEXT: [-2.4375,     4.4375,     1,     -1.75]],
// CHECK-NEXT: {{\[\[}}-3,     1.3125,     3.5625,     -3.125],
// CHECK-NEXT: [-4,     8.5625,     -1.5625,     0],
// CHECK-NEXT: [2.5625,     4.8125,     -4.625,     8.625],
// CHECK-NEXT: [7.0625,     -3.0625,     1.25,     6.9375]],
// CHECK-NEXT: {{\[\[}}9.3125,     -1.3125,     -3,     5.625],
// CHECK-NEXT: [4.625,     -4.625,     6.75,     0.9375],
// CHECK-NEXT: [-2.8125,     -1.75,     4.125,     -1.6875],
// CHECK-NEXT: [-3.375,     5.25,     2.1875,     -3.625]]]]

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
func.func @conv(%I: memref<1x2x6x6xf64>, %W: memref<3x2x3x3xf64>, %O: memref<1x3x4x4xf64>) {
  affine.for %n = 0 to 1 {
    affine.for %f = 0 to 3 {
      affine.for %y = 0 to 4 {
        affine.for %x = 0 to 4 {
          affine.for %c = 0 to 2 {
            affine.for %ky = 0 to 3 {
              affine.for %kx = 0 to 3 {
                %i = affine.load %I[%n, %c, %y + %ky, %x + %kx] : memref<1x2x6x6xf64>
                %w = affine.load %W[%f, %c, %ky, %kx] : memref<3x2x3x3xf64>
                %o = affine.load %O[%n, %f, %y, %x] : memref<1x3x4x4xf64>
                %p = arith.mulf %i, %w : f64
                %s = arith.addf %o, %p : f64
                affine.store %s, %O[%n, %f, %y, %x] : memref<1x3x4x4xf64>
              }
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
  %I_flat = memref.alloc() : memref<72xf64>
  %I_dyn = memref.cast %I_flat : memref<72xf64> to memref<?xf64>
  call @init1(%I_dyn, %c4) : (memref<?xf64>, index) -> ()
  %I = memref.reinterpret_cast %I_flat to offset: [0], sizes: [1, 2, 6, 6], strides: [72, 36, 6, 1] : memref<72xf64> to memref<1x2x6x6xf64>
  %W_flat = memref.alloc() : memref<54xf64>
  %W_dyn = memref.cast %W_flat : memref<54xf64> to memref<?xf64>
  call @init1(%W_dyn, %c4) : (memref<?xf64>, index) -> ()
  %W = memref.reinterpret_cast %W_flat to offset: [0], sizes: [3, 2, 3, 3], strides: [18, 9, 3, 1] : memref<54xf64> to memref<3x2x3x3xf64>
  %O_flat = memref.alloc() : memref<48xf64>
  %O_dyn = memref.cast %O_flat : memref<48xf64> to memref<?xf64>
  call @init1(%O_dyn, %c4) : (memref<?xf64>, index) -> ()
  %O = memref.reinterpret_cast %O_flat to offset: [0], sizes: [1, 3, 4, 4], strides: [48, 16, 4, 1] : memref<48xf64> to memref<1x3x4x4xf64>
  call @conv(%I, %W, %O) : (memref<1x2x6x6xf64>, memref<3x2x3x3xf64>, memref<1x3x4x4xf64>) -> ()
  %u_O = memref.cast %O : memref<1x3x4x4xf64> to memref<*xf64>
  call @printMemrefF64(%u_O) : (memref<*xf64>) -> ()
  return
}
