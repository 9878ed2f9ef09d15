// RUN: sdfg-opt %s -split-input-file --convert-to-sdfg --verify-diagnostics

// linalg on tensors is bufferized first.
func.func @on_tensors(%a: memref<4x4xf64>, %b: memref<4x4xf64>) {
  // expected-error @+1 {{'bufferization.to_tensor' op works on tensors; convert-to-sdfg takes memrefs: bufferize the program first}}
  %t = bufferization.to_tensor %a restrict : memref<4x4xf64>
  %e = tensor.empty() : tensor<4x4xf64>
  %r = linalg.transpose ins(%t : tensor<4x4xf64>) outs(%e : tensor<4x4xf64>) permutation = [1, 0]
  %m = bufferization.to_memref %r : memref<4x4xf64>
  memref.copy %m, %b : memref<4x4xf64> to memref<4x4xf64>
  return
}

// -----

// An op of a linalg body that an SDFG cannot hold is named.
func.func @unknown_body_op(%a: memref<4xf64>, %b: memref<4xf64>) {
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%a : memref<4xf64>) outs(%b : memref<4xf64>) {
  ^bb0(%x: f64, %y: f64):
    // expected-error @+1 {{'gpu.thread_id' op cannot be converted to an SDFG: 'gpu.thread_id' is not supported}}
    %t = gpu.thread_id x
    %u = arith.index_cast %t : index to i64
    %f = arith.sitofp %u : i64 to f64
    %s = arith.addf %x, %f : f64
    linalg.yield %s : f64
  }
  return
}
