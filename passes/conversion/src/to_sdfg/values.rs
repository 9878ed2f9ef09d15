//! Index arithmetic as symbolic expressions.
//!
//! A subscript, a loop bound or a size in upstream IR is an SSA value
//! computed by `arith` (and `index`) ops, `memref.dim` and affine maps. Where
//! that computation only involves constants, symbols (sizes, integer
//! arguments, loop variables) and operations whose meaning the symbolic
//! engine shares exactly, the value becomes an [`Expr`]; otherwise it stays
//! data (it is computed inside a tasklet, and an access it subscripts is
//! indirect). Integer division and remainder are symbolic only where C's
//! truncation and Python's floor agree (constants); `arith.floordivsi`,
//! `arith.ceildivsi` and affine `floordiv`/`ceildiv`/`mod` (positive
//! divisors) are floor semantics and always symbolic.

use mlir_sys::*;
use sdfg_dialect::ir::{Op, Val};
use sdfg_symbolic::Expr;

/// The integer value of an integer or index attribute.
pub(super) fn int_attr(attr: MlirAttribute) -> Option<i64> {
    // SAFETY: the attribute is live; the value is read only from an
    // integer attribute.
    unsafe { mlirAttributeIsAInteger(attr).then(|| mlirIntegerAttrGetValueInt(attr)) }
}

/// The results of the affine map attribute `name` of `op`, applied to
/// `operands` (dimensions first, then symbols).
pub(super) fn affine_results(
    op: Op<'_>,
    name: &str,
    operands: &[Option<Expr>],
) -> Option<Vec<Expr>> {
    let attr = op.attr(name)?;
    // SAFETY: the attribute is live and checked to be an affine map.
    unsafe {
        if !mlirAttributeIsAAffineMap(attr) {
            return None;
        }
        let map = mlirAffineMapAttrGetValue(attr);
        let dims = mlirAffineMapGetNumDims(map) as usize;
        let syms = mlirAffineMapGetNumSymbols(map) as usize;
        if operands.len() < dims + syms {
            return None;
        }
        (0..mlirAffineMapGetNumResults(map))
            .map(|i| {
                affine_expr(
                    mlirAffineMapGetResult(map, i),
                    &operands[..dims],
                    &operands[dims..dims + syms],
                )
            })
            .collect()
    }
}

/// The condition of `affine.if` `op` over `operands` (dimensions first,
/// then symbols): its integer set's constraints (`e >= 0`, `e == 0`)
/// joined by `and`; `None` where an operand is not symbolic.
pub(super) fn integer_set_condition(op: Op<'_>, operands: &[Option<Expr>]) -> Option<String> {
    let attr = op.attr("condition")?;
    // SAFETY: the attribute is live; the set is read only when it is one.
    unsafe {
        let set = sdfg_dialect::ffi::sdfgIntegerSetAttrGetValue(attr);
        if set.ptr.is_null() {
            return None;
        }
        let dims = mlirIntegerSetGetNumDims(set) as usize;
        let syms = mlirIntegerSetGetNumSymbols(set) as usize;
        if operands.len() < dims + syms {
            return None;
        }
        let mut clauses = Vec::new();
        for k in 0..mlirIntegerSetGetNumConstraints(set) {
            let e = affine_expr(
                mlirIntegerSetGetConstraint(set, k),
                &operands[..dims],
                &operands[dims..dims + syms],
            )?;
            let relation = if mlirIntegerSetIsConstraintEq(set, k) {
                "=="
            } else {
                ">="
            };
            clauses.push(format!("({e}) {relation} 0"));
        }
        Some(if clauses.is_empty() {
            "True".to_string()
        } else {
            clauses.join(" and ")
        })
    }
}

/// The number of operands (dimensions plus symbols) of the affine map
/// attribute `name` of `op`.
pub(super) fn affine_arity(op: Op<'_>, name: &str) -> Option<usize> {
    let attr = op.attr(name)?;
    // SAFETY: the attribute is live and checked to be an affine map.
    unsafe {
        mlirAttributeIsAAffineMap(attr).then(|| {
            let map = mlirAffineMapAttrGetValue(attr);
            (mlirAffineMapGetNumDims(map) + mlirAffineMapGetNumSymbols(map)) as usize
        })
    }
}

/// An affine expression over `dims` and `syms` (`None` where an operand
/// is not symbolic).
unsafe fn affine_expr(
    e: MlirAffineExpr,
    dims: &[Option<Expr>],
    syms: &[Option<Expr>],
) -> Option<Expr> {
    if mlirAffineExprIsADim(e) {
        return dims.get(mlirAffineDimExprGetPosition(e) as usize)?.clone();
    }
    if mlirAffineExprIsASymbol(e) {
        return syms
            .get(mlirAffineSymbolExprGetPosition(e) as usize)?
            .clone();
    }
    if mlirAffineExprIsAConstant(e) {
        return Some(Expr::int(mlirAffineConstantExprGetValue(e)));
    }
    let lhs = affine_expr(mlirAffineBinaryOpExprGetLHS(e), dims, syms)?;
    let rhs = affine_expr(mlirAffineBinaryOpExprGetRHS(e), dims, syms)?;
    if mlirAffineExprIsAAdd(e) {
        Some(Expr::add(&lhs, &rhs))
    } else if mlirAffineExprIsAMul(e) {
        Some(Expr::mul(&lhs, &rhs))
    } else if mlirAffineExprIsAFloorDiv(e) {
        Some(Expr::floordiv(&lhs, &rhs))
    } else if mlirAffineExprIsACeilDiv(e) {
        Some(Expr::ceildiv(&lhs, &rhs))
    } else if mlirAffineExprIsAMod(e) {
        Some(Expr::modulo(&lhs, &rhs))
    } else {
        None
    }
}

/// C's truncating division and remainder of two constants.
fn truncating(op: &str, a: i64, b: i64) -> Option<i64> {
    if b == 0 {
        return None;
    }
    match op {
        "arith.divsi" => a.checked_div(b),
        "arith.remsi" => a.checked_rem(b),
        "arith.divui" if a >= 0 && b > 0 => Some(a / b),
        "arith.remui" if a >= 0 && b > 0 => Some(a % b),
        _ => None,
    }
}

/// The symbolic value of `op`'s result from its operands' symbolic values
/// (`None` where an operand is data), or `None` when the op is not index
/// arithmetic the engine shares.
pub(super) fn fold(op: Op<'_>, operands: &[Option<Expr>]) -> Option<Expr> {
    let arg = |i: usize| operands.get(i).cloned().flatten();
    match op.name() {
        "arith.constant" | "index.constant" => {
            let ty = op.results()[0].ty();
            // SAFETY: the type is live.
            let integer = unsafe { mlirTypeIsAInteger(ty) || mlirTypeIsAIndex(ty) };
            if !integer {
                return None;
            }
            // SAFETY: the type is live.
            if unsafe { mlirTypeIsAInteger(ty) && mlirIntegerTypeGetWidth(ty) == 1 } {
                return int_attr(op.attr("value")?).map(|v| Expr::bool(v != 0));
            }
            int_attr(op.attr("value")?).map(Expr::int)
        }
        // Integer arithmetic narrower than 64 bits wraps in C where the
        // symbolic engine's integers do not: only index and i64 fold.
        "arith.addi" | "arith.subi" | "arith.muli" | "arith.floordivsi" | "arith.ceildivsi"
        | "arith.minsi" | "arith.maxsi"
            if !wide(op) =>
        {
            None
        }
        "arith.addi" | "index.add" => Some(Expr::add(&arg(0)?, &arg(1)?)),
        "arith.subi" | "index.sub" => Some(Expr::sub(&arg(0)?, &arg(1)?)),
        "arith.muli" | "index.mul" => Some(Expr::mul(&arg(0)?, &arg(1)?)),
        "arith.floordivsi" | "index.floordivs" => Some(Expr::floordiv(&arg(0)?, &arg(1)?)),
        "arith.ceildivsi" | "index.ceildivs" => Some(Expr::ceildiv(&arg(0)?, &arg(1)?)),
        "arith.divsi" | "arith.remsi" | "arith.divui" | "arith.remui" => {
            let v = truncating(op.name(), arg(0)?.as_int()?, arg(1)?.as_int()?)?;
            Some(Expr::int(v))
        }
        "arith.minsi" | "index.mins" => Some(Expr::min(vec![arg(0)?, arg(1)?])),
        "arith.maxsi" | "index.maxs" => Some(Expr::max(vec![arg(0)?, arg(1)?])),
        // Sign extension and signed casts keep the value; an unsigned cast
        // keeps it only when it is not negative (a constant here).
        "arith.index_cast" | "arith.extsi" | "index.casts" => arg(0),
        "arith.index_castui" | "arith.extui" => {
            arg(0).filter(|e| e.as_int().is_some_and(|v| v >= 0))
        }
        "arith.cmpi" => {
            let (a, b) = (arg(0)?, arg(1)?);
            match int_attr(op.attr("predicate")?)? {
                0 => Some(Expr::eq(&a, &b)),
                1 => Some(Expr::ne(&a, &b)),
                2 => Some(Expr::lt(&a, &b)),
                3 => Some(Expr::le(&a, &b)),
                4 => Some(Expr::gt(&a, &b)),
                5 => Some(Expr::ge(&a, &b)),
                _ => None,
            }
        }
        "arith.andi" if is_i1(op) => Some(Expr::and(vec![arg(0)?, arg(1)?])),
        "arith.ori" if is_i1(op) => Some(Expr::or(vec![arg(0)?, arg(1)?])),
        "affine.apply" => affine_results(op, "map", operands)?.pop(),
        "affine.min" => Some(Expr::min(affine_results(op, "map", operands)?)),
        "affine.max" => Some(Expr::max(affine_results(op, "map", operands)?)),
        _ => None,
    }
}

/// Whether `op`'s first result is an `index` or a 64-bit integer.
fn wide(op: Op<'_>) -> bool {
    let Some(result) = op.results().first().copied() else {
        return false;
    };
    // SAFETY: the type is live.
    unsafe {
        mlirTypeIsAIndex(result.ty())
            || (mlirTypeIsAInteger(result.ty()) && mlirIntegerTypeGetWidth(result.ty()) == 64)
    }
}

/// Whether `op`'s first result is an `i1`.
fn is_i1(op: Op<'_>) -> bool {
    let Some(result) = op.results().first().copied() else {
        return false;
    };
    is_bool(result)
}

/// Whether `v` is an `i1`.
pub(super) fn is_bool(v: Val<'_>) -> bool {
    // SAFETY: the type is live.
    unsafe { mlirTypeIsAInteger(v.ty()) && mlirIntegerTypeGetWidth(v.ty()) == 1 }
}
