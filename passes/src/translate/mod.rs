//! Translations between the sdfg dialect and other formats.

pub mod dace_export;
pub mod dace_import;
pub mod mlir_python;
pub mod python_tasklet;
