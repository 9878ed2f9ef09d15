// RUN: sdfg-opt %s --pass-pipeline='builtin.module(convert-sdfg-to-scf)' | FileCheck %s --check-prefix=SCF
// RUN: sdfg-run %s --set N=5 --emit-object %t.o | FileCheck %s --check-prefix=ONCE
// RUN: g++ -O1 %S/Inputs/persistent_driver.cpp %t.o -o %t.exe
// RUN: %t.exe | FileCheck %s

// Persistent transients of the exported function live in module globals,
// allocated (zeroed) when a call needs more room than the last one left,
// and never freed by a call (persistent.rs). `t` is written before it is
// read; `acc` is read first (a sum into it), so every call zeroes it: the
// result of a call never depends on the calls before it, whether the
// buffers grew, shrank or stayed.

// SCF-DAG: llvm.mlir.global internal @__persistent_t() {{.*}} : !llvm.ptr
// SCF-DAG: llvm.mlir.global internal @__persistent_t_capacity(0 : i64) {{.*}} : i64
// SCF-DAG: llvm.mlir.global internal @__persistent_acc() {{.*}} : !llvm.ptr
// SCF-DAG: llvm.func @calloc(i64, i64) -> !llvm.ptr
// SCF-LABEL: func.func @keep_between_calls
// SCF: scf.if
// SCF: llvm.call @free
// SCF: llvm.call @calloc
// SCF: builtin.unrealized_conversion_cast {{.*}} to memref<?xf64>
// SCF-NOT: memref.alloc(
// SCF-NOT: memref.dealloc
// SCF: return

// ONCE: B: <f8[5] checksum
// CHECK: N=4 sum=18.0
// CHECK-NEXT: N=200000 sum=59999700000.0
// CHECK-NEXT: N=3 sum=9.0
// CHECK-NEXT: N=200000 sum=59999700000.0
sdfg.sdfg @keep_between_calls(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  %t = sdfg.alloc "t" lifetime Persistent : !sdfg.array<f64 ["N"]>
  %acc = sdfg.alloc "acc" lifetime Persistent : !sdfg.array<f64 ["N"]>
  sdfg.state @s0 {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %m:2 = sdfg.map "spread" ["i" = "0:N"] schedule Sequential ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("t" : !sdfg.array<f64 ["N"]>, "acc" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N"]>):
      %v:2 = sdfg.tasklet "spread" ins("x" = %ai["i"] : !sdfg.array<f64 ["N"]>) outs("y" : f64, "z" : f64) {
      ^bb0(%x: f64):
        %c = arith.constant 2.0 : f64
        %y = arith.mulf %x, %c : f64
        sdfg.yield %y, %x : f64, f64
      }
      sdfg.exit ("t" = %v#0["i"] : f64, "acc" = %v#1["i", wcr sum] : f64)
    }
    %tw = sdfg.access %t writes(%m#0["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %aw = sdfg.access %acc writes(%m#1["0:N", wcr sum] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %n = sdfg.map "add" ["i" = "0:N"] schedule Sequential ins("t" = %tw["0:N"] : !sdfg.array<f64 ["N"]>, "acc" = %aw["0:N"] : !sdfg.array<f64 ["N"]>) outs("B" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%ti: !sdfg.array<f64 ["N"]>, %ci: !sdfg.array<f64 ["N"]>):
      %v = sdfg.tasklet "add" ins("x" = %ti["i"] : !sdfg.array<f64 ["N"]>, "y" = %ci["i"] : !sdfg.array<f64 ["N"]>) outs("z" : f64) {
      ^bb0(%x: f64, %y: f64):
        %z = arith.addf %x, %y : f64
        sdfg.yield %z : f64
      }
      sdfg.exit ("B" = %v["i"] : f64)
    }
    %b = sdfg.access %B writes(%n["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}
