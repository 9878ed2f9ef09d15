// RUN: sdfg-opt %s --convert-sdfg-to-gpu | FileCheck %s
// RUN: %python -c "import numpy as n; a = n.arange(9.0).reshape(3, 3); n.save('%t.spd.npy', a @ a.T + 3 * n.eye(3))"
// RUN: sdfg-run %s --cpu-fallback --input A=%t.spd.npy | FileCheck %s --check-prefix=EXEC

// There is no GPU LAPACK here: a LAPACK node on device data runs on the
// host, on host copies of its containers, and the written ones are copied
// back to the device after the call.
// CHECK-LABEL: func.func @cholesky
// CHECK: %[[GA:.*]], %{{.*}} = gpu.alloc async
// CHECK: %[[GL:.*]], %{{.*}} = gpu.alloc async
// CHECK: %[[HA:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: gpu.memcpy async [%{{.*}}] %[[HA]], %[[GA]]
// CHECK: %[[HL:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: gpu.memcpy async [%{{.*}}] %[[HL]], %[[GL]]
// CHECK: call @LAPACKE_dpotrf
// CHECK: gpu.memcpy async [%{{.*}}] %[[GL]], %[[HL]]
// CHECK-NOT: gpu.memcpy async [%{{.*}}] %[[GA]], %[[HA]]
// CHECK: memref.dealloc %[[HA]]

// The same numbers as test/Conversion/SDFGToSCF/lapack.mlir.
// EXEC: L: <f8[3, 3] checksum 3.3344419474e1
sdfg.sdfg @cholesky(%A: !sdfg.array<f64 ["3", "3"]> as "A", %L: !sdfg.array<f64 ["3", "3"]> as "L") {
  %GA = sdfg.alloc "GA" : !sdfg.array<f64 ["3", "3"] storage GPU_Global>
  %GL = sdfg.alloc "GL" : !sdfg.array<f64 ["3", "3"] storage GPU_Global>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["3", "3"]>
    %ga = sdfg.access %GA writes(%a["0:3, 0:3"] : !sdfg.array<f64 ["3", "3"]>) : !sdfg.array<f64 ["3", "3"] storage GPU_Global>
    %c = sdfg.library "cholesky" "dace.libraries.linalg.nodes.cholesky.Cholesky"
        ins("_a" = %ga["0:3, 0:3"] : !sdfg.array<f64 ["3", "3"] storage GPU_Global>) outs("_b" : !sdfg.array<f64 ["3", "3"] storage GPU_Global>) properties {}
    %gl = sdfg.access %GL writes(%c["0:3, 0:3"] : !sdfg.array<f64 ["3", "3"] storage GPU_Global>) : !sdfg.array<f64 ["3", "3"] storage GPU_Global>
    %l = sdfg.access %L writes(%gl["0:3, 0:3"] : !sdfg.array<f64 ["3", "3"] storage GPU_Global>) : !sdfg.array<f64 ["3", "3"]>
  }
}
