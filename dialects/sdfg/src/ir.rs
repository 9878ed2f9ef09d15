//! A read-only view of MLIR IR through copyable handles.
//!
//! Passes and translations walk SDFGs a lot: following SSA edges from a use
//! to its definition and back, reading string attributes, descending into
//! regions. These handles wrap the C API's `MlirOperation`/`MlirValue` with
//! a lifetime tying them to the IR they were obtained from, so that walking
//! code stays free of borrow juggling.

use mlir_sys::*;
use std::{fmt, marker::PhantomData};

/// Converts an `MlirStringRef` into a string slice (lossy on bad UTF-8 is
/// not possible: MLIR strings from attributes are UTF-8).
///
/// # Safety
/// `s` must point at `s.length` readable bytes that outlive `'a`.
pub(crate) unsafe fn str_of<'a>(s: MlirStringRef) -> &'a str {
    if s.data.is_null() || s.length == 0 {
        return "";
    }
    let bytes = std::slice::from_raw_parts(s.data as *const u8, s.length);
    std::str::from_utf8(bytes).unwrap_or("")
}

/// Builds an `MlirStringRef` borrowing `s`.
pub fn string_ref(s: &str) -> MlirStringRef {
    MlirStringRef {
        data: s.as_ptr() as *const _,
        length: s.len(),
    }
}

/// Prints anything printable through an MLIR print callback.
pub fn print_with(print: impl FnOnce(MlirStringCallback, *mut std::ffi::c_void)) -> String {
    unsafe extern "C" fn append(s: MlirStringRef, data: *mut std::ffi::c_void) {
        let out = &mut *(data as *mut Vec<u8>);
        if !s.data.is_null() {
            out.extend_from_slice(std::slice::from_raw_parts(s.data as *const u8, s.length));
        }
    }
    let mut out = Vec::new();
    print(Some(append), &mut out as *mut Vec<u8> as *mut _);
    String::from_utf8_lossy(&out).into_owned()
}

/// An operation of IR that lives at least as long as `'a`.
#[derive(Clone, Copy)]
pub struct Op<'a> {
    raw: MlirOperation,
    _ir: PhantomData<&'a ()>,
}

impl PartialEq for Op<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.raw.ptr == other.raw.ptr
    }
}
impl Eq for Op<'_> {}
impl std::hash::Hash for Op<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.raw.ptr.hash(state)
    }
}

impl fmt::Debug for Op<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Op({})", self.name())
    }
}

impl<'a> Op<'a> {
    /// Wraps a raw operation.
    ///
    /// # Safety
    /// `raw` must be a valid operation that outlives `'a`.
    pub unsafe fn from_raw(raw: MlirOperation) -> Option<Self> {
        (!raw.ptr.is_null()).then_some(Self {
            raw,
            _ir: PhantomData,
        })
    }

    /// The raw C handle.
    pub fn raw(&self) -> MlirOperation {
        self.raw
    }

    /// The op's name, such as `sdfg.map`.
    pub fn name(&self) -> &'a str {
        unsafe { str_of(mlirIdentifierStr(mlirOperationGetName(self.raw))) }
    }

    /// Whether the op's name is `name`.
    pub fn is(&self, name: &str) -> bool {
        self.name() == name
    }

    /// The attribute `name`, if present.
    pub fn attr(&self, name: &str) -> Option<MlirAttribute> {
        let attr = unsafe { mlirOperationGetAttributeByName(self.raw, string_ref(name)) };
        (!attr.ptr.is_null()).then_some(attr)
    }

    /// Every attribute of the op, as (name, value) pairs.
    pub fn attributes(&self) -> Vec<(&'a str, MlirAttribute)> {
        // SAFETY: the op is live; the dictionary and the attribute names
        // are uniqued in (owned by) the context.
        unsafe {
            let dictionary = crate::ffi::sdfgOperationAttrDictionary(self.raw);
            (0..mlirDictionaryAttrGetNumElements(dictionary))
                .map(|i| {
                    let named = mlirDictionaryAttrGetElement(dictionary, i);
                    (str_of(mlirIdentifierStr(named.name)), named.attribute)
                })
                .collect()
        }
    }

    /// Sets (or replaces) attribute `name`.
    pub fn set_attr(&self, name: &str, attr: MlirAttribute) {
        // SAFETY: the op and the attribute are live in one context.
        unsafe { mlirOperationSetAttributeByName(self.raw, string_ref(name), attr) }
    }

    /// The context the op lives in.
    pub fn context(&self) -> MlirContext {
        // SAFETY: the op is live.
        unsafe { mlirOperationGetContext(self.raw) }
    }

    /// A string attribute (also the name of a symbol-name attribute).
    pub fn str_attr(&self, name: &str) -> Option<&'a str> {
        self.attr(name).and_then(attr_str)
    }

    /// The name of a flat symbol reference attribute.
    pub fn symbol_ref_attr(&self, name: &str) -> Option<&'a str> {
        let attr = self.attr(name)?;
        unsafe {
            mlirAttributeIsAFlatSymbolRef(attr).then(|| str_of(mlirFlatSymbolRefAttrGetValue(attr)))
        }
    }

    /// An array-of-strings attribute; absent attributes read as empty.
    pub fn str_array_attr(&self, name: &str) -> Vec<&'a str> {
        self.attr(name).map(attr_str_array).unwrap_or_default()
    }

    /// The elements of a dense boolean array attribute (`array<i1: ...>`);
    /// absent attributes read as empty.
    pub fn bool_array_attr(&self, name: &str) -> Vec<bool> {
        let Some(attr) = self.attr(name) else {
            return Vec::new();
        };
        // SAFETY: the attribute is live; its kind is checked before reading.
        unsafe {
            if !mlirAttributeIsADenseBoolArray(attr) {
                return Vec::new();
            }
            (0..mlirDenseArrayGetNumElements(attr))
                .map(|i| mlirDenseBoolArrayGetElement(attr, i))
                .collect()
        }
    }

    /// The elements of an array attribute; absent attributes read as empty.
    pub fn array_attr(&self, name: &str) -> Vec<MlirAttribute> {
        self.attr(name).map(array_elements).unwrap_or_default()
    }

    /// The symbol name of the op (`sym_name`), if it has one.
    pub fn symbol_name(&self) -> Option<&'a str> {
        self.str_attr("sym_name")
    }

    /// The op's operands.
    pub fn operands(&self) -> Vec<Val<'a>> {
        let n = unsafe { mlirOperationGetNumOperands(self.raw) };
        (0..n)
            .map(|i| Val::wrap(unsafe { mlirOperationGetOperand(self.raw, i) }))
            .collect()
    }

    /// The operands of the `index`-th operand segment of an op with
    /// `operandSegmentSizes`.
    pub fn operand_segment(&self, index: usize) -> Vec<Val<'a>> {
        let Some(sizes) = self.attr("operandSegmentSizes") else {
            return Vec::new();
        };
        let sizes: Vec<usize> = unsafe {
            (0..mlirDenseArrayGetNumElements(sizes))
                .map(|i| mlirDenseI32ArrayGetElement(sizes, i) as usize)
                .collect()
        };
        let start: usize = sizes.iter().take(index).sum();
        let operands = self.operands();
        let end = (start + sizes.get(index).copied().unwrap_or(0)).min(operands.len());
        operands
            .get(start.min(end)..end)
            .unwrap_or_default()
            .to_vec()
    }

    /// The op's results.
    pub fn results(&self) -> Vec<Val<'a>> {
        let n = unsafe { mlirOperationGetNumResults(self.raw) };
        (0..n)
            .map(|i| Val::wrap(unsafe { mlirOperationGetResult(self.raw, i) }))
            .collect()
    }

    /// Number of regions.
    pub fn num_regions(&self) -> usize {
        unsafe { mlirOperationGetNumRegions(self.raw) as usize }
    }

    fn entry_block(&self, region: usize) -> Option<MlirBlock> {
        if region >= self.num_regions() {
            return None;
        }
        let block =
            unsafe { mlirRegionGetFirstBlock(mlirOperationGetRegion(self.raw, region as isize)) };
        (!block.ptr.is_null()).then_some(block)
    }

    /// Whether the entry block of region `region` holds no op (or there is
    /// none), without collecting its ops.
    pub fn region_is_empty(&self, region: usize) -> bool {
        self.entry_block(region).is_none_or(|block| {
            // SAFETY: the block belongs to this live op.
            unsafe { Op::from_raw(mlirBlockGetFirstOperation(block)) }.is_none()
        })
    }

    /// The ops of the entry block of region `region` (empty if none).
    pub fn region_ops(&self, region: usize) -> Vec<Op<'a>> {
        let mut ops = Vec::new();
        if let Some(block) = self.entry_block(region) {
            let mut op = unsafe { mlirBlockGetFirstOperation(block) };
            while let Some(o) = unsafe { Op::from_raw(op) } {
                ops.push(o);
                op = unsafe { mlirOperationGetNextInBlock(op) };
            }
        }
        ops
    }

    /// The arguments of the entry block of region `region`.
    pub fn region_args(&self, region: usize) -> Vec<Val<'a>> {
        let Some(block) = self.entry_block(region) else {
            return Vec::new();
        };
        let n = unsafe { mlirBlockGetNumArguments(block) };
        (0..n)
            .map(|i| Val::wrap(unsafe { mlirBlockGetArgument(block, i) }))
            .collect()
    }

    /// Whether region `region` has a block.
    pub fn has_body(&self, region: usize) -> bool {
        self.entry_block(region).is_some()
    }

    /// The enclosing op, if any.
    pub fn parent(&self) -> Option<Op<'a>> {
        unsafe { Op::from_raw(mlirOperationGetParentOperation(self.raw)) }
    }

    /// The nearest enclosing op named `name`.
    pub fn ancestor(&self, name: &str) -> Option<Op<'a>> {
        let mut op = self.parent();
        while let Some(o) = op {
            if o.is(name) {
                return Some(o);
            }
            op = o.parent();
        }
        None
    }

    /// Whether this op is `scope` or nested in it.
    pub fn is_within(&self, scope: Op<'_>) -> bool {
        let mut op = Some(*self);
        while let Some(o) = op {
            if o.raw.ptr == scope.raw.ptr {
                return true;
            }
            op = o.parent();
        }
        false
    }

    /// This op and every op nested in it, in every block of every region
    /// (pre-order). Unlike [`Op::descendants`], which sees the entry
    /// blocks, it also sees the blocks of unstructured control flow, as
    /// in lowered functions.
    pub fn walk(&self) -> Vec<Op<'a>> {
        unsafe extern "C" fn visit(
            op: MlirOperation,
            data: *mut std::ffi::c_void,
        ) -> MlirWalkResult {
            (*(data as *mut Vec<MlirOperation>)).push(op);
            MlirWalkResult_MlirWalkResultAdvance
        }
        let mut raw: Vec<MlirOperation> = Vec::new();
        // SAFETY: the callback only records the ops it is given; the
        // vector outlives the walk.
        unsafe {
            mlirOperationWalk(
                self.raw,
                Some(visit),
                &mut raw as *mut Vec<MlirOperation> as *mut std::ffi::c_void,
                MlirWalkOrder_MlirWalkPreOrder,
            );
            raw.into_iter().filter_map(|o| Op::from_raw(o)).collect()
        }
    }

    /// Every op nested in this one (pre-order, excluding itself).
    pub fn descendants(&self) -> Vec<Op<'a>> {
        let mut out = Vec::new();
        let mut stack: Vec<Op<'a>> = Vec::new();
        for r in (0..self.num_regions()).rev() {
            stack.extend(self.region_ops(r).into_iter().rev());
        }
        while let Some(op) = stack.pop() {
            out.push(op);
            for r in (0..op.num_regions()).rev() {
                stack.extend(op.region_ops(r).into_iter().rev());
            }
        }
        out
    }

    /// The op's location as MLIR prints it.
    pub fn location(&self) -> String {
        let loc = unsafe { mlirOperationGetLocation(self.raw) };
        print_with(|cb, data| unsafe { mlirLocationPrint(loc, cb, data) })
    }

    /// Emits an error diagnostic at the op, prefixed with the op's name the
    /// way MLIR's `emitOpError` does.
    pub fn emit_error(&self, message: impl fmt::Display) {
        let text = format!("'{}' op {}", self.name(), message);
        // SAFETY: the callee copies the message into the diagnostic.
        unsafe { crate::ffi::sdfgEmitError(mlirOperationGetLocation(self.raw), string_ref(&text)) }
    }

    /// Emits a warning diagnostic at the op, prefixed with the op's name.
    pub fn emit_warning(&self, message: impl fmt::Display) {
        let text = format!("'{}' op {}", self.name(), message);
        // SAFETY: the callee copies the message into the diagnostic.
        unsafe {
            crate::ffi::sdfgEmitWarning(mlirOperationGetLocation(self.raw), string_ref(&text))
        }
    }

    /// Emits a remark diagnostic at the op, prefixed with the op's name.
    pub fn emit_remark(&self, message: impl fmt::Display) {
        let text = format!("'{}' op {}", self.name(), message);
        // SAFETY: the callee copies the message into the diagnostic.
        unsafe { crate::ffi::sdfgEmitRemark(mlirOperationGetLocation(self.raw), string_ref(&text)) }
    }

    /// The op printed in MLIR's generic-free custom form.
    pub fn print(&self) -> String {
        print_with(|cb, data| unsafe { mlirOperationPrint(self.raw, cb, data) })
    }
}

/// An SSA value of IR that lives at least as long as `'a`.
#[derive(Clone, Copy)]
pub struct Val<'a> {
    raw: MlirValue,
    _ir: PhantomData<&'a ()>,
}

impl PartialEq for Val<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.raw.ptr == other.raw.ptr
    }
}
impl Eq for Val<'_> {}
impl std::hash::Hash for Val<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.raw.ptr.hash(state)
    }
}
impl fmt::Debug for Val<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Val({:p})", self.raw.ptr)
    }
}

impl<'a> Val<'a> {
    fn wrap(raw: MlirValue) -> Self {
        Self {
            raw,
            _ir: PhantomData,
        }
    }

    /// Wraps a raw value.
    ///
    /// # Safety
    /// `raw` must be a valid value that outlives `'a`.
    pub unsafe fn from_raw(raw: MlirValue) -> Option<Self> {
        (!raw.ptr.is_null()).then(|| Self::wrap(raw))
    }

    /// The raw C handle.
    pub fn raw(&self) -> MlirValue {
        self.raw
    }

    /// The value's type.
    pub fn ty(&self) -> MlirType {
        unsafe { mlirValueGetType(self.raw) }
    }

    /// The op that defines the value, if it is an op result.
    pub fn defining_op(&self) -> Option<Op<'a>> {
        unsafe {
            if mlirValueIsAOpResult(self.raw) {
                Op::from_raw(mlirOpResultGetOwner(self.raw))
            } else {
                None
            }
        }
    }

    /// The result number for op results.
    pub fn result_number(&self) -> Option<usize> {
        unsafe {
            mlirValueIsAOpResult(self.raw).then(|| mlirOpResultGetResultNumber(self.raw) as usize)
        }
    }

    /// For block arguments: the op owning the block and the argument number.
    pub fn block_arg(&self) -> Option<(Op<'a>, usize)> {
        unsafe {
            if !mlirValueIsABlockArgument(self.raw) {
                return None;
            }
            let block = mlirBlockArgumentGetOwner(self.raw);
            let owner = Op::from_raw(mlirBlockGetParentOperation(block))?;
            Some((owner, mlirBlockArgumentGetArgNumber(self.raw) as usize))
        }
    }

    /// Every use as (user op, operand number).
    pub fn uses(&self) -> Vec<(Op<'a>, usize)> {
        let mut out = Vec::new();
        unsafe {
            let mut operand = mlirValueGetFirstUse(self.raw);
            while !mlirOpOperandIsNull(operand) {
                if let Some(owner) = Op::from_raw(mlirOpOperandGetOwner(operand)) {
                    out.push((owner, mlirOpOperandGetOperandNumber(operand) as usize));
                }
                operand = mlirOpOperandGetNextUse(operand);
            }
        }
        out
    }
}

/// The value of a string attribute.
pub fn attr_str<'a>(attr: MlirAttribute) -> Option<&'a str> {
    unsafe {
        if mlirAttributeIsAString(attr) {
            Some(str_of(mlirStringAttrGetValue(attr)))
        } else if mlirAttributeIsASymbolRef(attr) {
            Some(str_of(mlirSymbolRefAttrGetRootReference(attr)))
        } else {
            None
        }
    }
}

/// An array attribute of `elements`.
pub fn array_of(ctx: MlirContext, elements: &[MlirAttribute]) -> MlirAttribute {
    // SAFETY: the elements are live attributes of `ctx`.
    unsafe { mlirArrayAttrGet(ctx, elements.len() as isize, elements.as_ptr()) }
}

/// The elements of an array attribute (none for other attributes).
pub fn array_elements(attr: MlirAttribute) -> Vec<MlirAttribute> {
    unsafe {
        if attr.ptr.is_null() || !mlirAttributeIsAArray(attr) {
            return Vec::new();
        }
        (0..mlirArrayAttrGetNumElements(attr))
            .map(|i| mlirArrayAttrGetElement(attr, i))
            .collect()
    }
}

/// The strings of an array-of-strings attribute (non-strings are skipped).
pub fn attr_str_array<'a>(attr: MlirAttribute) -> Vec<&'a str> {
    array_elements(attr)
        .into_iter()
        .filter_map(attr_str)
        .collect()
}

/// The entries of a dictionary attribute as (name, value) pairs (empty for
/// other attributes).
pub fn dictionary_entries<'a>(attr: MlirAttribute) -> Vec<(&'a str, MlirAttribute)> {
    // SAFETY: the kind is checked first; entry names are identifiers owned
    // by the context.
    unsafe {
        if attr.ptr.is_null() || !mlirAttributeIsADictionary(attr) {
            return Vec::new();
        }
        (0..mlirDictionaryAttrGetNumElements(attr))
            .map(|i| {
                let named = mlirDictionaryAttrGetElement(attr, i);
                (str_of(mlirIdentifierStr(named.name)), named.attribute)
            })
            .collect()
    }
}

/// The strides and offset of a memref type with a strided layout (`None`
/// where dynamic); `None` for other types and layouts.
pub fn memref_strides_and_offset(ty: MlirType) -> Option<(Vec<Option<i64>>, Option<i64>)> {
    // SAFETY: the type is live; the strides are read only from a memref,
    // into a buffer of its rank.
    unsafe {
        if !mlirTypeIsAMemRef(ty) {
            return None;
        }
        let rank = mlirShapedTypeGetRank(ty).max(0) as usize;
        let mut strides = vec![0i64; rank];
        let mut offset = 0i64;
        if mlirMemRefTypeGetStridesAndOffset(ty, strides.as_mut_ptr(), &mut offset).value == 0 {
            return None;
        }
        let known = |v: i64| (!mlirShapedTypeIsDynamicStrideOrOffset(v)).then_some(v);
        Some((strides.into_iter().map(known).collect(), known(offset)))
    }
}

/// Prints a type as MLIR does.
pub fn type_to_string(ty: MlirType) -> String {
    builtin_scalar_name(ty)
        .unwrap_or_else(|| print_with(|cb, data| unsafe { mlirTypePrint(ty, cb, data) }))
}

/// The name MLIR prints for an integer, index or common float type,
/// without printing it: the printer sets up its state (the loaded
/// dialects, sorted) for every type it prints, which made element types
/// a large part of the analyses' time on small programs.
fn builtin_scalar_name(ty: MlirType) -> Option<String> {
    // SAFETY: the predicates and accessors only read the live type `ty`.
    unsafe {
        use mlir_sys::*;
        if mlirTypeIsAInteger(ty) {
            let width = mlirIntegerTypeGetWidth(ty);
            let prefix = if mlirIntegerTypeIsSigned(ty) {
                "si"
            } else if mlirIntegerTypeIsUnsigned(ty) {
                "ui"
            } else {
                "i"
            };
            return Some(format!("{prefix}{width}"));
        }
        let name = if mlirTypeIsAF64(ty) {
            "f64"
        } else if mlirTypeIsAF32(ty) {
            "f32"
        } else if mlirTypeIsAF16(ty) {
            "f16"
        } else if mlirTypeIsABF16(ty) {
            "bf16"
        } else if mlirTypeIsAIndex(ty) {
            "index"
        } else {
            return None;
        };
        Some(name.to_string())
    }
}

/// Prints an attribute as MLIR does.
pub fn attr_to_string(attr: MlirAttribute) -> String {
    print_with(|cb, data| unsafe { mlirAttributePrint(attr, cb, data) })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names made without the printer are what the printer prints.
    #[test]
    fn builtin_scalar_names_are_what_mlir_prints() {
        let context = crate::create_context();
        for text in [
            "i1", "i8", "i32", "i64", "si16", "ui8", "index", "f16", "bf16", "f32", "f64",
        ] {
            let ty = melior::ir::r#type::TypeLike::to_raw(
                &melior::ir::Type::parse(&context, text).expect("a builtin type"),
            );
            let printed = print_with(|cb, data| unsafe { mlirTypePrint(ty, cb, data) });
            assert_eq!(printed, text);
            assert_eq!(builtin_scalar_name(ty).as_deref(), Some(text));
        }
    }
}
