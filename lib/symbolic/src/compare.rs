//! Three-valued comparisons under assumptions about the symbols.

use std::collections::BTreeSet;

use crate::expr::{Atom, Expr, Node, Rel};
use crate::poly::Poly;
use crate::rational::Rat;

/// One end of an interval: an exact rational `(numerator, denominator)`,
/// or `None` when unbounded.
pub type RationalBound = Option<(i128, i128)>;

/// A three-valued truth value.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Tri {
    /// Holds for every valuation satisfying the assumptions.
    True,
    /// Fails for every valuation satisfying the assumptions.
    False,
    /// Could not be decided.
    Unknown,
}

impl Tri {
    /// Conjunction.
    pub fn and(self, o: Tri) -> Tri {
        match (self, o) {
            (Tri::False, _) | (_, Tri::False) => Tri::False,
            (Tri::True, Tri::True) => Tri::True,
            _ => Tri::Unknown,
        }
    }

    /// Disjunction.
    pub fn or(self, o: Tri) -> Tri {
        match (self, o) {
            (Tri::True, _) | (_, Tri::True) => Tri::True,
            (Tri::False, Tri::False) => Tri::False,
            _ => Tri::Unknown,
        }
    }

    /// Negation.
    #[allow(clippy::should_implement_trait)]
    pub fn not(self) -> Tri {
        match self {
            Tri::True => Tri::False,
            Tri::False => Tri::True,
            Tri::Unknown => Tri::Unknown,
        }
    }

    /// Whether this is [`Tri::True`].
    pub fn is_true(self) -> bool {
        self == Tri::True
    }

    /// Whether this is [`Tri::False`].
    pub fn is_false(self) -> bool {
        self == Tri::False
    }
}

/// What is known about the symbols: all are integers; some have inclusive
/// lower and/or upper bounds (constants or expressions in other symbols).
///
/// [`Assumptions::default`] assumes nothing beyond integrality.
/// [`Assumptions::for_array_sizes`] makes the symbols of array shapes
/// positive, which is what DaCe assumes for sizes; map parameters are added
/// with [`Assumptions::with_range`]. Later declarations may refer to earlier
/// ones and are eliminated first.
#[derive(Clone, Debug, Default)]
pub struct Assumptions {
    bounds: Vec<(String, Option<Expr>, Option<Expr>)>,
    default_lower: Option<i64>,
}

/// Recursion limit of the provers.
const DEPTH: usize = 12;

impl Assumptions {
    /// No assumptions beyond integrality.
    pub fn new() -> Assumptions {
        Assumptions::default()
    }

    /// Every symbol without an explicit lower bound is at least 1.
    pub fn all_positive() -> Assumptions {
        Assumptions {
            bounds: Vec::new(),
            default_lower: Some(1),
        }
    }

    /// The free symbols of the given array sizes are positive.
    pub fn for_array_sizes<'a>(shapes: impl IntoIterator<Item = &'a Expr>) -> Assumptions {
        let mut names = BTreeSet::new();
        for s in shapes {
            names.extend(s.free_symbols());
        }
        names
            .into_iter()
            .fold(Assumptions::new(), |a, n| a.positive(&n))
    }

    fn set(mut self, name: &str, lo: Option<Expr>, hi: Option<Expr>) -> Assumptions {
        if let Some(e) = self.bounds.iter_mut().find(|b| b.0 == name) {
            if lo.is_some() {
                e.1 = lo;
            }
            if hi.is_some() {
                e.2 = hi;
            }
            return self;
        }
        self.bounds.push((name.to_string(), lo, hi));
        self
    }

    /// `name >= 1`.
    pub fn positive(self, name: &str) -> Assumptions {
        self.set(name, Some(Expr::int(1)), None)
    }

    /// `name >= 0`.
    pub fn nonnegative(self, name: &str) -> Assumptions {
        self.set(name, Some(Expr::int(0)), None)
    }

    /// `name >= lo`.
    pub fn with_lower(self, name: &str, lo: Expr) -> Assumptions {
        self.set(name, Some(lo), None)
    }

    /// `name <= hi`.
    pub fn with_upper(self, name: &str, hi: Expr) -> Assumptions {
        self.set(name, None, Some(hi))
    }

    /// `lo <= name <= hi` (both inclusive).
    pub fn with_range(self, name: &str, lo: Expr, hi: Expr) -> Assumptions {
        self.set(name, Some(lo), Some(hi))
    }

    /// The declared inclusive bounds of a symbol.
    pub fn bounds(&self, name: &str) -> (Option<Expr>, Option<Expr>) {
        match self.bounds.iter().find(|b| b.0 == name) {
            Some((_, lo, hi)) => (
                lo.clone().or_else(|| self.default_lower.map(Expr::int)),
                hi.clone(),
            ),
            None => (self.default_lower.map(Expr::int), None),
        }
    }

    /// Whether `e >= 0` can be proven.
    pub fn prove_nonnegative(&self, e: &Expr) -> bool {
        e.is_numeric() && self.nonneg(e.poly(), 0)
    }

    fn nonneg(&self, p: &Poly, depth: usize) -> bool {
        if let Some(c) = p.as_constant() {
            return !c.is_negative();
        }
        if depth > DEPTH {
            return false;
        }
        if let Ext::Fin(lo) = self.interval_poly(p, depth).lo {
            if !lo.is_negative() {
                return true;
            }
        }
        // Relax floor and modulo terms to polynomial bounds in the safe direction.
        if let Some(q) = relax(p) {
            if self.nonneg(&q, depth + 1) {
                return true;
            }
        }
        // Case split on a Min/Max term.
        for (m, c) in p.non_constant() {
            if let [(a @ (Atom::Min(args) | Atom::Max(args)), 1)] = m.factors.as_slice() {
                let Some(rest) = p.sub(&Poly::term(m.clone(), *c)) else {
                    return false;
                };
                let all = matches!(a, Atom::Min(_)) != c.is_negative();
                let mut results = args.iter().map(|x| {
                    x.poly()
                        .scale(*c)
                        .and_then(|t| t.add(&rest))
                        .is_some_and(|q| self.nonneg(&q, depth + 1))
                });
                return if all {
                    results.all(|b| b)
                } else {
                    results.any(|b| b)
                };
            }
        }
        // Eliminate symbols with symbolic bounds, innermost first.
        for (name, lo, hi) in self.bounds.iter().rev() {
            let Some((coef, rest)) = p.linear_in(name) else {
                continue;
            };
            if coef.terms.is_empty() {
                continue;
            }
            let bound = if self.nonneg(&coef, depth + 1) {
                lo.clone().or_else(|| self.default_lower.map(Expr::int))
            } else if coef.neg().is_some_and(|n| self.nonneg(&n, depth + 1)) {
                hi.clone()
            } else {
                None
            };
            if let Some(b) = bound {
                if let Some(q) = coef.mul(b.poly()).and_then(|t| t.add(&rest)) {
                    return self.nonneg(&q, depth + 1);
                }
            }
        }
        false
    }

    fn sym_interval(&self, name: &str, depth: usize) -> Interval {
        let (lo, hi) = self.bounds(name);
        let lo = match lo {
            Some(e) if depth < DEPTH => self.interval_poly(e.poly(), depth + 1).lo,
            _ => Ext::NegInf,
        };
        let hi = match hi {
            Some(e) if depth < DEPTH => self.interval_poly(e.poly(), depth + 1).hi,
            _ => Ext::PosInf,
        };
        Interval { lo, hi }
    }

    fn interval_atom(&self, a: &Atom, depth: usize) -> Interval {
        let top = Interval::top();
        if depth > DEPTH {
            return top;
        }
        match a {
            Atom::Sym(s) => self.sym_interval(s, depth),
            Atom::Floor(e) => {
                let i = self.interval_poly(e.poly(), depth + 1);
                Interval {
                    lo: i.lo.map(|r| Rat::int(r.floor())),
                    hi: i.hi.map(|r| Rat::int(r.floor())),
                }
            }
            Atom::Mod(x, y) => match y.poly().as_constant() {
                Some(d) if !d.is_negative() && !d.is_zero() => {
                    let full = Interval {
                        lo: Ext::Fin(Rat::ZERO),
                        hi: Ext::Fin(if d.is_int() && x.poly().is_integer_valued() {
                            Rat::int(d.num() - 1)
                        } else {
                            d
                        }),
                    };
                    let xi = self.interval_poly(x.poly(), depth + 1);
                    if xi.lo >= Ext::Fin(Rat::ZERO) && xi.hi < Ext::Fin(d) {
                        xi
                    } else if xi.lo >= Ext::Fin(Rat::ZERO) {
                        Interval {
                            lo: full.lo,
                            hi: full.hi.min(xi.hi),
                        }
                    } else {
                        full
                    }
                }
                _ => top,
            },
            Atom::Min(v) | Atom::Max(v) => {
                let is = v.iter().map(|e| self.interval_poly(e.poly(), depth + 1));
                let mut acc: Option<Interval> = None;
                for i in is {
                    acc = Some(match acc {
                        None => i,
                        Some(a2) if matches!(a, Atom::Min(_)) => Interval {
                            lo: a2.lo.min(i.lo),
                            hi: a2.hi.min(i.hi),
                        },
                        Some(a2) => Interval {
                            lo: a2.lo.max(i.lo),
                            hi: a2.hi.max(i.hi),
                        },
                    });
                }
                acc.unwrap_or(top)
            }
            Atom::Abs(e) => {
                let i = self.interval_poly(e.poly(), depth + 1);
                let zero = Ext::Fin(Rat::ZERO);
                if i.lo >= zero {
                    i
                } else if i.hi <= zero {
                    i.neg()
                } else {
                    Interval {
                        lo: zero,
                        hi: i.hi.max(i.lo.neg()),
                    }
                }
            }
            Atom::Group(e) => self.interval_poly(e.poly(), depth + 1),
            Atom::Truth(_) => Interval {
                lo: Ext::Fin(Rat::ZERO),
                hi: Ext::Fin(Rat::ONE),
            },
            Atom::Pow(..) | Atom::Call(..) | Atom::Index(..) | Atom::Bit(..) => top,
        }
    }

    fn interval_poly(&self, p: &Poly, depth: usize) -> Interval {
        let mut acc = Interval::point(Rat::ZERO);
        for (m, c) in &p.terms {
            let mut t = Interval::point(*c);
            for (a, e) in &m.factors {
                let ai = self.interval_atom(a, depth);
                t = t.mul(&ai.pow(*e));
            }
            acc = acc.add(&t);
        }
        acc
    }

    /// Numeric interval enclosing the values of a numeric expression, as
    /// `(lower, upper)` rationals `(num, den)`; `None` for an infinite end.
    pub fn interval(&self, e: &Expr) -> (RationalBound, RationalBound) {
        let i = self.interval_poly(e.poly(), 0);
        let f = |x: Ext| match x {
            Ext::Fin(r) => Some((r.num(), r.den())),
            _ => None,
        };
        (f(i.lo), f(i.hi))
    }

    /// Decides a boolean expression under these assumptions.
    pub fn decide(&self, cond: &Expr) -> Tri {
        match cond.node() {
            Node::Bool(b) => {
                if *b {
                    Tri::True
                } else {
                    Tri::False
                }
            }
            Node::Undefined => Tri::Unknown,
            Node::Num(_) => compare_eq(cond, &Expr::int(0), self).not(),
            Node::Rel(r, p) => {
                let e = Expr::from_poly(p.clone());
                let zero = Expr::int(0);
                match r {
                    Rel::Le => compare_le(&e, &zero, self),
                    Rel::Lt => compare_le(&zero, &e, self).not(),
                    Rel::Eq => compare_eq(&e, &zero, self),
                    Rel::Ne => compare_eq(&e, &zero, self).not(),
                }
            }
            Node::And(v) => v.iter().fold(Tri::True, |a, x| a.and(self.decide(x))),
            Node::Or(v) => v.iter().fold(Tri::False, |a, x| a.or(self.decide(x))),
        }
    }

    /// `Min(a, b)`, resolved when the order is decidable.
    pub fn min(&self, a: &Expr, b: &Expr) -> Expr {
        match compare_le(a, b, self) {
            Tri::True => a.clone(),
            Tri::False => b.clone(),
            Tri::Unknown => Expr::min(vec![a.clone(), b.clone()]),
        }
    }

    /// `Max(a, b)`, resolved when the order is decidable.
    pub fn max(&self, a: &Expr, b: &Expr) -> Expr {
        match compare_le(a, b, self) {
            Tri::True => b.clone(),
            Tri::False => a.clone(),
            Tri::Unknown => Expr::max(vec![a.clone(), b.clone()]),
        }
    }

    /// Simplifies `Min`/`Max` atoms by dropping operands that are provably
    /// never selected.
    pub fn simplify(&self, e: &Expr) -> Expr {
        let mut f = |x: &Expr| self.simplify(x);
        match e.node() {
            Node::Num(p) => {
                let mut acc = Expr::int(0);
                for (m, c) in &p.terms {
                    let mut t = Expr::rat(*c);
                    for (a, k) in &m.factors {
                        let base = match a {
                            Atom::Min(v) | Atom::Max(v) => {
                                let is_min = matches!(a, Atom::Min(_));
                                let args: Vec<Expr> = v.iter().map(&mut f).collect();
                                let mut keep: Vec<Expr> = Vec::new();
                                for x in args {
                                    let dominated = keep.iter().any(|y| {
                                        if is_min {
                                            compare_le(y, &x, self).is_true()
                                        } else {
                                            compare_le(&x, y, self).is_true()
                                        }
                                    });
                                    if dominated {
                                        continue;
                                    }
                                    keep.retain(|y| {
                                        !(if is_min {
                                            compare_le(&x, y, self).is_true()
                                        } else {
                                            compare_le(y, &x, self).is_true()
                                        })
                                    });
                                    keep.push(x);
                                }
                                if is_min {
                                    Expr::min(keep)
                                } else {
                                    Expr::max(keep)
                                }
                            }
                            _ => a.map(&mut f),
                        };
                        t = Expr::mul(&t, &Expr::pow(&base, &Expr::int(*k as i64)));
                    }
                    acc = Expr::add(&acc, &t);
                }
                acc
            }
            _ => e.clone(),
        }
    }
}

/// A polynomial below `p` with `floor`/`Mod` terms replaced by bounds:
/// `(q - d + 1)/d <= floor(q/d) <= q/d` and `0 <= Mod(x, d) <= d - 1`.
fn relax(p: &Poly) -> Option<Poly> {
    let mut changed = false;
    let mut out = Poly::zero();
    for (m, c) in &p.terms {
        let repl = match m.factors.as_slice() {
            [(Atom::Floor(e), 1)] if e.poly().monos_integer_valued() => {
                let (d, q) = crate::expr::integer_form(e.poly())?;
                let q = if c.is_negative() {
                    q
                } else {
                    q.add_const(Rat::int(1 - d))?
                };
                Some(q.scale(Rat::new(1, d)?)?)
            }
            [(Atom::Mod(x, y), 1)] if x.is_integer_valued() => match y.poly().as_constant() {
                Some(d) if d.is_int() && !d.is_negative() && !d.is_zero() => {
                    Some(Poly::constant(if c.is_negative() {
                        d.sub(Rat::ONE)?
                    } else {
                        Rat::ZERO
                    }))
                }
                _ => None,
            },
            _ => None,
        };
        let t = match repl {
            Some(r) => {
                changed = true;
                r.scale(*c)?
            }
            None => Poly::term(m.clone(), *c),
        };
        out = out.add(&t)?;
    }
    changed.then_some(out)
}

/// Three-valued `a <= b` under the assumptions.
pub fn compare_le(a: &Expr, b: &Expr, asm: &Assumptions) -> Tri {
    if !a.is_numeric() || !b.is_numeric() {
        return Tri::Unknown;
    }
    let d = Expr::sub(b, a);
    if d.is_undefined() {
        return Tri::Unknown;
    }
    if asm.prove_nonnegative(&d) {
        return Tri::True;
    }
    // a > b: for integers, a - b - 1 >= 0.
    let neg = Expr::neg(&d);
    let strict = if d.is_integer_valued() {
        Expr::sub(&neg, &Expr::int(1))
    } else {
        return match asm.interval_poly(d.poly(), 0).hi {
            Ext::Fin(h) if h.is_negative() => Tri::False,
            Ext::NegInf => Tri::False,
            _ => Tri::Unknown,
        };
    };
    if asm.prove_nonnegative(&strict) {
        Tri::False
    } else {
        Tri::Unknown
    }
}

/// Three-valued `a < b` under the assumptions.
pub fn compare_lt(a: &Expr, b: &Expr, asm: &Assumptions) -> Tri {
    compare_le(b, a, asm).not()
}

/// Three-valued `a == b` under the assumptions.
pub fn compare_eq(a: &Expr, b: &Expr, asm: &Assumptions) -> Tri {
    if !a.is_numeric() || !b.is_numeric() {
        if a == b && !a.is_undefined() {
            return Tri::True;
        }
        return Tri::Unknown;
    }
    let d = Expr::sub(a, b);
    if d.is_undefined() {
        return Tri::Unknown;
    }
    if let Some(c) = d.poly().as_constant() {
        return if c.is_zero() { Tri::True } else { Tri::False };
    }
    let lt = compare_le(a, b, asm);
    let gt = compare_le(b, a, asm);
    match (lt, gt) {
        (Tri::True, Tri::True) => Tri::True,
        (Tri::False, _) | (_, Tri::False) => Tri::False,
        _ => Tri::Unknown,
    }
}

/// An extended rational: `-inf`, a finite value or `+inf`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Ext {
    NegInf,
    Fin(Rat),
    PosInf,
}

impl Ext {
    fn map(self, f: impl Fn(Rat) -> Rat) -> Ext {
        match self {
            Ext::Fin(r) => Ext::Fin(f(r)),
            x => x,
        }
    }

    fn neg(self) -> Ext {
        match self {
            Ext::NegInf => Ext::PosInf,
            Ext::PosInf => Ext::NegInf,
            Ext::Fin(r) => r.neg().map(Ext::Fin).unwrap_or(Ext::PosInf),
        }
    }

    fn sign(self) -> i32 {
        match self {
            Ext::NegInf => -1,
            Ext::PosInf => 1,
            Ext::Fin(r) => {
                if r.is_zero() {
                    0
                } else if r.is_negative() {
                    -1
                } else {
                    1
                }
            }
        }
    }
}

/// A closed interval of extended rationals.
#[derive(Clone, Copy, Debug)]
struct Interval {
    lo: Ext,
    hi: Ext,
}

impl Interval {
    fn top() -> Interval {
        Interval {
            lo: Ext::NegInf,
            hi: Ext::PosInf,
        }
    }

    fn point(r: Rat) -> Interval {
        Interval {
            lo: Ext::Fin(r),
            hi: Ext::Fin(r),
        }
    }

    fn neg(self) -> Interval {
        Interval {
            lo: self.hi.neg(),
            hi: self.lo.neg(),
        }
    }

    fn add(&self, o: &Interval) -> Interval {
        let add = |a: Ext, b: Ext, low: bool| match (a, b) {
            (Ext::Fin(x), Ext::Fin(y)) => match x.add(y) {
                Some(z) => Ext::Fin(z),
                None if low => Ext::NegInf,
                None => Ext::PosInf,
            },
            (Ext::NegInf, _) | (_, Ext::NegInf) if low => Ext::NegInf,
            (Ext::PosInf, _) | (_, Ext::PosInf) if !low => Ext::PosInf,
            _ => {
                if low {
                    Ext::NegInf
                } else {
                    Ext::PosInf
                }
            }
        };
        Interval {
            lo: add(self.lo, o.lo, true),
            hi: add(self.hi, o.hi, false),
        }
    }

    fn mul(&self, o: &Interval) -> Interval {
        let m = |a: Ext, b: Ext| -> Option<Ext> {
            match (a, b) {
                (Ext::Fin(x), Ext::Fin(y)) => x.mul(y).map(Ext::Fin),
                _ => {
                    let s = a.sign() * b.sign();
                    Some(match s {
                        0 => Ext::Fin(Rat::ZERO),
                        1 => Ext::PosInf,
                        _ => Ext::NegInf,
                    })
                }
            }
        };
        let corners = [
            m(self.lo, o.lo),
            m(self.lo, o.hi),
            m(self.hi, o.lo),
            m(self.hi, o.hi),
        ];
        if corners.iter().any(Option::is_none) {
            return Interval::top();
        }
        let vals: Vec<Ext> = corners.into_iter().flatten().collect();
        Interval {
            lo: vals.iter().copied().min().unwrap_or(Ext::NegInf),
            hi: vals.iter().copied().max().unwrap_or(Ext::PosInf),
        }
    }

    fn pow(&self, e: i32) -> Interval {
        if e == 1 {
            return *self;
        }
        if e <= 0 {
            if let (Ext::Fin(lo), hi) = (self.lo, self.hi) {
                if !lo.is_negative() && !lo.is_zero() {
                    let k = -(e as i128);
                    let inv_hi = match hi {
                        Ext::Fin(h) => h.pow(-k).map(Ext::Fin).unwrap_or(Ext::Fin(Rat::ZERO)),
                        _ => Ext::Fin(Rat::ZERO),
                    };
                    let inv_lo = lo.pow(-k).map(Ext::Fin).unwrap_or(Ext::PosInf);
                    return Interval {
                        lo: inv_hi,
                        hi: inv_lo,
                    };
                }
            }
            return Interval::top();
        }
        if e > 64 {
            return Interval::top();
        }
        let mut acc = *self;
        for _ in 1..e {
            acc = acc.mul(self);
        }
        if e % 2 == 0 && acc.lo < Ext::Fin(Rat::ZERO) {
            acc.lo = Ext::Fin(Rat::ZERO);
        }
        acc
    }
}
