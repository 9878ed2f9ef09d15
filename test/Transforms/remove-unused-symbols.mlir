// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-remove-unused-symbols)' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-remove-unused-symbols,sdfg-validate)' -o /dev/null

// `t` is named nowhere and `d` only assigned: both go, with d's
// assignment. N sizes A, k is read by a condition and M sizes a
// transient: they stay.
// CHECK-LABEL: sdfg.sdfg @remove_only_unread_symbols
// CHECK-SAME: symbols {M = i64, N = i64, k = i64}
// CHECK: sdfg.edge @s -> @e assign("k" = "1")
// CHECK: sdfg.edge @e -> @f if "k > 0"{{$}}
sdfg.sdfg @remove_only_unread_symbols(%A: !sdfg.array<f64 ["N"]> as "A") symbols {M = i64, N = i64, d = i64, k = i64, t = i64} {
  %T = sdfg.alloc "T" : !sdfg.array<f64 ["M"]>
  sdfg.state @s {
  }
  sdfg.state @e {
  }
  sdfg.state @f {
  }
  sdfg.edge @s -> @e assign("k" = "1", "d" = "N + 1")
  sdfg.edge @e -> @f if "k > 0" assign("d" = "d + 1")
}

// -----

// A nested SDFG's unused symbol goes with its caller's mapping entry; the
// caller's symbol P, read only by that entry, goes after it.
// CHECK-LABEL: sdfg.sdfg @outer
// CHECK-SAME: symbols {N = i64}
// CHECK: sdfg.nested "inner"
// CHECK-SAME: symbols("M" = "N")
// CHECK: sdfg.sdfg @inner
// CHECK-SAME: symbols {M = i64}
sdfg.sdfg @outer(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64, P = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %r = sdfg.nested "inner" ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("b" : !sdfg.array<f64 ["N"]>) symbols("M" = "N", "u" = "P + 1") {
      sdfg.sdfg @inner(%ia: !sdfg.array<f64 ["M"]> as "a", %ib: !sdfg.array<f64 ["M"]> as "b") symbols {M = i64, u = i64} {
        sdfg.state @copy {
          %x = sdfg.access %ia : !sdfg.array<f64 ["M"]>
          %y = sdfg.access %ib writes(%x["0:M" -> "0:M"] : !sdfg.array<f64 ["M"]>) : !sdfg.array<f64 ["M"]>
        }
      }
    }
    %w = sdfg.access %A writes(%r["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}
