//! `sdfg-validate`: DaCe's validation of SDFGs on the sdfg dialect.
//!
//! The dialect's C++ verifiers already enforce what one op can check on its
//! own (edge endpoints, connector names and counts, scope closure, memlet
//! dimensionality). This pass checks the rules that need a view across ops,
//! following DaCe's `validate_sdfg`/`validate_state`:
//!
//! - control-flow block names are unique within an SDFG;
//! - no dangling connectors: every output connector of a tasklet, scope,
//!   nested SDFG or library node has an outgoing edge, and every input
//!   connector of a scope is used inside it;
//! - memlets make sense for their edge: write-conflict resolution only on
//!   writes, an `other` subset only on copies between access nodes, scope
//!   outputs written into access nodes of the same container type;
//! - views are bound to the data they view;
//! - inter-state assignments and loop variables name declared symbols, not
//!   data containers.
//!
//! ```mlir
//! // before and after: the pass changes nothing; on this input it reports
//! //   'sdfg.tasklet' op output connector "o" is dangling
//! %o = sdfg.tasklet "t" outs("o" : f64) code python "o = 1.0"
//! ```

use sdfg_dialect::{
    container_name,
    driver::{PassRegistration, RustPass},
    incoming_edges,
    ir::Op,
    Container, ContainerKind, EdgeRole, Wcr, CONTROL_FLOW_BLOCKS,
};
use std::collections::{HashMap, HashSet};

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
    }
    match reporter.errors {
        0 => Ok(()),
        n => Err(n),
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

fn validate_sdfg(sdfg: Op<'_>, reporter: &mut Reporter) {
    let ops = own_ops(sdfg);
    let symbols: HashSet<String> = declared_symbols(sdfg);
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

    let mut block_names: HashMap<&str, Op<'_>> = HashMap::new();
    for op in &ops {
        if CONTROL_FLOW_BLOCKS.contains(&op.name()) {
            if let Some(name) = op.symbol_name() {
                if block_names.insert(name, *op).is_some() {
                    reporter.error(
                        *op,
                        format!(
                            "block name @{name} is used twice in SDFG @{}",
                            sdfg.symbol_name().unwrap_or("?")
                        ),
                    );
                }
            }
        }
    }

    for op in ops {
        match op.name() {
            "sdfg.edge" => {
                for name in op.str_array_attr("assign_names") {
                    check_symbol_target(op, name, "assigns", &symbols, &containers, reporter);
                }
            }
            "sdfg.loop" => {
                if let Some(var) = op.str_attr("var") {
                    check_symbol_target(
                        op,
                        var,
                        "uses the loop variable",
                        &symbols,
                        &containers,
                        reporter,
                    );
                }
            }
            "sdfg.tasklet" | "sdfg.nested" | "sdfg.library" => {
                check_outputs_used(op, reporter);
                check_input_memlets(op, reporter);
            }
            "sdfg.map" | "sdfg.consume" => {
                check_outputs_used(op, reporter);
                check_input_memlets(op, reporter);
                check_scope_inputs_used(op, reporter);
            }
            "sdfg.access" => check_access(op, reporter),
            _ => {}
        }
    }
}

fn declared_symbols(sdfg: Op<'_>) -> HashSet<String> {
    let Some(dict) = sdfg.attr("symbols") else {
        return HashSet::new();
    };
    // SAFETY: `symbols` is a DictionaryAttr (checked by the op verifier).
    unsafe {
        if !mlir_sys::mlirAttributeIsADictionary(dict) {
            return HashSet::new();
        }
        (0..mlir_sys::mlirDictionaryAttrGetNumElements(dict))
            .map(|i| {
                let named = mlir_sys::mlirDictionaryAttrGetElement(dict, i);
                let name = mlir_sys::mlirIdentifierStr(named.name);
                String::from_utf8_lossy(std::slice::from_raw_parts(
                    name.data as *const u8,
                    name.length,
                ))
                .into_owned()
            })
            .collect()
    }
}

fn check_symbol_target(
    op: Op<'_>,
    name: &str,
    what: &str,
    symbols: &HashSet<String>,
    containers: &HashSet<&str>,
    reporter: &mut Reporter,
) {
    if containers.contains(name) {
        reporter.error(
            op,
            format!("{what} \"{name}\", which is a data container, not a symbol"),
        );
    } else if !symbols.contains(name) {
        reporter.error(
            op,
            format!("{what} \"{name}\", which is not a declared symbol of the SDFG"),
        );
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
    let name = container_name(data).unwrap_or("?");
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
        let views_out = op.results().iter().any(|r| {
            r.uses().iter().any(|(user, _)| {
                user.is("sdfg.access")
                    && user
                        .operands()
                        .first()
                        .and_then(|d| Container::from_type(d.ty()))
                        .is_some_and(|c| c.kind != ContainerKind::View)
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

struct Validate;

impl RustPass for Validate {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        if options.trim().is_empty() {
            Ok(())
        } else {
            Err(format!("sdfg-validate takes no options, got '{options}'"))
        }
    }

    fn run(&mut self, op: Op<'_>) -> Result<(), ()> {
        validate(op).map_err(|_| ())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(Validate)
    }
}

/// The registration of `sdfg-validate`.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-validate",
    summary: "Check DaCe's structural validity rules on every SDFG",
    op_name: "",
    create: || Box::new(Validate),
};
