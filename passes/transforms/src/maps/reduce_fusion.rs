//! `sdfg-map-reduce-fusion`: DaCe's `MapReduceFusion`. A map that writes
//! a transient which only a `Reduce` reads writes the reduction's output
//! itself, resolving its writes with the reduction's combination: the
//! transient and the node go, and the output starts at the reduction's
//! identity where it has one. It is the first step of the SC'19 paper's
//! matrix-multiplication chain; the map that results resolves into shared
//! elements, which `sdfg-wcr-tiling` or a reordering makes cheap.
//!
//! ```mlir
//! // before: every product in a transient, then a sum over k
//! %m = sdfg.map ["i" = "0:M", "j" = "0:N", "k" = "0:K"] ... {
//!   ... sdfg.exit ("tmp" = %t["i, j, k"] : f64)
//! }
//! %tmp = sdfg.access %T writes(%m["0:M, 0:N, 0:K"] : ...)
//! %r = sdfg.library "Reduce" ... ins("" = %tmp["0:M, 0:N, 0:K"] : ...)
//!        properties {axes = "[2]", wcr = "lambda a, b: a + b", identity = "0"}
//! %c = sdfg.access %C writes(%r["0:M, 0:N"] : ...)
//! // after: C is zeroed, and every product is added into it
//! %z = sdfg.map "init_C" [...] { tasklet: 0.0 }
//! %c0 = sdfg.access %C writes(%z["0:M, 0:N"] : ...)
//! %m = sdfg.map ["i" = "0:M", "j" = "0:N", "k" = "0:K"] ... after(%c0) {
//!   ... sdfg.exit ("tmp" = %t["i, j", wcr sum] : f64)
//! }
//! %c = sdfg.access %C writes(%m["0:M, 0:N", wcr sum] : ...)
//! ```
//!
//! The transient's coordinates become the output's: the reduced axes go,
//! and each kept axis moves to the output dimension of the same extent,
//! in order (unit dimensions on either side are fixed indices), by the
//! difference of the two boxes' starts. It applies where the result is
//! the same:
//!
//! - the transient has one access node in its SDFG, written only by the
//!   map, every element once (the write's volume is its subset's size,
//!   and not dynamic), and read only by the `Reduce`, over the subset the
//!   map writes;
//! - the map's writes have no resolution of their own and come from
//!   tasklets or maps inside it (a nested SDFG's writes could not take
//!   one);
//! - the output is an array or a scalar, of the transient's element
//!   type, that nothing else in the state accesses (the initialization
//!   moves its first write before the map, which must not read it).
//!
//! Unlike DaCe, the initialization stays in the state, ordered before the
//! map, instead of a new state before it; a `Reduce` without an identity
//! resolves into what the output holds, as its expansion does. Every
//! case is run before and after in the lit test.

use super::accumulate::{init_map, signless};
use super::{MapPass, Target};
use crate::memlet_paths::Moves;
use sdfg_dialect::driver::PassRegistration;
use sdfg_dialect::ir::{type_to_string, Op, Val};
use sdfg_dialect::library::Properties;
use sdfg_dialect::{memlet_at, rewrite, set_memlet_at, Container, ContainerKind, Memlet, Wcr};
use sdfg_symbolic::{parse, parse_subset, Dim, Embedding, Expr, Subset};

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-map-reduce-fusion",
    summary: "Fuse a map with the Reduce that reads its transient: the map resolves its writes into the reduction's output (DaCe's MapReduceFusion); options label, level, param",
    op_name: "builtin.module",
    create: || {
        Box::new(MapPass {
            name: "sdfg-map-reduce-fusion",
            transform: fuse_map_reduce,
            target: Target::default(),
        })
    },
};

/// Fuses `map` with every `Reduce` that reads a transient only `map`
/// writes (see the module's documentation); returns the names of the
/// reductions' outputs, or why it applies to none.
pub fn fuse_map_reduce(map: Op<'_>) -> Result<Vec<String>, String> {
    let mut fused = Vec::new();
    let mut why = Vec::new();
    for result in map.results() {
        match plan(map, result) {
            Ok(Some(plan)) => fused.push(apply(map, plan)?),
            Ok(None) => {}
            Err(reason) => why.push(reason),
        }
    }
    if fused.is_empty() {
        if why.is_empty() {
            why.push("writes no transient that a Reduce reads".into());
        }
        return Err(why.join("; "));
    }
    Ok(fused)
}

/// What [`fuse_map_reduce`] does for one output of the map.
struct Plan<'a> {
    result: Val<'a>,
    /// The transient's access node, its container and the `Reduce`.
    node: Op<'a>,
    reduce: Op<'a>,
    /// The output's access node, its container and the memlet there.
    out_node: Op<'a>,
    out: Val<'a>,
    out_memlet: Memlet,
    /// The transient's coordinates in the output's.
    embedding: Embedding,
    wcr: Wcr,
    /// How many values the map writes.
    volume: Expr,
    /// The output's first value, as an MLIR attribute of its element type.
    identity: Option<String>,
    element: String,
}

/// The plan for `result` of `map`: `None` where it does not feed a
/// `Reduce` through a transient, why not where it does but cannot fuse.
fn plan<'a>(map: Op<'a>, result: Val<'a>) -> Result<Option<Plan<'a>>, String> {
    let uses = result.uses();
    let [(node, 1)] = uses.as_slice() else {
        return Ok(None);
    };
    if !node.is("sdfg.access") || node.operand_segment(1).len() != 1 {
        return Ok(None);
    }
    let readers = node.results()[0].uses();
    let is_reduce = |op: &Op<'_>| {
        op.is("sdfg.library")
            && op
                .str_attr("class_path")
                .unwrap_or_default()
                .rsplit('.')
                .next()
                == Some("Reduce")
    };
    let Some((reduce, _)) = readers.iter().find(|(op, k)| *k == 0 && is_reduce(op)) else {
        return Ok(None);
    };
    let data = node.operands()[0];
    let name = sdfg_dialect::container_name(data).unwrap_or_else(|| "data".into());
    let why = |reason: &str| format!("the Reduce of '{name}': {reason}");
    if readers.len() != 1 {
        return Err(why("the transient has other readers"));
    }
    if !data.defining_op().is_some_and(|d| d.is("sdfg.alloc")) {
        return Err(why("it reads an argument, not a transient"));
    }
    if data.uses().len() != 1 {
        return Err(why("the transient has other access nodes"));
    }
    if reduce.operand_segment(0).len() != 1
        || !reduce.operand_segment(1).is_empty()
        || reduce.results().len() != 1
        || !node.operand_segment(3).is_empty()
    {
        return Err(why("it has other inputs, outputs or ordering edges"));
    }
    let parent = map.parent();
    if node.parent() != parent || reduce.parent() != parent {
        return Err(why("it is not beside the map"));
    }
    // The map writes every element of the transient once, and the Reduce
    // reads what it writes.
    let written = memlet_at(*node, 1).ok_or_else(|| why("the map's write has no memlet"))?;
    let read = memlet_at(*reduce, 0).ok_or_else(|| why("its read has no memlet"))?;
    let subset = parse_subset(&written.subset).map_err(|e| why(&e.to_string()))?;
    if written.other.is_some() || written.wcr != Wcr::None || written.dynamic {
        return Err(why(
            "the map's write is a copy, resolves conflicts or is dynamic",
        ));
    }
    if parse_subset(&read.subset).ok() != Some(subset.clone()) || read.other.is_some() {
        return Err(why("it does not read the subset the map writes"));
    }
    let volume = match &written.volume {
        Some(v) => parse(v).map_err(|e| why(&e.to_string()))?,
        None => subset.volume(),
    };
    if Expr::sub(&volume, &subset.volume()).as_int() != Some(0) {
        return Err(why(&format!(
            "the map writes {volume} values into {} elements, so not each once",
            subset.volume()
        )));
    }
    // Where the reduction goes.
    let outputs = reduce.results()[0].uses();
    let [(out_node, 1)] = outputs.as_slice() else {
        return Err(why("its output does not go to exactly one access node"));
    };
    if !out_node.is("sdfg.access")
        || out_node.operand_segment(1).len() != 1
        || !out_node.operand_segment(2).is_empty()
    {
        return Err(why("its output does not go to exactly one access node"));
    }
    let out = out_node.operands()[0];
    let out_container =
        Container::from_type(out.ty()).ok_or_else(|| why("its output is not data"))?;
    let tmp_container = Container::from_type(data.ty()).ok_or_else(|| why("not data"))?;
    if !matches!(
        out_container.kind,
        ContainerKind::Array | ContainerKind::Scalar
    ) {
        return Err(why("its output is not an array or a scalar"));
    }
    if out_container.element != tmp_container.element {
        return Err(why("its output has another element type"));
    }
    let state = map.ancestor("sdfg.state");
    let elsewhere = out
        .uses()
        .into_iter()
        .any(|(user, _)| user != *out_node && state.is_some_and(|s| user.is_within(s)));
    if elsewhere {
        return Err(why(
            "its output has other access nodes in the state, which its initialization would overtake",
        ));
    }
    let out_memlet = memlet_at(*out_node, 1).ok_or_else(|| why("its output has no memlet"))?;
    if out_memlet.other.is_some() || out_memlet.wcr != Wcr::None || out_memlet.dynamic {
        return Err(why(
            "its output's memlet is a copy, resolves conflicts or is dynamic",
        ));
    }
    let out_subset = parse_subset(&out_memlet.subset).map_err(|e| why(&e.to_string()))?;
    let props = Properties::of(*reduce);
    let axes = props.axes(subset.dims());
    let embedding = embed(&subset, &axes, &out_subset).map_err(|e| why(&e))?;
    let lambda = props
        .text("wcr")
        .ok_or_else(|| why("it has no combination"))?;
    let wcr = Wcr::from_lambda(&lambda);
    let element = signless(&type_to_string(out_container.element.0));
    let identity = match props.text("identity") {
        None => None,
        Some(text) if text == "None" => None,
        Some(text) => Some(constant(&text, &element).ok_or_else(|| {
            why(&format!(
                "its identity `{text}` is not a {element} constant here"
            ))
        })?),
    };
    Ok(Some(Plan {
        result,
        node: *node,
        reduce: *reduce,
        out_node: *out_node,
        out,
        out_memlet,
        embedding,
        wcr,
        volume,
        identity,
        element,
    }))
}

/// Where the coordinates of the reduction's input box `input` land in
/// its output box `output`, with `axes` reduced: the kept axes of other
/// than unit extent take the output's dimensions of other than unit
/// extent in order, with the same extents; the output's unit dimensions
/// are fixed at their starts.
fn embed(input: &Subset, axes: &[usize], output: &Subset) -> Result<Embedding, String> {
    if !input.is_dense() || !output.is_dense() {
        return Err("a box is strided".into());
    }
    if axes.iter().any(|a| *a >= input.dims()) {
        return Err(format!("its axes {axes:?} are not all of its input's"));
    }
    let is_one = |e: &Expr| e.as_int() == Some(1);
    let mut kept = (0..input.dims())
        .filter(|d| !axes.contains(d) && !is_one(&input.ranges()[*d].size()))
        .peekable();
    let mut dims = Vec::with_capacity(output.dims());
    for r in output.ranges() {
        let size = r.size();
        if is_one(&size) {
            dims.push(Dim::Fixed(r.start.clone()));
            continue;
        }
        let Some(k) = kept.next() else {
            return Err("its output has more dimensions than it keeps".into());
        };
        let from = &input.ranges()[k];
        if Expr::sub(&size, &from.size()).as_int() != Some(0) {
            return Err(format!(
                "its input's axis {k} has extent {}, its output's {size}",
                from.size()
            ));
        }
        dims.push(Dim::Moved(k, Expr::sub(&r.start, &from.start)));
    }
    if kept.peek().is_some() {
        return Err("its output has fewer dimensions than it keeps".into());
    }
    Ok(Embedding::new(dims, input.dims()))
}

/// `text` (a Python number) as an MLIR constant of `element` type.
fn constant(text: &str, element: &str) -> Option<String> {
    let value: f64 = text.trim().trim_matches('"').parse().ok()?;
    match element {
        "f64" => Some(format!("0x{:016X}", value.to_bits())),
        "f32" => Some(format!("0x{:08X}", (value as f32).to_bits())),
        _ if element.starts_with('i') && value.fract() == 0.0 => Some(format!("{}", value as i64)),
        _ => None,
    }
}

/// Applies `plan`; returns the output's name.
fn apply<'a>(map: Op<'a>, plan: Plan<'a>) -> Result<String, String> {
    let out_name = sdfg_dialect::container_name(plan.out).unwrap_or_else(|| "data".into());
    let index = plan
        .result
        .result_number()
        .ok_or("the map's output is not a result")?;
    // Every change is planned, and fails, before the IR changes.
    let mut moves = Moves::default();
    moves.into_type(plan.out.ty());
    moves.resolving(plan.wcr.clone());
    moves.writes(map, index, &plan.embedding)?;
    let init = match &plan.identity {
        Some(value) => {
            let ty = type_to_string(plan.out.ty());
            let subset = parse_subset(&plan.out_memlet.subset).map_err(|e| e.to_string())?;
            Some(init_map(
                map,
                &out_name,
                &ty,
                &plan.element,
                &subset,
                value,
            )?)
        }
        None => None,
    };
    moves.apply();
    if let Some(init) = init {
        let first = crate::write_node(map, plan.out, init.results()[0], &plan.out_memlet)?;
        let (ins, dynamic, mut after) = (
            map.operand_segment(0),
            map.operand_segment(1),
            map.operand_segment(2),
        );
        after.push(first.results()[0]);
        rewrite::set_operand_segments(map, &[ins, dynamic, after]);
    }
    let resolved = Memlet {
        volume: Some(plan.volume.to_string()),
        wcr: plan.wcr,
        ..plan.out_memlet.clone()
    };
    rewrite::set_operand(plan.out_node, 1, plan.result);
    set_memlet_at(plan.out_node, 1, &resolved);
    let tmp = plan.node.operands()[0];
    // SAFETY: the Reduce's one result fed the output node, which now reads
    // the map; the transient's node fed only the Reduce, and its
    // container's only access node was that node.
    unsafe {
        rewrite::erase(plan.reduce);
        rewrite::erase(plan.node);
        if let Some(alloc) = tmp.defining_op() {
            rewrite::erase(alloc);
        }
    }
    Ok(out_name)
}
