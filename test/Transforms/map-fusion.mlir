// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-map-fusion)' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-map-fusion{siblings=true})' | FileCheck %s --check-prefix=SIB
// RUN: sdfg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(sdfg-map-fusion{label=keep})' -o /dev/null
// RUN: not sdfg-opt %s --pass-pipeline='builtin.module(sdfg-map-fusion{siblings=maybe})' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: rm -rf %t && mkdir -p %t
// RUN: sdfg-run %s --function fuse_producer_consumer --set N=7 --seed 3 --out %t/a0 > /dev/null
// RUN: sdfg-run %s --function fuse_producer_consumer --set N=7 --seed 3 --out %t/a1 --pass-pipeline='builtin.module(sdfg-map-fusion)' > /dev/null
// RUN: cmp %t/a0/B.npy %t/a1/B.npy
// RUN: sdfg-run %s --function fuse_rows_through_a_row_buffer --set N=5 --set M=4 --seed 3 --out %t/b0 > /dev/null
// RUN: sdfg-run %s --function fuse_rows_through_a_row_buffer --set N=5 --set M=4 --seed 3 --out %t/b1 --pass-pipeline='builtin.module(sdfg-map-fusion)' > /dev/null
// RUN: cmp %t/b0/B.npy %t/b1/B.npy
// RUN: cmp %t/b0/C.npy %t/b1/C.npy
// RUN: sdfg-run %s --function keep_writing_a_shared_intermediate --set N=7 --seed 3 --out %t/c0 > /dev/null
// RUN: sdfg-run %s --function keep_writing_a_shared_intermediate --set N=7 --seed 3 --out %t/c1 --pass-pipeline='builtin.module(sdfg-map-fusion)' > /dev/null
// RUN: cmp %t/c0/B.npy %t/c1/B.npy
// RUN: cmp %t/c0/C.npy %t/c1/C.npy
// RUN: sdfg-run %s --function fuse_siblings --set N=7 --seed 3 --out %t/d0 > /dev/null
// RUN: sdfg-run %s --function fuse_siblings --set N=7 --seed 3 --out %t/d1 --pass-pipeline='builtin.module(sdfg-map-fusion{siblings=true})' > /dev/null
// RUN: cmp %t/d0/B.npy %t/d1/B.npy
// RUN: cmp %t/d0/C.npy %t/d1/C.npy
// RUN: sdfg-run %s --function fuse_through_a_scalar_the_producer_reads --set N=7 --seed 3 --out %t/e0 > /dev/null
// RUN: sdfg-run %s --function fuse_through_a_scalar_the_producer_reads --set N=7 --seed 3 --out %t/e1 --pass-pipeline='builtin.module(sdfg-map-fusion)' > /dev/null
// RUN: cmp %t/e0/B.npy %t/e1/B.npy
// RUN: cmp %t/e0/S.npy %t/e1/S.npy
// RUN: sdfg-run %s --function fuse_an_update_of_the_same_row --set N=7 --seed 3 --out %t/f0 > /dev/null
// RUN: sdfg-run %s --function fuse_an_update_of_the_same_row --set N=7 --seed 3 --out %t/f1 --pass-pipeline='builtin.module(sdfg-map-fusion)' > /dev/null
// RUN: cmp %t/f0/D.npy %t/f1/D.npy

// BAD: sdfg-map-fusion: siblings `maybe` is not true or false

// The consumer reads, in iteration j, the one element the producer wrote
// in iteration i = j: T becomes a scalar local to the fused map, the
// consumer's parameter is renamed, and the transient goes.
// CHECK-LABEL: sdfg.sdfg @fuse_producer_consumer
// CHECK: %[[L:.*]] = sdfg.alloc "T_local" : !sdfg.scalar<f64>
// CHECK-NOT: sdfg.alloc "T"
// CHECK: sdfg.map "double" ["i" = "0:N"] schedule CPU_Multicore ins("x" = %{{.*}}["0:N"] : !sdfg.array<f64 ["N"]>, "z" = %{{.*}}["0:N"]
// CHECK: %[[O:.*]] = sdfg.tasklet "dbl"
// CHECK: %[[N:.*]] = sdfg.access %[[L]] writes(%[[O]]["0"] : f64) : !sdfg.scalar<f64>
// CHECK: sdfg.tasklet "add" ins("v" = %[[N]]["0"] : !sdfg.scalar<f64>, "u" = %z["i"]
// CHECK: sdfg.sym "i" : f64
// CHECK: sdfg.exit("y" = %{{.*}}["i"] : f64)
// CHECK-NOT: sdfg.map
sdfg.sdfg @fuse_producer_consumer(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  %T = sdfg.alloc "T" : !sdfg.array<f64 ["N"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %r = sdfg.map "double" ["i" = "0:N"] schedule CPU_Multicore ins("x" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("y" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%x: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "dbl" ins("v" = %x["i"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        %w = arith.addf %v, %v : f64
        sdfg.yield %w : f64
      }
      sdfg.exit("y" = %t["i"] : f64)
    }
    %tmp = sdfg.access %T writes(%r["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %s = sdfg.map "plus" ["j" = "0:N"] ins("x" = %tmp["0:N"] : !sdfg.array<f64 ["N"]>, "z" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("y" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%x: !sdfg.array<f64 ["N"]>, %z: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "add" ins("v" = %x["j"] : !sdfg.array<f64 ["N"]>, "u" = %z["j"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64, %u: f64):
        %c = sdfg.sym "j" : f64
        %w = arith.mulf %v, %u : f64
        %q = arith.addf %w, %c : f64
        sdfg.yield %q : f64
      }
      sdfg.exit("y" = %t["j"] : f64)
    }
    %b = sdfg.access %B writes(%s["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// The producer writes a row per iteration (an inner map over j); the
// consumer reads it reversed and its first element: the local is a row.
// CHECK-LABEL: sdfg.sdfg @fuse_rows_through_a_row_buffer
// CHECK: %[[L:.*]] = sdfg.alloc "T_local" : !sdfg.array<f64 ["M"]>
// CHECK: sdfg.map "rows" ["i" = "0:N"] ins("x" = %{{.*}}["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) outs("y" : !sdfg.array<f64 ["N", "M"]>, "s" : !sdfg.array<f64 ["N"]>)
// CHECK: %[[P:.*]] = sdfg.map "cols" ["j" = "0:M"] {{.*}} outs("y" : !sdfg.array<f64 ["M"]>)
// CHECK: sdfg.exit("y" = %{{.*}}["j"] : f64)
// CHECK: %[[N:.*]] = sdfg.access %[[L]] writes(%[[P]]["0:M"] : !sdfg.array<f64 ["M"]>)
// CHECK: sdfg.map "rev" ["j" = "0:M"] ins("x" = %[[N]]["0:M"] : !sdfg.array<f64 ["M"]>)
// CHECK: sdfg.tasklet "cp" ins("v" = %{{.*}}["M - j - 1"] : !sdfg.array<f64 ["M"]>)
// CHECK: sdfg.exit("y" = %{{.*}}["i, j"] : f64)
// CHECK: sdfg.tasklet "first" ins("v" = %[[N]]["0"]
// CHECK: sdfg.exit("y" = %{{.*}}["i, 0:M"] : !sdfg.array<f64 ["N", "M"]>, "s" = %{{.*}}["i"] : f64)
sdfg.sdfg @fuse_rows_through_a_row_buffer(%A: !sdfg.array<f64 ["N", "M"]> as "A", %B: !sdfg.array<f64 ["N", "M"]> as "B", %C: !sdfg.array<f64 ["N"]> as "C") symbols {N = i64, M = i64} {
  %T = sdfg.alloc "T" : !sdfg.array<f64 ["N", "M"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "M"]>
    %r = sdfg.map "rows" ["i" = "0:N"] ins("x" = %a["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) outs("y" : !sdfg.array<f64 ["N", "M"]>) {
    ^bb0(%x: !sdfg.array<f64 ["N", "M"]>):
      %m = sdfg.map "cols" ["j" = "0:M"] ins("x" = %x["i, 0:M"] : !sdfg.array<f64 ["N", "M"]>) outs("y" : !sdfg.array<f64 ["N", "M"]>) {
      ^bb0(%x2: !sdfg.array<f64 ["N", "M"]>):
        %t = sdfg.tasklet "sq" ins("v" = %x2["i, j"] : !sdfg.array<f64 ["N", "M"]>) outs("o" : f64) {
        ^bb0(%v: f64):
          %c = sdfg.sym "j + 1" : f64
          %w = arith.mulf %v, %c : f64
          sdfg.yield %w : f64
        }
        sdfg.exit("y" = %t["i, j"] : f64)
      }
      sdfg.exit("y" = %m["i, 0:M"] : !sdfg.array<f64 ["N", "M"]>)
    }
    %tmp = sdfg.access %T writes(%r["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) : !sdfg.array<f64 ["N", "M"]>
    %s:2 = sdfg.map "use" ["k" = "0:N"] ins("x" = %tmp["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) outs("y" : !sdfg.array<f64 ["N", "M"]>, "s" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%x: !sdfg.array<f64 ["N", "M"]>):
      %m = sdfg.map "rev" ["j" = "0:M"] ins("x" = %x["k, 0:M"] : !sdfg.array<f64 ["N", "M"]>) outs("y" : !sdfg.array<f64 ["N", "M"]>) {
      ^bb0(%x2: !sdfg.array<f64 ["N", "M"]>):
        %t = sdfg.tasklet "cp" ins("v" = %x2["k, M - 1 - j"] : !sdfg.array<f64 ["N", "M"]>) outs("o" : f64) {
        ^bb0(%v: f64):
          sdfg.yield %v : f64
        }
        sdfg.exit("y" = %t["k, j"] : f64)
      }
      %f = sdfg.tasklet "first" ins("v" = %x["k, 0"] : !sdfg.array<f64 ["N", "M"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        sdfg.yield %v : f64
      }
      sdfg.exit("y" = %m["k, 0:M"] : !sdfg.array<f64 ["N", "M"]>, "s" = %f["k"] : f64)
    }
    %b = sdfg.access %B writes(%s#0["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) : !sdfg.array<f64 ["N", "M"]>
    %c = sdfg.access %C writes(%s#1["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// T is copied to C after the consumer: the fused map still writes it,
// from the local, and its access node (with the copy) follows the fused
// map.
// CHECK-LABEL: sdfg.sdfg @keep_writing_a_shared_intermediate
// CHECK: sdfg.alloc "T_local" : !sdfg.scalar<f64>
// CHECK: %[[T:.*]] = sdfg.alloc "T" : !sdfg.array<f64 ["N"]>
// CHECK: %[[F:.*]]:2 = sdfg.map "inc" ["i" = "0:N"] {{.*}} outs("y" : !sdfg.array<f64 ["N"]>, "y_1" : !sdfg.array<f64 ["N"]>)
// CHECK: %[[L:.*]] = sdfg.access %{{.*}} writes(%{{.*}}["0"] : f64) : !sdfg.scalar<f64>
// CHECK: sdfg.tasklet "sq" ins("v" = %[[L]]["0"]
// CHECK: sdfg.exit("y" = %[[L]]["0" -> "i"] : !sdfg.scalar<f64>, "y_1" = %{{.*}}["i"] : f64)
// CHECK: %[[N:.*]] = sdfg.access %[[T]] writes(%[[F]]#0["0:N"]
// CHECK: sdfg.access %{{.*}} writes(%[[F]]#1["0:N"]
// CHECK: sdfg.access %C writes(%[[N]]["0:N"]
sdfg.sdfg @keep_writing_a_shared_intermediate(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B", %C: !sdfg.array<f64 ["N"]> as "C") symbols {N = i64} {
  %T = sdfg.alloc "T" : !sdfg.array<f64 ["N"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %r = sdfg.map "inc" ["i" = "0:N"] ins("x" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("y" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%x: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "inc" ins("v" = %x["i"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        %one = arith.constant 1.0 : f64
        %w = arith.addf %v, %one : f64
        sdfg.yield %w : f64
      }
      sdfg.exit("y" = %t["i"] : f64)
    }
    %tmp = sdfg.access %T writes(%r["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %s = sdfg.map "sq" ["i" = "0:N"] ins("x" = %tmp["0:N"] : !sdfg.array<f64 ["N"]>) outs("y" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%x: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "sq" ins("v" = %x["i"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        %w = arith.mulf %v, %v : f64
        sdfg.yield %w : f64
      }
      sdfg.exit("y" = %t["i"] : f64)
    }
    %b = sdfg.access %B writes(%s["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %c = sdfg.access %C writes(%tmp["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// Two maps that read A and share nothing else fuse only as siblings:
// one map reads A once per iteration for both outputs.
// CHECK-LABEL: sdfg.sdfg @fuse_siblings
// CHECK-COUNT-2: sdfg.map
// SIB-LABEL: sdfg.sdfg @fuse_siblings
// SIB: %[[F:.*]]:2 = sdfg.map "neg" ["i" = "0:N"] ins("x" = %[[A:.*]]["0:N"] : !sdfg.array<f64 ["N"]>, "x_1" = %[[A]]["0:N"] : !sdfg.array<f64 ["N"]>) outs("y" : !sdfg.array<f64 ["N"]>, "y_1" : !sdfg.array<f64 ["N"]>)
// SIB: sdfg.tasklet "neg"
// SIB: sdfg.tasklet "half"
// SIB: sdfg.exit("y" = %{{.*}}["i"] : f64, "y_1" = %{{.*}}["i"] : f64)
// SIB-NOT: sdfg.map
// SIB: sdfg.access %B writes(%[[F]]#0["0:N"]
// SIB: sdfg.access %C writes(%[[F]]#1["0:N"]
sdfg.sdfg @fuse_siblings(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B", %C: !sdfg.array<f64 ["N"]> as "C") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %r = sdfg.map "neg" ["i" = "0:N"] ins("x" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("y" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%x: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "neg" ins("v" = %x["i"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        %w = arith.negf %v : f64
        sdfg.yield %w : f64
      }
      sdfg.exit("y" = %t["i"] : f64)
    }
    %b = sdfg.access %B writes(%r["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %s = sdfg.map "half" ["k" = "0:N"] ins("x" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("y" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%x: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "half" ins("v" = %x["N - 1 - k"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        %h = arith.constant 0.5 : f64
        %w = arith.mulf %v, %h : f64
        sdfg.yield %w : f64
      }
      sdfg.exit("y" = %t["k"] : f64)
    }
    %c = sdfg.access %C writes(%s["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// A three-point stencil reads what neighbouring iterations write.
// CHECK-LABEL: sdfg.sdfg @do_not_fuse_a_stencil
// CHECK-COUNT-2: sdfg.map
sdfg.sdfg @do_not_fuse_a_stencil(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  %T = sdfg.alloc "T" : !sdfg.array<f64 ["N"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    // expected-warning @+1 {{sdfg-map-fusion does not apply: the second map reads `i - 1:i + 2` where one iteration of the first writes `i`}}
    %r = sdfg.map "keep" ["i" = "1:N - 1"] ins("x" = %a["1:N - 1"] : !sdfg.array<f64 ["N"]>) outs("y" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%x: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "cp" ins("v" = %x["i"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        sdfg.yield %v : f64
      }
      sdfg.exit("y" = %t["i"] : f64)
    }
    %tmp = sdfg.access %T writes(%r["1:N - 1"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %s = sdfg.map "avg" ["i" = "1:N - 1"] ins("x" = %tmp["0:N"] : !sdfg.array<f64 ["N"]>) outs("y" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%x: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "avg" ins("v" = %x["i - 1:i + 2"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: !sdfg.array<f64 ["N"]>):
        %z = arith.constant 0.0 : f64
        sdfg.yield %z : f64
      }
      sdfg.exit("y" = %t["i"] : f64)
    }
    %b = sdfg.access %B writes(%s["1:N - 1"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// The second map overwrites A, which the first map reads: fused, a later
// iteration of the first would read what an earlier one of the second
// wrote.
// CHECK-LABEL: sdfg.sdfg @do_not_fuse_across_a_write_after_read
// CHECK-COUNT-2: sdfg.map
sdfg.sdfg @do_not_fuse_across_a_write_after_read(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64} {
  %T = sdfg.alloc "T" : !sdfg.array<f64 ["N"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    // expected-warning @+1 {{sdfg-map-fusion does not apply: the second map writes `A`, which the first map accesses}}
    %r = sdfg.map "keep" ["i" = "0:N"] ins("x" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("y" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%x: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "rev" ins("v" = %x["N - 1 - i"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        sdfg.yield %v : f64
      }
      sdfg.exit("y" = %t["i"] : f64)
    }
    %tmp = sdfg.access %T writes(%r["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %s = sdfg.map "back" ["i" = "0:N"] ins("x" = %tmp["0:N"] : !sdfg.array<f64 ["N"]>) outs("y" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%x: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "cp" ins("v" = %x["i"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        sdfg.yield %v : f64
      }
      sdfg.exit("y" = %t["i"] : f64)
    }
    %a2 = sdfg.access %A writes(%s["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// The second map overwrites D, which the first reads, but each iteration
// of both touches only its own row (`D[i, 0]`, `D[i, 1]` read, `D[j, 1]`
// written, with j renamed to i): fused, every row is still read before it
// is written, as in the loop bodies of a Thomas solver.
// CHECK-LABEL: sdfg.sdfg @fuse_an_update_of_the_same_row
// CHECK: sdfg.map "diff"
// CHECK-NOT: sdfg.map
// CHECK: sdfg.exit("z" = %{{.*}}["i, 1"] : f64)
sdfg.sdfg @fuse_an_update_of_the_same_row(%D: !sdfg.array<f64 ["N", "2"]> as "D") symbols {N = i64} {
  %T = sdfg.alloc "T" : !sdfg.array<f64 ["N"]>
  sdfg.state @s {
    %d = sdfg.access %D : !sdfg.array<f64 ["N", "2"]>
    %r = sdfg.map "diff" ["i" = "0:N"] ins("x" = %d["0:N, 0:2"] : !sdfg.array<f64 ["N", "2"]>) outs("y" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%x: !sdfg.array<f64 ["N", "2"]>):
      %t = sdfg.tasklet "sub" ins("a" = %x["i, 0"] : !sdfg.array<f64 ["N", "2"]>, "b" = %x["i, 1"] : !sdfg.array<f64 ["N", "2"]>) outs("o" : f64) {
      ^bb0(%a: f64, %b: f64):
        %v = arith.subf %b, %a : f64
        sdfg.yield %v : f64
      }
      sdfg.exit("y" = %t["i"] : f64)
    }
    %tmp = sdfg.access %T writes(%r["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %s = sdfg.map "store" ["j" = "0:N"] ins("t" = %tmp["0:N"] : !sdfg.array<f64 ["N"]>) outs("z" : !sdfg.array<f64 ["N", "2"]>) {
    ^bb0(%t: !sdfg.array<f64 ["N"]>):
      %u = sdfg.tasklet "twice" ins("v" = %t["j"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        %w = arith.addf %v, %v : f64
        sdfg.yield %w : f64
      }
      sdfg.exit("z" = %u["j, 1"] : f64)
    }
    %d2 = sdfg.access %D writes(%s["0:N, 1"] : !sdfg.array<f64 ["N", "2"]>) : !sdfg.array<f64 ["N", "2"]>
  }
}

// -----

// Both maps write D[i]: fused, the two writes of one element would both
// reach the exit of one iteration, in no order (the second's must win).
// CHECK-LABEL: sdfg.sdfg @do_not_fuse_two_writes_of_one_element
// CHECK-COUNT-2: sdfg.map
sdfg.sdfg @do_not_fuse_two_writes_of_one_element(%D: !sdfg.array<f64 ["N"]> as "D") symbols {N = i64} {
  %T = sdfg.alloc "T" : !sdfg.array<f64 ["N"]>
  sdfg.state @s {
    // expected-warning @+1 {{sdfg-map-fusion does not apply: the second map writes `D`, which the first map accesses}}
    %r:2 = sdfg.map "keep" ["i" = "0:N"] outs("y" : !sdfg.array<f64 ["N"]>, "d" : !sdfg.array<f64 ["N"]>) {
      %t:2 = sdfg.tasklet "one" outs("o" : f64, "p" : f64) {
        %c = arith.constant 1.0 : f64
        sdfg.yield %c, %c : f64, f64
      }
      sdfg.exit("y" = %t#0["i"] : f64, "d" = %t#1["i"] : f64)
    }
    %tmp = sdfg.access %T writes(%r#0["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %d1 = sdfg.access %D writes(%r#1["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %s = sdfg.map "twice" ["j" = "0:N"] ins("t" = %tmp["0:N"] : !sdfg.array<f64 ["N"]>) outs("z" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%x: !sdfg.array<f64 ["N"]>):
      %u = sdfg.tasklet "double" ins("v" = %x["j"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        %w = arith.addf %v, %v : f64
        sdfg.yield %w : f64
      }
      sdfg.exit("z" = %u["j"] : f64)
    }
    %d2 = sdfg.access %D writes(%s["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// The maps run over different ranges.
// CHECK-LABEL: sdfg.sdfg @do_not_fuse_different_ranges
// CHECK-COUNT-2: sdfg.map
sdfg.sdfg @do_not_fuse_different_ranges(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  %T = sdfg.alloc "T" : !sdfg.array<f64 ["N"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    // expected-warning @+1 {{sdfg-map-fusion does not apply: the ranges differ (`j` = `0:N - 1`)}}
    %r = sdfg.map "keep" ["i" = "0:N"] ins("x" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("y" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%x: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "cp" ins("v" = %x["i"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        sdfg.yield %v : f64
      }
      sdfg.exit("y" = %t["i"] : f64)
    }
    %tmp = sdfg.access %T writes(%r["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %s = sdfg.map "shift" ["j" = "0:N - 1"] ins("x" = %tmp["1:N"] : !sdfg.array<f64 ["N"]>) outs("y" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%x: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "cp" ins("v" = %x["j + 1"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        sdfg.yield %v : f64
      }
      sdfg.exit("y" = %t["j"] : f64)
    }
    %b = sdfg.access %B writes(%s["0:N - 1"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// The producer keeps each element in a scalar that it also reads itself
// (NumPy's `f = a - b; g = f * h; where(g > 0, 0, f)`): the scalar is the
// fused map's local, read by both, and T goes.
// CHECK-LABEL: sdfg.sdfg @fuse_through_a_scalar_the_producer_reads
// CHECK-NOT: sdfg.alloc "T"
// CHECK: %[[L:.*]] = sdfg.alloc "L" : !sdfg.scalar<f64>
// CHECK: sdfg.map "double"
// CHECK: %[[N:.*]] = sdfg.access %[[L]] writes
// CHECK: sdfg.tasklet "square" ins("v" = %[[N]]["0"] : !sdfg.scalar<f64>)
// CHECK: sdfg.tasklet "add" ins("v" = %[[N]]["0"] : !sdfg.scalar<f64>
// CHECK-NOT: sdfg.map
sdfg.sdfg @fuse_through_a_scalar_the_producer_reads(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B", %S: !sdfg.array<f64 ["N"]> as "S") symbols {N = i64} {
  %T = sdfg.alloc "T" : !sdfg.array<f64 ["N"]>
  %L = sdfg.alloc "L" : !sdfg.scalar<f64>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %r:2 = sdfg.map "double" ["i" = "0:N"] ins("x" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("y" : !sdfg.array<f64 ["N"]>, "s" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%x: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "dbl" ins("v" = %x["i"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        %w = arith.addf %v, %v : f64
        sdfg.yield %w : f64
      }
      %l = sdfg.access %L writes(%t["0"] : f64) : !sdfg.scalar<f64>
      %q = sdfg.tasklet "square" ins("v" = %l["0"] : !sdfg.scalar<f64>) outs("o" : f64) {
      ^bb0(%v: f64):
        %w = arith.mulf %v, %v : f64
        sdfg.yield %w : f64
      }
      sdfg.exit("y" = %l["0" -> "i"] : !sdfg.scalar<f64>, "s" = %q["i"] : f64)
    }
    %tmp = sdfg.access %T writes(%r#0["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %sq = sdfg.access %S writes(%r#1["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %s = sdfg.map "plus" ["j" = "0:N"] ins("x" = %tmp["0:N"] : !sdfg.array<f64 ["N"]>, "z" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("y" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%x: !sdfg.array<f64 ["N"]>, %z: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "add" ins("v" = %x["j"] : !sdfg.array<f64 ["N"]>, "u" = %z["j"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64, %u: f64):
        %w = arith.mulf %v, %u : f64
        sdfg.yield %w : f64
      }
      sdfg.exit("y" = %t["j"] : f64)
    }
    %b = sdfg.access %B writes(%s["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}
