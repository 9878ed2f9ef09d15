sdfg.sdfg @body(%A: !sdfg.array<f64 ["4"]> as "A") {
  sdfg.state @s {
    %t = sdfg.tasklet "t" outs("o" : f64) {
      %c = arith.constant 1.0 : f64
      sdfg.yield %c : f64
    }
    %a = sdfg.access %A writes(%t["0"] : f64) : !sdfg.array<f64 ["4"]>
  }
}
