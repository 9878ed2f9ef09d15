//! Hooks into MLIR's C++ drivers: Rust passes and translations registered by
//! name, the symbolic checker used by verifiers, and the tool mains.

use crate::{
    ffi,
    ir::{string_ref, Op},
};
use mlir_sys::{mlirStringAttrGet, MlirAttribute, MlirContext, MlirOperation, MlirStringRef};
use std::{
    ffi::{c_char, c_int, c_void, CString},
    panic::{catch_unwind, AssertUnwindSafe},
};

/// A failure whose diagnostics have already been emitted on the ops
/// concerned: callers only need to propagate it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Diagnosed;

impl std::fmt::Display for Diagnosed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("failed; see the diagnostics")
    }
}

impl std::error::Error for Diagnosed {}

/// A pass implemented in Rust. Instances are cloned per thread by MLIR, so
/// a pass holds only its options.
pub trait RustPass: Send {
    /// Parses the pipeline options (`tile-sizes=32,32`); an error message is
    /// shown by MLIR's pipeline parser.
    fn set_options(&mut self, options: &str) -> Result<(), String>;
    /// Runs on `op`; diagnostics are emitted on the ops concerned. `Err`
    /// signals pass failure after diagnostics were emitted.
    fn run(&mut self, op: Op<'_>) -> Result<(), Diagnosed>;
    /// A copy for another pass manager.
    fn clone_pass(&self) -> Box<dyn RustPass>;
}

/// What MLIR needs to know to register a Rust pass.
pub struct PassRegistration {
    /// The pipeline name (`sdfg-validate`).
    pub argument: &'static str,
    /// The one-line summary shown by `--help`.
    pub summary: &'static str,
    /// The op the pass runs on (`builtin.module`), or empty for any op.
    pub op_name: &'static str,
    /// Makes a pass with default options.
    pub create: fn() -> Box<dyn RustPass>,
}

/// A pass instance: the Rust pass, its name and its options as the
/// pipeline gave them (for the transformation history).
struct PassBox {
    pass: Box<dyn RustPass>,
    argument: &'static str,
    options: String,
}

/// The module attribute that lists the transformations applied to a
/// module, in order, each as a pipeline element (`sdfg-map-tiling{tile-sizes=4}`).
pub const HISTORY: &str = "sdfg.transformations";

/// Whether a pass changes the program, so that replaying the history needs
/// it: not the passes that only print or check.
fn transforms(argument: &str) -> bool {
    argument.starts_with("sdfg-")
        && !argument.starts_with("sdfg-print-")
        && argument != "sdfg-validate"
}

/// Appends `element` to the transformation history of `module`.
fn record(module: Op<'_>, element: &str) {
    let mut entries: Vec<MlirAttribute> = module
        .attr(HISTORY)
        .map(crate::ir::array_elements)
        .unwrap_or_default();
    // SAFETY: the context is live; MLIR copies the string.
    entries.push(unsafe { mlirStringAttrGet(module.context(), string_ref(element)) });
    module.set_attr(HISTORY, crate::ir::array_of(module.context(), &entries));
}

/// The transformation history of `module` as a pass pipeline that replays
/// it (`builtin.module(sdfg-simplify,sdfg-map-tiling{tile-sizes=4})`), or
/// `None` where nothing was recorded.
pub fn history_pipeline(module: Op<'_>) -> Option<String> {
    let entries: Vec<&str> = module
        .attr(HISTORY)
        .map(crate::ir::array_elements)?
        .into_iter()
        .filter_map(crate::ir::attr_str)
        .collect();
    Some(format!("builtin.module({})", entries.join(",")))
}

unsafe extern "C" fn pass_create(user_data: *mut c_void) -> *mut c_void {
    let registration = &*(user_data as *const PassRegistration);
    Box::into_raw(Box::new(PassBox {
        pass: (registration.create)(),
        argument: registration.argument,
        options: String::new(),
    })) as *mut c_void
}

unsafe extern "C" fn pass_clone(state: *mut c_void) -> *mut c_void {
    let pass = &*(state as *const PassBox);
    Box::into_raw(Box::new(PassBox {
        pass: pass.pass.clone_pass(),
        argument: pass.argument,
        options: pass.options.clone(),
    })) as *mut c_void
}

unsafe extern "C" fn pass_destroy(state: *mut c_void) {
    drop(Box::from_raw(state as *mut PassBox));
}

/// Copies `message` into a C buffer of `capacity` bytes, NUL-terminated.
unsafe fn write_message(message: &str, buffer: *mut c_char, capacity: usize) {
    if capacity == 0 {
        return;
    }
    let bytes = message.as_bytes();
    let n = bytes.len().min(capacity - 1);
    std::ptr::copy_nonoverlapping(bytes.as_ptr() as *const c_char, buffer, n);
    *buffer.add(n) = 0;
}

unsafe extern "C" fn pass_set_options(
    state: *mut c_void,
    options: MlirStringRef,
    error: *mut c_char,
    capacity: usize,
) -> c_int {
    let pass = &mut *(state as *mut PassBox);
    let options = crate::ir::str_of(options);
    match catch_unwind(AssertUnwindSafe(|| pass.pass.set_options(options))) {
        Ok(Ok(())) => {
            pass.options = options.trim().to_string();
            0
        }
        Ok(Err(message)) => {
            write_message(&message, error, capacity);
            1
        }
        Err(_) => {
            write_message("internal error while parsing pass options", error, capacity);
            1
        }
    }
}

unsafe extern "C" fn pass_run(state: *mut c_void, op: MlirOperation) -> c_int {
    let pass = &mut *(state as *mut PassBox);
    let Some(op) = Op::from_raw(op) else {
        return 1;
    };
    match catch_unwind(AssertUnwindSafe(|| pass.pass.run(op))) {
        Ok(Ok(())) => {
            // Only a pass on the module itself records (passes on nested
            // ops may run in parallel), and only while the module holds
            // SDFGs: the passes of a lowering pipeline that run on the
            // lowered functions (`sdfg-openmp-if`) transform no SDFG.
            let holds_sdfgs = || op.region_ops(0).iter().any(|o| o.is("sdfg.sdfg"));
            if op.is("builtin.module") && transforms(pass.argument) && holds_sdfgs() {
                let element = if pass.options.is_empty() {
                    pass.argument.to_string()
                } else {
                    format!("{}{{{}}}", pass.argument, pass.options)
                };
                record(op, &element);
            }
            0
        }
        Ok(Err(Diagnosed)) => 1,
        Err(_) => {
            op.emit_error("internal error: the pass panicked");
            1
        }
    }
}

/// Registers a Rust pass with MLIR's pass registry, so that
/// `--pass-pipeline` and `--help` know it. Call once per pass, before the
/// tool main runs.
pub fn register_pass(registration: &'static PassRegistration) {
    let callbacks = ffi::PassCallbacks {
        create: pass_create,
        clone: pass_clone,
        destroy: pass_destroy,
        set_options: pass_set_options,
        run: pass_run,
        user_data: registration as *const PassRegistration as *mut c_void,
    };
    // SAFETY: the strings are copied by the callee; the registration is
    // 'static, as the callbacks' user data must be.
    unsafe {
        ffi::sdfgRegisterPass(
            string_ref(registration.argument),
            string_ref(registration.summary),
            string_ref(registration.op_name),
            callbacks,
        )
    }
}

/// A named pass pipeline: a short name for a sequence of passes.
pub struct PipelineRegistration {
    /// The pipeline's name (`sdfg-lower-to-llvm`).
    pub argument: &'static str,
    /// The one-line summary shown by `--help`.
    pub summary: &'static str,
    /// The passes it runs on a `builtin.module`, in MLIR's textual pipeline
    /// syntax without the `builtin.module(...)` anchor.
    pub pipeline: &'static str,
}

impl PipelineRegistration {
    /// The full textual pipeline, anchored on `builtin.module`.
    pub fn anchored(&self) -> String {
        format!("builtin.module({})", self.pipeline)
    }
}

/// Registers a named pipeline with MLIR's pass registry.
pub fn register_pipeline(registration: &'static PipelineRegistration) {
    // SAFETY: the strings are copied by the callee.
    unsafe {
        ffi::sdfgRegisterPassPipeline(
            string_ref(registration.argument),
            string_ref(registration.summary),
            string_ref(registration.pipeline),
        )
    }
}

/// A translation from MLIR to text (`--sdfg-to-dot`).
pub struct TranslationFromMlir {
    /// The flag name without dashes.
    pub name: &'static str,
    /// The summary shown by `--help`.
    pub summary: &'static str,
    /// Translates the op into the output; on error, emits diagnostics and
    /// returns `Err`.
    pub translate: fn(Op<'_>, &mut dyn std::io::Write) -> Result<(), Diagnosed>,
}

struct CWriter {
    write: ffi::WriteFn,
    stream: *mut c_void,
}

impl std::io::Write for CWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        // SAFETY: the stream is the raw_ostream handed to the translation.
        unsafe { (self.write)(self.stream, buf.as_ptr() as *const c_char, buf.len()) };
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

unsafe extern "C" fn translate_from_mlir(
    user_data: *mut c_void,
    op: MlirOperation,
    write: ffi::WriteFn,
    stream: *mut c_void,
) -> c_int {
    let translation = &*(user_data as *const TranslationFromMlir);
    let Some(op) = Op::from_raw(op) else {
        return 1;
    };
    let mut writer = CWriter { write, stream };
    match catch_unwind(AssertUnwindSafe(|| {
        (translation.translate)(op, &mut writer)
    })) {
        Ok(Ok(())) => 0,
        Ok(Err(Diagnosed)) => 1,
        Err(_) => {
            op.emit_error("internal error: the translation panicked");
            1
        }
    }
}

/// Registers a translation from MLIR under `--<name>`.
pub fn register_translation_from_mlir(translation: &'static TranslationFromMlir) {
    // SAFETY: the translation is 'static, as the user data must be.
    unsafe {
        ffi::sdfgRegisterTranslationFromMLIR(
            string_ref(translation.name),
            string_ref(translation.summary),
            translate_from_mlir,
            translation as *const TranslationFromMlir as *mut c_void,
        )
    }
}

/// A translation from a foreign format to MLIR (`--import-dace`).
pub struct TranslationToMlir {
    /// The flag name without dashes.
    pub name: &'static str,
    /// The summary shown by `--help`.
    pub summary: &'static str,
    /// Builds a `builtin.module` from the input named `file_name`; on error,
    /// emits diagnostics and returns a null operation.
    pub translate: fn(MlirContext, &str, &[u8]) -> MlirOperation,
}

unsafe extern "C" fn translate_to_mlir(
    user_data: *mut c_void,
    context: MlirContext,
    file_name: MlirStringRef,
    input: MlirStringRef,
) -> MlirOperation {
    let translation = &*(user_data as *const TranslationToMlir);
    let name = crate::ir::str_of(file_name);
    let bytes = if input.data.is_null() {
        &[][..]
    } else {
        std::slice::from_raw_parts(input.data as *const u8, input.length)
    };
    catch_unwind(AssertUnwindSafe(|| {
        (translation.translate)(context, name, bytes)
    }))
    .unwrap_or(MlirOperation {
        ptr: std::ptr::null_mut(),
    })
}

/// Registers a translation to MLIR under `--<name>`.
pub fn register_translation_to_mlir(translation: &'static TranslationToMlir) {
    // SAFETY: the translation is 'static, as the user data must be.
    unsafe {
        ffi::sdfgRegisterTranslationToMLIR(
            string_ref(translation.name),
            string_ref(translation.summary),
            translate_to_mlir,
            translation as *const TranslationToMlir as *mut c_void,
        )
    }
}

/// What a symbolic string is expected to be (see `SymbolicKind` in C++).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolicKind {
    /// An integer expression.
    Expression,
    /// A boolean expression.
    Condition,
    /// A list of Python slices.
    Subset,
    /// An integer expression or a condition (an inter-state assignment's
    /// value).
    Value,
}

/// Checks a symbolic string: `Ok(dimensions)` for subsets, `Ok(0)` for valid
/// expressions, `Err(message)` otherwise.
pub type SymbolicCheck = fn(SymbolicKind, &str) -> Result<usize, String>;

static CHECKER: std::sync::OnceLock<SymbolicCheck> = std::sync::OnceLock::new();

unsafe extern "C" fn run_checker(
    kind: c_int,
    text: *const c_char,
    length: usize,
    error: *mut c_char,
    capacity: usize,
) -> c_int {
    let Some(check) = CHECKER.get() else {
        return 0;
    };
    // An empty `StringRef` may carry a null pointer, which `from_raw_parts`
    // does not accept.
    let bytes = if text.is_null() || length == 0 {
        &[][..]
    } else {
        std::slice::from_raw_parts(text as *const u8, length)
    };
    let Ok(text) = std::str::from_utf8(bytes) else {
        write_message("not valid UTF-8", error, capacity);
        return -1;
    };
    let kind = match kind {
        1 => SymbolicKind::Condition,
        2 => SymbolicKind::Subset,
        3 => SymbolicKind::Value,
        _ => SymbolicKind::Expression,
    };
    match catch_unwind(|| check(kind, text)) {
        Ok(Ok(dims)) => c_int::try_from(dims).unwrap_or(c_int::MAX),
        Ok(Err(message)) => {
            write_message(&message, error, capacity);
            -1
        }
        Err(_) => {
            write_message("internal error in the symbolic engine", error, capacity);
            -1
        }
    }
}

/// Installs the symbolic checker used by the dialect's verifiers. The first
/// installation wins.
pub fn set_symbolic_checker(check: SymbolicCheck) {
    if CHECKER.set(check).is_ok() {
        // SAFETY: `run_checker` is a valid function for the process lifetime.
        unsafe { ffi::sdfgSetSymbolicChecker(Some(run_checker)) }
    }
}

/// Validates one `sdfg.sdfg` (not the SDFGs nested in it), emitting
/// diagnostics on failure.
pub type Validator = fn(Op<'_>) -> Result<(), Diagnosed>;

static VALIDATOR: std::sync::OnceLock<Validator> = std::sync::OnceLock::new();

unsafe extern "C" fn run_validator(sdfg: MlirOperation) -> c_int {
    let (Some(validate), Some(op)) = (VALIDATOR.get(), Op::from_raw(sdfg)) else {
        return 0;
    };
    match catch_unwind(AssertUnwindSafe(|| validate(op))) {
        Ok(Ok(())) => 0,
        Ok(Err(Diagnosed)) => 1,
        Err(_) => {
            op.emit_error("internal error: validation panicked");
            1
        }
    }
}

/// Installs the validation that the `sdfg.sdfg` verifier runs after its
/// structural checks, so that every tool validates SDFGs after parsing and
/// after every pass. The first installation wins.
pub fn set_validator(validate: Validator) {
    if VALIDATOR.set(validate).is_ok() {
        // SAFETY: `run_validator` is a valid function for the process lifetime.
        unsafe { ffi::sdfgSetValidator(Some(run_validator)) }
    }
}

fn c_args(args: impl IntoIterator<Item = String>) -> Vec<CString> {
    args.into_iter()
        .map(|a| CString::new(a.replace('\0', "")).unwrap_or_default())
        .collect()
}

fn run_main(
    args: impl IntoIterator<Item = String>,
    main: unsafe extern "C" fn(c_int, *mut *mut c_char) -> c_int,
) -> i32 {
    let args = c_args(args);
    let mut argv: Vec<*mut c_char> = args.iter().map(|a| a.as_ptr() as *mut c_char).collect();
    argv.push(std::ptr::null_mut());
    // SAFETY: argv is a NULL-terminated array of NUL-terminated strings that
    // outlive the call.
    unsafe { main((argv.len() - 1) as c_int, argv.as_mut_ptr()) }
}

/// Runs `sdfg-opt` (MLIR's `MlirOptMain` with everything registered) on the
/// command line `args` and returns the exit code.
pub fn opt_main(args: impl IntoIterator<Item = String>) -> i32 {
    crate::symbolic::install();
    run_main(args, ffi::sdfgOptMain)
}

/// Runs `sdfg-translate` (MLIR's `mlirTranslateMain`) on the command line
/// `args` and returns the exit code.
pub fn translate_main(args: impl IntoIterator<Item = String>) -> i32 {
    crate::symbolic::install();
    run_main(args, ffi::sdfgTranslateMain)
}
