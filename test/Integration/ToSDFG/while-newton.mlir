// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// scf.while: Newton's iteration for square roots until the step is small, per element (carried and forwarded values in transient scalars, the condition in a transient boolean).

// SDFG-DAG: sdfg.loop @{{.*}} cond "c{{[0-9]*}}"
// CHECK: [1.5,  2.5,  3.5,  4.5,  5.5,  6.5]
// CHECK-NEXT: [5,  6,  6,  7,  7,  7]

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
func.func @sqrt_all(%x: memref<?xf64>, %y: memref<?xf64>, %steps: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %half = arith.constant 0.5 : f64
  %eps = arith.constant 1.0e-12 : f64
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %n = memref.dim %x, %c0 : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %a = memref.load %x[%i] : memref<?xf64>
    %r:2 = scf.while (%g = %a, %k = %zero) : (f64, i32) -> (f64, i32) {
      %q = arith.divf %a, %g : f64
      %d = arith.subf %g, %q : f64
      %ad = math.absf %d : f64
      %more = arith.cmpf ogt, %ad, %eps : f64
      scf.condition(%more) %g, %k : f64, i32
    } do {
    ^bb0(%g: f64, %k: i32):
      %q = arith.divf %a, %g : f64
      %s = arith.addf %g, %q : f64
      %h = arith.mulf %s, %half : f64
      %k1 = arith.addi %k, %one : i32
      scf.yield %h, %k1 : f64, i32
    }
    memref.store %r#0, %y[%i] : memref<?xf64>
    memref.store %r#1, %steps[%i] : memref<?xi32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %x = memref.alloc(%c6) : memref<?xf64>
  scf.for %i = %c0 to %c6 step %c1 {
    %k = arith.index_cast %i : index to i64
    %f = arith.sitofp %k : i64 to f64
    %g = arith.constant 1.5 : f64
    %v = arith.addf %f, %g : f64
    %w = arith.mulf %v, %v : f64
    memref.store %w, %x[%i] : memref<?xf64>
  }
  %y = memref.alloc(%c6) : memref<?xf64>
  %s = memref.alloc(%c6) : memref<?xi32>
  call @sqrt_all(%x, %y, %s) : (memref<?xf64>, memref<?xf64>, memref<?xi32>) -> ()
  %u = memref.cast %y : memref<?xf64> to memref<*xf64>
  call @printMemrefF64(%u) : (memref<*xf64>) -> ()
  %v = memref.cast %s : memref<?xi32> to memref<*xi32>
  call @printMemrefI32(%v) : (memref<*xi32>) -> ()
  return
}
