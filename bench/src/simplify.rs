//! `sdfg-bench simplify`: memlet propagation plus `sdfg-simplify` against
//! DaCe's `propagate_memlets_sdfg` plus `SDFG.simplify()`, on the same
//! unsimplified programs (`to_sdfg(simplify=False)`): the `kernels`
//! benchmark's programs and chains of K NumPy statements. Then our time on
//! programs of up to about 100,000 nodes, made by running a DaCe chain
//! several times in a row, to show how it grows.
//!
//! Each side runs on a fresh copy of the program (loading and importing
//! not timed), best of `--reps`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use melior::ir::Module;
use sdfg_analysis::graph::{size, Size};
use sdfg_dialect::ir::Op;

/// The chain lengths DaCe is timed on.
const CHAINS: &str = "10,20,40,80,160";

/// One program as DaCe's side measured it.
struct Measured {
    name: String,
    file: PathBuf,
    dace_ms: f64,
    before: usize,
    dace_states: usize,
    dace_nodes: usize,
}

/// Our best time (ms) for propagation plus simplify on `text`, and the
/// sizes before and after.
fn ours(text: &str, reps: usize) -> Result<(f64, Size, Size), String> {
    let context = sdfg_dialect::create_context();
    let mut best = f64::INFINITY;
    let (mut before, mut after) = (Size::default(), Size::default());
    for _ in 0..reps.max(1) {
        let module = Module::parse(&context, text).ok_or("the imported program does not parse")?;
        // SAFETY: the module outlives the handle.
        let root = unsafe { Op::from_raw(module.as_operation().to_raw()) }.ok_or("no module op")?;
        before = size(root);
        let start = Instant::now();
        sdfg_analysis::propagate::propagate_all(root);
        sdfg_transforms::simplify::simplify(root);
        best = best.min(start.elapsed().as_secs_f64() * 1e3);
        after = size(root);
    }
    Ok((best, before, after))
}

/// The program of a `.sdfg` file, imported and printed by MLIR (one op
/// per line, which [`repeat`] relies on).
pub(crate) fn import(file: &Path) -> Result<String, String> {
    let bytes = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let text = sdfg_target_dace::import::import_bytes(&bytes)
        .map_err(|e| format!("{}: {e}", file.display()))?;
    let context = sdfg_dialect::create_context();
    let module = Module::parse(&context, &format!("module {{\n{text}}}"))
        .ok_or_else(|| format!("{}: the imported program does not parse", file.display()))?;
    Ok(module.as_operation().to_string())
}

/// `text` (one imported SDFG whose state machine is a chain) run `times`
/// times in a row: its states and edges repeated under new names, the
/// last state of each copy joined to the first of the next.
fn repeat(text: &str, times: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let state_of = |l: &str| {
        l.trim_start()
            .strip_prefix("sdfg.state @")
            .and_then(|r| r.split_whitespace().next())
            .map(str::to_string)
    };
    let first = lines
        .iter()
        .position(|l| state_of(l).is_some())
        .unwrap_or(0);
    let end = lines
        .iter()
        .rposition(|l| l.trim() == "}")
        .unwrap_or(lines.len());
    let end = lines[..end]
        .iter()
        .rposition(|l| l.trim() == "}")
        .unwrap_or(end);
    let body = &lines[first..end];
    let names: Vec<String> = body.iter().filter_map(|l| state_of(l)).collect();
    let sources: Vec<&str> = body
        .iter()
        .filter_map(|l| l.trim_start().strip_prefix("sdfg.edge @"))
        .filter_map(|r| r.split_whitespace().next())
        .collect();
    let start = names.first().cloned().unwrap_or_default();
    let sink = names
        .iter()
        .find(|n| !sources.contains(&n.as_str()))
        .cloned()
        .unwrap_or_default();
    let rename = |line: &str, copy: usize| -> String {
        if copy == 0 {
            return line.to_string();
        }
        let mut out = String::new();
        let mut rest = line;
        while let Some(at) = rest.find('@') {
            out.push_str(&rest[..=at]);
            rest = &rest[at + 1..];
            let len = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            let name = &rest[..len];
            out.push_str(name);
            if names.iter().any(|n| n == name) {
                out.push_str(&format!("_r{copy}"));
            }
            rest = &rest[len..];
        }
        out.push_str(rest);
        out
    };
    let mut out: Vec<String> = lines[..first].iter().map(|l| l.to_string()).collect();
    for copy in 0..times {
        out.extend(body.iter().map(|l| rename(l, copy)));
        if copy > 0 {
            let previous = if copy == 1 {
                sink.clone()
            } else {
                format!("{sink}_r{}", copy - 1)
            };
            out.push(format!("    sdfg.edge @{previous} -> @{start}_r{copy}"));
        }
    }
    out.extend(lines[end..].iter().map(|l| l.to_string()));
    out.join("\n")
}

/// Runs the benchmark and prints the tables: on every kernel and chain,
/// or on those named in `only` (kernel names and `chain_K` for the chain
/// lengths K of [`CHAINS`]); the growth table comes with the largest
/// chain measured.
pub fn run(reps: usize, only: &[String], python: &Result<PathBuf, String>) -> Result<(), String> {
    let python = python.as_ref().map_err(Clone::clone)?;
    let root = crate::repo_root();
    let (chains, named): (Vec<&String>, Vec<String>) = if only.is_empty() {
        (Vec::new(), Vec::new())
    } else {
        let (chains, kernels): (Vec<&String>, Vec<&String>) =
            only.iter().partition(|o| o.starts_with("chain_"));
        (chains, kernels.into_iter().cloned().collect())
    };
    let lengths: Vec<&str> = CHAINS
        .split(',')
        .filter(|k| only.is_empty() || chains.iter().any(|c| c[6..] == **k))
        .collect();
    if chains.len() > lengths.len() {
        return Err(format!("the chains measured are chain_K for K in {CHAINS}"));
    }
    let kernels = if only.is_empty() || !named.is_empty() {
        crate::kernels::kernel_files(&named)?
    } else {
        Vec::new()
    };
    let work = tempfile::tempdir().map_err(|e| e.to_string())?;
    let output = Command::new(python)
        .arg(root.join("bench").join("python").join("simplify.py"))
        .arg(work.path())
        .arg(reps.max(1).to_string())
        .arg(lengths.join(","))
        .args(&kernels)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut measured = Vec::new();
    for line in stdout.lines() {
        if let Some(skipped) = line.strip_prefix("SKIPPED ") {
            println!("DaCe cannot simplify {skipped}");
        }
        let Some(rest) = line.strip_prefix("PROGRAM ") else {
            continue;
        };
        let f: Vec<&str> = rest.split_whitespace().collect();
        if let [name, file, ms, before, states, nodes] = f.as_slice() {
            measured.push(Measured {
                name: name.to_string(),
                file: PathBuf::from(file),
                dace_ms: ms.parse().unwrap_or(f64::NAN),
                before: before.parse().unwrap_or(0),
                dace_states: states.parse().unwrap_or(0),
                dace_nodes: nodes.parse().unwrap_or(0),
            });
        }
    }
    if measured.is_empty() {
        return Err(format!(
            "the DaCe side measured nothing: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    sdfg_registry::register_all();
    println!(
        "{:<22} {:>7} {:>11} {:>10} {:>8}   {:>15} {:>15}",
        "program", "nodes", "DaCe (ms)", "ours (ms)", "ratio", "DaCe st/nodes", "ours st/nodes"
    );
    let (mut dace_total, mut ours_total) = (0.0, 0.0);
    let mut chain_points = Vec::new();
    let mut largest_chain = None;
    for m in &measured {
        let text = match import(&m.file) {
            Ok(text) => text,
            Err(e) => {
                println!("{:<22} not imported: {e}", m.name);
                continue;
            }
        };
        let (ms, before, after) = ours(&text, reps)?;
        dace_total += m.dace_ms;
        ours_total += ms;
        println!(
            "{:<22} {:>7} {:>11.2} {:>10.3} {:>7.0}x   {:>7}/{:<7} {:>7}/{:<7}",
            m.name,
            m.before.max(before.nodes),
            m.dace_ms,
            ms,
            m.dace_ms / ms,
            m.dace_states,
            m.dace_nodes,
            after.states,
            after.nodes
        );
        if m.name.starts_with("chain_") {
            chain_points.push((before.nodes, m.dace_ms, ms));
            largest_chain = Some(text);
        }
    }
    println!(
        "total: DaCe {dace_total:.1} ms, ours {ours_total:.2} ms, ratio {:.0}x",
        dace_total / ours_total
    );
    if let (Some(first), Some(last)) = (chain_points.first(), chain_points.last()) {
        let growth = |a: f64, b: f64| (b / a).ln() / (last.0 as f64 / first.0 as f64).ln();
        println!(
            "growth over the chains ({} to {} nodes), as the exponent of time in size: DaCe {:.2}, ours {:.2}",
            first.0,
            last.0,
            growth(first.1, last.1),
            growth(first.2, last.2)
        );
    }
    let Some(chain) = largest_chain else {
        return Ok(());
    };
    println!("\nours on the largest chain run several times in a row:");
    println!(
        "{:>8} {:>10} {:>12} {:>16}",
        "nodes", "ours (ms)", "us per node", "exponent from"
    );
    let exponent = |a: (f64, f64), b: (f64, f64)| (b.1 / a.1).ln() / (b.0 / a.0).ln();
    let mut points: Vec<(f64, f64)> = Vec::new();
    for times in [1, 4, 16, 64, 160] {
        // Best of up to three runs: one run of a large program is at the
        // mercy of the machine's noise.
        let (ms, before, _) = ours(&repeat(&chain, times), reps.min(3))?;
        let point = (before.nodes as f64, ms);
        // The exponent from the previous size to this one ("exponent from"
        // the row above).
        let step = points.last().map_or(String::new(), |last| {
            format!("{:.2}", exponent(*last, point))
        });
        println!(
            "{:>8} {:>10.1} {:>12.2} {step:>16}",
            before.nodes,
            ms,
            ms * 1e3 / before.nodes as f64
        );
        points.push(point);
    }
    if let (Some(a), Some(b)) = (points.first(), points.last()) {
        println!(
            "growth, as the exponent of time in size: {:.2} over the whole range (1 is linear)",
            exponent(*a, *b)
        );
    }
    Ok(())
}
