// RUN: sdfg-opt %s --sdfg-fpga-transform | sdfg-translate --emit-hls | FileCheck %s
// RUN: sdfg-opt %s --sdfg-fpga-transform | sdfg-translate --emit-hls-testbench | FileCheck %s --check-prefix=TB
// RUN: %S/Inputs/simulate.sh %s %t %hls_include N=29 | FileCheck %s --check-prefix=SIM

// The kernel's interface: each FPGA_Global array an m_axi port of its own
// bundle (with its depth where the size is a constant), symbols and
// scalars s_axilite registers, and the return value the control register.
// The host's arrays (X, Y, s) are not the kernel's: the testbench copies
// them in and out.

// CHECK-LABEL: void axpy(double a, double *fpga_X, double *fpga_Y, double *fpga_s, long long N) {
// CHECK-NEXT: #pragma HLS INTERFACE s_axilite port=a bundle=control
// CHECK-NEXT: #pragma HLS INTERFACE m_axi port=fpga_X offset=slave bundle=gmem0{{$}}
// CHECK-NEXT: #pragma HLS INTERFACE s_axilite port=fpga_X bundle=control
// CHECK-NEXT: #pragma HLS INTERFACE m_axi port=fpga_Y offset=slave bundle=gmem1{{$}}
// CHECK-NEXT: #pragma HLS INTERFACE s_axilite port=fpga_Y bundle=control
// CHECK-NEXT: #pragma HLS INTERFACE m_axi port=fpga_s offset=slave bundle=gmem2 depth=1
// CHECK-NEXT: #pragma HLS INTERFACE s_axilite port=fpga_s bundle=control
// CHECK-NEXT: #pragma HLS INTERFACE s_axilite port=N bundle=control
// CHECK-NEXT: #pragma HLS INTERFACE s_axilite port=return bundle=control

// The testbench reads every argument, performs the copy states and writes
// what the program writes.
// TB: int main(int argc, char **argv) {
// TB: const long long N = (long long)args.symbol("N");
// TB: args.read("X", host_X.data(), {N}, {1}, {0}, "<f8");
// TB: fpga_X = host_X;
// TB: axpy(host_a[0], fpga_X.data(), fpga_Y.data(), fpga_s.data(), N);
// TB: host_Y = fpga_Y;
// TB: args.write("Y", host_Y.data(), {N}, {1}, {0}, "<f8");
// TB: args.write("s", host_s.data(), {1}, {1}, {0}, "<f8");

// SIM: 2 outputs match
sdfg.sdfg @axpy(%a: !sdfg.scalar<f64> as "a", %X: !sdfg.array<f64 ["N"]> as "X",
                %Y: !sdfg.array<f64 ["N"]> as "Y", %s: !sdfg.array<f64 ["1"]> as "s") symbols {N = i64} {
  sdfg.state @s {
    %x = sdfg.access %X : !sdfg.array<f64 ["N"]>
    %y = sdfg.access %Y : !sdfg.array<f64 ["N"]>
    %al = sdfg.access %a : !sdfg.scalar<f64>
    %m:2 = sdfg.map "axpy" ["i" = "0:N"] ins("x" = %x["0:N"] : !sdfg.array<f64 ["N"]>, "y" = %y["0:N"] : !sdfg.array<f64 ["N"]>, "a" = %al["0"] : !sdfg.scalar<f64>) outs("Y" : !sdfg.array<f64 ["N"]>, "s" : !sdfg.array<f64 ["1"]>) {
    ^bb0(%xi: !sdfg.array<f64 ["N"]>, %yi: !sdfg.array<f64 ["N"]>, %ai: !sdfg.scalar<f64>):
      %t = sdfg.tasklet "axpy" ins("u" = %xi["i"] : !sdfg.array<f64 ["N"]>, "v" = %yi["i"] : !sdfg.array<f64 ["N"]>, "k" = %ai["0"] : !sdfg.scalar<f64>) outs("w" : f64) {
      ^bb0(%u: f64, %v: f64, %k: f64):
        %p = arith.mulf %k, %u : f64
        %q = arith.addf %p, %v : f64
        sdfg.yield %q : f64
      }
      %n = sdfg.tasklet "norm" ins("u" = %xi["i"] : !sdfg.array<f64 ["N"]>) outs("w" : f64) {
      ^bb0(%u: f64):
        %p = arith.mulf %u, %u : f64
        sdfg.yield %p : f64
      }
      sdfg.exit ("Y" = %t["i"] : f64, "s" = %n["0", wcr sum] : f64)
    }
    %y2 = sdfg.access %Y writes(%m#0["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %s2 = sdfg.access %s writes(%m#1["0", wcr sum] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
  }
}
