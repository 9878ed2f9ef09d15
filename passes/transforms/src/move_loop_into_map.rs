//! `sdfg-move-loop-into-map`: DaCe's `MoveLoopIntoMap`. A loop whose body
//! is one state holding one map becomes that map around a nested SDFG
//! that runs the loop: the map's threads start once, not once per
//! iteration of the loop, and each runs the whole loop for its points.
//!
//! ```mlir
//! // before
//! sdfg.loop @l var "k" init "1" cond "k < N" update "k + 1" {
//!   sdfg.state @s {
//!     %a = sdfg.access %A
//!     %m = sdfg.map "cols" ["j" = "0:M"] ins("a" = %a["k - 1:k + 1, j"]) outs("A") {
//!       /* A[k, j] = A[k - 1, j] + 1 */
//!       sdfg.exit ("A" = %t["k, j"])
//!     }
//!     %w = sdfg.access %A writes(%m["k, 0:M"])
//!   }
//! }
//! // after
//! sdfg.state @l {
//!   %a = sdfg.access %A
//!   %m = sdfg.map "cols" ["j" = "0:M"] ins("a" = %a["0:N, 0:M"]) outs("A") {
//!     %n = sdfg.nested "l_in_cols" ins("A" = %x["0:N, j"]) outs("A") symbols("M" = "M", "N" = "N", "j" = "j") {
//!       sdfg.sdfg @l_in_cols(%A as "A") symbols {M = i64, N = i64, j = i64, k = i64} {
//!         sdfg.loop @l var "k" init "1" cond "k < N" update "k + 1" {
//!           sdfg.state @s { /* the map's body; its exit became an access node */ }
//!         }
//!       }
//!     }
//!     sdfg.exit ("A" = %n["1:N, j"])
//!   }
//!   %w = sdfg.access %A writes(%m["1:N, 0:M"])
//! }
//! ```
//!
//! # When it is correct
//!
//! Before, iteration `k` of the loop runs all points of the map, and the
//! next iteration starts after all of them; after, each point runs all
//! iterations, and points run at once. The order of the accesses of one
//! point is kept; what changes is that point `p` at iteration `k` may now
//! run before point `q` at an earlier iteration. So the move is correct
//! exactly when no two different points touch a common element, one of
//! them writing it, at any iterations. That is what this pass proves,
//! with ISL ([`Subset::meets_across`]), for every container the map writes:
//! every write against every access, with the loop variable free and
//! independent on the two sides. Points that differ are ordered
//! lexicographically: for the first parameter where they differ, the
//! parameters before it are equal and those after it free on each side.
//! "Unknown" refuses, as do data-dependent subsets.
//!
//! DaCe's own test is weaker: it accepts `A[k, j] = A[k - 1, j + 1]`
//! (each dimension depends on either the loop variable or a parameter),
//! where point `j` reads what point `j + 1` wrote in the previous
//! iteration, which is a race once the loop is inside the map. Here that
//! program keeps its loop.
//!
//! The pass also refuses loops that are not counted, whose body is not one
//! state holding one map with access nodes around it (empty states joined
//! by plain edges aside), whose map's ranges
//! or dynamic inputs read the loop variable, or whose body reads a
//! container by name or uses a transient that lives outside the map.
//! Transients that only the map uses move into the nested SDFG.
//!
//! Options: `label=NAME` (only the loop `@NAME`, with a warning where it
//! does not apply). Without it, every loop is tried, innermost first.
//! `calls-only=true` moves only loops whose map runs one nested SDFG per
//! point and nothing else: `sdfg-auto-optimize` moves those, where each
//! point's work is a call either way and the loop inside it keeps one
//! thread on one column (see there).

use sdfg_analysis::executions::{counted_loop, size_assumptions};
use sdfg_analysis::propagate::touched_subset;
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::{array_of, type_to_string, Op, Val};
use sdfg_dialect::layout::layout;
use sdfg_dialect::{container_name, declared_symbols, memlet_at, rewrite, Memlet};
use sdfg_symbolic::{parse_subset, Expr, Range, Subset, Tri};
use std::collections::{BTreeSet, HashMap, HashSet};

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-move-loop-into-map",
    summary: "Move a loop whose body is one map into that map, as a nested SDFG each map \
              point runs (DaCe's MoveLoopIntoMap), where ISL proves that different points \
              touch different elements; options label, calls-only (only maps whose body is one nested SDFG)",
    op_name: "builtin.module",
    create: || Box::new(MoveLoopIntoMap::default()),
};

const PASS: &str = "sdfg-move-loop-into-map";

/// The pass and its options.
#[derive(Clone, Debug, Default)]
pub struct MoveLoopIntoMap {
    /// Only the loop with this name.
    pub label: Option<String>,
    /// Only loops whose map's body is one nested SDFG.
    pub calls_only: bool,
}

impl RustPass for MoveLoopIntoMap {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        for option in options.split_whitespace() {
            match option.split_once('=') {
                Some(("label", name)) => self.label = Some(name.to_string()),
                Some((key @ "calls-only", value)) => {
                    self.calls_only = crate::bool_option(PASS, key, value)?
                }
                _ => {
                    return Err(format!(
                        "{PASS}: unknown option `{option}` (the options are label=NAME and calls-only=true|false)"
                    ))
                }
            }
        }
        Ok(())
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        move_loops_into_maps(module, self.label.as_deref(), self.calls_only);
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(self.clone())
    }
}

/// Moves every loop under `root` (or only the one named `label`, which
/// gets a warning where it stays) into the map of its body where that is
/// correct, innermost loops first; returns how many moved. With
/// `calls_only`, only loops whose map's body is one nested SDFG.
pub fn move_loops_into_maps(root: Op<'_>, label: Option<&str>, calls_only: bool) -> usize {
    let mut moved = 0;
    let mut refused: HashSet<Op> = HashSet::new();
    loop {
        // Descendants come parents first: the last is the innermost.
        let next = root.descendants().into_iter().rev().find(|o| {
            o.is("sdfg.loop")
                && !refused.contains(o)
                && label.is_none_or(|l| o.symbol_name() == Some(l))
        });
        let Some(lp) = next else {
            break;
        };
        // A loop that moved is the nested SDFG's now, and stays there.
        refused.insert(lp);
        match move_loop_into_map(lp, calls_only) {
            Ok(_) => moved += 1,
            Err(why) => {
                if label.is_some() {
                    lp.emit_warning(format!("{PASS} does not apply: {why}"));
                }
            }
        }
    }
    moved
}

/// A container the map reads or writes, which the nested SDFG takes as an
/// argument.
struct Argument<'a> {
    name: String,
    data: Val<'a>,
    read: bool,
    written: bool,
}

/// The container that access node result `v` stands for.
fn container_of(v: Val<'_>) -> Option<Val<'_>> {
    v.defining_op()
        .filter(|d| d.is("sdfg.access"))
        .and_then(sdfg_dialect::accessed_container)
}

/// Records that the map reads or writes `data`.
fn add_argument<'a>(arguments: &mut Vec<Argument<'a>>, data: Val<'a>, read: bool, written: bool) {
    if let Some(a) = arguments.iter_mut().find(|a| a.data == data) {
        a.read |= read;
        a.written |= written;
    } else {
        arguments.push(Argument {
            name: container_name(data).unwrap_or_default(),
            data,
            read,
            written,
        });
    }
}

/// Moves the loop `lp` into the one map of its body (see the module
/// documentation), with `calls_only` only where that map's body is one
/// nested SDFG; returns the state that holds the map now.
pub fn move_loop_into_map(lp: Op<'_>, calls_only: bool) -> Result<Op<'_>, String> {
    if !lp.is("sdfg.loop") {
        return Err("not a loop region".into());
    }
    let sdfg = lp.ancestor("sdfg.sdfg").ok_or("the loop is in no SDFG")?;
    let asm = size_assumptions(sdfg);
    let (var, counted) = counted_loop(lp, &asm).ok_or("the loop is not counted")?;
    // One state does the work; the others (the empty states a frontend
    // leaves) and the edges between them do nothing.
    let mut working = Vec::new();
    for op in lp.region_ops(0) {
        match op.name() {
            "sdfg.state" if op.region_is_empty(0) => {}
            "sdfg.state" => working.push(op),
            "sdfg.edge" => {
                let condition = op.str_attr("condition").unwrap_or("1");
                if !op.str_array_attr("assign_names").is_empty()
                    || !matches!(condition, "1" | "True" | "true")
                {
                    return Err("an edge of the body has a condition or assignments".into());
                }
            }
            other => return Err(format!("the body holds '{other}'")),
        }
    }
    let [state] = working.as_slice() else {
        return Err(format!(
            "{} states of the body hold dataflow, not one",
            working.len()
        ));
    };
    let nodes = state.region_ops(0);
    let maps: Vec<Op<'_>> = nodes.iter().copied().filter(|n| n.is("sdfg.map")).collect();
    let [map] = maps.as_slice() else {
        return Err(format!("the body holds {} maps, not one", maps.len()));
    };
    let map = *map;
    if calls_only {
        let body: Vec<Op<'_>> = map
            .region_ops(0)
            .into_iter()
            .filter(|o| !o.is("sdfg.exit"))
            .collect();
        if !matches!(body.as_slice(), [n] if n.is("sdfg.nested")) {
            return Err("the map's body is not one nested SDFG (calls-only)".into());
        }
    }
    for node in &nodes {
        if *node == map {
            continue;
        }
        if !node.is("sdfg.access") {
            return Err(format!("the body holds '{}' outside the map", node.name()));
        }
        let feeds_map = node.results()[0].uses().iter().all(|(u, _)| *u == map);
        let written_by_map = node
            .operand_segment(1)
            .iter()
            .all(|v| v.defining_op() == Some(map));
        if !feeds_map || !written_by_map {
            return Err("an access node of the body connects to something besides the map".into());
        }
    }
    if !map.operand_segment(1).is_empty() {
        return Err("the map has dynamic range inputs".into());
    }
    let params: Vec<String> = map
        .str_array_attr("params")
        .into_iter()
        .map(str::to_string)
        .collect();
    let ranges: Vec<Range> = map
        .str_array_attr("ranges")
        .into_iter()
        .map(|r| {
            parse_subset(r)
                .ok()
                .and_then(|s| s.ranges().first().cloned())
                .ok_or_else(|| format!("the map's range `{r}` does not parse"))
        })
        .collect::<Result<_, _>>()?;
    if ranges
        .iter()
        .any(|r| Subset::new(vec![r.clone()]).free_symbols().contains(&var))
    {
        return Err(format!("the map's ranges read `{var}`"));
    }
    let bounds = crate::mentioned_names_of(lp);
    if let Some(name) = sdfg_dialect::containers(sdfg)
        .into_iter()
        .filter_map(container_name)
        .find(|n| bounds.contains(n))
    {
        return Err(format!("the loop's bounds read container `{name}`"));
    }

    // The containers: those the map reads through its inputs and writes
    // through its outputs, and the transients it uses inside.
    let ins = map.operand_segment(0);
    let block_args = map.region_args(0);
    let mut arguments: Vec<Argument> = Vec::new();
    let mut arg_of_input = Vec::new();
    for value in &ins {
        let data = container_of(*value).ok_or("a map input is not an access node")?;
        add_argument(&mut arguments, data, true, false);
        arg_of_input.push(data);
    }
    let mut arg_of_output = Vec::new();
    for result in map.results() {
        let users = result.uses();
        let [(user, _)] = users.as_slice() else {
            return Err("a map output does not go to exactly one access node".into());
        };
        let data =
            sdfg_dialect::accessed_container(*user).ok_or("a map output has no container")?;
        add_argument(&mut arguments, data, false, true);
        arg_of_output.push(data);
    }
    let mut private = Vec::new();
    for op in map.descendants() {
        if !op.is("sdfg.access") || op.ancestor("sdfg.nested").is_some_and(|n| n.is_within(map)) {
            continue;
        }
        let Some(data) = sdfg_dialect::accessed_container(op) else {
            continue;
        };
        let Some(alloc) = data.defining_op().filter(|d| d.is("sdfg.alloc")) else {
            if arguments.iter().any(|a| a.data == data) {
                continue;
            }
            return Err(format!(
                "the map accesses `{}` directly",
                container_name(data).unwrap_or_default()
            ));
        };
        if crate::outlives_call(alloc) || !data.uses().iter().all(|(u, _)| u.is_within(map)) {
            return Err(format!(
                "transient `{}` is used inside the map and outside it",
                container_name(data).unwrap_or_default()
            ));
        }
        if !private.contains(&alloc) {
            private.push(alloc);
        }
    }
    for a in &arguments {
        let shape = layout(a.data.ty())?.shape;
        if shape.iter().any(|s| s.free_symbols().contains(&var)) {
            return Err(format!("the shape of `{}` reads `{var}`", a.name));
        }
    }

    // Different points must touch different elements.
    let lo = counted.range.min_element();
    let hi = counted.range.max_element();
    let other_var = format!("{var}__other");
    let mut asm = asm
        .with_range(&var, lo.clone(), hi.clone())
        .with_range(&other_var, lo, hi);
    for (p, r) in params.iter().zip(&ranges) {
        asm = asm
            .with_range(p, r.min_element(), r.max_element())
            .with_range(&format!("{p}__other"), r.min_element(), r.max_element());
    }
    let accesses = boundary_accesses(map, &block_args, &arg_of_input, &arg_of_output)?;
    for a in arguments.iter().filter(|a| a.written) {
        let mine: Vec<&(Val, Subset, bool)> =
            accesses.iter().filter(|(d, _, _)| *d == a.data).collect();
        for (_, w, _) in mine.iter().filter(|(_, _, write)| *write) {
            for (_, other, _) in &mine {
                for (t, (p, r)) in params.iter().zip(&ranges).enumerate() {
                    let mut renames: HashMap<String, Expr> = params[t + 1..]
                        .iter()
                        .map(|q| (q.clone(), Expr::symbol(&format!("{q}__other"))))
                        .collect();
                    renames.insert(var.clone(), Expr::symbol(&other_var));
                    let shifted = other.substitute(&renames);
                    let meets = w
                        .meets_across(&shifted, p, r, &asm)
                        .map_err(|e| e.to_string())?;
                    if meets != Tri::False {
                        return Err(format!(
                            "different points of the map may touch a common element of `{}`: `{w}` written at one, `{other}` accessed at another (`{p}` differs)",
                            a.name
                        ));
                    }
                }
            }
        }
    }
    build(
        lp,
        sdfg,
        *state,
        map,
        &var,
        &params,
        &arguments,
        &arg_of_input,
        &arg_of_output,
        &private,
    )
}

/// What the map's body reads and writes at its boundary, per container:
/// the memlets of the uses of its inputs, and those of its exit (`true`
/// for writes); for a nested SDFG, what it touches inside its arguments'
/// boxes.
fn boundary_accesses<'a>(
    map: Op<'a>,
    block_args: &[Val<'a>],
    arg_of_input: &[Val<'a>],
    arg_of_output: &[Val<'a>],
) -> Result<Vec<(Val<'a>, Subset, bool)>, String> {
    let parse = |text: &str| parse_subset(text).map_err(|e| format!("memlet `{text}`: {e}"));
    let mut out = Vec::new();
    for (arg, data) in block_args.iter().zip(arg_of_input) {
        for (user, operand) in arg.uses() {
            let memlet = memlet_at(user, operand).ok_or("an input's use has no memlet")?;
            if memlet.dynamic {
                return Err("the map reads through a dynamic memlet".into());
            }
            // A read's subset is on the side of the container it reads.
            // A nested SDFG's is the box its argument starts in; what it
            // reads of it is tighter.
            let touched = Some(user).filter(|u| u.is("sdfg.nested")).and_then(|n| {
                let name = *n.str_array_attr("in_names").get(operand)?;
                touched_subset(n, name, false, &memlet, *data)
            });
            out.push((
                *data,
                touched.map_or_else(|| parse(&memlet.subset), Ok)?,
                false,
            ));
        }
    }
    let exit = crate::scope_exit(map).ok_or("the map has no exit")?;
    let names = map.str_array_attr("out_names");
    for (k, name) in exit.str_array_attr("names").into_iter().enumerate() {
        let index = names
            .iter()
            .position(|n| *n == name)
            .ok_or("an exit entry has no output")?;
        let memlet = memlet_at(exit, k).ok_or("an exit entry has no memlet")?;
        if memlet.dynamic {
            return Err("the map writes through a dynamic memlet".into());
        }
        // A copy out of a buffer (`"0:M" -> "i, 0:M"`) names the
        // written container's subset second.
        let written = memlet.other.as_deref().unwrap_or(&memlet.subset);
        let data = arg_of_output[index];
        let value = exit.operands()[k];
        let touched = value
            .defining_op()
            .filter(|n| n.is("sdfg.nested") && memlet.other.is_none())
            .and_then(|n| {
                let position = n.results().iter().position(|r| *r == value)?;
                let name = *n.str_array_attr("out_names").get(position)?;
                touched_subset(n, name, true, &memlet, data)
            });
        out.push((data, touched.map_or_else(|| parse(written), Ok)?, true));
    }
    Ok(out)
}

/// Makes the nested SDFG in the map, moves the loop into it with the
/// map's body, and moves the map out of the loop.
#[allow(clippy::too_many_arguments)]
fn build<'a>(
    lp: Op<'a>,
    sdfg: Op<'a>,
    state: Op<'a>,
    map: Op<'a>,
    var: &str,
    params: &[String],
    arguments: &[Argument<'a>],
    arg_of_input: &[Val<'a>],
    arg_of_output: &[Val<'a>],
    private: &[Op<'a>],
) -> Result<Op<'a>, String> {
    let ctx = lp.context();
    let label = lp.symbol_name().ok_or("the loop has no name")?.to_string();
    let map_label = map.str_attr("label").unwrap_or("map").to_string();
    let inner_name = format!(
        "{label}_in_{}",
        crate::gpu_transform::identifier(&map_label)
    );

    // The nested SDFG's signature: the containers, the symbols the map
    // names, its parameters and the loop variable.
    let mentioned = crate::mention_counts(map);
    let loop_mentions = crate::mentioned_names_of(lp);
    let declared = declared_symbols(sdfg);
    let mut symbols: BTreeSet<(String, String)> = declared
        .iter()
        .filter(|(n, _)| (mentioned.contains_key(*n) || loop_mentions.contains(*n)) && *n != var)
        .map(|(n, t)| (n.to_string(), type_to_string(*t)))
        .collect();
    for p in params {
        symbols.insert((p.clone(), "i64".into()));
    }
    let var_type = declared
        .iter()
        .find(|(n, _)| *n == var)
        .map(|(_, t)| type_to_string(*t))
        .unwrap_or_else(|| "i64".into());
    let passed: Vec<String> = symbols.iter().map(|(n, _)| n.clone()).collect();
    symbols.insert((var.to_string(), var_type));
    let signature: Vec<String> = arguments
        .iter()
        .enumerate()
        .map(|(k, a)| format!("%a{k}: {} as \"{}\"", type_to_string(a.data.ty()), a.name))
        .collect();
    let symbol_list: Vec<String> = symbols.iter().map(|(n, t)| format!("{n} = {t}")).collect();
    let text = format!(
        "sdfg.sdfg @{inner_name}({}) symbols {{{}}} {{\n}}",
        signature.join(", "),
        symbol_list.join(", ")
    );
    let inner = rewrite::parse_detached(lp, &text)
        .ok_or_else(|| format!("the nested SDFG `{text}` does not parse"))?;
    let inner_args = inner.region_args(0);
    let inner_arg = |data: Val<'a>| {
        arguments
            .iter()
            .position(|a| a.data == data)
            .map(|k| inner_args[k])
    };

    // The map and its access nodes move out of the loop, into a new state.
    let outer =
        rewrite::create_state_before(lp, &crate::fresh_name(sdfg, &format!("{label}_moved")))
            .ok_or("the state could not be made")?;
    for node in state.region_ops(0) {
        rewrite::move_to_end(node, outer);
    }

    // The map's body moves into the loop's state; its exit entries become
    // writes of the nested SDFG's arguments there.
    let exit = crate::scope_exit(map).ok_or("the map has no exit")?;
    let out_names = map.str_array_attr("out_names");
    let exit_names = exit.str_array_attr("names");
    let exit_values = exit.operands();
    // The state reads the nested SDFG's arguments through access nodes,
    // first.
    let mut reads: Vec<(Val<'a>, Val<'a>)> = Vec::new();
    for data in arg_of_input {
        if reads.iter().any(|(d, _)| d == data) {
            continue;
        }
        let arg = inner_arg(*data).ok_or("an input has no argument")?;
        let read = rewrite::create_read_at_end(state, arg).ok_or("a read could not be made")?;
        reads.push((*data, read.results()[0]));
    }
    for op in map.region_ops(0) {
        if op != exit {
            rewrite::move_to_end(op, state);
        }
    }
    for (k, (value, name)) in exit_values.iter().zip(&exit_names).enumerate() {
        let index = out_names
            .iter()
            .position(|n| n == name)
            .ok_or("an exit entry has no output")?;
        let memlet = memlet_at(exit, k).ok_or("an exit entry has no memlet")?;
        let target = inner_arg(arg_of_output[index]).ok_or("an output has no argument")?;
        rewrite::create_op_at_end(
            state,
            "sdfg.access",
            &[target, *value],
            &[
                ("write_memlets", array_of(ctx, &[memlet.to_attr(ctx)])),
                (
                    "operandSegmentSizes",
                    rewrite::segment_sizes(lp, &[1, 1, 0, 0]),
                ),
            ],
            &[target.ty()],
        )
        .ok_or("a write could not be made")?;
    }
    // SAFETY: the exit's values are read by the new writes; nothing else
    // uses the exit.
    unsafe { rewrite::erase(exit) };
    for (arg, data) in map.region_args(0).into_iter().zip(arg_of_input) {
        if let Some((_, read)) = reads.iter().find(|(d, _)| d == data) {
            rewrite::replace_uses_inside(arg, *read, state);
        }
    }

    // The nested SDFG: the loop, with the transients only the map used.
    let read: Vec<&Argument> = arguments.iter().filter(|a| a.read).collect();
    let written: Vec<&Argument> = arguments.iter().filter(|a| a.written).collect();
    let strs = |v: &[&str]| rewrite::str_array_attr(lp, v);
    let in_names: Vec<&str> = read.iter().map(|a| a.name.as_str()).collect();
    let out_names_inner: Vec<&str> = written.iter().map(|a| a.name.as_str()).collect();
    let in_memlets: Vec<_> = read
        .iter()
        .map(|a| crate::whole_subset(a.data).map(|w| Memlet::plain(&w).to_attr(ctx)))
        .collect::<Result<_, _>>()?;
    let in_values: Vec<Val> = read
        .iter()
        .map(|a| {
            let k = arg_of_input
                .iter()
                .position(|d| *d == a.data)
                .ok_or("no input")?;
            Ok::<_, String>(map.region_args(0)[k])
        })
        .collect::<Result<_, _>>()?;
    let passed_refs: Vec<&str> = passed.iter().map(String::as_str).collect();
    let mut nested_attrs = vec![
        ("label", rewrite::str_attr(lp, &inner_name)),
        (
            "operandSegmentSizes",
            rewrite::segment_sizes(lp, &[in_values.len() as i32, 0]),
        ),
        ("out_names", strs(&out_names_inner)),
        ("symbol_names", strs(&passed_refs)),
        ("symbol_values", strs(&passed_refs)),
    ];
    if !in_values.is_empty() {
        nested_attrs.push(("in_names", strs(&in_names)));
        nested_attrs.push(("in_memlets", array_of(ctx, &in_memlets)));
    }
    let out_types: Vec<_> = written.iter().map(|a| a.data.ty()).collect();
    let nested = rewrite::create_scope_at_end(
        map,
        "sdfg.nested",
        &in_values,
        &nested_attrs,
        &out_types,
        &[],
    )
    .ok_or("the nested SDFG could not be made")?;
    rewrite::move_to_end(inner, nested);
    for alloc in private {
        rewrite::move_to_end(*alloc, inner);
    }
    rewrite::move_to_end(lp, inner);
    let exit_memlets: Vec<_> = arg_of_output
        .iter()
        .map(|d| crate::whole_subset(*d).map(|w| Memlet::plain(&w).to_attr(ctx)))
        .collect::<Result<_, _>>()?;
    let exit_values: Vec<Val> = arg_of_output
        .iter()
        .map(|d| {
            let k = written
                .iter()
                .position(|a| a.data == *d)
                .ok_or("no output")?;
            Ok::<_, String>(nested.results()[k])
        })
        .collect::<Result<_, _>>()?;
    rewrite::create_op_at_end(
        map,
        "sdfg.exit",
        &exit_values,
        &[
            ("memlets", array_of(ctx, &exit_memlets)),
            ("names", map.attr("out_names").unwrap_or_else(|| strs(&[]))),
        ],
        &[],
    )
    .ok_or("the map's exit could not be made")?;

    // The loop variable belongs to the nested SDFG now.
    let still_read = sdfg
        .descendants()
        .into_iter()
        .filter(|o| !o.is_within(nested))
        .any(|o| crate::mentioned_names_of(o).contains(var));
    if !still_read {
        rewrite::undeclare_symbol(sdfg, var);
    }
    rewrite::set_symbol_name(outer, &label);
    sdfg_analysis::propagate::propagate_nested(nested);
    sdfg_analysis::propagate::propagate_boundary(map);
    Ok(outer)
}
