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
//! 2. `sdfg-state-fusion` next: the array eliminations only look inside
//!    one state, and fusion brings a write and the copy that reads it
//!    into the same state.
//! 3. `sdfg-trivial-tasklet-elimination` before the array eliminations:
//!    it turns the frontend's assignment tasklets into the copies they
//!    remove.
//! 4. `sdfg-redundant-array-elimination` after fusion and the tasklet
//!    elimination, for those reasons.
//! 5. `sdfg-dead-dataflow-elimination` after it: bypassing a transient can
//!    leave computations that fed only it.
//! 6. `sdfg-scalar-to-symbol` after them: a scalar DaCe's frontend
//!    computes through a chain of transients and assignment tasklets
//!    (`s = __tmp2` after `__tmp2 = s + __tmp1`) is one tasklet writing it
//!    once they are gone, which is what promotion needs; the states it
//!    leaves are fused in the next round.
//! 7. `sdfg-remove-unused-containers` last: every step above can leave a
//!    transient without access nodes.
//!
//! Rounds repeat while a step changes something (fusing may expose a
//! redundant copy, whose removal may let two more states fuse), bounded
//! by a limit no real program reaches.

use crate::{
    dead_dataflow_elimination::eliminate_dead_dataflow,
    dead_state_elimination::eliminate_dead_states, redundant_array::eliminate_redundant_arrays,
    remove_unused_containers::remove_unused_containers, scalar_to_symbol::promote_scalars,
    state_fusion::fuse_all, trivial_tasklet::eliminate_trivial_tasklets,
};
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::Op;

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-simplify",
    summary: "Repeat dead-state elimination, state fusion, trivial-tasklet, redundant-array and dead-dataflow elimination, scalar-to-symbol promotion and unused-container removal until nothing changes (DaCe's simplify)",
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
    ("sdfg-state-fusion", fuse_all),
    (
        "sdfg-trivial-tasklet-elimination",
        eliminate_trivial_tasklets,
    ),
    (
        "sdfg-redundant-array-elimination",
        eliminate_redundant_arrays,
    ),
    ("sdfg-dead-dataflow-elimination", eliminate_dead_dataflow),
    ("sdfg-scalar-to-symbol", promote_scalars),
    ("sdfg-remove-unused-containers", remove_unused_containers),
];

/// Most rounds a simplification runs.
const ROUNDS: usize = 64;

/// Simplifies every SDFG under `root`; returns how many changes each step
/// made, in the order of [`STEPS`].
pub fn simplify(root: Op<'_>) -> Vec<(&'static str, usize)> {
    let mut totals: Vec<(&'static str, usize)> = STEPS.iter().map(|(n, _)| (*n, 0)).collect();
    for _ in 0..ROUNDS {
        let mut changed = false;
        for (k, (_, step)) in STEPS.iter().enumerate() {
            let n = step(root);
            totals[k].1 += n;
            changed |= n > 0;
        }
        if !changed {
            break;
        }
    }
    totals
}
