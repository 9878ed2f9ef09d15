// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-map-tiling{tile-sizes=4 label=scale},sdfg-in-local-storage{level=innermost},sdfg-out-local-storage{level=innermost})' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-map-tiling{tile-sizes=4 label=scale},sdfg-in-local-storage{level=innermost data=B})' | FileCheck %s --check-prefix=DATA
// RUN: sdfg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(sdfg-in-local-storage{label=leave},sdfg-out-local-storage{label=leave})' -o /dev/null
// RUN: rm -rf %t && mkdir -p %t
// RUN: for f in store_tiles_locally store_an_inner_map_tile copy_an_element_into_a_scalar; do \
// RUN:   sdfg-run %s --function $f --set N=10 --set M=7 --seed 3 --out %t/$f.before > /dev/null && \
// RUN:   sdfg-run %s --function $f --set N=10 --set M=7 --seed 3 --out %t/$f.after --pass-pipeline='builtin.module(sdfg-map-tiling{tile-sizes=4 label=scale},sdfg-in-local-storage{level=innermost},sdfg-out-local-storage{level=innermost})' > /dev/null && \
// RUN:   %python %S/../Target/HLS/Inputs/compare.py %t/$f.before %t/$f.after; done | FileCheck %s --check-prefix=SAME
// SAME: 1 outputs match
// SAME: 1 outputs match
// SAME: 1 outputs match

// Tiles of 4 x 4: the map over one tile copies its tile of A (at most
// 4 x 4, the last tiles smaller) and its piece of B into buffers of its
// own, reads them there, and writes its tile of C into a third buffer
// that is copied out.
// CHECK-LABEL: sdfg.sdfg @store_tiles_locally
// CHECK-DAG: %[[AL:.*]] = sdfg.alloc "A_local" : !sdfg.array<f64 ["4", "4"]>
// CHECK-DAG: %[[BL:.*]] = sdfg.alloc "B_local" : !sdfg.array<f64 ["4"]>
// CHECK-DAG: %[[CL:.*]] = sdfg.alloc "C_local" : !sdfg.array<f64 ["4", "4"]>
// CHECK: sdfg.map "scale" ["tile_i" = "0:N:4", "tile_j" = "0:M:4"]
// CHECK: %[[A:.*]] = sdfg.access %[[AL]] writes(%{{.*}}["tile_i:Min(tile_i + 4, N), tile_j:Min(tile_j + 4, M)" -> "0:-tile_i + Min(tile_i + 4, N), 0:-tile_j + Min(tile_j + 4, M)"]
// CHECK: %[[B:.*]] = sdfg.access %[[BL]] writes(%{{.*}}["tile_j:Min(tile_j + 4, M)" -> "0:-tile_j + Min(tile_j + 4, M)"]
// CHECK: %[[M:.*]] = sdfg.map "scale" [{{.*}}] schedule Sequential ins("a" = %[[A]]["0:-tile_i + Min(tile_i + 4, N), 0:-tile_j + Min(tile_j + 4, M)"] : !sdfg.array<f64 ["4", "4"]>, "b" = %[[B]]["0:-tile_j + Min(tile_j + 4, M)"] : !sdfg.array<f64 ["4"]>) outs("c" : !sdfg.array<f64 ["4", "4"]>)
// CHECK: ins("x" = %{{.*}}["i - tile_i, j - tile_j"] : !sdfg.array<f64 ["4", "4"]>, "y" = %{{.*}}["j - tile_j"] : !sdfg.array<f64 ["4"]>)
// CHECK: sdfg.exit("c" = %{{.*}}["i - tile_i, j - tile_j"] : f64)
// CHECK: %[[C:.*]] = sdfg.access %[[CL]] writes(%[[M]]["0:-tile_i + Min(tile_i + 4, N), 0:-tile_j + Min(tile_j + 4, M)"]
// CHECK: sdfg.exit("c" = %[[C]]["0:-tile_i + Min(tile_i + 4, N), 0:-tile_j + Min(tile_j + 4, M)" -> "tile_i:Min(tile_i + 4, N), tile_j:Min(tile_j + 4, M)"]
// DATA-LABEL: sdfg.sdfg @store_tiles_locally
// DATA-NOT: A_local
// DATA: sdfg.alloc "B_local"
// DATA-NOT: A_local
sdfg.sdfg @store_tiles_locally(%A: !sdfg.array<f64 ["N", "M"]> as "A", %B: !sdfg.array<f64 ["M"]> as "B", %C: !sdfg.array<f64 ["N", "M"]> as "C") symbols {N = i64, M = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "M"]>
    %b = sdfg.access %B : !sdfg.array<f64 ["M"]>
    %r = sdfg.map "scale" ["i" = "0:N", "j" = "0:M"] ins("a" = %a["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>, "b" = %b["0:M"] : !sdfg.array<f64 ["M"]>) outs("c" : !sdfg.array<f64 ["N", "M"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N", "M"]>, %bi: !sdfg.array<f64 ["M"]>):
      %t = sdfg.tasklet "s" ins("x" = %ai["i, j"] : !sdfg.array<f64 ["N", "M"]>, "y" = %bi["j"] : !sdfg.array<f64 ["M"]>) outs("o" : f64) {
      ^bb0(%x: f64, %y: f64):
        %c = sdfg.sym "i * 100 + j" : f64
        %p = arith.mulf %x, %y : f64
        %w = arith.addf %p, %c : f64
        sdfg.yield %w : f64
      }
      sdfg.exit("c" = %t["i, j"] : f64)
    }
    %c = sdfg.access %C writes(%r["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) : !sdfg.array<f64 ["N", "M"]>
  }
}

// -----

// A map inside a map, with a third map inside it: the buffers serve the
// middle map, and the memlets of the innermost one move with them.
// CHECK-LABEL: sdfg.sdfg @store_an_inner_map_tile
// CHECK-DAG: sdfg.alloc "A_local" : !sdfg.array<f64 ["1", "M"]>
// CHECK-DAG: sdfg.alloc "C_local" : !sdfg.array<f64 ["1", "M"]>
// CHECK: sdfg.map "cols" ["j" = "0:M"] ins("a" = %{{.*}}["0, 0:M"] : !sdfg.array<f64 ["1", "M"]>)
// CHECK: sdfg.exit("c" = %{{.*}}["0, j"] : f64)
// CHECK: sdfg.exit("c" = %{{.*}}["0, 0:M" -> "i, 0:M"] : !sdfg.array<f64 ["1", "M"]>)
sdfg.sdfg @store_an_inner_map_tile(%A: !sdfg.array<f64 ["N", "M"]> as "A", %C: !sdfg.array<f64 ["N", "M"]> as "C") symbols {N = i64, M = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "M"]>
    %r = sdfg.map "rows" ["i" = "0:N"] ins("a" = %a["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) outs("c" : !sdfg.array<f64 ["N", "M"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N", "M"]>):
      %m = sdfg.map "row" ["z" = "0:1"] ins("a" = %ai["i, 0:M"] : !sdfg.array<f64 ["N", "M"]>) outs("c" : !sdfg.array<f64 ["N", "M"]>) {
      ^bb0(%az: !sdfg.array<f64 ["N", "M"]>):
        %n = sdfg.map "cols" ["j" = "0:M"] ins("a" = %az["i, 0:M"] : !sdfg.array<f64 ["N", "M"]>) outs("c" : !sdfg.array<f64 ["N", "M"]>) {
        ^bb0(%aj: !sdfg.array<f64 ["N", "M"]>):
          %t = sdfg.tasklet "s" ins("x" = %aj["i, j"] : !sdfg.array<f64 ["N", "M"]>) outs("o" : f64) {
          ^bb0(%x: f64):
            %c = sdfg.sym "i * 100 + j" : f64
            %w = arith.addf %x, %c : f64
            sdfg.yield %w : f64
          }
          sdfg.exit("c" = %t["i, j"] : f64)
        }
        sdfg.exit("c" = %n["i, 0:M"] : !sdfg.array<f64 ["N", "M"]>)
      }
      sdfg.exit("c" = %m["i, 0:M"] : !sdfg.array<f64 ["N", "M"]>)
    }
    %c = sdfg.access %C writes(%r["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) : !sdfg.array<f64 ["N", "M"]>
  }
}

// -----

// A map in no other scope reads and writes the data itself.
// CHECK-LABEL: sdfg.sdfg @do_not_store_outside_a_scope
// CHECK-NOT: _local
sdfg.sdfg @do_not_store_outside_a_scope(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    // expected-warning @+2 {{sdfg-in-local-storage does not apply: is not inside another scope, so its buffer would be the data's size}}
    // expected-warning @+1 {{sdfg-out-local-storage does not apply: is not inside another scope, so its buffer would be the data's size}}
    %m = sdfg.map "leave" ["i" = "0:N"] ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("b" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "id" ins("x" = %ai["i"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit ("b" = %t["i"] : f64)
    }
    %b = sdfg.access %B writes(%m["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// Row sums resolve into S: a buffer copied out would drop what S held
// (sdfg-accumulate-transient is the transformation for that); the input
// of the inner map gets its buffer.
// CHECK-LABEL: sdfg.sdfg @do_not_store_resolved_writes
// CHECK: sdfg.alloc "A_local" : !sdfg.array<f64 ["1", "8"]>
// CHECK-NOT: S_local
sdfg.sdfg @do_not_store_resolved_writes(%A: !sdfg.array<f64 ["N", "8"]> as "A", %S: !sdfg.array<f64 ["N"]> as "S") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "8"]>
    %m = sdfg.map "rows" ["i" = "0:N"] ins("a" = %a["0:N, 0:8"] : !sdfg.array<f64 ["N", "8"]>) outs("S" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N", "8"]>):
      // expected-warning @+1 {{sdfg-out-local-storage does not apply: output 'S' resolves conflicts (sdfg-accumulate-transient gives those an accumulator)}}
      %c = sdfg.map "leave" ["j" = "0:8"] ins("a" = %ai["i, 0:8"] : !sdfg.array<f64 ["N", "8"]>) outs("S" : !sdfg.array<f64 ["N"]>) {
      ^bb0(%aj: !sdfg.array<f64 ["N", "8"]>):
        %t = sdfg.tasklet "t" ins("x" = %aj["i, j"] : !sdfg.array<f64 ["N", "8"]>) outs("y" : f64) {
        ^bb0(%x: f64):
          sdfg.yield %x : f64
        }
        sdfg.exit ("S" = %t["i", wcr sum] : f64)
      }
      sdfg.exit ("S" = %c["i", volume "8", wcr sum] : !sdfg.array<f64 ["N"]>)
    }
    %s = sdfg.access %S writes(%m["0:N", volume "8*N", wcr sum] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// A map that updates A in place keeps reading and writing A itself: reads
// of a copy would miss its writes, and writes held back in a buffer would
// be missed by its reads.
// CHECK-LABEL: sdfg.sdfg @do_not_store_data_updated_in_place
// CHECK-NOT: _local
sdfg.sdfg @do_not_store_data_updated_in_place(%A: !sdfg.array<f64 ["N", "8"]> as "A") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "8"]>
    %m = sdfg.map "rows" ["i" = "0:N"] ins("a" = %a["0:N, 0:8"] : !sdfg.array<f64 ["N", "8"]>) outs("a" : !sdfg.array<f64 ["N", "8"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N", "8"]>):
      // expected-warning @+2 {{sdfg-in-local-storage does not apply: 'A' is also written by the map, whose reads of a copy would miss its writes}}
      // expected-warning @+1 {{sdfg-out-local-storage does not apply: 'A' is also read by the map, whose reads would miss the writes held back in the buffer}}
      %c = sdfg.map "leave" ["j" = "0:8"] ins("a" = %ai["i, 0:8"] : !sdfg.array<f64 ["N", "8"]>) outs("a" : !sdfg.array<f64 ["N", "8"]>) {
      ^bb0(%aj: !sdfg.array<f64 ["N", "8"]>):
        %t = sdfg.tasklet "t" ins("x" = %aj["i, 7 - j"] : !sdfg.array<f64 ["N", "8"]>) outs("y" : f64) {
        ^bb0(%x: f64):
          sdfg.yield %x : f64
        }
        sdfg.exit ("a" = %t["i, j"] : f64)
      }
      sdfg.exit ("a" = %c["i, 0:8"] : !sdfg.array<f64 ["N", "8"]>)
    }
    %w = sdfg.access %A writes(%m["0:N, 0:8"] : !sdfg.array<f64 ["N", "8"]>) : !sdfg.array<f64 ["N", "8"]>
  }
}

// -----

// A map copies an element of its input into a scalar (a copy with one
// subset for both ends, over the source): with the input in a buffer, the
// copy reads the buffer's element and still fills the whole scalar.
// CHECK-LABEL: sdfg.sdfg @copy_an_element_into_a_scalar
// CHECK: sdfg.alloc "A_local" : !sdfg.array<f64 ["4", "4"]>
// CHECK: sdfg.access %D writes(%{{.*}}["i - tile_i, j - tile_j" -> "0"] : !sdfg.array<f64 ["4", "4"]>) : !sdfg.scalar<f64>
sdfg.sdfg @copy_an_element_into_a_scalar(%A: !sdfg.array<f64 ["N", "M"]> as "A", %C: !sdfg.array<f64 ["N", "M"]> as "C") symbols {N = i64, M = i64} {
  %D = sdfg.alloc "D" : !sdfg.scalar<f64>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "M"]>
    %r = sdfg.map "scale" ["i" = "0:N", "j" = "0:M"] ins("a" = %a["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) outs("c" : !sdfg.array<f64 ["N", "M"]>) {
    ^bb0(%ain: !sdfg.array<f64 ["N", "M"]>):
      %d = sdfg.access %D writes(%ain["i, j"] : !sdfg.array<f64 ["N", "M"]>) : !sdfg.scalar<f64>
      %t = sdfg.tasklet "s" ins("v" = %d["0"] : !sdfg.scalar<f64>) outs("o" : f64) {
      ^bb0(%v: f64):
        %two = arith.constant 2.0 : f64
        %w = arith.mulf %v, %two : f64
        sdfg.yield %w : f64
      }
      sdfg.exit("c" = %t["i, j"] : f64)
    }
    %c = sdfg.access %C writes(%r["0:N, 0:M"] : !sdfg.array<f64 ["N", "M"]>) : !sdfg.array<f64 ["N", "M"]>
  }
}
