// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// PolyBench seidel-2d: an in-place nine-point stencil whose iterations depend on each other (sequential loops).

// SDFG-DAG: sdfg.loop
// CHECK: {{\[\[}}0.75,   -0.25,   1.5,   0.5,   -0.5,   1.25],
// CHECK-NEXT: [1.5,   0.502515,   0.42994,   0.326472,   0.136535,   -0.75],
// CHECK-NEXT: [-0.5,   0.336842,   0.22974,   0.183378,   0.0932398,   0],
// CHECK-NEXT: [0.25,   0.196568,   0.170617,   0.192891,   0.407732,   0.75],
// CHECK-NEXT: [1,   0.147396,   0.358067,   0.402133,   0.576405,   1.5],
// CHECK-NEXT: [-1,   0.75,   -0.25,   1.5,   0.5,   -0.5]]

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
func.func @seidel(%A: memref<?x?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %nine = arith.constant 9.0 : f64
  %n = memref.dim %A, %c0 : memref<?x?xf64>
  %l = arith.subi %n, %c1 : index
  scf.for %t = %c0 to %c2 step %c1 {
    scf.for %i = %c1 to %l step %c1 {
      scf.for %j = %c1 to %l step %c1 {
        %im = arith.subi %i, %c1 : index
        %ip = arith.addi %i, %c1 : index
        %jm = arith.subi %j, %c1 : index
        %jp = arith.addi %j, %c1 : index
        %a1 = memref.load %A[%im, %jm] : memref<?x?xf64>
        %a2 = memref.load %A[%im, %j] : memref<?x?xf64>
        %a3 = memref.load %A[%im, %jp] : memref<?x?xf64>
        %a4 = memref.load %A[%i, %jm] : memref<?x?xf64>
        %a5 = memref.load %A[%i, %j] : memref<?x?xf64>
        %a6 = memref.load %A[%i, %jp] : memref<?x?xf64>
        %a7 = memref.load %A[%ip, %jm] : memref<?x?xf64>
        %a8 = memref.load %A[%ip, %j] : memref<?x?xf64>
        %a9 = memref.load %A[%ip, %jp] : memref<?x?xf64>
        %s1 = arith.addf %a1, %a2 : f64
        %s2 = arith.addf %s1, %a3 : f64
        %s3 = arith.addf %s2, %a4 : f64
        %s4 = arith.addf %s3, %a5 : f64
        %s5 = arith.addf %s4, %a6 : f64
        %s6 = arith.addf %s5, %a7 : f64
        %s7 = arith.addf %s6, %a8 : f64
        %s8 = arith.addf %s7, %a9 : f64
        %r = arith.divf %s8, %nine : f64
        memref.store %r, %A[%i, %j] : memref<?x?xf64>
      }
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
  %A = memref.alloc(%c6, %c6) : memref<?x?xf64>
  call @init2(%A, %c1) : (memref<?x?xf64>, index) -> ()
  call @seidel(%A) : (memref<?x?xf64>) -> ()
  %u_A = memref.cast %A : memref<?x?xf64> to memref<*xf64>
  call @printMemrefF64(%u_A) : (memref<*xf64>) -> ()
  return
}
