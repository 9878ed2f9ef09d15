// The Laplace operator of DaCe's documentation, time-stepped T times over a
// double buffer: A[(t + 1) % 2, i] = A[t % 2, i - 1] - 2 * A[t % 2, i] +
// A[t % 2, i + 1]. Mirrors /work/shared/corpus/seeds/laplace.sdfg (DaCe 1.0.2,
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
      %mult = sdfg.tasklet "_Mult_" ins("__in2