// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-propagate-memlets)' | FileCheck %s
// RUN: sdfg-run %s --function strided --check-bounds --seed 2 --set N=6 | FileCheck %s --check-prefix=RESULT
// RUN: sdfg-run %s --function strided --pass-pipeline='builtin.module(sdfg-propagate-memlets)' --check-bounds --seed 2 --set N=6 | FileCheck %s --check-prefix=RESULT
// RUN: sdfg-run %s --function nested_loop_through_mapping --check-bounds --seed 3 --set N=4 --set M=5 | FileCheck %s --check-prefix=NESTED
// RUN: sdfg-run %s --function nested_loop_through_mapping --pass-pipeline='builtin.module(sdfg-propagate-memlets)' --check-bounds --seed 3 --set N=4 --set M=5 | FileCheck %s --check-prefix=NESTED

// The memlets at scope boundaries are recomputed from the inner ones; the
// ones written here are deliberately wrong.

// A strided read keeps its stride, and `i % 4` over `0:N` covers
// `0:Min(4, N)`; volumes count every iteration.
// CHECK-LABEL: sdfg.sdfg @strided
// CHECK: ins("A" = %{{.*}}["1:2*N:2"]
// CHECK: writes(%{{.*}}["0:Min(4, N)", volume "N", wcr sum]
// Propagation does not change what the program computes.
// RESULT: B: <f8[4] checksum 6.4245564292e0
sdfg.sdfg @strided(%A: !sdfg.array<f64 ["2*N + 2"]> as "A", %B: !sdfg.array<f64 ["4"]> as "B") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["2*N + 2"]>
    %m = sdfg.map "m" ["i" = "0:N"] ins("A" = %a["0"] : !sdfg.array<f64 ["2*N + 2"]>) outs("B" : !sdfg.array<f64 ["4"]>) {
    ^bb0(%ain: !sdfg.array<f64 ["2*N + 2"]>):
      %t = sdfg.tasklet "t" ins("x" = %ain["2*i + 1"] : !sdfg.array<f64 ["2*N + 2"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit ("B" = %t["i % 4", wcr sum] : f64)
    }
    %b = sdfg.access %B writes(%m["0", wcr sum] : !sdfg.array<f64 ["4"]>) : !sdfg.array<f64 ["4"]>
  }
}

// -----

// Nested maps are propagated innermost first: the tiles' inner map covers
// its tile, the outer map all rows; a volume that changes with the tile is
// bounded by the largest tile and marked dynamic.
// CHECK-LABEL: sdfg.sdfg @tiled
// CHECK: sdfg.map "tiles" {{.*}} ins("C" = %{{.*}}["0:N, 0:M - 1", volume "{{.*}}", dynamic]
// CHECK: sdfg.map "inner" {{.*}} ins("C" = %{{.*}}["ti:Min(ti + 4, N), 0:M - 1"]
// CHECK: sdfg.exit("D" = %{{.*}}["ti:Min(ti + 4, N)", volume "{{.*}}", wcr sum]
// CHECK: writes(%{{.*}}["0:N", volume "{{.*}}", dynamic, wcr sum]
sdfg.sdfg @tiled(%C: !sdfg.array<f64 ["N", "M"]> as "C", %D: !sdfg.array<f64 ["N"]> as "D") symbols {N = i64, M = i64} {
  sdfg.state @tiled {
    %c = sdfg.access %C : !sdfg.array<f64 ["N", "M"]>
    %o = sdfg.map "tiles" ["ti" = "0:N:4"] ins("C" = %c["0, 0"] : !sdfg.array<f64 ["N", "M"]>) outs("D" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%cin: !sdfg.array<f64 ["N", "M"]>):
      %n = sdfg.map "inner" ["i" = "ti:Min(ti + 4, N)", "j" = "1:M"] ins("C" = %cin["0, 0"] : !sdfg.array<f64 ["N", "M"]>) outs("D" : !sdfg.array<f64 ["N"]>) {
      ^bb0(%cin2: !sdfg.array<f64 ["N", "M"]>):
        %t = sdfg.tasklet "t" ins("x" = %cin2["i, j - 1"] : !sdfg.array<f64 ["N", "M"]>) outs("y" : f64) {
        ^bb0(%x: f64):
          sdfg.yield %x : f64
        }
        sdfg.exit ("D" = %t["i", wcr sum] : f64)
      }
      sdfg.exit ("D" = %n["0", wcr sum] : !sdfg.array<f64 ["N"]>)
    }
    %d = sdfg.access %D writes(%o["0", wcr sum] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// A map with dynamic range inputs (a CSR row) reads a data-dependent range:
// the dimension becomes the container's extent and the memlet dynamic.
// CHECK-LABEL: sdfg.sdfg @csr
// CHECK: ins("val" = %{{.*}}["0:nnz", volume "{{.*}}", dynamic]
sdfg.sdfg @csr(%row: !sdfg.array<i32 ["2"]> as "row", %val: !sdfg.array<f64 ["nnz"]> as "val", %out: !sdfg.array<f64 ["1"]> as "out") symbols {nnz = i64} {
  sdfg.state @s {
    %r = sdfg.access %row : !sdfg.array<i32 ["2"]>
    %v = sdfg.access %val : !sdfg.array<f64 ["nnz"]>
    %m = sdfg.map "row" ["j" = "b:e"] ins("val" = %v["0"] : !sdfg.array<f64 ["nnz"]>) dyn("b" = %r["0"] : !sdfg.array<i32 ["2"]>, "e" = %r["1"] : !sdfg.array<i32 ["2"]>) outs("out" : !sdfg.array<f64 ["1"]>) {
    ^bb0(%vin: !sdfg.array<f64 ["nnz"]>, %b: !sdfg.array<i32 ["2"]>, %e: !sdfg.array<i32 ["2"]>):
      %t = sdfg.tasklet "t" ins("x" = %vin["j"] : !sdfg.array<f64 ["nnz"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit ("out" = %t["0", wcr sum] : f64)
    }
    %o = sdfg.access %out writes(%m["0", wcr sum] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
  }
}

// -----

// A copy between access nodes inside the scope has subsets over two
// containers: its boundary memlet is kept as written.
// CHECK-LABEL: sdfg.sdfg @copy
// CHECK: writes(%{{.*}}["0:N", wcr sum]
sdfg.sdfg @copy(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64} {
  %s = sdfg.alloc "s" : !sdfg.scalar<f64>
  sdfg.state @s {
    %m = sdfg.map "m" ["i" = "0:N"] outs("A" : !sdfg.array<f64 ["N"]>) {
      %t = sdfg.tasklet "t" outs("y" : f64) {
        %one = arith.constant 1.0 : f64
        sdfg.yield %one : f64
      }
      %sa = sdfg.access %s writes(%t["0"] : f64) : !sdfg.scalar<f64>
      sdfg.exit ("A" = %sa["0" -> "i", wcr sum] : !sdfg.scalar<f64>)
    }
    %a = sdfg.access %A writes(%m["0:N", wcr sum] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// A nested SDFG propagates through the loop around its state and its symbol
// mapping (K = M): it reads a[1:K] and writes b[0:K-1], K - 1 elements
// each. In the caller's coordinates each box keeps its first element, where
// the argument starts, and its end tightens; the map around covers all
// rows.
// CHECK-LABEL: sdfg.sdfg @nested_loop_through_mapping
// CHECK: sdfg.map "rows" {{.*}} ins("A" = %{{.*}}["0:N, 0:M", volume "M*N - N"]
// CHECK: sdfg.nested "shift" ins("a" = %{{.*}}["i, 0:M", volume "M - 1"]
// CHECK: sdfg.exit("B" = %{{.*}}["i, 0:M - 1"] :
// CHECK: writes(%{{.*}}["0:N, 0:M - 1"] :
// Propagation does not change what the program computes.
// NESTED: B: <f8[4, 5] checksum 1.8353985219e1
sdfg.sdfg @nested_loop_through_mapping(%A: !sdfg.array<f64 ["N", "M"]> as "A", %B: !sdfg.array<f64 ["N", "M"]> as "B") symbols {N = i64, M = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "M"]>
    %m = sdfg.map "rows" ["i" = "0:N"] ins("A" = %a["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) outs("B" : !sdfg.array<f64 ["N", "M"]>) {
    ^bb0(%ain: !sdfg.array<f64 ["N", "M"]>):
      %n = sdfg.nested "shift" ins("a" = %ain["i, 0:M"] : !sdfg.array<f64 ["N", "M"]>) outs("b" : !sdfg.array<f64 ["N", "M"]>) symbols("K" = "M") {
        sdfg.sdfg @shift(%x: !sdfg.array<f64 ["K"]> as "a", %y: !sdfg.array<f64 ["K"]> as "b") symbols {K = i64, k = i64} {
          sdfg.loop @l var "k" init "0" cond "k < K - 1" update "k + 1" {
            sdfg.state @copy {
              %xr = sdfg.access %x : !sdfg.array<f64 ["K"]>
              %t = sdfg.tasklet "twice" ins("v" = %xr["k + 1"] : !sdfg.array<f64 ["K"]>) outs("o" : f64) {
              ^bb0(%v: f64):
                %r = arith.addf %v, %v : f64
                sdfg.yield %r : f64
              }
              %yw = sdfg.access %y writes(%t["k"] : f64) : !sdfg.array<f64 ["K"]>
            }
          }
        }
      }
      sdfg.exit("B" = %n["i, 0:M"] : !sdfg.array<f64 ["N", "M"]>)
    }
    %b = sdfg.access %B writes(%m["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) : !sdfg.array<f64 ["N", "M"]>
  }
}

// -----

// A write under a condition, and reads through a symbol the nested SDFG
// assigns itself (s, not mapped), are bounds: the write is dynamic, and the
// read's dimension is the whole row; the box keeps its start, 0, and its
// constant end is cut by the row length.
// CHECK-LABEL: sdfg.sdfg @nested_branch_and_inner_symbol
// CHECK: sdfg.nested "pick" ins("a" = %{{.*}}["i, 0:M", volume "1", dynamic]
// CHECK: sdfg.exit("B" = %{{.*}}["i, 0:Min(2, M)", volume "1", dynamic] :
sdfg.sdfg @nested_branch_and_inner_symbol(%A: !sdfg.array<f64 ["N", "M"]> as "A", %B: !sdfg.array<f64 ["N", "M"]> as "B") symbols {N = i64, M = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "M"]>
    %m = sdfg.map "rows" ["i" = "0:N"] ins("A" = %a["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) outs("B" : !sdfg.array<f64 ["N", "M"]>) {
    ^bb0(%ain: !sdfg.array<f64 ["N", "M"]>):
      %n = sdfg.nested "pick" ins("a" = %ain["i, 0:M"] : !sdfg.array<f64 ["N", "M"]>) outs("b" : !sdfg.array<f64 ["N", "M"]>) symbols("K" = "M") {
        sdfg.sdfg @pick(%x: !sdfg.array<f64 ["K"]> as "a", %y: !sdfg.array<f64 ["K"]> as "b") symbols {K = i64, s = i64} {
          sdfg.state @start {
          }
          sdfg.conditional @c {
            sdfg.branch @big if "K > 2" {
              sdfg.state @w {
                %xr = sdfg.access %x : !sdfg.array<f64 ["K"]>
                %t = sdfg.tasklet "get" ins("v" = %xr["s"] : !sdfg.array<f64 ["K"]>) outs("o" : f64) {
                ^bb0(%v: f64):
                  sdfg.yield %v : f64
                }
                %yw = sdfg.access %y writes(%t["1"] : f64) : !sdfg.array<f64 ["K"]>
              }
            }
          }
          sdfg.edge @start -> @c assign("s" = "K - 1")
        }
      }
      sdfg.exit("B" = %n["i, 0:M"] : !sdfg.array<f64 ["N", "M"]>)
    }
    %b = sdfg.access %B writes(%m["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) : !sdfg.array<f64 ["N", "M"]>
  }
}
