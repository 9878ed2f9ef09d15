//! Which symbols an SDFG defines itself and which it reads: the free
//! symbols of its interface, computed as DaCe 1.0's `used_symbols` does.
//! The lowering and the HLS emitter take their functions' symbol arguments
//! from here.

use sdfg_dialect::ir::Op;
use sdfg_dialect::{Memlet, CONTROL_FLOW_BLOCKS};
use sdfg_symbolic::{parse, parse_subset};
use std::collections::BTreeSet;

/// The control-flow blocks (states, loops, conditionals, regions, jumps) and
/// the inter-state edges of `owner`'s region, in op order.
pub fn blocks_and_edges(owner: Op<'_>) -> (Vec<Op<'_>>, Vec<Op<'_>>) {
    let ops = owner.region_ops(0);
    let blocks = ops
        .iter()
        .copied()
        .filter(|o| CONTROL_FLOW_BLOCKS.contains(&o.name()))
        .collect();
    let edges = ops.into_iter().filter(|o| o.is("sdfg.edge")).collect();
    (blocks, edges)
}

/// The symbols that inter-state edges assign or loops iterate in `sdfg`,
/// in any of its control-flow regions (not in nested SDFGs): whether or
/// not [`defined_symbols`] counts them as defined, their values change
/// during a call.
pub fn assigned_symbols(sdfg: Op<'_>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack = vec![sdfg];
    while let Some(owner) = stack.pop() {
        for op in owner.region_ops(0) {
            match op.name() {
                "sdfg.edge" => out.extend(
                    op.str_array_attr("assign_names")
                        .into_iter()
                        .map(String::from),
                ),
                "sdfg.loop" => {
                    if let Some(v) = op.str_attr("var") {
                        out.insert(v.to_string());
                    }
                    stack.push(op);
                }
                "sdfg.conditional" | "sdfg.branch" | "sdfg.region" | "sdfg.call_region" => {
                    stack.push(op)
                }
                _ => {}
            }
        }
    }
    out
}

/// The symbols `sdfg` defines itself, which are therefore not free (not
/// arguments of its function), computed exactly as DaCe 1.0's
/// `used_symbols` computes them, so that the interface is the one DaCe's
/// generated code has:
///
/// - blocks are visited breadth-first from the start block; a symbol an
///   edge assigns is defined unless the edge itself reads it (condition, or
///   a right-hand side up to that assignment) or the block it leaves
///   reads it (a state's dataflow, or anything a region block read);
/// - a symbol an edge reads that is not defined at that point is *used
///   before assignment*, and never defined;
/// - a loop's variable is defined, and its body is analysed on its own:
///   what the body reads before assigning is used before assignment unless
///   the loop's surroundings defined it first;
/// - a conditional's branches share the surrounding sets.
///
/// Reads by states alone never make a symbol free: DaCe declares every
/// defined symbol as a local of the generated function.
pub fn defined_symbols(sdfg: Op<'_>) -> BTreeSet<String> {
    #[derive(Default)]
    struct Sets {
        defined: BTreeSet<String>,
        free: BTreeSet<String>,
        used_before: BTreeSet<String>,
    }
    fn symbols(text: &str) -> BTreeSet<String> {
        parse(text).map(|e| e.free_symbols()).unwrap_or_default()
    }
    /// DaCe's `InterstateEdge.used_symbols`.
    fn edge_reads(edge: Op<'_>) -> (BTreeSet<String>, Vec<String>) {
        let condition = edge.str_attr("condition").map(symbols).unwrap_or_default();
        let mut rhs = BTreeSet::new();
        let mut candidates = Vec::new();
        for (name, value) in edge
            .str_array_attr("assign_names")
            .into_iter()
            .zip(edge.str_array_attr("assign_values"))
        {
            rhs.extend(symbols(value));
            if !condition.contains(name) && !rhs.contains(name) {
                candidates.push(name.to_string());
            }
        }
        let mut reads: BTreeSet<String> = condition.union(&rhs).cloned().collect();
        reads.retain(|s| !candidates.contains(s));
        (reads, candidates)
    }
    fn finish(s: &mut Sets) {
        s.defined.retain(|x| !s.used_before.contains(x));
        s.free.retain(|x| !s.defined.contains(x));
    }
    /// `ControlFlowRegion._used_symbols_internal` on the blocks of `owner`.
    fn region(owner: Op<'_>, s: &mut Sets) {
        let (blocks, edges) = blocks_and_edges(owner);
        let mut seen = BTreeSet::new();
        let mut queue: std::collections::VecDeque<Op> =
            blocks.first().copied().into_iter().collect();
        while let Some(block) = queue.pop_front() {
            let name = block.symbol_name().unwrap_or_default();
            if !seen.insert(name.to_string()) {
                continue;
            }
            let block_reads = match block.name() {
                "sdfg.state" => {
                    let used = symbols_used_in_state(block);
                    s.free.extend(used.iter().cloned());
                    used
                }
                "sdfg.loop" => {
                    loop_region(block, s);
                    s.free.clone()
                }
                "sdfg.conditional" => {
                    for branch in block
                        .region_ops(0)
                        .into_iter()
                        .filter(|o| o.is("sdfg.branch"))
                    {
                        if let Some(c) = branch.str_attr("condition") {
                            let read = symbols(c);
                            s.free
                                .extend(read.into_iter().filter(|x| !s.defined.contains(x)));
                        }
                        region(branch, s);
                    }
                    finish(s);
                    s.free.clone()
                }
                "sdfg.region" | "sdfg.call_region" => {
                    region(block, s);
                    s.free.clone()
                }
                // Break, continue and return read nothing.
                _ => BTreeSet::new(),
            };
            for edge in edges
                .iter()
                .filter(|e| e.symbol_ref_attr("src") == Some(name))
            {
                let (reads, candidates) = edge_reads(*edge);
                s.defined.extend(
                    candidates
                        .into_iter()
                        .filter(|c| !reads.contains(c) && !block_reads.contains(c)),
                );
                s.used_before
                    .extend(reads.iter().filter(|x| !s.defined.contains(*x)).cloned());
                s.free.extend(reads);
                let dst = edge.symbol_ref_attr("dst").unwrap_or_default();
                queue.extend(
                    blocks
                        .iter()
                        .copied()
                        .filter(|b| b.symbol_name() == Some(dst)),
                );
            }
        }
        finish(s);
    }
    /// `LoopRegion._used_symbols_internal`.
    fn loop_region(op: Op<'_>, s: &mut Sets) {
        let var = op.str_attr("var").unwrap_or_default().to_string();
        s.defined.insert(var.clone());
        for key in ["init", "cond", "update"] {
            s.free
                .extend(op.str_attr(key).map(symbols).unwrap_or_default());
        }
        let mut body = Sets::default();
        region(op, &mut body);
        let outside: BTreeSet<String> = s.defined.difference(&s.used_before).cloned().collect();
        s.used_before.extend(
            body.used_before
                .into_iter()
                .filter(|x| *x != var && !outside.contains(x)),
        );
        s.free.extend(body.free);
        s.defined.extend(body.defined);
        finish(s);
    }
    let mut sets = Sets::default();
    region(sdfg, &mut sets);
    sets.defined
}

/// The symbols a state's dataflow reads (memlet subsets, map ranges,
/// symbolic values in tasklets, nested-SDFG symbol mappings), without the
/// parameters of its maps.
pub fn symbols_used_in_state(state: Op<'_>) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    let mut params = BTreeSet::new();
    let subset = |text: &str, used: &mut BTreeSet<String>| {
        if let Ok(s) = parse_subset(text) {
            used.extend(s.free_symbols());
        }
    };
    for op in state.descendants() {
        if op.is("sdfg.nested") {
            // The nested SDFG's own symbols are not this state's.
            for v in op.str_array_attr("symbol_values") {
                if let Ok(e) = parse(v) {
                    used.extend(e.free_symbols());
                }
            }
            continue;
        }
        if op.ancestor("sdfg.sdfg") != state.ancestor("sdfg.sdfg") {
            continue;
        }
        for key in ["in_memlets", "write_memlets", "dyn_memlets", "memlets"] {
            for attr in op.array_attr(key) {
                if let Some(m) = Memlet::from_attr(attr) {
                    subset(&m.subset, &mut used);
                    if let Some(o) = &m.other {
                        subset(o, &mut used);
                    }
                }
            }
        }
        if let Some(m) = op.attr("source_memlet").and_then(Memlet::from_attr) {
            subset(&m.subset, &mut used);
        }
        if op.is("sdfg.map") {
            params.extend(op.str_array_attr("params").into_iter().map(String::from));
            for r in op.str_array_attr("ranges") {
                subset(r, &mut used);
            }
        }
        if op.is("sdfg.sym") {
            if let Some(e) = op.str_attr("expr").and_then(|t| parse(t).ok()) {
                used.extend(e.free_symbols());
            }
        }
    }
    used.retain(|s| !params.contains(s));
    used
}

/// Whether any expression of `sdfg` (inter-state conditions and
/// assignments, loop and branch expressions, dataflow) reads `name`.
pub fn symbol_is_read(sdfg: Op<'_>, name: &str) -> bool {
    let mentions = |text: &str| parse(text).is_ok_and(|e| e.mentions(name));
    sdfg.descendants().into_iter().any(|op| {
        if op.ancestor("sdfg.sdfg") != Some(sdfg) && !op.is("sdfg.state") {
            return false;
        }
        match op.name() {
            "sdfg.state" => {
                op.ancestor("sdfg.sdfg") == Some(sdfg) && symbols_used_in_state(op).contains(name)
            }
            "sdfg.edge" => {
                op.str_attr("condition").is_some_and(mentions)
                    || op.str_array_attr("assign_values").into_iter().any(mentions)
            }
            "sdfg.loop" => ["init", "cond", "update"]
                .iter()
                .any(|k| op.str_attr(k).is_some_and(mentions)),
            "sdfg.branch" => op.str_attr("condition").is_some_and(mentions),
            _ => false,
        }
    })
}
