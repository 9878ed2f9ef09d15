// RUN: sdfg-opt %s --sdfg-fpga-transform | sdfg-translate --emit-hls | FileCheck %s
// RUN: %S/Inputs/simulate.sh %s %t %hls_include N=9 T=3 | FileCheck %s --check-prefix=SIM

// Control flow: a loop region is a for loop over its variable, a
// conditional block an if/else chain, and a region whose blocks are no
// chain (here a loop written as a state machine) a loop over a switch on
// the current block. Symbols the program assigns are variables of the
// kernel; scalars that conditions read are read as integers.

// CHECK-LABEL: void control(int32_t k, double *fpga_A, long long N, long long T) {
// CHECK: long long n = 0;
// CHECK-NEXT: (void)n;
// CHECK-NEXT: long long t = 0;
// CHECK-NEXT: (void)t;
// CHECK-NEXT: int [[B:block_[0-9]+]] = 0;
// CHECK-NEXT: while ([[B]] >= 0) {
// CHECK-NEXT: switch ([[B]]) {
// CHECK-NEXT: case 0: {
// CHECK-NEXT: for (t = 0; ((1 - T) + t) <= 0; t = 1 + t) {
// CHECK-NEXT: // state step
// CHECK-NEXT: half_{{[0-9]+}}(fpga_A, N);
// CHECK: case 1: {
// CHECK-NEXT: if ((1 - ((long long)k)) <= 0) {
// CHECK-NEXT: // state first
// CHECK: } else {
// CHECK-NEXT: // state last
// CHECK: n = 0;
// CHECK-NEXT: [[B]] = 2;
// CHECK: case 2: {
// CHECK-NEXT: // state guard
// CHECK-NEXT: if (((0 - 2) + n) <= 0) {
// CHECK-NEXT: [[B]] = 3;
// CHECK-NEXT: }
// CHECK-NEXT: else if ((3 - n) <= 0) {
// CHECK-NEXT: [[B]] = 4;
// CHECK-NEXT: }
// CHECK-NEXT: else [[B]] = -1;
// CHECK: case 3: {
// CHECK-NEXT: // state body
// CHECK-NEXT: count_map_{{[0-9]+}}(fpga_A, n);
// CHECK: n = 1 + n;

// SIM: 1 outputs match
sdfg.sdfg @control(%A: !sdfg.array<f64 ["N"]> as "A", %k: !sdfg.scalar<i32> as "k") symbols {N = i64, T = i64, t = i64, n = i64} {
  sdfg.loop @time var "t" init "0" cond "t < T" update "t + 1" {
    sdfg.state @step {
      %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
      %m = sdfg.map "half" ["i" = "0:N"] ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("A" : !sdfg.array<f64 ["N"]>) {
      ^bb0(%ai: !sdfg.array<f64 ["N"]>):
        %t = sdfg.tasklet "half" ins("x" = %ai["i"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) {
        ^bb0(%x: f64):
          %h = arith.constant 0.5 : f64
          %y = arith.mulf %x, %h : f64
          sdfg.yield %y : f64
        }
        sdfg.exit ("A" = %t["i"] : f64)
      }
      %w = sdfg.access %A writes(%m["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    }
  }
  sdfg.conditional @sign {
    sdfg.branch @pos if "k > 0" {
      sdfg.state @first {
        %t = sdfg.tasklet "one" outs("y" : f64) {
          %one = arith.constant 1.0 : f64
          sdfg.yield %one : f64
        }
        %w = sdfg.access %A writes(%t["0"] : f64) : !sdfg.array<f64 ["N"]>
      }
    }
    sdfg.branch @other {
      sdfg.state @last {
        %t = sdfg.tasklet "two" outs("y" : f64) {
          %two = arith.constant 2.0 : f64
          sdfg.yield %two : f64
        }
        %w = sdfg.access %A writes(%t["N - 1"] : f64) : !sdfg.array<f64 ["N"]>
      }
    }
  }
  sdfg.state @guard {
  }
  sdfg.state @body {
    %t = sdfg.tasklet "count" outs("y" : f64) {
      %c = sdfg.sym "n" : i64
      %f = arith.sitofp %c : i64 to f64
      sdfg.yield %f : f64
    }
    %w = sdfg.access %A writes(%t["n"] : f64) : !sdfg.array<f64 ["N"]>
  }
  sdfg.state @done {
  }
  sdfg.edge @time -> @sign
  sdfg.edge @sign -> @guard assign("n" = "0")
  sdfg.edge @guard -> @body if "n < 3"
  sdfg.edge @body -> @guard assign("n" = "n + 1")
  sdfg.edge @guard -> @done if "not (n < 3)"
}
