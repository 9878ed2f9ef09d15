// RUN: sdfg-opt %s --sdfg-fpga-transform | sdfg-translate --emit-hls | FileCheck %s
// RUN: sdfg-opt %s --sdfg-fpga-transform | sdfg-translate --emit-hls-testbench | FileCheck %s --check-prefix=TB
// RUN: %if ap-types %{ env SDFG_AP_TYPES=%ap_types %S/Inputs/simulate.sh %s %t %hls_include N=37 | FileCheck %s --check-prefix=SIM %}

// Integers of widths C++ has no type for are Vitis's arbitrary-precision
// ap_int<W> (ap_uint<W> where an operation reads them as unsigned), from
// <ap_int.h>, which the kernel and the testbench include only then (g++'s
// false warnings about its members off around it); native
// widths stay <cstdint> types. Truncation, sign and zero extension,
// wrapping arithmetic, unsigned comparison and shifts keep MLIR's
// semantics, as the C simulation against sdfg-run shows (with the
// ap_int.h of the hls4ml wheel that scripts/dace-venv.sh fetches).

// CHECK: #include <hls_stream.h>
// CHECK: #pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
// CHECK-NEXT: #endif
// CHECK-NEXT: #include <ap_int.h>
// CHECK-LABEL: static void narrow_{{[0-9]+}}(ap_int<12> *T, ap_int<33> *W, int32_t *fpga_A, long long N) {
// CHECK: const ap_int<12> [[Y:.*]] = (ap_int<12>)[[X:.*]];
// CHECK-NEXT: const ap_int<12> {{.*}} = [[Y]] + ((ap_int<12>)1000);
// CHECK-NEXT: const ap_int<33> [[E:.*]] = (ap_int<33>)[[X]];
// CHECK-NEXT: const ap_int<33> {{.*}} = [[E]] * [[E]];
// CHECK-LABEL: static void widen_{{[0-9]+}}(
// CHECK: const int32_t {{.*}} = (int32_t)((ap_uint<12>)[[V:.*]]);
// CHECK-NEXT: const int32_t {{.*}} = (int32_t)[[V]];
// CHECK-NEXT: const bool {{.*}} = ((ap_uint<12>)[[V]]) < ((ap_uint<12>)((ap_int<12>)2000));
// CHECK-NEXT: const ap_int<12> {{.*}} = (ap_int<12>)(((ap_uint<12>)[[V]]) >> ((ap_int<12>)3));
// CHECK-LABEL: void narrow(
// CHECK-SAME: ap_int<12> *T, ap_int<33> *W

// TB: #include "sdfg_hls_testbench.h"
// TB: #include <ap_int.h>
// TB: sdfg_hls::Buffer<ap_int<12>> T((size_t)N);

// SIM: 2 outputs match
sdfg.sdfg @narrow(%A: !sdfg.array<i32 ["N"]> as "A", %B: !sdfg.array<i32 ["N"]> as "B", %C: !sdfg.array<i64 ["N"]> as "C") symbols {N = i64} {
  %T = sdfg.alloc "T" : !sdfg.array<i12 ["N"]>
  %W = sdfg.alloc "W" : !sdfg.array<i33 ["N"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<i32 ["N"]>
    %m:2 = sdfg.map "narrow" ["i" = "0:N"] ins("a" = %a["0:N"] : !sdfg.array<i32 ["N"]>) outs("T" : !sdfg.array<i12 ["N"]>, "W" : !sdfg.array<i33 ["N"]>) {
    ^bb0(%ai: !sdfg.array<i32 ["N"]>):
      %t:2 = sdfg.tasklet "narrow" ins("x" = %ai["i"] : !sdfg.array<i32 ["N"]>) outs("y" : i12, "w" : i33) {
      ^bb0(%x: i32):
        %y = arith.trunci %x : i32 to i12
        %k = arith.constant 1000 : i12
        %s = arith.addi %y, %k : i12
        %e = arith.extsi %x : i32 to i33
        %w = arith.muli %e, %e : i33
        sdfg.yield %s, %w : i12, i33
      }
      sdfg.exit ("T" = %t#0["i"] : i12, "W" = %t#1["i"] : i33)
    }
    %tt = sdfg.access %T writes(%m#0["0:N"] : !sdfg.array<i12 ["N"]>) : !sdfg.array<i12 ["N"]>
    %ww = sdfg.access %W writes(%m#1["0:N"] : !sdfg.array<i33 ["N"]>) : !sdfg.array<i33 ["N"]>
    %r:2 = sdfg.map "widen" ["i" = "0:N"] ins("t" = %tt["0:N"] : !sdfg.array<i12 ["N"]>, "w" = %ww["0:N"] : !sdfg.array<i33 ["N"]>) outs("B" : !sdfg.array<i32 ["N"]>, "C" : !sdfg.array<i64 ["N"]>) {
    ^bb0(%ti: !sdfg.array<i12 ["N"]>, %wi: !sdfg.array<i33 ["N"]>):
      %u:2 = sdfg.tasklet "widen" ins("v" = %ti["i"] : !sdfg.array<i12 ["N"]>, "w" = %wi["i"] : !sdfg.array<i33 ["N"]>) outs("b" : i32, "c" : i64) {
      ^bb0(%v: i12, %w: i33):
        %z = arith.extui %v : i12 to i32
        %sx = arith.extsi %v : i12 to i32
        %lim = arith.constant 2000 : i12
        %lt = arith.cmpi ult, %v, %lim : i12
        %sh = arith.constant 3 : i12
        %q = arith.shrui %v, %sh : i12
        %qx = arith.extsi %q : i12 to i32
        %d = arith.divsi %v, %sh : i12
        %dx = arith.extsi %d : i12 to i32
        %p = arith.select %lt, %z, %sx : i32
        %p2 = arith.addi %p, %qx : i32
        %p3 = arith.muli %p2, %dx : i32
        %c = arith.extsi %w : i33 to i64
        sdfg.yield %p3, %c : i32, i64
      }
      sdfg.exit ("B" = %u#0["i"] : i32, "C" = %u#1["i"] : i64)
    }
    %b = sdfg.access %B writes(%r#0["0:N"] : !sdfg.array<i32 ["N"]>) : !sdfg.array<i32 ["N"]>
    %c = sdfg.access %C writes(%r#1["0:N"] : !sdfg.array<i64 ["N"]>) : !sdfg.array<i64 ["N"]>
  }
}
