// RUN: sdfg-opt %s --pass-pipeline='builtin.module(sdfg-fpga-transform{streaming-memory=true stream-depth=4})' | FileCheck %s
// RUN: sdfg-opt %s --pass-pipeline='builtin.module(sdfg-fpga-transform{streaming-memory=true stream-depth=4})' | sdfg-translate --emit-hls | FileCheck %s --check-prefix=HLS

// The same numbers on the CPU before and after, and in C simulation,
// where the reader runs ahead of the computation through a stream of
// depth 4.
// RUN: sdfg-opt %s --pass-pipeline='builtin.module(sdfg-fpga-transform{streaming-memory=true stream-depth=4})' -o %t.after.mlir
// RUN: rm -rf %t.b %t.a && sdfg-run %s --set N=41 --set a=3 --seed 2 --out %t.b > /dev/null
// RUN: sdfg-run %t.after.mlir --set N=41 --set a=3 --seed 2 --out %t.a > /dev/null
// RUN: %python %S/../Target/HLS/Inputs/compare.py %t.b %t.a | FileCheck %s --check-prefix=SAME
// RUN: env SDFG_FPGA_TRANSFORM='sdfg-fpga-transform{streaming-memory=true stream-depth=4}' %S/../Target/HLS/Inputs/simulate.sh %s %t.sim %hls_include N=41 | FileCheck %s --check-prefix=SAME
// SAME: 2 outputs match

// streaming-memory (DaCe's StreamingMemory): the map reads one element of
// the global array X per iteration, so a reader processing element over
// the same range reads it and pushes it into a stream the map pops; it
// writes one element of Z per iteration, so it pushes it into a stream
// that a writer processing element pops and stores. Y, which the map both
// reads and writes, stays a memory access.
// CHECK: %[[T:.*]] = sdfg.alloc "fpga_Z_stream" : !sdfg.stream<f64 buffer "4" storage FPGA_Local>
// CHECK: %[[S:.*]] = sdfg.alloc "fpga_X_stream" : !sdfg.stream<f64 buffer "4" storage FPGA_Local>
// CHECK: %[[R:.*]] = sdfg.map "read_fpga_X" ["i" = "0:N"] schedule FPGA_Device ins("fpga_X" = %{{.*}}["0:N"] : !sdfg.array<f64 ["N"] storage FPGA_Global>) outs("fpga_X_stream" : !sdfg.stream<f64 buffer "4" storage FPGA_Local>)
// CHECK: sdfg.tasklet "read_fpga_X" ins("v" = %{{.*}}["i"] : !sdfg.array<f64 ["N"] storage FPGA_Global>) outs("o" : f64)
// CHECK: sdfg.exit("fpga_X_stream" = %{{.*}}["0"] : f64)
// CHECK: %[[W:.*]] = sdfg.access %[[S]] writes(%[[R]]["0", volume "N"] : !sdfg.stream<f64 buffer "4" storage FPGA_Local>)
// CHECK: %[[M:.*]]:2 = sdfg.map "m" ["i" = "0:N"] schedule FPGA_Device ins("x" = %[[W]]["0", volume "N"] : !sdfg.stream<f64 buffer "4" storage FPGA_Local>, "y" = %{{.*}}["0:N"] : !sdfg.array<f64 ["N"] storage FPGA_Global>, {{.*}}) outs("Y" : !sdfg.array<f64 ["N"] storage FPGA_Global>, "Z" : !sdfg.stream<f64 buffer "4" storage FPGA_Local>)
// CHECK: sdfg.exit("Y" = %{{.*}}["i"] : f64, "Z" = %{{.*}}["0"] : f64)
// CHECK: %[[Y:.*]] = sdfg.access %{{.*}} writes(%[[M]]#0["0:N"]
// CHECK: %[[P:.*]] = sdfg.access %[[T]] writes(%[[M]]#1["0", volume "N"] : !sdfg.stream<f64 buffer "4" storage FPGA_Local>)
// CHECK: %[[V:.*]] = sdfg.map "write_fpga_Z" ["i" = "0:N"] schedule FPGA_Device ins("fpga_Z_stream" = %[[P]]["0", volume "N"] : !sdfg.stream<f64 buffer "4" storage FPGA_Local>) outs("fpga_Z" : !sdfg.array<f64 ["N"] storage FPGA_Global>)
// CHECK: sdfg.tasklet "write_fpga_Z" ins("v" = %{{.*}}["0"] : !sdfg.stream<f64 buffer "4" storage FPGA_Local>) outs("o" : f64)
// CHECK: sdfg.exit("fpga_Z" = %{{.*}}["i"] : f64)
// CHECK: sdfg.access %{{.*}} writes(%[[V]]["0:N"] : !sdfg.array<f64 ["N"] storage FPGA_Global>)

// HLS: #pragma HLS DATAFLOW
// HLS-NEXT: SDFG_HLS_PROCESS(read_fpga_X_{{[0-9]+}}(fpga_X, fpga_X_stream, N));
// HLS-NEXT: SDFG_HLS_PROCESS(m_{{[0-9]+}}(a, fpga_X_stream, fpga_Y, fpga_Z_stream, N));
// HLS-NEXT: SDFG_HLS_PROCESS(write_fpga_Z_{{[0-9]+}}(fpga_Z, fpga_Z_stream, N));
sdfg.sdfg @axpy(%a: !sdfg.scalar<f64> as "a", %X: !sdfg.array<f64 ["N"]> as "X", %Y: !sdfg.array<f64 ["N"]> as "Y", %Z: !sdfg.array<f64 ["N"]> as "Z") symbols {N = i64} {
  sdfg.state @s {
    %x = sdfg.access %X : !sdfg.array<f64 ["N"]>
    %y = sdfg.access %Y : !sdfg.array<f64 ["N"]>
    %al = sdfg.access %a : !sdfg.scalar<f64>
    %m:2 = sdfg.map "m" ["i" = "0:N"] ins("x" = %x["0:N"] : !sdfg.array<f64 ["N"]>, "y" = %y["0:N"] : !sdfg.array<f64 ["N"]>, "a" = %al["0"] : !sdfg.scalar<f64>) outs("Y" : !sdfg.array<f64 ["N"]>, "Z" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%xi: !sdfg.array<f64 ["N"]>, %yi: !sdfg.array<f64 ["N"]>, %ai: !sdfg.scalar<f64>):
      %t:2 = sdfg.tasklet "axpy" ins("u" = %xi["i"] : !sdfg.array<f64 ["N"]>, "v" = %yi["i"] : !sdfg.array<f64 ["N"]>, "s" = %ai["0"] : !sdfg.scalar<f64>) outs("w" : f64, "z" : f64) {
      ^bb0(%u: f64, %v: f64, %s: f64):
        %p = arith.mulf %s, %u : f64
        %q = arith.addf %p, %v : f64
        sdfg.yield %q, %p : f64, f64
      }
      sdfg.exit ("Y" = %t#0["i"] : f64, "Z" = %t#1["i"] : f64)
    }
    %y2 = sdfg.access %Y writes(%m#0["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %z2 = sdfg.access %Z writes(%m#1["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}
