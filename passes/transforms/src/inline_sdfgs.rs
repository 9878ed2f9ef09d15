//! `sdfg-inline-sdfgs`: replaces nested SDFGs of one state by that state's
//! dataflow, as DaCe's `InlineSDFG` (the single-state part of its
//! `InlineSDFGs` pass) does.
//!
//! ```mlir
//! // before: `c[i] = a[i] + 2.5 * b[i]` through a nested SDFG of scalars
//! %n = sdfg.nested "body" ins("x" = %a_in["i"] : !sdfg.array<f64 ["N"]>, ...)
//!        outs("y" : !sdfg.array<f64 ["N"]>) symbols("i" = "i") {
//!   sdfg.sdfg @body(%x: !sdfg.scalar<f64> as "x", ..., %y: !sdfg.scalar<f64> as "y") symbols {i = i64} {
//!     sdfg.state @s {
//!       %xr = sdfg.access %x : !sdfg.scalar<f64>
//!       %t = sdfg.tasklet "f" ins("v" = %xr["0"] : !sdfg.scalar<f64>, ...) outs("o" : f64) { ... }
//!       %yw = sdfg.access %y writes(%t["0"] : f64) : !sdfg.scalar<f64>
//!     }
//!   }
//! }
//! sdfg.exit("c" = %n["i"] : !sdfg.array<f64 ["N"]>)
//! // after: the tasklet reads and writes the outer data
//! %t = sdfg.tasklet "f" ins("v" = %a_in["i"] : !sdfg.array<f64 ["N"]>, ...) outs("o" : f64) { ... }
//! sdfg.exit("c" = %t["i"] : f64)
//! ```
//!
//! The nested SDFG qualifies when its body is one state (no inter-state
//! edges), its caller maps every symbol it declares to itself (`"i" =
//! "i"`), nothing orders the call (`after` operands), and its transients'
//! names are free in the caller's SDFG. Each access node of an argument
//! is either read, by readers whose memlets move into the outer data's
//! coordinates through the outer memlet (an argument's shape is the outer
//! box, squeezed: `[N]` from `A[k, 0:N]` reads `A[k, j]` for `x[j]`), or
//! written, by exactly one producer, whose write then goes where the
//! nested SDFG's output went, and whose map exits move the same way. The
//! transients move to the caller's SDFG, the state's other nodes before
//! the call, in order, so every value is still defined before its uses.
//! Nested SDFGs of several states stay.

use crate::memlet_paths::Moves;
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::{Op, Val};
use sdfg_dialect::{
    memlet_at, rewrite, set_memlet_at, Container, ContainerKind, Memlet, CONTROL_FLOW_BLOCKS,
};
use sdfg_symbolic::{parse, parse_subset, Embedding, Expr, Subset};
use std::collections::HashSet;

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-inline-sdfgs",
    summary: "Replace nested SDFGs of one state by that state's dataflow, their memlets moved into the caller's coordinates (DaCe's InlineSDFG)",
    op_name: "builtin.module",
    create: || Box::new(InlineSdfgs),
};

/// The pass (no options).
#[derive(Clone, Copy)]
pub struct InlineSdfgs;

impl RustPass for InlineSdfgs {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        crate::no_options("sdfg-inline-sdfgs", options)
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        inline_sdfgs(module);
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(*self)
    }
}

/// Inlines every qualifying nested SDFG under `root`, innermost first;
/// returns how many were inlined.
pub fn inline_sdfgs(root: Op<'_>) -> usize {
    inline_each(root, inline)
}

/// Applies `inline` to every nested SDFG call under `root`, innermost
/// first (a call's body is final when its caller is tried); returns how
/// many it inlined.
pub(crate) fn inline_each(root: Op<'_>, inline: fn(Op<'_>) -> Result<(), String>) -> usize {
    let mut calls: Vec<Op<'_>> = root
        .descendants()
        .into_iter()
        .filter(|op| op.is("sdfg.nested"))
        .collect();
    calls.reverse();
    calls.into_iter().filter(|c| inline(*c).is_ok()).count()
}

/// A write of an output argument, planned: the outer use it replaces and
/// the producer and memlet that take its place.
struct Write<'a> {
    user: Op<'a>,
    operand: usize,
    producer: Val<'a>,
    memlet: Memlet,
}

/// Inlines the nested SDFG `call`, or says why it cannot (and changes
/// nothing).
pub fn inline(call: Op<'_>) -> Result<(), String> {
    let inner = call
        .region_ops(0)
        .into_iter()
        .find(|op| op.is("sdfg.sdfg"))
        .ok_or("the call holds no SDFG")?;
    let outer = crate::enclosing_sdfg(call).ok_or("the call is not in an SDFG")?;
    if !call.operand_segment(1).is_empty() {
        return Err("the call is ordered after other nodes".into());
    }
    let body = inner.region_ops(0);
    let blocks: Vec<Op<'_>> = body
        .iter()
        .copied()
        .filter(|op| CONTROL_FLOW_BLOCKS.contains(&op.name()))
        .collect();
    let [state] = blocks.as_slice() else {
        return Err("the nested SDFG has more than one block".into());
    };
    let state = *state;
    if !state.is("sdfg.state") || body.iter().any(|op| op.is("sdfg.edge")) {
        return Err("the nested SDFG's block is not a plain state".into());
    }
    check_symbols(call, inner)?;
    let allocs: Vec<Op<'_>> = body
        .iter()
        .copied()
        .filter(|op| op.is("sdfg.alloc"))
        .collect();
    check_names(outer, &allocs)?;
    let first_block = outer
        .region_ops(0)
        .into_iter()
        .find(|op| !op.is("sdfg.alloc"))
        .ok_or("the caller's SDFG has no blocks")?;

    // The arguments: which connector, and its outer side.
    let in_names = call.str_array_attr("in_names");
    let out_names = call.str_array_attr("out_names");
    let arg_names = inner.str_array_attr("arg_names");
    let args = inner.region_args(0);
    let mut moves = Moves::default();
    let mut reads: Vec<(Op<'_>, Val<'_>)> = Vec::new();
    let mut writes: Vec<Write<'_>> = Vec::new();
    let mut arg_nodes: HashSet<Op<'_>> = HashSet::new();
    let mut written_outputs: HashSet<usize> = HashSet::new();
    for (arg, name) in args.iter().zip(&arg_names) {
        let arg_box = whole(arg.ty()).ok_or("an argument has no shape")?;
        for (node, operand) in arg.uses() {
            if !node.is("sdfg.access") || operand != 0 || node.parent() != Some(state) {
                return Err(format!(
                    "argument `{name}` is used by other than access nodes"
                ));
            }
            if !node.operand_segment(2).is_empty() || !node.operand_segment(3).is_empty() {
                return Err(format!("a node of `{name}` is bound or ordered"));
            }
            arg_nodes.insert(node);
            let written = !node.operand_segment(1).is_empty();
            if written {
                let k = out_names
                    .iter()
                    .position(|n| n == name)
                    .ok_or_else(|| format!("`{name}` is written but not an output"))?;
                if !written_outputs.insert(k) {
                    return Err(format!("`{name}` is written by several nodes"));
                }
                moves.into_type(call.results()[k].ty());
                writes.push(plan_write(call, k, node, &arg_box, &mut moves)?);
            } else {
                let k = in_names
                    .iter()
                    .position(|n| n == name)
                    .ok_or_else(|| format!("`{name}` is read but not an input"))?;
                let outside = memlet_at(call, k).ok_or("an input has no memlet")?;
                let embedding = Embedding::of_box(
                    &parse_subset(&outside.subset).map_err(|e| e.to_string())?,
                    &arg_box,
                )?;
                moves.into_type(call.operands()[k].ty());
                moves.reads(node.results()[0], &embedding)?;
                reads.push((node, call.operands()[k]));
            }
        }
    }
    if writes.len() != out_names.len() {
        return Err("an output is not written exactly once".into());
    }
    // Everything is checked: change the IR.
    moves.apply();
    for (node, outside) in &reads {
        rewrite::replace_all_uses(node.results()[0], *outside);
    }
    for write in &writes {
        rewrite::set_operand(write.user, write.operand, write.producer);
        set_memlet_at(write.user, write.operand, &write.memlet);
    }
    for alloc in allocs {
        rewrite::move_before(alloc, first_block);
    }
    for op in state.region_ops(0) {
        if arg_nodes.contains(&op) {
            // SAFETY: the node's uses were all replaced or it has none
            // (written nodes' results are unused, checked in plan_write).
            unsafe { rewrite::erase(op) };
        } else {
            rewrite::move_before(op, call);
        }
    }
    // SAFETY: the call's results were replaced in all their uses.
    unsafe { rewrite::erase(call) };
    Ok(())
}

/// The caller must map each symbol the nested SDFG declares to itself.
fn check_symbols(call: Op<'_>, inner: Op<'_>) -> Result<(), String> {
    let names = call.str_array_attr("symbol_names");
    let values = call.str_array_attr("symbol_values");
    for (n, v) in names.iter().zip(&values) {
        if n.trim() != v.trim() {
            return Err(format!("the call maps symbol `{n}` to `{v}`"));
        }
    }
    let declared = inner
        .attr("symbols")
        .map(sdfg_dialect::ir::dictionary_entries)
        .unwrap_or_default();
    match declared.iter().find(|(n, _)| !names.contains(n)) {
        Some((n, _)) => Err(format!("symbol `{n}` of the nested SDFG is not mapped")),
        None => Ok(()),
    }
}

/// The inner transients' names must be free in the caller's SDFG.
pub(crate) fn check_names(outer: Op<'_>, allocs: &[Op<'_>]) -> Result<(), String> {
    let mut taken: HashSet<String> = outer
        .str_array_attr("arg_names")
        .into_iter()
        .map(str::to_string)
        .collect();
    for op in outer.region_ops(0) {
        if op.is("sdfg.alloc") {
            taken.extend(op.str_attr("name").map(str::to_string));
        }
    }
    for alloc in allocs {
        if let Some(name) = alloc.str_attr("name") {
            if taken.contains(name) {
                return Err(format!("transient `{name}` is also a name of the caller"));
            }
        }
    }
    Ok(())
}

/// All of a container of type `ty`: its full box (`0` for a scalar).
pub(crate) fn whole(ty: mlir_sys::MlirType) -> Option<Subset> {
    let container = Container::from_type(ty)?;
    if container.kind == ContainerKind::Scalar || container.shape.is_empty() {
        return parse_subset("0").ok();
    }
    let shape: Vec<Expr> = container
        .shape
        .iter()
        .map(|s| parse(s))
        .collect::<Result<_, _>>()
        .ok()?;
    Some(Subset::full(&shape))
}

/// Plans the write of output `k` by the argument node `node`.
fn plan_write<'a>(
    call: Op<'a>,
    k: usize,
    node: Op<'a>,
    arg_box: &Subset,
    moves: &mut Moves<'a>,
) -> Result<Write<'a>, String> {
    if !node.results()[0].uses().is_empty() {
        return Err("a written argument node is also read".into());
    }
    let writers = node.operand_segment(1);
    let [producer] = writers.as_slice() else {
        return Err("an output argument node has several writers".into());
    };
    let inner_memlet = memlet_at(node, 1).ok_or("a write has no memlet")?;
    let result = call.results()[k];
    let uses = result.uses();
    let [(user, operand)] = uses.as_slice() else {
        return Err("an output of the call has not exactly one use".into());
    };
    let outside = memlet_at(*user, *operand).ok_or("an output's use has no memlet")?;
    let embedding = Embedding::of_box(
        &parse_subset(&outside.subset).map_err(|e| e.to_string())?,
        arg_box,
    )?;
    let mut memlet = inner_memlet.clone();
    let from = producer
        .defining_op()
        .ok_or("a writer is a block argument")?;
    // A copy straight from an argument node: that node goes with the
    // call, so the copy would have no source.
    if from.is("sdfg.access") && from.operands()[0].defining_op().is_none() {
        return Err("an output is copied from an argument".into());
    }
    // A scope exit fed by a copy is a form the lowering does not take
    // yet (it reads the copy's destination subset from the source).
    if from.is("sdfg.access") && user.is("sdfg.exit") {
        return Err("an output copied inside a scope would feed its exit".into());
    }
    if from.is("sdfg.access") {
        let end = memlet.other.take().unwrap_or_else(|| memlet.subset.clone());
        memlet.other = Some(embedding.apply(&end)?);
    } else {
        memlet.subset = embedding.apply(&memlet.subset)?;
        let number = producer.result_number().ok_or("a writer has no result")?;
        moves.writes(from, number, &embedding)?;
    }
    memlet.wcr = if inner_memlet.wcr != sdfg_dialect::Wcr::None {
        inner_memlet.wcr
    } else {
        outside.wcr
    };
    Ok(Write {
        user: *user,
        operand: *operand,
        producer: *producer,
        memlet,
    })
}
