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

def SDFG_ContainerType : AnyTypeOf<[SDFG_ArrayType, SDFG_ViewType,
    SDFG_ReferenceType, SDFG_ScalarType, SDFG_StreamType],
    "sdfg data container">;

#endif // SDFG_TYPES_TD
