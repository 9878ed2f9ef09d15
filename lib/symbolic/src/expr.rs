//! The expression type and the constructors that keep it in normal form.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use crate::poly::{Mono, Poly, MAX_TERMS};
use crate::rational::Rat;

/// A symbol or function name, shared cheaply.
pub(crate) type Name = Arc<str>;

/// An integer or boolean symbolic expression in normal form.
///
/// Every constructor normalises, so structural equality (`==`, `Hash`) is
/// equality of normal forms, and [`Display`](std::fmt::Display) prints the
/// canonical text. Cloning is a reference-count increment.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Expr(pub(crate) Arc<Node>);

/// Relation of a polynomial `p` to zero.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub(crate) enum Rel {
    /// `p <= 0`
    Le,
    /// `p < 0` (only kept when `p` is not integer-valued)
    Lt,
    /// `p == 0`
    Eq,
    /// `p != 0`
    Ne,
}

/// A bitwise operation on integers, with Python's semantics (two's
/// complement of unbounded width): DaCe's `bitwise_and`, `bitwise_or`,
/// `bitwise_xor`, `left_shift` and `right_shift`, written `&`, `|`, `^`,
/// `<<` and `>>`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum BitOp {
    /// `a & b`
    And,
    /// `a | b`
    Or,
    /// `a ^ b`
    Xor,
    /// `a << b` (kept only when `b` is not a constant: `a << k` is `a * 2**k`)
    Shl,
    /// `a >> b` (kept only when `b` is not a constant: `a >> k` is `a // 2**k`)
    Shr,
}

impl BitOp {
    /// The Python operator.
    pub fn symbol(self) -> &'static str {
        match self {
            BitOp::And => "&",
            BitOp::Or => "|",
            BitOp::Xor => "^",
            BitOp::Shl => "<<",
            BitOp::Shr => ">>",
        }
    }

    /// The operation on integer values; `None` when Python would raise
    /// (a negative shift count) or the result does not fit 128 bits.
    pub(crate) fn apply(self, a: i128, b: i128) -> Option<i128> {
        match self {
            BitOp::And => Some(a & b),
            BitOp::Or => Some(a | b),
            BitOp::Xor => Some(a ^ b),
            BitOp::Shl => {
                let shifted = a.checked_shl(u32::try_from(b).ok().filter(|b| *b < 127)?)?;
                (shifted >> b == a).then_some(shifted)
            }
            // Past 127 bits every i128 shifts to 0 or -1, as in Python.
            BitOp::Shr => (b >= 0).then(|| a >> b.min(127)),
        }
    }
}

/// The node behind an [`Expr`].
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub(crate) enum Node {
    /// A numeric polynomial.
    Num(Poly),
    /// A boolean constant.
    Bool(bool),
    /// A comparison of a polynomial with zero.
    Rel(Rel, Poly),
    /// Conjunction of at least two sorted, distinct operands.
    And(Vec<Expr>),
    /// Disjunction of at least two sorted, distinct operands.
    Or(Vec<Expr>),
    /// The undefined value.
    Undefined,
}

/// An indivisible factor of a monomial.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub(crate) enum Atom {
    /// A named integer symbol.
    Sym(Name),
    /// `floor(p)` of a normalised argument.
    Floor(Expr),
    /// Python modulo `Mod(a, b)`.
    Mod(Expr, Expr),
    /// Minimum of at least two operands.
    Min(Vec<Expr>),
    /// Maximum of at least two operands.
    Max(Vec<Expr>),
    /// Absolute value.
    Abs(Expr),
    /// A polynomial kept unexpanded (large powers and products, reciprocals).
    Group(Expr),
    /// A power that is not a polynomial (non-constant or fractional exponent).
    Pow(Expr, Expr),
    /// `1` if the condition holds, else `0` (written `int(cond)`).
    Truth(Expr),
    /// An opaque function call.
    Call(Name, Vec<Expr>),
    /// An opaque subscript such as `A[i, 0]`.
    Index(Name, Vec<Expr>),
    /// A bitwise operation on two integer operands.
    Bit(BitOp, Vec<Expr>),
}

static EMPTY: Poly = Poly { terms: Vec::new() };

impl Atom {
    /// Whether the atom is integer-valued when all symbols are integers.
    pub(crate) fn is_integer_valued(&self) -> bool {
        match self {
            Atom::Sym(_) | Atom::Floor(_) | Atom::Truth(_) => true,
            Atom::Mod(a, b) => a.poly().is_integer_valued() && b.poly().is_integer_valued(),
            Atom::Min(v) | Atom::Max(v) => v.iter().all(|e| e.poly().is_integer_valued()),
            Atom::Abs(e) | Atom::Group(e) => e.poly().is_integer_valued(),
            Atom::Bit(_, v) => v.iter().all(|e| e.poly().is_integer_valued()),
            Atom::Pow(..) | Atom::Call(..) | Atom::Index(..) => false,
        }
    }

    /// The direct sub-expressions of the atom.
    pub(crate) fn children(&self) -> &[Expr] {
        match self {
            Atom::Sym(_) => &[],
            Atom::Floor(e) | Atom::Abs(e) | Atom::Group(e) | Atom::Truth(e) => {
                std::slice::from_ref(e)
            }
            Atom::Mod(..) | Atom::Pow(..) => &[],
            Atom::Min(v)
            | Atom::Max(v)
            | Atom::Call(_, v)
            | Atom::Index(_, v)
            | Atom::Bit(_, v) => v,
        }
    }

    /// Whether the atom mentions the symbol.
    pub(crate) fn mentions(&self, name: &str) -> bool {
        match self {
            Atom::Sym(s) => &**s == name,
            Atom::Mod(a, b) | Atom::Pow(a, b) => a.mentions(name) || b.mentions(name),
            _ => self.children().iter().any(|e| e.mentions(name)),
        }
    }

    pub(crate) fn collect_symbols(&self, out: &mut BTreeSet<String>) {
        match self {
            Atom::Sym(s) => {
                out.insert(s.to_string());
            }
            Atom::Mod(a, b) | Atom::Pow(a, b) => {
                a.collect_into(out);
                b.collect_into(out);
            }
            _ => {
                for e in self.children() {
                    e.collect_into(out);
                }
            }
        }
    }

    /// Rebuilds the atom with `f` applied to each sub-expression, renormalising.
    pub(crate) fn map(&self, f: &mut dyn FnMut(&Expr) -> Expr) -> Expr {
        match self {
            Atom::Sym(s) => Expr::from_poly(Poly::atom(Atom::Sym(s.clone()))),
            Atom::Floor(e) => Expr::floor(&f(e)),
            Atom::Mod(a, b) => Expr::modulo(&f(a), &f(b)),
            Atom::Min(v) => Expr::min(v.iter().map(&mut *f).collect()),
            Atom::Max(v) => Expr::max(v.iter().map(&mut *f).collect()),
            Atom::Abs(e) => Expr::abs(&f(e)),
            Atom::Group(e) => f(e),
            Atom::Pow(a, b) => Expr::pow(&f(a), &f(b)),
            Atom::Truth(c) => Expr::truth(&f(c)),
            Atom::Call(n, v) => Expr::call(n, v.iter().map(&mut *f).collect()),
            Atom::Index(n, v) => Expr::index(n, v.iter().map(&mut *f).collect()),
            Atom::Bit(op, v) => Expr::bitwise(*op, &f(&v[0]), &f(&v[1])),
        }
    }
}

fn mk(n: Node) -> Expr {
    Expr(Arc::new(n))
}

/// Result of an overflowing normalisation step: the undefined value.
fn or_undef(p: Option<Poly>) -> Expr {
    match p {
        Some(p) => Expr::from_poly(p),
        None => Expr::undefined(),
    }
}

impl Expr {
    pub(crate) fn node(&self) -> &Node {
        &self.0
    }

    /// The polynomial of a numeric expression (zero for non-numeric ones).
    pub(crate) fn poly(&self) -> &Poly {
        match &*self.0 {
            Node::Num(p) => p,
            _ => &EMPTY,
        }
    }

    pub(crate) fn from_poly(p: Poly) -> Expr {
        mk(Node::Num(p))
    }

    fn from_atom(a: Atom) -> Expr {
        Expr::from_poly(Poly::atom(a))
    }

    /// The integer constant `v`.
    pub fn int(v: i64) -> Expr {
        Expr::from_poly(Poly::constant(Rat::int(v as i128)))
    }

    /// An exact rational constant `num / den` (undefined if `den == 0`).
    pub fn rational(num: i128, den: i128) -> Expr {
        match Rat::new(num, den) {
            Some(r) => Expr::from_poly(Poly::constant(r)),
            None => Expr::undefined(),
        }
    }

    pub(crate) fn rat(r: Rat) -> Expr {
        Expr::from_poly(Poly::constant(r))
    }

    /// The integer symbol `name`.
    pub fn symbol(name: &str) -> Expr {
        Expr::from_atom(Atom::Sym(Arc::from(name)))
    }

    /// A boolean constant.
    pub fn bool(b: bool) -> Expr {
        mk(Node::Bool(b))
    }

    /// The undefined value `?`: every expression built from it is undefined.
    pub fn undefined() -> Expr {
        mk(Node::Undefined)
    }

    /// Whether the expression is the undefined value (or depends on it).
    pub fn is_undefined(&self) -> bool {
        matches!(&*self.0, Node::Undefined)
    }

    /// Whether the expression is boolean-valued.
    pub fn is_bool(&self) -> bool {
        matches!(
            &*self.0,
            Node::Bool(_) | Node::Rel(..) | Node::And(_) | Node::Or(_)
        )
    }

    /// Whether the expression is numeric (integer-valued or rational).
    pub fn is_numeric(&self) -> bool {
        matches!(&*self.0, Node::Num(_))
    }

    /// The value if the expression is an integer constant.
    pub fn as_int(&self) -> Option<i64> {
        match &*self.0 {
            Node::Num(p) => p.as_constant()?.to_i64(),
            _ => None,
        }
    }

    /// The value if the expression is a boolean constant.
    pub fn as_bool(&self) -> Option<bool> {
        match &*self.0 {
            Node::Bool(b) => Some(*b),
            _ => None,
        }
    }

    /// The name if the expression is a single symbol.
    pub fn as_symbol(&self) -> Option<&str> {
        match self.poly().as_atom() {
            Some(Atom::Sym(s)) if self.is_numeric() => Some(s),
            _ => None,
        }
    }

    /// Whether the expression is integer-valued whenever its symbols are integers.
    pub fn is_integer_valued(&self) -> bool {
        self.is_numeric() && self.poly().is_integer_valued()
    }

    /// Whether the expression is quasi-affine: integer-linear in its symbols,
    /// with floor and modulo by integer constants (what ISL handles exactly).
    pub fn is_quasi_affine(&self) -> bool {
        fn poly_qa(p: &Poly) -> bool {
            p.terms.iter().all(|(m, _)| match m.factors.as_slice() {
                [] => true,
                [(a, 1)] => match a {
                    Atom::Sym(_) => true,
                    Atom::Floor(e) => poly_qa(e.poly()) && e.poly().monos_integer_valued(),
                    Atom::Mod(a, b) => {
                        poly_qa(a.poly())
                            && a.poly().monos_integer_valued()
                            && b.poly().as_constant().is_some_and(|c| c.is_int())
                    }
                    Atom::Min(v) | Atom::Max(v) => v.iter().all(|e| poly_qa(e.poly())),
                    _ => false,
                },
                _ => false,
            })
        }
        self.is_numeric() && poly_qa(self.poly())
    }

    /// Whether the expression mentions the symbol.
    pub fn mentions(&self, name: &str) -> bool {
        match &*self.0 {
            Node::Num(p) | Node::Rel(_, p) => p.mentions(name),
            Node::And(v) | Node::Or(v) => v.iter().any(|e| e.mentions(name)),
            Node::Bool(_) | Node::Undefined => false,
        }
    }

    /// The free symbols of the expression.
    pub fn free_symbols(&self) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        self.collect_into(&mut out);
        out
    }

    /// The names of the opaque subscripts (`A` of `A[i, 0]`) in the
    /// expression.
    pub fn subscripted_names(&self) -> BTreeSet<String> {
        fn atom(a: &Atom, out: &mut BTreeSet<String>) {
            if let Atom::Index(name, _) = a {
                out.insert(name.to_string());
            }
            match a {
                Atom::Mod(x, y) | Atom::Pow(x, y) => {
                    expr(x, out);
                    expr(y, out);
                }
                _ => a.children().iter().for_each(|e| expr(e, out)),
            }
        }
        fn expr(e: &Expr, out: &mut BTreeSet<String>) {
            match &*e.0 {
                Node::Num(p) | Node::Rel(_, p) => {
                    for (mono, _) in &p.terms {
                        for (a, _) in &mono.factors {
                            atom(a, out);
                        }
                    }
                }
                Node::And(v) | Node::Or(v) => v.iter().for_each(|x| expr(x, out)),
                Node::Bool(_) | Node::Undefined => {}
            }
        }
        let mut out = BTreeSet::new();
        expr(self, &mut out);
        out
    }

    fn collect_into(&self, out: &mut BTreeSet<String>) {
        match &*self.0 {
            Node::Num(p) | Node::Rel(_, p) => p.collect_symbols(out),
            Node::And(v) | Node::Or(v) => v.iter().for_each(|e| e.collect_into(out)),
            Node::Bool(_) | Node::Undefined => {}
        }
    }

    /// Replaces symbols by expressions simultaneously and renormalises.
    pub fn substitute(&self, map: &HashMap<String, Expr>) -> Expr {
        if map.is_empty() {
            return self.clone();
        }
        self.map_symbols(&mut |name| map.get(name).cloned())
    }

    /// Rebuilds the expression replacing each symbol for which `f` returns a value.
    pub(crate) fn map_symbols(&self, f: &mut dyn FnMut(&str) -> Option<Expr>) -> Expr {
        match &*self.0 {
            Node::Num(p) => Self::map_poly(p, f),
            Node::Rel(r, p) => {
                let q = Self::map_poly(p, f);
                if q.is_undefined() {
                    return q;
                }
                Expr::rel_poly(*r, q.poly())
            }
            Node::And(v) => Expr::and(v.iter().map(|e| e.map_symbols(f)).collect()),
            Node::Or(v) => Expr::or(v.iter().map(|e| e.map_symbols(f)).collect()),
            Node::Bool(_) | Node::Undefined => self.clone(),
        }
    }

    fn map_poly(p: &Poly, f: &mut dyn FnMut(&str) -> Option<Expr>) -> Expr {
        let mut acc = Expr::int(0);
        for (m, c) in &p.terms {
            let mut t = Expr::rat(*c);
            for (a, e) in &m.factors {
                let base = match a {
                    Atom::Sym(s) => f(s).unwrap_or_else(|| Expr::from_atom(a.clone())),
                    _ => a.map(&mut |x| x.map_symbols(f)),
                };
                t = Expr::mul(&t, &Expr::pow(&base, &Expr::int(*e as i64)));
            }
            acc = Expr::add(&acc, &t);
        }
        acc
    }

    /// Converts a boolean to `0`/`1` so that it can take part in arithmetic.
    fn numeric(&self) -> Expr {
        match &*self.0 {
            Node::Num(_) | Node::Undefined => self.clone(),
            _ => Expr::truth(self),
        }
    }

    /// `1` if `cond` holds and `0` otherwise.
    pub fn truth(cond: &Expr) -> Expr {
        let c = cond.boolean();
        match &*c.0 {
            Node::Bool(b) => Expr::int(*b as i64),
            Node::Undefined => c,
            _ => Expr::from_atom(Atom::Truth(c)),
        }
    }

    /// Interprets a numeric expression as a condition (`x != 0`).
    fn boolean(&self) -> Expr {
        match &*self.0 {
            Node::Num(p) => {
                if let Some(Atom::Truth(c)) = p.as_atom() {
                    return c.clone();
                }
                Expr::rel_poly(Rel::Ne, p)
            }
            _ => self.clone(),
        }
    }

    /// Sum.
    pub fn add(a: &Expr, b: &Expr) -> Expr {
        let (a, b) = (a.numeric(), b.numeric());
        if a.is_undefined() || b.is_undefined() {
            return Expr::undefined();
        }
        or_undef(a.poly().add(b.poly()))
    }

    /// Difference.
    pub fn sub(a: &Expr, b: &Expr) -> Expr {
        Expr::add(a, &Expr::neg(b))
    }

    /// Negation.
    pub fn neg(a: &Expr) -> Expr {
        let a = a.numeric();
        if a.is_undefined() {
            return a;
        }
        or_undef(a.poly().neg())
    }

    /// Product (expanded unless the expansion would exceed the term limit).
    pub fn mul(a: &Expr, b: &Expr) -> Expr {
        let (a, b) = (a.numeric(), b.numeric());
        if a.is_undefined() || b.is_undefined() {
            return Expr::undefined();
        }
        let (p, q) = (a.poly(), b.poly());
        if p.terms.len().saturating_mul(q.terms.len()) > MAX_TERMS {
            let g = |x: &Poly| -> Poly {
                if x.terms.len() > 1 {
                    Poly::atom(Atom::Group(Expr::from_poly(x.clone())))
                } else {
                    x.clone()
                }
            };
            return or_undef(g(p).mul(&g(q)));
        }
        or_undef(p.mul(q))
    }

    /// True division `a / b` (exact rational arithmetic).
    pub fn div(a: &Expr, b: &Expr) -> Expr {
        Expr::mul(a, &Expr::pow(b, &Expr::int(-1)))
    }

    /// Python floor division `a // b`.
    pub fn floordiv(a: &Expr, b: &Expr) -> Expr {
        Expr::floor(&Expr::div(a, b))
    }

    /// `ceil(a / b)` for integers.
    pub fn ceildiv(a: &Expr, b: &Expr) -> Expr {
        Expr::neg(&Expr::floordiv(&Expr::neg(a), b))
    }

    /// `a ** b`.
    pub fn pow(a: &Expr, b: &Expr) -> Expr {
        let (a, b) = (a.numeric(), b.numeric());
        if a.is_undefined() || b.is_undefined() {
            return Expr::undefined();
        }
        let (p, e) = (a.poly(), b.poly());
        let Some(ec) = e.as_constant() else {
            if p.as_constant() == Some(Rat::ONE) {
                return Expr::int(1);
            }
            return Expr::from_atom(Atom::Pow(a.clone(), b.clone()));
        };
        if !ec.is_int() {
            if let Some(c) = p.as_constant() {
                if c == Rat::ONE || c.is_zero() && !ec.is_negative() {
                    return a;
                }
            }
            return Expr::from_atom(Atom::Pow(a.clone(), b.clone()));
        }
        let Ok(k) = i32::try_from(ec.num()) else {
            return match p.as_constant() {
                Some(c) if c == Rat::ONE => Expr::int(1),
                Some(c) if c.is_zero() && !ec.is_negative() => Expr::int(0),
                _ => Expr::undefined(),
            };
        };
        if k == 0 {
            return Expr::int(1);
        }
        match p.terms.as_slice() {
            [] => {
                if k < 0 {
                    Expr::undefined()
                } else {
                    Expr::int(0)
                }
            }
            [(m, c)] => {
                let Some(c2) = c.pow(k as i128) else {
                    return Expr::undefined();
                };
                match m.pow(k) {
                    Some(m2) => Expr::from_poly(Poly::term(m2, c2)),
                    None => Expr::undefined(),
                }
            }
            _ if k < 0 => {
                // Reciprocal of the expanded positive power, kept as a group.
                let pos = Expr::pow(&a, &Expr::int(-(k as i64)));
                if pos.is_undefined() {
                    return pos;
                }
                let m = match pos.poly().terms.as_slice() {
                    [(m, c)] if *c == Rat::ONE && m.factors.len() == 1 => Mono {
                        factors: vec![(m.factors[0].0.clone(), -m.factors[0].1)],
                    },
                    _ => Mono {
                        factors: vec![(Atom::Group(pos.clone()), -1)],
                    },
                };
                Expr::from_poly(Poly::term(m, Rat::ONE))
            }
            _ => {
                let n = p.terms.len();
                // Number of terms of the full expansion of an n-term sum to the k-th power.
                let too_big = {
                    let mut est: u128 = 1;
                    let mut big = false;
                    for i in 1..=(n as u128 - 1) {
                        est = est.saturating_mul(k as u128 + i) / i;
                        if est > MAX_TERMS as u128 {
                            big = true;
                            break;
                        }
                    }
                    big
                };
                if too_big {
                    let m = Mono {
                        factors: vec![(Atom::Group(a.clone()), k)],
                    };
                    return Expr::from_poly(Poly::term(m, Rat::ONE));
                }
                let mut acc = Poly::constant(Rat::ONE);
                let mut base = p.clone();
                let mut k = k as u32;
                while k > 0 {
                    if k & 1 == 1 {
                        match acc.mul(&base) {
                            Some(x) => acc = x,
                            None => return Expr::undefined(),
                        }
                    }
                    k >>= 1;
                    if k > 0 {
                        match base.mul(&base) {
                            Some(x) => base = x,
                            None => return Expr::undefined(),
                        }
                    }
                }
                Expr::from_poly(acc)
            }
        }
    }

    /// `floor(a)`, normalised (see the crate documentation).
    pub fn floor(a: &Expr) -> Expr {
        let a = a.numeric();
        if a.is_undefined() {
            return a;
        }
        or_undef(floor_poly(a.poly()))
    }

    /// `ceiling(a)`.
    pub fn ceil(a: &Expr) -> Expr {
        Expr::neg(&Expr::floor(&Expr::neg(a)))
    }

    /// Python modulo `a % b` (the result has the sign of `b`).
    pub fn modulo(a: &Expr, b: &Expr) -> Expr {
        let (a, b) = (a.numeric(), b.numeric());
        if a.is_undefined() || b.is_undefined() {
            return Expr::undefined();
        }
        or_undef(mod_poly(a.poly(), b.poly()))
    }

    /// The row-major indices over `sizes` of flat position `flat`
    /// (`flat` in `0:prod(sizes)`): the last varies fastest, and the first
    /// is the quotient left, without a modulo.
    pub fn unravel(flat: &Expr, sizes: &[Expr]) -> Vec<Expr> {
        let mut indices = vec![Expr::int(0); sizes.len()];
        let mut rest = flat.clone();
        for (d, size) in sizes.iter().enumerate().rev() {
            if d == 0 {
                indices[0] = rest.clone();
            } else {
                indices[d] = Expr::modulo(&rest, size);
                rest = Expr::floordiv(&rest, size);
            }
        }
        indices
    }

    /// Absolute value.
    pub fn abs(a: &Expr) -> Expr {
        let a = a.numeric();
        if a.is_undefined() {
            return a;
        }
        let p = a.poly();
        if let Some(c) = p.as_constant() {
            return c.abs().map(Expr::rat).unwrap_or_else(Expr::undefined);
        }
        if let Some(Atom::Abs(_)) = p.as_atom() {
            return a;
        }
        let p = if p.leading_negative() {
            match p.neg() {
                Some(q) => q,
                None => return Expr::undefined(),
            }
        } else {
            p.clone()
        };
        Expr::from_atom(Atom::Abs(Expr::from_poly(p)))
    }

    /// Minimum of the operands (at least one).
    pub fn min(args: Vec<Expr>) -> Expr {
        min_max(args, false)
    }

    /// Maximum of the operands (at least one).
    pub fn max(args: Vec<Expr>) -> Expr {
        min_max(args, true)
    }

    /// A bitwise operation with Python's semantics on integers. Constant
    /// operands fold, `a << k` and `a >> k` for a constant `k` become
    /// `a * 2**k` and `a // 2**k` (exactly Python's shifts), and `&`, `|`,
    /// `^` with `0` or `-1` simplify; anything else is a `Bit` atom with its
    /// commutative operands sorted. A fractional constant operand or a
    /// negative constant shift count (Python raises) gives the undefined
    /// value.
    pub fn bitwise(op: BitOp, a: &Expr, b: &Expr) -> Expr {
        let (a, b) = (a.numeric(), b.numeric());
        if a.is_undefined() || b.is_undefined() {
            return Expr::undefined();
        }
        let constant = |e: &Expr| e.poly().as_constant();
        if [&a, &b]
            .iter()
            .any(|e| constant(e).is_some_and(|c| !c.is_int()))
        {
            return Expr::undefined();
        }
        let (ca, cb) = (a.as_int(), b.as_int());
        if let (Some(x), Some(y)) = (ca, cb) {
            return match op.apply(i128::from(x), i128::from(y)).map(i64::try_from) {
                Some(Ok(v)) => Expr::int(v),
                _ => Expr::undefined(),
            };
        }
        match (op, cb) {
            (BitOp::Shl | BitOp::Shr, Some(k)) if k < 0 => return Expr::undefined(),
            (BitOp::Shl, Some(k)) if k < 63 => return Expr::mul(&a, &Expr::int(1 << k)),
            (BitOp::Shr, Some(k)) if k < 63 => return Expr::floordiv(&a, &Expr::int(1 << k)),
            _ => {}
        }
        if matches!(op, BitOp::Shl | BitOp::Shr) && ca == Some(0) {
            return Expr::int(0);
        }
        // Commutative operands in canonical order, a constant last.
        let key = |e: &Expr| (e.as_int().is_some(), e.clone());
        let (a, b) = match op {
            BitOp::And | BitOp::Or | BitOp::Xor if key(&b) < key(&a) => (b, a),
            _ => (a, b),
        };
        match (op, b.as_int()) {
            (BitOp::And, Some(0)) => return Expr::int(0),
            (BitOp::And, Some(-1)) | (BitOp::Or | BitOp::Xor, Some(0)) => return a,
            (BitOp::Or, Some(-1)) => return Expr::int(-1),
            _ => {}
        }
        Expr::from_atom(Atom::Bit(op, vec![a, b]))
    }

    /// Python's `~a` on an integer: `-a - 1`.
    pub fn invert(a: &Expr) -> Expr {
        Expr::sub(&Expr::neg(a), &Expr::int(1))
    }

    /// An opaque function call.
    pub fn call(name: &str, args: Vec<Expr>) -> Expr {
        if args.iter().any(Expr::is_undefined) {
            return Expr::undefined();
        }
        Expr::from_atom(Atom::Call(Arc::from(name), args))
    }

    /// An opaque subscript `name[args]`.
    pub fn index(name: &str, args: Vec<Expr>) -> Expr {
        if args.iter().any(Expr::is_undefined) {
            return Expr::undefined();
        }
        let args = args.iter().map(Expr::numeric).collect();
        Expr::from_atom(Atom::Index(Arc::from(name), args))
    }

    /// An integer cast such as `int(x)`: truncation toward zero.
    pub fn cast_int(a: &Expr) -> Expr {
        let a = a.numeric();
        if a.is_undefined() || a.poly().is_integer_valued() {
            return a;
        }
        if let Some(c) = a.poly().as_constant() {
            let t = if c.is_negative() { c.ceil() } else { c.floor() };
            return Expr::rat(Rat::int(t));
        }
        Expr::call("int", vec![a])
    }

    /// Comparison `a <= b`.
    pub fn le(a: &Expr, b: &Expr) -> Expr {
        Expr::rel2(Rel::Le, a, b)
    }

    /// Comparison `a < b`.
    pub fn lt(a: &Expr, b: &Expr) -> Expr {
        Expr::rel2(Rel::Lt, a, b)
    }

    /// Comparison `a >= b`.
    pub fn ge(a: &Expr, b: &Expr) -> Expr {
        Expr::rel2(Rel::Le, b, a)
    }

    /// Comparison `a > b`.
    pub fn gt(a: &Expr, b: &Expr) -> Expr {
        Expr::rel2(Rel::Lt, b, a)
    }

    /// Equality `a == b`.
    pub fn eq(a: &Expr, b: &Expr) -> Expr {
        Expr::rel2(Rel::Eq, a, b)
    }

    /// Inequality `a != b`.
    pub fn ne(a: &Expr, b: &Expr) -> Expr {
        Expr::rel2(Rel::Ne, a, b)
    }

    fn rel2(r: Rel, a: &Expr, b: &Expr) -> Expr {
        let d = Expr::sub(a, b);
        if d.is_undefined() {
            return d;
        }
        Expr::rel_poly(r, d.poly())
    }

    pub(crate) fn rel_poly(r: Rel, p: &Poly) -> Expr {
        rel_normal(r, p).unwrap_or_else(Expr::undefined)
    }

    /// `e + k`, moving the constant into a top-level `Min`/`Max`
    /// (`Min(N - 1, 3) + 1` becomes `Min(N, 4)`).
    pub fn add_into_minmax(e: &Expr, k: i64) -> Expr {
        let p = e.poly();
        let c = p.constant_term();
        if let [(m, one)] = p.non_constant() {
            if *one == Rat::ONE {
                if let [(a @ (Atom::Min(v) | Atom::Max(v)), 1)] = m.factors.as_slice() {
                    let Some(shift) = c.add(Rat::int(k as i128)) else {
                        return Expr::undefined();
                    };
                    let args = v.iter().map(|x| Expr::add(x, &Expr::rat(shift))).collect();
                    return if matches!(a, Atom::Min(_)) {
                        Expr::min(args)
                    } else {
                        Expr::max(args)
                    };
                }
            }
        }
        Expr::add(e, &Expr::int(k))
    }

    /// An upper bound of `self` that mentions none of `names`, from the
    /// minima and maxima in it: `c * Min(a, b) + r` (for `c > 0`) is at most
    /// `c * a + r` and `c * b + r`, and `-c * Max(a, b) + r` at most
    /// `-c * a + r` and `-c * b + r`; the bound is the minimum of those that
    /// are free of `names` once simplified (`Min(t + 4, N) - t` is at most
    /// `4`). `None` where no such bound is found.
    pub fn upper_bound_free_of(&self, names: &BTreeSet<String>) -> Option<Expr> {
        if self.free_symbols().is_disjoint(names) {
            return Some(self.clone());
        }
        let terms = self.poly().non_constant();
        for (mono, coef) in terms {
            let [(atom, 1)] = mono.factors.as_slice() else {
                continue;
            };
            let args = match atom {
                Atom::Min(v) if !coef.is_negative() => v,
                Atom::Max(v) if coef.is_negative() => v,
                _ => continue,
            };
            let c = Expr::rat(*coef);
            let rest = Expr::sub(self, &Expr::mul(&c, &Expr::from_atom(atom.clone())));
            let bounds: Vec<Expr> = args
                .iter()
                .filter_map(|a| Expr::add(&Expr::mul(&c, a), &rest).upper_bound_free_of(names))
                .collect();
            if !bounds.is_empty() {
                return Some(Expr::min(bounds));
            }
        }
        None
    }

    /// Logical negation.
    pub fn not(a: &Expr) -> Expr {
        let a = a.boolean();
        match &*a.0 {
            Node::Bool(b) => Expr::bool(!b),
            Node::Undefined => a,
            Node::Rel(r, p) => {
                let (r2, q) = match r {
                    Rel::Eq => (Rel::Ne, Some(p.clone())),
                    Rel::Ne => (Rel::Eq, Some(p.clone())),
                    Rel::Le => (Rel::Lt, p.neg()),
                    Rel::Lt => (Rel::Le, p.neg()),
                };
                match q {
                    Some(q) => Expr::rel_poly(r2, &q),
                    None => Expr::undefined(),
                }
            }
            Node::And(v) => Expr::or(v.iter().map(Expr::not).collect()),
            Node::Or(v) => Expr::and(v.iter().map(Expr::not).collect()),
            Node::Num(_) => Expr::undefined(),
        }
    }

    /// Conjunction.
    pub fn and(args: Vec<Expr>) -> Expr {
        and_or(args, true)
    }

    /// Disjunction.
    pub fn or(args: Vec<Expr>) -> Expr {
        and_or(args, false)
    }
}

fn and_or(args: Vec<Expr>, is_and: bool) -> Expr {
    let mut flat = Vec::with_capacity(args.len());
    for a in args {
        let a = a.boolean();
        match &*a.0 {
            Node::Undefined => return a,
            Node::Bool(b) => {
                if *b != is_and {
                    return Expr::bool(!is_and);
                }
            }
            Node::And(v) if is_and => flat.extend(v.iter().cloned()),
            Node::Or(v) if !is_and => flat.extend(v.iter().cloned()),
            _ => flat.push(a),
        }
    }
    flat.sort();
    flat.dedup();
    for e in &flat {
        if matches!(&*e.0, Node::Rel(..)) && flat.binary_search(&Expr::not(e)).is_ok() {
            return Expr::bool(!is_and);
        }
    }
    match flat.len() {
        0 => Expr::bool(is_and),
        1 => flat.pop().unwrap_or_else(|| Expr::bool(is_and)),
        _ => mk(if is_and {
            Node::And(flat)
        } else {
            Node::Or(flat)
        }),
    }
}

fn min_max(args: Vec<Expr>, is_max: bool) -> Expr {
    let mut flat: Vec<Expr> = Vec::with_capacity(args.len());
    for a in args {
        let a = a.numeric();
        if a.is_undefined() {
            return a;
        }
        match a.poly().as_atom() {
            Some(Atom::Max(v)) if is_max => flat.extend(v.iter().cloned()),
            Some(Atom::Min(v)) if !is_max => flat.extend(v.iter().cloned()),
            _ => flat.push(a),
        }
    }
    // Drop operands dominated by another operand that differs by a constant.
    let mut keep = vec![true; flat.len()];
    for i in 0..flat.len() {
        if !keep[i] {
            continue;
        }
        for j in 0..flat.len() {
            if i == j || !keep[j] {
                continue;
            }
            let Some(d) = flat[i].poly().sub(flat[j].poly()) else {
                continue;
            };
            if let Some(c) = d.as_constant() {
                // d = flat[i] - flat[j]
                let drop_i = if is_max {
                    c.is_negative() || (c.is_zero() && i > j)
                } else {
                    !(c.is_negative() || (c.is_zero() && i < j))
                };
                if drop_i {
                    keep[i] = false;
                    break;
                } else {
                    keep[j] = false;
                }
            }
        }
    }
    let mut out: Vec<Expr> = flat
        .into_iter()
        .zip(keep)
        .filter_map(|(e, k)| k.then_some(e))
        .collect();
    out.sort();
    out.dedup();
    match out.len() {
        0 => Expr::undefined(),
        1 => out.pop().unwrap_or_else(Expr::undefined),
        _ => Expr::from_atom(if is_max {
            Atom::Max(out)
        } else {
            Atom::Min(out)
        }),
    }
}

/// Splits an integer-coefficient polynomial `q` as `q = d * ext + r` with every
/// coefficient of `r` (constant included) in `[0, d)`.
fn reduce_mod(q: &Poly, d: i128) -> Option<(Poly, Poly)> {
    let mut ext = Vec::new();
    let mut rem = Vec::new();
    for (m, c) in &q.terms {
        let n = c.num();
        let (qq, rr) = (n.div_euclid(d), n.rem_euclid(d));
        if qq != 0 {
            ext.push((m.clone(), Rat::int(qq)));
        }
        if rr != 0 {
            rem.push((m.clone(), Rat::int(rr)));
        }
    }
    Some((Poly { terms: ext }, Poly { terms: rem }))
}

/// Divides the non-constant coefficients of a reduced `r` (mod `d`) by their
/// common divisor with `d`. Returns `(g, r', d')` with `r = g * r' + (c mod g)`.
fn gcd_reduce(r: &Poly, d: i128) -> Option<(i128, Poly, i128, i128)> {
    let g = crate::rational::gcd_i128(r.content(), d);
    let c = r.constant_term().num();
    if g <= 1 {
        return Some((1, r.clone(), d, 0));
    }
    let mut terms = Vec::with_capacity(r.terms.len());
    for (m, k) in r.non_constant() {
        terms.push((m.clone(), Rat::int(k.num() / g)));
    }
    let mut p = Poly { terms };
    p = p.add_const(Rat::int(c.div_euclid(g)))?;
    Some((g, p, d / g, c.rem_euclid(g)))
}

/// The key used to choose between a reduced residue and its reflection.
fn residue_key(r: &Poly) -> (Vec<i128>, i128) {
    (
        r.non_constant().iter().map(|(_, c)| c.num()).collect(),
        r.constant_term().num(),
    )
}

/// Canonical floor of an integer polynomial over a positive integer:
/// `floor(q / d) = ext + sign * floor(r / d)` with `r` reduced.
struct QuasiForm {
    ext: Poly,
    sign: i128,
    r: Poly,
    d: i128,
}

/// Computes the canonical [`QuasiForm`] of `floor(q / d)`: coefficients are
/// reduced into `[0, d)`, a common factor with `d` is divided out, and of the
/// residue and its reflection `floor(r/d) = -floor((d - 1 - r)/d)` the one with
/// the smaller coefficient vector is kept.
fn quasi_floor(q: &Poly, d: i128) -> Option<QuasiForm> {
    let (ext, r) = reduce_mod(q, d)?;
    // floor((g*r1 + rem)/(g*d1)) = floor(r1/d1) because r1 is integer-valued.
    let (_, r1, d1, _) = gcd_reduce(&r, d)?;
    if r1.non_constant().is_empty() {
        let c = r1.constant_term().num().div_euclid(d1);
        return Some(QuasiForm {
            ext: ext.add_const(Rat::int(c))?,
            sign: 1,
            r: Poly::zero(),
            d: d1,
        });
    }
    // Reflection: floor(r/d) = -floor((-r + d - 1)/d).
    let refl = r1.neg()?.add_const(Rat::int(d1 - 1))?;
    let (ext2, r2) = reduce_mod(&refl, d1)?;
    if residue_key(&r2) < residue_key(&r1) {
        Some(QuasiForm {
            ext: ext.sub(&ext2)?,
            sign: -1,
            r: r2,
            d: d1,
        })
    } else {
        Some(QuasiForm {
            ext,
            sign: 1,
            r: r1,
            d: d1,
        })
    }
}

/// Integer form of a polynomial whose monomials are integer-valued:
/// `(d, q)` with `p = q / d` and `q` integer-coefficient.
pub(crate) fn integer_form(p: &Poly) -> Option<(i128, Poly)> {
    let d = p.denominator_lcm()?;
    Some((d, p.scale(Rat::int(d))?))
}

fn floor_poly(p: &Poly) -> Option<Poly> {
    if let Some(c) = p.as_constant() {
        return Some(Poly::constant(Rat::int(c.floor())));
    }
    if p.monos_integer_valued() {
        let (d, q) = integer_form(p)?;
        if d == 1 {
            return Some(p.clone());
        }
        let f = quasi_floor(&q, d)?;
        if f.r.terms.is_empty() {
            return Some(f.ext);
        }
        let inner = f.r.scale(Rat::new(1, f.d)?)?;
        let atom = Poly::atom(Atom::Floor(Expr::from_poly(inner)));
        return f.ext.add(&atom.scale(Rat::int(f.sign))?);
    }
    // General argument: pull out integer parts of integer-valued terms.
    let mut ext = Vec::new();
    let mut rest = Vec::new();
    for (m, c) in &p.terms {
        if m.is_integer_valued() {
            let f = c.floor();
            if f != 0 {
                ext.push((m.clone(), Rat::int(f)));
            }
            let fr = c.sub(Rat::int(f))?;
            if !fr.is_zero() {
                rest.push((m.clone(), fr));
            }
        } else {
            rest.push((m.clone(), *c));
        }
    }
    let rest = Poly::from_terms(rest)?;
    let ext = Poly::from_terms(ext)?;
    if let Some(c) = rest.as_constant() {
        return ext.add_const(Rat::int(c.floor()));
    }
    ext.add(&Poly::atom(Atom::Floor(Expr::from_poly(rest))))
}

fn mod_poly(a: &Poly, b: &Poly) -> Option<Poly> {
    let generic = |a: &Poly, b: &Poly| {
        Poly::atom(Atom::Mod(
            Expr::from_poly(a.clone()),
            Expr::from_poly(b.clone()),
        ))
    };
    let Some(dc) = b.as_constant() else {
        if a.is_empty_or_zero() {
            return Some(Poly::zero());
        }
        if a == b {
            return Some(Poly::zero());
        }
        return Some(generic(a, b));
    };
    if dc.is_zero() {
        return None;
    }
    if let Some(ac) = a.as_constant() {
        let q = ac.div(dc)?.floor();
        return Some(Poly::constant(ac.sub(dc.mul(Rat::int(q))?)?));
    }
    if dc.is_negative() {
        // Mod(a, -d) = -Mod(-a, d)
        return mod_poly(&a.neg()?, &b.neg()?)?.neg();
    }
    if !dc.is_int() || !a.is_integer_valued() {
        return Some(generic(a, b));
    }
    let d = dc.num();
    if d == 1 {
        return Some(Poly::zero());
    }
    let (_, r) = reduce_mod(a, d)?;
    let (g, r1, d1, rem) = gcd_reduce(&r, d)?;
    // Mod(a, d) = g * Mod(r1, d1) + rem
    let inner = if r1.non_constant().is_empty() {
        Poly::constant(Rat::int(r1.constant_term().num().rem_euclid(d1)))
    } else {
        let refl = r1.neg()?.add_const(Rat::int(d1 - 1))?;
        let (_, r2) = reduce_mod(&refl, d1)?;
        let atom = |r: &Poly| {
            Poly::atom(Atom::Mod(
                Expr::from_poly(r.clone()),
                Expr::rat(Rat::int(d1)),
            ))
        };
        if residue_key(&r2) < residue_key(&r1) {
            // Mod(r1, d) = d - 1 - Mod(-r1 + d - 1, d)
            atom(&r2).neg()?.add_const(Rat::int(d1 - 1))?
        } else {
            atom(&r1)
        }
    };
    inner.scale(Rat::int(g))?.add_const(Rat::int(rem))
}

impl Poly {
    fn is_empty_or_zero(&self) -> bool {
        self.terms.is_empty()
    }
}

fn rel_normal(r: Rel, p: &Poly) -> Option<Expr> {
    if let Some(c) = p.as_constant() {
        let v = match r {
            Rel::Le => c.is_negative() || c.is_zero(),
            Rel::Lt => c.is_negative(),
            Rel::Eq => c.is_zero(),
            Rel::Ne => !c.is_zero(),
        };
        return Some(Expr::bool(v));
    }
    let (_, mut q) = integer_form(p)?;
    let mut r = r;
    if q.monos_integer_valued() {
        if r == Rel::Lt {
            q = q.add_const(Rat::ONE)?;
            r = Rel::Le;
        }
        let g = q.content();
        let c = q.constant_term();
        if g > 1 {
            let mut terms = Vec::with_capacity(q.terms.len());
            for (m, k) in q.non_constant() {
                terms.push((m.clone(), Rat::int(k.num() / g)));
            }
            let nc = match r {
                Rel::Le => Rat::int(Rat::new(c.num(), g)?.ceil()),
                _ => {
                    if c.num() % g != 0 {
                        return Some(Expr::bool(r == Rel::Ne));
                    }
                    Rat::int(c.num() / g)
                }
            };
            q = Poly { terms }.add_const(nc)?;
        }
    } else {
        let g = q
            .terms
            .iter()
            .fold(0, |g, (_, k)| crate::rational::gcd_i128(g, k.num()));
        if g > 1 {
            q = q.scale(Rat::new(1, g)?)?;
        }
    }
    if matches!(r, Rel::Eq | Rel::Ne) && q.leading_negative() {
        q = q.neg()?;
    }
    Some(mk(Node::Rel(r, q)))
}

impl std::ops::Add for &Expr {
    type Output = Expr;
    fn add(self, o: &Expr) -> Expr {
        Expr::add(self, o)
    }
}

impl std::ops::Sub for &Expr {
    type Output = Expr;
    fn sub(self, o: &Expr) -> Expr {
        Expr::sub(self, o)
    }
}

impl std::ops::Mul for &Expr {
    type Output = Expr;
    fn mul(self, o: &Expr) -> Expr {
        Expr::mul(self, o)
    }
}

impl std::ops::Neg for &Expr {
    type Output = Expr;
    fn neg(self) -> Expr {
        Expr::neg(self)
    }
}

impl From<i64> for Expr {
    fn from(v: i64) -> Expr {
        Expr::int(v)
    }
}
