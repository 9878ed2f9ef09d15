//! Declarations of the C functions in `include/sdfg-c/SDFG.h`.

#![allow(missing_docs)]

use mlir_sys::{
    MlirAttribute, MlirContext, MlirDialectHandle, MlirDialectRegistry, MlirIntegerSet, MlirModule,
    MlirOperation, MlirStringRef, MlirType,
};
use std::ffi::{c_char, c_int, c_void};

pub type SymbolicChecker = unsafe extern "C" fn(
    kind: c_int,
    text: *const c_char,
    length: usize,
    error: *mut c_char,
    capacity: usize,
) -> c_int;

#[repr(C)]
pub struct PassCallbacks {
    pub create: unsafe extern "C" fn(user_data: *mut c_void) -> *mut c_void,
    pub clone: unsafe extern "C" fn(state: *mut c_void) -> *mut c_void,
    pub destroy: unsafe extern "C" fn(state: *mut c_void),
    pub set_options: unsafe extern "C" fn(
        state: *mut c_void,
        options: MlirStringRef,
        error: *mut c_char,
        capacity: usize,
    ) -> c_int,
    pub run: unsafe extern "C" fn(state: *mut c_void, op: MlirOperation) -> c_int,
    pub user_data: *mut c_void,
}

pub type WriteFn = unsafe extern "C" fn(stream: *mut c_void, data: *const c_char, length: usize);

pub type TranslateFromMlir = unsafe extern "C" fn(
    user_data: *mut c_void,
    op: MlirOperation,
    write: WriteFn,
    stream: *mut c_void,
) -> c_int;

pub type TranslateToMlir = unsafe extern "C" fn(
    user_data: *mut c_void,
    context: MlirContext,
    file_name: MlirStringRef,
    input: MlirStringRef,
) -> MlirOperation;

extern "C" {
    pub fn mlirGetDialectHandle__sdfg__() -> MlirDialectHandle;

    pub fn sdfgContainerKind(ty: MlirType) -> c_int;
    pub fn sdfgContainerElementType(ty: MlirType) -> MlirType;
    pub fn sdfgContainerShape(ty: MlirType) -> MlirAttribute;
    pub fn sdfgContainerStrides(ty: MlirType) -> MlirAttribute;
    pub fn sdfgContainerOffset(ty: MlirType) -> MlirAttribute;
    pub fn sdfgContainerStorage(ty: MlirType) -> c_int;
    pub fn sdfgStreamBuffer(ty: MlirType) -> MlirAttribute;
    pub fn sdfgElementTypeKind(ty: MlirType) -> c_int;
    pub fn sdfgPointerPointee(ty: MlirType) -> MlirType;
    pub fn sdfgTypeName(ty: MlirType) -> MlirAttribute;
    pub fn sdfgTypeFieldNames(ty: MlirType) -> MlirAttribute;
    pub fn sdfgTypeFieldTypes(ty: MlirType) -> MlirAttribute;
    pub fn sdfgCallbackResults(ty: MlirType) -> MlirAttribute;
    pub fn sdfgStructLengths(ty: MlirType) -> MlirAttribute;
    pub fn sdfgStructBytes(ty: MlirType) -> i64;
    pub fn sdfgIntegerSetAttrGetValue(attr: MlirAttribute) -> MlirIntegerSet;
    pub fn sdfgContainerTypeGet(
        ctx: MlirContext,
        kind: c_int,
        element: MlirType,
        shape: MlirAttribute,
        strides: MlirAttribute,
        offset: MlirAttribute,
        storage: c_int,
        buffer: MlirAttribute,
    ) -> MlirType;

    pub fn sdfgAttributeIsMemlet(attr: MlirAttribute) -> bool;
    pub fn sdfgMemletSubset(attr: MlirAttribute) -> MlirAttribute;
    pub fn sdfgMemletOther(attr: MlirAttribute) -> MlirAttribute;
    pub fn sdfgMemletVolume(attr: MlirAttribute) -> MlirAttribute;
    pub fn sdfgMemletDynamic(attr: MlirAttribute) -> bool;
    pub fn sdfgMemletWcr(attr: MlirAttribute) -> c_int;
    pub fn sdfgMemletWcrLambda(attr: MlirAttribute) -> MlirAttribute;
    pub fn sdfgMemletData(attr: MlirAttribute) -> MlirAttribute;
    pub fn sdfgMemletGet(
        ctx: MlirContext,
        subset: MlirStringRef,
        other: MlirAttribute,
        volume: MlirAttribute,
        dynamic: bool,
        wcr: c_int,
        lambda: MlirAttribute,
        data: MlirAttribute,
    ) -> MlirAttribute;

    pub fn sdfgScheduleName(value: c_int) -> MlirStringRef;
    pub fn sdfgStorageName(value: c_int) -> MlirStringRef;
    pub fn sdfgLifetimeName(value: c_int) -> MlirStringRef;
    pub fn sdfgWcrName(value: c_int) -> MlirStringRef;
    pub fn sdfgEnumAttrValue(attr: MlirAttribute) -> c_int;
    pub fn sdfgOperationAttrDictionary(op: MlirOperation) -> MlirAttribute;

    pub fn sdfgSetSymbolicChecker(checker: Option<SymbolicChecker>);
    pub fn sdfgSetValidator(validator: Option<unsafe extern "C" fn(sdfg: MlirOperation) -> c_int>);

    pub fn sdfgRegisterPass(
        argument: MlirStringRef,
        description: MlirStringRef,
        op_name: MlirStringRef,
        callbacks: PassCallbacks,
    );
    pub fn sdfgEmitError(location: mlir_sys::MlirLocation, message: MlirStringRef);
    pub fn sdfgEmitWarning(location: mlir_sys::MlirLocation, message: MlirStringRef);
    pub fn sdfgEmitRemark(location: mlir_sys::MlirLocation, message: MlirStringRef);
    pub fn sdfgRegisterPassPipeline(
        argument: MlirStringRef,
        description: MlirStringRef,
        pipeline: MlirStringRef,
    );
    pub fn sdfgRegisterTranslationFromMLIR(
        name: MlirStringRef,
        description: MlirStringRef,
        function: TranslateFromMlir,
        user_data: *mut c_void,
    );
    pub fn sdfgRegisterTranslationToMLIR(
        name: MlirStringRef,
        description: MlirStringRef,
        function: TranslateToMlir,
        user_data: *mut c_void,
    );

    pub fn sdfgRegisterAllDialects(registry: MlirDialectRegistry);
    pub fn sdfgParseSourceFile(context: MlirContext, path: MlirStringRef) -> MlirModule;
    pub fn sdfgParseSourceString(
        context: MlirContext,
        source: MlirStringRef,
        name: MlirStringRef,
    ) -> MlirModule;
    pub fn sdfgOptMain(argc: c_int, argv: *mut *mut c_char) -> c_int;
    pub fn sdfgTranslateMain(argc: c_int, argv: *mut *mut c_char) -> c_int;
}
