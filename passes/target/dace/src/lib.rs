//! Translations between the sdfg dialect and DaCe's `.sdfg`/`.sdfgz` files:
//! `--import-dace` ([`import`]) and `--export-dace` ([`export`]), with the
//! print of MLIR tasklet bodies back to Python ([`mlir_python`]), the
//! inverse of `sdfg-tasklet`'s translation.
//!
//! This crate depends on the dialect and the core libraries (the DaCe
//! model, the symbolic engine, the tasklet translation) only: never on
//! analyses, transformations, conversions or the execution engine, so that
//! a change in any of those does not rebuild the DaCe translation.

#![deny(missing_docs)]

pub mod export;
pub mod import;
pub mod mlir_python;
