//! The GPU runtime: the `mgpu*` functions that the host code of
//! `sdfg-lower-to-nvvm` calls (the names and signatures of MLIR's
//! `CudaRuntimeWrappers`), over the CUDA *driver* API, which is loaded with
//! `dlopen` when a GPU program is first compiled. Nothing here links CUDA:
//! the project builds and runs its CPU programs on machines without it.
//!
//! The functions cannot return errors to the compiled code. The first
//! failure is kept (CUDA's own errors are sticky too), every later GPU
//! call does nothing, and [`take_error`] hands the message to the caller
//! of the program once it returns.
//!
//! The host code loads a kernel's module before each launch and unloads it
//! after; loading JIT-compiles the PTX, so modules are kept by the address
//! of their PTX (a constant of the compiled program) until
//! [`forget_modules`]. It also creates and destroys a stream around every
//! GPU operation; destroyed streams are kept and handed out again.

use std::ffi::{c_char, c_int, c_uint, c_void, CStr, CString};
use std::sync::{Mutex, OnceLock};

type CuResult = c_int;
type Handle = *mut c_void;

/// The driver functions the runtime calls.
struct Driver {
    context: usize,
    ctx_set_current: unsafe extern "C" fn(Handle) -> CuResult,
    get_error_string: unsafe extern "C" fn(CuResult, *mut *const c_char) -> CuResult,
    module_load_data_ex: unsafe extern "C" fn(
        *mut Handle,
        *const c_void,
        c_uint,
        *mut c_int,
        *mut *mut c_void,
    ) -> CuResult,
    module_unload: unsafe extern "C" fn(Handle) -> CuResult,
    module_get_function: unsafe extern "C" fn(*mut Handle, Handle, *const c_char) -> CuResult,
    launch_kernel: unsafe extern "C" fn(
        Handle,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        c_uint,
        Handle,
        *mut *mut c_void,
        *mut *mut c_void,
    ) -> CuResult,
    stream_create: unsafe extern "C" fn(*mut Handle, c_uint) -> CuResult,
    stream_destroy: unsafe extern "C" fn(Handle) -> CuResult,
    stream_synchronize: unsafe extern "C" fn(Handle) -> CuResult,
    mem_alloc: unsafe extern "C" fn(*mut u64, usize) -> CuResult,
    mem_free: unsafe extern "C" fn(u64) -> CuResult,
    memcpy_async: unsafe extern "C" fn(u64, u64, usize, Handle) -> CuResult,
    memset_d32_async: unsafe extern "C" fn(u64, c_uint, usize, Handle) -> CuResult,
    memset_d16_async: unsafe extern "C" fn(u64, u16, usize, Handle) -> CuResult,
    /// `sm_XY` of device 0.
    chip: String,
    /// Device 0's name.
    name: String,
}

// SAFETY: the driver's functions may be called from any thread once the
// context is made current there, which every entry point does.
unsafe impl Send for Driver {}
unsafe impl Sync for Driver {}

extern "C" {
    fn dlopen(filename: *const c_char, flag: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
}

static DRIVER: OnceLock<Result<Driver, String>> = OnceLock::new();
static ERROR: Mutex<Option<String>> = Mutex::new(None);
static MODULES: Mutex<Vec<(usize, usize)>> = Mutex::new(Vec::new());

/// Loads the CUDA driver and makes device 0's primary context current;
/// the error says why there is no GPU to run on.
fn driver() -> Result<&'static Driver, String> {
    DRIVER.get_or_init(load).as_ref().map_err(Clone::clone)
}

/// The GPU programs run on: `(name, sm_XY)`, or why there is none.
pub fn device() -> Result<(String, String), String> {
    driver().map(|d| (d.name.clone(), d.chip.clone()))
}

fn load() -> Result<Driver, String> {
    const RTLD_NOW: c_int = 2;
    // SAFETY: a NUL-terminated name; the handle is kept for the process.
    let lib = unsafe { dlopen(c"libcuda.so.1".as_ptr(), RTLD_NOW) };
    if lib.is_null() {
        return Err(
            "the CUDA driver (libcuda.so.1) is not installed: there is no NVIDIA GPU to run on"
                .into(),
        );
    }
    let symbol = |name: &str| -> Result<*mut c_void, String> {
        let c = CString::new(name).map_err(|e| e.to_string())?;
        // SAFETY: a live handle and a NUL-terminated name.
        let f = unsafe { dlsym(lib, c.as_ptr()) };
        if f.is_null() {
            Err(format!("the CUDA driver has no `{name}`"))
        } else {
            Ok(f)
        }
    };
    macro_rules! function {
        ($name:literal) => {
            // SAFETY: the driver exports the function with the signature
            // of the field or variable it is assigned to (CUDA driver API).
            unsafe { as_function(symbol($name)?) }
        };
    }
    let init: unsafe extern "C" fn(c_uint) -> CuResult = function!("cuInit");
    let device_get: unsafe extern "C" fn(*mut c_int, c_int) -> CuResult = function!("cuDeviceGet");
    let device_get_name: unsafe extern "C" fn(*mut c_char, c_int, c_int) -> CuResult =
        function!("cuDeviceGetName");
    let device_get_attribute: unsafe extern "C" fn(*mut c_int, c_int, c_int) -> CuResult =
        function!("cuDeviceGetAttribute");
    let retain: unsafe extern "C" fn(*mut Handle, c_int) -> CuResult =
        function!("cuDevicePrimaryCtxRetain");
    let mut driver = Driver {
        context: 0,
        ctx_set_current: function!("cuCtxSetCurrent"),
        get_error_string: function!("cuGetErrorString"),
        module_load_data_ex: function!("cuModuleLoadDataEx"),
        module_unload: function!("cuModuleUnload"),
        module_get_function: function!("cuModuleGetFunction"),
        launch_kernel: function!("cuLaunchKernel"),
        stream_create: function!("cuStreamCreate"),
        stream_destroy: function!("cuStreamDestroy_v2"),
        stream_synchronize: function!("cuStreamSynchronize"),
        mem_alloc: function!("cuMemAlloc_v2"),
        mem_free: function!("cuMemFree_v2"),
        memcpy_async: function!("cuMemcpyAsync"),
        memset_d32_async: function!("cuMemsetD32Async"),
        memset_d16_async: function!("cuMemsetD16Async"),
        chip: String::new(),
        name: String::new(),
    };
    // SAFETY: the functions were just loaded; the out-pointers are live.
    unsafe {
        let check = |what: &str, r: CuResult| {
            if r == 0 {
                Ok(())
            } else {
                Err(format!("{what} failed: {}", describe(&driver, r)))
            }
        };
        check("cuInit", init(0))?;
        let mut device = 0;
        check("cuDeviceGet", device_get(&mut device, 0))?;
        let mut name = [0 as c_char; 256];
        check(
            "cuDeviceGetName",
            device_get_name(name.as_mut_ptr(), 256, device),
        )?;
        let (mut major, mut minor) = (0, 0);
        // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR / _MINOR.
        check(
            "cuDeviceGetAttribute",
            device_get_attribute(&mut major, 75, device),
        )?;
        check(
            "cuDeviceGetAttribute",
            device_get_attribute(&mut minor, 76, device),
        )?;
        let mut context = std::ptr::null_mut();
        check("cuDevicePrimaryCtxRetain", retain(&mut context, device))?;
        driver.context = context as usize;
        driver.chip = format!("sm_{major}{minor}");
        driver.name = CStr::from_ptr(name.as_ptr()).to_string_lossy().into_owned();
    }
    Ok(driver)
}

/// A symbol's address as a function pointer of type `F`.
///
/// # Safety
/// `F` must be a function pointer type matching the symbol's definition.
unsafe fn as_function<F>(address: *mut c_void) -> F {
    assert_eq!(std::mem::size_of::<F>(), std::mem::size_of::<*mut c_void>());
    std::mem::transmute_copy(&address)
}

/// CUDA's name for error `r`.
fn describe(driver: &Driver, r: CuResult) -> String {
    let mut text: *const c_char = std::ptr::null();
    // SAFETY: the driver returns a static string or leaves it null.
    unsafe {
        if (driver.get_error_string)(r, &mut text) == 0 && !text.is_null() {
            return format!("{} ({r})", CStr::from_ptr(text).to_string_lossy());
        }
    }
    format!("CUDA error {r}")
}

/// Records the first failure.
fn fail(message: String) {
    if let Ok(mut e) = ERROR.lock() {
        e.get_or_insert(message);
    }
}

/// The first failure of a GPU call since the last call, if any.
pub fn take_error() -> Option<String> {
    ERROR.lock().ok().and_then(|mut e| e.take())
}

/// The driver with its context current on this thread, unless a call
/// failed before (then every GPU call is skipped).
fn ready() -> Option<&'static Driver> {
    if ERROR.lock().map(|e| e.is_some()).unwrap_or(true) {
        return None;
    }
    match driver() {
        Ok(d) => {
            // SAFETY: the context was retained by `load`.
            let r = unsafe { (d.ctx_set_current)(d.context as Handle) };
            check(d, "cuCtxSetCurrent", r).then_some(d)
        }
        Err(e) => {
            fail(e);
            None
        }
    }
}

/// Whether `r` is success; records the failure of `what` otherwise.
fn check(d: &Driver, what: &str, r: CuResult) -> bool {
    if r != 0 {
        fail(format!("{what} failed: {}", describe(d, r)));
    }
    r == 0
}

/// Unloads the kept kernel modules (when a program is dropped: the
/// addresses of its PTX may be reused).
pub fn forget_modules() {
    let Ok(mut modules) = MODULES.lock() else {
        return;
    };
    if let Some(Ok(d)) = DRIVER.get() {
        for (_, module) in modules.drain(..) {
            // SAFETY: the module was loaded by `mgpuModuleLoadJIT`.
            unsafe {
                (d.ctx_set_current)(d.context as Handle);
                (d.module_unload)(module as Handle);
            }
        }
    }
}

unsafe extern "C" fn mgpu_module_load_jit(data: *mut c_void, opt_level: c_int) -> Handle {
    let Some(d) = ready() else {
        return std::ptr::null_mut();
    };
    let key = data as usize;
    let Ok(mut modules) = MODULES.lock() else {
        return std::ptr::null_mut();
    };
    if let Some((_, m)) = modules.iter().find(|(k, _)| *k == key) {
        return *m as Handle;
    }
    // CU_JIT_OPTIMIZATION_LEVEL, CU_JIT_ERROR_LOG_BUFFER and its size.
    let mut log = vec![0 as c_char; 8192];
    let mut options = [7 as c_int, 5, 6];
    let mut values = [
        opt_level as usize as *mut c_void,
        log.as_mut_ptr() as *mut c_void,
        log.len() as *mut c_void,
    ];
    let mut module = std::ptr::null_mut();
    let r = (d.module_load_data_ex)(
        &mut module,
        data,
        options.len() as c_uint,
        options.as_mut_ptr(),
        values.as_mut_ptr(),
    );
    if r != 0 {
        let log = CStr::from_ptr(log.as_ptr()).to_string_lossy().into_owned();
        fail(format!(
            "loading a kernel's PTX failed: {}{}",
            describe(d, r),
            if log.is_empty() {
                String::new()
            } else {
                format!(": {log}")
            }
        ));
        return std::ptr::null_mut();
    }
    modules.push((key, module as usize));
    module
}

unsafe extern "C" fn mgpu_module_unload(_module: Handle) {}

unsafe extern "C" fn mgpu_module_get_function(module: Handle, name: *const c_char) -> Handle {
    let Some(d) = ready() else {
        return std::ptr::null_mut();
    };
    let mut function = std::ptr::null_mut();
    let r = (d.module_get_function)(&mut function, module, name);
    check(d, "cuModuleGetFunction", r);
    function
}

#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn mgpu_launch_kernel(
    function: Handle,
    grid_x: isize,
    grid_y: isize,
    grid_z: isize,
    block_x: isize,
    block_y: isize,
    block_z: isize,
    shared_memory: i32,
    stream: Handle,
    params: *mut *mut c_void,
    extra: *mut *mut c_void,
    _count: usize,
) {
    let Some(d) = ready() else { return };
    let limits = [
        (grid_x, i32::MAX as isize),
        (grid_y, 65535),
        (grid_z, 65535),
    ];
    if let Some((g, limit)) = limits.iter().find(|(g, limit)| g > limit || *g < 1) {
        fail(format!(
            "a kernel's grid ({grid_x}, {grid_y}, {grid_z}) has {g} blocks along a dimension that allows 1 to {limit}"
        ));
        return;
    }
    let r = (d.launch_kernel)(
        function,
        grid_x as c_uint,
        grid_y as c_uint,
        grid_z as c_uint,
        block_x as c_uint,
        block_y as c_uint,
        block_z as c_uint,
        shared_memory as c_uint,
        stream,
        params,
        extra,
    );
    check(d, "cuLaunchKernel", r);
}

/// Streams the compiled code has destroyed, kept for the next it creates:
/// the host code takes a fresh stream for every GPU operation and waits
/// for it at once, so a returned stream is idle.
static STREAMS: Mutex<Vec<usize>> = Mutex::new(Vec::new());

unsafe extern "C" fn mgpu_stream_create() -> Handle {
    let Some(d) = ready() else {
        return std::ptr::null_mut();
    };
    if let Some(stream) = STREAMS.lock().ok().and_then(|mut s| s.pop()) {
        return stream as Handle;
    }
    let mut stream = std::ptr::null_mut();
    // CU_STREAM_NON_BLOCKING is not used: the legacy default stream orders
    // these streams with every other GPU call, as the program's order does.
    check(d, "cuStreamCreate", (d.stream_create)(&mut stream, 0));
    stream
}

unsafe extern "C" fn mgpu_stream_destroy(stream: Handle) {
    if stream.is_null() {
        return;
    }
    match STREAMS.lock() {
        Ok(mut streams) if streams.len() < 64 => streams.push(stream as usize),
        _ => {
            if let Some(d) = ready() {
                check(d, "cuStreamDestroy", (d.stream_destroy)(stream));
            }
        }
    }
}

unsafe extern "C" fn mgpu_stream_synchronize(stream: Handle) {
    if let Some(d) = ready() {
        check(
            d,
            "cuStreamSynchronize (a kernel or copy failed)",
            (d.stream_synchronize)(stream),
        );
    }
}

/// Device memory the compiled code has freed, kept by size for the next
/// allocation of that size (`cuMemAlloc` and `cuMemFree`, which waits for
/// the device, cost more than a small program's kernels): the host code
/// waits for every GPU operation at once, so a freed block is idle. Blocks
/// live, with the sizes of the blocks in use, in [`ALLOCATIONS`].
static FREE_BLOCKS: Mutex<Vec<(u64, u64)>> = Mutex::new(Vec::new());

/// The size of each block handed out and not yet freed, by address.
static ALLOCATIONS: Mutex<Vec<(u64, u64)>> = Mutex::new(Vec::new());

/// The most bytes [`FREE_BLOCKS`] keeps; larger frees go to the driver.
const CACHED_BYTES: u64 = 4 << 30;

unsafe extern "C" fn mgpu_mem_alloc(bytes: u64, _stream: Handle, host_shared: bool) -> *mut c_void {
    let Some(d) = ready() else {
        return std::ptr::null_mut();
    };
    if host_shared {
        fail("host-shared GPU memory is not supported by this runtime".into());
        return std::ptr::null_mut();
    }
    if bytes == 0 {
        return std::ptr::null_mut();
    }
    let cached = FREE_BLOCKS.lock().ok().and_then(|mut free| {
        let k = free.iter().position(|(size, _)| *size == bytes)?;
        Some(free.swap_remove(k).1)
    });
    let ptr = match cached {
        Some(ptr) => ptr,
        None => {
            let mut ptr = 0u64;
            if !check(d, "cuMemAlloc", (d.mem_alloc)(&mut ptr, bytes as usize)) {
                return std::ptr::null_mut();
            }
            ptr
        }
    };
    if let Ok(mut live) = ALLOCATIONS.lock() {
        live.push((ptr, bytes));
    }
    ptr as *mut c_void
}

unsafe extern "C" fn mgpu_mem_free(ptr: *mut c_void, _stream: Handle) {
    if ptr.is_null() {
        return;
    }
    let Some(d) = ready() else { return };
    let size = ALLOCATIONS.lock().ok().and_then(|mut live| {
        let k = live.iter().position(|(p, _)| *p == ptr as u64)?;
        Some(live.swap_remove(k).1)
    });
    if let (Some(size), Ok(mut free)) = (size, FREE_BLOCKS.lock()) {
        if free.iter().map(|(s, _)| s).sum::<u64>() + size <= CACHED_BYTES {
            free.push((size, ptr as u64));
            return;
        }
    }
    check(d, "cuMemFree", (d.mem_free)(ptr as u64));
}

unsafe extern "C" fn mgpu_memcpy(dst: *mut c_void, src: *mut c_void, bytes: usize, stream: Handle) {
    if bytes == 0 {
        return;
    }
    if let Some(d) = ready() {
        let r = (d.memcpy_async)(dst as u64, src as u64, bytes, stream);
        check(d, "cuMemcpyAsync", r);
    }
}

unsafe extern "C" fn mgpu_memset32(dst: *mut c_void, value: c_uint, count: usize, stream: Handle) {
    if let Some(d) = ready() {
        check(
            d,
            "cuMemsetD32Async",
            (d.memset_d32_async)(dst as u64, value, count, stream),
        );
    }
}

unsafe extern "C" fn mgpu_memset16(dst: *mut c_void, value: u16, count: usize, stream: Handle) {
    if let Some(d) = ready() {
        check(
            d,
            "cuMemsetD16Async",
            (d.memset_d16_async)(dst as u64, value, count, stream),
        );
    }
}

/// The runtime's functions by the names the compiled code calls.
pub(crate) fn symbols() -> Vec<(&'static str, *mut c_void)> {
    vec![
        ("mgpuModuleLoadJIT", mgpu_module_load_jit as *mut c_void),
        ("mgpuModuleUnload", mgpu_module_unload as *mut c_void),
        (
            "mgpuModuleGetFunction",
            mgpu_module_get_function as *mut c_void,
        ),
        ("mgpuLaunchKernel", mgpu_launch_kernel as *mut c_void),
        ("mgpuStreamCreate", mgpu_stream_create as *mut c_void),
        ("mgpuStreamDestroy", mgpu_stream_destroy as *mut c_void),
        (
            "mgpuStreamSynchronize",
            mgpu_stream_synchronize as *mut c_void,
        ),
        ("mgpuMemAlloc", mgpu_mem_alloc as *mut c_void),
        ("mgpuMemFree", mgpu_mem_free as *mut c_void),
        ("mgpuMemcpy", mgpu_memcpy as *mut c_void),
        ("mgpuMemset32", mgpu_memset32 as *mut c_void),
        ("mgpuMemset16", mgpu_memset16 as *mut c_void),
    ]
}

/// The PTX of every kernel module of a module lowered by
/// `sdfg-lower-to-nvvm`: `(gpu.binary name, PTX)`.
pub fn kernel_ptx(module: sdfg_dialect::ir::Op<'_>) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for op in module.descendants() {
        if !op.is("gpu.binary") {
            continue;
        }
        let name = op.symbol_name().unwrap_or_default().to_string();
        let Some(objects) = op.attr("objects") else {
            continue;
        };
        // SAFETY: `objects` is the binary's array of `#gpu.object`s.
        unsafe {
            use mlir_sys::*;
            for i in 0..mlirArrayAttrGetNumElements(objects) {
                let object = mlirArrayAttrGetElement(objects, i);
                if !mlirAttributeIsAGPUObjectAttr(object) {
                    continue;
                }
                let text = mlirGPUObjectAttrGetObject(object);
                let bytes = std::slice::from_raw_parts(text.data as *const u8, text.length);
                let ptx = String::from_utf8_lossy(bytes)
                    .trim_end_matches('\0')
                    .to_string();
                found.push((name.clone(), ptx));
            }
        }
    }
    found
}
