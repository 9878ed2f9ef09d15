//! Where a transient sized by symbols assigned between states lives when
//! several states use it.
//!
//! Such a transient cannot be allocated at function entry: its size is not
//! known there. DaCe allocates it where all its uses are dominated, and the
//! lowering does the same on the state machine of one control-flow region:
//! the transient is allocated at the start of the nearest state `D` that
//! dominates every state using it, and freed at the end of the nearest
//! state `P` that post-dominates them all. This is a well-formed lifetime
//! only when every execution of `D` is followed by one of `P` before `D`
//! runs again (and the other way round), and when the symbols of its size
//! keep their values from `D` to `P`; otherwise the transient gets no
//! placement and the conversion reports its size as unknown, as before.
//!
//! For example, a loop written as states and edges (`guard -> body ->
//! latch -> guard`, `i` assigned on the back edge) whose body and latch use
//! `tmp[0:i+1]` allocates `tmp` at the start of `body` and frees it at the
//! end of `latch`, once per iteration. Uses in structured regions count as
//! uses of the block around them: `tmp[0:N]` used in both branches of an
//! `sdfg.conditional`, with `N` assigned before it, lives from the state
//! that dominates the conditional to the one that post-dominates it.

use sdfg_analysis::symbols::blocks_and_edges;
use std::collections::BTreeSet;

use sdfg_dialect::ir::Op;
use sdfg_dialect::CONTROL_FLOW_BLOCKS;

/// The state machine of one control-flow region: its blocks, their
/// successors (index `blocks.len()` is the region's exit) and its edges.
pub(super) struct Cfg<'a> {
    pub(super) blocks: Vec<Op<'a>>,
    succ: Vec<Vec<usize>>,
    edges: Vec<(usize, usize, Op<'a>)>,
}

impl<'a> Cfg<'a> {
    /// The state machine of `owner`'s region. A block leaves the region
    /// when it has no outgoing edge and when it is a break, continue or
    /// return. A block whose edges are all conditional also ends the
    /// program when none holds; that path is left out, so a transient
    /// allocated before it is not freed there (a leak at the end of the
    /// program, never a free of something not allocated).
    pub(super) fn of(owner: Op<'a>) -> Cfg<'a> {
        let (blocks, region_edges) = blocks_and_edges(owner);
        let index = |name: Option<&str>| {
            blocks
                .iter()
                .position(|b| b.symbol_name().is_some() && b.symbol_name() == name)
        };
        let exit = blocks.len();
        let mut succ = vec![Vec::new(); exit + 1];
        let mut edges = Vec::new();
        for edge in region_edges {
            let (Some(src), Some(dst)) = (
                index(edge.symbol_ref_attr("src")),
                index(edge.symbol_ref_attr("dst")),
            ) else {
                continue;
            };
            succ[src].push(dst);
            edges.push((src, dst, edge));
        }
        for (b, block) in blocks.iter().enumerate() {
            let jumps = matches!(block.name(), "sdfg.break" | "sdfg.continue" | "sdfg.return");
            if jumps {
                succ[b].clear();
            }
            if succ[b].is_empty() {
                succ[b].push(exit);
            }
        }
        Cfg {
            blocks,
            succ,
            edges,
        }
    }

    fn preds(&self) -> Vec<Vec<usize>> {
        let mut preds = vec![Vec::new(); self.succ.len()];
        for (n, succ) in self.succ.iter().enumerate() {
            for &s in succ {
                preds[s].push(n);
            }
        }
        preds
    }

    /// The blocks in reverse post-order from the start block (dominators
    /// before the blocks they dominate), then the unreachable ones.
    pub(super) fn reverse_post_order(&self) -> Vec<Op<'a>> {
        let n = self.blocks.len();
        let mut seen = vec![false; n + 1];
        let mut post = Vec::new();
        let mut stack = vec![(0usize, 0usize)];
        if n > 0 {
            seen[0] = true;
        } else {
            stack.clear();
        }
        while let Some((node, next)) = stack.pop() {
            match self.succ[node].get(next) {
                Some(&s) => {
                    stack.push((node, next + 1));
                    if s < n && !seen[s] {
                        seen[s] = true;
                        stack.push((s, 0));
                    }
                }
                None => post.push(node),
            }
        }
        let mut order: Vec<Op> = post.iter().rev().map(|&b| self.blocks[b]).collect();
        order.extend((0..n).filter(|&b| !seen[b]).map(|b| self.blocks[b]));
        order
    }

    /// `dominators[n]`: the nodes that every path from `root` along `next`
    /// to `n` passes (empty for nodes `root` does not reach).
    fn dominators(&self, root: usize, next: &[Vec<usize>], prev: &[Vec<usize>]) -> Vec<Vec<bool>> {
        let count = self.succ.len();
        let mut reached = vec![false; count];
        let mut stack = vec![root];
        reached[root] = true;
        while let Some(node) = stack.pop() {
            for &s in &next[node] {
                if !reached[s] {
                    reached[s] = true;
                    stack.push(s);
                }
            }
        }
        let mut dom: Vec<Vec<bool>> = (0..count)
            .map(|n| {
                if n == root {
                    (0..count).map(|k| k == root).collect()
                } else {
                    vec![reached[n]; count]
                }
            })
            .collect();
        let mut changed = true;
        while changed {
            changed = false;
            for n in (0..count).filter(|&n| n != root && reached[n]) {
                let mut meet = vec![true; count];
                for &p in prev[n].iter().filter(|&&p| reached[p]) {
                    for (m, d) in meet.iter_mut().zip(&dom[p]) {
                        *m &= *d;
                    }
                }
                meet[n] = true;
                if meet != dom[n] {
                    dom[n] = meet;
                    changed = true;
                }
            }
        }
        dom
    }

    /// Whether `from` reaches `to` in one or more steps without passing
    /// `avoid`.
    fn reaches_avoiding(&self, from: usize, to: usize, avoid: usize) -> bool {
        let mut seen = vec![false; self.succ.len()];
        let mut stack: Vec<usize> = self.succ[from].clone();
        while let Some(node) = stack.pop() {
            if node == to {
                return true;
            }
            if node == avoid || seen[node] {
                continue;
            }
            seen[node] = true;
            stack.extend(&self.succ[node]);
        }
        false
    }
}

/// The control-flow blocks around `block`, itself included, outermost
/// first (a state in a branch: the conditional, then the state).
fn blocks_around(block: Op<'_>) -> Vec<Op<'_>> {
    let mut chain: Vec<Op> = std::iter::successors(Some(block), |b| b.parent())
        .take_while(|b| !b.is("sdfg.sdfg"))
        .filter(|b| CONTROL_FLOW_BLOCKS.contains(&b.name()))
        .collect();
    chain.reverse();
    chain
}

/// `uses` lifted to the blocks of the innermost region that holds them
/// all: states in different branches of a conditional are used by the
/// conditional, a state in a loop body and one after the loop by the loop
/// and the later state.
fn lifted<'a>(uses: &[Op<'a>]) -> Option<Vec<Op<'a>>> {
    let chains: Vec<Vec<Op>> = uses.iter().map(|u| blocks_around(*u)).collect();
    let mut depth = 0;
    loop {
        let next = depth + 1;
        let parent = chains.first()?.get(next).and_then(|b| b.parent());
        let same = parent.is_some()
            && chains
                .iter()
                .all(|c| c.get(next).and_then(|b| b.parent()) == parent);
        if !same {
            break;
        }
        depth = next;
    }
    let mut blocks: Vec<Op> = Vec::new();
    for chain in &chains {
        let block = *chain.get(depth)?;
        if !blocks.contains(&block) {
            blocks.push(block);
        }
    }
    Some(blocks)
}

/// The first and last state of the lifetime of a transient that states
/// `uses` use and whose size reads `size` symbols, if it has a well-formed
/// one (see the module documentation). Uses in nested regions count as
/// uses of the block around them in the innermost region that holds all
/// of them.
pub(super) fn span<'a>(uses: &[Op<'a>], size: &BTreeSet<String>) -> Option<(Op<'a>, Op<'a>)> {
    let uses = lifted(uses)?;
    let owner = uses.first()?.parent()?;
    if uses.iter().any(|u| u.parent() != Some(owner)) {
        return None;
    }
    let cfg = Cfg::of(owner);
    let nodes: Vec<usize> = uses
        .iter()
        .map(|u| cfg.blocks.iter().position(|b| b == u))
        .collect::<Option<_>>()?;
    let exit = cfg.blocks.len();
    let preds = cfg.preds();
    let dom = cfg.dominators(0, &cfg.succ, &preds);
    let pdom = cfg.dominators(exit, &preds, &cfg.succ);
    // The deepest common (post-)dominator has the most (post-)dominators;
    // it must be a state (a use lifted to a conditional is allocated in
    // the state before it).
    let nearest = |sets: &Vec<Vec<bool>>| {
        (0..exit)
            .filter(|&c| cfg.blocks[c].is("sdfg.state"))
            .filter(|&c| nodes.iter().all(|&u| sets[u][c]))
            .max_by_key(|&c| sets[c].iter().filter(|d| **d).count())
    };
    let (first, last) = (nearest(&dom)?, nearest(&pdom)?);
    let states = [first, last]
        .iter()
        .all(|&b| cfg.blocks[b].is("sdfg.state"));
    if !states || !dom[last][first] || !pdom[first][last] {
        return None;
    }
    if first != last
        && (cfg.reaches_avoiding(first, first, last) || cfg.reaches_avoiding(last, last, first))
    {
        return None;
    }
    // The blocks between the two, where the size must not change.
    let mut inside = vec![false; exit + 1];
    let mut stack = vec![first];
    while let Some(node) = stack.pop() {
        if inside[node] || node == exit {
            continue;
        }
        inside[node] = true;
        if node != last {
            stack.extend(&cfg.succ[node]);
        }
    }
    let changes_size = |edge: Op<'_>| {
        edge.str_array_attr("assign_names")
            .iter()
            .any(|n| size.contains(*n))
    };
    for &(src, dst, edge) in &cfg.edges {
        if inside[src] && src != last && inside[dst] && changes_size(edge) {
            return None;
        }
    }
    for (b, block) in cfg.blocks.iter().enumerate() {
        let nested = std::iter::once(*block)
            .chain(block.descendants())
            .any(|op| {
                (op.is("sdfg.edge") && changes_size(op))
                    || (op.is("sdfg.loop") && op.str_attr("var").is_some_and(|v| size.contains(v)))
            });
        if inside[b] && !block.is("sdfg.state") && nested {
            return None;
        }
    }
    Some((cfg.blocks[first], cfg.blocks[last]))
}
