// RUN: sdfg-opt %s --pass-pipeline='builtin.module(convert-sdfg-to-scf)' | FileCheck %s
// RUN: sdfg-run %s --function squares --set S=0 | FileCheck %s --check-prefix=OUT
// RUN: sdfg-run %s --function atomic --set S=0 | FileCheck %s --check-prefix=ATOMIC

// Complex numbers (DaCe's complex64 and complex128) are memrefs of
// `complex<T>`: tasklets compute with the complex dialect, a real number
// converts to a complex one with a zero imaginary part, and a sum of
// complex numbers resolves write conflicts with `complex.add`.

// CHECK-LABEL: func.func @squares
// The transient is zero-filled with a complex zero.
// CHECK: complex.constant [0.000000e+00, 0.000000e+00] : complex<f64>
// S sums the squares: a read-modify-write with `complex.add`.
// CHECK: %[[OLD:.*]] = memref.load %{{.*}}[] : memref<complex<f64>>
// CHECK: %[[NEW:.*]] = complex.add %[[OLD]], %{{.*}} : complex<f64>
// CHECK: memref.store %[[NEW]], %{{.*}}[] : memref<complex<f64>>
// C[k] is the real k: a complex number with a zero imaginary part.
// CHECK: %[[IM:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: complex.create %{{.*}}, %[[IM]] : complex<f64>
// With z = k + 1i (Z[0] = 1i), B[k] = z * z = (k^2 - 1) + 2k i: the
// components sum to 10 + 12; S (from 0) is their sum; C = 0, 1, 2, 3.
// OUT: B: <c16[4] checksum 2.2000000000e1
// OUT: C: <c16[4] checksum 6.0000000000e0
// OUT: S: <c16[] checksum 2.2000000000e1
sdfg.sdfg @squares(%B: !sdfg.array<complex<f64> ["4"]> as "B", %C: !sdfg.array<complex<f64> ["4"]> as "C", %S: !sdfg.scalar<complex<f64>> as "S") {
  %Z = sdfg.alloc "Z" : !sdfg.array<complex<f64> ["4"]>
  sdfg.state @fill {
    %m = sdfg.map "z" ["k" = "1:4"] outs("Z" : !sdfg.array<complex<f64> ["4"]>) {
      %v = sdfg.tasklet "z" outs("o" : complex<f64>) {
        %k = sdfg.sym "k" : i64
        %re = arith.sitofp %k : i64 to f64
        %im = arith.constant 1.0 : f64
        %z = complex.create %re, %im : complex<f64>
        sdfg.yield %z : complex<f64>
      }
      sdfg.exit ("Z" = %v["k"] : complex<f64>)
    }
    %z = sdfg.access %Z writes(%m["1:4"] : !sdfg.array<complex<f64> ["4"]>) : !sdfg.array<complex<f64> ["4"]>
    %i = sdfg.tasklet "i" outs("o" : complex<f64>) {
      %zero = arith.constant 0.0 : f64
      %one = arith.constant 1.0 : f64
      %i1 = complex.create %zero, %one : complex<f64>
      sdfg.yield %i1 : complex<f64>
    }
    %z0 = sdfg.access %Z writes(%i["0"] : complex<f64>) : !sdfg.array<complex<f64> ["4"]>
  }
  sdfg.state @square {
    %z = sdfg.access %Z : !sdfg.array<complex<f64> ["4"]>
    %m:3 = sdfg.map "sq" ["k" = "0:4"] schedule Sequential ins("Z" = %z["0:4"] : !sdfg.array<complex<f64> ["4"]>) outs("B" : !sdfg.array<complex<f64> ["4"]>, "S" : !sdfg.scalar<complex<f64>>, "C" : !sdfg.array<complex<f64> ["4"]>) {
    ^bb0(%zin: !sdfg.array<complex<f64> ["4"]>):
      %v:2 = sdfg.tasklet "sq" ins("z" = %zin["k"] : !sdfg.array<complex<f64> ["4"]>) outs("b" : complex<f64>, "s" : complex<f64>) {
      ^bb0(%x: complex<f64>):
        %p = complex.mul %x, %x : complex<f64>
        sdfg.yield %p, %p : complex<f64>, complex<f64>
      }
      %k = sdfg.tasklet "k" outs("r" : f64) {
        %k = sdfg.sym "k" : i64
        %f = arith.sitofp %k : i64 to f64
        sdfg.yield %f : f64
      }
      sdfg.exit ("B" = %v#0["k"] : complex<f64>, "S" = %v#1["0", wcr sum] : complex<f64>, "C" = %k["k"] : f64)
    }
    %b = sdfg.access %B writes(%m#0["0:4"] : !sdfg.array<complex<f64> ["4"]>) : !sdfg.array<complex<f64> ["4"]>
    %s = sdfg.access %S writes(%m#1["0", wcr sum] : !sdfg.scalar<complex<f64>>) : !sdfg.scalar<complex<f64>>
    %c = sdfg.access %C writes(%m#2["0:4"] : !sdfg.array<complex<f64> ["4"]>) : !sdfg.array<complex<f64> ["4"]>
  }
  sdfg.edge @fill -> @square
}

// In a parallel map, a complex sum is two atomic float additions, one per
// part, at the element's address.
// CHECK-LABEL: func.func @atomic
// CHECK: scf.parallel
// CHECK: %{{.*}}, %{{.*}} = memref.extract_strided_metadata %{{.*}} : memref<complex<f64>> -> memref<complex<f64>>, index
// CHECK: %[[RE:.*]] = llvm.inttoptr %{{.*}} : i64 to !llvm.ptr
// CHECK: %[[IM:.*]] = llvm.getelementptr %[[RE]][1] : (!llvm.ptr) -> !llvm.ptr, f64
// CHECK: llvm.atomicrmw fadd %[[RE]], %{{.*}} monotonic : !llvm.ptr, f64
// CHECK: llvm.atomicrmw fadd %[[IM]], %{{.*}} monotonic : !llvm.ptr, f64
// S = sum of (i + 1i) over i = 0..7 = 28 + 8i.
// ATOMIC: S: <c16[] checksum 3.6000000000e1
sdfg.sdfg @atomic(%S: !sdfg.scalar<complex<f64>> as "S") {
  sdfg.state @s {
    %m = sdfg.map "sum" ["i" = "0:8"] outs("S" : !sdfg.scalar<complex<f64>>) {
      %v = sdfg.tasklet "z" outs("o" : complex<f64>) {
        %i = sdfg.sym "i" : i64
        %re = arith.sitofp %i : i64 to f64
        %im = arith.constant 1.0 : f64
        %z = complex.create %re, %im : complex<f64>
        sdfg.yield %z : complex<f64>
      }
      sdfg.exit ("S" = %v["0", wcr sum] : complex<f64>)
    }
    %s = sdfg.access %S writes(%m["0", wcr sum] : !sdfg.scalar<complex<f64>>) : !sdfg.scalar<complex<f64>>
  }
}
