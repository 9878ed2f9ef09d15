// RUN: sdfg-opt %s --sdfg-fpga-transform | sdfg-translate --emit-hls | FileCheck %s
// RUN: %S/Inputs/simulate.sh %s %t %hls_include N=9 | FileCheck %s --check-prefix=SIM

// Copies inside a processing element: a row of A into the local T through
// an access node, and the local U out of the map through its exit (an exit
// entry that an access node writes is a copy into the destination). Inside
// the pipelined loop the copies' loops are unrolled, as the unrolled map
// between them is; T and U, which they access in parallel, are
// partitioned.

// CHECK-LABEL: static void rows_{{[0-9]+}}(float *fpga_A, float *fpga_B, long long N) {
// CHECK: float [[T:T|U]][4];
// CHECK: for (long long i = 0; i < N; i += 1) {
// CHECK-NEXT: #pragma HLS PIPELINE II=1
// CHECK-NEXT: for (long long [[C:c_[0-9]+]] = 0; [[C]] < 4; ++[[C]]) {
// CHECK-NEXT: #pragma HLS UNROLL
// CHECK-NEXT: T[[[C]]] = fpga_A[[[C]] + (4 * i)];
// CHECK: for (long long j = 0; j < 4; j += 1) {
// CHECK-NEXT: #pragma HLS UNROLL
// CHECK: for (long long [[D:c_[0-9]+]] = 0; [[D]] < 4; ++[[D]]) {
// CHECK-NEXT: #pragma HLS UNROLL
// CHECK-NEXT: fpga_B[[[D]] + (4 * i)] = U[[[D]]];

// SIM: 1 outputs match
sdfg.sdfg @copies(%A: !sdfg.array<f32 ["N", "4"]> as "A", %B: !sdfg.array<f32 ["N", "4"]> as "B") symbols {N = i64} {
  %T = sdfg.alloc "T" : !sdfg.array<f32 ["4"]>
  %U = sdfg.alloc "U" : !sdfg.array<f32 ["4"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f32 ["N", "4"]>
    %r = sdfg.map "rows" ["i" = "0:N"] ins("a" = %a["0:N, 0:4"] : !sdfg.array<f32 ["N", "4"]>) outs("B" : !sdfg.array<f32 ["N", "4"]>) {
    ^bb0(%ai: !sdfg.array<f32 ["N", "4"]>):
      %t = sdfg.access %T writes(%ai["i, 0:4" -> "0:4"] : !sdfg.array<f32 ["N", "4"]>) : !sdfg.array<f32 ["4"]>
      %m = sdfg.map "scale" ["j" = "0:4"] unroll ins("t" = %t["0:4"] : !sdfg.array<f32 ["4"]>) outs("U" : !sdfg.array<f32 ["4"]>) {
      ^bb0(%ti: !sdfg.array<f32 ["4"]>):
        %y = sdfg.tasklet "scale" ins("x" = %ti["j"] : !sdfg.array<f32 ["4"]>) outs("y" : f32) {
        ^bb0(%x: f32):
          %c = arith.constant 3.0 : f32
          %p = arith.mulf %x, %c : f32
          sdfg.yield %p : f32
        }
        sdfg.exit ("U" = %y["j"] : f32)
      }
      %u = sdfg.access %U writes(%m["0:4"] : !sdfg.array<f32 ["4"]>) : !sdfg.array<f32 ["4"]>
      sdfg.exit ("B" = %u["0:4" -> "i, 0:4"] : !sdfg.array<f32 ["4"]>)
    }
    %b = sdfg.access %B writes(%r["0:N, 0:4"] : !sdfg.array<f32 ["N", "4"]>) : !sdfg.array<f32 ["N", "4"]>
  }
}
