sdfg.sdfg @unsigned_read(%A: !sdfg.array<i32 ["4"]> as "A", %B: !sdfg.array<f64 ["4"]> as "B") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<i32 ["4"]>
    %r = sdfg.map "m" ["i" = "0:4"] ins("A" = %a["0:4"] : !sdfg.array<i32 ["4"]>) outs("B" : !sdfg.array<f64 ["4"]>) {
    ^bb0(%ai: !sdfg.array<i32 ["4"]>):
      %t = sdfg.tasklet "t" ins("x" = %ai["i"] : !sdfg.array<i32 ["4"]>) outs("o" : f64) {
      ^bb0(%x: i32):
        %f = arith.uitofp %x : i32 to f64
        sdfg.yield %f : f64
      }
      sdfg.exit ("B" = %t["i"] : f64)
    }
    %b = sdfg.access %B writes(%r["0:4"] : !sdfg.array<f64 ["4"]>) : !sdfg.array<f64 ["4"]>
  }
}
