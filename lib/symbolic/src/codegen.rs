//! Code generation from the normal form: an [`Expr`] walked into the
//! operations of a target (MLIR `arith` on `index` in the lowering).
//!
//! Expressions are integer-valued (SymPy's semantics: `//` and `Mod` floor,
//! `Min`/`Max`, comparisons and boolean connectives) with exact rational
//! coefficients. A polynomial with denominators is emitted over the least
//! common denominator `d`: its integer numerator is computed and divided
//! by `d` once, flooring under `floor(..)` and truncating otherwise (what
//! DaCe's generated C++ does with `N / 2`). Comparisons need no division:
//! `p <= 0` holds exactly when `d * p <= 0`.

use crate::expr::{Atom, BitOp, Expr, Node, Rel};
use crate::poly::{Mono, Poly};
use crate::rational::Rat;

/// Integer operations a target provides, on 64-bit signed values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntOp {
    /// `a + b`
    Add,
    /// `a - b`
    Sub,
    /// `a * b`
    Mul,
    /// `a / b` rounded towards zero (C's division).
    DivTrunc,
    /// `a // b` rounded towards negative infinity (Python's division).
    FloorDiv,
    /// `a % b` with the sign of `b` (Python's and SymPy's modulo).
    FloorMod,
    /// `min(a, b)`
    Min,
    /// `max(a, b)`
    Max,
    /// `a & b`
    And,
    /// `a | b`
    Or,
    /// `a ^ b`
    Xor,
    /// `a << b`
    Shl,
    /// `a >> b`, arithmetic (Python's shift floors)
    Shr,
    /// `a ** b` for a non-negative `b`
    Pow,
}

/// Comparisons of two integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    /// `a <= b`
    Le,
    /// `a < b`
    Lt,
    /// `a == b`
    Eq,
    /// `a != b`
    Ne,
}

/// A target of code generation: builds integer and boolean values.
pub trait Emitter {
    /// A generated value (an SSA name, a register, a string of C, ...).
    type Value: Clone;

    /// An integer constant.
    fn int(&mut self, value: i64) -> Self::Value;
    /// A boolean constant.
    fn boolean(&mut self, value: bool) -> Self::Value;
    /// The value of a symbol; an error message if it has none.
    fn symbol(&mut self, name: &str) -> Result<Self::Value, String>;
    /// An integer operation.
    fn binary(&mut self, op: IntOp, a: Self::Value, b: Self::Value) -> Self::Value;
    /// An integer comparison, giving a boolean.
    fn compare(&mut self, op: CmpOp, a: Self::Value, b: Self::Value) -> Self::Value;
    /// Conjunction (`and == true`) or disjunction of two booleans.
    fn logic(&mut self, and: bool, a: Self::Value, b: Self::Value) -> Self::Value;
    /// `1` for true and `0` for false.
    fn bool_to_int(&mut self, value: Self::Value) -> Self::Value;
    /// An opaque function call such as `ceiling(x)`; an error message if the
    /// target does not know it.
    fn call(&mut self, name: &str, args: Vec<Self::Value>) -> Result<Self::Value, String>;
    /// An opaque subscript such as `A[i, 0]` (reading data); an error
    /// message if the target cannot read it.
    fn subscript(&mut self, name: &str, args: Vec<Self::Value>) -> Result<Self::Value, String>;
}

impl Expr {
    /// Emits the expression as an integer (booleans become `0`/`1`).
    pub fn emit_int<E: Emitter>(&self, e: &mut E) -> Result<E::Value, String> {
        match self.node() {
            Node::Num(p) => emit_poly(p, false, e),
            Node::Undefined => Err("the expression is undefined (`?`)".into()),
            _ => {
                let b = self.emit_bool(e)?;
                Ok(e.bool_to_int(b))
            }
        }
    }

    /// Emits the expression as a boolean (numbers are true when non-zero).
    pub fn emit_bool<E: Emitter>(&self, e: &mut E) -> Result<E::Value, String> {
        match self.node() {
            Node::Bool(b) => Ok(e.boolean(*b)),
            Node::Undefined => Err("the expression is undefined (`?`)".into()),
            Node::Num(p) => {
                let (v, _) = emit_numerator(p, e)?;
                let zero = e.int(0);
                Ok(e.compare(CmpOp::Ne, v, zero))
            }
            Node::Rel(rel, p) => {
                let (v, _) = emit_numerator(p, e)?;
                let zero = e.int(0);
                let op = match rel {
                    Rel::Le => CmpOp::Le,
                    Rel::Lt => CmpOp::Lt,
                    Rel::Eq => CmpOp::Eq,
                    Rel::Ne => CmpOp::Ne,
                };
                Ok(e.compare(op, v, zero))
            }
            Node::And(v) | Node::Or(v) => {
                let and = matches!(self.node(), Node::And(_));
                let mut acc: Option<E::Value> = None;
                for x in v {
                    let b = x.emit_bool(e)?;
                    acc = Some(match acc {
                        None => b,
                        Some(a) => e.logic(and, a, b),
                    });
                }
                Ok(acc.unwrap_or_else(|| e.boolean(and)))
            }
        }
    }
}

/// Emits `p` (flooring the division by its common denominator when `floor`).
fn emit_poly<E: Emitter>(p: &Poly, floor: bool, e: &mut E) -> Result<E::Value, String> {
    let (num, den) = emit_numerator(p, e)?;
    if den == 1 {
        return Ok(num);
    }
    let d = e.int(den);
    let op = if floor {
        IntOp::FloorDiv
    } else {
        IntOp::DivTrunc
    };
    Ok(e.binary(op, num, d))
}

/// Emits `d * p` for the least common denominator `d` of `p`'s
/// coefficients, and returns it with `d`.
fn emit_numerator<E: Emitter>(p: &Poly, e: &mut E) -> Result<(E::Value, i64), String> {
    let overflow = || "a coefficient does not fit in 64 bits".to_string();
    let den = p.denominator_lcm().ok_or_else(overflow)?;
    let mut acc: Option<E::Value> = None;
    for (mono, c) in &p.terms {
        let k = c
            .mul(Rat::int(den))
            .and_then(Rat::to_i64)
            .ok_or_else(overflow)?;
        let (term, negative) = emit_term(mono, k, e)?;
        acc = Some(match (acc, negative) {
            (None, false) => term,
            (None, true) => {
                let zero = e.int(0);
                e.binary(IntOp::Sub, zero, term)
            }
            (Some(a), false) => e.binary(IntOp::Add, a, term),
            (Some(a), true) => e.binary(IntOp::Sub, a, term),
        });
    }
    let value = acc.unwrap_or_else(|| e.int(0));
    Ok((value, i64::try_from(den).map_err(|_| overflow())?))
}

/// Emits `|k| * mono` and whether the term is to be subtracted.
fn emit_term<E: Emitter>(mono: &Mono, k: i64, e: &mut E) -> Result<(E::Value, bool), String> {
    let mut numerator: Option<E::Value> = None;
    let mut denominator: Option<E::Value> = None;
    for (atom, exp) in &mono.factors {
        let base = emit_atom(atom, e)?;
        let power = emit_power(base, exp.unsigned_abs(), e);
        let slot = if *exp > 0 {
            &mut numerator
        } else {
            &mut denominator
        };
        *slot = Some(match slot.take() {
            None => power,
            Some(v) => e.binary(IntOp::Mul, v, power),
        });
    }
    let magnitude = k.unsigned_abs();
    let mut value = match numerator {
        None => e.int(i64::try_from(magnitude).map_err(|_| "coefficient overflow")?),
        Some(v) if magnitude == 1 => v,
        Some(v) => {
            let c = e.int(i64::try_from(magnitude).map_err(|_| "coefficient overflow")?);
            e.binary(IntOp::Mul, c, v)
        }
    };
    if let Some(d) = denominator {
        value = e.binary(IntOp::DivTrunc, value, d);
    }
    Ok((value, k < 0))
}

/// `base ** exp` by repeated squaring.
fn emit_power<E: Emitter>(base: E::Value, exp: u32, e: &mut E) -> E::Value {
    if exp <= 1 {
        return base;
    }
    let half = emit_power(base.clone(), exp / 2, e);
    let square = e.binary(IntOp::Mul, half.clone(), half);
    if exp % 2 == 1 {
        e.binary(IntOp::Mul, square, base)
    } else {
        square
    }
}

fn emit_atom<E: Emitter>(a: &Atom, e: &mut E) -> Result<E::Value, String> {
    match a {
        Atom::Sym(s) => e.symbol(s),
        Atom::Floor(x) => match x.node() {
            Node::Num(p) => emit_poly(p, true, e),
            _ => x.emit_int(e),
        },
        Atom::Mod(x, y) => {
            let (x, y) = (x.emit_int(e)?, y.emit_int(e)?);
            Ok(e.binary(IntOp::FloorMod, x, y))
        }
        Atom::Min(v) | Atom::Max(v) => {
            let op = if matches!(a, Atom::Min(_)) {
                IntOp::Min
            } else {
                IntOp::Max
            };
            let mut acc: Option<E::Value> = None;
            for x in v {
                let value = x.emit_int(e)?;
                acc = Some(match acc {
                    None => value,
                    Some(prev) => e.binary(op, prev, value),
                });
            }
            acc.ok_or_else(|| "an empty Min/Max".to_string())
        }
        Atom::Abs(x) => {
            let v = x.emit_int(e)?;
            let zero = e.int(0);
            let negated = e.binary(IntOp::Sub, zero, v.clone());
            Ok(e.binary(IntOp::Max, v, negated))
        }
        Atom::Group(x) => x.emit_int(e),
        Atom::Pow(base, exp) => match exp.as_int() {
            Some(k) if (0..=64).contains(&k) => {
                let b = base.emit_int(e)?;
                if k == 0 {
                    return Ok(e.int(1));
                }
                Ok(emit_power(b, k as u32, e))
            }
            _ if base.poly().is_integer_valued() && exp.poly().is_integer_valued() => {
                let (b, x) = (base.emit_int(e)?, exp.emit_int(e)?);
                Ok(e.binary(IntOp::Pow, b, x))
            }
            _ => Err(format!(
                "the power `({base})**({exp})` has no integer code (it is not an integer power)"
            )),
        },
        Atom::Bit(op, v) => {
            let (a, b) = (v[0].emit_int(e)?, v[1].emit_int(e)?);
            let op = match op {
                BitOp::And => IntOp::And,
                BitOp::Or => IntOp::Or,
                BitOp::Xor => IntOp::Xor,
                BitOp::Shl => IntOp::Shl,
                BitOp::Shr => IntOp::Shr,
            };
            Ok(e.binary(op, a, b))
        }
        Atom::Truth(c) => {
            let b = c.emit_bool(e)?;
            Ok(e.bool_to_int(b))
        }
        Atom::Call(name, args) if &**name == "int" && args.len() == 1 => match args[0].node() {
            Node::Num(p) => emit_poly(p, false, e),
            _ => args[0].emit_int(e),
        },
        Atom::Call(name, args) => {
            let values = args
                .iter()
                .map(|x| x.emit_int(e))
                .collect::<Result<Vec<_>, _>>()?;
            e.call(name, values)
        }
        Atom::Index(name, args) => {
            let values = args
                .iter()
                .map(|x| x.emit_int(e))
                .collect::<Result<Vec<_>, _>>()?;
            e.subscript(name, values)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;
    use std::collections::HashMap;

    /// Evaluates by emitting: checks the generator against `evaluate`.
    struct Interp(HashMap<String, i64>);

    impl Emitter for Interp {
        type Value = i64;
        fn int(&mut self, value: i64) -> i64 {
            value
        }
        fn boolean(&mut self, value: bool) -> i64 {
            value as i64
        }
        fn symbol(&mut self, name: &str) -> Result<i64, String> {
            self.0.get(name).copied().ok_or_else(|| name.to_string())
        }
        fn binary(&mut self, op: IntOp, a: i64, b: i64) -> i64 {
            match op {
                IntOp::Add => a + b,
                IntOp::Sub => a - b,
                IntOp::Mul => a * b,
                IntOp::DivTrunc => a / b,
                IntOp::FloorDiv => a.div_euclid(b) - i64::from(b < 0 && a.rem_euclid(b) != 0),
                IntOp::FloorMod => {
                    a - b * (a.div_euclid(b) - i64::from(b < 0 && a.rem_euclid(b) != 0))
                }
                IntOp::Min => a.min(b),
                IntOp::Max => a.max(b),
                IntOp::And => a & b,
                IntOp::Or => a | b,
                IntOp::Xor => a ^ b,
                IntOp::Shl => a << b,
                IntOp::Shr => a >> b,
                IntOp::Pow => a.pow(b as u32),
            }
        }
        fn compare(&mut self, op: CmpOp, a: i64, b: i64) -> i64 {
            (match op {
                CmpOp::Le => a <= b,
                CmpOp::Lt => a < b,
                CmpOp::Eq => a == b,
                CmpOp::Ne => a != b,
            }) as i64
        }
        fn logic(&mut self, and: bool, a: i64, b: i64) -> i64 {
            if and {
                (a != 0 && b != 0) as i64
            } else {
                (a != 0 || b != 0) as i64
            }
        }
        fn bool_to_int(&mut self, value: i64) -> i64 {
            value
        }
        fn call(&mut self, name: &str, _: Vec<i64>) -> Result<i64, String> {
            Err(name.to_string())
        }
        fn subscript(&mut self, name: &str, _: Vec<i64>) -> Result<i64, String> {
            Err(name.to_string())
        }
    }

    #[test]
    fn emitted_code_computes_what_evaluate_computes() {
        let texts = [
            "(t + 1) % 2",
            "N - 1",
            "i*N + j",
            "N // 3 + (N - 1) // 2",
            "Min(N, M - 2) + Max(i, 3)",
            "floor(N / 2) - 3*i",
            "(i - 7) // 4",
            "(-i) % 3",
            "abs(i - N)",
            "i**3 - 2*i**2",
            "int(i < N) + int(N >= 4)",
            "i < N and (M == 3 or N != 2)",
            "not (t < T)",
            "(i | N) + 1",
            "(i & 3) ^ N",
            "i << N",
            "(N << 2) >> 1",
            "(i >> 1) + (i >> N)",
            "~i + (t ^ -1)",
            "2**N - N**(M - 5)",
            "((t >> 1) ^ 40961) * (t & 1)",
        ];
        for text in texts {
            let e = parse(text).unwrap();
            for (i, n) in [(0, 5), (3, 7), (-5, 9), (11, 4)] {
                let env: HashMap<String, i64> =
                    [("i", i), ("j", 2), ("N", n), ("M", 6), ("t", i), ("T", n)]
                        .into_iter()
                        .map(|(k, v)| (k.to_string(), v))
                        .collect();
                let expected = match e.evaluate(&env).unwrap() {
                    crate::Value::Int(v) => v,
                    crate::Value::Bool(b) => b as i64,
                };
                let got = e.emit_int(&mut Interp(env.clone())).unwrap();
                assert_eq!(got, expected, "{text} with i={i}, N={n}");
            }
        }
    }
}
