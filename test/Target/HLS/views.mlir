// RUN: sdfg-opt %s --sdfg-fpga-transform | sdfg-translate --emit-hls | FileCheck %s
// RUN: %S/Inputs/simulate.sh %s %t %hls_include N=7 M=5 | FileCheck %s --check-prefix=SIM

// A view is the data it views: bound at its access node (by its `bind`
// edge, or by its edge back into the data it is written into), its
// element k is the viewed data's element at the bound subset's first
// element plus k times the view's strides, as DaCe's code generator
// points it there. Processing elements take the viewed array itself.

// Column 2 of A, a view of stride M: read.
// CHECK-LABEL: static void twice_{{[0-9]+}}(double *fpga_A, double *fpga_B, long long M, long long N) {
// CHECK: const double {{.*}} = fpga_A[(2) + M * i];

// Row 1 of A, a view written and then written back into A: the writes go
// to A directly.
// CHECK-LABEL: static void ramp_{{[0-9]+}}(double *fpga_A, long long M) {
// CHECK: fpga_A[(M) + j] = {{.*}};

// SIM: 2 outputs match
sdfg.sdfg @views(%A: !sdfg.array<f64 ["N", "M"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {M = i64, N = i64} {
  %V = sdfg.alloc "V" : !sdfg.view<f64 ["N"] strides ["M"]>
  %W = sdfg.alloc "W" : !sdfg.view<f64 ["M"]>
  sdfg.state @column {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "M"]>
    %v = sdfg.access %V bind(%a["0:N, 2"] : !sdfg.array<f64 ["N", "M"]>) : !sdfg.view<f64 ["N"] strides ["M"]>
    %m = sdfg.map "twice" ["i" = "0:N"] ins("v" = %v["0:N"] : !sdfg.view<f64 ["N"] strides ["M"]>) outs("B" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%vi: !sdfg.view<f64 ["N"] strides ["M"]>):
      %t = sdfg.tasklet "twice" ins("x" = %vi["i"] : !sdfg.view<f64 ["N"] strides ["M"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        %y = arith.addf %x, %x : f64
        sdfg.yield %y : f64
      }
      sdfg.exit ("B" = %t["i"] : f64)
    }
    %b = sdfg.access %B writes(%m["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
  sdfg.state @row {
    %m = sdfg.map "ramp" ["j" = "0:M"] outs("W" : !sdfg.view<f64 ["M"]>) {
      %t = sdfg.tasklet "ramp" outs("y" : f64) {
        %j = sdfg.sym "j" : i64
        %y = arith.sitofp %j : i64 to f64
        sdfg.yield %y : f64
      }
      sdfg.exit ("W" = %t["j"] : f64)
    }
    %w = sdfg.access %W writes(%m["0:M"] : !sdfg.view<f64 ["M"]>) : !sdfg.view<f64 ["M"]>
    %a = sdfg.access %A writes(%w["0:M" -> "1, 0:M"] : !sdfg.view<f64 ["M"]>) : !sdfg.array<f64 ["N", "M"]>
  }
  sdfg.edge @column -> @row
}
