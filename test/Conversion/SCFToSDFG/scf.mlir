// RUN: sdfg-opt %s -split-input-file --convert-to-sdfg | FileCheck %s

// An scf.parallel is a map; its loads and stores are the memlets of one
// tasklet per store, whose body is the stored value's computation.
// Each dynamic dimension is a symbol.
// CHECK-LABEL: sdfg.sdfg @axpy_sdfg(%arg0: !sdfg.array<f64 ["arg0_d0"]> as "arg0", %arg1: !sdfg.array<f64 ["arg1_d0"]> as "arg1", %arg2: !sdfg.scalar<f64> as "arg2") symbols {arg0_d0 = i64, arg1_d0 = i64}
// CHECK: sdfg.map "{{.*}}" ["i" = "0:arg0_d0"] ins("arg0" = %{{.*}}["0:arg0_d0"] : !sdfg.array<f64 ["arg0_d0"]>, "arg2" = %{{.*}}["0"] : !sdfg.scalar<f64>, "arg1" = %{{.*}}["0:arg1_d0"] : !sdfg.array<f64 ["arg1_d0"]>) outs("arg1" : !sdfg.array<f64 ["arg1_d0"]>)
// CHECK: sdfg.tasklet "{{.*}}" ins("__in0" = %{{.*}}["i"] : {{.*}}, "__in1" = %{{.*}}["0"] : !sdfg.scalar<f64>, "__in2" = %{{.*}}["i"] : {{.*}}) outs("__out0" : f64) {
// CHECK-NEXT: ^bb0(%[[X:.*]]: f64, %[[A:.*]]: f64, %[[Y:.*]]: f64):
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[X]], %[[A]] : f64
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[P]], %[[Y]] : f64
// CHECK-NEXT: sdfg.yield %[[S]] : f64
// CHECK: sdfg.exit("arg1" = %{{.*}}["i"] : f64)
// CHECK: sdfg.access %arg1 writes(%{{.*}}["0:arg1_d0"] : !sdfg.array<f64 ["arg1_d0"]>)
// The function keeps its signature: it binds the symbols and invokes the SDFG.
// CHECK-LABEL: func.func @axpy(%arg0: memref<?xf64>, %arg1: memref<?xf64>, %arg2: f64)
// CHECK: %[[D:.*]] = memref.dim %arg0, %{{.*}} : memref<?xf64>
// CHECK: %[[E:.*]] = memref.dim %arg1, %{{.*}} : memref<?xf64>
// CHECK: memref.store %arg2, %[[S:.*]][] : memref<f64>
// CHECK: sdfg.invoke @axpy_sdfg(%arg0, %arg1, %[[S]] : memref<?xf64>, memref<?xf64>, memref<f64>) symbols ["arg0_d0", "arg1_d0"](%[[D]], %[[E]])
func.func @axpy(%x: memref<?xf64>, %y: memref<?xf64>, %a: f64) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf64>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %x[%i] : memref<?xf64>
    %p = arith.mulf %v, %a : f64
    %w = memref.load %y[%i] : memref<?xf64>
    %s = arith.addf %p, %w : f64
    memref.store %s, %y[%i] : memref<?xf64>
  }
  return
}

// -----

// scf.reduce is a write-conflict resolution into a transient scalar that
// starts at the initial value; a scalar result goes out in `__return`.
// CHECK-LABEL: sdfg.sdfg @sum_sdfg
// CHECK-SAME: %__return: !sdfg.array<f32 ["1"]> as "__return"
// CHECK: %[[R:.*]] = sdfg.alloc "red" : !sdfg.scalar<f32>
// CHECK: sdfg.access %[[R]] writes(%{{.*}}["0"] : f32)
// CHECK: sdfg.map "{{.*}}" ["i" = "0:arg0_d0"]
// CHECK: sdfg.exit("red" = %{{.*}}["0", wcr sum] : f32)
// CHECK: sdfg.access %[[R]] writes(%{{.*}}["0", wcr sum] : !sdfg.scalar<f32>)
// CHECK: sdfg.access %__return writes(%{{.*}}["0"] : f32)
// CHECK-LABEL: func.func @sum(%arg0: memref<?xf32>) -> f32
// CHECK: %[[RET:.*]] = memref.alloca() : memref<1xf32>
// CHECK: sdfg.invoke @sum_sdfg(%arg0, %[[RET]] : memref<?xf32>, memref<1xf32>)
// CHECK: %[[V:.*]] = memref.load %[[RET]][%{{.*}}] : memref<1xf32>
// CHECK: return %[[V]] : f32
func.func @sum(%x: memref<?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?xf32>
  %s = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f32 {
    %v = memref.load %x[%i] : memref<?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %r = arith.addf %a, %b : f32
      scf.reduce.return %r : f32
    }
  }
  return %s : f32
}

// -----

// scf.for is an sdfg.loop with a symbol for its induction variable; an
// iteration argument is a transient scalar set before the loop and
// rewritten at the end of its body.
// CHECK-LABEL: sdfg.sdfg @scan_sdfg
// CHECK-SAME: symbols {arg0_d0 = i64, i = i64}
// CHECK: %[[ACC:.*]] = sdfg.alloc "acc" : !sdfg.scalar<f64>
// CHECK: sdfg.state
// CHECK: sdfg.access %[[ACC]] writes
// CHECK: sdfg.loop @{{.*}} var "i" init "0" cond "i < arg0_d0" update "i + 1" {
// CHECK: sdfg.tasklet "{{.*}}" ins("__in0" = %{{.*}}["0"] : !sdfg.scalar<f64>, "__in1" = %{{.*}}["i"] : !sdfg.array<f64 ["arg0_d0"]>) outs("__out0" : f64)
// CHECK: sdfg.access %arg0 writes(%{{.*}}["i"] : f64)
// CHECK: sdfg.access %[[ACC]] writes
func.func @scan(%x: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %n = memref.dim %x, %c0 : memref<?xf64>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f64 {
    %v = memref.load %x[%i] : memref<?xf64>
    %s = arith.addf %acc, %v : f64
    memref.store %s, %x[%i] : memref<?xf64>
    scf.yield %s : f64
  }
  return
}

// -----

// scf.if on data: the condition is computed into a transient boolean,
// which the branch's condition reads.
// CHECK-LABEL: sdfg.sdfg @clip_sdfg
// CHECK: %[[C:.*]] = sdfg.alloc "c" : !sdfg.scalar<i1>
// CHECK: sdfg.tasklet
// CHECK: arith.cmpf olt
// CHECK: sdfg.access %[[C]] writes
// CHECK: sdfg.conditional @{{.*}} {
// CHECK-NEXT: sdfg.branch @{{.*}} if "c" {
func.func @clip(%x: memref<8xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f64
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %x[%i] : memref<8xf64>
    %neg = arith.cmpf olt, %v, %zero : f64
    scf.if %neg {
      memref.store %zero, %x[%i] : memref<8xf64>
    }
  }
  return
}

// -----

// scf.if on symbols has a symbolic condition; results are transient
// scalars written in each branch.
// CHECK-LABEL: sdfg.sdfg @half_sdfg
// CHECK: %[[R:.*]] = sdfg.alloc "r" : !sdfg.scalar<f64>
// CHECK: sdfg.branch @{{.*}} if "i <= 3" {
// CHECK: sdfg.access %[[R]] writes
// CHECK: sdfg.branch @{{.*}} {
// CHECK: sdfg.access %[[R]] writes
func.func @half(%x: memref<8xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f64
  %two = arith.constant 2.0 : f64
  scf.for %i = %c0 to %c8 step %c1 {
    %low = arith.cmpi slt, %i, %c4 : index
    %f = scf.if %low -> f64 {
      scf.yield %one : f64
    } else {
      scf.yield %two : f64
    }
    memref.store %f, %x[%i] : memref<8xf64>
  }
  return
}

// -----

// scf.while: the "before" region runs before the loop and at the end of
// each iteration, writing the transient boolean the loop's condition reads.
// CHECK-LABEL: sdfg.sdfg @count_sdfg
// CHECK: %[[W:.*]] = sdfg.alloc "w" : !sdfg.scalar<i32>
// CHECK: %[[F:.*]] = sdfg.alloc "f" : !sdfg.scalar<i32>
// CHECK: %[[C:.*]] = sdfg.alloc "c" : !sdfg.scalar<i1>
// CHECK: sdfg.loop @{{.*}} cond "c" {
func.func @count(%x: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %ten = arith.constant 10 : i32
  %three = arith.constant 3 : i32
  %r = scf.while (%k = %zero) : (i32) -> i32 {
    %more = arith.cmpi slt, %k, %ten : i32
    scf.condition(%more) %k : i32
  } do {
  ^bb0(%k: i32):
    %n = arith.addi %k, %three : i32
    scf.yield %n : i32
  }
  memref.store %r, %x[%c0] : memref<1xi32>
  return
}

// -----

// A parallel body with control flow is a nested SDFG in the map; its
// symbols map to the map's parameters.
// CHECK-LABEL: sdfg.sdfg @rowsum_sdfg
// CHECK: sdfg.map "{{.*}}" ["i" = "0:4"]
// CHECK: sdfg.nested "{{.*}}" ins("arg0" = %{{.*}}["0:4, 0:8"] : !sdfg.array<f64 ["4", "8"]>) outs("arg1" : !sdfg.array<f64 ["4"]>) symbols("i" = "i") {
// CHECK: sdfg.sdfg @body{{.*}}(%{{.*}}: !sdfg.array<f64 ["4", "8"]> as "arg0", %{{.*}}: !sdfg.array<f64 ["4"]> as "arg1") symbols {i = i64, j = i64}
// CHECK: sdfg.loop @{{.*}} var "j" init "0" cond "j < 8" update "j + 1"
// CHECK: sdfg.exit("arg1" = %{{.*}}["0:4", dynamic] : !sdfg.array<f64 ["4"]>)
func.func @rowsum(%A: memref<4x8xf64>, %s: memref<4xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f64
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %t = scf.for %j = %c0 to %c8 step %c1 iter_args(%acc = %zero) -> f64 {
      %v = memref.load %A[%i, %j] : memref<4x8xf64>
      %u = arith.addf %acc, %v : f64
      scf.yield %u : f64
    }
    memref.store %t, %s[%i] : memref<4xf64>
  }
  return
}

// -----

// A function that calls another stays as it is, with a remark.
// CHECK-LABEL: func.func @caller
// CHECK: call @print
func.func private @print(f64)
func.func @caller(%x: f64) {
  call @print(%x) : (f64) -> ()
  return
}
