//! `sdfg-propagate-memlets` on every corpus program that imports: each
//! boundary memlet it computes, of map and consume scopes and of nested
//! SDFGs, must contain every element the inner memlets touch (enumerated
//! for concrete symbol values, through the loops around each state and the
//! symbol mapping), and is compared with the memlet DaCe stored: tighter,
//! equal or looser. Where DaCe's stored memlet misses an element, the test
//! names the file and the element.

use crate::import::{corpus_dir, dace_index};
use melior::ir::Module;
use sdfg_analysis::executions::executions;
use sdfg_analysis::propagate::{
    argument_box, connectors, is_scope, propagate_all, space, symbol_mapping, Space,
};
use sdfg_dialect::ir::{Op, Val};
use sdfg_dialect::{memlet_at, memlet_slot, Memlet};
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

impl Counts {
    /// Counts one enumerated boundary memlet: where DaCe's misses an
    /// element, or how ours compares with it (`verdict`: ours within
    /// DaCe's, DaCe's within ours; `None` where it could not be
    /// enumerated).
    fn tally(
        &mut self,
        verdict: Option<(bool, bool)>,
        dace_miss: Option<String>,
        looser_case: impl FnOnce() -> String,
    ) {
        if let Some(miss) = dace_miss {
            self.enumerated += 1;
            self.dace_misses.push(miss);
            return;
        }
        match verdict {
            None => {}
            Some((true, true)) => {
                self.enumerated += 1;
                self.equal += 1;
            }
            Some((true, false)) => {
                self.enumerated += 1;
                self.tighter += 1;
            }
            Some(_) => {
                self.enumerated += 1;
                self.looser += 1;
                self.looser_cases.push(looser_case());
            }
        }
    }
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

fn check_file(name: &str, root: Op<'_>, counts: &mut Counts, nested: &mut Counts) {
    let before = boundaries(root);
    let nested_before = nested_boundaries(root);
    let stats = propagate_all(root);
    check_nested(name, root, &nested_before, nested);
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
                counts.tally(verdict, dace_miss, || {
                    format!(
                        "{name}: `{}` `{}`: ours `{}`, DaCe's `{}`",
                        scope.str_attr("label").unwrap_or_default(),
                        connector.name,
                        ours.subset,
                        dace.subset
                    )
                });
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
    let mut nested = Counts::default();
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
        check_file(&file, root, &mut counts, &mut nested);
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
    println!(
        "nested SDFGs: {} boundary memlets; {} checked by enumeration through loops and symbol \
         mappings: ours tighter than DaCe's in {}, equal in {}, looser in {}; DaCe's misses \
         accessed elements in {}",
        nested.memlets,
        nested.enumerated,
        nested.tighter,
        nested.equal,
        nested.looser,
        nested.dace_misses.len(),
    );
    for m in &nested.dace_misses {
        println!("  nested: {m}");
    }
    for m in &nested.looser_cases {
        println!("  looser: {m}");
    }
    assert!(counts.enumerated > 0, "nothing was checked");
    assert!(nested.enumerated > 0, "no nested SDFG boundary was checked");
    assert!(
        nested.unsound.is_empty(),
        "propagated nested-SDFG memlets that miss accessed elements: {:#?}",
        &nested.unsound[..nested.unsound.len().min(20)]
    );
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

/// One connector of a nested SDFG: the argument inside, whether it is an
/// output, the outer container value, and its boundary memlets (op,
/// operand).
type NestedConnector<'a> = (String, Val<'a>, bool, Val<'a>, Vec<(Op<'a>, usize)>);

fn nested_connectors(nested: Op<'_>) -> Vec<NestedConnector<'_>> {
    let Some(inner) = nested.region_ops(0).into_iter().find(|o| o.is("sdfg.sdfg")) else {
        return Vec::new();
    };
    let args: HashMap<&str, Val> = inner
        .str_array_attr("arg_names")
        .into_iter()
        .zip(inner.region_args(0))
        .collect();
    let mut out = Vec::new();
    for (k, (name, value)) in nested
        .str_array_attr("in_names")
        .into_iter()
        .zip(nested.operand_segment(0))
        .enumerate()
    {
        if let Some(arg) = args.get(name) {
            out.push((name.to_string(), *arg, false, value, vec![(nested, k)]));
        }
    }
    for (name, result) in nested
        .str_array_attr("out_names")
        .into_iter()
        .zip(nested.results())
    {
        if let Some(arg) = args.get(name) {
            let uses = result
                .uses()
                .into_iter()
                .filter(|(u, o)| memlet_at(*u, *o).is_some())
                .collect();
            out.push((name.to_string(), *arg, true, result, uses));
        }
    }
    out
}

fn nested_boundaries(root: Op<'_>) -> Vec<Vec<Option<Memlet>>> {
    root.descendants()
        .into_iter()
        .filter(|o| o.is("sdfg.nested"))
        .flat_map(nested_connectors)
        .map(|(_, _, _, _, outer)| outer.iter().map(|(o, k)| memlet_at(*o, *k)).collect())
        .collect()
}

/// The subsets by which the nested SDFG reads (or writes) argument `arg`,
/// each with the state it is in; `None` where one cannot be read.
fn argument_accesses<'a>(arg: Val<'a>, writes: bool) -> Option<Vec<(Op<'a>, Subset)>> {
    let mut out = Vec::new();
    for (access, _) in arg.uses() {
        let state = access.parent().filter(|p| p.is("sdfg.state"))?;
        let mut subsets = Vec::new();
        for (user, operand) in access.results().first()?.uses() {
            let Some(slot) = memlet_slot(user, operand) else {
                continue;
            };
            let bind = user.is("sdfg.access") && slot.attr == "source_memlet";
            if !writes || bind {
                subsets.push(memlet_at(user, operand)?.subset);
            }
        }
        if writes {
            for k in 0..access.operand_segment(1).len() {
                let m = memlet_at(access, 1 + k)?;
                subsets.push(m.other.unwrap_or(m.subset));
            }
        }
        for s in subsets {
            out.push((state, parse_subset(&s).ok()?));
        }
    }
    Some(out)
}

/// Checks the propagated boundary memlets of every nested SDFG against the
/// elements its states touch, enumerated: the symbols outside at
/// [`SYMBOL_VALUE`], the maps around the nested SDFG and the counted loops
/// around each state over their ranges, the mapped symbols evaluated, and
/// each element placed at the outer memlet's first element.
fn check_nested(name: &str, root: Op<'_>, before: &[Vec<Option<Memlet>>], counts: &mut Counts) {
    let mut index = 0;
    for nested in root
        .descendants()
        .into_iter()
        .filter(|o| o.is("sdfg.nested"))
    {
        let Some(inner) = nested.region_ops(0).into_iter().find(|o| o.is("sdfg.sdfg")) else {
            continue;
        };
        let runs = executions(inner);
        let mapping = symbol_mapping(nested);
        let outer_spaces = enclosing(nested);
        for (conn, arg, writes, container, outer) in nested_connectors(nested) {
            let dace = before.get(index).cloned().unwrap_or_default();
            index += 1;
            let (Some(mapping), Some(outer_spaces)) = (mapping.as_ref(), outer_spaces.as_ref())
            else {
                continue;
            };
            let Ok(inner_shape) = sdfg_dialect::layout::layout(arg.ty()).map(|l| l.shape) else {
                continue;
            };
            let Some(accesses) = argument_accesses(arg, writes) else {
                continue;
            };
            for (k, (op, operand)) in outer.iter().enumerate() {
                counts.memlets += 1;
                let (Some(ours), Some(Some(dace))) =
                    (memlet_at(*op, *operand), dace.get(k).cloned())
                else {
                    continue;
                };
                let (Ok(ours_s), Ok(dace_s)) =
                    (parse_subset(&ours.subset), parse_subset(&dace.subset))
                else {
                    continue;
                };
                if inner_shape.is_empty() || accesses.is_empty() {
                    continue;
                }
                let shape_outside: Vec<Expr> =
                    inner_shape.iter().map(|e| e.substitute(mapping)).collect();
                let Some(embedding) =
                    argument_box(arg, &shape_outside, mapping, &dace_s, container)
                else {
                    continue;
                };
                let mut env = Env::new();
                bind(&mut env, ours_s.free_symbols());
                bind(&mut env, dace_s.free_symbols());
                for v in mapping.values() {
                    bind(&mut env, v.free_symbols());
                }
                for space in outer_spaces {
                    for (p, _) in &space.params {
                        env.remove(p);
                    }
                }
                let Some(points) = iterations(outer_spaces, &env) else {
                    continue;
                };
                let mut verdict = Some((true, true));
                let mut dace_miss = None;
                'points: for point in &points {
                    let (Some(p), Some(d)) = (elements(&ours_s, point), elements(&dace_s, point))
                    else {
                        verdict = None;
                        break;
                    };
                    // The nested SDFG's symbols: the mapped values; any
                    // other symbol it reads is assigned inside (skipped).
                    let mut inner_env = Env::new();
                    for (n, v) in mapping {
                        let Some(x) = value(v, point) else {
                            verdict = None;
                            break 'points;
                        };
                        inner_env.insert(n.clone(), x);
                    }
                    for (state, subset) in &accesses {
                        let Some(run) = runs.get(state) else {
                            verdict = None;
                            break 'points;
                        };
                        if run.count.as_int() == Some(0) && !run.dynamic {
                            continue;
                        }
                        let space = Space {
                            params: run.ranges.clone(),
                            inner_names: Vec::new(),
                            dynamic: false,
                        };
                        let Some(iters) = iterations(std::slice::from_ref(&space), &inner_env)
                        else {
                            verdict = None;
                            break 'points;
                        };
                        for it in &iters {
                            let Some(touched) = elements(subset, it) else {
                                verdict = None;
                                break 'points;
                            };
                            for e in touched {
                                let inside = e.iter().zip(&inner_shape).all(|(i, size)| {
                                    value(size, it).is_some_and(|n| *i >= 0 && *i < n)
                                });
                                if !inside {
                                    continue;
                                }
                                let at = Subset::indices(e.iter().map(|i| Expr::int(*i)).collect());
                                let Some(placed) = embedding
                                    .apply_subset(&at)
                                    .ok()
                                    .and_then(|s| elements(&s, point))
                                else {
                                    verdict = None;
                                    break 'points;
                                };
                                for x in placed {
                                    if !p.contains(&x) {
                                        counts.unsound.push(format!(
                                            "{name}: nested `{}` connector `{conn}`: {} misses {x:?} (at {point:?}, {it:?})",
                                            nested.str_attr("label").unwrap_or_default(),
                                            ours.subset
                                        ));
                                    }
                                    if !d.contains(&x) && dace_miss.is_none() {
                                        dace_miss = Some(format!(
                                            "{name}: nested `{}` `{conn}`: DaCe's `{}` misses {x:?}, ours `{}` has it",
                                            nested.str_attr("label").unwrap_or_default(),
                                            dace.subset,
                                            ours.subset
                                        ));
                                    }
                                }
                            }
                        }
                    }
                    if let Some((a, b)) = verdict.as_mut() {
                        *a &= p.is_subset(&d);
                        *b &= d.is_subset(&p);
                    }
                }
                counts.tally(verdict, dace_miss, || {
                    format!(
                        "{name}: nested `{}` `{conn}`: ours `{}`, DaCe's `{}`",
                        nested.str_attr("label").unwrap_or_default(),
                        ours.subset,
                        dace.subset
                    )
                });
            }
        }
    }
}
