//! Library nodes, lowered as DaCe's pure expansions compute them: loop
//! nests of loads, multiply-adds and stores over the nodes' memlet
//! subsets.
//!
//! | node | computes |
//! | --- | --- |
//! | `Reduce` | `out = identity` (when given), then `out[kept] = wcr(out[kept], in[..])` over the reduced `axes` (all by default) |
//! | `MatMul` | `C = A @ B` for matrix-matrix, matrix-vector, vector-matrix, vector-vector and batched (3-D) operands |
//! | `Gemm` | `C = alpha * op(A) @ op(B) + beta * C` (`transA`, `transB`) |
//! | `Gemv` | `y = alpha * op(A) @ x + beta * y` (`transA`) |
//! | `Dot` | `result = sum(x * y)` |
//! | `Transpose` | `out = inp.T` |
//! | `Axpy` | `res = a * x + y` |
//! | `Ger` | `res = alpha * x y^T + A` |
//!
//! Outer dimensions of the result run in parallel (`scf.parallel`) when the
//! node is not already inside a parallel loop; the accumulation runs
//! sequentially inside, so no atomics are needed. They also compute on
//! complex numbers (without conjugation, as `np.dot` and DaCe's
//! expansions; a complex `Reduce` sums or multiplies). `Cholesky`, `Solve` and `Inv` call LAPACK (`lapack.rs`);
//! other library nodes and vector elements are diagnostics.

use std::collections::HashMap;

use sdfg_dialect::ir::Op;
use sdfg_dialect::{incoming_edges, EdgeRole};
use sdfg_symbolic::{Expr, Subset};

use super::types::{Data, Elem};
use super::wcr::Reduction;
use super::{fail, parse_memlet_subset, range_index, Failure, Function, Lowered, Result};
use sdfg_dialect::library::{calls_lapack, logical_dims, node_kind, Properties, Scalar};
use sdfg_tasklet::{float_text, Ty};

/// One operand of a library node: its data and the subset the memlet
/// selects, seen as an array of the subset's non-unit dimensions (or of all
/// of them when the node wants that many).
#[derive(Clone)]
pub(super) struct Operand {
    pub(super) data: Data,
    subset: Subset,
    /// The subset dimensions the operand's logical dimensions are.
    dims: Vec<usize>,
}

impl Operand {
    pub(super) fn new<'a>(
        op: Op<'a>,
        name: &str,
        data: Data,
        subset: Subset,
        rank: Option<usize>,
    ) -> Result<'a, Operand> {
        let dims = logical_dims(&subset, rank)
            .map_err(|m| Failure::new(op, format!("operand `{name}` (subset `{subset}`) {m}")))?;
        Ok(Operand { data, subset, dims })
    }

    pub(super) fn rank(&self) -> usize {
        self.dims.len()
    }

    /// Whether the operand is a vector of consecutive elements (its one
    /// logical dimension has stride 1 and step 1).
    pub(super) fn is_contiguous_vector(&self) -> bool {
        let [d] = self.dims.as_slice() else {
            return false;
        };
        self.data.strides.get(*d).and_then(Expr::as_int) == Some(1)
            && self.subset.ranges().get(*d).and_then(|r| r.step.as_int()) == Some(1)
    }

    /// The size of logical dimension `k`.
    pub(super) fn size(&self, k: usize) -> Expr {
        self.subset.ranges()[self.dims[k]].size()
    }

    /// Whether the subset runs forward (a positive constant step) in
    /// every logical dimension.
    pub(super) fn steps_positive(&self) -> bool {
        self.dims.iter().all(|d| {
            self.subset.ranges()[*d]
                .step
                .as_int()
                .is_some_and(|s| s >= 1)
        })
    }

    /// Where the operand lies in its data's linear index space: the linear
    /// index of its first element, and the distance between neighbours
    /// along each logical dimension.
    pub(super) fn layout(&self) -> (Expr, Vec<Expr>) {
        let data = &self.data;
        let linear = |point: Vec<Expr>| -> Expr {
            let mut l = Expr::int(0);
            for (d, p) in point.iter().enumerate() {
                let stride = data.strides.get(d).cloned().unwrap_or_else(|| Expr::int(1));
                let offset = data.offsets.get(d).cloned().unwrap_or_else(|| Expr::int(0));
                l = Expr::add(&l, &Expr::mul(&Expr::add(p, &offset), &stride));
            }
            l
        };
        let zeros = vec![Expr::int(0); self.rank()];
        let first = linear(self.point(&zeros));
        let steps = (0..self.rank())
            .map(|k| {
                let mut at = zeros.clone();
                at[k] = Expr::int(1);
                Expr::sub(&linear(self.point(&at)), &first)
            })
            .collect();
        (first, steps)
    }

    /// Whether `other` is the same part of the same data.
    pub(super) fn same_subset(&self, other: &Operand) -> bool {
        self.data.name == other.data.name && self.subset == other.subset
    }

    /// The container point of logical index `index`.
    pub(super) fn point(&self, index: &[Expr]) -> Vec<Expr> {
        self.subset
            .ranges()
            .iter()
            .enumerate()
            .map(|(d, r)| match self.dims.iter().position(|x| *x == d) {
                Some(k) => range_index(r, &index[k]),
                None => r.start.clone(),
            })
            .collect()
    }
}

/// A loop variable of a generated nest.
pub(super) fn var(name: &str) -> Expr {
    Expr::symbol(name)
}

impl<'a> Function<'a, '_> {
    /// Lowers a library node.
    pub(super) fn lower_library(
        &mut self,
        node: Op<'a>,
        env: &HashMap<String, String>,
        parallel: &[String],
    ) -> Result<'a, ()> {
        let class = node.str_attr("class_path").unwrap_or_default();
        let kind = node_kind(class);
        let props = Properties::of(node);
        let mut inputs: HashMap<String, (Data, Subset)> = HashMap::new();
        for edge in incoming_edges(node)
            .into_iter()
            .filter(|e| e.role == EdgeRole::Input)
        {
            let name = edge.connector.unwrap_or_default().to_string();
            let Lowered::Data(data) = self.lowered(node, edge.source)? else {
                return fail(node, format!("input `{name}` is not data"));
            };
            let memlet = edge.memlet.map(|m| m.subset).unwrap_or_default();
            let subset = if memlet.is_empty() {
                Subset::full(&data.shape)
            } else {
                parse_memlet_subset(node, &memlet)?
            };
            inputs.insert(name, (data, subset));
        }
        let mut outputs: HashMap<String, (Data, Subset)> = HashMap::new();
        for (name, result) in node
            .str_array_attr("out_names")
            .into_iter()
            .zip(node.results())
        {
            let (data, subset) = self.nested_output(node, result, env)?;
            let subset = if subset.is_empty() {
                Subset::full(&data.shape)
            } else {
                parse_memlet_subset(node, &subset)?
            };
            outputs.insert(name.to_string(), (data, subset));
            self.values.insert(result, Lowered::Written);
        }
        let mut lib = Library {
            node,
            env: env.clone(),
            parallel: parallel.to_vec(),
            inputs,
            outputs,
            props,
        };
        if calls_lapack(class) {
            return self.lapack_on_host(&mut lib, kind);
        }
        let compound = lib
            .inputs
            .values()
            .chain(lib.outputs.values())
            .find(|(data, _)| data.elem.lanes().is_some());
        if let Some((data, _)) = compound {
            return fail(
                node,
                format!(
                    "library node `{kind}` on `{}` of {} elements cannot be lowered yet",
                    data.name, data.elem.ty
                ),
            );
        }
        // CBLAS where the conversion is asked to, or the node's
        // implementation is one of DaCe's CPU BLAS ones (as
        // `sdfg-auto-optimize` sets), and the node is on the host; the
        // loop nests otherwise.
        if self.module.linalg && !self.module.in_kernel && self.lower_linalg(&mut lib, kind)? {
            return Ok(());
        }
        let fast = matches!(node.str_attr("implementation"), Some("OpenBLAS" | "MKL"));
        if (self.module.blas || fast)
            && !self.module.in_kernel
            && self.lower_blas(&mut lib, kind, self.module.blas)?
        {
            return Ok(());
        }
        match kind {
            "Reduce" => self.reduce(&mut lib),
            "MatMul" => self.matmul(&mut lib),
            "Gemm" => self.gemm(&mut lib, "_a", "_b", true),
            "Gemv" => self.gemv(&mut lib),
            "Dot" => self.dot(&mut lib),
            "Transpose" => self.transpose(&mut lib),
            "Axpy" => self.axpy(&mut lib),
            "Ger" => self.ger(&mut lib),
            _ => fail(node, format!("library node `{class}` has no lowering")),
        }
    }

    /// A LAPACK node; one on device data (there is no GPU LAPACK here)
    /// runs on the host, on host copies of its containers, the written ones
    /// copied back after.
    fn lapack_on_host(&mut self, lib: &mut Library<'a>, kind: &str) -> Result<'a, ()> {
        let mut mirrors: Vec<(Data, String, bool)> = Vec::new();
        if !self.module.in_kernel {
            let outputs: Vec<String> = lib.outputs.values().map(|(d, _)| d.name.clone()).collect();
            for (data, _) in lib.inputs.values_mut().chain(lib.outputs.values_mut()) {
                if !self.on_device(data) {
                    continue;
                }
                let host = match mirrors.iter().find(|(d, _, _)| d.memref == data.memref) {
                    Some((_, host, _)) => host.clone(),
                    None => {
                        let host = self.host_mirror(data, true);
                        mirrors.push((data.clone(), host.clone(), outputs.contains(&data.name)));
                        host
                    }
                };
                data.memref = host;
                data.gpu_global = false;
            }
        }
        self.lower_lapack(lib, kind)?;
        for (device, host, written) in mirrors {
            let ty = device.memref_type();
            if written {
                self.device_memcpy(&device.memref, &host, &ty);
            }
            self.body.line(format!("memref.dealloc {host} : {ty}"));
        }
        Ok(())
    }

    /// Opens a loop nest over `vars` (name, count), parallel when allowed;
    /// returns the environment inside and the number of loops to close.
    pub(super) fn open_nest(
        &mut self,
        lib: &Library<'a>,
        vars: &[(String, Expr)],
        parallel: bool,
    ) -> Result<'a, (HashMap<String, String>, LoopKind)> {
        let mut env = lib.env.clone();
        if vars.is_empty() {
            return Ok((env, LoopKind::None));
        }
        let zero = self.body.index(0);
        let one = self.body.index(1);
        let mut counts = Vec::new();
        for (_, count) in vars {
            counts.push(self.emit_int(lib.node, &env, count)?);
        }
        let ivs: Vec<String> = vars.iter().map(|_| self.body.fresh()).collect();
        let kind = if parallel && !self.in_parallel_loop(&lib.parallel) {
            self.body.open(format!(
                "scf.parallel ({}) = ({}) to ({}) step ({})",
                ivs.join(", "),
                vec![zero.as_str(); vars.len()].join(", "),
                counts.join(", "),
                vec![one.as_str(); vars.len()].join(", ")
            ));
            LoopKind::Parallel
        } else {
            for (iv, count) in ivs.iter().zip(&counts) {
                self.body
                    .open(format!("scf.for {iv} = {zero} to {count} step {one}"));
            }
            LoopKind::Sequential(vars.len())
        };
        for ((name, _), iv) in vars.iter().zip(ivs) {
            env.insert(name.clone(), iv);
        }
        Ok((env, kind))
    }

    pub(super) fn close_nest(&mut self, kind: LoopKind) {
        let n = match kind {
            LoopKind::None => 0,
            LoopKind::Parallel => 1,
            LoopKind::Sequential(n) => n,
        };
        for _ in 0..n {
            self.body.close("");
        }
    }

    /// A constant of `elem` from a number.
    pub(super) fn constant(&mut self, value: f64, elem: &Elem) -> String {
        if let Some(part) = sdfg_dialect::layout::part(&elem.ty) {
            let ty = Ty::parse(part).unwrap_or(Ty::Float(64));
            self.body.assign(format!(
                "complex.constant [{}, {}] : {}",
                float_text(value, ty),
                float_text(0.0, ty),
                elem.ty
            ))
        } else if elem.is_float() {
            let ty = Ty::parse(&elem.ty).unwrap_or(Ty::Float(64));
            self.body.assign(format!(
                "arith.constant {} : {}",
                float_text(value, ty),
                elem.ty
            ))
        } else {
            self.body
                .assign(format!("arith.constant {} : {}", value as i64, elem.ty))
        }
    }

    /// A scalar property's value as `elem`: a constant, or its symbolic
    /// expression computed as C++ computes it (it may read floating-point
    /// symbols).
    pub(super) fn scalar_value(
        &mut self,
        lib: &Library<'a>,
        value: &Scalar,
        elem: &Elem,
    ) -> Result<'a, String> {
        match value {
            Scalar::Number(n) => Ok(self.constant(*n, elem)),
            Scalar::Symbolic(text, expr) => {
                self.python_expression(lib.node, &lib.env, text, expr, &elem.ty)
            }
        }
    }

    fn arith(&mut self, op: &str, a: &str, b: &str, elem: &Elem) -> String {
        if elem.is_complex() {
            return self
                .body
                .assign(format!("complex.{op} {a}, {b} : {}", elem.ty));
        }
        let name = match (op, elem.is_float()) {
            ("add", true) => "addf",
            ("add", false) => "addi",
            ("mul", true) => "mulf",
            _ => "muli",
        };
        self.body
            .assign(format!("arith.{name} {a}, {b} : {}", elem.ty))
    }

    pub(super) fn read(
        &mut self,
        lib: &Library<'a>,
        env: &HashMap<String, String>,
        operand: &Operand,
        index: &[Expr],
        elem: &Elem,
    ) -> Result<'a, String> {
        let v = self.load(lib.node, env, &operand.data, &operand.point(index))?;
        self.convert(lib.node, &v, &operand.data.elem, &elem.ty)
    }

    /// Stores `value` at `index` of operand `at.0` (`at.1`).
    pub(super) fn write(
        &mut self,
        lib: &Library<'a>,
        env: &HashMap<String, String>,
        at: (&Operand, &[Expr]),
        value: &str,
        elem: &Elem,
        wcr: Option<Reduction>,
    ) -> Result<'a, ()> {
        let (operand, index) = at;
        let subset = Subset::indices(operand.point(index));
        let parallel = lib.parallel.clone();
        self.store(
            lib.node,
            env,
            value,
            elem,
            &operand.data,
            &subset,
            wcr,
            &parallel,
        )
    }

    /// `sum over k < count of x[x_index] * y[y_index]` (the indices mention
    /// the loop variable `__k`), accumulated in a register.
    fn dot_product(
        &mut self,
        lib: &Library<'a>,
        env: &HashMap<String, String>,
        count: &Expr,
        x: (&Operand, &[Expr]),
        y: (&Operand, &[Expr]),
        elem: &Elem,
    ) -> Result<'a, String> {
        let zero = self.constant(0.0, elem);
        let (acc, sum, k) = (self.body.fresh(), self.body.fresh(), self.body.fresh());
        let (lo, hi, one) = (
            self.body.index(0),
            self.emit_int(lib.node, env, count)?,
            self.body.index(1),
        );
        self.body.open(format!(
            "{sum} = scf.for {k} = {lo} to {hi} step {one} iter_args({acc} = {zero}) -> ({})",
            elem.ty
        ));
        let mut inner = env.clone();
        inner.insert("__k".into(), k);
        let a = self.read(lib, &inner, x.0, x.1, elem)?;
        let b = self.read(lib, &inner, y.0, y.1, elem)?;
        let p = self.arith("mul", &a, &b, elem);
        let s = self.arith("add", &acc, &p, elem);
        self.body.line(format!("scf.yield {s} : {}", elem.ty));
        self.body.close("");
        Ok(sum)
    }

    /// Folds `value` (emitted per point of the loop nest over `vars`,
    /// given its environment) into an accumulator of `elem` that starts at
    /// `start`, with `reduction`: nested `scf.for` loops carrying it in
    /// registers. Sums and products of floats may be reassociated
    /// (`fastmath<reassoc>`, as DaCe's `-ffast-math` build does), so that
    /// they vectorize.
    #[allow(clippy::too_many_arguments)]
    fn accumulate(
        &mut self,
        lib: &Library<'a>,
        env: &HashMap<String, String>,
        vars: &[(String, Expr)],
        start: &str,
        elem: &Elem,
        reduction: Reduction,
        mut value: impl FnMut(&mut Self, &HashMap<String, String>) -> Result<'a, String>,
    ) -> Result<'a, String> {
        let mut env = env.clone();
        let (lo, one) = (self.body.index(0), self.body.index(1));
        let mut acc = start.to_string();
        let mut results = Vec::new();
        for (name, count) in vars {
            let hi = self.emit_int(lib.node, &env, count)?;
            let (iv, carried, result) = (self.body.fresh(), self.body.fresh(), self.body.fresh());
            self.body.open(format!(
                "{result} = scf.for {iv} = {lo} to {hi} step {one} iter_args({carried} = {acc}) -> ({})",
                elem.ty
            ));
            env.insert(name.clone(), iv);
            acc = carried;
            results.push(result);
        }
        let v = value(self, &env)?;
        let reassociable = match reduction {
            Reduction::Sum if elem.is_float() && !elem.is_complex() => Some("addf"),
            Reduction::Product if elem.is_float() && !elem.is_complex() => Some("mulf"),
            _ => None,
        };
        let mut next = match reassociable {
            Some(op) => self.body.assign(format!(
                "arith.{op} {acc}, {v} fastmath<reassoc> : {}",
                elem.ty
            )),
            None => reduction.combine(&mut self.body, &acc, &v, elem),
        };
        for result in results.into_iter().rev() {
            self.body.line(format!("scf.yield {next} : {}", elem.ty));
            self.body.close("");
            next = result;
        }
        Ok(next)
    }

    /// [`Self::accumulate`] split over threads, for a reduction of a whole
    /// input outside any parallel loop: blocks of the first axis (of 4096
    /// elements where it is the only axis) run in parallel, each folds
    /// its part from `start` in registers, and OpenMP combines the parts
    /// (`scf.reduce`, which `convert-scf-to-openmp` lowers). `None` where
    /// OpenMP has no reduction for `reduction` on `elem` (it has sums,
    /// products, and float minima and maxima as a compare and a select);
    /// `start` must then be the identity.
    #[allow(clippy::too_many_arguments)]
    fn parallel_accumulate(
        &mut self,
        lib: &Library<'a>,
        env: &HashMap<String, String>,
        vars: &[(String, Expr)],
        start: &str,
        elem: &Elem,
        reduction: Reduction,
        mut value: impl FnMut(&mut Self, &HashMap<String, String>) -> Result<'a, String>,
    ) -> Result<'a, Option<String>> {
        let predicate = match reduction {
            _ if elem.is_complex() || elem.lanes().is_some() => return Ok(None),
            Reduction::Sum | Reduction::Product => None,
            Reduction::Max if elem.is_float() => Some("ogt"),
            Reduction::Min if elem.is_float() => Some("olt"),
            _ => return Ok(None),
        };
        let Some(((first, count), rest)) = vars.split_first() else {
            return Ok(None);
        };
        let t = &elem.ty;
        let (zero, one) = (self.body.index(0), self.body.index(1));
        let n = self.emit_int(lib.node, env, count)?;
        let block = self.body.index(if rest.is_empty() { 4096 } else { 1 });
        let blocks = self
            .body
            .assign(format!("arith.ceildivui {n}, {block} : index"));
        let (b, result) = (self.body.fresh(), self.body.fresh());
        self.body.open(format!(
            "{result} = scf.parallel ({b}) = ({zero}) to ({blocks}) step ({one}) init ({start}) -> {t}"
        ));
        let lo = self.body.assign(format!("arith.muli {b}, {block} : index"));
        let end = self
            .body
            .assign(format!("arith.addi {lo}, {block} : index"));
        let hi = self.body.assign(format!("arith.minui {end}, {n} : index"));
        let (i, carried, part) = (self.body.fresh(), self.body.fresh(), self.body.fresh());
        self.body.open(format!(
            "{part} = scf.for {i} = {lo} to {hi} step {one} iter_args({carried} = {start}) -> ({t})"
        ));
        let mut inner = env.clone();
        inner.insert(first.clone(), i);
        let folded = self.accumulate(lib, &inner, rest, &carried, elem, reduction, &mut value)?;
        self.body.line(format!("scf.yield {folded} : {t}"));
        self.body.close("");
        self.body.open(format!("scf.reduce({part} : {t})"));
        let (x, y) = (self.body.fresh(), self.body.fresh());
        self.body.line(format!("^bb0({x}: {t}, {y}: {t}):"));
        let combined = match predicate {
            Some(p) => {
                let test = self.body.assign(format!("arith.cmpf {p}, {x}, {y} : {t}"));
                self.body
                    .assign(format!("arith.select {test}, {x}, {y} : {t}"))
            }
            None => reduction.combine(&mut self.body, &x, &y, elem),
        };
        self.body
            .line(format!("scf.reduce.return {combined} : {t}"));
        self.body.close("");
        self.body.close("");
        Ok(Some(result))
    }

    fn reduce(&mut self, lib: &mut Library<'a>) -> Result<'a, ()> {
        let node = lib.node;
        let (in_data, in_subset) = lib.input("")?.clone();
        let rank = in_subset.dims();
        let input = Operand::new(node, "input", in_data, in_subset, Some(rank))?;
        let (out_data, out_subset) = lib.output("")?;
        let n = input.rank();
        let axes = lib.props.axes(n);
        if axes.iter().any(|a| *a >= n) {
            return fail(
                node,
                format!("reduction axes {axes:?} exceed the input's {n} dimensions"),
            );
        }
        let wcr_text = lib
            .text("wcr")
            .unwrap_or_else(|| "lambda a, b: a + b".into());
        let Some(reduction) = Reduction::from_lambda(&wcr_text) else {
            return fail(
                node,
                format!("reduction `{wcr_text}` is not one the lowering knows"),
            );
        };
        if input.data.elem.is_complex() && !matches!(reduction, Reduction::Sum | Reduction::Product)
        {
            return fail(
                node,
                format!(
                    "reduction `{wcr_text}` of `{}` is not a sum or a product, the reductions complex numbers have",
                    input.data.name
                ),
            );
        }
        let kept: Vec<usize> = (0..n).filter(|d| !axes.contains(d)).collect();
        let output = Operand::new(
            node,
            "output",
            out_data,
            out_subset.clone(),
            (out_subset.dims() >= kept.len()).then_some(kept.len()),
        )?;
        let elem = output.data.elem.clone();
        if kept.last() == Some(&(n - 1))
            && !axes.is_empty()
            && output.rank() == kept.len()
            && !elem.is_complex()
            && elem.lanes().is_none()
        {
            let shape = ReduceShape {
                kept: &kept,
                axes: &axes,
                reduction,
                identity: lib.number("identity"),
            };
            return self.reduce_by_rows(lib, &input, &output, &shape, &elem);
        }
        let outer: Vec<(String, Expr)> = kept
            .iter()
            .map(|d| (format!("__r{d}"), input.size(*d)))
            .collect();
        let inner: Vec<(String, Expr)> = axes
            .iter()
            .map(|d| (format!("__r{d}"), input.size(*d)))
            .collect();
        let out_index: Vec<Expr> = if output.rank() == kept.len() {
            kept.iter().map(|d| var(&format!("__r{d}"))).collect()
        } else {
            vec![Expr::int(0); output.rank()]
        };
        let (outer_env, outer_kind) = self.open_nest(lib, &outer, true)?;
        let inner_lib = Library {
            env: outer_env.clone(),
            parallel: if matches!(outer_kind, LoopKind::Parallel) {
                outer.iter().map(|(n, _)| n.clone()).collect()
            } else {
                lib.parallel.clone()
            },
            ..lib.shallow()
        };
        if let Some(identity) = lib.number("identity") {
            // The reduction of one output element starts at the identity
            // and stays in a register until its one store.
            let start = self.constant(identity, &elem);
            let read = |f: &mut Self, env: &HashMap<String, String>| {
                let in_index: Vec<Expr> = (0..n).map(|d| var(&format!("__r{d}"))).collect();
                f.read(&inner_lib, env, &input, &in_index, &elem)
            };
            let total = if kept.is_empty() && !self.in_parallel_loop(&lib.parallel) {
                self.parallel_accumulate(
                    &inner_lib, &outer_env, &inner, &start, &elem, reduction, read,
                )?
            } else {
                None
            };
            let total = match total {
                Some(total) => total,
                None => self.accumulate(
                    &inner_lib, &outer_env, &inner, &start, &elem, reduction, read,
                )?,
            };
            self.write(
                &inner_lib,
                &outer_env,
                (&output, &out_index),
                &total,
                &elem,
                None,
            )?;
            self.close_nest(outer_kind);
            return Ok(());
        }
        let (env, inner_kind) = self.open_nest(&inner_lib, &inner, false)?;
        let in_index: Vec<Expr> = (0..n).map(|d| var(&format!("__r{d}"))).collect();
        let v = self.read(&inner_lib, &env, &input, &in_index, &elem)?;
        self.write(
            &inner_lib,
            &env,
            (&output, &out_index),
            &v,
            &elem,
            Some(reduction),
        )?;
        self.close_nest(inner_kind);
        self.close_nest(outer_kind);
        Ok(())
    }

    /// A `Reduce` that keeps the input's last (contiguous) dimension:
    /// `out[.., j] = identity`, then `out[.., j] = wcr(out[.., j], in[.., j])`
    /// with the reduced axes outside the `j` loop, so that the innermost
    /// loop runs along rows of the input and the output (vectorised)
    /// instead of down columns with one register each. The kept leading
    /// dimensions and blocks of `REDUCE_ROW_BLOCK` elements of `j` are
    /// the parallel loop; each block of the output stays in the L1 cache
    /// while the reduced axes go by.
    fn reduce_by_rows(
        &mut self,
        lib: &Library<'a>,
        input: &Operand,
        output: &Operand,
        shape: &ReduceShape<'_>,
        elem: &Elem,
    ) -> Result<'a, ()> {
        let last = input.rank() - 1;
        let block = Expr::int(REDUCE_ROW_BLOCK);
        let width = input.size(last);
        let mut outer: Vec<(String, Expr)> = shape.kept[..shape.kept.len() - 1]
            .iter()
            .map(|d| (format!("__r{d}"), input.size(*d)))
            .collect();
        outer.push(("__rb".into(), Expr::ceildiv(&width, &block)));
        let (outer_env, outer_kind) = self.open_nest(lib, &outer, true)?;
        // The blocks of `j` are disjoint by construction: an iteration's
        // writes are its own where they name the other parallel variables
        // (`private_to_iteration` cannot see through `512 * __rb + __rj`).
        let inner_lib = Library {
            env: outer_env.clone(),
            parallel: if matches!(outer_kind, LoopKind::Parallel) {
                outer[..outer.len() - 1]
                    .iter()
                    .map(|(n, _)| n.clone())
                    .collect()
            } else {
                lib.parallel.clone()
            },
            ..lib.shallow()
        };
        let first = Expr::mul(&var("__rb"), &block);
        let span = (
            "__rj".to_string(),
            Expr::min(vec![block.clone(), Expr::sub(&width, &first)]),
        );
        let j = Expr::add(&first, &var("__rj"));
        let at = |d: usize| {
            if d == last {
                j.clone()
            } else {
                var(&format!("__r{d}"))
            }
        };
        let out_index: Vec<Expr> = shape.kept.iter().map(|d| at(*d)).collect();
        if let Some(identity) = shape.identity {
            let (env, kind) = self.open_nest(&inner_lib, std::slice::from_ref(&span), false)?;
            let start = self.constant(identity, elem);
            self.write(&inner_lib, &env, (output, &out_index), &start, elem, None)?;
            self.close_nest(kind);
        }
        let mut nest: Vec<(String, Expr)> = shape
            .axes
            .iter()
            .map(|d| (format!("__r{d}"), input.size(*d)))
            .collect();
        nest.push(span);
        let (env, kind) = self.open_nest(&inner_lib, &nest, false)?;
        let in_index: Vec<Expr> = (0..input.rank()).map(at).collect();
        let v = self.read(&inner_lib, &env, input, &in_index, elem)?;
        self.write(
            &inner_lib,
            &env,
            (output, &out_index),
            &v,
            elem,
            Some(shape.reduction),
        )?;
        self.close_nest(kind);
        self.close_nest(outer_kind);
        Ok(())
    }

    fn matmul(&mut self, lib: &mut Library<'a>) -> Result<'a, ()> {
        let a = lib.operand("_a", None)?;
        let b = lib.operand("_b", None)?;
        match (a.rank(), b.rank()) {
            (2, 2) | (3, 3) | (2, 3) => self.gemm(lib, "_a", "_b", false),
            (2, 1) | (1, 2) | (1, 1) => {
                let elem = lib.output("_c")?.0.elem.clone();
                let c = lib.operand("_c", None)?;
                let (m, k) = if a.rank() == 2 {
                    (Some(a.size(0)), a.size(1))
                } else {
                    (None, a.size(0))
                };
                let n = if b.rank() == 2 { Some(b.size(1)) } else { None };
                let outer: Vec<(String, Expr)> = m
                    .into_iter()
                    .map(|m| ("__i".to_string(), m))
                    .chain(n.map(|n| ("__j".to_string(), n)))
                    .collect();
                let (env, kind) = self.open_nest(lib, &outer, true)?;
                let a_index = if a.rank() == 2 {
                    vec![var("__i"), var("__k")]
                } else {
                    vec![var("__k")]
                };
                let b_index = if b.rank() == 2 {
                    vec![var("__k"), var("__j")]
                } else {
                    vec![var("__k")]
                };
                let sum = self.dot_product(lib, &env, &k, (&a, &a_index), (&b, &b_index), &elem)?;
                let c_index: Vec<Expr> = outer.iter().map(|(n, _)| var(n)).collect();
                let c_index = if c.rank() == c_index.len() {
                    c_index
                } else {
                    vec![Expr::int(0); c.rank()]
                };
                self.write(lib, &env, (&c, &c_index), &sum, &elem, None)?;
                self.close_nest(kind);
                Ok(())
            }
            (x, y) => fail(
                lib.node,
                format!("MatMul of {x}-D and {y}-D operands has no lowering"),
            ),
        }
    }

    /// `C = alpha * op(A) @ op(B) + beta * C`, batched for a 3-D `B` (with a
    /// 3-D `A`, or one 2-D `A` for every batch, as DaCe's `BatchedMatMul`):
    /// row-parallel, accumulating `A[i, k] * B[k, :]` into the row of `C`
    /// (vectorisable over `j`).
    fn gemm(
        &mut self,
        lib: &mut Library<'a>,
        a_name: &str,
        b_name: &str,
        blas: bool,
    ) -> Result<'a, ()> {
        let a = lib.operand(a_name, None)?;
        let b = lib.operand(b_name, None)?;
        let c = lib.operand("_c", Some(b.rank()))?;
        let elem = c.data.elem.clone();
        let (trans_a, trans_b) = if blas {
            (lib.flag("transA"), lib.flag("transB"))
        } else {
            (false, false)
        };
        let alpha = lib.scalar("alpha", Scalar::Number(1.0))?;
        let beta = if blas {
            lib.number_scalar("beta", 0.0)?
        } else {
            0.0
        };
        let batched = b.rank() == 3;
        let off = usize::from(batched);
        let a_off = usize::from(a.rank() == 3);
        let (m, k) = if trans_a {
            (a.size(a_off + 1), a.size(a_off))
        } else {
            (a.size(a_off), a.size(a_off + 1))
        };
        let n = if trans_b {
            b.size(off)
        } else {
            b.size(off + 1)
        };
        // C may be read as beta * Cin from a separate input.
        let c_in = if blas && beta != 0.0 {
            Some(
                lib.operand("_cin", Some(c.rank()))
                    .unwrap_or_else(|_| c.clone()),
            )
        } else {
            None
        };
        let mut outer = Vec::new();
        if batched {
            outer.push(("__b".to_string(), b.size(0)));
        }
        outer.push(("__i".to_string(), m));
        let (env, kind) = self.open_nest(lib, &outer, true)?;
        let index = |row: Expr, col: Expr| -> Vec<Expr> {
            if batched {
                vec![var("__b"), row, col]
            } else {
                vec![row, col]
            }
        };
        // C[i, :] = beta * Cin[i, :] (or 0).
        let lib_inner = Library {
            env: env.clone(),
            ..lib.shallow()
        };
        let (jenv, jkind) = self.open_nest(&lib_inner, &[("__j".to_string(), n.clone())], false)?;
        let init = match &c_in {
            Some(cin) => {
                let v = self.read(
                    &lib_inner,
                    &jenv,
                    cin,
                    &index(var("__i"), var("__j")),
                    &elem,
                )?;
                let bt = self.constant(beta, &elem);
                self.arith("mul", &bt, &v, &elem)
            }
            None => self.constant(0.0, &elem),
        };
        self.write(
            &lib_inner,
            &jenv,
            (&c, &index(var("__i"), var("__j"))),
            &init,
            &elem,
            None,
        )?;
        self.close_nest(jkind);
        // for k: a = alpha * A[i, k]; for j: C[i, j] += a * B[k, j].
        let (kenv, kkind) = self.open_nest(&lib_inner, &[("__k".to_string(), k)], false)?;
        let mut a_index = if trans_a {
            index(var("__k"), var("__i"))
        } else {
            index(var("__i"), var("__k"))
        };
        if a.rank() < a_index.len() {
            a_index.remove(0);
        }
        let mut x = self.read(&lib_inner, &kenv, &a, &a_index, &elem)?;
        if alpha != Scalar::Number(1.0) {
            let al = self.scalar_value(&lib_inner, &alpha, &elem)?;
            x = self.arith("mul", &al, &x, &elem);
        }
        let lib_k = Library {
            env: kenv.clone(),
            ..lib.shallow()
        };
        let (jenv, jkind) = self.open_nest(&lib_k, &[("__j".to_string(), n)], false)?;
        let b_index = if trans_b {
            index(var("__j"), var("__k"))
        } else {
            index(var("__k"), var("__j"))
        };
        let y = self.read(&lib_k, &jenv, &b, &b_index, &elem)?;
        let p = self.arith("mul", &x, &y, &elem);
        self.write(
            &lib_k,
            &jenv,
            (&c, &index(var("__i"), var("__j"))),
            &p,
            &elem,
            Some(Reduction::Sum),
        )?;
        self.close_nest(jkind);
        self.close_nest(kkind);
        self.close_nest(kind);
        Ok(())
    }

    fn gemv(&mut self, lib: &mut Library<'a>) -> Result<'a, ()> {
        let a = lib.operand("_A", Some(2))?;
        let x = lib.operand("_x", Some(1))?;
        let y = lib.operand("_y", Some(1))?;
        let elem = y.data.elem.clone();
        let trans = lib.flag("transA");
        let alpha = lib.scalar("alpha", Scalar::Number(1.0))?;
        let beta = lib.number_scalar("beta", 0.0)?;
        let (m, k) = if trans {
            (a.size(1), a.size(0))
        } else {
            (a.size(0), a.size(1))
        };
        let (env, kind) = self.open_nest(lib, &[("__i".to_string(), m)], true)?;
        let a_index = if trans {
            vec![var("__k"), var("__i")]
        } else {
            vec![var("__i"), var("__k")]
        };
        let sum = self.dot_product(lib, &env, &k, (&a, &a_index), (&x, &[var("__k")]), &elem)?;
        let al = self.scalar_value(lib, &alpha, &elem)?;
        let mut result = self.arith("mul", &al, &sum, &elem);
        if beta != 0.0 {
            let y_in = lib.operand("_y_in", Some(1)).unwrap_or_else(|_| y.clone());
            let old = self.read(lib, &env, &y_in, &[var("__i")], &elem)?;
            let bt = self.constant(beta, &elem);
            let scaled = self.arith("mul", &bt, &old, &elem);
            result = self.arith("add", &result, &scaled, &elem);
        }
        self.write(lib, &env, (&y, &[var("__i")]), &result, &elem, None)?;
        self.close_nest(kind);
        Ok(())
    }

    fn dot(&mut self, lib: &mut Library<'a>) -> Result<'a, ()> {
        let x = lib.operand("_x", Some(1))?;
        let y = lib.operand("_y", Some(1))?;
        let (out_data, out_subset) = lib.output("_result")?;
        let out = Operand::new(lib.node, "_result", out_data, out_subset, None)?;
        let elem = out.data.elem.clone();
        let env = lib.env.clone();
        let k = [var("__k")];
        let sum = self.dot_product(lib, &env, &x.size(0), (&x, &k), (&y, &k), &elem)?;
        let index = vec![Expr::int(0); out.rank()];
        self.write(lib, &env, (&out, &index), &sum, &elem, None)
    }

    fn transpose(&mut self, lib: &mut Library<'a>) -> Result<'a, ()> {
        let inp = lib.operand("_inp", Some(2))?;
        let out = lib.operand("_out", Some(2))?;
        let elem = out.data.elem.clone();
        let vars = [
            ("__i".to_string(), inp.size(0)),
            ("__j".to_string(), inp.size(1)),
        ];
        let (env, kind) = self.open_nest(lib, &vars, true)?;
        let v = self.read(lib, &env, &inp, &[var("__i"), var("__j")], &elem)?;
        self.write(
            lib,
            &env,
            (&out, &[var("__j"), var("__i")]),
            &v,
            &elem,
            None,
        )?;
        self.close_nest(kind);
        Ok(())
    }

    fn axpy(&mut self, lib: &mut Library<'a>) -> Result<'a, ()> {
        let x = lib.operand("_x", Some(1))?;
        let y = lib.operand("_y", Some(1))?;
        let res = lib.operand("_res", Some(1))?;
        let elem = res.data.elem.clone();
        let a = lib.scalar("a", Scalar::symbol("a"))?;
        let (env, kind) = self.open_nest(lib, &[("__i".to_string(), x.size(0))], true)?;
        let xv = self.read(lib, &env, &x, &[var("__i")], &elem)?;
        let yv = self.read(lib, &env, &y, &[var("__i")], &elem)?;
        let av = self.scalar_value(lib, &a, &elem)?;
        let p = self.arith("mul", &av, &xv, &elem);
        let s = self.arith("add", &p, &yv, &elem);
        self.write(lib, &env, (&res, &[var("__i")]), &s, &elem, None)?;
        self.close_nest(kind);
        Ok(())
    }

    fn ger(&mut self, lib: &mut Library<'a>) -> Result<'a, ()> {
        let x = lib.operand("_x", Some(1))?;
        let y = lib.operand("_y", Some(1))?;
        let a = lib.operand("_A", Some(2))?;
        let res = lib.operand("_res", Some(2))?;
        let elem = res.data.elem.clone();
        let alpha = lib.scalar("alpha", Scalar::Number(1.0))?;
        let vars = [
            ("__i".to_string(), x.size(0)),
            ("__j".to_string(), y.size(0)),
        ];
        let (env, kind) = self.open_nest(lib, &vars, true)?;
        let xv = self.read(lib, &env, &x, &[var("__i")], &elem)?;
        let yv = self.read(lib, &env, &y, &[var("__j")], &elem)?;
        let av = self.read(lib, &env, &a, &[var("__i"), var("__j")], &elem)?;
        let al = self.scalar_value(lib, &alpha, &elem)?;
        let p = self.arith("mul", &xv, &yv, &elem);
        let q = self.arith("mul", &al, &p, &elem);
        let s = self.arith("add", &q, &av, &elem);
        self.write(
            lib,
            &env,
            (&res, &[var("__i"), var("__j")]),
            &s,
            &elem,
            None,
        )?;
        self.close_nest(kind);
        Ok(())
    }
}

/// How a generated nest was opened.
#[derive(Clone, Copy)]
pub(super) enum LoopKind {
    None,
    Parallel,
    Sequential(usize),
}

/// A library node being lowered.
/// The elements of the output row that one iteration of a row-wise
/// `Reduce` (`reduce_by_rows`) accumulates: 4 KiB of `f64`.
const REDUCE_ROW_BLOCK: i64 = 512;

/// What a `Reduce` keeps and reduces, and how.
struct ReduceShape<'s> {
    kept: &'s [usize],
    axes: &'s [usize],
    reduction: Reduction,
    identity: Option<f64>,
}

pub(super) struct Library<'a> {
    pub(super) node: Op<'a>,
    pub(super) env: HashMap<String, String>,
    pub(super) parallel: Vec<String>,
    inputs: HashMap<String, (Data, Subset)>,
    outputs: HashMap<String, (Data, Subset)>,
    pub(super) props: Properties,
}

impl<'a> Library<'a> {
    /// A copy for a nested loop level (the environment is replaced by the
    /// caller).
    fn shallow(&self) -> Library<'a> {
        Library {
            node: self.node,
            env: self.env.clone(),
            parallel: self.parallel.clone(),
            inputs: self.inputs.clone(),
            outputs: self.outputs.clone(),
            props: self.props.clone(),
        }
    }

    fn input(&self, name: &str) -> Result<'a, &(Data, Subset)> {
        self.inputs
            .get(name)
            .ok_or_else(|| Failure::new(self.node, format!("has no input `{name}`")))
    }

    pub(super) fn output(&self, name: &str) -> Result<'a, (Data, Subset)> {
        self.outputs
            .get(name)
            .cloned()
            .ok_or_else(|| Failure::new(self.node, format!("has no output `{name}`")))
    }

    /// An input or output connector as an operand.
    pub(super) fn operand(&self, name: &str, rank: Option<usize>) -> Result<'a, Operand> {
        let (data, subset) = match self.inputs.get(name) {
            Some(x) => x.clone(),
            None => self.output(name)?,
        };
        Operand::new(self.node, name, data, subset, rank)
    }

    fn text(&self, key: &str) -> Option<String> {
        self.props.text(key)
    }

    fn number(&self, key: &str) -> Option<f64> {
        self.props.number(key)
    }

    /// [`Properties::scalar`], as a diagnostic on the node.
    pub(super) fn scalar(&self, key: &str, default: Scalar) -> Result<'a, Scalar> {
        self.props
            .scalar(key, default)
            .map_err(|message| Failure::new(self.node, message))
    }

    /// [`Properties::number_scalar`], as a diagnostic on the node.
    pub(super) fn number_scalar(&self, key: &str, default: f64) -> Result<'a, f64> {
        self.props
            .number_scalar(key, default)
            .map_err(|message| Failure::new(self.node, message))
    }

    pub(super) fn flag(&self, key: &str) -> bool {
        self.props.flag(key)
    }
}
