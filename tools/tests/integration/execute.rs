//! Execution: `sdfg-run` against DaCe 1.0.2 running the same `.sdfg` files
//! on the same inputs, and against NumPy references for the seeds.

use crate::import::{corpus_dir, dace_index, dace_python};
use sdfg_passes::execute::npy::Array;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// What running one program with `sdfg-run` gave.
pub(crate) enum Outcome {
    /// Every argument matches the reference.
    Pass,
    /// Some argument differs from the reference (a wrong number).
    Mismatch(String),
    /// `sdfg-run` refused with a diagnostic.
    Diagnostic(String),
    /// `sdfg-run` crashed or hung.
    Crash(String),
}

/// Runs `program` on the inputs of `case` (`in/*.npy`, `symbols`) and
/// writes its outputs to `case/ours`.
pub(crate) fn run_case(program: &Path, case: &Path) -> Result<(), Outcome> {
    let mut command = Command::new(env!("CARGO_BIN_EXE_sdfg-run"));
    command.arg(program).arg("--out").arg(case.join("ours"));
    if let Ok(symbols) = std::fs::read_to_string(case.join("symbols")) {
        for line in symbols.lines().filter(|l| !l.is_empty()) {
            command.arg("--set").arg(line);
        }
    }
    let inputs = case.join("in");
    for entry in std::fs::read_dir(&inputs).into_iter().flatten().flatten() {
        let path = entry.path();
        if let Some(name) = path.file_stem().and_then(|s| s.to_str()) {
            command
                .arg("--input")
                .arg(format!("{name}={}", path.display()));
        }
    }
    let output = command
        .output()
        .map_err(|e| Outcome::Crash(e.to_string()))?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    match output.status.code() {
        Some(0) => Ok(()),
        Some(1) if stderr.contains("error:") => Err(Outcome::Diagnostic(
            stderr
                .lines()
                .find(|l| l.contains("error:"))
                .unwrap_or_default()
                .to_string(),
        )),
        _ => Err(Outcome::Crash(format!(
            "{:?}: {}",
            output.status,
            stderr.lines().last().unwrap_or_default()
        ))),
    }
}

/// Whether two arrays hold the same numbers (NumPy's `allclose` with
/// single-precision tolerances, NaN equal to NaN).
pub(crate) fn close(a: &Array, b: &Array) -> Result<(), String> {
    if a.shape != b.shape && a.len() != b.len() {
        return Err(format!("shape {:?} instead of {:?}", a.shape, b.shape));
    }
    for i in 0..a.len() {
        let (x, y) = (a.dtype.get(&a.data, i), b.dtype.get(&b.data, i));
        let same = (x.is_nan() && y.is_nan()) || x == y || (x - y).abs() <= 1e-6 + 1e-5 * y.abs();
        if !same {
            return Err(format!("element {i} is {x}, expected {y}"));
        }
    }
    Ok(())
}

/// Compares what `sdfg-run` left in `case/ours` (inputs it did not write
/// are unchanged) with the arrays in `case/<reference>`.
pub(crate) fn compare(case: &Path, reference: &str) -> Outcome {
    let mut checked = 0;
    for entry in std::fs::read_dir(case.join(reference))
        .into_iter()
        .flatten()
        .flatten()
    {
        let path = entry.path();
        let Some(file) = path.file_name() else {
            continue;
        };
        let ours = case.join("ours").join(file);
        let ours = if ours.exists() {
            ours
        } else {
            case.join("in").join(file)
        };
        let (Ok(expected), Ok(got)) = (Array::read(&path), Array::read(&ours)) else {
            return Outcome::Mismatch(format!("{}: unreadable", path.display()));
        };
        if let Err(e) = close(&got, &expected) {
            return Outcome::Mismatch(format!("{}: {e}", file.to_string_lossy()));
        }
        checked += 1;
    }
    if checked == 0 {
        return Outcome::Mismatch(format!("no {reference} outputs to compare"));
    }
    Outcome::Pass
}

/// Runs DaCe on `files` (in its own processes), then `sdfg-run` on the
/// inputs DaCe used, and compares.
fn run_against_dace(python: &Path, files: &[PathBuf], work: &Path) -> BTreeMap<String, Outcome> {
    let script = work.join("dace_run.py");
    std::fs::write(&script, include_str!("python/dace_run.py")).expect("writable");
    let status = Command::new(python)
        .arg(&script)
        .arg(work)
        .arg("0")
        .args(files)
        .status()
        .expect("python runs");
    assert!(status.success(), "dace_run.py failed");
    let mut outcomes = BTreeMap::new();
    for file in files {
        let stem = file
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        let case = work.join(&stem);
        let verdict = std::fs::read_to_string(case.join("status")).unwrap_or_default();
        if verdict.trim() != "ok" {
            continue;
        }
        let outcome = match run_case(file, &case) {
            Ok(()) => compare(&case, "dace"),
            Err(outcome) => outcome,
        };
        outcomes.insert(stem, outcome);
    }
    outcomes
}

/// Corpus files DaCe validates, every `SDFG_CORPUS_STRIDE`-th (default 1:
/// all of them), plus the seeds.
fn corpus_files() -> Vec<PathBuf> {
    let stride: usize = std::env::var("SDFG_CORPUS_STRIDE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
        .max(1);
    let dir = corpus_dir();
    let mut files: Vec<PathBuf> = dace_index()
        .into_iter()
        .filter(|(_, verdict)| verdict == "ok")
        .map(|(file, _)| dir.join("dace").join(file))
        .step_by(stride)
        .collect();
    let mut seeds: Vec<PathBuf> = std::fs::read_dir(dir.join("seeds"))
        .expect("the seeds directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "sdfg"))
        .collect();
    seeds.sort();
    files.extend(seeds);
    files
}

/// For every corpus program whose arguments can be generated and that DaCe
/// runs, `sdfg-run` gives DaCe's outputs on DaCe's inputs: at least 80% of
/// them, and every other one is a diagnostic, never a crash.
#[test]
fn corpus_programs_compute_what_dace_computes() {
    let Some(python) = dace_python() else {
        return;
    };
    let work = std::env::temp_dir().join(format!("sdfg-corpus-runs-{}", std::process::id()));
    std::fs::create_dir_all(&work).expect("a temporary directory");
    let files = corpus_files();
    let outcomes = run_against_dace(&python, &files, &work);
    let runnable = outcomes.len();
    let passed = outcomes
        .values()
        .filter(|o| matches!(o, Outcome::Pass))
        .count();
    let mut reasons: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for (name, outcome) in &outcomes {
        let key = match outcome {
            Outcome::Pass => continue,
            Outcome::Mismatch(_) => "wrong numbers".to_string(),
            Outcome::Crash(_) => "crash".to_string(),
            Outcome::Diagnostic(d) => d
                .rsplit("error:")
                .next()
                .unwrap_or(d)
                .split('`')
                .enumerate()
                .map(|(i, s)| if i % 2 == 1 { "_" } else { s })
                .collect::<String>()
                .trim()
                .to_string(),
        };
        reasons.entry(key).or_default().push(name);
    }
    println!(
        "sdfg-run matches DaCe 1.0.2 on {passed} of {runnable} runnable programs ({} files tried)",
        files.len()
    );
    for (reason, names) in &reasons {
        println!("  {:4} {reason} (e.g. {})", names.len(), names[0]);
    }
    let mut bad = Vec::new();
    for (name, outcome) in &outcomes {
        match outcome {
            Outcome::Mismatch(m) => bad.push(format!("{name}: wrong numbers: {m}")),
            Outcome::Crash(c) => bad.push(format!("{name}: crash: {c}")),
            _ => {}
        }
    }
    for line in &bad {
        println!("  {line}");
    }
    assert!(bad.is_empty(), "wrong numbers or crashes: {bad:#?}");
    assert!(
        passed * 100 >= runnable * 80,
        "only {passed} of {runnable} programs match DaCe"
    );
    let _ = std::fs::remove_dir_all(&work);
}
