//! `sdfg-state-fusion`: merges two states joined by an unconditional edge
//! into one, as DaCe's `StateFusion` does, when the merged dataflow graph
//! still orders every conflicting access.
//!
//! ```mlir
//! // before: the frontend's one state per statement
//! sdfg.state @s1 {
//!   %t = sdfg.tasklet "f" ins(...) outs("o" : f64) { ... }
//!   %x = sdfg.access %tmp writes(%t["0"] : f64) : !sdfg.scalar<f64>
//! }
//! sdfg.state @s2 {
//!   %x2 = sdfg.access %tmp : !sdfg.scalar<f64>
//!   %u = sdfg.tasklet "g" ins("i" = %x2["0"] : !sdfg.scalar<f64>) ...
//! }
//! sdfg.edge @s1 -> @s2
//! sdfg.edge @s2 -> @s3 if "i < N"
//!
//! // after: one state; the read of tmp is the node the write went to
//! sdfg.state @s1 {
//!   %t = sdfg.tasklet "f" ins(...) outs("o" : f64) { ... }
//!   %x = sdfg.access %tmp writes(%t["0"] : f64) : !sdfg.scalar<f64>
//!   %u = sdfg.tasklet "g" ins("i" = %x["0"] : !sdfg.scalar<f64>) ...
//! }
//! sdfg.edge @s1 -> @s3 if "i < N"
//! ```
//!
//! # When fusion keeps the program's meaning
//!
//! Control flow orders two states completely: everything in the first
//! finishes before anything in the second starts. Inside one state only
//! the dataflow edges order nodes, so fusing is correct exactly when every
//! pair of accesses that conflict (the same data, at least one of them a
//! write) is still ordered by a path of the merged graph. The pass checks
//! that directly, instead of DaCe's catalogue of node patterns:
//!
//! 1. **The edge.** `first -> second` is the only edge leaving `first` and
//!    the only one entering `second`, it is unconditional, both are
//!    `sdfg.state`s, and `second` is not where its region starts. Its
//!    assignments move onto the edges entering `first` where that changes
//!    no value anyone reads ([`check_hoist`], DaCe's rule): a
//!    scalar-to-symbol promotion's `s = A[i]` between two statements then
//!    no longer keeps them apart.
//! 2. **Merging reads into the last node.** A node of `second` that only
//!    reads a container (no edge enters it) becomes the last node of
//!    `first` that accesses the same container: its readers then come
//!    after everything written into that node, which is what makes a
//!    write in `first` and a read in `second` ordered, and the merged state
//!    has one node fewer.
//! 3. **Effects.** The effects of an access node are the ops that write
//!    into it (writes) and the ops that read from it (reads; popping a
//!    stream is a write); an access node nested in a map or consume scope
//!    is an effect of that scope. A view's effects are on the data it is
//!    bound to; a reference, or a view whose binding is not in the state,
//!    may be anything and conflicts with every container.
//! 4. **Ordering.** For every container, every effect in `first` must
//!    reach, along dataflow edges of the merged state, every conflicting
//!    effect in `second`. Nothing in `second` can reach `first`, so the
//!    merged graph stays acyclic. Two effects whose memlets on the
//!    container provably touch no common element (`corr[i, i]` and
//!    `corr[i, i+1:M]`) do not conflict, as in DaCe's memlet intersection
//!    tests; the subsets are compared only when no path orders the two.
//!
//! The check searches forward from the conflicting effects of `first`
//! only; states without common data fuse without any search. What it
//! needs of a state (its effects, dataflow edges and last access nodes)
//! is summarised once and grows with each state the state absorbs, so
//! each fusion walks only the state it absorbs: a chain of n states fuses
//! in pairs, in log n rounds of merging summaries, and the IR is walked
//! once. Empty states fuse with anything, which
//! removes the frontend's guard, latch and end states wherever their
//! edges are plain.
//!
//! An empty state with one edge in and one unconditional edge out also
//! goes when those edges carry assignments ([`absorb_empty`]): the two
//! edges become one, with the first one's condition and both
//! assignments, the first one's values substituted into the second's
//! (`i = 0` then `j = i + 1` is `i = 0, j = 0 + 1`), unless one
//! assignment would then read another. That removes the states
//! scalar-to-symbol promotion leaves between two assignments. Where the
//! empty state is a loop body, which cannot go, a copy `s = t` on its
//! edge out of a `t = v` on its edge in becomes `s = v` on the edge in
//! ([`forward_copies`]), and `t` goes.

use crate::cfg::{always_true, assignments, machine_owners, Machine};
use mlir_sys::MlirAttribute;
use sdfg_analysis::executions::size_assumptions;
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::{dictionary_entries, Op, Val};
use sdfg_dialect::{memlet_at, rewrite, underlying_container, Container, ContainerKind};
use sdfg_symbolic::{parse_subset, Assumptions, Subset, Tri};
use std::cell::OnceCell;
use std::collections::{HashMap, HashSet};

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-state-fusion",
    summary: "Fuse states joined by an unconditional edge when the merged dataflow graph still orders every conflicting access (DaCe's StateFusion)",
    op_name: "builtin.module",
    create: || Box::new(StateFusion),
};

/// The pass (no options).
#[derive(Clone, Copy)]
pub struct StateFusion;

impl RustPass for StateFusion {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        crate::no_options("sdfg-state-fusion", options)
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        fuse_all(module);
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(*self)
    }
}

/// Fuses states everywhere under `root` until no edge qualifies; returns
/// how many fusions were made.
pub fn fuse_all(root: Op<'_>) -> usize {
    let mut fused = 0;
    for owner in machine_owners(root) {
        let mut machine = Machine::new(owner);
        let mut known = Known::default();
        loop {
            let before = fused;
            // A state that absorbed another this round waits for the next
            // one: a chain of n states then fuses in pairs, in log n
            // rounds, each of which merges every summary into another
            // once. (Fusing front to back instead, in one round, cuts
            // some chains elsewhere: vadv keeps two more nodes.)
            let mut grown: HashSet<String> = HashSet::new();
            for edge in machine.edges() {
                if !machine.is_live(edge) {
                    continue;
                }
                let src = edge.symbol_ref_attr("src").unwrap_or_default().to_string();
                let dst = edge.symbol_ref_attr("dst").unwrap_or_default();
                if grown.contains(&src) || grown.contains(dst) {
                    continue;
                }
                if fuse_edge(&mut machine, edge, &mut known).is_ok() {
                    fused += 1;
                    grown.insert(src);
                }
            }
            for name in machine.block_names() {
                if absorb_empty(&mut machine, &name).is_ok() {
                    known.summaries.remove(&name);
                    fused += 1;
                }
            }
            fused += forward_copies(&machine, owner);
            if fused == before {
                break;
            }
        }
    }
    fused
}

/// Fuses the two states `edge` joins, or says why that would not keep
/// the program's meaning (and changes nothing).
pub fn fuse(edge: Op<'_>) -> Result<(), String> {
    let owner = edge
        .parent()
        .ok_or_else(|| "the edge is not in a region".to_string())?;
    fuse_edge(&mut Machine::new(owner), edge, &mut Known::default())
}

/// What fusing the states of one region keeps from one fusion to the
/// next.
#[derive(Default)]
struct Known<'a> {
    /// The summaries of the states, by name. A summary lives as long as
    /// its state and grows with each state the state absorbs.
    summaries: HashMap<String, Summary<'a>>,
    /// The enclosing SDFG's size assumptions (a walk of its containers),
    /// made the first time two subsets are compared.
    assumptions: Option<Assumptions>,
    /// How many states each state has absorbed.
    versions: HashMap<String, usize>,
    /// The pairs of states whose plan failed, with their versions then:
    /// the plan fails again until one of them absorbs another state.
    failed: HashMap<(String, String), (usize, usize)>,
}

impl Known<'_> {
    fn version(&self, state: &str) -> usize {
        self.versions.get(state).copied().unwrap_or_default()
    }
}

/// Fuses the states `edge` joins, reading and keeping what is known of
/// them in `known`.
fn fuse_edge<'a>(
    machine: &mut Machine<'a>,
    edge: Op<'a>,
    known: &mut Known<'a>,
) -> Result<(), String> {
    let (Some(src), Some(dst)) = (edge.symbol_ref_attr("src"), edge.symbol_ref_attr("dst")) else {
        return Err("the edge names no blocks".into());
    };
    if src == dst {
        return Err(format!("`{src}` loops to itself"));
    }
    let (Some(first), Some(second)) = (machine.block(src), machine.block(dst)) else {
        return Err("the edge's blocks are not in its region".into());
    };
    if !first.is("sdfg.state") || !second.is("sdfg.state") {
        return Err(format!("`{src}` or `{dst}` is not a state"));
    }
    if machine.out_edges(src).len() != 1 {
        return Err(format!("`{src}` has more than one successor"));
    }
    if machine.in_edges(dst).len() != 1 {
        return Err(format!("`{dst}` has more than one predecessor"));
    }
    if !always_true(edge.str_attr("condition")) {
        return Err(format!("the edge `{src}` -> `{dst}` has a condition"));
    }
    if machine.start == Some(second) {
        return Err(format!("`{dst}` starts its region"));
    }
    let hoisted = assignments(edge);
    if !hoisted.is_empty() {
        check_hoist(machine, &hoisted, src, first)?;
    }
    let (src, dst) = (src.to_string(), dst.to_string());
    let versions = (known.version(&src), known.version(&dst));
    let pair = (src.clone(), dst.clone());
    if known.failed.get(&pair) == Some(&versions) {
        return Err(format!(
            "neither `{src}` nor `{dst}` changed since their fusion failed"
        ));
    }
    let theirs = known
        .summaries
        .remove(&dst)
        .unwrap_or_else(|| Summary::of(second));
    let ours = known
        .summaries
        .entry(src.clone())
        .or_insert_with(|| Summary::of(first));
    let plan = match plan(ours, &theirs, first, &mut known.assumptions) {
        Ok(plan) => plan,
        Err(why) => {
            known.summaries.insert(dst, theirs);
            known.failed.insert(pair, versions);
            return Err(why);
        }
    };
    *known.versions.entry(src.clone()).or_default() += 1;
    for into in machine.in_edges(&src).to_vec() {
        let mut joined = assignments(into);
        joined.extend(hoisted.iter().cloned());
        rewrite::set_assignments(into, &joined);
    }
    for (read, last) in &plan.merges {
        rewrite::replace_all_uses(read.results()[0], last.results()[0]);
        // SAFETY: the node's only result has no uses left, and its handle
        // is dropped from the summaries below.
        unsafe { rewrite::erase(*read) };
    }
    for op in second.region_ops(0) {
        rewrite::move_to_end(op, first);
    }
    ours.absorb(theirs, plan);
    let outgoing = machine.out_edges(&dst).to_vec();
    machine.erase_edge(edge);
    for out in outgoing {
        machine.set_source(out, &src);
    }
    machine.erase_block(&dst);
    Ok(())
}

/// Checks that the assignments `hoisted` of the edge leaving `first`
/// (named `name`) can move onto every edge entering `first`, as DaCe's
/// `StateFusion` moves them: there are such edges, none of them assigns
/// or reads a hoisted name or assigns a name the hoisted values read,
/// `first` does not read a hoisted name, and it writes no container the
/// values read. The values are then the same one state earlier, and
/// nothing in `first` sees the new ones.
fn check_hoist(
    machine: &Machine<'_>,
    hoisted: &[(String, String)],
    name: &str,
    first: Op<'_>,
) -> Result<(), String> {
    let into = machine.in_edges(name);
    if into.is_empty() {
        return Err(format!("no edge enters `{name}` to take the assignments"));
    }
    let targets: HashSet<&str> = hoisted.iter().map(|(n, _)| n.as_str()).collect();
    let read: HashSet<String> = hoisted
        .iter()
        .flat_map(|(_, v)| crate::identifiers(v))
        .collect();
    let used = crate::mention_counts(first);
    if let Some(n) = targets.iter().find(|n| used.contains_key(**n)) {
        return Err(format!("`{name}` reads `{n}`, which its edge out assigns"));
    }
    for node in first.descendants() {
        let written = node.is("sdfg.access") && !node.operand_segment(1).is_empty();
        if let Some(data) = node.operands().first().filter(|_| written) {
            // A view or reference written may be any container.
            let indirect = matches!(
                container_kind(*data),
                Some(ContainerKind::View | ContainerKind::Reference) | None
            );
            if indirect || sdfg_dialect::container_name(*data).is_some_and(|d| read.contains(&d)) {
                return Err(format!("`{name}` writes data its edge out reads"));
            }
        }
    }
    for edge in into {
        let theirs = assignments(*edge);
        let reads_target = edge
            .str_attr("condition")
            .into_iter()
            .chain(theirs.iter().map(|(_, v)| v.as_str()))
            .any(|text| crate::identifiers(text).any(|w| targets.contains(w.as_str())));
        if reads_target
            || theirs
                .iter()
                .any(|(n, _)| targets.contains(n.as_str()) || read.contains(n))
        {
            return Err(format!(
                "an edge into `{name}` assigns or reads what its edge out assigns"
            ));
        }
    }
    Ok(())
}

/// Removes the empty state `name` that sits between one incoming and one
/// unconditional outgoing edge, joining the two edges into one: the
/// incoming edge's condition and assignments, then the outgoing edge's
/// assignments with the incoming edge's values substituted for the names
/// it assigns (on one edge every right-hand side is evaluated before any
/// assignment). The incoming edge's right-hand sides must not read what
/// the outgoing edge assigns (`sdfg-validate` rejects an edge that reads
/// what it assigns), and the joined edge must not loop.
pub fn absorb_empty(machine: &mut Machine<'_>, name: &str) -> Result<(), String> {
    let block = machine
        .block(name)
        .ok_or_else(|| format!("no block `{name}`"))?;
    if !block.is("sdfg.state") || !block.region_is_empty(0) {
        return Err(format!("`{name}` is not an empty state"));
    }
    if machine.start == Some(block) {
        return Err(format!("`{name}` starts its region"));
    }
    let (incoming, outgoing) = match (machine.in_edges(name), machine.out_edges(name)) {
        ([i], [o]) => (*i, *o),
        _ => return Err(format!("`{name}` has not exactly one edge in and one out")),
    };
    let (Some(src), Some(dst)) = (
        incoming.symbol_ref_attr("src"),
        outgoing.symbol_ref_attr("dst"),
    ) else {
        return Err("an edge names no block".into());
    };
    if src == name || dst == name || src == dst {
        return Err(format!(
            "joining the edges around `{name}` would make a loop"
        ));
    }
    if !always_true(outgoing.str_attr("condition")) {
        return Err(format!("the edge leaving `{name}` has a condition"));
    }
    // DaCe's state machines are graphs, not multigraphs: a second edge
    // between two blocks would not load there.
    if machine
        .out_edges(src)
        .iter()
        .any(|e| e.symbol_ref_attr("dst") == Some(dst))
    {
        return Err(format!("`{src}` already has an edge to `{dst}`"));
    }
    let first: Vec<(String, String)> = assignments(incoming);
    let second: Vec<(String, String)> = assignments(outgoing);
    let second_names: HashSet<&str> = second.iter().map(|(n, _)| n.as_str()).collect();
    if first
        .iter()
        .any(|(_, value)| crate::identifiers(value).any(|w| second_names.contains(w.as_str())))
    {
        return Err(format!(
            "the edge into `{name}` reads what the edge out of it assigns"
        ));
    }
    let values: HashMap<&str, &str> = first
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    let mut joined: Vec<(String, String)> = first
        .iter()
        .filter(|(n, _)| !second_names.contains(n.as_str()))
        .cloned()
        .collect();
    for (n, value) in &second {
        let value = crate::substitute(value, &values);
        if value.len() > MAX_EXPRESSION {
            return Err(format!(
                "joining the edges around `{name}` makes an expression too long"
            ));
        }
        joined.push((n.clone(), value));
    }
    // One edge's assignments may not read each other (they have no order).
    let reads_another = joined.iter().any(|(n, value)| {
        crate::identifiers(value).any(|w| w != *n && joined.iter().any(|(m, _)| *m == w))
    });
    if reads_another {
        return Err(format!(
            "joining the edges around `{name}` makes one assignment read another"
        ));
    }
    rewrite::set_assignments(incoming, &joined);
    let dst = dst.to_string();
    machine.erase_edge(outgoing);
    machine.set_destination(incoming, &dst);
    machine.erase_block(name);
    Ok(())
}

/// Forwards symbol copies across the empty states of `owner`'s region
/// that [`absorb_empty`] cannot remove (a loop body whose edges carry
/// `t = v` in and `s = t` out): the edge in assigns `s = v` and `t`, read
/// nowhere else, goes. Returns how many copies were forwarded.
///
/// Assigning `s` one edge earlier keeps the program's meaning when
/// nothing between the two assignments reads `s`: the state between is
/// empty, the edge out reads `s` nowhere else, the edge in reads it only
/// in `v` (which reads the old value either way), and both symbols have
/// the same type (so `s = v` converts `v` as `t = v; s = t` did).
pub fn forward_copies(machine: &Machine<'_>, owner: Op<'_>) -> usize {
    let sdfgs: Vec<Op<'_>> = std::iter::successors(Some(owner), |op| op.parent())
        .filter(|op| op.is("sdfg.sdfg"))
        .collect();
    // Mentions count in the outermost SDFG: a nested SDFG's symbols are
    // also named by the symbol mapping of the op that calls it.
    let (Some(&sdfg), Some(&outermost)) = (sdfgs.first(), sdfgs.last()) else {
        return 0;
    };
    let mut counts: Option<HashMap<String, usize>> = None;
    let mut forwarded = 0;
    for name in machine.block_names() {
        let Some(block) = machine.block(&name) else {
            continue;
        };
        if machine.start == Some(block) || !block.is("sdfg.state") || !block.region_is_empty(0) {
            continue;
        }
        let (incoming, outgoing) = match (machine.in_edges(&name), machine.out_edges(&name)) {
            ([i], [o]) if i != o => (*i, *o),
            _ => continue,
        };
        let first = assignments(incoming);
        let second = assignments(outgoing);
        for (target, copied) in &second {
            let Some(k) = first.iter().position(|(n, _)| n == copied) else {
                continue;
            };
            let counts = counts.get_or_insert_with(|| crate::mention_counts(outermost));
            if forward_copy(sdfg, incoming, outgoing, (target, copied), k, counts) {
                forwarded += 1;
                // The edges changed: their other copies wait for the next
                // round.
                break;
            }
        }
    }
    forwarded
}

/// Forwards `target = copied` on `outgoing` into assignment `k` of
/// `incoming` (`copied = v`), if the conditions of [`forward_copies`]
/// hold.
fn forward_copy(
    sdfg: Op<'_>,
    incoming: Op<'_>,
    outgoing: Op<'_>,
    (target, copied): (&str, &str),
    k: usize,
    counts: &mut HashMap<String, usize>,
) -> bool {
    let mut first = assignments(incoming);
    let mut second = assignments(outgoing);
    let symbols: HashMap<&str, MlirAttribute> = sdfg
        .attr("symbols")
        .map(dictionary_entries)
        .unwrap_or_default()
        .into_iter()
        .collect();
    let same_type = match (symbols.get(target), symbols.get(copied)) {
        // SAFETY: both attributes are live in the op's context.
        (Some(a), Some(b)) => unsafe { mlir_sys::mlirAttributeEqual(*a, *b) },
        _ => false,
    };
    let reads = |text: &str, name: &str| crate::identifiers(text).any(|w| w == name);
    let read_elsewhere_in_first = first
        .iter()
        .enumerate()
        .any(|(j, (n, v))| n == target || (j != k && reads(v, target)));
    let read_elsewhere_in_second = second
        .iter()
        .any(|(n, v)| n != target && (reads(v, target) || n == copied))
        || outgoing
            .str_attr("condition")
            .is_some_and(|c| reads(c, target));
    if target == copied
        || !same_type
        || counts.get(copied).copied() != Some(2)
        || read_elsewhere_in_first
        || read_elsewhere_in_second
    {
        return false;
    }
    first[k].0 = target.to_string();
    second.retain(|(n, _)| n != target);
    rewrite::set_assignments(incoming, &first);
    rewrite::set_assignments(outgoing, &second);
    rewrite::undeclare_symbol(sdfg, copied);
    counts.remove(copied);
    true
}

/// The longest right-hand side joining two edges may write (substituting
/// one edge's assignments into the next can grow expressions quickly).
const MAX_EXPRESSION: usize = 512;

/// What a node's effect is on: one container, or possibly any.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Key<'a> {
    Data(Val<'a>),
    Any,
}

fn container_kind(value: Val<'_>) -> Option<ContainerKind> {
    Container::from_type(value.ty()).map(|c| c.kind)
}

/// The data an access node's effects are on.
fn access_key<'a>(access: Op<'a>) -> Key<'a> {
    let Some(data) = access.operands().first().copied() else {
        return Key::Any;
    };
    match container_kind(data) {
        Some(ContainerKind::Reference) | None => Key::Any,
        Some(ContainerKind::View) => match access.operand_segment(2).first() {
            Some(source) => {
                let base = underlying_container(*source);
                match container_kind(base) {
                    Some(ContainerKind::View | ContainerKind::Reference) | None => Key::Any,
                    Some(_) => Key::Data(base),
                }
            }
            None => Key::Any,
        },
        Some(_) => Key::Data(data),
    }
}

fn is_stream(access: Op<'_>) -> bool {
    access
        .operands()
        .first()
        .is_some_and(|d| container_kind(*d) == Some(ContainerKind::Stream))
}

/// Whether `op` lies inside a nested SDFG below `top` (or is `top`'s own
/// nested SDFG body): its containers are the nested SDFG's.
fn inside_nested(op: Op<'_>, top: Op<'_>) -> bool {
    let mut current = op.parent();
    while let Some(p) = current {
        if p.is("sdfg.nested") {
            return true;
        }
        if p == top {
            return false;
        }
        current = p.parent();
    }
    false
}

/// The top-level ops of a state, and for every op nested in them the
/// top-level op it belongs to.
fn tops<'a>(state: Op<'a>, index: &mut HashMap<Op<'a>, Op<'a>>) -> Vec<Op<'a>> {
    let ops = state.region_ops(0);
    for &op in &ops {
        index.insert(op, op);
        for inner in op.descendants() {
            index.insert(inner, op);
        }
    }
    ops
}

/// One effect: the top-level op that has it, whether it writes, and where
/// a memlet on the container itself says which subset it touches (`None`:
/// possibly all of it).
struct Effect<'a> {
    op: Op<'a>,
    write: bool,
    memlet: Option<MemletSide<'a>>,
    /// The memlet's subset, parsed the first time a comparison needs it.
    subset: OnceCell<Option<Subset>>,
}

impl<'a> Effect<'a> {
    fn new(op: Op<'a>, write: bool, memlet: Option<MemletSide<'a>>) -> Self {
        Effect {
            op,
            write,
            memlet,
            subset: OnceCell::new(),
        }
    }

    fn subset(&self) -> Option<&Subset> {
        self.subset
            .get_or_init(|| self.memlet.and_then(MemletSide::subset))
            .as_ref()
    }
}

/// One side of a memlet on an access node: operand `operand` of `op`, its
/// destination side where `destination`. It is read only when no path
/// orders two effects, which is rare, so the subset is parsed then.
#[derive(Clone, Copy)]
struct MemletSide<'a> {
    op: Op<'a>,
    operand: usize,
    destination: bool,
}

impl MemletSide<'_> {
    fn subset(self) -> Option<Subset> {
        let memlet = memlet_at(self.op, self.operand)?;
        let text = match memlet.other {
            Some(other) if self.destination => other,
            _ => memlet.subset,
        };
        parse_subset(&text).ok()
    }
}

/// The effects of a state's nodes, per key.
fn effects<'a>(
    ops: &[Op<'a>],
    index: &HashMap<Op<'a>, Op<'a>>,
) -> HashMap<Key<'a>, Vec<Effect<'a>>> {
    let mut out: HashMap<Key<'a>, Vec<Effect<'a>>> = HashMap::new();
    for &top in ops {
        if top.is("sdfg.access") {
            let key = access_key(top);
            let stream = is_stream(top);
            // Memlets index the node's own container; a view's effects are
            // on the data it is bound to, in other coordinates.
            let own = top.operands().first().map(|d| Key::Data(*d)) == Some(key);
            let memlet = |op: Op<'a>, operand: usize, destination: bool| {
                own.then_some(MemletSide {
                    op,
                    operand,
                    destination,
                })
            };
            let entry = out.entry(key).or_default();
            for (k, write) in top.operand_segment(1).into_iter().enumerate() {
                let op = match write.defining_op() {
                    // A copy happens at its destination node.
                    Some(source) if source.is("sdfg.access") => top,
                    source => match source.and_then(|d| index.get(&d)) {
                        Some(producer) => *producer,
                        None => continue,
                    },
                };
                let copy = op == top;
                entry.push(Effect::new(op, true, memlet(top, 1 + k, copy)));
            }
            let value = top.results()[0];
            for (user, operand) in value.uses() {
                let reads = sdfg_dialect::incoming_edges(user).iter().any(|e| {
                    e.source == value
                        && !matches!(
                            e.role,
                            sdfg_dialect::EdgeRole::After | sdfg_dialect::EdgeRole::Bind
                        )
                });
                if let (true, Some(reader)) = (reads, index.get(&user)) {
                    // A copy out of the node reads it at the destination
                    // node, which is `reader` itself.
                    entry.push(Effect::new(*reader, stream, memlet(user, operand, false)));
                }
            }
            continue;
        }
        for inner in top.descendants() {
            if !inner.is("sdfg.access") || inside_nested(inner, top) {
                continue;
            }
            let written = !inner.operand_segment(1).is_empty() || is_stream(inner);
            let read = !inner.results()[0].uses().is_empty();
            if written || read {
                out.entry(access_key(inner))
                    .or_default()
                    .push(Effect::new(top, written, None));
            }
        }
    }
    out
}

/// Whether two effects provably touch no common element.
fn disjoint(a: &Effect<'_>, b: &Effect<'_>, asm: &Assumptions) -> bool {
    match (a.subset(), b.subset()) {
        (Some(x), Some(y)) => x.intersects(y, asm).ok() == Some(Tri::False),
        _ => false,
    }
}

/// What the ordering check needs of one state's dataflow. It is built
/// once per state and grows with each state the state absorbs, so that a
/// fusion walks only the state it absorbs.
struct Summary<'a> {
    /// The top-level ops, in order.
    tops: Vec<Op<'a>>,
    /// Every op of the state, nested ones included, to the top-level op
    /// it belongs to.
    index: HashMap<Op<'a>, Op<'a>>,
    /// The effects of the nodes, per key.
    effects: HashMap<Key<'a>, Vec<Effect<'a>>>,
    /// The dataflow edges between top-level ops.
    successors: HashMap<Op<'a>, Vec<Op<'a>>>,
    /// The last top-level access node of each container.
    last: HashMap<Val<'a>, Op<'a>>,
}

impl<'a> Summary<'a> {
    /// Walks `state` once.
    fn of(state: Op<'a>) -> Self {
        let mut index = HashMap::new();
        let tops = tops(state, &mut index);
        let effects = effects(&tops, &index);
        let mut successors: HashMap<Op<'a>, Vec<Op<'a>>> = HashMap::new();
        for &top in &tops {
            for op in std::iter::once(top).chain(top.descendants()) {
                for operand in op.operands() {
                    let Some(source) = operand.defining_op().and_then(|d| index.get(&d)) else {
                        continue;
                    };
                    if *source != top {
                        successors.entry(*source).or_default().push(top);
                    }
                }
            }
        }
        let mut summary = Summary {
            tops: Vec::new(),
            index,
            effects,
            successors,
            last: HashMap::new(),
        };
        summary.append(tops, &HashSet::new());
        summary
    }

    /// Appends top-level ops after the state's own, but for `skipped`.
    fn append(&mut self, tops: Vec<Op<'a>>, skipped: &HashSet<Op<'a>>) {
        for op in tops {
            if skipped.contains(&op) {
                continue;
            }
            if op.is("sdfg.access") {
                if let Some(data) = op.operands().first() {
                    self.last.insert(*data, op);
                }
            }
            self.tops.push(op);
        }
    }

    /// The summary of the state after it absorbed the state `theirs`
    /// summarises, as `plan` planned it: the merged reads are gone and
    /// their edges leave the nodes they merged into.
    fn absorb(&mut self, theirs: Summary<'a>, plan: Plan<'a>) {
        let merged: HashSet<Op<'a>> = plan.merges.iter().map(|(read, _)| *read).collect();
        self.append(theirs.tops, &merged);
        self.index.extend(
            theirs
                .index
                .into_iter()
                .filter(|(op, _)| !merged.contains(op)),
        );
        for (key, list) in theirs.effects {
            self.effects.entry(key).or_default().extend(list);
        }
        for (source, targets) in plan.successors {
            self.successors.entry(source).or_default().extend(targets);
        }
    }
}

/// How a state absorbs the next: the access nodes of the second state
/// that merge into nodes of the first, and the second state's dataflow
/// edges with the merged nodes' edges leaving the nodes they merge into.
struct Plan<'a> {
    merges: Vec<(Op<'a>, Op<'a>)>,
    successors: HashMap<Op<'a>, Vec<Op<'a>>>,
}

/// Checks that the state `b` summarises can follow `first` (summarised by
/// `a`) in one state, and plans the merge. `asm` keeps the size
/// assumptions once made.
fn plan<'a>(
    a: &Summary<'a>,
    b: &Summary<'a>,
    first: Op<'a>,
    asm: &mut Option<Assumptions>,
) -> Result<Plan<'a>, String> {
    let mut merged: HashMap<Op<'a>, Op<'a>> = HashMap::new();
    for &op in &b.tops {
        let operands = op.operands();
        if !op.is("sdfg.access") || operands.len() != 1 {
            continue;
        }
        if matches!(
            container_kind(operands[0]),
            Some(ContainerKind::View | ContainerKind::Reference) | None
        ) {
            continue;
        }
        if let Some(&target) = a.last.get(&operands[0]) {
            if target.results()[0].ty().ptr == op.results()[0].ty().ptr {
                merged.insert(op, target);
            }
        }
    }
    let mut successors: HashMap<Op<'a>, Vec<Op<'a>>> = HashMap::new();
    for (source, targets) in &b.successors {
        let source = merged.get(source).unwrap_or(source);
        successors
            .entry(*source)
            .or_default()
            .extend(targets.iter().filter(|t| !merged.contains_key(t)));
    }
    let mut reached: HashMap<Op<'a>, HashSet<Op<'a>>> = HashMap::new();
    // The symbols are the same in both states (the edge assigns
    // nothing), so subsets compare as they are written.
    for (key, b_list) in &b.effects {
        let mut candidates: Vec<&Effect<'a>> = Vec::new();
        if *key == Key::Any {
            candidates.extend(a.effects.values().flatten());
        } else {
            for k in [*key, Key::Any] {
                candidates.extend(a.effects.get(&k).into_iter().flatten());
            }
        }
        for x in &candidates {
            for y in b_list {
                if !(x.write || y.write) {
                    continue;
                }
                let set = reached
                    .entry(x.op)
                    .or_insert_with(|| reachable(x.op, [&a.successors, &successors]));
                if set.contains(&y.op) {
                    continue;
                }
                let asm = asm.get_or_insert_with(|| {
                    crate::enclosing_sdfg(first)
                        .map(size_assumptions)
                        .unwrap_or_default()
                });
                if !disjoint(x, y, asm) {
                    return Err(format!(
                        "'{}' of the first state would not be ordered before '{}' of the second, which {} the same data",
                        x.op.name(),
                        y.op.name(),
                        if x.write && y.write { "both write" } else { "read and write" }
                    ));
                }
            }
        }
    }
    let merges = b
        .tops
        .iter()
        .filter_map(|read| merged.get(read).map(|last| (*read, *last)))
        .collect();
    Ok(Plan { merges, successors })
}

/// Every op reachable from `start` along the edges of `graphs`.
fn reachable<'a>(start: Op<'a>, graphs: [&HashMap<Op<'a>, Vec<Op<'a>>>; 2]) -> HashSet<Op<'a>> {
    let mut seen = HashSet::new();
    let mut stack = vec![start];
    while let Some(op) = stack.pop() {
        for next in graphs.iter().filter_map(|g| g.get(&op)).flatten() {
            if seen.insert(*next) {
                stack.push(*next);
            }
        }
    }
    seen
}
