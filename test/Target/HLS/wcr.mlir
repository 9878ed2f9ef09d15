// RUN: sdfg-opt %s --sdfg-fpga-transform | sdfg-translate --emit-hls 2>%t.warnings | FileCheck %s
// RUN: FileCheck %s --check-prefix=WARN < %t.warnings
// RUN: %S/Inputs/simulate.sh %s %t %hls_include N=23 | FileCheck %s --check-prefix=SIM

// Write-conflict resolutions are accumulations: a sum into the element
// the iteration owns is a plain read-modify-write in the pipeline, a
// lambda that is a named resolution is that resolution, and maximum
// compares. An accumulation of floating-point values into one element
// across the iterations of a pipelined loop carries a dependence from one
// iteration to the next: the pipeline is not asked for II=1, and the
// emitter warns.

// CHECK-LABEL: static void rowsum_{{[0-9]+}}(
// CHECK: for (long long i = 0; i < N; i += 1) {
// CHECK-NEXT: for (long long j = 0; j < 4; j += 1) {
// CHECK-NEXT: #pragma HLS PIPELINE  // floating-point accumulation into fpga_R[i] carries a dependence: II > 1
// CHECK: fpga_R[i] += {{.*}};
// CHECK: fpga_P[i] += {{.*}};
// CHECK: fpga_M[0] = (int32_t)([[V:.*]]) > fpga_M[0] ? (int32_t)([[V]]) : fpga_M[0];

// WARN: warning: 'sdfg.map' op the pipelined loop accumulates floating-point values into fpga_R[i] in every iteration, a loop-carried dependence: it will not reach II=1

// SIM: 3 outputs match
sdfg.sdfg @wcr(%A: !sdfg.array<f64 ["N", "4"]> as "A", %R: !sdfg.array<f64 ["N"]> as "R",
               %P: !sdfg.array<f64 ["N"]> as "P", %M: !sdfg.array<i32 ["1"]> as "M") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "4"]>
    %m:3 = sdfg.map "rowsum" ["i" = "0:N", "j" = "0:4"] ins("a" = %a["0:N, 0:4"] : !sdfg.array<f64 ["N", "4"]>)
        outs("R" : !sdfg.array<f64 ["N"]>, "P" : !sdfg.array<f64 ["N"]>, "M" : !sdfg.array<i32 ["1"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N", "4"]>):
      %t:3 = sdfg.tasklet "acc" ins("x" = %ai["i, j"] : !sdfg.array<f64 ["N", "4"]>) outs("s" : f64, "p" : f64, "m" : i32) {
      ^bb0(%x: f64):
        %one = arith.constant 1.0 : f64
        %h = arith.constant 100.0 : f64
        %p = arith.addf %x, %one : f64
        %y = arith.mulf %x, %h : f64
        %k = arith.fptosi %y : f64 to i32
        sdfg.yield %x, %p, %k : f64, f64, i32
      }
      sdfg.exit ("R" = %t#0["i", wcr sum] : f64, "P" = %t#1["i", wcr "lambda x, y: y + x"] : f64, "M" = %t#2["0", wcr max] : i32)
    }
    %r = sdfg.access %R writes(%m#0["0:N", wcr sum] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %p = sdfg.access %P writes(%m#1["0:N", wcr "lambda x, y: y + x"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %mx = sdfg.access %M writes(%m#2["0", wcr max] : !sdfg.array<i32 ["1"]>) : !sdfg.array<i32 ["1"]>
  }
}
