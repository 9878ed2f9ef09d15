//! `sdfg-map-collapse`: DaCe's `MapCollapse`: a map that holds nothing
//! but another map becomes one map over both parameter spaces, the outer
//! parameters first.
//!
//! It applies where the inner map is directly nested (see
//! [`super::directly_nested`]: the outer map holds only it, passes it
//! only its own inputs, and writes only its outputs) and the inner ranges
//! do not depend on the outer parameters (a triangular nest would need a
//! non-rectangular map). The collapsed map keeps the outer map's
//! schedule, label and memlets.
//!
//! ```mlir
//! // before
//! %r = sdfg.map "m" ["i" = "0:N"] ins("a" = %a[...]) outs("b" ...) {
//! ^bb0(%x):
//!   %s = sdfg.map "m" ["j" = "0:M"] ins("a" = %x[...]) outs("b" ...) { body }
//!   sdfg.exit("b" = %s[...])
//! }
//! // after
//! %r = sdfg.map "m" ["i" = "0:N", "j" = "0:M"] ins("a" = %a[...]) outs("b" ...) { body }
//! ```
//!
//! Options: the targeting options of [`super::Target`] (the outer map is
//! the target).

use super::{directly_nested, params, set_params, Target};
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::{array_of, Op, Val};
use sdfg_dialect::rewrite;

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-map-collapse",
    summary: "Collapse a map that holds only another map into one map (DaCe's MapCollapse); options label, level, param",
    op_name: "builtin.module",
    create: || Box::new(MapCollapse::default()),
};

/// The pass and its options.
#[derive(Clone, Debug, Default)]
pub struct MapCollapse {
    /// The outer maps to collapse.
    pub target: Target,
}

const PASS: &str = "sdfg-map-collapse";

impl RustPass for MapCollapse {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        self.target =
            Target::parse_with(PASS, options, "label, level and param", |_, _| Ok(false))?;
        Ok(())
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        // Outermost first; each collapse may enable the next one out.
        let mut maps = self.target.maps(module);
        maps.reverse();
        for map in maps {
            let mut current = map;
            loop {
                match collapse_map(current) {
                    Ok(collapsed) => current = collapsed,
                    Err(why) => {
                        if current == map {
                            self.target.report(PASS, map, &why);
                        }
                        break;
                    }
                }
            }
        }
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(self.clone())
    }
}

/// Collapses `outer` with the map directly inside it; returns the
/// collapsed map (the former inner map, now in `outer`'s place), or why
/// nothing changed.
pub fn collapse_map(outer: Op<'_>) -> Result<Op<'_>, String> {
    let inner = directly_nested(outer)?;
    let exit = outer
        .region_ops(0)
        .into_iter()
        .find(|o| o.is("sdfg.exit"))
        .ok_or("the outer map has no exit")?;
    let outer_args = outer.region_args(0);
    let outer_inputs = outer.operand_segment(0);
    let outer_memlets = outer.array_attr("in_memlets");
    // The inner map's inputs become the outer map's, with its memlets.
    let mut inputs: Vec<Val> = Vec::new();
    let mut memlets = Vec::new();
    for value in inner.operand_segment(0) {
        let j = outer_args
            .iter()
            .position(|a| *a == value)
            .ok_or("an inner input is not an outer input")?;
        inputs.push(outer_inputs[j]);
        memlets.extend(outer_memlets.get(j).copied());
    }
    let ctx = outer.context();
    let all: Vec<(String, String)> = params(outer).into_iter().chain(params(inner)).collect();
    rewrite::move_before(inner, outer);
    rewrite::set_operand_segments(inner, &[inputs, Vec::new(), outer.operand_segment(2)]);
    if !memlets.is_empty() {
        inner.set_attr("in_memlets", array_of(ctx, &memlets));
    }
    for (k, result) in outer.results().into_iter().enumerate() {
        let value = exit.operands()[k];
        rewrite::replace_all_uses(result, value);
    }
    for name in ["label", "schedule"] {
        match outer.attr(name) {
            Some(attr) => inner.set_attr(name, attr),
            None => rewrite::remove_attr(inner, name),
        }
    }
    set_params(inner, &all);
    // SAFETY: the outer map's results have no uses left, and its region
    // holds only its exit, whose operands stay alive.
    unsafe { rewrite::erase(outer) };
    Ok(inner)
}
