// RUN: sdfg-opt %s --split-input-file --sdfg-fold-transposes | FileCheck %s
// RUN: not sdfg-opt %s --sdfg-fold-transposes="all=1" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: sdfg-fold-transposes: unknown option `all=1` (the pass has none)

// The same numbers before and after (the Gemv lowered as its pure
// expansion and, with --blas, through CBLAS with CblasTrans).
// RUN: %python -c "import sys; open(sys.argv[2], 'w').write(open(sys.argv[1]).read().split('// ' + '-' * 5)[0])" %s %t.before.mlir
// RUN: sdfg-opt %t.before.mlir --sdfg-fold-transposes -o %t.after.mlir
// RUN: rm -rf %t.b %t.a %t.c
// RUN: sdfg-run %t.before.mlir --set N=23 --set M=17 --seed 5 --out %t.b > /dev/null
// RUN: sdfg-run %t.after.mlir --set N=23 --set M=17 --seed 5 --out %t.a > /dev/null
// RUN: sdfg-run %t.after.mlir --blas --set N=23 --set M=17 --seed 5 --out %t.c > /dev/null
// RUN: %python %S/../Target/HLS/Inputs/compare.py %t.b %t.a | FileCheck %s --check-prefix=SAME
// RUN: %python %S/../Target/HLS/Inputs/compare.py %t.b %t.c | FileCheck %s --check-prefix=SAME
// SAME: 1 outputs match

// B.T @ x: the transposed copy and its transient are gone; the Gemv reads
// B in place, transposed.
// CHECK-LABEL: sdfg.sdfg @transposed_product
// CHECK-NOT: sdfg.alloc "T"
// CHECK-NOT: Transpose
// CHECK: sdfg.library "mv" "dace.libraries.blas.nodes.gemv.Gemv" ins("_A" = %{{.*}}["0:M, 0:N"] : !sdfg.array<f64 ["M", "N"]>, "_x" = %{{.*}}["0:M"] : !sdfg.array<f64 ["M"]>) outs("_y" : !sdfg.array<f64 ["N"]>) properties {alpha = "1", beta = "0", transA = "true"}
// CHECK: sdfg.access %y writes(%{{.*}}["0:N"] : !sdfg.array<f64 ["N"]>)
sdfg.sdfg @transposed_product(%B: !sdfg.array<f64 ["M", "N"]> as "B", %x: !sdfg.array<f64 ["M"]> as "x", %y: !sdfg.array<f64 ["N"]> as "y") symbols {M = i64, N = i64} {
  %T = sdfg.alloc "T" : !sdfg.array<f64 ["N", "M"]>
  sdfg.state @s {
    %b = sdfg.access %B : !sdfg.array<f64 ["M", "N"]>
    %t = sdfg.library "tr" "dace.libraries.standard.nodes.transpose.Transpose" ins("_inp" = %b["0:M, 0:N"] : !sdfg.array<f64 ["M", "N"]>) outs("_out" : !sdfg.array<f64 ["N", "M"]>) properties {dtype = "\22float64\22"}
    %tw = sdfg.access %T writes(%t["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) : !sdfg.array<f64 ["N", "M"]>
    %xa = sdfg.access %x : !sdfg.array<f64 ["M"]>
    %m = sdfg.library "mv" "dace.libraries.blas.nodes.matmul.MatMul" ins("_a" = %tw["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>, "_b" = %xa["0:M"] : !sdfg.array<f64 ["M"]>) outs("_c" : !sdfg.array<f64 ["N"]>) properties {}
    %yw = sdfg.access %y writes(%m["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// The copy is read again: it stays.
// CHECK-LABEL: sdfg.sdfg @do_not_fold_a_shared_copy
// CHECK: Transpose
// CHECK: matmul.MatMul
sdfg.sdfg @do_not_fold_a_shared_copy(%B: !sdfg.array<f64 ["M", "N"]> as "B", %x: !sdfg.array<f64 ["M"]> as "x", %y: !sdfg.array<f64 ["N"]> as "y", %C: !sdfg.array<f64 ["N", "M"]> as "C") symbols {M = i64, N = i64} {
  %T = sdfg.alloc "T" : !sdfg.array<f64 ["N", "M"]>
  sdfg.state @s {
    %b = sdfg.access %B : !sdfg.array<f64 ["M", "N"]>
    %t = sdfg.library "tr" "dace.libraries.standard.nodes.transpose.Transpose" ins("_inp" = %b["0:M, 0:N"] : !sdfg.array<f64 ["M", "N"]>) outs("_out" : !sdfg.array<f64 ["N", "M"]>) properties {dtype = "\22float64\22"}
    %tw = sdfg.access %T writes(%t["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) : !sdfg.array<f64 ["N", "M"]>
    %xa = sdfg.access %x : !sdfg.array<f64 ["M"]>
    %m = sdfg.library "mv" "dace.libraries.blas.nodes.matmul.MatMul" ins("_a" = %tw["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>, "_b" = %xa["0:M"] : !sdfg.array<f64 ["M"]>) outs("_c" : !sdfg.array<f64 ["N"]>) properties {}
    %yw = sdfg.access %y writes(%m["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %cw = sdfg.access %C writes(%tw["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) : !sdfg.array<f64 ["N", "M"]>
  }
}

// -----

// A matrix-matrix product of the copy: not a Gemv.
// CHECK-LABEL: sdfg.sdfg @do_not_fold_into_a_matrix_product
// CHECK: Transpose
// CHECK: matmul.MatMul
sdfg.sdfg @do_not_fold_into_a_matrix_product(%B: !sdfg.array<f64 ["M", "N"]> as "B", %X: !sdfg.array<f64 ["M", "M"]> as "X", %Y: !sdfg.array<f64 ["N", "M"]> as "Y") symbols {M = i64, N = i64} {
  %T = sdfg.alloc "T" : !sdfg.array<f64 ["N", "M"]>
  sdfg.state @s {
    %b = sdfg.access %B : !sdfg.array<f64 ["M", "N"]>
    %t = sdfg.library "tr" "dace.libraries.standard.nodes.transpose.Transpose" ins("_inp" = %b["0:M, 0:N"] : !sdfg.array<f64 ["M", "N"]>) outs("_out" : !sdfg.array<f64 ["N", "M"]>) properties {dtype = "\22float64\22"}
    %tw = sdfg.access %T writes(%t["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) : !sdfg.array<f64 ["N", "M"]>
    %xa = sdfg.access %X : !sdfg.array<f64 ["M", "M"]>
    %m = sdfg.library "mm" "dace.libraries.blas.nodes.matmul.MatMul" ins("_a" = %tw["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>, "_b" = %xa["0:M, 0:M"] : !sdfg.array<f64 ["M", "M"]>) outs("_c" : !sdfg.array<f64 ["N", "M"]>) properties {}
    %yw = sdfg.access %Y writes(%m["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) : !sdfg.array<f64 ["N", "M"]>
  }
}

// -----

// The product reads only part of the copy: the whole input is not it.
// CHECK-LABEL: sdfg.sdfg @do_not_fold_a_partial_read
// CHECK: Transpose
// CHECK: matmul.MatMul
sdfg.sdfg @do_not_fold_a_partial_read(%B: !sdfg.array<f64 ["M", "N"]> as "B", %x: !sdfg.array<f64 ["M"]> as "x", %y: !sdfg.array<f64 ["N"]> as "y") symbols {M = i64, N = i64} {
  %T = sdfg.alloc "T" : !sdfg.array<f64 ["N", "M"]>
  sdfg.state @s {
    %b = sdfg.access %B : !sdfg.array<f64 ["M", "N"]>
    %t = sdfg.library "tr" "dace.libraries.standard.nodes.transpose.Transpose" ins("_inp" = %b["0:M, 0:N"] : !sdfg.array<f64 ["M", "N"]>) outs("_out" : !sdfg.array<f64 ["N", "M"]>) properties {dtype = "\22float64\22"}
    %tw = sdfg.access %T writes(%t["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) : !sdfg.array<f64 ["N", "M"]>
    %xa = sdfg.access %x : !sdfg.array<f64 ["M"]>
    %m = sdfg.library "mv" "dace.libraries.blas.nodes.matmul.MatMul" ins("_a" = %tw["0:N - 1, 0:M"] : !sdfg.array<f64 ["N", "M"]>, "_b" = %xa["0:M"] : !sdfg.array<f64 ["M"]>) outs("_c" : !sdfg.array<f64 ["N"]>) properties {}
    %yw = sdfg.access %y writes(%m["0:N - 1"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}
