// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-dead-state-elimination)' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-dead-state-elimination,sdfg-validate)' -o /dev/null

// An edge whose condition is false for every value goes, and with it the
// block only it reached; the other branch stays.
// CHECK-LABEL: sdfg.sdfg @remove_never_taken_branch
// CHECK: sdfg.state @start
// CHECK-NOT: sdfg.state @never
// CHECK: sdfg.state @always
// CHECK-NOT: @never
// CHECK: sdfg.edge @start -> @always if "4 <= 5"
sdfg.sdfg @remove_never_taken_branch(%A: !sdfg.array<f64 ["1"]> as "A") {
  sdfg.state @start {
  }
  sdfg.state @never {
    %t = sdfg.tasklet "one" outs("o" : f64) {
      %c = arith.constant 1.0 : f64
      sdfg.yield %c : f64
    }
    %a = sdfg.access %A writes(%t["0"] : f64) : !sdfg.array<f64 ["1"]>
  }
  sdfg.state @always {
  }
  sdfg.edge @start -> @never if "4 > 5"
  sdfg.edge @start -> @always if "4 <= 5"
}

// -----

// A block no edge reaches from the start block goes, with its edges.
// CHECK-LABEL: sdfg.sdfg @remove_unreachable_block
// CHECK: sdfg.state @start
// CHECK-NEXT: }
// CHECK-NEXT: sdfg.state @next
// CHECK-NOT: @orphan
sdfg.sdfg @remove_unreachable_block() {
  sdfg.state @start {
  }
  sdfg.state @orphan {
  }
  sdfg.state @next {
  }
  sdfg.edge @start -> @next
  sdfg.edge @orphan -> @next
}

// -----

// Conditions that depend on a symbol stay, even where one value makes
// them false; so does a loop's back edge.
// CHECK-LABEL: sdfg.sdfg @keep_symbolic_conditions
// CHECK-COUNT-3: sdfg.state
// CHECK: sdfg.edge @guard -> @body if "i < N"
// CHECK: sdfg.edge @body -> @guard assign("i" = "i + 1")
// CHECK: sdfg.edge @guard -> @end if "i >= N"
sdfg.sdfg @keep_symbolic_conditions() symbols {N = i64, i = i64} {
  sdfg.state @guard {
  }
  sdfg.state @body {
  }
  sdfg.state @end {
  }
  sdfg.edge @guard -> @body if "i < N"
  sdfg.edge @body -> @guard assign("i" = "i + 1")
  sdfg.edge @guard -> @end if "i >= N"
}
