// RUN: sdfg-run %s --seed 1 | FileCheck %s
// RUN: sdfg-run %s --seed 1 --pass-pipeline='builtin.module(sdfg-expand-library-nodes)' | FileCheck %s
// RUN: sdfg-run %s --seed 1 --pass-pipeline 'builtin.module(sdfg-expand-library-nodes,canonicalize)' | FileCheck %s
// RUN: not sdfg-run %s --pass-pipeline='builtin.module(no-such-pass)' 2>&1 | FileCheck %s --check-prefix=BAD

// `sdfg-run --pass-pipeline` runs passes before lowering, so that a pass
// is checked by running its result: the Gemm expanded into maps and
// tasklets computes what its direct lowering computes.

// CHECK: C: <f8[3, 4] checksum 3.4381683959e1
// BAD: error: --pass-pipeline: `builtin.module(no-such-pass)` is not a pass pipeline: {{.*}}'no-such-pass' does not refer to a registered pass
sdfg.sdfg @gemm(%A: !sdfg.array<f64 ["3", "5"]> as "A", %B: !sdfg.array<f64 ["5", "4"]> as "B", %C: !sdfg.array<f64 ["3", "4"]> as "C") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["3", "5"]>
    %b = sdfg.access %B : !sdfg.array<f64 ["5", "4"]>
    %c = sdfg.access %C : !sdfg.array<f64 ["3", "4"]>
    %g = sdfg.library "gemm" "dace.libraries.blas.nodes.gemm.Gemm"
        ins("_a" = %a["0:3, 0:5"] : !sdfg.array<f64 ["3", "5"]>, "_b" = %b["0:5, 0:4"] : !sdfg.array<f64 ["5", "4"]>, "_cin" = %c["0:3, 0:4"] : !sdfg.array<f64 ["3", "4"]>)
        outs("_c" : !sdfg.array<f64 ["3", "4"]>) properties {alpha = "2.0", beta = "0.5"}
    %co = sdfg.access %C writes(%g["0:3, 0:4"] : !sdfg.array<f64 ["3", "4"]>) : !sdfg.array<f64 ["3", "4"]>
  }
}
