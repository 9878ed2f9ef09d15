//! `sdfg-redundant-array-elimination`: removes transients that only pass
//! data through a copy, as DaCe's `RedundantArray` and
//! `RedundantSecondArray` do (the core of its `ArrayElimination`).
//!
//! ```mlir
//! // before: `B[:] = tmp`, tmp written once and read only by the copy
//! %m = sdfg.map "add" ["i" = "0:N"] ins(...) outs("tmp" : !sdfg.array<f64 ["N"]>) { ... }
//! %t = sdfg.access %tmp writes(%m["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
//! %b = sdfg.access %B writes(%t["0:N" -> "0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
//! // after: the map writes B
//! %b = sdfg.access %B writes(%m["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
//!
//! // before: `x = A[i]` into a scalar that a tasklet reads
//! %x = sdfg.access %tmp1 writes(%a["i" -> "0"] : !sdfg.array<f64 ["N"]>) : !sdfg.scalar<f64>
//! %r = sdfg.tasklet "f" ins("v" = %x["0"] : !sdfg.scalar<f64>) ...
//! // after: the tasklet reads A[i]
//! %r = sdfg.tasklet "f" ins("v" = %a["i"] : !sdfg.array<f64 ["N"]>) ...
//! ```
//!
//! Before both, the access nodes of a state that read the same container
//! and that nothing enters become one ([`merge_twin_sources`]), as DaCe's
//! `ArrayElimination` merges them.
//!
//! Both forms need a transient that lives for one call, with one access
//! node in the whole SDFG,
//! whose name no string mentions, joined to the other container by a copy
//! without write-conflict resolution.
//!
//! - **First array** (the transient is the copy's source): the copy reads
//!   all of it into a box of the same extents, with unit steps, of an
//!   array or scalar of the same element type (`B[1:N-1] = tmp`), and the
//!   other nodes of the state that access that container only read it,
//!   each reader finishing before the writers of the transient start (so
//!   writing it earlier, directly, cannot race with a read the copy used
//!   to wait for). The transient's writers then write the destination
//!   node, their memlets moved by the box's offset, through the memlet
//!   trees of the maps that write them. A nested SDFG writes the box
//!   through its output memlet, its argument keeping the transient's
//!   shape; a library node binds all of its output, so its destination
//!   must be a whole container of the same type.
//! - **Second array** (the transient is the copy's destination): it holds
//!   one element, read only by tasklets, and no other node of the state
//!   writes the source container. The tasklets then read the copied
//!   element of the source directly.

use crate::memlet_paths::Moves;
use crate::view_elimination::merge_twin_sources;
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::{Op, Val};
use sdfg_dialect::{memlet_at, rewrite, set_memlet_at, Container, ContainerKind, Memlet, Wcr};
use sdfg_symbolic::{parse, parse_subset, Embedding, Expr};
use std::collections::HashSet;

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-redundant-array-elimination",
    summary: "Remove transients that only pass data through a copy: writers write the copy's destination, readers read its source (DaCe's RedundantArray, RedundantSecondArray)",
    op_name: "builtin.module",
    create: || Box::new(RedundantArrayElimination),
};

/// The pass (no options).
#[derive(Clone, Copy)]
pub struct RedundantArrayElimination;

impl RustPass for RedundantArrayElimination {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        crate::no_options("sdfg-redundant-array-elimination", options)
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        eliminate_redundant_arrays(module);
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(*self)
    }
}

/// Removes redundant transients in every SDFG under `root`; returns how
/// many access nodes were removed.
pub fn eliminate_redundant_arrays(root: Op<'_>) -> usize {
    let sdfgs: Vec<Op<'_>> = std::iter::once(root)
        .chain(root.descendants())
        .filter(|op| op.is("sdfg.sdfg"))
        .collect();
    // DaCe's ArrayElimination first merges the source nodes of each
    // container in a state.
    let mut removed: usize = root
        .descendants()
        .into_iter()
        .filter(|o| o.is("sdfg.state"))
        .map(merge_twin_sources)
        .sum();
    for sdfg in sdfgs {
        let mentioned = crate::mentioned_names(sdfg);
        for alloc in sdfg
            .region_ops(0)
            .into_iter()
            .filter(|o| o.is("sdfg.alloc"))
        {
            let Some(node) = single_access(alloc, &mentioned) else {
                continue;
            };
            // A view written and then copied into its data is a window on
            // the copy's destination: only the first form applies to it.
            let view = Container::from_type(node.operands()[0].ty())
                .is_some_and(|c| c.kind == ContainerKind::View);
            let done = remove_first(node).is_ok() || (!view && remove_second(node).is_ok());
            if done {
                removed += 1;
            }
        }
    }
    removed
}

/// The only access node of a transient array or scalar, or of a view,
/// that no string mentions, when it has no binding and no ordering edges.
fn single_access<'a>(alloc: Op<'a>, mentioned: &HashSet<String>) -> Option<Op<'a>> {
    let value = alloc.results()[0];
    let kind = Container::from_type(value.ty())?.kind;
    if !matches!(
        kind,
        ContainerKind::Array | ContainerKind::Scalar | ContainerKind::View
    ) || crate::outlives_call(alloc)
        || mentioned.contains(alloc.str_attr("name")?)
    {
        return None;
    }
    let uses = value.uses();
    let [(node, 0)] = uses.as_slice() else {
        return None;
    };
    (node.is("sdfg.access")
        && node.operand_segment(2).is_empty()
        && node.operand_segment(3).is_empty())
    .then_some(*node)
}

/// The subset a copy memlet reads (`subset`) and writes (`other`, or the
/// same subset).
fn copy_ends(memlet: &Memlet) -> (String, String) {
    let source = memlet.subset.clone();
    let destination = memlet.other.clone().unwrap_or_else(|| source.clone());
    (source, destination)
}

fn same_expr(a: &Expr, b: &Expr) -> bool {
    a == b || Expr::sub(a, b).as_int() == Some(0)
}

/// Whether `subset` is the whole of a container of shape `shape`, at
/// offset zero with unit steps.
fn is_whole(subset: &str, shape: &[String]) -> bool {
    let Ok(subset) = parse_subset(subset) else {
        return false;
    };
    let shape: Vec<Expr> = match shape.iter().map(|s| parse(s)).collect::<Result<_, _>>() {
        Ok(shape) => shape,
        Err(_) => return false,
    };
    if shape.is_empty() {
        return subset.dims() == 1 && subset.ranges()[0].start.as_int() == Some(0);
    }
    subset.dims() == shape.len()
        && subset.ranges().iter().zip(&shape).all(|(r, n)| {
            let from_zero = r.start.as_int() == Some(0);
            let single = n.as_int() == Some(1) && r.count().as_int() == Some(1);
            let whole = r.step.as_int() == Some(1) && same_expr(&r.end, n) && !r.is_index();
            from_zero && (whole || single)
        })
}

/// Where a copy's destination subset puts a transient of shape `shape`
/// in a container of rank `rank` (1 for a scalar): the offset of each
/// dimension, when the subset has the transient's rank and extents, with
/// unit steps, and the destination's rank (a copy that reshapes has
/// neither).
fn placement(subset: &str, shape: &[String], rank: usize) -> Option<Vec<Expr>> {
    let subset = parse_subset(subset).ok()?;
    if subset.dims() != rank {
        return None;
    }
    if shape.is_empty() {
        let r = subset.ranges();
        return (r.len() == 1 && r[0].count().as_int() == Some(1))
            .then(|| vec![r[0].start.clone()]);
    }
    let shape: Vec<Expr> = shape
        .iter()
        .map(|s| parse(s))
        .collect::<Result<_, _>>()
        .ok()?;
    (subset.dims() == shape.len()
        && subset
            .ranges()
            .iter()
            .zip(&shape)
            .all(|(r, n)| r.step.as_int() == Some(1) && same_expr(&r.size(), n)))
    .then(|| subset.ranges().iter().map(|r| r.start.clone()).collect())
}

/// Other access nodes of `container` in the state of `node`.
fn others_in_state<'a>(node: Op<'a>, container: Val<'a>) -> Vec<Op<'a>> {
    container
        .uses()
        .into_iter()
        .map(|(user, _)| user)
        .filter(|user| *user != node && user.ancestor("sdfg.state") == node.ancestor("sdfg.state"))
        .collect()
}

/// Whether every other access node of `target` in the state of `dest`
/// only reads it, each of its readers finishing before any writer of
/// `node` starts: it is an ancestor of every writer, or it is a writer
/// that is a tasklet (which reads its inputs before it writes).
fn others_finish_first<'a>(node: Op<'a>, dest: Op<'a>, target: Val<'a>) -> bool {
    let writers: Vec<Op<'a>> = node
        .operand_segment(1)
        .iter()
        .filter_map(|v| v.defining_op())
        .collect();
    let mut ancestors: Option<HashSet<Op<'a>>> = None;
    others_in_state(dest, target).into_iter().all(|other| {
        other.operands().len() == 1
            && other.results()[0].uses().into_iter().all(|(reader, _)| {
                if reader.is("sdfg.tasklet") && writers.contains(&reader) {
                    return true;
                }
                let all = ancestors.get_or_insert_with(|| {
                    let mut sets = writers.iter().map(|w| ancestors_of(*w));
                    let first = sets.next().unwrap_or_default();
                    sets.fold(first, |acc, s| acc.intersection(&s).copied().collect())
                });
                all.contains(&reader)
            })
    })
}

/// The nodes of `op`'s state that reach `op` along dataflow edges.
fn ancestors_of(op: Op<'_>) -> HashSet<Op<'_>> {
    let block = op.parent();
    let mut seen = HashSet::new();
    let mut stack = vec![op];
    while let Some(current) = stack.pop() {
        for operand in current.operands() {
            if let Some(source) = operand.defining_op().filter(|d| d.parent() == block) {
                if seen.insert(source) {
                    stack.push(source);
                }
            }
        }
    }
    seen
}

/// The transient is the source of a copy that moves all of it.
fn remove_first(node: Op<'_>) -> Result<(), ()> {
    let result = node.results()[0];
    let uses = result.uses();
    let [(dest, operand)] = uses.as_slice() else {
        return Err(());
    };
    let (dest, operand) = (*dest, *operand);
    if !dest.is("sdfg.access") || node.operand_segment(1).is_empty() {
        return Err(());
    }
    let writes = dest.operand_segment(1);
    let index = operand
        .checked_sub(1)
        .filter(|i| *i < writes.len())
        .ok_or(())?;
    let memlet = memlet_at(dest, operand).ok_or(())?;
    if memlet.wcr != Wcr::None || memlet.dynamic {
        return Err(());
    }
    let transient = node.operands()[0];
    let target = dest.operands()[0];
    let (Some(from), Some(to)) = (
        Container::from_type(transient.ty()),
        Container::from_type(target.ty()),
    ) else {
        return Err(());
    };
    if from.element.0.ptr != to.element.0.ptr
        || !matches!(to.kind, ContainerKind::Array | ContainerKind::Scalar)
    {
        return Err(());
    }
    let (source, destination) = copy_ends(&memlet);
    let rank = if to.kind == ContainerKind::Scalar {
        1
    } else {
        to.shape.len()
    };
    let offset = placement(&destination, &from.shape, rank).ok_or(())?;
    if !is_whole(&source, &from.shape) || !others_finish_first(node, dest, target) {
        return Err(());
    }
    // The writers' memlets move from the transient's coordinates to the
    // destination's.
    let embedding = Embedding::shift(&offset);
    let mut moves = Moves::default();
    moves.into_type(target.ty());
    let mut moved_writes: Vec<Memlet> = Vec::new();
    for (j, inner) in node.operand_segment(1).into_iter().enumerate() {
        let mut m = memlet_at(node, 1 + j).ok_or(())?;
        let producer = inner.defining_op().ok_or(())?;
        if producer.is("sdfg.access") {
            let end = m.other.take().unwrap_or_else(|| m.subset.clone());
            m.other = Some(embedding.apply(&end).map_err(|_| ())?);
        } else if producer.is("sdfg.library") {
            // A library node's output binds a whole container: only one of
            // the same type can take the transient's place.
            if transient.ty().ptr != target.ty().ptr {
                return Err(());
            }
        } else {
            m.subset = embedding.apply(&m.subset).map_err(|_| ())?;
            moves
                .writes(producer, inner.result_number().ok_or(())?, &embedding)
                .map_err(|_| ())?;
        }
        moved_writes.push(m);
    }
    moves.apply();
    let mut new_writes: Vec<Val<'_>> = Vec::new();
    let mut new_memlets: Vec<Memlet> = Vec::new();
    for (k, value) in writes.iter().enumerate() {
        if k == index {
            new_writes.extend(node.operand_segment(1));
            new_memlets.extend(moved_writes.iter().cloned());
        } else {
            new_writes.push(*value);
            new_memlets.push(memlet_at(dest, 1 + k).ok_or(())?);
        }
    }
    let segments = [
        vec![target],
        new_writes,
        dest.operand_segment(2),
        dest.operand_segment(3),
    ];
    let attrs: Vec<_> = new_memlets
        .iter()
        .map(|m| m.to_attr(dest.context()))
        .collect();
    rewrite::set_operand_segments(dest, &segments);
    dest.set_attr(
        "write_memlets",
        sdfg_dialect::ir::array_of(dest.context(), &attrs),
    );
    // SAFETY: the node's only use (the copy) is gone.
    unsafe { rewrite::erase(node) };
    Ok(())
}

/// The transient is the destination of a copy of one element, read only
/// by tasklets.
fn remove_second(node: Op<'_>) -> Result<(), ()> {
    let writes = node.operand_segment(1);
    let [source] = writes.as_slice() else {
        return Err(());
    };
    let origin = source
        .defining_op()
        .filter(|o| o.is("sdfg.access"))
        .ok_or(())?;
    let memlet = memlet_at(node, 1).ok_or(())?;
    if memlet.wcr != Wcr::None || memlet.dynamic {
        return Err(());
    }
    let transient = node.operands()[0];
    let container = origin.operands()[0];
    let element = |v: Val<'_>| Container::from_type(v.ty()).map(|c| (c.kind, c.element.0.ptr));
    let (Some((kind, elem)), Some((source_kind, source_elem))) =
        (element(transient), element(container))
    else {
        return Err(());
    };
    if elem != source_elem
        || matches!(
            source_kind,
            ContainerKind::View | ContainerKind::Reference | ContainerKind::Stream
        )
    {
        return Err(());
    }
    let shape = Container::from_type(transient.ty()).ok_or(())?.shape;
    let one_element = kind == ContainerKind::Scalar || shape.iter().all(|s| s == "1");
    let (read, _) = copy_ends(&memlet);
    let read_one = parse_subset(&read)
        .map(|s| s.ranges().iter().all(|r| r.count().as_int() == Some(1)))
        .unwrap_or(false);
    if !one_element || !read_one {
        return Err(());
    }
    let writers_of_source = others_in_state(origin, container)
        .into_iter()
        .any(|other| other.operands().len() > 1);
    let readers = node.results()[0].uses();
    if writers_of_source
        || readers.is_empty()
        || readers.iter().any(|(user, operand)| {
            !user.is("sdfg.tasklet") || *operand >= user.operand_segment(0).len()
        })
    {
        return Err(());
    }
    let point: Vec<String> = parse_subset(&read)
        .map_err(|_| ())?
        .ranges()
        .iter()
        .map(|r| r.start.to_string())
        .collect();
    for (user, operand) in readers {
        let mut inner = memlet_at(user, operand).ok_or(())?;
        inner.subset = point.join(", ");
        inner.other = None;
        rewrite::set_operand(user, operand, origin.results()[0]);
        set_memlet_at(user, operand, &inner);
    }
    // SAFETY: every reader now reads the source; the node has no uses.
    unsafe { rewrite::erase(node) };
    Ok(())
}
