//! `sdfg-map-tiling`: DaCe's `MapTiling`, orthogonal tiling of a map: a
//! new map over tiles around the map, which then runs over one tile.
//!
//! Each tiled parameter `i` in `start:end:step` with tile size `T` gets
//! a tile parameter `tile_i` in `start:end:T*step` in the new outer map,
//! and `i` runs over `tile_i:Min(end, tile_i + T*step):step` in the inner
//! one, so a last partial tile is covered (DaCe's default, without
//! `divides_evenly`); where the tile size provably divides the iteration
//! count (constant extents), `i` runs over `tile_i:tile_i + T*step`. The outer map takes the original schedule (the
//! tiles run in parallel); the inner map runs its tile sequentially. A
//! dimension whose range is provably no longer than one tile is not
//! tiled (DaCe's `tile_trivial=False`).
//!
//! ```mlir
//! // before
//! %r = sdfg.map "scale" ["i" = "0:N"] schedule CPU_Multicore ins(...) outs(...) { ... }
//! // after sdfg-map-tiling{tile-sizes=32}
//! %r = sdfg.map "scale" ["tile_i" = "0:N:32"] schedule CPU_Multicore ins(...) outs(...) {
//!   %t = sdfg.map "scale" ["i" = "tile_i:Min(N, tile_i + 32)"] schedule Sequential ins(...) outs(...) { ... }
//!   sdfg.exit(... = %t["tile_i:Min(N, tile_i + 32)"] ...)
//! }
//! ```
//!
//! Options: `tile-sizes=T1,T2,...` (positive integers, one per parameter
//! in order; the last repeats; default 128, DaCe's), `prefix=tile`, and
//! the targeting options of [`super::Target`].

use super::{nest_in_new_map, params, Target};
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::Op;
use sdfg_dialect::rewrite;
use sdfg_symbolic::{parse, parse_subset, Expr};
use std::collections::HashSet;

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-map-tiling",
    summary: "Tile maps: a map over tiles around a map over one tile (DaCe's MapTiling); options tile-sizes, prefix, label, level, param",
    op_name: "builtin.module",
    create: || Box::new(MapTiling::default()),
};

/// The pass and its options.
#[derive(Clone, Debug)]
pub struct MapTiling {
    /// Tile sizes, one per parameter; the last repeats.
    pub tile_sizes: Vec<i64>,
    /// The prefix of the tile parameters' names.
    pub prefix: String,
    /// The maps to tile.
    pub target: Target,
}

impl Default for MapTiling {
    fn default() -> Self {
        MapTiling {
            tile_sizes: vec![128],
            prefix: "tile".into(),
            target: Target::default(),
        }
    }
}

const PASS: &str = "sdfg-map-tiling";

impl RustPass for MapTiling {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        let (mut sizes, mut prefix) = (self.tile_sizes.clone(), self.prefix.clone());
        self.target = Target::parse_with(
            PASS,
            options,
            "tile-sizes, prefix, label, level and param",
            |key, value| {
                match key {
                    "tile-sizes" => {
                        sizes = value
                            .split(',')
                            .map(|t| t.trim().parse::<i64>().ok().filter(|t| *t > 0))
                            .collect::<Option<Vec<_>>>()
                            .ok_or_else(|| {
                                format!("{PASS}: tile-sizes `{value}` are not positive integers")
                            })?;
                    }
                    "prefix" => prefix = value.to_string(),
                    _ => return Ok(false),
                }
                Ok(true)
            },
        )?;
        (self.tile_sizes, self.prefix) = (sizes, prefix);
        Ok(())
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        self.target.apply_each(PASS, module, |map| {
            tile_map(map, &self.tile_sizes, &self.prefix)
        });
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(self.clone())
    }
}

/// Tiles `map` with `tile_sizes` (one per parameter, the last repeating),
/// naming the tile parameters `{prefix}_{param}`; returns the new outer
/// map, or why the map is left as it is.
pub fn tile_map<'a>(map: Op<'a>, tile_sizes: &[i64], prefix: &str) -> Result<Op<'a>, String> {
    tile_map_keeping(map, tile_sizes, prefix, &[])
}

/// [`tile_map`], except that the parameters in `keep` are not tiled and
/// move to the outer map as they are (the map over one tile runs over the
/// others only); `tile_sizes` go to the other parameters in order.
pub fn tile_map_keeping<'a>(
    map: Op<'a>,
    tile_sizes: &[i64],
    prefix: &str,
    keep: &[String],
) -> Result<Op<'a>, String> {
    let last = *tile_sizes.last().ok_or("no tile sizes")?;
    let asm = crate::enclosing_sdfg(map)
        .map(sdfg_analysis::executions::size_assumptions)
        .unwrap_or_default();
    let mut taken = HashSet::new();
    let (mut outer, mut inner) = (Vec::new(), Vec::new());
    let mut k = 0;
    for (param, range) in params(map) {
        if keep.contains(&param) {
            outer.push((param, range));
            continue;
        }
        let size = tile_sizes.get(k).copied().unwrap_or(last);
        k += 1;
        let parsed = parse_subset(&range).map_err(|e| format!("range `{range}`: {e}"))?;
        let [r] = parsed.ranges() else {
            return Err(format!("range `{range}` is not one range"));
        };
        if r.tile.as_int() != Some(1) {
            return Err(format!("range `{range}` is already tiled"));
        }
        let span = Expr::mul(&Expr::int(size), &r.step);
        // A dimension of at most one tile stays as it is.
        if asm
            .decide(&Expr::le(&r.count(), &Expr::int(size)))
            .is_true()
        {
            inner.push((param, range));
            continue;
        }
        let tile = super::fresh_param(map, &format!("{prefix}_{param}"), &mut taken);
        let step = |s: &Expr| {
            if s.as_int() == Some(1) {
                String::new()
            } else {
                format!(":{s}")
            }
        };
        outer.push((
            tile.clone(),
            format!("{}:{}{}", r.start, r.end, step(&span)),
        ));
        let tile_expr = parse(&tile).map_err(|e| e.to_string())?;
        // Where the tile size divides the iteration count, every tile is
        // whole and the inner range has no minimum (nor its partial last
        // tile), so the lowering sees a constant trip count.
        let divides = Expr::modulo(&r.count(), &Expr::int(size)).as_int() == Some(0);
        let end = if divides {
            Expr::add(&tile_expr, &span)
        } else {
            Expr::min(vec![r.end.clone(), Expr::add(&tile_expr, &span)])
        };
        inner.push((param, format!("{tile}:{end}{}", step(&r.step))));
    }
    if outer.len() == keep.len() {
        return Err("no dimension is longer than its tile".into());
    }
    let label = map.str_attr("label").unwrap_or("map").to_string();
    let new = nest_in_new_map(map, &label, &outer, &inner)?;
    // The tiles run as the map did; each tile sequentially.
    let sequential =
        sdfg_dialect::Schedule::from_name("Sequential").map(|s| rewrite::schedule_attr(map, s));
    super::set_schedule(map, sequential);
    super::propagate_within_bounds(map);
    Ok(new)
}
