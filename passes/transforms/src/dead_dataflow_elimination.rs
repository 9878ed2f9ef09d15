//! `sdfg-dead-dataflow-elimination`: removes writes to transients that no
//! one reads, and the computations that only fed them, as DaCe's
//! `DeadDataflowElimination` does.
//!
//! ```mlir
//! // before: t is written and never read again
//! %t = sdfg.alloc "t" : !sdfg.array<f64 ["N"]>
//! sdfg.state @s {
//!   %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
//!   %m = sdfg.map "double" ["i" = "0:N"] ins("a" = %a["0:N"] : ...) outs("t" : ...) { ... }
//!   %tw = sdfg.access %t writes(%m["0:N"] : ...) : !sdfg.array<f64 ["N"]>
//! }
//!
//! // after: the state is empty (sdfg-prune-containers then drops %t)
//! sdfg.state @s {
//! }
//! ```
//!
//! A transient array or scalar that lives for one call (not `Persistent`
//! or `External`, whose values a later call reads) is dead when no access node of it is read
//! from (no dataflow edge leaves any of its nodes) and its name appears in
//! no string of the SDFG (inter-state conditions and assignments, loop
//! bounds, foreign tasklet code), which is how scalars are read on
//! inter-state edges. Its access nodes go, and then, repeatedly, every
//! node none of whose results is used any more and that has no other
//! effect: tasklets whose bodies are arithmetic, library nodes, maps whose
//! bodies are such nodes, and access nodes that nothing enters or leaves.
//! Access nodes with no edge at all go too, whatever their container.
//! Only whole nodes of a state go (a scope with all it holds, never a
//! node inside a scope, which would leave the scope a dangling
//! connector). Tasklets with foreign code or calls, nested SDFGs, consume scopes
//! (which pop streams), views, references, streams and arguments are
//! never removed.

use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::Op;
use sdfg_dialect::{rewrite, Container, ContainerKind};
use std::collections::HashSet;

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-dead-dataflow-elimination",
    summary: "Remove writes to transients no one reads and the computations that only feed them (DaCe's DeadDataflowElimination)",
    op_name: "builtin.module",
    create: || Box::new(DeadDataflowElimination),
};

/// The pass (no options).
#[derive(Clone, Copy)]
pub struct DeadDataflowElimination;

impl RustPass for DeadDataflowElimination {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        crate::no_options("sdfg-dead-dataflow-elimination", options)
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        eliminate_dead_dataflow(module);
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(*self)
    }
}

/// Removes dead dataflow in every SDFG under `root`; returns how many
/// nodes were removed.
pub fn eliminate_dead_dataflow(root: Op<'_>) -> usize {
    let sdfgs: Vec<Op<'_>> = std::iter::once(root)
        .chain(root.descendants())
        .filter(|op| op.is("sdfg.sdfg"))
        .collect();
    let mut removed = 0;
    for sdfg in sdfgs {
        let mentioned = crate::mentioned_names(sdfg);
        let mut work = Vec::new();
        for alloc in sdfg
            .region_ops(0)
            .into_iter()
            .filter(|o| o.is("sdfg.alloc"))
        {
            if !is_dead(alloc, &mentioned) {
                continue;
            }
            for (user, _) in alloc.results()[0].uses() {
                work.push(user);
            }
        }
        // Access nodes with no edge at all (an inlined or fused state can
        // leave them; DaCe's validation rejects them).
        work.extend(sdfg.descendants().into_iter().filter(|op| {
            op.is("sdfg.access") && op.operands().len() == 1 && op.results()[0].uses().is_empty()
        }));
        let mut erased = HashSet::new();
        while let Some(op) = work.pop() {
            if erased.contains(&op) || !removable(op, &mentioned) {
                continue;
            }
            let feeders: Vec<Op<'_>> = op
                .operands()
                .iter()
                .filter_map(|v| v.defining_op())
                .filter(|d| !d.is("sdfg.alloc") && !d.is("sdfg.member"))
                .collect();
            erased.insert(op);
            // SAFETY: `removable` checked that no result of `op` is used;
            // the handle is only compared (through `erased`) afterwards.
            unsafe { rewrite::erase(op) };
            removed += 1;
            work.extend(feeders.into_iter().filter(|f| !erased.contains(f)));
        }
    }
    removed
}

/// Whether a transient is never read: no edge leaves any of its access
/// nodes and no string names it.
fn is_dead(alloc: Op<'_>, mentioned: &HashSet<String>) -> bool {
    let value = alloc.results()[0];
    let kind = Container::from_type(value.ty()).map(|c| c.kind);
    if !matches!(kind, Some(ContainerKind::Array | ContainerKind::Scalar)) {
        return false;
    }
    if crate::outlives_call(alloc)
        || alloc
            .str_attr("name")
            .is_none_or(|name| mentioned.contains(name))
    {
        return false;
    }
    value.uses().into_iter().all(|(user, operand)| {
        user.is("sdfg.access") && operand == 0 && user.results()[0].uses().is_empty()
    })
}

/// The ops a tasklet body may hold and still be free of effects.
fn pure_body_op(op: Op<'_>) -> bool {
    let name = op.name();
    ["arith.", "math.", "complex.", "index."]
        .iter()
        .any(|prefix| name.starts_with(prefix))
        || matches!(
            name,
            "sdfg.yield"
                | "sdfg.sym"
                | "scf.if"
                | "scf.yield"
                | "scf.for"
                | "scf.while"
                | "scf.condition"
        )
}

/// Whether a tasklet's body is MLIR (not foreign code) and not marked as
/// having side effects.
fn pure_tasklet(op: Op<'_>) -> bool {
    op.attr("code").is_none() && op.attr("side_effects").is_none()
}

/// Whether `op` can go: none of its results is used and it has no effect
/// other than them.
fn removable(op: Op<'_>, mentioned: &HashSet<String>) -> bool {
    // Inside a scope, removing a node would leave the scope a connector
    // without an edge; scopes go as a whole.
    op.parent().is_some_and(|p| p.is("sdfg.state"))
        && op.results().iter().all(|r| r.uses().is_empty())
        && removable_if_unused(op, mentioned)
}

/// Whether `op` would have no effect if none of its results were used.
/// An access node of a dead container goes only with its writers: each
/// is a copy from another node, or an op whose results feed only this
/// node and that can go too (a scope or tasklet left with an output that
/// leads nowhere would be invalid).
fn removable_if_unused(op: Op<'_>, mentioned: &HashSet<String>) -> bool {
    match op.name() {
        "sdfg.access" => {
            let container = op.operands()[0];
            if op.operands().len() == 1 {
                return true;
            }
            let dead = container
                .defining_op()
                .is_some_and(|alloc| alloc.is("sdfg.alloc") && is_dead(alloc, mentioned));
            dead && op.operand_segment(2).is_empty()
                && op.operand_segment(1).iter().all(|write| {
                    write.defining_op().is_some_and(|writer| {
                        writer.is("sdfg.access")
                            || (writer
                                .results()
                                .iter()
                                .all(|r| r.uses().iter().all(|(user, _)| *user == op))
                                && removable_if_unused(writer, mentioned))
                    })
                })
        }
        "sdfg.tasklet" => pure_tasklet(op) && op.descendants().into_iter().all(pure_body_op),
        "sdfg.library" => true,
        "sdfg.map" => op
            .descendants()
            .into_iter()
            .all(|inner| match inner.name() {
                "sdfg.tasklet" => pure_tasklet(inner),
                "sdfg.map" | "sdfg.exit" => true,
                "sdfg.access" => inner.operands().len() == 1,
                _ => inner.ancestor("sdfg.tasklet").is_some() && pure_body_op(inner),
            }),
        _ => false,
    }
}
