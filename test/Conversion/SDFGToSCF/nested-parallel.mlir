// RUN: sdfg-opt %s --pass-pipeline='builtin.module(sdfg-loop-to-map,convert-sdfg-to-scf)' | FileCheck %s
// RUN: sdfg-opt %s --pass-pipeline='builtin.module(convert-sdfg-to-scf)' | FileCheck %s --check-prefix=LOOP
// RUN: rm -rf %t && mkdir -p %t
// RUN: sdfg-run %s --set N=37 --seed 2 --out %t/a > /dev/null
// RUN: sdfg-run %s --set N=37 --seed 2 --out %t/b --pass-pipeline='builtin.module(sdfg-loop-to-map)' > /dev/null
// RUN: cmp %t/a/A.npy %t/b/A.npy
// RUN: sdfg-run %s --function row_sums --set N=37 --seed 2 --out %t/c > /dev/null
// RUN: sdfg-run %s --function row_sums --set N=37 --seed 2 --out %t/d --pass-pipeline='builtin.module(sdfg-loop-to-map)' > /dev/null
// RUN: cmp %t/c/S.npy %t/d/S.npy

// A nested SDFG called inside a parallel loop runs on one thread of it: its
// maps are sequential loops (a nested parallel region would be a
// serialized OpenMP fork per call). Loop-to-map makes the row loop a map
// over a nested SDFG that holds the row's map; the results are the same
// (the cmp above).
// CHECK-LABEL: func.func private @scale_rows_l_body
// CHECK-NOT: scf.parallel
// CHECK: scf.for
// CHECK-LABEL: func.func @scale_rows
// CHECK: scf.parallel
// CHECK: call @scale_rows_l_body

// Called from a sequential loop, the same map stays parallel.
// LOOP-LABEL: func.func @scale_rows
// LOOP: scf.parallel
sdfg.sdfg @scale_rows(%A: !sdfg.array<f64 ["N", "N"]> as "A") symbols {N = i64, i = i64} {
  sdfg.loop @l var "i" init "0" cond "i < N" update "i + 1" {
    sdfg.state @body {
      %a = sdfg.access %A : !sdfg.array<f64 ["N", "N"]>
      %r = sdfg.map "row" ["j" = "0:N"] ins("x" = %a["i, 0:N"] : !sdfg.array<f64 ["N", "N"]>) outs("y" : !sdfg.array<f64 ["N", "N"]>) {
      ^bb0(%x: !sdfg.array<f64 ["N", "N"]>):
        %o = sdfg.tasklet "scale" ins("v" = %x["i, j"] : !sdfg.array<f64 ["N", "N"]>) outs("o" : f64) {
        ^bb0(%v: f64):
          %w = arith.addf %v, %v : f64
          sdfg.yield %w : f64
        }
        sdfg.exit("y" = %o["i, j"] : f64)
      }
      %b = sdfg.access %A writes(%r["i, 0:N"] : !sdfg.array<f64 ["N", "N"]>) : !sdfg.array<f64 ["N", "N"]>
    }
  }
}

// The same holds for library nodes: a Reduce of a row in a nested SDFG
// called inside a parallel loop is a sequential fold (it would otherwise
// fold blocks in a nested parallel region), and the sums are the same.
// CHECK-LABEL: func.func private @row_sums_l_body
// CHECK-NOT: scf.parallel
// CHECK: scf.for
// CHECK-LABEL: func.func @row_sums
// CHECK: scf.parallel
// CHECK: call @row_sums_l_body
// Called from a sequential loop, the row's fold runs in parallel blocks.
// LOOP-LABEL: func.func @row_sums
// LOOP: scf.parallel {{.*}} init
sdfg.sdfg @row_sums(%A: !sdfg.array<f64 ["N", "N"]> as "A", %S: !sdfg.array<f64 ["N"]> as "S") symbols {N = i64, i = i64} {
  sdfg.loop @l var "i" init "0" cond "i < N" update "i + 1" {
    sdfg.state @body {
      %a = sdfg.access %A : !sdfg.array<f64 ["N", "N"]>
      %red = sdfg.library "Reduce" "dace.libraries.standard.nodes.reduce.Reduce"
          ins("" = %a["i, 0:N"] : !sdfg.array<f64 ["N", "N"]>)
          outs("" : !sdfg.array<f64 ["N"]>)
          properties {identity = "0", wcr = "\22(lambda a, b: a + b)\22"}
      %s = sdfg.access %S writes(%red["i"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    }
  }
}
