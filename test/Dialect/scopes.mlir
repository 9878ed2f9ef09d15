// RUN: sdfg-opt %s -split-input-file | sdfg-opt -split-input-file | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --mlir-print-op-generic | sdfg-opt -split-input-file | FileCheck %s

// Round trips of the scopes: maps (every schedule and option, dynamic range
// inputs, nesting) and consume scopes.

// A map reads through its entry connectors (block arguments) and writes
// through its exit; the default schedule is not printed.
// CHECK-LABEL: sdfg.sdfg @map_basic
// CHECK: %[[X:.*]] = sdfg.access %x : !sdfg.array<f64 ["N"]>
// CHECK: %[[R:.*]] = sdfg.map "scale" ["i" = "0:N"] ins("x" = %[[X]]["0:N"] : !sdfg.array<f64 ["N"]>) outs("y" : !sdfg.array<f64 ["N"]>) {
// CHECK-NEXT: ^bb0(%[[IN:.*]]: !sdfg.array<f64 ["N"]>):
// CHECK-NEXT: %[[T:.*]] = sdfg.tasklet "s" ins("a" = %[[IN]]["i"] : !sdfg.array<f64 ["N"]>) outs("b" : f64) code python "b = 2 * a"
// CHECK-NEXT: sdfg.exit("y" = %[[T]]["i"] : f64)
// CHECK-NEXT: }
// CHECK-NEXT: sdfg.access %y writes(%[[R]]["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
sdfg.sdfg @map_basic(%x: !sdfg.array<f64 ["N"]> as "x", %y: !sdfg.array<f64 ["N"]> as "y") symbols {N = i64} {
  sdfg.state @s {
    %xa = sdfg.access %x : !sdfg.array<f64 ["N"]>
    %r = sdfg.map "scale" ["i" = "0:N"] schedule Default ins("x" = %xa["0:N"] : !sdfg.array<f64 ["N"]>) outs("y" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%xin: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "s" ins("a" = %xin["i"] : !sdfg.array<f64 ["N"]>) outs("b" : f64) code python "b = 2 * a"
      sdfg.exit ("y" = %t["i"] : f64)
    }
    %ya = sdfg.access %y writes(%r["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// Every schedule of DaCe is spelled as in DaCe; a map may have no
// connectors at all (ordered only by `after`).
// CHECK-LABEL: sdfg.sdfg @schedules
// CHECK: sdfg.map "m0" ["i" = "0:N"] schedule Sequential after(
// CHECK: sdfg.map "m1" ["i" = "0:N"] schedule MPI after(
// CHECK: sdfg.map "m2" ["i" = "0:N"] schedule CPU_Multicore after(
// CHECK: sdfg.map "m3" ["i" = "0:N"] schedule CPU_Persistent after(
// CHECK: sdfg.map "m4" ["i" = "0:N"] schedule Unrolled after(
// CHECK: sdfg.map "m5" ["i" = "0:N"] schedule SVE_Map after(
// CHECK: sdfg.map "m6" ["i" = "0:N"] schedule GPU_Default after(
// CHECK: sdfg.map "m7" ["i" = "0:N"] schedule GPU_Device after(
// CHECK: sdfg.map "m8" ["i" = "0:N"] schedule GPU_ThreadBlock after(
// CHECK: sdfg.map "m9" ["i" = "0:N"] schedule GPU_ThreadBlock_Dynamic after(
// CHECK: sdfg.map "m10" ["i" = "0:N"] schedule GPU_Persistent after(
// CHECK: sdfg.map "m11" ["i" = "0:N"] schedule FPGA_Device after(
// CHECK: sdfg.map "m12" ["i" = "0:N"] schedule FPGA_Multi_Pumped after(
// CHECK: sdfg.map "m13" ["i" = "0:N"] schedule Snitch after(
// CHECK: sdfg.map "m14" ["i" = "0:N"] schedule Snitch_Multicore after(
sdfg.sdfg @schedules(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    sdfg.map "m0" ["i" = "0:N"] schedule Sequential after(%a : !sdfg.array<f64 ["N"]>) {
      sdfg.exit ()
    }
    sdfg.map "m1" ["i" = "0:N"] schedule MPI after(%a : !sdfg.array<f64 ["N"]>) {
      sdfg.exit ()
    }
    sdfg.map "m2" ["i" = "0:N"] schedule CPU_Multicore after(%a : !sdfg.array<f64 ["N"]>) {
      sdfg.exit ()
    }
    sdfg.map "m3" ["i" = "0:N"] schedule CPU_Persistent after(%a : !sdfg.array<f64 ["N"]>) {
      sdfg.exit ()
    }
    sdfg.map "m4" ["i" = "0:N"] schedule Unrolled after(%a : !sdfg.array<f64 ["N"]>) {
      sdfg.exit ()
    }
    sdfg.map "m5" ["i" = "0:N"] schedule SVE_Map after(%a : !sdfg.array<f64 ["N"]>) {
      sdfg.exit ()
    }
    sdfg.map "m6" ["i" = "0:N"] schedule GPU_Default after(%a : !sdfg.array<f64 ["N"]>) {
      sdfg.exit ()
    }
    sdfg.map "m7" ["i" = "0:N"] schedule GPU_Device after(%a : !sdfg.array<f64 ["N"]>) {
      sdfg.exit ()
    }
    sdfg.map "m8" ["i" = "0:N"] schedule GPU_ThreadBlock after(%a : !sdfg.array<f64 ["N"]>) {
      sdfg.exit ()
    }
    sdfg.map "m9" ["i" = "0:N"] schedule GPU_ThreadBlock_Dynamic after(%a : !sdfg.array<f64 ["N"]>) {
      sdfg.exit ()
    }
    sdfg.map "m10" ["i" = "0:N"] schedule GPU_Persistent after(%a : !sdfg.array<f64 ["N"]>) {
      sdfg.exit ()
    }
    sdfg.map "m11" ["i" = "0:N"] schedule FPGA_Device after(%a : !sdfg.array<f64 ["N"]>) {
      sdfg.exit ()
    }
    sdfg.map "m12" ["i" = "0:N"] schedule FPGA_Multi_Pumped after(%a : !sdfg.array<f64 ["N"]>) {
      sdfg.exit ()
    }
    sdfg.map "m13" ["i" = "0:N"] schedule Snitch after(%a : !sdfg.array<f64 ["N"]>) {
      sdfg.exit ()
    }
    sdfg.map "m14" ["i" = "0:N"] schedule Snitch_Multicore after(%a : !sdfg.array<f64 ["N"]>) {
      sdfg.exit ()
    }
  }
}

// -----

// Map options (in their fixed order: schedule, unroll, unroll_factor,
// collapse, gpu_block_size, omp_num_threads) round-trip; ranges may have
// steps, negative steps and tiles.
// CHECK-LABEL: sdfg.sdfg @map_options
// CHECK: sdfg.map "gpu" ["i" = "0:N:2", "j" = "0:M tile 32"] schedule GPU_Device unroll unroll_factor 4 collapse 2 gpu_block_size ["32", "8"] omp_num_threads 4 {
// CHECK: sdfg.map "cpu" ["k" = "N-1:-1:-1"] omp_num_threads 8 {
sdfg.sdfg @map_options() symbols {M = i64, N = i64} {
  sdfg.state @s {
    sdfg.map "gpu" ["i" = "0:N:2", "j" = "0:M tile 32"] schedule GPU_Device unroll unroll_factor 4 collapse 2 gpu_block_size ["32", "8"] omp_num_threads 4 {
      sdfg.exit ()
    }
    sdfg.map "cpu" ["k" = "N-1:-1:-1"] omp_num_threads 8 {
      sdfg.exit ()
    }
  }
}

// -----

// Dynamic range inputs follow the ordinary inputs as trailing block
// arguments and their names may appear in the ranges.
// CHECK-LABEL: sdfg.sdfg @dynamic_ranges
// CHECK: %[[ROW:.*]] = sdfg.access %row
// CHECK: %[[VAL:.*]] = sdfg.access %val
// CHECK: sdfg.map "cols" ["j" = "b:e"] ins("v" = %[[VAL]]["0:nnz", dynamic] : !sdfg.array<f64 ["nnz"]>) dyn("b" = %[[ROW]]["i"] : !sdfg.array<i32 ["H + 1"]>, "e" = %[[ROW]]["i + 1"] : !sdfg.array<i32 ["H + 1"]>) outs("o" : !sdfg.array<f64 ["H"]>) {
// CHECK-NEXT: ^bb0(%[[V:.*]]: !sdfg.array<f64 ["nnz"]>, %{{.*}}: !sdfg.array<i32 ["H + 1"]>, %{{.*}}: !sdfg.array<i32 ["H + 1"]>):
// CHECK: sdfg.exit("o" = %{{.*}}["i", wcr sum] : f64)
sdfg.sdfg @dynamic_ranges(%row: !sdfg.array<i32 ["H + 1"]> as "row", %val: !sdfg.array<f64 ["nnz"]> as "val",
                          %out: !sdfg.array<f64 ["H"]> as "out") symbols {H = i64, i = i64, nnz = i64} {
  sdfg.state @s {
    %r = sdfg.access %row : !sdfg.array<i32 ["H + 1"]>
    %v = sdfg.access %val : !sdfg.array<f64 ["nnz"]>
    %m = sdfg.map "cols" ["j" = "b:e"] ins("v" = %v["0:nnz", dynamic] : !sdfg.array<f64 ["nnz"]>)
        dyn("b" = %r["i"] : !sdfg.array<i32 ["H + 1"]>, "e" = %r["i + 1"] : !sdfg.array<i32 ["H + 1"]>)
        outs("o" : !sdfg.array<f64 ["H"]>) {
    ^bb0(%vin: !sdfg.array<f64 ["nnz"]>, %b: !sdfg.array<i32 ["H + 1"]>, %e: !sdfg.array<i32 ["H + 1"]>):
      %t = sdfg.tasklet "t" ins("x" = %vin["j"] : !sdfg.array<f64 ["nnz"]>) outs("y" : f64) code python "y = x"
      sdfg.exit ("o" = %t["i", wcr sum] : f64)
    }
    %o = sdfg.access %out writes(%m["0:H", dynamic, wcr sum] : !sdfg.array<f64 ["H"]>) : !sdfg.array<f64 ["H"]>
  }
}

// -----

// Maps nest; several exit edges may flow to one output connector, and
// access nodes of transients may sit inside a scope.
// CHECK-LABEL: sdfg.sdfg @nested_maps
// CHECK: %[[OUTER:.*]] = sdfg.map "outer" ["i" = "0:N"] ins("A" = %{{.*}}["0:N, 0:N"] : !sdfg.array<f64 ["N", "N"]>) outs("B" : !sdfg.array<f64 ["N", "N"]>) {
// CHECK-NEXT: ^bb0(%[[AO:.*]]: !sdfg.array<f64 ["N", "N"]>):
// CHECK: %[[INNER:.*]] = sdfg.map "inner" ["j" = "0:N"] ins("A" = %[[AO]]["i, 0:N"] : !sdfg.array<f64 ["N", "N"]>) outs("B" : !sdfg.array<f64 ["N", "N"]>) {
// CHECK: %[[T:.*]] = sdfg.access %tmp writes
// CHECK: sdfg.exit("B" = %{{.*}}["i, j"] : f64, "B" = %{{.*}}["i, 0"] : f64)
// CHECK: sdfg.exit("B" = %[[INNER]]["i, 0:N"] : !sdfg.array<f64 ["N", "N"]>)
// CHECK: sdfg.access %B writes(%[[OUTER]]["0:N, 0:N"] : !sdfg.array<f64 ["N", "N"]>)
sdfg.sdfg @nested_maps(%A: !sdfg.array<f64 ["N", "N"]> as "A", %B: !sdfg.array<f64 ["N", "N"]> as "B") symbols {N = i64} {
  %tmp = sdfg.alloc "tmp" lifetime Scope : !sdfg.scalar<f64 storage Register>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "N"]>
    %o = sdfg.map "outer" ["i" = "0:N"] ins("A" = %a["0:N, 0:N"] : !sdfg.array<f64 ["N", "N"]>) outs("B" : !sdfg.array<f64 ["N", "N"]>) {
    ^bb0(%ao: !sdfg.array<f64 ["N", "N"]>):
      %in = sdfg.map "inner" ["j" = "0:N"] ins("A" = %ao["i, 0:N"] : !sdfg.array<f64 ["N", "N"]>) outs("B" : !sdfg.array<f64 ["N", "N"]>) {
      ^bb0(%ai: !sdfg.array<f64 ["N", "N"]>):
        %t = sdfg.tasklet "t" ins("x" = %ai["i, j"] : !sdfg.array<f64 ["N", "N"]>) outs("y" : f64) code python "y = x"
        %tn = sdfg.access %tmp writes(%t["0"] : f64) : !sdfg.scalar<f64 storage Register>
        %u:2 = sdfg.tasklet "u" ins("x" = %tn["0"] : !sdfg.scalar<f64 storage Register>) outs("y" : f64, "z" : f64) code python "y = x\nz = x"
        sdfg.exit ("B" = %u#0["i, j"] : f64, "B" = %u#1["i, 0"] : f64)
      }
      sdfg.exit ("B" = %in["i, 0:N"] : !sdfg.array<f64 ["N", "N"]>)
    }
    %b = sdfg.access %B writes(%o["0:N, 0:N"] : !sdfg.array<f64 ["N", "N"]>) : !sdfg.array<f64 ["N", "N"]>
  }
}

// -----

// A consume scope drains a stream: what it pops is the first block argument
// (with a chunk size, an array of that many elements), then come the `ins`
// connectors; every option is printed.
// CHECK-LABEL: sdfg.sdfg @consume_full
// CHECK: %[[S:.*]] = sdfg.access %S : !sdfg.stream<i32 shape ["1"]>
// CHECK: %[[A:.*]] = sdfg.access %A : !sdfg.array<f64 ["N"]>
// CHECK: %[[R:.*]]:2 = sdfg.consume "work"(%[[S]] ["0"] : !sdfg.stream<i32 shape ["1"]>) pe "p" pes "P" quiescence "p > N" chunksize "4" schedule CPU_Multicore ins("a" = %[[A]]["0:N"] : !sdfg.array<f64 ["N"]>) outs("out" : !sdfg.array<f64 ["1"]>, "S" : !sdfg.stream<i32 shape ["1"]>) after(%[[A]] : !sdfg.array<f64 ["N"]>) {
// CHECK-NEXT: ^bb0(%[[E:.*]]: !sdfg.array<i32 ["4"]>, %[[AIN:.*]]: !sdfg.array<f64 ["N"]>):
// CHECK: sdfg.exit("out" = %{{.*}}["0", wcr sum] : f64, "S" = %{{.*}}["0", dynamic] : i32)
// CHECK: sdfg.access %O writes(%[[R]]#0["0", wcr sum] : !sdfg.array<f64 ["1"]>)
// CHECK: sdfg.access %S writes(%[[R]]#1["0", dynamic] : !sdfg.stream<i32 shape ["1"]>)
sdfg.sdfg @consume_full(%S: !sdfg.stream<i32 shape ["1"]> as "S", %A: !sdfg.array<f64 ["N"]> as "A",
                        %O: !sdfg.array<f64 ["1"]> as "O") symbols {N = i64, P = i64} {
  sdfg.state @s {
    %s = sdfg.access %S : !sdfg.stream<i32 shape ["1"]>
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %r:2 = sdfg.consume "work" (%s["0"] : !sdfg.stream<i32 shape ["1"]>) pe "p" pes "P" quiescence "p > N" chunksize "4" schedule CPU_Multicore
        ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("out" : !sdfg.array<f64 ["1"]>, "S" : !sdfg.stream<i32 shape ["1"]>) after(%a : !sdfg.array<f64 ["N"]>) {
    ^bb0(%e: !sdfg.array<i32 ["4"]>, %ain: !sdfg.array<f64 ["N"]>):
      %t:2 = sdfg.tasklet "step" ins("e" = %e["0"] : !sdfg.array<i32 ["4"]>, "a" = %ain["0"] : !sdfg.array<f64 ["N"]>) outs("v" : f64, "n" : i32) code python "v = a\nif e > 0:\n    n = e - 1"
      sdfg.exit ("out" = %t#0["0", wcr sum] : f64, "S" = %t#1["0", dynamic] : i32)
    }
    %o = sdfg.access %O writes(%r#0["0", wcr sum] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
    %s2 = sdfg.access %S writes(%r#1["0", dynamic] : !sdfg.stream<i32 shape ["1"]>) : !sdfg.stream<i32 shape ["1"]>
  }
}

// -----

// A minimal consume scope: only the stream, the PE symbol and their count.
// CHECK-LABEL: sdfg.sdfg @consume_minimal
// CHECK: sdfg.consume "c"(%{{.*}} ["0"] : !sdfg.stream<f32 shape ["4"] buffer "8">) pe "q" pes "2" {
// CHECK-NEXT: ^bb0(%{{.*}}: f32):
// CHECK-NEXT: sdfg.exit()
sdfg.sdfg @consume_minimal(%S: !sdfg.stream<f32 shape ["4"] buffer "8"> as "S") {
  sdfg.state @s {
    %s = sdfg.access %S : !sdfg.stream<f32 shape ["4"] buffer "8">
    sdfg.consume "c" (%s["0"] : !sdfg.stream<f32 shape ["4"] buffer "8">) pe "q" pes "2" {
    ^bb0(%e: f32):
      sdfg.exit ()
    }
  }
}
