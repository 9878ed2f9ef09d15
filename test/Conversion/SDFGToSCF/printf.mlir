// RUN: sdfg-opt %s --pass-pipeline='builtin.module(convert-sdfg-to-scf)' | FileCheck %s
// RUN: sdfg-run %s --set N=3 | FileCheck %s --check-prefix=OUT

// sdfg.printf becomes a call of a helper per format and argument types,
// which converts each argument to what its conversion reads (`%d` an int,
// `%ld` a 64-bit integer, `%f` a double) and calls C's printf with the
// format as a constant global (quotes and backslashes escaped, NUL
// terminated). The call sits in its own alloca_scope,
// like the stream runtime's.

// CHECK: llvm.func @printf(!llvm.ptr, ...) -> i32
// CHECK: llvm.mlir.global private constant @__printf_format("\22i\22\\ = %d, x = %.1f, n = %ld\0A\00") {addr_space = 0 : i32}
// CHECK-LABEL: func.func private @__printf(
// CHECK-SAME: %[[I:.*]]: index, %[[X:.*]]: f32, %[[N:.*]]: i32)
// CHECK: %[[FMT:.*]] = llvm.mlir.addressof @__printf_format : !llvm.ptr
// CHECK: %[[I32:.*]] = arith.index_cast %[[I]] : index to i32
// CHECK: %[[X64:.*]] = arith.extf %[[X]] : f32 to f64
// CHECK: %[[N64:.*]] = arith.extsi %[[N]] : i32 to i64
// CHECK: llvm.call @printf(%[[FMT]], %[[I32]], %[[X64]], %[[N64]]) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32, f64, i64) -> i32
// CHECK-LABEL: func.func @prints
// CHECK: scf.for
// CHECK: func.call @__tasklet_p(
// CHECK-LABEL: func.func private @__tasklet_p(
// CHECK: memref.alloca_scope {
// CHECK-NEXT: func.call @__printf(

// OUT: "i"\ = 0, x = 0.5, n = -3
// OUT-NEXT: "i"\ = 1, x = 1.5, n = -3
// OUT-NEXT: "i"\ = 2, x = 2.5, n = -3
sdfg.sdfg @prints() symbols {N = i64} {
  sdfg.state @s {
    sdfg.map "m" ["i" = "0:N"] schedule Sequential {
      sdfg.tasklet "p" {
        %i = sdfg.sym "i" : index
        %n = arith.constant -3 : i32
        %c = arith.index_cast %i : index to i64
        %f = arith.sitofp %c : i64 to f32
        %h = arith.constant 0.5 : f32
        %x = arith.addf %f, %h : f32
        sdfg.printf "\"i\"\\ = %d, x = %.1f, n = %ld\n" %i, %x, %n : index, f32, i32
        sdfg.yield
      }
      sdfg.exit()
    }
  }
}
