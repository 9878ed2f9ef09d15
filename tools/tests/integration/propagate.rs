//! `sdfg-propagate-memlets` on every corpus program that imports: each
//! boundary memlet it computes must contain every element the inner
//! memlets touch (enumerated for concrete symbol values), and is compared
//! with the memlet DaCe stored: tighter, equal or looser. Where DaCe's
//! stored memlet misses an element, the test names the file and the
//! element.

use crate::import::{corpus_dir, dace_index};
use melior::ir::Module;
use sdfg_analysis::propagate::{connectors, is_scope, propagate_all, space, Space};
use sdfg_dialect::ir::Op;
use sdfg_dialect::Memlet;
use sdfg_symbolic::{parse_subset, Expr, Subset};
use std::collections::{BTreeSet, HashMap};

/// The value every free symbol takes in the enumeration.
const SYMBOL_VALUE: i64 = 5;
/// The most iteration points or subset elements enumerated per memlet.
const LIMIT: usize = 20_000;

type Point = Vec<i64>;
type Env = HashMap<String, i64>;

fn value(e: &Expr, env: &Env) -> Option<i64> {
    match e.evaluate(env).ok()? {
        sdfg_symbolic::Value::Int(v) => Some(v),
        sdfg_symbolic::Value::Bool(b) => Some(i64::from(b)),
    }
}

/// The free symbols of `e` not in `env`, set to [`SYMBOL_VALUE`].
fn bind(env: &mut Env, names: impl IntoIterator<Item = String>) {
    for n in names {
        env.entry(n).or_insert(SYMBOL_VALUE);
    }
}

/// The elements of a subset under `env`; `None` where it does not evaluate
/// or has more than [`LIMIT`] elements.
fn elements(subset: &Subset, env: &Env) -> Option<BTreeSet<Point>> {
    let mut points: Vec<Point> = vec![Vec::new()];
    for r in subset.ranges() {
        let (start, end, step, tile) = (
            value(&r.start, env)?,
            value(&r.end, env)?,
            value(&r.step, env)?,
            value(&r.tile, env)?,
        );
        if step <= 0 || tile <= 0 {
            return None;
        }
        let mut indices = Vec::new();
        let mut s = start;
        while s < end {
            for t in 0..tile {
                indices.push(s + t);
            }
            s += step;
            if indices.len() > LIMIT {
                return None;
            }
        }
        let mut next = Vec::with_capacity(points.len() * indices.len());
        for p in &points {
            for i in &indices {
                let mut q = p.clone();
                q.push(*i);
                next.push(q);
            }
        }
        if next.len() > LIMIT {
            return None;
        }
        points = next;
    }
    Some(points.into_iter().collect())
}

/// Every valuation of the parameters of `spaces` (outermost first) on top
/// of `env`; `None` where a range does not evaluate or there are too many.
fn iterations(spaces: &[Space], env: &Env) -> Option<Vec<Env>> {
    let mut all = vec![env.clone()];
    for space in spaces {
        for (param, range) in &space.params {
            let mut next = Vec::new();
            for e in &all {
                let r = Subset::new(vec![range.clone()]);
                for p in elements(&r, e)? {
                    let mut f = e.clone();
                    f.insert(param.clone(), p[0]);
                    next.push(f);
                }
            }
            if next.len() > LIMIT {
                return None;
            }
            all = next;
        }
    }
    Some(all)
}

#[derive(Default)]
struct Counts {
    files: usize,
    memlets: usize,
    kept: usize,
    enumerated: usize,
    tighter: usize,
    equal: usize,
    looser: usize,
    dace_misses: Vec<String>,
    looser_cases: Vec<String>,
    unsound: Vec<String>,
}

/// The enclosing scopes of `scope` (outermost first) and their spaces.
fn enclosing(scope: Op<'_>) -> Option<Vec<Space>> {
    let mut out = Vec::new();
    let mut current = scope.parent();
    while let Some(o) = current {
        if is_scope(o) {
            out.push(space(o)?);
        }
        if o.is("sdfg.sdfg") {
            break;
        }
        current = o.parent();
    }
    out.reverse();
    Some(out)
}

/// The boundary memlets of every connector of every scope, in order.
fn boundaries(root: Op<'_>) -> Vec<Vec<Option<Memlet>>> {
    root.descendants()
        .into_iter()
        .filter(|o| is_scope(*o))
        .flat_map(connectors)
        .map(|c| {
            c.outer
                .iter()
                .map(|(op, operand)| sdfg_dialect::memlet_at(*op, *operand))
                .collect()
        })
        .collect()
}

fn check_file(name: &str, root: Op<'_>, counts: &mut Counts) {
    let before = boundaries(root);
    let stats = propagate_all(root);
    counts.kept += stats.kept;
    let scopes: Vec<Op> = root
        .descendants()
        .into_iter()
        .filter(|o| is_scope(*o))
        .collect();
    let mut index = 0;
    for scope in scopes {
        let (outer_spaces, own) = (enclosing(scope), space(scope));
        for connector in connectors(scope) {
            let dace = before.get(index).cloned().unwrap_or_default();
            index += 1;
            for (k, (op, operand)) in connector.outer.iter().enumerate() {
                counts.memlets += 1;
                let ours = sdfg_dialect::memlet_at(*op, *operand);
                let (Some(ours), Some(Some(dace)), Some(inner), Some(outer_spaces), Some(own)) = (
                    ours,
                    dace.get(k).cloned(),
                    connector.inner.as_ref(),
                    outer_spaces.as_ref(),
                    own.as_ref(),
                ) else {
                    continue;
                };
                let (Ok(ours_s), Ok(dace_s)) =
                    (parse_subset(&ours.subset), parse_subset(&dace.subset))
                else {
                    continue;
                };
                let inner: Option<Vec<Subset>> = inner
                    .iter()
                    .map(|m| {
                        m.other
                            .is_none()
                            .then(|| parse_subset(&m.subset).ok())
                            .flatten()
                    })
                    .collect();
                let Some(inner) = inner else { continue };
                let mut env = Env::new();
                bind(&mut env, ours_s.free_symbols());
                bind(&mut env, dace_s.free_symbols());
                for s in &inner {
                    bind(
                        &mut env,
                        s.free_symbols()
                            .into_iter()
                            .filter(|n| !own.inner_names.contains(n)),
                    );
                }
                for space in outer_spaces {
                    for (p, _) in &space.params {
                        env.remove(p);
                    }
                    for (_, r) in &space.params {
                        bind(
                            &mut env,
                            Subset::new(vec![r.clone()])
                                .free_symbols()
                                .into_iter()
                                .filter(|n| !space.inner_names.contains(n)),
                        );
                    }
                }
                let Some(outer_points) = iterations(outer_spaces, &env) else {
                    continue;
                };
                // Accesses outside the container are undefined behaviour
                // (the symbol values may not be ones the program allows).
                let Ok(shape) =
                    sdfg_dialect::layout::layout(connector.container.ty()).map(|l| l.shape)
                else {
                    continue;
                };
                if shape.len() != ours_s.dims()
                    || shape.len() != dace_s.dims()
                    || inner.iter().any(|s| s.dims() != shape.len())
                {
                    continue;
                }
                let mut verdict = Some((true, true)); // (ours within DaCe's, DaCe's within ours)
                let mut dace_miss = None;
                'points: for outer in &outer_points {
                    let (Some(p), Some(d)) = (elements(&ours_s, outer), elements(&dace_s, outer))
                    else {
                        verdict = None;
                        break;
                    };
                    let Some(inner_points) = iterations(std::slice::from_ref(own), outer) else {
                        verdict = None;
                        break;
                    };
                    for point in &inner_points {
                        for s in &inner {
                            let Some(touched) = elements(s, point) else {
                                verdict = None;
                                break 'points;
                            };
                            for e in touched {
                                let inside = e.iter().zip(&shape).all(|(i, size)| {
                                    value(size, point).is_some_and(|n| *i >= 0 && *i < n)
                                });
                                if !inside {
                                    continue;
                                }
                                if !p.contains(&e) {
                                    counts.unsound.push(format!(
                                        "{name}: scope `{}` connector `{}`: {} misses {e:?} (at {point:?})",
                                        scope.str_attr("label").unwrap_or_default(),
                                        connector.name,
                                        ours.subset
                                    ));
                                }
                                if !d.contains(&e) && dace_miss.is_none() {
                                    dace_miss = Some(format!(
                                        "{name}: `{}` `{}`: DaCe's `{}` misses {e:?} (at {point:?}), ours `{}` has it",
                                        scope.str_attr("label").unwrap_or_default(),
                                        connector.name,
                                        dace.subset,
                                        ours.subset
                                    ));
                                }
                            }
                        }
                    }
                    if let Some((a, b)) = verdict.as_mut() {
                        *a &= p.is_subset(&d);
                        *b &= d.is_subset(&p);
                    }
                }
                if let Some(miss) = dace_miss {
                    counts.enumerated += 1;
                    counts.dace_misses.push(miss);
                    continue;
                }
                match verdict {
                    None => {}
                    Some((true, true)) => {
                        counts.enumerated += 1;
                        counts.equal += 1;
                    }
                    Some((true, false)) => {
                        counts.enumerated += 1;
                        counts.tighter += 1;
                    }
                    Some(_) => {
                        counts.enumerated += 1;
                        counts.looser += 1;
                        counts.looser_cases.push(format!(
                            "{name}: `{}` `{}`: ours `{}`, DaCe's `{}`",
                            scope.str_attr("label").unwrap_or_default(),
                            connector.name,
                            ours.subset,
                            dace.subset
                        ));
                    }
                }
            }
        }
    }
}

#[test]
fn propagated_memlets_contain_every_accessed_element() {
    let dir = corpus_dir().join("dace");
    sdfg_registry::register_all();
    let context = sdfg_dialect::create_context();
    let mut counts = Counts::default();
    for (file, verdict) in dace_index() {
        if verdict.starts_with("noload") {
            continue;
        }
        let Ok(bytes) = std::fs::read(dir.join(&file)) else {
            continue;
        };
        let Ok(text) = sdfg_target_dace::import::import_bytes(&bytes) else {
            continue;
        };
        let Some(module) = Module::parse(&context, &format!("module {{\n{text}}}")) else {
            continue;
        };
        counts.files += 1;
        // SAFETY: the module outlives the handles taken from it here.
        let root = unsafe { Op::from_raw(module.as_operation().to_raw()) }.expect("a module op");
        check_file(&file, root, &mut counts);
    }
    let dace_files: BTreeSet<&str> = counts
        .dace_misses
        .iter()
        .filter_map(|m| m.split(':').next())
        .collect();
    println!(
        "memlet propagation on {} corpus files: {} boundary memlets, {} kept (inner memlets unreadable); \
         {} checked by enumeration (symbols = {SYMBOL_VALUE}): DaCe's stored memlet misses accessed elements in {} \
         (of {} files); where DaCe's is sound, ours is tighter in {}, equal in {}, looser in {}",
        counts.files,
        counts.memlets,
        counts.kept,
        counts.enumerated,
        counts.dace_misses.len(),
        dace_files.len(),
        counts.tighter,
        counts.equal,
        counts.looser,
    );
    for m in &counts.dace_misses {
        println!("  {m}");
    }
    for m in &counts.looser_cases {
        println!("  looser: {m}");
    }
    assert!(counts.enumerated > 0, "nothing was checked");
    assert!(
        counts.looser_cases.is_empty(),
        "propagated memlets larger than DaCe's sound ones: {:#?}",
        counts.looser_cases
    );
    assert!(
        counts.unsound.is_empty(),
        "propagated memlets that miss accessed elements: {:#?}",
        &counts.unsound[..counts.unsound.len().min(20)]
    );
}
