// RUN: sdfg-opt %s --sdfg-fpga-transform | sdfg-translate --emit-hls | FileCheck %s
// RUN: %S/Inputs/simulate.sh %s %t %hls_include N=11 M=70 | FileCheck %s --check-prefix=SIM

// Maps are loop nests. The innermost loop of an innermost map is pipelined;
// a symbolic trip count gets the bounds the symbolic engine knows
// (Min(M, 64) is at most 64); an unrolled map is unrolled, and the local
// array it reads and writes is partitioned into registers. A map whose
// inner maps are all unrolled is pipelined itself, and a local that one
// processing element alone uses is that function's own; its size,
// Min(M, 8), is not a constant, so on-chip memory holds its bound, 8
// elements. The two maps of
// the state share no data, so they run as a DATAFLOW region.

// CHECK-LABEL: static void add_{{[0-9]+}}(float *fpga_A, float *fpga_B, long long M, long long N) {
// CHECK-NEXT: for (long long i = 0; i < N; i += 1) {
// CHECK-NEXT: for (long long j = 0; j < sdfg_min(64, M); j += 1) {
// CHECK-NEXT: #pragma HLS PIPELINE II=1
// CHECK-NEXT: #pragma HLS LOOP_TRIPCOUNT min=1 max=64
// CHECK: const float [[X:x_[0-9]+]] = fpga_A[(M * i) + j];
// CHECK: = [[X]] + 1.5f;
// CHECK: fpga_B[(M * i) + j] =

// CHECK-LABEL: static void rows_{{[0-9]+}}(float *fpga_C, long long N) {
// CHECK-NEXT: float w[8];
// CHECK-NEXT: #pragma HLS ARRAY_PARTITION variable=w complete
// CHECK-NEXT: for (long long i = 0; i < N; i += 1) {
// CHECK-NEXT: #pragma HLS PIPELINE II=1
// CHECK-NEXT: for (long long k = 0; k < 8; k += 1) {
// CHECK-NEXT: #pragma HLS UNROLL
// CHECK: w[k] =
// CHECK: for (long long k = 0; k < 8; k += 1) {
// CHECK-NEXT: #pragma HLS UNROLL
// CHECK: = w[7 - k];

// CHECK-LABEL: static void s_dataflow_{{[0-9]+}}(float *fpga_A, float *fpga_B, float *fpga_C, long long M, long long N) {
// CHECK-NEXT: #pragma HLS DATAFLOW
// CHECK-NEXT: SDFG_HLS_PROCESS(add_{{[0-9]+}}(fpga_A, fpga_B, M, N));
// CHECK-NEXT: SDFG_HLS_PROCESS(rows_{{[0-9]+}}(fpga_C, N));
// CHECK-NEXT: SDFG_HLS_JOIN();

// CHECK-LABEL: void maps(float *fpga_A, float *fpga_B, float *fpga_C, long long M, long long N) {
// CHECK-NOT: float w[8];
// CHECK: s_dataflow_{{[0-9]+}}(fpga_A, fpga_B, fpga_C, M, N);

// SIM: 2 outputs match
sdfg.sdfg @maps(%A: !sdfg.array<f32 ["N", "M"]> as "A", %B: !sdfg.array<f32 ["N", "M"]> as "B", %C: !sdfg.array<f32 ["N", "8"]> as "C") symbols {M = i64, N = i64} {
  %w = sdfg.alloc "w" : !sdfg.array<f32 ["Min(M, 8)"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f32 ["N", "M"]>
    %m = sdfg.map "add" ["i" = "0:N", "j" = "0:Min(M, 64)"] ins("a" = %a["0:N, 0:M"] : !sdfg.array<f32 ["N", "M"]>) outs("B" : !sdfg.array<f32 ["N", "M"]>) {
    ^bb0(%ai: !sdfg.array<f32 ["N", "M"]>):
      %t = sdfg.tasklet "inc" ins("x" = %ai["i, j"] : !sdfg.array<f32 ["N", "M"]>) outs("y" : f32) {
      ^bb0(%x: f32):
        %one = arith.constant 1.5 : f32
        %y = arith.addf %x, %one : f32
        sdfg.yield %y : f32
      }
      sdfg.exit ("B" = %t["i, j"] : f32)
    }
    %b = sdfg.access %B writes(%m["0:N, 0:M"] : !sdfg.array<f32 ["N", "M"]>) : !sdfg.array<f32 ["N", "M"]>
    %c = sdfg.access %C : !sdfg.array<f32 ["N", "8"]>
    %r = sdfg.map "rows" ["i" = "0:N"] ins("c" = %c["0:N, 0:8"] : !sdfg.array<f32 ["N", "8"]>) outs("C" : !sdfg.array<f32 ["N", "8"]>) {
    ^bb0(%ci: !sdfg.array<f32 ["N", "8"]>):
      %load = sdfg.map "load" ["k" = "0:8"] unroll ins("c" = %ci["i, 0:8"] : !sdfg.array<f32 ["N", "8"]>) outs("w" : !sdfg.array<f32 ["Min(M, 8)"]>) {
      ^bb0(%ck: !sdfg.array<f32 ["N", "8"]>):
        %t = sdfg.tasklet "sq" ins("x" = %ck["i, k"] : !sdfg.array<f32 ["N", "8"]>) outs("y" : f32) {
        ^bb0(%x: f32):
          %y = arith.mulf %x, %x : f32
          sdfg.yield %y : f32
        }
        sdfg.exit ("w" = %t["k"] : f32)
      }
      %wl = sdfg.access %w writes(%load["0:8"] : !sdfg.array<f32 ["Min(M, 8)"]>) : !sdfg.array<f32 ["Min(M, 8)"]>
      %store = sdfg.map "store" ["k" = "0:8"] unroll ins("w" = %wl["0:8"] : !sdfg.array<f32 ["Min(M, 8)"]>) outs("C" : !sdfg.array<f32 ["N", "8"]>) {
      ^bb0(%wk: !sdfg.array<f32 ["Min(M, 8)"]>):
        %t = sdfg.tasklet "neg" ins("x" = %wk["7 - k"] : !sdfg.array<f32 ["Min(M, 8)"]>) outs("y" : f32) {
        ^bb0(%x: f32):
          %y = arith.negf %x : f32
          sdfg.yield %y : f32
        }
        sdfg.exit ("C" = %t["i, k"] : f32)
      }
      sdfg.exit ("C" = %store["i, 0:8"] : !sdfg.array<f32 ["N", "8"]>)
    }
    %cw = sdfg.access %C writes(%r["0:N, 0:8"] : !sdfg.array<f32 ["N", "8"]>) : !sdfg.array<f32 ["N", "8"]>
  }
}
