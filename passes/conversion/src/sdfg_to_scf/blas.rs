//! The BLAS library nodes lowered to calls of CBLAS, as DaCe's fast
//! implementations (`OpenBLAS`, picked by `set_fast_implementations` and
//! `auto_optimize`) call it; with the conversion option `blas=true`
//! (`sdfg-run --blas`). The loop nests of `library.rs` stay the default
//! and the fallback.
//!
//! | node | calls |
//! | --- | --- |
//! | `MatMul` (matrix-matrix), `Gemm` | `cblas_?gemm` |
//! | `MatMul` (matrix-vector, vector-matrix), `Gemv` | `cblas_?gemv` |
//! | `MatMul` (vector-vector), `Dot` | `cblas_?dot` |
//!
//! `?` is `d` or `s` (`f64`, `f32`); other element types, batched
//! (3-D) products, and operands of different element types keep the loop
//! nests. CBLAS is Debian's `libblas.so.3`, OpenBLAS's where
//! `libopenblas0` is installed (the alternatives system points it there),
//! which `sdfg-run` loads when the module calls it; an object file
//! (`--emit-object`) links with `-lblas`.
//!
//! The operands are staged as for LAPACK (`lapack.rs`): copied into
//! dense row-major buffers, the result copied back into the output's
//! subset, so that any memlet subset and layout works. The copies are
//! `O(n^2)` next to a product's `O(n^3)`.
//!
//! ```mlir
//! // before: sdfg.library {class_path = "...matmul.MatMul"} on A (M x K), B (K x N)
//! %a = memref.alloc(%mk) : memref<?xf64>   // A staged, and B, and C
//! func.call @cblas_dgemm(%c101, %c111, %c111, %m, %n, %k, %one, %pa, %k, %pb, %n, %zero, %pc, %n)
//!     : (i32, i32, i32, i32, i32, i32, f64, !llvm.ptr, i32, !llvm.ptr, i32, f64, !llvm.ptr, i32) -> ()
//! // C copied into the output's subset
//! ```

use sdfg_dialect::library::Scalar;

use super::lapack::{Staged, ROW_MAJOR};
use super::library::{Library, Operand};
use super::streams::runtime_call;
use super::types::Elem;
use super::{Function, Result};

/// `CblasNoTrans` and `CblasTrans` in `cblas.h`.
const NO_TRANS: i64 = 111;
const TRANS: i64 = 112;

/// The CBLAS functions the lowering calls, by name without the type
/// letter: their MLIR signatures (`T` stands for the element type, `ptr`
/// for `!llvm.ptr`).
const SIGNATURES: [(&str, &str); 3] = [
    (
        "gemm",
        "(i32, i32, i32, i32, i32, i32, T, ptr, i32, ptr, i32, T, ptr, i32) -> ()",
    ),
    (
        "gemv",
        "(i32, i32, i32, i32, T, ptr, i32, ptr, i32, T, ptr, i32) -> ()",
    ),
    ("dot", "(i32, ptr, i32, ptr, i32) -> T"),
];

/// The MLIR declaration of CBLAS function `name` (`cblas_dgemm`).
pub(super) fn declaration(name: &str) -> Option<String> {
    let rest = name.strip_prefix("cblas_")?;
    let ty = match rest.chars().next()? {
        'd' => "f64",
        's' => "f32",
        _ => return None,
    };
    let (_, signature) = SIGNATURES.iter().find(|(r, _)| *r == &rest[1..])?;
    Some(format!(
        "func.func private @{name}{}\n",
        signature.replace("ptr", "!llvm.ptr").replace('T', ty)
    ))
}

/// CBLAS's letter for an element type, where CBLAS computes on it.
fn type_letter(elem: &Elem) -> Option<char> {
    match elem.ty.as_str() {
        "f64" => Some('d'),
        "f32" => Some('s'),
        _ => None,
    }
}

impl<'a> Function<'a, '_> {
    /// Lowers a `MatMul`, `Gemm`, `Gemv` or `Dot` node to CBLAS; `false`
    /// (nothing emitted) where CBLAS does not compute it (see the module
    /// documentation).
    pub(super) fn lower_blas(&mut self, lib: &mut Library<'a>, kind: &str) -> Result<'a, bool> {
        let (a, b, out) = match kind {
            "MatMul" | "Gemm" => ("_a", "_b", "_c"),
            "Gemv" => ("_A", "_x", "_y"),
            "Dot" => ("_x", "_y", "_result"),
            _ => return Ok(false),
        };
        let (Ok(a), Ok(b), Ok((out_data, out_subset))) =
            (lib.operand(a, None), lib.operand(b, None), lib.output(out))
        else {
            return Ok(false);
        };
        let Ok(out) = Operand::new(lib.node, out, out_data, out_subset, None) else {
            return Ok(false);
        };
        let elem = out.data.elem.clone();
        let Some(letter) = type_letter(&elem) else {
            return Ok(false);
        };
        if a.data.elem != elem || b.data.elem != elem {
            return Ok(false);
        }
        let gemm_props = kind == "Gemm";
        let alpha = lib.scalar("alpha", Scalar::Number(1.0))?;
        let beta = if matches!(kind, "Gemm" | "Gemv") {
            lib.number_scalar("beta", 0.0)?
        } else {
            0.0
        };
        match (a.rank(), b.rank()) {
            (2, 2) => {
                let (ta, tb) = if gemm_props {
                    (lib.flag("transA"), lib.flag("transB"))
                } else {
                    (false, false)
                };
                self.blas_gemm(lib, letter, (&a, ta), (&b, tb), &out, &alpha, beta)?;
            }
            (2, 1) => {
                let trans = kind == "Gemv" && lib.flag("transA");
                self.blas_gemv(lib, letter, (&a, trans), &b, &out, &alpha, beta)?;
            }
            // x @ B is B^T x.
            (1, 2) if kind == "MatMul" => {
                self.blas_gemv(lib, letter, (&b, true), &a, &out, &alpha, 0.0)?
            }
            (1, 1) if out.rank() <= 1 => self.blas_dot(lib, letter, &a, &b, &out)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// `C = alpha * op(A) op(B) + beta * C` with `cblas_?gemm`.
    #[allow(clippy::too_many_arguments)]
    fn blas_gemm(
        &mut self,
        lib: &Library<'a>,
        letter: char,
        (a, trans_a): (&Operand, bool),
        (b, trans_b): (&Operand, bool),
        c: &Operand,
        alpha: &Scalar,
        beta: f64,
    ) -> Result<'a, ()> {
        let elem = c.data.elem.clone();
        let sa = self.stage(lib, a)?;
        let sb = self.stage(lib, b)?;
        let sc = self.result_buffer(lib, c, beta)?;
        let (m, k) = if trans_a {
            (&sa.cols, &sa.rows)
        } else {
            (&sa.rows, &sa.cols)
        };
        let n = if trans_b { &sb.rows } else { &sb.cols };
        let (m, n, k) = (
            self.lapack_int(lib, m)?,
            self.lapack_int(lib, n)?,
            self.lapack_int(lib, k)?,
        );
        let (lda, ldb, ldc) = (
            self.leading_dimension(lib, &sa.cols)?,
            self.leading_dimension(lib, &sb.cols)?,
            self.leading_dimension(lib, &sc.cols)?,
        );
        let major = self.i32_constant(ROW_MAJOR);
        let ta = self.i32_constant(if trans_a { TRANS } else { NO_TRANS });
        let tb = self.i32_constant(if trans_b { TRANS } else { NO_TRANS });
        let al = self.scalar_value(lib, alpha, &elem)?;
        let bt = self.constant(beta, &elem);
        let (pa, pb, pc) = (
            self.pointer(&sa.data),
            self.pointer(&sb.data),
            self.pointer(&sc.data),
        );
        let t = elem.ty.as_str();
        self.cblas(
            &format!("cblas_{letter}gemm"),
            &[
                (&major, "i32"),
                (&ta, "i32"),
                (&tb, "i32"),
                (&m, "i32"),
                (&n, "i32"),
                (&k, "i32"),
                (&al, t),
                (&pa, "!llvm.ptr"),
                (&lda, "i32"),
                (&pb, "!llvm.ptr"),
                (&ldb, "i32"),
                (&bt, t),
                (&pc, "!llvm.ptr"),
                (&ldc, "i32"),
            ],
            None,
        );
        self.unstage(lib, &sc, c)?;
        for data in [&sa.data, &sb.data, &sc.data] {
            self.free(data);
        }
        Ok(())
    }

    /// `y = alpha * op(A) x + beta * y` with `cblas_?gemv`.
    #[allow(clippy::too_many_arguments)]
    fn blas_gemv(
        &mut self,
        lib: &Library<'a>,
        letter: char,
        (a, trans): (&Operand, bool),
        x: &Operand,
        y: &Operand,
        alpha: &Scalar,
        beta: f64,
    ) -> Result<'a, ()> {
        let elem = y.data.elem.clone();
        let sa = self.stage(lib, a)?;
        let sx = self.stage(lib, x)?;
        let sy = self.result_buffer(lib, y, beta)?;
        let (rows, cols) = (
            self.lapack_int(lib, &sa.rows)?,
            self.lapack_int(lib, &sa.cols)?,
        );
        let lda = self.leading_dimension(lib, &sa.cols)?;
        let major = self.i32_constant(ROW_MAJOR);
        let t = self.i32_constant(if trans { TRANS } else { NO_TRANS });
        let one = self.i32_constant(1);
        let al = self.scalar_value(lib, alpha, &elem)?;
        let bt = self.constant(beta, &elem);
        let (pa, px, py) = (
            self.pointer(&sa.data),
            self.pointer(&sx.data),
            self.pointer(&sy.data),
        );
        let ty = elem.ty.as_str();
        self.cblas(
            &format!("cblas_{letter}gemv"),
            &[
                (&major, "i32"),
                (&t, "i32"),
                (&rows, "i32"),
                (&cols, "i32"),
                (&al, ty),
                (&pa, "!llvm.ptr"),
                (&lda, "i32"),
                (&px, "!llvm.ptr"),
                (&one, "i32"),
                (&bt, ty),
                (&py, "!llvm.ptr"),
                (&one, "i32"),
            ],
            None,
        );
        self.unstage(lib, &sy, y)?;
        for data in [&sa.data, &sx.data, &sy.data] {
            self.free(data);
        }
        Ok(())
    }

    /// `result = x . y` with `cblas_?dot`.
    fn blas_dot(
        &mut self,
        lib: &Library<'a>,
        letter: char,
        x: &Operand,
        y: &Operand,
        out: &Operand,
    ) -> Result<'a, ()> {
        let elem = out.data.elem.clone();
        let sx = self.stage(lib, x)?;
        let sy = self.stage(lib, y)?;
        let n = self.lapack_int(lib, &sx.rows)?;
        let one = self.i32_constant(1);
        let (px, py) = (self.pointer(&sx.data), self.pointer(&sy.data));
        let sum = self.cblas(
            &format!("cblas_{letter}dot"),
            &[
                (&n, "i32"),
                (&px, "!llvm.ptr"),
                (&one, "i32"),
                (&py, "!llvm.ptr"),
                (&one, "i32"),
            ],
            Some(&elem.ty),
        );
        let index = vec![sdfg_symbolic::Expr::int(0); out.rank()];
        let env = lib.env.clone();
        self.write(lib, &env, (out, &index), &sum, &elem, None)?;
        self.free(&sx.data);
        self.free(&sy.data);
        Ok(())
    }

    /// The buffer a product accumulates into: the output's current values
    /// where `beta` scales them in, else a fresh one.
    fn result_buffer(&mut self, lib: &Library<'a>, out: &Operand, beta: f64) -> Result<'a, Staged> {
        if beta != 0.0 {
            let input = ["_cin", "_y_in"]
                .iter()
                .find_map(|n| lib.operand(n, Some(out.rank())).ok())
                .unwrap_or_else(|| out.clone());
            return self.stage(lib, &input);
        }
        let cols = if out.rank() == 2 {
            out.size(1)
        } else {
            sdfg_symbolic::Expr::int(1)
        };
        let staged = self.buffer(lib, &out.data.elem, out.size(0), cols)?;
        // CBLAS returns at once for an empty inner dimension, leaving the
        // result as it was: zeros, as the product of nothing.
        let count = &staged.rows * &staged.cols;
        let zero = self.constant(0.0, &out.data.elem);
        let (env, kind) = self.open_nest(lib, &[("__k".into(), count)], false)?;
        let index = env.get("__k").cloned().unwrap_or_default();
        self.body.line(format!(
            "memref.store {zero}, {}[{index}] : memref<?x{}>",
            staged.data.memref, out.data.elem.ty
        ));
        self.close_nest(kind);
        Ok(staged)
    }

    /// Calls CBLAS function `name` on `args` (value, type); returns its
    /// result, of type `result` (where it has one).
    fn cblas(&mut self, name: &str, args: &[(&str, &str)], result: Option<&str>) -> String {
        self.module.library_calls.insert(name.to_string());
        let (values, types): (Vec<&str>, Vec<&str>) = args.iter().copied().unzip();
        runtime_call(
            &mut self.body,
            &format!(
                "func.call @{name}({}) : ({}) -> {}",
                values.join(", "),
                types.join(", "),
                result.unwrap_or("()")
            ),
            result,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::declaration;

    #[test]
    fn declarations_follow_cblas_h() {
        assert_eq!(
            declaration("cblas_ddot").as_deref(),
            Some("func.func private @cblas_ddot(i32, !llvm.ptr, i32, !llvm.ptr, i32) -> f64\n")
        );
        assert!(declaration("cblas_sgemm").is_some_and(
            |d| d.contains("i32, f32, !llvm.ptr, i32, !llvm.ptr, i32, f32, !llvm.ptr, i32)")
        ));
        assert_eq!(declaration("cblas_zgemm"), None);
        assert_eq!(declaration("LAPACKE_dpotrf"), None);
    }
}
