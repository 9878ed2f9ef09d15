// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// affine.parallel reductions: the result starts at the combiner's identity
// (written by a tasklet) and the yielded values reach it through the map's
// exit with the write-conflict resolution. A sum and a maximum over one
// loop, a 2-D integer product, a sum whose body needs a nested SDFG, and
// bitwise reductions over bounds with min/max groups.

// SDFG-LABEL: sdfg.sdfg @stats_sdfg
// SDFG: arith.constant 0.000000e+00 : f64
// SDFG: arith.constant 0xFFF0000000000000 : f64
// SDFG: sdfg.map "{{.*}}" ["i" = "0:arg0_d0"]
// SDFG-DAG: sdfg.exit({{.*}}["0", wcr sum] : f64{{.*}}["0", wcr max] : f64)
// SDFG-LABEL: sdfg.sdfg @iprod_sdfg
// SDFG: arith.constant 1 : i32
// SDFG: wcr product
// SDFG-LABEL: sdfg.sdfg @bits_sdfg
// SDFG: sdfg.map "{{.*}}" ["i" = "Max(0, arg0_d0 - 6):Min(7, arg0_d0)"]
// SDFG: sdfg.exit({{.*}}["0", wcr bitwise_or] : i64, {{.*}}["0", wcr bitwise_and] : i64)
// SDFG: wcr bitwise_xor
// CHECK: 6.5625
// CHECK-NEXT: 1.5
// CHECK-NEXT: 144
// CHECK-NEXT: 3.75
// CHECK-NEXT: 126
// CHECK-NEXT: 0
// CHECK-NEXT: -5

func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}
func.func private @printF64(f64)
func.func private @printI64(i64)
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
func.func @stats(%x: memref<?xf64>) -> (f64, f64) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %s, %m = affine.parallel (%i) = (0) to (%n) reduce ("addf", "maximumf") -> (f64, f64) {
    %v = affine.load %x[%i] : memref<?xf64>
    %w = arith.mulf %v, %v : f64
    affine.yield %w, %v : f64, f64
  }
  return %s, %m : f64, f64
}

func.func @iprod(%x: memref<?xf64>) -> i32 {
  %p = affine.parallel (%i, %j) = (0, 0) to (3, 2) reduce ("muli") -> i32 {
    %k = affine.apply affine_map<(d0, d1) -> (d0 * 2 + d1)>(%i, %j)
    %v = affine.load %x[%k] : memref<?xf64>
    %t = arith.fptosi %v : f64 to i32
    %one = arith.constant 2 : i32
    %u = arith.addi %t, %one : i32
    affine.yield %u : i32
  }
  return %p : i32
}

func.func @rowmax(%x: memref<?xf64>) -> f64 {
  %m = affine.parallel (%i) = (0) to (3) reduce ("addf") -> f64 {
    %zero = arith.constant 0.0 : f64
    %r = affine.for %j = 0 to 3 iter_args(%acc = %zero) -> f64 {
      %k = affine.apply affine_map<(d0, d1) -> (d0 * 3 + d1)>(%i, %j)
      %v = affine.load %x[%k] : memref<?xf64>
      %a = arith.maximumf %acc, %v : f64
      affine.yield %a : f64
    }
    affine.yield %r : f64
  }
  return %m : f64
}

// Bitwise reductions over bound groups (the lower bound the max of its
// group, the upper the min of its), and a bitwise xor through scf.reduce.
func.func @bits(%x: memref<?xf64>) -> (i64, i64, i64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  %o, %a = affine.parallel (%i) = (max(0, symbol(%n) - 6)) to (min(symbol(%n), 7)) reduce ("ori", "andi") -> (i64, i64) {
    %v = affine.load %x[%i] : memref<?xf64>
    %eight = arith.constant 8.0 : f64
    %w = arith.mulf %v, %eight : f64
    %t = arith.fptosi %w : f64 to i64
    %base = arith.constant 64 : i64
    %u = arith.addi %t, %base : i64
    affine.yield %u, %u : i64, i64
  }
  %z = arith.constant 0 : i64
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%z) -> i64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %four = arith.constant 4.0 : f64
    %w = arith.mulf %v, %four : f64
    %t = arith.fptosi %w : f64 to i64
    scf.reduce(%t : i64) {
    ^bb0(%p: i64, %q: i64):
      %e = arith.xori %p, %q : i64
      scf.reduce.return %e : i64
    }
  }
  return %o, %a, %r : i64, i64, i64
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %x = memref.alloc(%c9) : memref<?xf64>
  call @init1(%x, %c1) : (memref<?xf64>, index) -> ()
  %s, %m = call @stats(%x) : (memref<?xf64>) -> (f64, f64)
  call @printF64(%s) : (f64) -> ()
  call @printNewline() : () -> ()
  call @printF64(%m) : (f64) -> ()
  call @printNewline() : () -> ()
  %p = call @iprod(%x) : (memref<?xf64>) -> i32
  %p64 = arith.extsi %p : i32 to i64
  call @printI64(%p64) : (i64) -> ()
  call @printNewline() : () -> ()
  %r = call @rowmax(%x) : (memref<?xf64>) -> f64
  call @printF64(%r) : (f64) -> ()
  call @printNewline() : () -> ()
  %bo, %ba, %bx = call @bits(%x) : (memref<?xf64>) -> (i64, i64, i64)
  call @printI64(%bo) : (i64) -> ()
  call @printNewline() : () -> ()
  call @printI64(%ba) : (i64) -> ()
  call @printNewline() : () -> ()
  call @printI64(%bx) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}
