//! `sdfg-fold-transposes`: a matrix-vector `MatMul` whose matrix is a
//! transient that only a `Transpose` writes becomes a `Gemv` with
//! `transA` on the `Transpose`'s input, so that BLAS reads the matrix
//! transposed in place instead of the program copying it first.
//!
//! ```mlir
//! // before: B[:i, :].T @ a, as the NumPy frontend writes it
//! %t = sdfg.library "_Transpose_" "...transpose.Transpose" ins("_inp" = %b["0:i, 0:N"]) outs("_out")
//! %T = sdfg.access %tmp writes(%t["0:N, 0:i"])
//! %m = sdfg.library "_MatMult_" "...matmul.MatMul" ins("_a" = %T["0:N, 0:i"], "_b" = %a["i, 0:i"]) outs("_c")
//! // after: the transient and the copy are gone
//! %m = sdfg.library "_MatMult_" "...gemv.Gemv" ins("_A" = %b["0:i, 0:N"], "_x" = %a["i, 0:i"]) outs("_y")
//!        properties {alpha = "1", beta = "0", transA = "true"}
//! ```
//!
//! `y = A^T x` is what the `MatMul` computed from the copy `A^T`; `Gemv`
//! with `transA` computes it from `A`, and both its pure expansion and
//! CBLAS (`CblasTrans`) take the flag. The copy costs a pass over the
//! matrix on every call: in PolyBench's symm, one per row of its loop
//! (21 ms of the kernel's run, against 4.4 ms without it).
//!
//! It applies where the transient has one access node, written by the
//! `Transpose` alone and read by the `MatMul` alone, which reads exactly
//! the subset the `Transpose` wrote; the `Transpose` reads one input, and
//! the `MatMul`'s result is a vector (one dimension that is
//! not a unit). `sdfg-auto-optimize` runs it before choosing the BLAS
//! implementations.

use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::{array_of, Op};
use sdfg_dialect::{memlet_at, rewrite};
use sdfg_symbolic::parse_subset;

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-fold-transposes",
    summary: "Turn a matrix-vector MatMul of a transient only a Transpose writes into a Gemv \
              with transA on the Transpose's input (no copy of the matrix)",
    op_name: "builtin.module",
    create: || Box::new(FoldTransposes),
};

/// The pass; it has no options.
#[derive(Clone, Copy)]
pub struct FoldTransposes;

impl RustPass for FoldTransposes {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        crate::no_options("sdfg-fold-transposes", options)
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        fold_transposes(module);
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(*self)
    }
}

/// The kind of library node `op` is (`MatMul`, `Transpose`, ...).
fn kind<'a>(op: Op<'a>) -> &'a str {
    sdfg_dialect::library::node_kind(op.str_attr("class_path").unwrap_or_default())
}

/// Folds every transpose under `root` that it can (see the module
/// documentation); returns how many.
pub fn fold_transposes(root: Op<'_>) -> usize {
    let matmuls: Vec<Op<'_>> = root
        .descendants()
        .into_iter()
        .filter(|o| o.is("sdfg.library") && kind(*o) == "MatMul")
        .collect();
    matmuls.into_iter().filter(|m| fold(*m).is_some()).count()
}

/// Folds the transpose feeding `matmul`, if there is one it can.
fn fold(matmul: Op<'_>) -> Option<()> {
    let names = matmul.str_array_attr("in_names");
    let ins = matmul.operand_segment(0);
    if names.len() != 2 || ins.len() != 2 || !matmul.operand_segment(1).is_empty() {
        return None;
    }
    let a = names.iter().position(|n| *n == "_a")?;
    let b = names.iter().position(|n| *n == "_b")?;
    // The matrix: an access node of a transient that the Transpose alone
    // writes and the MatMul alone reads.
    let access = ins[a].defining_op().filter(|d| d.is("sdfg.access"))?;
    let transient = sdfg_dialect::accessed_container(access)?;
    let alloc = transient.defining_op().filter(|d| d.is("sdfg.alloc"))?;
    let writes = access.operand_segment(1);
    if transient.uses().len() != 1 || writes.len() != 1 || access.results()[0].uses().len() != 1 {
        return None;
    }
    // The MatMul reads exactly what the Transpose wrote.
    let (copied, read) = (memlet_at(access, 1)?, memlet_at(matmul, a)?);
    if copied.other.is_some() || read.other.is_some() || copied.subset != read.subset {
        return None;
    }
    let transpose = writes[0]
        .defining_op()
        .filter(|t| t.is("sdfg.library") && kind(*t) == "Transpose")?;
    if transpose.operand_segment(0).len() != 1
        || !transpose.operand_segment(1).is_empty()
        || transpose.results().len() != 1
        || transpose.results()[0].uses().len() != 1
    {
        return None;
    }
    // The result: a vector.
    let (consumer, operand) = *matmul.results().first()?.uses().first()?;
    let written = parse_subset(&memlet_at(consumer, operand)?.subset).ok()?;
    let long = written
        .ranges()
        .iter()
        .filter(|r| r.count().as_int() != Some(1))
        .count();
    if matmul.results().len() != 1 || long != 1 {
        return None;
    }

    let ctx = matmul.context();
    let memlets = [
        memlet_at(transpose, 0)?.to_attr(ctx),
        memlet_at(matmul, b)?.to_attr(ctx),
    ];
    let props = rewrite::parse_attr(matmul, r#"{alpha = "1", beta = "0", transA = "true"}"#)?;
    let mut attributes = vec![
        (
            "class_path",
            rewrite::str_attr(matmul, "dace.libraries.blas.nodes.gemv.Gemv"),
        ),
        ("in_names", rewrite::str_array_attr(matmul, &["_A", "_x"])),
        ("in_memlets", array_of(ctx, &memlets)),
        ("out_names", rewrite::str_array_attr(matmul, &["_y"])),
        ("props", props),
        (
            "operandSegmentSizes",
            rewrite::segment_sizes(matmul, &[2, 0]),
        ),
    ];
    for name in ["label", "implementation", "schedule"] {
        if let Some(attr) = matmul.attr(name) {
            attributes.push((name, attr));
        }
    }
    let operands = [transpose.operand_segment(0)[0], ins[b]];
    let result_type = matmul.results()[0].ty();
    let gemv = rewrite::create_op_before(
        matmul,
        "sdfg.library",
        &operands,
        &attributes,
        &[result_type],
        None,
    )?;
    rewrite::replace_all_uses(matmul.results()[0], gemv.results()[0]);
    // SAFETY: the MatMul's result has no uses left; then the transient's
    // access node (read by the erased MatMul alone), the Transpose
    // (written into that node alone) and the transient go, in that order.
    unsafe {
        rewrite::erase(matmul);
        rewrite::erase(access);
        rewrite::erase(transpose);
        rewrite::erase(alloc);
    }
    Some(())
}
