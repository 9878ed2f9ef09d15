//! The state machines of control-flow regions, kept up to date while the
//! simplify passes change them.
//!
//! A region's blocks are its `sdfg.state`/`sdfg.loop`/... ops and its
//! edges its `sdfg.edge` ops, joined by symbol names; the first block is
//! the start block. [`Machine`] indexes both once (linear in the region)
//! and is updated edge by edge as blocks are fused or removed, so that a
//! pass over a region of `n` blocks stays linear instead of re-reading the
//! region after every change.

use sdfg_dialect::ir::Op;
use sdfg_dialect::rewrite;
use sdfg_dialect::CONTROL_FLOW_BLOCKS;
use std::collections::{HashMap, HashSet};

/// The ops whose region 0 is a state machine.
const MACHINE_OWNERS: &[&str] = &[
    "sdfg.sdfg",
    "sdfg.loop",
    "sdfg.branch",
    "sdfg.region",
    "sdfg.call_region",
];

/// `root` and every op nested in it whose region is a state machine,
/// innermost last.
pub fn machine_owners(root: Op<'_>) -> Vec<Op<'_>> {
    std::iter::once(root)
        .chain(root.descendants())
        .filter(|op| MACHINE_OWNERS.contains(&op.name()))
        .collect()
}

/// `base`, or `base` with a number, whichever no block of `owner`'s SDFG
/// (`owner` itself, or the SDFG around it) is named.
pub fn unique_block_name(owner: Op<'_>, base: &str) -> Option<String> {
    let sdfg = crate::sdfg_of(owner)?;
    let taken: HashSet<&str> = sdfg
        .descendants()
        .into_iter()
        .filter_map(|o| o.symbol_name())
        .collect();
    (0..)
        .map(|k| match k {
            0 => base.to_string(),
            k => format!("{base}_{k}"),
        })
        .find(|n| !taken.contains(n.as_str()))
}

/// The assignments of an inter-state edge, in order.
pub fn assignments(edge: Op<'_>) -> Vec<(String, String)> {
    edge.str_array_attr("assign_names")
        .into_iter()
        .zip(edge.str_array_attr("assign_values"))
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect()
}

/// Whether an inter-state condition is always true.
pub fn always_true(condition: Option<&str>) -> bool {
    match condition.map(str::trim) {
        None => true,
        Some(c) => matches!(c, "1" | "True" | "true" | "(1)" | "(True)"),
    }
}

/// The state machine of one region.
pub struct Machine<'a> {
    /// The block that starts the region.
    pub start: Option<Op<'a>>,
    blocks: HashMap<String, Op<'a>>,
    out: HashMap<String, Vec<Op<'a>>>,
    into: HashMap<String, Vec<Op<'a>>>,
    order: Vec<Op<'a>>,
    block_order: Vec<String>,
    erased: HashSet<Op<'a>>,
}

impl<'a> Machine<'a> {
    /// Indexes the blocks and edges of `owner`'s region.
    pub fn new(owner: Op<'a>) -> Self {
        let mut machine = Machine {
            start: None,
            blocks: HashMap::new(),
            out: HashMap::new(),
            into: HashMap::new(),
            order: Vec::new(),
            block_order: Vec::new(),
            erased: HashSet::new(),
        };
        for op in owner.region_ops(0) {
            if CONTROL_FLOW_BLOCKS.contains(&op.name()) {
                machine.start.get_or_insert(op);
                if let Some(name) = op.symbol_name() {
                    machine.blocks.insert(name.to_string(), op);
                    machine.block_order.push(name.to_string());
                }
            } else if op.is("sdfg.edge") {
                machine.add_edge(op);
            }
        }
        machine
    }

    fn add_edge(&mut self, edge: Op<'a>) {
        self.order.push(edge);
        if let Some(src) = edge.symbol_ref_attr("src") {
            self.out.entry(src.to_string()).or_default().push(edge);
        }
        if let Some(dst) = edge.symbol_ref_attr("dst") {
            self.into.entry(dst.to_string()).or_default().push(edge);
        }
    }

    /// The block named `name`.
    pub fn block(&self, name: &str) -> Option<Op<'a>> {
        self.blocks.get(name).copied()
    }

    /// The names of the live blocks, in the region's order.
    pub fn block_names(&self) -> Vec<String> {
        self.block_order
            .iter()
            .filter(|n| self.blocks.contains_key(*n))
            .cloned()
            .collect()
    }

    /// The edges leaving `name`.
    pub fn out_edges(&self, name: &str) -> &[Op<'a>] {
        self.out.get(name).map(Vec::as_slice).unwrap_or_default()
    }

    /// The edges entering `name`.
    pub fn in_edges(&self, name: &str) -> &[Op<'a>] {
        self.into.get(name).map(Vec::as_slice).unwrap_or_default()
    }

    /// Every live edge, in the region's order.
    pub fn edges(&self) -> Vec<Op<'a>> {
        self.order
            .iter()
            .filter(|e| !self.erased.contains(*e))
            .copied()
            .collect()
    }

    /// Whether `edge` has not been erased through this machine.
    pub fn is_live(&self, edge: Op<'a>) -> bool {
        !self.erased.contains(&edge)
    }

    /// Makes `edge` leave `src` instead of its current source.
    pub fn set_source(&mut self, edge: Op<'a>, src: &str) {
        if let Some(old) = edge.symbol_ref_attr("src") {
            if let Some(list) = self.out.get_mut(old) {
                list.retain(|e| *e != edge);
            }
        }
        rewrite::set_symbol_ref(edge, "src", src);
        self.out.entry(src.to_string()).or_default().push(edge);
    }

    /// Makes `edge` enter `dst` instead of its current destination.
    pub fn set_destination(&mut self, edge: Op<'a>, dst: &str) {
        if let Some(old) = edge.symbol_ref_attr("dst") {
            if let Some(list) = self.into.get_mut(old) {
                list.retain(|e| *e != edge);
            }
        }
        rewrite::set_symbol_ref(edge, "dst", dst);
        self.into.entry(dst.to_string()).or_default().push(edge);
    }

    /// Erases `edge`.
    pub fn erase_edge(&mut self, edge: Op<'a>) {
        for (attr, map) in [("src", &mut self.out), ("dst", &mut self.into)] {
            if let Some(list) = edge.symbol_ref_attr(attr).and_then(|n| map.get_mut(n)) {
                list.retain(|e| *e != edge);
            }
        }
        self.erased.insert(edge);
        // SAFETY: an edge has no results and no nested ops; the handle is
        // dropped from every index above and only compared afterwards.
        unsafe { rewrite::erase(edge) };
    }

    /// Erases block `name` and every edge entering or leaving it.
    pub fn erase_block(&mut self, name: &str) {
        let mut edges: Vec<Op<'a>> = self.out_edges(name).to_vec();
        for edge in self.in_edges(name) {
            if !edges.contains(edge) {
                edges.push(*edge);
            }
        }
        for edge in edges {
            self.erase_edge(edge);
        }
        if let Some(block) = self.blocks.remove(name) {
            if self.start == Some(block) {
                self.start = None;
            }
            // SAFETY: blocks have no results; every handle to it and its
            // edges has been dropped from the indices.
            unsafe { rewrite::erase(block) };
        }
    }
}
