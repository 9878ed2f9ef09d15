// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-accumulate-transient{level=innermost})' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(sdfg-accumulate-transient{label=leave})' -o /dev/null
// RUN: rm -rf %t && mkdir -p %t
// RUN: sdfg-run %s --function accumulate_row_sums --set N=37 --seed 5 --out %t/before > /dev/null
// RUN: sdfg-run %s --function accumulate_row_sums --set N=37 --seed 5 --out %t/after --pass-pipeline='builtin.module(sdfg-accumulate-transient{level=innermost})' > /dev/null
// RUN: %python %S/../Target/HLS/Inputs/compare.py %t/before %t/after | FileCheck %s --check-prefix=SAME
// SAME: 1 outputs match

// DaCe's AccumulateTransient: the inner map sums a row of A into the
// total T, which every outer iteration shares. It sums into an
// accumulator instead, private to the outer iteration and started at 0,
// and the accumulator goes into T once per row.
// CHECK-LABEL: sdfg.sdfg @accumulate_row_sums
// CHECK: %[[ACC:.*]] = sdfg.alloc "T_acc" : !sdfg.array<f64 ["1"]>
// CHECK: sdfg.map "rows" ["i" = "0:N"]
// CHECK: %[[I:.*]] = sdfg.map "init_T_acc" ["__acc0" = "0:1"] outs("T_acc" : !sdfg.array<f64 ["1"]>)
// CHECK: %[[Z:.*]] = sdfg.access %[[ACC]] writes(%[[I]]["0"] : !sdfg.array<f64 ["1"]>)
// CHECK: %[[M:.*]] = sdfg.map "cols" ["j" = "0:8"] {{.*}} after(%[[Z]] : !sdfg.array<f64 ["1"]>)
// CHECK: sdfg.exit("T" = %{{.*}}["0", wcr sum] : f64)
// CHECK: %[[W:.*]] = sdfg.access %[[ACC]] writes(%[[M]]["0", wcr sum] : !sdfg.array<f64 ["1"]>)
// CHECK: sdfg.exit("T" = %[[W]]["0" -> "0", wcr sum] : !sdfg.array<f64 ["1"]>)
sdfg.sdfg @accumulate_row_sums(%A: !sdfg.array<f64 ["N", "8"]> as "A", %T: !sdfg.array<f64 ["1"]> as "T") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "8"]>
    %m = sdfg.map "rows" ["i" = "0:N"] ins("a" = %a["0:N, 0:8"] : !sdfg.array<f64 ["N", "8"]>) outs("T" : !sdfg.array<f64 ["1"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N", "8"]>):
      %c = sdfg.map "cols" ["j" = "0:8"] schedule Sequential ins("a" = %ai["i, 0:8"] : !sdfg.array<f64 ["N", "8"]>) outs("T" : !sdfg.array<f64 ["1"]>) {
      ^bb0(%aj: !sdfg.array<f64 ["N", "8"]>):
        %t = sdfg.tasklet "t" ins("x" = %aj["i, j"] : !sdfg.array<f64 ["N", "8"]>) outs("y" : f64) {
        ^bb0(%x: f64):
          sdfg.yield %x : f64
        }
        sdfg.exit ("T" = %t["0", wcr sum] : f64)
      }
      sdfg.exit ("T" = %c["0", wcr sum] : !sdfg.array<f64 ["1"]>)
    }
    %t = sdfg.access %T writes(%m["0", wcr sum] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
  }
}

// -----

// A map in no other scope writes to memory anyway.
// CHECK-LABEL: sdfg.sdfg @do_not_accumulate_outside_a_scope
// CHECK-NOT: _acc
sdfg.sdfg @do_not_accumulate_outside_a_scope(%A: !sdfg.array<f64 ["N"]> as "A", %S: !sdfg.array<f64 ["1"]> as "S") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    // expected-warning @+1 {{sdfg-accumulate-transient does not apply: is not inside another scope, so its writes go to memory anyway}}
    %m = sdfg.map "leave" ["i" = "0:N"] ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("S" : !sdfg.array<f64 ["1"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "t" ins("x" = %ai["i"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit ("S" = %t["0", wcr sum] : f64)
    }
    %s = sdfg.access %S writes(%m["0", wcr sum] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
  }
}

// -----

// An integer maximum has no identity the accumulator could start from (the
// type does not say whether it is signed).
// CHECK-LABEL: sdfg.sdfg @do_not_accumulate_an_integer_maximum
// CHECK-NOT: _acc
sdfg.sdfg @do_not_accumulate_an_integer_maximum(%A: !sdfg.array<i32 ["N", "8"]> as "A", %T: !sdfg.array<i32 ["1"]> as "T") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<i32 ["N", "8"]>
    %m = sdfg.map "rows" ["i" = "0:N"] ins("a" = %a["0:N, 0:8"] : !sdfg.array<i32 ["N", "8"]>) outs("T" : !sdfg.array<i32 ["1"]>) {
    ^bb0(%ai: !sdfg.array<i32 ["N", "8"]>):
      // expected-warning @+1 {{sdfg-accumulate-transient does not apply: output 'T': the resolution has no identity here}}
      %c = sdfg.map "leave" ["j" = "0:8"] ins("a" = %ai["i, 0:8"] : !sdfg.array<i32 ["N", "8"]>) outs("T" : !sdfg.array<i32 ["1"]>) {
      ^bb0(%aj: !sdfg.array<i32 ["N", "8"]>):
        %t = sdfg.tasklet "t" ins("x" = %aj["i, j"] : !sdfg.array<i32 ["N", "8"]>) outs("y" : i32) {
        ^bb0(%x: i32):
          sdfg.yield %x : i32
        }
        sdfg.exit ("T" = %t["0", wcr max] : i32)
      }
      sdfg.exit ("T" = %c["0", wcr max] : !sdfg.array<i32 ["1"]>)
    }
    %t = sdfg.access %T writes(%m["0", wcr max] : !sdfg.array<i32 ["1"]>) : !sdfg.array<i32 ["1"]>
  }
}

// -----

// Nor does a sum of complex numbers (no constant for one here).
// CHECK-LABEL: sdfg.sdfg @do_not_accumulate_complex_numbers
// CHECK-NOT: _acc
sdfg.sdfg @do_not_accumulate_complex_numbers(%A: !sdfg.array<complex<f64> ["N", "8"]> as "A", %T: !sdfg.array<complex<f64> ["1"]> as "T") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<complex<f64> ["N", "8"]>
    %m = sdfg.map "rows" ["i" = "0:N"] ins("a" = %a["0:N, 0:8"] : !sdfg.array<complex<f64> ["N", "8"]>) outs("T" : !sdfg.array<complex<f64> ["1"]>) {
    ^bb0(%ai: !sdfg.array<complex<f64> ["N", "8"]>):
      // expected-warning @+1 {{sdfg-accumulate-transient does not apply: output 'T': the resolution has no identity here}}
      %c = sdfg.map "leave" ["j" = "0:8"] ins("a" = %ai["i, 0:8"] : !sdfg.array<complex<f64> ["N", "8"]>) outs("T" : !sdfg.array<complex<f64> ["1"]>) {
      ^bb0(%aj: !sdfg.array<complex<f64> ["N", "8"]>):
        %t = sdfg.tasklet "t" ins("x" = %aj["i, j"] : !sdfg.array<complex<f64> ["N", "8"]>) outs("y" : complex<f64>) {
        ^bb0(%x: complex<f64>):
          sdfg.yield %x : complex<f64>
        }
        sdfg.exit ("T" = %t["0", wcr sum] : complex<f64>)
      }
      sdfg.exit ("T" = %c["0", wcr sum] : !sdfg.array<complex<f64> ["1"]>)
    }
    %t = sdfg.access %T writes(%m["0", wcr sum] : !sdfg.array<complex<f64> ["1"]>) : !sdfg.array<complex<f64> ["1"]>
  }
}

// -----

// An unsigned accumulator starts at a signless 0, as tasklets compute.
// CHECK-LABEL: sdfg.sdfg @accumulate_unsigned_sums
// CHECK: sdfg.alloc "T_acc" : !sdfg.array<ui32 ["1"]>
// CHECK: sdfg.tasklet "init_T_acc" outs("o" : i32)
// CHECK-NEXT: arith.constant 0 : i32
sdfg.sdfg @accumulate_unsigned_sums(%A: !sdfg.array<ui32 ["N", "8"]> as "A", %T: !sdfg.array<ui32 ["1"]> as "T") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<ui32 ["N", "8"]>
    %m = sdfg.map "rows" ["i" = "0:N"] ins("a" = %a["0:N, 0:8"] : !sdfg.array<ui32 ["N", "8"]>) outs("T" : !sdfg.array<ui32 ["1"]>) {
    ^bb0(%ai: !sdfg.array<ui32 ["N", "8"]>):
      %c = sdfg.map "cols" ["j" = "0:8"] ins("a" = %ai["i, 0:8"] : !sdfg.array<ui32 ["N", "8"]>) outs("T" : !sdfg.array<ui32 ["1"]>) {
      ^bb0(%aj: !sdfg.array<ui32 ["N", "8"]>):
        %t = sdfg.tasklet "t" ins("x" = %aj["i, j"] : !sdfg.array<ui32 ["N", "8"]>) outs("y" : i32) {
        ^bb0(%x: i32):
          sdfg.yield %x : i32
        }
        sdfg.exit ("T" = %t["0", wcr sum] : i32)
      }
      sdfg.exit ("T" = %c["0", wcr sum] : !sdfg.array<ui32 ["1"]>)
    }
    %t = sdfg.access %T writes(%m["0", wcr sum] : !sdfg.array<ui32 ["1"]>) : !sdfg.array<ui32 ["1"]>
  }
}
