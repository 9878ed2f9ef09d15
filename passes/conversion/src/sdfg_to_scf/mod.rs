//! `convert-sdfg-to-scf`: every `sdfg.sdfg` of a module becomes a
//! `func.func` on memrefs with `scf`, `cf`, `memref`, `arith` and `func`.
//!
//! The conversion lowers any valid SDFG as it is (no optimisation runs
//! first) and gives a diagnostic for what it cannot lower, never code that
//! computes something else. `docs/Lowering.md` records the design; in
//! short:
//!
//! - **Containers** are memrefs: a scalar is `memref<T>`, an array a flat
//!   `memref<?xT>` indexed through its symbolic strides and offsets, as
//!   DaCe's generated C++ indexes its pointers. Views and nested-SDFG
//!   arguments are the viewed memref plus a base index.
//! - **Functions**: arguments are the containers in argument order, then
//!   one `index` per free symbol in the (sorted) order of `symbols` (`f32`
//!   or `f64` for DaCe's floating-point symbols); the function has
//!   `llvm.emit_c_interface`.
//! - **Control flow**: every control-flow block becomes `cf` blocks; a
//!   symbol assigned on an inter-state edge or a loop variable lives in a
//!   `memref<index>` that each state reads once at its start (LLVM promotes
//!   them to registers). Loops, conditional blocks, break, continue and
//!   return are branches.
//! - **Dataflow**: a state's ops are lowered in order (a topological
//!   order). Maps become `scf.parallel` (the outermost parallel one of a
//!   nest) or `scf.for`; tasklets become calls of private functions that
//!   hold their bodies (inlined by `inline` later); memlets become loads,
//!   stores, `memref.reinterpret_cast` views and copy loops; WCR becomes a
//!   read-modify-write or, inside parallel loops when the written element
//!   is not private to one iteration, `memref.atomic_rmw`.
//! - **Transients** are allocated where DaCe would: inside the innermost
//!   map that holds every access (so that parallel iterations do not
//!   share them), else at function entry (`alloca` for scalars and small
//!   constant arrays, `alloc`/`dealloc` otherwise).
//! - **Nested SDFGs** become private functions called with their memlets'
//!   subsets and symbol mapping.
//!
//! - **Streams and consume scopes** are queue handles and calls of a small
//!   runtime (`streams.rs`).
//!
//! - **References** select their current target's memref and base index
//!   from two variables (`references.rs`).
//!
//! - **Symbols** are `index` values, or `f32`/`f64` for DaCe's
//!   floating-point symbols, whose expressions are computed with C++'s
//!   semantics (`control.rs`).
//!
//! Not lowered yet (each a diagnostic naming the op, `docs/Lowering.md`
//! lists them): tasklets whose code stayed Python or C++, among others.
//!
//! The function text is built as text and parsed (verified) once; tasklet
//! bodies are moved from the SDFG into their functions as IR, never
//! re-printed.
//!
//! This file holds the pass, the function's ABI and its containers
//! (allocation, placement, lifetimes); `control.rs` lowers control flow and
//! symbols, `dataflow.rs` the dataflow inside states, and `library.rs`,
//! `streams.rs` and `references.rs` their constructs.

mod blas;
mod by_ref;
mod control;
mod dataflow;
mod gpu;
mod initialization;
mod invoke;
mod lapack;
mod library;
mod lifetimes;
mod linalg;
mod persistent;
mod printf;
mod references;
mod streams;
mod text;
mod types;
mod wcr;

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use mlir_sys::*;
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::{string_ref, type_to_string, Op, Val};
use sdfg_dialect::{
    container_name, declared_symbols, incoming_edges, structure_members, EdgeRole, Lifetime,
};
use sdfg_symbolic::{parse, parse_subset, Expr, Range, Subset};

pub use sdfg_dialect::layout::Elem;

use by_ref::Rewrite;
use control::Jumps;
use sdfg_analysis::symbols::{assigned_symbols, defined_symbols, symbol_is_read};
use text::{Body, DataReader, IndexEmitter};
use types::{convert, layout, memref_type, Data, Layout};

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "convert-sdfg-to-scf",
    summary: "Lower every sdfg.sdfg to func/scf/cf/memref/arith (maps to scf.parallel/scf.for, tasklets to calls of their bodies)",
    op_name: "builtin.module",
    create: || Box::<ConvertSdfgToScf>::default(),
};

/// The conversion pass. Option `check-bounds=true` guards every memlet
/// access with a `cf.assert` that the element lies inside its container
/// (DaCe's generated code has no such checks; out-of-bounds memlets are
/// undefined behaviour there); `blas=true` lowers the BLAS library nodes
/// to CBLAS calls (`blas.rs`); `linalg=true` lowers them (and `Transpose`)
/// to linalg's named ops (`linalg.rs`).
///
/// The same pass registered as `convert-sdfg-to-gpu`
/// ([`crate::sdfg_to_gpu::REGISTRATION`]) lowers GPU schedules and storage
/// to the `gpu` dialect; this one runs them on the CPU.
#[derive(Clone, Copy, Default)]
pub struct ConvertSdfgToScf {
    pub(crate) check_bounds: bool,
    /// Whether BLAS library nodes call CBLAS (`blas.rs`).
    pub(crate) blas: bool,
    /// Whether BLAS library nodes become linalg named ops (`linalg.rs`).
    pub(crate) linalg: bool,
    /// Whether `GPU_Device` maps become `gpu.launch` and `GPU_Global`
    /// containers device memory.
    pub(crate) gpu: bool,
}

impl RustPass for ConvertSdfgToScf {
    fn set_options(&mut self, options: &str) -> std::result::Result<(), String> {
        for option in options.split_whitespace() {
            match option.split_once('=') {
                Some(("check-bounds", "true" | "1")) => self.check_bounds = true,
                Some(("check-bounds", "false" | "0")) => self.check_bounds = false,
                Some(("blas", "true" | "1")) => self.blas = true,
                Some(("blas", "false" | "0")) => self.blas = false,
                Some(("linalg", "true" | "1")) => self.linalg = true,
                Some(("linalg", "false" | "0")) => self.linalg = false,
                _ => {
                    let pass = if self.gpu {
                        "convert-sdfg-to-gpu"
                    } else {
                        "convert-sdfg-to-scf"
                    };
                    return Err(format!(
                        "{pass}: unknown option `{option}` (the options are check-bounds=true|false, blas=true|false and linalg=true|false)"
                    ));
                }
            }
        }
        Ok(())
    }

    fn run(&mut self, op: Op<'_>) -> std::result::Result<(), Diagnosed> {
        convert_module(op, *self)
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(*self)
    }
}

/// A failure at an op, reported as a diagnostic on it.
struct Failure<'a> {
    op: Op<'a>,
    message: String,
}

type Result<'a, T> = std::result::Result<T, Failure<'a>>;

impl<'a> Failure<'a> {
    /// A failure at `op`.
    fn new(op: Op<'a>, message: impl Into<String>) -> Failure<'a> {
        Failure {
            op,
            message: message.into(),
        }
    }
}

fn fail<'a, T>(op: Op<'a>, message: impl Into<String>) -> Result<'a, T> {
    Err(Failure {
        op,
        message: message.into(),
    })
}

/// A private function to be made of a tasklet's body.
struct TaskletFunction<'a> {
    tasklet: Op<'a>,
    name: String,
    /// The body's argument types, memref arguments retyped to the views
    /// the call passes.
    arg_types: Vec<String>,
    /// The types of the `sdfg.sym` ops, which become trailing arguments.
    sym_types: Vec<String>,
    /// The types of the outputs that are not `by_ref`.
    result_types: Vec<String>,
    /// How the writes of `by_ref` outputs become helper calls.
    rewrites: Vec<Rewrite>,
}

impl TaskletFunction<'_> {
    /// The function type: `(arguments, symbol values) -> (results)`.
    fn signature(&self) -> String {
        let arguments: Vec<&str> = self
            .arg_types
            .iter()
            .chain(&self.sym_types)
            .map(String::as_str)
            .collect();
        format!(
            "({}) -> ({})",
            arguments.join(", "),
            self.result_types.join(", ")
        )
    }
}

/// State shared by every function of one module conversion.
#[derive(Default)]
struct Module<'a> {
    /// Whether accesses are guarded by bounds checks.
    check_bounds: bool,
    /// Whether GPU schedules and storage become the `gpu` dialect.
    gpu: bool,
    /// Whether the code being written runs inside a GPU kernel.
    in_kernel: bool,
    /// For the nested SDFG being lowered: where the data passed to each
    /// argument lives (`gpu_global`, `host_only`), which the argument's own
    /// type need not say.
    argument_residences: HashMap<String, (bool, bool)>,
    functions: Vec<String>,
    tasklets: Vec<TaskletFunction<'a>>,
    names: BTreeSet<String>,
    /// Whether the functions call the stream runtime.
    uses_streams: bool,
    /// The `printf` helpers made so far, by format and argument types.
    printf_helpers: HashMap<(String, Vec<String>), String>,
    /// Whether `printf` is declared (by the module or a helper).
    declares_printf: bool,
    /// Whether `calloc` and `free` are declared for persistent buffers.
    declares_allocator: bool,
    /// The LAPACKE and CBLAS functions the functions call.
    library_calls: BTreeSet<String>,
    /// Whether BLAS library nodes call CBLAS.
    blas: bool,
    /// Whether BLAS library nodes become linalg named ops.
    linalg: bool,
}

impl Module<'_> {
    fn unique(&mut self, base: &str) -> String {
        let clean = sdfg_dialect::sanitized(base);
        let mut name = clean.clone();
        let mut k = 1;
        while !self.names.insert(name.clone()) {
            name = format!("{clean}_{k}");
            k += 1;
        }
        name
    }
}

/// Converts every top-level `sdfg.sdfg` of `module` as `pass` is set up.
fn convert_module(module: Op<'_>, pass: ConvertSdfgToScf) -> std::result::Result<(), Diagnosed> {
    let sdfgs: Vec<Op> = module
        .region_ops(0)
        .into_iter()
        .filter(|o| o.is("sdfg.sdfg"))
        .collect();
    if sdfgs.is_empty() {
        return Ok(());
    }
    let mut m = Module {
        check_bounds: pass.check_bounds,
        blas: pass.blas,
        linalg: pass.linalg,
        gpu: pass.gpu,
        ..Module::default()
    };
    for op in module.region_ops(0) {
        if let Some(name) = op.symbol_name() {
            m.names.insert(name.to_string());
        }
    }
    m.declares_printf = m.names.contains("printf");
    let mut abis = HashMap::new();
    for sdfg in &sdfgs {
        match abi(*sdfg) {
            Ok(a) => {
                abis.insert(a.name.clone(), a);
            }
            Err(message) => {
                sdfg.emit_error(message);
                return Err(Diagnosed);
            }
        }
    }
    let (adapters, invokes) = match invoke::adapters(module, &abis, &mut |base| m.unique(base)) {
        Ok(a) => a,
        Err(f) => {
            f.op.emit_error(f.message);
            return Err(Diagnosed);
        }
    };
    for sdfg in &sdfgs {
        let name = sdfg.symbol_name().unwrap_or("sdfg").to_string();
        if let Err(f) = lower_function(&mut m, *sdfg, &name, false, false) {
            f.op.emit_error(f.message);
            return Err(Diagnosed);
        }
    }
    let mut text = String::from("module {\n");
    if m.uses_streams {
        text.push_str(streams::DECLARATIONS);
    }
    text.extend(
        m.library_calls
            .iter()
            .filter_map(|name| lapack::declaration(name).or_else(|| blas::declaration(name))),
    );
    for t in &m.tasklets {
        text.push_str(&format!("func.func private @{}{}\n", t.name, t.signature()));
    }
    for f in &m.functions {
        text.push_str(f);
    }
    text.push_str(&adapters);
    text.push_str("}\n");
    // SAFETY: the module and the ops in it are live; the parsed module is
    // destroyed after its functions have been moved out.
    unsafe { install(module, &sdfgs, &m, &text)? };
    invoke::rewrite(invokes);
    Ok(())
}

/// Parses the generated functions into `module`, builds the tasklet
/// functions from the tasklet bodies, and erases the converted SDFGs.
unsafe fn install(
    module: Op<'_>,
    sdfgs: &[Op<'_>],
    m: &Module<'_>,
    text: &str,
) -> std::result::Result<(), Diagnosed> {
    let ctx = mlirOperationGetContext(module.raw());
    let Some(parsed) = sdfg_dialect::rewrite::parse_generated(
        module,
        text,
        "the lowered functions",
        "SDFG_DEBUG_LOWERING",
    ) else {
        return Err(Diagnosed);
    };
    let block = mlirRegionGetFirstBlock(mlirOperationGetRegion(module.raw(), 0));
    let anchor = sdfgs[0].raw();
    let parsed_body = mlirRegionGetFirstBlock(mlirOperationGetRegion(parsed.op().raw(), 0));
    let mut op = mlirBlockGetFirstOperation(parsed_body);
    let mut moves = Vec::new();
    while !op.ptr.is_null() {
        let next = mlirOperationGetNextInBlock(op);
        let is_declaration = Op::from_raw(op).is_some_and(|o| {
            o.str_attr("sym_visibility").is_some()
                && !o.has_body(0)
                && !o.symbol_name().is_some_and(|n| {
                    streams::RUNTIME_FUNCTIONS.contains(&n) || m.library_calls.contains(n)
                })
        });
        if !is_declaration {
            moves.push(op);
        }
        op = next;
    }
    let mut lowered = Vec::new();
    for op in moves {
        mlirOperationRemoveFromParent(op);
        mlirBlockInsertOwnedOperationBefore(block, anchor, op);
        lowered.push(op);
    }
    drop(parsed);
    for t in &m.tasklets {
        let func = tasklet_function(ctx, t);
        mlirBlockInsertOwnedOperationBefore(block, anchor, func);
        lowered.push(func);
    }
    for op in lowered.into_iter().filter_map(|o| Op::from_raw(o)) {
        allow_fast_math(op);
    }
    for sdfg in sdfgs {
        mlirOperationDestroy(sdfg.raw());
    }
    Ok(())
}

/// The fast-math flags of DaCe's `-ffast-math` build that the lowered
/// floating-point arithmetic takes: contraction (a product added into an
/// accumulator is one fused multiply-add, rounded once), reassociation
/// (sums and products in any order, so that a reduction loop vectorizes
/// and a long sum is a tree rather than a chain) and reciprocals (`x / c`
/// is `x * (1 / c)`, without a division's latency on a loop-carried
/// chain). Unlike `-ffast-math`, nothing assumes the absence of NaNs,
/// infinities or signed zeros, so tests for them keep their meaning.
const FAST_MATH: [&str; 3] = ["contract", "reassoc", "arcp"];

/// Gives the floating-point additions, subtractions, multiplications and
/// divisions under `op` the flags of [`FAST_MATH`], kept with the flags
/// an op has.
fn allow_fast_math(op: Op<'_>) {
    for o in op.walk() {
        if !matches!(
            o.name(),
            "arith.addf" | "arith.subf" | "arith.mulf" | "arith.divf"
        ) {
            continue;
        }
        let flags = o
            .attr("fastmath")
            .map(sdfg_dialect::ir::attr_to_string)
            .unwrap_or_default();
        let flags = flags
            .strip_prefix("#arith.fastmath<")
            .and_then(|f| f.strip_suffix('>'))
            .unwrap_or("none");
        let mut all: Vec<&str> = flags
            .split(',')
            .map(str::trim)
            .filter(|f| *f != "none")
            .collect();
        if all.contains(&"fast") {
            continue;
        }
        for flag in FAST_MATH {
            if !all.contains(&flag) {
                all.push(flag);
            }
        }
        let text = format!("#arith.fastmath<{}>", all.join(","));
        if let Some(attr) = sdfg_dialect::rewrite::parse_attr(o, &text) {
            o.set_attr("fastmath", attr);
        }
    }
}

/// Moves a clone of the tasklet's body into a new private `func.func`:
/// memref arguments take the view types the caller passes, `sdfg.sym` ops
/// become trailing arguments and `sdfg.yield` becomes `func.return`.
unsafe fn tasklet_function(ctx: MlirContext, t: &TaskletFunction<'_>) -> MlirOperation {
    let loc = mlirOperationGetLocation(t.tasklet.raw());
    let parse_type = |text: &str| mlirTypeParseGet(ctx, string_ref(text));
    let signature = t.signature();
    let named = |name: &str, attr: MlirAttribute| {
        mlirNamedAttributeGet(mlirIdentifierGet(ctx, string_ref(name)), attr)
    };
    let attrs = [
        named("sym_name", mlirStringAttrGet(ctx, string_ref(&t.name))),
        named("function_type", mlirTypeAttrGet(parse_type(&signature))),
        named(
            "sym_visibility",
            mlirStringAttrGet(ctx, string_ref("private")),
        ),
    ];
    let mut state = mlirOperationStateGet(string_ref("func.func"), loc);
    mlirOperationStateAddAttributes(&mut state, attrs.len() as isize, attrs.as_ptr());
    let region = mlirRegionCreate();
    mlirOperationStateAddOwnedRegions(&mut state, 1, &region);
    let func = mlirOperationCreate(&mut state);
    let clone = mlirOperationClone(t.tasklet.raw());
    let func_region = mlirOperationGetRegion(func, 0);
    mlirRegionTakeBody(func_region, mlirOperationGetRegion(clone, 0));
    mlirOperationDestroy(clone);
    let entry = mlirRegionGetFirstBlock(func_region);
    for (i, ty) in t.arg_types.iter().enumerate() {
        mlirValueSetType(mlirBlockGetArgument(entry, i as isize), parse_type(ty));
    }
    let Some(func_op) = Op::from_raw(func) else {
        return func;
    };
    for op in func_op.descendants() {
        if let Some((callee, operands)) = rewritten_write(op, entry, &t.rewrites) {
            let at = mlirOperationGetLocation(op.raw());
            let mut call = mlirOperationStateGet(string_ref("func.call"), at);
            mlirOperationStateAddOperands(&mut call, operands.len() as isize, operands.as_ptr());
            let callee = [named(
                "callee",
                mlirFlatSymbolRefAttrGet(ctx, string_ref(callee)),
            )];
            mlirOperationStateAddAttributes(&mut call, 1, callee.as_ptr());
            let mut call = mlirOperationCreate(&mut call);
            if op.is("sdfg.push") || op.is("sdfg.printf") {
                call = in_alloca_scope(call, at);
            }
            mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(op.raw()), op.raw(), call);
            mlirOperationDestroy(op.raw());
            continue;
        }
        match op.name() {
            "sdfg.sym" => {
                let result = mlirOperationGetResult(op.raw(), 0);
                let arg = mlirBlockAddArgument(entry, mlirValueGetType(result), loc);
                mlirValueReplaceAllUsesOfWith(result, arg);
                mlirOperationDestroy(op.raw());
            }
            "sdfg.yield" => {
                let operands: Vec<MlirValue> = op.operands().iter().map(|v| v.raw()).collect();
                let mut ret = mlirOperationStateGet(
                    string_ref("func.return"),
                    mlirOperationGetLocation(op.raw()),
                );
                mlirOperationStateAddOperands(&mut ret, operands.len() as isize, operands.as_ptr());
                let ret = mlirOperationCreate(&mut ret);
                let block = mlirOperationGetBlock(op.raw());
                mlirBlockInsertOwnedOperationBefore(block, op.raw(), ret);
                mlirOperationDestroy(op.raw());
            }
            _ => {}
        }
    }
    func
}

/// `memref.alloca_scope { op }`: a push or printf helper calls a runtime
/// function, which MLIR counts as a possible stack allocation; a scope of
/// its own keeps that from pinning the scope `convert-scf-to-openmp` puts
/// around a parallel body (see `streams::runtime_call`).
///
/// # Safety
/// `op` must be a live operation without a parent.
unsafe fn in_alloca_scope(op: MlirOperation, at: MlirLocation) -> MlirOperation {
    // The generated functions need not have loaded the memref dialect.
    mlirContextGetOrLoadDialect(mlirLocationGetContext(at), string_ref("memref"));
    let region = mlirRegionCreate();
    let block = mlirBlockCreate(0, std::ptr::null(), std::ptr::null());
    mlirRegionAppendOwnedBlock(region, block);
    mlirBlockAppendOwnedOperation(block, op);
    let mut ret = mlirOperationStateGet(string_ref("memref.alloca_scope.return"), at);
    mlirBlockAppendOwnedOperation(block, mlirOperationCreate(&mut ret));
    let mut scope = mlirOperationStateGet(string_ref("memref.alloca_scope"), at);
    mlirOperationStateAddOwnedRegions(&mut scope, 1, &region);
    mlirOperationCreate(&mut scope)
}

/// For an op of a tasklet body that becomes a helper call (a write of a
/// `by_ref` output: a `memref.store` into an output with a write-conflict
/// resolution, or an `sdfg.push`; or an `sdfg.printf`), the helper and its
/// operands.
///
/// # Safety
/// `op` and `entry` must be live.
unsafe fn rewritten_write<'r>(
    op: Op<'_>,
    entry: MlirBlock,
    rewrites: &'r [Rewrite],
) -> Option<(&'r str, Vec<MlirValue>)> {
    let operands: Vec<MlirValue> = op.operands().iter().map(|v| v.raw()).collect();
    let is_arg = |value: usize, arg: usize| {
        operands
            .get(value)
            .is_some_and(|v| mlirValueEqual(*v, mlirBlockGetArgument(entry, arg as isize)))
    };
    rewrites.iter().find_map(|rewrite| match rewrite {
        Rewrite::Store { arg, callee } if op.is("memref.store") && is_arg(1, *arg) => {
            Some((callee.as_str(), operands.clone()))
        }
        Rewrite::Push { arg, callee } if op.is("sdfg.push") && is_arg(0, *arg) => {
            Some((callee.as_str(), operands.clone()))
        }
        Rewrite::Printf {
            format,
            types,
            callee,
        } if op.is("sdfg.printf")
            && op.str_attr("format") == Some(format.as_str())
            && op
                .operands()
                .iter()
                .map(|v| type_to_string(v.ty()))
                .eq(types.iter().cloned()) =>
        {
            Some((callee.as_str(), operands.clone()))
        }
        _ => None,
    })
}

/// One argument of the function an `sdfg.sdfg` becomes: a container's
/// layout (`memref<?xT>` or, for scalars, `memref<T>`, laid out by
/// `layout.strides` alone; `layout.offsets` only shift the SDFG's own
/// subscripts), its sizes folded with the SDFG's constants. A stream is
/// only ever an argument of a nested SDFG: a program's interface cannot
/// pass one.
#[derive(Clone, Debug)]
pub struct Argument {
    /// The container's DaCe name.
    pub name: String,
    /// The container's element type and symbolic layout.
    pub layout: Layout,
    /// Whether the SDFG writes the container.
    pub written: bool,
}

/// The C interface of the function an `sdfg.sdfg` becomes: its containers
/// in argument order (MLIR memref descriptors: rank 1 for arrays, rank 0
/// for scalars; a structure is its members, in order, named
/// `structure.member`), then one value per free symbol in this order
/// (`int64_t` for integer symbols, `float` or `double` for DaCe's
/// floating-point ones).
#[derive(Clone, Debug)]
pub struct Abi {
    /// The function's name (the SDFG's symbol name).
    pub name: String,
    /// The container arguments.
    pub arguments: Vec<Argument>,
    /// The free symbols (declared and never assigned), sorted.
    pub symbols: Vec<Symbol>,
}

/// A free symbol of a C interface.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// The symbol's name.
    pub name: String,
    /// How it is passed and computed.
    pub ty: SymbolType,
}

/// The type a symbol is computed in. DaCe's symbols are integers unless
/// declared otherwise (`dace.symbol('m', dace.float64)`); an integer
/// symbol of any declared width is computed as `index` and passed as
/// `int64_t`, as DaCe's sizes and loop bounds are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolType {
    /// An integer: `index` in the lowered code, `int64_t` in the C
    /// interface.
    Integer,
    /// A `float32` symbol: `f32`, C's `float`.
    Float32,
    /// A `float64` symbol: `f64`, C's `double`.
    Float64,
    /// A `complex64` symbol: `complex<f32>`, C's `float _Complex` (two
    /// `float`s).
    Complex64,
    /// A `complex128` symbol (DaCe promotes complex scalars to symbols):
    /// `complex<f64>`, C's `double _Complex` (two `double`s).
    Complex128,
}

impl SymbolType {
    /// The MLIR type the lowered code computes the symbol in.
    pub fn mlir(self) -> &'static str {
        match self {
            SymbolType::Integer => "index",
            SymbolType::Float32 => "f32",
            SymbolType::Float64 => "f64",
            SymbolType::Complex64 => "complex<f32>",
            SymbolType::Complex128 => "complex<f64>",
        }
    }
}

/// The type every declared symbol of `sdfg` is computed in: integers and
/// `f32`/`f64`; a symbol of another float type that is read is an error
/// naming it.
fn symbol_types(sdfg: Op<'_>) -> std::result::Result<BTreeMap<String, SymbolType>, String> {
    let mut types = BTreeMap::new();
    for (name, t) in declared_symbols(sdfg) {
        // SAFETY: `t` is a live type of the context.
        let ty = unsafe {
            match t {
                t if mlirTypeIsAF32(t) => SymbolType::Float32,
                t if mlirTypeIsAF64(t) => SymbolType::Float64,
                t if mlirTypeIsAComplex(t) && mlirTypeIsAF32(mlirComplexTypeGetElementType(t)) => {
                    SymbolType::Complex64
                }
                t if mlirTypeIsAComplex(t) && mlirTypeIsAF64(mlirComplexTypeGetElementType(t)) => {
                    SymbolType::Complex128
                }
                t if mlirTypeIsAFloat(t) => {
                    if !symbol_is_read(sdfg, name) {
                        continue;
                    }
                    return Err(format!(
                        "symbol `{name}` is of type {}, which the lowering cannot compute in (only 32- and 64-bit floats)",
                        type_to_string(t)
                    ));
                }
                _ => SymbolType::Integer,
            }
        };
        types.insert(name.to_string(), ty);
    }
    Ok(types)
}

/// The integer constants of an SDFG (DaCe's `constants_prop` symbols).
fn integer_constants(sdfg: Op<'_>) -> HashMap<String, i64> {
    sdfg.attr("constants")
        .map(sdfg_dialect::ir::dictionary_entries)
        .unwrap_or_default()
        .into_iter()
        // SAFETY: the kind is checked before the value is read.
        .filter(|(_, a)| unsafe { mlirAttributeIsAInteger(*a) })
        .map(|(n, a)| (n.to_string(), unsafe { mlirIntegerAttrGetValueInt(a) }))
        .collect()
}

/// The C interface `sdfg` is lowered to.
pub fn abi(sdfg: Op<'_>) -> std::result::Result<Abi, String> {
    let constants: HashMap<String, Expr> = integer_constants(sdfg)
        .into_iter()
        .map(|(n, v)| (n, Expr::int(v)))
        .collect();
    let fold = |v: Vec<Expr>| -> Vec<Expr> { v.iter().map(|e| e.substitute(&constants)).collect() };
    let mut arguments = Vec::new();
    for (i, value) in sdfg.region_args(0).into_iter().enumerate() {
        let name = container_name(value).unwrap_or_else(|| format!("arg{i}"));
        for (leaf, ty) in structure_leaves(&name, value.ty()) {
            let layout = layout(ty).map_err(|e| format!("argument `{leaf}`: {e}"))?;
            if layout.reference {
                return Err(format!(
                    "argument `{leaf}` is a reference, which cannot be passed yet"
                ));
            }
            arguments.push(Argument {
                written: is_written(sdfg, &leaf),
                name: leaf,
                layout: Layout {
                    shape: fold(layout.shape),
                    strides: fold(layout.strides),
                    offsets: fold(layout.offsets),
                    ..layout
                },
            });
        }
    }
    let defined = defined_symbols(sdfg);
    let symbols = symbol_types(sdfg)?
        .into_iter()
        .filter(|(n, _)| !defined.contains(n) && !constants.contains_key(n))
        .map(|(name, ty)| Symbol { name, ty })
        .collect();
    Ok(Abi {
        name: sdfg.symbol_name().unwrap_or("sdfg").to_string(),
        arguments,
        symbols,
    })
}

/// The containers a container of type `ty` named `name` holds: itself, or
/// for a structure every member that is not a structure, recursively,
/// named `name.member` as DaCe names them. A structure is lowered as these
/// members, each its own memref.
fn structure_leaves(name: &str, ty: MlirType) -> Vec<(String, MlirType)> {
    match structure_members(ty) {
        None => vec![(name.to_string(), ty)],
        Some((_, members)) => members
            .into_iter()
            .flat_map(|(member, ty)| structure_leaves(&format!("{name}.{member}"), ty))
            .collect(),
    }
}

/// Whether an access node of `sdfg` (not of a nested one) writes container
/// `name`, or a structure that holds it.
fn is_written(sdfg: Op<'_>, name: &str) -> bool {
    sdfg.descendants().into_iter().any(|op| {
        op.is("sdfg.access")
            && op.ancestor("sdfg.sdfg") == Some(sdfg)
            && incoming_edges(op).iter().any(|e| e.role == EdgeRole::Input)
            && op
                .operands()
                .first()
                .and_then(|c| container_name(*c))
                .is_some_and(|c| c == name || name.starts_with(&format!("{c}.")))
    })
}

/// How a dataflow value is held in the lowered code.
#[derive(Clone)]
enum Lowered {
    /// A container (access node, scope argument).
    Data(Data),
    /// A value (tasklet output).
    Value { ssa: String, elem: Elem },
    /// A scope or nested-SDFG output: its data was written in place.
    Written,
    /// A structure (its members are containers of their own, found by
    /// name).
    Structure,
}

/// Where a transient is allocated.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Placement<'a> {
    /// At function entry, freed at exit.
    Function,
    /// At the start of this map's body, freed at its end.
    Scope(Op<'a>),
    /// At the start of this state, freed at its end (a transient whose
    /// size depends on symbols assigned between states).
    State(Op<'a>),
    /// At the start of the first state, freed at the end of the last: a
    /// transient sized by assigned symbols that several states use (see
    /// `lifetimes.rs`).
    Span { first: Op<'a>, last: Op<'a> },
}

/// The containers of the function being lowered, by name, and the
/// SDFG's floating-point symbols, which expressions read as well.
#[derive(Default)]
struct Containers {
    by_name: HashMap<String, Data>,
    /// The floating-point symbols: their values in the function's symbol
    /// environments are `f32`/`f64`, not `index`.
    float_symbols: HashMap<String, SymbolType>,
    /// Whether `GPU_Global` containers are in device memory (which host
    /// code reads through a copy).
    gpu: bool,
}

impl DataReader for Containers {
    fn read(
        &self,
        body: &mut Body,
        symbols: &HashMap<String, String>,
        name: &str,
        indices: &[String],
        ty: &str,
    ) -> std::result::Result<String, String> {
        let data = self
            .by_name
            .get(name)
            .ok_or_else(|| format!("`{name}` is neither a symbol nor a container"))?;
        if data.memref.is_empty() {
            return Err(format!(
                "view `{name}` cannot be read in an inter-state expression"
            ));
        }
        if data.stream || data.reference.is_some() {
            return Err(format!(
                "stream or reference `{name}` cannot be read in an inter-state expression"
            ));
        }
        let index = if data.scalar {
            String::new()
        } else {
            let dims = data.shape.len().max(1);
            let mut indices = indices.to_vec();
            while indices.len() < dims {
                indices.push(body.index(0));
            }
            linear_index_ssa(body, symbols, self, data, &indices)?
        };
        let memref_type = data.memref_type();
        let on_device = self.gpu && data.gpu_global;
        let memref = if on_device {
            gpu::host_copy(body, &data.memref, &memref_type, data.scalar)
        } else {
            data.memref.clone()
        };
        let value = body.assign(format!("memref.load {memref}[{index}] : {memref_type}"));
        if on_device {
            body.line(format!("memref.dealloc {memref} : {memref_type}"));
        }
        convert(body, &value, &data.elem, ty)
    }

    fn is_container(&self, name: &str) -> bool {
        self.by_name.contains_key(name)
    }

    fn is_float(&self, name: &str) -> bool {
        self.by_name.get(name).is_some_and(|d| d.elem.is_float())
    }

    fn is_float_symbol(&self, name: &str) -> bool {
        self.float_symbols.contains_key(name)
    }
}

/// `base + sum((index_i + offset_i) * stride_i)` for SSA indices.
fn linear_index_ssa(
    body: &mut Body,
    symbols: &HashMap<String, String>,
    containers: &Containers,
    data: &Data,
    indices: &[String],
) -> std::result::Result<String, String> {
    let mut acc = data.base.clone();
    for (i, index) in indices.iter().enumerate() {
        let stride = data.strides.get(i).cloned().unwrap_or_else(|| Expr::int(1));
        let offset = data.offsets.get(i).cloned().unwrap_or_else(|| Expr::int(0));
        let mut e = IndexEmitter::new(body, symbols, containers);
        let (stride, offset) = (e.int(&stride)?, e.int(&offset)?);
        let shifted = body.assign(format!("arith.addi {index}, {offset} : index"));
        let term = body.assign(format!("arith.muli {shifted}, {stride} : index"));
        acc = Some(match acc {
            None => term,
            Some(a) => body.assign(format!("arith.addi {a}, {term} : index")),
        });
    }
    Ok(acc.unwrap_or_else(|| body.index(0)))
}

/// One `sdfg.sdfg` being lowered to one function.
struct Function<'a, 'm> {
    module: &'m mut Module<'a>,
    sdfg: Op<'a>,
    body: Body,
    containers: Containers,
    /// Symbol variables (`memref<index>`, or `memref<f32>`/`memref<f64>`
    /// for floating-point symbols) of assigned symbols.
    vars: HashMap<String, String>,
    /// Free symbols and their argument values.
    free: HashMap<String, String>,
    placements: HashMap<String, Placement<'a>>,
    values: HashMap<Val<'a>, Lowered>,
    /// Heap allocations to free at function exit.
    frees: Vec<Allocation>,
    /// Whether the arguments are shared with other parallel iterations
    /// (a nested SDFG called inside a parallel loop).
    shared_arguments: bool,
    /// Whether this is the exported function (not a nested SDFG's), whose
    /// persistent transients outlive a call (`persistent.rs`).
    exported: bool,
    /// Transients allocated inside a parallel loop's body: each iteration
    /// has its own, so writes to them need no atomics.
    iteration_private: BTreeSet<String>,
    /// Allocations of `Placement::Span` transients, to free at the end of
    /// their last state (by the state's op pointer).
    span_frees: HashMap<usize, Vec<Allocation>>,
    /// The memrefs of host arrays this function allocates itself: no other
    /// container's memref (an argument's, another allocation's) overlaps
    /// one of them.
    own_memory: HashSet<String>,
}

/// Whether transient `alloc` outlives one call (DaCe's `Persistent` and
/// `Global` lifetimes).
fn persistent(alloc: Op<'_>) -> bool {
    alloc
        .attr("lifetime")
        .and_then(Lifetime::from_attr)
        .is_some_and(|l| matches!(l.name(), "Persistent" | "Global"))
}

/// A heap allocation to release at the end of its scope.
struct Allocation {
    memref: String,
    ty: String,
    /// Whether it holds stream handles (destroyed before it is freed).
    stream: bool,
    /// Whether it is device memory (`gpu.dealloc`).
    device: bool,
}

/// Lowers `sdfg` to a function named `name` appended to the module text;
/// `nested` functions are private and take a base index after each array.
fn lower_function<'a>(
    m: &mut Module<'a>,
    sdfg: Op<'a>,
    name: &str,
    nested: bool,
    shared: bool,
) -> Result<'a, Vec<Symbol>> {
    let mut f = Function {
        module: m,
        sdfg,
        body: Body::default(),
        containers: Containers::default(),
        vars: HashMap::new(),
        free: HashMap::new(),
        placements: HashMap::new(),
        values: HashMap::new(),
        frees: Vec::new(),
        shared_arguments: shared,
        exported: !nested,
        iteration_private: BTreeSet::new(),
        span_frees: HashMap::new(),
        own_memory: HashSet::new(),
    };
    f.body.set_indent(1);
    // Inside a kernel, device memory is read where it is.
    f.containers.gpu = f.module.gpu && !f.module.in_kernel;
    f.containers.float_symbols = symbol_types(sdfg)
        .map_err(|message| Failure { op: sdfg, message })?
        .into_iter()
        .filter(|(_, ty)| *ty != SymbolType::Integer)
        .collect();
    let (signature, free) = f.signature(nested, shared)?;
    let mirrored = if nested {
        Vec::new()
    } else {
        f.mirror_arguments()
    };
    f.place_transients()?;
    f.allocate_function_transients()?;
    f.declare_symbol_vars();
    let exit = f.body.label();
    let jumps = Jumps {
        break_to: None,
        continue_to: None,
        return_to: exit.clone(),
    };
    f.lower_cfg(sdfg, &exit, &jumps)?;
    f.body.block(&exit);
    for allocation in std::mem::take(&mut f.frees) {
        f.release(&allocation);
    }
    f.release_arguments(&mirrored);
    f.body.line("return");
    let visibility = if nested { "private " } else { "" };
    let attributes = if nested {
        ""
    } else {
        " attributes {llvm.emit_c_interface}"
    };
    let text = format!(
        "func.func {visibility}@{name}({}){attributes} {{\n{}}}\n",
        signature.join(", "),
        f.body.take()
    );
    f.module.functions.push(text);
    Ok(free)
}

impl<'a> Function<'a, '_> {
    /// Whether the code being lowered runs inside a parallel loop: one of
    /// `parallel` in this function, or around the call of this nested
    /// SDFG's function. Loops there stay sequential: a nested parallel
    /// region would cost a fork, serialized, per iteration or call.
    fn in_parallel_loop(&self, parallel: &[String]) -> bool {
        !parallel.is_empty() || self.shared_arguments
    }

    /// [`convert`] in the function's body; an impossible conversion (of a
    /// vector to a scalar, say) is a diagnostic on `op`.
    fn convert(&mut self, op: Op<'a>, value: &str, from: &Elem, to: &str) -> Result<'a, String> {
        convert(&mut self.body, value, from, to).map_err(|message| Failure { op, message })
    }

    /// The function's arguments: containers (with a base index each for
    /// nested arrays), then free symbols. Returns the argument list and the
    /// free symbols in order.
    fn signature(&mut self, nested: bool, shared: bool) -> Result<'a, (Vec<String>, Vec<Symbol>)> {
        let abi = abi(self.sdfg).map_err(|message| Failure {
            op: self.sdfg,
            message,
        })?;
        let mut args = Vec::new();
        for (i, arg) in abi.arguments.into_iter().enumerate() {
            let layout = arg.layout;
            if layout.stream && !nested {
                return fail(
                    self.sdfg,
                    format!(
                        "argument `{}` is a stream, which a program's C interface cannot pass (only nested SDFGs take streams)",
                        arg.name
                    ),
                );
            }
            let memref = format!("%a{i}");
            args.push(format!(
                "{memref}: {}",
                memref_type(&layout.elem, layout.scalar, layout.stream)
            ));
            let base = (nested && !layout.scalar).then(|| {
                args.push(format!("%b{i}: index"));
                format!("%b{i}")
            });
            let mut data = Data::new(arg.name.clone(), memref, layout);
            data.base = base;
            data.shared = shared;
            if !nested && self.module.gpu && !data.gpu_global {
                // The caller's memory: kernels cannot reach it.
                data.host_only = true;
            }
            if let Some((gpu_global, host_only)) =
                self.module.argument_residences.remove(&data.name)
            {
                data.gpu_global |= gpu_global;
                data.host_only = host_only && !data.gpu_global;
            }
            self.containers.by_name.insert(arg.name, data);
        }
        for (i, s) in abi.symbols.iter().enumerate() {
            let v = format!("%s{i}");
            args.push(format!("{v}: {}", s.ty.mlir()));
            self.free.insert(s.name.clone(), v);
        }
        Ok((args, abi.symbols))
    }

    /// Decides where each transient is allocated.
    fn place_transients(&mut self) -> Result<'a, ()> {
        let assigned = assigned_symbols(self.sdfg);
        for op in self.sdfg.region_ops(0) {
            if !op.is("sdfg.alloc") {
                continue;
            }
            let name = op.str_attr("name").unwrap_or_default().to_string();
            let value = op.results()[0];
            let lifetime = op.attr("lifetime").and_then(Lifetime::from_attr);
            let scoped = lifetime.is_none_or(|l| l.name() == "Scope");
            let mut scopes = Vec::new();
            for (user, _) in value.uses() {
                let chain: Vec<Op> = scope_chain(user);
                scopes.push((user.ancestor("sdfg.state"), chain));
            }
            let size_symbols: BTreeSet<String> = layout(value.ty())
                .map(|l| {
                    l.shape
                        .iter()
                        .chain(&l.strides)
                        .flat_map(|e| e.free_symbols())
                        .filter(|s| assigned.contains(s))
                        .collect()
                })
                .unwrap_or_default();
            let sized_by_assigned = !size_symbols.is_empty();
            let placement = match scopes.split_first() {
                Some(((state, first), rest)) if scoped => {
                    let mut common = first.clone();
                    let one_state = rest.iter().all(|(s, _)| s == state);
                    for (s, chain) in rest {
                        if s != state {
                            common.clear();
                        }
                        let n = common.iter().zip(chain).take_while(|(a, b)| a == b).count();
                        common.truncate(n);
                    }
                    let storage = layout(value.ty())
                        .map(|l| l.storage.name())
                        .unwrap_or_default();
                    if let (true, Some(k)) = (
                        self.module.gpu,
                        common.iter().position(|s| gpu::is_kernel(*s)),
                    ) {
                        match storage {
                            // Device memory is allocated by the host,
                            // outside the kernel that uses it.
                            "GPU_Global" => common.truncate(k),
                            // Shared memory belongs to the whole block:
                            // the kernel's, even if one thread-block map
                            // alone uses it.
                            "GPU_Shared" => common.truncate(k + 1),
                            _ => {}
                        }
                    }
                    match (common.last(), state) {
                        (Some(m), _) => Placement::Scope(*m),
                        (None, Some(state)) if one_state && sized_by_assigned => {
                            Placement::State(*state)
                        }
                        (None, Some(_)) if sized_by_assigned => {
                            let states: Option<Vec<Op>> = scopes.iter().map(|(s, _)| *s).collect();
                            states
                                .and_then(|states| lifetimes::span(&states, &size_symbols))
                                .map_or(Placement::Function, |(first, last)| Placement::Span {
                                    first,
                                    last,
                                })
                        }
                        _ => Placement::Function,
                    }
                }
                _ => Placement::Function,
            };
            self.placements.insert(name, placement);
        }
        Ok(())
    }

    /// Allocates the transients placed at function entry (all transients
    /// are registered as containers here).
    fn allocate_function_transients(&mut self) -> Result<'a, ()> {
        for (name, value) in integer_constants(self.sdfg) {
            let v = self.body.index(value);
            self.free.insert(name, v);
        }
        let constants: HashMap<&str, MlirAttribute> = self
            .sdfg
            .attr("constants")
            .map(sdfg_dialect::ir::dictionary_entries)
            .unwrap_or_default()
            .into_iter()
            .collect();
        for op in self.sdfg.region_ops(0) {
            if !op.is("sdfg.alloc") {
                continue;
            }
            let name = op.str_attr("name").unwrap_or_default().to_string();
            if self.placements.get(&name) == Some(&Placement::Function) {
                let env = self.free.clone();
                for data in self.allocate(op, &env, true, true)? {
                    if let Some(values) = constants.get(data.name.as_str()) {
                        self.initialize(op, &data, *values)?;
                    }
                    self.containers.by_name.insert(data.name.clone(), data);
                }
            }
        }
        Ok(())
    }

    /// Stores the elements of a dense constant (DaCe's constant arrays) into
    /// `data`, in row-major order.
    fn initialize(&mut self, op: Op<'a>, data: &Data, values: MlirAttribute) -> Result<'a, ()> {
        // SAFETY: the attribute kinds are checked before values are read.
        unsafe {
            if !mlirAttributeIsADenseElements(values) {
                return Ok(());
            }
            let n = mlirElementsAttrGetNumElements(values);
            if n > 1 << 16 {
                return fail(
                    op,
                    format!(
                        "constant `{}` has {n} elements, more than the lowering inlines",
                        data.name
                    ),
                );
            }
            let ty = mlirShapedTypeGetElementType(mlirAttributeGetType(values));
            let float = mlirTypeIsAFloat(ty);
            let env = self.free.clone();
            let sizes: Vec<i64> = data.shape.iter().map(|e| e.as_int().unwrap_or(1)).collect();
            for i in 0..n {
                let mut rest = i;
                let mut point = vec![Expr::int(0); sizes.len()];
                for d in (0..sizes.len()).rev() {
                    point[d] = Expr::int(rest % sizes[d].max(1));
                    rest /= sizes[d].max(1);
                }
                let (literal, elem) = if float {
                    let v = if mlirFloatTypeGetWidth(ty) == 32 {
                        mlirDenseElementsAttrGetFloatValue(values, i as isize) as f64
                    } else {
                        mlirDenseElementsAttrGetDoubleValue(values, i as isize)
                    };
                    let text = sdfg_tasklet::float_text(v, sdfg_tasklet::Ty::Float(64));
                    (
                        format!("{text} : f64"),
                        Elem {
                            ty: "f64".into(),
                            unsigned: false,
                        },
                    )
                } else {
                    let v = match mlirIntegerTypeGetWidth(ty) {
                        1 => i64::from(mlirDenseElementsAttrGetBoolValue(values, i as isize)),
                        8 => i64::from(mlirDenseElementsAttrGetInt8Value(values, i as isize)),
                        16 => i64::from(mlirDenseElementsAttrGetInt16Value(values, i as isize)),
                        32 => i64::from(mlirDenseElementsAttrGetInt32Value(values, i as isize)),
                        _ => mlirDenseElementsAttrGetInt64Value(values, i as isize),
                    };
                    (
                        format!("{v} : i64"),
                        Elem {
                            ty: "i64".into(),
                            unsigned: false,
                        },
                    )
                };
                let v = self.body.assign(format!("arith.constant {literal}"));
                let subset = Subset::indices(point);
                self.store(op, &env, &v, &elem, data, &subset, None, &[])?;
            }
        }
        Ok(())
    }

    /// Emits the allocation of transient `alloc` and returns its data; heap
    /// memory is freed at function exit when `function_level`, else the
    /// caller frees it. Scalars are stack allocations when `stack_scalars`,
    /// else heap allocations the caller frees.
    fn allocate(
        &mut self,
        alloc: Op<'a>,
        env: &HashMap<String, String>,
        function_level: bool,
        stack_scalars: bool,
    ) -> Result<'a, Vec<Data>> {
        let name = alloc.str_attr("name").unwrap_or_default().to_string();
        let ty = alloc.results()[0].ty();
        let leaves = structure_leaves(&name, ty);
        let whole = leaves.len() == 1 && leaves[0].0 == name;
        leaves
            .into_iter()
            .map(|(leaf, ty)| {
                self.allocate_container(alloc, leaf, ty, whole, env, function_level, stack_scalars)
            })
            .collect()
    }

    /// [`Self::allocate`] of one container: the transient itself (`whole`)
    /// or a member of a transient structure.
    #[allow(clippy::too_many_arguments)]
    fn allocate_container(
        &mut self,
        alloc: Op<'a>,
        name: String,
        ty: MlirType,
        whole: bool,
        env: &HashMap<String, String>,
        function_level: bool,
        stack_scalars: bool,
    ) -> Result<'a, Data> {
        let layout = layout(ty).map_err(|e| Failure {
            op: alloc,
            message: format!("transient `{name}`: {e}"),
        })?;
        if layout.reference {
            return self.allocate_reference(alloc, name, layout);
        }
        if layout.view {
            // A view's memory is that of the data it views: bound at its
            // access nodes.
            return Ok(Data::new(name, String::new(), layout));
        }
        if layout.stream {
            if layout.elem.is_complex() || layout.elem.lanes().is_some() {
                return fail(
                    alloc,
                    format!(
                        "stream `{name}` of {}: stream elements travel as 64 bits, which vectors and complex numbers do not fit yet",
                        layout.elem.ty
                    ),
                );
            }
            let count = layout
                .shape
                .iter()
                .fold(Expr::int(1), |a, s| Expr::mul(&a, s));
            let count = {
                let mut e = IndexEmitter::new(&mut self.body, env, &self.containers);
                e.int(&count).map_err(|m| Failure {
                    op: alloc,
                    message: format!("stream `{name}`: number of streams: {m}"),
                })?
            };
            let memref = self
                .body
                .assign(format!("memref.alloc({count}) : memref<?xi64>"));
            self.create_streams(&memref, &count);
            if function_level {
                self.frees.push(Allocation {
                    memref: memref.clone(),
                    ty: "memref<?xi64>".into(),
                    stream: true,
                    device: false,
                });
            }
            return Ok(Data::new(name, memref, layout));
        }
        if self.module.gpu && !self.module.in_kernel && layout.storage.name() == "GPU_Global" {
            return self.allocate_on_device(alloc, name, layout, whole, env, function_level);
        }
        if self.module.in_kernel {
            return self.allocate_in_kernel(alloc, name, layout, whole);
        }
        let memref = if layout.scalar {
            let op = if stack_scalars { "alloca" } else { "alloc" };
            self.body
                .assign(format!("memref.{op}() : memref<{}>", layout.elem.ty))
        } else {
            let span = span(&layout);
            let flat = format!("memref<?x{}>", layout.elem.ty);
            match span.as_int() {
                Some(n) if n * 8 <= STACK_BYTES && function_level => {
                    let fixed = self
                        .body
                        .assign(format!("memref.alloca() : memref<{n}x{}>", layout.elem.ty));
                    self.body.assign(format!(
                        "memref.cast {fixed} : memref<{n}x{}> to {flat}",
                        layout.elem.ty
                    ))
                }
                _ => {
                    let size = {
                        let mut e = IndexEmitter::new(&mut self.body, env, &self.containers);
                        e.int(&span).map_err(|m| Failure {
                            op: alloc,
                            message: format!("transient `{name}`: size: {m}"),
                        })?
                    };
                    if function_level && self.exported && !self.module.gpu && persistent(alloc) {
                        persistent::buffer(self.module, &mut self.body, &name, &layout.elem, &size)
                    } else {
                        let memref = self.body.assign(format!("memref.alloc({size}) : {flat}"));
                        if function_level {
                            self.frees.push(Allocation {
                                memref: memref.clone(),
                                ty: flat,
                                stream: false,
                                device: false,
                            });
                        }
                        memref
                    }
                }
            }
        };
        if !whole || !initialization::written_before_read(self.sdfg, alloc, &layout) {
            self.zero_fill(&memref, &layout.elem, layout.scalar);
        }
        self.own_memory.insert(memref.clone());
        let mut data = Data::new(name, memref, layout);
        // Host memory, which kernels cannot reach.
        data.host_only |= self.module.gpu;
        Ok(data)
    }

    /// [`Self::allocate_container`] of a `GPU_Global` transient in host
    /// code: device memory.
    fn allocate_on_device(
        &mut self,
        alloc: Op<'a>,
        name: String,
        layout: Layout,
        whole: bool,
        env: &HashMap<String, String>,
        function_level: bool,
    ) -> Result<'a, Data> {
        let ty = memref_type(&layout.elem, layout.scalar, false);
        let count = if layout.scalar {
            None
        } else {
            let mut e = IndexEmitter::new(&mut self.body, env, &self.containers);
            Some(e.int(&span(&layout)).map_err(|m| Failure {
                op: alloc,
                message: format!("transient `{name}`: size: {m}"),
            })?)
        };
        let memref = self.device_alloc(&ty, count.as_deref());
        if function_level {
            self.frees.push(Allocation {
                memref: memref.clone(),
                ty,
                stream: false,
                device: true,
            });
        }
        let zero = !whole || !initialization::written_before_read(self.sdfg, alloc, &layout);
        let data = Data::new(name, memref, layout);
        if zero {
            self.device_zero_fill(&data.memref.clone(), &data)?;
        }
        Ok(data)
    }

    /// [`Self::allocate_container`] inside a kernel: thread-private memory
    /// on the stack, which needs a constant size.
    fn allocate_in_kernel(
        &mut self,
        alloc: Op<'a>,
        name: String,
        layout: Layout,
        whole: bool,
    ) -> Result<'a, Data> {
        let elem = layout.elem.ty.clone();
        let memref = if layout.scalar {
            self.body
                .assign(format!("memref.alloca() : memref<{elem}>"))
        } else {
            let size = span(&layout);
            let Some(n) = size.as_int() else {
                return fail(
                    alloc,
                    format!("transient `{name}` of size `{size}` inside a GPU kernel: dynamic allocation inside a kernel is not supported"),
                );
            };
            let fixed = self
                .body
                .assign(format!("memref.alloca() : memref<{n}x{elem}>"));
            self.body.assign(format!(
                "memref.cast {fixed} : memref<{n}x{elem}> to memref<?x{elem}>"
            ))
        };
        if !whole || !initialization::written_before_read(self.sdfg, alloc, &layout) {
            self.zero_fill(&memref, &layout.elem, layout.scalar);
        }
        Ok(Data {
            host_only: false,
            ..Data::new(name, memref, layout)
        })
    }

    /// Frees a heap allocation (destroying its streams first).
    fn release(&mut self, allocation: &Allocation) {
        if allocation.device {
            self.device_free(&allocation.memref, &allocation.ty);
        } else if allocation.stream {
            self.destroy_streams(&allocation.memref);
        } else {
            self.body.line(format!(
                "memref.dealloc {} : {}",
                allocation.memref, allocation.ty
            ));
        }
    }

    /// The data of container `name` when it lives for the whole function
    /// (an argument or a transient allocated at entry), whose memref every
    /// block may use.
    fn function_level_data(&self, name: &str) -> Option<&Data> {
        let whole = self
            .placements
            .get(name)
            .is_none_or(|p| *p == Placement::Function);
        self.containers
            .by_name
            .get(name)
            .filter(|d| whole && !d.memref.is_empty())
    }

    /// Records that the function calls the stream runtime.
    fn use_stream_runtime(&mut self) {
        self.module.uses_streams = true;
    }

    /// Asserts (under `check-bounds`) that the flat `index` lies inside
    /// `data`'s memref.
    fn check_flat_bounds(&mut self, op: Op<'a>, data: &Data, index: &str) {
        if self.module.check_bounds {
            self.check_bounds(op, data, index, &[], None);
        }
    }

    /// Fills a new transient with zeros. Reading a transient before writing
    /// it is undefined in DaCe; zeros make such programs deterministic (and
    /// agree with the fresh zero pages DaCe's allocations usually get).
    /// Transients that are provably written before they are read are not
    /// filled (`initialization.rs`).
    fn zero_fill(&mut self, memref: &str, elem: &Elem, scalar: bool) {
        let zero = types::zero(&mut self.body, &elem.ty);
        if scalar {
            self.body.line(format!(
                "memref.store {zero}, {memref}[] : memref<{}>",
                elem.ty
            ));
            return;
        }
        let ty = format!("memref<?x{}>", elem.ty);
        let (lo, one) = (self.body.index(0), self.body.index(1));
        let n = self
            .body
            .assign(format!("memref.dim {memref}, {lo} : {ty}"));
        let k = self.body.fresh();
        self.body
            .open(format!("scf.for {k} = {lo} to {n} step {one}"));
        self.body
            .line(format!("memref.store {zero}, {memref}[{k}] : {ty}"));
        self.body.close("");
    }

    /// The transients allocated at `placement`.
    fn owned_transients(&self, placement: Placement<'a>) -> Vec<Op<'a>> {
        self.sdfg
            .region_ops(0)
            .into_iter()
            .filter(|o| {
                o.is("sdfg.alloc")
                    && self.placements.get(o.str_attr("name").unwrap_or_default())
                        == Some(&placement)
            })
            .collect()
    }

    /// Allocates a transient inside a scope or state: scalars on the stack
    /// when `stack_scalars`, everything else on the heap, freed at the
    /// scope's end.
    fn allocate_scoped(
        &mut self,
        alloc: Op<'a>,
        env: &HashMap<String, String>,
        frees: &mut Vec<Allocation>,
        stack_scalars: bool,
    ) -> Result<'a, Vec<Data>> {
        let containers = self.allocate(alloc, env, false, stack_scalars)?;
        for data in &containers {
            let on_stack = self.module.in_kernel || (data.scalar && stack_scalars);
            if !on_stack && !data.memref.is_empty() {
                frees.push(Allocation {
                    memref: data.memref.clone(),
                    ty: data.memref_type(),
                    stream: data.stream,
                    device: self.on_device(data),
                });
            }
        }
        Ok(containers)
    }
}

/// The most bytes a transient array of constant size may take on the
/// stack at function entry.
const STACK_BYTES: i64 = 64 * 1024;

/// The number of elements the strides of `layout` address:
/// `1 + sum((size_i - 1) * stride_i)`.
fn span(layout: &Layout) -> Expr {
    let mut span = Expr::int(1);
    for (size, stride) in layout.shape.iter().zip(&layout.strides) {
        span = Expr::add(&span, &Expr::mul(&Expr::sub(size, &Expr::int(1)), stride));
    }
    span
}

/// The `k`-th index a range covers: `start + k * step`, or with tiles
/// `start + (k // tile) * step + k % tile`.
fn range_index(r: &Range, k: &Expr) -> Expr {
    if r.tile.as_int() == Some(1) {
        return Expr::add(&r.start, &Expr::mul(k, &r.step));
    }
    let origin = Expr::mul(&Expr::floordiv(k, &r.tile), &r.step);
    Expr::add(&Expr::add(&r.start, &origin), &Expr::modulo(k, &r.tile))
}

/// The maps and consume scopes around `op`, outermost first.
fn scope_chain(op: Op<'_>) -> Vec<Op<'_>> {
    let mut chain = Vec::new();
    let mut current = op.parent();
    while let Some(o) = current {
        if o.is("sdfg.map") || o.is("sdfg.consume") {
            chain.push(o);
        }
        if o.is("sdfg.state") {
            break;
        }
        current = o.parent();
    }
    chain.reverse();
    chain
}

fn parse_expr<'a>(op: Op<'a>, text: &str) -> Result<'a, Expr> {
    parse(text).map_err(|e| Failure {
        op,
        message: format!("invalid symbolic expression `{text}`: {e}"),
    })
}

fn parse_memlet_subset<'a>(op: Op<'a>, text: &str) -> Result<'a, Subset> {
    parse_subset(text).map_err(|e| Failure {
        op,
        message: format!("invalid memlet subset `{text}`: {e}"),
    })
}
