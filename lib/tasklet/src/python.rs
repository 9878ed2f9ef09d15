//! Python tasklet code to an MLIR tasklet body.
//!
//! DaCe tasklets written in Python are statements over the tasklet's
//! connectors: input connectors are read (scalars by name, arrays by
//! subscript), output connectors are assigned, other names are locals or
//! symbols. DaCe compiles them by unparsing the Python as C++
//! (`dace/codegen/cppunparse.py`), so the semantics to reproduce are C++'s:
//! `/` on integers truncates, `%` is C++'s remainder, `//` is the floor of
//! that division, assignments convert implicitly to the connector's type,
//! and a float literal is a `double`.
//!
//! The code is parsed with a real Python parser (`rustpython-parser`) and
//! translated to a straight-line body of `arith`, `math`, `memref.load` and
//! `sdfg.sym` operations:
//!
//! ```text
//! b = a * 2 + math.sin(w[1])        ^bb0(%a: f64, %w: memref<3xf64>):
//!                                     %c2 = arith.constant 2.0 : f64
//!                                     %0 = arith.mulf %a, %c2 : f64
//!                                     %i = arith.constant 1 : index
//!                                     %1 = memref.load %w[%i] : memref<3xf64>
//!                                     %2 = math.sin %1 : f64
//!                                     %3 = arith.addf %0, %2 : f64
//!                                     sdfg.yield %3 : f64
//! ```
//!
//! Typing follows C++'s usual arithmetic conversions with one refinement
//! that keeps bodies in the connectors' precision: an integer literal takes
//! the type of the other operand (as `int` does against `float` in C++),
//! while a float literal is an `f64` (a C++ `double`). Conversions are
//! explicit ops (`arith.sitofp`, `arith.extf`, ...), so the body and its
//! Python print (`mlir_python`) translate back to the same operations.
//!
//! Statements may be nested: `if`/`elif`/`else` becomes `scf.if` (a name
//! that has a value after both branches is one of its results) and
//! `for x in range(...)` becomes `scf.for` (names the body reassigns are
//! carried through it). Outputs whose memlet is dynamic, covers several
//! elements or goes to a stream can be written by the body itself
//! ([`translate_tasklet`] marks them `by_ref`): an assignment is then a
//! `memref.store` through the memlet (or an `sdfg.push`), as DaCe's code
//! writes through such connectors, so a tasklet may write them
//! conditionally, element by element or several times.
//!
//! DaCe's vectors (`dace::vec<T, N>`) compute lane by lane (`vector`
//! types, scalars splat), and complex numbers with the `complex` dialect
//! (`+`, `-`, `*`, `/` between numbers of one type, a real number of the
//! part type converted, real constants made complex).
//!
//! Other code (calls of unknown functions such as `print`, statements
//! other than assignments, `if` and `for`, other operations on vectors and
//! complex numbers, conditional expressions that would have to speculate
//! loads or integer divisions) is not translated: the importer keeps it as
//! Python text, and [`translate_tasklet`] says why.

use rustpython_parser::ast::{self, bigint::BigInt};
use rustpython_parser::Parse;
use std::collections::HashMap;
use std::fmt::Write;

/// The scalar types a translated body computes in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// `i1`, Python's `bool`.
    Bool,
    /// A signless integer of the given width, signed in arithmetic.
    Int(u32),
    /// An unsigned integer of the given width (DaCe's `uintN`): a signless
    /// MLIR integer whose operations are the unsigned ones.
    UInt(u32),
    /// A float of the given width (16, 32 or 64).
    Float(u32),
    /// `index`, for subscripts.
    Index,
    /// A complex number whose parts are floats of the given width (32 or
    /// 64): DaCe's `complex64` and `complex128`.
    Complex(u32),
}

impl Ty {
    /// Parses an MLIR element type this translation supports.
    pub fn parse(text: &str) -> Option<Ty> {
        Some(match text {
            "i1" => Ty::Bool,
            "i8" => Ty::Int(8),
            "i16" => Ty::Int(16),
            "i32" => Ty::Int(32),
            "i64" => Ty::Int(64),
            "ui8" => Ty::UInt(8),
            "ui16" => Ty::UInt(16),
            "ui32" => Ty::UInt(32),
            "ui64" => Ty::UInt(64),
            "f16" => Ty::Float(16),
            "f32" => Ty::Float(32),
            "f64" => Ty::Float(64),
            "index" => Ty::Index,
            "complex<f32>" => Ty::Complex(32),
            "complex<f64>" => Ty::Complex(64),
            _ => return None,
        })
    }

    /// The MLIR spelling.
    pub fn mlir(self) -> String {
        match self {
            Ty::Bool => "i1".into(),
            Ty::Int(bits) | Ty::UInt(bits) => format!("i{bits}"),
            Ty::Float(bits) => format!("f{bits}"),
            Ty::Index => "index".into(),
            Ty::Complex(bits) => format!("complex<f{bits}>"),
        }
    }

    /// The DaCe type name (`dace.<name>(x)` converts to this type).
    pub fn dace_name(self) -> &'static str {
        match self {
            Ty::Bool => "bool",
            Ty::Int(8) => "int8",
            Ty::Int(16) => "int16",
            Ty::Int(32) => "int32",
            Ty::Int(_) | Ty::Index => "int64",
            Ty::UInt(8) => "uint8",
            Ty::UInt(16) => "uint16",
            Ty::UInt(32) => "uint32",
            Ty::UInt(_) => "uint64",
            Ty::Float(16) => "float16",
            Ty::Float(32) => "float32",
            Ty::Float(_) => "float64",
            Ty::Complex(32) => "complex64",
            Ty::Complex(_) => "complex128",
        }
    }

    /// The type a DaCe/NumPy/Python type name stands for in a cast.
    fn from_cast_name(name: &str) -> Option<Ty> {
        Some(match name {
            "bool" | "bool_" => Ty::Bool,
            "int8" => Ty::Int(8),
            "int16" => Ty::Int(16),
            "int32" => Ty::Int(32),
            "int64" | "int" => Ty::Int(64),
            "uint8" => Ty::UInt(8),
            "uint16" => Ty::UInt(16),
            "uint32" => Ty::UInt(32),
            "uint64" => Ty::UInt(64),
            "float16" => Ty::Float(16),
            "float32" => Ty::Float(32),
            "float64" | "float" | "double" => Ty::Float(64),
            "complex64" => Ty::Complex(32),
            "complex128" | "complex" => Ty::Complex(64),
            _ => return None,
        })
    }

    /// Whether this is a float type.
    pub fn is_float(self) -> bool {
        matches!(self, Ty::Float(_))
    }

    /// Whether this is an unsigned integer type.
    pub fn is_unsigned(self) -> bool {
        matches!(self, Ty::UInt(_))
    }
}

/// The type under which an integer literal meets a value of type `other`
/// in a binary operation (`None`: another literal).
pub fn literal_type(other: Option<Ty>) -> Ty {
    match other {
        None | Some(Ty::Bool) | Some(Ty::Index) => Ty::Int(64),
        Some(ty) => ty,
    }
}

/// The common type of two operands of an arithmetic operation or
/// comparison (`None`: an integer literal).
pub fn unify(a: Option<Ty>, b: Option<Ty>) -> Ty {
    match (a, b) {
        (None, other) | (other, None) => literal_type(other),
        (Some(Ty::Float(x)), Some(Ty::Float(y))) => Ty::Float(x.max(y)),
        (Some(Ty::Float(x)), _) | (_, Some(Ty::Float(x))) => Ty::Float(x),
        (Some(Ty::Int(x)), Some(Ty::Int(y))) => Ty::Int(x.max(y)),
        (Some(Ty::UInt(x)), Some(Ty::UInt(y))) => Ty::UInt(x.max(y)),
        // C++: the unsigned type wins unless the signed one is wider.
        (Some(Ty::UInt(u)), Some(Ty::Int(i))) | (Some(Ty::Int(i)), Some(Ty::UInt(u))) => {
            if i > u {
                Ty::Int(i)
            } else {
                Ty::UInt(u)
            }
        }
        (Some(Ty::Int(x)), _) | (_, Some(Ty::Int(x))) => Ty::Int(x),
        (Some(Ty::UInt(x)), _) | (_, Some(Ty::UInt(x))) => Ty::UInt(x),
        (Some(Ty::Bool), Some(Ty::Bool)) => Ty::Bool,
        _ => Ty::Int(64),
    }
}

/// The type of an input connector as the body sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputType {
    /// One element (the memlet moves a single element).
    Element(String),
    /// Several elements: a memref of the memlet's (squeezed) shape, `None`
    /// for a size that is not a constant.
    Array {
        /// The element type.
        element: String,
        /// The sizes.
        shape: Vec<Option<u64>>,
    },
    /// An array of any layout, read only: a rank-`rank` memref with
    /// dynamic strides and offset (a view of data that is not in C
    /// order, or does not start at its buffer's start).
    Strided {
        /// The element type.
        element: String,
        /// The number of dimensions.
        rank: usize,
    },
    /// Anything else (streams, containers): the code cannot be translated.
    Opaque,
}

impl InputType {
    /// The MLIR type of the block argument.
    pub fn mlir(&self) -> String {
        match self {
            InputType::Element(ty) => signless(ty),
            InputType::Array { element, shape } => {
                let mut text = String::from("memref<");
                for size in shape {
                    match size {
                        Some(n) => {
                            let _ = write!(text, "{n}x");
                        }
                        None => text.push_str("?x"),
                    }
                }
                format!("{text}{}>", signless(element))
            }
            InputType::Strided { element, rank } => format!(
                "memref<{}{}, strided<[{}], offset: ?>>",
                "?x".repeat(*rank),
                signless(element),
                vec!["?"; *rank].join(", ")
            ),
            InputType::Opaque => "none".into(),
        }
    }
}

/// The MLIR spelling of an element type in a body, and the type a
/// translated body yields for an output connector of type `ty`: unsigned
/// integers are signless there (their operations carry the unsignedness).
pub fn signless(ty: &str) -> String {
    match Ty::parse(ty) {
        Some(t @ Ty::UInt(_)) => t.mlir(),
        _ => ty.to_string(),
    }
}

/// How a `by_ref` output connector of a tasklet is written (see
/// `sdfg.tasklet`): through a memref of its memlet's subset, or by pushing
/// to a stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefType {
    /// A memref of the subset: `Element(T)` is `memref<T>`, `Array` a
    /// memref of the (squeezed) subset shape.
    Memref(InputType),
    /// A stream of the element type.
    Stream(String),
}

impl RefType {
    /// The MLIR type of the block argument.
    pub fn mlir(&self) -> String {
        match self {
            RefType::Memref(InputType::Element(ty)) => format!("memref<{}>", signless(ty)),
            RefType::Memref(other) => other.mlir(),
            RefType::Stream(ty) => format!("!sdfg.stream<{ty}>"),
        }
    }
}

/// A translated tasklet body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Translation {
    /// The body (its entry block, without the enclosing braces).
    pub body: String,
    /// Which outputs the body writes itself (`by_ref`).
    pub by_ref: Vec<bool>,
}

/// What a tasklet's code can see.
pub struct Signature<'a> {
    /// Input connectors, in the order of the tasklet's `ins`.
    pub inputs: Vec<(String, InputType)>,
    /// Output connectors and their element types, in the order of `outs`.
    pub outputs: Vec<(String, String)>,
    /// For each output (or none, when empty), how it is written if the
    /// code cannot be a value it yields: `None` for an output that can
    /// only be yielded (a non-dynamic memlet to one element).
    pub refs: Vec<Option<RefType>>,
    /// The type of a symbol visible at the tasklet (`None` for a name
    /// that is not one): `i64` for integer symbols and map parameters,
    /// the declared float type for DaCe's floating-point symbols.
    pub symbol_type: &'a dyn Fn(&str) -> Option<Ty>,
}

/// A constant's value.
#[derive(Clone, Copy, Debug)]
enum Num {
    Int(i64),
    Float(f64),
}

impl Num {
    /// The value converted to `ty` as C++ converts: integers wrap to the
    /// width, floats truncate toward zero, and floats round to the width.
    fn cast(self, ty: Ty) -> Num {
        let int = |n: i64, bits: u32| {
            let shift = 64 - bits;
            (n << shift) >> shift
        };
        match (self, ty) {
            (Num::Int(n), Ty::Bool) => Num::Int(i64::from(n != 0)),
            (Num::Float(x), Ty::Bool) => Num::Int(i64::from(x != 0.0)),
            (Num::Int(n), Ty::Int(bits) | Ty::UInt(bits)) => Num::Int(int(n, bits)),
            (Num::Float(x), Ty::Int(bits)) => Num::Int(int(x.trunc() as i64, bits)),
            (Num::Float(x), Ty::UInt(bits)) => Num::Int(int(x.trunc() as u64 as i64, bits)),
            (Num::Int(n), Ty::Index) => Num::Int(n),
            (Num::Float(x), Ty::Index) => Num::Int(x.trunc() as i64),
            (Num::Int(n), Ty::Float(bits)) => Num::Float(n as f64).cast(Ty::Float(bits)),
            (Num::Float(x), Ty::Float(32)) => Num::Float(f64::from(x as f32)),
            (Num::Int(n), Ty::Complex(_)) => Num::Float(n as f64),
            (Num::Float(x), _) => Num::Float(x),
        }
    }
}

/// A value during translation: an SSA value with its type, or a constant
/// that is materialised where it is used (so that every constant sits
/// right before its user, wherever the literal was written), typed or an
/// integer literal whose type the context decides (`None`).
#[derive(Clone, Debug)]
enum V {
    Ssa(String, Ty),
    Const(Num, Option<Ty>),
}

impl V {
    fn ty(&self) -> Option<Ty> {
        match self {
            V::Ssa(_, ty) => Some(*ty),
            V::Const(_, ty) => *ty,
        }
    }

    fn literal(n: i64) -> V {
        V::Const(Num::Int(n), None)
    }
}

/// A name bound in the tasklet.
#[derive(Clone, Debug)]
enum Binding {
    Value(V),
    /// An array connector: the block argument, its element type, rank and
    /// memref type, and whether the code may store into it.
    Array {
        arg: String,
        element: Ty,
        rank: usize,
        memref: String,
        writable: bool,
    },
    /// A `by_ref` output of one element: reading it loads, assigning it
    /// stores.
    Cell {
        arg: String,
        element: Ty,
        memref: String,
    },
    /// A `by_ref` stream output: assigning it pushes.
    Stream {
        arg: String,
        element: Ty,
        stream: String,
    },
}

/// A translated block of statements: its lines, the bindings after it and
/// the names it assigned, in order.
type Region = (Vec<String>, HashMap<String, Binding>, Vec<String>);

struct Translator<'a> {
    signature: &'a Signature<'a>,
    lines: Vec<String>,
    names: HashMap<String, Binding>,
    /// Every name assigned a value, in order (the order in which an `if`
    /// statement's or a loop's values are merged).
    assigned: Vec<String>,
    next: usize,
    /// Set when an op that must not run speculatively was emitted (a load
    /// or an integer division), to refuse conditional expressions over it.
    unsafe_ops: bool,
    /// The lane count of every SSA value that is a vector (DaCe's
    /// `dace::vec<T, N>`); its `Ty` is the lane type.
    lanes: HashMap<String, u32>,
}

/// A type as the translation sees it: a scalar `Ty`, or with a lane count
/// a vector of such lanes (integers or floats; `vector<NxT>`).
pub fn parse_lanes(text: &str) -> Option<(Ty, Option<u32>)> {
    let Some(inner) = text
        .strip_prefix("vector<")
        .and_then(|r| r.strip_suffix('>'))
    else {
        return Ty::parse(text).map(|ty| (ty, None));
    };
    let (n, lane) = inner.split_once('x')?;
    let ty = Ty::parse(lane).filter(|t| matches!(t, Ty::Int(_) | Ty::UInt(_) | Ty::Float(_)))?;
    Some((ty, Some(n.parse().ok().filter(|n: &u32| *n > 1)?)))
}

/// The MLIR spelling of `ty`, or of a vector of `lanes` of it.
fn vector_mlir(ty: Ty, lanes: Option<u32>) -> String {
    match lanes {
        Some(n) => format!("vector<{n}x{}>", ty.mlir()),
        None => ty.mlir(),
    }
}

type Result<T> = std::result::Result<T, String>;

/// A float constant as MLIR reads it for type `ty`: decimal with a point,
/// or the bit pattern of the type's width for infinities and NaNs.
pub fn float_text(value: f64, ty: Ty) -> String {
    let value = if ty == Ty::Float(16) && value.abs() > 65504.0 {
        value * f64::INFINITY
    } else {
        value
    };
    if !value.is_finite() {
        return match ty {
            Ty::Float(16) if value.is_nan() => "0x7E00".into(),
            Ty::Float(16) => format!("0x{}", if value > 0.0 { "7C00" } else { "FC00" }),
            Ty::Float(32) => format!("0x{:08X}", (value as f32).to_bits()),
            _ => format!("0x{:016X}", value.to_bits()),
        };
    }
    let text = format!("{value:?}");
    match text.split_once('e') {
        Some((mantissa, exponent)) if !mantissa.contains('.') => {
            format!("{mantissa}.0e{exponent}")
        }
        _ => text,
    }
}

/// Parses Python tasklet code and translates it to the text of a tasklet
/// body (its entry block, without the enclosing braces), or says why it
/// cannot be translated.
pub fn translate(code: &str, signature: &Signature<'_>) -> Result<String> {
    translate_as(code, signature, false).map(|t| t.body)
}

/// Translates a tasklet's code: with every output yielded if the code
/// allows it, otherwise with the outputs that have a [`RefType`] written
/// by the body (`by_ref`), as DaCe's code writes through dynamic memlets,
/// array connectors and streams.
pub fn translate_tasklet(code: &str, signature: &Signature<'_>) -> Result<Translation> {
    let values = translate_as(code, signature, false);
    if values.is_ok() || signature.refs.iter().all(Option::is_none) {
        return values;
    }
    translate_as(code, signature, true)
}

/// The Python statements that C++ tasklet code made only of assignments
/// means (`b = k * a;`, `out = min(a, c);`, `x += 1;`). DaCe's C++
/// tasklets are often just that, and such expressions read the same in
/// both languages under the C++ semantics this translation follows. Says
/// why not for anything else: declarations, pointers, control flow, calls
/// such as `printf`, literal suffixes, the ternary and the logical
/// operators.
pub fn cpp_as_python(code: &str) -> Result<String> {
    let statements = cpp_statements(code)?;
    let Some((last, statements)) = statements.split_last() else {
        return Err("empty C++ code".into());
    };
    if !last.is_empty() || statements.is_empty() {
        return Err("C++ code that is not a sequence of statements ending in ';'".into());
    }
    let mut lines = Vec::new();
    for statement in statements {
        if let Some(call) = cpp_printf_as_python(statement)? {
            lines.push(call);
            continue;
        }
        let not_plain = || format!("the C++ statement `{statement}` is not a plain assignment");
        let bytes = statement.as_bytes();
        let at = (0..bytes.len())
            .find(|&k| {
                bytes[k] == b'='
                    && bytes.get(k + 1) != Some(&b'=')
                    && !(k > 0 && b"=<>!".contains(&bytes[k - 1]))
            })
            .ok_or_else(not_plain)?;
        let (mut target, value) = (statement[..at].trim_end(), statement[at + 1..].trim());
        let mut op = "";
        if let Some(t) = target.strip_suffix(['+', '-', '*', '/', '%']) {
            op = &target[t.len()..];
            target = t.trim_end();
        }
        let identifier = |t: &str| {
            t.chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        };
        if !identifier(target) {
            return Err(not_plain());
        }
        if value.is_empty() || !reads_as_python(value) {
            return Err(not_plain());
        }
        check_cpp_literals(value)?;
        lines.push(format!("{target} {op}= {value}"));
    }
    Ok(lines.join("\n"))
}

/// Splits C++ code at the `;` that end statements (not those inside string
/// or character literals); the last piece is what follows the last `;`.
fn cpp_statements(code: &str) -> Result<Vec<&str>> {
    let code = code.trim();
    let mut statements = Vec::new();
    let (mut start, mut quote, mut escaped) = (0, None, false);
    for (k, c) in code.char_indices() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == ';' => {
                statements.push(code[start..k].trim());
                start = k + 1;
            }
            None => {}
        }
    }
    if quote.is_some() {
        return Err("C++ code with an unterminated literal".into());
    }
    statements.push(code[start..].trim());
    Ok(statements)
}

/// Whether a C++ expression reads the same in Python: no logical or
/// ternary operators, scopes, pointers, literals of strings or characters,
/// braces, preprocessor lines or comments.
fn reads_as_python(value: &str) -> bool {
    let forbidden = [
        "&&", "||", "?", "::", "->", "\"", "'", "{", "}", "#", "//", "/*",
    ];
    let logical_not = value
        .char_indices()
        .any(|(k, c)| c == '!' && !value[k + 1..].starts_with('='));
    !logical_not && !forbidden.iter().any(|f| value.contains(f))
}

/// Numeric literals must mean the same in Python: no suffixes (`1.0f`,
/// `2u`), no hexadecimal or octal spellings.
fn check_cpp_literals(value: &str) -> Result<()> {
    for token in value.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.')) {
        let numeric = token.starts_with(|c: char| c.is_ascii_digit() || c == '.');
        let octal = token.len() > 1 && token.starts_with('0') && !token.starts_with("0.");
        if numeric && (octal || (token.parse::<i64>().is_err() && token.parse::<f64>().is_err())) {
            return Err(format!("the C++ literal `{token}` has no Python spelling"));
        }
    }
    Ok(())
}

/// `printf("format", args...)` as Python's `printf('format', args...)`
/// (DaCe's spelling in Python tasklets); `None` for another statement.
fn cpp_printf_as_python(statement: &str) -> Result<Option<String>> {
    let Some(rest) = statement.strip_prefix("printf") else {
        return Ok(None);
    };
    let Some(inner) = rest
        .trim_start()
        .strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
    else {
        return Ok(None);
    };
    let Some(literal) = inner.trim_start().strip_prefix('"') else {
        return Err(format!(
            "the C++ statement `{statement}` prints a format that is not a string literal"
        ));
    };
    let mut format = String::new();
    let mut chars = literal.char_indices();
    let end = loop {
        let Some((k, c)) = chars.next() else {
            return Err(format!(
                "the C++ statement `{statement}` has an unterminated string"
            ));
        };
        match c {
            '"' => break k + 1,
            '\\' => {
                let escaped = match chars.next().map(|(_, e)| e) {
                    Some('n') => '\n',
                    Some('t') => '\t',
                    Some('r') => '\r',
                    Some(e @ ('\\' | '"' | '\'' | '?')) => e,
                    other => {
                        return Err(format!(
                            "the C++ string in `{statement}` has the escape `\\{}`, which is not translated",
                            other.map(String::from).unwrap_or_default()
                        ))
                    }
                };
                format.push(escaped);
            }
            c => format.push(c),
        }
    };
    let args = literal[end..].trim();
    if !(args.is_empty() || args.starts_with(',')) || !reads_as_python(args) {
        return Err(format!(
            "the C++ statement `{statement}` is not a printf of numbers"
        ));
    }
    check_cpp_literals(args)?;
    Ok(Some(format!(
        "printf({}{})",
        crate::text::python_string(&format),
        args
    )))
}

fn translate_as(code: &str, signature: &Signature<'_>, by_ref: bool) -> Result<Translation> {
    let suite = ast::Suite::parse(code, "<tasklet>").map_err(|e| format!("{}", e.error))?;
    let mut translator = Translator {
        signature,
        lines: Vec::new(),
        names: HashMap::new(),
        assigned: Vec::new(),
        next: 0,
        unsafe_ops: false,
        lanes: HashMap::new(),
    };
    let mut args = translator.bind_inputs()?;
    let refs: Vec<Option<&RefType>> = (0..signature.outputs.len())
        .map(|k| {
            signature
                .refs
                .get(k)
                .and_then(Option::as_ref)
                .filter(|_| by_ref)
        })
        .collect();
    args.extend(translator.bind_refs(&refs)?);
    let mut outputs = Vec::new();
    for ((name, ty), _) in signature
        .outputs
        .iter()
        .zip(&refs)
        .filter(|(_, r)| r.is_none())
    {
        // An unsigned output is yielded signless (no op yields `uiN`): the
        // importer declares it so ([`signless`]), the bits are the same.
        match parse_lanes(ty) {
            None => return Err(format!("output \"{name}\" has the unsupported type {ty}")),
            Some(t) => outputs.push(t),
        }
    }
    for statement in &suite {
        translator.statement(statement)?;
    }
    let mut yielded = Vec::new();
    let value_outputs = signature
        .outputs
        .iter()
        .zip(&refs)
        .filter(|(_, r)| r.is_none());
    for (((name, _), _), ty) in value_outputs.zip(&outputs) {
        let Some(Binding::Value(value)) = translator.names.get(name).cloned() else {
            return Err(format!("output \"{name}\" is not assigned a value"));
        };
        if ty.1.is_some() && translator.lanes_of(&value).is_none() {
            // `dace::vec<T, N> b = scalar;` does not compile.
            return Err(format!(
                "output \"{name}\" is a vector but is assigned a scalar"
            ));
        }
        if let (Ty::Complex(_), None) = ty {
            // `std::complex<T> out = x;` converts any number.
            let value = translator.cast(&value, ty.0)?;
            yielded.push(translator.convert(&value, ty.0)?);
            continue;
        }
        yielded.push(translator.convert_lanes(&value, ty.0, ty.1)?);
    }
    let mut body = format!("^bb0({}):\n", args.join(", "));
    for line in &translator.lines {
        let _ = writeln!(body, "  {line}");
    }
    if yielded.is_empty() {
        body.push_str("  sdfg.yield\n");
    } else {
        let types: Vec<String> = outputs.iter().map(|(t, n)| vector_mlir(*t, *n)).collect();
        let _ = writeln!(
            body,
            "  sdfg.yield {} : {}",
            yielded.join(", "),
            types.join(", ")
        );
    }
    Ok(Translation {
        body,
        by_ref: refs.iter().map(Option::is_some).collect(),
    })
}

/// The type DaCe's type inference would give `name` after running `code`
/// (for an output connector that no container types), or `None` if the
/// code does not translate or does not assign it a value.
pub fn infer_type(code: &str, signature: &Signature<'_>, name: &str) -> Option<Ty> {
    let suite = ast::Suite::parse(code, "<tasklet>").ok()?;
    let mut translator = Translator {
        signature,
        lines: Vec::new(),
        names: HashMap::new(),
        assigned: Vec::new(),
        next: 0,
        unsafe_ops: false,
        lanes: HashMap::new(),
    };
    translator.bind_inputs().ok()?;
    for statement in &suite {
        translator.statement(statement).ok()?;
    }
    match translator.names.get(name)? {
        Binding::Value(value) => Some(value.ty().unwrap_or(Ty::Int(64))),
        _ => None,
    }
}

impl Translator<'_> {
    /// Binds the input connectors to the block arguments; returns the
    /// arguments as printed in the block header.
    fn bind_inputs(&mut self) -> Result<Vec<String>> {
        let mut args = Vec::new();
        for (k, (name, ty)) in self.signature.inputs.iter().enumerate() {
            let arg = format!("%arg{k}");
            args.push(format!("{arg}: {}", ty.mlir()));
            let unsupported = |t: &str| format!("input \"{name}\" has the unsupported type {t}");
            let binding = match ty {
                InputType::Element(element) => {
                    let (ty, lanes) = parse_lanes(element).ok_or_else(|| unsupported(element))?;
                    if let Some(n) = lanes {
                        self.lanes.insert(arg.clone(), n);
                    }
                    Binding::Value(V::Ssa(arg, ty))
                }
                InputType::Array { element, .. } | InputType::Strided { element, .. } => {
                    let rank = match ty {
                        InputType::Array { shape, .. } => shape.len(),
                        InputType::Strided { rank, .. } => *rank,
                        _ => 0,
                    };
                    let element = Ty::parse(element).ok_or_else(|| unsupported(element))?;
                    Binding::Array {
                        arg,
                        element,
                        rank,
                        memref: ty.mlir(),
                        writable: false,
                    }
                }
                InputType::Opaque => return Err(format!("input \"{name}\" is not a value")),
            };
            self.names.insert(name.clone(), binding);
        }
        Ok(args)
    }

    /// Binds the `by_ref` outputs (those with a type in `refs`) to block
    /// arguments after the inputs; returns the arguments.
    fn bind_refs(&mut self, refs: &[Option<&RefType>]) -> Result<Vec<String>> {
        let mut args = Vec::new();
        let first = self.signature.inputs.len();
        for ((name, _), ref_type) in self.signature.outputs.iter().zip(refs) {
            let Some(ref_type) = ref_type else { continue };
            let arg = format!("%arg{}", first + args.len());
            let mlir = ref_type.mlir();
            args.push(format!("{arg}: {mlir}"));
            let unsupported = |t: &str| format!("output \"{name}\" has the unsupported type {t}");
            let binding = match ref_type {
                RefType::Memref(InputType::Element(element)) => Binding::Cell {
                    arg,
                    element: Ty::parse(element).ok_or_else(|| unsupported(element))?,
                    memref: mlir,
                },
                RefType::Memref(InputType::Array { element, shape }) => Binding::Array {
                    arg,
                    element: Ty::parse(element).ok_or_else(|| unsupported(element))?,
                    rank: shape.len(),
                    memref: mlir,
                    writable: true,
                },
                RefType::Memref(InputType::Strided { element, rank }) => Binding::Array {
                    arg,
                    element: Ty::parse(element).ok_or_else(|| unsupported(element))?,
                    rank: *rank,
                    memref: mlir,
                    writable: true,
                },
                RefType::Memref(InputType::Opaque) => {
                    return Err(format!("output \"{name}\" is not a value"))
                }
                RefType::Stream(element) => Binding::Stream {
                    arg,
                    element: Ty::parse(element).ok_or_else(|| unsupported(element))?,
                    stream: mlir,
                },
            };
            self.names.insert(name.clone(), binding);
        }
        Ok(args)
    }

    /// Appends `op` as the definition of a fresh value; returns its name.
    fn emit_op(&mut self, op: String) -> String {
        let name = format!("%{}", self.next);
        self.next += 1;
        self.lines.push(format!("{name} = {op}"));
        name
    }

    fn emit(&mut self, ty: Ty, op: String) -> V {
        V::Ssa(self.emit_op(op), ty)
    }

    /// Materialises a constant as type `ty`, converting its value as C++
    /// would (integers wrap to the width, floats truncate toward zero).
    fn constant(&mut self, value: Num, ty: Ty) -> String {
        if let Ty::Complex(bits) = ty {
            // A real constant is a complex one with a zero imaginary part.
            let part = Ty::Float(bits);
            let re = match value {
                Num::Int(n) => n as f64,
                Num::Float(x) => x,
            };
            let re = if bits == 32 { f64::from(re as f32) } else { re };
            let (re, zero) = (float_text(re, part), float_text(0.0, part));
            let p = part.mlir();
            return self.emit_op(format!(
                "complex.constant [{re} : {p}, {zero} : {p}] : {}",
                ty.mlir()
            ));
        }
        let op = match (ty, value.cast(ty)) {
            (Ty::Bool, Num::Int(n)) => format!("arith.constant {}", n != 0),
            (_, Num::Float(x)) => format!("arith.constant {} : {}", float_text(x, ty), ty.mlir()),
            (_, Num::Int(n)) => format!("arith.constant {n} : {}", ty.mlir()),
        };
        self.emit_op(op)
    }

    /// Converts a value to `to` as a C++ implicit conversion would; returns
    /// the SSA name.
    fn convert(&mut self, value: &V, to: Ty) -> Result<String> {
        let complex = |t: Ty| matches!(t, Ty::Complex(_));
        let (name, from) = match value {
            V::Const(n, _) => return Ok(self.constant(*n, to)),
            V::Ssa(name, ty) => (name.clone(), *ty),
        };
        if let (Ty::Float(a), Ty::Complex(b)) = (from, to) {
            if a == b {
                // `std::complex<T>` meets a `T`: its imaginary part is 0.
                let zero = self.constant(Num::Float(0.0), from);
                return Ok(self.emit_op(format!("complex.create {name}, {zero} : {}", to.mlir())));
            }
        }
        if (complex(from) || complex(to)) && from != to {
            return Err(format!(
                "a {} is used as a {}, which is not translated",
                from.dace_name(),
                to.dace_name()
            ));
        }
        if self.lanes.contains_key(&name) {
            return Err("a vector is used where only a scalar can be translated".into());
        }
        let (f, t) = (from.mlir(), to.mlir());
        // Signed and unsigned integers of one width are the same bits.
        if from == to || (f == t && !from.is_float() && from != Ty::Bool) {
            return Ok(name);
        }
        let op = match (from, to) {
            (Ty::Int(a), Ty::Int(b) | Ty::UInt(b)) if a < b => {
                format!("arith.extsi {name} : {f} to {t}")
            }
            (Ty::UInt(a), Ty::Int(b) | Ty::UInt(b)) if a < b => {
                format!("arith.extui {name} : {f} to {t}")
            }
            (Ty::Int(_) | Ty::UInt(_), Ty::Int(_) | Ty::UInt(_)) => {
                format!("arith.trunci {name} : {f} to {t}")
            }
            (Ty::Bool, Ty::Int(_) | Ty::UInt(_)) => format!("arith.extui {name} : {f} to {t}"),
            (Ty::Bool | Ty::UInt(_), Ty::Float(_)) => format!("arith.uitofp {name} : {f} to {t}"),
            (Ty::Int(_), Ty::Float(_)) => format!("arith.sitofp {name} : {f} to {t}"),
            (Ty::Float(_), Ty::Int(_)) => format!("arith.fptosi {name} : {f} to {t}"),
            (Ty::Float(_), Ty::UInt(_)) => format!("arith.fptoui {name} : {f} to {t}"),
            (Ty::UInt(_), Ty::Index) => format!("arith.index_castui {name} : {f} to {t}"),
            (Ty::Float(a), Ty::Float(b)) if a < b => format!("arith.extf {name} : {f} to {t}"),
            (Ty::Float(_), Ty::Float(_)) => format!("arith.truncf {name} : {f} to {t}"),
            (Ty::Int(_), Ty::Index) => format!("arith.index_cast {name} : {f} to {t}"),
            (Ty::Int(_) | Ty::UInt(_), Ty::Bool) => {
                let zero = self.constant(Num::Int(0), from);
                format!("arith.cmpi ne, {name}, {zero} : {f}")
            }
            (Ty::Float(_), Ty::Bool) => {
                let zero = self.emit_op(format!("arith.constant 0.0 : {f}"));
                format!("arith.cmpf une, {name}, {zero} : {f}")
            }
            _ => return Err(format!("cannot convert {f} to {t}")),
        };
        Ok(self.emit_op(op))
    }

    /// The lane count of `value` if it is a vector.
    fn lanes_of(&self, value: &V) -> Option<u32> {
        match value {
            V::Ssa(name, _) => self.lanes.get(name).copied(),
            V::Const(..) => None,
        }
    }

    /// [`Self::convert`] to `to`, or with `lanes` to a vector of `to`: a
    /// scalar is converted to the lane type and splat (as the GCC vector
    /// extensions behind `dace::vec` convert a scalar operand); a vector
    /// must already be one of `lanes` lanes of `to`.
    fn convert_lanes(&mut self, value: &V, to: Ty, lanes: Option<u32>) -> Result<String> {
        let Some(n) = lanes else {
            return self.convert(value, to);
        };
        match (self.lanes_of(value), value) {
            (Some(m), V::Ssa(name, ty)) if m == n && *ty == to => Ok(name.clone()),
            (Some(m), V::Ssa(_, ty)) => Err(format!(
                "a vector of {m} {} is used as a vector of {n} {}",
                ty.mlir(),
                to.mlir()
            )),
            _ => {
                let scalar = self.convert(value, to)?;
                let name = self.emit_op(format!(
                    "vector.broadcast {scalar} : {} to {}",
                    to.mlir(),
                    vector_mlir(to, lanes)
                ));
                self.lanes.insert(name.clone(), n);
                Ok(name)
            }
        }
    }

    fn statement(&mut self, statement: &ast::Stmt) -> Result<()> {
        match statement {
            ast::Stmt::Assign(assign) => {
                // DaCe's unparser keeps one target of `v = o[5] = 1` when
                // another writes through a connector: refuse rather than
                // guess which.
                let writes_through = |t: &ast::Expr| match t {
                    ast::Expr::Name(n) => !matches!(
                        self.names.get(n.id.as_str()),
                        None | Some(Binding::Value(_))
                    ),
                    _ => true,
                };
                if assign.targets.len() > 1 && assign.targets.iter().any(writes_through) {
                    return Err(
                        "a chained assignment writes through an output connector, of which DaCe keeps only one target"
                            .into(),
                    );
                }
                let value = self.expr(&assign.value)?;
                for target in &assign.targets {
                    self.assign_to(target, value.clone())?;
                }
                Ok(())
            }
            ast::Stmt::AugAssign(assign) => {
                if !matches!(
                    assign.target.as_ref(),
                    ast::Expr::Name(_) | ast::Expr::Subscript(_)
                ) {
                    return Err(
                        "augmented assignment to something other than a name or a subscript".into(),
                    );
                }
                let current = self.expr(&assign.target)?;
                let rhs = self.expr(&assign.value)?;
                let value = self.binary(&assign.op, current, rhs)?;
                self.assign_to(&assign.target, value)
            }
            ast::Stmt::If(statement) => self.if_statement(statement),
            ast::Stmt::For(statement) => self.for_statement(statement),
            ast::Stmt::Pass(_) => Ok(()),
            ast::Stmt::Expr(e) if matches!(e.value.as_ref(), ast::Expr::Constant(c) if matches!(c.value, ast::Constant::Str(_))) => {
                Ok(())
            }
            ast::Stmt::Expr(e) => match e.value.as_ref() {
                ast::Expr::Call(call) if dotted(&call.func).as_deref() == Some("printf") => {
                    self.printf(call)
                }
                _ => Err(format!(
                    "the expression statement at offset {} (a call such as print) has only side effects, which a tasklet body cannot express",
                    u32::from(ast::Ranged::start(e))
                )),
            },
            other => Err(format!(
                "the statement at offset {} is not an assignment, if or for",
                u32::from(ast::Ranged::start(other))
            )),
        }
    }

    /// `printf(format, args...)`, which DaCe hands to C as it is: an
    /// `sdfg.printf` whose arguments are converted to what the format reads.
    fn printf(&mut self, call: &ast::ExprCall) -> Result<()> {
        if !call.keywords.is_empty() {
            return Err("printf with keyword arguments".into());
        }
        let Some(ast::Expr::Constant(ast::ExprConstant {
            value: ast::Constant::Str(format),
            ..
        })) = call.args.first()
        else {
            return Err("printf whose format is not a string literal".into());
        };
        let reads = crate::printf::conversions(format).map(|reads| reads.len())?;
        if reads != call.args.len() - 1 {
            return Err(format!(
                "printf format {format:?} reads {reads} arguments but {} are given",
                call.args.len() - 1
            ));
        }
        let mut values = Vec::new();
        let mut types = Vec::new();
        for arg in &call.args[1..] {
            let value = self.expr(arg)?;
            let ty = value.ty().unwrap_or(match value {
                V::Const(Num::Float(_), _) => Ty::Float(64),
                _ => Ty::Int(64),
            });
            values.push(self.convert(&value, ty)?);
            types.push(ty.mlir());
        }
        let operands = if values.is_empty() {
            String::new()
        } else {
            format!(" {} : {}", values.join(", "), types.join(", "))
        };
        self.lines.push(format!(
            "sdfg.printf {}{operands}",
            crate::text::lit(format)
        ));
        Ok(())
    }

    /// Assigns `value` to `target`: binds a name, or stores into a
    /// `by_ref` output (a push for a stream).
    fn assign_to(&mut self, target: &ast::Expr, value: V) -> Result<()> {
        match target {
            ast::Expr::Name(name) => {
                let id = name.id.as_str();
                match self.names.get(id).cloned() {
                    Some(Binding::Cell {
                        arg,
                        element,
                        memref,
                    }) => {
                        let v = self.convert(&value, element)?;
                        self.lines
                            .push(format!("memref.store {v}, {arg}[] : {memref}"));
                    }
                    Some(Binding::Stream {
                        arg,
                        element,
                        stream,
                    }) => {
                        let v = self.convert(&value, element)?;
                        self.lines.push(format!("sdfg.push {arg}, {v} : {stream}"));
                    }
                    Some(Binding::Array { .. }) => {
                        return Err(format!(
                            "array connector \"{id}\" is assigned without a subscript"
                        ))
                    }
                    Some(Binding::Value(_)) | None => {
                        self.names.insert(id.to_string(), Binding::Value(value));
                        self.assigned.push(id.to_string());
                    }
                }
                Ok(())
            }
            ast::Expr::Subscript(subscript) => {
                let (arg, element, memref, indices) = self.subscript(subscript, true)?;
                let v = self.convert(&value, element)?;
                self.lines
                    .push(format!("memref.store {v}, {arg}[{indices}] : {memref}"));
                Ok(())
            }
            _ => Err("assignment to something other than a name or a subscript".into()),
        }
    }

    /// Translates `statements` into lines of their own (a region's body),
    /// starting from the current bindings; returns the lines, the bindings
    /// after them and the names they assigned (in order).
    fn region(&mut self, statements: &[ast::Stmt]) -> Result<Region> {
        let outer_lines = std::mem::take(&mut self.lines);
        let outer_names = self.names.clone();
        let mark = self.assigned.len();
        let result = statements.iter().try_for_each(|s| self.statement(s));
        let lines = std::mem::replace(&mut self.lines, outer_lines);
        let names = std::mem::replace(&mut self.names, outer_names);
        let assigned = self.assigned.split_off(mark);
        result?;
        Ok((lines, names, assigned))
    }

    /// Appends `lines` (a region's body) one level deeper.
    fn nest(&mut self, lines: Vec<String>) {
        self.lines
            .extend(lines.into_iter().map(|l| format!("  {l}")));
    }

    /// Converts `values` to `types` at the end of `lines` (a region's
    /// body) and terminates it with `scf.yield`.
    fn yield_values(&mut self, lines: &mut Vec<String>, values: &[V], types: &[Ty]) -> Result<()> {
        let outer = std::mem::replace(&mut self.lines, std::mem::take(lines));
        let mut names = Vec::new();
        for (value, ty) in values.iter().zip(types) {
            names.push(self.convert(value, *ty)?);
        }
        if names.is_empty() {
            self.lines.push("scf.yield".into());
        } else {
            let types: Vec<String> = types.iter().map(|t| t.mlir()).collect();
            self.lines.push(format!(
                "scf.yield {} : {}",
                names.join(", "),
                types.join(", ")
            ));
        }
        *lines = std::mem::replace(&mut self.lines, outer);
        Ok(())
    }

    /// Binds `names` to the results `result` of an op with `count` results.
    fn bind_results(&mut self, result: &str, names: &[String], types: &[Ty]) {
        for (k, (name, ty)) in names.iter().zip(types).enumerate() {
            let value = if names.len() == 1 {
                result.to_string()
            } else {
                format!("{result}#{k}")
            };
            self.names
                .insert(name.clone(), Binding::Value(V::Ssa(value, *ty)));
            self.assigned.push(name.clone());
        }
    }

    /// `if`/`elif`/`else` as `scf.if`. A name assigned in either branch
    /// that has a value after both (assigned in both, or assigned in one
    /// and bound before) is a result of the `scf.if`, in the order of
    /// first assignment; stores and pushes stay in their branch.
    fn if_statement(&mut self, statement: &ast::StmtIf) -> Result<()> {
        let test = self.expr(&statement.test)?;
        let condition = self.convert(&test, Ty::Bool)?;
        let (mut then_lines, then_names, then_assigned) = self.region(&statement.body)?;
        let (mut else_lines, else_names, else_assigned) = self.region(&statement.orelse)?;
        let mut merged: Vec<String> = Vec::new();
        for name in then_assigned.iter().chain(&else_assigned) {
            if merged.contains(name) {
                continue;
            }
            let both = [&then_names, &else_names]
                .iter()
                .all(|names| matches!(names.get(name), Some(Binding::Value(_))));
            if both {
                merged.push(name.clone());
            }
        }
        let value = |names: &HashMap<String, Binding>, name: &String| match names.get(name) {
            Some(Binding::Value(v)) => v.clone(),
            _ => V::literal(0),
        };
        let then_values: Vec<V> = merged.iter().map(|n| value(&then_names, n)).collect();
        let else_values: Vec<V> = merged.iter().map(|n| value(&else_names, n)).collect();
        let types: Vec<Ty> = then_values
            .iter()
            .zip(&else_values)
            .map(|(a, b)| unify(a.ty(), b.ty()))
            .collect();
        self.yield_values(&mut then_lines, &then_values, &types)?;
        self.yield_values(&mut else_lines, &else_values, &types)?;
        let type_list: Vec<String> = types.iter().map(|t| t.mlir()).collect();
        let result = format!("%{}", self.next);
        let head = match merged.len() {
            0 => format!("scf.if {condition} {{"),
            1 => {
                self.next += 1;
                format!("{result} = scf.if {condition} -> ({}) {{", type_list[0])
            }
            n => {
                self.next += 1;
                format!(
                    "{result}:{n} = scf.if {condition} -> ({}) {{",
                    type_list.join(", ")
                )
            }
        };
        self.lines.push(head);
        self.nest(then_lines);
        if statement.orelse.is_empty() && merged.is_empty() {
            self.lines.push("}".into());
        } else {
            self.lines.push("} else {".into());
            self.nest(else_lines);
            self.lines.push("}".into());
        }
        self.bind_results(&result, &merged, &types);
        Ok(())
    }

    /// `for x in range(...)` as `scf.for`: the loop variable is an `i64`
    /// (as DaCe's C++ loop declares it), the names the body assigns that
    /// have a value before the loop are carried through it with that
    /// value's type.
    fn for_statement(&mut self, statement: &ast::StmtFor) -> Result<()> {
        let ast::Expr::Name(variable) = statement.target.as_ref() else {
            return Err("a for loop whose target is not a name".into());
        };
        let ast::Expr::Call(call) = statement.iter.as_ref() else {
            return Err("a for loop over something other than range(...)".into());
        };
        if dotted(&call.func).as_deref() != Some("range") || !call.keywords.is_empty() {
            return Err("a for loop over something other than range(...)".into());
        }
        if !statement.orelse.is_empty() {
            return Err("a for loop with an else clause".into());
        }
        let (start, stop, step) = match call.args.as_slice() {
            [stop] => (None, stop, None),
            [start, stop] => (Some(start), stop, None),
            [start, stop, step] => (Some(start), stop, Some(step)),
            _ => return Err("range(...) takes one to three arguments".into()),
        };
        let step = match step {
            None => 1,
            Some(step) => match self.expr(step)? {
                V::Const(Num::Int(n), _) if n > 0 => n,
                _ => return Err("a range step that is not a positive integer literal".into()),
            },
        };
        let start = match start {
            Some(start) => self.expr(start)?,
            None => V::literal(0),
        };
        let stop = self.expr(stop)?;
        for bound in [&start, &stop] {
            if bound.ty().is_some_and(Ty::is_float) {
                return Err("a float range bound".into());
            }
        }
        let lower = self.convert(&start, Ty::Index)?;
        let upper = self.convert(&stop, Ty::Index)?;
        let step = self.constant(Num::Int(step), Ty::Index);
        let mut carried: Vec<String> = Vec::new();
        assigned_names(&statement.body, &mut carried);
        carried.retain(|n| n != variable.id.as_str());
        let carried: Vec<(String, V)> = carried
            .into_iter()
            .filter_map(|n| match self.names.get(&n) {
                Some(Binding::Value(v)) => Some((n, v.clone())),
                _ => None,
            })
            .collect();
        let types: Vec<Ty> = carried.iter().map(|(_, v)| literal_type(v.ty())).collect();
        let mut inits = Vec::new();
        for ((_, value), ty) in carried.iter().zip(&types) {
            inits.push(self.convert(value, *ty)?);
        }
        let result = format!("%{}", self.next);
        if !carried.is_empty() {
            self.next += 1;
        }
        let induction = format!("%{}", self.next);
        self.next += 1;
        let outer = self.names.clone();
        let mut iter_args = Vec::new();
        for ((name, _), (init, ty)) in carried.iter().zip(inits.iter().zip(&types)) {
            let arg = format!("%{}", self.next);
            self.next += 1;
            iter_args.push(format!("{arg} = {init}"));
            self.names
                .insert(name.clone(), Binding::Value(V::Ssa(arg, *ty)));
        }
        let outer_lines = std::mem::take(&mut self.lines);
        let counter = self.emit(
            Ty::Int(64),
            format!("arith.index_cast {induction} : index to i64"),
        );
        let mut lines = std::mem::replace(&mut self.lines, outer_lines);
        self.names
            .insert(variable.id.to_string(), Binding::Value(counter));
        let (body, names, _) = self.region(&statement.body)?;
        lines.extend(body);
        self.names = outer;
        let values: Vec<V> = carried
            .iter()
            .map(|(n, v)| match names.get(n) {
                Some(Binding::Value(v)) => v.clone(),
                _ => v.clone(),
            })
            .collect();
        self.yield_values(&mut lines, &values, &types)?;
        let type_list: Vec<String> = types.iter().map(|t| t.mlir()).collect();
        let head = format!("scf.for {induction} = {lower} to {upper} step {step}");
        self.lines.push(match carried.len() {
            0 => format!("{head} {{"),
            n => format!(
                "{result}{} = {head} iter_args({}) -> ({}) {{",
                if n == 1 {
                    String::new()
                } else {
                    format!(":{n}")
                },
                iter_args.join(", "),
                type_list.join(", ")
            ),
        });
        self.nest(lines);
        self.lines.push("}".into());
        let names: Vec<String> = carried.into_iter().map(|(n, _)| n).collect();
        self.bind_results(&result, &names, &types);
        Ok(())
    }

    /// The block argument, element type, memref type and index list of a
    /// subscript of an array connector (`store`: one the code writes).
    fn subscript(
        &mut self,
        s: &ast::ExprSubscript,
        store: bool,
    ) -> Result<(String, Ty, String, String)> {
        let ast::Expr::Name(name) = s.value.as_ref() else {
            return Err("subscript of something other than a connector".into());
        };
        let Some(Binding::Array {
            arg,
            element,
            rank,
            memref,
            writable,
        }) = self.names.get(name.id.as_str()).cloned()
        else {
            return Err(format!("\"{}\" is not an array connector", name.id));
        };
        if store && !writable {
            return Err(format!("input \"{}\" is written", name.id));
        }
        let indices: Vec<&ast::Expr> = match s.slice.as_ref() {
            ast::Expr::Tuple(t) => t.elts.iter().collect(),
            other => vec![other],
        };
        if indices.len() != rank {
            return Err(format!(
                "\"{}\" has {rank} dimensions but is subscripted with {}",
                name.id,
                indices.len()
            ));
        }
        let mut names = Vec::new();
        for index in indices {
            let value = self.expr(index)?;
            if value.ty().is_some_and(Ty::is_float) {
                return Err("a float subscript".into());
            }
            names.push(self.convert(&value, Ty::Index)?);
        }
        Ok((arg, element, memref, names.join(", ")))
    }

    fn name(&mut self, id: &str) -> Result<V> {
        match self.names.get(id).cloned() {
            Some(Binding::Value(v)) => return Ok(v),
            Some(Binding::Array { .. }) => {
                return Err(format!(
                    "array connector \"{id}\" is used without a subscript"
                ))
            }
            Some(Binding::Cell {
                arg,
                element,
                memref,
            }) => {
                self.unsafe_ops = true;
                return Ok(self.emit(element, format!("memref.load {arg}[] : {memref}")));
            }
            Some(Binding::Stream { .. }) => {
                return Err(format!("stream output \"{id}\" is read"));
            }
            None => {}
        }
        match id {
            "True" | "False" => {
                return Ok(V::Const(Num::Int(i64::from(id == "True")), Some(Ty::Bool)));
            }
            _ => {}
        }
        if let Some(ty) = (self.signature.symbol_type)(id) {
            return Ok(self.emit(ty, format!("sdfg.sym \"{id}\" : {}", ty.mlir())));
        }
        Err(format!("unknown name \"{id}\""))
    }

    fn expr(&mut self, e: &ast::Expr) -> Result<V> {
        match e {
            ast::Expr::Constant(c) => match &c.value {
                ast::Constant::Int(n) => literal(n),
                ast::Constant::Float(x) => Ok(V::Const(Num::Float(*x), Some(Ty::Float(64)))),
                ast::Constant::Bool(b) => Ok(V::Const(Num::Int(i64::from(*b)), Some(Ty::Bool))),
                // Python's imaginary literal `2.5j` is a complex128.
                ast::Constant::Complex { real, imag } => {
                    let (re, im) = (
                        float_text(*real, Ty::Float(64)),
                        float_text(*imag, Ty::Float(64)),
                    );
                    let ty = Ty::Complex(64);
                    Ok(self.emit(
                        ty,
                        format!("complex.constant [{re} : f64, {im} : f64] : {}", ty.mlir()),
                    ))
                }
                _ => Err("unsupported constant".into()),
            },
            ast::Expr::Name(name) => self.name(name.id.as_str()),
            ast::Expr::BinOp(b) => {
                if let Some(v) = self.special_power(b)? {
                    return Ok(v);
                }
                let lhs = self.expr(&b.left)?;
                let rhs = self.expr(&b.right)?;
                self.binary(&b.op, lhs, rhs)
            }
            ast::Expr::UnaryOp(u) => self.unary(u),
            ast::Expr::BoolOp(b) => {
                let op = match b.op {
                    ast::BoolOp::And => "andi",
                    ast::BoolOp::Or => "ori",
                };
                let mut values = b.values.iter();
                let first = values.next().ok_or("empty boolean operation")?;
                let first = self.expr(first)?;
                let mut acc = self.convert(&first, Ty::Bool)?;
                for value in values {
                    let value = self.expr(value)?;
                    let value = self.convert(&value, Ty::Bool)?;
                    acc = self.emit_op(format!("arith.{op} {acc}, {value} : i1"));
                }
                Ok(V::Ssa(acc, Ty::Bool))
            }
            ast::Expr::Compare(c) => {
                let mut lhs = self.expr(&c.left)?;
                let mut acc: Option<String> = None;
                for (op, right) in c.ops.iter().zip(&c.comparators) {
                    let rhs = self.expr(right)?;
                    let result = self.compare(op, &lhs, &rhs)?;
                    acc = Some(match acc {
                        None => result,
                        Some(prev) => self.emit_op(format!("arith.andi {prev}, {result} : i1")),
                    });
                    lhs = rhs;
                }
                Ok(V::Ssa(acc.ok_or("empty comparison")?, Ty::Bool))
            }
            ast::Expr::IfExp(i) => {
                let test = self.expr(&i.test)?;
                let test = self.convert(&test, Ty::Bool)?;
                let outer = std::mem::replace(&mut self.unsafe_ops, false);
                let body = self.expr(&i.body)?;
                let orelse = self.expr(&i.orelse)?;
                if self.unsafe_ops {
                    return Err(
                        "a conditional expression would evaluate a load or an integer division speculatively"
                            .into(),
                    );
                }
                self.unsafe_ops = outer;
                let ty = unify(body.ty(), orelse.ty());
                let (t, f) = (self.convert(&body, ty)?, self.convert(&orelse, ty)?);
                Ok(self.emit(ty, format!("arith.select {test}, {t}, {f} : {}", ty.mlir())))
            }
            ast::Expr::Call(call) => self.call(call),
            ast::Expr::Attribute(a) => {
                let path = dotted(e).ok_or("unsupported attribute")?;
                let value = match path.as_str() {
                    "math.pi" | "np.pi" | "numpy.pi" | "dace.pi" => std::f64::consts::PI,
                    "math.e" | "np.e" | "numpy.e" => std::f64::consts::E,
                    "math.inf" | "np.inf" | "numpy.inf" => f64::INFINITY,
                    "math.nan" | "np.nan" | "numpy.nan" => f64::NAN,
                    _ => return Err(format!("unsupported name \"{}\"", a.attr)),
                };
                Ok(V::Const(Num::Float(value), Some(Ty::Float(64))))
            }
            ast::Expr::Subscript(s) => {
                let (arg, element, memref, indices) = self.subscript(s, false)?;
                self.unsafe_ops = true;
                Ok(self.emit(element, format!("memref.load {arg}[{indices}] : {memref}")))
            }
            _ => Err("unsupported expression".into()),
        }
    }

    /// `x ** 0.5` is a square root, as DaCe's C++ unparser makes it.
    fn special_power(&mut self, b: &ast::ExprBinOp) -> Result<Option<V>> {
        if !matches!(b.op, ast::Operator::Pow) {
            return Ok(None);
        }
        match b.right.as_ref() {
            ast::Expr::Constant(c) if matches!(c.value, ast::Constant::Float(x) if x == 0.5) => {
                let base = self.expr(&b.left)?;
                let (name, ty) = self.as_float(&base)?;
                Ok(Some(
                    self.emit(ty, format!("math.sqrt {name} : {}", ty.mlir())),
                ))
            }
            _ => Ok(None),
        }
    }

    fn as_float(&mut self, value: &V) -> Result<(String, Ty)> {
        let ty = match value.ty() {
            Some(Ty::Float(bits)) => Ty::Float(bits),
            _ => Ty::Float(64),
        };
        Ok((self.convert(value, ty)?, ty))
    }

    fn unary(&mut self, u: &ast::ExprUnaryOp) -> Result<V> {
        if let ast::Expr::Constant(c) = u.operand.as_ref() {
            match (&u.op, &c.value) {
                (ast::UnaryOp::USub, ast::Constant::Int(n)) => {
                    let n = i64::try_from(-n).map_err(|_| "integer literal out of range")?;
                    return Ok(V::literal(n));
                }
                // `-1e309` stays a negation of infinity, as `-math.inf`
                // is (the export writes infinity as `1e309`).
                (ast::UnaryOp::USub, ast::Constant::Float(x)) if x.is_finite() => {
                    return Ok(V::Const(Num::Float(-x), Some(Ty::Float(64))))
                }
                _ => {}
            }
        }
        let value = self.expr(&u.operand)?;
        match u.op {
            ast::UnaryOp::UAdd => Ok(value),
            ast::UnaryOp::USub => match value.ty() {
                Some(ty @ Ty::Float(_)) => {
                    let lanes = self.lanes_of(&value);
                    let name = self.convert_lanes(&value, ty, lanes)?;
                    let negated =
                        self.emit_op(format!("arith.negf {name} : {}", vector_mlir(ty, lanes)));
                    if let Some(n) = lanes {
                        self.lanes.insert(negated.clone(), n);
                    }
                    Ok(V::Ssa(negated, ty))
                }
                _ => self.binary(&ast::Operator::Sub, V::literal(0), value),
            },
            ast::UnaryOp::Not => {
                let name = self.convert(&value, Ty::Bool)?;
                let one = self.constant(Num::Int(1), Ty::Bool);
                Ok(self.emit(Ty::Bool, format!("arith.xori {name}, {one} : i1")))
            }
            ast::UnaryOp::Invert => match value.ty() {
                Some(Ty::Float(_)) => Err("bitwise inversion of a float".into()),
                ty => {
                    let ty = literal_type(ty);
                    let name = self.convert(&value, ty)?;
                    let ones = self.constant(Num::Int(-1), ty);
                    Ok(self.emit(ty, format!("arith.xori {name}, {ones} : {}", ty.mlir())))
                }
            },
        }
    }

    fn binary(&mut self, op: &ast::Operator, lhs: V, rhs: V) -> Result<V> {
        use ast::Operator as O;
        if self.lanes_of(&lhs).is_some() || self.lanes_of(&rhs).is_some() {
            return self.vector_binary(op, lhs, rhs);
        }
        if let Some(ty) = complex_operand(&lhs, &rhs) {
            // `std::complex` arithmetic between numbers of one type.
            let name = match op {
                O::Add => "add",
                O::Sub => "sub",
                O::Mult => "mul",
                O::Div => "div",
                // `std::pow` on a complex base or exponent.
                O::Pow => "pow",
                _ => return Err("an operator on complex numbers that cannot be translated".into()),
            };
            let a = self.convert(&lhs, ty)?;
            let b = self.convert(&rhs, ty)?;
            return Ok(self.emit(ty, format!("complex.{name} {a}, {b} : {}", ty.mlir())));
        }
        let ty = unify(lhs.ty(), rhs.ty());
        if matches!(op, O::Pow) {
            return self.power(lhs, rhs);
        }
        let float = ty.is_float();
        if matches!(op, O::FloorDiv) && float {
            let a = self.convert(&lhs, ty)?;
            let b = self.convert(&rhs, ty)?;
            let t = ty.mlir();
            let q = self.emit_op(format!("arith.divf {a}, {b} : {t}"));
            let f = self.emit_op(format!("math.floor {q} : {t}"));
            return Ok(self.emit(Ty::Int(64), format!("arith.fptosi {f} : {t} to i64")));
        }
        let name = match (op, float) {
            (O::Add, true) => "addf",
            (O::Add, false) => "addi",
            (O::Sub, true) => "subf",
            (O::Sub, false) => "subi",
            (O::Mult, true) => "mulf",
            (O::Mult, false) => "muli",
            (O::Div, true) => "divf",
            (O::Div | O::FloorDiv, false) => "divsi",
            (O::Mod, true) => "remf",
            (O::Mod, false) => "remsi",
            (O::BitAnd, false) => "andi",
            (O::BitOr, false) => "ori",
            (O::BitXor, false) => "xori",
            (O::LShift, false) => "shli",
            (O::RShift, false) => "shrsi",
            _ => return Err("unsupported operator".into()),
        };
        // Bitwise operations keep booleans; arithmetic counts them as
        // integers.
        let ty = if ty == Ty::Bool && !matches!(op, O::BitAnd | O::BitOr | O::BitXor) {
            Ty::Int(64)
        } else {
            ty
        };
        if matches!(name, "divsi" | "remsi") {
            self.unsafe_ops = true;
        }
        let name = unsigned_op(name, ty);
        let a = self.convert(&lhs, ty)?;
        let b = self.convert(&rhs, ty)?;
        Ok(self.emit(ty, format!("arith.{name} {a}, {b} : {}", ty.mlir())))
    }

    /// Arithmetic with a vector operand, lane by lane: the vector's lane
    /// type wins and a scalar operand is converted to it and splat, as in
    /// the GCC vector extensions behind `dace::vec`.
    fn vector_binary(&mut self, op: &ast::Operator, lhs: V, rhs: V) -> Result<V> {
        use ast::Operator as O;
        let (vector, other) = if self.lanes_of(&lhs).is_some() {
            (&lhs, &rhs)
        } else {
            (&rhs, &lhs)
        };
        let lanes = self.lanes_of(vector);
        let ty = vector.ty().unwrap_or(Ty::Float(64));
        if let (Some(m), Some(n)) = (self.lanes_of(other), lanes) {
            if m != n || other.ty() != Some(ty) {
                return Err("arithmetic on vectors of different types".into());
            }
        }
        let name = match (op, ty.is_float()) {
            (O::Add, true) => "addf",
            (O::Add, false) => "addi",
            (O::Sub, true) => "subf",
            (O::Sub, false) => "subi",
            (O::Mult, true) => "mulf",
            (O::Mult, false) => "muli",
            (O::Div, true) => "divf",
            (O::Div, false) => "divsi",
            (O::BitAnd, false) => "andi",
            (O::BitOr, false) => "ori",
            (O::BitXor, false) => "xori",
            _ => return Err("an operator on vectors that cannot be translated".into()),
        };
        if name == "divsi" {
            self.unsafe_ops = true;
        }
        let name = unsigned_op(name, ty);
        let a = self.convert_lanes(&lhs, ty, lanes)?;
        let b = self.convert_lanes(&rhs, ty, lanes)?;
        let result = self.emit_op(format!(
            "arith.{name} {a}, {b} : {}",
            vector_mlir(ty, lanes)
        ));
        if let Some(n) = lanes {
            self.lanes.insert(result.clone(), n);
        }
        Ok(V::Ssa(result, ty))
    }

    /// `a ** b`: integer powers of integers are `math.ipowi`, integer
    /// powers of floats `math.fpowi`, the rest `math.powf`.
    fn power(&mut self, base: V, exponent: V) -> Result<V> {
        if complex_operand(&base, &exponent).is_some() {
            return self.binary(&ast::Operator::Pow, base, exponent);
        }
        match (base.ty(), exponent.ty()) {
            (Some(Ty::Float(bits)), None | Some(Ty::Int(_))) => {
                let exponent_ty = exponent.ty().unwrap_or(Ty::Int(32));
                let ty = Ty::Float(bits);
                let b = self.convert(&base, ty)?;
                let e = self.convert(&exponent, exponent_ty)?;
                Ok(self.emit(
                    ty,
                    format!(
                        "math.fpowi {b}, {e} : {}, {}",
                        ty.mlir(),
                        exponent_ty.mlir()
                    ),
                ))
            }
            // DaCe's `dace::math::pow` has integer overloads for exactly
            // (int, int) and (unsigned, unsigned); a constant exponent is
            // `ipow`. Any other pair of integers goes to `std::pow`, which
            // computes in double.
            (bt @ (None | Some(Ty::Int(_))), et @ (None | Some(Ty::Int(_))))
                if matches!(exponent, V::Const(..))
                    || (bt.unwrap_or(Ty::Int(32)) == Ty::Int(32)
                        && et.unwrap_or(Ty::Int(32)) == Ty::Int(32)) =>
            {
                let ty = unify(base.ty(), exponent.ty());
                let b = self.convert(&base, ty)?;
                let e = self.convert(&exponent, ty)?;
                Ok(self.emit(ty, format!("math.ipowi {b}, {e} : {}", ty.mlir())))
            }
            (Some(Ty::UInt(32)), Some(Ty::UInt(32))) => {
                let b = self.convert(&base, Ty::UInt(32))?;
                let e = self.convert(&exponent, Ty::UInt(32))?;
                Ok(self.emit(Ty::UInt(32), format!("math.ipowi {b}, {e} : i32")))
            }
            _ => {
                let ty = match unify(base.ty(), exponent.ty()) {
                    Ty::Float(bits) => Ty::Float(bits),
                    _ => Ty::Float(64),
                };
                let b = self.convert(&base, ty)?;
                let e = self.convert(&exponent, ty)?;
                Ok(self.emit(ty, format!("math.powf {b}, {e} : {}", ty.mlir())))
            }
        }
    }

    fn compare(&mut self, op: &ast::CmpOp, lhs: &V, rhs: &V) -> Result<String> {
        use ast::CmpOp as C;
        if let Some(ty) = complex_operand(lhs, rhs) {
            // `std::complex` has == and != only.
            let name = match op {
                C::Eq => "eq",
                C::NotEq => "neq",
                _ => return Err("an ordering comparison of complex numbers".into()),
            };
            let a = self.convert(lhs, ty)?;
            let b = self.convert(rhs, ty)?;
            return Ok(self.emit_op(format!("complex.{name} {a}, {b} : {}", ty.mlir())));
        }
        let ty = unify(lhs.ty(), rhs.ty());
        let float = ty.is_float();
        let predicate = match (op, float) {
            (C::Eq, true) => "oeq",
            (C::NotEq, true) => "une",
            (C::Lt, true) => "olt",
            (C::LtE, true) => "ole",
            (C::Gt, true) => "ogt",
            (C::GtE, true) => "oge",
            (C::Eq, false) => "eq",
            (C::NotEq, false) => "ne",
            (C::Lt, false) => "slt",
            (C::LtE, false) => "sle",
            (C::Gt, false) => "sgt",
            (C::GtE, false) => "sge",
            _ => return Err("unsupported comparison".into()),
        };
        let predicate = unsigned_op(predicate, ty);
        let a = self.convert(lhs, ty)?;
        let b = self.convert(rhs, ty)?;
        let kind = if float { "cmpf" } else { "cmpi" };
        Ok(self.emit_op(format!(
            "arith.{kind} {predicate}, {a}, {b} : {}",
            ty.mlir()
        )))
    }

    fn call(&mut self, call: &ast::ExprCall) -> Result<V> {
        if !call.keywords.is_empty() {
            return Err("keyword arguments".into());
        }
        // `decltype(name)(value)`: C++'s conversion to the type of a
        // connector, which DaCe writes into Python code (`np.arange`).
        if let ast::Expr::Call(inner) = call.func.as_ref() {
            if let (Some("decltype"), [ast::Expr::Name(name)], [value]) = (
                dotted(&inner.func).as_deref(),
                inner.args.as_slice(),
                call.args.as_slice(),
            ) {
                let ty = self.type_of(name.id.as_str())?;
                let value = self.expr(value)?;
                return self.cast(&value, ty);
            }
        }
        let path = dotted(&call.func).ok_or("call of something other than a function name")?;
        let function = path
            .strip_prefix("math.")
            .or_else(|| path.strip_prefix("np."))
            .or_else(|| path.strip_prefix("numpy."))
            .or_else(|| path.strip_prefix("dace.math."))
            .or_else(|| path.strip_prefix("dace."))
            .unwrap_or(&path);
        let qualified = function != path;
        let mut args = Vec::new();
        for arg in &call.args {
            args.push(self.expr(arg)?);
        }
        let arity = |n: usize| -> Result<()> {
            if args.len() == n {
                Ok(())
            } else {
                Err(format!("{path} takes {n} arguments, got {}", args.len()))
            }
        };
        if let Some(ty) = Ty::from_cast_name(function) {
            if qualified || matches!(function, "float" | "int" | "bool") {
                arity(1)?;
                return self.cast(&args[0], ty);
            }
        }
        if let Some(op) = float_function(function) {
            arity(1)?;
            if let Some(ty @ Ty::Complex(_)) = args[0].ty() {
                // `std::exp`, `std::sqrt`, ... of a complex number.
                if !matches!(
                    op,
                    "exp"
                        | "log"
                        | "sqrt"
                        | "sin"
                        | "cos"
                        | "tan"
                        | "tanh"
                        | "expm1"
                        | "log1p"
                        | "rsqrt"
                ) {
                    return Err(format!("{path} of a complex number"));
                }
                let a = self.convert(&args[0], ty)?;
                return Ok(self.emit(ty, format!("complex.{op} {a} : {}", ty.mlir())));
            }
            let (name, ty) = self.as_float(&args[0])?;
            return Ok(self.emit(ty, format!("math.{op} {name} : {}", ty.mlir())));
        }
        match function {
            "atan2" | "copysign" | "fmod" | "pow" | "power" => {
                arity(2)?;
                if matches!(function, "pow" | "power") {
                    return self.power(args[0].clone(), args[1].clone());
                }
                let ty = match unify(args[0].ty(), args[1].ty()) {
                    Ty::Float(bits) => Ty::Float(bits),
                    _ => Ty::Float(64),
                };
                let a = self.convert(&args[0], ty)?;
                let b = self.convert(&args[1], ty)?;
                let op = match function {
                    "atan2" => "math.atan2",
                    "copysign" => "math.copysign",
                    _ => "arith.remf",
                };
                Ok(self.emit(ty, format!("{op} {a}, {b} : {}", ty.mlir())))
            }
            // SymPy's relationals, as DaCe writes comparisons it simplified.
            "Eq" | "Ne" | "Lt" | "Le" | "Gt" | "Ge" if !qualified => {
                arity(2)?;
                let op = match function {
                    "Eq" => ast::CmpOp::Eq,
                    "Ne" => ast::CmpOp::NotEq,
                    "Lt" => ast::CmpOp::Lt,
                    "Le" => ast::CmpOp::LtE,
                    "Gt" => ast::CmpOp::Gt,
                    _ => ast::CmpOp::GtE,
                };
                let result = self.compare(&op, &args[0], &args[1])?;
                Ok(V::Ssa(result, Ty::Bool))
            }
            "conj" | "conjugate" | "real" | "imag" => {
                arity(1)?;
                let Some(Ty::Complex(bits)) = args[0].ty() else {
                    // A real number is its own conjugate and real part.
                    return match function {
                        "imag" => Ok(V::Const(Num::Float(0.0), args[0].ty())),
                        _ => Ok(args[0].clone()),
                    };
                };
                let ty = Ty::Complex(bits);
                let a = self.convert(&args[0], ty)?;
                Ok(match function {
                    "real" => self.emit(Ty::Float(bits), format!("complex.re {a} : {}", ty.mlir())),
                    "imag" => self.emit(Ty::Float(bits), format!("complex.im {a} : {}", ty.mlir())),
                    _ => self.emit(ty, format!("complex.conj {a} : {}", ty.mlir())),
                })
            }
            "abs" | "fabs" | "absolute" => {
                arity(1)?;
                if let Some(Ty::Complex(bits)) = args[0].ty() {
                    // `std::abs` of a complex number is its magnitude.
                    let (a, ty) = (self.convert(&args[0], Ty::Complex(bits))?, Ty::Float(bits));
                    return Ok(self.emit(
                        ty,
                        format!("complex.abs {a} : {}", Ty::Complex(bits).mlir()),
                    ));
                }
                let ty = literal_type(args[0].ty());
                let ty = if function == "fabs" && !ty.is_float() {
                    Ty::Float(64)
                } else {
                    ty
                };
                if ty.is_unsigned() {
                    return Ok(args[0].clone());
                }
                let a = self.convert(&args[0], ty)?;
                let op = if ty.is_float() { "absf" } else { "absi" };
                Ok(self.emit(ty, format!("math.{op} {a} : {}", ty.mlir())))
            }
            "min" | "max" | "minimum" | "maximum" | "fmin" | "fmax" => {
                if args.len() < 2 {
                    return Err(format!("{path} needs at least two arguments"));
                }
                // DaCe's `min(a, ts...)` is `a < min(ts...) ? a : min(ts...)`
                // (`dace/math.h`), folded from the right: a NaN compares
                // false, so which operand comes back follows the order,
                // exactly as in DaCe's code. C's `fmin` and `fmax` return
                // the operand that is not a NaN.
                let is_min = matches!(function, "min" | "minimum" | "fmin");
                let ignores_nan = matches!(function, "fmin" | "fmax");
                let mut acc = args[args.len() - 1].clone();
                for arg in args[..args.len() - 1].iter().rev() {
                    let ty = unify(arg.ty(), acc.ty());
                    let a = self.convert(arg, ty)?;
                    let b = self.convert(&acc, ty)?;
                    let mlir = ty.mlir();
                    acc = if ty.is_float() && !ignores_nan {
                        let predicate = if is_min { "olt" } else { "ogt" };
                        let test =
                            self.emit_op(format!("arith.cmpf {predicate}, {a}, {b} : {mlir}"));
                        self.emit(ty, format!("arith.select {test}, {a}, {b} : {mlir}"))
                    } else {
                        let op = match (is_min, ty.is_float()) {
                            (true, true) => "minnumf",
                            (false, true) => "maxnumf",
                            (true, false) => "minsi",
                            (false, false) => "maxsi",
                        };
                        let op = unsigned_op(op, ty);
                        self.emit(ty, format!("arith.{op} {a}, {b} : {mlir}"))
                    };
                }
                Ok(acc)
            }
            _ => Err(format!("unsupported function \"{path}\"")),
        }
    }

    /// The scalar type of a connector or a value the code assigned.
    fn type_of(&self, name: &str) -> Result<Ty> {
        let ty = match self.names.get(name) {
            Some(Binding::Value(v)) => v.ty(),
            Some(Binding::Array { element, .. } | Binding::Cell { element, .. }) => Some(*element),
            Some(Binding::Stream { .. }) => None,
            None => self
                .signature
                .outputs
                .iter()
                .find(|(output, _)| output == name)
                .and_then(|(_, ty)| Ty::parse(ty)),
        };
        ty.ok_or_else(|| format!("decltype({name}) names no scalar connector"))
    }

    /// An explicit conversion; literals become constants of the type.
    fn cast(&mut self, value: &V, ty: Ty) -> Result<V> {
        if let (Ty::Complex(bits), V::Ssa(_, from)) = (ty, value) {
            if !matches!(from, Ty::Complex(_)) {
                // `std::complex<T>(x)`: x converted to T, imaginary part 0.
                let re = self.convert(value, Ty::Float(bits))?;
                let zero = self.constant(Num::Float(0.0), Ty::Float(bits));
                return Ok(self.emit(ty, format!("complex.create {re}, {zero} : {}", ty.mlir())));
            }
        }
        match value {
            V::Const(n, _) => Ok(V::Const(n.cast(ty), Some(ty))),
            V::Ssa(..) => Ok(V::Ssa(self.convert(value, ty)?, ty)),
        }
    }
}

/// The complex type of an operation's operands, if either is complex.
fn complex_operand(a: &V, b: &V) -> Option<Ty> {
    [a.ty(), b.ty()]
        .into_iter()
        .flatten()
        .find(|t| matches!(t, Ty::Complex(_)))
}

/// The unsigned form of a signed integer op or predicate for unsigned
/// operands (`divsi` is `divui`, `slt` is `ult`, ...).
fn unsigned_op(name: &'static str, ty: Ty) -> &'static str {
    if !ty.is_unsigned() {
        return name;
    }
    match name {
        "divsi" => "divui",
        "remsi" => "remui",
        "shrsi" => "shrui",
        "minsi" => "minui",
        "maxsi" => "maxui",
        "slt" => "ult",
        "sle" => "ule",
        "sgt" => "ugt",
        "sge" => "uge",
        other => other,
    }
}

/// The `math` dialect op of a one-argument float function.
pub fn float_function(name: &str) -> Option<&'static str> {
    Some(match name {
        "sin" => "sin",
        "cos" => "cos",
        "tan" => "tan",
        "asin" | "arcsin" => "asin",
        "acos" | "arccos" => "acos",
        "atan" | "arctan" => "atan",
        "sinh" => "sinh",
        "cosh" => "cosh",
        "tanh" => "tanh",
        "asinh" | "arcsinh" => "asinh",
        "acosh" | "arccosh" => "acosh",
        "atanh" | "arctanh" => "atanh",
        "exp" => "exp",
        "exp2" => "exp2",
        "expm1" => "expm1",
        "log" => "log",
        "log2" => "log2",
        "log10" => "log10",
        "log1p" => "log1p",
        "sqrt" => "sqrt",
        "cbrt" => "cbrt",
        "floor" => "floor",
        "ceil" => "ceil",
        "trunc" => "trunc",
        "erf" => "erf",
        _ => return None,
    })
}

fn literal(n: &BigInt) -> Result<V> {
    i64::try_from(n)
        .map(V::literal)
        .map_err(|_| "integer literal out of the 64-bit range".into())
}

/// The names `statements` assign (also in nested blocks), in order.
fn assigned_names(statements: &[ast::Stmt], out: &mut Vec<String>) {
    for statement in statements {
        let targets: Vec<&ast::Expr> = match statement {
            ast::Stmt::Assign(a) => a.targets.iter().collect(),
            ast::Stmt::AugAssign(a) => vec![a.target.as_ref()],
            ast::Stmt::If(i) => {
                assigned_names(&i.body, out);
                assigned_names(&i.orelse, out);
                Vec::new()
            }
            ast::Stmt::For(f) => {
                assigned_names(&f.body, out);
                Vec::new()
            }
            _ => Vec::new(),
        };
        for target in targets {
            if let ast::Expr::Name(n) = target {
                if !out.iter().any(|o| o == n.id.as_str()) {
                    out.push(n.id.to_string());
                }
            }
        }
    }
}

/// `a.b.c` for a chain of attribute accesses on a name.
fn dotted(e: &ast::Expr) -> Option<String> {
    match e {
        ast::Expr::Name(n) => Some(n.id.to_string()),
        ast::Expr::Attribute(a) => Some(format!("{}.{}", dotted(&a.value)?, a.attr)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signature<'a>(
        inputs: &[(&str, InputType)],
        outputs: &[(&str, &str)],
        symbol_type: &'a dyn Fn(&str) -> Option<Ty>,
    ) -> Signature<'a> {
        Signature {
            inputs: inputs
                .iter()
                .map(|(n, t)| (n.to_string(), t.clone()))
                .collect(),
            outputs: outputs
                .iter()
                .map(|(n, t)| (n.to_string(), t.to_string()))
                .collect(),
            refs: Vec::new(),
            symbol_type,
        }
    }

    fn element(ty: &str) -> InputType {
        InputType::Element(ty.into())
    }

    /// Asserts that `code` translates to a body holding every line of
    /// `expected`.
    fn translates_to(code: &str, sig: &Signature<'_>, expected: &[&str]) {
        let body = translate(code, sig).unwrap();
        for line in expected {
            assert!(body.contains(line), "{line} in {body}");
        }
    }

    /// Asserts that each code of `refused` is not translated, for a reason
    /// that contains the text paired with it.
    fn refuses(sig: &Signature<'_>, refused: &[(&str, &str)]) {
        for (code, why) in refused {
            let error = translate(code, sig).unwrap_err();
            assert!(error.contains(why), "{code}: {error}");
        }
    }

    #[test]
    fn integer_literals_take_the_other_operands_type() {
        let none = |_: &str| None;
        let sig = signature(&[("a", element("f32"))], &[("b", "f32")], &none);
        let body = translate("b = a * 2", &sig).unwrap();
        assert!(body.contains("arith.constant 2.0 : f32"), "{body}");
        assert!(body.contains("arith.mulf %arg0, %0 : f32"), "{body}");
    }

    #[test]
    fn vectors_compute_lane_by_lane_with_scalars_splat() {
        let none = |_: &str| None;
        let v2 = element("vector<2xf32>");
        let sig = signature(
            &[("a", v2.clone()), ("c", v2.clone()), ("s", element("f64"))],
            &[("b", "vector<2xf32>")],
            &none,
        );
        // The vector's lane type wins: the double literal and the double
        // scalar become f32 splats.
        translates_to(
            "b = -(a * 0.5 + c) - s",
            &sig,
            &[
                "%0 = arith.constant 0.5 : f32",
                "%1 = vector.broadcast %0 : f32 to vector<2xf32>",
                "%2 = arith.mulf %arg0, %1 : vector<2xf32>",
                "%3 = arith.addf %2, %arg1 : vector<2xf32>",
                "%4 = arith.negf %3 : vector<2xf32>",
                "%5 = arith.truncf %arg2 : f64 to f32",
                "%6 = vector.broadcast %5 : f32 to vector<2xf32>",
                "%7 = arith.subf %4, %6 : vector<2xf32>",
                "sdfg.yield %7 : vector<2xf32>",
            ],
        );
        // What C++ or the GCC vector extensions reject, or what has no
        // vector form here, is not translated.
        refuses(
            &sig,
            &[
                ("b = s", "is a vector but is assigned a scalar"),
                ("b = a ** 2", "operator on vectors"),
                (
                    "b = a if s > 0 else c",
                    "vector is used where only a scalar",
                ),
                ("b = math.sqrt(a)", "vector is used where only a scalar"),
                ("b = a % c", "operator on vectors"),
            ],
        );
        let mixed = signature(
            &[("a", v2), ("c", element("vector<4xf32>"))],
            &[("b", "vector<2xf32>")],
            &none,
        );
        refuses(&mixed, &[("b = a + c", "vectors of different types")]);
    }

    #[test]
    fn complex_numbers_compute_with_the_complex_dialect() {
        let none = |_: &str| None;
        let c = element("complex<f64>");
        let sig = signature(
            &[
                ("a", c.clone()),
                ("b", c),
                ("x", element("f64")),
                ("y", element("f32")),
            ],
            &[("o", "complex<f64>")],
            &none,
        );
        translates_to(
            "o = a * b - 2",
            &sig,
            &[
                "%0 = complex.mul %arg0, %arg1 : complex<f64>",
                "%1 = complex.constant [2.0 : f64, 0.0 : f64] : complex<f64>",
                "%2 = complex.sub %0, %1 : complex<f64>",
            ],
        );
        // `std::complex<double>` meets a double.
        translates_to(
            "o = a + x",
            &sig,
            &[
                "%0 = arith.constant 0.0 : f64",
                "%1 = complex.create %arg2, %0 : complex<f64>",
            ],
        );
        // Imaginary literals and DaCe's complex casts, as DaCe writes the
        // twiddle factors of an FFT.
        translates_to(
            "o = a * dace.complex128((- 6.5j))",
            &sig,
            &[
                "%0 = complex.constant [0.0 : f64, 6.5 : f64] : complex<f64>",
                "%1 = complex.constant [0.0 : f64, 0.0 : f64] : complex<f64>",
                "%2 = complex.sub %1, %0 : complex<f64>",
                "%3 = complex.mul %arg0, %2 : complex<f64>",
            ],
        );
        translates_to(
            "o = dace.complex128(2.0) * b",
            &sig,
            &["%0 = complex.constant [2.0 : f64, 0.0 : f64] : complex<f64>"],
        );
        translates_to(
            "o = exp(a) + np.sqrt(b)",
            &sig,
            &[
                "%0 = complex.exp %arg0 : complex<f64>",
                "%1 = complex.sqrt %arg1 : complex<f64>",
            ],
        );
        // An output is initialised from any number (`np.eye`'s tasklet).
        translates_to("o = (1 if x > 0 else 0)", &sig, &["complex.create"]);
        translates_to(
            "o = decltype(o)(1) * a",
            &sig,
            &["%0 = complex.constant [1.0 : f64, 0.0 : f64] : complex<f64>"],
        );
        translates_to(
            "o = conj(a) * real(b)",
            &sig,
            &[
                "%0 = complex.conj %arg0 : complex<f64>",
                "%1 = complex.re %arg1 : complex<f64>",
            ],
        );
        translates_to(
            "o = a ** b + abs(a)",
            &sig,
            &[
                "%0 = complex.pow %arg0, %arg1 : complex<f64>",
                "%1 = complex.abs %arg0 : complex<f64>",
            ],
        );
        refuses(
            &sig,
            &[
                ("o = a + y", "a float32 is used as a complex128"),
                ("o = a % b", "operator on complex numbers"),
                (
                    "o = a if a < b else b",
                    "ordering comparison of complex numbers",
                ),
                ("o = a if a == b else b", "is used as a"),
                ("o = math.floor(a)", "math.floor of a complex number"),
            ],
        );
    }

    #[test]
    fn float_literals_are_doubles_as_in_cpp() {
        let none = |_: &str| None;
        let sig = signature(&[("a", element("f32"))], &[("b", "f32")], &none);
        let body = translate("b = a * 0.5", &sig).unwrap();
        assert!(body.contains("arith.extf %arg0 : f32 to f64"), "{body}");
        assert!(body.contains("arith.truncf"), "{body}");
    }

    #[test]
    fn integer_division_truncates_and_floor_division_of_floats_floors() {
        let none = |_: &str| None;
        let sig = signature(
            &[("i", element("i32")), ("x", element("f64"))],
            &[("q", "i32"), ("f", "i64")],
            &none,
        );
        let body = translate("q = i / 2\nf = x // 2", &sig).unwrap();
        assert!(body.contains("arith.divsi"), "{body}");
        assert!(body.contains("math.floor"), "{body}");
    }

    #[test]
    fn array_connectors_are_loaded_and_symbols_read() {
        let symbols = |n: &str| (n == "i").then_some(Ty::Int(64));
        let sig = signature(
            &[(
                "w",
                InputType::Array {
                    element: "f64".into(),
                    shape: vec![Some(3)],
                },
            )],
            &[("o", "f64")],
            &symbols,
        );
        let body = translate("o = w[0] - 2 * w[1] + w[2] * i", &sig).unwrap();
        assert_eq!(body.matches("memref.load").count(), 3, "{body}");
        assert!(body.contains("sdfg.sym \"i\" : i64"), "{body}");
        assert!(body.starts_with("^bb0(%arg0: memref<3xf64>):"), "{body}");
    }

    #[test]
    fn floating_point_symbols_are_read_with_their_type() {
        let symbols = |n: &str| match n {
            "m" => Some(Ty::Float(64)),
            "a" => Some(Ty::Float(32)),
            "i" => Some(Ty::Int(64)),
            _ => None,
        };
        let sig = signature(&[("x", element("f32"))], &[("o", "f32")], &symbols);
        translates_to(
            "o = a * x + m + i",
            &sig,
            &[
                "sdfg.sym \"a\" : f32",
                "sdfg.sym \"m\" : f64",
                "sdfg.sym \"i\" : i64",
                "arith.truncf",
            ],
        );
    }

    #[test]
    fn outputs_written_on_some_paths_become_by_ref() {
        let none = |_: &str| None;
        let mut sig = signature(&[("a", element("f64"))], &[("b", "f64")], &none);
        let both = translate_tasklet("if a > 0:\n    b = a\nelse:\n    b = 0", &sig).unwrap();
        assert_eq!(both.by_ref, vec![false], "{}", both.body);
        assert!(both.body.contains("= scf.if"), "{}", both.body);
        assert!(translate_tasklet("if a > 0:\n    b = a", &sig).is_err());
        sig.refs = vec![Some(RefType::Memref(element("f32")))];
        let some = translate_tasklet("if a > 0:\n    b = a", &sig).unwrap();
        assert_eq!(some.by_ref, vec![true]);
        assert!(
            some.body
                .starts_with("^bb0(%arg0: f64, %arg1: memref<f32>):"),
            "{}",
            some.body
        );
        assert!(some.body.contains("arith.truncf"), "{}", some.body);
        assert!(some.body.contains("memref.store"), "{}", some.body);
        sig.refs = vec![Some(RefType::Stream("f64".into()))];
        let pushes = translate_tasklet("for k in range(3):\n    b = a * k", &sig).unwrap();
        assert!(pushes.body.contains("scf.for"), "{}", pushes.body);
        assert!(pushes.body.contains("sdfg.push %arg1"), "{}", pushes.body);
    }

    #[test]
    fn plain_cpp_assignments_read_as_python() {
        assert_eq!(cpp_as_python("\n  b = k * a;\n  ").unwrap(), "b = k * a");
        assert_eq!(
            cpp_as_python("x += 1; y = min(x, 2.5);").unwrap(),
            "x += 1\ny = min(x, 2.5)"
        );
        assert_eq!(cpp_as_python("c = a != b;").unwrap(), "c = a != b");
        for bad in [
            "b = a",
            "int b = a;",
            "b = a ? 1 : 2;",
            "b = 1.0f;",
            "b = !a;",
            "b = a && c;",
            "b = 0x10;",
            "b = 010;",
            "printf(\"%s\", \"x\");",
            "printf(fmt, a);",
            "printf(\"\\x41\");",
            "puts(\"x\");",
            "if (a) b = 1;",
        ] {
            assert!(cpp_as_python(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn cpp_printf_reads_as_python_printf() {
        assert_eq!(
            cpp_as_python("b = a;\nprintf(\"a; \\\"%d\\\"\\n\", a);").unwrap(),
            "b = a\nprintf('a; \"%d\"\\n', a)"
        );
        assert_eq!(
            cpp_as_python("printf(\"it's\\t100%%\\n\");").unwrap(),
            "printf('it\\'s\\t100%%\\n')"
        );
    }

    #[test]
    fn printf_calls_become_sdfg_printf() {
        let none = |_: &str| None;
        let sig = signature(&[("a", element("f32"))], &[], &none);
        let body = translate("printf('a = %f, %d\\n', a, 2)", &sig).unwrap();
        assert!(
            body.contains("sdfg.printf \"a = %f, %d\\n\" %arg0, %0 : f32, i64"),
            "{body}"
        );
        let reason = |code: &str| translate(code, &sig).unwrap_err();
        assert!(reason("printf('%f %f', a)").contains("reads 2 arguments but 1 are given"));
        assert!(reason("printf('%s', a)").contains("cannot print a number"));
        assert!(reason("printf(a)").contains("not a string literal"));
        assert!(reason("print(a)").contains("only side effects"));
    }

    #[test]
    fn untranslatable_code_says_why() {
        let none = |_: &str| None;
        let sig = signature(&[("a", element("f64"))], &[("b", "f64")], &none);
        let reason = |code: &str| translate(code, &sig).unwrap_err();
        assert!(reason("b = foo(a)").contains("unsupported function"));
        assert!(reason("b = a + N").contains("unknown name \"N\""));
        assert!(reason("while a > 0:\n    b = a").contains("not an assignment"));
        assert!(reason("if a > 0:\n    b = a").contains("output \"b\" is not assigned"));
        assert!(reason("c = a").contains("output \"b\" is not assigned"));
        let mut refs = signature(
            &[("a", element("f64"))],
            &[("b", "f64"), ("c", "f64")],
            &none,
        );
        refs.refs = vec![
            Some(RefType::Memref(InputType::Array {
                element: "f64".into(),
                shape: vec![Some(4)],
            })),
            None,
        ];
        assert!(translate_tasklet("c = b[1] = a", &refs)
            .unwrap_err()
            .contains("chained assignment"));
        assert!(reason("b = (").contains("unexpected"));
        let pointer = signature(&[("a", element("f64"))], &[("b", "!sdfg.ptr<f64>")], &none);
        assert!(translate("b = a", &pointer)
            .unwrap_err()
            .contains("output \"b\" has the unsupported type !sdfg.ptr<f64>"));
        // Unsigned outputs are yielded signless.
        let unsigned = signature(&[("a", element("ui32"))], &[("b", "ui32")], &none);
        let body = translate("b = a + 1", &unsigned).unwrap();
        assert!(body.contains("sdfg.yield %1 : i32"), "{body}");
    }

    proptest::proptest! {
        /// Arbitrary token soup never panics the translation: it translates
        /// or says why not.
        #[test]
        fn arbitrary_code_translates_or_is_refused(
            tokens in proptest::collection::vec(
                proptest::sample::select(vec![
                    "b", "a", "w", "i", "=", "+", "-", "*", "/", "//", "%", "**", "(", ")",
                    "[", "]", ",", "0", "1", "2.5", "1e300", "99999999999999999999", "<",
                    "==", "and", "not", "if", "else", "math.sqrt", "min", "abs", "int",
                    "dace.float32", "\n", "+=", "~", "True",
                ]),
                0..24,
            )
        ) {
            let symbols = |n: &str| (n == "i").then_some(Ty::Int(64));
            let sig = signature(
                &[
                    ("a", element("f32")),
                    ("w", InputType::Array { element: "i64".into(), shape: vec![Some(4)] }),
                ],
                &[("b", "f64")],
                &symbols,
            );
            let code = tokens.join(" ");
            let _ = translate(&code, &sig);
            let _ = infer_type(&code, &sig, "b");
        }
    }

    #[test]
    fn unsigned_inputs_use_unsigned_operations() {
        let none = |_: &str| None;
        let sig = signature(
            &[("u", element("ui32")), ("i", element("i64"))],
            &[("f", "f64"), ("q", "i64")],
            &none,
        );
        let body = translate("f = u\nq = (u / 2 < 3) + u % i", &sig).unwrap();
        assert!(body.starts_with("^bb0(%arg0: i32, %arg1: i64):"), "{body}");
        for op in [
            "arith.uitofp",
            "arith.divui",
            "arith.cmpi ult",
            "arith.extui",
        ] {
            assert!(body.contains(op), "{op} in {body}");
        }
        // Against a wider signed integer, the unsigned one is extended and
        // the operation is signed, as in C++.
        assert!(body.contains("arith.remsi"), "{body}");
    }

    #[test]
    fn conditional_expressions_do_not_speculate_loads() {
        let none = |_: &str| None;
        let sig = signature(
            &[
                ("c", element("i1")),
                (
                    "w",
                    InputType::Array {
                        element: "f64".into(),
                        shape: vec![None],
                    },
                ),
            ],
            &[("o", "f64")],
            &none,
        );
        assert!(translate("o = 1.0 if c else 2.0", &sig)
            .unwrap()
            .contains("arith.select"));
        assert!(translate("o = w[0] if c else 2.0", &sig)
            .unwrap_err()
            .contains("speculatively"));
    }
}
