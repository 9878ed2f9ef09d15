//! `sdfg-remove-unused-containers`: removes transients that no access
//! node uses and no string names, as DaCe's `ArrayElimination` and
//! `RemoveUnusedSymbols` leave the descriptor table.
//!
//! ```mlir
//! // before: the other passes removed every access node of t
//! %t = sdfg.alloc "t" : !sdfg.array<f64 ["N"]>
//! // after: nothing
//! ```
//!
//! A transient whose name appears in an inter-state condition, an
//! assignment or foreign code stays: those read it by name.

use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::Op;
use sdfg_dialect::rewrite;

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-remove-unused-containers",
    summary: "Remove transients that no access node uses and no string names",
    op_name: "builtin.module",
    create: || Box::new(RemoveUnusedContainers),
};

/// The pass (no options).
#[derive(Clone, Copy)]
pub struct RemoveUnusedContainers;

impl RustPass for RemoveUnusedContainers {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        crate::no_options("sdfg-remove-unused-containers", options)
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        remove_unused_containers(module);
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(*self)
    }
}

/// Removes unused transients in every SDFG under `root`; returns how many
/// were removed.
pub fn remove_unused_containers(root: Op<'_>) -> usize {
    let sdfgs: Vec<Op<'_>> = std::iter::once(root)
        .chain(root.descendants())
        .filter(|op| op.is("sdfg.sdfg"))
        .collect();
    let mut removed = 0;
    for sdfg in sdfgs {
        let mentioned = crate::mentioned_names(sdfg);
        for alloc in sdfg.region_ops(0) {
            let unused = alloc.is("sdfg.alloc")
                && alloc.results()[0].uses().is_empty()
                && alloc
                    .str_attr("name")
                    .is_some_and(|n| !mentioned.contains(n));
            if unused {
                // SAFETY: the container has no uses and the handle is not
                // used again.
                unsafe { rewrite::erase(alloc) };
                removed += 1;
            }
        }
    }
    removed
}
