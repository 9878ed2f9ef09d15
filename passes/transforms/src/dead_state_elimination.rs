//! `sdfg-dead-state-elimination`: removes inter-state edges whose
//! condition is always false and the blocks no path from the start block
//! reaches any more, as DaCe's `DeadStateElimination` does.
//!
//! ```mlir
//! // before: a branch that can never be taken (N = 4 was propagated)
//! sdfg.state @start { }
//! sdfg.state @never { ... }
//! sdfg.state @always { ... }
//! sdfg.edge @start -> @never if "4 > 5"
//! sdfg.edge @start -> @always if "4 <= 5"
//!
//! // after
//! sdfg.state @start { }
//! sdfg.state @always { ... }
//! sdfg.edge @start -> @always if "4 <= 5"
//! ```
//!
//! A condition is false when the symbolic engine decides it without any
//! assumption about the symbols, so the pass never removes a block some
//! input reaches. Each region (the SDFG's, a loop body's, a branch's) is
//! its own state machine with its own start block.

use crate::cfg::{machine_owners, Machine};
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::Op;
use sdfg_symbolic::{parse, Assumptions, Tri};
use std::collections::HashSet;

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-dead-state-elimination",
    summary: "Remove inter-state edges whose condition is always false and the blocks the start block no longer reaches (DaCe's DeadStateElimination)",
    op_name: "builtin.module",
    create: || Box::new(DeadStateElimination),
};

/// The pass (no options).
#[derive(Clone, Copy)]
pub struct DeadStateElimination;

impl RustPass for DeadStateElimination {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        crate::no_options("sdfg-dead-state-elimination", options)
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        eliminate_dead_states(module);
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(*self)
    }
}

/// Whether an inter-state condition is false for every value of its
/// symbols.
pub fn always_false(condition: Option<&str>) -> bool {
    condition
        .and_then(|c| parse(c).ok())
        .is_some_and(|e| Assumptions::new().decide(&e) == Tri::False)
}

/// Removes dead edges and unreachable blocks under `root`; returns how
/// many edges and blocks were removed.
pub fn eliminate_dead_states(root: Op<'_>) -> usize {
    let mut removed = 0;
    for owner in machine_owners(root) {
        let mut machine = Machine::new(owner);
        for edge in machine.edges() {
            if always_false(edge.str_attr("condition")) {
                machine.erase_edge(edge);
                removed += 1;
            }
        }
        let Some(start) = machine.start.and_then(|s| s.symbol_name()) else {
            continue;
        };
        let mut reached: HashSet<String> = HashSet::from([start.to_string()]);
        let mut stack = vec![start.to_string()];
        while let Some(name) = stack.pop() {
            for edge in machine.out_edges(&name) {
                if let Some(dst) = edge.symbol_ref_attr("dst") {
                    if reached.insert(dst.to_string()) {
                        stack.push(dst.to_string());
                    }
                }
            }
        }
        let dead: Vec<String> = machine
            .block_names()
            .into_iter()
            .filter(|name| !reached.contains(name))
            .collect();
        for name in dead {
            machine.erase_block(&name);
            removed += 1;
        }
    }
    removed
}
