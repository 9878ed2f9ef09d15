//! References (DaCe's `Reference`/`ArrayReference`): containers that the
//! program points at other data while it runs.
//!
//! An access node of a reference with a `bind` edge points it at the
//! source's subset (DaCe's `set` connector: `ref = &A[start]`), and the
//! reference keeps pointing there, across states, until it is pointed
//! elsewhere. The lowering collects the containers the SDFG ever points the
//! reference at (its *targets*) and keeps two `index` variables: which
//! target, and the linear index of the element the reference starts at.
//! Every access node of the reference then reads them and selects the
//! target's memref (`scf.index_switch` when there are several), indexed
//! through the reference's own shape and strides from that base, as DaCe's
//! generated code indexes the pointer.
//!
//! Targets must be arrays that live for the whole function (arguments or
//! transients allocated at entry) of the reference's element type; others
//! are diagnostics, as are reference arguments.

use std::collections::HashMap;

use sdfg_dialect::ir::Op;
use sdfg_dialect::{accessed_container, container_name, incoming_edges, EdgeRole};

use super::types::{Data, Layout, ReferenceVars};
use super::{fail, parse_memlet_subset, Function, Result};

impl<'a> Function<'a, '_> {
    /// Allocates the variables of reference `name` (pointing at its first
    /// target's origin until it is set).
    pub(super) fn allocate_reference(
        &mut self,
        alloc: Op<'a>,
        name: String,
        layout: Layout,
    ) -> Result<'a, Data> {
        let mut targets: Vec<String> = Vec::new();
        let reference = alloc.results()[0];
        // In program order, so that the first target set is target 0.
        for user in alloc.parent().map(|p| p.descendants()).unwrap_or_default() {
            if !user.is("sdfg.access") || accessed_container(user) != Some(reference) {
                continue;
            }
            for edge in incoming_edges(user) {
                if edge.role != EdgeRole::Bind {
                    continue;
                }
                let target = edge
                    .source
                    .defining_op()
                    .filter(|o| o.is("sdfg.access"))
                    .and_then(accessed_container)
                    .and_then(container_name);
                let Some(target) = target else {
                    return fail(
                        user,
                        format!("reference `{name}` is set to something that is not an access node of a container"),
                    );
                };
                if !targets.contains(&target) {
                    targets.push(target);
                }
            }
        }
        let zero = self.body.index(0);
        let selector = self.body.assign("memref.alloca() : memref<index>");
        let base = self.body.assign("memref.alloca() : memref<index>");
        for var in [&selector, &base] {
            self.body
                .line(format!("memref.store {zero}, {var}[] : memref<index>"));
        }
        let mut data = Data::new(name, String::new(), layout);
        data.reference = Some(ReferenceVars {
            selector,
            base,
            targets,
        });
        Ok(data)
    }

    /// The data an access node of a reference reaches: if the node sets the
    /// reference, it first stores the new target and base.
    pub(super) fn reference_data(
        &mut self,
        access: Op<'a>,
        env: &HashMap<String, String>,
        data: Data,
        vars: &ReferenceVars,
    ) -> Result<'a, Data> {
        let name = data.name.clone();
        let mut memrefs = Vec::new();
        for target in &vars.targets {
            let Some(t) = self.function_level_data(target).cloned() else {
                return fail(
                    access,
                    format!("reference `{name}` is set to `{target}`, which does not live for the whole function (only arrays that do can be referenced yet)"),
                );
            };
            if t.scalar || t.stream || t.elem.ty != data.elem.ty {
                return fail(
                    access,
                    format!("reference `{name}` is set to `{target}`, which is not an array of its element type"),
                );
            }
            memrefs.push(t.memref);
        }
        let Some(first) = memrefs.first().cloned() else {
            return fail(access, format!("reference `{name}` is never set"));
        };
        if let Some(edge) = incoming_edges(access)
            .into_iter()
            .find(|e| e.role == EdgeRole::Bind)
        {
            let Some(source) = edge.source.defining_op().filter(|o| o.is("sdfg.access")) else {
                return fail(
                    access,
                    format!("reference `{name}` is set to something that is not data"),
                );
            };
            let target = self.access_data(source, env)?;
            let id = vars
                .targets
                .iter()
                .position(|t| *t == target.name)
                .unwrap_or_default();
            let subset = edge.memlet.map(|m| m.subset).unwrap_or_default();
            let base = if subset.is_empty() {
                match &target.base {
                    Some(b) => b.clone(),
                    None => self.body.index(0),
                }
            } else {
                let start = parse_memlet_subset(access, &subset)?.min_element();
                self.element_index(access, env, &target, &start)?
            };
            let id = self.body.index(id as i64);
            self.body.line(format!(
                "memref.store {id}, {}[] : memref<index>",
                vars.selector
            ));
            self.body.line(format!(
                "memref.store {base}, {}[] : memref<index>",
                vars.base
            ));
        }
        let ty = data.memref_type();
        let memref = if memrefs.len() == 1 {
            first
        } else {
            let selector = self
                .body
                .assign(format!("memref.load {}[] : memref<index>", vars.selector));
            let result = self.body.fresh();
            self.body
                .line(format!("{result} = scf.index_switch {selector} -> {ty}"));
            for (k, memref) in memrefs.iter().enumerate().skip(1) {
                self.body.open(format!("case {k}"));
                self.body.line(format!("scf.yield {memref} : {ty}"));
                self.body.close("");
            }
            self.body.open("default");
            self.body.line(format!("scf.yield {first} : {ty}"));
            self.body.close("");
            result
        };
        let base = self
            .body
            .assign(format!("memref.load {}[] : memref<index>", vars.base));
        Ok(Data {
            memref,
            base: Some(base),
            reference: None,
            ..data
        })
    }
}
