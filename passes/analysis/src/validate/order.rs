//! The checks that follow control flow: what a block may rely on depends
//! on the paths that lead to it.
//!
//! DaCe validates an SDFG along one traversal of its state machine: a
//! transient read before the traversal met a write is "uninitialized", a
//! symbol read on an edge before the traversal met its assignment is
//! "undefined", a reference used before an edge into its `set` connector
//! is an error. One traversal order depends on the order of the edges;
//! these checks follow every path instead, with one forward may-analysis
//! ([`may_reach`]): a block starts with every fact that some path into it
//! may have established, a loop's body with everything the loop
//! establishes (a later iteration sees what an earlier one did). A report
//! is therefore a use that nothing before it can have prepared, on any
//! path: never a false alarm, and a use that only some paths leave
//! unprepared is not reported.
//!
//! ```text
//! sdfg.state @a { ... }                       {}
//! sdfg.edge @a -> @b assign("k" = "t")       {}, then {k}
//! sdfg.loop @l var "i" ... { @body }         {k}; inside: {k, i, what @body assigns}
//! ```

use super::{one_call_transients, own_ops, reads_state_entry, written_under, Reporter};
use crate::graph::control_flow_graph;
use sdfg_dialect::container_name;
use sdfg_dialect::ir::{Op, Val};
use sdfg_dialect::layout::layout;
use std::collections::{HashMap, HashSet};
use std::hash::Hash;

/// What [`may_reach`] records: for each control-flow block, the facts
/// that may hold when it starts; for each inter-state edge, those that
/// may hold when it is taken (before its own assignments).
type Reaching<'a, T> = HashMap<Op<'a>, HashSet<T>>;

/// The forward may-analysis of `sdfg`'s control flow (not that of the
/// SDFGs nested in it). `gen` says what running an op establishes: a
/// state with its dataflow, an edge with its assignments, a loop with
/// everything inside it.
fn may_reach<'a, T: Clone + Eq + Hash>(
    sdfg: Op<'a>,
    gen: &dyn Fn(Op<'a>) -> HashSet<T>,
) -> Reaching<'a, T> {
    let mut at = HashMap::new();
    region(sdfg, HashSet::new(), gen, &mut at);
    at
}

/// The analysis of `owner`'s state machine entered with `entry`; returns
/// what may hold where the region ends.
fn region<'a, T: Clone + Eq + Hash>(
    owner: Op<'a>,
    entry: HashSet<T>,
    gen: &dyn Fn(Op<'a>) -> HashSet<T>,
    at: &mut Reaching<'a, T>,
) -> HashSet<T> {
    let g = control_flow_graph(owner);
    if g.node_count() == 0 {
        return entry;
    }
    let mut start: Vec<Option<HashSet<T>>> = vec![None; g.node_count()];
    start[0] = Some(entry.clone());
    let mut work = vec![petgraph::graph::NodeIndex::new(0)];
    let mut exit = entry;
    while let Some(n) = work.pop() {
        let Some(here) = start[n.index()].clone() else {
            continue;
        };
        let end = block(g[n], here, gen, at);
        exit.extend(end.iter().cloned());
        for e in g.edges(n) {
            let edge = e.weight().op;
            at.entry(edge).or_default().extend(end.iter().cloned());
            let mut arriving = end.clone();
            arriving.extend(gen(edge));
            let t = petgraph::visit::EdgeRef::target(&e);
            let merged: HashSet<T> = match &start[t.index()] {
                Some(old) => old.union(&arriving).cloned().collect(),
                None => arriving,
            };
            if start[t.index()].as_ref() != Some(&merged) {
                start[t.index()] = Some(merged);
                work.push(t);
            }
        }
    }
    exit
}

fn block<'a, T: Clone + Eq + Hash>(
    op: Op<'a>,
    env: HashSet<T>,
    gen: &dyn Fn(Op<'a>) -> HashSet<T>,
    at: &mut Reaching<'a, T>,
) -> HashSet<T> {
    at.entry(op).or_default().extend(env.iter().cloned());
    match op.name() {
        "sdfg.state" => {
            let mut end = env;
            end.extend(gen(op));
            end
        }
        "sdfg.loop" => {
            let mut inside = env;
            inside.extend(gen(op));
            region(op, inside.clone(), gen, at);
            inside
        }
        "sdfg.conditional" => {
            let mut end = env.clone();
            for branch in op.region_ops(0) {
                at.entry(branch).or_default().extend(env.iter().cloned());
                end.extend(region(branch, env.clone(), gen, at));
            }
            end
        }
        "sdfg.region" | "sdfg.call_region" => region(op, env, gen, at),
        _ => env,
    }
}

/// Warns where a state reads a transient that no path from the start has
/// written yet (DaCe's "use of uninitialized transient").
pub(super) fn warn_unwritten_paths(sdfg: Op<'_>) -> usize {
    let transients: HashSet<Val<'_>> = one_call_transients(sdfg)
        .into_iter()
        .map(|a| a.results()[0])
        .collect();
    if transients.is_empty() {
        return 0;
    }
    let at = may_reach(sdfg, &|op| {
        if op.is("sdfg.edge") {
            HashSet::new()
        } else {
            written_under(op, &transients)
        }
    });
    let somewhere = written_under(sdfg, &transients);
    let mut warned = 0;
    let mut reported: HashSet<Val<'_>> = HashSet::new();
    let states = own_ops(sdfg).into_iter().filter(|o| o.is("sdfg.state"));
    for state in states {
        let Some(before) = at.get(&state) else {
            continue;
        };
        for access in state.descendants() {
            let Some(data) = access.operands().first().copied() else {
                continue;
            };
            let unwritten = access.is("sdfg.access")
                && transients.contains(&data)
                && !before.contains(&data)
                && reads_state_entry(access);
            // A transient written nowhere has its own warning.
            if unwritten && somewhere.contains(&data) && reported.insert(data) {
                access.emit_warning(format!(
                    "reads transient \"{}\" before any path to its state writes it: its values are undefined",
                    container_name(data).unwrap_or_else(|| "?".into())
                ));
                warned += 1;
            }
        }
    }
    warned
}

/// The symbols that `o` itself assigns: an edge's assignments, a loop's
/// variable.
pub(super) fn assigned_by(o: Op<'_>) -> Vec<String> {
    match o.name() {
        "sdfg.edge" => o
            .str_array_attr("assign_names")
            .into_iter()
            .map(String::from)
            .collect(),
        "sdfg.loop" => o.str_attr("var").map(String::from).into_iter().collect(),
        _ => Vec::new(),
    }
}

/// The symbols that `op` assigns: an edge's assignments; for a loop, its
/// variable and every assignment inside it (nested SDFGs excepted).
fn assigned_under(op: Op<'_>) -> HashSet<String> {
    match op.name() {
        "sdfg.edge" => assigned_by(op).into_iter().collect(),
        "sdfg.loop" => std::iter::once(op)
            .chain(op.descendants())
            .filter(|o| o.ancestor("sdfg.sdfg") == op.ancestor("sdfg.sdfg"))
            .flat_map(assigned_by)
            .collect(),
        _ => HashSet::new(),
    }
}

/// In a nested SDFG, reports the control-flow strings that read a symbol
/// before any path from the start assigns it (DaCe's "undefined symbols
/// in edge"). Such a symbol is neither passed by the caller's mapping nor
/// assigned yet: its value is undefined. A top-level SDFG takes the
/// symbols it reads before assigning them as arguments, as DaCe does.
pub(super) fn check_symbols_before_assignment(sdfg: Op<'_>, reporter: &mut Reporter) {
    let Some(call) = sdfg.parent().filter(|p| p.is("sdfg.nested")) else {
        return;
    };
    let mapped: HashSet<&str> = call.str_array_attr("symbol_names").into_iter().collect();
    let ops = own_ops(sdfg);
    let assigned: HashSet<String> = ops
        .iter()
        .filter(|o| o.is("sdfg.edge") || o.is("sdfg.loop"))
        .flat_map(|o| assigned_under(*o))
        .filter(|n| !mapped.contains(n.as_str()))
        .collect();
    if assigned.is_empty() {
        return;
    }
    let at = may_reach(sdfg, &assigned_under);
    for op in ops {
        let reads: Vec<(&str, &str)> = match op.name() {
            "sdfg.edge" => op
                .str_attr("condition")
                .map(|c| ("condition", c))
                .into_iter()
                .chain(
                    op.str_array_attr("assign_values")
                        .into_iter()
                        .map(|v| ("assignment", v)),
                )
                .collect(),
            "sdfg.loop" => op
                .str_attr("init")
                .map(|i| ("init", i))
                .into_iter()
                .collect(),
            "sdfg.conditional" => op
                .region_ops(0)
                .into_iter()
                .filter_map(|b| b.str_attr("condition"))
                .map(|c| ("branch condition", c))
                .collect(),
            _ => continue,
        };
        // A block no path reaches reads nothing.
        let Some(before) = at.get(&op) else {
            continue;
        };
        for (what, text) in reads {
            let Ok(expr) = sdfg_symbolic::parse(text) else {
                continue;
            };
            let mut unset: Vec<String> = expr
                .free_symbols()
                .into_iter()
                .filter(|s| assigned.contains(s) && !before.contains(s))
                .collect();
            unset.sort();
            if let Some(name) = unset.first() {
                reporter.error(
                    op,
                    format!(
                        "{what} `{text}` reads symbol `{name}` before any path from the start assigns it: the caller's symbol mapping does not pass it"
                    ),
                );
            }
        }
    }
}

/// Reports a use of a transient reference that no path from the start
/// has pointed at its target yet (DaCe: "Reference data descriptor was
/// used before it was set"): an access node without a `bind`, in a state
/// that does not bind the reference itself.
pub(super) fn check_references_set<'a>(sdfg: Op<'a>, reporter: &mut Reporter) {
    let references: HashSet<Val<'a>> = sdfg
        .region_ops(0)
        .into_iter()
        .filter(|o| o.is("sdfg.alloc"))
        .map(|o| o.results()[0])
        .filter(|r| layout(r.ty()).is_ok_and(|l| l.reference))
        .collect();
    if references.is_empty() {
        return;
    }
    let bound_under = |op: Op<'a>| -> HashSet<Val<'a>> {
        op.descendants()
            .into_iter()
            .filter(|a| a.is("sdfg.access") && !a.operand_segment(2).is_empty())
            .filter_map(|a| a.operands().first().copied())
            .filter(|d| references.contains(d))
            .collect()
    };
    let at = may_reach(sdfg, &|op| {
        if op.is("sdfg.edge") {
            HashSet::new()
        } else {
            bound_under(op)
        }
    });
    let states = own_ops(sdfg).into_iter().filter(|o| o.is("sdfg.state"));
    for state in states {
        let Some(before) = at.get(&state) else {
            continue;
        };
        let mut set = bound_under(state);
        set.extend(before.iter().copied());
        for access in state.descendants() {
            let Some(data) = access.operands().first().copied() else {
                continue;
            };
            if access.is("sdfg.access") && references.contains(&data) && !set.contains(&data) {
                reporter.error(
                    access,
                    format!(
                        "uses reference \"{}\" before any path from the start sets it: bind it to its target first",
                        container_name(data).unwrap_or_else(|| "?".into())
                    ),
                );
                set.insert(data);
            }
        }
    }
}
