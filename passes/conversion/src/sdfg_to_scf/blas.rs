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
    /// Lowers a `MatMul`, `Gemm`, `Gemv` or `Dot` node to CBLAS; `false`
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
            || (!dots && a.is_contiguous_vector() && b.is_contiguous_vector())
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
                let zero = self.constant(0.0, &out.data.elem);
                let vars: Vec<(String, Expr)> = (0..out.rank())
                    .map(|k| (format!("__z{k}"), out.size(k)))
                    .collect();
                let (env, kind) = self.open_nest(lib, &vars, false)?;
                let index: Vec<Expr> = vars.iter().map(|(v, _)| var(v)).collect();
                let elem = out.data.elem.clone();
                self.write(lib, &env, (out, &index), &zero, &elem, None)?;
                self.close_nest(kind);
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
        let element = self.buffer_index(lib, data, &first)?;
        let element = self
            .body
            .assign(format!("arith.index_cast {element} : index to i64"));
        let base = self.pointer(data);
        let pointer = self.body.assign(format!(
            "llvm.getelementptr {base}[{element}] : (!llvm.ptr, i64) -> !llvm.ptr, {}",
            data.elem.ty
        ));
        let ld = self.lapack_int(lib, &ld)?;
        Ok(Some(Blas {
            pointer,
            ld,
            rows,
            cols,
            staged: None,
        }))
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
