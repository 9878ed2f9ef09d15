//! C++ spellings: element types, literals, identifiers, and the symbolic
//! engine's integer expressions as C++ expressions on `long long`.

use sdfg_dialect::layout::Elem;
use sdfg_symbolic::{CmpOp, Emitter, Expr, IntOp};
use std::collections::BTreeSet;

/// The helper functions the emitted expressions call (Python's flooring
/// division and modulo, `Min`/`Max`, integer powers and MLIR's
/// NaN-propagating `maximumf`/`minimumf`). They are plain inline
/// functions, which HLS synthesizes.
pub const HELPERS: &str = "\
static inline long long sdfg_floordiv(long long a, long long b) {
  long long q = a / b;
  return (q * b != a && ((a < 0) != (b < 0))) ? q - 1 : q;
}
static inline long long sdfg_floormod(long long a, long long b) {
  long long r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
static inline long long sdfg_ceildiv(long long a, long long b) { return -sdfg_floordiv(-a, b); }
static inline long long sdfg_min(long long a, long long b) { return a < b ? a : b; }
static inline long long sdfg_max(long long a, long long b) { return a > b ? a : b; }
static inline long long sdfg_ipow(long long b, long long e) {
  long long r = 1;
  for (long long k = 0; k < e; ++k) r *= b;
  return r;
}
template <typename T> static inline T sdfg_maximumf(T a, T b) { return (a != a || b != b) ? a + b : (a > b ? a : b); }
template <typename T> static inline T sdfg_minimumf(T a, T b) { return (a != a || b != b) ? a + b : (a < b ? a : b); }
";

/// C++ keywords and names of the emitted code that a DaCe name must not
/// take.
const RESERVED: &[&str] = &[
    "auto", "bool", "break", "case", "char", "class", "const", "continue", "default", "delete",
    "do", "double", "else", "enum", "extern", "float", "for", "goto", "if", "int", "long", "new",
    "operator", "private", "public", "register", "return", "short", "signed", "sizeof", "static",
    "struct", "switch", "template", "this", "typedef", "union", "unsigned", "void", "volatile",
    "while", "true", "false", "and", "or", "not", "xor", "hls", "std", "main",
];

/// A C++ identifier for a DaCe name: other characters become `_`, and a
/// keyword or a leading digit gets a `_` prefix.
pub fn identifier(name: &str) -> String {
    let mut out = sdfg_dialect::sanitized(name);
    if out.is_empty()
        || out.starts_with(|c: char| c.is_ascii_digit())
        || RESERVED.contains(&out.as_str())
    {
        out.insert(0, '_');
    }
    out
}

/// The C++ type of an element type; `Err` names what HLS C++ has no
/// native type for.
pub fn element_type(elem: &Elem) -> Result<String, String> {
    let ty = elem.ty.as_str();
    Ok(match ty {
        "f64" => "double".into(),
        "f32" => "float".into(),
        "i1" => "bool".into(),
        "index" => "long long".into(),
        "i8" | "i16" | "i32" | "i64" => {
            let bits = &ty[1..];
            if elem.unsigned {
                format!("uint{bits}_t")
            } else {
                format!("int{bits}_t")
            }
        }
        _ => match arbitrary_width(ty) {
            Some(bits) if elem.unsigned => format!("ap_uint<{bits}>"),
            Some(bits) => format!("ap_int<{bits}>"),
            None => {
                return Err(format!(
                    "element type `{ty}` has no HLS C++ type here (half precision, complex \
                     and vector elements are not emitted yet, and integers are at most \
                     {AP_INT_MAX_BITS} bits)"
                ))
            }
        },
    })
}

/// The widest `ap_int` that Vitis HLS has without `AP_INT_MAX_W`.
pub const AP_INT_MAX_BITS: u32 = 1024;

/// The width of an integer type that C++ has no native type for (`i12`,
/// `i128`), which HLS C++ writes as `ap_int<W>`/`ap_uint<W>`.
fn arbitrary_width(ty: &str) -> Option<u32> {
    let bits: u32 = ty.strip_prefix('i')?.parse().ok()?;
    (bits > 1 && bits <= AP_INT_MAX_BITS && ![8, 16, 32, 64].contains(&bits)).then_some(bits)
}

/// The include of `<ap_int.h>`. g++ (C simulation) reports its own
/// members as maybe uninitialized once inlined, a false positive that
/// `-Werror` would make fatal; the warning is off for the header alone.
pub const AP_INT_INCLUDE: &str = "#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored \"-Wmaybe-uninitialized\"
#endif
#include <ap_int.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
";

/// Whether the C++ type is an arbitrary-precision one (`<ap_int.h>`).
pub fn is_arbitrary_precision(ty: &str) -> bool {
    ty.starts_with("ap_int<") || ty.starts_with("ap_uint<")
}

/// The C++ type of a signless MLIR scalar type (as tasklet bodies use
/// them: integers are signed).
pub fn mlir_type(ty: &str) -> Result<String, String> {
    element_type(&Elem {
        ty: ty.to_string(),
        unsigned: false,
    })
}

/// The unsigned C++ type of the same width as the integer type `ty`.
pub fn unsigned_type(ty: &str) -> Option<String> {
    match ty {
        "i1" => Some("bool".into()),
        "i8" | "i16" | "i32" | "i64" => Some(format!("uint{}_t", &ty[1..])),
        "index" => Some("unsigned long long".into()),
        _ => arbitrary_width(ty).map(|bits| format!("ap_uint<{bits}>")),
    }
}

/// A floating-point literal of type `c_type` (`double` or `float`).
pub fn float_literal(value: f64, c_type: &str) -> String {
    let suffix = if c_type == "float" { "f" } else { "" };
    if value.is_nan() {
        return format!("({c_type})NAN");
    }
    if value.is_infinite() {
        let sign = if value < 0.0 { "-" } else { "" };
        return format!("({sign}({c_type})INFINITY)");
    }
    let mut text = format!("{value:?}");
    if !text.contains(['.', 'e', 'E']) {
        text.push_str(".0");
    }
    if value < 0.0 {
        format!("({text}{suffix})")
    } else {
        format!("{text}{suffix}")
    }
}

/// Reads an element of data: the container's name and the indices as C++,
/// to a C++ expression (`None` for data not defined here).
pub type ReadData<'n> = dyn Fn(&str, &[String]) -> Option<String> + 'n;

/// Emits integer expressions as C++ text over named symbols; records the
/// names it reads.
pub struct CEmitter<'n> {
    /// Maps a symbol (or scope parameter) to its C++ name; `None` for
    /// names that are not defined where the expression is.
    pub lookup: &'n dyn Fn(&str) -> Option<String>,
    /// Reads an element of data (`A[i, j]`, the indices as C++) as a C++
    /// expression; `None` for data not defined where the expression is.
    pub arrays: Option<&'n ReadData<'n>>,
    /// Every symbol read.
    pub used: BTreeSet<String>,
}

impl<'n> CEmitter<'n> {
    /// An emitter resolving names through `lookup`.
    pub fn new(lookup: &'n dyn Fn(&str) -> Option<String>) -> Self {
        CEmitter {
            lookup,
            arrays: None,
            used: BTreeSet::new(),
        }
    }

    /// The emitter, reading data elements through `arrays`.
    pub fn with_arrays(mut self, arrays: &'n ReadData<'n>) -> Self {
        self.arrays = Some(arrays);
        self
    }

    /// `expr` as a C++ integer expression.
    pub fn int(&mut self, expr: &Expr) -> Result<String, String> {
        expr.emit_int(self).map(strip)
    }

    /// `expr` as a C++ condition.
    pub fn condition(&mut self, expr: &Expr) -> Result<String, String> {
        expr.emit_bool(self).map(strip)
    }
}

/// Drops one pair of outer parentheses that encloses the whole text.
pub fn strip(text: String) -> String {
    let bytes = text.as_bytes();
    if bytes.first() != Some(&b'(') || bytes.last() != Some(&b')') {
        return text;
    }
    let mut depth = 0;
    for (k, b) in bytes.iter().enumerate() {
        match b {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 && k + 1 != bytes.len() {
                    return text;
                }
            }
            _ => {}
        }
    }
    text[1..text.len() - 1].to_string()
}

impl Emitter for CEmitter<'_> {
    type Value = String;

    fn int(&mut self, value: i64) -> String {
        if value < 0 {
            format!("({value}LL)")
        } else if value > i64::from(i32::MAX) {
            format!("{value}LL")
        } else {
            value.to_string()
        }
    }

    fn boolean(&mut self, value: bool) -> String {
        value.to_string()
    }

    fn symbol(&mut self, name: &str) -> Result<String, String> {
        let c =
            (self.lookup)(name).ok_or_else(|| format!("symbol `{name}` is not defined here"))?;
        self.used.insert(name.to_string());
        Ok(c)
    }

    fn binary(&mut self, op: IntOp, a: String, b: String) -> String {
        let infix = |s: &str| format!("({a} {s} {b})");
        let call = |f: &str| format!("{f}({}, {})", strip(a.clone()), strip(b.clone()));
        match op {
            IntOp::Add => infix("+"),
            IntOp::Sub => infix("-"),
            IntOp::Mul => infix("*"),
            IntOp::DivTrunc => infix("/"),
            IntOp::FloorDiv => call("sdfg_floordiv"),
            IntOp::FloorMod => call("sdfg_floormod"),
            IntOp::Min => call("sdfg_min"),
            IntOp::Max => call("sdfg_max"),
            IntOp::And => infix("&"),
            IntOp::Or => infix("|"),
            IntOp::Xor => infix("^"),
            IntOp::Shl => infix("<<"),
            IntOp::Shr => infix(">>"),
            IntOp::Pow => call("sdfg_ipow"),
        }
    }

    fn compare(&mut self, op: CmpOp, a: String, b: String) -> String {
        let s = match op {
            CmpOp::Le => "<=",
            CmpOp::Lt => "<",
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
        };
        format!("({a} {s} {b})")
    }

    fn logic(&mut self, and: bool, a: String, b: String) -> String {
        format!("({a} {} {b})", if and { "&&" } else { "||" })
    }

    fn bool_to_int(&mut self, value: String) -> String {
        format!("((long long){value})")
    }

    fn call(&mut self, name: &str, args: Vec<String>) -> Result<String, String> {
        match (name, args.as_slice()) {
            ("int_floor", [a, b]) => Ok(self.binary(IntOp::FloorDiv, a.clone(), b.clone())),
            ("int_ceil", [a, b]) => Ok(format!(
                "sdfg_ceildiv({}, {})",
                strip(a.clone()),
                strip(b.clone())
            )),
            ("Min" | "min", [a, b]) => Ok(self.binary(IntOp::Min, a.clone(), b.clone())),
            ("Max" | "max", [a, b]) => Ok(self.binary(IntOp::Max, a.clone(), b.clone())),
            _ => Err(format!(
                "the function `{name}` with {} arguments has no HLS C++ code",
                args.len()
            )),
        }
    }

    fn subscript(&mut self, name: &str, args: Vec<String>) -> Result<String, String> {
        self.arrays
            .and_then(|read| read(name, &args))
            .ok_or_else(|| {
                format!("the expression reads `{name}[...]`, which is not data of this SDFG")
            })
    }
}
