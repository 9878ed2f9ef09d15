// RUN: sdfg-opt %s --split-input-file --sdfg-reduce-peeling | FileCheck %s
// RUN: sdfg-opt %s --split-input-file --sdfg-reduce-peeling="label=leave" --verify-diagnostics -o /dev/null
// RUN: sdfg-opt %s --split-input-file --sdfg-reduce-peeling="param=i" | FileCheck %s --check-prefix=PARAM
// RUN: not sdfg-opt %s --split-input-file --sdfg-reduce-peeling="depth=2" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: sdfg-reduce-peeling: unknown option `depth` (the options are label, level and param)

// The same numbers before and after, for the programs of the first part.
// RUN: %python -c "import sys; open(sys.argv[2], 'w').write(open(sys.argv[1]).read().split('// ' + '-' * 5)[0])" %s %t.before.mlir
// RUN: sdfg-opt %t.before.mlir --sdfg-reduce-peeling -o %t.after.mlir
// RUN: rm -rf %t.b1 %t.a1 %t.b2 %t.a2
// RUN: sdfg-run %t.before.mlir --function row_sums --set N=23 --seed 5 --out %t.b1 > /dev/null
// RUN: sdfg-run %t.after.mlir --function row_sums --set N=23 --seed 5 --out %t.a1 > /dev/null
// RUN: %python %S/../Target/HLS/Inputs/compare.py %t.b1 %t.a1 | FileCheck %s --check-prefix=SAME
// RUN: sdfg-run %t.before.mlir --function block_products --set K=13 --seed 6 --out %t.b2 > /dev/null
// RUN: sdfg-run %t.after.mlir --function block_products --set K=13 --seed 6 --out %t.a2 > /dev/null
// RUN: %python %S/../Target/HLS/Inputs/compare.py %t.b2 %t.a2 | FileCheck %s --check-prefix=SAME
// RUN: rm -rf %t.b3 %t.a3
// RUN: sdfg-run %t.before.mlir --function peel_through_nested_maps --set N=300 --seed 7 --out %t.b3 > /dev/null
// RUN: sdfg-run %t.after.mlir --function peel_through_nested_maps --set N=300 --seed 7 --out %t.a3 > /dev/null
// RUN: %python %S/../Target/HLS/Inputs/compare.py %t.b3 %t.a3 | FileCheck %s --check-prefix=SAME
// SAME: 1 outputs match

// sdfg-accumulate-transient's row sums: each row's accumulator starts at
// 0 and j adds A[i, j] into it. The first column now writes the
// accumulator, the other seven add into it, and the identity map goes.
// CHECK-LABEL: sdfg.sdfg @row_sums
// CHECK-NOT: init_T_acc
// CHECK: %[[P:.*]] = sdfg.map "cols_peeled" ["j" = "0"] schedule Sequential ins("a" = %{{.*}}["i, 0"]
// CHECK: sdfg.exit("T" = %{{.*}}["0"] : f64)
// CHECK: %[[Z:.*]] = sdfg.access %T_acc writes(%[[P]]["0"] : !sdfg.array<f64 ["1"]>)
// CHECK: %[[M:.*]] = sdfg.map "cols" ["j" = "1:8"] schedule Sequential ins("a" = %{{.*}}["i, 1:8"] {{.*}} after(%[[Z]] : !sdfg.array<f64 ["1"]>)
// CHECK: sdfg.exit("T" = %{{.*}}["0", wcr sum] : f64)
// CHECK: sdfg.access %T_acc writes(%[[M]]["0", volume "7", wcr sum] : !sdfg.array<f64 ["1"]>)
// PARAM-LABEL: sdfg.sdfg @row_sums
// PARAM: init_T_acc
sdfg.sdfg @row_sums(%A: !sdfg.array<f64 ["N", "8"]> as "A", %T: !sdfg.array<f64 ["1"]> as "T") symbols {N = i64} {
  %T_acc = sdfg.alloc "T_acc" : !sdfg.array<f64 ["1"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "8"]>
    %m = sdfg.map "rows" ["i" = "0:N"] ins("a" = %a["0:N, 0:8"] : !sdfg.array<f64 ["N", "8"]>) outs("T" : !sdfg.array<f64 ["1"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N", "8"]>):
      %z = sdfg.map "init_T_acc" ["__acc0" = "0:1"] outs("T_acc" : !sdfg.array<f64 ["1"]>) {
        %o = sdfg.tasklet "init_T_acc" outs("o" : f64) {
          %cst = arith.constant 0.000000e+00 : f64
          sdfg.yield %cst : f64
        }
        sdfg.exit("T_acc" = %o["__acc0"] : f64)
      }
      %t0 = sdfg.access %T_acc writes(%z["0"] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
      %c = sdfg.map "cols" ["j" = "0:8"] schedule Sequential ins("a" = %ai["i, 0:8"] : !sdfg.array<f64 ["N", "8"]>) outs("T" : !sdfg.array<f64 ["1"]>) after(%t0 : !sdfg.array<f64 ["1"]>) {
      ^bb0(%aj: !sdfg.array<f64 ["N", "8"]>):
        %y = sdfg.tasklet "t" ins("x" = %aj["i, j"] : !sdfg.array<f64 ["N", "8"]>) outs("y" : f64) {
        ^bb0(%x: f64):
          sdfg.yield %x : f64
        }
        sdfg.exit("T" = %y["0", wcr sum] : f64)
      }
      %t1 = sdfg.access %T_acc writes(%c["0", wcr sum] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
      sdfg.exit("T" = %t1["0" -> "0", wcr sum] : !sdfg.array<f64 ["1"]>)
    }
    %t = sdfg.access %T writes(%m["0", wcr sum] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
  }
}

// A 4 x 8 block of products over k, the block's columns in vectors of
// four lanes (the paper's register block): k = 0 writes the block, which
// the product's identity, 1, filled before. The reduced parameter is the
// first one the output does not move with, k; with `param=i`, which the
// output moves with, nothing changes.
// CHECK-LABEL: sdfg.sdfg @block_products
// CHECK-NOT: init_P
// CHECK: %[[P:.*]] = sdfg.map "block_peeled" ["k" = "0", "i" = "0:4", "j" = "0:8:4"]
// CHECK: sdfg.exit("P" = %{{.*}}["i, j:j + 4"] : vector<4xf64>)
// CHECK: %[[Z:.*]] = sdfg.access %P writes(%[[P]]["0:4, 0:8"] : !sdfg.array<f64 ["4", "8"]>)
// CHECK: sdfg.map "block" ["k" = "1:K", "i" = "0:4", "j" = "0:8:4"] {{.*}} after(%[[Z]] : !sdfg.array<f64 ["4", "8"]>)
// CHECK: sdfg.exit("P" = %{{.*}}["i, j:j + 4", wcr product] : vector<4xf64>)
// PARAM-LABEL: sdfg.sdfg @block_products
// PARAM: init_P
// PARAM-NOT: peeled
sdfg.sdfg @block_products(%A: !sdfg.array<f64 ["K", "4", "8"]> as "A", %P: !sdfg.array<f64 ["4", "8"]> as "P") symbols {K = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["K", "4", "8"]>
    %z = sdfg.map "init_P" ["p0" = "0:4", "p1" = "0:8"] outs("P" : !sdfg.array<f64 ["4", "8"]>) {
      %o = sdfg.tasklet "one" outs("o" : f64) {
        %one = arith.constant 1.000000e+00 : f64
        sdfg.yield %one : f64
      }
      sdfg.exit("P" = %o["p0, p1"] : f64)
    }
    %p0 = sdfg.access %P writes(%z["0:4, 0:8"] : !sdfg.array<f64 ["4", "8"]>) : !sdfg.array<f64 ["4", "8"]>
    %m = sdfg.map "block" ["k" = "0:K", "i" = "0:4", "j" = "0:8:4"] ins("a" = %a["0:K, 0:4, 0:8"] : !sdfg.array<f64 ["K", "4", "8"]>) outs("P" : !sdfg.array<f64 ["4", "8"]>) after(%p0 : !sdfg.array<f64 ["4", "8"]>) {
    ^bb0(%ak: !sdfg.array<f64 ["K", "4", "8"]>):
      %v = sdfg.tasklet "scale" ins("x" = %ak["k, i, j:j + 4"] : !sdfg.array<f64 ["K", "4", "8"]>) outs("y" : vector<4xf64>) {
      ^bb0(%x: vector<4xf64>):
        %h = arith.constant dense<5.000000e-01> : vector<4xf64>
        %s = arith.addf %x, %h : vector<4xf64>
        sdfg.yield %s : vector<4xf64>
      }
      sdfg.exit("P" = %v["i, j:j + 4", wcr product] : vector<4xf64>)
    }
    %p1 = sdfg.access %P writes(%m["0:4, 0:8", wcr product] : !sdfg.array<f64 ["4", "8"]>) : !sdfg.array<f64 ["4", "8"]>
  }
}

// Peeling through a nested map: each (k, i) doubles A[k, i] into the
// transient t and a map over j adds t into S[i, j]. One k writes every
// element of S once (i moves the rows, j the columns), so k = 0 writes S
// plainly at every level, and the copy gets a t of its own: a transient
// used in two maps would be allocated around both, shared by their
// parallel iterations.
// CHECK-LABEL: sdfg.sdfg @peel_through_nested_maps
// CHECK: %[[T:.*]] = sdfg.alloc "t" : !sdfg.array<f64 ["1"]>
// CHECK: %[[OWN:.*]] = sdfg.alloc "t_peeled" : !sdfg.array<f64 ["1"]>
// CHECK-NOT: init_S
// CHECK: %[[P:.*]] = sdfg.map "sweeps_peeled" ["k" = "0", "i" = "0:N"]
// CHECK: sdfg.access %[[OWN]] writes
// CHECK: sdfg.exit("S" = %{{.*}}["i, j"] : f64)
// CHECK: sdfg.exit("S" = %{{.*}}["i, 0:2"] : !sdfg.array<f64 ["N", "2"]>)
// CHECK: %[[Z:.*]] = sdfg.access %S writes(%[[P]]["0:N, 0:2"] : !sdfg.array<f64 ["N", "2"]>)
// CHECK: sdfg.map "sweeps" ["k" = "1:4", "i" = "0:N"] {{.*}} after(%[[Z]] : !sdfg.array<f64 ["N", "2"]>)
// CHECK: sdfg.access %[[T]] writes
// CHECK: sdfg.exit("S" = %{{.*}}["i, j", wcr sum] : f64)
sdfg.sdfg @peel_through_nested_maps(%A: !sdfg.array<f64 ["4", "N"]> as "A", %S: !sdfg.array<f64 ["N", "2"]> as "S") symbols {N = i64} {
  %t = sdfg.alloc "t" : !sdfg.array<f64 ["1"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4", "N"]>
    %z = sdfg.map "init_S" ["s0" = "0:N", "s1" = "0:2"] outs("S" : !sdfg.array<f64 ["N", "2"]>) {
      %o = sdfg.tasklet "zero" outs("o" : f64) {
        %zero = arith.constant 0.000000e+00 : f64
        sdfg.yield %zero : f64
      }
      sdfg.exit("S" = %o["s0, s1"] : f64)
    }
    %s0 = sdfg.access %S writes(%z["0:N, 0:2"] : !sdfg.array<f64 ["N", "2"]>) : !sdfg.array<f64 ["N", "2"]>
    %m = sdfg.map "sweeps" ["k" = "0:4", "i" = "0:N"] ins("a" = %a["0:4, 0:N"] : !sdfg.array<f64 ["4", "N"]>) outs("S" : !sdfg.array<f64 ["N", "2"]>) after(%s0 : !sdfg.array<f64 ["N", "2"]>) {
    ^bb0(%ak: !sdfg.array<f64 ["4", "N"]>):
      %x = sdfg.tasklet "double" ins("x" = %ak["k, i"] : !sdfg.array<f64 ["4", "N"]>) outs("y" : f64) {
      ^bb0(%v: f64):
        %d = arith.addf %v, %v : f64
        sdfg.yield %d : f64
      }
      %tw = sdfg.access %t writes(%x["0"] : f64) : !sdfg.array<f64 ["1"]>
      %inner = sdfg.map "columns" ["j" = "0:2"] ins("t" = %tw["0"] : !sdfg.array<f64 ["1"]>) outs("S" : !sdfg.array<f64 ["N", "2"]>) {
      ^bb0(%tj: !sdfg.array<f64 ["1"]>):
        %y = sdfg.tasklet "add" ins("v" = %tj["0"] : !sdfg.array<f64 ["1"]>) outs("y" : f64) {
        ^bb0(%v: f64):
          sdfg.yield %v : f64
        }
        sdfg.exit("S" = %y["i, j", wcr sum] : f64)
      }
      sdfg.exit("S" = %inner["i, 0:2", wcr sum] : !sdfg.array<f64 ["N", "2"]>)
    }
    %s1 = sdfg.access %S writes(%m["0:N, 0:2", wcr sum] : !sdfg.array<f64 ["N", "2"]>) : !sdfg.array<f64 ["N", "2"]>
  }
}

// -----

// The accumulator starts at 1, which is not a sum's identity: the first
// iteration cannot simply write.
// CHECK-LABEL: sdfg.sdfg @do_not_peel_from_a_non_identity
// CHECK: init_S
// CHECK-NOT: peeled
sdfg.sdfg @do_not_peel_from_a_non_identity(%A: !sdfg.array<f64 ["8"]> as "A", %S: !sdfg.array<f64 ["1"]> as "S") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["8"]>
    %z = sdfg.map "init_S" ["s0" = "0:1"] outs("S" : !sdfg.array<f64 ["1"]>) {
      %o = sdfg.tasklet "one" outs("o" : f64) {
        %one = arith.constant 1.000000e+00 : f64
        sdfg.yield %one : f64
      }
      sdfg.exit("S" = %o["s0"] : f64)
    }
    %s0 = sdfg.access %S writes(%z["0"] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
    // expected-warning @+1 {{sdfg-reduce-peeling does not apply: no map of the sum's identity fills the accumulator just before it}}
    %m = sdfg.map "leave" ["i" = "0:8"] ins("a" = %a["0:8"] : !sdfg.array<f64 ["8"]>) outs("S" : !sdfg.array<f64 ["1"]>) after(%s0 : !sdfg.array<f64 ["1"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["8"]>):
      %t = sdfg.tasklet "t" ins("x" = %ai["i"] : !sdfg.array<f64 ["8"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit("S" = %t["0", wcr sum] : f64)
    }
    %s1 = sdfg.access %S writes(%m["0", wcr sum] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
  }
}

// -----

// Each k adds two columns' values into one element (j does not move the
// output): the first k would write every element twice.
// CHECK-LABEL: sdfg.sdfg @do_not_peel_shared_elements
// CHECK: init_S
// CHECK-NOT: peeled
sdfg.sdfg @do_not_peel_shared_elements(%A: !sdfg.array<f64 ["8", "2"]> as "A", %S: !sdfg.array<f64 ["1"]> as "S") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["8", "2"]>
    %z = sdfg.map "init_S" ["s0" = "0:1"] outs("S" : !sdfg.array<f64 ["1"]>) {
      %o = sdfg.tasklet "zero" outs("o" : f64) {
        %zero = arith.constant 0.000000e+00 : f64
        sdfg.yield %zero : f64
      }
      sdfg.exit("S" = %o["s0"] : f64)
    }
    %s0 = sdfg.access %S writes(%z["0"] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
    // expected-warning @+1 {{sdfg-reduce-peeling does not apply: the iterations of one value of the reduced parameter do not write each element once}}
    %m = sdfg.map "leave" ["k" = "0:8", "j" = "0:2"] ins("a" = %a["0:8, 0:2"] : !sdfg.array<f64 ["8", "2"]>) outs("S" : !sdfg.array<f64 ["1"]>) after(%s0 : !sdfg.array<f64 ["1"]>) {
    ^bb0(%ak: !sdfg.array<f64 ["8", "2"]>):
      %t = sdfg.tasklet "t" ins("x" = %ak["k, j"] : !sdfg.array<f64 ["8", "2"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit("S" = %t["0", wcr sum] : f64)
    }
    %s1 = sdfg.access %S writes(%m["0", wcr sum] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
  }
}

// -----

// The reduction may run no iteration (n is a symbol, not a size): then
// the identity is the result, which a peeled iteration would overwrite.
// CHECK-LABEL: sdfg.sdfg @do_not_peel_possibly_empty
// CHECK: init_S
// CHECK-NOT: peeled
sdfg.sdfg @do_not_peel_possibly_empty(%A: !sdfg.array<f64 ["8"]> as "A", %S: !sdfg.array<f64 ["1"]> as "S") symbols {n = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["8"]>
    %z = sdfg.map "init_S" ["s0" = "0:1"] outs("S" : !sdfg.array<f64 ["1"]>) {
      %o = sdfg.tasklet "zero" outs("o" : f64) {
        %zero = arith.constant 0.000000e+00 : f64
        sdfg.yield %zero : f64
      }
      sdfg.exit("S" = %o["s0"] : f64)
    }
    %s0 = sdfg.access %S writes(%z["0"] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
    // expected-warning @+1 {{sdfg-reduce-peeling does not apply: `i` may run no iteration (its count is `Min(8, n)`)}}
    %m = sdfg.map "leave" ["i" = "0:Min(8, n)"] ins("a" = %a["0:8"] : !sdfg.array<f64 ["8"]>) outs("S" : !sdfg.array<f64 ["1"]>) after(%s0 : !sdfg.array<f64 ["1"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["8"]>):
      %t = sdfg.tasklet "t" ins("x" = %ai["i"] : !sdfg.array<f64 ["8"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit("S" = %t["0", wcr sum] : f64)
    }
    %s1 = sdfg.access %S writes(%m["0", wcr sum] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
  }
}

// -----

// Without an identity map before it, there is nothing to replace.
// CHECK-LABEL: sdfg.sdfg @do_not_peel_without_identity_map
// CHECK-NOT: peeled
sdfg.sdfg @do_not_peel_without_identity_map(%A: !sdfg.array<f64 ["8"]> as "A", %S: !sdfg.array<f64 ["1"]> as "S") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["8"]>
    // expected-warning @+1 {{sdfg-reduce-peeling does not apply: no map of the sum's identity fills the accumulator just before it}}
    %m = sdfg.map "leave" ["i" = "0:8"] ins("a" = %a["0:8"] : !sdfg.array<f64 ["8"]>) outs("S" : !sdfg.array<f64 ["1"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["8"]>):
      %t = sdfg.tasklet "t" ins("x" = %ai["i"] : !sdfg.array<f64 ["8"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit("S" = %t["0", wcr sum] : f64)
    }
    %s1 = sdfg.access %S writes(%m["0", wcr sum] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
  }
}
