/*===- SDFG.h - C API of the sdfg dialect and tools ---------------*- C -*-===*\
|*                                                                            *|
|* What the MLIR 19 C API lacks for the sdfg dialect: the dialect handle,     *|
|* accessors and constructors of its types and attributes, the symbolic-check *|
|* hook, pass and translation registration with Rust callbacks, and the two   *|
|* tool mains. Strings are borrowed unless stated otherwise.                  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef SDFG_C_SDFG_H
#define SDFG_C_SDFG_H

#include "mlir-c/IR.h"
#include "mlir-c/IntegerSet.h"
#include "mlir-c/Pass.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(SDFG, sdfg);

/*--- Types ----------------------------------------------------------------*/

/* Container kinds returned by sdfgContainerKind. */
enum SdfgContainerKind {
  SdfgNotAContainer = 0,
  SdfgArray = 1,
  SdfgView = 2,
  SdfgReference = 3,
  SdfgScalar = 4,
  SdfgStream = 5,
  SdfgStructure = 6,
};

/* Which container a type is, or SdfgNotAContainer. */
int sdfgContainerKind(MlirType type);
/* The element type of any container type (`none` for structures). */
MlirType sdfgContainerElementType(MlirType type);
/* Shape, strides and offset as ArrayAttrs of StringAttrs; null when absent
 * (scalars have no shape; streams may have none). */
MlirAttribute sdfgContainerShape(MlirType type);
MlirAttribute sdfgContainerStrides(MlirType type);
MlirAttribute sdfgContainerOffset(MlirType type);
/* The storage enum value of any container type. */
int sdfgContainerStorage(MlirType type);
/* A stream's buffer size (StringAttr) or null. */
MlirAttribute sdfgStreamBuffer(MlirType type);
/* Element type kinds returned by sdfgElementTypeKind (DaCe's type classes
 * that MLIR's builtin types do not express). */
enum SdfgElementTypeKind {
  SdfgNotAnElementType = 0,
  SdfgPointer = 1,
  SdfgStruct = 2,
  SdfgOpaque = 3,
  SdfgCallback = 4,
};

/* Which of the dialect's element types a type is. */
int sdfgElementTypeKind(MlirType type);
/* A pointer's pointee (`none` for void), or a null type. */
MlirType sdfgPointerPointee(MlirType type);
/* The StringAttr name of a struct or structure, or an opaque type's C
 * spelling; null for other types. */
MlirAttribute sdfgTypeName(MlirType type);
/* Field names of a struct, member names of a structure (ArrayAttr of
 * StringAttr); null for other types. */
MlirAttribute sdfgTypeFieldNames(MlirType type);
/* Field types of a struct, member types of a structure, arguments of a
 * callback (ArrayAttr of TypeAttr); null for other types. */
MlirAttribute sdfgTypeFieldTypes(MlirType type);
/* A callback's results (ArrayAttr of TypeAttr), or null. */
MlirAttribute sdfgCallbackResults(MlirType type);
/* A struct's field lengths (DictionaryAttr of StringAttr), or null. */
MlirAttribute sdfgStructLengths(MlirType type);
/* A struct's size in bytes, or -1 for other types. */
int64_t sdfgStructBytes(MlirType type);
/* The integer set of an IntegerSetAttr (`affine.if`'s condition), or a
 * null set for other attributes (MLIR 19's C API has no accessor). */
MlirIntegerSet sdfgIntegerSetAttrGetValue(MlirAttribute attr);
/* Builds a container type of the given kind; null attributes are omitted
 * parameters. Returns a null type when the parameters are invalid. */
MlirType sdfgContainerTypeGet(MlirContext ctx, int kind, MlirType element,
                              MlirAttribute shape, MlirAttribute strides,
                              MlirAttribute offset, int storage,
                              MlirAttribute buffer);

/*--- Attributes -----------------------------------------------------------*/

bool sdfgAttributeIsMemlet(MlirAttribute attr);
/* Memlet fields; absent string fields are null attributes. */
MlirAttribute sdfgMemletSubset(MlirAttribute memlet);
MlirAttribute sdfgMemletOther(MlirAttribute memlet);
MlirAttribute sdfgMemletVolume(MlirAttribute memlet);
bool sdfgMemletDynamic(MlirAttribute memlet);
int sdfgMemletWcr(MlirAttribute memlet);
MlirAttribute sdfgMemletWcrLambda(MlirAttribute memlet);
MlirAttribute sdfgMemletData(MlirAttribute memlet);
/* Builds a memlet; null string attributes are omitted fields. */
MlirAttribute sdfgMemletGet(MlirContext ctx, MlirStringRef subset,
                            MlirAttribute other, MlirAttribute volume,
                            bool dynamic, int wcr, MlirAttribute lambda,
                            MlirAttribute data);

/* DaCe names of enum values (empty when out of range). */
MlirStringRef sdfgScheduleName(int value);
MlirStringRef sdfgStorageName(int value);
MlirStringRef sdfgLifetimeName(int value);
MlirStringRef sdfgWcrName(int value);
/* Reads an enum attribute of the dialect (an IntegerAttr); -1 if null. */
int sdfgEnumAttrValue(MlirAttribute attr);

/*--- Operations -----------------------------------------------------------*/

/* Every attribute of an operation, inherent and discardable, as one
   DictionaryAttr built once (mlirOperationGetAttribute builds it again for
   each position of an op whose inherent attributes are properties). */
MlirAttribute sdfgOperationAttrDictionary(MlirOperation op);

/*--- Symbolic checks ------------------------------------------------------*/

/* See mlir::sdfg::SymbolicChecker. */
typedef int (*SdfgSymbolicChecker)(int kind, const char *text, size_t length,
                                   char *error, size_t capacity);
void sdfgSetSymbolicChecker(SdfgSymbolicChecker checker);

/* Validation that `sdfg.sdfg`'s verifier runs after the structural checks
 * (see mlir::sdfg::setSDFGValidator); returns 0 when the SDFG is valid. */
typedef int (*SdfgValidator)(MlirOperation sdfg);
void sdfgSetValidator(SdfgValidator validator);

/*--- Passes ---------------------------------------------------------------*/

/* Callbacks of a pass implemented outside C++. `create` makes a pass
 * instance's state from `userData`; `clone` copies a state; `setOptions`
 * parses the pipeline option string (returns 0 on success, else writes a
 * NUL-terminated message to `error`); `run` returns 0 on success. */
typedef struct {
  void *(*create)(void *userData);
  void *(*clone)(void *state);
  void (*destroy)(void *state);
  int (*setOptions)(void *state, MlirStringRef options, char *error,
                    size_t capacity);
  int (*run)(void *state, MlirOperation op);
  void *userData;
} SdfgPassCallbacks;

/* Registers a pass under `argument` so that --pass-pipeline and --help know
 * it. `opName` restricts the op it runs on (empty: any op). */
void sdfgRegisterPass(MlirStringRef argument, MlirStringRef description,
                      MlirStringRef opName, SdfgPassCallbacks callbacks);

/* Emits an error diagnostic at `location`; the message is copied. */
void sdfgEmitError(MlirLocation location, MlirStringRef message);

/* Emits a warning diagnostic at `location`; the message is copied. */
void sdfgEmitWarning(MlirLocation location, MlirStringRef message);

/* Emits a remark diagnostic at `location`; the message is copied. */
void sdfgEmitRemark(MlirLocation location, MlirStringRef message);

/* Registers a named pass pipeline (`--pass-pipeline=builtin.module(name)`
 * and `--name`) that expands to the textual pipeline `pipeline`, which is
 * nested under `builtin.module`. */
void sdfgRegisterPassPipeline(MlirStringRef argument,
                              MlirStringRef description,
                              MlirStringRef pipeline);

/*--- Translations -----------------------------------------------------------*/

/* Appends `length` bytes to the output of a translation. */
typedef void (*SdfgWriteFn)(void *stream, const char *data, size_t length);

/* Translation from MLIR: returns 0 on success after writing through
 * `write(stream, ...)`; on failure it has emitted diagnostics. */
typedef int (*SdfgTranslateFromMLIR)(void *userData, MlirOperation op,
                                     SdfgWriteFn write, void *stream);
void sdfgRegisterTranslationFromMLIR(MlirStringRef name,
                                     MlirStringRef description,
                                     SdfgTranslateFromMLIR function,
                                     void *userData);

/* Translation to MLIR: returns a module op, or a null op after emitting
 * diagnostics. `fileName` is the input's name for locations. */
typedef MlirOperation (*SdfgTranslateToMLIR)(void *userData,
                                             MlirContext context,
                                             MlirStringRef fileName,
                                             MlirStringRef input);
void sdfgRegisterTranslationToMLIR(MlirStringRef name,
                                   MlirStringRef description,
                                   SdfgTranslateToMLIR function,
                                   void *userData);

/*--- Tools ------------------------------------------------------------------*/

/* Parses the MLIR file at `path` into a module (locations name the file);
 * returns a null module after emitting diagnostics. */
MlirModule sdfgParseSourceFile(MlirContext context, MlirStringRef path);

/* Parses MLIR text into a module whose locations name `name`; returns a
 * null module after emitting diagnostics. */
MlirModule sdfgParseSourceString(MlirContext context, MlirStringRef source,
                                 MlirStringRef name);

/* Registers every upstream dialect and extension plus the sdfg dialect. */
void sdfgRegisterAllDialects(MlirDialectRegistry registry);

/* mlir-opt with all upstream dialects and passes, the sdfg dialect, and the
 * passes registered through sdfgRegisterPass. Returns the exit code. */
int sdfgOptMain(int argc, char **argv);

/* mlir-translate with all upstream translations and the ones registered
 * through sdfgRegisterTranslation*. Returns the exit code. */
int sdfgTranslateMain(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif /* SDFG_C_SDFG_H */
