//! `sdfg-scalar-to-symbol`: turns transient scalars that are computed by
//! one-statement tasklets into symbols assigned on inter-state edges, as
//! DaCe's `ScalarToSymbolPromotion` does. Symbols are what memlets,
//! map ranges and loop bounds can use, and an assignment on an edge costs
//! no dataflow at all.
//!
//! ```mlir
//! // before: `s = s + A[i]`, and `if s > 0` on an edge
//! %s = sdfg.alloc "s" : !sdfg.scalar<f64>
//! sdfg.state @body {
//!   %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
//!   %r = sdfg.access %s : !sdfg.scalar<f64>
//!   %o = sdfg.tasklet "add" ins("x" = %r["0"] : ..., "y" = %a["i"] : ...) outs("o" : f64) {
//!   ^bb0(%x: f64, %y: f64):
//!     %v = arith.addf %x, %y : f64
//!     sdfg.yield %v : f64
//!   }
//!   %w = sdfg.access %s writes(%o["0"] : f64) : !sdfg.scalar<f64>
//! }
//! // after: `s` is declared in `symbols {..., s = f64}`
//! sdfg.state @body_s {
//! }
//! sdfg.state @body {
//! }
//! sdfg.edge @body_s -> @body assign("s" = "(s + A[i])")
//! ```
//!
//! # Which scalars
//!
//! DaCe's rules (`find_promotable_scalars`), checked on every access node
//! of the scalar:
//!
//! - it is a transient `!sdfg.scalar`, or a one-element array (whose
//!   reads `x[0]` on edges become `x`), of integers (booleans included, as
//!   DaCe's `INTEGER_TYPES` has them) or floats (not a complex number or
//!   a view) that lives for one call (not
//!   `Persistent` or `External`), and a float one is promoted
//!   only when an inter-state edge already reads it (DaCe's
//!   `integers_only`);
//! - every access node is a node of a state, not inside a scope;
//! - a written node has one incoming edge, without write-conflict
//!   resolution, and at most one such node per state. The edge comes from
//!   a copy of one element from an access node nothing enters, or from a
//!   tasklet with one output that only this node reads, whose inputs are
//!   single elements from access nodes nothing enters, and whose MLIR body is one expression of `arith` operations
//!   and symbols that the symbolic language says exactly (no integer
//!   division or remainder, whose C and Python meanings differ, no
//!   `math` calls, no selects; zero extensions only of elements of
//!   unsigned containers, which inter-state expressions read as the same
//!   nonnegative numbers);
//! - every read goes to tasklets with MLIR bodies, directly or through map
//!   scopes, or is a copy into an element of a container of the same
//!   element type (library nodes and nested SDFGs that read it keep the
//!   scalar a scalar).
//!
//! # The rewriting
//!
//! A write becomes an assignment on the edge into its state: a new empty
//! state takes the state's incoming edges, and its one edge into the
//! state assigns the expression, with each input named as DaCe names it
//! (`A[i]`, or the scalar's name). The expression reads only nodes that
//! nothing enters, which hold what their containers held before the
//! state, so computing it before the state gives the value the tasklet
//! computed; the readers downstream of the written node read
//! the symbol, which holds that value. Each read becomes an `sdfg.sym`
//! in the tasklet's body instead of a connector, map inputs that only
//! carried the scalar go, and a copy of the scalar becomes a tasklet that
//! writes the symbol's value. The scalar's container goes, and the SDFG
//! declares a symbol of the same name and type, so that conditions and
//! assignments that named the scalar now read the symbol.

use crate::cfg::Machine;
use mlir_sys::*;
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::{Op, Val};
use sdfg_dialect::{container_name, memlet_at, rewrite, Container, ContainerKind};
use sdfg_symbolic::parse_subset;
use std::collections::{HashMap, HashSet};

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-scalar-to-symbol",
    summary: "Promote transient scalars computed by one-expression tasklets to symbols assigned on inter-state edges (DaCe's ScalarToSymbolPromotion)",
    op_name: "builtin.module",
    create: || Box::new(ScalarToSymbol),
};

/// The pass (no options).
#[derive(Clone, Copy)]
pub struct ScalarToSymbol;

impl RustPass for ScalarToSymbol {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        crate::no_options("sdfg-scalar-to-symbol", options)
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        promote_scalars(module);
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(*self)
    }
}

/// One write of a scalar that becomes an assignment.
struct Write<'a> {
    /// The written access node.
    node: Op<'a>,
    /// What writes it: a tasklet, or the access node it is copied from.
    producer: Op<'a>,
    /// The value, as an inter-state expression.
    expr: String,
}

/// A scalar that can become a symbol, with its writes.
pub struct Promotable<'a> {
    /// The scalar's `sdfg.alloc`.
    pub alloc: Op<'a>,
    /// Its name.
    pub name: String,
    writes: Vec<Write<'a>>,
}

/// Promotes every promotable scalar in every SDFG under `root`; returns
/// how many were promoted.
pub fn promote_scalars(root: Op<'_>) -> usize {
    let sdfgs: Vec<Op<'_>> = std::iter::once(root)
        .chain(root.descendants())
        .filter(|op| op.is("sdfg.sdfg"))
        .collect();
    let mut promoted = 0;
    for sdfg in sdfgs {
        // Each scalar is checked right before it is promoted: promoting
        // one rewrites nodes another one's check looked at (a copy of one
        // scalar into another becomes a tasklet), and its assignments
        // make more names read on edges.
        let mut read_on_edges = interstate_names(sdfg);
        let allocs: Vec<Op<'_>> = sdfg
            .region_ops(0)
            .into_iter()
            .filter(|op| op.is("sdfg.alloc"))
            .collect();
        for alloc in allocs {
            if let Ok(scalar) = check(alloc, &read_on_edges) {
                for write in &scalar.writes {
                    read_on_edges.extend(crate::identifiers(&write.expr));
                }
                promote(sdfg, scalar);
                promoted += 1;
            }
        }
    }
    promoted
}

/// The scalars of `sdfg` (not of SDFGs nested in it) that DaCe's rules
/// let become symbols, each on its own (promoting one may change whether
/// another can be).
pub fn promotable_scalars(sdfg: Op<'_>) -> Vec<Promotable<'_>> {
    let read_on_edges = interstate_names(sdfg);
    sdfg.region_ops(0)
        .into_iter()
        .filter(|op| op.is("sdfg.alloc"))
        .filter_map(|alloc| check(alloc, &read_on_edges).ok())
        .collect()
}

/// The names that inter-state edges, loops and branches of `sdfg` read.
fn interstate_names(sdfg: Op<'_>) -> HashSet<String> {
    let mut names = HashSet::new();
    let mut texts = Vec::new();
    for op in sdfg.descendants() {
        if op.ancestor("sdfg.sdfg") != Some(sdfg) {
            continue;
        }
        match op.name() {
            "sdfg.edge" => {
                texts.extend(op.str_attr("condition"));
                texts.extend(op.str_array_attr("assign_values"));
            }
            "sdfg.loop" => texts.extend(
                ["init", "cond", "update"]
                    .iter()
                    .filter_map(|a| op.str_attr(a)),
            ),
            "sdfg.branch" => texts.extend(op.str_attr("condition")),
            _ => {}
        }
    }
    for text in texts {
        names.extend(crate::identifiers(text));
    }
    names
}

/// Whether `value`'s element type may be a symbol's: signless integers
/// (booleans included) and floats; the flag says integral.
fn symbol_type(value: Val<'_>) -> Option<(MlirType, bool)> {
    let container = Container::from_type(value.ty())?;
    let single = container.kind == ContainerKind::Array
        && container.shape.iter().all(|s| s.trim() == "1")
        && container.strides.is_none()
        && container.offset.is_none();
    if container.kind != ContainerKind::Scalar && !single {
        return None;
    }
    let ty = container.element.0;
    // SAFETY: the type is live; its kind is checked before it is read.
    unsafe {
        if mlirTypeIsAInteger(ty) && mlirIntegerTypeIsSignless(ty) {
            Some((ty, true))
        } else if mlirTypeIsAFloat(ty) {
            Some((ty, false))
        } else {
            None
        }
    }
}

fn check<'a>(alloc: Op<'a>, read_on_edges: &HashSet<String>) -> Result<Promotable<'a>, ()> {
    let value = alloc.results()[0];
    let name = alloc.str_attr("name").ok_or(())?.to_string();
    let (_, integral) = symbol_type(value).ok_or(())?;
    if crate::outlives_call(alloc) {
        return Err(());
    }
    if !integral && !read_on_edges.contains(&name) {
        return Err(());
    }
    let mut writes = Vec::new();
    let mut written_states = HashSet::new();
    let uses = value.uses();
    if uses.is_empty() && !read_on_edges.contains(&name) {
        return Err(());
    }
    for (node, operand) in uses {
        let state = node.parent().filter(|p| p.is("sdfg.state")).ok_or(())?;
        if !node.is("sdfg.access") || operand != 0 {
            return Err(());
        }
        if !reads_ok(node.results()[0]) {
            return Err(());
        }
        if node.operands().len() == 1 {
            continue;
        }
        let incoming = node.operand_segment(1);
        let [source] = incoming.as_slice() else {
            return Err(());
        };
        if !node.operand_segment(2).is_empty()
            || !node.operand_segment(3).is_empty()
            || !written_states.insert(state)
        {
            return Err(());
        }
        let memlet = memlet_at(node, 1).ok_or(())?;
        if memlet.wcr != sdfg_dialect::Wcr::None || memlet.dynamic {
            return Err(());
        }
        let producer = source
            .defining_op()
            .filter(|p| p.parent() == Some(state))
            .ok_or(())?;
        let expr = if producer.is("sdfg.access") {
            element_reference(producer, &memlet.subset)?
        } else if producer.is("sdfg.tasklet") {
            tasklet_expression(producer, node)?
        } else {
            return Err(());
        };
        writes.push(Write {
            node,
            producer,
            expr,
        });
    }
    Ok(Promotable {
        alloc,
        name,
        writes,
    })
}

/// Whether every read of `value` goes to a tasklet with an MLIR body,
/// directly or through map scopes, or is a copy of the scalar into an
/// element of a container of the same element type.
fn reads_ok(value: Val<'_>) -> bool {
    value.uses().into_iter().all(|(user, operand)| {
        let inputs = user.operand_segment(0).len();
        match user.name() {
            "sdfg.tasklet" => operand < inputs && user.attr("code").is_none(),
            "sdfg.map" => operand < inputs && reads_ok(user.region_args(0)[operand]),
            "sdfg.access" => {
                let element = |v: Val<'_>| Container::from_type(v.ty()).map(|c| c.element.0.ptr);
                let writes = user.operand_segment(1).len();
                operand >= 1
                    && operand <= writes
                    && element(value).is_some()
                    && element(value) == element(user.operands()[0])
                    && user.parent().is_some_and(|p| p.is("sdfg.state"))
            }
            _ => false,
        }
    })
}

/// `X[subset]` (or `X` for a scalar) for one element of the container of
/// access node `node`, which nothing enters: the value it reads is the
/// value before the state (a node of the same container written elsewhere
/// in the state would be unordered with it, a race DaCe's rule accepts as
/// well).
fn element_reference(node: Op<'_>, subset: &str) -> Result<String, ()> {
    if node.operands().len() != 1 {
        return Err(());
    }
    let data = node.operands()[0];
    let container = Container::from_type(data.ty()).ok_or(())?;
    if matches!(
        container.kind,
        ContainerKind::Stream
            | ContainerKind::View
            | ContainerKind::Reference
            | ContainerKind::Structure
    ) {
        return Err(());
    }
    let parsed = parse_subset(subset).map_err(|_| ())?;
    if parsed
        .ranges()
        .iter()
        .any(|r| r.count().as_int() != Some(1))
    {
        return Err(());
    }
    let name = container_name(data).ok_or(())?;
    if container.kind == ContainerKind::Scalar {
        return Ok(name);
    }
    let index: Vec<String> = parsed
        .ranges()
        .iter()
        .map(|r| r.start.to_string())
        .collect();
    Ok(format!("{name}[{}]", index.join(", ")))
}

/// The expression a one-output tasklet computes into `node`, over DaCe
/// references to its inputs.
fn tasklet_expression(tasklet: Op<'_>, node: Op<'_>) -> Result<String, ()> {
    let results = tasklet.results();
    let [result] = results.as_slice() else {
        return Err(());
    };
    if result.uses().iter().any(|(user, _)| *user != node)
        || tasklet.attr("code").is_some()
        || tasklet.attr("side_effects").is_some()
        || !tasklet.operand_segment(1).is_empty()
        || tasklet.bool_array_attr("by_ref").contains(&true)
    {
        return Err(());
    }
    let mut names: HashMap<Val<'_>, String> = HashMap::new();
    // Inputs whose containers hold unsigned integers: an inter-state
    // expression reads their elements as the nonnegative numbers that
    // zero-extending them gives.
    let mut unsigned: HashSet<Val<'_>> = HashSet::new();
    let args = tasklet.region_args(0);
    for (k, input) in tasklet.operand_segment(0).into_iter().enumerate() {
        let source = input
            .defining_op()
            .filter(|s| s.is("sdfg.access"))
            .ok_or(())?;
        let memlet = memlet_at(tasklet, k).ok_or(())?;
        if memlet.dynamic {
            return Err(());
        }
        let arg = *args.get(k).ok_or(())?;
        let element = Container::from_type(input.ty()).map(|c| c.element.0);
        // SAFETY: the type is live; its kind is checked before it is read.
        if element.is_some_and(|t| unsafe { mlirTypeIsAInteger(t) && mlirIntegerTypeIsUnsigned(t) })
        {
            unsigned.insert(arg);
        }
        names.insert(arg, element_reference(source, &memlet.subset)?);
    }
    for op in tasklet.region_ops(0) {
        let operand = |i: usize| -> Result<String, ()> {
            op.operands()
                .get(i)
                .and_then(|v| names.get(v))
                .cloned()
                .ok_or(())
        };
        let text = match op.name() {
            "sdfg.yield" => return operand(0),
            "arith.constant" => constant(op)?,
            "sdfg.sym" => crate::parenthesized(op.str_attr("expr").ok_or(())?),
            "arith.extsi" | "arith.extf" | "arith.sitofp" => operand(0)?,
            "arith.extui" | "arith.uitofp"
                if op.operands().first().is_some_and(|v| unsigned.contains(v)) =>
            {
                operand(0)?
            }
            "arith.negf" => format!("(-{})", operand(0)?),
            "arith.maxsi" => format!("Max({}, {})", operand(0)?, operand(1)?),
            "arith.minsi" => format!("Min({}, {})", operand(0)?, operand(1)?),
            "arith.cmpi" | "arith.cmpf" => {
                let predicate = comparison(op).ok_or(())?;
                format!("({} {predicate} {})", operand(0)?, operand(1)?)
            }
            name => {
                let symbol = match name {
                    "arith.addi" | "arith.addf" => "+",
                    "arith.subi" | "arith.subf" => "-",
                    "arith.muli" | "arith.mulf" => "*",
                    "arith.divf" => "/",
                    "arith.floordivsi" => "//",
                    "arith.andi" if wide(op) => "&",
                    "arith.ori" if wide(op) => "|",
                    "arith.xori" if wide(op) => "^",
                    "arith.shli" if wide(op) => "<<",
                    "arith.shrsi" if wide(op) => ">>",
                    _ => return Err(()),
                };
                format!("({} {symbol} {})", operand(0)?, operand(1)?)
            }
        };
        let result = op.results().first().copied().ok_or(())?;
        names.insert(result, text);
    }
    Err(())
}

/// Whether an op computes on integers wider than booleans (whose bitwise
/// operators the symbolic language does not mean as `and`/`or`).
fn wide(op: Op<'_>) -> bool {
    op.results().first().is_some_and(|r| {
        // SAFETY: the type is live; its kind is checked before it is read.
        unsafe { mlirTypeIsAInteger(r.ty()) && mlirIntegerTypeGetWidth(r.ty()) > 1 }
    })
}

/// A constant as the symbolic language writes it.
fn constant(op: Op<'_>) -> Result<String, ()> {
    let value = op.attr("value").ok_or(())?;
    // SAFETY: the attribute's kind is checked before it is read.
    unsafe {
        if mlirAttributeIsAInteger(value) {
            return Ok(mlirIntegerAttrGetValueInt(value).to_string());
        }
        if mlirAttributeIsAFloat(value) {
            let v = mlirFloatAttrGetValueDouble(value);
            return if v.is_finite() {
                Ok(format!("{v:?}"))
            } else {
                Err(())
            };
        }
    }
    Err(())
}

/// The Python operator of an `arith.cmpi`/`arith.cmpf` whose meaning is
/// Python's (ordered float comparisons, and `!=` unordered as Python has
/// it; signed integer comparisons).
fn comparison(op: Op<'_>) -> Option<&'static str> {
    let predicate = op.attr("predicate")?;
    // SAFETY: the attribute's kind is checked before it is read.
    let value = unsafe {
        if !mlirAttributeIsAInteger(predicate) {
            return None;
        }
        mlirIntegerAttrGetValueInt(predicate)
    };
    if op.is("arith.cmpi") {
        // eq, ne, slt, sle, sgt, sge
        return match value {
            0 => Some("=="),
            1 => Some("!="),
            2 => Some("<"),
            3 => Some("<="),
            4 => Some(">"),
            5 => Some(">="),
            _ => None,
        };
    }
    // oeq, ogt, oge, olt, ole, une
    match value {
        1 => Some("=="),
        2 => Some(">"),
        3 => Some(">="),
        4 => Some("<"),
        5 => Some("<="),
        13 => Some("!="),
        _ => None,
    }
}

/// Replaces every read of `value` by the symbol `name` of type `ty`: in
/// tasklets an `sdfg.sym` takes the connector's place, and map inputs
/// that carried it go.
fn replace_reads(value: Val<'_>, name: &str, ty: MlirType) {
    let mut uses = value.uses();
    uses.sort_by_key(|u| std::cmp::Reverse(u.1));
    for (user, operand) in uses {
        if user.is("sdfg.access") {
            copy_symbol(user, operand, name, ty);
            continue;
        }
        let arg = user.region_args(0)[operand];
        if user.is("sdfg.map") {
            replace_reads(arg, name, ty);
        } else if let Some(sym) = rewrite::create_sym_at_start(user, name, ty) {
            rewrite::replace_all_uses(arg, sym);
        }
        crate::remove_input(user, operand);
    }
}

/// Replaces the copy of the scalar into access node `dest` (its operand
/// `operand`) by a tasklet that writes the symbol's value there, as
/// DaCe's promotion does: the memlet keeps the destination subset and
/// any write-conflict resolution.
fn copy_symbol(dest: Op<'_>, operand: usize, name: &str, ty: MlirType) {
    let Some(mut memlet) = memlet_at(dest, operand) else {
        return;
    };
    let Some(value) = rewrite::create_symbol_tasklet(dest, "symassign", "__out", name, ty) else {
        return;
    };
    memlet.subset = memlet.other.take().unwrap_or(memlet.subset);
    rewrite::set_operand(dest, operand, value);
    sdfg_dialect::set_memlet_at(dest, operand, &memlet);
}

/// Erases `node` when it is an access node that nothing enters or leaves.
fn erase_if_isolated(node: Op<'_>) {
    if node.is("sdfg.access") && node.operands().len() == 1 && node.results()[0].uses().is_empty() {
        // SAFETY: the node has no uses and is not referred to afterwards.
        unsafe { rewrite::erase(node) };
    }
}

fn promote<'a>(sdfg: Op<'a>, scalar: Promotable<'a>) {
    let value = scalar.alloc.results()[0];
    let Some((ty, _)) = symbol_type(value) else {
        return;
    };
    for write in &scalar.writes {
        let Some(state) = write.node.parent() else {
            continue;
        };
        let (Some(owner), Some(state_name)) = (state.parent(), state.symbol_name()) else {
            continue;
        };
        let mut machine = Machine::new(owner);
        let mut name = format!("{state_name}_{}", scalar.name);
        while machine.block(&name).is_some() {
            name.push('_');
        }
        let state_name = state_name.to_string();
        if rewrite::create_state_before(state, &name).is_none() {
            continue;
        }
        for edge in machine.in_edges(&state_name).to_vec() {
            machine.set_destination(edge, &name);
        }
        rewrite::create_edge(
            owner,
            &name,
            &state_name,
            &[(scalar.name.clone(), write.expr.clone())],
        );
        replace_reads(write.node.results()[0], &scalar.name, ty);
        let mut inputs: Vec<Op<'_>> = Vec::new();
        for input in write
            .producer
            .operands()
            .iter()
            .filter_map(|v| v.defining_op())
        {
            if !inputs.contains(&input) {
                inputs.push(input);
            }
        }
        // SAFETY: the node's readers were rewritten, and the producer only
        // fed the node; neither handle is used again.
        unsafe {
            rewrite::erase(write.node);
            if write.producer.is("sdfg.tasklet") {
                rewrite::erase(write.producer);
                for input in inputs {
                    erase_if_isolated(input);
                }
            } else {
                erase_if_isolated(write.producer);
            }
        }
    }
    for (node, _) in value.uses() {
        replace_reads(node.results()[0], &scalar.name, ty);
        erase_if_isolated(node);
    }
    if value.uses().is_empty() {
        // SAFETY: the container has no uses left.
        unsafe { rewrite::erase(scalar.alloc) };
        rewrite::declare_symbol(sdfg, &scalar.name, ty);
        unsubscript_interstate(sdfg, &scalar.name);
    }
}

/// Replaces the reads `name[0]` of a one-element array that became the
/// symbol `name` in the inter-state expressions of `sdfg` (DaCe's
/// promotion does the same): its only element is the symbol's value.
fn unsubscript_interstate(sdfg: Op<'_>, name: &str) {
    for op in sdfg.descendants() {
        if op.ancestor("sdfg.sdfg") != Some(sdfg) {
            continue;
        }
        let attrs: &[&str] = match op.name() {
            "sdfg.edge" => &["condition", "assign_values"],
            "sdfg.loop" => &["init", "cond", "update"],
            "sdfg.branch" => &["condition"],
            _ => continue,
        };
        for attr in attrs {
            if let Some(text) = op.str_attr(attr) {
                if let Some(new) = unsubscript(text, name) {
                    op.set_attr(attr, rewrite::str_attr(op, &new));
                }
            } else {
                let texts = op.str_array_attr(attr);
                let new: Vec<String> = texts
                    .iter()
                    .map(|t| unsubscript(t, name).unwrap_or_else(|| t.to_string()))
                    .collect();
                if new.iter().zip(&texts).any(|(a, b)| a != b) {
                    let refs: Vec<&str> = new.iter().map(String::as_str).collect();
                    op.set_attr(attr, rewrite::str_array_attr(op, &refs));
                }
            }
        }
    }
}

/// `text` with every subscript of the identifier `name` (`name[...]`)
/// dropped, where it has one.
fn unsubscript(text: &str, name: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut k = 0;
    let mut changed = false;
    while k < chars.len() {
        let starts = (k == 0 || !word(chars[k - 1]))
            && chars[k..].starts_with(&name.chars().collect::<Vec<_>>()[..]);
        let end = k + name.chars().count();
        if starts && chars.get(end).is_none_or(|c| !word(*c)) {
            out.push_str(name);
            let mut j = end;
            while chars.get(j) == Some(&' ') {
                j += 1;
            }
            if chars.get(j) == Some(&'[') {
                let mut depth = 0;
                while j < chars.len() {
                    match chars[j] {
                        '[' => depth += 1,
                        ']' => depth -= 1,
                        _ => {}
                    }
                    j += 1;
                    if depth == 0 {
                        break;
                    }
                }
                changed = true;
                k = j;
            } else {
                k = end;
            }
            continue;
        }
        out.push(chars[k]);
        k += 1;
    }
    changed.then_some(out)
}
