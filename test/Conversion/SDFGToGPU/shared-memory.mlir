// RUN: sdfg-opt %s --convert-sdfg-to-gpu | FileCheck %s

// Shared memory belongs to the block: a GPU_Shared transient that one
// thread-block map alone uses is still the kernel's workgroup memory, not
// memory private to each thread.
// CHECK-LABEL: func.func @staged
// CHECK: gpu.launch {{.*}} workgroup(%[[SH:.*]] : memref<32xf32, #gpu.address_space<workgroup>>)
// CHECK: memref.memory_space_cast %[[SH]]
// CHECK: gpu.thread_id x
// CHECK-NOT: memref.alloca() : memref<32xf32>
// CHECK: gpu.barrier
sdfg.sdfg @staged(%A: !sdfg.array<f32 ["64"] storage GPU_Global> as "A") {
  %S = sdfg.alloc "S" : !sdfg.array<f32 ["32"] storage GPU_Shared>
  sdfg.state @s {
    %r = sdfg.map "blocks" ["b" = "0:2"] schedule GPU_Device outs("a" : !sdfg.array<f32 ["64"] storage GPU_Global>) {
      %w = sdfg.map "threads" ["t" = "0:32"] schedule GPU_ThreadBlock outs("a" : !sdfg.array<f32 ["64"] storage GPU_Global>) {
        %t = sdfg.tasklet "one" outs("y" : f32) {
          %c = arith.constant 1.0 : f32
          sdfg.yield %c : f32
        }
        %s = sdfg.access %S writes(%t["t"] : f32) : !sdfg.array<f32 ["32"] storage GPU_Shared>
        %u = sdfg.tasklet "copy" ins("x" = %s["t"] : !sdfg.array<f32 ["32"] storage GPU_Shared>) outs("y" : f32) {
        ^bb0(%x: f32):
          sdfg.yield %x : f32
        }
        sdfg.exit ("a" = %u["32*b + t"] : f32)
      }
      sdfg.exit ("a" = %w["32*b:32*b + 32"] : !sdfg.array<f32 ["64"] storage GPU_Global>)
    }
    %b = sdfg.access %A writes(%r["0:64"] : !sdfg.array<f32 ["64"] storage GPU_Global>) : !sdfg.array<f32 ["64"] storage GPU_Global>
  }
}
