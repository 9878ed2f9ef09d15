//! The iteration space of a counted loop: `for (v = init; cond; v = update)`
//! as a [`Range`] and a trip count, the way DaCe's `find_for_loop` and
//! `get_loop_start/end/stride` read a loop, but from the normal form.
//!
//! A loop is counted when its update adds a non-zero integer constant `s`
//! to the variable and its condition bounds the variable in the direction
//! it moves: after normalisation every comparison is `a*v + q <= 0`, so a
//! condition is a conjunction of such bounds, each with `a` of the sign of
//! `s` (`i < N` and `i < M` give the end `Min(N, M)`; `i >= 0` with `s < 0`
//! the lower bound `0`). Anything else (a condition that does not mention
//! the variable, a symbolic step, `i != N`, `i * i < N`) is not counted:
//! the caller treats the loop as a while loop.
//!
//! A do-while loop ([`do_while_range`]) runs its body once before the
//! first check. Checking before the update, it sees `init` and then the
//! update of every value the `for` loop from `init` would see; updating
//! first, it sees `init` and then every value the `for` loop from the
//! first update would see. Either way it is the `for` loop's range with
//! one value more at the start, so one more iteration, never fewer than 1.

use crate::expr::{Node, Rel};
use crate::{Assumptions, Expr, Range};

/// The iteration space of a counted loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopRange {
    /// The values the variable takes, ascending (exclusive end, positive
    /// step), whichever direction the loop runs in.
    pub range: Range,
    /// The number of iterations (never negative).
    pub trip_count: Expr,
    /// Whether the loop runs from the top of `range` down.
    pub descending: bool,
}

/// The range of `var` in the loop `for (var = init; cond; var = update)`;
/// `None` where the loop is not counted (see the module documentation).
/// `asm` is used to drop `Max(0, ...)` around trip counts that are
/// provably non-negative.
pub fn loop_range(
    var: &str,
    init: &Expr,
    cond: &Expr,
    update: &Expr,
    asm: &Assumptions,
) -> Option<LoopRange> {
    let step = Expr::sub(update, &Expr::symbol(var)).as_int()?;
    if step == 0 || init.mentions(var) {
        return None;
    }
    let conjuncts: Vec<Expr> = match cond.node() {
        Node::And(parts) => parts.clone(),
        _ => vec![cond.clone()],
    };
    // Each conjunct `a*v + q <= 0` bounds `v` by `-q/a`: from above for
    // `a > 0`, from below for `a < 0`.
    let mut bounds = Vec::new();
    for c in &conjuncts {
        let Node::Rel(Rel::Le, p) = c.node() else {
            return None;
        };
        let (a, q) = p.linear_in(var)?;
        let a = Expr::from_poly(a).as_int()?;
        if a == 0 || (a > 0) != (step > 0) {
            return None;
        }
        let q = Expr::from_poly(q);
        bounds.push(if a > 0 {
            // v <= floor(-q / a): the exclusive end is one more.
            Expr::add(
                &Expr::floordiv(&Expr::neg(&q), &Expr::int(a)),
                &Expr::int(1),
            )
        } else {
            // v >= ceil(q / -a).
            Expr::ceildiv(&q, &Expr::int(-a))
        });
    }
    if bounds.is_empty() {
        return None;
    }
    let zero = Expr::int(0);
    let magnitude = Expr::int(step.abs());
    if step > 0 {
        let end = if bounds.len() == 1 {
            bounds.remove(0)
        } else {
            Expr::min(bounds)
        };
        let range = Range::new(init.clone(), end, Expr::int(step));
        let trip_count = asm.max(&zero, &range.count());
        return Some(LoopRange {
            range,
            trip_count,
            descending: false,
        });
    }
    let lower = if bounds.len() == 1 {
        bounds.remove(0)
    } else {
        Expr::max(bounds)
    };
    // Values init, init - |s|, ... down to `lower`: their number, and the
    // lowest of them as the ascending range's start.
    let span = Expr::floordiv(&Expr::sub(init, &lower), &magnitude);
    let trip_count = asm.max(&zero, &Expr::add(&span, &Expr::int(1)));
    let start = Expr::sub(init, &Expr::mul(&span, &magnitude));
    Some(LoopRange {
        range: Range::new(start, Expr::add(init, &Expr::int(1)), magnitude),
        trip_count,
        descending: true,
    })
}

/// The range of `var` in the do-while loop `do { body } while (cond)`
/// that starts at `init` and steps with `update`: after the body, either
/// the update and then the check (`update_before_condition`, DaCe's
/// default) or the check and then the update. `None` where the loop is
/// not counted.
pub fn do_while_range(
    var: &str,
    init: &Expr,
    cond: &Expr,
    update: &Expr,
    update_before_condition: bool,
    asm: &Assumptions,
) -> Option<LoopRange> {
    let step = Expr::sub(update, &Expr::symbol(var)).as_int()?;
    // The values after the first: the `for` loop from `init`, each value
    // updated, or the `for` loop from `init`'s update.
    let first_checked = if update_before_condition {
        Expr::add(init, &Expr::int(step))
    } else {
        init.clone()
    };
    let rest = loop_range(var, &first_checked, cond, update, asm)?;
    let (magnitude, extra) = (Expr::int(step.abs()), rest.trip_count.clone());
    let span = Expr::mul(&extra, &magnitude);
    let range = if step > 0 {
        Range::new(
            init.clone(),
            Expr::add(&Expr::add(init, &span), &Expr::int(1)),
            magnitude,
        )
    } else {
        Range::new(
            Expr::sub(init, &span),
            Expr::add(init, &Expr::int(1)),
            magnitude,
        )
    };
    Some(LoopRange {
        range,
        trip_count: Expr::add(&extra, &Expr::int(1)),
        descending: step < 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse;

    fn range(var: &str, init: &str, cond: &str, update: &str) -> Option<(String, String)> {
        let asm = Assumptions::for_array_sizes([&Expr::symbol("N")]);
        let p = |s: &str| parse(s).expect("parses");
        loop_range(var, &p(init), &p(cond), &p(update), &asm)
            .map(|l| (l.range.to_string(), l.trip_count.to_string()))
    }

    #[test]
    fn counted_loops_have_ranges_and_trip_counts() {
        let r = |a: &str, b: &str| Some((a.to_string(), b.to_string()));
        assert_eq!(range("i", "0", "i < N", "i + 1"), r("0:N", "N"));
        assert_eq!(range("i", "1", "i <= N", "i + 1"), r("1:N + 1", "N"));
        assert_eq!(
            range("i", "0", "i < N", "i + 2"),
            r("0:N:2", "N - int_floor(N, 2)")
        );
        assert_eq!(
            range("i", "0", "(i < N) and (i < M)", "i + 1"),
            r("0:Min(M, N)", "Max(0, Min(M, N))")
        );
        assert_eq!(range("i", "N - 1", "i >= 0", "i - 1"), r("0:N", "N"));
        assert_eq!(
            range("i", "N", "i > 0", "i - 3"),
            r("N - 3*int_ceil(N, 3) + 3:N + 1:3", "int_ceil(N, 3)")
        );
    }

    fn do_while(init: &str, cond: &str, update: &str, first: bool) -> Option<(String, String)> {
        let asm = Assumptions::for_array_sizes([&Expr::symbol("N")]);
        let p = |s: &str| parse(s).expect("parses");
        do_while_range("i", &p(init), &p(cond), &p(update), first, &asm)
            .map(|l| (l.range.to_string(), l.trip_count.to_string()))
    }

    /// Each case is checked against the iterations it enumerates: with
    /// N = 0 the body still runs once, with i = init.
    #[test]
    fn do_while_loops_run_once_more_from_the_start() {
        let r = |a: &str, b: &str| Some((a.to_string(), b.to_string()));
        // do { body(i) } while (i < N) with i = i + 1 after the check:
        // i in 0..=N (N + 1 times).
        assert_eq!(
            do_while("0", "i < N", "i + 1", false),
            r("0:N + 1", "N + 1")
        );
        // Updating first: i = 0, then 1..N-1 while i < N: N times (sizes
        // are positive, so never the one run of N = 0).
        assert_eq!(do_while("0", "i < N", "i + 1", true), r("0:N", "N"));
        // Descending, check first: i = N, N-1, ..., 0.
        assert_eq!(
            do_while("N", "i > 0", "i - 1", false),
            r("0:N + 1", "N + 1")
        );
        // M may be 0 or negative: the body still runs once, with i = 0.
        assert_eq!(
            do_while("0", "i < M", "i + 1", true),
            r("0:Max(0, M - 1) + 1", "Max(0, M - 1) + 1")
        );
        assert_eq!(do_while("0", "i < N", "i * 2", false), None);
    }

    #[test]
    fn other_loops_are_not_counted() {
        assert_eq!(range("i", "0", "i < N", "i * 2"), None);
        assert_eq!(range("i", "0", "i > N", "i + 1"), None);
        assert_eq!(range("i", "0", "i != N", "i + 1"), None);
        assert_eq!(range("i", "0", "x < N", "i + 1"), None);
        assert_eq!(range("i", "0", "(i < N) or (i < M)", "i + 1"), None);
        assert_eq!(range("i", "i", "i < N", "i + 1"), None);
    }
}
