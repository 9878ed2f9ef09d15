// RUN: sdfg-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(sdfg-validate)'

// One case per error of the sdfg-validate pass (passes/analysis/src/validate/).
// A tasklet's output connector has an outgoing edge.
sdfg.sdfg @dangling_tasklet_output() {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.tasklet' op output connector "o" is dangling: it has no outgoing edge}}
    %o = sdfg.tasklet "t" outs("o" : f64) code python "o = 1.0"
  }
}

// -----

// A map's output connector has an outgoing edge.
sdfg.sdfg @dangling_map_output() {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.map' op output connector "B" is dangling: it has no outgoing edge}}
    %r = sdfg.map "m" ["i" = "0:4"] outs("B" : !sdfg.array<f64 ["4"]>) {
      %t = sdfg.tasklet "t" outs("y" : f64) code python "y = 1"
      sdfg.exit ("B" = %t["i"] : f64)
    }
  }
}

// -----

// A library node's output connector has an outgoing edge.
sdfg.sdfg @dangling_library_output() {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.library' op output connector "_c" is dangling: it has no outgoing edge}}
    %l = sdfg.library "l" "a.B" outs("_c" : !sdfg.array<f64 ["4"]>) properties {}
  }
}

// -----

// A nested SDFG's output connector has an outgoing edge.
sdfg.sdfg @dangling_nested_output() {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.nested' op output connector "b" is dangling: it has no outgoing edge}}
    %r = sdfg.nested "n" outs("b" : !sdfg.array<f64 ["4"]>) {
      sdfg.sdfg @inner(%b: !sdfg.array<f64 ["4"]> as "b") {
        sdfg.state @s {
        }
      }
    }
  }
}

// -----

// Every input connector of a map is used inside it.
sdfg.sdfg @unused_map_input(%A: !sdfg.array<f64 ["4"]> as "A") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4"]>
    // expected-error @+1 {{'sdfg.map' op input connector "a" has no edge inside the scope}}
    sdfg.map "m" ["i" = "0:4"] ins("a" = %a["0:4"] : !sdfg.array<f64 ["4"]>) {
    ^bb0(%in: !sdfg.array<f64 ["4"]>):
      sdfg.exit ()
    }
  }
}

// -----

// Every input connector of a consume scope is used inside it.
sdfg.sdfg @unused_consume_input(%S: !sdfg.stream<i32 shape ["1"]> as "S", %A: !sdfg.array<f64 ["4"]> as "A") {
  sdfg.state @s {
    %s = sdfg.access %S : !sdfg.stream<i32 shape ["1"]>
    %a = sdfg.access %A : !sdfg.array<f64 ["4"]>
    // expected-error @+1 {{'sdfg.consume' op input connector "a" has no edge inside the scope}}
    sdfg.consume "c" (%s["0"] : !sdfg.stream<i32 shape ["1"]>) pe "p" pes "2" ins("a" = %a["0:4"] : !sdfg.array<f64 ["4"]>) {
    ^bb0(%e: i32, %in: !sdfg.array<f64 ["4"]>):
      sdfg.exit ()
    }
  }
}

// -----

// Reads have no write-conflict resolution.
sdfg.sdfg @wcr_on_read(%A: !sdfg.array<f64 ["4"]> as "A", %B: !sdfg.scalar<f64> as "B") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4"]>
    // expected-error @+1 {{'sdfg.tasklet' op input connector "x" reads with a write-conflict resolution, which only writes may have}}
    %t = sdfg.tasklet "t" ins("x" = %a["0", wcr sum] : !sdfg.array<f64 ["4"]>) outs("y" : f64) code python "y = x"
    %b = sdfg.access %B writes(%t["0"] : f64) : !sdfg.scalar<f64>
  }
}

// -----

// Only copies between access nodes have an 'other' subset: not reads.
sdfg.sdfg @other_on_read(%A: !sdfg.array<f64 ["4"]> as "A", %B: !sdfg.scalar<f64> as "B") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4"]>
    // expected-error @+1 {{'sdfg.tasklet' op input connector "x" has an 'other' subset, which only copies between access nodes may have}}
    %t = sdfg.tasklet "t" ins("x" = %a["0" -> "1"] : !sdfg.array<f64 ["4"]>) outs("y" : f64) code python "y = x"
    %b = sdfg.access %B writes(%t["0"] : f64) : !sdfg.scalar<f64>
  }
}

// -----

// Only copies between access nodes have an 'other' subset: not writes
// from a tasklet.
sdfg.sdfg @other_on_tasklet_write(%B: !sdfg.array<f64 ["4"]> as "B") {
  sdfg.state @s {
    %t = sdfg.tasklet "t" outs("y" : f64) code python "y = 1"
    // expected-error @+1 {{'sdfg.access' op write into "B" has an 'other' subset but does not come from an access node}}
    %b = sdfg.access %B writes(%t["0" -> "1"] : f64) : !sdfg.array<f64 ["4"]>
  }
}

// -----

// A binding edge has no write-conflict resolution.
sdfg.sdfg @wcr_on_bind(%A: !sdfg.array<f64 ["4"]> as "A", %V: !sdfg.view<f64 ["4"]> as "V") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4"]>
    // expected-error @+1 {{'sdfg.access' op binding of "V" has a write-conflict resolution}}
    %v = sdfg.access %V bind(%a["0:4", wcr sum] : !sdfg.array<f64 ["4"]>) : !sdfg.view<f64 ["4"]>
  }
}

// -----

// A scope output is written into a container of its own type.
sdfg.sdfg @scope_output_type(%B: !sdfg.array<f32 ["4"]> as "B") {
  sdfg.state @s {
    %r = sdfg.map "m" ["i" = "0:4"] outs("B" : !sdfg.array<f64 ["4"]>) {
      %t = sdfg.tasklet "t" outs("y" : f64) code python "y = 1"
      sdfg.exit ("B" = %t["i"] : f64)
    }
    // expected-error @+1 {{'sdfg.access' op writes an output of type !sdfg.array<f64 ["4"]> into "B" of type !sdfg.array<f32 ["4"]>}}
    %b = sdfg.access %B writes(%r["0:4"] : !sdfg.array<f64 ["4"]>) : !sdfg.array<f32 ["4"]>
  }
}

// -----

// A library output is written into a container of its own type.
sdfg.sdfg @library_output_type(%C: !sdfg.array<f64 ["4", "4"]> as "C") {
  sdfg.state @s {
    %l = sdfg.library "l" "a.B" outs("_c" : !sdfg.array<f64 ["16"]>) properties {}
    // expected-error @+2 {{'sdfg.access' op writes an output of type !sdfg.array<f64 ["16"]> into "C" of type !sdfg.array<f64 ["4", "4"]>}}
    // expected-error @+1 {{'sdfg.access' op the written subset `0:16` has 1 dimensions, but its container has 2}}
    %c = sdfg.access %C writes(%l["0:16"] : !sdfg.array<f64 ["16"]>) : !sdfg.array<f64 ["4", "4"]>
  }
}

// -----

// A view is bound to the data it views.
sdfg.sdfg @unbound_view(%V: !sdfg.view<f64 ["4"]> as "V", %B: !sdfg.scalar<f64> as "B") {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.access' op view "V" is not bound to the data it views}}
    %v = sdfg.access %V : !sdfg.view<f64 ["4"]>
    %t = sdfg.tasklet "t" ins("x" = %v["0"] : !sdfg.view<f64 ["4"]>) outs("y" : f64) code python "y = x"
    %b = sdfg.access %B writes(%t["0"] : f64) : !sdfg.scalar<f64>
  }
}

// -----

// Inter-state edges do not assign data containers.
sdfg.sdfg @assign_container(%A: !sdfg.scalar<i64> as "A") {
  %t = sdfg.alloc "t" : !sdfg.scalar<i64>
  sdfg.state @a {
  }
  sdfg.state @b {
  }
  // expected-error @+1 {{'sdfg.edge' op assigns "A", which is a data container, not a symbol}}
  sdfg.edge @a -> @b assign("A" = "0")
  // expected-error @+1 {{'sdfg.edge' op assigns "t", which is a data container, not a symbol}}
  sdfg.edge @b -> @a assign("t" = "1")
}

// -----

// An assignment that reads a symbol the same edge assigns is a race (the
// value it reads would depend on the order of the assignments); one that
// reads the symbol it assigns itself is not.
sdfg.sdfg @assignment_race() symbols {i = i64, j = i64} {
  sdfg.state @a {
  }
  sdfg.state @b {
  }
  // expected-error @+1 {{'sdfg.edge' op assignment `j = i * 2` reads `i`, which the same edge assigns (a race)}}
  sdfg.edge @a -> @b assign("i" = "i + 1", "j" = "i * 2")
}

// -----

// A loop variable is not a data container.
sdfg.sdfg @container_loop_variable(%i: !sdfg.scalar<i64> as "i") {
  // expected-error @+1 {{'sdfg.loop' op uses the loop variable "i", which is a data container, not a symbol}}
  sdfg.loop @l var "i" init "0" cond "i < 4" update "i + 1" {
    sdfg.state @s {
    }
  }
}

// -----

// A memlet may only use symbols that are defined in its scope.
sdfg.sdfg @undefined_symbol_in_memlet(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    // expected-error @+1 {{'sdfg.tasklet' op memlet subset "j" uses undefined symbol "j"}}
    %t = sdfg.tasklet "t" ins("x" = %a["j"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) code python "y = x"
    %b = sdfg.access %A writes(%t["0"] : f64) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// Shapes may only use declared symbols.
// expected-error @+1 {{'sdfg.sdfg' op type of "A": expression "M" uses undefined symbol "M"}}
sdfg.sdfg @undefined_symbol_in_shape(%A: !sdfg.array<f64 ["M"]> as "A") {
}

// -----

// A map reading A[i + 1] for i in 0:N reads past the end of A[N].
sdfg.sdfg @out_of_bounds_read(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %r = sdfg.map "m" ["i" = "0:N"] ins("A" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("B" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%in: !sdfg.array<f64 ["N"]>):
      // expected-error @+1 {{'sdfg.tasklet' op memlet subset "i + 1" is out of bounds of "A" in dimension 0 (size N)}}
      %t = sdfg.tasklet "t" ins("x" = %in["i + 1"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) code python "y = x"
      sdfg.exit("B" = %t["i"] : f64)
    }
    %b = sdfg.access %B writes(%r["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// A dynamic memlet may access fewer elements than its subset: past the
// end, it is a warning, as in DaCe ("Potential out-of-bounds memlet").
sdfg.sdfg @dynamic_out_of_bounds_read(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %r = sdfg.map "m" ["i" = "0:N"] ins("A" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("B" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%in: !sdfg.array<f64 ["N"]>):
      // expected-warning @+1 {{'sdfg.tasklet' op memlet subset "i + 1" is out of bounds of "A" in dimension 0 (size N), where the dynamic memlet accesses it}}
      %t = sdfg.tasklet "t" ins("x" = %in["i + 1", dynamic] : !sdfg.array<f64 ["N"]>) outs("y" : f64) code python "y = x if i + 1 < N else 0.0"
      sdfg.exit("B" = %t["i"] : f64)
    }
    %b = sdfg.access %B writes(%r["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// Writing B[-1] is out of bounds.
sdfg.sdfg @out_of_bounds_write(%B: !sdfg.array<f64 ["4"]> as "B") {
  sdfg.state @s {
    %t = sdfg.tasklet "t" outs("y" : f64) code python "y = 1.0"
    // expected-error @+1 {{'sdfg.access' op memlet subset "-1" is out of bounds of "B" in dimension 0 (size 4)}}
    %b = sdfg.access %B writes(%t["-1"] : f64) : !sdfg.array<f64 ["4"]>
  }
}

// -----

// A dynamic range input is a symbol inside its map, and nowhere else.
sdfg.sdfg @dynamic_input_out_of_scope(%P: !sdfg.array<i32 ["2"]> as "P", %A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64} {
  sdfg.state @s {
    %p = sdfg.access %P : !sdfg.array<i32 ["2"]>
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %r = sdfg.map "m" ["j" = "b:e"] ins("A" = %a["0:N"] : !sdfg.array<f64 ["N"]>) dyn("b" = %p["0"] : !sdfg.array<i32 ["2"]>, "e" = %p["1"] : !sdfg.array<i32 ["2"]>) outs("A" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%in: !sdfg.array<f64 ["N"]>, %b: !sdfg.array<i32 ["2"]>, %e: !sdfg.array<i32 ["2"]>):
      %t = sdfg.tasklet "t" ins("x" = %in["j"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) code python "y = x"
      sdfg.exit("A" = %t["j"] : f64)
    }
    // expected-error @+1 {{'sdfg.access' op memlet subset "b:e" uses undefined symbol "b"}}
    %w = sdfg.access %A writes(%r["b:e"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// A tasklet's output connector has at most one outgoing edge.
sdfg.sdfg @two_edges_from_one_connector(%A: !sdfg.array<f64 ["2"]> as "A") {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.tasklet' op output connector "o" has 2 outgoing edges; a connector has at most one}}
    %o = sdfg.tasklet "t" outs("o" : f64) code python "o = 1.0"
    %a = sdfg.access %A writes(%o["0"] : f64) : !sdfg.array<f64 ["2"]>
    %b = sdfg.access %A writes(%o["1"] : f64) : !sdfg.array<f64 ["2"]>
  }
}

// -----

// A map's output leads to an access node.
sdfg.sdfg @scope_output_into_a_tasklet(%B: !sdfg.array<f64 ["4"]> as "B", %C: !sdfg.scalar<f64> as "C") {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.map' op output connector "B" leads to a 'sdfg.tasklet', not to an access node}}
    %r = sdfg.map "m" ["i" = "0:4"] outs("B" : !sdfg.array<f64 ["4"]>) {
      %t = sdfg.tasklet "t" outs("y" : f64) code python "y = 1"
      sdfg.exit ("B" = %t["i"] : f64)
    }
    %u = sdfg.tasklet "u" ins("x" = %r["0"] : !sdfg.array<f64 ["4"]>) outs("y" : f64) code python "y = x"
    %c = sdfg.access %C writes(%u["0"] : f64) : !sdfg.scalar<f64>
  }
}

// -----

// What a tasklet writes is a subset of the container's rank.
sdfg.sdfg @written_subset_rank(%A: !sdfg.array<f64 ["4", "4"]> as "A") {
  sdfg.state @s {
    %o = sdfg.tasklet "t" outs("o" : f64) code python "o = 1.0"
    // expected-error @+1 {{'sdfg.access' op the written subset `1` has 1 dimensions, but its container has 2}}
    %a = sdfg.access %A writes(%o["1"] : f64) : !sdfg.array<f64 ["4", "4"]>
  }
}

// -----

// A scope's exit memlets are over the scope output's container.
sdfg.sdfg @exit_subset_rank(%B: !sdfg.array<f64 ["4"]> as "B") {
  sdfg.state @s {
    %r = sdfg.map "m" ["i" = "0:4"] outs("B" : !sdfg.array<f64 ["4"]>) {
      %t = sdfg.tasklet "t" outs("y" : f64) code python "y = 1"
      // expected-error @+1 {{'sdfg.exit' op output "B"'s subset `i, 0` has 2 dimensions, but its container has 1}}
      sdfg.exit ("B" = %t["i, 0"] : f64)
    }
    %b = sdfg.access %B writes(%r["0:4"] : !sdfg.array<f64 ["4"]>) : !sdfg.array<f64 ["4"]>
  }
}

// -----

// A nested SDFG writes only the arguments its caller connects as outputs.
sdfg.sdfg @write_to_input_only_argument(%A: !sdfg.array<f64 ["4"]> as "A", %B: !sdfg.array<f64 ["4"]> as "B") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4"]>
    %n = sdfg.nested "inner" ins("x" = %a["0:4"] : !sdfg.array<f64 ["4"]>) outs("y" : !sdfg.array<f64 ["4"]>) {
      sdfg.sdfg @inner(%x: !sdfg.array<f64 ["4"]> as "x", %y: !sdfg.array<f64 ["4"]> as "y") {
        sdfg.state @t {
          %o = sdfg.tasklet "t" outs("o" : f64) code python "o = 1.0"
          // expected-error @+1 {{'sdfg.access' op writes argument "x", which the caller connects only as an input of nested SDFG "inner"}}
          %w = sdfg.access %x writes(%o["0"] : f64) : !sdfg.array<f64 ["4"]>
          %o2 = sdfg.tasklet "t2" outs("o" : f64) code python "o = 2.0"
          %v = sdfg.access %y writes(%o2["0"] : f64) : !sdfg.array<f64 ["4"]>
        }
      }
    }
    %b = sdfg.access %B writes(%n["0:4"] : !sdfg.array<f64 ["4"]>) : !sdfg.array<f64 ["4"]>
  }
}

// -----

// A transient read but written nowhere is reported as a warning (DaCe's
// "use of uninitialized transient"); the SDFG stays valid.
sdfg.sdfg @uninitialized_transient(%B: !sdfg.scalar<f64> as "B") {
  %t = sdfg.alloc "t" : !sdfg.scalar<f64>
  sdfg.state @s {
    // expected-warning @+1 {{'sdfg.access' op reads transient "t", which nothing writes: its values are undefined}}
    %r = sdfg.access %t : !sdfg.scalar<f64>
    %u = sdfg.tasklet "u" ins("x" = %r["0"] : !sdfg.scalar<f64>) outs("y" : f64) code python "y = x"
    %b = sdfg.access %B writes(%u["0"] : f64) : !sdfg.scalar<f64>
  }
}

// -----

// A transient read in a state that no path from the start has written
// yet is reported too, once: `t` is written only after @read, and only on
// one branch before @maybe, which stays quiet (some path wrote it). A
// loop body's read of what the body writes stays quiet as well: a later
// iteration reads what an earlier one wrote (the analysis is a
// may-analysis, so the first iteration is not told apart).
sdfg.sdfg @transient_read_before_written(%B: !sdfg.scalar<f64> as "B") symbols {k = i64} {
  %t = sdfg.alloc "t" : !sdfg.scalar<f64>
  %u = sdfg.alloc "u" : !sdfg.scalar<f64>
  sdfg.state @read {
    // expected-warning @+1 {{'sdfg.access' op reads transient "t" before any path to its state writes it: its values are undefined}}
    %r = sdfg.access %t : !sdfg.scalar<f64>
    %o = sdfg.tasklet "copy" ins("x" = %r["0"] : !sdfg.scalar<f64>) outs("y" : f64) code python "y = x"
    %b = sdfg.access %B writes(%o["0"] : f64) : !sdfg.scalar<f64>
  }
  sdfg.state @write {
    %o = sdfg.tasklet "one" outs("y" : f64) code python "y = 1.0"
    %w = sdfg.access %t writes(%o["0"] : f64) : !sdfg.scalar<f64>
  }
  sdfg.state @skip {
  }
  sdfg.state @maybe {
    %r = sdfg.access %t : !sdfg.scalar<f64>
    %o = sdfg.tasklet "copy" ins("x" = %r["0"] : !sdfg.scalar<f64>) outs("y" : f64) code python "y = x"
    %b = sdfg.access %B writes(%o["0"] : f64) : !sdfg.scalar<f64>
  }
  sdfg.loop @l var "k" init "0" cond "k < 3" update "k + 1" {
    sdfg.state @body {
      %r = sdfg.access %u : !sdfg.scalar<f64>
      %o = sdfg.tasklet "next" ins("x" = %r["0"] : !sdfg.scalar<f64>) outs("y" : f64) code python "y = x"
      %w = sdfg.access %u writes(%o["0"] : f64) : !sdfg.scalar<f64>
    }
  }
  sdfg.edge @read -> @write if "k > 0"
  sdfg.edge @read -> @skip if "not (k > 0)"
  sdfg.edge @write -> @maybe
  sdfg.edge @skip -> @maybe
  sdfg.edge @maybe -> @l
}

// -----

// Names must be identifiers, as DaCe's `validate_name` has them.
// expected-error @+1 {{'sdfg.sdfg' op has an argument with the invalid name `2A`}}
sdfg.sdfg @names(%A: !sdfg.array<f64 ["4"]> as "2A") {
  // expected-error @+1 {{'sdfg.alloc' op declares a container with the invalid name `t-mp`}}
  %t = sdfg.alloc "t-mp" : !sdfg.array<f64 ["4"]>
  // expected-error @+1 {{'sdfg.alloc' op declares `r` both persistent or external and in Register storage}}
  %r = sdfg.alloc "r" lifetime Persistent : !sdfg.array<f64 ["4"] storage Register>
  // expected-error @+1 {{'sdfg.state' op has the invalid name `bad state`}}
  sdfg.state @"bad state" {
  }
  sdfg.state @s {
  }
  // expected-error @+1 {{'sdfg.edge' op assigns the invalid symbol name `None`}}
  sdfg.edge @"bad state" -> @s assign("None" = "1")
}

// -----

// DaCe's graph checks: no access node without edges, no block that no
// inter-state edge reaches when there are several.
sdfg.sdfg @graph(%A: !sdfg.array<f64 ["4"]> as "A") {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.access' op is an isolated access node of `A` (it has no edge)}}
    %a = sdfg.access %A : !sdfg.array<f64 ["4"]>
  }
  sdfg.state @t {
  }
  // expected-error @+1 {{'sdfg.state' op `u` is unreachable: no inter-state edge joins it to the other blocks}}
  sdfg.state @u {
  }
  sdfg.edge @s -> @t
}

// -----

// A copy moves as many elements as it reads: `A[0:N]` into `B[1:N]` is
// one element short, whatever N is. `A[0:N]` into `B[0:M]` may be right.
sdfg.sdfg @copy_element_count_mismatch(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B", %C: !sdfg.array<f64 ["M"]> as "C") symbols {M = i64, N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    // expected-error @+1 {{'sdfg.access' op copies N elements of "A" (`0:N`) into N - 1 elements of "B" (`1:N`)}}
    %b = sdfg.access %B writes(%a["0:N" -> "1:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    %c = sdfg.access %C writes(%a["0:N" -> "0:M"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["M"]>
  }
}

// -----

// A nested SDFG's symbols come from its caller's mapping or its own
// assignments: `K` comes from neither (DaCe: "Missing symbols on nested
// SDFG"), while `j`, assigned inside, needs no mapping.
sdfg.sdfg @nested_symbol_not_mapped(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %n = sdfg.nested "inner" outs("x" : !sdfg.array<f64 ["N"]>) symbols("N" = "N") {
      sdfg.sdfg @inner(%x: !sdfg.array<f64 ["N"]> as "x") symbols {K = i64, N = i64, j = i64} {
        sdfg.state @t {
          %o = sdfg.tasklet "one" outs("o" : f64) code python "o = 1.0"
          // expected-error @+1 {{uses undefined symbol "K" (the nested SDFG declares it, but its caller's symbol mapping does not pass it)}}
          %w = sdfg.access %x writes(%o["K + j"] : f64) : !sdfg.array<f64 ["N"]>
        }
        sdfg.state @u {
        }
        sdfg.edge @u -> @t assign("j" = "0")
      }
    }
    %b = sdfg.access %A writes(%n["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// A connector that is both an input and an output connects one container
// (DaCe: "Inout connector ... is connected to different input and output
// arrays").
sdfg.sdfg @inout_connector_two_containers(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    // expected-error @+1 {{connector "x" reads "A" and writes "B": an input and output connector must connect one container}}
    %n = sdfg.nested "inner" ins("x" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("x" : !sdfg.array<f64 ["N"]>) symbols("N" = "N") {
      sdfg.sdfg @inner(%x: !sdfg.array<f64 ["N"]> as "x") symbols {N = i64} {
        sdfg.state @t {
          %r = sdfg.access %x : !sdfg.array<f64 ["N"]>
          %o = sdfg.tasklet "twice" ins("v" = %r["0"] : !sdfg.array<f64 ["N"]>) outs("o" : f64) code python "o = 2 * v"
          %w = sdfg.access %x writes(%o["0"] : f64) : !sdfg.array<f64 ["N"]>
        }
      }
    }
    %b = sdfg.access %B writes(%n["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// A nested SDFG reads a symbol on an edge before any path from its start
// assigns it (DaCe: "Undefined symbols in edge"): the caller does not pass
// it, and the assignment comes later.
sdfg.sdfg @nested_symbol_read_before_assignment(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64} {
  sdfg.state @s {
    %n = sdfg.nested "inner" outs("x" : !sdfg.array<f64 ["N"]>) symbols("N" = "N") {
      sdfg.sdfg @inner(%x: !sdfg.array<f64 ["N"]> as "x") symbols {N = i64, k = i64, m = i64} {
        sdfg.state @first {
        }
        sdfg.state @second {
        }
        sdfg.state @third {
          %o = sdfg.tasklet "one" outs("o" : f64) code python "o = 1.0"
          %w = sdfg.access %x writes(%o["0"] : f64) : !sdfg.array<f64 ["N"]>
        }
        // expected-error @+1 {{assignment `k + 1` reads symbol `k` before any path from the start assigns it: the caller's symbol mapping does not pass it}}
        sdfg.edge @first -> @second assign("m" = "k + 1")
        sdfg.edge @second -> @third assign("k" = "m")
      }
    }
    %b = sdfg.access %A writes(%n["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// A reference is used before any path sets it (DaCe: "Reference data
// descriptor was used before it was set").
sdfg.sdfg @reference_used_before_set(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64} {
  %r = sdfg.alloc "r" : !sdfg.ref<f64 ["N"]>
  sdfg.state @use {
    // expected-error @+1 {{uses reference "r" before any path from the start sets it: bind it to its target first}}
    %rr = sdfg.access %r : !sdfg.ref<f64 ["N"]>
    %o = sdfg.tasklet "copy" ins("v" = %rr["0"] : !sdfg.ref<f64 ["N"]>) outs("o" : f64) code python "o = v"
    %w = sdfg.access %A writes(%o["0"] : f64) : !sdfg.array<f64 ["N"]>
  }
  sdfg.state @set {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %rs = sdfg.access %r bind(%a["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.ref<f64 ["N"]>
  }
  sdfg.edge @use -> @set
}

// -----

// Host code dereferences GPU memory (DaCe: "Data container ... is stored
// as GPU_Global but accessed on host"): a tasklet outside any GPU scope
// reads one element, and an inter-state edge reads another.
sdfg.sdfg @gpu_data_on_host(%G: !sdfg.array<f64 ["N"] storage GPU_Global> as "G", %A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64, s = f64} {
  sdfg.state @read {
    %g = sdfg.access %G : !sdfg.array<f64 ["N"] storage GPU_Global>
    // expected-error @+1 {{reads an element of data container "G", stored as GPU_Global, in code that runs on the host}}
    %o = sdfg.tasklet "copy" ins("v" = %g["0"] : !sdfg.array<f64 ["N"] storage GPU_Global>) outs("o" : f64) code python "o = v"
    %w = sdfg.access %A writes(%o["0"] : f64) : !sdfg.array<f64 ["N"]>
  }
  sdfg.state @after {
  }
  // expected-error @+1 {{an inter-state edge reads data container "G", stored as GPU_Global, in code that runs on the host}}
  sdfg.edge @read -> @after assign("s" = "G[1]")
}

// -----

// A tasklet's connector is an input and an output at once (DaCe:
// "Duplicate connectors"), and its label is not a name (DaCe: "Invalid
// tasklet name").
sdfg.sdfg @tasklet_names(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    // expected-error @+2 {{has the invalid label `two words`}}
    // expected-error @+1 {{has "x" both as an input and as an output connector}}
    %o = sdfg.tasklet "two words" ins("x" = %a["0"] : !sdfg.array<f64 ["N"]>) outs("x" : f64) code python "x = x"
    %w = sdfg.access %A writes(%o["1"] : f64) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// A transient with the name of a symbol (DaCe: "Found duplicated names").
sdfg.sdfg @transient_named_like_symbol() symbols {t = i64} {
  // expected-error @+1 {{declares container `t`, which is also a symbol of the SDFG}}
  %t = sdfg.alloc "t" : !sdfg.scalar<f64>
  sdfg.state @s {
  }
}

// -----

// A nested SDFG fed by a tasklet rather than an access node (DaCe:
// "Nested SDFG destination nodes must be AccessNodes").
sdfg.sdfg @nested_fed_by_tasklet(%A: !sdfg.array<f64 ["1"]> as "A") {
  sdfg.state @s {
    %o = sdfg.tasklet "one" outs("o" : f64) code python "o = 1.0"
    // expected-error @+1 {{input connector "x" is not fed by an access node}}
    %n = sdfg.nested "inner" ins("x" = %o["0"] : f64) outs("y" : !sdfg.array<f64 ["1"]>) {
      sdfg.sdfg @inner(%x: !sdfg.scalar<f64> as "x", %y: !sdfg.array<f64 ["1"]> as "y") {
        sdfg.state @t {
          %xr = sdfg.access %x : !sdfg.scalar<f64>
          %yw = sdfg.access %y writes(%xr["0" -> "0"] : !sdfg.scalar<f64>) : !sdfg.array<f64 ["1"]>
        }
      }
    }
    %b = sdfg.access %A writes(%n["0"] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
  }
}

// -----

// A scalar return value (DaCe: "Can not use scalar ... as return value").
// expected-error @+1 {{returns the scalar `__return`: a return value must be an array}}
sdfg.sdfg @scalar_return(%R: !sdfg.scalar<f64> as "__return") {
  sdfg.state @s {
  }
}

// -----

// Views and references live in their scope only (DaCe: "Only Scope
// allocation lifetime is supported for Views").
sdfg.sdfg @persistent_view() {
  // expected-error @+1 {{declares view or reference `v` with a lifetime other than Scope}}
  %v = sdfg.alloc "v" lifetime Persistent : !sdfg.view<f64 ["4"]>
  sdfg.state @s {
  }
}

// -----

// A matrix product whose inputs do not agree in the contracted dimension,
// and whose output is not the product's shape (DaCe's MatMul.validate:
// "Inputs to matrix-matrix product must agree in the k-dimension").
sdfg.sdfg @matmul_shapes(%A: !sdfg.array<f64 ["4", "3"]> as "A", %B: !sdfg.array<f64 ["5", "2"]> as "B", %C: !sdfg.array<f64 ["4", "4"]> as "C") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4", "3"]>
    %b = sdfg.access %B : !sdfg.array<f64 ["5", "2"]>
    // expected-error @+2 {{MatMul `mm`: the inputs do not agree in the k-dimension (3 and 5)}}
    // expected-error @+1 {{MatMul `mm`: the output's columns are not the second input's (4 and 2)}}
    %m = sdfg.library "mm" "dace.libraries.blas.nodes.matmul.MatMul"
        ins("_a" = %a["0:4, 0:3"] : !sdfg.array<f64 ["4", "3"]>, "_b" = %b["0:5, 0:2"] : !sdfg.array<f64 ["5", "2"]>)
        outs("_c" : !sdfg.array<f64 ["4", "4"]>) properties {}
    %c = sdfg.access %C writes(%m["0:4, 0:4"] : !sdfg.array<f64 ["4", "4"]>) : !sdfg.array<f64 ["4", "4"]>
  }
}

// -----

// A matrix-vector product whose vector is shorter than the matrix is
// wide (DaCe's Gemv.validate: "Columns of A don't match size of x").
sdfg.sdfg @gemv_shapes(%A: !sdfg.array<f64 ["N", "N"]> as "A", %x: !sdfg.array<f64 ["N - 1"]> as "x", %y: !sdfg.array<f64 ["N"]> as "y") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N", "N"]>
    %xa = sdfg.access %x : !sdfg.array<f64 ["N - 1"]>
    // expected-error @+1 {{Gemv `mv`: the columns of `_A` are not the length of `_x` (N and N - 1)}}
    %m = sdfg.library "mv" "dace.libraries.blas.nodes.gemv.Gemv"
        ins("_A" = %a["0:N, 0:N"] : !sdfg.array<f64 ["N", "N"]>, "_x" = %xa["0:N - 1"] : !sdfg.array<f64 ["N - 1"]>)
        outs("_y" : !sdfg.array<f64 ["N"]>) properties {}
    %ya = sdfg.access %y writes(%m["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// Constants of another type than their symbol, or naming nothing (DaCe
// warns: "Mismatch between constant and symbol type", "Found constant ...
// that does not refer to an array or a symbol").
// expected-warning @+2 {{constant "N" is i64, but its container or symbol is i32}}
// expected-warning @+1 {{constant "K" refers to neither a container nor a symbol}}
sdfg.sdfg @constant_types(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i32} attributes {constants = {K = 3 : i64, N = 10 : i64, A = dense<1.0> : tensor<10xf64>}} {
  sdfg.state @s {
  }
}

// -----

// A symbol mapping that passes a symbol the nested SDFG never reads
// (DaCe warns: "maps to unused symbol(s)").
sdfg.sdfg @unused_mapping(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    // expected-warning @+1 {{maps symbols the nested SDFG never reads: M}}
    %n = sdfg.nested "inner" ins("x" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("y" : !sdfg.array<f64 ["N"]>) symbols("M" = "N + 1", "N" = "N") {
      sdfg.sdfg @inner(%x: !sdfg.array<f64 ["N"]> as "x", %y: !sdfg.array<f64 ["N"]> as "y") symbols {M = i64, N = i64} {
        sdfg.state @copy {
          %xr = sdfg.access %x : !sdfg.array<f64 ["N"]>
          %yw = sdfg.access %y writes(%xr["0:N" -> "0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
        }
      }
    }
    %w = sdfg.access %A writes(%n["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}
