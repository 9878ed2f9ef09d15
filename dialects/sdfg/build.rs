//! Builds the dialect's C++ (ODS-generated classes, verifiers, shims) with
//! CMake against Debian's LLVM/MLIR 19 and links it statically.

use std::{env, path::PathBuf};

fn main() {
    let prefix = env::var("MLIR_SYS_190_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-19".into());
    for path in ["CMakeLists.txt", "include", "lib", "../../cmake"] {
        println!("cargo:rerun-if-changed={path}");
    }
    println!("cargo:rerun-if-env-changed=MLIR_SYS_190_PREFIX");
    let out = cmake::Config::new(".")
        .generator("Ninja")
        .profile("Release")
        .define("MLIR_DIR", format!("{prefix}/lib/cmake/mlir"))
        .define("LLVM_DIR", format!("{prefix}/lib/cmake/llvm"))
        .build();
    println!("cargo:rustc-link-search=native={}/lib", out.display());
    println!("cargo:rustc-link-lib=static=SDFGCpp");
    let doc: PathBuf = out.join("doc").join("SDFGOps.md");
    println!("cargo:rustc-env=SDFG_DIALECT_DOC={}", doc.display());
}
