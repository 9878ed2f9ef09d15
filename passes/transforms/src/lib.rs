//! Transformations of SDFGs that stay in the sdfg dialect: library-node
//! expansion now, and the simplify family, the dataflow transformations
//! and auto-optimize as they land, one pass per file.
//!
//! Transformations depend on the dialect, the core libraries, the tasklet
//! translation and the analyses; never on conversions, translations or
//! the execution engine.

#![deny(missing_docs)]

pub mod cfg;
pub mod dead_dataflow_elimination;
pub mod dead_state_elimination;
pub mod expand_library;
pub mod redundant_array;
pub mod remove_unused_containers;
pub mod scalar_to_symbol;
pub mod simplify;
pub mod state_fusion;
pub mod trivial_tasklet;

use sdfg_dialect::ir::{array_elements, attr_str, Op};
use std::collections::HashSet;

/// Accepts an empty option string, for passes without options.
pub(crate) fn no_options(pass: &str, options: &str) -> Result<(), String> {
    if options.trim().is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{pass}: unknown option `{options}` (the pass has none)"
        ))
    }
}

/// Every identifier that appears in a string attribute of an op under
/// `sdfg` (container names as read by conditions, assignments, loop
/// bounds and foreign code), except the names that declare things.
pub(crate) fn mentioned_names(sdfg: Op<'_>) -> HashSet<String> {
    let mut names = HashSet::new();
    for op in std::iter::once(sdfg).chain(sdfg.descendants()) {
        for (name, attr) in op.attributes() {
            if matches!(
                name,
                "sym_name"
                    | "name"
                    | "label"
                    | "arg_names"
                    | "in_names"
                    | "out_names"
                    | "names"
                    | "dyn_names"
            ) {
                continue;
            }
            let strings = attr_str(attr)
                .into_iter()
                .chain(array_elements(attr).into_iter().filter_map(attr_str));
            for text in strings {
                names.extend(identifiers(text));
            }
        }
    }
    names
}

/// The identifiers in a piece of code or a symbolic expression.
pub(crate) fn identifiers(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty() && !w.starts_with(|c: char| c.is_ascii_digit()))
        .map(str::to_string)
}

/// Whether an `sdfg.alloc` outlives one call of the SDFG (DaCe's
/// `Persistent` and `External` lifetimes): its value may be read by a
/// later call, so no write to it is dead and it cannot become a symbol.
pub(crate) fn outlives_call(alloc: Op<'_>) -> bool {
    alloc
        .attr("lifetime")
        .and_then(sdfg_dialect::Lifetime::from_attr)
        .is_some_and(|l| matches!(l.name(), "Persistent" | "External"))
}
