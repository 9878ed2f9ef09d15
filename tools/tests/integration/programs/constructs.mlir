// One SDFG per lowered construct, each computing something the execution
// test (execute.rs, `constructs_compute_their_expected_results`) knows the
// answer to. Every output container is `out`.

// A for loop with break and continue: out[t] = t for t < 5, skipping t = 2;
// the loop stops at t = 5 (T = 10).
sdfg.sdfg @loop_break_continue(%out: !sdfg.array<i64 ["T"]> as "out") symbols {T = i64, t = i64} {
  sdfg.loop @l var "t" init "0" cond "t < T" update "t + 1" {
    sdfg.state @check {
    }
    sdfg.continue @skip
    sdfg.break @stop
    sdfg.state @write {
      %v = sdfg.tasklet "w" outs("o" : i64) {
        %s = sdfg.sym "t" : i64
        sdfg.yield %s : i64
      }
      %a = sdfg.access %out writes(%v["t"] : i64) : !sdfg.array<i64 ["T"]>
    }
    sdfg.edge @check -> @skip if "t == 2"
    sdfg.edge @check -> @stop if "t == 5"
    sdfg.edge @check -> @write if "t != 2 and t != 5"
  }
}

// A do-while loop runs its body once even when the condition fails.
sdfg.sdfg @do_while(%out: !sdfg.array<i64 ["1"]> as "out") symbols {i = i64} {
  sdfg.loop @l var "i" init "7" cond "i < 3" update "i + 1" inverted {
    sdfg.state @body {
      %v = sdfg.tasklet "w" outs("o" : i64) {
        %s = sdfg.sym "i * 10" : i64
        sdfg.yield %s : i64
      }
      %a = sdfg.access %out writes(%v["0"] : i64) : !sdfg.array<i64 ["1"]>
    }
  }
}

// A parallel sum into one element: atomic WCR. out[0] = N * (N - 1) / 2.
sdfg.sdfg @parallel_sum(%out: !sdfg.array<i64 ["1"]> as "out") symbols {N = i64} {
  sdfg.state @s {
    %r = sdfg.map "m" ["i" = "0:N"] schedule CPU_Multicore outs("out" : !sdfg.array<i64 ["1"]>) {
      %v = sdfg.tasklet "w" outs("o" : i64) {
        %s = sdfg.sym "i" : i64
        sdfg.yield %s : i64
      }
      sdfg.exit ("out" = %v["0", wcr sum] : i64)
    }
    %a = sdfg.access %out writes(%r["0", wcr sum] : !sdfg.array<i64 ["1"]>) : !sdfg.array<i64 ["1"]>
  }
}

// A parallel maximum through a custom lambda: out[0] = max(out[0], 3*i % 7).
sdfg.sdfg @parallel_max(%out: !sdfg.array<i64 ["1"]> as "out") symbols {N = i64} {
  sdfg.state @s {
    %r = sdfg.map "m" ["i" = "0:N"] outs("out" : !sdfg.array<i64 ["1"]>) {
      %v = sdfg.tasklet "w" outs("o" : i64) {
        %s = sdfg.sym "(3 * i) % 7" : i64
        sdfg.yield %s : i64
      }
      sdfg.exit ("out" = %v["0", wcr "lambda a, b: max(a, b)"] : i64)
    }
    %a = sdfg.access %out writes(%r["0", wcr "lambda a, b: max(a, b)"] : !sdfg.array<i64 ["1"]>) : !sdfg.array<i64 ["1"]>
  }
}

// A strided, negative-step map: out[i] = i for i = 9, 6, 3, 0.
sdfg.sdfg @negative_step(%out: !sdfg.array<i64 ["10"]> as "out") {
  sdfg.state @s {
    %r = sdfg.map "m" ["i" = "9:-1:-3"] outs("out" : !sdfg.array<i64 ["10"]>) {
      %v = sdfg.tasklet "w" outs("o" : i64) {
        %s = sdfg.sym "i" : i64
        sdfg.yield %s : i64
      }
      sdfg.exit ("out" = %v["i"] : i64)
    }
    %a = sdfg.access %out writes(%r["0:10"] : !sdfg.array<i64 ["10"]>) : !sdfg.array<i64 ["10"]>
  }
}

// A view of row 1 of a 3x4 transient, written through the view (which
// writes back into the transient: DaCe's `views` edge) and copied out:
// out = [0, 10, 20, 30].
sdfg.sdfg @view_row(%out: !sdfg.array<i64 ["4"]> as "out") {
  %buf = sdfg.alloc "buf" : !sdfg.array<i64 ["3", "4"]>
  %row = sdfg.alloc "row" : !sdfg.view<i64 ["4"] strides ["1"]>
  sdfg.state @s {
    %r = sdfg.map "m" ["j" = "0:4"] outs("row" : !sdfg.view<i64 ["4"] strides ["1"]>) {
      %v = sdfg.tasklet "w" outs("o" : i64) {
        %s = sdfg.sym "10 * j" : i64
        sdfg.yield %s : i64
      }
      sdfg.exit ("row" = %v["j"] : i64)
    }
    %rw = sdfg.access %row writes(%r["0:4"] : !sdfg.view<i64 ["4"] strides ["1"]>) : !sdfg.view<i64 ["4"] strides ["1"]>
    %b = sdfg.access %buf writes(%rw["0:4" -> "1, 0:4"] : !sdfg.view<i64 ["4"] strides ["1"]>) : !sdfg.array<i64 ["3", "4"]>
  }
  sdfg.state @copy {
    %b = sdfg.access %buf : !sdfg.array<i64 ["3", "4"]>
    %o = sdfg.access %out writes(%b["1, 0:4" -> "0:4"] : !sdfg.array<i64 ["3", "4"]>) : !sdfg.array<i64 ["4"]>
  }
  sdfg.edge @s -> @copy
}

// A nested SDFG on a subset with a symbol mapping: it writes M (= N - 2)
// into every element of out[2:N]; out[0:2] stays 0.
sdfg.sdfg @nested_subset(%out: !sdfg.array<i64 ["N"]> as "out") symbols {N = i64} {
  sdfg.state @s {
    %n = sdfg.nested "fill" outs("x" : !sdfg.array<i64 ["N"]>) symbols("M" = "N - 2") {
      sdfg.sdfg @fill(%x: !sdfg.array<i64 ["M"]> as "x") symbols {M = i64} {
        sdfg.state @t {
          %r = sdfg.map "m" ["k" = "0:M"] outs("x" : !sdfg.array<i64 ["M"]>) {
            %v = sdfg.tasklet "w" outs("o" : i64) {
              %s = sdfg.sym "M" : i64
              sdfg.yield %s : i64
            }
            sdfg.exit ("x" = %v["k"] : i64)
          }
          %xa = sdfg.access %x writes(%r["0:M"] : !sdfg.array<i64 ["M"]>) : !sdfg.array<i64 ["M"]>
        }
      }
    }
    %a = sdfg.access %out writes(%n["2:N"] : !sdfg.array<i64 ["N"]>) : !sdfg.array<i64 ["N"]>
  }
}

// Column-major data (Fortran strides) and a transposing copy:
// out[i, j] = in[j, i] where in is stored with strides [1, 3].
sdfg.sdfg @strided_copy(%inp: !sdfg.array<i64 ["3", "2"] strides ["1", "3"]> as "inp",
                        %out: !sdfg.array<i64 ["2", "3"]> as "out") {
  sdfg.state @s {
    %a = sdfg.access %inp : !sdfg.array<i64 ["3", "2"] strides ["1", "3"]>
    %r = sdfg.map "m" ["i" = "0:2", "j" = "0:3"] ins("inp" = %a["0:3, 0:2"] : !sdfg.array<i64 ["3", "2"] strides ["1", "3"]>)
        outs("out" : !sdfg.array<i64 ["2", "3"]>) {
    ^bb0(%in: !sdfg.array<i64 ["3", "2"] strides ["1", "3"]>):
      %v = sdfg.tasklet "t" ins("a" = %in["j, i"] : !sdfg.array<i64 ["3", "2"] strides ["1", "3"]>) outs("o" : i64) {
      ^bb0(%x: i64):
        sdfg.yield %x : i64
      }
      sdfg.exit ("out" = %v["i, j"] : i64)
    }
    %o = sdfg.access %out writes(%r["0:2, 0:3"] : !sdfg.array<i64 ["2", "3"]>) : !sdfg.array<i64 ["2", "3"]>
  }
}

// Streams: a sequential map pushes 2 * i, a state later drains the stream
// into out (a bulk pop of at most N elements).
sdfg.sdfg @stream_roundtrip(%out: !sdfg.array<i64 ["N"]> as "out") symbols {N = i64} {
  %s = sdfg.alloc "s" : !sdfg.stream<i64>
  sdfg.state @fill {
    %r = sdfg.map "m" ["i" = "0:N"] schedule Sequential outs("s" : !sdfg.stream<i64>) {
      %v = sdfg.tasklet "w" outs("o" : i64) {
        %i = sdfg.sym "2 * i" : i64
        sdfg.yield %i : i64
      }
      sdfg.exit ("s" = %v["0"] : i64)
    }
    %a = sdfg.access %s writes(%r["0"] : !sdfg.stream<i64>) : !sdfg.stream<i64>
  }
  sdfg.state @drain {
    %a = sdfg.access %s : !sdfg.stream<i64>
    %o = sdfg.access %out writes(%a["0" -> "0:N"] : !sdfg.stream<i64>) : !sdfg.array<i64 ["N"]>
  }
  sdfg.edge @fill -> @drain
}

// An array of two streams: 10 and 20 go to stream 1, 30 to stream 0; a
// tasklet pops the first element of each (out[0] = 30, out[1] = 10), then
// the rest of stream 1 (20) is popped into out[2:4] (one element: out[2]).
sdfg.sdfg @stream_array(%out: !sdfg.array<i64 ["4"]> as "out") {
  %s = sdfg.alloc "s" : !sdfg.stream<i64 shape ["2"]>
  sdfg.state @fill {
    %a:3 = sdfg.tasklet "a" outs("x" : i64, "y" : i64, "z" : i64) {
      %c10 = arith.constant 10 : i64
      %c20 = arith.constant 20 : i64
      %c30 = arith.constant 30 : i64
      sdfg.yield %c10, %c20, %c30 : i64, i64, i64
    }
    %s1 = sdfg.access %s writes(%a#0["1"] : i64) : !sdfg.stream<i64 shape ["2"]>
    %s2 = sdfg.access %s writes(%a#1["1"] : i64) after(%s1 : !sdfg.stream<i64 shape ["2"]>) : !sdfg.stream<i64 shape ["2"]>
    %s0 = sdfg.access %s writes(%a#2["0"] : i64) after(%s2 : !sdfg.stream<i64 shape ["2"]>) : !sdfg.stream<i64 shape ["2"]>
  }
  sdfg.state @pop {
    %a = sdfg.access %s : !sdfg.stream<i64 shape ["2"]>
    %t:2 = sdfg.tasklet "p" ins("p" = %a["0"] : !sdfg.stream<i64 shape ["2"]>, "q" = %a["1"] : !sdfg.stream<i64 shape ["2"]>) outs("u" : i64, "w" : i64) {
    ^bb0(%p: i64, %q: i64):
      sdfg.yield %p, %q : i64, i64
    }
    %o = sdfg.access %out writes(%t#0["0"] : i64) : !sdfg.array<i64 ["4"]>
    %o2 = sdfg.access %out writes(%t#1["1"] : i64) after(%o : !sdfg.array<i64 ["4"]>) : !sdfg.array<i64 ["4"]>
  }
  sdfg.state @rest {
    %a = sdfg.access %s : !sdfg.stream<i64 shape ["2"]>
    %o = sdfg.access %out writes(%a["1" -> "2:4"] : !sdfg.stream<i64 shape ["2"]>) : !sdfg.array<i64 ["4"]>
  }
  sdfg.edge @fill -> @pop
  sdfg.edge @pop -> @rest
}

// A consume scope with P processing elements sums the stream 0, 2, ...,
// 2 * (N - 1) into out[0] (atomically): N * (N - 1).
sdfg.sdfg @consume_sum(%out: !sdfg.array<i64 ["1"]> as "out") symbols {N = i64, P = i64} {
  %s = sdfg.alloc "s" : !sdfg.stream<i64>
  sdfg.state @fill {
    %r = sdfg.map "m" ["i" = "0:N"] schedule Sequential outs("s" : !sdfg.stream<i64>) {
      %v = sdfg.tasklet "w" outs("o" : i64) {
        %i = sdfg.sym "2 * i" : i64
        sdfg.yield %i : i64
      }
      sdfg.exit ("s" = %v["0"] : i64)
    }
    %a = sdfg.access %s writes(%r["0"] : !sdfg.stream<i64>) : !sdfg.stream<i64>
  }
  sdfg.state @sum {
    %a = sdfg.access %s : !sdfg.stream<i64>
    %c = sdfg.consume "c" (%a["0"] : !sdfg.stream<i64>) pe "p" pes "P" outs("out" : !sdfg.array<i64 ["1"]>) {
    ^bb0(%e: i64):
      %t = sdfg.tasklet "add" ins("x" = %e["0", data "s"] : i64) outs("o" : i64) {
      ^bb0(%x: i64):
        sdfg.yield %x : i64
      }
      sdfg.exit ("out" = %t["0", wcr sum] : i64)
    }
    %o = sdfg.access %out writes(%c["0", wcr sum] : !sdfg.array<i64 ["1"]>) : !sdfg.array<i64 ["1"]>
  }
  sdfg.edge @fill -> @sum
}

// A consume scope with one processing element forwards e + 1 from one
// stream to another (pushes inside the consume body), drained into out.
sdfg.sdfg @consume_forward(%out: !sdfg.array<i64 ["N"]> as "out") symbols {N = i64} {
  %s = sdfg.alloc "s" : !sdfg.stream<i64>
  %t = sdfg.alloc "t" : !sdfg.stream<i64>
  sdfg.state @fill {
    %r = sdfg.map "m" ["i" = "0:N"] schedule Sequential outs("s" : !sdfg.stream<i64>) {
      %v = sdfg.tasklet "w" outs("o" : i64) {
        %i = sdfg.sym "i" : i64
        sdfg.yield %i : i64
      }
      sdfg.exit ("s" = %v["0"] : i64)
    }
    %a = sdfg.access %s writes(%r["0"] : !sdfg.stream<i64>) : !sdfg.stream<i64>
  }
  sdfg.state @forward {
    %a = sdfg.access %s : !sdfg.stream<i64>
    %c = sdfg.consume "c" (%a["0"] : !sdfg.stream<i64>) pe "p" pes "1" outs("t" : !sdfg.stream<i64>) {
    ^bb0(%e: i64):
      %u = sdfg.tasklet "inc" ins("x" = %e["0", data "s"] : i64) outs("o" : i64) {
      ^bb0(%x: i64):
        %one = arith.constant 1 : i64
        %y = arith.addi %x, %one : i64
        sdfg.yield %y : i64
      }
      sdfg.exit ("t" = %u["0"] : i64)
    }
    %b = sdfg.access %t writes(%c["0"] : !sdfg.stream<i64>) : !sdfg.stream<i64>
    %o = sdfg.access %out writes(%b["0" -> "0:N"] : !sdfg.stream<i64>) : !sdfg.array<i64 ["N"]>
  }
  sdfg.edge @fill -> @forward
}

// Three processing elements take the stream 0, 1, ..., N - 1 in chunks
// of up to 4 elements: out[0] sums them (N * (N - 1) / 2) and out[1]
// counts the chunks. Every element is queued before the scope starts, so
// the chunks have 4, 4 and N - 8 elements whatever the schedule.
sdfg.sdfg @consume_chunks(%out: !sdfg.array<i64 ["2"]> as "out") symbols {N = i64} {
  %s = sdfg.alloc "s" : !sdfg.stream<i64>
  sdfg.state @fill {
    %r = sdfg.map "m" ["i" = "0:N"] schedule Sequential outs("s" : !sdfg.stream<i64>) {
      %v = sdfg.tasklet "w" outs("o" : i64) {
        %i = sdfg.sym "i" : i64
        sdfg.yield %i : i64
      }
      sdfg.exit ("s" = %v["0"] : i64)
    }
    %a = sdfg.access %s writes(%r["0"] : !sdfg.stream<i64>) : !sdfg.stream<i64>
  }
  sdfg.state @sum {
    %a = sdfg.access %s : !sdfg.stream<i64>
    %c = sdfg.consume "c" (%a["0"] : !sdfg.stream<i64>) pe "p" pes "3" chunksize "4" outs("out" : !sdfg.array<i64 ["2"]>) {
    ^bb0(%e: !sdfg.array<i64 ["4"]>):
      %t:2 = sdfg.tasklet "add" ins("x" = %e["0:4", data "s"] : !sdfg.array<i64 ["4"]>) outs("sum" : i64, "one" : i64) {
      ^bb0(%x: memref<4xi64>):
        %n = sdfg.sym "__dace_c_numelems" : index
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %zero = arith.constant 0 : i64
        %sum = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i64) {
          %xk = memref.load %x[%k] : memref<4xi64>
          %next = arith.addi %acc, %xk : i64
          scf.yield %next : i64
        }
        %one = arith.constant 1 : i64
        sdfg.yield %sum, %one : i64, i64
      }
      sdfg.exit ("out" = %t#0["0", wcr sum] : i64, "out" = %t#1["1", wcr sum] : i64)
    }
    %o = sdfg.access %out writes(%c["0:2", wcr sum] : !sdfg.array<i64 ["2"]>) : !sdfg.array<i64 ["2"]>
  }
  sdfg.edge @fill -> @sum
}

// One processing element takes 1, 2, ..., 10 in chunks of 2 and adds them
// to out[0] until out[0] >= 12 (the quiescence condition): 3, then 10,
// then 21, where it stops.
sdfg.sdfg @consume_quiescence(%out: !sdfg.array<i64 ["1"]> as "out") {
  %s = sdfg.alloc "s" : !sdfg.stream<i64>
  sdfg.state @fill {
    %r = sdfg.map "m" ["i" = "0:10"] schedule Sequential outs("s" : !sdfg.stream<i64>) {
      %v = sdfg.tasklet "w" outs("o" : i64) {
        %i = sdfg.sym "i + 1" : i64
        sdfg.yield %i : i64
      }
      sdfg.exit ("s" = %v["0"] : i64)
    }
    %a = sdfg.access %s writes(%r["0"] : !sdfg.stream<i64>) : !sdfg.stream<i64>
  }
  sdfg.state @sum {
    %a = sdfg.access %s : !sdfg.stream<i64>
    %c = sdfg.consume "q" (%a["0"] : !sdfg.stream<i64>) pe "p" pes "1" quiescence "out[0] >= 12" chunksize "2" outs("out" : !sdfg.array<i64 ["1"]>) {
    ^bb0(%e: !sdfg.array<i64 ["2"]>):
      %t = sdfg.tasklet "add" ins("x" = %e["0:2", data "s"] : !sdfg.array<i64 ["2"]>) outs("sum" : i64) {
      ^bb0(%x: memref<2xi64>):
        %n = sdfg.sym "__dace_q_numelems" : index
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %zero = arith.constant 0 : i64
        %sum = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i64) {
          %xk = memref.load %x[%k] : memref<2xi64>
          %next = arith.addi %acc, %xk : i64
          scf.yield %next : i64
        }
        sdfg.yield %sum : i64
      }
      sdfg.exit ("out" = %t["0", wcr sum] : i64)
    }
    %o = sdfg.access %out writes(%c["0", wcr sum] : !sdfg.array<i64 ["1"]>) : !sdfg.array<i64 ["1"]>
  }
  sdfg.edge @fill -> @sum
}

// A reference pointed at A[1:3], copied to out[0:2], then pointed at
// B[2:4] and copied to out[2:4]: A = 1, 2, 3, 4 and B = 10, 20, 30, 40.
sdfg.sdfg @reference_repointed(%out: !sdfg.array<i64 ["4"]> as "out") {
  %A = sdfg.alloc "A" : !sdfg.array<i64 ["4"]>
  %B = sdfg.alloc "B" : !sdfg.array<i64 ["4"]>
  %r = sdfg.alloc "r" : !sdfg.ref<i64 ["2"]>
  sdfg.state @fill {
    %m:2 = sdfg.map "m" ["i" = "0:4"] outs("A" : !sdfg.array<i64 ["4"]>, "B" : !sdfg.array<i64 ["4"]>) {
      %v:2 = sdfg.tasklet "w" outs("a" : i64, "b" : i64) {
        %x = sdfg.sym "i + 1" : i64
        %y = sdfg.sym "10 * i + 10" : i64
        sdfg.yield %x, %y : i64, i64
      }
      sdfg.exit ("A" = %v#0["i"] : i64, "B" = %v#1["i"] : i64)
    }
    %a = sdfg.access %A writes(%m#0["0:4"] : !sdfg.array<i64 ["4"]>) : !sdfg.array<i64 ["4"]>
    %b = sdfg.access %B writes(%m#1["0:4"] : !sdfg.array<i64 ["4"]>) : !sdfg.array<i64 ["4"]>
  }
  sdfg.state @first {
    %a = sdfg.access %A : !sdfg.array<i64 ["4"]>
    %ra = sdfg.access %r bind(%a ["1:3"] : !sdfg.array<i64 ["4"]>) : !sdfg.ref<i64 ["2"]>
    %o = sdfg.access %out writes(%ra["0:2" -> "0:2"] : !sdfg.ref<i64 ["2"]>) : !sdfg.array<i64 ["4"]>
  }
  sdfg.state @second {
    %b = sdfg.access %B : !sdfg.array<i64 ["4"]>
    %rb = sdfg.access %r bind(%b ["2:4"] : !sdfg.array<i64 ["4"]>) : !sdfg.ref<i64 ["2"]>
  }
  sdfg.state @third {
    %rb = sdfg.access %r : !sdfg.ref<i64 ["2"]>
    %o = sdfg.access %out writes(%rb["0:2" -> "2:4"] : !sdfg.ref<i64 ["2"]>) : !sdfg.array<i64 ["4"]>
  }
  sdfg.edge @fill -> @first
  sdfg.edge @first -> @second
  sdfg.edge @second -> @third
}

// An overlapping copy within one array reads the source as it was (as
// memmove does): out = 0..7, then out[2:7] = out[0:5].
sdfg.sdfg @overlapping_copy(%out: !sdfg.array<i64 ["8"]> as "out") {
  sdfg.state @fill {
    %m = sdfg.map "m" ["i" = "0:8"] outs("out" : !sdfg.array<i64 ["8"]>) {
      %v = sdfg.tasklet "w" outs("o" : i64) {
        %i = sdfg.sym "i" : i64
        sdfg.yield %i : i64
      }
      sdfg.exit ("out" = %v["i"] : i64)
    }
    %a = sdfg.access %out writes(%m["0:8"] : !sdfg.array<i64 ["8"]>) : !sdfg.array<i64 ["8"]>
  }
  sdfg.state @shift {
    %a = sdfg.access %out : !sdfg.array<i64 ["8"]>
    %b = sdfg.access %out writes(%a["0:5" -> "2:7"] : !sdfg.array<i64 ["8"]>) : !sdfg.array<i64 ["8"]>
  }
  sdfg.edge @fill -> @shift
}

// A by_ref output written on some paths only (a dynamic memlet): even
// iterations of a parallel map write out[i] = i, odd ones leave out[i].
sdfg.sdfg @by_ref_conditional(%out: !sdfg.array<i64 ["N"]> as "out") symbols {N = i64} {
  sdfg.state @s {
    %r = sdfg.map "m" ["i" = "0:N"] schedule CPU_Multicore outs("out" : !sdfg.array<i64 ["N"]>) {
      %v = sdfg.tasklet "w" outs("o" : i64 by_ref) {
      ^bb0(%o: memref<i64>):
        %i = sdfg.sym "i" : i64
        %c2 = arith.constant 2 : i64
        %m = arith.remsi %i, %c2 : i64
        %c0 = arith.constant 0 : i64
        %even = arith.cmpi eq, %m, %c0 : i64
        scf.if %even {
          memref.store %i, %o[] : memref<i64>
        }
        sdfg.yield
      }
      sdfg.exit ("out" = %v["i", dynamic] : i64)
    }
    %a = sdfg.access %out writes(%r["0:N", dynamic] : !sdfg.array<i64 ["N"]>) : !sdfg.array<i64 ["N"]>
  }
}

// A by_ref output with WCR written twice per iteration of a parallel map:
// every store adds (atomically), out[0] = sum(i + 1) = N (N + 1) / 2 + N.
sdfg.sdfg @by_ref_wcr(%out: !sdfg.array<i64 ["1"]> as "out") symbols {N = i64} {
  sdfg.state @s {
    %r = sdfg.map "m" ["i" = "0:N"] schedule CPU_Multicore outs("out" : !sdfg.array<i64 ["1"]>) {
      %v = sdfg.tasklet "w" outs("o" : i64 by_ref) {
      ^bb0(%o: memref<i64>):
        %i = sdfg.sym "i + 1" : i64
        memref.store %i, %o[] : memref<i64>
        %c1 = arith.constant 1 : i64
        memref.store %c1, %o[] : memref<i64>
        sdfg.yield
      }
      sdfg.exit ("out" = %v["0", dynamic, wcr sum] : i64)
    }
    %a = sdfg.access %out writes(%r["0", dynamic, wcr sum] : !sdfg.array<i64 ["1"]>) : !sdfg.array<i64 ["1"]>
  }
}

// A by_ref stream output pushed a varying number of times: iteration i of
// a sequential map pushes i, twice when i is odd; the stream is then
// drained into out.
sdfg.sdfg @by_ref_stream(%out: !sdfg.array<i64 ["6"]> as "out") {
  %s = sdfg.alloc "s" : !sdfg.stream<i64>
  sdfg.state @fill {
    %r = sdfg.map "m" ["i" = "0:4"] schedule Sequential outs("s" : !sdfg.stream<i64>) {
      %v = sdfg.tasklet "w" outs("o" : i64 by_ref) {
      ^bb0(%o: !sdfg.stream<i64>):
        %i = sdfg.sym "i" : i64
        sdfg.push %o, %i : !sdfg.stream<i64>
        %c2 = arith.constant 2 : i64
        %m = arith.remsi %i, %c2 : i64
        %c0 = arith.constant 0 : i64
        %odd = arith.cmpi ne, %m, %c0 : i64
        scf.if %odd {
          sdfg.push %o, %i : !sdfg.stream<i64>
        }
        sdfg.yield
      }
      sdfg.exit ("s" = %v["0", dynamic] : i64)
    }
    %a = sdfg.access %s writes(%r["0", dynamic] : !sdfg.stream<i64>) : !sdfg.stream<i64>
  }
  sdfg.state @drain {
    %a = sdfg.access %s : !sdfg.stream<i64>
    %o = sdfg.access %out writes(%a["0" -> "0:6"] : !sdfg.stream<i64>) : !sdfg.array<i64 ["6"]>
  }
  sdfg.edge @fill -> @drain
}

// A by_ref array output filled element by element in a loop of the body:
// row i of out (3 x 4) gets 10 * i + j, through a view of the row.
sdfg.sdfg @by_ref_row(%out: !sdfg.array<i64 ["3", "4"]> as "out") {
  sdfg.state @s {
    %r = sdfg.map "m" ["i" = "0:3"] outs("out" : !sdfg.array<i64 ["3", "4"]>) {
      %v = sdfg.tasklet "w" outs("o" : i64 by_ref) {
      ^bb0(%o: memref<4xi64>):
        %i = sdfg.sym "10 * i" : i64
        %lb = arith.constant 0 : index
        %ub = arith.constant 4 : index
        %step = arith.constant 1 : index
        scf.for %j = %lb to %ub step %step {
          %jj = arith.index_cast %j : index to i64
          %x = arith.addi %i, %jj : i64
          memref.store %x, %o[%j] : memref<4xi64>
        }
        sdfg.yield
      }
      sdfg.exit ("out" = %v["i, 0:4"] : i64)
    }
    %a = sdfg.access %out writes(%r["0:3, 0:4"] : !sdfg.array<i64 ["3", "4"]>) : !sdfg.array<i64 ["3", "4"]>
  }
}

// A transient sized by a symbol assigned between states and used by two
// states of a loop made of edges: allocated at the start of the body state
// and freed at the end of the latch, once per iteration. out[i] = 10 * i.
sdfg.sdfg @span_lifetime(%out: !sdfg.array<i64 ["5"]> as "out") symbols {i = i64} {
  %tmp = sdfg.alloc "tmp" : !sdfg.array<i64 ["i + 1"]>
  sdfg.state @init {
  }
  sdfg.state @latch {
    %t = sdfg.access %tmp : !sdfg.array<i64 ["i + 1"]>
    %o = sdfg.access %out writes(%t["i" -> "i"] : !sdfg.array<i64 ["i + 1"]>) : !sdfg.array<i64 ["5"]>
  }
  sdfg.state @guard {
  }
  sdfg.state @body {
    %v = sdfg.tasklet "w" outs("o" : i64) {
      %s = sdfg.sym "10 * i" : i64
      sdfg.yield %s : i64
    }
    %t = sdfg.access %tmp writes(%v["i"] : i64) : !sdfg.array<i64 ["i + 1"]>
  }
  sdfg.state @done {
  }
  sdfg.edge @init -> @guard assign("i" = "0")
  sdfg.edge @guard -> @body if "i < 5"
  sdfg.edge @guard -> @done if "not (i < 5)"
  sdfg.edge @body -> @latch
  sdfg.edge @latch -> @guard assign("i" = "i + 1")
}

// A by_ref array output with WCR: each store of the body adds into its
// element of out[0:2] (atomically, the map is parallel): out = [6, 12].
sdfg.sdfg @by_ref_array_wcr(%out: !sdfg.array<i64 ["2"]> as "out") {
  sdfg.state @s {
    %r = sdfg.map "m" ["i" = "0:4"] schedule CPU_Multicore outs("out" : !sdfg.array<i64 ["2"]>) {
      %v = sdfg.tasklet "w" outs("o" : i64 by_ref) {
      ^bb0(%o: memref<2xi64>):
        %i = sdfg.sym "i" : i64
        %c0 = arith.constant 0 : index
        memref.store %i, %o[%c0] : memref<2xi64>
        %two = sdfg.sym "2 * i" : i64
        %c1 = arith.constant 1 : index
        memref.store %two, %o[%c1] : memref<2xi64>
        sdfg.yield
      }
      sdfg.exit ("out" = %v["0:2", wcr sum] : i64)
    }
    %a = sdfg.access %out writes(%r["0:2", wcr sum] : !sdfg.array<i64 ["2"]>) : !sdfg.array<i64 ["2"]>
  }
}
