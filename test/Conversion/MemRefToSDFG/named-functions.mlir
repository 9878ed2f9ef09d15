// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(convert-to-sdfg{functions=named,plain})' --verify-diagnostics | FileCheck %s

// Named functions are converted, the others stay as they are.
// CHECK: sdfg.sdfg @named_sdfg
// CHECK: sdfg.sdfg @plain_sdfg
// CHECK: func.func @other
// CHECK-NOT: sdfg.sdfg @other_sdfg
func.func @named(%x: memref<4xf64>) {
  return
}
func.func @plain(%x: memref<4xf64>) {
  return
}
func.func @other(%x: memref<4xf64>) {
  return
}

// -----

// A named function that cannot be converted is an error.
func.func private @print(f64)
func.func @named(%x: f64) {
  // expected-error @+1 {{calls @print, so @named cannot be converted: @print has no body here or calls a function that has none, and such a call has effects an SDFG cannot model}}
  call @print(%x) : (f64) -> ()
  return
}
func.func @plain() {
  return
}

// -----

// expected-error @+1 {{argument 0 (memref<8xf64, affine_map<(d0) -> (d0 floordiv 2)>>): its layout is not strided, which is not converted}}
func.func @named(%x: memref<8xf64, affine_map<(i) -> (i floordiv 2)>>) {
  return
}
func.func @plain() {
  return
}
