// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-scalar-to-symbol)' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-scalar-to-symbol,sdfg-validate)' -o /dev/null
// RUN: sdfg-run %s --function promote_loop_accumulator --set N=5 --seed 2 | FileCheck %s --check-prefix=SAME
// RUN: sdfg-run %s --function promote_loop_accumulator --set N=5 --seed 2 --pass-pipeline='builtin.module(sdfg-scalar-to-symbol)' | FileCheck %s --check-prefix=SAME
// RUN: sdfg-run %s --function promote_index_read_in_map --seed 2 | FileCheck %s --check-prefix=MAP
// RUN: sdfg-run %s --function promote_index_read_in_map --seed 2 --pass-pipeline='builtin.module(sdfg-scalar-to-symbol)' | FileCheck %s --check-prefix=MAP

// s = 0; for i in range(N): s = s + A[i]; B[0] = s if s > 0 else -s
// s is a float an inter-state condition reads: both writes become
// assignments. The start state's write gets a new start state before it;
// the loop body's write reads A[i] and s before the body runs. The
// program computes the same B.
// SAME: B: <f8[1] checksum [[SUM:.*]]
// CHECK-LABEL: sdfg.sdfg @promote_loop_accumulator
// CHECK-SAME: symbols {N = i64, i = i64, s = f64}
// CHECK-NOT: sdfg.alloc "s"
// CHECK: sdfg.state @init_s {
// CHECK-NEXT: }
// CHECK-NEXT: sdfg.state @init {
// CHECK-NEXT: }
// CHECK: sdfg.state @body_s {
// CHECK-NEXT: }
// CHECK-NEXT: sdfg.state @body {
// CHECK-NEXT: }
// CHECK: sdfg.tasklet "pos" outs("o" : f64) {
// CHECK-NEXT: sdfg.sym "s" : f64
// CHECK: sdfg.edge @guard -> @body_s if "i < N"
// CHECK: sdfg.edge @body_s -> @body assign("s" = "(s + A[i])")
// CHECK: sdfg.edge @init_s -> @init assign("s" = "0.0")
sdfg.sdfg @promote_loop_accumulator(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["1"]> as "B") symbols {N = i64, i = i64} {
  %s = sdfg.alloc "s" : !sdfg.scalar<f64>
  sdfg.state @init {
    %z = sdfg.tasklet "zero" outs("o" : f64) {
      %c = arith.constant 0.0 : f64
      sdfg.yield %c : f64
    }
    %sw = sdfg.access %s writes(%z["0"] : f64) : !sdfg.scalar<f64>
  }
  sdfg.state @guard {
  }
  sdfg.state @body {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %sr = sdfg.access %s : !sdfg.scalar<f64>
    %o = sdfg.tasklet "add" ins("x" = %sr["0"] : !sdfg.scalar<f64>, "y" = %a["i"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
    ^bb0(%x: f64, %y: f64):
      %v = arith.addf %x, %y : f64
      sdfg.yield %v : f64
    }
    %sw = sdfg.access %s writes(%o["0"] : f64) : !sdfg.scalar<f64>
  }
  sdfg.state @positive {
    %sr = sdfg.access %s : !sdfg.scalar<f64>
    %o = sdfg.tasklet "pos" ins("x" = %sr["0"] : !sdfg.scalar<f64>) outs("o" : f64) {
    ^bb0(%x: f64):
      sdfg.yield %x : f64
    }
    %b = sdfg.access %B writes(%o["0"] : f64) : !sdfg.array<f64 ["1"]>
  }
  sdfg.state @negative {
    %sr = sdfg.access %s : !sdfg.scalar<f64>
    %o = sdfg.tasklet "neg" ins("x" = %sr["0"] : !sdfg.scalar<f64>) outs("o" : f64) {
    ^bb0(%x: f64):
      %n = arith.negf %x : f64
      sdfg.yield %n : f64
    }
    %b = sdfg.access %B writes(%o["0"] : f64) : !sdfg.array<f64 ["1"]>
  }
  sdfg.edge @init -> @guard assign("i" = "0")
  sdfg.edge @guard -> @body if "i < N"
  sdfg.edge @body -> @guard assign("i" = "i + 1")
  sdfg.edge @guard -> @positive if "i >= N and s > 0"
  sdfg.edge @guard -> @negative if "i >= N and s <= 0"
}

// -----

// An integer copied from an array element and read inside a map: the map
// input that carried it goes, and the tasklet reads the symbol.
// MAP: B: <i8[4] checksum [[CHECKSUM:.*]]
// CHECK-LABEL: sdfg.sdfg @promote_index_read_in_map
// CHECK-SAME: symbols {k = i64}
// CHECK: sdfg.map "scale" ["j" = "0:4"] ins("b" = %{{.*}}["0:4"] : !sdfg.array<i64 ["4"]>)
// CHECK: sdfg.tasklet "mul" ins("v" = %{{.*}}["j"] : !sdfg.array<i64 ["4"]>) outs("o" : i64) {
// CHECK-NEXT: ^bb0(%{{.*}}: i64):
// CHECK-NEXT: sdfg.sym "k" : i64
// CHECK: sdfg.edge @s_k -> @s assign("k" = "I[2]")
sdfg.sdfg @promote_index_read_in_map(%I: !sdfg.array<i64 ["4"]> as "I", %B: !sdfg.array<i64 ["4"]> as "B") {
  %k = sdfg.alloc "k" : !sdfg.scalar<i64>
  sdfg.state @s {
    %i = sdfg.access %I : !sdfg.array<i64 ["4"]>
    %kw = sdfg.access %k writes(%i["2" -> "0"] : !sdfg.array<i64 ["4"]>) : !sdfg.scalar<i64>
    %b = sdfg.access %B : !sdfg.array<i64 ["4"]>
    %m = sdfg.map "scale" ["j" = "0:4"] ins("k" = %kw["0"] : !sdfg.scalar<i64>, "b" = %b["0:4"] : !sdfg.array<i64 ["4"]>) outs("B" : !sdfg.array<i64 ["4"]>) {
    ^bb0(%kin: !sdfg.scalar<i64>, %bin: !sdfg.array<i64 ["4"]>):
      %o = sdfg.tasklet "mul" ins("x" = %kin["0"] : !sdfg.scalar<i64>, "v" = %bin["j"] : !sdfg.array<i64 ["4"]>) outs("o" : i64) {
      ^bb0(%x: i64, %v: i64):
        %p = arith.muli %x, %v : i64
        sdfg.yield %p : i64
      }
      sdfg.exit("B" = %o["j"] : i64)
    }
    %bw = sdfg.access %B writes(%m["0:4"] : !sdfg.array<i64 ["4"]>) : !sdfg.array<i64 ["4"]>
  }
}

// -----

// Scalars that stay: a float no inter-state edge reads, an integer
// written inside a map, one read by a library node, and one computed with
// integer division (whose C and Python meanings differ).
// CHECK-LABEL: sdfg.sdfg @keep_scalars
// CHECK: sdfg.alloc "f"
// CHECK: sdfg.alloc "m"
// CHECK: sdfg.alloc "d"
// CHECK-NOT: sdfg.edge
sdfg.sdfg @keep_scalars(%A: !sdfg.array<i64 ["4"]> as "A", %X: !sdfg.array<f64 ["4"]> as "X") {
  %f = sdfg.alloc "f" : !sdfg.scalar<f64>
  %m = sdfg.alloc "m" : !sdfg.scalar<i64>
  %d = sdfg.alloc "d" : !sdfg.scalar<i64>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<i64 ["4"]>
    %x = sdfg.access %X : !sdfg.array<f64 ["4"]>
    %fw = sdfg.access %f writes(%x["1" -> "0"] : !sdfg.array<f64 ["4"]>) : !sdfg.scalar<f64>
    %o = sdfg.tasklet "use" ins("v" = %fw["0"] : !sdfg.scalar<f64>) outs("o" : f64) {
    ^bb0(%v: f64):
      sdfg.yield %v : f64
    }
    %xw = sdfg.access %X writes(%o["0"] : f64) : !sdfg.array<f64 ["4"]>
    %mm = sdfg.map "inner" ["j" = "0:1"] ins("a" = %a["0"] : !sdfg.array<i64 ["4"]>) outs("m" : !sdfg.scalar<i64>) {
    ^bb0(%ain: !sdfg.array<i64 ["4"]>):
      %t = sdfg.tasklet "t" ins("v" = %ain["0"] : !sdfg.array<i64 ["4"]>) outs("o" : i64) {
      ^bb0(%v: i64):
        sdfg.yield %v : i64
      }
      sdfg.exit("m" = %t["0"] : i64)
    }
    %mw = sdfg.access %m writes(%mm["0"] : !sdfg.scalar<i64>) : !sdfg.scalar<i64>
    %q = sdfg.tasklet "div" ins("v" = %a["3"] : !sdfg.array<i64 ["4"]>) outs("o" : i64) {
    ^bb0(%v: i64):
      %c = arith.constant 2 : i64
      %r = arith.divsi %v, %c : i64
      sdfg.yield %r : i64
    }
    %dw = sdfg.access %d writes(%q["0"] : i64) : !sdfg.scalar<i64>
  }
}
