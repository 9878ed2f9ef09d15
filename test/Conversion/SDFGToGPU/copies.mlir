// RUN: sdfg-opt %s -split-input-file --convert-sdfg-to-gpu | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --sdfg-lower-to-nvvm -o /dev/null
// RUN: sdfg-run %s --function device_copies --cpu-fallback --save-inputs %t/in2 --out %t/out2 && %python -c "import numpy as np; a = np.load('%t/in2/A.npy'); b = np.load('%t/out2/B.npy'); e = a[1:5].copy(); e[1:4] = e[0:3].copy(); assert (b == e).all(); print('copied')" | FileCheck %s --check-prefix=EXEC2
// RUN: sdfg-run %s --function copies --cpu-fallback --save-inputs %t/in --out %t/out && %python -c "import numpy as np; a = np.load('%t/in/A.npy'); b0 = np.load('%t/in/B.npy'); b = np.load('%t/out/B.npy'); e = b0.copy(); e[2:10, 1] = 2 * a[0:8]; assert (b == e).all(); print('copied')" | FileCheck %s --check-prefix=EXEC

// Copies between host and device memory: a whole container into one of the
// same layout is one gpu.memcpy; a subset goes through a host mirror of the
// device side, read back first so that what the copy does not write stays.
// CHECK-LABEL: func.func @copies
// CHECK: %[[G:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%{{.*}}) : memref<?xf64>
// CHECK: gpu.memcpy async [%{{.*}}] %[[G]], %arg0 : memref<?xf64>, memref<?xf64>
// CHECK: gpu.launch
// CHECK: gpu.terminator
// CHECK: %[[M:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: gpu.memcpy async [%{{.*}}] %[[M]], %[[G]] : memref<?xf64>, memref<?xf64>
// CHECK: scf.for
// CHECK: memref.load %[[M]]
// CHECK: memref.store %{{.*}}, %arg1
// CHECK: memref.dealloc %[[M]] : memref<?xf64>
// CHECK: gpu.dealloc async [%{{.*}}] %[[G]] : memref<?xf64>

// EXEC: copied
sdfg.sdfg @copies(%A: !sdfg.array<f64 ["8"]> as "A", %B: !sdfg.array<f64 ["12", "3"]> as "B") {
  %G = sdfg.alloc "G" : !sdfg.array<f64 ["8"] storage GPU_Global>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["8"]>
    %g = sdfg.access %G writes(%a["0:8"] : !sdfg.array<f64 ["8"]>) : !sdfg.array<f64 ["8"] storage GPU_Global>
    %r = sdfg.map "twice" ["i" = "0:8"] schedule GPU_Device ins("g" = %g["0:8"] : !sdfg.array<f64 ["8"] storage GPU_Global>) outs("h" : !sdfg.array<f64 ["8"] storage GPU_Global>) {
    ^bb0(%gi: !sdfg.array<f64 ["8"] storage GPU_Global>):
      %t = sdfg.tasklet "twice" ins("x" = %gi["i"] : !sdfg.array<f64 ["8"] storage GPU_Global>) outs("y" : f64) {
      ^bb0(%x: f64):
        %y = arith.addf %x, %x : f64
        sdfg.yield %y : f64
      }
      sdfg.exit ("h" = %t["i"] : f64)
    }
    %h = sdfg.access %G writes(%r["0:8"] : !sdfg.array<f64 ["8"] storage GPU_Global>) : !sdfg.array<f64 ["8"] storage GPU_Global>
    %b = sdfg.access %B writes(%h["0:8" -> "2:10, 1"] : !sdfg.array<f64 ["8"] storage GPU_Global>) : !sdfg.array<f64 ["12", "3"]>
  }
}

// -----

// A copy between two subsets of device memory is a kernel with a thread per
// element; a copy within one container, whose subsets may overlap, is a
// kernel of one thread that copies in order (backwards when the destination
// lies after the source), as the host copy does.
// CHECK-LABEL: func.func @device_copies
// CHECK: gpu.launch blocks(%[[B:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) threads(%[[T:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256
// CHECK: %[[BASE:.*]] = arith.muli %[[B]], %c256
// CHECK: %[[I:.*]] = arith.addi %[[BASE]], %[[T]] : index
// CHECK: arith.cmpi slt, %[[I]], %{{.*}} : index
// CHECK-NOT: scf.for
// CHECK: memref.store
// CHECK: gpu.terminator
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[ONE:.*]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]]) threads
// CHECK: arith.select
// CHECK: scf.for
// CHECK: gpu.terminator
// CHECK-NOT: memref.alloc(

// EXEC2: copied
sdfg.sdfg @device_copies(%A: !sdfg.array<f64 ["5", "6"]> as "A", %B: !sdfg.array<f64 ["4", "6"]> as "B") {
  %GA = sdfg.alloc "GA" : !sdfg.array<f64 ["5", "6"] storage GPU_Global>
  %GB = sdfg.alloc "GB" : !sdfg.array<f64 ["4", "6"] storage GPU_Global>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["5", "6"]>
    %ga = sdfg.access %GA writes(%a["0:5, 0:6"] : !sdfg.array<f64 ["5", "6"]>) : !sdfg.array<f64 ["5", "6"] storage GPU_Global>
    %gb = sdfg.access %GB writes(%ga["1:5, 0:6" -> "0:4, 0:6"] : !sdfg.array<f64 ["5", "6"] storage GPU_Global>) : !sdfg.array<f64 ["4", "6"] storage GPU_Global>
    %gb2 = sdfg.access %GB writes(%gb["0:3, 0:6" -> "1:4, 0:6"] : !sdfg.array<f64 ["4", "6"] storage GPU_Global>) : !sdfg.array<f64 ["4", "6"] storage GPU_Global>
    %b = sdfg.access %B writes(%gb2["0:4, 0:6"] : !sdfg.array<f64 ["4", "6"] storage GPU_Global>) : !sdfg.array<f64 ["4", "6"]>
  }
}

// -----

// An inter-state condition reads a device scalar through a host copy.
// CHECK-LABEL: func.func @condition
// CHECK: %[[S:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<f64>
// CHECK: gpu.launch
// CHECK: %[[H:.*]] = memref.alloc() : memref<f64>
// CHECK: gpu.memcpy async [%{{.*}}] %[[H]], %[[S]] : memref<f64>, memref<f64>
// CHECK: %[[V:.*]] = memref.load %[[H]][] : memref<f64>
// CHECK: call @__expression{{.*}}(%[[V]])
// CHECK: memref.dealloc %[[H]] : memref<f64>
sdfg.sdfg @condition(%A: !sdfg.array<f64 ["4"]> as "A", %B: !sdfg.array<f64 ["1"]> as "B") {
  %s = sdfg.alloc "s" : !sdfg.scalar<f64 storage GPU_Global>
  %G = sdfg.alloc "G" : !sdfg.array<f64 ["4"] storage GPU_Global>
  sdfg.state @first {
    %a = sdfg.access %A : !sdfg.array<f64 ["4"]>
    %g = sdfg.access %G writes(%a["0:4"] : !sdfg.array<f64 ["4"]>) : !sdfg.array<f64 ["4"] storage GPU_Global>
    %r = sdfg.map "first" ["i" = "0:1"] schedule GPU_Device ins("g" = %g["0"] : !sdfg.array<f64 ["4"] storage GPU_Global>) outs("s" : !sdfg.scalar<f64 storage GPU_Global>) {
    ^bb0(%gi: !sdfg.array<f64 ["4"] storage GPU_Global>):
      %t = sdfg.tasklet "first" ins("x" = %gi["0"] : !sdfg.array<f64 ["4"] storage GPU_Global>) outs("y" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit ("s" = %t["0"] : f64)
    }
    %sa = sdfg.access %s writes(%r["0"] : !sdfg.scalar<f64 storage GPU_Global>) : !sdfg.scalar<f64 storage GPU_Global>
  }
  sdfg.state @positive {
    %t = sdfg.tasklet "one" outs("y" : f64) {
      %c = arith.constant 1.0 : f64
      sdfg.yield %c : f64
    }
    %b = sdfg.access %B writes(%t["0"] : f64) : !sdfg.array<f64 ["1"]>
  }
  sdfg.state @other {
    %t = sdfg.tasklet "two" outs("y" : f64) {
      %c = arith.constant 2.0 : f64
      sdfg.yield %c : f64
    }
    %b = sdfg.access %B writes(%t["0"] : f64) : !sdfg.array<f64 ["1"]>
  }
  sdfg.edge @first -> @positive if "(s > 0.5)"
  sdfg.edge @first -> @other if "(not (s > 0.5))"
}
