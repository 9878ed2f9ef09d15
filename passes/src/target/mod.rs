//! Translations out of the sdfg dialect.

pub mod dot;
