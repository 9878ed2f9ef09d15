//! Moving memlet trees to other coordinates, for the transformations that
//! bypass a view or a transient.
//!
//! Memlets are in the coordinates of the data they move: the memlets
//! inside a map on a connector fed by `V = A[1:N-1]` index `V`, and when
//! the map reads `A` instead, every memlet of the tree under that
//! connector must move by the view's offset (`V[i]` is `A[i + 1]`), or,
//! for a view that drops dimensions (`R = A[k, 0:N]`), gain them back
//! (`R[j]` is `A[k, j]`), as an [`Embedding`] says. These functions
//! first compute every change, failing without touching the IR when a
//! memlet cannot move (a rank that differs, a subset that does not parse,
//! a user they do not know), and only then apply them.

use mlir_sys::MlirType;
use sdfg_dialect::ir::{Op, Val};
use sdfg_dialect::{memlet_at, set_memlet_at, Container, Memlet, Wcr};
use sdfg_symbolic::{parse_subset, Embedding, Expr, Subset};

/// Checks that a library node reading `subset` computes the same after
/// the subset moves through `embedding`. The matrix-product family
/// (DaCe's `_get_matmul_operands`, and [`sdfg_dialect::library::logical_dims`]
/// for our expansions) takes an operand's dimensions from its memlet with
/// the unit ones squeezed out, so a move that only adds or removes unit
/// dimensions, to a subset with no unit dimension of its own, keeps the
/// operand's shape (its strides come from the new data, as they must).
/// Other classes read dimensions by position (a `Reduce`'s axes) and keep
/// their views, as DaCe's `RemoveSliceView` keeps them all.
fn squeezes_alike(node: Op<'_>, subset: &str, embedding: &Embedding) -> Result<(), String> {
    let class = node.str_attr("class_path").unwrap_or_default();
    if !matches!(
        sdfg_dialect::library::node_kind(class),
        "MatMul" | "Gemm" | "Gemv" | "Dot" | "Ger"
    ) {
        return Err(format!("a read by library node `{class}` cannot move"));
    }
    let old = parse_subset(subset).map_err(|e| e.to_string())?;
    let new = embedding.apply_subset(&old)?;
    let sizes =
        |s: &Subset| -> Vec<Option<i64>> { s.ranges().iter().map(|r| r.size().as_int()).collect() };
    let (old, new) = (sizes(&old), sizes(&new));
    let kept: Vec<Option<i64>> = new.into_iter().filter(|n| *n != Some(1)).collect();
    if old.contains(&Some(1)) || kept.len() != old.len() {
        return Err("a library node's operand would change its squeezed shape".into());
    }
    Ok(())
}

/// Planned memlet changes: (op, operand, new memlet) for operand memlets,
/// (exit op, entry, new memlet) for scope exits, and the values (scope
/// block arguments and results) whose container type changes with them.
#[derive(Default)]
pub struct Moves<'a> {
    operands: Vec<(Op<'a>, usize, Memlet)>,
    exits: Vec<(Op<'a>, usize, Memlet)>,
    retyped: Vec<(Val<'a>, MlirType)>,
    to: Option<MlirType>,
    wcr: Option<Wcr>,
}

impl<'a> Moves<'a> {
    /// Plans the moves that follow into the container type `ty`: the
    /// scope values they pass through take it.
    pub fn into_type(&mut self, ty: MlirType) {
        self.to = Some(ty);
    }

    /// Plans the writes that move to resolve their conflicts with `wcr`
    /// from then on (writes that become reductions into their target).
    pub fn resolving(&mut self, wcr: Wcr) {
        self.wcr = Some(wcr);
    }

    /// Plans giving `value` (the scope argument or result the moves
    /// start from) the container type of [`Moves::into_type`].
    pub fn retype(&mut self, value: Val<'a>) -> Result<(), String> {
        let ty = self.to.ok_or("no container type to move into")?;
        self.retyped.push((value, ty));
        Ok(())
    }

    /// Plans moving every memlet that reads `value` (an access node's
    /// result or a scope's block argument) through `embedding`: the
    /// memlets of its uses, and inside maps the trees under the connectors
    /// it feeds. A nested SDFG's input memlet moves; its argument inside
    /// keeps its shape (the memlet's box squeezed).
    pub fn reads(&mut self, value: Val<'a>, embedding: &Embedding) -> Result<(), String> {
        for (user, operand) in value.uses() {
            let mut memlet = memlet_at(user, operand)
                .ok_or_else(|| format!("a use by '{}' has no memlet", user.name()))?;
            match user.name() {
                "sdfg.tasklet" | "sdfg.nested" if operand < user.operand_segment(0).len() => {}
                "sdfg.access" if operand >= 1 && operand <= user.operand_segment(1).len() => {}
                // Inputs and dynamic range inputs, which are the region's
                // leading arguments in the same order.
                "sdfg.map"
                    if operand < user.operand_segment(0).len() + user.operand_segment(1).len() =>
                {
                    let arg = user.region_args(0)[operand];
                    self.retype(arg)?;
                    self.reads(arg, embedding)?;
                }
                "sdfg.library" if operand < user.operand_segment(0).len() => {
                    squeezes_alike(user, &memlet.subset, embedding)?;
                }
                other => return Err(format!("a read by '{other}' cannot move")),
            }
            if user.is("sdfg.access") && memlet.other.is_none() {
                // A copy with one subset for both ends: the destination's
                // end stays. One into a container of another rank (a
                // scalar's element from an array) fills it whole.
                memlet.other = Some(destination_end(user, &memlet.subset));
            }
            memlet.subset = embedding.apply(&memlet.subset)?;
            self.operands.push((user, operand, memlet));
        }
        Ok(())
    }

    /// Plans moving every memlet that writes result `index` of `producer`
    /// through `embedding`: inside a map, the exit memlets of its
    /// connector and, through nested maps, theirs. A tasklet's output, and
    /// a nested SDFG's, have no memlet of their own (the memlet is on the
    /// edge into the access node, which the caller moves); the nested
    /// SDFG's result takes the new container type.
    pub fn writes(
        &mut self,
        producer: Op<'a>,
        index: usize,
        embedding: &Embedding,
    ) -> Result<(), String> {
        match producer.name() {
            "sdfg.tasklet" => Ok(()),
            // A nested SDFG's argument keeps its shape: only its result,
            // whose type is the outer container's, changes. Its writes
            // inside cannot take a resolution from here.
            "sdfg.nested" if self.wcr.is_none() => self.retype(producer.results()[index]),
            "sdfg.map" => {
                let result = producer.results()[index];
                self.retype(result)?;
                let connector = producer
                    .str_array_attr("out_names")
                    .get(index)
                    .map(|s| s.to_string())
                    .ok_or("the map output has no name")?;
                let exit = producer
                    .region_ops(0)
                    .into_iter()
                    .find(|o| o.is("sdfg.exit"))
                    .ok_or("the map has no exit")?;
                let names = exit.str_array_attr("names");
                let memlets = exit.array_attr("memlets");
                for (k, value) in exit.operands().into_iter().enumerate() {
                    if names.get(k).copied() != Some(connector.as_str()) {
                        continue;
                    }
                    let mut memlet = memlets
                        .get(k)
                        .copied()
                        .and_then(Memlet::from_attr)
                        .ok_or("an exit entry has no memlet")?;
                    let old = parse_subset(&memlet.subset)
                        .map_err(|e| format!("subset `{}`: {e}", memlet.subset))?;
                    let new = embedding
                        .apply_subset(&old)
                        .map_err(|e| format!("subset `{}` {e}", memlet.subset))?;
                    if let Some(wcr) = &self.wcr {
                        if memlet.wcr != Wcr::None && memlet.wcr != *wcr {
                            return Err("a write already resolves its conflicts otherwise".into());
                        }
                        memlet.wcr = wcr.clone();
                        // The writes keep their number where their
                        // elements come together.
                        let (before, after) = (old.volume(), new.volume());
                        if memlet.volume.is_none() && Expr::sub(&before, &after).as_int() != Some(0)
                        {
                            memlet.volume = Some(before.to_string());
                        }
                    }
                    memlet.subset = new.to_string();
                    self.exits.push((exit, k, memlet));
                    if let (Some(inner), Some(number)) =
                        (value.defining_op(), value.result_number())
                    {
                        self.writes(inner, number, embedding)?;
                    }
                }
                Ok(())
            }
            other => Err(format!("the writes of '{other}' cannot move")),
        }
    }

    /// Applies the planned changes.
    pub fn apply(self) {
        for (op, operand, memlet) in &self.operands {
            set_memlet_at(*op, *operand, memlet);
        }
        for (exit, k, memlet) in &self.exits {
            let mut all = exit.array_attr("memlets");
            if let Some(entry) = all.get_mut(*k) {
                *entry = memlet.to_attr(exit.context());
                exit.set_attr("memlets", sdfg_dialect::ir::array_of(exit.context(), &all));
            }
        }
        for (value, ty) in &self.retyped {
            // SAFETY: the value is live; the new type is a container type
            // of the same context.
            unsafe { mlir_sys::mlirValueSetType(value.raw(), *ty) };
        }
    }
}

/// The destination end of a copy into access node `access` whose memlet
/// names one subset for both ends: that subset, or the destination's whole
/// extent where its rank is another (`0` for a scalar).
fn destination_end(access: Op<'_>, subset: &str) -> String {
    let result = access.results()[0];
    let fits = match (Container::from_type(result.ty()), parse_subset(subset)) {
        (Some(c), Ok(s)) if c.shape.is_empty() => s.dims() <= 1,
        (Some(c), Ok(s)) => s.dims() == c.shape.len(),
        _ => true,
    };
    match fits {
        true => subset.to_string(),
        false => crate::whole_subset(result).unwrap_or_else(|_| subset.to_string()),
    }
}
