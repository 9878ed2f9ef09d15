// RUN: sdfg-opt %s --pass-pipeline='builtin.module(convert-sdfg-to-scf)' | FileCheck %s
// RUN: %python -c "import numpy as n; a = n.arange(9.0).reshape(3, 3); n.save('%t.spd.npy', a @ a.T + 3 * n.eye(3)); n.save('%t.rhs.npy', n.arange(12.0).reshape(3, 4))"
// RUN: sdfg-run %s --function cholesky --input A=%t.spd.npy --check-bounds | FileCheck %s --check-prefix=CHOL
// RUN: sdfg-run %s --function solve --input A=%t.spd.npy --input B=%t.rhs.npy --check-bounds | FileCheck %s --check-prefix=SOLVE
// RUN: sdfg-run %s --function inverse --input A=%t.spd.npy --check-bounds | FileCheck %s --check-prefix=INV
// RUN: sdfg-opt %s --pass-pipeline='builtin.module(sdfg-expand-library-nodes)' | FileCheck %s --check-prefix=KEPT

// DaCe's Cholesky, Solve and Inv (dace.libraries.linalg) call LAPACK: each
// operand is copied into a dense row-major buffer, LAPACKE computes in it,
// and the result is copied into the output's subset. The expansion pass
// leaves them in place, as DaCe has no pure expansion of them.

// CHECK-DAG: func.func private @LAPACKE_dpotrf(i32, i8, i32, !llvm.ptr, i32) -> i32
// CHECK-DAG: func.func private @LAPACKE_dgesv(i32, i32, i32, !llvm.ptr, i32, !llvm.ptr, !llvm.ptr, i32) -> i32
// CHECK-DAG: func.func private @LAPACKE_dgetrf(i32, i32, i32, !llvm.ptr, i32, !llvm.ptr) -> i32
// CHECK-DAG: func.func private @LAPACKE_dgetri(i32, i32, !llvm.ptr, i32, !llvm.ptr) -> i32
// KEPT-COUNT-3: sdfg.library

// The lower factor, its upper triangle zeroed. potrf reads the row-major
// buffer as column-major, with the other triangle (column-major 102, 'U'
// 85), which is the same matrix to it and saves LAPACKE's transposes.
// CHECK-LABEL: func.func @cholesky
// CHECK: %[[BUF:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK-DAG: %[[MAJOR:.*]] = arith.constant 102 : i32
// CHECK-DAG: %[[UPLO:.*]] = arith.constant 85 : i8
// CHECK: memref.extract_aligned_pointer_as_index %[[BUF]]
// CHECK: call @LAPACKE_dpotrf(%[[MAJOR]], %[[UPLO]],
// CHECK: arith.cmpi ugt
// CHECK: arith.select
// CHECK: memref.dealloc %[[BUF]]
// L of A = [[8, 14, 23], [14, 53, 86], [23, 86, 152]] (arange(9) A A^T + 3I),
// checked against numpy.linalg.cholesky.
// CHOL: L: <f8[3, 3] checksum 3.3344419474e1
sdfg.sdfg @cholesky(%A: !sdfg.array<f64 ["3", "3"]> as "A", %L: !sdfg.array<f64 ["3", "3"]> as "L") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["3", "3"]>
    %c = sdfg.library "cholesky" "dace.libraries.linalg.nodes.cholesky.Cholesky"
        ins("_a" = %a["0:3, 0:3"] : !sdfg.array<f64 ["3", "3"]>) outs("_b" : !sdfg.array<f64 ["3", "3"]>) properties {}
    %l = sdfg.access %L writes(%c["0:3, 0:3"] : !sdfg.array<f64 ["3", "3"]>) : !sdfg.array<f64 ["3", "3"]>
  }
}

// A X = B[:, 1:3] for two columns of B (a strided subset), solved with
// gesv; checked against numpy.linalg.solve.
// CHECK-LABEL: func.func @solve
// CHECK: call @LAPACKE_dgesv
// SOLVE: X: <f8[3, 2] checksum 1.6190476190e-1
sdfg.sdfg @solve(%A: !sdfg.array<f64 ["3", "3"]> as "A", %B: !sdfg.array<f64 ["3", "4"]> as "B", %X: !sdfg.array<f64 ["3", "2"]> as "X") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["3", "3"]>
    %b = sdfg.access %B : !sdfg.array<f64 ["3", "4"]>
    %x = sdfg.library "solve" "dace.libraries.linalg.nodes.solve.Solve"
        ins("_ain" = %a["0:3, 0:3"] : !sdfg.array<f64 ["3", "3"]>, "_bin" = %b["0:3, 1:3"] : !sdfg.array<f64 ["3", "4"]>)
        outs("_bout" : !sdfg.array<f64 ["3", "2"]>) properties {}
    %xa = sdfg.access %X writes(%x["0:3, 0:2"] : !sdfg.array<f64 ["3", "2"]>) : !sdfg.array<f64 ["3", "2"]>
  }
}

// The inverse through getrf and getri; checked against numpy.linalg.inv.
// CHECK-LABEL: func.func @inverse
// CHECK: call @LAPACKE_dgetrf
// CHECK: call @LAPACKE_dgetri
// INV: B: <f8[3, 3] checksum 1.8095238095e-1
sdfg.sdfg @inverse(%A: !sdfg.array<f64 ["3", "3"]> as "A", %B: !sdfg.array<f64 ["3", "3"]> as "B") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["3", "3"]>
    %i = sdfg.library "inv" "dace.libraries.linalg.nodes.inv.Inv"
        ins("_ain" = %a["0:3, 0:3"] : !sdfg.array<f64 ["3", "3"]>) outs("_aout" : !sdfg.array<f64 ["3", "3"]>) properties {}
    %b = sdfg.access %B writes(%i["0:3, 0:3"] : !sdfg.array<f64 ["3", "3"]>) : !sdfg.array<f64 ["3", "3"]>
  }
}
