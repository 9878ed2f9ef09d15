// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-inline-sdfgs)' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-inline-sdfgs,sdfg-validate)' -o /dev/null
// RUN: sdfg-run %s --set N=9 --seed 4 | FileCheck %s --check-prefix=SAME
// RUN: sdfg-run %s --set N=9 --seed 4 --pass-pipeline='builtin.module(sdfg-inline-sdfgs)' | FileCheck %s --check-prefix=SAME
// RUN: sdfg-run %s --function inline_dynamic_range_inputs --set N=9 --seed 4 | FileCheck %s --check-prefix=DYN
// RUN: sdfg-run %s --function inline_dynamic_range_inputs --set N=9 --seed 4 --pass-pipeline='builtin.module(sdfg-inline-sdfgs)' | FileCheck %s --check-prefix=DYN

// `c[i] = a[i] + 2.5 * b[i]` in a map, through a nested SDFG of scalars:
// its tasklets read a and b and write the exit directly, the transient
// t moves to the caller.
// SAME: c: <f8[9] checksum 1.8271011858e1
// CHECK-LABEL: sdfg.sdfg @inline_scalar_body_of_a_map
// CHECK: sdfg.alloc "t" : !sdfg.scalar<f64>
// CHECK: ^bb0(%[[A:.*]]: !sdfg.array<f64 ["N"]>, %[[B:.*]]: !sdfg.array<f64 ["N"]>):
// CHECK-NOT: sdfg.nested
// CHECK: sdfg.tasklet "mul" ins("x" = %[[B]]["i"] : !sdfg.array<f64 ["N"]>)
// CHECK: %[[O:.*]] = sdfg.tasklet "add" ins("x" = %[[A]]["i"] : !sdfg.array<f64 ["N"]>
// CHECK: sdfg.exit("c" = %[[O]]["i"] : f64)
sdfg.sdfg @inline_scalar_body_of_a_map(%a: !sdfg.array<f64 ["N"]> as "a", %b: !sdfg.array<f64 ["N"]> as "b", %c: !sdfg.array<f64 ["N"]> as "c") symbols {N = i64} {
  sdfg.state @s {
    %a0 = sdfg.access %a : !sdfg.array<f64 ["N"]>
    %b0 = sdfg.access %b : !sdfg.array<f64 ["N"]>
    %m = sdfg.map "vadd" ["i" = "0:N"] ins("a" = %a0["0:N"] : !sdfg.array<f64 ["N"]>, "b" = %b0["0:N"] : !sdfg.array<f64 ["N"]>) outs("c" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%ain: !sdfg.array<f64 ["N"]>, %bin: !sdfg.array<f64 ["N"]>):
      %n = sdfg.nested "body" ins("x" = %ain["i"] : !sdfg.array<f64 ["N"]>, "y" = %bin["i"] : !sdfg.array<f64 ["N"]>) outs("z" : !sdfg.array<f64 ["N"]>) symbols("i" = "i") {
        sdfg.sdfg @body(%x: !sdfg.scalar<f64> as "x", %y: !sdfg.scalar<f64> as "y", %z: !sdfg.scalar<f64> as "z") symbols {i = i64} {
          %t = sdfg.alloc "t" : !sdfg.scalar<f64>
          sdfg.state @only {
            %yr = sdfg.access %y : !sdfg.scalar<f64>
            %p = sdfg.tasklet "mul" ins("x" = %yr["0"] : !sdfg.scalar<f64>) outs("o" : f64) {
            ^bb0(%v: f64):
              %k = arith.constant 2.5 : f64
              %r = arith.mulf %k, %v : f64
              sdfg.yield %r : f64
            }
            %tw = sdfg.access %t writes(%p["0"] : f64) : !sdfg.scalar<f64>
            %xr = sdfg.access %x : !sdfg.scalar<f64>
            %q = sdfg.tasklet "add" ins("x" = %xr["0"] : !sdfg.scalar<f64>, "y" = %tw["0"] : !sdfg.scalar<f64>) outs("o" : f64) {
            ^bb0(%u: f64, %w: f64):
              %r = arith.addf %u, %w : f64
              sdfg.yield %r : f64
            }
            %zw = sdfg.access %z writes(%q["0"] : f64) : !sdfg.scalar<f64>
          }
        }
      }
      sdfg.exit("c" = %n["i"] : !sdfg.array<f64 ["N"]>)
    }
    %c0 = sdfg.access %c writes(%m["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// A nested SDFG that reads row 1 of a matrix as a vector: its map reads
// the matrix, its memlets gaining the row index.
// CHECK-LABEL: sdfg.sdfg @inline_row_argument
// CHECK-NOT: sdfg.nested
// CHECK: sdfg.map "scale" ["j" = "0:N"] ins("r" = %{{.*}}["1, 0:N"] : !sdfg.array<f64 ["N", "N"]>)
// CHECK: sdfg.tasklet "twice" ins("x" = %{{.*}}["1, j"] : !sdfg.array<f64 ["N", "N"]>)
// CHECK: sdfg.access %B writes(%{{.*}}["0:N"] : !sdfg.array<f64 ["N"]>)
sdfg.sdfg @inline_row_argument(%A: !sdfg.array<f64 ["N", "N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "N"]>
    %n = sdfg.nested "rows" ins("row" = %a["1, 0:N"] : !sdfg.array<f64 ["N", "N"]>) outs("out" : !sdfg.array<f64 ["N"]>) symbols("N" = "N") {
      sdfg.sdfg @rows(%row: !sdfg.array<f64 ["N"]> as "row", %out: !sdfg.array<f64 ["N"]> as "out") symbols {N = i64} {
        sdfg.state @only {
          %r = sdfg.access %row : !sdfg.array<f64 ["N"]>
          %m = sdfg.map "scale" ["j" = "0:N"] ins("r" = %r["0:N"] : !sdfg.array<f64 ["N"]>) outs("out" : !sdfg.array<f64 ["N"]>) {
          ^bb0(%rin: !sdfg.array<f64 ["N"]>):
            %o = sdfg.tasklet "twice" ins("x" = %rin["j"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) {
            ^bb0(%x: f64):
              %s = arith.addf %x, %x : f64
              sdfg.yield %s : f64
            }
            sdfg.exit("out" = %o["j"] : f64)
          }
          %w = sdfg.access %out writes(%m["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
        }
      }
    }
    %b = sdfg.access %B writes(%n["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// A map whose range bounds are dynamic inputs read from scalar arguments
// (`j` in `lo:hi`, as DaCe writes CSR rows): inlined, the dynamic inputs
// read the caller's scalars.
// DYN: B: <f8[9] checksum -7.2151847219e-1
// CHECK-LABEL: sdfg.sdfg @inline_dynamic_range_inputs
// CHECK-NOT: sdfg.nested
// CHECK: sdfg.map "part" ["j" = "b:e"] ins("a" = %{{.*}}["0:N", dynamic] : !sdfg.array<f64 ["N"]>) dyn("b" = %[[LO:.*]]["0"] : !sdfg.scalar<i64>, "e" = %[[HI:.*]]["0"] : !sdfg.scalar<i64>)
sdfg.sdfg @inline_dynamic_range_inputs(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  %lo = sdfg.alloc "lo" : !sdfg.scalar<i64>
  %hi = sdfg.alloc "hi" : !sdfg.scalar<i64>
  sdfg.state @s {
    %t1 = sdfg.tasklet "one" outs("o" : i64) {
      %c = arith.constant 1 : i64
      sdfg.yield %c : i64
    }
    %l = sdfg.access %lo writes(%t1["0"] : i64) : !sdfg.scalar<i64>
    %t2 = sdfg.tasklet "last" outs("o" : i64) {
      %n = sdfg.sym "N - 2" : i64
      sdfg.yield %n : i64
    }
    %h = sdfg.access %hi writes(%t2["0"] : i64) : !sdfg.scalar<i64>
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %n = sdfg.nested "rows" ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>, "lo" = %l["0"] : !sdfg.scalar<i64>, "hi" = %h["0"] : !sdfg.scalar<i64>) outs("b" : !sdfg.array<f64 ["N"]>) symbols("N" = "N") {
      sdfg.sdfg @rows(%ia: !sdfg.array<f64 ["N"]> as "a", %ilo: !sdfg.scalar<i64> as "lo", %ihi: !sdfg.scalar<i64> as "hi", %ib: !sdfg.array<f64 ["N"]> as "b") symbols {N = i64} {
        sdfg.state @only {
          %ra = sdfg.access %ia : !sdfg.array<f64 ["N"]>
          %rl = sdfg.access %ilo : !sdfg.scalar<i64>
          %rh = sdfg.access %ihi : !sdfg.scalar<i64>
          %m = sdfg.map "part" ["j" = "b:e"] ins("a" = %ra["0:N", dynamic] : !sdfg.array<f64 ["N"]>)
              dyn("b" = %rl["0"] : !sdfg.scalar<i64>, "e" = %rh["0"] : !sdfg.scalar<i64>) outs("b" : !sdfg.array<f64 ["N"]>) {
          ^bb0(%ain: !sdfg.array<f64 ["N"]>, %bb: !sdfg.scalar<i64>, %ee: !sdfg.scalar<i64>):
            %o = sdfg.tasklet "neg" ins("x" = %ain["j"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) {
            ^bb0(%x: f64):
              %r = arith.negf %x : f64
              sdfg.yield %r : f64
            }
            sdfg.exit("b" = %o["j"] : f64)
          }
          %w = sdfg.access %ib writes(%m["0:N", dynamic] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
        }
      }
    }
    %b = sdfg.access %B writes(%n["0:N", dynamic] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// Two states, or a symbol mapped to another expression: the call stays.
// CHECK-LABEL: sdfg.sdfg @keep_calls_that_do_not_qualify
// CHECK: sdfg.nested "two_states"
// CHECK: sdfg.nested "renamed"
sdfg.sdfg @keep_calls_that_do_not_qualify(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B", %C: !sdfg.array<f64 ["N"]> as "C") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %n = sdfg.nested "two_states" ins("x" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("y" : !sdfg.array<f64 ["N"]>) symbols("N" = "N") {
      sdfg.sdfg @two_states(%x: !sdfg.array<f64 ["N"]> as "x", %y: !sdfg.array<f64 ["N"]> as "y") symbols {N = i64} {
        sdfg.state @first {
        }
        sdfg.state @second {
          %xr = sdfg.access %x : !sdfg.array<f64 ["N"]>
          %yw = sdfg.access %y writes(%xr["0:N" -> "0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
        }
        sdfg.edge @first -> @second
      }
    }
    %b = sdfg.access %B writes(%n["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %r = sdfg.nested "renamed" ins("x" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("y" : !sdfg.array<f64 ["N"]>) symbols("M" = "N") {
      sdfg.sdfg @renamed(%x: !sdfg.array<f64 ["M"]> as "x", %y: !sdfg.array<f64 ["M"]> as "y") symbols {M = i64} {
        sdfg.state @only {
          %xr = sdfg.access %x : !sdfg.array<f64 ["M"]>
          %yw = sdfg.access %y writes(%xr["0:M" -> "0:M"] : !sdfg.array<f64 ["M"]>) : !sdfg.array<f64 ["M"]>
        }
      }
    }
    %c = sdfg.access %C writes(%r["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}
