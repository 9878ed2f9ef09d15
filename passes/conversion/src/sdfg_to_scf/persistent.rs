//! Persistent transients: memory that outlives one call.
//!
//! DaCe allocates a transient whose lifetime is `Persistent` (or `Global`)
//! once, in the program's `__dace_init`, and frees it in `__dace_exit`; the
//! calls in between allocate nothing. `auto_optimize` makes every top-level
//! transient sized by the program's arguments persistent, because a large
//! fresh allocation costs a page fault per 4 KiB page on first touch, on
//! every call.
//!
//! The lowered function has no init/exit pair, so a persistent heap array
//! of the exported function is a buffer in two module globals (a pointer
//! and its capacity in bytes). Each call compares the capacity with the
//! size the arguments ask for and reallocates (zeroed) only when it must
//! grow, then views the buffer as the container's memref:
//!
//! ```mlir
//! llvm.mlir.global internal @__persistent_tmp_capacity(0 : i64) : i64
//! llvm.mlir.global internal @__persistent_tmp() : !llvm.ptr { ... null ... }
//!
//! %bytes = ...                     // %n elements of the element type
//! %grow = arith.cmpi ult, %capacity, %bytes : i64
//! scf.if %grow { llvm.call @free(%old); %new = llvm.call @calloc(%bytes, 1); ... }
//! %tmp = builtin.unrealized_conversion_cast %descriptor
//!     : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> to memref<?xf64>
//! ```
//!
//! The memory is never freed (as a process ends, DaCe's `__dace_exit`
//! would). Two threads calling the same compiled function at once share
//! the buffer, as two calls through one DaCe handle would. Nested SDFGs
//! (functions that a parallel loop may call) and GPU programs keep one
//! allocation per call. A persistent transient that the program may read
//! before it writes it is zeroed at each call, as every transient is here:
//! a result never depends on an earlier call.

use super::text::Body;
use super::types::Elem;
use super::Module;

/// The LLVM type of one element of `elem`, for its size in bytes.
fn llvm_element(elem: &Elem) -> String {
    if elem.ty == "index" {
        return "i64".into();
    }
    if let Some(part) = elem
        .ty
        .strip_prefix("complex<")
        .and_then(|r| r.strip_suffix('>'))
    {
        return format!("!llvm.struct<({part}, {part})>");
    }
    elem.ty.clone()
}

impl Module<'_> {
    /// Declares the globals of a persistent buffer for container `name`
    /// (and `calloc`/`free`, once); returns the pointer's and the
    /// capacity's global names.
    fn persistent_globals(&mut self, name: &str) -> (String, String) {
        if !self.declares_allocator {
            self.declares_allocator = true;
            for (function, declaration) in [
                ("calloc", "llvm.func @calloc(i64, i64) -> !llvm.ptr\n"),
                ("free", "llvm.func @free(!llvm.ptr)\n"),
            ] {
                if self.names.insert(function.to_string()) {
                    self.functions.push(declaration.into());
                }
            }
        }
        let pointer = self.unique(&format!("__persistent_{name}"));
        let capacity = self.unique(&format!("__persistent_{name}_capacity"));
        self.functions.push(format!(
            "llvm.mlir.global internal @{pointer}() {{addr_space = 0 : i32}} : !llvm.ptr {{\n  \
             %0 = llvm.mlir.zero : !llvm.ptr\n  llvm.return %0 : !llvm.ptr\n}}\n"
        ));
        self.functions.push(format!(
            "llvm.mlir.global internal @{capacity}(0 : i64) {{addr_space = 0 : i32}} : i64\n"
        ));
        (pointer, capacity)
    }
}

/// Emits into `body` the persistent buffer of container `name`, `count`
/// (an `index` value) elements of `elem`, and returns it as a flat
/// `memref<?xT>`.
pub(super) fn buffer(
    module: &mut Module<'_>,
    body: &mut Body,
    name: &str,
    elem: &Elem,
    count: &str,
) -> String {
    let (pointer, capacity) = module.persistent_globals(name);
    let pointer_at = body.assign(format!("llvm.mlir.addressof @{pointer} : !llvm.ptr"));
    let capacity_at = body.assign(format!("llvm.mlir.addressof @{capacity} : !llvm.ptr"));
    let n = body.assign(format!("arith.index_cast {count} : index to i64"));
    let null = body.assign("llvm.mlir.zero : !llvm.ptr");
    let end = body.assign(format!(
        "llvm.getelementptr {null}[{n}] : (!llvm.ptr, i64) -> !llvm.ptr, {}",
        llvm_element(elem)
    ));
    let bytes = body.assign(format!("llvm.ptrtoint {end} : !llvm.ptr to i64"));
    let held = body.assign(format!("llvm.load {capacity_at} : !llvm.ptr -> i64"));
    let grow = body.assign(format!("arith.cmpi ult, {held}, {bytes} : i64"));
    body.open(format!("scf.if {grow}"));
    let old = body.assign(format!("llvm.load {pointer_at} : !llvm.ptr -> !llvm.ptr"));
    body.line(format!("llvm.call @free({old}) : (!llvm.ptr) -> ()"));
    let one = body.assign("arith.constant 1 : i64");
    let new = body.assign(format!(
        "llvm.call @calloc({bytes}, {one}) : (i64, i64) -> !llvm.ptr"
    ));
    body.line(format!(
        "llvm.store {new}, {pointer_at} : !llvm.ptr, !llvm.ptr"
    ));
    body.line(format!(
        "llvm.store {bytes}, {capacity_at} : i64, !llvm.ptr"
    ));
    body.close("");
    let base = body.assign(format!("llvm.load {pointer_at} : !llvm.ptr -> !llvm.ptr"));
    let descriptor_ty = "!llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>";
    let mut descriptor = body.assign(format!("llvm.mlir.undef : {descriptor_ty}"));
    let zero = body.assign("arith.constant 0 : i64");
    let stride = body.assign("arith.constant 1 : i64");
    for (value, position) in [
        (&base, "0"),
        (&base, "1"),
        (&zero, "2"),
        (&n, "3, 0"),
        (&stride, "4, 0"),
    ] {
        descriptor = body.assign(format!(
            "llvm.insertvalue {value}, {descriptor}[{position}] : {descriptor_ty}"
        ));
    }
    body.assign(format!(
        "builtin.unrealized_conversion_cast {descriptor} : {descriptor_ty} to memref<?x{}>",
        elem.ty
    ))
}
