//! NumPy-style programs of the kind DaCe's users write (`numpy/*.py` and
//! the `kernels` benchmark's `bench/kernels/*.py` at small sizes, each with
//! its own NumPy reference), written by DaCe 1.0.2 as `.sdfg` files both
//! simplified and not: `sdfg-run` computes DaCe's numbers on both forms,
//! with every memlet access checked against its container's bounds. Where
//! DaCe itself differs from NumPy, the test says so.
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

use crate::execute::{compare_outputs, ours, run_case_with, Outcome, SIMPLIFY};
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
            if !form.is_empty() {
                cases.push((
                    format!("{name} after sdfg-simplify"),
                    case.clone(),
                    Some(SIMPLIFY),
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
                    Ok(()) => compare_outputs(case, "dace", ours(*pipeline)),
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
        "sdfg-run matches DaCe 1.0.2 on {passed} of {compared} NumPy-style program runs ({} programs, simplified and not, the unsimplified ones also after sdfg-simplify)",
        files.len()
    );
    for line in &bad {
        println!("  {line}");
    }
    compare_sizes(&files, &work);
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
