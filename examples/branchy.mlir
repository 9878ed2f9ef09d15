// A data-dependent branch: s = sum(x); y = x * 2 if s > 0 else x - 1.
// Mirrors ../shared/corpus/seeds/branchy.sdfg (DaCe 1.0.2, after
// simplify()): the sum is a Reduce library node into the scalar transient s,
// and the if/else is the frontend's state machine, whose inter-state edges
// test s.
sdfg.sdfg @branchy(%x: !sdfg.array<f64 ["N"] strides ["1"]> as "x",
                   %y: !sdfg.array<f64 ["N"] strides ["1"]> as "y") symbols {N = i32} {
  %s = sdfg.alloc "s" : !sdfg.scalar<f64>

  sdfg.state @call_46 {
    %xn = sdfg.access %x : !sdfg.array<f64 ["N"] strides ["1"]>
    %sum = sdfg.library "Reduce" "dace.libraries.standard.nodes.reduce.Reduce"
        ins("_in" = %xn["0:N", volume "N"] : !sdfg.array<f64 ["N"] strides ["1"]>)
        outs("_out" : !sdfg.scalar<f64>)
        properties {wcr = "(lambda x, y: (x + y))", identity = "0"}
    %sn = sdfg.access %s writes(%sum["0"] : !sdfg.scalar<f64>) : !sdfg.scalar<f64>
  }
  sdfg.state @if_47_end {
  }
  // else: y = x - 1
  sdfg.state @if_47_else_50_BinOp_50 {
    %xn = sdfg.access %x : !sdfg.array<f64 ["N"] strides ["1"]>
    %r = sdfg.map "_Sub__map" ["__i0" = "0:N"]
        ins("x" = %xn["0:N", volume "N"] : !sdfg.array<f64 ["N"] strides ["1"]>)
        outs("__tmp2" : !sdfg.array<f64 ["N"] strides ["1"]>) {
    ^bb0(%xin: !sdfg.array<f64 ["N"] strides ["1"]>):
      %out = sdfg.tasklet "_Sub_" ins("__in1" = %xin["__i0"] : !sdfg.array<f64 ["N"] strides ["1"]>) outs("__out" : f64) {
      ^bb0(%in1: f64):
        %one = arith.constant 1.0 : f64
        %v = arith.subf %in1, %one : f64
        sdfg.yield %v : f64
      }
      sdfg.exit ("__tmp2" = %out["__i0"] : f64)
    }
    %yn = sdfg.access %y writes(%r["0:N", volume "N"] : !sdfg.array<f64 ["N"] strides ["1"]>) : !sdfg.array<f64 ["N"] strides ["1"]>
  }
  // then: y = x * 2
  sdfg.state @if_47_body_BinOp_48 {
    %xn = sdfg.access %x : !sdfg.array<f64 ["N"] strides ["1"]>
    %r = sdfg.map "_Mult__map" ["__i0" = "0:N"]
        ins("x" = %xn["0:N", volume "N"] : !sdfg.array<f64 ["N"] strides ["1"]>)
        outs("__tmp1" : !sdfg.array<f64 ["N"] strides ["1"]>) {
    ^bb0(%xin: !sdfg.array<f64 ["N"] strides ["1"]>):
      %out = sdfg.tasklet "_Mult_" ins("__in1" = %xin["__i0"] : !sdfg.array<f64 ["N"] strides ["1"]>) outs("__out" : f64) {
      ^bb0(%in1: f64):
        %two = arith.constant 2.0 : f64
        %v = arith.mulf %in1, %two : f64
        sdfg.yield %v : f64
      }
      sdfg.exit ("__tmp1" = %out["__i0"] : f64)
    }
    %yn = sdfg.access %y writes(%r["0:N", volume "N"] : !sdfg.array<f64 ["N"] strides ["1"]>) : !sdfg.array<f64 ["N"] strides ["1"]>
  }

  sdfg.edge @call_46 -> @if_47_else_50_BinOp_50 if "not (s > 0)"
  sdfg.edge @call_46 -> @if_47_body_BinOp_48 if "s > 0"
  sdfg.edge @if_47_else_50_BinOp_50 -> @if_47_end
  sdfg.edge @if_47_body_BinOp_48 -> @if_47_end
}
