//===- SDFGOps.td - sdfg operations ------------------------*- tablegen -*-===//
//
// Three kinds of ops: the SDFG and its containers; control-flow blocks and
// inter-state edges (a state machine nested in structured regions, as in
// DaCe 1.0); and the dataflow nodes of a state, whose SSA uses are the edges
// of the state's multigraph and carry memlets.
//
//===----------------------------------------------------------------------===//

#ifndef SDFG_OPS_TD
#define SDFG_OPS_TD

include "sdfg/SDFGBase.td"
include "sdfg/SDFGTypes.td"
include "sdfg/SDFGAttrs.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class SDFG_Op<string mnemonic, list<Trait> traits = []>
    : Op<SDFG_Dialect, mnemonic, traits>;

// Ops whose region is a control-flow graph of blocks joined by `sdfg.edge`.
defvar SDFG_CFGParents = ["SDFGOp", "LoopOp", "BranchOp", "RegionOp",
                          "CallRegionOp"];
// Ops whose region is (part of) a state's dataflow graph.
defvar SDFG_DataflowParents = ["StateOp", "MapOp", "ConsumeOp"];

//===----------------------------------------------------------------------===//
// The SDFG and its containers
//===----------------------------------------------------------------------===//

def SDFG_SDFGOp : SDFG_Op<"sdfg", [Symbol, SymbolTable, IsolatedFromAbove,
    NoTerminator, SingleBlock,
    DeclareOpInterfaceMethods<OpAsmOpInterface,
                              ["getAsmBlockArgumentNames"]>]> {
  let summary = "a Stateful DataFlow multiGraph";
  let description = [{
    The top-level or nested SDFG. Its block arguments are the non-transient
    data containers in DaCe's argument order, each with its DaCe name;
    `symbols` declares the SDFG's symbols with their types (integers, or
    floating point or complex for DaCe's float symbols and the complex
    scalars its simplification promotes to symbols). The body
    holds `sdfg.alloc` transients, control-flow blocks and `sdfg.edge`s; the
    first block is the start block.

    Example:

    ```mlir
    sdfg.sdfg @axpy(%x: !sdfg.array<f64 ["N"]> as "x",
                    %y: !sdfg.array<f64 ["N"]> as "y") symbols {N = i64} {
      sdfg.state @compute {
        ...
      }
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrArrayAttr:$arg_names,
                       DictionaryAttr:$symbols,
                       OptionalAttr<DictionaryAttr>:$constants);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The block that holds the SDFG's containers and control flow.
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
  }];
}

def SDFG_AllocOp : SDFG_Op<"alloc", [HasParent<"SDFGOp">,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "a transient data container";
  let description = [{
    Declares a transient (SDFG-local) container named `name`. `lifetime` is
    DaCe's allocation lifetime (default `Scope`); the storage location is
    part of the type.

    Example:

    ```mlir
    %tmp = sdfg.alloc "tmp" lifetime Persistent : !sdfg.array<f64 ["N"]>
    ```
  }];
  let arguments = (ins StrAttr:$name,
      DefaultValuedAttr<SDFG_LifetimeType,
                        "::mlir::sdfg::LifetimeType::Scope">:$lifetime);
  let results = (outs SDFG_ContainerType:$result);
  let assemblyFormat = [{
    $name (`lifetime` $lifetime^)? attr-dict `:` type($result)
  }];
}

def SDFG_MemberOp : SDFG_Op<"member", [HasParent<"SDFGOp">, Pure,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "a member container of a structure";
  let description = [{
    The member `member` of a structure container, itself a container
    (DaCe's data name `A.member`); its type is the member's type in the
    structure.

    Example:

    ```mlir
    %indptr = sdfg.member %A "indptr" : !sdfg.structure<"CSRMatrix"
        members ["indptr"] types [!sdfg.array<i32 ["M + 1"]>]>
        -> !sdfg.array<i32 ["M + 1"]>
    ```
  }];
  let arguments = (ins SDFG_StructureType:$structure, StrAttr:$member);
  let results = (outs SDFG_ContainerType:$result);
  let assemblyFormat = [{
    $structure $member attr-dict `:` type($structure) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

def SDFG_StateOp : SDFG_Op<"state", [Symbol, ParentOneOf<SDFG_CFGParents>,
    NoTerminator, SingleBlock, NoRegionArguments]> {
  let summary = "an SDFG state: one acyclic dataflow multigraph";
  let description = [{
    A state of the state machine. Its region is the state's dataflow graph:
    access nodes, tasklets, scopes, nested SDFGs and library nodes, joined by
    SSA uses that carry memlets. Op order is a topological order only.

    Example:

    ```mlir
    sdfg.state @init {
      %t = sdfg.tasklet "zero" outs("o" : f64) code python "o = 0.0"
      %a = sdfg.access %A writes(%t["0"] : f64) : !sdfg.array<f64 ["N"]>
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let hasRegionVerifier = 1;
}

def SDFG_EdgeOp : SDFG_Op<"edge", [ParentOneOf<SDFG_CFGParents>]> {
  let summary = "an inter-state edge";
  let description = [{
    A transition between two sibling control-flow blocks. It is taken when
    `if` holds (default `True`); `assign` then updates symbols, all
    right-hand sides being evaluated before any assignment.

    Example:

    ```mlir
    sdfg.edge @guard -> @body if "i < N" assign("j" = "j + i")
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$src, FlatSymbolRefAttr:$dst,
                       OptionalAttr<StrAttr>:$condition,
                       OptionalAttr<StrArrayAttr>:$assign_names,
                       OptionalAttr<StrArrayAttr>:$assign_values);
  let assemblyFormat = [{
    $src `->` $dst (`if` $condition^)?
    (`assign` `(` custom<Assignments>($assign_names, $assign_values)^ `)`)?
    attr-dict
  }];
  let hasVerifier = 1;
}

def SDFG_LoopOp : SDFG_Op<"loop", [Symbol, ParentOneOf<SDFG_CFGParents>,
    SymbolTable, NoTerminator, SingleBlock, NoRegionArguments]> {
  let summary = "a loop region (DaCe's LoopRegion)";
  let description = [{
    A structured loop over a control-flow graph. With a loop variable, `init`
    gives its first value and `update` the next one; the body runs while
    `cond` holds, checked before each iteration or, with `inverted`, after
    (a do-while loop). Without a variable it is a while loop.

    Example:

    ```mlir
    sdfg.loop @time var "t" init "0" cond "t < T" update "t + 1" {
      sdfg.state @step { }
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       OptionalAttr<StrAttr>:$var,
                       OptionalAttr<StrAttr>:$init,
                       StrAttr:$cond,
                       OptionalAttr<StrAttr>:$update,
                       UnitAttr:$inverted,
                       UnitAttr:$update_before_condition);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name (`var` $var^)? (`init` $init^)? `cond` $cond
    (`update` $update^)? (`inverted` $inverted^)?
    (`update_before_condition` $update_before_condition^)?
    attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def SDFG_ConditionalOp : SDFG_Op<"conditional", [Symbol,
    ParentOneOf<SDFG_CFGParents>, SymbolTable, NoTerminator, SingleBlock,
    NoRegionArguments]> {
  let summary = "a conditional block (DaCe's ConditionalBlock)";
  let description = [{
    Holds `sdfg.branch` ops. The first branch whose condition holds runs; a
    branch without a condition is the `else` branch and must be last.

    Example:

    ```mlir
    sdfg.conditional @sign {
      sdfg.branch @pos if "x > 0" { sdfg.state @p { } }
      sdfg.branch @neg { sdfg.state @n { } }
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let hasRegionVerifier = 1;
}

def SDFG_BranchOp : SDFG_Op<"branch", [Symbol, HasParent<"ConditionalOp">,
    SymbolTable, NoTerminator, SingleBlock, NoRegionArguments]> {
  let summary = "one branch of a conditional block";
  let description = [{
    A control-flow region taken when `if` holds; without `if` it is the
    `else` branch.

    Example:

    ```mlir
    sdfg.branch @then if "x > 0" { sdfg.state @s { } }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       OptionalAttr<StrAttr>:$condition);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name (`if` $condition^)? attr-dict-with-keyword $body
  }];
  let hasRegionVerifier = 1;
}

def SDFG_RegionOp : SDFG_Op<"region", [Symbol, ParentOneOf<SDFG_CFGParents>,
    SymbolTable, NoTerminator, SingleBlock, NoRegionArguments]> {
  let summary = "a control-flow region (DaCe's ControlFlowRegion)";
  let description = [{
    A nested control-flow graph that is entered at its first block and left
    when a block without outgoing edges finishes.

    Example:

    ```mlir
    sdfg.region @phase { sdfg.state @a { } }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let hasRegionVerifier = 1;
}

def SDFG_CallRegionOp : SDFG_Op<"call_region", [Symbol,
    ParentOneOf<SDFG_CFGParents>, SymbolTable, NoTerminator, SingleBlock,
    NoRegionArguments]> {
  let summary = "a function-call region (DaCe's FunctionCallRegion)";
  let description = [{
    A control-flow region that stands for an inlined function call; `args`
    maps the callee's parameter names to the caller's data or expressions.

    Example:

    ```mlir
    sdfg.call_region @f args("a" = "A") { sdfg.state @body { } }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       OptionalAttr<StrArrayAttr>:$arg_names,
                       OptionalAttr<StrArrayAttr>:$arg_values);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $sym_name (`args` `(` custom<Assignments>($arg_names, $arg_values)^ `)`)?
    attr-dict-with-keyword $body
  }];
  let hasRegionVerifier = 1;
}

class SDFG_JumpOp<string mnemonic, string what, string example>
    : SDFG_Op<mnemonic, [Symbol, ParentOneOf<SDFG_CFGParents>]> {
  let summary = what;
  let arguments = (ins SymbolNameAttr:$sym_name);
  let assemblyFormat = "$sym_name attr-dict";
  let hasVerifier = 1;
  let description = !strconcat([{
    A control-flow block without contents; reaching it transfers control as
    its name says. It may not have outgoing edges.

    Example:

    ```mlir
  }], example, [{

    ```
  }]);
}

def SDFG_BreakOp : SDFG_JumpOp<"break",
    "leaves the innermost enclosing loop", "sdfg.break @out">;
def SDFG_ContinueOp : SDFG_JumpOp<"continue",
    "starts the next iteration of the innermost loop", "sdfg.continue @next">;
def SDFG_ReturnOp : SDFG_JumpOp<"return",
    "leaves the SDFG", "sdfg.return @done">;

//===----------------------------------------------------------------------===//
// Dataflow nodes
//===----------------------------------------------------------------------===//

def SDFG_AccessOp : SDFG_Op<"access", [ParentOneOf<SDFG_DataflowParents>,
    AttrSizedOperandSegments, AllTypesMatch<["data", "result"]>,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "an access node";
  let description = [{
    One access node of a container. Its result is the node itself: every use
    of it is an edge that reads from the node. The `writes` operands are the
    edges into the node, each with its memlet; an edge from another access
    node is a copy and may name the destination subset with `->`. `bind` is
    the edge that binds a view to the data it views (DaCe's `views`
    connector) or points a reference at its target (DaCe's `set`
    connector). `after` lists nodes that must complete first (empty
    memlets).

    Example:

    ```mlir
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %b = sdfg.access %B writes(%a["0:N" -> "1:N+1"] : !sdfg.array<f64 ["N"]>)
           : !sdfg.array<f64 ["N+1"]>
    %v = sdfg.access %V bind(%b["1:N+1"] : !sdfg.array<f64 ["N+1"]>)
           : !sdfg.view<f64 ["N"]>
    ```
  }];
  let arguments = (ins SDFG_ContainerType:$data,
                       Variadic<AnyType>:$writes,
                       Optional<SDFG_ContainerType>:$source,
                       Variadic<AnyType>:$after,
                       OptionalAttr<ArrayAttr>:$write_memlets,
                       OptionalAttr<SDFG_MemletAttr>:$source_memlet);
  let results = (outs SDFG_ContainerType:$result);
  let assemblyFormat = [{
    $data (`writes` `(` custom<Memlets>($writes, type($writes), $write_memlets)^
     `)`)?
    (`bind` `(` $source^ custom<Memlet>($source_memlet) `:` type($source)
     `)`)?
    (`after` `(` $after^ `:` type($after) `)`)?
    attr-dict `:` type($data)
  }];
  let hasVerifier = 1;
}

def SDFG_TaskletOp : SDFG_Op<"tasklet", [ParentOneOf<SDFG_DataflowParents>,
    AttrSizedOperandSegments, IsolatedFromAbove,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames",
                                                 "getAsmBlockArgumentNames"]>]> {
  let summary = "a tasklet: a small computation on its connectors";
  let description = [{
    Reads its input connectors (`ins`, each an edge with a memlet) and writes
    its output connectors (`outs`, the results). The computation is either
    an MLIR region whose block arguments are the input connectors and whose
    `sdfg.yield` gives the outputs, or foreign `python`/`cpp` code kept as
    text.

    An output marked `by_ref` is written by the body itself rather than
    yielded: the entry block has one more argument per such output (after
    the inputs), a memref of the output memlet's subset (`memref<T>` for a
    single element) or the `!sdfg.stream<T>` it pushes to. This is how
    DaCe's dynamic output memlets behave: every store is a write through
    the memlet (resolved with its write-conflict resolution, if any), so a
    body may write an output conditionally, several times, or element by
    element. `sdfg.yield` gives only the other outputs.

    Example:

    ```mlir
    %o = sdfg.tasklet "mul" ins("a" = %A["i"] : !sdfg.array<f64 ["N"]>)
                            outs("b" : f64) {
    ^bb0(%a: f64):
      %two = arith.constant 2.0 : f64
      %b = arith.mulf %a, %two : f64
      sdfg.yield %b : f64
    }
    %p = sdfg.tasklet "inc" ins("x" = %A["i"] : !sdfg.array<f64 ["N"]>)
                            outs("y" : f64) code python "y = x + 1"
    %q = sdfg.tasklet "clip" ins("x" = %A["i"] : !sdfg.array<f64 ["N"]>)
                             outs("y" : f64 by_ref) {
    ^bb0(%x: f64, %y: memref<f64>):
      %zero = arith.constant 0.0 : f64
      %neg = arith.cmpf olt, %x, %zero : f64
      scf.if %neg {
        memref.store %zero, %y[] : memref<f64>
      }
      sdfg.yield
    }
    ```
  }];
  let arguments = (ins StrAttr:$label,
                       Variadic<AnyType>:$inputs,
                       Variadic<AnyType>:$after,
                       OptionalAttr<ArrayAttr>:$in_memlets,
                       OptionalAttr<StrArrayAttr>:$in_names,
                       OptionalAttr<StrArrayAttr>:$out_names,
                       OptionalAttr<DenseBoolArrayAttr>:$by_ref,
                       OptionalAttr<SDFG_Language>:$language,
                       OptionalAttr<StrAttr>:$code,
                       UnitAttr:$side_effects);
  let results = (outs Variadic<AnyType>:$outputs);
  let regions = (region AnyRegion:$body);
  let assemblyFormat = [{
    $label (`ins` `(` custom<NamedMemlets>($inputs, type($inputs), $in_memlets,
                              $in_names)^ `)`)?
    (`outs` `(` custom<TaskletOutputs>(type($outputs), $out_names, $by_ref)^ `)`)?
    (`after` `(` $after^ `:` type($after) `)`)?
    (`side_effects` $side_effects^)?
    (`code` $language^ $code)? attr-dict-with-keyword ($body^)?
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// Whether output `index` is written by the body (see `by_ref`).
    bool isByRef(unsigned index);
  }];
}

def SDFG_YieldOp : SDFG_Op<"yield", [Terminator, HasParent<"TaskletOp">,
    Pure]> {
  let summary = "returns the output connectors of a tasklet body";
  let description = [{
    Terminates a tasklet's MLIR body; operand `k` is the `k`-th output
    connector that is not `by_ref`.

    Example:

    ```mlir
    sdfg.yield %v : f64
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

def SDFG_ExitOp : SDFG_Op<"exit", [Terminator,
    ParentOneOf<["MapOp", "ConsumeOp"]>]> {
  let summary = "the exit node of a map or consume scope";
  let description = [{
    Terminates a scope region. Each operand is an edge into the scope's exit
    node with its inner memlet and names the output connector (a result of
    the scope) it flows to; several edges may flow to one connector.

    Example:

    ```mlir
    sdfg.exit ("C" = %t["i, j", wcr sum] : f64)
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values, ArrayAttr:$memlets,
                       StrArrayAttr:$names);
  let assemblyFormat = [{
    `(` custom<NamedMemlets>($values, type($values), $memlets, $names) `)`
    attr-dict
  }];
  let hasVerifier = 1;
}

def SDFG_MapOp : SDFG_Op<"map", [ParentOneOf<SDFG_DataflowParents>,
    AttrSizedOperandSegments, SingleBlock,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "a map scope: a parametric parallel loop nest";
  let description = [{
    Runs its region once for every point of the parameter ranges (Python
    slices, `start:end:step`, with an optional tile size written
    `start:end:step tile T`).
    Operands of `ins` are the entry node's input connectors with their outer
    memlets; they are also the region's leading block arguments. `dyn`
    operands are dynamic range inputs whose connector names may be used in
    the ranges; they are the trailing block arguments. Results are the exit
    node's output connectors; their inner edges are the operands of the
    region's `sdfg.exit`.

    Example:

    ```mlir
    %r = sdfg.map "scale" ["i" = "0:N"] schedule CPU_Multicore
           ins("x" = %x["0:N"] : !sdfg.array<f64 ["N"]>)
           outs("y" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%xin: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "s" ins("a" = %xin["i"] : !sdfg.array<f64 ["N"]>)
                            outs("b" : f64) code python "b = 2 * a"
      sdfg.exit ("y" = %t["i"] : f64)
    }
    ```
  }];
  let arguments = (ins StrAttr:$label,
                       StrArrayAttr:$params,
                       StrArrayAttr:$ranges,
                       Variadic<AnyType>:$inputs,
                       Variadic<AnyType>:$dynamic_inputs,
                       Variadic<AnyType>:$after,
                       OptionalAttr<ArrayAttr>:$in_memlets,
                       OptionalAttr<StrArrayAttr>:$in_names,
                       OptionalAttr<ArrayAttr>:$dyn_memlets,
                       OptionalAttr<StrArrayAttr>:$dyn_names,
                       OptionalAttr<StrArrayAttr>:$out_names,
                       DefaultValuedAttr<SDFG_ScheduleType,
                         "::mlir::sdfg::ScheduleType::Default">:$schedule,
                       UnitAttr:$unroll,
                       OptionalAttr<I64Attr>:$unroll_factor,
                       OptionalAttr<I64Attr>:$collapse,
                       OptionalAttr<StrArrayAttr>:$gpu_block_size,
                       OptionalAttr<I64Attr>:$omp_num_threads);
  let results = (outs Variadic<AnyType>:$outputs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $label custom<MapRanges>($params, $ranges)
    (`schedule` $schedule^)?
    (`unroll` $unroll^)? (`unroll_factor` $unroll_factor^)?
    (`collapse` $collapse^)?
    (`gpu_block_size` $gpu_block_size^)?
    (`omp_num_threads` $omp_num_threads^)?
    (`ins` `(` custom<NamedMemlets>($inputs, type($inputs), $in_memlets,
                              $in_names)^ `)`)?
    (`dyn` `(` custom<NamedMemlets>($dynamic_inputs, type($dynamic_inputs),
                              $dyn_memlets, $dyn_names)^ `)`)?
    (`outs` `(` custom<NamedTypes>(type($outputs), $out_names)^ `)`)?
    (`after` `(` $after^ `:` type($after) `)`)?
    attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def SDFG_ConsumeOp : SDFG_Op<"consume", [ParentOneOf<SDFG_DataflowParents>,
    AttrSizedOperandSegments, SingleBlock]> {
  let summary = "a consume scope: processing elements that drain a stream";
  let description = [{
    `num_pes` processing elements, indexed by the symbol `pe`, pop elements
    of `stream` until the stream is empty or, when a `quiescence` condition
    is given, until it holds. The region's first block argument is the
    popped element; the remaining ones are the `ins` connectors.

    With a `chunksize` (a positive integer, as DaCe's) other than 1, each
    processing element pops up to `chunksize` elements at a time: the first
    block argument is then an `!sdfg.array<T ["chunksize"]>`, of which the
    first
    `__dace_<label>_numelems` elements are valid. That symbol (DaCe's name
    for the count) is defined inside the scope.

    The quiescence condition is evaluated by each processing element before
    it takes more elements. It may read data (`res[0] >= 44`). While it does
    not hold, a processing element waits for more elements as long as
    another one may still push some; a stream drained before the condition
    holds ends the program with an error (DaCe would wait forever).

    Example:

    ```mlir
    %r = sdfg.consume "work" (%s["0"] : !sdfg.stream<i32>) pe "p" pes "4"
           outs("out" : !sdfg.array<i32 ["1"]>) {
    ^bb0(%e: i32):
      %t = sdfg.tasklet "add" outs("o" : i32) code python "o = 1"
      sdfg.exit ("out" = %t["0", wcr sum] : i32)
    }
    ```
  }];
  let arguments = (ins StrAttr:$label,
                       SDFG_ContainerType:$stream,
                       SDFG_MemletAttr:$stream_memlet,
                       StrAttr:$pe,
                       StrAttr:$num_pes,
                       OptionalAttr<StrAttr>:$quiescence,
                       OptionalAttr<StrAttr>:$chunksize,
                       Variadic<AnyType>:$inputs,
                       Variadic<AnyType>:$after,
                       OptionalAttr<ArrayAttr>:$in_memlets,
                       OptionalAttr<StrArrayAttr>:$in_names,
                       OptionalAttr<StrArrayAttr>:$out_names,
                       DefaultValuedAttr<SDFG_ScheduleType,
                         "::mlir::sdfg::ScheduleType::Default">:$schedule);
  let results = (outs Variadic<AnyType>:$outputs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $label `(` $stream custom<Memlet>($stream_memlet) `:` type($stream) `)`
    `pe` $pe `pes` $num_pes (`quiescence` $quiescence^)?
    (`chunksize` $chunksize^)? (`schedule` $schedule^)?
    (`ins` `(` custom<NamedMemlets>($inputs, type($inputs), $in_memlets,
                              $in_names)^ `)`)?
    (`outs` `(` custom<NamedTypes>(type($outputs), $out_names)^ `)`)?
    (`after` `(` $after^ `:` type($after) `)`)?
    attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

def SDFG_NestedOp : SDFG_Op<"nested", [ParentOneOf<SDFG_DataflowParents>,
    AttrSizedOperandSegments, SingleBlock, NoTerminator, SymbolTable]> {
  let summary = "a nested SDFG node";
  let description = [{
    Calls the `sdfg.sdfg` in its region. Each `ins` connector and each `outs`
    connector is bound by name to the nested SDFG's argument of that name;
    `symbols` maps the nested SDFG's symbols to expressions of the outer
    one.

    Example:

    ```mlir
    %r = sdfg.nested "inner" ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>)
           outs("b" : !sdfg.array<f64 ["N"]>) symbols("M" = "N") {
      sdfg.sdfg @inner(%a: !sdfg.array<f64 ["M"]> as "a",
                       %b: !sdfg.array<f64 ["M"]> as "b") symbols {M = i64} {
      }
    }
    ```
  }];
  let arguments = (ins StrAttr:$label,
                       Variadic<AnyType>:$inputs,
                       Variadic<AnyType>:$after,
                       OptionalAttr<ArrayAttr>:$in_memlets,
                       OptionalAttr<StrArrayAttr>:$in_names,
                       OptionalAttr<StrArrayAttr>:$out_names,
                       OptionalAttr<StrArrayAttr>:$symbol_names,
                       OptionalAttr<StrArrayAttr>:$symbol_values,
                       DefaultValuedAttr<SDFG_ScheduleType,
                         "::mlir::sdfg::ScheduleType::Default">:$schedule);
  let results = (outs Variadic<AnyType>:$outputs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $label (`ins` `(` custom<NamedMemlets>($inputs, type($inputs), $in_memlets,
                              $in_names)^ `)`)?
    (`outs` `(` custom<NamedTypes>(type($outputs), $out_names)^ `)`)?
    (`symbols` `(` custom<Assignments>($symbol_names, $symbol_values)^ `)`)?
    (`schedule` $schedule^)?
    (`after` `(` $after^ `:` type($after) `)`)?
    attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The nested SDFG, if the region holds one.
    SDFGOp getNestedSDFG();
  }];
}

def SDFG_LibraryOp : SDFG_Op<"library", [ParentOneOf<SDFG_DataflowParents>,
    AttrSizedOperandSegments]> {
  let summary = "a library node";
  let description = [{
    A high-level operation (matrix product, reduction, ...) identified by its
    DaCe class path, with named connectors, the chosen implementation and
    the node's properties. An empty connector name stands for a DaCe edge
    without a connector (library nodes such as `Reduce` take their data that
    way). Expansion passes replace the node with a nested SDFG.

    Example:

    ```mlir
    %c = sdfg.library "mm" "dace.libraries.blas.nodes.matmul.MatMul"
           impl "pure" ins("_a" = %a["0:M, 0:K"] : !sdfg.array<f64 ["M", "K"]>,
                           "_b" = %b["0:K, 0:N"] : !sdfg.array<f64 ["K", "N"]>)
           outs("_c" : !sdfg.array<f64 ["M", "N"]>)
           properties {alpha = "1", beta = "0"}
    ```
  }];
  let arguments = (ins StrAttr:$label,
                       StrAttr:$class_path,
                       OptionalAttr<StrAttr>:$implementation,
                       Variadic<AnyType>:$inputs,
                       Variadic<AnyType>:$after,
                       OptionalAttr<ArrayAttr>:$in_memlets,
                       OptionalAttr<StrArrayAttr>:$in_names,
                       OptionalAttr<StrArrayAttr>:$out_names,
                       DictionaryAttr:$props,
                       DefaultValuedAttr<SDFG_ScheduleType,
                         "::mlir::sdfg::ScheduleType::Default">:$schedule);
  let results = (outs Variadic<AnyType>:$outputs);
  let assemblyFormat = [{
    $label $class_path (`impl` $implementation^)?
    (`schedule` $schedule^)?
    (`ins` `(` custom<NamedMemlets>($inputs, type($inputs), $in_memlets,
                              $in_names)^ `)`)?
    (`outs` `(` custom<NamedTypes>(type($outputs), $out_names)^ `)`)?
    (`after` `(` $after^ `:` type($after) `)`)?
    `properties` $props attr-dict
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Ops inside tasklet bodies
//===----------------------------------------------------------------------===//

def SDFG_SymOp : SDFG_Op<"sym", [Pure]> {
  let summary = "the value of a symbolic expression";
  let description = [{
    Materialises a symbolic expression over the SDFG's symbols (and map
    parameters in scope) as an integer or index value, or as a float or
    complex number when it reads floating-point or complex symbols
    (`dace.symbol('m', dace.float64)`):
    such an expression is computed as C++ computes it, not in SymPy's
    integer normal form.

    Example:

    ```mlir
    %n = sdfg.sym "N - 1" : i64
    %m = sdfg.sym "m" : f64
    %z = sdfg.sym "z" : complex<f64>
    ```
  }];
  let arguments = (ins StrAttr:$expr);
  let results = (outs AnyTypeOf<[AnySignlessIntegerOrIndex, AnyFloat,
                                 AnyComplex]>:$result);
  let assemblyFormat = "$expr attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def SDFG_PushOp : SDFG_Op<"push", [TypesMatchWith<
    "value has the stream's element type", "stream", "value",
    "::llvm::cast<::mlir::sdfg::StreamType>($_self).getElementType()">]> {
  let summary = "pushes a value into a stream connector";
  let description = [{
    Appends `value` to the stream bound to a tasklet connector.

    Example:

    ```mlir
    sdfg.push %s, %v : !sdfg.stream<i32>
    ```
  }];
  let arguments = (ins SDFG_StreamType:$stream, AnyType:$value);
  let assemblyFormat = "$stream `,` $value attr-dict `:` type($stream)";
  let hasVerifier = 1;
}

def SDFG_PopOp : SDFG_Op<"pop", [TypesMatchWith<
    "result has the stream's element type", "stream", "value",
    "::llvm::cast<::mlir::sdfg::StreamType>($_self).getElementType()">]> {
  let summary = "pops a value from a stream connector";
  let description = [{
    Removes and returns the first element of the stream bound to a tasklet
    connector.

    Example:

    ```mlir
    %v = sdfg.pop %s : !sdfg.stream<i32>
    ```
  }];
  let arguments = (ins SDFG_StreamType:$stream);
  let results = (outs AnyType:$value);
  let assemblyFormat = "$stream attr-dict `:` type($stream)";
  let hasVerifier = 1;
}

def SDFG_PrintfOp : SDFG_Op<"printf"> {
  let summary = "prints values under a C format string";
  let description = [{
    Prints `args` under the C `printf` format `format`: DaCe's
    `printf(...)` in tasklet code, which DaCe hands to C as it is.

    Each argument is converted to the type its conversion reads, so that
    the call is always well defined (in C a mismatched argument is
    undefined behaviour): `d`, `i`, `c`, `o`, `u`, `x` and `X` read an
    `int`, or with a `l`, `ll`, `j`, `z` or `t` length a 64-bit integer;
    `f`, `e`, `g` and `a` (either case) read a `double`; a `*` width or
    precision reads an `int`. `%%` prints `%`. Strings, pointers and `%n`
    have no place in a tasklet and are rejected, as is a count of
    arguments that differs from what the format reads.

    Example:

    ```mlir
    sdfg.printf "i = %d, x = %f\n" %i, %x : i64, f64
    ```
  }];
  let arguments = (ins StrAttr:$format,
                       Variadic<AnyTypeOf<[AnySignlessIntegerOrIndex, AnyFloat]>>:$args);
  let assemblyFormat = "$format ($args^ `:` type($args))? attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Calling an SDFG from upstream code
//===----------------------------------------------------------------------===//

def SDFG_InvokeOp : SDFG_Op<"invoke",
    [AttrSizedOperandSegments, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "calls a top-level SDFG from a function on memrefs";
  let description = [{
    Runs the `sdfg.sdfg` named `callee` (a sibling of the enclosing
    function) on memrefs: `data` are the SDFG's arguments in order, each a
    memref of the container's element type and rank (a rank-0 memref for a
    scalar), with the identity layout or, for a container with strides,
    a strided layout whose strides are the container's (the container is
    the memref from its first element); `symbols` binds each free symbol of
    the SDFG, by name, to an `index` value. This is how a function that
    `convert-to-sdfg` turned into an SDFG keeps its signature: its body
    becomes the computation of the symbols and one `sdfg.invoke`.
    `convert-sdfg-to-scf` lowers it to a call of the lowered SDFG.

    Example:

    ```mlir
    func.func @scale(%x: memref<?xf64>) {
      %c0 = arith.constant 0 : index
      %n = memref.dim %x, %c0 : memref<?xf64>
      sdfg.invoke @scale_sdfg(%x : memref<?xf64>) symbols ["N"](%n)
      return
    }
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                       Variadic<AnyMemRef>:$data,
                       StrArrayAttr:$symbol_names,
                       Variadic<Index>:$symbol_values);
  let assemblyFormat = [{
    $callee `(` ($data^ `:` type($data))? `)`
    `symbols` $symbol_names `(` $symbol_values `)` attr-dict
  }];
  let hasVerifier = 1;
}

#endif // SDFG_OPS_TD
