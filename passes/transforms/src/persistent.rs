//! `sdfg-make-transients-persistent`: gives the transients that can live
//! across calls the `Persistent` lifetime, as DaCe's
//! `make_transients_persistent` does at the end of `auto_optimize`.
//!
//! A transient with the default `Scope` lifetime is allocated on every
//! call. A large one then costs, on every call, a fresh mapping whose
//! pages fault on first touch (a 1M-element array is 2,000 faults). A
//! persistent one is allocated once and reused (the lowering keeps it in
//! module globals, `convert-sdfg-to-scf`'s `persistent.rs`):
//!
//! ```mlir
//! // before
//! %lap = sdfg.alloc "lap" : !sdfg.array<f64 ["I + 2", "J + 2", "K"]>
//! // after
//! %lap = sdfg.alloc "lap" lifetime Persistent : !sdfg.array<f64 ["I + 2", "J + 2", "K"]>
//! ```
//!
//! DaCe's rules, which this pass follows: the transient is an array or a
//! scalar (not a view, reference, stream or structure), not in `Register`
//! storage and not a constant of the SDFG; its size reads only the SDFG's
//! free symbols (its arguments), not a symbol it assigns; and every access
//! node of it is outside any map or consume scope (DaCe's `toplevel_only`).
//! A transient whose lifetime is not `Scope` keeps it. Unlike DaCe, the
//! pass leaves nested SDFGs alone: a nested SDFG may run in many parallel
//! iterations at once, which one buffer cannot serve, and the lowering
//! allocates a nested SDFG's transients per call anyway.
//!
//! Making a transient persistent tells the other passes that a later call
//! may read it (`crate::outlives_call`): dead-dataflow elimination keeps
//! its writes and scalar-to-symbol leaves it. That is why auto-optimize
//! runs this pass last.

use sdfg_analysis::symbols::assigned_symbols;
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::{dictionary_entries, Op};
use sdfg_dialect::{rewrite, Container, ContainerKind, Lifetime};
use sdfg_symbolic::parse;
use std::collections::BTreeSet;

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-make-transients-persistent",
    summary: "Give the Persistent lifetime to transients allocated outside any scope whose sizes read only the SDFG's arguments, as DaCe's make_transients_persistent",
    op_name: "builtin.module",
    create: || Box::<MakeTransientsPersistent>::default(),
};

/// The pass and its option: `name=NAME` makes only the transient `NAME`
/// persistent, and says why not where it cannot be.
#[derive(Clone, Debug, Default)]
pub struct MakeTransientsPersistent {
    /// Only the transients of this name.
    pub name: Option<String>,
}

impl RustPass for MakeTransientsPersistent {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        const PASS: &str = "sdfg-make-transients-persistent";
        for option in options.split_whitespace() {
            match option.split_once('=') {
                Some(("name", value)) => self.name = Some(value.to_string()),
                _ => {
                    return Err(format!(
                        "{PASS}: unknown option `{option}` (the option is name=NAME)"
                    ))
                }
            }
        }
        Ok(())
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        let Some(name) = &self.name else {
            make_transients_persistent(module);
            return Ok(());
        };
        for (sdfg, allocs) in top_level_transients(module) {
            for alloc in allocs {
                if alloc.str_attr("name") != Some(name.as_str()) {
                    continue;
                }
                if let Err(why) = make_persistent(sdfg, alloc) {
                    alloc.emit_warning(format!(
                        "sdfg-make-transients-persistent does not apply: {why}"
                    ));
                }
            }
        }
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(self.clone())
    }
}

/// Why transient `alloc` of `sdfg` cannot become persistent; `None` if it
/// can. `assigned` are the symbols `sdfg` assigns or iterates, whose
/// values change during a call.
fn why_not_persistent(sdfg: Op<'_>, alloc: Op<'_>, assigned: &BTreeSet<String>) -> Option<String> {
    let name = alloc.str_attr("name").unwrap_or_default();
    let lifetime = alloc
        .attr("lifetime")
        .and_then(Lifetime::from_attr)
        .map_or("Scope", |l| l.name());
    if lifetime != "Scope" {
        return Some(format!("`{name}` already has lifetime {lifetime}"));
    }
    let value = alloc.results()[0];
    let Some(container) = Container::from_type(value.ty()) else {
        return Some(format!("`{name}` is not a data container"));
    };
    if !matches!(container.kind, ContainerKind::Array | ContainerKind::Scalar) {
        return Some(format!("`{name}` is not an array or a scalar"));
    }
    if container.storage.name() == "Register" {
        return Some(format!("`{name}` is in Register storage"));
    }
    let constant = sdfg
        .attr("constants")
        .map(dictionary_entries)
        .unwrap_or_default()
        .iter()
        .any(|(n, _)| *n == name);
    if constant {
        return Some(format!("`{name}` is a constant of the SDFG"));
    }
    let sizes = container
        .shape
        .iter()
        .chain(container.strides.iter().flatten())
        .chain(container.offset.iter().flatten());
    for size in sizes {
        let Ok(expr) = parse(size) else {
            return Some(format!("`{name}` has a size `{size}` that does not parse"));
        };
        if let Some(s) = expr
            .free_symbols()
            .into_iter()
            .find(|s| assigned.contains(s))
        {
            return Some(format!(
                "the size of `{name}` reads `{s}`, which the SDFG assigns"
            ));
        }
    }
    let in_scope = value.uses().into_iter().any(|(user, _)| {
        !user
            .parent()
            .is_some_and(|p| p.is("sdfg.state") || p.is("sdfg.sdfg"))
    });
    if in_scope {
        return Some(format!("`{name}` is accessed inside a scope"));
    }
    None
}

/// The SDFGs under `root` that no other SDFG holds, each with its
/// transients (`sdfg.alloc`).
fn top_level_transients(root: Op<'_>) -> Vec<(Op<'_>, Vec<Op<'_>>)> {
    std::iter::once(root)
        .chain(root.descendants())
        .filter(|op| op.is("sdfg.sdfg") && op.ancestor("sdfg.sdfg").is_none())
        .map(|sdfg| {
            let allocs = sdfg
                .region_ops(0)
                .into_iter()
                .filter(|o| o.is("sdfg.alloc"))
                .collect();
            (sdfg, allocs)
        })
        .collect()
}

/// Gives transient `alloc` of `sdfg` the `Persistent` lifetime, or says
/// why it cannot have it.
pub fn make_persistent(sdfg: Op<'_>, alloc: Op<'_>) -> Result<(), String> {
    persist(sdfg, alloc, &assigned_symbols(sdfg))
}

/// [`make_persistent`], given the symbols `sdfg` assigns
/// ([`assigned_symbols`]).
fn persist(sdfg: Op<'_>, alloc: Op<'_>, assigned: &BTreeSet<String>) -> Result<(), String> {
    if let Some(why) = why_not_persistent(sdfg, alloc, assigned) {
        return Err(why);
    }
    let persistent = Lifetime::from_name("Persistent")
        .ok_or_else(|| "the dialect has no Persistent lifetime".to_string())?;
    alloc.set_attr("lifetime", rewrite::enum_attr(alloc, persistent.0));
    Ok(())
}

/// Makes every transient of the top-level SDFGs under `root` that can be
/// persistent persistent (see the module comment); returns how many
/// changed.
pub fn make_transients_persistent(root: Op<'_>) -> usize {
    top_level_transients(root)
        .into_iter()
        .map(|(sdfg, allocs)| {
            let assigned = assigned_symbols(sdfg);
            allocs
                .into_iter()
                .filter(|alloc| persist(sdfg, *alloc, &assigned).is_ok())
                .count()
        })
        .sum()
}
