//! Propagation out of nested SDFGs (DaCe's
//! `propagate_memlets_nested_sdfg`, through the symbol mapping).
//!
//! An argument of a nested SDFG is a box of an outer container: the outer
//! memlet's subset, whose first element is where the argument starts (the
//! lowering binds the argument there). What the nested SDFG touches of the
//! argument is the union, over its states, of what each state's access
//! nodes of the argument read (for an input connector) or write (for an
//! output connector), each state's memlets mapped over the counted loops
//! around the state and their volumes multiplied by how often it runs
//! ([`executions`]). The summary is then moved out of the nested SDFG:
//!
//! 1. through the symbol mapping (`symbols("M" = "N")`). A dimension that
//!    still mentions a name defined only inside (a symbol an inter-state
//!    edge assigns, a loop variable of a while loop) becomes the
//!    argument's whole extent, and such a volume DaCe's unknown one;
//! 2. into the outer container's coordinates, through the box (`A[i, 0:M]`
//!    bound to an argument of shape `[M]` puts its index `j` at
//!    `A[i, j]`);
//! 3. keeping the box's first element in every dimension (DaCe's
//!    `preserve_minima`), since that is where the argument starts: only
//!    the ends tighten, and a dimension whose start would move becomes a
//!    unit-step range from the old start.
//!
//! ```mlir
//! // before: the nested SDFG reads a[1:M] in a loop over 0:M-1
//! %n = sdfg.nested "k" ins("a" = %x["i, 0:N"] : ...) symbols("M" = "N") {...}
//! // after: the box's start kept, its end tightened
//! %n = sdfg.nested "k" ins("a" = %x["i, 0:N", volume "N - 1"] : ...) ...
//! ```
//!
//! A connector keeps its memlet where the nested SDFG does not touch the
//! argument, where an access cannot be read (an access node inside a map
//! that reads the argument directly, a subset that does not parse, a
//! scalar argument), or where the argument is not a plain box of the outer
//! container ([`argument_box`]: a reshape, other strides).

use super::{clamp, image_in, mentions_any, merge, volume_bound, Stats, Summary};
use crate::executions::{executions, size_assumptions, Executions};
use sdfg_dialect::ir::{Op, Val};
use sdfg_dialect::layout::layout;
use sdfg_dialect::{memlet_at, memlet_slot, set_memlet_at, Memlet};
use sdfg_symbolic::{
    compare_le, parse, parse_subset, Assumptions, Dim, Embedding, Expr, Range, Subset,
};
use std::collections::{HashMap, HashSet};

/// A nested SDFG's inside, read once for all its connectors.
struct Inside<'a> {
    mapping: HashMap<String, Expr>,
    counts: Executions<'a>,
    asm: Assumptions,
    outside: HashSet<String>,
    args: HashMap<&'a str, Val<'a>>,
}

impl<'a> Inside<'a> {
    fn of(nested: Op<'a>) -> Option<Self> {
        let inner = nested
            .region_ops(0)
            .into_iter()
            .find(|o| o.is("sdfg.sdfg"))?;
        let mapping = symbol_mapping(nested)?;
        let outside = defined_outside(inner, &mapping);
        Some(Inside {
            counts: executions(inner),
            asm: size_assumptions(inner),
            outside,
            args: inner
                .str_array_attr("arg_names")
                .into_iter()
                .zip(inner.region_args(0))
                .collect(),
            mapping,
        })
    }

    /// What the nested SDFG touches of its argument `name` (written when
    /// `writes`, read otherwise), in the outer symbols: the argument, and
    /// the summary with the argument's shape.
    fn summary(&self, name: &str, writes: bool) -> Option<(Val<'a>, (Summary, Vec<Expr>))> {
        let arg = self.args.get(name).copied()?;
        let inner_summary = border(arg, writes, &self.counts, &self.asm)?;
        Some((
            arg,
            moved_out(inner_summary, arg, &self.mapping, &self.outside)?,
        ))
    }
}

/// Recomputes the boundary memlets of a nested SDFG from the accesses of
/// its arguments inside (see the module documentation).
pub fn propagate_nested(nested: Op<'_>) -> Stats {
    let mut stats = Stats::default();
    let Some(inside) = Inside::of(nested) else {
        return stats;
    };
    let mut connectors: Vec<Connector> = Vec::new();
    for (k, (name, value)) in nested
        .str_array_attr("in_names")
        .into_iter()
        .zip(nested.operand_segment(0))
        .enumerate()
    {
        connectors.push((name, false, value, vec![(nested, k)]));
    }
    for (name, result) in nested
        .str_array_attr("out_names")
        .into_iter()
        .zip(nested.results())
    {
        let uses = result
            .uses()
            .into_iter()
            .filter(|(user, operand)| memlet_at(*user, *operand).is_some())
            .collect();
        connectors.push((name, true, result, uses));
    }
    for (name, writes, container, outer) in connectors {
        let summary = inside.summary(name, writes);
        for (user, operand) in outer {
            let updated = match (&summary, memlet_at(user, operand)) {
                (Some((arg, s)), Some(old)) => {
                    into_box(s, *arg, &inside.mapping, &old, container, true)
                        .is_some_and(|new| set_memlet_at(user, operand, &merge(&old, &new)))
                }
                _ => false,
            };
            stats.count(updated);
        }
    }
    stats
}

/// The elements of `container` that a nested SDFG reads through its input
/// `name` (or writes through its output `name`, when `writes`), bound by
/// the boundary memlet `bound`: the exact summary of the accesses inside,
/// which a boundary memlet widens to start at the argument's first
/// element (see the module documentation), for dependence tests that must
/// tell a prefix `0:j + 1` from the column `j` that is touched. `None`
/// where the accesses inside cannot be read; the boundary memlet is the
/// answer then.
pub fn touched_subset(
    nested: Op<'_>,
    name: &str,
    writes: bool,
    bound: &Memlet,
    container: Val<'_>,
) -> Option<Subset> {
    let inside = Inside::of(nested)?;
    let (arg, summary) = inside.summary(name, writes)?;
    into_box(&summary, arg, &inside.mapping, bound, container, false).map(|s| s.subset)
}

/// One connector of a nested SDFG: its name, whether it is an output, the
/// outer container value, and its boundary memlets (op, operand).
type Connector<'a> = (&'a str, bool, Val<'a>, Vec<(Op<'a>, usize)>);

/// The nested SDFG's symbol mapping; `None` where a value does not parse.
pub fn symbol_mapping(nested: Op<'_>) -> Option<HashMap<String, Expr>> {
    nested
        .str_array_attr("symbol_names")
        .into_iter()
        .zip(nested.str_array_attr("symbol_values"))
        .map(|(n, v)| Some((n.to_string(), parse(v).ok()?)))
        .collect()
}

/// The names whose value inside is the mapped one from outside: the
/// mapped symbols that nothing inside assigns.
fn defined_outside(inner: Op<'_>, mapping: &HashMap<String, Expr>) -> HashSet<String> {
    let mut assigned = HashSet::new();
    for op in inner.descendants() {
        if op.is("sdfg.edge") {
            assigned.extend(
                op.str_array_attr("assign_names")
                    .into_iter()
                    .map(str::to_string),
            );
        } else if op.is("sdfg.loop") {
            assigned.extend(op.str_attr("var").map(str::to_string));
        }
    }
    mapping
        .keys()
        .filter(|k| !assigned.contains(*k))
        .cloned()
        .collect()
}

/// The memlets of one use of an argument's access node in one state.
type StateMemlets<'a> = Vec<(Op<'a>, Vec<Memlet>)>;

/// What the nested SDFG reads (or writes) of argument `arg`, in the
/// argument's coordinates and the nested SDFG's symbols; `None` where it
/// is not touched or an access cannot be read.
fn border(
    arg: Val<'_>,
    writes: bool,
    counts: &Executions<'_>,
    asm: &Assumptions,
) -> Option<Summary> {
    let shape = layout(arg.ty()).ok()?.shape;
    if shape.is_empty() {
        return None;
    }
    let mut per_state: StateMemlets = Vec::new();
    for (access, operand) in arg.uses() {
        if !access.is("sdfg.access") || operand != 0 {
            return None;
        }
        let state = access.parent().filter(|p| p.is("sdfg.state"))?;
        let memlets = access_memlets(access, writes)?;
        match per_state.iter_mut().find(|(s, _)| *s == state) {
            Some((_, list)) => list.extend(memlets),
            None => per_state.push((state, memlets)),
        }
    }
    let mut total: Option<Summary> = None;
    for (state, memlets) in per_state {
        if memlets.is_empty() {
            continue;
        }
        let runs = counts.get(&state)?;
        let names: Vec<String> = runs.ranges.iter().map(|(v, _)| v.clone()).collect();
        let mut joined: Option<Subset> = None;
        let mut volume = Expr::int(0);
        let mut dynamic = runs.dynamic;
        let mut unknown = runs.is_unknown();
        for m in &memlets {
            let subset = parse_subset(&m.subset).ok()?;
            if subset.dims() != shape.len() {
                return None;
            }
            let v = match &m.volume {
                Some(text) => parse(text).ok()?,
                None => subset.volume(),
            };
            unknown |= m.dynamic && v.as_int() == Some(0);
            volume = Expr::add(&volume, &v);
            dynamic |= m.dynamic;
            joined = Some(match joined {
                None => subset,
                Some(j) => j.union(&subset, asm).ok()?,
            });
        }
        let subset = image_in(&joined?, &runs.ranges, &names, &shape, asm);
        let (bound, varies) = volume_bound(&volume, &runs.ranges, &names, asm);
        dynamic |= varies;
        let volume = if unknown || mentions_any(&bound, &names) {
            dynamic = true;
            Expr::int(0)
        } else {
            Expr::mul(&bound, &runs.count)
        };
        let here = Summary {
            subset,
            volume,
            dynamic,
        };
        total = Some(match total {
            None => here,
            Some(t) => join(t, here, asm)?,
        });
    }
    total
}

/// The union of two states' summaries: volumes add, and an unknown one
/// makes the sum unknown.
fn join(a: Summary, b: Summary, asm: &Assumptions) -> Option<Summary> {
    let unknown = |s: &Summary| s.dynamic && s.volume.as_int() == Some(0);
    let volume = if unknown(&a) || unknown(&b) {
        Expr::int(0)
    } else {
        Expr::add(&a.volume, &b.volume)
    };
    Some(Summary {
        subset: a.subset.union(&b.subset, asm).ok()?,
        volume,
        dynamic: a.dynamic || b.dynamic,
    })
}

/// The memlets by which an access node of an argument reads it (its
/// outgoing edges) or writes it (its incoming edges), in the argument's
/// coordinates. A view bound to the node counts both ways, since the
/// view may be read and written. `None` where one cannot be read.
pub(crate) fn access_memlets(access: Op<'_>, writes: bool) -> Option<Vec<Memlet>> {
    let mut out = Vec::new();
    for (user, operand) in access.results().first()?.uses() {
        let Some(slot) = memlet_slot(user, operand) else {
            // An ordering edge moves no data.
            continue;
        };
        let is_bind = user.is("sdfg.access") && slot.attr == "source_memlet";
        if writes && !is_bind {
            continue;
        }
        let mut memlet = memlet_at(user, operand)?;
        if user.is("sdfg.access") {
            // A copy out of the node: its subset is the source's.
            memlet.other = None;
        }
        out.push(memlet);
    }
    if writes {
        for (k, writer) in access.operand_segment(1).into_iter().enumerate() {
            let mut memlet = memlet_at(access, 1 + k)?;
            let from_access = writer.defining_op().is_some_and(|w| w.is("sdfg.access"));
            if let Some(other) = memlet.other.take() {
                if !from_access {
                    return None;
                }
                // A copy into the node: the destination's subset.
                memlet.subset = other;
            }
            out.push(memlet);
        }
    }
    Some(out)
}

/// `summary` in the outer SDFG's symbols, cut to the argument's shape.
fn moved_out(
    summary: Summary,
    arg: Val<'_>,
    mapping: &HashMap<String, Expr>,
    outside: &HashSet<String>,
) -> Option<(Summary, Vec<Expr>)> {
    let shape: Vec<Expr> = layout(arg.ty())
        .ok()?
        .shape
        .iter()
        .map(|e| e.substitute(mapping))
        .collect();
    let inner_only = |e: &Expr| e.free_symbols().iter().any(|s| !outside.contains(s));
    let ranges = summary
        .subset
        .ranges()
        .iter()
        .zip(&shape)
        .map(|(r, size)| {
            if [&r.start, &r.end, &r.step, &r.tile]
                .iter()
                .any(|e| inner_only(e))
            {
                Range::full(size.clone())
            } else {
                Range {
                    start: r.start.substitute(mapping),
                    end: r.end.substitute(mapping),
                    step: r.step.substitute(mapping),
                    tile: r.tile.substitute(mapping),
                }
            }
        })
        .collect();
    let (volume, dynamic) = if inner_only(&summary.volume) {
        (Expr::int(0), true)
    } else {
        (summary.volume.substitute(mapping), summary.dynamic)
    };
    Some((
        Summary {
            subset: Subset::new(ranges),
            volume,
            dynamic,
        },
        shape,
    ))
}

/// How argument `arg` of a nested SDFG (its shape `shape` in the outer
/// symbols) sits in the box `outer_box` of the outer container
/// `container`: `None` where it is not a plain box, because the shapes
/// differ otherwise than by unit dimensions, the box is not provably
/// within the container's extents or the strides differ (a reshape: the
/// argument's rows are not the container's), the argument has offsets, or
/// its element type is another.
pub fn argument_box(
    arg: Val<'_>,
    shape: &[Expr],
    mapping: &HashMap<String, Expr>,
    outer_box: &Subset,
    container: Val<'_>,
) -> Option<Embedding> {
    let (inner, outer) = (layout(arg.ty()).ok()?, layout(container.ty()).ok()?);
    if inner.elem != outer.elem || inner.offsets.iter().any(|o| o.as_int() != Some(0)) {
        return None;
    }
    let asm = Assumptions::for_array_sizes(outer.shape.iter().chain(shape));
    let fits = outer_box.dims() == outer.shape.len()
        && outer_box
            .ranges()
            .iter()
            .zip(&outer.shape)
            .all(|(r, size)| compare_le(&r.size(), size, &asm).is_true());
    if !fits {
        return None;
    }
    let embedding = Embedding::of_box(outer_box, &Subset::full(shape)).ok()?;
    for (d, dim) in embedding.dims().iter().enumerate() {
        if let Dim::Moved(k, _) = dim {
            let inner_stride = inner.strides.get(*k)?.substitute(mapping);
            if Expr::sub(&inner_stride, outer.strides.get(d)?).as_int() != Some(0) {
                return None;
            }
        }
    }
    Some(embedding)
}

/// Where an argument of shape `shape` sits in its container, from the box
/// `given` of its boundary memlet: where the ranks are the same and the
/// box is contiguous, the argument's extent from the box's first element,
/// since a propagated memlet may cover less than the argument (`0:M,
/// 0:j + 1` for an argument of shape `[M, N]`); `given` otherwise.
fn argument_extent(given: Subset, shape: &[Expr]) -> Subset {
    let contiguous = given
        .ranges()
        .iter()
        .all(|r| r.step.as_int() == Some(1) && r.tile.as_int() == Some(1));
    if !contiguous || given.dims() != shape.len() {
        return given;
    }
    Subset::new(
        given
            .ranges()
            .iter()
            .zip(shape)
            .map(|(r, size)| Range::new(r.start.clone(), Expr::add(&r.start, size), Expr::int(1)))
            .collect(),
    )
}

/// The propagated summary placed in the box of the outer memlet `old`,
/// cut to the outer container. With `keep_start`, the box's first element
/// stays where it is (a boundary memlet's start is where the argument
/// starts).
fn into_box(
    moved: &(Summary, Vec<Expr>),
    arg: Val<'_>,
    mapping: &HashMap<String, Expr>,
    old: &Memlet,
    container: Val<'_>,
    keep_start: bool,
) -> Option<Summary> {
    let (summary, shape) = moved;
    if old.other.is_some() {
        return None;
    }
    let outer_shape = layout(container.ty()).ok()?.shape;
    let asm = Assumptions::for_array_sizes(outer_shape.iter().chain(shape));
    let outer_box = argument_extent(parse_subset(&old.subset).ok()?, shape);
    let embedding = argument_box(arg, shape, mapping, &outer_box, container)?;
    let placed = embedding.apply_subset(&summary.subset).ok()?;
    if placed.dims() != outer_shape.len() {
        return None;
    }
    let ranges = placed
        .ranges()
        .iter()
        .zip(outer_box.ranges())
        .zip(&outer_shape)
        .map(|((new, old), size)| {
            let kept = if !keep_start || Expr::sub(&new.start, &old.start).as_int() == Some(0) {
                new.clone()
            } else {
                Range::new(old.start.clone(), new.bounding().end, Expr::int(1))
            };
            clamp(kept, size, &asm)
        })
        .collect();
    Some(Summary {
        subset: Subset::new(ranges),
        volume: summary.volume.clone(),
        dynamic: summary.dynamic,
    })
}
