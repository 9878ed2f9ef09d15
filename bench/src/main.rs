//! `sdfg-bench`: benchmarks of the SDFG toolchain.
//!
//! `sdfg-bench symbolic [--reps N]` parses and normalises every symbolic
//! string of the corpus with `sdfg-symbolic` and with DaCe's SymPy path (in
//! the same run, through the DaCe virtual environment named by `SDFG_VENV`,
//! default `<repo root>/.venv`) and prints both times and their ratio.
//!
//! `sdfg-bench import [--reps N]` imports every corpus file DaCe loads into
//! the sdfg dialect (JSON model, dialect text, MLIR parse, verification and
//! validation, as `sdfg-translate --import-dace` does) and times it against
//! DaCe's `SDFG.from_file` on the same files in the same run.
//!
//! `sdfg-bench simplify [--reps N] [--only NAME,...]` runs memlet propagation and
//! `sdfg-simplify` on unsimplified programs (the kernels' and chains of
//! NumPy statements, as DaCe's frontend writes them) against DaCe's
//! propagation and `simplify()` on the same files, prints both times, the
//! ratio and how each grows with the program's size, then our time on
//! programs of up to about 100,000 nodes (see `simplify.rs`). `--only`
//! names kernels and chains (`chain_10`).
//!
//! `sdfg-bench kernels [--reps N] [--only KERNEL,...]` compiles the
//! NumPy-style kernels of `bench/kernels/` with `sdfg-lower-to-llvm` and
//! times them against DaCe 1.0.2 at its best (its generated code for the
//! same `.sdfg`, simplified or auto-optimized with OpenBLAS) and against
//! NumPy, in the same run (see `kernels.rs`).
//!
//! `sdfg-bench gemm [--reps N] [--n SIZE]` applies the SC'19 paper's
//! transformation chain to a naive matrix multiplication (default 2048 x
//! 2048) step by step, as pass pipelines, and times each step against
//! NumPy's `A @ B` in the same run (see `gemm.rs`).

mod gemm;
mod import;
mod kernels;
mod simplify;

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

use sdfg_symbolic::corpus::{collect_dir, find_corpus_dir, Kind};
use sdfg_symbolic::{parse, parse_statements};

const SYMPY_SCRIPT: &str = include_str!("../python/sympy_bench.py");

fn repo_root() -> PathBuf {
    let bench = Path::new(env!("CARGO_MANIFEST_DIR"));
    bench.parent().unwrap_or(bench).to_path_buf()
}

/// The Python of the DaCe venv (`SDFG_VENV`, default `<repo root>/.venv`).
fn venv_python() -> Result<PathBuf, String> {
    let venv = std::env::var("SDFG_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|_| repo_root().join(".venv"));
    let python = venv.join("bin").join("python");
    if python.exists() {
        Ok(python)
    } else {
        Err(format!(
            "no Python at {} (create the DaCe venv with scripts/dace-venv.sh)",
            python.display()
        ))
    }
}

/// Parses (and thereby normalises) every string once; returns how many parsed.
fn parse_all(items: &[(bool, String)]) -> usize {
    let mut ok = 0;
    for (stmt, s) in items {
        let good = if *stmt {
            parse_statements(s).is_ok()
        } else {
            parse(s).is_ok()
        };
        ok += good as usize;
    }
    ok
}

struct SympyResult {
    ok: usize,
    best_ms: f64,
}

fn run_sympy(items: &[(bool, String)], reps: usize) -> Result<SympyResult, String> {
    let python = venv_python()?;
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let script = dir.path().join("sympy_bench.py");
    std::fs::write(&script, SYMPY_SCRIPT).map_err(|e| e.to_string())?;
    let data = dir.path().join("strings.json");
    let list: Vec<(&str, &str)> = items
        .iter()
        .map(|(stmt, s)| (if *stmt { "stmt" } else { "expr" }, s.as_str()))
        .collect();
    let mut f = std::fs::File::create(&data).map_err(|e| e.to_string())?;
    f.write_all(
        serde_json::to_string(&list)
            .map_err(|e| e.to_string())?
            .as_bytes(),
    )
    .map_err(|e| e.to_string())?;
    let out = Command::new(&python)
        .arg(&script)
        .arg(&data)
        .arg(reps.to_string())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    if !out.status.success() {
        return Err(format!(
            "SymPy benchmark failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout
        .lines()
        .rev()
        .find(|l| l.starts_with('{'))
        .ok_or("no result line from the SymPy benchmark")?;
    let v: serde_json::Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
    Ok(SympyResult {
        ok: v["ok"].as_u64().unwrap_or(0) as usize,
        best_ms: v["best_ms"].as_f64().unwrap_or(f64::NAN),
    })
}

fn symbolic(reps: usize) -> Result<(), String> {
    let dir = find_corpus_dir(&repo_root()).ok_or(
        "corpus not found: set SDFG_CORPUS_DIR or place shared/corpus above the repository",
    )?;
    let (strings, _) = collect_dir(&dir);
    let total = strings.len();
    let mut seen = BTreeSet::new();
    let items: Vec<(bool, String)> = strings
        .into_iter()
        .filter(|(k, s)| seen.insert((k.is_statement(), s.clone())))
        .map(|(k, s)| (k.is_statement(), s))
        .collect();
    let mut best = f64::INFINITY;
    let mut ok = 0;
    for _ in 0..reps.max(1) * 10 {
        let t = Instant::now();
        ok = parse_all(&items);
        best = best.min(t.elapsed().as_secs_f64() * 1e3);
    }
    let sympy = run_sympy(&items, reps)?;
    println!(
        "corpus: {} ({} string occurrences, {} distinct, {} kinds)",
        dir.display(),
        total,
        items.len(),
        Kind::ALL.len()
    );
    println!(
        "{:<10} {:>8} {:>8} {:>12} {:>12} {:>9}",
        "engine", "strings", "parsed", "ours (ms)", "SymPy (ms)", "ratio"
    );
    println!(
        "{:<10} {:>8} {:>8} {:>12.3} {:>12} {:>9}",
        "ours",
        items.len(),
        ok,
        best,
        "",
        ""
    );
    println!(
        "{:<10} {:>8} {:>8} {:>12} {:>12.3} {:>9}",
        "sympy",
        items.len(),
        sympy.ok,
        "",
        sympy.best_ms,
        ""
    );
    println!(
        "{:<10} {:>8} {:>8} {:>12.3} {:>12.3} {:>8.1}x",
        "total",
        items.len(),
        ok,
        best,
        sympy.best_ms,
        sympy.best_ms / best
    );
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut reps: Option<usize> = None;
    let mut only: Vec<String> = Vec::new();
    let mut size: Option<usize> = None;
    let mut cmd = None;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--reps" => {
                i += 1;
                match args.get(i).and_then(|s| s.parse().ok()) {
                    Some(r) => reps = Some(r),
                    None => {
                        eprintln!("--reps needs a number");
                        return ExitCode::from(2);
                    }
                }
            }
            "--n" => {
                i += 1;
                match args.get(i).and_then(|s| s.parse().ok()) {
                    Some(s) => size = Some(s),
                    None => {
                        eprintln!("--n needs a matrix size");
                        return ExitCode::from(2);
                    }
                }
            }
            "--only" => {
                i += 1;
                match args.get(i) {
                    Some(names) => only.extend(names.split(',').map(str::to_string)),
                    None => {
                        eprintln!("--only needs kernel names (gemm,lu)");
                        return ExitCode::from(2);
                    }
                }
            }
            other => cmd = Some(other.to_string()),
        }
        i += 1;
    }
    match cmd.as_deref() {
        Some("symbolic") => match symbolic(reps.unwrap_or(3)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
        Some("import") => match import::run(reps.unwrap_or(3), &venv_python()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
        Some("simplify") => match simplify::run(reps.unwrap_or(3), &only, &venv_python()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
        Some("gemm") => match gemm::run(
            reps.unwrap_or(3).max(1),
            size.unwrap_or(2048),
            &venv_python(),
        ) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
        Some("kernels") => match kernels::run(reps.unwrap_or(10).max(1), &only, &venv_python()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::FAILURE
            }
        },
        _ => {
            eprintln!(
                "usage: sdfg-bench symbolic|import|simplify|kernels|gemm [--reps N] [--only KERNEL,...] [--n SIZE]"
            );
            ExitCode::from(2)
        }
    }
}
