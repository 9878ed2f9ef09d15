// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-make-transients-persistent)' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(sdfg-make-transients-persistent{name=keep})' -o /dev/null
// RUN: not sdfg-opt %s --pass-pipeline='builtin.module(sdfg-make-transients-persistent{size=4})' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: unknown option `size=4`
// RUN: rm -rf %t && mkdir -p %t
// RUN: sdfg-run %s --function persist_a_temporary --set N=37 --seed 5 --out %t/before > /dev/null
// RUN: sdfg-run %s --function persist_a_temporary --set N=37 --seed 5 --out %t/after --pass-pipeline='builtin.module(sdfg-make-transients-persistent)' > /dev/null
// RUN: %python %S/../Target/HLS/Inputs/compare.py %t/before %t/after | FileCheck %s --check-prefix=SAME
// SAME: 1 outputs match

// A temporary between two maps, sized by the argument N and accessed
// outside any scope, is allocated once for all calls; so is the scalar.
// CHECK-LABEL: sdfg.sdfg @persist_a_temporary
// CHECK: sdfg.alloc "t" lifetime Persistent : !sdfg.array<f64 ["N"]>
// CHECK: sdfg.alloc "s" lifetime Persistent : !sdfg.scalar<f64>
sdfg.sdfg @persist_a_temporary(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  %t = sdfg.alloc "t" : !sdfg.array<f64 ["N"]>
  %s = sdfg.alloc "s" : !sdfg.scalar<f64>
  sdfg.state @s0 {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %m = sdfg.map "twice" ["i" = "0:N"] ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("t" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N"]>):
      %v = sdfg.tasklet "twice" ins("x" = %ai["i"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        %c = arith.constant 2.0 : f64
        %y = arith.mulf %x, %c : f64
        sdfg.yield %y : f64
      }
      sdfg.exit ("t" = %v["i"] : f64)
    }
    %tw = sdfg.access %t writes(%m["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %one = sdfg.tasklet "one" outs("y" : f64) {
      %c = arith.constant 1.0 : f64
      sdfg.yield %c : f64
    }
    %sw = sdfg.access %s writes(%one["0"] : f64) : !sdfg.scalar<f64>
    %n = sdfg.map "plus" ["i" = "0:N"] ins("t" = %tw["0:N"] : !sdfg.array<f64 ["N"]>, "s" = %sw["0"] : !sdfg.scalar<f64>) outs("B" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%ti: !sdfg.array<f64 ["N"]>, %si: !sdfg.scalar<f64>):
      %v = sdfg.tasklet "plus" ins("x" = %ti["i"] : !sdfg.array<f64 ["N"]>, "s" = %si["0"] : !sdfg.scalar<f64>) outs("y" : f64) {
      ^bb0(%x: f64, %y: f64):
        %z = arith.addf %x, %y : f64
        sdfg.yield %z : f64
      }
      sdfg.exit ("B" = %v["i"] : f64)
    }
    %b = sdfg.access %B writes(%n["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// A transient accessed inside a map is allocated once per iteration where
// it is used (DaCe's `toplevel_only`).
// CHECK-LABEL: sdfg.sdfg @do_not_persist_inside_a_scope
// CHECK: sdfg.alloc "keep" : !sdfg.array<f64 ["4"]>
sdfg.sdfg @do_not_persist_inside_a_scope(%A: !sdfg.array<f64 ["N", "4"]> as "A") symbols {N = i64} {
  // expected-warning @+1 {{sdfg-make-transients-persistent does not apply: `keep` is accessed inside a scope}}
  %keep = sdfg.alloc "keep" : !sdfg.array<f64 ["4"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "4"]>
    %m = sdfg.map "rows" ["i" = "0:N"] ins("a" = %a["0:N, 0:4"] : !sdfg.array<f64 ["N", "4"]>) outs("A" : !sdfg.array<f64 ["N", "4"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N", "4"]>):
      %k = sdfg.access %keep writes(%ai["i, 0:4" -> "0:4"] : !sdfg.array<f64 ["N", "4"]>) : !sdfg.array<f64 ["4"]>
      sdfg.exit ("A" = %k["0:4" -> "i, 0:4"] : !sdfg.array<f64 ["4"]>)
    }
    %w = sdfg.access %A writes(%m["0:N, 0:4"] : !sdfg.array<f64 ["N", "4"]>) : !sdfg.array<f64 ["N", "4"]>
  }
}

// -----

// The size of a transient sized by a symbol that an edge assigns is not
// known when the program starts.
// CHECK-LABEL: sdfg.sdfg @do_not_persist_an_assigned_size
// CHECK: sdfg.alloc "keep" : !sdfg.array<i64 ["n"]>
sdfg.sdfg @do_not_persist_an_assigned_size(%out: !sdfg.array<i64 ["1"]> as "out") symbols {n = i64} {
  // expected-warning @+1 {{sdfg-make-transients-persistent does not apply: the size of `keep` reads `n`, which the SDFG assigns}}
  %keep = sdfg.alloc "keep" : !sdfg.array<i64 ["n"]>
  sdfg.state @init {
  }
  sdfg.state @use {
    %v = sdfg.tasklet "w" outs("o" : i64) {
      %s = sdfg.sym "n" : i64
      sdfg.yield %s : i64
    }
    %k = sdfg.access %keep writes(%v["0"] : i64) : !sdfg.array<i64 ["n"]>
    %o = sdfg.access %out writes(%k["0" -> "0"] : !sdfg.array<i64 ["n"]>) : !sdfg.array<i64 ["1"]>
  }
  sdfg.edge @init -> @use assign("n" = "3")
}

// -----

// A register, a view, and a transient whose lifetime is already chosen keep
// what they are.
// CHECK-LABEL: sdfg.sdfg @do_not_persist_registers_views_or_external
// CHECK: sdfg.alloc "keep" : !sdfg.scalar<f64 storage Register>
// CHECK: sdfg.alloc "v" : !sdfg.view<f64 ["N"]>
// CHECK: sdfg.alloc "e" lifetime External : !sdfg.array<f64 ["N"]>
sdfg.sdfg @do_not_persist_registers_views_or_external(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64} {
  // expected-warning @+1 {{sdfg-make-transients-persistent does not apply: `keep` is in Register storage}}
  %keep = sdfg.alloc "keep" : !sdfg.scalar<f64 storage Register>
  %v = sdfg.alloc "v" : !sdfg.view<f64 ["N"]>
  %e = sdfg.alloc "e" lifetime External : !sdfg.array<f64 ["N"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %vv = sdfg.access %v bind(%a ["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.view<f64 ["N"]>
    %k = sdfg.access %keep writes(%vv["0" -> "0"] : !sdfg.view<f64 ["N"]>) : !sdfg.scalar<f64 storage Register>
    %ew = sdfg.access %e writes(%a["0:N" -> "0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}
