// RUN: sdfg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(convert-sdfg-to-scf)'

// What the conversion cannot lower is a diagnostic on the op concerned,
// never code that computes something else.

sdfg.sdfg @python_code(%A: !sdfg.array<f64 ["4"]> as "A") {
  sdfg.state @s {
    // expected-error @+1 {{tasklet `p` has Python code the importer could not translate to MLIR (`printf('%f', 1.0)`)}}
    %t = sdfg.tasklet "p" outs("o" : f64) code python "printf('%f', 1.0)"
    %a = sdfg.access %A writes(%t["0"] : f64) : !sdfg.array<f64 ["4"]>
  }
}

// -----

// expected-error @+1 {{argument `S` is a stream, which a program's C interface cannot pass (only nested SDFGs take streams)}}
sdfg.sdfg @stream_argument(%S: !sdfg.stream<i32 shape ["1"] buffer "1"> as "S") {
  sdfg.state @s {
  }
}

// -----

sdfg.sdfg @stream_wcr(%out: !sdfg.array<i64 ["1"]> as "out") {
  %s = sdfg.alloc "s" : !sdfg.stream<i64>
  sdfg.state @s {
    %t = sdfg.tasklet "one" outs("o" : i64) {
      %c = arith.constant 1 : i64
      sdfg.yield %c : i64
    }
    // expected-error @+1 {{writes stream `s` with a write-conflict resolution}}
    %a = sdfg.access %s writes(%t["0", wcr sum] : i64) : !sdfg.stream<i64>
  }
}

// -----

sdfg.sdfg @custom_wcr(%A: !sdfg.array<f64 ["4"]> as "A") {
  sdfg.state @s {
    %t = sdfg.tasklet "one" outs("o" : f64) {
      %c = arith.constant 1.0 : f64
      sdfg.yield %c : f64
    }
    // expected-error @+1 {{write-conflict resolution `lambda a, b: a + 2 * b` is not a reduction the lowering knows}}
    %a = sdfg.access %A writes(%t["0", wcr "lambda a, b: a + 2 * b"] : f64) : !sdfg.array<f64 ["4"]>
  }
}

// -----

sdfg.sdfg @unknown_library(%A: !sdfg.array<f64 ["4", "4"]> as "A", %B: !sdfg.array<f64 ["4", "4"]> as "B") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4", "4"]>
    // expected-error @+1 {{library node `dace.libraries.linalg.nodes.tensordot.TensorDot` has no lowering}}
    %i = sdfg.library "tensordot" "dace.libraries.linalg.nodes.tensordot.TensorDot"
        ins("_left_tensor" = %a["0:4, 0:4"] : !sdfg.array<f64 ["4", "4"]>, "_right_tensor" = %a["0:4, 0:4"] : !sdfg.array<f64 ["4", "4"]>)
        outs("_out_tensor" : !sdfg.array<f64 ["4", "4"]>) properties {}
    %b = sdfg.access %B writes(%i["0:4, 0:4"] : !sdfg.array<f64 ["4", "4"]>) : !sdfg.array<f64 ["4", "4"]>
  }
}

// -----

// Floating-point symbols are computed as f32 or f64: a half-precision
// one that is read is refused.
// expected-error @+1 {{symbol `x` is of type f16, which the lowering cannot compute in (only 32- and 64-bit floats)}}
sdfg.sdfg @half_symbol(%A: !sdfg.array<f64 ["4"]> as "A") symbols {x = f16} {
  sdfg.state @a {
  }
  sdfg.state @b {
  }
  sdfg.edge @a -> @b if "x > 0.5"
}

// -----

// A floating-point symbol cannot index: C++ would not index with a double.
sdfg.sdfg @float_symbol_subset(%A: !sdfg.array<f64 ["4"]> as "A") symbols {x = f64} {
  sdfg.state @s {
    %t = sdfg.tasklet "t" outs("o" : f64) {
      %z = arith.constant 0.0 : f64
      sdfg.yield %z : f64
    }
    // expected-error @+1 {{`x` is a floating-point symbol, which an integer expression cannot read}}
    %a = sdfg.access %A writes(%t["x"] : f64) : !sdfg.array<f64 ["4"]>
  }
}

// -----

// expected-error @+1 {{argument `R` is a reference, which cannot be passed yet}}
sdfg.sdfg @reference_argument(%R: !sdfg.ref<f64 ["4"]> as "R") {
  sdfg.state @s {
  }
}

// -----

sdfg.sdfg @reference_to_map_local(%B: !sdfg.array<f64 ["N", "2"]> as "B") symbols {N = i64} {
  %T = sdfg.alloc "T" : !sdfg.array<f64 ["2"]>
  %r = sdfg.alloc "r" : !sdfg.ref<f64 ["2"]>
  sdfg.state @s {
    %m = sdfg.map "m" ["i" = "0:N"] outs("B" : !sdfg.array<f64 ["N", "2"]>) {
      %t = sdfg.access %T : !sdfg.array<f64 ["2"]>
      // expected-error @+1 {{reference `r` is set to `T`, which does not live for the whole function (only arrays that do can be referenced yet)}}
      %rt = sdfg.access %r bind(%t ["0:2"] : !sdfg.array<f64 ["2"]>) : !sdfg.ref<f64 ["2"]>
      sdfg.exit ("B" = %rt["0:2" -> "i, 0:2"] : !sdfg.ref<f64 ["2"]>)
    }
    %b = sdfg.access %B writes(%m["0:N, 0:2"] : !sdfg.array<f64 ["N", "2"]>) : !sdfg.array<f64 ["N", "2"]>
  }
}

// -----

// A transient sized by an assigned symbol whose value changes between the
// two states that use it (an assignment on the edge between them): no
// lifetime fits (lifetimes.rs), so its size is unknown where it would be
// allocated.
sdfg.sdfg @resized(%out: !sdfg.array<i64 ["5"]> as "out") symbols {i = i64} {
  // expected-error @+1 {{transient `tmp`: size: symbol `i` has no value here}}
  %tmp = sdfg.alloc "tmp" : !sdfg.array<i64 ["i + 1"]>
  sdfg.state @init {
  }
  sdfg.state @a {
    %v = sdfg.tasklet "w" outs("o" : i64) {
      %s = sdfg.sym "i" : i64
      sdfg.yield %s : i64
    }
    %t = sdfg.access %tmp writes(%v["0"] : i64) : !sdfg.array<i64 ["i + 1"]>
  }
  sdfg.state @b {
    %t = sdfg.access %tmp : !sdfg.array<i64 ["i + 1"]>
    %o = sdfg.access %out writes(%t["0" -> "0"] : !sdfg.array<i64 ["i + 1"]>) : !sdfg.array<i64 ["5"]>
  }
  sdfg.edge @init -> @a assign("i" = "1")
  sdfg.edge @a -> @b assign("i" = "2")
}

// -----

// A by_ref output's argument matches what it writes: a memref for an
// array, a stream for a stream.
sdfg.sdfg @by_ref_kind(%out: !sdfg.array<i64 ["2"]> as "out") {
  sdfg.state @s {
    // expected-error @+1 {{by_ref output `o` is a !sdfg.stream<i64>, but it writes container `out`}}
    %v = sdfg.tasklet "w" outs("o" : i64 by_ref) {
    ^bb0(%o: !sdfg.stream<i64>):
      %c = arith.constant 1 : i64
      sdfg.push %o, %c : !sdfg.stream<i64>
      sdfg.yield
    }
    %a = sdfg.access %out writes(%v["0", dynamic] : i64) : !sdfg.array<i64 ["2"]>
  }
}

// -----

// A vector connector over an array of its lanes moves exactly as many
// elements.
sdfg.sdfg @vector_size(%A: !sdfg.array<f32 ["8"]> as "A", %B: !sdfg.array<vector<4xf32> ["2"]> as "B") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f32 ["8"]>
    // expected-error @+1 {{moves a vector<4xf32> through `A[0:3]`, which is not 4 elements}}
    %v = sdfg.tasklet "t" ins("a" = %a["0:3"] : !sdfg.array<f32 ["8"]>) outs("b" : vector<4xf32>) {
    ^bb0(%x: vector<4xf32>):
      sdfg.yield %x : vector<4xf32>
    }
    %b = sdfg.access %B writes(%v["0"] : vector<4xf32>) : !sdfg.array<vector<4xf32> ["2"]>
  }
}

// -----

// A vector does not convert to a scalar, as in C++.
sdfg.sdfg @vector_to_scalar(%A: !sdfg.array<vector<2xf32> ["2"]> as "A", %B: !sdfg.array<f32 ["2"]> as "B") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<vector<2xf32> ["2"]>
    // expected-error @+1 {{a value of type vector<2xf32> cannot be converted to f32}}
    %v = sdfg.tasklet "t" ins("a" = %a["0"] : !sdfg.array<vector<2xf32> ["2"]>) outs("b" : f32) {
    ^bb0(%x: f32):
      sdfg.yield %x : f32
    }
    %b = sdfg.access %B writes(%v["1"] : f32) : !sdfg.array<f32 ["2"]>
  }
}

// -----

// A symbolic beta is refused (it decides whether y is read), not read as 0.
sdfg.sdfg @gemv_symbolic_beta(%A: !sdfg.array<f64 ["4", "4"]> as "A", %x: !sdfg.array<f64 ["4"]> as "x", %y: !sdfg.array<f64 ["4"]> as "y") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4", "4"]>
    %xa = sdfg.access %x : !sdfg.array<f64 ["4"]>
    // expected-error @+1 {{property `beta` is the symbolic value `N / 2`, which the lowering needs as a number}}
    %g = sdfg.library "gemv" "dace.libraries.blas.nodes.gemv.Gemv"
        ins("_A" = %a["0:4, 0:4"] : !sdfg.array<f64 ["4", "4"]>, "_x" = %xa["0:4"] : !sdfg.array<f64 ["4"]>)
        outs("_y" : !sdfg.array<f64 ["4"]>) properties {beta = "N / 2"}
    %c = sdfg.access %y writes(%g["0:4"] : !sdfg.array<f64 ["4"]>) : !sdfg.array<f64 ["4"]>
  }
}

// -----

// Complex numbers have sums and products, not maxima.
sdfg.sdfg @complex_reduce(%A: !sdfg.array<complex<f64> ["2", "3"]> as "A", %B: !sdfg.array<complex<f64> ["3"]> as "B") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<complex<f64> ["2", "3"]>
    // expected-error @+1 {{reduction `lambda a, b: max(a, b)` of `A` is not a sum or a product, the reductions complex numbers have}}
    %t = sdfg.library "reduce" "dace.libraries.standard.nodes.reduce.Reduce"
        ins("" = %a["0:2, 0:3"] : !sdfg.array<complex<f64> ["2", "3"]>)
        outs("" : !sdfg.array<complex<f64> ["3"]>) properties {axes = "[0]", wcr = "lambda a, b: max(a, b)"}
    %b = sdfg.access %B writes(%t["0:3"] : !sdfg.array<complex<f64> ["3"]>) : !sdfg.array<complex<f64> ["3"]>
  }
}

// -----

// LAPACK computes on one float or complex type.
sdfg.sdfg @lapack_integers(%A: !sdfg.array<i32 ["4", "4"]> as "A", %B: !sdfg.array<i32 ["4", "4"]> as "B") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<i32 ["4", "4"]>
    // expected-error @+1 {{`A` holds i32 elements; LAPACK computes on f32, f64, complex<f32> and complex<f64>}}
    %i = sdfg.library "inv" "dace.libraries.linalg.nodes.inv.Inv"
        ins("_ain" = %a["0:4, 0:4"] : !sdfg.array<i32 ["4", "4"]>)
        outs("_aout" : !sdfg.array<i32 ["4", "4"]>) properties {}
    %b = sdfg.access %B writes(%i["0:4, 0:4"] : !sdfg.array<i32 ["4", "4"]>) : !sdfg.array<i32 ["4", "4"]>
  }
}

// -----

sdfg.sdfg @lapack_mixed(%A: !sdfg.array<f64 ["4", "4"]> as "A", %B: !sdfg.array<f32 ["4", "4"]> as "B") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4", "4"]>
    // expected-error @+1 {{operands `A` (f64) and `B` (f32) differ in element type; LAPACK computes on one}}
    %i = sdfg.library "cholesky" "dace.libraries.linalg.nodes.cholesky.Cholesky"
        ins("_a" = %a["0:4, 0:4"] : !sdfg.array<f64 ["4", "4"]>)
        outs("_b" : !sdfg.array<f32 ["4", "4"]>) properties {}
    %b = sdfg.access %B writes(%i["0:4, 0:4"] : !sdfg.array<f32 ["4", "4"]>) : !sdfg.array<f32 ["4", "4"]>
  }
}

// -----

// Stream elements travel as 64 bits.
sdfg.sdfg @complex_stream(%A: !sdfg.array<complex<f64> ["1"]> as "A") {
  // expected-error @+1 {{stream `s` of complex<f64>: stream elements travel as 64 bits, which vectors and complex numbers do not fit yet}}
  %s = sdfg.alloc "s" : !sdfg.stream<complex<f64>>
  sdfg.state @push {
    %a = sdfg.access %A : !sdfg.array<complex<f64> ["1"]>
    %b = sdfg.access %s writes(%a["0"] : !sdfg.array<complex<f64> ["1"]>) : !sdfg.stream<complex<f64>>
  }
}

// -----

sdfg.sdfg @needs(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64} {
  sdfg.state @s {
  }
}
func.func @unbound(%A: memref<?xf64>) {
  // expected-error @+1 {{does not bind symbol `N` of 'needs'}}
  sdfg.invoke @needs(%A : memref<?xf64>) symbols []()
  return
}
