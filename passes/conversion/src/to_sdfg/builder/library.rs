//! linalg's BLAS-like named ops as DaCe library nodes.
//!
//! A DaCe user writes `C += A @ B` and gets a `Gemm` node, which DaCe's
//! BLAS implementations, `sdfg-expand-library-nodes`, the lowering to
//! CBLAS and the lowering back to linalg all understand. The same
//! products written as linalg named ops keep that meaning here instead of
//! becoming loop nests (the other linalg ops still go through upstream's
//! `convert-linalg-to-parallel-loops`; `mod.rs` sets these ops aside
//! before it runs). linalg's products accumulate into their output, where
//! DaCe's overwrite unless `beta` says otherwise:
//!
//! | linalg | library node |
//! | --- | --- |
//! | `matmul(A, B; C)` | `Gemm`, alpha 1, beta 1: `_a`, `_b`, `_cin` = C, out `_c` = C |
//! | `matvec(A, x; y)` | `Gemv`, alpha 1, beta 1: `_A`, `_x`, `_y` = y, out `_y` = y |
//! | `vecmat(x, A; y)` | the same `Gemv` with `transA` |
//! | `batch_matmul(A, B; C)` | a map over the batch of that `Gemm` on slices |
//! | `dot(x, y; r)` | `Dot` into a transient, then a tasklet `r = r + t` |
//! | `transpose(I; O)`, permutation `[1, 0]` | `Transpose`, `_inp` to `_out` |
//! | `copy(I; O)` | an access-to-access copy, as `memref.copy` |
//!
//! `linalg.fill` stays a map with one tasklet, which is what DaCe writes
//! for `A[:] = v`. Operands are containers or dense parts of them
//! (subviews with unit strides): the memlets carry the subsets. Operands
//! that skip elements go through upstream's loops, since DaCe 1.0.2's
//! BLAS expansions take an operand's strides from its container and
//! ignore the memlet's steps.
//!
//! ```mlir
//! // before
//! linalg.matmul ins(%A, %B : memref<?x?xf64>, memref<?x?xf64>)
//!               outs(%C : memref<?x?xf64>)
//! // after
//! %g = sdfg.library "gemm4" "dace.libraries.blas.nodes.gemm.Gemm"
//!        ins("_a" = %a["0:arg0_d0, 0:arg0_d1"] : ..., "_b" = %b[...] : ...,
//!            "_cin" = %c["0:arg2_d0, 0:arg2_d1"] : ...)
//!        outs("_c" : ...) properties {alpha = "1", beta = "1"}
//! %w = sdfg.access %arg2 writes(%g["0:arg2_d0, 0:arg2_d1"] : ...) : ...
//! ```

use std::collections::{BTreeSet, HashMap};

use mlir_sys::*;
use sdfg_dialect::ir::{type_to_string, Op, Val};
use sdfg_symbolic::Expr;
use sdfg_tasklet::Ty;

use super::{Alias, Container, Flow, Sdfg, Seq, Shared};
use crate::to_sdfg::{fail, Result};

const GEMM: &str = "dace.libraries.blas.nodes.gemm.Gemm";
const GEMV: &str = "dace.libraries.blas.nodes.gemv.Gemv";
const DOT: &str = "dace.libraries.blas.nodes.dot.Dot";
const TRANSPOSE: &str = "dace.libraries.standard.nodes.transpose.Transpose";

/// Whether the conversion keeps the linalg op `op` whole (see the module
/// documentation): a product, 2-D transpose or copy on memrefs of one
/// integer or float element type, whose output is not also an input.
pub(in crate::to_sdfg) fn kept_whole(op: Op<'_>) -> bool {
    let kind = op.name().strip_prefix("linalg.").unwrap_or_default();
    if !matches!(
        kind,
        "matmul" | "matvec" | "vecmat" | "dot" | "batch_matmul" | "transpose" | "copy"
    ) {
        return false;
    }
    if kind == "transpose" {
        let Some(perm) = op.attr("permutation") else {
            return false;
        };
        // SAFETY: the permutation is a dense i64 array.
        let perm: Vec<i64> = unsafe {
            (0..mlirDenseArrayGetNumElements(perm))
                .map(|i| mlirDenseI64ArrayGetElement(perm, i))
                .collect()
        };
        if perm != [1, 0] {
            return false;
        }
    }
    let operands = op.operands();
    let mut elems = BTreeSet::new();
    for v in &operands {
        // SAFETY: the types are live.
        let scalar = unsafe {
            if !mlirTypeIsAMemRef(v.ty()) {
                return false;
            }
            let elem = mlirShapedTypeGetElementType(v.ty());
            mlirTypeIsAFloat(elem) || mlirTypeIsAInteger(elem)
        };
        if !scalar {
            return false;
        }
        // SAFETY: the type is a memref.
        elems.insert(type_to_string(unsafe {
            mlirShapedTypeGetElementType(v.ty())
        }));
    }
    // Inputs that share the output's memref are left to upstream's loops,
    // which define what reading a partly written operand gives. So are
    // operands that skip elements (subviews with strides): DaCe 1.0.2's
    // BLAS expansions take an operand's strides from its container, not
    // from the memlet's steps, and would compute something else.
    let (out, ins) = operands.split_last().expect("linalg ops have operands");
    elems.len() == 1
        && ins.iter().all(|v| root(*v) != root(*out))
        && operands.iter().all(|v| dense(*v))
}

/// The memref that `v` is a view of (through subviews, casts and
/// reshapes).
fn root(v: Val<'_>) -> Val<'_> {
    match v.defining_op() {
        Some(op) if super::reshape::is_view(op) => root(op.operands()[0]),
        _ => v,
    }
}

/// Whether every view on the way from `v` to its root is a subview with
/// unit strides or a cast.
fn dense(v: Val<'_>) -> bool {
    let Some(op) = v.defining_op() else {
        return true;
    };
    if op.is("memref.cast") {
        return dense(op.operands()[0]);
    }
    // A reshaped operand has no strides a BLAS node could take.
    if super::reshape::is_view(op) && !op.is("memref.subview") {
        return false;
    }
    if !op.is("memref.subview") {
        return true;
    }
    let Some(strides) = op.attr("static_strides") else {
        return false;
    };
    // SAFETY: the strides are a dense i64 array.
    let unit = unsafe {
        (0..mlirDenseArrayGetNumElements(strides))
            .all(|i| mlirDenseI64ArrayGetElement(strides, i) == 1)
    };
    unit && dense(op.operands()[0])
}

/// One connector of a library node: its name, container and subset.
struct Port<'p> {
    connector: &'p str,
    alias: &'p Alias,
}

impl<'p> Port<'p> {
    fn new(connector: &'p str, alias: &'p Alias) -> Port<'p> {
        Port { connector, alias }
    }
}

impl<'a> Sdfg<'a> {
    /// The linalg op `op`, kept whole, at position `p`: a library node (or
    /// a copy), in a state of its own where it conflicts with the current
    /// one.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn library(
        &mut self,
        shared: &mut Shared<'a>,
        seq: &mut Seq,
        flow: &mut Flow<'a>,
        index: &HashMap<Op<'a>, usize>,
        p: usize,
        op: Op<'a>,
    ) -> Result<'a, ()> {
        let kind = op.name().trim_start_matches("linalg.");
        if kind == "copy" {
            return self.copy(shared, seq, flow, index, p, op);
        }
        let mut ports = Vec::new();
        for v in op.operands() {
            ports.push(self.alias_of(op, v)?);
        }
        let out = ports.last().expect("linalg ops have operands").clone();
        if kind == "batch_matmul" {
            return self.batch_matmul(shared, seq, flow, index, p, &ports);
        }
        let mut reads: BTreeSet<String> = ports.iter().map(|a| a.container.clone()).collect();
        if kind == "transpose" {
            reads = BTreeSet::from([ports[0].container.clone()]);
        }
        let writes = BTreeSet::from([out.container.clone()]);
        if self.conflicts(flow, index, p, &reads, &writes) {
            self.close(shared, seq, flow, index, p)?;
        }
        let accumulate = "alpha = \"1\", beta = \"1\"".to_string();
        // The class, the inputs (connector, operand), the output connector
        // and the properties.
        let (class, inputs, output, props): (&str, Vec<(&str, usize)>, &str, String) = match kind {
            "matmul" => (
                GEMM,
                vec![("_a", 0), ("_b", 1), ("_cin", 2)],
                "_c",
                accumulate,
            ),
            "matvec" => (
                GEMV,
                vec![("_A", 0), ("_x", 1), ("_y", 2)],
                "_y",
                accumulate,
            ),
            "vecmat" => (
                GEMV,
                vec![("_A", 1), ("_x", 0), ("_y", 2)],
                "_y",
                format!("{accumulate}, transA = \"true\""),
            ),
            "transpose" => {
                // DaCe's Transpose declares its element type.
                let elem = &self.containers[&out.container].elem;
                let dtype = Ty::parse(elem).map_or("float64", Ty::dace_name);
                (
                    TRANSPOSE,
                    vec![("_inp", 0)],
                    "_out",
                    format!("dtype = \"\\22{dtype}\\22\""),
                )
            }
            "dot" => return self.dot(shared, seq, flow, index, p, &ports),
            _ => return fail(op, "internal error: not a library op"),
        };
        let ins: Vec<Port> = inputs
            .iter()
            .map(|(connector, k)| Port::new(connector, &ports[*k]))
            .collect();
        self.library_node(shared, flow, class, &ins, Port::new(output, &out), &props)
    }

    /// Writes a library node of class `class` into `flow`.
    fn library_node(
        &mut self,
        shared: &mut Shared<'a>,
        flow: &mut Flow<'a>,
        class: &str,
        ins: &[Port<'_>],
        out: Port<'_>,
        props: &str,
    ) -> Result<'a, ()> {
        let kind = class.rsplit('.').next().unwrap_or_default().to_lowercase();
        let label = format!("{kind}{}", shared.id());
        let mut texts = Vec::new();
        for port in ins {
            let (container, subset) = (&port.alias.container, port.alias.subset());
            texts.push(self.input_edge(shared, flow, port.connector, container, &subset));
        }
        let container = out.alias.container.clone();
        let ty = self.containers[&container].ty();
        flow.lines.push(format!(
            "%{label} = sdfg.library \"{label}\" \"{class}\" ins({}) outs(\"{}\" : {ty}) properties {{{props}}}\n",
            texts.join(", "),
            out.connector
        ));
        self.write(
            shared,
            flow,
            &container,
            &format!("%{label}"),
            &out.alias.subset(),
            &ty,
            false,
            None,
        );
        Ok(())
    }

    /// `r += x . y`: a `Dot` into a transient, then a tasklet adding it to
    /// `r` (in the next state, which reads the transient).
    #[allow(clippy::too_many_arguments)]
    fn dot(
        &mut self,
        shared: &mut Shared<'a>,
        seq: &mut Seq,
        flow: &mut Flow<'a>,
        index: &HashMap<Op<'a>, usize>,
        p: usize,
        ports: &[Alias],
    ) -> Result<'a, ()> {
        let out = &ports[2];
        let elem = self.containers[&out.container].elem.clone();
        let name = shared.fresh("dot");
        let t = self.transient(Container {
            name,
            elem: elem.clone(),
            shape: vec![Expr::int(1)],
            strides: None,
        });
        let whole = Alias::whole(t.clone(), vec![Expr::int(1)]);
        self.library_node(
            shared,
            flow,
            DOT,
            &[Port::new("_x", &ports[0]), Port::new("_y", &ports[1])],
            Port::new("_result", &whole),
            "",
        )?;
        let reads = BTreeSet::from([t.clone(), out.container.clone()]);
        let writes = BTreeSet::from([out.container.clone()]);
        if self.conflicts(flow, index, p, &reads, &writes) {
            self.close(shared, seq, flow, index, p)?;
        }
        let add = if elem.starts_with('f') {
            "arith.addf"
        } else {
            "arith.addi"
        };
        let label = format!("add{}", shared.id());
        let ins = [
            self.input_edge(shared, flow, "__in0", &t, "0"),
            self.input_edge(shared, flow, "__in1", &out.container, &out.subset()),
        ];
        flow.lines.push(format!(
            "%{label} = sdfg.tasklet \"{label}\" ins({}) outs(\"__out0\" : {elem}) {{\n^bb0(%i0: {elem}, %i1: {elem}):\n  %s = {add} %i0, %i1 : {elem}\n  sdfg.yield %s : {elem}\n}}\n",
            ins.join(", ")
        ));
        let container = out.container.clone();
        self.write(
            shared,
            flow,
            &container,
            &format!("%{label}"),
            &out.subset(),
            &elem,
            false,
            None,
        );
        Ok(())
    }

    /// `C[b] += A[b] @ B[b]` for every `b`: a map over the batch whose body
    /// is a `Gemm` (beta 1) on the slices.
    #[allow(clippy::too_many_arguments)]
    fn batch_matmul(
        &mut self,
        shared: &mut Shared<'a>,
        seq: &mut Seq,
        flow: &mut Flow<'a>,
        index: &HashMap<Op<'a>, usize>,
        p: usize,
        ports: &[Alias],
    ) -> Result<'a, ()> {
        let b = shared.fresh("__b");
        self.params.insert(b.clone());
        let slices: Vec<Alias> = ports.iter().map(|a| a.slice(&Expr::symbol(&b))).collect();
        let mut map = Flow::map();
        self.library_node(
            shared,
            &mut map,
            GEMM,
            &[
                Port::new("_a", &slices[0]),
                Port::new("_b", &slices[1]),
                Port::new("_cin", &slices[2]),
            ],
            Port::new("_c", &slices[2]),
            "alpha = \"1\", beta = \"1\"",
        )?;
        let range = format!("0:{}", ports[2].sizes[0]);
        self.close_map(shared, seq, flow, index, p, map, &[(b, range)])
    }
}

impl Alias {
    /// The whole of container `container` of shape `shape`.
    pub(super) fn whole(container: String, shape: Vec<Expr>) -> Alias {
        Alias {
            container,
            offsets: vec![Expr::int(0); shape.len()],
            strides: vec![Expr::int(1); shape.len()],
            dims: (0..shape.len()).collect(),
            sizes: shape,
            reshape: None,
        }
    }

    /// The part of the alias at index `i` of its first dimension.
    fn slice(&self, i: &Expr) -> Alias {
        let mut out = self.clone();
        let d = out.dims.remove(0);
        out.sizes.remove(0);
        out.offsets[d] = Expr::add(&self.offsets[d], &Expr::mul(&self.strides[d], i));
        out
    }
}
