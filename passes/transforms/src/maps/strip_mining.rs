//! `sdfg-strip-mining`: DaCe's `StripMining`, one dimension of a map cut
//! into tiles: a new map over the tiles of that dimension around the map,
//! which then runs over one tile of it and over all of its other
//! dimensions.
//!
//! Where `sdfg-map-tiling` tiles every dimension at once (DaCe's
//! `MapTiling`), this tiles one, and the new map has the tile parameter
//! only. Parameter `i` in `start:end:step` with tile size `T` gets
//! `tile_i` in `start:end:T*step` outside, and runs over
//! `tile_i:Min(tile_i + T*step, end):step` inside (without the `Min` where
//! `T` provably divides the iteration count). With `strided=true` a tile's
//! iterations lie `T` apart instead of next to each other (DaCe's
//! `strided`): `tile_i` runs over the first `T` iterations,
//! `start:start + T*step:step`, and `i` over `tile_i:end:T*step`, so that
//! where the tiles run in parallel, neighbouring iterations go to
//! different tiles (a cyclic distribution). The outer map takes the map's
//! schedule; the map runs its part sequentially. A dimension of at most
//! one tile is left alone.
//!
//! ```mlir
//! // before
//! %r = sdfg.map "scale" ["i" = "0:N", "j" = "0:M"] schedule CPU_Multicore ins(...) outs(...) { ... }
//! // after sdfg-strip-mining{tile-size=32} (the last dimension, by default)
//! %r = sdfg.map "scale" ["tile_j" = "0:M:32"] schedule CPU_Multicore ins(...) outs(...) {
//!   %t = sdfg.map "scale" ["i" = "0:N", "j" = "tile_j:Min(tile_j + 32, M)"] schedule Sequential ins(...) outs(...) { ... }
//!   sdfg.exit(... = %t["0:N, tile_j:Min(tile_j + 32, M)"] ...)
//! }
//! // after sdfg-strip-mining{dim=i tile-size=4 strided=true}
//! %r = sdfg.map "scale" ["tile_i" = "0:4"] schedule CPU_Multicore ins(...) outs(...) {
//!   %t = sdfg.map "scale" ["i" = "tile_i:N:4", "j" = "0:M"] schedule Sequential ins(...) outs(...) { ... }
//! }
//! ```
//!
//! Options: `dim=K|NAME` (the dimension: a position among the map's
//! parameters, negative ones counting from the last, or a parameter's
//! name; default -1, DaCe's `dim_idx`), `tile-size=T` (a positive
//! integer; default 64, DaCe's), `prefix=tile`, `strided=true|false`
//! (default false), and the targeting options of [`super::Target`].

use super::{nest_in_new_map, params, Target};
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::Op;
use sdfg_dialect::rewrite;
use sdfg_symbolic::{parse, parse_subset, Expr};
use std::collections::HashSet;

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-strip-mining",
    summary: "Cut one dimension of a map into tiles: a map over its tiles around the map over one tile of it (DaCe's StripMining); options dim, tile-size, prefix, strided, label, level, param",
    op_name: "builtin.module",
    create: || Box::new(StripMining::default()),
};

/// Which parameter of a map to strip-mine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dim {
    /// By position; a negative one counts from the last parameter.
    Position(i64),
    /// By name.
    Name(String),
}

/// The pass and its options.
#[derive(Clone, Debug)]
pub struct StripMining {
    /// The dimension to cut.
    pub dim: Dim,
    /// The number of iterations of a tile.
    pub tile_size: i64,
    /// The prefix of the tile parameter's name.
    pub prefix: String,
    /// Whether a tile's iterations lie `tile_size` apart.
    pub strided: bool,
    /// The maps to strip-mine.
    pub target: Target,
}

impl Default for StripMining {
    fn default() -> Self {
        StripMining {
            dim: Dim::Position(-1),
            tile_size: 64,
            prefix: "tile".into(),
            strided: false,
            target: Target::default(),
        }
    }
}

const PASS: &str = "sdfg-strip-mining";

impl RustPass for StripMining {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        let mut next = self.clone();
        next.target = Target::parse_with(
            PASS,
            options,
            "dim, tile-size, prefix, strided, label, level and param",
            |key, value| {
                match key {
                    "dim" => {
                        next.dim = match value.parse::<i64>() {
                            Ok(k) => Dim::Position(k),
                            Err(_) if !value.is_empty() => Dim::Name(value.to_string()),
                            Err(_) => return Err(format!("{PASS}: dim is empty")),
                        }
                    }
                    "tile-size" => {
                        next.tile_size =
                            value
                                .parse::<i64>()
                                .ok()
                                .filter(|t| *t > 0)
                                .ok_or_else(|| {
                                    format!("{PASS}: tile-size `{value}` is not a positive integer")
                                })?;
                    }
                    "prefix" => next.prefix = value.to_string(),
                    "strided" => next.strided = crate::bool_option(PASS, key, value)?,
                    _ => return Ok(false),
                }
                Ok(true)
            },
        )?;
        *self = next;
        Ok(())
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        self.target.apply_each(PASS, module, |map| {
            strip_mine(map, &self.dim, self.tile_size, &self.prefix, self.strided)
        });
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(self.clone())
    }
}

/// Strip-mines dimension `dim` of `map` by `tile_size` (see the module
/// documentation), naming the tile parameter `{prefix}_{param}`; returns
/// the new outer map, or why the map is left as it is.
pub fn strip_mine<'a>(
    map: Op<'a>,
    dim: &Dim,
    tile_size: i64,
    prefix: &str,
    strided: bool,
) -> Result<Op<'a>, String> {
    let mut inner = params(map);
    let count = inner.len() as i64;
    let k = match dim {
        Dim::Position(k) => {
            let at = if *k < 0 { count + k } else { *k };
            if !(0..count).contains(&at) {
                return Err(format!(
                    "dimension {k} is out of range (the map has {count} parameters)"
                ));
            }
            at as usize
        }
        Dim::Name(name) => inner
            .iter()
            .position(|(p, _)| p == name)
            .ok_or_else(|| format!("the map has no parameter `{name}`"))?,
    };
    let (param, range) = inner[k].clone();
    let parsed = parse_subset(&range).map_err(|e| format!("range `{range}`: {e}"))?;
    let [r] = parsed.ranges() else {
        return Err(format!("range `{range}` is not one range"));
    };
    if r.tile.as_int() != Some(1) {
        return Err(format!("range `{range}` of `{param}` is already tiled"));
    }
    let asm = crate::enclosing_sdfg(map)
        .map(sdfg_analysis::executions::size_assumptions)
        .unwrap_or_default();
    if asm
        .decide(&Expr::le(&r.count(), &Expr::int(tile_size)))
        .is_true()
    {
        return Err(format!(
            "`{param}` runs at most {tile_size} times, one tile"
        ));
    }
    let tile = super::fresh_param(map, &format!("{prefix}_{param}"), &mut HashSet::new());
    let tile_expr = parse(&tile).map_err(|e| e.to_string())?;
    let span = Expr::mul(&Expr::int(tile_size), &r.step);
    let step = |s: &Expr| {
        if s.as_int() == Some(1) {
            String::new()
        } else {
            format!(":{s}")
        }
    };
    let outer = if strided {
        // The first `tile_size` iterations, each the first of its tile.
        let first = Expr::add(&r.start, &span);
        inner[k].1 = format!("{tile}:{}:{span}", r.end);
        (tile, format!("{}:{first}{}", r.start, step(&r.step)))
    } else {
        // Where the tile size divides the iteration count, every tile is
        // whole and the inner range needs no minimum.
        let whole = Expr::add(&tile_expr, &span);
        let end = if Expr::modulo(&r.count(), &Expr::int(tile_size)).as_int() == Some(0) {
            whole
        } else {
            Expr::min(vec![r.end.clone(), whole])
        };
        inner[k].1 = format!("{tile}:{end}{}", step(&r.step));
        (tile, format!("{}:{}{}", r.start, r.end, step(&span)))
    };
    let label = map.str_attr("label").unwrap_or("map").to_string();
    let new = nest_in_new_map(map, &label, &[outer], &inner)?;
    // The tiles run as the map did; the map runs its part sequentially.
    let sequential =
        sdfg_dialect::Schedule::from_name("Sequential").map(|s| rewrite::schedule_attr(map, s));
    super::set_schedule(map, sequential);
    super::propagate_within_bounds(map);
    Ok(new)
}
