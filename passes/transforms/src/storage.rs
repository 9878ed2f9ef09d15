//! Moving a data container to another storage, for the transformations
//! that place data (the FPGA transform; DaCe's `GPUTransformSDFG` and
//! `FPGATransformSDFG` set `desc.storage`).
//!
//! Storage is part of a container's type (`!sdfg.array<f64 ["N"] storage
//! FPGA_Global>`), and the type travels with the data along its memlet
//! paths: access nodes' results, the block arguments a scope gives its
//! inputs, scope results and the inner scope results an exit collects.
//! [`set_storage`] retypes the whole flow of one container, so that every
//! value standing for it agrees:
//!
//! ```mlir
//! // before                                   // after set_storage(%t, FPGA_Local)
//! %t = sdfg.alloc "t" : !sdfg.array<f64 ["N"]>    ... storage FPGA_Local>
//! %m = sdfg.map ... outs("t" : !sdfg.array<f64 ["N"]>)  ... storage FPGA_Local>)
//! %a = sdfg.access %t writes(%m[...]) : !sdfg.array<f64 ["N"]>  ... FPGA_Local>
//! ```
//!
//! A nested SDFG's argument keeps its own type (the inner SDFG declares
//! it, as DaCe's nested descriptors keep theirs).

use mlir_sys::MlirType;
use sdfg_dialect::ir::{Op, Val};
use sdfg_dialect::{Container, Storage};
use std::collections::HashSet;

/// Gives the container `container` (an `sdfg.alloc` result or an SDFG
/// argument) storage `storage`, retyping every value of its flow.
pub fn set_storage(container: Val<'_>, storage: Storage) -> Result<(), String> {
    let old = container.ty();
    let new = Container::with_storage(old, storage)
        .ok_or_else(|| format!("a container of this type cannot take storage {storage}"))?;
    if new.ptr == old.ptr {
        return Ok(());
    }
    for value in flow(container, old) {
        // SAFETY: the value is live; the new type is a container type of
        // the same context that differs only in storage.
        unsafe { mlir_sys::mlirValueSetType(value.raw(), new) };
    }
    Ok(())
}

/// The values of type `ty` connected to `start` along memlet paths.
fn flow(start: Val<'_>, ty: MlirType) -> Vec<Val<'_>> {
    let same = |v: &Val<'_>| v.ty().ptr == ty.ptr;
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut stack = vec![start];
    while let Some(value) = stack.pop() {
        if !same(&value) || !seen.insert(value.raw().ptr as usize) {
            continue;
        }
        // An access node of another container (of the same type), passed
        // through an exit or copied from, is that container's flow, not
        // this one's; so is a scope's argument that stands for one.
        if origin_container(value).is_some_and(|c| c != start) {
            continue;
        }
        out.push(value);
        // Forward: where the value goes.
        for (user, k) in value.uses() {
            match user.name() {
                "sdfg.access" if k == 0 => stack.extend(user.results()),
                "sdfg.map" | "sdfg.consume" => {
                    if let Some(arg) = scope_argument(user, k) {
                        stack.push(arg);
                    }
                }
                "sdfg.exit" => {
                    let scope = user.parent();
                    let name = user.str_array_attr("names").get(k).copied();
                    if let (Some(scope), Some(name)) = (scope, name) {
                        let outs = scope.str_array_attr("out_names");
                        if let Some(i) = outs.iter().position(|n| *n == name) {
                            stack.push(scope.results()[i]);
                        }
                    }
                }
                _ => {}
            }
        }
        // Backward: what produces it.
        if let Some(op) = value.defining_op() {
            match op.name() {
                "sdfg.access" => stack.extend(op.operand_segment(1)),
                "sdfg.map" | "sdfg.consume" => {
                    let index = value.result_number().unwrap_or(0);
                    let outs = op.str_array_attr("out_names");
                    let exit = op.region_ops(0).into_iter().find(|o| o.is("sdfg.exit"));
                    if let (Some(exit), Some(name)) = (exit, outs.get(index)) {
                        let names = exit.str_array_attr("names");
                        for (k, v) in exit.operands().into_iter().enumerate() {
                            if names.get(k) == Some(name) {
                                stack.push(v);
                            }
                        }
                    }
                }
                _ => {}
            }
        } else if let Some((owner, index)) = value.block_arg() {
            if owner.is("sdfg.map") || owner.is("sdfg.consume") {
                stack.extend(scope_input(owner, index));
            }
        }
    }
    out
}

/// The container that `value` stands for where an access node reads it
/// (through the arguments of the scopes around, outward).
fn origin_container(mut value: Val<'_>) -> Option<Val<'_>> {
    loop {
        if let Some(d) = value.defining_op() {
            return d
                .is("sdfg.access")
                .then(|| d.operands().first().copied())
                .flatten();
        }
        let (owner, index) = value.block_arg()?;
        if !owner.is("sdfg.map") && !owner.is("sdfg.consume") {
            return None;
        }
        value = scope_input(owner, index)?;
    }
}

/// The block argument a scope gives its operand `k` (map inputs and
/// dynamic range inputs are the leading arguments in order; a consume
/// scope's stream is argument 0's element, so its inputs follow it).
fn scope_argument<'a>(scope: Op<'a>, k: usize) -> Option<Val<'a>> {
    let args = scope.region_args(0);
    if scope.is("sdfg.map") {
        let inputs = scope.operand_segment(0).len() + scope.operand_segment(1).len();
        return (k < inputs).then(|| args.get(k).copied()).flatten();
    }
    let stream = scope.operand_segment(0).len();
    let inputs = scope.operand_segment(1).len();
    (k >= stream && k < stream + inputs)
        .then(|| args.get(k - stream + 1).copied())
        .flatten()
}

/// The operand a scope's block argument `index` stands for.
fn scope_input<'a>(scope: Op<'a>, index: usize) -> Option<Val<'a>> {
    if scope.is("sdfg.map") {
        let mut inputs = scope.operand_segment(0);
        inputs.extend(scope.operand_segment(1));
        return inputs.get(index).copied();
    }
    index
        .checked_sub(1)
        .and_then(|i| scope.operand_segment(1).get(i).copied())
}
