//! `sdfg-vectorization`: DaCe's `Vectorization`. The innermost parameter
//! of a map around one tasklet steps by the vector length `L`, and the
//! tasklet computes `L` consecutive iterations at once on MLIR vectors:
//! the memlets that move with the parameter move `L` consecutive elements
//! into (or out of) `vector<L x T>` connectors, which the lowering loads
//! and stores as whole vectors. It is the SC'19 paper's step after
//! tiling for registers.
//!
//! ```mlir
//! // before
//! %m = sdfg.map ["i" = "0:M", "j" = "0:N"] ins(...) outs(...) {
//!   %t = sdfg.tasklet ins("a" = %A["i, j"] : ..., "s" = %S["i"] : ...) outs("b" : f64) {
//!   ^bb0(%a: f64, %s: f64):
//!     %p = arith.mulf %a, %s : f64
//!     sdfg.yield %p : f64
//!   }
//!   sdfg.exit ("B" = %t["i, j"] : f64)
//! }
//! // after sdfg-vectorization{vector-length=8}, N a multiple of 8 (or
//! // else j = 0:N - N % 8:8, and the map as it was over j = N - N % 8:N)
//! %m = sdfg.map ["i" = "0:M", "j" = "0:N:8"] ins(...) outs(...) {
//!   %t = sdfg.tasklet ins("a" = %A["i, j:j + 8"] : ..., "s" = %S["i"] : ...) outs("b" : vector<8xf64>) {
//!   ^bb0(%a: vector<8xf64>, %s: f64):
//!     %v = vector.broadcast %s : f64 to vector<8xf64>
//!     %p = arith.mulf %a, %v : vector<8xf64>
//!     sdfg.yield %p : vector<8xf64>
//!   }
//!   sdfg.exit ("B" = %t["i, j:j + 8"] : vector<8xf64>)
//! }
//! ```
//!
//! ## What changes, and why it is the same program
//!
//! Every value in the tasklet is either *uniform* (the same in the `L`
//! iterations one vector covers: it does not depend on the parameter `j`)
//! or *varying* (a different value per lane). Inputs whose memlet index
//! in a unit-stride dimension is `j + c` (`c` free of `j`) are varying
//! and become vectors of the `L` elements from `j + c`; inputs that do
//! not mention `j` stay scalars. An `sdfg.sym` that mentions `j` must be
//! affine in it with a constant slope `s` (its lanes are `x + s * l`); an
//! arith or math op with a varying operand becomes the same op on
//! vectors, its uniform operands broadcast. Any other op that sees a
//! varying value (a call, an op with regions) stops the transformation,
//! since its per-lane meaning is unknown.
//!
//! Outputs that move with `j` are stored as vectors, resolved lane by
//! lane where they carry a write-conflict resolution. An output that
//! does not mention `j` but resolves (`s[i] += a[i, j]`) receives the
//! lanes combined by a `vector.reduction` of the resolution's kind: the
//! `L` iterations would have combined the same values into it one after
//! the other, and a resolution is associative and commutative, as DaCe
//! takes it to be. An output that does not mention `j` and does not
//! resolve is written by every lane (the last would win), and the map is
//! left alone.
//!
//! ## Where it applies
//!
//! The map holds exactly one tasklet with an MLIR body (DaCe's pattern),
//! no `by_ref` outputs, no side effects and no stream inputs (each
//! iteration pops once); its last parameter runs with step 1.
//!
//! Where its count is not provably a multiple of `L`, the vector map
//! covers the largest multiple (`j = 0:N - N % 8:8`), and a copy of the
//! map as it was, over the rest (`j = N - N % 8:N`), follows it in the
//! state and writes the same access nodes: DaCe's remainder map
//! (`postamble`). That needs a map of a state whose results only go to
//! access nodes; inside another scope, tile or strip mine the map first.
//! The two maps touch different iterations, so together they compute
//! what the map did.
//!
//! Every memlet that mentions
//! `j` indexes a single element, and mentions `j` only in one dimension
//! of stride 1, as `j + c`; the connector's type is the container's
//! element type (an integer or float), so that the lanes are what the
//! vector load reads. DaCe also accepts an index such as `2 * j` in the
//! unit-stride dimension, which its vector load then reads wrongly.
//!
//! Options: `vector-length=L` (default 8, DaCe's is 4: eight doubles fill
//! an AVX-512 register, and LLVM splits a longer vector for narrower
//! machines) and the targeting options of [`super::Target`].

use super::{params, set_params, Target};
use mlir_sys::MlirType;
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::{type_to_string, Op, Val};
use sdfg_dialect::{memlet_at, rewrite, set_memlet_at, Container, ContainerKind, Wcr};
use sdfg_symbolic::{parse, parse_subset, Expr, Range, Subset};
use std::collections::{HashMap, HashSet};

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-vectorization",
    summary: "Vectorize the tasklet of a map along its last parameter (DaCe's Vectorization); options vector-length, label, level, param",
    op_name: "builtin.module",
    create: || Box::new(Vectorization::default()),
};

const PASS: &str = "sdfg-vectorization";

/// The pass and its options.
#[derive(Clone, Debug)]
pub struct Vectorization {
    /// The number of lanes.
    pub vector_length: u32,
    /// The maps to vectorize.
    pub target: Target,
}

impl Default for Vectorization {
    fn default() -> Self {
        Vectorization {
            vector_length: 8,
            target: Target::default(),
        }
    }
}

impl RustPass for Vectorization {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        let mut length = self.vector_length;
        self.target = Target::parse_with(
            PASS,
            options,
            "vector-length, label, level and param",
            |key, value| {
                if key != "vector-length" {
                    return Ok(false);
                }
                length = value.parse().ok().filter(|l| *l > 1).ok_or_else(|| {
                    format!("{PASS}: vector-length `{value}` is not an integer above 1")
                })?;
                Ok(true)
            },
        )?;
        self.vector_length = length;
        Ok(())
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        let length = self.vector_length;
        self.target
            .apply_each(PASS, module, |map| vectorize_map(map, length));
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(self.clone())
    }
}

/// What one memlet of the tasklet becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lanes {
    /// It does not mention the parameter: the same element for every lane.
    Uniform,
    /// It moves with the parameter: `L` consecutive elements.
    Vector,
}

/// How a tasklet output reaches its memlets.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Output {
    /// Stored as a vector.
    Vector,
    /// Every lane resolves into one element: combined first by a
    /// `vector.reduction` of this kind.
    Reduced(&'static str),
}

/// Vectorizes `map` along its last parameter with `length` lanes, or
/// says why it does not apply (and leaves the map as it was).
pub fn vectorize_map(map: Op<'_>, length: u32) -> Result<(), String> {
    let plan = plan(map, length)?;
    // The remainder map is a copy of the map as it was, made before the
    // map changes and put in place once it has.
    // SAFETY: `map` is live; the copy belongs to no block until
    // `follow_with` inserts it, or is destroyed below.
    let rest = plan
        .remainder
        .as_ref()
        .map(|_| unsafe { mlir_sys::mlirOperationClone(map.raw()) });
    let done = apply(map, &plan, length);
    match (rest, &plan.remainder) {
        (Some(rest), Some(params)) if done.is_ok() => {
            // SAFETY: the copy is live and detached.
            let rest = unsafe { follow_with(map, rest) };
            set_params(rest, params);
            if let Some(label) = map.str_attr("label") {
                rest.set_attr(
                    "label",
                    rewrite::str_attr(rest, &format!("{label}_remainder")),
                );
            }
            sdfg_analysis::propagate::propagate_scope(map);
            sdfg_analysis::propagate::propagate_scope(rest);
        }
        // SAFETY: the copy was never inserted, and nothing uses it.
        (Some(rest), _) => unsafe { mlir_sys::mlirOperationDestroy(rest) },
        _ => {}
    }
    done
}

/// Inserts the detached copy `rest` of `map` right after it, and writes
/// its results where the map's results are written (each access node
/// that a result of `map` writes gets the same result of `rest`, with the
/// same memlet, as one more write).
///
/// # Safety
/// `rest` is a live op that no block owns, with as many results as `map`.
unsafe fn follow_with<'a>(map: Op<'a>, rest: mlir_sys::MlirOperation) -> Op<'a> {
    let block = mlir_sys::mlirOperationGetBlock(map.raw());
    mlir_sys::mlirBlockInsertOwnedOperationAfter(block, map.raw(), rest);
    let rest = Op::from_raw(rest).expect("a live op");
    for (result, copy) in map.results().into_iter().zip(rest.results()) {
        for (access, operand) in result.uses() {
            let memlet = memlet_at(access, operand).expect("split checked every write's memlet");
            let mut segments: Vec<Vec<Val<'_>>> =
                (0..4).map(|k| access.operand_segment(k)).collect();
            segments[1].push(copy);
            let mut memlets = access.array_attr("write_memlets");
            memlets.push(memlet.to_attr(access.context()));
            rewrite::set_operand_segments(access, &segments);
            access.set_attr(
                "write_memlets",
                sdfg_dialect::ir::array_of(access.context(), &memlets),
            );
        }
    }
    rest
}

/// Where the count of the map's last parameter is not provably a
/// multiple of the vector length: the vector map's range and the
/// remainder map's (`start : start + count - count % L : L` and
/// `start + count - count % L : end`). The remainder map follows the
/// vector map in its state and writes the same access nodes, so the map
/// must be a map of a state whose results go only to access nodes.
fn split(
    map: Op<'_>,
    r: &Range,
    lanes: &Expr,
    asm: &sdfg_symbolic::Assumptions,
) -> Result<(Range, Range), String> {
    let count = r.count();
    // An empty range written backwards (`1:0`) has a negative count,
    // whose remainder would run iterations the map never ran.
    if !sdfg_symbolic::compare_le(&Expr::int(0), &count, asm).is_true() {
        return Err(format!("its count `{count}` is not provably non-negative"));
    }
    if !map.parent().is_some_and(|p| p.is("sdfg.state")) {
        return Err("the map is inside another scope, where no remainder map can follow it (tile the map first)".into());
    }
    for result in map.results() {
        for (user, operand) in result.uses() {
            // A write with its memlet, which the remainder's write copies.
            let write = user.is("sdfg.access")
                && operand >= 1
                && operand <= user.operand_segment(1).len()
                && memlet_at(user, operand).is_some();
            if !write {
                return Err(format!(
                    "a result of the map goes to `{}`, not an access node it writes, where the remainder map would write it too",
                    user.name()
                ));
            }
        }
    }
    let whole = Expr::sub(&count, &Expr::modulo(&count, lanes));
    let cut = Expr::add(&r.start, &whole);
    Ok((
        Range::new(r.start.clone(), cut.clone(), lanes.clone()),
        Range::new(cut, r.end.clone(), Expr::int(1)),
    ))
}

/// Everything [`vectorize_map`] changes, decided before anything changes.
struct Plan<'a> {
    tasklet: Op<'a>,
    /// The parameters with the last one's new range.
    params: Vec<(String, String)>,
    /// The vectorized input memlets (operand index, new subset).
    inputs: Vec<(usize, String)>,
    /// Per output: how it is written, and its exit memlets to rewrite
    /// (operand index, new subset).
    outputs: Vec<(Output, Vec<(usize, String)>)>,
    /// The tasklet's ops that become vector ops, in order.
    varying_ops: Vec<Op<'a>>,
    /// The values that are varying (vectors of their type) after the
    /// change.
    varying: HashSet<Val<'a>>,
    /// `sdfg.sym` ops affine in the parameter, with their slopes.
    syms: Vec<(Op<'a>, i64)>,
    /// The parameters of the remainder map, where the count is not
    /// provably a multiple of the length.
    remainder: Option<Vec<(String, String)>>,
}

fn plan(map: Op<'_>, length: u32) -> Result<Plan<'_>, String> {
    let ops = map.region_ops(0);
    let [tasklet, exit] = ops.as_slice() else {
        return Err("the map does not hold exactly one tasklet".into());
    };
    let (tasklet, exit) = (*tasklet, *exit);
    if !tasklet.is("sdfg.tasklet") || !exit.is("sdfg.exit") {
        return Err("the map does not hold exactly one tasklet".into());
    }
    if !tasklet.has_body(0) || tasklet.attr("code").is_some() {
        return Err("the tasklet's code is not an MLIR body".into());
    }
    if tasklet.bool_array_attr("by_ref").contains(&true) {
        return Err("the tasklet writes an output by reference".into());
    }
    if tasklet.attr("side_effects").is_some() {
        return Err("the tasklet has side effects".into());
    }
    let mut all = params(map);
    let Some((param, range)) = all.last().cloned() else {
        return Err("the map has no parameters".into());
    };
    let parsed = parse_subset(&range).map_err(|e| format!("range `{range}`: {e}"))?;
    let [r] = parsed.ranges() else {
        return Err(format!("range `{range}` is not one range"));
    };
    if r.step.as_int() != Some(1) || r.tile.as_int() != Some(1) {
        return Err(format!("the range `{range}` of `{param}` is not of step 1"));
    }
    let lanes = Expr::int(i64::from(length));
    let asm = super::assumptions_inside(map);
    let multiple = Expr::eq(&Expr::modulo(&r.count(), &lanes), &Expr::int(0));
    let mut remainder = None;
    let new_range = if asm.decide(&multiple).is_true() {
        Range::new(r.start.clone(), r.end.clone(), lanes.clone())
    } else {
        let (vector, rest) = split(map, r, &lanes, &asm).map_err(|why| {
            format!("the count of `{param}` in `{range}` is not provably a multiple of {length}, and {why}")
        })?;
        let mut params = all.clone();
        params.last_mut().expect("a parameter").1 = Subset::new(vec![rest]).to_string();
        remainder = Some(params);
        vector
    };
    all.last_mut().expect("a parameter").1 = Subset::new(vec![new_range]).to_string();

    let args = tasklet.region_args(0);
    let mut varying = HashSet::new();
    let mut inputs = Vec::new();
    for (k, value) in tasklet.operand_segment(0).into_iter().enumerate() {
        let Some(memlet) = memlet_at(tasklet, k) else {
            return Err(format!("input {k} of the tasklet has no memlet"));
        };
        let arg = args[k];
        if Container::from_type(value.ty()).is_some_and(|c| c.kind == ContainerKind::Stream) {
            return Err(format!(
                "connector {} pops a stream once per iteration",
                connector(tasklet, "in_names", k)
            ));
        }
        match lanes_of(value, &memlet, &param, length)? {
            (Lanes::Uniform, _) => {}
            (Lanes::Vector, subset) => {
                let element = element_of(value)?;
                if type_to_string(arg.ty()) != type_to_string(element) {
                    return Err(format!(
                        "connector {} is a {}, not the {} elements of its data",
                        connector(tasklet, "in_names", k),
                        type_to_string(arg.ty()),
                        type_to_string(element)
                    ));
                }
                varying.insert(arg);
                inputs.push((k, subset));
            }
        }
    }

    // The body: which values vary, and whether every op that sees one
    // has a per-lane meaning.
    let body = tasklet.region_ops(0);
    if let Some(nested) = tasklet.descendants().into_iter().find(|o| {
        o.is("sdfg.sym")
            && o.parent() != Some(tasklet)
            && crate::identifiers(o.str_attr("expr").unwrap_or_default()).any(|w| w == param)
    }) {
        return Err(format!(
            "`{}` in a region of the tasklet differs per lane",
            nested.str_attr("expr").unwrap_or_default()
        ));
    }
    let mut varying_ops = Vec::new();
    let mut syms = Vec::new();
    for op in &body {
        if op.is("sdfg.yield") {
            continue;
        }
        if op.is("sdfg.sym") {
            let text = op.str_attr("expr").unwrap_or_default();
            let expr = parse(text).map_err(|e| format!("symbol expression `{text}`: {e}"))?;
            if !expr.mentions(&param) {
                continue;
            }
            let step = slope(&expr, &param).ok_or_else(|| {
                format!("`{text}` in the tasklet is not affine in `{param}` with a constant slope")
            })?;
            let result = op.results()[0];
            scalar_type(result.ty(), text)?;
            varying.insert(result);
            syms.push((*op, step));
            continue;
        }
        let sees_varying = if op.num_regions() > 0 {
            op.descendants()
                .iter()
                .chain(std::iter::once(op))
                .any(|o| o.operands().iter().any(|v| varying.contains(v)))
        } else {
            op.operands().iter().any(|v| varying.contains(v))
        };
        if !sees_varying {
            continue;
        }
        let name = op.name();
        let elementwise = (name.starts_with("arith.") || name.starts_with("math."))
            && op.num_regions() == 0
            && !op.results().is_empty();
        if !elementwise {
            return Err(format!(
                "`{name}` in the tasklet uses a value that differs per lane"
            ));
        }
        for result in op.results() {
            scalar_type(result.ty(), name)?;
            varying.insert(result);
        }
        varying_ops.push(*op);
    }

    // The outputs: stored as vectors, or reduced into one element.
    let mut outputs = Vec::new();
    for (k, result) in tasklet.results().into_iter().enumerate() {
        let name = connector(tasklet, "out_names", k);
        let mut kind = None;
        let mut memlets = Vec::new();
        for (user, operand) in result.uses() {
            let Some(memlet) = memlet_at(user, operand) else {
                return Err(format!("output {name} has no memlet"));
            };
            let data = user
                .is("sdfg.exit")
                .then(|| map.results().get(operand).copied())
                .flatten()
                .ok_or_else(|| format!("output {name} does not leave through the map's exit"))?;
            let this = match lanes_of(data, &memlet, &param, length)? {
                (Lanes::Vector, subset) => {
                    let element = element_of(data)?;
                    if type_to_string(result.ty()) != type_to_string(element) {
                        return Err(format!(
                            "connector {name} is a {}, not the {} elements of its data",
                            type_to_string(result.ty()),
                            type_to_string(element)
                        ));
                    }
                    memlets.push((operand, subset));
                    Output::Vector
                }
                (Lanes::Uniform, _) => {
                    let reduction = reduction_kind(&memlet.wcr, result.ty()).ok_or_else(|| {
                        format!("every lane writes output {name} at `{}` without a resolution the lanes can be combined by", memlet.subset)
                    })?;
                    Output::Reduced(reduction)
                }
            };
            if kind.as_ref().is_some_and(|k| *k != this) {
                return Err(format!(
                    "output {name} is both stored as a vector and reduced"
                ));
            }
            kind = Some(this);
        }
        let kind = kind.ok_or_else(|| format!("output {name} is not used"))?;
        scalar_type(result.ty(), &name)?;
        outputs.push((kind, memlets));
    }
    Ok(Plan {
        tasklet,
        params: all,
        inputs,
        outputs,
        varying_ops,
        varying,
        syms,
        remainder,
    })
}

/// The name of connector `k` in the string array attribute `names`.
fn connector(tasklet: Op<'_>, names: &str, k: usize) -> String {
    format!(
        "`{}`",
        tasklet.str_array_attr(names).get(k).copied().unwrap_or("?")
    )
}

/// How the memlet `memlet` on `data` moves with `param`, and its subset
/// over `length` lanes when it does.
fn lanes_of(
    data: Val<'_>,
    memlet: &sdfg_dialect::Memlet,
    param: &str,
    length: u32,
) -> Result<(Lanes, String), String> {
    let text = &memlet.subset;
    let subset = parse_subset(text).map_err(|e| format!("memlet `{text}`: {e}"))?;
    let moving: Vec<usize> = (0..subset.dims())
        .filter(|&d| {
            let r = &subset.ranges()[d];
            [&r.start, &r.end, &r.step, &r.tile]
                .iter()
                .any(|e| e.mentions(param))
        })
        .collect();
    if moving.is_empty() {
        return Ok((Lanes::Uniform, text.clone()));
    }
    if memlet.dynamic || memlet.other.is_some() {
        return Err(format!(
            "the memlet `{text}` is dynamic or a copy, and moves with `{param}`"
        ));
    }
    let container = Container::from_type(data.ty())
        .filter(|c| matches!(c.kind, ContainerKind::Array | ContainerKind::View))
        .ok_or_else(|| format!("`{text}` moves with `{param}` in data that is not an array"))?;
    let [d] = moving.as_slice() else {
        return Err(format!(
            "`{text}` mentions `{param}` in more than one dimension"
        ));
    };
    let unit = match &container.strides {
        None => *d + 1 == container.shape.len(),
        Some(strides) => strides.get(*d).is_some_and(|s| s.trim() == "1"),
    };
    if !unit {
        return Err(format!(
            "`{text}` moves with `{param}` in a dimension whose stride is not 1"
        ));
    }
    if !subset.ranges().iter().all(Range::is_index) {
        return Err(format!("`{text}` is not a single element"));
    }
    let index = &subset.ranges()[*d].start;
    let offset = Expr::sub(index, &Expr::symbol(param));
    if offset.mentions(param) {
        return Err(format!(
            "`{text}` indexes with `{index}`, which is not `{param}` plus an offset"
        ));
    }
    let mut ranges = subset.ranges().to_vec();
    ranges[*d] = Range::new(
        index.clone(),
        Expr::add(index, &Expr::int(i64::from(length))),
        Expr::int(1),
    );
    Ok((Lanes::Vector, Subset::new(ranges).to_string()))
}

/// The element type of the container `data`.
fn element_of(data: Val<'_>) -> Result<MlirType, String> {
    Container::from_type(data.ty())
        .map(|c| c.element.0)
        .ok_or_else(|| "a memlet's data is not a container".to_string())
}

/// Checks that `ty` is an integer, index or float type (what a vector
/// holds); `what` names the value for the reason.
fn scalar_type(ty: MlirType, what: &str) -> Result<(), String> {
    // SAFETY: type queries on a live type.
    let scalar = unsafe {
        mlir_sys::mlirTypeIsAInteger(ty)
            || mlir_sys::mlirTypeIsAFloat(ty)
            || mlir_sys::mlirTypeIsAIndex(ty)
    };
    if scalar {
        Ok(())
    } else {
        Err(format!(
            "`{what}` is a {}, which has no vector of lanes",
            type_to_string(ty)
        ))
    }
}

/// The constant `s` with `expr(param + 1) = expr(param) + s` everywhere
/// (the expression is affine in `param`), if there is one.
fn slope(expr: &Expr, param: &str) -> Option<i64> {
    let next = expr.substitute(&HashMap::from([(
        param.to_string(),
        Expr::add(&Expr::symbol(param), &Expr::int(1)),
    )]));
    let step = Expr::sub(&next, expr).as_int()?;
    // Affine, not only of a constant difference at step 1 (`j % 2`
    // would have none): twice the step moves twice as far.
    let twice = expr.substitute(&HashMap::from([(
        param.to_string(),
        Expr::add(&Expr::symbol(param), &Expr::int(2)),
    )]));
    (Expr::sub(&twice, expr).as_int() == Some(2 * step)).then_some(step)
}

/// The `vector.reduction` kind that combines lanes as `wcr` combines
/// writes to `ty`, where there is one.
fn reduction_kind(wcr: &Wcr, ty: MlirType) -> Option<&'static str> {
    let name = match wcr {
        Wcr::None => return None,
        Wcr::Named(kind) => kind.name().to_string(),
        Wcr::Custom(lambda) => match Wcr::from_lambda(lambda) {
            Wcr::Named(kind) => kind.name().to_string(),
            _ => return None,
        },
    };
    // SAFETY: a type query on a live type.
    let float = unsafe { mlir_sys::mlirTypeIsAFloat(ty) };
    Some(match (name.as_str(), float) {
        ("sum", _) => "add",
        ("product", _) => "mul",
        ("min", true) => "minimumf",
        ("max", true) => "maximumf",
        ("bitwise_and", false) => "and",
        ("bitwise_or", false) => "or",
        ("bitwise_xor", false) => "xor",
        _ => return None,
    })
}

fn apply(map: Op<'_>, plan: &Plan<'_>, length: u32) -> Result<(), String> {
    let tasklet = plan.tasklet;
    let vector_of = |element: MlirType| {
        rewrite::parse_type(
            tasklet,
            &format!("vector<{length}x{}>", type_to_string(element)),
        )
        .ok_or_else(|| format!("vector<{length}x{}> is not a type", type_to_string(element)))
    };
    // Check every type before anything changes.
    let mut vectors = HashMap::new();
    for value in &plan.varying {
        vectors.insert(*value, vector_of(value.ty())?);
    }
    for result in tasklet.results() {
        vector_of(result.ty())?;
    }
    set_params(map, &plan.params);
    for (k, subset) in &plan.inputs {
        set_subset(tasklet, *k, subset);
    }
    let args = tasklet.region_args(0);
    for (k, _) in &plan.inputs {
        rewrite::set_type(args[*k], vectors[&args[*k]]);
    }
    // Affine symbols: their value broadcast, plus the slope times the
    // lane number. `lanes` is every value that is a vector from here on.
    let mut lanes = plan.varying.clone();
    for (sym, step) in &plan.syms {
        let scalar = sym.results()[0];
        let ty = scalar.ty();
        let vector = vectors[&scalar];
        let uses = scalar.uses();
        let next = sym_next(*sym).ok_or("the tasklet body ends at a symbol")?;
        let splat = create(next, "vector.broadcast", &[scalar], &[], vector)?;
        // SAFETY: a type query on a live type.
        let float = unsafe { mlir_sys::mlirTypeIsAFloat(ty) };
        let offsets: Vec<String> = (0..i64::from(length))
            .map(|l| {
                if float {
                    format!("{}.0", l * step)
                } else {
                    (l * step).to_string()
                }
            })
            .collect();
        let text = format!(
            "dense<[{}]> : {}",
            offsets.join(", "),
            type_to_string(vector)
        );
        let value = rewrite::parse_attr(tasklet, &text).ok_or("the lane offsets do not parse")?;
        let offsets = create(next, "arith.constant", &[], &[("value", value)], vector)?;
        let add = if float { "arith.addf" } else { "arith.addi" };
        let sum = create(next, add, &[splat, offsets], &[], vector)?;
        for (user, operand) in uses {
            rewrite::set_operand(user, operand, sum);
        }
        lanes.insert(sum);
    }
    // Elementwise ops on vectors: uniform operands broadcast first.
    for op in &plan.varying_ops {
        for (k, operand) in op.operands().into_iter().enumerate() {
            if lanes.contains(&operand) {
                continue;
            }
            let vector = vector_of(operand.ty())?;
            let splat = create(*op, "vector.broadcast", &[operand], &[], vector)?;
            rewrite::set_operand(*op, k, splat);
        }
        for result in op.results() {
            rewrite::set_type(result, vectors[&result]);
        }
    }
    // The outputs: vectors stored from the lanes, or reduced to one.
    let yield_op = tasklet
        .region_ops(0)
        .into_iter()
        .find(|o| o.is("sdfg.yield"))
        .ok_or("the tasklet has no sdfg.yield")?;
    for (k, (output, memlets)) in plan.outputs.iter().enumerate() {
        let result = tasklet.results()[k];
        let yielded = yield_op.operands()[k];
        let vector = if lanes.contains(&yielded) {
            yielded
        } else {
            create(
                yield_op,
                "vector.broadcast",
                &[yielded],
                &[],
                vector_of(yielded.ty())?,
            )?
        };
        match output {
            Output::Vector => {
                rewrite::set_operand(yield_op, k, vector);
                rewrite::set_type(result, vector_of(result.ty())?);
                for (user, operand) in result.uses() {
                    if let Some((_, subset)) = memlets.iter().find(|(o, _)| *o == operand) {
                        set_subset(user, operand, subset);
                    }
                }
            }
            Output::Reduced(kind) => {
                let attr = rewrite::parse_attr(tasklet, &format!("#vector.kind<{kind}>"))
                    .ok_or("the reduction kind does not parse")?;
                let scalar = create(
                    yield_op,
                    "vector.reduction",
                    &[vector],
                    &[("kind", attr)],
                    result.ty(),
                )?;
                rewrite::set_operand(yield_op, k, scalar);
            }
        }
    }
    Ok(())
}

/// The op after `sym` in its block, before which its lanes are made.
fn sym_next<'a>(sym: Op<'a>) -> Option<Op<'a>> {
    let ops = sym.parent()?.region_ops(0);
    let at = ops.iter().position(|o| o.raw().ptr == sym.raw().ptr)?;
    ops.get(at + 1).copied()
}

/// Creates `name` with one result of type `ty` before `before`.
fn create<'a>(
    before: Op<'a>,
    name: &str,
    operands: &[Val<'a>],
    attributes: &[(&str, mlir_sys::MlirAttribute)],
    ty: MlirType,
) -> Result<Val<'a>, String> {
    rewrite::create_op_before(before, name, operands, attributes, &[ty], None)
        .map(|op| op.results()[0])
        .ok_or_else(|| format!("`{name}` could not be made"))
}

/// Sets the subset of the memlet on operand `k` of `op`.
fn set_subset(op: Op<'_>, k: usize, subset: &str) {
    if let Some(mut memlet) = memlet_at(op, k) {
        memlet.subset = subset.to_string();
        memlet.volume = None;
        set_memlet_at(op, k, &memlet);
    }
}
