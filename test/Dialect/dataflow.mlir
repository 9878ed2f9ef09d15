// RUN: sdfg-opt %s -split-input-file | sdfg-opt -split-input-file | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --mlir-print-op-generic | sdfg-opt -split-input-file | FileCheck %s

// Round trips of the dataflow nodes of a state: transients, access nodes,
// tasklets (MLIR bodies and foreign code), library nodes, and the ops of
// tasklet bodies.

// Every allocation lifetime; the default Scope is not printed.
// CHECK-LABEL: sdfg.sdfg @lifetimes
// CHECK: sdfg.alloc "s0" : !sdfg.scalar<f64>
// CHECK: sdfg.alloc "s1" : !sdfg.scalar<f64>
// CHECK: sdfg.alloc "s2" lifetime State : !sdfg.scalar<f64>
// CHECK: sdfg.alloc "s3" lifetime SDFG : !sdfg.scalar<f64>
// CHECK: sdfg.alloc "s4" lifetime Global : !sdfg.scalar<f64>
// CHECK: sdfg.alloc "s5" lifetime Persistent : !sdfg.scalar<f64>
// CHECK: sdfg.alloc "s6" lifetime External : !sdfg.array<f64 ["4"]>
sdfg.sdfg @lifetimes() {
  %s0 = sdfg.alloc "s0" : !sdfg.scalar<f64>
  %s1 = sdfg.alloc "s1" lifetime Scope : !sdfg.scalar<f64>
  %s2 = sdfg.alloc "s2" lifetime State : !sdfg.scalar<f64>
  %s3 = sdfg.alloc "s3" lifetime SDFG : !sdfg.scalar<f64>
  %s4 = sdfg.alloc "s4" lifetime Global : !sdfg.scalar<f64>
  %s5 = sdfg.alloc "s5" lifetime Persistent : !sdfg.scalar<f64>
  %s6 = sdfg.alloc "s6" lifetime External : !sdfg.array<f64 ["4"]>
  sdfg.state @s {
  }
}

// -----

// A tasklet with an MLIR body reads its input connectors as block
// arguments and yields its outputs; results take the connector names.
// CHECK-LABEL: sdfg.sdfg @tasklet_body
// CHECK: %[[A:.*]] = sdfg.access %{{.*}} : !sdfg.array<f64 ["N"]>
// CHECK: %[[T:.*]] = sdfg.tasklet "mul" ins("a" = %[[A]]["3"] : !sdfg.array<f64 ["N"]>, "w" = %[[A]]["0:3"] : !sdfg.array<f64 ["N"]>) outs("b" : f64) {
// CHECK-NEXT: ^bb0(%[[X:.*]]: f64, %[[W:.*]]: memref<3xf64>):
// CHECK: %[[C:.*]] = arith.constant 2.0{{.*}} : f64
// CHECK: %[[M:.*]] = arith.mulf %[[X]], %[[C]] : f64
// CHECK: memref.load %[[W]]
// CHECK: sdfg.yield %{{.*}} : f64
// CHECK: sdfg.access %{{.*}} writes(%[[T]]["0"] : f64) : !sdfg.array<f64 ["N"]>
sdfg.sdfg @tasklet_body(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %t = sdfg.tasklet "mul" ins("a" = %a["3"] : !sdfg.array<f64 ["N"]>, "w" = %a["0:3"] : !sdfg.array<f64 ["N"]>) outs("b" : f64) {
    ^bb0(%x: f64, %w: memref<3xf64>):
      %two = arith.constant 2.0 : f64
      %m = arith.mulf %x, %two : f64
      %c1 = arith.constant 1 : index
      %l = memref.load %w[%c1] : memref<3xf64>
      %r = arith.addf %m, %l : f64
      sdfg.yield %r : f64
    }
    %b = sdfg.access %B writes(%t["0"] : f64) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// Foreign code in Python or C++ is kept verbatim; a tasklet may have no
// inputs, several outputs, side effects and ordering edges.
// CHECK-LABEL: sdfg.sdfg @tasklet_code
// CHECK: %[[P:.*]], %[[Q:.*]] = sdfg.tasklet "py" outs("p" : f64, "q" : i32) code python "p = 1.0\0Aq = 2"
// CHECK: %[[C:.*]] = sdfg.tasklet "cc" ins("x" = %{{.*}}["0"] : !sdfg.scalar<f64>) outs("y" : f64) after(%{{.*}} : !sdfg.scalar<i32>) side_effects code cpp "y = x * 2; printf(\22%f\\n\22, y);"
// CHECK: sdfg.tasklet "noout" ins("z" = %{{.*}}["0"] : !sdfg.scalar<f64>) side_effects code python "print(z)"
sdfg.sdfg @tasklet_code() {
  %x = sdfg.alloc "x" : !sdfg.scalar<f64>
  %y = sdfg.alloc "y" : !sdfg.scalar<f64>
  %q = sdfg.alloc "q" : !sdfg.scalar<i32>
  sdfg.state @s {
    %t:2 = sdfg.tasklet "py" outs("p" : f64, "q" : i32) code python "p = 1.0\nq = 2"
    %xn = sdfg.access %x writes(%t#0["0"] : f64) : !sdfg.scalar<f64>
    %qn = sdfg.access %q writes(%t#1["0"] : i32) : !sdfg.scalar<i32>
    %c = sdfg.tasklet "cc" ins("x" = %xn["0"] : !sdfg.scalar<f64>) outs("y" : f64) after(%qn : !sdfg.scalar<i32>) side_effects code cpp "y = x * 2; printf(\"%f\\n\", y);"
    %yn = sdfg.access %y writes(%c["0"] : f64) : !sdfg.scalar<f64>
    sdfg.tasklet "noout" ins("z" = %yn["0"] : !sdfg.scalar<f64>) side_effects code python "print(z)"
  }
}

// -----

// Access nodes: plain reads, writes from several edges, copies between
// access nodes with a destination subset, and ordering edges.
// CHECK-LABEL: sdfg.sdfg @access_nodes
// CHECK: %[[A:.*]] = sdfg.access %A : !sdfg.array<f64 ["N"]>
// CHECK: %[[B:.*]] = sdfg.access %B writes(%[[A]]["0:N" -> "1:N+1"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N + 1"]>
// CHECK: %[[T:.*]] = sdfg.tasklet "zero" outs("o" : f64)
// CHECK: %[[B2:.*]] = sdfg.access %B writes(%[[T]]["0"] : f64, %[[A]]["0:N" -> "1:N+1", volume "N"] : !sdfg.array<f64 ["N"]>) after(%[[B]] : !sdfg.array<f64 ["N + 1"]>) : !sdfg.array<f64 ["N + 1"]>
sdfg.sdfg @access_nodes(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N + 1"]> as "B") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %b = sdfg.access %B writes(%a["0:N" -> "1:N+1"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N + 1"]>
    %t = sdfg.tasklet "zero" outs("o" : f64) code python "o = 0.0"
    %b2 = sdfg.access %B writes(%t["0"] : f64, %a["0:N" -> "1:N+1", volume "N"] : !sdfg.array<f64 ["N"]>) after(%b : !sdfg.array<f64 ["N + 1"]>) : !sdfg.array<f64 ["N + 1"]>
  }
}

// -----

// Views are bound to the data they view and references to their target.
// CHECK-LABEL: sdfg.sdfg @views
// CHECK: %[[A:.*]] = sdfg.access %A : !sdfg.array<f64 ["N", "M"]>
// CHECK: %[[V:.*]] = sdfg.access %V bind(%[[A]] ["0:N, 2"] : !sdfg.array<f64 ["N", "M"]>) : !sdfg.view<f64 ["N"] strides ["M"]>
// CHECK: %[[R:.*]] = sdfg.access %R bind(%[[A]] ["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) : !sdfg.ref<f64 ["N", "M"]>
// CHECK: sdfg.tasklet "use" ins("x" = %[[V]]["0"] : !sdfg.view<f64 ["N"] strides ["M"]>, "y" = %[[R]]["0, 0"] : !sdfg.ref<f64 ["N", "M"]>)
sdfg.sdfg @views(%A: !sdfg.array<f64 ["N", "M"]> as "A", %B: !sdfg.scalar<f64> as "B") symbols {M = i64, N = i64} {
  %V = sdfg.alloc "V" : !sdfg.view<f64 ["N"] strides ["M"]>
  %R = sdfg.alloc "R" : !sdfg.ref<f64 ["N", "M"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "M"]>
    %v = sdfg.access %V bind(%a["0:N, 2"] : !sdfg.array<f64 ["N", "M"]>) : !sdfg.view<f64 ["N"] strides ["M"]>
    %r = sdfg.access %R bind(%a["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) : !sdfg.ref<f64 ["N", "M"]>
    %t = sdfg.tasklet "use" ins("x" = %v["0"] : !sdfg.view<f64 ["N"] strides ["M"]>, "y" = %r["0, 0"] : !sdfg.ref<f64 ["N", "M"]>) outs("z" : f64) code python "z = x + y"
    %b = sdfg.access %B writes(%t["0"] : f64) : !sdfg.scalar<f64>
  }
}

// -----

// Inside a tasklet body, sdfg.sym reads a symbolic expression and
// sdfg.pop/sdfg.push use stream connectors.
// CHECK-LABEL: sdfg.sdfg @body_ops
// CHECK: ^bb0(%[[S:.*]]: !sdfg.stream<i32 shape ["1"]>):
// CHECK-NEXT: %[[V:.*]] = sdfg.pop %[[S]] : <i32 shape ["1"]>
// CHECK-NEXT: %[[N:.*]] = sdfg.sym "N - 1" : i32
// CHECK-NEXT: %[[I:.*]] = sdfg.sym "N * 2" : index
// CHECK-NEXT: %[[W:.*]] = arith.addi %[[V]], %[[N]] : i32
// CHECK-NEXT: sdfg.push %[[S]], %[[W]] : <i32 shape ["1"]>
// CHECK-NEXT: sdfg.yield %[[W]] : i32
sdfg.sdfg @body_ops(%S: !sdfg.stream<i32 shape ["1"]> as "S", %O: !sdfg.scalar<i32> as "O") symbols {N = i64} {
  sdfg.state @s {
    %s = sdfg.access %S : !sdfg.stream<i32 shape ["1"]>
    %t = sdfg.tasklet "t" ins("s" = %s["0"] : !sdfg.stream<i32 shape ["1"]>) outs("o" : i32) {
    ^bb0(%st: !sdfg.stream<i32 shape ["1"]>):
      %v = sdfg.pop %st : !sdfg.stream<i32 shape ["1"]>
      %n = sdfg.sym "N - 1" : i32
      %i = sdfg.sym "N * 2" : index
      %w = arith.addi %v, %n : i32
      sdfg.push %st, %w : !sdfg.stream<i32 shape ["1"]>
      sdfg.yield %w : i32
    }
    %o = sdfg.access %O writes(%t["0"] : i32) : !sdfg.scalar<i32>
  }
}

// -----

// sdfg.printf prints numbers under a C format, in a tasklet body.
// CHECK-LABEL: sdfg.sdfg @prints
// CHECK: sdfg.printf "plain\0A"
// CHECK-NEXT: sdfg.printf "%d of %5.2f (%ld, %*d%%)\0A" %[[I:.*]], %[[X:.*]], %[[I]], %[[I]], %[[I]] : i64, f32, i64, i64, i64
sdfg.sdfg @prints() {
  sdfg.state @s {
    sdfg.tasklet "p" {
      %i = arith.constant 3 : i64
      %x = arith.constant 1.5 : f32
      sdfg.printf "plain\n"
      sdfg.printf "%d of %5.2f (%ld, %*d%%)\n" %i, %x, %i, %i, %i : i64, f32, i64, i64, i64
      sdfg.yield
    }
  }
}

// -----

// A tasklet body may have several blocks with a yield in each exit block.
// CHECK-LABEL: sdfg.sdfg @multi_block_body
// CHECK: sdfg.tasklet "abs"
// CHECK: cf.cond_br
// CHECK: ^bb1:
// CHECK: sdfg.yield %{{.*}} : f64
// CHECK: ^bb2:
// CHECK: sdfg.yield %{{.*}} : f64
sdfg.sdfg @multi_block_body(%A: !sdfg.scalar<f64> as "A", %B: !sdfg.scalar<f64> as "B") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.scalar<f64>
    %t = sdfg.tasklet "abs" ins("x" = %a["0"] : !sdfg.scalar<f64>) outs("y" : f64) {
    ^bb0(%x: f64):
      %zero = arith.constant 0.0 : f64
      %neg = arith.cmpf olt, %x, %zero : f64
      cf.cond_br %neg, ^bb1, ^bb2
    ^bb1:
      %n = arith.negf %x : f64
      sdfg.yield %n : f64
    ^bb2:
      sdfg.yield %x : f64
    }
    %b = sdfg.access %B writes(%t["0"] : f64) : !sdfg.scalar<f64>
  }
}

// -----

// A library node keeps its class path, implementation, schedule,
// connectors and properties.
// CHECK-LABEL: sdfg.sdfg @library
// CHECK: %[[C:.*]] = sdfg.library "mm" "dace.libraries.blas.nodes.matmul.MatMul" impl "pure" schedule CPU_Multicore ins("_a" = %{{.*}}["0:M, 0:K"] : !sdfg.array<f64 ["M", "K"]>, "_b" = %{{.*}}["0:K, 0:N"] : !sdfg.array<f64 ["K", "N"]>) outs("_c" : !sdfg.array<f64 ["M", "N"]>) properties {alpha = "1", beta = "0"}
// CHECK: sdfg.access %C writes(%[[C]]["0:M, 0:N"] : !sdfg.array<f64 ["M", "N"]>)
// CHECK: %[[R:.*]] = sdfg.library "red" "dace.libraries.standard.nodes.reduce.Reduce" ins("_in" = %{{.*}}["0:M, 0:N"] : !sdfg.array<f64 ["M", "N"]>) outs("_out" : !sdfg.scalar<f64>) after(%{{.*}} : !sdfg.array<f64 ["K", "N"]>) properties {}
sdfg.sdfg @library(%A: !sdfg.array<f64 ["M", "K"]> as "A", %B: !sdfg.array<f64 ["K", "N"]> as "B",
                   %C: !sdfg.array<f64 ["M", "N"]> as "C", %s: !sdfg.scalar<f64> as "s")
    symbols {K = i64, M = i64, N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["M", "K"]>
    %b = sdfg.access %B : !sdfg.array<f64 ["K", "N"]>
    %c = sdfg.library "mm" "dace.libraries.blas.nodes.matmul.MatMul" impl "pure" schedule CPU_Multicore
        ins("_a" = %a["0:M, 0:K"] : !sdfg.array<f64 ["M", "K"]>, "_b" = %b["0:K, 0:N"] : !sdfg.array<f64 ["K", "N"]>)
        outs("_c" : !sdfg.array<f64 ["M", "N"]>) properties {alpha = "1", beta = "0"}
    %cn = sdfg.access %C writes(%c["0:M, 0:N"] : !sdfg.array<f64 ["M", "N"]>) : !sdfg.array<f64 ["M", "N"]>
    %r = sdfg.library "red" "dace.libraries.standard.nodes.reduce.Reduce"
        ins("_in" = %cn["0:M, 0:N"] : !sdfg.array<f64 ["M", "N"]>) outs("_out" : !sdfg.scalar<f64>)
        after(%b : !sdfg.array<f64 ["K", "N"]>) properties {}
    %sn = sdfg.access %s writes(%r["0"] : !sdfg.scalar<f64>) : !sdfg.scalar<f64>
  }
}
