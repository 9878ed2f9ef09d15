//! `sdfg-validate`: DaCe's validation of SDFGs on the sdfg dialect.
//!
//! The dialect's C++ verifiers already enforce what one op can check on its
//! own (edge endpoints, connector names and counts, scope closure, memlet
//! dimensionality). This pass checks the rules that need a view across ops,
//! following DaCe's `validate_sdfg`/`validate_state`:
//!
//! - no dangling connectors: every output connector of a tasklet, scope,
//!   nested SDFG or library node has an outgoing edge, and every input
//!   connector of a scope is used inside it; no output connector has more
//!   than one, and a scope's outputs lead to access nodes (or to the exit
//!   of the scope around it);
//! - memlet subsets have their container's rank where the IR says which
//!   container they are over: what a tasklet, scope, nested SDFG or library
//!   node writes into an access node, a scope exit's memlets, and both
//!   ends of a copy written with `->`;
//! - a nested SDFG writes only the arguments its caller connects as
//!   outputs, and a connector that is both an input and an output reads
//!   and writes the same container;
//! - memlets make sense for their edge: write-conflict resolution only on
//!   writes, an `other` subset only on copies between access nodes, scope
//!   outputs written into access nodes of the same container type, and a
//!   copy's two subsets hold the same number of elements (reported where
//!   the symbolic engine proves they do not);
//! - views are bound to the data they view;
//! - inter-state assignments and loop variables name symbols, not data
//!   containers (as in DaCe, they define the symbols they assign; block
//!   names are unique per control-flow region, which the regions' symbol
//!   tables already enforce), and no assignment reads a symbol the same
//!   edge assigns (a race, in DaCe's words);
//! - every symbol an expression uses is defined where it is used (in a
//!   nested SDFG: passed by its caller's symbol mapping or assigned
//!   inside), and memlet
//!   subsets that the symbolic engine can prove to lie outside their
//!   container are reported (DaCe's "out of bounds" check, sound: only
//!   definite violations are errors).
//!
//! - host code touches no GPU or FPGA memory element by element: no
//!   inter-state edge, tasklet or dynamic map range outside a scope of
//!   that device reads or writes it (DaCe's accessibility checks;
//!   the `access` module);
//! - library nodes' operands have shapes that fit their class: a
//!   product's inputs agree in the contracted dimension (the `library`
//!   module);
//! - in control-flow order (the `order` module, along every path rather than
//!   DaCe's one traversal): a nested SDFG reads no symbol before some
//!   path assigns it, and no reference is used before some path sets it.
//!
//! The pass also warns about transients that are read but written nowhere,
//! or read before any path writes them (DaCe's "use of uninitialized
//! transient"), about constants whose type is not their container's or
//! symbol's, or that name neither, and about symbols a nested SDFG's
//! caller maps that it never reads, as DaCe warns; the verifiers do not,
//! so that parsing stays quiet.
//!
//! `sdfg-opt` and `sdfg-translate` also run these checks as the last step
//! of every `sdfg.sdfg`'s verifier ([`validate_one`] is installed as the
//! dialect's validator), so SDFGs are validated after parsing and after
//! every pass, as DaCe validates after every transformation; the pass is
//! for explicit use in pipelines and from the Rust API.
//!
//! ```mlir
//! // before and after: the pass changes nothing; on this input it reports
//! //   'sdfg.tasklet' op output connector "o" is dangling
//! %o = sdfg.tasklet "t" outs("o" : f64) code python "o = 1.0"
//! ```

use sdfg_dialect::{
    container_name,
    driver::{Diagnosed, PassRegistration, RustPass},
    incoming_edges,
    ir::{Op, Val},
    layout::layout,
    memlet_at, memlet_slot, Container, ContainerKind, EdgeRole, Lifetime, Wcr,
};
use sdfg_symbolic::parse_subset;
use std::collections::HashSet;

mod access;
mod library;
mod order;

/// Collects validation errors as diagnostics on the offending ops.
struct Reporter {
    errors: usize,
}

impl Reporter {
    fn error(&mut self, op: Op<'_>, message: impl std::fmt::Display) {
        op.emit_error(message);
        self.errors += 1;
    }
}

/// Validates every `sdfg.sdfg` nested in `root` (including `root` itself).
/// Diagnostics are emitted on the offending ops; the error count is
/// returned on failure.
pub fn validate(root: Op<'_>) -> Result<(), usize> {
    let mut reporter = Reporter { errors: 0 };
    let mut sdfgs: Vec<Op<'_>> = root
        .descendants()
        .into_iter()
        .filter(|op| op.is("sdfg.sdfg"))
        .collect();
    if root.is("sdfg.sdfg") {
        sdfgs.insert(0, root);
    }
    for sdfg in sdfgs {
        validate_sdfg(sdfg, &mut reporter);
        check_connectivity(sdfg, &mut reporter);
    }
    match reporter.errors {
        0 => Ok(()),
        n => Err(n),
    }
}

/// DaCe's graph checks that the pass makes and the verifier does not (a
/// pass may leave such a node or block for a later clean-up): an access
/// node with no edge at all ("Isolated node"), and a block with no
/// inter-state edge in a region of several blocks ("Unreachable state").
fn check_connectivity(sdfg: Op<'_>, reporter: &mut Reporter) {
    for op in own_ops(sdfg) {
        if op.is("sdfg.access") && op.operands().len() == 1 && op.results()[0].uses().is_empty() {
            let name = op
                .operands()
                .first()
                .and_then(|c| container_name(*c))
                .unwrap_or_default();
            reporter.error(
                op,
                format!("is an isolated access node of `{name}` (it has no edge)"),
            );
        }
    }
    let mut regions = vec![sdfg];
    regions.extend(own_ops(sdfg).into_iter().filter(|o| {
        matches!(
            o.name(),
            "sdfg.loop" | "sdfg.region" | "sdfg.call_region" | "sdfg.branch"
        )
    }));
    for region in regions {
        let ops = region.region_ops(0);
        let blocks: Vec<Op> = ops
            .iter()
            .copied()
            .filter(|o| o.symbol_name().is_some() && !o.is("sdfg.sdfg"))
            .filter(|o| !matches!(o.name(), "sdfg.alloc" | "sdfg.edge"))
            .collect();
        if blocks.len() < 2 {
            continue;
        }
        let mut linked: HashSet<String> = HashSet::new();
        for edge in ops.iter().filter(|o| o.is("sdfg.edge")) {
            for end in ["src", "dst"] {
                if let Some(name) = edge.symbol_ref_attr(end) {
                    linked.insert(name.to_string());
                }
            }
        }
        for block in blocks {
            let name = block.symbol_name().unwrap_or_default();
            if !linked.contains(name) {
                reporter.error(
                    block,
                    format!(
                        "`{name}` is unreachable: no inter-state edge joins it to the other blocks"
                    ),
                );
            }
        }
    }
}

/// The ops of an SDFG without those of nested SDFGs.
fn own_ops<'a>(sdfg: Op<'a>) -> Vec<Op<'a>> {
    let mut out = Vec::new();
    let mut stack: Vec<Op<'a>> = sdfg.region_ops(0).into_iter().rev().collect();
    while let Some(op) = stack.pop() {
        out.push(op);
        if op.is("sdfg.sdfg") {
            continue;
        }
        for r in (0..op.num_regions()).rev() {
            stack.extend(op.region_ops(r).into_iter().rev());
        }
    }
    out.retain(|op| !op.is("sdfg.sdfg"));
    out
}

/// Validates one `sdfg.sdfg` without the SDFGs nested in it: what the
/// dialect's verifier runs for each SDFG once `sdfg_registry::register_all` has
/// installed it.
pub fn validate_one(sdfg: Op<'_>) -> Result<(), Diagnosed> {
    let mut reporter = Reporter { errors: 0 };
    validate_sdfg(sdfg, &mut reporter);
    match reporter.errors {
        0 => Ok(()),
        _ => Err(Diagnosed),
    }
}

fn validate_sdfg(sdfg: Op<'_>, reporter: &mut Reporter) {
    let ops = own_ops(sdfg);
    // The SDFG's symbols: declared ones, and those that inter-state edges
    // and loops define by assigning them.
    let mut symbols: HashSet<String> = declared_symbols(sdfg);
    for op in &ops {
        if op.is("sdfg.edge") {
            symbols.extend(
                op.str_array_attr("assign_names")
                    .into_iter()
                    .map(String::from),
            );
        } else if let Some(var) = op.is("sdfg.loop").then(|| op.str_attr("var")).flatten() {
            symbols.insert(var.to_string());
        }
    }
    let containers: HashSet<&str> = sdfg
        .str_array_attr("arg_names")
        .into_iter()
        .chain(
            sdfg.region_ops(0)
                .into_iter()
                .filter(|o| o.is("sdfg.alloc"))
                .filter_map(|o| o.str_attr("name")),
        )
        .collect();

    // The size assumptions the library nodes' shapes are compared under.
    let library_asm = ops
        .iter()
        .any(|o| o.is("sdfg.library"))
        .then(|| crate::executions::size_assumptions(sdfg));
    check_symbols(sdfg, &symbols, &containers, reporter);
    order::check_symbols_before_assignment(sdfg, reporter);
    order::check_references_set(sdfg, reporter);
    access::check_accessibility(sdfg, reporter);
    check_names(sdfg, &ops, reporter);
    for op in ops {
        match op.name() {
            "sdfg.edge" => {
                for name in op.str_array_attr("assign_names") {
                    check_symbol_target(op, name, "assigns", &containers, reporter);
                }
                check_assignment_races(op, reporter);
            }
            "sdfg.loop" => {
                if let Some(var) = op.str_attr("var") {
                    check_symbol_target(op, var, "uses the loop variable", &containers, reporter);
                }
            }
            "sdfg.tasklet" | "sdfg.nested" | "sdfg.library" => {
                check_outputs_used(op, reporter);
                check_output_edges(op, reporter);
                check_input_memlets(op, reporter);
                if let (true, Some(asm)) = (op.is("sdfg.library"), &library_asm) {
                    library::check_library(op, asm, reporter);
                }
                if op.is("sdfg.nested") {
                    check_inout_containers(op, reporter);
                    check_nested_endpoints(op, reporter);
                }
            }
            "sdfg.map" | "sdfg.consume" => {
                check_outputs_used(op, reporter);
                check_output_edges(op, reporter);
                check_input_memlets(op, reporter);
                check_scope_inputs_used(op, reporter);
            }
            "sdfg.exit" => check_exit_ranks(op, reporter),
            "sdfg.access" => {
                check_access(op, reporter);
                check_write_ranks(op, reporter);
                check_input_only_writes(op, sdfg, reporter);
            }
            _ => {}
        }
    }
}

/// Whether `name` is a name DaCe accepts (`dtypes.validate_name`): dotted
/// identifiers, not `True`, `False` or `None`.
fn valid_name(name: &str) -> bool {
    !matches!(name, "" | "True" | "False" | "None")
        && name.split('.').all(|token| {
            let mut chars = token.chars();
            chars
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
}

/// DaCe's name checks: the SDFG's, its containers', its blocks' and the
/// symbols its inter-state edges assign must be identifiers; a persistent
/// or external container cannot be a register.
fn check_names(sdfg: Op<'_>, ops: &[Op<'_>], reporter: &mut Reporter) {
    if let Some(name) = sdfg.symbol_name().filter(|n| !valid_name(n)) {
        reporter.error(sdfg, format!("has the invalid name `{name}`"));
    }
    let args = sdfg.region_args(0);
    for (name, arg) in sdfg.str_array_attr("arg_names").into_iter().zip(args) {
        if !valid_name(name) {
            reporter.error(
                sdfg,
                format!("has an argument with the invalid name `{name}`"),
            );
        }
        // DaCe's code generator returns arrays only.
        let scalar =
            Container::from_type(arg.ty()).is_some_and(|c| c.kind == ContainerKind::Scalar);
        if scalar && name.starts_with("__return") {
            reporter.error(
                sdfg,
                format!("returns the scalar `{name}`: a return value must be an array"),
            );
        }
    }
    let symbols = declared_symbols(sdfg);
    for op in ops {
        if op.is("sdfg.alloc") {
            let name = op.str_attr("name").unwrap_or_default();
            if !valid_name(name) {
                reporter.error(
                    *op,
                    format!("declares a container with the invalid name `{name}`"),
                );
            }
            if symbols.contains(name) {
                reporter.error(
                    *op,
                    format!("declares container `{name}`, which is also a symbol of the SDFG"),
                );
            }
            let kind = Container::from_type(op.results()[0].ty()).map(|c| c.kind);
            let scoped = op
                .attr("lifetime")
                .and_then(Lifetime::from_attr)
                .is_none_or(|l| l.name() == "Scope");
            if matches!(kind, Some(ContainerKind::View | ContainerKind::Reference)) && !scoped {
                reporter.error(
                    *op,
                    format!("declares view or reference `{name}` with a lifetime other than Scope"),
                );
            }
            let lifetime = op.attr("lifetime").and_then(Lifetime::from_attr);
            let register =
                layout(op.results()[0].ty()).is_ok_and(|l| l.storage.name() == "Register");
            if register && lifetime.is_some_and(|l| matches!(l.name(), "Persistent" | "External")) {
                reporter.error(
                    *op,
                    format!(
                        "declares `{name}` both persistent or external and in Register storage"
                    ),
                );
            }
        } else if op.is("sdfg.edge") {
            for name in op.str_array_attr("assign_names") {
                if !valid_name(name) {
                    reporter.error(*op, format!("assigns the invalid symbol name `{name}`"));
                }
            }
        } else if matches!(op.name(), "sdfg.state" | "sdfg.loop" | "sdfg.conditional") {
            if let Some(name) = op.symbol_name().filter(|n| !valid_name(n)) {
                reporter.error(*op, format!("has the invalid name `{name}`"));
            }
        } else if matches!(
            op.name(),
            "sdfg.tasklet" | "sdfg.nested" | "sdfg.map" | "sdfg.consume"
        ) {
            check_node_names(*op, reporter);
        }
    }
}

/// A tasklet's, nested SDFG's or scope's label is a name (DaCe's
/// "Invalid tasklet name", "Invalid map name"), so are a tasklet's or
/// nested SDFG's connectors ("Invalid input connector"), and a tasklet
/// has no connector that is both an input and an output ("Duplicate
/// connectors").
fn check_node_names(op: Op<'_>, reporter: &mut Reporter) {
    if let Some(label) = op.str_attr("label").filter(|l| !valid_name(l)) {
        reporter.error(op, format!("has the invalid label `{label}`"));
    }
    // A scope's connectors are DaCe's without their `IN_`/`OUT_` prefix:
    // any suffix makes a name.
    if !matches!(op.name(), "sdfg.tasklet" | "sdfg.nested") {
        return;
    }
    let inputs = op.str_array_attr("in_names");
    let outputs = op.str_array_attr("out_names");
    for (kind, name) in inputs
        .iter()
        .map(|n| ("input", n))
        .chain(outputs.iter().map(|n| ("output", n)))
    {
        if !valid_name(name) {
            reporter.error(
                op,
                format!("has an {kind} connector with the invalid name `{name}`"),
            );
        }
    }
    if op.is("sdfg.tasklet") {
        if let Some(both) = inputs.iter().find(|n| outputs.contains(n)) {
            reporter.error(
                op,
                format!("has \"{both}\" both as an input and as an output connector"),
            );
        }
    }
}

/// A nested SDFG's data comes from access nodes and goes to access nodes
/// (DaCe: "Nested SDFG source/destination nodes must be AccessNodes"),
/// directly or through the scopes around it.
fn check_nested_endpoints(call: Op<'_>, reporter: &mut Reporter) {
    let inputs = call.str_array_attr("in_names");
    for (value, name) in call.operand_segment(0).into_iter().zip(&inputs) {
        if carried_container(value).is_none() {
            reporter.error(
                call,
                format!("input connector \"{name}\" is not fed by an access node"),
            );
        }
    }
    let outputs = call.str_array_attr("out_names");
    for (result, name) in call.results().into_iter().zip(&outputs) {
        if let Some((user, _)) = result
            .uses()
            .into_iter()
            .find(|(u, _)| !u.is("sdfg.access") && !u.is("sdfg.exit"))
        {
            reporter.error(
                call,
                format!(
                    "output connector \"{name}\" leads to a '{}', not to an access node",
                    user.name()
                ),
            );
        }
    }
}

fn declared_symbols(sdfg: Op<'_>) -> HashSet<String> {
    sdfg.attr("symbols")
        .map(dictionary_keys)
        .unwrap_or_default()
        .into_iter()
        .collect()
}

fn check_symbol_target(
    op: Op<'_>,
    name: &str,
    what: &str,
    containers: &HashSet<&str>,
    reporter: &mut Reporter,
) {
    if containers.contains(name) {
        reporter.error(
            op,
            format!("{what} \"{name}\", which is a data container, not a symbol"),
        );
    }
}

/// An inter-state assignment that reads a symbol the same edge assigns
/// is a race, as DaCe's validation says: which value it reads would depend
/// on the order of the edge's assignments.
fn check_assignment_races(edge: Op<'_>, reporter: &mut Reporter) {
    let names = edge.str_array_attr("assign_names");
    for (name, value) in names.iter().zip(edge.str_array_attr("assign_values")) {
        let Ok(expr) = sdfg_symbolic::parse(value) else {
            continue;
        };
        if let Some(other) = names.iter().find(|n| *n != name && expr.mentions(n)) {
            reporter.error(
                edge,
                format!("assignment `{name} = {value}` reads `{other}`, which the same edge assigns (a race)"),
            );
        }
    }
}

fn check_outputs_used(op: Op<'_>, reporter: &mut Reporter) {
    let names = op.str_array_attr("out_names");
    for (i, result) in op.results().into_iter().enumerate() {
        if result.uses().is_empty() {
            let name = names.get(i).copied().unwrap_or("?");
            reporter.error(
                op,
                format!("output connector \"{name}\" is dangling: it has no outgoing edge"),
            );
        }
    }
}

/// Every output connector has at most one outgoing edge (an ordering
/// edge aside), and a scope's outputs lead to access nodes or to the exit
/// of the scope around it, as DaCe's `validate_state` requires.
fn check_output_edges(op: Op<'_>, reporter: &mut Reporter) {
    let names = op.str_array_attr("out_names");
    let scope = op.is("sdfg.map") || op.is("sdfg.consume");
    for (i, result) in op.results().into_iter().enumerate() {
        let name = names.get(i).copied().unwrap_or("?");
        let edges: Vec<Op> = result
            .uses()
            .into_iter()
            .filter(|(user, operand)| memlet_slot(*user, *operand).is_some())
            .map(|(user, _)| user)
            .collect();
        if edges.len() > 1 {
            reporter.error(
                op,
                format!(
                    "output connector \"{name}\" has {} outgoing edges; a connector has at most one",
                    edges.len()
                ),
            );
        }
        if scope {
            if let Some(user) = edges
                .iter()
                .find(|u| !u.is("sdfg.access") && !u.is("sdfg.exit"))
            {
                reporter.error(
                    op,
                    format!(
                        "output connector \"{name}\" leads to a '{}', not to an access node",
                        user.name()
                    ),
                );
            }
        }
    }
}

/// The rank a subset over a container of type `ty` must have: the
/// container's, where it has a plain shape (scalars take one index, or
/// none); `None` for streams and types without a layout.
fn subset_ranks(ty: mlir_sys::MlirType) -> Option<Vec<usize>> {
    let l = layout(ty).ok()?;
    if l.stream {
        return None;
    }
    Some(if l.shape.is_empty() {
        vec![0, 1]
    } else {
        vec![l.shape.len()]
    })
}

/// Reports a subset whose number of dimensions is not the container's.
fn check_rank(
    op: Op<'_>,
    what: &str,
    subset: &str,
    container: mlir_sys::MlirType,
    reporter: &mut Reporter,
) {
    let (Some(ranks), Ok(parsed)) = (subset_ranks(container), parse_subset(subset)) else {
        return;
    };
    if subset.trim().is_empty() || ranks.contains(&parsed.dims()) {
        return;
    }
    reporter.error(
        op,
        format!(
            "{what} subset `{subset}` has {} dimensions, but its container has {}",
            parsed.dims(),
            ranks.iter().max().copied().unwrap_or(0)
        ),
    );
}

/// Whether an edge from `value` is a copy: its source is an access node
/// or a scope's connector (data passed through the scope), so the
/// memlet's subset is over the source's container and `->` names the
/// destination's.
fn is_copy_source(value: Val<'_>) -> bool {
    value.block_arg().is_some() || value.defining_op().is_some_and(|d| d.is("sdfg.access"))
}

/// Checks the ranks of a memlet from `source` into a container of type
/// `destination`: a copy's subset against its source and its `->` subset
/// against the destination (one subset for both ends is not checked: it
/// may describe either), any other memlet against the destination. A
/// memlet that names its data explicitly is over that container.
fn check_edge_ranks(
    op: Op<'_>,
    what: &str,
    memlet: &sdfg_dialect::Memlet,
    source: Val<'_>,
    destination: mlir_sys::MlirType,
    reporter: &mut Reporter,
) {
    if memlet.data.is_some() {
        return;
    }
    if !is_copy_source(source) {
        check_rank(op, what, &memlet.subset, destination, reporter);
    } else if let Some(other) = &memlet.other {
        check_rank(
            op,
            &format!("{what} copy's source"),
            &memlet.subset,
            source.ty(),
            reporter,
        );
        check_rank(
            op,
            &format!("{what} copy's destination"),
            other,
            destination,
            reporter,
        );
    }
}

/// The memlets written into an access node end at its container.
fn check_write_ranks(access: Op<'_>, reporter: &mut Reporter) {
    let Some(data) = access.operands().first().copied() else {
        return;
    };
    for (k, writer) in access.operand_segment(1).into_iter().enumerate() {
        if let Some(memlet) = memlet_at(access, 1 + k) {
            check_edge_ranks(access, "the written", &memlet, writer, data.ty(), reporter);
        }
    }
}

/// The memlets of a scope's exit end at the containers of the scope's
/// outputs.
fn check_exit_ranks(exit: Op<'_>, reporter: &mut Reporter) {
    let Some(scope) = exit.parent() else {
        return;
    };
    let outputs: Vec<(&str, mlir_sys::MlirType)> = scope
        .str_array_attr("out_names")
        .into_iter()
        .zip(scope.results().into_iter().map(|r| r.ty()))
        .collect();
    let values = exit.operands();
    for (k, name) in exit.str_array_attr("names").into_iter().enumerate() {
        let (Some(memlet), Some((_, ty)), Some(value)) = (
            memlet_at(exit, k),
            outputs.iter().find(|(n, _)| *n == name),
            values.get(k),
        ) else {
            continue;
        };
        let what = format!("output \"{name}\"'s");
        check_edge_ranks(exit, &what, &memlet, *value, *ty, reporter);
    }
}

/// A nested SDFG writes only the arguments its caller connects as
/// outputs: a write to an input-only argument would be lost (DaCe: "is
/// written to, but only given to nested SDFG as an input connector").
fn check_input_only_writes(access: Op<'_>, sdfg: Op<'_>, reporter: &mut Reporter) {
    if access.operand_segment(1).is_empty() {
        return;
    }
    let Some(nested) = sdfg.parent().filter(|p| p.is("sdfg.nested")) else {
        return;
    };
    let Some((arg_owner, index)) = access.operands().first().and_then(|d| d.block_arg()) else {
        return;
    };
    if arg_owner != sdfg {
        return;
    }
    let Some(name) = sdfg.str_array_attr("arg_names").get(index).copied() else {
        return;
    };
    let outputs = nested.str_array_attr("out_names");
    if !outputs.contains(&name) {
        reporter.error(
            access,
            format!(
                "writes argument \"{name}\", which the caller connects only as an input of nested SDFG \"{}\"",
                nested.str_attr("label").unwrap_or("?")
            ),
        );
    }
}

/// The container whose data `value` carries: an access node's, or, for a
/// scope's block argument, that of the scope's operand, outward.
fn carried_container(value: Val<'_>) -> Option<Val<'_>> {
    if let Some(node) = value.defining_op() {
        return node
            .is("sdfg.access")
            .then(|| node.operands().first().copied())
            .flatten();
    }
    let (owner, index) = value.block_arg()?;
    if !matches!(owner.name(), "sdfg.map" | "sdfg.consume") {
        return None;
    }
    carried_container(*owner.operands().get(index)?)
}

/// A connector of a nested SDFG that is both an input and an output reads
/// and writes one container (DaCe: "Inout connector ... is connected to
/// different input and output arrays"): the argument is one container
/// inside. Checked where both ends are access nodes, directly or through
/// the scopes around the call.
fn check_inout_containers(call: Op<'_>, reporter: &mut Reporter) {
    let inputs = call.str_array_attr("in_names");
    let operands = call.operand_segment(0);
    for (k, name) in call.str_array_attr("out_names").into_iter().enumerate() {
        let Some(i) = inputs.iter().position(|n| *n == name) else {
            continue;
        };
        let Some(read) = operands.get(i).and_then(|v| carried_container(*v)) else {
            continue;
        };
        for (user, _) in call.results()[k].uses() {
            let written = user
                .is("sdfg.access")
                .then(|| user.operands().first().copied())
                .flatten();
            if let Some(written) = written.filter(|w| *w != read) {
                let name_of = |v: Val<'_>| container_name(v).unwrap_or_else(|| "?".into());
                reporter.error(
                    call,
                    format!(
                        "connector \"{name}\" reads \"{}\" and writes \"{}\": an input and output connector must connect one container",
                        name_of(read),
                        name_of(written)
                    ),
                );
            }
        }
    }
}

/// Warns about transients that are read but written nowhere in their SDFG
/// (DaCe's "use of uninitialized transient"): what they read is
/// undefined. A transient written through a view bound to it, or living
/// longer than one call (`Persistent`, `External`), is not reported.
pub fn warn_uninitialized_transients(sdfg: Op<'_>) -> usize {
    let mut warned = 0;
    for alloc in one_call_transients(sdfg) {
        let value = alloc.results()[0];
        let (mut read, mut written) = (None, false);
        for (access, _) in value.uses() {
            if !access.is("sdfg.access") {
                written = true;
                break;
            }
            written |= !access.operand_segment(1).is_empty();
            for (user, operand) in access.results()[0].uses() {
                match memlet_slot(user, operand) {
                    Some(slot) if slot.attr == "source_memlet" => written = true,
                    Some(_) => read = read.or(Some(access)),
                    None => {}
                }
            }
        }
        if let (Some(access), false) = (read, written) {
            access.emit_warning(format!(
                "reads transient \"{}\", which nothing writes: its values are undefined",
                alloc.str_attr("name").unwrap_or("?")
            ));
            warned += 1;
        }
    }
    warned + order::warn_unwritten_paths(sdfg)
}

/// The allocations of `sdfg`'s transient arrays and scalars that live for
/// one call (not `Persistent` or `External`): those whose values are
/// undefined until the call writes them.
fn one_call_transients(sdfg: Op<'_>) -> Vec<Op<'_>> {
    sdfg.region_ops(0)
        .into_iter()
        .filter(|o| o.is("sdfg.alloc"))
        .filter(|o| {
            let lifetime = o.attr("lifetime").map(sdfg_dialect::ir::attr_to_string);
            !lifetime.is_some_and(|l| l.contains("Persistent") || l.contains("External"))
        })
        .filter(|o| {
            matches!(
                Container::from_type(o.results()[0].ty()).map(|c| c.kind),
                Some(ContainerKind::Array | ContainerKind::Scalar)
            )
        })
        .collect()
}

/// Whether `access` reads the values its container held when its state
/// began: it reads, and nothing writes into it or binds it.
fn reads_state_entry(access: Op<'_>) -> bool {
    access.operand_segment(1).is_empty()
        && access.operand_segment(2).is_empty()
        && access.results()[0]
            .uses()
            .into_iter()
            .any(|(user, operand)| {
                memlet_slot(user, operand).is_some_and(|slot| slot.attr != "source_memlet")
            })
}

/// The transients of `sdfg` (its one-call arrays and scalars) that some
/// op under `op` writes or binds.
fn written_under<'a>(op: Op<'a>, transients: &HashSet<Val<'a>>) -> HashSet<Val<'a>> {
    op.descendants()
        .into_iter()
        .filter(|a| a.is("sdfg.access") && !reads_state_entry(*a))
        .filter_map(|a| a.operands().first().copied())
        .filter(|d| transients.contains(d))
        .collect()
}

fn check_scope_inputs_used(op: Op<'_>, reporter: &mut Reporter) {
    let mut names: Vec<String> = Vec::new();
    if op.is("sdfg.consume") {
        names.push("stream element".into());
    }
    names.extend(
        op.str_array_attr("in_names")
            .iter()
            .map(|n| format!("input connector \"{n}\"")),
    );
    names.extend(
        op.str_array_attr("dyn_names")
            .iter()
            .map(|n| format!("dynamic input \"{n}\"")),
    );
    for (i, arg) in op.region_args(0).into_iter().enumerate() {
        // A dynamic range input may be used only in the ranges.
        let is_dynamic = op.is("sdfg.map") && i >= op.str_array_attr("in_names").len();
        if arg.uses().is_empty() && !is_dynamic && !(op.is("sdfg.consume") && i == 0) {
            let name = names.get(i).cloned().unwrap_or_else(|| "connector".into());
            reporter.error(op, format!("{name} has no edge inside the scope"));
        }
    }
}

fn check_input_memlets(op: Op<'_>, reporter: &mut Reporter) {
    for edge in incoming_edges(op) {
        let Some(memlet) = &edge.memlet else { continue };
        let connector = edge.connector.unwrap_or("?");
        if memlet.wcr != Wcr::None {
            reporter.error(op, format!("input connector \"{connector}\" reads with a write-conflict resolution, which only writes may have"));
        }
        if memlet.other.is_some() {
            reporter.error(op, format!("input connector \"{connector}\" has an 'other' subset, which only copies between access nodes may have"));
        }
    }
}

fn check_access(op: Op<'_>, reporter: &mut Reporter) {
    let Some(data) = op.operands().first().copied() else {
        return;
    };
    let name = container_name(data).unwrap_or_else(|| "?".into());
    let container = Container::from_type(data.ty());
    for edge in incoming_edges(op) {
        let Some(memlet) = &edge.memlet else { continue };
        let from = edge.source.defining_op();
        let from_access = from.is_some_and(|f| f.is("sdfg.access"))
            || edge
                .source
                .block_arg()
                .is_some_and(|(owner, _)| owner.is("sdfg.map") || owner.is("sdfg.consume"));
        if memlet.other.is_some() && !from_access {
            reporter.error(op, format!("write into \"{name}\" has an 'other' subset but does not come from an access node"));
        }
        if edge.role == EdgeRole::Bind && memlet.wcr != Wcr::None {
            reporter.error(
                op,
                format!("binding of \"{name}\" has a write-conflict resolution"),
            );
        }
        if let (Some(source), Some(other)) =
            (from.filter(|_| edge.role == EdgeRole::Input), &memlet.other)
        {
            check_copy_count(op, source, &memlet.subset, other, reporter);
        }
        let from_scope = from.is_some_and(|f| {
            ["sdfg.map", "sdfg.consume", "sdfg.nested", "sdfg.library"].contains(&f.name())
        });
        if from_scope && edge.source.ty().ptr != data.ty().ptr {
            reporter.error(
                op,
                format!(
                    "writes an output of type {} into \"{name}\" of type {}",
                    sdfg_dialect::ir::type_to_string(edge.source.ty()),
                    sdfg_dialect::ir::type_to_string(data.ty())
                ),
            );
        }
    }
    if container.is_some_and(|c| c.kind == ContainerKind::View) {
        let bound = !op.operand_segment(2).is_empty();
        // A view may instead write back into the data it views (possibly
        // another view, which is checked on its own): a use among the
        // `writes` of an access node (operand 0 is the container).
        let views_out = op.results().iter().any(|r| {
            r.uses().iter().any(|(user, index)| {
                user.is("sdfg.access") && (1..=user.operand_segment(1).len()).contains(index)
            })
        });
        if !bound && !views_out {
            reporter.error(
                op,
                format!("view \"{name}\" is not bound to the data it views"),
            );
        }
    }
}

/// A copy from access node `source` into access node `dest` moves as
/// many elements as it reads (DaCe's "Dimensionality mismatch between
/// src/dst subsets"): reported where the symbolic engine proves the two
/// counts different. Streams, which a copy fills or drains element by
/// element, and views, which reshape what they view, are exempt, as in
/// DaCe.
fn check_copy_count(dest: Op<'_>, source: Op<'_>, from: &str, to: &str, reporter: &mut Reporter) {
    let Some(src_data) = source
        .operands()
        .first()
        .copied()
        .filter(|_| source.is("sdfg.access"))
    else {
        return;
    };
    let Some(dst_data) = dest.operands().first().copied() else {
        return;
    };
    // A view writing back into the data it views reshapes it (DaCe only
    // warns there).
    let exempt = |v: Val<'_>| {
        Container::from_type(v.ty()).is_none_or(|c| {
            matches!(
                c.kind,
                ContainerKind::Stream | ContainerKind::View | ContainerKind::Reference
            )
        })
    };
    if exempt(src_data) || exempt(dst_data) {
        return;
    }
    let (Ok(a), Ok(b)) = (parse_subset(from), parse_subset(to)) else {
        return;
    };
    let (count_a, count_b) = (a.volume(), b.volume());
    if sdfg_symbolic::compare_eq(&count_a, &count_b, &sdfg_symbolic::Assumptions::new())
        == sdfg_symbolic::Tri::False
    {
        let name = |v: Val<'_>| container_name(v).unwrap_or_else(|| "?".into());
        reporter.error(
            dest,
            format!(
                "copies {count_a} elements of \"{}\" (`{from}`) into {count_b} elements of \"{}\" (`{to}`)",
                name(src_data),
                name(dst_data)
            ),
        );
    }
}

struct Validate;

impl RustPass for Validate {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        if options.trim().is_empty() {
            Ok(())
        } else {
            Err(format!("sdfg-validate takes no options, got '{options}'"))
        }
    }

    fn run(&mut self, op: Op<'_>) -> Result<(), Diagnosed> {
        // Warnings only here, not in every verifier run.
        for sdfg in std::iter::once(op)
            .chain(op.descendants())
            .filter(|o| o.is("sdfg.sdfg"))
        {
            warn_uninitialized_transients(sdfg);
            warn_constants(sdfg);
        }
        for call in op.descendants().into_iter().filter(|o| o.is("sdfg.nested")) {
            warn_unused_symbol_mapping(call);
        }
        validate(op).map_err(|_| Diagnosed)
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(Validate)
    }
}

/// Warns about the constants of `sdfg` (its `constants` attribute) of
/// another type than the container or symbol of the same name, or that
/// name neither, as DaCe's validation does (a warning there too: much code
/// depends on it); returns how many warnings it gave.
pub fn warn_constants(sdfg: Op<'_>) -> usize {
    let Some(constants) = sdfg.attr("constants") else {
        return 0;
    };
    let symbols: Vec<(&str, mlir_sys::MlirType)> = sdfg_dialect::declared_symbols(sdfg);
    let containers: Vec<(String, mlir_sys::MlirType)> = sdfg_dialect::containers(sdfg)
        .into_iter()
        .filter_map(|v| container_name(v).map(|n| (n.to_string(), v.ty())))
        .collect();
    let mut warned = 0;
    for (name, value) in sdfg_dialect::ir::dictionary_entries(constants) {
        // SAFETY: the attribute is live.
        let ty = unsafe { mlir_sys::mlirAttributeGetType(value) };
        if ty.ptr.is_null() {
            continue;
        }
        let given = sdfg_dialect::ir::type_to_string(ty);
        let expected = if let Some((_, t)) = containers.iter().find(|(n, _)| n == name) {
            layout(*t).ok().map(|l| l.elem.ty)
        } else if let Some((_, t)) = symbols.iter().find(|(n, _)| *n == name) {
            Some(sdfg_dialect::ir::type_to_string(*t))
        } else {
            sdfg.emit_warning(format!(
                "constant \"{name}\" refers to neither a container nor a symbol"
            ));
            warned += 1;
            continue;
        };
        // Array constants (dense elements) are checked by element type.
        let given_elem = given
            .strip_prefix("tensor<")
            .and_then(|t| t.strip_suffix('>'))
            .and_then(|t| t.rsplit('x').next())
            .unwrap_or(&given);
        if let Some(expected) = expected.filter(|e| e != given_elem) {
            sdfg.emit_warning(format!(
                "constant \"{name}\" is {given_elem}, but its container or symbol is {expected}"
            ));
            warned += 1;
        }
    }
    warned
}

/// Warns about symbols a nested SDFG's caller maps that the nested SDFG
/// never reads (DaCe: "maps to unused symbol(s)"); returns whether it
/// warned.
pub fn warn_unused_symbol_mapping(call: Op<'_>) -> bool {
    let Some(inner) = call.region_ops(0).into_iter().find(|o| o.is("sdfg.sdfg")) else {
        return false;
    };
    // The nested SDFG's own attributes name its arguments and declare its
    // symbols (as types, which name nothing), so they never count as a use.
    let used = sdfg_dialect::mention_counts(inner);
    let unused: Vec<&str> = call
        .str_array_attr("symbol_names")
        .into_iter()
        .filter(|n| !used.contains_key(*n))
        .collect();
    if unused.is_empty() {
        return false;
    }
    call.emit_warning(format!(
        "maps symbols the nested SDFG never reads: {}",
        unused.join(", ")
    ));
    true
}

/// The registration of `sdfg-validate`.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-validate",
    summary: "Check DaCe's structural validity rules on every SDFG",
    op_name: "",
    create: || Box::new(Validate),
};

/// Symbolic rules: every symbol an expression uses is defined where it is
/// used (declared on the SDFG, a map parameter or dynamic input in scope, a
/// consume scope's PE index, or, in inter-state conditions and
/// assignments, a data container), and memlet subsets stay inside their
/// containers whenever the symbolic engine can decide it.
mod symbolic {
    use super::Reporter;
    use sdfg_dialect::{
        container_name, incoming_edges,
        ir::{Op, Val},
        underlying_container, Container, ContainerKind, EdgeRole,
    };
    use sdfg_symbolic::{compare_le, parse, parse_subset, Assumptions, Expr, Range, Subset, Tri};
    use std::collections::BTreeSet;

    /// The names visible at a point of an SDFG, and what is known of them.
    #[derive(Clone)]
    pub(super) struct Env {
        pub names: BTreeSet<String>,
        /// Symbols a nested SDFG declares that neither its caller maps
        /// nor it assigns: not defined, and reported as such.
        pub unmapped: BTreeSet<String>,
        pub assumptions: Assumptions,
        /// The parameters of the enclosing maps with their ranges.
        pub params: Vec<(String, Range)>,
    }

    fn range_is_quasi_affine(range: &Range) -> bool {
        [&range.start, &range.end, &range.step, &range.tile]
            .iter()
            .all(|e| e.is_quasi_affine())
    }

    fn report_undefined(
        op: Op<'_>,
        what: &str,
        text: &str,
        used: BTreeSet<String>,
        env: &Env,
        reporter: &mut Reporter,
    ) {
        if let Some(name) = used.iter().find(|n| !env.names.contains(*n)) {
            let why = if env.unmapped.contains(name) {
                " (the nested SDFG declares it, but its caller's symbol mapping does not pass it)"
            } else {
                ""
            };
            reporter.error(
                op,
                format!("{what} \"{text}\" uses undefined symbol \"{name}\"{why}"),
            );
        }
    }

    /// Checks an expression's symbols; returns it when it parses (parse
    /// errors are the verifiers' business).
    pub(super) fn expression(
        op: Op<'_>,
        what: &str,
        text: &str,
        env: &Env,
        reporter: &mut Reporter,
    ) -> Option<Expr> {
        let expr = parse(text).ok()?;
        report_undefined(op, what, text, expr.free_symbols(), env, reporter);
        Some(expr)
    }

    fn subset(
        op: Op<'_>,
        what: &str,
        text: &str,
        env: &Env,
        reporter: &mut Reporter,
    ) -> Option<Subset> {
        let subset = parse_subset(text).ok()?;
        report_undefined(op, what, text, subset.free_symbols(), env, reporter);
        Some(subset)
    }

    /// Reports a subset that is provably outside `container`.
    fn bounds(
        op: Op<'_>,
        text: &str,
        subset: &Subset,
        data: Val<'_>,
        dynamic: bool,
        env: &Env,
        reporter: &mut Reporter,
    ) {
        let Some(container) = Container::from_type(data.ty()) else {
            return;
        };
        if container.offset.is_some()
            || container.kind == ContainerKind::Stream
            || container.kind == ContainerKind::Scalar
            || container.shape.len() != subset.dims()
        {
            return;
        }
        let name = container_name(underlying_container(data)).unwrap_or_else(|| "?".into());
        let Ok(sizes) = container
            .shape
            .iter()
            .map(|s| parse(s))
            .collect::<Result<Vec<Expr>, _>>()
        else {
            return;
        };
        // The first dimension where the bounds are not proven (`want` is
        // `True`) or are proven violated (`want` is `False`).
        let first_failing = |accessed: &Subset, want: Tri| -> Option<usize> {
            let dims = sizes
                .iter()
                .zip(accessed.min_element())
                .zip(accessed.max_element());
            for (k, ((size, low), high)) in dims.enumerate() {
                let last = Expr::sub(size, &Expr::int(1));
                let below = compare_le(&Expr::int(0), &low, &env.assumptions);
                let above = compare_le(&high, &last, &env.assumptions);
                let fails = match want {
                    Tri::True => below != Tri::True || above != Tri::True,
                    _ => below == Tri::False || above == Tri::False,
                };
                if fails {
                    return Some(k);
                }
            }
            None
        };
        // Cheap first: with the map parameters' ranges as assumptions, most
        // subsets are proven inside without computing an image.
        if first_failing(subset, Tri::True).is_none() {
            return;
        }
        // Over the enclosing maps' parameters, the exact image of a
        // quasi-affine subset gives the elements really accessed; anything
        // else is checked as it stands, for all parameter values. (An
        // over-approximated image proves nothing: strided tiles' `i:i + 32`
        // over `i` in `tile_i:N:96` is bounded by `N + 31`, though no `i`
        // reaches past `N - 32` where `N` is a multiple of 32.)
        let exact = subset
            .ranges()
            .iter()
            .chain(env.params.iter().map(|(_, r)| r))
            .all(range_is_quasi_affine);
        let image = match exact {
            true => subset.exact_image(&env.params, &env.assumptions),
            false => None,
        };
        let accessed = image.as_ref().unwrap_or(subset);
        if let Some(k) = first_failing(accessed, Tri::False) {
            let message = format!(
                "memlet subset \"{text}\" is out of bounds of \"{name}\" in dimension {k} (size {})",
                sizes[k]
            );
            // A dynamic memlet may touch fewer elements than its subset:
            // DaCe only warns.
            if dynamic {
                op.emit_warning(format!("{message}, where the dynamic memlet accesses it"));
            } else {
                reporter.error(op, message);
            }
        }
    }

    /// The container a memlet's subset indexes, for an edge into `op`.
    fn indexed_container<'a>(
        op: Op<'a>,
        source: Val<'a>,
        role: EdgeRole,
        connector: Option<&str>,
    ) -> (Option<Val<'a>>, Option<Val<'a>>) {
        let is_container = |v: Val<'_>| Container::from_type(v.ty()).is_some();
        match (op.name(), role) {
            ("sdfg.access", EdgeRole::Input) => {
                let data = op.results().first().copied();
                if is_container(source) {
                    (Some(source), data)
                } else {
                    (data, None)
                }
            }
            ("sdfg.exit", _) => {
                let scope = op.parent();
                let output = scope.and_then(|s| {
                    let names = s.str_array_attr("out_names");
                    let index = names.iter().position(|n| Some(*n) == connector)?;
                    s.results().get(index).copied()
                });
                (output, None)
            }
            _ => (is_container(source).then_some(source), None),
        }
    }

    /// Checks the memlets of the edges into a dataflow op.
    pub(super) fn memlets(op: Op<'_>, env: &Env, reporter: &mut Reporter) {
        for edge in incoming_edges(op) {
            let Some(memlet) = &edge.memlet else { continue };
            let (data, other_data) = indexed_container(op, edge.source, edge.role, edge.connector);
            if let Some(parsed) = subset(op, "memlet subset", &memlet.subset, env, reporter) {
                if let Some(data) = data {
                    bounds(
                        op,
                        &memlet.subset,
                        &parsed,
                        data,
                        memlet.dynamic,
                        env,
                        reporter,
                    );
                }
            }
            if let Some(other) = &memlet.other {
                if let (Some(parsed), Some(data)) = (
                    subset(op, "memlet subset", other, env, reporter),
                    other_data,
                ) {
                    bounds(op, other, &parsed, data, false, env, reporter);
                }
            }
            if let Some(volume) = &memlet.volume {
                expression(op, "memlet volume", volume, env, reporter);
            }
        }
    }

    /// The environment inside a map: its parameters (with their ranges as
    /// assumptions) and dynamic inputs.
    pub(super) fn map_scope(op: Op<'_>, env: &Env, reporter: &mut Reporter) -> Env {
        let mut ranges_env = env.clone();
        ranges_env
            .names
            .extend(op.str_array_attr("dyn_names").into_iter().map(String::from));
        let mut inner = ranges_env.clone();
        for (param, range) in op
            .str_array_attr("params")
            .into_iter()
            .zip(op.str_array_attr("ranges"))
        {
            inner.names.insert(param.to_string());
            if let Some(parsed) = subset(op, "map range", range, &ranges_env, reporter) {
                if let (Some(low), Some(high)) =
                    (parsed.min_element().pop(), parsed.max_element().pop())
                {
                    inner.assumptions = inner.assumptions.with_range(param, low, high);
                }
                if let Some(range) = parsed.ranges().first() {
                    inner.params.push((param.to_string(), range.clone()));
                }
            }
        }
        inner
    }

    /// The environment inside a consume scope: its PE index, and the count
    /// of elements taken when it takes chunks.
    pub(super) fn consume_scope(op: Op<'_>, env: &Env, reporter: &mut Reporter) -> Env {
        let mut inner = env.clone();
        if sdfg_dialect::consume_chunk_size(op).is_some() {
            let label = op.str_attr("label").unwrap_or_default();
            inner.names.insert(sdfg_dialect::chunk_count_symbol(label));
        }
        let pes = op
            .str_attr("num_pes")
            .and_then(|n| expression(op, "number of processing elements", n, env, reporter));
        if let Some(pe) = op.str_attr("pe") {
            inner.names.insert(pe.to_string());
            if let Some(pes) = pes {
                inner.assumptions =
                    inner
                        .assumptions
                        .with_range(pe, Expr::int(0), Expr::sub(&pes, &Expr::int(1)));
            }
        }
        // Each processing element evaluates it with its own index.
        if let Some(text) = op.str_attr("quiescence") {
            expression(op, "quiescence", text, &inner, reporter);
        }
        inner
    }
}

/// Walks a control-flow region, checking symbolic strings against `env`.
fn check_symbols_in_region(
    owner: Op<'_>,
    env: &symbolic::Env,
    data_env: &symbolic::Env,
    reporter: &mut Reporter,
) {
    for op in owner.region_ops(0) {
        match op.name() {
            "sdfg.edge" => {
                if let Some(condition) = op.str_attr("condition") {
                    symbolic::expression(op, "condition", condition, data_env, reporter);
                }
                for value in op.str_array_attr("assign_values") {
                    symbolic::expression(op, "assignment", value, data_env, reporter);
                }
            }
            "sdfg.loop" => {
                // The loop variable is defined inside the loop even when the
                // SDFG does not declare it (that is reported separately).
                let (mut env, mut data_env) = (env.clone(), data_env.clone());
                if let Some(init) = op.str_attr("init") {
                    symbolic::expression(op, "init", init, &data_env, reporter);
                }
                if let Some(var) = op.str_attr("var") {
                    env.names.insert(var.to_string());
                    data_env.names.insert(var.to_string());
                }
                for what in ["cond", "update"] {
                    if let Some(text) = op.str_attr(what) {
                        symbolic::expression(op, what, text, &data_env, reporter);
                    }
                }
                check_symbols_in_region(op, &env, &data_env, reporter);
            }
            "sdfg.conditional" => {
                for branch in op.region_ops(0) {
                    if let Some(condition) = branch.str_attr("condition") {
                        symbolic::expression(branch, "condition", condition, data_env, reporter);
                    }
                    check_symbols_in_region(branch, env, data_env, reporter);
                }
            }
            "sdfg.region" | "sdfg.call_region" => {
                check_symbols_in_region(op, env, data_env, reporter)
            }
            "sdfg.state" => check_symbols_in_dataflow(op, env, reporter),
            _ => {}
        }
    }
}

/// Walks the dataflow ops of a state or scope region.
fn check_symbols_in_dataflow(owner: Op<'_>, env: &symbolic::Env, reporter: &mut Reporter) {
    for op in owner.region_ops(0) {
        symbolic::memlets(op, env, reporter);
        match op.name() {
            "sdfg.map" => {
                let inner = symbolic::map_scope(op, env, reporter);
                check_symbols_in_dataflow(op, &inner, reporter);
            }
            "sdfg.consume" => {
                let inner = symbolic::consume_scope(op, env, reporter);
                check_symbols_in_dataflow(op, &inner, reporter);
            }
            "sdfg.nested" => {
                for value in op.str_array_attr("symbol_values") {
                    symbolic::expression(op, "symbol mapping", value, env, reporter);
                }
            }
            "sdfg.tasklet" => {
                for sym in op.descendants().into_iter().filter(|d| d.is("sdfg.sym")) {
                    if let Some(text) = sym.str_attr("expr") {
                        symbolic::expression(sym, "expression", text, env, reporter);
                    }
                }
            }
            _ => {}
        }
    }
}

/// Checks the symbolic strings of one SDFG (not of its nested SDFGs).
fn check_symbols(
    sdfg: Op<'_>,
    symbols: &HashSet<String>,
    containers: &HashSet<&str>,
    reporter: &mut Reporter,
) {
    let mut names: std::collections::BTreeSet<String> = symbols.iter().cloned().collect();
    if let Some(constants) = sdfg.attr("constants") {
        names.extend(dictionary_keys(constants));
    }
    let mut shapes = Vec::new();
    // A nested SDFG's symbols come from its caller's mapping (DaCe's
    // "missing symbols on nested SDFG") or from its own assignments.
    let mut unmapped = std::collections::BTreeSet::new();
    if let Some(call) = sdfg.parent().filter(|p| p.is("sdfg.nested")) {
        let mapped = call.str_array_attr("symbol_names");
        let assigned: HashSet<String> = own_ops(sdfg)
            .into_iter()
            .flat_map(order::assigned_by)
            .collect();
        for name in declared_symbols(sdfg) {
            if !mapped.contains(&name.as_str()) && !assigned.contains(&name) {
                names.remove(&name);
                unmapped.insert(name);
            }
        }
    }
    let mut env = symbolic::Env {
        names,
        unmapped,
        assumptions: sdfg_symbolic::Assumptions::new(),
        params: Vec::new(),
    };
    let args = sdfg.region_args(0).into_iter().map(|a| (sdfg, a));
    let allocs = sdfg
        .region_ops(0)
        .into_iter()
        .filter(|o| o.is("sdfg.alloc"))
        .filter_map(|o| o.results().first().map(|r| (o, *r)));
    for (op, value) in args.chain(allocs).collect::<Vec<_>>() {
        let Some(container) = Container::from_type(value.ty()) else {
            continue;
        };
        let name = container_name(value).unwrap_or_else(|| "?".into());
        let lists = [
            Some(&container.shape),
            container.strides.as_ref(),
            container.offset.as_ref(),
        ];
        for text in lists
            .into_iter()
            .flatten()
            .flatten()
            .chain(container.buffer.as_ref())
        {
            let what = format!("type of \"{name}\": expression");
            if let Some(expr) = symbolic::expression(op, &what, text, &env, reporter) {
                shapes.push(expr);
            }
        }
    }
    env.assumptions = sdfg_symbolic::Assumptions::for_array_sizes(&shapes);
    let mut data_env = env.clone();
    data_env
        .names
        .extend(containers.iter().map(|c| c.to_string()));
    check_symbols_in_region(sdfg, &env, &data_env, reporter);
}

fn dictionary_keys(dict: mlir_sys::MlirAttribute) -> Vec<String> {
    sdfg_dialect::ir::dictionary_entries(dict)
        .into_iter()
        .map(|(name, _)| name.to_string())
        .collect()
}
