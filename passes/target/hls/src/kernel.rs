//! The kernel: an FPGA-scheduled SDFG as one Vitis HLS top-level function.
//!
//! The SDFG's top-level control flow is a chain: states that only copy
//! host arrays into `FPGA_Global` ones (what `sdfg-fpga-transform` puts
//! first), the kernel's blocks, and states that copy them back. The
//! copies are the host's part (the testbench performs them); the blocks
//! between them are the kernel:
//!
//! ```text
//! void gemv(double *fpga_A, double *fpga_x, double *fpga_y, long long N) {
//! #pragma HLS INTERFACE m_axi port=fpga_A offset=slave bundle=gmem0
//! ...
//! #pragma HLS INTERFACE s_axilite port=N bundle=control
//! #pragma HLS INTERFACE s_axilite port=return bundle=control
//!   gemv_map_0(fpga_A, fpga_x, fpga_y, N);   // one function per FPGA_Device scope
//! }
//! ```
//!
//! Each `FPGA_Device` scope is a function of its own (a processing
//! element), taking the containers and symbols it uses. Maps are loop
//! nests: the innermost loop of an innermost map is pipelined
//! (`PIPELINE II=1`), an `unroll` map unrolled; tasklets are blocks of
//! C++ statements between the reads and the writes of their memlets.
//! A state whose processing elements share no data that one of them
//! writes runs them as a `DATAFLOW` region; otherwise they run in order.
//!
//! What needs more than a direct translation:
//!
//! - **Accumulations a pipelined loop carries.** A floating-point
//!   resolution into an element the loop's variable does not move would
//!   make each iteration wait for the adder; it goes into an interleaved
//!   accumulator (DaCe's partial sums, `Partial`) merged after the loop,
//!   or is reported where that cannot be done.
//! - **Views** are the data they view, bound where their access node is
//!   (`Emitter::bind_view`): no copy, the viewed array indexed from the
//!   bound subset's first element at the view's strides.
//! - **Jumps out of state machines** (a loop over a `switch`) are noted in
//!   a variable and taken once the machine has stopped (`Jump`).
//!
//! `docs/HLS.md` has the table of every construct.

use crate::cexpr::{element_type, identifier, CEmitter};
use crate::tasklet::{Body, Place, Target, Window};
use sdfg_analysis::symbols::assigned_symbols;
use sdfg_dialect::ir::{type_to_string, Op, Val};
use sdfg_dialect::layout::{layout, Layout};
use sdfg_dialect::{
    container_name, declared_symbols, incoming_edges, underlying_container, EdgeRole, Memlet,
    Schedule, Wcr,
};
use sdfg_symbolic::{parse, parse_subset, Assumptions, Expr, Range, Subset};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// A failure: the op to report at and the message.
pub struct Failure<'a> {
    /// The offending op.
    pub op: Op<'a>,
    /// What is wrong.
    pub message: String,
}

type Result<'a, T> = std::result::Result<T, Failure<'a>>;

fn fail<'a, T>(op: Op<'a>, message: impl Into<String>) -> Result<'a, T> {
    Err(Failure {
        op,
        message: message.into(),
    })
}

fn key(v: &Val<'_>) -> usize {
    v.raw().ptr as usize
}

/// What a kernel parameter is.
#[derive(Clone, Debug)]
pub enum ParamKind {
    /// An array in `FPGA_Global` memory (`T *name`, `m_axi`).
    Global {
        /// The layout (shape, strides, offsets).
        layout: Layout,
        /// Whether the SDFG declares it transient (the host allocates it).
        transient: bool,
        /// How many elements the host allocates, in free symbols (a
        /// transient sized by a loop's variable gets its largest size).
        size: Expr,
    },
    /// A scalar argument read by value (`s_axilite`).
    Scalar,
    /// A scalar argument the kernel writes (`T *name`, `m_axi`, depth 1).
    ScalarOut,
    /// A free symbol (`s_axilite`).
    Symbol,
}

/// One parameter of the kernel function.
#[derive(Clone, Debug)]
pub struct Param {
    /// The DaCe name.
    pub dace: String,
    /// The C++ name.
    pub name: String,
    /// The C++ element (or symbol) type.
    pub ty: String,
    /// What it is.
    pub kind: ParamKind,
}

/// The kernel and what the host does around it.
pub struct Kernel {
    /// The C++ translation unit (without the testbench).
    pub code: String,
    /// The kernel function's name.
    pub name: String,
    /// Its parameters, in order.
    pub params: Vec<Param>,
    /// Host copies before the kernel: (host array, kernel parameter).
    pub copies_in: Vec<(String, String)>,
    /// Host copies after the kernel: (kernel parameter, host array).
    pub copies_out: Vec<(String, String)>,
    /// The SDFG's non-transient containers: (DaCe name, C++ type, layout).
    pub host: Vec<(String, String, Layout)>,
    /// The SDFG's integer constants, which sizes may name.
    pub constants: Vec<(String, i64)>,
}

/// Where a container lives in the emitted code.
#[derive(Clone, Debug, PartialEq)]
enum Home {
    /// A pointer parameter of the kernel.
    Global,
    /// A fixed-size local array of the kernel (`T name[size]`).
    Local(i64),
    /// A scalar variable of the kernel.
    Register,
    /// A scalar parameter read by value.
    Value,
    /// A scalar parameter written through a pointer.
    Pointer,
    /// Host memory: not accessible to the kernel.
    Host,
    /// A nested SDFG's scalar argument: this lvalue of the outer data.
    Alias(String),
    /// `count` streams (`hls::stream<T, depth>`, an array of them where
    /// `count > 1`).
    Stream {
        /// How many streams (the product of the stream array's shape).
        count: i64,
        /// The depth of each (the container's buffer size).
        depth: i64,
    },
}

#[derive(Clone, Debug)]
struct Info {
    name: String,
    dace: String,
    ty: String,
    layout: Layout,
    home: Home,
    partition: bool,
    /// The linear index of element 0 (a nested SDFG's argument starts at
    /// its memlet's first element of the outer data).
    base: Option<String>,
    /// Whether the kernel function declares it (not a nested SDFG's).
    kernel_level: bool,
    /// The values of a constant array (DaCe's array constants), as a C++
    /// initializer list.
    init: Option<String>,
}

/// Lines of code at an indentation depth.
#[derive(Default)]
struct Code {
    lines: Vec<String>,
    depth: usize,
}

impl Code {
    fn line(&mut self, text: impl AsRef<str>) {
        self.lines
            .push(format!("{}{}", "  ".repeat(self.depth), text.as_ref()));
    }
    fn open(&mut self, text: impl AsRef<str>) {
        self.line(text);
        self.depth += 1;
    }
    fn close(&mut self) {
        self.depth -= 1;
        self.line("}");
    }
}

/// What a `break` or `continue` block leaves.
#[derive(Clone)]
enum Jump {
    /// A C++ loop (`for` or `do`/`while`): C++'s `break` and `continue`.
    Loop,
    /// A state machine (a loop over a `switch`): the jump is noted in the
    /// variable, 1 for `break` and 2 for `continue`; the machine stops
    /// after the block that jumped and passes the jump on outwards.
    Machine(String),
}

/// A pipelined loop being emitted.
struct Pipeline<'a> {
    /// The line of its `PIPELINE` pragma.
    line: usize,
    /// The C++ names of the loop variables of its map (the last is the
    /// pipelined loop's).
    variables: Vec<String>,
    /// How many loop variables are in scope in its body, outside inner
    /// (unrolled) loops.
    in_scope: usize,
    /// The containers its map reads, unless it holds nested SDFGs (whose
    /// reads are of other containers): where neither holds an
    /// accumulation's target, partial sums can stand for it.
    reads: Option<Vec<Val<'a>>>,
    /// Its constant trip count.
    trips: Option<i64>,
    /// The interleaved accumulators standing for targets of
    /// floating-point accumulations that do not move with the loop.
    partials: Vec<Partial>,
    /// The variable of the accumulators' slot.
    slot: String,
    /// The target of a floating-point accumulation that does not move with
    /// the pipelined loop and has no interleaved accumulator.
    carried: Option<String>,
}

/// An interleaved accumulator: `LANES` partial results of a
/// floating-point accumulation, one per slot, that the pipelined loop
/// updates in turn, so that an update waits for the one `LANES`
/// iterations back instead of the previous one (DaCe's partial sums).
struct Partial {
    /// The C++ array of the partial results.
    name: String,
    /// The element type.
    ty: String,
    /// The accumulation's target, which takes the partial results after
    /// the loop.
    target: String,
    /// The accumulation's resolution.
    wcr: Wcr,
    /// The identity of the resolution, where each partial result starts.
    identity: String,
    /// The resolution that merges a partial result into the target.
    combine: Wcr,
    /// The number of slots.
    lanes: i64,
}

/// The most slots of an interleaved accumulator: more than the latency of
/// a floating-point adder or multiplier in Vitis HLS's libraries at the
/// usual clock rates (up to 12 cycles for a double-precision adder).
const LANES: i64 = 16;

struct Emitter<'a> {
    containers: HashMap<usize, Info>,
    symbols: BTreeMap<String, String>,
    /// Scalar containers that expressions read by name: DaCe name to the
    /// C++ expression and the C++ name.
    scalars: BTreeMap<String, (String, String)>,
    /// The containers of the SDFG being emitted, by DaCe name.
    by_name: BTreeMap<String, usize>,
    /// Local containers that one device scope alone uses: container to
    /// scope.
    owners: HashMap<usize, usize>,
    /// What each device scope's function declares itself.
    scope_locals: HashMap<usize, Vec<Info>>,
    /// The views: container to DaCe name and layout. A view's `Info` is
    /// the viewed data's, from the access node that binds it on.
    views: HashMap<usize, (String, Layout)>,
    /// The kernel-level names a bound view's first element depends on (a
    /// loop's variable, say): a function that reads the view takes them.
    view_uses: HashMap<usize, BTreeSet<String>>,
    /// The pipelined loops around the code being emitted.
    pipelines: Vec<Pipeline<'a>>,
    /// The loops and state machines around the block being emitted,
    /// innermost last: where a `break` or `continue` block goes.
    jumps: Vec<Jump>,
    /// Scope parameters in scope, DaCe name to C++ name.
    params: Vec<(String, String)>,
    /// Tasklet outputs: value to C++ variable.
    values: HashMap<usize, String>,
    /// Kernel-level names the code being emitted reads or writes.
    used: BTreeSet<String>,
    functions: Vec<String>,
    code: Code,
    next: usize,
    _ops: std::marker::PhantomData<Op<'a>>,
}

/// Emits the kernel of `sdfg`.
pub fn emit<'a>(sdfg: Op<'a>) -> Result<'a, Kernel> {
    let name = identifier(sdfg.symbol_name().unwrap_or("kernel"));
    let mut e = Emitter {
        containers: HashMap::new(),
        symbols: BTreeMap::new(),
        scalars: BTreeMap::new(),
        by_name: BTreeMap::new(),
        owners: HashMap::new(),
        scope_locals: HashMap::new(),
        views: HashMap::new(),
        view_uses: HashMap::new(),
        pipelines: Vec::new(),
        jumps: Vec::new(),
        params: Vec::new(),
        values: HashMap::new(),
        used: BTreeSet::new(),
        functions: Vec::new(),
        code: Code::default(),
        next: 0,
        _ops: std::marker::PhantomData,
    };
    // Containers in host memory that the kernel uses are reported below
    // (the program needs sdfg-fpga-transform); library nodes here.
    if let Some(op) = sdfg
        .descendants()
        .into_iter()
        .find(|o| o.is("sdfg.library"))
    {
        return fail(
            op,
            "is a library node, which the HLS emitter does not implement (expand it first: sdfg-expand-library-nodes)",
        );
    }

    // The blocks: host copies first and last, the kernel between.
    let (pre, blocks, post) = split_host(sdfg)?;
    let mut copies_in = Vec::new();
    let mut copies_out = Vec::new();
    for (states, out) in [(&pre, &mut copies_in), (&post, &mut copies_out)] {
        for state in states.iter() {
            for (from, to) in host_copies(*state).unwrap_or_default() {
                out.push((
                    container_name(from).unwrap_or_default(),
                    container_name(to).unwrap_or_default(),
                ));
            }
        }
    }

    // Array constants: name to (initializer, number of values).
    let array_constants: HashMap<String, (String, usize)> = sdfg
        .attr("constants")
        .map(sdfg_dialect::ir::dictionary_entries)
        .unwrap_or_default()
        .into_iter()
        .filter_map(|(name, value)| {
            Some((
                name.to_string(),
                dense_values(&sdfg_dialect::ir::attr_to_string(value))?,
            ))
        })
        .collect();

    // The ranges of the loops' variables, and the symbols the program
    // defines itself.
    let defined = sdfg_analysis::symbols::defined_symbols(sdfg);
    let loops = loop_ranges(sdfg);

    // Containers; those that unrolled maps read or write are partitioned
    // into registers.
    let mut unrolled = BTreeSet::new();
    for map in sdfg
        .descendants()
        .into_iter()
        .filter(|o| o.is("sdfg.map") && o.attr("unroll").is_some())
    {
        for v in map.operand_segment(0) {
            unrolled.insert(key(&underlying_container(v)));
        }
        for r in map.results() {
            for (user, _) in r.uses() {
                if user.is("sdfg.access") {
                    unrolled.insert(key(&user.operands()[0]));
                }
            }
        }
    }
    let arg_names = sdfg.str_array_attr("arg_names");
    let mut host = Vec::new();
    let mut params = Vec::new();
    let mut locals = Vec::new();
    let mut local_values = Vec::new();
    let mut containers: Vec<(Val<'a>, String, bool)> = sdfg
        .region_args(0)
        .into_iter()
        .enumerate()
        .map(|(k, v)| {
            (
                v,
                arg_names.get(k).copied().unwrap_or_default().to_string(),
                false,
            )
        })
        .collect();
    containers.extend(
        sdfg.region_ops(0)
            .into_iter()
            .filter(|o| o.is("sdfg.alloc"))
            .map(|o| {
                (
                    o.results()[0],
                    o.str_attr("name").unwrap_or_default().to_string(),
                    true,
                )
            }),
    );
    // Names read by conditions, assignments and ranges in the kernel.
    let mentioned: BTreeSet<String> = blocks
        .iter()
        .flat_map(|b| sdfg_dialect::mention_counts(*b).into_keys())
        .collect();
    let in_kernel = |v: &Val<'a>| {
        v.uses()
            .iter()
            .any(|(user, _)| blocks.iter().any(|b| user.is_within(*b)))
    };
    let written_in_kernel = |v: &Val<'a>| {
        v.uses().iter().any(|(user, _)| {
            blocks.iter().any(|b| user.is_within(*b))
                && user.is("sdfg.access")
                && !user.operand_segment(1).is_empty()
        })
    };
    for (value, dace, transient) in containers {
        let owner = value.defining_op().unwrap_or(sdfg);
        let (layout, ty) = container_layout(owner, &dace, value)?;
        let cname = identifier(&dace);
        if !transient {
            host.push((dace.clone(), ty.clone(), layout.clone()));
        }
        let storage = layout.storage.name();
        let used = in_kernel(&value) || (layout.scalar && mentioned.contains(&dace));
        if layout.view && !layout.reference {
            e.views.insert(key(&value), (dace.clone(), layout));
            continue;
        }
        if layout.reference || (layout.stream && !transient) {
            if used {
                let what = if layout.stream {
                    "a stream argument"
                } else {
                    "a reference"
                };
                return fail(
                    owner,
                    format!(
                        "container '{dace}' is {what}, which the HLS emitter does not support yet"
                    ),
                );
            }
            continue;
        }
        // An array constant is on-chip memory with its values.
        let initializer = array_constants.get(&dace).cloned();
        let home = if layout.stream {
            stream_home(value.ty(), &layout).map_err(|message| Failure {
                op: owner,
                message: format!("stream '{dace}': {message}"),
            })?
        } else if let Some(values) = &initializer {
            let size = total_size(&layout)
                .filter(|n| *n as usize == values.1)
                .ok_or_else(|| Failure {
                    op: owner,
                    message: format!(
                        "constant array '{dace}' does not have a constant size matching its values"
                    ),
                })?;
            Home::Local(size)
        } else if layout.scalar {
            if transient {
                Home::Register
            } else if written_in_kernel(&value) {
                Home::Pointer
            } else {
                Home::Value
            }
        } else if storage == "FPGA_Global" {
            Home::Global
        } else if transient && (storage == "FPGA_Local" || storage == "FPGA_Registers") {
            let size = local_size(&layout, &loops, &defined).ok_or_else(|| Failure {
                op: owner,
                message: format!(
                    "local container '{dace}' has no constant size or bound on it, which on-chip memory needs"
                ),
            })?;
            Home::Local(size)
        } else {
            if used {
                return fail(
                    owner,
                    format!("container '{dace}' is in {storage} storage, which the kernel cannot access (run sdfg-fpga-transform first)"),
                );
            }
            Home::Host
        };
        let partition = unrolled.contains(&key(&value));
        match home {
            Home::Global
                if used
                    || copies_in
                        .iter()
                        .chain(&copies_out)
                        .any(|(a, b)| *a == dace || *b == dace) =>
            {
                let size = allocation_size(&layout, &loops, &defined).ok_or_else(|| Failure {
                    op: owner,
                    message: format!(
                        "container '{dace}' is sized by symbols the program defines itself, whose largest value is not known: the host cannot allocate it"
                    ),
                })?;
                params.push(Param {
                    dace: dace.clone(),
                    name: cname.clone(),
                    ty: ty.clone(),
                    kind: ParamKind::Global {
                        layout: layout.clone(),
                        transient,
                        size,
                    },
                })
            }
            Home::Value | Home::Pointer if used => params.push(Param {
                dace: dace.clone(),
                name: cname.clone(),
                ty: ty.clone(),
                kind: if home == Home::Value {
                    ParamKind::Scalar
                } else {
                    ParamKind::ScalarOut
                },
            }),
            Home::Register | Home::Local(_) | Home::Stream { .. } if used => {
                locals.push(cname.clone());
                local_values.push((key(&value), value));
            }
            _ => {}
        }
        // Expressions compute on `long long`: an integer scalar (unsigned
        // ones included) is converted first.
        let read = match home {
            Home::Value | Home::Register => Some(cname.clone()),
            Home::Pointer => Some(format!("(*{cname})")),
            _ => None,
        };
        if let Some(read) = read {
            let read = if layout.elem.is_float() {
                read
            } else {
                format!("((long long){read})")
            };
            e.scalars.insert(dace.clone(), (read, cname.clone()));
        }
        e.by_name.insert(dace.clone(), key(&value));
        e.containers.insert(
            key(&value),
            Info {
                name: cname,
                dace,
                ty,
                layout,
                home,
                partition,
                base: None,
                kernel_level: true,
                init: initializer.as_ref().map(|(text, _)| text.clone()),
            },
        );
    }

    // Symbols: free ones are parameters, assigned ones variables.
    for (k, value) in &local_values {
        let scopes: BTreeSet<usize> = value
            .uses()
            .iter()
            .map(|(user, _)| top_scope(*user).map(|s| s.raw().ptr as usize).unwrap_or(0))
            .collect();
        if let [scope] = scopes.iter().copied().collect::<Vec<_>>().as_slice() {
            if *scope != 0 {
                e.owners.insert(*k, *scope);
            }
        }
    }

    // Symbols: the free ones (DaCe's interface) are parameters, which
    // assignments may update; the others are variables of the kernel.
    let constants: BTreeSet<String> = sdfg
        .attr("constants")
        .map(sdfg_dialect::ir::dictionary_entries)
        .unwrap_or_default()
        .into_iter()
        .map(|(n, _)| n.to_string())
        .collect();
    let mut constant_values = Vec::new();
    for (name, value) in sdfg
        .attr("constants")
        .map(sdfg_dialect::ir::dictionary_entries)
        .unwrap_or_default()
    {
        // SAFETY: the kind is checked before the value is read.
        if unsafe { mlir_sys::mlirAttributeIsAInteger(value) } {
            let n = unsafe { mlir_sys::mlirIntegerAttrGetValueInt(value) };
            e.symbols.insert(name.to_string(), format!("{n}LL"));
            constant_values.push((name.to_string(), n));
        }
    }
    let mut symbol_vars = Vec::new();
    for (symbol, ty) in declared_symbols(sdfg) {
        let c_ty = sdfg_dialect::layout::Elem::parse(&type_to_string(ty))
            .and_then(|elem| element_type(&elem))
            .map_err(|m| Failure {
                op: sdfg,
                message: format!("symbol '{symbol}': {m}"),
            })?;
        let c_ty = if c_ty == "int64_t" {
            "long long".to_string()
        } else {
            c_ty
        };
        if constants.contains(symbol) {
            continue;
        }
        e.symbols.insert(symbol.to_string(), identifier(symbol));
        if defined.contains(symbol) {
            symbol_vars.push(format!("{c_ty} {} = 0;", identifier(symbol)));
            symbol_vars.push(format!("(void){};", identifier(symbol)));
        } else {
            params.push(Param {
                dace: symbol.to_string(),
                name: identifier(symbol),
                ty: c_ty,
                kind: ParamKind::Symbol,
            });
        }
    }

    // Symbols that edges assign without a declaration are variables too.
    for symbol in assigned_symbols(sdfg) {
        if !e.symbols.contains_key(&symbol) {
            symbol_vars.push(format!("long long {} = 0;", identifier(&symbol)));
            // A symbol only assigned (DaCe's `__dace_did_break_...`) is
            // used nowhere else.
            symbol_vars.push(format!("(void){};", identifier(&symbol)));
            e.symbols.insert(symbol.clone(), identifier(&symbol));
        }
    }

    // The body.
    e.code.depth = 1;
    for v in &symbol_vars {
        e.code.line(v);
    }
    // A local that one device scope alone uses is that function's own.
    let mut kernel_locals = Vec::new();
    for (k, info) in e.containers.iter_mut() {
        if !locals.contains(&info.name) {
            continue;
        }
        match e.owners.get(k) {
            Some(scope) => {
                info.kernel_level = false;
                e.scope_locals.entry(*scope).or_default().push(info.clone());
            }
            None => kernel_locals.push(info.clone()),
        }
    }
    kernel_locals.sort_by(|a, b| a.name.cmp(&b.name));
    for info in &kernel_locals {
        declare(&mut e.code, info);
    }
    e.sequence(&blocks)?;

    // The translation unit.
    let mut out = String::new();
    out.push_str(&format!(
        "// Generated by sdfg-translate --emit-hls from SDFG `{}`.\n",
        sdfg.symbol_name().unwrap_or_default()
    ));
    out.push_str(
        "#include <cmath>\n#include <cstdint>\n#include <cstdio>\n#include <limits>\n#include <hls_stream.h>\n\n",
    );
    out.push_str("#ifndef SDFG_HLS_PROCESS\n#define SDFG_HLS_PROCESS(call) call\n#define SDFG_HLS_JOIN()\n#endif\n\n");
    out.push_str(crate::cexpr::HELPERS);
    out.push('\n');
    for f in &e.functions {
        out.push_str(f);
        out.push('\n');
    }
    let signature: Vec<String> = params
        .iter()
        .map(|p| match p.kind {
            ParamKind::Global { .. } | ParamKind::ScalarOut => format!("{} *{}", p.ty, p.name),
            _ => format!("{} {}", p.ty, p.name),
        })
        .collect();
    out.push_str(&format!("void {name}({}) {{\n", signature.join(", ")));
    let mut bundle = 0;
    for p in &params {
        match &p.kind {
            ParamKind::Global { layout, .. } => {
                let depth = total_size(layout)
                    .map(|d| format!(" depth={d}"))
                    .unwrap_or_default();
                out.push_str(&format!(
                    "#pragma HLS INTERFACE m_axi port={} offset=slave bundle=gmem{bundle}{depth}\n",
                    p.name
                ));
                bundle += 1;
            }
            ParamKind::ScalarOut => {
                out.push_str(&format!(
                    "#pragma HLS INTERFACE m_axi port={} offset=slave bundle=gmem{bundle} depth=1\n",
                    p.name
                ));
                bundle += 1;
            }
            _ => {}
        }
        out.push_str(&format!(
            "#pragma HLS INTERFACE s_axilite port={} bundle=control\n",
            p.name
        ));
    }
    out.push_str("#pragma HLS INTERFACE s_axilite port=return bundle=control\n");
    // The interface keeps every parameter, also one the body never names.
    let words: BTreeSet<&str> = e
        .code
        .lines
        .iter()
        .flat_map(|l| l.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')))
        .collect();
    for p in &params {
        if !words.contains(p.name.as_str()) {
            out.push_str(&format!("  (void){};\n", p.name));
        }
    }
    for line in &e.code.lines {
        out.push_str(line);
        out.push('\n');
    }
    out.push_str("}\n");
    // Integers of widths C++ has no type for are Vitis's `ap_int`, from
    // its own header (for g++, from the copy the test set-up fetches).
    if out.contains("ap_int<") || out.contains("ap_uint<") {
        out = out.replacen(
            "#include <hls_stream.h>\n",
            &format!("#include <hls_stream.h>\n{}", crate::cexpr::AP_INT_INCLUDE),
            1,
        );
    }
    Ok(Kernel {
        code: out,
        name,
        params,
        copies_in,
        copies_out,
        host,
        constants: constant_values,
    })
}

/// The `k`-th index a range covers: `start + k * step`, or with tiles of
/// `tile` indices, `start + (k // tile) * step + k % tile`.
fn range_point(range: &Range, k: &Expr) -> Expr {
    if range.tile.as_int() == Some(1) {
        return Expr::add(&range.start, &Expr::mul(k, &range.step));
    }
    let origin = Expr::mul(&Expr::floordiv(k, &range.tile), &range.step);
    Expr::add(
        &Expr::add(&range.start, &origin),
        &Expr::modulo(k, &range.tile),
    )
}

/// The values of a `dense<...> : tensor<...>` attribute as a C++
/// initializer list and their number (a splat repeated); `None` for other
/// attributes or values C++ cannot write as they are printed.
fn dense_values(text: &str) -> Option<(String, usize)> {
    let inner = text.strip_prefix("dense<")?;
    let (values, ty) = inner.rsplit_once("> : tensor<")?;
    let ty = ty.strip_suffix('>')?;
    let mut dims: Vec<&str> = ty.split('x').collect();
    let elem = dims.pop()?;
    let count: usize = dims
        .iter()
        .map(|d| d.parse::<usize>().ok())
        .product::<Option<usize>>()?;
    let items: Vec<String> = values
        .replace(['[', ']'], "")
        .split(',')
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
        .collect();
    if items
        .iter()
        .any(|v| v.starts_with("0x") || v.starts_with('"'))
    {
        return None;
    }
    let suffix = if elem == "f32" { "f" } else { "" };
    let items: Vec<String> = items.into_iter().map(|v| format!("{v}{suffix}")).collect();
    let items = match items.as_slice() {
        [splat] if count > 1 => vec![splat.clone(); count],
        _ => items,
    };
    (items.len() == count).then(|| (items.join(", "), count))
}

/// Where a stream container lives: how many streams, of what depth.
fn stream_home(ty: mlir_sys::MlirType, layout: &Layout) -> std::result::Result<Home, String> {
    let count = layout
        .shape
        .iter()
        .map(Expr::as_int)
        .product::<Option<i64>>()
        .ok_or("an array of streams of non-constant size cannot be on chip")?;
    let buffer = sdfg_dialect::Container::from_type(ty)
        .and_then(|c| c.buffer)
        .unwrap_or_else(|| "1".into());
    let depth = parse(&buffer)
        .ok()
        .and_then(|e| e.as_int())
        .filter(|d| *d > 0)
        .ok_or_else(|| format!("buffer size `{buffer}` is not a positive constant"))?;
    Ok(Home::Stream { count, depth })
}

/// The C++ type of a stream of `ty` elements and depth `depth`.
fn stream_type(ty: &str, depth: i64) -> String {
    format!("hls::stream<{ty}, {depth}>")
}

/// Declares a local container.
fn declare(code: &mut Code, info: &Info) {
    if let Home::Stream { count, depth } = info.home {
        let ty = stream_type(&info.ty, depth);
        match count {
            1 => code.line(format!("{ty} {}(\"{}\");", info.name, info.dace)),
            _ => code.line(format!("{ty} {}[{count}];", info.name)),
        }
        code.line(format!(
            "#pragma HLS STREAM variable={} depth={depth}",
            info.name
        ));
        return;
    }
    match info.home {
        Home::Local(size) => {
            match &info.init {
                Some(values) => code.line(format!(
                    "const {} {}[{size}] = {{{values}}};",
                    info.ty, info.name
                )),
                None => code.line(format!("{} {}[{size}];", info.ty, info.name)),
            }
            if info.partition {
                code.line(format!(
                    "#pragma HLS ARRAY_PARTITION variable={} complete",
                    info.name
                ));
            }
        }
        _ => code.line(format!("{} {} = 0;", info.ty, info.name)),
    }
}

/// The outermost scope of a state (its top-level map or nested SDFG)
/// that holds `op`.
fn top_scope(op: Op<'_>) -> Option<Op<'_>> {
    let mut at = op;
    let mut scope = None;
    while let Some(parent) = at.parent() {
        if parent.is("sdfg.state") || parent.is("sdfg.sdfg") {
            break;
        }
        if parent.is("sdfg.map") || parent.is("sdfg.nested") || parent.is("sdfg.consume") {
            scope = Some(parent);
        }
        at = parent;
    }
    scope
}

/// The layout of container `value` (named `dace`, declared by `op`) and
/// its C++ element type.
fn container_layout<'a>(op: Op<'a>, dace: &str, value: Val<'_>) -> Result<'a, (Layout, String)> {
    let fail = |m: String| Failure {
        op,
        message: format!("container '{dace}': {m}"),
    };
    let layout = layout(value.ty()).map_err(fail)?;
    let ty = element_type(&layout.elem).map_err(fail)?;
    Ok((layout, ty))
}

/// The stride and the index offset of dimension `d` of a layout.
fn stride_and_offset(layout: &Layout, d: usize) -> (Expr, Expr) {
    (
        layout
            .strides
            .get(d)
            .cloned()
            .unwrap_or_else(|| Expr::int(1)),
        layout
            .offsets
            .get(d)
            .cloned()
            .unwrap_or_else(|| Expr::int(0)),
    )
}

/// The total number of elements of a layout's memory (the span of its
/// strides), where it is a constant.
fn total_size(layout: &Layout) -> Option<i64> {
    span(layout).as_int().map(|n| n.max(1))
}

/// The ranges `(variable, smallest, largest)` of the variables of
/// `sdfg`'s loop regions where the symbolic engine knows them.
fn loop_ranges(sdfg: Op<'_>) -> Vec<(String, Expr, Expr)> {
    let asm = Assumptions::all_positive();
    sdfg.descendants()
        .into_iter()
        .filter(|o| o.is("sdfg.loop") && o.ancestor("sdfg.sdfg") == Some(sdfg))
        .filter_map(|lp| {
            let var = lp.str_attr("var")?;
            let parse_attr = |k: &str| lp.str_attr(k).and_then(|t| parse(t).ok());
            let range = sdfg_symbolic::loop_range(
                var,
                &parse_attr("init")?,
                &parse_attr("cond")?,
                &parse_attr("update")?,
                &asm,
            )?;
            Some((
                var.to_string(),
                range.range.min_element(),
                range.range.max_element(),
            ))
        })
        .collect()
}

/// The number of elements the host allocates for a layout: its span, with
/// each symbol the program defines replaced by its largest value where
/// the span grows with it; `None` where that is not known.
fn allocation_size(
    layout: &Layout,
    loops: &[(String, Expr, Expr)],
    defined: &BTreeSet<String>,
) -> Option<Expr> {
    let mut size = span(layout);
    for symbol in size.free_symbols() {
        if !defined.contains(&symbol) {
            continue;
        }
        let (_, lo, hi) = loops.iter().find(|(v, _, _)| *v == symbol)?;
        let asm = Assumptions::all_positive().with_range(&symbol, lo.clone(), hi.clone());
        // The size at the last value where it grows with the variable, at
        // the first where it shrinks.
        size = [hi, lo].into_iter().find_map(|end| {
            let bound = size.substitute(&HashMap::from([(symbol.clone(), end.clone())]));
            asm.prove_nonnegative(&Expr::sub(&bound, &size))
                .then_some(bound)
        })?;
    }
    Some(size)
}

/// The elements on-chip memory holds for a local layout: its span where
/// that is a constant, else the largest value of it the symbolic engine
/// proves (a loop's variable at its largest, `Min(N, 64)` at 64); `None`
/// where it has no bound.
fn local_size(
    layout: &Layout,
    loops: &[(String, Expr, Expr)],
    defined: &BTreeSet<String>,
) -> Option<i64> {
    if let Some(n) = total_size(layout) {
        return Some(n);
    }
    let size = allocation_size(layout, loops, defined).unwrap_or_else(|| span(layout));
    let assumptions = Assumptions::all_positive();
    let (_, hi) = assumptions.interval(&assumptions.simplify(&size));
    let (n, d) = hi?;
    i64::try_from(n.div_euclid(d)).ok().map(|n| n.max(1))
}

/// The symbolic span of a layout's memory.
pub fn span(layout: &Layout) -> Expr {
    if layout.scalar {
        return Expr::int(1);
    }
    let mut span = Expr::int(1);
    for (size, stride) in layout.shape.iter().zip(&layout.strides) {
        span = Expr::add(&span, &Expr::mul(&Expr::sub(size, &Expr::int(1)), stride));
    }
    span
}

/// The copies of a state that only copies whole containers between host
/// and device memory: (from, to).
fn host_copies(state: Op<'_>) -> Option<Vec<(Val<'_>, Val<'_>)>> {
    if !state.is("sdfg.state") {
        return None;
    }
    let mut copies = Vec::new();
    for op in state.region_ops(0) {
        if !op.is("sdfg.access") {
            return None;
        }
        for edge in incoming_edges(op) {
            let source = edge.source.defining_op().filter(|s| s.is("sdfg.access"))?;
            let (from, to) = (source.operands()[0], op.operands()[0]);
            let storage = |v: Val<'_>| layout(v.ty()).map(|l| l.storage.name()).unwrap_or_default();
            let device = |v: Val<'_>| storage(v).starts_with("FPGA_");
            if device(from) == device(to) || edge.role != EdgeRole::Input {
                return None;
            }
            copies.push((from, to));
        }
    }
    (!copies.is_empty()).then_some(copies)
}

/// Splits the SDFG's top-level chain into host copies before, kernel
/// blocks, host copies after.
#[allow(clippy::type_complexity)]
fn split_host<'a>(sdfg: Op<'a>) -> Result<'a, (Vec<Op<'a>>, Vec<Op<'a>>, Vec<Op<'a>>)> {
    let blocks = blocks_of(sdfg);
    let Some(chain) = chain(sdfg, &blocks, false) else {
        return Ok((Vec::new(), blocks, Vec::new()));
    };
    let chain: Vec<Op<'a>> = chain.into_iter().map(|(b, _)| b).collect();
    let mut start = 0;
    while start < chain.len() && host_copies(chain[start]).is_some() {
        start += 1;
    }
    let mut end = chain.len();
    while end > start && host_copies(chain[end - 1]).is_some() {
        end -= 1;
    }
    Ok((
        chain[..start].to_vec(),
        chain[start..end].to_vec(),
        chain[end..].to_vec(),
    ))
}

/// Whether a `break` or `continue` in `block` leaves it: one not inside a
/// loop of its own.
fn jumps_out(block: Op<'_>) -> bool {
    match block.name() {
        "sdfg.break" | "sdfg.continue" => true,
        "sdfg.region" | "sdfg.call_region" | "sdfg.branch" => {
            blocks_of(block).into_iter().any(jumps_out)
        }
        "sdfg.conditional" => block
            .region_ops(0)
            .into_iter()
            .filter(|o| o.is("sdfg.branch"))
            .any(jumps_out),
        _ => false,
    }
}

fn blocks_of<'a>(owner: Op<'a>) -> Vec<Op<'a>> {
    owner
        .region_ops(0)
        .into_iter()
        .filter(|o| sdfg_dialect::CONTROL_FLOW_BLOCKS.contains(&o.name()))
        .collect()
}

/// The blocks of `owner` in order when they form a chain of edges
/// without conditions (each block to the next), each with the edge to the
/// next block; edges with assignments only where `assignments` allows.
#[allow(clippy::type_complexity)]
fn chain<'a>(
    owner: Op<'a>,
    blocks: &[Op<'a>],
    assignments: bool,
) -> Option<Vec<(Op<'a>, Option<Op<'a>>)>> {
    let edges: Vec<Op<'a>> = owner
        .region_ops(0)
        .into_iter()
        .filter(|o| o.is("sdfg.edge"))
        .collect();
    let name = |b: &Op<'a>| b.symbol_name().unwrap_or_default().to_string();
    let mut order: Vec<(Op<'a>, Option<Op<'a>>)> = Vec::new();
    let mut current = blocks.first().copied()?;
    loop {
        let out: Vec<&Op<'a>> = edges
            .iter()
            .filter(|e| e.symbol_ref_attr("src") == Some(name(&current).as_str()))
            .collect();
        match out.as_slice() {
            [] => {
                order.push((current, None));
                break;
            }
            [edge]
                if edge
                    .str_attr("condition")
                    .is_none_or(|c| c.trim() == "1" || c.trim() == "True")
                    && (assignments || edge.str_array_attr("assign_names").is_empty()) =>
            {
                order.push((current, Some(**edge)));
                let dst = edge.symbol_ref_attr("dst")?;
                current = *blocks.iter().find(|b| b.symbol_name() == Some(dst))?;
                if order.iter().any(|(b, _)| *b == current) {
                    return None;
                }
            }
            _ => return None,
        }
    }
    (order.len() == blocks.len() && edges.len() + 1 == blocks.len()).then_some(order)
}

impl<'a> Emitter<'a> {
    fn fresh(&mut self, base: &str) -> String {
        self.next += 1;
        format!("{}_{}", identifier(base), self.next)
    }

    fn lookup(&self) -> impl Fn(&str) -> Option<String> + '_ {
        move |name: &str| {
            self.params
                .iter()
                .rev()
                .find(|(d, _)| d == name)
                .map(|(_, c)| c.clone())
                .or_else(|| self.symbols.get(name).cloned())
                .or_else(|| self.scalars.get(name).map(|(e, _)| e.clone()))
        }
    }

    /// An integer expression (symbols and scope parameters) as C++.
    fn int(&mut self, op: Op<'a>, expr: &Expr) -> Result<'a, String> {
        let read = std::cell::RefCell::new(Vec::new());
        let (text, used) = {
            let lookup = self.lookup();
            let arrays = |name: &str, args: &[String]| self.read_data(name, args, &lookup, &read);
            let mut emitter = CEmitter::new(&lookup).with_arrays(&arrays);
            let text = emitter.int(expr).map_err(|m| Failure { op, message: m })?;
            (text, emitter.used)
        };
        self.note_symbols(used);
        self.used.extend(read.into_inner());
        Ok(text)
    }

    fn condition(&mut self, op: Op<'a>, text: &str) -> Result<'a, String> {
        let expr = parse(text).map_err(|e| Failure {
            op,
            message: format!("condition `{text}` does not parse: {e}"),
        })?;
        let read = std::cell::RefCell::new(Vec::new());
        let (text, used) = {
            let lookup = self.lookup();
            let arrays = |name: &str, args: &[String]| self.read_data(name, args, &lookup, &read);
            let mut emitter = CEmitter::new(&lookup).with_arrays(&arrays);
            let text = emitter
                .condition(&expr)
                .map_err(|m| Failure { op, message: m })?;
            (text, emitter.used)
        };
        self.note_symbols(used);
        self.used.extend(read.into_inner());
        Ok(text)
    }

    /// An element of container `name` at C++ indices `args`, read as a
    /// `long long` (a float stays one); records the container as used.
    fn read_data(
        &self,
        name: &str,
        args: &[String],
        lookup: &dyn Fn(&str) -> Option<String>,
        read: &std::cell::RefCell<Vec<String>>,
    ) -> Option<String> {
        let info = self.containers.get(self.by_name.get(name)?)?;
        read.borrow_mut().push(info.name.clone());
        let lvalue = match &info.home {
            Home::Register | Home::Value => info.name.clone(),
            Home::Pointer => format!("(*{})", info.name),
            Home::Alias(lvalue) => lvalue.clone(),
            Home::Host | Home::Stream { .. } => return None,
            Home::Global | Home::Local(_) => {
                let mut terms = Vec::new();
                for (d, index) in args.iter().enumerate() {
                    let (stride, offset) = stride_and_offset(&info.layout, d);
                    let mut c = CEmitter::new(lookup);
                    let (stride, offset) = (c.int(&stride).ok()?, c.int(&offset).ok()?);
                    terms.push(format!("({index} + {offset}) * {stride}"));
                }
                if let Some(base) = &info.base {
                    terms.insert(0, base.clone());
                }
                let linear = if terms.is_empty() {
                    "0".to_string()
                } else {
                    terms.join(" + ")
                };
                format!("{}[{linear}]", info.name)
            }
        };
        Some(if info.layout.elem.is_float() {
            lvalue
        } else {
            format!("((long long){lvalue})")
        })
    }

    fn note_symbols(&mut self, used: BTreeSet<String>) {
        for s in used {
            if !self.params.iter().any(|(d, _)| *d == s) {
                if let Some(c) = self.symbols.get(&s) {
                    // Constants are literals, not names.
                    if !c.starts_with(|ch: char| ch.is_ascii_digit()) {
                        self.used.insert(c.clone());
                    }
                } else if let Some((_, c)) = self.scalars.get(&s) {
                    self.used.insert(c.clone());
                }
            }
        }
    }

    fn expr(&mut self, op: Op<'a>, text: &str) -> Result<'a, String> {
        let expr = parse(text).map_err(|e| Failure {
            op,
            message: format!("expression `{text}` does not parse: {e}"),
        })?;
        self.int(op, &expr)
    }

    fn info(&mut self, op: Op<'a>, value: Val<'a>) -> Result<'a, Info> {
        let container = underlying_container(value);
        match self.containers.get(&key(&container)) {
            Some(info) => {
                self.used.insert(info.name.clone());
                if let Some(names) = self.view_uses.get(&key(&container)) {
                    self.used.extend(names.iter().cloned());
                }
                Ok(info.clone())
            }
            None => fail(op, "accesses data that is not a container of this SDFG"),
        }
    }

    /// The C++ lvalue of the element at `point` of a container.
    fn element(&mut self, op: Op<'a>, info: &Info, point: &[Expr]) -> Result<'a, String> {
        match &info.home {
            Home::Register | Home::Value => return Ok(info.name.clone()),
            Home::Pointer => return Ok(format!("*{}", info.name)),
            Home::Alias(lvalue) => return Ok(lvalue.clone()),
            Home::Stream { count: 1, .. } => return Ok(info.name.clone()),
            Home::Host => {
                return fail(
                    op,
                    format!("accesses host container '{}' inside the kernel", info.dace),
                )
            }
            _ => {}
        }
        let mut linear = Expr::int(0);
        for (d, p) in point.iter().enumerate() {
            let (stride, offset) = stride_and_offset(&info.layout, d);
            linear = Expr::add(&linear, &Expr::mul(&Expr::add(p, &offset), &stride));
        }
        let index = self.int(op, &linear)?;
        Ok(match &info.base {
            Some(base) => format!("{}[{base} + {index}]", info.name),
            None => format!("{}[{index}]", info.name),
        })
    }

    fn subset(&self, op: Op<'a>, text: &str) -> Result<'a, Subset> {
        parse_subset(text).map_err(|e| Failure {
            op,
            message: format!("subset `{text}` does not parse: {e}"),
        })
    }

    /// Emits a sequence of control-flow blocks of one region.
    fn sequence(&mut self, blocks: &[Op<'a>]) -> Result<'a, ()> {
        for block in blocks {
            self.block(*block)?;
        }
        Ok(())
    }

    fn block(&mut self, block: Op<'a>) -> Result<'a, ()> {
        match block.name() {
            "sdfg.state" => self.state(block),
            "sdfg.region" | "sdfg.call_region" => self.region(block),
            "sdfg.loop" => self.for_loop(block),
            "sdfg.conditional" => {
                let branches: Vec<Op<'a>> = block
                    .region_ops(0)
                    .into_iter()
                    .filter(|b| b.is("sdfg.branch"))
                    .collect();
                for (k, branch) in branches.iter().enumerate() {
                    let keyword = if k == 0 { "if" } else { "} else if" };
                    match branch.str_attr("condition") {
                        Some(c) => {
                            let c = self.condition(*branch, c)?;
                            if k > 0 {
                                self.code.depth -= 1;
                            }
                            self.code.open(format!("{keyword} ({c}) {{"));
                        }
                        None => {
                            if k > 0 {
                                self.code.depth -= 1;
                                self.code.open("} else {");
                            } else {
                                self.code.open("{");
                            }
                        }
                    }
                    self.region(*branch)?;
                }
                if !branches.is_empty() {
                    self.code.close();
                }
                Ok(())
            }
            "sdfg.break" | "sdfg.continue" if !self.jumps.is_empty() => {
                self.jump(block.is("sdfg.break"));
                Ok(())
            }
            _ => fail(
                block,
                "is a jump out of the program, which the HLS emitter does not support",
            ),
        }
    }

    /// A region's blocks: in order where they form a chain, else as a
    /// state machine (a loop over a `switch` on the current block).
    fn region(&mut self, owner: Op<'a>) -> Result<'a, ()> {
        let blocks = blocks_of(owner);
        if let Some(order) = chain(owner, &blocks, true) {
            for (block, edge) in order {
                self.block(block)?;
                if let Some(edge) = edge {
                    self.assignments(edge)?;
                }
            }
            return Ok(());
        }
        let edges: Vec<Op<'a>> = owner
            .region_ops(0)
            .into_iter()
            .filter(|o| o.is("sdfg.edge"))
            .collect();
        let index = |name: &str| blocks.iter().position(|b| b.symbol_name() == Some(name));
        let var = self.fresh("block");
        let jumps = blocks.iter().any(|b| jumps_out(*b));
        let flag = self.fresh("jump");
        if jumps {
            self.code.line(format!("int {flag} = 0;"));
        }
        self.code.line(format!("int {var} = 0;"));
        self.code.open(format!("while ({var} >= 0) {{"));
        self.code.open(format!("switch ({var}) {{"));
        self.jumps.push(Jump::Machine(flag.clone()));
        for (k, block) in blocks.iter().enumerate() {
            self.code.open(format!("case {k}: {{"));
            self.block(*block)?;
            if jumps_out(*block) {
                // A jump in the block stops the machine.
                self.code
                    .line(format!("if ({flag} != 0) {{ {var} = -1; break; }}"));
            }
            let name = block.symbol_name().unwrap_or_default();
            let mut chained = false;
            let mut taken = false;
            for edge in edges
                .iter()
                .filter(|e| e.symbol_ref_attr("src") == Some(name))
            {
                let dst = edge
                    .symbol_ref_attr("dst")
                    .and_then(index)
                    .ok_or_else(|| Failure {
                        op: *edge,
                        message: "goes to a block that is not in its region".into(),
                    })?;
                let condition = edge.str_attr("condition").unwrap_or("1");
                let c = self.condition(*edge, condition)?;
                if c == "true" || c == "(1 != 0)" || c == "1 != 0" {
                    // Taken whenever no earlier edge is.
                    if chained {
                        self.code.open("else {");
                    } else {
                        self.code.open("{");
                    }
                    self.assignments(*edge)?;
                    self.code.line(format!("{var} = {dst};"));
                    self.code.close();
                    taken = true;
                    break;
                }
                self.code
                    .open(format!("{}if ({c}) {{", if chained { "else " } else { "" }));
                chained = true;
                self.assignments(*edge)?;
                self.code.line(format!("{var} = {dst};"));
                self.code.close();
            }
            if !taken {
                let otherwise = if chained { "else " } else { "" };
                self.code.line(format!("{otherwise}{var} = -1;"));
            }
            self.code.line("break;");
            self.code.close();
        }
        self.jumps.pop();
        self.code.close();
        self.code.close();
        if jumps {
            // A jump that stopped the machine goes on outwards (a jump out
            // of the program has no target: `block` refuses it).
            if self.jumps.is_empty() {
                return fail(
                    owner,
                    "has a break or continue out of the program, which the HLS emitter does not support",
                );
            }
            self.code.open(format!("if ({flag} == 1) {{"));
            self.jump(true);
            self.code.depth -= 1;
            self.code.open(format!("}} else if ({flag} == 2) {{"));
            self.jump(false);
            self.code.close();
        }
        Ok(())
    }

    /// A `break` (or `continue`) of the innermost loop or state machine.
    fn jump(&mut self, exit: bool) {
        match self.jumps.last() {
            Some(Jump::Machine(flag)) => {
                let line = format!("{flag} = {};", if exit { 1 } else { 2 });
                self.code.line(line);
            }
            _ => self.code.line(if exit { "break;" } else { "continue;" }),
        }
    }

    fn assignments(&mut self, edge: Op<'a>) -> Result<'a, ()> {
        let names = edge.str_array_attr("assign_names");
        let values = edge.str_array_attr("assign_values");
        if names.is_empty() {
            return Ok(());
        }
        // All values are read before any symbol is assigned.
        let mut computed = Vec::new();
        for (name, value) in names.iter().zip(values) {
            let v = self.expr(edge, value)?;
            let c = self.symbols.get(*name).cloned().ok_or_else(|| Failure {
                op: edge,
                message: format!("assigns undeclared symbol '{name}'"),
            })?;
            computed.push((c, v));
        }
        if computed.len() == 1 {
            let (c, v) = &computed[0];
            self.code.line(format!("{c} = {v};"));
            return Ok(());
        }
        self.code.open("{");
        for (k, (_, v)) in computed.iter().enumerate() {
            self.code
                .line(format!("const long long __assign{k} = {v};"));
        }
        for (k, (c, _)) in computed.iter().enumerate() {
            self.code.line(format!("{c} = __assign{k};"));
        }
        self.code.close();
        Ok(())
    }

    fn for_loop(&mut self, lp: Op<'a>) -> Result<'a, ()> {
        let var = lp
            .str_attr("var")
            .and_then(|v| self.symbols.get(v).cloned());
        let init = match (lp.str_attr("var"), lp.str_attr("init")) {
            (Some(_), Some(init)) => {
                let v = self.expr(lp, init)?;
                format!("{} = {v}", var.clone().unwrap_or_default())
            }
            _ => String::new(),
        };
        let cond = self.condition(lp, lp.str_attr("cond").unwrap_or("1"))?;
        let update = match (&var, lp.str_attr("update")) {
            (Some(var), Some(update)) => format!("{var} = {}", self.expr(lp, update)?),
            _ => String::new(),
        };
        if let Some(v) = &var {
            self.used.insert(v.clone());
        }
        if lp.attr("inverted").is_some() {
            if !init.is_empty() {
                self.code.line(format!("{init};"));
            }
            // A do-while loop whose test updates the variable too (before
            // or after the condition), so that `continue` in the body goes
            // through both, as in the SDFG.
            let test = if update.is_empty() {
                cond
            } else if lp.attr("update_before_condition").is_some() {
                format!("({update}, {cond})")
            } else {
                format!("({cond}) ? ({update}, true) : false")
            };
            self.code.open("do {");
            self.jumps.push(Jump::Loop);
            self.region(lp)?;
            self.jumps.pop();
            self.code.depth -= 1;
            self.code.line(format!("}} while ({test});"));
            return Ok(());
        }
        self.code.open(format!("for ({init}; {cond}; {update}) {{"));
        // An innermost sequential loop is pipelined as far as its
        // dependences allow.
        let innermost = !lp
            .descendants()
            .iter()
            .any(|o| (o.is("sdfg.map") && o.attr("unroll").is_none()) || o.is("sdfg.loop"));
        if innermost {
            self.code.line("#pragma HLS PIPELINE");
        }
        // `break` and `continue` in its body are C++'s.
        self.jumps.push(Jump::Loop);
        self.region(lp)?;
        self.jumps.pop();
        self.code.close();
        Ok(())
    }

    fn state(&mut self, state: Op<'a>) -> Result<'a, ()> {
        self.code.line(format!(
            "// state {}",
            state.symbol_name().unwrap_or_default()
        ));
        let ops = state.region_ops(0);
        let scopes: Vec<Op<'a>> = ops
            .iter()
            .copied()
            .filter(|o| {
                (o.is("sdfg.map") || o.is("sdfg.nested") || o.is("sdfg.consume"))
                    && o.attr("schedule")
                        .and_then(Schedule::from_attr)
                        .is_some_and(|s| s.name() == "FPGA_Device")
            })
            .collect();
        let streams: BTreeSet<usize> = self
            .containers
            .iter()
            .filter(|(_, i)| matches!(i.home, Home::Stream { .. }))
            .map(|(k, _)| *k)
            .collect();
        let dataflow = scopes.len() > 1
            && ops
                .iter()
                .all(|o| scopes.contains(o) || (o.is("sdfg.access") && only_scope_writes(*o)))
            && sdfg_analysis::graph::concurrent_scopes(&scopes, &|c| streams.contains(&key(&c)));
        self.bind_views(&ops)?;
        let mut calls = Vec::new();
        for op in ops {
            match op.name() {
                "sdfg.map" | "sdfg.nested" | "sdfg.consume" if scopes.contains(&op) => {
                    let call = self.processing_element(op)?;
                    if dataflow {
                        calls.push(call);
                    } else {
                        self.code.line(format!("{call};"));
                    }
                }
                "sdfg.map" => self.map(op)?,
                "sdfg.nested" => self.nested(op)?,
                "sdfg.tasklet" => self.tasklet(op)?,
                "sdfg.access" => self.access(op)?,
                "sdfg.consume" => self.consume(op)?,
                other => return fail(op, format!("'{other}' is not supported by the HLS emitter")),
            }
        }
        if dataflow {
            let name = self.fresh(&format!(
                "{}_dataflow",
                state.symbol_name().unwrap_or("state")
            ));
            let mut inner = Code {
                lines: Vec::new(),
                depth: 1,
            };
            inner.line("#pragma HLS DATAFLOW");
            for call in &calls {
                inner.line(format!("SDFG_HLS_PROCESS({call});"));
            }
            inner.line("SDFG_HLS_JOIN();");
            let used: Vec<String> = self.used.iter().cloned().collect();
            let call = self.function(&name, &used, &inner.lines);
            self.code.line(format!("{call};"));
        }
        Ok(())
    }

    /// The parameters and arguments of a function that uses the
    /// kernel-level names `used`.
    fn signature(&self, used: &[String]) -> (Vec<String>, Vec<String>) {
        let mut params = Vec::new();
        let mut args = Vec::new();
        let mut infos: Vec<&Info> = self
            .containers
            .values()
            .filter(|i| i.kernel_level && used.contains(&i.name))
            .collect();
        infos.sort_by(|a, b| a.name.cmp(&b.name));
        // Views are the data they view, under its name.
        infos.dedup_by(|a, b| a.name == b.name);
        for info in infos {
            params.push(match info.home {
                Home::Global | Home::Pointer => format!("{} *{}", info.ty, info.name),
                Home::Local(size) => format!("{} {}[{size}]", info.ty, info.name),
                Home::Register => format!("{} &{}", info.ty, info.name),
                Home::Value | Home::Host | Home::Alias(_) => format!("{} {}", info.ty, info.name),
                Home::Stream { count: 1, depth } => {
                    format!("{} &{}", stream_type(&info.ty, depth), info.name)
                }
                Home::Stream { count, depth } => {
                    format!("{} {}[{count}]", stream_type(&info.ty, depth), info.name)
                }
            });
            args.push(info.name.clone());
        }
        for c in self.symbols.values() {
            if used.contains(c) && !self.containers.values().any(|i| i.name == *c) {
                params.push(format!("long long {c}"));
                args.push(c.clone());
            }
        }
        (params, args)
    }

    /// A consume scope: its processing elements take the stream's elements
    /// one at a time until the quiescence condition holds or no element is
    /// left. They run as one loop here (one order DaCe's processing
    /// elements may take them in), which HLS pipelines; the processing
    /// element's index is 0. Elements the body pushes back to the stream
    /// are taken too.
    fn consume(&mut self, consume: Op<'a>) -> Result<'a, ()> {
        let chunk = match sdfg_dialect::consume_chunk_size(consume) {
            Some(text) => {
                let size = parse(text).map_err(|e| Failure {
                    op: consume,
                    message: format!("chunk size `{text}`: {e}"),
                })?;
                let size = size.as_int().filter(|n| *n > 0).ok_or_else(|| Failure {
                    op: consume,
                    message: format!("chunk size `{text}` is not a positive constant, which on-chip memory needs"),
                })?;
                Some(size)
            }
            None => None,
        };
        let stream = consume.operand_segment(0);
        let [stream] = stream.as_slice() else {
            return fail(consume, "has no stream");
        };
        let info = self.info(consume, *stream)?;
        if !matches!(info.home, Home::Stream { .. }) {
            return fail(consume, "consumes something other than an on-chip stream");
        }
        let memlet = consume
            .attr("stream_memlet")
            .and_then(Memlet::from_attr)
            .unwrap_or_else(|| Memlet::plain("0"));
        let subset = self.subset(consume, &memlet.subset)?;
        let queue = self.element(consume, &info, &subset.min_element())?;
        let depth = self.params.len();
        let pe = consume.str_attr("pe").unwrap_or("p").to_string();
        self.params.push((pe, "0".into()));
        self.code.open("for (;;) {");
        if chunk.is_none() {
            self.code.line("#pragma HLS PIPELINE");
        }
        if let Some(condition) = consume
            .str_attr("quiescence")
            .filter(|c| !c.trim().is_empty())
        {
            let c = self.condition(consume, condition)?;
            self.code.line(format!("if ({c}) break;"));
        }
        self.code.line(format!("if ({queue}.empty()) break;"));
        let elem_ty = info.ty.clone();
        match (chunk, consume.region_args(0).first()) {
            // A chunk: up to its size of elements into an array, and how
            // many in `__dace_<label>_numelems` (DaCe's Consume<CHUNKSIZE>).
            (Some(size), Some(arg)) => {
                let elements = self.fresh("chunk");
                let count = self.fresh("numelems");
                let k = self.fresh("k");
                self.code.line(format!("{elem_ty} {elements}[{size}];"));
                self.code.line(format!("long long {count} = 0;"));
                self.code
                    .open(format!("for (long long {k} = 0; {k} < {size}; ++{k}) {{"));
                self.code.line("#pragma HLS PIPELINE II=1");
                self.code.line(format!("if ({queue}.empty()) break;"));
                self.code
                    .line(format!("{elements}[{count}] = {queue}.read();"));
                self.code.line(format!("{count} += 1;"));
                self.code.close();
                let label = consume.str_attr("label").unwrap_or_default();
                self.params
                    .push((sdfg_dialect::chunk_count_symbol(label), count));
                let chunk_layout = layout(arg.ty()).map_err(|m| Failure {
                    op: consume,
                    message: format!("the chunk: {m}"),
                })?;
                self.containers.insert(
                    key(arg),
                    Info {
                        name: elements,
                        dace: format!("{} chunk", info.dace),
                        ty: elem_ty,
                        layout: chunk_layout,
                        home: Home::Local(size),
                        partition: false,
                        base: None,
                        kernel_level: false,
                        init: None,
                    },
                );
            }
            (_, arg) => {
                let element = self.fresh("element");
                self.code
                    .line(format!("const {elem_ty} {element} = {queue}.read();"));
                if let Some(arg) = arg {
                    self.values.insert(key(arg), element);
                }
            }
        }
        for op in consume.region_ops(0) {
            match op.name() {
                "sdfg.tasklet" => self.tasklet(op)?,
                "sdfg.map" => self.map(op)?,
                "sdfg.nested" => self.nested(op)?,
                "sdfg.access" => self.access(op)?,
                "sdfg.exit" => {}
                other => {
                    return fail(
                        op,
                        format!(
                        "'{other}' inside a consume scope is not supported by the HLS emitter yet"
                    ),
                    )
                }
            }
        }
        self.code.close();
        self.params.truncate(depth);
        Ok(())
    }

    /// A nested SDFG, inline in a block of its own: its arguments are the
    /// outer data from their memlets' first elements on (scalars the
    /// elements themselves), its symbols constants of the mapped values,
    /// its transients locals of the block.
    fn nested(&mut self, nested: Op<'a>) -> Result<'a, ()> {
        let Some(inner) = nested.region_ops(0).into_iter().find(|o| o.is("sdfg.sdfg")) else {
            return fail(nested, "holds no sdfg.sdfg");
        };
        self.code.open("{");
        // Symbols, in the outer scope.
        let assigned = assigned_symbols(inner);
        let mut inner_symbols = BTreeMap::new();
        let names = nested.str_array_attr("symbol_names");
        let values = nested.str_array_attr("symbol_values");
        for (name, value) in names.iter().zip(values) {
            let c = self.expr(nested, value)?;
            let var = self.fresh(name);
            // The inner SDFG may assign its own symbol.
            let constant = if assigned.contains(*name) {
                ""
            } else {
                "const "
            };
            self.code.line(format!("{constant}long long {var} = {c};"));
            self.code.line(format!("(void){var};"));
            inner_symbols.insert(name.to_string(), var);
        }
        // Arguments.
        let inputs: Vec<_> = incoming_edges(nested)
            .into_iter()
            .filter(|e| e.role == EdgeRole::Input)
            .collect();
        let out_names = nested.str_array_attr("out_names");
        let mut arguments = Vec::new();
        for (arg, arg_name) in inner
            .region_args(0)
            .into_iter()
            .zip(inner.str_array_attr("arg_names"))
        {
            let (outer, memlet) = match inputs.iter().find(|e| e.connector == Some(arg_name)) {
                Some(edge) => (edge.source, edge.memlet.clone()),
                None => {
                    let Some(k) = out_names.iter().position(|n| *n == arg_name) else {
                        return fail(
                            nested,
                            format!("argument '{arg_name}' is connected to nothing"),
                        );
                    };
                    let uses = nested.results()[k].uses();
                    match uses.as_slice() {
                        [(user, _)] if user.is("sdfg.access") => {
                            let memlet = incoming_edges(*user)
                                .into_iter()
                                .find(|e| e.source == nested.results()[k])
                                .and_then(|e| e.memlet);
                            (user.operands()[0], memlet)
                        }
                        [(user, index)] if user.is("sdfg.exit") => {
                            let (container, memlet) = destination(*user, *index)?;
                            (container, Some(memlet))
                        }
                        _ => {
                            return fail(
                                nested,
                                format!("output '{arg_name}' does not go to exactly one place"),
                            )
                        }
                    }
                }
            };
            let outer_info = self.info(nested, outer)?;
            let subset = self.subset(
                nested,
                &memlet.map(|m| m.subset).unwrap_or_else(|| "0".into()),
            )?;
            let inner_layout = layout(arg.ty()).map_err(|m| Failure {
                op: nested,
                message: format!("argument '{arg_name}': {m}"),
            })?;
            let first = self.element(nested, &outer_info, &subset.min_element())?;
            let (home, base) = if inner_layout.scalar {
                (Home::Alias(first), None)
            } else if matches!(outer_info.home, Home::Global | Home::Local(_)) {
                let base = first
                    .strip_prefix(&format!("{}[", outer_info.name))
                    .and_then(|b| b.strip_suffix(']'))
                    .unwrap_or("0")
                    .to_string();
                let var = self.fresh(&format!("{arg_name}_base"));
                self.code.line(format!("const long long {var} = {base};"));
                self.code.line(format!("(void){var};"));
                (outer_info.home.clone(), Some(var))
            } else {
                return fail(
                    nested,
                    format!("argument '{arg_name}' is an array over a scalar"),
                );
            };
            arguments.push((
                arg,
                Info {
                    name: outer_info.name.clone(),
                    dace: arg_name.to_string(),
                    ty: outer_info.ty.clone(),
                    layout: inner_layout,
                    home,
                    partition: outer_info.partition,
                    base,
                    kernel_level: false,
                    init: None,
                },
            ));
        }
        // The inner scope.
        let outer_symbols = std::mem::replace(&mut self.symbols, inner_symbols);
        let outer_scalars = std::mem::take(&mut self.scalars);
        let outer_params = std::mem::take(&mut self.params);
        let outer_names = std::mem::take(&mut self.by_name);
        let result = self.nested_body(inner, arguments, &outer_symbols, assigned);
        self.symbols = outer_symbols;
        self.scalars = outer_scalars;
        self.params = outer_params;
        self.by_name = outer_names;
        result?;
        self.code.close();
        Ok(())
    }

    fn nested_body(
        &mut self,
        inner: Op<'a>,
        arguments: Vec<(Val<'a>, Info)>,
        outer_symbols: &BTreeMap<String, String>,
        assigned: BTreeSet<String>,
    ) -> Result<'a, ()> {
        for (symbol, _) in declared_symbols(inner) {
            if self.symbols.contains_key(symbol) {
                continue;
            }
            if assigned.contains(symbol) {
                let var = self.fresh(symbol);
                // A symbol only assigned (DaCe's `__dace_did_break_...`)
                // is used nowhere else.
                self.code.line(format!("long long {var} = 0;"));
                self.code.line(format!("(void){var};"));
                self.symbols.insert(symbol.to_string(), var);
            } else if let Some(c) = outer_symbols.get(symbol) {
                self.symbols.insert(symbol.to_string(), c.clone());
            }
        }
        for symbol in assigned {
            if !self.symbols.contains_key(&symbol) {
                let var = self.fresh(&symbol);
                self.code.line(format!("long long {var} = 0;"));
                self.code.line(format!("(void){var};"));
                self.symbols.insert(symbol, var);
            }
        }
        for (arg, info) in arguments {
            if let Home::Alias(lvalue) = &info.home {
                let read = if info.layout.elem.is_float() {
                    lvalue.clone()
                } else {
                    format!("((long long){lvalue})")
                };
                self.scalars
                    .insert(info.dace.clone(), (read, info.name.clone()));
            }
            self.by_name.insert(info.dace.clone(), key(&arg));
            self.containers.insert(key(&arg), info);
        }
        for alloc in inner
            .region_ops(0)
            .into_iter()
            .filter(|o| o.is("sdfg.alloc"))
        {
            let value = alloc.results()[0];
            let dace = alloc.str_attr("name").unwrap_or_default().to_string();
            let (inner_layout, ty) = container_layout(alloc, &dace, value)?;
            if inner_layout.view && !inner_layout.reference {
                self.views.insert(key(&value), (dace.clone(), inner_layout));
                continue;
            }
            if inner_layout.reference || inner_layout.stream {
                return fail(alloc, format!("container '{dace}' is a reference or stream, which the HLS emitter does not support yet"));
            }
            let name = self.fresh(&dace);
            let home = if inner_layout.scalar {
                self.code.line(format!("{ty} {name} = 0;"));
                let read = if inner_layout.elem.is_float() {
                    name.clone()
                } else {
                    format!("((long long){name})")
                };
                self.scalars.insert(dace.clone(), (read, name.clone()));
                Home::Register
            } else {
                let size = local_size(&inner_layout, &[], &BTreeSet::new()).ok_or_else(|| Failure {
                    op: alloc,
                    message: format!(
                        "container '{dace}' has no constant size or bound on it, which on-chip memory needs"
                    ),
                })?;
                self.code.line(format!("{ty} {name}[{size}];"));
                Home::Local(size)
            };
            self.by_name.insert(dace.clone(), key(&value));
            self.containers.insert(
                key(&value),
                Info {
                    name,
                    dace,
                    ty,
                    layout: inner_layout,
                    home,
                    partition: false,
                    base: None,
                    kernel_level: false,
                    init: None,
                },
            );
        }
        self.region(inner)
    }

    /// Emits an FPGA_Device scope as a function; returns the call.
    fn processing_element(&mut self, map: Op<'a>) -> Result<'a, String> {
        let outer_code = std::mem::take(&mut self.code);
        let outer_used = std::mem::take(&mut self.used);
        self.code.depth = 1;
        for info in self
            .scope_locals
            .get(&(map.raw().ptr as usize))
            .cloned()
            .unwrap_or_default()
        {
            declare(&mut self.code, &info);
        }
        let result = match map.name() {
            "sdfg.nested" => self.nested(map),
            "sdfg.consume" => self.consume(map),
            _ => self.map(map),
        };
        let body = std::mem::replace(&mut self.code, outer_code);
        let used: Vec<String> = std::mem::replace(&mut self.used, outer_used)
            .into_iter()
            .collect();
        result?;
        self.used.extend(used.iter().cloned());
        let name = self.fresh(map.str_attr("label").unwrap_or("scope"));
        Ok(self.function(&name, &used, &body.lines))
    }

    /// Adds the function `name` with the body `lines`, taking the
    /// kernel-level names in `used`; returns the call.
    fn function(&mut self, name: &str, used: &[String], lines: &[String]) -> String {
        // Only the names the body spells out (a name recorded for a
        // `(void)` or a branch that reads nothing is not a parameter).
        let words: BTreeSet<&str> = lines
            .iter()
            .flat_map(|l| l.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')))
            .collect();
        let used: Vec<String> = used
            .iter()
            .filter(|u| words.contains(u.as_str()))
            .cloned()
            .collect();
        let (params, args) = self.signature(&used);
        self.functions.push(format!(
            "static void {name}({}) {{\n{}\n}}\n",
            params.join(", "),
            lines.join("\n")
        ));
        format!("{name}({})", args.join(", "))
    }

    fn map(&mut self, map: Op<'a>) -> Result<'a, ()> {
        // Dynamic range inputs are read before the loops, as values the
        // ranges name by their connectors.
        let depth = self.params.len();
        let dynamic = incoming_edges(map)
            .into_iter()
            .filter(|e| e.role == EdgeRole::Dynamic);
        for edge in dynamic {
            let info = self.info(map, edge.source)?;
            let memlet = edge.memlet.clone().unwrap_or_else(|| Memlet::plain("0"));
            let subset = self.subset(map, &memlet.subset)?;
            let read = self.element(map, &info, &subset.min_element())?;
            let connector = edge.connector.unwrap_or("dynamic").to_string();
            let name = self.fresh(&connector);
            self.code
                .line(format!("const long long {name} = (long long){read};"));
            self.code.line(format!("(void){name};"));
            self.params.push((connector, name));
        }
        let params = map.str_array_attr("params");
        let ranges = map.str_array_attr("ranges");
        let unroll = map.attr("unroll").is_some();
        // Inner maps that are all unrolled make this loop the one to
        // pipeline (HLS unrolls them inside the pipeline).
        let innermost = !map
            .descendants()
            .iter()
            .any(|o| (o.is("sdfg.map") && o.attr("unroll").is_none()) || o.is("sdfg.loop"));
        for (k, (p, r)) in params.iter().zip(&ranges).enumerate() {
            let range = self
                .subset(map, r)?
                .ranges()
                .first()
                .cloned()
                .ok_or_else(|| Failure {
                    op: map,
                    message: format!("range `{r}` is empty"),
                })?;
            let c = identifier(p);
            let start = self.int(map, &range.start)?;
            let end = self.int(map, &range.end)?;
            let step = self.int(map, &range.step)?;
            let positive = Assumptions::all_positive();
            let compare = match range.step.as_int() {
                Some(s) if s > 0 => "<",
                Some(s) if s < 0 => ">",
                None if positive.prove_nonnegative(&Expr::sub(&range.step, &Expr::int(1))) => "<",
                _ => {
                    return fail(
                        map,
                        format!("range `{r}` has a step whose sign is not known"),
                    )
                }
            };
            self.code.open(format!(
                "for (long long {c} = {start}; {c} {compare} {end}; {c} += {step}) {{"
            ));
            if unroll {
                self.code.line("#pragma HLS UNROLL");
            } else if innermost && k + 1 == params.len() {
                let nested = map.descendants().iter().any(|o| o.is("sdfg.nested"));
                self.pipelines.push(Pipeline {
                    line: self.code.lines.len(),
                    variables: params.iter().map(|p| identifier(p)).collect(),
                    in_scope: self.params.len() + 1,
                    reads: (!nested).then(|| {
                        map.operand_segment(0)
                            .into_iter()
                            .map(sdfg_dialect::underlying_container)
                            .collect()
                    }),
                    trips: range.count().as_int(),
                    partials: Vec::new(),
                    slot: String::new(),
                    carried: None,
                });
                self.code.line("#pragma HLS PIPELINE II=1");
            }
            if let Some((lo, hi)) = trip_bounds(&range) {
                self.code
                    .line(format!("#pragma HLS LOOP_TRIPCOUNT min={lo} max={hi}"));
            }
            self.params.push((p.to_string(), c));
        }
        let body = map.region_ops(0);
        self.bind_views(&body)?;
        for op in body {
            match op.name() {
                "sdfg.tasklet" => self.tasklet(op)?,
                "sdfg.map" => self.map(op)?,
                "sdfg.nested" => self.nested(op)?,
                "sdfg.consume" => self.consume(op)?,
                "sdfg.access" => self.access(op)?,
                "sdfg.exit" => {
                    for (k, value) in op.operands().into_iter().enumerate() {
                        let Some(source) = value.defining_op() else {
                            return fail(op, format!("exit entry {k} passes a scope argument through, which the HLS emitter does not support yet"));
                        };
                        // Tasklets and scopes store what they write
                        // themselves; data in an access node is copied out.
                        match source.name() {
                            "sdfg.tasklet" | "sdfg.map" | "sdfg.nested" => {}
                            "sdfg.access" => {
                                let (container, memlet) = destination(op, k)?;
                                let (src, dst) =
                                    (self.info(op, value)?, self.info(op, container)?);
                                self.copy(op, &src, &dst, &memlet)?;
                            }
                            other => return fail(op, format!("exit entry {k} is written by '{other}', which the HLS emitter does not support yet")),
                        }
                    }
                }
                other => {
                    return fail(
                        op,
                        format!("'{other}' inside a map is not supported by the HLS emitter yet"),
                    )
                }
            }
        }
        let pipelined = innermost && !unroll && !params.is_empty();
        let mut open = params.len();
        if let Some(pipeline) = pipelined.then(|| self.pipelines.pop()).flatten() {
            if !pipeline.partials.is_empty() {
                self.interleave(&pipeline);
                open -= 1;
            }
            if let Some(target) = pipeline.carried {
                // The accumulation reads what the previous iteration
                // wrote: the pipeline cannot start one iteration a cycle.
                let indent = self.code.lines[pipeline.line]
                    .chars()
                    .take_while(|c| *c == ' ')
                    .collect::<String>();
                self.code.lines[pipeline.line] = format!(
                    "{indent}#pragma HLS PIPELINE  // floating-point accumulation into {target} carries a dependence: II > 1"
                );
                map.emit_warning(format!(
                    "the pipelined loop accumulates floating-point values into {target} in every iteration, a loop-carried dependence: it will not reach II=1"
                ));
            }
        }
        for _ in 0..open {
            self.code.close();
        }
        self.params.truncate(depth);
        Ok(())
    }

    /// Writes the interleaved accumulators of `pipeline`, whose body has
    /// just been written: declared and set to the resolution's identity
    /// before the pipelined loop, the slot moved on at the end of each
    /// iteration, and the partial results resolved into their targets
    /// after the loop, which this closes.
    fn interleave(&mut self, pipeline: &Pipeline<'a>) {
        let slot = &pipeline.slot;
        let lanes = pipeline.partials[0].lanes;
        self.code.line(format!(
            "{slot} = {slot} == {} ? 0 : {slot} + 1;",
            lanes - 1
        ));
        self.code.close();
        for partial in &pipeline.partials {
            let k = format!("{}_k", partial.name);
            self.code.open(format!(
                "for (int {k} = 0; {k} < {}; {k} += 1) {{",
                partial.lanes
            ));
            let merge = format!("{}[{k}]", partial.name);
            // A named resolution (`partial_resolution` made it) always
            // has a statement.
            let statement = crate::tasklet::store_statement(
                &partial.target,
                &merge,
                &partial.combine,
                &partial.ty,
            )
            .unwrap_or_default();
            self.code.line(statement);
            self.code.close();
        }
        // Before the loop: the accumulators and the slot; in the
        // pipeline: no dependence through the accumulators.
        let indent = |line: &str| line.chars().take_while(|c| *c == ' ').collect::<String>();
        let pragma = indent(&self.code.lines[pipeline.line]);
        let dependences = pipeline.partials.iter().map(|p| {
            format!(
                "{pragma}#pragma HLS DEPENDENCE variable={} inter false",
                p.name
            )
        });
        let at = pipeline.line + 1;
        self.code
            .lines
            .splice(at..at, dependences.collect::<Vec<_>>());
        let head = pipeline.line - 1;
        let outer = indent(&self.code.lines[head]);
        let mut before = Vec::new();
        for p in &pipeline.partials {
            let k = format!("{}_k", p.name);
            before.extend([
                format!("{outer}{} {}[{}];", p.ty, p.name, p.lanes),
                format!(
                    "{outer}#pragma HLS ARRAY_PARTITION variable={} complete",
                    p.name
                ),
                format!("{outer}for (int {k} = 0; {k} < {}; {k} += 1) {{", p.lanes),
                format!("{outer}  #pragma HLS UNROLL"),
                format!("{outer}  {}[{k}] = {};", p.name, p.identity),
                format!("{outer}}}"),
            ]);
        }
        before.push(format!("{outer}int {slot} = 0;"));
        self.code.lines.splice(head..head, before);
    }

    /// An access node: copies into it and stores of tasklet outputs
    /// (scopes write through their exits).
    fn access(&mut self, access: Op<'a>) -> Result<'a, ()> {
        self.bind_view(access)?;
        let dst = self.info(access, access.operands()[0])?;
        for edge in incoming_edges(access) {
            match edge.role {
                EdgeRole::Input => {}
                EdgeRole::After | EdgeRole::Bind => continue,
                _ => return fail(access, "has an edge the HLS emitter does not support"),
            }
            // A view's edge into the data it views binds it and moves
            // nothing.
            if sdfg_dialect::binds_view(edge.source, access) {
                continue;
            }
            let Some(source) = edge.source.defining_op() else {
                // A copy from the data a scope passes in.
                let memlet = edge.memlet.clone().unwrap_or_else(|| Memlet::plain(""));
                let src = self.info(access, edge.source)?;
                self.copy(access, &src, &dst, &memlet)?;
                continue;
            };
            match source.name() {
                "sdfg.map" | "sdfg.tasklet" | "sdfg.nested" | "sdfg.consume" => {}
                "sdfg.access" => {
                    let memlet = edge.memlet.clone().unwrap_or_else(|| Memlet::plain(""));
                    let src = self.info(access, edge.source)?;
                    self.copy(access, &src, &dst, &memlet)?;
                }
                other => {
                    return fail(
                        access,
                        format!(
                            "is written by '{other}', which the HLS emitter does not support yet"
                        ),
                    )
                }
            }
        }
        Ok(())
    }

    /// Binds the views of the access nodes among `ops` before any of them
    /// is emitted: a scope that writes a view comes before the node that
    /// binds it to its data.
    fn bind_views(&mut self, ops: &[Op<'a>]) -> Result<'a, ()> {
        for op in ops.iter().filter(|o| o.is("sdfg.access")) {
            self.bind_view(*op)?;
        }
        Ok(())
    }

    /// Where `access` is a node of a view, binds the view to the data it
    /// views, as DaCe's code generator defines the view's pointer there:
    /// from here on the view's elements are the viewed data's, from the
    /// first element of the bound subset on, at the view's strides.
    fn bind_view(&mut self, access: Op<'a>) -> Result<'a, ()> {
        let container = access.operands()[0];
        let Some((dace, layout)) = self.views.get(&key(&container)).cloned() else {
            return Ok(());
        };
        let (source, subset) =
            sdfg_dialect::view_binding(access, container).ok_or_else(|| Failure {
                op: access,
                message: format!("view '{dace}' is not bound to any data here"),
            })?;
        // A view of a view: that one is bound first.
        if let Some(node) = source.defining_op().filter(|o| o.is("sdfg.access")) {
            if node != access {
                self.bind_view(node)?;
            }
        }
        let before = std::mem::take(&mut self.used);
        let viewed = self.info(access, source)?;
        if !matches!(viewed.home, Home::Global | Home::Local(_)) {
            return fail(
                access,
                format!(
                    "view '{dace}' views '{}', which is not an array in memory",
                    viewed.dace
                ),
            );
        }
        let base = if subset.is_empty() {
            viewed.base.clone().unwrap_or_else(|| "0".into())
        } else {
            let subset = self.subset(access, &subset)?;
            let first = self.element(access, &viewed, &subset.min_element())?;
            first
                .strip_prefix(&format!("{}[", viewed.name))
                .and_then(|b| b.strip_suffix(']'))
                .unwrap_or("0")
                .to_string()
        };
        let uses = std::mem::replace(&mut self.used, before);
        self.used.extend(uses.iter().cloned());
        self.view_uses.insert(key(&container), uses);
        self.by_name.insert(dace.clone(), key(&container));
        self.containers.insert(
            key(&container),
            Info {
                dace,
                layout,
                base: Some(format!("({base})")),
                init: None,
                ..viewed
            },
        );
        Ok(())
    }

    fn copy(&mut self, op: Op<'a>, src: &Info, dst: &Info, memlet: &Memlet) -> Result<'a, ()> {
        let (src_stream, dst_stream) = (
            matches!(src.home, Home::Stream { .. }),
            matches!(dst.home, Home::Stream { .. }),
        );
        if src_stream || dst_stream {
            return self.stream_copy(op, src, dst, memlet);
        }
        let from = self.subset(op, &memlet.subset)?;
        let sizes: Vec<Expr> = from.ranges().iter().map(Range::size).collect();
        let to = match &memlet.other {
            Some(o) => self.subset(op, o)?,
            None if dst.layout.scalar => self.subset(op, "0")?,
            None => {
                let squeezed: Vec<Expr> = sizes
                    .iter()
                    .filter(|e| e.as_int() != Some(1))
                    .cloned()
                    .collect();
                if sizes.len() == dst.layout.shape.len() {
                    Subset::full(&sizes)
                } else if squeezed.len() == dst.layout.shape.len() {
                    Subset::full(&squeezed)
                } else {
                    Subset::full(&dst.layout.shape)
                }
            }
        };
        let moving = |s: &Subset| -> Vec<usize> {
            (0..s.dims())
                .filter(|d| s.ranges()[*d].size().as_int() != Some(1))
                .collect()
        };
        let (src_dims, dst_dims) = (moving(&from), moving(&to));
        let size = |s: &Subset, d: &usize| s.ranges()[*d].size();
        let same_shape = src_dims.len() == dst_dims.len()
            && src_dims
                .iter()
                .zip(&dst_dims)
                .all(|(a, b)| size(&from, a) == size(&to, b));
        let volume = |s: &Subset, dims: &[usize]| {
            dims.iter()
                .fold(Expr::int(1), |acc, d| Expr::mul(&acc, &size(s, d)))
        };
        if !same_shape && volume(&from, &src_dims) != volume(&to, &dst_dims) {
            return fail(
                op,
                format!(
                    "copies {} elements into {}",
                    volume(&from, &src_dims),
                    volume(&to, &dst_dims)
                ),
            );
        }
        // Loops over the source's points; the destination's point is the
        // one at the same row-major position.
        // Inside a pipelined loop the copy is unrolled (HLS pipelines no
        // loop inside a pipeline); elsewhere its innermost loop is
        // pipelined.
        let counters: Vec<String> = src_dims.iter().map(|_| self.fresh("c")).collect();
        let in_pipeline = !self.pipelines.is_empty();
        for (n, d) in counters.iter().zip(&src_dims) {
            let count = self.int(op, &size(&from, d))?;
            self.code
                .open(format!("for (long long {n} = 0; {n} < {count}; ++{n}) {{"));
            if in_pipeline {
                self.code.line("#pragma HLS UNROLL");
            } else if n == counters.last().unwrap_or(n) {
                self.code.line("#pragma HLS PIPELINE II=1");
            }
        }
        let source_position: Vec<Expr> = (0..src_dims.len())
            .map(|k| Expr::symbol(&format!("__counter{k}")))
            .collect();
        let target_position = if same_shape {
            source_position.clone()
        } else {
            let mut flat = Expr::int(0);
            for (k, d) in src_dims.iter().enumerate() {
                flat = Expr::add(&Expr::mul(&flat, &size(&from, d)), &source_position[k]);
            }
            let sizes: Vec<Expr> = dst_dims.iter().map(|d| size(&to, d)).collect();
            Expr::unravel(&flat, &sizes)
        };
        let point = |s: &Subset, dims: &[usize], position: &[Expr]| -> Vec<Expr> {
            s.ranges()
                .iter()
                .enumerate()
                .map(|(d, r)| match dims.iter().position(|x| *x == d) {
                    Some(k) => range_point(r, &position[k]),
                    None => r.start.clone(),
                })
                .collect()
        };
        let depth = self.params.len();
        for (k, n) in counters.iter().enumerate() {
            self.params.push((format!("__counter{k}"), n.clone()));
        }
        let read = self.element(op, src, &point(&from, &src_dims, &source_position))?;
        let write = self.element(op, dst, &point(&to, &dst_dims, &target_position))?;
        self.params.truncate(depth);
        let statement = store(op, &write, &read, &memlet.wcr, &dst.ty)?;
        self.code.line(statement);
        for _ in &counters {
            self.code.close();
        }
        Ok(())
    }

    /// A copy from or into a stream: the array's subset pushed in
    /// row-major order, or as many elements popped into it (a stream into
    /// a stream moves the source subset's volume).
    fn stream_copy(
        &mut self,
        op: Op<'a>,
        src: &Info,
        dst: &Info,
        memlet: &Memlet,
    ) -> Result<'a, ()> {
        if memlet.wcr != Wcr::None {
            return fail(
                op,
                "copies through a stream with a write-conflict resolution",
            );
        }
        let src_stream = matches!(src.home, Home::Stream { .. });
        let from = self.subset(op, &memlet.subset)?;
        // The array side's subset, and the stream side's element.
        let (array, array_subset, stream, stream_point) = if src_stream {
            let to = match &memlet.other {
                Some(o) => self.subset(op, o)?,
                None => Subset::full(&dst.layout.shape),
            };
            (dst, to, src, from.min_element())
        } else {
            let to = match &memlet.other {
                Some(o) => self.subset(op, o)?,
                None => Subset::indices(vec![Expr::int(0); dst.layout.shape.len().max(1)]),
            };
            (src, from.clone(), dst, to.min_element())
        };
        let queue = self.element(op, stream, &stream_point)?;
        if matches!(array.home, Home::Stream { .. }) {
            // Stream to stream: the volume of the source's subset.
            let n = self.int(op, &array_subset.volume())?;
            let counter = self.fresh("c");
            let from_queue = self.element(op, src, &from.min_element())?;
            let to_queue = self.element(op, dst, &stream_point)?;
            self.code.open(format!(
                "for (long long {counter} = 0; {counter} < {n}; ++{counter}) {{"
            ));
            self.code.line("#pragma HLS PIPELINE II=1");
            self.code
                .line(format!("{to_queue}.write({from_queue}.read());"));
            self.code.close();
            return Ok(());
        }
        let counters: Vec<String> = array_subset
            .ranges()
            .iter()
            .map(|_| self.fresh("c"))
            .collect();
        for (n, r) in counters.iter().zip(array_subset.ranges()) {
            let count = self.int(op, &r.size())?;
            self.code
                .open(format!("for (long long {n} = 0; {n} < {count}; ++{n}) {{"));
            if Some(n) == counters.last() {
                self.code.line("#pragma HLS PIPELINE II=1");
            }
        }
        let depth = self.params.len();
        let mut point = Vec::new();
        for (k, (n, r)) in counters.iter().zip(array_subset.ranges()).enumerate() {
            let symbol = format!("__counter{k}");
            self.params.push((symbol.clone(), n.clone()));
            point.push(range_point(r, &Expr::symbol(&symbol)));
        }
        let element = self.element(op, array, &point)?;
        self.params.truncate(depth);
        if src_stream {
            self.code.line(format!("{element} = {queue}.read();"));
        } else {
            self.code.line(format!("{queue}.write({element});"));
        }
        for _ in &counters {
            self.code.close();
        }
        Ok(())
    }

    fn tasklet(&mut self, tasklet: Op<'a>) -> Result<'a, ()> {
        let label = tasklet.str_attr("label").unwrap_or("tasklet").to_string();
        let out_names = tasklet.str_array_attr("out_names");
        let by_ref = tasklet.bool_array_attr("by_ref");
        let is_ref = |k: usize| by_ref.get(k).copied().unwrap_or(false);
        let language = tasklet
            .attr("language")
            // SAFETY: the language is an integer enum attribute.
            .map(|a| unsafe { mlir_sys::mlirIntegerAttrGetValueInt(a) });
        if !tasklet.has_body(0) && language != Some(1) {
            return fail(
                tasklet,
                "has foreign Python code, which HLS cannot synthesize; translate it to an MLIR body first",
            );
        }
        // C++ code is written as it is: what HLS cannot synthesize in it is
        // refused here.
        if let Some(code) = tasklet.str_attr("code").filter(|_| !tasklet.has_body(0)) {
            const DYNAMIC: [&str; 6] = ["new", "delete", "malloc", "calloc", "realloc", "free"];
            if let Some(word) =
                sdfg_dialect::identifiers(code).find(|w| DYNAMIC.contains(&w.as_str()))
            {
                return fail(
                    tasklet,
                    format!("has C++ code that allocates memory dynamically (`{word}`), which HLS cannot synthesize"),
                );
            }
            if let Some(container) = [
                "std::vector",
                "std::map",
                "std::list",
                "std::string",
                "std::deque",
            ]
            .into_iter()
            .find(|c| code.contains(c))
            {
                return fail(
                    tasklet,
                    format!(
                        "has C++ code that uses `{container}`, a container HLS cannot synthesize"
                    ),
                );
            }
        }
        let mut outputs = Vec::new();
        for (k, result) in tasklet.results().into_iter().enumerate() {
            if is_ref(k) {
                continue;
            }
            let ty =
                crate::cexpr::mlir_type(&type_to_string(result.ty())).map_err(|m| Failure {
                    op: tasklet,
                    message: m,
                })?;
            let name = self.fresh(&format!(
                "{label}_{}",
                out_names.get(k).copied().unwrap_or("out")
            ));
            self.code.line(format!("{ty} {name};"));
            self.values.insert(key(&result), name.clone());
            outputs.push(name);
        }
        self.code.open("{");
        let lookup_owned: Vec<(String, String)> = self
            .params
            .iter()
            .cloned()
            .chain(self.symbols.iter().map(|(a, b)| (a.clone(), b.clone())))
            .collect();
        let lookup = move |name: &str| {
            lookup_owned
                .iter()
                .rev()
                .find(|(d, _)| d == name)
                .map(|(_, c)| c.clone())
        };
        let prefix = self.fresh("v");
        let mut body = Body::new(&format!("{prefix}_"), &lookup);
        let args = tasklet.region_args(0);
        let mut k = 0;
        for edge in incoming_edges(tasklet) {
            if edge.role != EdgeRole::Input {
                continue;
            }
            if !tasklet.has_body(0) {
                // Foreign C++ code: the input is a constant of the
                // connector's name.
                let name = edge.connector.unwrap_or("in").to_string();
                let (ty, read) = match self.values.get(&key(&edge.source)) {
                    Some(var) => {
                        let ty = crate::cexpr::mlir_type(&type_to_string(edge.source.ty()))
                            .map_err(|m| Failure {
                                op: tasklet,
                                message: m,
                            })?;
                        (ty, var.clone())
                    }
                    None => {
                        let info = self.info(tasklet, edge.source)?;
                        let memlet = edge.memlet.clone().unwrap_or_else(|| Memlet::plain("0"));
                        let subset = self.subset(tasklet, &memlet.subset)?;
                        if subset.volume().as_int() != Some(1) {
                            return fail(tasklet, format!("C++ code reads connector '{name}' as an array, which the HLS emitter does not support yet"));
                        }
                        let read = self.element(tasklet, &info, &subset.min_element())?;
                        (info.ty.clone(), read)
                    }
                };
                self.code.line(format!("const {ty} {name} = {read};"));
                self.code.line(format!("(void){name};"));
                continue;
            }
            let arg = args[k];
            k += 1;
            if arg.uses().is_empty() {
                continue;
            }
            if let Some(var) = self.values.get(&key(&edge.source)) {
                body.bind(arg, var.clone());
                continue;
            }
            let info = self.info(tasklet, edge.source)?;
            let memlet = edge.memlet.clone().unwrap_or_else(|| Memlet::plain("0"));
            let subset = self.subset(tasklet, &memlet.subset)?;
            let arg_ty = type_to_string(arg.ty());
            let connector = identifier(edge.connector.unwrap_or("in"));
            if arg_ty.starts_with("memref<") {
                let window = self.window(tasklet, &info, &subset, &arg_ty)?;
                body.bind_window(arg, window);
                continue;
            }
            let point = subset.min_element();
            let mut read = self.element(tasklet, &info, &point)?;
            if matches!(info.home, Home::Stream { .. }) {
                read = format!("{read}.read()");
            }
            let ty = crate::cexpr::mlir_type(&arg_ty).map_err(|m| Failure {
                op: tasklet,
                message: m,
            })?;
            let name = self.fresh(&connector);
            self.code.line(format!("const {ty} {name} = {read};"));
            body.bind(arg, name);
        }
        // Outputs written by reference: their block arguments (after the
        // inputs) are where they write.
        let mut arg_k = k;
        for (out, result) in tasklet.results().into_iter().enumerate() {
            if !is_ref(out) {
                continue;
            }
            let arg = args[arg_k];
            arg_k += 1;
            let (container, memlet) = self.written_place(tasklet, result)?;
            let info = self.info(tasklet, container)?;
            let subset = self.subset(tasklet, &memlet.subset)?;
            let arg_ty = type_to_string(arg.ty());
            let place = if arg_ty.contains('x') {
                Place::Window(self.window(tasklet, &info, &subset, &arg_ty)?)
            } else {
                Place::Element(self.element(tasklet, &info, &subset.min_element())?)
            };
            body.bind_target(
                arg,
                Target {
                    place,
                    wcr: memlet.wcr.clone(),
                    ty: info.ty.clone(),
                    stream: matches!(info.home, Home::Stream { .. }),
                },
            );
        }
        if tasklet.has_body(0) {
            let (lines, used) = body
                .translate(tasklet.region_ops(0), &outputs)
                .map_err(|u| Failure {
                    op: u.op,
                    message: u.message,
                })?;
            self.note_symbols(used);
            for line in lines {
                self.code.line(line);
            }
        } else {
            // C++ code reads its inputs and assigns its outputs by their
            // connectors' names, as DaCe's code generator declares them.
            for (k, result) in tasklet.results().into_iter().enumerate() {
                let ty =
                    crate::cexpr::mlir_type(&type_to_string(result.ty())).map_err(|m| Failure {
                        op: tasklet,
                        message: m,
                    })?;
                self.code.line(format!(
                    "{ty} {};",
                    out_names.get(k).copied().unwrap_or("out")
                ));
            }
            for line in tasklet.str_attr("code").unwrap_or_default().lines() {
                self.code.line(line);
            }
            for (k, var) in outputs.iter().enumerate() {
                self.code.line(format!(
                    "{var} = {};",
                    out_names.get(k).copied().unwrap_or("out")
                ));
            }
            for name in self
                .symbols
                .keys()
                .chain(self.params.iter().map(|(d, _)| d))
            {
                if tasklet
                    .str_attr("code")
                    .is_some_and(|c| sdfg_dialect::identifiers(c).any(|w| w == *name))
                {
                    let c = self.symbols.get(name).cloned();
                    if let Some(c) = c {
                        self.used.insert(c);
                    }
                }
            }
        }
        self.code.close();
        // The writes of each output not written by reference.
        let results: Vec<Val<'a>> = tasklet
            .results()
            .into_iter()
            .enumerate()
            .filter(|(k, _)| !is_ref(*k))
            .map(|(_, r)| r)
            .collect();
        for (result, var) in results.into_iter().zip(&outputs) {
            for (user, index) in result.uses() {
                let (container, memlet) = match user.name() {
                    "sdfg.exit" => destination(user, index)?,
                    "sdfg.access" => {
                        let memlet = incoming_edges(user)
                            .into_iter()
                            .find(|e| e.source == result)
                            .and_then(|e| e.memlet)
                            .unwrap_or_else(|| Memlet::plain("0"));
                        (user.operands()[0], memlet)
                    }
                    "sdfg.tasklet" => continue,
                    other => return fail(tasklet, format!("an output goes to '{other}', which the HLS emitter does not support yet")),
                };
                let info = self.info(user, container)?;
                let subset = self.subset(user, &memlet.subset)?;
                let target = self.element(user, &info, &subset.min_element())?;
                let float = info.ty == "double" || info.ty == "float";
                let target = if float && memlet.wcr != Wcr::None {
                    self.note_accumulation(target, container, &memlet.wcr, &info.ty)
                } else {
                    target
                };
                let statement = if matches!(info.home, Home::Stream { .. }) {
                    if memlet.wcr != Wcr::None {
                        return fail(user, "pushes to a stream with a write-conflict resolution");
                    }
                    format!("{target}.write({var});")
                } else {
                    store(user, &target, var, &memlet.wcr, &info.ty)?
                };
                self.code.line(statement);
            }
        }
        Ok(())
    }

    /// The container and memlet the one edge leaving `result` (a tasklet
    /// output) writes.
    fn written_place(&mut self, tasklet: Op<'a>, result: Val<'a>) -> Result<'a, (Val<'a>, Memlet)> {
        let uses = result.uses();
        let [(user, index)] = uses.as_slice() else {
            return fail(
                tasklet,
                "has an output written by reference that does not go to exactly one place",
            );
        };
        match user.name() {
            "sdfg.exit" => destination(*user, *index),
            "sdfg.access" => {
                let memlet = incoming_edges(*user)
                    .into_iter()
                    .find(|e| e.source == result)
                    .and_then(|e| e.memlet)
                    .unwrap_or_else(|| Memlet::plain("0"));
                Ok((user.operands()[0], memlet))
            }
            other => fail(
                tasklet,
                format!("an output goes to '{other}', which the HLS emitter does not support yet"),
            ),
        }
    }

    /// Notes a floating-point accumulation into `target` (an element of
    /// `container`) inside the innermost pipelined loop, and returns what
    /// to accumulate into instead. Where the target does not move with the
    /// loop's variable, each iteration would wait for the previous one's
    /// result: an interleaved accumulator takes the updates instead, where
    /// the resolution has an identity, the loop does not read the
    /// container, and the target does not depend on inner loops;
    /// otherwise the dependence is reported.
    fn note_accumulation(
        &mut self,
        target: String,
        container: Val<'a>,
        wcr: &Wcr,
        ty: &str,
    ) -> String {
        let Some(pipeline) = self.pipelines.last_mut() else {
            return target;
        };
        let words: BTreeSet<&str> = target
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .collect();
        let moves = pipeline
            .variables
            .last()
            .is_some_and(|v| words.contains(v.as_str()));
        if moves {
            return target;
        }
        if let Some(p) = pipeline
            .partials
            .iter()
            .find(|p| p.target == target && p.wcr == *wcr)
        {
            return format!("{}[{}]", p.name, pipeline.slot);
        }
        let inner = self.params[pipeline.in_scope.min(self.params.len())..]
            .iter()
            .any(|(_, c)| words.contains(c.as_str()));
        let read = pipeline
            .reads
            .as_ref()
            .is_none_or(|reads| reads.contains(&container));
        let resolution = crate::tasklet::partial_resolution(wcr, ty);
        let Some((identity, combine)) = resolution.filter(|_| !inner && !read) else {
            if pipeline.carried.is_none() {
                pipeline.carried = Some(target.clone());
            }
            return target;
        };
        let lanes = pipeline.trips.map_or(LANES, |t| t.clamp(1, LANES));
        let name = self.fresh("partial");
        let slot = match self.pipelines.last().map(|p| p.slot.clone()) {
            Some(slot) if !slot.is_empty() => slot,
            _ => self.fresh("slot"),
        };
        let Some(pipeline) = self.pipelines.last_mut() else {
            return target;
        };
        pipeline.slot = slot.clone();
        pipeline.partials.push(Partial {
            name: name.clone(),
            ty: ty.to_string(),
            target,
            wcr: wcr.clone(),
            identity,
            combine,
            lanes,
        });
        format!("{name}[{slot}]")
    }

    /// The window `subset` of a container that a `memref` connector of
    /// type `ty` reads: `memref.load` indexes the container directly (the
    /// connector's dimensions are the subset's, or those of them not of
    /// size 1, as DaCe squeezes them).
    fn window(&mut self, op: Op<'a>, info: &Info, subset: &Subset, ty: &str) -> Result<'a, Window> {
        if !matches!(info.home, Home::Global | Home::Local(_)) {
            return fail(op, format!("reads scalar '{}' as an array", info.dace));
        }
        let rank = ty.matches('x').count();
        // (range, coefficient multiplier) of each dimension the connector
        // sees: a tiled subset is tile origins, then tiles (as DaCe views
        // it); otherwise its ranges, those of size 1 dropped where the
        // connector has fewer dimensions (DaCe squeezes them).
        let dims: Vec<(usize, bool)> = if subset.is_tiled() {
            subset
                .data_dims()
                .into_iter()
                .map(|d| (d.range, d.tile))
                .collect()
        } else if rank == subset.dims() {
            (0..subset.dims()).map(|d| (d, false)).collect()
        } else {
            (0..subset.dims())
                .filter(|d| subset.ranges()[*d].size().as_int() != Some(1))
                .map(|d| (d, false))
                .collect()
        };
        if dims.len() != rank {
            return fail(
                op,
                format!("reads a window of {} dimensions as `{ty}`", dims.len()),
            );
        }
        let first = self.element(op, info, &subset.min_element())?;
        let base = first
            .strip_prefix(&format!("{}[", info.name))
            .and_then(|b| b.strip_suffix(']'))
            .unwrap_or("0")
            .to_string();
        let mut coefficients = Vec::new();
        for (d, tile) in dims {
            let (stride, _) = stride_and_offset(&info.layout, d);
            let step = if tile {
                Expr::int(1)
            } else {
                subset.ranges()[d].step.clone()
            };
            coefficients.push(self.int(op, &Expr::mul(&step, &stride))?);
        }
        Ok(Window {
            name: info.name.clone(),
            base,
            coefficients,
        })
    }
}

/// The container and innermost memlet an exit entry writes: through the
/// scope's result to the access node it goes to (through outer exits).
fn destination<'a>(exit: Op<'a>, index: usize) -> Result<'a, (Val<'a>, Memlet)> {
    let memlet = exit
        .array_attr("memlets")
        .get(index)
        .copied()
        .and_then(Memlet::from_attr)
        .ok_or_else(|| Failure {
            op: exit,
            message: format!("exit entry {index} has no memlet"),
        })?;
    let (mut exit, mut index) = (exit, index);
    loop {
        let scope = exit.parent().ok_or_else(|| Failure {
            op: exit,
            message: "is not inside a scope".into(),
        })?;
        let name = exit
            .str_array_attr("names")
            .get(index)
            .copied()
            .unwrap_or_default();
        let position = scope
            .str_array_attr("out_names")
            .iter()
            .position(|n| *n == name)
            .ok_or_else(|| Failure {
                op: exit,
                message: format!("connector '{name}' is not an output of its scope"),
            })?;
        let uses = scope.results()[position].uses();
        let [(user, k)] = uses.as_slice() else {
            return fail(scope, format!("output '{name}' does not go to exactly one place, which the HLS emitter does not support yet"));
        };
        match user.name() {
            "sdfg.access" => return Ok((user.operands()[0], memlet)),
            "sdfg.exit" => {
                exit = *user;
                index = *k;
            }
            other => {
                return fail(
                    scope,
                    format!(
                    "output '{name}' goes to '{other}', which the HLS emitter does not support yet"
                ),
                )
            }
        }
    }
}

/// `target = value`, or the write-conflict resolution of it.
fn store<'a>(op: Op<'a>, target: &str, value: &str, wcr: &Wcr, ty: &str) -> Result<'a, String> {
    crate::tasklet::store_statement(target, value, wcr, ty)
        .map_err(|message| Failure { op, message })
}

/// Whether every write into an access node comes from a scope.
fn only_scope_writes(access: Op<'_>) -> bool {
    incoming_edges(access)
        .iter()
        .all(|e| e.source.defining_op().is_some_and(|d| d.is("sdfg.map")))
}

/// The bounds of a symbolic trip count that the symbolic engine knows
/// (array sizes are positive); `None` for constant or unbounded ones.
fn trip_bounds(range: &Range) -> Option<(i64, i64)> {
    let count = range.count();
    if count.as_int().is_some() {
        return None;
    }
    let assumptions = Assumptions::all_positive();
    let simplified = assumptions.simplify(&count);
    let (lo, hi) = assumptions.interval(&simplified);
    let floor = |(n, d): (i128, i128)| i64::try_from(n.div_euclid(d)).ok();
    let lo = lo.and_then(floor).unwrap_or(0).max(0);
    let hi = hi.and_then(floor)?;
    Some((lo, hi))
}
