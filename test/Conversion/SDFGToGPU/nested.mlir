// RUN: sdfg-opt %s -split-input-file --convert-sdfg-to-gpu | FileCheck %s

// A nested SDFG scheduled on the GPU (a library node's expansion) whose
// states hold only maps over its device arrays is called by the host, and
// its maps, inferred to run on the GPU, are kernels.
// CHECK-LABEL: func.func private @maps_only_expansion
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c256
// CHECK-LABEL: func.func @maps_only
// CHECK-NOT: gpu.launch
// CHECK: call @maps_only_expansion
sdfg.sdfg @maps_only(%A: !sdfg.array<f64 ["N"] storage GPU_Global> as "A") symbols {N = i64} {
  sdfg.state @s {
    %r = sdfg.nested "expansion" outs("a" : !sdfg.array<f64 ["N"] storage GPU_Global>) symbols("N" = "N") schedule GPU_Default {
      sdfg.sdfg @expansion(%a: !sdfg.array<f64 ["N"]> as "a") symbols {N = i64} {
        sdfg.state @t {
          %m = sdfg.map "fill" ["i" = "0:N"] outs("a" : !sdfg.array<f64 ["N"]>) {
            %t = sdfg.tasklet "one" outs("y" : f64) {
              %c = arith.constant 1.0 : f64
              sdfg.yield %c : f64
            }
            sdfg.exit ("a" = %t["i"] : f64)
          }
          %x = sdfg.access %a writes(%m["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
        }
      }
    }
    %b = sdfg.access %A writes(%r["0:N"] : !sdfg.array<f64 ["N"] storage GPU_Global>) : !sdfg.array<f64 ["N"] storage GPU_Global>
  }
}

// -----

// One with a tasklet outside its maps runs as a kernel of one thread.
// CHECK-LABEL: func.func private @sequential_expansion
// CHECK-NOT: gpu.launch
// CHECK-LABEL: func.func @sequential
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]]) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]])
// CHECK: call @sequential_expansion
// CHECK: gpu.terminator
sdfg.sdfg @sequential(%A: !sdfg.array<f64 ["1"] storage GPU_Global> as "A") {
  sdfg.state @s {
    %r = sdfg.nested "expansion" outs("a" : !sdfg.array<f64 ["1"] storage GPU_Global>) schedule GPU_Default {
      sdfg.sdfg @expansion(%a: !sdfg.array<f64 ["1"]> as "a") {
        sdfg.state @t {
          %t = sdfg.tasklet "one" outs("y" : f64) {
            %c = arith.constant 1.0 : f64
            sdfg.yield %c : f64
          }
          %x = sdfg.access %a writes(%t["0"] : f64) : !sdfg.array<f64 ["1"]>
        }
      }
    }
    %b = sdfg.access %A writes(%r["0"] : !sdfg.array<f64 ["1"] storage GPU_Global>) : !sdfg.array<f64 ["1"] storage GPU_Global>
  }
}

// -----

// A nested SDFG called inside a kernel reads its argument, device memory,
// in an inter-state assignment where it is: no host copy (a `gpu.memcpy`
// in device code cannot be lowered).
// CHECK-LABEL: func.func private @in_kernel_inner
// CHECK-NOT: gpu.memcpy
// CHECK-NOT: gpu.wait
// CHECK: memref.load %arg0[] : memref<f64>
// CHECK-LABEL: func.func @in_kernel
// CHECK: gpu.launch
// CHECK: call @in_kernel_inner
sdfg.sdfg @in_kernel(%A: !sdfg.array<f64 ["N"] storage GPU_Global> as "A", %B: !sdfg.array<f64 ["N"] storage GPU_Global> as "B") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"] storage GPU_Global>
    %m = sdfg.map "m" ["i" = "0:N"] schedule GPU_Device ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"] storage GPU_Global>) outs("b" : !sdfg.array<f64 ["N"] storage GPU_Global>) {
    ^bb0(%ai: !sdfg.array<f64 ["N"] storage GPU_Global>):
      %r = sdfg.nested "inner" ins("x" = %ai["i"] : !sdfg.array<f64 ["N"] storage GPU_Global>) outs("y" : !sdfg.array<f64 ["N"] storage GPU_Global>) {
        sdfg.sdfg @inner(%x: !sdfg.scalar<f64> as "x", %y: !sdfg.scalar<f64> as "y") symbols {v = f64} {
          sdfg.state @read {
          }
          sdfg.state @write {
            %t = sdfg.tasklet "twice" outs("o" : f64) {
              %v = sdfg.sym "2 * v" : f64
              sdfg.yield %v : f64
            }
            %w = sdfg.access %y writes(%t["0"] : f64) : !sdfg.scalar<f64>
          }
          sdfg.edge @read -> @write assign("v" = "x")
        }
      }
      sdfg.exit ("b" = %r["i"] : !sdfg.array<f64 ["N"] storage GPU_Global>)
    }
    %b = sdfg.access %B writes(%m["0:N"] : !sdfg.array<f64 ["N"] storage GPU_Global>) : !sdfg.array<f64 ["N"] storage GPU_Global>
  }
}
