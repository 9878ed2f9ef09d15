// RUN: sdfg-opt %s | sdfg-opt | FileCheck %s
// RUN: sdfg-opt %s --mlir-print-op-generic | sdfg-opt | FileCheck %s

// A nested SDFG node holds one sdfg.sdfg whose arguments are bound by name
// to the node's connectors; symbols map the inner SDFG's symbols to outer
// expressions, and the node has a schedule and ordering edges.
// CHECK-LABEL: sdfg.sdfg @outer
// CHECK: %[[A:.*]] = sdfg.access %A : !sdfg.array<f64 ["N"]>
// CHECK: %[[R:.*]] = sdfg.nested "inner" ins("a" = %[[A]]["0:N"] : !sdfg.array<f64 ["N"]>) outs("b" : !sdfg.array<f64 ["N"]>) symbols("M" = "N", "k" = "N - 1") schedule Sequential after(%[[A]] : !sdfg.array<f64 ["N"]>) {
// CHECK-NEXT: sdfg.sdfg @inner(%{{.*}}: !sdfg.array<f64 ["M"]> as "a", %{{.*}}: !sdfg.array<f64 ["M"]> as "b") symbols {M = i64, k = i64} {
// CHECK: sdfg.state @copy {
// CHECK: sdfg.access %B writes(%[[R]]["0:N"] : !sdfg.array<f64 ["N"]>)
sdfg.sdfg @outer(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %r = sdfg.nested "inner" ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("b" : !sdfg.array<f64 ["N"]>)
        symbols("M" = "N", "k" = "N - 1") schedule Sequential after(%a : !sdfg.array<f64 ["N"]>) {
      sdfg.sdfg @inner(%x: !sdfg.array<f64 ["M"]> as "a", %y: !sdfg.array<f64 ["M"]> as "b") symbols {M = i64, k = i64} {
        sdfg.state @copy {
          %xa = sdfg.access %x : !sdfg.array<f64 ["M"]>
          %ya = sdfg.access %y writes(%xa["0:M"] : !sdfg.array<f64 ["M"]>) : !sdfg.array<f64 ["M"]>
        }
      }
    }
    %b = sdfg.access %B writes(%r["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}
