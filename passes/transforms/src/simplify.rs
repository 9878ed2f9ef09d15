//! `sdfg-simplify`: the simplify passes, repeated until none changes the
//! program, as DaCe's `SimplifyPass` (`SDFG.simplify()`) does.
//!
//! ```mlir
//! // before: what a frontend writes, one state per statement
//! sdfg.state @assign { /* tmp = A + 1 */ }
//! sdfg.state @copy { /* B[:] = tmp */ }
//! sdfg.edge @assign -> @copy
//! // after: one state, the map writing B directly, tmp gone
//! sdfg.state @assign { /* B = A + 1 */ }
//! ```
//!
//! Each step is a pass of its own, usable alone; one round runs them in
//! this order:
//!
//! 1. `sdfg-dead-state-elimination` first, so that later steps do not
//!    work on (or keep data alive for) blocks that never run.
//! 2. `sdfg-inline-sdfgs`: a nested SDFG whose body the previous round
//!    fused into one state becomes part of its caller's state, where the
//!    eliminations below reach it. `sdfg-inline-multistate` then puts the
//!    blocks of those called on whole containers from a state into the
//!    caller's state machine, as DaCe's `InlineSDFGs` does both.
//! 3. `sdfg-scalar-to-symbol` before fusion, as DaCe orders it: while the
//!    frontend's statements are still one state each, a scalar written by
//!    several statements is written once per state, which promotion
//!    needs.
//! 4. `sdfg-state-fusion` next: the eliminations below only look inside
//!    one state, and fusion brings a write and the copy or view that reads
//!    it into the same state. It also joins the empty states promotion
//!    leaves between assignments.
//! 5. `sdfg-constant-propagation` after fusion, as DaCe orders it: the
//!    constants promotion made symbols reach their uses (a condition that
//!    becomes `True` or `False` is then dead-state elimination's in the
//!    next round).
//! 6. `sdfg-trivial-tasklet-elimination` before the array eliminations:
//!    it turns the frontend's assignment tasklets into the copies they
//!    remove.
//! 7. `sdfg-view-elimination`, then `sdfg-redundant-array-elimination`:
//!    readers of a view read its data, writers of a copied transient
//!    write the copy's destination.
//! 8. `sdfg-consolidate-edges` after them: a map that read two views of
//!    the same data now reads it twice.
//! 9. `sdfg-dead-dataflow-elimination` after them: bypassing a transient
//!    can leave computations that fed only it.
//! 10. `sdfg-scalar-to-symbol` again: a scalar the frontend computes
//!     through a chain of transients and assignment tasklets
//!     (`s = __tmp2` after `__tmp2 = s + __tmp1`) is one tasklet writing
//!     it once they are gone.
//! 11. `sdfg-remove-unused-containers` and `sdfg-remove-unused-symbols`
//!     last: every step above can leave a transient without access
//!     nodes, or a symbol nothing reads (a promoted scalar whose copy was
//!     forwarded).
//!
//! Rounds repeat while a step changes something (fusing may expose a
//! redundant copy, whose removal may let two more states fuse), bounded
//! by a limit no real program reaches.

use crate::{
    consolidate_edges::consolidate_edges, constant_propagation::propagate_constants,
    dead_dataflow_elimination::eliminate_dead_dataflow,
    dead_state_elimination::eliminate_dead_states, inline_multistate::inline_multistate,
    inline_sdfgs::inline_sdfgs, redundant_array::eliminate_redundant_arrays,
    remove_unused_containers::remove_unused_containers,
    remove_unused_symbols::remove_unused_symbols, scalar_to_symbol::promote_scalars,
    state_fusion::fuse_all, trivial_tasklet::eliminate_trivial_tasklets,
    view_elimination::eliminate_views,
};
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::Op;

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-simplify",
    summary: "Repeat dead-state elimination, nested-SDFG inlining (single- and multi-state), scalar-to-symbol promotion, state fusion, constant propagation, trivial-tasklet, view, redundant-array and dead-dataflow elimination, edge consolidation and unused-container and symbol removal until nothing changes (DaCe's simplify)",
    op_name: "builtin.module",
    create: || Box::new(Simplify),
};

/// The pass (no options).
#[derive(Clone, Copy)]
pub struct Simplify;

impl RustPass for Simplify {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        crate::no_options("sdfg-simplify", options)
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        simplify(module);
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(*self)
    }
}

/// A simplify step: changes the IR under an op, returns how many changes
/// it made.
pub type Step = fn(Op<'_>) -> usize;

/// The steps of one round, in order.
pub const STEPS: &[(&str, Step)] = &[
    ("sdfg-dead-state-elimination", eliminate_dead_states),
    ("sdfg-inline-sdfgs", inline_sdfgs),
    ("sdfg-inline-multistate", inline_multistate),
    ("sdfg-scalar-to-symbol", promote_scalars),
    ("sdfg-state-fusion", fuse_all),
    ("sdfg-constant-propagation", propagate_constants),
    (
        "sdfg-trivial-tasklet-elimination",
        eliminate_trivial_tasklets,
    ),
    ("sdfg-view-elimination", eliminate_views),
    (
        "sdfg-redundant-array-elimination",
        eliminate_redundant_arrays,
    ),
    ("sdfg-consolidate-edges", consolidate_edges),
    ("sdfg-dead-dataflow-elimination", eliminate_dead_dataflow),
    ("sdfg-scalar-to-symbol", promote_scalars),
    ("sdfg-remove-unused-containers", remove_unused_containers),
    ("sdfg-remove-unused-symbols", remove_unused_symbols),
];

/// Most rounds a simplification runs.
const ROUNDS: usize = 64;

/// Simplifies every SDFG under `root`; returns how many changes each step
/// made, in the order of [`STEPS`].
///
/// The steps run in rounds, in order, until every step has run once, on
/// the program as it is, without a change: from the last change, not from
/// the start of a round, so the final check costs a round only when the
/// last change came from the last step.
pub fn simplify(root: Op<'_>) -> Vec<(&'static str, usize)> {
    let mut totals: Vec<(&'static str, usize)> = STEPS.iter().map(|(n, _)| (*n, 0)).collect();
    let mut unchanged = 0;
    for k in (0..STEPS.len()).cycle().take(ROUNDS * STEPS.len()) {
        if unchanged == STEPS.len() {
            break;
        }
        let n = (STEPS[k].1)(root);
        totals[k].1 += n;
        unchanged = if n > 0 { 0 } else { unchanged + 1 };
    }
    totals
}
