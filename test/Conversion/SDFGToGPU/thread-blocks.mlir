// RUN: sdfg-opt %s --convert-sdfg-to-gpu | FileCheck %s
// RUN: sdfg-opt %s --sdfg-lower-to-nvvm | FileCheck %s --check-prefix=PTX
// RUN: sdfg-run %s --cpu-fallback --seed 3 --save-inputs %t/in --out %t/out && %python -c "import numpy as np; a = np.load('%t/in/A.npy'); b = np.load('%t/out/B.npy'); assert (b.reshape(4, 32) == a.reshape(4, 32)[:, ::-1]).all(); print('reversed')" | FileCheck %s --check-prefix=EXEC

// Each block reverses 32 elements through shared memory. With
// GPU_ThreadBlock maps inside, the device map has one block per point and
// the block size is the largest thread-block extent; each thread-block map
// is guarded by its own extent and followed by a barrier. The GPU_Shared
// transient is workgroup memory, used through a generic pointer.
// CHECK-LABEL: func.func @reverse
// CHECK: %[[T:.*]] = arith.constant 32 : index
// CHECK: %[[T2:.*]] = arith.maxsi %[[T]], %{{.*}} : index
// CHECK: gpu.launch blocks(%[[B:.*]], %{{.*}}, %{{.*}}) in ({{.*}}) threads({{.*}}) in (%{{.*}} = %[[T2]], {{.*}}) workgroup(%[[SH:.*]] : memref<32xf64, #gpu.address_space<workgroup>>)
// CHECK: %[[G:.*]] = memref.memory_space_cast %[[SH]] : memref<32xf64, #gpu.address_space<workgroup>> to memref<32xf64>
// CHECK: %[[S:.*]] = memref.cast %[[G]] : memref<32xf64> to memref<?xf64>
// CHECK: %[[TX:.*]] = gpu.thread_id x
// CHECK: arith.cmpi slt, %[[TX]]
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %[[S]]
// CHECK: gpu.barrier
// CHECK: gpu.thread_id x
// CHECK: scf.if
// CHECK: memref.load %[[S]]
// CHECK: gpu.barrier
// CHECK: gpu.terminator

// PTX: assembly = "{{.*}}.shared .align {{[0-9]+}} .b8 {{.*}}bar.sync

// EXEC: reversed
sdfg.sdfg @reverse(%A: !sdfg.array<f64 ["128"] storage GPU_Global> as "A", %B: !sdfg.array<f64 ["128"] storage GPU_Global> as "B") {
  %S = sdfg.alloc "S" : !sdfg.array<f64 ["32"] storage GPU_Shared>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["128"] storage GPU_Global>
    %r = sdfg.map "blocks" ["b" = "0:4"] schedule GPU_Device ins("a" = %a["0:128"] : !sdfg.array<f64 ["128"] storage GPU_Global>) outs("b" : !sdfg.array<f64 ["128"] storage GPU_Global>) {
    ^bb0(%ab: !sdfg.array<f64 ["128"] storage GPU_Global>):
      %w = sdfg.map "load" ["t" = "0:32"] schedule GPU_ThreadBlock ins("a" = %ab["32*b:32*b + 32"] : !sdfg.array<f64 ["128"] storage GPU_Global>) outs("s" : !sdfg.array<f64 ["32"] storage GPU_Shared>) {
      ^bb0(%at: !sdfg.array<f64 ["128"] storage GPU_Global>):
        %t = sdfg.tasklet "copy" ins("x" = %at["32*b + t"] : !sdfg.array<f64 ["128"] storage GPU_Global>) outs("y" : f64) {
        ^bb0(%x: f64):
          sdfg.yield %x : f64
        }
        sdfg.exit ("s" = %t["t"] : f64)
      }
      %s = sdfg.access %S writes(%w["0:32"] : !sdfg.array<f64 ["32"] storage GPU_Shared>) : !sdfg.array<f64 ["32"] storage GPU_Shared>
      %v = sdfg.map "store" ["t" = "0:32"] schedule GPU_ThreadBlock ins("s" = %s["0:32"] : !sdfg.array<f64 ["32"] storage GPU_Shared>) outs("b" : !sdfg.array<f64 ["128"] storage GPU_Global>) {
      ^bb0(%st: !sdfg.array<f64 ["32"] storage GPU_Shared>):
        %t = sdfg.tasklet "copy" ins("x" = %st["31 - t"] : !sdfg.array<f64 ["32"] storage GPU_Shared>) outs("y" : f64) {
        ^bb0(%x: f64):
          sdfg.yield %x : f64
        }
        sdfg.exit ("b" = %t["32*b + t"] : f64)
      }
      sdfg.exit ("b" = %v["32*b:32*b + 32"] : !sdfg.array<f64 ["128"] storage GPU_Global>)
    }
    %b = sdfg.access %B writes(%r["0:128"] : !sdfg.array<f64 ["128"] storage GPU_Global>) : !sdfg.array<f64 ["128"] storage GPU_Global>
  }
}
