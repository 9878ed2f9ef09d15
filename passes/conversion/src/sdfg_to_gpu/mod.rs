//! `convert-sdfg-to-gpu` and the `sdfg-lower-to-nvvm` pipeline: SDFGs
//! whose maps are scheduled on the GPU, lowered through MLIR's own GPU path
//! (`gpu` dialect, NVVM, LLVM's NVPTX back end) to PTX embedded in a host
//! module, instead of DaCe's CUDA C++ compiled by nvcc.
//!
//! # Design
//!
//! The conversion is `convert-sdfg-to-scf` with GPU schedules and storage
//! honoured (`sdfg_to_scf/gpu.rs` writes the kernels): everything the CPU
//! lowering knows (symbols, control flow, tasklets, WCR, nested SDFGs,
//! copies) is shared, and only what DaCe's CUDA code generator does
//! differently is new.
//!
//! | SDFG | `gpu` dialect |
//! | --- | --- |
//! | `GPU_Device` map | `gpu.launch`; the last parameter is `x`, the one before `y`, all others `z`; grid = extents / block size |
//! | its `gpu_block_size` | the block size (default 256 threads for one dimension, 32 x 8 otherwise) |
//! | nested `GPU_ThreadBlock` maps | `gpu.thread_id`; one block per point of the device map, block size = the largest thread-block extent; `gpu.barrier` after each |
//! | `GPU_Global` transient | `gpu.alloc` / `gpu.dealloc` in host code |
//! | `GPU_Global` argument | host memory copied to the device at entry and back at exit (the caller passes host arrays, as to every program) |
//! | copy edge between host and device | `gpu.memcpy` (whole containers), else through a host mirror |
//! | `GPU_Shared` transient of the kernel | workgroup memory (`#gpu.address_space<workgroup>`) |
//! | transient inside the kernel | thread-private stack memory (constant sizes only) |
//! | WCR inside the kernel | `memref.atomic_rmw` / `memref.generic_atomic_rmw`, as for parallel CPU loops |
//! | host scalar read in a kernel | passed by value |
//! | nested SDFG scheduled on the GPU | its maps launched by the host when it holds only maps over device arrays, else a kernel of one thread |
//!
//! Kernels are synchronous, so states run in order and kernels of one state
//! one after the other (DaCe allows them to overlap; no result depends on
//! it). Host code that reads or writes device memory, a kernel that reads
//! host arrays, a `GPU_ThreadBlock` map outside a kernel, a kernel inside a
//! kernel and dynamically sized memory inside a kernel are diagnostics
//! naming the op.
//!
//! After the conversion (library nodes are expanded first),
//! [`lower_to_nvvm`] outlines the kernels (`gpu-kernel-outlining`),
//! converts them to NVVM (`convert-gpu-to-nvvm`) and lowers the host side
//! as `sdfg-lower-to-llvm` does plus `sdfg-scope-kernel-launches` and
//! `gpu-to-llvm`; [`serialize_kernels`] then turns each kernel module into
//! PTX for the chosen `sm_XX` with LLVM's NVPTX back end
//! (`gpu-module-to-binary{format=isa}`, which links CUDA's libdevice when
//! given a toolkit). The host module calls the `mgpu*` runtime functions,
//! which `sdfg-execution` implements over the CUDA driver API.

pub mod launch_scopes;

use sdfg_dialect::driver::{PassRegistration, PipelineRegistration};

use crate::sdfg_to_scf::ConvertSdfgToScf;

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "convert-sdfg-to-gpu",
    summary: "convert-sdfg-to-scf with GPU_Device maps as gpu.launch, GPU_ThreadBlock maps as thread indices, GPU_Global containers in device memory and GPU_Shared ones in workgroup memory",
    op_name: "builtin.module",
    create: || {
        Box::new(ConvertSdfgToScf {
            gpu: true,
            ..ConvertSdfgToScf::default()
        })
    },
};

/// The chip `sdfg-lower-to-nvvm` compiles for.
pub const DEFAULT_CHIP: &str = "sm_90";

/// The passes before kernel outlining: the conversion and the clean-up
/// `sdfg-lower-to-llvm` runs.
macro_rules! before_outlining {
    () => {
        "sdfg-validate,sdfg-expand-library-nodes,convert-sdfg-to-gpu,inline,symbol-dce,canonicalize,mem2reg,\
         canonicalize,cse,loop-invariant-code-motion,convert-math-to-funcs{convert-ctlz=false},"
    };
}

/// The kernels' conversion to NVVM, run on each `gpu.module`.
macro_rules! kernel_modules {
    () => {
        "gpu.module(convert-scf-to-cf,expand-strided-metadata,lower-affine,\
         convert-complex-to-standard,arith-expand,convert-gpu-to-nvvm,canonicalize,cse,\
         reconcile-unrealized-casts),"
    };
}

/// The host side, as `sdfg-lower-to-llvm` lowers it, then the GPU
/// runtime calls.
macro_rules! host {
    () => {
        "convert-scf-to-openmp,sdfg-openmp-if,canonicalize,sdfg-scope-kernel-launches,convert-scf-to-cf,expand-strided-metadata,lower-affine,\
         convert-complex-to-standard,convert-complex-to-llvm,convert-vector-to-llvm,finalize-memref-to-llvm,\
         convert-math-to-llvm,convert-math-to-libm,arith-expand,convert-arith-to-llvm,\
         convert-openmp-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,convert-index-to-llvm,\
         gpu-to-llvm,reconcile-unrealized-casts,"
    };
}

/// `sdfg-lower-to-nvvm`: the pipeline for `sm_90`, without a CUDA toolkit
/// (kernels that call math functions then need libdevice: see
/// [`lower_to_nvvm`]).
pub static LOWER_TO_NVVM: PipelineRegistration = PipelineRegistration {
    argument: "sdfg-lower-to-nvvm",
    summary: "Lower SDFGs with GPU schedules to the llvm dialect with PTX for sm_90: convert-sdfg-to-gpu, kernel outlining, convert-gpu-to-nvvm, the host as sdfg-lower-to-llvm, gpu-to-llvm, gpu-module-to-binary",
    pipeline: concat!(
        before_outlining!(),
        "gpu-kernel-outlining,symbol-dce,nvvm-attach-target{chip=sm_90 O=3},",
        kernel_modules!(),
        host!(),
        "gpu-module-to-binary{format=isa}"
    ),
};

/// `sdfg-lower-to-nvvm` for `chip` (`sm_80`, ...), anchored on
/// `builtin.module`, up to the serialisation of the kernels, which
/// [`serialize_kernels`] runs.
pub fn lower_to_nvvm(chip: &str) -> String {
    format!(
        "builtin.module({}gpu-kernel-outlining,symbol-dce,nvvm-attach-target{{chip={chip} O=3}},{}{}reconcile-unrealized-casts)",
        before_outlining!(),
        kernel_modules!(),
        host!()
    )
}

/// The rest of `sdfg-lower-to-nvvm`: each kernel module to PTX. With
/// `toolkit` (a CUDA toolkit, or the `nvidia/cuda_nvcc` folder of the
/// `nvidia-cuda-nvcc-cu12` wheel) the kernels are linked with its libdevice,
/// which math functions need (and which costs time: pass it only for
/// modules that call `__nv_*` functions).
pub fn serialize_kernels(toolkit: Option<&str>) -> String {
    match toolkit {
        Some(path) => format!("builtin.module(gpu-module-to-binary{{format=isa toolkit={path}}})"),
        None => "builtin.module(gpu-module-to-binary{format=isa})".to_string(),
    }
}

/// Whether `module` (before lowering) uses the GPU: schedules a map or a
/// nested SDFG there, or declares a container in GPU memory.
pub fn uses_gpu(module: sdfg_dialect::ir::Op<'_>) -> bool {
    let on_gpu = |ty| {
        sdfg_dialect::Container::from_type(ty).is_some_and(|c| c.storage.name().starts_with("GPU_"))
    };
    module.descendants().into_iter().any(|o| {
        o.attr("schedule")
            .and_then(sdfg_dialect::Schedule::from_attr)
            .is_some_and(|s| s.name().starts_with("GPU_"))
            || o.results().iter().any(|r| on_gpu(r.ty()))
            || (o.is("sdfg.sdfg") && o.region_args(0).iter().any(|a| on_gpu(a.ty())))
    })
}
