// RUN: sdfg-opt %s -split-input-file | sdfg-opt -split-input-file | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --mlir-print-op-generic | sdfg-opt -split-input-file | FileCheck %s

// Round trips of the standalone #sdfg.memlet attribute and of memlets in
// operand lists, with every field and every write-conflict resolution.

// A memlet with only a subset prints only the subset; every field prints in
// the order subset -> other, volume, dynamic, wcr.
// CHECK-LABEL: sdfg.sdfg @memlet_fields
// CHECK-SAME: a = #sdfg.memlet<["i"]>
// CHECK-SAME: b = #sdfg.memlet<["0:N, i" -> "1:N+1, i"]>
// CHECK-SAME: c = #sdfg.memlet<["0:N", volume "N"]>
// CHECK-SAME: d = #sdfg.memlet<["0:N", dynamic]>
// CHECK-SAME: e = #sdfg.memlet<["0:N" -> "0:N", volume "N", dynamic, wcr sum]>
// CHECK-SAME: f = #sdfg.memlet<["0:N:2, 1:M"]>
sdfg.sdfg @memlet_fields() symbols {M = i64, N = i64, i = i64} attributes {
    a = #sdfg.memlet<["i"]>,
    b = #sdfg.memlet<["0:N, i" -> "1:N+1, i"]>,
    c = #sdfg.memlet<["0:N", volume "N"]>,
    d = #sdfg.memlet<["0:N", dynamic]>,
    e = #sdfg.memlet<["0:N" -> "0:N", wcr sum, dynamic, volume "N"]>,
    f = #sdfg.memlet<["0:N:2, 1:M"]>} {
  sdfg.state @s {
  }
}

// -----

// Every named write-conflict resolution keeps its DaCe spelling.
// CHECK-LABEL: sdfg.sdfg @wcr_kinds
// CHECK-SAME: w01 = #sdfg.memlet<["i", wcr sum]>
// CHECK-SAME: w02 = #sdfg.memlet<["i", wcr product]>
// CHECK-SAME: w03 = #sdfg.memlet<["i", wcr min]>
// CHECK-SAME: w04 = #sdfg.memlet<["i", wcr max]>
// CHECK-SAME: w05 = #sdfg.memlet<["i", wcr logical_and]>
// CHECK-SAME: w06 = #sdfg.memlet<["i", wcr logical_or]>
// CHECK-SAME: w07 = #sdfg.memlet<["i", wcr logical_xor]>
// CHECK-SAME: w08 = #sdfg.memlet<["i", wcr bitwise_and]>
// CHECK-SAME: w09 = #sdfg.memlet<["i", wcr bitwise_or]>
// CHECK-SAME: w10 = #sdfg.memlet<["i", wcr bitwise_xor]>
// CHECK-SAME: w11 = #sdfg.memlet<["i", wcr exchange]>
// CHECK-SAME: w12 = #sdfg.memlet<["i", wcr sub]>
// CHECK-SAME: w13 = #sdfg.memlet<["i", wcr div]>
sdfg.sdfg @wcr_kinds() symbols {i = i64} attributes {
    w01 = #sdfg.memlet<["i", wcr sum]>,
    w02 = #sdfg.memlet<["i", wcr product]>,
    w03 = #sdfg.memlet<["i", wcr min]>,
    w04 = #sdfg.memlet<["i", wcr max]>,
    w05 = #sdfg.memlet<["i", wcr logical_and]>,
    w06 = #sdfg.memlet<["i", wcr logical_or]>,
    w07 = #sdfg.memlet<["i", wcr logical_xor]>,
    w08 = #sdfg.memlet<["i", wcr bitwise_and]>,
    w09 = #sdfg.memlet<["i", wcr bitwise_or]>,
    w10 = #sdfg.memlet<["i", wcr bitwise_xor]>,
    w11 = #sdfg.memlet<["i", wcr exchange]>,
    w12 = #sdfg.memlet<["i", wcr sub]>,
    w13 = #sdfg.memlet<["i", wcr div]>} {
  sdfg.state @s {
  }
}

// -----

// A custom resolution is a quoted Python lambda, kept verbatim (escapes
// included).
// CHECK-LABEL: sdfg.sdfg @wcr_lambda
// CHECK-SAME: l = #sdfg.memlet<["i", wcr "lambda a, b: a + b"]>
// CHECK-SAME: q = #sdfg.memlet<["i", dynamic, wcr "lambda a, b: max(a, b) if a != \22x\22 else b"]>
sdfg.sdfg @wcr_lambda() symbols {i = i64} attributes {
    l = #sdfg.memlet<["i", wcr "lambda a, b: a + b"]>,
    q = #sdfg.memlet<["i", dynamic, wcr "lambda a, b: max(a, b) if a != \"x\" else b"]>} {
  sdfg.state @s {
  }
}

// -----

// Memlets on operands: inputs of a tasklet, the edges into an exit node and
// the writes of an access node carry the same bracketed syntax.
// CHECK-LABEL: sdfg.sdfg @operand_memlets
// CHECK: %[[A:.*]] = sdfg.access %{{.*}} : !sdfg.array<f64 ["N"]>
// CHECK: %[[R:.*]] = sdfg.map "m" ["i" = "0:N"]
// CHECK-SAME: ins("a" = %[[A]]["0:N", volume "N", dynamic] : !sdfg.array<f64 ["N"]>)
// CHECK: ^bb0(%[[IN:.*]]: !sdfg.array<f64 ["N"]>):
// CHECK: %[[T:.*]] = sdfg.tasklet "t" ins("x" = %[[IN]]["i"] : !sdfg.array<f64 ["N"]>)
// CHECK: sdfg.exit("b" = %[[T]]["0", wcr max] : f64)
// CHECK: sdfg.access %{{.*}} writes(%[[R]]["0", volume "N", wcr max] : !sdfg.array<f64 ["1"]>)
sdfg.sdfg @operand_memlets(%A: !sdfg.array<f64 ["N"]> as "A",
                           %B: !sdfg.array<f64 ["1"]> as "B") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %r = sdfg.map "m" ["i" = "0:N"] ins("a" = %a["0:N", volume "N", dynamic] : !sdfg.array<f64 ["N"]>) outs("b" : !sdfg.array<f64 ["1"]>) {
    ^bb0(%in: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "t" ins("x" = %in["i"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) code python "y = x"
      sdfg.exit ("b" = %t["0", wcr max] : f64)
    }
    %b = sdfg.access %B writes(%r["0", volume "N", wcr max] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
  }
}

// -----

// A memlet names its data where the SSA value does not imply it: a
// tasklet-to-tasklet edge through a scalar.
// CHECK-LABEL: sdfg.sdfg @tasklet_to_tasklet
// CHECK: %[[T:.*]] = sdfg.tasklet "producer"
// CHECK: sdfg.tasklet "consumer" ins("x" = %[[T]]["0", data "tmp"] : f64)
sdfg.sdfg @tasklet_to_tasklet(%B: !sdfg.scalar<f64> as "B") {
  %tmp = sdfg.alloc "tmp" : !sdfg.scalar<f64>
  sdfg.state @s {
    %t = sdfg.tasklet "producer" outs("y" : f64) code python "y = 1.0"
    %u = sdfg.tasklet "consumer" ins("x" = %t["0", data "tmp"] : f64) outs("z" : f64) code python "z = x"
    %b = sdfg.access %B writes(%u["0"] : f64) : !sdfg.scalar<f64>
  }
}
