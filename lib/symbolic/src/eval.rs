//! Exact evaluation of expressions under integer valuations.

use std::collections::HashMap;
use std::fmt;

use crate::expr::{Atom, BitOp, Expr, Node, Rel};
use crate::poly::Poly;
use crate::rational::Rat;

/// The value of an evaluated expression.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Value {
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            Value::Bool(b) => write!(f, "{}", if *b { "True" } else { "False" }),
        }
    }
}

/// Why an expression could not be evaluated.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum EvalError {
    /// A free symbol has no value in the valuation.
    #[error("symbol `{0}` has no value")]
    Unbound(String),
    /// The expression depends on the undefined value.
    #[error("the expression depends on the undefined value `?`")]
    Undefined,
    /// An intermediate or final value does not fit (128-bit intermediates, 64-bit result).
    #[error("integer overflow")]
    Overflow,
    /// Division or modulo by zero.
    #[error("division by zero")]
    DivisionByZero,
    /// The exact result is a fraction.
    #[error("result {0} is not an integer")]
    NotInteger(String),
    /// The expression contains an opaque call or subscript.
    #[error("cannot evaluate opaque term `{0}`")]
    Opaque(String),
}

type Env<'a> = &'a HashMap<String, i64>;

fn ovf<T>(v: Option<T>) -> Result<T, EvalError> {
    v.ok_or(EvalError::Overflow)
}

pub(crate) fn eval_poly(p: &Poly, env: Env) -> Result<Rat, EvalError> {
    let mut acc = Rat::ZERO;
    for (m, c) in &p.terms {
        let mut t = *c;
        for (a, e) in &m.factors {
            let v = eval_atom(a, env)?;
            if v.is_zero() && *e < 0 {
                return Err(EvalError::DivisionByZero);
            }
            t = ovf(t.mul(ovf(v.pow(*e as i128))?))?;
        }
        acc = ovf(acc.add(t))?;
    }
    Ok(acc)
}

fn eval_num(e: &Expr, env: Env) -> Result<Rat, EvalError> {
    match e.node() {
        Node::Num(p) => eval_poly(p, env),
        Node::Undefined => Err(EvalError::Undefined),
        _ => Ok(Rat::int(eval_bool(e, env)? as i128)),
    }
}

fn eval_atom(a: &Atom, env: Env) -> Result<Rat, EvalError> {
    Ok(match a {
        Atom::Sym(s) => match env.get(&**s) {
            Some(v) => Rat::int(*v as i128),
            None => return Err(EvalError::Unbound(s.to_string())),
        },
        Atom::Floor(e) => Rat::int(eval_num(e, env)?.floor()),
        Atom::Mod(x, y) => {
            let (x, y) = (eval_num(x, env)?, eval_num(y, env)?);
            if y.is_zero() {
                return Err(EvalError::DivisionByZero);
            }
            let q = ovf(x.div(y))?.floor();
            ovf(x.sub(ovf(y.mul(Rat::int(q)))?))?
        }
        Atom::Min(v) | Atom::Max(v) => {
            let mut best: Option<Rat> = None;
            for x in v {
                let r = eval_num(x, env)?;
                best = Some(match best {
                    None => r,
                    Some(b) if matches!(a, Atom::Min(_)) => b.min(r),
                    Some(b) => b.max(r),
                });
            }
            best.ok_or(EvalError::Undefined)?
        }
        Atom::Abs(e) => ovf(eval_num(e, env)?.abs())?,
        Atom::Group(e) => eval_num(e, env)?,
        Atom::Pow(b, e) => {
            let (b, e) = (eval_num(b, env)?, eval_num(e, env)?);
            if !e.is_int() {
                if b == Rat::ONE {
                    return Ok(Rat::ONE);
                }
                return Err(EvalError::Opaque(format!("{b}**({e})")));
            }
            if b.is_zero() && e.is_negative() {
                return Err(EvalError::DivisionByZero);
            }
            if e.num().unsigned_abs() > 4096
                && b.abs().is_some_and(|x| x != Rat::ONE)
                && !b.is_zero()
            {
                return Err(EvalError::Overflow);
            }
            ovf(b.pow(e.num()))?
        }
        Atom::Truth(c) => Rat::int(eval_bool(c, env)? as i128),
        Atom::Call(n, v) if &**n == "int" && v.len() == 1 => {
            let x = eval_num(&v[0], env)?;
            Rat::int(if x.is_negative() { x.ceil() } else { x.floor() })
        }
        Atom::Call(n, _) => return Err(EvalError::Opaque(n.to_string())),
        Atom::Index(n, _) => return Err(EvalError::Opaque(n.to_string())),
        Atom::Bit(op, v) => {
            let (x, y) = (eval_num(&v[0], env)?, eval_num(&v[1], env)?);
            for operand in [x, y] {
                if !operand.is_int() {
                    return Err(EvalError::NotInteger(operand.to_string()));
                }
            }
            if matches!(op, BitOp::Shl | BitOp::Shr) && y.is_negative() {
                return Err(EvalError::Opaque(format!("a shift by {y}")));
            }
            Rat::int(ovf(op.apply(x.num(), y.num()))?)
        }
    })
}

fn eval_bool(e: &Expr, env: Env) -> Result<bool, EvalError> {
    match e.node() {
        Node::Bool(b) => Ok(*b),
        Node::Undefined => Err(EvalError::Undefined),
        Node::Num(p) => Ok(!eval_poly(p, env)?.is_zero()),
        Node::Rel(r, p) => {
            let v = eval_poly(p, env)?;
            Ok(match r {
                Rel::Le => v.is_negative() || v.is_zero(),
                Rel::Lt => v.is_negative(),
                Rel::Eq => v.is_zero(),
                Rel::Ne => !v.is_zero(),
            })
        }
        Node::And(v) => {
            for x in v {
                if !eval_bool(x, env)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        Node::Or(v) => {
            for x in v {
                if eval_bool(x, env)? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
    }
}

impl Expr {
    /// Evaluates the expression exactly under an integer valuation of its symbols.
    ///
    /// Intermediate values are exact rationals with 128-bit parts; the result
    /// must be an integer that fits in `i64` (or a boolean).
    pub fn evaluate(&self, env: &HashMap<String, i64>) -> Result<Value, EvalError> {
        match self.node() {
            Node::Num(p) => {
                let r = eval_poly(p, env)?;
                if !r.is_int() {
                    return Err(EvalError::NotInteger(r.to_string()));
                }
                r.to_i64().map(Value::Int).ok_or(EvalError::Overflow)
            }
            Node::Undefined => Err(EvalError::Undefined),
            _ => eval_bool(self, env).map(Value::Bool),
        }
    }

    /// Evaluates a numeric expression to an exact rational (`num`, `den`).
    pub fn evaluate_rational(&self, env: &HashMap<String, i64>) -> Result<(i128, i128), EvalError> {
        let r = eval_num(self, env)?;
        Ok((r.num(), r.den()))
    }
}
