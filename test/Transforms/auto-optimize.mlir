// RUN: sdfg-opt %s --pass-pipeline='builtin.module(sdfg-auto-optimize)' | FileCheck %s
// RUN: not sdfg-opt %s --pass-pipeline='builtin.module(sdfg-auto-optimize{fast=true})' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as n; n.save('%t/a.npy', n.arange(20.0).reshape(4, 5) %% 7); n.save('%t/b.npy', n.arange(20.0).reshape(4, 5) %% 3 - 1); n.save('%t/e.npy', n.arange(15.0).reshape(5, 3) - 4)"
// RUN: sdfg-run %s --input A=%t/a.npy --input B=%t/b.npy --input E=%t/e.npy --out %t/plain > /dev/null
// RUN: sdfg-run %s --input A=%t/a.npy --input B=%t/b.npy --input E=%t/e.npy --out %t/opt -O --emit-llvm-dialect %t/opt.mlir > /dev/null
// RUN: cmp %t/plain/D.npy %t/opt/D.npy
// RUN: FileCheck %s --check-prefix=LOWERED < %t/opt.mlir

// BAD: sdfg-auto-optimize: unknown option `fast=true` (the pass has none)

// What the NumPy frontend writes for `D = (2 * (A + B)) @ E`, one state
// per statement: the states fuse, the two element-wise maps fuse with
// `T` a scalar inside the fused map, the MatMul calls CBLAS, and `C`,
// which the map and the MatMul share outside any scope, is persistent. On
// integer-valued inputs CBLAS and the loop nest agree exactly.
// CHECK-LABEL: sdfg.sdfg @frontend_style
// CHECK-DAG: sdfg.alloc "T_local" : !sdfg.scalar<f64>
// CHECK-DAG: sdfg.alloc "C" lifetime Persistent : !sdfg.array<f64 ["4", "5"]>
// CHECK-NOT: sdfg.alloc "T" :
// CHECK: sdfg.state
// CHECK: sdfg.map "add" ["i" = "0:4", "j" = "0:5"]
// CHECK: sdfg.tasklet "add"
// CHECK: sdfg.access %T_local
// CHECK: sdfg.tasklet "twice"
// CHECK-NOT: sdfg.map
// CHECK: sdfg.library "mm" "dace.libraries.blas.nodes.matmul.MatMul" impl "OpenBLAS"
// CHECK-NOT: sdfg.state
// LOWERED: llvm.call @cblas_dgemm
sdfg.sdfg @frontend_style(%A: !sdfg.array<f64 ["4", "5"]> as "A", %B: !sdfg.array<f64 ["4", "5"]> as "B", %E: !sdfg.array<f64 ["5", "3"]> as "E", %D: !sdfg.array<f64 ["4", "3"]> as "D") {
  %T = sdfg.alloc "T" : !sdfg.array<f64 ["4", "5"]>
  %C = sdfg.alloc "C" : !sdfg.array<f64 ["4", "5"]>
  sdfg.state @add {
    %a = sdfg.access %A : !sdfg.array<f64 ["4", "5"]>
    %b = sdfg.access %B : !sdfg.array<f64 ["4", "5"]>
    %r = sdfg.map "add" ["i" = "0:4", "j" = "0:5"] ins("x" = %a["0:4, 0:5"] : !sdfg.array<f64 ["4", "5"]>, "y" = %b["0:4, 0:5"] : !sdfg.array<f64 ["4", "5"]>) outs("z" : !sdfg.array<f64 ["4", "5"]>) {
    ^bb0(%x: !sdfg.array<f64 ["4", "5"]>, %y: !sdfg.array<f64 ["4", "5"]>):
      %t = sdfg.tasklet "add" ins("u" = %x["i, j"] : !sdfg.array<f64 ["4", "5"]>, "v" = %y["i, j"] : !sdfg.array<f64 ["4", "5"]>) outs("o" : f64) {
      ^bb0(%u: f64, %v: f64):
        %w = arith.addf %u, %v : f64
        sdfg.yield %w : f64
      }
      sdfg.exit("z" = %t["i, j"] : f64)
    }
    %tt = sdfg.access %T writes(%r["0:4, 0:5"] : !sdfg.array<f64 ["4", "5"]>) : !sdfg.array<f64 ["4", "5"]>
  }
  sdfg.state @twice {
    %tt = sdfg.access %T : !sdfg.array<f64 ["4", "5"]>
    %r = sdfg.map "twice" ["__i0" = "0:4", "__i1" = "0:5"] ins("x" = %tt["0:4, 0:5"] : !sdfg.array<f64 ["4", "5"]>) outs("z" : !sdfg.array<f64 ["4", "5"]>) {
    ^bb0(%x: !sdfg.array<f64 ["4", "5"]>):
      %t = sdfg.tasklet "twice" ins("u" = %x["__i0, __i1"] : !sdfg.array<f64 ["4", "5"]>) outs("o" : f64) {
      ^bb0(%u: f64):
        %w = arith.addf %u, %u : f64
        sdfg.yield %w : f64
      }
      sdfg.exit("z" = %t["__i0, __i1"] : f64)
    }
    %c = sdfg.access %C writes(%r["0:4, 0:5"] : !sdfg.array<f64 ["4", "5"]>) : !sdfg.array<f64 ["4", "5"]>
  }
  sdfg.state @product {
    %c = sdfg.access %C : !sdfg.array<f64 ["4", "5"]>
    %e = sdfg.access %E : !sdfg.array<f64 ["5", "3"]>
    %m = sdfg.library "mm" "dace.libraries.blas.nodes.matmul.MatMul"
        ins("_a" = %c["0:4, 0:5"] : !sdfg.array<f64 ["4", "5"]>, "_b" = %e["0:5, 0:3"] : !sdfg.array<f64 ["5", "3"]>)
        outs("_c" : !sdfg.array<f64 ["4", "3"]>) properties {}
    %d = sdfg.access %D writes(%m["0:4, 0:3"] : !sdfg.array<f64 ["4", "3"]>) : !sdfg.array<f64 ["4", "3"]>
  }
  sdfg.edge @add -> @twice
  sdfg.edge @twice -> @product
}
