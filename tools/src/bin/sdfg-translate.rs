//! `sdfg-translate`: `mlir-translate` with the sdfg dialect and the Rust
//! translations (`--sdfg-to-dot`, ...).

fn main() {
    sdfg_registry::register_all();
    std::process::exit(sdfg_dialect::driver::translate_main(std::env::args()));
}
