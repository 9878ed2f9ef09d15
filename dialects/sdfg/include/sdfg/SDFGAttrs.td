//===- SDFGAttrs.td - sdfg attributes ----------------------*- tablegen -*-===//
//
// The memlet: what an edge of a state moves. It is attached to an SSA use,
// so the data it names is implied by the value; the attribute keeps the rest
// of DaCe's Memlet (subset, other subset, volume, dynamic, write-conflict
// resolution).
//
//===----------------------------------------------------------------------===//

#ifndef SDFG_ATTRS_TD
#define SDFG_ATTRS_TD

include "sdfg/SDFGBase.td"

def SDFG_MemletAttr : AttrDef<SDFG_Dialect, "Memlet"> {
  let mnemonic = "memlet";
  let summary = "the data movement of one dataflow edge";
  let description = [{
    `subset` is a comma-separated list of Python slices (`start:end:step`,
    exclusive end, or a single index) over the container at the access-node
    end of the memlet path; `other` is the subset at the opposite end of an
    access-node-to-access-node copy. `volume` defaults to the number of
    elements of `subset`; `dynamic` marks a volume that is only an upper
    bound; `wcr` resolves write conflicts with a named reduction or a custom
    Python lambda (`wcr "lambda a, b: a + b"`). `data` names the container
    only where the SSA value does not imply it: an edge between two
    tasklets, which DaCe routes through a scalar without an access node.

    Inside operand lists the attribute is written in brackets after the
    value: `%A["0:N, i" -> "i, 0:N", volume "N", dynamic, wcr sum]`, and
    `%t["0", data "tmp"]` for a tasklet-to-tasklet edge through `tmp`.

    Example:

    ```mlir
    #sdfg.memlet<["i, 0:M", wcr sum]>
    ```
  }];
  let parameters = (ins
    "::mlir::StringAttr":$subset,
    OptionalParameter<"::mlir::StringAttr">:$other,
    OptionalParameter<"::mlir::StringAttr">:$volume,
    DefaultValuedParameter<"bool", "false">:$dynamic,
    DefaultValuedParameter<"::mlir::sdfg::WCRKind",
                           "::mlir::sdfg::WCRKind::none">:$wcr,
    OptionalParameter<"::mlir::StringAttr">:$wcrLambda,
    OptionalParameter<"::mlir::StringAttr">:$data
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Parses the bracketed form `["subset" -> "other", volume "V", ...]`.
    static ::mlir::sdfg::MemletAttr parseBracketed(::mlir::AsmParser &parser);
    /// Prints the bracketed form.
    void printBracketed(::mlir::AsmPrinter &printer) const;
  }];
}

#endif // SDFG_ATTRS_TD
