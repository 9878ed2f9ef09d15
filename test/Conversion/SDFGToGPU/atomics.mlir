// RUN: sdfg-opt %s --convert-sdfg-to-gpu | FileCheck %s
// RUN: sdfg-opt %s --sdfg-lower-to-nvvm | FileCheck %s --check-prefix=PTX
// RUN: sdfg-run %s --cpu-fallback --set N=1000 --save-inputs %t/in --out %t/out && %python -c "import numpy as np; x = np.load('%t/in/x.npy'); s = np.load('%t/in/s.npy'); r = np.load('%t/out/s.npy'); m = np.load('%t/in/m.npy'); q = np.load('%t/out/m.npy'); assert abs(r[0] - (s[0] + x.sum())) < 1e-9 * abs(x).sum() and q[0] == max(m[0], x.max()); print('summed')" | FileCheck %s --check-prefix=EXEC

// A write-conflict resolution inside a kernel is an atomic update, as in a
// parallel CPU loop (a maximum of doubles is a compare-and-swap loop in PTX).
// CHECK-LABEL: func.func @sum
// CHECK: gpu.launch
// CHECK: memref.atomic_rmw addf %{{.*}}, %{{.*}}[%{{.*}}] : (f64, memref<?xf64>) -> f64
// CHECK: memref.atomic_rmw maximumf %{{.*}}, %{{.*}}[%{{.*}}] : (f64, memref<?xf64>) -> f64
// CHECK: gpu.terminator

// PTX: assembly = "{{.*}}atom.global.add.f64{{.*}}atom.global.cas.b64

// EXEC: summed
sdfg.sdfg @sum(%x: !sdfg.array<f64 ["N"] storage GPU_Global> as "x", %s: !sdfg.array<f64 ["1"] storage GPU_Global> as "s", %m: !sdfg.array<f64 ["1"] storage GPU_Global> as "m") symbols {N = i64} {
  sdfg.state @s {
    %xa = sdfg.access %x : !sdfg.array<f64 ["N"] storage GPU_Global>
    %r:2 = sdfg.map "sum" ["i" = "0:N"] schedule GPU_Device ins("x" = %xa["0:N"] : !sdfg.array<f64 ["N"] storage GPU_Global>)
        outs("s" : !sdfg.array<f64 ["1"] storage GPU_Global>, "m" : !sdfg.array<f64 ["1"] storage GPU_Global>) {
    ^bb0(%xi: !sdfg.array<f64 ["N"] storage GPU_Global>):
      %t:2 = sdfg.tasklet "id" ins("a" = %xi["i"] : !sdfg.array<f64 ["N"] storage GPU_Global>) outs("b" : f64, "c" : f64) {
      ^bb0(%a: f64):
        sdfg.yield %a, %a : f64, f64
      }
      sdfg.exit ("s" = %t#0["0", wcr sum] : f64, "m" = %t#1["0", wcr "(lambda a, b: max(a, b))"] : f64)
    }
    %sa = sdfg.access %s writes(%r#0["0", wcr sum] : !sdfg.array<f64 ["1"] storage GPU_Global>) : !sdfg.array<f64 ["1"] storage GPU_Global>
    %ma = sdfg.access %m writes(%r#1["0", wcr "(lambda a, b: max(a, b))"] : !sdfg.array<f64 ["1"] storage GPU_Global>) : !sdfg.array<f64 ["1"] storage GPU_Global>
  }
}
