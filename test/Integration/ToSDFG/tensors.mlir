// RUN: mlir-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: sdfg-opt %s --one-shot-bufferize="bufferize-function-boundaries" --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.dynamic
// RUN: diff %t.expected %t.dynamic
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// A tensor program, bufferized by upstream's one-shot bufferization, then
// converted: functions return memrefs. A result written in place is the
// argument returned; a result allocated in the body (tensor.empty) becomes
// an argument container of the SDFG that the wrapper allocates (with the
// sizes it binds) and returns. Bufferized with its default, fully dynamic
// layouts at function boundaries, the program converts too
// (strided-arguments.mlir).

// SDFG-LABEL: sdfg.sdfg @scaled_sdfg
// SDFG-SAME: %{{.*}}: !sdfg.array<f64 ["arg0_d0"]> as "__return_array"
// SDFG-LABEL: func.func @scaled(%arg0: memref<?xf64>, %arg1: f64) -> memref<?xf64>
// SDFG: %[[R:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// SDFG: sdfg.invoke @scaled_sdfg(%arg0, %{{.*}}, %[[R]] :
// SDFG: return %[[R]] : memref<?xf64>
// SDFG-LABEL: sdfg.sdfg @flip_sdfg
// SDFG: sdfg.library "{{.*}}" "dace.libraries.standard.nodes.transpose.Transpose"
// SDFG-LABEL: func.func @flip(%arg0: memref<2x3xf64>) -> memref<3x2xf64>
// CHECK: [5,  5,  5,  5,  5]
// CHECK-NEXT: [3,  3,  3,  3,  3]
// CHECK-NEXT: {{\[\[}}0,   3],
// CHECK-NEXT: [1,   4],
// CHECK-NEXT: [2,   5]]

#id = affine_map<(d0) -> (d0)>
func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}

func.func @axpy(%x: tensor<?xf64>, %y: tensor<?xf64>, %a: f64) -> tensor<?xf64> {
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %y : tensor<?xf64>, tensor<?xf64>) outs(%y : tensor<?xf64>) {
  ^bb0(%u: f64, %v: f64, %w: f64):
    %m = arith.mulf %u, %a : f64
    %s = arith.addf %m, %v : f64
    linalg.yield %s : f64
  } -> tensor<?xf64>
  return %r : tensor<?xf64>
}

func.func @scaled(%x: tensor<?xf64>, %a: f64) -> tensor<?xf64> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf64>
  %e = tensor.empty(%n) : tensor<?xf64>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<?xf64>) outs(%e : tensor<?xf64>) {
  ^bb0(%u: f64, %w: f64):
    %m = arith.mulf %u, %a : f64
    linalg.yield %m : f64
  } -> tensor<?xf64>
  return %r : tensor<?xf64>
}

func.func @flip(%a: tensor<2x3xf64>) -> tensor<3x2xf64> {
  %e = tensor.empty() : tensor<3x2xf64>
  %t = linalg.transpose ins(%a : tensor<2x3xf64>) outs(%e : tensor<3x2xf64>) permutation = [1, 0]
  return %t : tensor<3x2xf64>
}

func.func @main() {
  %c5 = arith.constant 5 : index
  %one = arith.constant 1.5 : f64
  %two = arith.constant 2.0 : f64
  %e = tensor.empty(%c5) : tensor<?xf64>
  %x = linalg.fill ins(%one : f64) outs(%e : tensor<?xf64>) -> tensor<?xf64>
  %e2 = tensor.empty(%c5) : tensor<?xf64>
  %y = linalg.fill ins(%two : f64) outs(%e2 : tensor<?xf64>) -> tensor<?xf64>
  %r = call @axpy(%x, %y, %two) : (tensor<?xf64>, tensor<?xf64>, f64) -> tensor<?xf64>
  %m = bufferization.to_memref %r : memref<?xf64>
  %u = memref.cast %m : memref<?xf64> to memref<*xf64>
  call @printMemrefF64(%u) : (memref<*xf64>) -> ()
  %s = call @scaled(%x, %two) : (tensor<?xf64>, f64) -> tensor<?xf64>
  %sm = bufferization.to_memref %s : memref<?xf64>
  %su = memref.cast %sm : memref<?xf64> to memref<*xf64>
  call @printMemrefF64(%su) : (memref<*xf64>) -> ()
  %v = arith.constant dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]> : tensor<2x3xf64>
  %t = call @flip(%v) : (tensor<2x3xf64>) -> tensor<3x2xf64>
  %tm = bufferization.to_memref %t : memref<3x2xf64>
  %tu = memref.cast %tm : memref<3x2xf64> to memref<*xf64>
  call @printMemrefF64(%tu) : (memref<*xf64>) -> ()
  return
}
