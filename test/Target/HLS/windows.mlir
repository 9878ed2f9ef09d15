// RUN: sdfg-opt %s --sdfg-fpga-transform | sdfg-translate --emit-hls | FileCheck %s
// RUN: %S/Inputs/simulate.sh %s %t %hls_include | FileCheck %s --check-prefix=SIM

// Windows: a connector that a tasklet body reads as a memref reads the
// container itself, at the window's first element plus each index times
// its dimension's stride. A tiled subset (A[2i:2i+10:8 tile 2]) is seen as
// DaCe sees it, tile origins then tiles: element [k, j] is A[2i + 8k + j].
// A dimension of size 1 that the connector does not have is dropped.

// CHECK-LABEL: static void gather_{{[0-9]+}}(
// CHECK: = fpga_A[2 * i + 0LL * 8 + 1LL];
// CHECK-NEXT: = fpga_A[2 * i + 1LL * 8 + 0LL];
// CHECK-NEXT: = fpga_M[3 * i + 2LL];

// SIM: 1 outputs match
sdfg.sdfg @windows(%A: !sdfg.array<f64 ["40"]> as "A", %M: !sdfg.array<f64 ["4", "3"]> as "M", %B: !sdfg.array<f64 ["4"]> as "B") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["40"]>
    %mm = sdfg.access %M : !sdfg.array<f64 ["4", "3"]>
    %m = sdfg.map "gather" ["i" = "0:4"] ins("a" = %a["0:40"] : !sdfg.array<f64 ["40"]>, "m" = %mm["0:4, 0:3"] : !sdfg.array<f64 ["4", "3"]>) outs("B" : !sdfg.array<f64 ["4"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["40"]>, %mi: !sdfg.array<f64 ["4", "3"]>):
      %t = sdfg.tasklet "gather" ins("w" = %ai["2*i:2*i + 10:8 tile 2"] : !sdfg.array<f64 ["40"]>, "r" = %mi["i, 0:3"] : !sdfg.array<f64 ["4", "3"]>) outs("y" : f64) {
      ^bb0(%w: memref<2x2xf64>, %r: memref<3xf64>):
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c2 = arith.constant 2 : index
        %w01 = memref.load %w[%c0, %c1] : memref<2x2xf64>
        %w10 = memref.load %w[%c1, %c0] : memref<2x2xf64>
        %r2 = memref.load %r[%c2] : memref<3xf64>
        %s = arith.addf %w01, %w10 : f64
        %y = arith.mulf %s, %r2 : f64
        sdfg.yield %y : f64
      }
      sdfg.exit ("B" = %t["i"] : f64)
    }
    %b = sdfg.access %B writes(%m["0:4"] : !sdfg.array<f64 ["4"]>) : !sdfg.array<f64 ["4"]>
  }
}
