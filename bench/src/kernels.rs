//! `sdfg-bench kernels`: our compiled SDFGs against DaCe 1.0.2's generated
//! code and NumPy.
//!
//! `python/kernels.py` (in the DaCe venv) writes each kernel's `.sdfg` as
//! DaCe's frontend produces it (simplified), its inputs, and DaCe's
//! outputs, and times DaCe's compiled SDFG and the NumPy version (medians of
//! `--reps` calls on fresh copies). This side compiles the same `.sdfg`
//! through `sdfg-lower-to-llvm`, checks that it computes DaCe's outputs, and
//! times it the same way in the same run on the same machine. The table
//! prints the times and the speedups (their time divided by ours), with
//! geometric means.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use sdfg_execution::{self as execute, npy::Array, Options};

const SCRIPT: &str = include_str!("../python/kernels.py");

struct Row {
    name: String,
    ours: f64,
    dace: f64,
    numpy: f64,
    checked: Result<(), String>,
}

/// Compiles and times one kernel; checks its outputs against DaCe's.
fn measure(case: &Path, reps: usize) -> Result<(f64, Result<(), String>), String> {
    let program = execute::compile(&case.join("program.sdfg"), &Options::default())?;
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
    let mut checked = Ok(());
    for (arg, buffer) in program.abi.arguments.iter().zip(&buffers) {
        let path = case.join("dace").join(format!("{}.npy", arg.name));
        if let Ok(expected) = Array::read(&path) {
            let got = buffer.to_array();
            for i in 0..expected.len() {
                let (x, y) = (
                    got.dtype.get(&got.data, i),
                    expected.dtype.get(&expected.data, i),
                );
                if (x - y).abs() > 1e-6 + 1e-4 * y.abs() {
                    checked = Err(format!("{}[{i}] is {x}, DaCe computes {y}", arg.name));
                    break;
                }
            }
        }
    }
    let mut times = Vec::new();
    for _ in 0..reps {
        let mut fresh = pristine.clone();
        let start = Instant::now();
        program.call(&mut fresh, &symbols)?;
        times.push(start.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    Ok((times[times.len() / 2], checked))
}

fn geomean(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = values.fold((0.0, 0), |(s, n), v| (s + v.ln(), n + 1));
    (sum / n.max(1) as f64).exp()
}

/// Runs the benchmark and prints the table.
pub fn run(reps: usize, python: &Result<PathBuf, String>) -> Result<(), String> {
    let python = python.as_ref().map_err(Clone::clone)?;
    let work = tempfile::tempdir().map_err(|e| e.to_string())?;
    let script = work.path().join("kernels.py");
    std::fs::write(&script, SCRIPT).map_err(|e| e.to_string())?;
    eprintln!("compiling and timing the kernels with DaCe 1.0.2 and NumPy ...");
    let output = Command::new(python)
        .arg(&script)
        .arg(work.path())
        .arg(reps.to_string())
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
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let ["KERNEL", name, dace, numpy] = fields.as_slice() else {
            continue;
        };
        let (dace, numpy): (f64, f64) = (
            dace.parse().map_err(|_| format!("bad line {line}"))?,
            numpy.parse().map_err(|_| format!("bad line {line}"))?,
        );
        let (ours, checked) =
            measure(&work.path().join(name), reps).map_err(|e| format!("{name}: {e}"))?;
        rows.push(Row {
            name: name.to_string(),
            ours,
            dace,
            numpy,
            checked,
        });
    }
    println!(
        "{:<10} {:>11} {:>11} {:>11} {:>10} {:>10}  same result as DaCe",
        "kernel", "ours ms", "DaCe ms", "NumPy ms", "vs DaCe", "vs NumPy"
    );
    for r in &rows {
        println!(
            "{:<10} {:>11.3} {:>11.3} {:>11.3} {:>9.2}x {:>9.2}x  {}",
            r.name,
            r.ours,
            r.dace,
            r.numpy,
            r.dace / r.ours,
            r.numpy / r.ours,
            match &r.checked {
                Ok(()) => "yes".to_string(),
                Err(e) => format!("NO: {e}"),
            }
        );
    }
    println!(
        "geometric mean speedup: {:.2}x over DaCe's generated code, {:.2}x over NumPy ({} kernels, {} repetitions each, medians)",
        geomean(rows.iter().map(|r| r.dace / r.ours)),
        geomean(rows.iter().map(|r| r.numpy / r.ours)),
        rows.len(),
        reps
    );
    if rows.iter().any(|r| r.checked.is_err()) {
        return Err("some kernels do not compute what DaCe computes".into());
    }
    Ok(())
}
