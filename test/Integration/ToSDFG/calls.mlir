// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// Calls between converted functions are nested SDFGs: their memrefs bound to the caller's containers, sizes and integers to symbol mappings, float arguments and results through transients.

// SDFG-LABEL: sdfg.sdfg @steps_sdfg
// SDFG: sdfg.nested "norm_{{[0-9]+}}" ins("arg0" = %{{.*}}["0:arg0_d0"] : !sdfg.array<f64 ["arg0_d0"]>) outs("__return0" : !sdfg.array<f64 ["1"]>) symbols("arg0_d0" = "arg0_d0")
// SDFG: sdfg.nested "axpy_{{[0-9]+}}"
// CHECK: [-0.124844,  1.45828,  0.750313,  -0.416562,  1.16656,  0.458594,  -0.708281,  0.874844]

func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}
func.func private @printMemrefI32(memref<*xi32>) attributes {llvm.emit_c_interface}
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
func.func @axpy(%x: memref<?xf64>, %y: memref<?xf64>, %a: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf64>
    %w = memref.load %y[%i] : memref<?xf64>
    %p = arith.mulf %v, %a : f64
    %s = arith.addf %p, %w : f64
    memref.store %s, %y[%i] : memref<?xf64>
  }
  return
}
func.func @norm(%x: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %q = arith.mulf %v, %v : f64
    %t = arith.addf %acc, %q : f64
    scf.yield %t : f64
  }
  return %s : f64
}
func.func @steps(%x: memref<?xf64>, %y: memref<?xf64>, %k: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %kk = arith.index_cast %k : i32 to index
  scf.for %t = %c0 to %kk step %c1 {
    %r = func.call @norm(%x) : (memref<?xf64>) -> f64
    %inv = arith.constant 0.01 : f64
    %a = arith.mulf %r, %inv : f64
    func.call @axpy(%x, %y, %a) : (memref<?xf64>, memref<?xf64>, f64) -> ()
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %x = memref.alloc(%c8) : memref<?xf64>
  call @init1(%x, %c1) : (memref<?xf64>, index) -> ()
  %y = memref.alloc(%c8) : memref<?xf64>
  call @init1(%y, %c2) : (memref<?xf64>, index) -> ()
  %k = arith.constant 3 : i32
  call @steps(%x, %y, %k) : (memref<?xf64>, memref<?xf64>, i32) -> ()
  %u_y = memref.cast %y : memref<?xf64> to memref<*xf64>
  call @printMemrefF64(%u_y) : (memref<*xf64>) -> ()
  return
}
