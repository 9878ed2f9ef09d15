//! `sdfg-map-reorder`: DaCe's `MapDimShuffle`: a map's parameters in a
//! given order, which is the order of the loops the lowering makes
//! (the first parameter outermost).
//!
//! A map's iterations are independent, so any order computes the same;
//! the order decides the memory access pattern (the last parameter
//! should walk the contiguous dimension) and which parameters a
//! `collapse` or an OpenMP schedule covers.
//!
//! ```mlir
//! // before, with sdfg-map-reorder{order=j,i}
//! sdfg.map "t" ["i" = "0:N", "j" = "0:M"] ...
//! // after
//! sdfg.map "t" ["j" = "0:M", "i" = "0:N"] ...
//! ```
//!
//! Options: `order=P1,P2,...` (a permutation of the map's parameters;
//! required) and the targeting options of [`super::Target`].

use super::{params, set_params, Target};
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::Op;

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-map-reorder",
    summary:
        "Reorder a map's parameters (DaCe's MapDimShuffle); options order, label, level, param",
    op_name: "builtin.module",
    create: || Box::new(MapReorder::default()),
};

/// The pass and its options.
#[derive(Clone, Debug, Default)]
pub struct MapReorder {
    /// The parameters in their new order.
    pub order: Vec<String>,
    /// The maps to reorder.
    pub target: Target,
}

const PASS: &str = "sdfg-map-reorder";

impl RustPass for MapReorder {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        let mut order = Vec::new();
        self.target = Target::parse_with(
            PASS,
            options,
            "order, label, level and param",
            |key, value| {
                if key != "order" {
                    return Ok(false);
                }
                order = value.split(',').map(|p| p.trim().to_string()).collect();
                Ok(true)
            },
        )?;
        if order.is_empty() {
            return Err(format!("{PASS}: the option order=P1,P2,... is required"));
        }
        self.order = order;
        Ok(())
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        self.target
            .apply_each(PASS, module, |map| reorder_map(map, &self.order));
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(self.clone())
    }
}

/// Puts `map`'s parameters in the order `order`, or says why not (the
/// order is not a permutation of them).
pub fn reorder_map(map: Op<'_>, order: &[String]) -> Result<(), String> {
    let current = params(map);
    let mut reordered = Vec::new();
    for name in order {
        let found = current.iter().find(|(p, _)| p == name);
        reordered.push(
            found
                .cloned()
                .ok_or_else(|| format!("the map has no parameter `{name}`"))?,
        );
    }
    if reordered.len() != current.len() {
        return Err(format!(
            "the order names {} parameters, the map has {}",
            reordered.len(),
            current.len()
        ));
    }
    set_params(map, &reordered);
    Ok(())
}
