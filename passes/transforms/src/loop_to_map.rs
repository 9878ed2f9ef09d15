//! `sdfg-loop-to-map`: DaCe's `LoopToMap`: a counted loop region whose
//! iterations are independent becomes a map over the loop's range, with
//! the body a nested SDFG the map calls once per iteration.
//!
//! # When iterations are independent
//!
//! [`sdfg_analysis::iterations`] gives, for each container, what one
//! iteration reads and writes, in terms of the loop variable `i`. Two
//! iterations `i != j` conflict where a write of one meets a read or a
//! write of the other; ISL decides that exactly for quasi-affine subsets
//! (`Subset::meets_across`: `A[i]` against `A[i]` never meets, `A[i + 1]`
//! against `A[i]` does, and `A[i % 4]` may). Only a proof that no two
//! iterations meet lets the loop become a map; "unknown" keeps it, as
//! DaCe's test does.
//!
//! A transient the body alone uses, written in the one state that uses
//! it before every read there (each access node of it is written, and its
//! writes cover what is read from it), carries nothing from one iteration
//! to the next: it moves into the nested SDFG, so each iteration has its
//! own (DaCe's privatisation). A scalar accumulator written in one
//! iteration and read in the next is not such a transient, and keeps the
//! loop.
//!
//! The loop also stays where the body assigns symbols on its inter-state
//! edges (they could carry values between iterations), where it can stop
//! early (`break`, `return`) or `continue`, where the loop variable is
//! read after the loop (a map leaves no last value), and where a
//! condition or assignment in the body reads a container the body writes.
//!
//! ```mlir
//! // before
//! sdfg.loop @l var "i" init "0" cond "i < N" update "i + 1" {
//!   sdfg.state @body { /* B[i] = 2 * A[i] */ }
//! }
//! // after
//! sdfg.state @l {
//!   %a = sdfg.access %A
//!   %m = sdfg.map "l" ["i" = "0:N"] ins("A" = %a["0:N"]) outs("B") {
//!   ^bb0(%x):
//!     %n = sdfg.nested "l_body" ins("A" = %x["i"]) outs("B") symbols("N" = "N", "i" = "i") {
//!       sdfg.sdfg @l_body(%A as "A", %B as "B") symbols {N = i64, i = i64} {
//!         sdfg.state @body { /* B[i] = 2 * A[i] */ }
//!       }
//!     }
//!     sdfg.exit("B" = %n["i"])
//!   }
//!   %b = sdfg.access %B writes(%m["0:N"])
//! }
//! ```
//!
//! The nested SDFG's arguments are whole containers; the memlets are
//! then propagated (nested SDFG, map, in that order), so that they say
//! what each iteration and the whole map touch. `sdfg-simplify` inlines a
//! nested SDFG of one state into the map afterwards, as DaCe does.
//!
//! Options: `label=NAME` (only the loop `@NAME`). Without it, every loop
//! is tried, outermost first; a loop that becomes a map takes the loops
//! inside it along (they stay loops inside the nested SDFG).

use sdfg_analysis::executions::{counted_loop, size_assumptions};
use sdfg_analysis::iterations::{iteration_accesses, IterationAccess};
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::{array_of, type_to_string, Op, Val};
use sdfg_dialect::{container_name, declared_symbols, rewrite, Memlet};
use sdfg_symbolic::{Assumptions, Range, Subset, Tri};
use std::collections::{BTreeSet, HashMap, HashSet};

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-loop-to-map",
    summary: "Turn counted loop regions whose iterations are independent (an ISL dependence test) into maps over nested SDFGs (DaCe's LoopToMap); option label",
    op_name: "builtin.module",
    create: || Box::new(LoopToMap::default()),
};

/// The pass and its options.
#[derive(Clone, Debug, Default)]
pub struct LoopToMap {
    /// Only the loop with this name.
    pub label: Option<String>,
}

const PASS: &str = "sdfg-loop-to-map";

impl RustPass for LoopToMap {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        if let Some(label) = crate::label_option(PASS, options)? {
            self.label = Some(label);
        }
        Ok(())
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        loops_to_maps(module, self.label.as_deref());
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(self.clone())
    }
}

/// Turns every loop under `root` (or only the one named `label`, which
/// gets a warning where it stays) into a map where its iterations are
/// independent, outermost first; returns how many changed.
pub fn loops_to_maps(root: Op<'_>, label: Option<&str>) -> usize {
    let mut changed = 0;
    // Each conversion moves the loops inside it into a new nested SDFG,
    // where they are not tried again: a fresh list after each.
    let mut refused: HashSet<Op> = HashSet::new();
    loop {
        let next = root.descendants().into_iter().find(|o| {
            o.is("sdfg.loop")
                && !refused.contains(o)
                && label.is_none_or(|l| o.symbol_name() == Some(l))
                && !inside_converted(*o)
        });
        let Some(lp) = next else {
            break;
        };
        match loop_to_map(lp) {
            Ok(_) => changed += 1,
            Err(why) => {
                if label.is_some() {
                    lp.emit_warning(format!("{PASS} does not apply: {why}"));
                }
                refused.insert(lp);
            }
        }
    }
    changed
}

/// Whether `op` is in a nested SDFG that a conversion made (its loops
/// are the iterations' own, and stay sequential).
fn inside_converted(op: Op<'_>) -> bool {
    op.ancestor("sdfg.nested")
        .is_some_and(|n| n.attr("loop_to_map").is_some())
}

/// A container the nested SDFG takes as an argument.
struct Argument<'a> {
    name: String,
    data: Val<'a>,
    read: bool,
    written: bool,
}

/// Turns the counted loop `lp` into a map over a nested SDFG (see the
/// module comment); returns the state that replaces it, or why the loop
/// stays.
pub fn loop_to_map(lp: Op<'_>) -> Result<Op<'_>, String> {
    if !lp.is("sdfg.loop") {
        return Err("not a loop region".into());
    }
    if lp.attr("inverted").is_some() {
        return Err("the loop checks its condition after the body".into());
    }
    let sdfg = lp.ancestor("sdfg.sdfg").ok_or("the loop is in no SDFG")?;
    let asm = size_assumptions(sdfg);
    let (var, counted) = counted_loop(lp, &asm).ok_or("the loop is not counted")?;
    // A map's range is symbolic: a bound that reads data keeps the loop.
    let declared: HashSet<&str> = declared_symbols(sdfg).into_iter().map(|(n, _)| n).collect();
    let bound_names = Subset::new(vec![counted.range.clone()]).free_symbols();
    if let Some(name) = bound_names
        .into_iter()
        .find(|n| !declared.contains(n.as_str()))
    {
        return Err(format!(
            "the loop's range reads `{name}`, which is not a symbol"
        ));
    }
    let body: Vec<Op> = lp
        .descendants()
        .into_iter()
        .filter(|o| o.ancestor("sdfg.sdfg") == Some(sdfg))
        .collect();
    if let Some(op) = body
        .iter()
        .find(|o| matches!(o.name(), "sdfg.break" | "sdfg.continue" | "sdfg.return"))
    {
        return Err(format!("the body has '{}'", op.name()));
    }
    if body
        .iter()
        .any(|o| o.is("sdfg.edge") && !o.str_array_attr("assign_names").is_empty())
    {
        return Err("the body assigns symbols".into());
    }
    let inside_names = crate::mention_counts(lp);
    let outside = mention_counts_outside(sdfg, &inside_names);
    if outside.contains(&var) {
        return Err(format!("`{var}` is read after the loop"));
    }
    let accesses = iteration_accesses(lp)?;
    let asm = asm.with_range(
        &var,
        counted.range.min_element(),
        counted.range.max_element(),
    );
    let mut arguments: Vec<Argument> = Vec::new();
    let mut private: Vec<Op> = Vec::new();
    for access in &accesses {
        let name = container_name(access.data).ok_or("a container has no name")?;
        if is_private(access, lp, &name, &outside, &asm) {
            private.extend(access.data.defining_op());
            continue;
        }
        if !access.writes.is_empty() && named_in_strings(lp, &name) {
            return Err(format!(
                "the body writes `{name}` and reads it in a condition"
            ));
        }
        check_independent(access, &name, &var, &counted.range, &asm)?;
        arguments.push(Argument {
            name,
            data: access.data,
            read: !access.reads.is_empty(),
            written: !access.writes.is_empty(),
        });
    }
    // Containers the body names only in conditions and assignments.
    for data in sdfg_dialect::containers(sdfg) {
        let private_here = data.defining_op().is_some_and(|d| private.contains(&d));
        let Some(name) = container_name(data) else {
            continue;
        };
        if !arguments.iter().any(|a| a.data == data) && !private_here && named_in_strings(lp, &name)
        {
            arguments.push(Argument {
                name,
                data,
                read: true,
                written: false,
            });
        }
    }
    if !arguments.iter().any(|a| a.written) {
        return Err("the body writes nothing outside it".into());
    }
    build(
        lp,
        sdfg,
        &var,
        &counted.range,
        &arguments,
        &private,
        &inside_names,
    )
}

/// The names that ops of `sdfg` mention outside the part whose counts are
/// `inside`, other than by declaring a transient.
fn mention_counts_outside(sdfg: Op<'_>, inside: &HashMap<String, usize>) -> HashSet<String> {
    let mut declared: HashMap<String, usize> = HashMap::new();
    for alloc in sdfg
        .region_ops(0)
        .into_iter()
        .filter(|o| o.is("sdfg.alloc"))
    {
        if let Some(name) = alloc.str_attr("name") {
            *declared.entry(name.to_string()).or_default() += 1;
        }
    }
    crate::mention_counts(sdfg)
        .into_iter()
        .filter(|(n, c)| {
            *c > inside.get(n).copied().unwrap_or(0) + declared.get(n).copied().unwrap_or(0)
        })
        .map(|(n, _)| n)
        .collect()
}

/// Whether a string attribute of an op in `lp` (a condition, a loop
/// bound, an assignment) names `name`.
fn named_in_strings(lp: Op<'_>, name: &str) -> bool {
    std::iter::once(lp)
        .chain(lp.descendants())
        .filter(|o| matches!(o.name(), "sdfg.loop" | "sdfg.edge" | "sdfg.branch"))
        .any(|o| crate::mentioned_names_of(o).contains(name))
}

/// Whether the container is a transient each iteration can have its own
/// of: only the body uses it, in one state, and every access node of it
/// there is written, covering what is read from it.
fn is_private(
    access: &IterationAccess<'_>,
    lp: Op<'_>,
    name: &str,
    outside: &HashSet<String>,
    asm: &Assumptions,
) -> bool {
    let Some(alloc) = access.data.defining_op().filter(|a| a.is("sdfg.alloc")) else {
        return false;
    };
    if crate::outlives_call(alloc) || outside.contains(name) || access.states.len() != 1 {
        return false;
    }
    if !access
        .data
        .uses()
        .iter()
        .all(|(user, _)| user.is_within(lp))
    {
        return false;
    }
    access.nodes.iter().all(|node| {
        let writes = node.operand_segment(1);
        if writes.is_empty() {
            return false;
        }
        let memlets: Vec<Option<Memlet>> = (0..writes.len())
            .map(|k| sdfg_dialect::memlet_at(*node, 1 + k))
            .collect();
        let written: Vec<sdfg_symbolic::Subset> = memlets
            .iter()
            .flatten()
            .filter_map(|m| {
                let text = m.other.as_deref().unwrap_or(&m.subset);
                sdfg_symbolic::parse_subset(text).ok()
            })
            .collect();
        let reads = node.results()[0].uses();
        reads.iter().all(|(user, operand)| {
            let Some(memlet) = sdfg_dialect::memlet_at(*user, *operand) else {
                return true;
            };
            let Ok(read) = sdfg_symbolic::parse_subset(&memlet.subset) else {
                return false;
            };
            written
                .iter()
                .any(|w| w.covers(&read, asm) == Ok(Tri::True))
        })
    })
}

/// Checks that no two iterations of the loop over `range` touch a common
/// element of the container where one of them writes it.
fn check_independent(
    access: &IterationAccess<'_>,
    name: &str,
    var: &str,
    range: &Range,
    asm: &Assumptions,
) -> Result<(), String> {
    for w in &access.writes {
        for other in access.writes.iter().chain(&access.reads) {
            let meets = w
                .meets_across(other, var, range, asm)
                .map_err(|e| e.to_string())?;
            if meets != Tri::False {
                return Err(format!(
                    "iterations may both touch `{name}`: `{w}` written, `{other}` accessed in another iteration"
                ));
            }
        }
    }
    Ok(())
}

/// Makes the state with the map and the nested SDFG, moves the body in,
/// and erases the loop.
fn build<'a>(
    lp: Op<'a>,
    sdfg: Op<'a>,
    var: &str,
    range: &Range,
    arguments: &[Argument<'a>],
    private: &[Op<'a>],
    inside_names: &HashMap<String, usize>,
) -> Result<Op<'a>, String> {
    let label = lp.symbol_name().ok_or("the loop has no name")?.to_string();
    let moved_vars: Vec<String> = std::iter::once(lp)
        .chain(lp.descendants())
        .filter(|o| o.is("sdfg.loop"))
        .filter_map(|o| o.str_attr("var").map(str::to_string))
        .collect();
    let ctx = lp.context();
    // The nested SDFG's signature: the containers, and the symbols the
    // body names (with the loop variable).
    let declared = declared_symbols(sdfg);
    let mut symbols: BTreeSet<(String, String)> = declared
        .iter()
        .filter(|(n, _)| inside_names.contains_key(*n) && *n != var)
        .map(|(n, t)| (n.to_string(), type_to_string(*t)))
        .collect();
    let var_type = declared
        .iter()
        .find(|(n, _)| *n == var)
        .map(|(_, t)| type_to_string(*t))
        .unwrap_or_else(|| "i64".into());
    symbols.insert((var.to_string(), var_type));
    let params: Vec<String> = arguments
        .iter()
        .enumerate()
        .map(|(k, a)| format!("%a{k}: {} as \"{}\"", type_to_string(a.data.ty()), a.name))
        .collect();
    let symbol_list: Vec<String> = symbols.iter().map(|(n, t)| format!("{n} = {t}")).collect();
    let body_name = format!("{label}_body");
    let text = format!(
        "sdfg.sdfg @{body_name}({}) symbols {{{}}} {{\n}}",
        params.join(", "),
        symbol_list.join(", ")
    );
    let inner = rewrite::parse_detached(lp, &text)
        .ok_or_else(|| format!("the nested SDFG `{text}` does not parse"))?;
    let wholes: Vec<String> = arguments
        .iter()
        .map(|a| crate::whole_subset(a.data))
        .collect::<Result<_, _>>()?;

    // The state, its reads, the map, the nested SDFG and the writes.
    let state = rewrite::create_state_before(lp, &format!("{label}__map"))
        .ok_or("the state could not be made")?;
    let reads: Vec<(usize, Val)> = arguments
        .iter()
        .enumerate()
        .filter(|(_, a)| a.read)
        .map(|(k, a)| {
            rewrite::create_read_at_end(state, a.data)
                .map(|n| (k, n.results()[0]))
                .ok_or("a read could not be made")
        })
        .collect::<Result<_, _>>()?;
    let written: Vec<usize> = (0..arguments.len())
        .filter(|k| arguments[*k].written)
        .collect();
    let read: Vec<usize> = reads.iter().map(|(k, _)| *k).collect();
    let names =
        |ks: &[usize]| -> Vec<String> { ks.iter().map(|k| arguments[*k].name.clone()).collect() };
    let (in_names, out_names) = (names(&read), names(&written));
    let strs = |v: &[String]| {
        let refs: Vec<&str> = v.iter().map(String::as_str).collect();
        rewrite::str_array_attr(lp, &refs)
    };
    let whole_memlets = |ks: &[usize]| -> Vec<mlir_sys::MlirAttribute> {
        ks.iter()
            .map(|k| Memlet::plain(&wholes[*k]).to_attr(ctx))
            .collect()
    };
    let in_memlets = whole_memlets(&read);
    let out_types: Vec<_> = written.iter().map(|k| arguments[*k].data.ty()).collect();
    let in_values: Vec<Val> = reads.iter().map(|(_, v)| *v).collect();
    let in_types: Vec<_> = in_values.iter().map(|v| v.ty()).collect();
    let mut map_attrs = vec![
        ("label", rewrite::str_attr(lp, &label)),
        ("params", rewrite::str_array_attr(lp, &[var])),
        ("ranges", rewrite::str_array_attr(lp, &[&range.to_string()])),
        (
            "operandSegmentSizes",
            rewrite::segment_sizes(lp, &[in_values.len() as i32, 0, 0]),
        ),
        ("out_names", strs(&out_names)),
    ];
    if !in_values.is_empty() {
        map_attrs.push(("in_names", strs(&in_names)));
        map_attrs.push(("in_memlets", array_of(ctx, &in_memlets)));
    }
    let map = rewrite::create_scope_at_end(
        state, "sdfg.map", &in_values, &map_attrs, &out_types, &in_types,
    )
    .ok_or("the map could not be made")?;
    // The nested SDFG's own loops define their variables: only the
    // others come from outside.
    let symbol_names: Vec<String> = symbols
        .iter()
        .map(|(n, _)| n.clone())
        .filter(|n| n == var || !moved_vars.contains(n))
        .collect();
    let mut nested_attrs = vec![
        ("label", rewrite::str_attr(lp, &body_name)),
        (
            "operandSegmentSizes",
            rewrite::segment_sizes(lp, &[in_values.len() as i32, 0]),
        ),
        ("out_names", strs(&out_names)),
        ("symbol_names", strs(&symbol_names)),
        ("symbol_values", strs(&symbol_names)),
        ("loop_to_map", rewrite::str_attr(lp, &label)),
    ];
    if !in_values.is_empty() {
        nested_attrs.push(("in_names", strs(&in_names)));
        nested_attrs.push(("in_memlets", array_of(ctx, &in_memlets)));
    }
    let nested = rewrite::create_scope_at_end(
        map,
        "sdfg.nested",
        &map.region_args(0),
        &nested_attrs,
        &out_types,
        &[],
    )
    .ok_or("the nested SDFG could not be made")?;
    rewrite::move_to_end(inner, nested);
    let exit_memlets = whole_memlets(&written);
    rewrite::create_op_at_end(
        map,
        "sdfg.exit",
        &nested.results(),
        &[
            ("memlets", array_of(ctx, &exit_memlets)),
            ("names", strs(&out_names)),
        ],
        &[],
    )
    .ok_or("the map's exit could not be made")?;
    for (j, k) in written.iter().enumerate() {
        let data = arguments[*k].data;
        let memlets = [Memlet::plain(&wholes[*k]).to_attr(ctx)];
        rewrite::create_op_at_end(
            state,
            "sdfg.access",
            &[data, map.results()[j]],
            &[
                ("write_memlets", array_of(ctx, &memlets)),
                (
                    "operandSegmentSizes",
                    rewrite::segment_sizes(lp, &[1, 1, 0, 0]),
                ),
            ],
            &[data.ty()],
        )
        .ok_or("a write could not be made")?;
    }

    // The body moves in, reading the arguments, with its private
    // transients.
    for op in lp.region_ops(0) {
        rewrite::move_to_end(op, inner);
    }
    for (arg, value) in arguments.iter().zip(inner.region_args(0)) {
        rewrite::replace_uses_inside(arg.data, value, inner);
    }
    let first = inner.region_ops(0).first().copied();
    for alloc in private {
        match first {
            Some(f) => rewrite::move_before(*alloc, f),
            None => rewrite::move_to_end(*alloc, inner),
        }
    }
    // SAFETY: the loop's region is empty now; no handle to it is used
    // afterwards.
    unsafe { rewrite::erase(lp) };
    // The loop variables are the map's and the nested SDFG's now: the
    // outer SDFG no longer declares them where nothing else reads them.
    let still = mention_counts_outside(sdfg, &crate::mention_counts(map));
    for v in moved_vars.iter().filter(|v| !still.contains(*v)) {
        rewrite::undeclare_symbol(sdfg, v);
    }
    rewrite::set_symbol_name(state, &label);
    sdfg_analysis::propagate::propagate_nested(nested);
    sdfg_analysis::propagate::propagate_boundary(map);
    Ok(state)
}
