// RUN: sdfg-opt %s --pass-pipeline='builtin.module(convert-sdfg-to-scf)' | FileCheck %s
// RUN: sdfg-run %s --function symbols --set alpha=2.5 --check-bounds | FileCheck %s --check-prefix=OUT
// RUN: sdfg-run %s --function symbols --set alpha=0.5 --check-bounds | FileCheck %s --check-prefix=BRANCH
// RUN: sdfg-run %s --function axpy --set a=2.5 --check-bounds | FileCheck %s --check-prefix=AXPY
// RUN: sdfg-opt %s --pass-pipeline='builtin.module(sdfg-expand-library-nodes)' -o %t.mlir
// RUN: sdfg-run %t.mlir --function axpy --set a=2.5 --check-bounds | FileCheck %s --check-prefix=AXPY

// DaCe's floating-point symbols (`dace.symbol('m', dace.float64)`) are
// computed as floats, as DaCe's generated C++ computes them: a free one is
// a `double` argument, an assigned one a `memref<f64>` variable, tasklets
// read them with `sdfg.sym ... : f64`, and every expression that reads one
// is computed with C++'s semantics (not SymPy's integer normal form).

// `m = A[3] / 2` is computed with a float division (C++'s `/`).
// CHECK-LABEL: func.func private @__expression(
// CHECK: arith.divf
// CHECK-LABEL: func.func @symbols
// The free symbol is a `double` argument; the assigned ones are variables
// of their types.
// CHECK-SAME: %{{.*}}: f64
// CHECK-DAG: memref.alloca() : memref<f64>
// CHECK-DAG: memref.alloca() : memref<index>
// `m = A[3] / 2` is a float computation; `k = m * 2` truncates to an
// integer as C++ does on assignment.
// CHECK: %[[M:.*]] = call @__expression{{.*}} : (memref<?xf64>) -> f64
// CHECK: memref.store %[[M]], %[[MVAR:.*]][] : memref<f64>
// CHECK: %[[MV:.*]] = memref.load %[[MVAR]][] : memref<f64>
// CHECK: %[[K:.*]] = call @__expression{{.*}}(%{{.*}}) : (f64) -> i64
// CHECK: arith.index_cast %[[K]] : i64 to index
// The nested SDFG's float symbol `s = m * alpha` is passed as an f64.
// CHECK: call @symbols_inner({{.*}}) : (memref<?xf64>, index, f64) -> ()
// The condition `m > alpha` compares floats.
// CHECK: call @__expression{{.*}} : (f64, f64) -> i1

// With alpha = 2.5: A = 0, 1, 2, 3; m = 1.5; k = 3; B[i] = alpha A[i] + m + k
// sums to 33; m <= alpha sets C[0] = 2; the nested SDFG sets C[1] = s = 3.75.
// OUT: B: <f8[4] checksum 3.3000000000e1
// OUT: C: <f8[2] checksum 5.7500000000e0
// With alpha = 0.5: B sums to 3 + 18 = 21, m > alpha sets C[0] = 1, and
// C[1] = 0.75.
// BRANCH: B: <f8[4] checksum 2.1000000000e1
// BRANCH: C: <f8[2] checksum 1.7500000000e0
sdfg.sdfg @symbols(%A: !sdfg.array<f64 ["4"]> as "A", %B: !sdfg.array<f64 ["4"]> as "B", %C: !sdfg.array<f64 ["2"]> as "C") symbols {alpha = f64, k = i64, m = f64} {
  sdfg.state @init {
    %m = sdfg.map "fill" ["i" = "0:4"] outs("A" : !sdfg.array<f64 ["4"]>) {
      %v = sdfg.tasklet "fill" outs("o" : f64) {
        %i = sdfg.sym "i" : i64
        %f = arith.sitofp %i : i64 to f64
        sdfg.yield %f : f64
      }
      sdfg.exit ("A" = %v["i"] : f64)
    }
    %a = sdfg.access %A writes(%m["0:4"] : !sdfg.array<f64 ["4"]>) : !sdfg.array<f64 ["4"]>
  }
  sdfg.state @half {
  }
  sdfg.state @scale {
    %a = sdfg.access %A : !sdfg.array<f64 ["4"]>
    %m = sdfg.map "scale" ["i" = "0:4"] ins("A" = %a["0:4"] : !sdfg.array<f64 ["4"]>) outs("B" : !sdfg.array<f64 ["4"]>) {
    ^bb0(%ain: !sdfg.array<f64 ["4"]>):
      %v = sdfg.tasklet "scale" ins("x" = %ain["i"] : !sdfg.array<f64 ["4"]>) outs("o" : f64) {
      ^bb0(%x: f64):
        %alpha = sdfg.sym "alpha" : f64
        %ms = sdfg.sym "m" : f64
        %k = sdfg.sym "k" : i64
        %kf = arith.sitofp %k : i64 to f64
        %p = arith.mulf %alpha, %x : f64
        %q = arith.addf %p, %ms : f64
        %r = arith.addf %q, %kf : f64
        sdfg.yield %r : f64
      }
      sdfg.exit ("B" = %v["i"] : f64)
    }
    %b = sdfg.access %B writes(%m["0:4"] : !sdfg.array<f64 ["4"]>) : !sdfg.array<f64 ["4"]>
    %n = sdfg.nested "inner" outs("x" : !sdfg.array<f64 ["2"]>) symbols("s" = "m * alpha") {
      sdfg.sdfg @inner(%x: !sdfg.array<f64 ["2"]> as "x") symbols {s = f64} {
        sdfg.state @t {
          %t = sdfg.tasklet "s" outs("o" : f64) {
            %s = sdfg.sym "s" : f64
            sdfg.yield %s : f64
          }
          %xa = sdfg.access %x writes(%t["1"] : f64) : !sdfg.array<f64 ["2"]>
        }
      }
    }
    %c = sdfg.access %C writes(%n["0:2"] : !sdfg.array<f64 ["2"]>) : !sdfg.array<f64 ["2"]>
  }
  sdfg.state @big {
    %t = sdfg.tasklet "one" outs("o" : f64) {
      %one = arith.constant 1.0 : f64
      sdfg.yield %one : f64
    }
    %c = sdfg.access %C writes(%t["0"] : f64) : !sdfg.array<f64 ["2"]>
  }
  sdfg.state @small {
    %t = sdfg.tasklet "two" outs("o" : f64) {
      %two = arith.constant 2.0 : f64
      sdfg.yield %two : f64
    }
    %c = sdfg.access %C writes(%t["0"] : f64) : !sdfg.array<f64 ["2"]>
  }
  sdfg.edge @init -> @half assign("m" = "A[3] / 2")
  sdfg.edge @half -> @scale assign("k" = "m * 2")
  sdfg.edge @scale -> @big if "m > alpha"
  sdfg.edge @scale -> @small if "m <= alpha"
}

// Axpy's `a`, absent, is DaCe's default: the SDFG's float symbol `a`,
// read at run time (by the direct lowering and by the expansion, whose
// tasklet reads `sdfg.sym "a" : f64` of a nested symbol mapped from it).
// CHECK-LABEL: func.func @axpy
// CHECK-SAME: %{{.*}}: f64
// With a = 2.5, x = 0, 1, 2, 3 and y = 1: res sums to 2.5 * 6 + 4 = 19.
// AXPY: y: <f8[4] checksum 1.9000000000e1
sdfg.sdfg @axpy(%x: !sdfg.array<f64 ["4"]> as "x", %y: !sdfg.array<f64 ["4"]> as "y") symbols {a = f64} {
  sdfg.state @init {
    %m:2 = sdfg.map "fill" ["i" = "0:4"] outs("x" : !sdfg.array<f64 ["4"]>, "y" : !sdfg.array<f64 ["4"]>) {
      %v:2 = sdfg.tasklet "fill" outs("o" : f64, "p" : f64) {
        %i = sdfg.sym "i" : i64
        %f = arith.sitofp %i : i64 to f64
        %one = arith.constant 1.0 : f64
        sdfg.yield %f, %one : f64, f64
      }
      sdfg.exit ("x" = %v#0["i"] : f64, "y" = %v#1["i"] : f64)
    }
    %xa = sdfg.access %x writes(%m#0["0:4"] : !sdfg.array<f64 ["4"]>) : !sdfg.array<f64 ["4"]>
    %ya = sdfg.access %y writes(%m#1["0:4"] : !sdfg.array<f64 ["4"]>) : !sdfg.array<f64 ["4"]>
  }
  sdfg.state @s {
    %xa = sdfg.access %x : !sdfg.array<f64 ["4"]>
    %ya = sdfg.access %y : !sdfg.array<f64 ["4"]>
    %r = sdfg.library "axpy" "dace.libraries.blas.nodes.axpy.Axpy"
        ins("_x" = %xa["0:4"] : !sdfg.array<f64 ["4"]>, "_y" = %ya["0:4"] : !sdfg.array<f64 ["4"]>)
        outs("_res" : !sdfg.array<f64 ["4"]>) properties {}
    %c = sdfg.access %y writes(%r["0:4"] : !sdfg.array<f64 ["4"]>) : !sdfg.array<f64 ["4"]>
  }
  sdfg.edge @init -> @s
}
