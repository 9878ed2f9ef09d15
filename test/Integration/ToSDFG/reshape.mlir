// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// memref.expand_shape and memref.collapse_shape: an access through the
// reshaped view is an access of the container at the reshaped indices
// (row-major within each group); a reshape of a reshape composes.

// SDFG-LABEL: sdfg.sdfg @rowsums_sdfg
// SDFG: "__in1" = %{{.*}}["4*i + j"] : !sdfg.array<f64 ["12"]>
// SDFG-LABEL: sdfg.sdfg @flat_sdfg
// SDFG: ins("__in0" = %{{.*}}["int_floor(i, 4), Mod(i, 4)"] : !sdfg.array<f64 ["3", "4"]>)
// SDFG-LABEL: sdfg.sdfg @twice_sdfg
// SDFG: ["int_floor(2*i + j + 2, 6) + 1, Mod(2*i + j + 2, 6)"]
// CHECK: [2.5,  0.25,  0.75]
// CHECK-NEXT: [1.5,  -0.5,  3,  1,  -1,  2.5,  0.5,  -1.5,  2,  0,  -2,  1.5]
// CHECK-NEXT: [2,  1,  0,  1.75,  -0.5,  1.25,  0.25,  -0.75,  1,  0,  -1,  0.75]

func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}

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
func.func @rowsums(%x: memref<12xf64>, %out: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %v = memref.expand_shape %x [[0, 1]] output_shape [3, 4] : memref<12xf64> into memref<3x4xf64>
  %zero = arith.constant 0.0 : f64
  scf.for %i = %c0 to %c3 step %c1 {
    %s = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> f64 {
      %e = memref.load %v[%i, %j] : memref<3x4xf64>
      %a = arith.addf %acc, %e : f64
      scf.yield %a : f64
    }
    memref.store %s, %out[%i] : memref<?xf64>
  }
  return
}

func.func @flat(%a: memref<3x4xf64>, %y: memref<12xf64>) {
  %f = memref.collapse_shape %a [[0, 1]] : memref<3x4xf64> into memref<12xf64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c12 = arith.constant 12 : index
  %k2 = arith.constant 2.0 : f64
  scf.parallel (%k) = (%c0) to (%c12) step (%c1) {
    %e = memref.load %f[%k] : memref<12xf64>
    %w = arith.mulf %e, %k2 : f64
    memref.store %w, %y[%k] : memref<12xf64>
  }
  return
}

func.func @twice(%a: memref<2x6xf64>) {
  %f = memref.collapse_shape %a [[0, 1]] : memref<2x6xf64> into memref<12xf64>
  %g = memref.expand_shape %f [[0, 1, 2]] output_shape [3, 2, 2] : memref<12xf64> into memref<3x2x2xf64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f64
  scf.parallel (%i, %j) = (%c0, %c0) to (%c2, %c2) step (%c1, %c1) {
    %e = memref.load %g[%c2, %i, %j] : memref<3x2x2xf64>
    %w = arith.addf %e, %one : f64
    memref.store %w, %g[%c0, %i, %j] : memref<3x2x2xf64>
  }
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c12 = arith.constant 12 : index
  %x = memref.alloc(%c12) : memref<?xf64>
  call @init1(%x, %c1) : (memref<?xf64>, index) -> ()
  %out = memref.alloc(%c3) : memref<?xf64>
  %xs = memref.cast %x : memref<?xf64> to memref<12xf64>
  call @rowsums(%xs, %out) : (memref<12xf64>, memref<?xf64>) -> ()
  %uo = memref.cast %out : memref<?xf64> to memref<*xf64>
  call @printMemrefF64(%uo) : (memref<*xf64>) -> ()
  %a = memref.expand_shape %xs [[0, 1]] output_shape [3, 4] : memref<12xf64> into memref<3x4xf64>
  %y = memref.alloc() : memref<12xf64>
  call @flat(%a, %y) : (memref<3x4xf64>, memref<12xf64>) -> ()
  %uy = memref.cast %y : memref<12xf64> to memref<*xf64>
  call @printMemrefF64(%uy) : (memref<*xf64>) -> ()
  %b = memref.expand_shape %xs [[0, 1]] output_shape [2, 6] : memref<12xf64> into memref<2x6xf64>
  call @twice(%b) : (memref<2x6xf64>) -> ()
  %ux = memref.cast %x : memref<?xf64> to memref<*xf64>
  call @printMemrefF64(%ux) : (memref<*xf64>) -> ()
  return
}
