// RUN: sdfg-opt %s -split-input-file --convert-scf-to-openmp --sdfg-openmp-if | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(convert-scf-to-openmp,sdfg-openmp-if{min-work=100})' | FileCheck %s --check-prefix=OPT
// RUN: not sdfg-opt %s --pass-pipeline='builtin.module(sdfg-openmp-if{min-work=-1})' 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: sdfg-openmp-if: unknown option `min-work=-1` (the option is min-work=N, N >= 0)

// A straight-line body of 6 ops (load, add, store, the alloca scope
// convert-scf-to-openmp wraps them in with its terminator, and the
// yield): the region runs in parallel from ceil(16384 / 6) = 2731
// iterations, the product of the trip counts of both dimensions,
// computed before it.
// CHECK-LABEL: func.func @serialize_a_small_loop
// CHECK-SAME: (%[[A:.*]]: memref<?xf64>, %[[N:.*]]: index, %[[M:.*]]: index, %[[S:.*]]: index)
// CHECK: %[[SPAN0:.*]] = arith.subi %[[N]], %{{.*}} : index
// CHECK-NEXT: %[[T0:.*]] = arith.ceildivsi %[[SPAN0]], %{{.*}} : index
// CHECK-NEXT: %[[SPAN1:.*]] = arith.subi %[[M]], %{{.*}} : index
// CHECK-NEXT: %[[T1:.*]] = arith.ceildivsi %[[SPAN1]], %[[S]] : index
// CHECK-NEXT: %[[T:.*]] = arith.muli %[[T0]], %[[T1]] : index
// CHECK-NEXT: %[[LEAST:.*]] = arith.constant 2731 : index
// CHECK-NEXT: %[[BIG:.*]] = arith.cmpi sge, %[[T]], %[[LEAST]] : index
// CHECK-NEXT: omp.parallel if(%[[BIG]])
// OPT-LABEL: func.func @serialize_a_small_loop
// OPT: arith.constant 17 : index
// OPT: omp.parallel if(
func.func @serialize_a_small_loop(%a: memref<?xf64>, %n: index, %m: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m) step (%c1, %s) {
    %v = memref.load %a[%i] : memref<?xf64>
    %w = arith.addf %v, %v : f64
    memref.store %w, %a[%j] : memref<?xf64>
  }
  return
}

// -----

// A math op counts as 16 ops (a libm call): 5 + 16 = 21 per iteration.
// CHECK-LABEL: func.func @count_math_as_a_call
// CHECK: arith.constant 781 : index
// CHECK: omp.parallel if(
func.func @count_math_as_a_call(%a: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %a[%i] : memref<?xf64>
    %w = math.exp %v : f64
    memref.store %w, %a[%i] : memref<?xf64>
  }
  return
}

// -----

// A body with a loop has no cost known here: the region stays
// unconditional.
// CHECK-LABEL: func.func @keep_a_loop_with_an_inner_loop
// CHECK-NOT: arith.cmpi
// CHECK: omp.parallel {
// OPT-LABEL: func.func @keep_a_loop_with_an_inner_loop
// OPT: omp.parallel {
func.func @keep_a_loop_with_an_inner_loop(%a: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.for %j = %c0 to %n step %c1 {
      %v = memref.load %a[%j] : memref<?xf64>
      memref.store %v, %a[%i] : memref<?xf64>
    }
  }
  return
}

// -----

// Nor does one with a call.
// CHECK-LABEL: func.func @keep_a_loop_with_a_call
// CHECK-NOT: arith.cmpi
// CHECK: omp.parallel {
func.func private @work(index)
func.func @keep_a_loop_with_a_call(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    func.call @work(%i) : (index) -> ()
  }
  return
}
