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
//! `memref.reinterpret_cast` is a view of the same kind: its element
//! `(i, j)` is the buffer's element `offset + i * s0 + j * s1`, that is
//! the container's element of that linear position, unravelled in C order
//! (the expressions simplify where the layout matches the container's).
//! `memref.extract_strided_metadata` gives symbolic offsets, sizes and
//! strides, and a base buffer that a reinterpretation reads; together they
//! are what upstream's `--expand-strided-metadata` writes subviews as.
//!
//! A reshaped view's elements are no rectangle of the container in
//! general, so its whole uses are built element by element: a copy is a
//! map of element copies, a subview a reshape at shifted indices, and a
//! call takes the reshaped source and reshapes it inside. A library node
//! on a reshaped operand stays a loop nest (`library.rs`).

use std::collections::{BTreeSet, HashMap};

use sdfg_dialect::ir::{array_elements, Op, Val};
use sdfg_symbolic::Expr;

use super::{memref_shape_any_layout, Alias, Container, Flow, Sdfg, Shared};
use crate::to_sdfg::{fail, values::int_attr, Result};

/// A reshaped view: the view it reshapes, and that view's indices as
/// expressions of the placeholders `__reshape0`, `__reshape1`, ... (this
/// view's indices).
#[derive(Clone)]
pub(in crate::to_sdfg) struct Reshape {
    pub(super) source: Alias,
    indices: Vec<Expr>,
    /// Whether the view has fewer elements than its source (a subview of
    /// a reshape, a reinterpretation of a part of a buffer): no subset of
    /// the source says which it has.
    partial: bool,
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

    /// The view of `sizes` whose element `i` is `source`'s at
    /// `indices` (expressions of the placeholders); `partial` where it
    /// has fewer elements than `source`.
    fn view(source: Alias, sizes: Vec<Expr>, indices: Vec<Expr>, partial: bool) -> Alias {
        let mut alias = source.clone();
        alias.sizes = sizes;
        alias.reshape = Some(Box::new(Reshape {
            source,
            indices,
            partial,
        }));
        alias
    }

    /// The subview of the reshaped view this is the reshape of, at
    /// `offsets`, `sizes` and `strides`, without the dimensions `dropped`:
    /// a reshape of the same source whose indices are this one's at
    /// `offset + stride * index`.
    pub(super) fn subview(
        &self,
        offsets: &[Expr],
        sizes: &[Expr],
        strides: &[Expr],
        dropped: &[usize],
    ) -> Alias {
        let mut kept = 0;
        let mut map = HashMap::new();
        let mut new_sizes = Vec::new();
        for k in 0..offsets.len() {
            let at = if dropped.contains(&k) {
                offsets[k].clone()
            } else {
                new_sizes.push(sizes[k].clone());
                kept += 1;
                Expr::add(
                    &offsets[k],
                    &Expr::mul(&strides[k], &Expr::symbol(&placeholder(kept - 1))),
                )
            };
            map.insert(placeholder(k), at);
        }
        let indices = self.indices.iter().map(|e| e.substitute(&map)).collect();
        Reshape::view(self.source.clone(), new_sizes, indices, true)
    }
}

/// The name standing for index `k` of a reshaped view.
fn placeholder(k: usize) -> String {
    format!("__reshape{k}")
}

/// Whether `op` makes a view of its first operand that the conversion
/// follows (subview, cast, reshape, reinterpretation), or reads its layout
/// (`extract_strided_metadata`, whose base buffer is such a view).
pub(in crate::to_sdfg) fn is_view(op: Op<'_>) -> bool {
    matches!(
        op.name(),
        "memref.subview"
            | "memref.cast"
            | "memref.expand_shape"
            | "memref.collapse_shape"
            | "memref.reinterpret_cast"
            | "memref.extract_strided_metadata"
    )
}

impl<'a> Sdfg<'a> {
    /// A view op ([`is_view`]): records what its results are.
    pub(in crate::to_sdfg) fn view(&mut self, op: Op<'a>) -> Result<'a, ()> {
        match op.name() {
            "memref.expand_shape" | "memref.collapse_shape" => self.reshape(op),
            "memref.reinterpret_cast" => self.reinterpret(op),
            "memref.extract_strided_metadata" => self.metadata(op),
            _ => self.alias(op),
        }
    }

    /// The container `source` is a view of, if its buffer is the
    /// container's elements in C order from its start (an allocation, an
    /// argument without a layout, a callee's parameter that is a whole
    /// container), as `reinterpret_cast` and a base buffer address them. A
    /// container with strides, even C order's, is a part of a buffer seen
    /// from its first element (a strided argument, a callee's part of a
    /// container), whose offset in the buffer the SDFG does not know.
    fn plain_buffer(&self, source: &Alias) -> Option<Container> {
        let c = self.containers.get(&source.container)?;
        (c.strides.is_none() && !c.shape.is_empty()).then(|| c.clone())
    }

    /// A reshaped view `view` passed to a call `op` as the callee's
    /// parameter `param`: the callee's container `name` (of elements
    /// `elem`) is the view's source, passed with its strides, and `param`
    /// the same reshape of it, with the outer symbols its indices and sizes
    /// name as symbols of the callee (`mapping`). Returns the subset of the
    /// outer container passed.
    pub(super) fn pass_reshaped(
        &mut self,
        op: Op<'a>,
        inner: &mut Sdfg<'a>,
        mapping: &mut Vec<(String, String)>,
        (name, elem): (&str, String),
        param: Val<'a>,
        view: &Alias,
    ) -> Result<'a, String> {
        let Some(reshape) = &view.reshape else {
            return fail(op, "internal error: the view is not reshaped");
        };
        let source = &reshape.source;
        if source.reshape.is_some() {
            return fail(
                op,
                "passes a memref reshaped twice to a call, which is not converted yet",
            );
        }
        let c = &self.containers[&source.container];
        let base = c.layout_strides();
        let mut count = 0;
        let mut symbol = |e: &Expr| -> Expr {
            if e.as_int().is_some() {
                return e.clone();
            }
            let s = format!("{name}_r{count}");
            count += 1;
            inner.use_symbol(&s);
            mapping.push((s.clone(), e.to_string()));
            Expr::symbol(&s)
        };
        let mut shape = Vec::new();
        let mut strides = Vec::new();
        for (k, d) in source.dims.iter().enumerate() {
            shape.push(symbol(&source.sizes[k]));
            strides.push(symbol(&Expr::mul(&base[*d], &source.strides[*d])));
        }
        let outer: BTreeSet<String> = reshape
            .indices
            .iter()
            .flat_map(|e| e.free_symbols())
            .filter(|s| !s.starts_with("__reshape"))
            .collect();
        let rename: HashMap<String, Expr> = outer
            .into_iter()
            .map(|s| (s.clone(), symbol(&Expr::symbol(&s))))
            .collect();
        let sizes: Vec<Expr> = view.sizes.iter().map(&mut symbol).collect();
        inner.add_unbound_argument(Container {
            name: name.to_string(),
            elem,
            shape: shape.clone(),
            strides: Some(strides),
        });
        let indices = reshape
            .indices
            .iter()
            .map(|e| e.substitute(&rename))
            .collect();
        let whole = Alias::whole(name.to_string(), shape);
        let alias = Reshape::view(whole, sizes, indices, reshape.partial);
        inner.aliases.insert(param, alias);
        Ok(source.subset())
    }

    /// `memref.copy` from or to a reshaped view (`views`: the source's and
    /// the destination's), from the access node `source`: a map over the
    /// elements, each copied by a tasklet at the subscripts each view maps
    /// it to (a reshaped view is no rectangle of its container). Into a
    /// partial view, whose elements no subset says, the write is dynamic.
    pub(super) fn copy_elements(
        &mut self,
        shared: &mut Shared<'a>,
        flow: &mut Flow<'a>,
        source: &str,
        views: (&Alias, &Alias),
    ) -> Result<'a, ()> {
        let (from, to) = views;
        let label = format!("copy{}", shared.id());
        let params: Vec<String> = (0..from.sizes.len())
            .map(|k| shared.fresh(&format!("__{label}_{k}")))
            .collect();
        let indices: Vec<Expr> = params.iter().map(|p| Expr::symbol(p)).collect();
        let ranges: Vec<String> = params
            .iter()
            .zip(&from.sizes)
            .map(|(p, size)| format!("\"{p}\" = \"0:{size}\""))
            .collect();
        let mut used = BTreeSet::new();
        let mut subscripts = |view: &Alias| -> String {
            let exprs = view.subscripts(&indices);
            used.extend(exprs.iter().flat_map(|e| e.free_symbols()));
            let list: Vec<String> = exprs.iter().map(|e| e.to_string()).collect();
            if list.is_empty() {
                "0".into()
            } else {
                list.join(", ")
            }
        };
        let (read, written) = (subscripts(from), subscripts(to));
        self.used
            .extend(used.into_iter().filter(|s| !params.contains(s)));
        let (src, dst) = (from.container.clone(), to.container.clone());
        let (s, d) = (self.containers[&src].clone(), self.containers[&dst].clone());
        let elem = d.elem.clone();
        let dynamic = to.reshape.as_ref().is_some_and(|r| r.partial);
        let exit = if dynamic { ", dynamic" } else { "" };
        flow.lines.push(format!(
            "%{label} = sdfg.map \"{label}\" [{}] ins(\"{src}\" = {source}[\"{}\"] : {sty}) outs(\"{dst}\" : {dty}) {{\n^bb0(%{label}_in: {sty}):\n%{label}_t = sdfg.tasklet \"{label}_t\" ins(\"__in0\" = %{label}_in[\"{read}\"] : {sty}) outs(\"__out0\" : {elem}) {{\n^bb0(%{label}_x: {elem}):\n  sdfg.yield %{label}_x : {elem}\n}}\nsdfg.exit (\"{dst}\" = %{label}_t[\"{written}\"{exit}] : {elem})\n}}\n",
            ranges.join(", "),
            s.full(),
            sty = s.ty(),
            dty = d.ty(),
        ));
        let subset = to.subset();
        self.write(
            shared,
            flow,
            &dst,
            &format!("%{label}"),
            &subset,
            &d.ty(),
            dynamic,
            None,
        );
        Ok(())
    }

    /// `memref.reinterpret_cast` `op`: the result's element `(i, j)` is
    /// the element at `offset + i * s0 + j * s1` of its source's buffer,
    /// whatever part of it the source is, that is the element of that
    /// linear position of the container, unravelled in C order.
    fn reinterpret(&mut self, op: Op<'a>) -> Result<'a, ()> {
        let source = self.alias_of(op, op.operands()[0])?;
        let Some(c) = self.plain_buffer(&source) else {
            return fail(op, "reinterprets a memref whose buffer is not a container laid out in C order from its start, which is not converted yet");
        };
        let lists = self.offsets_sizes_strides(op)?;
        let (offsets, sizes, strides) = (&lists[0], &lists[1], &lists[2]);
        let linear = strides
            .iter()
            .enumerate()
            .fold(offsets[0].clone(), |acc, (k, s)| {
                Expr::add(&acc, &Expr::mul(s, &Expr::symbol(&placeholder(k))))
            });
        let whole = Alias::whole(c.name.clone(), c.shape.clone());
        let indices = Expr::unravel(&linear, &c.shape);
        let alias = Reshape::view(whole, sizes.clone(), indices, true);
        self.aliases.insert(op.results()[0], alias);
        Ok(())
    }

    /// `memref.extract_strided_metadata` `op`: the offset, sizes and
    /// strides are expressions of the source view and its container; the
    /// base buffer is the container's first element, a view of rank 0
    /// (for a container laid out in C order from its start).
    fn metadata(&mut self, op: Op<'a>) -> Result<'a, ()> {
        let source = self.alias_of(op, op.operands()[0])?;
        let results = op.results();
        let reinterpreted = op.operands()[0]
            .defining_op()
            .filter(|d| d.is("memref.reinterpret_cast"));
        if let Some(cast) = reinterpreted {
            // The layout the reinterpretation gives, from the same buffer.
            let lists = self.offsets_sizes_strides(cast)?;
            let rank = lists[1].len();
            if results.len() != 2 + 2 * rank {
                return fail(op, "has results that do not match its source's rank");
            }
            self.bind_expr(results[1], lists[0][0].clone());
            for k in 0..rank {
                self.bind_expr(results[2 + k], lists[1][k].clone());
                self.bind_expr(results[2 + rank + k], lists[2][k].clone());
            }
            if let Some(r) = &source.reshape {
                self.base_buffer(results[0], &r.source);
            }
            return Ok(());
        }
        if source.reshape.is_some() {
            return fail(
                op,
                "reads the layout of a reshaped memref, which is not converted yet",
            );
        }
        let c = &self.containers[&source.container];
        let steps = c.layout_strides();
        let offset = (0..source.offsets.len()).fold(Expr::int(0), |acc, d| {
            Expr::add(&acc, &Expr::mul(&source.offsets[d], &steps[d]))
        });
        let strides: Vec<Expr> = source
            .dims
            .iter()
            .map(|d| Expr::mul(&source.strides[*d], &steps[*d]))
            .collect();
        let rank = source.dims.len();
        if results.len() != 2 + 2 * rank {
            return fail(op, "has results that do not match its source's rank");
        }
        // A plain container's buffer starts at its start; another's (a
        // strided argument's, a callee's part of a container) at its first
        // element, which is not where the memref's buffer starts.
        let plain = self.plain_buffer(&source);
        if plain.is_some() {
            self.bind_expr(results[1], offset);
        } else if !results[1].uses().is_empty() {
            return fail(op, "reads the offset of a memref whose buffer the SDFG sees from its first element (a strided argument), which is not converted yet");
        }
        for k in 0..rank {
            self.bind_expr(results[2 + k], source.sizes[k].clone());
            self.bind_expr(results[2 + rank + k], strides[k].clone());
        }
        self.base_buffer(results[0], &source);
        Ok(())
    }

    /// Records `base`, the base buffer of the view `source`, as the first
    /// element of its container, where the container's buffer starts there.
    fn base_buffer(&mut self, base: Val<'a>, source: &Alias) {
        if let Some(c) = self.plain_buffer(source) {
            let whole = Alias::whole(c.name.clone(), c.shape.clone());
            let first = vec![Expr::int(0); c.shape.len()];
            self.aliases
                .insert(base, Reshape::view(whole, Vec::new(), first, true));
        }
    }

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
        // A reshape of a partial view is as partial.
        let partial = source.reshape.as_ref().is_some_and(|r| r.partial);
        self.aliases
            .insert(result, Reshape::view(source, sizes, indices, partial));
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
            partial: false,
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
