//! Translations between the sdfg dialect and other formats.

pub mod dace_import;
