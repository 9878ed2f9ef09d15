//===- Tools.cpp - tool mains and Rust pass/translation shims -------------===//
//
// The shims that let Rust code take part in MLIR's C++ drivers: a Pass
// subclass that forwards to Rust callbacks (so Rust passes are registered
// under pipeline names, with options), translation registrations that call
// Rust functions, and the `sdfg-opt` / `sdfg-translate` mains on
// MlirOptMain / mlirTranslateMain.
//
//===----------------------------------------------------------------------===//

#include "sdfg-c/SDFG.h"
#include "sdfg/SDFGDialect.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/InitAllTranslations.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/SourceMgr.h"

#include <deque>

using namespace mlir;

namespace {

/// Owns the TypeIDs of Rust passes: one per registered pass, alive for the
/// whole process as MLIR requires.
TypeIDAllocator &passTypeIDs() {
  static TypeIDAllocator allocator;
  return allocator;
}

/// Keeps the strings of registrations alive for the process lifetime.
std::deque<std::string> &registeredStrings() {
  static std::deque<std::string> strings;
  return strings;
}

StringRef keep(MlirStringRef text) {
  return registeredStrings().emplace_back(text.data, text.length);
}

/// A pass whose behaviour lives in Rust.
class RustPass : public Pass {
public:
  RustPass(TypeID id, StringRef argument, StringRef description,
           std::optional<StringRef> opName, SdfgPassCallbacks callbacks,
           void *state)
      : Pass(id, opName), argument(argument), description(description),
        callbacks(callbacks), state(state) {}
  ~RustPass() override { callbacks.destroy(state); }

  StringRef getArgument() const override { return argument; }
  StringRef getDescription() const override { return description; }
  StringRef getName() const override { return argument; }

  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    char message[512] = {0};
    if (callbacks.setOptions(state, wrap(options), message, sizeof(message)))
      return errorHandler(Twine(message));
    return success();
  }

  void runOnOperation() override {
    if (callbacks.run(state, wrap(getOperation())))
      signalPassFailure();
  }

  /// The conversions parse the ops they build from text: their dialects
  /// must be loaded before the pipeline runs, or pass managers nested on
  /// their ops (`gpu.module(...)`) would not recognise ops loaded later.
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<arith::ArithDialect, cf::ControlFlowDialect,
                    complex::ComplexDialect, func::FuncDialect,
                    gpu::GPUDialect, LLVM::LLVMDialect, math::MathDialect,
                    memref::MemRefDialect, scf::SCFDialect,
                    vector::VectorDialect>();
  }

protected:
  bool canScheduleOn(RegisteredOperationName) const override { return true; }

  std::unique_ptr<Pass> clonePass() const override {
    return std::make_unique<RustPass>(getTypeID(), argument, description,
                                      getOpName(), callbacks,
                                      callbacks.clone(state));
  }

private:
  StringRef argument;
  StringRef description;
  SdfgPassCallbacks callbacks;
  void *state;
};

void registerEverything(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  // gpu-module-to-binary translates kernel modules to LLVM IR.
  registerAllToLLVMIRTranslations(registry);
  registry.insert<sdfg::SDFGDialect>();
}

} // namespace

void sdfgRegisterAllDialects(MlirDialectRegistry registry) {
  registerEverything(*unwrap(registry));
}

void sdfgRegisterPass(MlirStringRef argument, MlirStringRef description,
                      MlirStringRef opName, SdfgPassCallbacks callbacks) {
  TypeID id = passTypeIDs().allocate();
  StringRef arg = keep(argument);
  StringRef desc = keep(description);
  std::optional<StringRef> op;
  if (opName.length)
    op = keep(opName);
  registerPass([=]() -> std::unique_ptr<Pass> {
    return std::make_unique<RustPass>(id, arg, desc, op, callbacks,
                                      callbacks.create(callbacks.userData));
  });
}

void sdfgRegisterPassPipeline(MlirStringRef argument,
                              MlirStringRef description,
                              MlirStringRef pipeline) {
  static std::deque<PassPipelineRegistration<>> registrations;
  StringRef text = keep(pipeline);
  registrations.emplace_back(
      keep(argument), keep(description), [text](OpPassManager &pm) {
        // The text was checked when the pipeline was registered in Rust's
        // tests; a failure here reports through MLIR's diagnostics.
        (void)parsePassPipeline(text, pm);
      });
}

void sdfgRegisterTranslationFromMLIR(MlirStringRef name,
                                     MlirStringRef description,
                                     SdfgTranslateFromMLIR function,
                                     void *userData) {
  static std::deque<TranslateFromMLIRRegistration> registrations;
  registrations.emplace_back(
      keep(name), keep(description),
      [=](Operation *op, raw_ostream &output) -> LogicalResult {
        auto write = [](void *stream, const char *data, size_t length) {
          static_cast<raw_ostream *>(stream)->write(data, length);
        };
        return success(function(userData, wrap(op), write, &output) == 0);
      },
      registerEverything);
}

void sdfgRegisterTranslationToMLIR(MlirStringRef name,
                                   MlirStringRef description,
                                   SdfgTranslateToMLIR function,
                                   void *userData) {
  static std::deque<TranslateToMLIRRegistration> registrations;
  registrations.emplace_back(
      keep(name), keep(description),
      [=](const llvm::SourceMgr &sourceMgr,
          MLIRContext *context) -> OwningOpRef<Operation *> {
        const llvm::MemoryBuffer *buffer =
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        context->loadAllAvailableDialects();
        MlirOperation result =
            function(userData, wrap(context),
                     wrap(buffer->getBufferIdentifier()),
                     wrap(buffer->getBuffer()));
        return OwningOpRef<Operation *>(unwrap(result));
      },
      registerEverything);
}

MlirModule sdfgParseSourceFile(MlirContext context, MlirStringRef path) {
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(StringRef(path.data, path.length), unwrap(context));
  return wrap(module.release());
}

MlirModule sdfgParseSourceString(MlirContext context, MlirStringRef source,
                                 MlirStringRef name) {
  // A NUL-terminated copy: MLIR's lexer stops at the terminator.
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(StringRef(source.data, source.length),
                                           StringRef(name.data, name.length)),
      llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, unwrap(context));
  return wrap(module.release());
}

int sdfgOptMain(int argc, char **argv) {
  registerAllPasses();
  DialectRegistry registry;
  registerEverything(registry);
  return asMainReturnCode(
      MlirOptMain(argc, argv, "SDFG optimizer driver\n", registry));
}

int sdfgTranslateMain(int argc, char **argv) {
  registerAllTranslations();
  return failed(mlirTranslateMain(argc, argv, "SDFG translation driver"))
             ? 1
             : 0;
}
