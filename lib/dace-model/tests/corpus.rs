//! Loads every corpus file and round-trips every file that loads.

mod common;

use sdfg_dace_model::{load_sdfg, save_sdfg, LoadError};

#[test]
fn corpus_loads_and_round_trips() {
    let index = common::dace_index();
    let files = common::corpus_files();
    assert!(
        files.len() > 800,
        "corpus looks incomplete: {} files",
        files.len()
    );

    let (mut loaded, mut round_tripped, mut must_load) = (0usize, 0usize, 0usize);
    let mut failures = Vec::new();
    for path in &files {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let verdict = if path.parent().is_some_and(|d| d.ends_with("seeds")) {
            "ok"
        } else {
            index.get(name).map(String::as_str).unwrap_or("unlisted")
        };
        let required = verdict == "ok" || verdict.starts_with("invalid:");
        must_load += usize::from(required);
        let bytes = std::fs::read(path).expect("readable corpus file");
        match load_sdfg(&bytes) {
            Ok(sdfg) => {
                loaded += 1;
                let saved = save_sdfg(&sdfg, false);
                match load_sdfg(&saved) {
                    Ok(again) if again == sdfg => round_tripped += 1,
                    Ok(_) => failures.push(format!("{name}: round trip changed the model")),
                    Err(e) => failures.push(format!("{name}: saved file does not load: {e}")),
                }
            }
            Err(e) if required => failures.push(format!("{name} ({verdict}): {e}")),
            Err(e) => {
                println!("{name} ({verdict}) rejected: {e}");
                if !matches!(&e, LoadError::Json { path, .. } if !path.is_empty()) {
                    failures.push(format!("{name}: error without a JSON path: {e}"));
                }
            }
        }
    }
    println!(
        "corpus: {} files, {loaded} loaded ({must_load} required), {round_tripped} round-tripped",
        files.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(loaded, round_tripped);
}

#[test]
fn gzip_round_trip() {
    for path in common::seed_files() {
        let bytes = std::fs::read(&path).expect("readable seed");
        let sdfg = load_sdfg(&bytes).expect("seed loads");
        let packed = save_sdfg(&sdfg, true);
        assert_eq!(&packed[..2], &[0x1f, 0x8b], "{}", path.display());
        assert_eq!(
            load_sdfg(&packed).expect("sdfgz loads"),
            sdfg,
            "{}",
            path.display()
        );
    }
}
