//! Transformations of SDFGs that stay in the sdfg dialect.

pub mod expand_library;
