//! Fuzz-style robustness: truncated, byte-mutated and structurally mutated
//! corpus files never panic, and every JSON error names a path.

mod common;

use std::io::Write;
use std::path::PathBuf;

use sdfg_dace_model::{load_sdfg, save_sdfg, LoadError};
use serde_json::Value;

/// A small deterministic xorshift generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Loads `bytes`; an error must be a gzip error or name a JSON path.
/// Returns whether the bytes were rejected.
fn check(bytes: &[u8], what: &str) -> bool {
    let Err(e) = load_sdfg(bytes) else {
        return false;
    };
    if let LoadError::Json { path, message, .. } = &e {
        assert!(!path.is_empty() && !message.is_empty(), "{what}: {e}");
    }
    true
}

/// Seeds plus corpus files that exercise every kind of object.
fn sample_files() -> Vec<PathBuf> {
    let dace = common::corpus_dir().join("dace");
    let mut files = common::seed_files();
    for name in [
        "add_edge_pair_fib_consume.sdfg",
        "structure_python_rgf_leftToRight.sdfg",
        "nest_subgraph_simple_if_elif.sdfg",
        "constant_array_ctrans.sdfg",
    ] {
        let path = dace.join(name);
        if path.is_file() {
            files.push(path);
        }
    }
    files
}

#[test]
fn truncated_files_give_clean_errors() {
    for path in sample_files() {
        let bytes = std::fs::read(&path).expect("readable corpus file");
        let step = (bytes.len() / 97).max(1);
        for cut in (0..bytes.len()).step_by(step) {
            check(&bytes[..cut], &format!("{} cut at {cut}", path.display()));
        }
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&bytes).expect("gzip into memory");
        let packed = gz.finish().expect("gzip into memory");
        for cut in (2..packed.len()).step_by((packed.len() / 31).max(1)) {
            check(
                &packed[..cut],
                &format!("{} gzip cut at {cut}", path.display()),
            );
        }
    }
}

#[test]
fn byte_mutations_never_panic() {
    const BYTES: &[u8] = b"{}[]\",:0123456789-.eEtfnul \\\xff\x00";
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for path in sample_files() {
        let original = std::fs::read(&path).expect("readable corpus file");
        for round in 0..100 {
            let mut bytes = original.clone();
            for _ in 0..=rng.below(4) {
                let at = rng.below(bytes.len());
                bytes[at] = BYTES[rng.below(BYTES.len())];
            }
            check(&bytes, &format!("{} mutation {round}", path.display()));
        }
    }
}

/// Every value in `v`, as JSON pointers.
fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                pointers(
                    x,
                    format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                pointers(x, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

#[test]
fn structural_mutations_never_panic() {
    let replacements = [
        Value::Null,
        Value::from(0),
        Value::from(-1),
        Value::from(1.5),
        Value::from(u64::MAX),
        Value::from("x"),
        Value::from(true),
        Value::Array(Vec::new()),
        Value::Object(serde_json::Map::new()),
        serde_json::json!({"type": "Unknown"}),
        serde_json::json!({"type": "Range", "ranges": "x"}),
    ];
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut rejected = 0usize;
    for path in sample_files() {
        let original: Value =
            serde_json::from_slice(&std::fs::read(&path).expect("readable corpus file"))
                .expect("corpus file is JSON");
        let mut all = Vec::new();
        pointers(&original, String::new(), &mut all);
        for _ in 0..120 {
            let mut v = original.clone();
            let target = &all[rng.below(all.len())];
            if let Some(slot) = v.pointer_mut(target) {
                *slot = replacements[rng.below(replacements.len())].clone();
            }
            let bytes = serde_json::to_vec(&v).expect("JSON value serializes");
            if check(
                &bytes,
                &format!("{} with {target} replaced", path.display()),
            ) {
                rejected += 1;
            }
        }
    }
    assert!(rejected > 0, "mutations should be rejected sometimes");
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = "[".repeat(100_000);
    check(deep.as_bytes(), "deep arrays");
    // Written as text: building a deep `Value` would itself exhaust the stack.
    for depth in [10, 20, 30, 1000] {
        let mut text =
            r#"{"type": "ControlFlowRegion", "attributes": {}, "nodes": [], "edges": []}"#
                .to_owned();
        for _ in 0..depth {
            text = format!(
                r#"{{"type": "ConditionalBlock", "attributes": {{}}, "branches": [[null,
                {{"type": "ControlFlowRegion", "attributes": {{}}, "nodes": [{text}], "edges": []}}]]}}"#
            );
        }
        let text = format!(
            r#"{{"type": "SDFG", "attributes": {{"name": "deep"}}, "nodes": [{text}], "edges": []}}"#
        );
        check(text.as_bytes(), &format!("regions nested {depth} deep"));
        if let Ok(sdfg) = load_sdfg(text.as_bytes()) {
            assert_eq!(load_sdfg(&save_sdfg(&sdfg, false)).ok(), Some(sdfg));
        }
    }
    let mut sdfg =
        r#"{"type": "SDFG", "attributes": {"name": "n"}, "nodes": [], "edges": []}"#.to_owned();
    for depth in 0..40 {
        sdfg = format!(
            r#"{{"type": "SDFG", "attributes": {{"name": "n"}}, "edges": [], "nodes": [
            {{"type": "SDFGState", "edges": [], "nodes": [{{"type": "NestedSDFG",
            "attributes": {{"sdfg": {sdfg}}}}}]}}]}}"#
        );
        check(sdfg.as_bytes(), &format!("SDFGs nested {depth} deep"));
    }
}

#[test]
fn errors_name_the_path() {
    let text = r#"{"type": "SDFG", "attributes": {"name": "x"}, "edges": [], "nodes": [
        {"type": "SDFGState", "label": "s", "nodes": [
            {"type": "Tasklet", "label": "t", "attributes": {"code": 5}}
        ], "edges": []}]}"#;
    let err = load_sdfg(text.as_bytes()).expect_err("code must be an object");
    assert_eq!(
        err.path(),
        Some("nodes[0].nodes[0].attributes.code"),
        "{err}"
    );

    let text = r#"{"type": "SDFG", "attributes": {"name": "x", "_arrays": {
        "A": {"type": "Array", "attributes": {"shape": [true]}}}}, "nodes": [], "edges": []}"#;
    let err = load_sdfg(text.as_bytes()).expect_err("shape must be expressions");
    assert_eq!(
        err.path(),
        Some("attributes._arrays.A.attributes.shape[0]"),
        "{err}"
    );

    let text = r#"{"attributes": {"name": "x"}, "type": "SDFGState", "nodes": [], "edges": []}"#;
    let err = load_sdfg(text.as_bytes()).expect_err("root must be an SDFG");
    assert!(err.to_string().contains("SDFG"), "{err}");
}

#[test]
fn unknown_types_are_kept() {
    let text = r#"{"type": "SDFG", "attributes": {"name": "x", "future_prop": [1, 2]},
        "edges": [], "nodes": [
        {"type": "SDFGState", "label": "s", "edges": [], "nodes": [
            {"type": "FancyNode", "label": "f", "attributes": {"k": 1}, "id": 0}
        ]}]}"#;
    let sdfg = load_sdfg(text.as_bytes()).expect("unknown types load");
    assert_eq!(
        sdfg.attributes.extra["future_prop"],
        serde_json::json!([1, 2])
    );
    let sdfg_dace_model::ControlFlowBlock::State(state) = &sdfg.nodes[0] else {
        panic!("expected a state");
    };
    assert_eq!(state.nodes[0].type_name(), "FancyNode");
    let saved: Value =
        serde_json::from_slice(&sdfg_dace_model::save_sdfg(&sdfg, false)).expect("valid JSON");
    assert_eq!(saved["nodes"][0]["nodes"][0]["attributes"]["k"], 1);
    assert_eq!(saved["attributes"]["future_prop"][1], 2);
}
