//! The crate graph follows `docs/Layout.md`: its table says which project
//! crates each crate may depend on, and every workspace member's
//! `[dependencies]` must keep to its row.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// What a crate may depend on: `None` for any crate.
type Allowed = Option<BTreeSet<String>>;

/// The rows of `docs/Layout.md`'s table: crate name to (path, allowed).
fn rules() -> BTreeMap<String, (String, Allowed)> {
    let text =
        std::fs::read_to_string(repo_root().join("docs/Layout.md")).expect("docs/Layout.md exists");
    let ticked = |cell: &str| -> Vec<String> {
        cell.split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    };
    let mut rules = BTreeMap::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.trim().trim_matches('|').split('|').collect();
        let [name, path, allowed] = cells[..] else {
            continue;
        };
        let (name, path) = (ticked(name), ticked(path));
        let ([name], [path]) = (&name[..], &path[..]) else {
            continue;
        };
        if !name.starts_with("sdfg-") {
            continue;
        }
        let allowed = match allowed.trim() {
            "any" => None,
            "none" => Some(BTreeSet::new()),
            cell => Some(ticked(cell).into_iter().collect()),
        };
        rules.insert(name.clone(), (path.clone(), allowed));
    }
    rules
}

/// The workspace members listed in the root `Cargo.toml`.
fn members() -> Vec<String> {
    let text = std::fs::read_to_string(repo_root().join("Cargo.toml")).expect("Cargo.toml");
    let start = text
        .find("members = [")
        .expect("the workspace lists its members");
    let end = start + text[start..].find(']').expect("the member list ends");
    text[start..end]
        .split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// A manifest's package name and the project crates (`sdfg-*`) of its
/// `[dependencies]` section.
fn manifest(path: &str) -> (String, BTreeSet<String>) {
    let text = std::fs::read_to_string(repo_root().join(path).join("Cargo.toml"))
        .unwrap_or_else(|e| panic!("{path}/Cargo.toml: {e}"));
    let mut name = String::new();
    let mut deps = BTreeSet::new();
    let mut section = "";
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
            continue;
        }
        let key = line.split(['=', '.', ' ']).next().unwrap_or_default();
        match section {
            "[package]" if key == "name" => {
                name = line.split('"').nth(1).unwrap_or_default().to_string();
            }
            "[dependencies]" if key.starts_with("sdfg-") => {
                deps.insert(key.to_string());
            }
            _ => {}
        }
    }
    (name, deps)
}

#[test]
fn crates_depend_only_on_what_docs_layout_allows() {
    let rules = rules();
    assert!(rules.len() >= 10, "docs/Layout.md has no crate table");
    let mut problems = Vec::new();
    let mut seen = BTreeSet::new();
    for path in members() {
        let (name, deps) = manifest(&path);
        seen.insert(name.clone());
        let Some((documented_path, allowed)) = rules.get(&name) else {
            problems.push(format!("{name} ({path}) has no row in docs/Layout.md"));
            continue;
        };
        if *documented_path != path {
            problems.push(format!(
                "{name} is at {path}, docs/Layout.md says {documented_path}"
            ));
        }
        if let Some(allowed) = allowed {
            for dep in deps.difference(allowed) {
                problems.push(format!(
                    "{name} depends on {dep}, which docs/Layout.md does not allow"
                ));
            }
        }
    }
    for name in rules.keys().filter(|n| !seen.contains(*n)) {
        problems.push(format!(
            "docs/Layout.md lists {name}, which is no workspace member"
        ));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
