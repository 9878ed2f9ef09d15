//! `sdfg-propagate-memlets`: recomputes the memlets at the boundaries of
//! map and consume scopes and of nested SDFGs from the memlets inside
//! them, as DaCe's `propagate_memlets_sdfg` does, but exact where DaCe
//! guesses.
//!
//! # The problem
//!
//! A memlet at a scope boundary summarises the scope: which elements of a
//! container all iterations together read (an `ins` memlet of the
//! `sdfg.map`) or write (the memlet on the map result's consumer), and how
//! many elements move. Transformations decide on these summaries (fusion
//! checks that what one map writes covers what the next reads; tiling and
//! buffering size their local copies by them), so a summary that misses an
//! element is a miscompilation, and one that is too large costs memory and
//! blocks transformations.
//!
//! # The algorithm
//!
//! Scopes are processed innermost first, so an inner map's boundary memlets
//! are already summaries when its parent reads them as inner memlets. For
//! one scope with parameters `p` ranging over `R` and connector `c`:
//!
//! 1. The inner memlets of `c` are the memlets of the uses of the scope's
//!    block argument for `c` (an input) or of the `sdfg.exit` entries named
//!    `c` (an output).
//! 2. Their subsets are joined per dimension (`Subset::union`: the
//!    bounding range of the two, or one of them where it provably covers
//!    the other).
//! 3. The join is mapped through the parameter space (`Subset::image`):
//!    for quasi-affine subscripts and ranges (sums of multiples of
//!    parameters and symbols, `floor`/`mod` by constants) ISL computes the
//!    set of accessed indices exactly and the result is its per-dimension
//!    hull, with the stride kept when every access is on a lattice (`2*i`
//!    over `0:N` gives `0:2*N-1:2`, `i % 4` over `0:N` gives
//!    `0:Min(4, N)`, a tile `ti:Min(ti + 4, N)` inside `0:N:4` gives
//!    `0:N`). The common separable case (each index `a*p + c` in one
//!    parameter of a box of ranges, as in elementwise maps and stencils)
//!    has the same exact image from the ends of `p`'s range, without an
//!    ISL round trip. Other subscripts are bounded by interval arithmetic
//!    over the parameter ranges, which is sound but may be loose; the
//!    corpus test finds DaCe's pattern matching stores `0:N` for `A[2*i]`
//!    over `0:N`.
//! 4. The volume is the sum of the inner volumes times the number of
//!    iterations, and the memlet is dynamic where an inner one is, where
//!    the scope has dynamic range inputs (its iteration count is data) and
//!    always for a consume scope (which pops an unknown number of
//!    elements). An inner volume that changes with the parameters (a
//!    tile's) is bounded by its largest value, and dynamic; a count that
//!    depends on data is DaCe's unknown volume, 0 and dynamic.
//! 5. A dimension whose bounds still mention a name defined inside the
//!    scope (a dynamic range input's connector), or that cannot be bounded
//!    (`A[i * i]`), becomes the container's whole extent: sound for every
//!    program that stays inside its containers, as DaCe assumes.
//!
//! A connector keeps its memlet where its inner memlets cannot be read
//! (an input passed through an access node inside the scope, a copy
//! between access nodes whose subsets are over two containers, a subset
//! that does not parse): the pass never replaces a sound memlet by a
//! guess. The
//! write-conflict resolution, the copy's other subset and the data name of
//! the outer memlet are kept.
//!
//! ```mlir
//! // before: outer memlets as written (here deliberately wrong)
//! %m = sdfg.map "m" ["i" = "0:N"] ins("A" = %a["0:1"] : ...) outs("B" : ...) {
//! ^bb0(%ain: ...):
//!   %t = sdfg.tasklet "t" ins("x" = %ain["2*i + 1"] : ...) outs("y" : f64) ...
//!   sdfg.exit ("B" = %t["i % 4"] : f64)
//! }
//! %b = sdfg.access %B writes(%m["0:1"] : ...)
//! // after
//! ... ins("A" = %a["1:2*N:2"] : ...) ...
//! %b = sdfg.access %B writes(%m["0:Min(4, N)", volume "N"] : ...)
//! ```
//!
//! # Nested SDFGs, loops and branches
//!
//! A nested SDFG is a scope whose inside is a whole control-flow graph.
//! Its boundary memlets ([`nested`]) are the union over its states of what
//! each state touches of an argument, each state's memlets taken over the
//! counted loops around it and multiplied by how often it runs: the
//! [`executions`](crate::executions) analysis (DaCe's `propagate_states`,
//! for state machines and loop regions alike) gives both, and a state
//! under a branch or in an uncounted loop makes the memlet dynamic. The
//! result moves out through the symbol mapping and into the box of the
//! outer container the argument is bound to. Nested SDFGs are processed
//! innermost first together with the scopes, so a map around a nested
//! SDFG sees its propagated memlets.
//!
//! [`propagate_enclosing`] re-propagates only the scopes and nested SDFGs
//! around an op a transformation changed, innermost first: the
//! incremental use.

mod nested;

pub(crate) use nested::access_memlets;
pub use nested::{argument_box, propagate_nested, symbol_mapping, touched_subset};
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::{Op, Val};
use sdfg_dialect::layout::layout;
use sdfg_dialect::{memlet_at, set_memlet_at, Memlet};
use sdfg_symbolic::{parse, parse_subset, Assumptions, Expr, Range, Subset};

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-propagate-memlets",
    summary: "Recompute the memlets at map and consume scope boundaries from the memlets inside (exact for quasi-affine subscripts)",
    op_name: "",
    create: || Box::new(PropagateMemlets),
};

/// The pass (no options).
#[derive(Clone, Copy)]
pub struct PropagateMemlets;

impl RustPass for PropagateMemlets {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        if options.trim().is_empty() {
            Ok(())
        } else {
            Err(format!(
                "sdfg-propagate-memlets takes no options, got '{options}'"
            ))
        }
    }

    fn run(&mut self, op: Op<'_>) -> Result<(), Diagnosed> {
        propagate_all(op);
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(*self)
    }
}

/// What a propagation did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Boundary memlets recomputed.
    pub propagated: usize,
    /// Boundary memlets kept because their inner memlets could not be read.
    pub kept: usize,
}

impl Stats {
    /// Counts one boundary memlet, recomputed or kept.
    fn count(&mut self, updated: bool) {
        if updated {
            self.propagated += 1;
        } else {
            self.kept += 1;
        }
    }
}

impl std::ops::AddAssign for Stats {
    fn add_assign(&mut self, other: Stats) {
        self.propagated += other.propagated;
        self.kept += other.kept;
    }
}

/// Whether `op` is a scope whose boundary memlets are propagated.
pub fn is_scope(op: Op<'_>) -> bool {
    op.is("sdfg.map") || op.is("sdfg.consume")
}

/// Whether `op` has boundary memlets that propagation recomputes: a map
/// or consume scope, or a nested SDFG.
pub fn has_boundary(op: Op<'_>) -> bool {
    is_scope(op) || op.is("sdfg.nested")
}

/// Propagates every scope and nested SDFG under (and including) `root`,
/// innermost first.
pub fn propagate_all(root: Op<'_>) -> Stats {
    let mut scopes: Vec<Op> = root
        .descendants()
        .into_iter()
        .filter(|o| has_boundary(*o))
        .collect();
    if has_boundary(root) {
        scopes.insert(0, root);
    }
    let mut stats = Stats::default();
    // Descendants come parents first: reversed, every scope follows the
    // scopes inside it.
    for scope in scopes.into_iter().rev() {
        stats += propagate_boundary(scope);
    }
    stats
}

/// Recomputes the boundary memlets of one scope or nested SDFG.
pub fn propagate_boundary(op: Op<'_>) -> Stats {
    if op.is("sdfg.nested") {
        propagate_nested(op)
    } else {
        propagate_scope(op)
    }
}

/// Re-propagates the scopes and nested SDFGs enclosing `op` (and `op`
/// itself if it is one), innermost first, up to the outermost SDFG: what
/// a transformation that changed `op` calls.
pub fn propagate_enclosing(op: Op<'_>) -> Stats {
    let mut stats = Stats::default();
    let mut current = Some(op);
    while let Some(o) = current {
        if has_boundary(o) {
            stats += propagate_boundary(o);
        }
        current = o.parent();
    }
    stats
}

/// The parameters of a scope with their ranges, the names defined inside
/// it, and whether its iteration count is data-dependent.
#[derive(Clone, Debug)]
pub struct Space {
    /// The parameters (a consume scope's PE index) and their ranges.
    pub params: Vec<(String, Range)>,
    /// The parameters and the dynamic range inputs' connector names.
    pub inner_names: Vec<String>,
    /// Whether the number of iterations depends on data.
    pub dynamic: bool,
}

/// The iteration space of a map or consume scope; `None` where a range
/// does not parse.
pub fn space(scope: Op<'_>) -> Option<Space> {
    if scope.is("sdfg.consume") {
        let pe = scope.str_attr("pe")?.to_string();
        let pes = parse(scope.str_attr("num_pes")?).ok()?;
        return Some(Space {
            params: vec![(pe.clone(), Range::full(pes))],
            inner_names: vec![pe],
            dynamic: true,
        });
    }
    let mut params = Vec::new();
    for (p, r) in scope
        .str_array_attr("params")
        .into_iter()
        .zip(scope.str_array_attr("ranges"))
    {
        let range = parse_subset(r).ok()?;
        let [range] = range.ranges() else {
            return None;
        };
        params.push((p.to_string(), range.clone()));
    }
    let dyn_names: Vec<String> = scope
        .str_array_attr("dyn_names")
        .into_iter()
        .map(str::to_string)
        .collect();
    Some(Space {
        inner_names: params
            .iter()
            .map(|(p, _)| p.clone())
            .chain(dyn_names.iter().cloned())
            .collect(),
        dynamic: !dyn_names.is_empty(),
        params,
    })
}

/// One connector of a scope: its inner memlets and where its boundary
/// memlets are stored.
pub struct Connector<'a> {
    /// The connector's name.
    pub name: String,
    /// The value whose type is the outer container (the input operand, or
    /// the scope's result).
    pub container: Val<'a>,
    /// The memlets inside the scope; `None` where one cannot be read (a
    /// use without a memlet, such as an access node inside the scope).
    pub inner: Option<Vec<Memlet>>,
    /// The boundary memlets: (op, operand) of the scope's input operand,
    /// or of every consumer of the scope's result.
    pub outer: Vec<(Op<'a>, usize)>,
}

/// The input and output connectors of a map or consume scope.
pub fn connectors(scope: Op<'_>) -> Vec<Connector<'_>> {
    let mut out = Vec::new();
    let names = scope.str_array_attr("in_names");
    let args = scope.region_args(0);
    // A consume scope's stream comes first among the operands, and the
    // popped element first among the block arguments.
    let consume = scope.is("sdfg.consume");
    let inputs = scope.operand_segment(usize::from(consume));
    let first_input = if consume {
        scope.operand_segment(0).len()
    } else {
        0
    };
    let arg_offset = usize::from(consume);
    for (k, (outer, name)) in inputs.iter().zip(names).enumerate() {
        let Some(arg) = args.get(k + arg_offset) else {
            continue;
        };
        let inner = arg
            .uses()
            .into_iter()
            .map(|(user, operand)| memlet_at(user, operand))
            .collect();
        out.push(Connector {
            name: name.to_string(),
            container: *outer,
            inner,
            outer: vec![(scope, first_input + k)],
        });
    }
    let exit = scope
        .region_ops(0)
        .into_iter()
        .rev()
        .find(|o| o.is("sdfg.exit"));
    let exit_names = exit.map(|e| e.str_array_attr("names")).unwrap_or_default();
    for (name, result) in scope
        .str_array_attr("out_names")
        .into_iter()
        .zip(scope.results())
    {
        let inner = exit_names
            .iter()
            .enumerate()
            .filter(|(_, n)| **n == name)
            .map(|(i, _)| exit.and_then(|e| memlet_at(e, i)))
            .collect();
        out.push(Connector {
            name: name.to_string(),
            container: result,
            inner,
            outer: result
                .uses()
                .into_iter()
                .filter(|(user, operand)| memlet_at(*user, *operand).is_some())
                .collect(),
        });
    }
    out
}

/// Recomputes the boundary memlets of one scope from its inner memlets.
pub fn propagate_scope(scope: Op<'_>) -> Stats {
    let mut stats = Stats::default();
    let Some(space) = space(scope) else {
        return stats;
    };
    for connector in connectors(scope) {
        let new = connector
            .inner
            .filter(|m| !m.is_empty())
            .and_then(|inner| summary(&inner, &space, connector.container));
        for (user, operand) in connector.outer {
            let updated = match (&new, memlet_at(user, operand)) {
                (Some(new), Some(old)) => set_memlet_at(user, operand, &merge(&old, new)),
                _ => false,
            };
            stats.count(updated);
        }
    }
    stats
}

/// The propagated subset, volume and dynamic flag of `inner` memlets over
/// `space`, for the container `outer` (whose shape bounds what cannot be
/// bounded otherwise).
struct Summary {
    subset: Subset,
    volume: Expr,
    dynamic: bool,
}

fn summary(inner: &[Memlet], space: &Space, outer: Val<'_>) -> Option<Summary> {
    let shape = layout(outer.ty()).ok()?.shape;
    let asm = Assumptions::for_array_sizes(shape.iter());
    let mut joined: Option<Subset> = None;
    let mut volume = Expr::int(0);
    let mut dynamic = space.dynamic;
    for m in inner {
        if m.other.is_some() {
            // A copy between two access nodes: which of its subsets is
            // over the outer container is DaCe's `data`, which the dialect
            // does not keep: keep the outer memlet.
            return None;
        }
        let subset = parse_subset(&m.subset).ok()?;
        if subset.dims() == 0 {
            return None;
        }
        let v = match &m.volume {
            Some(text) => parse(text).ok()?,
            None => subset.volume(),
        };
        volume = Expr::add(&volume, &v);
        dynamic |= m.dynamic;
        joined = Some(match joined {
            None => subset,
            Some(j) => j.union(&subset, &asm).ok()?,
        });
    }
    let joined = joined?;
    if joined.dims() != shape.len() {
        // The inner memlets are not over this container (a view's or a
        // reshaped container's subsets): keep the outer memlet.
        return None;
    }
    let subset = image_in(&joined, &space.params, &space.inner_names, &shape, &asm);
    let (mut volume, varies) = volume_bound(&volume, &space.params, &space.inner_names, &asm);
    dynamic |= varies;
    for (_, range) in &space.params {
        volume = Expr::mul(&volume, &range.count());
    }
    if mentions_any(&volume, &space.inner_names) {
        // A data-dependent number of moves: DaCe's unknown volume.
        volume = Expr::int(0);
        dynamic = true;
    }
    Some(Summary {
        subset,
        volume,
        dynamic,
    })
}

/// Whether `e` mentions one of `names`.
fn mentions_any(e: &Expr, names: &[String]) -> bool {
    names.iter().any(|n| e.mentions(n))
}

/// The image of `joined` over `params`, cut to a container of `shape`: a
/// dimension whose bounds still mention one of `inner_names` (a name
/// defined inside the scope), or that cannot be bounded, becomes the
/// container's whole extent.
pub(crate) fn image_in(
    joined: &Subset,
    params: &[(String, Range)],
    inner_names: &[String],
    shape: &[Expr],
    asm: &Assumptions,
) -> Subset {
    let image = joined.image(params, asm).ok();
    let mut ranges = Vec::with_capacity(joined.dims());
    for (d, size) in shape.iter().enumerate() {
        let range = image.as_ref().map(|i| i.ranges()[d].clone());
        let bounded = range.filter(|r| {
            [&r.start, &r.end, &r.step, &r.tile]
                .iter()
                .all(|e| !mentions_any(e, inner_names))
        });
        // The container's extent bounds every access of a valid program.
        ranges.push(match bounded {
            Some(r) => clamp(r, size, asm),
            None => Range::full(size.clone()),
        });
    }
    Subset::new(ranges)
}

/// The largest value of a volume over `params`, and whether it changes
/// with them (then it is only a bound, and the memlet dynamic).
fn volume_bound(
    volume: &Expr,
    params: &[(String, Range)],
    inner_names: &[String],
    asm: &Assumptions,
) -> (Expr, bool) {
    if !mentions_any(volume, inner_names) {
        return (volume.clone(), false);
    }
    let bound = Subset::indices(vec![volume.clone()])
        .image(params, asm)
        .ok()
        .map(|r| r.ranges()[0].max_element())
        .unwrap_or_else(|| volume.clone());
    (bound, true)
}

/// `range` cut to the indices `0:size` of a container dimension, where
/// the symbolic engine can tell which bound is smaller (a tiled map's
/// `0:32*ceiling(N/32)` over an array of `N` is `0:N`), and a constant
/// end otherwise cut by the size (`0:20` over an array of `N` is
/// `0:Min(20, N)`: a valid program stays inside its containers).
fn clamp(range: Range, size: &Expr, asm: &Assumptions) -> Range {
    if range.tile.as_int() != Some(1) {
        return range;
    }
    // The bound that is provably the tighter one, else the range's own.
    let zero = Expr::int(0);
    let start = match asm.max(&range.start, &zero) {
        m if m == zero => zero,
        _ => range.start.clone(),
    };
    let end = match asm.min(size, &range.end) {
        // (An end of 1 is within every dimension.)
        m if m == *size || range.end.as_int().is_some_and(|e| e > 1) => m,
        _ => range.end.clone(),
    };
    Range::new(start, end, range.step)
}

/// The outer memlet `old` with the propagated subset, volume and dynamic
/// flag (its wcr, other subset and data name kept).
fn merge(old: &Memlet, new: &Summary) -> Memlet {
    let volume = (new.volume != new.subset.volume()).then(|| new.volume.to_string());
    Memlet {
        subset: new.subset.to_string(),
        volume,
        dynamic: new.dynamic,
        ..old.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::ir::Module;

    const PROGRAM: &str = r#"
sdfg.sdfg @two(%C: !sdfg.array<f64 ["N", "M"]> as "C", %D: !sdfg.array<f64 ["N"]> as "D") symbols {N = i64, M = i64} {
  sdfg.state @nested {
    %c = sdfg.access %C : !sdfg.array<f64 ["N", "M"]>
    %o = sdfg.map "outer" ["i" = "0:N"] ins("C" = %c["0, 0"] : !sdfg.array<f64 ["N", "M"]>) outs("D" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%cin: !sdfg.array<f64 ["N", "M"]>):
      %n = sdfg.map "inner" ["j" = "0:M"] ins("C" = %cin["0, 0"] : !sdfg.array<f64 ["N", "M"]>) outs("D" : !sdfg.array<f64 ["N"]>) {
      ^bb0(%cin2: !sdfg.array<f64 ["N", "M"]>):
        %t = sdfg.tasklet "t" ins("x" = %cin2["i, j"] : !sdfg.array<f64 ["N", "M"]>) outs("y" : f64) {
        ^bb0(%x: f64):
          sdfg.yield %x : f64
        }
        sdfg.exit ("D" = %t["i", wcr sum] : f64)
      }
      sdfg.exit ("D" = %n["0", wcr sum] : !sdfg.array<f64 ["N"]>)
    }
    %d = sdfg.access %D writes(%o["0", wcr sum] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
  sdfg.state @sibling {
    %c = sdfg.access %C : !sdfg.array<f64 ["N", "M"]>
    %s = sdfg.map "sibling" ["i" = "0:N"] ins("C" = %c["0, 0"] : !sdfg.array<f64 ["N", "M"]>) outs("D" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%cin: !sdfg.array<f64 ["N", "M"]>):
      %t = sdfg.tasklet "t" ins("x" = %cin["i, 0"] : !sdfg.array<f64 ["N", "M"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit ("D" = %t["i"] : f64)
    }
    %d = sdfg.access %D writes(%s["0"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
  sdfg.edge @nested -> @sibling
}
"#;

    fn input_subset(root: Op<'_>, label: &str) -> String {
        let map = root
            .descendants()
            .into_iter()
            .find(|o| o.is("sdfg.map") && o.str_attr("label") == Some(label))
            .expect("the map");
        memlet_at(map, 0).expect("a memlet").subset
    }

    #[test]
    fn re_propagates_only_the_scopes_around_a_change() {
        let context = sdfg_dialect::create_context();
        let module = Module::parse(&context, PROGRAM).expect("the program parses");
        // SAFETY: the module outlives every handle taken from it here.
        let root = unsafe { Op::from_raw(module.as_operation().to_raw()) }.expect("a module op");
        let tasklet = root
            .descendants()
            .into_iter()
            .find(|o| o.is("sdfg.tasklet"))
            .expect("the inner tasklet");
        let stats = propagate_enclosing(tasklet);
        assert_eq!(stats.kept, 0);
        // inner: C in and D out; outer: C in and D out.
        assert_eq!(stats.propagated, 4);
        assert_eq!(input_subset(root, "inner"), "i, 0:M");
        assert_eq!(input_subset(root, "outer"), "0:N, 0:M");
        assert_eq!(
            input_subset(root, "sibling"),
            "0, 0",
            "not enclosing: untouched"
        );
        assert_eq!(propagate_all(root).propagated, 6);
        assert_eq!(input_subset(root, "sibling"), "0:N, 0");
    }
}
