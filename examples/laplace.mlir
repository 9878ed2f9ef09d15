// The Laplace operator of DaCe's documentation, time-stepped T times over a
// double buffer: A[(t + 1) % 2, i] = A[t % 2, i - 1] - 2 * A[t % 2, i] +
// A[t % 2, i + 1]. Mirrors ../shared/corpus/seeds/laplace.sdfg (DaCe 1.0.2,
// after simplify()): the for loop is the frontend's state machine of init,
// guard, body and end states joined by inter-state edges, and the stencil is
// a map of four tasklets with three scalar transients in between.
sdfg.sdfg @laplace(%A: !sdfg.array<f64 ["2", "N"] strides ["N", "1"]> as "A",
                   %T: !sdfg.scalar<ui32> as "T") symbols {N = i32, t = i64} {
  %__tmp1 = sdfg.alloc "__tmp1" : !sdfg.scalar<f64>
  %__tmp2 = sdfg.alloc "__tmp2" : !sdfg.scalar<f64>
  %__tmp3 = sdfg.alloc "__tmp3" : !sdfg.scalar<f64>

  sdfg.state @for_7_init {
  }
  sdfg.state @for_7_guard {
  }
  sdfg.state @for_7_end {
  }
  sdfg.state @for_7_MapState {
    %a = sdfg.access %A : !sdfg.array<f64 ["2", "N"] strides ["N", "1"]>
    %r = sdfg.map "laplace_8" ["i" = "1:N-1"]
        ins("A" = %a["t % 2, 0:N", volume "3*N - 6"] : !sdfg.array<f64 ["2", "N"] strides ["N", "1"]>)
        outs("A" : !sdfg.array<f64 ["2", "N"] strides ["N", "1"]>) {
    ^bb0(%in: !sdfg.array<f64 ["2", "N"] strides ["N", "1"]>):
      // __tmp1 = 2 * A[t % 2, i]
      %mult = sdfg.tasklet "_Mult_" ins("__in2" = %in["t % 2, i"] : !sdfg.array<f64 ["2", "N"] strides ["N", "1"]>) outs("__out" : f64) {
      ^bb0(%in2: f64):
        %two = arith.constant 2.0 : f64
        %out = arith.mulf %two, %in2 : f64
        sdfg.yield %out : f64
      }
      %t1 = sdfg.access %__tmp1 writes(%mult["0"] : f64) : !sdfg.scalar<f64>
      // __tmp2 = A[t % 2, i - 1] - __tmp1
      %sub = sdfg.tasklet "_Sub_" ins("__in1" = %in["t % 2, i - 1"] : !sdfg.array<f64 ["2", "N"] strides ["N", "1"]>, "__in2" = %t1["0"] : !sdfg.scalar<f64>) outs("__out" : f64) {
      ^bb0(%in1: f64, %in2: f64):
        %out = arith.subf %in1, %in2 : f64
        sdfg.yield %out : f64
      }
      %t2 = sdfg.access %__tmp2 writes(%sub["0"] : f64) : !sdfg.scalar<f64>
      // __tmp3 = __tmp2 + A[t % 2, i + 1]
      %add = sdfg.tasklet "_Add_" ins("__in1" = %t2["0"] : !sdfg.scalar<f64>, "__in2" = %in["t % 2, i + 1"] : !sdfg.array<f64 ["2", "N"] strides ["N", "1"]>) outs("__out" : f64) {
      ^bb0(%in1: f64, %in2: f64):
        %out = arith.addf %in1, %in2 : f64
        sdfg.yield %out : f64
      }
      %t3 = sdfg.access %__tmp3 writes(%add["0"] : f64) : !sdfg.scalar<f64>
      // A[(t + 1) % 2, i] = __tmp3
      %assign = sdfg.tasklet "assign_9_12" ins("__inp" = %t3["0"] : !sdfg.scalar<f64>) outs("__out" : f64) {
      ^bb0(%inp: f64):
        sdfg.yield %inp : f64
      }
      sdfg.exit ("A" = %assign["(t + 1) % 2, i"] : f64)
    }
    %b = sdfg.access %A writes(%r["(t + 1) % 2, 1:N-1", volume "N - 2"] : !sdfg.array<f64 ["2", "N"] strides ["N", "1"]>) : !sdfg.array<f64 ["2", "N"] strides ["N", "1"]>
  }

  sdfg.edge @for_7_init -> @for_7_guard assign("t" = "0")
  sdfg.edge @for_7_guard -> @for_7_end if "not (t < T)"
  sdfg.edge @for_7_MapState -> @for_7_guard assign("t" = "t + 1")
  sdfg.edge @for_7_guard -> @for_7_MapState if "t < T"
}
