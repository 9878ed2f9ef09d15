// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// PolyBench heat-3d: a 3-d seven-point stencil in a time loop, two parallel sweeps.

// SDFG-DAG: sdfg.map "{{.*}}" ["{{.*}}" = "1:arg0_d0 - 1", "{{.*}}" = "1:arg0_d0 - 1", "{{.*}}" = "1:arg0_d0 - 1"]
// CHECK: {{\[\[}}[1.5,    0.5,    -0.5,    1.25,    0.25],
// CHECK-NEXT: [-0.75,    1,    0,    -1,    0.75],
// CHECK-NEXT: [-0.25,    1.5,    0.5,    -0.5,    1.25],
// CHECK-NEXT: [0.25,    -0.75,    1,    0,    -1],
// CHECK-NEXT: [0.75,    -0.25,    1.5,    0.5,    -0.5]],
// CHECK-NEXT: {{\[\[}}1.25,    0.25,    -0.75,    1,    0],
// CHECK-NEXT: [-1,    0.277344,    0.0507812,    0.253906,    0.5],
// CHECK-NEXT: [-0.5,    0.433594,    0.25,    0.152344,    1],
// CHECK-NEXT: [0,    0.03125,    0.492188,    0.265625,    1.5],
// CHECK-NEXT: [0.5,    -0.5,    1.25,    0.25,    -0.75]],
// CHECK-NEXT: {{\[\[}}1,    0,    -1,    0.75,    -0.25],
// CHECK-NEXT: [1.5,    0.457031,    -0.0273438,    0.390625,    0.25],
// CHECK-NEXT: [-0.75,    0.3125,    0.171875,    0.203125,    0.75],
// CHECK-NEXT: [-0.25,    0.210938,    0.371094,    0.1875,    1.25],
// CHECK-NEXT: [0.25,    -0.75,    1,    0,    -1]],
// CHECK-NEXT: {{\[\[}}0.75,    -0.25,    1.5,    0.5,    -0.5],
// CHECK-NEXT: [1.25,    0.292969,    0.152344,    0.441406,    0],
// CHECK-NEXT: [-1,    0.234375,    0.09375,    0.425781,    0.5],
// CHECK-NEXT: [-0.5,    0.21875,    0.292969,    0.0234375,    1],
// CHECK-NEXT: [0,    -1,    0.75,    -0.25,    1.5]],
// CHECK-NEXT: {{\[\[}}0.5,    -0.5,    1.25,    0.25,    -0.75],
// CHECK-NEXT: [1,    0,    -1,    0.75,    -0.25],
// CHECK-NEXT: [1.5,    0.5,    -0.5,    1.25,    0.25],
// CHECK-NEXT: [-0.75,    1,    0,    -1,    0.75],
// CHECK-NEXT: [-0.25,    1.5,    0.5,    -0.5,    1.25]]]

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
func.func @heat(%A: memref<?x?x?xf64>, %B: memref<?x?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %k = arith.constant 0.125 : f64
  %two = arith.constant 2.0 : f64
  %n = memref.dim %A, %c0 : memref<?x?x?xf64>
  %l = arith.subi %n, %c1 : index
  scf.for %t = %c0 to %c2 step %c1 {
    scf.parallel (%i, %j, %h) = (%c1, %c1, %c1) to (%l, %l, %l) step (%c1, %c1, %c1) {
      %im = arith.subi %i, %c1 : index
      %ip = arith.addi %i, %c1 : index
      %jm = arith.subi %j, %c1 : index
      %jp = arith.addi %j, %c1 : index
      %hm = arith.subi %h, %c1 : index
      %hp = arith.addi %h, %c1 : index
      %c = memref.load %A[%i, %j, %h] : memref<?x?x?xf64>
      %a1 = memref.load %A[%ip, %j, %h] : memref<?x?x?xf64>
      %a2 = memref.load %A[%im, %j, %h] : memref<?x?x?xf64>
      %b1 = memref.load %A[%i, %jp, %h] : memref<?x?x?xf64>
      %b2 = memref.load %A[%i, %jm, %h] : memref<?x?x?xf64>
      %d1 = memref.load %A[%i, %j, %hp] : memref<?x?x?xf64>
      %d2 = memref.load %A[%i, %j, %hm] : memref<?x?x?xf64>
      %c2x = arith.mulf %two, %c : f64
      %s1 = arith.addf %a1, %a2 : f64
      %s2 = arith.addf %b1, %b2 : f64
      %s3 = arith.addf %d1, %d2 : f64
      %t1 = arith.subf %s1, %c2x : f64
      %t2 = arith.subf %s2, %c2x : f64
      %t3 = arith.subf %s3, %c2x : f64
      %u1 = arith.addf %t1, %t2 : f64
      %u2 = arith.addf %u1, %t3 : f64
      %u3 = arith.mulf %u2, %k : f64
      %r = arith.addf %u3, %c : f64
      memref.store %r, %B[%i, %j, %h] : memref<?x?x?xf64>
    }
    scf.parallel (%i, %j, %h) = (%c1, %c1, %c1) to (%l, %l, %l) step (%c1, %c1, %c1) {
      %v = memref.load %B[%i, %j, %h] : memref<?x?x?xf64>
      memref.store %v, %A[%i, %j, %h] : memref<?x?x?xf64>
    }
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
  %a_flat = memref.alloc() : memref<125xf64>
  %a_dyn = memref.cast %a_flat : memref<125xf64> to memref<?xf64>
  call @init1(%a_dyn, %c3) : (memref<?xf64>, index) -> ()
  %a = memref.reinterpret_cast %a_flat to offset: [0], sizes: [5, 5, 5], strides: [25, 5, 1] : memref<125xf64> to memref<5x5x5xf64>
  %A = memref.cast %a : memref<5x5x5xf64> to memref<?x?x?xf64>
  %b_flat = memref.alloc() : memref<125xf64>
  %b_dyn = memref.cast %b_flat : memref<125xf64> to memref<?xf64>
  call @init1(%b_dyn, %c3) : (memref<?xf64>, index) -> ()
  %b = memref.reinterpret_cast %b_flat to offset: [0], sizes: [5, 5, 5], strides: [25, 5, 1] : memref<125xf64> to memref<5x5x5xf64>
  %B = memref.cast %b : memref<5x5x5xf64> to memref<?x?x?xf64>
  call @heat(%A, %B) : (memref<?x?x?xf64>, memref<?x?x?xf64>) -> ()
  %u_a = memref.cast %a : memref<5x5x5xf64> to memref<*xf64>
  call @printMemrefF64(%u_a) : (memref<*xf64>) -> ()
  return
}
