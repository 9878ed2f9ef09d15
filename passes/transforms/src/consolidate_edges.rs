//! `sdfg-consolidate-edges`: joins the inputs of a map that come from the
//! same access node into one connector, whose memlet covers both, as
//! DaCe's `ConsolidateEdges` does.
//!
//! ```mlir
//! // before
//! %m = sdfg.map "add" ["i" = "0:N - 2"]
//!     ins("a0" = %a["0:N - 2"] : ..., "a1" = %a["1:N - 1"] : ...) ... {
//! ^bb0(%a0: ..., %a1: ...):
//!   %t = sdfg.tasklet "f" ins("x" = %a0["i"] : ..., "y" = %a1["i + 1"] : ...) ...
//! // after
//! %m = sdfg.map "add" ["i" = "0:N - 2"] ins("a0" = %a["0:N - 1", volume "2*N - 4"] : ...) ... {
//! ^bb0(%a0: ...):
//!   %t = sdfg.tasklet "f" ins("x" = %a0["i"] : ..., "y" = %a0["i + 1"] : ...) ...
//! ```
//!
//! Inner memlets index the data, not the connector, so they stay as they
//! are; the joined memlet is the union of the two subsets (their bounding
//! box where neither covers the other) and moves the sum of their
//! volumes, dynamic if either is. Inputs with write-conflict resolution or
//! subsets of different ranks stay apart.

use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::Op;
use sdfg_dialect::{memlet_at, rewrite, set_memlet_at, Memlet, Wcr};
use sdfg_symbolic::{parse_subset, Assumptions, Expr};

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-consolidate-edges",
    summary: "Join the map inputs that come from the same access node into one connector covering both (DaCe's ConsolidateEdges)",
    op_name: "builtin.module",
    create: || Box::new(ConsolidateEdges),
};

/// The pass (no options).
#[derive(Clone, Copy)]
pub struct ConsolidateEdges;

impl RustPass for ConsolidateEdges {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        crate::no_options("sdfg-consolidate-edges", options)
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        consolidate_edges(module);
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(*self)
    }
}

/// Joins duplicate inputs of every map under `root`; returns how many
/// connectors were removed.
pub fn consolidate_edges(root: Op<'_>) -> usize {
    let maps: Vec<Op<'_>> = root
        .descendants()
        .into_iter()
        .filter(|op| op.is("sdfg.map"))
        .collect();
    let mut joined = 0;
    for map in maps {
        while let Some((keep, drop)) = duplicate(map) {
            if join(map, keep, drop).is_err() {
                break;
            }
            joined += 1;
        }
    }
    joined
}

/// Two inputs of `map` from the same value that can be joined.
fn duplicate(map: Op<'_>) -> Option<(usize, usize)> {
    let inputs = map.operand_segment(0);
    for (j, value) in inputs.iter().enumerate() {
        for (i, earlier) in inputs[..j].iter().enumerate() {
            if earlier == value && joinable(map, i, j).is_some() {
                return Some((i, j));
            }
        }
    }
    None
}

/// The joined memlet of inputs `i` and `j`, if they can be joined.
fn joinable(map: Op<'_>, i: usize, j: usize) -> Option<Memlet> {
    let (a, b) = (memlet_at(map, i)?, memlet_at(map, j)?);
    if a.wcr != Wcr::None || b.wcr != Wcr::None || a.other.is_some() || b.other.is_some() {
        return None;
    }
    let (sa, sb) = (parse_subset(&a.subset).ok()?, parse_subset(&b.subset).ok()?);
    let union = sa.union(&sb, &Assumptions::all_positive()).ok()?;
    let volume = |m: &Memlet, s: &sdfg_symbolic::Subset| match &m.volume {
        Some(v) => sdfg_symbolic::parse(v).ok(),
        None => Some(s.volume()),
    };
    let total = Expr::add(&volume(&a, &sa)?, &volume(&b, &sb)?);
    Some(Memlet {
        subset: union.to_string(),
        other: None,
        volume: Some(total.to_string()),
        dynamic: a.dynamic || b.dynamic,
        wcr: Wcr::None,
        data: a.data,
    })
}

fn join(map: Op<'_>, keep: usize, drop: usize) -> Result<(), ()> {
    let memlet = joinable(map, keep, drop).ok_or(())?;
    let args = map.region_args(0);
    let (kept, dropped) = (*args.get(keep).ok_or(())?, *args.get(drop).ok_or(())?);
    if kept.ty().ptr != dropped.ty().ptr {
        return Err(());
    }
    set_memlet_at(map, keep, &memlet);
    rewrite::replace_all_uses(dropped, kept);
    crate::remove_input(map, drop);
    Ok(())
}
