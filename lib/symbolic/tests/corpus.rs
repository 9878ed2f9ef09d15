//! Every symbolic string of the DaCe corpus parses and round-trips.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use sdfg_symbolic::corpus::{collect_dir, find_corpus_dir, Kind};
use sdfg_symbolic::{parse, parse_statements, Expr, Statement};

fn exprs_of(kind: Kind, s: &str) -> Result<Vec<Expr>, String> {
    if kind.is_statement() {
        let st = parse_statements(s).map_err(|e| e.to_string())?;
        Ok(st
            .into_iter()
            .map(|x| match x {
                Statement::Assign(_, e) | Statement::Expr(e) => e,
            })
            .collect())
    } else {
        parse(s).map(|e| vec![e]).map_err(|e| e.to_string())
    }
}

/// Deterministic valuations of the free symbols.
fn valuations(e: &Expr) -> Vec<HashMap<String, i64>> {
    let syms = e.free_symbols();
    (0..4u64)
        .map(|k| {
            syms.iter()
                .enumerate()
                .map(|(i, s)| {
                    let h = (k * 7919 + i as u64 * 104_729 + s.len() as u64 * 31) % 23;
                    (s.clone(), h as i64 + 1)
                })
                .collect()
        })
        .collect()
}

#[test]
fn corpus_strings_parse_and_round_trip() {
    let dir = find_corpus_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .expect("no shared/corpus above the crate; set SDFG_CORPUS_DIR");
    let (strings, skipped) = collect_dir(&dir);
    assert!(
        strings.len() > 10_000,
        "corpus too small: {}",
        strings.len()
    );
    let mut stats: BTreeMap<Kind, (usize, usize)> = BTreeMap::new();
    let mut failures: BTreeMap<Kind, Vec<String>> = BTreeMap::new();
    for (kind, s) in &strings {
        let entry = stats.entry(*kind).or_default();
        entry.0 += 1;
        match exprs_of(*kind, s) {
            Ok(es) => {
                entry.1 += 1;
                for e in es {
                    let printed = e.to_string();
                    let back = parse(&printed)
                        .unwrap_or_else(|err| panic!("{s:?} printed as {printed:?}: {err}"));
                    assert_eq!(
                        back, e,
                        "{s:?} printed as {printed:?} re-parses differently"
                    );
                    for env in valuations(&e) {
                        assert_eq!(
                            back.evaluate(&env),
                            e.evaluate(&env),
                            "{s:?} / {printed:?} under {env:?}"
                        );
                    }
                }
            }
            Err(err) => failures
                .entry(*kind)
                .or_default()
                .push(format!("{s:?}: {err}")),
        }
    }
    println!("skipped files (not JSON): {skipped:?}");
    println!(
        "{:<14} {:>8} {:>8} {:>8}",
        "kind", "strings", "parsed", "percent"
    );
    for (k, (n, ok)) in &stats {
        println!(
            "{:<14} {:>8} {:>8} {:>7.2}%",
            k.to_string(),
            n,
            ok,
            100.0 * *ok as f64 / *n as f64
        );
    }
    for (k, f) in &failures {
        let mut f = f.clone();
        f.sort();
        f.dedup();
        println!("unparsed {k}: {f:?}");
    }
    for (k, (n, ok)) in &stats {
        if *k != Kind::Condition {
            assert_eq!(n, ok, "not every {k} string parses: {:?}", failures.get(k));
        }
    }
}

#[test]
fn corpus_memlet_subsets_convert_both_ways() {
    let dir = find_corpus_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .expect("no shared/corpus above the crate; set SDFG_CORPUS_DIR");
    let mut files = Vec::new();
    for e in std::fs::read_dir(dir.join("seeds"))
        .into_iter()
        .flatten()
        .flatten()
    {
        files.push(e.path());
    }
    let mut n = 0;
    for f in files
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "sdfg"))
    {
        let Ok(doc) = serde_json::from_str::<serde_json::Value>(
            &std::fs::read_to_string(f).unwrap_or_default(),
        ) else {
            continue;
        };
        let mut stack = vec![&doc];
        while let Some(v) = stack.pop() {
            match v {
                serde_json::Value::Object(o) => {
                    if o.get("type").and_then(|t| t.as_str()) == Some("Range") {
                        let s = sdfg_symbolic::Subset::from_dace_json(v).expect("subset parses");
                        let back = sdfg_symbolic::Subset::from_dace_json(&s.to_dace_json())
                            .expect("re-parses");
                        assert_eq!(back, s);
                        let text = s.to_string();
                        assert_eq!(sdfg_symbolic::parse_subset(&text).expect("text"), s);
                        n += 1;
                    }
                    stack.extend(o.values());
                }
                serde_json::Value::Array(a) => stack.extend(a.iter()),
                _ => {}
            }
        }
    }
    assert!(n > 50, "only {n} subsets found");
}
