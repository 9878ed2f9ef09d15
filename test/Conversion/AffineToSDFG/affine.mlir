// RUN: sdfg-opt %s -split-input-file --convert-to-sdfg | FileCheck %s

// affine.for bounds are maps: a lower bound's results combine with Max,
// an upper bound's with Min; affine subscripts are memlet subsets.
// CHECK-LABEL: sdfg.sdfg @band_sdfg
// CHECK: sdfg.loop @{{.*}} var "i" init "0" cond "i < arg0_d0" update "i + 1"
// CHECK: sdfg.loop @{{.*}} var "j" init "Max(0, i - 1)" cond "j < Min(i + 2, arg0_d0)" update "j + 1"
// CHECK: sdfg.tasklet "{{.*}}" ins("__in0" = %{{.*}}["i, j"] : !sdfg.array<f64 ["arg0_d0", "arg0_d1"]>, "__in1" = %{{.*}}["2*i + 1"] : !sdfg.array<f64 ["arg1_d0"]>)
// CHECK: sdfg.access %arg1 writes(%{{.*}}["2*i + 1"] : f64)
func.func @band(%A: memref<?x?xf64>, %y: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %A, %c0 : memref<?x?xf64>
  affine.for %i = 0 to %n {
    affine.for %j = max affine_map<(d0) -> (0, d0 - 1)>(%i) to min affine_map<(d0)[s0] -> (s0, d0 + 2)>(%i)[%n] {
      %a = affine.load %A[%i, %j] : memref<?x?xf64>
      %b = affine.load %y[%i * 2 + 1] : memref<?xf64>
      %s = arith.addf %a, %b : f64
      affine.store %s, %y[%i * 2 + 1] : memref<?xf64>
    }
  }
  return
}

// -----

// affine.parallel is a map; affine.apply results in subscripts are symbolic.
// CHECK-LABEL: sdfg.sdfg @shift_sdfg
// CHECK: sdfg.map "{{.*}}" ["i" = "0:6", "j" = "0:8:2"]
// CHECK: ins("__in0" = %{{.*}}["i, Mod(j + 1, 8)"]
// CHECK: sdfg.exit("arg1" = %{{.*}}["i, int_floor(j, 2)"] : f64)
func.func @shift(%A: memref<6x8xf64>, %B: memref<6x4xf64>) {
  affine.parallel (%i, %j) = (0, 0) to (6, 8) step (1, 2) {
    %k = affine.apply affine_map<(d0) -> ((d0 + 1) mod 8)>(%j)
    %h = affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%j)
    %v = memref.load %A[%i, %k] : memref<6x8xf64>
    memref.store %v, %B[%i, %h] : memref<6x4xf64>
  }
  return
}

// -----

// Index arithmetic with floor semantics (arith.floordivsi) is symbolic;
// C's truncating division of symbols is not (it is computed in the tasklet
// and the access is indirect).
// CHECK-LABEL: sdfg.sdfg @halves_sdfg
// CHECK: sdfg.map "{{.*}}" ["i" = "0:8"]
// CHECK: ins("__in0" = %{{.*}}["int_floor(i, 2)"]
// CHECK-LABEL: sdfg.sdfg @truncated_sdfg
// CHECK: sdfg.tasklet "{{.*}}" ins("__in0" = %{{.*}}["0:8"] : !sdfg.array<f64 ["8"]>) outs("__out0" : f64)
// CHECK: arith.divsi
// CHECK: memref.load
func.func @halves(%x: memref<8xf64>, %y: memref<8xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %h = arith.floordivsi %i, %c2 : index
    %v = memref.load %x[%h] : memref<8xf64>
    memref.store %v, %y[%i] : memref<8xf64>
  }
  return
}
func.func @truncated(%x: memref<8xf64>, %y: memref<8xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %h = arith.divsi %i, %c2 : index
    %v = memref.load %x[%h] : memref<8xf64>
    memref.store %v, %y[%i] : memref<8xf64>
  }
  return
}

// -----

// affine.if is an sdfg.conditional whose condition is the integer set's
// constraints on the symbolic operands; a result is a transient scalar
// written in both branches.
// CHECK-LABEL: sdfg.sdfg @clamp_sdfg
// CHECK: sdfg.loop @{{.*}} var "i"
// CHECK: sdfg.conditional @{{.*}} {
// CHECK: sdfg.branch @{{.*}} if "(i - 2) >= 0 and (-i + 5) >= 0 and (Mod(i, 2)) == 0" {
// CHECK: sdfg.access %[[R:r[0-9]*]] writes
// CHECK: sdfg.branch @{{.*}} {
// CHECK: sdfg.access %[[R]] writes
#even_mid = affine_set<(d0) : (d0 - 2 >= 0, 5 - d0 >= 0, d0 mod 2 == 0)>
func.func @clamp(%x: memref<8xf64>, %y: memref<8xf64>) {
  %zero = arith.constant 0.0 : f64
  affine.for %i = 0 to 8 {
    %v = affine.if #even_mid(%i) -> f64 {
      %a = affine.load %x[%i] : memref<8xf64>
      affine.yield %a : f64
    } else {
      affine.yield %zero : f64
    }
    affine.store %v, %y[%i] : memref<8xf64>
  }
  return
}
