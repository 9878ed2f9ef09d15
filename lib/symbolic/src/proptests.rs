//! Property tests: round trips, value preservation, union and image soundness.

use std::collections::HashMap;

use proptest::prelude::*;

use crate::expr::BitOp;
use crate::parse::{parse_ast, Ast, BinOp, CmpOp};
use crate::rational::Rat;
use crate::*;

const SYMS: [&str; 4] = ["a", "b", "N", "i"];

fn num_expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        (-6i64..12).prop_map(|v| format!("{v}")),
        prop::sample::select(SYMS.to_vec()).prop_map(str::to_string),
    ];
    leaf.prop_recursive(4, 40, 3, |inner| {
        let pos = 1i64..6;
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(x, y)| format!("({x} + {y})")),
            (inner.clone(), inner.clone()).prop_map(|(x, y)| format!("({x} - {y})")),
            (inner.clone(), inner.clone()).prop_map(|(x, y)| format!("({x})*({y})")),
            (inner.clone(), pos.clone()).prop_map(|(x, d)| format!("int_floor({x}, {d})")),
            (inner.clone(), pos.clone()).prop_map(|(x, d)| format!("int_ceil({x}, {d})")),
            (inner.clone(), pos.clone()).prop_map(|(x, d)| format!("({x}) % {d}")),
            (inner.clone(), pos.clone()).prop_map(|(x, d)| format!("({x}) // {d}")),
            (inner.clone(), pos.clone()).prop_map(|(x, d)| format!("({x})/{d}")),
            (inner.clone(), inner.clone()).prop_map(|(x, y)| format!("Mod({x}, {y})")),
            (inner.clone(), inner.clone()).prop_map(|(x, y)| format!("Min({x}, {y})")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(x, y, z)| format!("Max({x}, {y}, {z})")),
            inner.clone().prop_map(|x| format!("Abs({x})")),
            inner.clone().prop_map(|x| format!("-({x})")),
            (inner.clone(), 0u32..4).prop_map(|(x, k)| format!("({x})**{k}")),
            inner.clone().prop_map(|x| format!("ceiling(({x})/3)")),
            (
                inner.clone(),
                prop::sample::select(vec!["&", "|", "^"]),
                inner.clone()
            )
                .prop_map(|(x, op, y)| format!("(({x}) {op} ({y}))")),
            (
                inner.clone(),
                prop::sample::select(vec!["<<", ">>"]),
                0u32..5
            )
                .prop_map(|(x, op, k)| format!("(({x}) {op} {k})")),
            (inner.clone(), prop::sample::select(SYMS.to_vec()))
                .prop_map(|(x, n)| format!("(({x}) >> Abs({n}))")),
            inner.clone().prop_map(|x| format!("~({x})")),
        ]
    })
}

fn bool_expr() -> impl Strategy<Value = String> {
    let cmp = (
        num_expr(),
        prop::sample::select(vec!["<", "<=", ">", ">=", "==", "!="]),
        num_expr(),
    )
        .prop_map(|(a, op, b)| format!("({a} {op} {b})"));
    cmp.prop_recursive(2, 8, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(x, y)| format!("({x} and {y})")),
            (inner.clone(), inner.clone()).prop_map(|(x, y)| format!("({x} or {y})")),
            inner.clone().prop_map(|x| format!("(not {x})")),
            (inner.clone(), inner.clone()).prop_map(|(x, y)| format!("({x} & {y})")),
            (inner.clone(), inner.clone()).prop_map(|(x, y)| format!("({x} | {y})")),
            (inner.clone(), inner.clone()).prop_map(|(x, y)| format!("({x} ^ {y})")),
            inner.clone().prop_map(|x| format!("~{x}")),
        ]
    })
}

fn any_expr() -> impl Strategy<Value = String> {
    prop_oneof![3 => num_expr(), 1 => bool_expr()]
}

fn valuation() -> impl Strategy<Value = HashMap<String, i64>> {
    prop::collection::vec(-7i64..8, SYMS.len()).prop_map(|v| {
        SYMS.iter()
            .zip(v)
            .map(|(s, x)| (s.to_string(), x))
            .collect()
    })
}

#[derive(Debug, PartialEq)]
enum RV {
    Num(Rat),
    Bool(bool),
}

/// Direct evaluation of the syntax tree (Python semantics), the oracle.
fn reference(a: &Ast, env: &HashMap<String, i64>) -> Option<RV> {
    let num = |a: &Ast| -> Option<Rat> {
        match reference(a, env)? {
            RV::Num(r) => Some(r),
            RV::Bool(b) => Some(Rat::int(b as i128)),
        }
    };
    let truth = |a: &Ast| -> Option<bool> {
        match reference(a, env)? {
            RV::Num(r) => Some(!r.is_zero()),
            RV::Bool(b) => Some(b),
        }
    };
    let pymod = |x: Rat, y: Rat| -> Option<Rat> {
        let q = x.div(y)?.floor();
        x.sub(y.mul(Rat::int(q))?)
    };
    Some(match a {
        Ast::Num(r) => RV::Num(*r),
        Ast::Name(n) => RV::Num(Rat::int(*env.get(n)? as i128)),
        Ast::Bool(b) => RV::Bool(*b),
        Ast::Undefined | Ast::Index(..) => return None,
        Ast::Neg(x) => RV::Num(num(x)?.neg()?),
        Ast::Not(x) => RV::Bool(!truth(x)?),
        Ast::Bin(op, x, y) => {
            let (x, y) = (num(x)?, num(y)?);
            RV::Num(match op {
                BinOp::Add => x.add(y)?,
                BinOp::Sub => x.sub(y)?,
                BinOp::Mul => x.mul(y)?,
                BinOp::Div => x.div(y)?,
                BinOp::FloorDiv => Rat::int(x.div(y)?.floor()),
                BinOp::Mod => pymod(x, y)?,
                BinOp::Pow => {
                    if !y.is_int() || y.num().abs() > 12 {
                        return None;
                    }
                    x.pow(y.num())?
                }
            })
        }
        Ast::Bit(op, x, y) => match (reference(x, env)?, reference(y, env)?) {
            (RV::Bool(x), RV::Bool(y)) => RV::Bool(match op {
                BitOp::And => x & y,
                BitOp::Or => x | y,
                BitOp::Xor => x ^ y,
                BitOp::Shl | BitOp::Shr => return None,
            }),
            _ => {
                let (x, y) = (num(x)?, num(y)?);
                if !x.is_int() || !y.is_int() {
                    return None;
                }
                let (x, y) = (x.num(), y.num());
                RV::Num(Rat::int(match op {
                    BitOp::And => x & y,
                    BitOp::Or => x | y,
                    BitOp::Xor => x ^ y,
                    BitOp::Shl if (0..40).contains(&y) => x.checked_mul(1 << y)?,
                    BitOp::Shr if y >= 0 => x >> y.min(127),
                    BitOp::Shl | BitOp::Shr => return None,
                }))
            }
        },
        Ast::Invert(x) => match reference(x, env)? {
            RV::Bool(b) => RV::Bool(!b),
            RV::Num(n) if n.is_int() => RV::Num(Rat::int(-n.num() - 1)),
            RV::Num(_) => return None,
        },
        Ast::Cmp(v, ops) => {
            let vals = v.iter().map(num).collect::<Option<Vec<_>>>()?;
            RV::Bool(ops.iter().enumerate().all(|(i, op)| {
                let (x, y) = (vals[i], vals[i + 1]);
                match op {
                    CmpOp::Lt => x < y,
                    CmpOp::Le => x <= y,
                    CmpOp::Gt => x > y,
                    CmpOp::Ge => x >= y,
                    CmpOp::Eq => x == y,
                    CmpOp::Ne => x != y,
                }
            }))
        }
        Ast::And(v) => {
            let vals = v.iter().map(truth).collect::<Option<Vec<_>>>()?;
            RV::Bool(vals.into_iter().all(|b| b))
        }
        Ast::Or(v) => {
            let vals = v.iter().map(truth).collect::<Option<Vec<_>>>()?;
            RV::Bool(vals.into_iter().any(|b| b))
        }
        Ast::Call(name, args, _) => {
            let v = args.iter().map(num).collect::<Option<Vec<_>>>()?;
            RV::Num(match (name.as_str(), v.as_slice()) {
                ("Min", _) => v.iter().copied().min()?,
                ("Max", _) => v.iter().copied().max()?,
                ("Abs", [x]) => x.abs()?,
                ("Mod", [x, y]) => pymod(*x, *y)?,
                ("int_floor", [x, y]) => Rat::int(x.div(*y)?.floor()),
                ("int_ceil", [x, y]) => Rat::int(x.div(*y)?.ceil()),
                ("ceiling", [x]) => Rat::int(x.ceil()),
                _ => return None,
            })
        }
    })
}

fn eval_rv(e: &Expr, env: &HashMap<String, i64>) -> Option<RV> {
    if e.is_bool() {
        match e.evaluate(env).ok()? {
            Value::Bool(b) => Some(RV::Bool(b)),
            Value::Int(_) => None,
        }
    } else {
        let (n, d) = e.evaluate_rational(env).ok()?;
        Some(RV::Num(Rat::new(n, d)?))
    }
}

/// Whether the index `x` lies in the range evaluated under `env`.
fn member(r: &Range, x: i64, env: &HashMap<String, i64>) -> bool {
    let ev = |e: &Expr| match e.evaluate(env) {
        Ok(Value::Int(v)) => v,
        other => panic!("range bound {e} does not evaluate: {other:?}"),
    };
    let (s, e, st, t) = (ev(&r.start), ev(&r.end), ev(&r.step), ev(&r.tile));
    assert!(st > 0 && t > 0);
    let mut o = s;
    while o < e {
        if o <= x && x < o + t {
            return true;
        }
        o += st;
    }
    false
}

fn simple_range() -> impl Strategy<Value = String> {
    let bound = prop_oneof![
        (0i64..8).prop_map(|v| v.to_string()),
        (-2i64..3).prop_map(|v| format!("N + {v}")),
        (1i64..3).prop_map(|v| format!("{v}*N")),
    ];
    (bound.clone(), 1i64..9, 1i64..4, 1i64..3)
        .prop_map(|(s, len, step, tile)| format!("{s}:{s} + {len}:{step} tile {tile}"))
}

fn subscript() -> impl Strategy<Value = String> {
    prop_oneof![
        (-3i64..4, -3i64..4, -2i64..5).prop_map(|(c, d, k)| format!("{c}*i + {d}*j + {k}")),
        (1i64..4, 1i64..6).prop_map(|(c, d)| format!("({c}*i + j) % {d}")),
        (1i64..4, 1i64..6).prop_map(|(c, d)| format!("int_floor({c}*i + 1, {d})")),
        (1i64..4).prop_map(|c| format!("Min(i, {c}*j)")),
        (1i64..4).prop_map(|c| format!("Max(i - j, {c})")),
        (1i64..4).prop_map(|c| format!("i*j + {c}")),
        Just("Abs(i - j)".to_string()),
        (1i64..4).prop_map(|c| format!("i:i + {c}")),
        (1i64..4).prop_map(|c| format!("2*i:2*i + {c}:2")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn print_parse_is_identity(s in any_expr()) {
        let e = parse(&s).unwrap();
        let printed = e.to_string();
        let back = parse(&printed).unwrap_or_else(|err| panic!("{printed}: {err}"));
        prop_assert_eq!(&back, &e, "{} printed {}", s, printed);
        prop_assert_eq!(back.to_string(), printed);
    }

    #[test]
    fn simplification_preserves_value(s in any_expr(), env in valuation()) {
        let ast = parse_ast(&s).unwrap();
        let e = parse(&s).unwrap();
        if let Some(want) = reference(&ast, &env) {
            prop_assert_eq!(eval_rv(&e, &env), Some(want), "{} = {}", s, e);
        }
    }

    #[test]
    fn substitution_preserves_value(s in num_expr(), t in num_expr(), env in valuation()) {
        let e = parse(&s).unwrap();
        let f = parse(&t).unwrap();
        let Some(RV::Num(fv)) = eval_rv(&f, &env) else { return Ok(()); };
        let Some(fv) = fv.to_i64() else { return Ok(()); };
        let mut env2 = env.clone();
        env2.insert("a".into(), fv);
        let map: HashMap<String, Expr> = [("a".to_string(), f)].into_iter().collect();
        let sub = e.substitute(&map);
        if let Some(want) = eval_rv(&e, &env2) {
            prop_assert_eq!(eval_rv(&sub, &env), Some(want), "{} with a = {}", e, t);
        }
    }

    #[test]
    fn union_covers_both_operands(a in simple_range(), b in simple_range(), n in 1i64..12) {
        let asm = Assumptions::new().positive("N");
        let (sa, sb) = (parse_subset(&a).unwrap(), parse_subset(&b).unwrap());
        let u = sa.union(&sb, &asm).unwrap();
        let env: HashMap<String, i64> = [("N".to_string(), n)].into_iter().collect();
        for x in -5..60 {
            if member(&sa.ranges()[0], x, &env) || member(&sb.ranges()[0], x, &env) {
                prop_assert!(member(&u.ranges()[0], x, &env), "{} in {} | {} = {}", x, a, b, u);
            }
        }
        if u == sa {
            prop_assert_ne!(sa.covers(&sb, &asm).unwrap(), Tri::False);
        }
    }

    #[test]
    fn image_contains_every_point(sub in subscript(), n in 1i64..7, m in 1i64..7) {
        let asm = Assumptions::new().positive("N").positive("M");
        let params = vec![
            ("i".to_string(), parse_subset("0:N").unwrap().ranges()[0].clone()),
            ("j".to_string(), parse_subset("1:M + 1").unwrap().ranges()[0].clone()),
        ];
        let s = parse_subset(&sub).unwrap();
        let img = s.image(&params, &asm).unwrap();
        let outer: HashMap<String, i64> =
            [("N".to_string(), n), ("M".to_string(), m)].into_iter().collect();
        for i in 0..n {
            for j in 1..=m {
                let mut env = outer.clone();
                env.insert("i".into(), i);
                env.insert("j".into(), j);
                let r = &s.ranges()[0];
                let ev = |e: &Expr| match e.evaluate(&env) { Ok(Value::Int(v)) => v, _ => 0 };
                let (st, en, step) = (ev(&r.start), ev(&r.end), ev(&r.step));
                let mut x = st;
                while x < en {
                    prop_assert!(member(&img.ranges()[0], x, &outer),
                        "{} at i={} j={} gives {} outside {}", sub, i, j, x, img);
                    x += step;
                }
            }
        }
    }

    #[test]
    fn random_text_never_panics(s in "[ -~]{0,40}") {
        let _ = parse(&s);
        let _ = parse_subset(&s);
        let _ = parse_statements(&s);
    }

    #[test]
    fn random_tokens_never_panic(parts in prop::collection::vec(prop::sample::select(vec![
        "N", "1", "0", "(", ")", "[", "]", ",", ":", "+", "-", "*", "/", "//", "%", "**",
        "<", "==", "and", "not", "Min", "Mod", "int_floor", "?", "$N", "$?", "3i64", "tile",
        "0.5", "=", "\n", "Abs", "True", "~", "&", "|", "99999999999999999999999"]), 0..30)) {
        let s = parts.join(" ");
        let _ = parse(&s).map(|e| e.to_string());
        let _ = parse_subset(&s).map(|e| e.to_string());
        let _ = parse_statements(&s);
    }
}
