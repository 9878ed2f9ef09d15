//! Execution: `sdfg-run` against DaCe 1.0.2 running the same `.sdfg` files
//! on the same inputs, and against NumPy references for the seeds.

use crate::import::{corpus_dir, dace_index, dace_python};
use sdfg_execution::npy::Array;
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
    /// The program has no array argument to compare (DaCe passes scalars
    /// by value, so what it writes to them is not observable).
    Nothing,
}

/// Runs `command`, killing it after `limit` (a hang is a crash).
fn output_within(
    command: &mut Command,
    limit: std::time::Duration,
) -> Result<std::process::Output, Outcome> {
    let mut child = command
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| Outcome::Crash(e.to_string()))?;
    let start = std::time::Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(Outcome::Crash(format!("no result after {limit:?}")));
            }
            Ok(None) => std::thread::sleep(std::time::Duration::from_millis(20)),
            Err(e) => return Err(Outcome::Crash(e.to_string())),
        }
    }
    child
        .wait_with_output()
        .map_err(|e| Outcome::Crash(e.to_string()))
}

/// Runs `program` on the inputs of `case` (`in/*.npy`, `symbols`) and
/// writes its outputs to `case/ours`.
pub(crate) fn run_case(program: &Path, case: &Path) -> Result<(), Outcome> {
    run_case_with(program, case, None)
}

/// Where [`run_case_with`] writes the outputs of a run with `pipeline`:
/// one directory per pipeline, so that runs of one case after different
/// pipelines may go at once.
pub(crate) fn ours(pipeline: Option<&str>) -> String {
    match pipeline {
        None => "ours".into(),
        Some(p) => {
            use std::hash::{Hash, Hasher};
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            p.hash(&mut hasher);
            format!("ours-after-{:016x}", hasher.finish())
        }
    }
}

/// Runs `program` as [`run_case`] does, after the pass pipeline
/// `pipeline` when there is one (its outputs go to `case/<ours(pipeline)>`).
pub(crate) fn run_case_with(
    program: &Path,
    case: &Path,
    pipeline: Option<&str>,
) -> Result<(), Outcome> {
    let binary = std::env::var_os("SDFG_RUN_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_sdfg-run")));
    let mut command = Command::new(binary);
    command
        .arg(program)
        .arg("--cpu-fallback")
        .arg("--check-bounds")
        .arg("--out")
        .arg(case.join(ours(pipeline)));
    if let Some(pipeline) = pipeline {
        command.arg(format!("--pass-pipeline={pipeline}"));
    }
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
    let output = output_within(&mut command, std::time::Duration::from_secs(120))?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    if let Some(check) = stdout
        .lines()
        .chain(stderr.lines())
        .find(|l| l.contains("out-of-bounds access"))
    {
        return Err(Outcome::Diagnostic(format!("error: {check}")));
    }
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
    if a.dtype.components().1 != b.dtype.components().1 {
        return Err(format!(
            "{} instead of {}",
            a.dtype.descr(),
            b.dtype.descr()
        ));
    }
    for i in 0..a.components() {
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
    compare_outputs(case, reference, "ours")
}

/// Compares what `sdfg-run` left in `case/<outputs>` with `case/<reference>`.
pub(crate) fn compare_outputs(case: &Path, reference: &str, outputs: &str) -> Outcome {
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
        let ours = case.join(outputs).join(file);
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
        return Outcome::Nothing;
    }
    Outcome::Pass
}

/// The pipeline every runnable program also runs through: memlet
/// propagation (whose results the lowering reads where nested SDFGs bind
/// their arguments), the simplify pipeline as DaCe orders them, and then
/// control-flow raising (loops, then branches), so that each is checked
/// by execution on every program.
pub(crate) const SIMPLIFY: &str =
    "builtin.module(sdfg-propagate-memlets,sdfg-simplify,sdfg-raise-loops,sdfg-raise-branches)";

/// The map transformations as one transformation chain that applies each
/// wherever it can (loops raised and moved into the maps of their bodies,
/// fission, map-reduce fusion and the peeling of the first iteration of
/// its reductions, fusion, expansion, interchange and collapse, strip
/// mining of the outermost maps' first dimension into three strided
/// tiles, then tiling with small tiles, so that the test sizes have partial ones,
/// accumulators for the inner tiles' reductions, peeled again, local
/// buffers for the tiles, and vectors of two lanes where the inner
/// tiles are even), and last the GPU transform (whose kernels and device
/// copies `run_case_with` runs on the CPU): a program computes the same
/// numbers after it. (Expanding tiled maps
/// re-propagates over `Min` ranges, which the symbolic engine bounds
/// slowly on stencils of many maps: tiling comes last.)
pub(crate) const MAP_TRANSFORMATIONS: &str = "builtin.module(sdfg-raise-loops,sdfg-move-loop-into-map,sdfg-map-fission,sdfg-map-reduce-fusion,sdfg-reduce-peeling,sdfg-map-fusion{siblings=true},sdfg-map-expansion,sdfg-map-interchange,sdfg-map-collapse,sdfg-strip-mining{dim=0 tile-size=3 strided=true level=outermost},sdfg-map-tiling{tile-sizes=3,2},sdfg-accumulate-transient{level=innermost},sdfg-reduce-peeling{level=innermost},sdfg-in-local-storage{level=innermost},sdfg-out-local-storage{level=innermost},sdfg-vectorization{vector-length=2},sdfg-gpu-transform)";

/// What `sdfg-run -O` runs: a program computes the same numbers after it.
pub(crate) const AUTO_OPTIMIZE: &str = "builtin.module(sdfg-auto-optimize)";

/// Runs DaCe on `files` (in its own processes), then `sdfg-run` on the
/// inputs DaCe used, as written and after `sdfg-simplify` (two runs at a
/// time, each compiles on one core), and compares each with DaCe. The
/// outcomes of the simplified runs are keyed `<stem> after sdfg-simplify`.
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
    let mut runs = Vec::new();
    for file in files {
        let stem = file
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        let case = work.join(&stem);
        let verdict = std::fs::read_to_string(case.join("status")).unwrap_or_default();
        if verdict.trim() == "ok" {
            runs.push((
                format!("{stem} after sdfg-simplify"),
                file,
                case.clone(),
                Some(SIMPLIFY),
            ));
            runs.push((
                format!("{stem} after the map transformations"),
                file,
                case.clone(),
                Some(MAP_TRANSFORMATIONS),
            ));
            runs.push((
                format!("{stem} after sdfg-auto-optimize"),
                file,
                case.clone(),
                Some(AUTO_OPTIMIZE),
            ));
            runs.push((stem, file, case, None));
        }
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let outcomes = std::sync::Mutex::new(BTreeMap::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((name, file, case, pipeline)) = runs.get(i) else {
                    break;
                };
                let outcome = match run_case_with(file, case, *pipeline) {
                    Ok(()) => compare_outputs(case, "dace", &ours(*pipeline)),
                    Err(outcome) => outcome,
                };
                if !matches!(outcome, Outcome::Nothing) {
                    outcomes
                        .lock()
                        .expect("no worker panics")
                        .insert(name.clone(), outcome);
                }
            });
        }
    });
    outcomes.into_inner().expect("no worker panics")
}

/// Programs whose DaCe result cannot be reproduced: it depends on the
/// thread schedule or on uninitialised memory (at the sizes the harness
/// uses). They run, but are not compared.
pub(crate) const NONDETERMINISTIC: &[(&str, &str)] = &[
    (
        "add_edge_pair_tlstream",
        "parallel iterations push to one stream: the order of its elements depends on the schedule",
    ),
    (
        "loop_regions_tlstream",
        "parallel iterations push to one stream: the order of its elements depends on the schedule",
    ),
    (
        "sve_vectorization_program_5",
        "parallel iterations push to one stream: the order of its elements depends on the schedule",
    ),
    (
        "mapfusion_fib_consume_cc",
        "four processing elements race to the quiescence condition res[0] >= 44: how far res passes 44 depends on the schedule",
    ),
    (
        "loop_regions_fib_consume_cc",
        "four processing elements race to the quiescence condition res[0] >= 44: how far res passes 44 depends on the schedule",
    ),
    (
        "atomic_xchg_codegen_atomic_xchg_xchg",
        "which iteration reads the old value of an atomic exchange depends on the schedule",
    ),
    (
        "atomic_xchg_codegen_atomic_xchg_xchg_8_4",
        "reads the value an atomic exchange returns",
    ),
    (
        "confres_confres",
        "parallel iterations read and write overlapping elements of A",
    ),
    (
        "disjoint_disjoint_2",
        "parallel iterations read A[i, N - j - 1] while others write it (strided tiles of j, one per thread, made it show)",
    ),
    (
        "nestinger_3",
        "copies a[1:21] into a[10:30] through two views of a, overlapping: DaCe's copy loop has no defined order (forward now, as memmove in an earlier run)",
    ),
    (
        "disjoint_disjoint_3",
        "parallel iterations read A[M - i - 1] while others write it",
    ),
    (
        "otf_map_fusion_matmuls",
        "DaCe accumulates into an uninitialised transient",
    ),
    (
        "vector_inference_program_4",
        "DaCe reads uninitialised elements",
    ),
    (
        "vector_inference_program_188_4",
        "DaCe reads uninitialised elements",
    ),
    (
        "wcr_conversion_sdfg_aug_assign_state_fission",
        "every parallel iteration reads and writes A[0] without write-conflict resolution",
    ),
    (
        "reduction_reduction_1_0",
        "DaCe reduces without identity into an uninitialised transient",
    ),
    (
        "reduction_reduction_2",
        "DaCe reduces without identity into an uninitialised transient",
    ),
    (
        "reduction_reduction_2_0",
        "DaCe reduces without identity into an uninitialised transient",
    ),
    (
        "reduction_reduction_2_1",
        "DaCe reduces without identity into an uninitialised transient",
    ),
    (
        "redundant_copy_rco_failure_partial_overlap",
        "DaCe copies B[4:7, 6] into C, and no one writes B[4, 6]",
    ),
    (
        "otf_map_fusion_undefined_subset",
        "DaCe reads elements of a transient no one writes",
    ),
    (
        "otf_map_fusion_undefined_subset_step",
        "DaCe reads elements of a transient no one writes",
    ),
];

/// The corpus files (names in `corpus/dace`) DaCe validates, every
/// `stride`-th, but the nondeterministic ones. The stride runs over all
/// the files DaCe validates, so that listing a file as nondeterministic
/// does not move the sample.
pub(crate) fn corpus_sample(stride: usize) -> Vec<String> {
    dace_index()
        .into_iter()
        .filter(|(_, verdict)| verdict == "ok")
        .step_by(stride.max(1))
        .map(|(file, _)| file)
        .filter(|file| {
            !NONDETERMINISTIC
                .iter()
                .any(|(name, _)| file.strip_suffix(".sdfg") == Some(name))
        })
        .collect()
}

/// Corpus files DaCe validates, every `SDFG_CORPUS_STRIDE`-th (default 3,
/// which keeps CI within its time; 1 runs all of them) but the
/// nondeterministic ones ([`corpus_sample`]), plus the seeds.
fn corpus_files() -> Vec<PathBuf> {
    let stride: usize = std::env::var("SDFG_CORPUS_STRIDE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3)
        .max(1);
    let dir = corpus_dir();
    let mut files: Vec<PathBuf> = corpus_sample(stride)
        .into_iter()
        .map(|file| dir.join("dace").join(file))
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
/// them, and every other one is a diagnostic, never a crash. After
/// `sdfg-simplify`, after the map transformations, and after
/// `sdfg-auto-optimize`, every program gives the same numbers again (a program that runs as written and not after a
/// pipeline fails the test).
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
            Outcome::Pass | Outcome::Nothing => continue,
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
        "sdfg-run matches DaCe 1.0.2 on {passed} of {runnable} runs of runnable programs, as written, after propagation, sdfg-simplify and raising, after the map transformations, and after sdfg-auto-optimize ({} files tried, {} nondeterministic ones left out)",
        files.len(),
        NONDETERMINISTIC.len()
    );
    for (reason, names) in &reasons {
        println!("  {:4} {reason} (e.g. {})", names.len(), names[0]);
    }
    let mut bad = Vec::new();
    for (name, outcome) in &outcomes {
        match outcome {
            Outcome::Mismatch(m) => bad.push(format!("{name}: wrong numbers: {m}")),
            Outcome::Crash(c) => bad.push(format!("{name}: crash: {c}")),
            Outcome::Diagnostic(d) => {
                let plain = name.split(" after ").next().filter(|p| p != name);
                if plain.is_some_and(|p| matches!(outcomes.get(p), Some(Outcome::Pass))) {
                    bad.push(format!(
                        "{name}: runs as written, not after the pipeline: {d}"
                    ));
                }
            }
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

/// The seed programs (as DaCe wrote them) compute what NumPy computes,
/// SpMV on a real CSR matrix (dynamic map ranges, WCR output) included.
#[test]
fn seeds_match_numpy() {
    let Some(python) = dace_python() else {
        return;
    };
    let work = std::env::temp_dir().join(format!("sdfg-seed-numpy-{}", std::process::id()));
    std::fs::create_dir_all(&work).expect("a temporary directory");
    let script = work.join("seed_reference.py");
    std::fs::write(&script, include_str!("python/seed_reference.py")).expect("writable");
    let status = Command::new(python)
        .arg(&script)
        .arg(&work)
        .status()
        .expect("python runs");
    assert!(status.success(), "seed_reference.py failed");
    let mut failures = Vec::new();
    let seeds = [
        "laplace",
        "spmv",
        "matmul_wcr",
        "addone",
        "jacobi2d",
        "gemm",
        "branchy",
    ];
    for seed in seeds {
        for variant in ["", ".raw"] {
            let program = corpus_dir()
                .join("seeds")
                .join(format!("{seed}{variant}.sdfg"));
            let case = work.join(seed);
            let _ = std::fs::remove_dir_all(case.join("ours"));
            let outcome = match run_case(&program, &case) {
                Ok(()) => compare(&case, "expected"),
                Err(outcome) => outcome,
            };
            match outcome {
                Outcome::Pass => {}
                Outcome::Nothing => failures.push(format!("{seed}{variant}: no outputs")),
                Outcome::Mismatch(m) => failures.push(format!("{seed}{variant}: {m}")),
                Outcome::Diagnostic(d) | Outcome::Crash(d) => {
                    failures.push(format!("{seed}{variant}: {d}"))
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    let _ = std::fs::remove_dir_all(&work);
}

/// Writes an `int64` array as `.npy`.
fn save_i64(path: &Path, shape: &[usize], values: &[i64]) {
    let array = Array {
        dtype: sdfg_execution::npy::Dtype::Int(8),
        shape: shape.to_vec(),
        data: values.iter().flat_map(|v| v.to_le_bytes()).collect(),
    };
    array.write(path).expect("writable");
}

/// Each construct of `programs/constructs.mlir` (loops with break and
/// continue, do-while, atomic and custom WCR in parallel maps, negative
/// steps, views, nested SDFGs on subsets, strided layouts) computes its
/// known result.
#[test]
fn constructs_compute_their_expected_results() {
    let program =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration/programs/constructs.mlir");
    let work = std::env::temp_dir().join(format!("sdfg-constructs-{}", std::process::id()));
    std::fs::create_dir_all(&work).expect("a temporary directory");
    type Case<'c> = (&'c str, &'c [(&'c str, i64)], Vec<usize>, Vec<i64>);
    let cases: Vec<Case> = vec![
        (
            "loop_break_continue",
            &[("T", 10)],
            vec![10],
            vec![0, 1, 0, 3, 4, 0, 0, 0, 0, 0],
        ),
        ("do_while", &[], vec![1], vec![70]),
        ("parallel_sum", &[("N", 1000)], vec![1], vec![499_500]),
        ("parallel_max", &[("N", 100)], vec![1], vec![6]),
        (
            "negative_step",
            &[],
            vec![10],
            vec![0, 0, 0, 3, 0, 0, 6, 0, 0, 9],
        ),
        ("view_row", &[], vec![4], vec![0, 10, 20, 30]),
        (
            "nested_subset",
            &[("N", 6)],
            vec![6],
            vec![0, 0, 4, 4, 4, 4],
        ),
        ("strided_copy", &[], vec![2, 3], vec![1, 3, 5, 2, 4, 6]),
        (
            "stream_roundtrip",
            &[("N", 5)],
            vec![5],
            vec![0, 2, 4, 6, 8],
        ),
        ("stream_array", &[], vec![4], vec![30, 10, 20, 0]),
        ("consume_sum", &[("N", 100), ("P", 4)], vec![1], vec![9_900]),
        ("consume_chunks", &[("N", 10)], vec![2], vec![45, 3]),
        ("consume_quiescence", &[], vec![1], vec![21]),
        (
            "consume_forward",
            &[("N", 6)],
            vec![6],
            vec![1, 2, 3, 4, 5, 6],
        ),
        (
            "by_ref_conditional",
            &[("N", 10)],
            vec![10],
            vec![0, 0, 2, 0, 4, 0, 6, 0, 8, 0],
        ),
        ("by_ref_wcr", &[("N", 100)], vec![1], vec![5_150]),
        ("by_ref_stream", &[], vec![6], vec![0, 1, 1, 2, 3, 3]),
        (
            "by_ref_row",
            &[],
            vec![3, 4],
            vec![0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23],
        ),
        ("span_lifetime", &[], vec![5], vec![0, 10, 20, 30, 40]),
        ("by_ref_array_wcr", &[], vec![2], vec![6, 12]),
    ];
    save_i64(&work.join("inp.npy"), &[3, 2], &[1, 2, 3, 4, 5, 6]);
    let mut failures = Vec::new();
    for (function, symbols, shape, expected) in cases {
        let zeros = work.join(format!("{function}_out.npy"));
        save_i64(&zeros, &shape, &vec![0; shape.iter().product()]);
        let out = work.join(function);
        let mut command = Command::new(env!("CARGO_BIN_EXE_sdfg-run"));
        command
            .arg(&program)
            .args(["--function", function, "--out"])
            .arg(&out)
            .arg("--input")
            .arg(format!("out={}", zeros.display()));
        if function == "strided_copy" {
            command
                .arg("--input")
                .arg(format!("inp={}", work.join("inp.npy").display()));
        }
        for (name, value) in symbols {
            command.arg("--set").arg(format!("{name}={value}"));
        }
        let output = command.output().expect("sdfg-run runs");
        if !output.status.success() {
            failures.push(format!(
                "{function}: {}",
                String::from_utf8_lossy(&output.stderr)
            ));
            continue;
        }
        let got = Array::read(&out.join("out.npy")).expect("an output");
        let values: Vec<i64> = (0..got.len())
            .map(|i| got.dtype.get(&got.data, i) as i64)
            .collect();
        if values != expected {
            failures.push(format!("{function}: {values:?}, expected {expected:?}"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    let _ = std::fs::remove_dir_all(&work);
}

/// Expands the library nodes of `program` (`.mlir` or `.sdfg`) with
/// `sdfg-expand-library-nodes` into `out`.
fn expand_library_nodes(program: &Path, out: &Path) -> Result<(), String> {
    let mlir = if program.extension().is_some_and(|x| x == "mlir") {
        program.to_path_buf()
    } else {
        let imported = out.with_extension("imported.mlir");
        tool(
            env!("CARGO_BIN_EXE_sdfg-translate"),
            &["--import-dace".as_ref(), program.as_os_str()],
            &imported,
        )?;
        imported
    };
    tool(
        env!("CARGO_BIN_EXE_sdfg-opt"),
        &[
            "--pass-pipeline=builtin.module(sdfg-expand-library-nodes)".as_ref(),
            mlir.as_os_str(),
        ],
        out,
    )
}

/// Runs one of the project's tools with `args` and `-o out`; its stderr
/// when it fails.
pub(crate) fn tool(binary: &str, args: &[&std::ffi::OsStr], out: &Path) -> Result<(), String> {
    let output = Command::new(binary)
        .args(args)
        .arg("-o")
        .arg(out)
        .output()
        .map_err(|e| e.to_string())?;
    if output.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&output.stderr).into_owned())
    }
}

/// Every library node and variant of `programs/library.mlir` computes the
/// same after `sdfg-expand-library-nodes` (nested SDFGs of maps and
/// tasklets) as when the conversion lowers the node directly, on the same
/// random inputs.
#[test]
fn library_expansions_compute_like_the_direct_lowering() {
    let program =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration/programs/library.mlir");
    let work = std::env::temp_dir().join(format!("sdfg-library-{}", std::process::id()));
    std::fs::create_dir_all(&work).expect("a temporary directory");
    let expanded = work.join("expanded.mlir");
    expand_library_nodes(&program, &expanded).expect("the nodes expand");
    let text = std::fs::read_to_string(&expanded).expect("the expansion is written");
    assert!(
        !text.contains("sdfg.library"),
        "a library node was left:\n{text}"
    );
    let functions = [
        "gemm_transposed",
        "matmul_subsets",
        "matmul_batched",
        "matmul_batched_shared",
        "matmul_vector",
        "gemv_transposed",
        "dot",
        "reduce_max",
        "reduce_into",
        "transpose",
        "axpy",
        "ger",
    ];
    let mut failures = Vec::new();
    for function in functions {
        let run = |file: &Path, out: &Path| {
            Command::new(env!("CARGO_BIN_EXE_sdfg-run"))
                .arg(file)
                .args([
                    "--function",
                    function,
                    "--seed",
                    "3",
                    "--check-bounds",
                    "--out",
                ])
                .arg(out)
                .output()
                .expect("sdfg-run runs")
        };
        let (direct, nested) = (
            work.join(format!("{function}.direct")),
            work.join(format!("{function}.expanded")),
        );
        for (file, out) in [(&program, &direct), (&expanded, &nested)] {
            let output = run(file, out);
            if !output.status.success() {
                failures.push(format!(
                    "{function} ({}): {}",
                    file.display(),
                    String::from_utf8_lossy(&output.stderr)
                ));
            }
        }
        for entry in std::fs::read_dir(&direct).into_iter().flatten().flatten() {
            let a = Array::read(&entry.path()).expect("an output");
            match Array::read(&nested.join(entry.file_name())) {
                Ok(b) => {
                    if let Err(e) = close(&b, &a) {
                        failures.push(format!("{function}: {e}"));
                    }
                }
                Err(e) => failures.push(format!("{function}: {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    let _ = std::fs::remove_dir_all(&work);
}

/// Exports `program` as `.sdfg` and has DaCe run it and `original` on the
/// same inputs (`script`, `dace_compare.py`), in the program's directory
/// (where DaCe builds both): the program's own inputs where `case` is a
/// run's folder (its `in/` and `symbols`), random ones otherwise.
pub(crate) fn dace_runs_export(
    python: &Path,
    script: &Path,
    (original, case): (&Path, Option<&Path>),
    program: &Path,
) -> Result<(), String> {
    let exported = program.with_extension("exported.sdfg");
    tool(
        env!("CARGO_BIN_EXE_sdfg-translate"),
        &["--export-dace".as_ref(), program.as_os_str()],
        &exported,
    )?;
    let mut command = Command::new(python);
    if let Some(dir) = program.parent() {
        command.current_dir(dir);
    }
    let output = command
        .arg(script)
        .arg(original)
        .arg(&exported)
        .args(case)
        .output()
        .map_err(|e| e.to_string())?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

/// Writes `dace_compare.py` into `work` and returns its path.
pub(crate) fn dace_compare_script(work: &Path) -> PathBuf {
    let script = work.join("dace_compare.py");
    std::fs::write(&script, include_str!("python/dace_compare.py")).expect("writable");
    script
}

/// The corpus programs with library nodes that DaCe runs compute DaCe's
/// outputs after `sdfg-expand-library-nodes` too, and DaCe runs some of
/// the expanded programs exported back to `.sdfg` with the same results.
#[test]
fn corpus_library_expansions_compute_what_dace_computes() {
    let Some(python) = dace_python() else {
        return;
    };
    let work = std::env::temp_dir().join(format!("sdfg-corpus-expansions-{}", std::process::id()));
    std::fs::create_dir_all(&work).expect("a temporary directory");
    let dir = corpus_dir();
    let files: Vec<PathBuf> = corpus_sample(1)
        .into_iter()
        .map(|file| dir.join("dace").join(file))
        .filter(|path| {
            std::fs::read_to_string(path).is_ok_and(|text| text.contains("\"dace.libraries."))
        })
        .collect();
    let mut expanded = Vec::new();
    let mut failures = Vec::new();
    for file in &files {
        let stem = file
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        let out = work.join(format!("{stem}.mlir"));
        match expand_library_nodes(file, &out) {
            Ok(()) => expanded.push((file.clone(), out)),
            // A node without an expansion (Inv), or data the expansion
            // does not take (structures, vector elements): a diagnostic.
            Err(e) if e.contains("error:") => {}
            Err(e) => failures.push(format!("{stem}: expansion crashed: {e}")),
        }
    }
    let originals: Vec<PathBuf> = expanded.iter().map(|(f, _)| f.clone()).collect();
    let script = work.join("dace_run.py");
    std::fs::write(&script, include_str!("python/dace_run.py")).expect("writable");
    let status = Command::new(&python)
        .arg(&script)
        .arg(&work)
        .arg("0")
        .args(&originals)
        .status()
        .expect("python runs");
    assert!(status.success(), "dace_run.py failed");
    let script = dace_compare_script(&work);
    let mut passed = 0;
    for (file, program) in &expanded {
        let stem = file
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        let case = work.join(stem);
        let verdict = std::fs::read_to_string(case.join("status")).unwrap_or_default();
        if verdict.trim() != "ok" {
            continue;
        }
        match run_case(program, &case).map_or_else(|o| o, |()| compare(&case, "dace")) {
            Outcome::Pass => {
                passed += 1;
                // Every fourth one is also exported: DaCe runs the
                // expanded SDFG and gets what it gets from the original.
                if passed % 4 == 1 {
                    if let Err(e) =
                        dace_runs_export(python.as_path(), &script, (file, None), program)
                    {
                        failures.push(format!("{stem}: export: {e}"));
                    }
                }
            }
            Outcome::Nothing | Outcome::Diagnostic(_) => {}
            Outcome::Mismatch(m) => failures.push(format!("{stem}: wrong numbers: {m}")),
            Outcome::Crash(c) => failures.push(format!("{stem}: crash: {c}")),
        }
    }
    println!(
        "expanded library nodes match DaCe 1.0.2 on {passed} programs ({} with library nodes)",
        files.len()
    );
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(passed >= 10, "only {passed} expanded programs match DaCe");
    let _ = std::fs::remove_dir_all(&work);
}
