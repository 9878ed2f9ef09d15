// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// affine.if, as Polygeist writes border cases: a three-point smoothing that
// copies the borders (an integer set with two inequalities and an else
// branch), a result yielded from both branches, an equality constraint on
// a symbol, and a bound read from memory (a symbol assigned from an index
// scalar). Each is an sdfg.conditional on a symbolic condition.

// SDFG-LABEL: sdfg.sdfg @smooth_sdfg
// SDFG: sdfg.conditional
// SDFG: sdfg.branch @{{.*}} if "(i - 1) >= 0 and (arg0_d0 - i - 2) >= 0"
// SDFG-LABEL: sdfg.sdfg @edges_sdfg
// SDFG: sdfg.branch @{{.*}} if "(-arg2 + i) == 0"
// SDFG-LABEL: sdfg.sdfg @gated_sdfg
// SDFG: sdfg.branch @{{.*}} if "(-i + v_sym - 1) >= 0"
// CHECK: [0.375,  0.5,  0.4375,  5.25,  0.625,  0.5,  0.375,  0.25,  1]

func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}
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
#inner = affine_set<(d0)[s0] : (d0 - 1 >= 0, s0 - d0 - 2 >= 0)>
#at = affine_set<(d0)[s0] : (d0 - s0 == 0)>
#below = affine_set<(d0)[s0] : (s0 - d0 - 1 >= 0)>

func.func @smooth(%x: memref<?xf64>, %y: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %third = arith.constant 0.5 : f64
  affine.for %i = 0 to %n {
    %v = affine.if #inner(%i)[%n] -> f64 {
      %a = affine.load %x[%i - 1] : memref<?xf64>
      %b = affine.load %x[%i] : memref<?xf64>
      %c = affine.load %x[%i + 1] : memref<?xf64>
      %s = arith.addf %a, %b : f64
      %t = arith.addf %s, %c : f64
      %u = arith.mulf %t, %third : f64
      affine.yield %u : f64
    } else {
      %b = affine.load %x[%i] : memref<?xf64>
      affine.yield %b : f64
    }
    affine.store %v, %y[%i] : memref<?xf64>
  }
  return
}

func.func @edges(%x: memref<?xf64>, %y: memref<?xf64>, %k: index) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %ten = arith.constant 10.0 : f64
  affine.for %i = 0 to %n {
    affine.if #at(%i)[%k] {
      %b = affine.load %x[%i] : memref<?xf64>
      %c = arith.addf %b, %ten : f64
      affine.store %c, %y[%i] : memref<?xf64>
    }
  }
  return
}

// The bound is read from memory: a symbol assigned from an index scalar.
func.func @gated(%len: memref<1xi64>, %y: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %y, %c0 : memref<?xf64>
  %l = affine.load %len[0] : memref<1xi64>
  %k = arith.index_cast %l : i64 to index
  %half = arith.constant 0.5 : f64
  affine.for %i = 0 to %n {
    affine.if #below(%i)[%k] {
      %b = affine.load %y[%i] : memref<?xf64>
      %c = arith.mulf %b, %half : f64
      affine.store %c, %y[%i] : memref<?xf64>
    }
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c9 = arith.constant 9 : index
  %x = memref.alloc(%c9) : memref<?xf64>
  call @init1(%x, %c1) : (memref<?xf64>, index) -> ()
  %y = memref.alloc(%c9) : memref<?xf64>
  call @smooth(%x, %y) : (memref<?xf64>, memref<?xf64>) -> ()
  call @edges(%x, %y, %c3) : (memref<?xf64>, memref<?xf64>, index) -> ()
  %len = memref.alloc() : memref<1xi64>
  %four = arith.constant 4 : i64
  memref.store %four, %len[%c0] : memref<1xi64>
  call @gated(%len, %y) : (memref<1xi64>, memref<?xf64>) -> ()
  %u = memref.cast %y : memref<?xf64> to memref<*xf64>
  call @printMemrefF64(%u) : (memref<*xf64>) -> ()
  return
}
