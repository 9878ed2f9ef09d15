//! Exact answers for quasi-affine subsets through ISL (`isl-rs`).
//!
//! Every function returns `None` when an operand is not quasi-affine (or ISL
//! fails or runs out of its operation budget); the callers then use their
//! own sound approximations.

use std::collections::{BTreeSet, HashMap};

use isl_rs::{Context, Options, PwAff, Set};

use crate::compare::{Assumptions, Tri};
use crate::expr::{Atom, Expr};
use crate::poly::Poly;
use crate::subset::{Range, Subset};

/// Operation budget of one ISL query.
const MAX_OPERATIONS: u64 = 200_000;

/// Renames the symbols of a problem to ISL-safe identifiers.
struct Names {
    to_isl: HashMap<String, String>,
    from_isl: HashMap<String, Expr>,
}

impl Names {
    fn new(symbols: &BTreeSet<String>) -> Names {
        let mut to_isl = HashMap::new();
        let mut from_isl = HashMap::new();
        for (k, s) in symbols.iter().enumerate() {
            let n = format!("p{k}");
            to_isl.insert(s.clone(), n.clone());
            from_isl.insert(n, Expr::symbol(s));
        }
        Names { to_isl, from_isl }
    }
}

/// ISL text of a quasi-affine expression with integer coefficients.
fn aff(e: &Expr, names: &Names, local: &HashMap<String, String>) -> Option<String> {
    if !e.is_numeric() {
        return None;
    }
    poly_text(e.poly(), names, local)
}

fn poly_text(p: &Poly, names: &Names, local: &HashMap<String, String>) -> Option<String> {
    let mut out = String::new();
    for (i, (m, c)) in p.terms.iter().enumerate() {
        if !c.is_int() {
            return None;
        }
        let n = c.num();
        let sign = if n < 0 { "-" } else { "+" };
        let mag = n.unsigned_abs();
        let body = match m.factors.as_slice() {
            [] => mag.to_string(),
            [(a, 1)] => format!("{mag}*{}", atom_text(a, names, local)?),
            _ => return None,
        };
        if i == 0 {
            if n < 0 {
                out.push('-');
            }
        } else {
            out.push_str(&format!(" {sign} "));
        }
        out.push_str(&body);
    }
    if out.is_empty() {
        out.push('0');
    }
    Some(format!("({out})"))
}

fn atom_text(a: &Atom, names: &Names, local: &HashMap<String, String>) -> Option<String> {
    Some(match a {
        Atom::Sym(s) => local.get(&**s).or_else(|| names.to_isl.get(&**s))?.clone(),
        Atom::Floor(e) => {
            let (d, q) = crate::expr::integer_form(e.poly())?;
            format!("floor(({})/{d})", poly_text(&q, names, local)?)
        }
        Atom::Mod(x, y) => {
            let d = y.poly().as_constant()?;
            if !d.is_int() || d.is_negative() {
                return None;
            }
            format!("(({}) mod {})", aff(x, names, local)?, d.num())
        }
        Atom::Min(v) | Atom::Max(v) => {
            let args = v
                .iter()
                .map(|x| aff(x, names, local))
                .collect::<Option<Vec<_>>>()?;
            let f = if matches!(a, Atom::Min(_)) {
                "min"
            } else {
                "max"
            };
            format!("{f}({})", args.join(", "))
        }
        _ => return None,
    })
}

/// Constraints saying that `x` is an index of `r` (using fresh existentials).
fn range_constraints(
    x: &str,
    r: &Range,
    names: &Names,
    local: &HashMap<String, String>,
    fresh: &mut usize,
    exists: &mut Vec<String>,
) -> Option<String> {
    let start = aff(&r.start, names, local)?;
    let end = aff(&r.end, names, local)?;
    let step = r.step.as_int()?;
    let tile = r.tile.as_int()?;
    if tile < 1 {
        return None;
    }
    if step == 1 {
        let k = tile - 2;
        let adj = if k < 0 {
            format!(" - {}", -k)
        } else {
            format!(" + {k}")
        };
        return Some(format!("{x} >= {start} and {x} <= {end}{adj}"));
    }
    if step < 1 {
        return None;
    }
    let k = format!("e{}", *fresh);
    let t = format!("e{}", *fresh + 1);
    *fresh += 2;
    exists.push(k.clone());
    exists.push(t.clone());
    Some(format!(
        "{x} = {start} + {step}*{k} + {t} and {k} >= 0 and {start} + {step}*{k} < {end} and 0 <= {t} and {t} < {tile}"
    ))
}

/// Parameter constraints from the assumptions on the given symbols.
fn context(asm: &Assumptions, symbols: &BTreeSet<String>, names: &Names) -> String {
    let empty = HashMap::new();
    let mut cs = Vec::new();
    for s in symbols {
        let Some(n) = names.to_isl.get(s) else {
            continue;
        };
        let (lo, hi) = asm.bounds(s);
        if let Some(t) = lo.and_then(|l| aff(&l, names, &empty)) {
            cs.push(format!("{n} >= {t}"));
        }
        if let Some(t) = hi.and_then(|h| aff(&h, names, &empty)) {
            cs.push(format!("{n} <= {t}"));
        }
    }
    if cs.is_empty() {
        "true".into()
    } else {
        cs.join(" and ")
    }
}

/// The parameter space the assumptions allow, as an ISL set.
fn context_set(
    ctx: &Context,
    asm: &Assumptions,
    symbols: &BTreeSet<String>,
    names: &Names,
) -> Option<Set> {
    let text = context(asm, symbols, names);
    Set::read_from_str(ctx, &format!("{} -> {{ : {text} }}", header(names))).ok()
}

/// Whether `set` has an element: `False` for no parameter values, `True`
/// for every value in `cset`, `Unknown` for some.
fn nonempty(set: Set, cset: &Set) -> Option<Tri> {
    if set.is_empty().ok()? {
        return Some(Tri::False);
    }
    if cset.is_subset(&set.params().ok()?).ok()? {
        return Some(Tri::True);
    }
    Some(Tri::Unknown)
}

fn header(names: &Names) -> String {
    let mut ps: Vec<&String> = names.to_isl.values().collect();
    ps.sort();
    format!(
        "[{}]",
        ps.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
    )
}

fn new_ctx() -> Context {
    let ctx = Context::alloc();
    let _ = Options::set_on_error(&ctx, 1);
    ctx.set_max_operations(MAX_OPERATIONS);
    ctx
}

/// The set `{ [x0..xn] : x in subset }` as ISL text, with extra existentials.
fn subset_text(
    s: &Subset,
    names: &Names,
    local: &HashMap<String, String>,
    extra: &str,
    extra_exists: &[String],
) -> Option<String> {
    let mut fresh = 0;
    let mut exists: Vec<String> = extra_exists.to_vec();
    let mut cs = vec![extra.to_string()];
    let xs: Vec<String> = (0..s.dims()).map(|d| format!("x{d}")).collect();
    for (d, r) in s.ranges().iter().enumerate() {
        cs.push(range_constraints(
            &xs[d],
            r,
            names,
            local,
            &mut fresh,
            &mut exists,
        )?);
    }
    let body = cs.join(" and ");
    let body = if exists.is_empty() {
        body
    } else {
        format!("exists ({} : {body})", exists.join(", "))
    };
    Some(format!(
        "{} -> {{ [{}] : {body} }}",
        header(names),
        xs.join(", ")
    ))
}

fn symbols_of(subsets: &[&Subset], exclude: &[String]) -> BTreeSet<String> {
    let mut s = BTreeSet::new();
    for x in subsets {
        s.extend(x.free_symbols());
    }
    for e in exclude {
        s.remove(e);
    }
    s
}

/// Exact `b ⊆ a` for quasi-affine subsets.
pub(crate) fn covers(a: &Subset, b: &Subset, asm: &Assumptions) -> Option<Tri> {
    let syms = symbols_of(&[a, b], &[]);
    let names = Names::new(&syms);
    let local = HashMap::new();
    let ta = subset_text(a, &names, &local, "true", &[])?;
    let tb = subset_text(b, &names, &local, "true", &[])?;
    let ctx = new_ctx();
    let cset = context_set(&ctx, asm, &syms, &names)?;
    let sa = Set::read_from_str(&ctx, &ta)
        .ok()?
        .intersect_params(cset.copy().ok()?)
        .ok()?;
    let sb = Set::read_from_str(&ctx, &tb)
        .ok()?
        .intersect_params(cset.copy().ok()?)
        .ok()?;
    if sb.is_subset(&sa).ok()? {
        return Some(Tri::True);
    }
    let diff = sb.subtract(sa).ok()?;
    let p = diff.params().ok()?;
    if cset.is_subset(&p).ok()? {
        return Some(Tri::False);
    }
    Some(Tri::Unknown)
}

/// Exact `a ∩ b ≠ ∅` for quasi-affine subsets.
pub(crate) fn intersects(a: &Subset, b: &Subset, asm: &Assumptions) -> Option<Tri> {
    let syms = symbols_of(&[a, b], &[]);
    let names = Names::new(&syms);
    let local = HashMap::new();
    let ta = subset_text(a, &names, &local, "true", &[])?;
    let tb = subset_text(b, &names, &local, "true", &[])?;
    let ctx = new_ctx();
    let cset = context_set(&ctx, asm, &syms, &names)?;
    let sa = Set::read_from_str(&ctx, &ta)
        .ok()?
        .intersect_params(cset.copy().ok()?)
        .ok()?;
    let sb = Set::read_from_str(&ctx, &tb).ok()?;
    nonempty(sa.intersect(sb).ok()?, &cset)
}

/// Exact answer to whether `a` at one value of `var` and `b` at another
/// value of `var`, both in `range`, share an element: a dependence
/// between two iterations of a loop over `range`. The other symbols are
/// parameters: `True` where the subsets meet for all of their values,
/// `False` where for none.
pub(crate) fn meets_across(
    a: &Subset,
    b: &Subset,
    var: &str,
    range: &Range,
    asm: &Assumptions,
) -> Option<Tri> {
    if a.dims() != b.dims() {
        return None;
    }
    let mut syms = symbols_of(&[a, b], &[var.to_string()]);
    for e in [&range.start, &range.end, &range.step, &range.tile] {
        syms.extend(e.free_symbols());
    }
    syms.remove(var);
    let names = Names::new(&syms);
    let none = HashMap::new();
    let first = HashMap::from([(var.to_string(), "i0".to_string())]);
    let second = HashMap::from([(var.to_string(), "i1".to_string())]);
    let mut fresh = 0;
    let mut exists = Vec::new();
    let mut cs = vec![
        range_constraints("i0", range, &names, &none, &mut fresh, &mut exists)?,
        range_constraints("i1", range, &names, &none, &mut fresh, &mut exists)?,
        "(i0 < i1 or i0 > i1)".to_string(),
    ];
    let xs: Vec<String> = (0..a.dims()).map(|d| format!("x{d}")).collect();
    for (d, x) in xs.iter().enumerate() {
        cs.push(range_constraints(
            x,
            &a.ranges()[d],
            &names,
            &first,
            &mut fresh,
            &mut exists,
        )?);
        cs.push(range_constraints(
            x,
            &b.ranges()[d],
            &names,
            &second,
            &mut fresh,
            &mut exists,
        )?);
    }
    let body = cs.join(" and ");
    let body = if exists.is_empty() {
        body
    } else {
        format!("exists ({} : {body})", exists.join(", "))
    };
    let text = format!(
        "{} -> {{ [i0, i1{}] : {body} }}",
        header(&names),
        xs.iter().map(|x| format!(", {x}")).collect::<String>()
    );
    let ctx = new_ctx();
    let cset = context_set(&ctx, asm, &syms, &names)?;
    let set = Set::read_from_str(&ctx, &text)
        .ok()?
        .intersect_params(cset.copy().ok()?)
        .ok()?;
    nonempty(set, &cset)
}

/// Inserts `*` between a number and a following identifier (`2p0` → `2*p0`).
fn explicit_products(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    let mut in_ident = false;
    let mut prev_digit_in_number = false;
    for c in s.chars() {
        if c.is_alphabetic() && prev_digit_in_number {
            out.push('*');
        }
        if c.is_alphanumeric() || c == '_' {
            if !in_ident && c.is_alphabetic() || c == '_' {
                in_ident = true;
            }
            prev_digit_in_number = c.is_ascii_digit() && !in_ident;
        } else {
            in_ident = false;
            prev_digit_in_number = false;
        }
        out.push(c);
    }
    out
}

/// The affine pieces of a printed one-dimensional `pw_aff`.
fn pieces(pa: &PwAff, names: &Names) -> Option<Vec<Expr>> {
    let text = pa.to_str().ok()?.to_string();
    let body = &text[text.find('{')? + 1..text.rfind('}')?];
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let bytes: Vec<char> = body.chars().collect();
    let mut segs = Vec::new();
    for (i, c) in bytes.iter().enumerate() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ';' if depth == 0 => {
                segs.push(bytes[start..i].iter().collect::<String>());
                start = i + 1;
            }
            _ => {}
        }
    }
    segs.push(bytes[start..].iter().collect::<String>());
    for seg in segs {
        let seg = seg.trim();
        if seg.is_empty() {
            continue;
        }
        let open = seg.find("[(")?;
        let close = seg.find(")]")?;
        let inner = explicit_products(&seg[open + 2..close]);
        let e = crate::parse(&inner).ok()?;
        out.push(e.substitute(&names.from_isl));
    }
    Some(out)
}

/// The exact bound (`max` when `upper`) of dimension `d` of `set` as an expression.
fn bound(set: &Set, d: usize, upper: bool, names: &Names, ctx: &Context) -> Option<Expr> {
    let pa = if upper {
        set.copy().ok()?.dim_max(d as i32).ok()?
    } else {
        set.copy().ok()?.dim_min(d as i32).ok()?
    };
    let ps = pieces(&pa, names)?;
    if ps.is_empty() {
        return None;
    }
    if ps.len() == 1 {
        return ps.into_iter().next();
    }
    let candidates = [Expr::min(ps.clone()), Expr::max(ps.clone())];
    let empty = HashMap::new();
    for cand in &candidates {
        let Some(t) = aff(cand, names, &empty) else {
            continue;
        };
        let text = format!("{} -> {{ [({t})] }}", header(names));
        let Ok(cpa) = PwAff::read_from_str(ctx, &text) else {
            continue;
        };
        let Ok(dom) = pa.copy().and_then(|p| p.domain()) else {
            continue;
        };
        let Ok(cpa) = cpa.intersect_domain(dom) else {
            continue;
        };
        if cpa.is_equal(&pa).ok()? {
            return Some(cand.clone());
        }
    }
    // Sound fallback: the extreme of all pieces.
    Some(if upper { Expr::max(ps) } else { Expr::min(ps) })
}

/// Exact rectangular hull (with strides) of the image of a quasi-affine subset.
pub(crate) fn image(
    subset: &Subset,
    params: &[(String, Range)],
    asm: &Assumptions,
) -> Option<Subset> {
    if subset.dims() == 0 {
        return Some(subset.clone());
    }
    let pnames: Vec<String> = params.iter().map(|(n, _)| n.clone()).collect();
    let mut syms = symbols_of(&[subset], &pnames);
    for (_, r) in params {
        for e in [&r.start, &r.end, &r.step, &r.tile] {
            syms.extend(e.free_symbols());
        }
    }
    for p in &pnames {
        syms.remove(p);
    }
    let names = Names::new(&syms);
    let mut local = HashMap::new();
    for (k, p) in pnames.iter().enumerate() {
        local.insert(p.clone(), format!("i{k}"));
    }
    // Parameter constraints: parameters may refer to outer parameters.
    let mut fresh = 1000;
    let mut exists: Vec<String> = local.values().cloned().collect();
    exists.sort();
    let mut pcs = Vec::new();
    for (p, r) in params {
        let x = local.get(p)?.clone();
        pcs.push(range_constraints(
            &x,
            r,
            &names,
            &local,
            &mut fresh,
            &mut exists,
        )?);
    }
    let extra = if pcs.is_empty() {
        "true".to_string()
    } else {
        pcs.join(" and ")
    };
    let text = subset_text(subset, &names, &local, &extra, &exists)?;
    let ctx = new_ctx();
    let cset = context_set(&ctx, asm, &syms, &names)?;
    let set = Set::read_from_str(&ctx, &text)
        .ok()?
        .intersect_params(cset)
        .ok()?;
    let mut out = Vec::with_capacity(subset.dims());
    for (d, r) in subset.ranges().iter().enumerate() {
        if !pnames.iter().any(|p| {
            [&r.start, &r.end, &r.step, &r.tile]
                .iter()
                .any(|e| e.mentions(p))
        }) {
            out.push(r.clone());
            continue;
        }
        let lo = bound(&set, d, false, &names, &ctx)?;
        let hi = bound(&set, d, true, &names, &ctx)?;
        let stride = set
            .get_stride(d as i32)
            .ok()
            .and_then(|v| v.get_num_si().ok())
            .filter(|s| *s > 1)
            .unwrap_or(1);
        out.push(Range::new(
            asm.simplify(&lo),
            Expr::add_into_minmax(&asm.simplify(&hi), 1),
            Expr::int(stride),
        ));
    }
    Some(Subset::new(out))
}
