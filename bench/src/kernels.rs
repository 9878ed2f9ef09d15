//! `sdfg-bench kernels`: our compiled SDFGs against DaCe 1.0.2's generated
//! code and NumPy.
//!
//! The kernels are the NumPy-style programs of `bench/kernels/` (linear
//! algebra, stencils, convolutions and a small CNN, softmax and an MLP,
//! histograms and reductions, an n-body step, a CRC, ...), each a
//! `@dace.program` with its NumPy version. `python/kernels.py` (in the DaCe
//! venv) writes each kernel's `.sdfg` as DaCe's frontend produces it
//! (simplified), its inputs, DaCe's outputs and NumPy's, and times DaCe at
//! its best (the simplified SDFG or the same through `auto_optimize` with
//! OpenBLAS, whichever is faster) and the NumPy version (medians of
//! `--reps` calls on fresh copies). This side compiles the same `.sdfg`
//! through `sdfg-lower-to-llvm`, checks that it computes DaCe's outputs and
//! NumPy's, and times it the same way in the same run on the same machine.
//! It also compiles the program after `sdfg-auto-optimize` (`sdfg-run -O`)
//! and times it against DaCe's own `auto_optimize` on the same `.sdfg`, and
//! times the two transformations themselves (ours on the imported module,
//! DaCe's on the loaded SDFG, neither's loading timed).
//! The table prints the times and the speedups (their time divided by
//! ours), with geometric means; it says where DaCe itself disagrees with
//! NumPy. Any kernel whose numbers differ from DaCe's, as written or
//! after `sdfg-auto-optimize`, fails the run.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use melior::ir::Module;
use sdfg_dialect::ir::Op;
use sdfg_execution::{self as execute, npy::Array, Options};

const SCRIPT: &str = include_str!("../python/kernels.py");

struct Row {
    name: String,
    ours: f64,
    /// After `sdfg-auto-optimize`.
    optimized: Measured,
    dace: f64,
    /// DaCe's `auto_optimize` alone (NaN where it failed or differed).
    dace_ao: f64,
    /// How long DaCe's `auto_optimize` took, and ours.
    transform_ms: (f64, f64),
    numpy: f64,
    /// How DaCe ran (`simplify` or `auto_optimize`).
    how: String,
    /// Whether DaCe agrees with NumPy (`agrees` or which arrays differ).
    dace_vs_numpy: String,
    /// Whether our outputs are DaCe's.
    checked: Result<(), String>,
    /// Whether our outputs are NumPy's.
    numpy_checked: Result<(), String>,
}

/// What one kernel gives: our median time and the comparisons of our
/// outputs with DaCe's and NumPy's.
struct Measured {
    ms: f64,
    vs_dace: Result<(), String>,
    vs_numpy: Result<(), String>,
}

/// Compares our outputs with the arrays a reference saved in `dir`.
fn compare(
    program: &execute::Program,
    buffers: &[execute::Buffer],
    dir: &Path,
) -> Result<(), String> {
    for (arg, buffer) in program.abi.arguments.iter().zip(buffers) {
        let path = dir.join(format!("{}.npy", arg.name));
        let Ok(expected) = Array::read(&path) else {
            continue;
        };
        let got = buffer.to_array();
        if got.len() != expected.len() {
            return Err(format!(
                "{} has {} elements, expected {}",
                arg.name,
                got.len(),
                expected.len()
            ));
        }
        for i in 0..expected.components() {
            let (x, y) = (
                got.dtype.get(&got.data, i),
                expected.dtype.get(&expected.data, i),
            );
            let same = (x.is_nan() && y.is_nan()) || (x - y).abs() <= 1e-6 + 1e-4 * y.abs();
            if !same {
                return Err(format!("{}[{i}] is {x}, expected {y}", arg.name));
            }
        }
    }
    Ok(())
}

/// Compiles and times one kernel; checks its outputs against DaCe's and
/// NumPy's.
fn measure(case: &Path, reps: usize, options: &Options) -> Result<Measured, String> {
    let program = execute::compile(&case.join("program.sdfg"), options)?;
    let mut symbols: HashMap<String, i64> = HashMap::new();
    for line in std::fs::read_to_string(case.join("symbols"))
        .map_err(|e| e.to_string())?
        .lines()
    {
        if let Some((k, v)) = line.split_once('=') {
            symbols.insert(
                k.to_string(),
                v.parse().map_err(|_| format!("bad symbol line {line}"))?,
            );
        }
    }
    let mut buffers = execute::buffers(&program.abi, &symbols)?;
    for (arg, buffer) in program.abi.arguments.iter().zip(buffers.iter_mut()) {
        let input = Array::read(&case.join("in").join(format!("{}.npy", arg.name)))?;
        buffer
            .fill(&input)
            .map_err(|e| format!("{}: {e}", arg.name))?;
    }
    let pristine = buffers.clone();
    let symbols = execute::SymbolValues::integers(symbols);
    program.call(&mut buffers, &symbols)?;
    let vs_dace = compare(&program, &buffers, &case.join("dace"));
    let vs_numpy = compare(&program, &buffers, &case.join("numpy"));
    let mut times = Vec::new();
    for _ in 0..reps {
        let mut fresh = pristine.clone();
        let start = Instant::now();
        program.call(&mut fresh, &symbols)?;
        times.push(start.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    Ok(Measured {
        ms: times[times.len() / 2],
        vs_dace,
        vs_numpy,
    })
}

/// Our best time (ms) for `sdfg-auto-optimize` on the kernel's program,
/// on a fresh import each time (the import not timed).
fn auto_optimize_ms(case: &Path, reps: usize) -> Result<f64, String> {
    let text = crate::simplify::import(&case.join("program.sdfg"))?;
    let context = sdfg_dialect::create_context();
    let mut best = f64::INFINITY;
    for _ in 0..reps.clamp(1, 3) {
        let module = Module::parse(&context, &text).ok_or("the imported program does not parse")?;
        // SAFETY: the module outlives the handle.
        let root = unsafe { Op::from_raw(module.as_operation().to_raw()) }.ok_or("no module op")?;
        let start = Instant::now();
        sdfg_transforms::auto_optimize::auto_optimize(root)
            .map_err(|_| "sdfg-auto-optimize failed".to_string())?;
        best = best.min(start.elapsed().as_secs_f64() * 1e3);
    }
    Ok(best)
}

fn geomean(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = values.fold((0.0, 0), |(s, n), v| (s + v.ln(), n + 1));
    (sum / n.max(1) as f64).exp()
}

/// The kernel files, all of them or those named in `only`.
pub(crate) fn kernel_files(only: &[String]) -> Result<Vec<PathBuf>, String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .filter(|p| {
            only.is_empty()
                || p.file_stem()
                    .and_then(|s| s.to_str())
                    .is_some_and(|s| only.iter().any(|o| o == s))
        })
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("no kernel named {only:?} in {}", dir.display()));
    }
    Ok(files)
}

fn verdict(r: &Result<(), String>) -> String {
    match r {
        Ok(()) => "yes".to_string(),
        Err(e) => format!("NO ({e})"),
    }
}

/// Runs the benchmark on every kernel (or those named in `only`) and
/// prints the table.
pub fn run(reps: usize, only: &[String], python: &Result<PathBuf, String>) -> Result<(), String> {
    let python = python.as_ref().map_err(Clone::clone)?;
    let files = kernel_files(only)?;
    let work = tempfile::tempdir().map_err(|e| e.to_string())?;
    let script = work.path().join("kernels.py");
    std::fs::write(&script, SCRIPT).map_err(|e| e.to_string())?;
    eprintln!(
        "compiling and timing {} kernels with DaCe 1.0.2 and NumPy ...",
        files.len()
    );
    let output = Command::new(python)
        .arg(&script)
        .arg(work.path())
        .arg(reps.to_string())
        .args(&files)
        .current_dir(work.path())
        .output()
        .map_err(|e| format!("{}: {e}", python.display()))?;
    if !output.status.success() {
        return Err(format!(
            "kernels.py failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let mut rows = Vec::new();
    let mut failures = Vec::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        match fields.as_slice() {
            ["FAILED", name, why @ ..] => {
                failures.push(format!("{name}: DaCe fails: {}", why.join(" ")));
            }
            ["KERNEL", name, dace, numpy, how, dace_vs_numpy, dace_ao, dace_ao_transform] => {
                let number = |text: &str| -> Result<f64, String> {
                    text.parse().map_err(|_| format!("bad line {line}"))
                };
                let (dace, numpy) = (number(dace)?, number(numpy)?);
                let case = work.path().join(name);
                let optimize = Options {
                    optimize: true,
                    ..Options::default()
                };
                let measured = measure(&case, reps, &Options::default()).and_then(|plain| {
                    let optimized = measure(&case, reps, &optimize)?;
                    Ok((plain, optimized, auto_optimize_ms(&case, reps)?))
                });
                match measured {
                    Ok((m, optimized, ours_transform)) => rows.push(Row {
                        name: name.to_string(),
                        ours: m.ms,
                        optimized,
                        dace,
                        dace_ao: number(dace_ao)?,
                        transform_ms: (number(dace_ao_transform)?, ours_transform),
                        numpy,
                        how: how.to_string(),
                        dace_vs_numpy: dace_vs_numpy.to_string(),
                        checked: m.vs_dace,
                        numpy_checked: m.vs_numpy,
                    }),
                    Err(e) => failures.push(format!("{name}: {e}")),
                }
            }
            _ => {}
        }
    }
    println!(
        "{:<16} {:>9} {:>9} {:>9} {:>9} {:>9} {:>8} {:>8} {:>8}  {:<14} same as DaCe / as NumPy / -O as DaCe",
        "kernel", "ours ms", "-O ms", "DaCe ms", "DaCe AO", "NumPy ms", "vs DaCe", "vs AO", "vs NumPy", "DaCe ran"
    );
    for r in &rows {
        println!(
            "{:<16} {:>9.3} {:>9.3} {:>9.3} {:>9.3} {:>9.3} {:>7.2}x {:>7.2}x {:>7.2}x  {:<14} {} / {} / {}",
            r.name,
            r.ours,
            r.optimized.ms,
            r.dace,
            r.dace_ao,
            r.numpy,
            r.dace / r.optimized.ms,
            r.dace_ao / r.optimized.ms,
            r.numpy / r.optimized.ms,
            r.how,
            verdict(&r.checked),
            verdict(&r.numpy_checked),
            verdict(&r.optimized.vs_dace),
        );
    }
    let with_ao: Vec<&Row> = rows.iter().filter(|r| r.dace_ao.is_finite()).collect();
    let faster = with_ao
        .iter()
        .filter(|r| r.optimized.ms < r.dace_ao)
        .count();
    println!(
        "geometric mean speedup of sdfg-run -O: {:.2}x over DaCe at its best, {:.2}x over NumPy ({} kernels, {} repetitions each, medians); without -O {:.2}x and {:.2}x",
        geomean(rows.iter().map(|r| r.dace / r.optimized.ms)),
        geomean(rows.iter().map(|r| r.numpy / r.optimized.ms)),
        rows.len(),
        reps,
        geomean(rows.iter().map(|r| r.dace / r.ours)),
        geomean(rows.iter().map(|r| r.numpy / r.ours)),
    );
    println!(
        "sdfg-auto-optimize against DaCe's auto_optimize: {:.2}x on the geometric mean, faster on {faster} of {} kernels (the aim: faster on the mean and on 80%)",
        geomean(with_ao.iter().map(|r| r.dace_ao / r.optimized.ms)),
        with_ao.len(),
    );
    println!(
        "transformation time: sdfg-auto-optimize {:.2} ms against auto_optimize {:.1} ms on the geometric mean, {:.0}x faster (the aim: 50x)",
        geomean(rows.iter().map(|r| r.transform_ms.1)),
        geomean(rows.iter().filter(|r| r.transform_ms.0.is_finite()).map(|r| r.transform_ms.0)),
        geomean(
            rows.iter()
                .filter(|r| r.transform_ms.0.is_finite())
                .map(|r| r.transform_ms.0 / r.transform_ms.1)
        ),
    );
    for r in rows.iter().filter(|r| r.dace_vs_numpy != "agrees") {
        println!(
            "note: {}: DaCe itself differs from NumPy ({})",
            r.name, r.dace_vs_numpy
        );
    }
    for f in &failures {
        println!("failed: {f}");
    }
    let wrong: Vec<&str> = rows
        .iter()
        .filter(|r| r.checked.is_err() || r.optimized.vs_dace.is_err())
        .map(|r| r.name.as_str())
        .collect();
    if !wrong.is_empty() {
        return Err(format!(
            "kernels that do not compute what DaCe computes: {wrong:?}"
        ));
    }
    if !failures.is_empty() {
        return Err(format!("{} kernels failed", failures.len()));
    }
    Ok(())
}
