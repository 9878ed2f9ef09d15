//! `sdfg-map-expansion`: DaCe's `MapExpansion`: a map of k parameters
//! becomes k nested maps of one parameter each, in parameter order.
//!
//! The outermost map keeps the original schedule; the maps inside run
//! with `inner-schedule` (default `Sequential`, DaCe's). Expansion
//! exposes each dimension to the transformations that work on one map at
//! a time (interchange, tiling one level); `sdfg-map-collapse` undoes it.
//!
//! ```mlir
//! // before
//! %r = sdfg.map "m" ["i" = "0:N", "j" = "0:M"] schedule CPU_Multicore ... { body }
//! // after
//! %r = sdfg.map "m" ["i" = "0:N"] schedule CPU_Multicore ... {
//!   %s = sdfg.map "m" ["j" = "0:M"] schedule Sequential ... { body }
//!   sdfg.exit(...)
//! }
//! ```
//!
//! Options: `inner-schedule=NAME` and the targeting options of
//! [`super::Target`].

use super::{nest_in_new_map, params, Target};
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::Op;
use sdfg_dialect::{rewrite, Schedule};

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-map-expansion",
    summary: "Expand a map of k parameters into k nested maps (DaCe's MapExpansion); options inner-schedule, label, level, param",
    op_name: "builtin.module",
    create: || Box::new(MapExpansion::default()),
};

/// The pass and its options.
#[derive(Clone, Debug)]
pub struct MapExpansion {
    /// The schedule of the maps inside the outermost one.
    pub inner_schedule: Schedule,
    /// The maps to expand.
    pub target: Target,
}

impl Default for MapExpansion {
    fn default() -> Self {
        MapExpansion {
            inner_schedule: Schedule::from_name("Sequential").unwrap_or_default(),
            target: Target::default(),
        }
    }
}

const PASS: &str = "sdfg-map-expansion";

impl RustPass for MapExpansion {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        let mut schedule = self.inner_schedule;
        self.target = Target::parse_with(
            PASS,
            options,
            "inner-schedule, label, level and param",
            |key, value| {
                if key != "inner-schedule" {
                    return Ok(false);
                }
                schedule = Schedule::from_name(value)
                    .ok_or_else(|| format!("{PASS}: `{value}` is not a schedule"))?;
                Ok(true)
            },
        )?;
        self.inner_schedule = schedule;
        Ok(())
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        self.target
            .apply_each(PASS, module, |map| expand_map(map, self.inner_schedule));
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(self.clone())
    }
}

/// Expands `map` into one map per parameter; returns the maps, outermost
/// first (`map` itself last), or why `map` is left as it is.
pub fn expand_map(map: Op<'_>, inner_schedule: Schedule) -> Result<Vec<Op<'_>>, String> {
    let all = params(map);
    if all.len() < 2 {
        return Err("the map has one parameter".into());
    }
    let label = map.str_attr("label").unwrap_or("map").to_string();
    let mut maps = Vec::new();
    for k in 0..all.len() - 1 {
        let new = nest_in_new_map(map, &label, &all[k..=k], &all[k + 1..])?;
        if k > 0 {
            super::set_schedule(new, Some(rewrite::schedule_attr(new, inner_schedule)));
        }
        maps.push(new);
    }
    super::set_schedule(map, Some(rewrite::schedule_attr(map, inner_schedule)));
    maps.push(map);
    // The boundaries between the new maps, innermost first; the
    // outermost keeps the memlets of the whole iteration space.
    for m in maps.iter().skip(1).rev() {
        super::propagate_within_bounds(*m);
    }
    Ok(maps)
}
