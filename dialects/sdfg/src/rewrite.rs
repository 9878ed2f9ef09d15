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

/// A scope's `schedule` attribute for `schedule`, in `op`'s context (the
/// dialect's enum attributes are 32-bit integers).
pub fn schedule_attr(op: Op<'_>, schedule: crate::Schedule) -> MlirAttribute {
    enum_attr(op, schedule.0)
}

/// One of the dialect's enum attributes (schedule, storage, lifetime, ...)
/// with value `value`, in `op`'s context: a 32-bit integer.
pub fn enum_attr(op: Op<'_>, value: i32) -> MlirAttribute {
    // SAFETY: the context is live.
    unsafe { mlirIntegerAttrGet(mlirIntegerTypeGet(op.context(), 32), i64::from(value)) }
}

/// Sets the unit attribute `name` of `op` (a flag such as `inverted`).
pub fn set_unit_attr(op: Op<'_>, name: &str) {
    // SAFETY: the context is live.
    let attr = unsafe { mlirUnitAttrGet(op.context()) };
    op.set_attr(name, attr);
}

/// Removes attribute `name` of `op`, if present.
pub fn remove_attr(op: Op<'_>, name: &str) {
    // SAFETY: the op is live.
    unsafe { mlirOperationRemoveAttributeByName(op.raw(), string_ref(name)) };
}

/// Sets the assignments of an `sdfg.edge` (`assign_names`/`assign_values`);
/// an empty list removes both attributes.
pub fn set_assignments(edge: Op<'_>, assignments: &[(String, String)]) {
    if assignments.is_empty() {
        remove_attr(edge, "assign_names");
        remove_attr(edge, "assign_values");
        return;
    }
    let names: Vec<&str> = assignments.iter().map(|(n, _)| n.as_str()).collect();
    let values: Vec<&str> = assignments.iter().map(|(_, v)| v.as_str()).collect();
    edge.set_attr("assign_names", str_array_attr(edge, &names));
    edge.set_attr("assign_values", str_array_attr(edge, &values));
}

/// Renames a symbol op (a control-flow block: `sdfg.state @name`).
pub fn set_symbol_name(op: Op<'_>, name: &str) {
    op.set_attr("sym_name", str_attr(op, name));
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

/// Wraps `op` in a new op `wrapper` with one region, placed where `op` was:
/// the region's block holds `op` and then a `terminator` op (as
/// `memref.alloca_scope { op; memref.alloca_scope.return }`). `op` must
/// have no results.
pub fn wrap<'a>(op: Op<'a>, wrapper: &str, terminator: &str) -> Option<Op<'a>> {
    let outer = create(op, wrapper, &[], &[], &[], 1);
    let end = create(op, terminator, &[], &[], &[], 0);
    // SAFETY: `op` is live and in a block; the new ops are inserted once
    // and owned by their blocks from then on.
    unsafe {
        let parent = mlirOperationGetBlock(op.raw());
        mlirBlockInsertOwnedOperationBefore(parent, op.raw(), outer);
        let block = mlirRegionGetFirstBlock(mlirOperationGetRegion(outer, 0));
        mlirOperationRemoveFromParent(op.raw());
        mlirBlockAppendOwnedOperation(block, op.raw());
        mlirBlockAppendOwnedOperation(block, end);
        Op::from_raw(outer)
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

/// Replaces operand `index` of `op` with `value`.
pub fn set_operand(op: Op<'_>, index: usize, value: Val<'_>) {
    // SAFETY: the op and the value are live; MLIR checks nothing more.
    unsafe { mlirOperationSetOperand(op.raw(), index as isize, value.raw()) }
}

/// Replaces the operands of an op with `operandSegmentSizes` segment by
/// segment, and updates the segment sizes.
pub fn set_operand_segments(op: Op<'_>, segments: &[Vec<Val<'_>>]) {
    let operands: Vec<MlirValue> = segments.iter().flatten().map(|v| v.raw()).collect();
    let sizes: Vec<i32> = segments.iter().map(|s| s.len() as i32).collect();
    // SAFETY: the op and the values are live; the segment sizes set next
    // describe exactly the new operand list.
    unsafe { mlirOperationSetOperands(op.raw(), operands.len() as isize, operands.as_ptr()) };
    op.set_attr("operandSegmentSizes", segment_sizes(op, &sizes));
}

/// Erases `op` and everything nested in it.
///
/// # Safety
/// No result of `op` may still be used, and no handle to `op` or to an op
/// nested in it may be used afterwards.
pub unsafe fn erase(op: Op<'_>) {
    mlirOperationDestroy(op.raw());
}

/// Creates an op named `name` at `at`'s location with `operands`,
/// `attributes`, results of `results` and `regions` regions of one empty
/// block each (not inserted anywhere).
fn create(
    at: Op<'_>,
    name: &str,
    operands: &[Val<'_>],
    attributes: &[(&str, MlirAttribute)],
    results: &[MlirType],
    regions: usize,
) -> MlirOperation {
    create_with_args(at, name, operands, attributes, results, regions, &[])
}

/// [`create`], with arguments of types `block_args` on each region's
/// block.
fn create_with_args(
    at: Op<'_>,
    name: &str,
    operands: &[Val<'_>],
    attributes: &[(&str, MlirAttribute)],
    results: &[MlirType],
    regions: usize,
    block_args: &[MlirType],
) -> MlirOperation {
    // SAFETY: every handle is live in `at`'s context; the state is
    // consumed by `mlirOperationCreate`, which takes ownership of the
    // regions.
    unsafe {
        let ctx = at.context();
        let location = mlirOperationGetLocation(at.raw());
        let locations = vec![location; block_args.len()];
        let mut state = mlirOperationStateGet(string_ref(name), location);
        let named: Vec<MlirNamedAttribute> = attributes
            .iter()
            .map(|(n, a)| mlirNamedAttributeGet(mlirIdentifierGet(ctx, string_ref(n)), *a))
            .collect();
        mlirOperationStateAddAttributes(&mut state, named.len() as isize, named.as_ptr());
        let values: Vec<MlirValue> = operands.iter().map(|v| v.raw()).collect();
        mlirOperationStateAddOperands(&mut state, values.len() as isize, values.as_ptr());
        mlirOperationStateAddResults(&mut state, results.len() as isize, results.as_ptr());
        let owned: Vec<MlirRegion> = (0..regions)
            .map(|_| {
                let region = mlirRegionCreate();
                mlirRegionAppendOwnedBlock(
                    region,
                    mlirBlockCreate(
                        block_args.len() as isize,
                        block_args.as_ptr(),
                        locations.as_ptr(),
                    ),
                );
                region
            })
            .collect();
        mlirOperationStateAddOwnedRegions(&mut state, owned.len() as isize, owned.as_ptr());
        mlirOperationCreate(&mut state)
    }
}

/// Creates an op `name` right before `before`, with `operands`,
/// `attributes` and results of types `results`, and one region whose
/// block has arguments of types `block_args` (a scope such as
/// `sdfg.map`), or none when `block_args` is `None`.
pub fn create_op_before<'a>(
    before: Op<'a>,
    name: &str,
    operands: &[Val<'a>],
    attributes: &[(&str, MlirAttribute)],
    results: &[MlirType],
    block_args: Option<&[MlirType]>,
) -> Option<Op<'a>> {
    let regions = usize::from(block_args.is_some());
    let raw = create_with_args(
        before,
        name,
        operands,
        attributes,
        results,
        regions,
        block_args.unwrap_or_default(),
    );
    // SAFETY: `before` is live and in a block; the new op is inserted once
    // and owned by that block from then on.
    unsafe {
        let parent = mlirOperationGetBlock(before.raw());
        mlirBlockInsertOwnedOperationBefore(parent, before.raw(), raw);
        Op::from_raw(raw)
    }
}

/// Creates an op `name` with one region, whose block has arguments of
/// types `block_args`, at the end of `owner`'s region 0 (a scope such as
/// `sdfg.map` or `sdfg.nested`).
pub fn create_scope_at_end<'a>(
    owner: Op<'a>,
    name: &str,
    operands: &[Val<'a>],
    attributes: &[(&str, MlirAttribute)],
    results: &[MlirType],
    block_args: &[MlirType],
) -> Option<Op<'a>> {
    let raw = create_with_args(owner, name, operands, attributes, results, 1, block_args);
    // SAFETY: the op was just created and is in no block.
    unsafe { append(owner, raw) }
}

/// Parses `text`, one op (such as an empty `sdfg.sdfg`), in `at`'s
/// context; the op is in no block until it is moved into one
/// ([`move_to_end`]).
pub fn parse_detached<'a>(at: Op<'a>, text: &str) -> Option<Op<'a>> {
    let terminated = format!("{text}\0");
    // SAFETY: the context is live; the text is NUL-terminated past its
    // length; the parsed module is destroyed after its op is taken out.
    unsafe {
        let module = mlirModuleCreateParse(at.context(), string_ref(&terminated[..text.len()]));
        if module.ptr.is_null() {
            return None;
        }
        let op = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
        if op.ptr.is_null() {
            mlirModuleDestroy(module);
            return None;
        }
        mlirOperationRemoveFromParent(op);
        mlirModuleDestroy(module);
        Op::from_raw(op)
    }
}

/// A module parsed from generated text, destroyed when dropped (once the
/// ops it should keep are moved out of it).
pub struct Parsed<'a> {
    module: MlirModule,
    context: std::marker::PhantomData<Op<'a>>,
}

impl<'a> Parsed<'a> {
    /// The module op.
    pub fn op(&self) -> Op<'a> {
        // SAFETY: the module is live until dropped, and its op with it.
        unsafe { Op::from_raw(mlirModuleGetOperation(self.module)) }.expect("a parsed module")
    }
}

impl Drop for Parsed<'_> {
    fn drop(&mut self) {
        // SAFETY: the module was parsed here and is destroyed once.
        unsafe { mlirModuleDestroy(self.module) }
    }
}

/// Parses `text`, a module a pass generated, in `at`'s context. Where it
/// does not parse (an internal error), reports that `what` do not parse at
/// `at` and, where the environment variable `debug` is set, prints the
/// text on standard error.
pub fn parse_generated<'a>(at: Op<'a>, text: &str, what: &str, debug: &str) -> Option<Parsed<'a>> {
    // MLIR's lexer reads up to a NUL terminator.
    let terminated = format!("{text}\0");
    // SAFETY: the context is live; the text is NUL-terminated past its
    // length.
    let module =
        unsafe { mlirModuleCreateParse(at.context(), string_ref(&terminated[..text.len()])) };
    if module.ptr.is_null() {
        if std::env::var_os(debug).is_some() {
            eprintln!("{text}");
        }
        at.emit_error(format!(
            "internal error: {what} do not parse (set {debug}=1 to print them)"
        ));
        return None;
    }
    Some(Parsed {
        module,
        context: std::marker::PhantomData,
    })
}

/// Replaces the uses of `of` by ops nested in `inside` with `with`.
pub fn replace_uses_inside(of: Val<'_>, with: Val<'_>, inside: Op<'_>) {
    for (user, operand) in of.uses() {
        if user.is_within(inside) {
            set_operand(user, operand, with);
        }
    }
}

/// Creates an op `name` without regions at the end of `owner`'s region 0
/// (such as a scope's `sdfg.exit`).
pub fn create_op_at_end<'a>(
    owner: Op<'a>,
    name: &str,
    operands: &[Val<'a>],
    attributes: &[(&str, MlirAttribute)],
    results: &[MlirType],
) -> Option<Op<'a>> {
    let raw = create(owner, name, operands, attributes, results, 0);
    // SAFETY: the op was just created and is in no block.
    unsafe { append(owner, raw) }
}

/// Creates (not inserted anywhere) a control-flow block `op_name` named
/// `@name` with string attributes and one empty region, at `at`'s
/// location.
fn create_block(
    at: Op<'_>,
    op_name: &str,
    name: &str,
    attributes: &[(&str, &str)],
) -> MlirOperation {
    let mut attrs = vec![("sym_name", str_attr(at, name))];
    attrs.extend(attributes.iter().map(|(n, v)| (*n, str_attr(at, v))));
    create(at, op_name, &[], &attrs, &[], 1)
}

/// Creates an empty `sdfg.state @name` right before the block `before`.
pub fn create_state_before<'a>(before: Op<'a>, name: &str) -> Option<Op<'a>> {
    create_block_before(before, "sdfg.state", name, &[])
}

/// Creates a control-flow block `op_name` (`sdfg.state`, `sdfg.loop`, ...)
/// named `@name`, with an empty region and the string attributes
/// `attributes`, right before the block `before`.
pub fn create_block_before<'a>(
    before: Op<'a>,
    op_name: &str,
    name: &str,
    attributes: &[(&str, &str)],
) -> Option<Op<'a>> {
    let block = create_block(before, op_name, name, attributes);
    // SAFETY: `before` is live and in a block; the new op is inserted once
    // and owned by that block from then on.
    unsafe {
        let parent = mlirOperationGetBlock(before.raw());
        mlirBlockInsertOwnedOperationBefore(parent, before.raw(), block);
        Op::from_raw(block)
    }
}

/// Creates a control-flow block `op_name` named `@name`, with an empty
/// region and the string attributes `attributes`, at the end of `owner`'s
/// region 0.
pub fn create_block_at_end<'a>(
    owner: Op<'a>,
    op_name: &str,
    name: &str,
    attributes: &[(&str, &str)],
) -> Option<Op<'a>> {
    let raw = create_block(owner, op_name, name, attributes);
    // SAFETY: the op was just created and is in no block.
    unsafe { append(owner, raw) }
}

/// Appends the new op `raw` to `owner`'s region 0 (which then owns it),
/// or destroys it when that region has no block.
///
/// # Safety
/// `raw` was just created, in `owner`'s context, and is in no block.
unsafe fn append<'a>(owner: Op<'a>, raw: MlirOperation) -> Option<Op<'a>> {
    let block = mlirRegionGetFirstBlock(mlirOperationGetRegion(owner.raw(), 0));
    if block.ptr.is_null() {
        mlirOperationDestroy(raw);
        return None;
    }
    mlirBlockAppendOwnedOperation(block, raw);
    Op::from_raw(raw)
}

/// Creates a plain access node of `data` (`sdfg.access %data`, which
/// reads it) at the end of `owner`'s region 0.
pub fn create_read_at_end<'a>(owner: Op<'a>, data: Val<'a>) -> Option<Op<'a>> {
    let segments = segment_sizes(owner, &[1, 0, 0, 0]);
    let raw = create(
        owner,
        "sdfg.access",
        &[data],
        &[("operandSegmentSizes", segments)],
        &[data.ty()],
        0,
    );
    // SAFETY: the op was just created and is in no block.
    unsafe { append(owner, raw) }
}

/// Creates `sdfg.edge @src -> @dst assign(...)` at the end of `owner`'s
/// region.
pub fn create_edge<'a>(
    owner: Op<'a>,
    src: &str,
    dst: &str,
    assignments: &[(String, String)],
) -> Option<Op<'a>> {
    // SAFETY: the context is live; MLIR copies the names.
    let (src_attr, dst_attr) = unsafe {
        (
            mlirFlatSymbolRefAttrGet(owner.context(), string_ref(src)),
            mlirFlatSymbolRefAttrGet(owner.context(), string_ref(dst)),
        )
    };
    let raw = create(
        owner,
        "sdfg.edge",
        &[],
        &[("src", src_attr), ("dst", dst_attr)],
        &[],
        0,
    );
    // SAFETY: the op was just created and is not in a block.
    let edge = unsafe { Op::from_raw(raw) }?;
    set_assignments(edge, assignments);
    // SAFETY: the op was just created and is in no block.
    unsafe { append(owner, raw) }
}

/// Parses a type (`!sdfg.scalar<f64>`) in `op`'s context; `None` where
/// the text is not a type.
pub fn parse_type(op: Op<'_>, text: &str) -> Option<MlirType> {
    // SAFETY: the context is live; MLIR copies the text.
    let ty = unsafe { mlirTypeParseGet(op.context(), string_ref(text)) };
    (!ty.ptr.is_null()).then_some(ty)
}

/// Parses an attribute (`dense<[0, 1]> : vector<2xi64>`) in `op`'s
/// context; `None` where the text is not an attribute.
pub fn parse_attr(op: Op<'_>, text: &str) -> Option<MlirAttribute> {
    // SAFETY: the context is live; MLIR copies the text.
    let attr = unsafe { mlirAttributeParseGet(op.context(), string_ref(text)) };
    (!attr.ptr.is_null()).then_some(attr)
}

/// Gives `value` (an op result or a block argument) the type `ty`; its
/// users must accept the new type, which the caller sees to.
pub fn set_type(value: Val<'_>, ty: MlirType) {
    // SAFETY: the value is live; MLIR only swaps the type.
    unsafe { mlirValueSetType(value.raw(), ty) }
}

/// The `operandSegmentSizes` attribute for segments of these sizes.
pub fn segment_sizes(op: Op<'_>, sizes: &[i32]) -> MlirAttribute {
    // SAFETY: the context is live; MLIR copies the sizes.
    unsafe { mlirDenseI32ArrayGet(op.context(), sizes.len() as isize, sizes.as_ptr()) }
}

/// Declares a transient `sdfg.alloc "name" : ty` at the start of the
/// SDFG `sdfg` and returns its container value.
pub fn create_alloc<'a>(sdfg: Op<'a>, name: &str, ty: MlirType) -> Option<Val<'a>> {
    create_result_at_start(sdfg, "sdfg.alloc", ("name", name), ty)
}

/// Creates `sdfg.sym "expr" : ty` at the start of the entry block of
/// `owner`'s region 0 and returns its value.
pub fn create_sym_at_start<'a>(owner: Op<'a>, expr: &str, ty: MlirType) -> Option<Val<'a>> {
    create_result_at_start(owner, "sdfg.sym", ("expr", expr), ty)
}

/// Creates an op `name` with one string attribute and one result of type
/// `ty` at the start of the entry block of `owner`'s region 0, and
/// returns the result.
fn create_result_at_start<'a>(
    owner: Op<'a>,
    name: &str,
    (attr, value): (&str, &str),
    ty: MlirType,
) -> Option<Val<'a>> {
    let raw = create(
        owner,
        name,
        &[],
        &[(attr, str_attr(owner, value))],
        &[ty],
        0,
    );
    // SAFETY: the region has a block (checked); the op is inserted once.
    unsafe {
        let block = mlirRegionGetFirstBlock(mlirOperationGetRegion(owner.raw(), 0));
        if block.ptr.is_null() {
            mlirOperationDestroy(raw);
            return None;
        }
        mlirBlockInsertOwnedOperation(block, 0, raw);
        Op::from_raw(raw).map(|op| op.results()[0])
    }
}

/// Creates, right before `before`, a tasklet `label` without inputs whose
/// one output `out` of type `ty` is the value of the symbolic expression
/// `expr` (an `sdfg.sym` yielded), and returns its result.
pub fn create_symbol_tasklet<'a>(
    before: Op<'a>,
    label: &str,
    out: &str,
    expr: &str,
    ty: MlirType,
) -> Option<Val<'a>> {
    let segments = segment_sizes(before, &[0, 0]);
    let raw = create(
        before,
        "sdfg.tasklet",
        &[],
        &[
            ("label", str_attr(before, label)),
            ("out_names", str_array_attr(before, &[out])),
            ("operandSegmentSizes", segments),
        ],
        &[ty],
        1,
    );
    // SAFETY: `before` is live and in a block; the tasklet is inserted once
    // and owned by that block, and its body gets its two ops.
    unsafe {
        let block = mlirOperationGetBlock(before.raw());
        mlirBlockInsertOwnedOperationBefore(block, before.raw(), raw);
        let tasklet = Op::from_raw(raw)?;
        let value = create_sym_at_start(tasklet, expr, ty)?;
        let yield_op = create(before, "sdfg.yield", &[value], &[], &[], 0);
        let body = mlirRegionGetFirstBlock(mlirOperationGetRegion(raw, 0));
        mlirBlockAppendOwnedOperation(body, yield_op);
        tasklet.results().first().copied()
    }
}

/// Erases argument `index` of the entry block of `owner`'s region 0 (the
/// argument must have no uses left).
pub fn erase_region_arg(owner: Op<'_>, index: usize) {
    // SAFETY: the op is live; the block exists (checked) and MLIR asserts
    // the argument is unused.
    unsafe {
        let block = mlirRegionGetFirstBlock(mlirOperationGetRegion(owner.raw(), 0));
        if !block.ptr.is_null() && index < mlirBlockGetNumArguments(block) as usize {
            mlirBlockEraseArgument(block, index as u32);
        }
    }
}

/// Adds `name` of type `ty` to the `symbols` dictionary of an `sdfg.sdfg`
/// (no change when it is declared already).
pub fn declare_symbol(sdfg: Op<'_>, name: &str, ty: MlirType) {
    let mut entries = symbol_entries(sdfg);
    if entries.iter().any(|(n, _)| *n == name) {
        return;
    }
    // SAFETY: the type is live in the op's context.
    let attr = unsafe { mlirTypeAttrGet(ty) };
    entries.push((name, attr));
    entries.sort_by(|a, b| a.0.cmp(b.0));
    set_symbols(sdfg, &entries);
}

/// Removes `name` from the `symbols` dictionary of an `sdfg.sdfg` (no
/// change when it is not declared).
pub fn undeclare_symbol(sdfg: Op<'_>, name: &str) {
    let mut entries = symbol_entries(sdfg);
    let before = entries.len();
    entries.retain(|(n, _)| *n != name);
    if entries.len() != before {
        set_symbols(sdfg, &entries);
    }
}

fn symbol_entries<'a>(sdfg: Op<'a>) -> Vec<(&'a str, MlirAttribute)> {
    sdfg.attr("symbols")
        .map(crate::ir::dictionary_entries)
        .unwrap_or_default()
}

fn set_symbols(sdfg: Op<'_>, entries: &[(&str, MlirAttribute)]) {
    let ctx = sdfg.context();
    // SAFETY: the names are interned by MLIR; the attributes are live.
    unsafe {
        let named: Vec<MlirNamedAttribute> = entries
            .iter()
            .map(|(n, a)| mlirNamedAttributeGet(mlirIdentifierGet(ctx, string_ref(n)), *a))
            .collect();
        let dict = mlirDictionaryAttrGet(ctx, named.len() as isize, named.as_ptr());
        sdfg.set_attr("symbols", dict);
    }
}
