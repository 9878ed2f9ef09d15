//! MLIR tasklet bodies printed as Python, for `--export-dace`.
//!
//! DaCe runs tasklets from Python text, so a body of `arith`, `math`,
//! `memref.load` and `sdfg.sym` operations is printed back as Python
//! statements over the connectors; `scf.if` and `scf.for` become `if` and
//! `for ... in range(...)` statements, and stores into (pushes to) `by_ref`
//! outputs become assignments to them. The print is the inverse of
//! [`sdfg_tasklet`]: translating it again gives the same
//! operations in the same order, which makes `--import-dace`,
//! `--export-dace`, `--import-dace` a fixed point.
//!
//! ```text
//! ^bb0(%a: f32, %w: memref<3xf32>):         b = ((a * 2) + w[1])
//!   %c2 = arith.constant 2.0 : f32
//!   %0 = arith.mulf %a, %c2 : f32
//!   %i = arith.constant 1 : index
//!   %1 = memref.load %w[%i] : memref<3xf32>
//!   %2 = arith.addf %0, %1 : f32
//!   sdfg.yield %2 : f32
//! ```
//!
//! Two rules keep the order and the types:
//!
//! - a value with one use is inlined into its user only when the values
//!   being inlined are exactly the most recent pending ones, in operand
//!   order (Python evaluates left to right); otherwise the pending values
//!   become temporaries (`__v0 = ...`) in their original order. Values
//!   with several uses are always temporaries;
//! - a constant is printed where it is used, as a bare literal when the
//!   translation would give that literal the constant's type in that
//!   place (an integer literal takes the other operand's type, a float
//!   literal is `f64`), and as `dace.<type>(literal)` otherwise.

use mlir_sys::*;
use sdfg_dialect::ir::{type_to_string, Op, Val};
use sdfg_tasklet::text::{python_string, strip};
use sdfg_tasklet::{float_function, literal_type, parse_lanes, unify, Ty};
use std::collections::{HashMap, HashSet};

/// Why a body cannot be printed as Python: the offending op and the reason.
pub struct Unprintable<'a> {
    /// The op to attach the diagnostic to.
    pub op: Op<'a>,
    /// What is wrong.
    pub message: String,
}

type Result<'a, T> = std::result::Result<T, Unprintable<'a>>;

fn key(value: &Val<'_>) -> usize {
    value.raw().ptr as usize
}

/// The type of `value`; for a vector (DaCe's `dace::vec`), its lane type:
/// Python code computes on vectors with the scalar operators.
fn ty_of(value: &Val<'_>) -> Option<Ty> {
    parse_lanes(&type_to_string(value.ty())).map(|(ty, _)| ty)
}

/// Whether `value` is a tasklet's input connector whose data has unsigned
/// elements (DaCe declares the connector `uintN`).
fn of_unsigned_data(value: &Val<'_>) -> bool {
    let Some((owner, k)) = value.block_arg() else {
        return false;
    };
    owner.is("sdfg.tasklet")
        && owner
            .operands()
            .get(k)
            .and_then(|data| sdfg_dialect::Container::from_type(data.ty()))
            // SAFETY: the element type is live; signedness is read only
            // from an integer type.
            .is_some_and(|c| unsafe {
                mlir_sys::mlirTypeIsAInteger(c.element.0)
                    && mlir_sys::mlirIntegerTypeIsUnsigned(c.element.0)
            })
}

struct Printer<'a> {
    /// Names of block arguments and temporaries.
    names: HashMap<usize, String>,
    /// Values waiting to be inlined into their single user, in order.
    pending: Vec<(usize, String)>,
    lines: Vec<String>,
    /// The indentation of the statements being printed (nested blocks of
    /// `if` and `for`).
    depth: usize,
    reserved: HashSet<String>,
    next: usize,
    _ops: std::marker::PhantomData<Op<'a>>,
}

/// Prints the body of `tasklet` (an `sdfg.tasklet` with an MLIR region) as
/// Python statements assigning its output connectors. Outputs marked
/// `by_ref` are assigned where the body stores into them (or pushes to
/// them), inside `if` statements and `for` loops as the body has them.
pub fn print_body<'a>(tasklet: Op<'a>) -> Result<'a, String> {
    let in_names = tasklet.str_array_attr("in_names");
    let out_names = tasklet.str_array_attr("out_names");
    let by_ref = tasklet.bool_array_attr("by_ref");
    let is_ref = |k: usize| by_ref.get(k).copied().unwrap_or(false);
    let mut printer = Printer {
        names: HashMap::new(),
        pending: Vec::new(),
        lines: Vec::new(),
        depth: 0,
        reserved: in_names
            .iter()
            .chain(&out_names)
            .map(|s| s.to_string())
            .collect(),
        next: 0,
        _ops: std::marker::PhantomData,
    };
    let ref_names = out_names.iter().enumerate().filter(|(k, _)| is_ref(*k));
    let arg_names = in_names.iter().chain(ref_names.map(|(_, n)| n));
    for (arg, name) in tasklet.region_args(0).iter().zip(arg_names) {
        printer.names.insert(key(arg), name.to_string());
    }
    let yielded: Vec<String> = out_names
        .iter()
        .enumerate()
        .filter(|(k, _)| !is_ref(*k))
        .map(|(_, n)| n.to_string())
        .collect();
    let collides = out_names.iter().any(|o| in_names.contains(o));
    let terminator = if collides {
        Assign::AfterPending
    } else {
        Assign::Directly
    };
    printer.block(tasklet.region_ops(0), &yielded, terminator)?;
    printer.flush();
    Ok(printer.lines.join("\n"))
}

impl<'a> Printer<'a> {
    /// Appends a statement at the current depth.
    fn emit_line(&mut self, line: String) {
        self.lines
            .push(format!("{}{line}", "    ".repeat(self.depth)));
    }

    /// Prints the ops of one block; its terminator (`sdfg.yield` or
    /// `scf.yield`) assigns `yielded` as `assign` says.
    fn block(&mut self, ops: Vec<Op<'a>>, yielded: &[String], assign: Assign) -> Result<'a, ()> {
        for op in ops {
            match op.name() {
                "sdfg.yield" | "scf.yield" => {
                    let operands = op.operands();
                    let exprs: Vec<(&Val<'a>, Option<Ty>)> =
                        operands.iter().map(|v| (v, ty_of(v))).collect();
                    let mut printed = self.operands(op, &exprs)?;
                    if assign != Assign::Directly {
                        self.flush();
                    }
                    if assign == Assign::ThroughTemporaries && printed.len() > 1 {
                        for expr in &mut printed {
                            let name = self.temporary();
                            self.emit_line(format!("{name} = {}", strip(expr)));
                            *expr = name;
                        }
                    }
                    for (name, expr) in yielded.iter().zip(printed) {
                        self.emit_line(format!("{name} = {}", strip(&expr)));
                    }
                }
                "arith.constant" => {}
                "memref.store" | "sdfg.push" => self.write(op)?,
                "sdfg.printf" => self.printf(op)?,
                "scf.if" => self.if_op(op)?,
                "scf.for" => self.for_op(op)?,
                _ => {
                    let expr = self.op(op)?;
                    let results = op.results();
                    let [result] = results.as_slice() else {
                        return Err(Unprintable {
                            op,
                            message:
                                "has several results, which Python tasklet code cannot express"
                                    .into(),
                        });
                    };
                    if result.uses().len() == 1 {
                        self.pending.push((key(result), expr));
                    } else {
                        self.flush();
                        let name = self.temporary();
                        self.emit_line(format!("{name} = {}", strip(&expr)));
                        self.names.insert(key(result), name);
                    }
                }
            }
        }
        Ok(())
    }

    /// A store into a `by_ref` output (`o = v`, `o[i] = v`) or a push to
    /// one (`s = v`).
    fn write(&mut self, op: Op<'a>) -> Result<'a, ()> {
        let (value, target, indices) = sdfg_dialect::stored(op);
        let (value, target, indices) = (&value, &target, indices.as_slice());
        let Some(name) = self.names.get(&key(target)).cloned() else {
            return Err(Unprintable {
                op,
                message: "writes something other than an output connector".into(),
            });
        };
        let mut exprs = vec![(value, ty_of(value))];
        exprs.extend(indices.iter().map(|v| (v, Some(Ty::Index))));
        let printed = self.operands(op, &exprs)?;
        self.flush();
        let target = if indices.is_empty() {
            name
        } else {
            format!("{name}[{}]", printed[1..].join(", "))
        };
        self.emit_line(format!("{target} = {}", strip(&printed[0])));
        Ok(())
    }

    /// `printf('format', args...)`: DaCe's spelling, which its code
    /// generator hands to C as it is.
    fn printf(&mut self, op: Op<'a>) -> Result<'a, ()> {
        let operands = op.operands();
        let exprs: Vec<_> = operands.iter().map(|v| (v, ty_of(v))).collect();
        let printed = self.operands(op, &exprs)?;
        self.flush();
        let mut call = format!(
            "printf({}",
            python_string(op.str_attr("format").unwrap_or_default())
        );
        for arg in &printed {
            call.push_str(", ");
            call.push_str(strip(arg));
        }
        call.push(')');
        self.emit_line(call);
        Ok(())
    }

    /// Prints a region's ops one level deeper (`pass` for none).
    fn nested(&mut self, ops: Vec<Op<'a>>, yielded: &[String], assign: Assign) -> Result<'a, ()> {
        self.depth += 1;
        let before = self.lines.len();
        self.block(ops, yielded, assign)?;
        self.flush();
        if self.lines.len() == before {
            self.emit_line("pass".into());
        }
        self.depth -= 1;
        Ok(())
    }

    /// `scf.if` as an `if` statement; its results are temporaries that
    /// both branches assign.
    fn if_op(&mut self, op: Op<'a>) -> Result<'a, ()> {
        let condition = op.operands();
        let printed = self.operands(op, &[(&condition[0], None)])?;
        self.flush();
        let mut names = Vec::new();
        for result in op.results() {
            if ty_of(&result).is_none() {
                return Err(Unprintable {
                    op,
                    message: "has a result type Python tasklet code cannot express".into(),
                });
            }
            let name = self.temporary();
            self.names.insert(key(&result), name.clone());
            names.push(name);
        }
        self.emit_line(format!("if {}:", strip(&printed[0])));
        self.nested(op.region_ops(0), &names, Assign::Directly)?;
        let orelse = op.region_ops(1);
        if orelse.iter().any(|o| !o.is("scf.yield")) || !names.is_empty() {
            self.emit_line("else:".into());
            self.nested(orelse, &names, Assign::Directly)?;
        }
        Ok(())
    }

    /// `scf.for` as `for x in range(...)`. A loop-carried value is a
    /// temporary assigned its initial value before the loop and its next
    /// value at the end of the body (through temporaries when there are
    /// several, so that each next value reads the previous ones).
    fn for_op(&mut self, op: Op<'a>) -> Result<'a, ()> {
        let operands = op.operands();
        let step = operands[2]
            .defining_op()
            .filter(|c| c.is("arith.constant"))
            .and_then(|c| c.attr("value"))
            // SAFETY: the attribute is an integer attribute of a constant.
            .map(|a| unsafe { mlirIntegerAttrGetValueInt(a) })
            .filter(|n| *n > 0)
            .ok_or_else(|| Unprintable {
                op,
                message: "has a step that is not a positive constant".into(),
            })?;
        let mut exprs = vec![
            (&operands[0], Some(Ty::Index)),
            (&operands[1], Some(Ty::Index)),
        ];
        exprs.extend(operands[3..].iter().map(|v| (v, ty_of(v))));
        if exprs[2..].iter().any(|(_, ty)| ty.is_none()) {
            return Err(Unprintable {
                op,
                message: "carries a value of a type Python tasklet code cannot express".into(),
            });
        }
        let printed = self.operands(op, &exprs)?;
        self.flush();
        let mut carried = Vec::new();
        for (init, result) in printed[2..].iter().zip(op.results()) {
            let name = self.temporary();
            self.emit_line(format!("{name} = {}", strip(init)));
            self.names.insert(key(&result), name.clone());
            carried.push(name);
        }
        let variable = self.temporary();
        let args = op.region_args(0);
        if let Some((induction, iter_args)) = args.split_first() {
            self.names.insert(key(induction), variable.clone());
            for (arg, name) in iter_args.iter().zip(&carried) {
                self.names.insert(key(arg), name.clone());
            }
        }
        self.emit_line(format!(
            "for {variable} in range({}, {}, {step}):",
            strip(&printed[0]),
            strip(&printed[1])
        ));
        self.nested(op.region_ops(0), &carried, Assign::ThroughTemporaries)
    }
}

/// How a block's terminator assigns the names it yields to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Assign {
    /// One after the other.
    Directly,
    /// After turning the other pending values into temporaries (a yielded
    /// name that is also an input would otherwise be read after it is
    /// assigned).
    AfterPending,
    /// Through temporaries when there are several: each next value of a
    /// loop may read the current values of the others.
    ThroughTemporaries,
}

/// A float as Python writes it. Infinity is the literal `1e309`, as DaCe's
/// own C++ unparser writes it: DaCe 1.0.2 turns `math.inf` into
/// `dace::math::inf`, which its runtime does not define.
fn python_float(value: f64) -> String {
    if value.is_nan() {
        "math.nan".into()
    } else if value.is_infinite() {
        if value > 0.0 {
            "1e309".into()
        } else {
            "(-1e309)".into()
        }
    } else {
        format!("{value:?}")
    }
}

/// The context type of each operand of a binary operation: where the other
/// operand is a constant too, an integer literal would be an `i64`.
fn pair_context(a: &Val<'_>, b: &Val<'_>) -> [Option<Ty>; 2] {
    let context = |other: &Val<'_>| {
        if is_constant(other) {
            Some(unify(None, None))
        } else {
            Some(unify(None, ty_of(other)))
        }
    };
    [context(b), context(a)]
}

/// `min` or `max` where `select(c, t, f)` is DaCe's `min(t, f)` (`t < f ?
/// t : f`) or `max(t, f)` (`t > f ? t : f`) on floats, the form the
/// translation gives them, with the comparison used only there.
fn min_or_max(c: &Val<'_>, t: &Val<'_>, f: &Val<'_>) -> Option<&'static str> {
    let compare = c.defining_op().filter(|d| d.is("arith.cmpf"))?;
    if c.uses().len() != 1 || compare.operands() != [*t, *f] {
        return None;
    }
    // SAFETY: cmpf's predicate is an integer attribute.
    match compare
        .attr("predicate")
        .map(|a| unsafe { mlirIntegerAttrGetValueInt(a) })
    {
        Some(4) => Some("min"),
        Some(2) => Some("max"),
        _ => None,
    }
}

fn is_constant(value: &Val<'_>) -> bool {
    value
        .defining_op()
        .is_some_and(|op| op.is("arith.constant"))
}

impl<'a> Printer<'a> {
    fn temporary(&mut self) -> String {
        loop {
            let name = format!("__v{}", self.next);
            self.next += 1;
            if !self.reserved.contains(&name) {
                return name;
            }
        }
    }

    /// Turns every pending value into a temporary, in order.
    fn flush(&mut self) {
        for (value, expr) in std::mem::take(&mut self.pending) {
            let name = self.temporary();
            self.emit_line(format!("{name} = {}", strip(&expr)));
            self.names.insert(value, name);
        }
    }

    /// The printed operands of `op`, each with the type a bare integer
    /// literal would get in its place (`None`: a literal must be typed).
    fn operands(
        &mut self,
        op: Op<'a>,
        operands: &[(&Val<'a>, Option<Ty>)],
    ) -> Result<'a, Vec<String>> {
        let inlined: Vec<usize> = operands
            .iter()
            .map(|(v, _)| key(v))
            .filter(|k| self.pending.iter().any(|(p, _)| p == k))
            .collect();
        let start = self.pending.len().saturating_sub(inlined.len());
        let in_order = self.pending[start..]
            .iter()
            .map(|(k, _)| *k)
            .eq(inlined.iter().copied());
        let mut taken: HashMap<usize, String> = HashMap::new();
        if in_order {
            taken.extend(self.pending.drain(start..));
        } else {
            self.flush();
        }
        let mut out = Vec::new();
        for (value, context) in operands {
            let k = key(value);
            if let Some(expr) = taken.remove(&k) {
                out.push(expr);
            } else if let Some(name) = self.names.get(&k) {
                out.push(name.clone());
            } else if let Some(constant) = value.defining_op().filter(|d| d.is("arith.constant")) {
                out.push(literal(constant, value, *context)?);
            } else {
                return Err(Unprintable {
                    op,
                    message: "uses a value defined outside its body".into(),
                });
            }
        }
        Ok(out)
    }

    /// The Python expression of one op.
    fn op(&mut self, op: Op<'a>) -> Result<'a, String> {
        let name = op.name();
        let operands = op.operands();
        let unsupported = |message: String| Unprintable { op, message };
        let result_ty = op.results().first().and_then(ty_of).ok_or_else(|| {
            unsupported("has a result type Python tasklet code cannot express".into())
        })?;
        let binary = |symbol: &str, printer: &mut Self| -> Result<'a, String> {
            let [a, b] = operands.as_slice() else {
                return Err(unsupported("expected two operands".into()));
            };
            let [ca, cb] = pair_context(a, b);
            let printed = printer.operands(op, &[(a, ca), (b, cb)])?;
            Ok(format!("({} {symbol} {})", printed[0], printed[1]))
        };
        let call =
            |function: &str, printer: &mut Self, context: Option<Ty>| -> Result<'a, String> {
                let args: Vec<(&Val<'a>, Option<Ty>)> = if operands.len() == 2 {
                    let [ca, cb] = pair_context(&operands[0], &operands[1]);
                    vec![(&operands[0], ca), (&operands[1], cb)]
                } else {
                    operands.iter().map(|v| (v, context)).collect()
                };
                let printed = printer.operands(op, &args)?;
                Ok(format!("{function}({})", printed.join(", ")))
            };
        let float = result_ty.is_float();
        match name {
            "arith.addf" | "arith.addi" | "complex.add" => binary("+", self),
            "arith.subf" | "arith.subi" | "complex.sub" => binary("-", self),
            "arith.mulf" | "arith.muli" | "complex.mul" => binary("*", self),
            "arith.divf" | "arith.divsi" | "arith.divui" | "complex.div" => binary("/", self),
            "arith.remsi" | "arith.remui" => binary("%", self),
            "arith.remf" => call("math.fmod", self, None),
            "arith.andi" if result_ty == Ty::Bool => binary("and", self),
            "arith.ori" if result_ty == Ty::Bool => binary("or", self),
            "arith.xori" if result_ty == Ty::Bool && is_true(&operands[1]) => {
                let printed = self.operands(op, &[(&operands[0], None)])?;
                Ok(format!("(not {})", printed[0]))
            }
            "arith.andi" => binary("&", self),
            "arith.ori" => binary("|", self),
            "arith.xori" => binary("^", self),
            "arith.shli" => binary("<<", self),
            "arith.shrsi" | "arith.shrui" => binary(">>", self),
            "arith.minimumf" | "arith.minsi" | "arith.minui" => call("min", self, None),
            "arith.maximumf" | "arith.maxsi" | "arith.maxui" => call("max", self, None),
            "arith.minnumf" => call("fmin", self, None),
            "arith.maxnumf" => call("fmax", self, None),
            "math.ipowi" => binary("**", self),
            "math.powf" | "math.fpowi" => {
                // A float base must stay a float where the exponent is a
                // float, an integer exponent must keep its width (a bare
                // literal exponent is an `i32` for `math.fpowi`), and a
                // bare integer exponent would turn `powf` into `fpowi`.
                let [base, exponent] = operands.as_slice() else {
                    return Err(unsupported("expected two operands".into()));
                };
                let (base_context, exponent_context) = if name == "math.powf" {
                    ((!is_constant(exponent)).then_some(result_ty), None)
                } else {
                    (None, Some(Ty::Int(32)))
                };
                let printed =
                    self.operands(op, &[(base, base_context), (exponent, exponent_context)])?;
                Ok(format!("({} ** {})", printed[0], printed[1]))
            }
            "math.absf" | "math.absi" => call("abs", self, Some(literal_type(None))),
            "math.atan2" => call("math.atan2", self, None),
            "math.copysign" => call("math.copysign", self, None),
            // A real constant as a complex number (the translation makes it
            // one again); other complex constants have no Python literal
            // here.
            "complex.constant" => {
                let attr = op.attr("value");
                // SAFETY: the kinds are checked before the values are read.
                let parts = attr
                    .filter(|a| unsafe { mlirAttributeIsAArray(*a) })
                    .map(|a| unsafe {
                        (0..mlirArrayAttrGetNumElements(a))
                            .map(|k| mlirArrayAttrGetElement(a, k))
                            .filter(|e| mlirAttributeIsAFloat(*e))
                            .map(|e| mlirFloatAttrGetValueDouble(e))
                            .collect::<Vec<f64>>()
                    });
                match parts.as_deref() {
                    Some([re, im]) if im.to_bits() == 0 && re.is_finite() => Ok(python_float(*re)),
                    _ => Err(unsupported(
                        "is a complex constant Python tasklet code cannot express".into(),
                    )),
                }
            }
            // A real number met by a complex one: the translation converts
            // it again.
            "complex.create" if operands.len() == 2 && is_positive_zero(&operands[1]) => {
                let printed = self.operands(op, &[(&operands[0], None)])?;
                Ok(printed[0].clone())
            }
            // A scalar operand of vector arithmetic: the translation splats
            // it again.
            "vector.broadcast" => {
                let printed = self.operands(op, &[(&operands[0], Some(result_ty))])?;
                Ok(printed[0].clone())
            }
            "arith.negf" => {
                let printed = self.operands(op, &[(&operands[0], None)])?;
                Ok(format!("(-{})", printed[0]))
            }
            "arith.cmpf" | "arith.cmpi" => {
                let predicate = op
                    .attr("predicate")
                    .map(|a| unsafe { mlirIntegerAttrGetValueInt(a) })
                    .unwrap_or(-1);
                let symbol = match (name, predicate) {
                    ("arith.cmpf", 1) | ("arith.cmpi", 0) => "==",
                    ("arith.cmpf", 13) | ("arith.cmpi", 1) => "!=",
                    // Unsigned predicates come from unsigned operands,
                    // which the translation compares unsigned again.
                    ("arith.cmpf", 4) | ("arith.cmpi", 2 | 6) => "<",
                    ("arith.cmpf", 5) | ("arith.cmpi", 3 | 7) => "<=",
                    ("arith.cmpf", 2) | ("arith.cmpi", 4 | 8) => ">",
                    ("arith.cmpf", 3) | ("arith.cmpi", 5 | 9) => ">=",
                    _ => {
                        return Err(unsupported(
                            "has a predicate Python comparisons cannot express".into(),
                        ))
                    }
                };
                binary(symbol, self)
            }
            "arith.select" => {
                let [c, t, f] = operands.as_slice() else {
                    return Err(unsupported("expected three operands".into()));
                };
                let [ct, cf] = pair_context(t, f);
                let printed = self.operands(op, &[(c, None), (t, ct), (f, cf)])?;
                if let Some(function) = min_or_max(c, t, f) {
                    return Ok(format!("{function}({}, {})", printed[1], printed[2]));
                }
                Ok(format!(
                    "({} if {} else {})",
                    printed[1], printed[0], printed[2]
                ))
            }
            // Unsigned conversions of a signless integer read it as
            // unsigned first (Python and C++ would sign-extend it), a
            // connector too unless its data is unsigned: DaCe declares a
            // connector with its data's type, `uintN` or signed `intN`.
            "arith.extui" | "arith.uitofp" | "arith.index_castui"
                if matches!(ty_of(&operands[0]), Some(Ty::Int(_)))
                    && !of_unsigned_data(&operands[0]) =>
            {
                let Some(Ty::Int(bits)) = ty_of(&operands[0]) else {
                    return Err(unsupported("converts a non-integer".into()));
                };
                let printed = self.operands(op, &[(&operands[0], None)])?;
                Ok(format!(
                    "dace.{}(dace.{}({}))",
                    result_ty.dace_name(),
                    Ty::UInt(bits).dace_name(),
                    printed[0]
                ))
            }
            "arith.extsi" | "arith.trunci" | "arith.extui" | "arith.sitofp" | "arith.uitofp"
            | "arith.fptosi" | "arith.extf" | "arith.truncf" => {
                let printed = self.operands(op, &[(&operands[0], None)])?;
                Ok(format!("dace.{}({})", result_ty.dace_name(), printed[0]))
            }
            "arith.fptoui" => {
                let printed = self.operands(op, &[(&operands[0], None)])?;
                let Ty::Int(bits) = result_ty else {
                    return Err(unsupported("converts to a non-integer".into()));
                };
                Ok(format!(
                    "dace.{}({})",
                    Ty::UInt(bits).dace_name(),
                    printed[0]
                ))
            }
            "arith.index_cast" | "arith.index_castui" => {
                let printed = self.operands(op, &[(&operands[0], None)])?;
                Ok(printed[0].clone())
            }
            "memref.load" => {
                let Some(array) = self.names.get(&key(&operands[0])).cloned() else {
                    return Err(unsupported(
                        "loads from something other than a connector".into(),
                    ));
                };
                let indices: Vec<(&Val<'a>, Option<Ty>)> =
                    operands[1..].iter().map(|v| (v, Some(Ty::Index))).collect();
                let printed = self.operands(op, &indices)?;
                if printed.is_empty() {
                    return Ok(array);
                }
                Ok(format!("{array}[{}]", printed.join(", ")))
            }
            "sdfg.sym" => {
                let expr = op.str_attr("expr").unwrap_or_default();
                let plain = expr.chars().all(|c| c.is_alphanumeric() || c == '_');
                let text = if plain {
                    expr.to_string()
                } else {
                    format!("({expr})")
                };
                if result_ty == Ty::Int(64) {
                    Ok(text)
                } else {
                    Ok(format!("dace.{}({text})", result_ty.dace_name()))
                }
            }
            "math.floor" if float => {
                let printed = self.operands(op, &[(&operands[0], None)])?;
                Ok(format!("math.floor({})", printed[0]))
            }
            _ => {
                let function = name
                    .strip_prefix("math.")
                    .filter(|f| float_function(f) == Some(*f));
                match function {
                    Some(function) => call(&format!("math.{function}"), self, None),
                    None => Err(unsupported(
                        "cannot be printed as Python tasklet code".into(),
                    )),
                }
            }
        }
    }
}

fn is_positive_zero(value: &Val<'_>) -> bool {
    value.defining_op().is_some_and(|c| {
        c.is("arith.constant")
            && c.attr("value").is_some_and(|a| unsafe {
                mlirAttributeIsAFloat(a) && mlirFloatAttrGetValueDouble(a).to_bits() == 0
            })
    })
}

fn is_true(value: &Val<'_>) -> bool {
    value.defining_op().is_some_and(|c| {
        c.is("arith.constant")
            && c.attr("value")
                .is_some_and(|a| unsafe { mlirIntegerAttrGetValueInt(a) } != 0)
    })
}

/// A constant printed in a place where a bare integer literal would have
/// type `context`.
fn literal<'a>(constant: Op<'a>, value: &Val<'a>, context: Option<Ty>) -> Result<'a, String> {
    let unsupported = |message: &str| Unprintable {
        op: constant,
        message: message.into(),
    };
    let ty = ty_of(value).ok_or_else(|| unsupported("has a type Python cannot express"))?;
    let attr = constant
        .attr("value")
        .ok_or_else(|| unsupported("has no value"))?;
    // SAFETY: the attribute kinds are checked before reading them.
    unsafe {
        if mlirAttributeIsAFloat(attr) {
            let x = mlirFloatAttrGetValueDouble(attr);
            if ty != Ty::Float(64)
                && context == Some(ty)
                && x.fract() == 0.0
                && x.abs() < 9.0e15
                && !(x == 0.0 && x.is_sign_negative())
            {
                return Ok(format!("{}", x as i64));
            }
            let text = python_float(x);
            return Ok(if ty == Ty::Float(64) {
                text
            } else {
                format!("dace.{}({text})", ty.dace_name())
            });
        }
        if mlirAttributeIsAInteger(attr) {
            let n = mlirIntegerAttrGetValueInt(attr);
            if ty == Ty::Bool {
                return Ok(if n != 0 { "True" } else { "False" }.into());
            }
            return Ok(if context == Some(ty) {
                n.to_string()
            } else {
                format!("dace.{}({n})", ty.dace_name())
            });
        }
    }
    Err(unsupported("has a value Python cannot express"))
}
