// RUN: sdfg-opt %s -split-input-file | sdfg-opt -split-input-file | FileCheck %s

// An SDFG with an empty body round-trips whether or not it has arguments:
// the printer must not print an entry block header that the parser then
// rejects ("invalid block name in region with named arguments").

// CHECK-LABEL: sdfg.sdfg @no_arguments()
sdfg.sdfg @no_arguments() {
}

// -----

// CHECK-LABEL: sdfg.sdfg @with_arguments
// CHECK-SAME: (%{{.*}}: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64}
// CHECK-NOT: ^bb0
sdfg.sdfg @with_arguments(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64} {
}
