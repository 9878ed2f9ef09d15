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
//!   one `index` per free symbol in the (sorted) order of `symbols`; the
//!   function has `llvm.emit_c_interface`.
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
//! Not lowered yet (each a diagnostic naming the op): structures,
//! quiescence conditions, tasklets whose code stayed Python or C++.
//!
//! The function text is built as text and parsed (verified) once; tasklet
//! bodies are moved from the SDFG into their functions as IR, never
//! re-printed.

use std::collections::{BTreeSet, HashMap};

use mlir_sys::*;
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::{string_ref, type_to_string, Op, Val};
use sdfg_dialect::{
    accessed_container, container_name, incoming_edges, EdgeRole, Lifetime, Memlet, Schedule,
    CONTROL_FLOW_BLOCKS,
};
use sdfg_symbolic::{parse, parse_subset, Expr, Range, Subset};

use super::streams;
use super::text::{Body, DataReader, IndexEmitter};
pub use super::types::Elem;
use super::types::{convert, layout, memref_type, Data};
use super::wcr::{Reduction, Slot};

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
/// undefined behaviour there).
#[derive(Clone, Copy, Default)]
pub struct ConvertSdfgToScf {
    check_bounds: bool,
}

impl RustPass for ConvertSdfgToScf {
    fn set_options(&mut self, options: &str) -> std::result::Result<(), String> {
        for option in options.split_whitespace() {
            match option.split_once('=') {
                Some(("check-bounds", "true" | "1")) => self.check_bounds = true,
                Some(("check-bounds", "false" | "0")) => self.check_bounds = false,
                _ => {
                    return Err(format!(
                        "convert-sdfg-to-scf: unknown option `{option}` (the option is check-bounds=true|false)"
                    ))
                }
            }
        }
        Ok(())
    }

    fn run(&mut self, op: Op<'_>) -> std::result::Result<(), Diagnosed> {
        convert_module(op, self.check_bounds)
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(*self)
    }
}

/// A failure at an op, reported as a diagnostic on it.
pub(super) struct Failure<'a> {
    op: Op<'a>,
    message: String,
}

pub(super) type Result<'a, T> = std::result::Result<T, Failure<'a>>;

impl<'a> Failure<'a> {
    /// A failure at `op`.
    pub(super) fn new(op: Op<'a>, message: impl Into<String>) -> Failure<'a> {
        Failure {
            op,
            message: message.into(),
        }
    }
}

pub(super) fn fail<'a, T>(op: Op<'a>, message: impl Into<String>) -> Result<'a, T> {
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
    result_types: Vec<String>,
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
    functions: Vec<String>,
    tasklets: Vec<TaskletFunction<'a>>,
    names: BTreeSet<String>,
    /// Whether the functions call the stream runtime.
    uses_streams: bool,
}

impl Module<'_> {
    fn unique(&mut self, base: &str) -> String {
        let clean: String = base
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let mut name = clean.clone();
        let mut k = 1;
        while !self.names.insert(name.clone()) {
            name = format!("{clean}_{k}");
            k += 1;
        }
        name
    }
}

/// Converts every top-level `sdfg.sdfg` of `module`, with bounds checks on
/// every access when `check_bounds`.
pub fn convert_module(module: Op<'_>, check_bounds: bool) -> std::result::Result<(), Diagnosed> {
    let sdfgs: Vec<Op> = module
        .region_ops(0)
        .into_iter()
        .filter(|o| o.is("sdfg.sdfg"))
        .collect();
    if sdfgs.is_empty() {
        return Ok(());
    }
    let mut m = Module {
        check_bounds,
        ..Module::default()
    };
    for op in module.region_ops(0) {
        if let Some(name) = op.symbol_name() {
            m.names.insert(name.to_string());
        }
    }
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
    for t in &m.tasklets {
        text.push_str(&format!("func.func private @{}{}\n", t.name, t.signature()));
    }
    for f in &m.functions {
        text.push_str(f);
    }
    text.push_str("}\n");
    // SAFETY: the module and the ops in it are live; the parsed module is
    // destroyed after its functions have been moved out.
    unsafe { install(module, &sdfgs, &m, &text) }
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
    // MLIR's lexer reads up to a NUL terminator.
    let terminated = format!("{text}\0");
    let parsed = mlirModuleCreateParse(ctx, string_ref(&terminated[..text.len()]));
    if parsed.ptr.is_null() {
        if std::env::var_os("SDFG_DEBUG_LOWERING").is_some() {
            eprintln!("{text}");
        }
        module.emit_error(
            "internal error: the lowered functions do not parse (set SDFG_DEBUG_LOWERING=1 to print them)",
        );
        return Err(Diagnosed);
    }
    let block = mlirRegionGetFirstBlock(mlirOperationGetRegion(module.raw(), 0));
    let anchor = sdfgs[0].raw();
    let parsed_body = mlirModuleGetBody(parsed);
    let mut op = mlirBlockGetFirstOperation(parsed_body);
    let mut moves = Vec::new();
    while !op.ptr.is_null() {
        let next = mlirOperationGetNextInBlock(op);
        let is_declaration = Op::from_raw(op).is_some_and(|o| {
            o.str_attr("sym_visibility").is_some()
                && !o.has_body(0)
                && !o
                    .symbol_name()
                    .is_some_and(|n| streams::RUNTIME_FUNCTIONS.contains(&n))
        });
        if !is_declaration {
            moves.push(op);
        }
        op = next;
    }
    for op in moves {
        mlirOperationRemoveFromParent(op);
        mlirBlockInsertOwnedOperationBefore(block, anchor, op);
    }
    mlirModuleDestroy(parsed);
    for t in &m.tasklets {
        let func = tasklet_function(ctx, t);
        mlirBlockInsertOwnedOperationBefore(block, anchor, func);
    }
    for sdfg in sdfgs {
        mlirOperationDestroy(sdfg.raw());
    }
    Ok(())
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

/// One argument of the function an `sdfg.sdfg` becomes.
#[derive(Clone, Debug)]
pub struct Argument {
    /// The container's DaCe name.
    pub name: String,
    /// The element type (`memref<?xT>` or, for scalars, `memref<T>`).
    pub elem: Elem,
    /// Whether the container is a scalar (`memref<T>`).
    pub scalar: bool,
    /// Symbolic sizes.
    pub shape: Vec<Expr>,
    /// Symbolic strides, in elements, of the flat buffer.
    pub strides: Vec<Expr>,
    /// Symbolic index offsets (DaCe's `offset`): only the SDFG's own
    /// subscripts are shifted, the buffer is laid out by `strides` alone.
    pub offsets: Vec<Expr>,
    /// Whether the SDFG writes the container.
    pub written: bool,
    /// Whether the container is a stream (nested SDFGs only: a program's
    /// interface cannot pass one).
    pub stream: bool,
}

/// The C interface of the function an `sdfg.sdfg` becomes: its containers
/// in argument order (MLIR memref descriptors: rank 1 for arrays, rank 0
/// for scalars), then one `int64_t` per free symbol in this order.
#[derive(Clone, Debug)]
pub struct Abi {
    /// The function's name (the SDFG's symbol name).
    pub name: String,
    /// The container arguments.
    pub arguments: Vec<Argument>,
    /// The free symbols (declared and never assigned), sorted.
    pub symbols: Vec<String>,
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
        let layout = layout(value.ty()).map_err(|e| format!("argument `{name}`: {e}"))?;
        if layout.reference {
            return Err(format!(
                "argument `{name}` is a reference, which cannot be passed yet"
            ));
        }
        let written = value.uses().into_iter().any(|(user, _)| {
            user.is("sdfg.access")
                && incoming_edges(user)
                    .iter()
                    .any(|e| e.role == EdgeRole::Input)
        });
        arguments.push(Argument {
            name,
            elem: layout.elem,
            scalar: layout.scalar,
            shape: fold(layout.shape),
            strides: fold(layout.strides),
            offsets: fold(layout.offsets),
            written,
            stream: layout.stream,
        });
    }
    let assigned = assigned_symbols(sdfg);
    let read_before_assigned = symbols_read_before_assigned(sdfg);
    let symbols = sdfg
        .attr("symbols")
        .map(sdfg_dialect::ir::dictionary_entries)
        .unwrap_or_default()
        .into_iter()
        .map(|(n, _)| n.to_string())
        .filter(|n| {
            (!assigned.contains(n) || read_before_assigned.contains(n))
                && !constants.contains_key(n)
        })
        .collect();
    Ok(Abi {
        name: sdfg.symbol_name().unwrap_or("sdfg").to_string(),
        arguments,
        symbols,
    })
}

/// How a dataflow value is held in the lowered code.
#[derive(Clone)]
pub(super) enum Lowered {
    /// A container (access node, scope argument).
    Data(Data),
    /// A value (tasklet output).
    Value { ssa: String, elem: Elem },
    /// A scope or nested-SDFG output: its data was written in place.
    Written,
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
}

/// Loop context for break and continue.
#[derive(Clone)]
struct Jumps {
    break_to: Option<String>,
    continue_to: Option<String>,
    return_to: String,
}

/// The containers of the function being lowered, by name.
#[derive(Default)]
struct Containers {
    by_name: HashMap<String, Data>,
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
        let value = body.assign(format!(
            "memref.load {}[{index}] : {}",
            data.memref,
            data.memref_type()
        ));
        Ok(convert(body, &value, &data.elem, ty))
    }

    fn is_container(&self, name: &str) -> bool {
        self.by_name.contains_key(name)
    }

    fn is_float(&self, name: &str) -> bool {
        self.by_name.get(name).is_some_and(|d| d.elem.is_float())
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
pub(super) struct Function<'a, 'm> {
    module: &'m mut Module<'a>,
    sdfg: Op<'a>,
    pub(super) body: Body,
    containers: Containers,
    /// Symbol variables (`memref<index>`) of assigned symbols.
    vars: HashMap<String, String>,
    /// Free symbols and their argument values.
    free: HashMap<String, String>,
    placements: HashMap<String, Placement<'a>>,
    pub(super) values: HashMap<Val<'a>, Lowered>,
    /// Heap allocations to free at function exit.
    frees: Vec<Allocation>,
    /// Whether the arguments are shared with other parallel iterations
    /// (a nested SDFG called inside a parallel loop).
    shared_arguments: bool,
    /// Transients allocated inside a parallel loop's body: each iteration
    /// has its own, so writes to them need no atomics.
    iteration_private: BTreeSet<String>,
}

/// A heap allocation to release at the end of its scope.
pub(super) struct Allocation {
    memref: String,
    ty: String,
    /// Whether it holds stream handles (destroyed before it is freed).
    stream: bool,
}

/// Lowers `sdfg` to a function named `name` appended to the module text;
/// `nested` functions are private and take a base index after each array.
fn lower_function<'a>(
    m: &mut Module<'a>,
    sdfg: Op<'a>,
    name: &str,
    nested: bool,
    shared: bool,
) -> Result<'a, Vec<String>> {
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
        iteration_private: BTreeSet::new(),
    };
    f.body.set_indent(1);
    let (signature, free) = f.signature(nested, shared)?;
    f.place_transients()?;
    f.allocate_function_transients()?;
    f.check_symbol_types()?;
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
    /// The function's arguments: containers (with a base index each for
    /// nested arrays), then free symbols. Returns the argument list and the
    /// free symbols in order.
    fn signature(&mut self, nested: bool, shared: bool) -> Result<'a, (Vec<String>, Vec<String>)> {
        let abi = abi(self.sdfg).map_err(|message| Failure {
            op: self.sdfg,
            message,
        })?;
        let mut args = Vec::new();
        for (i, arg) in abi.arguments.into_iter().enumerate() {
            if arg.stream && !nested {
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
                memref_type(&arg.elem, arg.scalar, arg.stream)
            ));
            let base = (nested && !arg.scalar).then(|| {
                args.push(format!("%b{i}: index"));
                format!("%b{i}")
            });
            self.containers.by_name.insert(
                arg.name.clone(),
                Data {
                    name: arg.name,
                    memref,
                    elem: arg.elem,
                    scalar: arg.scalar,
                    shape: arg.shape,
                    strides: arg.strides,
                    offsets: arg.offsets,
                    base,
                    shared,
                    stream: arg.stream,
                    reference: None,
                },
            );
        }
        for (i, s) in abi.symbols.iter().enumerate() {
            let v = format!("%s{i}");
            args.push(format!("{v}: index"));
            self.free.insert(s.clone(), v);
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
            let sized_by_assigned = layout(value.ty()).is_ok_and(|l| {
                l.shape
                    .iter()
                    .chain(&l.strides)
                    .any(|e| e.free_symbols().iter().any(|s| assigned.contains(s)))
            });
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
                    match (common.last(), state) {
                        (Some(m), _) => Placement::Scope(*m),
                        (None, Some(state)) if one_state && sized_by_assigned => {
                            Placement::State(*state)
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
                let data = self.allocate(op, &env, true, true)?;
                if let Some(values) = constants.get(name.as_str()) {
                    self.initialize(op, &data, *values)?;
                }
                self.containers.by_name.insert(name, data);
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
                    let text = crate::translate::python_tasklet::float_text(
                        v,
                        crate::translate::python_tasklet::Ty::Float(64),
                    );
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
    ) -> Result<'a, Data> {
        let name = alloc.str_attr("name").unwrap_or_default().to_string();
        let ty = alloc.results()[0].ty();
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
                });
            }
            return Ok(Data::new(name, memref, layout));
        }
        let memref = if layout.scalar {
            let op = if stack_scalars { "alloca" } else { "alloc" };
            self.body
                .assign(format!("memref.{op}() : memref<{}>", layout.elem.ty))
        } else {
            // The span the strides address: 1 + sum((size_i - 1) * stride_i).
            let mut span = Expr::int(1);
            for (size, stride) in layout.shape.iter().zip(&layout.strides) {
                span = Expr::add(&span, &Expr::mul(&Expr::sub(size, &Expr::int(1)), stride));
            }
            let flat = format!("memref<?x{}>", layout.elem.ty);
            match span.as_int() {
                Some(n) if n * 8 <= 64 * 1024 && function_level => {
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
                    let memref = self.body.assign(format!("memref.alloc({size}) : {flat}"));
                    if function_level {
                        self.frees.push(Allocation {
                            memref: memref.clone(),
                            ty: flat,
                            stream: false,
                        });
                    }
                    memref
                }
            }
        };
        self.zero_fill(&memref, &layout.elem, layout.scalar);
        Ok(Data::new(name, memref, layout))
    }

    /// Frees a heap allocation (destroying its streams first).
    fn release(&mut self, allocation: &Allocation) {
        if allocation.stream {
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
    pub(super) fn function_level_data(&self, name: &str) -> Option<&Data> {
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
    pub(super) fn use_stream_runtime(&mut self) {
        self.module.uses_streams = true;
    }

    /// Asserts (under `check-bounds`) that the flat `index` lies inside
    /// `data`'s memref.
    pub(super) fn check_flat_bounds(&mut self, op: Op<'a>, data: &Data, index: &str) {
        if self.module.check_bounds {
            self.check_bounds(op, data, index, &[]);
        }
    }

    /// Fills a new transient with zeros. Reading a transient before writing
    /// it is undefined in DaCe; zeros make such programs deterministic (and
    /// agree with the fresh zero pages DaCe's allocations usually get).
    fn zero_fill(&mut self, memref: &str, elem: &Elem, scalar: bool) {
        let zero = if elem.is_float() {
            self.body
                .assign(format!("arith.constant 0.0 : {}", elem.ty))
        } else {
            self.body.assign(format!("arith.constant 0 : {}", elem.ty))
        };
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

    /// Declares a variable for every assigned symbol; one that is also an
    /// argument (read before its first assignment) starts with its value.
    /// Refuses floating-point symbols: the lowering computes symbols as
    /// integers (`index`), which would truncate them.
    fn check_symbol_types(&self) -> Result<'a, ()> {
        let declared = self
            .sdfg
            .attr("symbols")
            .map(sdfg_dialect::ir::dictionary_entries)
            .unwrap_or_default();
        for (name, attr) in declared {
            // SAFETY: the dialect's verifier makes symbol types TypeAttrs.
            let float = unsafe {
                mlirAttributeIsAType(attr) && mlirTypeIsAFloat(mlirTypeAttrGetValue(attr))
            };
            if float && symbol_is_read(self.sdfg, name) {
                return fail(
                    self.sdfg,
                    format!(
                        "symbol `{name}` is floating-point, which the lowering cannot compute yet"
                    ),
                );
            }
        }
        Ok(())
    }

    fn declare_symbol_vars(&mut self) {
        for s in assigned_symbols(self.sdfg) {
            let v = self.body.assign("memref.alloca() : memref<index>");
            if let Some(initial) = self.free.get(&s) {
                self.body
                    .line(format!("memref.store {initial}, {v}[] : memref<index>"));
            }
            self.vars.insert(s, v);
        }
    }

    /// The symbols at the current point: free symbols and the current
    /// values of the assigned ones.
    fn symbol_env(&mut self) -> HashMap<String, String> {
        let mut env = self.free.clone();
        let mut vars: Vec<(String, String)> = self
            .vars
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        vars.sort();
        for (name, var) in vars {
            let v = self
                .body
                .assign(format!("memref.load {var}[] : memref<index>"));
            env.insert(name, v);
        }
        env
    }

    pub(super) fn emit_int(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        expr: &Expr,
    ) -> Result<'a, String> {
        let mut e = IndexEmitter::new(&mut self.body, env, &self.containers);
        e.int(expr).map_err(|m| Failure {
            op,
            message: format!("cannot lower `{expr}`: {m}"),
        })
    }

    fn emit_bool(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        text: &str,
    ) -> Result<'a, String> {
        let expr = parse_expr(op, text)?;
        if self.reads_float_data(&expr, env) {
            return self.python_expression(op, env, text, "i1");
        }
        let mut e = IndexEmitter::new(&mut self.body, env, &self.containers);
        e.boolean(&expr).map_err(|m| Failure {
            op,
            message: format!("cannot lower condition `{text}`: {m}"),
        })
    }

    /// Whether `expr` reads floating-point data (then it is not an integer
    /// expression and SymPy's normal form of it is wrong: `x > 0.5` is not
    /// `x >= 1`).
    fn reads_float_data(&self, expr: &Expr, env: &HashMap<String, String>) -> bool {
        expr.free_symbols()
            .iter()
            .chain(expr.subscripted_names().iter())
            .any(|name| !env.contains_key(name) && self.containers.is_float(name))
    }

    /// Computes an inter-state expression that reads floating-point data as
    /// DaCe's generated C++ does: the Python text is translated by the
    /// tasklet translator into a private function of the scalars and
    /// symbols it reads, called here; its result has type `ty`.
    fn python_expression(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        text: &str,
        ty: &str,
    ) -> Result<'a, String> {
        use crate::translate::python_tasklet::{translate, InputType, Signature};
        let expr = parse_expr(op, text)?;
        let mut inputs = Vec::new();
        let mut operands = Vec::new();
        let mut types = Vec::new();
        for name in expr
            .free_symbols()
            .into_iter()
            .chain(expr.subscripted_names())
        {
            if let Some(v) = env.get(&name) {
                let wide = self
                    .body
                    .assign(format!("arith.index_cast {v} : index to i64"));
                inputs.push((name.clone(), InputType::Element("i64".into())));
                operands.push(wide);
                types.push("i64".to_string());
                continue;
            }
            let Some(data) = self.containers.by_name.get(&name).cloned() else {
                return fail(
                    op,
                    format!("`{text}`: `{name}` is neither a symbol nor a container"),
                );
            };
            let dace_ty = if data.elem.unsigned {
                format!("u{}", data.elem.ty)
            } else {
                data.elem.ty.clone()
            };
            if data.memref.is_empty() {
                return fail(op, format!("`{text}`: view `{name}` cannot be read here"));
            }
            if data.scalar {
                let v = self.body.assign(format!(
                    "memref.load {}[] : {}",
                    data.memref,
                    data.memref_type()
                ));
                inputs.push((name.clone(), InputType::Element(dace_ty)));
                operands.push(v);
                types.push(data.elem.ty.clone());
                continue;
            }
            // An array is passed as an identity-layout memref of its shape,
            // which its flat buffer is when it is in C order at offset 0.
            let rank = data.shape.len();
            let mut c_order = vec![Expr::int(1); rank];
            for d in (0..rank.saturating_sub(1)).rev() {
                c_order[d] = Expr::mul(&c_order[d + 1], &data.shape[d + 1]);
            }
            let contiguous = data.base.is_none()
                && data.strides == c_order
                && data.offsets.iter().all(|o| o.as_int() == Some(0));
            if !contiguous {
                return fail(
                    op,
                    format!("`{text}`: array `{name}` is not in C order, which floating-point inter-state expressions need"),
                );
            }
            let mut sizes = Vec::new();
            let mut strides = Vec::new();
            for (size, stride) in data.shape.iter().zip(&c_order) {
                sizes.push(self.emit_int(op, env, size)?);
                strides.push(self.emit_int(op, env, stride)?);
            }
            let zero = self.body.index(0);
            let ty = format!("memref<{}x{}>", vec!["?"; rank].join("x"), data.elem.ty);
            let v = self.body.assign(format!(
                "memref.reinterpret_cast {} to offset: [{zero}], sizes: [{}], strides: [{}] : {} to {ty}",
                data.memref,
                sizes.join(", "),
                strides.join(", "),
                data.memref_type()
            ));
            inputs.push((
                name.clone(),
                InputType::Array {
                    element: dace_ty,
                    shape: vec![None; rank],
                },
            ));
            operands.push(v);
            types.push(ty);
        }
        let no_symbols = |_: &str| false;
        let signature = Signature {
            inputs,
            outputs: vec![("__value".into(), ty.into())],
            is_symbol: &no_symbols,
        };
        let body = translate(&format!("__value = {text}"), &signature)
            .map_err(|m| Failure::new(op, format!("cannot lower `{text}`: {m}")))?;
        let Some((rest, last)) = body.trim_end().rsplit_once('\n') else {
            return fail(op, format!("cannot lower `{text}`"));
        };
        let name = self.module.unique("__expression");
        let ret = last.replacen("sdfg.yield", "func.return", 1);
        self.module.functions.push(format!(
            "\"func.func\"() <{{function_type = ({}) -> {ty}, sym_name = \"{name}\", sym_visibility = \"private\"}}> ({{\n{rest}\n{ret}\n}}) : () -> ()\n",
            types.join(", ")
        ));
        Ok(self.body.assign(format!(
            "func.call @{name}({}) : ({}) -> {ty}",
            operands.join(", "),
            types.join(", ")
        )))
    }

    /// Assigns symbols: every right-hand side first, then the stores.
    fn assign(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        names: &[&str],
        values: &[&str],
    ) -> Result<'a, ()> {
        let mut computed = Vec::new();
        for (name, value) in names.iter().zip(values) {
            let expr = parse_expr(op, value)?;
            let v = if self.reads_float_data(&expr, env) {
                let v = self.python_expression(op, env, value, "i64")?;
                self.body
                    .assign(format!("arith.index_cast {v} : i64 to index"))
            } else {
                self.emit_int(op, env, &expr)?
            };
            computed.push((name.to_string(), v));
        }
        for (name, v) in computed {
            let Some(var) = self.vars.get(&name).cloned() else {
                return fail(
                    op,
                    format!("symbol `{name}` is assigned but is a free symbol of the SDFG"),
                );
            };
            self.body
                .line(format!("memref.store {v}, {var}[] : memref<index>"));
        }
        Ok(())
    }

    /// Lowers the control-flow graph in `owner`'s region; control leaves
    /// it by branching to `exit`.
    fn lower_cfg(&mut self, owner: Op<'a>, exit: &str, jumps: &Jumps) -> Result<'a, ()> {
        let ops = owner.region_ops(0);
        let blocks: Vec<Op> = ops
            .iter()
            .copied()
            .filter(|o| CONTROL_FLOW_BLOCKS.contains(&o.name()))
            .collect();
        let edges: Vec<Op> = ops.iter().copied().filter(|o| o.is("sdfg.edge")).collect();
        let Some(start) = blocks.first() else {
            self.body.line(format!("cf.br {exit}"));
            return Ok(());
        };
        let labels: HashMap<&str, String> = blocks
            .iter()
            .map(|b| (b.symbol_name().unwrap_or_default(), self.body.label()))
            .collect();
        self.body.line(format!(
            "cf.br {}",
            labels[start.symbol_name().unwrap_or_default()]
        ));
        for block in &blocks {
            let name = block.symbol_name().unwrap_or_default();
            self.body.block(&labels[name]);
            match block.name() {
                "sdfg.state" => self.lower_state(*block)?,
                "sdfg.break" | "sdfg.continue" | "sdfg.return" => {
                    let target = match block.name() {
                        "sdfg.break" => jumps.break_to.clone(),
                        "sdfg.continue" => jumps.continue_to.clone(),
                        _ => Some(jumps.return_to.clone()),
                    };
                    let Some(target) = target else {
                        return fail(*block, "is not inside a loop");
                    };
                    self.body.line(format!("cf.br {target}"));
                    continue;
                }
                _ => {
                    let after = self.body.label();
                    self.lower_structured(*block, &after, jumps)?;
                    self.body.block(&after);
                }
            }
            let outgoing: Vec<Op> = edges
                .iter()
                .copied()
                .filter(|e| e.symbol_ref_attr("src") == Some(name))
                .collect();
            self.dispatch(&outgoing, &labels, exit)?;
        }
        Ok(())
    }

    /// Branches along the first outgoing edge whose condition holds (in
    /// op order), or to `exit` when none does.
    fn dispatch(
        &mut self,
        edges: &[Op<'a>],
        labels: &HashMap<&str, String>,
        exit: &str,
    ) -> Result<'a, ()> {
        let env = self.symbol_env();
        for edge in edges {
            let dst = edge.symbol_ref_attr("dst").unwrap_or_default();
            let Some(target) = labels.get(dst).cloned() else {
                return fail(
                    *edge,
                    format!("destination `{dst}` is not a block of this region"),
                );
            };
            let names = edge.str_array_attr("assign_names");
            let values = edge.str_array_attr("assign_values");
            let condition = edge.str_attr("condition").unwrap_or("1");
            let always = parse_expr(*edge, condition)?.as_bool() == Some(true)
                || parse_expr(*edge, condition)?
                    .as_int()
                    .is_some_and(|v| v != 0);
            if always {
                self.assign(*edge, &env, &names, &values)?;
                self.body.line(format!("cf.br {target}"));
                return Ok(());
            }
            let c = self.emit_bool(*edge, &env, condition)?;
            let (taken, next) = (self.body.label(), self.body.label());
            self.body.line(format!("cf.cond_br {c}, {taken}, {next}"));
            self.body.block(&taken);
            self.assign(*edge, &env, &names, &values)?;
            self.body.line(format!("cf.br {target}"));
            self.body.block(&next);
        }
        self.body.line(format!("cf.br {exit}"));
        Ok(())
    }

    /// Lowers a loop, conditional or plain region; control continues at
    /// `after`.
    fn lower_structured(&mut self, block: Op<'a>, after: &str, jumps: &Jumps) -> Result<'a, ()> {
        match block.name() {
            "sdfg.loop" => self.lower_loop(block, after, jumps),
            "sdfg.conditional" => {
                let env = self.symbol_env();
                let branches: Vec<Op> = block
                    .region_ops(0)
                    .into_iter()
                    .filter(|o| o.is("sdfg.branch"))
                    .collect();
                let mut conditions = Vec::new();
                for branch in &branches {
                    conditions.push(match branch.str_attr("condition") {
                        Some(c) => Some(self.emit_bool(*branch, &env, c)?),
                        None => None,
                    });
                }
                let labels: Vec<String> = branches.iter().map(|_| self.body.label()).collect();
                for (condition, label) in conditions.iter().zip(&labels) {
                    match condition {
                        Some(c) => {
                            let next = self.body.label();
                            self.body.line(format!("cf.cond_br {c}, {label}, {next}"));
                            self.body.block(&next);
                        }
                        None => {
                            self.body.line(format!("cf.br {label}"));
                            let dead = self.body.label();
                            self.body.block(&dead);
                        }
                    }
                }
                self.body.line(format!("cf.br {after}"));
                for (branch, label) in branches.iter().zip(&labels) {
                    self.body.block(label);
                    self.lower_cfg(*branch, after, jumps)?;
                }
                Ok(())
            }
            // A function-call region's arguments only record the call it
            // was inlined from (DaCe's code generator ignores them too).
            "sdfg.region" | "sdfg.call_region" => self.lower_cfg(block, after, jumps),
            other => fail(block, format!("`{other}` cannot be lowered")),
        }
    }

    fn lower_loop(&mut self, lp: Op<'a>, after: &str, jumps: &Jumps) -> Result<'a, ()> {
        let var = lp.str_attr("var");
        let cond = lp.str_attr("cond").unwrap_or("1");
        let inverted = lp.attr("inverted").is_some();
        let update_first = lp.attr("update_before_condition").is_some();
        let (check, body, latch) = (self.body.label(), self.body.label(), self.body.label());
        if let (Some(var), Some(init)) = (var, lp.str_attr("init")) {
            let env = self.symbol_env();
            self.assign(lp, &env, &[var], &[init])?;
        }
        self.body
            .line(format!("cf.br {}", if inverted { &body } else { &check }));
        // The condition check.
        self.body.block(&check);
        let env = self.symbol_env();
        let c = self.emit_bool(lp, &env, cond)?;
        self.body.line(format!("cf.cond_br {c}, {body}, {after}"));
        // The body; continue goes to the latch.
        self.body.block(&body);
        let inner = Jumps {
            break_to: Some(after.to_string()),
            continue_to: Some(latch.clone()),
            return_to: jumps.return_to.clone(),
        };
        self.lower_cfg(lp, &latch, &inner)?;
        // The latch: update, then check (a do-while loop without
        // update_before_condition checks before updating).
        self.body.block(&latch);
        let update = match (var, lp.str_attr("update")) {
            (Some(var), Some(update)) => Some((var, update)),
            _ => None,
        };
        if inverted && !update_first {
            let env = self.symbol_env();
            let c = self.emit_bool(lp, &env, cond)?;
            let next = self.body.label();
            self.body.line(format!("cf.cond_br {c}, {next}, {after}"));
            self.body.block(&next);
            if let Some((var, update)) = update {
                let env = self.symbol_env();
                self.assign(lp, &env, &[var], &[update])?;
            }
            self.body.line(format!("cf.br {body}"));
        } else {
            if let Some((var, update)) = update {
                let env = self.symbol_env();
                self.assign(lp, &env, &[var], &[update])?;
            }
            self.body.line(format!("cf.br {check}"));
        }
        Ok(())
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

    fn lower_state(&mut self, state: Op<'a>) -> Result<'a, ()> {
        let mut env = self.symbol_env();
        let owned = self.owned_transients(Placement::State(state));
        let mut frees = Vec::new();
        for alloc in owned {
            let data = self.allocate_scoped(alloc, &env, &mut frees, true)?;
            self.containers.by_name.insert(data.name.clone(), data);
        }
        let ops = state.region_ops(0);
        self.lower_dataflow(&ops, &mut env, &[])?;
        for allocation in frees {
            self.release(&allocation);
        }
        Ok(())
    }

    /// Lowers dataflow ops in order. `parallel` holds the parameters of the
    /// enclosing parallel loop (empty outside one).
    fn lower_dataflow(
        &mut self,
        ops: &[Op<'a>],
        env: &mut HashMap<String, String>,
        parallel: &[String],
    ) -> Result<'a, ()> {
        for op in ops {
            match op.name() {
                "sdfg.access" => self.lower_access(*op, env, parallel)?,
                "sdfg.tasklet" => self.lower_tasklet(*op, env)?,
                "sdfg.map" => self.lower_map(*op, env, parallel)?,
                "sdfg.nested" => self.lower_nested(*op, env, parallel)?,
                "sdfg.exit" => self.lower_exit(*op, env, parallel)?,
                "sdfg.consume" => self.lower_consume(*op, env, parallel)?,
                "sdfg.library" => self.lower_library(*op, env, parallel)?,
                other => return fail(*op, format!("`{other}` cannot be lowered")),
            }
        }
        Ok(())
    }

    /// The data behind an access node: its container, or for a view the
    /// viewed data at the bound subset.
    pub(super) fn access_data(
        &mut self,
        access: Op<'a>,
        env: &HashMap<String, String>,
    ) -> Result<'a, Data> {
        let container = accessed_container(access).ok_or_else(|| Failure {
            op: access,
            message: "has no container".into(),
        })?;
        let name = container_name(container).unwrap_or_default();
        if let Some(member) = container.defining_op().filter(|o| o.is("sdfg.member")) {
            return fail(member, "structure members cannot be lowered yet");
        }
        let Some(data) = self.containers.by_name.get(&name).cloned() else {
            return fail(access, format!("container `{name}` is not allocated here"));
        };
        if let Some(vars) = &data.reference {
            let vars = vars.clone();
            return self.reference_data(access, env, data, &vars);
        }
        if !data.memref.is_empty() {
            return Ok(data);
        }
        // A view: bound by this node's `bind` edge; else by the edge that
        // writes it back into non-view data (DaCe's `views` connector on
        // an outgoing edge); else by another access node of the same view
        // in this state.
        let Some((source, subset)) = Self::view_binding(access, container) else {
            return fail(
                access,
                format!("view `{name}` is not bound to any data here"),
            );
        };
        let viewed = match source.defining_op().filter(|o| o.is("sdfg.access")) {
            Some(node) => self.access_data(node, env)?,
            None => match self.values.get(&source) {
                Some(Lowered::Data(d)) => d.clone(),
                _ => {
                    return fail(
                        access,
                        format!("view `{name}` is bound to something that is not data"),
                    )
                }
            },
        };
        let subset = if subset.is_empty() {
            None
        } else {
            Some(parse_memlet_subset(access, &subset)?)
        };
        let base = match subset {
            Some(s) => self.element_index(access, env, &viewed, &s.min_element())?,
            None => match &viewed.base {
                Some(b) => b.clone(),
                None => self.body.index(0),
            },
        };
        Ok(Data {
            memref: viewed.memref,
            base: Some(base),
            shared: viewed.shared,
            ..data
        })
    }

    /// The dataflow value a view node is bound to (an access node or a
    /// scope argument of the viewed data) and the subset of it (the data's
    /// side of the binding edge); `None` when nothing binds it. A node
    /// without a `bind` edge shares the binding of the state's bound node
    /// of the same view (as DaCe's code generator defines one pointer per
    /// view and state), or else is bound by the edge writing it back into
    /// its data.
    fn view_binding(access: Op<'a>, container: Val<'a>) -> Option<(Val<'a>, String)> {
        let bind = |node: Op<'a>| {
            let edge = incoming_edges(node)
                .into_iter()
                .find(|e| e.role == EdgeRole::Bind)?;
            Some((
                edge.source,
                edge.memlet.map(|m| m.subset).unwrap_or_default(),
            ))
        };
        if let Some(binding) = bind(access) {
            return Some(binding);
        }
        let shared = container
            .uses()
            .into_iter()
            .map(|(user, _)| user)
            .filter(|other| other.parent() == access.parent() && *other != access)
            .find_map(bind);
        shared.or_else(|| {
            let (user, subset) = view_write_back(access)?;
            Some((user.results()[0], subset))
        })
    }

    /// The linear index of the element at `point` of `data`.
    pub(super) fn element_index(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        data: &Data,
        point: &[Expr],
    ) -> Result<'a, String> {
        let index = self.linear_index(op, env, data, point)?;
        if self.module.check_bounds && !data.scalar {
            self.check_bounds(op, data, &index, point);
        }
        Ok(index)
    }

    /// The linear index of the element at `point` of `data`, unchecked.
    fn linear_index(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        data: &Data,
        point: &[Expr],
    ) -> Result<'a, String> {
        let mut linear = Expr::int(0);
        for (i, p) in point.iter().enumerate() {
            let stride = data.strides.get(i).cloned().unwrap_or_else(|| Expr::int(1));
            let offset = data.offsets.get(i).cloned().unwrap_or_else(|| Expr::int(0));
            linear = Expr::add(&linear, &Expr::mul(&Expr::add(p, &offset), &stride));
        }
        let index = self.emit_int(op, env, &linear)?;
        Ok(match &data.base {
            Some(b) => self.body.assign(format!("arith.addi {b}, {index} : index")),
            None => index,
        })
    }

    /// For a copy between arrays of one element type: an `i1` that holds
    /// when both are the same memory and the destination starts after the
    /// source. The copy then runs backwards, so that every element is read
    /// before it is overwritten (a memlet copy reads its source as it was,
    /// as `memmove` does).
    fn copy_backwards(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        src: (&Data, &Subset),
        dst: (&Data, &Subset),
    ) -> Result<'a, Option<String>> {
        let ((s, from), (d, to)) = (src, dst);
        if s.scalar || d.scalar || s.elem.ty != d.elem.ty {
            return Ok(None);
        }
        let start = self.linear_index(op, env, s, &from.min_element())?;
        let target = self.linear_index(op, env, d, &to.min_element())?;
        let ty = s.memref_type();
        let mut pointer = |memref: &str| {
            self.body.assign(format!(
                "memref.extract_aligned_pointer_as_index {memref} : {ty} -> index"
            ))
        };
        let (ps, pd) = (pointer(&s.memref), pointer(&d.memref));
        let same = self
            .body
            .assign(format!("arith.cmpi eq, {ps}, {pd} : index"));
        let after = self
            .body
            .assign(format!("arith.cmpi ugt, {target}, {start} : index"));
        Ok(Some(
            self.body.assign(format!("arith.andi {same}, {after} : i1")),
        ))
    }

    /// Asserts that `index` lies inside `data`'s memref.
    fn check_bounds(&mut self, op: Op<'a>, data: &Data, index: &str, point: &[Expr]) {
        let zero = self.body.index(0);
        let size = self.body.assign(format!(
            "memref.dim {}, {zero} : {}",
            data.memref,
            data.memref_type()
        ));
        let inside = self
            .body
            .assign(format!("arith.cmpi ult, {index}, {size} : index"));
        let point: Vec<String> = point.iter().map(|e| e.to_string()).collect();
        let message = format!(
            "out-of-bounds access to `{}[{}]` at {}",
            data.name,
            point.join(", "),
            op.location()
        )
        .replace('\\', "\\\\")
        .replace('"', "\\\"");
        self.body.line(format!("cf.assert {inside}, \"{message}\""));
    }

    /// Loads the element at `point` of `data`.
    pub(super) fn load(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        data: &Data,
        point: &[Expr],
    ) -> Result<'a, String> {
        if data.stream {
            return self.pop(op, env, data, point);
        }
        let index = if data.scalar {
            String::new()
        } else {
            self.element_index(op, env, data, point)?
        };
        Ok(self.body.assign(format!(
            "memref.load {}[{index}] : {}",
            data.memref,
            data.memref_type()
        )))
    }

    /// Stores `value` (of type `elem`) at `point` of `data`, resolving
    /// write conflicts with `wcr`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        value: &str,
        elem: &Elem,
        data: &Data,
        subset: &Subset,
        wcr: Option<Reduction>,
        parallel: &[String],
    ) -> Result<'a, ()> {
        let value = convert(&mut self.body, value, elem, &data.elem.ty);
        if data.stream {
            if wcr.is_some() {
                return fail(
                    op,
                    format!(
                        "writes stream `{}` with a write-conflict resolution",
                        data.name
                    ),
                );
            }
            return self.push(op, env, &value, data, &subset.min_element());
        }
        let index = if data.scalar {
            String::new()
        } else {
            self.element_index(op, env, data, &subset.min_element())?
        };
        let ty = data.memref_type();
        match wcr {
            None => self.body.line(format!(
                "memref.store {value}, {}[{index}] : {ty}",
                data.memref
            )),
            Some(reduction) => {
                let atomic = data.shared
                    || (!parallel.is_empty()
                        && !private_to_iteration(subset, parallel)
                        && !self.iteration_private.contains(&data.name));
                let slot = Slot {
                    memref: &data.memref,
                    memref_type: &ty,
                    index: &index,
                };
                reduction.apply(&mut self.body, &value, &slot, &data.elem, atomic);
            }
        }
        Ok(())
    }

    pub(super) fn lowered(&self, op: Op<'a>, value: Val<'a>) -> Result<'a, Lowered> {
        self.values.get(&value).cloned().ok_or_else(|| Failure {
            op,
            message: "uses a value the lowering has not seen (not in topological order?)".into(),
        })
    }

    fn lower_access(
        &mut self,
        access: Op<'a>,
        env: &HashMap<String, String>,
        parallel: &[String],
    ) -> Result<'a, ()> {
        let data = self.access_data(access, env)?;
        for edge in incoming_edges(access) {
            if edge.role != EdgeRole::Input {
                continue;
            }
            let Some(memlet) = edge.memlet else { continue };
            let wcr = Reduction::of(&memlet.wcr).map_err(|m| Failure {
                op: access,
                message: m,
            })?;
            match self.lowered(access, edge.source)? {
                Lowered::Value { ssa, elem } => {
                    let subset = parse_memlet_subset(access, &memlet.subset)?;
                    self.store(access, env, &ssa, &elem, &data, &subset, wcr, parallel)?;
                }
                Lowered::Data(source) => {
                    let binds_view = edge
                        .source
                        .defining_op()
                        .and_then(view_write_back)
                        .is_some_and(|(user, _)| user == access);
                    if binds_view {
                        continue;
                    }
                    if edge
                        .source
                        .defining_op()
                        .is_some_and(|o| o.is("sdfg.access"))
                        || edge.source.block_arg().is_some()
                    {
                        self.copy(access, env, &source, &data, &memlet, wcr, parallel)?;
                    }
                }
                Lowered::Written => {}
            }
        }
        self.values.insert(access.results()[0], Lowered::Data(data));
        Ok(())
    }

    /// Copies `memlet.subset` of `src` into `memlet.other` (or all) of `dst`
    /// element by element, in row-major order of both subsets.
    #[allow(clippy::too_many_arguments)]
    fn copy(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        src: &Data,
        dst: &Data,
        memlet: &Memlet,
        wcr: Option<Reduction>,
        parallel: &[String],
    ) -> Result<'a, ()> {
        let from = parse_memlet_subset(op, &memlet.subset)?;
        let to = match &memlet.other {
            Some(o) => parse_memlet_subset(op, o)?,
            None if dst.scalar => parse_memlet_subset(op, "0")?,
            None if dst.stream => Subset::indices(vec![Expr::int(0); dst.shape.len()]),
            None if src.stream => Subset::full(&dst.shape),
            None => {
                // DaCe places the source's shape (squeezed when the ranks
                // differ) at the destination's origin.
                let sizes: Vec<Expr> = from.ranges().iter().map(Range::size).collect();
                let squeezed: Vec<Expr> = sizes
                    .iter()
                    .filter(|e| e.as_int() != Some(1))
                    .cloned()
                    .collect();
                if sizes.len() == dst.shape.len() {
                    Subset::full(&sizes)
                } else if squeezed.len() == dst.shape.len() {
                    Subset::full(&squeezed)
                } else {
                    Subset::full(&dst.shape)
                }
            }
        };
        if src.stream {
            if wcr.is_some() {
                return fail(
                    op,
                    format!(
                        "pops stream `{}` with a write-conflict resolution",
                        src.name
                    ),
                );
            }
            return self.pop_into(op, env, src, &from.min_element(), dst, &to);
        }
        let src_sizes: Vec<Expr> = from.ranges().iter().map(Range::size).collect();
        let dst_sizes: Vec<Expr> = to.ranges().iter().map(Range::size).collect();
        let squeeze = |v: &[Expr]| {
            v.iter()
                .filter(|e| e.as_int() != Some(1))
                .cloned()
                .collect::<Vec<_>>()
        };
        let same_shape = squeeze(&src_sizes) == squeeze(&dst_sizes);
        // Loop over the source subset's points (backwards when the
        // destination overlaps the source's later elements); map each to
        // the destination's point with the same position.
        let backwards = self.copy_backwards(op, env, (src, &from), (dst, &to))?;
        let mut loop_env = env.clone();
        let mut counters = Vec::new();
        for (d, size) in src_sizes.iter().enumerate() {
            if size.as_int() == Some(1) {
                counters.push(None);
                continue;
            }
            let zero = self.body.index(0);
            let one = self.body.index(1);
            let n = self.emit_int(op, &loop_env, size)?;
            let iv = self.body.fresh();
            self.body
                .open(format!("scf.for {iv} = {zero} to {n} step {one}"));
            let k = match &backwards {
                Some(flag) => {
                    let last = self.body.assign(format!("arith.subi {n}, {one} : index"));
                    let down = self.body.assign(format!("arith.subi {last}, {iv} : index"));
                    self.body
                        .assign(format!("arith.select {flag}, {down}, {iv} : index"))
                }
                None => iv,
            };
            let name = format!("__copy{d}");
            loop_env.insert(name.clone(), k);
            counters.push(Some(Expr::symbol(&name)));
        }
        let position = |ranges: &[Range], counters: &[Option<Expr>]| -> Vec<Expr> {
            ranges
                .iter()
                .zip(counters)
                .map(|(r, k)| match k {
                    Some(k) => range_index(r, k),
                    None => r.start.clone(),
                })
                .collect()
        };
        let src_point = position(from.ranges(), &counters);
        let dst_point = if same_shape {
            let mut moving = counters.iter().flatten().cloned();
            let dst_counters: Vec<Option<Expr>> = dst_sizes
                .iter()
                .map(|s| {
                    if s.as_int() == Some(1) {
                        None
                    } else {
                        moving.next()
                    }
                })
                .collect();
            position(to.ranges(), &dst_counters)
        } else {
            // Row-major position of the source point, unravelled over the
            // destination's sizes.
            let mut linear = Expr::int(0);
            for (k, size) in counters.iter().zip(&src_sizes) {
                linear = Expr::mul(&linear, size);
                if let Some(k) = k {
                    linear = Expr::add(&linear, k);
                }
            }
            let mut point = Vec::new();
            let mut rest = linear;
            for (r, size) in to.ranges().iter().zip(&dst_sizes).rev() {
                let k = Expr::modulo(&rest, size);
                rest = Expr::floordiv(&rest, size);
                point.push(range_index(r, &k));
            }
            point.reverse();
            point
        };
        let value = self.load(op, &loop_env, src, &src_point)?;
        let dst_subset = Subset::indices(dst_point);
        self.store(
            op,
            &loop_env,
            &value,
            &src.elem,
            dst,
            &dst_subset,
            wcr,
            parallel,
        )?;
        for c in &counters {
            if c.is_some() {
                self.body.close("");
            }
        }
        Ok(())
    }

    fn lower_tasklet(&mut self, tasklet: Op<'a>, env: &HashMap<String, String>) -> Result<'a, ()> {
        let label = tasklet.str_attr("label").unwrap_or_default();
        if let Some(code) = tasklet.str_attr("code") {
            // SAFETY: the dialect's verifier makes `language` an enum attribute.
            let language = match tasklet
                .attr("language")
                .map(|a| unsafe { sdfg_dialect::ffi::sdfgEnumAttrValue(a) })
            {
                Some(1) => "C++",
                _ => "Python",
            };
            let first = code.lines().next().unwrap_or_default();
            return fail(
                tasklet,
                format!("tasklet `{label}` has {language} code the importer could not translate to MLIR (`{first}`)"),
            );
        }
        if !tasklet.has_body(0) {
            return fail(tasklet, format!("tasklet `{label}` has no body"));
        }
        let args = tasklet.region_args(0);
        let mut arg_types = Vec::new();
        let mut operands = Vec::new();
        let inputs: Vec<_> = incoming_edges(tasklet)
            .into_iter()
            .filter(|e| e.role == EdgeRole::Input)
            .collect();
        for (i, arg) in args.iter().enumerate() {
            let declared = type_to_string(arg.ty());
            let Some(edge) = inputs.get(i) else {
                return fail(
                    tasklet,
                    format!("tasklet `{label}`: argument {i} has no input edge"),
                );
            };
            let connector = edge.connector.unwrap_or_default();
            match self.lowered(tasklet, edge.source)? {
                Lowered::Value { ssa, elem } => {
                    let target = Elem::parse(&declared).map_err(|m| Failure {
                        op: tasklet,
                        message: format!("connector `{connector}`: {m}"),
                    })?;
                    operands.push(convert(&mut self.body, &ssa, &elem, &target.ty));
                    arg_types.push(target.ty);
                }
                Lowered::Data(data) => {
                    let Some(memlet) = &edge.memlet else {
                        return fail(tasklet, format!("connector `{connector}` has no memlet"));
                    };
                    let subset = parse_memlet_subset(tasklet, &memlet.subset)?;
                    if declared.starts_with("memref<") {
                        let (view, ty) =
                            self.view(tasklet, env, &data, &subset, &declared, connector)?;
                        operands.push(view);
                        arg_types.push(ty);
                    } else {
                        let target = Elem::parse(&declared).map_err(|m| Failure {
                            op: tasklet,
                            message: format!("connector `{connector}`: {m}"),
                        })?;
                        let value = self.load(tasklet, env, &data, &subset.min_element())?;
                        operands.push(convert(&mut self.body, &value, &data.elem, &target.ty));
                        arg_types.push(target.ty);
                    }
                }
                Lowered::Written => {
                    return fail(
                        tasklet,
                        format!("connector `{connector}` reads a scope output directly"),
                    );
                }
            }
        }
        let mut sym_types = Vec::new();
        for op in tasklet.descendants() {
            match op.name() {
                "sdfg.sym" => {
                    let ty = type_to_string(op.results()[0].ty());
                    let expr = parse_expr(op, op.str_attr("expr").unwrap_or_default())?;
                    let v = self.emit_int(op, env, &expr)?;
                    let index = Elem {
                        ty: "index".into(),
                        unsigned: false,
                    };
                    operands.push(convert(&mut self.body, &v, &index, &ty));
                    sym_types.push(ty);
                }
                "sdfg.push" | "sdfg.pop" => return fail(
                    op,
                    "stream connectors of tasklets (push and pop in a body) cannot be lowered yet",
                ),
                _ => {}
            }
        }
        let results = tasklet.results();
        let result_types: Vec<String> = results.iter().map(|r| type_to_string(r.ty())).collect();
        let name = self.module.unique(&format!("__tasklet_{label}"));
        let all_types: Vec<String> = arg_types.iter().chain(&sym_types).cloned().collect();
        let call = format!(
            "func.call @{name}({}) : ({}) -> ({})",
            operands.join(", "),
            all_types.join(", "),
            result_types.join(", ")
        );
        let result = match results.len() {
            0 => {
                self.body.line(call);
                String::new()
            }
            1 => self.body.assign(call),
            n => {
                let v = self.body.fresh();
                self.body.line(format!("{v}:{n} = {call}"));
                v
            }
        };
        for (i, (r, ty)) in results.iter().zip(&result_types).enumerate() {
            let elem = Elem::parse(ty).map_err(|m| Failure {
                op: tasklet,
                message: format!("output {i}: {m}"),
            })?;
            let ssa = if results.len() == 1 {
                result.clone()
            } else {
                format!("{result}#{i}")
            };
            self.values.insert(*r, Lowered::Value { ssa, elem });
        }
        self.module.tasklets.push(TaskletFunction {
            tasklet,
            name,
            arg_types,
            sym_types,
            result_types,
        });
        Ok(())
    }

    /// A strided view of `subset` of `data` for a memref connector of
    /// type `declared` (its rank decides which unit dimensions are
    /// squeezed). Returns the value and its type.
    fn view(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        data: &Data,
        subset: &Subset,
        declared: &str,
        connector: &str,
    ) -> Result<'a, (String, String)> {
        let rank = declared
            .trim_start_matches("memref<")
            .split('x')
            .filter(|d| *d == "?" || d.parse::<i64>().is_ok())
            .count();
        let elem = &data.elem.ty;
        if data.stream {
            return fail(
                op,
                format!(
                    "connector `{connector}`: stream `{}` cannot be viewed as a memref",
                    data.name
                ),
            );
        }
        if subset.ranges().iter().any(|r| r.tile.as_int() != Some(1)) {
            return fail(
                op,
                format!(
                    "connector `{connector}`: tiled subset `{subset}` cannot be viewed as a memref"
                ),
            );
        }
        let sizes: Vec<Expr> = subset.ranges().iter().map(Range::count).collect();
        let keep: Vec<usize> = if sizes.len() == rank {
            (0..rank).collect()
        } else {
            let non_unit: Vec<usize> = (0..sizes.len())
                .filter(|d| sizes[*d].as_int() != Some(1))
                .collect();
            if non_unit.len() != rank {
                return fail(
                    op,
                    format!("connector `{connector}` of type {declared} does not match its memlet subset `{subset}`"),
                );
            }
            non_unit
        };
        let offset = if data.scalar {
            return fail(
                op,
                format!("connector `{connector}` views a scalar as {declared}"),
            );
        } else {
            self.element_index(op, env, data, &subset.min_element())?
        };
        let mut size_values = Vec::new();
        let mut stride_values = Vec::new();
        for d in keep {
            size_values.push(self.emit_int(op, env, &sizes[d])?);
            let step = &subset.ranges()[d].step;
            let stride = Expr::mul(&data.strides[d], step);
            stride_values.push(self.emit_int(op, env, &stride)?);
        }
        let dims = vec!["?"; rank].join("x");
        let ty = if rank == 0 {
            format!("memref<{elem}, strided<[], offset: ?>>")
        } else {
            format!(
                "memref<{dims}x{elem}, strided<[{}], offset: ?>>",
                vec!["?"; rank].join(", ")
            )
        };
        let v = self.body.assign(format!(
            "memref.reinterpret_cast {} to offset: [{offset}], sizes: [{}], strides: [{}] : {} to {ty}",
            data.memref,
            size_values.join(", "),
            stride_values.join(", "),
            data.memref_type()
        ));
        Ok((v, ty))
    }

    fn lower_map(
        &mut self,
        map: Op<'a>,
        env: &HashMap<String, String>,
        parallel: &[String],
    ) -> Result<'a, ()> {
        let params = map.str_array_attr("params");
        let ranges = map.str_array_attr("ranges");
        let args = map.region_args(0);
        let inputs = map.operand_segment(0);
        let mut inner_env = env.clone();
        // Scope inputs alias their data; dynamic range inputs are read here.
        for (arg, input) in args.iter().zip(&inputs) {
            let v = self.lowered(map, *input)?;
            self.values.insert(*arg, v);
        }
        for edge in incoming_edges(map)
            .into_iter()
            .filter(|e| e.role == EdgeRole::Dynamic)
        {
            let name = edge.connector.unwrap_or_default().to_string();
            let value = match (self.lowered(map, edge.source)?, &edge.memlet) {
                (Lowered::Data(data), Some(memlet)) => {
                    let subset = parse_memlet_subset(map, &memlet.subset)?;
                    let v = self.load(map, env, &data, &subset.min_element())?;
                    convert(&mut self.body, &v, &data.elem, "index")
                }
                (Lowered::Value { ssa, elem }, _) => convert(&mut self.body, &ssa, &elem, "index"),
                _ => return fail(map, format!("dynamic input `{name}` has no data")),
            };
            inner_env.insert(name, value);
        }
        for (i, input) in map.operand_segment(1).iter().enumerate() {
            if let Some(arg) = args.get(inputs.len() + i) {
                let v = self.lowered(map, *input)?;
                self.values.insert(*arg, v);
            }
        }
        let schedule = map
            .attr("schedule")
            .and_then(Schedule::from_attr)
            .map_or("Default", |s| s.name());
        let sequential = matches!(schedule, "Sequential" | "Unrolled");
        let is_parallel = parallel.is_empty() && !sequential;
        let mut lows = Vec::new();
        let mut highs = Vec::new();
        let mut steps = Vec::new();
        let mut normalized = Vec::new();
        for (param, range) in params.iter().zip(&ranges) {
            let subset = parse_subset(range).map_err(|e| Failure {
                op: map,
                message: format!("range `{range}` of `{param}`: {e}"),
            })?;
            let [r] = subset.ranges() else {
                return fail(
                    map,
                    format!("range `{range}` of `{param}` is not one dimension"),
                );
            };
            if r.tile.as_int() != Some(1) {
                return fail(
                    map,
                    format!(
                        "range `{range}` of `{param}` has a tile size, which cannot be lowered yet"
                    ),
                );
            }
            if r.step.as_int().is_some_and(|s| s > 0) {
                lows.push(self.emit_int(map, &inner_env, &r.start)?);
                highs.push(self.emit_int(map, &inner_env, &r.end)?);
                steps.push(self.emit_int(map, &inner_env, &r.step)?);
                normalized.push(None);
            } else {
                // Any other step: count iterations k = 0 .. ceil((end -
                // start) / step) and compute param = start + k * step.
                let count = Expr::max(vec![
                    Expr::int(0),
                    Expr::ceildiv(&Expr::sub(&r.end, &r.start), &r.step),
                ]);
                lows.push(self.body.index(0));
                highs.push(self.emit_int(map, &inner_env, &count)?);
                steps.push(self.body.index(1));
                normalized.push(Some(r.clone()));
            }
        }
        let ivs: Vec<String> = params.iter().map(|_| self.body.fresh()).collect();
        if is_parallel {
            self.body.open(format!(
                "scf.parallel ({}) = ({}) to ({}) step ({})",
                ivs.join(", "),
                lows.join(", "),
                highs.join(", "),
                steps.join(", ")
            ));
        } else {
            for (i, iv) in ivs.iter().enumerate() {
                self.body.open(format!(
                    "scf.for {iv} = {} to {} step {}",
                    lows[i], highs[i], steps[i]
                ));
            }
        }
        for ((param, iv), norm) in params.iter().zip(&ivs).zip(&normalized) {
            let value = match norm {
                None => iv.clone(),
                Some(r) => {
                    let k = format!("__k_{param}");
                    let mut e = inner_env.clone();
                    e.insert(k.clone(), iv.clone());
                    let expr = Expr::add(&r.start, &Expr::mul(&Expr::symbol(&k), &r.step));
                    self.emit_int(map, &e, &expr)?
                }
            };
            inner_env.insert(param.to_string(), value);
        }
        let inner_parallel: Vec<String> = if is_parallel {
            params.iter().map(|p| p.to_string()).collect()
        } else {
            parallel.to_vec()
        };
        self.lower_scope_body(map, &mut inner_env, &inner_parallel)?;
        if is_parallel {
            self.body.close("");
        } else {
            for _ in &ivs {
                self.body.close("");
            }
        }
        for r in map.results() {
            self.values.insert(r, Lowered::Written);
        }
        Ok(())
    }

    /// Lowers the body of a map or consume scope with the transients
    /// private to it, allocated at its start and freed at its end.
    pub(super) fn lower_scope_body(
        &mut self,
        scope: Op<'a>,
        env: &mut HashMap<String, String>,
        parallel: &[String],
    ) -> Result<'a, ()> {
        let owned = self.owned_transients(Placement::Scope(scope));
        // Scalars live on the stack inside an `alloca_scope`, which
        // canonicalisation dissolves once the tasklets are inlined. Calls
        // of the stream runtime would keep it (and `scf-to-cf` cannot
        // lower its region), so a scope that uses streams keeps its scalars
        // on the heap.
        let uses_streams = scope.descendants().into_iter().any(|o| {
            o.is("sdfg.consume")
                || (o.is("sdfg.access")
                    && o.results()
                        .first()
                        .is_some_and(|r| layout(r.ty()).is_ok_and(|l| l.stream)))
        });
        let on_stack = !uses_streams
            && owned
                .iter()
                .any(|a| layout(a.results()[0].ty()).is_ok_and(|l| l.scalar));
        if on_stack {
            self.body.open("memref.alloca_scope");
        }
        let mut frees = Vec::new();
        for alloc in owned {
            let data = self.allocate_scoped(alloc, env, &mut frees, on_stack)?;
            if !parallel.is_empty() {
                self.iteration_private.insert(data.name.clone());
            }
            self.containers.by_name.insert(data.name.clone(), data);
        }
        let body_ops = scope.region_ops(0);
        self.lower_dataflow(&body_ops, env, parallel)?;
        for allocation in frees {
            self.release(&allocation);
        }
        if on_stack {
            self.body.close("");
        }
        Ok(())
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
    ) -> Result<'a, Data> {
        let data = self.allocate(alloc, env, false, stack_scalars)?;
        if (!data.scalar || !stack_scalars) && !data.memref.is_empty() {
            frees.push(Allocation {
                memref: data.memref.clone(),
                ty: data.memref_type(),
                stream: data.stream,
            });
        }
        Ok(data)
    }

    /// Writes the edges into a scope's exit to the data the scope's
    /// outputs reach.
    fn lower_exit(
        &mut self,
        exit: Op<'a>,
        env: &HashMap<String, String>,
        parallel: &[String],
    ) -> Result<'a, ()> {
        let Some(scope) = exit.parent() else {
            return fail(exit, "has no scope");
        };
        for edge in incoming_edges(exit) {
            let Some(memlet) = &edge.memlet else { continue };
            let connector = edge.connector.unwrap_or_default();
            let wcr = Reduction::of(&memlet.wcr).map_err(|m| Failure {
                op: exit,
                message: m,
            })?;
            match self.lowered(exit, edge.source)? {
                Lowered::Written => {}
                Lowered::Value { ssa, elem } => {
                    let data = self.output_data(scope, connector, env)?;
                    let subset = parse_memlet_subset(exit, &memlet.subset)?;
                    self.store(exit, env, &ssa, &elem, &data, &subset, wcr, parallel)?;
                }
                Lowered::Data(source) => {
                    let data = self.output_data(scope, connector, env)?;
                    let from_access = edge
                        .source
                        .defining_op()
                        .is_some_and(|o| o.is("sdfg.access"));
                    if from_access && data.stream && !source.stream {
                        // DaCe pushes the volume of the stream's subset from
                        // the source's first element on.
                        let subset = parse_memlet_subset(exit, &memlet.subset)?;
                        let from = match &memlet.other {
                            Some(o) => parse_memlet_subset(exit, o)?.min_element(),
                            None => vec![Expr::int(0); source.shape.len()],
                        };
                        self.push_from(
                            exit,
                            env,
                            &source,
                            &from,
                            &subset.volume(),
                            &data,
                            &subset.min_element(),
                        )?;
                    } else if from_access {
                        let copy = Memlet {
                            subset: memlet
                                .other
                                .clone()
                                .unwrap_or_else(|| memlet.subset.clone()),
                            other: Some(memlet.subset.clone()),
                            ..memlet.clone()
                        };
                        let copy = if memlet.other.is_none() {
                            let full: Vec<String> =
                                source.shape.iter().map(|s| format!("0:{s}")).collect();
                            Memlet {
                                subset: if full.is_empty() {
                                    "0".into()
                                } else {
                                    full.join(", ")
                                },
                                ..copy
                            }
                        } else {
                            copy
                        };
                        self.copy(exit, env, &source, &data, &copy, wcr, parallel)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// The data an output connector of a scope writes to: followed out
    /// through enclosing exits to an access node.
    fn output_data(
        &mut self,
        scope: Op<'a>,
        connector: &str,
        env: &HashMap<String, String>,
    ) -> Result<'a, Data> {
        let names = scope.str_array_attr("out_names");
        let Some(index) = names.iter().position(|n| *n == connector) else {
            return fail(scope, format!("has no output connector `{connector}`"));
        };
        let result = scope.results()[index];
        for (user, operand) in result.uses() {
            match user.name() {
                "sdfg.access" => return self.access_data(user, env),
                "sdfg.exit" => {
                    let outer = user.str_array_attr("names");
                    let Some(parent) = user.parent() else {
                        continue;
                    };
                    if let Some(name) = outer.get(operand) {
                        return self.output_data(parent, name, env);
                    }
                }
                _ => {}
            }
        }
        fail(scope, format!("output `{connector}` reaches no data"))
    }

    fn lower_nested(
        &mut self,
        nested: Op<'a>,
        env: &HashMap<String, String>,
        parallel: &[String],
    ) -> Result<'a, ()> {
        let Some(inner) = nested.region_ops(0).into_iter().find(|o| o.is("sdfg.sdfg")) else {
            return fail(nested, "holds no sdfg.sdfg");
        };
        let label = nested.str_attr("label").unwrap_or("nested");
        let name = self.module.unique(&format!(
            "{}_{label}",
            self.sdfg.symbol_name().unwrap_or("sdfg")
        ));
        let shared = !parallel.is_empty() || self.shared_arguments;
        let free = lower_function(self.module, inner, &name, true, shared)?;
        let inputs: Vec<_> = incoming_edges(nested)
            .into_iter()
            .filter(|e| e.role == EdgeRole::Input)
            .collect();
        let out_names = nested.str_array_attr("out_names");
        let results = nested.results();
        let mut operands = Vec::new();
        let mut types = Vec::new();
        let mut write_backs = Vec::new();
        for (arg, arg_name) in inner
            .region_args(0)
            .into_iter()
            .zip(inner.str_array_attr("arg_names"))
        {
            let inner_layout = layout(arg.ty()).map_err(|m| Failure {
                op: nested,
                message: format!("argument `{arg_name}`: {m}"),
            })?;
            // The outer data and subset: the input edge, else the output's
            // destination memlet.
            let (outer, subset) = match inputs.iter().find(|e| e.connector == Some(arg_name)) {
                Some(edge) => {
                    let Lowered::Data(data) = self.lowered(nested, edge.source)? else {
                        return fail(nested, format!("input `{arg_name}` is not data"));
                    };
                    let memlet = edge.memlet.clone().map(|m| m.subset).unwrap_or_default();
                    (data, memlet)
                }
                None => {
                    let Some(k) = out_names.iter().position(|n| *n == arg_name) else {
                        return fail(
                            nested,
                            format!("argument `{arg_name}` is connected to nothing"),
                        );
                    };
                    self.nested_output(nested, results[k], env)?
                }
            };
            let subset = if subset.is_empty() {
                None
            } else {
                Some(parse_memlet_subset(nested, &subset)?)
            };
            let is_output = out_names.contains(&arg_name);
            if inner_layout.scalar {
                // By value: a rank-0 copy of the element, written back for
                // outputs.
                let point = subset.as_ref().map(|s| s.min_element()).unwrap_or_default();
                let cell_ty = format!("memref<{}>", inner_layout.elem.ty);
                let cell = if outer.scalar {
                    outer.memref.clone()
                } else {
                    let cell = self.body.assign(format!("memref.alloca() : {cell_ty}"));
                    let v = self.load(nested, env, &outer, &point)?;
                    let v = convert(&mut self.body, &v, &outer.elem, &inner_layout.elem.ty);
                    self.body
                        .line(format!("memref.store {v}, {cell}[] : {cell_ty}"));
                    if is_output {
                        write_backs.push((cell.clone(), outer.clone(), point));
                    }
                    cell
                };
                operands.push(cell);
                types.push(cell_ty);
            } else {
                if outer.scalar {
                    return fail(
                        nested,
                        format!("argument `{arg_name}` is an array but its data is a scalar"),
                    );
                }
                if outer.stream != inner_layout.stream {
                    return fail(
                        nested,
                        format!("argument `{arg_name}` is a stream but its data is not, or the other way round"),
                    );
                }
                if outer.elem.ty != inner_layout.elem.ty {
                    return fail(
                        nested,
                        format!("argument `{arg_name}` has another element type than its data"),
                    );
                }
                let base = match &subset {
                    Some(s) => self.element_index(nested, env, &outer, &s.min_element())?,
                    None => match &outer.base {
                        Some(b) => b.clone(),
                        None => self.body.index(0),
                    },
                };
                operands.push(outer.memref.clone());
                types.push(outer.memref_type());
                operands.push(base);
                types.push("index".into());
            }
        }
        let names = nested.str_array_attr("symbol_names");
        let values = nested.str_array_attr("symbol_values");
        for s in &free {
            let v = match names.iter().position(|n| n == s) {
                Some(k) => {
                    let expr = parse_expr(nested, values[k])?;
                    self.emit_int(nested, env, &expr)?
                }
                None => match env.get(s) {
                    Some(v) => v.clone(),
                    None => {
                        return fail(
                            nested,
                            format!("symbol `{s}` of the nested SDFG has no value"),
                        )
                    }
                },
            };
            operands.push(v);
            types.push("index".into());
        }
        self.body.line(format!(
            "func.call @{name}({}) : ({}) -> ()",
            operands.join(", "),
            types.join(", ")
        ));
        for (cell, outer, point) in write_backs {
            let v = self
                .body
                .assign(format!("memref.load {cell}[] : memref<{}>", outer.elem.ty));
            let subset = Subset::indices(point);
            self.store(
                nested,
                env,
                &v,
                &outer.elem,
                &outer,
                &subset,
                None,
                parallel,
            )?;
        }
        for r in results {
            self.values.insert(r, Lowered::Written);
        }
        Ok(())
    }

    /// The data and subset a nested SDFG's output is written to.
    pub(super) fn nested_output(
        &mut self,
        nested: Op<'a>,
        result: Val<'a>,
        env: &HashMap<String, String>,
    ) -> Result<'a, (Data, String)> {
        for (user, operand) in result.uses() {
            match user.name() {
                "sdfg.access" => {
                    let writes = user.operand_segment(1);
                    let memlets = user.array_attr("write_memlets");
                    let position = writes.iter().position(|w| *w == result).unwrap_or(0);
                    let subset = memlets
                        .get(position)
                        .copied()
                        .and_then(Memlet::from_attr)
                        .map(|m| m.subset)
                        .unwrap_or_default();
                    return Ok((self.access_data(user, env)?, subset));
                }
                "sdfg.exit" => {
                    let names = user.str_array_attr("names");
                    let memlets = user.array_attr("memlets");
                    let Some(parent) = user.parent() else {
                        continue;
                    };
                    let subset = memlets
                        .get(operand)
                        .copied()
                        .and_then(Memlet::from_attr)
                        .map(|m| m.subset)
                        .unwrap_or_default();
                    if let Some(name) = names.get(operand) {
                        return Ok((self.output_data(parent, name, env)?, subset));
                    }
                }
                _ => {}
            }
        }
        fail(nested, "an output reaches no data")
    }
}

/// The `k`-th index a range covers: `start + k * step`, or with tiles
/// `start + (k // tile) * step + k % tile`.
pub(super) fn range_index(r: &Range, k: &Expr) -> Expr {
    if r.tile.as_int() == Some(1) {
        return Expr::add(&r.start, &Expr::mul(k, &r.step));
    }
    let origin = Expr::mul(&Expr::floordiv(k, &r.tile), &r.step);
    Expr::add(&Expr::add(&r.start, &origin), &Expr::modulo(k, &r.tile))
}

/// For a view node without a `bind` edge: the access node it is written
/// back into and that node's subset. The importer keeps DaCe's view edge as
/// `bind` when it is the incoming one, so an unbound view's outgoing edge to
/// data is its view edge (DaCe's `views` connector): it binds the view and
/// moves nothing.
fn view_write_back(view: Op<'_>) -> Option<(Op<'_>, String)> {
    if incoming_edges(view)
        .iter()
        .any(|e| e.role == EdgeRole::Bind)
    {
        return None;
    }
    let is_view = |node: Op<'_>| {
        accessed_container(node)
            .and_then(|c| sdfg_dialect::Container::from_type(c.ty()))
            .is_some_and(|c| c.kind == sdfg_dialect::ContainerKind::View)
    };
    if !is_view(view) {
        return None;
    }
    let node = view.results()[0];
    node.uses().into_iter().find_map(|(user, operand)| {
        if !user.is("sdfg.access") || operand == 0 {
            return None;
        }
        let k = user.operand_segment(1).iter().position(|w| *w == node)?;
        let memlet = user
            .array_attr("write_memlets")
            .get(k)
            .copied()
            .and_then(Memlet::from_attr)?;
        Some((user, memlet.other.unwrap_or(memlet.subset)))
    })
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

/// Symbols that an inter-state condition or assignment reads before any
/// assignment defines them, visiting blocks breadth-first from the start
/// block as DaCe's `free_symbols` does: DaCe passes them as arguments.
fn symbols_read_before_assigned(sdfg: Op<'_>) -> BTreeSet<String> {
    fn visit(owner: Op<'_>, defined: &mut BTreeSet<String>, out: &mut BTreeSet<String>) {
        let ops = owner.region_ops(0);
        let blocks: Vec<Op> = ops
            .iter()
            .copied()
            .filter(|o| CONTROL_FLOW_BLOCKS.contains(&o.name()))
            .collect();
        let edges: Vec<Op> = ops.iter().copied().filter(|o| o.is("sdfg.edge")).collect();
        let read = |text: &str, defined: &BTreeSet<String>, out: &mut BTreeSet<String>| {
            if let Ok(e) = parse(text) {
                out.extend(
                    e.free_symbols()
                        .into_iter()
                        .filter(|s| !defined.contains(s)),
                );
            }
        };
        let mut seen = BTreeSet::new();
        let mut queue: std::collections::VecDeque<Op> =
            blocks.first().copied().into_iter().collect();
        while let Some(block) = queue.pop_front() {
            let name = block.symbol_name().unwrap_or_default();
            if !seen.insert(name.to_string()) {
                continue;
            }
            if block.is("sdfg.state") {
                out.extend(
                    symbols_used_in_state(block)
                        .into_iter()
                        .filter(|s| !defined.contains(s)),
                );
            }
            if block.is("sdfg.loop") {
                for key in ["init", "cond", "update"] {
                    if let Some(t) = block.str_attr(key) {
                        read(t, defined, out);
                    }
                    if key == "init" {
                        defined.extend(block.str_attr("var").map(String::from));
                    }
                }
            }
            if !block.is("sdfg.state") && block.num_regions() > 0 {
                for inner in std::iter::once(block).chain(
                    block
                        .region_ops(0)
                        .into_iter()
                        .filter(|o| o.is("sdfg.branch")),
                ) {
                    if let Some(c) = inner.str_attr("condition") {
                        read(c, defined, out);
                    }
                    visit(inner, defined, out);
                }
            }
            for edge in edges
                .iter()
                .filter(|e| e.symbol_ref_attr("src") == Some(name))
            {
                if let Some(c) = edge.str_attr("condition") {
                    read(c, defined, out);
                }
                for v in edge.str_array_attr("assign_values") {
                    read(v, defined, out);
                }
                defined.extend(
                    edge.str_array_attr("assign_names")
                        .into_iter()
                        .map(String::from),
                );
                let dst = edge.symbol_ref_attr("dst").unwrap_or_default();
                queue.extend(
                    blocks
                        .iter()
                        .copied()
                        .filter(|b| b.symbol_name() == Some(dst)),
                );
            }
        }
    }
    let mut out = BTreeSet::new();
    visit(sdfg, &mut BTreeSet::new(), &mut out);
    out
}

/// The symbols a state's dataflow reads (memlet subsets, map ranges,
/// symbolic values in tasklets, nested-SDFG symbol mappings), without the
/// parameters of its maps.
fn symbols_used_in_state(state: Op<'_>) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    let mut params = BTreeSet::new();
    let subset = |text: &str, used: &mut BTreeSet<String>| {
        if let Ok(s) = parse_subset(text) {
            used.extend(s.free_symbols());
        }
    };
    for op in state.descendants() {
        if op.is("sdfg.nested") {
            // The nested SDFG's own symbols are not this state's.
            for v in op.str_array_attr("symbol_values") {
                if let Ok(e) = parse(v) {
                    used.extend(e.free_symbols());
                }
            }
            continue;
        }
        if op.ancestor("sdfg.sdfg") != state.ancestor("sdfg.sdfg") {
            continue;
        }
        for key in ["in_memlets", "write_memlets", "dyn_memlets", "memlets"] {
            for attr in op.array_attr(key) {
                if let Some(m) = Memlet::from_attr(attr) {
                    subset(&m.subset, &mut used);
                    if let Some(o) = &m.other {
                        subset(o, &mut used);
                    }
                }
            }
        }
        if let Some(m) = op.attr("source_memlet").and_then(Memlet::from_attr) {
            subset(&m.subset, &mut used);
        }
        if op.is("sdfg.map") {
            params.extend(op.str_array_attr("params").into_iter().map(String::from));
            for r in op.str_array_attr("ranges") {
                subset(r, &mut used);
            }
        }
        if op.is("sdfg.sym") {
            if let Some(e) = op.str_attr("expr").and_then(|t| parse(t).ok()) {
                used.extend(e.free_symbols());
            }
        }
    }
    used.retain(|s| !params.contains(s));
    used
}

/// Whether any expression of `sdfg` (inter-state conditions and
/// assignments, loop and branch expressions, dataflow) reads `name`.
fn symbol_is_read(sdfg: Op<'_>, name: &str) -> bool {
    let mentions = |text: &str| parse(text).is_ok_and(|e| e.mentions(name));
    sdfg.descendants().into_iter().any(|op| {
        if op.ancestor("sdfg.sdfg") != Some(sdfg) && !op.is("sdfg.state") {
            return false;
        }
        match op.name() {
            "sdfg.state" => {
                op.ancestor("sdfg.sdfg") == Some(sdfg) && symbols_used_in_state(op).contains(name)
            }
            "sdfg.edge" => {
                op.str_attr("condition").is_some_and(mentions)
                    || op.str_array_attr("assign_values").into_iter().any(mentions)
            }
            "sdfg.loop" => ["init", "cond", "update"]
                .iter()
                .any(|k| op.str_attr(k).is_some_and(mentions)),
            "sdfg.branch" => op.str_attr("condition").is_some_and(mentions),
            _ => false,
        }
    })
}

/// Symbols assigned by inter-state edges or loops of `sdfg` (not of nested
/// SDFGs).
fn assigned_symbols(sdfg: Op<'_>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack = vec![sdfg];
    while let Some(owner) = stack.pop() {
        for op in owner.region_ops(0) {
            match op.name() {
                "sdfg.edge" => out.extend(
                    op.str_array_attr("assign_names")
                        .into_iter()
                        .map(String::from),
                ),
                "sdfg.loop" => {
                    if let Some(v) = op.str_attr("var") {
                        out.insert(v.to_string());
                    }
                    stack.push(op);
                }
                "sdfg.conditional" | "sdfg.branch" | "sdfg.region" | "sdfg.call_region" => {
                    stack.push(op)
                }
                _ => {}
            }
        }
    }
    out
}

/// Whether every parallel parameter pins a dimension of `subset` to a
/// single index that no other parameter moves: then no two parallel
/// iterations write the same element.
fn private_to_iteration(subset: &Subset, parallel: &[String]) -> bool {
    parallel.iter().all(|p| {
        subset.ranges().iter().any(|r| {
            if !r.is_index() {
                return false;
            }
            let rest = Expr::sub(&r.start, &Expr::symbol(p));
            let symbols = rest.free_symbols();
            r.start.mentions(p) && !parallel.iter().any(|q| symbols.contains(q))
        })
    })
}

fn parse_expr<'a>(op: Op<'a>, text: &str) -> Result<'a, Expr> {
    parse(text).map_err(|e| Failure {
        op,
        message: format!("invalid symbolic expression `{text}`: {e}"),
    })
}

pub(super) fn parse_memlet_subset<'a>(op: Op<'a>, text: &str) -> Result<'a, Subset> {
    parse_subset(text).map_err(|e| Failure {
        op,
        message: format!("invalid memlet subset `{text}`: {e}"),
    })
}
