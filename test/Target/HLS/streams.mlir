// RUN: sdfg-opt %s --sdfg-fpga-transform | sdfg-translate --emit-hls | FileCheck %s
// RUN: %S/Inputs/simulate.sh %s %t %hls_include N=37 | FileCheck %s --check-prefix=SIM

// A stream between two maps: the producer pushes, the consumer pops, and
// the two processing elements run as a DATAFLOW region connected by an
// hls::stream of the stream's buffer size. The simulation runs each on its
// own thread: 37 elements pass through a stream of depth 4 only because
// both run at once (one after the other, the producer would block on the
// fifth write, as in hardware). The maps are sequential as written, so
// that the CPU's reference pushes and pops in order too.

// CHECK-LABEL: static void produce_{{[0-9]+}}(float *fpga_A, hls::stream<float, 4> &q, long long N) {
// CHECK: #pragma HLS PIPELINE II=1
// CHECK: q.write({{.*}});
// CHECK-LABEL: static void consume_{{[0-9]+}}(float *fpga_B, hls::stream<float, 4> &q, long long N) {
// CHECK: = q.read();
// CHECK-LABEL: static void s_dataflow_{{[0-9]+}}(
// CHECK-NEXT: #pragma HLS DATAFLOW
// CHECK-NEXT: SDFG_HLS_PROCESS(produce_{{[0-9]+}}(fpga_A, q, N));
// CHECK-NEXT: SDFG_HLS_PROCESS(consume_{{[0-9]+}}(fpga_B, q, N));
// CHECK-NEXT: SDFG_HLS_JOIN();
// CHECK-LABEL: void pipe(
// CHECK: hls::stream<float, 4> q("q");
// CHECK-NEXT: #pragma HLS STREAM variable=q depth=4

// SIM: 1 outputs match
sdfg.sdfg @pipe(%A: !sdfg.array<f32 ["N"]> as "A", %B: !sdfg.array<f32 ["N"]> as "B") symbols {N = i64} {
  %q = sdfg.alloc "q" : !sdfg.stream<f32 buffer "4">
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f32 ["N"]>
    %p = sdfg.map "produce" ["i" = "0:N"] schedule Sequential ins("a" = %a["0:N"] : !sdfg.array<f32 ["N"]>) outs("q" : !sdfg.stream<f32 buffer "4">) {
    ^bb0(%ai: !sdfg.array<f32 ["N"]>):
      %t = sdfg.tasklet "square" ins("x" = %ai["i"] : !sdfg.array<f32 ["N"]>) outs("y" : f32) {
      ^bb0(%x: f32):
        %y = arith.mulf %x, %x : f32
        sdfg.yield %y : f32
      }
      sdfg.exit ("q" = %t["0"] : f32)
    }
    %qw = sdfg.access %q writes(%p["0", volume "N"] : !sdfg.stream<f32 buffer "4">) : !sdfg.stream<f32 buffer "4">
    %c = sdfg.map "consume" ["i" = "0:N"] schedule Sequential ins("q" = %qw["0", volume "N"] : !sdfg.stream<f32 buffer "4">) outs("B" : !sdfg.array<f32 ["N"]>) {
    ^bb0(%qi: !sdfg.stream<f32 buffer "4">):
      %t = sdfg.tasklet "half" ins("x" = %qi["0"] : !sdfg.stream<f32 buffer "4">) outs("y" : f32) {
      ^bb0(%x: f32):
        %h = arith.constant 0.5 : f32
        %y = arith.mulf %x, %h : f32
        sdfg.yield %y : f32
      }
      sdfg.exit ("B" = %t["i"] : f32)
    }
    %b = sdfg.access %B writes(%c["0:N"] : !sdfg.array<f32 ["N"]>) : !sdfg.array<f32 ["N"]>
  }
}
