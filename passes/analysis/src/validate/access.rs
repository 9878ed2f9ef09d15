//! Where data may be touched: DaCe's accessibility checks.
//!
//! Host code cannot dereference device memory. DaCe reports a container
//! stored on a GPU (`GPU_Global`, `GPU_Shared`) or an FPGA (`FPGA_Global`,
//! `FPGA_Local`, `FPGA_Registers`, `FPGA_ShiftRegister`) that an
//! inter-state edge subscripts (`A[i]`; a scalar read by its name is
//! copied to the host), or that a tasklet or a dynamic map range reads
//! or writes element by element, outside a scope of that device. Two
//! cases are left to schedule inference, as in DaCe: code under a map or
//! consume scope with the `Default` schedule (a top-level map over GPU
//! data becomes a kernel), and a nested SDFG called from such a scope. Copies between
//! access nodes are not checked: they are how data moves between host
//! and device.
//!
//! ```mlir
//! // reported: a host tasklet reading one element of GPU memory
//! %g = sdfg.access %G : !sdfg.array<f64 ["N"], storage GPU_Global>
//! %t = sdfg.tasklet "t" ins("x" = %g["0"] : ...) outs("o" : f64) { ... }
//! ```

use super::{carried_container, own_ops, Reporter};
use sdfg_dialect::ir::{Op, Val};
use sdfg_dialect::layout::layout;
use sdfg_dialect::{container_name, incoming_edges, Container, EdgeRole, Memlet, Schedule};
use sdfg_symbolic::parse_subset;

/// Where code runs, as far as accessing memory goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Device {
    Host,
    Gpu,
    Fpga,
    /// Under a `Default` schedule: decided by schedule inference.
    Inferred,
}

/// The device a container of `value`'s type lives on, if not the host.
fn device_of(value: Val<'_>) -> Option<Device> {
    let storage = layout(value.ty()).ok()?.storage;
    match storage.name() {
        "GPU_Global" | "GPU_Shared" => Some(Device::Gpu),
        "FPGA_Global" | "FPGA_Local" | "FPGA_Registers" | "FPGA_ShiftRegister" => {
            Some(Device::Fpga)
        }
        _ => None,
    }
}

/// Where the code of `op` runs: the first device schedule among the
/// scopes and calls around it, through the SDFGs it is nested in, or
/// `Inferred` under a map with the `Default` schedule.
fn device_at(op: Op<'_>) -> Device {
    device_from(op.parent())
}

/// [`device_at`], from the scope or call `first` outward.
fn device_from(first: Option<Op<'_>>) -> Device {
    let mut inferred = false;
    let mut at = first;
    while let Some(p) = at {
        if matches!(
            p.name(),
            "sdfg.map" | "sdfg.consume" | "sdfg.nested" | "sdfg.library"
        ) {
            let schedule = p.attr("schedule").and_then(Schedule::from_attr);
            let name = schedule.map(|s| s.name()).unwrap_or("Default");
            if name.starts_with("GPU_") {
                return Device::Gpu;
            }
            if name == "FPGA_Device" {
                return Device::Fpga;
            }
            inferred |= matches!(p.name(), "sdfg.map" | "sdfg.consume") && name == "Default";
        }
        at = p.parent();
    }
    if inferred {
        Device::Inferred
    } else {
        Device::Host
    }
}

/// The containers that `value`, a result of a dataflow op, is written
/// into (by access nodes, directly or through the exits of the scopes
/// around), each with the memlet of the edge that leaves `value`.
fn written_containers(value: Val<'_>) -> Vec<(Val<'_>, Option<Memlet>)> {
    let mut out = Vec::new();
    for (user, _) in value.uses() {
        let Some(edge) = incoming_edges(user).into_iter().find(|e| e.source == value) else {
            continue;
        };
        if user.is("sdfg.access") {
            out.extend(user.operands().first().map(|d| (*d, edge.memlet)));
        } else if user.is("sdfg.exit") && edge.role == EdgeRole::Exit {
            let Some(scope) = user.parent() else { continue };
            let names = scope.str_array_attr("out_names");
            let index = names.iter().position(|n| Some(*n) == edge.connector);
            if let Some(result) = index.and_then(|i| scope.results().get(i).copied()) {
                let further = written_containers(result);
                out.extend(further.into_iter().map(|(d, _)| (d, edge.memlet.clone())));
            }
        }
    }
    out
}

/// Whether `memlet` moves one element.
fn one_element(memlet: Option<&Memlet>) -> bool {
    memlet.is_some_and(|m| parse_subset(&m.subset).is_ok_and(|s| s.volume().as_int() == Some(1)))
}

/// Whether `value` is one element (not a container): a tasklet connector
/// that the tasklet dereferences.
fn is_element(value: Val<'_>) -> bool {
    Container::from_type(value.ty()).is_none()
}

/// Reports the accesses of `sdfg` (not of the SDFGs nested in it) that
/// touch device memory from code that does not run on that device.
pub(super) fn check_accessibility(sdfg: Op<'_>, reporter: &mut Reporter) {
    let ops = own_ops(sdfg);
    let mut report = |op: Op<'_>, data: Val<'_>, what: &str, at: Device| {
        let Some(device) = device_of(data) else {
            return;
        };
        if at == device || at == Device::Inferred {
            return;
        }
        let storage = layout(data.ty()).map(|l| l.storage.name()).unwrap_or("?");
        let place = if at == Device::Gpu {
            "a GPU"
        } else {
            "the host"
        };
        let place = if at == Device::Fpga { "an FPGA" } else { place };
        reporter.error(
            op,
            format!(
                "{what} data container \"{}\", stored as {storage}, in code that runs on {place}",
                container_name(data).unwrap_or_else(|| "?".into())
            ),
        );
    };
    // Inter-state edges run in the SDFG's own context.
    let containers: Vec<(String, Val<'_>)> = sdfg_dialect::containers(sdfg)
        .into_iter()
        .filter_map(|v| Some((container_name(v)?, v)))
        .collect();
    let sdfg_device = device_at(sdfg);
    for op in &ops {
        match op.name() {
            "sdfg.edge" => {
                let texts = op
                    .str_attr("condition")
                    .into_iter()
                    .chain(op.str_array_attr("assign_values"));
                let read: Vec<String> = texts
                    .filter_map(|t| sdfg_symbolic::parse(t).ok())
                    .flat_map(|e| e.subscripted_names())
                    .collect();
                for (name, data) in &containers {
                    if read.contains(name) {
                        report(*op, *data, "an inter-state edge reads", sdfg_device);
                    }
                }
            }
            "sdfg.tasklet" => {
                let at = device_at(*op);
                // Foreign code has untyped connectors: one element is what
                // it dereferences; a typed tasklet's arguments say.
                let foreign = op.attr("code").is_some();
                let args = op.region_args(0);
                for (k, edge) in incoming_edges(*op)
                    .into_iter()
                    .filter(|e| e.role == EdgeRole::Input)
                    .enumerate()
                {
                    let element = match args.get(k) {
                        Some(arg) if !foreign => is_element(*arg),
                        _ => one_element(edge.memlet.as_ref()),
                    };
                    if element {
                        if let Some(data) = carried_container(edge.source) {
                            report(*op, data, "reads an element of", at);
                        }
                    }
                }
                for result in op.results().into_iter().filter(|r| is_element(*r)) {
                    for (data, memlet) in written_containers(result) {
                        if !foreign || one_element(memlet.as_ref()) {
                            report(*op, data, "writes an element of", at);
                        }
                    }
                }
            }
            "sdfg.map" => {
                // A dynamic range input crosses the map's own entry.
                let at = device_from(Some(*op));
                for edge in incoming_edges(*op) {
                    if edge.role == EdgeRole::Dynamic {
                        if let Some(data) = carried_container(edge.source) {
                            report(*op, data, "a dynamic map range reads", at);
                        }
                    }
                }
            }
            _ => {}
        }
    }
}
