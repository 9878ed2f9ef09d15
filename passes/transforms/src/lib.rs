//! Transformations of SDFGs that stay in the sdfg dialect: library-node
//! expansion, the simplify family, the map transformations ([`maps`]),
//! and the other dataflow transformations and auto-optimize as they
//! land, one pass per file.
//!
//! Transformations depend on the dialect, the core libraries, the tasklet
//! translation and the analyses; never on conversions, translations or
//! the execution engine.

#![deny(missing_docs)]

pub mod auto_optimize;
pub mod branch_raising;
pub mod cfg;
pub mod consolidate_edges;
pub mod constant_propagation;
pub mod dead_dataflow_elimination;
pub mod dead_state_elimination;
mod device;
pub mod expand_library;
pub mod fpga_transform;
pub mod gpu_transform;
pub mod inline_multistate;
pub mod inline_sdfgs;
pub mod loop_raising;
pub mod loop_to_map;
pub mod maps;
pub mod memlet_paths;
pub mod move_loop_into_map;
pub mod persistent;
pub mod redundant_array;
pub mod remove_unused_containers;
pub mod remove_unused_symbols;
pub mod scalar_to_symbol;
pub mod simplify;
pub mod state_fusion;
pub mod storage;
pub mod transpose_folding;
pub mod trivial_tasklet;
pub mod view_elimination;

use sdfg_dialect::ir::{array_elements, array_of, attr_str, Op, Val};
use sdfg_dialect::rewrite;
use std::collections::{HashMap, HashSet};

pub(crate) use sdfg_dialect::{identifiers, mention_counts};

/// Accepts an empty option string, for passes without options.
pub(crate) fn no_options(pass: &str, options: &str) -> Result<(), String> {
    if options.trim().is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{pass}: unknown option `{options}` (the pass has none)"
        ))
    }
}

/// The value of the boolean option `key` of `pass`: `true` or `false`,
/// anything else an error that names it.
pub(crate) fn bool_option(pass: &str, key: &str, value: &str) -> Result<bool, String> {
    match value {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("{pass}: {key} `{value}` is not true or false")),
    }
}

/// The `label=NAME` option of a pass whose only option it is (the last
/// one given wins); an error names anything else.
pub(crate) fn label_option(pass: &str, options: &str) -> Result<Option<String>, String> {
    let mut label = None;
    for option in options.split_whitespace() {
        match option.split_once('=') {
            Some(("label", name)) => label = Some(name.to_string()),
            _ => {
                return Err(format!(
                    "{pass}: unknown option `{option}` (the option is label=NAME)"
                ))
            }
        }
    }
    Ok(label)
}

/// Every identifier that appears in a string attribute of an op under
/// `sdfg` (container names as read by conditions, assignments, loop
/// bounds and foreign code), except the names that declare things.
pub(crate) fn mentioned_names(sdfg: Op<'_>) -> HashSet<String> {
    let mut names = HashSet::new();
    for op in std::iter::once(sdfg).chain(sdfg.descendants()) {
        names.extend(mentioned_names_of(op));
    }
    names
}

/// Every identifier in a string attribute of `op` itself, except the
/// names that declare things (see [`mentioned_names`]).
pub(crate) fn mentioned_names_of(op: Op<'_>) -> HashSet<String> {
    let mut names = HashSet::new();
    for (name, attr) in op.attributes() {
        if matches!(
            name,
            "sym_name"
                | "name"
                | "label"
                | "arg_names"
                | "in_names"
                | "out_names"
                | "names"
                | "dyn_names"
        ) {
            continue;
        }
        let strings = attr_str(attr)
            .into_iter()
            .chain(array_elements(attr).into_iter().filter_map(attr_str));
        for text in strings {
            names.extend(identifiers(text));
        }
    }
    names
}

/// The whole extent of a container as a subset (`0` for a scalar).
pub(crate) fn whole_subset(data: Val<'_>) -> Result<String, String> {
    let shape = sdfg_dialect::Container::from_type(data.ty())
        .ok_or("not a data container")?
        .shape;
    if shape.is_empty() {
        return Ok("0".into());
    }
    Ok(shape
        .iter()
        .map(|s| format!("0:{s}"))
        .collect::<Vec<_>>()
        .join(", "))
}

/// The `sdfg.sdfg` that `op` is nested in (the nearest one).
pub(crate) fn enclosing_sdfg(op: Op<'_>) -> Option<Op<'_>> {
    std::iter::successors(op.parent(), |p| p.parent()).find(|p| p.is("sdfg.sdfg"))
}

/// `op` if it is an `sdfg.sdfg`, else the one it is nested in.
pub(crate) fn sdfg_of(op: Op<'_>) -> Option<Op<'_>> {
    if op.is("sdfg.sdfg") {
        Some(op)
    } else {
        enclosing_sdfg(op)
    }
}

/// `expr` in parentheses, unless it is a name, a number or a subscript
/// of a name (`A[i + 1]`), which bind tighter than any operator.
pub(crate) fn parenthesized(expr: &str) -> String {
    let word = |s: &str| {
        s.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
    };
    let subscript = expr.split_once('[').is_some_and(|(name, rest)| {
        // The first `[` must close at the very end.
        let mut depth = 1;
        let closes_at_end = rest.char_indices().all(|(k, c)| {
            match c {
                '[' => depth += 1,
                ']' => depth -= 1,
                _ => {}
            }
            depth > 0 || k == rest.len() - 1
        });
        !name.is_empty() && word(name) && closes_at_end && depth == 0
    });
    if word(expr) || subscript {
        expr.to_string()
    } else {
        format!("({expr})")
    }
}

/// Whether an `sdfg.alloc` outlives one call of the SDFG (DaCe's
/// `Persistent` and `External` lifetimes): its value may be read by a
/// later call, so no write to it is dead and it cannot become a symbol.
pub(crate) fn outlives_call(alloc: Op<'_>) -> bool {
    alloc
        .attr("lifetime")
        .and_then(sdfg_dialect::Lifetime::from_attr)
        .is_some_and(|l| matches!(l.name(), "Persistent" | "External"))
}

/// Removes input connector `index` (operand, name, memlet and block
/// argument) of a tasklet or map.
pub(crate) fn remove_input(op: Op<'_>, index: usize) {
    let segments = if op.is("sdfg.map") { 3 } else { 2 };
    let mut all: Vec<Vec<Val<'_>>> = (0..segments).map(|k| op.operand_segment(k)).collect();
    all[0].remove(index);
    rewrite::set_operand_segments(op, &all);
    let mut names = op.str_array_attr("in_names");
    let mut memlets = op.array_attr("in_memlets");
    if index < names.len() && index < memlets.len() {
        names.remove(index);
        memlets.remove(index);
    }
    if names.is_empty() {
        rewrite::remove_attr(op, "in_names");
        rewrite::remove_attr(op, "in_memlets");
    } else {
        op.set_attr("in_names", rewrite::str_array_attr(op, &names));
        op.set_attr("in_memlets", array_of(op.context(), &memlets));
    }
    rewrite::erase_region_arg(op, index);
}

/// `text` with every identifier that `values` assigns replaced by its
/// value in parentheses (attributes after a `.` are not identifiers).
pub(crate) fn substitute(text: &str, values: &HashMap<&str, &str>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let mut previous = ' ';
    let flush = |word: &mut String, out: &mut String, previous: char| {
        match values.get(word.as_str()) {
            Some(value) if previous != '.' && !word.starts_with(|c: char| c.is_ascii_digit()) => {
                out.push_str(&crate::parenthesized(value));
            }
            _ => out.push_str(word),
        }
        word.clear();
    };
    let mut before_word = ' ';
    for c in text.chars() {
        if c.is_alphanumeric() || c == '_' {
            if word.is_empty() {
                before_word = previous;
            }
            word.push(c);
        } else {
            flush(&mut word, &mut out, before_word);
            out.push(c);
        }
        previous = c;
    }
    flush(&mut word, &mut out, before_word);
    out
}

/// A block or container name not yet used in `sdfg`.
pub(crate) fn fresh_name(sdfg: Op<'_>, base: &str) -> String {
    let taken = crate::mentioned_names(sdfg);
    let declared: std::collections::HashSet<String> = sdfg
        .descendants()
        .into_iter()
        .filter_map(|o| {
            o.symbol_name()
                .map(String::from)
                .or_else(|| o.str_attr("name").map(String::from))
        })
        .chain(
            sdfg.str_array_attr("arg_names")
                .into_iter()
                .map(String::from),
        )
        .collect();
    let mut name = base.to_string();
    let mut n = 0;
    while taken.contains(&name) || declared.contains(&name) {
        n += 1;
        name = format!("{base}_{n}");
    }
    name
}

/// The `sdfg.exit` of a scope (map or consume).
pub(crate) fn scope_exit(scope: Op<'_>) -> Option<Op<'_>> {
    scope.region_ops(0).into_iter().find(|o| o.is("sdfg.exit"))
}

/// The entries of `exit` that write the scope's output `name`.
pub(crate) fn exit_entries(exit: Op<'_>, name: &str) -> Vec<usize> {
    exit.str_array_attr("names")
        .iter()
        .enumerate()
        .filter(|(_, n)| **n == name)
        .map(|(k, _)| k)
        .collect()
}

/// An access node of `container`, before `before`, into which `producer`
/// (a scope's result or another node) writes through `memlet`.
pub(crate) fn write_node<'a>(
    before: Op<'a>,
    container: Val<'a>,
    producer: Val<'a>,
    memlet: &sdfg_dialect::Memlet,
) -> Result<Op<'a>, String> {
    let ctx = before.context();
    rewrite::create_op_before(
        before,
        "sdfg.access",
        &[container, producer],
        &[
            ("write_memlets", array_of(ctx, &[memlet.to_attr(ctx)])),
            (
                "operandSegmentSizes",
                rewrite::segment_sizes(before, &[1, 1, 0, 0]),
            ),
        ],
        &[container.ty()],
        None,
    )
    .ok_or_else(|| "an access node could not be made".to_string())
}
