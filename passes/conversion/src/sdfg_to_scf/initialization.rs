//! Which transients the conversion must fill with zeros.
//!
//! Reading a transient before writing it is undefined in DaCe; the
//! conversion fills new transients with zeros so that such programs are
//! deterministic (and agree with the fresh zero pages DaCe's allocations
//! usually get). The fill is a full pass over memory, as costly as the
//! computation for element-wise kernels (`gesummv` fills 64 MB), so it is
//! left out where no element can be read before it is written:
//!
//! - the transient has one access node, in a state or a scope, and no
//!   other use (no view, nested SDFG or inter-state expression reads it);
//! - that node's only write is a map's output whose memlet covers the
//!   whole container (no WCR, not dynamic, no offsets);
//! - inside the map, one tasklet that always yields its value (not a
//!   `by_ref` output) writes the element `p_1 + c_1, ..., p_n + c_n` for
//!   distinct map parameters `p_d` with unit steps, whose ranges shifted by
//!   the constants `c_d` are exactly the container's shape.
//!
//! Every element is then written by the map before the node's readers run
//! (DaCe reads an access node's data after everything written into it).
//! The same holds for a transient whose one access node is written only by
//! a copy into the whole container (the buffers of `sdfg-in-local-storage`
//! over whole tiles).

use sdfg_dialect::ir::Op;
use sdfg_dialect::{incoming_edges, EdgeRole, Memlet, Wcr};
use sdfg_symbolic::{parse_subset, Expr};

use super::types::Layout;

/// Whether transient `alloc` (with `layout`) is completely written before
/// anything reads it, by the pattern the module documentation describes.
pub(super) fn written_before_read(sdfg: Op<'_>, alloc: Op<'_>, layout: &Layout) -> bool {
    if layout.scalar || layout.stream || layout.view || layout.reference {
        return false;
    }
    if layout.offsets.iter().any(|o| o.as_int() != Some(0)) {
        return false;
    }
    let Some(value) = alloc.results().first().copied() else {
        return false;
    };
    let uses = value.uses();
    let [(access, 0)] = uses.as_slice() else {
        return false;
    };
    if !access.is("sdfg.access") {
        return false;
    }
    let writes: Vec<_> = incoming_edges(*access)
        .into_iter()
        .filter(|e| e.role != EdgeRole::After)
        .collect();
    let [edge] = writes.as_slice() else {
        return false;
    };
    let Some(memlet) = &edge.memlet else {
        return false;
    };
    if edge.role != EdgeRole::Input || !plain(memlet) {
        return false;
    }
    let name = alloc.str_attr("name").unwrap_or_default();
    if let Some(destination) = &memlet.other {
        // A copy into the whole container.
        return covers_whole(destination, &layout.shape) && !container_is_mentioned(sdfg, name);
    }
    let Some(map) = edge.source.defining_op().filter(|o| o.is("sdfg.map")) else {
        return false;
    };
    // The scan of the whole SDFG comes last, for the transients that pass
    // the local checks.
    covers_whole(&memlet.subset, &layout.shape)
        && map_writes_every_element(map, edge.source, &layout.shape)
        && !container_is_mentioned(sdfg, name)
}

/// A memlet that writes its subset once per element: no WCR, not dynamic.
fn plain(memlet: &Memlet) -> bool {
    !memlet.dynamic && memlet.wcr == Wcr::None
}

/// Whether `subset` is `0:size` in every dimension of `shape`.
fn covers_whole(subset: &str, shape: &[Expr]) -> bool {
    let Ok(subset) = parse_subset(subset) else {
        return false;
    };
    let ranges = subset.ranges();
    ranges.len() == shape.len()
        && ranges.iter().zip(shape).all(|(r, size)| {
            r.start.as_int() == Some(0)
                && r.step.as_int() == Some(1)
                && r.tile.as_int() == Some(1)
                && Expr::sub(&r.end, size).as_int() == Some(0)
        })
}

/// Whether `map` writes every element of `shape` into its result `output`
/// through one tasklet that always yields it.
fn map_writes_every_element(
    map: Op<'_>,
    output: sdfg_dialect::ir::Val<'_>,
    shape: &[Expr],
) -> bool {
    let Some(k) = map.results().iter().position(|r| *r == output) else {
        return false;
    };
    let out_names = map.str_array_attr("out_names");
    let Some(connector) = out_names.get(k) else {
        return false;
    };
    let Some(exit) = map
        .region_ops(0)
        .into_iter()
        .last()
        .filter(|o| o.is("sdfg.exit"))
    else {
        return false;
    };
    let edges: Vec<_> = incoming_edges(exit)
        .into_iter()
        .filter(|e| e.connector == Some(*connector))
        .collect();
    let [edge] = edges.as_slice() else {
        return false;
    };
    let Some(memlet) = &edge.memlet else {
        return false;
    };
    let Some(tasklet) = edge.source.defining_op().filter(|o| o.is("sdfg.tasklet")) else {
        return false;
    };
    let result = tasklet.results().iter().position(|r| *r == edge.source);
    let by_ref = tasklet.bool_array_attr("by_ref");
    if tasklet.parent() != Some(map)
        || !plain(memlet)
        || result.is_none_or(|i| by_ref.get(i).copied().unwrap_or(false))
    {
        return false;
    }
    let Ok(point) = parse_subset(&memlet.subset) else {
        return false;
    };
    let ranges: Vec<_> = map
        .str_array_attr("ranges")
        .iter()
        .map(|r| {
            parse_subset(r)
                .ok()
                .and_then(|s| s.ranges().first().cloned())
        })
        .collect();
    let params = map.str_array_attr("params");
    let mut used = Vec::new();
    point.ranges().len() == shape.len()
        && point.ranges().iter().zip(shape).all(|(r, size)| {
            // One element per dimension: `p + c`.
            if r.tile.as_int() != Some(1) || Expr::sub(&r.end, &r.start).as_int() != Some(1) {
                return false;
            }
            let Some(p) = params.iter().position(|p| r.start.mentions(p)) else {
                return false;
            };
            let Some(Some(range)) = ranges.get(p) else {
                return false;
            };
            let offset = Expr::sub(&r.start, &Expr::symbol(params[p]));
            if used.contains(&p)
                || !offset.free_symbols().is_empty()
                || range.step.as_int() != Some(1)
            {
                return false;
            }
            used.push(p);
            Expr::add(&range.start, &offset).as_int() == Some(0)
                && Expr::sub(&Expr::add(&range.end, &offset), size).as_int() == Some(0)
        })
}

/// Whether `name` appears as a word in an inter-state expression, a loop's
/// or branch's condition, or a quiescence condition of `sdfg` (which may
/// read containers). A conservative test: a mention keeps the fill.
fn container_is_mentioned(sdfg: Op<'_>, name: &str) -> bool {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mentions = |text: &str| {
        text.match_indices(name).any(|(at, _)| {
            !text[..at].ends_with(is_word) && !text[at + name.len()..].starts_with(is_word)
        })
    };
    sdfg.descendants().into_iter().any(|op| {
        let texts: Vec<&str> = match op.name() {
            "sdfg.edge" => {
                let mut t = op.str_array_attr("assign_values");
                t.extend(op.str_attr("condition"));
                t
            }
            "sdfg.loop" => ["init", "cond", "update"]
                .iter()
                .filter_map(|k| op.str_attr(k))
                .collect(),
            "sdfg.branch" => op.str_attr("condition").into_iter().collect(),
            "sdfg.consume" => op.str_attr("quiescence").into_iter().collect(),
            _ => Vec::new(),
        };
        texts.into_iter().any(mentions)
    })
}
