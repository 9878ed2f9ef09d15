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
//! | `MatMul` (batched: a 3-D `_b`, as DaCe's `BatchedMatMul`) | `cblas_?gemm` per batch |
//! | `Ger` | `cblas_?ger` |
//!
//! `?` is `d` or `s` (`f64`, `f32`); other element types and operands of
//! different element types keep the loop nests, and so does a batched
//! product whose matrices do not lie in place (below) or whose output
//! shares a container with an input.
//!
//! A batched product calls `cblas_?gemm` once per batch, as DaCe's
//! OpenBLAS expansion of `BatchedMatMul` does, on pointers advanced by each
//! operand's batch stride (0 for a 2-D `_a`, one matrix for every batch).
//! The batches run in parallel where there are at least as many as OpenMP
//! threads and no parallel loop encloses the node; fewer run one after the
//! other, each call split by rows as a single product is. `Ger` adds
//! `alpha * x y^T` into its matrix in place: into the output, where it lies
//! in place and no input but `_A` (at the same subset) is in its container,
//! after `_A` is copied into it (unless `_A` is the output itself);
//! otherwise into a staged copy of `_A`, copied into the output after.
//! DaCe has no BLAS implementation of `Ger`, so `sdfg-auto-optimize` leaves
//! its implementation alone (a `.sdfg` written after it still expands in
//! DaCe) and only the conversion's `blas=true` calls `cblas_?ger`.
//!
//! CBLAS is Debian's `libblas.so.3`, OpenBLAS's where
//! `libopenblas0` is installed (the alternatives system points it there),
//! which `sdfg-run` loads when the module calls it; an object file
//! (`--emit-object`) links with `-lblas`.
//!
//! An operand whose rows are contiguous in its container (a row-major
//! array or a block of one: `A[r0:r1, c0:c1]` starts at `&A[r0, c0]` with
//! the row stride as its leading dimension), or a vector whose elements
//! are evenly spaced (its increment), is passed in place. Any other one
//! is staged as for LAPACK (`lapack.rs`): copied into a dense row-major
//! buffer, the result copied back into the output's subset, so that any
//! memlet subset and layout works. An output written in place is zeroed
//! first where `beta` is 0 (CBLAS leaves it as it was for an empty inner
//! dimension), and is staged where an input is in the same container.
//! Every leading dimension is at least 1, as CBLAS requires even for an
//! empty matrix.
//!
//! **Threads.** The program's parallel loops run on OpenMP's threads, and
//! a threaded BLAS has its own: each pool's threads spin on the cores for
//! a while after their work, which slowed the other's (covariance's row
//! loop of `gemv`s between parallel maps ran 1.7 times slower than with
//! either pool alone). The calls therefore expect a single-threaded BLAS
//! (`sdfg-run` sets OpenBLAS to one thread; an object file's caller sets
//! `OPENBLAS_NUM_THREADS=1`), and the lowering threads a large `gemm` or
//! `gemv` itself: outside parallel loops, a call whose work reaches
//! [`GEMM_SPLIT_WORK`] or [`GEMV_SPLIT_WORK`] becomes one call per OpenMP
//! thread on its share of the rows of the output (and of `op(A)`), in an
//! `scf.parallel`; a smaller one stays one call, on the calling thread.
//!
//! ```mlir
//! // before: sdfg.library {class_path = "...matmul.MatMul"} on A (M x K), B (K x N)
//! %a = memref.alloc(%mk) : memref<?xf64>   // A staged, and B, and C
//! func.call @cblas_dgemm(%c101, %c111, %c111, %m, %n, %k, %one, %pa, %k, %pb, %n, %zero, %pc, %n)
//!     : (i32, i32, i32, i32, i32, i32, f64, !llvm.ptr, i32, !llvm.ptr, i32, f64, !llvm.ptr, i32) -> ()
//! // C copied into the output's subset
//! ```

use sdfg_dialect::library::Scalar;
use sdfg_symbolic::Expr;

use super::lapack::{Staged, ROW_MAJOR};
use super::library::{var, Library, Operand};
use super::streams::runtime_call;
use super::types::{Data, Elem};
use super::{Function, Result};

/// `CblasNoTrans` and `CblasTrans` in `cblas.h`.
const NO_TRANS: i64 = 111;
const TRANS: i64 = 112;

/// The CBLAS functions the lowering calls, by name without the type
/// letter: their MLIR signatures (`T` stands for the element type, `ptr`
/// for `!llvm.ptr`).
const SIGNATURES: [(&str, &str); 4] = [
    (
        "gemm",
        "(i32, i32, i32, i32, i32, i32, T, ptr, i32, ptr, i32, T, ptr, i32) -> ()",
    ),
    (
        "gemv",
        "(i32, i32, i32, i32, T, ptr, i32, ptr, i32, T, ptr, i32) -> ()",
    ),
    ("dot", "(i32, ptr, i32, ptr, i32) -> T"),
    (
        "ger",
        "(i32, i32, i32, T, ptr, i32, ptr, i32, ptr, i32) -> ()",
    ),
];

/// The MLIR declaration of CBLAS function `name` (`cblas_dgemm`).
pub(super) fn declaration(name: &str) -> Option<String> {
    if name == MAX_THREADS {
        return Some(format!("func.func private @{MAX_THREADS}() -> i32\n"));
    }
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

/// The OpenMP runtime's thread count, which a split call divides its rows
/// among.
const MAX_THREADS: &str = "omp_get_max_threads";

/// The work (`m * n * k`) from which a `gemm` splits among the threads:
/// OpenBLAS's own threshold for threading one (`SMP_THRESHOLD_MIN` times
/// `GEMM_MULTITHREAD_THRESHOLD`, 65536 * 4).
const GEMM_SPLIT_WORK: i64 = 1 << 18;

/// The work (`m * n`) from which a `gemv` splits: a 150 x 150 one took
/// as long on two threads as on one, measured with OpenBLAS 0.3.21 on the
/// development machine, and a 200 x 200 one 1.5 times less.
const GEMV_SPLIT_WORK: i64 = 1 << 15;

/// How a CBLAS call whose output rows are independent is split among
/// threads: the argument that holds the number of rows (an `i32`), each
/// pointer argument that moves with the first row and the elements
/// between two of its rows (an `i32`), the call's work (an `index`), and
/// the work from which it is split.
struct RowSplit {
    rows: usize,
    advance: Vec<(usize, String)>,
    work: String,
    least: i64,
}

/// An operand as CBLAS takes it: where it starts, the distance between
/// its rows (a matrix's leading dimension, a vector's increment), its
/// shape, and the buffer it was staged in, if it was.
struct Blas {
    pointer: String,
    ld: String,
    rows: Expr,
    cols: Expr,
    staged: Option<Staged>,
}

impl<'a> Function<'a, '_> {
    /// Lowers a `MatMul`, `Gemm`, `Gemv`, `Dot` or `Ger` node to CBLAS; `false`
    /// (nothing emitted) where CBLAS does not compute it (see the module
    /// documentation).
    ///
    /// A dot product of two contiguous vectors calls CBLAS only where
    /// `dots` (the conversion's `blas=true`): for a node whose
    /// implementation `sdfg-auto-optimize` chose, the loop is faster,
    /// since LLVM vectorizes its reassociable sum in place, where a call
    /// costs its overhead on every row of a solver such as trisolv. A
    /// strided operand (a column, in lu) still calls CBLAS, whose strided
    /// kernel the loop does not beat.
    pub(super) fn lower_blas(
        &mut self,
        lib: &mut Library<'a>,
        kind: &str,
        dots: bool,
    ) -> Result<'a, bool> {
        let (a, b, out) = match kind {
            "MatMul" | "Gemm" => ("_a", "_b", "_c"),
            "Gemv" => ("_A", "_x", "_y"),
            "Dot" => ("_x", "_y", "_result"),
            "Ger" => ("_x", "_y", "_res"),
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
        if a.data.elem != elem
            || b.data.elem != elem
            || (!dots && kind != "Ger" && a.is_contiguous_vector() && b.is_contiguous_vector())
        {
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
            (1, 1) if kind == "Ger" => return self.blas_ger(lib, letter, &a, &b, &out, &alpha),
            (1, 1) if out.rank() <= 1 => self.blas_dot(lib, letter, &a, &b, &out)?,
            (3, 3) | (2, 3) if kind == "MatMul" => {
                return self.blas_batched(lib, letter, &a, &b, &out, &alpha)
            }
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
        let sa = self.blas_input(lib, a, false)?;
        let sb = self.blas_input(lib, b, false)?;
        let sc = self.blas_output(lib, c, beta, &[a, b])?;
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
        let major = self.i32_constant(ROW_MAJOR);
        let ta = self.i32_constant(if trans_a { TRANS } else { NO_TRANS });
        let tb = self.i32_constant(if trans_b { TRANS } else { NO_TRANS });
        let al = self.scalar_value(lib, alpha, &elem)?;
        let bt = self.constant(beta, &elem);
        let t = elem.ty.as_str();
        let work = self.product(&[&m, &n, &k]);
        // A row of op(A) is a row of A, or a column where it is transposed.
        let a_step = if trans_a {
            self.i32_constant(1)
        } else {
            sa.ld.clone()
        };
        let split = RowSplit {
            rows: 3,
            advance: vec![(7, a_step), (12, sc.ld.clone())],
            work,
            least: GEMM_SPLIT_WORK,
        };
        self.cblas_split(
            lib,
            &format!("cblas_{letter}gemm"),
            &[
                (&major, "i32"),
                (&ta, "i32"),
                (&tb, "i32"),
                (&m, "i32"),
                (&n, "i32"),
                (&k, "i32"),
                (&al, t),
                (&sa.pointer, "!llvm.ptr"),
                (&sa.ld, "i32"),
                (&sb.pointer, "!llvm.ptr"),
                (&sb.ld, "i32"),
                (&bt, t),
                (&sc.pointer, "!llvm.ptr"),
                (&sc.ld, "i32"),
            ],
            split,
            t,
        );
        self.blas_finish(lib, sc, Some(c))?;
        self.blas_finish(lib, sa, None)?;
        self.blas_finish(lib, sb, None)
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
        let sa = self.blas_input(lib, a, false)?;
        let sx = self.blas_input(lib, x, true)?;
        let sy = self.blas_output(lib, y, beta, &[a, x])?;
        let (rows, cols) = (
            self.lapack_int(lib, &sa.rows)?,
            self.lapack_int(lib, &sa.cols)?,
        );
        let major = self.i32_constant(ROW_MAJOR);
        let t = self.i32_constant(if trans { TRANS } else { NO_TRANS });
        let al = self.scalar_value(lib, alpha, &elem)?;
        let bt = self.constant(beta, &elem);
        let ty = elem.ty.as_str();
        let work = self.product(&[&rows, &cols]);
        // The rows of op(A) are A's rows (the argument M), or its columns
        // (N) where it is transposed.
        let (count, a_step) = if trans {
            (3, self.i32_constant(1))
        } else {
            (2, sa.ld.clone())
        };
        let split = RowSplit {
            rows: count,
            advance: vec![(5, a_step), (10, sy.ld.clone())],
            work,
            least: GEMV_SPLIT_WORK,
        };
        self.cblas_split(
            lib,
            &format!("cblas_{letter}gemv"),
            &[
                (&major, "i32"),
                (&t, "i32"),
                (&rows, "i32"),
                (&cols, "i32"),
                (&al, ty),
                (&sa.pointer, "!llvm.ptr"),
                (&sa.ld, "i32"),
                (&sx.pointer, "!llvm.ptr"),
                (&sx.ld, "i32"),
                (&bt, ty),
                (&sy.pointer, "!llvm.ptr"),
                (&sy.ld, "i32"),
            ],
            split,
            ty,
        );
        self.blas_finish(lib, sy, Some(y))?;
        self.blas_finish(lib, sa, None)?;
        self.blas_finish(lib, sx, None)
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
        let sx = self.blas_input(lib, x, true)?;
        let sy = self.blas_input(lib, y, true)?;
        let n = self.lapack_int(lib, &sx.rows)?;
        let sum = self.cblas(
            &format!("cblas_{letter}dot"),
            &[
                (&n, "i32"),
                (&sx.pointer, "!llvm.ptr"),
                (&sx.ld, "i32"),
                (&sy.pointer, "!llvm.ptr"),
                (&sy.ld, "i32"),
            ],
            Some(&elem.ty),
        );
        let index = vec![sdfg_symbolic::Expr::int(0); out.rank()];
        let env = lib.env.clone();
        self.write(lib, &env, (out, &index), &sum, &elem, None)?;
        self.blas_finish(lib, sx, None)?;
        self.blas_finish(lib, sy, None)
    }

    /// `C[b] = alpha * A[b] @ B[b]` for every batch `b` (`A` may be one
    /// matrix for all of them) with one `cblas_?gemm` per batch (see the
    /// module documentation); `false`, with nothing emitted, where an
    /// operand's matrices do not lie in place or `C` shares a container
    /// with an input.
    fn blas_batched(
        &mut self,
        lib: &Library<'a>,
        letter: char,
        a: &Operand,
        b: &Operand,
        c: &Operand,
        alpha: &Scalar,
    ) -> Result<'a, bool> {
        let (Some(la), Some(lb), Some(lc)) = (batch_layout(a), batch_layout(b), batch_layout(c))
        else {
            return Ok(false);
        };
        if c.rank() != 3 || a.data.name == c.data.name || b.data.name == c.data.name {
            return Ok(false);
        }
        let elem = c.data.elem.clone();
        let (m, n, k) = (
            self.lapack_int(lib, &la.rows)?,
            self.lapack_int(lib, &lb.cols)?,
            self.lapack_int(lib, &la.cols)?,
        );
        // CBLAS returns at once for an empty inner dimension, leaving C as
        // it was: zeros then, as the product of nothing.
        let none = self.i32_constant(0);
        let empty = self
            .body
            .assign(format!("arith.cmpi eq, {k}, {none} : i32"));
        self.body.open(format!("scf.if {empty}"));
        self.fill_zeros(lib, c)?;
        self.body.close("");
        let mut firsts = Vec::new();
        let mut strides = Vec::new();
        let mut lds = Vec::new();
        for (operand, layout) in [(a, &la), (b, &lb), (c, &lc)] {
            firsts.push(self.element_pointer(lib, &operand.data, &layout.first)?);
            let stride = self.emit_int(lib.node, &lib.env, &layout.batch)?;
            strides.push(
                self.body
                    .assign(format!("arith.index_cast {stride} : index to i64")),
            );
            lds.push(self.lapack_int(lib, &layout.ld)?);
        }
        let call = BatchCall {
            name: format!("cblas_{letter}gemm"),
            batches: self.emit_int(lib.node, &lib.env, &c.size(0))?,
            firsts,
            strides,
            lds,
            major: self.i32_constant(ROW_MAJOR),
            no_trans: self.i32_constant(NO_TRANS),
            alpha: self.scalar_value(lib, alpha, &elem)?,
            zero: self.constant(0.0, &elem),
            work: self.product(&[&m, &n, &k]),
            mnk: [m, n, k],
            ty: elem.ty.clone(),
        };
        if self.in_parallel_loop(&lib.parallel) {
            self.batch_loop(lib, &call, false, false);
            return Ok(true);
        }
        // As many batches as threads or more: one call each, the batches
        // in parallel; fewer: one after the other, each call split.
        self.module.library_calls.insert(MAX_THREADS.to_string());
        let threads = self
            .body
            .assign(format!("func.call @{MAX_THREADS}() : () -> i32"));
        let threads = self
            .body
            .assign(format!("arith.index_cast {threads} : i32 to index"));
        let many = self.body.assign(format!(
            "arith.cmpi sge, {}, {threads} : index",
            call.batches
        ));
        self.body.open(format!("scf.if {many}"));
        self.batch_loop(lib, &call, true, false);
        self.body.middle("else");
        self.batch_loop(lib, &call, false, true);
        self.body.close("");
        Ok(true)
    }

    /// The loop over the batches of `call`, parallel or not, each batch's
    /// call split by rows where `split`.
    fn batch_loop(&mut self, lib: &Library<'a>, call: &BatchCall, parallel: bool, split: bool) {
        let (lo, one) = (self.body.index(0), self.body.index(1));
        let batch = self.body.fresh();
        let batches = &call.batches;
        self.body.open(if parallel {
            format!("scf.parallel ({batch}) = ({lo}) to ({batches}) step ({one})")
        } else {
            format!("scf.for {batch} = {lo} to {batches} step {one}")
        });
        let at = self
            .body
            .assign(format!("arith.index_cast {batch} : index to i64"));
        let mut pointers = Vec::new();
        for (first, stride) in call.firsts.iter().zip(&call.strides) {
            let offset = self.body.assign(format!("arith.muli {at}, {stride} : i64"));
            pointers.push(self.body.assign(format!(
                "llvm.getelementptr {first}[{offset}] : (!llvm.ptr, i64) -> !llvm.ptr, {}",
                call.ty
            )));
        }
        let [m, n, k] = &call.mnk;
        let t = call.ty.as_str();
        let args: Vec<(&str, &str)> = vec![
            (&call.major, "i32"),
            (&call.no_trans, "i32"),
            (&call.no_trans, "i32"),
            (m, "i32"),
            (n, "i32"),
            (k, "i32"),
            (&call.alpha, t),
            (&pointers[0], "!llvm.ptr"),
            (&call.lds[0], "i32"),
            (&pointers[1], "!llvm.ptr"),
            (&call.lds[1], "i32"),
            (&call.zero, t),
            (&pointers[2], "!llvm.ptr"),
            (&call.lds[2], "i32"),
        ];
        if split {
            let rows = RowSplit {
                rows: 3,
                advance: vec![(7, call.lds[0].clone()), (12, call.lds[2].clone())],
                work: call.work.clone(),
                least: GEMM_SPLIT_WORK,
            };
            self.cblas_split(lib, &call.name, &args, rows, t);
        } else {
            self.cblas(&call.name, &args, None);
        }
        self.body.close("");
    }

    /// `res = alpha * x y^T + A` with `cblas_?ger` (see the module
    /// documentation); `false`, with nothing emitted, where `_A` is not a
    /// matrix of the output's element type.
    fn blas_ger(
        &mut self,
        lib: &Library<'a>,
        letter: char,
        x: &Operand,
        y: &Operand,
        res: &Operand,
        alpha: &Scalar,
    ) -> Result<'a, bool> {
        let elem = res.data.elem.clone();
        let Ok(a) = lib.operand("_A", Some(2)) else {
            return Ok(false);
        };
        if a.data.elem != elem || res.rank() != 2 {
            return Ok(false);
        }
        let sx = self.blas_input(lib, x, true)?;
        let sy = self.blas_input(lib, y, true)?;
        let same = a.same_subset(res);
        let aliased = [x, y].iter().any(|i| i.data.name == res.data.name)
            || (a.data.name == res.data.name && !same);
        let target = if aliased {
            None
        } else {
            self.in_place(lib, res, false)?
        };
        let sa = match target {
            Some(blas) => {
                if !same {
                    let vars = [
                        ("__i".to_string(), res.size(0)),
                        ("__j".to_string(), res.size(1)),
                    ];
                    let (env, kind) = self.open_nest(lib, &vars, true)?;
                    let index = [var("__i"), var("__j")];
                    let v = self.read(lib, &env, &a, &index, &elem)?;
                    self.write(lib, &env, (res, &index), &v, &elem, None)?;
                    self.close_nest(kind);
                }
                blas
            }
            None => {
                let staged = self.stage(lib, &a)?;
                self.staged_blas(lib, staged, false)?
            }
        };
        let (m, n) = (
            self.lapack_int(lib, &sx.rows)?,
            self.lapack_int(lib, &sy.rows)?,
        );
        let major = self.i32_constant(ROW_MAJOR);
        let al = self.scalar_value(lib, alpha, &elem)?;
        let t = elem.ty.as_str();
        let work = self.product(&[&m, &n]);
        let split = RowSplit {
            rows: 1,
            advance: vec![(4, sx.ld.clone()), (8, sa.ld.clone())],
            work,
            least: GEMV_SPLIT_WORK,
        };
        self.cblas_split(
            lib,
            &format!("cblas_{letter}ger"),
            &[
                (&major, "i32"),
                (&m, "i32"),
                (&n, "i32"),
                (&al, t),
                (&sx.pointer, "!llvm.ptr"),
                (&sx.ld, "i32"),
                (&sy.pointer, "!llvm.ptr"),
                (&sy.ld, "i32"),
                (&sa.pointer, "!llvm.ptr"),
                (&sa.ld, "i32"),
            ],
            split,
            t,
        );
        self.blas_finish(lib, sa, Some(res))?;
        self.blas_finish(lib, sx, None)?;
        self.blas_finish(lib, sy, None)?;
        Ok(true)
    }

    /// An input operand for CBLAS: in place where its rows are
    /// contiguous (a vector: evenly spaced), else staged into a dense
    /// row-major buffer.
    fn blas_input(
        &mut self,
        lib: &Library<'a>,
        operand: &Operand,
        vector: bool,
    ) -> Result<'a, Blas> {
        if let Some(blas) = self.in_place(lib, operand, vector)? {
            return Ok(blas);
        }
        let staged = self.stage(lib, operand)?;
        self.staged_blas(lib, staged, vector)
    }

    /// The output operand for CBLAS: in place where its rows are
    /// contiguous and no input is in the same container (then zeroed
    /// first where `beta` is 0, since CBLAS leaves it as it was for an
    /// empty inner dimension), else a buffer ([`Self::result_buffer`]).
    fn blas_output(
        &mut self,
        lib: &Library<'a>,
        out: &Operand,
        beta: f64,
        inputs: &[&Operand],
    ) -> Result<'a, Blas> {
        let vector = out.rank() == 1;
        let aliased = inputs.iter().any(|i| i.data.name == out.data.name);
        if !aliased && beta == 0.0 {
            if let Some(blas) = self.in_place(lib, out, vector)? {
                self.fill_zeros(lib, out)?;
                return Ok(blas);
            }
        }
        let staged = self.result_buffer(lib, out, beta)?;
        self.staged_blas(lib, staged, vector)
    }

    /// A staged buffer as CBLAS takes it.
    fn staged_blas(&mut self, lib: &Library<'a>, staged: Staged, vector: bool) -> Result<'a, Blas> {
        let pointer = self.pointer(&staged.data);
        let ld = if vector {
            self.i32_constant(1)
        } else {
            self.leading_dimension(lib, &staged.cols)?
        };
        Ok(Blas {
            pointer,
            ld,
            rows: staged.rows.clone(),
            cols: staged.cols.clone(),
            staged: Some(staged),
        })
    }

    /// Copies a staged output back into `out` and frees a staged buffer.
    fn blas_finish(
        &mut self,
        lib: &Library<'a>,
        blas: Blas,
        out: Option<&Operand>,
    ) -> Result<'a, ()> {
        if let Some(staged) = blas.staged {
            if let Some(out) = out {
                self.unstage(lib, &staged, out)?;
            }
            self.free(&staged.data);
        }
        Ok(())
    }

    /// `operand` read or written in place, where its layout allows: a
    /// matrix whose columns are adjacent (the distance between its rows
    /// is then its leading dimension), or a vector whose elements are a
    /// positive constant step apart in its subset. `None` otherwise, and
    /// for streams, references and scalars.
    fn in_place(
        &mut self,
        lib: &Library<'a>,
        operand: &Operand,
        vector: bool,
    ) -> Result<'a, Option<Blas>> {
        let data = &operand.data;
        if data.stream
            || data.reference.is_some()
            || data.scalar
            || operand.rank() != if vector { 1 } else { 2 }
        {
            return Ok(None);
        }
        let (first, steps) = operand.layout();
        let step_of = |k: usize| steps[k].clone();
        let (ld, rows, cols) = if vector {
            // A constant positive step keeps the increment positive
            // whatever the (non-negative) strides are.
            if !operand.steps_positive() {
                return Ok(None);
            }
            (step_of(0), operand.size(0), Expr::int(1))
        } else {
            if step_of(1).as_int() != Some(1) || !operand.steps_positive() {
                return Ok(None);
            }
            let cols = operand.size(1);
            let ld = Expr::max(vec![step_of(0), cols.clone(), Expr::int(1)]);
            (ld, operand.size(0), cols)
        };
        let pointer = self.element_pointer(lib, data, &first)?;
        let ld = self.lapack_int(lib, &ld)?;
        Ok(Some(Blas {
            pointer,
            ld,
            rows,
            cols,
            staged: None,
        }))
    }

    /// The address of the element at linear index `linear` of `data`.
    fn element_pointer(
        &mut self,
        lib: &Library<'a>,
        data: &Data,
        linear: &Expr,
    ) -> Result<'a, String> {
        let element = self.buffer_index(lib, data, linear)?;
        let element = self
            .body
            .assign(format!("arith.index_cast {element} : index to i64"));
        let base = self.pointer(data);
        Ok(self.body.assign(format!(
            "llvm.getelementptr {base}[{element}] : (!llvm.ptr, i64) -> !llvm.ptr, {}",
            data.elem.ty
        )))
    }

    /// Sets every element of `out` to zero.
    fn fill_zeros(&mut self, lib: &Library<'a>, out: &Operand) -> Result<'a, ()> {
        let zero = self.constant(0.0, &out.data.elem);
        let vars: Vec<(String, Expr)> = (0..out.rank())
            .map(|k| (format!("__z{k}"), out.size(k)))
            .collect();
        let (env, kind) = self.open_nest(lib, &vars, false)?;
        let index: Vec<Expr> = vars.iter().map(|(v, _)| var(v)).collect();
        let elem = out.data.elem.clone();
        self.write(lib, &env, (out, &index), &zero, &elem, None)?;
        self.close_nest(kind);
        Ok(())
    }

    /// The position of the element at linear index `linear` of `data` in
    /// the buffer under its memref: the memref's own offset (where its
    /// layout has one), plus the data's base, plus `linear`.
    pub(super) fn buffer_index(
        &mut self,
        lib: &Library<'a>,
        data: &Data,
        linear: &Expr,
    ) -> Result<'a, String> {
        let env = lib.env.clone();
        let start = self.emit_int(lib.node, &env, linear)?;
        let start = match &data.base {
            Some(b) => self.body.assign(format!("arith.addi {b}, {start} : index")),
            None => start,
        };
        let ty = data.memref_type();
        // A rank-0 memref has no size and stride.
        let (n, rest) = if data.scalar {
            (2, "index")
        } else {
            (4, "index, index, index")
        };
        let names: Vec<String> = (0..n).map(|_| self.body.fresh()).collect();
        self.body.line(format!(
            "{} = memref.extract_strided_metadata {} : {ty} -> memref<{}>, {rest}",
            names.join(", "),
            data.memref,
            data.elem.ty
        ));
        Ok(self
            .body
            .assign(format!("arith.addi {}, {start} : index", names[1])))
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

    /// The product of `i32` values, as an `index`.
    fn product(&mut self, factors: &[&str]) -> String {
        let mut product: Option<String> = None;
        for factor in factors {
            let f = self
                .body
                .assign(format!("arith.index_cast {factor} : i32 to index"));
            product = Some(match product {
                None => f,
                Some(p) => self.body.assign(format!("arith.muli {p}, {f} : index")),
            });
        }
        product.unwrap_or_else(|| self.body.index(1))
    }

    /// Calls CBLAS function `name` with `args`, split by rows of its
    /// output among the OpenMP threads where its work reaches
    /// `split.least` and no parallel loop encloses the node, in this
    /// function or around the call of this nested SDFG's function (see
    /// the module documentation); `elem` is the element type the advanced
    /// pointers point to.
    fn cblas_split(
        &mut self,
        lib: &Library<'a>,
        name: &str,
        args: &[(&str, &str)],
        split: RowSplit,
        elem: &str,
    ) {
        if self.in_parallel_loop(&lib.parallel) {
            self.cblas(name, args, None);
            return;
        }
        let least = self.body.index(split.least);
        let big = self
            .body
            .assign(format!("arith.cmpi sge, {}, {least} : index", split.work));
        self.body.open(format!("scf.if {big}"));
        self.module.library_calls.insert(MAX_THREADS.to_string());
        let threads = self
            .body
            .assign(format!("func.call @{MAX_THREADS}() : () -> i32"));
        let threads = self
            .body
            .assign(format!("arith.index_cast {threads} : i32 to index"));
        let rows = self.body.assign(format!(
            "arith.index_cast {} : i32 to index",
            args[split.rows].0
        ));
        let chunk = self
            .body
            .assign(format!("arith.ceildivsi {rows}, {threads} : index"));
        let zero = self.body.index(0);
        let one = self.body.index(1);
        let thread = self.body.fresh();
        self.body.open(format!(
            "scf.parallel ({thread}) = ({zero}) to ({threads}) step ({one})"
        ));
        let first = self
            .body
            .assign(format!("arith.muli {thread}, {chunk} : index"));
        let end = self
            .body
            .assign(format!("arith.addi {first}, {chunk} : index"));
        let end = self
            .body
            .assign(format!("arith.minsi {end}, {rows} : index"));
        let count = self
            .body
            .assign(format!("arith.subi {end}, {first} : index"));
        let some = self
            .body
            .assign(format!("arith.cmpi sgt, {count}, {zero} : index"));
        self.body.open(format!("scf.if {some}"));
        let mut mine: Vec<(String, &str)> = args.iter().map(|(v, t)| (v.to_string(), *t)).collect();
        mine[split.rows].0 = self
            .body
            .assign(format!("arith.index_cast {count} : index to i32"));
        let first = self
            .body
            .assign(format!("arith.index_cast {first} : index to i64"));
        for (k, step) in &split.advance {
            let step = self.body.assign(format!("arith.extsi {step} : i32 to i64"));
            let offset = self
                .body
                .assign(format!("arith.muli {first}, {step} : i64"));
            mine[*k].0 = self.body.assign(format!(
                "llvm.getelementptr {}[{offset}] : (!llvm.ptr, i64) -> !llvm.ptr, {elem}",
                mine[*k].0
            ));
        }
        let refs: Vec<(&str, &str)> = mine.iter().map(|(v, t)| (v.as_str(), *t)).collect();
        self.cblas(name, &refs, None);
        self.body.close("");
        self.body.close("");
        self.body.middle("else");
        self.cblas(name, args, None);
        self.body.close("");
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

/// The calls of a batched product: the function, the batch count, per
/// operand (`A`, `B`, `C`) its first matrix, batch stride (an `i64`) and
/// leading dimension, and the arguments every call shares.
struct BatchCall {
    name: String,
    batches: String,
    firsts: Vec<String>,
    strides: Vec<String>,
    lds: Vec<String>,
    major: String,
    no_trans: String,
    alpha: String,
    zero: String,
    work: String,
    mnk: [String; 3],
    ty: String,
}

/// Where the matrices of a batched product's operand lie in its data: the
/// linear index of the first one's first element, the distance between two
/// batches (0 for one matrix for every batch), the leading dimension, and
/// the matrices' shape.
struct BatchLayout {
    first: Expr,
    batch: Expr,
    ld: Expr,
    rows: Expr,
    cols: Expr,
}

/// The layout of a 3-D operand (or of a 2-D one, the same matrix for every
/// batch) whose matrices CBLAS can take in place: a matrix's columns
/// adjacent, the subset running forward; `None` otherwise, and for
/// streams, references and scalars.
fn batch_layout(operand: &Operand) -> Option<BatchLayout> {
    let data = &operand.data;
    let rank = operand.rank();
    if data.stream
        || data.reference.is_some()
        || data.scalar
        || !(rank == 2 || rank == 3)
        || !operand.steps_positive()
    {
        return None;
    }
    let (first, steps) = operand.layout();
    if steps[rank - 1].as_int() != Some(1) {
        return None;
    }
    let cols = operand.size(rank - 1);
    Some(BatchLayout {
        first,
        batch: if rank == 3 {
            steps[0].clone()
        } else {
            Expr::int(0)
        },
        ld: Expr::max(vec![steps[rank - 2].clone(), cols.clone(), Expr::int(1)]),
        rows: operand.size(rank - 2),
        cols,
    })
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
