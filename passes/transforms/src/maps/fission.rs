//! `sdfg-map-fission`: DaCe's `MapFission`. A map around several
//! computations (tasklets, maps, nested SDFGs, library nodes) becomes one
//! map per computation, over the same range and in the same order, and
//! the transients that carried values from one computation to the next
//! inside an iteration grow one dimension per parameter, so that each
//! iteration keeps its own value until the next map reads it. It undoes
//! map fusion: a map that computes a chain of values becomes maps that
//! each do one thing, which other transformations (tiling one of them,
//! a library node's fast implementation, vectorization of a map around
//! one tasklet) can then take on their own.
//!
//! ```mlir
//! // before: t carries a value inside an iteration
//! %t = sdfg.alloc "t" : !sdfg.scalar<f64>
//! %m = sdfg.map ["i" = "0:N"] ins("a" = %A[...]) outs("b" : ...) {
//!   %x = sdfg.tasklet "sq" ins("a" = %a["i"] ...) outs("o" : f64) { ... }
//!   %n = sdfg.access %t writes(%x["0"] : f64)
//!   %y = sdfg.tasklet "inc" ins("v" = %n["0"] ...) outs("o" : f64) { ... }
//!   sdfg.exit ("b" = %y["i"] : f64)
//! }
//! // after: t has an element per iteration, written by one map and read
//! // by the next
//! %t = sdfg.alloc "t" : !sdfg.array<f64 ["N"]>
//! %m1 = sdfg.map ["i" = "0:N"] ins("a" = %A[...]) outs("t" : ...) {
//!   %x = sdfg.tasklet "sq" ...
//!   sdfg.exit ("t" = %x["i"] : f64)
//! }
//! %n = sdfg.access %t writes(%m1["0:N"] : ...)
//! %m2 = sdfg.map ["i" = "0:N"] ins("t" = %n["0:N"] : ...) outs("b" : ...) {
//!   %y = sdfg.tasklet "inc" ins("v" = %tn["i"] ...) ...
//!   sdfg.exit ("b" = %y["i"] : f64)
//! }
//! ```
//!
//! ## Why the program computes the same
//!
//! The iterations of a map are independent, so no iteration reads what
//! another writes, except through resolved writes, which commute. Each
//! computation therefore sees, in the new map over all iterations, what
//! it saw in its own iteration before: the inputs of the map (which no
//! iteration overwrites), the values the computations before it produced
//! in the same iteration (kept at that iteration's element of the grown
//! transient), and nothing else. The new maps run in the order of the
//! computations in the old one, which respects every dependence inside an
//! iteration.
//!
//! ## Where it applies
//!
//! The map is a map of a state (not inside another scope, so that the
//! grown transients' extents are the map's, in the SDFG's symbols) with
//! unit steps and no dynamic range inputs, and it holds at least two
//! computations and, besides them, only access nodes of transients that
//! no other part of the SDFG accesses, by access node or by name in a
//! condition, an assignment or foreign code ("border" transients), each written
//! inside the map by one computation (before any reads it) and read only
//! by computations of the map. A computation reads only the map's inputs
//! and border transients, and writes only the map's outputs and border
//! transients: a value that goes from one computation straight into
//! another, without a transient between them, cannot be cut (DaCe has the
//! same condition). Copies into or out of a border transient are left to
//! other passes.
//!
//! Options: the targeting options of [`super::Target`].

use super::{params, propagate_within_bounds, MapPass, Target};
use crate::memlet_paths::Moves;
use sdfg_dialect::driver::PassRegistration;
use sdfg_dialect::ir::{array_of, type_to_string, Op, Val};
use sdfg_dialect::{container_name, memlet_at, rewrite, Container, ContainerKind, Memlet};
use sdfg_symbolic::{parse, parse_subset, Dim, Embedding, Expr};
use std::collections::HashMap;

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-map-fission",
    summary: "Split a map around several computations into one map per computation, growing the transients between them (DaCe's MapFission); options label, level, param",
    op_name: "builtin.module",
    create: || {
        Box::new(MapPass {
            name: "sdfg-map-fission",
            transform: |map| fission_map(map).map(|maps| vec![format!("{} maps", maps.len())]),
            target: Target::default(),
        })
    },
};

/// A transient between the computations of the map.
struct Border<'a> {
    /// Its container value (the `sdfg.alloc` result).
    container: Val<'a>,
    /// Its name.
    name: String,
    /// The grown type.
    ty: mlir_sys::MlirType,
    /// The grown extents, as a subset over all of it.
    whole: String,
    /// The computation (index) that writes it.
    writer: usize,
}

/// Splits `map` into one map per computation, or says why it does not
/// apply (and leaves the map as it was). Returns the new maps in order.
pub fn fission_map(map: Op<'_>) -> Result<Vec<Op<'_>>, String> {
    if !map.parent().is_some_and(|p| p.is("sdfg.state")) {
        return Err("the map is inside another scope".into());
    }
    super::check_movable(map)?;
    let mut starts = Vec::new();
    let mut extents = Vec::new();
    for (param, range) in params(map) {
        let parsed = parse_subset(&range).map_err(|e| format!("range `{range}`: {e}"))?;
        let [r] = parsed.ranges() else {
            return Err(format!("range `{range}` is not one range"));
        };
        if r.step.as_int() != Some(1) || r.tile.as_int() != Some(1) {
            return Err(format!("the range `{range}` of `{param}` is not of step 1"));
        }
        starts.push(Expr::sub(
            &parse(&param).map_err(|e| e.to_string())?,
            &r.start,
        ));
        extents.push(r.count());
    }
    let body = map.region_ops(0);
    let Some((exit, inside)) = body.split_last() else {
        return Err("the map has no exit".into());
    };
    let computations: Vec<Op> = inside
        .iter()
        .copied()
        .filter(|o| {
            matches!(
                o.name(),
                "sdfg.tasklet" | "sdfg.map" | "sdfg.consume" | "sdfg.nested" | "sdfg.library"
            )
        })
        .collect();
    if computations.len() < 2 {
        return Err("the map holds fewer than two computations".into());
    }
    let index_of = |op: Op<'_>| computations.iter().position(|c| *c == op);

    // The border transients and the computations that write them.
    let mut borders: Vec<Border> = Vec::new();
    let mut border_of: HashMap<Val, usize> = HashMap::new();
    // Names read in conditions, assignments and foreign code, where a
    // transient that became an array would no longer be what they read.
    let mentioned = crate::enclosing_sdfg(map)
        .map(crate::mentioned_names)
        .unwrap_or_default();
    for node in inside.iter().filter(|o| !computations.contains(o)) {
        if !node.is("sdfg.access") {
            return Err(format!("the map holds a '{}'", node.name()));
        }
        let container = node.operands()[0];
        let name = container_name(container).unwrap_or_else(|| "?".into());
        if !container.defining_op().is_some_and(|o| o.is("sdfg.alloc"))
            || !node.operand_segment(2).is_empty()
            || !node.operand_segment(3).is_empty()
        {
            return Err(format!(
                "`{name}` inside the map is not a transient access node"
            ));
        }
        let outside = container
            .uses()
            .into_iter()
            .any(|(user, _)| user.parent() != Some(map));
        if outside || mentioned.contains(&name) {
            return Err(format!("`{name}` is also accessed outside the map"));
        }
        let writers = node.operand_segment(1);
        let writer = match writers
            .iter()
            .map(|w| w.defining_op().and_then(index_of))
            .collect::<Option<Vec<_>>>()
            .as_deref()
        {
            Some([first, rest @ ..]) if rest.iter().all(|r| r == first) => *first,
            _ => {
                return Err(format!(
                    "`{name}` is not written inside the map by one computation"
                ))
            }
        };
        for k in 0..writers.len() {
            if memlet_at(*node, 1 + k).is_none_or(|m| m.other.is_some()) {
                return Err(format!("`{name}` is written by a copy"));
            }
        }
        for (user, _) in node.results()[0].uses() {
            if user.parent() != Some(map) || !computations.contains(&user) {
                return Err(format!(
                    "`{name}` is read by something other than a computation of the map"
                ));
            }
        }
        let k = match borders.iter().position(|b| b.container == container) {
            Some(k) if borders[k].writer != writer => {
                return Err(format!("`{name}` is written by more than one computation"))
            }
            Some(k) => k,
            None => {
                let (ty, whole) = grown(map, container, &extents)?;
                borders.push(Border {
                    container,
                    name,
                    ty,
                    whole,
                    writer,
                });
                borders.len() - 1
            }
        };
        border_of.insert(node.results()[0], k);
    }
    for value in exit.operands() {
        if !value
            .defining_op()
            .is_some_and(|o| computations.contains(&o))
        {
            return Err("the map writes an output that no computation of it produces".into());
        }
    }
    let names = exit.str_array_attr("names");
    if let Some(unwritten) = map
        .str_array_attr("out_names")
        .into_iter()
        .find(|n| !names.contains(n))
    {
        return Err(format!(
            "the map's output `{unwritten}` is written by nothing inside it"
        ));
    }
    let args = map.region_args(0);
    for (c, op) in computations.iter().enumerate() {
        for operand in op.operands() {
            let fine = args.contains(&operand)
                || border_of
                    .get(&operand)
                    .is_some_and(|&b| borders[b].writer < c);
            if !fine {
                return Err(format!(
                    "'{}' reads a value that is neither an input of the map nor a transient an earlier computation writes",
                    op.name()
                ));
            }
        }
        for result in op.results() {
            for (user, operand) in result.uses() {
                let to_border = user.is("sdfg.access")
                    && border_of.contains_key(&user.results()[0])
                    && operand >= 1
                    && operand <= user.operand_segment(1).len();
                if user != *exit && !to_border {
                    return Err(format!(
                        "the result of '{}' goes to a '{}' directly",
                        op.name(),
                        user.name()
                    ));
                }
            }
        }
    }

    // Plan every memlet on a border transient: each iteration's element
    // comes first.
    let mut moves = Moves::default();
    let mut exit_memlets: HashMap<(Val, usize), Memlet> = HashMap::new();
    for (node, &b) in &border_of {
        let border = &borders[b];
        let access = node.defining_op().expect("an access node");
        let old_rank = Container::from_type(border.container.ty())
            .map(|c| c.shape.len())
            .unwrap_or(0);
        let mut dims: Vec<Dim> = starts.iter().cloned().map(Dim::Fixed).collect();
        dims.extend((0..old_rank).map(|k| Dim::Moved(k, Expr::int(0))));
        let embedding = Embedding::new(dims, old_rank.max(1));
        moves.into_type(border.ty);
        moves.reads(*node, &embedding)?;
        for (k, writer) in access.operand_segment(1).into_iter().enumerate() {
            let mut memlet = memlet_at(access, 1 + k).expect("checked above");
            memlet.subset = embedding.apply(&memlet.subset)?;
            let producer = writer.defining_op().expect("a computation");
            let number = writer.result_number().unwrap_or(0);
            moves.writes(producer, number, &embedding)?;
            exit_memlets.insert((writer, b), memlet);
        }
    }
    // Only now does anything change.
    moves.apply();
    for border in &borders {
        rewrite::set_type(border.container, border.ty);
    }
    build(
        map,
        *exit,
        &computations,
        &borders,
        &border_of,
        &exit_memlets,
    )
}

/// The grown type of the transient `container`: one leading dimension of
/// each extent in `extents`, then its own.
fn grown(
    map: Op<'_>,
    container: Val<'_>,
    extents: &[Expr],
) -> Result<(mlir_sys::MlirType, String), String> {
    let name = container_name(container).unwrap_or_else(|| "?".into());
    let c = Container::from_type(container.ty())
        .filter(|c| matches!(c.kind, ContainerKind::Array | ContainerKind::Scalar))
        .filter(|c| c.strides.is_none() && c.offset.is_none())
        .ok_or_else(|| format!("`{name}` is not a scalar or an array in C order"))?;
    let mut shape: Vec<String> = extents.iter().map(Expr::to_string).collect();
    shape.extend(c.shape.iter().cloned());
    let text = format!(
        "!sdfg.array<{} [{}]>",
        type_to_string(c.element.0),
        shape
            .iter()
            .map(|s| format!("\"{s}\""))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let ty = rewrite::parse_type(map, &text)
        .and_then(|t| Container::with_storage(t, c.storage))
        .ok_or_else(|| format!("`{text}` is not a type"))?;
    let whole = shape
        .iter()
        .map(|s| format!("0:{s}"))
        .collect::<Vec<_>>()
        .join(", ");
    Ok((ty, whole))
}

/// Makes the new maps, one per computation, before `map`, moves the
/// computations into them and erases `map`.
fn build<'a>(
    map: Op<'a>,
    exit: Op<'a>,
    computations: &[Op<'a>],
    borders: &[Border<'a>],
    border_of: &HashMap<Val<'a>, usize>,
    exit_memlets: &HashMap<(Val<'a>, usize), Memlet>,
) -> Result<Vec<Op<'a>>, String> {
    let ctx = map.context();
    let args = map.region_args(0);
    let outer = map.operand_segment(0);
    let in_memlets = map.array_attr("in_memlets");
    let in_names = map.str_array_attr("in_names");
    let out_names = map.str_array_attr("out_names");
    let after = map.operand_segment(2);
    let exit_names = exit.str_array_attr("names");
    let exit_attrs = exit.array_attr("memlets");
    // The state's access node of each border transient, once written.
    let mut written: HashMap<usize, Val> = HashMap::new();
    // The map's results that a new map has taken over.
    let mut taken: HashMap<usize, Val> = HashMap::new();
    let mut maps = Vec::new();
    for op in computations {
        // Inputs: the map's that it reads, then the border transients.
        let mut inputs: Vec<(Val, Val, mlir_sys::MlirAttribute, String)> = Vec::new();
        for operand in op.operands() {
            if inputs.iter().any(|(inner, ..)| *inner == operand) {
                continue;
            }
            if let Some(k) = args.iter().position(|a| *a == operand) {
                inputs.push((operand, outer[k], in_memlets[k], in_names[k].to_string()));
            } else if let Some(&b) = border_of.get(&operand) {
                let node = *written
                    .get(&b)
                    .ok_or("a border transient is read before it is written")?;
                let memlet = Memlet::plain(&borders[b].whole).to_attr(ctx);
                inputs.push((operand, node, memlet, borders[b].name.clone()));
            }
        }
        // Outputs: the map's outputs it writes, then border transients.
        let mut outputs: Vec<(String, mlir_sys::MlirType, Option<usize>)> = Vec::new();
        let mut entries: Vec<(Val, mlir_sys::MlirAttribute, String)> = Vec::new();
        for result in op.results() {
            for (user, operand) in result.uses() {
                let (name, ty, border, memlet) = if user == exit {
                    let name = exit_names[operand].to_string();
                    let k = out_names
                        .iter()
                        .position(|n| *n == name)
                        .ok_or("an exit entry names no output")?;
                    (name, map.results()[k].ty(), None, exit_attrs[operand])
                } else {
                    let b = border_of[&user.results()[0]];
                    let memlet = exit_memlets
                        .get(&(result, b))
                        .ok_or("a border write has no memlet")?
                        .to_attr(ctx);
                    (borders[b].name.clone(), borders[b].ty, Some(b), memlet)
                };
                if !outputs.iter().any(|(n, ..)| *n == name) {
                    outputs.push((name.clone(), ty, border));
                }
                entries.push((result, memlet, name));
            }
        }
        let operands: Vec<Val> = inputs
            .iter()
            .map(|(_, o, ..)| *o)
            .chain(after.iter().copied())
            .collect();
        let names: Vec<&str> = inputs.iter().map(|(.., n)| n.as_str()).collect();
        let outs: Vec<&str> = outputs.iter().map(|(n, ..)| n.as_str()).collect();
        let memlets: Vec<_> = inputs.iter().map(|(_, _, m, _)| *m).collect();
        let mut attributes = vec![
            ("in_memlets", array_of(ctx, &memlets)),
            ("in_names", rewrite::str_array_attr(map, &names)),
            ("out_names", rewrite::str_array_attr(map, &outs)),
            (
                "operandSegmentSizes",
                rewrite::segment_sizes(map, &[inputs.len() as i32, 0, after.len() as i32]),
            ),
        ];
        for name in ["label", "params", "ranges", "schedule"] {
            if let Some(attr) = map.attr(name) {
                attributes.push((name, attr));
            }
        }
        let results: Vec<_> = outputs.iter().map(|(_, t, _)| *t).collect();
        let arg_types: Vec<_> = inputs.iter().map(|(_, o, ..)| o.ty()).collect();
        let new = rewrite::create_op_before(
            map,
            "sdfg.map",
            &operands,
            &attributes,
            &results,
            Some(&arg_types),
        )
        .ok_or("a new map could not be made")?;
        rewrite::move_to_end(*op, new);
        for ((inner, ..), arg) in inputs.iter().zip(new.region_args(0)) {
            rewrite::replace_uses_inside(*inner, arg, *op);
        }
        let values: Vec<Val> = entries.iter().map(|(v, ..)| *v).collect();
        let entry_memlets: Vec<_> = entries.iter().map(|(_, m, _)| *m).collect();
        let entry_names: Vec<&str> = entries.iter().map(|(.., n)| n.as_str()).collect();
        rewrite::create_op_at_end(
            new,
            "sdfg.exit",
            &values,
            &[
                ("memlets", array_of(ctx, &entry_memlets)),
                ("names", rewrite::str_array_attr(map, &entry_names)),
            ],
            &[],
        )
        .ok_or("the exit of a new map could not be made")?;
        for ((name, _, border), result) in outputs.iter().zip(new.results()) {
            match border {
                Some(b) => {
                    let node = crate::write_node(
                        map,
                        borders[*b].container,
                        result,
                        &Memlet::plain(&borders[*b].whole),
                    )?;
                    written.insert(*b, node.results()[0]);
                }
                None => {
                    let k = out_names
                        .iter()
                        .position(|n| n == name)
                        .expect("found above");
                    match taken.get(&k) {
                        None => {
                            rewrite::replace_all_uses(map.results()[k], result);
                            taken.insert(k, result);
                        }
                        Some(first) => add_writer(*first, result)?,
                    }
                }
            }
        }
        maps.push(new);
    }
    // The old map holds only the border access nodes and its exit now.
    // SAFETY: nothing uses the map's results (each went to a new map) or
    // the access nodes inside it (their readers moved to block arguments
    // of the new maps); no handle to them is used afterwards.
    unsafe {
        for node in border_of.keys() {
            if let Some(op) = node.defining_op() {
                rewrite::erase(op);
            }
        }
        rewrite::erase(map);
    }
    for new in &maps {
        propagate_within_bounds(*new);
    }
    Ok(maps)
}

/// Lets `extra`, another map's result for the same output, write where
/// `first` writes: one more write on each access node `first` feeds,
/// with the same memlet.
fn add_writer<'a>(first: Val<'a>, extra: Val<'a>) -> Result<(), String> {
    for (user, operand) in first.uses() {
        if !user.is("sdfg.access") {
            return Err(format!(
                "an output written by two computations goes to a '{}'",
                user.name()
            ));
        }
        let memlet = memlet_at(user, operand).ok_or("a write has no memlet")?;
        let ctx = user.context();
        let mut writes = user.operand_segment(1);
        let mut memlets = user.array_attr("write_memlets");
        writes.push(extra);
        memlets.push(memlet.to_attr(ctx));
        rewrite::set_operand_segments(
            user,
            &[
                vec![user.operands()[0]],
                writes,
                user.operand_segment(2),
                user.operand_segment(3),
            ],
        );
        user.set_attr("write_memlets", array_of(ctx, &memlets));
    }
    Ok(())
}
