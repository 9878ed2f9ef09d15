//! MLIR tasklet bodies as C++ statements.
//!
//! Every value of the body becomes a `const` local of its C++ type
//! (`const double v3 = v1 * v2;`), in the body's order: HLS schedules
//! expressions itself, so nothing is gained by nesting them, and each
//! line keeps MLIR's semantics exactly. `scf.if` and `scf.for` become
//! `if` and `for` statements whose results are locals assigned by their
//! `scf.yield`; `sdfg.yield` assigns the output connectors.
//!
//! ```text
//! ^bb0(%a: f64, %w: memref<3xf64>):       const double v0 = a * 2.0;
//!   %c = arith.constant 2.0 : f64         const double v1 = w[1];
//!   %0 = arith.mulf %a, %c : f64          const double v2 = v0 + v1;
//!   %1 = memref.load %w[%k1] ...          b = v2;
//!   %2 = arith.addf %0, %1 : f64
//!   sdfg.yield %2 : f64
//! ```

use crate::cexpr::{float_literal, mlir_type, unsigned_type, CEmitter};
use mlir_sys::*;
use sdfg_dialect::ir::{type_to_string, Op, Val};
use sdfg_dialect::Wcr;
use std::collections::HashMap;

/// Why a body cannot be emitted: the op and the reason.
pub struct Unsupported<'a> {
    /// The offending op.
    pub op: Op<'a>,
    /// What is wrong.
    pub message: String,
}

type Result<'a, T> = std::result::Result<T, Unsupported<'a>>;

fn key(v: &Val<'_>) -> usize {
    v.raw().ptr as usize
}

/// A connector that reads a window of a container (`memref<...>` in the
/// body): element `(k0, k1, ...)` is `name[base + k0 * c0 + k1 * c1 ...]`.
#[derive(Clone)]
pub struct Window {
    /// The C++ name of the container.
    pub name: String,
    /// The linear index of the window's first element.
    pub base: String,
    /// Per dimension of the connector, what one step adds to the index.
    pub coefficients: Vec<String>,
}

/// Where an output written by reference goes: the element itself, or a
/// window of a container, with the memlet's write-conflict resolution; a
/// stream is pushed to.
#[derive(Clone)]
pub struct Target {
    /// The element (a scalar connector), or the window of a container.
    pub place: Place,
    /// The write-conflict resolution.
    pub wcr: Wcr,
    /// The C++ element type of the container.
    pub ty: String,
    /// Whether the container is a stream.
    pub stream: bool,
}

/// An element or a window.
#[derive(Clone)]
pub enum Place {
    /// A C++ lvalue.
    Element(String),
    /// A window of a container.
    Window(Window),
}

/// Translates tasklet bodies.
pub struct Body<'a, 'n> {
    names: HashMap<usize, String>,
    arrays: HashMap<usize, Window>,
    targets: HashMap<usize, Target>,
    lines: Vec<String>,
    depth: usize,
    prefix: String,
    next: usize,
    symbols: &'n dyn Fn(&str) -> Option<String>,
    /// The symbols the body read.
    pub used: std::collections::BTreeSet<String>,
    _ops: std::marker::PhantomData<Op<'a>>,
}

impl<'a, 'n> Body<'a, 'n> {
    /// A translator whose temporaries start with `prefix` and whose
    /// `sdfg.sym` ops read symbols through `symbols`.
    pub fn new(prefix: &str, symbols: &'n dyn Fn(&str) -> Option<String>) -> Self {
        Body {
            names: HashMap::new(),
            arrays: HashMap::new(),
            targets: HashMap::new(),
            lines: Vec::new(),
            depth: 0,
            prefix: prefix.to_string(),
            next: 0,
            symbols,
            used: Default::default(),
            _ops: std::marker::PhantomData,
        }
    }

    /// Binds a block argument to a C++ scalar expression.
    pub fn bind(&mut self, value: Val<'a>, name: String) {
        self.names.insert(key(&value), name);
    }

    /// Binds a by-reference output's block argument to where it writes.
    pub fn bind_target(&mut self, value: Val<'a>, target: Target) {
        self.targets.insert(key(&value), target);
    }

    /// Binds a `memref` block argument to a window of a container.
    pub fn bind_window(&mut self, value: Val<'a>, array: Window) {
        self.arrays.insert(key(&value), array);
    }

    /// Translates `ops` (a tasklet's body); `sdfg.yield` assigns
    /// `outputs` in order. Returns the statements.
    pub fn translate(
        mut self,
        ops: Vec<Op<'a>>,
        outputs: &[String],
    ) -> Result<'a, (Vec<String>, std::collections::BTreeSet<String>)> {
        self.block(ops, outputs)?;
        Ok((self.lines, self.used))
    }

    fn line(&mut self, text: String) {
        self.lines
            .push(format!("{}{text}", "  ".repeat(self.depth)));
    }

    fn fresh(&mut self) -> String {
        let name = format!("{}{}", self.prefix, self.next);
        self.next += 1;
        name
    }

    fn value(&self, op: Op<'a>, v: &Val<'a>) -> Result<'a, String> {
        if let Some(name) = self.names.get(&key(v)) {
            return Ok(name.clone());
        }
        if let Some(c) = v.defining_op().filter(|d| d.is("arith.constant")) {
            return constant(c, v);
        }
        Err(Unsupported {
            op,
            message: "uses a value defined outside its body".into(),
        })
    }

    fn block(&mut self, ops: Vec<Op<'a>>, outputs: &[String]) -> Result<'a, ()> {
        for op in ops {
            match op.name() {
                "sdfg.yield" | "scf.yield" => {
                    for (name, v) in outputs.iter().zip(op.operands()) {
                        let text = self.value(op, &v)?;
                        self.line(format!("{name} = {text};"));
                    }
                }
                "arith.constant" => {}
                "memref.store" | "sdfg.push" => self.write(op)?,
                "scf.if" => self.if_op(op)?,
                "scf.for" => self.for_op(op)?,
                "sdfg.printf" => {
                    let args: Vec<String> = op
                        .operands()
                        .iter()
                        .map(|v| self.value(op, v))
                        .collect::<Result<_>>()?;
                    let format = op.str_attr("format").unwrap_or_default();
                    let mut call = format!("printf({format:?}");
                    for a in args {
                        call.push_str(&format!(", {a}"));
                    }
                    self.line(format!("{call});"));
                }
                _ => {
                    let results = op.results();
                    let [result] = results.as_slice() else {
                        return Err(Unsupported {
                            op,
                            message:
                                "has no single result, which HLS C++ tasklet code cannot express"
                                    .into(),
                        });
                    };
                    let ty = c_type_of(op, result)?;
                    let expr = self.expression(op)?;
                    let name = self.fresh();
                    self.line(format!("const {ty} {name} = {expr};"));
                    if result.uses().is_empty() {
                        self.line(format!("(void){name};"));
                    }
                    self.names.insert(key(result), name);
                }
            }
        }
        Ok(())
    }

    /// A store into (a push to) an output written by reference.
    fn write(&mut self, op: Op<'a>) -> Result<'a, ()> {
        let (value, target, indices) = sdfg_dialect::stored(op);
        let (value, target, indices) = (&value, &target, indices.as_slice());
        let unsupported = |message: &str| Unsupported {
            op,
            message: message.to_string(),
        };
        let target = self
            .targets
            .get(&key(target))
            .cloned()
            .ok_or_else(|| unsupported("writes something other than an output connector"))?;
        let value = self.value(op, value)?;
        let lvalue = match &target.place {
            Place::Element(lvalue) => lvalue.clone(),
            Place::Window(window) => {
                let mut linear = window.base.clone();
                for (index, coefficient) in indices.iter().zip(&window.coefficients) {
                    let index = self.value(op, index)?;
                    linear = format!("{linear} + {index} * {coefficient}");
                }
                format!("{}[{linear}]", window.name)
            }
        };
        let statement = if target.stream {
            if target.wcr != Wcr::None {
                return Err(unsupported(
                    "pushes to a stream with a write-conflict resolution",
                ));
            }
            format!("{lvalue}.write({value});")
        } else {
            store_statement(&lvalue, &value, &target.wcr, &target.ty)
                .map_err(|m| unsupported(&m))?
        };
        self.line(statement);
        Ok(())
    }

    fn if_op(&mut self, op: Op<'a>) -> Result<'a, ()> {
        let condition = self.value(op, &op.operands()[0])?;
        let mut names = Vec::new();
        for result in op.results() {
            let ty = c_type_of(op, &result)?;
            let name = self.fresh();
            self.line(format!("{ty} {name};"));
            self.names.insert(key(&result), name.clone());
            names.push(name);
        }
        self.line(format!("if ({condition}) {{"));
        self.depth += 1;
        self.block(op.region_ops(0), &names)?;
        self.depth -= 1;
        self.line("} else {".into());
        self.depth += 1;
        self.block(op.region_ops(1), &names)?;
        self.depth -= 1;
        self.line("}".into());
        for (result, name) in op.results().iter().zip(&names) {
            if result.uses().is_empty() {
                self.line(format!("(void){name};"));
            }
        }
        Ok(())
    }

    fn for_op(&mut self, op: Op<'a>) -> Result<'a, ()> {
        let operands = op.operands();
        let lower = self.value(op, &operands[0])?;
        let upper = self.value(op, &operands[1])?;
        let step = self.value(op, &operands[2])?;
        let mut carried = Vec::new();
        for (init, result) in operands[3..].iter().zip(op.results()) {
            let ty = c_type_of(op, &result)?;
            let name = self.fresh();
            let init = self.value(op, init)?;
            self.line(format!("{ty} {name} = {init};"));
            self.names.insert(key(&result), name.clone());
            carried.push(name);
        }
        let args = op.region_args(0);
        let variable = self.fresh();
        let ty = c_type_of(op, &args[0])?;
        self.names.insert(key(&args[0]), variable.clone());
        for (arg, name) in args[1..].iter().zip(&carried) {
            self.names.insert(key(arg), name.clone());
        }
        self.line(format!(
            "for ({ty} {variable} = {lower}; {variable} < {upper}; {variable} += {step}) {{"
        ));
        self.depth += 1;
        // The next values go through temporaries: each may read the
        // current values of the others.
        let next: Vec<String> = carried.iter().map(|c| format!("{c}_next")).collect();
        for (c, n) in carried.iter().zip(&next) {
            let ty = c_type_of(
                op,
                &op.results()[carried.iter().position(|x| x == c).unwrap_or(0)],
            )?;
            self.line(format!("{ty} {n};"));
        }
        self.block(op.region_ops(0), &next)?;
        for (c, n) in carried.iter().zip(&next) {
            self.line(format!("{c} = {n};"));
        }
        self.depth -= 1;
        self.line("}".into());
        Ok(())
    }

    /// The C++ expression of one op with one result.
    fn expression(&mut self, op: Op<'a>) -> Result<'a, String> {
        let name = op.name();
        let operands = op.operands();
        let unsupported = |message: &str| Unsupported {
            op,
            message: message.to_string(),
        };
        let args: Vec<String> = if name == "memref.load" || name == "sdfg.sym" {
            Vec::new()
        } else {
            operands
                .iter()
                .map(|v| self.value(op, v))
                .collect::<Result<_>>()?
        };
        let arg = |k: usize| args.get(k).cloned().unwrap_or_default();
        let result_ty = type_to_string(op.results()[0].ty());
        let operand_ty = operands
            .first()
            .map(|v| type_to_string(v.ty()))
            .unwrap_or_default();
        let c_result = mlir_type(&result_ty).map_err(|m| unsupported(&m))?;
        let unsigned = |k: usize| -> Result<'a, String> {
            let ty = type_to_string(operands[k].ty());
            let u =
                unsigned_type(&ty).ok_or_else(|| unsupported("reads a non-integer as unsigned"))?;
            Ok(format!("(({u}){})", arg(k)))
        };
        let binary = |s: &str| format!("{} {s} {}", arg(0), arg(1));
        let call = |f: &str| format!("{f}({})", args.join(", "));
        Ok(match name {
            "arith.addf" | "arith.addi" => binary("+"),
            "arith.subf" | "arith.subi" => binary("-"),
            "arith.mulf" | "arith.muli" => binary("*"),
            "arith.divf" | "arith.divsi" => binary("/"),
            "arith.remsi" => binary("%"),
            "arith.remf" => call("std::fmod"),
            "arith.divui" => format!("({c_result})({} / {})", unsigned(0)?, unsigned(1)?),
            "arith.remui" => format!("({c_result})({} % {})", unsigned(0)?, unsigned(1)?),
            "arith.floordivsi" => format!("({c_result})sdfg_floordiv({}, {})", arg(0), arg(1)),
            "arith.ceildivsi" => format!("({c_result})sdfg_ceildiv({}, {})", arg(0), arg(1)),
            "arith.andi" => binary("&"),
            "arith.ori" => binary("|"),
            "arith.xori" => binary("^"),
            "arith.shli" => binary("<<"),
            "arith.shrsi" => binary(">>"),
            "arith.shrui" => format!("({c_result})({} >> {})", unsigned(0)?, arg(1)),
            "arith.negf" => format!("-{}", arg(0)),
            "arith.maximumf" => call("sdfg_maximumf"),
            "arith.minimumf" => call("sdfg_minimumf"),
            "arith.maxnumf" => call("std::fmax"),
            "arith.minnumf" => call("std::fmin"),
            "arith.maxsi" => format!("{0} > {1} ? {0} : {1}", arg(0), arg(1)),
            "arith.minsi" => format!("{0} < {1} ? {0} : {1}", arg(0), arg(1)),
            "arith.maxui" => format!(
                "{} > {} ? {} : {}",
                unsigned(0)?,
                unsigned(1)?,
                arg(0),
                arg(1)
            ),
            "arith.minui" => format!(
                "{} < {} ? {} : {}",
                unsigned(0)?,
                unsigned(1)?,
                arg(0),
                arg(1)
            ),
            "arith.select" => format!("{} ? {} : {}", arg(0), arg(1), arg(2)),
            "arith.cmpf" | "arith.cmpi" => {
                let predicate = op
                    .attr("predicate")
                    // SAFETY: the predicate is an integer attribute.
                    .map(|a| unsafe { mlirIntegerAttrGetValueInt(a) })
                    .unwrap_or(-1);
                comparison(
                    name,
                    predicate,
                    &arg(0),
                    &arg(1),
                    unsigned_type(&operand_ty),
                )
                .ok_or_else(|| unsupported("has a predicate the HLS emitter does not know"))?
            }
            "arith.extsi" | "arith.trunci" | "arith.sitofp" | "arith.fptosi" | "arith.extf"
            | "arith.truncf" | "arith.index_cast" => format!("({c_result}){}", arg(0)),
            "arith.extui" | "arith.uitofp" | "arith.index_castui" => {
                format!("({c_result}){}", unsigned(0)?)
            }
            "arith.fptoui" => {
                let u = unsigned_type(&result_ty)
                    .ok_or_else(|| unsupported("converts to a non-integer"))?;
                format!("({c_result})({u}){}", arg(0))
            }
            "math.absf" => call("std::fabs"),
            "math.absi" => format!("{0} < 0 ? -{0} : {0}", arg(0)),
            "math.powf" => call("std::pow"),
            "math.fpowi" => format!("std::pow({}, ({c_result}){})", arg(0), arg(1)),
            "math.ipowi" => format!("({c_result})sdfg_ipow({}, {})", arg(0), arg(1)),
            "math.fma" => call("std::fma"),
            "memref.load" => {
                // An input's window, or what an output written by reference
                // holds (it is read back).
                let target = self.targets.get(&key(&operands[0])).cloned();
                if let Some(Target {
                    place: Place::Element(lvalue),
                    stream: false,
                    ..
                }) = target
                {
                    return Ok(lvalue);
                }
                let window = match target {
                    Some(Target {
                        place: Place::Window(window),
                        stream: false,
                        ..
                    }) => Some(window),
                    _ => self.arrays.get(&key(&operands[0])).cloned(),
                }
                .ok_or_else(|| unsupported("loads from something other than a connector"))?;
                let mut linear = window.base.clone();
                for (k, coefficient) in window.coefficients.iter().enumerate() {
                    let index = self.value(op, &operands[1 + k])?;
                    linear = if coefficient == "1" {
                        format!("{linear} + {index}")
                    } else {
                        format!("{linear} + {index} * {coefficient}")
                    };
                }
                format!("{}[{linear}]", window.name)
            }
            "sdfg.sym" => {
                let text = op.str_attr("expr").unwrap_or_default();
                let expr = sdfg_symbolic::parse(text).map_err(|e| {
                    unsupported(&format!("has an expression that does not parse: {e}"))
                })?;
                let mut emitter = CEmitter::new(self.symbols);
                let value = emitter.int(&expr).map_err(|m| unsupported(&m))?;
                self.used.extend(emitter.used);
                format!("({c_result})({value})")
            }
            _ => {
                let function = name.strip_prefix("math.").filter(|f| MATH.contains(f));
                match function {
                    Some(f) => call(&format!("std::{f}")),
                    None => return Err(unsupported("has no HLS C++ translation")),
                }
            }
        })
    }
}

/// The `math` functions that are `<cmath>` functions of the same name.
const MATH: &[&str] = &[
    "sqrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin",
    "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "erf", "erfc",
    "floor", "ceil", "round", "trunc", "cbrt", "copysign",
];

/// A comparison with `arith`'s predicate semantics: ordered float
/// predicates are C++'s comparisons (false on NaN), unordered ones their
/// negated opposites, unsigned integer predicates compare as `unsigned`.
fn comparison(
    name: &str,
    predicate: i64,
    a: &str,
    b: &str,
    unsigned: Option<String>,
) -> Option<String> {
    if name == "arith.cmpf" {
        return Some(match predicate {
            0 => "false".into(),
            1 => format!("{a} == {b}"),
            2 => format!("{a} > {b}"),
            3 => format!("{a} >= {b}"),
            4 => format!("{a} < {b}"),
            5 => format!("{a} <= {b}"),
            6 => format!("({a} < {b} || {a} > {b})"),
            7 => format!("({a} == {a} && {b} == {b})"),
            8 => format!("!({a} < {b} || {a} > {b})"),
            9 => format!("!({a} <= {b})"),
            10 => format!("!({a} < {b})"),
            11 => format!("!({a} >= {b})"),
            12 => format!("!({a} > {b})"),
            13 => format!("{a} != {b}"),
            14 => format!("({a} != {a} || {b} != {b})"),
            15 => "true".into(),
            _ => return None,
        });
    }
    let u = |x: &str| unsigned.as_ref().map(|t| format!("(({t}){x})"));
    Some(match predicate {
        0 => format!("{a} == {b}"),
        1 => format!("{a} != {b}"),
        2 => format!("{a} < {b}"),
        3 => format!("{a} <= {b}"),
        4 => format!("{a} > {b}"),
        5 => format!("{a} >= {b}"),
        6 => format!("{} < {}", u(a)?, u(b)?),
        7 => format!("{} <= {}", u(a)?, u(b)?),
        8 => format!("{} > {}", u(a)?, u(b)?),
        9 => format!("{} >= {}", u(a)?, u(b)?),
        _ => return None,
    })
}

fn c_type_of<'a>(op: Op<'a>, v: &Val<'a>) -> Result<'a, String> {
    mlir_type(&type_to_string(v.ty())).map_err(|message| Unsupported { op, message })
}

/// An `arith.constant` as a C++ literal.
fn constant<'a>(c: Op<'a>, v: &Val<'a>) -> Result<'a, String> {
    let ty = c_type_of(c, v)?;
    let unsupported = || Unsupported {
        op: c,
        message: "has a value the HLS emitter cannot write".into(),
    };
    let attr = c.attr("value").ok_or_else(unsupported)?;
    // SAFETY: the attribute kinds are checked before their values are read.
    unsafe {
        if mlirAttributeIsAFloat(attr) {
            return Ok(float_literal(mlirFloatAttrGetValueDouble(attr), &ty));
        }
        if mlirAttributeIsAInteger(attr) {
            let n = mlirIntegerAttrGetValueInt(attr);
            return Ok(match ty.as_str() {
                "bool" => (if n != 0 { "true" } else { "false" }).into(),
                "long long" | "int64_t" => format!("{n}LL"),
                _ if n < 0 => format!("(({ty}){n})"),
                _ => format!("(({ty}){n})"),
            });
        }
    }
    Err(unsupported())
}

/// `target = value;`, or the write-conflict resolution of it (`ty` is the
/// target's C++ type).
pub fn store_statement(
    target: &str,
    value: &str,
    wcr: &Wcr,
    ty: &str,
) -> std::result::Result<String, String> {
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
            "logical_xor" => format!("{target} = (bool){target} != (bool){value};"),
            "exchange" => format!("{target} = {value};"),
            "sub" => format!("{target} -= {value};"),
            "div" => format!("{target} /= {value};"),
            other => return Err(format!("write-conflict resolution '{other}' is not supported by the HLS emitter yet")),
        },
        Wcr::Custom(lambda) => match Wcr::from_lambda(lambda) {
            named @ Wcr::Named(_) => return store_statement(target, value, &named, ty),
            _ => {
                return Err(format!("custom write-conflict resolution `{lambda}` is not supported by the HLS emitter yet"),
                )
            }
        },
    })
}

/// How partial results of a write-conflict resolution of `ty` elements
/// start and combine, where they can: the resolution's identity, and the
/// resolution that merges a partial result into the target (a sum of
/// partial differences, a product of partial quotients).
pub fn partial_resolution(wcr: &Wcr, ty: &str) -> Option<(String, Wcr)> {
    let kind = match wcr {
        Wcr::Named(kind) => kind.name(),
        Wcr::Custom(lambda) => match Wcr::from_lambda(lambda) {
            Wcr::Named(kind) => kind.name(),
            _ => return None,
        },
        Wcr::None => return None,
    };
    let (identity, combine) = match kind {
        "sum" | "sub" => (format!("({ty})0"), "sum"),
        "product" | "div" => (format!("({ty})1"), "product"),
        "min" => (format!("std::numeric_limits<{ty}>::infinity()"), "min"),
        "max" => (format!("-std::numeric_limits<{ty}>::infinity()"), "max"),
        _ => return None,
    };
    Some((
        identity,
        Wcr::Named(sdfg_dialect::WcrKind::from_name(combine)?),
    ))
}
