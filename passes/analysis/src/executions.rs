//! How often each control-flow block of an SDFG runs, per run of the SDFG:
//! DaCe's `propagate_states`, on state machines and structured regions
//! alike, and the `sdfg-print-executions` pass that prints it.
//!
//! # What is computed
//!
//! For every block (state, loop, conditional, branch, region) an
//! [`Execution`]: a symbolic count, whether the count is only an upper
//! bound (`dynamic`; a count of 0 that is dynamic is DaCe's "unknown"),
//! and the counted loops around the block with the ranges of their
//! variables (DaCe's `state.ranges`). Memlet propagation through nested
//! SDFGs multiplies a state's volumes by its count and takes the image of
//! its subsets over these ranges.
//!
//! # The algorithm
//!
//! A region's state machine is condensed into its strongly connected
//! components. Every component of the resulting DAG runs as often as the
//! region is entered, and certainly so when it post-dominates the start
//! block; the others are marked dynamic. A virtual exit post-dominates
//! every block that may end the region: a block without successors, one
//! with an edge out of the region (the back edge of a loop body, a
//! `break`), and one whose conditions do not provably cover every case
//! (DaCe's "implicit exit state"). Unlike DaCe's traversal, which walks
//! the machine once and guesses merges from dominance frontiers, this is
//! order-independent and exact for the branch structure.
//!
//! A component with a cycle is a counted loop when one block is DaCe's
//! loop guard (`find_for_loop`): the cycle's only entry, with two
//! successors, one into the cycle under a condition and one out of it
//! under the negated condition; every edge into it assigns the same
//! variable, from outside an initial value that does not mention it, from
//! inside one update; nothing else in the cycle assigns the variable or
//! the condition's other symbols; and [`loop_range`] reads a range from
//! the three. The body (the component without the guard) is then analysed
//! as a region of its own, entered `trip count` times, with the
//! variable's range added; an edge that leaves the loop from the body (a
//! `break`) makes the body dynamic.
//!
//! Without a guard, a cycle is an inverted (do-while) loop when one block
//! is a latch (DaCe's rotated loop): its two successors are the cycle's
//! only entry under a condition and a block outside under the negation.
//! The update is on the back edge (checked, then updated) or on every
//! edge into an empty latch (updated, then checked), and
//! [`do_while_range`] gives one iteration more than the `for` loop's. The
//! whole cycle is then the body, analysed as a region whose back edge
//! leaves it. Any other cycle runs an unknown number of times.
//!
//! Structured blocks recurse:
//! an `sdfg.loop` with a counted variable like a guarded or inverted
//! cycle, a while loop unknown; each `sdfg.branch` of a conditional
//! dynamic unless it is the only, unconditional one; `sdfg.region` and
//! `sdfg.call_region` like the block itself. A block that cannot be
//! reached runs 0 times, exactly.
//!
//! ```text
//! sdfg.state @init                        1
//! sdfg.loop @t var "t" init "0"            1
//!     cond "t < T" update "t + 1" {
//!   sdfg.state @step                       T, t in 0:T
//!   sdfg.conditional @c {                  T, t in 0:T
//!     sdfg.branch @odd if "t % 2 == 1"     at most T, t in 0:T
//! ```
//!
//! Nested SDFGs are analysed separately, per run of the nested SDFG, as in
//! DaCe.

use crate::graph::{control_flow_graph, ControlFlowGraph, InterstateEdge};
use petgraph::algo::{dominators, tarjan_scc};
use petgraph::graph::{DiGraph, EdgeIndex, EdgeReference, NodeIndex};
use petgraph::visit::EdgeRef;
use petgraph::Direction;
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::Op;
use sdfg_dialect::layout::layout;
use sdfg_symbolic::{
    do_while_range, loop_range, parse, Assumptions, Expr, LoopRange, Range, Subset,
};
use std::collections::{HashMap, HashSet};
use std::fmt;

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-print-executions",
    summary: "Print how often each control-flow block runs and the loop ranges around it (DaCe's propagate_states)",
    op_name: "",
    create: || Box::new(PrintExecutions),
};

/// The pass (no options): prints the analysis of every SDFG to stderr.
#[derive(Clone, Copy)]
pub struct PrintExecutions;

impl RustPass for PrintExecutions {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        if options.trim().is_empty() {
            Ok(())
        } else {
            Err(format!(
                "sdfg-print-executions takes no options, got '{options}'"
            ))
        }
    }

    fn run(&mut self, op: Op<'_>) -> Result<(), Diagnosed> {
        let sdfgs = std::iter::once(op)
            .chain(op.descendants())
            .filter(|o| o.is("sdfg.sdfg"));
        let mut text = String::new();
        for sdfg in sdfgs {
            text.push_str(&report(sdfg));
        }
        eprint!("{text}");
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(*self)
    }
}

/// The analysis printed: one line per block, in the order of the IR.
pub fn report(sdfg: Op<'_>) -> String {
    let counts = executions(sdfg);
    let mut out = format!("executions in @{}:\n", sdfg.symbol_name().unwrap_or("?"));
    for op in sdfg.descendants() {
        if op.ancestor("sdfg.sdfg") != Some(sdfg) {
            continue;
        }
        if let (Some(e), Some(name)) = (counts.get(&op), op.symbol_name()) {
            out.push_str(&format!("  @{name}: {e}\n"));
        }
    }
    out
}

/// How often a block runs per run of its SDFG.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Execution {
    /// The number of runs (an upper bound where `dynamic`).
    pub count: Expr,
    /// Whether `count` is only an upper bound; with a count of 0, the
    /// number is unknown.
    pub dynamic: bool,
    /// The counted loops around the block, outermost first: each
    /// variable and the values it takes.
    pub ranges: Vec<(String, Range)>,
}

impl Execution {
    /// Exactly once (an SDFG's start block).
    pub fn once() -> Self {
        Execution {
            count: Expr::int(1),
            dynamic: false,
            ranges: Vec::new(),
        }
    }

    /// An unknown number of times, inside the loops of `ranges`.
    pub fn unknown(ranges: Vec<(String, Range)>) -> Self {
        Execution {
            count: Expr::int(0),
            dynamic: true,
            ranges,
        }
    }

    /// Whether the count is unknown (DaCe's dynamic unbounded).
    pub fn is_unknown(&self) -> bool {
        self.dynamic && self.count.as_int() == Some(0)
    }

    /// `n` times as often (an unknown count stays unknown).
    fn times(&self, n: &Expr) -> Self {
        if self.is_unknown() {
            return self.clone();
        }
        Execution {
            count: Expr::mul(&self.count, n),
            ..self.clone()
        }
    }

    /// The same count, as an upper bound.
    fn at_most(&self) -> Self {
        Execution {
            dynamic: true,
            ..self.clone()
        }
    }

    fn never(&self) -> Self {
        Execution {
            count: Expr::int(0),
            dynamic: false,
            ranges: self.ranges.clone(),
        }
    }

    /// Inside a counted loop over `var`. A trip count that changes with
    /// the variables of the loops around (a triangular loop) is bounded by
    /// its largest value, and the count is then an upper bound: DaCe sums
    /// it symbolically instead.
    fn inside_loop(&self, var: &str, lp: &LoopRange, asm: &Assumptions) -> Self {
        let varies = self.ranges.iter().any(|(v, _)| lp.trip_count.mentions(v));
        let trips = if varies {
            Subset::indices(vec![lp.trip_count.clone()])
                .image(&self.ranges, asm)
                .ok()
                .map(|r| r.ranges()[0].max_element())
                .filter(|m| self.ranges.iter().all(|(v, _)| !m.mentions(v)))
        } else {
            Some(lp.trip_count.clone())
        };
        let mut inner = match trips {
            Some(t) => self.times(&t),
            None => Execution::unknown(self.ranges.clone()),
        };
        inner.dynamic |= varies;
        inner.ranges.push((var.to_string(), lp.range.clone()));
        inner
    }
}

impl fmt::Display for Execution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_unknown() {
            write!(f, "unknown")?;
        } else if self.dynamic {
            write!(f, "at most {}", self.count)?;
        } else {
            write!(f, "{}", self.count)?;
        }
        for (var, range) in &self.ranges {
            write!(f, ", {var} in {range}")?;
        }
        Ok(())
    }
}

/// Every control-flow block of `sdfg` (not of the SDFGs nested in it) and
/// how often it runs per run of `sdfg`.
pub type Executions<'a> = HashMap<Op<'a>, Execution>;

/// The analysis of one SDFG (see the module documentation).
pub fn executions(sdfg: Op<'_>) -> Executions<'_> {
    let asm = size_assumptions(sdfg);
    let mut out = HashMap::new();
    region(sdfg, Execution::once(), &asm, &mut out);
    out
}

/// The assumptions an SDFG's container sizes give: every size is positive.
pub fn size_assumptions(sdfg: Op<'_>) -> Assumptions {
    let shapes: Vec<Expr> = sdfg_dialect::containers(sdfg)
        .into_iter()
        .filter_map(|v| layout(v.ty()).ok())
        .flat_map(|l| l.shape)
        .collect();
    Assumptions::for_array_sizes(shapes.iter())
}

fn region<'a>(owner: Op<'a>, entry: Execution, asm: &Assumptions, out: &mut Executions<'a>) {
    let g = control_flow_graph(owner);
    if g.node_count() == 0 {
        return;
    }
    let nodes: Vec<NodeIndex> = g.node_indices().collect();
    machine(&g, &nodes, NodeIndex::new(0), &entry, &Cut::new(), asm, out);
}

/// Inter-state edges a loop's analysis treats as leaving the region: the
/// back edges of the inverted loops around (see [`machine`]).
type Cut = HashSet<EdgeIndex>;

/// The blocks `nodes` of `g`, entered at `start` as `entry` says. The
/// edges in `cut` end the region (the back edge of an inverted loop whose
/// body `nodes` is).
fn machine<'a>(
    g: &ControlFlowGraph<'a>,
    nodes: &[NodeIndex],
    start: NodeIndex,
    entry: &Execution,
    cut: &Cut,
    asm: &Assumptions,
    out: &mut Executions<'a>,
) {
    let components = components_of(g, nodes, cut);
    let mut component_of = HashMap::new();
    for (c, members) in components.iter().enumerate() {
        for m in members {
            component_of.insert(*m, c);
        }
    }
    // The condensation, reversed, with the virtual exit as its root: a
    // component post-dominates the start iff it dominates it here.
    let exit = components.len();
    let mut reversed: DiGraph<(), ()> = DiGraph::new();
    for _ in 0..=exit {
        reversed.add_node(());
    }
    let mut successors: Vec<HashSet<usize>> = vec![HashSet::new(); components.len()];
    for (c, members) in components.iter().enumerate() {
        for &block in members {
            for e in g.edges(block) {
                match component_of.get(&e.target()) {
                    Some(&d) if d != c && !cut.contains(&e.id()) => {
                        successors[c].insert(d);
                    }
                    Some(_) if !cut.contains(&e.id()) => {}
                    _ => {
                        successors[c].insert(exit);
                    }
                }
            }
            if may_stop(g, block, asm) {
                successors[c].insert(exit);
            }
        }
    }
    for (c, succ) in successors.iter().enumerate() {
        for &d in succ {
            reversed.add_edge(NodeIndex::new(d), NodeIndex::new(c), ());
        }
    }
    let start_component = component_of[&start];
    let doms = dominators::simple_fast(&reversed, NodeIndex::new(exit));
    let certain: HashSet<usize> = doms
        .dominators(NodeIndex::new(start_component))
        .map(|it| it.map(|n| n.index()).collect())
        .unwrap_or_default();
    let reachable = reachable_components(start_component, &successors);
    for (c, members) in components.iter().enumerate() {
        let e = if !reachable.contains(&c) {
            entry.never()
        } else if certain.contains(&c) {
            entry.clone()
        } else {
            entry.at_most()
        };
        if !is_cycle(g, members, cut) {
            block(g[members[0]], e, asm, out);
            continue;
        }
        let found = find_loop(g, members, cut, asm);
        let Some((lp, (var, range))) = found.and_then(|lp| lp.counted.clone().map(|c| (lp, c)))
        else {
            for &b in members {
                block(g[b], Execution::unknown(e.ranges.clone()), asm, out);
            }
            continue;
        };
        let body = lp.body(members);
        let set: HashSet<NodeIndex> = members.iter().copied().collect();
        // An edge that leaves the loop from the body (a `break`); an
        // inverted loop's latch leaves it by its condition.
        let breaks = body
            .iter()
            .filter(|&&b| b != lp.check)
            .any(|&b| g.edges(b).any(|e| !set.contains(&e.target())));
        let mut body_entry = e.inside_loop(&var, &range, asm);
        body_entry.dynamic |= breaks;
        let mut inner_cut = cut.clone();
        if let Some(back) = lp.back {
            inner_cut.insert(back);
        } else {
            // The guard checks once more than the body runs.
            let guard = if body_entry.is_unknown() || e.is_unknown() {
                Execution::unknown(e.ranges.clone())
            } else {
                Execution {
                    count: Expr::add(&body_entry.count, &e.count),
                    dynamic: body_entry.dynamic,
                    ranges: e.ranges.clone(),
                }
            };
            block(g[lp.check], guard, asm, out);
        }
        machine(g, &body, lp.begin, &body_entry, &inner_cut, asm, out);
    }
}

/// The strongly connected components of the blocks `nodes` of `g` (the
/// subgraph they induce, without the edges in `cut`), in reverse
/// topological order.
fn components_of(g: &ControlFlowGraph<'_>, nodes: &[NodeIndex], cut: &Cut) -> Vec<Vec<NodeIndex>> {
    let mut sub: DiGraph<NodeIndex, ()> = DiGraph::new();
    let local: HashMap<NodeIndex, NodeIndex> =
        nodes.iter().map(|&n| (n, sub.add_node(n))).collect();
    for &n in nodes {
        for e in g.edges(n) {
            if let (Some(&t), false) = (local.get(&e.target()), cut.contains(&e.id())) {
                sub.add_edge(local[&n], t, ());
            }
        }
    }
    tarjan_scc(&sub)
        .into_iter()
        .map(|c| c.into_iter().map(|m| sub[m]).collect())
        .collect()
}

/// Whether a component is a cycle (more than one block, or a self-loop
/// that is not cut).
fn is_cycle(g: &ControlFlowGraph<'_>, members: &[NodeIndex], cut: &Cut) -> bool {
    members.len() > 1
        || g.edges_connecting(members[0], members[0])
            .any(|e| !cut.contains(&e.id()))
}

fn reachable_components(start: usize, successors: &[HashSet<usize>]) -> HashSet<usize> {
    let mut seen = HashSet::from([start]);
    let mut stack = vec![start];
    while let Some(c) = stack.pop() {
        for &d in successors.get(c).into_iter().flatten() {
            if seen.insert(d) {
                stack.push(d);
            }
        }
    }
    seen
}

/// Whether the region may end at `block`: it has no successor, or its
/// conditions do not provably cover every case.
fn may_stop(g: &ControlFlowGraph<'_>, block: NodeIndex, asm: &Assumptions) -> bool {
    let conditions: Vec<Option<&str>> = g.edges(block).map(|e| e.weight().condition).collect();
    !conditions_cover(&conditions, asm)
}

/// Whether a block whose out-edges have `conditions` (`None` for an
/// unconditional edge) always takes one of them: one is unconditional or
/// always true, or together they provably cover every case. A block
/// without out-edges takes none: the state machine it is in stops there.
pub fn conditions_cover(conditions: &[Option<&str>], asm: &Assumptions) -> bool {
    let mut parsed = Vec::new();
    for c in conditions {
        match c.map(parse) {
            None => return true,
            Some(Ok(c)) if c.as_bool() == Some(true) => return true,
            Some(Ok(c)) => parsed.push(c),
            Some(Err(_)) => return false,
        }
    }
    !parsed.is_empty() && asm.decide(&Expr::or(parsed)).is_true()
}

/// Where a loop of a state machine checks its condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopForm {
    /// In a guard block before each iteration (`for` and `while` loops,
    /// DaCe's natural loops): the guard is not part of the body.
    Guarded,
    /// In the latch, the body's last block, after each iteration (a
    /// do-while loop, DaCe's rotated loop). A counted loop updates its
    /// variable either on the back edge, after the check, or on the edges
    /// into the latch, before it (`update_before_condition`).
    Inverted {
        /// Whether the update comes before the check.
        update_before_condition: bool,
    },
}

/// A loop of a region's state machine (DaCe's guard or rotated form), as
/// the analysis recognises it: what raising it to an `sdfg.loop` needs.
#[derive(Clone, Debug)]
pub struct StateMachineLoop<'a> {
    /// The block whose out-edges check the condition: the guard, or the
    /// latch of an inverted loop.
    pub guard: Op<'a>,
    /// The first block of the body (the guard's successor in the loop, or
    /// the inverted loop's only entry).
    pub begin: Op<'a>,
    /// Every block of the loop but a guard (an inverted loop's latch is
    /// part of its body).
    pub body: Vec<Op<'a>>,
    /// For a counted loop, its variable, and its range and trip count;
    /// `None` for a while loop.
    pub counted: Option<(String, LoopRange)>,
    /// Where the condition is checked.
    pub form: LoopForm,
}

/// The innermost loops of `owner`'s state machine, counted or not: those
/// whose bodies hold no loop. Raising them first makes each loop's exit
/// an edge of the loop around it.
pub fn innermost_state_machine_loops<'a>(
    owner: Op<'a>,
    asm: &Assumptions,
) -> Vec<StateMachineLoop<'a>> {
    let g = control_flow_graph(owner);
    let nodes: Vec<NodeIndex> = g.node_indices().collect();
    let mut out = Vec::new();
    innermost(&g, &nodes, &Cut::new(), asm, &mut out);
    out
}

fn innermost<'a>(
    g: &ControlFlowGraph<'a>,
    nodes: &[NodeIndex],
    cut: &Cut,
    asm: &Assumptions,
    out: &mut Vec<StateMachineLoop<'a>>,
) {
    for members in components_of(g, nodes, cut) {
        if !is_cycle(g, &members, cut) {
            continue;
        }
        let Some(lp) = find_loop(g, &members, cut, asm) else {
            continue;
        };
        let body = lp.body(&members);
        let mut inner_cut = cut.clone();
        inner_cut.extend(lp.back);
        let found = out.len();
        innermost(g, &body, &inner_cut, asm, out);
        if out.len() == found {
            out.push(StateMachineLoop {
                guard: g[lp.check],
                begin: g[lp.begin],
                body: body.iter().map(|m| g[*m]).collect(),
                counted: lp.counted,
                form: lp.form,
            });
        }
    }
}

/// A loop of a state machine: the block that checks its condition, the
/// first block of its body, where it is counted its variable and range,
/// and for an inverted loop its back edge.
struct FoundLoop {
    check: NodeIndex,
    begin: NodeIndex,
    counted: Option<(String, LoopRange)>,
    form: LoopForm,
    back: Option<EdgeIndex>,
}

impl FoundLoop {
    /// The loop's body among its cycle's `members`: all but the guard.
    fn body(&self, members: &[NodeIndex]) -> Vec<NodeIndex> {
        members
            .iter()
            .copied()
            .filter(|m| *m != self.check || self.form != LoopForm::Guarded)
            .collect()
    }
}

/// The loop the cycle `members` forms, if one of its blocks is a loop
/// guard or an inverted loop's latch (see the module documentation): a
/// guarded loop before an inverted one, a counted one before a while
/// loop. A cut edge between two members (an inverted loop around whose
/// back edge is not this cycle's) leaves the cycle unrecognised.
fn find_loop(
    g: &ControlFlowGraph<'_>,
    members: &[NodeIndex],
    cut: &Cut,
    asm: &Assumptions,
) -> Option<FoundLoop> {
    let set: HashSet<NodeIndex> = members.iter().copied().collect();
    let internal_cut = members.iter().any(|&m| {
        g.edges(m)
            .any(|e| cut.contains(&e.id()) && set.contains(&e.target()))
    });
    if internal_cut {
        return None;
    }
    let guarded = members.iter().filter_map(|&b| guard_of(g, &set, b, asm));
    let inverted = members.iter().filter_map(|&b| latch_of(g, &set, b, asm));
    let mut candidates = guarded.chain(inverted);
    let first = candidates.next()?;
    if first.counted.is_some() {
        return Some(first);
    }
    Some(candidates.find(|l| l.counted.is_some()).unwrap_or(first))
}

/// The two out-edges of `block`, the first into `members` and the second
/// out of them, under conditions that negate each other; with the first's
/// condition.
fn split_edges<'g, 'a>(
    g: &'g ControlFlowGraph<'a>,
    members: &HashSet<NodeIndex>,
    block: NodeIndex,
) -> Option<(EdgeReference<'g, InterstateEdge<'a>>, Expr)> {
    let outs: Vec<_> = g.edges(block).collect();
    let [a, b] = outs.as_slice() else {
        return None;
    };
    let (stay, leave) = match (members.contains(&a.target()), members.contains(&b.target())) {
        (true, false) => (a, b),
        (false, true) => (b, a),
        _ => return None,
    };
    let cond = parse(stay.weight().condition?).ok()?;
    let negated = parse(leave.weight().condition?).ok()?;
    (Expr::not(&cond) == negated).then_some((*stay, cond))
}

/// The edges that enter `members` from outside, if they all enter at
/// `entry` and there is one.
fn entries_at<'g, 'a>(
    g: &'g ControlFlowGraph<'a>,
    members: &HashSet<NodeIndex>,
    entry: NodeIndex,
) -> Option<Vec<&'g InterstateEdge<'a>>> {
    let mut entries = Vec::new();
    for &m in members {
        for e in g.edges_directed(m, Direction::Incoming) {
            if !members.contains(&e.source()) {
                if m != entry {
                    return None;
                }
                entries.push(e.weight());
            }
        }
    }
    (!entries.is_empty()).then_some(entries)
}

fn guard_of(
    g: &ControlFlowGraph<'_>,
    members: &HashSet<NodeIndex>,
    guard: NodeIndex,
    asm: &Assumptions,
) -> Option<FoundLoop> {
    let (body, cond) = split_edges(g, members, guard)?;
    if body.target() == guard {
        // A self-loop checks after its body: an inverted loop.
        return None;
    }
    let entries = entries_at(g, members, guard)?;
    let back: Vec<&InterstateEdge> = g
        .edges_directed(guard, Direction::Incoming)
        .filter(|e| members.contains(&e.source()))
        .map(|e| e.weight())
        .collect();
    let update = |var: &str| -> Option<(Expr, Vec<EdgeIndex>)> {
        let update = common_assignment(&back, var)?;
        let edges = g
            .edges_directed(guard, Direction::Incoming)
            .filter(|e| members.contains(&e.source()))
            .map(|e| e.id())
            .collect();
        Some((update, edges))
    };
    Some(FoundLoop {
        check: guard,
        begin: body.target(),
        counted: counted(g, members, &cond, &entries, update, |var, init, update| {
            loop_range(var, init, &cond, update, asm)
        }),
        form: LoopForm::Guarded,
        back: None,
    })
}

/// The inverted loop whose latch is `latch`: its back edge goes to the
/// cycle's only entry under the condition, its other out-edge leaves
/// under the negation. A counted one's update is on the back edge or,
/// where the latch is an empty state of its own, on every edge into it.
fn latch_of(
    g: &ControlFlowGraph<'_>,
    members: &HashSet<NodeIndex>,
    latch: NodeIndex,
    asm: &Assumptions,
) -> Option<FoundLoop> {
    let (back, cond) = split_edges(g, members, latch)?;
    let begin = back.target();
    let entries = entries_at(g, members, begin)?;
    let empty_latch = latch != begin && g[latch].is("sdfg.state") && g[latch].region_is_empty(0);
    let update = |var: &str| -> Option<(Expr, Vec<EdgeIndex>)> {
        if let Some(update) = common_assignment(&[back.weight()], var) {
            return Some((update, vec![back.id()]));
        }
        if !empty_latch {
            return None;
        }
        let into: Vec<_> = g.edges_directed(latch, Direction::Incoming).collect();
        let weights: Vec<&InterstateEdge> = into.iter().map(|e| e.weight()).collect();
        let update = common_assignment(&weights, var)?;
        Some((update, into.iter().map(|e| e.id()).collect()))
    };
    let update_first = |var: &str| !assigns(back.weight(), var);
    let counted = counted(g, members, &cond, &entries, update, |var, init, update| {
        do_while_range(var, init, &cond, update, update_first(var), asm)
    });
    // A while loop has no update: DaCe's default.
    let update_before_condition = counted.as_ref().is_none_or(|(var, _)| update_first(var));
    Some(FoundLoop {
        check: latch,
        begin,
        counted,
        form: LoopForm::Inverted {
            update_before_condition,
        },
        back: Some(back.id()),
    })
}

fn assigns(e: &InterstateEdge, var: &str) -> bool {
    e.assignments.iter().any(|(n, _)| *n == var)
}

/// The expression every edge of `edges` assigns to `var`, if they all
/// assign the same one (and there is an edge).
fn common_assignment(edges: &[&InterstateEdge], var: &str) -> Option<Expr> {
    let mut values = edges.iter().map(|e| {
        let (_, value) = e.assignments.iter().find(|(n, _)| *n == var)?;
        parse(value).ok()
    });
    let first = values.next()??;
    values.all(|v| v.as_ref() == Some(&first)).then_some(first)
}

/// The variable and range of a loop under `cond` entered by `entries`,
/// if one variable is initialised the same way on every edge in, updated
/// the same way on the edges `update` finds (`update(var)`), and changed
/// on no other edge of the loop, and `range` reads a range from them.
fn counted(
    g: &ControlFlowGraph<'_>,
    members: &HashSet<NodeIndex>,
    cond: &Expr,
    entries: &[&InterstateEdge],
    update: impl Fn(&str) -> Option<(Expr, Vec<EdgeIndex>)>,
    mut range: impl FnMut(&str, &Expr, &Expr) -> Option<LoopRange>,
) -> Option<(String, LoopRange)> {
    for &(var, _) in &entries.first()?.assignments {
        let Some(init) = common_assignment(entries, var) else {
            continue;
        };
        let Some((update, update_edges)) = update(var) else {
            continue;
        };
        if !update.mentions(var) || init.mentions(var) {
            continue;
        }
        // Nothing else in the loop may change the variable or the bound:
        // the update edges only the variable, no other edge anything.
        let watched: HashSet<String> = cond
            .free_symbols()
            .into_iter()
            .chain(update.free_symbols())
            .collect();
        let changed = members.iter().any(|&m| {
            g.edges(m).any(|e| {
                members.contains(&e.target())
                    && e.weight().assignments.iter().any(|(n, _)| {
                        watched.contains(*n) && !(*n == var && update_edges.contains(&e.id()))
                    })
            })
        });
        if changed {
            continue;
        }
        if let Some(r) = range(var, &init, &update) {
            return Some((var.to_string(), r));
        }
    }
    None
}

/// Records `e` for `op` and analyses the regions inside it.
fn block<'a>(op: Op<'a>, e: Execution, asm: &Assumptions, out: &mut Executions<'a>) {
    match op.name() {
        "sdfg.loop" => {
            let body = loop_body(op, &e, asm);
            region(op, body, asm, out);
        }
        "sdfg.conditional" => {
            let branches: Vec<Op> = op
                .region_ops(0)
                .into_iter()
                .filter(|b| b.is("sdfg.branch"))
                .collect();
            let certain = branches.len() == 1 && branches[0].str_attr("condition").is_none();
            for branch in branches {
                let be = if certain { e.clone() } else { e.at_most() };
                out.insert(branch, be.clone());
                region(branch, be, asm, out);
            }
        }
        "sdfg.region" | "sdfg.call_region" => region(op, e.clone(), asm, out),
        _ => {}
    }
    out.insert(op, e);
}

/// The variable of a counted `sdfg.loop` and the values it takes; `None`
/// for a while loop.
pub fn counted_loop(op: Op<'_>, asm: &Assumptions) -> Option<(String, LoopRange)> {
    let var = op.str_attr("var")?;
    let init = parse(op.str_attr("init")?).ok()?;
    let cond = parse(op.str_attr("cond")?).ok()?;
    let update = parse(op.str_attr("update")?).ok()?;
    let range = if op.attr("inverted").is_some() {
        let update_first = op.attr("update_before_condition").is_some();
        do_while_range(var, &init, &cond, &update, update_first, asm)?
    } else {
        loop_range(var, &init, &cond, &update, asm)?
    };
    Some((var.to_string(), range))
}

/// How the body of an `sdfg.loop` entered as `e` runs.
fn loop_body(op: Op<'_>, e: &Execution, asm: &Assumptions) -> Execution {
    let Some((var, lp)) = counted_loop(op, asm) else {
        return Execution::unknown(e.ranges.clone());
    };
    let mut body = e.inside_loop(&var, &lp, asm);
    body.dynamic |= leaves_early(op);
    body
}

/// Whether a `break` of `lp` or a `return` can end the loop before its
/// condition does.
fn leaves_early(lp: Op<'_>) -> bool {
    let sdfg = lp.ancestor("sdfg.sdfg");
    lp.descendants().into_iter().any(|o| {
        (o.is("sdfg.break") && o.ancestor("sdfg.loop") == Some(lp))
            || (o.is("sdfg.return") && o.ancestor("sdfg.sdfg") == sdfg)
    })
}
