//===- SDFGOps.cpp - sdfg operations -------------------------------------===//
//
// Parsers, printers and verifiers of the sdfg ops that ODS cannot express:
// the memlet operand lists, the SDFG signature, and the structural rules of
// SDFGs (control-flow regions, scopes, connectors). Semantic rules that need
// the whole SDFG or symbolic reasoning live in the Rust `sdfg-validate` pass.
//
//===----------------------------------------------------------------------===//

#include "sdfg/SDFGDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include <atomic>

using namespace mlir;
using namespace mlir::sdfg;

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

/// Parses `[memlet] : type` after an operand.
static ParseResult parseMemletAndType(OpAsmParser &parser,
                                      SmallVectorImpl<Attribute> &memlets,
                                      SmallVectorImpl<Type> &types) {
  MemletAttr memlet = MemletAttr::parseBracketed(parser);
  if (!memlet)
    return failure();
  memlets.push_back(memlet);
  return parser.parseColonType(types.emplace_back());
}

/// `"name" = %value["subset", ...] : type, ...` (possibly empty).
static ParseResult
parseNamedMemlets(OpAsmParser &parser,
                  SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands,
                  SmallVectorImpl<Type> &types, ArrayAttr &memletsAttr,
                  ArrayAttr &namesAttr) {
  SmallVector<Attribute> memlets, names;
  std::string name;
  if (succeeded(parser.parseOptionalString(&name))) {
    do {
      if (!names.empty() && parser.parseString(&name))
        return failure();
      names.push_back(parser.getBuilder().getStringAttr(name));
      if (parser.parseEqual() || parser.parseOperand(operands.emplace_back()) ||
          parseMemletAndType(parser, memlets, types))
        return failure();
    } while (succeeded(parser.parseOptionalComma()));
  }
  memletsAttr = parser.getBuilder().getArrayAttr(memlets);
  namesAttr = parser.getBuilder().getArrayAttr(names);
  return success();
}

static void printNamedMemlets(OpAsmPrinter &printer, Operation *,
                              OperandRange values, TypeRange types,
                              ArrayAttr memlets, ArrayAttr names) {
  for (auto [index, value] : llvm::enumerate(values)) {
    if (index)
      printer << ", ";
    if (names && index < names.size())
      printer.printAttributeWithoutType(names[index]);
    printer << " = " << value;
    if (auto memlet = dyn_cast_or_null<MemletAttr>(
            memlets && index < memlets.size() ? memlets[index] : Attribute()))
      memlet.printBracketed(printer);
    printer << " : " << types[index];
  }
}

/// `%value["subset", ...] : type, ...` (possibly empty).
static ParseResult
parseMemlets(OpAsmParser &parser,
             SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands,
             SmallVectorImpl<Type> &types, ArrayAttr &memletsAttr) {
  SmallVector<Attribute> memlets;
  OpAsmParser::UnresolvedOperand operand;
  OptionalParseResult first = parser.parseOptionalOperand(operand);
  if (first.has_value()) {
    if (failed(*first))
      return failure();
    operands.push_back(operand);
    if (parseMemletAndType(parser, memlets, types))
      return failure();
    while (succeeded(parser.parseOptionalComma())) {
      if (parser.parseOperand(operands.emplace_back()) ||
          parseMemletAndType(parser, memlets, types))
        return failure();
    }
  }
  memletsAttr = parser.getBuilder().getArrayAttr(memlets);
  return success();
}

static void printMemlets(OpAsmPrinter &printer, Operation *,
                         OperandRange values, TypeRange types,
                         ArrayAttr memlets) {
  for (auto [index, value] : llvm::enumerate(values)) {
    if (index)
      printer << ", ";
    printer << value;
    if (auto memlet = dyn_cast_or_null<MemletAttr>(
            memlets && index < memlets.size() ? memlets[index] : Attribute()))
      memlet.printBracketed(printer);
    printer << " : " << types[index];
  }
}

static ParseResult parseMemlet(OpAsmParser &parser, MemletAttr &memlet) {
  memlet = MemletAttr::parseBracketed(parser);
  return success(static_cast<bool>(memlet));
}

static void printMemlet(OpAsmPrinter &printer, Operation *, MemletAttr memlet) {
  if (memlet)
    memlet.printBracketed(printer);
}

/// `"name" : type, ...` (possibly empty).
/// `"name" : type, ...` (possibly empty); with `byRef`, each type may be
/// followed by `by_ref`.
static ParseResult parseNamedTypeList(OpAsmParser &parser,
                                      SmallVectorImpl<Type> &types,
                                      ArrayAttr &namesAttr,
                                      SmallVectorImpl<bool> *byRef) {
  SmallVector<Attribute> names;
  std::string name;
  if (succeeded(parser.parseOptionalString(&name))) {
    do {
      if (!names.empty() && parser.parseString(&name))
        return failure();
      names.push_back(parser.getBuilder().getStringAttr(name));
      if (parser.parseColonType(types.emplace_back()))
        return failure();
      if (byRef)
        byRef->push_back(succeeded(parser.parseOptionalKeyword("by_ref")));
    } while (succeeded(parser.parseOptionalComma()));
  }
  namesAttr = parser.getBuilder().getArrayAttr(names);
  return success();
}

static ParseResult parseNamedTypes(OpAsmParser &parser,
                                   SmallVectorImpl<Type> &types,
                                   ArrayAttr &namesAttr) {
  return parseNamedTypeList(parser, types, namesAttr, nullptr);
}

/// Prints what `parseNamedTypeList` parses (`byRef` may be null).
static void printNamedTypeList(OpAsmPrinter &printer, TypeRange types,
                               ArrayAttr names, DenseBoolArrayAttr byRef) {
  for (auto [index, type] : llvm::enumerate(types)) {
    if (index)
      printer << ", ";
    if (names && index < names.size())
      printer.printAttributeWithoutType(names[index]);
    printer << " : " << type;
    if (byRef && index < static_cast<size_t>(byRef.size()) && byRef[index])
      printer << " by_ref";
  }
}

static void printNamedTypes(OpAsmPrinter &printer, Operation *,
                            TypeRange types, ArrayAttr names) {
  printNamedTypeList(printer, types, names, {});
}

/// A tasklet's outputs: `"name" : type`, followed by `by_ref` for an
/// output the body writes itself (see `TaskletOp`).
static ParseResult parseTaskletOutputs(OpAsmParser &parser,
                                       SmallVectorImpl<Type> &types,
                                       ArrayAttr &namesAttr,
                                       DenseBoolArrayAttr &byRefAttr) {
  SmallVector<bool> byRef;
  if (failed(parseNamedTypeList(parser, types, namesAttr, &byRef)))
    return failure();
  if (llvm::is_contained(byRef, true))
    byRefAttr = parser.getBuilder().getDenseBoolArrayAttr(byRef);
  return success();
}

static void printTaskletOutputs(OpAsmPrinter &printer, Operation *,
                                TypeRange types, ArrayAttr names,
                                DenseBoolArrayAttr byRef) {
  printNamedTypeList(printer, types, names, byRef);
}

/// `"name" = "expression", ...` (possibly empty).
static ParseResult parseAssignments(OpAsmParser &parser, ArrayAttr &namesAttr,
                                    ArrayAttr &valuesAttr) {
  SmallVector<Attribute> names, values;
  std::string name;
  if (succeeded(parser.parseOptionalString(&name))) {
    do {
      if (!names.empty() && parser.parseString(&name))
        return failure();
      std::string value;
      if (parser.parseEqual() || parser.parseString(&value))
        return failure();
      names.push_back(parser.getBuilder().getStringAttr(name));
      values.push_back(parser.getBuilder().getStringAttr(value));
    } while (succeeded(parser.parseOptionalComma()));
  }
  namesAttr = parser.getBuilder().getArrayAttr(names);
  valuesAttr = parser.getBuilder().getArrayAttr(values);
  return success();
}

static void printAssignments(OpAsmPrinter &printer, Operation *,
                             ArrayAttr names, ArrayAttr values) {
  if (!names || !values)
    return;
  for (auto [index, pair] : llvm::enumerate(llvm::zip(names, values))) {
    if (index)
      printer << ", ";
    printer.printAttributeWithoutType(std::get<0>(pair));
    printer << " = ";
    printer.printAttributeWithoutType(std::get<1>(pair));
  }
}

/// `["i" = "0:N", "j" = "0:M:2"]`.
static ParseResult parseMapRanges(OpAsmParser &parser, ArrayAttr &paramsAttr,
                                  ArrayAttr &rangesAttr) {
  SmallVector<Attribute> params, ranges;
  auto parseOne = [&]() -> ParseResult {
    std::string param, range;
    if (parser.parseString(&param) || parser.parseEqual() ||
        parser.parseString(&range))
      return failure();
    params.push_back(parser.getBuilder().getStringAttr(param));
    ranges.push_back(parser.getBuilder().getStringAttr(range));
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, parseOne))
    return failure();
  paramsAttr = parser.getBuilder().getArrayAttr(params);
  rangesAttr = parser.getBuilder().getArrayAttr(ranges);
  return success();
}

static void printMapRanges(OpAsmPrinter &printer, Operation *,
                           ArrayAttr params, ArrayAttr ranges) {
  printer << "[";
  printAssignments(printer, nullptr, params, ranges);
  printer << "]";
}

#define GET_OP_CLASSES
#include "sdfg/SDFGOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers for verifiers
//===----------------------------------------------------------------------===//

/// Number of entries of an optional array attribute.
static size_t sizeOf(ArrayAttr attr) { return attr ? attr.size() : 0; }
static size_t sizeOf(std::optional<ArrayAttr> attr) {
  return attr ? sizeOf(*attr) : 0;
}

/// Checks that an optional list of names has `expected` unique entries.
/// With `allowUnnamed`, empty names (DaCe edges without a connector) are
/// allowed and may repeat.
static LogicalResult verifyNames(Operation *op, StringRef what, ArrayAttr names,
                                 size_t expected, bool allowUnnamed = false) {
  if (sizeOf(names) != expected)
    return op->emitOpError() << "expected " << expected << " " << what
                             << " names, got " << sizeOf(names);
  llvm::StringSet<> seen;
  for (Attribute name : names ? names.getValue() : ArrayRef<Attribute>()) {
    StringRef text = cast<StringAttr>(name).getValue();
    if (text.empty() && allowUnnamed)
      continue;
    if (text.empty())
      return op->emitOpError() << what << " names must not be empty";
    if (!seen.insert(text).second)
      return op->emitOpError() << "duplicate " << what << " name \"" << text
                               << "\"";
  }
  return success();
}

/// Checks memlets against the values they sit on: one per value, and as
/// many subset dimensions as the container has (when both are known).
static LogicalResult verifyMemlets(Operation *op, StringRef what,
                                   ValueRange values, ArrayAttr memlets) {
  if (sizeOf(memlets) != values.size())
    return op->emitOpError() << "expected " << values.size() << " " << what
                             << " memlets, got " << sizeOf(memlets);
  for (auto [value, attr] : llvm::zip(values, memlets.getValue())) {
    auto memlet = dyn_cast<MemletAttr>(attr);
    if (!memlet)
      return op->emitOpError() << what << " memlets must be #sdfg.memlet, got "
                               << attr;
    if (!isContainerType(value.getType()))
      continue;
    FailureOr<std::optional<int>> dims = checkSymbolic(
        op, "memlet subset", memlet.getSubset().getValue(),
        SymbolicKind::Subset);
    if (failed(dims))
      return failure();
    unsigned rank = getContainerRank(value.getType());
    if (dims->has_value() && static_cast<unsigned>(**dims) != rank)
      return op->emitOpError()
             << "memlet subset \"" << memlet.getSubset().getValue()
             << "\" has " << **dims << " dimensions but " << what
             << " container has " << rank;
  }
  return success();
}

/// Checks that every value used inside `region` (except container operands
/// of access nodes) is defined inside it: dataflow may only cross a scope
/// through the scope's connectors.
static LogicalResult verifyClosedScope(Operation *scope, Region &region,
                                       StringRef what) {
  WalkResult result = region.walk([&](Operation *op) {
    for (OpOperand &use : op->getOpOperands()) {
      if (auto access = dyn_cast<AccessOp>(op))
        if (use.getOperandNumber() == 0)
          continue;
      if (!region.isAncestor(use.get().getParentRegion())) {
        op->emitOpError() << "uses a value defined outside its " << what
                          << " (operand #" << use.getOperandNumber()
                          << "); dataflow must enter through connectors";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

static bool isControlFlowBlock(Operation *op) {
  return isa<StateOp, LoopOp, ConditionalOp, RegionOp, CallRegionOp, BreakOp,
             ContinueOp, ReturnOp>(op);
}

/// Structural rules of a region holding a control-flow graph: only blocks
/// and edges (and, at the SDFG level, transients), edges between sibling
/// blocks, and no edge leaving a break/continue/return block.
static LogicalResult verifyControlFlowBody(Operation *owner, Block &body,
                                           bool allowAllocs) {
  for (Operation &op : body) {
    if (isControlFlowBlock(&op) || isa<EdgeOp>(op))
      continue;
    if (allowAllocs && isa<AllocOp, MemberOp>(op))
      continue;
    return op.emitOpError() << "is not allowed in the control-flow region of '"
                            << owner->getName() << "'";
  }
  // One table per region: looking every edge's ends up in the region
  // would make verification quadratic in the number of blocks.
  llvm::DenseMap<StringAttr, Operation *> blocks;
  for (Operation &op : body)
    if (auto name = op.getAttrOfType<StringAttr>(
            SymbolTable::getSymbolAttrName()))
      blocks.try_emplace(name, &op);
  for (EdgeOp edge : body.getOps<EdgeOp>()) {
    for (FlatSymbolRefAttr ref : {edge.getSrcAttr(), edge.getDstAttr()}) {
      Operation *target = blocks.lookup(ref.getAttr());
      if (!target || !isControlFlowBlock(target))
        return edge.emitOpError() << "references " << ref
                                  << ", which is not a block of this region";
    }
    Operation *src = blocks.lookup(edge.getSrcAttr().getAttr());
    if (isa<BreakOp, ContinueOp, ReturnOp>(src))
      return edge.emitOpError() << "leaves " << edge.getSrcAttr() << ", a '"
                                << src->getName()
                                << "' block, which cannot have successors";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// SDFGOp
//===----------------------------------------------------------------------===//

ParseResult SDFGOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &builder = parser.getBuilder();
  StringAttr name;
  if (parser.parseSymbolName(name, getSymNameAttrName(result.name),
                             result.attributes))
    return failure();
  SmallVector<OpAsmParser::Argument> arguments;
  SmallVector<Attribute> argNames;
  auto parseArgument = [&]() -> ParseResult {
    OpAsmParser::Argument &argument = arguments.emplace_back();
    std::string argName;
    if (parser.parseArgument(argument, /*allowType=*/true) ||
        parser.parseKeyword("as") || parser.parseString(&argName))
      return failure();
    argNames.push_back(builder.getStringAttr(argName));
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren,
                                     parseArgument))
    return failure();
  result.addAttribute(getArgNamesAttrName(result.name),
                      builder.getArrayAttr(argNames));
  DictionaryAttr symbols = builder.getDictionaryAttr({});
  if (succeeded(parser.parseOptionalKeyword("symbols")) &&
      parser.parseAttribute(symbols))
    return failure();
  result.addAttribute(getSymbolsAttrName(result.name), symbols);
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, arguments, /*enableNameShadowing=*/false))
    return failure();
  if (body->empty())
    body->emplaceBlock();
  return success();
}

void SDFGOp::print(OpAsmPrinter &printer) {
  printer << ' ';
  printer.printSymbolName(getSymName());
  printer << '(';
  for (auto [index, argument] : llvm::enumerate(getBody().getArguments())) {
    if (index)
      printer << ", ";
    printer.printRegionArgument(argument);
    printer << " as ";
    if (index < getArgNames().size())
      printer.printAttributeWithoutType(getArgNames()[index]);
  }
  printer << ')';
  if (!getSymbols().empty()) {
    printer << " symbols ";
    printer.printAttributeWithoutType(getSymbols());
  }
  printer.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {getSymNameAttrName(), getArgNamesAttrName(), getSymbolsAttrName()});
  printer << ' ';
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                      /*printBlockTerminators=*/false,
                      /*printEmptyBlock=*/false);
}

void SDFGOp::getAsmBlockArgumentNames(Region &region,
                                      OpAsmSetValueNameFn setNameFn) {
  for (auto [argument, name] :
       llvm::zip(region.getArguments(), getArgNames().getValue()))
    setNameFn(argument, cast<StringAttr>(name).getValue());
}

LogicalResult SDFGOp::verify() {
  Block &body = getBodyBlock();
  if (getArgNames().size() != body.getNumArguments())
    return emitOpError() << "has " << body.getNumArguments()
                         << " arguments but " << getArgNames().size()
                         << " argument names";
  llvm::StringSet<> names;
  for (auto [argument, nameAttr] :
       llvm::zip(body.getArguments(), getArgNames().getValue())) {
    auto name = dyn_cast<StringAttr>(nameAttr);
    if (!name || name.getValue().empty())
      return emitOpError() << "argument names must be non-empty strings";
    if (!isContainerType(argument.getType()))
      return emitOpError() << "argument \"" << name.getValue()
                           << "\" must be a data container, got "
                           << argument.getType();
    if (!names.insert(name.getValue()).second)
      return emitOpError() << "duplicate container name \"" << name.getValue()
                           << "\"";
  }
  for (NamedAttribute symbol : getSymbols()) {
    auto type = dyn_cast<TypeAttr>(symbol.getValue());
    auto complex =
        type ? dyn_cast<ComplexType>(type.getValue()) : ComplexType();
    if (!type ||
        !(type.getValue().isIntOrIndexOrFloat() ||
          (complex && isa<FloatType>(complex.getElementType())) ||
          isa<CallbackType>(type.getValue())))
      return emitOpError() << "symbol \"" << symbol.getName().getValue()
                           << "\" must have an integer, floating-point, "
                              "complex or callback type, got "
                           << symbol.getValue();
    if (names.contains(symbol.getName().getValue()))
      return emitOpError() << "symbol \"" << symbol.getName().getValue()
                           << "\" has the name of a data container";
  }
  return success();
}

static std::atomic<SDFGValidator> sdfgValidator{nullptr};

void mlir::sdfg::setSDFGValidator(SDFGValidator validator) {
  sdfgValidator.store(validator);
}

LogicalResult SDFGOp::verifyRegions() {
  Block &body = getBodyBlock();
  llvm::StringSet<> names;
  for (Attribute name : getArgNames())
    names.insert(cast<StringAttr>(name).getValue());
  for (AllocOp alloc : body.getOps<AllocOp>())
    if (!names.insert(alloc.getName()).second)
      return alloc.emitOpError()
             << "duplicate container name \"" << alloc.getName() << "\"";
  if (failed(verifyControlFlowBody(*this, body, /*allowAllocs=*/true)))
    return failure();
  SDFGValidator validator = sdfgValidator.load();
  return validator ? validator(*this) : success();
}

//===----------------------------------------------------------------------===//
// AllocOp
//===----------------------------------------------------------------------===//

void AllocOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), getName());
}

void MemberOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), getMember());
}

LogicalResult MemberOp::verify() {
  StructureType structure = getStructure().getType();
  for (auto [name, type] :
       llvm::zip(structure.getMembers(), structure.getTypes())) {
    if (cast<StringAttr>(name).getValue() != getMember())
      continue;
    Type memberType = cast<TypeAttr>(type).getValue();
    if (memberType != getResult().getType())
      return emitOpError() << "member \"" << getMember() << "\" has type "
                           << memberType << ", not " << getResult().getType();
    return success();
  }
  return emitOpError() << "structure " << structure.getName()
                       << " has no member \"" << getMember() << "\"";
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

LogicalResult EdgeOp::verify() {
  if (sizeOf(getAssignNames()) != sizeOf(getAssignValues()))
    return emitOpError() << "has " << sizeOf(getAssignNames())
                         << " assigned symbols but "
                         << sizeOf(getAssignValues()) << " values";
  if (getCondition() &&
      failed(checkSymbolic(*this, "condition", *getCondition(),
                           SymbolicKind::Condition)))
    return failure();
  // A value may be a condition: DaCe assigns comparisons to its `bool`
  // symbols (`__tmp2 = (abs(s) > r)`), which are integers 0 and 1.
  if (ArrayAttr values = getAssignValuesAttr())
    for (Attribute value : values)
      if (failed(checkSymbolic(*this, "assignment",
                               cast<StringAttr>(value).getValue(),
                               SymbolicKind::Value)))
        return failure();
  return verifyNames(*this, "assigned symbol", getAssignNamesAttr(),
                     sizeOf(getAssignNames()));
}

LogicalResult LoopOp::verify() {
  if (!getVar() && (getInit() || getUpdate()))
    return emitOpError() << "has init or update but no loop variable";
  if (getVar() && getVar()->empty())
    return emitOpError() << "loop variable must not be empty";
  for (auto [what, text, kind] :
       {std::tuple<StringRef, std::optional<StringRef>, SymbolicKind>{
            "init", getInit(), SymbolicKind::Expression},
        {"update", getUpdate(), SymbolicKind::Expression},
        {"condition", getCond(), SymbolicKind::Condition}})
    if (text && failed(checkSymbolic(*this, what, *text, kind)))
      return failure();
  return success();
}

LogicalResult LoopOp::verifyRegions() {
  return verifyControlFlowBody(*this, getBody().front(), false);
}

LogicalResult ConditionalOp::verifyRegions() {
  Block &body = getBody().front();
  bool sawElse = false;
  for (Operation &op : body) {
    auto branch = dyn_cast<BranchOp>(op);
    if (!branch)
      return op.emitOpError() << "is not allowed in 'sdfg.conditional'; "
                                 "expected 'sdfg.branch'";
    if (sawElse)
      return branch.emitOpError() << "follows the else branch";
    sawElse = !branch.getCondition();
  }
  return success();
}

LogicalResult BranchOp::verifyRegions() {
  if (getCondition() && failed(checkSymbolic(*this, "condition",
                                             *getCondition(),
                                             SymbolicKind::Condition)))
    return failure();
  return verifyControlFlowBody(*this, getBody().front(), false);
}

LogicalResult RegionOp::verifyRegions() {
  return verifyControlFlowBody(*this, getBody().front(), false);
}

LogicalResult CallRegionOp::verifyRegions() {
  if (sizeOf(getArgNames()) != sizeOf(getArgValues()))
    return emitOpError() << "has " << sizeOf(getArgNames())
                         << " argument names but " << sizeOf(getArgValues())
                         << " values";
  return verifyControlFlowBody(*this, getBody().front(), false);
}

/// Break and continue need an enclosing loop in the same SDFG.
static LogicalResult verifyInLoop(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent && !isa<SDFGOp>(parent);
       parent = parent->getParentOp())
    if (isa<LoopOp>(parent))
      return success();
  return op->emitOpError() << "must be nested in an 'sdfg.loop'";
}

LogicalResult BreakOp::verify() { return verifyInLoop(*this); }
LogicalResult ContinueOp::verify() { return verifyInLoop(*this); }
LogicalResult ReturnOp::verify() { return success(); }

//===----------------------------------------------------------------------===//
// Dataflow
//===----------------------------------------------------------------------===//

/// The container behind an access node must be an argument of the enclosing
/// SDFG, one of its transients, or a member of one of those.
static LogicalResult verifyContainer(Operation *op, Value data) {
  auto sdfg = op->getParentOfType<SDFGOp>();
  while (auto member = data.getDefiningOp<MemberOp>()) {
    if (member->getParentOp() != sdfg.getOperation())
      break;
    data = member.getStructure();
  }
  if (auto argument = dyn_cast<BlockArgument>(data)) {
    if (sdfg && argument.getOwner() == &sdfg.getBodyBlock())
      return success();
  } else if (auto alloc = data.getDefiningOp<AllocOp>()) {
    if (alloc->getParentOp() == sdfg.getOperation())
      return success();
  }
  return op->emitOpError() << "accesses a value that is not a data container "
                              "of the enclosing 'sdfg.sdfg'";
}

/// The DaCe name of a container value, if it is one.
static std::optional<StringRef> containerName(Value data) {
  if (auto argument = dyn_cast<BlockArgument>(data)) {
    auto sdfg = dyn_cast_or_null<SDFGOp>(argument.getOwner()->getParentOp());
    if (sdfg && argument.getArgNumber() < sdfg.getArgNames().size())
      return cast<StringAttr>(sdfg.getArgNames()[argument.getArgNumber()])
          .getValue();
  } else if (auto alloc = data.getDefiningOp<AllocOp>()) {
    return alloc.getName();
  }
  return std::nullopt;
}

void AccessOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  if (std::optional<StringRef> name = containerName(getData()))
    setNameFn(getResult(), *name);
}

/// Names the entry block arguments of a region after connector names.
static void nameArguments(Region &region, ArrayAttr names,
                          OpAsmSetValueNameFn setNameFn, size_t first = 0) {
  if (!names || region.empty())
    return;
  for (auto [index, name] : llvm::enumerate(names)) {
    if (first + index >= region.getNumArguments())
      return;
    setNameFn(region.getArgument(first + index),
              cast<StringAttr>(name).getValue());
  }
}

void TaskletOp::getAsmBlockArgumentNames(Region &region,
                                         OpAsmSetValueNameFn setNameFn) {
  nameArguments(region, getInNamesAttr(), setNameFn);
  ArrayAttr outNames = getOutNamesAttr();
  if (region.empty() || !outNames)
    return;
  unsigned next = getInputs().size();
  for (auto [index, name] : llvm::enumerate(outNames))
    if (isByRef(index) && next < region.getNumArguments())
      setNameFn(region.getArgument(next++), cast<StringAttr>(name).getValue());
}

void MapOp::getAsmBlockArgumentNames(Region &region,
                                     OpAsmSetValueNameFn setNameFn) {
  nameArguments(region, getInNamesAttr(), setNameFn);
  nameArguments(region, getDynNamesAttr(), setNameFn, getInputs().size());
}

LogicalResult AccessOp::verify() {
  if (failed(verifyContainer(*this, getData())))
    return failure();
  if (failed(verifyMemlets(*this, "write", getWrites(),
                           getWriteMemlets()
                               ? *getWriteMemlets()
                               : ArrayAttr::get(getContext(), {}))))
    return failure();
  if (getSource()) {
    if (!isa<ViewType, ReferenceType>(getData().getType()))
      return emitOpError() << "binds a container of type "
                           << getData().getType()
                           << "; only views and references can be bound";
    if (!getSourceMemlet())
      return emitOpError() << "needs a memlet for its bound data";
    return verifyMemlets(*this, "bound", getSource(),
                         ArrayAttr::get(getContext(), {*getSourceMemlet()}));
  }
  if (getSourceMemlet())
    return emitOpError() << "has a bind memlet but no bound data";
  return success();
}

/// Connector rules shared by tasklets, scopes, nested SDFGs and library
/// nodes.
static LogicalResult verifyConnectors(Operation *op, ValueRange inputs,
                                      std::optional<ArrayAttr> inMemlets,
                                      std::optional<ArrayAttr> inNames,
                                      size_t numOutputs,
                                      std::optional<ArrayAttr> outNames,
                                      bool allowUnnamed = false) {
  ArrayAttr empty = ArrayAttr::get(op->getContext(), {});
  if (failed(verifyNames(op, "input connector", inNames.value_or(empty),
                         inputs.size(), allowUnnamed)) ||
      failed(verifyNames(op, "output connector", outNames.value_or(empty),
                         numOutputs, allowUnnamed)))
    return failure();
  return verifyMemlets(op, "input", inputs, inMemlets.value_or(empty));
}

LogicalResult TaskletOp::verify() {
  if (failed(verifyConnectors(*this, getInputs(), getInMemlets(), getInNames(),
                              getNumResults(), getOutNames())))
    return failure();
  bool hasBody = !getBody().empty();
  bool hasCode = getCode().has_value();
  if (hasBody == hasCode)
    return emitOpError() << "needs either an MLIR body or foreign code";
  if (hasCode && (!getLanguage() || *getLanguage() == Language::mlir))
    return emitOpError() << "foreign code needs the language python or cpp";
  for (Type type : getResultTypes())
    if (isContainerType(type))
      return emitOpError() << "output connectors carry values, not "
                              "containers; got "
                           << type;
  if (auto byRef = getByRefAttr()) {
    if (static_cast<size_t>(byRef.size()) != getNumResults())
      return emitOpError() << "marks " << byRef.size()
                           << " outputs by_ref or not, but has "
                           << getNumResults() << " outputs";
    if (hasCode && llvm::is_contained(byRef.asArrayRef(), true))
      return emitOpError() << "by_ref outputs need an MLIR body";
  }
  return success();
}

bool TaskletOp::isByRef(unsigned index) {
  auto byRef = getByRefAttr();
  return byRef && index < static_cast<unsigned>(byRef.size()) &&
         byRef[index];
}

LogicalResult TaskletOp::verifyRegions() {
  if (getBody().empty())
    return success();
  Block &entry = getBody().front();
  SmallVector<Type> yielded;
  unsigned numByRef = 0;
  for (auto [index, type] : llvm::enumerate(getResultTypes())) {
    if (!isByRef(index)) {
      yielded.push_back(type);
      continue;
    }
    unsigned argIndex = getInputs().size() + numByRef++;
    if (argIndex >= entry.getNumArguments())
      break;
    Type argType = entry.getArgument(argIndex).getType();
    if (!isa<MemRefType, StreamType>(argType))
      return emitOpError() << "by_ref output " << index
                           << " needs a memref or stream argument; got "
                           << argType;
  }
  if (entry.getNumArguments() != getInputs().size() + numByRef)
    return emitOpError() << "body has " << entry.getNumArguments()
                         << " arguments for " << getInputs().size()
                         << " input connectors and " << numByRef
                         << " by_ref outputs";
  for (Block &block : getBody()) {
    auto yield = dyn_cast<YieldOp>(block.getTerminator());
    if (!yield)
      continue;
    if (yield.getValues().getTypes() != TypeRange(yielded))
      return yield.emitOpError()
             << "yields " << yield.getValues().getTypes()
             << " but the tasklet's outputs that are not by_ref are "
             << TypeRange(yielded);
  }
  return success();
}

void TaskletOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  ArrayAttr names = getOutNamesAttr();
  if (!names)
    return;
  for (auto [result, name] : llvm::zip(getResults(), names))
    setNameFn(result, cast<StringAttr>(name).getValue());
}

/// Rules shared by the exits of maps and consume scopes: every exit edge
/// names an output connector, and every output connector has an edge.
static LogicalResult verifyScopeExit(Operation *scope, Region &body,
                                     std::optional<ArrayAttr> outNames) {
  auto exit = dyn_cast<ExitOp>(body.front().getTerminator());
  if (!exit)
    return scope->emitOpError() << "region must end in 'sdfg.exit'";
  for (Operation &op : body.front().without_terminator())
    if (!isa<AccessOp, TaskletOp, MapOp, ConsumeOp, NestedOp, LibraryOp>(op))
      return op.emitOpError() << "is not a dataflow node and cannot appear in '"
                              << scope->getName() << "'";
  llvm::StringSet<> outputs, fed;
  if (outNames)
    for (Attribute name : *outNames)
      outputs.insert(cast<StringAttr>(name).getValue());
  for (Attribute name : exit.getNames()) {
    StringRef text = cast<StringAttr>(name).getValue();
    if (!outputs.contains(text))
      return exit.emitOpError() << "flows to \"" << text
                                << "\", which is not an output connector of '"
                                << scope->getName() << "'";
    fed.insert(text);
  }
  for (const auto &output : outputs)
    if (!fed.contains(output.getKey()))
      return exit.emitOpError() << "has no edge to output connector \""
                                << output.getKey() << "\"";
  return verifyClosedScope(scope, body, "scope");
}

LogicalResult ExitOp::verify() {
  if (getNames().size() != getValues().size())
    return emitOpError() << "has " << getValues().size() << " values but "
                         << getNames().size() << " connector names";
  for (Attribute name : getNames())
    if (cast<StringAttr>(name).getValue().empty())
      return emitOpError() << "connector names must not be empty";
  if (sizeOf(getMemlets()) != getValues().size())
    return emitOpError() << "expected " << getValues().size()
                         << " memlets, got " << sizeOf(getMemlets());
  for (Attribute memlet : getMemlets())
    if (!isa<MemletAttr>(memlet))
      return emitOpError() << "memlets must be #sdfg.memlet, got " << memlet;
  return success();
}

/// Block arguments of a scope must mirror its inputs.
static LogicalResult verifyScopeArguments(Operation *op, Block &entry,
                                          TypeRange leading,
                                          ValueRange inputs) {
  SmallVector<Type> expected(leading.begin(), leading.end());
  llvm::append_range(expected, inputs.getTypes());
  if (entry.getArgumentTypes() != TypeRange(expected))
    return op->emitOpError()
           << "region arguments " << entry.getArgumentTypes()
           << " do not match the scope's connectors " << TypeRange(expected);
  return success();
}

LogicalResult MapOp::verify() {
  if (getParams().empty())
    return emitOpError() << "needs at least one parameter";
  if (getParams().size() != getRanges().size())
    return emitOpError() << "has " << getParams().size() << " parameters but "
                         << getRanges().size() << " ranges";
  if (failed(verifyNames(*this, "parameter", getParams(), getParams().size())))
    return failure();
  for (Attribute range : getRanges()) {
    FailureOr<std::optional<int>> dims =
        checkSymbolic(*this, "map range", cast<StringAttr>(range).getValue(),
                      SymbolicKind::Subset);
    if (failed(dims))
      return failure();
    if (dims->has_value() && **dims != 1)
      return emitOpError() << "map range " << range
                           << " must be one-dimensional";
  }
  if (getCollapse() && *getCollapse() < 1)
    return emitOpError() << "collapse must be positive, got "
                         << *getCollapse();
  if (failed(verifyConnectors(*this, getInputs(), getInMemlets(), getInNames(),
                              getNumResults(), getOutNames())))
    return failure();
  ArrayAttr empty = ArrayAttr::get(getContext(), {});
  if (failed(verifyNames(*this, "dynamic input", getDynNames().value_or(empty),
                         getDynamicInputs().size())))
    return failure();
  return verifyMemlets(*this, "dynamic input", getDynamicInputs(),
                       getDynMemlets().value_or(empty));
}

LogicalResult MapOp::verifyRegions() {
  SmallVector<Value> inputs(getInputs());
  llvm::append_range(inputs, getDynamicInputs());
  if (failed(verifyScopeArguments(*this, getBody().front(), {}, inputs)))
    return failure();
  return verifyScopeExit(*this, getBody(), getOutNames());
}

LogicalResult ConsumeOp::verify() {
  if (!isa<StreamType>(getStream().getType()))
    return emitOpError() << "consumes " << getStream().getType()
                         << ", which is not a stream";
  if (getPe().empty())
    return emitOpError() << "needs a processing-element symbol";
  if (failed(checkSymbolic(*this, "number of processing elements",
                           getNumPes(), SymbolicKind::Expression)))
    return failure();
  if (getQuiescence() &&
      failed(checkSymbolic(*this, "quiescence condition", *getQuiescence(),
                           SymbolicKind::Condition)))
    return failure();
  // DaCe's chunk size is an integer property, not a symbolic expression.
  int64_t chunk = 0;
  if (getChunksize() && (getChunksize()->trim().getAsInteger(10, chunk) || chunk < 1))
    return emitOpError() << "chunk size \"" << *getChunksize()
                         << "\" is not a positive integer";
  return verifyConnectors(*this, getInputs(), getInMemlets(), getInNames(),
                          getNumResults(), getOutNames());
}

/// Whether `chunksize` is absent or the literal 1: the scope then takes one
/// element at a time.
static bool takesSingleElements(std::optional<StringRef> chunksize) {
  return !chunksize || chunksize->trim() == "1";
}

LogicalResult ConsumeOp::verifyRegions() {
  Type element = cast<StreamType>(getStream().getType()).getElementType();
  Type taken = element;
  if (!takesSingleElements(getChunksize())) {
    // A chunk: a one-dimensional array of `chunksize` elements.
    MLIRContext *ctx = getContext();
    taken = ArrayType::get(
        ctx, element,
        ArrayAttr::get(ctx, {StringAttr::get(ctx, getChunksize()->trim())}),
        ArrayAttr(), ArrayAttr(), StorageType::Default);
  }
  if (failed(verifyScopeArguments(*this, getBody().front(), {taken},
                                  getInputs())))
    return failure();
  return verifyScopeExit(*this, getBody(), getOutNames());
}

SDFGOp NestedOp::getNestedSDFG() {
  Block &body = getBody().front();
  if (body.empty())
    return {};
  return dyn_cast<SDFGOp>(body.front());
}

LogicalResult NestedOp::verify() {
  if (failed(verifyConnectors(*this, getInputs(), getInMemlets(), getInNames(),
                              getNumResults(), getOutNames())))
    return failure();
  if (sizeOf(getSymbolNames()) != sizeOf(getSymbolValues()))
    return emitOpError() << "has " << sizeOf(getSymbolNames())
                         << " mapped symbols but " << sizeOf(getSymbolValues())
                         << " values";
  if (ArrayAttr values = getSymbolValuesAttr())
    for (Attribute value : values)
      if (failed(checkSymbolic(*this, "symbol mapping",
                               cast<StringAttr>(value).getValue(),
                               SymbolicKind::Expression)))
        return failure();
  return success();
}

LogicalResult NestedOp::verifyRegions() {
  Block &body = getBody().front();
  if (!llvm::hasSingleElement(body) || !isa<SDFGOp>(body.front()))
    return emitOpError() << "region must hold exactly one 'sdfg.sdfg'";
  SDFGOp inner = getNestedSDFG();
  llvm::StringMap<Type> arguments;
  for (auto [name, argument] :
       llvm::zip(inner.getArgNames(), inner.getBodyBlock().getArguments()))
    arguments[cast<StringAttr>(name).getValue()] = argument.getType();
  llvm::StringSet<> connected;
  auto check = [&](std::optional<ArrayAttr> names) -> LogicalResult {
    if (!names)
      return success();
    for (Attribute name : *names) {
      StringRef text = cast<StringAttr>(name).getValue();
      if (!arguments.count(text))
        return emitOpError() << "connector \"" << text
                             << "\" is not an argument of the nested SDFG @"
                             << inner.getSymName();
      connected.insert(text);
    }
    return success();
  };
  if (failed(check(getInNames())) || failed(check(getOutNames())))
    return failure();
  for (const auto &argument : arguments)
    if (!connected.contains(argument.getKey()))
      return emitOpError() << "argument \"" << argument.getKey()
                           << "\" of the nested SDFG @" << inner.getSymName()
                           << " has no connector";
  return success();
}

LogicalResult LibraryOp::verify() {
  if (getClassPath().empty())
    return emitOpError() << "needs a class path";
  return verifyConnectors(*this, getInputs(), getInMemlets(), getInNames(),
                          getNumResults(), getOutNames(),
                          /*allowUnnamed=*/true);
}

LogicalResult StateOp::verifyRegions() {
  for (Operation &op : getBody().front())
    if (!isa<AccessOp, TaskletOp, MapOp, ConsumeOp, NestedOp, LibraryOp>(op))
      return op.emitOpError() << "is not a dataflow node and cannot appear in "
                                 "'sdfg.state'";
  return verifyClosedScope(*this, getBody(), "state");
}

/// Ops that only make sense in a tasklet's computation.
static LogicalResult verifyInTasklet(Operation *op) {
  if (!op->getParentOfType<TaskletOp>())
    return op->emitOpError() << "must be nested in an 'sdfg.tasklet' body";
  return success();
}

LogicalResult SymOp::verify() {
  if (failed(verifyInTasklet(*this)))
    return failure();
  return success(succeeded(checkSymbolic(*this, "expression", getExpr(),
                                         SymbolicKind::Expression)));
}

LogicalResult PushOp::verify() { return verifyInTasklet(*this); }

LogicalResult PrintfOp::verify() {
  if (failed(verifyInTasklet(*this)))
    return failure();
  // Counts the arguments the format reads, checking each conversion.
  StringRef format = getFormat();
  size_t reads = 0;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%')
      continue;
    size_t start = i++;
    if (i < format.size() && format[i] == '%')
      continue;
    while (i < format.size() && StringRef("-+ #0'").contains(format[i]))
      ++i;
    for (int part = 0; part < 2; ++part) {
      if (part == 1) {
        if (i >= format.size() || format[i] != '.')
          break;
        ++i;
      }
      if (i < format.size() && format[i] == '*') {
        ++reads;
        ++i;
      }
      while (i < format.size() && llvm::isDigit(format[i]))
        ++i;
    }
    while (i < format.size() && StringRef("hljztL").contains(format[i]))
      ++i;
    if (i >= format.size() || !StringRef("diouxXcfFeEgGaA").contains(format[i]))
      return emitOpError() << "format \"" << format << "\" has the conversion \""
                           << format.substr(start, i + 1 - start)
                           << "\", which cannot print a number";
    if (format[i - 1] == 'L')
      return emitOpError() << "format \"" << format
                           << "\" reads a long double, which a tasklet has not";
    ++reads;
  }
  if (reads != getArgs().size())
    return emitOpError() << "format \"" << format << "\" reads " << reads
                         << " arguments but " << getArgs().size()
                         << " are given";
  return success();
}
LogicalResult PopOp::verify() { return verifyInTasklet(*this); }

LogicalResult InvokeOp::verify() {
  if (getSymbolNames().size() != getSymbolValues().size())
    return emitOpError() << "names " << getSymbolNames().size()
                         << " symbols but binds " << getSymbolValues().size()
                         << " values";
  if ((*this)->getParentOfType<SDFGOp>())
    return emitOpError() << "must be outside every 'sdfg.sdfg' (nested SDFGs "
                            "are called with 'sdfg.nested')";
  return success();
}

LogicalResult
InvokeOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto callee =
      symbolTable.lookupNearestSymbolFrom<SDFGOp>(*this, getCalleeAttr());
  if (!callee)
    return emitOpError() << "'" << getCallee()
                         << "' does not name an 'sdfg.sdfg'";
  size_t arguments = callee.getBody().front().getNumArguments();
  if (arguments != getData().size())
    return emitOpError() << "passes " << getData().size()
                         << " memrefs but '" << getCallee() << "' takes "
                         << arguments << " containers";
  return success();
}
