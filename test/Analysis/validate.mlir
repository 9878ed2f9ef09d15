// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-validate)' | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --pass-pipeline='builtin.module(sdfg-validate)' > %t.validated
// RUN: sdfg-opt %s -split-input-file > %t.plain
// RUN: diff %t.plain %t.validated

// Valid SDFGs pass sdfg-validate unchanged (the last RUN lines compare the
// output with and without the pass), including the corner cases its rules
// allow.

// A map over a tasklet with a write-conflict resolution on the writes.
// CHECK-LABEL: sdfg.sdfg @wcr_on_writes
// CHECK: sdfg.exit("B" = %{{.*}}["0", wcr sum] : f64)
sdfg.sdfg @wcr_on_writes(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["1"]> as "B") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %r = sdfg.map "m" ["i" = "0:N"] ins("A" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("B" : !sdfg.array<f64 ["1"]>) {
    ^bb0(%in: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "t" ins("x" = %in["i"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) code python "y = x"
      sdfg.exit ("B" = %t["0", wcr sum] : f64)
    }
    %b = sdfg.access %B writes(%r["0", wcr sum] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
  }
}

// -----

// Copies between access nodes may name the other subset, also from inside
// a scope (a map's connector is an access path).
// CHECK-LABEL: sdfg.sdfg @copies
// CHECK: writes(%{{.*}}["0:N" -> "1:N+1"]
sdfg.sdfg @copies(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N + 1"]> as "B") symbols {N = i64} {
  %t = sdfg.alloc "t" : !sdfg.array<f64 ["N"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %b = sdfg.access %B writes(%a["0:N" -> "1:N+1"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N + 1"]>
    %r = sdfg.map "m" ["i" = "0:N"] ins("A" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("t" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%in: !sdfg.array<f64 ["N"]>):
      %c = sdfg.access %t writes(%in["i" -> "i"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
      %u = sdfg.tasklet "u" ins("x" = %c["i"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) code python "y = x"
      sdfg.exit ("t" = %u["i"] : f64)
    }
    %tt = sdfg.access %t writes(%r["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// A dynamic range input may be used only in the ranges, and a consume
// scope need not read its element.
// CHECK-LABEL: sdfg.sdfg @unused_allowed
// CHECK: dyn("e" =
// CHECK: sdfg.consume
sdfg.sdfg @unused_allowed(%P: !sdfg.array<i32 ["1"]> as "P", %S: !sdfg.stream<i32 shape ["1"]> as "S", %O: !sdfg.array<f64 ["1"]> as "O") {
  sdfg.state @s {
    %p = sdfg.access %P : !sdfg.array<i32 ["1"]>
    %r = sdfg.map "m" ["i" = "0:e"] dyn("e" = %p["0"] : !sdfg.array<i32 ["1"]>) outs("O" : !sdfg.array<f64 ["1"]>) {
    ^bb0(%e: !sdfg.array<i32 ["1"]>):
      %t = sdfg.tasklet "t" outs("y" : f64) code python "y = 1.0"
      sdfg.exit ("O" = %t["0", wcr sum] : f64)
    }
    %o = sdfg.access %O writes(%r["0", wcr sum] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
    %s = sdfg.access %S : !sdfg.stream<i32 shape ["1"]>
    %c = sdfg.consume "c" (%s["0"] : !sdfg.stream<i32 shape ["1"]>) pe "p" pes "2" outs("O" : !sdfg.array<f64 ["1"]>) {
    ^bb0(%el: i32):
      %t = sdfg.tasklet "t" outs("y" : f64) code python "y = 1.0"
      sdfg.exit ("O" = %t["0", wcr sum] : f64)
    }
    %o2 = sdfg.access %O writes(%c["0", wcr sum] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
  }
}

// -----

// A view is valid when bound to its data, or when it writes into the data
// it views.
// CHECK-LABEL: sdfg.sdfg @views
sdfg.sdfg @views(%A: !sdfg.array<f64 ["N", "N"]> as "A", %B: !sdfg.scalar<f64> as "B") symbols {N = i64} {
  %V = sdfg.alloc "V" : !sdfg.view<f64 ["N"]>
  %W = sdfg.alloc "W" : !sdfg.view<f64 ["N"]>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "N"]>
    %v = sdfg.access %V bind(%a["0, 0:N"] : !sdfg.array<f64 ["N", "N"]>) : !sdfg.view<f64 ["N"]>
    %t = sdfg.tasklet "t" ins("x" = %v["0"] : !sdfg.view<f64 ["N"]>) outs("y" : f64) code python "y = x"
    %b = sdfg.access %B writes(%t["0"] : f64) : !sdfg.scalar<f64>
  }
  sdfg.state @s2 {
    %u = sdfg.tasklet "u" outs("y" : f64) code python "y = 0.0"
    %w = sdfg.access %W writes(%u["0"] : f64) : !sdfg.view<f64 ["N"]>
    %a = sdfg.access %A writes(%w["0:N" -> "1, 0:N"] : !sdfg.view<f64 ["N"]>) : !sdfg.array<f64 ["N", "N"]>
  }
  sdfg.edge @s -> @s2
}

// -----

// Block names may repeat in different SDFGs; loop variables and assigned
// names are declared symbols.
// CHECK-LABEL: sdfg.sdfg @first
// CHECK-LABEL: sdfg.sdfg @second
sdfg.sdfg @first() symbols {i = i64, j = i64} {
  sdfg.state @s {
  }
  sdfg.loop @l var "i" init "0" cond "i < 4" update "i + 1" {
    sdfg.state @body {
    }
  }
  sdfg.edge @s -> @l assign("j" = "2")
}
sdfg.sdfg @second() symbols {i = i64} {
  sdfg.state @s {
  }
  sdfg.loop @l var "i" init "0" cond "i < 4" update "i + 1" {
    sdfg.state @body {
    }
  }
  sdfg.edge @s -> @l
}

// -----

// As in DaCe 1.0, block names are unique per control-flow region, not per
// SDFG, and inter-state edges and loops define the symbols they assign: `k`
// and `i` need no declaration.
// CHECK-LABEL: sdfg.sdfg @symbols_defined_by_assignment
sdfg.sdfg @symbols_defined_by_assignment(%A: !sdfg.array<f64 ["8"]> as "A") {
  sdfg.state @init {
  }
  sdfg.loop @l var "i" init "0" cond "i < 8" update "i + 1" {
    sdfg.state @init {
      %t = sdfg.tasklet "t" outs("o" : f64) code python "o = 1.0"
      %a = sdfg.access %A writes(%t["i"] : f64) : !sdfg.array<f64 ["8"]>
    }
  }
  sdfg.state @after {
    %t = sdfg.tasklet "t" outs("o" : f64) code python "o = 2.0"
    %a = sdfg.access %A writes(%t["k"] : f64) : !sdfg.array<f64 ["8"]>
  }
  sdfg.edge @init -> @l assign("k" = "3")
  sdfg.edge @l -> @after
}

// -----

// Accepted: GPU memory read element by element inside a GPU kernel or
// under a Default-scheduled map (schedule inference makes it a kernel);
// a reference used after a state that binds it on every path; nested
// symbols read on edges that every path reaches after their assignment.
// CHECK-LABEL: sdfg.sdfg @device_data_references_and_symbols_in_order
sdfg.sdfg @device_data_references_and_symbols_in_order(%G: !sdfg.array<f64 ["N"] storage GPU_Global> as "G", %A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64} {
  %r = sdfg.alloc "r" : !sdfg.ref<f64 ["N"]>
  sdfg.state @kernels {
    %g = sdfg.access %G : !sdfg.array<f64 ["N"] storage GPU_Global>
    %m = sdfg.map "k" ["i" = "0:N"] schedule GPU_Device ins("x" = %g["0:N"] : !sdfg.array<f64 ["N"] storage GPU_Global>) outs("y" : !sdfg.array<f64 ["N"] storage GPU_Global>) {
    ^bb0(%x: !sdfg.array<f64 ["N"] storage GPU_Global>):
      %o = sdfg.tasklet "t" ins("v" = %x["i"] : !sdfg.array<f64 ["N"] storage GPU_Global>) outs("o" : f64) code python "o = 2 * v"
      sdfg.exit("y" = %o["i"] : f64)
    }
    %w = sdfg.access %G writes(%m["0:N"] : !sdfg.array<f64 ["N"] storage GPU_Global>) : !sdfg.array<f64 ["N"] storage GPU_Global>
    %d = sdfg.map "d" ["i" = "0:N"] ins("x" = %w["0:N"] : !sdfg.array<f64 ["N"] storage GPU_Global>) outs("y" : !sdfg.array<f64 ["N"] storage GPU_Global>) {
    ^bb0(%x: !sdfg.array<f64 ["N"] storage GPU_Global>):
      %o = sdfg.tasklet "t" ins("v" = %x["i"] : !sdfg.array<f64 ["N"] storage GPU_Global>) outs("o" : f64) code python "o = v + 1"
      sdfg.exit("y" = %o["i"] : f64)
    }
    %w2 = sdfg.access %G writes(%d["0:N"] : !sdfg.array<f64 ["N"] storage GPU_Global>) : !sdfg.array<f64 ["N"] storage GPU_Global>
  }
  sdfg.state @set {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %rs = sdfg.access %r bind(%a["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.ref<f64 ["N"]>
  }
  sdfg.state @use {
    %rr = sdfg.access %r : !sdfg.ref<f64 ["N"]>
    %n = sdfg.nested "inner" ins("x" = %rr["0:N"] : !sdfg.ref<f64 ["N"]>) outs("y" : !sdfg.array<f64 ["N"]>) symbols("N" = "N") {
      sdfg.sdfg @inner(%x: !sdfg.array<f64 ["N"]> as "x", %y: !sdfg.array<f64 ["N"]> as "y") symbols {N = i64, i = i64, p = i64} {
        sdfg.state @init {
        }
        sdfg.state @guard {
        }
        sdfg.state @body {
          %xr = sdfg.access %x : !sdfg.array<f64 ["N"]>
          %yw = sdfg.access %y writes(%xr["0:N" -> "0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
        }
        sdfg.state @done {
        }
        sdfg.edge @init -> @guard assign("i" = "0")
        sdfg.edge @guard -> @body if "i < N" assign("p" = "2 * i")
        sdfg.edge @guard -> @done if "not (i < N)"
        sdfg.edge @body -> @guard assign("i" = "i + 1")
      }
    }
    %w = sdfg.access %A writes(%n["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
  sdfg.edge @kernels -> @set
  sdfg.edge @set -> @use
}
