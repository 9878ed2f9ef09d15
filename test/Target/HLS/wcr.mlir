// RUN: sdfg-opt %s --sdfg-fpga-transform | sdfg-translate --emit-hls 2>%t.warnings | FileCheck %s
// RUN: FileCheck %s --check-prefix=WARN < %t.warnings
// RUN: %S/Inputs/simulate.sh %s %t %hls_include N=23 | FileCheck %s --check-prefix=SIM

// Write-conflict resolutions are accumulations: a lambda that is a named
// resolution is that resolution, and maximum compares. An accumulation of
// floating-point values into one element across the iterations of a
// pipelined loop would make each iteration wait for the previous one's
// result (an adder takes several cycles): it goes into an interleaved
// accumulator instead, one partial result per slot (at most 16, here the
// 4 iterations), the slots taken in turn, merged into the element after
// the loop. A difference accumulates partial differences and adds them;
// a maximum starts from minus infinity. Integer accumulations stay as
// they are. Where the element depends on an inner unrolled loop, the
// dependence stays: the pipeline is not asked for II=1, and the emitter
// warns.

// CHECK-LABEL: static void rowsum_{{[0-9]+}}(
// CHECK: for (long long i = 0; i < N; i += 1) {
// CHECK-NEXT: double [[R:partial_[0-9]+]][4];
// CHECK-NEXT: #pragma HLS ARRAY_PARTITION variable=[[R]] complete
// CHECK-NEXT: for (int [[R]]_k = 0; [[R]]_k < 4; [[R]]_k += 1) {
// CHECK-NEXT: #pragma HLS UNROLL
// CHECK-NEXT: [[R]][[[R]]_k] = (double)0;
// CHECK: double [[P:partial_[0-9]+]][4];
// CHECK: double [[D:partial_[0-9]+]][4];
// CHECK: [[D]][[[D]]_k] = (double)0;
// CHECK: double [[X:partial_[0-9]+]][4];
// CHECK: [[X]][[[X]]_k] = -std::numeric_limits<double>::infinity();
// CHECK: int [[SLOT:slot_[0-9]+]] = 0;
// CHECK-NEXT: for (long long j = 0; j < 4; j += 1) {
// CHECK-NEXT: #pragma HLS PIPELINE II=1
// CHECK-NEXT: #pragma HLS DEPENDENCE variable=[[R]] inter false
// CHECK: [[R]][[[SLOT]]] += {{.*}};
// CHECK-NEXT: [[P]][[[SLOT]]] += {{.*}};
// CHECK-NEXT: [[D]][[[SLOT]]] -= {{.*}};
// CHECK-NEXT: [[X]][[[SLOT]]] = (double)([[V:.*]]) > [[X]][[[SLOT]]] ? (double)([[V]]) : [[X]][[[SLOT]]];
// CHECK-NEXT: fpga_M[0] = (int32_t)([[W:.*]]) > fpga_M[0] ? (int32_t)([[W]]) : fpga_M[0];
// CHECK-NEXT: [[SLOT]] = [[SLOT]] == 3 ? 0 : [[SLOT]] + 1;
// CHECK-NEXT: }
// CHECK-NEXT: for (int [[R]]_k = 0; [[R]]_k < 4; [[R]]_k += 1) {
// CHECK-NEXT: fpga_R[i] += [[R]][[[R]]_k];
// CHECK: fpga_D[i] += [[D]][[[D]]_k];
// CHECK: fpga_X[i] = (double)([[X]][[[X]]_k]) > fpga_X[i] ? (double)([[X]][[[X]]_k]) : fpga_X[i];

// CHECK-LABEL: static void colsum_{{[0-9]+}}(
// CHECK: for (long long i = 0; i < N; i += 1) {
// CHECK-NEXT: #pragma HLS PIPELINE  // floating-point accumulation into fpga_S[u] carries a dependence: II > 1
// CHECK: for (long long u = 0; u < 4; u += 1) {
// CHECK-NEXT: #pragma HLS UNROLL
// CHECK: fpga_S[u] += {{.*}};

// WARN: warning: 'sdfg.map' op the pipelined loop accumulates floating-point values into fpga_S[u] in every iteration, a loop-carried dependence: it will not reach II=1
// WARN-NOT: warning

// SIM: 6 outputs match
sdfg.sdfg @wcr(%A: !sdfg.array<f64 ["N", "4"]> as "A", %R: !sdfg.array<f64 ["N"]> as "R",
               %P: !sdfg.array<f64 ["N"]> as "P", %D: !sdfg.array<f64 ["N"]> as "D",
               %X: !sdfg.array<f64 ["N"]> as "X", %M: !sdfg.array<i32 ["1"]> as "M",
               %S: !sdfg.array<f64 ["4"]> as "S") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "4"]>
    %m:5 = sdfg.map "rowsum" ["i" = "0:N", "j" = "0:4"] ins("a" = %a["0:N, 0:4"] : !sdfg.array<f64 ["N", "4"]>)
        outs("R" : !sdfg.array<f64 ["N"]>, "P" : !sdfg.array<f64 ["N"]>, "D" : !sdfg.array<f64 ["N"]>,
             "X" : !sdfg.array<f64 ["N"]>, "M" : !sdfg.array<i32 ["1"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N", "4"]>):
      %t:5 = sdfg.tasklet "acc" ins("x" = %ai["i, j"] : !sdfg.array<f64 ["N", "4"]>) outs("s" : f64, "p" : f64, "d" : f64, "y" : f64, "m" : i32) {
      ^bb0(%x: f64):
        %one = arith.constant 1.0 : f64
        %h = arith.constant 100.0 : f64
        %p = arith.addf %x, %one : f64
        %y = arith.mulf %x, %h : f64
        %k = arith.fptosi %y : f64 to i32
        sdfg.yield %x, %p, %p, %y, %k : f64, f64, f64, f64, i32
      }
      sdfg.exit ("R" = %t#0["i", wcr sum] : f64, "P" = %t#1["i", wcr "lambda x, y: y + x"] : f64,
                 "D" = %t#2["i", wcr sub] : f64, "X" = %t#3["i", wcr max] : f64, "M" = %t#4["0", wcr max] : i32)
    }
    %r = sdfg.access %R writes(%m#0["0:N", wcr sum] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %p = sdfg.access %P writes(%m#1["0:N", wcr "lambda x, y: y + x"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %d = sdfg.access %D writes(%m#2["0:N", wcr sub] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %xm = sdfg.access %X writes(%m#3["0:N", wcr max] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %mx = sdfg.access %M writes(%m#4["0", wcr max] : !sdfg.array<i32 ["1"]>) : !sdfg.array<i32 ["1"]>
    %c = sdfg.map "colsum" ["i" = "0:N"] ins("a" = %a["0:N, 0:4"] : !sdfg.array<f64 ["N", "4"]>) outs("S" : !sdfg.array<f64 ["4"]>) {
    ^bb0(%ac: !sdfg.array<f64 ["N", "4"]>):
      %l = sdfg.map "lanes" ["u" = "0:4"] unroll ins("a" = %ac["i, 0:4"] : !sdfg.array<f64 ["N", "4"]>) outs("S" : !sdfg.array<f64 ["4"]>) {
      ^bb0(%al: !sdfg.array<f64 ["N", "4"]>):
        %v = sdfg.tasklet "add" ins("x" = %al["i, u"] : !sdfg.array<f64 ["N", "4"]>) outs("s" : f64) {
        ^bb0(%x: f64):
          sdfg.yield %x : f64
        }
        sdfg.exit ("S" = %v["u", wcr sum] : f64)
      }
      sdfg.exit ("S" = %l["0:4", wcr sum] : !sdfg.array<f64 ["4"]>)
    }
    %s = sdfg.access %S writes(%c["0:4", wcr sum] : !sdfg.array<f64 ["4"]>) : !sdfg.array<f64 ["4"]>
  }
}
