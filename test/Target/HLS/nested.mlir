// RUN: sdfg-opt %s --sdfg-fpga-transform | sdfg-translate --emit-hls | FileCheck %s
// RUN: %S/Inputs/simulate.sh %s %t %hls_include N=6 M=13 | FileCheck %s --check-prefix=SIM

// A nested SDFG is a block of its own: its symbols are constants of the
// mapped values, an array argument indexes the outer data from its
// memlet's first element (the row i of A), a scalar argument is the outer
// element itself (B[i]), and its transients are locals of the block. The
// map around holds a loop, so it is not pipelined; the loop is.

// CHECK-LABEL: static void rows_{{[0-9]+}}(double *fpga_A, double *fpga_B, long long M, long long N) {
// CHECK-NEXT: for (long long i = 0; i < N; i += 1) {
// CHECK-NEXT: {
// CHECK-NEXT: const long long [[K:K_[0-9]+]] = M;
// CHECK-NEXT: (void)[[K]];
// CHECK-NEXT: const long long [[BASE:row_base_[0-9]+]] = M * i;
// CHECK-NEXT: (void)[[BASE]];
// CHECK-NEXT: long long [[J:j_[0-9]+]] = 0;
// CHECK-NEXT: (void)[[J]];
// CHECK-NEXT: double [[ACC:acc_[0-9]+]] = 0;
// CHECK-NEXT: // state init
// CHECK-NEXT: [[ACC]] = fpga_A[[[BASE]] + 0];
// CHECK-NEXT: for ([[J]] = 1; ((1 - [[K]]) + [[J]]) <= 0; [[J]] = 1 + [[J]]) {
// CHECK-NEXT: #pragma HLS PIPELINE
// CHECK: = fpga_A[[[BASE]] + [[J]]];
// CHECK: = sdfg_maximumf(
// CHECK: // state out
// CHECK-NEXT: fpga_B[i] = [[ACC]];

// SIM: 1 outputs match
sdfg.sdfg @rowmax(%A: !sdfg.array<f64 ["N", "M"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {M = i64, N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "M"]>
    %m = sdfg.map "rows" ["i" = "0:N"] ins("a" = %a["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) outs("B" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N", "M"]>):
      %r = sdfg.nested "max" ins("row" = %ai["i, 0:M"] : !sdfg.array<f64 ["N", "M"]>) outs("best" : !sdfg.array<f64 ["N"]>) symbols("K" = "M") {
        sdfg.sdfg @max(%row: !sdfg.array<f64 ["K"]> as "row", %best: !sdfg.scalar<f64> as "best") symbols {K = i64, j = i64} {
          %acc = sdfg.alloc "acc" : !sdfg.scalar<f64>
          sdfg.state @init {
            %r0 = sdfg.access %row : !sdfg.array<f64 ["K"]>
            %c = sdfg.access %acc writes(%r0["0"] : !sdfg.array<f64 ["K"]>) : !sdfg.scalar<f64>
          }
          sdfg.loop @scan var "j" init "1" cond "j < K" update "j + 1" {
            sdfg.state @step {
              %rj = sdfg.access %row : !sdfg.array<f64 ["K"]>
              %cur = sdfg.access %acc : !sdfg.scalar<f64>
              %t = sdfg.tasklet "max" ins("x" = %rj["j"] : !sdfg.array<f64 ["K"]>, "c" = %cur["0"] : !sdfg.scalar<f64>) outs("y" : f64) {
              ^bb0(%x: f64, %c: f64):
                %y = arith.maximumf %x, %c : f64
                sdfg.yield %y : f64
              }
              %w = sdfg.access %acc writes(%t["0"] : f64) : !sdfg.scalar<f64>
            }
          }
          sdfg.state @out {
            %c = sdfg.access %acc : !sdfg.scalar<f64>
            %b = sdfg.access %best writes(%c["0"] : !sdfg.scalar<f64>) : !sdfg.scalar<f64>
          }
          sdfg.edge @init -> @scan
          sdfg.edge @scan -> @out
        }
      }
      sdfg.exit ("B" = %r["i"] : !sdfg.array<f64 ["N"]>)
    }
    %b = sdfg.access %B writes(%m["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}
