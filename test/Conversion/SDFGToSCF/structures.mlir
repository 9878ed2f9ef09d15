// RUN: sdfg-opt %s --pass-pipeline='builtin.module(convert-sdfg-to-scf)' | FileCheck %s
// RUN: sdfg-run %s --set N=8 --input S.total=%S/Inputs/seven.npy | FileCheck %s --check-prefix=OUT
// RUN: sdfg-run %s --function transient | FileCheck %s --check-prefix=TRANSIENT

// A structure is lowered as its members, each a container of its own named
// `structure.member` as DaCe names them: a function takes one argument per
// member, and a nested SDFG receives the members of the structure it is
// passed (a scalar by reference, an array with its base index).

// CHECK-LABEL: func.func private @accumulate_scale
// CHECK-SAME: (%{{.*}}: memref<f64>, %{{.*}}: memref<?xf64>, %{{.*}}: index)
// CHECK-LABEL: func.func @accumulate
// CHECK-SAME: (%[[A:.*]]: memref<?xf64>, %[[TOTAL:.*]]: memref<f64>, %[[HIST:.*]]: memref<?xf64>, %{{.*}}: index)
// CHECK: call @accumulate_scale(%[[TOTAL]], %[[HIST]], %{{.*}}) : (memref<f64>, memref<?xf64>, index) -> ()
// S.total starts at 7 and gains A = 0, 1, ..., 7: 35; S.hist[k] = 35 * k.
// OUT: S.total: <f8[] checksum 3.5000000000e1
// OUT: S.hist: <f8[4] checksum 2.1000000000e2
sdfg.sdfg @accumulate(%A: !sdfg.array<f64 ["N"]> as "A", %S: !sdfg.structure<"Acc" members ["total", "hist"] types [!sdfg.scalar<f64>, !sdfg.array<f64 ["4"]>]> as "S") symbols {N = i64} {
  %total = sdfg.member %S "total" : <"Acc" members ["total", "hist"] types [!sdfg.scalar<f64>, !sdfg.array<f64 ["4"]>]> -> !sdfg.scalar<f64>
  sdfg.state @fill {
    %m = sdfg.map "iota" ["i" = "0:N"] outs("A" : !sdfg.array<f64 ["N"]>) {
      %v = sdfg.tasklet "i" outs("o" : f64) {
        %i = sdfg.sym "i" : i64
        %f = arith.sitofp %i : i64 to f64
        sdfg.yield %f : f64
      }
      sdfg.exit ("A" = %v["i"] : f64)
    }
    %a = sdfg.access %A writes(%m["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
  sdfg.state @sum {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %m = sdfg.map "sum" ["i" = "0:N"] ins("A" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("total" : !sdfg.scalar<f64>) {
    ^bb0(%ain: !sdfg.array<f64 ["N"]>):
      %v = sdfg.tasklet "id" ins("x" = %ain["i"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit ("total" = %v["0", wcr sum] : f64)
    }
    %t = sdfg.access %total writes(%m["0", wcr sum] : !sdfg.scalar<f64>) : !sdfg.scalar<f64>
  }
  sdfg.state @scale {
    %s = sdfg.access %S : !sdfg.structure<"Acc" members ["total", "hist"] types [!sdfg.scalar<f64>, !sdfg.array<f64 ["4"]>]>
    %n = sdfg.nested "scale" ins("T" = %s["0"] : !sdfg.structure<"Acc" members ["total", "hist"] types [!sdfg.scalar<f64>, !sdfg.array<f64 ["4"]>]>) outs("T" : !sdfg.structure<"Acc" members ["total", "hist"] types [!sdfg.scalar<f64>, !sdfg.array<f64 ["4"]>]>) {
      sdfg.sdfg @scale(%T: !sdfg.structure<"Acc" members ["total", "hist"] types [!sdfg.scalar<f64>, !sdfg.array<f64 ["4"]>]> as "T") {
        %tt = sdfg.member %T "total" : <"Acc" members ["total", "hist"] types [!sdfg.scalar<f64>, !sdfg.array<f64 ["4"]>]> -> !sdfg.scalar<f64>
        %th = sdfg.member %T "hist" : <"Acc" members ["total", "hist"] types [!sdfg.scalar<f64>, !sdfg.array<f64 ["4"]>]> -> !sdfg.array<f64 ["4"]>
        sdfg.state @s {
          %t = sdfg.access %tt : !sdfg.scalar<f64>
          %m = sdfg.map "k" ["k" = "0:4"] ins("t" = %t["0"] : !sdfg.scalar<f64>) outs("h" : !sdfg.array<f64 ["4"]>) {
          ^bb0(%tin: !sdfg.scalar<f64>):
            %v = sdfg.tasklet "times" ins("t" = %tin["0"] : !sdfg.scalar<f64>) outs("o" : f64) {
            ^bb0(%x: f64):
              %k = sdfg.sym "k" : i64
              %f = arith.sitofp %k : i64 to f64
              %p = arith.mulf %x, %f : f64
              sdfg.yield %p : f64
            }
            sdfg.exit ("h" = %v["k"] : f64)
          }
          %h = sdfg.access %th writes(%m["0:4"] : !sdfg.array<f64 ["4"]>) : !sdfg.array<f64 ["4"]>
        }
      }
    }
    %s2 = sdfg.access %S writes(%n["0"] : !sdfg.structure<"Acc" members ["total", "hist"] types [!sdfg.scalar<f64>, !sdfg.array<f64 ["4"]>]>) : !sdfg.structure<"Acc" members ["total", "hist"] types [!sdfg.scalar<f64>, !sdfg.array<f64 ["4"]>]>
  }
  sdfg.edge @fill -> @sum
  sdfg.edge @sum -> @scale
}

// A transient structure is its members, each allocated (and zero-filled)
// as a transient of its own.
// CHECK-LABEL: func.func @transient
// CHECK: %[[V:.*]] = memref.alloca() : memref<4xf64>
// CHECK: %[[W:.*]] = memref.alloca() : memref<f64>
// B[k] = P.v[k] + P.w = 2 * k + 10: 52.
// TRANSIENT: B: <f8[4] checksum 5.2000000000e1
sdfg.sdfg @transient(%B: !sdfg.array<f64 ["4"]> as "B") {
  %P = sdfg.alloc "P" : !sdfg.structure<"Pair" members ["v", "w"] types [!sdfg.array<f64 ["4"]>, !sdfg.scalar<f64>]>
  %v = sdfg.member %P "v" : <"Pair" members ["v", "w"] types [!sdfg.array<f64 ["4"]>, !sdfg.scalar<f64>]> -> !sdfg.array<f64 ["4"]>
  %w = sdfg.member %P "w" : <"Pair" members ["v", "w"] types [!sdfg.array<f64 ["4"]>, !sdfg.scalar<f64>]> -> !sdfg.scalar<f64>
  sdfg.state @fill {
    %m = sdfg.map "twice" ["k" = "0:4"] outs("v" : !sdfg.array<f64 ["4"]>) {
      %t = sdfg.tasklet "k" outs("o" : f64) {
        %k = sdfg.sym "2*k" : i64
        %f = arith.sitofp %k : i64 to f64
        sdfg.yield %f : f64
      }
      sdfg.exit ("v" = %t["k"] : f64)
    }
    %va = sdfg.access %v writes(%m["0:4"] : !sdfg.array<f64 ["4"]>) : !sdfg.array<f64 ["4"]>
    %ten = sdfg.tasklet "ten" outs("o" : f64) {
      %c = arith.constant 10.0 : f64
      sdfg.yield %c : f64
    }
    %wa = sdfg.access %w writes(%ten["0"] : f64) : !sdfg.scalar<f64>
  }
  sdfg.state @use {
    %va = sdfg.access %v : !sdfg.array<f64 ["4"]>
    %wa = sdfg.access %w : !sdfg.scalar<f64>
    %m = sdfg.map "add" ["k" = "0:4"] ins("v" = %va["0:4"] : !sdfg.array<f64 ["4"]>, "w" = %wa["0"] : !sdfg.scalar<f64>) outs("B" : !sdfg.array<f64 ["4"]>) {
    ^bb0(%vin: !sdfg.array<f64 ["4"]>, %win: !sdfg.scalar<f64>):
      %t = sdfg.tasklet "add" ins("a" = %vin["k"] : !sdfg.array<f64 ["4"]>, "b" = %win["0"] : !sdfg.scalar<f64>) outs("o" : f64) {
      ^bb0(%a: f64, %b: f64):
        %s = arith.addf %a, %b : f64
        sdfg.yield %s : f64
      }
      sdfg.exit ("B" = %t["k"] : f64)
    }
    %b = sdfg.access %B writes(%m["0:4"] : !sdfg.array<f64 ["4"]>) : !sdfg.array<f64 ["4"]>
  }
  sdfg.edge @fill -> @use
}
