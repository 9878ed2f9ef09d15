//===- CAPI.cpp - C API of the sdfg dialect -------------------------------===//
//
// C accessors for the dialect's types and attributes, which the MLIR C API
// cannot provide for a dialect it does not know.
//
//===----------------------------------------------------------------------===//

#include "sdfg-c/SDFG.h"
#include "sdfg/SDFGDialect.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/IntegerSet.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "llvm/ADT/TypeSwitch.h"

#include <atomic>

using namespace mlir;
using namespace mlir::sdfg;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(SDFG, sdfg, mlir::sdfg::SDFGDialect)

int sdfgContainerKind(MlirType type) {
  return llvm::TypeSwitch<Type, int>(unwrap(type))
      .Case<ArrayType>([](auto) { return SdfgArray; })
      .Case<ViewType>([](auto) { return SdfgView; })
      .Case<ReferenceType>([](auto) { return SdfgReference; })
      .Case<ScalarType>([](auto) { return SdfgScalar; })
      .Case<StreamType>([](auto) { return SdfgStream; })
      .Case<StructureType>([](auto) { return SdfgStructure; })
      .Default([](auto) { return SdfgNotAContainer; });
}

MlirType sdfgContainerElementType(MlirType type) {
  return wrap(llvm::TypeSwitch<Type, Type>(unwrap(type))
                  .Case<ArrayType, ViewType, ReferenceType, ScalarType,
                        StreamType>([](auto t) { return t.getElementType(); })
                  .Case<StructureType>([](StructureType t) -> Type {
                    return NoneType::get(t.getContext());
                  })
                  .Default([](Type) { return Type(); }));
}

MlirAttribute sdfgContainerShape(MlirType type) {
  return wrap(llvm::TypeSwitch<Type, Attribute>(unwrap(type))
                  .Case<ArrayType, ViewType, ReferenceType, StreamType>(
                      [](auto t) { return t.getShape(); })
                  .Default([](Type) { return Attribute(); }));
}

MlirAttribute sdfgContainerStrides(MlirType type) {
  return wrap(llvm::TypeSwitch<Type, Attribute>(unwrap(type))
                  .Case<ArrayType, ViewType, ReferenceType>(
                      [](auto t) { return t.getStrides(); })
                  .Default([](Type) { return Attribute(); }));
}

MlirAttribute sdfgContainerOffset(MlirType type) {
  return wrap(llvm::TypeSwitch<Type, Attribute>(unwrap(type))
                  .Case<ArrayType, ViewType, ReferenceType>(
                      [](auto t) { return t.getOffset(); })
                  .Default([](Type) { return Attribute(); }));
}

int sdfgContainerStorage(MlirType type) {
  return llvm::TypeSwitch<Type, int>(unwrap(type))
      .Case<ArrayType, ViewType, ReferenceType, ScalarType, StreamType,
            StructureType>(
          [](auto t) { return static_cast<int>(t.getStorage()); })
      .Default([](Type) { return -1; });
}

MlirAttribute sdfgStreamBuffer(MlirType type) {
  if (auto stream = dyn_cast<StreamType>(unwrap(type)))
    return wrap(Attribute(stream.getBuffer()));
  return wrap(Attribute());
}

int sdfgElementTypeKind(MlirType type) {
  return llvm::TypeSwitch<Type, int>(unwrap(type))
      .Case<PointerType>([](auto) { return SdfgPointer; })
      .Case<StructType>([](auto) { return SdfgStruct; })
      .Case<sdfg::OpaqueType>([](auto) { return SdfgOpaque; })
      .Case<CallbackType>([](auto) { return SdfgCallback; })
      .Default([](auto) { return SdfgNotAnElementType; });
}

MlirType sdfgPointerPointee(MlirType type) {
  if (auto pointer = dyn_cast<PointerType>(unwrap(type)))
    return wrap(pointer.getPointee());
  return wrap(Type());
}

MlirAttribute sdfgTypeName(MlirType type) {
  return wrap(llvm::TypeSwitch<Type, Attribute>(unwrap(type))
                  .Case<StructType, StructureType>(
                      [](auto t) { return t.getName(); })
                  .Case<sdfg::OpaqueType>(
                      [](sdfg::OpaqueType t) { return t.getCtype(); })
                  .Default([](Type) { return Attribute(); }));
}

MlirAttribute sdfgTypeFieldNames(MlirType type) {
  return wrap(llvm::TypeSwitch<Type, Attribute>(unwrap(type))
                  .Case<StructType>([](StructType t) { return t.getFields(); })
                  .Case<StructureType>(
                      [](StructureType t) { return t.getMembers(); })
                  .Default([](Type) { return Attribute(); }));
}

MlirAttribute sdfgTypeFieldTypes(MlirType type) {
  return wrap(llvm::TypeSwitch<Type, Attribute>(unwrap(type))
                  .Case<StructType, StructureType>(
                      [](auto t) { return t.getTypes(); })
                  .Case<CallbackType>(
                      [](CallbackType t) { return t.getArguments(); })
                  .Default([](Type) { return Attribute(); }));
}

MlirAttribute sdfgCallbackResults(MlirType type) {
  if (auto callback = dyn_cast<CallbackType>(unwrap(type)))
    return wrap(Attribute(callback.getResults()));
  return wrap(Attribute());
}

MlirAttribute sdfgStructLengths(MlirType type) {
  if (auto record = dyn_cast<StructType>(unwrap(type)))
    return wrap(Attribute(record.getLengths()));
  return wrap(Attribute());
}

int64_t sdfgStructBytes(MlirType type) {
  if (auto record = dyn_cast<StructType>(unwrap(type)))
    return record.getBytes();
  return -1;
}

MlirIntegerSet sdfgIntegerSetAttrGetValue(MlirAttribute attr) {
  if (auto set = dyn_cast<IntegerSetAttr>(unwrap(attr)))
    return wrap(set.getValue());
  return MlirIntegerSet{nullptr};
}

MlirType sdfgContainerTypeGet(MlirContext ctx, int kind, MlirType element,
                              MlirAttribute shape, MlirAttribute strides,
                              MlirAttribute offset, int storage,
                              MlirAttribute buffer) {
  MLIRContext *context = unwrap(ctx);
  auto emitError = [&] { return mlir::emitError(UnknownLoc::get(context)); };
  auto storageEnum = symbolizeStorageType(storage);
  if (!storageEnum)
    return wrap(Type());
  auto shapeAttr = dyn_cast_or_null<ArrayAttr>(unwrap(shape));
  auto stridesAttr = dyn_cast_or_null<ArrayAttr>(unwrap(strides));
  auto offsetAttr = dyn_cast_or_null<ArrayAttr>(unwrap(offset));
  Type elementType = unwrap(element);
  switch (kind) {
  case SdfgArray:
    if (!shapeAttr)
      return wrap(Type());
    return wrap(ArrayType::getChecked(emitError, context, elementType,
                                      shapeAttr, stridesAttr, offsetAttr,
                                      *storageEnum));
  case SdfgView:
    if (!shapeAttr)
      return wrap(Type());
    return wrap(ViewType::getChecked(emitError, context, elementType,
                                     shapeAttr, stridesAttr, offsetAttr,
                                     *storageEnum));
  case SdfgReference:
    if (!shapeAttr)
      return wrap(Type());
    return wrap(ReferenceType::getChecked(emitError, context, elementType,
                                          shapeAttr, stridesAttr, offsetAttr,
                                          *storageEnum));
  case SdfgScalar:
    return wrap(ScalarType::getChecked(emitError, context, elementType,
                                       *storageEnum));
  case SdfgStream:
    return wrap(StreamType::getChecked(
        emitError, context, elementType, shapeAttr,
        dyn_cast_or_null<StringAttr>(unwrap(buffer)), *storageEnum));
  default:
    return wrap(Type());
  }
}

bool sdfgAttributeIsMemlet(MlirAttribute attr) {
  return isa<MemletAttr>(unwrap(attr));
}

MlirAttribute sdfgMemletSubset(MlirAttribute memlet) {
  return wrap(Attribute(cast<MemletAttr>(unwrap(memlet)).getSubset()));
}
MlirAttribute sdfgMemletOther(MlirAttribute memlet) {
  return wrap(Attribute(cast<MemletAttr>(unwrap(memlet)).getOther()));
}
MlirAttribute sdfgMemletVolume(MlirAttribute memlet) {
  return wrap(Attribute(cast<MemletAttr>(unwrap(memlet)).getVolume()));
}
bool sdfgMemletDynamic(MlirAttribute memlet) {
  return cast<MemletAttr>(unwrap(memlet)).getDynamic();
}
int sdfgMemletWcr(MlirAttribute memlet) {
  return static_cast<int>(cast<MemletAttr>(unwrap(memlet)).getWcr());
}
MlirAttribute sdfgMemletWcrLambda(MlirAttribute memlet) {
  return wrap(Attribute(cast<MemletAttr>(unwrap(memlet)).getWcrLambda()));
}

MlirAttribute sdfgMemletData(MlirAttribute memlet) {
  return wrap(Attribute(cast<MemletAttr>(unwrap(memlet)).getData()));
}

MlirAttribute sdfgMemletGet(MlirContext ctx, MlirStringRef subset,
                            MlirAttribute other, MlirAttribute volume,
                            bool dynamic, int wcr, MlirAttribute lambda,
                            MlirAttribute data) {
  MLIRContext *context = unwrap(ctx);
  auto wcrKind = symbolizeWCRKind(wcr);
  if (!wcrKind)
    return wrap(Attribute());
  return wrap(MemletAttr::getChecked(
      [&] { return mlir::emitError(UnknownLoc::get(context)); }, context,
      StringAttr::get(context, unwrap(subset)),
      dyn_cast_or_null<StringAttr>(unwrap(other)),
      dyn_cast_or_null<StringAttr>(unwrap(volume)), dynamic, *wcrKind,
      dyn_cast_or_null<StringAttr>(unwrap(lambda)),
      dyn_cast_or_null<StringAttr>(unwrap(data))));
}

template <typename Enum, typename Symbolize, typename Stringify>
static MlirStringRef enumName(int value, Symbolize symbolize,
                              Stringify stringify) {
  std::optional<Enum> symbol = symbolize(value);
  return wrap(symbol ? stringify(*symbol) : StringRef());
}

MlirStringRef sdfgScheduleName(int value) {
  return enumName<ScheduleType>(
      value, [](int v) { return symbolizeScheduleType(v); },
      [](ScheduleType v) { return stringifyScheduleType(v); });
}
MlirStringRef sdfgStorageName(int value) {
  return enumName<StorageType>(
      value, [](int v) { return symbolizeStorageType(v); },
      [](StorageType v) { return stringifyStorageType(v); });
}
MlirStringRef sdfgLifetimeName(int value) {
  return enumName<LifetimeType>(
      value, [](int v) { return symbolizeLifetimeType(v); },
      [](LifetimeType v) { return stringifyLifetimeType(v); });
}
MlirStringRef sdfgWcrName(int value) {
  return enumName<WCRKind>(
      value, [](int v) { return symbolizeWCRKind(v); },
      [](WCRKind v) { return stringifyWCRKind(v); });
}

int sdfgEnumAttrValue(MlirAttribute attr) {
  if (auto integer = dyn_cast_or_null<IntegerAttr>(unwrap(attr)))
    return static_cast<int>(integer.getInt());
  return -1;
}

MlirAttribute sdfgOperationAttrDictionary(MlirOperation op) {
  return wrap(unwrap(op)->getAttrDictionary());
}

void sdfgSetSymbolicChecker(SdfgSymbolicChecker checker) {
  setSymbolicChecker(checker);
}

static std::atomic<SdfgValidator> cValidator{nullptr};

void sdfgEmitError(MlirLocation location, MlirStringRef message) {
  // The std::string is copied into the diagnostic, which may outlive the
  // caller's buffer (diagnostics collected and reported later).
  mlir::emitError(unwrap(location)) << std::string(message.data, message.length);
}

void sdfgEmitWarning(MlirLocation location, MlirStringRef message) {
  mlir::emitWarning(unwrap(location)) << std::string(message.data, message.length);
}

void sdfgEmitRemark(MlirLocation location, MlirStringRef message) {
  mlir::emitRemark(unwrap(location)) << std::string(message.data, message.length);
}

void sdfgSetValidator(SdfgValidator validator) {
  cValidator.store(validator);
  setSDFGValidator(validator ? +[](SDFGOp sdfg) -> LogicalResult {
    return success(cValidator.load()(wrap(sdfg.getOperation())) == 0);
  }
                             : nullptr);
}
