//! Library nodes lowered to linalg's named ops, with the conversion option
//! `linalg=true`: a program that came from linalg (`convert-to-sdfg` makes
//! its products library nodes) goes back to linalg, and keeps access to
//! upstream's linalg transformations (tiling, fusion, vectorization,
//! `transform` scripts) and to any backend that takes linalg.
//!
//! | node | linalg |
//! | --- | --- |
//! | `MatMul`, `Gemm` | `matmul`, or by the operands' ranks `matvec`, `vecmat`, `dot`, and `batch_matmul` (`MatMul` only) |
//! | `Gemv` | `matvec` |
//! | `Dot` | `dot` |
//! | `Transpose` | `transpose`, permutation `[1, 0]` |
//!
//! linalg's products accumulate into their output. Where the node's
//! `beta` is 0 (`MatMul`, `Dot`, and `Gemm`/`Gemv` by default), a
//! `linalg.fill` with zero comes first. Where it is 1, the output starts as
//! `_cin` (`_y` for `Gemv`): nothing to do when that is the output's own
//! subset, else a `linalg.copy` first. `alpha` must be 1.
//!
//! Each operand is a view of its container's buffer, made with
//! `memref.reinterpret_cast` from the memlet subset: its offset, sizes,
//! and strides (the container's strides times the subset's steps), so any
//! subset of any layout is used in place, without copies. A transposed
//! operand (`transA`, `transB`) is the same view with its two dimensions
//! swapped.
//!
//! Whatever linalg does not say this way keeps the loop nests of
//! `library.rs` (or CBLAS): other `alpha`/`beta` values, complex or vector
//! elements, streams, references, device data, an input in the output's
//! container (linalg's products assume that operands do not overlap), and
//! subsets that run backwards.
//!
//! ```mlir
//! // before: sdfg.library Gemm {alpha 1, beta 1} on A[0:M, 0:K],
//! //         B[0:K, 0:N], _cin = C[0:M, 0:N]
//! // after
//! %a = memref.reinterpret_cast %A to offset: [%o], sizes: [%m, %k],
//!        strides: [%k, %c1] : memref<?xf64> to memref<?x?xf64, strided<[?, ?], offset: ?>>
//! %b = ..., %c = ...
//! linalg.matmul ins(%a, %b : memref<?x?xf64, strided<[?, ?], offset: ?>>, ...)
//!               outs(%c : memref<?x?xf64, strided<[?, ?], offset: ?>>)
//! ```

use sdfg_dialect::library::Scalar;

use super::library::{Library, Operand};
use super::types::Elem;
use super::{Function, Result};

/// An operand as linalg takes it: a view (value and type).
struct View {
    value: String,
    ty: String,
}

impl<'a> Function<'a, '_> {
    /// Lowers a `MatMul`, `Gemm`, `Gemv`, `Dot` or `Transpose` node to
    /// linalg; `false` (nothing emitted) where linalg does not express it
    /// (see the module documentation).
    pub(super) fn lower_linalg(&mut self, lib: &mut Library<'a>, kind: &str) -> Result<'a, bool> {
        let (names, out_name): (&[&str], &str) = match kind {
            "MatMul" | "Gemm" => (&["_a", "_b"], "_c"),
            "Gemv" => (&["_A", "_x"], "_y"),
            "Dot" => (&["_x", "_y"], "_result"),
            "Transpose" => (&["_inp"], "_out"),
            _ => return Ok(false),
        };
        let mut ins = Vec::new();
        for name in names {
            match lib.operand(name, None) {
                Ok(o) => ins.push(o),
                Err(_) => return Ok(false),
            }
        }
        let Ok((data, subset)) = lib.output(out_name) else {
            return Ok(false);
        };
        let Ok(out) = Operand::new(lib.node, out_name, data, subset, None) else {
            return Ok(false);
        };
        if !self.linalg_data(&out, &out.data.elem)
            || !ins.iter().all(|o| self.linalg_operand(o, &out))
        {
            return Ok(false);
        }
        let (alpha, beta) = if kind == "Transpose" {
            (Scalar::Number(1.0), 0.0)
        } else {
            (
                lib.scalar("alpha", Scalar::Number(1.0))?,
                lib.number_scalar("beta", 0.0)?,
            )
        };
        if !matches!(alpha, Scalar::Number(a) if a == 1.0) || (beta != 0.0 && beta != 1.0) {
            return Ok(false);
        }
        let trans = match kind {
            "Gemm" => [lib.flag("transA"), lib.flag("transB")],
            "Gemv" => [lib.flag("transA"), false],
            _ => [false, false],
        };
        let ranks: Vec<usize> = ins.iter().map(Operand::rank).collect();
        let op = match (kind, ranks.as_slice(), out.rank()) {
            ("Transpose", [2], 2) => "transpose",
            ("MatMul" | "Gemm", [2, 2], 2) => "matmul",
            ("MatMul" | "Gemm" | "Gemv", [2, 1], 1) => "matvec",
            ("MatMul" | "Gemm", [1, 2], 1) => "vecmat",
            ("MatMul" | "Gemm" | "Dot", [1, 1], 0) => "dot",
            ("MatMul", [3, 3], 3) => "batch_matmul",
            _ => return Ok(false),
        };
        // The accumulated output's initial values: `_cin`, or the output's
        // own where the node reads it under the output's name.
        let start = if beta == 1.0 {
            let input = ["_cin", "_y_in", "_y"]
                .iter()
                .find_map(|n| lib.operand(n, Some(out.rank())).ok());
            match input {
                Some(c) if c.data.name == out.data.name && !c.same_subset(&out) => {
                    return Ok(false)
                }
                Some(c) if c.data.name != out.data.name => {
                    if !self.linalg_operand(&c, &out) {
                        return Ok(false);
                    }
                    Some(c)
                }
                _ => None,
            }
        } else {
            None
        };
        let mut views = Vec::new();
        for (k, operand) in ins.iter().enumerate() {
            let Some(view) = self.linalg_view(lib, operand, trans[k])? else {
                return Ok(false);
            };
            views.push(view);
        }
        let Some(target) = self.linalg_view(lib, &out, false)? else {
            return Ok(false);
        };
        if op != "transpose" {
            match &start {
                Some(c) => {
                    let Some(from) = self.linalg_view(lib, c, false)? else {
                        return Ok(false);
                    };
                    self.body.line(format!(
                        "linalg.copy ins({} : {}) outs({} : {})",
                        from.value, from.ty, target.value, target.ty
                    ));
                }
                None if beta == 0.0 => {
                    let zero = self.constant(0.0, &out.data.elem);
                    self.body.line(format!(
                        "linalg.fill ins({zero} : {}) outs({} : {})",
                        out.data.elem.ty, target.value, target.ty
                    ));
                }
                None => {}
            }
        }
        let values: Vec<&str> = views.iter().map(|v| v.value.as_str()).collect();
        let types: Vec<&str> = views.iter().map(|v| v.ty.as_str()).collect();
        let permutation = if op == "transpose" {
            " permutation = [1, 0]"
        } else {
            ""
        };
        self.body.line(format!(
            "linalg.{op} ins({} : {}) outs({} : {}){permutation}",
            values.join(", "),
            types.join(", "),
            target.value,
            target.ty
        ));
        Ok(true)
    }

    /// Whether linalg can take the input `operand` of a node whose output
    /// is `out`: data it can take ([`Self::linalg_data`]) in a container
    /// other than the output's.
    fn linalg_operand(&self, operand: &Operand, out: &Operand) -> bool {
        operand.data.name != out.data.name && self.linalg_data(operand, &out.data.elem)
    }

    /// Whether linalg can take `operand` as elements `elem`: plain host
    /// data of that type (an integer or a float) whose subset runs
    /// forward.
    fn linalg_data(&self, operand: &Operand, elem: &Elem) -> bool {
        let data = &operand.data;
        let numeric = elem.lanes().is_none() && !elem.is_complex();
        numeric
            && data.elem == *elem
            && !data.stream
            && data.reference.is_none()
            && !self.on_device(data)
            && operand.steps_positive()
    }

    /// `operand` as a strided view of its data's buffer, its two
    /// dimensions swapped where `transposed`.
    fn linalg_view(
        &mut self,
        lib: &Library<'a>,
        operand: &Operand,
        transposed: bool,
    ) -> Result<'a, Option<View>> {
        let rank = operand.rank();
        if transposed && rank != 2 {
            return Ok(None);
        }
        let (first, mut steps) = operand.layout();
        let mut sizes: Vec<_> = (0..rank).map(|k| operand.size(k)).collect();
        if transposed {
            steps.reverse();
            sizes.reverse();
        }
        let offset = self.buffer_index(lib, &operand.data, &first)?;
        let env = lib.env.clone();
        let mut size_values = Vec::new();
        let mut stride_values = Vec::new();
        for (size, step) in sizes.iter().zip(&steps) {
            size_values.push(self.emit_int(lib.node, &env, size)?);
            stride_values.push(self.emit_int(lib.node, &env, step)?);
        }
        let t = &operand.data.elem.ty;
        let ty = format!(
            "memref<{}{t}, strided<[{}], offset: ?>>",
            "?x".repeat(rank),
            vec!["?"; rank].join(", ")
        );
        let value = self.body.assign(format!(
            "memref.reinterpret_cast {} to offset: [{offset}], sizes: [{}], strides: [{}] : {} to {ty}",
            operand.data.memref,
            size_values.join(", "),
            stride_values.join(", "),
            operand.data.memref_type()
        ));
        Ok(Some(View { value, ty }))
    }
}
