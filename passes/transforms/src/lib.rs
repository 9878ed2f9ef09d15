//! Transformations of SDFGs that stay in the sdfg dialect: library-node
//! expansion now, and the simplify family, the dataflow transformations
//! and auto-optimize as they land, one pass per file.
//!
//! Transformations depend on the dialect, the core libraries, the tasklet
//! translation and the analyses; never on conversions, translations or
//! the execution engine.

#![deny(missing_docs)]

pub mod expand_library;
