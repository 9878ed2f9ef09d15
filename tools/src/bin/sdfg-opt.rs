//! `sdfg-opt`: `mlir-opt` with the sdfg dialect and every Rust pass.

fn main() {
    sdfg_registry::register_all();
    std::process::exit(sdfg_dialect::driver::opt_main(std::env::args()));
}
