// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// linalg.conv_2d_nhwc_hwcf on static shapes: output points in parallel, the window and channels reduced in loops.

// SDFG-DAG: sdfg.map
// SDFG-DAG: sdfg.loop
// CHECK: {{\[\[}}{{\[\[}}3.375,     -2.4375,     4.125],
// CHECK-NEXT: [0.6875,     -0.75,     0.5625],
// CHECK-NEXT: [-2.6875,     2.3125,     0.4375],
// CHECK-NEXT: [0.8125,     4.6875,     -0.375]],
// CHECK-NEXT: {{\[\[}}-1.75,     2.1875,     -1.4375],
// CHECK-NEXT: [0.375,     -1.625,     1.875],
// CHECK-NEXT: [-0.9375,     3.5,     3.8125],
// CHECK-NEXT: [-0.1875,     3.125,     0.25]],
// CHECK-NEXT: {{\[\[}}0.6875,     -0.75,     0.5625],
// CHECK-NEXT: [-2.6875,     2.3125,     0.4375],
// CHECK-NEXT: [0.8125,     4.6875,     -0.375],
// CHECK-NEXT: [3.625,     -1.1875,     5.6875]],
// CHECK-NEXT: {{\[\[}}0.375,     -1.625,     1.875],
// CHECK-NEXT: [-0.9375,     3.5,     3.8125],
// CHECK-NEXT: [-0.1875,     3.125,     0.25],
// CHECK-NEXT: [-1.5,     3.4375,     0.125]]]]

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
func.func @conv(%I: memref<1x6x6x2xf64>, %W: memref<3x3x2x3xf64>, %O: memref<1x4x4x3xf64>) {
  %z = arith.constant 0.0 : f64
  linalg.fill ins(%z : f64) outs(%O : memref<1x4x4x3xf64>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%I, %W : memref<1x6x6x2xf64>, memref<3x3x2x3xf64>) outs(%O : memref<1x4x4x3xf64>)
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
  %I = memref.reinterpret_cast %I_flat to offset: [0], sizes: [1, 6, 6, 2], strides: [72, 12, 2, 1] : memref<72xf64> to memref<1x6x6x2xf64>
  %W_flat = memref.alloc() : memref<54xf64>
  %W_dyn = memref.cast %W_flat : memref<54xf64> to memref<?xf64>
  call @init1(%W_dyn, %c4) : (memref<?xf64>, index) -> ()
  %W = memref.reinterpret_cast %W_flat to offset: [0], sizes: [3, 3, 2, 3], strides: [18, 6, 3, 1] : memref<54xf64> to memref<3x3x2x3xf64>
  %O = memref.alloc() : memref<1x4x4x3xf64>
  call @conv(%I, %W, %O) : (memref<1x6x6x2xf64>, memref<3x3x2x3xf64>, memref<1x4x4x3xf64>) -> ()
  %u_O = memref.cast %O : memref<1x4x4x3xf64> to memref<*xf64>
  call @printMemrefF64(%u_O) : (memref<*xf64>) -> ()
  return
}
