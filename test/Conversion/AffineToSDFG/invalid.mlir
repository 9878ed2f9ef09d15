// RUN: sdfg-opt %s -split-input-file --convert-to-sdfg --verify-diagnostics

// Booleans have no atomic update the lowering can use.
func.func @boolean_or(%x: memref<8xi1>, %out: memref<1xi1>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{reduces with `ori` on i1; only sums, products, signed or NaN-propagating min and max, and bitwise and and or are converted}}
  %r = affine.parallel (%i) = (0) to (8) reduce ("ori") -> i1 {
    %v = affine.load %x[%i] : memref<8xi1>
    affine.yield %v : i1
  }
  memref.store %r, %out[%c0] : memref<1xi1>
  return
}

// -----

func.func @unknown_op(%x: memref<8xi64>) {
  affine.for %i = 0 to 8 {
    // expected-error @+1 {{'gpu.thread_id' op cannot be converted to an SDFG: 'gpu.thread_id' is not supported}}
    %t = gpu.thread_id x
    %u = arith.index_cast %t : index to i64
    affine.store %u, %x[%i] : memref<8xi64>
  }
  return
}
