//! In-place changes to IR, for the transformations.
//!
//! [`crate::ir`] reads IR; this module changes it through the C API: it
//! moves, erases and rewires ops, and sets the attributes the dialect's
//! graphs live in (inter-state edge endpoints, conditions, assignments).
//! Every function works on live handles; erasing an op invalidates every
//! handle to it and to the ops nested in it, which is why [`erase`] is
//! `unsafe`.

use crate::ir::{array_of, string_ref, Op, Val};
use mlir_sys::*;

/// A string attribute in the op's context.
pub fn str_attr(op: Op<'_>, value: &str) -> MlirAttribute {
    // SAFETY: the context is live; MLIR copies the string.
    unsafe { mlirStringAttrGet(op.context(), string_ref(value)) }
}

/// An array-of-strings attribute in the op's context.
pub fn str_array_attr(op: Op<'_>, values: &[&str]) -> MlirAttribute {
    let elements: Vec<MlirAttribute> = values.iter().map(|v| str_attr(op, v)).collect();
    array_of(op.context(), &elements)
}

/// Sets attribute `name` of `op` to the flat symbol reference `@symbol`.
pub fn set_symbol_ref(op: Op<'_>, name: &str, symbol: &str) {
    // SAFETY: the context is live; MLIR copies the string.
    let attr = unsafe { mlirFlatSymbolRefAttrGet(op.context(), string_ref(symbol)) };
    op.set_attr(name, attr);
}

/// Sets attribute `name` to a string, or removes it when `value` is `None`.
pub fn set_optional_str(op: Op<'_>, name: &str, value: Option<&str>) {
    match value {
        Some(v) => op.set_attr(name, str_attr(op, v)),
        None => {
            // SAFETY: the op is live.
            unsafe { mlirOperationRemoveAttributeByName(op.raw(), string_ref(name)) };
        }
    }
}

/// Sets the assignments of an `sdfg.edge` (`assign_names`/`assign_values`);
/// an empty list removes both attributes.
pub fn set_assignments(edge: Op<'_>, assignments: &[(String, String)]) {
    if assignments.is_empty() {
        for name in ["assign_names", "assign_values"] {
            // SAFETY: the op is live.
            unsafe { mlirOperationRemoveAttributeByName(edge.raw(), string_ref(name)) };
        }
        return;
    }
    let names: Vec<&str> = assignments.iter().map(|(n, _)| n.as_str()).collect();
    let values: Vec<&str> = assignments.iter().map(|(_, v)| v.as_str()).collect();
    edge.set_attr("assign_names", str_array_attr(edge, &names));
    edge.set_attr("assign_values", str_array_attr(edge, &values));
}

/// Moves `op` to the end of the entry block of region 0 of `owner`.
pub fn move_to_end(op: Op<'_>, owner: Op<'_>) {
    // SAFETY: both ops are live and `owner` has a region 0 with a block
    // (checked); the op is unlinked before it is appended.
    unsafe {
        if owner.num_regions() == 0 {
            return;
        }
        let block = mlirRegionGetFirstBlock(mlirOperationGetRegion(owner.raw(), 0));
        if block.ptr.is_null() {
            return;
        }
        mlirOperationRemoveFromParent(op.raw());
        mlirBlockAppendOwnedOperation(block, op.raw());
    }
}

/// Moves `op` right before `before` (in `before`'s block).
pub fn move_before(op: Op<'_>, before: Op<'_>) {
    // SAFETY: both ops are live.
    unsafe { mlirOperationMoveBefore(op.raw(), before.raw()) }
}

/// Replaces every use of `of` with `with`.
pub fn replace_all_uses(of: Val<'_>, with: Val<'_>) {
    // SAFETY: both values are live.
    unsafe { mlirValueReplaceAllUsesOfWith(of.raw(), with.raw()) }
}

/// Replaces the operands of an op with `operandSegmentSizes` segment by
/// segment, and updates the segment sizes.
pub fn set_operand_segments(op: Op<'_>, segments: &[Vec<Val<'_>>]) {
    let operands: Vec<MlirValue> = segments.iter().flatten().map(|v| v.raw()).collect();
    let sizes: Vec<i32> = segments.iter().map(|s| s.len() as i32).collect();
    // SAFETY: the op and the values are live; the segment sizes describe
    // exactly the new operand list.
    unsafe {
        mlirOperationSetOperands(op.raw(), operands.len() as isize, operands.as_ptr());
        let attr = mlirDenseI32ArrayGet(op.context(), sizes.len() as isize, sizes.as_ptr());
        op.set_attr("operandSegmentSizes", attr);
    }
}

/// Erases `op` and everything nested in it.
///
/// # Safety
/// No result of `op` may still be used, and no handle to `op` or to an op
/// nested in it may be used afterwards.
pub unsafe fn erase(op: Op<'_>) {
    mlirOperationDestroy(op.raw());
}
