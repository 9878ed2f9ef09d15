//! Dataflow of the conversion (`convert-sdfg-to-scf`): access nodes,
//! memlets (loads, stores, copies, views), tasklets, maps, scope exits,
//! nested SDFGs and write-conflict resolution.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use sdfg_dialect::ir::{type_to_string, Op, Val};
use sdfg_dialect::{
    accessed_container, container_name, incoming_edges, structure_members, underlying_container,
    written_container, EdgeRole, Memlet, Schedule,
};
use sdfg_symbolic::{parse_subset, Expr, Range, Subset};

use super::by_ref::{argument_type, by_ref_outputs, mark_written, Rewrite};
use super::types::{layout, memref_type, Data, Elem};
use super::wcr::{Reduction, Slot};
use super::{
    fail, lower_function, parse_expr, parse_memlet_subset, range_index, structure_leaves, Failure,
    Function, Lowered, Placement, Result, SymbolType, TaskletFunction,
};

impl<'a> Function<'a, '_> {
    /// Lowers dataflow ops in order. `parallel` holds the parameters of the
    /// enclosing parallel loop (empty outside one).
    pub(super) fn lower_dataflow(
        &mut self,
        ops: &[Op<'a>],
        env: &mut HashMap<String, String>,
        parallel: &[String],
    ) -> Result<'a, ()> {
        for op in ops {
            match op.name() {
                "sdfg.access" => self.lower_access(*op, env, parallel)?,
                "sdfg.tasklet" => self.lower_tasklet(*op, env, parallel)?,
                "sdfg.map" => self.lower_map(*op, env, parallel)?,
                "sdfg.nested" => self.lower_nested(*op, env, parallel)?,
                "sdfg.exit" => self.lower_exit(*op, env, parallel)?,
                "sdfg.consume" => self.lower_consume(*op, env, parallel)?,
                "sdfg.library" => self.lower_library(*op, env, parallel)?,
                other => return fail(*op, format!("`{other}` cannot be lowered")),
            }
        }
        Ok(())
    }

    /// The data behind an access node: its container, or for a view the
    /// viewed data at the bound subset.
    pub(super) fn access_data(
        &mut self,
        access: Op<'a>,
        env: &HashMap<String, String>,
    ) -> Result<'a, Data> {
        let container = accessed_container(access).ok_or_else(|| Failure {
            op: access,
            message: "has no container".into(),
        })?;
        let name = container_name(container).unwrap_or_default();
        let Some(data) = self.containers.by_name.get(&name).cloned() else {
            return fail(access, format!("container `{name}` is not allocated here"));
        };
        if let Some(vars) = &data.reference {
            let vars = vars.clone();
            return self.reference_data(access, env, data, &vars);
        }
        if !data.memref.is_empty() {
            return Ok(data);
        }
        // A view: bound by this node's `bind` edge; else by the edge that
        // writes it back into non-view data (DaCe's `views` connector on
        // an outgoing edge); else by another access node of the same view
        // in this state.
        let Some((source, subset)) = sdfg_dialect::view_binding(access, container) else {
            return fail(
                access,
                format!("view `{name}` is not bound to any data here"),
            );
        };
        let viewed = match source.defining_op().filter(|o| o.is("sdfg.access")) {
            Some(node) => self.access_data(node, env)?,
            None => match self.values.get(&source) {
                Some(Lowered::Data(d)) => d.clone(),
                _ => {
                    return fail(
                        access,
                        format!("view `{name}` is bound to something that is not data"),
                    )
                }
            },
        };
        let subset = if subset.is_empty() {
            None
        } else {
            Some(parse_memlet_subset(access, &subset)?)
        };
        let base = match subset {
            Some(s) => self.subset_origin(access, env, &viewed, &s)?,
            None => match &viewed.base {
                Some(b) => b.clone(),
                None => self.body.index(0),
            },
        };
        Ok(Data {
            memref: viewed.memref,
            base: Some(base),
            shared: viewed.shared,
            gpu_global: viewed.gpu_global || data.gpu_global,
            host_only: viewed.host_only,
            ..data
        })
    }

    /// The linear index of the element at `point` of `data`.
    pub(super) fn element_index(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        data: &Data,
        point: &[Expr],
    ) -> Result<'a, String> {
        let index = self.linear_index(op, env, data, point)?;
        if self.module.check_bounds && !data.scalar {
            self.check_bounds(op, data, &index, point, None);
        }
        Ok(index)
    }

    /// The linear index of the first element of `subset` of `data`: where a
    /// view, a connector or a nested SDFG's argument starts. Under
    /// `check-bounds` it must lie inside `data` unless the subset is empty
    /// at run time: `A[i + 1:M, i]` at `i = M - 1` starts past the end of
    /// `A` and reads nothing.
    pub(super) fn subset_origin(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        data: &Data,
        subset: &Subset,
    ) -> Result<'a, String> {
        let point = subset.min_element();
        let index = self.linear_index(op, env, data, &point)?;
        if self.module.check_bounds && !data.scalar {
            let mut empty: Option<String> = None;
            for range in subset.ranges() {
                let size = range.size();
                if size.as_int().is_some_and(|n| n > 0) {
                    continue;
                }
                let size = self.emit_int(op, env, &size)?;
                let zero = self.body.index(0);
                let none = self
                    .body
                    .assign(format!("arith.cmpi sle, {size}, {zero} : index"));
                empty = Some(match empty {
                    None => none,
                    Some(e) => self.body.assign(format!("arith.ori {e}, {none} : i1")),
                });
            }
            self.check_bounds(op, data, &index, &point, empty.as_deref());
        }
        Ok(index)
    }

    /// The linear index of the element at `point` of `data`, unchecked.
    pub(super) fn linear_index(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        data: &Data,
        point: &[Expr],
    ) -> Result<'a, String> {
        let mut linear = Expr::int(0);
        for (i, p) in point.iter().enumerate() {
            let stride = data.strides.get(i).cloned().unwrap_or_else(|| Expr::int(1));
            let offset = data.offsets.get(i).cloned().unwrap_or_else(|| Expr::int(0));
            linear = Expr::add(&linear, &Expr::mul(&Expr::add(p, &offset), &stride));
        }
        let index = self.emit_int(op, env, &linear)?;
        Ok(match &data.base {
            Some(b) => self.body.assign(format!("arith.addi {b}, {index} : index")),
            None => index,
        })
    }

    /// For a copy between arrays of one element type: an `i1` that holds
    /// when both are the same memory and the destination starts after the
    /// source. The copy then runs backwards, so that every element is read
    /// before it is overwritten (a memlet copy reads its source as it was,
    /// as `memmove` does). `None` where they cannot be the same memory: one
    /// is an array of this function's own and the other is not the same
    /// memref (a view of it would be).
    pub(super) fn copy_backwards(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        src: (&Data, &Subset),
        dst: (&Data, &Subset),
    ) -> Result<'a, Option<String>> {
        let ((s, from), (d, to)) = (src, dst);
        let apart = s.memref != d.memref
            && (self.own_memory.contains(&s.memref) || self.own_memory.contains(&d.memref));
        if s.scalar || d.scalar || s.stream || d.stream || s.elem.ty != d.elem.ty || apart {
            return Ok(None);
        }
        let start = self.linear_index(op, env, s, &from.min_element())?;
        let target = self.linear_index(op, env, d, &to.min_element())?;
        let ty = s.memref_type();
        let mut pointer = |memref: &str| {
            self.body.assign(format!(
                "memref.extract_aligned_pointer_as_index {memref} : {ty} -> index"
            ))
        };
        let (ps, pd) = (pointer(&s.memref), pointer(&d.memref));
        let same = self
            .body
            .assign(format!("arith.cmpi eq, {ps}, {pd} : index"));
        let after = self
            .body
            .assign(format!("arith.cmpi ugt, {target}, {start} : index"));
        Ok(Some(
            self.body.assign(format!("arith.andi {same}, {after} : i1")),
        ))
    }

    /// Asserts that `index` lies inside `data`'s memref, or that the `i1`
    /// `unless` holds.
    pub(super) fn check_bounds(
        &mut self,
        op: Op<'a>,
        data: &Data,
        index: &str,
        point: &[Expr],
        unless: Option<&str>,
    ) {
        let zero = self.body.index(0);
        let size = self.body.assign(format!(
            "memref.dim {}, {zero} : {}",
            data.memref,
            data.memref_type()
        ));
        let mut inside = self
            .body
            .assign(format!("arith.cmpi ult, {index}, {size} : index"));
        if let Some(unless) = unless {
            inside = self
                .body
                .assign(format!("arith.ori {inside}, {unless} : i1"));
        }
        let point: Vec<String> = point.iter().map(|e| e.to_string()).collect();
        let message = format!(
            "out-of-bounds access to `{}[{}]` at {}",
            data.name,
            point.join(", "),
            op.location()
        )
        .replace('\\', "\\\\")
        .replace('"', "\\\"");
        self.body.line(format!("cf.assert {inside}, \"{message}\""));
    }

    /// Loads the element at `point` of `data`.
    pub(super) fn load(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        data: &Data,
        point: &[Expr],
    ) -> Result<'a, String> {
        self.check_host_access(op, data, "reads")?;
        if data.stream {
            return self.pop(op, env, data, point);
        }
        let index = if data.scalar {
            String::new()
        } else {
            self.element_index(op, env, data, point)?
        };
        Ok(self.body.assign(format!(
            "memref.load {}[{index}] : {}",
            data.memref,
            data.memref_type()
        )))
    }

    /// Stores `value` (of type `elem`) at `point` of `data`, resolving
    /// write conflicts with `wcr`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        value: &str,
        elem: &Elem,
        data: &Data,
        subset: &Subset,
        wcr: Option<Reduction>,
        parallel: &[String],
    ) -> Result<'a, ()> {
        self.check_host_access(op, data, "writes")?;
        let atomic = data.shared
            || (!parallel.is_empty()
                && !private_to_iteration(subset, parallel)
                && !self.iteration_private.contains(&data.name));
        if let Some(lanes) = self.vector_of_elements(op, data, subset, elem)? {
            match wcr {
                None => {
                    self.vector_access(op, env, data, subset, lanes, elem, Some(value))?;
                }
                Some(reduction) if !atomic => {
                    let old = self.vector_access(op, env, data, subset, lanes, elem, None)?;
                    let new = reduction.combine(&mut self.body, &old, value, elem);
                    self.vector_access(op, env, data, subset, lanes, elem, Some(&new))?;
                }
                Some(reduction) => {
                    self.store_lanes(op, env, value, elem, data, subset, reduction)?
                }
            }
            return Ok(());
        }
        let value = self.convert(op, value, elem, &data.elem.ty)?;
        if data.stream {
            if wcr.is_some() {
                return fail(
                    op,
                    format!(
                        "writes stream `{}` with a write-conflict resolution",
                        data.name
                    ),
                );
            }
            return self.push(op, env, &value, data, &subset.min_element());
        }
        let index = if data.scalar {
            String::new()
        } else {
            self.element_index(op, env, data, &subset.min_element())?
        };
        let ty = data.memref_type();
        match wcr {
            None => self.body.line(format!(
                "memref.store {value}, {}[{index}] : {ty}",
                data.memref
            )),
            Some(reduction) => {
                let slot = Slot {
                    memref: &data.memref,
                    memref_type: &ty,
                    index: &index,
                };
                reduction
                    .apply(&mut self.body, &value, &slot, &data.elem, atomic)
                    .map_err(|message| Failure { op, message })?;
            }
        }
        Ok(())
    }

    /// Resolves the lanes of the vector `value` into the consecutive
    /// elements of `data` from the first of `subset`, one atomic update
    /// per lane (parallel iterations may share them).
    #[allow(clippy::too_many_arguments)]
    fn store_lanes(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        value: &str,
        vector: &Elem,
        data: &Data,
        subset: &Subset,
        reduction: Reduction,
    ) -> Result<'a, ()> {
        let Some((lanes, lane)) = vector.lanes() else {
            return fail(op, format!("`{}` is not a vector", vector.ty));
        };
        let first = self.element_index(op, env, data, &subset.min_element())?;
        let ty = data.memref_type();
        for l in 0..lanes {
            let element = self.body.assign(format!(
                "vector.extract {value}[{l}] : {} from {}",
                lane.ty, vector.ty
            ));
            let offset = self.body.index(l as i64);
            let index = self
                .body
                .assign(format!("arith.addi {first}, {offset} : index"));
            let slot = Slot {
                memref: &data.memref,
                memref_type: &ty,
                index: &index,
            };
            reduction
                .apply(&mut self.body, &element, &slot, &lane, true)
                .map_err(|message| Failure { op, message })?;
        }
        Ok(())
    }

    /// Whether a value of type `value` moves through `subset` of `data`
    /// as DaCe moves a vector connector over an array of its lanes: one
    /// vector load or store of consecutive elements from the subset's
    /// first one. Returns the lane count, or `None` for an element-wise
    /// move; a subset of another size than the vector is a diagnostic.
    fn vector_of_elements(
        &self,
        op: Op<'a>,
        data: &Data,
        subset: &Subset,
        value: &Elem,
    ) -> Result<'a, Option<u64>> {
        let Some((lanes, lane)) = value.lanes() else {
            return Ok(None);
        };
        if data.elem.lanes().is_some() || data.stream || data.scalar {
            return Ok(None);
        }
        if lane.ty != data.elem.ty {
            return fail(
                op,
                format!(
                    "moves a {} through `{}` of {} elements",
                    value.ty, data.name, data.elem.ty
                ),
            );
        }
        if subset.volume().as_int() != Some(lanes as i64) {
            return fail(
                op,
                format!(
                    "moves a {} through `{}[{subset}]`, which is not {lanes} elements",
                    value.ty, data.name
                ),
            );
        }
        Ok(Some(lanes))
    }

    /// A `vector.load` (or, with `store`, a `vector.store` of that value)
    /// of `lanes` consecutive elements of `data` from the first element of
    /// `subset`, as DaCe's pointer cast to `dace::vec` reads them.
    #[allow(clippy::too_many_arguments)]
    fn vector_access(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        data: &Data,
        subset: &Subset,
        lanes: u64,
        vector: &Elem,
        store: Option<&str>,
    ) -> Result<'a, String> {
        let index = self.element_index(op, env, data, &subset.min_element())?;
        let last = self.body.index(lanes as i64 - 1);
        let last = self
            .body
            .assign(format!("arith.addi {index}, {last} : index"));
        self.check_flat_bounds(op, data, &last);
        let (memref, ty) = (&data.memref, data.memref_type());
        Ok(match store {
            Some(value) => {
                self.body.line(format!(
                    "vector.store {value}, {memref}[{index}] : {ty}, {}",
                    vector.ty
                ));
                value.to_string()
            }
            None => self.body.assign(format!(
                "vector.load {memref}[{index}] : {ty}, {}",
                vector.ty
            )),
        })
    }

    /// The memory of `data` from linear index `base` on, as a flat memref
    /// of `elem`: the pointer cast of C, built as the memref descriptor the
    /// `llvm` lowering uses (aligned pointer at `base`, offset 0, as many
    /// whole elements as fit, stride 1). Returns the value and its type.
    fn reinterpret(
        &mut self,
        op: Op<'a>,
        data: &Data,
        base: &str,
        elem: &Elem,
    ) -> Result<'a, (String, String)> {
        let (Some(from), Some(to)) = (data.elem.bytes(), elem.bytes()) else {
            return fail(
                op,
                format!(
                    "`{}` of {} cannot be viewed as {}",
                    data.name, data.elem.ty, elem.ty
                ),
            );
        };
        if data.stream || data.scalar {
            return fail(
                op,
                format!(
                    "`{}` cannot be viewed as an array of {}",
                    data.name, elem.ty
                ),
            );
        }
        let ty = data.memref_type();
        let to_ty = memref_type(elem, false, false);
        let memref = &data.memref;
        let b = &mut self.body;
        let pointer = b.assign(format!(
            "memref.extract_aligned_pointer_as_index {memref} : {ty} -> index"
        ));
        let (from, to, zero) = (b.index(from as i64), b.index(to as i64), b.index(0));
        let skipped = b.assign(format!("arith.muli {base}, {from} : index"));
        let start = b.assign(format!("arith.addi {pointer}, {skipped} : index"));
        let size = b.assign(format!("memref.dim {memref}, {zero} : {ty}"));
        let rest = b.assign(format!("arith.subi {size}, {base} : index"));
        let rest = b.assign(format!("arith.muli {rest}, {from} : index"));
        let count = b.assign(format!("arith.divui {rest}, {to} : index"));
        let start = b.assign(format!("arith.index_cast {start} : index to i64"));
        let count = b.assign(format!("arith.index_cast {count} : index to i64"));
        let pointer = b.assign(format!("llvm.inttoptr {start} : i64 to !llvm.ptr"));
        let (zero, one) = (
            b.assign("llvm.mlir.constant(0 : i64) : i64"),
            b.assign("llvm.mlir.constant(1 : i64) : i64"),
        );
        let descriptor = "!llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>";
        let mut d = b.assign(format!("llvm.mlir.undef : {descriptor}"));
        for (value, position) in [
            (&pointer, "0"),
            (&pointer, "1"),
            (&zero, "2"),
            (&count, "3, 0"),
            (&one, "4, 0"),
        ] {
            d = b.assign(format!(
                "llvm.insertvalue {value}, {d}[{position}] : {descriptor}"
            ));
        }
        let view = b.assign(format!(
            "builtin.unrealized_conversion_cast {d} : {descriptor} to {to_ty}"
        ));
        Ok((view, to_ty))
    }

    pub(super) fn lowered(&self, op: Op<'a>, value: Val<'a>) -> Result<'a, Lowered> {
        self.values.get(&value).cloned().ok_or_else(|| Failure {
            op,
            message: "uses a value the lowering has not seen (not in topological order?)".into(),
        })
    }

    pub(super) fn lower_access(
        &mut self,
        access: Op<'a>,
        env: &HashMap<String, String>,
        parallel: &[String],
    ) -> Result<'a, ()> {
        if accessed_container(access).is_some_and(|c| structure_members(c.ty()).is_some()) {
            return self.lower_structure_access(access);
        }
        let data = self.access_data(access, env)?;
        for edge in incoming_edges(access) {
            if edge.role != EdgeRole::Input {
                continue;
            }
            let Some(memlet) = edge.memlet else { continue };
            let wcr = Reduction::of(&memlet.wcr).map_err(|m| Failure {
                op: access,
                message: m,
            })?;
            match self.lowered(access, edge.source)? {
                Lowered::Value { ssa, elem } => {
                    let subset = parse_memlet_subset(access, &memlet.subset)?;
                    self.store(access, env, &ssa, &elem, &data, &subset, wcr, parallel)?;
                }
                Lowered::Data(source) => {
                    if sdfg_dialect::binds_view(edge.source, access) {
                        continue;
                    }
                    if edge
                        .source
                        .defining_op()
                        .is_some_and(|o| o.is("sdfg.access"))
                        || edge.source.block_arg().is_some()
                    {
                        self.copy(access, env, &source, &data, &memlet, wcr, parallel)?;
                    }
                }
                Lowered::Written => {}
                Lowered::Structure => {
                    return fail(
                        access,
                        format!("copies a structure into `{}`, which is not one", data.name),
                    )
                }
            }
        }
        self.values.insert(access.results()[0], Lowered::Data(data));
        Ok(())
    }

    /// An access node of a whole structure: what flows through it are the
    /// structure's members, which nested SDFGs take by name and write in
    /// place. Copies into a structure are refused.
    fn lower_structure_access(&mut self, access: Op<'a>) -> Result<'a, ()> {
        for edge in incoming_edges(access) {
            if edge.role == EdgeRole::Input
                && !matches!(self.lowered(access, edge.source)?, Lowered::Written)
            {
                return fail(
                    access,
                    "copies into a structure, which cannot be lowered yet",
                );
            }
        }
        self.values.insert(access.results()[0], Lowered::Structure);
        Ok(())
    }

    /// Copies `memlet.subset` of `src` into `memlet.other` (or all) of `dst`
    /// element by element, in row-major order of both subsets.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn copy(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        src: &Data,
        dst: &Data,
        memlet: &Memlet,
        wcr: Option<Reduction>,
        parallel: &[String],
    ) -> Result<'a, ()> {
        let from = parse_memlet_subset(op, &memlet.subset)?;
        let to = match &memlet.other {
            Some(o) => parse_memlet_subset(op, o)?,
            None if dst.scalar => parse_memlet_subset(op, "0")?,
            None if dst.stream => Subset::indices(vec![Expr::int(0); dst.shape.len()]),
            None if src.stream => Subset::full(&dst.shape),
            None => {
                // DaCe places the source's shape (squeezed when the ranks
                // differ) at the destination's origin.
                let sizes: Vec<Expr> = from.ranges().iter().map(Range::size).collect();
                let squeezed: Vec<Expr> = sizes
                    .iter()
                    .filter(|e| e.as_int() != Some(1))
                    .cloned()
                    .collect();
                if sizes.len() == dst.shape.len() {
                    Subset::full(&sizes)
                } else if squeezed.len() == dst.shape.len() {
                    Subset::full(&squeezed)
                } else {
                    Subset::full(&dst.shape)
                }
            }
        };
        if !self.module.in_kernel && (self.on_device(src) || self.on_device(dst)) {
            return self.device_copy(op, env, (src, &from), (dst, &to), memlet, wcr, parallel);
        }
        if src.stream {
            if wcr.is_some() {
                return fail(
                    op,
                    format!(
                        "pops stream `{}` with a write-conflict resolution",
                        src.name
                    ),
                );
            }
            return self.pop_into(op, env, src, &from.min_element(), dst, &to);
        }
        self.copy_elements(op, env, (src, &from), (dst, &to), wcr, parallel, None)
    }

    /// Copies the points of subset `from` of `src` to the points of `to` in
    /// `dst` with the same row-major positions: by loops over them, or,
    /// with `thread` (an index value), only the point at that position
    /// (one thread of a copy kernel, which guards the range).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn copy_elements(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        (src, from): (&Data, &Subset),
        (dst, to): (&Data, &Subset),
        wcr: Option<Reduction>,
        parallel: &[String],
        thread: Option<&str>,
    ) -> Result<'a, ()> {
        let src_sizes: Vec<Expr> = from.ranges().iter().map(Range::size).collect();
        let dst_sizes: Vec<Expr> = to.ranges().iter().map(Range::size).collect();
        let squeeze = |v: &[Expr]| {
            v.iter()
                .filter(|e| e.as_int() != Some(1))
                .cloned()
                .collect::<Vec<_>>()
        };
        let same_shape = squeeze(&src_sizes) == squeeze(&dst_sizes);
        let moving: Vec<usize> = (0..src_sizes.len())
            .filter(|d| src_sizes[*d].as_int() != Some(1))
            .collect();
        let copy = ElementCopy {
            op,
            src,
            from,
            dst,
            to,
            wcr,
            parallel,
            src_sizes,
            dst_sizes,
            same_shape,
            moving,
        };
        let Some(thread) = thread else {
            return self.copy_loops(env, &copy);
        };
        // The thread's position, unravelled over the non-unit sizes.
        let mut loop_env = env.clone();
        loop_env.insert("__copy_thread".into(), thread.to_string());
        let sizes: Vec<Expr> = copy
            .moving
            .iter()
            .map(|d| copy.src_sizes[*d].clone())
            .collect();
        let position = Expr::unravel(&Expr::symbol("__copy_thread"), &sizes);
        let mut counters = vec![None; copy.src_sizes.len()];
        for (d, k) in copy.moving.iter().zip(position) {
            counters[*d] = Some(k);
        }
        self.copy_point(&loop_env, &copy, &counters)
    }

    /// The loops of [`Self::copy_elements`] over the source subset's points
    /// (backwards where the destination may overlap the source's later
    /// elements). Outside a parallel loop, a copy in one known direction
    /// runs its leading dimensions in parallel, as a map's do, when it has
    /// at least [`PARALLEL_COPY`] elements (a test at run time where its
    /// size is symbolic): the threads that wrote a map's rows then copy
    /// those rows on (Floyd-Warshall's `path[:] = tmp` after each step).
    fn copy_loops(
        &mut self,
        env: &HashMap<String, String>,
        copy: &ElementCopy<'_, 'a>,
    ) -> Result<'a, ()> {
        let (op, src, dst) = (copy.op, copy.src, copy.dst);
        let backwards = self.copy_backwards(op, env, (src, copy.from), (dst, copy.to))?;
        let sizes: Vec<&Expr> = copy.moving.iter().map(|d| &copy.src_sizes[*d]).collect();
        let extents: Vec<Option<i64>> = sizes.iter().map(|e| e.as_int()).collect();
        let count = sizes.iter().fold(Expr::int(1), |n, e| Expr::mul(&n, e));
        // Only where each point has its own destination point (the same
        // shape up to unit dimensions), and on the host.
        let eligible = backwards.is_none()
            && copy.wcr.is_none()
            && copy.same_shape
            && !dst.stream
            && !self.module.in_kernel
            && !self.in_parallel_loop(copy.parallel)
            && count.as_int().is_none_or(|n| n >= PARALLEL_COPY);
        let in_parallel = if eligible {
            parallel_dimensions(&extents)
        } else {
            0
        };
        let backwards = backwards.as_deref();
        if in_parallel == 0 || count.as_int().is_some() {
            return self.copy_nest(env, copy, backwards, in_parallel);
        }
        let n = self.emit_int(op, env, &count)?;
        let least = self.body.index(PARALLEL_COPY);
        let big = self
            .body
            .assign(format!("arith.cmpi sge, {n}, {least} : index"));
        self.body.open(format!("scf.if {big}"));
        self.copy_nest(env, copy, backwards, in_parallel)?;
        self.body.middle("else");
        self.copy_nest(env, copy, backwards, 0)?;
        self.body.close("");
        Ok(())
    }

    /// One loop nest of [`Self::copy_loops`], its first `in_parallel`
    /// dimensions one `scf.parallel`; `backwards` is the `i1` that reverses
    /// every loop.
    fn copy_nest(
        &mut self,
        env: &HashMap<String, String>,
        copy: &ElementCopy<'_, 'a>,
        backwards: Option<&str>,
        in_parallel: usize,
    ) -> Result<'a, ()> {
        let mut loop_env = env.clone();
        let mut counters = vec![None; copy.src_sizes.len()];
        let mut parallel_ivs = Vec::new();
        let mut parallel_ends = Vec::new();
        for (position, d) in copy.moving.iter().copied().enumerate() {
            let zero = self.body.index(0);
            let one = self.body.index(1);
            let n = self.emit_int(copy.op, &loop_env, &copy.src_sizes[d])?;
            let iv = self.body.fresh();
            if position < in_parallel {
                parallel_ivs.push(iv.clone());
                parallel_ends.push(n.clone());
                if position + 1 == in_parallel {
                    let count = parallel_ivs.len();
                    self.body.open(format!(
                        "scf.parallel ({}) = ({}) to ({}) step ({})",
                        parallel_ivs.join(", "),
                        vec![zero; count].join(", "),
                        parallel_ends.join(", "),
                        vec![one.clone(); count].join(", ")
                    ));
                }
            } else {
                self.body
                    .open(format!("scf.for {iv} = {zero} to {n} step {one}"));
            }
            let k = match backwards {
                Some(flag) => {
                    let last = self.body.assign(format!("arith.subi {n}, {one} : index"));
                    let down = self.body.assign(format!("arith.subi {last}, {iv} : index"));
                    self.body
                        .assign(format!("arith.select {flag}, {down}, {iv} : index"))
                }
                None => iv,
            };
            let name = format!("__copy{d}");
            loop_env.insert(name.clone(), k);
            counters[d] = Some(Expr::symbol(&name));
        }
        self.copy_point(&loop_env, copy, &counters)?;
        for _ in 0..copy.moving.len() - in_parallel.saturating_sub(1) {
            self.body.close("");
        }
        Ok(())
    }

    /// Copies the source point at `counters` (the position in each moving
    /// dimension) to the destination point with the same row-major
    /// position.
    fn copy_point(
        &mut self,
        loop_env: &HashMap<String, String>,
        copy: &ElementCopy<'_, 'a>,
        counters: &[Option<Expr>],
    ) -> Result<'a, ()> {
        let position = |ranges: &[Range], counters: &[Option<Expr>]| -> Vec<Expr> {
            ranges
                .iter()
                .zip(counters)
                .map(|(r, k)| match k {
                    Some(k) => range_index(r, k),
                    None => r.start.clone(),
                })
                .collect()
        };
        let src_point = position(copy.from.ranges(), counters);
        let dst_point = if copy.same_shape {
            let mut moving = counters.iter().flatten().cloned();
            let dst_counters: Vec<Option<Expr>> = copy
                .dst_sizes
                .iter()
                .map(|s| {
                    if s.as_int() == Some(1) {
                        None
                    } else {
                        moving.next()
                    }
                })
                .collect();
            position(copy.to.ranges(), &dst_counters)
        } else {
            // Row-major position of the source point, unravelled over the
            // destination's sizes.
            let mut linear = Expr::int(0);
            for (k, size) in counters.iter().zip(&copy.src_sizes) {
                linear = Expr::mul(&linear, size);
                if let Some(k) = k {
                    linear = Expr::add(&linear, k);
                }
            }
            let mut point = Vec::new();
            let mut rest = linear;
            for (r, size) in copy.to.ranges().iter().zip(&copy.dst_sizes).rev() {
                let k = Expr::modulo(&rest, size);
                rest = Expr::floordiv(&rest, size);
                point.push(range_index(r, &k));
            }
            point.reverse();
            point
        };
        let value = self.load(copy.op, loop_env, copy.src, &src_point)?;
        let dst_subset = Subset::indices(dst_point);
        self.store(
            copy.op,
            loop_env,
            &value,
            &copy.src.elem,
            copy.dst,
            &dst_subset,
            copy.wcr,
            copy.parallel,
        )
    }

    pub(super) fn lower_tasklet(
        &mut self,
        tasklet: Op<'a>,
        env: &HashMap<String, String>,
        parallel: &[String],
    ) -> Result<'a, ()> {
        let label = tasklet.str_attr("label").unwrap_or_default();
        if let Some(code) = tasklet.str_attr("code") {
            // SAFETY: the dialect's verifier makes `language` an enum attribute.
            let language = match tasklet
                .attr("language")
                .map(|a| unsafe { sdfg_dialect::ffi::sdfgEnumAttrValue(a) })
            {
                Some(1) => "C++",
                _ => "Python",
            };
            let first = code
                .lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .unwrap_or_default();
            let why = tasklet
                .str_attr("sdfg.untranslated")
                .map(|r| format!(": {r}"))
                .unwrap_or_default();
            return fail(
                tasklet,
                format!("tasklet `{label}` has {language} code the importer could not translate to MLIR (`{first}`){why}"),
            );
        }
        if !tasklet.has_body(0) {
            return fail(tasklet, format!("tasklet `{label}` has no body"));
        }
        let args = tasklet.region_args(0);
        let mut arg_types = Vec::new();
        let mut operands = Vec::new();
        let inputs: Vec<_> = incoming_edges(tasklet)
            .into_iter()
            .filter(|e| e.role == EdgeRole::Input)
            .collect();
        let by_ref = by_ref_outputs(tasklet, inputs.len());
        for (i, arg) in args.iter().enumerate().take(args.len() - by_ref.len()) {
            let declared = type_to_string(arg.ty());
            let Some(edge) = inputs.get(i) else {
                return fail(
                    tasklet,
                    format!("tasklet `{label}`: argument {i} has no input edge"),
                );
            };
            let connector = edge.connector.unwrap_or_default();
            match self.lowered(tasklet, edge.source)? {
                Lowered::Value { ssa, elem } => {
                    let target = Elem::parse(&declared).map_err(|m| Failure {
                        op: tasklet,
                        message: format!("connector `{connector}`: {m}"),
                    })?;
                    operands.push(self.convert(tasklet, &ssa, &elem, &target.ty)?);
                    arg_types.push(target.ty);
                }
                Lowered::Data(data) => {
                    let Some(memlet) = &edge.memlet else {
                        return fail(tasklet, format!("connector `{connector}` has no memlet"));
                    };
                    let subset = parse_memlet_subset(tasklet, &memlet.subset)?;
                    if declared.starts_with("memref<") {
                        let (view, ty) =
                            self.view(tasklet, env, &data, &subset, &declared, connector)?;
                        operands.push(view);
                        arg_types.push(ty);
                    } else {
                        let target = Elem::parse(&declared).map_err(|m| Failure {
                            op: tasklet,
                            message: format!("connector `{connector}`: {m}"),
                        })?;
                        let value =
                            match self.vector_of_elements(tasklet, &data, &subset, &target)? {
                                Some(index) => self.vector_access(
                                    tasklet, env, &data, &subset, index, &target, None,
                                )?,
                                None => {
                                    let value =
                                        self.load(tasklet, env, &data, &subset.min_element())?;
                                    self.convert(tasklet, &value, &data.elem, &target.ty)?
                                }
                            };
                        operands.push(value);
                        arg_types.push(target.ty);
                    }
                }
                Lowered::Written => {
                    return fail(
                        tasklet,
                        format!("connector `{connector}` reads a scope output directly"),
                    );
                }
                Lowered::Structure => {
                    return fail(
                        tasklet,
                        format!("connector `{connector}` reads a whole structure, which a tasklet cannot lower yet (read its members)"),
                    );
                }
            }
        }
        let mut rewrites = Vec::new();
        for &(index, arg) in &by_ref {
            let declared = argument_type(tasklet, arg);
            let operand = self.by_ref_operand(tasklet, (index, arg), &declared, env, parallel)?;
            operands.push(operand.value);
            arg_types.push(operand.ty);
            rewrites.extend(operand.rewrite);
        }
        let pushes_to = |op: Op<'a>| {
            rewrites.iter().any(|r| match r {
                Rewrite::Push { arg, .. } => {
                    op.operands()
                        .first()
                        .and_then(|v| v.block_arg())
                        .map(|(_, k)| k)
                        == Some(*arg)
                }
                Rewrite::Store { .. } | Rewrite::Printf { .. } => false,
            })
        };
        let mut prints = Vec::new();
        let mut sym_types = Vec::new();
        for op in tasklet.descendants() {
            match op.name() {
                "sdfg.sym" => {
                    let ty = type_to_string(op.results()[0].ty());
                    let text = op.str_attr("expr").unwrap_or_default();
                    let float = Elem {
                        ty: ty.clone(),
                        unsigned: false,
                    };
                    let v = if float.is_float() || float.is_complex() {
                        // A floating-point or complex symbol (or an
                        // expression of one), computed as C++ computes it.
                        let expr = parse_expr(op, text)?;
                        self.python_expression(op, env, text, &expr, &ty)?
                    } else {
                        let v = self.symbol_value(op, env, text, SymbolType::Integer)?;
                        let index = Elem {
                            ty: "index".into(),
                            unsigned: false,
                        };
                        self.convert(op, &v, &index, &ty)?
                    };
                    operands.push(v);
                    sym_types.push(ty);
                }
                "sdfg.printf" => prints.push(self.module.printf_helper(op)?),
                "sdfg.push" if pushes_to(op) => {}
                "sdfg.push" | "sdfg.pop" => return fail(
                    op,
                    "stream input connectors of tasklets (pop in a body) cannot be lowered yet; streams are written through by_ref outputs",
                ),
                _ => {}
            }
        }
        rewrites.extend(prints);
        mark_written(&mut self.values, tasklet, &by_ref);
        let results: Vec<Val<'a>> = tasklet
            .results()
            .into_iter()
            .enumerate()
            .filter(|(i, _)| !by_ref.iter().any(|(k, _)| k == i))
            .map(|(_, r)| r)
            .collect();
        let result_types: Vec<String> = results.iter().map(|r| type_to_string(r.ty())).collect();
        let name = self.module.unique(&format!("__tasklet_{label}"));
        let all_types: Vec<String> = arg_types.iter().chain(&sym_types).cloned().collect();
        let call = format!(
            "func.call @{name}({}) : ({}) -> ({})",
            operands.join(", "),
            all_types.join(", "),
            result_types.join(", ")
        );
        let result = match results.len() {
            0 => {
                self.body.line(call);
                String::new()
            }
            1 => self.body.assign(call),
            n => {
                let v = self.body.fresh();
                self.body.line(format!("{v}:{n} = {call}"));
                v
            }
        };
        for (i, (r, ty)) in results.iter().zip(&result_types).enumerate() {
            let elem = Elem::parse(ty).map_err(|m| Failure {
                op: tasklet,
                message: format!("output {i}: {m}"),
            })?;
            let ssa = if results.len() == 1 {
                result.clone()
            } else {
                format!("{result}#{i}")
            };
            self.values.insert(*r, Lowered::Value { ssa, elem });
        }
        self.module.tasklets.push(TaskletFunction {
            tasklet,
            name,
            arg_types,
            sym_types,
            result_types,
            rewrites,
        });
        Ok(())
    }

    /// A strided view of `subset` of `data` for a memref connector of
    /// type `declared` (its rank decides which unit dimensions are
    /// squeezed). Returns the value and its type.
    pub(super) fn view(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        data: &Data,
        subset: &Subset,
        declared: &str,
        connector: &str,
    ) -> Result<'a, (String, String)> {
        let rank = declared
            .trim_start_matches("memref<")
            .split('x')
            .filter(|d| *d == "?" || d.parse::<i64>().is_ok())
            .count();
        let elem = &data.elem.ty;
        if data.stream {
            return fail(
                op,
                format!(
                    "connector `{connector}`: stream `{}` cannot be viewed as a memref",
                    data.name
                ),
            );
        }
        // (size, stride) of every dimension the connector sees.
        let dims: Vec<(Expr, Expr)> = if subset.is_tiled() {
            // DaCe's view of a tiled subset: tile origins, then tiles.
            subset
                .data_dims()
                .into_iter()
                .map(|d| {
                    let r = &subset.ranges()[d.range];
                    let stride = if d.tile {
                        data.strides[d.range].clone()
                    } else {
                        Expr::mul(&data.strides[d.range], &r.step)
                    };
                    (d.size, stride)
                })
                .collect()
        } else {
            let sizes: Vec<Expr> = subset.ranges().iter().map(Range::count).collect();
            let all = sizes.len() == rank;
            subset
                .ranges()
                .iter()
                .zip(sizes)
                .enumerate()
                .filter(|(_, (_, size))| all || size.as_int() != Some(1))
                .map(|(d, (r, size))| (size, Expr::mul(&data.strides[d], &r.step)))
                .collect()
        };
        if dims.len() != rank {
            return fail(
                op,
                format!("connector `{connector}` of type {declared} does not match its memlet subset `{subset}`"),
            );
        }
        let offset = if data.scalar {
            return fail(
                op,
                format!("connector `{connector}` views a scalar as {declared}"),
            );
        } else {
            self.subset_origin(op, env, data, subset)?
        };
        let mut size_values = Vec::new();
        let mut stride_values = Vec::new();
        for (size, stride) in &dims {
            size_values.push(self.emit_int(op, env, size)?);
            stride_values.push(self.emit_int(op, env, stride)?);
        }
        let dims = vec!["?"; rank].join("x");
        let ty = if rank == 0 {
            format!("memref<{elem}, strided<[], offset: ?>>")
        } else {
            format!(
                "memref<{dims}x{elem}, strided<[{}], offset: ?>>",
                vec!["?"; rank].join(", ")
            )
        };
        let v = self.body.assign(format!(
            "memref.reinterpret_cast {} to offset: [{offset}], sizes: [{}], strides: [{}] : {} to {ty}",
            data.memref,
            size_values.join(", "),
            stride_values.join(", "),
            data.memref_type()
        ));
        Ok((v, ty))
    }

    pub(super) fn lower_map(
        &mut self,
        map: Op<'a>,
        env: &HashMap<String, String>,
        parallel: &[String],
    ) -> Result<'a, ()> {
        let params = map.str_array_attr("params");
        let ranges = map.str_array_attr("ranges");
        let args = map.region_args(0);
        let inputs = map.operand_segment(0);
        let mut inner_env = env.clone();
        // Scope inputs alias their data; dynamic range inputs are read here.
        for (arg, input) in args.iter().zip(&inputs) {
            let v = self.lowered(map, *input)?;
            self.values.insert(*arg, v);
        }
        for edge in incoming_edges(map)
            .into_iter()
            .filter(|e| e.role == EdgeRole::Dynamic)
        {
            let name = edge.connector.unwrap_or_default().to_string();
            let value = match (self.lowered(map, edge.source)?, &edge.memlet) {
                (Lowered::Data(data), Some(memlet)) => {
                    let subset = parse_memlet_subset(map, &memlet.subset)?;
                    let v = self.load(map, env, &data, &subset.min_element())?;
                    self.convert(map, &v, &data.elem, "index")?
                }
                (Lowered::Value { ssa, elem }, _) => self.convert(map, &ssa, &elem, "index")?,
                _ => return fail(map, format!("dynamic input `{name}` has no data")),
            };
            inner_env.insert(name, value);
        }
        for (i, input) in map.operand_segment(1).iter().enumerate() {
            if let Some(arg) = args.get(inputs.len() + i) {
                let v = self.lowered(map, *input)?;
                self.values.insert(*arg, v);
            }
        }
        let mut schedule = map
            .attr("schedule")
            .and_then(Schedule::from_attr)
            .map_or("Default", |s| s.name());
        if schedule == "Default" && !self.in_parallel_loop(parallel) && self.runs_on_device(map) {
            schedule = "GPU_Device";
        }
        if schedule == "GPU_Default" {
            schedule = "GPU_Device";
        }
        if self.module.gpu && matches!(schedule, "GPU_Device" | "GPU_ThreadBlock") {
            let ranges = ranges
                .iter()
                .map(|r| super::gpu::one_range(map, r))
                .collect::<Result<'a, Vec<Range>>>()?;
            if schedule == "GPU_Device" {
                self.launch_kernel(map, inner_env, &params, &ranges)?;
            } else {
                self.thread_block_map(map, inner_env, &params, &ranges, parallel)?;
            }
            for r in map.results() {
                self.values.insert(r, Lowered::Written);
            }
            return Ok(());
        }
        // An FPGA_Device map is a pipelined loop: where it pops or pushes
        // streams, the order of its iterations is the order of the
        // elements (in parallel, which iteration gets which element would
        // depend on the schedule).
        let touches_streams = || {
            map.operands()
                .into_iter()
                .chain(map.results())
                .any(|v| layout(v.ty()).is_ok_and(|l| l.stream))
        };
        let sequential = matches!(schedule, "Sequential" | "Unrolled")
            || (schedule == "FPGA_Device" && touches_streams());
        let is_parallel = !self.in_parallel_loop(parallel) && !sequential;
        let mut lows = Vec::new();
        let mut highs = Vec::new();
        let mut steps = Vec::new();
        let mut normalized = Vec::new();
        let mut extents = Vec::new();
        for (param, range) in params.iter().zip(&ranges) {
            let subset = parse_subset(range).map_err(|e| Failure {
                op: map,
                message: format!("range `{range}` of `{param}`: {e}"),
            })?;
            let [r] = subset.ranges() else {
                return fail(
                    map,
                    format!("range `{range}` of `{param}` is not one dimension"),
                );
            };
            if r.tile.as_int() != Some(1) {
                return fail(
                    map,
                    format!(
                        "range `{range}` of `{param}` has a tile size, which cannot be lowered yet"
                    ),
                );
            }
            extents.push(
                Expr::ceildiv(&Expr::sub(&r.end, &r.start), &r.step)
                    .as_int()
                    .map(|n| n.max(0)),
            );
            if r.step.as_int().is_some_and(|s| s > 0) {
                lows.push(self.emit_int(map, &inner_env, &r.start)?);
                highs.push(self.emit_int(map, &inner_env, &r.end)?);
                steps.push(self.emit_int(map, &inner_env, &r.step)?);
                normalized.push(None);
            } else {
                // Any other step: count iterations k = 0 .. ceil((end -
                // start) / step) and compute param = start + k * step.
                let count = Expr::max(vec![
                    Expr::int(0),
                    Expr::ceildiv(&Expr::sub(&r.end, &r.start), &r.step),
                ]);
                lows.push(self.body.index(0));
                highs.push(self.emit_int(map, &inner_env, &count)?);
                steps.push(self.body.index(1));
                normalized.push(Some(r.clone()));
            }
        }
        let ivs: Vec<String> = params.iter().map(|_| self.body.fresh()).collect();
        // The leading dimensions of a parallel map are one parallel loop
        // (OpenMP's), the others sequential loops inside it.
        let split = if is_parallel {
            owning_prefix(map, &params, parallel_dimensions(&extents))
        } else {
            0
        };
        if split > 0 {
            self.body.open(format!(
                "scf.parallel ({}) = ({}) to ({}) step ({})",
                ivs[..split].join(", "),
                lows[..split].join(", "),
                highs[..split].join(", "),
                steps[..split].join(", ")
            ));
        }
        // Only the parameters of the parallel loop run at once: writes that
        // the sequential ones inside repeat go to one thread, in order,
        // and need no atomics (`C[i, j] += ...` over `i, k, j` with `i`
        // parallel updates its row with plain loads and stores).
        let inner_parallel: Vec<String> = if is_parallel {
            params[..split].iter().map(|p| p.to_string()).collect()
        } else {
            parallel.to_vec()
        };
        // The body's arrays whose sizes do not depend on the parameters are
        // allocated once before the sequential loops, and each of their
        // iterations reuses them (a scope's transient starts undefined):
        // a malloc and a free per iteration would cost more than the work
        // of a small tile, and fault in fresh pages for a large one.
        let hoisted = if split < params.len() {
            self.hoistable_transients(map, &params)
        } else {
            Vec::new()
        };
        let mut hoisted_frees = Vec::new();
        for alloc in &hoisted {
            for data in self.allocate_scoped(*alloc, &inner_env, &mut hoisted_frees, false)? {
                if !inner_parallel.is_empty() {
                    self.iteration_private.insert(data.name.clone());
                }
                self.containers.by_name.insert(data.name.clone(), data);
            }
        }
        for (i, iv) in ivs.iter().enumerate().skip(split) {
            self.body.open(format!(
                "scf.for {iv} = {} to {} step {}",
                lows[i], highs[i], steps[i]
            ));
        }
        for ((param, iv), norm) in params.iter().zip(&ivs).zip(&normalized) {
            let value = match norm {
                None => iv.clone(),
                Some(r) => {
                    let k = format!("__k_{param}");
                    let mut e = inner_env.clone();
                    e.insert(k.clone(), iv.clone());
                    let expr = Expr::add(&r.start, &Expr::mul(&Expr::symbol(&k), &r.step));
                    self.emit_int(map, &e, &expr)?
                }
            };
            inner_env.insert(param.to_string(), value);
        }
        // Outputs whose boxes the parallel iterations own one each (a tile
        // of a tiled map) take their resolved writes without atomics.
        let owned: Vec<String> = if is_parallel {
            owned_outputs(map, &params[..split])
                .into_iter()
                .filter(|name| self.iteration_private.insert(name.clone()))
                .collect()
        } else {
            Vec::new()
        };
        self.lower_scope_body(map, &mut inner_env, &inner_parallel, &hoisted)?;
        for name in owned {
            self.iteration_private.remove(&name);
        }
        for _ in &ivs[split..] {
            self.body.close("");
        }
        for allocation in hoisted_frees {
            self.release(&allocation);
        }
        if split > 0 {
            self.body.close("");
        }
        for r in map.results() {
            self.values.insert(r, Lowered::Written);
        }
        Ok(())
    }

    /// The transients private to `map`'s body that can be allocated once
    /// for all of its sequential iterations: arrays (not scalars, which
    /// live on the stack, nor streams, views or references) whose sizes,
    /// strides and offsets do not name the map's parameters.
    fn hoistable_transients(&self, map: Op<'a>, params: &[&str]) -> Vec<Op<'a>> {
        let mut owned = self.owned_transients(Placement::Scope(map));
        owned.retain(|a| {
            !self.is_workgroup(*a)
                && layout(a.results()[0].ty()).is_ok_and(|l| {
                    !(l.scalar || l.stream || l.view || l.reference)
                        && l.shape.iter().chain(&l.strides).chain(&l.offsets).all(|e| {
                            e.free_symbols()
                                .iter()
                                .all(|s| !params.contains(&s.as_str()))
                        })
                })
        });
        owned
    }

    /// Lowers the body of a map or consume scope with the transients
    /// private to it, allocated at its start and freed at its end, but for
    /// those in `preallocated` (see [`Self::hoistable_transients`]).
    pub(super) fn lower_scope_body(
        &mut self,
        scope: Op<'a>,
        env: &mut HashMap<String, String>,
        parallel: &[String],
        preallocated: &[Op<'a>],
    ) -> Result<'a, ()> {
        let mut owned = self.owned_transients(Placement::Scope(scope));
        owned.retain(|a| !self.is_workgroup(*a) && !preallocated.contains(a));
        // Scalars live on the stack inside an `alloca_scope`, which
        // canonicalisation dissolves once the tasklets are inlined. Calls
        // of the stream runtime would keep it (and `scf-to-cf` cannot
        // lower its region), so a scope that uses streams keeps its scalars
        // on the heap.
        let uses_streams = scope.descendants().into_iter().any(|o| {
            o.is("sdfg.consume")
                || (o.is("sdfg.access")
                    && o.results()
                        .first()
                        .is_some_and(|r| layout(r.ty()).is_ok_and(|l| l.stream)))
        });
        let on_stack = !uses_streams
            && owned
                .iter()
                .any(|a| layout(a.results()[0].ty()).is_ok_and(|l| l.scalar));
        if on_stack {
            self.body.open("memref.alloca_scope");
        }
        let mut frees = Vec::new();
        for alloc in owned {
            for data in self.allocate_scoped(alloc, env, &mut frees, on_stack)? {
                if !parallel.is_empty() {
                    self.iteration_private.insert(data.name.clone());
                }
                self.containers.by_name.insert(data.name.clone(), data);
            }
        }
        let body_ops = scope.region_ops(0);
        self.lower_dataflow(&body_ops, env, parallel)?;
        for allocation in frees {
            self.release(&allocation);
        }
        if on_stack {
            self.body.close("");
        }
        Ok(())
    }

    /// Writes the edges into a scope's exit to the data the scope's
    /// outputs reach.
    pub(super) fn lower_exit(
        &mut self,
        exit: Op<'a>,
        env: &HashMap<String, String>,
        parallel: &[String],
    ) -> Result<'a, ()> {
        let Some(scope) = exit.parent() else {
            return fail(exit, "has no scope");
        };
        for edge in incoming_edges(exit) {
            let Some(memlet) = &edge.memlet else { continue };
            let connector = edge.connector.unwrap_or_default();
            let wcr = Reduction::of(&memlet.wcr).map_err(|m| Failure {
                op: exit,
                message: m,
            })?;
            match self.lowered(exit, edge.source)? {
                // A structure is written in place, member by member.
                Lowered::Written | Lowered::Structure => {}
                Lowered::Value { ssa, elem } => {
                    let data = self.output_data(scope, connector, env)?;
                    let subset = parse_memlet_subset(exit, &memlet.subset)?;
                    self.store(exit, env, &ssa, &elem, &data, &subset, wcr, parallel)?;
                }
                Lowered::Data(source) => {
                    let data = self.output_data(scope, connector, env)?;
                    let from_access = edge
                        .source
                        .defining_op()
                        .is_some_and(|o| o.is("sdfg.access"));
                    if from_access && data.stream && !source.stream {
                        // DaCe pushes the volume of the stream's subset from
                        // the source's first element on.
                        let subset = parse_memlet_subset(exit, &memlet.subset)?;
                        let from = match &memlet.other {
                            Some(o) => parse_memlet_subset(exit, o)?.min_element(),
                            None => vec![Expr::int(0); source.shape.len()],
                        };
                        self.push_from(
                            exit,
                            env,
                            &source,
                            &from,
                            &subset.volume(),
                            &data,
                            &subset.min_element(),
                        )?;
                    } else if from_access {
                        // A copy's subset is over its source and `->`
                        // over the destination; one subset alone is the
                        // destination's, the source copied whole.
                        let copy = if memlet.other.is_some() {
                            memlet.clone()
                        } else {
                            let full: Vec<String> =
                                source.shape.iter().map(|s| format!("0:{s}")).collect();
                            Memlet {
                                subset: if full.is_empty() {
                                    "0".into()
                                } else {
                                    full.join(", ")
                                },
                                other: Some(memlet.subset.clone()),
                                ..memlet.clone()
                            }
                        };
                        self.copy(exit, env, &source, &data, &copy, wcr, parallel)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// The data an output connector of a scope writes to: followed out
    /// through enclosing exits to an access node.
    pub(super) fn output_data(
        &mut self,
        scope: Op<'a>,
        connector: &str,
        env: &HashMap<String, String>,
    ) -> Result<'a, Data> {
        let names = scope.str_array_attr("out_names");
        let Some(index) = names.iter().position(|n| *n == connector) else {
            return fail(scope, format!("has no output connector `{connector}`"));
        };
        let result = scope.results()[index];
        for (user, operand) in result.uses() {
            match user.name() {
                "sdfg.access" => return self.access_data(user, env),
                "sdfg.exit" => {
                    let outer = user.str_array_attr("names");
                    let Some(parent) = user.parent() else {
                        continue;
                    };
                    if let Some(name) = outer.get(operand) {
                        return self.output_data(parent, name, env);
                    }
                }
                _ => {}
            }
        }
        fail(scope, format!("output `{connector}` reaches no data"))
    }

    pub(super) fn lower_nested(
        &mut self,
        nested: Op<'a>,
        env: &HashMap<String, String>,
        parallel: &[String],
    ) -> Result<'a, ()> {
        if self.module.gpu
            && !self.module.in_kernel
            && super::gpu::on_gpu(nested)
            && !self.launches_its_maps(nested)?
        {
            return self
                .single_thread_kernel(nested, |f| f.lower_nested_call(nested, env, parallel));
        }
        self.lower_nested_call(nested, env, parallel)
    }

    /// [`Self::lower_nested`] where the call is made.
    fn lower_nested_call(
        &mut self,
        nested: Op<'a>,
        env: &HashMap<String, String>,
        parallel: &[String],
    ) -> Result<'a, ()> {
        let Some(inner) = nested.region_ops(0).into_iter().find(|o| o.is("sdfg.sdfg")) else {
            return fail(nested, "holds no sdfg.sdfg");
        };
        let label = nested.str_attr("label").unwrap_or("nested");
        let name = self.module.unique(&format!(
            "{}_{label}",
            self.sdfg.symbol_name().unwrap_or("sdfg")
        ));
        let shared = self.in_parallel_loop(parallel);
        self.module.argument_residences = self.argument_residences(nested, inner)?;
        let free = lower_function(self.module, inner, &name, true, shared)?;
        let inputs: Vec<_> = incoming_edges(nested)
            .into_iter()
            .filter(|e| e.role == EdgeRole::Input)
            .collect();
        let out_names = nested.str_array_attr("out_names");
        let results = nested.results();
        let mut operands = Vec::new();
        let mut types = Vec::new();
        let mut write_backs = Vec::new();
        for (arg, arg_name) in inner
            .region_args(0)
            .into_iter()
            .zip(inner.str_array_attr("arg_names"))
        {
            if structure_members(arg.ty()).is_some() {
                let edge = inputs.iter().find(|e| e.connector == Some(arg_name));
                let outer = match edge {
                    Some(edge) => container_name(underlying_container(edge.source)),
                    None => out_names
                        .iter()
                        .position(|n| *n == arg_name)
                        .and_then(|k| written_container(results[k])),
                };
                let Some(outer) = outer else {
                    return fail(
                        nested,
                        format!("structure argument `{arg_name}` is connected to no structure"),
                    );
                };
                self.pass_structure(
                    nested,
                    &outer,
                    arg_name,
                    arg.ty(),
                    &mut operands,
                    &mut types,
                )?;
                continue;
            }
            let inner_layout = layout(arg.ty()).map_err(|m| Failure {
                op: nested,
                message: format!("argument `{arg_name}`: {m}"),
            })?;
            // The outer data and subset: the input edge, else the output's
            // destination memlet.
            let (outer, subset) = match inputs.iter().find(|e| e.connector == Some(arg_name)) {
                Some(edge) => {
                    let Lowered::Data(data) = self.lowered(nested, edge.source)? else {
                        return fail(nested, format!("input `{arg_name}` is not data"));
                    };
                    let memlet = edge.memlet.clone().map(|m| m.subset).unwrap_or_default();
                    (data, memlet)
                }
                None => {
                    let Some(k) = out_names.iter().position(|n| *n == arg_name) else {
                        return fail(
                            nested,
                            format!("argument `{arg_name}` is connected to nothing"),
                        );
                    };
                    self.nested_output(nested, results[k], env)?
                }
            };
            let subset = if subset.is_empty() {
                None
            } else {
                Some(parse_memlet_subset(nested, &subset)?)
            };
            let is_output = out_names.contains(&arg_name);
            if inner_layout.scalar {
                // By value: a rank-0 copy of the element, written back for
                // outputs.
                let point = subset.as_ref().map(|s| s.min_element()).unwrap_or_default();
                let cell_ty = format!("memref<{}>", inner_layout.elem.ty);
                let cell = if outer.scalar {
                    outer.memref.clone()
                } else {
                    let cell = self.body.assign(format!("memref.alloca() : {cell_ty}"));
                    let v = self.load(nested, env, &outer, &point)?;
                    let v = self.convert(nested, &v, &outer.elem, &inner_layout.elem.ty)?;
                    self.body
                        .line(format!("memref.store {v}, {cell}[] : {cell_ty}"));
                    if is_output {
                        write_backs.push((cell.clone(), outer.clone(), point));
                    }
                    cell
                };
                operands.push(cell);
                types.push(cell_ty);
            } else {
                if outer.scalar {
                    return fail(
                        nested,
                        format!("argument `{arg_name}` is an array but its data is a scalar"),
                    );
                }
                if outer.stream != inner_layout.stream {
                    return fail(
                        nested,
                        format!("argument `{arg_name}` is a stream but its data is not, or the other way round"),
                    );
                }
                let base = match &subset {
                    Some(s) => self.subset_origin(nested, env, &outer, s)?,
                    None => match &outer.base {
                        Some(b) => b.clone(),
                        None => self.body.index(0),
                    },
                };
                if outer.elem.ty == inner_layout.elem.ty {
                    operands.push(outer.memref.clone());
                    types.push(outer.memref_type());
                    operands.push(base);
                } else {
                    // DaCe passes the pointer, whatever the inner element
                    // type (`float*` as `dace::vec<float, 2>*`).
                    let (memref, ty) =
                        self.reinterpret(nested, &outer, &base, &inner_layout.elem)?;
                    operands.push(memref);
                    types.push(ty);
                    operands.push(self.body.index(0));
                }
                types.push("index".into());
            }
        }
        let names = nested.str_array_attr("symbol_names");
        let values = nested.str_array_attr("symbol_values");
        for s in &free {
            // The mapped expression, else the outer symbol of that name,
            // computed in the nested symbol's type.
            let text = match names.iter().position(|n| *n == s.name) {
                Some(k) => values[k],
                None if env.contains_key(&s.name) => s.name.as_str(),
                None => {
                    return fail(
                        nested,
                        format!("symbol `{}` of the nested SDFG has no value", s.name),
                    )
                }
            };
            operands.push(self.symbol_value(nested, env, text, s.ty)?);
            types.push(s.ty.mlir().into());
        }
        self.body.line(format!(
            "func.call @{name}({}) : ({}) -> ()",
            operands.join(", "),
            types.join(", ")
        ));
        for (cell, outer, point) in write_backs {
            let v = self
                .body
                .assign(format!("memref.load {cell}[] : memref<{}>", outer.elem.ty));
            let subset = Subset::indices(point);
            self.store(
                nested,
                env,
                &v,
                &outer.elem,
                &outer,
                &subset,
                None,
                parallel,
            )?;
        }
        for r in results {
            self.values.insert(r, Lowered::Written);
        }
        Ok(())
    }

    /// The data and subset a nested SDFG's output is written to.
    /// Passes the members of structure `outer` to the nested SDFG's
    /// structure argument `inner` of type `ty`, in the order of its
    /// members: a scalar member by reference (its memref), an array member
    /// as its memref and base index, as for any nested argument.
    fn pass_structure(
        &mut self,
        nested: Op<'a>,
        outer: &str,
        inner: &str,
        ty: mlir_sys::MlirType,
        operands: &mut Vec<String>,
        types: &mut Vec<String>,
    ) -> Result<'a, ()> {
        for (leaf, leaf_ty) in structure_leaves(inner, ty) {
            let member = format!("{outer}{}", &leaf[inner.len()..]);
            let Some(data) = self.containers.by_name.get(&member).cloned() else {
                return fail(
                    nested,
                    format!("structure member `{member}` passed as `{leaf}` is not here"),
                );
            };
            let expected = layout(leaf_ty).map_err(|m| Failure {
                op: nested,
                message: format!("member `{leaf}`: {m}"),
            })?;
            if expected.scalar != data.scalar || expected.elem != data.elem || data.stream {
                return fail(
                    nested,
                    format!("structure member `{member}` does not have the type of `{leaf}`"),
                );
            }
            operands.push(data.memref.clone());
            types.push(data.memref_type());
            if !data.scalar {
                operands.push(match &data.base {
                    Some(b) => b.clone(),
                    None => self.body.index(0),
                });
                types.push("index".into());
            }
        }
        Ok(())
    }

    pub(super) fn nested_output(
        &mut self,
        nested: Op<'a>,
        result: Val<'a>,
        env: &HashMap<String, String>,
    ) -> Result<'a, (Data, String)> {
        for (user, operand) in result.uses() {
            match user.name() {
                "sdfg.access" => {
                    let writes = user.operand_segment(1);
                    let memlets = user.array_attr("write_memlets");
                    let position = writes.iter().position(|w| *w == result).unwrap_or(0);
                    let subset = memlets
                        .get(position)
                        .copied()
                        .and_then(Memlet::from_attr)
                        .map(|m| m.subset)
                        .unwrap_or_default();
                    return Ok((self.access_data(user, env)?, subset));
                }
                "sdfg.exit" => {
                    let names = user.str_array_attr("names");
                    let memlets = user.array_attr("memlets");
                    let Some(parent) = user.parent() else {
                        continue;
                    };
                    let subset = memlets
                        .get(operand)
                        .copied()
                        .and_then(Memlet::from_attr)
                        .map(|m| m.subset)
                        .unwrap_or_default();
                    if let Some(name) = names.get(operand) {
                        return Ok((self.output_data(parent, name, env)?, subset));
                    }
                }
                _ => {}
            }
        }
        fail(nested, "an output reaches no data")
    }
}

/// The elements from which a copy outside parallel loops runs in
/// parallel: a few pages, about what a fork and a join of a thread team
/// cost to copy.
const PARALLEL_COPY: i64 = 1 << 14;

/// One copy of [`Function::copy_elements`]: its op, the two subsets and
/// their containers, its resolution, the parameters of the enclosing
/// parallel loop, the subsets' sizes, whether they are the same up to unit
/// dimensions, and the source's dimensions that are not units.
struct ElementCopy<'x, 'a> {
    op: Op<'a>,
    src: &'x Data,
    from: &'x Subset,
    dst: &'x Data,
    to: &'x Subset,
    wcr: Option<Reduction>,
    parallel: &'x [String],
    src_sizes: Vec<Expr>,
    dst_sizes: Vec<Expr>,
    same_shape: bool,
    moving: Vec<usize>,
}

/// How many leading dimensions of a parallel map, of iteration counts
/// `extents` (`None` where symbolic), go into its parallel loop: up to the
/// first that is not a small constant, so that the loop has enough
/// iterations to share where the leading extents are constants. OpenMP
/// collapses a multi-dimensional parallel loop into one whose indices take
/// a division and a remainder per iteration, which also keeps the
/// innermost loop from being vectorized; DaCe's OpenMP maps likewise
/// parallelize their outermost dimension (`collapse` 1).
fn parallel_dimensions(extents: &[Option<i64>]) -> usize {
    const ENOUGH: i64 = 64;
    let mut product = 1i64;
    for (d, extent) in extents.iter().enumerate() {
        match extent {
            Some(n) if product.saturating_mul(*n) < ENOUGH => product *= n,
            _ => return d + 1,
        }
    }
    extents.len()
}

/// How many of the `split` leading parameters of a parallel map go into
/// its parallel loop so that it still owns what it resolves: the longest
/// prefix (at least one parameter) whose iterations own every container
/// the map writes with a resolution ([`owned_outputs`]), where the first
/// parameter alone does. `C[i, j] += A[i, k] * B[k, j]` over constant
/// tiles `tile_i, tile_k, tile_j` runs `tile_i` in parallel and `tile_k`
/// inside, rather than both in parallel with an atomic update per element.
fn owning_prefix(map: Op<'_>, params: &[&str], split: usize) -> usize {
    let Some(exit) = map.region_ops(0).into_iter().find(|o| o.is("sdfg.exit")) else {
        return split;
    };
    let resolving: BTreeSet<&str> = exit
        .str_array_attr("names")
        .into_iter()
        .zip(exit.array_attr("memlets"))
        .filter(|(_, m)| Memlet::from_attr(*m).is_some_and(|m| m.wcr != sdfg_dialect::Wcr::None))
        .map(|(n, _)| n)
        .collect();
    if resolving.is_empty() {
        return split;
    }
    let resolved: BTreeSet<String> = map
        .str_array_attr("out_names")
        .into_iter()
        .zip(map.results())
        .filter(|(n, _)| resolving.contains(n))
        .filter_map(|(_, r)| written_container(r))
        .collect();
    let owns = |s: usize| {
        let owned: BTreeSet<String> = owned_outputs(map, &params[..s]).into_iter().collect();
        resolved.is_subset(&owned)
    };
    (1..=split).rev().find(|s| owns(*s)).unwrap_or(split)
}

/// The containers that `map`'s outputs write where each iteration of the
/// parallel parameters `parallel` owns its own elements: every memlet on
/// the map's exit that reaches the container has, for each parallel
/// parameter `p` (of step `s`), a dimension `p + c : e` that no other
/// parallel parameter moves, at most `s` long whatever `p` is. Tiles of a
/// tiled map are disjoint so: `tile_i:Min(tile_i + 64, M)` over `tile_i`
/// in steps of 64.
fn owned_outputs(map: Op<'_>, parallel: &[&str]) -> Vec<String> {
    let steps: HashMap<&str, Expr> = map
        .str_array_attr("params")
        .into_iter()
        .zip(map.str_array_attr("ranges"))
        .filter_map(|(p, r)| {
            let step = parse_subset(r).ok()?.ranges().first()?.step.clone();
            Some((p, step))
        })
        .collect();
    let owns = |subset: &Subset| {
        parallel.iter().all(|p| {
            let Some(step) = steps.get(p) else {
                return false;
            };
            let moved: BTreeSet<String> = [p.to_string()].into();
            subset.ranges().iter().any(|r| {
                let offset = Expr::sub(&r.start, &Expr::symbol(p));
                let others = offset.free_symbols();
                let length = Expr::sub(&r.end, &r.start);
                r.start.mentions(p)
                    && !parallel.iter().any(|q| others.contains(*q))
                    && r.step.as_int() == Some(1)
                    && length
                        .upper_bound_free_of(&moved)
                        .is_some_and(|b| Expr::sub(step, &b).as_int().is_some_and(|d| d >= 0))
            })
        })
    };
    let Some(exit) = map.region_ops(0).into_iter().find(|o| o.is("sdfg.exit")) else {
        return Vec::new();
    };
    let names = exit.str_array_attr("names");
    let memlets = exit.array_attr("memlets");
    let out_names = map.str_array_attr("out_names");
    let mut owned: BTreeMap<String, bool> = BTreeMap::new();
    for (k, result) in map.results().into_iter().enumerate() {
        let Some(container) = written_container(result) else {
            continue;
        };
        let connector = out_names.get(k).copied().unwrap_or_default();
        let all = names
            .iter()
            .zip(&memlets)
            .filter(|(n, _)| **n == connector)
            .all(|(_, m)| {
                Memlet::from_attr(*m)
                    .and_then(|m| parse_subset(&m.subset).ok())
                    .is_some_and(|s| owns(&s))
            });
        *owned.entry(container).or_insert(true) &= all;
    }
    owned
        .into_iter()
        .filter(|(_, o)| *o)
        .map(|(n, _)| n)
        .collect()
}

/// Whether every parallel parameter pins a dimension of `subset` to a
/// single index that no other parameter moves: then no two parallel
/// iterations write the same element.
pub(super) fn private_to_iteration(subset: &Subset, parallel: &[String]) -> bool {
    parallel.iter().all(|p| {
        subset.ranges().iter().any(|r| {
            if !r.is_index() {
                return false;
            }
            let rest = Expr::sub(&r.start, &Expr::symbol(p));
            let symbols = rest.free_symbols();
            r.start.mentions(p) && !parallel.iter().any(|q| symbols.contains(q))
        })
    })
}
