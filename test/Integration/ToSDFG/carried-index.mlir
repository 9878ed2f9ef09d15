// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// Indices computed from data that a loop carries or a branch yields: each
// is kept in an index scalar and read through a symbol assigned from it,
// at the start of each iteration for a carried index, and after the loop
// or the branch for a result (DaCe's `k = next[k]` on an edge). A while
// loop's carried index is assigned before each evaluation of its
// condition, its forwarded one at the start of each iteration.

// SDFG-LABEL: sdfg.sdfg @chase_sdfg
// SDFG: %[[ACC:.*]] = sdfg.alloc "acc" : !sdfg.scalar<index>
// SDFG: sdfg.loop @{{.*}} var "i" init "0" cond "i < 8"
// SDFG: ins("__in0" = %{{.*}}["acc_sym"]
// SDFG: sdfg.edge @entry{{[0-9]+}} -> @{{.*}} assign("acc_sym" = "acc")
// SDFG: sdfg.edge @loop{{[0-9]+}} -> @{{.*}} assign("acc_sym1" = "acc")
// SDFG: sdfg.edge @if{{[0-9]+}} -> @{{.*}} assign("r_sym" = "r")
// SDFG-LABEL: sdfg.sdfg @walk_sdfg
// SDFG: sdfg.loop @{{.*}} cond "c"
// SDFG: sdfg.edge @entry{{[0-9]+}} -> @{{.*}} assign("f_sym" = "f")
// SDFG: sdfg.edge @{{.*}} -> @{{.*}} assign("w_sym" = "w")
// SDFG: sdfg.edge @{{.*}} -> @region{{[0-9]+}} assign("w_sym" = "w")

// CHECK: 1
// CHECK-NEXT: 3
// CHECK-NEXT: {{\[}}0,  1,  1,  1,  1,  1,  0,  0]
// CHECK-NEXT: {{\[}}58,  1,  1,  1,  1,  1,  0,  0]
// CHECK-NEXT: {{\[}}0.125,  0.625,  0.5,  0.125,  0,  0.625,  0.5,  0.125]

func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}
func.func private @printI64(i64)
func.func private @printNewline()

// Follows a chain of links: the next position is read from the data (an
// index carried by the loop, computed from data), and the branch picks a
// position from the data too (an index result).
func.func @chase(%next: memref<8xi64>, %x: memref<8xf64>, %out: memref<8xf64>) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%k = %c0) -> index {
    %v = memref.load %x[%k] : memref<8xf64>
    memref.store %v, %out[%i] : memref<8xf64>
    %l = memref.load %next[%k] : memref<8xi64>
    %m = arith.index_cast %l : i64 to index
    scf.yield %m : index
  }
  %half = arith.constant 0.5 : f64
  %w = memref.load %x[%r] : memref<8xf64>
  %big = arith.cmpf ogt, %w, %half : f64
  %p = scf.if %big -> index {
    %l = memref.load %next[%r] : memref<8xi64>
    %m = arith.index_cast %l : i64 to index
    scf.yield %m : index
  } else {
    scf.yield %c1 : index
  }
  %y = memref.load %x[%p] : memref<8xf64>
  memref.store %y, %out[%c0] : memref<8xf64>
  return %p : index
}

// A while loop that follows the links until it reaches position 0,
// counting the steps: the position is carried and forwarded as an index.
func.func @walk(%next: memref<8xi64>, %start: index) -> i64 {
  %c0 = arith.constant 0 : index
  %z = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %r:2 = scf.while (%k = %start, %n = %z) : (index, i64) -> (index, i64) {
    %more = arith.cmpi ne, %k, %c0 : index
    scf.condition(%more) %k, %n : index, i64
  } do {
  ^bb0(%j: index, %m: i64):
    %l = memref.load %next[%j] : memref<8xi64>
    %t = arith.index_cast %l : i64 to index
    %m1 = arith.addi %m, %one : i64
    scf.yield %t, %m1 : index, i64
  }
  return %r#1 : i64
}

// A while loop whose condition reads an index an scf.if of the "before"
// region yields: the condition's second copy, at the end of each
// iteration, reads the symbol assigned after that copy's branch.
func.func @scan(%x: memref<8xf64>, %out: memref<8xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %half = arith.constant 0.5 : f64
  %one = arith.constant 1.0 : f64
  %r = scf.while (%k = %c0) : (index) -> index {
    %v = memref.load %x[%k] : memref<8xf64>
    %b = arith.cmpf ogt, %v, %half : f64
    %p = scf.if %b -> index {
      scf.yield %c0 : index
    } else {
      %q = arith.addi %k, %c1 : index
      scf.yield %q : index
    }
    %s = arith.addi %p, %c1 : index
    %more = arith.cmpi ne, %s, %c1 : index
    scf.condition(%more) %p : index
  } do {
  ^bb0(%j: index):
    %o = memref.load %out[%j] : memref<8xf64>
    %o1 = arith.addf %o, %one : f64
    memref.store %o1, %out[%j] : memref<8xf64>
    scf.yield %j : index
  }
  return
}

// Three indices carried by a while loop.
func.func @count(%out: memref<8xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c10 = arith.constant 10 : index
  %r:3 = scf.while (%a = %c0, %b = %c1, %n = %c2) : (index, index, index) -> (index, index, index) {
    %more = arith.cmpi slt, %a, %c10 : index
    scf.condition(%more) %a, %b, %n : index, index, index
  } do {
  ^bb0(%x: index, %y: index, %m: index):
    %x1 = arith.addi %x, %c1 : index
    %y1 = arith.addi %y, %x : index
    scf.yield %x1, %y1, %m : index, index, index
  }
  %s = arith.addi %r#0, %r#1 : index
  %t = arith.addi %s, %r#2 : index
  %ri = arith.index_cast %t : index to i64
  %rf = arith.sitofp %ri : i64 to f64
  memref.store %rf, %out[%c0] : memref<8xf64>
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %next = memref.alloc() : memref<8xi64>
  %x = memref.alloc() : memref<8xf64>
  %out = memref.alloc() : memref<8xf64>
  %eighth = arith.constant 0.125 : f64
  scf.for %i = %c0 to %c8 step %c1 {
    %j = arith.muli %i, %c3 : index
    %k = arith.addi %j, %c5 : index
    %n = arith.remui %k, %c8 : index
    %ni = arith.index_cast %n : index to i64
    memref.store %ni, %next[%i] : memref<8xi64>
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f64
    %g = arith.mulf %f, %eighth : f64
    memref.store %g, %x[%i] : memref<8xf64>
  }
  %p = call @chase(%next, %x, %out) : (memref<8xi64>, memref<8xf64>, memref<8xf64>) -> index
  %pi = arith.index_cast %p : index to i64
  call @printI64(%pi) : (i64) -> ()
  call @printNewline() : () -> ()
  %steps = call @walk(%next, %c5) : (memref<8xi64>, index) -> i64
  call @printI64(%steps) : (i64) -> ()
  call @printNewline() : () -> ()
  %scanned = memref.alloc() : memref<8xf64>
  %zero = arith.constant 0.0 : f64
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %zero, %scanned[%i] : memref<8xf64>
  }
  call @scan(%x, %scanned) : (memref<8xf64>, memref<8xf64>) -> ()
  %su = memref.cast %scanned : memref<8xf64> to memref<*xf64>
  call @printMemrefF64(%su) : (memref<*xf64>) -> ()
  call @count(%scanned) : (memref<8xf64>) -> ()
  call @printMemrefF64(%su) : (memref<*xf64>) -> ()
  %u = memref.cast %out : memref<8xf64> to memref<*xf64>
  call @printMemrefF64(%u) : (memref<*xf64>) -> ()
  return
}
