//! The map transformations: DaCe's dataflow transformations that reshape
//! map scopes, one pass per file.
//!
//! | pass | DaCe | what it does |
//! | --- | --- | --- |
//! | `sdfg-map-tiling` | `MapTiling` (`StripMining` per dimension) | a map over tiles around a map over one tile |
//! | `sdfg-strip-mining` | `StripMining` | one dimension cut into tiles: a map over its tiles around the map over one tile of it, contiguous or `T` apart |
//! | `sdfg-map-expansion` | `MapExpansion` | a map of k parameters becomes k nested maps |
//! | `sdfg-map-collapse` | `MapCollapse` | two directly nested maps become one |
//! | `sdfg-map-interchange` | `MapInterchange` | two directly nested maps swap places |
//! | `sdfg-map-reorder` | `MapDimShuffle` | a map's parameters in a given order |
//! | `sdfg-map-fusion` | `MapFusion` | a producer map and its consumer, or two sibling maps, become one |
//! | `sdfg-map-fission` | `MapFission` | a map around several computations becomes one map per computation, the transients between them grown per iteration |
//! | `sdfg-in-local-storage`, `sdfg-out-local-storage` | `InLocalStorage`, `OutLocalStorage` | a nested map reads (writes) its box of some data through a transient buffer of its own |
//! | `sdfg-map-reduce-fusion` | `MapReduceFusion` | a map and the `Reduce` of the transient it writes become one map that resolves into the output |
//! | `sdfg-reduce-peeling` | the SC'19 paper's ReducePeeling | a map resolving into a transient that an identity map fills runs its first reduced iteration on its own, in the identity map's place |
//! | `sdfg-vectorization` | `Vectorization` | the tasklet of a map computes `L` iterations of its last parameter at once, on vectors |
//!
//! Each is a public function that applies the transformation to one map
//! or says why it does not apply, and a pass that applies it to the maps
//! a [`Target`] selects: by label (`label=NAME`), by nesting
//! (`level=outermost|innermost|all`), by a parameter (`param=NAME`, the
//! maps with a parameter of that name), or all maps. A map named by label
//! or parameter that the transformation does not apply to gets a warning with the
//! reason; other maps are left alone silently, as DaCe's pattern matching
//! leaves them.
//!
//! The maps are reshaped in place and the dataflow inside them moves with
//! them. Every transformation keeps the iteration space as a whole, so
//! the memlets at the outermost boundary stay as they are (exact, where
//! a re-propagation over tiles could only bound their volumes), and only
//! the boundaries it creates or changes inside are propagated
//! ([`sdfg_analysis::propagate::propagate_boundary`], each memlet cut to
//! its container's bounds); nothing around them changes. The lit tests run each program before and after with
//! `sdfg-run` and compare.

pub mod accumulate;
pub mod collapse;
pub mod expansion;
pub mod fission;
pub mod fusion;
pub mod interchange;
pub mod local_storage;
pub mod reduce_fusion;
pub mod reduce_peeling;
pub mod reorder;
pub mod strip_mining;
pub mod tiling;
pub mod vectorization;

use mlir_sys::MlirAttribute;
use sdfg_dialect::driver::{Diagnosed, RustPass};
use sdfg_dialect::ir::{array_of, Op, Val};
use sdfg_dialect::layout::layout;
use sdfg_dialect::{memlet_at, rewrite, set_memlet_at};
use sdfg_symbolic::{parse_subset, Assumptions, Expr, Range, Subset};
use std::collections::HashSet;

/// Which maps a transformation pass works on.
#[derive(Clone, Debug, Default)]
pub struct Target {
    /// Only maps with this label.
    pub label: Option<String>,
    /// Only maps at this nesting level.
    pub level: Level,
    /// Only maps with a parameter of this name.
    pub param: Option<String>,
}

/// A pass whose only options say which maps it works on, and that applies
/// one transformation to each of them.
#[derive(Clone, Debug)]
pub struct MapPass {
    /// The pass's argument, for its options' errors and its warnings.
    pub name: &'static str,
    /// The transformation: what it made, or why it does not apply.
    pub transform: fn(Op<'_>) -> Result<Vec<String>, String>,
    /// The maps it works on.
    pub target: Target,
}

impl RustPass for MapPass {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        self.target = Target::parse_with(self.name, options, "label, level and param", |_, _| {
            Ok(false)
        })?;
        Ok(())
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        self.target.apply_each(self.name, module, self.transform);
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(self.clone())
    }
}

/// A nesting level of maps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Level {
    /// Every map.
    #[default]
    All,
    /// Maps inside no other map of their SDFG.
    Outermost,
    /// Maps with no map inside them.
    Innermost,
}

impl Target {
    /// Reads a pass's options: `label=` and `level=` here, every other
    /// `key=value` by `each`, which says whether it knows the key; an
    /// unknown one is an error that lists `known`.
    pub fn parse_with(
        pass: &str,
        options: &str,
        known: &str,
        mut each: impl FnMut(&str, &str) -> Result<bool, String>,
    ) -> Result<Target, String> {
        let (target, rest) = Target::parse(pass, options)?;
        for (key, value) in rest {
            if !each(&key, &value)? {
                return Err(format!(
                    "{pass}: unknown option `{key}` (the options are {known})"
                ));
            }
        }
        Ok(target)
    }

    /// Applies `transform` to every map this target selects, reporting
    /// the maps it does not apply to (see [`Target::report`]).
    pub fn apply_each<'a, T>(
        &self,
        pass: &str,
        root: Op<'a>,
        mut transform: impl FnMut(Op<'a>) -> Result<T, String>,
    ) {
        for map in self.maps(root) {
            if let Err(why) = transform(map) {
                self.report(pass, map, &why);
            }
        }
    }

    /// Reads the `label=` and `level=` options out of `options`; returns
    /// the target and the other options.
    fn parse(pass: &str, options: &str) -> Result<(Target, Vec<(String, String)>), String> {
        let mut target = Target::default();
        let mut rest = Vec::new();
        for option in options.split_whitespace() {
            let (key, value) = option
                .split_once('=')
                .ok_or_else(|| format!("{pass}: option `{option}` is not `name=value`"))?;
            match key {
                "label" => target.label = Some(value.to_string()),
                "param" => target.param = Some(value.to_string()),
                "level" => {
                    target.level = match value {
                        "all" => Level::All,
                        "outermost" => Level::Outermost,
                        "innermost" => Level::Innermost,
                        _ => {
                            return Err(format!(
                                "{pass}: level `{value}` is not outermost, innermost or all"
                            ))
                        }
                    }
                }
                _ => rest.push((key.to_string(), value.to_string())),
            }
        }
        Ok((target, rest))
    }

    /// The maps under `root` this target selects, outermost first.
    pub fn maps<'a>(&self, root: Op<'a>) -> Vec<Op<'a>> {
        root.descendants()
            .into_iter()
            .filter(|o| o.is("sdfg.map"))
            .filter(|m| self.label.is_none() || m.str_attr("label") == self.label.as_deref())
            .filter(|m| {
                self.param
                    .as_ref()
                    .is_none_or(|p| m.str_array_attr("params").contains(&p.as_str()))
            })
            .filter(|m| match self.level {
                Level::All => true,
                Level::Outermost => enclosing_map(*m).is_none(),
                Level::Innermost => !m.descendants().iter().any(|d| d.is("sdfg.map")),
            })
            .collect()
    }

    /// Reports that `map`, named by label or parameter, was left alone,
    /// and why.
    pub fn report(&self, pass: &str, map: Op<'_>, why: &str) {
        if self.label.is_some() || self.param.is_some() {
            map.emit_warning(format!("{pass} does not apply: {why}"));
        }
    }
}

/// The map directly around `op` in its SDFG, if any.
pub(crate) fn enclosing_map(op: Op<'_>) -> Option<Op<'_>> {
    let mut at = op.parent();
    while let Some(p) = at {
        match p.name() {
            "sdfg.map" => return Some(p),
            "sdfg.sdfg" => return None,
            _ => at = p.parent(),
        }
    }
    None
}

/// Whether a scope holds other scopes (maps, consume scopes, nested
/// SDFGs) directly.
pub fn has_inner_scopes(scope: Op<'_>) -> bool {
    scope
        .region_ops(0)
        .iter()
        .any(|o| matches!(o.name(), "sdfg.map" | "sdfg.consume" | "sdfg.nested"))
}

/// A map's parameters with their ranges.
pub fn params(map: Op<'_>) -> Vec<(String, String)> {
    map.str_array_attr("params")
        .into_iter()
        .zip(map.str_array_attr("ranges"))
        .map(|(p, r)| (p.to_string(), r.to_string()))
        .collect()
}

/// Sets a map's parameters and ranges.
pub fn set_params(map: Op<'_>, params: &[(String, String)]) {
    let names: Vec<&str> = params.iter().map(|(p, _)| p.as_str()).collect();
    let ranges: Vec<&str> = params.iter().map(|(_, r)| r.as_str()).collect();
    map.set_attr("params", rewrite::str_array_attr(map, &names));
    map.set_attr("ranges", rewrite::str_array_attr(map, &ranges));
}

/// Sets a scope's schedule (`Sequential`, `CPU_Multicore`, ...), copying
/// the attribute of `like` or, where `like` is `None`, removing it (the
/// `Default` schedule).
fn set_schedule(map: Op<'_>, like: Option<MlirAttribute>) {
    match like {
        Some(attr) => map.set_attr("schedule", attr),
        None => rewrite::remove_attr(map, "schedule"),
    }
}

/// Why a map cannot be moved into a new map or out of one: dynamic range
/// inputs (their connectors are read by the ranges, which would move).
fn check_movable(map: Op<'_>) -> Result<(), String> {
    if !map.operand_segment(1).is_empty() {
        return Err("the map has dynamic range inputs".into());
    }
    Ok(())
}

/// A fresh name for a new parameter: `base`, or `base` with a number,
/// that no symbol, container or parameter of the SDFG around `op` uses.
fn fresh_param(op: Op<'_>, base: &str, taken: &mut HashSet<String>) -> String {
    if taken.is_empty() {
        if let Some(sdfg) = crate::enclosing_sdfg(op) {
            taken.extend(crate::mention_counts(sdfg).into_keys());
            taken.extend(
                sdfg_dialect::declared_symbols(sdfg)
                    .into_iter()
                    .map(|(n, _)| n.to_string()),
            );
            for m in sdfg.descendants().into_iter().filter(|o| o.is("sdfg.map")) {
                taken.extend(m.str_array_attr("params").into_iter().map(str::to_string));
            }
        }
    }
    first_free((0..).map(|k| format!("{base}{k}")), base, taken)
}

/// `base`, or else the first of `others` not in `taken`; it is taken
/// from then on.
fn first_free(
    others: impl Iterator<Item = String>,
    base: &str,
    taken: &mut HashSet<String>,
) -> String {
    let name = std::iter::once(base.to_string())
        .chain(others)
        .find(|c| !taken.contains(c))
        .unwrap_or_default();
    taken.insert(name.clone());
    name
}

/// Puts `map` inside a new map labelled `label` over `outer`, in the same
/// place, and gives `map` the parameters `inner`: the new map takes over
/// `map`'s inputs, outputs and ordering edges, and `map` reads and writes
/// through it. The new map gets `map`'s schedule. Returns the new map;
/// the caller re-propagates.
fn nest_in_new_map<'a>(
    map: Op<'a>,
    label: &str,
    outer: &[(String, String)],
    inner: &[(String, String)],
) -> Result<Op<'a>, String> {
    check_movable(map)?;
    let inputs = map.operand_segment(0);
    let after = map.operand_segment(2);
    let operands: Vec<Val> = inputs.iter().chain(&after).copied().collect();
    let ctx = map.context();
    let segments = rewrite::segment_sizes(map, &[inputs.len() as i32, 0, after.len() as i32]);
    let names: Vec<&str> = outer.iter().map(|(p, _)| p.as_str()).collect();
    let ranges: Vec<&str> = outer.iter().map(|(_, r)| r.as_str()).collect();
    let mut attributes = vec![
        ("label", rewrite::str_attr(map, label)),
        ("params", rewrite::str_array_attr(map, &names)),
        ("ranges", rewrite::str_array_attr(map, &ranges)),
        ("operandSegmentSizes", segments),
    ];
    for name in ["in_memlets", "in_names", "out_names", "schedule"] {
        if let Some(attr) = map.attr(name) {
            attributes.push((name, attr));
        }
    }
    let results: Vec<_> = map.results().iter().map(|r| r.ty()).collect();
    let arg_types: Vec<_> = inputs.iter().map(|v| v.ty()).collect();
    let new = rewrite::create_op_before(
        map,
        "sdfg.map",
        &operands,
        &attributes,
        &results,
        Some(&arg_types),
    )
    .ok_or("the new map could not be made")?;
    // What `map` wrote now comes out of the new map; the exit inside it
    // starts with the old outer memlets, which propagation narrows.
    let mut exit_memlets = Vec::new();
    for (old, replacement) in map.results().into_iter().zip(new.results()) {
        let memlet = old
            .uses()
            .into_iter()
            .find_map(|(user, operand)| memlet_at(user, operand))
            .ok_or("an output of the map has no memlet")?;
        exit_memlets.push(memlet.to_attr(ctx));
        rewrite::replace_all_uses(old, replacement);
    }
    rewrite::move_to_end(map, new);
    let args = new.region_args(0);
    rewrite::set_operand_segments(map, &[args, Vec::new(), Vec::new()]);
    let exit_attributes = [
        ("memlets", array_of(ctx, &exit_memlets)),
        (
            "names",
            map.attr("out_names")
                .unwrap_or_else(|| rewrite::str_array_attr(map, &[])),
        ),
    ];
    rewrite::create_op_at_end(new, "sdfg.exit", &map.results(), &exit_attributes, &[])
        .ok_or("the exit of the new map could not be made")?;
    set_params(map, inner);
    Ok(new)
}

/// Propagates the boundary memlets of `map` from the memlets inside it,
/// each cut to its container's bounds where the symbolic engine cannot
/// show it inside them. Over tiles, an image of `Min` terms is bounded
/// loosely (`tile_j + 2` for `Min(N, tile_j + 2)`), and a valid program
/// touches nothing outside its containers.
fn propagate_within_bounds(map: Op<'_>) {
    sdfg_analysis::propagate::propagate_boundary(map);
    let Some(sdfg) = crate::enclosing_sdfg(map) else {
        return;
    };
    // The sizes, and the ranges of the parameters of the maps around.
    let asm = match enclosing_map(map) {
        Some(around) => assumptions_inside(around),
        None => sdfg_analysis::executions::size_assumptions(sdfg),
    };
    let mut slots: Vec<(Op, usize, Val)> = map
        .operand_segment(0)
        .into_iter()
        .enumerate()
        .map(|(k, v)| (map, k, v))
        .collect();
    for result in map.results() {
        slots.extend(
            result
                .uses()
                .into_iter()
                .map(|(user, operand)| (user, operand, result)),
        );
    }
    for (op, operand, value) in slots {
        let (Some(mut memlet), Ok(layout)) = (memlet_at(op, operand), layout(value.ty())) else {
            continue;
        };
        let Ok(subset) = parse_subset(&memlet.subset) else {
            continue;
        };
        if subset.dims() != layout.shape.len() || memlet.other.is_some() {
            continue;
        }
        let zero = Expr::int(0);
        let ranges: Vec<Range> = subset
            .ranges()
            .iter()
            .zip(&layout.shape)
            .map(|(r, size)| {
                if r.tile.as_int() != Some(1) {
                    return r.clone();
                }
                let start = asm.max(&zero, &r.start);
                let end = asm.min(&r.end, size);
                if start == r.start && end == r.end {
                    return r.clone();
                }
                Range::new(start, end, r.step.clone())
            })
            .collect();
        let clamped = Subset::new(ranges).to_string();
        if clamped != memlet.subset {
            memlet.subset = clamped;
            set_memlet_at(op, operand, &memlet);
        }
    }
}

/// The assumptions that hold inside `map`: the SDFG's sizes and the
/// ranges of the parameters of `map` and of the maps around it.
pub(crate) fn assumptions_inside(map: Op<'_>) -> Assumptions {
    let mut asm = crate::enclosing_sdfg(map)
        .map(sdfg_analysis::executions::size_assumptions)
        .unwrap_or_default();
    let mut at = Some(map);
    while let Some(m) = at {
        for (param, range) in params(m) {
            if let Some(r) = parse_subset(&range)
                .ok()
                .and_then(|s| s.ranges().first().cloned())
            {
                asm = asm.with_range(&param, r.min_element(), r.max_element());
            }
        }
        at = enclosing_map(m);
    }
    asm
}

/// The map directly inside `outer` when `outer` holds nothing else (its
/// region is that map and the exit), the map reads only `outer`'s block
/// arguments and `outer`'s exit writes only the map's results, each once:
/// DaCe's condition for collapsing or interchanging two maps.
fn directly_nested(outer: Op<'_>) -> Result<Op<'_>, String> {
    let ops = outer.region_ops(0);
    let [inner, exit] = ops.as_slice() else {
        return Err("the map holds more than one map and its exit".into());
    };
    if !inner.is("sdfg.map") || !exit.is("sdfg.exit") {
        return Err("the map does not hold exactly one map".into());
    }
    check_movable(*inner)?;
    if !outer.operand_segment(1).is_empty() {
        return Err("the outer map has dynamic range inputs".into());
    }
    let args = outer.region_args(0);
    for arg in &args {
        if arg.uses().iter().any(|(user, _)| user != inner) {
            return Err("an input of the outer map is used outside the inner map".into());
        }
    }
    if inner.operand_segment(0).iter().any(|v| !args.contains(v))
        || !inner.operand_segment(2).is_empty()
    {
        return Err("the inner map has inputs from inside the outer map".into());
    }
    let results = inner.results();
    if exit.operands().len() != results.len()
        || results
            .iter()
            .any(|r| r.uses().len() != 1 || !exit.operands().contains(r))
    {
        return Err("the outer map's outputs are not the inner map's, each once".into());
    }
    // The inner ranges must not depend on the outer parameters.
    let outer_params: Vec<String> = params(outer).into_iter().map(|(p, _)| p).collect();
    for (_, range) in params(*inner) {
        if crate::identifiers(&range).any(|w| outer_params.contains(&w)) {
            return Err(format!(
                "the inner range `{range}` depends on an outer parameter"
            ));
        }
    }
    Ok(*inner)
}
