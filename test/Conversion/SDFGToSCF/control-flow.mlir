// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(convert-sdfg-to-scf)' | FileCheck %s

// Control flow becomes cf blocks in a func.func: arguments are the
// containers (flat memrefs, scalars rank 0) then the free symbols; assigned
// symbols live in memref<index> variables.

// CHECK-LABEL: func.func @state_machine
// CHECK-SAME: (%[[A:.*]]: memref<?xf64>, %[[N:.*]]: index) attributes {llvm.emit_c_interface}
// CHECK: %[[I:.*]] = memref.alloca() : memref<index>
// The assignment on init -> guard stores the first value.
// CHECK: memref.store %{{.*}}, %[[I]][] : memref<index>
// The guard's two conditional edges are tested in order.
// CHECK: arith.cmpi
// CHECK: cf.cond_br
// The body writes A[i] and its back edge increments i.
// CHECK: memref.store %{{.*}}, %[[A]][%{{.*}}] : memref<?xf64>
// CHECK: arith.addi
// CHECK: memref.store %{{.*}}, %[[I]][] : memref<index>
// CHECK: return
sdfg.sdfg @state_machine(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64, i = i64} {
  sdfg.state @init {
  }
  sdfg.state @guard {
  }
  sdfg.state @body {
    %t = sdfg.tasklet "one" outs("o" : f64) {
      %c = arith.constant 1.0 : f64
      sdfg.yield %c : f64
    }
    %a = sdfg.access %A writes(%t["i"] : f64) : !sdfg.array<f64 ["N"]>
  }
  sdfg.state @done {
  }
  sdfg.edge @init -> @guard assign("i" = "0")
  sdfg.edge @guard -> @body if "i < N"
  sdfg.edge @body -> @guard assign("i" = "i + 1")
  sdfg.edge @guard -> @done if "not (i < N)"
}

// -----

// A loop region: init, then a condition block, the body, and a latch that
// updates the variable; break leaves the loop.
// CHECK-LABEL: func.func @loop_with_break
// CHECK-SAME: (%{{.*}}: memref<?xi32>, %[[T:.*]]: index)
// CHECK: %[[V:.*]] = memref.alloca() : memref<index>
// CHECK: memref.store %{{.*}}, %[[V]][] : memref<index>
// CHECK: ^bb{{[0-9]+}}:
// CHECK: arith.cmpi sle
// CHECK: cf.cond_br
// CHECK: return
sdfg.sdfg @loop_with_break(%A: !sdfg.array<i32 ["T"]> as "A") symbols {T = i64, t = i64} {
  sdfg.loop @time var "t" init "0" cond "t < T" update "t + 1" {
    sdfg.state @step {
      %t = sdfg.tasklet "w" outs("o" : i32) {
        %s = sdfg.sym "t" : i32
        sdfg.yield %s : i32
      }
      %a = sdfg.access %A writes(%t["t"] : i32) : !sdfg.array<i32 ["T"]>
    }
    sdfg.break @stop
    sdfg.edge @step -> @stop if "t == 5"
  }
}

// -----

// A conditional block tests its branches in order; the else branch takes
// the rest. A condition that reads floating-point data is computed as
// DaCe's C++ computes it (a private function translated from the Python
// text): `x > 0.5` is not the integer `x >= 1`.
// CHECK-LABEL: func.func private @__expression
// CHECK-SAME: (%[[A:.*]]: f64) -> i1
// CHECK: %[[H:.*]] = arith.constant 5.000000e-01 : f64
// CHECK: arith.cmpf ogt, %[[A]], %[[H]] : f64
// CHECK-LABEL: func.func @branches
// CHECK-SAME: (%[[X:.*]]: memref<f64>, %[[Y:.*]]: memref<?xf64>)
// CHECK: %[[XV:.*]] = memref.load %[[X]][] : memref<f64>
// CHECK: %[[C:.*]] = call @__expression(%[[XV]]) : (f64) -> i1
// CHECK: cf.cond_br %[[C]]
// CHECK: call @__tasklet_two
// CHECK: call @__tasklet_three
sdfg.sdfg @branches(%x: !sdfg.scalar<f64> as "x", %y: !sdfg.array<f64 ["1"]> as "y") {
  sdfg.conditional @sign {
    sdfg.branch @pos if "x > 0.5" {
      sdfg.state @p {
        %t = sdfg.tasklet "two" outs("o" : f64) {
          %c = arith.constant 2.0 : f64
          sdfg.yield %c : f64
        }
        %a = sdfg.access %y writes(%t["0"] : f64) : !sdfg.array<f64 ["1"]>
      }
    }
    sdfg.branch @neg {
      sdfg.state @n {
        %t = sdfg.tasklet "three" outs("o" : f64) {
          %c = arith.constant 3.0 : f64
          sdfg.yield %c : f64
        }
        %a = sdfg.access %y writes(%t["0"] : f64) : !sdfg.array<f64 ["1"]>
      }
    }
  }
}

// -----

// A symbol read by an inter-state condition before any assignment defines
// it is an argument (DaCe passes it) and the initial value of its variable.
// CHECK-LABEL: func.func @read_before_assigned
// CHECK-SAME: (%[[J:.*]]: index)
// CHECK: %[[V:.*]] = memref.alloca() : memref<index>
// CHECK-NEXT: memref.store %[[J]], %[[V]][] : memref<index>
sdfg.sdfg @read_before_assigned() symbols {j = i64} {
  sdfg.state @a {
  }
  sdfg.state @b {
  }
  sdfg.edge @a -> @b if "j < 10" assign("j" = "j + 1")
  sdfg.edge @b -> @a
}

// -----

// An array element read by a floating-point condition: the array is passed
// to the condition's function as a memref of its shape.
// CHECK-LABEL: func.func private @__expression
// CHECK-SAME: (%[[M:.*]]: memref<?x?xf64>) -> i1
// CHECK: memref.load %[[M]][%{{.*}}, %{{.*}}] : memref<?x?xf64>
// CHECK: arith.cmpf olt
// CHECK-LABEL: func.func @array_condition
// CHECK: %[[V:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [%{{.*}}, %{{.*}}], strides: [%{{.*}}, %{{.*}}] : memref<?xf64> to memref<?x?xf64>
// CHECK: call @__expression(%[[V]]) : (memref<?x?xf64>) -> i1
sdfg.sdfg @array_condition(%A: !sdfg.array<f64 ["4", "2"]> as "A") {
  sdfg.state @a {
  }
  sdfg.state @b {
  }
  sdfg.edge @a -> @b if "A[1, 1] < 0.5"
}
