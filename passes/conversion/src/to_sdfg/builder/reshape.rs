//! `memref.expand_shape` and `memref.collapse_shape`: views of the same
//! elements under another shape, as DaCe's reshaping views are. No
//! container is made: an access through the view is an access of the
//! reshaped memref at the indices the reshape maps it to, so memlets stay
//! exact.
//!
//! Both ops group dimensions (`reassociation`). Expanding a dimension of
//! size `N * M` into `[N, M]` reads its element `(i, j)` at `i * M + j`;
//! collapsing `[N, M]` into one dimension reads its element `k` at
//! `(k // M, k % M)`, row-major within each group, as the ops define
//! them on contiguous groups.
//!
//! ```mlir
//! // before
//! %v = memref.expand_shape %x [[0, 1]] output_shape [4, 8]
//!        : memref<32xf64> into memref<4x8xf64>
//! %e = memref.load %v[%i, %j] : memref<4x8xf64>
//! // after: the load's memlet is x["8*i + j"]
//! ```
//!
//! A reshaped view used whole (a copy, a call, a library node, a subview
//! of it) is a diagnostic for now: its elements are not a rectangle of
//! the container in general.

use std::collections::HashMap;

use sdfg_dialect::ir::{array_elements, Op};
use sdfg_symbolic::Expr;

use super::{memref_shape_any_layout, Alias, Sdfg};
use crate::to_sdfg::{fail, values::int_attr, Result};

/// A reshaped view: the view it reshapes, and that view's indices as
/// expressions of the placeholders `__reshape0`, `__reshape1`, ... (this
/// view's indices).
#[derive(Clone)]
pub(in crate::to_sdfg) struct Reshape {
    pub(super) source: Alias,
    indices: Vec<Expr>,
}

impl Reshape {
    /// The source view's indices of this view's `indices`.
    pub(super) fn source_indices(&self, indices: &[Expr]) -> Vec<Expr> {
        let map: HashMap<String, Expr> = indices
            .iter()
            .enumerate()
            .map(|(k, e)| (placeholder(k), e.clone()))
            .collect();
        self.indices.iter().map(|e| e.substitute(&map)).collect()
    }
}

/// The name standing for index `k` of a reshaped view.
fn placeholder(k: usize) -> String {
    format!("__reshape{k}")
}

/// Whether `op` makes a view of its first operand that the conversion
/// follows (subview, cast, reshape).
pub(in crate::to_sdfg) fn is_view(op: Op<'_>) -> bool {
    matches!(
        op.name(),
        "memref.subview" | "memref.cast" | "memref.expand_shape" | "memref.collapse_shape"
    )
}

impl<'a> Sdfg<'a> {
    /// `memref.expand_shape`/`collapse_shape` `op`: its result is a
    /// reshaped view of its source.
    pub(super) fn reshape(&mut self, op: Op<'a>) -> Result<'a, ()> {
        let operands = op.operands();
        let source = self.alias_of(op, operands[0])?;
        let result = op.results()[0];
        let groups: Vec<Vec<usize>> = op
            .array_attr("reassociation")
            .into_iter()
            .map(|g| {
                array_elements(g)
                    .into_iter()
                    .filter_map(int_attr)
                    .map(|d| d as usize)
                    .collect()
            })
            .collect();
        let (_, dims) = memref_shape_any_layout(result.ty())
            .map_err(|m| crate::to_sdfg::Failure::new(op, m))?;
        let expand = op.is("memref.expand_shape");
        // The result's sizes: static ones from its type; an expansion's
        // dynamic ones are its `output_shape` operands, a collapse's the
        // products of its groups.
        let mut dynamic = operands[1..].iter();
        let mut sizes = Vec::new();
        for (d, size) in dims.iter().enumerate() {
            let size = match size {
                Some(n) => Expr::int(*n),
                None if expand => match dynamic.next().and_then(|v| self.expr(*v)) {
                    Some(e) => e,
                    None => {
                        return fail(
                            op,
                            "has an output size computed from data, which is not converted yet",
                        )
                    }
                },
                None => groups
                    .get(d)
                    .into_iter()
                    .flatten()
                    .fold(Expr::int(1), |p, s| Expr::mul(&p, &source.sizes[*s])),
            };
            sizes.push(size);
        }
        let (wide, narrow) = if expand {
            (source.sizes.len(), sizes.len())
        } else {
            (sizes.len(), source.sizes.len())
        };
        if groups.len() != wide || groups.iter().flatten().any(|d| *d >= narrow) {
            return fail(op, "has a reassociation that does not match its shapes");
        }
        let mut indices = vec![Expr::int(0); source.sizes.len()];
        for (g, group) in groups.iter().enumerate() {
            if expand {
                // Source dimension g is the row-major index of the group.
                indices[g] = group.iter().fold(Expr::int(0), |acc, d| {
                    Expr::add(
                        &Expr::mul(&acc, &sizes[*d]),
                        &Expr::symbol(&placeholder(*d)),
                    )
                });
            } else {
                // Result dimension g unravels into the group's dimensions.
                let flat = Expr::symbol(&placeholder(g));
                let group_sizes: Vec<Expr> =
                    group.iter().map(|s| source.sizes[*s].clone()).collect();
                for (s, e) in group.iter().zip(Expr::unravel(&flat, &group_sizes)) {
                    indices[*s] = e;
                }
            }
        }
        let mut alias = source.clone();
        alias.sizes = sizes;
        alias.reshape = Some(Box::new(Reshape { source, indices }));
        self.aliases.insert(result, alias);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_indices_substitute_the_placeholders() {
        let source = Alias::whole("x".into(), vec![Expr::int(32)]);
        let reshape = Reshape {
            source,
            indices: vec![Expr::add(
                &Expr::mul(&Expr::symbol(&placeholder(0)), &Expr::int(8)),
                &Expr::symbol(&placeholder(1)),
            )],
        };
        let got = reshape.source_indices(&[Expr::symbol("i"), Expr::symbol("j")]);
        assert_eq!(got[0].to_string(), "8*i + j");
    }
}
