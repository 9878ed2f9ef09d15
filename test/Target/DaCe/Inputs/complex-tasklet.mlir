sdfg.sdfg @complex_tasklet(%A: !sdfg.array<complex<f64> ["2"]> as "A", %x: !sdfg.scalar<f64> as "x", %B: !sdfg.array<complex<f64> ["1"]> as "B") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<complex<f64> ["2"]>
    %xa = sdfg.access %x : !sdfg.scalar<f64>
    %t = sdfg.tasklet "t" ins("a" = %a["0"] : !sdfg.array<complex<f64> ["2"]>, "b" = %a["1"] : !sdfg.array<complex<f64> ["2"]>, "y" = %xa["0"] : !sdfg.scalar<f64>) outs("o" : complex<f64>) {
    ^bb0(%p: complex<f64>, %q: complex<f64>, %r: f64):
      %m = complex.mul %p, %q : complex<f64>
      %zero = arith.constant 0.0 : f64
      %c = complex.create %r, %zero : complex<f64>
      %s = complex.add %m, %c : complex<f64>
      %two = complex.constant [2.0 : f64, 0.0 : f64] : complex<f64>
      %d = complex.div %s, %two : complex<f64>
      sdfg.yield %d : complex<f64>
    }
    %b = sdfg.access %B writes(%t["0"] : complex<f64>) : !sdfg.array<complex<f64> ["1"]>
  }
}
