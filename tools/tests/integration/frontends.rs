//! Programs from other MLIR frontends, after `convert-to-sdfg`, in DaCe.
//!
//! The lit programs of `test/Integration/ToSDFG` check that each converted
//! program prints what upstream's own lowering prints. Here each SDFG the
//! conversion writes is exported to `.sdfg`, and DaCe 1.0.2 loads,
//! validates and runs it on DaCe's random inputs (every symbol 32) with
//! the results `sdfg-run` computes from the converted MLIR on the same
//! inputs. Random sizes may break a program's assumptions about its sizes
//! (a convolution's input larger than its output): `sdfg-run` checks every
//! access, and such a program is listed, not compared. DaCe 1.0.2 cannot
//! generate code for a conditional block it loads from a file (it leaves
//! the branches' parent unset); `dace_run.py` sets it
//! (`DACE_RUN_BRANCH_PARENTS`).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::execute::{compare_outputs, ours, run_case_with, tool, Outcome};
use crate::import::dace_python;

/// The top-level `sdfg.sdfg` ops of a printed module, each as a module of
/// its own.
fn split_sdfgs(module: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut current: Option<(String, Vec<&str>)> = None;
    for line in module.lines() {
        if let Some(rest) = line.strip_prefix("  sdfg.sdfg @") {
            let name = rest.split('(').next().unwrap_or_default().to_string();
            current = Some((name, vec![line]));
            continue;
        }
        if let Some((_, lines)) = &mut current {
            lines.push(line);
            if line == "  }" {
                let (name, lines) = current.take().expect("an SDFG");
                out.push((name, format!("module {{\n{}\n}}\n", lines.join("\n"))));
            }
        }
    }
    out
}

#[test]
fn converted_programs_run_in_dace() {
    let Some(python) = dace_python() else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../test/Integration/ToSDFG");
    let work = std::env::temp_dir().join(format!("sdfg-frontends-{}", std::process::id()));
    std::fs::create_dir_all(&work).expect("a temporary directory");
    let mut programs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("the converted programs")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    programs.sort();
    let mut exported = Vec::new();
    let mut failures = Vec::new();
    for program in &programs {
        let stem = program.file_stem().and_then(|s| s.to_str()).unwrap_or("p");
        // A tensor program is bufferized first, as its RUN lines do.
        let source = std::fs::read_to_string(program).expect("readable");
        let bufferize = source
            .split_once("--one-shot-bufferize=\"")
            .and_then(|(_, rest)| rest.split_once('"'))
            .map(|(options, _)| format!("--one-shot-bufferize={options}"));
        let output = Command::new(env!("CARGO_BIN_EXE_sdfg-opt"))
            .arg(program)
            .args(bufferize)
            .arg("--convert-to-sdfg")
            .output()
            .expect("sdfg-opt runs");
        assert!(output.status.success(), "{stem} does not convert");
        for (name, text) in split_sdfgs(&String::from_utf8_lossy(&output.stdout)) {
            // The init helpers repeat in every program: keep one of each.
            let case = if name.starts_with("init") {
                name.clone()
            } else {
                format!("{stem}.{name}")
            };
            let mlir = work.join(format!("{case}.mlir"));
            if mlir.exists() {
                continue;
            }
            std::fs::write(&mlir, text).expect("writable");
            let sdfg = work.join(format!("{case}.sdfg"));
            match tool(
                env!("CARGO_BIN_EXE_sdfg-translate"),
                &["--export-dace".as_ref(), mlir.as_os_str()],
                &sdfg,
            ) {
                Ok(()) => exported.push((case, mlir, sdfg)),
                Err(e) => failures.push(format!("{case}: export: {e}")),
            }
        }
    }
    std::fs::write(work.join("dace_run.py"), include_str!("python/dace_run.py")).expect("writable");
    let status = Command::new(&python)
        .current_dir(&work)
        .env("DACE_RUN_BRANCH_PARENTS", "1")
        .arg(work.join("dace_run.py"))
        .arg(&work)
        .arg("0")
        .args(exported.iter().map(|e| &e.2))
        .status()
        .expect("python runs");
    assert!(status.success(), "dace_run.py failed");
    let (mut passed, mut assumptions) = (0, Vec::new());
    for (case, mlir, _) in &exported {
        let dir = work.join(case);
        let verdict = std::fs::read_to_string(dir.join("status")).unwrap_or_default();
        let verdict = verdict.trim();
        // Two DaCe runs that differ read outside an array (sdfg-run's
        // bounds checks tell whether DaCe's sizes are the cause) or sum
        // floating-point numbers in parallel in another order (within the
        // comparison's tolerance).
        let nondeterministic = verdict.contains("nondeterministic");
        if verdict != "ok" && !nondeterministic {
            // A DaCe run that crashed or never finished may have read
            // outside an array on DaCe's random sizes (a CSR row pointer
            // array shorter than the rows): sdfg-run's bounds checks on
            // the same inputs tell.
            let out_of_bounds = verdict.starts_with("dace:")
                && dir.join("in").is_dir()
                && matches!(
                    run_case_with(mlir, &dir, None),
                    Err(Outcome::Diagnostic(d) | Outcome::Crash(d)) if d.contains("out-of-bounds access")
                );
            if out_of_bounds {
                assumptions.push(case.clone());
            } else {
                failures.push(format!("{case}: DaCe: {verdict}"));
            }
            continue;
        }
        let outcome = match run_case_with(mlir, &dir, None) {
            Ok(()) => compare_outputs(&dir, "dace", &ours(None)),
            Err(outcome) => outcome,
        };
        match outcome {
            Outcome::Pass | Outcome::Nothing => passed += 1,
            Outcome::Diagnostic(d) | Outcome::Crash(d) if d.contains("out-of-bounds access") => {
                assumptions.push(case.clone())
            }
            Outcome::Mismatch(m) => failures.push(format!("{case}: wrong numbers: {m}")),
            Outcome::Diagnostic(d) => failures.push(format!("{case}: {d}")),
            Outcome::Crash(c) => failures.push(format!("{case}: crash: {c}")),
        }
    }
    println!(
        "DaCe 1.0.2 loads, validates and runs {} converted SDFGs of {} programs; {passed} compute what sdfg-run computes, {} not compared (DaCe's random sizes break their size assumptions: {})",
        exported.len(),
        programs.len(),
        assumptions.len(),
        assumptions.join(", ")
    );
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(
        passed * 4 >= exported.len() * 3,
        "fewer than 3 in 4 converted SDFGs compared"
    );
    let _ = std::fs::remove_dir_all(&work);
}
