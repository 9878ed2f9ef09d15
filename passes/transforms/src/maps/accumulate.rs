//! `sdfg-accumulate-transient` and `sdfg-wcr-tiling`: DaCe's
//! `AccumulateTransient` and the WCR tiling of its `auto_optimize`, so
//! that a parallel reduction does not update shared memory atomically once
//! per element.
//!
//! A map nested in another scope that resolves its writes into data
//! outside (`s[0] += A[i]` over the inner map's iterations) gets a
//! transient accumulator: it starts at the resolution's identity, the
//! inner map resolves into it, and the accumulator is resolved into the
//! data once, through the outer scope. The accumulator is private to each
//! iteration of the outer scope, so the lowering updates it with plain
//! loads and stores; only the one resolution per outer iteration is
//! atomic.
//!
//! ```mlir
//! // before: one atomic add per element
//! %o = sdfg.map ["tile_i" = "0:N:128"] ... outs("s" : ...) {
//!   %m = sdfg.map ["i" = "tile_i:Min(N, tile_i + 128)"] ... {
//!     ... sdfg.exit ("s" = %t["0", wcr sum] : f64)
//!   }
//!   sdfg.exit ("s" = %m["0", wcr sum] : ...)
//! }
//! // after
//! %o = sdfg.map ["tile_i" = "0:N:128"] ... outs("s" : ...) {
//!   %z = sdfg.map "init_s_acc" ["__acc0" = "0:1"] outs(...) { tasklet: 0.0 }
//!   %a0 = sdfg.access %s_acc writes(%z["0:1"])
//!   %m = sdfg.map ["i" = "tile_i:Min(N, tile_i + 128)"] ... after(%a0) {
//!     ... sdfg.exit ("s" = %t["0", wcr sum] : f64)     // into s_acc now
//!   }
//!   %a1 = sdfg.access %s_acc writes(%m["0:1", wcr sum])
//!   sdfg.exit ("s" = %a1["0:1" -> "0", wcr sum] : ...)  // one atomic add
//! }
//! ```
//!
//! It applies to an output of a map inside a map or consume scope, without
//! scopes inside it, whose writes all come from tasklets with the same
//! resolution, one with an identity (a sum or a product; a minimum or a
//! maximum of floats), into a subset of unit steps that goes to one place
//! (the outer scope's exit, or an access node beside the map).
//!
//! `sdfg-wcr-tiling{tile-size=T}` first tiles the outermost parallel maps
//! whose resolved writes do not move with every parameter (iterations
//! would otherwise resolve into the same elements), then gives the map
//! over one tile its accumulators, as DaCe's `tile_wcrs` does. Unlike
//! DaCe, it tiles only the parameters that share elements
//! ([`super::tiling::tile_map_keeping`]): in `B[i] += A[i, j]` the outer
//! map keeps `i` and runs over tiles of `j`, and each tile accumulates one
//! element.

use super::{params, Level, MapPass, Target};
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::{array_of, type_to_string, Op};
use sdfg_dialect::{rewrite, Container, Memlet, Schedule, Wcr};
use sdfg_symbolic::{parse_subset, Expr, Subset};

/// The registration of `sdfg-accumulate-transient`.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-accumulate-transient",
    summary: "Give maps nested in other scopes a transient accumulator for the writes they resolve into outer data (DaCe's AccumulateTransient); options label, level, param",
    op_name: "builtin.module",
    create: || {
        Box::new(MapPass {
            name: "sdfg-accumulate-transient",
            transform: accumulate_transient,
            target: Target::default(),
        })
    },
};

/// The registration of `sdfg-wcr-tiling`.
pub static WCR_TILING: PassRegistration = PassRegistration {
    argument: "sdfg-wcr-tiling",
    summary: "Tile the outermost parallel maps whose resolved writes all iterations share, and accumulate each tile in a transient (DaCe's tile_wcrs); options tile-size (128), label",
    op_name: "builtin.module",
    create: || Box::new(WcrTiling::default()),
};

/// `sdfg-wcr-tiling` and its options.
#[derive(Clone, Debug)]
pub struct WcrTiling {
    /// The tile size of every tiled parameter.
    pub tile_size: i64,
    /// The maps to tile (the outermost ones).
    pub target: Target,
}

impl Default for WcrTiling {
    fn default() -> Self {
        WcrTiling {
            tile_size: 128,
            target: Target {
                level: Level::Outermost,
                ..Target::default()
            },
        }
    }
}

impl RustPass for WcrTiling {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        const PASS: &str = "sdfg-wcr-tiling";
        let mut size = self.tile_size;
        let mut target = Target::parse_with(PASS, options, "tile-size and label", |key, value| {
            if key != "tile-size" {
                return Ok(false);
            }
            size =
                value.parse().ok().filter(|t| *t > 0).ok_or_else(|| {
                    format!("{PASS}: tile-size `{value}` is not a positive integer")
                })?;
            Ok(true)
        })?;
        target.level = Level::Outermost;
        (self.tile_size, self.target) = (size, target);
        Ok(())
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        let size = self.tile_size;
        self.target
            .apply_each("sdfg-wcr-tiling", module, |map| tile_wcr(map, size));
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(self.clone())
    }
}

/// DaCe's `tile_wcrs` for one map: where its iterations run in parallel
/// and resolve writes into elements that not every parameter moves, tiles
/// it (`tile` iterations per tile and parameter) and gives the map over
/// one tile accumulators. Returns the accumulators' names.
pub fn tile_wcr(map: Op<'_>, tile: i64) -> Result<Vec<String>, String> {
    let sequential = map
        .attr("schedule")
        .and_then(Schedule::from_attr)
        .is_some_and(|s| s.name() == "Sequential");
    if sequential {
        return Err("runs sequentially: its resolutions are not atomic".into());
    }
    let names: Vec<String> = params(map).into_iter().map(|(p, _)| p).collect();
    // The exit's memlets say what each iteration writes; the parameters
    // that pin every resolved subset stay parallel and untiled, the others
    // are tiled.
    let resolved: Vec<Subset> = map
        .region_ops(0)
        .into_iter()
        .filter(|o| o.is("sdfg.exit"))
        .flat_map(|exit| exit.array_attr("memlets"))
        .filter_map(Memlet::from_attr)
        .filter(|m| m.wcr != Wcr::None)
        .filter_map(|m| parse_subset(&m.subset).ok())
        .collect();
    let keep: Vec<String> = names
        .iter()
        .filter(|p| resolved.iter().all(|s| pins(s, p, &names)))
        .cloned()
        .collect();
    if resolved.is_empty() || keep.len() == names.len() {
        return Err("resolves no write into elements its iterations share".into());
    }
    // Tiling pays only where each tile can accumulate, so what would stop
    // that is checked first: scopes inside, elements that move with a
    // tiled parameter (the accumulator would have no fixed size), and
    // outputs without an accumulator of their own.
    if super::has_inner_scopes(map) {
        return Err("has scopes inside it, which its tiles could not accumulate".into());
    }
    let moving = names
        .iter()
        .filter(|p| !keep.contains(*p))
        .find(|p| resolved.iter().any(|s| s.free_symbols().contains(*p)));
    if let Some(p) = moving {
        return Err(format!(
            "resolves writes into elements that move with `{p}`, so a tile's accumulator would have no fixed size"
        ));
    }
    let plans: Vec<Result<Plan<'_>, String>> =
        (0..map.results().len()).map(|r| plan(map, r)).collect();
    if !plans.iter().any(Result::is_ok) {
        let why: Vec<String> = plans.into_iter().filter_map(Result::err).collect();
        return Err(why.join("; "));
    }
    super::tiling::tile_map_keeping(map, &[tile], "tile", &keep)?;
    accumulate_transient(map)
}

/// Whether `param` pins a dimension of `subset` to a single index that no
/// other of `params` moves: then no two of its values resolve into the
/// same element.
fn pins(subset: &Subset, param: &str, params: &[String]) -> bool {
    subset.ranges().iter().any(|r| {
        r.is_index() && r.start.free_symbols().iter().any(|s| s == param) && {
            let rest = Expr::sub(&r.start, &Expr::symbol(param));
            !rest.free_symbols().iter().any(|s| params.contains(s))
        }
    })
}

/// DaCe's `AccumulateTransient` on every output of `map` it applies to
/// (see the module's documentation); returns the accumulators' names, or
/// why it applies to none.
pub fn accumulate_transient(map: Op<'_>) -> Result<Vec<String>, String> {
    let parent = map.parent().ok_or("is in no block")?;
    if !matches!(parent.name(), "sdfg.map" | "sdfg.consume") {
        return Err("is not inside another scope, so its writes go to memory anyway".into());
    }
    if super::has_inner_scopes(map) {
        return Err("has scopes inside it".into());
    }
    let mut made = Vec::new();
    let mut why = Vec::new();
    for result in 0..map.results().len() {
        match plan(map, result) {
            Ok(plan) => made.push(apply(map, plan)?),
            Err(reason) => why.push(reason),
        }
    }
    if made.is_empty() {
        return Err(why.join("; "));
    }
    Ok(made)
}

/// What [`accumulate_transient`] does for one output.
struct Plan<'a> {
    result: usize,
    /// Where the output goes: the outer exit or an access node.
    user: Op<'a>,
    operand: usize,
    /// The memlet there.
    outer: Memlet,
    subset: Subset,
    /// The exit entries of `map` that write the output.
    entries: Vec<usize>,
    /// The element type, and its identity for the resolution as an MLIR
    /// attribute.
    element: mlir_sys::MlirType,
    identity: String,
}

fn plan(map: Op<'_>, result: usize) -> Result<Plan<'_>, String> {
    let out_name = map
        .str_array_attr("out_names")
        .get(result)
        .copied()
        .unwrap_or_default()
        .to_string();
    let value = map.results()[result];
    let uses = value.uses();
    let [(user, operand)] = uses.as_slice() else {
        return Err(format!(
            "output '{out_name}' does not go to exactly one place"
        ));
    };
    let outer = sdfg_dialect::memlet_at(*user, *operand)
        .ok_or_else(|| format!("output '{out_name}' has no memlet"))?;
    if outer.other.is_some() || outer.dynamic {
        return Err(format!("output '{out_name}' is a copy or dynamic"));
    }
    let Wcr::Named(kind) = &outer.wcr else {
        return Err(format!(
            "output '{out_name}' has no named write-conflict resolution"
        ));
    };
    let element = Container::from_type(value.ty())
        .ok_or_else(|| format!("output '{out_name}' is not data"))?
        .element
        .0;
    let identity = identity(kind.name(), &signless(&type_to_string(element)))
        .ok_or_else(|| format!("output '{out_name}': the resolution has no identity here"))?;
    let subset = parse_subset(&outer.subset).map_err(|e| e.to_string())?;
    // The accumulator is a container of the SDFG: its size may name the
    // SDFG's symbols only, not the parameters of the scopes around.
    let sdfg = crate::enclosing_sdfg(map).ok_or("is in no SDFG")?;
    let declared: Vec<&str> = sdfg_dialect::declared_symbols(sdfg)
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    let local = subset
        .ranges()
        .iter()
        .flat_map(|r| r.count().free_symbols())
        .find(|s| !declared.contains(&s.as_str()));
    if let Some(symbol) = local {
        return Err(format!(
            "output '{out_name}' writes a subset whose size depends on `{symbol}`, which an accumulator of the SDFG cannot"
        ));
    }
    if !subset.is_dense() {
        return Err(format!("output '{out_name}' writes a strided subset"));
    }
    let exit = crate::scope_exit(map).ok_or("has no exit")?;
    let memlets = exit.array_attr("memlets");
    let entries = crate::exit_entries(exit, &out_name);
    let same = entries.iter().all(|k| {
        memlets
            .get(*k)
            .copied()
            .and_then(Memlet::from_attr)
            .is_some_and(|m| m.wcr == outer.wcr && m.other.is_none())
            && exit.operands()[*k]
                .defining_op()
                .is_some_and(|d| d.is("sdfg.tasklet"))
    });
    if entries.is_empty() || !same {
        return Err(format!(
            "output '{out_name}' is not written by tasklets with the same resolution"
        ));
    }
    Ok(Plan {
        result,
        user: *user,
        operand: *operand,
        outer,
        subset,
        entries,
        element,
        identity,
    })
}

/// The identity of a named resolution on `ty` elements, as an MLIR
/// attribute; `None` where the accumulator cannot start from one (integer
/// minima and maxima, whose signedness the type does not say; complex
/// and vector elements).
pub(crate) fn identity(kind: &str, ty: &str) -> Option<String> {
    let float = matches!(ty, "f16" | "bf16" | "f32" | "f64");
    let integer = ty
        .strip_prefix('i')
        .is_some_and(|w| w.parse::<u32>().is_ok());
    if !float && !integer {
        // Complex numbers and vectors: no constant here.
        return None;
    }
    let infinity = |negative: bool| match (ty, negative) {
        ("f64", false) => Some("0x7FF0000000000000"),
        ("f64", true) => Some("0xFFF0000000000000"),
        ("f32", false) => Some("0x7F800000"),
        ("f32", true) => Some("0xFF800000"),
        _ => None,
    };
    match (kind, float) {
        ("sum", true) => Some("0.0".into()),
        ("sum", false) => Some("0".into()),
        ("product", true) => Some("1.0".into()),
        ("product", false) => Some("1".into()),
        ("min", true) => infinity(false).map(String::from),
        ("max", true) => infinity(true).map(String::from),
        _ => None,
    }
}

/// The signless form of an integer type (`ui64` is `i64`), as tasklet
/// bodies compute with them; other types as they are.
pub(crate) fn signless(ty: &str) -> String {
    match ty.strip_prefix('u').or_else(|| ty.strip_prefix('s')) {
        Some(rest)
            if rest
                .strip_prefix('i')
                .is_some_and(|w| w.parse::<u32>().is_ok()) =>
        {
            rest.to_string()
        }
        _ => ty.to_string(),
    }
}

/// Applies `plan` to `map`; returns the accumulator's name.
fn apply<'a>(map: Op<'a>, plan: Plan<'a>) -> Result<String, String> {
    let sdfg = crate::enclosing_sdfg(map).ok_or("is in no SDFG")?;
    let ctx = map.context();
    let shape: Vec<Expr> = plan.subset.ranges().iter().map(|r| r.count()).collect();
    let full = Subset::full(&shape).to_string();
    let element = type_to_string(plan.element);
    let dims: Vec<String> = shape.iter().map(|e| format!("\"{e}\"")).collect();
    let acc_text = format!("!sdfg.array<{element} [{}]>", dims.join(", "));
    let acc_ty = rewrite::parse_type(map, &acc_text)
        .ok_or_else(|| format!("type `{acc_text}` does not parse"))?;
    let base = if plan.user.is("sdfg.access") {
        sdfg_dialect::container_name(plan.user.operands()[0])
    } else {
        map.str_array_attr("out_names")
            .get(plan.result)
            .map(|n| n.to_string())
    }
    .unwrap_or_else(|| "data".into());
    let name = crate::fresh_name(sdfg, &format!("{base}_acc"));
    // The accumulator starts at the identity: a map over it, parsed in an
    // SDFG of its own and moved here (before anything else changes, so
    // that nothing does where it cannot be made).
    let init = init_map(
        map,
        &name,
        &acc_text,
        &signless(&element),
        &Subset::full(&shape),
        &plan.identity,
    )?;
    let acc =
        rewrite::create_alloc(sdfg, &name, acc_ty).ok_or("the accumulator could not be made")?;
    let written = Memlet::plain(&full);
    let start = crate::write_node(map, acc, init.results()[0], &written)?;
    // The map resolves into it after that, in its coordinates.
    let (ins, dynamic, mut after) = (
        map.operand_segment(0),
        map.operand_segment(1),
        map.operand_segment(2),
    );
    after.push(start.results()[0]);
    rewrite::set_operand_segments(map, &[ins, dynamic, after]);
    let exit = crate::scope_exit(map).ok_or("has no exit")?;
    let mut memlets = exit.array_attr("memlets");
    let origin = plan.subset.min_element();
    for k in &plan.entries {
        let mut memlet = Memlet::from_attr(memlets[*k]).ok_or("an exit entry has no memlet")?;
        let inner = parse_subset(&memlet.subset).map_err(|e| e.to_string())?;
        memlet.subset = inner
            .offset_by(&origin)
            .map_err(|e| e.to_string())?
            .to_string();
        memlets[*k] = memlet.to_attr(ctx);
    }
    exit.set_attr("memlets", array_of(ctx, &memlets));
    let value = map.results()[plan.result];
    // SAFETY: the result is live; its one user is rewired to the
    // accumulator's node below.
    unsafe { mlir_sys::mlirValueSetType(value.raw(), acc_ty) };
    let resolved = Memlet {
        wcr: plan.outer.wcr.clone(),
        ..Memlet::plain(&full)
    };
    let end = crate::write_node(plan.user, acc, value, &resolved)?;
    // The accumulator is resolved into the data once.
    rewrite::set_operand(plan.user, plan.operand, end.results()[0]);
    let out = Memlet {
        other: Some(plan.outer.subset.clone()),
        wcr: plan.outer.wcr.clone(),
        ..Memlet::plain(&full)
    };
    sdfg_dialect::set_memlet_at(plan.user, plan.operand, &out);
    Ok(name)
}

/// The map that sets every element of `subset` of the container `name`
/// (of type `ty`, with `element`s) to `identity`, before `before`. The
/// symbols it names are the subset's and the type's sizes.
pub(crate) fn init_map<'a>(
    before: Op<'a>,
    name: &str,
    ty: &str,
    element: &str,
    subset: &Subset,
    identity: &str,
) -> Result<Op<'a>, String> {
    let params: Vec<String> = (0..subset.dims()).map(|d| format!("__acc{d}")).collect();
    let ranges: Vec<String> = params
        .iter()
        .zip(subset.ranges())
        .map(|(p, r)| match r.step.as_int() {
            Some(1) => format!("\"{p}\" = \"{}:{}\"", r.start, r.end),
            _ => format!("\"{p}\" = \"{}:{}:{}\"", r.start, r.end, r.step),
        })
        .collect();
    let container = rewrite::parse_type(before, ty)
        .and_then(Container::from_type)
        .ok_or_else(|| format!("`{ty}` is not a container type"))?;
    let sizes = container
        .shape
        .iter()
        .chain(container.strides.iter().flatten())
        .chain(container.offset.iter().flatten())
        .filter_map(|e| sdfg_symbolic::parse(e).ok());
    let mut symbols: Vec<String> = subset
        .free_symbols()
        .into_iter()
        .chain(sizes.flat_map(|e| e.free_symbols()))
        .map(|s| format!("{s} = i64"))
        .collect();
    symbols.sort();
    symbols.dedup();
    let text = format!(
        "sdfg.sdfg @__accumulator(%acc: {ty} as \"{name}\") symbols {{{symbols}}} {{
  sdfg.state @s {{
    %m = sdfg.map \"init_{name}\" [{ranges}] outs(\"{name}\" : {ty}) {{
      %t = sdfg.tasklet \"init_{name}\" outs(\"o\" : {element}) {{
        %c = arith.constant {identity} : {element}
        sdfg.yield %c : {element}
      }}
      sdfg.exit (\"{name}\" = %t[\"{point}\"] : {element})
    }}
    %w = sdfg.access %acc writes(%m[\"{subset}\"] : {ty}) : {ty}
  }}
}}",
        symbols = symbols.join(", "),
        ranges = ranges.join(", "),
        point = params.join(", "),
    );
    let holder = rewrite::parse_detached(before, &text)
        .ok_or_else(|| format!("the accumulator's initialization `{text}` does not parse"))?;
    let state = holder
        .region_ops(0)
        .into_iter()
        .find(|o| o.is("sdfg.state"))
        .ok_or("the initialization has no state")?;
    let ops = state.region_ops(0);
    let (Some(init), Some(node)) = (
        ops.iter().copied().find(|o| o.is("sdfg.map")),
        ops.iter().copied().find(|o| o.is("sdfg.access")),
    ) else {
        return Err("the initialization has no map".into());
    };
    // SAFETY: the access node's result is unused; the holder owns the
    // rest once the map is moved out, and nothing refers to it.
    unsafe {
        rewrite::erase(node);
        rewrite::move_before(init, before);
        rewrite::erase(holder);
    }
    Ok(init)
}
