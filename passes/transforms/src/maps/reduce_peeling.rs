//! `sdfg-reduce-peeling`: the last step of the SC'19 paper's matrix
//! multiplication chain (ReducePeeling). A map that resolves its writes
//! into a transient that a map of the resolution's identity has just
//! filled runs its first iteration of the reduced parameter on its own,
//! writing plainly where the identity was; the identity map goes.
//!
//! ```mlir
//! // before: the accumulator starts at 0, then k adds into it
//! %z = sdfg.map "init_acc" ["a0" = "0:8", "a1" = "0:16"] outs(...) { 0.0 }
//! %i = sdfg.access %acc writes(%z["0:8, 0:16"])
//! %m = sdfg.map "mm" ["k" = "0:K", "i" = "0:8", "j" = "0:16"] ... after(%i) {
//!   ... sdfg.exit ("acc" = %t["i, j", wcr sum] : f64)
//! }
//! %w = sdfg.access %acc writes(%m["0:8, 0:16", wcr sum])
//! // after: k = 0 writes the accumulator, k = 1:K adds into it
//! %p = sdfg.map "mm_peeled" ["k" = "0:1", "i" = "0:8", "j" = "0:16"] ... {
//!   ... sdfg.exit ("acc" = %t["i, j"] : f64)
//! }
//! %i = sdfg.access %acc writes(%p["0:8, 0:16"])
//! %m = sdfg.map "mm" ["k" = "1:K", "i" = "0:8", "j" = "0:16"] ... after(%i) { ... }
//! %w = sdfg.access %acc writes(%m["0:8, 0:16", wcr sum])
//! ```
//!
//! # When the first iteration may replace the identity
//!
//! Adding into the identity is a plain write (`0 + x` is `x`, `1 * x` is
//! `x`) exactly when every element the identity map fills is written once
//! by the first iteration of the reduced parameter `p`, and by nothing
//! else before the rest of the reduction. The pass checks that from the
//! memlets, not from a pattern of node names:
//!
//! - the map has one output, through one exit entry with a sum or
//!   product, into an access node beside the map that nothing else
//!   writes; the map reads nothing of that container;
//! - the exit entry's subset does not move with `p` (`param=NAME`, or the
//!   first parameter it does not mention: the one reduced over), and every
//!   other parameter `q` moves exactly one of its dimensions, as `q + c`
//!   over a width of `q`'s step (one element, or a vector of the step's
//!   lanes), with no range depending on `p`. The iterations of one `p`
//!   then write a box, each element once, if each iteration writes its
//!   subset once; the box must be the subset the map writes into the
//!   node;
//! - each iteration writes its subset once: the entry's value comes from
//!   a tasklet, from a copy out of an access node (as many elements on
//!   both sides), or from a map inside whose one exit entry for it meets
//!   the same conditions over all of its parameters, down to a tasklet or
//!   a copy (the paper's tiled product: the outer map over `tile_k`, maps
//!   over blocks inside, and each block's accumulator copied out once);
//! - the map is ordered after an access node of the same container that
//!   only it depends on, written only by a map whose one tasklet yields
//!   the identity, with no inputs, at its parameters (each once, unit
//!   steps), over that same box;
//! - `p` provably runs at least once: otherwise the identity is the
//!   result.
//!
//! The first iteration runs in a copy of the map (labelled `_peeled`)
//! whose range for `p` is that one value and whose writes of the output,
//! at every level, have no resolution; it takes the identity map's place
//! and its ordering edges, and the map runs the rest. The copy gets its
//! own transients where the map's were used only inside it: one used in
//! both maps would be allocated around both, and the parallel iterations
//! of each would share it. Both maps' boundary memlets are propagated
//! again. A sum of floats then differs only where every term
//! of an element is `-0.0` (the identity `0.0` made it `0.0`), as in any
//! compiler's reassociation of the first addition.

use super::{params, set_params, Target};
use mlir_sys::{
    mlirAttributeIsAFloat, mlirAttributeIsAInteger, mlirFloatAttrGetValueDouble,
    mlirIntegerAttrGetValueInt,
};
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::{array_of, Op, Val};
use sdfg_dialect::{memlet_at, rewrite, Memlet, Wcr};
use sdfg_symbolic::{compare_eq, compare_le, parse_subset, Assumptions, Expr, Range, Subset, Tri};

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-reduce-peeling",
    summary: "Run the first iteration of a map's reduced parameter on its own, writing where a map of the resolution's identity wrote, and remove that map (the SC'19 paper's ReducePeeling); options label, level, param (the parameter to peel)",
    op_name: "builtin.module",
    create: || Box::new(ReducePeeling::default()),
};

/// `sdfg-reduce-peeling` and the maps it works on. A `param=NAME` target
/// also names the parameter to peel.
#[derive(Clone, Debug, Default)]
pub struct ReducePeeling {
    /// The maps it works on.
    pub target: Target,
}

impl RustPass for ReducePeeling {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        self.target = Target::parse_with(
            "sdfg-reduce-peeling",
            options,
            "label, level and param",
            |_, _| Ok(false),
        )?;
        Ok(())
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        let param = self.target.param.clone();
        self.target
            .apply_each("sdfg-reduce-peeling", module, |map| {
                peel_reduction(map, param.as_deref())
            });
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(self.clone())
    }
}

/// What [`peel_reduction`] found.
struct Plan<'a> {
    /// The reduced parameter and its range.
    param: usize,
    range: Range,
    /// The exit entry of the output.
    entry: usize,
    /// The identity map and the access node it writes.
    init: Op<'a>,
    start: Op<'a>,
}

/// Peels the first iteration of `map`'s reduced parameter (`param`, or
/// the first one its output does not move with) into a copy of the map
/// that replaces the identity map before it (see the module's
/// documentation); returns the copy's label, or says why it does not
/// apply and changes nothing.
pub fn peel_reduction(map: Op<'_>, param: Option<&str>) -> Result<String, String> {
    let plan = plan(map, param)?;
    // SAFETY: `map` is live; the copy is inserted into its block at once.
    let peeled = unsafe {
        let copy = mlir_sys::mlirOperationClone(map.raw());
        let block = mlir_sys::mlirOperationGetBlock(map.raw());
        mlir_sys::mlirBlockInsertOwnedOperationBefore(block, map.raw(), copy);
        Op::from_raw(copy).ok_or("the map could not be copied")?
    };
    let mut ranges = params(map);
    let first = Range::new(
        plan.range.start.clone(),
        Expr::add(&plan.range.start, &Expr::int(1)),
        Expr::int(1),
    );
    let rest = Range::new(
        Expr::add(&plan.range.start, &plan.range.step),
        plan.range.end.clone(),
        plan.range.step.clone(),
    );
    ranges[plan.param].1 = Subset::new(vec![first]).to_string();
    set_params(peeled, &ranges);
    ranges[plan.param].1 = Subset::new(vec![rest]).to_string();
    set_params(map, &ranges);
    let label = format!("{}_peeled", map.str_attr("label").unwrap_or("map"));
    peeled.set_attr("label", rewrite::str_attr(peeled, &label));
    // The copy writes plainly where the identity was, after what the
    // identity map came after; the map still comes after the node.
    drop_resolution(peeled, plan.entry)?;
    own_transients(map, peeled, plan.start.operands()[0])?;
    let start_value = plan.start.results()[0];
    let mut after: Vec<Val<'_>> = peeled
        .operand_segment(2)
        .into_iter()
        .filter(|v| *v != start_value)
        .collect();
    for v in plan.init.operand_segment(2) {
        if !after.contains(&v) {
            after.push(v);
        }
    }
    rewrite::set_operand_segments(
        peeled,
        &[peeled.operand_segment(0), peeled.operand_segment(1), after],
    );
    rewrite::set_operand(plan.start, 1, peeled.results()[0]);
    rewrite::move_before(plan.start, map);
    // SAFETY: the identity map's only result went to the node, which the
    // copy writes now; nothing else refers to it.
    unsafe { rewrite::erase(plan.init) };
    sdfg_analysis::propagate::propagate_scope(peeled);
    sdfg_analysis::propagate::propagate_scope(map);
    Ok(label)
}

fn plan<'a>(map: Op<'a>, param: Option<&str>) -> Result<Plan<'a>, String> {
    // The rewrite gives the copy transients of this SDFG; nothing may
    // fail once it has started.
    crate::enclosing_sdfg(map).ok_or("is in no SDFG")?;
    let [value] = map.results()[..] else {
        return Err("has not exactly one output".into());
    };
    let [(node, operand)] = value.uses()[..] else {
        return Err("its output does not go to exactly one place".into());
    };
    let outer = memlet_at(node, operand).ok_or("its output has no memlet")?;
    if !node.is("sdfg.access") || node.operand_segment(1).len() != 1 {
        return Err("its output does not go to an access node that only it writes".into());
    }
    let kind = match &outer.wcr {
        Wcr::Named(kind) if matches!(kind.name(), "sum" | "product") => kind.name(),
        _ => return Err("its output is not resolved by a sum or a product".into()),
    };
    if outer.dynamic || outer.other.is_some() {
        return Err("its output is dynamic or a copy".into());
    }
    let container = node.operands()[0];
    let reads_it = map.operands().into_iter().any(|v| {
        v.defining_op()
            .is_some_and(|d| d.is("sdfg.access") && d.operands().first() == Some(&container))
            && !map.operand_segment(2).contains(&v)
    });
    if reads_it {
        return Err("reads the container it resolves into".into());
    }
    let exit = crate::scope_exit(map).ok_or("has no exit")?;
    let out_name = map
        .str_array_attr("out_names")
        .first()
        .copied()
        .unwrap_or_default();
    let [entry] = crate::exit_entries(exit, out_name)[..] else {
        return Err("its output is not written through exactly one exit entry".into());
    };
    let inner = Memlet::from_attr(exit.array_attr("memlets")[entry])
        .ok_or("the exit entry has no memlet")?;
    if inner.wcr != outer.wcr {
        return Err("its output's exit entry has another resolution".into());
    }
    let written = written_subset(&inner)?;
    let ranges = parsed_params(map)?;
    let names: Vec<&str> = ranges.iter().map(|(p, _)| p.as_str()).collect();
    let mentioned = written.free_symbols();
    let reduced = match param {
        Some(p) if mentioned.contains(p) => {
            return Err(format!(
                "its output moves with `{p}`, which it does not reduce over"
            ))
        }
        Some(p) => names.iter().position(|n| *n == p),
        None => names.iter().position(|n| !mentioned.contains(*n)),
    }
    .ok_or("its output moves with every parameter: it reduces over none")?;
    let p = names[reduced];
    if ranges.iter().any(|(_, r)| mentions(r, p)) {
        return Err(format!("a range depends on `{p}`"));
    }
    let asm = super::assumptions_inside(map);
    let count = ranges[reduced].1.count();
    if !compare_le(&Expr::int(1), &count, &asm).is_true() {
        return Err(format!(
            "`{p}` may run no iteration (its count is `{count}`)"
        ));
    }
    let target = parse_subset(&outer.subset).map_err(|e| e.to_string())?;
    let one_pass = box_of_one_pass(&written, &ranges, p, &asm)?;
    if !same_box(&one_pass, &target, &asm) {
        return Err(format!(
            "one iteration of `{p}` writes `{one_pass}`, not all of `{target}`"
        ));
    }
    writes_once(exit.operands()[entry], &inner, &outer.wcr, &asm)?;
    let (init, start) = identity_map(map, container, &target, kind, &asm)?;
    Ok(Plan {
        param: reduced,
        range: ranges[reduced].1.clone(),
        entry,
        init,
        start,
    })
}

/// Gives `copy`, a copy of `map`, transients of its own for those of
/// `map`'s SDFG that only access nodes inside `map` use (but `output`):
/// a transient used in two maps is allocated around both and would be
/// shared by their parallel iterations, where each iteration had its own.
fn own_transients(map: Op<'_>, copy: Op<'_>, output: Val<'_>) -> Result<(), String> {
    let sdfg = crate::enclosing_sdfg(map).ok_or("is in no SDFG")?;
    let mut seen = Vec::new();
    for node in map.descendants() {
        let Some(&data) = node.operands().first().filter(|_| node.is("sdfg.access")) else {
            continue;
        };
        if data == output || seen.contains(&data) {
            continue;
        }
        seen.push(data);
        let Some(alloc) = data
            .defining_op()
            .filter(|d| d.is("sdfg.alloc") && d.parent() == Some(sdfg))
        else {
            continue;
        };
        let inside = data
            .uses()
            .iter()
            .all(|(user, _)| user.is_within(map) || user.is_within(copy));
        if !inside {
            continue;
        }
        let base = sdfg_dialect::container_name(data).unwrap_or_else(|| "data".into());
        let name = crate::fresh_name(sdfg, &format!("{base}_peeled"));
        // SAFETY: `alloc` is live; its copy is inserted after it at once.
        let own = unsafe {
            let clone = mlir_sys::mlirOperationClone(alloc.raw());
            let block = mlir_sys::mlirOperationGetBlock(alloc.raw());
            mlir_sys::mlirBlockInsertOwnedOperationAfter(block, alloc.raw(), clone);
            Op::from_raw(clone).ok_or("a transient could not be copied")?
        };
        own.set_attr("name", rewrite::str_attr(own, &name));
        rewrite::replace_uses_inside(data, own.results()[0], copy);
    }
    Ok(())
}

/// A map's parameters with their parsed ranges.
fn parsed_params(map: Op<'_>) -> Result<Vec<(String, Range)>, String> {
    params(map)
        .into_iter()
        .map(|(p, r)| {
            let range = parse_subset(&r)
                .ok()
                .and_then(|s| s.ranges().first().cloned())
                .ok_or_else(|| format!("the range of `{p}` does not parse"))?;
            Ok((p, range))
        })
        .collect()
}

/// What an exit entry's memlet writes, in the output's coordinates (the
/// far side of a copy out of an access node).
fn written_subset(memlet: &Memlet) -> Result<Subset, String> {
    if memlet.dynamic {
        return Err("its output is written dynamically".into());
    }
    parse_subset(memlet.other.as_ref().unwrap_or(&memlet.subset)).map_err(|e| e.to_string())
}

/// Checks that `source`, which an exit entry writes through `memlet`,
/// writes each element of the memlet's subset once per iteration of the
/// scope around it, resolved by nothing or by `wcr`: a tasklet's result;
/// a copy out of an access node of as many elements; or a map's result
/// whose one exit entry for it does so across the map's parameters, each
/// moving one dimension (see [`box_of_one_pass`]), over that subset.
fn writes_once(
    source: Val<'_>,
    memlet: &Memlet,
    wcr: &Wcr,
    asm: &Assumptions,
) -> Result<(), String> {
    let not_once = || {
        "what one iteration writes of its output is not written once by a tasklet, a copy or a map"
            .to_string()
    };
    if memlet.wcr != Wcr::None && memlet.wcr != *wcr {
        return Err(not_once());
    }
    let stated = written_subset(memlet)?;
    let op = source.defining_op().ok_or_else(not_once)?;
    match op.name() {
        "sdfg.tasklet" if memlet.other.is_none() => Ok(()),
        "sdfg.access" => {
            let from = parse_subset(&memlet.subset).map_err(|e| e.to_string())?;
            match compare_eq(&from.volume(), &stated.volume(), asm) {
                Tri::True if memlet.other.is_some() => Ok(()),
                _ => Err(not_once()),
            }
        }
        "sdfg.map" if memlet.other.is_none() => {
            let result = op
                .results()
                .iter()
                .position(|r| *r == source)
                .ok_or_else(not_once)?;
            let name = op
                .str_array_attr("out_names")
                .get(result)
                .copied()
                .unwrap_or_default();
            let exit = crate::scope_exit(op).ok_or_else(not_once)?;
            let [entry] = crate::exit_entries(exit, name)[..] else {
                return Err(not_once());
            };
            let inner =
                Memlet::from_attr(exit.array_attr("memlets")[entry]).ok_or_else(not_once)?;
            let one_pass = box_of_one_pass(&written_subset(&inner)?, &parsed_params(op)?, "", asm)?;
            if !same_box(&one_pass, &stated, asm) {
                return Err(not_once());
            }
            writes_once(exit.operands()[entry], &inner, wcr, asm)
        }
        _ => Err(not_once()),
    }
}

/// Removes the resolution from exit entry `entry` of `scope` and, where a
/// map writes it, from that map's exit entry for it, down to the writes
/// [`writes_once`] checked.
fn drop_resolution(scope: Op<'_>, entry: usize) -> Result<(), String> {
    let exit = crate::scope_exit(scope).ok_or("a map has no exit")?;
    let mut memlets = exit.array_attr("memlets");
    let mut memlet = Memlet::from_attr(memlets[entry]).ok_or("an exit entry has no memlet")?;
    memlet.wcr = Wcr::None;
    memlets[entry] = memlet.to_attr(exit.context());
    exit.set_attr("memlets", array_of(exit.context(), &memlets));
    let source = exit.operands()[entry];
    let Some(inner) = source.defining_op().filter(|d| d.is("sdfg.map")) else {
        return Ok(());
    };
    let result = inner
        .results()
        .iter()
        .position(|r| *r == source)
        .unwrap_or_default();
    let name = inner
        .str_array_attr("out_names")
        .get(result)
        .copied()
        .unwrap_or_default();
    let inner_exit = crate::scope_exit(inner).ok_or("a map has no exit")?;
    match crate::exit_entries(inner_exit, name)[..] {
        [k] => drop_resolution(inner, k),
        _ => Err("a map on the output's path has not one exit entry for it".into()),
    }
}

/// The box the iterations of one value of `p` write through `written`,
/// each element once; an error where they may write an element twice or
/// not as a box.
fn box_of_one_pass(
    written: &Subset,
    ranges: &[(String, Range)],
    p: &str,
    asm: &Assumptions,
) -> Result<Subset, String> {
    let not_once = || {
        "the iterations of one value of the reduced parameter do not write each element once"
            .to_string()
    };
    let mut used = vec![false; ranges.len()];
    let mut out = Vec::new();
    for r in written.ranges() {
        let movers: Vec<usize> = ranges
            .iter()
            .enumerate()
            .filter(|(_, (q, _))| mentions(r, q))
            .map(|(k, _)| k)
            .collect();
        match movers[..] {
            [] => out.push(r.clone()),
            [k] => {
                let (q, range) = &ranges[k];
                let offset = Expr::sub(&r.start, &Expr::symbol(q));
                let fixed = !ranges
                    .iter()
                    .any(|(s, _)| offset.free_symbols().contains(s));
                let unit = r.step.as_int() == Some(1) && r.tile.as_int() == Some(1);
                let width = compare_eq(&r.count(), &range.step, asm);
                if used[k] || !fixed || !unit || width != Tri::True || q == p {
                    return Err(not_once());
                }
                used[k] = true;
                let start = Expr::add(&range.start, &offset);
                let end = Expr::add(&start, &Expr::mul(&range.count(), &range.step));
                out.push(Range::new(start, end, Expr::int(1)));
            }
            _ => return Err(not_once()),
        }
    }
    let unused = ranges
        .iter()
        .enumerate()
        .any(|(k, (q, _))| q != p && !used[k]);
    if unused {
        return Err(not_once());
    }
    Ok(Subset::new(out))
}

/// Whether `range` mentions the symbol `name`.
fn mentions(range: &Range, name: &str) -> bool {
    [&range.start, &range.end, &range.step, &range.tile]
        .iter()
        .any(|e| e.free_symbols().contains(name))
}

/// Whether two subsets are provably the same box.
fn same_box(a: &Subset, b: &Subset, asm: &Assumptions) -> bool {
    a == b
        || (a.covers(b, asm).is_ok_and(|t| t.is_true())
            && b.covers(a, asm).is_ok_and(|t| t.is_true()))
}

/// The identity map before `map` and the access node it writes: a node
/// of `container` that `map` is ordered after and nothing else uses,
/// written only by a map whose one tasklet yields the identity of `kind`
/// at its parameters over `target`.
fn identity_map<'a>(
    map: Op<'a>,
    container: Val<'a>,
    target: &Subset,
    kind: &str,
    asm: &Assumptions,
) -> Result<(Op<'a>, Op<'a>), String> {
    let no_identity =
        || format!("no map of the {kind}'s identity fills the accumulator just before it");
    let start = map
        .operand_segment(2)
        .into_iter()
        .filter_map(|v| v.defining_op())
        .find(|d| d.is("sdfg.access") && d.operands().first() == Some(&container))
        .ok_or_else(no_identity)?;
    let [write] = start.operand_segment(1)[..] else {
        return Err(no_identity());
    };
    let init = write
        .defining_op()
        .filter(|d| d.is("sdfg.map"))
        .ok_or_else(no_identity)?;
    let used_once = start.results()[0].uses().len() == 1
        && init.results().len() == 1
        && init.results()[0].uses().len() == 1;
    let filled = memlet_at(start, 1).ok_or_else(no_identity)?;
    let filled_subset = parse_subset(&filled.subset).map_err(|e| e.to_string())?;
    if !used_once
        || filled.wcr != Wcr::None
        || filled.dynamic
        || filled.other.is_some()
        || !init.operand_segment(0).is_empty()
        || !init.operand_segment(1).is_empty()
        || !same_box(&filled_subset, target, asm)
    {
        return Err(no_identity());
    }
    let ops = init.region_ops(0);
    let [tasklet, exit] = ops[..] else {
        return Err(no_identity());
    };
    if !tasklet.is("sdfg.tasklet") || !tasklet.operands().is_empty() || !exit.is("sdfg.exit") {
        return Err(no_identity());
    }
    // The tasklet yields one constant: the identity.
    let body = tasklet.region_ops(0);
    let constant = match body[..] {
        [c, y] if c.is("arith.constant") && y.is("sdfg.yield") && y.operands() == c.results() => {
            c.attr("value")
        }
        _ => None,
    }
    .ok_or_else(no_identity)?;
    let wanted = if kind == "sum" { 0.0 } else { 1.0 };
    // SAFETY: the attribute is live; its kind is checked before its value
    // is read.
    let is_identity = unsafe {
        if mlirAttributeIsAFloat(constant) {
            mlirFloatAttrGetValueDouble(constant) == wanted
        } else if mlirAttributeIsAInteger(constant) {
            mlirIntegerAttrGetValueInt(constant) as f64 == wanted
        } else {
            false
        }
    };
    // Its parameters, each once, with unit steps, index the box.
    let ranges = parsed_params(init)?;
    let memlet = exit
        .array_attr("memlets")
        .first()
        .copied()
        .and_then(Memlet::from_attr)
        .ok_or_else(no_identity)?;
    let at = parse_subset(&memlet.subset).map_err(|e| e.to_string())?;
    let unit_steps = ranges.iter().all(|(_, r)| r.step.as_int() == Some(1));
    let fills = unit_steps
        && exit.operands().len() == 1
        && memlet.wcr == Wcr::None
        && !memlet.dynamic
        && box_of_one_pass(&at, &ranges, "", asm).is_ok_and(|b| same_box(&b, target, asm));
    if !is_identity || !fills {
        return Err(no_identity());
    }
    Ok((init, start))
}
