//! Compiling and running SDFGs: a program (`.mlir` holding `sdfg.sdfg`, or
//! a DaCe `.sdfg`/`.sdfgz`) is lowered with `sdfg-lower-to-llvm`, compiled
//! by MLIR's ExecutionEngine (LLVM at -O3 for the host CPU, OpenMP from
//! `libomp`) and called through its C interface ([`sdfg_conversion::sdfg_to_scf::Abi`]).
//!
//! The host side lays arrays out as the SDFG's strides say: a C-order
//! `.npy` array is scattered into a flat buffer of the container's span
//! and gathered back after the call.
//!
//! The execution engine depends on the registry (it runs the registered
//! lowering pipeline), the conversion (the compiled function's ABI) and the
//! DaCe importer (it reads `.sdfg` files); no pass, translation or
//! analysis depends on it.

#![deny(missing_docs)]

pub mod cuda;
pub mod npy;
mod streams;

use std::collections::HashMap;
use std::ffi::c_void;
use std::path::Path;

use mlir_sys::*;
use sdfg_dialect::ir::{string_ref, Op};

use npy::{Array, Dtype};
use sdfg_conversion::sdfg_to_scf::{abi, Abi, Argument, Elem, SymbolType};

/// Collected diagnostics of a context.
type Messages = std::sync::Mutex<Vec<String>>;

unsafe extern "C" fn collect(diagnostic: MlirDiagnostic, data: *mut c_void) -> MlirLogicalResult {
    let messages = &*(data as *const Messages);
    let location = sdfg_dialect::ir::print_with(|cb, d| {
        mlirLocationPrint(mlirDiagnosticGetLocation(diagnostic), cb, d)
    });
    let text = sdfg_dialect::ir::print_with(|cb, d| mlirDiagnosticPrint(diagnostic, cb, d));
    let severity = mlirDiagnosticGetSeverity(diagnostic);
    let severity = if severity == MlirDiagnosticSeverity_MlirDiagnosticError {
        "error"
    } else if severity == MlirDiagnosticSeverity_MlirDiagnosticWarning {
        "warning"
    } else if severity == MlirDiagnosticSeverity_MlirDiagnosticNote {
        "note"
    } else {
        "remark"
    };
    let location = location
        .strip_prefix("loc(\"")
        .and_then(|l| l.strip_suffix(')'))
        .map(|l| l.replacen('"', "", 1))
        .unwrap_or(location);
    if let Ok(mut m) = messages.lock() {
        m.push(format!("{location}: {severity}: {text}"));
    }
    MlirLogicalResult { value: 1 }
}

/// A compiled SDFG, ready to be called.
pub struct Program {
    engine: MlirExecutionEngine,
    module: MlirModule,
    /// Keeps the context (and its registered dialects) alive.
    _session: Session,
    /// The called function's interface.
    pub abi: Abi,
    /// The GPU the program's kernels run on (`name (sm_XY)`), if any.
    pub gpu: Option<String>,
}

impl Drop for Program {
    fn drop(&mut self) {
        if self.gpu.is_some() {
            cuda::forget_modules();
        }
        // SAFETY: both were created by `compile` and are destroyed once.
        unsafe {
            mlirExecutionEngineDestroy(self.engine);
            mlirModuleDestroy(self.module);
        }
    }
}

/// How to compile.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The `sdfg.sdfg` to call (default: the first one).
    pub function: Option<String>,
    /// Writes the compiled object file here.
    pub object_file: Option<std::path::PathBuf>,
    /// Writes the module in the `llvm` dialect here.
    pub llvm_dialect_file: Option<std::path::PathBuf>,
    /// Guards every memlet access with a bounds check that stops the
    /// program with a message instead of reading or writing outside a
    /// container.
    pub check_bounds: bool,
    /// Lowers the BLAS library nodes (`MatMul`, `Gemm`, `Gemv`, `Dot`) to
    /// CBLAS calls, as DaCe's fast implementations do.
    pub blas: bool,
    /// Lowers the BLAS library nodes and `Transpose` to linalg's named
    /// ops, which the lowering then turns into loops.
    pub linalg: bool,
    /// A pass pipeline (`builtin.module(sdfg-expand-library-nodes)`, as
    /// `sdfg-opt --pass-pipeline` takes it) run on the program before it is
    /// lowered, so that a pass can be checked by executing its result.
    pub pass_pipeline: Option<String>,
    /// Runs `sdfg-auto-optimize` before lowering (after `pass_pipeline`),
    /// as `sdfg-run -O` asks: the everyday way to optimised code.
    pub optimize: bool,
    /// Runs GPU-scheduled maps on the CPU (the `convert-sdfg-to-scf`
    /// lowering) instead of on the GPU.
    pub cpu_fallback: bool,
    /// The `sm_XY` kernels are compiled for (default: the GPU's own, or
    /// [`sdfg_conversion::sdfg_to_gpu::DEFAULT_CHIP`] for [`compile_ptx`]).
    pub gpu_chip: Option<String>,
}

/// A CUDA toolkit whose libdevice the kernels link (math functions need
/// it): `$SDFG_CUDA_TOOLKIT` (a toolkit, or the `nvidia/cuda_nvcc` folder of
/// the `nvidia-cuda-nvcc-cu12` wheel), `$CUDA_HOME`, `$CUDA_PATH` or
/// `/usr/local/cuda`, the first that has `nvvm/libdevice`.
pub fn cuda_toolkit() -> Option<String> {
    ["SDFG_CUDA_TOOLKIT", "CUDA_HOME", "CUDA_PATH"]
        .iter()
        .filter_map(|v| std::env::var(v).ok())
        .chain(std::iter::once("/usr/local/cuda".to_string()))
        .find(|p| Path::new(p).join("nvvm/libdevice").is_dir())
}

/// Loads `path` and lowers it with `sdfg-lower-to-nvvm` for `chip`, with
/// no GPU needed: the PTX of each kernel module (`(name, PTX)`).
pub fn compile_ptx(path: &Path, options: &Options) -> Result<Vec<(String, String)>, String> {
    let session = Session::new();
    let ctx = session.context.to_raw();
    // SAFETY: the session's context outlives the module, destroyed here.
    unsafe {
        let module = parse(ctx, path).map_err(|e| session.failure(&e))?;
        if let Some(pipeline) = &options.pass_pipeline {
            if let Err(e) = run_pipeline(ctx, module, pipeline) {
                mlirModuleDestroy(module);
                return Err(session.failure(&e));
            }
        }
        let chip = options
            .gpu_chip
            .clone()
            .unwrap_or_else(|| sdfg_conversion::sdfg_to_gpu::DEFAULT_CHIP.to_string());
        let result = lower(ctx, module, options, Some(&chip)).map(|_| {
            Op::from_raw(mlirModuleGetOperation(module))
                .map(cuda::kernel_ptx)
                .unwrap_or_default()
        });
        mlirModuleDestroy(module);
        result.map_err(|e| session.failure(&e))
    }
}

/// Runs one of the lowering pipelines on `module`.
unsafe fn run_lowering(ctx: MlirContext, module: MlirModule, pipeline: &str) -> Result<(), String> {
    let pm = mlirPassManagerCreate(ctx);
    let parsed = mlirParsePassPipeline(
        mlirPassManagerGetAsOpPassManager(pm),
        string_ref(pipeline),
        None,
        std::ptr::null_mut(),
    );
    if parsed.value == 0 {
        mlirPassManagerDestroy(pm);
        return Err("internal error: the lowering pipeline does not parse".into());
    }
    let ran = mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
    mlirPassManagerDestroy(pm);
    if ran.value == 0 {
        return Err("the program cannot be lowered".into());
    }
    Ok(())
}

/// Whether a kernel module of `module` declares a libdevice function.
fn calls_libdevice(module: Op<'_>) -> bool {
    module
        .region_ops(0)
        .into_iter()
        .filter(|o| o.is("gpu.module"))
        .flat_map(|m| m.region_ops(0))
        .any(|f| f.symbol_name().is_some_and(|n| n.starts_with("__nv_")))
}

/// The libdevice functions (`__nv_sin`, ...) that a kernel's PTX calls
/// without defining them: none once libdevice was linked.
fn unresolved_libdevice(ptx: &str) -> Vec<String> {
    ptx.lines()
        .filter(|l| l.starts_with(".extern .func"))
        .filter_map(|l| l.split_whitespace().last())
        .filter(|n| n.starts_with("__nv_"))
        .map(str::to_string)
        .collect()
}

fn lib_dir() -> String {
    let prefix = std::env::var("MLIR_SYS_190_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-19".into());
    format!("{prefix}/lib")
}

/// Loads `path` (`.mlir`, or DaCe's `.sdfg`/`.sdfgz`), lowers it and
/// JIT-compiles it. Errors carry MLIR's diagnostics with their locations.
pub fn compile(path: &Path, options: &Options) -> Result<Program, String> {
    let session = Session::new();
    let ctx = session.context.to_raw();
    // SAFETY: the context outlives the module, the engine and the handler's
    // data, which `Program` owns together.
    unsafe {
        let module = parse(ctx, path).map_err(|e| session.failure(&e))?;
        match lower_and_jit(ctx, module, options) {
            Ok((engine, abi, gpu)) => Ok(Program {
                engine,
                module,
                _session: session,
                abi,
                gpu,
            }),
            Err(e) => {
                mlirModuleDestroy(module);
                Err(session.failure(&e))
            }
        }
    }
}

/// A context with every dialect, pass and translation registered, whose
/// diagnostics are collected for the error messages.
struct Session {
    context: melior::Context,
    messages: Box<Messages>,
}

impl Session {
    fn new() -> Session {
        sdfg_registry::register_all();
        let context = sdfg_dialect::create_context();
        let messages: Box<Messages> = Box::default();
        // SAFETY: the handler's data is boxed and lives as long as the
        // context, which the session owns with it.
        unsafe {
            let ctx = context.to_raw();
            mlirRegisterAllPasses();
            mlirRegisterAllLLVMTranslations(ctx);
            mlirContextAttachDiagnosticHandler(
                ctx,
                Some(collect),
                &*messages as *const Messages as *mut c_void,
                None,
            );
        }
        Session { context, messages }
    }

    /// `what`, after the diagnostics collected so far.
    fn failure(&self, what: &str) -> String {
        let m = self
            .messages
            .lock()
            .map(|m| m.join("\n"))
            .unwrap_or_default();
        if m.is_empty() {
            what.to_string()
        } else {
            format!("{m}\n{what}")
        }
    }
}

unsafe fn parse(ctx: MlirContext, path: &Path) -> Result<MlirModule, String> {
    let name = path.display().to_string();
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default();
    let module = if matches!(extension, "sdfg" | "sdfgz") {
        let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
        let text = sdfg_target_dace::import::import_bytes(&bytes)
            .map_err(|e| format!("{name}: cannot import the DaCe SDFG: {e}"))?;
        sdfg_dialect::ffi::sdfgParseSourceString(ctx, string_ref(&text), string_ref(&name))
    } else {
        sdfg_dialect::ffi::sdfgParseSourceFile(ctx, string_ref(&name))
    };
    if module.ptr.is_null() {
        return Err(format!("{name}: cannot parse the program"));
    }
    Ok(module)
}

unsafe fn lower_and_jit(
    ctx: MlirContext,
    module: MlirModule,
    options: &Options,
) -> Result<(MlirExecutionEngine, Abi, Option<String>), String> {
    if let Some(pipeline) = &options.pass_pipeline {
        run_pipeline(ctx, module, pipeline)?;
    }
    if options.optimize {
        run_pipeline(ctx, module, "builtin.module(sdfg-auto-optimize)")?;
    }
    let module_op = Op::from_raw(mlirModuleGetOperation(module)).ok_or("empty module")?;
    if let Some(name) = &options.function {
        // Only the chosen SDFG is lowered: the others may hold what it
        // does not need (foreign code, GPU maps), and nothing calls them.
        let chosen = |o: &Op| o.is("sdfg.sdfg") && o.symbol_name() == Some(name.as_str());
        let ops = module_op.region_ops(0);
        if ops.iter().any(chosen) {
            for other in ops.into_iter().filter(|o| o.is("sdfg.sdfg") && !chosen(o)) {
                // SAFETY: a top-level SDFG is used by no other op.
                sdfg_dialect::rewrite::erase(other);
            }
        }
    }
    let gpu = if sdfg_conversion::sdfg_to_gpu::uses_gpu(module_op) && !options.cpu_fallback {
        let (name, chip) = cuda::device().map_err(|e| {
            format!("the program uses the GPU, and {e}; run it with --cpu-fallback to run its GPU maps on the CPU")
        })?;
        let chip = options.gpu_chip.clone().unwrap_or(chip);
        Some((name, chip))
    } else {
        None
    };
    let abi = lower(
        ctx,
        module,
        options,
        gpu.as_ref().map(|(_, chip)| chip.as_str()),
    )?;
    let omp = format!("{}/libomp.so", lib_dir());
    load_globally(&omp, "the OpenMP runtime", "libomp-19-dev")?;
    let lapack = calls(module, "LAPACKE_");
    if lapack {
        load_globally(LAPACKE, "LAPACKE", "liblapacke-dev")?;
    }
    let cblas = calls(module, "cblas_");
    if cblas {
        load_globally(CBLAS, "CBLAS", "libopenblas-dev")?;
    }
    if lapack || cblas {
        set_openblas_threads(cblas);
    }
    // MLIR's C API reads the library paths as C strings: the reference
    // covers the path, and the NUL after it ends it.
    let omp_c = format!("{omp}\0");
    let libs = [string_ref(&omp_c[..omp.len()])];
    let engine = mlirExecutionEngineCreate(
        module,
        3,
        libs.len() as i32,
        libs.as_ptr(),
        options.object_file.is_some(),
    );
    if engine.ptr.is_null() {
        return Err("LLVM cannot compile the lowered program".into());
    }
    for (name, address) in streams::symbols() {
        mlirExecutionEngineRegisterSymbol(engine, string_ref(name), address);
    }
    if gpu.is_some() {
        for (name, address) in cuda::symbols() {
            mlirExecutionEngineRegisterSymbol(engine, string_ref(name), address);
        }
    }
    if let Some(path) = &options.object_file {
        // Compile the module by looking up the entry point: left to
        // itself, the dump would look up every function, declarations
        // (`malloc`, the stream runtime) included, and give up on those.
        if mlirExecutionEngineLookupPacked(engine, string_ref(&abi.name)).is_null() {
            return Err("LLVM cannot compile the lowered program".into());
        }
        let name = path.display().to_string();
        mlirExecutionEngineDumpToObjectFile(engine, string_ref(&name));
    }
    let gpu = gpu.map(|(name, chip)| format!("{name} ({chip})"));
    Ok((engine, abi, gpu))
}

/// Runs `sdfg-lower-to-llvm`, or with `chip` `sdfg-lower-to-nvvm` for it;
/// returns the entry point's ABI.
unsafe fn lower(
    ctx: MlirContext,
    module: MlirModule,
    options: &Options,
    chip: Option<&str>,
) -> Result<Abi, String> {
    let module_op = Op::from_raw(mlirModuleGetOperation(module)).ok_or("empty module")?;
    let sdfgs: Vec<Op> = module_op
        .region_ops(0)
        .into_iter()
        .filter(|o| o.is("sdfg.sdfg"))
        .collect();
    let entry = match &options.function {
        Some(name) => sdfgs
            .iter()
            .find(|s| s.symbol_name() == Some(name.as_str())),
        None => sdfgs.first(),
    }
    .ok_or_else(|| match &options.function {
        Some(name) => format!("the program has no sdfg.sdfg named `{name}`"),
        None => "the program holds no sdfg.sdfg".to_string(),
    })?;
    let abi = abi(*entry)?;
    let (mut pipeline, conversion) = match chip {
        Some(chip) => (
            sdfg_conversion::sdfg_to_gpu::lower_to_nvvm(chip),
            "convert-sdfg-to-gpu",
        ),
        None => (
            sdfg_conversion::LOWER_TO_LLVM.anchored(),
            "convert-sdfg-to-scf",
        ),
    };
    let mut conversion_options = Vec::new();
    if options.check_bounds {
        conversion_options.push("check-bounds=true");
    }
    if options.blas {
        conversion_options.push("blas=true");
    }
    if options.linalg {
        conversion_options.push("linalg=true");
    }
    if !conversion_options.is_empty() {
        pipeline = pipeline.replacen(
            &format!("{conversion},"),
            &format!("{conversion}{{{}}},", conversion_options.join(" ")),
            1,
        );
    }
    run_lowering(ctx, module, &pipeline)?;
    if chip.is_some() {
        // libdevice only where a kernel calls it: linking it costs time.
        let module_op = Op::from_raw(mlirModuleGetOperation(module)).ok_or("empty module")?;
        let toolkit = calls_libdevice(module_op).then(cuda_toolkit).flatten();
        let serialize = sdfg_conversion::sdfg_to_gpu::serialize_kernels(toolkit.as_deref());
        run_lowering(ctx, module, &serialize)?;
        let module_op = Op::from_raw(mlirModuleGetOperation(module)).ok_or("empty module")?;
        for (kernel, ptx) in cuda::kernel_ptx(module_op) {
            let missing = unresolved_libdevice(&ptx);
            if !missing.is_empty() {
                return Err(format!(
                    "kernel module `{kernel}` calls {} from CUDA's libdevice, and no CUDA toolkit was found: set SDFG_CUDA_TOOLKIT to one (or to the nvidia/cuda_nvcc folder of the nvidia-cuda-nvcc-cu12 wheel)",
                    missing.join(", ")
                ));
            }
        }
    }
    if let Some(path) = &options.llvm_dialect_file {
        let text = Op::from_raw(mlirModuleGetOperation(module))
            .map(|o| o.print())
            .unwrap_or_default();
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(abi)
}

/// Appends MLIR's text to the `String` behind `data`.
unsafe extern "C" fn append_text(text: MlirStringRef, data: *mut c_void) {
    let bytes = std::slice::from_raw_parts(text.data as *const u8, text.length);
    (*(data as *mut String)).push_str(&String::from_utf8_lossy(bytes));
}

/// Runs a user's pass pipeline on `module`; MLIR's diagnostics say what
/// failed.
unsafe fn run_pipeline(ctx: MlirContext, module: MlirModule, pipeline: &str) -> Result<(), String> {
    let pm = mlirPassManagerCreate(ctx);
    let mut error = String::new();
    let parsed = mlirParsePassPipeline(
        mlirPassManagerGetAsOpPassManager(pm),
        string_ref(pipeline),
        Some(append_text),
        &mut error as *mut String as *mut c_void,
    );
    if parsed.value == 0 {
        mlirPassManagerDestroy(pm);
        return Err(format!(
            "--pass-pipeline: `{pipeline}` is not a pass pipeline: {} (write it as sdfg-opt takes it: builtin.module(PASS,...))",
            error.trim()
        ));
    }
    let ran = mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
    mlirPassManagerDestroy(pm);
    if ran.value == 0 {
        return Err(format!("--pass-pipeline: `{pipeline}` failed"));
    }
    Ok(())
}

extern "C" {
    fn dlopen(filename: *const std::ffi::c_char, flag: std::ffi::c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const std::ffi::c_char) -> *mut c_void;
}

/// Sets how many threads OpenBLAS (where it is the BLAS loaded) runs
/// each call on: one for a program that calls CBLAS, which threads its
/// large calls itself on OpenMP's threads (a second pool of spinning
/// threads slows both, `sdfg_to_scf/blas.rs`); OpenBLAS's own default,
/// as it was when first asked, for one that calls only LAPACKE, whose
/// factorizations are threaded inside. Another BLAS is left as it is.
fn set_openblas_threads(calls_cblas: bool) {
    static DEFAULT: std::sync::OnceLock<std::ffi::c_int> = std::sync::OnceLock::new();
    let symbol = |name: &std::ffi::CStr| {
        // SAFETY: a NUL-terminated name; `RTLD_DEFAULT` (a null handle)
        // searches the global scope, where `load_globally` put the BLAS
        // and the OpenBLAS it depends on.
        let address = unsafe { dlsym(std::ptr::null_mut(), name.as_ptr()) };
        (!address.is_null()).then_some(address)
    };
    let (Some(get), Some(set)) = (
        symbol(c"openblas_get_num_threads"),
        symbol(c"openblas_set_num_threads"),
    ) else {
        return;
    };
    // SAFETY: OpenBLAS's `int openblas_get_num_threads(void)` and
    // `void openblas_set_num_threads(int)`.
    type Get = extern "C" fn() -> std::ffi::c_int;
    type Set = extern "C" fn(std::ffi::c_int);
    let (get, set) = unsafe {
        (
            std::mem::transmute::<*mut c_void, Get>(get),
            std::mem::transmute::<*mut c_void, Set>(set),
        )
    };
    let default = *DEFAULT.get_or_init(|| get());
    set(if calls_cblas { 1 } else { default });
}

/// Debian's LAPACKE (package `liblapacke`), which the lowering of DaCe's
/// `Cholesky`, `Solve` and `Inv` nodes calls.
const LAPACKE: &str = "liblapacke.so.3";

/// Debian's BLAS with its CBLAS interface (`libblas.so.3`, OpenBLAS's
/// where `libopenblas0` is installed), which the BLAS library nodes call
/// under `--blas`.
const CBLAS: &str = "libblas.so.3";

/// Whether the lowered module declares a function whose name starts with
/// `prefix` (`LAPACKE_`, `cblas_`).
unsafe fn calls(module: MlirModule, prefix: &str) -> bool {
    Op::from_raw(mlirModuleGetOperation(module)).is_some_and(|m| {
        m.region_ops(0)
            .into_iter()
            .any(|f| f.symbol_name().is_some_and(|n| n.starts_with(prefix)))
    })
}

/// Loads a shared library (`what`, from Debian package `package`) into the
/// process with its symbols visible to the JIT's process-wide symbol
/// search (OpenMP's `__kmpc_*`, LAPACKE's functions).
fn load_globally(path: &str, what: &str, package: &str) -> Result<(), String> {
    const RTLD_NOW: std::ffi::c_int = 2;
    const RTLD_GLOBAL: std::ffi::c_int = 0x100;
    let c = std::ffi::CString::new(path).map_err(|_| "bad library path".to_string())?;
    // SAFETY: a NUL-terminated path; the handle is kept for the process.
    let handle = unsafe { dlopen(c.as_ptr(), RTLD_NOW | RTLD_GLOBAL) };
    if handle.is_null() {
        return Err(format!("cannot load {what} ({path}): install {package}"));
    }
    Ok(())
}

/// Maps a container element type to its `.npy` element kind.
pub fn dtype_of(elem: &Elem) -> Result<Dtype, String> {
    Ok(match elem.ty.as_str() {
        "f64" => Dtype::Float(8),
        "f32" => Dtype::Float(4),
        "f16" => Dtype::Float(2),
        "complex<f64>" => Dtype::Complex(16),
        "complex<f32>" => Dtype::Complex(8),
        "i1" => Dtype::Bool,
        "index" => Dtype::Int(8),
        t => match t.strip_prefix('i').and_then(|w| w.parse::<usize>().ok()) {
            Some(w @ (8 | 16 | 32 | 64)) if elem.unsigned => Dtype::Uint(w / 8),
            Some(w @ (8 | 16 | 32 | 64)) => Dtype::Int(w / 8),
            _ => return Err(format!("element type `{t}` has no .npy equivalent")),
        },
    })
}

/// The memory of one argument: a flat, 8-byte aligned buffer laid out by
/// the container's strides.
#[derive(Clone, Debug)]
pub struct Buffer {
    /// Element kind.
    pub dtype: Dtype,
    /// Number of elements of the flat buffer (the strides' span).
    pub len: usize,
    /// The concrete shape.
    pub shape: Vec<usize>,
    /// The concrete strides, in elements.
    pub strides: Vec<usize>,
    words: Vec<u64>,
}

impl Buffer {
    fn bytes(&self) -> &[u8] {
        // SAFETY: u64 storage viewed as bytes, within its length.
        unsafe {
            std::slice::from_raw_parts(
                self.words.as_ptr() as *const u8,
                self.len * self.dtype.size(),
            )
        }
    }

    fn bytes_mut(&mut self) -> &mut [u8] {
        let n = self.len * self.dtype.size();
        // SAFETY: as above, uniquely borrowed.
        unsafe { std::slice::from_raw_parts_mut(self.words.as_mut_ptr() as *mut u8, n) }
    }

    /// The flat positions of the array's elements in C order.
    fn positions(&self) -> Vec<usize> {
        let mut out = vec![0usize];
        for (size, stride) in self.shape.iter().zip(&self.strides) {
            let mut next = Vec::with_capacity(out.len() * size);
            for base in &out {
                for k in 0..*size {
                    next.push(base + k * stride);
                }
            }
            out = next;
        }
        out
    }

    /// Fills the buffer from a C-order array of the same shape (converting
    /// element types as C does). As DaCe, it also takes an array whose
    /// shape differs only by dimensions of size 1 (`[25, 1]` for `[25]`):
    /// its C-order elements are the same, and the returned note says how
    /// the array was read.
    pub fn fill(&mut self, array: &Array) -> Result<Option<String>, String> {
        let squeezed =
            |shape: &[usize]| -> Vec<usize> { shape.iter().copied().filter(|d| *d != 1).collect() };
        let note = if array.shape == self.shape {
            None
        } else if squeezed(&array.shape) == squeezed(&self.shape) {
            Some(format!(
                "the array of shape {:?} is read as shape {:?} (they differ only by dimensions of size 1)",
                array.shape, self.shape
            ))
        } else {
            return Err(format!(
                "has shape {:?} but the program expects {:?}",
                array.shape, self.shape
            ));
        };
        let dtype = self.dtype;
        let (k, from) = (dtype.components().1, array.dtype.components().1);
        for (i, p) in self.positions().into_iter().enumerate() {
            // A real number is a complex one with a zero imaginary part.
            for c in 0..k {
                let v = if c < from {
                    array.dtype.get(&array.data, i * from + c)
                } else {
                    0.0
                };
                dtype.set(self.bytes_mut(), p * k + c, v);
            }
        }
        Ok(note)
    }

    /// Gathers the buffer into a C-order array.
    pub fn to_array(&self) -> Array {
        let positions = self.positions();
        let mut data = vec![0u8; positions.len() * self.dtype.size()];
        let n = self.dtype.size();
        let bytes = self.bytes();
        for (i, p) in positions.into_iter().enumerate() {
            data[i * n..(i + 1) * n].copy_from_slice(&bytes[p * n..(p + 1) * n]);
        }
        Array {
            dtype: self.dtype,
            shape: self.shape.clone(),
            data,
        }
    }

    /// Fills the buffer with reproducible pseudo-random values: floats in
    /// [0, 1), integers in [0, 10), booleans.
    pub fn randomize(&mut self, seed: u64) {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03;
        let mut next = move || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let dtype = self.dtype;
        let (component, k) = dtype.components();
        for p in self.positions() {
            for c in 0..k {
                let r = next();
                let v = match component {
                    Dtype::Float(_) => (r >> 11) as f64 / (1u64 << 53) as f64,
                    Dtype::Bool => (r & 1) as f64,
                    _ => (r % 10) as f64,
                };
                dtype.set(self.bytes_mut(), p * k + c, v);
            }
        }
    }
}

/// Evaluates the buffers' layouts for symbol values.
pub fn buffers(abi: &Abi, symbols: &HashMap<String, i64>) -> Result<Vec<Buffer>, String> {
    abi.arguments.iter().map(|a| buffer(a, symbols)).collect()
}

fn buffer(arg: &Argument, symbols: &HashMap<String, i64>) -> Result<Buffer, String> {
    let eval = |e: &sdfg_symbolic::Expr, what: &str| -> Result<usize, String> {
        match e.evaluate(symbols) {
            Ok(sdfg_symbolic::Value::Int(v)) if v >= 0 => Ok(v as usize),
            Ok(v) => Err(format!("`{}`: {what} `{e}` is {v}", arg.name)),
            Err(err) => Err(format!("`{}`: {what} `{e}`: {err}", arg.name)),
        }
    };
    let layout = &arg.layout;
    let dtype = dtype_of(&layout.elem).map_err(|e| format!("`{}`: {e}", arg.name))?;
    let values = |exprs: &[sdfg_symbolic::Expr], what: &str| -> Result<Vec<usize>, String> {
        exprs.iter().map(|e| eval(e, what)).collect()
    };
    let (shape, strides) = if layout.scalar {
        (Vec::new(), Vec::new())
    } else {
        (
            values(&layout.shape, "size")?,
            values(&layout.strides, "stride")?,
        )
    };
    let len = if shape.contains(&0) {
        1
    } else {
        1 + shape
            .iter()
            .zip(&strides)
            .map(|(s, t)| (s - 1) * t)
            .sum::<usize>()
    };
    let words = vec![0u64; (len * dtype.size()).div_ceil(8).max(1)];
    Ok(Buffer {
        dtype,
        len,
        shape,
        strides,
        words,
    })
}

#[repr(C)]
struct Descriptor {
    allocated: *mut c_void,
    aligned: *mut c_void,
    offset: i64,
    size: i64,
    stride: i64,
}

/// The values of a program's free symbols.
#[derive(Clone, Debug, Default)]
pub struct SymbolValues {
    /// The integer symbols (which also lay out the buffers, see
    /// [`buffers`]).
    pub ints: HashMap<String, i64>,
    /// DaCe's floating-point symbols.
    pub floats: HashMap<String, f64>,
    /// DaCe's complex symbols: (real, imaginary).
    pub complexes: HashMap<String, (f64, f64)>,
}

/// A complex number as Python writes one (`2`, `-1.5j`, `(1+2j)`,
/// `1e-3-4j`): its real and imaginary parts.
pub fn parse_complex(text: &str) -> Option<(f64, f64)> {
    let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let t = t
        .strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or(&t);
    let Some(body) = t.strip_suffix('j') else {
        return Some((t.parse().ok()?, 0.0));
    };
    // The imaginary part starts at the last sign that is neither the
    // first character nor an exponent's.
    let bytes = body.as_bytes();
    let split = (1..bytes.len())
        .rev()
        .find(|&i| matches!(bytes[i], b'+' | b'-') && !matches!(bytes[i - 1], b'e' | b'E'));
    let imaginary = |s: &str| -> Option<f64> {
        match s {
            "" | "+" => Some(1.0),
            "-" => Some(-1.0),
            _ => s.parse().ok(),
        }
    };
    match split {
        Some(i) => Some((body[..i].parse().ok()?, imaginary(&body[i..])?)),
        None => Some((0.0, imaginary(body)?)),
    }
}

impl SymbolValues {
    /// Values for integer symbols only.
    pub fn integers(ints: HashMap<String, i64>) -> SymbolValues {
        SymbolValues {
            ints,
            floats: HashMap::new(),
            complexes: HashMap::new(),
        }
    }
}

impl Program {
    /// Calls the program on `buffers` (one per argument, from [`buffers`])
    /// and `symbols` (a value for each of `abi.symbols`, of its type).
    pub fn call(&self, buffers: &mut [Buffer], symbols: &SymbolValues) -> Result<(), String> {
        if buffers.len() != self.abi.arguments.len() {
            return Err(format!(
                "{} buffers for {} arguments",
                buffers.len(),
                self.abi.arguments.len()
            ));
        }
        let mut descriptors: Vec<Box<Descriptor>> = buffers
            .iter_mut()
            .map(|b| {
                let ptr = b.words.as_mut_ptr() as *mut c_void;
                Box::new(Descriptor {
                    allocated: ptr,
                    aligned: ptr,
                    offset: 0,
                    size: b.len as i64,
                    stride: 1,
                })
            })
            .collect();
        let mut pointers: Vec<*mut Descriptor> = descriptors
            .iter_mut()
            .map(|d| &mut **d as *mut Descriptor)
            .collect();
        // Each symbol's value in the bytes of its C type (`int64_t`,
        // `float`, `double`, or two of them for a complex number), from the
        // start of its slot.
        let mut values: Vec<[u8; 16]> = Vec::new();
        for s in &self.abi.symbols {
            let missing = || format!("symbol `{}` has no value", s.name);
            let mut slot = [0u8; 16];
            match s.ty {
                SymbolType::Integer => {
                    let v = symbols.ints.get(&s.name).ok_or_else(missing)?;
                    slot[..8].copy_from_slice(&v.to_ne_bytes());
                }
                SymbolType::Float64 => {
                    let v = symbols.floats.get(&s.name).ok_or_else(missing)?;
                    slot[..8].copy_from_slice(&v.to_ne_bytes());
                }
                SymbolType::Float32 => {
                    let v = *symbols.floats.get(&s.name).ok_or_else(missing)? as f32;
                    slot[..4].copy_from_slice(&v.to_ne_bytes());
                }
                SymbolType::Complex128 => {
                    let (re, im) = *symbols.complexes.get(&s.name).ok_or_else(missing)?;
                    slot[..8].copy_from_slice(&re.to_ne_bytes());
                    slot[8..].copy_from_slice(&im.to_ne_bytes());
                }
                SymbolType::Complex64 => {
                    let (re, im) = *symbols.complexes.get(&s.name).ok_or_else(missing)?;
                    slot[..4].copy_from_slice(&(re as f32).to_ne_bytes());
                    slot[4..8].copy_from_slice(&(im as f32).to_ne_bytes());
                }
            }
            values.push(slot);
        }
        let mut args: Vec<*mut c_void> = pointers
            .iter_mut()
            .map(|p| p as *mut *mut Descriptor as *mut c_void)
            .collect();
        args.extend(values.iter_mut().map(|v| v.as_mut_ptr() as *mut c_void));
        // The C API calls `_mlir_ciface_<name>`, the function's C interface.
        let name = &self.abi.name;
        // SAFETY: the arguments match the C interface the lowering
        // generated for this ABI: descriptor pointers, then pointers to
        // the symbols' values, each in its C type.
        let result = unsafe {
            mlirExecutionEngineInvokePacked(self.engine, string_ref(name), args.as_mut_ptr())
        };
        if result.value == 0 {
            return Err(format!(
                "the compiled program has no function `_mlir_ciface_{name}`"
            ));
        }
        if self.gpu.is_some() {
            if let Some(e) = cuda::take_error() {
                return Err(format!("on the GPU: {e}"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::parse_complex;

    #[test]
    fn complex_numbers_are_read_as_python_writes_them() {
        for (text, z) in [
            ("2", (2.0, 0.0)),
            ("-1.5j", (0.0, -1.5)),
            ("(1+2j)", (1.0, 2.0)),
            ("1e-3-4j", (1e-3, -4.0)),
            ("-2.5e+1+1e2j", (-25.0, 100.0)),
            ("3 - j", (3.0, -1.0)),
        ] {
            assert_eq!(parse_complex(text), Some(z), "{text}");
        }
        for bad in ["", "j2", "1+2i", "(1+2j"] {
            assert_eq!(parse_complex(bad), None, "{bad}");
        }
    }
}
