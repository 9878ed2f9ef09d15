//! Transformations of SDFGs that stay in the sdfg dialect: library-node
//! expansion now, and the simplify family, the dataflow transformations
//! and auto-optimize as they land, one pass per file.
//!
//! Transformations depend on the dialect, the core libraries, the tasklet
//! translation and the analyses; never on conversions, translations or
//! the execution engine.

#![deny(missing_docs)]

pub mod cfg;
pub mod expand_library;
pub mod state_fusion;

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
