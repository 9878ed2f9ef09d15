//! The SDFG being built from one function (or, for a parallel loop whose
//! body needs states, one nested SDFG): its containers, symbols, control
//! flow and dataflow, written as the dialect's text.
//!
//! Control flow is a sequence of control-flow blocks per region, chained
//! by unconditional `sdfg.edge`s ([`Seq`]). Dataflow goes into a [`Flow`]:
//! the region of a state or of a map. Every store (and every value that
//! must outlive its state) is a *statement*: one tasklet whose body is the
//! backward slice of the stored value, with one input connector per load
//! in the slice and one output per store. A state ends at a control-flow
//! op or where a statement would conflict with an earlier one of the same
//! state (it reads what an earlier one wrote, or writes what an earlier
//! one read or wrote); values that an ended state computed and later code
//! reads are kept in transient scalars.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use mlir_sys::*;
use sdfg_dialect::ir::{type_to_string, Op, Val};
use sdfg_symbolic::Expr;

use super::values::{affine_results, fold, is_bool};
use super::{fail, Result};

pub(super) mod library;
mod reshape;

/// Which part of the body of a tasklet comes from which upstream value.
#[derive(Default)]
pub(super) struct Plan<'a> {
    /// The tasklet's label, unique in the module.
    pub label: String,
    /// The upstream ops to clone into the body, in program order.
    pub ops: Vec<Op<'a>>,
    /// The upstream values the body's arguments stand for, in order.
    pub args: Vec<Val<'a>>,
    /// Upstream index values that are symbolic: `sdfg.sym` ops.
    pub syms: Vec<(Val<'a>, String)>,
    /// The values the body yields, in output order.
    pub yields: Vec<Val<'a>>,
}

/// State shared by every SDFG of one module's conversion.
#[derive(Default)]
pub(super) struct Shared<'a> {
    pub plans: Vec<Plan<'a>>,
    /// The functions whose calls become nested SDFGs, by name.
    pub functions: HashMap<String, Op<'a>>,
    /// The linalg ops kept whole (`library.rs`), by the call that stands
    /// in their place while upstream lowers the other linalg ops.
    pub kept: HashMap<Op<'a>, Op<'a>>,
    /// The functions being converted into nested SDFGs (recursion).
    calling: Vec<String>,
    next: usize,
    /// Names in use as containers or symbols.
    taken: HashSet<String>,
}

impl Shared<'_> {
    /// A fresh number for names.
    pub fn id(&mut self) -> usize {
        self.next += 1;
        self.next
    }

    /// `base` or `base1`, `base2`, ...: a name no container or symbol has.
    pub fn fresh(&mut self, base: &str) -> String {
        let mut name = base.to_string();
        let mut k = 0;
        while !self.taken.insert(name.clone()) {
            k += 1;
            name = format!("{base}{k}");
        }
        name
    }

    /// Starts naming the containers and symbols of another function.
    pub fn begin_function(&mut self) {
        self.taken.clear();
    }

    /// Reserves `name` (a function's argument names).
    pub fn reserve(&mut self, name: &str) {
        self.taken.insert(name.to_string());
    }
}

/// A data container.
#[derive(Clone)]
pub(super) struct Container {
    pub name: String,
    /// The element type (`f64`).
    pub elem: String,
    /// The shape; empty for a scalar.
    pub shape: Vec<Expr>,
    /// The strides, where they are not C order's (a part of a container
    /// passed to a call, an argument with a strided layout).
    pub strides: Option<Vec<Expr>>,
}

impl Container {
    /// The `!sdfg.array`/`!sdfg.scalar` type.
    pub fn ty(&self) -> String {
        if self.shape.is_empty() {
            return format!("!sdfg.scalar<{}>", self.elem);
        }
        let quoted = |list: &[Expr]| -> String {
            let items: Vec<String> = list.iter().map(|d| format!("\"{d}\"")).collect();
            items.join(", ")
        };
        let mut ty = format!("!sdfg.array<{} [{}]", self.elem, quoted(&self.shape));
        if let Some(strides) = &self.strides {
            ty.push_str(&format!(" strides [{}]", quoted(strides)));
        }
        ty.push('>');
        ty
    }

    /// The strides, C order's where none are given.
    pub fn layout_strides(&self) -> Vec<Expr> {
        self.strides.clone().unwrap_or_else(|| c_order(&self.shape))
    }

    /// The subset of every element.
    pub fn full(&self) -> String {
        if self.shape.is_empty() {
            return "0".into();
        }
        let dims: Vec<String> = self.shape.iter().map(|d| format!("0:{d}")).collect();
        dims.join(", ")
    }

    /// The memref type a tasklet sees for the whole container.
    pub fn memref(&self) -> String {
        let dims: String = self
            .shape
            .iter()
            .map(|d| match d.as_int() {
                Some(n) => format!("{n}x"),
                None => "?x".into(),
            })
            .collect();
        format!("memref<{dims}{}>", self.elem)
    }
}

/// A control-flow region: blocks run one after the other.
#[derive(Default)]
pub(super) struct Seq {
    blocks: Vec<(String, String)>,
    /// Symbol assignments (symbol, expression) on the edge that leaves a
    /// block, by block name.
    assignments: HashMap<String, Vec<(String, String)>>,
}

impl Seq {
    fn push(&mut self, name: String, text: String) {
        self.blocks.push((name, text));
    }

    /// Assigns `assignments` on the edge that leaves the last block.
    fn assign_after_last(&mut self, assignments: Vec<(String, String)>) {
        if assignments.is_empty() {
            return;
        }
        if let Some((name, _)) = self.blocks.last() {
            self.assignments
                .entry(name.clone())
                .or_default()
                .extend(assignments);
        }
    }

    /// Makes `assignments` on the edge into the next block (out of the
    /// last one, or of an empty state where there is none).
    fn assign_before_next(&mut self, shared: &mut Shared<'_>, assignments: Vec<(String, String)>) {
        if assignments.is_empty() {
            return;
        }
        if self.blocks.is_empty() {
            let name = format!("start{}", shared.id());
            self.push(name.clone(), format!("sdfg.state @{name} {{\n}}\n"));
        }
        self.assign_after_last(assignments);
    }

    /// Puts an empty state first, whose leaving edge makes `assignments`.
    fn assign_at_start(&mut self, shared: &mut Shared<'_>, assignments: Vec<(String, String)>) {
        let name = format!("entry{}", shared.id());
        self.blocks
            .insert(0, (name.clone(), format!("sdfg.state @{name} {{\n}}\n")));
        self.assignments.insert(name, assignments);
    }

    /// Puts an empty state first unless the first block is a state: DaCe
    /// 1.0.2's code generator frees an SDFG's transients in its block 0 and
    /// fails when that block is a loop or a region.
    pub fn start_with_state(&mut self, shared: &mut Shared<'_>) {
        if self
            .blocks
            .first()
            .is_some_and(|(_, t)| !t.starts_with("sdfg.state"))
        {
            let name = format!("start{}", shared.id());
            self.blocks
                .insert(0, (name.clone(), format!("sdfg.state @{name} {{\n}}\n")));
        }
    }

    /// Appends the blocks of `other`.
    fn extend(&mut self, other: Seq) {
        self.blocks.extend(other.blocks);
        self.assignments.extend(other.assignments);
    }

    /// The blocks and the edges that chain them; a state if there is none
    /// (a region needs a start block).
    pub fn render(&self, shared: &mut Shared<'_>) -> String {
        let mut blocks = self.blocks.clone();
        // Assignments after the last block need an edge to a block.
        if blocks.is_empty()
            || blocks
                .last()
                .is_some_and(|(n, _)| self.assignments.contains_key(n))
        {
            let name = format!("empty{}", shared.id());
            blocks.push((name.clone(), format!("sdfg.state @{name} {{\n}}\n")));
        }
        let mut text: String = blocks.iter().map(|(_, t)| t.as_str()).collect();
        for pair in blocks.windows(2) {
            let assign = match self.assignments.get(&pair[0].0) {
                Some(list) => {
                    let items: Vec<String> = list
                        .iter()
                        .map(|(sym, value)| format!("\"{sym}\" = \"{value}\""))
                        .collect();
                    format!(" assign({})", items.join(", "))
                }
                None => String::new(),
            };
            text.push_str(&format!(
                "sdfg.edge @{} -> @{}{assign}\n",
                pair[0].0, pair[1].0
            ));
        }
        text
    }
}

/// Where a dataflow region's reads come from and its writes go.
enum Kind {
    /// A state: access nodes.
    State { reads: HashMap<String, String> },
    /// A map's region: its entry's inputs and its exit's outputs, and
    /// the access nodes of transients local to one iteration.
    Map {
        inputs: Vec<(String, String)>,
        exits: Vec<Exit>,
        local: HashMap<String, String>,
    },
}

/// One output of a map's exit.
struct Exit {
    container: String,
    connector: String,
    operand: String,
    memlet: String,
    ty: String,
    dynamic: bool,
    wcr: Option<&'static str>,
}

/// A dataflow region being written.
pub(super) struct Flow<'a> {
    lines: Vec<String>,
    kind: Kind,
    /// Containers read and written by the region's statements so far.
    reads: BTreeSet<String>,
    writes: BTreeSet<String>,
    /// Values computed in this region from memory (loads and what depends
    /// on them): they are valid here only.
    pending: Vec<Val<'a>>,
    pending_set: HashSet<Val<'a>>,
    /// The containers each pending value was computed from.
    pending_reads: HashMap<Val<'a>, BTreeSet<String>>,
}

impl<'a> Flow<'a> {
    fn new(kind: Kind) -> Flow<'a> {
        Flow {
            lines: Vec::new(),
            kind,
            reads: BTreeSet::new(),
            writes: BTreeSet::new(),
            pending: Vec::new(),
            pending_set: HashSet::new(),
            pending_reads: HashMap::new(),
        }
    }

    fn state() -> Flow<'a> {
        Flow::new(Kind::State {
            reads: HashMap::new(),
        })
    }

    fn map() -> Flow<'a> {
        Flow::new(Kind::Map {
            inputs: Vec::new(),
            exits: Vec::new(),
            local: HashMap::new(),
        })
    }

    /// Records `v`, computed here from the containers `reads`.
    fn add_pending(&mut self, v: Val<'a>, reads: BTreeSet<String>) {
        if self.pending_set.insert(v) {
            self.pending.push(v);
            self.pending_reads.insert(v, reads);
        }
    }
}

/// One input of a statement's tasklet.
enum Input<'a> {
    /// A loaded element: the load's result.
    Element {
        value: Val<'a>,
        container: String,
        subset: String,
    },
    /// The whole container as a memref (indirect loads).
    Whole { value: Val<'a>, container: String },
    /// A value kept in a transient scalar.
    Scalar { value: Val<'a>, container: String },
}

/// A statement's tasklet before it is written.
#[derive(Default)]
struct Slice<'a> {
    ops: Vec<Op<'a>>,
    inputs: Vec<Input<'a>>,
    syms: Vec<(Val<'a>, String)>,
    /// Containers written through `by_ref` memrefs, with their memref.
    by_ref: Vec<(Val<'a>, String)>,
    seen: HashSet<Val<'a>>,
    /// Element outputs: value, container, subset, write-conflict resolution.
    outputs: Vec<(Val<'a>, String, String, Option<&'static str>)>,
}

impl<'a> Slice<'a> {
    fn reads(&self) -> BTreeSet<String> {
        self.inputs
            .iter()
            .map(|i| match i {
                Input::Element { container, .. }
                | Input::Whole { container, .. }
                | Input::Scalar { container, .. } => container.clone(),
            })
            .collect()
    }

    fn writes(&self) -> BTreeSet<String> {
        self.outputs
            .iter()
            .map(|o| o.1.clone())
            .chain(self.by_ref.iter().map(|b| b.1.clone()))
            .collect()
    }
}

/// A memref that is a part of a container (`memref.subview`) or the
/// container itself under another type (`memref.cast`): its element
/// `(i, j)` is the container's element at `offsets[d] + strides[d] * i`
/// for the container's dimensions `dims` that it keeps, `offsets[d]` for
/// the others.
#[derive(Clone)]
pub(super) struct Alias {
    container: String,
    offsets: Vec<Expr>,
    strides: Vec<Expr>,
    dims: Vec<usize>,
    sizes: Vec<Expr>,
    /// For a reshaped view (`memref.expand_shape`/`collapse_shape`,
    /// `reshape.rs`): the view it reshapes; the fields above are then
    /// that view's, except `sizes`, which are this one's.
    reshape: Option<Box<reshape::Reshape>>,
}

impl Alias {
    /// The subset of the container that the alias covers.
    fn subset(&self) -> String {
        if let Some(r) = &self.reshape {
            return r.source.subset();
        }
        let ranges: Vec<String> = (0..self.offsets.len())
            .map(|d| match self.dims.iter().position(|k| *k == d) {
                None => self.offsets[d].to_string(),
                Some(k) => {
                    let last = Expr::add(
                        &self.offsets[d],
                        &Expr::mul(&self.strides[d], &Expr::sub(&self.sizes[k], &Expr::int(1))),
                    );
                    let end = Expr::add(&last, &Expr::int(1));
                    if self.strides[d].as_int() == Some(1) {
                        format!("{}:{end}", self.offsets[d])
                    } else {
                        format!("{}:{end}:{}", self.offsets[d], self.strides[d])
                    }
                }
            })
            .collect();
        if ranges.is_empty() {
            "0".into()
        } else {
            ranges.join(", ")
        }
    }

    /// The container's subscripts of the alias's `indices`.
    fn subscripts(&self, indices: &[Expr]) -> Vec<Expr> {
        if let Some(r) = &self.reshape {
            return r.source.subscripts(&r.source_indices(indices));
        }
        let mut out = self.offsets.clone();
        for (k, d) in self.dims.iter().enumerate() {
            if let Some(i) = indices.get(k) {
                out[*d] = Expr::add(&self.offsets[*d], &Expr::mul(&self.strides[*d], i));
            }
        }
        out
    }
}

/// An SDFG under construction.
pub(super) struct Sdfg<'a> {
    pub name: String,
    /// What the SSA names of its containers start with (a nested SDFG's
    /// must differ from those of the SDFGs around it).
    prefix: String,
    /// Arguments in order: container names.
    pub args: Vec<String>,
    pub containers: BTreeMap<String, Container>,
    /// The container of each upstream memref value.
    memrefs: HashMap<Val<'a>, String>,
    /// Memrefs that are parts of containers.
    aliases: HashMap<Val<'a>, Alias>,
    /// Symbolic values of upstream index/integer values (memoised; `None`
    /// for data).
    exprs: HashMap<Val<'a>, Option<Expr>>,
    /// Upstream scalar values kept in transient scalars.
    scalars: HashMap<Val<'a>, String>,
    /// Containers of an enclosing SDFG that this one may import as
    /// arguments (a nested SDFG), by upstream value.
    outer: HashMap<Val<'a>, Container>,
    allocs: Vec<String>,
    /// Symbols that expressions mention, loop variables defined here, and
    /// map parameters (not declared).
    used: BTreeSet<String>,
    locals: BTreeSet<String>,
    params: BTreeSet<String>,
    /// Containers read and written anywhere (for a nested SDFG's
    /// connectors).
    pub read_set: BTreeSet<String>,
    pub write_set: BTreeSet<String>,
}

/// The write-conflict resolution of a combining op. A WCR's `max` and
/// `min` are signed on integers and NaN-propagating on floats (as
/// `arith.maxsi` and `arith.maximumf`): the unsigned and NaN-ignoring
/// combiners have none.
fn wcr_of(name: &str) -> Option<&'static str> {
    match name {
        "arith.addf" | "arith.addi" => Some("sum"),
        "arith.mulf" | "arith.muli" => Some("product"),
        "arith.maximumf" | "arith.maxsi" => Some("max"),
        "arith.minimumf" | "arith.minsi" => Some("min"),
        "arith.andi" => Some("bitwise_and"),
        "arith.ori" => Some("bitwise_or"),
        "arith.xori" => Some("bitwise_xor"),
        _ => None,
    }
}

/// The bounds of `affine.parallel` `op` from all the `results` of its
/// lower or upper bound map: each dimension's group (the `attr` sizes)
/// combined by `combine` (max for lower bounds, min for upper ones).
fn bound_groups(
    op: Op<'_>,
    attr: &str,
    results: Vec<Expr>,
    combine: fn(Vec<Expr>) -> Expr,
) -> Option<Vec<Expr>> {
    let groups = op.attr(attr)?;
    // SAFETY: the attribute is a dense i32 elements attribute.
    let sizes: Vec<usize> = unsafe {
        (0..mlirElementsAttrGetNumElements(groups))
            .map(|i| mlirDenseElementsAttrGetInt32Value(groups, i as isize) as usize)
            .collect()
    };
    if sizes.iter().sum::<usize>() != results.len() {
        return None;
    }
    let mut rest = results.into_iter();
    Some(
        sizes
            .into_iter()
            .map(|k| {
                let group: Vec<Expr> = rest.by_ref().take(k).collect();
                if group.len() == 1 {
                    group.into_iter().next().unwrap_or_else(|| Expr::int(0))
                } else {
                    combine(group)
                }
            })
            .collect(),
    )
}

/// Where a reduction of a parallel loop starts.
#[derive(Clone, Copy)]
pub(super) enum Init<'a> {
    /// `scf.parallel`'s initial value.
    Value(Val<'a>),
    /// `affine.parallel`'s: the identity of its combiner (an
    /// `arith.constant` value).
    Identity(&'static str),
}

/// The write-conflict resolution and identity (as `arith.constant` writes
/// it, for element type `ty`) of an `affine.parallel` reduction kind, as
/// upstream's `arith::getIdentityValue` defines them. Unsigned min/max
/// and the NaN-ignoring `maxnumf`/`minnumf` have no WCR ([`wcr_of`]).
fn affine_reduction(kind: &str, ty: &str) -> Option<(&'static str, &'static str)> {
    let float = ty.starts_with('f');
    Some(match (kind, ty) {
        ("addf", _) if float => ("sum", "0.0"),
        ("mulf", _) if float => ("product", "1.0"),
        ("addi", _) if !float => ("sum", "0"),
        ("muli", _) if !float => ("product", "1"),
        ("maximumf", "f64") => ("max", "0xFFF0000000000000"),
        ("minimumf", "f64") => ("min", "0x7FF0000000000000"),
        ("maximumf", "f32") => ("max", "0xFF800000"),
        ("minimumf", "f32") => ("min", "0x7F800000"),
        ("maxs", "i64") => ("max", "-9223372036854775808"),
        ("mins", "i64") => ("min", "9223372036854775807"),
        ("maxs", "i32") => ("max", "-2147483648"),
        ("mins", "i32") => ("min", "2147483647"),
        // Booleans have no atomic update the lowering can use.
        ("ori", _) if !float && ty != "i1" => ("bitwise_or", "0"),
        ("andi", _) if !float && ty != "i1" => ("bitwise_and", "-1"),
        _ => return None,
    })
}

/// Whether an op computes a value from its operands only (no memory, no
/// regions): it is cloned into tasklets.
fn is_pure(op: Op<'_>) -> bool {
    let dialect = op.name().split('.').next().unwrap_or("");
    op.num_regions() == 0
        && op.results().len() == 1
        && matches!(dialect, "arith" | "math" | "complex" | "index")
}

/// The memref type's element type and shape (`None` for a dynamic
/// dimension), or a message when it is not a container.
pub(super) fn memref_shape(
    ty: MlirType,
) -> std::result::Result<(String, Vec<Option<i64>>), String> {
    if has_layout(ty) {
        return Err(format!(
            "memref type {} has a non-identity layout, which is not converted yet",
            type_to_string(ty)
        ));
    }
    memref_shape_any_layout(ty)
}

/// Whether `ty` is a memref with a layout other than the identity.
pub(super) fn has_layout(ty: MlirType) -> bool {
    // SAFETY: the type is live; the layout is read only from a memref.
    unsafe {
        if !mlirTypeIsAMemRef(ty) {
            return false;
        }
        let layout = mlirMemRefTypeGetLayout(ty);
        !(mlirAttributeIsAAffineMap(layout)
            && mlirAffineMapIsIdentity(mlirAffineMapAttrGetValue(layout)))
    }
}

/// [`memref_shape`] of a memref of any layout (a callee's parameter that
/// receives a part of a container, whose strides come from the caller; a
/// strided argument, whose strides its container carries).
pub(super) fn memref_shape_any_layout(
    ty: MlirType,
) -> std::result::Result<(String, Vec<Option<i64>>), String> {
    // SAFETY: the type is live; shaped queries only on a memref.
    unsafe {
        if !mlirTypeIsAMemRef(ty) {
            return Err(format!(
                "type {} is not a ranked memref",
                type_to_string(ty)
            ));
        }
        let elem = mlirShapedTypeGetElementType(ty);
        let elem_text = type_to_string(elem);
        let supported = mlirTypeIsAF64(elem)
            || mlirTypeIsAF32(elem)
            || mlirTypeIsAF16(elem)
            || (mlirTypeIsAInteger(elem) && mlirIntegerTypeIsSignless(elem));
        if !supported {
            return Err(format!(
                "memref element type {elem_text} has no SDFG data type"
            ));
        }
        let rank = mlirShapedTypeGetRank(ty);
        let dims = (0..rank)
            .map(|d| {
                (!mlirShapedTypeIsDynamicDim(ty, d as isize))
                    .then(|| mlirShapedTypeGetDimSize(ty, d as isize))
            })
            .collect();
        Ok((elem_text, dims))
    }
}

/// A zero of a scalar type, for a tasklet's placeholder body.
fn zero(ty: &str) -> Option<String> {
    match ty {
        "f16" | "f32" | "f64" | "bf16" => Some(format!("arith.constant 0.0 : {ty}")),
        "index" => Some("arith.constant 0 : index".into()),
        "i1" => Some("arith.constant false".into()),
        t if t.starts_with('i') && t[1..].parse::<u32>().is_ok() => {
            Some(format!("arith.constant 0 : {t}"))
        }
        _ => None,
    }
}

/// The strides of a C-order array of `shape`.
fn c_order(shape: &[Expr]) -> Vec<Expr> {
    let mut strides = vec![Expr::int(1); shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        strides[d] = Expr::mul(&strides[d + 1], &shape[d + 1]);
    }
    strides
}

/// The position of `op`'s ancestor among `index`'s ops.
fn position(index: &HashMap<Op<'_>, usize>, op: Op<'_>) -> Option<usize> {
    let mut current = Some(op);
    while let Some(o) = current {
        if let Some(&p) = index.get(&o) {
            return Some(p);
        }
        current = o.parent();
    }
    None
}

impl<'a> Sdfg<'a> {
    /// An empty SDFG named `name`.
    pub fn new(name: String) -> Sdfg<'a> {
        Sdfg {
            name,
            prefix: String::new(),
            args: Vec::new(),
            containers: BTreeMap::new(),
            memrefs: HashMap::new(),
            aliases: HashMap::new(),
            exprs: HashMap::new(),
            scalars: HashMap::new(),
            outer: HashMap::new(),
            allocs: Vec::new(),
            used: BTreeSet::new(),
            locals: BTreeSet::new(),
            params: BTreeSet::new(),
            read_set: BTreeSet::new(),
            write_set: BTreeSet::new(),
        }
    }

    /// Adds an argument container for `value` (a memref, or a scalar kept
    /// in a container when `value` is not a memref).
    pub fn add_argument(&mut self, value: Val<'a>, container: Container) {
        self.args.push(container.name.clone());
        if unsafe { mlirTypeIsAMemRef(value.ty()) } {
            self.memrefs.insert(value, container.name.clone());
        } else {
            self.scalars.insert(value, container.name.clone());
        }
        self.containers.insert(container.name.clone(), container);
    }

    /// Adds an argument container that no value of the function is: a
    /// result, or the source of a reshaped view passed to a call.
    pub fn add_unbound_argument(&mut self, container: Container) {
        self.args.push(container.name.clone());
        self.containers.insert(container.name.clone(), container);
    }

    /// Records that `value` is the symbolic expression `expr`.
    pub fn bind_expr(&mut self, value: Val<'a>, expr: Expr) {
        self.exprs.insert(value, Some(expr));
    }

    /// Declares `name` as a symbol of this SDFG (an integer argument).
    pub fn use_symbol(&mut self, name: &str) {
        self.used.insert(name.to_string());
    }

    /// The symbols this SDFG declares, and those it needs from its caller
    /// (free symbols).
    pub fn symbols(&self) -> (BTreeSet<String>, BTreeSet<String>) {
        let shapes = self
            .containers
            .values()
            .flat_map(|c| c.shape.iter().flat_map(|e| e.free_symbols()));
        let used: BTreeSet<String> = self.used.iter().cloned().chain(shapes).collect();
        let declared: BTreeSet<String> = used
            .union(&self.locals)
            .filter(|s| !self.params.contains(*s))
            .cloned()
            .collect();
        let free = declared.difference(&self.locals).cloned().collect();
        (declared, free)
    }

    /// The `sdfg.sdfg` op's text, with `body` (its control flow).
    pub fn render(&self, body: &str) -> String {
        let args: Vec<String> = self
            .args
            .iter()
            .map(|a| {
                format!(
                    "%{}{a}: {} as \"{a}\"",
                    self.prefix,
                    self.containers[a].ty()
                )
            })
            .collect();
        let (declared, _) = self.symbols();
        let symbols: Vec<String> = declared.iter().map(|s| format!("{s} = i64")).collect();
        let symbols = if symbols.is_empty() {
            String::new()
        } else {
            format!(" symbols {{{}}}", symbols.join(", "))
        };
        format!(
            "sdfg.sdfg @{}({}){symbols} {{\n{}{body}}}\n",
            self.name,
            args.join(", "),
            self.allocs.concat()
        )
    }

    /// The symbolic value of `v`, or `None` for data.
    pub fn expr(&mut self, v: Val<'a>) -> Option<Expr> {
        if let Some(e) = self.exprs.get(&v).cloned() {
            if let Some(e) = &e {
                self.used.extend(e.free_symbols());
            }
            return e;
        }
        let e = match v.defining_op() {
            Some(op) if op.is("memref.dim") => {
                let operands = op.operands();
                let dim = self.expr(operands[1]).and_then(|d| d.as_int());
                let container = self.memrefs.get(&operands[0]).cloned();
                match (dim, container) {
                    (Some(d), Some(c)) => self.containers[&c].shape.get(d as usize).cloned(),
                    (Some(d), None) => self
                        .aliases
                        .get(&operands[0])
                        .and_then(|a| a.sizes.get(d as usize).cloned()),
                    _ => None,
                }
            }
            Some(op) => {
                let operands: Vec<Option<Expr>> =
                    op.operands().into_iter().map(|o| self.expr(o)).collect();
                fold(op, &operands)
            }
            None => None,
        };
        if let Some(e) = &e {
            self.used.extend(e.free_symbols());
        }
        self.exprs.insert(v, e.clone());
        e
    }

    /// The subscripts of a load or store (`memref` or `affine`) as a
    /// subset, or `None` where they are data.
    fn access_subset(&mut self, op: Op<'a>, first_index: usize) -> Option<String> {
        let operands = op.operands();
        let memref = operands[first_index - 1];
        let indices: Vec<Expr> = if op.name().starts_with("affine.") {
            let exprs: Vec<Option<Expr>> = operands[first_index..]
                .iter()
                .map(|o| self.expr(*o))
                .collect();
            affine_results(op, "map", &exprs)?
        } else {
            operands[first_index..]
                .iter()
                .map(|o| self.expr(*o))
                .collect::<Option<Vec<_>>>()?
        };
        let indices = match self.aliases.get(&memref) {
            Some(alias) => alias.subscripts(&indices),
            None => indices,
        };
        if indices.is_empty() {
            return Some("0".into());
        }
        self.used
            .extend(indices.iter().flat_map(|e| e.free_symbols()));
        let texts: Vec<String> = indices.iter().map(|e| e.to_string()).collect();
        Some(texts.join(", "))
    }

    /// The container of the memref `v`, imported from the enclosing SDFG
    /// if need be.
    pub fn container(&mut self, at: Op<'a>, v: Val<'a>) -> Result<'a, String> {
        if let Some(name) = self.memrefs.get(&v) {
            return Ok(name.clone());
        }
        if let Some(alias) = self.aliases.get(&v) {
            let name = alias.container.clone();
            if !self.containers.contains_key(&name) {
                let outer = self.outer.values().find(|c| c.name == name).cloned();
                if let Some(c) = outer {
                    self.args.push(c.name.clone());
                    self.containers.insert(c.name.clone(), c);
                }
            }
            return Ok(name);
        }
        if let Some(c) = self.outer.get(&v).cloned() {
            self.args.push(c.name.clone());
            self.memrefs.insert(v, c.name.clone());
            self.containers.insert(c.name.clone(), c.clone());
            return Ok(c.name);
        }
        fail(at, "reads or writes a memref that is neither a container nor a view of one the conversion follows (such as the base buffer of a strided argument, which the SDFG sees from its first element)")
    }

    /// The scalar container that holds `v` here, imported from the
    /// enclosing SDFG if need be.
    fn scalar(&mut self, v: Val<'a>) -> Option<String> {
        if let Some(name) = self.scalars.get(&v) {
            return Some(name.clone());
        }
        let c = self.outer.get(&v).cloned()?;
        self.args.push(c.name.clone());
        self.scalars.insert(v, c.name.clone());
        self.containers.insert(c.name.clone(), c.clone());
        Some(c.name)
    }

    /// A new transient container.
    fn transient(&mut self, container: Container) -> String {
        let name = container.name.clone();
        self.allocs.push(format!(
            "%{}{name} = sdfg.alloc \"{name}\" : {}\n",
            self.prefix,
            container.ty()
        ));
        self.containers.insert(name.clone(), container);
        name
    }

    /// A transient scalar for values of type `v`'s type.
    fn scalar_for(
        &mut self,
        shared: &mut Shared<'a>,
        at: Op<'a>,
        v: Val<'a>,
        base: &str,
    ) -> Result<'a, String> {
        let elem = type_to_string(v.ty());
        if elem == "index" {
            return fail(
                at,
                "keeps an index in a transient scalar here, which is not converted yet",
            );
        }
        if zero(&elem).is_none() {
            return fail(
                at,
                format!("a value of type {elem} cannot be kept in an SDFG container"),
            );
        }
        Ok(self.scalar_transient(shared, base, elem))
    }

    /// A new transient scalar of elements `elem`, named after `base`.
    fn scalar_transient(&mut self, shared: &mut Shared<'a>, base: &str, elem: String) -> String {
        let name = shared.fresh(base);
        self.transient(Container {
            name,
            elem,
            shape: Vec::new(),
            strides: None,
        })
    }

    /// A transient scalar for `v`, which code in later states reads (kept
    /// from a state, carried by a loop, yielded by a branch): for an index,
    /// an index scalar read through a symbol assigned from it
    /// ([`Self::index_symbol`]).
    fn carried_scalar(
        &mut self,
        shared: &mut Shared<'a>,
        at: Op<'a>,
        v: Val<'a>,
        base: &str,
    ) -> Result<'a, String> {
        if type_to_string(v.ty()) != "index" {
            return self.scalar_for(shared, at, v, base);
        }
        Ok(self.scalar_transient(shared, base, "index".into()))
    }

    /// Binds the index `v`, held in the index scalar `container`, to a new
    /// symbol; returns the assignment that sets the symbol from the scalar,
    /// for the edge after which `v` is read.
    fn index_symbol(
        &mut self,
        shared: &mut Shared<'a>,
        v: Val<'a>,
        container: &str,
    ) -> (String, String) {
        let symbol = shared.fresh(&format!("{container}_sym"));
        self.locals.insert(symbol.clone());
        self.bind_expr(v, Expr::symbol(&symbol));
        (symbol, container.to_string())
    }

    // ----- Control flow -------------------------------------------------

    /// Converts the ops of a block (its terminator excluded) into control
    /// flow, then writes `results` (upstream values into scalar containers)
    /// at its end.
    pub fn region(
        &mut self,
        shared: &mut Shared<'a>,
        ops: &[Op<'a>],
        results: &[(Val<'a>, String)],
        terminator: Option<Op<'a>>,
    ) -> Result<'a, Seq> {
        let index: HashMap<Op<'a>, usize> = ops
            .iter()
            .chain(terminator.iter())
            .enumerate()
            .map(|(i, o)| (*o, i))
            .collect();
        let mut seq = Seq::default();
        let mut flow = Flow::state();
        for (p, op) in ops.iter().enumerate() {
            let op = *op;
            match op.name() {
                "scf.for" | "affine.for" | "scf.if" | "affine.if" | "scf.while" => {
                    if op.is("scf.if") {
                        self.keep(shared, &mut flow, op, op.operands()[0])?;
                    }
                    self.carry(shared, &mut seq, &mut flow, &index, p, op)?;
                    self.close(shared, &mut seq, &mut flow, &index, p)?;
                    let block = match op.name() {
                        "scf.if" | "affine.if" => self.conditional(shared, op)?,
                        "scf.while" => {
                            let (name, text, entry) = self.while_loop(shared, op)?;
                            seq.assign_before_next(shared, entry);
                            (name, text)
                        }
                        _ => self.for_loop(shared, op)?,
                    };
                    seq.push(block.0, block.1);
                    // Index results are read through symbols from here on.
                    let mut assignments = Vec::new();
                    for r in op.results() {
                        if type_to_string(r.ty()) == "index" && !r.uses().is_empty() {
                            let container = self.scalars[&r].clone();
                            assignments.push(self.index_symbol(shared, r, &container));
                        }
                    }
                    seq.assign_after_last(assignments);
                }
                "scf.parallel" | "affine.parallel" => {
                    self.parallel(shared, &mut seq, &mut flow, &index, p, op)?;
                }
                "memref.store" | "affine.store" => {
                    self.emit(shared, &mut seq, &mut flow, &index, p, &|s, f| {
                        let mut slice = Slice::default();
                        s.store_into(&mut slice, f, op)?;
                        Ok(slice)
                    })?;
                }
                "memref.load" | "affine.load" => {
                    let container = self.container(op, op.operands()[0])?;
                    flow.add_pending(op.results()[0], BTreeSet::from([container]));
                }
                "memref.alloc" | "memref.alloca" => self.alloc(shared, op)?,
                "memref.dealloc" => {}
                _ if reshape::is_view(op) => self.view(op)?,
                "memref.copy" => self.copy(shared, &mut seq, &mut flow, &index, p, op)?,
                "func.call" if shared.kept.contains_key(&op) => {
                    let linalg = shared.kept[&op];
                    self.library(shared, &mut seq, &mut flow, &index, p, linalg)?
                }
                "func.call" => self.call(shared, &mut seq, &mut flow, &index, p, op)?,
                _ if op.results().len() == 1 && self.expr(op.results()[0]).is_some() => {}
                _ if is_pure(op) => {
                    let reads: BTreeSet<String> = op
                        .operands()
                        .iter()
                        .filter_map(|o| flow.pending_reads.get(o))
                        .flatten()
                        .cloned()
                        .collect();
                    if op.operands().iter().any(|o| flow.pending_set.contains(o)) {
                        flow.add_pending(op.results()[0], reads);
                    }
                }
                "memref.dim" => {
                    return fail(op, "reads the size of a memref that is not a container")
                }
                name if name.starts_with("tensor.") || name.starts_with("bufferization.") => {
                    return fail(op, format!("works on tensors; {}", super::BUFFERIZE))
                }
                name => {
                    return fail(
                        op,
                        format!("cannot be converted to an SDFG: '{name}' is not supported"),
                    )
                }
            }
        }
        if !results.is_empty() {
            let p = ops.len();
            // Upstream yields assign all results at once: read every
            // result first when one of them reads another's container.
            let at = terminator.unwrap_or_else(|| ops[0]);
            let mut reads_other = false;
            for (v, c) in results {
                let mut scratch = Slice::default();
                self.gather(&mut scratch, &flow, at, *v)?;
                reads_other |= results
                    .iter()
                    .any(|(_, other)| other != c && scratch.reads().contains(other));
            }
            let mut values = Vec::new();
            for (v, c) in results {
                if reads_other && self.scalars.get(v) != Some(c) {
                    let at = terminator.unwrap_or_else(|| ops[0]);
                    let tmp = self.scalar_for(shared, at, *v, "tmp")?;
                    let (v, out) = (*v, tmp.clone());
                    self.emit(shared, &mut seq, &mut flow, &index, p, &|s, f| {
                        let mut slice = Slice::default();
                        s.gather(&mut slice, f, at, v)?;
                        slice.outputs.push((v, out.clone(), "0".into(), None));
                        Ok(slice)
                    })?;
                    values.push((v, Some(tmp)));
                } else {
                    values.push((*v, None));
                }
            }
            for ((v, tmp), (_, c)) in values.into_iter().zip(results) {
                if self.scalars.get(&v) == Some(c) {
                    continue;
                }
                let at = terminator.unwrap_or_else(|| ops[0]);
                self.emit(shared, &mut seq, &mut flow, &index, p, &|s, f| {
                    let mut slice = Slice::default();
                    match &tmp {
                        Some(t) => slice.inputs.push(Input::Scalar {
                            value: v,
                            container: t.clone(),
                        }),
                        None => s.gather(&mut slice, f, at, v)?,
                    }
                    slice.outputs.push((v, c.clone(), "0".into(), None));
                    Ok(slice)
                })?;
            }
        }
        self.finish(shared, &mut seq, flow);
        Ok(seq)
    }

    /// Ends the current state at position `p`: values it computed from
    /// memory that code at or after `p` reads go to transient scalars.
    fn close(
        &mut self,
        shared: &mut Shared<'a>,
        seq: &mut Seq,
        flow: &mut Flow<'a>,
        index: &HashMap<Op<'a>, usize>,
        p: usize,
    ) -> Result<'a, ()> {
        let pending = std::mem::take(&mut flow.pending);
        // Every kept value is computed from the loads of this state, not
        // from another value kept here (which the state would read back
        // without an edge ordering it after its write).
        let mut kept = Vec::new();
        for v in pending {
            let live = v
                .uses()
                .iter()
                .any(|(user, _)| position(index, *user).is_some_and(|q| q >= p));
            if !live || self.scalars.contains_key(&v) {
                continue;
            }
            let at = v.defining_op().expect("pending values are op results");
            // An index computed from data (a loop bound, a subscript) goes
            // through an index scalar into a symbol, assigned on the edge
            // that leaves the state, as DaCe writes `n = A[i]` before a
            // loop `for j in range(n)`.
            let symbolic = type_to_string(v.ty()) == "index";
            let name = self.carried_scalar(shared, at, v, "v")?;
            let mut slice = Slice::default();
            self.gather(&mut slice, flow, at, v)?;
            slice.outputs.push((v, name.clone(), "0".into(), None));
            kept.push((v, name, slice, symbolic));
        }
        let mut assignments = Vec::new();
        for (v, name, slice, symbolic) in kept {
            self.write_statement(shared, flow, slice)?;
            if symbolic {
                assignments.push(self.index_symbol(shared, v, &name));
            } else {
                self.scalars.insert(v, name);
            }
        }
        let done = std::mem::replace(flow, Flow::state());
        self.finish(shared, seq, done);
        if !assignments.is_empty() {
            seq.assign_after_last(assignments);
        }
        Ok(())
    }

    /// Appends the state of `flow` (if it has any node) to `seq`.
    fn finish(&mut self, shared: &mut Shared<'a>, seq: &mut Seq, flow: Flow<'a>) {
        if flow.lines.is_empty() {
            return;
        }
        let name = format!("s{}", shared.id());
        seq.push(
            name.clone(),
            format!("sdfg.state @{name} {{\n{}}}\n", flow.lines.concat()),
        );
    }

    /// Writes the statement that `make` builds as one at position `p`,
    /// after ending the state first if it conflicts with an earlier one
    /// (then `make` runs again, since the loads it read are now kept in
    /// scalars).
    #[allow(clippy::too_many_arguments)]
    fn emit(
        &mut self,
        shared: &mut Shared<'a>,
        seq: &mut Seq,
        flow: &mut Flow<'a>,
        index: &HashMap<Op<'a>, usize>,
        p: usize,
        make: &dyn Fn(&mut Sdfg<'a>, &Flow<'a>) -> Result<'a, Slice<'a>>,
    ) -> Result<'a, ()> {
        let mut slice = make(self, flow)?;
        if self.conflicts(flow, index, p, &slice.reads(), &slice.writes()) {
            self.close(shared, seq, flow, index, p)?;
            slice = make(self, flow)?;
        }
        self.write_statement(shared, flow, slice)
    }

    /// Keeps `v` in a transient scalar, written in `flow` (a condition
    /// computed from data).
    fn keep(
        &mut self,
        shared: &mut Shared<'a>,
        flow: &mut Flow<'a>,
        at: Op<'a>,
        v: Val<'a>,
    ) -> Result<'a, ()> {
        if self.expr(v).is_some() || self.scalar(v).is_some() {
            return Ok(());
        }
        let name = self.scalar_for(shared, at, v, "c")?;
        let mut slice = Slice::default();
        self.gather(&mut slice, flow, at, v)?;
        slice.outputs.push((v, name.clone(), "0".into(), None));
        self.write_statement(shared, flow, slice)?;
        self.scalars.insert(v, name);
        Ok(())
    }

    /// Whether a statement reading `reads` and writing `writes` at `p`
    /// must go to a new state.
    fn conflicts(
        &self,
        flow: &Flow<'a>,
        index: &HashMap<Op<'a>, usize>,
        p: usize,
        reads: &BTreeSet<String>,
        writes: &BTreeSet<String>,
    ) -> bool {
        if !flow.writes.is_disjoint(reads)
            || !flow.writes.is_disjoint(writes)
            || !flow.reads.is_disjoint(writes)
        {
            return true;
        }
        // A value computed from a written container (a load, or what was
        // computed from one) that is still needed after this statement
        // must be computed before the write.
        flow.pending.iter().any(|v| {
            let from_written = flow
                .pending_reads
                .get(v)
                .is_some_and(|r| !r.is_disjoint(writes));
            from_written
                && v.uses()
                    .iter()
                    .any(|(user, _)| position(index, *user).is_some_and(|q| q > p))
        })
    }

    // ----- Statements ---------------------------------------------------

    /// Adds the store `op` to `slice`: an element output where its
    /// subscripts are symbolic, else a `by_ref` write of the container.
    fn store_into(&mut self, slice: &mut Slice<'a>, flow: &Flow<'a>, op: Op<'a>) -> Result<'a, ()> {
        let operands = op.operands();
        let (value, memref) = (operands[0], operands[1]);
        let container = self.container(op, memref)?;
        match self.access_subset(op, 2) {
            Some(subset) => {
                self.gather(slice, flow, op, value)?;
                slice.outputs.push((value, container, subset, None));
            }
            None if self.aliases.contains_key(&memref) => {
                return fail(
                    op,
                    "writes a subview at subscripts computed from data, which is not converted yet",
                )
            }
            None if op.is("memref.store") => {
                for o in &operands {
                    if *o != memref {
                        self.gather(slice, flow, op, *o)?;
                    }
                }
                if !slice.by_ref.iter().any(|b| b.0 == memref) {
                    slice.by_ref.push((memref, container));
                }
                // The body reads the container through its by_ref memref.
                slice
                    .inputs
                    .retain(|i| !matches!(i, Input::Whole { value, .. } if *value == memref));
                slice.seen.insert(memref);
                slice.ops.push(op);
            }
            None => return fail(op, "has subscripts that are not symbolic"),
        }
        Ok(())
    }

    /// Adds what computes `v` to `slice`.
    fn gather(
        &mut self,
        slice: &mut Slice<'a>,
        flow: &Flow<'a>,
        at: Op<'a>,
        v: Val<'a>,
    ) -> Result<'a, ()> {
        if !slice.seen.insert(v) {
            return Ok(());
        }
        // SAFETY: the type is live.
        let integer = unsafe { mlirTypeIsAIndex(v.ty()) || mlirTypeIsAInteger(v.ty()) };
        if integer && !is_bool(v) {
            if let Some(e) = self.expr(v) {
                self.used.extend(e.free_symbols());
                slice.syms.push((v, e.to_string()));
                return Ok(());
            }
        }
        if let Some(container) = self.scalar(v) {
            slice.inputs.push(Input::Scalar {
                value: v,
                container,
            });
            return Ok(());
        }
        let Some(op) = v.defining_op() else {
            return fail(at, "uses a block argument that has no SDFG counterpart");
        };
        if op.is("memref.load") || op.is("affine.load") {
            let memref = op.operands()[0];
            let container = self.container(op, memref)?;
            if let Some(subset) = self.access_subset(op, 1) {
                if !flow.pending_set.contains(&v) && !matches!(flow.kind, Kind::Map { .. }) {
                    return fail(op, "internal error: a load is read outside its state");
                }
                slice.inputs.push(Input::Element {
                    value: v,
                    container,
                    subset,
                });
                return Ok(());
            }
            if op.is("affine.load") {
                return fail(op, "has subscripts that are not symbolic");
            }
            if self.aliases.contains_key(&memref) {
                return fail(
                    op,
                    "reads a subview at subscripts computed from data, which is not converted yet",
                );
            }
            for o in op.operands().into_iter().skip(1) {
                self.gather(slice, flow, op, o)?;
            }
            if slice.seen.insert(memref) {
                slice.inputs.push(Input::Whole {
                    value: memref,
                    container,
                });
            }
            slice.ops.push(op);
            return Ok(());
        }
        if is_pure(op) || (op.results().len() == 1 && self.expr(v).is_some()) {
            for o in op.operands() {
                self.gather(slice, flow, op, o)?;
            }
            slice.ops.push(op);
            return Ok(());
        }
        fail(op, format!("cannot be converted to an SDFG: its result feeds a computation and '{}' is not supported there", op.name()))
    }

    /// Writes the tasklet of `slice` and its edges into `flow`.
    fn write_statement(
        &mut self,
        shared: &mut Shared<'a>,
        flow: &mut Flow<'a>,
        slice: Slice<'a>,
    ) -> Result<'a, ()> {
        let id = shared.id();
        let label = format!("t{id}");
        let mut ins = Vec::new();
        let mut args = Vec::new();
        let mut arg_types = Vec::new();
        for (k, input) in slice.inputs.iter().enumerate() {
            let (value, container, subset, ty) = match input {
                Input::Element {
                    value,
                    container,
                    subset,
                } => (
                    *value,
                    container,
                    subset.clone(),
                    self.containers[container].elem.clone(),
                ),
                Input::Whole { value, container } => {
                    let c = &self.containers[container];
                    (*value, container, c.full(), c.memref())
                }
                Input::Scalar { value, container } => (
                    *value,
                    container,
                    "0".to_string(),
                    self.containers[container].elem.clone(),
                ),
            };
            let source = self.read(shared, flow, container);
            let cty = self.containers[container].ty();
            ins.push(format!("\"__in{k}\" = {source}[\"{subset}\"] : {cty}"));
            args.push(value);
            arg_types.push(format!("%i{k}: {ty}"));
            self.read_set.insert(container.clone());
            flow.reads.insert(container.clone());
        }
        let mut outs = Vec::new();
        let mut yields = Vec::new();
        let mut yield_types = Vec::new();
        for (k, (value, container, _, _)) in slice.outputs.iter().enumerate() {
            let elem = self.containers[container].elem.clone();
            let vty = type_to_string(value.ty());
            if vty != elem {
                return fail(
                    value
                        .defining_op()
                        .or_else(|| slice.ops.last().copied())
                        .unwrap_or_else(|| slice.ops[0]),
                    format!("stores a {vty} into the {elem} container `{container}`"),
                );
            }
            outs.push(format!("\"__out{k}\" : {elem}"));
            yields.push(*value);
            yield_types.push(elem);
        }
        for (k, (memref, container)) in slice.by_ref.iter().enumerate() {
            let c = &self.containers[container];
            outs.push(format!("\"__ref{k}\" : {} by_ref", c.elem));
            arg_types.push(format!("%r{k}: {}", c.memref()));
            args.push(*memref);
        }
        let placeholders: Vec<String> = yield_types
            .iter()
            .enumerate()
            .map(|(k, t)| {
                format!(
                    "  %z{k} = {}\n",
                    zero(t).expect("container types have zeros")
                )
            })
            .collect();
        let yield_line = if yields.is_empty() {
            "  sdfg.yield\n".to_string()
        } else {
            let names: Vec<String> = (0..yields.len()).map(|k| format!("%z{k}")).collect();
            format!(
                "  sdfg.yield {} : {}\n",
                names.join(", "),
                yield_types.join(", ")
            )
        };
        let n = outs.len();
        let result = result_names(&label, n);
        let ins_text = clause("ins", &ins);
        flow.lines.push(format!(
            "{result} = sdfg.tasklet \"{label}\"{ins_text} outs({}) {{\n^bb0({}):\n{}{yield_line}}}\n",
            outs.join(", "),
            arg_types.join(", "),
            placeholders.concat()
        ));
        let result_of = |k: usize| result_ref(&label, n, k);
        for (k, (_, container, subset, wcr)) in slice.outputs.iter().enumerate() {
            let elem = self.containers[container].elem.clone();
            self.write(
                shared,
                flow,
                container,
                &result_of(k),
                subset,
                &elem,
                false,
                *wcr,
            );
        }
        for (k, (_, container)) in slice.by_ref.iter().enumerate() {
            let c = self.containers[container].clone();
            self.write(
                shared,
                flow,
                container,
                &result_of(slice.outputs.len() + k),
                &c.full(),
                &c.elem,
                true,
                None,
            );
        }
        shared.plans.push(Plan {
            label,
            ops: slice.ops,
            args,
            syms: slice.syms,
            yields,
        });
        Ok(())
    }

    /// The SSA name to read `container` from in `flow`.
    fn read(&mut self, shared: &mut Shared<'a>, flow: &mut Flow<'a>, container: &str) -> String {
        match &mut flow.kind {
            Kind::State { reads } => {
                if let Some(node) = reads.get(container) {
                    return node.clone();
                }
                let node = format!("%__a{}", shared.id());
                flow.lines.push(format!(
                    "{node} = sdfg.access %{}{container} : {}\n",
                    self.prefix,
                    self.containers[container].ty()
                ));
                reads.insert(container.to_string(), node.clone());
                node
            }
            Kind::Map { inputs, local, .. } => {
                if let Some(node) = local.get(container) {
                    return node.clone();
                }
                if let Some((_, arg)) = inputs.iter().find(|(c, _)| c == container) {
                    return arg.clone();
                }
                let arg = format!("%__m{}", shared.id());
                inputs.push((container.to_string(), arg.clone()));
                arg
            }
        }
    }

    /// Writes `operand` (of element type `elem`, or a container's type)
    /// into `container` at `subset` in `flow`.
    #[allow(clippy::too_many_arguments)]
    fn write(
        &mut self,
        shared: &mut Shared<'a>,
        flow: &mut Flow<'a>,
        container: &str,
        operand: &str,
        subset: &str,
        ty: &str,
        dynamic: bool,
        wcr: Option<&'static str>,
    ) {
        self.write_set.insert(container.to_string());
        flow.writes.insert(container.to_string());
        match &mut flow.kind {
            Kind::State { .. } => {
                let cty = self.containers[container].ty();
                let memlet = memlet(subset, dynamic, wcr);
                flow.lines.push(format!(
                    "%__w{} = sdfg.access %{}{container} writes({operand}[{memlet}] : {ty}) : {cty}\n",
                    shared.id(),
                    self.prefix
                ));
            }
            Kind::Map { exits, .. } => {
                let k = exits.iter().filter(|e| e.container == container).count();
                let connector = if k == 0 {
                    container.to_string()
                } else {
                    format!("{container}_{k}")
                };
                exits.push(Exit {
                    container: container.to_string(),
                    connector,
                    operand: operand.to_string(),
                    memlet: subset.to_string(),
                    ty: ty.to_string(),
                    dynamic,
                    wcr,
                });
            }
        }
    }

    // ----- Containers ---------------------------------------------------

    /// `memref.alloc`/`memref.alloca`: a transient.
    fn alloc(&mut self, shared: &mut Shared<'a>, op: Op<'a>) -> Result<'a, ()> {
        let result = op.results()[0];
        // A returned allocation is already an argument container.
        if self.memrefs.contains_key(&result) {
            return Ok(());
        }
        let (elem, dims) = memref_shape(result.ty()).map_err(|m| super::Failure::new(op, m))?;
        let mut dynamic = op.operands().into_iter();
        let mut shape = Vec::new();
        for d in dims {
            match d {
                Some(n) => shape.push(Expr::int(n)),
                None => {
                    let Some(size) = dynamic.next().and_then(|v| self.expr(v)) else {
                        return fail(op, "has a size that is not symbolic (computed from data)");
                    };
                    shape.push(size);
                }
            }
        }
        if shape.iter().any(|e| {
            e.free_symbols()
                .iter()
                .any(|s| self.locals.contains(s) || self.params.contains(s))
        }) {
            return fail(
                op,
                "has a size that depends on a loop variable, which an SDFG transient cannot have",
            );
        }
        let name = shared.fresh(if shape.is_empty() { "s" } else { "tmp" });
        self.transient(Container {
            name: name.clone(),
            elem,
            shape,
            strides: None,
        });
        self.memrefs.insert(result, name);
        Ok(())
    }

    /// The alias that `v` is, the identity for a container.
    fn alias_of(&mut self, at: Op<'a>, v: Val<'a>) -> Result<'a, Alias> {
        if let Some(a) = self.aliases.get(&v) {
            return Ok(a.clone());
        }
        let container = self.container(at, v)?;
        let shape = self.containers[&container].shape.clone();
        Ok(Alias::whole(container, shape))
    }

    /// The container that the memref `v` is or is part of, following
    /// subviews and casts not converted yet.
    fn root_name(&self, v: Val<'a>) -> Option<String> {
        if let Some(name) = self.base_name(v) {
            return Some(name);
        }
        let op = v.defining_op()?;
        if reshape::is_view(op) {
            return self.root_name(op.operands()[0]);
        }
        None
    }

    /// The container that the memref `v` is or is part of, if known.
    fn base_name(&self, v: Val<'a>) -> Option<String> {
        self.memrefs
            .get(&v)
            .or_else(|| self.aliases.get(&v).map(|a| &a.container))
            .cloned()
            .or_else(|| self.outer.get(&v).map(|c| c.name.clone()))
    }

    /// `memref.subview` and `memref.cast`: accesses through the result are
    /// accesses of the container at shifted, strided subscripts.
    pub(super) fn alias(&mut self, op: Op<'a>) -> Result<'a, ()> {
        let operands = op.operands();
        let source = self.alias_of(op, operands[0])?;
        let result = op.results()[0];
        if op.is("memref.cast") {
            self.aliases.insert(result, source);
            return Ok(());
        }
        let lists = self.offsets_sizes_strides(op)?;
        let (offsets, sizes, strides) = (&lists[0], &lists[1], &lists[2]);
        // SAFETY: the result is a memref.
        let rank = unsafe { mlirShapedTypeGetRank(result.ty()) } as usize;
        let units: Vec<usize> = (0..sizes.len())
            .filter(|k| sizes[*k].as_int() == Some(1))
            .collect();
        let dropped: Vec<usize> =
            match sizes.len() - rank {
                0 => Vec::new(),
                n if n == units.len() => units,
                _ => return fail(
                    op,
                    "drops dimensions ambiguously (several of size 1), which is not converted yet",
                ),
            };
        if let Some(reshape) = &source.reshape {
            let alias = reshape.subview(offsets, sizes, strides, &dropped);
            self.aliases.insert(result, alias);
            return Ok(());
        }
        let mut alias = source.clone();
        alias.dims.clear();
        alias.sizes.clear();
        for (k, d) in source.dims.iter().enumerate() {
            alias.offsets[*d] = Expr::add(
                &source.offsets[*d],
                &Expr::mul(&source.strides[*d], &offsets[k]),
            );
            alias.strides[*d] = Expr::mul(&source.strides[*d], &strides[k]);
            if !dropped.contains(&k) {
                alias.dims.push(*d);
                alias.sizes.push(sizes[k].clone());
            }
        }
        self.aliases.insert(result, alias);
        Ok(())
    }

    /// The offsets, sizes and strides of `op` (`memref.subview`,
    /// `memref.reinterpret_cast`), each static or an operand's expression.
    pub(super) fn offsets_sizes_strides(&mut self, op: Op<'a>) -> Result<'a, Vec<Vec<Expr>>> {
        let mut lists = Vec::new();
        for (k, name) in ["static_offsets", "static_sizes", "static_strides"]
            .iter()
            .enumerate()
        {
            let Some(attr) = op.attr(name) else {
                return fail(op, format!("has no `{name}`"));
            };
            let mut dynamic = op.operand_segment(k + 1).into_iter();
            let mut list = Vec::new();
            // SAFETY: the attribute is a dense i64 array.
            let n = unsafe { mlirDenseArrayGetNumElements(attr) };
            for i in 0..n {
                // SAFETY: `i` is in range.
                let v = unsafe { mlirDenseI64ArrayGetElement(attr, i) };
                if v != i64::MIN {
                    list.push(Expr::int(v));
                    continue;
                }
                let Some(e) = dynamic.next().and_then(|d| self.expr(d)) else {
                    return fail(op, "has an offset, size or stride computed from data, which is not converted yet");
                };
                list.push(e);
            }
            lists.push(list);
        }
        Ok(lists)
    }

    /// The input edge `"connector" = node[subset] : type` of a node of the
    /// state `flow` that reads `subset` of `container`, from the state's
    /// access node of it.
    pub(super) fn input_edge(
        &mut self,
        shared: &mut Shared<'a>,
        flow: &mut Flow<'a>,
        connector: &str,
        container: &str,
        subset: &str,
    ) -> String {
        let source = self.read(shared, flow, container);
        self.read_set.insert(container.to_string());
        flow.reads.insert(container.to_string());
        format!(
            "\"{connector}\" = {source}[\"{subset}\"] : {}",
            self.containers[container].ty()
        )
    }

    /// `memref.copy`: a copy between two access nodes.
    fn copy(
        &mut self,
        shared: &mut Shared<'a>,
        seq: &mut Seq,
        flow: &mut Flow<'a>,
        index: &HashMap<Op<'a>, usize>,
        p: usize,
        op: Op<'a>,
    ) -> Result<'a, ()> {
        let operands = op.operands();
        let src = self.container(op, operands[0])?;
        let dst = self.container(op, operands[1])?;
        let reads = BTreeSet::from([src.clone()]);
        let writes = BTreeSet::from([dst.clone()]);
        if self.conflicts(flow, index, p, &reads, &writes) {
            self.close(shared, seq, flow, index, p)?;
        }
        let source = self.read(shared, flow, &src);
        let (s, d) = (self.containers[&src].clone(), self.containers[&dst].clone());
        self.read_set.insert(src.clone());
        flow.reads.insert(src);
        let (from, mut to) = (
            self.alias_of(op, operands[0])?,
            self.alias_of(op, operands[1])?,
        );
        if from.reshape.is_some() || to.reshape.is_some() {
            return self.copy_elements(shared, flow, &source, (&from, &to));
        }
        // Both sides have the same shape (memref.copy requires it): the
        // destination's sizes are written as the source's, so that the
        // volumes match symbolically.
        if to.sizes.len() == from.sizes.len() {
            to.sizes = from.sizes.clone();
        }
        let memlet = format!("\"{}\" -> \"{}\"", from.subset(), to.subset());
        self.write_set.insert(dst.clone());
        flow.writes.insert(dst.clone());
        flow.lines.push(format!(
            "%__w{} = sdfg.access %{}{dst} writes({source}[{memlet}] : {}) : {}\n",
            shared.id(),
            self.prefix,
            s.ty(),
            d.ty()
        ));
        Ok(())
    }

    /// `func.call` of a function with a body: a nested SDFG made of the
    /// callee's body, its memrefs bound to the caller's containers, its
    /// size and integer symbols to the caller's expressions, its float
    /// arguments to transient scalars; scalar results come back through
    /// arrays of one element.
    fn call(
        &mut self,
        shared: &mut Shared<'a>,
        seq: &mut Seq,
        flow: &mut Flow<'a>,
        index: &HashMap<Op<'a>, usize>,
        p: usize,
        op: Op<'a>,
    ) -> Result<'a, ()> {
        let name = op.symbol_ref_attr("callee").unwrap_or_default().to_string();
        let Some(callee) = shared.functions.get(&name).copied() else {
            return fail(op, format!("calls @{name}, which has no body here"));
        };
        if shared.calling.contains(&name) {
            return fail(
                op,
                format!("calls @{name} recursively, which an SDFG cannot express"),
            );
        }
        let label = format!("{name}_{}", shared.id());
        let mut inner = Sdfg::new(label.clone());
        inner.prefix = format!("{label}_");
        // Inner container -> outer container, and symbol -> expression.
        let mut bound: Vec<(String, String)> = Vec::new();
        // The part of the outer container each inner one is, where not all.
        let mut subsets: HashMap<String, String> = HashMap::new();
        let mut mapping: Vec<(String, String)> = Vec::new();
        for (k, (param, operand)) in callee
            .region_args(0)
            .into_iter()
            .zip(op.operands())
            .enumerate()
        {
            let cname = format!("arg{k}");
            // SAFETY: the type is live.
            let (is_memref, is_int) = unsafe {
                (
                    mlirTypeIsAMemRef(param.ty()),
                    (mlirTypeIsAIndex(param.ty()) || mlirTypeIsAInteger(param.ty()))
                        && !is_bool(param),
                )
            };
            if is_memref {
                let outer = self.container(op, operand)?;
                let (elem, dims) =
                    memref_shape_any_layout(param.ty()).map_err(|m| super::Failure::new(op, m))?;
                if let Some(view) = self.aliases.get(&operand).filter(|a| a.reshape.is_some()) {
                    let view = view.clone();
                    let subset = self.pass_reshaped(
                        op,
                        &mut inner,
                        &mut mapping,
                        (&cname, elem),
                        param,
                        &view,
                    )?;
                    subsets.insert(cname.clone(), subset);
                    bound.push((cname, outer));
                    continue;
                }
                // A part of a container (a subview or cast) is the memlet's
                // subset, seen through strides: the container's times the
                // subview's, each a symbol of the callee where not constant.
                let (sizes, subset, strides) = match self.aliases.get(&operand).cloned() {
                    Some(alias) => {
                        let c = &self.containers[&outer];
                        let base = c.layout_strides();
                        let mut strides = Vec::new();
                        for (k, d) in alias.dims.iter().enumerate() {
                            let stride = Expr::mul(&base[*d], &alias.strides[*d]);
                            if stride.as_int().is_some() {
                                strides.push(stride);
                            } else {
                                let symbol = format!("{cname}_s{k}");
                                inner.use_symbol(&symbol);
                                mapping.push((symbol.clone(), stride.to_string()));
                                strides.push(Expr::symbol(&symbol));
                            }
                        }
                        (alias.sizes.clone(), alias.subset(), Some(strides))
                    }
                    None => {
                        let c = &self.containers[&outer];
                        (c.shape.clone(), c.full(), c.strides.clone())
                    }
                };
                if dims.len() != sizes.len() {
                    return fail(
                        op,
                        format!(
                            "passes a memref of rank {} to @{name}, whose parameter has rank {}",
                            sizes.len(),
                            dims.len()
                        ),
                    );
                }
                let mut shape = Vec::new();
                for (d, size) in dims.iter().enumerate() {
                    match size {
                        Some(n) => shape.push(Expr::int(*n)),
                        None => {
                            let symbol = format!("{cname}_d{d}");
                            inner.use_symbol(&symbol);
                            mapping.push((symbol.clone(), sizes[d].to_string()));
                            shape.push(Expr::symbol(&symbol));
                        }
                    }
                }
                inner.add_argument(
                    param,
                    Container {
                        name: cname.clone(),
                        elem,
                        shape,
                        strides,
                    },
                );
                subsets.insert(cname.clone(), subset);
                bound.push((cname, outer));
            } else if is_int {
                let Some(e) = self.expr(operand) else {
                    return fail(op, format!("passes an integer computed from data to @{name}, which is not converted yet"));
                };
                inner.bind_expr(param, Expr::symbol(&cname));
                inner.use_symbol(&cname);
                mapping.push((cname, e.to_string()));
            } else {
                self.keep(shared, flow, op, operand)?;
                let Some(outer) = self.scalar(operand) else {
                    return fail(
                        op,
                        format!("passes a value to @{name} that has no SDFG counterpart"),
                    );
                };
                let elem = self.containers[&outer].elem.clone();
                inner.add_argument(
                    param,
                    Container {
                        name: cname.clone(),
                        elem,
                        shape: Vec::new(),
                        strides: None,
                    },
                );
                bound.push((cname, outer));
            }
        }
        // Scalar results: an array of one element in each SDFG.
        let body_ops = callee.region_ops(0);
        let (terminator, body) = body_ops
            .split_last()
            .expect("a function body ends in a terminator");
        let mut results = Vec::new();
        for (k, (v, r)) in terminator
            .operands()
            .into_iter()
            .zip(op.results())
            .enumerate()
        {
            let elem = type_to_string(v.ty());
            if zero(&elem).is_none() || elem == "index" {
                return fail(op, format!("receives a {elem} from @{name}; only integer and float results are converted"));
            }
            let inner_name = format!("__return{k}");
            inner.add_unbound_argument(Container {
                name: inner_name.clone(),
                elem: elem.clone(),
                shape: vec![Expr::int(1)],
                strides: None,
            });
            results.push((v, inner_name.clone()));
            let outer = shared.fresh("ret");
            self.transient(Container {
                name: outer.clone(),
                elem,
                shape: vec![Expr::int(1)],
                strides: None,
            });
            self.scalars.insert(r, outer.clone());
            bound.push((inner_name, outer));
        }
        shared.calling.push(name.clone());
        let converted = inner.region(shared, body, &results, Some(*terminator));
        shared.calling.pop();
        let text = inner.render(&converted?.render(shared));
        let (_, free) = inner.symbols();
        let mut symbols = Vec::new();
        for s in &free {
            match mapping.iter().find(|(m, _)| m == s) {
                Some((_, e)) => symbols.push(format!("\"{s}\" = \"{e}\"")),
                None => {
                    return fail(
                        op,
                        format!("internal error: symbol `{s}` of @{name} has no value"),
                    )
                }
            }
        }
        let outer_of = |c: &String| bound.iter().find(|(i, _)| i == c).map(|(_, o)| o.clone());
        let reads: Vec<(String, String)> = inner
            .args
            .iter()
            .filter(|a| inner.read_set.contains(*a))
            .filter_map(|a| Some((a.clone(), outer_of(a)?)))
            .collect();
        let writes: Vec<(String, String)> = inner
            .args
            .iter()
            .filter(|a| inner.write_set.contains(*a))
            .filter_map(|a| Some((a.clone(), outer_of(a)?)))
            .collect();
        let read_names: BTreeSet<String> = reads.iter().map(|r| r.1.clone()).collect();
        let write_names: BTreeSet<String> = writes.iter().map(|w| w.1.clone()).collect();
        if self.conflicts(flow, index, p, &read_names, &write_names) {
            self.close(shared, seq, flow, index, p)?;
        }
        let mut ins = Vec::new();
        let part = |connector: &String, c: &Container| {
            subsets.get(connector).cloned().unwrap_or_else(|| c.full())
        };
        for (connector, outer) in &reads {
            let source = self.read(shared, flow, outer);
            let c = self.containers[outer].clone();
            ins.push(format!(
                "\"{connector}\" = {source}[\"{}\"] : {}",
                part(connector, &c),
                c.ty()
            ));
            self.read_set.insert(outer.clone());
            flow.reads.insert(outer.clone());
        }
        let outs: Vec<String> = writes
            .iter()
            .map(|(connector, outer)| format!("\"{connector}\" : {}", self.containers[outer].ty()))
            .collect();
        let n = writes.len();
        let node = format!("n{}", shared.id());
        flow.lines.push(format!(
            "{} = sdfg.nested \"{label}\"{} outs({}){} {{\n{text}}}\n",
            result_names(&node, n),
            clause("ins", &ins),
            outs.join(", "),
            clause("symbols", &symbols)
        ));
        for (k, (connector, outer)) in writes.iter().enumerate() {
            let c = self.containers[outer].clone();
            self.write(
                shared,
                flow,
                outer,
                &result_ref(&node, n, k),
                &part(connector, &c),
                &c.ty(),
                true,
                None,
            );
        }
        Ok(())
    }

    // ----- Loops and branches -------------------------------------------

    /// A fresh name for a loop variable or map parameter.
    fn var(&mut self, shared: &mut Shared<'a>) -> String {
        for base in ["i", "j", "k", "l"] {
            if !shared.taken.contains(base) {
                return shared.fresh(base);
            }
        }
        shared.fresh("i")
    }

    /// `scf.for`/`affine.for`: an `sdfg.loop` with a loop variable; loop-
    /// carried values live in transient scalars.
    fn for_loop(&mut self, shared: &mut Shared<'a>, op: Op<'a>) -> Result<'a, (String, String)> {
        let operands = op.operands();
        let (lb, ub, step) = if op.is("scf.for") {
            let e: Vec<Option<Expr>> = operands[..3].iter().map(|o| self.expr(*o)).collect();
            (e[0].clone(), e[1].clone(), e[2].clone())
        } else {
            let nl = super::values::affine_arity(op, "lowerBoundMap").unwrap_or(0);
            let nu = super::values::affine_arity(op, "upperBoundMap").unwrap_or(0);
            let lo: Vec<Option<Expr>> = operands[..nl].iter().map(|o| self.expr(*o)).collect();
            let hi: Vec<Option<Expr>> = operands[nl..nl + nu]
                .iter()
                .map(|o| self.expr(*o))
                .collect();
            let lb = affine_results(op, "lowerBoundMap", &lo).map(Expr::max);
            let ub = affine_results(op, "upperBoundMap", &hi).map(Expr::min);
            let step = op
                .attr("step")
                .and_then(super::values::int_attr)
                .map(Expr::int);
            (lb, ub, step)
        };
        let (Some(lb), Some(ub), Some(step)) = (lb, ub, step) else {
            return fail(
                op,
                "has bounds or a step computed from data, which are not converted yet",
            );
        };
        for e in [&lb, &ub, &step] {
            self.used.extend(e.free_symbols());
        }
        let var = self.var(shared);
        self.locals.insert(var.clone());
        let args = op.region_args(0);
        self.bind_expr(args[0], Expr::symbol(&var));
        // Loop-carried values (set before the loop by `carry`), updated by
        // the body's yield.
        let carried: Vec<String> = args[1..].iter().map(|a| self.scalars[a].clone()).collect();
        // Carried indices are read through symbols set at the start of each
        // iteration.
        let mut entry = Vec::new();
        for (a, container) in args[1..].iter().zip(&carried) {
            if type_to_string(a.ty()) == "index" {
                entry.push(self.index_symbol(shared, *a, container));
            }
        }
        let body_ops = op.region_ops(0);
        let (terminator, ops) = body_ops.split_last().expect("loops have a terminator");
        let yields: Vec<(Val<'a>, String)> = terminator
            .operands()
            .into_iter()
            .zip(carried.iter().cloned())
            .collect();
        let mut body = self.region(shared, ops, &yields, Some(*terminator))?;
        if !entry.is_empty() {
            body.assign_at_start(shared, entry);
        }
        let name = format!("loop{}", shared.id());
        let text = format!(
            "sdfg.loop @{name} var \"{var}\" init \"{lb}\" cond \"{var} < {ub}\" update \"{var} + {step}\" {{\n{}}}\n",
            body.render(shared)
        );
        Ok((name, text))
    }

    /// The iteration arguments of a loop: a transient scalar each, set to
    /// its initial value in the current state (loop results are read from
    /// the same scalars).
    fn carry(
        &mut self,
        shared: &mut Shared<'a>,
        seq: &mut Seq,
        flow: &mut Flow<'a>,
        index: &HashMap<Op<'a>, usize>,
        p: usize,
        op: Op<'a>,
    ) -> Result<'a, ()> {
        let operands = op.operands();
        let (args, inits, results): (Vec<Val<'a>>, Vec<Val<'a>>, bool) = match op.name() {
            "scf.for" => (
                op.region_args(0)[1..].to_vec(),
                operands[3..].to_vec(),
                true,
            ),
            "affine.for" => {
                let nl = super::values::affine_arity(op, "lowerBoundMap").unwrap_or(0);
                let nu = super::values::affine_arity(op, "upperBoundMap").unwrap_or(0);
                (
                    op.region_args(0)[1..].to_vec(),
                    operands[nl + nu..].to_vec(),
                    true,
                )
            }
            "scf.while" => (op.region_args(0), operands, false),
            _ => return Ok(()),
        };
        for (k, (arg, init)) in args.into_iter().zip(inits).enumerate() {
            let name = self.carried_scalar(shared, op, arg, if results { "acc" } else { "w" })?;
            self.scalars.insert(arg, name.clone());
            if results {
                self.scalars.insert(op.results()[k], name.clone());
            }
            self.emit(shared, seq, flow, index, p, &|s, f| {
                let mut slice = Slice::default();
                s.gather(&mut slice, f, op, init)?;
                slice.outputs.push((init, name.clone(), "0".into(), None));
                Ok(slice)
            })?;
        }
        Ok(())
    }

    /// `scf.while`: the "before" region computes the condition into a
    /// transient boolean once before the loop and again at the end of each
    /// iteration, so that the loop's condition reads it; the values it
    /// carries and forwards live in transient scalars.
    ///
    /// ```mlir
    /// sdfg.region @regionN {
    ///   ...before(w) -> c, f...
    ///   sdfg.loop @loopM cond "c" { ...after(f) -> w...  ...before(w) -> c, f... }
    /// }
    /// ```
    ///
    /// Returns the region's name and text, and the assignments of the
    /// carried indices' symbols for the edge into it.
    #[allow(clippy::type_complexity)]
    fn while_loop(
        &mut self,
        shared: &mut Shared<'a>,
        op: Op<'a>,
    ) -> Result<'a, (String, String, Vec<(String, String)>)> {
        let before_args = op.region_args(0);
        let after_args = op.region_args(1);
        let carried: Vec<String> = before_args
            .iter()
            .map(|a| self.scalars[a].clone())
            .collect();
        // Carried and forwarded indices are read through symbols: the
        // carried ones assigned before each evaluation of the "before"
        // region (on the edge into the loop's region, which the caller
        // makes, and at the end of each iteration), the forwarded ones at
        // the start of each iteration.
        let mut entry = Vec::new();
        for (a, container) in before_args.iter().zip(&carried) {
            if type_to_string(a.ty()) == "index" {
                entry.push(self.index_symbol(shared, *a, container));
            }
        }
        let mut forwarded = Vec::new();
        let mut iteration = Vec::new();
        for (k, a) in after_args.iter().enumerate() {
            let name = self.carried_scalar(shared, op, *a, "f")?;
            self.scalars.insert(*a, name.clone());
            self.scalars.insert(op.results()[k], name.clone());
            if type_to_string(a.ty()) == "index" {
                iteration.push(self.index_symbol(shared, *a, &name));
            }
            forwarded.push(name);
        }
        let before_ops = op.region_ops(0);
        let (condition, before) = before_ops
            .split_last()
            .expect("scf.while regions have terminators");
        let cond_values = condition.operands();
        let cond = self.scalar_for(shared, *condition, cond_values[0], "c")?;
        let mut before_results = vec![(cond_values[0], cond.clone())];
        before_results.extend(
            cond_values[1..]
                .iter()
                .copied()
                .zip(forwarded.iter().cloned()),
        );
        let after_ops = op.region_ops(1);
        let (yield_op, after) = after_ops
            .split_last()
            .expect("scf.while regions have terminators");
        let after_results: Vec<(Val<'a>, String)> = yield_op
            .operands()
            .into_iter()
            .zip(carried.iter().cloned())
            .collect();
        let mut seq = Seq::default();
        seq.extend(self.region(shared, before, &before_results, Some(*condition))?);
        let mut body = self.region(shared, after, &after_results, Some(*yield_op))?;
        if !iteration.is_empty() {
            body.assign_at_start(shared, iteration);
        }
        body.assign_after_last(entry.clone());
        // The second copy of the "before" region computes its values again:
        // what the first copy kept in transients is stale there.
        let defined: HashSet<Val<'a>> = before
            .iter()
            .flat_map(|o| std::iter::once(*o).chain(o.descendants()))
            .flat_map(|o| o.results())
            .collect();
        // The symbols its indices were bound to are stale there too.
        self.scalars.retain(|v, _| !defined.contains(v));
        self.exprs.retain(|v, _| !defined.contains(v));
        body.extend(self.region(shared, before, &before_results, Some(*condition))?);
        let name = format!("loop{}", shared.id());
        let text = format!(
            "sdfg.loop @{name} cond \"{cond}\" {{\n{}}}\n",
            body.render(shared)
        );
        seq.push(name, text);
        let region = format!("region{}", shared.id());
        Ok((
            region.clone(),
            format!("sdfg.region @{region} {{\n{}}}\n", seq.render(shared)),
            entry,
        ))
    }

    /// `scf.if` and `affine.if` (its integer set's constraints as the
    /// condition): an `sdfg.conditional`; results live in transient scalars.
    fn conditional(&mut self, shared: &mut Shared<'a>, op: Op<'a>) -> Result<'a, (String, String)> {
        let cond =
            if op.is("affine.if") {
                let operands: Vec<Option<Expr>> =
                    op.operands().into_iter().map(|v| self.expr(v)).collect();
                match super::values::integer_set_condition(op, &operands) {
                    Some(c) => c,
                    None => return fail(
                        op,
                        "has a condition on values computed from data, which is not converted yet",
                    ),
                }
            } else {
                let condition = op.operands()[0];
                match self.expr(condition) {
                    Some(e) => e.to_string(),
                    None => match self.scalar(condition) {
                        Some(c) => c,
                        None => return fail(op, "internal error: its condition was not kept"),
                    },
                }
            };
        let mut results = Vec::new();
        for r in op.results() {
            let name = self.carried_scalar(shared, op, r, "r")?;
            self.scalars.insert(r, name.clone());
            results.push(name);
        }
        let name = format!("if{}", shared.id());
        let mut text = format!("sdfg.conditional @{name} {{\n");
        for region in 0..2 {
            if !op.has_body(region) {
                continue;
            }
            let body_ops = op.region_ops(region);
            let (terminator, ops) = body_ops
                .split_last()
                .expect("scf.if regions have a terminator");
            let yields: Vec<(Val<'a>, String)> = terminator
                .operands()
                .into_iter()
                .zip(results.iter().cloned())
                .collect();
            let body = self.region(shared, ops, &yields, Some(*terminator))?;
            let guard = if region == 0 {
                format!(" if \"{cond}\"")
            } else {
                String::new()
            };
            text.push_str(&format!(
                "sdfg.branch @b{}{guard} {{\n{}}}\n",
                shared.id(),
                body.render(shared)
            ));
        }
        text.push_str("}\n");
        Ok((name, text))
    }

    // ----- Parallel loops -----------------------------------------------

    /// `scf.parallel`/`affine.parallel`: a map in the current state. Its
    /// body's statements become tasklets in the map when they are
    /// independent; a body with control flow or dependences becomes a
    /// nested SDFG in the map.
    fn parallel(
        &mut self,
        shared: &mut Shared<'a>,
        seq: &mut Seq,
        flow: &mut Flow<'a>,
        index: &HashMap<Op<'a>, usize>,
        p: usize,
        op: Op<'a>,
    ) -> Result<'a, ()> {
        // Values from memory that the body reads must be in containers.
        let body: Vec<Op<'a>> = op.descendants();
        let mut external = Vec::new();
        for inner in &body {
            for o in inner.operands() {
                if flow.pending_set.contains(&o) && !external.contains(&o) {
                    external.push(o);
                }
            }
        }
        if !external.is_empty() {
            self.close(shared, seq, flow, index, p)?;
        }
        let mut map = Flow::map();
        let (ranges, reductions) = self.map_ranges(shared, op)?;
        let mut reduced = Vec::new();
        for (k, (init, wcr)) in reductions.iter().enumerate() {
            // The reduction's scalar starts at the initial value.
            let result = op.results()[k];
            let name = self.scalar_for(shared, op, result, "red")?;
            match init {
                Init::Value(init) => {
                    let (init, out) = (*init, name.clone());
                    self.emit(shared, seq, flow, index, p, &|s, f| {
                        let mut slice = Slice::default();
                        s.gather(&mut slice, f, op, init)?;
                        slice.outputs.push((init, out.clone(), "0".into(), None));
                        Ok(slice)
                    })?;
                }
                Init::Identity(constant) => {
                    let writes = BTreeSet::from([name.clone()]);
                    if self.conflicts(flow, index, p, &BTreeSet::new(), &writes) {
                        self.close(shared, seq, flow, index, p)?;
                    }
                    let elem = self.containers[&name].elem.clone();
                    let label = format!("identity{}", shared.id());
                    flow.lines.push(format!(
                        "%{label} = sdfg.tasklet \"{label}\" outs(\"__out0\" : {elem}) {{\n  %c = arith.constant {constant} : {elem}\n  sdfg.yield %c : {elem}\n}}\n"
                    ));
                    self.write(
                        shared,
                        flow,
                        &name,
                        &format!("%{label}"),
                        "0",
                        &elem,
                        false,
                        None,
                    );
                }
            }
            reduced.push((name, *wcr));
        }
        let body_ops = op.region_ops(0);
        if self.independent(&body_ops) {
            self.map_body(shared, &mut map, &body_ops, &reduced)?;
        } else {
            self.nested(shared, &mut map, op, &body_ops, &reduced)?;
        }
        for (k, (name, _)) in reduced.iter().enumerate() {
            self.scalars.insert(op.results()[k], name.clone());
        }
        self.close_map(shared, seq, flow, index, p, map, &ranges)
    }

    /// The map's parameters and ranges (binding the induction variables),
    /// and its reductions: initial value and write-conflict resolution.
    #[allow(clippy::type_complexity)]
    fn map_ranges(
        &mut self,
        shared: &mut Shared<'a>,
        op: Op<'a>,
    ) -> Result<'a, (Vec<(String, String)>, Vec<(Init<'a>, &'static str)>)> {
        let operands = op.operands();
        let ivs = op.region_args(0);
        let n = ivs.len();
        let mut bounds = Vec::new();
        let mut reductions = Vec::new();
        if op.is("scf.parallel") {
            for d in 0..n {
                bounds.push((
                    self.expr(operands[d]),
                    self.expr(operands[n + d]),
                    self.expr(operands[2 * n + d]),
                ));
            }
            let terminator = *op
                .region_ops(0)
                .last()
                .expect("scf.parallel has a terminator");
            for (k, init) in operands[3 * n..].iter().enumerate() {
                let combiner = terminator.region_ops(k);
                // Booleans have no atomic update the lowering can use.
                let wcr = match combiner.as_slice() {
                    [c, _] if type_to_string(init.ty()) != "i1" => wcr_of(c.name()),
                    _ => None,
                };
                let Some(wcr) = wcr else {
                    return fail(
                        terminator,
                        "reduces with a combiner that is not a sum, a product, a signed or NaN-propagating min or max, or a bitwise and, or or xor, or reduces booleans",
                    );
                };
                reductions.push((Init::Value(*init), wcr));
            }
        } else {
            let all: Vec<Option<Expr>> = operands.iter().map(|o| self.expr(*o)).collect();
            let lo = affine_results(op, "lowerBoundsMap", &all);
            let nl = super::values::affine_arity(op, "lowerBoundsMap").unwrap_or(0);
            let hi = affine_results(op, "upperBoundsMap", &all[nl..]);
            let steps: Vec<i64> = op
                .array_attr("steps")
                .into_iter()
                .filter_map(super::values::int_attr)
                .collect();
            let (Some(lo), Some(hi)) = (lo, hi) else {
                return fail(
                    op,
                    "has bounds computed from data, which are not converted yet",
                );
            };
            // Each dimension's bound is the max of its group of lower
            // bounds and the min of its group of upper bounds.
            let (Some(lo), Some(hi)) = (
                bound_groups(op, "lowerBoundsGroups", lo, Expr::max),
                bound_groups(op, "upperBoundsGroups", hi, Expr::min),
            ) else {
                return fail(op, "has bound groups that do not match its bound maps");
            };
            if lo.len() != n || hi.len() != n || steps.len() != n {
                return fail(op, "has bounds that do not match its dimensions");
            }
            for d in 0..n {
                bounds.push((
                    Some(lo[d].clone()),
                    Some(hi[d].clone()),
                    Some(Expr::int(steps[d])),
                ));
            }
            for (kind, result) in op.array_attr("reductions").into_iter().zip(op.results()) {
                // `arith::AtomicRMWKind`, an integer attribute in MLIR 19.
                const KINDS: [&str; 15] = [
                    "addf", "addi", "assign", "maximumf", "maxs", "maxu", "minimumf", "mins",
                    "minu", "mulf", "muli", "ori", "andi", "maxnumf", "minnumf",
                ];
                let kind = super::values::int_attr(kind)
                    .and_then(|k| KINDS.get(usize::try_from(k).ok()?))
                    .copied()
                    .unwrap_or("unknown");
                let ty = type_to_string(result.ty());
                let Some((wcr, identity)) = affine_reduction(kind, &ty) else {
                    return fail(
                        op,
                        format!("reduces with `{kind}` on {ty}; only sums, products, signed or NaN-propagating min and max, and bitwise and and or are converted"),
                    );
                };
                reductions.push((Init::Identity(identity), wcr));
            }
        }
        let mut ranges = Vec::new();
        for (d, (lb, ub, step)) in bounds.into_iter().enumerate() {
            let (Some(lb), Some(ub), Some(step)) = (lb, ub, step) else {
                return fail(
                    op,
                    "has bounds or steps computed from data, which are not converted yet",
                );
            };
            for e in [&lb, &ub, &step] {
                self.used.extend(e.free_symbols());
            }
            let param = self.var(shared);
            self.params.insert(param.clone());
            self.bind_expr(ivs[d], Expr::symbol(&param));
            let range = if step.as_int() == Some(1) {
                format!("{lb}:{ub}")
            } else {
                format!("{lb}:{ub}:{step}")
            };
            ranges.push((param, range));
        }
        Ok((ranges, reductions))
    }

    /// Whether a parallel body's statements can be tasklets side by side
    /// in a map: only loads, stores, index arithmetic, pure ops and nested
    /// parallel loops of the same kind, and no container both written by
    /// one statement and accessed by another.
    fn independent(&mut self, ops: &[Op<'a>]) -> bool {
        let mut stores: Vec<(Op<'a>, Option<String>)> = Vec::new();
        let mut loads: Vec<(Op<'a>, Option<String>)> = Vec::new();
        let mut stack: Vec<Op<'a>> = ops.to_vec();
        while let Some(op) = stack.pop() {
            match op.name() {
                "memref.store" | "affine.store" => {
                    stores.push((op, self.root_name(op.operands()[1])))
                }
                "memref.load" | "affine.load" => loads.push((op, self.root_name(op.operands()[0]))),
                _ if reshape::is_view(op) => {}
                "scf.parallel" | "affine.parallel" => {
                    if !op.results().is_empty() {
                        return false;
                    }
                    stack.extend(op.region_ops(0));
                }
                "scf.reduce" | "scf.reduce.return" | "affine.yield" => {
                    stack.extend((0..op.num_regions()).flat_map(|r| op.region_ops(r)));
                }
                _ if is_pure(op) => {}
                _ if op.results().len() == 1 && self.expr(op.results()[0]).is_some() => {}
                _ => return false,
            }
        }
        if stores.iter().chain(&loads).any(|(_, n)| n.is_none()) {
            return false;
        }
        for (i, (_, a)) in stores.iter().enumerate() {
            if stores.iter().skip(i + 1).any(|(_, b)| b == a) {
                return false;
            }
        }
        // A load of a written memref must feed only that store.
        for (load, memref) in &loads {
            let Some((store, _)) = stores.iter().find(|(_, m)| m == memref) else {
                continue;
            };
            let mut users: Vec<Op<'a>> =
                load.results()[0].uses().into_iter().map(|u| u.0).collect();
            let mut seen = HashSet::new();
            while let Some(user) = users.pop() {
                if !seen.insert(user) {
                    continue;
                }
                if user == *store {
                    continue;
                }
                if user.is("memref.store") || user.is("affine.store") || !is_pure(user) {
                    return false;
                }
                users.extend(user.results()[0].uses().into_iter().map(|u| u.0));
            }
        }
        true
    }

    /// Writes an independent parallel body into the map region `map`.
    fn map_body(
        &mut self,
        shared: &mut Shared<'a>,
        map: &mut Flow<'a>,
        ops: &[Op<'a>],
        reduced: &[(String, &'static str)],
    ) -> Result<'a, ()> {
        for op in ops {
            let op = *op;
            match op.name() {
                "memref.store" | "affine.store" => {
                    let mut slice = Slice::default();
                    self.store_into(&mut slice, map, op)?;
                    self.write_statement(shared, map, slice)?;
                }
                "scf.reduce" | "affine.yield" => {
                    let mut slice = Slice::default();
                    for (k, v) in op.operands().into_iter().enumerate() {
                        self.gather(&mut slice, map, op, v)?;
                        slice.outputs.push((
                            v,
                            reduced[k].0.clone(),
                            "0".into(),
                            Some(reduced[k].1),
                        ));
                    }
                    if !slice.outputs.is_empty() {
                        self.write_statement(shared, map, slice)?;
                    }
                }
                "scf.parallel" | "affine.parallel" => {
                    let (ranges, _) = self.map_ranges(shared, op)?;
                    let mut inner = Flow::map();
                    self.map_body(shared, &mut inner, &op.region_ops(0), &[])?;
                    self.nest_map(shared, map, inner, &ranges)?;
                }
                _ if reshape::is_view(op) => self.view(op)?,
                _ => {}
            }
        }
        Ok(())
    }

    /// Writes the map `op` with region `map` into `flow` (a state).
    #[allow(clippy::too_many_arguments)]
    fn close_map(
        &mut self,
        shared: &mut Shared<'a>,
        seq: &mut Seq,
        flow: &mut Flow<'a>,
        index: &HashMap<Op<'a>, usize>,
        p: usize,
        map: Flow<'a>,
        ranges: &[(String, String)],
    ) -> Result<'a, ()> {
        let Kind::Map { inputs, exits, .. } = &map.kind else {
            unreachable!()
        };
        let reads: BTreeSet<String> = inputs.iter().map(|i| i.0.clone()).collect();
        let writes: BTreeSet<String> = exits.iter().map(|e| e.container.clone()).collect();
        if self.conflicts(flow, index, p, &reads, &writes) {
            self.close(shared, seq, flow, index, p)?;
        }
        self.nest_map(shared, flow, map, ranges)
    }

    /// Writes the map `op` with region `map` into `flow`, reading its
    /// inputs from `flow` and writing its outputs there.
    fn nest_map(
        &mut self,
        shared: &mut Shared<'a>,
        flow: &mut Flow<'a>,
        map: Flow<'a>,
        ranges: &[(String, String)],
    ) -> Result<'a, ()> {
        let Kind::Map { inputs, exits, .. } = map.kind else {
            unreachable!()
        };
        if exits.is_empty() {
            // Nothing leaves the map: it has no effect.
            return Ok(());
        }
        let label = format!("map{}", shared.id());
        let params: Vec<String> = ranges
            .iter()
            .map(|(p, r)| format!("\"{p}\" = \"{r}\""))
            .collect();
        let mut ins = Vec::new();
        let mut block_args = Vec::new();
        for (container, arg) in &inputs {
            let source = self.read(shared, flow, container);
            let c = &self.containers[container];
            ins.push(format!(
                "\"{container}\" = {source}[\"{}\"] : {}",
                c.full(),
                c.ty()
            ));
            block_args.push(format!("{arg}: {}", c.ty()));
            flow.reads.insert(container.clone());
        }
        let outs: Vec<String> = exits
            .iter()
            .map(|e| {
                format!(
                    "\"{}\" : {}",
                    e.connector,
                    self.containers[&e.container].ty()
                )
            })
            .collect();
        let exit_edges: Vec<String> = exits
            .iter()
            .map(|e| {
                format!(
                    "\"{}\" = {}[{}] : {}",
                    e.connector,
                    e.operand,
                    memlet(&e.memlet, e.dynamic, e.wcr),
                    e.ty
                )
            })
            .collect();
        let n = exits.len();
        let result = result_names(&label, n);
        let ins_text = clause("ins", &ins);
        flow.lines.push(format!(
            "{result} = sdfg.map \"{label}\" [{}]{ins_text} outs({}) {{\n^bb0({}):\n{}sdfg.exit ({})\n}}\n",
            params.join(", "),
            outs.join(", "),
            block_args.join(", "),
            map.lines.concat(),
            exit_edges.join(", ")
        ));
        for (k, e) in exits.iter().enumerate() {
            let operand = result_ref(&label, n, k);
            let c = self.containers[&e.container].clone();
            let subset = if c.shape.is_empty() {
                "0".to_string()
            } else {
                c.full()
            };
            self.write(
                shared,
                flow,
                &e.container,
                &operand,
                &subset,
                &c.ty(),
                e.dynamic,
                e.wcr,
            );
        }
        Ok(())
    }

    /// A parallel body with control flow or dependences: a nested SDFG in
    /// the map, converted like a function body.
    fn nested(
        &mut self,
        shared: &mut Shared<'a>,
        map: &mut Flow<'a>,
        op: Op<'a>,
        body_ops: &[Op<'a>],
        reduced: &[(String, &'static str)],
    ) -> Result<'a, ()> {
        let name = format!("body{}", shared.id());
        let mut inner = Sdfg::new(name.clone());
        inner.prefix = format!("{name}_");
        inner.exprs = self.exprs.clone();
        inner.aliases = self.aliases.clone();
        for (v, c) in &self.memrefs {
            inner.outer.insert(*v, self.containers[c].clone());
        }
        for (v, c) in &self.scalars {
            inner.outer.insert(*v, self.containers[c].clone());
        }
        let (terminator, ops) = body_ops
            .split_last()
            .expect("parallel bodies have a terminator");
        // A reduction's value goes to a scalar of the nested SDFG, then
        // through the map's exit with the write-conflict resolution.
        let mut results = Vec::new();
        let mut partials = Vec::new();
        if terminator.is("scf.reduce") || terminator.is("affine.yield") {
            for (k, v) in terminator.operands().into_iter().enumerate() {
                let c = shared.fresh("part");
                let elem = self.containers[&reduced[k].0].elem.clone();
                let container = Container {
                    name: c.clone(),
                    elem,
                    shape: Vec::new(),
                    strides: None,
                };
                inner.args.push(c.clone());
                inner.containers.insert(c.clone(), container.clone());
                self.containers.insert(c.clone(), container);
                results.push((v, c.clone()));
                partials.push((c, k));
            }
        }
        let seq = inner.region(shared, ops, &results, Some(*terminator))?;
        let body = seq.render(shared);
        let (_, free) = inner.symbols();
        let text = inner.render(&body);
        self.used
            .extend(free.iter().filter(|s| !self.params.contains(*s)).cloned());
        let mut ins = Vec::new();
        for container in inner.args.iter().filter(|a| inner.read_set.contains(*a)) {
            let source = self.read(shared, map, container);
            let c = &self.containers[container];
            ins.push(format!(
                "\"{container}\" = {source}[\"{}\"] : {}",
                c.full(),
                c.ty()
            ));
            self.read_set.insert(container.clone());
        }
        let written: Vec<&String> = inner
            .args
            .iter()
            .filter(|a| inner.write_set.contains(*a))
            .collect();
        let outs: Vec<String> = written
            .iter()
            .map(|c| format!("\"{c}\" : {}", self.containers[*c].ty()))
            .collect();
        let symbols: Vec<String> = free.iter().map(|s| format!("\"{s}\" = \"{s}\"")).collect();
        let label = format!("n{}", shared.id());
        let n = written.len();
        if n == 0 {
            return fail(op, "has a body that writes nothing outside itself");
        }
        let result = result_names(&label, n);
        let ins_text = clause("ins", &ins);
        let symbols_text = clause("symbols", &symbols);
        map.lines.push(format!(
            "{result} = sdfg.nested \"{label}\"{ins_text} outs({}){symbols_text} {{\n{text}}}\n",
            outs.join(", ")
        ));
        let written: Vec<String> = written.into_iter().cloned().collect();
        for (k, container) in written.iter().enumerate() {
            let operand = result_ref(&label, n, k);
            let c = self.containers[container].clone();
            if let Some((_, r)) = partials.iter().find(|(p, _)| p == container) {
                // The nested SDFG leaves its partial result in a transient
                // of this iteration; a tasklet adds it into the reduction's
                // scalar through the exit, with the write-conflict
                // resolution (a nested SDFG's output is bound to its
                // container, so it cannot combine by itself).
                let (target, wcr) = reduced[*r].clone();
                let value = results[*r].0;
                self.allocs.push(format!(
                    "%{}{container} = sdfg.alloc \"{container}\" : {}\n",
                    self.prefix,
                    c.ty()
                ));
                let node = format!("%__a{}", shared.id());
                map.lines.push(format!(
                    "{node} = sdfg.access %{}{container} writes({operand}[\"0\"] : {}) : {}\n",
                    self.prefix,
                    c.ty(),
                    c.ty()
                ));
                if let Kind::Map { local, .. } = &mut map.kind {
                    local.insert(container.clone(), node);
                }
                let mut slice = Slice::default();
                slice.inputs.push(Input::Scalar {
                    value,
                    container: container.clone(),
                });
                slice.outputs.push((value, target, "0".into(), Some(wcr)));
                self.write_statement(shared, map, slice)?;
                continue;
            }
            self.write(
                shared,
                map,
                container,
                &operand,
                &c.full(),
                &c.ty(),
                true,
                None,
            );
        }
        Ok(())
    }
}

/// The results of the op `label` with `n` results, as its definition
/// names them (`%label` or `%label:n`).
fn result_names(label: &str, n: usize) -> String {
    if n > 1 {
        format!("%{label}:{n}")
    } else {
        format!("%{label}")
    }
}

/// Result `k` of the op `label` with `n` results.
fn result_ref(label: &str, n: usize, k: usize) -> String {
    if n > 1 {
        format!("%{label}#{k}")
    } else {
        format!("%{label}")
    }
}

/// ` keyword(items)`, or nothing without items.
fn clause(keyword: &str, items: &[String]) -> String {
    if items.is_empty() {
        String::new()
    } else {
        format!(" {keyword}({})", items.join(", "))
    }
}

/// A memlet's text: subset, then flags.
fn memlet(subset: &str, dynamic: bool, wcr: Option<&str>) -> String {
    let mut text = format!("\"{subset}\"");
    if dynamic {
        text.push_str(", dynamic");
    }
    if let Some(w) = wcr {
        text.push_str(&format!(", wcr {w}"));
    }
    text
}
