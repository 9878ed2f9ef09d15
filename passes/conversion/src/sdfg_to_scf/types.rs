//! Data containers and value conversions as the lowering sees them (the
//! element types and layouts are the dialect's, [`sdfg_dialect::layout`]).

use sdfg_dialect::layout::{float_width, int_width, is_float, lane, lanes, part};
pub(crate) use sdfg_dialect::layout::{layout, Elem, Layout};
use sdfg_symbolic::Expr;

use super::text::Body;

/// Emits the constant zero of type `ty` (a splat for a vector, `0 + 0i`
/// for a complex number).
pub(crate) fn zero(body: &mut Body, ty: &str) -> String {
    if let Some(part) = part(ty) {
        return body.assign(format!(
            "complex.constant [0.0 : {part}, 0.0 : {part}] : {ty}"
        ));
    }
    let value = if is_float(ty) { "0.0" } else { "0" };
    if lanes(ty).is_some() {
        body.assign(format!("arith.constant dense<{value}> : {ty}"))
    } else {
        body.assign(format!("arith.constant {value} : {ty}"))
    }
}

/// Converts `value` of type `from` to type `to` the way C converts
/// (implicit conversions in DaCe's generated code). A scalar converts to a
/// vector by conversion to its lane type and a splat, as `dace::vec`
/// does; vectors convert lane by lane to vectors of as many lanes. A real
/// number converts to a complex one with a zero imaginary part, and
/// complex numbers convert part by part, as `std::complex` does. Any other
/// conversion involving a vector or a complex number is an error, as in
/// C++.
pub(crate) fn convert(
    body: &mut Body,
    value: &str,
    from: &Elem,
    to: &str,
) -> Result<String, String> {
    let f = from.ty.as_str();
    if f == to {
        return Ok(value.to_string());
    }
    match (part(f), part(to)) {
        (None, None) => {}
        (Some(from_part), Some(to_part)) => {
            let from_part = Elem {
                ty: from_part.to_string(),
                unsigned: false,
            };
            let re = body.assign(format!("complex.re {value} : {f}"));
            let im = body.assign(format!("complex.im {value} : {f}"));
            let re = convert_lanes(body, &re, &from_part, to_part);
            let im = convert_lanes(body, &im, &from_part, to_part);
            return Ok(body.assign(format!("complex.create {re}, {im} : {to}")));
        }
        (None, Some(to_part)) if lanes(f).is_none() => {
            let re = convert_lanes(body, value, from, to_part);
            let im = zero(body, to_part);
            return Ok(body.assign(format!("complex.create {re}, {im} : {to}")));
        }
        _ => return Err(format!("a value of type {f} cannot be converted to {to}")),
    }
    match (lanes(f), lanes(to)) {
        (None, None) => Ok(convert_lanes(body, value, from, to)),
        (Some((n, _)), Some((m, _))) if n == m => Ok(convert_lanes(body, value, from, to)),
        (None, Some((_, lane))) => {
            let v = convert_lanes(body, value, from, lane);
            Ok(body.assign(format!("vector.broadcast {v} : {lane} to {to}")))
        }
        _ => Err(format!("a value of type {f} cannot be converted to {to}")),
    }
}

/// [`convert`] between scalars, or lane by lane between vectors of as
/// many lanes (the `arith` casts take vectors).
pub(crate) fn convert_lanes(body: &mut Body, value: &str, from: &Elem, to: &str) -> String {
    let f = from.ty.as_str();
    if f == to {
        return value.to_string();
    }
    let unsigned = from.unsigned || lane(f) == "i1";
    match (is_float(f), is_float(to)) {
        (true, true) => {
            let op = if float_width(f) < float_width(to) {
                "extf"
            } else {
                "truncf"
            };
            body.assign(format!("arith.{op} {value} : {f} to {to}"))
        }
        (false, true) => {
            let op = if unsigned { "uitofp" } else { "sitofp" };
            if f == "index" {
                let wide = body.assign(format!("arith.index_cast {value} : index to i64"));
                return body.assign(format!("arith.sitofp {wide} : i64 to {to}"));
            }
            body.assign(format!("arith.{op} {value} : {f} to {to}"))
        }
        (true, false) => {
            if lane(to) == "i1" {
                let zero = zero(body, f);
                return body.assign(format!("arith.cmpf une, {value}, {zero} : {f}"));
            }
            if to == "index" {
                let wide = body.assign(format!("arith.fptosi {value} : {f} to i64"));
                return body.assign(format!("arith.index_cast {wide} : i64 to index"));
            }
            body.assign(format!("arith.fptosi {value} : {f} to {to}"))
        }
        (false, false) => {
            if lane(to) == "i1" {
                let zero = zero(body, f);
                return body.assign(format!("arith.cmpi ne, {value}, {zero} : {f}"));
            }
            if f == "index" || to == "index" {
                let op = if unsigned {
                    "index_castui"
                } else {
                    "index_cast"
                };
                return body.assign(format!("arith.{op} {value} : {f} to {to}"));
            }
            let (wf, wt) = (int_width(f).unwrap_or(64), int_width(to).unwrap_or(64));
            let op = if wf > wt {
                "trunci"
            } else if unsigned {
                "extui"
            } else {
                "extsi"
            };
            body.assign(format!("arith.{op} {value} : {f} to {to}"))
        }
    }
}

/// A data container as the lowered code holds it: a scalar is a rank-0
/// memref, every array, view and nested-SDFG argument a flat `memref<?xT>`
/// indexed through the container's own symbolic strides and offsets, plus
/// an optional base (the start of a view or of a nested SDFG's subset).
#[derive(Clone, Debug)]
pub(crate) struct Data {
    /// The DaCe name.
    pub name: String,
    /// The SSA value of the memref.
    pub memref: String,
    /// The element type.
    pub elem: Elem,
    /// Whether the memref is rank 0.
    pub scalar: bool,
    /// Symbolic sizes.
    pub shape: Vec<Expr>,
    /// Symbolic strides, in elements.
    pub strides: Vec<Expr>,
    /// Symbolic per-dimension index offsets (DaCe's `offset`).
    pub offsets: Vec<Expr>,
    /// The SSA `index` added to every linear index.
    pub base: Option<String>,
    /// Whether other parallel iterations may write the same memory (the
    /// arguments of a nested SDFG called inside a parallel loop): write
    /// conflicts on it are resolved atomically.
    pub shared: bool,
    /// Whether this is a stream (or an array of streams): `memref` then
    /// holds one runtime queue handle (`i64`) per stream, laid out by
    /// `shape`/`strides`, and `elem` is the type of the queued elements.
    pub stream: bool,
    /// For a reference: the variables that hold where it points.
    pub reference: Option<ReferenceVars>,
    /// Whether it is declared in GPU global memory (`GPU_Global`), which
    /// `convert-sdfg-to-gpu` allocates on the device.
    pub gpu_global: bool,
    /// Whether it is declared in host memory (`CPU_Heap`, `CPU_Pinned`,
    /// `CPU_ThreadLocal`), which GPU kernels cannot access.
    pub host_only: bool,
}

/// Where a reference points: the index of its target among `targets` and
/// the linear index of the target's element it starts at, each in a
/// `memref<index>` variable (promoted to registers by `mem2reg`).
#[derive(Clone, Debug)]
pub(crate) struct ReferenceVars {
    /// The `memref<index>` holding the target's position in `targets`.
    pub selector: String,
    /// The `memref<index>` holding the base index into the target.
    pub base: String,
    /// The containers the SDFG ever points the reference at.
    pub targets: Vec<String>,
}

impl Data {
    /// A transient of `layout` held in `memref` (empty for a view, which
    /// its access nodes bind).
    pub(crate) fn new(name: String, memref: String, layout: Layout) -> Data {
        Data {
            name,
            memref,
            elem: layout.elem,
            scalar: layout.scalar,
            shape: layout.shape,
            strides: layout.strides,
            offsets: layout.offsets,
            base: None,
            shared: false,
            stream: layout.stream,
            reference: None,
            gpu_global: layout.storage.name() == "GPU_Global",
            host_only: matches!(
                layout.storage.name(),
                "CPU_Heap" | "CPU_Pinned" | "CPU_ThreadLocal"
            ),
        }
    }

    /// The memref type of `memref`.
    pub(crate) fn memref_type(&self) -> String {
        memref_type(&self.elem, self.scalar, self.stream)
    }
}

/// `memref<T>`, `memref<?xT>`, or for streams `memref<?xi64>` (handles).
pub(crate) fn memref_type(elem: &Elem, scalar: bool, stream: bool) -> String {
    if stream {
        "memref<?xi64>".into()
    } else if scalar {
        format!("memref<{}>", elem.ty)
    } else {
        format!("memref<?x{}>", elem.ty)
    }
}
