// NumPy-style `return a + 1` on a 20-element vector: one map whose tasklet
// adds 1.0 to every element and writes the result to the return array.
// Mirrors ../shared/corpus/seeds/addone.sdfg (DaCe 1.0.2, after
// simplify()); DaCe's non-transient __return container is an argument here.
sdfg.sdfg @addone(%a: !sdfg.array<f64 ["20"] strides ["1"]> as "a",
                  %__return: !sdfg.array<f64 ["20"] strides ["1"]> as "__return") {
  sdfg.state @BinOp_32 {
    %an = sdfg.access %a : !sdfg.array<f64 ["20"] strides ["1"]>
    %r = sdfg.map "_Add__map" ["__i0" = "0:20"]
        ins("a" = %an["0:20", volume "20"] : !sdfg.array<f64 ["20"] strides ["1"]>)
        outs("__tmp0" : !sdfg.array<f64 ["20"] strides ["1"]>) {
    ^bb0(%ain: !sdfg.array<f64 ["20"] strides ["1"]>):
      // __out = __in1 + dace.float64(1)
      %out = sdfg.tasklet "_Add_" ins("__in1" = %ain["__i0"] : !sdfg.array<f64 ["20"] strides ["1"]>) outs("__out" : f64) {
      ^bb0(%in1: f64):
        %one = arith.constant 1.0 : f64
        %v = arith.addf %in1, %one : f64
        sdfg.yield %v : f64
      }
      sdfg.exit ("__tmp0" = %out["__i0"] : f64)
    }
    %ret = sdfg.access %__return writes(%r["0:20", volume "20"] : !sdfg.array<f64 ["20"] strides ["1"]>) : !sdfg.array<f64 ["20"] strides ["1"]>
  }
}
