//! Images of subsets through map parameter ranges (memlet propagation).

use crate::compare::{Assumptions, Tri};
use crate::expr::{Atom, Expr};
use crate::poly::Poly;
use crate::rational::{gcd_i128, Rat};
use crate::subset::{Range, Subset, SubsetError};
use std::collections::HashMap;

/// Recursion limit of the bounding procedure.
const DEPTH: usize = 8;

struct Ctx<'a> {
    vars: Vec<(String, Expr, Expr)>,
    asm: &'a Assumptions,
    fresh: usize,
}

pub(crate) fn image(
    subset: &Subset,
    params: &[(String, Range)],
    asm: &Assumptions,
) -> Result<Subset, SubsetError> {
    if let Some(s) = exact_image(subset, params, asm) {
        return Ok(s);
    }
    let mut a = asm.clone();
    let mut vars = Vec::new();
    for (p, r) in params {
        let (lo, hi) = (r.min_element(), r.max_element());
        a = a.with_range(p, lo.clone(), hi.clone());
        vars.push((p.clone(), lo, hi));
    }
    let mut ctx = Ctx {
        vars,
        asm: &a,
        fresh: 0,
    };
    let mut out = Vec::with_capacity(subset.dims());
    for (d, r) in subset.ranges().iter().enumerate() {
        if !params.iter().any(|(p, _)| {
            [&r.start, &r.end, &r.step, &r.tile]
                .iter()
                .any(|e| e.mentions(p))
        }) {
            out.push(r.clone());
            continue;
        }
        let lo = ctx
            .bound(&r.min_element(), false, 0)
            .ok_or(SubsetError::Unbounded(d))?;
        let hi = ctx
            .bound(&r.max_element(), true, 0)
            .ok_or(SubsetError::Unbounded(d))?;
        let lo = a.simplify(&lo);
        let hi = a.simplify(&hi);
        // A bound must speak of the program's symbols only.
        if [&lo, &hi].iter().any(|b| {
            b.free_symbols()
                .iter()
                .any(|s| s.starts_with("__image_atom_"))
        }) {
            return Err(SubsetError::Unbounded(d));
        }
        let step = stride(r, params).unwrap_or(1);
        out.push(Range::new(
            lo,
            Expr::add_into_minmax(&hi, 1),
            Expr::int(step as i64),
        ));
    }
    Ok(Subset::new(out))
}

/// The image where its rectangular hull is exact (the separable case, or
/// through ISL), so that its first and last elements are really accessed;
/// `None` where only an over-approximation is known.
pub(crate) fn exact_image(
    subset: &Subset,
    params: &[(String, Range)],
    asm: &Assumptions,
) -> Option<Subset> {
    separable_image(subset, params).or_else(|| crate::isl::image(subset, params, asm))
}

/// The image without ISL in the common separable case, where it is exact
/// by itself: the parameter ranges are a box (no range mentions a
/// parameter, constant positive steps, no tiles), and each dimension that
/// mentions a parameter is a single index `a*p + c` in one parameter `p`
/// with an integer `a`. Such a dimension's indices are `a*p + c` for the
/// `p` of its range, a strided range whose ends come from the ends of
/// `p`'s range; dimensions without parameters stay. A window `a*p + c :
/// a*p + c + L` of constant length `L` whose consecutive positions touch
/// or overlap (`|a|` times `p`'s step at most `L`) sweeps one contiguous
/// range, from the first window's start to the last one's end (a
/// convolution's `x[i:i + 3]`, a pooling's `x[2*i:2*i + 2]`). Anything else
/// (several parameters in one index, ranges that move with a parameter)
/// is left to ISL. This is most memlets of elementwise maps and stencils,
/// and it spares them an ISL round trip each.
fn separable_image(subset: &Subset, params: &[(String, Range)]) -> Option<Subset> {
    let mentions_param = |e: &Expr| params.iter().any(|(p, _)| e.mentions(p));
    for (_, r) in params {
        let box_like = [&r.start, &r.end, &r.step, &r.tile]
            .iter()
            .all(|e| !mentions_param(e));
        if !box_like || r.tile.as_int() != Some(1) || r.step.as_int().is_none_or(|s| s <= 0) {
            return None;
        }
    }
    let mut out = Vec::with_capacity(subset.dims());
    for r in subset.ranges() {
        if ![&r.start, &r.end, &r.step, &r.tile]
            .iter()
            .any(|e| mentions_param(e))
        {
            out.push(r.clone());
            continue;
        }
        // A window `a*p + c : a*p + c + L` (unit step, constant length)
        // sweeps a contiguous range where consecutive windows touch or
        // overlap (|a| times p's step at most L).
        let window = if r.is_index() {
            None
        } else {
            let length = Expr::sub(&r.end, &r.start).as_int().filter(|l| *l > 0)?;
            if r.step.as_int() != Some(1) || r.tile.as_int() != Some(1) {
                return None;
            }
            Some(length)
        };
        let e = &r.start;
        let mut used = params.iter().filter(|(p, _)| e.mentions(p));
        let (p, pr) = used.next()?;
        if used.next().is_some() {
            return None;
        }
        let at = |v: i64| e.substitute(&HashMap::from([(p.clone(), Expr::int(v))]));
        let c = at(0);
        let a = Expr::sub(&at(1), &c).as_int().filter(|a| *a != 0)?;
        let linear = Expr::sub(
            e,
            &Expr::add(&Expr::mul(&Expr::int(a), &Expr::symbol(p)), &c),
        );
        if linear.as_int() != Some(0) {
            return None;
        }
        let (lo, hi) = (pr.min_element(), pr.max_element());
        let (first, last) = if a > 0 { (lo, hi) } else { (hi, lo) };
        let image = |x: &Expr| Expr::add(&Expr::mul(&Expr::int(a), x), &c);
        let step = a.checked_abs()?.checked_mul(pr.step.as_int()?)?;
        out.push(match window {
            None => Range::new(
                image(&first),
                Expr::add(&image(&last), &Expr::int(1)),
                Expr::int(step),
            ),
            Some(length) if step <= length => Range::new(
                image(&first),
                Expr::add(&image(&last), &Expr::int(length)),
                Expr::int(1),
            ),
            Some(_) => return None,
        });
    }
    Some(Subset::new(out))
}

/// The common stride of a dimension's indices over the parameters, when its
/// start is affine in them with integer coefficients and all steps are constants.
fn stride(r: &Range, params: &[(String, Range)]) -> Option<i128> {
    if r.tile.as_int() != Some(1) {
        return None;
    }
    let mut g: i128 = if r.is_index() {
        0
    } else {
        r.step.as_int()? as i128
    };
    let mut p = r.start.poly().clone();
    for (name, pr) in params {
        let (coef, rest) = p.linear_in(name)?;
        p = rest;
        if coef.terms.is_empty() {
            continue;
        }
        let c = coef.as_constant()?;
        if !c.is_int() || pr.tile.as_int() != Some(1) {
            return None;
        }
        let s = pr.step.as_int()? as i128;
        g = gcd_i128(g, c.num().checked_mul(s)?);
    }
    if params.iter().any(|(n, _)| p.mentions(n)) {
        return None;
    }
    (g > 1).then_some(g)
}

impl Ctx<'_> {
    fn mentions_var(&self, e: &Expr) -> bool {
        self.vars.iter().any(|(n, _, _)| e.mentions(n))
    }

    /// A lower (`upper == false`) or upper bound of `e` over the variables.
    fn bound(&mut self, e: &Expr, upper: bool, depth: usize) -> Option<Expr> {
        if !self.mentions_var(e) {
            return Some(e.clone());
        }
        if depth > DEPTH || !e.is_numeric() {
            return None;
        }
        // Replace variable-dependent atoms by fresh variables with their bounds.
        let mut terms = Expr::int(0);
        let mut added = Vec::new();
        for (m, c) in &e.poly().terms {
            let mut t = Expr::rat(*c);
            for (a, k) in &m.factors {
                let base = match a {
                    Atom::Sym(_) => Expr::from_poly(Poly::atom(a.clone())),
                    _ if !a.mentions_any(&self.vars) => Expr::from_poly(Poly::atom(a.clone())),
                    _ => {
                        let lo = self.atom_bound(a, false, depth + 1)?;
                        let hi = self.atom_bound(a, true, depth + 1)?;
                        let name = format!("__image_atom_{}", self.fresh);
                        self.fresh += 1;
                        added.push((name.clone(), lo, hi));
                        Expr::symbol(&name)
                    }
                };
                t = Expr::mul(&t, &Expr::pow(&base, &Expr::int(*k as i64)));
            }
            terms = Expr::add(&terms, &t);
        }
        // Eliminate fresh atom variables first, then parameters innermost first.
        let order: Vec<(String, Expr, Expr)> = added
            .into_iter()
            .rev()
            .chain(self.vars.iter().rev().cloned())
            .collect();
        let mut cur = terms;
        let mut pending: Vec<(String, Expr, Expr)> = order.clone();
        for (name, lo, hi) in order {
            pending.retain(|(n, _, _)| *n != name);
            if !cur.mentions(&name) {
                continue;
            }
            let (coef, rest) = cur.poly().linear_in(&name)?;
            let coef = Expr::from_poly(coef);
            let rest = Expr::from_poly(rest);
            let at = |b: &Expr| Expr::add(&Expr::mul(&coef, b), &rest);
            let sign = if self.asm.prove_nonnegative(&coef) {
                Tri::True
            } else if self.asm.prove_nonnegative(&Expr::neg(&coef)) {
                Tri::False
            } else {
                Tri::Unknown
            };
            cur = match (sign, upper) {
                (Tri::True, true) | (Tri::False, false) => at(&hi),
                (Tri::True, false) | (Tri::False, true) => at(&lo),
                (Tri::Unknown, true) => Expr::max(vec![at(&lo), at(&hi)]),
                (Tri::Unknown, false) => Expr::min(vec![at(&lo), at(&hi)]),
            };
            if cur.poly().terms.iter().any(|(m, _)| {
                m.factors
                    .iter()
                    .any(|(a, _)| !matches!(a, Atom::Sym(_)) && a.mentions_any(&self.vars))
            }) {
                // The fresh atom variables not eliminated yet are
                // variables of the recursion too, else they would leak
                // into the bound.
                let pending: Vec<(String, Expr, Expr)> = pending
                    .iter()
                    .filter(|(n, _, _)| cur.mentions(n))
                    .cloned()
                    .collect();
                let kept = self.vars.len();
                self.vars.extend(pending);
                let bound = self.bound(&cur, upper, depth + 1);
                self.vars.truncate(kept);
                return bound;
            }
        }
        Some(cur)
    }

    fn atom_bound(&mut self, a: &Atom, upper: bool, depth: usize) -> Option<Expr> {
        let zero = Expr::int(0);
        match a {
            Atom::Floor(x) => Some(Expr::floor(&self.bound(x, upper, depth)?)),
            Atom::Group(x) => self.bound(x, upper, depth),
            Atom::Min(v) | Atom::Max(v) => {
                let bs = v
                    .iter()
                    .map(|x| self.bound(x, upper, depth))
                    .collect::<Option<Vec<_>>>()?;
                Some(if matches!(a, Atom::Min(_)) {
                    Expr::min(bs)
                } else {
                    Expr::max(bs)
                })
            }
            Atom::Mod(x, y) => {
                let d = y.poly().as_constant()?;
                if !d.is_int() || d.is_negative() || !x.is_integer_valued() {
                    return None;
                }
                let top = Expr::rat(d.sub(Rat::ONE)?);
                let xlo = self.bound(x, false, depth);
                let xhi = self.bound(x, true, depth);
                let nonneg = xlo.as_ref().is_some_and(|l| self.asm.prove_nonnegative(l));
                let fits = xhi
                    .as_ref()
                    .is_some_and(|h| self.asm.prove_nonnegative(&Expr::sub(&top, h)));
                if upper {
                    match (nonneg, xhi) {
                        (true, Some(h)) => Some(self.asm.min(&top, &h)),
                        _ => Some(top),
                    }
                } else {
                    match (nonneg && fits, xlo) {
                        (true, Some(l)) => Some(l),
                        _ => Some(zero),
                    }
                }
            }
            Atom::Abs(x) => {
                let lo = self.bound(x, false, depth)?;
                let hi = self.bound(x, true, depth)?;
                if upper {
                    Some(self.asm.max(&hi, &Expr::neg(&lo)))
                } else if self.asm.prove_nonnegative(&lo) {
                    Some(lo)
                } else if self.asm.prove_nonnegative(&Expr::neg(&hi)) {
                    Some(Expr::neg(&hi))
                } else {
                    Some(zero)
                }
            }
            Atom::Truth(_) => Some(Expr::int(upper as i64)),
            Atom::Sym(_) | Atom::Pow(..) | Atom::Call(..) | Atom::Index(..) | Atom::Bit(..) => None,
        }
    }
}

impl Atom {
    fn mentions_any(&self, vars: &[(String, Expr, Expr)]) -> bool {
        vars.iter().any(|(n, _, _)| self.mentions(n))
    }
}
