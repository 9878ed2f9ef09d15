//! Files written by `save_sdfg` load and validate in DaCe 1.0.2 itself.
//!
//! Needs a Python with DaCe 1.0.2: `$DACE_PYTHON`, or the first
//! `.venv/bin/python` above this crate (the project's venv). Without one the
//! seed check says so and passes; the full-corpus check is `#[ignore]`d.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use sdfg_dace_model::{load_sdfg, save_sdfg};

/// Loads and validates every path given as an argument; prints one line per
/// failure as `FAIL <file> <error>`, then `checked N`.
const CHECKER: &str = r#"
import sys, warnings
warnings.simplefilter("ignore")
import dace
failed = 0
for path in sys.argv[1:]:
    try:
        dace.SDFG.from_file(path).validate()
    except Exception as e:
        failed += 1
        print("FAIL", path, type(e).__name__, str(e).splitlines()[0] if str(e) else "")
print("checked", len(sys.argv) - 1)
sys.exit(1 if failed else 0)
"#;

fn dace_python() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("DACE_PYTHON") {
        return Some(PathBuf::from(p));
    }
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|p| p.join(".venv").join("bin").join("python"))
        .find(|p| p.is_file())
}

/// Saves each file through the model into a temporary directory and runs
/// DaCe's load-and-validate on the results.
fn check_with_dace(python: &Path, files: &[PathBuf]) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let mut saved = Vec::new();
    for (i, path) in files.iter().enumerate() {
        let bytes = std::fs::read(path).expect("readable corpus file");
        let sdfg = load_sdfg(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = path.file_name().expect("file name").to_string_lossy();
        let out = dir.path().join(format!("{i:04}_{name}"));
        std::fs::write(&out, save_sdfg(&sdfg, false)).expect("writable temporary file");
        saved.push(out);
    }
    let output = Command::new(python)
        .arg("-c")
        .arg(CHECKER)
        .args(&saved)
        .env("DACE_default_build_folder", dir.path().join(".dacecache"))
        .current_dir(dir.path())
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    println!("{stdout}");
    assert!(
        output.status.success(),
        "DaCe rejected saved files:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The DaCe interpreter; without one the checks are skipped, unless
/// `SDFG_REQUIRE_DACE` is set (as the README's test command does, after
/// creating the venv), which makes a missing DaCe an error.
fn required_dace_python() -> Option<PathBuf> {
    let python = dace_python();
    if python.is_none() {
        assert!(
            std::env::var_os("SDFG_REQUIRE_DACE").is_none(),
            "SDFG_REQUIRE_DACE is set but no DaCe venv was found (scripts/dace-venv.sh creates it)"
        );
        println!("skipped: no DaCe venv found (set DACE_PYTHON)");
    }
    python
}

#[test]
fn dace_loads_saved_seeds() {
    let Some(python) = required_dace_python() else {
        return;
    };
    check_with_dace(&python, &common::seed_files());
}

#[test]
fn dace_loads_saved_corpus() {
    let Some(python) = required_dace_python() else {
        return;
    };
    let index = common::dace_index();
    let dace_dir = common::corpus_dir().join("dace");
    let files: Vec<PathBuf> = index
        .iter()
        .filter(|(_, verdict)| verdict.as_str() == "ok")
        .map(|(file, _)| dace_dir.join(file))
        .collect();
    check_with_dace(&python, &files);
}
