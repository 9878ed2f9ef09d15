//! The linear-algebra library nodes DaCe implements only with LAPACK
//! (`dace.libraries.linalg`: `Cholesky`, `Solve`, `Inv`), lowered to calls
//! of LAPACKE, the C interface Debian's `liblapacke` provides (backed by
//! OpenBLAS when `libopenblas0` is installed), as DaCe's `OpenBLAS`
//! expansions call it.
//!
//! | node | computes | calls |
//! | --- | --- | --- |
//! | `Cholesky` | `_b = L` with `_a = L L^T` (`lower`, the default), or `U` with `_a = U^T U`; the other triangle is zero | `LAPACKE_?potrf` |
//! | `Solve` | `_bout = X` with `_ain X = _bin` (`_bin` a matrix or a vector) | `LAPACKE_?gesv` |
//! | `Inv` | `_aout = _ain^-1` | `LAPACKE_?getrf`, `LAPACKE_?getri` |
//!
//! `?` is `d`, `s`, `z` or `c` by the element type (`f64`, `f32`,
//! `complex<f64>`, `complex<f32>`); every operand has the same one, as
//! DaCe's validation requires.
//!
//! LAPACK works in place on dense column- or row-major matrices, while the
//! operands are memlet subsets of any layout (a view of a transposed
//! array, a column of a row-major one). Each operand is therefore staged:
//! copied into a fresh row-major buffer, handed to LAPACKE as
//! `LAPACK_ROW_MAJOR` with its leading dimension, and the result copied
//! back into the output's subset. (potrf takes the buffer as column-major
//! with the other triangle, which is the same matrix for it and saves
//! LAPACKE's transposed copies.) The copies are `O(n^2)` next to the
//! factorizations' `O(n^3)`, and run sequentially: OpenMP threads woken
//! for them would spin (LLVM's libomp waits 200 ms by default) while
//! OpenBLAS's own threads factor the matrix on the same cores.
//!
//! ```mlir
//! // before: sdfg.library {class_path = "dace.libraries.linalg.nodes.cholesky.Cholesky"}
//! %buf = memref.alloc(%nn) : memref<?xf64>
//! scf.for ... { copy _a[i, j] into %buf[i * n + j] }
//! %p = memref.extract_aligned_pointer_as_index %buf : memref<?xf64> -> index
//! %info = func.call @LAPACKE_dpotrf(%c102, %c85, %n, %ptr, %n) : (i32, i8, i32, !llvm.ptr, i32) -> i32
//! scf.for ... { _b[i, j] = j > i ? 0 : %buf[i * n + j] }
//! memref.dealloc %buf : memref<?xf64>
//! ```
//!
//! As in DaCe, LAPACK's `info` is not checked: a matrix that is not
//! positive definite or is singular gives what LAPACK leaves behind.

use std::collections::HashMap;

use sdfg_dialect::Storage;
use sdfg_symbolic::Expr;

use super::library::{var, Library, Operand};
use super::streams::runtime_call;
use super::types::{Data, Elem, Layout};
use super::{fail, Function, Result};

/// `LAPACK_ROW_MAJOR` in `lapacke.h`.
pub(super) const ROW_MAJOR: i64 = 101;

/// `LAPACK_COL_MAJOR` in `lapacke.h`.
const COL_MAJOR: i64 = 102;

/// The LAPACKE functions the lowering calls, by name without the type
/// letter: their MLIR signatures (`ptr` stands for `!llvm.ptr`).
const SIGNATURES: [(&str, &str); 4] = [
    ("potrf", "(i32, i8, i32, ptr, i32) -> i32"),
    ("gesv", "(i32, i32, i32, ptr, i32, ptr, ptr, i32) -> i32"),
    ("getrf", "(i32, i32, i32, ptr, i32, ptr) -> i32"),
    ("getri", "(i32, i32, ptr, i32, ptr) -> i32"),
];

/// The MLIR declaration of LAPACKE function `name` (`LAPACKE_dpotrf`).
pub(super) fn declaration(name: &str) -> Option<String> {
    let routine = name.strip_prefix("LAPACKE_")?.get(1..)?;
    let (_, signature) = SIGNATURES.iter().find(|(r, _)| *r == routine)?;
    Some(format!(
        "func.func private @{name}{}\n",
        signature.replace("ptr", "!llvm.ptr")
    ))
}

/// LAPACK's letter for an element type.
fn type_letter(elem: &Elem) -> Option<char> {
    match elem.ty.as_str() {
        "f64" => Some('d'),
        "f32" => Some('s'),
        "complex<f64>" => Some('z'),
        "complex<f32>" => Some('c'),
        _ => None,
    }
}

/// An operand staged in a dense row-major buffer of `rows` x `cols`.
pub(super) struct Staged {
    pub(super) data: Data,
    pub(super) rows: Expr,
    pub(super) cols: Expr,
}

impl<'a> Function<'a, '_> {
    /// Lowers a `Cholesky`, `Solve` or `Inv` node.
    pub(super) fn lower_lapack(&mut self, lib: &mut Library<'a>, kind: &str) -> Result<'a, ()> {
        match kind {
            "Cholesky" => self.cholesky(lib),
            "Solve" => self.solve(lib),
            _ => self.inverse(lib),
        }
    }

    fn cholesky(&mut self, lib: &mut Library<'a>) -> Result<'a, ()> {
        let a = lib.operand("_a", Some(2))?;
        let b = lib.operand("_b", Some(2))?;
        let letter = self.letter(lib, &[&a, &b])?;
        // DaCe leaves out properties at their defaults (`lower=True`).
        let lower = !matches!(lib.props.text("lower").as_deref(), Some("false" | "False"));
        let buffer = self.stage(lib, &a)?;
        let n = self.lapack_int(lib, &buffer.rows)?;
        let ld = self.leading_dimension(lib, &buffer.rows)?;
        // The row-major buffer read as column-major is A^T, whose 'U'
        // triangle is A's 'L' one. potrf reads only that triangle and
        // writes its factor there, so the row-major 'L' factor is the
        // column-major 'U' one, A^T = U^T U (U^H U, conjugated, for
        // complex numbers) with U^T = L: the same numbers, without the
        // transposed copies in and out (and their allocation) that
        // LAPACKE makes for `LAPACK_ROW_MAJOR`.
        let major = self.i32_constant(COL_MAJOR);
        let uplo = self.body.assign(format!(
            "arith.constant {} : i8",
            if lower { 'U' } else { 'L' } as u8
        ));
        let ptr = self.pointer(&buffer.data);
        self.lapacke(
            &format!("LAPACKE_{letter}potrf"),
            &[
                (major.as_str(), "i32"),
                (&uplo, "i8"),
                (&n, "i32"),
                (&ptr, "!llvm.ptr"),
                (&ld, "i32"),
            ],
        );
        // The factor, with the triangle LAPACK leaves untouched zeroed.
        let vars = [
            ("__i".to_string(), buffer.rows.clone()),
            ("__j".to_string(), buffer.cols.clone()),
        ];
        let (env, kind) = self.open_nest(lib, &vars, false)?;
        let (i, j) = (env["__i"].clone(), env["__j"].clone());
        let outside = self.body.assign(format!(
            "arith.cmpi {}, {j}, {i} : index",
            if lower { "ugt" } else { "ult" }
        ));
        let elem = b.data.elem.clone();
        let value = self.load(lib.node, &env, &buffer.data, &[var("__i"), var("__j")])?;
        let zero = self.constant(0.0, &elem);
        let factor = self.body.assign(format!(
            "arith.select {outside}, {zero}, {value} : {}",
            elem.ty
        ));
        self.write(
            lib,
            &env,
            (&b, &[var("__i"), var("__j")]),
            &factor,
            &elem,
            None,
        )?;
        self.close_nest(kind);
        self.free(&buffer.data);
        Ok(())
    }

    fn solve(&mut self, lib: &mut Library<'a>) -> Result<'a, ()> {
        let a = lib.operand("_ain", Some(2))?;
        let b = lib.operand("_bin", None)?;
        let x = lib.operand("_bout", Some(b.rank()))?;
        if !(1..=2).contains(&b.rank()) {
            return fail(
                lib.node,
                format!(
                    "right-hand side `_bin` has {} dimensions (a vector or a matrix expected)",
                    b.rank()
                ),
            );
        }
        let letter = self.letter(lib, &[&a, &b, &x])?;
        let matrix = self.stage(lib, &a)?;
        let rhs = self.stage(lib, &b)?;
        let pivots = self.pivots(lib, &matrix.rows)?;
        let n = self.lapack_int(lib, &matrix.rows)?;
        let k = self.lapack_int(lib, &rhs.cols)?;
        let (lda, ldb) = (
            self.leading_dimension(lib, &matrix.rows)?,
            self.leading_dimension(lib, &rhs.cols)?,
        );
        let major = self.i32_constant(ROW_MAJOR);
        let (pa, pb, pp) = (
            self.pointer(&matrix.data),
            self.pointer(&rhs.data),
            self.pointer(&pivots),
        );
        self.lapacke(
            &format!("LAPACKE_{letter}gesv"),
            &[
                (major.as_str(), "i32"),
                (&n, "i32"),
                (&k, "i32"),
                (&pa, "!llvm.ptr"),
                (&lda, "i32"),
                (&pp, "!llvm.ptr"),
                (&pb, "!llvm.ptr"),
                (&ldb, "i32"),
            ],
        );
        self.unstage(lib, &rhs, &x)?;
        for data in [&matrix.data, &rhs.data, &pivots] {
            self.free(data);
        }
        Ok(())
    }

    fn inverse(&mut self, lib: &mut Library<'a>) -> Result<'a, ()> {
        let a = lib.operand("_ain", Some(2))?;
        let out = lib.operand("_aout", Some(2))?;
        let letter = self.letter(lib, &[&a, &out])?;
        let matrix = self.stage(lib, &a)?;
        let pivots = self.pivots(lib, &matrix.rows)?;
        let n = self.lapack_int(lib, &matrix.rows)?;
        let ld = self.leading_dimension(lib, &matrix.rows)?;
        let major = self.i32_constant(ROW_MAJOR);
        let (pa, pp) = (self.pointer(&matrix.data), self.pointer(&pivots));
        self.lapacke(
            &format!("LAPACKE_{letter}getrf"),
            &[
                (major.as_str(), "i32"),
                (&n, "i32"),
                (&n, "i32"),
                (&pa, "!llvm.ptr"),
                (&ld, "i32"),
                (&pp, "!llvm.ptr"),
            ],
        );
        self.lapacke(
            &format!("LAPACKE_{letter}getri"),
            &[
                (major.as_str(), "i32"),
                (&n, "i32"),
                (&pa, "!llvm.ptr"),
                (&ld, "i32"),
                (&pp, "!llvm.ptr"),
            ],
        );
        self.unstage(lib, &matrix, &out)?;
        self.free(&matrix.data);
        self.free(&pivots);
        Ok(())
    }

    /// The type letter of the operands, which must share their element
    /// type.
    fn letter(&self, lib: &Library<'a>, operands: &[&Operand]) -> Result<'a, char> {
        let elem = &operands[0].data.elem;
        if let Some(other) = operands.iter().find(|o| o.data.elem != *elem) {
            return fail(
                lib.node,
                format!(
                    "operands `{}` ({}) and `{}` ({}) differ in element type; LAPACK computes on one",
                    operands[0].data.name, elem.ty, other.data.name, other.data.elem.ty
                ),
            );
        }
        type_letter(elem).ok_or_else(|| {
            super::Failure::new(
                lib.node,
                format!(
                    "`{}` holds {} elements; LAPACK computes on f32, f64, complex<f32> and complex<f64>",
                    operands[0].data.name, elem.ty
                ),
            )
        })
    }

    /// A fresh dense row-major buffer of `rows` x `cols` elements.
    pub(super) fn buffer(
        &mut self,
        lib: &Library<'a>,
        elem: &Elem,
        rows: Expr,
        cols: Expr,
    ) -> Result<'a, Staged> {
        let count = self.emit_int(lib.node, &lib.env, &(&rows * &cols))?;
        let name = self.module.unique("__lapack_buffer");
        let memref = self
            .body
            .assign(format!("memref.alloc({count}) : memref<?x{}>", elem.ty));
        let layout = Layout {
            elem: elem.clone(),
            scalar: false,
            shape: vec![rows.clone(), cols.clone()],
            strides: vec![cols.clone(), Expr::int(1)],
            offsets: vec![Expr::int(0), Expr::int(0)],
            view: false,
            stream: false,
            reference: false,
            storage: Storage::default(),
        };
        Ok(Staged {
            data: Data::new(name, memref, layout),
            rows,
            cols,
        })
    }

    /// Copies a 1-D or 2-D operand into a fresh buffer (a vector becomes
    /// one column).
    pub(super) fn stage(&mut self, lib: &Library<'a>, operand: &Operand) -> Result<'a, Staged> {
        let rows = operand.size(0);
        let cols = if operand.rank() == 2 {
            operand.size(1)
        } else {
            Expr::int(1)
        };
        let staged = self.buffer(lib, &operand.data.elem, rows, cols)?;
        let (env, kind) = self.open_nest(lib, &staged_vars(&staged), false)?;
        let index = operand_index(operand);
        let v = self.load(lib.node, &env, &operand.data, &operand.point(&index))?;
        self.store_buffer(lib, &env, &staged, &v)?;
        self.close_nest(kind);
        Ok(staged)
    }

    /// Copies a staged buffer into an output operand of its shape.
    pub(super) fn unstage(
        &mut self,
        lib: &Library<'a>,
        staged: &Staged,
        out: &Operand,
    ) -> Result<'a, ()> {
        let (env, kind) = self.open_nest(lib, &staged_vars(staged), false)?;
        let elem = out.data.elem.clone();
        let v = self.load(lib.node, &env, &staged.data, &[var("__i"), var("__j")])?;
        self.write(lib, &env, (out, &operand_index(out)), &v, &elem, None)?;
        self.close_nest(kind);
        Ok(())
    }

    fn store_buffer(
        &mut self,
        lib: &Library<'a>,
        env: &HashMap<String, String>,
        staged: &Staged,
        value: &str,
    ) -> Result<'a, ()> {
        let subset = sdfg_symbolic::Subset::indices(vec![var("__i"), var("__j")]);
        self.store(
            lib.node,
            env,
            value,
            &staged.data.elem,
            &staged.data,
            &subset,
            None,
            &[],
        )
    }

    /// LAPACK's pivot array of `n` integers.
    fn pivots(&mut self, lib: &Library<'a>, n: &Expr) -> Result<'a, Data> {
        let elem = Elem {
            ty: "i32".into(),
            unsigned: false,
        };
        Ok(self.buffer(lib, &elem, n.clone(), Expr::int(1))?.data)
    }

    /// A size as LAPACK's 32-bit `lapack_int`.
    pub(super) fn lapack_int(&mut self, lib: &Library<'a>, size: &Expr) -> Result<'a, String> {
        let v = self.emit_int(lib.node, &lib.env, size)?;
        Ok(self
            .body
            .assign(format!("arith.index_cast {v} : index to i32")))
    }

    /// A leading dimension: LAPACK and CBLAS reject one below 1, even for
    /// an empty matrix (which then computes nothing, or zeros).
    pub(super) fn leading_dimension(
        &mut self,
        lib: &Library<'a>,
        size: &Expr,
    ) -> Result<'a, String> {
        self.lapack_int(lib, &Expr::max(vec![Expr::int(1), size.clone()]))
    }

    pub(super) fn i32_constant(&mut self, value: i64) -> String {
        self.body.assign(format!("arith.constant {value} : i32"))
    }

    /// The address of a buffer's first element as an `!llvm.ptr`.
    pub(super) fn pointer(&mut self, data: &Data) -> String {
        let ty = data.memref_type();
        let index = self.body.assign(format!(
            "memref.extract_aligned_pointer_as_index {} : {ty} -> index",
            data.memref
        ));
        let int = self
            .body
            .assign(format!("arith.index_cast {index} : index to i64"));
        self.body
            .assign(format!("llvm.inttoptr {int} : i64 to !llvm.ptr"))
    }

    pub(super) fn free(&mut self, data: &Data) {
        self.body.line(format!(
            "memref.dealloc {} : {}",
            data.memref,
            data.memref_type()
        ));
    }

    /// Calls LAPACKE function `name` on `args` (value, type); its `info`
    /// result is dropped, as DaCe drops it.
    fn lapacke(&mut self, name: &str, args: &[(&str, &str)]) {
        self.module.library_calls.insert(name.to_string());
        let (values, types): (Vec<&str>, Vec<&str>) = args.iter().copied().unzip();
        runtime_call(
            &mut self.body,
            &format!(
                "func.call @{name}({}) : ({}) -> i32",
                values.join(", "),
                types.join(", ")
            ),
            Some("i32"),
        );
    }
}

/// The loop variables over a staged buffer.
fn staged_vars(staged: &Staged) -> [(String, Expr); 2] {
    [
        ("__i".to_string(), staged.rows.clone()),
        ("__j".to_string(), staged.cols.clone()),
    ]
}

/// The logical index of an operand's element (`__i`, `__j`) in the loops
/// of [`staged_vars`] (a vector's only index is `__i`).
fn operand_index(operand: &Operand) -> Vec<Expr> {
    if operand.rank() == 2 {
        vec![var("__i"), var("__j")]
    } else {
        vec![var("__i")]
    }
}
