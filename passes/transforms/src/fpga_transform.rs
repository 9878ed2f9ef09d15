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

use crate::device;
use crate::storage::set_storage;
use mlir_sys::MlirType;

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-fpga-transform",
    summary:
        "Make every top-level SDFG one FPGA kernel: arrays copied into FPGA_Global memory and \
              back, outermost maps FPGA_Device, kernel transients FPGA_Local or FPGA_Registers; \
              options streaming-composition (buffers between device maps become streams), \
              streaming-memory (reads and writes of global memory go through streams) and \
              stream-depth (16)",
    op_name: "builtin.module",
    create: || Box::<FpgaTransform>::default(),
};

/// The pass; `streaming-composition=true` connects producer and
/// consumer maps through streams (of `stream-depth` elements, default
/// 16) instead of buffers, and `streaming-memory=true` reads global
/// memory in reader processing elements that stream it to the maps.
#[derive(Clone, Copy)]
pub struct FpgaTransform {
    /// Whether to apply [`streaming_composition`].
    pub streaming_composition: bool,
    /// Whether to apply [`streaming_memory`].
    pub streaming_memory: bool,
    /// The depth of the streams it makes.
    pub stream_depth: i64,
}

impl Default for FpgaTransform {
    fn default() -> Self {
        FpgaTransform {
            streaming_composition: false,
            streaming_memory: false,
            stream_depth: 16,
        }
    }
}

impl RustPass for FpgaTransform {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        const PASS: &str = "sdfg-fpga-transform";
        for option in options.split_whitespace() {
            let (key, value) = option
                .split_once('=')
                .ok_or_else(|| format!("{PASS}: option `{option}` is not key=value"))?;
            match key {
                "streaming-composition" => {
                    self.streaming_composition = crate::bool_option(PASS, key, value)?
                }
                "streaming-memory" => self.streaming_memory = crate::bool_option(PASS, key, value)?,
                "stream-depth" => {
                    self.stream_depth = value
                        .parse()
                        .ok()
                        .filter(|d| *d > 0)
                        .ok_or_else(|| format!("{PASS}: stream-depth `{value}` is not a positive integer"))?
                }
                _ => {
                    return Err(format!(
                        "{PASS}: unknown option `{key}` (the options are streaming-composition, streaming-memory and stream-depth)"
                    ))
                }
            }
        }
        Ok(())
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        device::transform_programs(module, "sdfg-fpga-transform", |sdfg| {
            fpga_transform(sdfg)?;
            if self.streaming_composition
                && streaming_composition(sdfg, self.stream_depth)
                    .map_err(Refusal::Failed)?
                    .is_empty()
            {
                sdfg.emit_remark("sdfg-fpga-transform: no buffer between maps can be a stream");
            }
            if self.streaming_memory
                && streaming_memory(sdfg, self.stream_depth)
                    .map_err(Refusal::Failed)?
                    .is_empty()
            {
                sdfg.emit_remark("sdfg-fpga-transform: no read of global memory can be a stream");
            }
            Ok(())
        })
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(*self)
    }
}

pub use crate::device::Refusal;

fn storage(name: &str) -> Storage {
    Storage::from_name(name).unwrap_or_default()
}

/// Makes the top-level SDFG `sdfg` one FPGA kernel (see the module
/// documentation).
pub fn fpga_transform(sdfg: Op<'_>) -> Result<(), Refusal> {
    check_applies(sdfg)?;
    let kernel = device::enclose_program(sdfg).map_err(Refusal::NotApplicable)?;

    // Device copies of the array arguments the kernel uses.
    let copies = device::clone_arguments(sdfg, kernel, "fpga", storage("FPGA_Global"), |c, _| {
        c.kind == ContainerKind::Array
    })
    .map_err(Refusal::Failed)?;

    // Kernel transients. A scalar that control flow reads by name stays
    // where it is: the host decides the kernel's control flow.
    let control = device::control_flow_names(sdfg);
    for alloc in sdfg
        .region_ops(0)
        .into_iter()
        .filter(|o| o.is("sdfg.alloc"))
    {
        let value = alloc.results()[0];
        if copies.iter().any(|c| c.device == value) {
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
    let fpga = Schedule::from_name("FPGA_Device").unwrap_or_default();
    for state in std::iter::once(kernel)
        .chain(kernel.descendants())
        .filter(|o| o.is("sdfg.state") && o.ancestor("sdfg.sdfg") == Some(sdfg))
    {
        for node in state.region_ops(0) {
            match node.name() {
                "sdfg.map" | "sdfg.consume" | "sdfg.nested" | "sdfg.library" => {
                    node.set_attr("schedule", rewrite::schedule_attr(node, fpga))
                }
                "sdfg.tasklet" => {
                    device::wrap_in_map(node, fpga, "__fpga_i").map_err(Refusal::Failed)?;
                }
                _ => {}
            }
        }
    }
    device::add_copy_states(sdfg, kernel, &copies).map_err(Refusal::Failed)
}

/// Checks that the transform applies to `sdfg`.
fn check_applies(sdfg: Op<'_>) -> Result<(), Refusal> {
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
            device::wrappable(tasklet).map_err(Refusal::NotApplicable)?;
        }
    }
    if let Some(op) = sdfg
        .descendants()
        .into_iter()
        .find(|o| o.is("sdfg.library"))
    {
        let class = op.str_attr("class_path").unwrap_or_default();
        return Err(Refusal::NotApplicable(format!(
            "library node '{class}' has no expansion here (run sdfg-expand-library-nodes first; Cholesky, Inv, Solve and the other LAPACK nodes have none an FPGA runs)"
        )));
    }
    device::check_host_program(sdfg).map_err(Refusal::NotApplicable)
}

/// DaCe's `StreamingComposition`: a transient array that one device map
/// writes and the next one reads, element for element in the same order,
/// becomes a stream between them, so that the two run at once (a DATAFLOW
/// region in HLS) instead of one after the other through memory.
///
/// ```mlir
/// // before                                  // after
/// %t = sdfg.alloc "t" : !sdfg.array<f32 ["N"]>   %t = ... : !sdfg.stream<f32 buffer "16" storage FPGA_Local>
/// %p = sdfg.map ["i" = "0:N"] ...             (the producer's exit pushes: ["0"])
///        sdfg.exit ("t" = %x["i"] : f32)
/// %w = sdfg.access %t writes(%p["0:N"])
/// %c = sdfg.map ["j" = "0:N"] ins("t" = %w["0:N"])   (the consumer's tasklet pops: ["0"])
///        sdfg.tasklet ins("v" = %ti["j"] : ...)
/// ```
///
/// It applies where the array's only access node is in one state, written
/// by one map and read by one other map, both device maps over the same
/// ranges without inner scopes; the producer writes one element per
/// iteration through one exit entry without write-conflict resolution, and
/// the consumer reads it through one tasklet connector at the same index
/// (its parameters renamed to the producer's). Returns the arrays made
/// streams.
pub fn streaming_composition(sdfg: Op<'_>, depth: i64) -> Result<Vec<String>, String> {
    // The buffers that can be streams, by state.
    let mut by_state: Vec<(Op<'_>, Vec<(Op<'_>, Composition<'_>)>)> = Vec::new();
    for alloc in sdfg
        .region_ops(0)
        .into_iter()
        .filter(|o| o.is("sdfg.alloc"))
    {
        let Some(plan) = composition(alloc) else {
            continue;
        };
        let Some(state) = plan.access.parent() else {
            continue;
        };
        match by_state.iter_mut().find(|(s, _)| *s == state) {
            Some((_, plans)) => plans.push((alloc, plan)),
            None => by_state.push((state, vec![(alloc, plan)])),
        }
    }
    // A state's buffers become streams only where its processing elements
    // can then all run at once: one after the other, a producer would
    // block on a full stream.
    let mut streamed = Vec::new();
    for (state, plans) in by_state {
        let planned: Vec<Val<'_>> = plans.iter().map(|(a, _)| a.results()[0]).collect();
        if !all_concurrent(state, &|c| planned.contains(&c)) {
            continue;
        }
        for (alloc, plan) in plans {
            streamed.push(alloc.str_attr("name").unwrap_or_default().to_string());
            apply_composition(alloc, plan, depth)?;
        }
    }
    Ok(streamed)
}

/// What [`streaming_composition`] rewrites for one array.
struct Composition<'a> {
    access: Op<'a>,
    producer: Op<'a>,
    result: usize,
    exit: Op<'a>,
    entry: usize,
    consumer: Op<'a>,
    operand: usize,
    tasklet: Op<'a>,
    connector: usize,
}

fn composition(alloc: Op<'_>) -> Option<Composition<'_>> {
    let array = alloc.results()[0];
    let container = Container::from_type(array.ty())?;
    if container.kind != ContainerKind::Array {
        return None;
    }
    let uses = array.uses();
    let [(access, 0)] = uses.as_slice() else {
        return None;
    };
    let access = *access;
    // Written by one map, read by one map, both device maps.
    let writes = access.operand_segment(1);
    let [written] = writes.as_slice() else {
        return None;
    };
    let producer = written.defining_op().filter(|p| p.is("sdfg.map"))?;
    let result = written.result_number()?;
    let reads = access.results()[0].uses();
    let [(consumer, operand)] = reads.as_slice() else {
        return None;
    };
    let device = |m: &Op<'_>| {
        m.attr("schedule")
            .and_then(Schedule::from_attr)
            .is_some_and(|s| s.name() == "FPGA_Device")
    };
    if !consumer.is("sdfg.map")
        || !device(&producer)
        || !device(consumer)
        || *operand >= consumer.operand_segment(0).len()
    {
        return None;
    }
    if crate::maps::has_inner_scopes(producer) || crate::maps::has_inner_scopes(*consumer) {
        return None;
    }
    // The same ranges; the consumer's parameters renamed to the producer's.
    let (pp, cp) = (
        crate::maps::params(producer),
        crate::maps::params(*consumer),
    );
    if pp.len() != cp.len() || pp.iter().zip(&cp).any(|((_, a), (_, b))| a != b) {
        return None;
    }
    let rename: std::collections::HashMap<String, sdfg_symbolic::Expr> = cp
        .iter()
        .zip(&pp)
        .map(|((c, _), (p, _))| (c.clone(), sdfg_symbolic::Expr::symbol(p)))
        .collect();
    // One exit entry of the producer writes it, from a tasklet.
    let exit = crate::scope_exit(producer)?;
    let out_name = producer.str_array_attr("out_names").get(result).copied()?;
    let entries = crate::exit_entries(exit, out_name);
    let [entry] = entries.as_slice() else {
        return None;
    };
    let written_memlet = exit
        .array_attr("memlets")
        .get(*entry)
        .copied()
        .and_then(Memlet::from_attr)?;
    if written_memlet.wcr != sdfg_dialect::Wcr::None
        || !exit.operands()[*entry]
            .defining_op()
            .is_some_and(|d| d.is("sdfg.tasklet"))
    {
        return None;
    }
    // One tasklet connector of the consumer reads it, at the same index.
    let arg = consumer.region_args(0)[*operand];
    let arg_uses = arg.uses();
    let [(tasklet, connector)] = arg_uses.as_slice() else {
        return None;
    };
    if !tasklet.is("sdfg.tasklet") || *connector >= tasklet.operand_segment(0).len() {
        return None;
    }
    let read_memlet = sdfg_dialect::memlet_at(*tasklet, *connector)?;
    let parse = |text: &str| sdfg_symbolic::parse_subset(text).ok();
    let (written, read) = (parse(&written_memlet.subset)?, parse(&read_memlet.subset)?);
    let renamed: Vec<sdfg_symbolic::Expr> = read
        .min_element()
        .iter()
        .map(|e| e.substitute(&rename))
        .collect();
    if written.volume().as_int() != Some(1)
        || read.volume().as_int() != Some(1)
        || written.min_element() != renamed
    {
        return None;
    }
    Some(Composition {
        access,
        producer,
        result,
        exit,
        entry: *entry,
        consumer: *consumer,
        operand: *operand,
        tasklet: *tasklet,
        connector: *connector,
    })
}

fn apply_composition(alloc: Op<'_>, c: Composition<'_>, depth: i64) -> Result<(), String> {
    let array = alloc.results()[0];
    let container = Container::from_type(array.ty()).ok_or("not a container")?;
    let stream = stream_type(alloc, container.element.0, depth)?;
    let volume = container.shape.join(" * ");
    let pushed = Memlet {
        volume: Some(if volume.is_empty() {
            "1".into()
        } else {
            volume
        }),
        ..Memlet::plain("0")
    };
    // The memlets: the exit entry and the tasklet connector move one
    // element; the edges between the scopes move them all.
    let mut memlets = c.exit.array_attr("memlets");
    memlets[c.entry] = Memlet::plain("0").to_attr(alloc.context());
    c.exit
        .set_attr("memlets", array_of(alloc.context(), &memlets));
    sdfg_dialect::set_memlet_at(c.tasklet, c.connector, &Memlet::plain("0"));
    sdfg_dialect::set_memlet_at(c.consumer, c.operand, &pushed);
    let write_operand = c
        .access
        .operands()
        .iter()
        .position(|v| *v == c.producer.results()[c.result])
        .ok_or("the access node is not written by the producer")?;
    sdfg_dialect::set_memlet_at(c.access, write_operand, &pushed);
    // The types along the way.
    for value in [
        array,
        c.producer.results()[c.result],
        c.access.results()[0],
        c.consumer.region_args(0)[c.operand],
    ] {
        // SAFETY: the values are live; every user takes a stream there now.
        unsafe { mlir_sys::mlirValueSetType(value.raw(), stream) };
    }
    Ok(())
}

/// DaCe's `StreamingMemory`: where a device map reads one element of a
/// global array per iteration, a reader processing element over the same
/// ranges reads it and pushes it into a stream the map pops; where it
/// writes one element of a global array per iteration, it pushes it into a
/// stream that a writer processing element over the same ranges pops and
/// stores. Memory accesses then run apart from the computation (a DATAFLOW
/// region in HLS, with bursts on the reader's and the writer's side).
///
/// ```mlir
/// // before                                  // after
/// %m = sdfg.map ["i" = "0:N"]                %r = sdfg.map "read_x" ["i" = "0:N"] ins("x" = %x["0:N"])
///        ins("x" = %x["0:N"] : FPGA_Global)        tasklet (o = v[i]); exit ("x_stream" = %o["0"])
///        tasklet ins("v" = %xi["i"])         %s = sdfg.access %x_stream writes(%r["0", volume "N"])
///        exit ("y" = %o["i"])                %m = sdfg.map ["i" = "0:N"] ins("x" = %s["0", volume "N"])
/// %y = sdfg.access %Y writes(%m["0:N"])             tasklet ins("v" = %si["0"]); exit ("y" = %o["0"])
///                                            %t = sdfg.access %y_stream writes(%m["0", volume "N"])
///                                            %w = sdfg.map "write_y" ["i" = "0:N"] ins("y_stream" = %t[...])
///                                                   tasklet (o = v); exit ("y" = %o["i"])
///                                            %y = sdfg.access %Y writes(%w["0:N"])
/// ```
///
/// A read applies to a flat device map's input of an `FPGA_Global` array
/// that one tasklet connector reads, one element per iteration, and that
/// the map does not write. A write applies to an output of an
/// `FPGA_Global` array that the map does not read, written through one
/// exit entry from a tasklet, one element per iteration, without
/// write-conflict resolution or a dynamic volume. As for
/// [`streaming_composition`], both apply only where all of the state's
/// processing elements can then run at once. Returns the arrays read or
/// written through streams.
pub fn streaming_memory(sdfg: Op<'_>, depth: i64) -> Result<Vec<String>, String> {
    let mut streamed = Vec::new();
    let states: Vec<Op<'_>> = sdfg
        .descendants()
        .into_iter()
        .filter(|o| o.is("sdfg.state") && crate::enclosing_sdfg(*o) == Some(sdfg))
        .collect();
    for state in states {
        let plans: Vec<Reader<'_>> = state
            .region_ops(0)
            .into_iter()
            .filter(|o| o.is("sdfg.map"))
            .flat_map(readers)
            .collect();
        let writes: Vec<Writer<'_>> = state
            .region_ops(0)
            .into_iter()
            .filter(|o| o.is("sdfg.map") && is_flat_device_map(*o))
            .flat_map(writers)
            .collect();
        if (plans.is_empty() && writes.is_empty()) || !all_concurrent(state, &|_| false) {
            continue;
        }
        for plan in plans {
            streamed.push(add_reader(sdfg, plan, depth)?);
        }
        for plan in writes {
            streamed.push(add_writer(sdfg, plan, depth)?);
        }
    }
    Ok(streamed)
}

/// Whether all processing elements of `state` can run at once (as
/// DATAFLOW): the state holds only scopes and access nodes they write, and
/// no scope writes what another accesses, except streams and the
/// containers `also_connects` accepts.
fn all_concurrent(state: Op<'_>, also_connects: &dyn Fn(Val<'_>) -> bool) -> bool {
    let ops = state.region_ops(0);
    let scopes: Vec<Op<'_>> = ops
        .iter()
        .copied()
        .filter(|o| matches!(o.name(), "sdfg.map" | "sdfg.nested" | "sdfg.consume"))
        .collect();
    let only_scopes = ops.iter().all(|o| {
        scopes.contains(o)
            || (o.is("sdfg.access")
                && o.operand_segment(1)
                    .iter()
                    .all(|w| w.defining_op().is_some_and(|d| d.is("sdfg.map"))))
    });
    let connects = |c: Val<'_>| {
        also_connects(c)
            || Container::from_type(c.ty()).is_some_and(|k| k.kind == ContainerKind::Stream)
    };
    only_scopes && sdfg_analysis::graph::concurrent_scopes(&scopes, &connects)
}

/// One input of a map that a reader can stream.
struct Reader<'a> {
    map: Op<'a>,
    operand: usize,
    tasklet: Op<'a>,
    connector: usize,
}

/// Whether `map` is a device map without inner scopes or dynamic ranges:
/// one that moves through its iterations in order, as a stream does.
fn is_flat_device_map(map: Op<'_>) -> bool {
    let device = map
        .attr("schedule")
        .and_then(Schedule::from_attr)
        .is_some_and(|s| s.name() == "FPGA_Device");
    device && !crate::maps::has_inner_scopes(map) && map.operand_segment(1).is_empty()
}

fn readers(map: Op<'_>) -> Vec<Reader<'_>> {
    if !is_flat_device_map(map) {
        return Vec::new();
    }
    let written: Vec<Val<'_>> = map
        .results()
        .iter()
        .flat_map(|r| r.uses())
        .filter(|(u, _)| u.is("sdfg.access"))
        .map(|(u, _)| u.operands()[0])
        .collect();
    let mut plans = Vec::new();
    for (operand, value) in map.operand_segment(0).into_iter().enumerate() {
        let container = sdfg_dialect::underlying_container(value);
        let global = Container::from_type(container.ty())
            .is_some_and(|c| c.kind == ContainerKind::Array && c.storage.name() == "FPGA_Global");
        if !global
            || written.contains(&container)
            || !value.defining_op().is_some_and(|d| d.is("sdfg.access"))
        {
            continue;
        }
        let arg = map.region_args(0)[operand];
        let uses = arg.uses();
        let [(tasklet, connector)] = uses.as_slice() else {
            continue;
        };
        let one = sdfg_dialect::memlet_at(*tasklet, *connector)
            .and_then(|m| sdfg_symbolic::parse_subset(&m.subset).ok())
            .is_some_and(|s| s.volume().as_int() == Some(1));
        if tasklet.is("sdfg.tasklet") && *connector < tasklet.operand_segment(0).len() && one {
            plans.push(Reader {
                map,
                operand,
                tasklet: *tasklet,
                connector: *connector,
            });
        }
    }
    plans
}

/// One output of a map that a writer can stream.
struct Writer<'a> {
    map: Op<'a>,
    result: usize,
    exit: Op<'a>,
    entry: usize,
    access: Op<'a>,
}

fn writers(map: Op<'_>) -> Vec<Writer<'_>> {
    let Some(exit) = crate::scope_exit(map) else {
        return Vec::new();
    };
    let read: Vec<Val<'_>> = map
        .operand_segment(0)
        .into_iter()
        .map(sdfg_dialect::underlying_container)
        .collect();
    let memlets = exit.array_attr("memlets");
    let mut plans = Vec::new();
    for (result, out_name) in map.str_array_attr("out_names").iter().enumerate() {
        let uses = map.results()[result].uses();
        let [(access, operand)] = uses.as_slice() else {
            continue;
        };
        let container = access.operands()[0];
        let global = Container::from_type(container.ty())
            .is_some_and(|c| c.kind == ContainerKind::Array && c.storage.name() == "FPGA_Global");
        if !access.is("sdfg.access")
            || *operand == 0
            || !global
            || read.contains(&container)
            || !plain_write(*access, *operand)
        {
            continue;
        }
        let entries = crate::exit_entries(exit, out_name);
        let [entry] = entries.as_slice() else {
            continue;
        };
        // One element per iteration, from a tasklet, unconditionally.
        let one = memlets
            .get(*entry)
            .copied()
            .and_then(Memlet::from_attr)
            .filter(|m| !m.dynamic && m.wcr == sdfg_dialect::Wcr::None)
            .and_then(|m| sdfg_symbolic::parse_subset(&m.subset).ok())
            .is_some_and(|s| s.volume().as_int() == Some(1));
        let from_tasklet = exit.operands()[*entry]
            .defining_op()
            .is_some_and(|d| d.is("sdfg.tasklet"));
        if one && from_tasklet {
            plans.push(Writer {
                map,
                result,
                exit,
                entry: *entry,
                access: *access,
            });
        }
    }
    plans
}

/// Whether the memlet of the access node's write `operand` is neither
/// dynamic nor a write-conflict resolution: the writer stores every
/// element it pops.
fn plain_write(access: Op<'_>, operand: usize) -> bool {
    sdfg_dialect::memlet_at(access, operand)
        .is_some_and(|m| !m.dynamic && m.wcr == sdfg_dialect::Wcr::None)
}

/// What a processing element that moves one element per iteration of a
/// map's ranges reads and writes.
struct ElementMover<'a> {
    label: String,
    input: Val<'a>,
    in_name: String,
    outer: Memlet,
    inner: Memlet,
    out_name: String,
    written: Memlet,
    element: MlirType,
    result: MlirType,
}

/// Creates, before `before`, a device map over `map`'s ranges whose
/// tasklet moves one element per iteration as `mover` says.
fn element_mover<'a>(
    map: Op<'a>,
    before: Op<'a>,
    mover: ElementMover<'a>,
) -> Result<Op<'a>, String> {
    let failed = |what: &str| format!("{what} could not be made");
    let ctx = map.context();
    let device = Schedule::from_name("FPGA_Device").unwrap_or_default();
    let attributes = vec![
        ("label", rewrite::str_attr(map, &mover.label)),
        (
            "params",
            map.attr("params").ok_or("the map has no parameters")?,
        ),
        ("ranges", map.attr("ranges").ok_or("the map has no ranges")?),
        ("in_memlets", array_of(ctx, &[mover.outer.to_attr(ctx)])),
        (
            "in_names",
            rewrite::str_array_attr(map, &[mover.in_name.as_str()]),
        ),
        (
            "out_names",
            rewrite::str_array_attr(map, &[mover.out_name.as_str()]),
        ),
        ("schedule", rewrite::schedule_attr(map, device)),
        (
            "operandSegmentSizes",
            rewrite::segment_sizes(map, &[1, 0, 0]),
        ),
    ];
    let scope = rewrite::create_op_before(
        before,
        "sdfg.map",
        &[mover.input],
        &attributes,
        &[mover.result],
        Some(&[mover.input.ty()]),
    )
    .ok_or_else(|| failed("the map"))?;
    let tasklet_attributes = [
        ("label", rewrite::str_attr(map, &mover.label)),
        ("in_memlets", array_of(ctx, &[mover.inner.to_attr(ctx)])),
        ("in_names", rewrite::str_array_attr(map, &["v"])),
        ("out_names", rewrite::str_array_attr(map, &["o"])),
        ("operandSegmentSizes", rewrite::segment_sizes(map, &[1, 0])),
    ];
    let tasklet = rewrite::create_scope_at_end(
        scope,
        "sdfg.tasklet",
        &[scope.region_args(0)[0]],
        &tasklet_attributes,
        &[mover.element],
        &[mover.element],
    )
    .ok_or_else(|| failed("the tasklet"))?;
    rewrite::create_op_at_end(
        tasklet,
        "sdfg.yield",
        &[tasklet.region_args(0)[0]],
        &[],
        &[],
    )
    .ok_or_else(|| failed("the yield"))?;
    rewrite::create_op_at_end(
        scope,
        "sdfg.exit",
        &[tasklet.results()[0]],
        &[
            ("memlets", array_of(ctx, &[mover.written.to_attr(ctx)])),
            (
                "names",
                rewrite::str_array_attr(map, &[mover.out_name.as_str()]),
            ),
        ],
        &[],
    )
    .ok_or_else(|| failed("the exit"))?;
    Ok(scope)
}

/// The stream a reader or writer moves an array's elements through.
struct NewStream<'a> {
    /// The array's name.
    name: String,
    /// The stream's name.
    stream_name: String,
    /// The element type.
    element: MlirType,
    /// The stream's type: `depth` elements in on-chip memory.
    ty: MlirType,
    /// Its container.
    value: Val<'a>,
}

impl<'a> NewStream<'a> {
    /// A new stream `<array>_stream` of `array`'s elements in `sdfg`.
    fn of(sdfg: Op<'a>, anchor: Op<'a>, array: Val<'a>, depth: i64) -> Result<Self, String> {
        let name = container_name(array).unwrap_or_else(|| "data".into());
        let element = Container::from_type(array.ty())
            .ok_or("not a container")?
            .element
            .0;
        let ty = stream_type(anchor, element, depth)?;
        let stream_name = crate::fresh_name(sdfg, &format!("{name}_stream"));
        let value =
            rewrite::create_alloc(sdfg, &stream_name, ty).ok_or("the stream could not be made")?;
        Ok(NewStream {
            name,
            stream_name,
            element,
            ty,
            value,
        })
    }
}

/// A stream of `element`s, `depth` deep, in on-chip memory.
fn stream_type(anchor: Op<'_>, element: MlirType, depth: i64) -> Result<MlirType, String> {
    let element = sdfg_dialect::ir::type_to_string(element);
    let text = format!("!sdfg.stream<{element} buffer \"{depth}\" storage FPGA_Local>");
    rewrite::parse_type(anchor, &text).ok_or_else(|| format!("type `{text}` does not parse"))
}

/// The number of iterations of `map`, as a memlet that moves them all
/// through element 0 of a stream.
fn all_iterations(map: Op<'_>) -> Memlet {
    let volume = crate::maps::params(map)
        .iter()
        .map(|(_, r)| {
            sdfg_symbolic::parse_subset(r)
                .map(|s| s.volume())
                .unwrap_or_else(|_| sdfg_symbolic::Expr::int(1))
        })
        .fold(sdfg_symbolic::Expr::int(1), |a, b| {
            sdfg_symbolic::Expr::mul(&a, &b)
        });
    Memlet {
        volume: Some(volume.to_string()),
        ..Memlet::plain("0")
    }
}

/// Adds the reader of `plan` and its stream; returns the array's name.
fn add_reader(sdfg: Op<'_>, plan: Reader<'_>, depth: i64) -> Result<String, String> {
    let map = plan.map;
    let source = map.operand_segment(0)[plan.operand];
    let new = NewStream::of(sdfg, map, sdfg_dialect::underlying_container(source), depth)?;
    let (name, stream_name, stream_ty) = (new.name, new.stream_name, new.ty);
    let (element, stream) = (new.element, new.value);
    let pushed = all_iterations(map);
    // The reader: the map's ranges, one element read and pushed per
    // iteration.
    let reader = element_mover(
        map,
        map,
        ElementMover {
            label: format!("read_{name}"),
            input: source,
            in_name: name.clone(),
            outer: sdfg_dialect::memlet_at(map, plan.operand)
                .ok_or("the map's input has no memlet")?,
            inner: sdfg_dialect::memlet_at(plan.tasklet, plan.connector)
                .ok_or("the read has no memlet")?,
            out_name: stream_name.clone(),
            written: Memlet::plain("0"),
            element,
            result: stream_ty,
        },
    )?;
    let access = crate::write_node(map, stream, reader.results()[0], &pushed)?;
    // The map pops it.
    rewrite::set_operand(map, plan.operand, access.results()[0]);
    sdfg_dialect::set_memlet_at(map, plan.operand, &pushed);
    sdfg_dialect::set_memlet_at(plan.tasklet, plan.connector, &Memlet::plain("0"));
    // SAFETY: the block argument is live; its one user pops a stream now.
    unsafe { mlir_sys::mlirValueSetType(map.region_args(0)[plan.operand].raw(), stream_ty) };
    Ok(name)
}

/// Adds the writer of `plan` and its stream; returns the array's name.
fn add_writer(sdfg: Op<'_>, plan: Writer<'_>, depth: i64) -> Result<String, String> {
    let map = plan.map;
    let ctx = map.context();
    let new = NewStream::of(sdfg, map, plan.access.operands()[0], depth)?;
    let (name, stream_name, stream_ty) = (new.name, new.stream_name, new.ty);
    let (element, stream) = (new.element, new.value);
    let pushed = all_iterations(map);
    let produced = map.results()[plan.result];
    let array_ty = produced.ty();
    // The map pushes what it wrote into the stream.
    let mut memlets = plan.exit.array_attr("memlets");
    let written = Memlet::from_attr(memlets[plan.entry]).ok_or("the exit has no memlet")?;
    memlets[plan.entry] = Memlet::plain("0").to_attr(ctx);
    plan.exit.set_attr("memlets", array_of(ctx, &memlets));
    let access = crate::write_node(plan.access, stream, produced, &pushed)?;
    // The writer: the map's ranges, one element popped and stored per
    // iteration where the map stored it.
    let writer = element_mover(
        map,
        plan.access,
        ElementMover {
            label: format!("write_{name}"),
            input: access.results()[0],
            in_name: stream_name.clone(),
            outer: pushed,
            inner: Memlet::plain("0"),
            out_name: name.clone(),
            written,
            element,
            result: array_ty,
        },
    )?;
    let operand = plan
        .access
        .operands()
        .iter()
        .position(|v| *v == produced)
        .ok_or("the access node is not written by the map")?;
    rewrite::set_operand(plan.access, operand, writer.results()[0]);
    // SAFETY: the result is live; its one user, the access node made
    // above, takes a stream.
    unsafe { mlir_sys::mlirValueSetType(produced.raw(), stream_ty) };
    Ok(name)
}
