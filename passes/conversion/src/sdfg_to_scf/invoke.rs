//! `sdfg.invoke`: a call of a lowered SDFG from a function on memrefs.
//!
//! The lowered SDFG takes its arrays as flat `memref<?xT>` and its scalars
//! as `memref<T>`, then one value per free symbol (the C interface of
//! `abi`). An invoke passes memrefs of any rank and binds symbols by name,
//! so each invoke becomes a call of a private adapter that flattens its
//! memrefs (`memref.collapse_shape`, then `memref.cast` to a dynamic size)
//! and passes the symbols in the interface's order. A memref with a
//! strided layout is passed from its first element, as the container with
//! its strides indexes it ([`from_first_element`]). The adapter is inlined
//! later.
//!
//! ```mlir
//! sdfg.invoke @f_sdfg(%A : memref<4x?xf64>) symbols ["arg0_d1"](%n)
//! // becomes
//! func.call @__invoke_f_sdfg_1(%A, %n) : (memref<4x?xf64>, index) -> ()
//! func.func private @__invoke_f_sdfg_1(%a0: memref<4x?xf64>, %s0: index) {
//!   %f0 = memref.collapse_shape %a0 [[0, 1]] : memref<4x?xf64> into memref<?xf64>
//!   call @f_sdfg(%f0, %s0) : (memref<?xf64>, index) -> ()
//!   return
//! }
//! ```

use std::collections::HashMap;

use mlir_sys::*;
use sdfg_dialect::ir::{type_to_string, Op, Val};

use super::{Abi, Failure, Result};

/// One invoke and what replaces it: a call of `adapter` with `operands`.
pub(super) struct Rewrite<'a> {
    invoke: Op<'a>,
    adapter: String,
    operands: Vec<Val<'a>>,
}

/// The adapters (function text) for the invokes of `module`, and how each
/// invoke is rewritten once they exist.
pub(super) fn adapters<'a>(
    module: Op<'a>,
    abis: &HashMap<String, Abi>,
    unique: &mut dyn FnMut(&str) -> String,
) -> Result<'a, (String, Vec<Rewrite<'a>>)> {
    let mut text = String::new();
    let mut rewrites = Vec::new();
    for invoke in module
        .descendants()
        .into_iter()
        .filter(|o| o.is("sdfg.invoke"))
    {
        let callee = invoke
            .symbol_ref_attr("callee")
            .unwrap_or_default()
            .to_string();
        let Some(abi) = abis.get(&callee) else {
            return Err(Failure::new(
                invoke,
                format!("'{callee}' is not an SDFG of this module"),
            ));
        };
        let data = invoke.operand_segment(0);
        let names = invoke.str_array_attr("symbol_names");
        let values = invoke.operand_segment(1);
        if data.len() != abi.arguments.len() {
            return Err(Failure::new(
                invoke,
                format!(
                    "passes {} memrefs but '{callee}' takes {} containers",
                    data.len(),
                    abi.arguments.len()
                ),
            ));
        }
        let adapter = unique(&format!("__invoke_{callee}"));
        let mut params = Vec::new();
        let mut body = String::new();
        let mut args = Vec::new();
        let mut arg_types = Vec::new();
        for (i, (value, arg)) in data.iter().zip(&abi.arguments).enumerate() {
            let ty = type_to_string(value.ty());
            params.push(format!("%a{i}: {ty}"));
            let want =
                super::types::memref_type(&arg.layout.elem, arg.layout.scalar, arg.layout.stream);
            let flat = flatten(&mut body, i, *value, &ty, &want)
                .map_err(|m| Failure::new(invoke, format!("argument `{}`: {m}", arg.name)))?;
            args.push(flat);
            arg_types.push(want);
        }
        let mut operands = data.clone();
        for (k, symbol) in abi.symbols.iter().enumerate() {
            let Some(position) = names.iter().position(|n| *n == symbol.name) else {
                return Err(Failure::new(
                    invoke,
                    format!("does not bind symbol `{}` of '{callee}'", symbol.name),
                ));
            };
            let ty = symbol.ty.mlir();
            if ty != "index" {
                return Err(Failure::new(
                    invoke,
                    format!(
                        "binds symbol `{}` to an index, but '{callee}' takes it as {ty}",
                        symbol.name
                    ),
                ));
            }
            params.push(format!("%s{k}: index"));
            args.push(format!("%s{k}"));
            arg_types.push("index".into());
            operands.push(values[position]);
        }
        text.push_str(&format!(
            "func.func private @{adapter}({}) {{\n{body}  func.call @{callee}({}) : ({}) -> ()\n  return\n}}\n",
            params.join(", "),
            args.join(", "),
            arg_types.join(", ")
        ));
        rewrites.push(Rewrite {
            invoke,
            adapter,
            operands,
        });
    }
    Ok((text, rewrites))
}

/// Writes into `body` what turns argument `i` (`value`, of type `ty`)
/// into the interface's `want`, and returns the value to pass.
fn flatten(
    body: &mut String,
    i: usize,
    value: Val<'_>,
    ty: &str,
    want: &str,
) -> std::result::Result<String, String> {
    if ty == want {
        return Ok(format!("%a{i}"));
    }
    let t = value.ty();
    // SAFETY: the type is live; shaped queries only on a memref.
    let (rank, identity, elem, static_size) = unsafe {
        if !mlirTypeIsAMemRef(t) {
            return Err(format!("{ty} is not a ranked memref"));
        }
        let layout = mlirMemRefTypeGetLayout(t);
        let identity = mlirAttributeIsAAffineMap(layout)
            && mlirAffineMapIsIdentity(mlirAffineMapAttrGetValue(layout));
        let rank = mlirShapedTypeGetRank(t);
        let static_size = (0..rank)
            .map(|d| {
                (!mlirShapedTypeIsDynamicDim(t, d as isize))
                    .then(|| mlirShapedTypeGetDimSize(t, d as isize))
            })
            .try_fold(1i64, |acc, d| d.and_then(|d| acc.checked_mul(d)));
        (
            rank,
            identity,
            type_to_string(mlirShapedTypeGetElementType(t)),
            static_size,
        )
    };
    if want != format!("memref<?x{elem}>") || rank == 0 {
        return Err(format!(
            "{ty} does not match the container, which the SDFG takes as {want}"
        ));
    }
    if !identity {
        return from_first_element(body, i, t, ty, &elem, rank);
    }
    let mut current = format!("%a{i}");
    if rank > 1 {
        let dims: Vec<String> = (0..rank).map(|d| d.to_string()).collect();
        let collapsed = match static_size {
            Some(n) => format!("memref<{n}x{elem}>"),
            None => want.to_string(),
        };
        body.push_str(&format!(
            "  %c{i} = memref.collapse_shape {current} [[{}]] : {ty} into {collapsed}\n",
            dims.join(", ")
        ));
        current = format!("%c{i}");
        if collapsed == want {
            return Ok(current);
        }
        body.push_str(&format!(
            "  %f{i} = memref.cast {current} : {collapsed} to {want}\n"
        ));
    } else {
        body.push_str(&format!(
            "  %f{i} = memref.cast {current} : {ty} to {want}\n"
        ));
    }
    Ok(format!("%f{i}"))
}

/// The LLVM type of memref element type `elem`, for pointer arithmetic.
fn llvm_element(elem: &str) -> Option<String> {
    let float = |t: &str| matches!(t, "f16" | "bf16" | "f32" | "f64");
    let int = |t: &str| {
        t.strip_prefix('i')
            .is_some_and(|w| w.parse::<u32>().is_ok())
    };
    match elem {
        "index" => Some("i64".into()),
        t if float(t) || int(t) => Some(t.into()),
        t => {
            let inner = t.strip_prefix("complex<")?.strip_suffix('>')?;
            float(inner).then(|| format!("!llvm.struct<({inner}, {inner})>"))
        }
    }
}

/// Writes into `body` what passes a memref of a strided layout (`ty`,
/// rank `rank`) as the flat `memref<?xT>` that starts at its first
/// element, so that the SDFG, whose container has the memref's strides,
/// indexes it from there: the buffer from the first element to the last
/// (`memref.reinterpret_cast` of the base at the memref's offset), whose
/// descriptor then takes the offset into its aligned pointer, since a
/// `memref<?xT>` has offset 0 (upstream has no op for that: the
/// descriptor is rewritten in the `llvm` dialect between two
/// `unrealized_conversion_cast`s, which the lowering to LLVM folds away).
fn from_first_element(
    body: &mut String,
    i: usize,
    t: MlirType,
    ty: &str,
    elem: &str,
    rank: i64,
) -> std::result::Result<String, String> {
    if sdfg_dialect::ir::memref_strides_and_offset(t).is_none() {
        return Err(format!("{ty} has a layout that is not strided"));
    }
    let Some(llvm) = llvm_element(elem) else {
        return Err(format!("{ty} has elements the lowering cannot address"));
    };
    let indices = ", index".repeat(1 + 2 * rank as usize);
    body.push_str(&format!(
        "  %m{i}, %o{i}, %z{i}:{rank}, %t{i}:{rank} = memref.extract_strided_metadata %a{i} : {ty} -> memref<{elem}>{indices}\n  %u{i} = arith.constant 1 : index\n  %w{i} = arith.constant 0 : index\n"
    ));
    // The elements from the first to the last: 1 + sum((z - 1) * t).
    let mut span = format!("%u{i}");
    for d in 0..rank {
        body.push_str(&format!(
            "  %l{i}_{d} = arith.subi %z{i}#{d}, %u{i} : index\n  %p{i}_{d} = arith.muli %l{i}_{d}, %t{i}#{d} : index\n  %s{i}_{d} = arith.addi {span}, %p{i}_{d} : index\n"
        ));
        span = format!("%s{i}_{d}");
    }
    let view = format!("memref<?x{elem}, strided<[1], offset: ?>>");
    let descriptor = "!llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>";
    body.push_str(&format!(
        "  %n{i} = arith.maxsi {span}, %w{i} : index
  %v{i} = memref.reinterpret_cast %m{i} to offset: [%o{i}], sizes: [%n{i}], strides: [1] : memref<{elem}> to {view}
  %d{i} = builtin.unrealized_conversion_cast %v{i} : {view} to {descriptor}
  %q{i} = llvm.extractvalue %d{i}[1] : {descriptor}
  %r{i} = llvm.extractvalue %d{i}[2] : {descriptor}
  %g{i} = llvm.getelementptr %q{i}[%r{i}] : (!llvm.ptr, i64) -> !llvm.ptr, {llvm}
  %k{i} = llvm.mlir.constant(0 : i64) : i64
  %e{i} = llvm.insertvalue %g{i}, %d{i}[1] : {descriptor}
  %h{i} = llvm.insertvalue %k{i}, %e{i}[2] : {descriptor}
  %f{i} = builtin.unrealized_conversion_cast %h{i} : {descriptor} to memref<?x{elem}>
"
    ));
    Ok(format!("%f{i}"))
}

/// Replaces each invoke by a call of its adapter.
pub(super) fn rewrite(rewrites: Vec<Rewrite<'_>>) {
    for r in rewrites {
        // SAFETY: the invoke is live; the call is created before it and the
        // invoke erased once.
        unsafe {
            let callee = mlirFlatSymbolRefAttrGet(
                r.invoke.context(),
                sdfg_dialect::ir::string_ref(&r.adapter),
            );
            sdfg_dialect::rewrite::create_op_before(
                r.invoke,
                "func.call",
                &r.operands,
                &[("callee", callee)],
                &[],
                None,
            );
            mlirOperationDestroy(r.invoke.raw());
        }
    }
}
