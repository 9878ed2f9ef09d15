// RUN: sdfg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(sdfg-expand-library-nodes)'

// Library nodes the pass cannot expand are diagnostics on the node.

sdfg.sdfg @tensordot(%A: !sdfg.array<f64 ["4", "4"]> as "A", %B: !sdfg.array<f64 ["4", "4"]> as "B") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4", "4"]>
    // expected-error @+1 {{library node `dace.libraries.linalg.nodes.tensordot.TensorDot` has no expansion}}
    %i = sdfg.library "tensordot" "dace.libraries.linalg.nodes.tensordot.TensorDot"
        ins("_left_tensor" = %a["0:4, 0:4"] : !sdfg.array<f64 ["4", "4"]>, "_right_tensor" = %a["0:4, 0:4"] : !sdfg.array<f64 ["4", "4"]>) outs("_out_tensor" : !sdfg.array<f64 ["4", "4"]>) properties {}
    %b = sdfg.access %B writes(%i["0:4, 0:4"] : !sdfg.array<f64 ["4", "4"]>) : !sdfg.array<f64 ["4", "4"]>
  }
}

// -----

sdfg.sdfg @wrong_rank(%A: !sdfg.array<f64 ["4", "4", "4"]> as "A", %x: !sdfg.array<f64 ["4"]> as "x", %y: !sdfg.array<f64 ["4"]> as "y") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4", "4", "4"]>
    %xa = sdfg.access %x : !sdfg.array<f64 ["4"]>
    // expected-error @+1 {{connector `_A` (subset `0:4, 0:4, 0:4`) is not 2-dimensional}}
    %g = sdfg.library "gemv" "dace.libraries.blas.nodes.gemv.Gemv"
        ins("_A" = %a["0:4, 0:4, 0:4"] : !sdfg.array<f64 ["4", "4", "4"]>, "_x" = %xa["0:4"] : !sdfg.array<f64 ["4"]>)
        outs("_y" : !sdfg.array<f64 ["4"]>) properties {}
    %c = sdfg.access %y writes(%g["0:4"] : !sdfg.array<f64 ["4"]>) : !sdfg.array<f64 ["4"]>
  }
}

// -----

// Axpy's `a` is DaCe's default when absent: the symbol `a`, not 1, which
// this SDFG does not declare.
sdfg.sdfg @axpy_undeclared_symbol(%x: !sdfg.array<f64 ["4"]> as "x", %y: !sdfg.array<f64 ["4"]> as "y") {
  sdfg.state @s {
    %xa = sdfg.access %x : !sdfg.array<f64 ["4"]>
    %ya = sdfg.access %y : !sdfg.array<f64 ["4"]>
    // expected-error @+1 {{property `a` is `a`, which reads symbol `a` that the SDFG does not declare}}
    %r = sdfg.library "axpy" "dace.libraries.blas.nodes.axpy.Axpy"
        ins("_x" = %xa["0:4"] : !sdfg.array<f64 ["4"]>, "_y" = %ya["0:4"] : !sdfg.array<f64 ["4"]>)
        outs("_res" : !sdfg.array<f64 ["4"]>) properties {}
    %c = sdfg.access %y writes(%r["0:4"] : !sdfg.array<f64 ["4"]>) : !sdfg.array<f64 ["4"]>
  }
}
