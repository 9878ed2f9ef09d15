// RUN: sdfg-opt %s --pass-pipeline='builtin.module(sdfg-fpga-transform{streaming-composition=true stream-depth=4})' | FileCheck %s
// RUN: sdfg-opt %s --pass-pipeline='builtin.module(sdfg-fpga-transform{streaming-composition=true stream-depth=4})' | sdfg-translate --emit-hls | FileCheck %s --check-prefix=HLS

// The same numbers on the CPU before and after (the device maps that push
// and pop the stream run in order there), and in C simulation, where the
// two processing elements run at once through a stream of depth 4.
// RUN: sdfg-opt %s --pass-pipeline='builtin.module(sdfg-fpga-transform{streaming-composition=true stream-depth=4})' -o %t.after.mlir
// RUN: rm -rf %t.b %t.a && sdfg-run %s --set N=50 --seed 5 --out %t.b > /dev/null
// RUN: sdfg-run %t.after.mlir --set N=50 --seed 5 --out %t.a > /dev/null
// RUN: %python %S/../Target/HLS/Inputs/compare.py %t.b %t.a | FileCheck %s --check-prefix=SAME
// RUN: env SDFG_FPGA_TRANSFORM='sdfg-fpga-transform{streaming-composition=true stream-depth=4}' %S/../Target/HLS/Inputs/simulate.sh %s %t.sim %hls_include N=50 | FileCheck %s --check-prefix=SAME
// SAME: 1 outputs match

// streaming-composition (DaCe's StreamingComposition): the buffer t that
// one device map writes and the next one reads element for element becomes
// a stream between them; the producer's exit pushes, the consumer's
// tasklet pops, and the edges between the scopes move N elements.
// CHECK: %[[T:.*]] = sdfg.alloc "t" : !sdfg.stream<f32 buffer "4" storage FPGA_Local>
// CHECK: sdfg.map "produce" {{.*}} outs("t" : !sdfg.stream<f32 buffer "4" storage FPGA_Local>)
// CHECK: sdfg.exit("t" = %{{.*}}["0"] : f32)
// CHECK: %[[W:.*]] = sdfg.access %[[T]] writes(%{{.*}}["0", volume "N"] : !sdfg.stream<f32 buffer "4" storage FPGA_Local>)
// CHECK: sdfg.map "consume" {{.*}} ins("t" = %[[W]]["0", volume "N"] : !sdfg.stream<f32 buffer "4" storage FPGA_Local>)
// CHECK: sdfg.tasklet "half" ins("v" = %{{.*}}["0"] : !sdfg.stream<f32 buffer "4" storage FPGA_Local>)

// HLS: #pragma HLS DATAFLOW
// HLS-NEXT: SDFG_HLS_PROCESS(produce_{{[0-9]+}}(fpga_A, t, N));
// HLS-NEXT: SDFG_HLS_PROCESS(consume_{{[0-9]+}}(fpga_B, t, N));
sdfg.sdfg @compose(%A: !sdfg.array<f32 ["N"]> as "A", %B: !sdfg.array<f32 ["N"]> as "B") symbols {N = i64} {
  %t = sdfg.alloc "t" : !sdfg.array<f32 ["N"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f32 ["N"]>
    %p = sdfg.map "produce" ["i" = "0:N"] ins("a" = %a["0:N"] : !sdfg.array<f32 ["N"]>) outs("t" : !sdfg.array<f32 ["N"]>) {
    ^bb0(%ai: !sdfg.array<f32 ["N"]>):
      %x = sdfg.tasklet "square" ins("x" = %ai["i"] : !sdfg.array<f32 ["N"]>) outs("y" : f32) {
      ^bb0(%v: f32):
        %y = arith.mulf %v, %v : f32
        sdfg.yield %y : f32
      }
      sdfg.exit ("t" = %x["i"] : f32)
    }
    %tw = sdfg.access %t writes(%p["0:N"] : !sdfg.array<f32 ["N"]>) : !sdfg.array<f32 ["N"]>
    %c = sdfg.map "consume" ["j" = "0:N"] ins("t" = %tw["0:N"] : !sdfg.array<f32 ["N"]>) outs("B" : !sdfg.array<f32 ["N"]>) {
    ^bb0(%ti: !sdfg.array<f32 ["N"]>):
      %y = sdfg.tasklet "half" ins("v" = %ti["j"] : !sdfg.array<f32 ["N"]>) outs("y" : f32) {
      ^bb0(%v: f32):
        %h = arith.constant 0.5 : f32
        %r = arith.mulf %v, %h : f32
        sdfg.yield %r : f32
      }
      sdfg.exit ("B" = %y["j"] : f32)
    }
    %b = sdfg.access %B writes(%c["0:N"] : !sdfg.array<f32 ["N"]>) : !sdfg.array<f32 ["N"]>
  }
}
