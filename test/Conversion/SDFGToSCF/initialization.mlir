// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(convert-sdfg-to-scf)' | FileCheck %s

// New transients are filled with zeros (reading one before writing it is
// undefined in DaCe) unless a map provably writes every element before
// anything reads the transient.

// A map writes tmp[i + 1] for i in 0:N - 1 and tmp[0] is never written:
// filled. The same map shape writing t2[i] for i in 0:N covers t2: not
// filled.
// CHECK-LABEL: func.func @partial_and_whole
// CHECK: %[[TMP:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0.0{{.*}} : f64
// CHECK: scf.for %[[K:.*]] = {{.*}} {
// CHECK-NEXT: memref.store %[[ZERO]], %[[TMP]][%[[K]]] : memref<?xf64>
// CHECK: %[[T2:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK-NOT: memref.store %{{.*}}, %[[T2]]
// CHECK: scf.parallel
sdfg.sdfg @partial_and_whole(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  %tmp = sdfg.alloc "tmp" : !sdfg.array<f64 ["N"]>
  %t2 = sdfg.alloc "t2" : !sdfg.array<f64 ["N"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %m = sdfg.map "shift" ["i" = "0:N - 1"] ins("a" = %a["0:N - 1"] : !sdfg.array<f64 ["N"]>) outs("tmp" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%ain: !sdfg.array<f64 ["N"]>):
      %v = sdfg.tasklet "copy" ins("x" = %ain["i"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit ("tmp" = %v["i + 1"] : f64)
    }
    %t = sdfg.access %tmp writes(%m["1:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %w = sdfg.map "whole" ["i" = "0:N"] ins("t" = %t["0:N"] : !sdfg.array<f64 ["N"]>) outs("t2" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%tin: !sdfg.array<f64 ["N"]>):
      %v = sdfg.tasklet "copy" ins("x" = %tin["i"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit ("t2" = %v["i"] : f64)
    }
    %u = sdfg.access %t2 writes(%w["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %r = sdfg.map "back" ["i" = "0:N"] ins("u" = %u["0:N"] : !sdfg.array<f64 ["N"]>) outs("B" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%uin: !sdfg.array<f64 ["N"]>):
      %v = sdfg.tasklet "copy" ins("x" = %uin["i"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit ("B" = %v["i"] : f64)
    }
    %b = sdfg.access %B writes(%r["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// Two-dimensional, with shifted indices (tmp[j - 1, i] for j in 1:M + 1):
// covered, not filled. A second access node (a read in another state)
// keeps the fill: the analysis does not follow the state machine.
// CHECK-LABEL: func.func @shifted_2d
// CHECK: %[[T:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK-NOT: memref.store %{{.*}}, %[[T]]
// CHECK: %[[U:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK-NEXT: arith.constant 0.0{{.*}} : f32
// CHECK: scf.for
// CHECK-NEXT: memref.store %{{.*}}, %[[U]]
sdfg.sdfg @shifted_2d(%B: !sdfg.array<f32 ["M", "N"]> as "B") symbols {M = i64, N = i64} {
  %tmp = sdfg.alloc "tmp" : !sdfg.array<f32 ["M", "N"]>
  %u = sdfg.alloc "u" : !sdfg.array<f32 ["M", "N"]>
  sdfg.state @s {
    %m = sdfg.map "w" ["j" = "1:M + 1", "i" = "0:N"] outs("tmp" : !sdfg.array<f32 ["M", "N"]>) {
      %v = sdfg.tasklet "one" outs("y" : f32) {
        %c = arith.constant 1.0 : f32
        sdfg.yield %c : f32
      }
      sdfg.exit ("tmp" = %v["j - 1, i"] : f32)
    }
    %t = sdfg.access %tmp writes(%m["0:M, 0:N"] : !sdfg.array<f32 ["M", "N"]>) : !sdfg.array<f32 ["M", "N"]>
    %n = sdfg.map "w2" ["j" = "0:M", "i" = "0:N"] outs("u" : !sdfg.array<f32 ["M", "N"]>) {
      %v = sdfg.tasklet "one" outs("y" : f32) {
        %c = arith.constant 2.0 : f32
        sdfg.yield %c : f32
      }
      sdfg.exit ("u" = %v["j, i"] : f32)
    }
    %w = sdfg.access %u writes(%n["0:M, 0:N"] : !sdfg.array<f32 ["M", "N"]>) : !sdfg.array<f32 ["M", "N"]>
  }
  sdfg.state @read {
    %w = sdfg.access %u : !sdfg.array<f32 ["M", "N"]>
    %b = sdfg.access %B writes(%w["0:M, 0:N"] : !sdfg.array<f32 ["M", "N"]>) : !sdfg.array<f32 ["M", "N"]>
  }
  sdfg.edge @s -> @read
}

// -----

// Buffers of a tile inside a parallel map (what sdfg-in-local-storage
// makes), allocated per iteration: T is written only by a copy into all
// of it, so it is not filled first; U is copied into half of it, so it is.
// CHECK-LABEL: func.func @tile_buffers
// CHECK: scf.parallel
// CHECK: %[[T:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: %[[U:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK: memref.store %cst{{.*}}, %[[U]]
// CHECK-NOT: memref.store %cst{{.*}}, %[[T]]
// CHECK: return
sdfg.sdfg @tile_buffers(%A: !sdfg.array<f64 ["16", "8"]> as "A", %B: !sdfg.array<f64 ["16", "8"]> as "B") {
  %T = sdfg.alloc "T" : !sdfg.array<f64 ["4", "8"]>
  %U = sdfg.alloc "U" : !sdfg.array<f64 ["8"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["16", "8"]>
    %m = sdfg.map "tiles" ["t" = "0:16:4"] ins("a" = %a["0:16, 0:8"] : !sdfg.array<f64 ["16", "8"]>) outs("b" : !sdfg.array<f64 ["16", "8"]>) {
    ^bb0(%at: !sdfg.array<f64 ["16", "8"]>):
      %tl = sdfg.access %T writes(%at["t:t + 4, 0:8" -> "0:4, 0:8"] : !sdfg.array<f64 ["16", "8"]>) : !sdfg.array<f64 ["4", "8"]>
      %ul = sdfg.access %U writes(%at["t, 0:4" -> "0:4"] : !sdfg.array<f64 ["16", "8"]>) : !sdfg.array<f64 ["8"]>
      %n = sdfg.map "tile" ["i" = "t:t + 4", "j" = "0:8"] schedule Sequential ins("x" = %tl["0:4, 0:8"] : !sdfg.array<f64 ["4", "8"]>, "u" = %ul["0:8"] : !sdfg.array<f64 ["8"]>) outs("b" : !sdfg.array<f64 ["16", "8"]>) {
      ^bb0(%x: !sdfg.array<f64 ["4", "8"]>, %u: !sdfg.array<f64 ["8"]>):
        %v = sdfg.tasklet "add" ins("p" = %x["i - t, j"] : !sdfg.array<f64 ["4", "8"]>, "q" = %u["j"] : !sdfg.array<f64 ["8"]>) outs("y" : f64) {
        ^bb0(%p: f64, %q: f64):
          %s = arith.addf %p, %q : f64
          sdfg.yield %s : f64
        }
        sdfg.exit ("b" = %v["i, j"] : f64)
      }
      sdfg.exit ("b" = %n["t:t + 4, 0:8"] : !sdfg.array<f64 ["16", "8"]>)
    }
    %b = sdfg.access %B writes(%m["0:16, 0:8"] : !sdfg.array<f64 ["16", "8"]>) : !sdfg.array<f64 ["16", "8"]>
  }
}
