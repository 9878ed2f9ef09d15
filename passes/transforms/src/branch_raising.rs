//! `sdfg-raise-branches`: turns the branches of state machines into
//! `sdfg.conditional` blocks, as the branch half of DaCe's
//! `ControlFlowRaising` does.
//!
//! A block with several conditional successors whose paths meet again at
//! one block (its immediate post-dominator) is an `if`/`elif`/`else`: the
//! blocks of each path become an `sdfg.branch` under that edge's
//! condition, checked in the order of the edges, as the state machine
//! checks them, and the conditional is followed by the merge block.
//!
//! ```mlir
//! // before
//! sdfg.state @split { }
//! sdfg.state @pos { ... }
//! sdfg.state @neg { ... }
//! sdfg.state @merge { }
//! sdfg.edge @split -> @pos if "x > 0"
//! sdfg.edge @split -> @neg if "x <= 0" assign("y" = "1")
//! sdfg.edge @pos -> @merge
//! sdfg.edge @neg -> @merge
//! // after
//! sdfg.state @split { }
//! sdfg.conditional @split_branches {
//!   sdfg.branch @pos_branch if "x > 0" { sdfg.state @pos { ... } }
//!   sdfg.branch @neg_branch if "x <= 0" {
//!     sdfg.state @neg_branch_start { }
//!     sdfg.state @neg { ... }
//!     sdfg.edge @neg_branch_start -> @neg assign("y" = "1")
//!   }
//! }
//! sdfg.state @merge { }
//! sdfg.edge @split -> @split_branches
//! sdfg.edge @split_branches -> @merge
//! ```
//!
//! A state machine stops where no condition holds, while a conditional
//! without a matching branch goes on to what follows it, so the
//! conditions must provably cover every case, or the paths never merge
//! (nothing follows either way). Each path must be entered only through
//! its edge and left only into the merge block, by unconditional edges
//! (an edge that may not be taken would end the machine, not the
//! branch); assignments on the edges out of the split move to an edge
//! from a start state of the branch, those on the edges into the merge
//! block to an edge into an end state, as DaCe does. A path that goes
//! straight to the merge block is an empty branch, unless its edge
//! assigns (then the split is left alone). Loops are raised first
//! (`sdfg-raise-loops`), since a cycle through the split is no branch.

use crate::cfg::{assignments, unique_block_name};
use petgraph::algo::dominators;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;
use petgraph::Direction;
use sdfg_analysis::executions::{conditions_cover, size_assumptions};
use sdfg_analysis::graph::{control_flow_graph, ControlFlowGraph};
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::Op;
use sdfg_dialect::rewrite;
use sdfg_symbolic::Assumptions;
use std::collections::{HashMap, HashSet};

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-raise-branches",
    summary: "Turn the branches of state machines that merge again into sdfg.conditional blocks (the branch half of DaCe's ControlFlowRaising)",
    op_name: "builtin.module",
    create: || Box::new(RaiseBranches),
};

/// The pass (no options).
#[derive(Clone, Copy)]
pub struct RaiseBranches;

impl RustPass for RaiseBranches {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        crate::no_options("sdfg-raise-branches", options)
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        raise_branches(module);
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(*self)
    }
}

/// Raises every branch of every state machine under `root` that the
/// module documentation allows; returns how many conditionals it made.
pub fn raise_branches(root: Op<'_>) -> usize {
    let mut raised = 0;
    let mut work = crate::cfg::machine_owners(root);
    while let Some(owner) = work.pop() {
        // One split at a time: each raise changes the region's graph.
        while let Some(conditional) = raise_one(owner) {
            raised += 1;
            work.extend(
                conditional
                    .region_ops(0)
                    .into_iter()
                    .filter(|b| b.is("sdfg.branch")),
            );
        }
    }
    raised
}

/// One path out of a split: its edge, its blocks (none for a path
/// straight to the merge block) and its edges into the merge block.
struct Path<'a> {
    edge: Op<'a>,
    blocks: Vec<NodeIndex>,
    exits: Vec<Op<'a>>,
}

/// Finds the first split of `owner`'s region that can be raised and
/// raises it; returns the new conditional.
fn raise_one(owner: Op<'_>) -> Option<Op<'_>> {
    let g = control_flow_graph(owner);
    if g.node_count() == 0 {
        return None;
    }
    // Post-dominators: dominators of the reversed graph from a virtual
    // exit that every block without successors reaches.
    let exit = g.node_count();
    let mut reversed: DiGraph<(), ()> = DiGraph::new();
    for _ in 0..=exit {
        reversed.add_node(());
    }
    for e in g.edge_references() {
        reversed.add_edge(
            NodeIndex::new(e.target().index()),
            NodeIndex::new(e.source().index()),
            (),
        );
    }
    let asm = size_assumptions(crate::sdfg_of(owner)?);
    for n in g.node_indices() {
        // Where the machine may stop, the virtual exit follows.
        let conditions: Vec<Option<&str>> = g.edges(n).map(|e| e.weight().condition).collect();
        if !conditions_cover(&conditions, &asm) {
            reversed.add_edge(NodeIndex::new(exit), NodeIndex::new(n.index()), ());
        }
    }
    let post = dominators::simple_fast(&reversed, NodeIndex::new(exit));
    for split in g.node_indices() {
        if g.edges(split).nth(1).is_none() {
            continue;
        }
        let Some(merge) = post.immediate_dominator(NodeIndex::new(split.index())) else {
            continue;
        };
        let merge = (merge.index() != exit).then(|| NodeIndex::new(merge.index()));
        if let Some(paths) = paths(&g, split, merge, &asm) {
            return apply(owner, &g, split, merge, paths);
        }
    }
    None
}

/// The paths out of `split` up to `merge` (`None` where they never meet),
/// if the split can be raised.
fn paths<'a>(
    g: &ControlFlowGraph<'a>,
    split: NodeIndex,
    merge: Option<NodeIndex>,
    asm: &Assumptions,
) -> Option<Vec<Path<'a>>> {
    // In the order of the IR: the order the conditions are checked in.
    let mut out: Vec<_> = g.edges(split).collect();
    out.sort_by_key(|e| e.id());
    let conditions: Vec<Option<&str>> = out.iter().map(|e| e.weight().condition).collect();
    if conditions.iter().any(Option::is_none)
        || (merge.is_some() && !conditions_cover(&conditions, asm))
    {
        return None;
    }
    let mut taken: HashSet<NodeIndex> = HashSet::new();
    let mut paths = Vec::new();
    for e in &out {
        let start = e.target();
        if Some(start) == merge {
            if !e.weight().assignments.is_empty() {
                return None;
            }
            paths.push(Path {
                edge: e.weight().op,
                blocks: Vec::new(),
                exits: Vec::new(),
            });
            continue;
        }
        // The blocks reachable from the edge without passing the merge.
        let mut blocks = vec![start];
        let mut seen = HashSet::from([start]);
        let mut k = 0;
        while k < blocks.len() {
            for next in g.edges(blocks[k]).map(|e| e.target()) {
                if Some(next) != merge && seen.insert(next) {
                    blocks.push(next);
                }
            }
            k += 1;
        }
        if seen.contains(&split) || blocks.iter().any(|b| !taken.insert(*b)) {
            return None;
        }
        let mut exits = Vec::new();
        for &b in &blocks {
            // Entered only by the path's edge or from inside.
            for into in g.edges_directed(b, Direction::Incoming) {
                if !seen.contains(&into.source()) && into.weight().op != e.weight().op {
                    return None;
                }
            }
            for e in g.edges(b) {
                if Some(e.target()) == merge {
                    if e.weight().condition.is_some() {
                        return None;
                    }
                    exits.push(e.weight().op);
                }
            }
        }
        paths.push(Path {
            edge: e.weight().op,
            blocks,
            exits,
        });
    }
    Some(paths)
}

fn apply<'a>(
    owner: Op<'a>,
    g: &ControlFlowGraph<'a>,
    split: NodeIndex,
    merge: Option<NodeIndex>,
    paths: Vec<Path<'a>>,
) -> Option<Op<'a>> {
    let split_op = g[split];
    let split_name = split_op.symbol_name()?.to_string();
    let anchor = owner
        .region_ops(0)
        .into_iter()
        .skip_while(|o| *o != split_op)
        .nth(1)
        .unwrap_or(split_op);
    let name = unique_block_name(owner, &format!("{split_name}_branches"))?;
    let conditional = rewrite::create_block_before(anchor, "sdfg.conditional", &name, &[])?;
    if anchor == split_op {
        rewrite::move_before(split_op, conditional);
    }
    let mut block_names: HashMap<NodeIndex, String> = HashMap::new();
    for n in g.node_indices() {
        block_names.insert(n, g[n].symbol_name()?.to_string());
    }
    for path in &paths {
        let first = path.blocks.first().map(|b| block_names[b].clone());
        let branch_base = first.clone().unwrap_or_else(|| format!("{name}_empty"));
        let branch_name = unique_block_name(owner, &format!("{branch_base}_branch"))?;
        let condition = path.edge.str_attr("condition")?.to_string();
        let branch = rewrite::create_block_at_end(
            conditional,
            "sdfg.branch",
            &branch_name,
            &[("condition", &condition)],
        )?;
        let into = assignments(path.edge);
        let Some(first) = first else {
            continue;
        };
        let start = if into.is_empty() {
            None
        } else {
            let start = unique_block_name(owner, &format!("{branch_name}_start"))?;
            rewrite::create_block_at_end(branch, "sdfg.state", &start, &[])?;
            Some(start)
        };
        let members: HashSet<&str> = path
            .blocks
            .iter()
            .map(|b| block_names[b].as_str())
            .collect();
        for b in &path.blocks {
            rewrite::move_to_end(g[*b], branch);
        }
        for op in owner.region_ops(0) {
            let inside = |attr| {
                op.symbol_ref_attr(attr)
                    .is_some_and(|n| members.contains(n))
            };
            if op.is("sdfg.edge") && inside("src") && inside("dst") {
                rewrite::move_to_end(op, branch);
            }
        }
        if let Some(start) = start {
            rewrite::create_edge(branch, &start, &first, &into)?;
        }
        let leaving: Vec<(String, Vec<(String, String)>)> = path
            .exits
            .iter()
            .filter_map(|e| Some((e.symbol_ref_attr("src")?.to_string(), assignments(*e))))
            .collect();
        if leaving.iter().any(|(_, a)| !a.is_empty()) {
            let end = unique_block_name(owner, &format!("{branch_name}_end"))?;
            rewrite::create_block_at_end(branch, "sdfg.state", &end, &[])?;
            for (src, a) in &leaving {
                rewrite::create_edge(branch, src, &end, a)?;
            }
        }
    }
    // SAFETY: edges have no results; no handle to them is used again.
    unsafe {
        for path in &paths {
            rewrite::erase(path.edge);
            for e in &path.exits {
                rewrite::erase(*e);
            }
        }
    }
    rewrite::create_edge(owner, &split_name, &name, &[])?;
    if let Some(m) = merge {
        rewrite::create_edge(owner, &name, &block_names[&m], &[])?;
    }
    Some(conditional)
}
