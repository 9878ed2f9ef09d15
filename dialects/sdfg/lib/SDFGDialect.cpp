//===- SDFGDialect.cpp - sdfg dialect, types and attributes ---------------===//
//
// Registers the dialect and implements what ODS cannot generate for types
// and attributes: the memlet's bracketed syntax and the structural checks of
// container types. Symbolic strings are checked through a hook that the Rust
// side installs, so that one parser (the Rust symbolic engine) decides what
// an expression is.
//
//===----------------------------------------------------------------------===//

#include "sdfg/SDFGDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

#include <atomic>

using namespace mlir;
using namespace mlir::sdfg;

#include "sdfg/SDFGDialect.cpp.inc"
#include "sdfg/SDFGEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "sdfg/SDFGTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "sdfg/SDFGAttrs.cpp.inc"

void SDFGDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "sdfg/SDFGOps.cpp.inc"
      >();
}

void SDFGDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "sdfg/SDFGTypes.cpp.inc"
      >();
}

void SDFGDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "sdfg/SDFGAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Symbolic checks
//===----------------------------------------------------------------------===//

static std::atomic<SymbolicChecker> symbolicChecker{nullptr};

void mlir::sdfg::setSymbolicChecker(SymbolicChecker checker) {
  symbolicChecker.store(checker);
}

static StringRef kindName(SymbolicKind kind) {
  switch (kind) {
  case SymbolicKind::Expression:
  case SymbolicKind::Value:
    return "expression";
  case SymbolicKind::Condition:
    return "condition";
  case SymbolicKind::Subset:
    return "subset";
  }
  return "expression";
}

/// Runs the checker without an op to report to; fills `message` on error.
static std::optional<int> runChecker(StringRef text, SymbolicKind kind,
                                     std::string &message, bool &failed) {
  failed = false;
  SymbolicChecker checker = symbolicChecker.load();
  if (!checker)
    return std::nullopt;
  char buffer[512] = {0};
  int result = checker(static_cast<int>(kind), text.data(), text.size(),
                       buffer, sizeof(buffer));
  if (result < 0) {
    failed = true;
    message = buffer;
    return std::nullopt;
  }
  return result;
}

FailureOr<std::optional<int>>
mlir::sdfg::checkSymbolic(Operation *op, StringRef what, StringRef text,
                          SymbolicKind kind) {
  std::string message;
  bool failed;
  std::optional<int> result = runChecker(text, kind, message, failed);
  if (failed) {
    op->emitOpError() << "invalid " << kindName(kind) << " in " << what
                      << " \"" << text << "\": " << message;
    return failure();
  }
  return result;
}

/// Checks every string of `list` as a symbolic expression; `what` names the
/// list in diagnostics.
static LogicalResult
checkExpressionList(function_ref<InFlightDiagnostic()> emitError,
                    StringRef what, ArrayAttr list) {
  if (!list)
    return success();
  for (Attribute element : list) {
    auto text = dyn_cast<StringAttr>(element);
    if (!text)
      return emitError() << what << " entries must be strings, got "
                         << element;
    std::string message;
    bool failed;
    runChecker(text.getValue(), SymbolicKind::Expression, message, failed);
    if (failed)
      return emitError() << "invalid expression in " << what << " \""
                         << text.getValue() << "\": " << message;
  }
  return success();
}

bool mlir::sdfg::isContainerType(Type type) {
  return isa<ArrayType, ViewType, ReferenceType, ScalarType, StreamType,
             StructureType>(type);
}

unsigned mlir::sdfg::getContainerRank(Type type) {
  return llvm::TypeSwitch<Type, unsigned>(type)
      .Case<ArrayType, ViewType, ReferenceType>(
          [](auto t) { return t.getShape().size(); })
      .Case<StreamType>([](StreamType t) {
        return t.getShape() ? t.getShape().size() : 1;
      })
      .Default([](Type) { return 1; });
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

static LogicalResult
verifyArrayLike(function_ref<InFlightDiagnostic()> emitError, Type elementType,
                ArrayAttr shape, ArrayAttr strides, ArrayAttr offset) {
  if (isContainerType(elementType))
    return emitError() << "element type must not be a container, got "
                       << elementType;
  if (shape.empty())
    return emitError() << "shape must have at least one dimension";
  if (failed(checkExpressionList(emitError, "shape", shape)))
    return failure();
  if (strides && strides.size() != shape.size())
    return emitError() << "expected " << shape.size() << " strides, got "
                       << strides.size();
  if (failed(checkExpressionList(emitError, "strides", strides)))
    return failure();
  if (offset && offset.size() != shape.size())
    return emitError() << "expected " << shape.size() << " offsets, got "
                       << offset.size();
  return checkExpressionList(emitError, "offset", offset);
}

LogicalResult ArrayType::verify(function_ref<InFlightDiagnostic()> emitError,
                                Type elementType, ArrayAttr shape,
                                ArrayAttr strides, ArrayAttr offset,
                                StorageType) {
  return verifyArrayLike(emitError, elementType, shape, strides, offset);
}

LogicalResult ViewType::verify(function_ref<InFlightDiagnostic()> emitError,
                               Type elementType, ArrayAttr shape,
                               ArrayAttr strides, ArrayAttr offset,
                               StorageType) {
  return verifyArrayLike(emitError, elementType, shape, strides, offset);
}

LogicalResult
ReferenceType::verify(function_ref<InFlightDiagnostic()> emitError,
                      Type elementType, ArrayAttr shape, ArrayAttr strides,
                      ArrayAttr offset, StorageType) {
  return verifyArrayLike(emitError, elementType, shape, strides, offset);
}

/// Every element of `types` is a type attribute.
static LogicalResult verifyTypeList(function_ref<InFlightDiagnostic()> emitError,
                                    ArrayAttr types, StringRef what) {
  for (Attribute type : types)
    if (!isa<TypeAttr>(type))
      return emitError() << what << " must be types, got " << type;
  return success();
}

LogicalResult StructType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringAttr, ArrayAttr fields, ArrayAttr types,
                                 DictionaryAttr lengths, int64_t bytes) {
  if (fields.size() != types.size())
    return emitError() << "struct has " << fields.size() << " fields but "
                       << types.size() << " field types";
  for (Attribute field : fields)
    if (!llvm::isa<StringAttr>(field))
      return emitError() << "struct field names must be strings, got "
                         << field;
  if (bytes < 0)
    return emitError() << "struct size must not be negative, got " << bytes;
  if (lengths)
    for (NamedAttribute length : lengths)
      if (!llvm::isa<StringAttr>(length.getValue()))
        return emitError() << "struct field length of " << length.getName()
                           << " must be a string";
  return verifyTypeList(emitError, types, "struct field types");
}

LogicalResult StructureType::verify(function_ref<InFlightDiagnostic()> emitError,
                                    StringAttr, ArrayAttr members,
                                    ArrayAttr types, StorageType) {
  if (members.size() != types.size())
    return emitError() << "structure has " << members.size()
                       << " members but " << types.size() << " member types";
  for (Attribute member : members)
    if (!llvm::isa<StringAttr>(member))
      return emitError() << "structure member names must be strings, got "
                         << member;
  for (Attribute type : types) {
    auto typeAttr = llvm::dyn_cast<TypeAttr>(type);
    if (!typeAttr || !isContainerType(typeAttr.getValue()))
      return emitError() << "structure members must be data containers, got "
                         << type;
  }
  return success();
}

LogicalResult CallbackType::verify(function_ref<InFlightDiagnostic()> emitError,
                                   ArrayAttr arguments, ArrayAttr results) {
  if (failed(verifyTypeList(emitError, arguments, "callback arguments")))
    return failure();
  return verifyTypeList(emitError, results, "callback results");
}

LogicalResult ScalarType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 Type elementType, StorageType) {
  if (isContainerType(elementType))
    return emitError() << "element type must not be a container, got "
                       << elementType;
  return success();
}

LogicalResult StreamType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 Type elementType, ArrayAttr shape,
                                 StringAttr buffer, StorageType) {
  if (isContainerType(elementType))
    return emitError() << "element type must not be a container, got "
                       << elementType;
  if (shape && shape.empty())
    return emitError() << "shape must have at least one dimension";
  if (failed(checkExpressionList(emitError, "shape", shape)))
    return failure();
  if (buffer)
    return checkExpressionList(
        emitError, "buffer size",
        ArrayAttr::get(buffer.getContext(), {buffer}));
  return success();
}

//===----------------------------------------------------------------------===//
// Memlet attribute
//===----------------------------------------------------------------------===//

MemletAttr MemletAttr::parseBracketed(AsmParser &parser) {
  MLIRContext *ctx = parser.getContext();
  std::string subset;
  if (parser.parseLSquare() || parser.parseString(&subset))
    return {};
  StringAttr other, volume, lambda, data;
  bool dynamic = false;
  WCRKind wcr = WCRKind::none;
  if (succeeded(parser.parseOptionalArrow())) {
    std::string text;
    if (parser.parseString(&text))
      return {};
    other = StringAttr::get(ctx, text);
  }
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc loc = parser.getCurrentLocation();
    StringRef keyword;
    if (parser.parseKeyword(&keyword))
      return {};
    if (keyword == "volume") {
      std::string text;
      if (parser.parseString(&text))
        return {};
      volume = StringAttr::get(ctx, text);
    } else if (keyword == "dynamic") {
      dynamic = true;
    } else if (keyword == "data") {
      std::string text;
      if (parser.parseString(&text))
        return {};
      data = StringAttr::get(ctx, text);
    } else if (keyword == "wcr") {
      std::string text;
      if (succeeded(parser.parseOptionalString(&text))) {
        wcr = WCRKind::custom;
        lambda = StringAttr::get(ctx, text);
      } else {
        SMLoc kindLoc = parser.getCurrentLocation();
        StringRef name;
        if (parser.parseKeyword(&name))
          return {};
        std::optional<WCRKind> kind = symbolizeWCRKind(name);
        if (!kind || *kind == WCRKind::none || *kind == WCRKind::custom) {
          parser.emitError(kindLoc)
              << "unknown write-conflict resolution '" << name
              << "' (expected sum, product, min, max, logical_and, "
                 "logical_or, logical_xor, bitwise_and, bitwise_or, "
                 "bitwise_xor, exchange, sub, div or a quoted lambda)";
          return {};
        }
        wcr = *kind;
      }
    } else {
      parser.emitError(loc) << "unknown memlet field '" << keyword
                            << "' (expected volume, dynamic, wcr or data)";
      return {};
    }
  }
  if (parser.parseRSquare())
    return {};
  return MemletAttr::getChecked(
      [&] { return parser.emitError(parser.getCurrentLocation()); }, ctx,
      StringAttr::get(ctx, subset), other, volume, dynamic, wcr, lambda, data);
}

void MemletAttr::printBracketed(AsmPrinter &printer) const {
  printer << "[";
  printer.printString(getSubset().getValue());
  if (getOther()) {
    printer << " -> ";
    printer.printString(getOther().getValue());
  }
  if (getVolume()) {
    printer << ", volume ";
    printer.printString(getVolume().getValue());
  }
  if (getDynamic())
    printer << ", dynamic";
  if (getWcr() == WCRKind::custom) {
    printer << ", wcr ";
    printer.printString(getWcrLambda().getValue());
  } else if (getWcr() != WCRKind::none) {
    printer << ", wcr " << stringifyWCRKind(getWcr());
  }
  if (getData()) {
    printer << ", data ";
    printer.printString(getData().getValue());
  }
  printer << "]";
}

Attribute MemletAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  MemletAttr memlet = parseBracketed(parser);
  if (!memlet || parser.parseGreater())
    return {};
  return memlet;
}

void MemletAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printBracketed(printer);
  printer << ">";
}

LogicalResult MemletAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringAttr subset, StringAttr other,
                                 StringAttr volume, bool, WCRKind wcr,
                                 StringAttr lambda, StringAttr data) {
  if (data && data.getValue().empty())
    return emitError() << "memlet data name must not be empty";
  if (!subset || subset.getValue().trim().empty())
    return emitError() << "memlet subset must not be empty";
  if ((wcr == WCRKind::custom) != static_cast<bool>(lambda))
    return emitError()
           << "a custom write-conflict resolution needs exactly one lambda";
  std::string message;
  bool failed;
  for (auto [what, text] :
       {std::pair<StringRef, StringAttr>{"subset", subset}, {"other", other}}) {
    if (!text)
      continue;
    runChecker(text.getValue(), SymbolicKind::Subset, message, failed);
    if (failed)
      return emitError() << "invalid memlet " << what << " \""
                         << text.getValue() << "\": " << message;
  }
  if (volume) {
    runChecker(volume.getValue(), SymbolicKind::Expression, message, failed);
    if (failed)
      return emitError() << "invalid memlet volume \"" << volume.getValue()
                         << "\": " << message;
  }
  return success();
}
