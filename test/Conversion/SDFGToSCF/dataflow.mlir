// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(convert-sdfg-to-scf)' | FileCheck %s
// RUN: sdfg-run %s --function atomic_float --set P=1 --set D=0 --set Q=1 | FileCheck %s --check-prefix=ATOMIC-FLOAT
// RUN: rm -rf %t && sdfg-run %s --function wcr_into_owned_tiles --seed 4 --save-inputs %t/in --out %t/out > /dev/null
// RUN: %python -c "import numpy as n; l=lambda d, x: n.load('%t/' + d + '/' + x + '.npy'); print(n.allclose(l('out', 'C'), l('in', 'C') + l('in', 'A') @ l('in', 'B')))" | FileCheck %s --check-prefix=OWNED
// OWNED: True

// Dataflow: maps, tasklets, memlets, write-conflict resolution, copies,
// views, transients and nested SDFGs.

// The outermost parallel map is scf.parallel, a map nested in it scf.for;
// a tasklet is a call of a private function holding its body; memlets are
// loads and stores at linear indices computed from the symbolic strides.
// CHECK-LABEL: func.func @maps
// CHECK-SAME: (%[[A:.*]]: memref<?xf64>, %[[B:.*]]: memref<?xf64>, %[[N:.*]]: index)
// CHECK: scf.parallel (%[[I:.*]]) =
// CHECK: scf.for %[[J:.*]] =
// CHECK: %[[R:.*]] = arith.muli %[[N]], %[[I]] : index
// CHECK: %[[L:.*]] = arith.addi %[[R]], %[[J]] : index
// CHECK: %[[V:.*]] = memref.load %[[A]][%[[L]]] : memref<?xf64>
// CHECK: %[[W:.*]] = func.call @__tasklet_double(%[[V]]) : (f64) -> f64
// CHECK: memref.store %[[W]], %[[B]][%{{.*}}] : memref<?xf64>
// CHECK-LABEL: func.func private @__tasklet_double
// CHECK-SAME: (%[[X:.*]]: f64) -> f64
// CHECK: arith.mulf
sdfg.sdfg @maps(%A: !sdfg.array<f64 ["N", "N"]> as "A", %B: !sdfg.array<f64 ["N", "N"]> as "B") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "N"]>
    %r = sdfg.map "rows" ["i" = "0:N"] ins("A" = %a["0:N, 0:N"] : !sdfg.array<f64 ["N", "N"]>)
        outs("B" : !sdfg.array<f64 ["N", "N"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N", "N"]>):
      %c = sdfg.map "cols" ["j" = "0:N"] ins("A" = %ai["i, 0:N"] : !sdfg.array<f64 ["N", "N"]>)
          outs("B" : !sdfg.array<f64 ["N", "N"]>) {
      ^bb0(%aj: !sdfg.array<f64 ["N", "N"]>):
        %t = sdfg.tasklet "double" ins("x" = %aj["i, j"] : !sdfg.array<f64 ["N", "N"]>) outs("y" : f64) {
        ^bb0(%x: f64):
          %two = arith.constant 2.0 : f64
          %y = arith.mulf %two, %x : f64
          sdfg.yield %y : f64
        }
        sdfg.exit ("B" = %t["j, i"] : f64)
      }
      sdfg.exit ("B" = %c["0:N, i"] : !sdfg.array<f64 ["N", "N"]>)
    }
    %b = sdfg.access %B writes(%r["0:N, 0:N"] : !sdfg.array<f64 ["N", "N"]>) : !sdfg.array<f64 ["N", "N"]>
  }
}

// -----

// A sum whose destination every parallel iteration shares is an atomic
// read-modify-write; one indexed by the parallel parameter is a plain one.
// CHECK-LABEL: func.func @wcr
// CHECK: scf.parallel
// CHECK: memref.atomic_rmw addf %{{.*}}, %{{.*}}[%{{.*}}] : (f64, memref<?xf64>) -> f64
// CHECK: %[[OLD:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<?xf64>
// CHECK: %[[NEW:.*]] = arith.addf %[[OLD]], %{{.*}} : f64
// CHECK: memref.store %[[NEW]]
sdfg.sdfg @wcr(%x: !sdfg.array<f64 ["N"]> as "x", %s: !sdfg.array<f64 ["1"]> as "s", %y: !sdfg.array<f64 ["N"]> as "y") symbols {N = i64} {
  sdfg.state @s {
    %xa = sdfg.access %x : !sdfg.array<f64 ["N"]>
    %r:2 = sdfg.map "sum" ["i" = "0:N"] ins("x" = %xa["0:N"] : !sdfg.array<f64 ["N"]>)
        outs("s" : !sdfg.array<f64 ["1"]>, "y" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%xi: !sdfg.array<f64 ["N"]>):
      %t:2 = sdfg.tasklet "id" ins("a" = %xi["i"] : !sdfg.array<f64 ["N"]>) outs("b" : f64, "c" : f64) {
      ^bb0(%a: f64):
        sdfg.yield %a, %a : f64, f64
      }
      sdfg.exit ("s" = %t#0["0", wcr sum] : f64, "y" = %t#1["i", wcr "(lambda a, b: a + b)"] : f64)
    }
    %sa = sdfg.access %s writes(%r#0["0", wcr sum] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
    %ya = sdfg.access %y writes(%r#1["0:N", wcr sum] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// A matrix product over tiles of constant size: only tile_i is parallel
// (tile_k would share C's elements between iterations, so it runs
// inside), the inner map's writes land in the tile that the parallel
// iteration owns, and every sum is a plain read-modify-write. The result
// is C + A @ B (the OWNED run, against NumPy).
// CHECK-LABEL: func.func @wcr_into_owned_tiles
// CHECK: scf.parallel (%{{.*}}) =
// CHECK-NOT: scf.parallel
// CHECK-NOT: atomic
// CHECK: memref.load
// CHECK: arith.addf
// CHECK: memref.store
// CHECK-NOT: atomic
// CHECK: return
sdfg.sdfg @wcr_into_owned_tiles(%A: !sdfg.array<f64 ["64", "64"]> as "A", %B: !sdfg.array<f64 ["64", "64"]> as "B", %C: !sdfg.array<f64 ["64", "64"]> as "C") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["64", "64"]>
    %b = sdfg.access %B : !sdfg.array<f64 ["64", "64"]>
    %m = sdfg.map "mm" ["tile_i" = "0:64:8", "tile_k" = "0:64:16", "tile_j" = "0:64:32"] ins("A" = %a["0:64, 0:64"] : !sdfg.array<f64 ["64", "64"]>, "B" = %b["0:64, 0:64"] : !sdfg.array<f64 ["64", "64"]>) outs("C" : !sdfg.array<f64 ["64", "64"]>) {
    ^bb0(%at: !sdfg.array<f64 ["64", "64"]>, %bt: !sdfg.array<f64 ["64", "64"]>):
      %n = sdfg.map "tile" ["i" = "tile_i:tile_i + 8", "k" = "tile_k:tile_k + 16", "j" = "tile_j:tile_j + 32"] schedule Sequential ins("A" = %at["tile_i:tile_i + 8, tile_k:tile_k + 16"] : !sdfg.array<f64 ["64", "64"]>, "B" = %bt["tile_k:tile_k + 16, tile_j:tile_j + 32"] : !sdfg.array<f64 ["64", "64"]>) outs("C" : !sdfg.array<f64 ["64", "64"]>) {
      ^bb0(%ai: !sdfg.array<f64 ["64", "64"]>, %bi: !sdfg.array<f64 ["64", "64"]>):
        %t = sdfg.tasklet "mult" ins("x" = %ai["i, k"] : !sdfg.array<f64 ["64", "64"]>, "y" = %bi["k, j"] : !sdfg.array<f64 ["64", "64"]>) outs("o" : f64) {
        ^bb0(%x: f64, %y: f64):
          %p = arith.mulf %x, %y : f64
          sdfg.yield %p : f64
        }
        sdfg.exit ("C" = %t["i, j", wcr sum] : f64)
      }
      sdfg.exit ("C" = %n["tile_i:tile_i + 8, tile_j:tile_j + 32", volume "4096", wcr sum] : !sdfg.array<f64 ["64", "64"]>)
    }
    %c = sdfg.access %C writes(%m["0:64, 0:64", volume "262144", wcr sum] : !sdfg.array<f64 ["64", "64"]>) : !sdfg.array<f64 ["64", "64"]>
  }
}

// -----

// A product, a difference or a quotient of floats whose destination every
// parallel iteration shares has no atomic instruction: a compare-and-swap
// loop on the element's bits (memref.generic_atomic_rmw would hand the
// float type to llvm.cmpxchg, which takes only integers and pointers).
// CHECK-LABEL: func.func @atomic_float
// CHECK: scf.parallel
// CHECK: %[[FIRST:.*]] = llvm.load %[[P:.*]] atomic monotonic {alignment = 8 : i64} : !llvm.ptr -> i64
// CHECK: scf.while (%[[OLD:.*]] = %[[FIRST]]) : (i64) -> i64 {
// CHECK: %[[CUR:.*]] = arith.bitcast %[[OLD]] : i64 to f64
// CHECK: %[[NEW:.*]] = arith.mulf %[[CUR]], %{{.*}} : f64
// CHECK: %[[BITS:.*]] = arith.bitcast %[[NEW]] : f64 to i64
// CHECK: memref.alloca_scope
// CHECK-NEXT: llvm.cmpxchg %[[P]], %[[OLD]], %[[BITS]] acq_rel monotonic : !llvm.ptr, i64
// CHECK: arith.subf %{{.*}}, %{{.*}} : f32
// CHECK: llvm.cmpxchg %{{.*}} : !llvm.ptr, i32
// CHECK: arith.divf
// ATOMIC-FLOAT: P: <f8[] checksum 4.0320000000e4
// ATOMIC-FLOAT: D: <f4[] checksum -3.6000000000e1
// ATOMIC-FLOAT: Q: <f8[] checksum 2.4801587302e-5
sdfg.sdfg @atomic_float(%P: !sdfg.scalar<f64> as "P", %D: !sdfg.scalar<f32> as "D", %Q: !sdfg.scalar<f64> as "Q") {
  sdfg.state @s {
    %m:3 = sdfg.map "m" ["i" = "1:9"] outs("P" : !sdfg.scalar<f64>, "D" : !sdfg.scalar<f32>, "Q" : !sdfg.scalar<f64>) {
      %v:3 = sdfg.tasklet "i" outs("o" : f64, "h" : f32, "q" : f64) {
        %i = sdfg.sym "i" : i64
        %f = arith.sitofp %i : i64 to f64
        %h = arith.sitofp %i : i64 to f32
        sdfg.yield %f, %h, %f : f64, f32, f64
      }
      sdfg.exit ("P" = %v#0["0", wcr product] : f64, "D" = %v#1["0", wcr sub] : f32, "Q" = %v#2["0", wcr div] : f64)
    }
    %p = sdfg.access %P writes(%m#0["0", wcr product] : !sdfg.scalar<f64>) : !sdfg.scalar<f64>
    %d = sdfg.access %D writes(%m#1["0", wcr sub] : !sdfg.scalar<f32>) : !sdfg.scalar<f32>
    %q = sdfg.access %Q writes(%m#2["0", wcr div] : !sdfg.scalar<f64>) : !sdfg.scalar<f64>
  }
}

// -----

// A scalar transient used only inside a map is private to each iteration:
// allocated in the loop body (promoted to a register by mem2reg later).
// CHECK-LABEL: func.func @private_transient
// CHECK: scf.parallel
// CHECK-NEXT: memref.alloca_scope
// CHECK-NEXT: %[[T:.*]] = memref.alloca() : memref<f64>
// CHECK: memref.store %{{.*}}, %[[T]][] : memref<f64>
// CHECK: memref.load %[[T]][] : memref<f64>
sdfg.sdfg @private_transient(%x: !sdfg.array<f64 ["N"]> as "x") symbols {N = i64} {
  %tmp = sdfg.alloc "tmp" : !sdfg.scalar<f64>
  sdfg.state @s {
    %xa = sdfg.access %x : !sdfg.array<f64 ["N"]>
    %r = sdfg.map "m" ["i" = "0:N"] ins("x" = %xa["0:N"] : !sdfg.array<f64 ["N"]>) outs("x" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%xi: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "a" ins("a" = %xi["i"] : !sdfg.array<f64 ["N"]>) outs("b" : f64) {
      ^bb0(%a: f64):
        sdfg.yield %a : f64
      }
      %ta = sdfg.access %tmp writes(%t["0"] : f64) : !sdfg.scalar<f64>
      %u = sdfg.tasklet "b" ins("a" = %ta["0"] : !sdfg.scalar<f64>) outs("b" : f64) {
      ^bb0(%a: f64):
        %n = arith.negf %a : f64
        sdfg.yield %n : f64
      }
      sdfg.exit ("x" = %u["i"] : f64)
    }
    %xb = sdfg.access %x writes(%r["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// An access-node copy is a loop nest over the source subset; the
// destination may be another subset (here a column into a row). Two
// arguments may be the same memory: where they are and the destination
// starts later, the copy runs backwards (memmove's order).
// CHECK-LABEL: func.func @copy
// CHECK: %[[P:.*]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK: %[[Q:.*]] = memref.extract_aligned_pointer_as_index %arg1
// CHECK: %[[SAME:.*]] = arith.cmpi eq, %[[P]], %[[Q]]
// CHECK: %[[BACK:.*]] = arith.andi %[[SAME]]
// CHECK: scf.for %[[K:.*]] =
// CHECK: arith.select %[[BACK]]
// CHECK: %[[V:.*]] = memref.load
// CHECK: memref.store %[[V]]
sdfg.sdfg @copy(%A: !sdfg.array<f32 ["4", "4"]> as "A", %B: !sdfg.array<f32 ["4", "4"]> as "B") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f32 ["4", "4"]>
    %b = sdfg.access %B writes(%a["0:4, 1" -> "2, 0:4"] : !sdfg.array<f32 ["4", "4"]>) : !sdfg.array<f32 ["4", "4"]>
  }
}

// -----

// An array of the function's own is no other container's memory: a copy
// out of it runs forwards, without the test (a loop LLVM can vectorize).
// CHECK-LABEL: func.func @copy_out_of_own_array
// CHECK-NOT: extract_aligned_pointer
// CHECK-NOT: arith.select
// CHECK: return
sdfg.sdfg @copy_out_of_own_array(%B: !sdfg.array<f32 ["4", "4"]> as "B") {
  %T = sdfg.alloc "T" : !sdfg.array<f32 ["4", "4"]>
  sdfg.state @s {
    %t = sdfg.access %T : !sdfg.array<f32 ["4", "4"]>
    %b = sdfg.access %B writes(%t["0:4, 1" -> "2, 0:4"] : !sdfg.array<f32 ["4", "4"]>) : !sdfg.array<f32 ["4", "4"]>
  }
}

// -----

// A copy outside any parallel loop, in a known direction, runs its
// leading dimension in parallel as a map would, when it has at least 16384
// elements (tested at run time for a symbolic size): the threads that
// wrote rows of T copy those rows on. A copy that may run backwards and
// one of a small constant size stay loops.
// CHECK-LABEL: func.func @parallel_copy
// CHECK: %[[BIG:.*]] = arith.cmpi sge, %{{.*}}, %c16384
// CHECK: scf.if %[[BIG]] {
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%arg4) step (%{{.*}}) {
// CHECK: scf.for %{{.*}} = %{{.*}} to %arg4 step
// CHECK: memref.store %{{.*}}, %arg0
// CHECK: scf.reduce
// CHECK: } else {
// CHECK-NOT: scf.parallel
// CHECK: memref.store %{{.*}}, %arg0
// CHECK-NOT: scf.parallel
// CHECK: arith.select
// CHECK-NOT: scf.parallel
// CHECK: return
sdfg.sdfg @parallel_copy(%B: !sdfg.array<f64 ["N", "N"]> as "B", %C: !sdfg.array<f64 ["4", "4"]> as "C", %D: !sdfg.array<f64 ["N"]> as "D", %E: !sdfg.array<f64 ["N"]> as "E") symbols {N = i64} {
  %T = sdfg.alloc "T" : !sdfg.array<f64 ["N", "N"]>
  %U = sdfg.alloc "U" : !sdfg.array<f64 ["4", "4"]>
  sdfg.state @s {
    %t = sdfg.access %T : !sdfg.array<f64 ["N", "N"]>
    %b = sdfg.access %B writes(%t["0:N, 0:N"] : !sdfg.array<f64 ["N", "N"]>) : !sdfg.array<f64 ["N", "N"]>
    %u = sdfg.access %U : !sdfg.array<f64 ["4", "4"]>
    %c = sdfg.access %C writes(%u["0:4, 0:4"] : !sdfg.array<f64 ["4", "4"]>) : !sdfg.array<f64 ["4", "4"]>
    %d = sdfg.access %D : !sdfg.array<f64 ["N"]>
    %e = sdfg.access %E writes(%d["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// A memref connector receives a strided view of its memlet's subset.
// CHECK-LABEL: func.func @array_connector
// CHECK: %[[V:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [%{{.*}}], strides: [%{{.*}}] : memref<?xf64> to memref<?xf64, strided<[?], offset: ?>>
// CHECK: call @__tasklet_first(%[[V]]) : (memref<?xf64, strided<[?], offset: ?>>) -> f64
// CHECK-LABEL: func.func private @__tasklet_first
// CHECK-SAME: memref<?xf64, strided<[?], offset: ?>>
sdfg.sdfg @array_connector(%A: !sdfg.array<f64 ["N", "N"]> as "A", %b: !sdfg.array<f64 ["N"]> as "b") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "N"]>
    %t = sdfg.tasklet "first" ins("col" = %a["0:N, 1"] : !sdfg.array<f64 ["N", "N"]>) outs("o" : f64) {
    ^bb0(%col: memref<?xf64>):
      %c0 = arith.constant 0 : index
      %v = memref.load %col[%c0] : memref<?xf64>
      sdfg.yield %v : f64
    }
    %bb = sdfg.access %b writes(%t["0"] : f64) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// A nested SDFG is a private function called with the memref and the base
// index of its subset, and its symbol mapping evaluated.
// CHECK-LABEL: func.func private @outer_inner
// CHECK-SAME: (%[[X:.*]]: memref<?xf64>, %[[BASE:.*]]: index, %[[M:.*]]: index)
// CHECK: %[[I:.*]] = arith.addi %{{.*}}, %[[M]] : index
// CHECK: %[[L:.*]] = arith.addi %[[BASE]], %[[I]] : index
// CHECK: memref.store %{{.*}}, %[[X]][%[[L]]] : memref<?xf64>
// CHECK-LABEL: func.func @outer
// CHECK: call @outer_inner(%{{.*}}, %{{.*}}, %{{.*}}) : (memref<?xf64>, index, index) -> ()
sdfg.sdfg @outer(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %n = sdfg.nested "inner" ins("x" = %a["1:N"] : !sdfg.array<f64 ["N"]>) outs("x" : !sdfg.array<f64 ["N"]>) symbols("M" = "N - 1") {
      sdfg.sdfg @inner(%x: !sdfg.array<f64 ["M"]> as "x") symbols {M = i64} {
        sdfg.state @t {
          %t = sdfg.tasklet "z" outs("o" : f64) {
            %z = arith.constant 0.0 : f64
            sdfg.yield %z : f64
          }
          %xa = sdfg.access %x writes(%t["M - 1"] : f64) : !sdfg.array<f64 ["M"]>
        }
      }
    }
    %b = sdfg.access %A writes(%n["1:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// An access node inside a map copies into the exit: the memlet's subset
// is over the source (the scalar), `->` over the destination.
// CHECK-LABEL: func.func @exit_copy_from_a_scalar
// CHECK: scf.parallel (%[[I:.*]]) =
// CHECK: %[[V:.*]] = memref.load %{{.*}}[] : memref<f64>
// CHECK: memref.store %[[V]], %arg1[%[[I]]] : memref<?xf64>
sdfg.sdfg @exit_copy_from_a_scalar(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  %t = sdfg.alloc "t" : !sdfg.scalar<f64>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %r = sdfg.map "m" ["i" = "0:N"] ins("x" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("y" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%x: !sdfg.array<f64 ["N"]>):
      %o = sdfg.tasklet "neg" ins("v" = %x["i"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%v: f64):
        %w = arith.negf %v : f64
        sdfg.yield %w : f64
      }
      %n = sdfg.access %t writes(%o["0"] : f64) : !sdfg.scalar<f64>
      sdfg.exit("y" = %n["0" -> "i"] : !sdfg.scalar<f64>)
    }
    %b = sdfg.access %B writes(%r["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// Only the leading dimensions of a multi-dimensional map are parallel: up
// to the first that is not a small constant; the others are sequential
// loops inside, which OpenMP leaves alone and LLVM can vectorize.
// CHECK-LABEL: func.func @leading_dimensions
// CHECK: scf.parallel (%{{[^,]*}}) =
// CHECK-NEXT: scf.for
// CHECK-NOT: scf.parallel
// CHECK: scf.parallel (%{{[^,]*}}, %{{[^,]*}}) =
// CHECK-NEXT: scf.for
sdfg.sdfg @leading_dimensions(%A: !sdfg.array<f64 ["N", "M"]> as "A", %B: !sdfg.array<f64 ["4", "N", "M"]> as "B") symbols {M = i64, N = i64} {
  sdfg.state @s {
    %r = sdfg.map "rows" ["i" = "0:N", "j" = "0:M"] outs("A" : !sdfg.array<f64 ["N", "M"]>) {
      %t = sdfg.tasklet "one" outs("o" : f64) {
        %c = arith.constant 1.0 : f64
        sdfg.yield %c : f64
      }
      sdfg.exit ("A" = %t["i, j"] : f64)
    }
    %a = sdfg.access %A writes(%r["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) : !sdfg.array<f64 ["N", "M"]>
    %q = sdfg.map "planes" ["k" = "0:4", "i" = "0:N", "j" = "0:M"] outs("B" : !sdfg.array<f64 ["4", "N", "M"]>) {
      %t = sdfg.tasklet "two" outs("o" : f64) {
        %c = arith.constant 2.0 : f64
        sdfg.yield %c : f64
      }
      sdfg.exit ("B" = %t["k, i, j"] : f64)
    }
    %b = sdfg.access %B writes(%q["0:4, 0:N, 0:M"] : !sdfg.array<f64 ["4", "N", "M"]>) : !sdfg.array<f64 ["4", "N", "M"]>
  }
}
