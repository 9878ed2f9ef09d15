// RUN: sdfg-opt %s -split-input-file -verify-diagnostics

// Checks that go through the symbolic engine: malformed expressions,
// conditions and subsets, and memlet subsets or map ranges with the wrong
// number of dimensions.

sdfg.sdfg @memlet_rank(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    // expected-error @+1 {{'sdfg.tasklet' op memlet subset "0, 1, 2" has 3 dimensions but input container has 1}}
    %t = sdfg.tasklet "t" ins("x" = %a["0, 1, 2"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) code python "y = x"
  }
}

// -----

sdfg.sdfg @write_memlet_rank(%A: !sdfg.array<f64 ["N", "N"]> as "A") symbols {N = i64} {
  sdfg.state @s {
    %t = sdfg.tasklet "t" outs("y" : f64) code python "y = 1"
    %b = sdfg.access %A : !sdfg.array<f64 ["N", "N"]>
    // expected-error @+1 {{'sdfg.access' op memlet subset "0:N" has 1 dimensions but write container has 2}}
    %c = sdfg.access %A writes(%b["0:N"] : !sdfg.array<f64 ["N", "N"]>) : !sdfg.array<f64 ["N", "N"]>
  }
}

// -----

sdfg.sdfg @map_range_rank() symbols {N = i64} {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.map' op map range "0:N, 0:N" must be one-dimensional}}
    sdfg.map "m" ["i" = "0:N, 0:N"] {
      sdfg.exit ()
    }
  }
}

// -----

sdfg.sdfg @bad_map_range() symbols {N = i64} {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.map' op invalid subset in map range "0:N:"}}
    sdfg.map "m" ["i" = "0:N:"] {
      sdfg.exit ()
    }
  }
}

// -----

sdfg.sdfg @bad_edge_condition() symbols {N = i64} {
  sdfg.state @a {
  }
  sdfg.state @b {
  }
  // expected-error @+1 {{'sdfg.edge' op invalid condition in condition "N <"}}
  sdfg.edge @a -> @b if "N <"
}

// -----

sdfg.sdfg @bad_assignment() symbols {N = i64} {
  sdfg.state @a {
  }
  sdfg.state @b {
  }
  // expected-error @+1 {{'sdfg.edge' op invalid expression in assignment "N +"}}
  sdfg.edge @a -> @b assign("N" = "N +")
}

// -----

sdfg.sdfg @bad_loop_init() symbols {i = i64} {
  // expected-error @+1 {{'sdfg.loop' op invalid expression in init "(("}}
  sdfg.loop @l var "i" init "((" cond "i < 4" update "i + 1" {
  }
}

// -----

sdfg.sdfg @bad_loop_condition() symbols {i = i64} {
  // expected-error @+1 {{'sdfg.loop' op invalid condition in condition "i < < 4"}}
  sdfg.loop @l var "i" init "0" cond "i < < 4" update "i + 1" {
  }
}

// -----

sdfg.sdfg @bad_branch_condition() {
  sdfg.conditional @c {
    // expected-error @+1 {{'sdfg.branch' op invalid condition in condition "x >"}}
    sdfg.branch @b if "x >" {
    }
  }
}

// -----

sdfg.sdfg @bad_pes(%S: !sdfg.stream<i32 shape ["1"]> as "S") {
  sdfg.state @s {
    %s = sdfg.access %S : !sdfg.stream<i32 shape ["1"]>
    // expected-error @+1 {{'sdfg.consume' op invalid expression in number of processing elements "4 *"}}
    sdfg.consume "c" (%s["0"] : !sdfg.stream<i32 shape ["1"]>) pe "p" pes "4 *" {
    ^bb0(%e: i32):
      sdfg.exit ()
    }
  }
}

// -----

sdfg.sdfg @bad_quiescence(%S: !sdfg.stream<i32 shape ["1"]> as "S") {
  sdfg.state @s {
    %s = sdfg.access %S : !sdfg.stream<i32 shape ["1"]>
    // expected-error @+1 {{'sdfg.consume' op invalid condition in quiescence condition "p =="}}
    sdfg.consume "c" (%s["0"] : !sdfg.stream<i32 shape ["1"]>) pe "p" pes "4" quiescence "p ==" {
    ^bb0(%e: i32):
      sdfg.exit ()
    }
  }
}

// -----

// expected-error @+1 {{invalid expression in shape "N +"}}
sdfg.sdfg @bad_shape(%a: !sdfg.array<f64 ["N +"]> as "a") {
}

// -----

// expected-error @+1 {{invalid memlet subset "0:N:1:2"}}
sdfg.sdfg @bad_memlet_subset() symbols {N = i64} attributes {m = #sdfg.memlet<["0:N:1:2"]>} {
}

// -----

// expected-error @+1 {{invalid memlet volume "N *"}}
sdfg.sdfg @bad_memlet_volume() symbols {N = i64} attributes {m = #sdfg.memlet<["0:N", volume "N *"]>} {
}
