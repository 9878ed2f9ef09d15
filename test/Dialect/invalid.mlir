// RUN: sdfg-opt %s -split-input-file -verify-diagnostics

// One case per structural verifier error of the sdfg ops.

// An SDFG argument must be a data container.
// expected-error @+1 {{'sdfg.sdfg' op argument "x" must be a data container, got 'f64'}}
sdfg.sdfg @arg_not_container(%x: f64 as "x") {
  sdfg.state @s {
  }
}

// -----

// SDFG argument names must not be empty.
// expected-error @+1 {{'sdfg.sdfg' op argument names must be non-empty strings}}
sdfg.sdfg @empty_arg_name(%x: !sdfg.scalar<f64> as "") {
  sdfg.state @s {
  }
}

// -----

// Two arguments may not share a DaCe name.
// expected-error @+1 {{'sdfg.sdfg' op duplicate container name "A"}}
sdfg.sdfg @duplicate_args(%a: !sdfg.scalar<f64> as "A", %b: !sdfg.scalar<f64> as "A") {
  sdfg.state @s {
  }
}

// -----

// The number of argument names must match the number of arguments (only
// expressible in the generic form).
// expected-error @+1 {{'sdfg.sdfg' op has 1 arguments but 0 argument names}}
"sdfg.sdfg"() <{arg_names = [], sym_name = "count", symbols = {}}> ({
^bb0(%a: !sdfg.scalar<f64>):
}) : () -> ()

// -----

// Symbols have integer, floating-point or callback types.
// expected-error @+1 {{'sdfg.sdfg' op symbol "N" must have an integer, floating-point, complex or callback type, got vector<2xf32>}}
sdfg.sdfg @vector_symbol() symbols {N = vector<2xf32>} {
  sdfg.state @s {
  }
}

// -----

// A symbol may not have the name of a data container.
// expected-error @+1 {{'sdfg.sdfg' op symbol "A" has the name of a data container}}
sdfg.sdfg @symbol_is_container(%a: !sdfg.scalar<f64> as "A") symbols {A = i64} {
  sdfg.state @s {
  }
}

// -----

// A transient may not reuse the name of an argument.
sdfg.sdfg @duplicate_transient(%a: !sdfg.scalar<f64> as "A") {
  // expected-error @+1 {{'sdfg.alloc' op duplicate container name "A"}}
  %t = sdfg.alloc "A" : !sdfg.scalar<f64>
  sdfg.state @s {
  }
}

// -----

// Transients are declared at the SDFG level only.
sdfg.sdfg @alloc_in_loop() {
  sdfg.loop @l cond "True" {
    // expected-error @+1 {{'sdfg.alloc' op expects parent op 'sdfg.sdfg'}}
    %t = sdfg.alloc "t" : !sdfg.scalar<f64>
  }
}

// -----

// A transient's type must be a data container.
sdfg.sdfg @alloc_not_container() {
  // expected-error @+1 {{'sdfg.alloc' op result #0 must be sdfg data container, but got 'f64'}}
  %t = sdfg.alloc "t" : f64
}

// -----

// Only control-flow blocks, edges and transients live in an SDFG's body.
sdfg.sdfg @stray_op() {
  // expected-error @+1 {{'arith.constant' op is not allowed in the control-flow region of 'sdfg.sdfg'}}
  %c = arith.constant 0 : i32
}

// -----

// Inside a loop, transients are not allowed either.
sdfg.sdfg @stray_op_in_loop() {
  sdfg.loop @l cond "True" {
    // expected-error @+1 {{'arith.constant' op is not allowed in the control-flow region of 'sdfg.loop'}}
    %c = arith.constant 0 : i32
  }
}

// -----

// Dataflow nodes belong in states, not in control-flow regions.
sdfg.sdfg @access_outside_state(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64} {
  // expected-error @+1 {{'sdfg.access' op expects parent op to be one of 'sdfg.state, sdfg.map, sdfg.consume'}}
  %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
}

// -----

// States live in control-flow regions, not in other states.
sdfg.sdfg @state_in_state() {
  sdfg.state @outer {
    // expected-error @+1 {{'sdfg.state' op expects parent op to be one of 'sdfg.sdfg, sdfg.loop, sdfg.branch, sdfg.region, sdfg.call_region'}}
    sdfg.state @inner {
    }
  }
}

// -----

// Edges join blocks of their own region.
sdfg.sdfg @edge_unknown_block() {
  sdfg.state @a {
  }
  // expected-error @+1 {{'sdfg.edge' op references @b, which is not a block of this region}}
  sdfg.edge @a -> @b
}

// -----

// An edge may not reach into a nested region.
sdfg.sdfg @edge_into_loop() {
  sdfg.state @a {
  }
  sdfg.loop @l cond "True" {
    sdfg.state @inside {
    }
  }
  // expected-error @+1 {{'sdfg.edge' op references @inside, which is not a block of this region}}
  sdfg.edge @a -> @inside
}

// -----

// A jump block has no successors.
sdfg.sdfg @edge_from_return() {
  sdfg.return @r
  sdfg.state @a {
  }
  // expected-error @+1 {{'sdfg.edge' op leaves @r, a 'sdfg.return' block, which cannot have successors}}
  sdfg.edge @r -> @a
}

// -----

// A symbol is assigned at most once per edge.
sdfg.sdfg @edge_duplicate_assignment() symbols {i = i64} {
  sdfg.state @a {
  }
  sdfg.state @b {
  }
  // expected-error @+1 {{'sdfg.edge' op duplicate assigned symbol name "i"}}
  sdfg.edge @a -> @b assign("i" = "0", "i" = "1")
}

// -----

// Assigned names must not be empty.
sdfg.sdfg @edge_empty_assignment() {
  sdfg.state @a {
  }
  sdfg.state @b {
  }
  // expected-error @+1 {{'sdfg.edge' op assigned symbol names must not be empty}}
  sdfg.edge @a -> @b assign("" = "0")
}

// -----

// Assigned names and values come in pairs (generic form).
sdfg.sdfg @edge_unpaired_assignment() {
  sdfg.state @a {
  }
  sdfg.state @b {
  }
  // expected-error @+1 {{'sdfg.edge' op has 2 assigned symbols but 1 values}}
  "sdfg.edge"() <{src = @a, dst = @b, assign_names = ["i", "j"], assign_values = ["0"]}> : () -> ()
}

// -----

// A loop without a variable has neither init nor update.
sdfg.sdfg @loop_init_without_var() {
  // expected-error @+1 {{'sdfg.loop' op has init or update but no loop variable}}
  sdfg.loop @l init "0" cond "True" {
  }
}

// -----

// A loop variable must not be empty.
sdfg.sdfg @loop_empty_var() {
  // expected-error @+1 {{'sdfg.loop' op loop variable must not be empty}}
  sdfg.loop @l var "" init "0" cond "True" {
  }
}

// -----

// A conditional holds only branches.
sdfg.sdfg @conditional_with_state() {
  sdfg.conditional @c {
    // expected-error @+1 {{'arith.constant' op is not allowed in 'sdfg.conditional'; expected 'sdfg.branch'}}
    %c = arith.constant 0 : i32
  }
}

// -----

// The else branch comes last.
sdfg.sdfg @branch_after_else() symbols {x = i64} {
  sdfg.conditional @c {
    sdfg.branch @e {
    }
    // expected-error @+1 {{'sdfg.branch' op follows the else branch}}
    sdfg.branch @t if "x > 0" {
    }
  }
}

// -----

// A branch lives only in a conditional.
sdfg.sdfg @branch_outside_conditional() {
  // expected-error @+1 {{'sdfg.branch' op expects parent op 'sdfg.conditional'}}
  sdfg.branch @b {
  }
}

// -----

// Call-region arguments come in pairs (generic form).
sdfg.sdfg @call_region_unpaired() {
  // expected-error @+1 {{'sdfg.call_region' op has 1 argument names but 0 values}}
  "sdfg.call_region"() <{sym_name = "f", arg_names = ["a"], arg_values = []}> ({
  ^bb0:
  }) : () -> ()
}

// -----

// break needs an enclosing loop.
sdfg.sdfg @break_outside_loop() {
  // expected-error @+1 {{'sdfg.break' op must be nested in an 'sdfg.loop'}}
  sdfg.break @b
}

// -----

// continue needs an enclosing loop, also inside a conditional.
sdfg.sdfg @continue_outside_loop() {
  sdfg.conditional @c {
    sdfg.branch @b {
      // expected-error @+1 {{'sdfg.continue' op must be nested in an 'sdfg.loop'}}
      sdfg.continue @k
    }
  }
}

// -----

// Only dataflow nodes live in a state.
sdfg.sdfg @stray_op_in_state() {
  sdfg.state @s {
    // expected-error @+1 {{'arith.constant' op is not a dataflow node and cannot appear in 'sdfg.state'}}
    %c = arith.constant 0 : i32
  }
}

// -----

// Edges live in control-flow regions, not in states.
sdfg.sdfg @edge_in_state() {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.edge' op expects parent op to be one of 'sdfg.sdfg, sdfg.loop, sdfg.branch, sdfg.region, sdfg.call_region'}}
    sdfg.edge @s -> @s
  }
}

// -----

// An access node names a container of its own SDFG, not a scope connector.
sdfg.sdfg @access_block_argument(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    sdfg.map "m" ["i" = "0:N"] ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>) {
    ^bb0(%in: !sdfg.array<f64 ["N"]>):
      // expected-error @+1 {{'sdfg.access' op accesses a value that is not a data container of the enclosing 'sdfg.sdfg'}}
      %b = sdfg.access %in : !sdfg.array<f64 ["N"]>
      sdfg.exit ()
    }
  }
}

// -----

// An access node's data and result types match.
sdfg.sdfg @access_type_mismatch(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64} {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.access' op failed to verify that all of {data, result} have same type}}
    %a = "sdfg.access"(%A) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>}> : (!sdfg.array<f64 ["N"]>) -> !sdfg.array<f32 ["N"]>
  }
}

// -----

// Only views and references can be bound.
sdfg.sdfg @bind_array(%A: !sdfg.array<f64 ["N"]> as "A", %B: !sdfg.array<f64 ["N"]> as "B") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    // expected-error @+1 {{'sdfg.access' op binds a container of type '!sdfg.array<f64 ["N"]>'; only views and references can be bound}}
    %b = sdfg.access %B bind(%a["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// A bound view needs the memlet of its binding edge (generic form).
sdfg.sdfg @bind_without_memlet(%A: !sdfg.array<f64 ["N"]> as "A", %V: !sdfg.view<f64 ["N"]> as "V") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    // expected-error @+1 {{'sdfg.access' op needs a memlet for its bound data}}
    %v = "sdfg.access"(%V, %a) <{operandSegmentSizes = array<i32: 1, 0, 1, 0>}> : (!sdfg.view<f64 ["N"]>, !sdfg.array<f64 ["N"]>) -> !sdfg.view<f64 ["N"]>
  }
}

// -----

// A bind memlet without bound data is meaningless (generic form).
sdfg.sdfg @bind_memlet_only(%V: !sdfg.view<f64 ["N"]> as "V") symbols {N = i64} {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.access' op has a bind memlet but no bound data}}
    %v = "sdfg.access"(%V) <{operandSegmentSizes = array<i32: 1, 0, 0, 0>, source_memlet = #sdfg.memlet<["0:N"]>}> : (!sdfg.view<f64 ["N"]>) -> !sdfg.view<f64 ["N"]>
  }
}

// -----

// Every write of an access node has a memlet (generic form).
sdfg.sdfg @write_without_memlet(%A: !sdfg.scalar<f64> as "A") {
  sdfg.state @s {
    %t = sdfg.tasklet "t" outs("o" : f64) code python "o = 1.0"
    // expected-error @+1 {{'sdfg.access' op expected 1 write memlets, got 0}}
    %a = "sdfg.access"(%A, %t) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>}> : (!sdfg.scalar<f64>, f64) -> !sdfg.scalar<f64>
  }
}

// -----

// Memlet lists hold memlets (generic form).
sdfg.sdfg @write_memlet_not_memlet(%A: !sdfg.scalar<f64> as "A") {
  sdfg.state @s {
    %t = sdfg.tasklet "t" outs("o" : f64) code python "o = 1.0"
    // expected-error @+1 {{'sdfg.access' op write memlets must be #sdfg.memlet, got "0"}}
    %a = "sdfg.access"(%A, %t) <{operandSegmentSizes = array<i32: 1, 1, 0, 0>, write_memlets = ["0"]}> : (!sdfg.scalar<f64>, f64) -> !sdfg.scalar<f64>
  }
}

// -----

// Input connector names are unique.
sdfg.sdfg @duplicate_input_connector(%A: !sdfg.scalar<f64> as "A") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.scalar<f64>
    // expected-error @+1 {{'sdfg.tasklet' op duplicate input connector name "x"}}
    %t = sdfg.tasklet "t" ins("x" = %a["0"] : !sdfg.scalar<f64>, "x" = %a["0"] : !sdfg.scalar<f64>) outs("y" : f64) code python "y = x"
  }
}

// -----

// Output connector names are unique.
sdfg.sdfg @duplicate_output_connector() {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.tasklet' op duplicate output connector name "y"}}
    %t:2 = sdfg.tasklet "t" outs("y" : f64, "y" : f64) code python "y = 1"
  }
}

// -----

// Connector names must not be empty.
sdfg.sdfg @empty_connector() {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.tasklet' op output connector names must not be empty}}
    %t = sdfg.tasklet "t" outs("" : f64) code python "y = 1"
  }
}

// -----

// Every input has a connector name (generic form).
sdfg.sdfg @missing_connector_name(%A: !sdfg.scalar<f64> as "A") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.scalar<f64>
    // expected-error @+1 {{'sdfg.tasklet' op expected 1 input connector names, got 0}}
    "sdfg.tasklet"(%a) <{label = "t", in_memlets = [#sdfg.memlet<["0"]>], out_names = [], language = 0 : i32, code = "pass", operandSegmentSizes = array<i32: 1, 0>}> ({
    }) : (!sdfg.scalar<f64>) -> ()
  }
}

// -----

// A tasklet has a body or foreign code, not both.
sdfg.sdfg @tasklet_body_and_code() {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.tasklet' op needs either an MLIR body or foreign code}}
    %t = sdfg.tasklet "t" outs("y" : f64) code python "y = 1" {
      %c = arith.constant 1.0 : f64
      sdfg.yield %c : f64
    }
  }
}

// -----

// A tasklet has a body or foreign code, not neither.
sdfg.sdfg @tasklet_empty() {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.tasklet' op needs either an MLIR body or foreign code}}
    %t = sdfg.tasklet "t" outs("y" : f64)
  }
}

// -----

// Foreign code is Python or C++.
sdfg.sdfg @tasklet_code_mlir() {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.tasklet' op foreign code needs the language python or cpp}}
    %t = sdfg.tasklet "t" outs("y" : f64) code mlir "y = 1"
  }
}

// -----

// Output connectors carry values, not containers.
sdfg.sdfg @tasklet_container_output() {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.tasklet' op output connectors carry values, not containers; got '!sdfg.scalar<f64>'}}
    %t = sdfg.tasklet "t" outs("y" : !sdfg.scalar<f64>) code python "y = 1"
  }
}

// -----

// A body has one block argument per input connector.
sdfg.sdfg @tasklet_body_arguments(%A: !sdfg.scalar<f64> as "A") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.scalar<f64>
    // expected-error @+1 {{'sdfg.tasklet' op body has 0 arguments for 1 input connectors}}
    %t = sdfg.tasklet "t" ins("x" = %a["0"] : !sdfg.scalar<f64>) outs("y" : f64) {
      %c = arith.constant 1.0 : f64
      sdfg.yield %c : f64
    }
  }
}

// -----

// A body yields the tasklet's output types.
sdfg.sdfg @tasklet_yield_types() {
  sdfg.state @s {
    %t = sdfg.tasklet "t" outs("y" : f64) {
      %c = arith.constant 1 : i32
      // expected-error @+1 {{'sdfg.yield' op yields 'i32' but the tasklet's outputs that are not by_ref are 'f64'}}
      sdfg.yield %c : i32
    }
  }
}

// -----

// A tasklet body sees only its connectors.
sdfg.sdfg @tasklet_uses_outside_value(%A: !sdfg.scalar<f64> as "A") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.scalar<f64>
    %u = sdfg.tasklet "u" outs("v" : f64) code python "v = 1.0"
    // expected-note @+1 {{required by region isolation constraints}}
    %t = sdfg.tasklet "t" outs("y" : f64) {
      // expected-error @+1 {{'sdfg.yield' op using value defined outside the region}}
      sdfg.yield %u : f64
    }
  }
}

// -----

// yield terminates tasklet bodies only.
sdfg.sdfg @yield_outside_tasklet() {
  sdfg.state @s {
    sdfg.map "m" ["i" = "0:4"] {
      // expected-error @+1 {{'sdfg.yield' op expects parent op 'sdfg.tasklet'}}
      sdfg.yield
    }
  }
}

// -----

// exit terminates maps and consume scopes only.
sdfg.sdfg @exit_in_tasklet() {
  sdfg.state @s {
    %t = sdfg.tasklet "t" outs("y" : f64) {
      // expected-error @+1 {{'sdfg.exit' op expects parent op to be one of 'sdfg.map, sdfg.consume'}}
      sdfg.exit ()
    }
  }
}

// -----

// A map region ends in sdfg.exit.
sdfg.sdfg @map_without_exit() {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.map' op region must end in 'sdfg.exit'}}
    sdfg.map "m" ["i" = "0:4"] {
      llvm.unreachable
    }
  }
}

// -----

// Exit edges flow to output connectors of their scope.
sdfg.sdfg @exit_unknown_connector() {
  sdfg.state @s {
    sdfg.map "m" ["i" = "0:4"] {
      %t = sdfg.tasklet "t" outs("y" : f64) code python "y = 1"
      // expected-error @+1 {{'sdfg.exit' op flows to "B", which is not an output connector of 'sdfg.map'}}
      sdfg.exit ("B" = %t["i"] : f64)
    }
  }
}

// -----

// Every output connector of a scope has an edge from inside.
sdfg.sdfg @exit_missing_connector() {
  sdfg.state @s {
    %r = sdfg.map "m" ["i" = "0:4"] outs("B" : !sdfg.array<f64 ["4"]>) {
      // expected-error @+1 {{'sdfg.exit' op has no edge to output connector "B"}}
      sdfg.exit ()
    }
  }
}

// -----

// Exit names must not be empty.
sdfg.sdfg @exit_empty_name() {
  sdfg.state @s {
    %r = sdfg.map "m" ["i" = "0:4"] outs("B" : !sdfg.array<f64 ["4"]>) {
      %t = sdfg.tasklet "t" outs("y" : f64) code python "y = 1"
      // expected-error @+1 {{'sdfg.exit' op connector names must not be empty}}
      sdfg.exit ("" = %t["i"] : f64)
    }
  }
}

// -----

// Exit values and names come in pairs (generic form).
sdfg.sdfg @exit_unpaired() {
  sdfg.state @s {
    sdfg.map "m" ["i" = "0:4"] {
      %t = sdfg.tasklet "t" outs("y" : f64) code python "y = 1"
      // expected-error @+1 {{'sdfg.exit' op has 1 values but 0 connector names}}
      "sdfg.exit"(%t) <{memlets = [#sdfg.memlet<["i"]>], names = []}> : (f64) -> ()
    }
  }
}

// -----

// Exit values and memlets come in pairs (generic form).
sdfg.sdfg @exit_missing_memlet() {
  sdfg.state @s {
    %r = sdfg.map "m" ["i" = "0:4"] outs("B" : !sdfg.array<f64 ["4"]>) {
      %t = sdfg.tasklet "t" outs("y" : f64) code python "y = 1"
      // expected-error @+1 {{'sdfg.exit' op expected 1 memlets, got 0}}
      "sdfg.exit"(%t) <{memlets = [], names = ["B"]}> : (f64) -> ()
    }
  }
}

// -----

// Dataflow enters a scope only through its connectors.
sdfg.sdfg @scope_uses_outside_value(%A: !sdfg.scalar<f64> as "A", %B: !sdfg.array<f64 ["4"]> as "B") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.scalar<f64>
    %r = sdfg.map "m" ["i" = "0:4"] outs("B" : !sdfg.array<f64 ["4"]>) {
      // expected-error @+1 {{'sdfg.tasklet' op uses a value defined outside its scope (operand #0); dataflow must enter through connectors}}
      %t = sdfg.tasklet "t" ins("x" = %a["0"] : !sdfg.scalar<f64>) outs("y" : f64) code python "y = x"
      sdfg.exit ("B" = %t["i"] : f64)
    }
    %b = sdfg.access %B writes(%r["0:4"] : !sdfg.array<f64 ["4"]>) : !sdfg.array<f64 ["4"]>
  }
}

// -----

// Dataflow does not cross state boundaries.
sdfg.sdfg @value_across_states(%A: !sdfg.scalar<f64> as "A") {
  sdfg.state @s1 {
    %a = sdfg.access %A : !sdfg.scalar<f64>
  }
  sdfg.state @s2 {
    // expected-error @+1 {{use of undeclared SSA value name}}
    %t = sdfg.tasklet "t" ins("x" = %a["0"] : !sdfg.scalar<f64>) outs("y" : f64) code python "y = x"
  }
}

// -----

// Map block arguments mirror the input connectors.
sdfg.sdfg @map_arguments_mismatch(%A: !sdfg.array<f64 ["4"]> as "A") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4"]>
    // expected-error @+1 {{'sdfg.map' op region arguments 'f64' do not match the scope's connectors '!sdfg.array<f64 ["4"]>'}}
    sdfg.map "m" ["i" = "0:4"] ins("a" = %a["0:4"] : !sdfg.array<f64 ["4"]>) {
    ^bb0(%x: f64):
      sdfg.exit ()
    }
  }
}

// -----

// A map has at least one parameter.
sdfg.sdfg @map_no_parameter() {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.map' op needs at least one parameter}}
    sdfg.map "m" [] {
      sdfg.exit ()
    }
  }
}

// -----

// Map parameters are unique.
sdfg.sdfg @map_duplicate_parameter() {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.map' op duplicate parameter name "i"}}
    sdfg.map "m" ["i" = "0:4", "i" = "0:4"] {
      sdfg.exit ()
    }
  }
}

// -----

// Parameters and ranges come in pairs (generic form).
sdfg.sdfg @map_unpaired_ranges() {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.map' op has 1 parameters but 2 ranges}}
    "sdfg.map"() <{label = "m", params = ["i"], ranges = ["0:4", "0:4"], operandSegmentSizes = array<i32: 0, 0, 0>}> ({
      sdfg.exit ()
    }) : () -> ()
  }
}

// -----

// collapse is positive.
sdfg.sdfg @map_collapse_zero() {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.map' op collapse must be positive, got 0}}
    sdfg.map "m" ["i" = "0:4"] collapse 0 {
      sdfg.exit ()
    }
  }
}

// -----

// A dynamic range input has a name.
sdfg.sdfg @map_dyn_empty_name(%A: !sdfg.array<i32 ["4"]> as "A") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<i32 ["4"]>
    // expected-error @+1 {{'sdfg.map' op dynamic input names must not be empty}}
    sdfg.map "m" ["i" = "0:e"] dyn("" = %a["0"] : !sdfg.array<i32 ["4"]>) {
    ^bb0(%e: !sdfg.array<i32 ["4"]>):
      sdfg.exit ()
    }
  }
}

// -----

// A consume scope consumes a stream.
sdfg.sdfg @consume_array(%A: !sdfg.array<i32 ["4"]> as "A") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<i32 ["4"]>
    // expected-error @+1 {{'sdfg.consume' op consumes '!sdfg.array<i32 ["4"]>', which is not a stream}}
    sdfg.consume "c" (%a["0"] : !sdfg.array<i32 ["4"]>) pe "p" pes "4" {
    ^bb0(%e: i32):
      sdfg.exit ()
    }
  }
}

// -----

// A consume scope names its processing-element symbol.
sdfg.sdfg @consume_no_pe(%S: !sdfg.stream<i32 shape ["1"]> as "S") {
  sdfg.state @s {
    %s = sdfg.access %S : !sdfg.stream<i32 shape ["1"]>
    // expected-error @+1 {{'sdfg.consume' op needs a processing-element symbol}}
    sdfg.consume "c" (%s["0"] : !sdfg.stream<i32 shape ["1"]>) pe "" pes "4" {
    ^bb0(%e: i32):
      sdfg.exit ()
    }
  }
}

// -----

// A chunk size is a positive integer (DaCe's is an int property).
sdfg.sdfg @consume_chunk_symbolic(%S: !sdfg.stream<i32 shape ["1"]> as "S") symbols {K = i64} {
  sdfg.state @s {
    %s = sdfg.access %S : !sdfg.stream<i32 shape ["1"]>
    // expected-error @+1 {{'sdfg.consume' op chunk size "K" is not a positive integer}}
    sdfg.consume "c" (%s["0"] : !sdfg.stream<i32 shape ["1"]>) pe "p" pes "4" chunksize "K" {
    ^bb0(%e: !sdfg.array<i32 ["K"]>):
      sdfg.exit ()
    }
  }
}

// -----

// With a chunk size, the first block argument is an array of that many
// elements.
sdfg.sdfg @consume_chunk_type(%S: !sdfg.stream<i32 shape ["1"]> as "S") {
  sdfg.state @s {
    %s = sdfg.access %S : !sdfg.stream<i32 shape ["1"]>
    // expected-error @+1 {{'sdfg.consume' op region arguments 'i32' do not match the scope's connectors '!sdfg.array<i32 ["2"]>'}}
    sdfg.consume "c" (%s["0"] : !sdfg.stream<i32 shape ["1"]>) pe "p" pes "4" chunksize "2" {
    ^bb0(%e: i32):
      sdfg.exit ()
    }
  }
}

// -----

// The first block argument of a consume scope is the stream's element.
sdfg.sdfg @consume_element_type(%S: !sdfg.stream<i32 shape ["1"]> as "S") {
  sdfg.state @s {
    %s = sdfg.access %S : !sdfg.stream<i32 shape ["1"]>
    // expected-error @+1 {{'sdfg.consume' op region arguments 'f32' do not match the scope's connectors 'i32'}}
    sdfg.consume "c" (%s["0"] : !sdfg.stream<i32 shape ["1"]>) pe "p" pes "4" {
    ^bb0(%e: f32):
      sdfg.exit ()
    }
  }
}

// -----

// A consume region ends in sdfg.exit with an edge to every output.
sdfg.sdfg @consume_missing_output(%S: !sdfg.stream<i32 shape ["1"]> as "S") {
  sdfg.state @s {
    %s = sdfg.access %S : !sdfg.stream<i32 shape ["1"]>
    %r = sdfg.consume "c" (%s["0"] : !sdfg.stream<i32 shape ["1"]>) pe "p" pes "4" outs("o" : !sdfg.array<i32 ["1"]>) {
    ^bb0(%e: i32):
      // expected-error @+1 {{'sdfg.exit' op has no edge to output connector "o"}}
      sdfg.exit ()
    }
  }
}

// -----

// A nested SDFG node holds exactly one SDFG.
sdfg.sdfg @nested_empty(%A: !sdfg.array<f64 ["4"]> as "A") {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.nested' op region must hold exactly one 'sdfg.sdfg'}}
    sdfg.nested "n" {
    }
  }
}

// -----

// Mapped symbols and values come in pairs (generic form).
sdfg.sdfg @nested_unpaired_symbols() {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.nested' op has 1 mapped symbols but 0 values}}
    "sdfg.nested"() <{label = "n", symbol_names = ["M"], symbol_values = [], operandSegmentSizes = array<i32: 0, 0>}> ({
    ^bb0:
    }) : () -> ()
  }
}

// -----

// A library node names its DaCe class.
sdfg.sdfg @library_no_class() {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.library' op needs a class path}}
    sdfg.library "l" "" properties {}
  }
}

// -----

// A library node's connectors follow the connector rules.
sdfg.sdfg @library_duplicate_output() {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.library' op duplicate output connector name "o"}}
    %l:2 = sdfg.library "l" "a.B" outs("o" : !sdfg.scalar<f64>, "o" : !sdfg.scalar<f64>) properties {}
  }
}

// -----

// sdfg.sym yields an integer, an index, a float or a complex number.
sdfg.sdfg @sym_vector() {
  sdfg.state @s {
    %t = sdfg.tasklet "t" outs("y" : vector<2xf64>) {
      // expected-error @+1 {{'sdfg.sym' op result #0 must be signless integer or index or floating-point or complex-type, but got 'vector<2xf64>'}}
      %n = sdfg.sym "N" : vector<2xf64>
      sdfg.yield %n : vector<2xf64>
    }
  }
}

// -----

// sdfg.push pushes the stream's element type (generic form).
sdfg.sdfg @push_wrong_type(%S: !sdfg.stream<i32 shape ["1"]> as "S", %O: !sdfg.stream<i32 shape ["1"]> as "O") {
  sdfg.state @s {
    %s = sdfg.access %S : !sdfg.stream<i32 shape ["1"]>
    %t = sdfg.tasklet "t" ins("s" = %s["0"] : !sdfg.stream<i32 shape ["1"]>) outs("y" : f64) {
    ^bb0(%st: !sdfg.stream<i32 shape ["1"]>):
      %c = arith.constant 1.0 : f64
      // expected-error @+1 {{'sdfg.push' op failed to verify that value has the stream's element type}}
      "sdfg.push"(%st, %c) : (!sdfg.stream<i32 shape ["1"]>, f64) -> ()
      sdfg.yield %c : f64
    }
  }
}

// -----

// sdfg.pop operates on streams only.
sdfg.sdfg @pop_array(%A: !sdfg.array<i32 ["4"]> as "A") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<i32 ["4"]>
    %t = sdfg.tasklet "t" ins("a" = %a["0:4"] : !sdfg.array<i32 ["4"]>) outs("y" : i32) {
    ^bb0(%arr: !sdfg.array<i32 ["4"]>):
      // expected-error @+1 {{'sdfg.pop' op operand #0 must be a FIFO queue of elements, or an array of them, but got '!sdfg.array<i32 ["4"]>'}}
      %v = "sdfg.pop"(%arr) : (!sdfg.array<i32 ["4"]>) -> i32
      sdfg.yield %v : i32
    }
  }
}

// -----

// sdfg.printf reads as many arguments as its format converts.
sdfg.sdfg @printf_count() {
  sdfg.state @s {
    sdfg.tasklet "p" {
      %i = arith.constant 3 : i64
      // expected-error @+1 {{'sdfg.printf' op format "%d and %d" reads 2 arguments but 1 are given}}
      sdfg.printf "%d and %d" %i : i64
      sdfg.yield
    }
  }
}

// -----

// sdfg.printf prints numbers only.
sdfg.sdfg @printf_string() {
  sdfg.state @s {
    sdfg.tasklet "p" {
      %i = arith.constant 3 : i64
      // expected-error @+1 {{'sdfg.printf' op format "at %p" has the conversion "%p", which cannot print a number}}
      sdfg.printf "at %p" %i : i64
      sdfg.yield
    }
  }
}

// -----

// sdfg.printf belongs in a tasklet body.
sdfg.sdfg @printf_outside() {
  sdfg.state @s {
    sdfg.map "m" ["i" = "0:4"] {
      // expected-error @+1 {{'sdfg.printf' op must be nested in an 'sdfg.tasklet' body}}
      sdfg.printf "hello"
      sdfg.exit()
    }
  }
}

// -----

// sdfg.sym reads symbols inside a tasklet's computation only.
sdfg.sdfg @sym_outside_tasklet() symbols {N = i64} {
  sdfg.state @s {
    sdfg.map "m" ["i" = "0:N"] {
      // expected-error @+1 {{'sdfg.sym' op must be nested in an 'sdfg.tasklet' body}}
      %n = sdfg.sym "N" : i64
      sdfg.exit()
    }
  }
}

// -----

// A symbolic expression in sdfg.sym must parse.
sdfg.sdfg @sym_bad_expression() symbols {N = i64} {
  sdfg.state @s {
    %t = sdfg.tasklet "t" outs("o" : i64) {
      // expected-error @+1 {{'sdfg.sym' op invalid expression in expression "N +": column 4: }}
      %n = sdfg.sym "N +" : i64
      sdfg.yield %n : i64
    }
    sdfg.tasklet "u" ins("x" = %t["0"] : i64) code python "pass"
  }
}

// -----

// A scope region holds dataflow nodes only.
sdfg.sdfg @edge_in_map() symbols {N = i64} {
  sdfg.state @s {
    sdfg.map "m" ["i" = "0:N"] {
      // expected-error @+1 {{'sdfg.edge' op expects parent op to be one of}}
      sdfg.edge @a -> @b
      sdfg.exit()
    }
  }
}

// -----

// A scope region ends in its exit node.
sdfg.sdfg @constant_in_map() symbols {N = i64} {
  sdfg.state @s {
    sdfg.map "m" ["i" = "0:N"] {
      // expected-error @+1 {{block with no terminator}}
      %c = arith.constant 1 : i64
    }
  }
}

// -----

// Ops of other dialects cannot be dataflow nodes of a scope.
sdfg.sdfg @constant_before_exit() symbols {N = i64} {
  sdfg.state @s {
    sdfg.map "m" ["i" = "0:N"] {
      // expected-error @+1 {{'arith.constant' op is not a dataflow node and cannot appear in 'sdfg.map'}}
      %c = arith.constant 1 : i64
      sdfg.exit()
    }
  }
}

// -----

// A by_ref output is a block argument after the inputs.
sdfg.sdfg @by_ref_argument_missing() {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.tasklet' op body has 0 arguments for 0 input connectors and 1 by_ref outputs}}
    %t = sdfg.tasklet "t" outs("y" : f64 by_ref) {
      sdfg.yield
    }
  }
}

// -----

// The argument of a by_ref output is a memref or a stream.
sdfg.sdfg @by_ref_argument_type() {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.tasklet' op by_ref output 0 needs a memref or stream argument; got 'f64'}}
    %t = sdfg.tasklet "t" outs("y" : f64 by_ref) {
    ^bb0(%y: f64):
      sdfg.yield
    }
  }
}

// -----

// The body yields only the outputs that are not by_ref.
sdfg.sdfg @by_ref_yielded() {
  sdfg.state @s {
    %t:2 = sdfg.tasklet "t" outs("y" : f64 by_ref, "z" : f64) {
    ^bb0(%y: memref<f64>):
      %c = arith.constant 1.0 : f64
      // expected-error @+1 {{'sdfg.yield' op yields 'f64', 'f64' but the tasklet's outputs that are not by_ref are 'f64'}}
      sdfg.yield %c, %c : f64, f64
    }
  }
}

// -----

// Foreign code cannot write by_ref outputs.
sdfg.sdfg @by_ref_code() {
  sdfg.state @s {
    // expected-error @+1 {{'sdfg.tasklet' op by_ref outputs need an MLIR body}}
    %t = sdfg.tasklet "t" outs("y" : f64 by_ref) code python "y = 1"
  }
}
