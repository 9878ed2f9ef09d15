//! Sparse multivariate polynomials with rational coefficients over [`Atom`]s.
//!
//! A [`Poly`] is a sorted list of `(Mono, Rat)` terms without zero coefficients;
//! a [`Mono`] is a sorted list of `(Atom, exponent)` factors without zero
//! exponents. Both orders are the derived `Ord` of the element types, so two
//! polynomials are equal exactly when their term lists are equal. Every
//! operation is checked and returns `None` when a coefficient or exponent
//! overflows.

use crate::expr::Atom;
use crate::rational::Rat;

/// A product of atoms raised to non-zero integer powers; empty means `1`.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub(crate) struct Mono {
    pub(crate) factors: Vec<(Atom, i32)>,
}

/// A sum of rational multiples of monomials.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub(crate) struct Poly {
    pub(crate) terms: Vec<(Mono, Rat)>,
}

/// Largest number of terms an expansion may produce before the product is
/// kept unexpanded (as a grouped atom) instead.
pub(crate) const MAX_TERMS: usize = 512;

impl Mono {
    /// The monomial made of one atom to the first power.
    pub(crate) fn atom(a: Atom) -> Mono {
        Mono {
            factors: vec![(a, 1)],
        }
    }

    /// Whether this is the empty monomial `1`.
    pub(crate) fn is_one(&self) -> bool {
        self.factors.is_empty()
    }

    /// Product of two monomials.
    pub(crate) fn mul(&self, o: &Mono) -> Option<Mono> {
        if self.factors.is_empty() {
            return Some(o.clone());
        }
        if o.factors.is_empty() {
            return Some(self.clone());
        }
        let mut out = Vec::with_capacity(self.factors.len() + o.factors.len());
        let (mut i, mut j) = (0, 0);
        while i < self.factors.len() && j < o.factors.len() {
            let (a, ea) = &self.factors[i];
            let (b, eb) = &o.factors[j];
            match a.cmp(b) {
                std::cmp::Ordering::Less => {
                    out.push((a.clone(), *ea));
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    out.push((b.clone(), *eb));
                    j += 1;
                }
                std::cmp::Ordering::Equal => {
                    let e = ea.checked_add(*eb)?;
                    if e != 0 {
                        out.push((a.clone(), e));
                    }
                    i += 1;
                    j += 1;
                }
            }
        }
        out.extend_from_slice(&self.factors[i..]);
        out.extend_from_slice(&o.factors[j..]);
        Some(Mono { factors: out })
    }

    /// The monomial raised to an integer power.
    pub(crate) fn pow(&self, k: i32) -> Option<Mono> {
        if k == 0 {
            return Some(Mono::default());
        }
        let mut factors = Vec::with_capacity(self.factors.len());
        for (a, e) in &self.factors {
            factors.push((a.clone(), e.checked_mul(k)?));
        }
        Some(Mono { factors })
    }

    /// Whether the monomial takes integer values whenever its symbols do.
    pub(crate) fn is_integer_valued(&self) -> bool {
        self.factors
            .iter()
            .all(|(a, e)| *e > 0 && a.is_integer_valued())
    }

    /// Total degree in the given symbol, or `None` if it occurs inside an atom.
    pub(crate) fn degree_in(&self, name: &str) -> Option<i32> {
        let mut d = 0;
        for (a, e) in &self.factors {
            match a {
                Atom::Sym(s) if &**s == name => d += *e,
                _ => {
                    if a.mentions(name) {
                        return None;
                    }
                }
            }
        }
        Some(d)
    }
}

impl Poly {
    /// The zero polynomial.
    pub(crate) fn zero() -> Poly {
        Poly { terms: Vec::new() }
    }

    /// A constant polynomial.
    pub(crate) fn constant(c: Rat) -> Poly {
        if c.is_zero() {
            Poly::zero()
        } else {
            Poly {
                terms: vec![(Mono::default(), c)],
            }
        }
    }

    /// The polynomial `1 * atom`.
    pub(crate) fn atom(a: Atom) -> Poly {
        Poly {
            terms: vec![(Mono::atom(a), Rat::ONE)],
        }
    }

    /// The polynomial `c * m`.
    pub(crate) fn term(m: Mono, c: Rat) -> Poly {
        if c.is_zero() {
            Poly::zero()
        } else {
            Poly {
                terms: vec![(m, c)],
            }
        }
    }

    /// Builds a polynomial from unsorted terms, merging equal monomials.
    pub(crate) fn from_terms(mut terms: Vec<(Mono, Rat)>) -> Option<Poly> {
        terms.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out: Vec<(Mono, Rat)> = Vec::with_capacity(terms.len());
        for (m, c) in terms {
            if let Some(last) = out.last_mut() {
                if last.0 == m {
                    last.1 = last.1.add(c)?;
                    continue;
                }
            }
            out.push((m, c));
        }
        out.retain(|(_, c)| !c.is_zero());
        Some(Poly { terms: out })
    }

    /// The constant value, if the polynomial is constant.
    pub(crate) fn as_constant(&self) -> Option<Rat> {
        match self.terms.as_slice() {
            [] => Some(Rat::ZERO),
            [(m, c)] if m.is_one() => Some(*c),
            _ => None,
        }
    }

    /// The constant term.
    pub(crate) fn constant_term(&self) -> Rat {
        match self.terms.first() {
            Some((m, c)) if m.is_one() => *c,
            _ => Rat::ZERO,
        }
    }

    /// The non-constant terms.
    pub(crate) fn non_constant(&self) -> &[(Mono, Rat)] {
        match self.terms.first() {
            Some((m, _)) if m.is_one() => &self.terms[1..],
            _ => &self.terms,
        }
    }

    /// If the polynomial is a single atom with coefficient one, that atom.
    pub(crate) fn as_atom(&self) -> Option<&Atom> {
        match self.terms.as_slice() {
            [(m, c)] if *c == Rat::ONE && m.factors.len() == 1 && m.factors[0].1 == 1 => {
                Some(&m.factors[0].0)
            }
            _ => None,
        }
    }

    /// Sum.
    pub(crate) fn add(&self, o: &Poly) -> Option<Poly> {
        if o.terms.is_empty() {
            return Some(self.clone());
        }
        if self.terms.is_empty() {
            return Some(o.clone());
        }
        let mut out = Vec::with_capacity(self.terms.len() + o.terms.len());
        let (mut i, mut j) = (0, 0);
        while i < self.terms.len() && j < o.terms.len() {
            let (a, ca) = &self.terms[i];
            let (b, cb) = &o.terms[j];
            match a.cmp(b) {
                std::cmp::Ordering::Less => {
                    out.push((a.clone(), *ca));
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    out.push((b.clone(), *cb));
                    j += 1;
                }
                std::cmp::Ordering::Equal => {
                    let c = ca.add(*cb)?;
                    if !c.is_zero() {
                        out.push((a.clone(), c));
                    }
                    i += 1;
                    j += 1;
                }
            }
        }
        out.extend_from_slice(&self.terms[i..]);
        out.extend_from_slice(&o.terms[j..]);
        Some(Poly { terms: out })
    }

    /// Product by a rational.
    pub(crate) fn scale(&self, k: Rat) -> Option<Poly> {
        if k.is_zero() {
            return Some(Poly::zero());
        }
        let mut terms = Vec::with_capacity(self.terms.len());
        for (m, c) in &self.terms {
            terms.push((m.clone(), c.mul(k)?));
        }
        Some(Poly { terms })
    }

    /// Negation.
    pub(crate) fn neg(&self) -> Option<Poly> {
        self.scale(Rat::int(-1))
    }

    /// Difference.
    pub(crate) fn sub(&self, o: &Poly) -> Option<Poly> {
        self.add(&o.neg()?)
    }

    /// Adds a constant.
    pub(crate) fn add_const(&self, c: Rat) -> Option<Poly> {
        self.add(&Poly::constant(c))
    }

    /// Fully expanded product (the caller checks the size first).
    pub(crate) fn mul(&self, o: &Poly) -> Option<Poly> {
        if self.terms.len() == 1 && o.terms.len() == 1 {
            let (m1, c1) = &self.terms[0];
            let (m2, c2) = &o.terms[0];
            return Some(Poly::term(m1.mul(m2)?, c1.mul(*c2)?));
        }
        let mut terms = Vec::with_capacity(self.terms.len() * o.terms.len());
        for (m1, c1) in &self.terms {
            for (m2, c2) in &o.terms {
                terms.push((m1.mul(m2)?, c1.mul(*c2)?));
            }
        }
        Poly::from_terms(terms)
    }

    /// Whether the polynomial is integer-valued for integer symbols.
    pub(crate) fn is_integer_valued(&self) -> bool {
        self.terms
            .iter()
            .all(|(m, c)| c.is_int() && m.is_integer_valued())
    }

    /// Whether every monomial is integer-valued (coefficients may be fractions).
    pub(crate) fn monos_integer_valued(&self) -> bool {
        self.terms.iter().all(|(m, _)| m.is_integer_valued())
    }

    /// Least common multiple of the coefficient denominators.
    pub(crate) fn denominator_lcm(&self) -> Option<i128> {
        let mut l: i128 = 1;
        for (_, c) in &self.terms {
            let g = crate::rational::gcd_i128(l, c.den());
            l = (l / g).checked_mul(c.den())?;
        }
        Some(l)
    }

    /// Greatest common divisor of the numerators of the non-constant coefficients
    /// (for an integer-coefficient polynomial); zero if there are none.
    pub(crate) fn content(&self) -> i128 {
        self.non_constant()
            .iter()
            .fold(0, |g, (_, c)| crate::rational::gcd_i128(g, c.num()))
    }

    /// Whether the leading non-constant coefficient is negative.
    pub(crate) fn leading_negative(&self) -> bool {
        self.non_constant()
            .first()
            .map(|(_, c)| c.is_negative())
            .unwrap_or(false)
    }

    /// Whether the polynomial mentions the symbol anywhere (also inside atoms).
    pub(crate) fn mentions(&self, name: &str) -> bool {
        self.terms
            .iter()
            .any(|(m, _)| m.factors.iter().any(|(a, _)| a.mentions(name)))
    }

    /// Collects the free symbols.
    pub(crate) fn collect_symbols(&self, out: &mut std::collections::BTreeSet<String>) {
        for (m, _) in &self.terms {
            for (a, _) in &m.factors {
                a.collect_symbols(out);
            }
        }
    }

    /// Splits a polynomial linear in `name` into `(coefficient, rest)` with
    /// `self = coefficient * name + rest`; `None` if it is not linear in `name`.
    pub(crate) fn linear_in(&self, name: &str) -> Option<(Poly, Poly)> {
        let mut coef = Vec::new();
        let mut rest = Vec::new();
        for (m, c) in &self.terms {
            match m.degree_in(name)? {
                0 => rest.push((m.clone(), *c)),
                1 => {
                    let factors = m
                        .factors
                        .iter()
                        .filter(|(a, _)| !matches!(a, Atom::Sym(s) if &**s == name))
                        .cloned()
                        .collect();
                    coef.push((Mono { factors }, *c));
                }
                _ => return None,
            }
        }
        Some((Poly::from_terms(coef)?, Poly::from_terms(rest)?))
    }
}
