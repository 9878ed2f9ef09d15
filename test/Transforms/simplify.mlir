// RUN: sdfg-opt %s --pass-pipeline='builtin.module(sdfg-simplify)' | FileCheck %s
// RUN: sdfg-opt %s --pass-pipeline='builtin.module(sdfg-simplify,sdfg-validate)' -o /dev/null
// RUN: sdfg-run %s --set N=7 --seed 3 | FileCheck %s --check-prefix=SAME
// RUN: sdfg-run %s --set N=7 --seed 3 --pass-pipeline='builtin.module(sdfg-simplify)' | FileCheck %s --check-prefix=SAME

// What DaCe 1.0.2's frontend writes for (to_sdfg(simplify=False))
//   s = 0.0
//   for i in range(N): s = s + A[i]
//   if s > 0: B[:] = A * 2
//   else: B[:] = A - 1
//   tmp = B + 1; B[:] = tmp
// 22 states become 7, as after DaCe's simplify(): s becomes a symbol,
// assigned on the edges of the loop (s = 0.0 on entry, s = s + A[i] on
// the edge into the body), so the loop body holds no dataflow at all;
// each branch is one state whose map writes B directly; the last state
// keeps tmp (its map reads B, so writing B directly could race). The
// program computes the same B.

// SAME: B: <f8[7] checksum 1.3301962478e1

// CHECK-LABEL: sdfg.sdfg @p1
// CHECK-SAME: symbols {N = i32, i = i64, s = f64}
// CHECK-NEXT: sdfg.alloc "tmp"
// CHECK-NOT: sdfg.alloc
// CHECK-COUNT-7: sdfg.state
// CHECK-NOT: sdfg.state
// CHECK: sdfg.edge @for_6_end -> @if_8_else_11_else_8 if "(not (s > 0))"
// CHECK: sdfg.edge @for_6_guard -> @[[BODY:.*]] if "(i < N)" assign("s" = "(s + A[i])")
// CHECK: sdfg.edge @[[BODY]] -> @for_6_guard assign("i" = "(i + 1)")
// CHECK: sdfg.edge @init -> @for_6_guard assign("s" = "0.0", "i" = "0")
sdfg.sdfg @p1(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i32, i = i64} {
  %__tmp1 = sdfg.alloc "__tmp1" : !sdfg.scalar<f64>
  %__tmp2 = sdfg.alloc "__tmp2" : !sdfg.scalar<f64>
  %__tmp3 = sdfg.alloc "__tmp3" : !sdfg.array<f64 ["N"]>
  %__tmp4 = sdfg.alloc "__tmp4" : !sdfg.array<f64 ["N"]>
  %s = sdfg.alloc "s" : !sdfg.scalar<f64>
  %tmp = sdfg.alloc "tmp" : !sdfg.array<f64 ["N"]>
  sdfg.state @init {
  }
  sdfg.state @assign_5_4 {
    %__out = sdfg.tasklet "assign_5_4" outs("__out" : f64) {
      %cst = arith.constant 0.000000e+00 : f64
      sdfg.yield %cst : f64
    }
    %s_0 = sdfg.access %s writes(%__out["0"] : f64) : !sdfg.scalar<f64>
  }
  sdfg.state @BinOp_12 {
    %B_0 = sdfg.access %B : !sdfg.array<f64 ["N"]>
    %0 = sdfg.map "_Add__map" ["__i0" = "0:N"] ins("B" = %B_0["0:N"] : !sdfg.array<f64 ["N"]>) outs("__tmp5" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%B_2: !sdfg.array<f64 ["N"]>):
      %__out = sdfg.tasklet "_Add_" ins("__in1" = %B_2["__i0"] : !sdfg.array<f64 ["N"]>) outs("__out" : f64) {
      ^bb0(%__in1: f64):
        %cst = arith.constant 1.000000e+00 : f64
        %1 = arith.addf %__in1, %cst : f64
        sdfg.yield %1 : f64
      }
      sdfg.exit("__tmp5" = %__out["__i0"] : f64)
    }
    %tmp_1 = sdfg.access %tmp writes(%0["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
  sdfg.state @assign_13_4 {
    %tmp_0 = sdfg.access %tmp : !sdfg.array<f64 ["N"]>
    %B_1 = sdfg.access %B writes(%tmp_0["0:N" -> "0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
  sdfg.state @if_8_guard {
  }
  sdfg.state @if_8_end {
  }
  sdfg.state @if_8_else_11_else_8 {
  }
  sdfg.state @if_8_else_11_BinOp_11 {
    %A_0 = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %0 = sdfg.map "_Sub__map" ["__i0" = "0:N"] ins("A" = %A_0["0:N"] : !sdfg.array<f64 ["N"]>) outs("__tmp4" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%A_2: !sdfg.array<f64 ["N"]>):
      %__out = sdfg.tasklet "_Sub_" ins("__in1" = %A_2["__i0"] : !sdfg.array<f64 ["N"]>) outs("__out" : f64) {
      ^bb0(%__in1: f64):
        %cst = arith.constant 1.000000e+00 : f64
        %1 = arith.subf %__in1, %cst : f64
        sdfg.yield %1 : f64
      }
      sdfg.exit("__tmp4" = %__out["__i0"] : f64)
    }
    %__tmp4_1 = sdfg.access %__tmp4 writes(%0["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
  sdfg.state @if_8_else_11_assign_11_8 {
    %__tmp4_0 = sdfg.access %__tmp4 : !sdfg.array<f64 ["N"]>
    %B_1 = sdfg.access %B writes(%__tmp4_0["0:N" -> "0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
  sdfg.state @if_8_else_11_end {
  }
  sdfg.state @if_8_body_if_8 {
  }
  sdfg.state @if_8_body_BinOp_9 {
    %A_0 = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %0 = sdfg.map "_Mult__map" ["__i0" = "0:N"] ins("A" = %A_0["0:N"] : !sdfg.array<f64 ["N"]>) outs("__tmp3" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%A_2: !sdfg.array<f64 ["N"]>):
      %__out = sdfg.tasklet "_Mult_" ins("__in1" = %A_2["__i0"] : !sdfg.array<f64 ["N"]>) outs("__out" : f64) {
      ^bb0(%__in1: f64):
        %cst = arith.constant 2.000000e+00 : f64
        %1 = arith.mulf %__in1, %cst : f64
        sdfg.yield %1 : f64
      }
      sdfg.exit("__tmp3" = %__out["__i0"] : f64)
    }
    %__tmp3_1 = sdfg.access %__tmp3 writes(%0["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
  sdfg.state @if_8_body_assign_9_8 {
    %__tmp3_0 = sdfg.access %__tmp3 : !sdfg.array<f64 ["N"]>
    %B_1 = sdfg.access %B writes(%__tmp3_0["0:N" -> "0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
  sdfg.state @if_8_body_end {
  }
  sdfg.state @for_6_init {
  }
  sdfg.state @for_6_guard {
  }
  sdfg.state @for_6_end {
  }
  sdfg.state @for_6_latch {
  }
  sdfg.state @for_6_for_6_6 {
  }
  sdfg.state @for_6_slice_A_7 {
    %A_0 = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %__tmp1_1 = sdfg.access %__tmp1 writes(%A_0["i" -> "0"] : !sdfg.array<f64 ["N"]>) : !sdfg.scalar<f64>
  }
  sdfg.state @for_6_BinOp_7 {
    %s_0 = sdfg.access %s : !sdfg.scalar<f64>
    %__tmp1_1 = sdfg.access %__tmp1 : !sdfg.scalar<f64>
    %__out = sdfg.tasklet "_Add_" ins("__in1" = %s_0["0"] : !sdfg.scalar<f64>, "__in2" = %__tmp1_1["0"] : !sdfg.scalar<f64>) outs("__out" : f64) {
    ^bb0(%__in1: f64, %__in2: f64):
      %0 = arith.addf %__in1, %__in2 : f64
      sdfg.yield %0 : f64
    }
    %__tmp2_2 = sdfg.access %__tmp2 writes(%__out["0"] : f64) : !sdfg.scalar<f64>
  }
  sdfg.state @for_6_assign_7_8 {
    %__tmp2_0 = sdfg.access %__tmp2 : !sdfg.scalar<f64>
    %__out = sdfg.tasklet "assign_7_8" ins("__inp" = %__tmp2_0["0"] : !sdfg.scalar<f64>) outs("__out" : f64) {
    ^bb0(%__inp: f64):
      sdfg.yield %__inp : f64
    }
    %s_1 = sdfg.access %s writes(%__out["0"] : f64) : !sdfg.scalar<f64>
  }
  sdfg.edge @init -> @assign_5_4
  sdfg.edge @BinOp_12 -> @assign_13_4
  sdfg.edge @if_8_end -> @BinOp_12
  sdfg.edge @if_8_else_11_else_8 -> @if_8_else_11_BinOp_11
  sdfg.edge @if_8_else_11_BinOp_11 -> @if_8_else_11_assign_11_8
  sdfg.edge @if_8_guard -> @if_8_else_11_else_8 if "(not (s > 0))"
  sdfg.edge @if_8_else_11_end -> @if_8_end
  sdfg.edge @if_8_else_11_assign_11_8 -> @if_8_else_11_end
  sdfg.edge @if_8_body_if_8 -> @if_8_body_BinOp_9
  sdfg.edge @if_8_body_BinOp_9 -> @if_8_body_assign_9_8
  sdfg.edge @if_8_guard -> @if_8_body_if_8 if "(s > 0)"
  sdfg.edge @if_8_body_end -> @if_8_end
  sdfg.edge @if_8_body_assign_9_8 -> @if_8_body_end
  sdfg.edge @for_6_for_6_6 -> @for_6_slice_A_7
  sdfg.edge @for_6_slice_A_7 -> @for_6_BinOp_7
  sdfg.edge @for_6_BinOp_7 -> @for_6_assign_7_8
  sdfg.edge @assign_5_4 -> @for_6_init
  sdfg.edge @for_6_end -> @if_8_guard
  sdfg.edge @for_6_init -> @for_6_guard assign("i" = "0")
  sdfg.edge @for_6_latch -> @for_6_guard assign("i" = "(i + 1)")
  sdfg.edge @for_6_guard -> @for_6_end if "(not (i < N))"
  sdfg.edge @for_6_guard -> @for_6_for_6_6 if "(i < N)"
  sdfg.edge @for_6_assign_7_8 -> @for_6_latch
}
