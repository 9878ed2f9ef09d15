//! `sdfg-fpga-transform`: makes an SDFG FPGA-scheduled, as DaCe's
//! `FPGATransformSDFG` does: the program runs as one FPGA kernel between a
//! state that copies its arrays from the host into device memory and a
//! state that copies the written ones back.
//!
//! ```mlir
//! // before
//! sdfg.sdfg @f(%A: !sdfg.array<f64 ["N"]> as "A", %B: ...) {
//!   sdfg.state @s { %a = sdfg.access %A ... %m = sdfg.map ... }
//! }
//! // after
//! sdfg.sdfg @f(%A: !sdfg.array<f64 ["N"]> as "A", %B: ...) {
//!   %fA = sdfg.alloc "fpga_A" : !sdfg.array<f64 ["N"] storage FPGA_Global>
//!   sdfg.state @pre_f { copy A -> fpga_A, B -> fpga_B }
//!   sdfg.state @s { %a = sdfg.access %fA ... %m = sdfg.map ... schedule FPGA_Device }
//!   sdfg.state @post_f { copy fpga_B -> B }
//!   sdfg.edge @pre_f -> @s
//!   sdfg.edge @s -> @post_f
//! }
//! ```
//!
//! - **Device memory.** Every array argument the program uses gets a
//!   transient copy `fpga_X` in `FPGA_Global` (off-chip) memory, with the
//!   same layout. All of them are copied in, not only those read: an
//!   array the kernel writes only in part must keep its other elements
//!   when it is copied back (DaCe copies only the arrays read, and loses
//!   them). The arrays the kernel writes are copied out.
//! - **The kernel.** A program of several blocks moves into one
//!   `sdfg.region` between the two copy states (DaCe nests it into a
//!   nested SDFG; a region keeps its symbols and containers where they
//!   are). Scalars and symbols stay arguments of the kernel.
//! - **Schedules.** The outermost maps and consume scopes of every kernel
//!   state become `FPGA_Device`; inner maps keep their schedules (the HLS
//!   emitter pipelines or unrolls them).
//! - **Transients** of the kernel: arrays and streams accessed only
//!   inside scopes become `FPGA_Local` (on-chip memory), other arrays
//!   `FPGA_Global`, scalars `FPGA_Registers`.
//!
//! The transform does not apply (and says why) to a program that already
//! has device schedules or storage, returns from inside its control flow
//! (the copies out would be skipped), still has library nodes (the kernel
//! runs their expansions), has control flow that reads arrays (they move
//! to device memory), or has tasklets outside scopes that pass values to
//! each other.

use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::{array_of, Op, Val};
use sdfg_dialect::{container_name, rewrite, Container, ContainerKind, Memlet, Schedule, Storage};

use crate::storage::set_storage;

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-fpga-transform",
    summary:
        "Make every top-level SDFG one FPGA kernel: arrays copied into FPGA_Global memory and \
              back, outermost maps FPGA_Device, kernel transients FPGA_Local or FPGA_Registers",
    op_name: "builtin.module",
    create: || Box::new(FpgaTransform),
};

/// The pass (no options).
#[derive(Clone, Copy)]
pub struct FpgaTransform;

impl RustPass for FpgaTransform {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        crate::no_options("sdfg-fpga-transform", options)
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        for sdfg in module
            .region_ops(0)
            .into_iter()
            .filter(|o| o.is("sdfg.sdfg"))
        {
            match fpga_transform(sdfg) {
                Ok(()) => {}
                Err(Refusal::NotApplicable(why)) => {
                    sdfg.emit_remark(format!("sdfg-fpga-transform does not apply: {why}"))
                }
                Err(Refusal::Failed(why)) => {
                    sdfg.emit_error(format!("sdfg-fpga-transform failed: {why}"));
                    return Err(Diagnosed);
                }
            }
        }
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(*self)
    }
}

/// Why the transform left an SDFG alone.
#[derive(Debug)]
pub enum Refusal {
    /// The SDFG is not one the transform applies to (unchanged).
    NotApplicable(String),
    /// The IR could not be changed as planned (an internal error).
    Failed(String),
}

fn storage(name: &str) -> Storage {
    Storage::from_name(name).unwrap_or_default()
}

/// Makes the top-level SDFG `sdfg` one FPGA kernel (see the module
/// documentation).
pub fn fpga_transform(sdfg: Op<'_>) -> Result<(), Refusal> {
    check_applies(sdfg)?;
    let blocks: Vec<Op<'_>> = sdfg
        .region_ops(0)
        .into_iter()
        .filter(|o| sdfg_dialect::CONTROL_FLOW_BLOCKS.contains(&o.name()))
        .collect();
    let edges: Vec<Op<'_>> = sdfg
        .region_ops(0)
        .into_iter()
        .filter(|o| o.is("sdfg.edge"))
        .collect();
    let Some(&first) = blocks.first() else {
        return Err(Refusal::NotApplicable("the SDFG has no states".into()));
    };
    let label = sdfg.symbol_name().unwrap_or("sdfg").to_string();
    let failed = |what: &str| Refusal::Failed(format!("{what} could not be made"));

    // The kernel: the one block, or a region holding them all.
    let kernel = if blocks.len() == 1 {
        first
    } else {
        let region =
            rewrite::create_block_before(first, "sdfg.region", &format!("{label}_kernel"), &[])
                .ok_or_else(|| failed("the kernel region"))?;
        for op in blocks.iter().chain(&edges) {
            rewrite::move_to_end(*op, region);
        }
        region
    };

    // Device copies of the array arguments the kernel uses.
    // (Each allocation goes first: made in reverse, they are in the
    // arguments' order.)
    let mut copies = Vec::new();
    for (k, arg) in sdfg.region_args(0).into_iter().enumerate().rev() {
        let used: Vec<Op<'_>> = arg
            .uses()
            .into_iter()
            .map(|(user, _)| user)
            .filter(|user| user.is("sdfg.access"))
            .collect();
        let is_array =
            Container::from_type(arg.ty()).is_some_and(|c| c.kind == ContainerKind::Array);
        if used.is_empty() || !is_array {
            continue;
        }
        let name = sdfg
            .str_array_attr("arg_names")
            .get(k)
            .map(|s| s.to_string())
            .unwrap_or_else(|| format!("arg{k}"));
        let written = used.iter().any(|a| !a.operand_segment(1).is_empty());
        // Made with the host's type, then moved with its whole flow.
        let device =
            rewrite::create_alloc(sdfg, &fresh_name(sdfg, &format!("fpga_{name}")), arg.ty())
                .ok_or_else(|| failed("a device array"))?;
        rewrite::replace_uses_inside(arg, device, kernel);
        set_storage(device, storage("FPGA_Global")).map_err(Refusal::Failed)?;
        copies.push((arg, device, written));
    }
    copies.reverse();

    // Kernel transients. A scalar that control flow reads by name stays
    // where it is: the host decides the kernel's control flow.
    let control = control_flow_names(sdfg);
    for alloc in sdfg
        .region_ops(0)
        .into_iter()
        .filter(|o| o.is("sdfg.alloc"))
    {
        let value = alloc.results()[0];
        if copies.iter().any(|(_, device, _)| *device == value) {
            continue;
        }
        let Some(container) = Container::from_type(value.ty()) else {
            continue;
        };
        let in_scopes = value.uses().iter().all(|(user, _)| {
            user.ancestor("sdfg.map").is_some() || user.ancestor("sdfg.consume").is_some()
        });
        let name = alloc.str_attr("name").unwrap_or_default();
        let target = match container.kind {
            ContainerKind::Scalar if control.contains(name) => continue,
            ContainerKind::Scalar => "FPGA_Registers",
            ContainerKind::Array | ContainerKind::Stream if in_scopes => "FPGA_Local",
            ContainerKind::Array => "FPGA_Global",
            _ => continue,
        };
        set_storage(value, storage(target)).map_err(Refusal::Failed)?;
    }

    // Outermost scopes run on the device; so do the tasklets outside
    // scopes, each in a map of one iteration (DaCe runs them in the
    // kernel's nested SDFG).
    let device = Schedule::from_name("FPGA_Device").unwrap_or_default();
    for state in std::iter::once(kernel)
        .chain(kernel.descendants())
        .filter(|o| o.is("sdfg.state") && o.ancestor("sdfg.sdfg") == Some(sdfg))
    {
        for node in state.region_ops(0) {
            match node.name() {
                "sdfg.map" | "sdfg.consume" | "sdfg.nested" | "sdfg.library" => {
                    node.set_attr("schedule", rewrite::schedule_attr(node, device))
                }
                "sdfg.tasklet" => {
                    wrap_in_map(node, device).map_err(Refusal::Failed)?;
                }
                _ => {}
            }
        }
    }

    // The copies in and out, around the kernel.
    let kernel_name = kernel.symbol_name().unwrap_or_default().to_string();
    let pre_name = fresh_name(sdfg, &format!("pre_{label}"));
    let post_name = fresh_name(sdfg, &format!("post_{label}"));
    let pre = rewrite::create_state_before(kernel, &pre_name)
        .ok_or_else(|| failed("the copy-in state"))?;
    for (host, device, _) in &copies {
        copy(pre, *host, *device)?;
    }
    let copied_out = copies.iter().any(|(_, _, written)| *written);
    if copied_out {
        let post = rewrite::create_block_at_end(sdfg, "sdfg.state", &post_name, &[])
            .ok_or_else(|| failed("the copy-out state"))?;
        for (host, device, _) in copies.iter().filter(|(_, _, w)| *w) {
            copy(post, *device, *host)?;
        }
    }
    rewrite::create_edge(sdfg, &pre_name, &kernel_name, &[]).ok_or_else(|| failed("an edge"))?;
    if copied_out {
        rewrite::create_edge(sdfg, &kernel_name, &post_name, &[])
            .ok_or_else(|| failed("an edge"))?;
    }
    Ok(())
}

/// Why [`wrap_in_map`] cannot wrap `tasklet`, if it cannot: it must read
/// access nodes only, and write each output to exactly one access node.
fn wrappable(tasklet: Op<'_>) -> Result<(), String> {
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

/// Checks that the transform applies to `sdfg`.
fn check_applies(sdfg: Op<'_>) -> Result<(), Refusal> {
    let refuse = |why: String| Err(Refusal::NotApplicable(why));
    for state in sdfg
        .descendants()
        .into_iter()
        .filter(|o| o.is("sdfg.state") && crate::enclosing_sdfg(*o) == Some(sdfg))
    {
        for tasklet in state
            .region_ops(0)
            .into_iter()
            .filter(|o| o.is("sdfg.tasklet"))
        {
            wrappable(tasklet).map_err(Refusal::NotApplicable)?;
        }
    }
    for op in sdfg.descendants() {
        if op.is("sdfg.library") {
            let class = op.str_attr("class_path").unwrap_or_default();
            return refuse(format!(
                "library node '{class}' has no expansion here (run sdfg-expand-library-nodes first; Cholesky, Inv, Solve and the other LAPACK nodes have none an FPGA runs)"
            ));
        }
        let schedule = op.attr("schedule").and_then(Schedule::from_attr);
        if let Some(s) =
            schedule.filter(|s| s.name().starts_with("GPU_") || s.name().starts_with("FPGA_"))
        {
            return refuse(format!("'{}' is already scheduled {s}", op.name()));
        }
        if op.is("sdfg.return") && op.ancestor("sdfg.sdfg") == Some(sdfg) {
            return refuse(
                "it returns from inside its control flow, which would skip the copies back".into(),
            );
        }
    }
    let control = control_flow_names(sdfg);
    for value in sdfg_dialect::containers(sdfg) {
        let is_array =
            Container::from_type(value.ty()).is_some_and(|c| c.kind != ContainerKind::Scalar);
        let name = container_name(value).unwrap_or_default();
        if is_array && control.contains(&name) {
            return refuse(format!(
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
                let name = container_name(value).unwrap_or_default();
                return refuse(format!(
                    "container '{name}' is already in {} storage",
                    c.storage
                ));
            }
        }
    }
    Ok(())
}

/// A block or container name not yet used in `sdfg`.
fn fresh_name(sdfg: Op<'_>, base: &str) -> String {
    let taken = crate::mentioned_names(sdfg);
    let declared: std::collections::HashSet<String> = sdfg
        .descendants()
        .into_iter()
        .filter_map(|o| {
            o.symbol_name()
                .map(String::from)
                .or_else(|| o.str_attr("name").map(String::from))
        })
        .chain(
            sdfg.str_array_attr("arg_names")
                .into_iter()
                .map(String::from),
        )
        .collect();
    let mut name = base.to_string();
    let mut n = 0;
    while taken.contains(&name) || declared.contains(&name) {
        n += 1;
        name = format!("{base}_{n}");
    }
    name
}

/// Adds to `state` a copy of the whole of `from` into `to` (same shape).
fn copy<'a>(state: Op<'a>, from: Val<'a>, to: Val<'a>) -> Result<(), Refusal> {
    let failed = || Refusal::Failed("a copy could not be made".into());
    let read = rewrite::create_read_at_end(state, from).ok_or_else(failed)?;
    let shape = Container::from_type(from.ty()).ok_or_else(failed)?.shape;
    let subset = shape
        .iter()
        .map(|s| format!("0:{s}"))
        .collect::<Vec<_>>()
        .join(", ");
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

/// Puts the tasklet `tasklet`, which reads access nodes and writes access
/// nodes only, into a new map of one iteration scheduled `schedule`: the
/// map takes over the tasklet's memlets on both sides.
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
pub fn wrap_in_map(tasklet: Op<'_>, schedule: Schedule) -> Result<(), String> {
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
        ("params", rewrite::str_array_attr(tasklet, &["__fpga_i"])),
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
fn control_flow_names(sdfg: Op<'_>) -> std::collections::HashSet<String> {
    sdfg.descendants()
        .into_iter()
        .filter(|o| {
            matches!(o.name(), "sdfg.edge" | "sdfg.loop" | "sdfg.branch")
                && crate::enclosing_sdfg(*o) == Some(sdfg)
        })
        .flat_map(crate::mentioned_names_of)
        .collect()
}
