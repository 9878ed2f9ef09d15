// RUN: sdfg-opt %s --split-input-file --sdfg-move-loop-into-map | FileCheck %s
// RUN: sdfg-opt %s --split-input-file --sdfg-move-loop-into-map="label=l" --verify-diagnostics -o /dev/null
// RUN: sdfg-opt %s --split-input-file --sdfg-move-loop-into-map="label=other" | FileCheck %s --check-prefix=LABEL
// RUN: sdfg-opt %s --split-input-file --sdfg-move-loop-into-map="calls-only=true" | FileCheck %s --check-prefix=CALLS
// RUN: not sdfg-opt %s --split-input-file --sdfg-move-loop-into-map="depth=2" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: sdfg-move-loop-into-map: unknown option `depth=2` (the options are label=NAME and calls-only=true|false)
// RUN: not sdfg-opt %s --split-input-file --sdfg-move-loop-into-map="calls-only=maybe" 2>&1 | FileCheck %s --check-prefix=BAD-BOOL
// BAD-BOOL: sdfg-move-loop-into-map: calls-only `maybe` is not true or false

// The same numbers before and after, for the programs of the first part.
// RUN: %python -c "import sys; open(sys.argv[2], 'w').write(open(sys.argv[1]).read().split('// ' + '-' * 5)[0])" %s %t.before.mlir
// RUN: sdfg-opt %t.before.mlir --sdfg-move-loop-into-map -o %t.after.mlir
// RUN: rm -rf %t.b1 %t.a1 %t.b2 %t.a2
// RUN: sdfg-run %t.before.mlir --function sweep --set N=23 --set M=17 --seed 5 --out %t.b1 > /dev/null
// RUN: sdfg-run %t.after.mlir --function sweep --set N=23 --set M=17 --seed 5 --out %t.a1 > /dev/null
// RUN: %python %S/../Target/HLS/Inputs/compare.py %t.b1 %t.a1 | FileCheck %s --check-prefix=SAME
// RUN: sdfg-run %t.before.mlir --function products --set N=13 --seed 6 --out %t.b2 > /dev/null
// RUN: sdfg-run %t.after.mlir --function products --set N=13 --seed 6 --out %t.a2 > /dev/null
// RUN: %python %S/../Target/HLS/Inputs/compare.py %t.b2 %t.a2 | FileCheck %s --check-prefix=SAME
// RUN: rm -rf %t.b3 %t.a3
// RUN: sdfg-run %t.before.mlir --function triangular --set N=19 --set M=11 --seed 7 --out %t.b3 > /dev/null
// RUN: sdfg-run %t.after.mlir --function triangular --set N=19 --set M=11 --seed 7 --out %t.a3 > /dev/null
// RUN: %python %S/../Target/HLS/Inputs/compare.py %t.b3 %t.a3 | FileCheck %s --check-prefix=SAME
// SAME: 1 outputs match

// Row k depends on row k - 1 in the same column only: each column's
// point runs the whole sweep. The map now reads and writes every row it
// touches, and the loop variable is the nested SDFG's; the empty state
// of the body goes along. (The nested SDFG's
// arguments are whole containers, so propagation keeps their first
// elements: `0:j + 1`, not `j`.)
// CHECK-LABEL: sdfg.sdfg @sweep
// With calls-only, a map of tasklets keeps its loop.
// CALLS-LABEL: sdfg.sdfg @sweep
// CALLS: sdfg.loop @l
// CALLS-NEXT: sdfg.state @head
// CHECK-SAME: symbols {M = i64, N = i64}
// CHECK: sdfg.state @l {
// CHECK: sdfg.map "cols" ["j" = "0:M"] ins("a" = %{{.*}}["0:N - 1, 0:M"] : !sdfg.array<f64 ["N", "M"]>, "b" = %{{.*}}["0:N, 0:M", volume "-M + M*N"]
// CHECK: sdfg.nested "l_in_cols" ins("A" = %{{.*}}["0:N - 1, 0:j + 1", volume "N - 1"] : !sdfg.array<f64 ["N", "M"]>, "B" = %{{.*}}["0:N, 0:j + 1", volume "N - 1"] : !sdfg.array<f64 ["N", "M"]>) outs("A" : !sdfg.array<f64 ["N", "M"]>) symbols("M" = "M", "N" = "N", "j" = "j")
// CHECK: sdfg.sdfg @l_in_cols(%{{.*}}: !sdfg.array<f64 ["N", "M"]> as "A", %{{.*}}: !sdfg.array<f64 ["N", "M"]> as "B") symbols {M = i64, N = i64, j = i64, k = i64}
// CHECK: sdfg.loop @l var "k" init "1" cond "k < N" update "k + 1" {
// CHECK: sdfg.state @head
// CHECK: sdfg.tasklet "add"
// CHECK: sdfg.access %{{.*}} writes(%{{.*}}["k, j"] : f64)
// CHECK: sdfg.exit("A" = %{{.*}}["0:N, 0:j + 1", volume "N - 1"] : !sdfg.array<f64 ["N", "M"]>)
// CHECK: sdfg.access %A writes(%{{.*}}["0:N, 0:M", volume "-M + M*N"] : !sdfg.array<f64 ["N", "M"]>)
sdfg.sdfg @sweep(%A: !sdfg.array<f64 ["N", "M"]> as "A", %B: !sdfg.array<f64 ["N", "M"]> as "B") symbols {M = i64, N = i64, k = i64} {
  sdfg.loop @l var "k" init "1" cond "k < N" update "k + 1" {
    sdfg.state @head {
    }
    sdfg.state @s {
      %a = sdfg.access %A : !sdfg.array<f64 ["N", "M"]>
      %b = sdfg.access %B : !sdfg.array<f64 ["N", "M"]>
      %m = sdfg.map "cols" ["j" = "0:M"] ins("a" = %a["k - 1, 0:M"] : !sdfg.array<f64 ["N", "M"]>, "b" = %b["k, 0:M"] : !sdfg.array<f64 ["N", "M"]>) outs("A" : !sdfg.array<f64 ["N", "M"]>) {
      ^bb0(%ai: !sdfg.array<f64 ["N", "M"]>, %bi: !sdfg.array<f64 ["N", "M"]>):
        %t = sdfg.tasklet "add" ins("x" = %ai["k - 1, j"] : !sdfg.array<f64 ["N", "M"]>, "y" = %bi["k, j"] : !sdfg.array<f64 ["N", "M"]>) outs("z" : f64) {
        ^bb0(%x: f64, %y: f64):
          %z = arith.addf %x, %y : f64
          sdfg.yield %z : f64
        }
        sdfg.exit ("A" = %t["k, j"] : f64)
      }
      %w = sdfg.access %A writes(%m["k, 0:M"] : !sdfg.array<f64 ["N", "M"]>) : !sdfg.array<f64 ["N", "M"]>
    }
    sdfg.edge @head -> @s
  }
}

// A matrix product whose k loop is outside its (i, j) map: each point
// accumulates its own element, so the whole k loop moves in.
// CHECK-LABEL: sdfg.sdfg @products
// CHECK: sdfg.map "mm" ["i" = "0:N", "j" = "0:N"]
// CHECK: sdfg.nested "l_in_mm"
// CHECK: sdfg.loop @l var "k"
// CHECK: sdfg.access %{{.*}} writes(%{{.*}}["i, j", wcr sum] : f64)
sdfg.sdfg @products(%A: !sdfg.array<f64 ["N", "N"]> as "A", %B: !sdfg.array<f64 ["N", "N"]> as "B", %C: !sdfg.array<f64 ["N", "N"]> as "C") symbols {N = i64, k = i64} {
  sdfg.loop @l var "k" init "0" cond "k < N" update "k + 1" {
    sdfg.state @s {
      %a = sdfg.access %A : !sdfg.array<f64 ["N", "N"]>
      %b = sdfg.access %B : !sdfg.array<f64 ["N", "N"]>
      %m = sdfg.map "mm" ["i" = "0:N", "j" = "0:N"] ins("a" = %a["0:N, k"] : !sdfg.array<f64 ["N", "N"]>, "b" = %b["k, 0:N"] : !sdfg.array<f64 ["N", "N"]>) outs("C" : !sdfg.array<f64 ["N", "N"]>) {
      ^bb0(%ai: !sdfg.array<f64 ["N", "N"]>, %bi: !sdfg.array<f64 ["N", "N"]>):
        %t = sdfg.tasklet "mul" ins("x" = %ai["i, k"] : !sdfg.array<f64 ["N", "N"]>, "y" = %bi["k, j"] : !sdfg.array<f64 ["N", "N"]>) outs("z" : f64) {
        ^bb0(%x: f64, %y: f64):
          %z = arith.mulf %x, %y : f64
          sdfg.yield %z : f64
        }
        sdfg.exit ("C" = %t["i, j", wcr sum] : f64)
      }
      %w = sdfg.access %C writes(%m["0:N, 0:N", wcr sum] : !sdfg.array<f64 ["N", "N"]>) : !sdfg.array<f64 ["N", "N"]>
    }
  }
}


// Row k of column j gains the dot product of the rows below it with
// column k of B (PolyBench trmm's shape): a nested SDFG per column. Its
// boundary memlets are prefixes (`0:N, 0:j + 1`: an argument starts at
// its container's first element), which would overlap between columns;
// the dependence test reads what the nested SDFG touches instead, rows
// `k:N` of column j, so the loop moves in.
// CHECK-LABEL: sdfg.sdfg @triangular
// CHECK: sdfg.map "cols" ["j" = "0:M"]
// CHECK: sdfg.nested "l_in_cols"
// CHECK: sdfg.loop @l var "k"
// CHECK: sdfg.nested "col"
// CALLS-LABEL: sdfg.sdfg @triangular
// CALLS: sdfg.map "cols" ["j" = "0:M"]
// CALLS: sdfg.nested "l_in_cols"
// CALLS: sdfg.loop @l var "k"
sdfg.sdfg @triangular(%A: !sdfg.array<f64 ["N", "M"]> as "A", %B: !sdfg.array<f64 ["N", "N"]> as "B") symbols {M = i64, N = i64, k = i64} {
  sdfg.loop @l var "k" init "0" cond "k < N" update "k + 1" {
    sdfg.state @s {
      %a = sdfg.access %A : !sdfg.array<f64 ["N", "M"]>
      %b = sdfg.access %B : !sdfg.array<f64 ["N", "N"]>
      %m = sdfg.map "cols" ["j" = "0:M"] ins("a" = %a["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>, "b" = %b["0:N, 0:N"] : !sdfg.array<f64 ["N", "N"]>) outs("A" : !sdfg.array<f64 ["N", "M"]>) {
      ^bb0(%ai: !sdfg.array<f64 ["N", "M"]>, %bi: !sdfg.array<f64 ["N", "N"]>):
        %n = sdfg.nested "col" ins("A" = %ai["0:N, 0:j + 1"] : !sdfg.array<f64 ["N", "M"]>, "B" = %bi["0:N, 0:k + 1"] : !sdfg.array<f64 ["N", "N"]>) outs("A" : !sdfg.array<f64 ["N", "M"]>) symbols("M" = "M", "N" = "N", "j" = "j", "k" = "k") {
          sdfg.sdfg @col(%A2: !sdfg.array<f64 ["N", "M"]> as "A", %B2: !sdfg.array<f64 ["N", "N"]> as "B") symbols {M = i64, N = i64, j = i64, k = i64} {
            %S = sdfg.alloc "s" : !sdfg.scalar<f64>
            sdfg.state @zero {
              %t = sdfg.tasklet "zero" outs("o" : f64) {
                %c = arith.constant 0.0 : f64
                sdfg.yield %c : f64
              }
              %w = sdfg.access %S writes(%t["0"] : f64) : !sdfg.scalar<f64>
            }
            sdfg.state @sum {
              %x = sdfg.access %A2 : !sdfg.array<f64 ["N", "M"]>
              %y = sdfg.access %B2 : !sdfg.array<f64 ["N", "N"]>
              %r = sdfg.map "rows" ["r" = "k + 1:N"] ins("x" = %x["k + 1:N, j"] : !sdfg.array<f64 ["N", "M"]>, "y" = %y["k + 1:N, k"] : !sdfg.array<f64 ["N", "N"]>) outs("s" : !sdfg.scalar<f64>) {
              ^bb0(%xi: !sdfg.array<f64 ["N", "M"]>, %yi: !sdfg.array<f64 ["N", "N"]>):
                %t = sdfg.tasklet "mul" ins("p" = %xi["r, j"] : !sdfg.array<f64 ["N", "M"]>, "q" = %yi["r, k"] : !sdfg.array<f64 ["N", "N"]>) outs("o" : f64) {
                ^bb0(%p: f64, %q: f64):
                  %o = arith.mulf %p, %q : f64
                  sdfg.yield %o : f64
                }
                sdfg.exit ("s" = %t["0", wcr sum] : f64)
              }
              %w = sdfg.access %S writes(%r["0", wcr sum] : !sdfg.scalar<f64>) : !sdfg.scalar<f64>
            }
            sdfg.state @add {
              %x = sdfg.access %A2 : !sdfg.array<f64 ["N", "M"]>
              %v = sdfg.access %S : !sdfg.scalar<f64>
              %t = sdfg.tasklet "add" ins("p" = %x["k, j"] : !sdfg.array<f64 ["N", "M"]>, "q" = %v["0"] : !sdfg.scalar<f64>) outs("o" : f64) {
              ^bb0(%p: f64, %q: f64):
                %o = arith.addf %p, %q : f64
                sdfg.yield %o : f64
              }
              %w = sdfg.access %A2 writes(%t["k, j"] : f64) : !sdfg.array<f64 ["N", "M"]>
            }
            sdfg.edge @zero -> @sum
            sdfg.edge @sum -> @add
          }
        }
        sdfg.exit ("A" = %n["0:N, 0:j + 1"] : !sdfg.array<f64 ["N", "M"]>)
      }
      %w = sdfg.access %A writes(%m["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) : !sdfg.array<f64 ["N", "M"]>
    }
  }
}

// -----

// Point j reads what point j + 1 wrote in the previous iteration: inside
// the map, that would race (DaCe's test accepts it).
// CHECK-LABEL: sdfg.sdfg @do_not_move_a_diagonal_dependence
// CHECK: sdfg.loop @l
// CHECK: sdfg.map "cols"
// CHECK-NOT: sdfg.nested
sdfg.sdfg @do_not_move_a_diagonal_dependence(%A: !sdfg.array<f64 ["N", "M"]> as "A") symbols {M = i64, N = i64, k = i64} {
  // expected-warning @+1 {{sdfg-move-loop-into-map does not apply: different points of the map may touch a common element of `A`: `k, j` written at one, `k - 1, j + 1` accessed at another (`j` differs)}}
  sdfg.loop @l var "k" init "1" cond "k < N" update "k + 1" {
    sdfg.state @s {
      %a = sdfg.access %A : !sdfg.array<f64 ["N", "M"]>
      %m = sdfg.map "cols" ["j" = "0:M - 1"] ins("a" = %a["k - 1, 1:M"] : !sdfg.array<f64 ["N", "M"]>) outs("A" : !sdfg.array<f64 ["N", "M"]>) {
      ^bb0(%ai: !sdfg.array<f64 ["N", "M"]>):
        %t = sdfg.tasklet "copy" ins("x" = %ai["k - 1, j + 1"] : !sdfg.array<f64 ["N", "M"]>) outs("z" : f64) {
        ^bb0(%x: f64):
          sdfg.yield %x : f64
        }
        sdfg.exit ("A" = %t["k, j"] : f64)
      }
      %w = sdfg.access %A writes(%m["k, 0:M - 1"] : !sdfg.array<f64 ["N", "M"]>) : !sdfg.array<f64 ["N", "M"]>
    }
  }
}

// -----

// CHECK-LABEL: sdfg.sdfg @do_not_move_around_two_maps
// CHECK-NOT: sdfg.nested
sdfg.sdfg @do_not_move_around_two_maps(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64, k = i64} {
  // expected-warning @+1 {{sdfg-move-loop-into-map does not apply: the body holds 2 maps, not one}}
  sdfg.loop @l var "k" init "0" cond "k < 4" update "k + 1" {
    sdfg.state @s {
      %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
      %m = sdfg.map "one" ["i" = "0:N"] ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("A" : !sdfg.array<f64 ["N"]>) {
      ^bb0(%ai: !sdfg.array<f64 ["N"]>):
        %t = sdfg.tasklet "inc" ins("x" = %ai["i"] : !sdfg.array<f64 ["N"]>) outs("z" : f64) {
        ^bb0(%x: f64):
          sdfg.yield %x : f64
        }
        sdfg.exit ("A" = %t["i"] : f64)
      }
      %w = sdfg.access %A writes(%m["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
      %n = sdfg.map "two" ["i" = "0:N"] ins("a" = %w["0:N"] : !sdfg.array<f64 ["N"]>) outs("B" : !sdfg.array<f64 ["N"]>) {
      ^bb0(%ai: !sdfg.array<f64 ["N"]>):
        %t = sdfg.tasklet "copy" ins("x" = %ai["i"] : !sdfg.array<f64 ["N"]>) outs("z" : f64) {
        ^bb0(%x: f64):
          sdfg.yield %x : f64
        }
        sdfg.exit ("B" = %t["i"] : f64)
      }
      %v = sdfg.access %B writes(%n["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    }
  }
}

// -----

// Every point writes S[k]: the points would no longer meet at each
// iteration's end (the pass does not reason about the order of resolved
// writes).
// CHECK-LABEL: sdfg.sdfg @do_not_move_a_shared_output
// CHECK-NOT: sdfg.nested
sdfg.sdfg @do_not_move_a_shared_output(%A: !sdfg.array<f64 ["N", "M"]> as "A", %S: !sdfg.array<f64 ["N"]> as "S") symbols {M = i64, N = i64, k = i64} {
  // expected-warning @+1 {{sdfg-move-loop-into-map does not apply: different points of the map may touch a common element of `S`: `k` written at one, `k` accessed at another (`j` differs)}}
  sdfg.loop @l var "k" init "0" cond "k < N" update "k + 1" {
    sdfg.state @s {
      %a = sdfg.access %A : !sdfg.array<f64 ["N", "M"]>
      %m = sdfg.map "cols" ["j" = "0:M"] ins("a" = %a["k, 0:M"] : !sdfg.array<f64 ["N", "M"]>) outs("S" : !sdfg.array<f64 ["N"]>) {
      ^bb0(%ai: !sdfg.array<f64 ["N", "M"]>):
        %t = sdfg.tasklet "copy" ins("x" = %ai["k, j"] : !sdfg.array<f64 ["N", "M"]>) outs("z" : f64) {
        ^bb0(%x: f64):
          sdfg.yield %x : f64
        }
        sdfg.exit ("S" = %t["k", wcr sum] : f64)
      }
      %w = sdfg.access %S writes(%m["k", wcr sum] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    }
  }
}

// -----

// The same through a copy out of a per-point buffer: the exit copies
// `buf[j]` to `S[k]`, and the written subset is the copy's second one.
// CHECK-LABEL: sdfg.sdfg @do_not_move_a_shared_copy_out
// CHECK-NOT: sdfg.nested
sdfg.sdfg @do_not_move_a_shared_copy_out(%A: !sdfg.array<f64 ["N", "M"]> as "A", %S: !sdfg.array<f64 ["N"]> as "S") symbols {M = i64, N = i64, k = i64} {
  %buf = sdfg.alloc "buf" : !sdfg.array<f64 ["M"]>
  // expected-warning @+1 {{sdfg-move-loop-into-map does not apply: different points of the map may touch a common element of `S`: `k` written at one, `k` accessed at another (`j` differs)}}
  sdfg.loop @l var "k" init "0" cond "k < N" update "k + 1" {
    sdfg.state @s {
      %a = sdfg.access %A : !sdfg.array<f64 ["N", "M"]>
      %m = sdfg.map "cols" ["j" = "0:M"] ins("a" = %a["k, 0:M"] : !sdfg.array<f64 ["N", "M"]>) outs("S" : !sdfg.array<f64 ["N"]>) {
      ^bb0(%ai: !sdfg.array<f64 ["N", "M"]>):
        %t = sdfg.tasklet "copy" ins("x" = %ai["k, j"] : !sdfg.array<f64 ["N", "M"]>) outs("z" : f64) {
        ^bb0(%x: f64):
          sdfg.yield %x : f64
        }
        %bw = sdfg.access %buf writes(%t["j"] : f64) : !sdfg.array<f64 ["M"]>
        sdfg.exit ("S" = %bw["j" -> "k"] : !sdfg.array<f64 ["M"]>)
      }
      %w = sdfg.access %S writes(%m["k"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    }
  }
}

// -----

// Targeting: only the loop named by `label` moves; without it, both do.
// CHECK-LABEL: sdfg.sdfg @two_loops
// CHECK: sdfg.nested "l_in_first"
// CHECK: sdfg.nested "other_in_second"
// LABEL-LABEL: sdfg.sdfg @two_loops
// LABEL: sdfg.loop @l var "k"
// LABEL: sdfg.map "first"
// LABEL: sdfg.state @other
// LABEL: sdfg.map "second"
// LABEL: sdfg.nested "other_in_second"
// LABEL: sdfg.loop @other var "t"
sdfg.sdfg @two_loops(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64, k = i64, t = i64} {
  sdfg.loop @l var "k" init "0" cond "k < 3" update "k + 1" {
    sdfg.state @s {
      %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
      %m = sdfg.map "first" ["i" = "0:N"] ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("A" : !sdfg.array<f64 ["N"]>) {
      ^bb0(%ai: !sdfg.array<f64 ["N"]>):
        %t = sdfg.tasklet "inc" ins("x" = %ai["i"] : !sdfg.array<f64 ["N"]>) outs("z" : f64) {
        ^bb0(%x: f64):
          sdfg.yield %x : f64
        }
        sdfg.exit ("A" = %t["i"] : f64)
      }
      %w = sdfg.access %A writes(%m["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    }
  }
  sdfg.loop @other var "t" init "0" cond "t < 3" update "t + 1" {
    sdfg.state @u {
      %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
      %m = sdfg.map "second" ["i" = "0:N"] ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("A" : !sdfg.array<f64 ["N"]>) {
      ^bb0(%ai: !sdfg.array<f64 ["N"]>):
        %t = sdfg.tasklet "inc" ins("x" = %ai["i"] : !sdfg.array<f64 ["N"]>) outs("z" : f64) {
        ^bb0(%x: f64):
          sdfg.yield %x : f64
        }
        sdfg.exit ("A" = %t["i"] : f64)
      }
      %w = sdfg.access %A writes(%m["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    }
  }
  sdfg.edge @l -> @other
}
