// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(convert-sdfg-to-scf)' | FileCheck %s
// RUN: sdfg-run %s --function saxpy | FileCheck %s --check-prefix=SAXPY
// RUN: sdfg-run %s --function lanes | FileCheck %s --check-prefix=LANES
// RUN: sdfg-run %s --function resolved_lanes | FileCheck %s --check-prefix=RESOLVED

// DaCe's vector types (`dace::vec<T, N>`): containers of vectors are
// memrefs of MLIR vectors, tasklets compute on whole vectors, and a nested
// SDFG may see an array of floats as an array of vectors of floats (DaCe
// passes the pointer).

// The nested SDFG receives the outer f32 memory as vector<2xf32>: a memref
// descriptor on the same pointer, with half as many elements.
// CHECK-LABEL: func.func private @saxpy_inner
// CHECK-SAME: memref<?xvector<2xf32>>
// CHECK: call @__tasklet_axpy(%{{.*}}, %{{.*}}) : (vector<2xf32>, vector<2xf32>) -> vector<2xf32>
// CHECK-LABEL: func.func @saxpy
// Y[0] is never written: the transient vector array is zero-filled with a
// splat.
// CHECK: memref.alloca() : memref<4xvector<2xf32>>
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<2xf32>
// CHECK: memref.store %[[ZERO]]
// CHECK: %[[P:.*]] = memref.extract_aligned_pointer_as_index %{{.*}} : memref<?xf32> -> index
// CHECK: llvm.inttoptr
// CHECK: %[[V:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> to memref<?xvector<2xf32>>
// CHECK: call @saxpy_inner(%[[V]]
// Z[k] = 2 * X[k] + Y[k] with X[k] = k, and Y[k] = 1 but for the first
// vector: 2 * 28 + 6 = 62.
// CHECK-LABEL: func.func private @__tasklet_axpy
// CHECK: arith.mulf %{{.*}}, %{{.*}} : vector<2xf32>
// SAXPY: Z: <f4[8] checksum 6.2000000000e1
sdfg.sdfg @saxpy(%Z: !sdfg.array<f32 ["8"]> as "Z") {
  %X = sdfg.alloc "X" : !sdfg.array<f32 ["8"]>
  %Y = sdfg.alloc "Y" : !sdfg.array<vector<2xf32> ["4"]>
  sdfg.state @fill {
    %mx = sdfg.map "x" ["k" = "0:8"] outs("X" : !sdfg.array<f32 ["8"]>) {
      %v = sdfg.tasklet "k" outs("o" : f32) {
        %k = sdfg.sym "k" : i64
        %f = arith.sitofp %k : i64 to f32
        sdfg.yield %f : f32
      }
      sdfg.exit ("X" = %v["k"] : f32)
    }
    %x = sdfg.access %X writes(%mx["0:8"] : !sdfg.array<f32 ["8"]>) : !sdfg.array<f32 ["8"]>
    %my = sdfg.map "y" ["k" = "1:4"] outs("Y" : !sdfg.array<vector<2xf32> ["4"]>) {
      %v = sdfg.tasklet "one" outs("o" : vector<2xf32>) {
        %one = arith.constant 1.0 : f32
        %s = vector.broadcast %one : f32 to vector<2xf32>
        sdfg.yield %s : vector<2xf32>
      }
      sdfg.exit ("Y" = %v["k"] : vector<2xf32>)
    }
    %y = sdfg.access %Y writes(%my["1:4"] : !sdfg.array<vector<2xf32> ["4"]>) : !sdfg.array<vector<2xf32> ["4"]>
  }
  sdfg.state @compute {
    %x = sdfg.access %X : !sdfg.array<f32 ["8"]>
    %y = sdfg.access %Y : !sdfg.array<vector<2xf32> ["4"]>
    %n = sdfg.nested "inner" ins("x" = %x["0:8"] : !sdfg.array<f32 ["8"]>, "y" = %y["0:4"] : !sdfg.array<vector<2xf32> ["4"]>) outs("z" : !sdfg.array<f32 ["8"]>) {
      sdfg.sdfg @inner(%ix: !sdfg.array<vector<2xf32> ["4"]> as "x", %iy: !sdfg.array<vector<2xf32> ["4"]> as "y", %iz: !sdfg.array<vector<2xf32> ["4"]> as "z") {
        sdfg.state @s {
          %xa = sdfg.access %ix : !sdfg.array<vector<2xf32> ["4"]>
          %ya = sdfg.access %iy : !sdfg.array<vector<2xf32> ["4"]>
          %m = sdfg.map "m" ["i" = "0:4"] ins("x" = %xa["0:4"] : !sdfg.array<vector<2xf32> ["4"]>, "y" = %ya["0:4"] : !sdfg.array<vector<2xf32> ["4"]>) outs("z" : !sdfg.array<vector<2xf32> ["4"]>) {
          ^bb0(%xi: !sdfg.array<vector<2xf32> ["4"]>, %yi: !sdfg.array<vector<2xf32> ["4"]>):
            %t = sdfg.tasklet "axpy" ins("a" = %xi["i"] : !sdfg.array<vector<2xf32> ["4"]>, "b" = %yi["i"] : !sdfg.array<vector<2xf32> ["4"]>) outs("c" : vector<2xf32>) {
            ^bb0(%a: vector<2xf32>, %b: vector<2xf32>):
              %two = arith.constant dense<2.0> : vector<2xf32>
              %p = arith.mulf %a, %two : vector<2xf32>
              %s = arith.addf %p, %b : vector<2xf32>
              sdfg.yield %s : vector<2xf32>
            }
            sdfg.exit ("z" = %t["i"] : vector<2xf32>)
          }
          %za = sdfg.access %iz writes(%m["0:4"] : !sdfg.array<vector<2xf32> ["4"]>) : !sdfg.array<vector<2xf32> ["4"]>
        }
      }
    }
    %z = sdfg.access %Z writes(%n["0:8"] : !sdfg.array<f32 ["8"]>) : !sdfg.array<f32 ["8"]>
  }
  sdfg.edge @fill -> @compute
}

// -----

// A vector connector over a subset of as many scalars is one vector load
// or store from the subset's first element.
// CHECK-LABEL: func.func @lanes
// CHECK: vector.load %{{.*}}[%{{.*}}] : memref<?xf64>, vector<4xf64>
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<?xf64>, vector<4xf64>
// B[4j + l] = 3 * A[4j + l] with A[k] = k: 3 * 28.
// LANES: B: <f8[8] checksum 8.4000000000e1
sdfg.sdfg @lanes(%B: !sdfg.array<f64 ["8"]> as "B") {
  %A = sdfg.alloc "A" : !sdfg.array<f64 ["8"]>
  sdfg.state @fill {
    %m = sdfg.map "x" ["k" = "0:8"] outs("A" : !sdfg.array<f64 ["8"]>) {
      %v = sdfg.tasklet "k" outs("o" : f64) {
        %k = sdfg.sym "k" : i64
        %f = arith.sitofp %k : i64 to f64
        sdfg.yield %f : f64
      }
      sdfg.exit ("A" = %v["k"] : f64)
    }
    %a = sdfg.access %A writes(%m["0:8"] : !sdfg.array<f64 ["8"]>) : !sdfg.array<f64 ["8"]>
  }
  sdfg.state @use {
    %a = sdfg.access %A : !sdfg.array<f64 ["8"]>
    %m = sdfg.map "v" ["j" = "0:2"] ins("A" = %a["0:8"] : !sdfg.array<f64 ["8"]>) outs("B" : !sdfg.array<f64 ["8"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["8"]>):
      %t = sdfg.tasklet "triple" ins("a" = %ai["4*j:4*j + 4"] : !sdfg.array<f64 ["8"]>) outs("b" : vector<4xf64>) {
      ^bb0(%x: vector<4xf64>):
        %three = arith.constant dense<3.0> : vector<4xf64>
        %p = arith.mulf %x, %three : vector<4xf64>
        sdfg.yield %p : vector<4xf64>
      }
      sdfg.exit ("B" = %t["4*j:4*j + 4"] : vector<4xf64>)
    }
    %b = sdfg.access %B writes(%m["0:8"] : !sdfg.array<f64 ["8"]>) : !sdfg.array<f64 ["8"]>
  }
  sdfg.edge @fill -> @use
}

// -----

// Vector writes with a resolution: where no other iteration of a parallel
// loop shares the lanes (here `j` owns them, and `k` runs sequentially
// inside it), one vector load, add and store; where iterations may share
// them (`k` in parallel), one atomic update per lane.
// CHECK-LABEL: func.func @resolved_lanes
// CHECK: scf.parallel
// CHECK: scf.for
// CHECK: %[[OLD:.*]] = vector.load %{{.*}}[%{{.*}}] : memref<?xf64>, vector<4xf64>
// CHECK: %[[NEW:.*]] = arith.addf %[[OLD]], %{{.*}} : vector<4xf64>
// CHECK: vector.store %[[NEW]], %{{.*}}[%{{.*}}] : memref<?xf64>, vector<4xf64>
// CHECK: scf.parallel
// CHECK-COUNT-4: memref.atomic_rmw addf
// Each of the 8 elements of B is 1 + the sum of k over 0:3, twice: 7.
// RESOLVED: B: <f8[8] checksum 5.6000000000e1
sdfg.sdfg @resolved_lanes(%B: !sdfg.array<f64 ["8"]> as "B") {
  sdfg.state @s {
    %i = sdfg.map "ones" ["j" = "0:8"] outs("B" : !sdfg.array<f64 ["8"]>) {
      %t = sdfg.tasklet "one" outs("o" : f64) {
        %one = arith.constant 1.0 : f64
        sdfg.yield %one : f64
      }
      sdfg.exit ("B" = %t["j"] : f64)
    }
    %b0 = sdfg.access %B writes(%i["0:8"] : !sdfg.array<f64 ["8"]>) : !sdfg.array<f64 ["8"]>
    %m = sdfg.map "owned" ["j" = "0:8:4"] schedule CPU_Multicore outs("B" : !sdfg.array<f64 ["8"]>) after(%b0 : !sdfg.array<f64 ["8"]>) {
      %n = sdfg.map "k" ["k" = "0:3"] schedule Sequential outs("B" : !sdfg.array<f64 ["8"]>) {
        %t = sdfg.tasklet "k" outs("o" : vector<4xf64>) {
          %k = sdfg.sym "k" : f64
          %v = vector.broadcast %k : f64 to vector<4xf64>
          sdfg.yield %v : vector<4xf64>
        }
        sdfg.exit ("B" = %t["j:j + 4", wcr sum] : vector<4xf64>)
      }
      sdfg.exit ("B" = %n["j:j + 4", wcr sum] : !sdfg.array<f64 ["8"]>)
    }
    %b1 = sdfg.access %B writes(%m["0:8", wcr sum] : !sdfg.array<f64 ["8"]>) : !sdfg.array<f64 ["8"]>
    %p = sdfg.map "shared" ["k" = "0:3", "j" = "0:8:4"] schedule CPU_Multicore outs("B" : !sdfg.array<f64 ["8"]>) after(%b1 : !sdfg.array<f64 ["8"]>) {
      %t = sdfg.tasklet "k" outs("o" : vector<4xf64>) {
        %k = sdfg.sym "k" : f64
        %v = vector.broadcast %k : f64 to vector<4xf64>
        sdfg.yield %v : vector<4xf64>
      }
      sdfg.exit ("B" = %t["j:j + 4", wcr sum] : vector<4xf64>)
    }
    %b2 = sdfg.access %B writes(%p["0:8", wcr sum] : !sdfg.array<f64 ["8"]>) : !sdfg.array<f64 ["8"]>
  }
}
