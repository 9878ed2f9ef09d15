//! `convert-to-sdfg`: functions in upstream dialects (`func`, `scf`,
//! `affine`, `memref`, `linalg`, `arith`, `math`) become SDFGs.
//!
//! Other MLIR frontends (Polygeist, Flang, torch-mlir after bufferization,
//! hand-written code) produce `func.func`s on memrefs. This pass turns
//! each into the SDFG a DaCe user would have written, and keeps the
//! function itself, with its signature, as a thin wrapper that binds the
//! SDFG's symbols and calls it (`sdfg.invoke`), so that callers and a
//! `main` that prints results work unchanged before and after, and
//! through `sdfg-lower-to-llvm`.
//!
//! ```mlir
//! // before
//! func.func @scale(%x: memref<?xf64>, %a: f64) {
//!   %c0 = arith.constant 0 : index
//!   %c1 = arith.constant 1 : index
//!   %n = memref.dim %x, %c0 : memref<?xf64>
//!   scf.parallel (%i) = (%c0) to (%n) step (%c1) {
//!     %v = memref.load %x[%i] : memref<?xf64>
//!     %w = arith.mulf %v, %a : f64
//!     memref.store %w, %x[%i] : memref<?xf64>
//!   }
//!   return
//! }
//! // after
//! sdfg.sdfg @scale_sdfg(%arg0: !sdfg.array<f64 ["arg0_d0"]> as "arg0",
//!                       %arg1: !sdfg.scalar<f64> as "arg1") symbols {arg0_d0 = i64} {
//!   sdfg.state @s1 {
//!     %r = sdfg.map "map2" ["i" = "0:arg0_d0"] ins(...) outs("arg0" : ...) {
//!       %t = sdfg.tasklet "t3" ins("i0" = %x["i"] : ..., "i1" = %a["0"] : ...)
//!              outs("o0" : f64) { ... arith.mulf ... }
//!       sdfg.exit ("arg0" = %t["i"] : f64)
//!     }
//!     %w = sdfg.access %arg0 writes(%r["0:arg0_d0"] : ...) : ...
//!   }
//! }
//! func.func @scale(%arg0: memref<?xf64>, %arg1: f64) {
//!   ... memref.dim, a memref<f64> holding %arg1 ...
//!   sdfg.invoke @scale_sdfg(%arg0, %s : memref<?xf64>, memref<f64>) symbols ["arg0_d0"](%d)
//!   return
//! }
//! ```
//!
//! The mapping (`builder.rs` holds the details):
//!
//! - memref arguments and allocations are containers; their dynamic
//!   dimensions are symbols; an argument with a strided layout is the
//!   memref from its first element, with its strides; subviews, casts,
//!   reshapes and reinterpretations are views (`builder/reshape.rs`);
//!   integer and index arguments are symbols,
//!   float arguments scalars; scalar results are `__return` containers,
//!   a returned allocation an argument container the wrapper allocates;
//! - index arithmetic (`arith`, `affine.apply`/`min`/`max`, `memref.dim`)
//!   is symbolic wherever its meaning is exact (`values.rs`), so that
//!   subscripts are memlet subsets and bounds are ranges;
//! - linalg's products and 2-D transposes are DaCe library nodes, and
//!   `linalg.copy` a copy (`builder/library.rs`); the other `linalg` ops are
//!   lowered to `scf.parallel`/`scf.for` first (upstream's
//!   `convert-linalg-to-parallel-loops`);
//! - `scf.parallel`/`affine.parallel` are maps, `scf.reduce` a
//!   write-conflict resolution; `scf.for`/`affine.for` are `sdfg.loop`s,
//!   `scf.if` an `sdfg.conditional`, loop-carried values and `scf.if`
//!   results transient scalars;
//! - each store is a tasklet whose body is the stored value's slice,
//!   cloned from the function (any `arith`/`math`/`complex` op), with a
//!   memlet per load; subscripts computed from data make the access
//!   indirect (the container goes in whole).
//!
//! Anything else is a diagnostic naming the op; the pass never writes a
//! program that computes something else. A call of a function with a body
//! is a nested SDFG made of the callee's body. By default every function
//! with a body is converted, except those that call a function without one
//! (printing, I/O), directly or not: they stay as they are, with a remark.
//! `functions=f,g` names the functions to convert; a named function that
//! cannot be converted is an error.

mod builder;
mod values;

use std::collections::{BTreeSet, HashMap};

use mlir_sys::*;
use sdfg_dialect::driver::{Diagnosed, PassRegistration, PipelineRegistration, RustPass};
use sdfg_dialect::ir::{string_ref, type_to_string, Op, Val};
use sdfg_symbolic::Expr;

use builder::{memref_shape, Container, Plan, Sdfg, Shared};

/// How a tensor program is brought to memrefs first.
pub(super) const BUFFERIZE: &str = "convert-to-sdfg takes memrefs: bufferize the program first \
     (--one-shot-bufferize=\"bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map\")";

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "convert-to-sdfg",
    summary: "Convert func.funcs on memrefs (scf, affine, memref, linalg, arith, math) to sdfg.sdfgs, keeping each function as a wrapper that invokes its SDFG",
    op_name: "builtin.module",
    create: || Box::<ConvertToSdfg>::default(),
};

/// `sdfg-from-upstream`: the conversion, then maps wherever a loop is
/// proved parallel (`sdfg-loop-to-map`, which reasons on the converted
/// memlets), then `sdfg-simplify`.
pub static FROM_UPSTREAM: PipelineRegistration = PipelineRegistration {
    argument: "sdfg-from-upstream",
    summary: "Convert upstream functions to SDFGs (convert-to-sdfg), turn the loops proved parallel into maps (sdfg-loop-to-map), then sdfg-simplify",
    pipeline: "convert-to-sdfg,sdfg-loop-to-map,sdfg-simplify",
};

/// The conversion pass; option `functions=f,g` names the functions to
/// convert (default: every function whose calls all reach bodies).
#[derive(Clone, Default)]
pub struct ConvertToSdfg {
    functions: Option<Vec<String>>,
}

impl RustPass for ConvertToSdfg {
    fn set_options(&mut self, options: &str) -> std::result::Result<(), String> {
        for option in options.split_whitespace() {
            match option.split_once('=') {
                Some(("functions", list)) => {
                    self.functions = Some(
                        list.split(',')
                            .map(|f| f.trim().trim_start_matches('@').to_string())
                            .filter(|f| !f.is_empty())
                            .collect(),
                    )
                }
                _ => {
                    return Err(format!(
                        "convert-to-sdfg: unknown option `{option}` (the option is functions=name,name)"
                    ))
                }
            }
        }
        Ok(())
    }

    fn run(&mut self, op: Op<'_>) -> std::result::Result<(), Diagnosed> {
        convert_module(op, self.functions.as_deref())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(self.clone())
    }
}

/// A failure at an op, reported as a diagnostic on it.
pub(super) struct Failure<'a> {
    op: Op<'a>,
    message: String,
}

impl<'a> Failure<'a> {
    /// A failure at `op`.
    pub fn new(op: Op<'a>, message: impl Into<String>) -> Failure<'a> {
        Failure {
            op,
            message: message.into(),
        }
    }
}

pub(super) type Result<'a, T> = std::result::Result<T, Failure<'a>>;

pub(super) fn fail<'a, T>(op: Op<'a>, message: impl Into<String>) -> Result<'a, T> {
    Err(Failure::new(op, message))
}

/// The functions a function calls.
fn callees<'a>(func: Op<'a>) -> Vec<(Op<'a>, String)> {
    func.descendants()
        .into_iter()
        .filter(|o| o.is("func.call") || o.is("func.call_indirect"))
        .map(|o| {
            (
                o,
                o.symbol_ref_attr("callee")
                    .unwrap_or("<indirect>")
                    .to_string(),
            )
        })
        .collect()
}

/// Converts the functions of `module` that `named` names (all that can be,
/// when `None`).
fn convert_module(module: Op<'_>, named: Option<&[String]>) -> std::result::Result<(), Diagnosed> {
    let funcs: Vec<Op> = module
        .region_ops(0)
        .into_iter()
        .filter(|o| o.is("func.func") && o.has_body(0))
        .collect();
    // The functions whose calls can be nested SDFGs: those with a body
    // that call only such functions (a call of a declaration, such as
    // printing, has effects an SDFG cannot model).
    let mut callable: HashMap<String, Op> = funcs
        .iter()
        .filter_map(|f| Some((f.symbol_name()?.to_string(), *f)))
        .collect();
    loop {
        let blocked: Vec<String> = callable
            .iter()
            .filter(|(_, f)| callees(**f).iter().any(|(_, c)| !callable.contains_key(c)))
            .map(|(n, _)| n.clone())
            .collect();
        if blocked.is_empty() {
            break;
        }
        for name in blocked {
            callable.remove(&name);
        }
    }
    let mut targets = Vec::new();
    match named {
        Some(names) => {
            for name in names {
                let Some(f) = funcs
                    .iter()
                    .find(|f| f.symbol_name() == Some(name.as_str()))
                else {
                    module.emit_error(format!(
                        "convert-to-sdfg: there is no function @{name} with a body"
                    ));
                    return Err(Diagnosed);
                };
                if let Some((call, callee)) = callees(*f)
                    .into_iter()
                    .find(|(_, c)| !callable.contains_key(c))
                {
                    call.emit_error(format!(
                        "calls @{callee}, so @{name} cannot be converted: @{callee} has no body here or calls a function that has none, and such a call has effects an SDFG cannot model"
                    ));
                    return Err(Diagnosed);
                }
                targets.push(*f);
            }
        }
        None => {
            for f in &funcs {
                let unstrided = f.region_args(0).into_iter().position(|a| {
                    builder::has_layout(a.ty())
                        && sdfg_dialect::ir::memref_strides_and_offset(a.ty()).is_none()
                });
                match callees(*f)
                    .into_iter()
                    .find(|(_, c)| !callable.contains_key(c))
                {
                    Some((_, callee)) => f.emit_remark(format!(
                        "stays as it is: it calls @{callee}, which has no body here or calls a function that has none"
                    )),
                    // A function on parts of containers converts where it
                    // is called, as a nested SDFG.
                    None if unstrided.is_some() => f.emit_remark(format!(
                        "stays as it is: argument {} is a memref whose layout is not strided, which an SDFG argument does not take; its calls convert as nested SDFGs",
                        unstrided.unwrap_or_default()
                    )),
                    None => targets.push(*f),
                }
            }
        }
    }
    if targets.is_empty() {
        return Ok(());
    }
    let functions = shared_functions(&callable, &targets);
    let mut shared = Shared::default();
    // SAFETY: the functions are live; what is set aside is put back below.
    shared.kept = unsafe { set_aside(&functions) };
    shared.functions = callable;
    let converted = convert_functions(&mut shared, module, &functions, &targets);
    // SAFETY: the stand-ins and the ops set aside are live.
    unsafe { put_back(&shared.kept) };
    let text = converted?;
    // SAFETY: the module and its ops are live; the parsed module is
    // destroyed once its ops are moved out.
    unsafe { install(module, &targets, &shared.plans, &text) }
}

/// Lowers the linalg ops of `functions` to loops, then converts `targets`:
/// the text of a module of their SDFGs and wrappers.
fn convert_functions<'a>(
    shared: &mut Shared<'a>,
    module: Op<'a>,
    functions: &[Op<'a>],
    targets: &[Op<'a>],
) -> std::result::Result<String, Diagnosed> {
    for func in functions {
        if let Err(message) = linalg_to_loops(*func) {
            func.emit_error(message);
            return Err(Diagnosed);
        }
    }
    let mut taken: BTreeSet<String> = module
        .region_ops(0)
        .iter()
        .filter_map(|o| o.symbol_name().map(String::from))
        .collect();
    let mut text = String::from("module {\n");
    for func in targets {
        let name = func.symbol_name().unwrap_or("f");
        let mut sdfg_name = format!("{name}_sdfg");
        let mut k = 0;
        while !taken.insert(sdfg_name.clone()) {
            k += 1;
            sdfg_name = format!("{name}_sdfg{k}");
        }
        match convert_function(shared, *func, sdfg_name) {
            Ok((sdfg, wrapper)) => {
                text.push_str(&sdfg);
                text.push_str(&wrapper);
            }
            Err(f) => {
                f.op.emit_error(f.message);
                return Err(Diagnosed);
            }
        }
    }
    text.push_str("}\n");
    Ok(text)
}

/// The callee of the calls that stand in for linalg ops kept whole.
const STAND_IN: &str = "__sdfg_kept_linalg_op";

/// Takes the linalg ops that become library nodes (`builder/library.rs`)
/// out of `functions`, so that upstream's lowering of the other linalg
/// ops to loops leaves them alone: a call of the same operands stands in
/// for each. Returns the ops by stand-in.
unsafe fn set_aside<'a>(functions: &[Op<'a>]) -> HashMap<Op<'a>, Op<'a>> {
    let mut kept = HashMap::new();
    for func in functions {
        for op in func.descendants() {
            if !builder::library::kept_whole(op) {
                continue;
            }
            let ctx = op.context();
            let mut state =
                mlirOperationStateGet(string_ref("func.call"), mlirOperationGetLocation(op.raw()));
            let operands: Vec<MlirValue> = op.operands().iter().map(|v| v.raw()).collect();
            mlirOperationStateAddOperands(&mut state, operands.len() as isize, operands.as_ptr());
            let callee = mlirNamedAttributeGet(
                mlirIdentifierGet(ctx, string_ref("callee")),
                mlirFlatSymbolRefAttrGet(ctx, string_ref(STAND_IN)),
            );
            mlirOperationStateAddAttributes(&mut state, 1, &callee);
            let call = mlirOperationCreate(&mut state);
            mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(op.raw()), op.raw(), call);
            mlirOperationRemoveFromParent(op.raw());
            let call = Op::from_raw(call).expect("a created op");
            kept.insert(call, op);
        }
    }
    kept
}

/// Puts the ops [`set_aside`] took back in place of their stand-ins.
unsafe fn put_back(kept: &HashMap<Op<'_>, Op<'_>>) {
    for (call, op) in kept {
        mlirBlockInsertOwnedOperationBefore(
            mlirOperationGetBlock(call.raw()),
            call.raw(),
            op.raw(),
        );
        mlirOperationDestroy(call.raw());
    }
}

/// The functions the conversion reads: the targets and every function they
/// may call.
fn shared_functions<'a>(callable: &HashMap<String, Op<'a>>, targets: &[Op<'a>]) -> Vec<Op<'a>> {
    let mut out: Vec<Op<'a>> = targets.to_vec();
    out.extend(callable.values().filter(|f| !targets.contains(f)));
    out
}

/// Lowers the `linalg` ops of `func` to loops with upstream's
/// `convert-linalg-to-parallel-loops`: parallel iterators become
/// `scf.parallel` (maps here), reduction iterators `scf.for` inside them.
fn linalg_to_loops(func: Op<'_>) -> std::result::Result<(), String> {
    if !func
        .descendants()
        .iter()
        .any(|o| o.name().starts_with("linalg."))
    {
        return Ok(());
    }
    // SAFETY: the function and its context are live; the pass manager is
    // destroyed before returning.
    unsafe {
        let pm = mlirPassManagerCreateOnOperation(func.context(), string_ref("func.func"));
        let mut added = MlirLogicalResult { value: 0 };
        let message = sdfg_dialect::ir::print_with(|callback, data| {
            added = mlirOpPassManagerAddPipeline(
                mlirPassManagerGetAsOpPassManager(pm),
                string_ref("convert-linalg-to-parallel-loops"),
                callback,
                data,
            );
        });
        if added.value == 0 {
            mlirPassManagerDestroy(pm);
            return Err(format!("cannot lower its linalg ops to loops: {message}"));
        }
        let ran = mlirPassManagerRunOnOp(pm, func.raw());
        mlirPassManagerDestroy(pm);
        if ran.value == 0 {
            return Err("cannot lower its linalg ops to loops".into());
        }
    }
    Ok(())
}

/// Converts `func` into an SDFG named `sdfg_name`; returns the SDFG's text
/// and the wrapper function's.
fn convert_function<'a>(
    shared: &mut Shared<'a>,
    func: Op<'a>,
    sdfg_name: String,
) -> Result<'a, (String, String)> {
    // SAFETY: the region is live.
    let blocks = unsafe {
        let region = mlirOperationGetRegion(func.raw(), 0);
        let mut n = 0;
        let mut b = mlirRegionGetFirstBlock(region);
        while !b.ptr.is_null() {
            n += 1;
            b = mlirBlockGetNextInRegion(b);
        }
        n
    };
    if blocks != 1 {
        return fail(func, "has unstructured control flow (several blocks), which is not converted; raise it to scf first (lift-cf-to-scf)");
    }
    let name = func.symbol_name().unwrap_or("f").to_string();
    shared.begin_function();
    let mut sdfg = Sdfg::new(sdfg_name.clone());
    let mut wrapper = Vec::new();
    let mut params = Vec::new();
    let mut data = Vec::new();
    let mut bindings: HashMap<String, String> = HashMap::new();
    let args = func.region_args(0);
    for k in 0..args.len() {
        shared.reserve(&format!("arg{k}"));
    }
    for (k, a) in args.iter().enumerate() {
        let ty = type_to_string(a.ty());
        let arg = format!("%arg{k}");
        params.push(format!("{arg}: {ty}"));
        let cname = format!("arg{k}");
        // SAFETY: the type is live.
        let (is_memref, is_int, is_float) = unsafe {
            (
                mlirTypeIsAMemRef(a.ty()),
                (mlirTypeIsAIndex(a.ty()) || mlirTypeIsAInteger(a.ty())) && !values::is_bool(*a),
                mlirTypeIsAFloat(a.ty()),
            )
        };
        if is_memref {
            let (elem, dims) = builder::memref_shape_any_layout(a.ty())
                .map_err(|m| Failure::new(func, format!("argument {k}: {m}")))?;
            let mut shape = Vec::new();
            for (d, size) in dims.iter().enumerate() {
                match size {
                    Some(n) => shape.push(Expr::int(*n)),
                    None => {
                        let s = shared.fresh(&format!("{cname}_d{d}"));
                        sdfg.use_symbol(&s);
                        wrapper.push(format!("  %c{k}_{d} = arith.constant {d} : index\n"));
                        wrapper.push(format!(
                            "  %d{k}_{d} = memref.dim {arg}, %c{k}_{d} : {ty}\n"
                        ));
                        bindings.insert(s.clone(), format!("%d{k}_{d}"));
                        shape.push(Expr::symbol(&s));
                    }
                }
            }
            let mut container = Container {
                name: cname,
                elem,
                shape,
                strides: None,
            };
            if builder::has_layout(a.ty()) {
                strided_argument(
                    shared,
                    &mut sdfg,
                    *a,
                    &mut container,
                    &mut wrapper,
                    &mut bindings,
                )
                .map_err(|m| Failure::new(func, format!("argument {k} ({ty}): {m}")))?;
            }
            sdfg.add_argument(*a, container);
            data.push((arg, ty));
        } else if is_int {
            sdfg.bind_expr(*a, Expr::symbol(&cname));
            sdfg.use_symbol(&cname);
            let value = if ty == "index" {
                arg.clone()
            } else {
                wrapper.push(format!(
                    "  %x{k} = arith.index_cast {arg} : {ty} to index\n"
                ));
                format!("%x{k}")
            };
            bindings.insert(cname, value);
        } else if is_float {
            wrapper.push(format!("  %m{k} = memref.alloca() : memref<{ty}>\n"));
            wrapper.push(format!("  memref.store {arg}, %m{k}[] : memref<{ty}>\n"));
            sdfg.add_argument(
                *a,
                Container {
                    name: cname,
                    elem: ty.clone(),
                    shape: Vec::new(),
                    strides: None,
                },
            );
            data.push((format!("%m{k}"), format!("memref<{ty}>")));
        } else if ty.starts_with("tensor<") {
            return fail(
                func,
                format!("argument {k} is a tensor ({ty}); {BUFFERIZE}"),
            );
        } else {
            return fail(
                func,
                format!("argument {k} has type {ty}, which has no SDFG counterpart"),
            );
        }
    }
    let ops = func.region_ops(0);
    let (terminator, body) = ops
        .split_last()
        .expect("a function body ends in a terminator");
    let mut results = Vec::new();
    let mut loads = Vec::new();
    let mut wrapper_loads = vec!["  %c0 = arith.constant 0 : index\n".to_string()];
    for (k, v) in terminator.operands().into_iter().enumerate() {
        let ty = type_to_string(v.ty());
        // SAFETY: the type is live.
        if unsafe { mlirTypeIsAMemRef(v.ty()) } {
            let value = returned_memref(&mut sdfg, shared, func, *terminator, v, &bindings)?;
            if let Some((arg, alloc)) = value.1 {
                wrapper.push(alloc);
                data.push((arg, ty.clone()));
            }
            loads.push((value.0, ty));
            continue;
        }
        // SAFETY: the type is live.
        let scalar = unsafe {
            mlirTypeIsAFloat(v.ty())
                || mlirTypeIsAIndex(v.ty())
                || (mlirTypeIsAInteger(v.ty()) && !values::is_bool(v))
        };
        if !scalar {
            return fail(
                *terminator,
                format!(
                    "returns a {ty}; only integer, index, float and memref results are converted"
                ),
            );
        }
        let cname = shared.fresh(if k == 0 { "__return" } else { "__return_" });
        // DaCe returns values in arrays of one element.
        sdfg.add_unbound_argument(Container {
            name: cname.clone(),
            elem: ty.clone(),
            shape: vec![Expr::int(1)],
            strides: None,
        });
        results.push((v, cname));
        wrapper.push(format!("  %ret{k} = memref.alloca() : memref<1x{ty}>\n"));
        data.push((format!("%ret{k}"), format!("memref<1x{ty}>")));
        wrapper_loads.push(format!(
            "  %rv{k} = memref.load %ret{k}[%c0] : memref<1x{ty}>\n"
        ));
        loads.push((format!("%rv{k}"), ty));
    }
    let mut seq = sdfg.region(shared, body, &results, Some(*terminator))?;
    seq.start_with_state(shared);
    let body_text = seq.render(shared);
    let text = sdfg.render(&body_text);
    let (_, free) = sdfg.symbols();
    let mut names = Vec::new();
    let mut values = Vec::new();
    for s in &free {
        let Some(v) = bindings.get(s) else {
            return fail(func, format!("internal error: symbol `{s}` has no value"));
        };
        names.push(format!("\"{s}\""));
        values.push(v.clone());
    }
    let operands: Vec<&str> = data.iter().map(|d| d.0.as_str()).collect();
    let types: Vec<&str> = data.iter().map(|d| d.1.as_str()).collect();
    let data_text = if data.is_empty() {
        String::new()
    } else {
        format!("{} : {}", operands.join(", "), types.join(", "))
    };
    let result_types: Vec<&str> = loads.iter().map(|l| l.1.as_str()).collect();
    let result_values: Vec<&str> = loads.iter().map(|l| l.0.as_str()).collect();
    if loads.is_empty() {
        wrapper_loads.clear();
    }
    let signature = if result_types.is_empty() {
        String::new()
    } else {
        format!(" -> ({})", result_types.join(", "))
    };
    let ret = if result_values.is_empty() {
        "  return\n".to_string()
    } else {
        format!(
            "  return {} : {}\n",
            result_values.join(", "),
            result_types.join(", ")
        )
    };
    let wrapper_text = format!(
        "func.func @{name}({}){signature} {{\n{}  sdfg.invoke @{sdfg_name}({data_text}) symbols [{}]({})\n{}{ret}}}\n",
        params.join(", "),
        wrapper.concat(),
        names.join(", "),
        values.join(", "),
        wrapper_loads.concat(),
    );
    Ok((text, wrapper_text))
}

/// A memref argument with a strided layout (`strided<[?, 1], offset: ?>`,
/// as one-shot bufferization gives function boundaries by default): the
/// container is the memref as DaCe sees a NumPy view, from its first
/// element with its strides, static ones as numbers and dynamic ones as
/// symbols the wrapper binds (`memref.extract_strided_metadata`). The
/// invoke passes the memref as it is; its lowering passes the buffer from
/// the first element.
fn strided_argument<'a>(
    shared: &mut Shared<'a>,
    sdfg: &mut Sdfg<'a>,
    arg: Val<'a>,
    container: &mut Container,
    wrapper: &mut Vec<String>,
    bindings: &mut HashMap<String, String>,
) -> std::result::Result<(), String> {
    let Some((strides, _)) = sdfg_dialect::ir::memref_strides_and_offset(arg.ty()) else {
        return Err("its layout is not strided, which is not converted".into());
    };
    let rank = strides.len();
    let name = container.name.clone();
    let Some((_, k)) = arg.block_arg() else {
        return Err("is not an argument".into());
    };
    let mut symbolic = Vec::new();
    for (d, stride) in strides.iter().enumerate() {
        symbolic.push(match stride {
            Some(s) => Expr::int(*s),
            None => {
                let s = shared.fresh(&format!("{name}_s{d}"));
                sdfg.use_symbol(&s);
                bindings.insert(s.clone(), format!("%t{k}#{d}"));
                Expr::symbol(&s)
            }
        });
    }
    if strides.iter().any(Option::is_none) {
        wrapper.push(format!(
            "  %b{k}, %o{k}, %z{k}:{rank}, %t{k}:{rank} = memref.extract_strided_metadata %arg{k} : {} -> memref<{}>{}\n",
            type_to_string(arg.ty()),
            container.elem,
            ", index".repeat(1 + 2 * rank)
        ));
    }
    container.strides = Some(symbolic);
    Ok(())
}

/// A memref result `v` of `func`: an argument, returned as it is, or an
/// allocation of the body (as one-shot bufferization returns a function's
/// tensor results), which becomes an argument container of the SDFG that
/// the wrapper allocates, passes and returns. Returns the wrapper's value
/// and, for an allocation, the invoke operand and the wrapper's
/// allocation line.
#[allow(clippy::type_complexity)]
fn returned_memref<'a>(
    sdfg: &mut Sdfg<'a>,
    shared: &mut Shared<'a>,
    func: Op<'a>,
    terminator: Op<'a>,
    v: Val<'a>,
    bindings: &HashMap<String, String>,
) -> Result<'a, (String, Option<(String, String)>)> {
    if let Some((owner, k)) = v.block_arg() {
        if owner == func {
            return Ok((format!("%arg{k}"), None));
        }
    }
    let ty = type_to_string(v.ty());
    let Some(alloc) = v
        .defining_op()
        .filter(|o| o.is("memref.alloc") && o.parent() == Some(func))
    else {
        return fail(
            terminator,
            format!("returns a {ty} that is neither an argument nor allocated in the function body, which is not converted yet"),
        );
    };
    let (elem, dims) = memref_shape(v.ty()).map_err(|m| Failure::new(alloc, m))?;
    let mut dynamic = alloc.operands().into_iter();
    let mut shape = Vec::new();
    let mut sizes = Vec::new();
    for d in dims {
        let Some(size) = d
            .map(Expr::int)
            .or_else(|| dynamic.next().and_then(|o| sdfg.expr(o)))
        else {
            return fail(alloc, "has a size computed from data, and the function returns it, which is not converted yet");
        };
        if d.is_none() {
            // The wrapper has a value for each symbol it binds.
            let value = size.as_symbol().and_then(|s| bindings.get(s)).cloned();
            let Some(value) = value else {
                return fail(
                    alloc,
                    format!("has size `{size}`, which is not an argument's size or an integer argument, and the function returns it, which is not converted yet"),
                );
            };
            sizes.push(value);
        }
        shape.push(size);
    }
    let name = shared.fresh("__return_array");
    sdfg.add_argument(
        v,
        Container {
            name,
            elem,
            shape,
            strides: None,
        },
    );
    let value = format!("%rm{}", shared.id());
    let line = format!("  {value} = memref.alloc({}) : {ty}\n", sizes.join(", "));
    Ok((value.clone(), Some((value, line))))
}

/// Parses the SDFGs and wrappers of `text`, fills the tasklet bodies from
/// the upstream ops, and puts them in place of the converted functions.
unsafe fn install(
    module: Op<'_>,
    targets: &[Op<'_>],
    plans: &[Plan<'_>],
    text: &str,
) -> std::result::Result<(), Diagnosed> {
    let Some(parsed) = sdfg_dialect::rewrite::parse_generated(
        module,
        text,
        "the converted SDFGs",
        "SDFG_DEBUG_CONVERSION",
    ) else {
        return Err(Diagnosed);
    };
    let body = parsed.op();
    let mut tasklets = HashMap::new();
    for op in body.descendants() {
        if op.is("sdfg.tasklet") {
            if let Some(label) = op.str_attr("label") {
                tasklets.insert(label.to_string(), op);
            }
        }
    }
    for plan in plans {
        let tasklet = tasklets[&plan.label];
        if let Err(message) = fill(tasklet, plan) {
            plan.ops
                .first()
                .copied()
                .unwrap_or(module)
                .emit_error(message);
            return Err(Diagnosed);
        }
    }
    // The new ops, in order: each SDFG, then its wrapper.
    let new_ops = body.region_ops(0);
    let block = mlirRegionGetFirstBlock(mlirOperationGetRegion(module.raw(), 0));
    for (pair, old) in new_ops.chunks(2).zip(targets) {
        for op in pair {
            mlirOperationRemoveFromParent(op.raw());
            mlirBlockInsertOwnedOperationBefore(block, old.raw(), op.raw());
        }
        let wrapper = pair[1];
        for (name, attr) in old.attributes() {
            if name != "function_type" {
                wrapper.set_attr(name, attr);
            }
        }
    }
    drop(parsed);
    for old in targets {
        mlirOperationDestroy(old.raw());
    }
    Ok(())
}

/// Replaces the placeholder body of `tasklet` with clones of the plan's
/// upstream ops.
unsafe fn fill(tasklet: Op<'_>, plan: &Plan<'_>) -> std::result::Result<(), String> {
    let region = mlirOperationGetRegion(tasklet.raw(), 0);
    let block = mlirRegionGetFirstBlock(region);
    // The placeholder ops, users (the yield) first.
    let mut placeholders = Vec::new();
    let mut op = mlirBlockGetFirstOperation(block);
    while !op.ptr.is_null() {
        placeholders.push(op);
        op = mlirOperationGetNextInBlock(op);
    }
    for op in placeholders.into_iter().rev() {
        mlirOperationDestroy(op);
    }
    let mut map: HashMap<usize, MlirValue> = HashMap::new();
    for (k, v) in plan.args.iter().enumerate() {
        map.insert(
            v.raw().ptr as usize,
            mlirBlockGetArgument(block, k as isize),
        );
    }
    for (v, expr) in &plan.syms {
        let sym = sdfg_dialect::rewrite::create_op_at_end(
            tasklet,
            "sdfg.sym",
            &[],
            &[("expr", sdfg_dialect::rewrite::str_attr(tasklet, expr))],
            &[v.ty()],
        )
        .ok_or("internal error: cannot create an sdfg.sym")?;
        map.insert(v.raw().ptr as usize, sym.results()[0].raw());
    }
    for op in &plan.ops {
        let clone = mlirOperationClone(op.raw());
        for i in 0..mlirOperationGetNumOperands(clone) {
            let operand = mlirOperationGetOperand(clone, i);
            match map.get(&(operand.ptr as usize)) {
                Some(v) => mlirOperationSetOperand(clone, i, *v),
                None => {
                    mlirOperationDestroy(clone);
                    return Err(format!(
                        "internal error: an operand of '{}' has no value in its tasklet",
                        op.name()
                    ));
                }
            }
        }
        mlirBlockAppendOwnedOperation(block, clone);
        for (j, r) in op.results().iter().enumerate() {
            map.insert(
                r.raw().ptr as usize,
                mlirOperationGetResult(clone, j as isize),
            );
        }
    }
    let mut yields = Vec::new();
    for v in &plan.yields {
        let Some(mapped) = map.get(&(v.raw().ptr as usize)) else {
            return Err("internal error: a yielded value has no value in its tasklet".into());
        };
        yields.push(Val::from_raw(*mapped).ok_or("internal error: a null value")?);
    }
    sdfg_dialect::rewrite::create_op_at_end(tasklet, "sdfg.yield", &yields, &[], &[])
        .ok_or("internal error: cannot create an sdfg.yield")?;
    Ok(())
}
