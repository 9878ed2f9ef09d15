// RUN: sdfg-opt %s --split-input-file --sdfg-fpga-transform | FileCheck %s
// RUN: sdfg-opt %s --split-input-file --sdfg-fpga-transform --verify-diagnostics -o /dev/null

// The same numbers before and after: the first program runs on the CPU
// as written and after the transform (FPGA_Device maps run as parallel
// maps, device copies as copies).
// RUN: sdfg-opt %s --split-input-file --sdfg-fpga-transform -o %t.all
// RUN: %python -c "import sys; open(sys.argv[2], 'w').write(open(sys.argv[1]).read().split('// ' + '-' * 5)[0])" %s %t.before.mlir
// RUN: sdfg-opt %t.before.mlir --sdfg-fpga-transform -o %t.after.mlir
// RUN: rm -rf %t.b %t.a && sdfg-run %t.before.mlir --set N=37 --seed 3 --out %t.b > /dev/null
// RUN: sdfg-run %t.after.mlir --set N=37 --seed 3 --out %t.a > /dev/null
// RUN: %python %S/../Target/HLS/Inputs/compare.py %t.b %t.a | FileCheck %s --check-prefix=SAME
// SAME: 1 outputs match

// A program of two states becomes one kernel region between a state that
// copies the arrays it uses into FPGA_Global memory (Y is not used: it
// stays where it is) and one that copies back the array it writes (s).
// The tasklet outside any scope runs on the device in a map of one
// iteration; the scalar it writes is a register, the array between the
// states global memory.
// CHECK-LABEL: sdfg.sdfg @scale
// CHECK-DAG: %[[FS:.*]] = sdfg.alloc "fpga_s" : !sdfg.array<f64 ["1"] storage FPGA_Global>
// CHECK-DAG: %[[FX:.*]] = sdfg.alloc "fpga_X" : !sdfg.array<f64 ["N"] storage FPGA_Global>
// CHECK-DAG: sdfg.alloc "t" : !sdfg.array<f64 ["N"] storage FPGA_Global>
// CHECK-DAG: sdfg.alloc "c" : !sdfg.scalar<f64 storage FPGA_Registers>
// CHECK-NOT: fpga_Y
// CHECK: sdfg.state @pre_scale {
// CHECK: sdfg.access %[[FX]] writes(%{{.*}}["0:N"] : !sdfg.array<f64 ["N"]>)
// CHECK: sdfg.access %[[FS]] writes(%{{.*}}["0:1"] : !sdfg.array<f64 ["1"]>)
// CHECK: sdfg.region @scale_kernel {
// CHECK: sdfg.state @twice {
// CHECK: sdfg.map "double_map" ["__fpga_i" = "0:1"] schedule FPGA_Device
// CHECK: sdfg.tasklet "double"
// CHECK: sdfg.map "scale" ["i" = "0:N"] schedule FPGA_Device ins("x" = %{{.*}}["0:N"] : !sdfg.array<f64 ["N"] storage FPGA_Global>
// CHECK: sdfg.state @sum {
// CHECK: sdfg.map "sum" ["i" = "0:N"] schedule FPGA_Device
// CHECK: sdfg.edge @twice -> @sum
// CHECK: sdfg.state @post_scale {
// CHECK: sdfg.access %s writes(%{{.*}}["0:1"] : !sdfg.array<f64 ["1"] storage FPGA_Global>)
// CHECK: sdfg.edge @pre_scale -> @scale_kernel
// CHECK: sdfg.edge @scale_kernel -> @post_scale
sdfg.sdfg @scale(%a: !sdfg.scalar<f64> as "a", %X: !sdfg.array<f64 ["N"]> as "X",
                 %Y: !sdfg.array<f64 ["N"]> as "Y", %s: !sdfg.array<f64 ["1"]> as "s") symbols {N = i64} {
  %t = sdfg.alloc "t" : !sdfg.array<f64 ["N"]>
  %c = sdfg.alloc "c" : !sdfg.scalar<f64>
  sdfg.state @twice {
    %al = sdfg.access %a : !sdfg.scalar<f64>
    %k = sdfg.tasklet "double" ins("v" = %al["0"] : !sdfg.scalar<f64>) outs("o" : f64) {
    ^bb0(%v: f64):
      %two = arith.constant 2.0 : f64
      %p = arith.mulf %v, %two : f64
      sdfg.yield %p : f64
    }
    %cw = sdfg.access %c writes(%k["0"] : f64) : !sdfg.scalar<f64>
    %x = sdfg.access %X : !sdfg.array<f64 ["N"]>
    %m = sdfg.map "scale" ["i" = "0:N"] ins("x" = %x["0:N"] : !sdfg.array<f64 ["N"]>, "c" = %cw["0"] : !sdfg.scalar<f64>) outs("t" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%xi: !sdfg.array<f64 ["N"]>, %ci: !sdfg.scalar<f64>):
      %u = sdfg.tasklet "mul" ins("u" = %xi["i"] : !sdfg.array<f64 ["N"]>, "c" = %ci["0"] : !sdfg.scalar<f64>) outs("o" : f64) {
      ^bb0(%uu: f64, %cc: f64):
        %p = arith.mulf %uu, %cc : f64
        sdfg.yield %p : f64
      }
      sdfg.exit ("t" = %u["i"] : f64)
    }
    %tw = sdfg.access %t writes(%m["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
  sdfg.state @sum {
    %tr = sdfg.access %t : !sdfg.array<f64 ["N"]>
    %m = sdfg.map "sum" ["i" = "0:N"] ins("t" = %tr["0:N"] : !sdfg.array<f64 ["N"]>) outs("s" : !sdfg.array<f64 ["1"]>) {
    ^bb0(%ti: !sdfg.array<f64 ["N"]>):
      %u = sdfg.tasklet "add" ins("u" = %ti["i"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%uu: f64):
        sdfg.yield %uu : f64
      }
      sdfg.exit ("s" = %u["0", wcr sum] : f64)
    }
    %sw = sdfg.access %s writes(%m["0", wcr sum] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
  }
  sdfg.edge @twice -> @sum
}

// -----

// A transient that only a scope accesses is on-chip (FPGA_Local), along
// its whole memlet path: the map's result and the access node inside.
// CHECK-LABEL: sdfg.sdfg @local
// CHECK: sdfg.alloc "buf" : !sdfg.array<f32 ["4"] storage FPGA_Local>
// CHECK: sdfg.state @s {
// CHECK: outs("buf" : !sdfg.array<f32 ["4"] storage FPGA_Local>)
// CHECK: sdfg.access %{{.*}} writes(%{{.*}}["0:4"] : !sdfg.array<f32 ["4"] storage FPGA_Local>) : !sdfg.array<f32 ["4"] storage FPGA_Local>
sdfg.sdfg @local(%A: !sdfg.array<f32 ["N", "4"]> as "A") symbols {N = i64} {
  %buf = sdfg.alloc "buf" : !sdfg.array<f32 ["4"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f32 ["N", "4"]>
    %m = sdfg.map "rows" ["i" = "0:N"] ins("a" = %a["0:N, 0:4"] : !sdfg.array<f32 ["N", "4"]>) outs("A" : !sdfg.array<f32 ["N", "4"]>) {
    ^bb0(%ai: !sdfg.array<f32 ["N", "4"]>):
      %inner = sdfg.map "load" ["j" = "0:4"] ins("a" = %ai["i, 0:4"] : !sdfg.array<f32 ["N", "4"]>) outs("buf" : !sdfg.array<f32 ["4"]>) {
      ^bb0(%aj: !sdfg.array<f32 ["N", "4"]>):
        %t = sdfg.tasklet "copy" ins("x" = %aj["i, j"] : !sdfg.array<f32 ["N", "4"]>) outs("y" : f32) {
        ^bb0(%x: f32):
          sdfg.yield %x : f32
        }
        sdfg.exit ("buf" = %t["j"] : f32)
      }
      %b = sdfg.access %buf writes(%inner["0:4"] : !sdfg.array<f32 ["4"]>) : !sdfg.array<f32 ["4"]>
      %t = sdfg.tasklet "sum" ins("w" = %b["0:4"] : !sdfg.array<f32 ["4"]>) outs("s" : f32) {
      ^bb0(%w: memref<4xf32>):
        %c0 = arith.constant 0 : index
        %c3 = arith.constant 3 : index
        %x0 = memref.load %w[%c0] : memref<4xf32>
        %x3 = memref.load %w[%c3] : memref<4xf32>
        %s = arith.addf %x0, %x3 : f32
        sdfg.yield %s : f32
      }
      sdfg.exit ("A" = %t["i, 0"] : f32)
    }
    %w = sdfg.access %A writes(%m["0:N, 0"] : !sdfg.array<f32 ["N", "4"]>) : !sdfg.array<f32 ["N", "4"]>
  }
}

// -----

// A program that already runs on a device is left alone, and says why.
// expected-remark @+1 {{sdfg-fpga-transform does not apply: 'sdfg.map' is already scheduled GPU_Device}}
sdfg.sdfg @on_gpu(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %m = sdfg.map "m" ["i" = "0:N"] schedule GPU_Device ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("A" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "t" ins("x" = %ai["i"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit ("A" = %t["i"] : f64)
    }
    %w = sdfg.access %A writes(%m["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// Control flow that reads an array would read device memory on the host.
// expected-remark @+1 {{sdfg-fpga-transform does not apply: control flow reads array 'A', which would move to device memory}}
sdfg.sdfg @data_dependent(%A: !sdfg.array<i32 ["4"]> as "A") symbols {k = i64} {
  sdfg.state @s {
  }
  sdfg.state @t {
  }
  sdfg.edge @s -> @t if "A[0] > 0"
}
