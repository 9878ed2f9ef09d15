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

// expected-error @+1 {{has unstructured control flow (several blocks), which is not converted; raise it to scf first}}
func.func @blocks(%c: i1) {
  cf.cond_br %c, ^a, ^b
^a:
  return
^b:
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

func.func @custom_combiner(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %s = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    // expected-error @+1 {{reduces with a combiner that is not a sum, a product, a signed or NaN-propagating min or max, or a bitwise and, or or xor, or reduces booleans}}
    scf.reduce(%v : f64) {
    ^bb0(%a: f64, %b: f64):
      %p = arith.mulf %a, %b : f64
      %r = arith.addf %p, %a : f64
      scf.reduce.return %r : f64
    }
  }
  return %s : f64
}

// -----

// A WCR's max is signed: an unsigned max has none.
func.func @unsigned_max(%x: memref<?xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i64
  %n = memref.dim %x, %c0 : memref<?xi64>
  %s = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%z) -> i64 {
    %v = memref.load %x[%i] : memref<?xi64>
    // expected-error @+1 {{reduces with a combiner that is not a sum, a product, a signed or NaN-propagating min or max, or a bitwise and, or or xor, or reduces booleans}}
    scf.reduce(%v : i64) {
    ^bb0(%a: i64, %b: i64):
      %r = arith.maxui %a, %b : i64
      scf.reduce.return %r : i64
    }
  }
  return %s : i64
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
