//===- SDFGDialect.h - sdfg dialect C++ declarations ------------*- C++ -*-===//
//
// The C++ side of the sdfg dialect: the ODS-generated classes plus the hook
// through which verifiers ask the Rust symbolic engine about DaCe-syntax
// expressions.
//
//===----------------------------------------------------------------------===//

#ifndef SDFG_SDFGDIALECT_H
#define SDFG_SDFGDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "sdfg/SDFGEnums.h.inc"
#include "sdfg/SDFGDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "sdfg/SDFGTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "sdfg/SDFGAttrs.h.inc"

#define GET_OP_CLASSES
#include "sdfg/SDFGOps.h.inc"

namespace mlir::sdfg {

/// What a symbolic string is expected to be.
enum class SymbolicKind : int {
  /// An integer expression (sizes, strides, volumes, assignments).
  Expression = 0,
  /// A boolean expression (conditions).
  Condition = 1,
  /// A comma-separated list of Python slices (memlet subsets, map ranges).
  Subset = 2,
  /// An integer expression or a condition (the values of inter-state
  /// assignments, which may set DaCe's `bool` symbols).
  Value = 3,
};

/// Checks a symbolic string. Returns the number of dimensions for subsets,
/// 0 for valid expressions and conditions, and -1 on error after writing a
/// NUL-terminated message into `error` (at most `capacity` bytes).
using SymbolicChecker = int (*)(int kind, const char *text, size_t length,
                                char *error, size_t capacity);

/// Installs the checker that verifiers use for symbolic strings. Without
/// one, only structural rules are verified.
void setSymbolicChecker(SymbolicChecker checker);

/// Runs the installed checker; emits an error on `op` naming `what` when the
/// string is invalid. Returns the dimension count for subsets, 0 otherwise,
/// or std::nullopt when no checker is installed.
FailureOr<std::optional<int>> checkSymbolic(Operation *op, StringRef what,
                                            StringRef text, SymbolicKind kind);

/// Validates one SDFG beyond its structural verifiers (DaCe's validation).
/// Returns failure after emitting diagnostics.
using SDFGValidator = LogicalResult (*)(SDFGOp sdfg);

/// Installs the validator that `sdfg.sdfg`'s verifier runs last, so that
/// tools validate after parsing and after every pass. Without one, only
/// the structural verifiers run.
void setSDFGValidator(SDFGValidator validator);

/// Returns the data container type that a dataflow value refers to, if any.
bool isContainerType(Type type);

/// Number of dimensions of a container type (1 for scalars and streams).
unsigned getContainerRank(Type type);

} // namespace mlir::sdfg

#endif // SDFG_SDFGDIALECT_H
