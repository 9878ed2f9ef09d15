//! `sdfg-map-interchange`: DaCe's `MapInterchange`: two directly nested
//! maps swap places, so that the inner map's parameters are iterated on
//! the outside.
//!
//! It applies where `sdfg-map-collapse` does (see
//! [`super::directly_nested`]): then the two parameter spaces are
//! independent, and swapping the parameters and ranges of the two maps
//! swaps the loops. Each map keeps its place, label and schedule (the
//! outer map stays the parallel one); the memlets between them are
//! re-propagated.
//!
//! ```mlir
//! // before
//! sdfg.map "rows" ["i" = "0:N"] ... { sdfg.map "cols" ["j" = "0:M"] ... { body } }
//! // after
//! sdfg.map "rows" ["j" = "0:M"] ... { sdfg.map "cols" ["i" = "0:N"] ... { body } }
//! ```
//!
//! Options: the targeting options of [`super::Target`] (the outer map is
//! the target).

use super::{directly_nested, params, set_params, Target};
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::Op;

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-map-interchange",
    summary: "Swap two directly nested maps (DaCe's MapInterchange); options label, level, param",
    op_name: "builtin.module",
    create: || Box::new(MapInterchange::default()),
};

/// The pass and its options.
#[derive(Clone, Debug, Default)]
pub struct MapInterchange {
    /// The outer maps to swap with the map inside them.
    pub target: Target,
}

const PASS: &str = "sdfg-map-interchange";

impl RustPass for MapInterchange {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        self.target =
            Target::parse_with(PASS, options, "label, level and param", |_, _| Ok(false))?;
        Ok(())
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        self.target.apply_each(PASS, module, interchange_maps);
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(self.clone())
    }
}

/// Swaps the parameter spaces of `outer` and the map directly inside it;
/// returns the inner map, or why nothing changed.
pub fn interchange_maps(outer: Op<'_>) -> Result<Op<'_>, String> {
    let inner = directly_nested(outer)?;
    let (outer_params, inner_params) = (params(outer), params(inner));
    set_params(outer, &inner_params);
    set_params(inner, &outer_params);
    super::propagate_within_bounds(inner);
    Ok(inner)
}
