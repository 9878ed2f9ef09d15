// Validation is part of verification in the tools: without any pass,
// sdfg-opt and sdfg-translate reject an invalid SDFG after parsing.
// RUN: not sdfg-opt %s 2>&1 | FileCheck %s
// RUN: not sdfg-translate --sdfg-to-dot %s 2>&1 | FileCheck %s
// RUN: sdfg-opt %s --verify-diagnostics

// CHECK: error: 'sdfg.tasklet' op output connector "o" is dangling: it has no outgoing edge
sdfg.sdfg @dangling() {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.tasklet' op output connector "o" is dangling: it has no outgoing edge}}
    %o = sdfg.tasklet "t" outs("o" : f64) code python "o = 1.0"
  }
}
