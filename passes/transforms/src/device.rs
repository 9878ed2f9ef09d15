//! Moving a program onto an accelerator: what the GPU and FPGA transforms
//! (`sdfg-gpu-transform`, `sdfg-fpga-transform`) share.
//!
//! Both follow DaCe's `GPUTransformSDFG` and `FPGATransformSDFG`: the
//! program's arrays get device copies (`gpu_A`, `fpga_A`) that its
//! dataflow uses instead, a state before the program copies the host
//! arrays in, and a state after it copies the written ones back:
//!
//! ```mlir
//! // before
//! sdfg.sdfg @f(%A: !sdfg.array<f64 ["N"]> as "A") {
//!   sdfg.state @s { %a = sdfg.access %A ... }
//!   sdfg.state @t { ... }
//!   sdfg.edge @s -> @t
//! }
//! // after (enclose_program, clone_arguments, add_copy_states)
//! sdfg.sdfg @f(%A: !sdfg.array<f64 ["N"]> as "A") {
//!   %dA = sdfg.alloc "gpu_A" : !sdfg.array<f64 ["N"] storage GPU_Global>
//!   sdfg.state @pre_f { copy A -> gpu_A }
//!   sdfg.region @f_kernel { sdfg.state @s { %a = sdfg.access %dA ... } ... }
//!   sdfg.state @post_f { copy gpu_A -> A }
//!   sdfg.edge @pre_f -> @f_kernel
//!   sdfg.edge @f_kernel -> @post_f
//! }
//! ```
//!
//! A program of several blocks moves into one `sdfg.region`, so that the
//! copies run before its first block and after its last, whatever its
//! control flow (DaCe adds edges from every sink state instead).

use sdfg_dialect::driver::Diagnosed;
use sdfg_dialect::ir::{array_of, Op, Val};
use sdfg_dialect::{rewrite, Container, ContainerKind, Memlet, Schedule, Storage};
use std::collections::HashSet;

use crate::storage::set_storage;

/// Why a transform that moves a program to a device left an SDFG alone.
#[derive(Debug)]
pub enum Refusal {
    /// The SDFG is not one the transform applies to (unchanged).
    NotApplicable(String),
    /// The IR could not be changed as planned (an internal error).
    Failed(String),
}

/// Applies `transform` to every top-level SDFG of `module`: a refusal is
/// a remark (`PASS does not apply: why`), a failure an error.
pub(crate) fn transform_programs<'a>(
    module: Op<'a>,
    pass: &str,
    mut transform: impl FnMut(Op<'a>) -> Result<(), Refusal>,
) -> Result<(), Diagnosed> {
    for sdfg in module
        .region_ops(0)
        .into_iter()
        .filter(|o| o.is("sdfg.sdfg"))
    {
        match transform(sdfg) {
            Ok(()) => {}
            Err(Refusal::NotApplicable(why)) => {
                sdfg.emit_remark(format!("{pass} does not apply: {why}"))
            }
            Err(Refusal::Failed(why)) => {
                sdfg.emit_error(format!("{pass} failed: {why}"));
                return Err(Diagnosed);
            }
        }
    }
    Ok(())
}

/// An array argument and its device copy.
pub(crate) struct DeviceCopy<'a> {
    /// The argument (host memory).
    pub host: Val<'a>,
    /// Its transient copy in device memory.
    pub device: Val<'a>,
    /// Whether the program writes it (it is copied back).
    pub written: bool,
}

/// The program of `sdfg` as one block: its only block, or a new
/// `sdfg.region` named `NAME_kernel` holding all its blocks and edges.
pub(crate) fn enclose_program(sdfg: Op<'_>) -> Result<Op<'_>, String> {
    let blocks: Vec<Op<'_>> = sdfg
        .region_ops(0)
        .into_iter()
        .filter(|o| sdfg_dialect::CONTROL_FLOW_BLOCKS.contains(&o.name()))
        .collect();
    let Some(&first) = blocks.first() else {
        return Err("the SDFG has no states".into());
    };
    if blocks.len() == 1 {
        return Ok(first);
    }
    let label = sdfg.symbol_name().unwrap_or("sdfg");
    let region =
        rewrite::create_block_before(first, "sdfg.region", &format!("{label}_kernel"), &[])
            .ok_or("the program's region could not be made")?;
    let edges = sdfg.region_ops(0).into_iter().filter(|o| o.is("sdfg.edge"));
    for op in blocks.into_iter().chain(edges) {
        rewrite::move_to_end(op, region);
    }
    Ok(region)
}

/// Gives each argument of `sdfg` that `copied` selects (by its container)
/// and that `program` accesses a transient copy `PREFIX_NAME` in `storage`,
/// and makes `program` use the copy instead. The copies come in the
/// arguments' order.
pub(crate) fn clone_arguments<'a>(
    sdfg: Op<'a>,
    program: Op<'a>,
    prefix: &str,
    storage: Storage,
    copied: impl Fn(&Container, Val<'a>) -> bool,
) -> Result<Vec<DeviceCopy<'a>>, String> {
    let mut copies = Vec::new();
    // Each allocation goes first: made in reverse, they are in the
    // arguments' order.
    for (k, arg) in sdfg.region_args(0).into_iter().enumerate().rev() {
        let used: Vec<Op<'_>> = arg
            .uses()
            .into_iter()
            .map(|(user, _)| user)
            .filter(|user| user.is("sdfg.access"))
            .collect();
        let Some(container) = Container::from_type(arg.ty()) else {
            continue;
        };
        if used.is_empty() || !copied(&container, arg) {
            continue;
        }
        let name = sdfg
            .str_array_attr("arg_names")
            .get(k)
            .map(|s| s.to_string())
            .unwrap_or_else(|| format!("arg{k}"));
        let written = used.iter().any(|a| !a.operand_segment(1).is_empty());
        // Made with the host's type, then moved with its whole flow.
        let device = rewrite::create_alloc(
            sdfg,
            &crate::fresh_name(sdfg, &format!("{prefix}_{name}")),
            arg.ty(),
        )
        .ok_or("a device copy could not be made")?;
        rewrite::replace_uses_inside(arg, device, program);
        set_storage(device, storage)?;
        copies.push(DeviceCopy {
            host: arg,
            device,
            written,
        });
    }
    copies.reverse();
    Ok(copies)
}

/// Adds a state before `program` (the one block of `sdfg`) that copies
/// each host array of `copies` into its device copy, and one after it
/// that copies the written ones back.
pub(crate) fn add_copy_states(
    sdfg: Op<'_>,
    program: Op<'_>,
    copies: &[DeviceCopy<'_>],
) -> Result<(), String> {
    let label = sdfg.symbol_name().unwrap_or("sdfg").to_string();
    let failed = |what: &str| format!("{what} could not be made");
    let program_name = program.symbol_name().unwrap_or_default().to_string();
    let pre_name = crate::fresh_name(sdfg, &format!("pre_{label}"));
    let pre = rewrite::create_state_before(program, &pre_name)
        .ok_or_else(|| failed("the copy-in state"))?;
    for c in copies {
        copy(pre, c.host, c.device)?;
    }
    let post_name = crate::fresh_name(sdfg, &format!("post_{label}"));
    let copied_out = copies.iter().any(|c| c.written);
    if copied_out {
        let post = rewrite::create_block_at_end(sdfg, "sdfg.state", &post_name, &[])
            .ok_or_else(|| failed("the copy-out state"))?;
        for c in copies.iter().filter(|c| c.written) {
            copy(post, c.device, c.host)?;
        }
    }
    rewrite::create_edge(sdfg, &pre_name, &program_name, &[]).ok_or_else(|| failed("an edge"))?;
    if copied_out {
        rewrite::create_edge(sdfg, &program_name, &post_name, &[])
            .ok_or_else(|| failed("an edge"))?;
    }
    Ok(())
}

/// Adds to `state` a copy of the whole of `from` into `to` (same shape).
fn copy<'a>(state: Op<'a>, from: Val<'a>, to: Val<'a>) -> Result<(), String> {
    let failed = || "a copy could not be made".to_string();
    let read = rewrite::create_read_at_end(state, from).ok_or_else(failed)?;
    let subset = crate::whole_subset(from)?;
    let memlet = Memlet::plain(&subset).to_attr(state.context());
    rewrite::create_op_at_end(
        state,
        "sdfg.access",
        &[to, read.results()[0]],
        &[
            ("write_memlets", array_of(state.context(), &[memlet])),
            (
                "operandSegmentSizes",
                rewrite::segment_sizes(state, &[1, 1, 0, 0]),
            ),
        ],
        &[to.ty()],
    )
    .ok_or_else(failed)?;
    Ok(())
}

/// Why [`wrap_in_map`] cannot wrap `tasklet`, if it cannot: it must read
/// access nodes only, and write each output to exactly one access node.
pub(crate) fn wrappable(tasklet: Op<'_>) -> Result<(), String> {
    let label = tasklet.str_attr("label").unwrap_or("tasklet");
    if tasklet
        .operand_segment(0)
        .iter()
        .any(|v| !v.defining_op().is_some_and(|d| d.is("sdfg.access")))
    {
        return Err(format!(
            "tasklet '{label}' outside any scope reads another tasklet's output"
        ));
    }
    for result in tasklet.results() {
        let uses = result.uses();
        if !matches!(uses.as_slice(), [(user, _)] if user.is("sdfg.access")) {
            return Err(format!(
                "an output of tasklet '{label}' outside any scope does not go to exactly one access node"
            ));
        }
    }
    Ok(())
}

/// Puts the tasklet `tasklet`, which reads access nodes and writes access
/// nodes only, into a new map of one iteration (parameter `param`)
/// scheduled `schedule`: the map takes over the tasklet's memlets on both
/// sides.
///
/// ```mlir
/// %t = sdfg.tasklet "f" ins("a" = %x["0"] : ...) outs("b" : f64) {...}
/// %y = sdfg.access %Y writes(%t["0"] : ...)
/// // becomes
/// %m = sdfg.map "f_map" ["__fpga_i" = "0:1"] schedule FPGA_Device
///        ins("a" = %x["0"] : ...) outs("b" : <Y's type>) {
/// ^bb0(%xa: ...):
///   %t = sdfg.tasklet "f" ins("a" = %xa["0"] : ...) outs("b" : f64) {...}
///   sdfg.exit ("b" = %t["0"] : f64)
/// }
/// %y = sdfg.access %Y writes(%m["0"] : ...)
/// ```
pub(crate) fn wrap_in_map(tasklet: Op<'_>, schedule: Schedule, param: &str) -> Result<(), String> {
    wrappable(tasklet)?;
    let ctx = tasklet.context();
    let inputs = tasklet.operand_segment(0);
    let after = tasklet.operand_segment(1);
    let label = tasklet.str_attr("label").unwrap_or("tasklet").to_string();
    let mut out_types = Vec::new();
    let mut exit_memlets = Vec::new();
    for result in tasklet.results() {
        // One access node each, as `wrappable` checked.
        let (user, operand) = result.uses()[0];
        let memlet = sdfg_dialect::memlet_at(user, operand)
            .ok_or_else(|| format!("an output of tasklet '{label}' has no memlet"))?;
        out_types.push(user.operands()[0].ty());
        exit_memlets.push(memlet.to_attr(ctx));
    }
    let operands: Vec<Val<'_>> = inputs.iter().chain(&after).copied().collect();
    let segments = rewrite::segment_sizes(tasklet, &[inputs.len() as i32, 0, after.len() as i32]);
    let mut attributes = vec![
        ("label", rewrite::str_attr(tasklet, &format!("{label}_map"))),
        ("params", rewrite::str_array_attr(tasklet, &[param])),
        ("ranges", rewrite::str_array_attr(tasklet, &["0:1"])),
        ("operandSegmentSizes", segments),
        ("schedule", rewrite::schedule_attr(tasklet, schedule)),
    ];
    for name in ["in_memlets", "in_names", "out_names"] {
        if let Some(attr) = tasklet.attr(name) {
            attributes.push((name, attr));
        }
    }
    let arg_types: Vec<_> = inputs.iter().map(|v| v.ty()).collect();
    let map = rewrite::create_op_before(
        tasklet,
        "sdfg.map",
        &operands,
        &attributes,
        &out_types,
        Some(&arg_types),
    )
    .ok_or("the map could not be made")?;
    for (old, new) in tasklet.results().into_iter().zip(map.results()) {
        rewrite::replace_all_uses(old, new);
    }
    rewrite::move_to_end(tasklet, map);
    rewrite::set_operand_segments(tasklet, &[map.region_args(0), Vec::new()]);
    let exit_attributes = [
        ("memlets", array_of(ctx, &exit_memlets)),
        (
            "names",
            tasklet
                .attr("out_names")
                .unwrap_or_else(|| rewrite::str_array_attr(tasklet, &[])),
        ),
    ];
    rewrite::create_op_at_end(map, "sdfg.exit", &tasklet.results(), &exit_attributes, &[])
        .ok_or("the map's exit could not be made")?;
    Ok(())
}

/// The names that conditions, assignments and loop bounds of `sdfg`'s own
/// control flow read.
pub(crate) fn control_flow_names(sdfg: Op<'_>) -> HashSet<String> {
    sdfg.descendants()
        .into_iter()
        .filter(|o| {
            matches!(o.name(), "sdfg.edge" | "sdfg.loop" | "sdfg.branch")
                && crate::enclosing_sdfg(*o) == Some(sdfg)
        })
        .flat_map(crate::mentioned_names_of)
        .collect()
}

/// Why a transform that moves `sdfg` to a device does not apply, if it
/// does not: something of it is already placed on a device, it returns
/// from inside its control flow (which would skip the copies back), or
/// its control flow reads an array (which moves to device memory).
pub(crate) fn check_host_program(sdfg: Op<'_>) -> Result<(), String> {
    for op in sdfg.descendants() {
        let schedule = op.attr("schedule").and_then(Schedule::from_attr);
        if let Some(s) =
            schedule.filter(|s| s.name().starts_with("GPU_") || s.name().starts_with("FPGA_"))
        {
            return Err(format!("'{}' is already scheduled {s}", op.name()));
        }
        if op.is("sdfg.return") && op.ancestor("sdfg.sdfg") == Some(sdfg) {
            return Err(
                "it returns from inside its control flow, which would skip the copies back".into(),
            );
        }
    }
    let control = control_flow_names(sdfg);
    for value in sdfg_dialect::containers(sdfg) {
        let is_array =
            Container::from_type(value.ty()).is_some_and(|c| c.kind != ContainerKind::Scalar);
        let name = sdfg_dialect::container_name(value).unwrap_or_default();
        if is_array && control.contains(&name) {
            return Err(format!(
                "control flow reads array '{name}', which would move to device memory"
            ));
        }
    }
    let values = sdfg.region_args(0).into_iter().chain(
        sdfg.region_ops(0)
            .into_iter()
            .filter(|o| o.is("sdfg.alloc"))
            .map(|o| o.results()[0]),
    );
    for value in values {
        if let Some(c) = Container::from_type(value.ty()) {
            if c.storage != Storage::default()
                && c.storage.name() != "Register"
                && c.storage.name() != "CPU_Heap"
            {
                let name = sdfg_dialect::container_name(value).unwrap_or_default();
                return Err(format!(
                    "container '{name}' is already in {} storage",
                    c.storage
                ));
            }
        }
    }
    Ok(())
}
