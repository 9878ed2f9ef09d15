// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// Parts of containers passed to calls: a row of a matrix (a rank-reducing
// subview), a column (stride the row length), and a cast. Each nested SDFG
// takes the part's subset as its memlet and sees it through strides.

// SDFG-LABEL: sdfg.sdfg @rows_sdfg
// SDFG: sdfg.nested "scale_row_{{.*}}" ins("arg0" = %{{.*}}["i, 0:arg0_d1"] : {{.*}}) outs("arg0" : {{.*}}) symbols("arg0_d0" = "arg0_d1", "arg1" = "i")
// SDFG-NEXT: sdfg.sdfg @scale_row_{{.*}}(%{{.*}}: !sdfg.array<f64 ["arg0_d0"] strides ["1"]> as "arg0")
// SDFG-LABEL: sdfg.sdfg @cols_sdfg
// SDFG: sdfg.nested "col_sum_{{.*}}" ins("arg0" = %{{.*}}["0:arg0_d0, i"] : {{.*}}) outs("arg1" : {{.*}}) symbols("arg0_d0" = "arg0_d0", "arg0_s0" = "arg0_d1", "arg1_d0" = "arg1_d0", "arg2" = "i")
// SDFG-NEXT: sdfg.sdfg @col_sum_{{.*}}(%{{.*}}: !sdfg.array<f64 ["arg0_d0"] strides ["arg0_s0"]> as "arg0"
// CHECK: {{\[\[}}0,   -0,   0,   0],
// CHECK-NEXT: [1.5,   0.5,   -0.5,   1.25],
// CHECK-NEXT: [-1,   2.5,   0.5,   -1.5]]
// CHECK-NEXT: [0.5,  3,  0,  -0.25]
// CHECK-NEXT: [3,  1,  -1,  2.5]

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
func.func @init2(%A: memref<?x?xf64>, %seed: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %c13 = arith.constant 13 : index
  %q = arith.constant 0.25 : f64
  %one = arith.constant 1.0 : f64
  %n = memref.dim %A, %c0 : memref<?x?xf64>
  %m = memref.dim %A, %c1 : memref<?x?xf64>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %m step %c1 {
      %a = arith.muli %i, %c13 : index
      %b = arith.addi %a, %j : index
      %k = arith.addi %b, %seed : index
      %k7 = arith.muli %k, %c7 : index
      %r = arith.remui %k7, %c11 : index
      %ri = arith.index_cast %r : index to i64
      %f = arith.sitofp %ri : i64 to f64
      %g = arith.mulf %f, %q : f64
      %h = arith.subf %g, %one : f64
      memref.store %h, %A[%i, %j] : memref<?x?xf64>
    }
  }
  return
}
func.func @scale_row(%r: memref<?xf64, strided<[1], offset: ?>>, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %r, %c0 : memref<?xf64, strided<[1], offset: ?>>
  %ki = arith.index_cast %k : index to i64
  %kf = arith.sitofp %ki : i64 to f64
  scf.for %j = %c0 to %n step %c1 {
    %v = memref.load %r[%j] : memref<?xf64, strided<[1], offset: ?>>
    %w = arith.mulf %v, %kf : f64
    memref.store %w, %r[%j] : memref<?xf64, strided<[1], offset: ?>>
  }
  return
}

func.func @rows(%A: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %A, %c0 : memref<?x?xf64>
  %m = memref.dim %A, %c1 : memref<?x?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %row = memref.subview %A[%i, 0] [1, %m] [1, 1] : memref<?x?xf64> to memref<?xf64, strided<[1], offset: ?>>
    func.call @scale_row(%row, %i) : (memref<?xf64, strided<[1], offset: ?>>, index) -> ()
  }
  return
}

func.func @col_sum(%c: memref<?xf64, strided<[?], offset: ?>>, %out: memref<?xf64>, %j: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %c, %c0 : memref<?xf64, strided<[?], offset: ?>>
  %zero = arith.constant 0.0 : f64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %c[%i] : memref<?xf64, strided<[?], offset: ?>>
    %t = arith.addf %acc, %v : f64
    scf.yield %t : f64
  }
  memref.store %s, %out[%j] : memref<?xf64>
  return
}

func.func @cols(%A: memref<?x?xf64>, %out: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %A, %c0 : memref<?x?xf64>
  %m = memref.dim %A, %c1 : memref<?x?xf64>
  scf.for %j = %c0 to %m step %c1 {
    %col = memref.subview %A[0, %j] [%n, 1] [1, 1] : memref<?x?xf64> to memref<?xf64, strided<[?], offset: ?>>
    func.call @col_sum(%col, %out, %j) : (memref<?xf64, strided<[?], offset: ?>>, memref<?xf64>, index) -> ()
  }
  return
}

func.func @double(%x: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    %w = arith.addf %v, %v : f64
    memref.store %w, %x[%i] : memref<?xf64>
  }
  return
}

func.func @cast(%x: memref<4xf64>) {
  %d = memref.cast %x : memref<4xf64> to memref<?xf64>
  func.call @double(%d) : (memref<?xf64>) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %A = memref.alloc(%c3, %c4) : memref<?x?xf64>
  call @init2(%A, %c1) : (memref<?x?xf64>, index) -> ()
  call @rows(%A) : (memref<?x?xf64>) -> ()
  %u = memref.cast %A : memref<?x?xf64> to memref<*xf64>
  call @printMemrefF64(%u) : (memref<*xf64>) -> ()
  %out = memref.alloc(%c4) : memref<?xf64>
  call @cols(%A, %out) : (memref<?x?xf64>, memref<?xf64>) -> ()
  %uo = memref.cast %out : memref<?xf64> to memref<*xf64>
  call @printMemrefF64(%uo) : (memref<*xf64>) -> ()
  %s = memref.alloc() : memref<4xf64>
  %sd = memref.cast %s : memref<4xf64> to memref<?xf64>
  call @init1(%sd, %c3) : (memref<?xf64>, index) -> ()
  call @cast(%s) : (memref<4xf64>) -> ()
  %us = memref.cast %s : memref<4xf64> to memref<*xf64>
  call @printMemrefF64(%us) : (memref<*xf64>) -> ()
  return
}
