//! Unit tests of every operation.

use std::collections::HashMap;

use crate::*;

fn p(s: &str) -> Expr {
    parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn env(v: &[(&str, i64)]) -> HashMap<String, i64> {
    v.iter().map(|(k, x)| (k.to_string(), *x)).collect()
}

fn ss(s: &str) -> Subset {
    parse_subset(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn pos(names: &[&str]) -> Assumptions {
    names.iter().fold(Assumptions::new(), |a, n| a.positive(n))
}

#[test]
fn parses_sympy_and_python_spellings() {
    assert_eq!(p("N - 1").to_string(), "N - 1");
    assert_eq!(p("Min(N, 32*i + 32)"), p("min(32*i + 32, N)"));
    assert_eq!(p("Mod(i, 4)"), p("i % 4"));
    assert_eq!(p("int_floor(N, 2)"), p("N // 2"));
    assert_eq!(p("int_floor(N, 2)"), p("floor(N/2)"));
    assert_eq!(p("int_ceil(N, 2)"), p("ceiling(N/2)"));
    assert_eq!(p("N**2"), p("N*N"));
    assert_eq!(p("Abs(-N)"), p("abs(N)"));
    assert_eq!(p("int(N)"), p("N"));
    assert_eq!(p("dace.int64(N + 1)"), p("N + 1"));
    assert_eq!(p("And(i < N, Not(j >= M))"), p("i < N and not j >= M"));
    assert_eq!(p("Or(Eq(a, 1), Ne(b, 2))"), p("(a == 1) or (b != 2)"));
    assert_eq!(p("(i < N) & (j < M)"), p("i < N and j < M"));
    assert_eq!(p("True"), Expr::bool(true));
    assert_eq!(p("False"), Expr::bool(false));
    assert_eq!(p("0.5"), Expr::rational(1, 2));
    assert_eq!(p("1 < i < N"), p("1 < i and i < N"));
}

#[test]
fn parses_dace2_syntax() {
    assert_eq!(p("$N + 3i64"), p("N + 3"));
    assert_eq!(p("7u32"), Expr::int(7));
    assert!(p("$?").is_undefined());
    assert!(p("?").is_undefined());
    assert!(p("$N * $? + 1").is_undefined());
    assert!(p("Min($?, 3)").is_undefined());
}

#[test]
fn parse_errors_carry_columns() {
    let e = parse("N +").unwrap_err();
    assert_eq!(e.column, 4);
    assert!(e.to_string().starts_with("column 4: "));
    assert_eq!(parse("3 @ 4").unwrap_err().column, 3);
    assert_eq!(parse("Min(N").unwrap_err().column, 6);
    let e = parse("  Mod(N)").unwrap_err();
    assert_eq!(e.column, 3);
    assert!(e.message.contains("2 arguments"));
    assert_eq!(parse("(N").unwrap_err().column, 3);
    assert_eq!(parse("N N").unwrap_err().column, 3);
    assert_eq!(parse("3x").unwrap_err().column, 2);
    assert_eq!(parse("$").unwrap_err().column, 1);
    assert_eq!(parse("").unwrap_err().column, 1);
    let deep = "(".repeat(10_000);
    assert!(parse(&deep).is_err());
    let deep = "-".repeat(10_000) + "1";
    assert!(parse(&deep).is_err());
    assert!(parse(&"9".repeat(60)).is_err());
}

#[test]
fn opaque_terms_in_conditions() {
    let c = p("(A[0] == 0)");
    assert!(c.is_bool());
    assert_eq!(c.free_symbols().len(), 0);
    assert!(c.evaluate(&env(&[])).is_err());
    let c = p("foo(N, 2) > 0 and N > 1");
    assert!(c.free_symbols().contains("N"));
    assert!(parse("maybe_none is None").is_err());
    assert_eq!(p("(A[1, 1] >= 0.5)").to_string(), "1 <= 2*A[1, 1]");
}

#[test]
fn printing_is_canonical() {
    let pairs = [
        ("N*k/2 + N/2 - 1", "N*(k + 1)/2 - 1"),
        ("(N - 2)**2", "N**2 - 4*N + 4"),
        ("ceiling(N/32)", "-int_floor(-N, 32)"),
        ("int_ceil(N, 32)", "int_floor(N + 31, 32)"),
        ("Mod(i + 4, 4)", "i % 4"),
        ("Mod(5*i, 4)", "Mod(i, 4)"),
        ("Mod(2*i, 4)", "2*Mod(i, 2)"),
        ("int_floor(2*N + 1, 4)", "int_floor(N, 2)"),
        ("int_floor(3*N, 2)", "N + int_floor(N, 2)"),
        ("Min(N, N + 1)", "N"),
        ("Max(N, N + 1, 3, 5)", "Max(N + 1, 5)"),
        ("Min(Min(a, b), c)", "Min(c, b, a)"),
        ("Max(Max(a, b), Max(b, a))", "Max(a, b)"),
        ("not (i < 10)", "i >= 10"),
        ("2*i < 7", "i <= 3"),
        ("i + 1 > N", "N <= i"),
        ("Eq(2*N, 3)", "False"),
        ("(a + b)**-2", "1/(a**2 + 2*a*b + b**2)"),
        ("x/x", "1"),
    ];
    for (a, b) in pairs {
        assert_eq!(p(a), p(b), "{a} vs {b}");
        assert_eq!(p(a).to_string(), p(b).to_string());
        assert_eq!(p(&p(a).to_string()), p(a));
    }
    assert_eq!(p("ceiling(N/32)").to_string(), "int_ceil(N, 32)");
    assert_eq!(p("i % 4").to_string(), "Mod(i, 4)");
    assert_eq!(p("i < N").to_string(), "i < N");
    assert_eq!(p("Eq(cnd, 0)").to_string(), "cnd == 0");
}

#[test]
fn dace_weak_cases_normalise() {
    // Mod, floor division and nested Min/Max that SymPy leaves unsimplified.
    assert_eq!(p("Mod(i + 1, 2)").to_string(), "-Mod(i, 2) + 1");
    assert_eq!(p("2*int_floor(N - 1, 2) + 2"), p("2*N - 2*int_floor(N, 2)"));
    assert_eq!(p("Min(Max(a, b), Max(b, a))"), p("Max(a, b)"));
    assert_eq!(p("Max(Min(N, 4), Min(4, N))"), p("Min(N, 4)"));
    assert_eq!(p("Max(2*N - 1, N - 1)").to_string(), "Max(N - 1, 2*N - 1)");
    let asm = pos(&["N"]);
    assert_eq!(asm.simplify(&p("Max(N - 1, 2*N - 1)")), p("2*N - 1"));
    assert_eq!(asm.simplify(&p("Min(N, 32*int_ceil(N, 32))")), p("N"));
}

#[test]
fn big_expansions_stay_grouped() {
    let e = p("(a + b + c + d + e + f)**30");
    assert!(e.to_string().contains("**30"));
    let v = env(&[("a", 1), ("b", 0), ("c", 0), ("d", 0), ("e", 0), ("f", 1)]);
    assert_eq!(e.evaluate(&v), Ok(Value::Int(1 << 30)));
    let e = p("(a+1)*(b+1)*(c+1)*(d+1)*(e+1)*(f+1)*(g+1)*(h+1)*(i+1)*(j+1)*(k+1)");
    let back = p(&e.to_string());
    let v: HashMap<String, i64> = e.free_symbols().into_iter().map(|s| (s, 2)).collect();
    assert_eq!(back.evaluate(&v), Ok(Value::Int(177_147)));
    assert_eq!(e.evaluate(&v), Ok(Value::Int(177_147)));
}

#[test]
fn substitution_and_free_symbols() {
    let e = p("Min(N, 32*i + 32) - 32*i");
    assert_eq!(
        e.free_symbols().into_iter().collect::<Vec<_>>(),
        vec!["N".to_string(), "i".to_string()]
    );
    let m: HashMap<String, Expr> = [("i".to_string(), p("j + 1")), ("N".to_string(), p("64"))]
        .into_iter()
        .collect();
    assert_eq!(e.substitute(&m), p("Min(64, 32*j + 64) - 32*j - 32"));
    let m: HashMap<String, Expr> = [("i".to_string(), p("3"))].into_iter().collect();
    assert_eq!(p("i % 4 + int_floor(i, 2)").substitute(&m), p("4"));
    assert_eq!(p("i < N").substitute(&m), p("N > 3"));
    let m: HashMap<String, Expr> = [("N".to_string(), Expr::undefined())].into_iter().collect();
    assert!(p("N + 1").substitute(&m).is_undefined());
    assert!(!p("M + 1").substitute(&m).is_undefined());
}

#[test]
fn evaluation_is_exact() {
    let v = env(&[("N", 10), ("i", -3)]);
    assert_eq!(p("int_floor(N, 3)").evaluate(&v), Ok(Value::Int(3)));
    assert_eq!(p("i // 2").evaluate(&v), Ok(Value::Int(-2)));
    assert_eq!(p("i % 4").evaluate(&v), Ok(Value::Int(1)));
    assert_eq!(p("Mod(i, -4)").evaluate(&v), Ok(Value::Int(-3)));
    assert_eq!(p("int_ceil(N, 4)").evaluate(&v), Ok(Value::Int(3)));
    assert_eq!(p("N/2").evaluate(&v), Ok(Value::Int(5)));
    assert_eq!(p("Abs(i)").evaluate(&v), Ok(Value::Int(3)));
    assert_eq!(p("Max(i, N, 4)").evaluate(&v), Ok(Value::Int(10)));
    assert_eq!(p("i < N and N > 3").evaluate(&v), Ok(Value::Bool(true)));
    assert_eq!(p("int(i/2)").evaluate(&v), Ok(Value::Int(-1)));
    assert!(matches!(
        p("N/4").evaluate(&v),
        Err(EvalError::NotInteger(_))
    ));
    assert_eq!(p("M").evaluate(&v), Err(EvalError::Unbound("M".into())));
    assert_eq!(p("N * ?").evaluate(&v), Err(EvalError::Undefined));
    assert_eq!(p("1/(N - 10)").evaluate(&v), Err(EvalError::DivisionByZero));
    assert_eq!(
        p("i % (N - 10)").evaluate(&v),
        Err(EvalError::DivisionByZero)
    );
    assert_eq!(
        p("N**30").evaluate(&env(&[("N", 1000)])),
        Err(EvalError::Overflow)
    );
    assert_eq!(
        p("N*N").evaluate(&env(&[("N", 4_000_000_000)])),
        Err(EvalError::Overflow)
    );
    assert!(p("2**200").is_undefined());
    assert!(matches!(p("A[0]").evaluate(&v), Err(EvalError::Opaque(_))));
}

#[test]
fn three_valued_comparisons() {
    let none = Assumptions::new();
    let asm = pos(&["N", "M"]);
    assert_eq!(compare_le(&p("N"), &p("N + 1"), &none), Tri::True);
    assert_eq!(compare_le(&p("N + 1"), &p("N"), &none), Tri::False);
    assert_eq!(compare_le(&p("0"), &p("N"), &none), Tri::Unknown);
    assert_eq!(compare_le(&p("0"), &p("N"), &asm), Tri::True);
    assert_eq!(compare_le(&p("1"), &p("N*M"), &asm), Tri::True);
    assert_eq!(compare_le(&p("N"), &p("N*M"), &asm), Tri::True);
    assert_eq!(compare_le(&p("N"), &p("M"), &asm), Tri::Unknown);
    assert_eq!(compare_eq(&p("N"), &p("N"), &none), Tri::True);
    assert_eq!(compare_eq(&p("N"), &p("N + 2"), &none), Tri::False);
    assert_eq!(compare_eq(&p("N"), &p("0"), &asm), Tri::False);
    assert_eq!(compare_eq(&p("N"), &p("M"), &asm), Tri::Unknown);
    assert_eq!(compare_le(&p("Mod(i, 4)"), &p("3"), &none), Tri::True);
    assert_eq!(compare_le(&p("int_floor(N, 2)"), &p("N"), &asm), Tri::True);
    assert_eq!(compare_lt(&p("Min(N, 4)"), &p("5"), &none), Tri::True);
    assert_eq!(compare_le(&p("Max(N, 4)"), &p("3"), &none), Tri::False);
    let loop_asm = asm.clone().with_range("i", p("0"), p("N - 1"));
    assert_eq!(compare_le(&p("i"), &p("N"), &loop_asm), Tri::True);
    assert_eq!(compare_le(&p("i + 1"), &p("N"), &loop_asm), Tri::True);
    assert_eq!(compare_le(&p("N"), &p("i"), &loop_asm), Tri::False);
    assert_eq!(
        compare_le(&p("-32*i + Min(N, 32*i + 32)"), &p("32"), &loop_asm),
        Tri::True
    );
    assert_eq!(asm.decide(&p("N > 0 and M >= 1")), Tri::True);
    assert_eq!(asm.decide(&p("N <= 0 or M < 1")), Tri::False);
    assert_eq!(asm.decide(&p("N < M")), Tri::Unknown);
    assert_eq!(compare_le(&p("?"), &p("1"), &asm), Tri::Unknown);
    assert_eq!(Tri::True.and(Tri::Unknown), Tri::Unknown);
    assert_eq!(Tri::False.and(Tri::Unknown), Tri::False);
    assert_eq!(Tri::True.or(Tri::Unknown), Tri::True);
    assert_eq!(Tri::Unknown.not(), Tri::Unknown);
    let sizes = Assumptions::for_array_sizes([&p("N"), &p("M + 1")]);
    assert_eq!(compare_le(&p("1"), &p("M"), &sizes), Tri::True);
    assert_eq!(compare_le(&p("1"), &p("K"), &sizes), Tri::Unknown);
    assert_eq!(
        compare_le(&p("1"), &p("K"), &Assumptions::all_positive()),
        Tri::True
    );
}

#[test]
fn range_syntax_and_dace_conversion() {
    let s = ss("0:N, i, 1:N - 1:2, 0:M:4 tile 2");
    assert_eq!(s.dims(), 4);
    assert_eq!(s.to_string(), "0:N, i, 1:N - 1:2, 0:M:4 tile 2");
    assert_eq!(ss(&s.to_string()), s);
    assert_eq!(ss("").dims(), 0);
    assert_eq!(ss("Min(N, 4):Max(a, b)").ranges()[0].end, p("Max(a, b)"));
    assert!(parse_subset("0:N tile").is_err());
    assert_eq!(parse_subset("0:N,, 1").unwrap_err().column, 5);
    // The DaCe inclusive form, both ways.
    let r = Range::from_dace_inclusive(p("1"), p("N - 2"), p("1"), p("1"));
    assert_eq!(r.to_string(), "1:N - 1");
    let (a, b, c, d) = r.to_dace_inclusive();
    assert_eq!((a, b, c, d), (p("1"), p("N - 2"), p("1"), p("1")));
    let r = Range::from_dace_inclusive(p("N - 1"), p("0"), p("-1"), p("1"));
    assert_eq!(r.end, p("-1"));
    assert_eq!(r.size(), p("N"));
    assert_eq!(r.to_dace_inclusive().1, p("0"));
    let json = serde_json::json!({"type": "Range", "ranges": [
        {"start": "0", "end": "N - 1", "step": "1", "tile": "1"},
        {"start": "i", "end": "i", "step": "1", "tile": "1"}]});
    let s = Subset::from_dace_json(&json).unwrap();
    assert_eq!(s.to_string(), "0:N, i");
    assert_eq!(s.to_dace_json(), json);
    let ind = serde_json::json!({"type": "Indices", "indices": ["i", "0"]});
    assert_eq!(Subset::from_dace_json(&ind).unwrap().to_string(), "i, 0");
    assert!(Subset::from_dace_json(&serde_json::json!({"type": "Range"})).is_err());
    assert!(
        Subset::from_dace_json(&serde_json::json!({"type": "Range", "ranges": [
        {"start": "(", "end": "1"}]}))
        .is_err()
    );
}

#[test]
fn volume_offset_and_bounds() {
    assert_eq!(ss("0:N, 1:M - 1").volume(), p("N*(M - 2)"));
    assert_eq!(ss("0:N:2").volume(), p("int_ceil(N, 2)"));
    assert_eq!(ss("0:N:4 tile 2").volume(), p("2*int_ceil(N, 4)"));
    assert_eq!(ss("i, j").volume(), p("1"));
    assert_eq!(ss("").volume(), p("1"));
    let s = ss("0:N:4 tile 2");
    assert_eq!(s.max_element(), vec![p("4*int_ceil(N, 4) - 3")]);
    assert_eq!(s.bounding_box(), ss("0:4*int_ceil(N, 4) - 2"));
    assert_eq!(
        ss("1:N, i").offset(&ss("1:N, 0:M")).unwrap(),
        ss("0:N - 1, i")
    );
    assert_eq!(ss("1:N").offset_by(&[p("-1")]).unwrap(), ss("2:N + 1"));
    assert!(ss("1:N").offset_by(&[]).is_err());
    assert_eq!(ss("2:10:2").size(), vec![p("4")]);
    assert_eq!(ss("2:10:2").ranges()[0].last(), p("8"));
}

#[test]
fn data_dims_follow_dace_absolute_strides() {
    let dims = |s: &str| -> Vec<(usize, Expr, bool)> {
        ss(s)
            .data_dims()
            .into_iter()
            .map(|d| (d.range, d.size, d.tile))
            .collect()
    };
    // Unit dimensions are squeezed; tile dimensions come after all range
    // dimensions, in range order.
    assert_eq!(
        dims("1, 2*i:2*i + 10:8 tile 2, 3"),
        vec![(1, p("2"), false), (1, p("2"), true)]
    );
    assert_eq!(
        dims("0:N:4 tile 2, 0:M, 0:8:8 tile 3"),
        vec![
            (0, p("int_ceil(N, 4)"), false),
            (1, p("M"), false),
            (2, p("1"), false),
            (0, p("2"), true),
            (2, p("3"), true)
        ]
    );
    assert_eq!(dims("i, 0:N"), vec![(1, p("N"), false)]);
    assert!(ss("0:N:4 tile 2").is_tiled() && !ss("0:N:4").is_tiled());
}

#[test]
fn compose_squeeze_unsqueeze() {
    let outer = ss("2:N:2, 5:M");
    let inner = ss("1:3, i");
    assert_eq!(outer.compose(&inner).unwrap(), ss("4:8:2, i + 5"));
    assert!(ss("0:N tile 2").compose(&ss("0:1")).is_err());
    assert!(outer.compose(&ss("0:1")).is_err());
    let (sq, kept) = ss("i, 0:N, 3, 0:M").squeeze();
    assert_eq!(sq, ss("0:N, 0:M"));
    assert_eq!(kept, vec![1, 3]);
    assert_eq!(ss("i, j").squeeze().0, ss("j"));
    assert_eq!(
        ss("0:N, 0:M").unsqueeze(&[0, 2]).unwrap(),
        ss("0, 0:N, 0, 0:M")
    );
    assert!(ss("0:N").unsqueeze(&[5]).is_err());
}

#[test]
fn meets_across_iterations() {
    let asm = pos(&["N", "M"]);
    let over_n = ss("0:N").ranges()[0].clone();
    let across = |a: &str, b: &str| ss(a).meets_across(&ss(b), "i", &over_n, &asm).unwrap();
    // Each iteration its own element, row or lattice point: independent.
    assert_eq!(across("i", "i"), Tri::False);
    assert_eq!(across("i, 0:M", "i, 0:M"), Tri::False);
    assert_eq!(across("2*i", "2*i + 1"), Tri::False);
    // A neighbour, the same element every time, or a stencil read.
    assert_eq!(across("i + 1", "i"), Tri::Unknown);
    assert_eq!(
        ss("i + 1")
            .meets_across(&ss("i"), "i", &ss("0:10").ranges()[0], &asm)
            .unwrap(),
        Tri::True
    );
    assert_eq!(across("0", "0"), Tri::True);
    assert_eq!(across("i", "0:N"), Tri::Unknown);
    assert_eq!(across("i % 4", "i % 4"), Tri::Unknown);
}

#[test]
fn covers_intersects_union() {
    let asm = pos(&["N", "M"]);
    let whole = ss("0:N, 0:M");
    assert_eq!(whole.covers(&ss("1:N - 1, 0:M"), &asm).unwrap(), Tri::True);
    assert_eq!(whole.covers(&ss("1:N + 1, 0:M"), &asm).unwrap(), Tri::False);
    assert_eq!(whole.covers(&ss("i, 0"), &asm).unwrap(), Tri::Unknown);
    assert_eq!(ss("0:N:2").covers(&ss("2:N:4"), &asm).unwrap(), Tri::True);
    assert_eq!(ss("0:N:2").covers(&ss("1"), &asm).unwrap(), Tri::False);
    assert_eq!(ss("0:10:2").covers(&ss("4"), &asm).unwrap(), Tri::True);
    assert!(whole.covers(&ss("0:N"), &asm).is_err());
    assert_eq!(whole.intersects(&ss("N - 1, 0"), &asm).unwrap(), Tri::True);
    assert_eq!(
        whole.intersects(&ss("N:2*N, 0:M"), &asm).unwrap(),
        Tri::False
    );
    assert_eq!(
        ss("0:N:2").intersects(&ss("1:N:2"), &asm).unwrap(),
        Tri::False
    );
    assert_eq!(whole.intersects(&ss("i, 0"), &asm).unwrap(), Tri::Unknown);
    // A diagonal element and the rest of its row: apart by a constant.
    assert_eq!(
        ss("i, i").intersects(&ss("i, i + 1:M"), &asm).unwrap(),
        Tri::False
    );
    assert_eq!(
        ss("i, i:i + 2").intersects(&ss("i, i + 1"), &asm).unwrap(),
        Tri::True
    );
    // Contiguous ranges that provably overlap in every dimension.
    assert_eq!(whole.intersects(&whole, &asm).unwrap(), Tri::True);
    let none = Assumptions::new();
    assert_eq!(
        ss("i:i + 4, 0:10")
            .intersects(&ss("i + 2, 5:20"), &none)
            .unwrap(),
        Tri::True
    );
    // Not when one side may be empty (N = 0 without the assumptions).
    assert_ne!(ss("0:N").intersects(&ss("0:N"), &none).unwrap(), Tri::True);
    let u = ss("0:N").union(&ss("N:2*N"), &asm).unwrap();
    assert_eq!(u, ss("0:2*N"));
    let u = ss("0:N").union(&ss("M:M + 1"), &asm).unwrap();
    assert_eq!(u, ss("0:Max(N, M + 1)"));
    assert_eq!(ss("0:N").union(&ss("1:N - 1"), &asm).unwrap(), ss("0:N"));
    assert_eq!(
        ss("a:b").union(&ss("c:d"), &none).unwrap(),
        ss("Min(a, c):Max(b, d)")
    );
    // Without ISL-able subscripts the own analysis answers.
    assert_eq!(
        ss("0:N*M").covers(&ss("1:N*M - 1"), &asm).unwrap(),
        Tri::True
    );
    assert_eq!(
        ss("0:N*M").intersects(&ss("N*M:N*M + 4"), &asm).unwrap(),
        Tri::False
    );
}

fn image_of(sub: &str, params: &[(&str, &str)], asm: &Assumptions) -> Subset {
    let ps: Vec<(String, Range)> = params
        .iter()
        .map(|(n, r)| (n.to_string(), ss(r).ranges()[0].clone()))
        .collect();
    ss(sub).image(&ps, asm).unwrap()
}

#[test]
fn image_weak_cases() {
    let asm = pos(&["N", "M"]);
    // i % 4 over 0:N covers min(N, 4) elements, not just index 0..N.
    assert_eq!(image_of("i % 4", &[("i", "0:N")], &asm), ss("0:Min(4, N)"));
    // 2*i + 1 with symbolic bounds is strided.
    assert_eq!(image_of("2*i + 1", &[("i", "0:N")], &asm), ss("1:2*N:2"));
    assert_eq!(
        image_of("int_floor(i, 2)", &[("i", "0:N")], &asm),
        ss("0:int_ceil(N, 2)")
    );
    assert_eq!(
        image_of("i:Min(N, i + 32)", &[("i", "0:N:32")], &asm),
        ss("0:N")
    );
    assert_eq!(
        image_of(
            "i, j",
            &[("i", "0:N"), ("j", "i:M")],
            &asm.clone().with_range("N", p("1"), p("M"))
        ),
        ss("0:N, 0:M")
    );
    assert_eq!(
        image_of("i + j", &[("i", "0:N"), ("j", "0:M")], &asm),
        ss("0:N + M - 1")
    );
    assert_eq!(image_of("0:N, k", &[("i", "0:N")], &asm), ss("0:N, k"));
    assert_eq!(image_of("N - 1 - i", &[("i", "0:N")], &asm), ss("0:N"));
}

#[test]
fn windows_sweep_what_isl_says_they_sweep() {
    let asm = pos(&["N", "M"]);
    type Case<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a str);
    let cases: [Case; 3] = [
        // A 3x3 convolution window, a 2x2 pooling window, and one moving
        // backwards.
        (
            "i:i + 3, j:j + 3",
            &[("i", "0:N"), ("j", "0:M")],
            "0:N + 2, 0:M + 2",
        ),
        ("2*i:2*i + 2", &[("i", "0:N")], "0:2*N"),
        ("N - i:N - i + 4", &[("i", "0:N")], "1:N + 4"),
    ];
    for (sub, params, want) in cases {
        assert_eq!(image_of(sub, params, &asm), ss(want), "{sub}");
        let ps: Vec<(String, Range)> = params
            .iter()
            .map(|(n, r)| (n.to_string(), ss(r).ranges()[0].clone()))
            .collect();
        let isl = crate::isl::image(&ss(sub), &ps, &asm)
            .unwrap_or_else(|| panic!("ISL computes no image of {sub}"));
        assert_eq!(isl, ss(want), "{sub} through ISL");
    }
    // Over a strided parameter, up to the end of the last window.
    assert_eq!(
        image_of("i:i + 4", &[("i", "0:N:4")], &asm),
        ss("0:4*int_ceil(N, 4)")
    );
    // Windows with gaps between them are not one range: ISL's hull.
    let gaps = image_of("3*i:3*i + 2", &[("i", "0:N")], &asm);
    assert_eq!(gaps.ranges()[0].start, p("0"));
}

#[test]
fn image_without_isl_is_sound() {
    let asm = pos(&["N", "M"]);
    // Non-affine subscripts go through the own bounding procedure.
    let s = image_of("i*M + j", &[("i", "0:N"), ("j", "0:M")], &asm);
    assert_eq!(s, ss("0:M*N"));
    let s = image_of("Abs(i - 3)", &[("i", "0:N")], &asm);
    assert_eq!(s.ranges()[0].start, p("0"));
    let ps = vec![("i".to_string(), ss("0:N").ranges()[0].clone())];
    assert!(matches!(
        ss("A[i]").image(&ps, &asm),
        Err(SubsetError::Unbounded(0))
    ));
    // The volume of one tile of a tiled map, over the tiles: the bound
    // speaks of the program's symbols only (the atoms the procedure names
    // while it bounds `Min` terms are eliminated, nested as they are).
    let tiles = [("ti", "0:N:4"), ("tj", "0:M:3")];
    let s = image_of("(Min(ti + 4, N) - ti)*(Min(tj + 3, M) - tj)", &tiles, &asm);
    let names: Vec<String> = s
        .ranges()
        .iter()
        .flat_map(|r| {
            r.end
                .free_symbols()
                .into_iter()
                .chain(r.start.free_symbols())
        })
        .collect();
    assert!(names.iter().all(|n| n == "N" || n == "M"), "{s}");
}

#[test]
fn bitwise_operators_follow_python_on_integers() {
    // Between integers, `& | ^ ~ << >>` are Python's bitwise operators (DaCe's
    // `bitwise_and`, ..., `right_shift`), as a CRC loop assigns them.
    let crc = p("(crc >> 1) ^ 40961");
    assert!(crc.is_numeric());
    assert_eq!(crc.to_string(), "(int_floor(crc, 2) ^ 40961)");
    assert_eq!(p(&crc.to_string()), crc);
    assert_eq!(
        crc.evaluate(&env(&[("crc", 7)])).unwrap(),
        Value::Int(40962)
    );
    assert_eq!(p("x << 3"), p("8*x"));
    assert_eq!(p("x >> 2"), p("x // 4"));
    assert_eq!(p("~x"), p("-x - 1"));
    assert_eq!(p("a | b"), p("b | a"));
    assert_eq!(p("x & 0"), Expr::int(0));
    assert_eq!(p("x | 0"), p("x"));
    assert_eq!(p("x ^ -1 & x"), p("x ^ (-1 & x)"));
    assert_eq!(p("6 & 3 | 8"), Expr::int(10));
    assert_eq!(p("-7 >> 1"), Expr::int(-4));
    assert_eq!(p("5 >> 200"), Expr::int(0));
    assert_eq!(p("-5 >> 200"), Expr::int(-1));
    assert_eq!(p("1 << 62").as_int(), Some(1 << 62));
    assert!(p("1 << 63").is_undefined());
    assert!(p("x << -1").is_undefined());
    assert!(p("0.5 & x").is_undefined());
    let e = env(&[("a", -6), ("b", 11), ("k", 3)]);
    for (text, want) in [
        ("a & b", -6 & 11),
        ("a | b", -6 | 11),
        ("a ^ b", -6 ^ 11),
        ("a << k", -48),
        ("a >> k", -1),
        ("b >> k << k", 8),
        ("(a | 1) + (b & k) * 2", -5 + 6),
    ] {
        assert_eq!(p(text).evaluate(&e).unwrap(), Value::Int(want), "{text}");
        assert_eq!(p(&p(text).to_string()), p(text), "{text} prints back");
    }
    assert!(p("a << -k").evaluate(&e).is_err());
}

#[test]
fn bitwise_operators_between_conditions_are_logical() {
    // SymPy prints And, Or and Not as `&`, `|` and `~`: between conditions
    // they keep their logical meaning.
    assert_eq!(p("(i < N) | (j < M)"), p("i < N or j < M"));
    assert_eq!(p("~(i < N)"), p("i >= N"));
    assert_eq!(p("(i < N) ^ (j < M)"), p("int(i < N) != int(j < M)"));
    assert!(p("(i < N) ^ (j < M)").is_bool());
    // A bitwise result used as a condition is true when nonzero.
    let c = p("not (crc & 1)");
    assert_eq!(c.evaluate(&env(&[("crc", 6)])).unwrap(), Value::Bool(true));
    assert_eq!(c.evaluate(&env(&[("crc", 5)])).unwrap(), Value::Bool(false));
}

#[test]
fn unravels_row_major() {
    let sizes = [p("M"), p("N"), p("4")];
    let indices = Expr::unravel(&p("f"), &sizes);
    assert_eq!(
        indices,
        vec![p("(f // 4) // N"), p("(f // 4) % N"), p("f % 4")]
    );
    // Every flat position of a 3 x 5 x 4 space, back to its point.
    let symbols = env(&[("M", 3), ("N", 5)]);
    let mut flat = 0;
    for i in 0..3 {
        for j in 0..5 {
            for k in 0..4 {
                let mut at = symbols.clone();
                at.insert("f".into(), flat);
                let got: Vec<_> = indices.iter().map(|e| e.evaluate(&at)).collect();
                assert_eq!(got, [i, j, k].map(|v| Ok(Value::Int(v))));
                flat += 1;
            }
        }
    }
}

#[test]
fn bounds_tile_sizes_free_of_the_tile_origin() {
    let local: std::collections::BTreeSet<String> = ["t".to_string()].into();
    let bound = |e: &str| p(e).upper_bound_free_of(&local);
    // A partial tile is at most a whole one.
    assert_eq!(bound("Min(t + 4, N) - t"), Some(p("4")));
    assert_eq!(bound("Min(N, t + 32) - t + 1"), Some(p("33")));
    // Both arguments free of t once the origin cancels.
    assert_eq!(bound("Min(2*t + 8, t + N) - t"), Some(p("N")));
    // Minus a maximum is at most minus each argument.
    assert_eq!(bound("t + 3 - Max(t, 0)"), Some(p("3")));
    // Nothing bounds a size that grows with t.
    assert_eq!(bound("t + N"), None);
    assert_eq!(bound("N"), Some(p("N")));
}

#[test]
fn remembered_parses_are_the_parses() {
    // Past the memo's limit it starts over: every answer stays the parse
    // of its own text, errors included.
    for k in 0..(1 << 14) + 10 {
        let text = format!("{k} + N");
        assert_eq!(p(&text), Expr::add(&Expr::int(k), &Expr::symbol("N")));
        assert_eq!(
            ss(&format!("0:{k}, i")).ranges()[0].end,
            Expr::int(k),
            "{text}"
        );
    }
    assert_eq!(p("2 * N"), Expr::mul(&Expr::int(2), &Expr::symbol("N")));
    assert!(parse("N +").is_err() && parse("N +").is_err());
    assert!(parse_subset("0:N,,").is_err() && parse_subset("0:N,,").is_err());
}
