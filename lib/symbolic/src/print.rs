//! Canonical printing of expressions (valid input to [`crate::parse`]).

use std::fmt;

use crate::expr::{integer_form, Atom, Expr, Node, Rel};
use crate::poly::{Mono, Poly};
use crate::rational::Rat;

/// Binding strength of a printed fragment, weakest first.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Prec {
    Or,
    And,
    Cmp,
    Add,
    Mul,
    Unary,
    Pow,
    Atom,
}

fn paren(s: String, p: Prec, min: Prec) -> String {
    if p < min {
        format!("({s})")
    } else {
        s
    }
}

fn join(args: &[Expr]) -> String {
    args.iter()
        .map(|e| fmt_expr(e).0)
        .collect::<Vec<_>>()
        .join(", ")
}

fn fmt_atom(a: &Atom) -> (String, Prec) {
    match a {
        Atom::Sym(s) => (s.to_string(), Prec::Atom),
        Atom::Floor(e) => {
            let p = e.poly();
            if p.monos_integer_valued() {
                if let Some((d, q)) = integer_form(p) {
                    if d > 1 {
                        let c = q.constant_term();
                        if c == Rat::int(d - 1) {
                            if let Some(q2) = q.add_const(Rat::int(1 - d)) {
                                return (format!("int_ceil({}, {d})", fmt_poly(&q2).0), Prec::Atom);
                            }
                        }
                        return (format!("int_floor({}, {d})", fmt_poly(&q).0), Prec::Atom);
                    }
                }
            }
            (format!("floor({})", fmt_poly(p).0), Prec::Atom)
        }
        Atom::Mod(x, y) => (
            format!("Mod({}, {})", fmt_expr(x).0, fmt_expr(y).0),
            Prec::Atom,
        ),
        Atom::Min(v) => (format!("Min({})", join(v)), Prec::Atom),
        Atom::Max(v) => (format!("Max({})", join(v)), Prec::Atom),
        Atom::Abs(e) => (format!("Abs({})", fmt_expr(e).0), Prec::Atom),
        Atom::Group(e) => (format!("({})", fmt_expr(e).0), Prec::Atom),
        Atom::Pow(b, e) => {
            let (bs, bp) = fmt_expr(b);
            let (es, ep) = fmt_expr(e);
            (
                format!(
                    "{}**{}",
                    paren(bs, bp, Prec::Atom),
                    paren(es, ep, Prec::Atom)
                ),
                Prec::Pow,
            )
        }
        Atom::Truth(c) => (format!("int({})", fmt_expr(c).0), Prec::Atom),
        Atom::Call(n, v) => (format!("{n}({})", join(v)), Prec::Atom),
        Atom::Index(n, v) => (format!("{n}[{}]", join(v)), Prec::Atom),
        Atom::Bit(op, v) => {
            let operand = |e: &Expr| {
                let (s, p) = fmt_expr(e);
                paren(s, p, Prec::Add)
            };
            (
                format!("({} {} {})", operand(&v[0]), op.symbol(), operand(&v[1])),
                Prec::Atom,
            )
        }
    }
}

fn fmt_factor(a: &Atom, e: i32) -> (String, Prec) {
    let (s, p) = fmt_atom(a);
    if e == 1 {
        (s, p)
    } else {
        (format!("{}**{e}", paren(s, p, Prec::Atom)), Prec::Pow)
    }
}

/// Formats `|c| * m` (the sign is handled by the caller).
fn fmt_term(m: &Mono, c: Rat) -> (String, Prec) {
    let mut num: Vec<String> = Vec::new();
    let mut den: Vec<(String, Prec)> = Vec::new();
    let n = c.num().unsigned_abs();
    let mut nfactors = Vec::new();
    for (a, e) in &m.factors {
        if *e > 0 {
            nfactors.push(fmt_factor(a, *e));
        } else {
            den.push(fmt_factor(a, -*e));
        }
    }
    if n != 1 || nfactors.is_empty() {
        num.push(n.to_string());
    }
    let single = nfactors.len() == 1 && num.is_empty();
    let mut prec = if single { nfactors[0].1 } else { Prec::Mul };
    if num.len() == 1 && nfactors.is_empty() {
        prec = Prec::Atom;
    }
    for (s, p) in nfactors {
        num.push(if single { s } else { paren(s, p, Prec::Unary) });
    }
    let mut s = num.join("*");
    if c.den() != 1 {
        den.insert(0, (c.den().to_string(), Prec::Atom));
    }
    if !den.is_empty() {
        prec = Prec::Mul;
        if den.len() == 1 {
            let (d, p) = den.remove(0);
            s = format!("{s}/{}", paren(d, p, Prec::Pow));
        } else {
            let parts: Vec<String> = den
                .into_iter()
                .map(|(d, p)| paren(d, p, Prec::Unary))
                .collect();
            s = format!("{s}/({})", parts.join("*"));
        }
    }
    (s, prec)
}

fn fmt_poly(p: &Poly) -> (String, Prec) {
    let nc = p.non_constant();
    let c = p.constant_term();
    let mut items: Vec<(&Mono, Rat)> = nc.iter().map(|(m, c)| (m, *c)).collect();
    let constant = Mono::default();
    if !c.is_zero() || items.is_empty() {
        items.push((&constant, c));
    }
    if items.len() == 1 {
        let (m, c) = items[0];
        let (s, pr) = fmt_term(m, c);
        if c.is_negative() {
            return (format!("-{}", paren(s, pr, Prec::Mul)), Prec::Unary);
        }
        return (s, pr);
    }
    let mut out = String::new();
    for (i, (m, c)) in items.iter().enumerate() {
        let (s, pr) = fmt_term(m, *c);
        if i == 0 {
            if c.is_negative() {
                out.push('-');
                out.push_str(&paren(s, pr, Prec::Mul));
            } else {
                out.push_str(&s);
            }
        } else {
            out.push_str(if c.is_negative() { " - " } else { " + " });
            out.push_str(&paren(s, pr, Prec::Mul));
        }
    }
    (out, Prec::Add)
}

/// Splits `p` into `(positive part, negated negative part)` for printing a relation.
fn split_sides(p: &Poly) -> (Poly, Poly, Rat) {
    let mut pos = Vec::new();
    let mut neg = Vec::new();
    for (m, c) in p.non_constant() {
        if c.is_negative() {
            neg.push((m.clone(), c.neg().unwrap_or(*c)));
        } else {
            pos.push((m.clone(), *c));
        }
    }
    (Poly { terms: pos }, Poly { terms: neg }, p.constant_term())
}

fn fmt_rel(r: Rel, p: &Poly) -> String {
    let (mut lhs, mut rhs, c) = split_sides(p);
    let op = match r {
        Rel::Le => {
            // lhs - rhs + c <= 0
            if c.is_negative() {
                rhs = rhs.add_const(c.neg().unwrap_or(c)).unwrap_or(rhs);
                "<="
            } else if c.is_zero() {
                "<="
            } else if c.is_int() && p.monos_integer_valued() {
                lhs = lhs.add_const(c.sub(Rat::ONE).unwrap_or(c)).unwrap_or(lhs);
                "<"
            } else {
                lhs = lhs.add_const(c).unwrap_or(lhs);
                "<="
            }
        }
        _ => {
            if c.is_negative() {
                rhs = rhs.add_const(c.neg().unwrap_or(c)).unwrap_or(rhs);
            } else {
                lhs = lhs.add_const(c).unwrap_or(lhs);
            }
            match r {
                Rel::Lt => "<",
                Rel::Eq => "==",
                _ => "!=",
            }
        }
    };
    format!("{} {op} {}", fmt_poly(&lhs).0, fmt_poly(&rhs).0)
}

fn fmt_expr(e: &Expr) -> (String, Prec) {
    match e.node() {
        Node::Num(p) => fmt_poly(p),
        Node::Bool(b) => ((if *b { "True" } else { "False" }).to_string(), Prec::Atom),
        Node::Undefined => ("?".to_string(), Prec::Atom),
        Node::Rel(r, p) => (fmt_rel(*r, p), Prec::Cmp),
        Node::And(v) => (
            v.iter()
                .map(|x| {
                    let (s, p) = fmt_expr(x);
                    paren(s, p, Prec::Cmp)
                })
                .collect::<Vec<_>>()
                .join(" and "),
            Prec::And,
        ),
        Node::Or(v) => (
            v.iter()
                .map(|x| {
                    let (s, p) = fmt_expr(x);
                    paren(s, p, Prec::And)
                })
                .collect::<Vec<_>>()
                .join(" or "),
            Prec::Or,
        ),
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&fmt_expr(self).0)
    }
}

impl fmt::Debug for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Expr({})", fmt_expr(self).0)
    }
}
