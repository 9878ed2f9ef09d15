//! Streams and consume scopes, lowered onto a small queue runtime
//! (`passes/execution/src/streams.rs`, registered with the JIT by
//! `sdfg-run`).
//!
//! A stream container is a `memref<?xi64>` of queue handles, one per stream
//! of a stream array (a single stream has shape `[1]`), created when the
//! transient is allocated and destroyed when it is freed. Elements travel
//! as their bits in an `i64`. The memlets keep DaCe's CPU semantics
//! (`dace::Stream` in DaCe's runtime and `cpu.py`'s copies):
//!
//! | memlet | lowered as |
//! | --- | --- |
//! | value → stream (tasklet output, map exit) | one push |
//! | stream → tasklet input | one pop (an empty stream ends the program with a message: DaCe would wait forever) |
//! | array → stream | one push per element of the source subset, in row-major order |
//! | array → stream through a scope exit | the subset's volume of elements pushed from the source's first element on (DaCe's `push(ptr, size)`) |
//! | stream → array | pops up to the volume of the array's subset into consecutive elements from its first one (DaCe's bulk `pop`) |
//!
//! A consume scope runs `num_pes` processing elements (an `scf.parallel`
//! that becomes OpenMP threads outside other parallel loops). Each takes
//! elements until none is pending: an element counts as pending until the
//! body that processes it is done, since the body may push more work (as
//! in DaCe's `Consume::consume`). With a chunk size, a processing element
//! takes up to that many elements at once into an array, and the body sees
//! how many in `__dace_<label>_numelems` (DaCe's `Consume<CHUNKSIZE>`).
//! With a quiescence condition, each processing element evaluates it
//! before it takes more and stops once it holds (DaCe's `consume_cond`);
//! while it does not, an empty stream is waited on. DaCe waits forever
//! when the stream is drained and the condition never holds; here the
//! program ends with a message instead, as for a pop from an empty
//! stream.

use std::collections::HashMap;

use sdfg_dialect::ir::Op;
use sdfg_dialect::{incoming_edges, EdgeRole, Storage};
use sdfg_symbolic::{Expr, Subset};

use super::text::Body;
use super::types::{Data, Elem, Layout};
use super::{fail, parse_memlet_subset, Failure, Function, Lowered, Result};

/// The runtime's functions as the lowered module declares them.
pub(super) const DECLARATIONS: &str = "\
func.func private @sdfg_stream_create() -> i64
func.func private @sdfg_stream_destroy(i64)
func.func private @sdfg_stream_push(i64, i64)
func.func private @sdfg_stream_pop(i64) -> i64
func.func private @sdfg_stream_pop_bulk(i64, i64, i64) -> i64
func.func private @sdfg_stream_consume_next(i64, i64, i64, i32) -> i64
func.func private @sdfg_stream_consume_done(i64, i64)
func.func private @sdfg_stream_consume_stuck()
";

/// The names [`DECLARATIONS`] declares.
pub(super) const RUNTIME_FUNCTIONS: [&str; 8] = [
    "sdfg_stream_create",
    "sdfg_stream_destroy",
    "sdfg_stream_push",
    "sdfg_stream_pop",
    "sdfg_stream_pop_bulk",
    "sdfg_stream_consume_next",
    "sdfg_stream_consume_done",
    "sdfg_stream_consume_stuck",
];

/// Calls a runtime function: `call` is the `func.call` text, `result` its
/// result type if it has one. The call sits in its own `alloca_scope`:
/// MLIR treats an unknown call as a possible stack allocation, which would
/// keep the `alloca_scope` that `convert-scf-to-openmp` puts around a
/// parallel loop's body (whose region `convert-scf-to-cf` cannot lower);
/// a nested scope hides the call from that check.
pub(super) fn runtime_call(body: &mut Body, call: &str, result: Option<&str>) -> String {
    match result {
        None => {
            body.open("memref.alloca_scope");
            body.line(call);
            body.close("");
            String::new()
        }
        Some(ty) => {
            let v = body.fresh();
            body.open(format!("{v} = memref.alloca_scope -> ({ty})"));
            let inner = body.assign(call);
            body.line(format!("memref.alloca_scope.return {inner} : {ty}"));
            body.close("");
            v
        }
    }
}

/// The bits of `value` (of type `elem`) in an `i64`.
pub(super) fn to_bits(body: &mut Body, value: &str, elem: &Elem) -> String {
    let ty = elem.ty.as_str();
    let int = match ty {
        "f64" => return body.assign(format!("arith.bitcast {value} : f64 to i64")),
        "f32" => body.assign(format!("arith.bitcast {value} : f32 to i32")),
        "f16" | "bf16" => body.assign(format!("arith.bitcast {value} : {ty} to i16")),
        "index" => return body.assign(format!("arith.index_cast {value} : index to i64")),
        "i64" => return value.to_string(),
        _ => value.to_string(),
    };
    let width = match ty {
        "f32" => "i32",
        "f16" | "bf16" => "i16",
        other => other,
    };
    body.assign(format!("arith.extui {int} : {width} to i64"))
}

/// The value of type `elem` whose bits `bits` (an `i64`) holds.
fn from_bits(body: &mut Body, bits: &str, elem: &Elem) -> String {
    let ty = elem.ty.as_str();
    match ty {
        "f64" => body.assign(format!("arith.bitcast {bits} : i64 to f64")),
        "i64" => bits.to_string(),
        "index" => body.assign(format!("arith.index_cast {bits} : i64 to index")),
        "f32" | "f16" | "bf16" => {
            let width = if ty == "f32" { "i32" } else { "i16" };
            let int = body.assign(format!("arith.trunci {bits} : i64 to {width}"));
            body.assign(format!("arith.bitcast {int} : {width} to {ty}"))
        }
        _ => body.assign(format!("arith.trunci {bits} : i64 to {ty}")),
    }
}

/// The `i64` address of a memref's first element.
fn address(body: &mut Body, memref: &str, ty: &str) -> String {
    let index = body.assign(format!(
        "memref.extract_aligned_pointer_as_index {memref} : {ty} -> index"
    ));
    body.assign(format!("arith.index_cast {index} : index to i64"))
}

impl<'a> Function<'a, '_> {
    /// The handle of the stream at `point` of the stream array `data`.
    pub(super) fn stream_handle(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        data: &Data,
        point: &[Expr],
    ) -> Result<'a, String> {
        self.use_stream_runtime();
        let index = self.element_index(op, env, data, point)?;
        Ok(self.body.assign(format!(
            "memref.load {}[{index}] : memref<?xi64>",
            data.memref
        )))
    }

    /// The linear index of `point` of `array` (empty for a scalar), the
    /// array side of a copy between `src` and `dst`; refuses copies
    /// between two streams.
    fn flat_start(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        src: &Data,
        dst: &Data,
        point: &[Expr],
    ) -> Result<'a, String> {
        if src.stream && dst.stream {
            return fail(
                op,
                format!(
                    "copies stream `{}` into stream `{}`, which cannot be lowered yet",
                    src.name, dst.name
                ),
            );
        }
        let array = if src.stream { dst } else { src };
        if array.scalar {
            Ok(String::new())
        } else {
            self.element_index(op, env, array, point)
        }
    }

    /// Pops one element from the stream at `point` of `data`.
    pub(super) fn pop(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        data: &Data,
        point: &[Expr],
    ) -> Result<'a, String> {
        let handle = self.stream_handle(op, env, data, point)?;
        let bits = runtime_call(
            &mut self.body,
            &format!("func.call @sdfg_stream_pop({handle}) : (i64) -> i64"),
            Some("i64"),
        );
        Ok(from_bits(&mut self.body, &bits, &data.elem))
    }

    /// Pushes `value` (already of the stream's element type) to the stream
    /// at `point` of `data`.
    pub(super) fn push(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        value: &str,
        data: &Data,
        point: &[Expr],
    ) -> Result<'a, ()> {
        let handle = self.stream_handle(op, env, data, point)?;
        let bits = to_bits(&mut self.body, value, &data.elem);
        runtime_call(
            &mut self.body,
            &format!("func.call @sdfg_stream_push({handle}, {bits}) : (i64, i64) -> ()"),
            None,
        );
        Ok(())
    }

    /// Pops up to the volume of `to` elements from the stream at `point`
    /// of `src` into consecutive elements of `dst` from `to`'s first one.
    pub(super) fn pop_into(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        src: &Data,
        point: &[Expr],
        dst: &Data,
        to: &Subset,
    ) -> Result<'a, ()> {
        let handle = self.stream_handle(op, env, src, point)?;
        let start = self.flat_start(op, env, src, dst, &to.min_element())?;
        let max = self.emit_int(op, env, &to.volume())?;
        let buffer = self
            .body
            .assign(format!("memref.alloc({max}) : memref<?xi64>"));
        let addr = address(&mut self.body, &buffer, "memref<?xi64>");
        let max64 = self
            .body
            .assign(format!("arith.index_cast {max} : index to i64"));
        let count = runtime_call(&mut self.body, &format!("func.call @sdfg_stream_pop_bulk({handle}, {addr}, {max64}) : (i64, i64, i64) -> i64"), Some("i64"));
        let count = self
            .body
            .assign(format!("arith.index_cast {count} : i64 to index"));
        let (zero, one) = (self.body.index(0), self.body.index(1));
        let k = self.body.fresh();
        self.body
            .open(format!("scf.for {k} = {zero} to {count} step {one}"));
        let bits = self
            .body
            .assign(format!("memref.load {buffer}[{k}] : memref<?xi64>"));
        let value = from_bits(&mut self.body, &bits, &src.elem);
        let value = self.convert(op, &value, &src.elem, &dst.elem.ty)?;
        let ty = dst.memref_type();
        if dst.scalar {
            self.body
                .line(format!("memref.store {value}, {}[] : {ty}", dst.memref));
        } else {
            let index = self.body.assign(format!("arith.addi {start}, {k} : index"));
            self.check_flat_bounds(op, dst, &index);
            self.body.line(format!(
                "memref.store {value}, {}[{index}] : {ty}",
                dst.memref
            ));
        }
        self.body.close("");
        self.body
            .line(format!("memref.dealloc {buffer} : memref<?xi64>"));
        Ok(())
    }

    /// Pushes `count` consecutive elements of `src`, from the element at
    /// `from` on, to the stream at `point` of `dst` (DaCe's
    /// `push(pointer, size)` for an array written to a stream through a
    /// scope exit).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn push_from(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        src: &Data,
        from: &[Expr],
        count: &Expr,
        dst: &Data,
        point: &[Expr],
    ) -> Result<'a, ()> {
        let handle = self.stream_handle(op, env, dst, point)?;
        let ty = src.memref_type();
        let start = self.flat_start(op, env, src, dst, from)?;
        let n = self.emit_int(op, env, count)?;
        let (zero, one) = (self.body.index(0), self.body.index(1));
        let k = self.body.fresh();
        self.body
            .open(format!("scf.for {k} = {zero} to {n} step {one}"));
        let value = if src.scalar {
            self.body
                .assign(format!("memref.load {}[] : {ty}", src.memref))
        } else {
            let index = self.body.assign(format!("arith.addi {start}, {k} : index"));
            self.check_flat_bounds(op, src, &index);
            self.body
                .assign(format!("memref.load {}[{index}] : {ty}", src.memref))
        };
        let value = self.convert(op, &value, &src.elem, &dst.elem.ty)?;
        let bits = to_bits(&mut self.body, &value, &dst.elem);
        runtime_call(
            &mut self.body,
            &format!("func.call @sdfg_stream_push({handle}, {bits}) : (i64, i64) -> ()"),
            None,
        );
        self.body.close("");
        Ok(())
    }

    /// Fills the new handle array `memref` (of `count` handles) with fresh
    /// streams.
    pub(super) fn create_streams(&mut self, memref: &str, count: &str) {
        self.use_stream_runtime();
        let (zero, one) = (self.body.index(0), self.body.index(1));
        let k = self.body.fresh();
        self.body
            .open(format!("scf.for {k} = {zero} to {count} step {one}"));
        let handle = runtime_call(
            &mut self.body,
            "func.call @sdfg_stream_create() : () -> i64",
            Some("i64"),
        );
        self.body.line(format!(
            "memref.store {handle}, {memref}[{k}] : memref<?xi64>"
        ));
        self.body.close("");
    }

    /// Destroys the streams of the handle array `memref` and frees it.
    pub(super) fn destroy_streams(&mut self, memref: &str) {
        let (zero, one) = (self.body.index(0), self.body.index(1));
        let n = self
            .body
            .assign(format!("memref.dim {memref}, {zero} : memref<?xi64>"));
        let k = self.body.fresh();
        self.body
            .open(format!("scf.for {k} = {zero} to {n} step {one}"));
        let handle = self
            .body
            .assign(format!("memref.load {memref}[{k}] : memref<?xi64>"));
        runtime_call(
            &mut self.body,
            &format!("func.call @sdfg_stream_destroy({handle}) : (i64) -> ()"),
            None,
        );
        self.body.close("");
        self.body
            .line(format!("memref.dealloc {memref} : memref<?xi64>"));
    }

    /// Lowers a consume scope: `num_pes` processing elements, each taking
    /// elements (one, or a chunk of up to `chunksize`) of the stream until
    /// none is pending or its quiescence condition holds, running the body
    /// on what it took.
    pub(super) fn lower_consume(
        &mut self,
        consume: Op<'a>,
        env: &HashMap<String, String>,
        parallel: &[String],
    ) -> Result<'a, ()> {
        let label = consume.str_attr("label").unwrap_or("consume");
        let Some(stream_edge) = incoming_edges(consume)
            .into_iter()
            .find(|e| e.role == EdgeRole::Stream)
        else {
            return fail(consume, format!("consume scope `{label}` has no stream"));
        };
        let Lowered::Data(stream) = self.lowered(consume, stream_edge.source)? else {
            return fail(
                consume,
                format!("consume scope `{label}` drains something that is not data"),
            );
        };
        if !stream.stream {
            return fail(
                consume,
                format!(
                    "consume scope `{label}` drains `{}`, which is not a stream",
                    stream.name
                ),
            );
        }
        let point = match &stream_edge.memlet {
            Some(m) if !m.subset.is_empty() => {
                parse_memlet_subset(consume, &m.subset)?.min_element()
            }
            _ => vec![Expr::int(0); stream.shape.len()],
        };
        let handle = self.stream_handle(consume, env, &stream, &point)?;
        let pe = consume.str_attr("pe").unwrap_or("pe").to_string();
        let pes = consume.str_attr("num_pes").unwrap_or("1");
        let pes = sdfg_symbolic::parse(pes).map_err(|e| {
            Failure::new(
                consume,
                format!("number of processing elements `{pes}`: {e}"),
            )
        })?;
        let count = self.emit_int(consume, env, &pes)?;
        let chunk = match sdfg_dialect::consume_chunk_size(consume) {
            Some(text) => {
                let size = sdfg_symbolic::parse(text)
                    .map_err(|e| Failure::new(consume, format!("chunk size `{text}`: {e}")))?;
                Some(size)
            }
            None => None,
        };
        let capacity = match &chunk {
            Some(size) => self.emit_int(consume, env, size)?,
            None => self.body.index(1),
        };
        let capacity_i64 = self
            .body
            .assign(format!("arith.index_cast {capacity} : index to i64"));
        let args = consume.region_args(0);
        let mut inner_env = env.clone();
        for (arg, input) in args.iter().skip(1).zip(consume.operand_segment(1)) {
            let v = self.lowered(consume, input)?;
            self.values.insert(*arg, v);
        }
        let is_parallel = !self.in_parallel_loop(parallel);
        let (zero, one) = (self.body.index(0), self.body.index(1));
        let iv = self.body.fresh();
        if is_parallel {
            self.body.open(format!(
                "scf.parallel ({iv}) = ({zero}) to ({count}) step ({one})"
            ));
        } else {
            self.body
                .open(format!("scf.for {iv} = {zero} to {count} step {one}"));
        }
        inner_env.insert(pe.clone(), iv);
        // What a processing element takes: the elements' bits, and for a
        // chunk the array the body reads them from.
        let taken = self
            .body
            .assign(format!("memref.alloca({capacity}) : memref<?xi64>"));
        let addr = address(&mut self.body, &taken, "memref<?xi64>");
        let elements = match &chunk {
            Some(size) => {
                let memref = self.body.assign(format!(
                    "memref.alloca({capacity}) : memref<?x{}>",
                    stream.elem.ty
                ));
                let layout = Layout {
                    elem: stream.elem.clone(),
                    scalar: false,
                    shape: vec![size.clone()],
                    strides: vec![Expr::int(1)],
                    offsets: vec![Expr::int(0)],
                    view: false,
                    stream: false,
                    reference: false,
                    storage: Storage::default(),
                };
                Some(Data::new(
                    format!("__dace_{label}_elements"),
                    memref,
                    layout,
                ))
            }
            None => None,
        };
        let quiescence = consume.str_attr("quiescence");
        let n = self.body.fresh();
        self.body.open(format!("{n} = scf.while : () -> i64"));
        let mode = self.body.assign(format!(
            "arith.constant {} : i32",
            i32::from(quiescence.is_some())
        ));
        let next = format!("func.call @sdfg_stream_consume_next({handle}, {addr}, {capacity_i64}, {mode}) : (i64, i64, i64, i32) -> i64");
        let taken_count = match quiescence {
            None => runtime_call(&mut self.body, &next, Some("i64")),
            Some(text) => self.take_unless_quiescent(consume, &inner_env, text, &next)?,
        };
        let zero64 = self.body.assign("arith.constant 0 : i64");
        let more = self
            .body
            .assign(format!("arith.cmpi ne, {taken_count}, {zero64} : i64"));
        self.body
            .line(format!("scf.condition({more}) {taken_count} : i64"));
        self.body.middle("do");
        let k = self.body.fresh();
        self.body.block(&format!("^bb0({k}: i64)"));
        let zero64 = self.body.assign("arith.constant 0 : i64");
        let took = self
            .body
            .assign(format!("arith.cmpi sgt, {k}, {zero64} : i64"));
        self.body.open(format!("scf.if {took}"));
        match elements {
            Some(data) => {
                let numelems = self
                    .body
                    .assign(format!("arith.index_cast {k} : i64 to index"));
                let j = self.body.fresh();
                self.body
                    .open(format!("scf.for {j} = {zero} to {numelems} step {one}"));
                let bits = self
                    .body
                    .assign(format!("memref.load {taken}[{j}] : memref<?xi64>"));
                let element = from_bits(&mut self.body, &bits, &stream.elem);
                self.body.line(format!(
                    "memref.store {element}, {}[{j}] : memref<?x{}>",
                    data.memref, stream.elem.ty
                ));
                self.body.close("");
                inner_env.insert(sdfg_dialect::chunk_count_symbol(label), numelems);
                if let Some(arg) = args.first() {
                    self.values.insert(*arg, Lowered::Data(data));
                }
            }
            None => {
                let bits = self
                    .body
                    .assign(format!("memref.load {taken}[{zero}] : memref<?xi64>"));
                let element = from_bits(&mut self.body, &bits, &stream.elem);
                if let Some(arg) = args.first() {
                    self.values.insert(
                        *arg,
                        Lowered::Value {
                            ssa: element,
                            elem: stream.elem.clone(),
                        },
                    );
                }
            }
        }
        let inner_parallel = if is_parallel {
            vec![pe]
        } else {
            parallel.to_vec()
        };
        self.lower_scope_body(consume, &mut inner_env, &inner_parallel, &[])?;
        runtime_call(
            &mut self.body,
            &format!("func.call @sdfg_stream_consume_done({handle}, {k}) : (i64, i64) -> ()"),
            None,
        );
        self.body.close("");
        self.body.line("scf.yield");
        self.body.close("");
        self.body.close("");
        for r in consume.results() {
            self.values.insert(r, Lowered::Written);
        }
        Ok(())
    }

    /// The number of elements a processing element of a consume scope with
    /// quiescence condition `text` takes with the call `next`: 0 once the
    /// condition holds, -1 while the stream is empty but elements are being
    /// processed. A stream drained for good makes the condition final: if
    /// it does not hold then, the program ends (DaCe would wait forever).
    fn take_unless_quiescent(
        &mut self,
        consume: Op<'a>,
        env: &HashMap<String, String>,
        text: &str,
        next: &str,
    ) -> Result<'a, String> {
        let stop = self.quiescence(consume, env, text)?;
        let taken = self.body.fresh();
        self.body.open(format!("{taken} = scf.if {stop} -> (i64)"));
        let none = self.body.assign("arith.constant 0 : i64");
        self.body.line(format!("scf.yield {none} : i64"));
        self.body.middle("else");
        let got = runtime_call(&mut self.body, next, Some("i64"));
        let drained_code = self.body.assign("arith.constant -2 : i64");
        let drained = self
            .body
            .assign(format!("arith.cmpi eq, {got}, {drained_code} : i64"));
        self.body.open(format!("scf.if {drained}"));
        let holds = self.quiescence(consume, env, text)?;
        let yes = self.body.assign("arith.constant true");
        let never = self.body.assign(format!("arith.xori {holds}, {yes} : i1"));
        self.body.open(format!("scf.if {never}"));
        runtime_call(
            &mut self.body,
            "func.call @sdfg_stream_consume_stuck() : () -> ()",
            None,
        );
        self.body.close("");
        self.body.close("");
        let zero = self.body.assign("arith.constant 0 : i64");
        let result = self
            .body
            .assign(format!("arith.select {drained}, {zero}, {got} : i64"));
        self.body.line(format!("scf.yield {result} : i64"));
        self.body.close("");
        Ok(taken)
    }

    /// Evaluates a consume scope's quiescence condition (an `i1`) inside
    /// its own `alloca_scope`, like a runtime call: the condition may call
    /// the function that computes a floating-point expression.
    fn quiescence(
        &mut self,
        consume: Op<'a>,
        env: &HashMap<String, String>,
        text: &str,
    ) -> Result<'a, String> {
        let v = self.body.fresh();
        self.body.open(format!("{v} = memref.alloca_scope -> (i1)"));
        let holds = self.emit_bool(consume, env, text)?;
        self.body
            .line(format!("memref.alloca_scope.return {holds} : i1"));
        self.body.close("");
        Ok(v)
    }
}
