sdfg.sdfg @body(%A: !sdfg.array<f64 ["4"]> as "A") symbols {N = i64} {
  sdfg.state @s {
    %t = sdfg.tasklet "loop" outs("o" : f64) {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %n = sdfg.sym "N" : index
      %init = arith.constant 0.0 : f64
      %r = scf.for %i = %c0 to %c4 step %n iter_args(%acc = %init) -> (f64) {
        %one = arith.constant 1.0 : f64
        %next = arith.addf %acc, %one : f64
        scf.yield %next : f64
      }
      sdfg.yield %r : f64
    }
    %a = sdfg.access %A writes(%t["0"] : f64) : !sdfg.array<f64 ["4"]>
  }
}
