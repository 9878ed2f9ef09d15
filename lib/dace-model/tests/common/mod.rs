//! Shared helpers for the integration tests: locating the corpus.
// Each test binary compiles this module and uses only some of its helpers.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The corpus directory: `$SDFG_CORPUS_DIR`, or the first `shared/corpus`
/// found walking up from this crate.
pub fn corpus_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("SDFG_CORPUS_DIR") {
        return PathBuf::from(dir);
    }
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|p| p.join("shared").join("corpus"))
        .find(|p| p.is_dir())
        .expect("no shared/corpus above the crate; set SDFG_CORPUS_DIR")
}

/// All `.sdfg` files of the corpus (`dace/` and `seeds/`), sorted.
pub fn corpus_files() -> Vec<PathBuf> {
    let root = corpus_dir();
    let mut files = Vec::new();
    for sub in ["dace", "seeds"] {
        let dir = root.join(sub);
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.expect("readable corpus directory").path();
            if path.extension().is_some_and(|e| e == "sdfg") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The seed files (`seeds/*.sdfg`), sorted.
pub fn seed_files() -> Vec<PathBuf> {
    corpus_files()
        .into_iter()
        .filter(|p| p.parent().is_some_and(|d| d.ends_with("seeds")))
        .collect()
}

/// `dace/INDEX.tsv`: file name to DaCe 1.0.2's verdict (`ok`, `invalid:..`, `noload:..`).
pub fn dace_index() -> BTreeMap<String, String> {
    let path = corpus_dir().join("dace").join("INDEX.tsv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .skip(1)
        .filter_map(|line| line.split_once('\t'))
        .map(|(f, v)| (f.to_owned(), v.to_owned()))
        .collect()
}
