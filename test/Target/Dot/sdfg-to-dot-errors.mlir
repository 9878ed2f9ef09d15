// RUN: not sdfg-translate --sdfg-to-dot %s 2>&1 | FileCheck %s

// A module without an SDFG has nothing to draw: the translation fails with
// a located error.

// CHECK: sdfg-to-dot-errors.mlir:[[@LINE+1]]:1: error: 'builtin.module' op contains no 'sdfg.sdfg' to draw
module {
  func.func @f() {
    return
  }
}
