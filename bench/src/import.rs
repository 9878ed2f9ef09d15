//! `sdfg-bench import`: our `.sdfg` import against DaCe's `SDFG.from_file`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use melior::ir::Module;
use sdfg_symbolic::corpus::find_corpus_dir;

const DACE_SCRIPT: &str = r#"
import sys, time, warnings
warnings.filterwarnings("ignore")
import dace
files = sys.argv[2:]
reps = int(sys.argv[1])
best = None
for _ in range(reps):
    ok = 0
    start = time.perf_counter()
    for f in files:
        try:
            dace.SDFG.from_file(f)
            ok += 1
        except Exception:
            pass
    elapsed = (time.perf_counter() - start) * 1000
    best = elapsed if best is None else min(best, elapsed)
print("DACE", ok, best)
"#;

/// The corpus files DaCe 1.0.2 loads (`INDEX.tsv`) and the seeds.
fn corpus_files(root: &Path) -> Result<Vec<PathBuf>, String> {
    let index =
        std::fs::read_to_string(root.join("dace").join("INDEX.tsv")).map_err(|e| e.to_string())?;
    let mut files: Vec<PathBuf> = index
        .lines()
        .skip(1)
        .filter_map(|line| line.split_once('\t'))
        .filter(|(_, verdict)| !verdict.starts_with("noload"))
        .map(|(file, _)| root.join("dace").join(file))
        .collect();
    let mut seeds: Vec<PathBuf> = std::fs::read_dir(root.join("seeds"))
        .map_err(|e| e.to_string())?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "sdfg"))
        .collect();
    seeds.sort();
    files.extend(seeds);
    Ok(files)
}

/// Imports every file as `--import-dace` does; returns how many succeeded.
fn import_all(inputs: &[Vec<u8>]) -> usize {
    let context = sdfg_dialect::create_context();
    context.attach_diagnostic_handler(|_| true);
    let mut ok = 0;
    for bytes in inputs {
        if let Ok(text) = sdfg_target_dace::import::import_bytes(bytes) {
            ok += Module::parse(&context, &format!("module {{\n{text}}}")).is_some() as usize;
        }
    }
    ok
}

/// Runs the benchmark and prints the table.
pub fn run(reps: usize, python: &Result<PathBuf, String>) -> Result<(), String> {
    let root = find_corpus_dir(&crate::repo_root())
        .ok_or("no shared/corpus found; set SDFG_CORPUS_DIR")?;
    let files = corpus_files(&root)?;
    let inputs: Vec<Vec<u8>> = files
        .iter()
        .map(|f| std::fs::read(f).unwrap_or_default())
        .collect();
    sdfg_registry::register_all();
    let mut ours = f64::INFINITY;
    let mut imported = 0;
    for _ in 0..reps.max(1) {
        let start = Instant::now();
        imported = import_all(&inputs);
        ours = ours.min(start.elapsed().as_secs_f64() * 1000.0);
    }
    let python = python.as_ref().map_err(Clone::clone)?;
    let output = Command::new(python)
        .arg("-c")
        .arg(DACE_SCRIPT)
        .arg(reps.max(1).to_string())
        .args(&files)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("DACE "))
        .ok_or_else(|| {
            format!(
                "DaCe benchmark failed: {}",
                String::from_utf8_lossy(&output.stderr)
            )
        })?;
    let mut parts = line.split_whitespace();
    let dace_ok: usize = parts.next().and_then(|p| p.parse().ok()).unwrap_or(0);
    let dace_ms: f64 = parts
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or(f64::NAN);
    println!(
        "corpus: {} ({} files DaCe loads, plus the seeds)",
        root.display(),
        files.len()
    );
    println!(
        "{:<8} {:>8} {:>10} {:>12}",
        "engine", "files", "loaded", "time (ms)"
    );
    println!(
        "{:<8} {:>8} {:>10} {:>12.1}",
        "ours",
        files.len(),
        imported,
        ours
    );
    println!(
        "{:<8} {:>8} {:>10} {:>12.1}",
        "DaCe",
        files.len(),
        dace_ok,
        dace_ms
    );
    println!("ratio (DaCe / ours): {:.1}x", dace_ms / ours);
    Ok(())
}
