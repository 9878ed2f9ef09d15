// RUN: sdfg-opt %s -split-input-file --convert-to-sdfg --verify-diagnostics

// expected-error @+1 {{has unstructured control flow (several blocks), which is not converted; raise it to scf first}}
func.func @blocks(%c: i1) {
  cf.cond_br %c, ^a, ^b
^a:
  return
^b:
  return
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

// Booleans have no atomic update the lowering can use.
func.func @boolean_xor(%x: memref<?xi1>, %out: memref<1xi1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant false
  %n = memref.dim %x, %c0 : memref<?xi1>
  %s = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%f) -> i1 {
    %v = memref.load %x[%i] : memref<?xi1>
    // expected-error @+1 {{reduces with a combiner that is not a sum, a product, a signed or NaN-propagating min or max, or a bitwise and, or or xor, or reduces booleans}}
    scf.reduce(%v : i1) {
    ^bb0(%a: i1, %b: i1):
      %r = arith.xori %a, %b : i1
      scf.reduce.return %r : i1
    }
  }
  memref.store %s, %out[%c0] : memref<1xi1>
  return
}
