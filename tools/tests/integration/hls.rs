//! C simulation of `--emit-hls`: programs made FPGA kernels by
//! `sdfg-fpga-transform`, written as HLS C++ with their testbenches,
//! compiled with g++ against the project's `hls_stream.h`, and run on the
//! inputs `sdfg-run` runs the original program on; the outputs must be
//! `sdfg-run`'s.
//!
//! - The seeds and the `kernels` benchmark's programs (as DaCe 1.0.2
//!   writes them, at their test sizes), the kernels also with
//!   `streaming-composition` and `streaming-memory`: at least 90% of those
//!   the transform accepts simulate correctly.
//! - Every runnable corpus program (every `SDFG_HLS_CORPUS_STRIDE`-th,
//!   default 6; 1 runs all): each one simulates correctly or gets a
//!   diagnostic naming what is unsupported, never wrong numbers, a
//!   compiler error or a crash.
//! - No emitted kernel uses what Vitis HLS cannot synthesize.
//! - Where `vitis_hls` is installed, the lit tests' kernels synthesize
//!   and their pipelined loops reach `II=1`.

use crate::execute::{close, corpus_sample};
use crate::import::{corpus_dir, dace_python};
use sdfg_execution::npy::Array;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// What is run before the transform: library nodes expanded (the emitter
/// implements none), memlets propagated and the program simplified, as
/// DaCe applies `FPGATransformSDFG` to simplified programs, and loops and
/// branches raised (structured loops are `for` loops in HLS C++, and
/// their variables' ranges bound the sizes of what they allocate).
const PIPELINE: &str = "builtin.module(sdfg-expand-library-nodes,sdfg-propagate-memlets,sdfg-simplify,sdfg-raise-loops,sdfg-raise-branches,sdfg-fpga-transform)";

/// [`PIPELINE`] with buffers between maps made streams and reads of global
/// memory streamed (streams of depth 2 check that the processing elements
/// run at once).
const STREAMING: &str = "builtin.module(sdfg-expand-library-nodes,sdfg-propagate-memlets,sdfg-simplify,sdfg-raise-loops,sdfg-raise-branches,sdfg-fpga-transform{streaming-composition=true streaming-memory=true stream-depth=2})";

/// The value every free symbol of a corpus program gets (above 10, the
/// bound of `sdfg-run`'s random integers, so that index arrays stay in
/// bounds).
const SYMBOL_VALUE: &str = "12";

/// One program to simulate.
struct Case {
    name: String,
    program: PathBuf,
    /// Inputs to use (`in/*.npy`), or none for `sdfg-run`'s random ones.
    inputs: Option<PathBuf>,
    /// Symbol values; with none, every symbol `sdfg-run` asks for gets
    /// [`SYMBOL_VALUE`].
    symbols: Vec<String>,
    /// The pipeline that makes it a kernel.
    pipeline: &'static str,
}

/// What simulating one program gave.
#[derive(Debug)]
enum Verdict {
    /// The testbench's outputs are `sdfg-run`'s.
    Simulates,
    /// The transform does not apply (it says why).
    Refused(String),
    /// `sdfg-run` cannot run the program (no reference).
    NotRunnable(String),
    /// The emitter reports what it does not support.
    Diagnostic(String),
    /// Wrong numbers.
    Wrong(String),
    /// A failing step that should not fail: the pipeline, g++, the
    /// testbench.
    Broken(String),
}

fn tool(name: &str) -> PathBuf {
    match name {
        "sdfg-opt" => PathBuf::from(env!("CARGO_BIN_EXE_sdfg-opt")),
        "sdfg-translate" => PathBuf::from(env!("CARGO_BIN_EXE_sdfg-translate")),
        _ => PathBuf::from(env!("CARGO_BIN_EXE_sdfg-run")),
    }
}

/// Runs `command` for at most `limit`; `Err` for a failure to start or a
/// timeout.
fn run(command: &mut Command, limit: Duration) -> Result<std::process::Output, String> {
    let mut child = command
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let start = std::time::Instant::now();
    while child.try_wait().map_err(|e| e.to_string())?.is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("no result after {limit:?}"));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().map_err(|e| e.to_string())
}

fn first_error(output: &std::process::Output) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr);
    stderr
        .lines()
        .find(|l| l.contains("error"))
        .or_else(|| stderr.lines().last())
        .unwrap_or_default()
        .to_string()
}

/// The headers the emitted code compiles against.
fn include_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../passes/target/hls/include")
}

fn simulate(case: &Case, work: &Path) -> Verdict {
    let _ = std::fs::remove_dir_all(work);
    std::fs::create_dir_all(work.join("sim")).expect("a work directory");
    let limit = Duration::from_secs(120);
    // The program in MLIR, then the kernel.
    let mlir = work.join("program.mlir");
    let imported = if case.program.extension().is_some_and(|x| x == "mlir") {
        std::fs::copy(&case.program, &mlir)
            .map(|_| ())
            .map_err(|e| e.to_string())
    } else {
        run(
            Command::new(tool("sdfg-translate"))
                .arg("--import-dace")
                .arg(&case.program)
                .arg("-o")
                .arg(&mlir),
            limit,
        )
        .and_then(|o| {
            o.status
                .success()
                .then_some(())
                .ok_or_else(|| first_error(&o))
        })
    };
    if let Err(e) = imported {
        return Verdict::NotRunnable(format!("import: {e}"));
    }
    let fpga = work.join("fpga.mlir");
    let output = match run(
        Command::new(tool("sdfg-opt"))
            .arg(&mlir)
            .arg(format!("--pass-pipeline={}", case.pipeline))
            .arg("-o")
            .arg(&fpga),
        limit,
    ) {
        Ok(o) => o,
        Err(e) => return Verdict::Broken(format!("pipeline: {e}")),
    };
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        return Verdict::Broken(format!("pipeline: {}", first_error(&output)));
    }
    if let Some(line) = stderr
        .lines()
        .find(|l| l.contains("sdfg-fpga-transform does not apply"))
    {
        return Verdict::Refused(
            line.rsplit("does not apply: ")
                .next()
                .unwrap_or(line)
                .to_string(),
        );
    }
    // The reference: sdfg-run on the program as it was.
    let mut symbols = case.symbols.clone();
    let reference = loop {
        let mut command = Command::new(tool("sdfg-run"));
        command
            .arg(&mlir)
            .arg("--check-bounds")
            .arg("--out")
            .arg(work.join("reference"));
        match &case.inputs {
            Some(dir) => {
                for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
                    let path = entry.path();
                    if let Some(name) = path.file_stem().and_then(|s| s.to_str()) {
                        command
                            .arg("--input")
                            .arg(format!("{name}={}", path.display()));
                    }
                }
            }
            None => {
                command.arg("--save-inputs").arg(work.join("in"));
            }
        }
        for s in &symbols {
            command.arg("--set").arg(s);
        }
        let output = match run(&mut command, limit) {
            Ok(o) => o,
            Err(e) => return Verdict::NotRunnable(format!("sdfg-run: {e}")),
        };
        let stderr = String::from_utf8_lossy(&output.stderr).to_string();
        let missing = stderr
            .split("symbol `")
            .nth(1)
            .filter(|_| stderr.contains("has no value"))
            .and_then(|rest| rest.split('`').next())
            .map(str::to_string);
        match missing {
            Some(symbol) if case.symbols.is_empty() && symbols.len() < 16 => {
                symbols.push(format!("{symbol}={SYMBOL_VALUE}"));
            }
            _ if output.status.success() => break work.join("reference"),
            _ => return Verdict::NotRunnable(format!("sdfg-run: {}", first_error(&output))),
        }
    };
    let inputs = case.inputs.clone().unwrap_or_else(|| work.join("in"));
    // The kernel and its testbench.
    for (flag, file) in [
        ("--emit-hls", "kernel.cpp"),
        ("--emit-hls-testbench", "testbench.cpp"),
    ] {
        match run(
            Command::new(tool("sdfg-translate"))
                .arg(flag)
                .arg(&fpga)
                .arg("-o")
                .arg(work.join(file)),
            limit,
        ) {
            Ok(o) if o.status.success() => {}
            Ok(o) => return Verdict::Diagnostic(first_error(&o)),
            Err(e) => return Verdict::Broken(format!("{flag}: {e}")),
        }
    }
    let compiled = run(
        Command::new("g++")
            .args([
                "-std=c++14",
                "-Wall",
                "-Wextra",
                "-Werror",
                "-Wno-unknown-pragmas",
                "-O1",
                "-pthread",
            ])
            .arg("-I")
            .arg(include_dir())
            .arg(work.join("kernel.cpp"))
            .arg(work.join("testbench.cpp"))
            .arg("-o")
            .arg(work.join("simulation")),
        limit,
    );
    match compiled {
        Ok(o) if o.status.success() => {}
        Ok(o) => return Verdict::Broken(format!("g++: {}", first_error(&o))),
        Err(e) => return Verdict::Broken(format!("g++: {e}")),
    }
    match run(
        Command::new(work.join("simulation"))
            .env("SDFG_HLS_DEADLOCK_SECONDS", "2")
            .arg(&inputs)
            .arg(work.join("sim"))
            .args(&symbols),
        limit,
    ) {
        Ok(o) if o.status.success() => {}
        // The stream depths the program declares deadlock in hardware:
        // the simulation names the stream (a finding about the program).
        Ok(o) if o.status.code() == Some(3) => {
            return Verdict::Diagnostic(format!("simulation: {}", first_error(&o)))
        }
        Ok(o) => return Verdict::Broken(format!("testbench: {:?} {}", o.status, first_error(&o))),
        Err(e) => return Verdict::Broken(format!("testbench: {e}")),
    }
    compare(&reference, &work.join("sim"), &inputs)
}

/// Compares every output of the reference with the simulation's (an
/// output the testbench did not write is its input, unchanged).
fn compare(reference: &Path, simulated: &Path, inputs: &Path) -> Verdict {
    for entry in std::fs::read_dir(reference).into_iter().flatten().flatten() {
        let path = entry.path();
        let Some(file) = path.file_name() else {
            continue;
        };
        let ours = simulated.join(file);
        let ours = if ours.exists() {
            ours
        } else {
            inputs.join(file)
        };
        let (Ok(expected), Ok(got)) = (Array::read(&path), Array::read(&ours)) else {
            return Verdict::Wrong(format!("{}: missing or unreadable", file.to_string_lossy()));
        };
        if let Err(e) = close(&got, &expected) {
            return Verdict::Wrong(format!("{}: {e}", file.to_string_lossy()));
        }
    }
    Verdict::Simulates
}

/// What the emitted kernel must not contain for Vitis HLS: dynamic
/// memory, standard containers, recursion, pointer arithmetic. Returns
/// what it found.
fn unsynthesizable(kernel: &str) -> Vec<String> {
    let mut found = Vec::new();
    for pattern in [
        "new ",
        "malloc",
        "free(",
        "std::vector",
        "std::map",
        "std::list",
        "std::string",
        "std::deque",
        "*(",
    ] {
        if kernel.contains(pattern) {
            found.push(format!("`{pattern}`"));
        }
    }
    // Pointer arithmetic: the address of an element (`&x[`) or a pointer
    // moved (`x + k` where x is a pointer is not written by the emitter,
    // which indexes; an address taken is the way to it).
    for (k, _) in kernel.match_indices('&') {
        let rest = &kernel[k + 1..];
        let name_end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if name_end > 0 && rest[name_end..].starts_with('[') {
            found.push(format!("`&{}[`", &rest[..name_end]));
        }
    }
    // Recursion: a function that calls itself.
    for chunk in kernel.split("\nstatic void ").skip(1) {
        let Some((name, body)) = chunk.split_once('(') else {
            continue;
        };
        let body = body.split("\n}\n").next().unwrap_or_default();
        if body.contains(&format!("{name}(")) {
            found.push(format!("recursion in {name}"));
        }
    }
    found
}

/// Simulates `cases` two at a time; returns the verdicts by name and the
/// kernels' unsynthesizable constructs.
fn simulate_all(cases: &[Case], work: &Path) -> (BTreeMap<String, Verdict>, Vec<String>) {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let verdicts = std::sync::Mutex::new(BTreeMap::new());
    let scans = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(case) = cases.get(i) else {
                    break;
                };
                let dir = work.join(&case.name);
                let verdict = simulate(case, &dir);
                if let Ok(kernel) = std::fs::read_to_string(dir.join("kernel.cpp")) {
                    for what in unsynthesizable(&kernel) {
                        scans
                            .lock()
                            .expect("no panics")
                            .push(format!("{}: {what}", case.name));
                    }
                }
                verdicts
                    .lock()
                    .expect("no panics")
                    .insert(case.name.clone(), verdict);
            });
        }
    });
    (
        verdicts.into_inner().expect("no panics"),
        scans.into_inner().expect("no panics"),
    )
}

/// Prints the counts and the reasons of everything but a simulation.
fn report(what: &str, verdicts: &BTreeMap<String, Verdict>) -> (usize, usize) {
    let simulates = verdicts
        .values()
        .filter(|v| matches!(v, Verdict::Simulates))
        .count();
    let accepted = verdicts
        .values()
        .filter(|v| !matches!(v, Verdict::Refused(_) | Verdict::NotRunnable(_)))
        .count();
    println!(
        "{what}: {simulates} of the {accepted} programs sdfg-fpga-transform accepts simulate to sdfg-run's numbers ({} programs, {} refused by the transform, {} not runnable)",
        verdicts.len(),
        verdicts.values().filter(|v| matches!(v, Verdict::Refused(_))).count(),
        verdicts.values().filter(|v| matches!(v, Verdict::NotRunnable(_))).count(),
    );
    let mut reasons: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for (name, verdict) in verdicts {
        let reason = match verdict {
            Verdict::Simulates => continue,
            Verdict::Refused(r) => format!("refused: {r}"),
            Verdict::NotRunnable(r) => format!("not runnable: {r}"),
            Verdict::Diagnostic(d) => {
                format!("diagnostic: {}", d.rsplit("error: ").next().unwrap_or(d))
            }
            Verdict::Wrong(w) => format!("WRONG: {w}"),
            Verdict::Broken(b) => format!("BROKEN: {b}"),
        };
        let key: String = reason
            .split('\'')
            .enumerate()
            .map(|(i, s)| if i % 2 == 1 { "_" } else { s })
            .collect();
        reasons.entry(key).or_default().push(name);
    }
    for (reason, names) in &reasons {
        println!("  {:4} {reason} (e.g. {})", names.len(), names[0]);
    }
    (simulates, accepted)
}

/// Fails on wrong numbers, broken steps and unsynthesizable constructs.
fn assert_no_wrong_numbers(verdicts: &BTreeMap<String, Verdict>, scans: &[String]) {
    let bad: Vec<String> = verdicts
        .iter()
        .filter(|(_, v)| matches!(v, Verdict::Wrong(_) | Verdict::Broken(_)))
        .map(|(n, v)| format!("{n}: {v:?}"))
        .collect();
    assert!(bad.is_empty(), "wrong numbers or broken steps: {bad:#?}");
    assert!(scans.is_empty(), "unsynthesizable constructs: {scans:#?}");
}

/// The seeds and the `kernels` benchmark's programs simulate to
/// `sdfg-run`'s numbers: at least 90% of those the transform accepts.
#[test]
fn seeds_and_kernels_simulate_as_fpga_kernels() {
    let work = std::env::temp_dir().join(format!("sdfg-hls-kernels-{}", std::process::id()));
    std::fs::create_dir_all(&work).expect("a temporary directory");
    let mut cases = Vec::new();
    let seeds = corpus_dir().join("seeds");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&seeds)
        .expect("the seeds")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "sdfg"))
        .collect();
    files.sort();
    for file in files {
        let stem = file
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        cases.push(Case {
            name: format!("seed {stem}"),
            program: file.clone(),
            inputs: None,
            symbols: Vec::new(),
            pipeline: PIPELINE,
        });
    }
    if let Some(python) = dace_python() {
        let kernels_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/kernels");
        let mut kernels: Vec<PathBuf> = std::fs::read_dir(&kernels_dir)
            .expect("the kernels")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "py"))
            .collect();
        kernels.sort();
        let script = work.join("hls_kernels.py");
        std::fs::write(&script, include_str!("python/hls_kernels.py")).expect("writable");
        let out = work.join("dace");
        let status = Command::new(&python)
            .current_dir(&work)
            .arg(&script)
            .arg(&out)
            .args(&kernels)
            .status()
            .expect("python runs");
        assert!(status.success(), "hls_kernels.py failed");
        for kernel in &kernels {
            let stem = kernel
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or_default();
            let case = out.join(stem);
            if let Ok(status) = std::fs::read_to_string(case.join("status")) {
                println!("  kernel {stem}: {}", status.trim());
                continue;
            }
            let symbols: Vec<String> = std::fs::read_to_string(case.join("symbols"))
                .unwrap_or_default()
                .lines()
                .filter(|l| !l.is_empty())
                .map(str::to_string)
                .collect();
            for (suffix, pipeline) in [("", PIPELINE), (" with streams", STREAMING)] {
                cases.push(Case {
                    name: format!("kernel {stem}{suffix}"),
                    program: case.join("program.sdfg"),
                    inputs: Some(case.join("in")),
                    symbols: symbols.clone(),
                    pipeline,
                });
            }
        }
    }
    let (verdicts, scans) = simulate_all(&cases, &work.join("runs"));
    let (simulates, accepted) = report("seeds and kernels", &verdicts);
    let streamed: Vec<&str> = cases
        .iter()
        .filter(|c| c.pipeline == STREAMING)
        .filter(|c| {
            std::fs::read_to_string(work.join("runs").join(&c.name).join("kernel.cpp"))
                .is_ok_and(|k| k.contains("hls::stream<"))
        })
        .map(|c| c.name.as_str())
        .collect();
    println!(
        "  the streaming options made streams between processing elements in {} kernels: {streamed:?}",
        streamed.len()
    );
    assert_no_wrong_numbers(&verdicts, &scans);
    assert!(
        simulates * 100 >= accepted * 90,
        "only {simulates} of {accepted} accepted programs simulate correctly"
    );
    let _ = std::fs::remove_dir_all(&work);
}

/// Every runnable corpus program (a sample in CI) made an FPGA kernel
/// either simulates to `sdfg-run`'s numbers or gets a diagnostic naming
/// what is unsupported.
#[test]
fn corpus_programs_simulate_as_fpga_kernels_or_say_why_not() {
    let stride: usize = std::env::var("SDFG_HLS_CORPUS_STRIDE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6)
        .max(1);
    let dir = corpus_dir().join("dace");
    let cases: Vec<Case> = corpus_sample(stride)
        .into_iter()
        .map(|file| Case {
            name: file.trim_end_matches(".sdfg").to_string(),
            program: dir.join(&file),
            inputs: None,
            symbols: Vec::new(),
            pipeline: PIPELINE,
        })
        .collect();
    let work = std::env::temp_dir().join(format!("sdfg-hls-corpus-{}", std::process::id()));
    let (verdicts, scans) = simulate_all(&cases, &work);
    report("corpus programs", &verdicts);
    assert_no_wrong_numbers(&verdicts, &scans);
    let _ = std::fs::remove_dir_all(&work);
}

/// The programs Vitis HLS synthesizes where it is installed: the HLS lit
/// tests' programs, with the transform options their RUN lines use.
const SYNTHESIZED: &[(&str, &str)] = &[
    ("test/Target/HLS/interfaces.mlir", "sdfg-fpga-transform"),
    ("test/Target/HLS/maps.mlir", "sdfg-fpga-transform"),
    ("test/Target/HLS/wcr.mlir", "sdfg-fpga-transform"),
    ("test/Target/HLS/nested.mlir", "sdfg-fpga-transform"),
    ("test/Target/HLS/control-flow.mlir", "sdfg-fpga-transform"),
    ("test/Target/HLS/ap-int.mlir", "sdfg-fpga-transform"),
    ("test/Target/HLS/views.mlir", "sdfg-fpga-transform"),
    ("test/Target/HLS/copies.mlir", "sdfg-fpga-transform"),
    ("test/Target/HLS/jumps.mlir", "sdfg-fpga-transform"),
    ("test/Target/HLS/windows.mlir", "sdfg-fpga-transform"),
    ("test/Target/HLS/consume-chunks.mlir", "sdfg-fpga-transform"),
    (
        "test/Transforms/fpga-transform-streaming.mlir",
        "sdfg-fpga-transform{streaming-composition=true stream-depth=4}",
    ),
    (
        "test/Transforms/fpga-transform-streaming-memory.mlir",
        "sdfg-fpga-transform{streaming-memory=true stream-depth=4}",
    ),
];

/// Where `vitis_hls` is on the `PATH`, it synthesizes the kernels of
/// [`SYNTHESIZED`] for an Alveo U250 at 300 MHz, and every loop the
/// emitter pipelines with `II=1` reaches that initiation interval in the
/// synthesis reports. Skipped elsewhere: Vitis is not free software, and
/// neither this machine nor CI has it.
#[test]
fn vitis_synthesis_reaches_the_pipelines_initiation_intervals() {
    let Some(vitis) = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join("vitis_hls"))
            .find(|p| p.is_file())
    }) else {
        println!("skipped: vitis_hls is not on the PATH");
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let work = std::env::temp_dir().join(format!("sdfg-vitis-{}", std::process::id()));
    let mut failures = Vec::new();
    for (program, transform) in SYNTHESIZED {
        let name = Path::new(program)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        let dir = work.join(name);
        std::fs::create_dir_all(&dir).expect("a work directory");
        let fpga = dir.join("fpga.mlir");
        let kernel = dir.join("kernel.cpp");
        let limit = Duration::from_secs(120);
        for command in [
            Command::new(tool("sdfg-opt"))
                .arg(root.join(program))
                .arg(format!("--pass-pipeline=builtin.module({transform})"))
                .arg("-o")
                .arg(&fpga),
            Command::new(tool("sdfg-translate"))
                .arg("--emit-hls")
                .arg(&fpga)
                .arg("-o")
                .arg(&kernel),
        ] {
            let output = run(command, limit).expect("the tool runs");
            assert!(
                output.status.success(),
                "{program}: {}",
                first_error(&output)
            );
        }
        let code = std::fs::read_to_string(&kernel).expect("the kernel");
        let top = code
            .lines()
            .rev()
            .find_map(|l| l.strip_prefix("void "))
            .and_then(|l| l.split('(').next())
            .expect("a top function")
            .to_string();
        // Vitis's own hls_stream.h and ap_int.h, not the simulation's.
        std::fs::write(
            dir.join("synthesize.tcl"),
            format!(
                "open_project -reset project\nset_top {top}\nadd_files kernel.cpp -cflags \"-std=c++14\"\n\
                 open_solution -reset solution -flow_target vitis\nset_part {{xcu250-figd2104-2L-e}}\n\
                 create_clock -period 3.33 -name default\ncsynth_design\nexit\n"
            ),
        )
        .expect("writable");
        let output = run(
            Command::new(&vitis)
                .current_dir(&dir)
                .arg("-f")
                .arg("synthesize.tcl"),
            Duration::from_secs(1800),
        )
        .expect("vitis_hls runs");
        if !output.status.success() {
            failures.push(format!(
                "{program}: vitis_hls failed: {}",
                first_error(&output)
            ));
            continue;
        }
        let reports = dir.join("project/solution/syn/report");
        let loops: Vec<(String, u32)> = std::fs::read_dir(&reports)
            .expect("the synthesis reports")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.to_string_lossy().ends_with("_csynth.xml"))
            .flat_map(|p| {
                loop_initiation_intervals(&std::fs::read_to_string(p).unwrap_or_default())
            })
            .collect();
        for line in pipelined_loop_lines(&code) {
            // Vitis names an unlabeled loop VITIS_LOOP_<line>_<k>, and a
            // flattened nest after each of its loops.
            let tag = format!("VITIS_LOOP_{line}_");
            let found: Vec<&(String, u32)> =
                loops.iter().filter(|(n, _)| n.contains(&tag)).collect();
            if found.is_empty() {
                failures.push(format!(
                    "{program}: the loop at kernel.cpp:{line} is not in the reports"
                ));
            }
            for (loop_name, ii) in found {
                if *ii != 1 {
                    failures.push(format!(
                        "{program}: {loop_name} (kernel.cpp:{line}) reaches II={ii}, not 1"
                    ));
                }
            }
        }
        println!("  {program}: synthesized, {} loops reported", loops.len());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let _ = std::fs::remove_dir_all(&work);
}

/// The 1-based lines of the loops the emitter pipelines with `II=1`: the
/// `for` line before each `PIPELINE II=1` pragma.
fn pipelined_loop_lines(code: &str) -> Vec<usize> {
    let lines: Vec<&str> = code.lines().collect();
    (1..lines.len())
        .filter(|&k| {
            lines[k].trim() == "#pragma HLS PIPELINE II=1"
                && lines[k - 1].trim_start().starts_with("for (")
        })
        .collect()
}

/// The loops of a Vitis HLS `*_csynth.xml` report with their achieved
/// initiation intervals: each element under `SummaryOfLoopLatency` (loops
/// nest as elements) with a `PipelineII`.
fn loop_initiation_intervals(xml: &str) -> Vec<(String, u32)> {
    let mut loops = Vec::new();
    let mut stack: Vec<&str> = Vec::new();
    let mut rest = xml;
    while let Some(open) = rest.find('<') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('>') else {
            break;
        };
        let tag = &after[..close];
        rest = &after[close + 1..];
        if tag.starts_with('?') || tag.starts_with('!') || tag.ends_with('/') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            if let Some(k) = stack.iter().rposition(|t| *t == name.trim()) {
                stack.truncate(k);
            }
            continue;
        }
        let name = tag.split_whitespace().next().unwrap_or_default();
        if name == "PipelineII" && stack.contains(&"SummaryOfLoopLatency") {
            let value = rest.split('<').next().unwrap_or_default().trim();
            if let (Some(loop_name), Ok(ii)) = (stack.last(), value.parse()) {
                loops.push((loop_name.to_string(), ii));
            }
        }
        stack.push(name);
    }
    loops
}

/// The report reader on the layout Vitis HLS writes: nested loops,
/// flattened names, loops that are not pipelined.
#[test]
fn vitis_reports_are_read() {
    let xml = r#"<?xml version="1.0" encoding="UTF-8"?>
<profile>
  <PerformanceEstimates>
    <SummaryOfLoopLatency>
      <VITIS_LOOP_40_1_VITIS_LOOP_41_2>
        <Name>VITIS_LOOP_40_1_VITIS_LOOP_41_2</Name>
        <TripCount>4096</TripCount>
        <PipelineII>1</PipelineII>
        <PipelineDepth>9</PipelineDepth>
      </VITIS_LOOP_40_1_VITIS_LOOP_41_2>
      <VITIS_LOOP_52_1>
        <Name>VITIS_LOOP_52_1</Name>
        <TripCount><range><min>0</min><max>64</max></range></TripCount>
        <VITIS_LOOP_54_2>
          <Name>VITIS_LOOP_54_2</Name>
          <PipelineII>4</PipelineII>
        </VITIS_LOOP_54_2>
      </VITIS_LOOP_52_1>
    </SummaryOfLoopLatency>
    <PipelineII>7</PipelineII>
  </PerformanceEstimates>
</profile>"#;
    assert_eq!(
        loop_initiation_intervals(xml),
        vec![
            ("VITIS_LOOP_40_1_VITIS_LOOP_41_2".to_string(), 1),
            ("VITIS_LOOP_54_2".to_string(), 4)
        ]
    );
    let code = "void f() {\n  for (long long i = 0; i < N; i += 1) {\n    #pragma HLS PIPELINE II=1\n  }\n  for (;;) {\n    #pragma HLS PIPELINE  // carried\n  }\n}\n";
    assert_eq!(pipelined_loop_lines(code), vec![2]);
}
