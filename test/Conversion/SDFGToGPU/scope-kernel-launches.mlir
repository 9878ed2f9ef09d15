// RUN: sdfg-opt %s --sdfg-scope-kernel-launches | FileCheck %s
// RUN: sdfg-opt %s --sdfg-scope-kernel-launches --convert-scf-to-cf --finalize-memref-to-llvm | FileCheck %s --check-prefix=LLVM

// Each host-side launch gets its own alloca scope, in every block and
// region (here a loop body), so that the argument array the translation
// allocates at the launch is freed after it. Kernels are left alone.
// CHECK-LABEL: func.func @launches
// CHECK: scf.for
// CHECK-NEXT: memref.alloca_scope {
// CHECK-NEXT: gpu.launch_func @kernels::@k
// CHECK-NEXT: }
// CHECK: ^bb1:
// CHECK-NEXT: memref.alloca_scope {
// CHECK-NEXT: gpu.launch_func @kernels::@k
// CHECK: gpu.module @kernels
// CHECK-NOT: alloca_scope

// LLVM: llvm.intr.stacksave
// LLVM-NEXT: llvm.br
// LLVM: gpu.launch_func @kernels::@k
// LLVM: llvm.intr.stackrestore
module attributes {gpu.container_module} {
  func.func @launches(%n: index, %x: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : f32)
    }
    cf.br ^bb1
  ^bb1:
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : f32)
    return
  }
  gpu.module @kernels {
    gpu.func @k(%x: f32) kernel {
      gpu.return
    }
  }
}
