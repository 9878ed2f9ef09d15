// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-redundant-array-elimination)' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-redundant-array-elimination,sdfg-validate)' -o /dev/null

// `B[:] = tmp`: the map writes B directly, and tmp has no node left.
// CHECK-LABEL: sdfg.sdfg @bypass_transient_copied_whole
// CHECK: %[[M:.*]] = sdfg.map "inc"
// CHECK-NOT: sdfg.access %tmp
// CHECK: sdfg.access %B writes(%[[M]]["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
sdfg.sdfg @bypass_transient_copied_whole(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  %tmp = sdfg.alloc "tmp" : !sdfg.array<f64 ["N"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %m = sdfg.map "inc" ["i" = "0:N"] ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("tmp" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%ain: !sdfg.array<f64 ["N"]>):
      %o = sdfg.tasklet "inc" ins("x" = %ain["i"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        %c = arith.constant 1.0 : f64
        %v = arith.addf %x, %c : f64
        sdfg.yield %v : f64
      }
      sdfg.exit("tmp" = %o["i"] : f64)
    }
    %t = sdfg.access %tmp writes(%m["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %b = sdfg.access %B writes(%t["0:N" -> "0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// `x = A[i]` into a scalar a tasklet reads: the tasklet reads A[i].
// CHECK-LABEL: sdfg.sdfg @read_source_element_directly
// CHECK: %[[A:.*]] = sdfg.access %A
// CHECK-NOT: sdfg.access %x
// CHECK: sdfg.tasklet "use" ins("v" = %[[A]]["i"] : !sdfg.array<f64 ["N"]>)
sdfg.sdfg @read_source_element_directly(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64, i = i64} {
  %x = sdfg.alloc "x" : !sdfg.scalar<f64>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %xs = sdfg.access %x writes(%a["i" -> "0"] : !sdfg.array<f64 ["N"]>) : !sdfg.scalar<f64>
    %o = sdfg.tasklet "use" ins("v" = %xs["0"] : !sdfg.scalar<f64>) outs("y" : f64) {
    ^bb0(%v: f64):
      sdfg.yield %v : f64
    }
    %b = sdfg.access %B writes(%o["i"] : f64) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// `s = s + 1` through a scalar: the tasklet that reads s is the writer of
// the transient, so it may write s itself.
// CHECK-LABEL: sdfg.sdfg @bypass_into_container_read_by_writer
// CHECK: %[[O:.*]] = sdfg.tasklet "add"
// CHECK-NOT: sdfg.access %t
// CHECK: sdfg.access %S writes(%[[O]]["0"] : f64) : !sdfg.scalar<f64>
sdfg.sdfg @bypass_into_container_read_by_writer(%S: !sdfg.scalar<f64> as "S") {
  %tmp = sdfg.alloc "t" : !sdfg.scalar<f64>
  sdfg.state @s {
    %s = sdfg.access %S : !sdfg.scalar<f64>
    %o = sdfg.tasklet "add" ins("x" = %s["0"] : !sdfg.scalar<f64>) outs("y" : f64) {
    ^bb0(%x: f64):
      %c = arith.constant 1.0 : f64
      %v = arith.addf %x, %c : f64
      sdfg.yield %v : f64
    }
    %t = sdfg.access %tmp writes(%o["0"] : f64) : !sdfg.scalar<f64>
    %s2 = sdfg.access %S writes(%t["0" -> "0"] : !sdfg.scalar<f64>) : !sdfg.scalar<f64>
  }
}

// -----

// `B[1:] = B[:-1] + 1` through tmp: the map that writes tmp reads B at
// other indices in parallel, so writing B directly would race; the copy
// into part of B, and a transient read elsewhere, keep their transients.
// CHECK-LABEL: sdfg.sdfg @keep_transient_when_bypass_races
// CHECK: sdfg.access %tmp writes
// CHECK: sdfg.access %B writes(%{{.*}}["0:N - 1" -> "1:N"]
sdfg.sdfg @keep_transient_when_bypass_races(%B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  %tmp = sdfg.alloc "tmp" : !sdfg.array<f64 ["N - 1"]>
  sdfg.state @s {
    %b = sdfg.access %B : !sdfg.array<f64 ["N"]>
    %m = sdfg.map "shift" ["i" = "0:N - 1"] ins("b" = %b["0:N - 1"] : !sdfg.array<f64 ["N"]>) outs("tmp" : !sdfg.array<f64 ["N - 1"]>) {
    ^bb0(%bin: !sdfg.array<f64 ["N"]>):
      %o = sdfg.tasklet "inc" ins("x" = %bin["i"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        %c = arith.constant 1.0 : f64
        %v = arith.addf %x, %c : f64
        sdfg.yield %v : f64
      }
      sdfg.exit("tmp" = %o["i"] : f64)
    }
    %t = sdfg.access %tmp writes(%m["0:N - 1"] : !sdfg.array<f64 ["N - 1"]>) : !sdfg.array<f64 ["N - 1"]>
    %b2 = sdfg.access %B writes(%t["0:N - 1" -> "1:N"] : !sdfg.array<f64 ["N - 1"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// `B[1:N+1] = tmp`: the map writes B at an offset, its exit memlets moved
// into B's coordinates.
// CHECK-LABEL: sdfg.sdfg @bypass_transient_copied_at_offset
// CHECK: %[[M:.*]] = sdfg.map "inc"
// CHECK: sdfg.exit("tmp" = %{{.*}}["i + 1"] : f64)
// CHECK-NOT: sdfg.access %tmp
// CHECK: sdfg.access %B writes(%[[M]]["1:N + 1"] : !sdfg.array<f64 ["N + 2"]>) : !sdfg.array<f64 ["N + 2"]>
sdfg.sdfg @bypass_transient_copied_at_offset(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N + 2"]> as "B") symbols {N = i64} {
  %tmp = sdfg.alloc "tmp" : !sdfg.array<f64 ["N"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %m = sdfg.map "inc" ["i" = "0:N"] ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("tmp" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%ain: !sdfg.array<f64 ["N"]>):
      %o = sdfg.tasklet "inc" ins("x" = %ain["i"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        %c = arith.constant 1.0 : f64
        %v = arith.addf %x, %c : f64
        sdfg.yield %v : f64
      }
      sdfg.exit("tmp" = %o["i"] : f64)
    }
    %t = sdfg.access %tmp writes(%m["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %b = sdfg.access %B writes(%t["0:N" -> "1:N + 1"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N + 2"]>
  }
}

// -----

// A copy that reshapes (9 elements into a 3x3 array) keeps its transient:
// the writers' memlets have no place in the destination's coordinates.
// CHECK-LABEL: sdfg.sdfg @keep_transient_copied_with_reshape
// CHECK: sdfg.access %T writes
// CHECK: sdfg.access %O writes
sdfg.sdfg @keep_transient_copied_with_reshape(%I: !sdfg.array<f32 ["9"]> as "I", %O: !sdfg.array<f32 ["3", "3"]> as "O") {
  %T = sdfg.alloc "T" : !sdfg.array<f32 ["9"]>
  sdfg.state @s {
    %i = sdfg.access %I : !sdfg.array<f32 ["9"]>
    %m = sdfg.map "inc" ["k" = "0:9"] ins("I" = %i["0:9"] : !sdfg.array<f32 ["9"]>) outs("T" : !sdfg.array<f32 ["9"]>) {
    ^bb0(%iin: !sdfg.array<f32 ["9"]>):
      %o = sdfg.tasklet "inc" ins("x" = %iin["k"] : !sdfg.array<f32 ["9"]>) outs("y" : f32) {
      ^bb0(%x: f32):
        %c = arith.constant 1.0 : f32
        %v = arith.addf %x, %c : f32
        sdfg.yield %v : f32
      }
      sdfg.exit("T" = %o["k"] : f32)
    }
    %t = sdfg.access %T writes(%m["0:9"] : !sdfg.array<f32 ["9"]>) : !sdfg.array<f32 ["9"]>
    %b = sdfg.access %O writes(%t["0:9"] : !sdfg.array<f32 ["9"]>) : !sdfg.array<f32 ["3", "3"]>
  }
}

// -----

// A view written by a nested SDFG and copied into row i of its data: the
// nested SDFG writes the row directly, its argument still one element.
// CHECK-LABEL: sdfg.sdfg @write_through_view_into_its_data
// CHECK-NOT: sdfg.access %V
// CHECK: %[[N:.*]] = sdfg.nested "one" outs("o" : !sdfg.array<i64 ["M"]>)
// CHECK: sdfg.access %idx writes(%[[N]]["i"] : !sdfg.array<i64 ["M"]>)
sdfg.sdfg @write_through_view_into_its_data(%idx: !sdfg.array<i64 ["M"]> as "idx") symbols {M = i64, i = i64} {
  %V = sdfg.alloc "V" : !sdfg.view<i64 ["1"]>
  sdfg.state @s {
    %n = sdfg.nested "one" outs("o" : !sdfg.view<i64 ["1"]>) symbols() {
      sdfg.sdfg @one(%o: !sdfg.array<i64 ["1"]> as "o") {
        sdfg.state @only {
          %t = sdfg.tasklet "seven" outs("x" : i64) {
            %c = arith.constant 7 : i64
            sdfg.yield %c : i64
          }
          %w = sdfg.access %o writes(%t["0"] : i64) : !sdfg.array<i64 ["1"]>
        }
      }
    }
    %v = sdfg.access %V writes(%n["0"] : !sdfg.view<i64 ["1"]>) : !sdfg.view<i64 ["1"]>
    %d = sdfg.access %idx writes(%v["0" -> "i"] : !sdfg.view<i64 ["1"]>) : !sdfg.array<i64 ["M"]>
  }
}
