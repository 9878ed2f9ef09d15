// RUN: %python -c "import numpy; numpy.save('%t.col.npy', numpy.arange(4.0).reshape(4, 1))"
// RUN: %python -c "import numpy; numpy.save('%t.square.npy', numpy.arange(4.0).reshape(2, 2))"
// RUN: sdfg-run %s --input A=%t.col.npy 2>&1 | FileCheck %s
// RUN: not sdfg-run %s --input A=%t.square.npy 2>&1 | FileCheck %s --check-prefix=SHAPE

// `sdfg-run` takes an input whose shape differs from the container's only
// by dimensions of size 1, as DaCe does (a column [4, 1] for a vector [4]:
// the same elements in C order), and says how it read it; any other shape
// is an error.

// CHECK: note: --input A: the array of shape [4, 1] is read as shape [4]
// CHECK: B: <f8[4] checksum 1.2000000000e1
// SHAPE: error: --input A: has shape [2, 2] but the program expects [2]
sdfg.sdfg @twice(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %r = sdfg.map "m" ["i" = "0:N"] ins("A" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("B" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%in: !sdfg.array<f64 ["N"]>):
      %v = sdfg.tasklet "t" ins("x" = %in["i"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        %y = arith.addf %x, %x : f64
        sdfg.yield %y : f64
      }
      sdfg.exit ("B" = %v["i"] : f64)
    }
    %b = sdfg.access %B writes(%r["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}
