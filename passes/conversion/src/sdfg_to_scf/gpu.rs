//! The GPU half of `convert-sdfg-to-gpu` (`crate::sdfg_to_gpu` holds the
//! pass, the pipeline to PTX and the design): kernels, thread-block maps,
//! device memory and the copies between host and device.
//!
//! A `GPU_Device` map becomes one `gpu.launch`, written where the map
//! stands, so that the host code around it (symbols, dynamic ranges, the
//! state's order) is that of the CPU lowering:
//!
//! ```mlir
//! sdfg.map ["i" = "0:N"] schedule GPU_Device { ... }
//! ```
//!
//! becomes (block size 256, `N` iterations):
//!
//! ```mlir
//! %gx = arith.ceildivsi %n, %c256 : index
//! scf.if %nonempty {
//!   gpu.launch blocks(%bx, %by, %bz) in (%gx_ = %gx, ...) threads(%tx, %ty, %tz) in (%sx = %c256, ...) {
//!     %i = bx * 256 + tx                 // the iteration; guarded by i < N
//!     scf.if %inside { ...the map's body, as in a parallel loop... }
//!     gpu.terminator
//!   }
//! }
//! ```
//!
//! `gpu.launch` is synchronous: a kernel finishes before the host code
//! after it runs, so states stay ordered as DaCe orders them (kernels of one
//! state run one after the other, which is one of the orders DaCe allows).
//!
//! Host-side device memory operations (`gpu.alloc`, `gpu.memcpy`,
//! `gpu.dealloc`) are written in their asynchronous form on a fresh stream
//! that is waited for at once, the form `gpu-to-llvm` lowers to the
//! runtime's stream calls.

use std::collections::HashMap;

use sdfg_dialect::ir::{Op, Val};
use sdfg_dialect::Schedule;
use sdfg_symbolic::{parse_subset, Expr, Range, Subset};

use super::text::Body;
use super::types::{layout, Data};
use super::wcr::Reduction;
use super::{fail, is_written, Failure, Function, Lowered, Placement, Result};
use sdfg_dialect::written_container;
use sdfg_dialect::Memlet;
use sdfg_dialect::{accessed_container, container_name, incoming_edges};

/// The GPU dimensions, innermost first: DaCe gives the last map parameter
/// `x`, the one before it `y`, and all others `z`.
const DIMS: [&str; 3] = ["x", "y", "z"];

/// The block size of a kernel without thread-block maps and without a
/// `gpu_block_size`: 256 threads along `x` for one-dimensional maps,
/// 32 x 8 otherwise.
fn default_block(rank: usize) -> [i64; 3] {
    if rank == 1 {
        [256, 1, 1]
    } else {
        [32, 8, 1]
    }
}

/// Whether `op` is a map with schedule `name`.
fn scheduled(op: Op<'_>, name: &str) -> bool {
    op.is("sdfg.map")
        && op
            .attr("schedule")
            .and_then(Schedule::from_attr)
            .is_some_and(|s| s.name() == name)
}

/// The extents along x, y and z of a map with iteration counts `counts`:
/// the last parameter is x, the one before y, all others z (row-major).
fn dimension_extents(counts: &[Expr]) -> [Expr; 3] {
    let rank = counts.len();
    let y = if rank >= 2 {
        counts[rank - 2].clone()
    } else {
        Expr::int(1)
    };
    let z = counts[..rank.saturating_sub(2)]
        .iter()
        .fold(Expr::int(1), |a, c| Expr::mul(&a, c));
    [counts[rank - 1].clone(), y, z]
}

/// Each parameter's iteration number from the indices along x, y and z
/// (the symbols `{prefix}x`, `{prefix}y`, `{prefix}z`), as
/// [`dimension_extents`] lays the parameters out.
fn dimension_indices(counts: &[Expr], prefix: &str) -> Vec<Expr> {
    let rank = counts.len();
    let mut k = vec![Expr::int(0); rank];
    k[rank - 1] = Expr::symbol(&format!("{prefix}x"));
    if rank >= 2 {
        k[rank - 2] = Expr::symbol(&format!("{prefix}y"));
    }
    let mut rest = Expr::symbol(&format!("{prefix}z"));
    for j in (0..rank.saturating_sub(2)).rev() {
        k[j] = Expr::modulo(&rest, &counts[j]);
        rest = Expr::floordiv(&rest, &counts[j]);
    }
    k
}

/// Where `data` lives: on the device (`Some(true)`, scalars in device
/// memory too), on the host only (`Some(false)`), or where its user puts
/// it (`None`; other scalars too).
fn residence(data: &Data) -> Option<bool> {
    if data.gpu_global {
        Some(true)
    } else if data.scalar {
        None
    } else if data.host_only {
        Some(false)
    } else {
        None
    }
}

/// The block extents of a thread-block map with iteration counts
/// `counts`: as [`dimension_extents`] up to three parameters; with more,
/// all of them along x (a block allows only 64 threads along z).
fn thread_extents(counts: &[Expr]) -> [Expr; 3] {
    if counts.len() <= 3 {
        return dimension_extents(counts);
    }
    let all = counts.iter().fold(Expr::int(1), |a, c| Expr::mul(&a, c));
    [all, Expr::int(1), Expr::int(1)]
}

/// Each parameter's iteration number of a thread-block map from the
/// thread indices `__gpu_tx`, ... (see [`thread_extents`]).
fn thread_indices(counts: &[Expr]) -> Vec<Expr> {
    if counts.len() <= 3 {
        return dimension_indices(counts, "__gpu_t");
    }
    let mut k = vec![Expr::int(0); counts.len()];
    let mut rest = Expr::symbol("__gpu_tx");
    for j in (0..counts.len()).rev() {
        k[j] = Expr::modulo(&rest, &counts[j]);
        rest = Expr::floordiv(&rest, &counts[j]);
    }
    k
}

/// Whether `op` (a nested SDFG) is scheduled on the GPU: called by host
/// code, it runs as a kernel of one thread (as DaCe runs a library node's
/// sequential expansion when the node is scheduled on the GPU).
pub(super) fn on_gpu(op: Op<'_>) -> bool {
    op.attr("schedule")
        .and_then(Schedule::from_attr)
        .is_some_and(|s| matches!(s.name(), "GPU_Device" | "GPU_Default"))
}

/// Whether `op` is a map whose body is a GPU kernel.
pub(super) fn is_kernel(op: Op<'_>) -> bool {
    scheduled(op, "GPU_Device")
}

/// The number of iterations of `r`: `max(0, ceil((end - start) / step))`.
fn trip_count(r: &Range) -> Expr {
    Expr::max(vec![
        Expr::int(0),
        Expr::ceildiv(&Expr::sub(&r.end, &r.start), &r.step),
    ])
}

impl<'a> Function<'a, '_> {
    /// Whether `data` lives in device memory in the code being written.
    pub(super) fn on_device(&self, data: &Data) -> bool {
        self.module.gpu && data.gpu_global
    }

    /// Whether a top-level map without a schedule runs on the GPU, as
    /// DaCe infers it: when the containers it reads and writes (scalars
    /// aside) all live where GPU_Device maps run (`GPU_Global`).
    pub(super) fn runs_on_device(&self, map: Op<'a>) -> bool {
        if !self.module.gpu || self.module.in_kernel {
            return false;
        }
        let mut places = std::collections::BTreeSet::new();
        for value in map.operands() {
            if let Ok(Lowered::Data(d)) = self.lowered(map, value) {
                places.insert(residence(&d));
            }
        }
        for value in map.results() {
            let data = written_container(value).and_then(|n| self.containers.by_name.get(&n));
            if let Some(d) = data {
                places.insert(residence(d));
            }
        }
        places.remove(&None);
        places.len() == 1 && places.contains(&Some(true))
    }

    /// Where the data passed to each argument of nested SDFG `inner` lives
    /// (see `Module::argument_residences`).
    pub(super) fn argument_residences(
        &self,
        nested: Op<'a>,
        inner: Op<'a>,
    ) -> Result<'a, HashMap<String, (bool, bool)>> {
        let mut residences = HashMap::new();
        if !self.module.gpu {
            return Ok(residences);
        }
        let inputs = incoming_edges(nested);
        let out_names = nested.str_array_attr("out_names");
        let results = nested.results();
        for name in inner.str_array_attr("arg_names") {
            let data = match inputs.iter().find(|e| e.connector == Some(name)) {
                Some(edge) => match self.lowered(nested, edge.source)? {
                    Lowered::Data(d) => Some(d),
                    _ => None,
                },
                None => out_names
                    .iter()
                    .position(|n| *n == name)
                    .and_then(|k| written_container(*results.get(k)?))
                    .and_then(|n| self.containers.by_name.get(&n).cloned()),
            };
            if let Some(d) = data {
                residences.insert(name.to_string(), (d.gpu_global, d.host_only));
            }
        }
        Ok(residences)
    }

    /// Fails when host code would read or write device memory, or a kernel
    /// host memory: DaCe's code generator rejects such programs too.
    pub(super) fn check_host_access(&self, op: Op<'a>, data: &Data, what: &str) -> Result<'a, ()> {
        if self.module.gpu && self.module.in_kernel && data.host_only {
            return fail(
                op,
                format!(
                    "{what} `{}`, which is in host memory, inside a GPU kernel (copy it to a GPU_Global container first)",
                    data.name
                ),
            );
        }
        if self.on_device(data) && !self.module.in_kernel {
            return fail(
                op,
                format!(
                    "{what} `{}`, which is in GPU global memory, outside a GPU_Device map (host code cannot access it)",
                    data.name
                ),
            );
        }
        Ok(())
    }

    /// [`gpu_sync`] in the function's body.
    fn gpu_sync(&mut self, results: &str, text: impl FnOnce(&str) -> String) {
        gpu_sync(&mut self.body, results, text);
    }

    /// Device memory of memref type `ty` with `count` elements (`None`
    /// for a rank-0 memref).
    pub(super) fn device_alloc(&mut self, ty: &str, count: Option<&str>) -> String {
        let memref = self.body.fresh();
        let count = count.unwrap_or_default().to_string();
        self.gpu_sync(&memref.clone(), |t| {
            format!("gpu.alloc async [{t}] ({count}) : {ty}")
        });
        memref
    }

    /// Frees device memory.
    pub(super) fn device_free(&mut self, memref: &str, ty: &str) {
        self.gpu_sync("", |t| format!("gpu.dealloc async [{t}] {memref} : {ty}"));
    }

    /// Copies all of `src` into `dst` (memrefs of type `ty`, either side
    /// on the host or the device).
    pub(super) fn device_memcpy(&mut self, dst: &str, src: &str, ty: &str) {
        device_memcpy(&mut self.body, dst, src, ty);
    }

    /// A host memref with the size of `data`'s memref, holding a copy of
    /// it when `fill`.
    pub(super) fn host_mirror(&mut self, data: &Data, fill: bool) -> String {
        let ty = data.memref_type();
        let scalar = data.scalar || data.stream;
        if fill {
            host_copy(&mut self.body, &data.memref, &ty, scalar)
        } else {
            host_buffer(&mut self.body, &data.memref, &ty, scalar)
        }
    }

    /// Zero-fills device memory `memref` of `data`, with a kernel.
    pub(super) fn device_zero_fill(&mut self, memref: &str, data: &Data) -> Result<'a, ()> {
        let scalar = data.scalar || data.stream;
        let count = (!scalar).then(|| {
            let zero = self.body.index(0);
            self.body.assign(format!(
                "memref.dim {memref}, {zero} : {}",
                data.memref_type()
            ))
        });
        self.element_kernel(count.as_deref(), |f, i| {
            let zero = super::types::zero(&mut f.body, &data.elem.ty);
            let ty = data.memref_type();
            let index = i.unwrap_or_default();
            f.body
                .line(format!("memref.store {zero}, {memref}[{index}] : {ty}"));
            Ok(())
        })
    }

    /// A copy edge between host and device memory, written by host code.
    /// A copy of one whole container into another of the same layout is
    /// one `gpu.memcpy`; one between two device containers is a kernel
    /// ([`Self::copy_kernel`]); any other goes through host buffers that
    /// mirror the device side (read back first, so that what the copy does
    /// not write is kept).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn device_copy(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        (src, from): (&Data, &Subset),
        (dst, to): (&Data, &Subset),
        memlet: &Memlet,
        wcr: Option<Reduction>,
        parallel: &[String],
    ) -> Result<'a, ()> {
        let whole = |d: &Data, s: &Subset| {
            d.base.is_none()
                && d.reference.is_none()
                && d.offsets.iter().all(|o| o.as_int() == Some(0))
                && (d.scalar || *s == Subset::full(&d.shape))
        };
        if wcr.is_none()
            && whole(src, from)
            && whole(dst, to)
            && src.elem == dst.elem
            && src.scalar == dst.scalar
            && src.shape == dst.shape
            && src.strides == dst.strides
        {
            let ty = dst.memref_type();
            self.device_memcpy(&dst.memref, &src.memref, &ty);
            return Ok(());
        }
        if self.on_device(src) && self.on_device(dst) {
            return self.copy_kernel(op, env, (src, from), (dst, to), wcr, parallel);
        }
        let mut staged_src = src.clone();
        let mut staged_dst = dst.clone();
        if self.on_device(src) {
            staged_src.memref = self.host_mirror(src, true);
            staged_src.gpu_global = false;
        }
        if self.on_device(dst) {
            staged_dst.memref = self.host_mirror(dst, true);
            staged_dst.gpu_global = false;
        }
        self.copy(op, env, &staged_src, &staged_dst, memlet, wcr, parallel)?;
        if self.on_device(dst) {
            let ty = dst.memref_type();
            self.device_memcpy(&dst.memref, &staged_dst.memref, &ty);
        }
        for (staged, original) in [(&staged_src, src), (&staged_dst, dst)] {
            if staged.memref != original.memref {
                self.body.line(format!(
                    "memref.dealloc {} : {}",
                    staged.memref,
                    staged.memref_type()
                ));
            }
        }
        Ok(())
    }

    /// A copy between two subsets of device memory, as a kernel: one
    /// thread per element between distinct containers, or one thread
    /// copying in order where source and destination may overlap (the same
    /// container, or views), as the host copy would.
    fn copy_kernel(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        (src, from): (&Data, &Subset),
        (dst, to): (&Data, &Subset),
        wcr: Option<Reduction>,
        parallel: &[String],
    ) -> Result<'a, ()> {
        let distinct = src.name != dst.name
            && [src, dst]
                .iter()
                .all(|d| d.base.is_none() && d.reference.is_none());
        let count = if distinct {
            let count = from
                .ranges()
                .iter()
                .fold(Expr::int(1), |n, r| Expr::mul(&n, &r.size()));
            Some(self.emit_int(op, env, &count)?)
        } else {
            None
        };
        self.element_kernel(count.as_deref(), |f, thread| {
            f.copy_elements(op, env, (src, from), (dst, to), wcr, parallel, thread)
        })
    }

    /// A kernel written by `body`: with `count` (an index value), one
    /// thread per element in blocks of 256, `body` given the thread's
    /// element and run where it is below `count`; without, one thread.
    fn element_kernel(
        &mut self,
        count: Option<&str>,
        body: impl FnOnce(&mut Self, Option<&str>) -> Result<'a, ()>,
    ) -> Result<'a, ()> {
        let one = self.body.index(1);
        let (grid, block) = match count {
            Some(count) => {
                let block = self.body.index(256);
                let zero = self.body.index(0);
                let nonempty = self
                    .body
                    .assign(format!("arith.cmpi sgt, {count}, {zero} : index"));
                self.body.open(format!("scf.if {nonempty}"));
                let grid = self
                    .body
                    .assign(format!("arith.ceildivsi {count}, {block} : index"));
                (grid, block)
            }
            None => (one.clone(), one.clone()),
        };
        let ids: Vec<String> = (0..12).map(|_| self.body.fresh()).collect();
        self.body.open(format!(
            "gpu.launch blocks({}, {}, {}) in ({} = {grid}, {} = {one}, {} = {one}) threads({}, {}, {}) in ({} = {block}, {} = {one}, {} = {one})",
            ids[0], ids[1], ids[2], ids[3], ids[4], ids[5], ids[6], ids[7], ids[8], ids[9], ids[10], ids[11],
        ));
        let thread = match count {
            Some(count) => {
                let base = self
                    .body
                    .assign(format!("arith.muli {}, {block} : index", ids[0]));
                let i = self
                    .body
                    .assign(format!("arith.addi {base}, {} : index", ids[6]));
                let inside = self
                    .body
                    .assign(format!("arith.cmpi slt, {i}, {count} : index"));
                self.body.open(format!("scf.if {inside}"));
                Some(i)
            }
            None => None,
        };
        self.module.in_kernel = true;
        let written = body(self, thread.as_deref());
        self.module.in_kernel = false;
        written?;
        if thread.is_some() {
            self.body.close("");
        }
        self.body.line("gpu.terminator");
        self.body.close("");
        if count.is_some() {
            self.body.close("");
        }
        Ok(())
    }

    /// Moves the program's `GPU_Global` arguments to the device at entry:
    /// the caller passes host memory, as for every other argument.
    /// Returns the code that copies the written ones back and frees them,
    /// for the function's exit.
    pub(super) fn mirror_arguments(&mut self) -> Vec<MirroredArgument> {
        let mut mirrored = Vec::new();
        let mut names: Vec<String> = self
            .containers
            .by_name
            .values()
            .filter(|d| self.on_device(d) && !d.memref.is_empty())
            .map(|d| d.name.clone())
            .collect();
        names.sort();
        for name in names {
            let Some(data) = self.containers.by_name.get(&name).cloned() else {
                continue;
            };
            let ty = data.memref_type();
            let count = (!data.scalar).then(|| {
                let zero = self.body.index(0);
                self.body
                    .assign(format!("memref.dim {}, {zero} : {ty}", data.memref))
            });
            let device = self.device_alloc(&ty, count.as_deref());
            self.device_memcpy(&device, &data.memref, &ty);
            mirrored.push(MirroredArgument {
                host: data.memref.clone(),
                device: device.clone(),
                ty,
                written: is_written(self.sdfg, &name),
            });
            if let Some(d) = self.containers.by_name.get_mut(&name) {
                d.memref = device;
            }
        }
        mirrored
    }

    /// Copies written arguments back to the host and frees their device
    /// memory.
    pub(super) fn release_arguments(&mut self, mirrored: &[MirroredArgument]) {
        for m in mirrored {
            if m.written {
                self.device_memcpy(&m.host, &m.device, &m.ty);
            }
            self.device_free(&m.device, &m.ty);
        }
    }

    /// The GPU_Shared transients placed at `map`'s scope: they become the
    /// kernel's workgroup memory, so their size must be a constant.
    fn workgroup_transients(&self, map: Op<'a>) -> Result<'a, Vec<(String, Data, i64)>> {
        let mut shared = Vec::new();
        for alloc in self.owned_transients(Placement::Scope(map)) {
            let Ok(l) = layout(alloc.results()[0].ty()) else {
                continue;
            };
            if l.storage.name() != "GPU_Shared" {
                continue;
            }
            let name = alloc.str_attr("name").unwrap_or_default().to_string();
            let mut span = Expr::int(1);
            for (size, stride) in l.shape.iter().zip(&l.strides) {
                span = Expr::add(&span, &Expr::mul(&Expr::sub(size, &Expr::int(1)), stride));
            }
            let Some(n) = span.as_int() else {
                return fail(
                    alloc,
                    format!("GPU_Shared transient `{name}` has size `{span}`, and shared memory needs a constant size"),
                );
            };
            shared.push((name.clone(), Data::new(name, String::new(), l), n));
        }
        Ok(shared)
    }

    /// Whether `alloc` is bound as workgroup memory of an enclosing kernel
    /// (and so not allocated by its scope).
    pub(super) fn is_workgroup(&self, alloc: Op<'a>) -> bool {
        self.module.gpu
            && layout(alloc.results()[0].ty()).is_ok_and(|l| l.storage.name() == "GPU_Shared")
            && self
                .containers
                .by_name
                .get(alloc.str_attr("name").unwrap_or_default())
                .is_some_and(|d| !d.memref.is_empty())
    }

    /// The block size that `map`'s thread-block maps need: the largest
    /// extent along each dimension, computed before the launch.
    fn thread_block_extents(
        &mut self,
        map: Op<'a>,
        env: &HashMap<String, String>,
    ) -> Result<'a, Option<[String; 3]>> {
        let blocks: Vec<Op> = map
            .descendants()
            .into_iter()
            .filter(|o| scheduled(*o, "GPU_ThreadBlock"))
            .collect();
        if blocks.is_empty() {
            return Ok(None);
        }
        let mut extents: [Option<String>; 3] = [None, None, None];
        for block in blocks {
            let mut counts = Vec::new();
            for range in block.str_array_attr("ranges") {
                counts.push(trip_count(&one_range(block, range)?));
            }
            for (d, count) in thread_extents(&counts).iter().enumerate() {
                let value = self.emit_int(block, env, count).map_err(|f| Failure {
                    op: block,
                    message: format!(
                        "the extent `{count}` of this GPU_ThreadBlock map must be known when its kernel is launched: {}",
                        f.message
                    ),
                })?;
                extents[d] = Some(match extents[d].take() {
                    Some(e) => self
                        .body
                        .assign(format!("arith.maxsi {e}, {value} : index")),
                    None => value,
                });
            }
        }
        let [x, y, z] = extents.map(|e| e.unwrap_or_default());
        let one = self.body.index(1);
        let pick = |e: String| if e.is_empty() { one.clone() } else { e };
        Ok(Some([pick(x), pick(y), pick(z)]))
    }

    /// Lowers a `GPU_Device` map to a `gpu.launch` (see the module
    /// documentation).
    pub(super) fn launch_kernel(
        &mut self,
        map: Op<'a>,
        mut env: HashMap<String, String>,
        params: &[&str],
        ranges: &[Range],
    ) -> Result<'a, ()> {
        if self.module.in_kernel {
            return fail(
                map,
                "GPU_Device map inside a GPU kernel (kernels do not launch kernels)",
            );
        }
        let counts: Vec<Expr> = ranges.iter().map(trip_count).collect();
        let rank = counts.len();
        let extent_exprs = dimension_extents(&counts);
        let mut extents = Vec::new();
        for e in &extent_exprs {
            extents.push(self.emit_int(map, &env, e)?);
        }
        let thread_blocks = self.thread_block_extents(map, &env)?;
        let one_point_per_block = thread_blocks.is_some();
        let (grid, block) = match thread_blocks {
            Some(block) => (extents.clone(), block.to_vec()),
            None => {
                let sizes = block_size(map, rank)?;
                let mut grid = Vec::new();
                let mut block = Vec::new();
                for (extent, size) in extents.iter().zip(sizes) {
                    let b = self.body.index(size);
                    grid.push(
                        self.body
                            .assign(format!("arith.ceildivsi {extent}, {b} : index")),
                    );
                    block.push(b);
                }
                (grid, block)
            }
        };
        let zero = self.body.index(0);
        let mut nonempty = Vec::new();
        for e in &extents {
            nonempty.push(
                self.body
                    .assign(format!("arith.cmpi sgt, {e}, {zero} : index")),
            );
        }
        let all = self.all_of(nonempty);
        self.body.open(format!("scf.if {all}"));
        let shared = self.workgroup_transients(map)?;
        let ids: Vec<String> = (0..12).map(|_| self.body.fresh()).collect();
        let workgroup: Vec<String> = shared
            .iter()
            .map(|(_, data, n)| {
                let v = self.body.fresh();
                format!(
                    "{v} : memref<{n}x{}, #gpu.address_space<workgroup>>",
                    data.elem.ty
                )
            })
            .collect();
        let attribution = if workgroup.is_empty() {
            String::new()
        } else {
            format!(" workgroup({})", workgroup.join(", "))
        };
        let by_value = self.host_scalars(map)?;
        self.body.open(format!(
            "gpu.launch blocks({}, {}, {}) in ({} = {}, {} = {}, {} = {}) threads({}, {}, {}) in ({} = {}, {} = {}, {} = {}){attribution}",
            ids[0], ids[1], ids[2], ids[3], grid[0], ids[4], grid[1], ids[5], grid[2],
            ids[6], ids[7], ids[8], ids[9], block[0], ids[10], block[1], ids[11], block[2],
        ));
        for ((name, data, n), attribution) in shared.iter().zip(&workgroup) {
            let value = attribution.split(' ').next().unwrap_or_default();
            let elem = &data.elem.ty;
            let generic = self.body.assign(format!(
                "memref.memory_space_cast {value} : memref<{n}x{elem}, #gpu.address_space<workgroup>> to memref<{n}x{elem}>"
            ));
            let memref = self.body.assign(format!(
                "memref.cast {generic} : memref<{n}x{elem}> to memref<?x{elem}>"
            ));
            let data = Data {
                memref,
                ..data.clone()
            };
            self.containers.by_name.insert(name.clone(), data);
        }
        let bindings = self.bind_by_value(&by_value, map.region_args(0));
        // The iteration of this thread along each dimension.
        let mut inside = Vec::new();
        for d in 0..3 {
            let index = if one_point_per_block {
                ids[d].clone()
            } else {
                let base = self
                    .body
                    .assign(format!("arith.muli {}, {} : index", ids[d], block[d]));
                let i = self
                    .body
                    .assign(format!("arith.addi {base}, {} : index", ids[6 + d]));
                inside.push(
                    self.body
                        .assign(format!("arith.cmpi slt, {i}, {} : index", extents[d])),
                );
                i
            };
            env.insert(format!("__gpu_{}", DIMS[d]), index);
        }
        let guarded = !inside.is_empty();
        if guarded {
            let all = self.all_of(inside);
            self.body.open(format!("scf.if {all}"));
        }
        let k_of = dimension_indices(&counts, "__gpu_");
        self.bind_iterations(map, &mut env, params, ranges, &k_of)?;
        let parallel: Vec<String> = params.iter().map(|p| p.to_string()).collect();
        self.module.in_kernel = true;
        let lowered = self.lower_scope_body(map, &mut env, &parallel, &[]);
        self.module.in_kernel = false;
        lowered?;
        self.restore(bindings);
        for (name, _, _) in &shared {
            if let Some(d) = self.containers.by_name.get_mut(name) {
                d.memref.clear();
            }
        }
        if guarded {
            self.body.close("");
        }
        self.body.line("gpu.terminator");
        self.body.close("");
        self.body.close("");
        Ok(())
    }

    /// The host scalars that the kernel of `map` reads, each with its
    /// value loaded before the launch: kernels take them by value, as
    /// DaCe's kernels take scalar arguments. A kernel cannot write one.
    fn host_scalars(&mut self, map: Op<'a>) -> Result<'a, Vec<(Data, String)>> {
        let mut found: Vec<(Data, String)> = Vec::new();
        for input in map.operand_segment(0) {
            if let Lowered::Data(data) = self.lowered(map, input)? {
                let new = found.iter().all(|(d, _)| d.name != data.name);
                if new && data.scalar && data.host_only && !data.memref.is_empty() {
                    let value = self.load_scalar(&data);
                    found.push((data, value));
                }
            }
        }
        for access in map.descendants() {
            if !access.is("sdfg.access") || access.ancestor("sdfg.sdfg") != Some(self.sdfg) {
                continue;
            }
            let Some(name) = accessed_container(access).and_then(container_name) else {
                continue;
            };
            let Some(data) = self.containers.by_name.get(&name) else {
                continue;
            };
            if !data.scalar || data.stream || !data.host_only || data.memref.is_empty() {
                continue;
            }
            if access.operands().len() > 1 {
                return fail(
                    access,
                    format!("writes `{name}`, which is in host memory, inside a GPU kernel (make it a GPU_Global container)"),
                );
            }
            if found.iter().all(|(d, _)| d.name != name) {
                let data = data.clone();
                let value = self.load_scalar(&data);
                found.push((data, value));
            }
        }
        Ok(found)
    }

    /// Loads the value of scalar `data` (in host code).
    fn load_scalar(&mut self, data: &Data) -> String {
        self.body.assign(format!(
            "memref.load {}[] : {}",
            data.memref,
            data.memref_type()
        ))
    }

    /// The host scalars passed to nested SDFG `nested`, which runs as a
    /// kernel of one thread, with their values (see [`Self::host_scalars`]).
    fn nested_host_scalars(&mut self, nested: Op<'a>) -> Result<'a, Vec<(Data, String)>> {
        let mut found: Vec<(Data, String)> = Vec::new();
        for edge in incoming_edges(nested) {
            if let Lowered::Data(data) = self.lowered(nested, edge.source)? {
                if data.scalar && data.host_only && !data.memref.is_empty() {
                    let value = self.load_scalar(&data);
                    found.push((data, value));
                }
            }
        }
        Ok(found)
    }

    /// Binds each host scalar of `by_value` to a copy of its value in the
    /// kernel being written, as a container and where one of `values`
    /// holds it; returns what to restore after the kernel.
    fn bind_by_value(&mut self, by_value: &[(Data, String)], values: Vec<Val<'a>>) -> Bindings<'a> {
        let mut bindings = Bindings {
            containers: Vec::new(),
            values: Vec::new(),
        };
        let mut inside = Vec::new();
        for (data, value) in by_value {
            let ty = data.memref_type();
            let cell = self.body.assign(format!("memref.alloca() : {ty}"));
            self.body
                .line(format!("memref.store {value}, {cell}[] : {ty}"));
            let bound = Data {
                memref: cell,
                host_only: false,
                ..data.clone()
            };
            let before = self
                .containers
                .by_name
                .insert(data.name.clone(), bound.clone());
            bindings.containers.push((data.name.clone(), before));
            inside.push(bound);
        }
        for value in values {
            let Some(Lowered::Data(d)) = self.values.get(&value).cloned() else {
                continue;
            };
            let held = by_value
                .iter()
                .position(|(o, _)| o.name == d.name && o.memref == d.memref);
            if let Some(k) = held {
                self.values.insert(value, Lowered::Data(inside[k].clone()));
                bindings.values.push((value, Lowered::Data(d)));
            }
        }
        bindings
    }

    /// Undoes [`Self::bind_by_value`].
    fn restore(&mut self, bindings: Bindings<'a>) {
        for (name, before) in bindings.containers {
            match before {
                Some(data) => self.containers.by_name.insert(name, data),
                None => self.containers.by_name.remove(&name),
            };
        }
        for (value, lowered) in bindings.values {
            self.values.insert(value, lowered);
        }
    }

    /// The conjunction of `conditions` (`i1` values).
    fn all_of(&mut self, conditions: Vec<String>) -> String {
        conditions
            .into_iter()
            .reduce(|a, b| self.body.assign(format!("arith.andi {a}, {b} : i1")))
            .unwrap_or_default()
    }

    /// Binds each parameter of `map` to `start + k * step` of its range,
    /// with `k` its iteration number (of `k_of`, over the GPU indices).
    fn bind_iterations(
        &mut self,
        map: Op<'a>,
        env: &mut HashMap<String, String>,
        params: &[&str],
        ranges: &[Range],
        k_of: &[Expr],
    ) -> Result<'a, ()> {
        let mut values = Vec::new();
        for (r, k) in ranges.iter().zip(k_of) {
            let value = Expr::add(&r.start, &Expr::mul(k, &r.step));
            values.push(self.emit_int(map, env, &value)?);
        }
        for (param, value) in params.iter().zip(values) {
            env.insert(param.to_string(), value);
        }
        Ok(())
    }

    /// Whether GPU-scheduled nested SDFG `nested` is better called by the
    /// host, its maps launched as kernels, than run as a kernel of one
    /// thread: when it is a sequence of states that hold only maps and
    /// access nodes of its arguments, all of them in device memory,
    /// and transients only the maps use (as DaCe's pure expansion of a
    /// matrix product is). Its maps are then
    /// inferred to run on the GPU, as top-level maps on GPU data are.
    pub(super) fn launches_its_maps(&self, nested: Op<'a>) -> Result<'a, bool> {
        let Some(inner) = nested.region_ops(0).into_iter().find(|o| o.is("sdfg.sdfg")) else {
            return Ok(false);
        };
        let residences = self.argument_residences(nested, inner)?;
        let arguments: Vec<String> = inner
            .str_array_attr("arg_names")
            .iter()
            .map(|n| n.to_string())
            .collect();
        let all_on_device = inner
            .region_args(0)
            .iter()
            .zip(&arguments)
            .all(|(arg, name)| {
                layout(arg.ty()).is_ok()
                    && residences
                        .get(name)
                        .is_some_and(|(gpu_global, _)| *gpu_global)
            });
        if !all_on_device {
            return Ok(false);
        }
        let only_maps = inner
            .region_ops(0)
            .into_iter()
            .all(|block| match block.name() {
                "sdfg.edge" => true,
                // Transients private to the maps' iterations.
                "sdfg.alloc" => block.results().iter().all(|r| {
                    r.uses()
                        .into_iter()
                        .all(|(user, _)| user.ancestor("sdfg.map").is_some())
                }),
                "sdfg.state" => block.region_ops(0).into_iter().all(|op| match op.name() {
                    "sdfg.access" => accessed_container(op)
                        .and_then(container_name)
                        .is_some_and(|n| arguments.contains(&n)),
                    "sdfg.map" => op
                        .attr("schedule")
                        .and_then(Schedule::from_attr)
                        .is_none_or(|s| s.name() == "Default" || s.name().starts_with("GPU_")),
                    _ => false,
                }),
                _ => false,
            });
        Ok(only_maps)
    }

    /// Writes what `body` writes as a kernel of one thread.
    pub(super) fn single_thread_kernel(
        &mut self,
        nested: Op<'a>,
        body: impl FnOnce(&mut Self) -> Result<'a, ()>,
    ) -> Result<'a, ()> {
        let by_value = self.nested_host_scalars(nested)?;
        self.element_kernel(None, |f, _| {
            // The scalars' values, bound where the call reads its inputs.
            let sources = incoming_edges(nested)
                .into_iter()
                .map(|e| e.source)
                .collect();
            let bindings = f.bind_by_value(&by_value, sources);
            let lowered = body(f);
            f.restore(bindings);
            lowered
        })
    }

    /// Lowers a `GPU_ThreadBlock` map inside a kernel: its parameters are
    /// the thread indices (the last one `x`), guarded by its extents, and
    /// a barrier follows it, as DaCe's `__syncthreads()`.
    pub(super) fn thread_block_map(
        &mut self,
        map: Op<'a>,
        mut env: HashMap<String, String>,
        params: &[&str],
        ranges: &[Range],
        parallel: &[String],
    ) -> Result<'a, ()> {
        if !self.module.in_kernel {
            return fail(map, "GPU_ThreadBlock map outside a GPU_Device map");
        }
        let counts: Vec<Expr> = ranges.iter().map(trip_count).collect();
        let mut inside = Vec::new();
        for (d, extent) in thread_extents(&counts).iter().enumerate() {
            let k = self.body.assign(format!("gpu.thread_id {}", DIMS[d]));
            let extent = self.emit_int(map, &env, extent)?;
            inside.push(
                self.body
                    .assign(format!("arith.cmpi slt, {k}, {extent} : index")),
            );
            env.insert(format!("__gpu_t{}", DIMS[d]), k);
        }
        let all = self.all_of(inside);
        self.body.open(format!("scf.if {all}"));
        let k_of = thread_indices(&counts);
        self.bind_iterations(map, &mut env, params, ranges, &k_of)?;
        let mut inner_parallel = parallel.to_vec();
        inner_parallel.extend(params.iter().map(|p| p.to_string()));
        self.lower_scope_body(map, &mut env, &inner_parallel, &[])?;
        self.body.close("");
        self.body.line("gpu.barrier");
        Ok(())
    }
}

/// Runs `text(token)` as one asynchronous GPU operation on a fresh stream
/// and waits for it; `text` returns the op, `results` names its results
/// before the token.
fn gpu_sync(body: &mut Body, results: &str, text: impl FnOnce(&str) -> String) {
    let start = body.assign("gpu.wait async");
    let done = body.fresh();
    let op = text(&start);
    if results.is_empty() {
        body.line(format!("{done} = {op}"));
    } else {
        body.line(format!("{results}, {done} = {op}"));
    }
    body.line(format!("gpu.wait [{done}]"));
}

/// Copies all of `src` into `dst` (memrefs of type `ty`).
fn device_memcpy(body: &mut Body, dst: &str, src: &str, ty: &str) {
    gpu_sync(body, "", |t| {
        format!("gpu.memcpy async [{t}] {dst}, {src} : {ty}, {ty}")
    });
}

/// A new host memref of the size of `memref` (of type `ty`; rank 0 when
/// `scalar`).
fn host_buffer(body: &mut Body, memref: &str, ty: &str, scalar: bool) -> String {
    if scalar {
        body.assign(format!("memref.alloc() : {ty}"))
    } else {
        let zero = body.index(0);
        let n = body.assign(format!("memref.dim {memref}, {zero} : {ty}"));
        body.assign(format!("memref.alloc({n}) : {ty}"))
    }
}

/// A new host memref holding a copy of device memory `memref`, for host
/// code that reads it (an inter-state condition, a staged copy). The
/// caller frees it.
pub(super) fn host_copy(body: &mut Body, memref: &str, ty: &str, scalar: bool) -> String {
    let host = host_buffer(body, memref, ty, scalar);
    device_memcpy(body, &host, memref, ty);
    host
}

/// What a kernel's by-value bindings replaced: containers by name (with
/// their bindings before, if any) and dataflow values.
pub(super) struct Bindings<'a> {
    containers: Vec<(String, Option<Data>)>,
    values: Vec<(Val<'a>, Lowered)>,
}

/// The program's `GPU_Global` arguments, moved to the device at entry.
pub(super) struct MirroredArgument {
    host: String,
    device: String,
    ty: String,
    written: bool,
}

/// A map's range `text` as one [`Range`].
pub(super) fn one_range<'a>(map: Op<'a>, text: &str) -> Result<'a, Range> {
    let subset = parse_subset(text).map_err(|e| Failure {
        op: map,
        message: format!("range `{text}`: {e}"),
    })?;
    match subset.ranges() {
        [r] => Ok(r.clone()),
        _ => fail(map, format!("range `{text}` is not one dimension")),
    }
}

/// A kernel's block size: the map's `gpu_block_size` (x, y, z), or the
/// default for its rank.
fn block_size<'a>(map: Op<'a>, rank: usize) -> Result<'a, [i64; 3]> {
    let given = map.str_array_attr("gpu_block_size");
    if given.is_empty() {
        return Ok(default_block(rank));
    }
    let mut sizes = [1i64; 3];
    for (d, text) in given.iter().enumerate().take(3) {
        match text.trim().parse::<i64>() {
            Ok(n) if n > 0 => sizes[d] = n,
            _ => {
                return fail(
                    map,
                    format!(
                        "gpu_block_size `{}` is not a list of positive integers",
                        given.join(", ")
                    ),
                )
            }
        }
    }
    if sizes.iter().product::<i64>() > 1024 {
        return fail(
            map,
            format!(
                "gpu_block_size `{}` has more than 1024 threads",
                given.join(", ")
            ),
        );
    }
    Ok(sizes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sdfg_symbolic::Value;
    use std::collections::{BTreeSet, HashMap};

    fn value(e: &Expr, env: &HashMap<String, i64>) -> i64 {
        match e.evaluate(env) {
            Ok(Value::Int(v)) => v,
            other => panic!("{e} does not evaluate: {other:?}"),
        }
    }

    /// Every point of the index space along x, y and z maps to a distinct
    /// iteration, and every iteration is reached: the layouts cover a map
    /// exactly, for one to five parameters.
    #[test]
    fn gpu_layouts_cover_each_iteration_once() {
        for counts in [
            vec![7],
            vec![3, 5],
            vec![2, 3, 4],
            vec![2, 3, 2, 5],
            vec![2, 1, 3, 2, 2],
        ] {
            let exprs: Vec<Expr> = counts.iter().map(|&c| Expr::int(c)).collect();
            let total: i64 = counts.iter().product();
            type Layout = fn(&[Expr]) -> ([Expr; 3], Vec<Expr>, &'static str);
            let layouts: [Layout; 2] = [
                |c| {
                    (
                        dimension_extents(c),
                        dimension_indices(c, "__gpu_"),
                        "__gpu_",
                    )
                },
                |c| (thread_extents(c), thread_indices(c), "__gpu_t"),
            ];
            for layout in layouts {
                let (extents, indices, prefix) = layout(&exprs);
                let env = HashMap::new();
                let sizes: Vec<i64> = extents.iter().map(|e| value(e, &env)).collect();
                assert_eq!(sizes.iter().product::<i64>(), total, "{counts:?}");
                let mut seen = BTreeSet::new();
                for x in 0..sizes[0] {
                    for y in 0..sizes[1] {
                        for z in 0..sizes[2] {
                            let env: HashMap<String, i64> = [("x", x), ("y", y), ("z", z)]
                                .into_iter()
                                .map(|(d, v)| (format!("{prefix}{d}"), v))
                                .collect();
                            let point: Vec<i64> = indices.iter().map(|k| value(k, &env)).collect();
                            for (k, c) in point.iter().zip(&counts) {
                                assert!((0..*c).contains(k), "{counts:?}: {point:?}");
                            }
                            assert!(seen.insert(point), "{counts:?}: a point twice");
                        }
                    }
                }
                assert_eq!(seen.len() as i64, total, "{counts:?}");
            }
        }
    }

    /// Thread-block maps of more than three parameters lie along x alone
    /// (a block allows only 64 threads along z).
    #[test]
    fn wide_thread_blocks_lie_along_x() {
        let counts: Vec<Expr> = [64, 2, 2, 2].iter().map(|&c| Expr::int(c)).collect();
        let env = HashMap::new();
        let sizes: Vec<i64> = thread_extents(&counts)
            .iter()
            .map(|e| value(e, &env))
            .collect();
        assert_eq!(sizes, vec![512, 1, 1]);
        assert_eq!(default_block(1), [256, 1, 1]);
        assert_eq!(default_block(3), [32, 8, 1]);
    }
}
