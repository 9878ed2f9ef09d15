// RUN: sdfg-opt %examples/laplace.mlir --pass-pipeline='builtin.module(sdfg-lower-to-llvm)' | FileCheck %s
// RUN: sdfg-run %examples/laplace.mlir --set N=64 --set T=3 | FileCheck %s --check-prefix=EXEC

// sdfg-lower-to-llvm takes an SDFG all the way to the llvm dialect: the
// function and its C interface, the parallel map as an OpenMP worksharing
// loop, and nothing of the sdfg, scf, cf, memref or arith dialects left.

// CHECK-NOT: sdfg.
// CHECK-LABEL: llvm.func @laplace
// CHECK: omp.parallel
// CHECK: omp.wsloop
// CHECK: llvm.fmul
// CHECK-LABEL: llvm.func @_mlir_ciface_laplace
// CHECK-NOT: {{scf|cf|memref|arith}}.

// sdfg-run compiles and runs it on seeded random data and reports every
// container the program writes.
// EXEC: A: <f8[2, 64] checksum 2.5829988304e0
