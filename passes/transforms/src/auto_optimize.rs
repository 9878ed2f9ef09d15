//! `sdfg-auto-optimize`: a pipeline that picks transformations on its
//! own for the CPU, as DaCe's `auto_optimize(sdfg, DeviceType.CPU)` does,
//! and that `sdfg-run -O` runs before lowering.
//!
//! ```mlir
//! // before: what the NumPy frontend writes, one state per statement
//! sdfg.state @s0 { /* T = A + B, a map */ }
//! sdfg.state @s1 { /* C = T * 2, a map */ }
//! sdfg.state @s2 { /* D = C @ E, a MatMul */ }
//! // after: one state, one fused map, T a scalar inside it, the MatMul
//! // calling CBLAS
//! sdfg.state @s0 {
//!   /* map: t = A[i, j] + B[i, j]; C[i, j] = t * 2 */
//!   /* sdfg.library "MatMul" impl "OpenBLAS" */
//! }
//! ```
//!
//! The steps, in order, each with why it comes where it does:
//!
//! 1. `sdfg-propagate-memlets`: every later step reads the memlets at
//!    scope boundaries (fusion compares what one map writes with what the
//!    next one reads), and an imported program's may be loose.
//! 2. `sdfg-simplify`: state fusion brings the maps of consecutive
//!    statements into one state, and redundant-array elimination removes
//!    the copies between them; fusion only sees maps in one state.
//! 3. `sdfg-raise-loops` and `sdfg-raise-branches`: loop-to-map works on
//!    loop regions, and the frontend's loops are state machines.
//! 4. `sdfg-loop-to-map`, outermost loops first (the most parallelism),
//!    after simplification as DaCe orders it: promoted scalars and fused
//!    states are what make a loop body's accesses readable.
//! 5. `sdfg-simplify` again: it inlines the nested SDFGs of one state
//!    that loop-to-map made, so the maps hold plain dataflow that
//!    collapse and fusion can see.
//! 6. `sdfg-map-collapse`, before fusion, as DaCe orders it: a converted
//!    loop nest becomes nested maps, and maps of the same iteration space
//!    have the same shape when fusion compares them once collapsed.
//! 7. `sdfg-map-fusion{siblings=true}` (DaCe's greedy subgraph fusion):
//!    producer and consumer maps first, through their transients, then
//!    maps that read the same data. A transient that only carried values
//!    between fused maps becomes a scalar or a small local buffer.
//! 8. `sdfg-simplify` again: fusion leaves transients that nothing reads
//!    any more and states that became empty.
//! 9. `sdfg-move-loop-into-map{calls-only=true}`: a sequential loop whose
//!    body is a parallel map of calls of a nested SDFG (what loop-to-map
//!    leaves of a loop nest whose inner body is several states, trmm's
//!    dot product per column) moves into the map, so that the map's
//!    threads start once instead of once per iteration, and each point
//!    keeps its own column across the iterations. It comes after fusion,
//!    as in DaCe, which decides what the maps are; only maps of calls,
//!    for the reason given below.
//! 10. `sdfg-wcr-tiling` (DaCe's `tile_wcrs`): a parallel map that
//!     resolves writes into elements all its iterations share is tiled,
//!     and each tile accumulates in a transient that it resolves into the
//!     data once, instead of one atomic update per element. It comes after
//!     fusion, which decides what the maps are, and before the last
//!     collapse, as in DaCe.
//! 11. `sdfg-map-collapse` again, as DaCe does after its WCR tiling:
//!     fusion can leave a map that holds only another map.
//! 12. `sdfg-fold-transposes`: a matrix-vector `MatMul` of a copy that
//!     a `Transpose` made becomes a `Gemv` with `transA` on the original
//!     (DaCe copies, with its own `Transpose` implementation). It comes
//!     right before the BLAS implementations are chosen, so that the
//!     `Gemv` gets one too, and after the dataflow steps, which do not look
//!     into library nodes.
//! 13. The fast library implementations last (DaCe's
//!     `set_fast_implementations`): the BLAS nodes (`MatMul`, `Gemm`,
//!     `Gemv`, `Dot`) get the implementation `OpenBLAS`, which the
//!     lowering turns into CBLAS calls (a batched `MatMul` into one per
//!     batch). It comes after the dataflow steps because it changes no
//!     graph, only how a node is lowered. `Ger` keeps its implementation:
//!     DaCe has none that calls a BLAS, so a `.sdfg` written after would
//!     not expand in DaCe; its loop nest, a parallel rank-1 update, is
//!     bound by memory as `cblas_?ger` is (`sdfg-run --blas` calls it).
//! 14. `sdfg-make-transients-persistent` very last, as in DaCe: the
//!     top-level transients sized by the arguments are allocated once
//!     rather than on every call. Earlier, it would stop dead-dataflow
//!     elimination and scalar-to-symbol promotion, which leave alone what
//!     a later call may read.
//!
//! DaCe's other steps and where they stand here: DaCe moves every loop it
//! can into its map; step 9 moves only loops around maps of calls. Where
//! the map's body is plain dataflow, the move trades each iteration's
//! contiguous parallel sweep for one strided sweep per map point, and a
//! resolved write per iteration inside the nested SDFG: measured with
//! `sdfg-run --time` on the programs of
//! `test/Transforms/move-loop-into-map.mlir`, a 2000 x 2000 column sweep
//! went from 5.5 to 21 ms and a 256 x 256 product from 1.4 to 36 ms. A
//! body that is already a call per point loses no vectorization, and
//! trmm's 200 x 240 went from 1.65 to 1.36 ms. The rest of transient placement
//! (small arrays on the stack, transients per map iteration) is the
//! lowering's own, as `docs/Lowering.md` says.

use crate::branch_raising::raise_branches;
use crate::loop_raising::raise_loops;
use crate::loop_to_map::loops_to_maps;
use crate::maps::accumulate::WcrTiling;
use crate::maps::collapse::MapCollapse;
use crate::maps::fusion::MapFusion;
use crate::move_loop_into_map::move_loops_into_maps;
use crate::persistent::make_transients_persistent;
use crate::simplify::simplify;
use crate::transpose_folding::fold_transposes;
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::Op;
use sdfg_dialect::rewrite;

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-auto-optimize",
    summary: "Optimize for the CPU without guidance, as DaCe's auto_optimize: propagate memlets, simplify, raise loops and turn independent ones into maps, simplify, collapse and fuse maps, simplify, move loops into maps of calls, tile shared reductions, collapse, use CBLAS for the BLAS library nodes, and make top-level transients persistent",
    op_name: "builtin.module",
    create: || Box::new(AutoOptimize),
};

/// The pass (no options).
#[derive(Clone, Copy)]
pub struct AutoOptimize;

impl RustPass for AutoOptimize {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        crate::no_options("sdfg-auto-optimize", options)
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        auto_optimize(module)
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(*self)
    }
}

/// The BLAS library nodes whose fast implementation calls CBLAS.
const BLAS_NODES: &[&str] = &["MatMul", "Gemm", "Gemv", "Dot"];

/// The implementation DaCe's `set_fast_implementations` picks for the
/// BLAS nodes on a CPU with OpenBLAS, which the lowering calls CBLAS for.
pub const FAST_BLAS: &str = "OpenBLAS";

/// Runs the pipeline on every SDFG under `module` (see the module
/// comment for the steps and their order).
pub fn auto_optimize(module: Op<'_>) -> Result<(), Diagnosed> {
    sdfg_analysis::propagate::propagate_all(module);
    simplify(module);
    raise_loops(module);
    raise_branches(module);
    loops_to_maps(module, None);
    simplify(module);
    MapCollapse::default().run(module)?;
    MapFusion {
        siblings: true,
        ..MapFusion::default()
    }
    .run(module)?;
    simplify(module);
    move_loops_into_maps(module, None, true);
    WcrTiling::default().run(module)?;
    MapCollapse::default().run(module)?;
    fold_transposes(module);
    use_fast_implementations(module);
    make_transients_persistent(module);
    Ok(())
}

/// Gives the BLAS library nodes under `root` the implementation
/// [`FAST_BLAS`]; returns how many changed.
pub fn use_fast_implementations(root: Op<'_>) -> usize {
    let mut changed = 0;
    for node in root
        .descendants()
        .into_iter()
        .filter(|o| o.is("sdfg.library"))
    {
        let class = node.str_attr("class_path").unwrap_or_default();
        let kind = sdfg_dialect::library::node_kind(class);
        if BLAS_NODES.contains(&kind) && node.str_attr("implementation") != Some(FAST_BLAS) {
            node.set_attr("implementation", rewrite::str_attr(node, FAST_BLAS));
            changed += 1;
        }
    }
    changed
}
