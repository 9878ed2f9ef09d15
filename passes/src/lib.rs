//! Analyses, transformations and translations of the `sdfg` dialect.

#![deny(missing_docs)]

pub mod analysis;
pub mod conversion;
pub mod execute;
pub mod registry;
pub mod target;
pub mod transform;
pub mod translate;

pub use registry::register_all;
