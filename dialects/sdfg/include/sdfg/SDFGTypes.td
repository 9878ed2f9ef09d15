//===- SDFGTypes.td - sdfg data container types ------------*- tablegen -*-===//
//
// Data containers are SSA values. Their types carry what DaCe keeps in a
// data descriptor that matters for addressing: element type, symbolic shape,
// strides, per-dimension offsets and the storage location (the analogue of a
// memref memory space). Symbolic sizes are DaCe-syntax strings; omitted
// strides mean C order and omitted offsets mean zero.
//
//===----------------------------------------------------------------------===//

#ifndef SDFG_TYPES_TD
#define SDFG_TYPES_TD

include "sdfg/SDFGBase.td"

class SDFG_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<SDFG_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

// Parameters shared by arrays, views and references.
class SDFG_ArrayLikeType<string name, string typeMnemonic, string what>
    : SDFG_Type<name, typeMnemonic> {
  let parameters = (ins
    "::mlir::Type":$elementType,
    "::mlir::ArrayAttr":$shape,
    OptionalParameter<"::mlir::ArrayAttr">:$strides,
    OptionalParameter<"::mlir::ArrayAttr">:$offset,
    DefaultValuedParameter<"::mlir::sdfg::StorageType",
                           "::mlir::sdfg::StorageType::Default">:$storage
  );
  let assemblyFormat = [{
    `<` $elementType $shape (`strides` $strides^)? (`offset` $offset^)?
    (`storage` $storage^)? `>`
  }];
  let genVerifyDecl = 1;
  let summary = what;
}

def SDFG_ArrayType : SDFG_ArrayLikeType<"Array", "array",
    "a multi-dimensional array with a symbolic shape"> {
  let description = [{
    DaCe's `Array` descriptor. The shape, strides and offsets are symbolic
    expressions; strides default to C order and offsets to zero.

    Example:

    ```mlir
    !sdfg.array<f64 ["2", "N"]>
    !sdfg.array<f32 ["M", "N"] strides ["1", "M"] storage GPU_Global>
    ```
  }];
}

def SDFG_ViewType : SDFG_ArrayLikeType<"View", "view",
    "a view: another shape over (part of) a container"> {
  let description = [{
    DaCe's `ArrayView`. An access node of a view is connected to the node of
    the data it views by exactly one edge (the `views` connector).

    Example:

    ```mlir
    !sdfg.view<f64 ["N"] strides ["M"]>
    ```
  }];
}

def SDFG_ReferenceType : SDFG_ArrayLikeType<"Reference", "ref",
    "a reference: a container that is re-pointed at run time"> {
  let description = [{
    DaCe's `ArrayReference`. An access node of a reference may be given a
    target through its `set` connector; reads and writes then go to that
    target.

    Example:

    ```mlir
    !sdfg.ref<f64 ["N"]>
    ```
  }];
}

def SDFG_ScalarType : SDFG_Type<"Scalar", "scalar"> {
  let summary = "a single value held in a data container";
  let description = [{
    DaCe's `Scalar` descriptor.

    Example:

    ```mlir
    !sdfg.scalar<f64>
    !sdfg.scalar<i32 storage Register>
    ```
  }];
  let parameters = (ins
    "::mlir::Type":$elementType,
    DefaultValuedParameter<"::mlir::sdfg::StorageType",
                           "::mlir::sdfg::StorageType::Default">:$storage
  );
  let assemblyFormat = "`<` $elementType (`storage` $storage^)? `>`";
  let genVerifyDecl = 1;
}

def SDFG_StreamType : SDFG_Type<"Stream", "stream"> {
  let summary = "a FIFO queue of elements, or an array of them";
  let description = [{
    DaCe's `Stream` descriptor: elements are pushed by writes and popped by
    reads; `buffer` is the symbolic buffer size and `shape` makes an array of
    streams (omitted for a single stream).

    Example:

    ```mlir
    !sdfg.stream<i32>
    !sdfg.stream<f32 shape ["P"] buffer "16" storage FPGA_Local>
    ```
  }];
  let parameters = (ins
    "::mlir::Type":$elementType,
    OptionalParameter<"::mlir::ArrayAttr">:$shape,
    OptionalParameter<"::mlir::StringAttr">:$buffer,
    DefaultValuedParameter<"::mlir::sdfg::StorageType",
                           "::mlir::sdfg::StorageType::Default">:$storage
  );
  let assemblyFormat = [{
    `<` $elementType (`shape` $shape^)? (`buffer` $buffer^)?
    (`storage` $storage^)? `>`
  }];
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Element types DaCe has and MLIR's builtin types do not express
//===----------------------------------------------------------------------===//

def SDFG_PointerType : SDFG_Type<"Pointer", "ptr"> {
  let summary = "a C pointer element";
  let description = [{
    DaCe's `pointer` type class: an element that is the address of a value
    of the pointee type (`none` for `void *`).

    Example:

    ```mlir
    !sdfg.array<!sdfg.ptr<f32> ["N"]>
    ```
  }];
  let parameters = (ins "::mlir::Type":$pointee);
  let assemblyFormat = "`<` $pointee `>`";
}

def SDFG_StructType : SDFG_Type<"Struct", "struct"> {
  let summary = "a C struct element with named fields";
  let description = [{
    DaCe's `struct` type class: named fields in order, each with its type
    (a pointer field may name the field holding its length, a symbolic
    expression) and the size in bytes DaCe recorded.

    Example:

    ```mlir
    !sdfg.struct<"csr" fields ["nnz", "data"] types [i32, !sdfg.ptr<f32>]
                 lengths {data = "nnz"} bytes 16>
    ```
  }];
  let parameters = (ins
    "::mlir::StringAttr":$name,
    "::mlir::ArrayAttr":$fields,
    "::mlir::ArrayAttr":$types,
    OptionalParameter<"::mlir::DictionaryAttr">:$lengths,
    "int64_t":$bytes
  );
  let assemblyFormat = [{
    `<` $name `fields` $fields `types` $types (`lengths` $lengths^)?
    `bytes` $bytes `>`
  }];
  let genVerifyDecl = 1;
}

def SDFG_CallbackType : SDFG_Type<"Callback", "callback"> {
  let summary = "a callback into the host program";
  let description = [{
    DaCe's `callback` type class, the type of a symbol that names a Python
    function the SDFG calls: its arguments and results are data containers
    (or element types), `none` where DaCe leaves them untyped.

    Example:

    ```mlir
    sdfg.sdfg @f() symbols {cb = !sdfg.callback<[!sdfg.scalar<i32>] -> [!sdfg.scalar<i64>]>} {
    }
    ```
  }];
  let parameters = (ins "::mlir::ArrayAttr":$arguments,
                        "::mlir::ArrayAttr":$results);
  let assemblyFormat = "`<` $arguments `->` $results `>`";
  let genVerifyDecl = 1;
}

def SDFG_OpaqueType : SDFG_Type<"Opaque", "opaque"> {
  let summary = "an opaque C type";
  let description = [{
    DaCe's `opaque` type class: a C type known only by its spelling.

    Example:

    ```mlir
    !sdfg.scalar<!sdfg.opaque<"MPI_Request">>
    ```
  }];
  let parameters = (ins "::mlir::StringAttr":$ctype);
  let assemblyFormat = "`<` $ctype `>`";
}

def SDFG_StructureType : SDFG_Type<"Structure", "structure"> {
  let summary = "a structure: named member containers";
  let description = [{
    DaCe's `Structure` descriptor: a container of named member containers
    (arrays, scalars or structures). `sdfg.member` names a member, which
    DaCe's access nodes write as `A.member`. A structure is one element
    (DaCe's shape `(1,)`); its element type is a pointer to the C struct of
    its members.

    Example:

    ```mlir
    !sdfg.structure<"CSRMatrix" members ["indptr", "data"]
                    types [!sdfg.array<i32 ["M + 1"]>, !sdfg.array<f32 ["nnz"]>]>
    ```
  }];
  let parameters = (ins
    "::mlir::StringAttr":$name,
    "::mlir::ArrayAttr":$members,
    "::mlir::ArrayAttr":$types,
    DefaultValuedParameter<"::mlir::sdfg::StorageType",
                           "::mlir::sdfg::StorageType::Default">:$storage
  );
  let assemblyFormat = [{
    `<` $name `members` $members `types` $types (`storage` $storage^)? `>`
  }];
  let genVerifyDecl = 1;
}

def SDFG_ContainerType : AnyTypeOf<[SDFG_ArrayType, SDFG_ViewType,
    SDFG_ReferenceType, SDFG_ScalarType, SDFG_StreamType, SDFG_StructureType],
    "sdfg data container">;

#endif // SDFG_TYPES_TD
