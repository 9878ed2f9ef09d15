//! `sdfg-view-elimination`: removes views that only read a box of their
//! data, connecting their readers to the data itself with the memlets
//! moved by the view's offset, as DaCe's `RemoveSliceView` and
//! `RedundantReadSlice` do.
//!
//! ```mlir
//! // before: `A[1:N-1] + ...` through a view
//! %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
//! %v = sdfg.access %V bind(%a ["1:N - 1" -> "0:N - 2"] : ...) : !sdfg.view<f64 ["N - 2"]>
//! %m = sdfg.map "add" ["i" = "0:N - 2"] ins("v" = %v["0:N - 2"] : !sdfg.view<f64 ["N - 2"]>) ... {
//! ^bb0(%vin: !sdfg.view<f64 ["N - 2"]>):
//!   %t = sdfg.tasklet "f" ins("x" = %vin["i"] : !sdfg.view<f64 ["N - 2"]>) ...
//! // after
//! %m = sdfg.map "add" ["i" = "0:N - 2"] ins("v" = %a["1:N - 1"] : !sdfg.array<f64 ["N"]>) ... {
//! ^bb0(%vin: !sdfg.array<f64 ["N"]>):
//!   %t = sdfg.tasklet "f" ins("x" = %vin["i + 1"] : !sdfg.array<f64 ["N"]>) ...
//! ```
//!
//! The view node is bound to an access node of data that is not itself a
//! view or a reference, by a box with unit steps whose dimensions are the
//! view's, in order, with the same extents, apart from dimensions of
//! extent 1 the view drops (`A[k, 0:N]` as a vector: `R[j]` becomes
//! `A[k, j]`); the view's end of the binding starts at its origin.
//! Nothing writes the view node, and it is read only by tasklets, maps
//! (whose memlet trees move), copies, nested SDFGs (whose input memlet
//! moves; the argument inside keeps the view's shape; a connector that
//! is also an output keeps its view, since DaCe wants one container on
//! both sides) and matrix-product library nodes whose operand keeps its
//! squeezed shape (`A_0[0:N]` as `A[r, q, 0:N]`, where DaCe's
//! `RemoveSliceView` keeps every view a library node reads). Views that
//! are written, that reshape their box (a new axis) or that feed other
//! library nodes stay. The data node then merges with the other nodes of
//! its state that read the same data and that nothing enters
//! ([`merge_twin_sources`]), as the views had made one node each.

use crate::memlet_paths::Moves;
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::{Op, Val};
use sdfg_dialect::{memlet_at, rewrite, Container, ContainerKind};
use sdfg_symbolic::{parse_subset, Embedding, Subset};
use std::collections::{HashMap, HashSet};

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-view-elimination",
    summary: "Connect the readers of views that read a box of their data to the data itself, moving their memlets into the data's coordinates (DaCe's RemoveSliceView)",
    op_name: "builtin.module",
    create: || Box::new(ViewElimination),
};

/// The pass (no options).
#[derive(Clone, Copy)]
pub struct ViewElimination;

impl RustPass for ViewElimination {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        crate::no_options("sdfg-view-elimination", options)
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        eliminate_views(module);
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(*self)
    }
}

/// Removes every read-only view node under `root` that qualifies; returns
/// how many were removed.
pub fn eliminate_views(root: Op<'_>) -> usize {
    let views: Vec<Op<'_>> = root
        .descendants()
        .into_iter()
        .filter(|op| op.is("sdfg.access") && !op.operand_segment(2).is_empty())
        .collect();
    let mut removed = 0;
    let mut touched: HashSet<Op<'_>> = HashSet::new();
    for view in views {
        let state = view.parent();
        if eliminate(view).is_ok() {
            removed += 1;
            touched.extend(state.filter(|s| s.is("sdfg.state")));
        }
    }
    for state in touched {
        merge_twin_sources(state);
    }
    removed
}

/// Connects the readers of view node `view` to the data it is bound to,
/// or says why it cannot.
pub fn eliminate(view: Op<'_>) -> Result<(), String> {
    let container = view.operands()[0];
    let kind = |ty| Container::from_type(ty).map(|c| c.kind);
    if kind(container.ty()) != Some(ContainerKind::View) {
        return Err("the node is not a view's".into());
    }
    if !view.operand_segment(1).is_empty() || !view.operand_segment(3).is_empty() {
        return Err("the view is written or ordered".into());
    }
    let source = view.operand_segment(2)[0];
    let data = source
        .defining_op()
        .filter(|d| d.is("sdfg.access"))
        .ok_or("the view is not bound to an access node")?;
    if matches!(
        kind(data.operands()[0].ty()),
        Some(ContainerKind::View | ContainerKind::Reference) | None
    ) {
        return Err("the view is bound to another view or a reference".into());
    }
    let operand = view.operands().len() - 1;
    let bind = memlet_at(view, operand).ok_or("the binding has no memlet")?;
    let on_data = parse_subset(&bind.subset).map_err(|e| e.to_string())?;
    let on_view =
        parse_subset(bind.other.as_deref().unwrap_or(&bind.subset)).map_err(|e| e.to_string())?;
    let view_rank = Container::from_type(container.ty())
        .map(|c| c.rank())
        .unwrap_or(0);
    if on_view.dims() != view_rank {
        return Err("the binding's view end does not have the view's rank".into());
    }
    let unit = |s: &Subset| s.ranges().iter().all(|r| r.step.as_int() == Some(1));
    let at_origin = on_view.ranges().iter().all(|r| r.start.as_int() == Some(0));
    if !unit(&on_data) || !unit(&on_view) || !at_origin {
        return Err("the view is strided or not at its origin".into());
    }
    let result = view.results()[0];
    // A nested SDFG connector that is also an output must read and write
    // one container (DaCe validates that): its read cannot move alone.
    for (user, operand) in result.uses() {
        if user.is("sdfg.nested") {
            let name = user.str_array_attr("in_names").get(operand).copied();
            if name.is_some_and(|n| user.str_array_attr("out_names").contains(&n)) {
                return Err("a nested SDFG reads and writes the view through one connector".into());
            }
        }
    }
    let embedding = Embedding::of_box(&on_data, &on_view)?;
    let mut moves = Moves::default();
    moves.into_type(source.ty());
    moves.reads(result, &embedding)?;
    moves.apply();
    rewrite::replace_all_uses(result, source);
    // SAFETY: the view node has no uses left.
    unsafe { rewrite::erase(view) };
    Ok(())
}

/// Merges the access nodes of `state` that read the same array or
/// scalar and that nothing enters into the first of each group; returns
/// how many went. Views of one container (`A[0:N-2] + A[1:N-1]`), each
/// bound to a node of its own, leave such twins. A node nothing enters
/// reads what its container held when the state began (a write it is not
/// ordered with would be a race), so twins read the same values and one
/// node can feed all their readers.
pub fn merge_twin_sources(state: Op<'_>) -> usize {
    let mut first: HashMap<(Val<'_>, *const std::ffi::c_void), Op<'_>> = HashMap::new();
    let mut merged = 0;
    for op in state.region_ops(0) {
        let source = op.is("sdfg.access")
            && op.operands().len() == 1
            && matches!(
                Container::from_type(op.operands()[0].ty()).map(|c| c.kind),
                Some(ContainerKind::Array | ContainerKind::Scalar)
            );
        if !source {
            continue;
        }
        let key = (op.operands()[0], op.results()[0].ty().ptr);
        match first.get(&key) {
            Some(keep) => {
                rewrite::replace_all_uses(op.results()[0], keep.results()[0]);
                // SAFETY: the twin has no uses left and is not used again.
                unsafe { rewrite::erase(op) };
                merged += 1;
            }
            None => {
                first.insert(key, op);
            }
        }
    }
    merged
}
