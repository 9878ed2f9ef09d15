//! Analyses of SDFGs: graph views and validation.

pub mod graph;
pub mod validate;
