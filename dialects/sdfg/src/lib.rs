//! The `sdfg` MLIR dialect from Rust.
//!
//! The dialect itself is defined in ODS (`include/sdfg/*.td`) and compiled
//! to a static C++ library by `build.rs`. This crate registers it with an
//! MLIR context, gives typed access to its container types and memlet
//! attributes, reads the dataflow edges of its ops, and exposes the driver
//! shims (`sdfg-opt`/`sdfg-translate` mains, pass and translation
//! registration) that the rest of the project builds on.

#![deny(missing_docs)]

pub mod driver;
pub mod ffi;
pub mod ir;
pub mod layout;
pub mod library;
mod model;
pub mod rewrite;
pub mod symbolic;

pub use model::*;

use melior::dialect::DialectHandle;

/// Path of the dialect documentation that mlir-tblgen generated at build
/// time; `docs/Dialect.md` must equal it.
pub const GENERATED_DIALECT_DOC: &str = env!("SDFG_DIALECT_DOC");

/// The handle of the `sdfg` dialect, for registering or loading it.
pub fn dialect_handle() -> DialectHandle {
    // SAFETY: the function returns a static handle defined by the C++ side.
    unsafe { DialectHandle::from_raw(ffi::mlirGetDialectHandle__sdfg__()) }
}

/// Creates a context with every upstream dialect and the `sdfg` dialect
/// registered and loaded.
pub fn create_context() -> melior::Context {
    symbolic::install();
    let context = melior::Context::new();
    let registry = melior::dialect::DialectRegistry::new();
    // SAFETY: the registry is valid for the duration of the call.
    unsafe { ffi::sdfgRegisterAllDialects(registry.to_raw()) };
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    context
}
