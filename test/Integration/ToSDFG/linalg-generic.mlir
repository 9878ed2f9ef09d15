// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// linalg.generic: an elementwise body with math.tanh on three operands with broadcasting maps, then a row reduction.

// SDFG-DAG: math.tanh
// SDFG-DAG: ["{{.*}}"]
// CHECK: {{\[\[}}0.462117,   0.848284,   0.964028,   0,   0.635149],
// CHECK-NEXT: [0.848284,   0.964028,   0,   0.635149,   0.905148],
// CHECK-NEXT: [-0.635149,   0.99186,   0.635149,   -0.848284,   0.978026],
// CHECK-NEXT: [0,   0.635149,   0.905148,   -0.462117,   0.244919]]
// CHECK-NEXT: [4.40958,  3.85261,  0.621602,  2.5731]

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
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @layer(%X: memref<?x?xf64>, %b: memref<?xf64>, %Y: memref<?x?xf64>, %s: memref<?xf64>) {
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%X, %b : memref<?x?xf64>, memref<?xf64>) outs(%Y : memref<?x?xf64>) {
  ^bb0(%x: f64, %bias: f64, %y: f64):
    %t = arith.addf %x, %bias : f64
    %h = math.tanh %t : f64
    linalg.yield %h : f64
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%Y : memref<?x?xf64>) outs(%s : memref<?xf64>) {
  ^bb0(%y: f64, %acc: f64):
    %r = arith.addf %acc, %y : f64
    linalg.yield %r : f64
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
  %X = memref.alloc(%c4, %c5) : memref<?x?xf64>
  call @init2(%X, %c1) : (memref<?x?xf64>, index) -> ()
  %b = memref.alloc(%c5) : memref<?xf64>
  call @init1(%b, %c2) : (memref<?xf64>, index) -> ()
  %Y = memref.alloc(%c4, %c5) : memref<?x?xf64>
  %s = memref.alloc(%c4) : memref<?xf64>
  call @init1(%s, %c3) : (memref<?xf64>, index) -> ()
  call @layer(%X, %b, %Y, %s) : (memref<?x?xf64>, memref<?xf64>, memref<?x?xf64>, memref<?xf64>) -> ()
  %u_Y = memref.cast %Y : memref<?x?xf64> to memref<*xf64>
  call @printMemrefF64(%u_Y) : (memref<*xf64>) -> ()
  %u_s = memref.cast %s : memref<?xf64> to memref<*xf64>
  call @printMemrefF64(%u_s) : (memref<*xf64>) -> ()
  return
}
