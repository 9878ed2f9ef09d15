//! Collects every symbolic string of DaCe `.sdfg` JSON files, with its kind.
//!
//! Used by the corpus tests and the `sdfg-bench symbolic` benchmark.

use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// Where a symbolic string was found.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Kind {
    /// Data descriptor `shape` entry.
    Shape,
    /// Data descriptor `strides` entry.
    Stride,
    /// Data descriptor `offset` entry.
    Offset,
    /// Data descriptor `total_size`.
    TotalSize,
    /// Other sizes (stream `buffer_size`, consume `num_pes`).
    Size,
    /// Memlet subset range part (`start`, `end`, `step`, `tile`).
    SubsetRange,
    /// Memlet `Indices` subset entry.
    SubsetIndex,
    /// Map range part.
    MapRange,
    /// Memlet `volume` / `num_accesses`.
    Volume,
    /// Inter-state edge, conditional branch or loop condition (Python).
    Condition,
    /// Inter-state edge assignment value.
    Assignment,
    /// Nested SDFG symbol mapping value.
    SymbolMapping,
    /// LoopRegion `init_statement` (Python statement).
    LoopInit,
    /// LoopRegion `update_statement` (Python statement).
    LoopUpdate,
}

impl Kind {
    /// All kinds, in reporting order.
    pub const ALL: [Kind; 14] = [
        Kind::Shape,
        Kind::Stride,
        Kind::Offset,
        Kind::TotalSize,
        Kind::Size,
        Kind::SubsetRange,
        Kind::SubsetIndex,
        Kind::MapRange,
        Kind::Volume,
        Kind::Condition,
        Kind::Assignment,
        Kind::SymbolMapping,
        Kind::LoopInit,
        Kind::LoopUpdate,
    ];

    /// Whether strings of this kind are statements (`name = value` lines).
    pub fn is_statement(self) -> bool {
        matches!(self, Kind::LoopInit | Kind::LoopUpdate)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn code(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::Object(o) => o.get("string_data").and_then(text),
        other => text(other),
    }
}

fn subset(v: Option<&Value>, kind: Kind, out: &mut Vec<(Kind, String)>) {
    let Some(v) = v else { return };
    match v.get("type").and_then(Value::as_str) {
        Some("Range") => {
            for r in v
                .get("ranges")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                for k in ["start", "end", "step", "tile"] {
                    if let Some(s) = r.get(k).and_then(text) {
                        out.push((kind, s));
                    }
                }
            }
        }
        Some("Indices") => {
            for i in v
                .get("indices")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(s) = text(i) {
                    out.push((Kind::SubsetIndex, s));
                }
            }
        }
        _ => {}
    }
}

fn walk(v: &Value, out: &mut Vec<(Kind, String)>) {
    match v {
        Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
        Value::Object(o) => {
            let ty = o.get("type").and_then(Value::as_str).unwrap_or("");
            let empty = serde_json::Map::new();
            let attrs = o
                .get("attributes")
                .and_then(Value::as_object)
                .unwrap_or(&empty);
            let list = |k: &str| attrs.get(k).and_then(Value::as_array);
            match ty {
                "Memlet" => {
                    for k in ["subset", "other_subset", "src_subset", "dst_subset"] {
                        subset(attrs.get(k), Kind::SubsetRange, out);
                    }
                    for k in ["volume", "num_accesses"] {
                        if let Some(s) = attrs.get(k).and_then(text) {
                            out.push((Kind::Volume, s));
                        }
                    }
                }
                "MapEntry" => subset(attrs.get("range"), Kind::MapRange, out),
                "ConsumeEntry" => {
                    if let Some(s) = attrs.get("num_pes").and_then(text) {
                        out.push((Kind::Size, s));
                    }
                }
                "InterstateEdge" => {
                    if let Some(s) = code(attrs.get("condition")) {
                        out.push((Kind::Condition, s));
                    }
                    if let Some(a) = attrs.get("assignments").and_then(Value::as_object) {
                        for val in a.values() {
                            if let Some(s) = text(val) {
                                out.push((Kind::Assignment, s));
                            }
                        }
                    }
                }
                "LoopRegion" => {
                    if let Some(s) = code(attrs.get("init_statement")) {
                        out.push((Kind::LoopInit, s));
                    }
                    if let Some(s) = code(attrs.get("update_statement")) {
                        out.push((Kind::LoopUpdate, s));
                    }
                    if let Some(s) = code(attrs.get("loop_condition")) {
                        out.push((Kind::Condition, s));
                    }
                }
                "ConditionalBlock" => {
                    for b in o
                        .get("branches")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                    {
                        if let Some(s) = code(b.get(0)) {
                            out.push((Kind::Condition, s));
                        }
                    }
                }
                "NestedSDFG" => {
                    if let Some(m) = attrs.get("symbol_mapping").and_then(Value::as_object) {
                        for val in m.values() {
                            if let Some(s) = text(val) {
                                out.push((Kind::SymbolMapping, s));
                            }
                        }
                    }
                }
                _ => {}
            }
            if attrs.contains_key("shape") || attrs.contains_key("dtype") {
                for (k, kind) in [
                    ("shape", Kind::Shape),
                    ("strides", Kind::Stride),
                    ("offset", Kind::Offset),
                ] {
                    for x in list(k).into_iter().flatten() {
                        if let Some(s) = text(x) {
                            out.push((kind, s));
                        }
                    }
                }
                if let Some(s) = attrs.get("total_size").and_then(text) {
                    out.push((Kind::TotalSize, s));
                }
                if let Some(s) = attrs.get("buffer_size").and_then(text) {
                    out.push((Kind::Size, s));
                }
            }
            o.values().for_each(|x| walk(x, out));
        }
        _ => {}
    }
}

/// Every symbolic string of one SDFG JSON document.
pub fn collect(doc: &Value) -> Vec<(Kind, String)> {
    let mut out = Vec::new();
    walk(doc, &mut out);
    out
}

/// Every symbolic string of every `.sdfg` file under `dir` (recursively, in
/// sorted order); files that are not valid JSON are skipped and returned.
pub fn collect_dir(dir: &Path) -> (Vec<(Kind, String)>, Vec<PathBuf>) {
    let mut files = Vec::new();
    list(dir, &mut files);
    files.sort();
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    for f in files {
        let parsed = std::fs::read_to_string(&f)
            .ok()
            .and_then(|s| serde_json::from_str::<Value>(&s).ok());
        match parsed {
            Some(doc) => out.extend(collect(&doc)),
            None => skipped.push(f),
        }
    }
    (out, skipped)
}

fn list(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            list(&p, out);
        } else if p.extension().is_some_and(|x| x == "sdfg") {
            out.push(p);
        }
    }
}

/// The corpus directory: `$SDFG_CORPUS_DIR` if set, else the first
/// `shared/corpus` found walking up from `start`.
pub fn find_corpus_dir(start: &Path) -> Option<PathBuf> {
    if let Ok(d) = std::env::var("SDFG_CORPUS_DIR") {
        return Some(PathBuf::from(d));
    }
    let mut cur = Some(start);
    while let Some(d) = cur {
        let c = d.join("shared").join("corpus");
        if c.is_dir() {
            return Some(c);
        }
        cur = d.parent();
    }
    None
}
