//! Conversions into and out of the sdfg dialect, one module (folder) per
//! conversion as MLIR's `lib/Conversion/SDFGToSCF/`, and the named
//! pipeline that takes an SDFG module down to the `llvm` dialect.
//!
//! Conversions depend on the dialect and the core libraries, the tasklet
//! translation (`sdfg-tasklet`, for expressions computed as C++ computes
//! them) among them; never on analyses, transformations, translations or
//! the execution engine, so that a change in an analysis does not rebuild
//! them.

#![deny(missing_docs)]

pub mod openmp_if;
pub mod sdfg_to_gpu;
pub mod sdfg_to_scf;
pub mod to_sdfg;

use sdfg_dialect::driver::PipelineRegistration;

/// `sdfg-lower-to-llvm`: validation, the conversion (and linalg ops left in
/// functions that are not SDFGs to loops), clean-up (tasklet
/// bodies inlined, scalar transients promoted to registers, invariant code
/// hoisted), parallel loops to OpenMP (those with too little work to pay for
/// a thread team made conditional by `sdfg-openmp-if`), then every dialect
/// to `llvm`. The memref lowering runs again after arith's:
/// `memref.generic_atomic_rmw` (a write-conflict resolution without an
/// atomic instruction, such as a product) lowers only once its body is in
/// the llvm dialect.
pub static LOWER_TO_LLVM: PipelineRegistration = PipelineRegistration {
    argument: "sdfg-lower-to-llvm",
    summary: "Lower SDFGs to the llvm dialect: convert-sdfg-to-scf, inlining and clean-up, scf.parallel to OpenMP, then everything to llvm",
    pipeline: "sdfg-validate,convert-sdfg-to-scf,convert-linalg-to-loops,inline,symbol-dce,canonicalize,mem2reg,\
               canonicalize,cse,loop-invariant-code-motion,convert-scf-to-openmp,sdfg-openmp-if,\
               canonicalize,convert-scf-to-cf,expand-strided-metadata,lower-affine,\
               convert-complex-to-standard,convert-complex-to-llvm,convert-vector-to-llvm,finalize-memref-to-llvm,convert-math-to-funcs{convert-ctlz=false},\
               convert-math-to-llvm,convert-math-to-libm,arith-expand,convert-arith-to-llvm,finalize-memref-to-llvm,convert-openmp-to-llvm,convert-cf-to-llvm,\
               convert-func-to-llvm,convert-index-to-llvm,reconcile-unrealized-casts",
};
