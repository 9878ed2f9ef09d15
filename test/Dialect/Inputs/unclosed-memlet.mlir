// A memlet whose bracket is never closed.
sdfg.sdfg @p(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %t = sdfg.tasklet "t" ins("x" = %a["0"
                                        : !sdfg.array<f64 ["N"]>) outs("y" : f64) code python "y = x"
  }
}
