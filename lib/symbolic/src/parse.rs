//! Lexer, parser and lowering of DaCe/SymPy/Python expression text.

use crate::expr::{BitOp, Expr};
use crate::rational::Rat;
use std::cell::RefCell;
use std::collections::HashMap;
use std::thread::LocalKey;

/// A parse error with the 1-based column (in characters) where it was detected.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("column {column}: {message}")]
pub struct ParseError {
    /// 1-based character column of the offending input.
    pub column: usize,
    /// What went wrong.
    pub message: String,
}

fn err<T>(column: usize, message: impl Into<String>) -> Result<T, ParseError> {
    Err(ParseError {
        column,
        message: message.into(),
    })
}

/// Deepest nesting the parser accepts (protects the stack).
const MAX_DEPTH: usize = 100;

#[derive(Clone, PartialEq, Debug)]
pub(crate) enum Tok {
    Num(Rat),
    Ident(String),
    Undef,
    Op(&'static str),
    Eof,
}

#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub(crate) tok: Tok,
    pub(crate) col: usize,
}

const OPS: [&str; 29] = [
    "**", "//", "<<", ">>", "<=", ">=", "==", "!=", "+=", "-=", "*=", "+", "-", "*", "/", "%", "<",
    ">", "(", ")", "[", "]", ",", ":", "=", "~", "&", "|", "^",
];

fn lex(text: &str) -> Result<Vec<Token>, ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let col = i + 1;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c.is_ascii_digit() || (c == '.' && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit()))
        {
            let (v, n) = lex_number(&chars[i..], col)?;
            out.push(Token {
                tok: Tok::Num(v),
                col,
            });
            i += n;
            continue;
        }
        if c == '$' {
            if chars.get(i + 1) == Some(&'?') {
                out.push(Token {
                    tok: Tok::Undef,
                    col,
                });
                i += 2;
                continue;
            }
            if chars
                .get(i + 1)
                .is_some_and(|d| d.is_alphabetic() || *d == '_')
            {
                let n = ident_len(&chars[i + 1..]);
                let name: String = chars[i + 1..i + 1 + n].iter().collect();
                out.push(Token {
                    tok: Tok::Ident(name),
                    col,
                });
                i += 1 + n;
                continue;
            }
            return err(col, "`$` must be followed by a symbol name or `?`");
        }
        if c == '?' {
            out.push(Token {
                tok: Tok::Undef,
                col,
            });
            i += 1;
            continue;
        }
        if c.is_alphabetic() || c == '_' {
            let n = ident_len(&chars[i..]);
            let name: String = chars[i..i + n].iter().collect();
            out.push(Token {
                tok: Tok::Ident(name),
                col,
            });
            i += n;
            continue;
        }
        let rest: String = chars[i..chars.len().min(i + 2)].iter().collect();
        match OPS.iter().find(|op| rest.starts_with(**op)) {
            Some(op) => {
                out.push(Token {
                    tok: Tok::Op(op),
                    col,
                });
                i += op.len();
            }
            None => return err(col, format!("unexpected character `{c}`")),
        }
    }
    out.push(Token {
        tok: Tok::Eof,
        col: chars.len() + 1,
    });
    Ok(out)
}

/// Length of an identifier, dotted names (`dace.int64`) included.
fn ident_len(chars: &[char]) -> usize {
    let mut n = 0;
    while n < chars.len() {
        let c = chars[n];
        let dotted = c == '.'
            && chars
                .get(n + 1)
                .is_some_and(|d| d.is_alphabetic() || *d == '_');
        if c.is_alphanumeric() || c == '_' || dotted {
            n += 1;
        } else {
            break;
        }
    }
    n
}

/// Lexes an integer, decimal or typed literal (`3`, `1_000`, `0.5`, `1e3`, `3i64`, `2.0f32`).
fn lex_number(chars: &[char], col: usize) -> Result<(Rat, usize), ParseError> {
    let mut n = 0;
    let mut digits = String::new();
    let mut frac = String::new();
    let mut exp: i32 = 0;
    while n < chars.len() && (chars[n].is_ascii_digit() || chars[n] == '_') {
        if chars[n] != '_' {
            digits.push(chars[n]);
        }
        n += 1;
    }
    if n < chars.len() && chars[n] == '.' {
        n += 1;
        while n < chars.len() && chars[n].is_ascii_digit() {
            frac.push(chars[n]);
            n += 1;
        }
    }
    if n < chars.len() && (chars[n] == 'e' || chars[n] == 'E') {
        let mut m = n + 1;
        let mut neg = false;
        if m < chars.len() && (chars[m] == '+' || chars[m] == '-') {
            neg = chars[m] == '-';
            m += 1;
        }
        let start = m;
        while m < chars.len() && chars[m].is_ascii_digit() {
            m += 1;
        }
        if m > start {
            let s: String = chars[start..m].iter().collect();
            exp = match s.parse::<i32>() {
                Ok(v) if v <= 60 => v,
                _ => return err(col, "exponent of numeric literal too large"),
            };
            if neg {
                exp = -exp;
            }
            n = m;
        }
    }
    // Typed literal suffixes of DaCe 2.0 (`3i64`, `7u32`, `1.5f64`).
    if n < chars.len() && matches!(chars[n], 'i' | 'u' | 'f') {
        let mut m = n + 1;
        while m < chars.len() && chars[m].is_ascii_digit() {
            m += 1;
        }
        let width: String = chars[n + 1..m].iter().collect();
        if matches!(width.as_str(), "8" | "16" | "32" | "64" | "128")
            && !chars
                .get(m)
                .is_some_and(|c| c.is_alphanumeric() || *c == '_')
        {
            n = m;
        }
    }
    if chars.get(n).is_some_and(|c| c.is_alphabetic() || *c == '_') {
        return err(col + n, "unexpected character after numeric literal");
    }
    let all = format!("{digits}{frac}");
    let all = if all.is_empty() { "0".to_string() } else { all };
    let Ok(mantissa) = all.parse::<i128>() else {
        return err(col, "numeric literal too large");
    };
    let scale = exp - frac.len() as i32;
    let ten = Rat::int(10);
    let Some(factor) = ten.pow(scale as i128) else {
        return err(col, "numeric literal too large");
    };
    match Rat::int(mantissa).mul(factor) {
        Some(v) => Ok((v, n)),
        None => err(col, "numeric literal too large"),
    }
}

/// Raw syntax tree, before normalisation.
#[derive(Clone, Debug)]
pub(crate) enum Ast {
    Num(Rat),
    Name(String),
    Bool(bool),
    Undefined,
    Neg(Box<Ast>),
    Not(Box<Ast>),
    Bin(BinOp, Box<Ast>, Box<Ast>),
    /// `&`, `|`, `^`, `<<`, `>>`: bitwise on integers, logical between
    /// conditions (SymPy prints `And`/`Or` as `&`/`|`).
    Bit(BitOp, Box<Ast>, Box<Ast>),
    /// `~`: Python's bitwise inversion on integers, `Not` on a condition
    /// (SymPy prints `Not(x)` as `~x`).
    Invert(Box<Ast>),
    Cmp(Vec<Ast>, Vec<CmpOp>),
    And(Vec<Ast>),
    Or(Vec<Ast>),
    Call(String, Vec<Ast>, usize),
    Index(String, Vec<Ast>),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Mod,
    Pow,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum CmpOp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

/// Recursive-descent parser over a token list.
pub(crate) struct Parser {
    toks: Vec<Token>,
    pos: usize,
    depth: usize,
}

impl Parser {
    pub(crate) fn new(text: &str) -> Result<Parser, ParseError> {
        Ok(Parser {
            toks: lex(text)?,
            pos: 0,
            depth: 0,
        })
    }

    pub(crate) fn peek(&self) -> &Token {
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }

    pub(crate) fn next(&mut self) -> Token {
        let t = self.peek().clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }

    pub(crate) fn at_op(&self, op: &str) -> bool {
        matches!(&self.peek().tok, Tok::Op(o) if *o == op)
    }

    pub(crate) fn at_ident(&self, name: &str) -> bool {
        matches!(&self.peek().tok, Tok::Ident(s) if s == name)
    }

    pub(crate) fn eat_op(&mut self, op: &str) -> bool {
        if self.at_op(op) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect_op(&mut self, op: &str) -> Result<(), ParseError> {
        if self.eat_op(op) {
            Ok(())
        } else {
            let t = self.peek().clone();
            err(
                t.col,
                format!("expected `{op}`, found {}", describe(&t.tok)),
            )
        }
    }

    pub(crate) fn expect_eof(&mut self) -> Result<(), ParseError> {
        let t = self.peek().clone();
        match t.tok {
            Tok::Eof => Ok(()),
            _ => err(
                t.col,
                format!("unexpected {} after expression", describe(&t.tok)),
            ),
        }
    }

    fn enter(&mut self) -> Result<(), ParseError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return err(self.peek().col, "expression nested too deeply");
        }
        Ok(())
    }

    pub(crate) fn expr(&mut self) -> Result<Ast, ParseError> {
        self.enter()?;
        let r = self.or_expr();
        self.depth -= 1;
        r
    }

    fn or_expr(&mut self) -> Result<Ast, ParseError> {
        let mut v = vec![self.and_expr()?];
        while self.at_ident("or") {
            self.next();
            v.push(self.and_expr()?);
        }
        Ok(if v.len() == 1 {
            v.remove(0)
        } else {
            Ast::Or(v)
        })
    }

    fn and_expr(&mut self) -> Result<Ast, ParseError> {
        let mut v = vec![self.not_expr()?];
        while self.at_ident("and") {
            self.next();
            v.push(self.not_expr()?);
        }
        Ok(if v.len() == 1 {
            v.remove(0)
        } else {
            Ast::And(v)
        })
    }

    fn not_expr(&mut self) -> Result<Ast, ParseError> {
        if self.at_ident("not") {
            self.next();
            self.enter()?;
            let inner = self.not_expr();
            self.depth -= 1;
            return Ok(Ast::Not(Box::new(inner?)));
        }
        self.comparison()
    }

    fn comparison(&mut self) -> Result<Ast, ParseError> {
        let first = self.bitwise(0)?;
        let mut operands = vec![first];
        let mut ops = Vec::new();
        loop {
            let op = match &self.peek().tok {
                Tok::Op("<") => CmpOp::Lt,
                Tok::Op("<=") => CmpOp::Le,
                Tok::Op(">") => CmpOp::Gt,
                Tok::Op(">=") => CmpOp::Ge,
                Tok::Op("==") => CmpOp::Eq,
                Tok::Op("!=") => CmpOp::Ne,
                Tok::Ident(s) if s == "is" || s == "in" => {
                    let t = self.peek().clone();
                    return err(t.col, format!("unsupported operator `{s}`"));
                }
                _ => break,
            };
            self.next();
            ops.push(op);
            operands.push(self.bitwise(0)?);
        }
        Ok(if ops.is_empty() {
            operands.remove(0)
        } else {
            Ast::Cmp(operands, ops)
        })
    }

    /// One level of left-associative binary bitwise operators, Python's
    /// precedence from `|` (weakest) to the shifts.
    fn bitwise(&mut self, level: usize) -> Result<Ast, ParseError> {
        const LEVELS: [&[(&str, BitOp)]; 4] = [
            &[("|", BitOp::Or)],
            &[("^", BitOp::Xor)],
            &[("&", BitOp::And)],
            &[("<<", BitOp::Shl), (">>", BitOp::Shr)],
        ];
        let operand = |p: &mut Parser| {
            if level + 1 < LEVELS.len() {
                p.bitwise(level + 1)
            } else {
                p.arith()
            }
        };
        let mut lhs = operand(self)?;
        while let Some((_, op)) = LEVELS[level].iter().find(|(t, _)| self.at_op(t)) {
            self.next();
            let rhs = operand(self)?;
            lhs = Ast::Bit(*op, Box::new(lhs), Box::new(rhs));
        }
        Ok(lhs)
    }

    fn arith(&mut self) -> Result<Ast, ParseError> {
        let mut lhs = self.term()?;
        loop {
            let op = if self.at_op("+") {
                BinOp::Add
            } else if self.at_op("-") {
                BinOp::Sub
            } else {
                break;
            };
            self.next();
            let rhs = self.term()?;
            lhs = Ast::Bin(op, Box::new(lhs), Box::new(rhs));
        }
        Ok(lhs)
    }

    fn term(&mut self) -> Result<Ast, ParseError> {
        let mut lhs = self.unary()?;
        loop {
            let op = match &self.peek().tok {
                Tok::Op("*") => BinOp::Mul,
                Tok::Op("/") => BinOp::Div,
                Tok::Op("//") => BinOp::FloorDiv,
                Tok::Op("%") => BinOp::Mod,
                _ => break,
            };
            self.next();
            let rhs = self.unary()?;
            lhs = Ast::Bin(op, Box::new(lhs), Box::new(rhs));
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> Result<Ast, ParseError> {
        let op = match &self.peek().tok {
            Tok::Op("-") => Some("-"),
            Tok::Op("+") => Some("+"),
            Tok::Op("~") => Some("~"),
            _ => None,
        };
        if let Some(op) = op {
            self.next();
            self.enter()?;
            let inner = self.unary();
            self.depth -= 1;
            let inner = inner?;
            return Ok(match op {
                "-" => Ast::Neg(Box::new(inner)),
                "~" => Ast::Invert(Box::new(inner)),
                _ => inner,
            });
        }
        self.power()
    }

    fn power(&mut self) -> Result<Ast, ParseError> {
        let base = self.primary()?;
        if self.eat_op("**") {
            self.enter()?;
            let exp = self.unary();
            self.depth -= 1;
            return Ok(Ast::Bin(BinOp::Pow, Box::new(base), Box::new(exp?)));
        }
        Ok(base)
    }

    fn args(&mut self, close: &str) -> Result<Vec<Ast>, ParseError> {
        let mut v = Vec::new();
        if self.eat_op(close) {
            return Ok(v);
        }
        loop {
            v.push(self.expr()?);
            if self.eat_op(",") {
                if self.eat_op(close) {
                    return Ok(v);
                }
                continue;
            }
            self.expect_op(close)?;
            return Ok(v);
        }
    }

    fn primary(&mut self) -> Result<Ast, ParseError> {
        let t = self.next();
        match t.tok {
            Tok::Num(v) => Ok(Ast::Num(v)),
            Tok::Undef => Ok(Ast::Undefined),
            Tok::Op("(") => {
                let e = self.expr()?;
                self.expect_op(")")?;
                Ok(e)
            }
            Tok::Ident(name) => {
                match name.as_str() {
                    "True" | "true" => return Ok(Ast::Bool(true)),
                    "False" | "false" => return Ok(Ast::Bool(false)),
                    "and" | "or" | "not" | "is" | "in" | "if" | "else" | "lambda" | "None" => {
                        return err(t.col, format!("unexpected keyword `{name}`"))
                    }
                    _ => {}
                }
                if self.eat_op("(") {
                    let args = self.args(")")?;
                    return Ok(Ast::Call(name, args, t.col));
                }
                if self.eat_op("[") {
                    let args = self.args("]")?;
                    if args.is_empty() {
                        return err(t.col, "empty subscript");
                    }
                    return Ok(Ast::Index(name, args));
                }
                Ok(Ast::Name(name))
            }
            other => err(
                t.col,
                format!("expected an expression, found {}", describe(&other)),
            ),
        }
    }
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Num(v) => format!("number `{v}`"),
        Tok::Ident(s) => format!("`{s}`"),
        Tok::Undef => "`?`".to_string(),
        Tok::Op(o) => format!("`{o}`"),
        Tok::Eof => "end of input".to_string(),
    }
}

/// Strips module prefixes such as `dace.`, `np.`, `sympy.` and `math.`.
fn base_name(name: &str) -> &str {
    for p in ["dace.", "numpy.", "np.", "sympy.", "math.", "builtins."] {
        if let Some(rest) = name.strip_prefix(p) {
            return rest;
        }
    }
    name
}

fn is_int_cast(name: &str) -> bool {
    matches!(
        name,
        "int"
            | "int8"
            | "int16"
            | "int32"
            | "int64"
            | "uint8"
            | "uint16"
            | "uint32"
            | "uint64"
            | "long"
            | "Integer"
            | "intp"
            | "uintp"
    )
}

/// Lowers a syntax tree into a normalised expression.
pub(crate) fn lower(ast: &Ast) -> Result<Expr, ParseError> {
    Ok(match ast {
        Ast::Num(v) => Expr::rat(*v),
        Ast::Name(n) => Expr::symbol(n),
        Ast::Bool(b) => Expr::bool(*b),
        Ast::Undefined => Expr::undefined(),
        Ast::Neg(a) => Expr::neg(&lower(a)?),
        Ast::Not(a) => Expr::not(&lower(a)?),
        Ast::Bin(op, a, b) => {
            let (a, b) = (lower(a)?, lower(b)?);
            match op {
                BinOp::Add => Expr::add(&a, &b),
                BinOp::Sub => Expr::sub(&a, &b),
                BinOp::Mul => Expr::mul(&a, &b),
                BinOp::Div => Expr::div(&a, &b),
                BinOp::FloorDiv => Expr::floordiv(&a, &b),
                BinOp::Mod => Expr::modulo(&a, &b),
                BinOp::Pow => Expr::pow(&a, &b),
            }
        }
        Ast::Bit(op, a, b) => {
            let (a, b) = (lower(a)?, lower(b)?);
            match op {
                BitOp::And if a.is_bool() && b.is_bool() => Expr::and(vec![a, b]),
                BitOp::Or if a.is_bool() && b.is_bool() => Expr::or(vec![a, b]),
                BitOp::Xor if a.is_bool() && b.is_bool() => {
                    Expr::ne(&Expr::truth(&a), &Expr::truth(&b))
                }
                _ => Expr::bitwise(*op, &a, &b),
            }
        }
        Ast::Invert(a) => {
            let a = lower(a)?;
            if a.is_bool() {
                Expr::not(&a)
            } else {
                Expr::invert(&a)
            }
        }
        Ast::Cmp(operands, ops) => {
            let vals = operands.iter().map(lower).collect::<Result<Vec<_>, _>>()?;
            let mut parts = Vec::with_capacity(ops.len());
            for (i, op) in ops.iter().enumerate() {
                parts.push(cmp(*op, &vals[i], &vals[i + 1]));
            }
            Expr::and(parts)
        }
        Ast::And(v) => Expr::and(v.iter().map(lower).collect::<Result<_, _>>()?),
        Ast::Or(v) => Expr::or(v.iter().map(lower).collect::<Result<_, _>>()?),
        Ast::Index(n, v) => Expr::index(n, v.iter().map(lower).collect::<Result<_, _>>()?),
        Ast::Call(name, args, col) => lower_call(name, args, *col)?,
    })
}

fn cmp(op: CmpOp, a: &Expr, b: &Expr) -> Expr {
    match op {
        CmpOp::Lt => Expr::lt(a, b),
        CmpOp::Le => Expr::le(a, b),
        CmpOp::Gt => Expr::gt(a, b),
        CmpOp::Ge => Expr::ge(a, b),
        CmpOp::Eq => Expr::eq(a, b),
        CmpOp::Ne => Expr::ne(a, b),
    }
}

fn lower_call(name: &str, args: &[Ast], col: usize) -> Result<Expr, ParseError> {
    let base = base_name(name);
    let arity = |n: usize| -> Result<(), ParseError> {
        if args.len() == n {
            Ok(())
        } else {
            err(
                col,
                format!(
                    "function `{name}` takes {n} argument{}, got {}",
                    if n == 1 { "" } else { "s" },
                    args.len()
                ),
            )
        }
    };
    let at_least_one = || -> Result<(), ParseError> {
        if args.is_empty() {
            err(
                col,
                format!("function `{name}` needs at least one argument"),
            )
        } else {
            Ok(())
        }
    };
    let known = matches!(
        base,
        "Min"
            | "min"
            | "Max"
            | "max"
            | "Mod"
            | "Abs"
            | "abs"
            | "int_floor"
            | "int_ceil"
            | "floor"
            | "Floor"
            | "ceiling"
            | "ceil"
            | "Ceiling"
            | "And"
            | "Or"
            | "Not"
            | "Eq"
            | "Equality"
            | "Ne"
            | "Unequality"
            | "Lt"
            | "StrictLessThan"
            | "Le"
            | "LessThan"
            | "Gt"
            | "StrictGreaterThan"
            | "Ge"
            | "GreaterThan"
            | "Pow"
            | "bool"
            | "Rational"
    ) || is_int_cast(base);
    if !known {
        let v = args.iter().map(lower).collect::<Result<Vec<_>, _>>()?;
        return Ok(Expr::call(name, v));
    }
    let v = args.iter().map(lower).collect::<Result<Vec<_>, _>>()?;
    Ok(match base {
        "Min" | "min" => {
            at_least_one()?;
            Expr::min(v)
        }
        "Max" | "max" => {
            at_least_one()?;
            Expr::max(v)
        }
        "Mod" => {
            arity(2)?;
            Expr::modulo(&v[0], &v[1])
        }
        "Abs" | "abs" => {
            arity(1)?;
            Expr::abs(&v[0])
        }
        "int_floor" => {
            arity(2)?;
            Expr::floordiv(&v[0], &v[1])
        }
        "int_ceil" => {
            arity(2)?;
            Expr::ceildiv(&v[0], &v[1])
        }
        "floor" | "Floor" => {
            arity(1)?;
            Expr::floor(&v[0])
        }
        "ceiling" | "ceil" | "Ceiling" => {
            arity(1)?;
            Expr::ceil(&v[0])
        }
        "And" => Expr::and(v),
        "Or" => Expr::or(v),
        "Not" => {
            arity(1)?;
            Expr::not(&v[0])
        }
        "Pow" => {
            arity(2)?;
            Expr::pow(&v[0], &v[1])
        }
        "Rational" => {
            arity(2)?;
            Expr::div(&v[0], &v[1])
        }
        "bool" => {
            arity(1)?;
            Expr::ne(&v[0], &Expr::int(0))
        }
        "Eq" | "Equality" | "Ne" | "Unequality" | "Lt" | "StrictLessThan" | "Le" | "LessThan"
        | "Gt" | "StrictGreaterThan" | "Ge" | "GreaterThan" => {
            arity(2)?;
            let op = match base {
                "Eq" | "Equality" => CmpOp::Eq,
                "Ne" | "Unequality" => CmpOp::Ne,
                "Lt" | "StrictLessThan" => CmpOp::Lt,
                "Le" | "LessThan" => CmpOp::Le,
                "Gt" | "StrictGreaterThan" => CmpOp::Gt,
                _ => CmpOp::Ge,
            };
            cmp(op, &v[0], &v[1])
        }
        _ => {
            arity(1)?;
            Expr::cast_int(&v[0])
        }
    })
}

/// Texts parsed by one thread, with their results.
pub(crate) type Memo<T> = RefCell<HashMap<String, Result<T, ParseError>>>;

/// Entries of a [`Memo`] past which it starts over.
const MEMO_LIMIT: usize = 1 << 14;

/// `compute(text)`, remembered in `memo`. Passes parse the same memlet
/// subsets, conditions and assignments again and again (every step of
/// simplify reads every memlet), and a parse costs microseconds where a
/// lookup costs tens of nanoseconds; a parse is a function of the text
/// alone.
pub(crate) fn memoized<T: Clone + 'static>(
    memo: &'static LocalKey<Memo<T>>,
    text: &str,
    compute: impl FnOnce(&str) -> Result<T, ParseError>,
) -> Result<T, ParseError> {
    if let Some(hit) = memo.with(|m| m.borrow().get(text).cloned()) {
        return hit;
    }
    let result = compute(text);
    memo.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= MEMO_LIMIT {
            m.clear();
        }
        m.insert(text.to_owned(), result.clone());
    });
    result
}

thread_local! {
    static PARSED: Memo<Expr> = RefCell::default();
}

/// Parses an expression in DaCe 1.0 (SymPy/Python) or DaCe 2.0 (`$N`, `3i64`, `$?`) syntax.
pub fn parse(text: &str) -> Result<Expr, ParseError> {
    memoized(&PARSED, text, parse_expression)
}

fn parse_expression(text: &str) -> Result<Expr, ParseError> {
    let mut p = Parser::new(text)?;
    let ast = p.expr()?;
    p.expect_eof()?;
    lower(&ast)
}

#[cfg(test)]
pub(crate) fn parse_ast(text: &str) -> Result<Ast, ParseError> {
    let mut p = Parser::new(text)?;
    let ast = p.expr()?;
    p.expect_eof()?;
    Ok(ast)
}

/// One Python statement of a loop or inter-state edge.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Statement {
    /// `name = value` (augmented assignments are expanded: `i += 1` is `i = i + 1`).
    Assign(String, Expr),
    /// A bare expression.
    Expr(Expr),
}

/// Parses Python statements separated by newlines or `;` (as in LoopRegion
/// `init_statement` / `update_statement`).
pub fn parse_statements(text: &str) -> Result<Vec<Statement>, ParseError> {
    let mut out = Vec::new();
    let mut offset = 0;
    for part in text.split(['\n', ';']) {
        let len = part.chars().count();
        if !part.trim().is_empty() {
            out.push(parse_statement(part).map_err(|e| ParseError {
                column: e.column + offset,
                message: e.message,
            })?);
        }
        offset += len + 1;
    }
    if out.is_empty() {
        return err(1, "no statement");
    }
    Ok(out)
}

fn parse_statement(text: &str) -> Result<Statement, ParseError> {
    let mut p = Parser::new(text)?;
    if let Tok::Ident(name) = p.peek().tok.clone() {
        let save = p.pos;
        p.next();
        let aug = match &p.peek().tok {
            Tok::Op("=") => Some(None),
            Tok::Op("+=") => Some(Some(BinOp::Add)),
            Tok::Op("-=") => Some(Some(BinOp::Sub)),
            Tok::Op("*=") => Some(Some(BinOp::Mul)),
            _ => None,
        };
        if let Some(op) = aug {
            p.next();
            let rhs = p.expr()?;
            p.expect_eof()?;
            let rhs = match op {
                None => rhs,
                Some(op) => Ast::Bin(op, Box::new(Ast::Name(name.clone())), Box::new(rhs)),
            };
            return Ok(Statement::Assign(name, lower(&rhs)?));
        }
        p.pos = save;
    }
    let e = p.expr()?;
    p.expect_eof()?;
    Ok(Statement::Expr(lower(&e)?))
}

/// Parses `name = value` and returns both parts.
pub fn parse_assignment(text: &str) -> Result<(String, Expr), ParseError> {
    match parse_statement(text)? {
        Statement::Assign(n, e) => Ok((n, e)),
        Statement::Expr(_) => err(1, "expected an assignment `name = value`"),
    }
}
