//! `--import-dace` over DaCe's own files: the seeds must import, validate
//! and print stably; the corpus import rate is reported.

use melior::ir::Module;
use std::path::{Path, PathBuf};

fn corpus_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("SDFG_CORPUS_DIR") {
        return PathBuf::from(dir);
    }
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|p| p.join("shared").join("corpus"))
        .find(|p| p.is_dir())
        .expect("no shared/corpus above the repository; set SDFG_CORPUS_DIR")
}

/// Imports one file and parses the result in a context with the dialect,
/// its verifiers and validation; returns the printed module.
fn import(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let text =
        sdfg_passes::translate::dace_import::import_bytes(&bytes).map_err(|e| e.to_string())?;
    sdfg_passes::register_all();
    let context = sdfg_dialect::create_context();
    let diagnostics = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink = diagnostics.clone();
    context.attach_diagnostic_handler(move |d| {
        if let Ok(mut all) = sink.lock() {
            all.push(d.to_string());
        }
        true
    });
    let module = Module::parse(&context, &format!("module {{\n{text}}}")).ok_or_else(|| {
        let first = diagnostics
            .lock()
            .ok()
            .and_then(|d| d.first().cloned())
            .unwrap_or_default();
        format!("the imported text does not verify: {first}\n{text}")
    })?;
    Ok(module.as_operation().to_string())
}

#[test]
fn seeds_import_and_print_stably() {
    let seeds = corpus_dir().join("seeds");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&seeds)
        .expect("the seeds directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "sdfg"))
        .collect();
    files.sort();
    assert!(files.len() >= 14, "expected the 14 seed files");
    for file in files {
        let printed = import(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let context = sdfg_dialect::create_context();
        let again = Module::parse(&context, &printed).expect("the printed import parses");
        assert_eq!(
            again.as_operation().to_string(),
            printed,
            "{}",
            file.display()
        );
    }
}

/// DaCe's verdict per corpus file (`INDEX.tsv`).
fn dace_index() -> Vec<(String, String)> {
    let text =
        std::fs::read_to_string(corpus_dir().join("dace").join("INDEX.tsv")).expect("INDEX.tsv");
    text.lines()
        .skip(1)
        .filter_map(|line| line.split_once('\t'))
        .map(|(file, verdict)| (file.to_string(), verdict.to_string()))
        .collect()
}

/// Imports every corpus file DaCe 1.0.2 loads; reports the rate and the
/// reasons of failures, and checks that every failure is a diagnostic (an
/// `Err`), never a panic.
#[test]
fn corpus_import_rate() {
    let dir = corpus_dir().join("dace");
    let mut imported = 0;
    let mut failures: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    let loadable: Vec<String> = dace_index()
        .into_iter()
        .filter(|(_, verdict)| !verdict.starts_with("noload"))
        .map(|(file, _)| file)
        .collect();
    for file in &loadable {
        match import(&dir.join(file)) {
            Ok(_) => imported += 1,
            Err(e) => {
                let reason = e.lines().next().unwrap_or_default();
                let reason = reason.split_once(": ").map(|(_, r)| r).unwrap_or(reason);
                let reason: String = reason
                    .chars()
                    .filter(|c| !c.is_ascii_digit())
                    .take(110)
                    .collect();
                failures.entry(reason).or_default().push(file.clone());
            }
        }
    }
    let total = loadable.len();
    let mut report = format!("imported {imported} of {total} corpus files that DaCe loads\n");
    for (reason, files) in &failures {
        report.push_str(&format!(
            "{:4}  {reason}  (e.g. {})\n",
            files.len(),
            files[0]
        ));
    }
    let _ = std::io::Write::write_all(&mut std::io::stderr(), report.as_bytes());
    assert!(imported * 100 >= total * MINIMUM_PERCENT, "{report}");
}

/// The import rate this suite guarantees today (92.9% measured: 748 of 805;
/// issue 4 asks for 99%).
const MINIMUM_PERCENT: usize = 90;
