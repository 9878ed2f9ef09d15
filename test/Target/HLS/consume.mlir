// RUN: sdfg-opt %s --sdfg-fpga-transform | sdfg-translate --emit-hls | FileCheck %s
// RUN: %S/Inputs/simulate.sh %s %t %hls_include | FileCheck %s --check-prefix=SIM

// The same program with a stream of depth 1: its one processing element
// pushes two elements back for every one it takes, which a stream of
// depth 1 cannot hold. The simulation blocks on the write, as hardware
// would, and reports the deadlock with the stream's name.
// RUN: sed 's/buffer "64"/buffer "1"/g' %s > %t.shallow.mlir
// RUN: sdfg-opt %t.shallow.mlir --sdfg-fpga-transform -o %t.shallow.fpga.mlir
// RUN: sdfg-translate --emit-hls %t.shallow.fpga.mlir -o %t.shallow.kernel.cpp
// RUN: sdfg-translate --emit-hls-testbench %t.shallow.fpga.mlir -o %t.shallow.testbench.cpp
// RUN: %hls_cxx %t.shallow.kernel.cpp %t.shallow.testbench.cpp -o %t.shallow.sim
// RUN: rm -rf %t.shallow.out %t.shallow.in && mkdir %t.shallow.out %t.shallow.in
// RUN: %python -c "import numpy, sys; numpy.save(sys.argv[1], numpy.array([6], dtype=numpy.int32))" %t.shallow.in/iv.npy
// RUN: env SDFG_HLS_DEADLOCK_SECONDS=1 not %t.shallow.sim %t.shallow.in %t.shallow.out 2>&1 | FileCheck %s --check-prefix=DEADLOCK
// DEADLOCK: deadlock: write to full stream 'S' (depth 1) blocked for 1.0 s

// A consume scope takes the stream's elements until none is left (or its
// quiescence condition holds), one loop for its processing elements; what
// the body pushes back is taken too. Outputs written by reference are
// written where the body stores them: pushes to the stream, and a summing
// write-conflict resolution into res.

// CHECK-LABEL: static void cons_{{[0-9]+}}(hls::stream<int32_t, 64> &S, float *fpga_res) {
// CHECK: for (;;) {
// CHECK-NEXT: #pragma HLS PIPELINE
// CHECK-NEXT: if (S.empty()) break;
// CHECK-NEXT: const int32_t [[E:element_[0-9]+]] = S.read();
// CHECK: fpga_res[0] += {{.*}};
// CHECK: S.write({{v_[0-9]+_[0-9]+}});
// CHECK: S.write({{v_[0-9]+_[0-9]+}});

// CHECK-LABEL: void fib(
// CHECK: hls::stream<int32_t, 64> S("S");
// CHECK-NEXT: #pragma HLS STREAM variable=S depth=64
// CHECK: S.write(fpga_iv[{{c_[0-9]+}}]);
// CHECK: cons_{{[0-9]+}}(S, fpga_res);

// SIM: 1 outputs match
sdfg.sdfg @fib(%iv: !sdfg.array<i32 ["1"]> as "iv", %res: !sdfg.array<f32 ["1"]> as "res") {
  %S = sdfg.alloc "S" : !sdfg.stream<i32 buffer "64">
  sdfg.state @state {
    %ivn = sdfg.access %iv : !sdfg.array<i32 ["1"]>
    %sin = sdfg.access %S writes(%ivn["0" -> "0"] : !sdfg.array<i32 ["1"]>) : !sdfg.stream<i32 buffer "64">
    %r:2 = sdfg.consume "cons" (%sin["0"] : !sdfg.stream<i32 buffer "64">) pe "p" pes "4"
        outs("S" : !sdfg.stream<i32 buffer "64">, "V" : !sdfg.array<f32 ["1"]>) {
    ^bb0(%elem: i32):
      %fib:2 = sdfg.tasklet "fibonacci" ins("s" = %elem["0", data "S"] : i32) outs("sout" : i32 by_ref, "val" : f32 by_ref) {
      ^bb0(%s: i32, %sout: !sdfg.stream<i32>, %val: memref<f32>):
        %one = arith.constant 1 : i32
        %two = arith.constant 2 : i32
        %is1 = arith.cmpi eq, %s, %one : i32
        scf.if %is1 {
          %f = arith.constant 1.0 : f32
          memref.store %f, %val[] : memref<f32>
        } else {
          %gt1 = arith.cmpi sgt, %s, %one : i32
          scf.if %gt1 {
            %a = arith.subi %s, %one : i32
            sdfg.push %sout, %a : <i32>
            %b = arith.subi %s, %two : i32
            sdfg.push %sout, %b : <i32>
          }
        }
        sdfg.yield
      }
      sdfg.exit ("S" = %fib#0["0", volume "0", dynamic] : i32,
                 "V" = %fib#1["0", volume "0", dynamic, wcr sum] : f32)
    }
    %sout = sdfg.access %S writes(%r#0["0", volume "0", dynamic] : !sdfg.stream<i32 buffer "64">) : !sdfg.stream<i32 buffer "64">
    %resn = sdfg.access %res writes(%r#1["0", volume "0", dynamic, wcr sum] : !sdfg.array<f32 ["1"]>) : !sdfg.array<f32 ["1"]>
  }
}
