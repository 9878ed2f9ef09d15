//! `sdfg-remove-unused-symbols`: removes the symbols an SDFG declares but
//! nothing reads, as DaCe's `RemoveUnusedSymbols` does: their
//! declarations, the inter-state assignments to them, and for a nested
//! SDFG the entries of its caller's symbol mapping that set them.
//!
//! ```mlir
//! // before: promotion and forwarding left `t` without a mention
//! %r = sdfg.nested "inner" ... symbols("M" = "N", "t" = "N + 1") {
//!   sdfg.sdfg @inner(...) symbols {M = i64, t = i64} { ... M ... }
//! }
//! // after
//! %r = sdfg.nested "inner" ... symbols("M" = "N") {
//!   sdfg.sdfg @inner(...) symbols {M = i64} { ... M ... }
//! }
//! ```
//!
//! A symbol is unused when no string attribute, memlet or container type
//! under its SDFG names it, except as the target of an assignment or in
//! the value assigned to an unused symbol (an assignment has no effect
//! but its target's value). Innermost SDFGs go first, so that a symbol of
//! the caller read only by a mapping entry that goes is removed in the
//! same run.

use mlir_sys::MlirAttribute;
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::{dictionary_entries, Op};
use sdfg_dialect::rewrite;
use std::collections::{HashMap, HashSet};

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-remove-unused-symbols",
    summary: "Remove declared symbols that nothing reads, the assignments to them, and the symbol-mapping entries that set them in nested SDFGs (DaCe's RemoveUnusedSymbols)",
    op_name: "builtin.module",
    create: || Box::new(RemoveUnusedSymbols),
};

/// The pass (no options).
#[derive(Clone, Copy)]
pub struct RemoveUnusedSymbols;

impl RustPass for RemoveUnusedSymbols {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        crate::no_options("sdfg-remove-unused-symbols", options)
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        remove_unused_symbols(module);
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(*self)
    }
}

/// Removes unused symbols in every SDFG under `root`, innermost first;
/// returns how many were removed.
pub fn remove_unused_symbols(root: Op<'_>) -> usize {
    let mut sdfgs: Vec<Op<'_>> = std::iter::once(root)
        .chain(root.descendants())
        .filter(|op| op.is("sdfg.sdfg"))
        .collect();
    sdfgs.reverse();
    let mut removed = 0;
    for sdfg in sdfgs {
        let counts = crate::mention_counts(sdfg);
        // The edges of this SDFG (not of the SDFGs nested in it) and how
        // often each symbol is assigned on them.
        let edges: Vec<Op<'_>> = sdfg
            .descendants()
            .into_iter()
            .filter(|op| op.is("sdfg.edge") && crate::enclosing_sdfg(*op) == Some(sdfg))
            .collect();
        // How often each symbol is an assignment's target, and how often
        // the value assigned to each symbol mentions each name.
        let mut assigned: HashMap<&str, usize> = HashMap::new();
        let mut read_by: HashMap<&str, HashMap<String, usize>> = HashMap::new();
        for edge in &edges {
            for (name, value) in edge
                .str_array_attr("assign_names")
                .into_iter()
                .zip(edge.str_array_attr("assign_values"))
            {
                *assigned.entry(name).or_default() += 1;
                let reads = read_by.entry(name).or_default();
                for word in crate::identifiers(value) {
                    *reads.entry(word).or_default() += 1;
                }
            }
        }
        // Unused: every mention is an assignment to it or a read by the
        // value assigned to an unused symbol (`d = d + 1` alone is dead).
        // The greatest such set: start from all, drop the live ones.
        let mut unused: HashSet<String> = sdfg
            .attr("symbols")
            .map(dictionary_entries)
            .unwrap_or_default()
            .into_iter()
            .map(|(name, _)| name.to_string())
            .collect();
        loop {
            let mut dead_reads: HashMap<&str, usize> = HashMap::new();
            for (word, n) in unused
                .iter()
                .filter_map(|s| read_by.get(s.as_str()))
                .flatten()
            {
                *dead_reads.entry(word.as_str()).or_default() += n;
            }
            let live: Vec<String> = unused
                .iter()
                .filter(|name| {
                    let name = name.as_str();
                    let mentions = counts.get(name).copied().unwrap_or(0);
                    let explained = assigned.get(name).copied().unwrap_or(0)
                        + dead_reads.get(name).copied().unwrap_or(0);
                    mentions != explained
                })
                .cloned()
                .collect();
            if live.is_empty() {
                break;
            }
            for name in live {
                unused.remove(&name);
            }
        }
        for edge in &edges {
            let names = edge.str_array_attr("assign_names");
            if names.iter().any(|n| unused.contains(*n)) {
                let kept: Vec<(String, String)> = names
                    .iter()
                    .zip(edge.str_array_attr("assign_values"))
                    .filter(|(n, _)| !unused.contains(**n))
                    .map(|(n, v)| (n.to_string(), v.to_string()))
                    .collect();
                rewrite::set_assignments(*edge, &kept);
            }
        }
        let caller = sdfg.parent().filter(|p| p.is("sdfg.nested"));
        for name in &unused {
            rewrite::undeclare_symbol(sdfg, name);
            if let Some(caller) = caller {
                remove_mapping(caller, name);
            }
        }
        removed += unused.len();
    }
    removed
}

/// Removes the entry for `name` from the symbol mapping of `nested`.
fn remove_mapping(nested: Op<'_>, name: &str) {
    let names = nested.str_array_attr("symbol_names");
    let values = nested.str_array_attr("symbol_values");
    let Some(k) = names.iter().position(|n| *n == name) else {
        return;
    };
    let keep = |list: &[&str]| -> MlirAttribute {
        let kept: Vec<&str> = list
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != k)
            .map(|(_, s)| *s)
            .collect();
        rewrite::str_array_attr(nested, &kept)
    };
    nested.set_attr("symbol_names", keep(&names));
    nested.set_attr("symbol_values", keep(&values));
}
