//! `sdfg-state-fusion`: merges two states joined by an unconditional edge
//! into one, as DaCe's `StateFusion` does, when the merged dataflow graph
//! still orders every conflicting access.
//!
//! ```mlir
//! // before: the frontend's one state per statement
//! sdfg.state @s1 {
//!   %t = sdfg.tasklet "f" ins(...) outs("o" : f64) { ... }
//!   %x = sdfg.access %tmp writes(%t["0"] : f64) : !sdfg.scalar<f64>
//! }
//! sdfg.state @s2 {
//!   %x2 = sdfg.access %tmp : !sdfg.scalar<f64>
//!   %u = sdfg.tasklet "g" ins("i" = %x2["0"] : !sdfg.scalar<f64>) ...
//! }
//! sdfg.edge @s1 -> @s2
//! sdfg.edge @s2 -> @s3 if "i < N"
//!
//! // after: one state; the read of tmp is the node the write went to
//! sdfg.state @s1 {
//!   %t = sdfg.tasklet "f" ins(...) outs("o" : f64) { ... }
//!   %x = sdfg.access %tmp writes(%t["0"] : f64) : !sdfg.scalar<f64>
//!   %u = sdfg.tasklet "g" ins("i" = %x["0"] : !sdfg.scalar<f64>) ...
//! }
//! sdfg.edge @s1 -> @s3 if "i < N"
//! ```
//!
//! # When fusion keeps the program's meaning
//!
//! Control flow orders two states completely: everything in the first
//! finishes before anything in the second starts. Inside one state only
//! the dataflow edges order nodes, so fusing is correct exactly when every
//! pair of accesses that conflict (the same data, at least one of them a
//! write) is still ordered by a path of the merged graph. The pass checks
//! that directly, instead of DaCe's catalogue of node patterns:
//!
//! 1. **The edge.** `first -> second` is the only edge leaving `first` and
//!    the only one entering `second`, it is unconditional and assigns
//!    nothing, both are `sdfg.state`s, and `second` is not where its region
//!    starts.
//! 2. **Merging reads into the last node.** A node of `second` that only
//!    reads a container (no edge enters it) becomes the last node of
//!    `first` that accesses the same container: its readers then come
//!    after everything written into that node, which is what makes a
//!    write in `first` and a read in `second` ordered, and the merged state
//!    has one node fewer.
//! 3. **Effects.** The effects of an access node are the ops that write
//!    into it (writes) and the ops that read from it (reads; popping a
//!    stream is a write); an access node nested in a map or consume scope
//!    is an effect of that scope. A view's effects are on the data it is
//!    bound to; a reference, or a view whose binding is not in the state,
//!    may be anything and conflicts with every container.
//! 4. **Ordering.** For every container, every effect in `first` must
//!    reach, along dataflow edges of the merged state, every conflicting
//!    effect in `second`. Nothing in `second` can reach `first`, so the
//!    merged graph stays acyclic.
//!
//! The check walks each state once and searches forward from the
//! conflicting effects of `first` only; states without common data fuse
//! without any search. Empty states fuse with anything, which removes the
//! frontend's guard, latch and end states wherever their edges are plain.
//!
//! An empty state with one edge in and one unconditional edge out also
//! goes when those edges carry assignments ([`absorb_empty`]): the two
//! edges become one, with the first one's condition and both
//! assignments, as long as neither edge reads what the other assigns. That removes the states scalar-to-symbol promotion
//! leaves between two assignments.

use crate::cfg::{always_true, machine_owners, Machine};
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::{Op, Val};
use sdfg_dialect::{rewrite, underlying_container, Container, ContainerKind};
use std::collections::{HashMap, HashSet};

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-state-fusion",
    summary: "Fuse states joined by an unconditional edge when the merged dataflow graph still orders every conflicting access (DaCe's StateFusion)",
    op_name: "builtin.module",
    create: || Box::new(StateFusion),
};

/// The pass (no options).
#[derive(Clone, Copy)]
pub struct StateFusion;

impl RustPass for StateFusion {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        crate::no_options("sdfg-state-fusion", options)
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        fuse_all(module);
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(*self)
    }
}

/// Fuses states everywhere under `root` until no edge qualifies; returns
/// how many fusions were made.
pub fn fuse_all(root: Op<'_>) -> usize {
    let mut fused = 0;
    for owner in machine_owners(root) {
        let mut machine = Machine::new(owner);
        loop {
            let before = fused;
            for edge in machine.edges() {
                if machine.is_live(edge) && fuse_edge(&mut machine, edge).is_ok() {
                    fused += 1;
                }
            }
            for name in machine.block_names() {
                if absorb_empty(&mut machine, &name).is_ok() {
                    fused += 1;
                }
            }
            if fused == before {
                break;
            }
        }
    }
    fused
}

/// Fuses the two states `edge` joins, or says why that would not keep
/// the program's meaning (and changes nothing).
pub fn fuse(edge: Op<'_>) -> Result<(), String> {
    let owner = edge
        .parent()
        .ok_or_else(|| "the edge is not in a region".to_string())?;
    fuse_edge(&mut Machine::new(owner), edge)
}

fn fuse_edge<'a>(machine: &mut Machine<'a>, edge: Op<'a>) -> Result<(), String> {
    let (Some(src), Some(dst)) = (edge.symbol_ref_attr("src"), edge.symbol_ref_attr("dst")) else {
        return Err("the edge names no blocks".into());
    };
    if src == dst {
        return Err(format!("`{src}` loops to itself"));
    }
    let (Some(first), Some(second)) = (machine.block(src), machine.block(dst)) else {
        return Err("the edge's blocks are not in its region".into());
    };
    if !first.is("sdfg.state") || !second.is("sdfg.state") {
        return Err(format!("`{src}` or `{dst}` is not a state"));
    }
    if machine.out_edges(src).len() != 1 {
        return Err(format!("`{src}` has more than one successor"));
    }
    if machine.in_edges(dst).len() != 1 {
        return Err(format!("`{dst}` has more than one predecessor"));
    }
    if !always_true(edge.str_attr("condition")) || !edge.str_array_attr("assign_names").is_empty() {
        return Err(format!(
            "the edge `{src}` -> `{dst}` has a condition or assignments"
        ));
    }
    if machine.start == Some(second) {
        return Err(format!("`{dst}` starts its region"));
    }
    let merges = plan(first, second)?;
    for (read, last) in merges {
        rewrite::replace_all_uses(read.results()[0], last.results()[0]);
        // SAFETY: the node's only result has no uses left, and its handle
        // is not used again.
        unsafe { rewrite::erase(read) };
    }
    for op in second.region_ops(0) {
        rewrite::move_to_end(op, first);
    }
    let (src, dst) = (src.to_string(), dst.to_string());
    let outgoing = machine.out_edges(&dst).to_vec();
    machine.erase_edge(edge);
    for out in outgoing {
        machine.set_source(out, &src);
    }
    machine.erase_block(&dst);
    Ok(())
}

/// Removes the empty state `name` that sits between one incoming and one
/// unconditional outgoing edge, joining the two edges into one: the
/// incoming edge's condition, then both edges' assignments. Neither
/// edge's assignments may read or reassign what the other assigns (on one
/// edge every right-hand side is evaluated before any assignment, and
/// `sdfg-validate` rejects an edge that reads what it assigns), and the
/// joined edge must not loop.
pub fn absorb_empty(machine: &mut Machine<'_>, name: &str) -> Result<(), String> {
    let block = machine
        .block(name)
        .ok_or_else(|| format!("no block `{name}`"))?;
    if !block.is("sdfg.state") || !block.region_ops(0).is_empty() {
        return Err(format!("`{name}` is not an empty state"));
    }
    if machine.start == Some(block) {
        return Err(format!("`{name}` starts its region"));
    }
    let (incoming, outgoing) = match (machine.in_edges(name), machine.out_edges(name)) {
        ([i], [o]) => (*i, *o),
        _ => return Err(format!("`{name}` has not exactly one edge in and one out")),
    };
    let (Some(src), Some(dst)) = (
        incoming.symbol_ref_attr("src"),
        outgoing.symbol_ref_attr("dst"),
    ) else {
        return Err("an edge names no block".into());
    };
    if src == name || dst == name || src == dst {
        return Err(format!(
            "joining the edges around `{name}` would make a loop"
        ));
    }
    if !always_true(outgoing.str_attr("condition")) {
        return Err(format!("the edge leaving `{name}` has a condition"));
    }
    let first: Vec<(String, String)> = assignments(incoming);
    let second: Vec<(String, String)> = assignments(outgoing);
    let names = |list: &[(String, String)]| -> HashSet<String> {
        list.iter().map(|(n, _)| n.clone()).collect()
    };
    let reads = |list: &[(String, String)], of: &HashSet<String>| {
        list.iter()
            .any(|(n, value)| of.contains(n) || crate::identifiers(value).any(|w| of.contains(&w)))
    };
    if reads(&second, &names(&first)) || reads(&first, &names(&second)) {
        return Err(format!(
            "the edges around `{name}` read or reassign what the other assigns"
        ));
    }
    let joined: Vec<(String, String)> = first.into_iter().chain(second).collect();
    rewrite::set_assignments(incoming, &joined);
    let dst = dst.to_string();
    machine.erase_edge(outgoing);
    machine.set_destination(incoming, &dst);
    machine.erase_block(name);
    Ok(())
}

/// The assignments of an inter-state edge, in order.
fn assignments(edge: Op<'_>) -> Vec<(String, String)> {
    edge.str_array_attr("assign_names")
        .into_iter()
        .zip(edge.str_array_attr("assign_values"))
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect()
}

/// What a node's effect is on: one container, or possibly any.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Key<'a> {
    Data(Val<'a>),
    Any,
}

fn container_kind(value: Val<'_>) -> Option<ContainerKind> {
    Container::from_type(value.ty()).map(|c| c.kind)
}

/// The data an access node's effects are on.
fn access_key<'a>(access: Op<'a>) -> Key<'a> {
    let Some(data) = access.operands().first().copied() else {
        return Key::Any;
    };
    match container_kind(data) {
        Some(ContainerKind::Reference) | None => Key::Any,
        Some(ContainerKind::View) => match access.operand_segment(2).first() {
            Some(source) => {
                let base = underlying_container(*source);
                match container_kind(base) {
                    Some(ContainerKind::View | ContainerKind::Reference) | None => Key::Any,
                    Some(_) => Key::Data(base),
                }
            }
            None => Key::Any,
        },
        Some(_) => Key::Data(data),
    }
}

fn is_stream(access: Op<'_>) -> bool {
    access
        .operands()
        .first()
        .is_some_and(|d| container_kind(*d) == Some(ContainerKind::Stream))
}

/// Whether `op` lies inside a nested SDFG below `top` (or is `top`'s own
/// nested SDFG body): its containers are the nested SDFG's.
fn inside_nested(op: Op<'_>, top: Op<'_>) -> bool {
    let mut current = op.parent();
    while let Some(p) = current {
        if p.is("sdfg.nested") {
            return true;
        }
        if p == top {
            return false;
        }
        current = p.parent();
    }
    false
}

/// The top-level ops of a state, and for every op nested in them the
/// top-level op it belongs to.
fn tops<'a>(state: Op<'a>, index: &mut HashMap<Op<'a>, Op<'a>>) -> Vec<Op<'a>> {
    let ops = state.region_ops(0);
    for &op in &ops {
        index.insert(op, op);
        for inner in op.descendants() {
            index.insert(inner, op);
        }
    }
    ops
}

/// The effects of a state's nodes: per key, the top-level ops that read
/// (`false`) or write (`true`) it.
fn effects<'a>(
    ops: &[Op<'a>],
    index: &HashMap<Op<'a>, Op<'a>>,
) -> HashMap<Key<'a>, Vec<(Op<'a>, bool)>> {
    let mut out: HashMap<Key<'a>, Vec<(Op<'a>, bool)>> = HashMap::new();
    for &top in ops {
        if top.is("sdfg.access") {
            let key = access_key(top);
            let stream = is_stream(top);
            let entry = out.entry(key).or_default();
            for write in top.operand_segment(1) {
                match write.defining_op() {
                    // A copy happens at its destination node.
                    Some(source) if source.is("sdfg.access") => entry.push((top, true)),
                    source => {
                        if let Some(producer) = source.and_then(|d| index.get(&d)) {
                            entry.push((*producer, true));
                        }
                    }
                }
            }
            let value = top.results()[0];
            for (user, _) in value.uses() {
                let reads = sdfg_dialect::incoming_edges(user).iter().any(|e| {
                    e.source == value
                        && !matches!(
                            e.role,
                            sdfg_dialect::EdgeRole::After | sdfg_dialect::EdgeRole::Bind
                        )
                });
                if let (true, Some(reader)) = (reads, index.get(&user)) {
                    // A copy out of the node reads it at the destination
                    // node, which is `reader` itself.
                    entry.push((*reader, stream));
                }
            }
            continue;
        }
        for inner in top.descendants() {
            if !inner.is("sdfg.access") || inside_nested(inner, top) {
                continue;
            }
            let written = !inner.operand_segment(1).is_empty() || is_stream(inner);
            let read = !inner.results()[0].uses().is_empty();
            if written || read {
                out.entry(access_key(inner))
                    .or_default()
                    .push((top, written));
            }
        }
    }
    out
}

/// Checks that `second` can follow `first` in one state; returns the
/// access nodes of `second` to merge into nodes of `first`.
fn plan<'a>(first: Op<'a>, second: Op<'a>) -> Result<Vec<(Op<'a>, Op<'a>)>, String> {
    let mut index = HashMap::new();
    let a_ops = tops(first, &mut index);
    let b_ops = tops(second, &mut index);
    let a_effects = effects(&a_ops, &index);
    let mut last: HashMap<Val<'a>, Op<'a>> = HashMap::new();
    for &op in &a_ops {
        if op.is("sdfg.access") {
            if let Some(data) = op.operands().first() {
                last.insert(*data, op);
            }
        }
    }
    let mut merged: HashMap<Op<'a>, Op<'a>> = HashMap::new();
    for &op in &b_ops {
        let operands = op.operands();
        if !op.is("sdfg.access") || operands.len() != 1 {
            continue;
        }
        if matches!(
            container_kind(operands[0]),
            Some(ContainerKind::View | ContainerKind::Reference) | None
        ) {
            continue;
        }
        if let Some(&target) = last.get(&operands[0]) {
            if target.results()[0].ty().ptr == op.results()[0].ty().ptr {
                merged.insert(op, target);
            }
        }
    }
    let b_effects = effects(&b_ops, &index);
    let mut successors: HashMap<Op<'a>, Vec<Op<'a>>> = HashMap::new();
    for &top in a_ops.iter().chain(&b_ops) {
        if merged.contains_key(&top) {
            continue;
        }
        for op in std::iter::once(top).chain(top.descendants()) {
            for operand in op.operands() {
                let Some(source) = operand.defining_op().and_then(|d| index.get(&d)) else {
                    continue;
                };
                let source = merged.get(source).unwrap_or(source);
                if *source != top {
                    successors.entry(*source).or_default().push(top);
                }
            }
        }
    }
    let mut reached: HashMap<Op<'a>, HashSet<Op<'a>>> = HashMap::new();
    for (key, b_list) in &b_effects {
        let mut candidates: Vec<(Op<'a>, bool)> = Vec::new();
        if *key == Key::Any {
            candidates.extend(a_effects.values().flatten().copied());
        } else {
            for k in [*key, Key::Any] {
                candidates.extend(a_effects.get(&k).into_iter().flatten().copied());
            }
        }
        for &(a_op, a_write) in &candidates {
            for &(b_op, b_write) in b_list {
                if !(a_write || b_write) {
                    continue;
                }
                let set = reached
                    .entry(a_op)
                    .or_insert_with(|| reachable(a_op, &successors));
                if !set.contains(&b_op) {
                    return Err(format!(
                        "'{}' of the first state would not be ordered before '{}' of the second, which {} the same data",
                        a_op.name(),
                        b_op.name(),
                        if a_write && b_write { "both write" } else { "read and write" }
                    ));
                }
            }
        }
    }
    let mut merges: Vec<(Op<'a>, Op<'a>)> = merged.into_iter().collect();
    merges.sort_by_key(|(read, _)| b_ops.iter().position(|op| op == read));
    Ok(merges)
}

/// Every op reachable from `start` along `successors`.
fn reachable<'a>(start: Op<'a>, successors: &HashMap<Op<'a>, Vec<Op<'a>>>) -> HashSet<Op<'a>> {
    let mut seen = HashSet::new();
    let mut stack = vec![start];
    while let Some(op) = stack.pop() {
        for next in successors.get(&op).into_iter().flatten() {
            if seen.insert(*next) {
                stack.push(*next);
            }
        }
    }
    seen
}
