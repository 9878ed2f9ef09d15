//! NumPy-style programs of the kind DaCe's users write (`numpy/*.py` and
//! the `kernels` benchmark's `bench/kernels/*.py` at small sizes, each with
//! its own NumPy reference), written by DaCe 1.0.2 as `.sdfg` files both
//! simplified and not: `sdfg-run` computes DaCe's numbers on both forms,
//! on the unsimplified one after `sdfg-simplify` and after
//! `sdfg-auto-optimize` too, and on the simplified one after the map
//! transformations, with every memlet access
//! checked against its container's bounds. Where DaCe itself differs from
//! NumPy, the test says so.
//!
//! The programs are grouped by the mechanism they exercise, each with
//! several programs: bitwise operators on inter-state edges (CRCs, bit
//! reversal, xorshift, ...), symbols a program defines itself (scalars DaCe
//! promotes to symbols, loop counters, histogram bins), symbolic integer
//! powers in sizes and ranges (radix-R reductions, Walsh-Hadamard), strided
//! column slices of shrinking length into `np.dot` (trmm), an NHWC
//! convolution with a bias, ReLU and max pooling, complex numbers (complex
//! scalars DaCe promotes to symbols, complex library nodes, imaginary
//! literals), and the LAPACK nodes (Cholesky, Solve, Inv).

use crate::execute::{
    compare_outputs, dace_compare_script, dace_runs_export, ours, run_case_with, Outcome,
    AUTO_OPTIMIZE, MAP_TRANSFORMATIONS, SIMPLIFY,
};
use crate::import::dace_python;
use crate::simplify::{import, root, size, Size};
use std::path::{Path, PathBuf};
use std::process::Command;

#[test]
fn numpy_programs_compute_what_dace_computes() {
    let Some(python) = dace_python() else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = [
        root.join("tests/integration/numpy"),
        root.join("../bench/kernels"),
    ]
    .iter()
    .flat_map(|dir| std::fs::read_dir(dir).expect("the numpy programs"))
    .filter_map(|e| e.ok().map(|e| e.path()))
    .filter(|p| p.extension().is_some_and(|x| x == "py"))
    .collect();
    files.sort_by_key(|p| p.file_stem().map(|s| s.to_os_string()));
    let stems: std::collections::BTreeSet<_> = files.iter().filter_map(|p| p.file_stem()).collect();
    assert_eq!(stems.len(), files.len(), "two programs share a name");
    let work = std::env::temp_dir().join(format!("sdfg-numpy-runs-{}", std::process::id()));
    std::fs::create_dir_all(&work).expect("a temporary directory");
    for (name, text) in [
        ("dace_run.py", include_str!("python/dace_run.py")),
        (
            "numpy_programs.py",
            include_str!("python/numpy_programs.py"),
        ),
    ] {
        std::fs::write(work.join(name), text).expect("writable");
    }
    // DaCe writes the SDFGs it rejects to `_dacegraphs/` in the current
    // directory.
    let status = Command::new(&python)
        .current_dir(&work)
        .arg(work.join("numpy_programs.py"))
        .arg(&work)
        .args(&files)
        .status()
        .expect("python runs");
    assert!(status.success(), "numpy_programs.py failed");
    // The cases DaCe ran, compared two at a time (each `sdfg-run` compiles
    // on one core).
    let mut cases = Vec::new();
    for file in &files {
        let stem = file
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        for form in ["", ".nosimplify"] {
            let name = format!("{stem}{form}");
            let case = work.join(&name);
            let read = |what: &str| {
                std::fs::read_to_string(case.join(what))
                    .unwrap_or_default()
                    .trim()
                    .to_string()
            };
            let verdict = read("status");
            if verdict != "ok" {
                println!("  {name}: not compared, DaCe fails: {verdict}");
                continue;
            }
            let numpy = read("numpy");
            if numpy != "ok" {
                println!("  {name}: note: {numpy} (a DaCe bug or undefined behaviour)");
            }
            if form.is_empty() {
                cases.push((
                    format!("{name} after the map transformations"),
                    case.clone(),
                    Some(MAP_TRANSFORMATIONS),
                ));
            } else {
                cases.push((
                    format!("{name} after sdfg-simplify"),
                    case.clone(),
                    Some(SIMPLIFY),
                ));
                cases.push((
                    format!("{name} after sdfg-auto-optimize"),
                    case.clone(),
                    Some(AUTO_OPTIMIZE),
                ));
            }
            cases.push((name, case, None));
        }
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let outcomes = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((name, case, pipeline)) = cases.get(i) else {
                    break;
                };
                let outcome = match run_case_with(&case.join("program.sdfg"), case, *pipeline) {
                    Ok(()) => compare_outputs(case, "dace", &ours(*pipeline)),
                    Err(outcome) => outcome,
                };
                outcomes
                    .lock()
                    .expect("no worker panics")
                    .push((name.clone(), outcome));
            });
        }
    });
    let mut outcomes = outcomes.into_inner().expect("no worker panics");
    outcomes.sort_by(|a, b| a.0.cmp(&b.0));
    let (compared, mut passed, mut bad) = (outcomes.len(), 0, Vec::new());
    for (name, outcome) in outcomes {
        match outcome {
            Outcome::Pass => passed += 1,
            Outcome::Mismatch(m) => bad.push(format!("{name}: wrong numbers: {m}")),
            Outcome::Diagnostic(d) => bad.push(format!("{name}: {d}")),
            Outcome::Crash(c) => bad.push(format!("{name}: crash: {c}")),
            Outcome::Nothing => bad.push(format!("{name}: writes no array")),
        }
    }
    println!(
        "sdfg-run matches DaCe 1.0.2 on {passed} of {compared} NumPy-style program runs ({} programs, simplified and not, the unsimplified ones also after propagation, sdfg-simplify and raising and after sdfg-auto-optimize, the simplified ones also after the map transformations)",
        files.len()
    );
    for line in &bad {
        println!("  {line}");
    }
    compare_sizes(&files, &work);
    let exported = dace_runs_simplified(&python, &files, &work);
    bad.extend(exported);
    assert!(compared > 0, "DaCe ran none of the programs");
    assert!(
        bad.is_empty(),
        "programs that do not compute DaCe's numbers: {bad:#?}"
    );
    let _ = std::fs::remove_dir_all(&work);
}

/// Prints how the size of each unsimplified program after `sdfg-simplify`
/// compares with DaCe's `simplify()` of the same program (the simplified
/// form DaCe wrote), in states and nodes.
fn compare_sizes(files: &[PathBuf], work: &Path) {
    sdfg_registry::register_all();
    let context = sdfg_dialect::create_context();
    let (mut both, mut no_larger) = (0, 0);
    let (mut ours_total, mut dace_total) = (Size::default(), Size::default());
    let mut larger = Vec::new();
    for stem in files.iter().filter_map(|f| f.file_stem()?.to_str()) {
        let simplified = import(&context, &work.join(stem).join("program.sdfg"));
        let raw = import(
            &context,
            &work.join(format!("{stem}.nosimplify")).join("program.sdfg"),
        );
        let (Some(simplified), Some(raw)) = (simplified, raw) else {
            continue;
        };
        let dace = size(root(&simplified));
        sdfg_transforms::simplify::simplify(root(&raw));
        let ours = size(root(&raw));
        both += 1;
        ours_total.states += ours.states;
        ours_total.nodes += ours.nodes;
        dace_total.states += dace.states;
        dace_total.nodes += dace.nodes;
        if ours.states <= dace.states && ours.nodes <= dace.nodes {
            no_larger += 1;
        } else {
            larger.push(format!(
                "{stem}: {} states and {} nodes, DaCe {} and {}",
                ours.states, ours.nodes, dace.states, dace.nodes
            ));
        }
    }
    println!(
        "sdfg-simplify of the unsimplified programs: {no_larger} of {both} no larger than DaCe's simplify() \
         in states and nodes; {} states and {} nodes in all, DaCe {} and {}",
        ours_total.states, ours_total.nodes, dace_total.states, dace_total.nodes
    );
    for line in &larger {
        println!("  larger: {line}");
    }
}

/// DaCe 1.0.2 loads, validates and runs the export of every
/// `SDFG_EXPORT_STRIDE`-th unsimplified program (default 4, which keeps CI
/// within its time; 1 runs all of them) after `sdfg-simplify`, and gets
/// what it gets from the program as its frontend wrote it. A program whose
/// export DaCe cannot run even unsimplified (an exporter limitation, not
/// simplify's) is listed and not counted. Returns the failures.
fn dace_runs_simplified(python: &Path, files: &[PathBuf], work: &Path) -> Vec<String> {
    let stride: usize = std::env::var("SDFG_EXPORT_STRIDE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(4)
        .max(1);
    sdfg_registry::register_all();
    let context = sdfg_dialect::create_context();
    let mut programs = Vec::new();
    for stem in files
        .iter()
        .filter_map(|f| f.file_stem()?.to_str())
        .step_by(stride)
    {
        let dir = work.join(format!("{stem}.nosimplify"));
        let original = dir.join("program.sdfg");
        let Some(module) = import(&context, &original) else {
            continue;
        };
        let (raw, simplified) = (dir.join("raw.mlir"), dir.join("simplified.mlir"));
        std::fs::write(&raw, module.as_operation().to_string()).expect("writable");
        sdfg_transforms::simplify::simplify(root(&module));
        std::fs::write(&simplified, module.as_operation().to_string()).expect("writable");
        programs.push((stem.to_string(), original, raw, simplified));
    }
    let script = dace_compare_script(work);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let outcomes = std::sync::Mutex::new((Vec::new(), Vec::new()));
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((stem, original, raw, simplified)) = programs.get(i) else {
                    break;
                };
                // The program's own inputs: random ones need not end (a
                // Collatz loop from 0).
                let case = original.parent();
                let Err(e) = dace_runs_export(python, &script, (original, case), simplified) else {
                    continue;
                };
                let exporter_limit =
                    dace_runs_export(python, &script, (original, case), raw).is_err();
                let mut outcomes = outcomes.lock().expect("no worker panics");
                if exporter_limit {
                    outcomes.0.push(stem.clone());
                } else {
                    outcomes
                        .1
                        .push(format!("{stem}: DaCe on the simplified export: {e}"));
                }
            });
        }
    });
    let (mut limited, failures) = outcomes.into_inner().expect("no worker panics");
    limited.sort();
    println!(
        "DaCe 1.0.2 runs the export of {} of {} simplified programs with the numbers of the unsimplified ones; \
         {} whose export DaCe cannot run unsimplified either: {}",
        programs.len() - failures.len() - limited.len(),
        programs.len() - limited.len(),
        limited.len(),
        limited.join(", ")
    );
    failures
}
