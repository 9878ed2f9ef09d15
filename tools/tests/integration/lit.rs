//! Runs the lit suite under `test/` with the tools this package builds.

use std::{
    io::Write,
    path::{Path, PathBuf},
    process::Command,
};

/// LLVM 19's lit, shipped by Debian's llvm-19-tools.
const LIT: &str = "/usr/lib/llvm-19/build/utils/lit/lit.py";

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Reads lit's summary counts (`Passed: N`, `Failed: M`, ...) from its
/// output.
fn count(output: &str, label: &str) -> usize {
    output
        .lines()
        .filter_map(|line| line.trim().strip_prefix(label))
        .filter_map(|rest| rest.split_whitespace().next())
        .filter_map(|n| n.parse::<usize>().ok())
        .sum()
}

#[test]
fn lit_suite() {
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_sdfg-opt"))
        .parent()
        .expect("the binary has a directory")
        .to_path_buf();
    let output = Command::new("python3")
        .arg(LIT)
        .arg("-v")
        .arg("--no-progress-bar")
        .arg(repo_root().join("test"))
        .arg(format!("--param=sdfg_bin_dir={}", bin_dir.display()))
        .output()
        .expect("python3 runs lit");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let passed = count(&stdout, "Passed:") + count(&stdout, "Expectedly Failed:");
    let failed = count(&stdout, "Failed:") - count(&stdout, "Expectedly Failed:")
        + count(&stdout, "Unresolved:")
        + count(&stdout, "Unexpectedly Passed:")
        + count(&stdout, "Timed Out:");
    let mut terminal = std::io::stderr();
    if !output.status.success() || failed > 0 {
        let _ = writeln!(terminal, "{stdout}\n{stderr}");
    }
    let _ = writeln!(terminal, "lit: {passed} passed, {failed} failed");
    assert!(passed > 0, "lit ran no test:\n{stdout}\n{stderr}");
    assert!(output.status.success() && failed == 0, "lit failed");
}
