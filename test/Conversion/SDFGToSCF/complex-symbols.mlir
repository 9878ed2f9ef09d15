// RUN: sdfg-opt %s --pass-pipeline='builtin.module(convert-sdfg-to-scf)' | FileCheck %s
// RUN: sdfg-run %s --function free --set "z=1+2j" --check-bounds | FileCheck %s --check-prefix=FREE
// RUN: sdfg-run %s --function promoted --check-bounds | FileCheck %s --check-prefix=PROMOTED
// RUN: not sdfg-run %s --function free --set z=1+2i 2>&1 | FileCheck %s --check-prefix=BAD

// Complex symbols: DaCe's simplification promotes a complex scalar to a
// symbol when an inter-state edge reads it (`z = pts[idx]` then
// `abs(z) < 1.0`, as in a contour integral), and a program may declare one
// (`dace.symbol('z', dace.complex128)`). They are `complex<f64>` values: a
// free one is a C interface argument (two doubles), an assigned one a
// `memref<complex<f64>>` variable, tasklets read them with `sdfg.sym`, and
// expressions reading them are computed as DaCe's C++ computes them.

// CHECK-LABEL: func.func @free
// CHECK-SAME: %{{.*}}: complex<f64>
// B[i] = z * A[i] with A = 0, 1, 2, 3 and z = 1 + 2i: B = 6 + 12i in sum,
// and the checksum adds real and imaginary parts.
// FREE: B: <c16[4] checksum 1.8000000000e1
// BAD: --set z: `1+2i` is not a complex number
sdfg.sdfg @free(%A: !sdfg.array<complex<f64> ["4"]> as "A", %B: !sdfg.array<complex<f64> ["4"]> as "B") symbols {z = complex<f64>} {
  sdfg.state @init {
    %m = sdfg.map "fill" ["i" = "0:4"] outs("A" : !sdfg.array<complex<f64> ["4"]>) {
      %v = sdfg.tasklet "fill" outs("o" : complex<f64>) {
        %i = sdfg.sym "i" : i64
        %f = arith.sitofp %i : i64 to f64
        %zero = arith.constant 0.0 : f64
        %c = complex.create %f, %zero : complex<f64>
        sdfg.yield %c : complex<f64>
      }
      sdfg.exit ("A" = %v["i"] : complex<f64>)
    }
    %a = sdfg.access %A writes(%m["0:4"] : !sdfg.array<complex<f64> ["4"]>) : !sdfg.array<complex<f64> ["4"]>
  }
  sdfg.state @scale {
    %a = sdfg.access %A : !sdfg.array<complex<f64> ["4"]>
    %m = sdfg.map "scale" ["i" = "0:4"] ins("A" = %a["0:4"] : !sdfg.array<complex<f64> ["4"]>) outs("B" : !sdfg.array<complex<f64> ["4"]>) {
    ^bb0(%ain: !sdfg.array<complex<f64> ["4"]>):
      %v = sdfg.tasklet "scale" ins("x" = %ain["i"] : !sdfg.array<complex<f64> ["4"]>) outs("o" : complex<f64>) {
      ^bb0(%x: complex<f64>):
        %z = sdfg.sym "z" : complex<f64>
        %p = complex.mul %z, %x : complex<f64>
        sdfg.yield %p : complex<f64>
      }
      sdfg.exit ("B" = %v["i"] : complex<f64>)
    }
    %b = sdfg.access %B writes(%m["0:4"] : !sdfg.array<complex<f64> ["4"]>) : !sdfg.array<complex<f64> ["4"]>
  }
  sdfg.edge @init -> @scale
}

// `z = P[1]` is stored in a complex variable; `abs(z) < 1.0` is computed
// with `complex.abs`.
// CHECK-LABEL: func.func @promoted
// CHECK: memref.alloca() : memref<complex<f64>>
// CHECK: call @__expression{{.*}} : (memref<?xcomplex<f64>>) -> complex<f64>
// CHECK: call @__expression{{.*}} : (complex<f64>) -> i1
// P = 0.5 + 0.5i, 0.5 + 0.5i: |z| < 1, so R[0] = -z and R[1] = z * z = 0.5i;
// the parts sum to -1 + 0.5.
// PROMOTED: R: <c16[2] checksum -5.0000000000e-1
sdfg.sdfg @promoted(%P: !sdfg.array<complex<f64> ["2"]> as "P", %R: !sdfg.array<complex<f64> ["2"]> as "R") symbols {z = complex<f64>} {
  sdfg.state @init {
    %m = sdfg.map "fill" ["i" = "0:2"] outs("P" : !sdfg.array<complex<f64> ["2"]>) {
      %v = sdfg.tasklet "fill" outs("o" : complex<f64>) {
        %c = complex.constant [0.5 : f64, 0.5 : f64] : complex<f64>
        sdfg.yield %c : complex<f64>
      }
      sdfg.exit ("P" = %v["i"] : complex<f64>)
    }
    %p = sdfg.access %P writes(%m["0:2"] : !sdfg.array<complex<f64> ["2"]>) : !sdfg.array<complex<f64> ["2"]>
  }
  sdfg.state @read {
  }
  sdfg.state @inside {
    %t:2 = sdfg.tasklet "neg" outs("o" : complex<f64>, "q" : complex<f64>) {
      %z = sdfg.sym "z" : complex<f64>
      %n = complex.neg %z : complex<f64>
      %s = complex.mul %z, %z : complex<f64>
      sdfg.yield %n, %s : complex<f64>, complex<f64>
    }
    %r = sdfg.access %R writes(%t#0["0"] : complex<f64>) : !sdfg.array<complex<f64> ["2"]>
    %r2 = sdfg.access %R writes(%t#1["1"] : complex<f64>) : !sdfg.array<complex<f64> ["2"]>
  }
  sdfg.state @outside {
  }
  sdfg.edge @init -> @read assign("z" = "P[1]")
  sdfg.edge @read -> @inside if "abs(z) < 1.0"
  sdfg.edge @read -> @outside if "not (abs(z) < 1.0)"
}
