// RUN: sdfg-opt %s -split-input-file -verify-diagnostics

// Connectors of a nested SDFG node are bound by name to the arguments of the
// nested SDFG, in both directions.

sdfg.sdfg @unknown_connector(%A: !sdfg.array<f64 ["4"]> as "A") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4"]>
    // expected-error @+1 {{'sdfg.nested' op connector "z" is not an argument of the nested SDFG @inner}}
    sdfg.nested "n" ins("z" = %a["0:4"] : !sdfg.array<f64 ["4"]>) {
      sdfg.sdfg @inner(%x: !sdfg.array<f64 ["4"]> as "x") {
        sdfg.state @s {
        }
      }
    }
  }
}

// -----

sdfg.sdfg @unconnected_argument(%A: !sdfg.array<f64 ["4"]> as "A") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4"]>
    // expected-error @+1 {{'sdfg.nested' op argument "y" of the nested SDFG @inner has no connector}}
    sdfg.nested "n" ins("x" = %a["0:4"] : !sdfg.array<f64 ["4"]>) {
      sdfg.sdfg @inner(%x: !sdfg.array<f64 ["4"]> as "x", %y: !sdfg.array<f64 ["4"]> as "y") {
        sdfg.state @s {
        }
      }
    }
  }
}

// -----

// An access node inside a nested SDFG may only use that SDFG's containers.
sdfg.sdfg @outer_container(%A: !sdfg.array<f64 ["4"]> as "A") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4"]>
    sdfg.nested "n" ins("x" = %a["0:4"] : !sdfg.array<f64 ["4"]>) {
      sdfg.sdfg @inner(%x: !sdfg.array<f64 ["4"]> as "x") {
        sdfg.state @s {
          // expected-error @+1 {{'sdfg.access' op accesses a value that is not a data container of the enclosing 'sdfg.sdfg'}}
          %b = sdfg.access %A : !sdfg.array<f64 ["4"]>
        }
      }
    }
  }
}

// -----

sdfg.sdfg @bad_symbol_mapping(%A: !sdfg.array<f64 ["4"]> as "A") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4"]>
    // expected-error @+1 {{'sdfg.nested' op invalid expression in symbol mapping "N +"}}
    sdfg.nested "n" ins("x" = %a["0:4"] : !sdfg.array<f64 ["4"]>) symbols("M" = "N +") {
      sdfg.sdfg @inner(%x: !sdfg.array<f64 ["4"]> as "x") symbols {M = i64} {
        sdfg.state @s {
        }
      }
    }
  }
}
