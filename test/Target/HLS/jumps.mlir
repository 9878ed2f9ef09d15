// RUN: sdfg-opt %s --sdfg-fpga-transform | sdfg-translate --emit-hls | FileCheck %s
// RUN: %S/Inputs/simulate.sh %s %t %hls_include N=9 | FileCheck %s --check-prefix=SIM

// Jumps. A do-while loop (`inverted`) is a C++ do/while whose test does
// the update, before or after the condition, so that `continue` goes
// through both. A break or continue in a state machine (a loop over a
// switch) notes the jump, stops the machine after the block that jumped,
// and is taken outside it. A chain of blocks whose edges assign symbols
// assigns them between the blocks, so that a break at the end of a
// branch is C++'s own.

// CHECK-LABEL: void jumps(
// CHECK: {{^ *}}i = 0;
// CHECK-NEXT: do {
// CHECK-NEXT: int [[J:jump_[0-9]+]] = 0;
// CHECK-NEXT: int [[B:block_[0-9]+]] = 0;
// CHECK: case 1: {
// CHECK-NEXT: [[J]] = 2;
// CHECK-NEXT: if ([[J]] != 0) { [[B]] = -1; break; }
// CHECK: if ([[J]] == 1) {
// CHECK-NEXT: break;
// CHECK-NEXT: } else if ([[J]] == 2) {
// CHECK-NEXT: continue;
// CHECK-NEXT: }
// CHECK-NEXT: } while ((i = 1 + i, ((1 - N) + i) <= 0));
// CHECK-NEXT: for (j = 0; ((1 - N) + j) <= 0; j = 1 + j) {
// CHECK: if ((4 - j) <= 0) {
// CHECK-NEXT: // state mark
// CHECK-NEXT: stopped = j;
// CHECK-NEXT: break;

// SIM: 1 outputs match
sdfg.sdfg @jumps(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64, i = i64, j = i64, stopped = i64} {
  sdfg.loop @odd var "i" init "0" cond "i < N" update "i + 1" inverted update_before_condition {
    sdfg.state @check_odd {
    }
    sdfg.continue @skip_even
    sdfg.state @bump {
      %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
      %t = sdfg.tasklet "bump" ins("x" = %a["i"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        %one = arith.constant 1.0 : f64
        %y = arith.addf %x, %one : f64
        sdfg.yield %y : f64
      }
      %b = sdfg.access %A writes(%t["i"] : f64) : !sdfg.array<f64 ["N"]>
    }
    sdfg.edge @check_odd -> @skip_even if "i % 2 == 0"
    sdfg.edge @check_odd -> @bump if "i % 2 == 1"
  }
  sdfg.loop @first var "j" init "0" cond "j < N" update "j + 1" {
    sdfg.state @twice {
      %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
      %t = sdfg.tasklet "twice" ins("x" = %a["j"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        %y = arith.addf %x, %x : f64
        sdfg.yield %y : f64
      }
      %b = sdfg.access %A writes(%t["j"] : f64) : !sdfg.array<f64 ["N"]>
    }
    sdfg.conditional @enough {
      sdfg.branch @yes if "j >= 4" {
        sdfg.state @mark {
        }
        sdfg.break @stop
        sdfg.edge @mark -> @stop assign("stopped" = "j")
      }
    }
    sdfg.edge @twice -> @enough
  }
  sdfg.state @record {
    %t = sdfg.tasklet "record" outs("y" : f64) {
      %s = sdfg.sym "stopped" : i64
      %y = arith.sitofp %s : i64 to f64
      sdfg.yield %y : f64
    }
    %b = sdfg.access %A writes(%t["0"] : f64) : !sdfg.array<f64 ["N"]>
  }
  sdfg.edge @odd -> @first
  sdfg.edge @first -> @record
}
