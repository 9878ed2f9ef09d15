//! `sdfg-gpu-transform`: makes an SDFG run on the GPU, as DaCe's
//! `GPUTransformSDFG` (`sdfg.apply_gpu_transformations()`) does. The host
//! keeps the control flow; every top-level map becomes a kernel, over
//! device copies of the program's arrays that a state before the program
//! fills and a state after it copies back.
//!
//! ```mlir
//! // before
//! sdfg.sdfg @f(%A: !sdfg.array<f64 ["N"]> as "A") {
//!   %t = sdfg.alloc "t" : !sdfg.array<f64 ["N"]>
//!   sdfg.state @s {
//!     %m = sdfg.map "scale" ["i" = "0:N"] ins(... %A ...) outs(... %t ...) {
//!       %n = sdfg.map "inner" ["j" = "0:4"] ... { ... }
//!     }
//!     %w = sdfg.tasklet "last" ins(... %t["N - 1"] ...) outs(... %A["0"] ...)
//!   }
//! }
//! // after
//! sdfg.sdfg @f(%A: !sdfg.array<f64 ["N"]> as "A") {
//!   %gA = sdfg.alloc "gpu_A" : !sdfg.array<f64 ["N"] storage GPU_Global>
//!   %t = sdfg.alloc "t" : !sdfg.array<f64 ["N"] storage GPU_Global>
//!   sdfg.state @pre_f { copy A -> gpu_A }
//!   sdfg.state @s {
//!     %m = sdfg.map "scale" ["i" = "0:N"] schedule GPU_Device ... {
//!       %n = sdfg.map "inner" ["j" = "0:4"] schedule Sequential ... { ... }
//!     }
//!     %w = sdfg.map "last_map" ["last__gmapi" = "0:1"] schedule GPU_Device ... {
//!       sdfg.tasklet "last" ...
//!     }
//!   }
//!   sdfg.state @post_f { copy gpu_A -> A }
//! }
//! ```
//!
//! The steps, in DaCe's order:
//!
//! - **Device copies.** Every array argument the program accesses gets a
//!   transient `gpu_X` in `GPU_Global` memory that the program uses
//!   instead; all of them are copied in (so that an array written only in
//!   part keeps its other elements when it is copied back) and the written
//!   ones copied out (`crate::device`). A scalar argument stays on the host,
//!   where kernels read it by value, unless GPU code writes it: then it is
//!   copied like an array.
//! - **Schedules.** The maps at the top level of every state become
//!   `GPU_Device` kernels; maps and library nodes inside them become
//!   `Sequential` (option `sequential-innermaps`, default true), each
//!   kernel thread running them in order. Nested SDFGs and library nodes at
//!   the top level of a state become `GPU_Default` (the lowering launches
//!   their maps, or runs them as a kernel of one thread).
//! - **Tasklets outside scopes** run on the GPU, each in a map of one
//!   iteration, when they touch GPU memory: an array, or a scalar that GPU
//!   code writes. The others stay on the host (DaCe's
//!   `skip_scalar_tasklets`), so that scalar arithmetic between kernels
//!   does not launch kernels. Which scalars GPU code writes is a fixed
//!   point: a tasklet that moves to the GPU moves the scalars it touches.
//! - **Transients.** Arrays and views accessed at the top level of a state
//!   go to `GPU_Global`. Those accessed only inside kernels become
//!   `Register` (option `register-transients`, default true): the lowering
//!   gives each thread its own. Scalars go to `GPU_Global` where GPU code
//!   writes them, else `Register` when only kernels touch them, else they
//!   stay on the host. Control flow may read a GPU scalar by name (the
//!   lowering copies it to the host).
//!
//! The transform does not apply, and says why, to a program that already
//! has device schedules or storage; returns from inside its control flow;
//! has consume scopes, streams, references or structures; has a tasklet
//! or nested SDFG outside scopes that passes values straight to another
//! (DaCe refuses these too); reads an array in its control flow; or has a
//! top-level map whose dynamic range reads device memory. Unlike DaCe, it
//! does not recurse into nested SDFGs outside kernels; it leaves them to
//! the lowering's inference (their maps over device arrays are launched as
//! kernels).

use std::collections::HashSet;

use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::{Op, Val};
use sdfg_dialect::{container_name, rewrite, Container, ContainerKind, Schedule, Storage};

use crate::device;
use crate::storage::set_storage;

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-gpu-transform",
    summary: "Make every top-level SDFG run on the GPU, as DaCe's GPUTransformSDFG: array \
              arguments copied into GPU_Global memory and back, top-level maps GPU_Device \
              kernels, tasklets outside scopes that touch GPU memory in maps of one iteration, \
              transients GPU_Global or Register; options sequential-innermaps (true: maps \
              inside kernels Sequential) and register-transients (true: transients only \
              kernels touch in Register storage)",
    op_name: "builtin.module",
    create: || Box::<GpuTransform>::default(),
};

/// The pass (see the module documentation).
#[derive(Clone, Copy)]
pub struct GpuTransform {
    /// Whether maps and library nodes inside kernels become `Sequential`.
    pub sequential_innermaps: bool,
    /// Whether transients that only kernels touch become `Register`.
    pub register_transients: bool,
}

impl Default for GpuTransform {
    fn default() -> Self {
        GpuTransform {
            sequential_innermaps: true,
            register_transients: true,
        }
    }
}

impl RustPass for GpuTransform {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        const PASS: &str = "sdfg-gpu-transform";
        for option in options.split_whitespace() {
            let (key, value) = option
                .split_once('=')
                .ok_or_else(|| format!("{PASS}: option `{option}` is not key=value"))?;
            let field = match key {
                "sequential-innermaps" => &mut self.sequential_innermaps,
                "register-transients" => &mut self.register_transients,
                _ => {
                    return Err(format!(
                        "{PASS}: unknown option `{key}` (the options are sequential-innermaps and register-transients)"
                    ))
                }
            };
            *field = crate::bool_option(PASS, key, value)?;
        }
        Ok(())
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        let options = *self;
        device::transform_programs(module, "sdfg-gpu-transform", |sdfg| {
            gpu_transform(sdfg, options)
        })
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(*self)
    }
}

pub use crate::device::Refusal;

fn schedule(name: &str) -> Schedule {
    Schedule::from_name(name).unwrap_or_default()
}

fn storage(name: &str) -> Storage {
    Storage::from_name(name).unwrap_or_default()
}

/// The kind of container `value` is, if it is one.
fn kind(value: Val<'_>) -> Option<ContainerKind> {
    Container::from_type(value.ty()).map(|c| c.kind)
}

/// The containers that the dataflow node `node` reads through access
/// nodes of its state.
fn read_containers(node: Op<'_>) -> Vec<Val<'_>> {
    node.operands()
        .into_iter()
        .filter_map(|v| v.defining_op())
        .filter(|d| d.is("sdfg.access"))
        .filter_map(sdfg_dialect::accessed_container)
        .collect()
}

/// The containers whose access nodes the dataflow node `node` writes.
fn written_containers(node: Op<'_>) -> Vec<Val<'_>> {
    node.results()
        .into_iter()
        .flat_map(|r| r.uses())
        .map(|(user, _)| user)
        .filter(|user| user.is("sdfg.access"))
        .filter_map(sdfg_dialect::accessed_container)
        .collect()
}

/// Whether a kernel thread can hold `container`: a view (which allocates
/// nothing) or a container of constant size.
fn constant_size(container: &Container) -> bool {
    container.kind == ContainerKind::View
        || container.shape.iter().all(|s| s.parse::<i64>().is_ok())
}

/// A plain name for a map parameter made from `label`.
pub(crate) fn identifier(label: &str) -> String {
    let name: String = label
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{name}")
    } else {
        name
    }
}

/// Makes the top-level SDFG `sdfg` run on the GPU (see the module
/// documentation).
pub fn gpu_transform(sdfg: Op<'_>, options: GpuTransform) -> Result<(), Refusal> {
    let level = plan(sdfg, &HashSet::new(), options)?;
    let args = sdfg.region_args(0);
    let mentioned = crate::mentioned_names(sdfg);
    for arg in &args {
        let name = container_name(*arg).unwrap_or_default();
        if level.gpu_scalars.contains(&key(*arg)) && mentioned.contains(&name) {
            return Err(Refusal::NotApplicable(format!(
                "scalar argument '{name}' is written on the GPU and read by name on the host"
            )));
        }
    }

    // From here on the SDFG changes.
    let program = device::enclose_program(sdfg).map_err(Refusal::NotApplicable)?;
    let copies = device::clone_arguments(sdfg, program, "gpu", storage("GPU_Global"), |c, arg| {
        c.kind != ContainerKind::Scalar || level.gpu_scalars.contains(&key(arg))
    })
    .map_err(Refusal::Failed)?;
    apply(level, options)?;
    device::add_copy_states(sdfg, program, &copies).map_err(Refusal::Failed)
}

/// An identity for a value, to keep sets of them.
fn key(value: Val<'_>) -> usize {
    value.raw().ptr as usize
}

/// What the transform does to one SDFG: the top-level one, or one nested
/// in a state of it outside any scope (host code that launches kernels).
struct Level<'a> {
    /// The SDFG's dataflow nodes at the top level of its states.
    nodes: Vec<Op<'a>>,
    /// The tasklets among them that run on the GPU.
    gpu_tasklets: Vec<Op<'a>>,
    /// The scalars GPU code writes or reads from GPU code (keys).
    gpu_scalars: HashSet<usize>,
    /// The new storage of transients, and of arguments whose data lives
    /// on the GPU (nested SDFGs).
    placements: Vec<(Val<'a>, Storage)>,
    /// The nested SDFGs outside scopes, transformed the same way.
    nested: Vec<Level<'a>>,
}

/// Plans the transform of `sdfg`, whose arguments of keys `gpu_args` are
/// in GPU memory already, without changing it.
fn plan<'a>(
    sdfg: Op<'a>,
    gpu_args: &HashSet<usize>,
    options: GpuTransform,
) -> Result<Level<'a>, Refusal> {
    let states: Vec<Op<'_>> = sdfg
        .descendants()
        .into_iter()
        .filter(|o| o.is("sdfg.state") && crate::enclosing_sdfg(*o) == Some(sdfg))
        .collect();
    check_applies(sdfg, &states)?;
    let nodes: Vec<Op<'_>> = states.iter().flat_map(|s| s.region_ops(0)).collect();

    // Which scalars GPU code touches, and which tasklets outside scopes
    // run on the GPU: a fixed point from the arguments already there and
    // what kernels, nested SDFGs and library nodes write.
    let mut gpu_scalars: HashSet<usize> = gpu_args.clone();
    for node in nodes
        .iter()
        .filter(|n| matches!(n.name(), "sdfg.map" | "sdfg.nested" | "sdfg.library"))
    {
        for c in written_containers(*node) {
            if kind(c) == Some(ContainerKind::Scalar) {
                gpu_scalars.insert(key(c));
            }
        }
    }
    let tasklets: Vec<Op<'_>> = nodes
        .iter()
        .copied()
        .filter(|n| n.is("sdfg.tasklet"))
        .collect();
    let mut on_gpu = vec![false; tasklets.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for (t, tasklet) in tasklets.iter().enumerate() {
            if on_gpu[t] {
                continue;
            }
            let touched: Vec<Val<'_>> = read_containers(*tasklet)
                .into_iter()
                .chain(written_containers(*tasklet))
                .collect();
            let gpu = touched
                .iter()
                .any(|c| kind(*c) != Some(ContainerKind::Scalar) || gpu_scalars.contains(&key(*c)));
            if gpu {
                on_gpu[t] = true;
                changed = true;
                gpu_scalars.extend(touched.into_iter().map(key));
            }
        }
    }
    let on_device =
        |c: Val<'_>| kind(c) != Some(ContainerKind::Scalar) || gpu_scalars.contains(&key(c));

    // A kernel's dynamic range is read on the host when it is launched.
    for node in nodes.iter().filter(|n| n.is("sdfg.map")) {
        for value in node.operand_segment(1) {
            let device_data = value
                .defining_op()
                .filter(|d| d.is("sdfg.access"))
                .and_then(sdfg_dialect::accessed_container)
                .filter(|c| on_device(*c));
            if let Some(c) = device_data {
                let label = node.str_attr("label").unwrap_or("map");
                let name = container_name(c).unwrap_or_default();
                return Err(Refusal::NotApplicable(format!(
                    "map '{label}' has a dynamic range read from '{name}', which would be in device memory"
                )));
            }
        }
        // A kernel thread allocates the transients of the SDFGs nested in
        // it on its stack.
        let nested = node
            .descendants()
            .into_iter()
            .filter(|o| o.is("sdfg.alloc"))
            .map(|o| o.results()[0]);
        for value in nested {
            if let Some(c) = Container::from_type(value.ty()).filter(|c| !constant_size(c)) {
                let name = container_name(value).unwrap_or_default();
                return Err(Refusal::NotApplicable(format!(
                    "transient '{name}' of a nested SDFG in map '{}' has size [{}], and a kernel thread holds only constant sizes",
                    node.str_attr("label").unwrap_or("map"),
                    c.shape.join(", ")
                )));
            }
        }
    }

    // Where the transients go.
    let gpu_global = storage("GPU_Global");
    let mut placements = Vec::new();
    for alloc in sdfg
        .region_ops(0)
        .into_iter()
        .filter(|o| o.is("sdfg.alloc"))
    {
        let value = alloc.results()[0];
        let Some(container) = Container::from_type(value.ty()) else {
            continue;
        };
        let uses = value.uses();
        let in_kernels = !uses.is_empty()
            && uses.iter().all(|(user, _)| {
                user.ancestor("sdfg.map")
                    .is_some_and(|m| crate::enclosing_sdfg(m) == Some(sdfg))
            });
        if in_kernels && !constant_size(&container) {
            let name = container_name(value).unwrap_or_default();
            return Err(Refusal::NotApplicable(format!(
                "transient '{name}' lives inside kernels with size [{}], and a kernel thread holds only constant sizes",
                container.shape.join(", ")
            )));
        }
        let target = match container.kind {
            ContainerKind::Scalar if gpu_scalars.contains(&key(value)) => "GPU_Global",
            ContainerKind::Array | ContainerKind::View | ContainerKind::Scalar
                if in_kernels && options.register_transients =>
            {
                "Register"
            }
            ContainerKind::Array | ContainerKind::View => "GPU_Global",
            _ => continue,
        };
        placements.push((value, storage(target)));
    }
    // Arguments whose data the caller keeps on the GPU.
    placements.extend(
        sdfg.region_args(0)
            .into_iter()
            .filter(|a| gpu_args.contains(&key(*a)))
            .map(|a| (a, gpu_global)),
    );

    // The nested SDFGs outside scopes: host code whose arguments bound to
    // device data are device data.
    let mut nested = Vec::new();
    for node in nodes.iter().filter(|n| n.is("sdfg.nested")) {
        let Some(inner) = node.region_ops(0).into_iter().find(|o| o.is("sdfg.sdfg")) else {
            continue;
        };
        let outer: Vec<(String, Val<'_>)> = connected_containers(*node);
        let names = inner.str_array_attr("arg_names");
        let inner_gpu: HashSet<usize> = inner
            .region_args(0)
            .into_iter()
            .zip(names)
            .filter(|(_, name)| {
                outer
                    .iter()
                    .any(|(connector, c)| connector == name && on_device(*c))
            })
            .map(|(arg, _)| key(arg))
            .collect();
        nested.push(plan(inner, &inner_gpu, options)?);
    }

    let gpu_tasklets = tasklets
        .into_iter()
        .zip(on_gpu)
        .filter_map(|(t, gpu)| gpu.then_some(t))
        .collect();
    Ok(Level {
        nodes,
        gpu_tasklets,
        gpu_scalars,
        placements,
        nested,
    })
}

/// The containers that the nested SDFG `node` reads and writes through
/// access nodes, each with the connector it is bound to.
fn connected_containers<'a>(node: Op<'a>) -> Vec<(String, Val<'a>)> {
    let access = |v: Val<'a>| {
        v.defining_op()
            .filter(|d| d.is("sdfg.access"))
            .and_then(sdfg_dialect::accessed_container)
    };
    let ins = node
        .str_array_attr("in_names")
        .into_iter()
        .zip(node.operand_segment(0))
        .filter_map(|(name, v)| access(v).map(|c| (name.to_string(), c)));
    let outs = node
        .str_array_attr("out_names")
        .into_iter()
        .zip(node.results())
        .flat_map(|(name, r)| {
            r.uses()
                .into_iter()
                .filter(|(user, _)| user.is("sdfg.access"))
                .filter_map(|(user, _)| sdfg_dialect::accessed_container(user))
                .map(move |c| (name.to_string(), c))
        });
    ins.chain(outs).collect()
}

/// Carries out the plan `level`.
fn apply(level: Level<'_>, options: GpuTransform) -> Result<(), Refusal> {
    for (value, target) in &level.placements {
        set_storage(*value, *target).map_err(Refusal::Failed)?;
    }
    let device = schedule("GPU_Device");
    let sequential = schedule("Sequential");
    for node in &level.nodes {
        match node.name() {
            "sdfg.map" => {
                node.set_attr("schedule", rewrite::schedule_attr(*node, device));
                if options.sequential_innermaps {
                    for inner in node
                        .descendants()
                        .into_iter()
                        .filter(|o| matches!(o.name(), "sdfg.map" | "sdfg.library"))
                    {
                        inner.set_attr("schedule", rewrite::schedule_attr(inner, sequential));
                    }
                }
            }
            "sdfg.library" => {
                node.set_attr(
                    "schedule",
                    rewrite::schedule_attr(*node, schedule("GPU_Default")),
                );
            }
            _ => {}
        }
    }
    for tasklet in &level.gpu_tasklets {
        let label = tasklet.str_attr("label").unwrap_or("tasklet");
        let param = format!("{}__gmapi", identifier(label));
        device::wrap_in_map(*tasklet, device, &param).map_err(Refusal::Failed)?;
    }
    for inner in level.nested {
        apply(inner, options)?;
    }
    Ok(())
}

/// Checks that the transform applies to `sdfg`, whose own states are
/// `states`.
fn check_applies(sdfg: Op<'_>, states: &[Op<'_>]) -> Result<(), Refusal> {
    let refuse = |why: String| Err(Refusal::NotApplicable(why));
    if let Some(consume) = sdfg
        .descendants()
        .into_iter()
        .find(|o| o.is("sdfg.consume"))
    {
        let label = consume.str_attr("label").unwrap_or("consume");
        return refuse(format!(
            "consume scope '{label}' has no GPU schedule (DaCe's transform refuses it too)"
        ));
    }
    for value in sdfg_dialect::containers(sdfg) {
        let what = match kind(value) {
            Some(ContainerKind::Stream) => "stream",
            Some(ContainerKind::Reference) => "reference",
            Some(ContainerKind::Structure) => "structure",
            _ => continue,
        };
        let name = container_name(value).unwrap_or_default();
        return refuse(format!("{what} '{name}' has no GPU placement here"));
    }
    for node in states.iter().flat_map(|s| s.region_ops(0)) {
        if !matches!(node.name(), "sdfg.tasklet" | "sdfg.nested") {
            continue;
        }
        let feeds_code = node.results().iter().any(|r| {
            r.uses()
                .iter()
                .any(|(user, _)| matches!(user.name(), "sdfg.tasklet" | "sdfg.nested"))
        });
        if feeds_code {
            let label = node.str_attr("label").unwrap_or("node");
            return refuse(format!(
                "'{label}' outside any scope passes a value straight to another tasklet or nested SDFG"
            ));
        }
        if node.is("sdfg.tasklet") {
            device::wrappable(node).map_err(Refusal::NotApplicable)?;
        }
    }
    device::check_host_program(sdfg).map_err(Refusal::NotApplicable)
}
