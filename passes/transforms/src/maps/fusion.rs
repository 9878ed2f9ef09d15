//! `sdfg-map-fusion`: DaCe's `MapFusion`: two maps over the same
//! iteration space become one, so that what the first writes for one
//! iteration is read by the second in the same iteration, from a local
//! buffer instead of a whole transient array.
//!
//! Two cases fuse, both between maps in the same scope (a state, or the
//! region of the same map):
//!
//! - **Producer and consumer.** The second map reads what the first one
//!   writes, through an access node of a transient (the intermediate).
//!   Each iteration of the second map must read only what the same
//!   iteration of the first one wrote: its reads, with its parameters
//!   named as the first map's, must lie inside the box the first map's
//!   exit writes for that iteration (`T[i]`, or `T[i, 0:M]` for an inner
//!   map writing a row). The box becomes a local transient of the box's
//!   size (a scalar for one element), written inside the fused map and
//!   read by what the second map did; every memlet on the way moves into
//!   the local's coordinates. Where the transient is also read elsewhere
//!   (another node, another state, an inter-state edge), the fused map
//!   still writes it (DaCe's "shared" intermediate); otherwise it goes.
//! - **Siblings** (`siblings=true`): two maps with no path between them
//!   that read the same access node become one map whose body is both
//!   bodies (DaCe's horizontal fusion), so the common input is read once
//!   per iteration while it is in cache.
//!
//! ```mlir
//! // before
//! %r = sdfg.map "f" ["i" = "0:N"] ins("x" = %a["0:N"] ...) outs("y" ...) {
//!   %t = sdfg.tasklet ... ins("v" = %x["i"] ...) outs("o" : f64) { ... }
//!   sdfg.exit("y" = %t["i"] : f64)
//! }
//! %tmp = sdfg.access %T writes(%r["0:N"] ...)
//! %s = sdfg.map "g" ["j" = "0:N"] ins("x" = %tmp["0:N"] ...) outs("y" ...) {
//!   %u = sdfg.tasklet ... ins("v" = %x["j"] ...) outs("o" : f64) { ... }
//!   sdfg.exit("y" = %u["j"] : f64)
//! }
//! %b = sdfg.access %B writes(%s["0:N"] ...)
//! // after
//! %f = sdfg.map "f" ["i" = "0:N"] ins("x" = %a["0:N"] ...) outs("y" ...) {
//!   %t = sdfg.tasklet ... ins("v" = %x["i"] ...) outs("o" : f64) { ... }
//!   %l = sdfg.access %T_local writes(%t["0"] : f64) : !sdfg.scalar<f64>
//!   %u = sdfg.tasklet ... ins("v" = %l["0"] ...) outs("o" : f64) { ... }
//!   sdfg.exit("y" = %u["i"] : f64)
//! }
//! %b = sdfg.access %B writes(%f["0:N"] ...)
//! ```
//!
//! The maps must have the same ranges, up to the order of their
//! parameters (the second map's parameters are renamed to the first's),
//! and no dynamic range inputs. They do not fuse where the second map
//! writes a container the first one reads or writes, or the first one
//! writes a container the second one reads other than through the
//! intermediate (the fused map would reorder those accesses across
//! iterations), unless the first only reads what the second writes and
//! every access of that container in both maps names its iteration (one
//! dimension per parameter that is exactly that parameter: a row
//! `D[i, :]` read by the first and updated in place by the second); where
//! the second map depends on the first other than through a transient
//! access node; where a write of the intermediate is
//! dynamic or resolves conflicts; or where the second map's body names a
//! parameter of the first that it does not get by renaming.
//!
//! The fused map sits where the second map was; the outer memlets stay
//! as they were (each map's inputs and outputs keep theirs), so nothing
//! around it is re-propagated. Options: `siblings=true|false` (default
//! false) and the targeting options of [`super::Target`] (the first map
//! is the target).

use super::{params, Target};
use crate::memlet_paths::Moves;
use mlir_sys::MlirAttribute;
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::{array_of, Op, Val};
use sdfg_dialect::layout::layout;
use sdfg_dialect::{container_name, memlet_at, rewrite, Memlet, Wcr};
use sdfg_symbolic::{parse_subset, Dim, Embedding, Expr, Range, Subset};
use std::collections::{HashMap, HashSet};

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-map-fusion",
    summary: "Fuse a map with the map that reads what it writes through a transient, or with a sibling map (DaCe's MapFusion); options siblings, label, level, param",
    op_name: "builtin.module",
    create: || Box::new(MapFusion::default()),
};

/// The pass and its options.
#[derive(Clone, Debug, Default)]
pub struct MapFusion {
    /// Whether sibling maps (reading a common access node) fuse too.
    pub siblings: bool,
    /// The first maps of the fusions.
    pub target: Target,
}

const PASS: &str = "sdfg-map-fusion";

impl RustPass for MapFusion {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        let mut siblings = false;
        self.target = Target::parse_with(
            PASS,
            options,
            "siblings, label, level and param",
            |key, value| {
                if key != "siblings" {
                    return Ok(false);
                }
                siblings = crate::bool_option(PASS, key, value)?;
                Ok(true)
            },
        )?;
        self.siblings = siblings;
        Ok(())
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        // Greedily, until nothing fuses: each fusion erases maps, so the
        // search starts over from a fresh list.
        while self
            .target
            .maps(module)
            .into_iter()
            .any(|m| candidates(m, self.siblings).any(|s| fuse_maps(m, s).is_ok()))
        {}
        for map in self.target.maps(module) {
            let why = candidates(map, self.siblings)
                .map(|s| plan(map, s).err().unwrap_or_default())
                .next()
                .unwrap_or_else(|| "no map in its scope reads what it writes".into());
            self.target.report(PASS, map, &why);
        }
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(self.clone())
    }
}

/// The maps that might fuse after `first`: those reading an access node
/// that `first` writes and, with `siblings`, those reading an access node
/// that `first` reads.
fn candidates(first: Op<'_>, siblings: bool) -> impl Iterator<Item = Op<'_>> {
    let mut nodes: Vec<Val> = first
        .results()
        .into_iter()
        .flat_map(|r| r.uses())
        .filter(|(user, _)| user.is("sdfg.access"))
        .map(|(user, _)| user.results()[0])
        .collect();
    if siblings {
        nodes.extend(first.operand_segment(0));
    }
    let mut seen = HashSet::new();
    nodes
        .into_iter()
        .flat_map(|n| n.uses())
        .map(|(user, _)| user)
        .filter(move |u| u.is("sdfg.map") && *u != first && u.parent() == first.parent())
        .filter(move |u| seen.insert(*u))
}

/// One transient access node through which the second map reads what
/// the first one writes.
struct Intermediate<'a> {
    /// The access node.
    node: Op<'a>,
    /// The first map's outputs that write it.
    outputs: Vec<usize>,
    /// The second map's inputs that read it.
    inputs: Vec<usize>,
    /// The box one iteration of the first map writes.
    boxed: Subset,
    /// Whether the transient is read elsewhere, so the fused map still
    /// writes it.
    shared: bool,
    /// The first map's exit entries that write the box: position, value
    /// and memlet.
    entries: Vec<(usize, Val<'a>, Memlet)>,
    /// The local buffer's type, and the embedding of the transient's
    /// coordinates into it.
    local: Option<(mlir_sys::MlirType, Embedding)>,
    /// The access node of the local buffer that an earlier fusion made,
    /// where the first map copies the box out of one.
    reused: Option<Val<'a>>,
}

/// A fusion that applies: what [`plan`] found.
struct Plan<'a> {
    first: Op<'a>,
    second: Op<'a>,
    /// The second map's parameters in terms of the first's.
    rename: HashMap<String, Expr>,
    intermediates: Vec<Intermediate<'a>>,
    /// The ops between the maps that depend on the first one, in order:
    /// they move after the fused map.
    dependents: Vec<Op<'a>>,
}

/// Fuses `second` into `first` (see the module comment); returns the
/// fused map, or why nothing changed.
pub fn fuse_maps<'a>(first: Op<'a>, second: Op<'a>) -> Result<Op<'a>, String> {
    let plan = plan(first, second)?;
    apply(plan)
}

/// The position of each op of a block.
fn positions<'a>(ops: &[Op<'a>]) -> HashMap<Op<'a>, usize> {
    ops.iter().enumerate().map(|(k, o)| (*o, k)).collect()
}

/// Checks that `second` fuses into `first` and plans how.
fn plan<'a>(first: Op<'a>, second: Op<'a>) -> Result<Plan<'a>, String> {
    if !first.is("sdfg.map") || !second.is("sdfg.map") {
        return Err("only maps fuse".into());
    }
    let parent = first.parent().ok_or("the map has no parent")?;
    if second.parent() != Some(parent) {
        return Err("the maps are not in the same scope".into());
    }
    if !first.operand_segment(1).is_empty() || !second.operand_segment(1).is_empty() {
        return Err("a map has dynamic range inputs".into());
    }
    let ops = parent.region_ops(0);
    let at = positions(&ops);
    let (p1, p2) = (at[&first], at[&second]);
    if p1 > p2 {
        return Err("the second map comes first".into());
    }
    let rename = match_params(first, second)?;
    // The ops between the maps that depend on the first.
    let mut dependents: Vec<Op> = Vec::new();
    let mut reached: HashSet<Op> = HashSet::from([first]);
    for op in &ops[p1 + 1..p2] {
        if op
            .operands()
            .iter()
            .any(|v| v.defining_op().is_some_and(|d| reached.contains(&d)))
        {
            reached.insert(*op);
            dependents.push(*op);
        }
    }
    let sdfg = crate::enclosing_sdfg(first).ok_or("the map is in no SDFG")?;
    // Every dependence of the second map on the first goes through a
    // transient access node the first map alone writes: an input that
    // reads it, or an ordering edge to it or to the first map.
    let mut intermediates: Vec<Intermediate> = Vec::new();
    let inputs = second.operand_segment(0);
    let after = second.operand_segment(2);
    let read = inputs.iter().enumerate().map(|(k, v)| (Some(k), *v));
    let waits = after.iter().map(|v| (None, *v));
    for (input, value) in read.chain(waits) {
        let Some(node) = value.defining_op().filter(|d| reached.contains(d)) else {
            continue;
        };
        if node == first && input.is_none() {
            continue;
        }
        let index = match intermediates.iter().position(|m| m.node == node) {
            Some(i) => i,
            None if input.is_some() => {
                intermediates.push(intermediate(first, second, node, sdfg)?);
                intermediates.len() - 1
            }
            None => {
                return Err(format!(
                    "the second map waits for '{}' after the first map",
                    node.name()
                ))
            }
        };
        intermediates[index].inputs.extend(input);
    }
    for m in &mut intermediates {
        check_reads(first, second, m, &rename)?;
        prepare(first, second, m)?;
    }
    check_conflicts(first, second, &intermediates, &rename)?;
    Ok(Plan {
        first,
        second,
        rename,
        intermediates,
        dependents,
    })
}

/// The second map's parameters in terms of the first's: each takes the
/// first's parameter with the same range, in order of preference the one
/// at the same position. Fails where the ranges differ, or where the
/// second map's body names a first parameter it would capture.
fn match_params(first: Op<'_>, second: Op<'_>) -> Result<HashMap<String, Expr>, String> {
    let (p1, p2) = (params(first), params(second));
    if p1.len() != p2.len() {
        return Err("the maps have different numbers of parameters".into());
    }
    let range = |text: &str| -> Result<Range, String> {
        parse_subset(text)
            .map_err(|e| format!("range `{text}`: {e}"))?
            .ranges()
            .first()
            .cloned()
            .ok_or_else(|| format!("range `{text}` is empty"))
    };
    let same = |a: &Range, b: &Range| {
        [(&a.start, &b.start), (&a.end, &b.end), (&a.step, &b.step)]
            .iter()
            .all(|(x, y)| Expr::sub(x, y).as_int() == Some(0))
    };
    let firsts: Vec<Range> = p1.iter().map(|(_, r)| range(r)).collect::<Result<_, _>>()?;
    let mut taken = vec![false; p1.len()];
    let mut rename = HashMap::new();
    for (k, (name, text)) in p2.iter().enumerate() {
        let r = range(text)?;
        let j = std::iter::once(k)
            .chain(0..p1.len())
            .find(|&j| !taken[j] && same(&firsts[j], &r))
            .ok_or_else(|| format!("the ranges differ (`{name}` = `{text}`)"))?;
        taken[j] = true;
        if p1[j].0 != *name {
            rename.insert(name.clone(), Expr::symbol(&p1[j].0));
        }
    }
    let own: HashSet<&str> = p2.iter().map(|(p, _)| p.as_str()).collect();
    // What the second map's ops name (its own parameters are `own`).
    let named = crate::mention_counts(second);
    if let Some((p, _)) = p1
        .iter()
        .find(|(p, _)| named.contains_key(p) && !own.contains(p.as_str()))
    {
        return Err(format!(
            "the second map's body names `{p}`, a parameter of the first"
        ));
    }
    Ok(rename)
}

/// The intermediate `node` between `first` and `second`, checked: an access node of a transient that
/// only `first` writes, without conflict resolution, dynamic volumes or
/// bindings.
fn intermediate<'a>(
    first: Op<'a>,
    second: Op<'a>,
    node: Op<'a>,
    sdfg: Op<'a>,
) -> Result<Intermediate<'a>, String> {
    let what = || {
        node.operands()
            .first()
            .and_then(|d| container_name(*d))
            .unwrap_or_else(|| "?".into())
    };
    if !node.is("sdfg.access") {
        return Err(format!(
            "the second map depends on the first through '{}'",
            node.name()
        ));
    }
    let data = node.operands()[0];
    let alloc = data
        .defining_op()
        .filter(|a| a.is("sdfg.alloc") && !crate::outlives_call(*a))
        .ok_or_else(|| format!("`{}` between the maps is not a transient", what()))?;
    if !node.operand_segment(2).is_empty() {
        return Err(format!("`{}` between the maps is bound", what()));
    }
    let writes = node.operand_segment(1);
    let mut outputs = Vec::new();
    for w in &writes {
        match w.result_number() {
            Some(n) if w.defining_op() == Some(first) => outputs.push(n),
            _ => {
                return Err(format!(
                    "`{}` is written by more than the first map",
                    what()
                ))
            }
        }
    }
    let exit = exit_of(first)?;
    let names = first.str_array_attr("out_names");
    let connectors: Vec<&str> = outputs
        .iter()
        .filter_map(|n| names.get(*n).copied())
        .collect();
    let mut boxed: Option<Subset> = None;
    for (k, memlet) in exit_entries(exit) {
        if !connectors.contains(&exit.str_array_attr("names")[k]) {
            continue;
        }
        // A copy out of a local of an earlier fusion is a write too.
        let from_local = exit.operands()[k]
            .defining_op()
            .is_some_and(|d| d.is("sdfg.access"));
        if memlet.dynamic || memlet.wcr != Wcr::None || memlet.other.is_some() != from_local {
            return Err(format!(
                "the first map's write of `{}` is dynamic or resolves conflicts",
                what()
            ));
        }
        // A copy's subset is over its source, `->` over the transient.
        let written = match (&memlet.other, from_local) {
            (Some(other), true) => other,
            _ => &memlet.subset,
        };
        let subset = parse_subset(written).map_err(|e| e.to_string())?;
        match &boxed {
            None => boxed = Some(subset),
            Some(b) if b.to_string() == subset.to_string() => {}
            Some(_) => {
                return Err(format!(
                    "the first map writes `{}` in more than one box per iteration",
                    what()
                ))
            }
        }
    }
    let boxed = boxed.ok_or("the first map's exit does not write the intermediate")?;
    if boxed.ranges().iter().any(|r| r.step.as_int() != Some(1)) {
        return Err(format!("the first map writes `{}` with a stride", what()));
    }
    let name = alloc.str_attr("name").unwrap_or_default();
    let others = data.uses().len() > 1
        || writes.iter().any(|w| w.uses().len() > 1)
        || node.results()[0].uses().iter().any(|(u, _)| *u != second)
        // Last, as it reads the whole SDFG: a condition or assignment
        // that names the transient.
        || crate::mentioned_names(sdfg).contains(name);
    Ok(Intermediate {
        node,
        outputs,
        inputs: Vec::new(),
        boxed,
        shared: others,
        entries: Vec::new(),
        local: None,
        reused: None,
    })
}

/// A map's `sdfg.exit`.
fn exit_of(map: Op<'_>) -> Result<Op<'_>, String> {
    map.region_ops(0)
        .into_iter()
        .find(|o| o.is("sdfg.exit"))
        .ok_or_else(|| "the map has no exit".into())
}

/// An exit's entries: position and memlet.
fn exit_entries(exit: Op<'_>) -> impl Iterator<Item = (usize, Memlet)> + '_ {
    exit.array_attr("memlets")
        .into_iter()
        .enumerate()
        .filter_map(|(k, a)| Memlet::from_attr(a).map(|m| (k, m)))
}

/// Checks that what the second map reads of the intermediate, renamed,
/// lies in the box one iteration of the first map writes, and that the
/// box's size does not change between iterations.
fn check_reads(
    first: Op<'_>,
    second: Op<'_>,
    m: &Intermediate<'_>,
    rename: &HashMap<String, Expr>,
) -> Result<(), String> {
    let asm = super::assumptions_inside(first);
    let mut scope_params = HashSet::new();
    let mut at = Some(first);
    while let Some(map) = at {
        scope_params.extend(params(map).into_iter().map(|(p, _)| p));
        at = super::enclosing_map(map);
    }
    for r in m.boxed.ranges() {
        if r.size()
            .free_symbols()
            .iter()
            .any(|s| scope_params.contains(s))
        {
            return Err(format!(
                "the box `{}` the first map writes changes size between iterations",
                m.boxed
            ));
        }
    }
    let args = second.region_args(0);
    for &k in &m.inputs {
        for (user, operand) in args[k].uses() {
            let memlet =
                memlet_at(user, operand).ok_or("a read of the intermediate has no memlet")?;
            let read = parse_subset(&memlet.subset)
                .map_err(|e| e.to_string())?
                .substitute(rename);
            let inside = read.dims() == m.boxed.dims()
                && read.ranges().iter().zip(m.boxed.ranges()).all(|(r, b)| {
                    asm.prove_nonnegative(&Expr::sub(&r.min_element(), &b.start))
                        && asm.prove_nonnegative(&Expr::sub(&b.max_element(), &r.max_element()))
                });
            if !inside {
                return Err(format!(
                    "the second map reads `{read}` where one iteration of the first writes `{}`",
                    m.boxed
                ));
            }
        }
    }
    Ok(())
}

/// The containers behind `value` (an access node's, or through the
/// inputs of the scopes around); `None` where it is not known.
fn container_of(value: Val<'_>) -> Option<Val<'_>> {
    if let Some(op) = value.defining_op() {
        return op.is("sdfg.access").then(|| op.operands()[0]);
    }
    let (owner, k) = value.block_arg()?;
    if owner.is("sdfg.sdfg") {
        return Some(value);
    }
    owner
        .is("sdfg.map")
        .then(|| owner.operands().get(k).copied())
        .flatten()
        .and_then(container_of)
}

/// The containers a map's outputs are written to: the access nodes they
/// feed, or through the exits of the scopes around.
fn written_by(map: Op<'_>) -> Option<Vec<Val<'_>>> {
    let mut out = Vec::new();
    for result in map.results() {
        written_from(result, &mut out)?;
    }
    Some(out)
}

fn written_from<'a>(value: Val<'a>, out: &mut Vec<Val<'a>>) -> Option<()> {
    for (user, operand) in value.uses() {
        match user.name() {
            "sdfg.access" => out.push(user.operands()[0]),
            "sdfg.exit" => {
                let scope = user.parent()?;
                let name = user.str_array_attr("names").get(operand).copied()?;
                let k = scope
                    .str_array_attr("out_names")
                    .iter()
                    .position(|n| *n == name)?;
                written_from(*scope.results().get(k)?, out)?;
            }
            _ => return None,
        }
    }
    Some(())
}

/// Checks that fusing reorders no two accesses of one container across
/// iterations (see the module comment): the second map writes nothing the
/// first writes, and reads nothing it writes other than through the
/// intermediates; what it writes and the first reads, both access
/// iteration by iteration ([`aligned`]).
fn check_conflicts<'a>(
    first: Op<'a>,
    second: Op<'a>,
    via: &[Intermediate<'a>],
    rename: &HashMap<String, Expr>,
) -> Result<(), String> {
    let unknown = || "a container the maps access is not known".to_string();
    let reads = |map: Op<'a>, skip: &[usize]| -> Result<Vec<Val<'a>>, String> {
        map.operand_segment(0)
            .into_iter()
            .enumerate()
            .filter(|(k, _)| !skip.contains(k))
            .map(|(_, v)| container_of(v).ok_or_else(unknown))
            .collect()
    };
    let skipped: Vec<usize> = via.iter().flat_map(|m| m.inputs.iter().copied()).collect();
    let (r1, r2) = (reads(first, &[])?, reads(second, &skipped)?);
    let (w1, w2) = (
        written_by(first).ok_or_else(unknown)?,
        written_by(second).ok_or_else(unknown)?,
    );
    let name = |v: &Val| container_name(*v).unwrap_or_else(|| "?".into());
    // Only a container the first map reads and the second writes may be
    // aligned: in the fused iteration the first's reads come before the
    // second's writes, as they did. Two writes of one element in one
    // iteration would have no order (both reach the exit), and a read of
    // what the first map wrote would depend on where its store lands.
    if let Some(c) = w2
        .iter()
        .find(|c| w1.contains(c) || (r1.contains(c) && !aligned(first, second, **c, rename)))
    {
        return Err(format!(
            "the second map writes `{}`, which the first map accesses",
            name(c)
        ));
    }
    if let Some(c) = w1.iter().find(|c| r2.contains(c)) {
        return Err(format!(
            "the second map reads `{}`, which the first map writes, other than through a transient",
            name(c)
        ));
    }
    Ok(())
}

/// Whether every access of `container` in both maps names the iteration
/// it belongs to: there is one dimension per parameter of the (first)
/// map where every memlet on the container inside either map is exactly
/// that parameter (`dcol[i, j, k - 1]` read and `dcol[i, j, k]` written
/// over `i, j`). Different iterations then touch different elements, and
/// each element's accesses keep their order in the fused map: the first
/// map's, then the second's, inside the one iteration that touches it.
fn aligned(
    first: Op<'_>,
    second: Op<'_>,
    container: Val<'_>,
    rename: &HashMap<String, Expr>,
) -> bool {
    let names: Vec<String> = params(first).into_iter().map(|(p, _)| p).collect();
    let mut subsets = Vec::new();
    for (map, renaming) in [(first, &HashMap::new()), (second, rename)] {
        match container_subsets(map, container) {
            Some(list) => subsets.extend(list.iter().map(|s| s.substitute(renaming))),
            None => return false,
        }
    }
    let Some(sample) = subsets.first() else {
        return false;
    };
    let is_point = |r: &Range, p: &str| {
        r.size().as_int() == Some(1) && Expr::sub(&r.start, &Expr::symbol(p)).as_int() == Some(0)
    };
    names.iter().all(|p| {
        sample
            .ranges()
            .iter()
            .position(|r| is_point(r, p))
            .is_some_and(|d| {
                subsets
                    .iter()
                    .all(|s| s.ranges().get(d).is_some_and(|r| is_point(r, p)))
            })
    })
}

/// The subsets of `container` that the memlets inside `map` access: those
/// on the uses of its inputs from the container and on its exit's writes
/// into it. `None` where one is not known (a use without a memlet, an
/// output that reaches the container other than through an access node).
fn container_subsets(map: Op<'_>, container: Val<'_>) -> Option<Vec<Subset>> {
    let mut out = Vec::new();
    let args = map.region_args(0);
    for (k, input) in map.operand_segment(0).into_iter().enumerate() {
        if container_of(input) != Some(container) {
            continue;
        }
        for (user, operand) in args.get(k)?.uses() {
            out.push(parse_subset(&memlet_at(user, operand)?.subset).ok()?);
        }
    }
    let exit = map
        .region_ops(0)
        .into_iter()
        .rev()
        .find(|o| o.is("sdfg.exit"))?;
    let exit_names = exit.str_array_attr("names");
    for (name, result) in map
        .str_array_attr("out_names")
        .into_iter()
        .zip(map.results())
    {
        let mut reached = Vec::new();
        written_from(result, &mut reached)?;
        if !reached.contains(&container) {
            continue;
        }
        if reached.iter().any(|c| *c != container) {
            return None;
        }
        for (operand, _) in exit_names.iter().enumerate().filter(|(_, n)| **n == name) {
            // The destination side, where the memlet has two.
            let memlet = memlet_at(exit, operand)?;
            out.push(parse_subset(&memlet.other.unwrap_or(memlet.subset)).ok()?);
        }
    }
    Some(out)
}

/// A connector name not in `taken`: `name`, or `name_1`, `name_2`, ...
fn unique_connector(name: &str, taken: &mut HashSet<String>) -> String {
    super::first_free((1..).map(|k| format!("{name}_{k}")), name, taken)
}

/// The local buffer for one iteration's box of the intermediate: its type
/// (a scalar for one element, else an array of the box's extents other
/// than 1) and the embedding of the transient's coordinates into it.
fn local_buffer<'a>(
    first: Op<'a>,
    second: Op<'a>,
    m: &Intermediate<'a>,
) -> Result<(mlir_sys::MlirType, Embedding), String> {
    let data = m.node.operands()[0];
    let layout = layout(data.ty())?;
    let elem = if layout.elem.unsigned {
        format!("u{}", layout.elem.ty)
    } else {
        layout.elem.ty.clone()
    };
    // Each dimension of the box with an extent other than 1 is one of
    // the local's, moved to start at 0; the others are dropped.
    let mut dims = Vec::new();
    let mut sizes = Vec::new();
    for (k, r) in m.boxed.ranges().iter().enumerate() {
        if r.size().as_int() != Some(1) {
            dims.push(Dim::Moved(k, Expr::neg(&r.start)));
            sizes.push(format!("\"{}\"", r.size()));
        }
    }
    // A nested SDFG or a library node on the way keeps its argument's
    // shape, an array: the local is one too.
    let opaque = |op: Op<'_>| op.is("sdfg.nested") || op.is("sdfg.library");
    let through_opaque = m
        .entries
        .iter()
        .filter_map(|(_, v, _)| v.defining_op())
        .any(|d| opaque(d) || d.descendants().into_iter().any(opaque))
        || m.inputs
            .iter()
            .any(|k| reaches(second.region_args(0)[*k], &opaque));
    let text = if dims.is_empty() && !through_opaque {
        dims.push(Dim::Fixed(Expr::int(0)));
        format!("!sdfg.scalar<{elem}>")
    } else if dims.is_empty() {
        dims.push(Dim::Fixed(Expr::int(0)));
        format!("!sdfg.array<{elem} [\"1\"]>")
    } else {
        format!("!sdfg.array<{elem} [{}]>", sizes.join(", "))
    };
    let ty =
        rewrite::parse_type(first, &text).ok_or_else(|| format!("type `{text}` does not parse"))?;
    Ok((ty, Embedding::new(dims, m.boxed.dims())))
}

/// Finds the first map's exit entries that write the intermediate and
/// its local buffer, and checks that every memlet on the way moves into
/// the local's coordinates (planning the moves without making them), so
/// that [`apply`] does not fail halfway.
fn prepare<'a>(first: Op<'a>, second: Op<'a>, m: &mut Intermediate<'a>) -> Result<(), String> {
    let exit = exit_of(first)?;
    let outs = first.str_array_attr("out_names");
    let connectors: Vec<&str> = m
        .outputs
        .iter()
        .filter_map(|n| outs.get(*n).copied())
        .collect();
    let names = exit.str_array_attr("names");
    m.entries = exit_entries(exit)
        .filter(|(k, _)| names.get(*k).is_some_and(|n| connectors.contains(n)))
        .map(|(k, memlet)| (k, exit.operands()[k], memlet))
        .collect();
    let (ty, embedding) = local_buffer(first, second, m)?;
    let mut moves = Moves::default();
    moves.into_type(ty);
    if let [(_, value, memlet)] = m.entries.as_slice() {
        if value.defining_op().is_some_and(|d| d.is("sdfg.access")) {
            let written = memlet.other.as_deref().unwrap_or_default();
            if value.ty().ptr != ty.ptr || memlet.subset != embedding.apply(written)? {
                return Err("the first map copies the box out of a buffer of another shape".into());
            }
            m.reused = Some(*value);
        }
    }
    // An inner scope's output moves into the local's coordinates, which
    // its other readers would not follow. A reused buffer does not move.
    if m.reused.is_none()
        && m.entries.iter().any(|(_, v, _)| {
            v.uses().len() > 1 && v.defining_op().is_some_and(|d| !d.is("sdfg.tasklet"))
        })
    {
        return Err(
            "an inner scope's output that writes the intermediate has other readers".into(),
        );
    }
    for (_, value, memlet) in m.entries.iter().filter(|_| m.reused.is_none()) {
        embedding.apply(&memlet.subset)?;
        if let (Some(producer), Some(n)) = (value.defining_op(), value.result_number()) {
            moves.writes(producer, n, &embedding)?;
        }
    }
    let args = second.region_args(0);
    for &k in &m.inputs {
        moves.reads(args[k], &embedding)?;
    }
    m.local = Some((ty, embedding));
    Ok(())
}

/// Whether a reader of `value`, or through the maps that read it a
/// reader inside them, is an op `matches` holds for.
fn reaches(value: Val<'_>, matches: &dyn Fn(Op<'_>) -> bool) -> bool {
    value.uses().into_iter().any(|(user, operand)| {
        matches(user)
            || (user.is("sdfg.map")
                && operand < user.operand_segment(0).len()
                && reaches(user.region_args(0)[operand], matches))
    })
}

/// Applies a planned fusion; returns the fused map.
fn apply(plan: Plan<'_>) -> Result<Op<'_>, String> {
    let Plan {
        first,
        second,
        rename,
        intermediates,
        dependents,
    } = plan;
    let sdfg = crate::enclosing_sdfg(first).ok_or("the map is in no SDFG")?;
    let mut taken = crate::mention_counts(sdfg)
        .into_keys()
        .collect::<HashSet<_>>();
    let (exit1, exit2) = (exit_of(first)?, exit_of(second)?);
    let dropped: HashSet<usize> = intermediates
        .iter()
        .filter(|m| !m.shared)
        .flat_map(|m| m.outputs.iter().copied())
        .collect();
    let read_via: HashSet<usize> = intermediates
        .iter()
        .flat_map(|m| m.inputs.iter().copied())
        .collect();
    // The fused map's connectors.
    let mut in_taken = HashSet::new();
    let mut in_names: Vec<String> = Vec::new();
    let mut in_memlets: Vec<MlirAttribute> = Vec::new();
    let mut inputs: Vec<Val> = Vec::new();
    for (map, skip) in [(first, &HashSet::new()), (second, &read_via)] {
        let names = map.str_array_attr("in_names");
        let memlets = map.array_attr("in_memlets");
        for (k, value) in map.operand_segment(0).into_iter().enumerate() {
            if skip.contains(&k) {
                continue;
            }
            inputs.push(value);
            in_names.push(unique_connector(
                names.get(k).copied().unwrap_or("in"),
                &mut in_taken,
            ));
            in_memlets.extend(memlets.get(k).copied());
        }
    }
    let mut out_taken = HashSet::new();
    let mut out_names: Vec<String> = Vec::new();
    let mut results: Vec<Val> = Vec::new();
    let mut renamed_out: HashMap<(Op, String), String> = HashMap::new();
    for map in [first, second] {
        for (k, result) in map.results().into_iter().enumerate() {
            if map == first && dropped.contains(&k) {
                continue;
            }
            let old = map.str_array_attr("out_names")[k].to_string();
            let new = unique_connector(&old, &mut out_taken);
            renamed_out.insert((map, old), new.clone());
            out_names.push(new);
            results.push(result);
        }
    }
    let removed: HashSet<Op> = intermediates.iter().map(|m| m.node).collect();
    let mut after: Vec<Val> = Vec::new();
    for v in first
        .operand_segment(2)
        .into_iter()
        .chain(second.operand_segment(2))
    {
        let from_first = v
            .defining_op()
            .is_some_and(|d| d == first || removed.contains(&d));
        if !from_first && !after.contains(&v) {
            after.push(v);
        }
    }

    // The fused map, where the second one was.
    let mut attributes: Vec<(&str, MlirAttribute)> = first
        .attributes()
        .into_iter()
        .filter(|(n, _)| {
            !matches!(
                *n,
                "operandSegmentSizes" | "in_names" | "in_memlets" | "out_names"
            )
        })
        .collect();
    let ctx = first.context();
    let strs = |v: &[String]| {
        let refs: Vec<&str> = v.iter().map(String::as_str).collect();
        rewrite::str_array_attr(first, &refs)
    };
    attributes.push((
        "operandSegmentSizes",
        rewrite::segment_sizes(first, &[inputs.len() as i32, 0, after.len() as i32]),
    ));
    if !inputs.is_empty() {
        attributes.push(("in_names", strs(&in_names)));
        attributes.push(("in_memlets", array_of(ctx, &in_memlets)));
    }
    if !results.is_empty() {
        attributes.push(("out_names", strs(&out_names)));
    }
    let operands: Vec<Val> = inputs.iter().chain(&after).copied().collect();
    let result_types: Vec<_> = results.iter().map(|r| r.ty()).collect();
    let arg_types: Vec<_> = inputs.iter().map(|v| v.ty()).collect();
    let fused = rewrite::create_op_before(
        second,
        "sdfg.map",
        &operands,
        &attributes,
        &result_types,
        Some(&arg_types),
    )
    .ok_or("the fused map could not be made")?;

    // The bodies, the second one renamed, with the block arguments of
    // the fused map.
    for op in second.descendants() {
        crate::constant_propagation::rewrite_dataflow(op, &rename);
    }
    let args = fused.region_args(0);
    let mut next = 0;
    for arg in first.region_args(0) {
        rewrite::replace_all_uses(arg, args[next]);
        next += 1;
    }
    let second_args = second.region_args(0);
    for (k, arg) in second_args.iter().enumerate() {
        if !read_via.contains(&k) {
            rewrite::replace_all_uses(*arg, args[next]);
            next += 1;
        }
    }
    for op in first.region_ops(0) {
        rewrite::move_to_end(op, fused);
    }
    let body2: Vec<Op> = second
        .region_ops(0)
        .into_iter()
        .filter(|o| *o != exit2)
        .collect();
    let anchor = body2.first().copied().unwrap_or(exit1);
    for op in &body2 {
        rewrite::move_before(*op, exit1);
    }

    // Each intermediate becomes a local written by the first body and
    // read by the second.
    for m in &intermediates {
        let (Some((ty, embedding)), entries) = (&m.local, &m.entries) else {
            continue;
        };
        if let Some(local_node) = m.reused {
            let mut moves = Moves::default();
            moves.into_type(*ty);
            for &k in &m.inputs {
                moves.reads(second_args[k], embedding)?;
            }
            moves.apply();
            for &k in &m.inputs {
                rewrite::replace_all_uses(second_args[k], local_node);
            }
            continue;
        }
        let base = container_name(m.node.operands()[0]).unwrap_or_else(|| "tmp".into());
        let name = unique_connector(&format!("{base}_local"), &mut taken);
        let local = rewrite::create_alloc(sdfg, &name, *ty).ok_or("the local could not be made")?;
        let mut moves = Moves::default();
        moves.into_type(*ty);
        let mut writes = Vec::new();
        let mut memlets = Vec::new();
        for (_, value, memlet) in entries {
            let mut moved = memlet.clone();
            moved.subset = embedding.apply(&memlet.subset)?;
            memlets.push(moved.to_attr(ctx));
            writes.push(*value);
            if let (Some(producer), Some(n)) = (value.defining_op(), value.result_number()) {
                moves.writes(producer, n, embedding)?;
            }
        }
        for &k in &m.inputs {
            moves.reads(second_args[k], embedding)?;
        }
        let operands: Vec<Val> = std::iter::once(local)
            .chain(writes.iter().copied())
            .collect();
        let node = rewrite::create_op_before(
            anchor,
            "sdfg.access",
            &operands,
            &[
                ("write_memlets", array_of(ctx, &memlets)),
                (
                    "operandSegmentSizes",
                    rewrite::segment_sizes(first, &[1, writes.len() as i32, 0, 0]),
                ),
            ],
            &[*ty],
            None,
        )
        .ok_or("the local's access node could not be made")?;
        moves.apply();
        let local_node = node.results()[0];
        for &k in &m.inputs {
            rewrite::replace_all_uses(second_args[k], local_node);
        }
        // A shared transient is written from the local: a copy of the
        // box out of the fused map (its subset over the local, `->` over
        // the transient).
        if m.shared {
            for (k, _, memlet) in entries {
                rewrite::set_operand(exit1, *k, local_node);
                let copy = Memlet {
                    subset: embedding.apply(&memlet.subset)?,
                    other: Some(memlet.subset.clone()),
                    ..memlet.clone()
                };
                sdfg_dialect::set_memlet_at(exit1, *k, &copy);
            }
        }
    }

    // One exit for both.
    let mut exit_values = Vec::new();
    let mut exit_memlets = Vec::new();
    let mut exit_names = Vec::new();
    for (map, exit) in [(first, exit1), (second, exit2)] {
        let names = exit.str_array_attr("names");
        let memlets = exit.array_attr("memlets");
        for (k, value) in exit.operands().into_iter().enumerate() {
            let Some(new) = renamed_out.get(&(map, names[k].to_string())) else {
                continue;
            };
            exit_values.push(value);
            exit_memlets.push(memlets[k]);
            exit_names.push(new.clone());
        }
    }
    rewrite::create_op_at_end(
        fused,
        "sdfg.exit",
        &exit_values,
        &[
            ("memlets", array_of(ctx, &exit_memlets)),
            ("names", strs(&exit_names)),
        ],
        &[],
    )
    .ok_or("the fused map's exit could not be made")?;
    for (old, new) in results.iter().zip(fused.results()) {
        rewrite::replace_all_uses(*old, new);
    }

    // The ops that depended on the first map follow the fused one.
    let ops = fused.parent().map(|p| p.region_ops(0)).unwrap_or_default();
    let follower = ops
        .iter()
        .position(|o| *o == second)
        .and_then(|k| ops.get(k + 1).copied());
    for op in dependents
        .iter()
        .filter(|d| !intermediates.iter().any(|m| m.node == **d && !m.shared))
    {
        match follower {
            Some(f) => rewrite::move_before(*op, f),
            None => rewrite::move_to_end(*op, fused.parent().ok_or("no parent")?),
        }
    }
    let allocs: Vec<Op> = intermediates
        .iter()
        .filter(|m| !m.shared)
        .filter_map(|m| m.node.operands()[0].defining_op())
        .collect();
    // SAFETY: every result of the old maps and of the dropped access
    // nodes now has no use (their readers were the second map and the
    // old exits, which go first); no handle to them is used afterwards.
    unsafe {
        rewrite::erase(exit1);
        rewrite::erase(second);
        for m in intermediates.iter().filter(|m| !m.shared) {
            rewrite::erase(m.node);
        }
        rewrite::erase(first);
        for alloc in allocs {
            if alloc.results()[0].uses().is_empty() {
                rewrite::erase(alloc);
            }
        }
    }
    Ok(fused)
}
