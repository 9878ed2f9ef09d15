//! `sdfg-openmp-if`: gives every `omp.parallel` whose loop does too
//! little work to pay for a thread team an `if` clause, so that it runs on
//! the calling thread when its trip count is small.
//!
//! The lowering makes every parallel map an `scf.parallel`, and
//! `convert-scf-to-openmp` makes each one a parallel region. A region
//! costs a fork and a join (microseconds), and the waiting threads of the
//! team spin on the cores for a while after it. A map of a few hundred
//! light iterations inside a sequential loop (covariance's division of
//! one row, `M - i` iterations per `i`) then costs more in that overhead
//! than it computes, and its spinning workers slow what runs between the
//! regions (a BLAS call with its own threads). DaCe's generated
//! `#pragma omp parallel for` pays that on every map.
//!
//! The pass estimates the work of one iteration as the number of ops in
//! the loop body (a `math` op counts as [`MATH_COST`]) and makes the
//! region conditional on the number of iterations, computed from the loop
//! bounds right before it: the region runs in parallel when the
//! iterations times the body's cost reach `min-work` (default
//! [`DEFAULT_MIN_WORK`]), and on the calling thread otherwise (libomp's
//! serialized region calls the same outlined body: no code is duplicated).
//! A body that holds a loop, a call or another parallel region has no
//! cost known here and keeps its region unconditional, as does a region
//! whose bounds are defined inside it or that has an `if` clause already.
//!
//! ```mlir
//! // before
//! omp.parallel {
//!   omp.wsloop {
//!     omp.loop_nest (%i) : index = (%lb) to (%ub) step (%c1) { ... }
//!   }
//! }
//! // after
//! %n = arith.subi %ub, %lb : index
//! %t = arith.ceildivsi %n, %c1 : index
//! %big = arith.cmpi sge, %t, %min : index   // %min = min-work / cost
//! omp.parallel if(%big) {
//!   ...
//! }
//! ```
//!
//! It runs right after `convert-scf-to-openmp`, before the canonicalisation
//! that folds the trip count of constant bounds.

use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::{Op, Val};
use sdfg_dialect::rewrite;

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-openmp-if",
    summary: "Give every omp.parallel whose loop body is straight-line code an if clause on its trip count, so that a loop with less work than min-work (iterations times ops per iteration) runs on the calling thread",
    op_name: "builtin.module",
    create: || Box::new(OpenMpIf::default()),
};

/// The work (iterations times the ops of one iteration) below which a
/// parallel loop runs on the calling thread: about the time of a fork and
/// a join of a libomp team, measured on covariance's row division and the
/// maps of the kernels benchmark.
pub const DEFAULT_MIN_WORK: i64 = 16384;

/// What a `math` op (a libm call once lowered: `exp`, `pow`) counts for in
/// the cost of an iteration.
pub const MATH_COST: i64 = 16;

/// The operand segments of MLIR 19's `omp.parallel`: `if_expr`,
/// `num_threads`, `allocate_vars`, `allocators_vars`, `reduction_vars` and
/// `private_vars`.
const PARALLEL_SEGMENTS: usize = 6;

/// The pass, with its one option.
#[derive(Clone, Copy)]
pub struct OpenMpIf {
    /// `min-work=N`: the least work for which a loop runs in parallel.
    pub min_work: i64,
}

impl Default for OpenMpIf {
    fn default() -> Self {
        Self {
            min_work: DEFAULT_MIN_WORK,
        }
    }
}

impl RustPass for OpenMpIf {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        for option in options.split_whitespace() {
            match option
                .split_once('=')
                .map(|(name, n)| (name, n.parse::<i64>()))
            {
                Some(("min-work", Ok(n))) if n >= 0 => self.min_work = n,
                _ => {
                    return Err(format!(
                    "sdfg-openmp-if: unknown option `{option}` (the option is min-work=N, N >= 0)"
                ))
                }
            }
        }
        Ok(())
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        let regions: Vec<Op> = module
            .walk()
            .into_iter()
            .filter(|o| o.is("omp.parallel"))
            .collect();
        for region in regions {
            if let Some((nest, cost)) = light_loop(region) {
                self.make_conditional(region, nest, cost);
            }
        }
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(*self)
    }
}

/// The `omp.loop_nest` of a parallel region that holds one work-shared
/// loop, and the cost of one of its iterations; `None` where the region
/// has an `if` clause, holds anything else, or the body's cost is not
/// known (a loop, a call, a nested region or unstructured control flow).
fn light_loop(region: Op<'_>) -> Option<(Op<'_>, i64)> {
    // The segments must be exactly the region's operands (MLIR 19's
    // `omp.parallel`, the `if` clause first), and the clause not given.
    let segments: Vec<usize> = (0..PARALLEL_SEGMENTS)
        .map(|k| region.operand_segment(k).len())
        .collect();
    if segments[0] != 0 || segments.iter().sum::<usize>() != region.operands().len() {
        return None;
    }
    let body = region.region_ops(0);
    let [wsloop, terminator] = body.as_slice() else {
        return None;
    };
    if !wsloop.is("omp.wsloop") || !terminator.is("omp.terminator") || !wsloop.operands().is_empty()
    {
        return None;
    }
    let nest = match wsloop.region_ops(0).as_slice() {
        [nest, end] if nest.is("omp.loop_nest") && end.is("omp.terminator") => *nest,
        _ => return None,
    };
    let mut cost = 0;
    for op in nest.walk().into_iter().skip(1) {
        let name = op.name();
        let dialect = name.split('.').next().unwrap_or_default();
        cost += match name {
            "scf.for" | "scf.while" | "scf.parallel" | "func.call" | "llvm.call"
            | "func.call_indirect" | "memref.alloc" => return None,
            _ if matches!(dialect, "omp" | "cf" | "gpu") && name != "omp.yield" => return None,
            _ if dialect == "math" => MATH_COST,
            _ => 1,
        };
    }
    // The bounds are computed before the region, where they must be
    // defined.
    let defined_outside = nest.operands().iter().all(|v| match v.defining_op() {
        Some(def) => !def.is_within(region),
        None => v
            .block_arg()
            .is_some_and(|(owner, _)| !owner.is_within(region)),
    });
    defined_outside.then_some((nest, cost.max(1)))
}

impl OpenMpIf {
    /// Computes the trip count of `nest` before `region` and gives the
    /// region the `if` clause `trips >= ceil(min_work / cost)`.
    fn make_conditional<'a>(&self, region: Op<'a>, nest: Op<'a>, cost: i64) {
        let bounds = nest.operands();
        let rank = bounds.len() / 3;
        if rank == 0 || bounds.len() != 3 * rank {
            return;
        }
        let ty = bounds[0].ty();
        let ty_text = sdfg_dialect::ir::type_to_string(ty);
        let Some(i1) = rewrite::parse_type(region, "i1") else {
            return;
        };
        let arith = |name: &str, a: Val<'a>, b: Val<'a>| -> Option<Val<'a>> {
            rewrite::create_op_before(region, name, &[a, b], &[], &[ty], None)
                .map(|op| op.results()[0])
        };
        let mut trips: Option<Val> = None;
        for k in 0..rank {
            let (lb, ub, step) = (bounds[k], bounds[rank + k], bounds[2 * rank + k]);
            let Some(span) = arith("arith.subi", ub, lb) else {
                return;
            };
            let Some(count) = arith("arith.ceildivsi", span, step) else {
                return;
            };
            trips = match trips {
                None => Some(count),
                Some(t) => arith("arith.muli", t, count),
            };
        }
        let least = (self.min_work + cost - 1) / cost;
        let (Some(trips), Some(value), Some(predicate)) = (
            trips,
            rewrite::parse_attr(region, &format!("{least} : {ty_text}")),
            // `sge` in `arith.cmpi`'s predicates.
            rewrite::parse_attr(region, "5 : i64"),
        ) else {
            return;
        };
        let Some(least) = rewrite::create_op_before(
            region,
            "arith.constant",
            &[],
            &[("value", value)],
            &[ty],
            None,
        ) else {
            return;
        };
        let Some(big) = rewrite::create_op_before(
            region,
            "arith.cmpi",
            &[trips, least.results()[0]],
            &[("predicate", predicate)],
            &[i1],
            None,
        ) else {
            return;
        };
        let mut segments: Vec<Vec<Val>> = (0..PARALLEL_SEGMENTS)
            .map(|k| region.operand_segment(k))
            .collect();
        segments[0] = vec![big.results()[0]];
        rewrite::set_operand_segments(region, &segments);
    }
}
