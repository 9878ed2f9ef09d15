// RUN: sdfg-opt %s -split-input-file --convert-to-sdfg --verify-diagnostics

func.func @unknown_op(%x: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'vector.splat' op cannot be converted to an SDFG: 'vector.splat' is not supported}}
  %v = vector.splat %c0 : vector<4xindex>
  return
}

// -----

// expected-error @+1 {{argument 0 is a tensor (tensor<4xf64>); convert-to-sdfg takes memrefs: bufferize the program first}}
func.func @tensor(%t: tensor<4xf64>) {
  return
}

// -----

// A function whose argument's layout is not strided stays (its calls
// convert as nested SDFGs); named, it is an error (named-functions.mlir).
// expected-remark @+1 {{stays as it is: argument 0 is a memref whose layout is not strided, which an SDFG argument does not take; its calls convert as nested SDFGs}}
func.func @unstrided_argument(%x: memref<8xf64, affine_map<(i) -> (i floordiv 2)>>) {
  return
}

// -----

// A returned memref must be an argument or an allocation of the body.
func.func @memref_result(%x: memref<8xf64>) -> memref<4xf64, strided<[1], offset: 2>> {
  %a = memref.subview %x[2] [4] [1] : memref<8xf64> to memref<4xf64, strided<[1], offset: 2>>
  // expected-error @+1 {{returns a memref<4xf64, strided<[1], offset: 2>> that is neither an argument nor allocated in the function body, which is not converted yet}}
  return %a : memref<4xf64, strided<[1], offset: 2>>
}

// -----

func.func private @print(f64)
// expected-remark @+1 {{stays as it is: it calls @print, which has no body here or calls a function that has none}}
func.func @caller(%x: f64) {
  call @print(%x) : (f64) -> ()
  return
}

// -----

func.func @recursive(%x: memref<4xf64>) {
  // expected-error @+1 {{calls @recursive recursively, which an SDFG cannot express}}
  func.call @recursive(%x) : (memref<4xf64>) -> ()
  return
}

// -----

// A strided argument's container starts at its first element: the
// memref's offset in its buffer is not known to the SDFG.
func.func @strided_offset(%x: memref<?xf64, strided<[?], offset: ?>>, %y: memref<1xi64>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{reads the offset of a memref whose buffer the SDFG sees from its first element (a strided argument), which is not converted yet}}
  %base, %offset, %size, %stride = memref.extract_strided_metadata %x : memref<?xf64, strided<[?], offset: ?>> -> memref<f64>, index, index, index
  %o = arith.index_cast %offset : index to i64
  memref.store %o, %y[%c0] : memref<1xi64>
  return
}

// -----

// Nor is where its buffer starts.
func.func @strided_reinterpret(%x: memref<?xf64, strided<[?], offset: ?>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{reinterprets a memref whose buffer is not a container laid out in C order from its start, which is not converted yet}}
  %r = memref.reinterpret_cast %x to offset: [0], sizes: [4], strides: [1] : memref<?xf64, strided<[?], offset: ?>> to memref<4xf64>
  %v = memref.load %r[%c0] : memref<4xf64>
  memref.store %v, %r[%c0] : memref<4xf64>
  return
}

// -----

// Even with C order's strides, a strided argument is seen from its first
// element, not from its buffer's base, which a reinterpretation reads.
func.func @c_order_strided(%x: memref<4xf64, strided<[1], offset: ?>>, %y: memref<4xf64>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{reinterprets a memref whose buffer is not a container laid out in C order from its start, which is not converted yet}}
  %r = memref.reinterpret_cast %x to offset: [0], sizes: [4], strides: [1] : memref<4xf64, strided<[1], offset: ?>> to memref<4xf64>
  %v = memref.load %r[%c0] : memref<4xf64>
  memref.store %v, %y[%c0] : memref<4xf64>
  return
}
