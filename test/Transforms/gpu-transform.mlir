// RUN: sdfg-opt %s --split-input-file --sdfg-gpu-transform | FileCheck %s
// RUN: sdfg-opt %s --split-input-file --sdfg-gpu-transform --verify-diagnostics -o /dev/null
// RUN: sdfg-opt %s --split-input-file --sdfg-gpu-transform="sequential-innermaps=false register-transients=false" | FileCheck %s --check-prefix=OPT
// RUN: not sdfg-opt %s --split-input-file --sdfg-gpu-transform="blocks=4" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: sdfg-gpu-transform: unknown option `blocks` (the options are sequential-innermaps and register-transients)

// The same numbers before and after: the programs of the first part run on
// the CPU as written and after the transform (GPU_Device maps run as
// parallel loops, device copies as copies), and the transformed module
// lowers to NVVM (kernels outlined, host code calling them).
// RUN: %python -c "import sys; open(sys.argv[2], 'w').write(open(sys.argv[1]).read().split('// ' + '-' * 5)[0])" %s %t.before.mlir
// RUN: sdfg-opt %t.before.mlir --sdfg-gpu-transform -o %t.after.mlir
// RUN: sdfg-opt %t.after.mlir --sdfg-lower-to-nvvm -o /dev/null
// RUN: rm -rf %t.b %t.a %t.nb %t.na
// RUN: sdfg-run %t.before.mlir --function scale --set N=37 --seed 3 --out %t.b > /dev/null
// RUN: sdfg-run %t.after.mlir --function scale --cpu-fallback --set N=37 --seed 3 --out %t.a > /dev/null
// RUN: %python %S/../Target/HLS/Inputs/compare.py %t.b %t.a | FileCheck %s --check-prefix=SAME
// RUN: sdfg-run %t.before.mlir --function nested --set N=29 --seed 4 --out %t.nb > /dev/null
// RUN: sdfg-run %t.after.mlir --function nested --cpu-fallback --set N=29 --seed 4 --out %t.na > /dev/null
// RUN: %python %S/../Target/HLS/Inputs/compare.py %t.nb %t.na | FileCheck %s --check-prefix=NESTED
// RUN: rm -rf %t.lb %t.la
// RUN: sdfg-run %t.before.mlir --function local_copy --set N=9 --seed 7 --out %t.lb > /dev/null
// RUN: sdfg-run %t.after.mlir --function local_copy --cpu-fallback --set N=9 --seed 7 --out %t.la > /dev/null
// RUN: %python %S/../Target/HLS/Inputs/compare.py %t.lb %t.la | FileCheck %s --check-prefix=NESTED
// SAME: 2 outputs match
// NESTED: 1 outputs match

// The arrays the program uses get GPU_Global copies, all copied in (s is
// written only in part) and the written ones copied back; Y is not used.
// Top-level maps are kernels, the maps inside them sequential. The scalar
// tasklet "double" stays on the host (kernels read c by value); "last"
// reads an array, so it runs on the GPU in a map of one iteration, and so
// does "half", which reads the scalar "last" writes there. Both scalars
// live in GPU memory, and the edge condition reads k by name. The buffer
// only a kernel touches is per thread (Register).
// CHECK-LABEL: sdfg.sdfg @scale
// CHECK-DAG: %[[GX:.*]] = sdfg.alloc "gpu_X" : !sdfg.array<f64 ["N"] storage GPU_Global>
// CHECK-DAG: %[[GS:.*]] = sdfg.alloc "gpu_s" : !sdfg.array<f64 ["2"] storage GPU_Global>
// CHECK-DAG: %[[GR:.*]] = sdfg.alloc "gpu_R" : !sdfg.array<f64 ["N", "4"] storage GPU_Global>
// CHECK-DAG: sdfg.alloc "t" : !sdfg.array<f64 ["N"] storage GPU_Global>
// CHECK-DAG: sdfg.alloc "c" : !sdfg.scalar<f64>
// CHECK-DAG: sdfg.alloc "m" : !sdfg.scalar<f64 storage GPU_Global>
// CHECK-DAG: sdfg.alloc "k" : !sdfg.scalar<f64 storage GPU_Global>
// CHECK-DAG: sdfg.alloc "buf" : !sdfg.array<f64 ["4"] storage Register>
// CHECK-NOT: gpu_Y
// CHECK: sdfg.state @pre_scale {
// CHECK: sdfg.access %[[GX]] writes(%{{.*}}["0:N"] : !sdfg.array<f64 ["N"]>)
// CHECK: sdfg.access %[[GS]] writes(%{{.*}}["0:2"] : !sdfg.array<f64 ["2"]>)
// CHECK: sdfg.access %[[GR]] writes(%{{.*}}["0:N, 0:4"] : !sdfg.array<f64 ["N", "4"]>)
// CHECK: sdfg.region @scale_kernel {
// CHECK: sdfg.state @twice {
// CHECK: sdfg.tasklet "double"
// CHECK: sdfg.map "scale" ["i" = "0:N"] schedule GPU_Device ins("x" = %{{.*}}["0:N"] : !sdfg.array<f64 ["N"] storage GPU_Global>, "c" = %{{.*}}["0"] : !sdfg.scalar<f64>)
// CHECK: sdfg.state @sum {
// CHECK: sdfg.map "sum" ["i" = "0:N"] schedule GPU_Device
// CHECK: sdfg.state @last {
// CHECK: sdfg.map "last_map" ["last__gmapi" = "0:1"] schedule GPU_Device
// CHECK: sdfg.tasklet "last"
// CHECK: sdfg.map "half_map" ["half__gmapi" = "0:1"] schedule GPU_Device
// CHECK: sdfg.tasklet "half"
// CHECK: sdfg.state @rows {
// CHECK: sdfg.map "rows" ["i" = "0:N"] schedule GPU_Device
// CHECK: sdfg.map "fill" ["j" = "0:4"] schedule Sequential
// CHECK: sdfg.map "store" ["j" = "0:4"] schedule Sequential
// CHECK: sdfg.edge @last -> @rows if "k == k"
// CHECK: sdfg.state @post_scale {
// CHECK-NOT: %X
// CHECK: sdfg.access %s writes
// CHECK: sdfg.access %R writes
// CHECK: sdfg.edge @pre_scale -> @scale_kernel
// CHECK: sdfg.edge @scale_kernel -> @post_scale

// OPT-LABEL: sdfg.sdfg @scale
// OPT: sdfg.alloc "buf" : !sdfg.array<f64 ["4"] storage GPU_Global>
// OPT: sdfg.map "rows" ["i" = "0:N"] schedule GPU_Device
// OPT: sdfg.map "fill" ["j" = "0:4"] ins
// OPT: sdfg.map "store" ["j" = "0:4"] ins
sdfg.sdfg @scale(%a: !sdfg.scalar<f64> as "a", %X: !sdfg.array<f64 ["N"]> as "X",
                 %Y: !sdfg.array<f64 ["N"]> as "Y", %s: !sdfg.array<f64 ["2"]> as "s",
                 %R: !sdfg.array<f64 ["N", "4"]> as "R") symbols {N = i64} {
  %t = sdfg.alloc "t" : !sdfg.array<f64 ["N"]>
  %c = sdfg.alloc "c" : !sdfg.scalar<f64>
  %m = sdfg.alloc "m" : !sdfg.scalar<f64>
  %k = sdfg.alloc "k" : !sdfg.scalar<f64>
  %buf = sdfg.alloc "buf" : !sdfg.array<f64 ["4"]>
  sdfg.state @twice {
    %al = sdfg.access %a : !sdfg.scalar<f64>
    %d = sdfg.tasklet "double" ins("v" = %al["0"] : !sdfg.scalar<f64>) outs("o" : f64) {
    ^bb0(%v: f64):
      %two = arith.constant 2.0 : f64
      %p = arith.mulf %v, %two : f64
      sdfg.yield %p : f64
    }
    %cw = sdfg.access %c writes(%d["0"] : f64) : !sdfg.scalar<f64>
    %x = sdfg.access %X : !sdfg.array<f64 ["N"]>
    %mp = sdfg.map "scale" ["i" = "0:N"] ins("x" = %x["0:N"] : !sdfg.array<f64 ["N"]>, "c" = %cw["0"] : !sdfg.scalar<f64>) outs("t" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%xi: !sdfg.array<f64 ["N"]>, %ci: !sdfg.scalar<f64>):
      %u = sdfg.tasklet "mul" ins("u" = %xi["i"] : !sdfg.array<f64 ["N"]>, "c" = %ci["0"] : !sdfg.scalar<f64>) outs("o" : f64) {
      ^bb0(%uu: f64, %cc: f64):
        %p = arith.mulf %uu, %cc : f64
        sdfg.yield %p : f64
      }
      sdfg.exit ("t" = %u["i"] : f64)
    }
    %tw = sdfg.access %t writes(%mp["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
  sdfg.state @sum {
    %tr = sdfg.access %t : !sdfg.array<f64 ["N"]>
    %mp = sdfg.map "sum" ["i" = "0:N"] ins("t" = %tr["0:N"] : !sdfg.array<f64 ["N"]>) outs("s" : !sdfg.array<f64 ["2"]>) {
    ^bb0(%ti: !sdfg.array<f64 ["N"]>):
      %u = sdfg.tasklet "add" ins("u" = %ti["i"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%uu: f64):
        sdfg.yield %uu : f64
      }
      sdfg.exit ("s" = %u["0", wcr sum] : f64)
    }
    %sw = sdfg.access %s writes(%mp["0", wcr sum] : !sdfg.array<f64 ["2"]>) : !sdfg.array<f64 ["2"]>
  }
  sdfg.state @last {
    %tr = sdfg.access %t : !sdfg.array<f64 ["N"]>
    %l = sdfg.tasklet "last" ins("v" = %tr["N - 1"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
    ^bb0(%v: f64):
      sdfg.yield %v : f64
    }
    %mw = sdfg.access %m writes(%l["0"] : f64) : !sdfg.scalar<f64>
    %h = sdfg.tasklet "half" ins("v" = %mw["0"] : !sdfg.scalar<f64>) outs("o" : f64) {
    ^bb0(%v: f64):
      %half = arith.constant 0.5 : f64
      %p = arith.mulf %v, %half : f64
      sdfg.yield %p : f64
    }
    %kw = sdfg.access %k writes(%h["0"] : f64) : !sdfg.scalar<f64>
  }
  sdfg.state @rows {
    %x = sdfg.access %X : !sdfg.array<f64 ["N"]>
    %kr = sdfg.access %k : !sdfg.scalar<f64>
    %mp = sdfg.map "rows" ["i" = "0:N"] ins("x" = %x["0:N"] : !sdfg.array<f64 ["N"]>, "k" = %kr["0"] : !sdfg.scalar<f64>) outs("R" : !sdfg.array<f64 ["N", "4"]>) {
    ^bb0(%xi: !sdfg.array<f64 ["N"]>, %ki: !sdfg.scalar<f64>):
      %fill = sdfg.map "fill" ["j" = "0:4"] ins("x" = %xi["i"] : !sdfg.array<f64 ["N"]>, "k" = %ki["0"] : !sdfg.scalar<f64>) outs("buf" : !sdfg.array<f64 ["4"]>) {
      ^bb0(%xj: !sdfg.array<f64 ["N"]>, %kj: !sdfg.scalar<f64>):
        %f = sdfg.tasklet "f" ins("v" = %xj["i"] : !sdfg.array<f64 ["N"]>, "k" = %kj["0"] : !sdfg.scalar<f64>) outs("o" : f64) {
        ^bb0(%v: f64, %kk: f64):
          %p = arith.addf %v, %kk : f64
          sdfg.yield %p : f64
        }
        sdfg.exit ("buf" = %f["j"] : f64)
      }
      %b = sdfg.access %buf writes(%fill["0:4"] : !sdfg.array<f64 ["4"]>) : !sdfg.array<f64 ["4"]>
      %store = sdfg.map "store" ["j" = "0:4"] ins("b" = %b["0:4"] : !sdfg.array<f64 ["4"]>) outs("R" : !sdfg.array<f64 ["N", "4"]>) {
      ^bb0(%bj: !sdfg.array<f64 ["4"]>):
        %g = sdfg.tasklet "g" ins("v" = %bj["3 - j"] : !sdfg.array<f64 ["4"]>) outs("o" : f64) {
        ^bb0(%v: f64):
          sdfg.yield %v : f64
        }
        sdfg.exit ("R" = %g["i, j"] : f64)
      }
      sdfg.exit ("R" = %store["i, 0:4"] : !sdfg.array<f64 ["N", "4"]>)
    }
    %rw = sdfg.access %R writes(%mp["0:N, 0:4"] : !sdfg.array<f64 ["N", "4"]>) : !sdfg.array<f64 ["N", "4"]>
  }
  sdfg.edge @twice -> @sum
  sdfg.edge @sum -> @last
  sdfg.edge @last -> @rows if "k == k"
}

// A nested SDFG outside any scope is host code: its loop stays on the
// host and launches its map as a kernel. Its argument, bound to the
// device copy of A, is declared in GPU_Global memory; the SDFG is not
// copied again.
// CHECK-LABEL: sdfg.sdfg @nested
// CHECK: %[[GA:.*]] = sdfg.alloc "gpu_A" : !sdfg.array<f64 ["N"] storage GPU_Global>
// CHECK: sdfg.nested "inner" ins("a" = %{{.*}}["0:N"] : !sdfg.array<f64 ["N"] storage GPU_Global>) outs("a" : !sdfg.array<f64 ["N"] storage GPU_Global>)
// CHECK-NOT: schedule
// CHECK-SAME: {
// CHECK: sdfg.sdfg @inner(%{{.*}}: !sdfg.array<f64 ["N"] storage GPU_Global> as "a")
// CHECK-NOT: gpu_a
// CHECK: sdfg.loop @steps
// CHECK: sdfg.map "step" ["i" = "0:N"] schedule GPU_Device
sdfg.sdfg @nested(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64} {
  sdfg.state @s {
    %ar = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %r = sdfg.nested "inner" ins("a" = %ar["0:N"] : !sdfg.array<f64 ["N"]>) outs("a" : !sdfg.array<f64 ["N"]>) symbols("N" = "N") {
      sdfg.sdfg @inner(%a: !sdfg.array<f64 ["N"]> as "a") symbols {N = i64, k = i64} {
        sdfg.loop @steps var "k" init "0" cond "k < 3" update "k + 1" {
          sdfg.state @body {
            %x = sdfg.access %a : !sdfg.array<f64 ["N"]>
            %mp = sdfg.map "step" ["i" = "0:N"] ins("x" = %x["0:N"] : !sdfg.array<f64 ["N"]>) outs("a" : !sdfg.array<f64 ["N"]>) {
            ^bb0(%xi: !sdfg.array<f64 ["N"]>):
              %u = sdfg.tasklet "inc" ins("u" = %xi["i"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
              ^bb0(%uu: f64):
                %one = arith.constant 1.5 : f64
                %p = arith.mulf %uu, %one : f64
                sdfg.yield %p : f64
              }
              sdfg.exit ("a" = %u["i"] : f64)
            }
            %w = sdfg.access %a writes(%mp["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
          }
        }
      }
    }
    %aw = sdfg.access %A writes(%r["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// A kernel copies device memory into a per-thread buffer of the same type:
// the copy's source keeps its GPU_Global type, only the buffer's own flow
// becomes Register.
// CHECK-LABEL: sdfg.sdfg @local_copy
// CHECK: sdfg.alloc "buf" : !sdfg.array<f64 ["2"] storage Register>
// CHECK: ^bb0(%[[AI:.*]]: !sdfg.array<f64 ["2"] storage GPU_Global>):
// CHECK: sdfg.access %buf writes(%[[AI]]["0:2" -> "0:2"] : !sdfg.array<f64 ["2"] storage GPU_Global>) : !sdfg.array<f64 ["2"] storage Register>
sdfg.sdfg @local_copy(%A: !sdfg.array<f64 ["2"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  %buf = sdfg.alloc "buf" : !sdfg.array<f64 ["2"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["2"]>
    %m = sdfg.map "rows" ["i" = "0:N"] ins("a" = %a["0:2"] : !sdfg.array<f64 ["2"]>) outs("B" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["2"]>):
      %l = sdfg.access %buf writes(%ai["0:2" -> "0:2"] : !sdfg.array<f64 ["2"]>) : !sdfg.array<f64 ["2"]>
      %t = sdfg.tasklet "sum" ins("x" = %l["0"] : !sdfg.array<f64 ["2"]>, "y" = %l["1"] : !sdfg.array<f64 ["2"]>) outs("z" : f64) {
      ^bb0(%x: f64, %y: f64):
        %z = arith.addf %x, %y : f64
        sdfg.yield %z : f64
      }
      sdfg.exit ("B" = %t["i"] : f64)
    }
    %w = sdfg.access %B writes(%m["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// Refusals, each leaving the program unchanged.
// expected-remark @+1 {{sdfg-gpu-transform does not apply: 'sdfg.map' is already scheduled GPU_Device}}
sdfg.sdfg @do_not_move_a_gpu_program(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64} {
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

// expected-remark @+1 {{sdfg-gpu-transform does not apply: control flow reads array 'A', which would move to device memory}}
sdfg.sdfg @do_not_move_an_array_control_flow_reads(%A: !sdfg.array<i32 ["4"]> as "A") symbols {k = i64} {
  sdfg.state @s {
  }
  sdfg.state @t {
  }
  sdfg.edge @s -> @t assign("k" = "A[1]")
}

// -----

// expected-remark @+1 {{sdfg-gpu-transform does not apply: map 'part' has a dynamic range read from 'lo', which would be in device memory}}
sdfg.sdfg @do_not_launch_from_device_bounds(%A: !sdfg.array<f64 ["N"]> as "A", %L: !sdfg.array<i64 ["1"]> as "L") symbols {N = i64} {
  %lo = sdfg.alloc "lo" : !sdfg.scalar<i64>
  sdfg.state @s {
    %l = sdfg.access %L : !sdfg.array<i64 ["1"]>
    %c = sdfg.tasklet "bound" ins("v" = %l["0"] : !sdfg.array<i64 ["1"]>) outs("o" : i64) {
    ^bb0(%v: i64):
      sdfg.yield %v : i64
    }
    %lw = sdfg.access %lo writes(%c["0"] : i64) : !sdfg.scalar<i64>
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %m = sdfg.map "part" ["i" = "b:N"] ins("a" = %a["0:N", dynamic] : !sdfg.array<f64 ["N"]>) dyn("b" = %lw["0"] : !sdfg.scalar<i64>) outs("A" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N"]>, %bb: !sdfg.scalar<i64>):
      %t = sdfg.tasklet "t" ins("x" = %ai["i"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit ("A" = %t["i", dynamic] : f64)
    }
    %w = sdfg.access %A writes(%m["0:N", dynamic] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// expected-remark @+1 {{sdfg-gpu-transform does not apply: transient 'row' lives inside kernels with size [M], and a kernel thread holds only constant sizes}}
sdfg.sdfg @do_not_put_dynamic_buffers_in_threads(%A: !sdfg.array<f64 ["N", "M"]> as "A") symbols {N = i64, M = i64} {
  %row = sdfg.alloc "row" : !sdfg.array<f64 ["M"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "M"]>
    %m = sdfg.map "rows" ["i" = "0:N"] ins("a" = %a["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) outs("A" : !sdfg.array<f64 ["N", "M"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N", "M"]>):
      %r = sdfg.access %row writes(%ai["i, 0:M" -> "0:M"] : !sdfg.array<f64 ["N", "M"]>) : !sdfg.array<f64 ["M"]>
      sdfg.exit ("A" = %r["0:M" -> "i, 0:M"] : !sdfg.array<f64 ["M"]>)
    }
    %w = sdfg.access %A writes(%m["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) : !sdfg.array<f64 ["N", "M"]>
  }
}

// -----

// expected-remark @+1 {{sdfg-gpu-transform does not apply: 'first' outside any scope passes a value straight to another tasklet or nested SDFG}}
sdfg.sdfg @do_not_split_tasklet_pairs(%A: !sdfg.array<f64 ["2"]> as "A") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["2"]>
    %t = sdfg.tasklet "first" ins("x" = %a["0"] : !sdfg.array<f64 ["2"]>) outs("y" : f64) {
    ^bb0(%x: f64):
      sdfg.yield %x : f64
    }
    %u = sdfg.tasklet "second" ins("x" = %t["0"] : f64) outs("y" : f64) {
    ^bb0(%x: f64):
      sdfg.yield %x : f64
    }
    %w = sdfg.access %A writes(%u["1"] : f64) : !sdfg.array<f64 ["2"]>
  }
}
