//! The function text a conversion builds: fresh SSA and block names,
//! indentation, and the emission of symbolic expressions as `arith` on
//! `index` (through [`sdfg_symbolic::Emitter`]).

use sdfg_symbolic::{CmpOp, Emitter, Expr, IntOp};
use std::collections::HashMap;
use std::fmt::Write;

/// The body of one function under construction, in MLIR's generic-free
/// custom syntax.
#[derive(Default)]
pub(crate) struct Body {
    text: String,
    next_value: usize,
    next_block: usize,
    indent: usize,
}

impl Body {
    /// A fresh SSA value name.
    pub(crate) fn fresh(&mut self) -> String {
        self.next_value += 1;
        format!("%v{}", self.next_value)
    }

    /// A fresh block label.
    pub(crate) fn label(&mut self) -> String {
        self.next_block += 1;
        format!("^bb{}", self.next_block)
    }

    /// Writes one line at the current indentation.
    pub(crate) fn line(&mut self, line: impl AsRef<str>) {
        for _ in 0..self.indent {
            self.text.push_str("  ");
        }
        self.text.push_str(line.as_ref());
        self.text.push('\n');
    }

    /// Writes `%fresh = rhs` and returns the fresh name.
    pub(crate) fn assign(&mut self, rhs: impl AsRef<str>) -> String {
        let v = self.fresh();
        self.line(format!("{v} = {}", rhs.as_ref()));
        v
    }

    /// Starts the block `label` (written one level out, as MLIR prints it).
    pub(crate) fn block(&mut self, label: &str) {
        let indent = self.indent.saturating_sub(1);
        for _ in 0..indent {
            self.text.push_str("  ");
        }
        let _ = writeln!(self.text, "{label}:");
    }

    /// Opens a region: `head {`.
    pub(crate) fn open(&mut self, head: impl AsRef<str>) {
        self.line(format!("{} {{", head.as_ref()));
        self.indent += 1;
    }

    /// Closes a region: `}` followed by `tail`.
    pub(crate) fn close(&mut self, tail: &str) {
        self.indent = self.indent.saturating_sub(1);
        self.line(format!("}}{tail}"));
    }

    /// Ends the open region and opens the next region of the same op:
    /// `} middle {` (`scf.while`'s `do`, `scf.if`'s `else`).
    pub(crate) fn middle(&mut self, middle: &str) {
        self.indent = self.indent.saturating_sub(1);
        self.line(format!("}} {middle} {{"));
        self.indent += 1;
    }

    /// An `index` constant.
    pub(crate) fn index(&mut self, value: i64) -> String {
        self.assign(format!("arith.constant {value} : index"))
    }

    /// Takes the text built so far.
    pub(crate) fn take(&mut self) -> String {
        std::mem::take(&mut self.text)
    }

    /// The current indentation level.
    pub(crate) fn set_indent(&mut self, indent: usize) {
        self.indent = indent;
    }
}

/// What a subscript `A[i]` or a bare container name in a symbolic
/// expression (an inter-state condition reading data) becomes.
pub(crate) trait DataReader {
    /// Emits a read of `name` at `indices` (`index` values) converted to
    /// `ty` (`index` or `f64`), or says why it cannot be read.
    fn read(
        &self,
        body: &mut Body,
        symbols: &HashMap<String, String>,
        name: &str,
        indices: &[String],
        ty: &str,
    ) -> Result<String, String>;
    /// Whether `name` is a container of floating-point data.
    fn is_float(&self, name: &str) -> bool;
    /// Whether `name` is a container (read with no subscript when it is a
    /// scalar).
    fn is_container(&self, name: &str) -> bool;
    /// Whether `name` is a floating-point symbol, which an integer
    /// expression cannot read.
    fn is_float_symbol(&self, name: &str) -> bool;
}

/// Emits symbolic expressions as `arith` on `index` (`i1` for booleans)
/// with SymPy's integer semantics. Expressions that read floating-point
/// data are not integer expressions: the conversion translates those as
/// Python code instead.
pub(crate) struct IndexEmitter<'b, 'e> {
    /// Where the ops go.
    pub body: &'b mut Body,
    /// The `index` value of every symbol in scope.
    pub symbols: &'e HashMap<String, String>,
    /// Reads data named in expressions.
    pub data: &'e dyn DataReader,
}

impl<'b, 'e> IndexEmitter<'b, 'e> {
    /// An emitter writing to `body`.
    pub(crate) fn new(
        body: &'b mut Body,
        symbols: &'e HashMap<String, String>,
        data: &'e dyn DataReader,
    ) -> Self {
        IndexEmitter {
            body,
            symbols,
            data,
        }
    }

    /// Emits `expr` as an `index`.
    pub(crate) fn int(&mut self, expr: &Expr) -> Result<String, String> {
        if let Some(v) = expr.as_int() {
            return Ok(self.body.index(v));
        }
        expr.emit_int(self)
    }

    /// Emits `expr` as an `i1`.
    pub(crate) fn boolean(&mut self, expr: &Expr) -> Result<String, String> {
        expr.emit_bool(self)
    }
}

impl Emitter for IndexEmitter<'_, '_> {
    type Value = String;

    fn int(&mut self, value: i64) -> String {
        self.body.index(value)
    }

    fn boolean(&mut self, value: bool) -> String {
        self.body.assign(format!("arith.constant {value}"))
    }

    fn symbol(&mut self, name: &str) -> Result<String, String> {
        if self.data.is_float_symbol(name) {
            return Err(format!(
                "`{name}` is a floating-point symbol, which an integer expression cannot read"
            ));
        }
        if let Some(v) = self.symbols.get(name) {
            return Ok(v.clone());
        }
        if self.data.is_container(name) {
            return self.data.read(self.body, self.symbols, name, &[], "index");
        }
        Err(format!("symbol `{name}` has no value here"))
    }

    fn binary(&mut self, op: IntOp, a: String, b: String) -> String {
        let name = match op {
            IntOp::Add => "addi",
            IntOp::Sub => "subi",
            IntOp::Mul => "muli",
            IntOp::DivTrunc => "divsi",
            IntOp::FloorDiv => "floordivsi",
            IntOp::Min => "minsi",
            IntOp::Max => "maxsi",
            IntOp::And => "andi",
            IntOp::Or => "ori",
            IntOp::Xor => "xori",
            IntOp::Shl => "shli",
            IntOp::Shr => "shrsi",
            IntOp::Pow => {
                // `math.ipowi` takes signless integers, not `index`.
                let [a, b] = [a, b].map(|v| {
                    self.body
                        .assign(format!("arith.index_cast {v} : index to i64"))
                });
                let p = self.body.assign(format!("math.ipowi {a}, {b} : i64"));
                return self
                    .body
                    .assign(format!("arith.index_cast {p} : i64 to index"));
            }
            IntOp::FloorMod => {
                // a - b * floor(a / b)
                let q = self
                    .body
                    .assign(format!("arith.floordivsi {a}, {b} : index"));
                let p = self.body.assign(format!("arith.muli {b}, {q} : index"));
                return self.body.assign(format!("arith.subi {a}, {p} : index"));
            }
        };
        self.body.assign(format!("arith.{name} {a}, {b} : index"))
    }

    fn compare(&mut self, op: CmpOp, a: String, b: String) -> String {
        let pred = match op {
            CmpOp::Le => "sle",
            CmpOp::Lt => "slt",
            CmpOp::Eq => "eq",
            CmpOp::Ne => "ne",
        };
        self.body
            .assign(format!("arith.cmpi {pred}, {a}, {b} : index"))
    }

    fn logic(&mut self, and: bool, a: String, b: String) -> String {
        let op = if and { "andi" } else { "ori" };
        self.body.assign(format!("arith.{op} {a}, {b} : i1"))
    }

    fn bool_to_int(&mut self, value: String) -> String {
        let wide = self.body.assign(format!("arith.extui {value} : i1 to i64"));
        self.body
            .assign(format!("arith.index_cast {wide} : i64 to index"))
    }

    fn call(&mut self, name: &str, args: Vec<String>) -> Result<String, String> {
        match (name, args.as_slice()) {
            ("int_floor", [a, b]) => Ok(self.binary(IntOp::FloorDiv, a.clone(), b.clone())),
            ("int_ceil", [a, b]) => Ok(self
                .body
                .assign(format!("arith.ceildivsi {a}, {b} : index"))),
            ("Min" | "min", [a, b]) => Ok(self.binary(IntOp::Min, a.clone(), b.clone())),
            ("Max" | "max", [a, b]) => Ok(self.binary(IntOp::Max, a.clone(), b.clone())),
            _ => Err(format!(
                "the function `{name}` with {} arguments has no integer code",
                args.len()
            )),
        }
    }

    fn subscript(&mut self, name: &str, args: Vec<String>) -> Result<String, String> {
        self.data
            .read(self.body, self.symbols, name, &args, "index")
    }
}
