// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-map-reduce-fusion)' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(sdfg-map-reduce-fusion{label=leave})' -o /dev/null
// RUN: rm -rf %t && mkdir -p %t
// RUN: for f in fuse_matmul fuse_into_a_row_at_an_offset fuse_without_an_identity fuse_a_whole_reduction; do \
// RUN:   sdfg-run %s --function $f --set M=5 --set N=7 --set K=6 --seed 3 --out %t/$f.before > /dev/null && \
// RUN:   sdfg-run %s --function $f --set M=5 --set N=7 --set K=6 --seed 3 --out %t/$f.after --pass-pipeline='builtin.module(sdfg-map-reduce-fusion)' > /dev/null && \
// RUN:   %python %S/../Target/HLS/Inputs/compare.py %t/$f.before %t/$f.after; done | FileCheck %s --check-prefix=SAME
// SAME: 1 outputs match
// SAME: 1 outputs match
// SAME: 1 outputs match
// SAME: 1 outputs match

// The SC'19 paper's naive matrix product: every product goes into a
// transient, which a Reduce sums over k. Fused, C starts at the identity
// and every product is added into it; the transient goes.
// CHECK-LABEL: sdfg.sdfg @fuse_matmul
// CHECK-NOT: "tmp"
// CHECK: %[[Z:.*]] = sdfg.map "init_C" ["__acc0" = "0:M", "__acc1" = "0:N"] outs("C"
// CHECK: arith.constant 0.000000e+00 : f64
// CHECK: %[[C0:.*]] = sdfg.access %C writes(%[[Z]]["0:M, 0:N"]
// CHECK: %[[M:.*]] = sdfg.map "mm" ["i" = "0:M", "j" = "0:N", "k" = "0:K"] {{.*}} outs("tmp" : !sdfg.array<f64 ["M", "N"]>) after(%[[C0]] : !sdfg.array<f64 ["M", "N"]>)
// CHECK: sdfg.exit("tmp" = %{{.*}}["i, j", wcr sum] : f64)
// CHECK: sdfg.access %C writes(%[[M]]["0:M, 0:N", volume "K*M*N", wcr sum] : !sdfg.array<f64 ["M", "N"]>)
// CHECK-NOT: sdfg.library
sdfg.sdfg @fuse_matmul(%A: !sdfg.array<f64 ["M", "K"]> as "A", %B: !sdfg.array<f64 ["K", "N"]> as "B", %C: !sdfg.array<f64 ["M", "N"]> as "C") symbols {K = i64, M = i64, N = i64} {
  %T = sdfg.alloc "tmp" : !sdfg.array<f64 ["M", "N", "K"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["M", "K"]>
    %b = sdfg.access %B : !sdfg.array<f64 ["K", "N"]>
    %m = sdfg.map "mm" ["i" = "0:M", "j" = "0:N", "k" = "0:K"] ins("A" = %a["0:M, 0:K"] : !sdfg.array<f64 ["M", "K"]>, "B" = %b["0:K, 0:N"] : !sdfg.array<f64 ["K", "N"]>) outs("tmp" : !sdfg.array<f64 ["M", "N", "K"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["M", "K"]>, %bi: !sdfg.array<f64 ["K", "N"]>):
      %t = sdfg.tasklet "mult" ins("a" = %ai["i, k"] : !sdfg.array<f64 ["M", "K"]>, "b" = %bi["k, j"] : !sdfg.array<f64 ["K", "N"]>) outs("o" : f64) {
      ^bb0(%x: f64, %y: f64):
        %p = arith.mulf %x, %y : f64
        sdfg.yield %p : f64
      }
      sdfg.exit ("tmp" = %t["i, j, k"] : f64)
    }
    %tw = sdfg.access %T writes(%m["0:M, 0:N, 0:K"] : !sdfg.array<f64 ["M", "N", "K"]>) : !sdfg.array<f64 ["M", "N", "K"]>
    %r = sdfg.library "sum" "dace.libraries.standard.nodes.reduce.Reduce"
        ins("" = %tw["0:M, 0:N, 0:K"] : !sdfg.array<f64 ["M", "N", "K"]>) outs("" : !sdfg.array<f64 ["M", "N"]>)
        properties {axes = "[2]", wcr = "lambda a, b: a + b", identity = "0"}
    %c = sdfg.access %C writes(%r["0:M, 0:N"] : !sdfg.array<f64 ["M", "N"]>) : !sdfg.array<f64 ["M", "N"]>
  }
}

// -----

// Column maxima into row 1 of R, shifted by one column: the kept axis j
// moves to R's second dimension by 1, R's first is fixed at 1, and the
// maximum starts at the identity DaCe gives it (the lowest double).
// CHECK-LABEL: sdfg.sdfg @fuse_into_a_row_at_an_offset
// CHECK: sdfg.map "init_R" ["__acc0" = "1:2", "__acc1" = "1:N + 1"]
// CHECK: arith.constant -1.7976931348623157E+308 : f64
// CHECK: sdfg.exit("T" = %{{.*}}["1, j + 1", wcr max] : f64)
// CHECK: sdfg.access %R writes(%{{.*}}["1, 1:N + 1", volume "M*N", wcr max]
sdfg.sdfg @fuse_into_a_row_at_an_offset(%A: !sdfg.array<f64 ["M", "N"]> as "A", %R: !sdfg.array<f64 ["3", "N + 1"]> as "R") symbols {M = i64, N = i64} {
  %T = sdfg.alloc "T" : !sdfg.array<f64 ["M", "N"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["M", "N"]>
    %m = sdfg.map "square" ["i" = "0:M", "j" = "0:N"] ins("A" = %a["0:M, 0:N"] : !sdfg.array<f64 ["M", "N"]>) outs("T" : !sdfg.array<f64 ["M", "N"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["M", "N"]>):
      %t = sdfg.tasklet "sq" ins("a" = %ai["i, j"] : !sdfg.array<f64 ["M", "N"]>) outs("o" : f64) {
      ^bb0(%x: f64):
        %p = arith.mulf %x, %x : f64
        sdfg.yield %p : f64
      }
      sdfg.exit ("T" = %t["i, j"] : f64)
    }
    %tw = sdfg.access %T writes(%m["0:M, 0:N"] : !sdfg.array<f64 ["M", "N"]>) : !sdfg.array<f64 ["M", "N"]>
    %r = sdfg.library "max" "dace.libraries.standard.nodes.reduce.Reduce"
        ins("" = %tw["0:M, 0:N"] : !sdfg.array<f64 ["M", "N"]>) outs("" : !sdfg.array<f64 ["3", "N + 1"]>)
        properties {axes = "[0]", wcr = "lambda a, b: max(a, b)", identity = "-1.7976931348623157e+308"}
    %c = sdfg.access %R writes(%r["1, 1:N + 1"] : !sdfg.array<f64 ["3", "N + 1"]>) : !sdfg.array<f64 ["3", "N + 1"]>
  }
}

// -----

// A Reduce without an identity adds into what the output holds, and so
// does the fused map: no initialization.
// CHECK-LABEL: sdfg.sdfg @fuse_without_an_identity
// CHECK-NOT: init_
// CHECK: sdfg.exit("T" = %{{.*}}["i", wcr sum] : f64)
sdfg.sdfg @fuse_without_an_identity(%A: !sdfg.array<f64 ["M", "N"]> as "A", %s: !sdfg.array<f64 ["M"]> as "s") symbols {M = i64, N = i64} {
  %T = sdfg.alloc "T" : !sdfg.array<f64 ["M", "N"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["M", "N"]>
    %m = sdfg.map "copy" ["i" = "0:M", "j" = "0:N"] ins("A" = %a["0:M, 0:N"] : !sdfg.array<f64 ["M", "N"]>) outs("T" : !sdfg.array<f64 ["M", "N"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["M", "N"]>):
      %t = sdfg.tasklet "id" ins("a" = %ai["i, j"] : !sdfg.array<f64 ["M", "N"]>) outs("o" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit ("T" = %t["i, j"] : f64)
    }
    %tw = sdfg.access %T writes(%m["0:M, 0:N"] : !sdfg.array<f64 ["M", "N"]>) : !sdfg.array<f64 ["M", "N"]>
    %r = sdfg.library "sum" "dace.libraries.standard.nodes.reduce.Reduce"
        ins("" = %tw["0:M, 0:N"] : !sdfg.array<f64 ["M", "N"]>) outs("" : !sdfg.array<f64 ["M"]>)
        properties {axes = "[1]", wcr = "lambda a, b: a + b"}
    %c = sdfg.access %s writes(%r["0:M"] : !sdfg.array<f64 ["M"]>) : !sdfg.array<f64 ["M"]>
  }
}

// -----

// A reduction over every axis, written by a map inside a map: the inner
// exit's memlets move too, and the one output element is fixed at 0.
// CHECK-LABEL: sdfg.sdfg @fuse_a_whole_reduction
// CHECK: sdfg.exit("T" = %{{.*}}["0", wcr product] : f64)
// CHECK: sdfg.exit("T" = %{{.*}}["0", volume "N", wcr product] : !sdfg.array<f64 ["1"]>)
// CHECK: sdfg.access %p writes(%{{.*}}["0", volume "M*N", wcr product]
sdfg.sdfg @fuse_a_whole_reduction(%A: !sdfg.array<f64 ["M", "N"]> as "A", %p: !sdfg.array<f64 ["1"]> as "p") symbols {M = i64, N = i64} {
  %T = sdfg.alloc "T" : !sdfg.array<f64 ["M", "N"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["M", "N"]>
    %m = sdfg.map "rows" ["i" = "0:M"] ins("A" = %a["0:M, 0:N"] : !sdfg.array<f64 ["M", "N"]>) outs("T" : !sdfg.array<f64 ["M", "N"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["M", "N"]>):
      %n = sdfg.map "cols" ["j" = "0:N"] ins("A" = %ai["i, 0:N"] : !sdfg.array<f64 ["M", "N"]>) outs("T" : !sdfg.array<f64 ["M", "N"]>) {
      ^bb0(%aj: !sdfg.array<f64 ["M", "N"]>):
        %t = sdfg.tasklet "scale" ins("a" = %aj["i, j"] : !sdfg.array<f64 ["M", "N"]>) outs("o" : f64) {
        ^bb0(%x: f64):
          %h = arith.constant 0.5 : f64
          %q = arith.addf %x, %h : f64
          sdfg.yield %q : f64
        }
        sdfg.exit ("T" = %t["i, j"] : f64)
      }
      sdfg.exit ("T" = %n["i, 0:N"] : !sdfg.array<f64 ["M", "N"]>)
    }
    %tw = sdfg.access %T writes(%m["0:M, 0:N"] : !sdfg.array<f64 ["M", "N"]>) : !sdfg.array<f64 ["M", "N"]>
    %r = sdfg.library "prod" "dace.libraries.standard.nodes.reduce.Reduce"
        ins("" = %tw["0:M, 0:N"] : !sdfg.array<f64 ["M", "N"]>) outs("" : !sdfg.array<f64 ["1"]>)
        properties {wcr = "lambda x, y: x * y", identity = "1"}
    %c = sdfg.access %p writes(%r["0"] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
  }
}

// -----

// The map writes T[i, 0] for every j: the last write wins, which a sum
// would not give.
// CHECK-LABEL: sdfg.sdfg @do_not_fuse_overwrites
// CHECK: sdfg.library
sdfg.sdfg @do_not_fuse_overwrites(%A: !sdfg.array<f64 ["M", "N"]> as "A", %s: !sdfg.array<f64 ["1"]> as "s") symbols {M = i64, N = i64} {
  %T = sdfg.alloc "T" : !sdfg.array<f64 ["M", "1"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["M", "N"]>
    // expected-warning @+1 {{sdfg-map-reduce-fusion does not apply: the Reduce of 'T': the map writes M*N values into M elements, so not each once}}
    %m = sdfg.map "leave" ["i" = "0:M", "j" = "0:N"] ins("A" = %a["0:M, 0:N"] : !sdfg.array<f64 ["M", "N"]>) outs("T" : !sdfg.array<f64 ["M", "1"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["M", "N"]>):
      %t = sdfg.tasklet "id" ins("a" = %ai["i, j"] : !sdfg.array<f64 ["M", "N"]>) outs("o" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit ("T" = %t["i, 0"] : f64)
    }
    %tw = sdfg.access %T writes(%m["0:M, 0", volume "M*N"] : !sdfg.array<f64 ["M", "1"]>) : !sdfg.array<f64 ["M", "1"]>
    %r = sdfg.library "sum" "dace.libraries.standard.nodes.reduce.Reduce"
        ins("" = %tw["0:M, 0"] : !sdfg.array<f64 ["M", "1"]>) outs("" : !sdfg.array<f64 ["1"]>)
        properties {wcr = "lambda a, b: a + b", identity = "0"}
    %c = sdfg.access %s writes(%r["0"] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
  }
}

// -----

// The map reads the output: initialized before the map, it would read
// the identity instead of what the output held.
// CHECK-LABEL: sdfg.sdfg @do_not_fuse_an_output_the_map_reads
// CHECK: sdfg.library
sdfg.sdfg @do_not_fuse_an_output_the_map_reads(%A: !sdfg.array<f64 ["N"]> as "A", %s: !sdfg.array<f64 ["1"]> as "s") symbols {N = i64} {
  %T = sdfg.alloc "T" : !sdfg.array<f64 ["N"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %s0 = sdfg.access %s : !sdfg.array<f64 ["1"]>
    // expected-warning @+1 {{sdfg-map-reduce-fusion does not apply: the Reduce of 'T': its output has other access nodes in the state, which its initialization would overtake}}
    %m = sdfg.map "leave" ["i" = "0:N"] ins("A" = %a["0:N"] : !sdfg.array<f64 ["N"]>, "s" = %s0["0"] : !sdfg.array<f64 ["1"]>) outs("T" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N"]>, %si: !sdfg.array<f64 ["1"]>):
      %t = sdfg.tasklet "scale" ins("a" = %ai["i"] : !sdfg.array<f64 ["N"]>, "s" = %si["0"] : !sdfg.array<f64 ["1"]>) outs("o" : f64) {
      ^bb0(%x: f64, %y: f64):
        %q = arith.mulf %x, %y : f64
        sdfg.yield %q : f64
      }
      sdfg.exit ("T" = %t["i"] : f64)
    }
    %tw = sdfg.access %T writes(%m["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %r = sdfg.library "sum" "dace.libraries.standard.nodes.reduce.Reduce"
        ins("" = %tw["0:N"] : !sdfg.array<f64 ["N"]>) outs("" : !sdfg.array<f64 ["1"]>)
        properties {wcr = "lambda a, b: a + b", identity = "0"}
    %c = sdfg.access %s writes(%r["0"] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
  }
}

// -----

// Another map reads the transient too, so it cannot go.
// CHECK-LABEL: sdfg.sdfg @do_not_fuse_a_transient_read_twice
// CHECK: sdfg.library
sdfg.sdfg @do_not_fuse_a_transient_read_twice(%A: !sdfg.array<f64 ["N"]> as "A", %s: !sdfg.array<f64 ["1"]> as "s", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  %T = sdfg.alloc "T" : !sdfg.array<f64 ["N"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    // expected-warning @+1 {{sdfg-map-reduce-fusion does not apply: the Reduce of 'T': the transient has other readers}}
    %m = sdfg.map "leave" ["i" = "0:N"] ins("A" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("T" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "id" ins("a" = %ai["i"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit ("T" = %t["i"] : f64)
    }
    %tw = sdfg.access %T writes(%m["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %r = sdfg.library "sum" "dace.libraries.standard.nodes.reduce.Reduce"
        ins("" = %tw["0:N"] : !sdfg.array<f64 ["N"]>) outs("" : !sdfg.array<f64 ["1"]>)
        properties {wcr = "lambda a, b: a + b", identity = "0"}
    %c = sdfg.access %s writes(%r["0"] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
    %b = sdfg.access %B writes(%tw["0:N" -> "0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}
