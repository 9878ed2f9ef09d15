// RUN: sdfg-opt %s -split-input-file --convert-sdfg-to-gpu | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --sdfg-lower-to-nvvm | FileCheck %s --check-prefix=PTX
// RUN: sdfg-opt %s -split-input-file --convert-sdfg-to-scf | FileCheck %s --check-prefix=CPU
// RUN: sdfg-run %s --function scale --set N=1000 --cpu-fallback | FileCheck %s --check-prefix=EXEC

// A GPU_Device map is a gpu.launch: one thread per iteration, 256 threads a
// block along x, the grid rounded up and the threads past the end guarded.
// The GPU_Global argument is copied to the device at entry and back at exit.
// CHECK-LABEL: func.func @scale
// CHECK: %[[DEV:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%{{.*}}) : memref<?xf64>
// CHECK: gpu.memcpy async [%{{.*}}] %[[DEV]], %arg0 : memref<?xf64>, memref<?xf64>
// CHECK: %[[N:.*]] = arith.maxsi %{{.*}}, %arg1 : index
// CHECK: %[[BLOCK:.*]] = arith.constant 256 : index
// CHECK: %[[GRID:.*]] = arith.ceildivsi %[[N]], %[[BLOCK]] : index
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[GRID]], {{.*}} threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[BLOCK]],
// CHECK: %[[BASE:.*]] = arith.muli %[[BX]], %[[BLOCK]] : index
// CHECK: %[[I:.*]] = arith.addi %[[BASE]], %[[TX]] : index
// CHECK: arith.cmpi slt, %[[I]], %[[N]] : index
// CHECK: scf.if
// CHECK: memref.load %[[DEV]]
// CHECK: memref.store %{{.*}}, %[[DEV]]
// CHECK: gpu.terminator
// CHECK: gpu.memcpy async [%{{.*}}] %arg0, %[[DEV]] : memref<?xf64>, memref<?xf64>
// CHECK: gpu.dealloc async

// The pipeline outlines the kernel and serialises it to PTX for sm_90; the
// host calls the runtime.
// PTX-LABEL: llvm.func @scale
// PTX: llvm.call @mgpuMemAlloc
// PTX: gpu.launch_func
// PTX: gpu.binary @scale_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90">, {{.*}}assembly = "{{.*}}.target sm_90

// Without the GPU conversion the same map is a CPU parallel loop.
// CPU-LABEL: func.func @scale
// CPU-NOT: gpu.
// CPU: scf.parallel

// EXEC: A: <f8[1000] checksum
sdfg.sdfg @scale(%A: !sdfg.array<f64 ["N"] storage GPU_Global> as "A") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"] storage GPU_Global>
    %r = sdfg.map "scale" ["i" = "0:N"] schedule GPU_Device ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"] storage GPU_Global>) outs("b" : !sdfg.array<f64 ["N"] storage GPU_Global>) {
    ^bb0(%ai: !sdfg.array<f64 ["N"] storage GPU_Global>):
      %t = sdfg.tasklet "twice" ins("x" = %ai["i"] : !sdfg.array<f64 ["N"] storage GPU_Global>) outs("y" : f64) {
      ^bb0(%x: f64):
        %y = arith.addf %x, %x : f64
        sdfg.yield %y : f64
      }
      sdfg.exit ("b" = %t["i"] : f64)
    }
    %b = sdfg.access %A writes(%r["0:N"] : !sdfg.array<f64 ["N"] storage GPU_Global>) : !sdfg.array<f64 ["N"] storage GPU_Global>
  }
}

// -----

// Three parameters: the last is x, the one before y, the first z (with
// more, z is their row-major product); gpu_block_size sets the block. A
// range with a step starts at its start and strides by the step.
// CHECK-LABEL: func.func @cube
// CHECK: %[[BX:.*]] = arith.constant 8 : index
// CHECK: arith.ceildivsi %{{.*}}, %[[BX]] : index
// CHECK: %[[BY:.*]] = arith.constant 4 : index
// CHECK: arith.ceildivsi %{{.*}}, %[[BY]] : index
// CHECK: %[[BZ:.*]] = arith.constant 2 : index
// CHECK: gpu.launch blocks({{.*}}) threads({{.*}}) in (%{{.*}} = %[[BX]], %{{.*}} = %[[BY]], %{{.*}} = %[[BZ]])
sdfg.sdfg @cube(%A: !sdfg.array<f32 ["6", "10", "20"] storage GPU_Global> as "A") {
  sdfg.state @s {
    %r = sdfg.map "fill" ["i" = "0:6", "j" = "0:10", "k" = "1:20:2"] schedule GPU_Device gpu_block_size ["8", "4", "2"] outs("a" : !sdfg.array<f32 ["6", "10", "20"] storage GPU_Global>) {
      %t = sdfg.tasklet "one" outs("y" : f32) {
        %c = arith.constant 1.0 : f32
        sdfg.yield %c : f32
      }
      sdfg.exit ("a" = %t["i, j, k"] : f32)
    }
    %b = sdfg.access %A writes(%r["0:6, 0:10, 1:20:2"] : !sdfg.array<f32 ["6", "10", "20"] storage GPU_Global>) : !sdfg.array<f32 ["6", "10", "20"] storage GPU_Global>
  }
}
