//! `sdfg-inline-multistate`: replaces a nested SDFG of any number of
//! blocks, called on whole containers from a state, by its blocks in the
//! caller's state machine, as DaCe's `InlineMultistateSDFG` (the
//! multi-state part of its `InlineSDFGs` pass) does.
//!
//! ```mlir
//! // before: the call, and what the state does before and after it
//! sdfg.state @s {
//!   %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
//!   %n = sdfg.nested "f" ins("x" = %a["0:N"] : ...) outs("y" : ...) symbols("N" = "N") {
//!     sdfg.sdfg @f(%x: !sdfg.array<f64 ["N"]> as "x", %y: !sdfg.array<f64 ["N"]> as "y") symbols {N = i32, i = i64} {
//!       sdfg.state @init { }  sdfg.state @body { ... %x ... %y ... }  sdfg.state @end { }
//!       sdfg.edge @init -> @body assign("i" = "0") ...
//!     }
//!   }
//!   %b = sdfg.access %B writes(%n["0:N"] : ...) : !sdfg.array<f64 ["N"]>
//!   %m = sdfg.map ... ins("b" = %b["0:N"] : ...) ...
//! }
//! // after: `s` keeps what the call waited for, the nested blocks follow,
//! // reading `A` and writing `B`, and `s_after` holds what came after
//! sdfg.state @s { %a = sdfg.access %A : ... }
//! sdfg.state @init { }  sdfg.state @body { ... %A ... %B ... }  sdfg.state @end { }
//! sdfg.state @s_after {
//!   %b = sdfg.access %B : !sdfg.array<f64 ["N"]>
//!   %m = sdfg.map ... ins("b" = %b["0:N"] : ...) ...
//! }
//! sdfg.edge @s -> @init
//! sdfg.edge @end -> @s_after
//! ```
//!
//! # When it applies
//!
//! DaCe's conditions, and what our IR needs besides:
//!
//! - the call is a node of a state, not inside a scope, and nothing
//!   orders it (`after` operands);
//! - every input comes from an access node of an array or scalar (not a
//!   view or reference), every output goes to one such node that nothing
//!   else writes, each memlet is the whole container, without
//!   write-conflict resolution, and the argument's type is the
//!   container's (same shape and strides). An argument that is both input
//!   and output names the same container on both sides;
//! - the symbol mapping is the identity, the nested SDFG assigns none of
//!   the mapped symbols, and the names of the arguments its strings
//!   mention (`s = x[i]` on an edge) are the caller's containers' (DaCe
//!   renames those on a clash; we leave the call). Its transients and
//!   other symbols (its loop counters) whose names the caller also uses
//!   are renamed, as DaCe renames them, unless foreign code, a library
//!   node's properties or a container type names them;
//! - every block that has edges out covers all cases with their
//!   conditions: a nested SDFG that stops where no condition holds would,
//!   inlined, stop its caller.
//!
//! # The rewriting
//!
//! The state is split around the call: the ops the call depends on
//! (through operands, transitively) stay, the nested SDFG's blocks follow
//! (its start block first), and the other ops move to a new state that
//! every block without an edge out leads to. The call's output nodes go,
//! since the inlined blocks write the containers themselves; an op of the
//! new state that read a node left behind reads a new access node of the
//! same container there, which holds the same data once the states
//! before it have run. Arguments become the caller's containers,
//! transients and loop counters the caller's. `sdfg-state-fusion` then
//! joins the states around the inlined ones where it can.

use crate::inline_sdfgs::{inline_each, whole};
use sdfg_analysis::executions::{conditions_cover, size_assumptions};
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::{
    array_elements, array_of, attr_str, attr_to_string, type_to_string, Op, Val,
};
use sdfg_dialect::{
    container_name, declared_symbols, memlet_at, rewrite, Container, ContainerKind, Memlet, Wcr,
    CONTROL_FLOW_BLOCKS,
};
use sdfg_symbolic::parse_subset;
use std::collections::{HashMap, HashSet};

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-inline-multistate",
    summary: "Replace nested SDFGs called on whole containers from a state by their blocks in the caller's state machine (DaCe's InlineMultistateSDFG)",
    op_name: "builtin.module",
    create: || Box::new(InlineMultistate),
};

/// The pass (no options).
#[derive(Clone, Copy)]
pub struct InlineMultistate;

impl RustPass for InlineMultistate {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        crate::no_options("sdfg-inline-multistate", options)
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        inline_multistate(module);
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(*self)
    }
}

/// Inlines every qualifying nested SDFG under `root`, innermost first;
/// returns how many were inlined.
pub fn inline_multistate(root: Op<'_>) -> usize {
    inline_each(root, inline)
}

/// Whether `value` is a container that is not a view or a reference.
fn plain_data(value: Val<'_>) -> bool {
    matches!(
        Container::from_type(value.ty()).map(|c| c.kind),
        Some(ContainerKind::Array | ContainerKind::Scalar | ContainerKind::Stream)
    )
}

/// The container a plain access node (no binding, no ordering) accesses.
fn accessed(node: Op<'_>) -> Option<Val<'_>> {
    let data = node.operands().first().copied()?;
    (node.is("sdfg.access")
        && node.operand_segment(2).is_empty()
        && node.operand_segment(3).is_empty()
        && plain_data(data))
    .then_some(data)
}

/// Whether operand `k` of `op` moves the whole of `data` without
/// write-conflict resolution.
fn moves_whole(op: Op<'_>, k: usize, data: Val<'_>) -> bool {
    let (Some(memlet), Some(all)) = (memlet_at(op, k), whole(data.ty())) else {
        return false;
    };
    memlet.other.is_none()
        && memlet.wcr == Wcr::None
        && parse_subset(&memlet.subset).is_ok_and(|s| s == all)
}

/// The attribute values of `inner`'s own ops (those of the SDFGs nested
/// in it excepted, their calls' symbol mappings included) with the
/// symbols `renames` renamed: expressions, memlets, assignment targets
/// and loop variables. Fails, changing nothing, where a name also
/// appears where it cannot be renamed: foreign code, library node
/// properties, container types.
fn plan_renames<'a>(
    inner: Op<'a>,
    renames: &[(String, String)],
) -> Result<Vec<(Op<'a>, String, mlir_sys::MlirAttribute)>, String> {
    let mut planned = Vec::new();
    if renames.is_empty() {
        return Ok(planned);
    }
    let values: HashMap<&str, &str> = renames
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let mentions = |text: &str| crate::identifiers(text).any(|w| values.contains_key(w.as_str()));
    let ops = inner
        .descendants()
        .into_iter()
        .filter(|o| o.ancestor("sdfg.sdfg") == Some(inner) && !o.is("sdfg.sdfg"));
    for op in ops {
        for value in op
            .results()
            .into_iter()
            .chain((0..op.num_regions()).flat_map(|r| op.region_args(r)))
        {
            if mentions(&type_to_string(value.ty())) {
                return Err("a container type names a symbol to rename".into());
            }
        }
        for (name, attr) in op.attributes() {
            let kept = matches!(
                name,
                "sym_name"
                    | "label"
                    | "name"
                    | "in_names"
                    | "out_names"
                    | "names"
                    | "dyn_names"
                    | "symbol_names"
                    | "class_path"
                    | "language"
            );
            if kept {
                continue;
            }
            if let Some(text) = attr_str(attr) {
                if name == "code" && mentions(text) {
                    return Err("foreign code names a symbol to rename".into());
                }
                if mentions(text) {
                    let new = rewrite::str_attr(op, &crate::substitute(text, &values));
                    planned.push((op, name.to_string(), new));
                }
            } else if let Some(memlet) = Memlet::from_attr(attr) {
                let texts = [
                    Some(&memlet.subset),
                    memlet.other.as_ref(),
                    memlet.volume.as_ref(),
                ];
                if texts.into_iter().flatten().any(|t| mentions(t)) {
                    let new = renamed_memlet(&memlet, &values).to_attr(op.context());
                    planned.push((op, name.to_string(), new));
                }
            } else {
                let elements = array_elements(attr);
                let texts: Vec<&str> = elements.iter().filter_map(|a| attr_str(*a)).collect();
                let memlets: Vec<Memlet> = elements
                    .iter()
                    .filter_map(|a| Memlet::from_attr(*a))
                    .collect();
                if !elements.is_empty() && texts.len() == elements.len() {
                    if texts.iter().any(|t| mentions(t)) {
                        let new: Vec<String> = texts
                            .iter()
                            .map(|t| crate::substitute(t, &values))
                            .collect();
                        let refs: Vec<&str> = new.iter().map(String::as_str).collect();
                        planned.push((op, name.to_string(), rewrite::str_array_attr(op, &refs)));
                    }
                } else if !elements.is_empty() && memlets.len() == elements.len() {
                    let new: Vec<_> = memlets
                        .iter()
                        .map(|m| renamed_memlet(m, &values).to_attr(op.context()))
                        .collect();
                    planned.push((op, name.to_string(), array_of(op.context(), &new)));
                } else if mentions(&attr_to_string(attr)) {
                    return Err(format!("attribute `{name}` names a symbol to rename"));
                }
            }
        }
    }
    Ok(planned)
}

/// `memlet` with the symbols of `values` renamed.
fn renamed_memlet(memlet: &Memlet, values: &HashMap<&str, &str>) -> Memlet {
    Memlet {
        subset: crate::substitute(&memlet.subset, values),
        other: memlet
            .other
            .as_deref()
            .map(|o| crate::substitute(o, values)),
        volume: memlet
            .volume
            .as_deref()
            .map(|v| crate::substitute(v, values)),
        ..memlet.clone()
    }
}

/// Inlines the nested SDFG `call` into its caller's state machine, or
/// says why it cannot (and changes nothing).
pub fn inline(call: Op<'_>) -> Result<(), String> {
    let inner = call
        .region_ops(0)
        .into_iter()
        .find(|op| op.is("sdfg.sdfg"))
        .ok_or("the call holds no SDFG")?;
    let state = call
        .parent()
        .filter(|p| p.is("sdfg.state"))
        .ok_or("the call is inside a scope")?;
    let owner = state.parent().ok_or("the state is not in a region")?;
    let outer = crate::enclosing_sdfg(call).ok_or("the call is not in an SDFG")?;
    let state_name = state.symbol_name().ok_or("the state has no name")?;
    if !call.operand_segment(1).is_empty() {
        return Err("the call is ordered after other nodes".into());
    }

    // The symbols: an identity mapping, and the others free in the caller.
    let names = call.str_array_attr("symbol_names");
    let values = call.str_array_attr("symbol_values");
    if let Some((n, v)) = names
        .iter()
        .zip(&values)
        .find(|(n, v)| n.trim() != v.trim())
    {
        return Err(format!("the call maps symbol `{n}` to `{v}`"));
    }
    let outer_symbols: HashSet<&str> = declared_symbols(outer)
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    let outer_data: HashSet<String> = outer
        .str_array_attr("arg_names")
        .into_iter()
        .map(str::to_string)
        .chain(
            outer
                .region_ops(0)
                .into_iter()
                .filter(|o| o.is("sdfg.alloc"))
                .filter_map(|o| o.str_attr("name").map(str::to_string)),
        )
        .collect();
    let new_symbols: Vec<_> = declared_symbols(inner)
        .into_iter()
        .filter(|(n, _)| !names.contains(n))
        .collect();
    // The nested SDFG's own symbols (its loop counters) that the caller
    // also names get fresh names, as DaCe's `find_new_name` gives them.
    let mut taken_names: HashSet<String> = outer_symbols
        .iter()
        .map(|n| n.to_string())
        .chain(outer_data.iter().cloned())
        .chain(crate::mention_counts(inner).into_keys())
        .chain(new_symbols.iter().map(|(n, _)| n.to_string()))
        .collect();
    let allocs: Vec<Op<'_>> = inner
        .region_ops(0)
        .into_iter()
        .filter(|op| op.is("sdfg.alloc"))
        .collect();
    let alloc_names: Vec<&str> = allocs.iter().filter_map(|a| a.str_attr("name")).collect();
    taken_names.extend(alloc_names.iter().map(|n| n.to_string()));
    // So do its transients whose names the caller uses, for a container
    // or a symbol.
    let mut renames: Vec<(String, String)> = Vec::new();
    let clashing = new_symbols.iter().map(|(n, _)| *n).chain(alloc_names);
    for n in clashing {
        if outer_symbols.contains(n) || outer_data.contains(n) {
            let fresh = (0..)
                .map(|k| format!("{n}_{k}"))
                .find(|c| !taken_names.contains(c))
                .unwrap_or_default();
            taken_names.insert(fresh.clone());
            renames.push((n.to_string(), fresh));
        }
    }
    let renamed = plan_renames(inner, &renames)?;
    // The nested SDFG must not assign the symbols it shares with the
    // caller: inlined, the assignment would change the caller's.
    let assigned = inner
        .descendants()
        .into_iter()
        .filter(|o| o.ancestor("sdfg.sdfg") == Some(inner))
        .flat_map(|o| match o.name() {
            "sdfg.edge" => o.str_array_attr("assign_names"),
            "sdfg.loop" => o.str_attr("var").into_iter().collect(),
            _ => Vec::new(),
        })
        .find(|n| names.contains(n));
    if let Some(n) = assigned {
        return Err(format!(
            "the nested SDFG assigns `{n}`, a symbol of the caller"
        ));
    }

    // The arguments: each becomes the container its connector reaches.
    let in_names = call.str_array_attr("in_names");
    let out_names = call.str_array_attr("out_names");
    let mut containers: HashMap<&str, Val<'_>> = HashMap::new();
    for (k, name) in in_names.iter().enumerate() {
        let node = call.operands()[k]
            .defining_op()
            .ok_or("an input is not an access node")?;
        let data =
            accessed(node).ok_or_else(|| format!("input `{name}` is not a plain access node"))?;
        if !moves_whole(call, k, data) {
            return Err(format!("input `{name}` is not the whole container"));
        }
        containers.insert(name, data);
    }
    let mut outs: Vec<Op<'_>> = Vec::new();
    for (k, name) in out_names.iter().enumerate() {
        let uses = call.results()[k].uses();
        let [(node, operand)] = uses.as_slice() else {
            return Err(format!("output `{name}` has not exactly one use"));
        };
        let data =
            accessed(*node).ok_or_else(|| format!("output `{name}` is not a plain access node"))?;
        if node.parent() != Some(state)
            || node.operand_segment(1).len() != 1
            || *operand != 1
            || !moves_whole(*node, 1, data)
        {
            return Err(format!(
                "output `{name}` does not write its whole container alone"
            ));
        }
        if containers.insert(name, data).is_some_and(|d| d != data) {
            return Err(format!("`{name}` reads one container and writes another"));
        }
        outs.push(*node);
    }
    let arg_names = inner.str_array_attr("arg_names");
    let args = inner.region_args(0);
    let mentioned = crate::mentioned_names(inner);
    for (arg, name) in args.iter().zip(&arg_names) {
        let data = containers
            .get(name)
            .ok_or_else(|| format!("argument `{name}` is not connected"))?;
        // SAFETY: both types are live in the same context.
        if !unsafe { mlir_sys::mlirTypeEqual(arg.ty(), data.ty()) } {
            return Err(format!("argument `{name}` is not typed as its container"));
        }
        if mentioned.contains(*name) && container_name(*data).as_deref() != Some(*name) {
            return Err(format!("argument `{name}` is named in an expression"));
        }
    }

    // The nested state machine must not stop where its caller would not.
    let blocks: Vec<Op<'_>> = inner
        .region_ops(0)
        .into_iter()
        .filter(|op| CONTROL_FLOW_BLOCKS.contains(&op.name()))
        .collect();
    let inner_edges: Vec<Op<'_>> = inner
        .region_ops(0)
        .into_iter()
        .filter(|op| op.is("sdfg.edge"))
        .collect();
    let start = *blocks.first().ok_or("the nested SDFG has no blocks")?;
    let asm = size_assumptions(inner);
    let mut sinks = Vec::new();
    for block in &blocks {
        let name = block.symbol_name().unwrap_or_default();
        let conditions: Vec<Option<&str>> = inner_edges
            .iter()
            .filter(|e| e.symbol_ref_attr("src") == Some(name))
            .map(|e| e.str_attr("condition"))
            .collect();
        if conditions.is_empty() {
            sinks.push(*block);
        } else if !conditions_cover(&conditions, &asm) {
            return Err(format!("the nested SDFG may stop at `{name}`"));
        }
    }
    if sinks.is_empty() {
        return Err("the nested SDFG never ends".into());
    }

    // The split of the state: what the call waits for, and the rest.
    let ops = state.region_ops(0);
    let mut top: HashMap<Op<'_>, Op<'_>> = HashMap::new();
    for &op in &ops {
        top.insert(op, op);
        for inner_op in op.descendants() {
            top.insert(inner_op, op);
        }
    }
    let sources = |op: Op<'_>| -> Vec<Op<'_>> {
        std::iter::once(op)
            .chain(op.descendants())
            .flat_map(|o| o.operands())
            .filter_map(|v| v.defining_op().and_then(|d| top.get(&d).copied()))
            .filter(|t| *t != op)
            .collect()
    };
    let mut before: HashSet<Op<'_>> = HashSet::new();
    let mut stack = vec![call];
    while let Some(op) = stack.pop() {
        for source in sources(op) {
            if before.insert(source) {
                stack.push(source);
            }
        }
    }
    let after: Vec<Op<'_>> = ops
        .iter()
        .copied()
        .filter(|op| *op != call && !before.contains(op) && !outs.contains(op))
        .collect();
    // What the moved ops read of the nodes left behind: plain access
    // nodes only (a value between two code nodes cannot cross states).
    let mut crossing: Vec<(Op<'_>, usize, Val<'_>)> = Vec::new();
    for &op in &after {
        for o in std::iter::once(op).chain(op.descendants()) {
            for (k, v) in o.operands().into_iter().enumerate() {
                let Some(source) = v.defining_op().and_then(|d| top.get(&d).copied()) else {
                    continue;
                };
                if source == op || after.contains(&source) {
                    continue;
                }
                let data = accessed(source)
                    .filter(|_| v.defining_op() == Some(source))
                    .ok_or("a node after the call reads a value computed before it")?;
                crossing.push((o, k, data));
            }
        }
    }

    // Everything is checked: change the IR.
    let after_name = crate::cfg::unique_block_name(owner, &format!("{state_name}_after"))
        .ok_or("no name for the state after the call")?;
    let outgoing: Vec<Op<'_>> = owner
        .region_ops(0)
        .into_iter()
        .filter(|e| e.is("sdfg.edge") && e.symbol_ref_attr("src") == Some(state_name))
        .collect();
    // The inlined blocks, then the new state, go right after the state.
    let siblings = owner.region_ops(0);
    let next = match siblings
        .iter()
        .position(|o| *o == state)
        .and_then(|k| siblings.get(k + 1))
    {
        Some(anchor) => rewrite::create_block_before(*anchor, "sdfg.state", &after_name, &[]),
        None => rewrite::create_block_at_end(owner, "sdfg.state", &after_name, &[]),
    }
    .ok_or("the state after the call could not be made")?;
    let mut fresh: HashMap<Val<'_>, Val<'_>> = HashMap::new();
    for (op, k, data) in crossing {
        let node = match fresh.get(&data) {
            Some(node) => *node,
            None => {
                let created = rewrite::create_read_at_end(next, data)
                    .ok_or("an access node could not be made")?
                    .results()[0];
                fresh.insert(data, created);
                created
            }
        };
        rewrite::set_operand(op, k, node);
    }
    for op in after {
        rewrite::move_to_end(op, next);
    }
    for edge in outgoing {
        rewrite::set_symbol_ref(edge, "src", &after_name);
    }
    for (arg, name) in args.iter().zip(&arg_names) {
        rewrite::replace_all_uses(*arg, containers[name]);
    }
    let first_block = outer
        .region_ops(0)
        .into_iter()
        .find(|op| !op.is("sdfg.alloc"))
        .ok_or("the caller's SDFG has no blocks")?;
    for alloc in &allocs {
        rewrite::move_before(*alloc, first_block);
    }
    for (op, attr, value) in renamed {
        op.set_attr(&attr, value);
    }
    let fresh: HashMap<&str, &str> = renames
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    for alloc in &allocs {
        if let Some(new) = alloc.str_attr("name").and_then(|n| fresh.get(n)) {
            alloc.set_attr("name", rewrite::str_attr(*alloc, new));
        }
    }
    for (name, ty) in new_symbols {
        rewrite::declare_symbol(outer, fresh.get(name).copied().unwrap_or(name), ty);
    }
    // Inner block names that the caller's region already has are renamed.
    let taken: HashSet<&str> = owner
        .region_ops(0)
        .into_iter()
        .filter_map(|o| o.symbol_name())
        .collect();
    for block in &blocks {
        let name = block.symbol_name().unwrap_or_default().to_string();
        if !taken.contains(name.as_str()) {
            continue;
        }
        let new = crate::cfg::unique_block_name(owner, &name).ok_or("no name for a block")?;
        block.set_attr("sym_name", rewrite::str_attr(*block, &new));
        for edge in &inner_edges {
            for end in ["src", "dst"] {
                if edge.symbol_ref_attr(end) == Some(name.as_str()) {
                    rewrite::set_symbol_ref(*edge, end, &new);
                }
            }
        }
    }
    for op in inner.region_ops(0) {
        rewrite::move_before(op, next);
    }
    let name_of = |b: Op<'_>| b.symbol_name().unwrap_or_default().to_string();
    rewrite::create_edge(owner, state_name, &name_of(start), &[])
        .ok_or("an edge could not be made")?;
    for sink in sinks {
        rewrite::create_edge(owner, &name_of(sink), &after_name, &[])
            .ok_or("an edge could not be made")?;
    }
    for node in outs {
        // SAFETY: an output node's result is read only by ops that now
        // read a new node, and its only write is the call's.
        unsafe { rewrite::erase(node) };
    }
    // SAFETY: the call's results were used only by the erased nodes.
    unsafe { rewrite::erase(call) };
    Ok(())
}
