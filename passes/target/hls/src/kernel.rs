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

use crate::cexpr::{element_type, identifier, CEmitter};
use crate::tasklet::{Body, LocalArray};
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
}

#[derive(Clone, Debug)]
struct Info {
    name: String,
    dace: String,
    ty: String,
    layout: Layout,
    home: Home,
    partition: bool,
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

struct Emitter<'a> {
    containers: HashMap<usize, Info>,
    symbols: BTreeMap<String, String>,
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
        params: Vec::new(),
        values: HashMap::new(),
        used: BTreeSet::new(),
        functions: Vec::new(),
        code: Code::default(),
        next: 0,
        _ops: std::marker::PhantomData,
    };
    let mut device_scopes = 0;
    for op in sdfg.descendants() {
        let schedule = op.attr("schedule").and_then(Schedule::from_attr);
        if schedule.is_some_and(|s| s.name() == "FPGA_Device") {
            device_scopes += 1;
        }
        if op.is("sdfg.nested") || op.is("sdfg.library") {
            return fail(
                op,
                "is not supported by the HLS emitter yet (inline nested SDFGs and expand library nodes first)",
            );
        }
    }
    if device_scopes == 0 {
        return fail(
            sdfg,
            "has no FPGA_Device scope (run sdfg-fpga-transform first)",
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

    // Containers.
    let arg_names = sdfg.str_array_attr("arg_names");
    let mut host = Vec::new();
    let mut params = Vec::new();
    let mut locals = Vec::new();
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
        let layout = layout(value.ty()).map_err(|m| Failure {
            op: owner,
            message: format!("container '{dace}': {m}"),
        })?;
        let ty = element_type(&layout.elem).map_err(|m| Failure {
            op: owner,
            message: format!("container '{dace}': {m}"),
        })?;
        let cname = identifier(&dace);
        if !transient {
            host.push((dace.clone(), ty.clone(), layout.clone()));
        }
        let storage = layout.storage.name();
        let used = in_kernel(&value);
        if layout.view || layout.reference || layout.stream {
            if used {
                return fail(owner, format!("container '{dace}' is a view, reference or stream, which the HLS emitter does not support yet"));
            }
            continue;
        }
        let home = if layout.scalar {
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
            let size = total_size(&layout).ok_or_else(|| Failure {
                op: owner,
                message: format!(
                    "local container '{dace}' has no constant size, which on-chip memory needs"
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
        let partition = value.uses().iter().any(|(user, _)| {
            let mut scope = user.parent();
            while let Some(s) = scope {
                if s.is("sdfg.map") && s.attr("unroll").is_some() {
                    return true;
                }
                scope = s.parent();
            }
            false
        });
        match home {
            Home::Global
                if used
                    || copies_in
                        .iter()
                        .chain(&copies_out)
                        .any(|(a, b)| *a == dace || *b == dace) =>
            {
                params.push(Param {
                    dace: dace.clone(),
                    name: cname.clone(),
                    ty: ty.clone(),
                    kind: ParamKind::Global {
                        layout: layout.clone(),
                        transient,
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
            Home::Register | Home::Local(_) if used => locals.push(cname.clone()),
            _ => {}
        }
        e.containers.insert(
            key(&value),
            Info {
                name: cname,
                dace,
                ty,
                layout,
                home,
                partition,
            },
        );
    }

    // Symbols: free ones are parameters, assigned ones variables.
    let assigned = assigned_symbols(sdfg);
    let mut symbol_vars = Vec::new();
    for (symbol, ty) in declared_symbols(sdfg) {
        let c_ty = crate::cexpr::mlir_type(&type_to_string(ty)).map_err(|m| Failure {
            op: sdfg,
            message: format!("symbol '{symbol}': {m}"),
        })?;
        let c_ty = if c_ty == "int64_t" {
            "long long".to_string()
        } else {
            c_ty
        };
        e.symbols.insert(symbol.to_string(), identifier(symbol));
        if assigned.contains(symbol) {
            symbol_vars.push(format!("{c_ty} {};", identifier(symbol)));
        } else {
            params.push(Param {
                dace: symbol.to_string(),
                name: identifier(symbol),
                ty: c_ty,
                kind: ParamKind::Symbol,
            });
        }
    }

    // The body.
    e.code.depth = 1;
    for v in &symbol_vars {
        e.code.line(v);
    }
    let mut local_infos: Vec<Info> = e
        .containers
        .values()
        .filter(|i| locals.contains(&i.name))
        .cloned()
        .collect();
    local_infos.sort_by(|a, b| a.name.cmp(&b.name));
    for info in &local_infos {
        match info.home {
            Home::Local(size) => {
                e.code.line(format!("{} {}[{size}];", info.ty, info.name));
                if info.partition {
                    e.code.line(format!(
                        "#pragma HLS ARRAY_PARTITION variable={} complete",
                        info.name
                    ));
                }
            }
            _ => e.code.line(format!("{} {};", info.ty, info.name)),
        }
    }
    e.sequence(&blocks)?;

    // The translation unit.
    let mut out = String::new();
    out.push_str(&format!(
        "// Generated by sdfg-translate --emit-hls from SDFG `{}`.\n",
        sdfg.symbol_name().unwrap_or_default()
    ));
    out.push_str(
        "#include <cmath>\n#include <cstdint>\n#include <cstdio>\n#include <hls_stream.h>\n\n",
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
    for line in &e.code.lines {
        out.push_str(line);
        out.push('\n');
    }
    out.push_str("}\n");
    Ok(Kernel {
        code: out,
        name,
        params,
        copies_in,
        copies_out,
        host,
    })
}

/// The total number of elements of a layout's memory (the span of its
/// strides), where it is a constant.
fn total_size(layout: &Layout) -> Option<i64> {
    if layout.scalar {
        return Some(1);
    }
    let mut span = 1i64;
    for (size, stride) in layout.shape.iter().zip(&layout.strides) {
        let (size, stride) = (size.as_int()?, stride.as_int()?);
        span += (size - 1).max(0) * stride;
    }
    Some(span)
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

/// Symbols assigned by edges or loops (variables of the kernel).
fn assigned_symbols(sdfg: Op<'_>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for op in sdfg.descendants() {
        if op.ancestor("sdfg.sdfg") != Some(sdfg) {
            continue;
        }
        match op.name() {
            "sdfg.edge" => out.extend(
                op.str_array_attr("assign_names")
                    .into_iter()
                    .map(String::from),
            ),
            "sdfg.loop" => out.extend(op.str_attr("var").map(String::from)),
            _ => {}
        }
    }
    out
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
    let chain = chain(sdfg, &blocks);
    let Some(chain) = chain else {
        return Ok((Vec::new(), blocks, Vec::new()));
    };
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

fn blocks_of<'a>(owner: Op<'a>) -> Vec<Op<'a>> {
    owner
        .region_ops(0)
        .into_iter()
        .filter(|o| sdfg_dialect::CONTROL_FLOW_BLOCKS.contains(&o.name()))
        .collect()
}

/// The blocks of `owner` in order when they form a chain of edges
/// without conditions or assignments (each block to the next).
fn chain<'a>(owner: Op<'a>, blocks: &[Op<'a>]) -> Option<Vec<Op<'a>>> {
    let edges: Vec<Op<'a>> = owner
        .region_ops(0)
        .into_iter()
        .filter(|o| o.is("sdfg.edge"))
        .collect();
    let name = |b: &Op<'a>| b.symbol_name().unwrap_or_default().to_string();
    let mut order = Vec::new();
    let mut current = blocks.first().copied()?;
    loop {
        order.push(current);
        let out: Vec<&Op<'a>> = edges
            .iter()
            .filter(|e| e.symbol_ref_attr("src") == Some(name(&current).as_str()))
            .collect();
        match out.as_slice() {
            [] => break,
            [edge]
                if edge
                    .str_attr("condition")
                    .is_none_or(|c| c.trim() == "1" || c.trim() == "True")
                    && edge.str_array_attr("assign_names").is_empty() =>
            {
                let dst = edge.symbol_ref_attr("dst")?;
                current = *blocks.iter().find(|b| b.symbol_name() == Some(dst))?;
                if order.contains(&current) {
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
        }
    }

    /// An integer expression (symbols and scope parameters) as C++.
    fn int(&mut self, op: Op<'a>, expr: &Expr) -> Result<'a, String> {
        let (text, used) = {
            let lookup = self.lookup();
            let mut emitter = CEmitter::new(&lookup);
            let text = emitter.int(expr).map_err(|m| Failure { op, message: m })?;
            (text, emitter.used)
        };
        self.note_symbols(used);
        Ok(text)
    }

    fn condition(&mut self, op: Op<'a>, text: &str) -> Result<'a, String> {
        let expr = parse(text).map_err(|e| Failure {
            op,
            message: format!("condition `{text}` does not parse: {e}"),
        })?;
        let (text, used) = {
            let lookup = self.lookup();
            let mut emitter = CEmitter::new(&lookup);
            let text = emitter
                .condition(&expr)
                .map_err(|m| Failure { op, message: m })?;
            (text, emitter.used)
        };
        self.note_symbols(used);
        Ok(text)
    }

    fn note_symbols(&mut self, used: BTreeSet<String>) {
        for s in used {
            if !self.params.iter().any(|(d, _)| *d == s) {
                if let Some(c) = self.symbols.get(&s) {
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
                Ok(info.clone())
            }
            None => fail(op, "accesses data that is not a container of this SDFG"),
        }
    }

    /// The C++ lvalue of the element at `point` of a container.
    fn element(&mut self, op: Op<'a>, info: &Info, point: &[Expr]) -> Result<'a, String> {
        match info.home {
            Home::Register | Home::Value => return Ok(info.name.clone()),
            Home::Pointer => return Ok(format!("*{}", info.name)),
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
            let stride = info
                .layout
                .strides
                .get(d)
                .cloned()
                .unwrap_or_else(|| Expr::int(1));
            let offset = info
                .layout
                .offsets
                .get(d)
                .cloned()
                .unwrap_or_else(|| Expr::int(0));
            linear = Expr::add(&linear, &Expr::mul(&Expr::add(p, &offset), &stride));
        }
        let index = self.int(op, &linear)?;
        Ok(format!("{}[{index}]", info.name))
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
            _ => fail(block, "is a jump the HLS emitter does not support yet"),
        }
    }

    /// A region's blocks: in order where they form a chain, else as a
    /// state machine (a loop over a `switch` on the current block).
    fn region(&mut self, owner: Op<'a>) -> Result<'a, ()> {
        let blocks = blocks_of(owner);
        if let Some(order) = chain(owner, &blocks) {
            return self.sequence(&order);
        }
        let edges: Vec<Op<'a>> = owner
            .region_ops(0)
            .into_iter()
            .filter(|o| o.is("sdfg.edge"))
            .collect();
        let index = |name: &str| blocks.iter().position(|b| b.symbol_name() == Some(name));
        let var = self.fresh("block");
        self.code.line(format!("int {var} = 0;"));
        self.code.open(format!("while ({var} >= 0) {{"));
        self.code.open(format!("switch ({var}) {{"));
        for (k, block) in blocks.iter().enumerate() {
            self.code.open(format!("case {k}: {{"));
            self.block(*block)?;
            let name = block.symbol_name().unwrap_or_default();
            let mut chained = false;
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
                self.code
                    .open(format!("{}if ({c}) {{", if chained { "else " } else { "" }));
                chained = true;
                self.assignments(*edge)?;
                self.code.line(format!("{var} = {dst};"));
                self.code.close();
            }
            if chained {
                self.code.line(format!("else {var} = -1;"));
            } else {
                self.code.line(format!("{var} = -1;"));
            }
            self.code.line("break;");
            self.code.close();
        }
        self.code.close();
        self.code.close();
        Ok(())
    }

    fn assignments(&mut self, edge: Op<'a>) -> Result<'a, ()> {
        let names = edge.str_array_attr("assign_names");
        let values = edge.str_array_attr("assign_values");
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
            self.code.open("for (;;) {");
            self.region(lp)?;
            if lp.attr("update_before_condition").is_some() {
                if !update.is_empty() {
                    self.code.line(format!("{update};"));
                }
                self.code.line(format!("if (!({cond})) break;"));
            } else {
                self.code.line(format!("if (!({cond})) break;"));
                if !update.is_empty() {
                    self.code.line(format!("{update};"));
                }
            }
            self.code.close();
            return Ok(());
        }
        self.code.open(format!("for ({init}; {cond}; {update}) {{"));
        self.region(lp)?;
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
                o.is("sdfg.map")
                    && o.attr("schedule")
                        .and_then(Schedule::from_attr)
                        .is_some_and(|s| s.name() == "FPGA_Device")
            })
            .collect();
        let dataflow = scopes.len() > 1
            && ops
                .iter()
                .all(|o| scopes.contains(o) || (o.is("sdfg.access") && only_scope_writes(*o)))
            && independent(&scopes);
        let mut calls = Vec::new();
        for op in ops {
            match op.name() {
                "sdfg.map" if scopes.contains(&op) => {
                    let call = self.processing_element(op)?;
                    if dataflow {
                        calls.push(call);
                    } else {
                        self.code.line(format!("{call};"));
                    }
                }
                "sdfg.map" => self.map(op)?,
                "sdfg.tasklet" => self.tasklet(op)?,
                "sdfg.access" => self.access(op)?,
                "sdfg.consume" => {
                    return fail(
                        op,
                        "consume scopes are not supported by the HLS emitter yet",
                    )
                }
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
            let (params, args) = self.signature(&used);
            self.functions.push(format!(
                "static void {name}({}) {{\n{}\n}}\n",
                params.join(", "),
                inner.lines.join("\n")
            ));
            self.code.line(format!("{name}({});", args.join(", ")));
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
            .filter(|i| used.contains(&i.name))
            .collect();
        infos.sort_by(|a, b| a.name.cmp(&b.name));
        for info in infos {
            params.push(match info.home {
                Home::Global | Home::Pointer => format!("{} *{}", info.ty, info.name),
                Home::Local(size) => format!("{} {}[{size}]", info.ty, info.name),
                Home::Register => format!("{} &{}", info.ty, info.name),
                Home::Value | Home::Host => format!("{} {}", info.ty, info.name),
            });
            args.push(info.name.clone());
        }
        for (dace, c) in &self.symbols {
            if used.contains(c) && !self.containers.values().any(|i| i.name == *c) {
                let _ = dace;
                params.push(format!("long long {c}"));
                args.push(c.clone());
            }
        }
        (params, args)
    }

    /// Emits an FPGA_Device map as a function; returns the call.
    fn processing_element(&mut self, map: Op<'a>) -> Result<'a, String> {
        let outer_code = std::mem::take(&mut self.code);
        let outer_used = std::mem::take(&mut self.used);
        self.code.depth = 1;
        let result = self.map(map);
        let body = std::mem::replace(&mut self.code, outer_code);
        let used: Vec<String> = std::mem::replace(&mut self.used, outer_used)
            .into_iter()
            .collect();
        result?;
        self.used.extend(used.iter().cloned());
        let name = self.fresh(map.str_attr("label").unwrap_or("map"));
        let (params, args) = self.signature(&used);
        self.functions.push(format!(
            "static void {name}({}) {{\n{}\n}}\n",
            params.join(", "),
            body.lines.join("\n")
        ));
        Ok(format!("{name}({})", args.join(", ")))
    }

    fn map(&mut self, map: Op<'a>) -> Result<'a, ()> {
        if !map.operand_segment(1).is_empty() {
            return fail(
                map,
                "has dynamic range inputs, which the HLS emitter does not support yet",
            );
        }
        let params = map.str_array_attr("params");
        let ranges = map.str_array_attr("ranges");
        let unroll = map.attr("unroll").is_some();
        let innermost = !map.descendants().iter().any(|o| o.is("sdfg.map"));
        let depth = self.params.len();
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
            let compare = match range.step.as_int() {
                Some(s) if s > 0 => "<",
                Some(s) if s < 0 => ">",
                _ => {
                    return fail(
                        map,
                        format!("range `{r}` has a step that is not a nonzero constant"),
                    )
                }
            };
            self.code.open(format!(
                "for (long long {c} = {start}; {c} {compare} {end}; {c} += {step}) {{"
            ));
            if unroll {
                self.code.line("#pragma HLS UNROLL");
            } else if innermost && k + 1 == params.len() {
                self.code.line("#pragma HLS PIPELINE II=1");
            }
            if let Some((lo, hi)) = trip_bounds(&range) {
                self.code
                    .line(format!("#pragma HLS LOOP_TRIPCOUNT min={lo} max={hi}"));
            }
            self.params.push((p.to_string(), c));
        }
        for op in map.region_ops(0) {
            match op.name() {
                "sdfg.tasklet" => self.tasklet(op)?,
                "sdfg.map" => self.map(op)?,
                "sdfg.access" => self.access(op)?,
                "sdfg.exit" => {
                    for (k, value) in op.operands().into_iter().enumerate() {
                        let from_scope = value
                            .defining_op()
                            .is_some_and(|d| d.is("sdfg.tasklet") || d.is("sdfg.map"));
                        if !from_scope {
                            return fail(op, format!("exit entry {k} is not written by a tasklet or a scope, which the HLS emitter does not support yet"));
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
        for _ in params.iter() {
            self.code.close();
        }
        self.params.truncate(depth);
        Ok(())
    }

    /// An access node: copies into it and stores of tasklet outputs
    /// (scopes write through their exits).
    fn access(&mut self, access: Op<'a>) -> Result<'a, ()> {
        let dst = self.info(access, access.operands()[0])?;
        for edge in incoming_edges(access) {
            match edge.role {
                EdgeRole::Input => {}
                EdgeRole::After => continue,
                _ => {
                    return fail(
                        access,
                        "binds a view, which the HLS emitter does not support yet",
                    )
                }
            }
            let Some(source) = edge.source.defining_op() else {
                return fail(
                    access,
                    "is written from a scope argument, which the HLS emitter does not support yet",
                );
            };
            match source.name() {
                "sdfg.map" | "sdfg.tasklet" => {}
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

    fn copy(&mut self, op: Op<'a>, src: &Info, dst: &Info, memlet: &Memlet) -> Result<'a, ()> {
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
        if src_dims.len() != dst_dims.len()
            || src_dims
                .iter()
                .zip(&dst_dims)
                .any(|(a, b)| from.ranges()[*a].size() != to.ranges()[*b].size())
        {
            return fail(op, "copies between subsets of different shapes, which the HLS emitter does not support yet");
        }
        let counters: Vec<String> = src_dims.iter().map(|_| self.fresh("c")).collect();
        for (n, d) in counters.iter().zip(&src_dims) {
            let size = self.int(op, &from.ranges()[*d].size())?;
            self.code
                .open(format!("for (long long {n} = 0; {n} < {size}; ++{n}) {{"));
            if n == counters.last().unwrap_or(n) {
                self.code.line("#pragma HLS PIPELINE II=1");
            }
        }
        let point = |s: &Subset, dims: &[usize]| -> Vec<Expr> {
            s.ranges()
                .iter()
                .enumerate()
                .map(|(d, r)| match dims.iter().position(|x| *x == d) {
                    Some(k) => Expr::add(
                        &r.start,
                        &Expr::mul(&Expr::symbol(&format!("__counter{k}")), &r.step),
                    ),
                    None => r.start.clone(),
                })
                .collect()
        };
        let depth = self.params.len();
        for (k, n) in counters.iter().enumerate() {
            self.params.push((format!("__counter{k}"), n.clone()));
        }
        let read = self.element(op, src, &point(&from, &src_dims))?;
        let write = self.element(op, dst, &point(&to, &dst_dims))?;
        self.params.truncate(depth);
        let statement = store(op, &write, &read, &memlet.wcr, &dst.ty)?;
        self.code.line(statement);
        for _ in &counters {
            self.code.close();
        }
        Ok(())
    }

    fn tasklet(&mut self, tasklet: Op<'a>) -> Result<'a, ()> {
        let label = tasklet.str_attr("label").unwrap_or("tasklet").to_string();
        let out_names = tasklet.str_array_attr("out_names");
        if tasklet.bool_array_attr("by_ref").iter().any(|b| *b) {
            return fail(
                tasklet,
                "has outputs written by reference, which the HLS emitter does not support yet",
            );
        }
        if !tasklet.has_body(0) {
            let language = tasklet
                .attr("language")
                .map(sdfg_dialect::ir::attr_to_string)
                .unwrap_or_default();
            return fail(
                tasklet,
                format!("has foreign code ({language}), which HLS cannot synthesize; translate it to an MLIR body first"),
            );
        }
        let mut outputs = Vec::new();
        for (k, result) in tasklet.results().into_iter().enumerate() {
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
            let arg = args[k];
            k += 1;
            if let Some(var) = self.values.get(&key(&edge.source)) {
                body.bind(arg, var.clone());
                continue;
            }
            let info = self.info(tasklet, edge.source)?;
            let memlet = edge.memlet.clone().unwrap_or_else(|| Memlet::plain("0"));
            let subset = self.subset(tasklet, &memlet.subset)?;
            let arg_ty = type_to_string(arg.ty());
            let connector = identifier(edge.connector.unwrap_or("in"));
            if let Some((shape, elem)) = memref_shape(&arg_ty) {
                let ty = crate::cexpr::mlir_type(&elem).map_err(|m| Failure {
                    op: tasklet,
                    message: m,
                })?;
                let total: i64 = shape.iter().product();
                let name = self.fresh(&connector);
                self.code.line(format!("{ty} {name}[{}];", total.max(1)));
                self.read_window(tasklet, &info, &subset, &name)?;
                body.bind_array(arg, LocalArray { name, shape });
                continue;
            }
            let point = subset.min_element();
            let read = self.element(tasklet, &info, &point)?;
            let ty = crate::cexpr::mlir_type(&arg_ty).map_err(|m| Failure {
                op: tasklet,
                message: m,
            })?;
            let name = self.fresh(&connector);
            self.code.line(format!("const {ty} {name} = {read};"));
            body.bind(arg, name);
        }
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
        self.code.close();
        // The writes of each output.
        for (result, var) in tasklet.results().into_iter().zip(&outputs) {
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
                let statement = store(user, &target, var, &memlet.wcr, &info.ty)?;
                self.code.line(statement);
            }
        }
        Ok(())
    }

    /// Copies the window `subset` of a container into the local array
    /// `name` (row-major).
    fn read_window(
        &mut self,
        op: Op<'a>,
        info: &Info,
        subset: &Subset,
        name: &str,
    ) -> Result<'a, ()> {
        let sizes: Vec<i64> = subset
            .ranges()
            .iter()
            .map(|r| r.size().as_int())
            .collect::<Option<_>>()
            .ok_or_else(|| Failure {
                op,
                message: "reads a window of non-constant size".into(),
            })?;
        let counters: Vec<String> = sizes.iter().map(|_| self.fresh("w")).collect();
        for (n, size) in counters.iter().zip(&sizes) {
            self.code
                .open(format!("for (long long {n} = 0; {n} < {size}; ++{n}) {{"));
            self.code.line("#pragma HLS UNROLL");
        }
        let depth = self.params.len();
        let mut point = Vec::new();
        let mut linear = Expr::int(0);
        for (k, (r, n)) in subset.ranges().iter().zip(&counters).enumerate() {
            let sym = format!("__window{k}");
            self.params.push((sym.clone(), n.clone()));
            point.push(Expr::add(
                &r.start,
                &Expr::mul(&Expr::symbol(&sym), &r.step),
            ));
            linear = Expr::add(
                &Expr::mul(&linear, &Expr::int(sizes[k])),
                &Expr::symbol(&sym),
            );
        }
        let read = self.element(op, info, &point)?;
        let index = self.int(op, &linear)?;
        self.params.truncate(depth);
        self.code.line(format!("{name}[{index}] = {read};"));
        for _ in &counters {
            self.code.close();
        }
        Ok(())
    }
}

/// The static shape and element type of a `memref<AxBxT>` type.
fn memref_shape(ty: &str) -> Option<(Vec<i64>, String)> {
    let inner = ty.strip_prefix("memref<")?.strip_suffix('>')?;
    let parts: Vec<&str> = inner.split('x').collect();
    let (elem, dims) = parts.split_last()?;
    let shape = dims
        .iter()
        .map(|d| d.parse::<i64>().ok())
        .collect::<Option<Vec<_>>>()?;
    Some((shape, elem.to_string()))
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
    Ok(match wcr {
        Wcr::None => format!("{target} = {value};"),
        Wcr::Named(kind) => match kind.name() {
            "sum" => format!("{target} += {value};"),
            "product" => format!("{target} *= {value};"),
            "min" => format!("{target} = ({ty})({value}) < {target} ? ({ty})({value}) : {target};"),
            "max" => format!("{target} = ({ty})({value}) > {target} ? ({ty})({value}) : {target};"),
            "bitwise_and" => format!("{target} &= {value};"),
            "bitwise_or" => format!("{target} |= {value};"),
            "bitwise_xor" => format!("{target} ^= {value};"),
            "logical_and" => format!("{target} = {target} && {value};"),
            "logical_or" => format!("{target} = {target} || {value};"),
            other => return fail(op, format!("write-conflict resolution '{other}' is not supported by the HLS emitter yet")),
        },
        Wcr::Custom(lambda) => {
            return fail(op, format!("custom write-conflict resolution `{lambda}` is not supported by the HLS emitter yet"))
        }
    })
}

/// Whether every write into an access node comes from a scope.
fn only_scope_writes(access: Op<'_>) -> bool {
    incoming_edges(access)
        .iter()
        .all(|e| e.source.defining_op().is_some_and(|d| d.is("sdfg.map")))
}

/// Whether no scope writes a container another one reads or writes.
fn independent(scopes: &[Op<'_>]) -> bool {
    let sets: Vec<(BTreeSet<usize>, BTreeSet<usize>)> = scopes
        .iter()
        .map(|s| {
            let reads = s
                .operand_segment(0)
                .iter()
                .map(|v| key(&underlying_container(*v)))
                .collect();
            let writes = s
                .results()
                .iter()
                .flat_map(|r| r.uses())
                .filter(|(u, _)| u.is("sdfg.access"))
                .map(|(u, _)| key(&u.operands()[0]))
                .collect();
            (reads, writes)
        })
        .collect();
    for (i, (_, wi)) in sets.iter().enumerate() {
        for (j, (rj, wj)) in sets.iter().enumerate() {
            if i != j
                && (wi.intersection(rj).next().is_some() || wi.intersection(wj).next().is_some())
            {
                return false;
            }
        }
    }
    true
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
