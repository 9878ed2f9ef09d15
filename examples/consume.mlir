// Recursive Fibonacci with a consume scope: four processing elements pop
// numbers from the stream S, push n - 1 and n - 2 back while n > 1, and add
// 1 for every n == 1 into res through a summing write-conflict resolution.
// Mirrors ../shared/corpus/dace/add_edge_pair_fib_consume.sdfg (from
// DaCe's consume_test.py; iv and S have DaCe's default dtype int32). The
// tasklet's branching Python code is kept as foreign code.
sdfg.sdfg @add_edge_pair_fib_consume(%iv: !sdfg.array<i32 ["1"] strides ["1"]> as "iv",
                                     %res: !sdfg.array<f32 ["1"] strides ["1"]> as "res") {
  %S = sdfg.alloc "S" : !sdfg.stream<i32 shape ["1"] buffer "1">

  sdfg.state @state {
    %ivn = sdfg.access %iv : !sdfg.array<i32 ["1"] strides ["1"]>
    // The initial value is copied from iv into the stream.
    %fill = sdfg.access %S writes(%ivn["0"] : !sdfg.array<i32 ["1"] strides ["1"]>) : !sdfg.stream<i32 shape ["1"] buffer "1">
    %sin = sdfg.access %S : !sdfg.stream<i32 shape ["1"] buffer "1">
    %r:2 = sdfg.consume "cons" (%sin["0"] : !sdfg.stream<i32 shape ["1"] buffer "1">) pe "p" pes "4"
        outs("S" : !sdfg.stream<i32 shape ["1"] buffer "1">, "V" : !sdfg.array<f32 ["1"] strides ["1"]>) {
    ^bb0(%elem: i32):
      %fib:2 = sdfg.tasklet "fibonacci" ins("s" = %elem["0"] : i32) outs("sout" : i32, "val" : f32)
          code python "if (s == 1):\n    val = 1\nelif (s > 1):\n    sout = (s - 1)\n    sout = (s - 2)"
      sdfg.exit ("S" = %fib#0["0", dynamic] : i32,
                 "V" = %fib#1["0", dynamic, wcr sum] : f32)
    }
    %sout = sdfg.access %S writes(%r#0["0", dynamic] : !sdfg.stream<i32 shape ["1"] buffer "1">) : !sdfg.stream<i32 shape ["1"] buffer "1">
    %resn = sdfg.access %res writes(%r#1["0", dynamic, wcr sum] : !sdfg.array<f32 ["1"] strides ["1"]>) : !sdfg.array<f32 ["1"] strides ["1"]>
  }
}
