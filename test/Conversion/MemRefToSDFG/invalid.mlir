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

// expected-error @+1 {{argument 0: memref type memref<?xf64, strided<[2]>> has a non-identity layout, which is not converted yet}}
func.func @strided_argument(%x: memref<?xf64, strided<[2]>>) {
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

func.func @data_bound(%x: memref<?xf64>, %n: memref<i64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %l = memref.load %n[] : memref<i64>
  // expected-error @+1 {{computes an index from data that later states need (a loop bound, or a subscript in another state), which is not converted yet}}
  %m = arith.index_cast %l : i64 to index
  scf.for %i = %c0 to %m step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    memref.store %v, %x[%c0] : memref<?xf64>
  }
  return
}

// -----

func.func @memref_result() -> memref<4xf64> {
  %a = memref.alloc() : memref<4xf64>
  // expected-error @+1 {{returns a memref<4xf64>; only integer and float results are converted}}
  return %a : memref<4xf64>
}

// -----

func.func @custom_combiner(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %s = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    // expected-error @+1 {{reduces with a combiner that is not a sum, product, min or max}}
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

// An affine.if condition on a value loaded from memory.
#positive = affine_set<()[s0] : (s0 - 1 >= 0)>
func.func @data_condition(%n: memref<i64>, %y: memref<8xf64>) {
  %m = memref.load %n[] : memref<i64>
  // expected-error @+1 {{'arith.index_cast' op computes an index from data that later states need (a loop bound, or a subscript in another state), which is not converted yet}}
  %k = arith.index_cast %m : i64 to index
  %one = arith.constant 1.0 : f64
  affine.if #positive()[%k] {
    affine.store %one, %y[0] : memref<8xf64>
  }
  return
}
