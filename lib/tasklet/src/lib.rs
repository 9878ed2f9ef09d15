//! DaCe's tasklet code as MLIR text, without linking MLIR.
//!
//! A DaCe tasklet is a small program in Python (or C++) over its
//! connectors. [`translate_tasklet`] parses Python tasklet code with a real
//! Python parser and writes the body of an `sdfg.tasklet` region as MLIR
//! text, with C++'s semantics, which is what DaCe compiles the code to.
//! The DaCe importer uses it for tasklets, and the conversion to `scf` for
//! expressions that must compute as C++ does (floating-point symbols).
//! [`printf`] reads C `printf` formats and [`text`] holds the literal
//! printers both sides share.
//!
//! This crate sits below the dialect's passes and translations: it may
//! depend only on the Python parser, and everything that links MLIR may
//! depend on it.

#![deny(missing_docs)]

pub mod printf;
mod python;
pub mod text;

pub use python::*;
