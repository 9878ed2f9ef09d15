// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-view-elimination)' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-view-elimination,sdfg-validate)' -o /dev/null
// RUN: sdfg-run %s --set N=9 --seed 5 | FileCheck %s --check-prefix=SAME
// RUN: sdfg-run %s --set N=9 --seed 5 --pass-pipeline='builtin.module(sdfg-view-elimination)' | FileCheck %s --check-prefix=SAME
// RUN: sdfg-run %s --function row_times_matrix_through_removed_view --set N=5 --set K=3 --seed 5 | FileCheck %s --check-prefix=MM
// RUN: sdfg-run %s --function row_times_matrix_through_removed_view --set N=5 --set K=3 --seed 5 --pass-pipeline='builtin.module(sdfg-view-elimination)' | FileCheck %s --check-prefix=MM

// `B[0:N-2] = A[1:N-1] + 1` through a view of A: the map reads A, its
// memlets moved by the view's offset, and the view node goes.
// SAME: B: <f8[9] checksum 1.2111636601e1
// CHECK-LABEL: sdfg.sdfg @read_data_through_removed_view
// CHECK: %[[A:.*]] = sdfg.access %A
// CHECK-NOT: sdfg.access %V
// CHECK: sdfg.map "inc" ["i" = "0:N - 2"] ins("v" = %[[A]]["1:N - 1"] : !sdfg.array<f64 ["N"]>)
// CHECK: ^bb0(%[[IN:.*]]: !sdfg.array<f64 ["N"]>):
// CHECK: sdfg.tasklet "inc" ins("x" = %[[IN]]["i + 1"] : !sdfg.array<f64 ["N"]>)
sdfg.sdfg @read_data_through_removed_view(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  %V = sdfg.alloc "V" : !sdfg.view<f64 ["N - 2"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %v = sdfg.access %V bind(%a["1:N - 1" -> "0:N - 2"] : !sdfg.array<f64 ["N"]>) : !sdfg.view<f64 ["N - 2"]>
    %m = sdfg.map "inc" ["i" = "0:N - 2"] ins("v" = %v["0:N - 2"] : !sdfg.view<f64 ["N - 2"]>) outs("B" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%vin: !sdfg.view<f64 ["N - 2"]>):
      %o = sdfg.tasklet "inc" ins("x" = %vin["i"] : !sdfg.view<f64 ["N - 2"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        %c = arith.constant 1.0 : f64
        %r = arith.addf %x, %c : f64
        sdfg.yield %r : f64
      }
      sdfg.exit("B" = %o["i"] : f64)
    }
    %b = sdfg.access %B writes(%m["0:N - 2"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// A view that is written (`A[1:N-1] = ...` through it) stays.
// CHECK-LABEL: sdfg.sdfg @keep_written_view
// CHECK: sdfg.access %V
sdfg.sdfg @keep_written_view(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  %V = sdfg.alloc "V" : !sdfg.view<f64 ["N - 2"]>
  sdfg.state @s {
    %b = sdfg.access %B : !sdfg.array<f64 ["N"]>
    %v = sdfg.access %V writes(%b["0:N - 2"] : !sdfg.array<f64 ["N"]>) : !sdfg.view<f64 ["N - 2"]>
    %a = sdfg.access %A writes(%v["0:N - 2" -> "1:N - 1"] : !sdfg.view<f64 ["N - 2"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// A view of a row (`A[1, :]`, a dimension dropped): the copy reads the
// row of A, and a nested SDFG's input reads the row directly, its
// argument still a vector.
// CHECK-LABEL: sdfg.sdfg @read_row_through_removed_view
// CHECK-NOT: sdfg.access %R
// CHECK: sdfg.access %B writes(%{{.*}}["1, 0:N" -> "0:N"] : !sdfg.array<f64 ["N", "N"]>)
sdfg.sdfg @read_row_through_removed_view(%A: !sdfg.array<f64 ["N", "N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  %R = sdfg.alloc "R" : !sdfg.view<f64 ["N"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "N"]>
    %r = sdfg.access %R bind(%a["1, 0:N" -> "0:N"] : !sdfg.array<f64 ["N", "N"]>) : !sdfg.view<f64 ["N"]>
    %b = sdfg.access %B writes(%r["0:N" -> "0:N"] : !sdfg.view<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// `A[i, 0:i, np.newaxis]`: the box has the view's rank but not its
// extents in each dimension, so the view stays.
// CHECK-LABEL: sdfg.sdfg @keep_view_with_a_new_axis
// CHECK: sdfg.access %V bind
sdfg.sdfg @keep_view_with_a_new_axis(%A: !sdfg.array<f64 ["N", "N"]> as "A", %B: !sdfg.array<f64 ["i", "1"]> as "B") symbols {N = i64, i = i64} {
  %V = sdfg.alloc "V" : !sdfg.view<f64 ["i", "1"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "N"]>
    %v = sdfg.access %V bind(%a["i, 0:i" -> "0:i, 0"] : !sdfg.array<f64 ["N", "N"]>) : !sdfg.view<f64 ["i", "1"]>
    %m = sdfg.map "copy" ["j" = "0:i"] ins("v" = %v["0:i, 0"] : !sdfg.view<f64 ["i", "1"]>) outs("B" : !sdfg.array<f64 ["i", "1"]>) {
    ^bb0(%vin: !sdfg.view<f64 ["i", "1"]>):
      %o = sdfg.tasklet "id" ins("x" = %vin["j, 0"] : !sdfg.view<f64 ["i", "1"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit("B" = %o["j, 0"] : f64)
    }
    %b = sdfg.access %B writes(%m["0:i, 0"] : !sdfg.array<f64 ["i", "1"]>) : !sdfg.array<f64 ["i", "1"]>
  }
}

// -----

// CHECK-LABEL: sdfg.sdfg @pass_row_to_nested_sdfg
// CHECK-NOT: sdfg.access %R
// CHECK: sdfg.nested "inner" ins("row" = %{{.*}}["1, 0:N"] : !sdfg.array<f64 ["N", "N"]>)
// CHECK: sdfg.sdfg @inner(%{{.*}}: !sdfg.array<f64 ["M"]> as "row"
sdfg.sdfg @pass_row_to_nested_sdfg(%A: !sdfg.array<f64 ["N", "N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  %R = sdfg.alloc "R" : !sdfg.view<f64 ["N"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "N"]>
    %r = sdfg.access %R bind(%a["1, 0:N" -> "0:N"] : !sdfg.array<f64 ["N", "N"]>) : !sdfg.view<f64 ["N"]>
    %n = sdfg.nested "inner" ins("row" = %r["0:N"] : !sdfg.view<f64 ["N"]>) outs("out" : !sdfg.array<f64 ["N"]>) symbols("M" = "N") {
      sdfg.sdfg @inner(%row: !sdfg.array<f64 ["M"]> as "row", %out: !sdfg.array<f64 ["M"]> as "out") symbols {M = i64} {
        sdfg.state @copy {
          %x = sdfg.access %row : !sdfg.array<f64 ["M"]>
          %y = sdfg.access %out writes(%x["0:M" -> "0:M"] : !sdfg.array<f64 ["M"]>) : !sdfg.array<f64 ["M"]>
        }
      }
    }
    %b = sdfg.access %B writes(%n["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// `A[0:N-1] + A[1:N]` through two views, each bound to a node of A: the
// map reads both boxes from one node of A.
// CHECK-LABEL: sdfg.sdfg @merge_nodes_the_views_leave
// CHECK: %[[A:.*]] = sdfg.access %A
// CHECK-NOT: sdfg.access %A
// CHECK: sdfg.map "add" ["i" = "0:N - 1"] ins("l" = %[[A]]["0:N - 1"] : !sdfg.array<f64 ["N"]>, "r" = %[[A]]["1:N"] : !sdfg.array<f64 ["N"]>)
sdfg.sdfg @merge_nodes_the_views_leave(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  %L = sdfg.alloc "L" : !sdfg.view<f64 ["N - 1"]>
  %R = sdfg.alloc "R" : !sdfg.view<f64 ["N - 1"]>
  sdfg.state @s {
    %a1 = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %l = sdfg.access %L bind(%a1["0:N - 1" -> "0:N - 1"] : !sdfg.array<f64 ["N"]>) : !sdfg.view<f64 ["N - 1"]>
    %a2 = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %r = sdfg.access %R bind(%a2["1:N" -> "0:N - 1"] : !sdfg.array<f64 ["N"]>) : !sdfg.view<f64 ["N - 1"]>
    %m = sdfg.map "add" ["i" = "0:N - 1"] ins("l" = %l["0:N - 1"] : !sdfg.view<f64 ["N - 1"]>, "r" = %r["0:N - 1"] : !sdfg.view<f64 ["N - 1"]>) outs("B" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%lin: !sdfg.view<f64 ["N - 1"]>, %rin: !sdfg.view<f64 ["N - 1"]>):
      %o = sdfg.tasklet "add" ins("x" = %lin["i"] : !sdfg.view<f64 ["N - 1"]>, "y" = %rin["i"] : !sdfg.view<f64 ["N - 1"]>) outs("z" : f64) {
      ^bb0(%x: f64, %y: f64):
        %s = arith.addf %x, %y : f64
        sdfg.yield %s : f64
      }
      sdfg.exit("B" = %o["i"] : f64)
    }
    %b = sdfg.access %B writes(%m["0:N - 1"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// `r[:, np.newaxis]`: the view's new axis of extent 1 goes from the
// memlets, which read r itself.
// CHECK-LABEL: sdfg.sdfg @drop_the_new_axis_of_a_view
// CHECK-NOT: sdfg.access %V
// CHECK: sdfg.map "scale" ["i" = "0:N", "j" = "0:M"] ins("v" = %{{.*}}["0:N", volume "M*N"] : !sdfg.array<f64 ["N"]>)
// CHECK: sdfg.tasklet "copy" ins("x" = %{{.*}}["i"] : !sdfg.array<f64 ["N"]>)
sdfg.sdfg @drop_the_new_axis_of_a_view(%r: !sdfg.array<f64 ["N"]> as "r", %B: !sdfg.array<f64 ["N", "M"]> as "B") symbols {M = i64, N = i64} {
  %V = sdfg.alloc "V" : !sdfg.view<f64 ["N", "1"]>
  sdfg.state @s {
    %a = sdfg.access %r : !sdfg.array<f64 ["N"]>
    %v = sdfg.access %V bind(%a["0:N" -> "0:N, 0"] : !sdfg.array<f64 ["N"]>) : !sdfg.view<f64 ["N", "1"]>
    %m = sdfg.map "scale" ["i" = "0:N", "j" = "0:M"] ins("v" = %v["0:N, 0", volume "M*N"] : !sdfg.view<f64 ["N", "1"]>) outs("B" : !sdfg.array<f64 ["N", "M"]>) {
    ^bb0(%vin: !sdfg.view<f64 ["N", "1"]>):
      %o = sdfg.tasklet "copy" ins("x" = %vin["i, 0"] : !sdfg.view<f64 ["N", "1"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit("B" = %o["i, j"] : f64)
    }
    %b = sdfg.access %B writes(%m["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) : !sdfg.array<f64 ["N", "M"]>
  }
}

// -----

// A row of A, as a view, times a matrix: the MatMul reads `A[2, 0:N]`,
// whose squeezed shape is the view's, so the view goes (DaCe's
// RemoveSliceView keeps every view a library node reads). The Reduce,
// whose axes count the view's dimensions, keeps its view.
// MM: y: <f8[5] checksum 7.5745253858e0
// MM: s: <f8[1] checksum 3.2549218577e0
// CHECK-LABEL: sdfg.sdfg @row_times_matrix_through_removed_view
// CHECK: %[[A:.*]] = sdfg.access %A
// CHECK-NOT: sdfg.access %R
// CHECK: sdfg.library "mm" "dace.libraries.blas.nodes.matmul.MatMul" ins("_a" = %[[A]]["2, 0:N"] : !sdfg.array<f64 ["K", "N"]>
// CHECK: sdfg.access %R bind
// CHECK: sdfg.library "sum" "dace.libraries.standard.nodes.reduce.Reduce" ins("" = %{{.*}}["0:N"] : !sdfg.view<f64 ["N"]>)
sdfg.sdfg @row_times_matrix_through_removed_view(%A: !sdfg.array<f64 ["K", "N"]> as "A", %M: !sdfg.array<f64 ["N", "N"]> as "M", %y: !sdfg.array<f64 ["N"]> as "y", %s: !sdfg.array<f64 ["1"]> as "s") symbols {K = i64, N = i64} {
  %R = sdfg.alloc "R" : !sdfg.view<f64 ["N"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["K", "N"]>
    %r = sdfg.access %R bind(%a["2, 0:N" -> "0:N"] : !sdfg.array<f64 ["K", "N"]>) : !sdfg.view<f64 ["N"]>
    %m = sdfg.access %M : !sdfg.array<f64 ["N", "N"]>
    %p = sdfg.library "mm" "dace.libraries.blas.nodes.matmul.MatMul"
        ins("_a" = %r["0:N"] : !sdfg.view<f64 ["N"]>, "_b" = %m["0:N, 0:N"] : !sdfg.array<f64 ["N", "N"]>)
        outs("_c" : !sdfg.array<f64 ["N"]>) properties {}
    %yw = sdfg.access %y writes(%p["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
  sdfg.state @t {
    %a = sdfg.access %A : !sdfg.array<f64 ["K", "N"]>
    %r = sdfg.access %R bind(%a["1, 0:N" -> "0:N"] : !sdfg.array<f64 ["K", "N"]>) : !sdfg.view<f64 ["N"]>
    %red = sdfg.library "sum" "dace.libraries.standard.nodes.reduce.Reduce"
        ins("" = %r["0:N"] : !sdfg.view<f64 ["N"]>) outs("" : !sdfg.array<f64 ["1"]>)
        properties {axes = "[0]", wcr = "lambda a, b: a + b", identity = "0"}
    %sw = sdfg.access %s writes(%red["0"] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
  }
  sdfg.edge @s -> @t
}

// -----

// A nested SDFG that reads and writes a row through one connector keeps
// the view on both sides: DaCe wants one container on both ends of an
// in/out connector.
// CHECK-LABEL: sdfg.sdfg @keep_view_of_inout_connector
// CHECK: %[[V:.*]] = sdfg.access %R bind
// CHECK: sdfg.nested "inc" ins("x" = %[[V]]["0:N"] : !sdfg.view<f64 ["N"]>)
sdfg.sdfg @keep_view_of_inout_connector(%A: !sdfg.array<f64 ["K", "N"]> as "A") symbols {K = i64, N = i64} {
  %R = sdfg.alloc "R" : !sdfg.view<f64 ["N"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["K", "N"]>
    %r = sdfg.access %R bind(%a["1, 0:N" -> "0:N"] : !sdfg.array<f64 ["K", "N"]>) : !sdfg.view<f64 ["N"]>
    %n = sdfg.nested "inc" ins("x" = %r["0:N"] : !sdfg.view<f64 ["N"]>) outs("x" : !sdfg.view<f64 ["N"]>) symbols("N" = "N") {
      sdfg.sdfg @inc(%x: !sdfg.array<f64 ["N"]> as "x") symbols {N = i64} {
        sdfg.state @t {
          %xr = sdfg.access %x : !sdfg.array<f64 ["N"]>
          %o = sdfg.tasklet "one" ins("v" = %xr["0"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
          ^bb0(%v: f64):
            %c = arith.constant 1.0 : f64
            %s = arith.addf %v, %c : f64
            sdfg.yield %s : f64
          }
          %xw = sdfg.access %x writes(%o["0"] : f64) : !sdfg.array<f64 ["N"]>
        }
      }
    }
    %w = sdfg.access %R writes(%n["0:N"] : !sdfg.view<f64 ["N"]>) : !sdfg.view<f64 ["N"]>
    %b = sdfg.access %A writes(%w["0:N" -> "1, 0:N"] : !sdfg.view<f64 ["N"]>) : !sdfg.array<f64 ["K", "N"]>
  }
}
