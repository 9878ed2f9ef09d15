//! `sdfg-constant-propagation`: replaces symbols by the constants they
//! were assigned, or by the symbols they copy, where every path to a use
//! assigns the same one, as DaCe's `ConstantPropagation` does.
//!
//! ```mlir
//! // before
//! sdfg.edge @init -> @work assign("n" = "4", "k" = "N + 1")
//! sdfg.state @work { ... A["k", 0:n] ... }
//! sdfg.edge @work -> @next if "n > 2"
//! // after (sdfg-remove-unused-symbols then drops n and k)
//! sdfg.state @work { ... A["N + 1", 0:4] ... }
//! sdfg.edge @work -> @next if "1"
//! ```
//!
//! # The analysis
//!
//! A forward dataflow analysis over each SDFG's control flow. The value
//! of a symbol the SDFG assigns is, at each block, its value on entry to
//! the SDFG, a known expression, or unknown; two paths that bring
//! different values make it unknown. An inter-state assignment gives a
//! known value when its expression, with the known values put in, is an
//! integer that reads only constants and symbols nothing in the SDFG
//! assigns (sizes such as `N`, whose value never changes; floats are left
//! alone, since their exact rational form would print as an integer
//! division in C), or symbols that change but are not assigned on the
//! same edge (`s = i + 1`, a copy the frontend makes of a loop counter).
//! Such a value holds until one of the symbols it reads is assigned
//! again, where it becomes unknown; the symbols it reads must convert
//! into the assigned one's type without loss. One that reads data
//! (`s = A[i]`, a scalar container) gives an unknown value.
//! Assignments on one edge read the values from before the edge, as in
//! DaCe. A state machine is iterated to its fixed point (values only ever
//! become unknown, so it ends). An `sdfg.loop` makes everything assigned
//! inside it, its variable included, unknown in its body and after it; a
//! conditional's branches each start from the values before it, and after
//! it the values are those every branch (and, without an unconditional
//! branch, the way around them) agrees on. A nested SDFG starts from the
//! constants its symbol mapping passes (`symbols("K" = "8")`), which the
//! caller's propagation may have just made constant.
//!
//! # The rewrite
//!
//! The known values are substituted where the symbolic engine reads the
//! expression: memlet subsets and volumes, map ranges, consume scopes'
//! processing-element counts, `sdfg.sym` expressions in tasklets, symbol
//! mappings, inter-state conditions and assigned values, loop bounds and
//! branch conditions. Each with the values at its block (an edge's, with
//! those at the end of its source block). Foreign tasklet code, library
//! node properties and container types are left as they are; a symbol
//! still named there keeps its assignments, which is always correct since
//! a substituted constant is the symbol's value at that point. The
//! assignments that nothing reads any more are removed by
//! `sdfg-remove-unused-symbols`, which follows in `sdfg-simplify`.

use crate::identifiers;
use sdfg_analysis::executions::conditions_cover;
use sdfg_analysis::graph::control_flow_graph;
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::{array_elements, array_of, attr_str, Op};
use sdfg_dialect::{declared_symbols, rewrite, Memlet, CONTROL_FLOW_BLOCKS};
use sdfg_symbolic::{parse, parse_subset, Assumptions, Expr};
use std::collections::{BTreeMap, HashMap, HashSet};

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-constant-propagation",
    summary: "Replace symbols by the constants they were assigned where every path agrees on them (DaCe's ConstantPropagation)",
    op_name: "builtin.module",
    create: || Box::new(ConstantPropagation),
};

/// The pass (no options).
#[derive(Clone, Copy)]
pub struct ConstantPropagation;

impl RustPass for ConstantPropagation {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        crate::no_options("sdfg-constant-propagation", options)
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        propagate_constants(module);
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(*self)
    }
}

/// Propagates constants in every SDFG under `root`, callers before the
/// SDFGs nested in them; returns how many expressions it rewrote.
pub fn propagate_constants(root: Op<'_>) -> usize {
    let sdfgs: Vec<Op> = std::iter::once(root)
        .chain(root.descendants())
        .filter(|o| o.is("sdfg.sdfg"))
        .collect();
    sdfgs.into_iter().map(propagate_in).sum()
}

/// A symbol's value at a point of the control flow.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Value {
    /// The value it had when the SDFG started.
    Entry,
    /// This expression (of constants, symbols that never change, and
    /// symbols not assigned since).
    Known(Expr),
    /// Unknown: data-dependent, or different on different paths.
    Unknown,
}

/// The values of the symbols an SDFG assigns (and of those its caller
/// passes as constants).
type Env = BTreeMap<String, Value>;

/// Forgets the values that read a symbol of `assigned`, which no longer
/// hold once those symbols change.
fn kill(env: &mut Env, assigned: &HashSet<&str>) {
    for value in env.values_mut() {
        if let Value::Known(e) = value {
            if e.free_symbols()
                .iter()
                .any(|s| assigned.contains(s.as_str()))
            {
                *value = Value::Unknown;
            }
        }
    }
}

fn meet(a: &Env, b: &Env) -> Env {
    a.iter()
        .map(|(k, v)| {
            let same = b.get(k) == Some(v);
            (k.clone(), if same { v.clone() } else { Value::Unknown })
        })
        .collect()
}

/// What the analysis of one SDFG knows: the symbols that change, the
/// names of its data, and the values at each block's start and end.
#[derive(Clone)]
struct Analysis<'a> {
    /// Whether values are copies of symbols that change (`s = i`), kept
    /// as they are written, or constants, which the values known before
    /// the assignment are put into.
    copies: bool,
    changing: HashSet<String>,
    /// The width and signedness of each integer symbol.
    types: HashMap<String, (u32, bool)>,
    data: HashSet<String>,
    asm: Assumptions,
    at_start: HashMap<Op<'a>, Env>,
    at_end: HashMap<Op<'a>, Env>,
    /// The values inside each loop's body (its variable unknown).
    in_loop: HashMap<Op<'a>, Env>,
}

fn assignments(edge: Op<'_>) -> Vec<(&str, &str)> {
    edge.str_array_attr("assign_names")
        .into_iter()
        .zip(edge.str_array_attr("assign_values"))
        .collect()
}

/// The ops of `sdfg`'s own control flow and dataflow, not those of the
/// SDFGs nested in it.
fn own_ops(sdfg: Op<'_>) -> impl Iterator<Item = Op<'_>> {
    sdfg.descendants()
        .into_iter()
        .filter(move |o| o.ancestor("sdfg.sdfg") == Some(sdfg))
}

fn propagate_in(sdfg: Op<'_>) -> usize {
    let mut changing = HashSet::new();
    for op in own_ops(sdfg) {
        if op.is("sdfg.edge") {
            changing.extend(assignments(op).into_iter().map(|(n, _)| n.to_string()));
        } else if op.is("sdfg.loop") {
            changing.extend(op.str_attr("var").map(str::to_string));
        }
    }
    let mut entry: Env = changing.iter().map(|n| (n.clone(), Value::Entry)).collect();
    for (name, value) in caller_constants(sdfg) {
        entry.insert(name, Value::Known(value));
    }
    if entry.is_empty() {
        return 0;
    }
    let data = sdfg
        .str_array_attr("arg_names")
        .into_iter()
        .map(str::to_string)
        .chain(
            sdfg.region_ops(0)
                .into_iter()
                .filter(|o| o.is("sdfg.alloc"))
                .filter_map(|o| o.str_attr("name").map(str::to_string)),
        )
        .collect();
    let types = declared_symbols(sdfg)
        .into_iter()
        // SAFETY: the types are live in the SDFG's context.
        .filter(|(_, ty)| unsafe { mlir_sys::mlirTypeIsAInteger(*ty) })
        .map(|(name, ty)| {
            // SAFETY: `ty` is an integer type of the SDFG's context.
            let (width, unsigned) = unsafe {
                (
                    mlir_sys::mlirIntegerTypeGetWidth(ty),
                    mlir_sys::mlirIntegerTypeIsUnsigned(ty),
                )
            };
            (name.to_string(), (width, !unsigned))
        })
        .collect();
    let mut analysis = Analysis {
        copies: false,
        changing,
        types,
        data,
        asm: sdfg_analysis::executions::size_assumptions(sdfg),
        at_start: HashMap::new(),
        at_end: HashMap::new(),
        in_loop: HashMap::new(),
    };
    let mut copies = Analysis {
        copies: true,
        ..analysis.clone()
    };
    analysis.region(sdfg, entry.clone());
    copies.region(sdfg, entry);
    analysis.rewrite(sdfg, &copies)
}

/// The substitution at one point: the constants known there, and the
/// copies known there with those constants put in (`s = i` where `i` is
/// 0 there reads 0).
fn substitution(constants: Option<&Env>, copies: Option<&Env>) -> HashMap<String, Expr> {
    let mut known = constants.map(Analysis::known).unwrap_or_default();
    let copied = copies.map(Analysis::known).unwrap_or_default();
    let resolved: Vec<(String, Expr)> = copied
        .into_iter()
        .filter(|(name, _)| !known.contains_key(name))
        .map(|(name, e)| (name, e.substitute(&known)))
        .collect();
    known.extend(resolved);
    known
}

/// The constants a caller's symbol mapping passes to `sdfg`.
fn caller_constants(sdfg: Op<'_>) -> Vec<(String, Expr)> {
    let Some(nested) = sdfg.parent().filter(|p| p.is("sdfg.nested")) else {
        return Vec::new();
    };
    nested
        .str_array_attr("symbol_names")
        .into_iter()
        .zip(nested.str_array_attr("symbol_values"))
        .filter_map(|(n, v)| {
            let e = parse(v).ok()?;
            (e.free_symbols().is_empty() && e.is_integer_valued() && !e.is_undefined())
                .then(|| (n.to_string(), e))
        })
        .collect()
}

impl<'a> Analysis<'a> {
    /// The known values of `env`, as a substitution.
    fn known(env: &Env) -> HashMap<String, Expr> {
        env.iter()
            .filter_map(|(k, v)| match v {
                Value::Known(e) => Some((k.clone(), e.clone())),
                _ => None,
            })
            .collect()
    }

    /// The value an assignment `name = text` on an edge that assigns
    /// `assigned` gives, read with `env`.
    fn assigned(&self, name: &str, text: &str, assigned: &HashSet<&str>, env: &Env) -> Value {
        let Ok(mut e) = parse(text) else {
            return Value::Unknown;
        };
        if !self.copies {
            e = e.substitute(&Self::known(env));
        }
        // Integers only: a float constant would be printed as an exact
        // rational (`1/10`), which C reads as an integer division.
        let integer = e.is_numeric()
            && e.is_integer_valued()
            && !e.is_undefined()
            && e.subscripted_names().is_empty();
        let reads = |s: &String| {
            !self.data.contains(s)
                && (!self.changing.contains(s)
                    || (self.copies && !assigned.contains(s.as_str()) && self.widens(s, name)))
        };
        if integer && e.free_symbols().iter().all(reads) {
            Value::Known(e)
        } else {
            Value::Unknown
        }
    }

    /// Whether every value of integer symbol `from` is one of integer
    /// symbol `to`.
    fn widens(&self, from: &str, to: &str) -> bool {
        match (self.types.get(from), self.types.get(to)) {
            (Some(&(fw, fsigned)), Some(&(tw, tsigned))) => {
                (fsigned == tsigned && tw >= fw) || (!fsigned && tsigned && tw > fw)
            }
            _ => false,
        }
    }

    /// `env` after the assignments of `edge` (all read the old values).
    fn after_edge(&self, edge: Op<'_>, env: &Env) -> Env {
        let all = assignments(edge);
        let names: HashSet<&str> = all.iter().map(|(n, _)| *n).collect();
        let mut out = env.clone();
        kill(&mut out, &names);
        for (name, text) in all {
            out.insert(name.to_string(), self.assigned(name, text, &names, env));
        }
        out
    }

    /// Analyses `owner`'s state machine entered with `entry`; returns the
    /// values where it may end.
    fn region(&mut self, owner: Op<'a>, entry: Env) -> Env {
        let g = control_flow_graph(owner);
        if g.node_count() == 0 {
            return entry;
        }
        let mut start: Vec<Option<Env>> = vec![None; g.node_count()];
        start[0] = Some(entry.clone());
        let mut work = vec![petgraph::graph::NodeIndex::new(0)];
        while let Some(n) = work.pop() {
            let Some(at_start) = start[n.index()].clone() else {
                continue;
            };
            let at_end = self.block(g[n], at_start);
            for e in g.edges(n) {
                let t = petgraph::visit::EdgeRef::target(&e);
                let along = self.after_edge(e.weight().op, &at_end);
                let merged = match &start[t.index()] {
                    None => along,
                    Some(old) => meet(old, &along),
                };
                if start[t.index()].as_ref() != Some(&merged) {
                    start[t.index()] = Some(merged);
                    work.push(t);
                }
            }
        }
        // Where the region may end: blocks whose edges may all fail.
        let mut exit: Option<Env> = None;
        for n in g.node_indices() {
            let conditions: Vec<Option<&str>> = g.edges(n).map(|e| e.weight().condition).collect();
            if conditions_cover(&conditions, &self.asm) {
                continue;
            }
            if let Some(end) = self.at_end.get(&g[n]) {
                exit = Some(match exit {
                    None => end.clone(),
                    Some(x) => meet(&x, end),
                });
            }
        }
        exit.unwrap_or(entry)
    }

    /// Analyses one block entered with `env`; returns the values at its
    /// end.
    fn block(&mut self, op: Op<'a>, env: Env) -> Env {
        self.at_start.insert(op, env.clone());
        let end = match op.name() {
            "sdfg.loop" => {
                let mut inside = env.clone();
                let assigned_inside = op
                    .descendants()
                    .into_iter()
                    .flat_map(|d| {
                        let mut names: Vec<String> = Vec::new();
                        if d.is("sdfg.edge") {
                            names.extend(assignments(d).into_iter().map(|(n, _)| n.to_string()));
                        } else if d.is("sdfg.loop") {
                            names.extend(d.str_attr("var").map(str::to_string));
                        }
                        names
                    })
                    .chain(op.str_attr("var").map(str::to_string));
                let assigned_inside: Vec<String> = assigned_inside.collect();
                kill(
                    &mut inside,
                    &assigned_inside.iter().map(String::as_str).collect(),
                );
                for name in assigned_inside {
                    inside.insert(name, Value::Unknown);
                }
                self.in_loop.insert(op, inside.clone());
                self.region(op, inside.clone());
                inside
            }
            "sdfg.conditional" => {
                let branches: Vec<Op> = op
                    .region_ops(0)
                    .into_iter()
                    .filter(|b| b.is("sdfg.branch"))
                    .collect();
                let has_else = branches.iter().any(|b| b.str_attr("condition").is_none());
                let mut out = (!has_else).then(|| env.clone());
                for branch in branches {
                    self.at_start.insert(branch, env.clone());
                    let end = self.region(branch, env.clone());
                    out = Some(match out {
                        None => end,
                        Some(o) => meet(&o, &end),
                    });
                }
                out.unwrap_or(env)
            }
            "sdfg.region" | "sdfg.call_region" => self.region(op, env),
            _ => env,
        };
        self.at_end.insert(op, end.clone());
        end
    }

    /// Substitutes the known values everywhere they apply; returns how
    /// many expressions changed.
    fn rewrite(&self, sdfg: Op<'a>, copies: &Analysis<'a>) -> usize {
        let mut changed = 0;
        let ops: Vec<Op> = own_ops(sdfg).collect();
        let blocks: HashMap<(Option<Op>, &str), Op> = ops
            .iter()
            .filter(|o| CONTROL_FLOW_BLOCKS.contains(&o.name()))
            .filter_map(|b| Some(((b.parent(), b.symbol_name()?), *b)))
            .collect();
        let at_start = |op: Op<'a>| substitution(self.at_start.get(&op), copies.at_start.get(&op));
        for op in ops {
            if CONTROL_FLOW_BLOCKS.contains(&op.name()) {
                if !self.at_start.contains_key(&op) {
                    continue;
                }
                let known = at_start(op);
                if op.is("sdfg.state") {
                    for inner in op.descendants() {
                        if inner.ancestor("sdfg.sdfg") == Some(sdfg) {
                            changed += rewrite_dataflow(inner, &known);
                        }
                    }
                } else if op.is("sdfg.loop") {
                    changed += rewrite_strings(op, &["init"], &known);
                    if self.in_loop.contains_key(&op) {
                        let inside = substitution(self.in_loop.get(&op), copies.in_loop.get(&op));
                        changed += rewrite_strings(op, &["cond", "update"], &inside);
                    }
                }
            } else if op.is("sdfg.branch") {
                if let Some(conditional) = op.parent().filter(|c| self.at_start.contains_key(c)) {
                    changed += rewrite_strings(op, &["condition"], &at_start(conditional));
                }
            } else if op.is("sdfg.edge") {
                let src = op
                    .symbol_ref_attr("src")
                    .and_then(|s| blocks.get(&(op.parent(), s)));
                if let Some(block) = src.filter(|b| self.at_end.contains_key(b)) {
                    // An edge's assignments read the values from before it,
                    // but must not name what it assigns (a race to
                    // `sdfg-validate`): a copy of such a symbol stays.
                    let assigned: HashSet<&str> =
                        assignments(op).into_iter().map(|(n, _)| n).collect();
                    let mut known = substitution(self.at_end.get(block), copies.at_end.get(block));
                    known.retain(|_, e| {
                        e.free_symbols()
                            .iter()
                            .all(|s| !assigned.contains(s.as_str()))
                    });
                    changed += rewrite_strings(op, &["condition", "assign_values"], &known);
                }
            }
        }
        changed
    }
}

/// Whether `text` names one of `known`'s symbols.
fn names_any(text: &str, known: &HashMap<String, Expr>) -> bool {
    identifiers(text).any(|w| known.contains_key(&w))
}

/// `text` with the known values put in, where it names one and parses.
fn substituted(text: &str, known: &HashMap<String, Expr>) -> Option<String> {
    if !names_any(text, known) {
        return None;
    }
    Some(parse(text).ok()?.substitute(known).to_string())
}

/// `text` as a subset with the known values put in.
fn substituted_subset(text: &str, known: &HashMap<String, Expr>) -> Option<String> {
    if !names_any(text, known) {
        return None;
    }
    Some(parse_subset(text).ok()?.substitute(known).to_string())
}

/// Rewrites the string (or string array) attributes `names` of `op`,
/// which hold expressions.
fn rewrite_strings(op: Op<'_>, names: &[&str], known: &HashMap<String, Expr>) -> usize {
    rewrite_texts(op, names, known, substituted)
}

/// Rewrites the string (or string array) attributes `names` of `op` with
/// `rewrite`, which gives the new text of one string where it changes.
fn rewrite_texts(
    op: Op<'_>,
    names: &[&str],
    known: &HashMap<String, Expr>,
    rewrite: fn(&str, &HashMap<String, Expr>) -> Option<String>,
) -> usize {
    if known.is_empty() {
        return 0;
    }
    let mut changed = 0;
    for name in names {
        let Some(attr) = op.attr(name) else {
            continue;
        };
        if let Some(text) = attr_str(attr) {
            if let Some(new) = rewrite(text, known) {
                op.set_attr(name, rewrite::str_attr(op, &new));
                changed += 1;
            }
        } else {
            let texts: Vec<&str> = array_elements(attr)
                .into_iter()
                .filter_map(attr_str)
                .collect();
            let new: Vec<String> = texts
                .iter()
                .map(|t| rewrite(t, known).unwrap_or_else(|| t.to_string()))
                .collect();
            let count = texts
                .iter()
                .zip(&new)
                .filter(|(a, b)| **a != b.as_str())
                .count();
            if count > 0 {
                let refs: Vec<&str> = new.iter().map(String::as_str).collect();
                op.set_attr(name, rewrite::str_array_attr(op, &refs));
                changed += count;
            }
        }
    }
    changed
}

/// Rewrites the memlets and symbolic attributes of one dataflow op.
pub(crate) fn rewrite_dataflow(op: Op<'_>, known: &HashMap<String, Expr>) -> usize {
    if known.is_empty() {
        return 0;
    }
    let mut changed = match op.name() {
        "sdfg.map" => rewrite_texts(op, &["ranges"], known, substituted_subset),
        "sdfg.consume" => rewrite_strings(op, &["num_pes"], known),
        "sdfg.sym" => rewrite_strings(op, &["expr"], known),
        "sdfg.nested" => rewrite_strings(op, &["symbol_values"], known),
        _ => 0,
    };
    for (name, attr) in op.attributes() {
        if let Some(memlet) = Memlet::from_attr(attr) {
            if let Some(new) = rewrite_memlet(&memlet, known) {
                op.set_attr(name, new.to_attr(op.context()));
                changed += 1;
            }
            continue;
        }
        let elements = array_elements(attr);
        let memlets: Vec<Option<Memlet>> = elements.iter().map(|a| Memlet::from_attr(*a)).collect();
        if elements.is_empty() || memlets.iter().any(Option::is_none) {
            continue;
        }
        let mut any = false;
        let new: Vec<_> = memlets
            .into_iter()
            .flatten()
            .map(|m| match rewrite_memlet(&m, known) {
                Some(n) => {
                    any = true;
                    changed += 1;
                    n.to_attr(op.context())
                }
                None => m.to_attr(op.context()),
            })
            .collect();
        if any {
            op.set_attr(name, array_of(op.context(), &new));
        }
    }
    changed
}

/// The memlet with the known values in its subsets and volume; `None`
/// where nothing changes.
fn rewrite_memlet(m: &Memlet, known: &HashMap<String, Expr>) -> Option<Memlet> {
    let subset = substituted_subset(&m.subset, known);
    let other = m
        .other
        .as_deref()
        .and_then(|o| substituted_subset(o, known));
    let volume = m.volume.as_deref().and_then(|v| substituted(v, known));
    if subset.is_none() && other.is_none() && volume.is_none() {
        return None;
    }
    Some(Memlet {
        subset: subset.unwrap_or_else(|| m.subset.clone()),
        other: other.or_else(|| m.other.clone()),
        volume: volume.or_else(|| m.volume.clone()),
        ..m.clone()
    })
}
