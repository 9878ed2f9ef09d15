//! `sdfg-print-transformations`: prints the transformation chain that
//! produced a module, as a pass pipeline that replays it on a changed
//! program (`sdfg-opt changed.mlir --pass-pipeline="$(cat chain)"`).
//!
//! Every pass that changes the program and runs on the module records
//! itself, with its options as the pipeline gave them, in the module's
//! `sdfg.transformations` attribute ([`sdfg_dialect::driver::HISTORY`]),
//! which the printed IR carries from one `sdfg-opt` run to the next:
//!
//! ```mlir
//! // after sdfg-opt --pass-pipeline='builtin.module(sdfg-simplify,sdfg-map-tiling{tile-sizes=4})'
//! module attributes {sdfg.transformations = ["sdfg-simplify", "sdfg-map-tiling{tile-sizes=4}"]} {...}
//! // sdfg-print-transformations prints (to standard error)
//! builtin.module(sdfg-simplify,sdfg-map-tiling{tile-sizes=4})
//! ```
//!
//! A module with no history prints `builtin.module()`, the empty chain.

use sdfg_dialect::driver::{history_pipeline, Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::Op;

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-print-transformations",
    summary:
        "Print the transformations that produced the module, as a pass pipeline that replays them",
    op_name: "builtin.module",
    create: || Box::new(PrintTransformations),
};

/// The pass (no options).
#[derive(Clone, Copy)]
pub struct PrintTransformations;

impl RustPass for PrintTransformations {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        if options.trim().is_empty() {
            Ok(())
        } else {
            Err(format!(
                "sdfg-print-transformations takes no options, got '{options}'"
            ))
        }
    }

    fn run(&mut self, op: Op<'_>) -> Result<(), Diagnosed> {
        eprintln!(
            "{}",
            history_pipeline(op).unwrap_or_else(|| "builtin.module()".into())
        );
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(*self)
    }
}
