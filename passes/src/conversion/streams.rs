//! Streams and consume scopes, lowered onto a small queue runtime
//! (`passes/src/execute/streams.rs`, registered with the JIT by
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
//! in DaCe's `Consume::consume`). Quiescence conditions and chunk sizes
//! other than 1 are diagnostics.

use std::collections::HashMap;

use sdfg_dialect::ir::Op;
use sdfg_dialect::{incoming_edges, EdgeRole};
use sdfg_symbolic::{Expr, Subset};

use super::sdfg_to_scf::{fail, parse_memlet_subset, Failure, Function, Lowered, Result};
use super::text::Body;
use super::types::{Data, Elem};

/// The runtime's functions as the lowered module declares them.
pub(super) const DECLARATIONS: &str = "\
func.func private @sdfg_stream_create() -> i64
func.func private @sdfg_stream_destroy(i64)
func.func private @sdfg_stream_push(i64, i64)
func.func private @sdfg_stream_pop(i64) -> i64
func.func private @sdfg_stream_pop_bulk(i64, i64, i64) -> i64
func.func private @sdfg_stream_consume_next(i64, i64) -> i32
func.func private @sdfg_stream_consume_done(i64)
";

/// The names [`DECLARATIONS`] declares.
pub(super) const RUNTIME_FUNCTIONS: [&str; 7] = [
    "sdfg_stream_create",
    "sdfg_stream_destroy",
    "sdfg_stream_push",
    "sdfg_stream_pop",
    "sdfg_stream_pop_bulk",
    "sdfg_stream_consume_next",
    "sdfg_stream_consume_done",
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
        let value = super::types::convert(&mut self.body, &value, &src.elem, &dst.elem.ty);
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
        let value = super::types::convert(&mut self.body, &value, &src.elem, &dst.elem.ty);
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
    /// elements of the stream until none is pending, running the body on
    /// each.
    pub(super) fn lower_consume(
        &mut self,
        consume: Op<'a>,
        env: &HashMap<String, String>,
        parallel: &[String],
    ) -> Result<'a, ()> {
        let label = consume.str_attr("label").unwrap_or("consume");
        if consume.attr("quiescence").is_some() {
            return fail(
                consume,
                format!("consume scope `{label}` has a quiescence condition, which cannot be lowered yet"),
            );
        }
        if let Some(chunk) = consume.str_attr("chunksize") {
            if chunk.trim() != "1" {
                return fail(
                    consume,
                    format!("consume scope `{label}` takes chunks of {chunk} elements, which cannot be lowered yet"),
                );
            }
        }
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
        let args = consume.region_args(0);
        let mut inner_env = env.clone();
        for (arg, input) in args.iter().skip(1).zip(consume.operand_segment(1)) {
            let v = self.lowered(consume, input)?;
            self.values.insert(*arg, v);
        }
        let is_parallel = parallel.is_empty();
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
        let cell = self.body.assign("memref.alloca() : memref<i64>");
        let addr = address(&mut self.body, &cell, "memref<i64>");
        self.body.open("scf.while : () -> ()");
        let next = runtime_call(
            &mut self.body,
            &format!("func.call @sdfg_stream_consume_next({handle}, {addr}) : (i64, i64) -> i32"),
            Some("i32"),
        );
        let none = self.body.assign("arith.constant 0 : i32");
        let more = self
            .body
            .assign(format!("arith.cmpi ne, {next}, {none} : i32"));
        self.body.line(format!("scf.condition({more})"));
        self.body.middle("do");
        let bits = self
            .body
            .assign(format!("memref.load {cell}[] : memref<i64>"));
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
        let inner_parallel = if is_parallel {
            vec![pe]
        } else {
            parallel.to_vec()
        };
        self.lower_scope_body(consume, &mut inner_env, &inner_parallel)?;
        runtime_call(
            &mut self.body,
            &format!("func.call @sdfg_stream_consume_done({handle}) : (i64) -> ()"),
            None,
        );
        self.body.line("scf.yield");
        self.body.close("");
        self.body.close("");
        for r in consume.results() {
            self.values.insert(r, Lowered::Written);
        }
        Ok(())
    }
}
