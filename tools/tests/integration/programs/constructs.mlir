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
