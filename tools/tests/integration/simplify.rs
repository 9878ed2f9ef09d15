//! `sdfg-simplify` on real programs: every corpus file that imports stays
//! valid IR after it, and the sizes it reaches, against DaCe's
//! `simplify()` on the same unsimplified programs (measured by the NumPy
//! test, which has both forms).

use crate::import::{corpus_dir, dace_index};
use melior::ir::Module;
use melior::Context;
pub(crate) use sdfg_analysis::graph::{size, Size};
use sdfg_dialect::ir::Op;
use std::path::Path;

/// Imports a `.sdfg` file into a module of `context`.
pub(crate) fn import<'c>(context: &'c Context, path: &Path) -> Option<Module<'c>> {
    let bytes = std::fs::read(path).ok()?;
    let text = sdfg_target_dace::import::import_bytes(&bytes).ok()?;
    Module::parse(context, &format!("module {{\n{text}}}"))
}

/// The module's operation.
pub(crate) fn root<'a>(module: &'a Module<'_>) -> Op<'a> {
    // SAFETY: the module outlives the handle.
    unsafe { Op::from_raw(module.as_operation().to_raw()) }.expect("a module op")
}

/// Every corpus file that imports still verifies (the dialect's verifiers
/// and `sdfg-validate`) after `sdfg-simplify`; the test prints what each
/// step changed over the corpus.
#[test]
fn simplified_corpus_programs_stay_valid() {
    sdfg_registry::register_all();
    let context = sdfg_dialect::create_context();
    let dir = corpus_dir().join("dace");
    let (mut files, mut before, mut after) = (0, Size::default(), Size::default());
    let mut totals: Vec<(&str, usize)> = Vec::new();
    let mut invalid = Vec::new();
    for (file, verdict) in dace_index() {
        if verdict.starts_with("noload") {
            continue;
        }
        let Some(module) = import(&context, &dir.join(&file)) else {
            continue;
        };
        files += 1;
        let root = root(&module);
        let old = size(root);
        let steps = sdfg_transforms::simplify::simplify(root);
        let new = size(root);
        for (k, (name, n)) in steps.into_iter().enumerate() {
            match totals.get_mut(k) {
                Some(total) => total.1 += n,
                None => totals.push((name, n)),
            }
        }
        (before.states, before.nodes) = (before.states + old.states, before.nodes + old.nodes);
        (after.states, after.nodes) = (after.states + new.states, after.nodes + new.nodes);
        if !module.as_operation().verify() {
            invalid.push(file);
        }
    }
    println!(
        "sdfg-simplify on {files} corpus files (written by DaCe after its own simplify): \
         {} -> {} states, {} -> {} nodes",
        before.states, after.states, before.nodes, after.nodes
    );
    for (name, n) in &totals {
        println!("  {name}: {n} changes");
    }
    assert!(files > 0, "no corpus file imports");
    assert!(
        invalid.is_empty(),
        "invalid after sdfg-simplify: {invalid:?}"
    );
}
