// RUN: sdfg-opt %s --pass-pipeline='builtin.module(convert-sdfg-to-scf)' | FileCheck %s
// RUN: sdfg-run %s | FileCheck %s --check-prefix=OUT

// A tasklet connector on a tiled subset sees the array DaCe's code
// generator indexes: one dimension of tile origins, then one of tile
// elements. `A[1, 2*i:2*i + 10:8 tile 2, 3]` is a 2x2 array whose element
// [k, j] is A[1, 2*i + 8*k + j, 3]: strides 8*4 and 4 in A's elements.
// CHECK-LABEL: func.func @tiled
// CHECK: %[[EIGHT_I:.*]] = arith.muli %c8, %[[I:.*]] : index
// CHECK: %[[OFFSET:.*]] = arith.addi %c67, %[[EIGHT_I]] : index
// CHECK: %[[STEPS:.*]] = arith.constant 32 : index
// CHECK: %[[TILE:.*]] = arith.constant 4 : index
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [%[[OFFSET]]], sizes: [%c2{{.*}}, %c2{{.*}}], strides: [%[[STEPS]], %[[TILE]]] : memref<?xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
// With A[i, j, k] = 64*i + 4*j + k, every B[i] is
// a[1, 0] - a[0, 1] + a[0, 0] = 28 + 67 + 8*i; they sum to 428.
// OUT: B: <f8[4] checksum 4.2800000000e2
sdfg.sdfg @tiled(%B: !sdfg.array<f64 ["4"]> as "B") {
  %A = sdfg.alloc "A" : !sdfg.array<f64 ["2", "16", "4"]>
  sdfg.state @fill {
    %m = sdfg.map "iota" ["i" = "0:2", "j" = "0:16", "k" = "0:4"] outs("A" : !sdfg.array<f64 ["2", "16", "4"]>) {
      %v = sdfg.tasklet "w" outs("o" : f64) {
        %i = sdfg.sym "64*i + 4*j + k" : i64
        %f = arith.sitofp %i : i64 to f64
        sdfg.yield %f : f64
      }
      sdfg.exit ("A" = %v["i, j, k"] : f64)
    }
    %a = sdfg.access %A writes(%m["0:2, 0:16, 0:4"] : !sdfg.array<f64 ["2", "16", "4"]>) : !sdfg.array<f64 ["2", "16", "4"]>
  }
  sdfg.state @use {
    %a = sdfg.access %A : !sdfg.array<f64 ["2", "16", "4"]>
    %m = sdfg.map "tiles" ["i" = "0:4"] ins("A" = %a["1, 0:16, 3"] : !sdfg.array<f64 ["2", "16", "4"]>) outs("B" : !sdfg.array<f64 ["4"]>) {
    ^bb0(%ain: !sdfg.array<f64 ["2", "16", "4"]>):
      %v = sdfg.tasklet "t" ins("a" = %ain["1, 2*i:2*i + 10:8 tile 2, 3"] : !sdfg.array<f64 ["2", "16", "4"]>) outs("b" : f64) {
      ^bb0(%x: memref<2x2xf64>):
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %x10 = memref.load %x[%c1, %c0] : memref<2x2xf64>
        %x01 = memref.load %x[%c0, %c1] : memref<2x2xf64>
        %x00 = memref.load %x[%c0, %c0] : memref<2x2xf64>
        %d = arith.subf %x10, %x01 : f64
        %s = arith.addf %d, %x00 : f64
        sdfg.yield %s : f64
      }
      sdfg.exit ("B" = %v["i"] : f64)
    }
    %b = sdfg.access %B writes(%m["0:4"] : !sdfg.array<f64 ["4"]>) : !sdfg.array<f64 ["4"]>
  }
  sdfg.edge @fill -> @use
}
