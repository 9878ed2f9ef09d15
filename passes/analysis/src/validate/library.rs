//! The library nodes' own checks (the `validate` methods of DaCe's BLAS
//! nodes): the operands of a product agree in the dimension they
//! contract, and the output has the product's shape.
//!
//! Each operand is seen through its memlet with unit dimensions squeezed
//! out, as DaCe squeezes it; a `transA`/`transB` property swaps a
//! matrix's two dimensions. Sizes are compared symbolically, under the
//! SDFG's size assumptions: only sizes that provably differ are errors
//! (DaCe only warns where it cannot tell).
//!
//! ```mlir
//! // reported: `_a` is 4x3, `_b` is 5x2
//! %c = sdfg.library "mm" class "dace.libraries.blas.nodes.matmul.MatMul"
//!        ins("_a" = %a["0:4, 0:3"] : ..., "_b" = %b["0:5, 0:2"] : ...) ...
//! ```

use super::Reporter;
use sdfg_dialect::ir::Op;
use sdfg_dialect::library::{logical_dims, Properties};
use sdfg_dialect::{incoming_edges, EdgeRole};
use sdfg_symbolic::{parse_subset, Assumptions, Expr};
use std::collections::HashMap;

/// The squeezed sizes of the memlet subset `text`.
fn squeezed(text: &str) -> Option<Vec<Expr>> {
    let subset = parse_subset(text).ok()?;
    let dims = logical_dims(&subset, None).ok()?;
    Some(dims.iter().map(|d| subset.ranges()[*d].count()).collect())
}

/// The squeezed sizes of each connector of `op` that has a memlet.
fn operand_sizes(op: Op<'_>) -> HashMap<String, Vec<Expr>> {
    let mut sizes = HashMap::new();
    for edge in incoming_edges(op) {
        if let (EdgeRole::Input, Some(name), Some(memlet)) =
            (edge.role, edge.connector, edge.memlet)
        {
            sizes.extend(squeezed(&memlet.subset).map(|s| (name.to_string(), s)));
        }
    }
    let outputs = op.str_array_attr("out_names");
    for (name, result) in outputs.iter().zip(op.results()) {
        let subset = result.uses().into_iter().find_map(|(user, _)| {
            let edge = incoming_edges(user)
                .into_iter()
                .find(|e| e.source == result)?;
            edge.memlet.map(|m| m.subset)
        });
        sizes.extend(
            subset
                .and_then(|s| squeezed(&s))
                .map(|s| (name.to_string(), s)),
        );
    }
    sizes
}

/// Reports the library node `op` whose operand shapes provably do not fit
/// its class (see the module documentation).
pub(super) fn check_library(op: Op<'_>, asm: &Assumptions, reporter: &mut Reporter) {
    let class = op.str_attr("class_path").unwrap_or_default();
    let class = sdfg_dialect::library::node_kind(class);
    let sizes = operand_sizes(op);
    let props = Properties::of(op);
    let get = |name: &str| sizes.get(name).cloned().unwrap_or_default();
    // A matrix as the product sees it.
    let matrix = |name: &str, transposed: bool| -> Vec<Expr> {
        let mut s = get(name);
        if transposed && s.len() == 2 {
            s.reverse();
        }
        s
    };
    let mut report = |what: String, a: &Expr, b: &Expr| {
        if asm.decide(&Expr::ne(a, b)).is_true() {
            reporter.error(
                op,
                format!(
                    "{class} `{}`: {what} ({a} and {b})",
                    op.str_attr("label").unwrap_or("?")
                ),
            );
        }
    };
    match class {
        "MatMul" | "Gemm" => {
            let gemm = class == "Gemm";
            let a = matrix("_a", gemm && props.flag("transA"));
            let b = matrix("_b", gemm && props.flag("transB"));
            // The contracted dimension: A's last, B's first of a matrix
            // (its second of a batch of matrices).
            let k_b = match b.len() {
                3 => b.get(1),
                _ => b.first(),
            };
            if let (Some(ka), Some(kb)) = (a.last(), k_b) {
                report("the inputs do not agree in the k-dimension".into(), ka, kb);
            }
            let c = get("_c");
            if a.len() == 2 && b.len() == 2 && c.len() == 2 {
                report(
                    "the output's rows are not the first input's".into(),
                    &c[0],
                    &a[0],
                );
                report(
                    "the output's columns are not the second input's".into(),
                    &c[1],
                    &b[1],
                );
            }
        }
        "Gemv" => {
            let a = matrix("_A", props.flag("transA"));
            let (x, y) = (get("_x"), get("_y"));
            if let ([rows, cols], [n]) = (a.as_slice(), x.as_slice()) {
                report(
                    "the columns of `_A` are not the length of `_x`".into(),
                    cols,
                    n,
                );
                if let [m] = y.as_slice() {
                    report(
                        "the rows of `_A` are not the length of `_y`".into(),
                        rows,
                        m,
                    );
                }
            }
        }
        "Dot" | "Axpy" => {
            if let ([n], [m]) = (get("_x").as_slice(), get("_y").as_slice()) {
                report("`_x` and `_y` differ in length".into(), n, m);
            }
        }
        "Ger" => {
            let (a, x, y) = (get("_A"), get("_x"), get("_y"));
            if let ([rows, cols], [n], [m]) = (a.as_slice(), x.as_slice(), y.as_slice()) {
                report(
                    "the rows of `_A` are not the length of `_x`".into(),
                    rows,
                    n,
                );
                report(
                    "the columns of `_A` are not the length of `_y`".into(),
                    cols,
                    m,
                );
            }
        }
        _ => {}
    }
}
