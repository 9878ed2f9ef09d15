// RUN: sdfg-opt %s --sdfg-expand-library-nodes | FileCheck %s
// RUN: sdfg-opt %s --sdfg-expand-library-nodes --convert-sdfg-to-gpu | FileCheck %s --check-prefix=GPU
// RUN: sdfg-opt %s --sdfg-lower-to-nvvm | FileCheck %s --check-prefix=PTX
// RUN: sdfg-opt %s --sdfg-expand-library-nodes -o %t.mlir
// RUN: sdfg-run %t.mlir --cpu-fallback --set M=300 --set N=700 --save-inputs %t/in --out %t/out && %python -c "import numpy as np; a = np.load('%t/in/A.npy'); m0 = np.load('%t/in/m.npy'); x = np.load('%t/in/x.npy'); s = np.load('%t/out/s.npy'); m = np.load('%t/out/m.npy'); d = np.load('%t/out/d.npy'); assert abs(s[0] - a.sum()) < 1e-9 * abs(a).sum(); assert m[0] == max(m0[0], a.max()); assert abs(d[0] - x @ x) < 1e-9 * (x @ x); print('reduced')" | FileCheck %s --check-prefix=EXEC

// A library node on the GPU that reduces to one element would be one
// accumulator on one thread. Its expansion is instead a parallel map of at
// most 32768 partial reductions, each over every 32768th element, added
// into the result with the node's wcr (atomics in a kernel), the result
// first set to the identity by a map of one iteration (host code cannot
// write device memory). Without an identity the result keeps its value.
// Every map is then a kernel.

// CHECK-LABEL: sdfg.sdfg @reduce_all
// CHECK: sdfg.nested "Reduce"
// CHECK: sdfg.state @init
// CHECK: sdfg.map "init" ["__z" = "0:1"]
// CHECK: sdfg.state @compute
// CHECK: sdfg.map "partial" ["__p" = "0:Min(32768, M*N)"]
// CHECK: sdfg.tasklet "first" ins("in0" = %{{.*}}["floor(__p/N), Mod(__p, N)"]
// CHECK: sdfg.map "reduce" ["__e" = "__p + 32768:M*N:32768"] schedule Sequential
// CHECK: sdfg.exit("_out" = %{{.*}}["0", wcr "lambda a, b: a + b"] : f64)
// CHECK: sdfg.nested "Reduce"
// CHECK-NOT: sdfg.state @init
// CHECK: sdfg.map "partial"
// CHECK: wcr "lambda a, b: max(a, b)"
// CHECK: sdfg.nested "dot"
// CHECK: sdfg.map "partial" ["__p" = "0:Min(32768, N)"]

// Five kernels (two results set, three partial maps), not three kernels of
// one thread.
// GPU-COUNT-5: gpu.launch
// GPU-NOT: gpu.launch

// PTX-DAG: atom.global.add.f64
// PTX-DAG: atom.global.cas.b64

// EXEC: reduced
sdfg.sdfg @reduce_all(%A: !sdfg.array<f64 ["M", "N"] storage GPU_Global> as "A", %x: !sdfg.array<f64 ["N"] storage GPU_Global> as "x",
                      %s: !sdfg.array<f64 ["1"] storage GPU_Global> as "s", %m: !sdfg.array<f64 ["1"] storage GPU_Global> as "m",
                      %d: !sdfg.array<f64 ["1"] storage GPU_Global> as "d") symbols {M = i64, N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["M", "N"] storage GPU_Global>
    %sum = sdfg.library "Reduce" "dace.libraries.standard.nodes.reduce.Reduce" schedule GPU_Default
        ins("" = %a["0:M, 0:N"] : !sdfg.array<f64 ["M", "N"] storage GPU_Global>) outs("" : !sdfg.array<f64 ["1"] storage GPU_Global>)
        properties {identity = "0", wcr = "lambda a, b: a + b"}
    %sa = sdfg.access %s writes(%sum["0"] : !sdfg.array<f64 ["1"] storage GPU_Global>) : !sdfg.array<f64 ["1"] storage GPU_Global>
    %max = sdfg.library "Reduce" "dace.libraries.standard.nodes.reduce.Reduce" schedule GPU_Default
        ins("" = %a["0:M, 0:N"] : !sdfg.array<f64 ["M", "N"] storage GPU_Global>) outs("" : !sdfg.array<f64 ["1"] storage GPU_Global>)
        properties {wcr = "lambda a, b: max(a, b)"}
    %ma = sdfg.access %m writes(%max["0"] : !sdfg.array<f64 ["1"] storage GPU_Global>) : !sdfg.array<f64 ["1"] storage GPU_Global>
    %xa = sdfg.access %x : !sdfg.array<f64 ["N"] storage GPU_Global>
    %dot = sdfg.library "dot" "dace.libraries.blas.nodes.dot.Dot" schedule GPU_Default
        ins("_x" = %xa["0:N"] : !sdfg.array<f64 ["N"] storage GPU_Global>, "_y" = %xa["0:N"] : !sdfg.array<f64 ["N"] storage GPU_Global>)
        outs("_result" : !sdfg.array<f64 ["1"] storage GPU_Global>) properties {}
    %da = sdfg.access %d writes(%dot["0"] : !sdfg.array<f64 ["1"] storage GPU_Global>) : !sdfg.array<f64 ["1"] storage GPU_Global>
  }
}
