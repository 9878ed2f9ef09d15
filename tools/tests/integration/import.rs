//! `--import-dace` over DaCe's own files: the seeds must import, validate
//! and print stably; the corpus import rate is reported.

use melior::ir::Module;
use std::path::{Path, PathBuf};

pub(crate) fn corpus_dir() -> PathBuf {
    sdfg_symbolic::corpus::find_corpus_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .expect("no shared/corpus above the repository; set SDFG_CORPUS_DIR")
}

/// Imports one file and parses the result in a context with the dialect,
/// its verifiers and validation; returns the printed module.
fn import(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let text = sdfg_target_dace::import::import_bytes(&bytes).map_err(|e| e.to_string())?;
    sdfg_registry::register_all();
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
pub(crate) fn dace_index() -> Vec<(String, String)> {
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
    let (mut imported, mut valid, mut valid_imported) = (0, 0, 0);
    let mut failures: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    let loadable: Vec<(String, String)> = dace_index()
        .into_iter()
        .filter(|(_, verdict)| !verdict.starts_with("noload"))
        .collect();
    for (file, verdict) in &loadable {
        let dace_valid = verdict == "ok";
        valid += usize::from(dace_valid);
        match import(&dir.join(file)) {
            Ok(_) => {
                imported += 1;
                valid_imported += usize::from(dace_valid);
            }
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
    let mut report = format!(
        "imported {imported} of {total} corpus files that DaCe loads, \
         {valid_imported} of the {valid} that DaCe also validates\n"
    );
    for (reason, files) in &failures {
        report.push_str(&format!(
            "{:4}  {reason}  (e.g. {})\n",
            files.len(),
            files[0]
        ));
    }
    let _ = std::io::Write::write_all(&mut std::io::stderr(), report.as_bytes());
    assert!(valid_imported * 100 >= valid * MINIMUM_PERCENT, "{report}");
}

/// The import rate issue 4 asks for, over the files DaCe 1.0.2 loads and
/// validates (measured: 792 of 792 with `dace_1.0.2_load_and_validate`
/// `ok`). Of the twelve files DaCe's own `validate()` rejects, those our
/// validation rejects too give diagnostics instead.
const MINIMUM_PERCENT: usize = 99;

/// Imports `path`, exports the result as it is and imports that again:
/// when the two imports print the same module, returns what
/// `--export-dace` writes for it.
fn round_trip(path: &Path) -> Result<Vec<u8>, String> {
    let first = import(path)?;
    sdfg_registry::register_all();
    let context = sdfg_dialect::create_context();
    context.attach_diagnostic_handler(|_| true);
    let module = Module::parse(&context, &first).ok_or("the import does not parse again")?;
    // SAFETY: the module outlives the handles taken from it here.
    let root = unsafe { sdfg_dialect::ir::Op::from_raw(module.as_operation().to_raw()) }
        .ok_or("no module")?;
    let sdfg = root
        .region_ops(0)
        .into_iter()
        .find(|op| op.is("sdfg.sdfg"))
        .ok_or("no SDFG")?;
    let exported = sdfg_target_dace::export::export_sdfg_as_is(sdfg, false)
        .map_err(|_| "export failed".to_string())?;
    let dir = std::env::temp_dir().join(format!("sdfg-round-trip-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let file = dir.join(path.file_name().ok_or("no file name")?);
    std::fs::write(&file, &exported).map_err(|e| e.to_string())?;
    let second = import(&file).map_err(|e| format!("re-import: {e}"))?;
    if without_untranslated_reasons(&first) != without_untranslated_reasons(&second) {
        return Err("import, export, import is not a fixed point".into());
    }
    // What `--export-dace` writes: the same, with the states in loops that
    // hold library nodes in nested SDFGs.
    sdfg_target_dace::export::export_sdfg(sdfg, false).map_err(|_| "export failed".to_string())
}

/// `module` without the `sdfg.untranslated` reasons of tasklets whose code
/// stays foreign: they explain the importer's verdict for diagnostics, and
/// may word it differently for the exported connector types (a vector
/// connector DaCe types explicitly, exported without its type).
fn without_untranslated_reasons(module: &str) -> String {
    let mut out = String::with_capacity(module.len());
    let mut rest = module;
    while let Some(at) = rest.find("sdfg.untranslated = \"") {
        out.push_str(&rest[..at]);
        let value = &rest[at + "sdfg.untranslated = \"".len()..];
        rest = value.find('"').map_or("", |end| &value[end + 1..]);
    }
    out.push_str(rest);
    out
}

/// The DaCe interpreter of the oracle venv, if present (required when
/// `SDFG_REQUIRE_DACE` is set, as the README's test command does).
pub(crate) fn dace_python() -> Option<PathBuf> {
    let python = Path::new(env!("CARGO_MANIFEST_DIR")).join("../.venv/bin/python");
    if python.exists() {
        return Some(python);
    }
    assert!(
        std::env::var_os("SDFG_REQUIRE_DACE").is_none(),
        "SDFG_REQUIRE_DACE is set but .venv has no Python (scripts/dace-venv.sh creates it)"
    );
    None
}

/// Every corpus file that imports goes through export and back to the same
/// module (all of them), and DaCe 1.0.2 loads and validates what we export
/// for the files it validates itself.
#[test]
fn corpus_export_round_trips_and_dace_validates() {
    let dir = corpus_dir().join("dace");
    let out = std::env::temp_dir().join(format!("sdfg-exported-{}", std::process::id()));
    std::fs::create_dir_all(&out).expect("a temporary directory");
    let mut imported = 0;
    let mut fixed = 0;
    let mut failures: std::collections::BTreeMap<String, usize> = Default::default();
    let mut validated_by_dace = Vec::new();
    let index = dace_index();
    let dace_validates = index.iter().filter(|(_, v)| v == "ok").count();
    for (file, verdict) in index {
        let path = dir.join(&file);
        if import(&path).is_err() {
            continue;
        }
        imported += 1;
        match round_trip(&path) {
            Ok(bytes) => {
                fixed += 1;
                if verdict == "ok" {
                    let target = out.join(&file);
                    std::fs::write(&target, bytes).expect("writable");
                    validated_by_dace.push(target);
                }
            }
            Err(e) => {
                *failures
                    .entry(
                        e.lines()
                            .next()
                            .unwrap_or_default()
                            .chars()
                            .take(100)
                            .collect(),
                    )
                    .or_default() += 1
            }
        }
    }
    let mut report =
        format!("round trip: {fixed} of {imported} imported corpus files are fixed points\n");
    for (reason, count) in &failures {
        report.push_str(&format!("{count:4}  {reason}\n"));
    }
    if let Some(python) = dace_python() {
        let script = "import sys, warnings\nwarnings.filterwarnings('ignore')\nimport dace\nok = 0\nfor f in sys.argv[1:]:\n    try:\n        dace.SDFG.from_file(f).validate()\n        ok += 1\n    except Exception as e:\n        print('FAIL', f, type(e).__name__, str(e).splitlines()[0][:200] if str(e) else '')\nprint('VALID', ok)\n";
        let output = std::process::Command::new(python)
            .arg("-c")
            .arg(script)
            .args(&validated_by_dace)
            .output()
            .expect("python runs");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let valid: usize = stdout
            .lines()
            .find_map(|l| l.strip_prefix("VALID "))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or(0);
        report.push_str(&format!(
            "DaCe 1.0.2 loads and validates {valid} of the {dace_validates} files it validates in their original form, exported ({} exported)\n",
            validated_by_dace.len()
        ));
        for line in stdout.lines().filter(|l| l.starts_with("FAIL")).take(15) {
            report.push_str(&format!("  {line}\n"));
        }
        assert!(
            valid * 100 >= dace_validates * MINIMUM_DACE_VALID_PERCENT,
            "{report}"
        );
    }
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::io::Write::write_all(&mut std::io::stderr(), report.as_bytes());
    assert_eq!(fixed, imported, "{report}");
}

/// The share of the files DaCe validates whose export DaCe validates, as
/// issue 4 asks (100% measured: 792 of 792).
const MINIMUM_DACE_VALID_PERCENT: usize = 95;

/// The exported seeds compile and run in DaCe 1.0.2 and give the same
/// numbers as the original files on the same random inputs.
#[test]
fn exported_seeds_compute_like_the_originals() {
    let Some(python) = dace_python() else {
        return;
    };
    let work = std::env::temp_dir().join(format!("sdfg-seed-runs-{}", std::process::id()));
    std::fs::create_dir_all(&work).expect("a temporary directory");
    let script = crate::execute::dace_compare_script(&work);
    let mut seeds: Vec<PathBuf> = std::fs::read_dir(corpus_dir().join("seeds"))
        .expect("the seeds directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "sdfg"))
        .collect();
    seeds.sort();
    let mut failures = Vec::new();
    for seed in &seeds {
        let exported = match round_trip(seed) {
            Ok(bytes) => bytes,
            Err(e) => {
                failures.push(format!("{}: {e}", seed.display()));
                continue;
            }
        };
        let file = work.join(seed.file_name().expect("a file name"));
        std::fs::write(&file, exported).expect("writable");
        let output = std::process::Command::new(&python)
            .current_dir(&work)
            .arg(&script)
            .arg(seed)
            .arg(&file)
            .output()
            .expect("python runs");
        if !output.status.success() {
            failures.push(format!(
                "{}: {}{}",
                seed.display(),
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
                    .lines()
                    .last()
                    .unwrap_or_default()
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&work);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Files DaCe itself cannot load, and broken files, give an error (a
/// diagnostic), never a panic.
#[test]
fn rejected_files_give_errors_not_crashes() {
    let dir = corpus_dir().join("dace");
    let rejected: Vec<String> = dace_index()
        .into_iter()
        .filter(|(_, verdict)| verdict.starts_with("noload"))
        .map(|(file, _)| file)
        .collect();
    assert!(!rejected.is_empty(), "INDEX.tsv lists files DaCe rejects");
    for file in rejected {
        // Either outcome is fine; reaching the next file is the point.
        let _ = import(&dir.join(file));
    }
    let mut bytes =
        std::fs::read(corpus_dir().join("seeds").join("laplace.sdfg")).expect("the seed");
    for cut in [0, 1, bytes.len() / 3, bytes.len() / 2, bytes.len() - 2] {
        let text = sdfg_target_dace::import::import_bytes(&bytes[..cut]);
        assert!(
            text.is_err(),
            "a file truncated at {cut} bytes must not import"
        );
    }
    bytes
        .iter_mut()
        .filter(|b| **b == b'1')
        .for_each(|b| *b = b'x');
    assert!(sdfg_target_dace::import::import_bytes(&bytes).is_err());
}

/// Corpus files with random small damage (a key removed, a value replaced
/// by one of another JSON type) import or give a diagnostic: never a panic
/// or an abort, in the importer or in the dialect's verifiers.
#[test]
fn damaged_files_give_errors_not_crashes() {
    use serde_json::Value;
    // A fixed xorshift sequence: the same damage in every run.
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move |bound: usize| -> usize {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % bound.max(1) as u64) as usize
    };
    /// The path (object keys and array indices) to every JSON object.
    fn objects(value: &Value, prefix: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
        match value {
            Value::Object(map) => {
                out.push(prefix.clone());
                for (key, v) in map {
                    prefix.push(Value::from(key.as_str()));
                    objects(v, prefix, out);
                    prefix.pop();
                }
            }
            Value::Array(items) => {
                for (k, v) in items.iter().enumerate() {
                    prefix.push(Value::from(k));
                    objects(v, prefix, out);
                    prefix.pop();
                }
            }
            _ => {}
        }
    }
    fn at<'a>(value: &'a mut Value, path: &[Value]) -> Option<&'a mut Value> {
        path.iter().try_fold(value, |v, step| match step {
            Value::String(key) => v.get_mut(key.as_str()),
            Value::Number(k) => v.get_mut(k.as_u64()? as usize),
            _ => None,
        })
    }
    let dir = corpus_dir().join("dace");
    let mut files: Vec<String> = dace_index()
        .into_iter()
        .filter(|(_, verdict)| verdict == "ok")
        .map(|(file, _)| file)
        .collect();
    files.sort();
    let replacements = [
        Value::Null,
        Value::from(7),
        Value::from("?"),
        Value::Array(Vec::new()),
        Value::Object(Default::default()),
    ];
    let mut damaged = 0;
    for file in files.iter().step_by(2) {
        let Ok(text) = std::fs::read_to_string(dir.join(file)) else {
            continue;
        };
        let Ok(original) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        for _ in 0..6 {
            let mut value = original.clone();
            let mut targets = Vec::new();
            objects(&value, &mut Vec::new(), &mut targets);
            let target = &targets[next(targets.len())];
            let Some(Value::Object(map)) = at(&mut value, target) else {
                continue;
            };
            let keys: Vec<String> = map.keys().cloned().collect();
            if keys.is_empty() {
                continue;
            }
            let key = &keys[next(keys.len())];
            if next(2) == 0 {
                map.remove(key);
            } else {
                map.insert(key.clone(), replacements[next(replacements.len())].clone());
            }
            let path = std::env::temp_dir().join(format!(
                "sdfg-damaged-{}-{damaged}.sdfg",
                std::process::id()
            ));
            std::fs::write(&path, value.to_string()).expect("writable");
            let _ = import(&path);
            let _ = std::fs::remove_file(&path);
            damaged += 1;
        }
    }
    assert!(damaged > 2000, "only {damaged} damaged files were tried");
}
