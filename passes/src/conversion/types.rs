//! Element types, data containers and value conversions as the lowering
//! sees them.

use sdfg_dialect::ir::type_to_string;
use sdfg_dialect::{Container, ContainerKind};
use sdfg_symbolic::{parse, Expr};

use super::text::Body;

/// A signless MLIR element type and whether DaCe's type was unsigned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Elem {
    /// `f64`, `i32`, `i1`, `index`, ...
    pub ty: String,
    /// Whether the DaCe type was unsigned (integers only).
    pub unsigned: bool,
}

impl Elem {
    /// Reads a builtin element type (`ui32` becomes signless `i32`; DaCe's
    /// `complex64` and `complex128` are `complex<f32>` and `complex<f64>`),
    /// or a 1-D vector of a power-of-two number of integers or floats (DaCe's
    /// `vector` types, `dace::vec<T, N>`, laid out as `N` elements).
    pub fn parse(text: &str) -> Result<Elem, String> {
        let t = text.trim();
        if let Some(inner) = t.strip_prefix("vector<").and_then(|r| r.strip_suffix('>')) {
            let lane = inner
                .split_once('x')
                .filter(|(n, _)| n.parse::<u32>().is_ok_and(u32::is_power_of_two))
                .map(|(n, lane)| (n, Elem::parse(lane)));
            return match lane {
                Some((n, Ok(lane)))
                    if !matches!(lane.ty.as_str(), "index" | "i1")
                        && lane.lanes().is_none()
                        && !lane.is_complex() =>
                {
                    Ok(Elem {
                        ty: format!("vector<{n}x{}>", lane.ty),
                        unsigned: lane.unsigned,
                    })
                }
                _ => Err(format!("element type `{t}` cannot be lowered yet")),
            };
        }
        if let Some(width) = t.strip_prefix("ui") {
            if width.parse::<u32>().is_ok() {
                return Ok(Elem {
                    ty: format!("i{width}"),
                    unsigned: true,
                });
            }
        }
        if let Some(width) = t.strip_prefix("si") {
            if width.parse::<u32>().is_ok() {
                return Ok(Elem {
                    ty: format!("i{width}"),
                    unsigned: false,
                });
            }
        }
        let ok = matches!(
            t,
            "f16" | "bf16" | "f32" | "f64" | "index" | "complex<f32>" | "complex<f64>"
        ) || t
            .strip_prefix('i')
            .is_some_and(|w| w.parse::<u32>().is_ok());
        if ok {
            Ok(Elem {
                ty: t.to_string(),
                unsigned: false,
            })
        } else {
            Err(format!("element type `{t}` cannot be lowered yet"))
        }
    }

    /// Whether this is a floating-point type (or a vector of one).
    pub fn is_float(&self) -> bool {
        is_float(&self.ty)
    }

    /// Whether this is a complex type.
    pub fn is_complex(&self) -> bool {
        part(&self.ty).is_some()
    }

    /// For a vector type, its number of lanes and the type of a lane.
    pub fn lanes(&self) -> Option<(u64, Elem)> {
        let (n, lane) = lanes(&self.ty)?;
        Some((
            n,
            Elem {
                ty: lane.to_string(),
                unsigned: self.unsigned,
            },
        ))
    }

    /// The size of one element in memory, as the `llvm` lowering lays it
    /// out (`i1` takes a byte; `None` for `index`).
    pub fn bytes(&self) -> Option<u64> {
        if let Some(part) = part(&self.ty) {
            return Some(2 * u64::from(float_width(part) / 8));
        }
        let (n, lane) = lanes(&self.ty).unwrap_or((1, &self.ty));
        let bits = match lane {
            "f16" | "bf16" => 16,
            "f32" => 32,
            "f64" => 64,
            "index" => return None,
            t => t.strip_prefix('i')?.parse::<u64>().ok()?,
        };
        Some(n * bits.div_ceil(8).next_power_of_two())
    }

    /// Emits the constant zero of this type (a splat for a vector, `0 + 0i`
    /// for a complex number).
    pub(crate) fn zero(&self, body: &mut Body) -> String {
        zero(body, &self.ty)
    }
}

/// `(lanes, lane type)` of a `vector<NxT>` type.
fn lanes(ty: &str) -> Option<(u64, &str)> {
    let (n, lane) = ty
        .strip_prefix("vector<")?
        .strip_suffix('>')?
        .split_once('x')?;
    Some((n.parse().ok()?, lane))
}

/// The type of the real and imaginary parts of a `complex<T>` type.
fn part(ty: &str) -> Option<&str> {
    ty.strip_prefix("complex<")?.strip_suffix('>')
}

/// The lane type of a vector type, else the type itself.
fn lane(ty: &str) -> &str {
    lanes(ty).map_or(ty, |(_, lane)| lane)
}

fn is_float(ty: &str) -> bool {
    matches!(lane(ty), "f16" | "bf16" | "f32" | "f64")
}

fn int_width(ty: &str) -> Option<u32> {
    match lane(ty) {
        "index" => Some(64),
        t => t.strip_prefix('i').and_then(|w| w.parse().ok()),
    }
}

fn zero(body: &mut Body, ty: &str) -> String {
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

fn float_width(ty: &str) -> u32 {
    match lane(ty) {
        "f16" | "bf16" => 16,
        "f32" => 32,
        _ => 64,
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

/// What the lowering needs of a container type: element, scalar-ness and
/// symbolic layout. Structures are refused.
#[derive(Clone)]
pub(crate) struct Layout {
    /// The element type.
    pub elem: Elem,
    /// Whether it is a scalar.
    pub scalar: bool,
    /// Symbolic sizes.
    pub shape: Vec<Expr>,
    /// Symbolic strides.
    pub strides: Vec<Expr>,
    /// Symbolic offsets.
    pub offsets: Vec<Expr>,
    /// Whether it is a view.
    pub view: bool,
    /// Whether it is a stream (its shape is the shape of the stream array,
    /// `[1]` for a single stream).
    pub stream: bool,
    /// Whether it is a reference.
    pub reference: bool,
}

fn exprs(texts: &[String]) -> Result<Vec<Expr>, String> {
    texts
        .iter()
        .map(|t| parse(t).map_err(|e| format!("invalid expression `{t}`: {e}")))
        .collect()
}

/// Reads the layout of a container type.
pub(crate) fn layout(ty: mlir_sys::MlirType) -> Result<Layout, String> {
    let container = Container::from_type(ty)
        .ok_or_else(|| format!("`{}` is not a data container type", type_to_string(ty)))?;
    let kind = container.kind;
    match kind {
        ContainerKind::Array | ContainerKind::View | ContainerKind::Scalar => {}
        ContainerKind::Stream | ContainerKind::Reference => {}
        ContainerKind::Structure => {
            return Err(
                "a whole structure cannot be lowered as one container, only through its members"
                    .into(),
            )
        }
    }
    let elem = Elem::parse(&type_to_string(container.element.0))?;
    let stream = kind == ContainerKind::Stream;
    let mut shape = exprs(&container.shape)?;
    if stream && shape.is_empty() {
        shape.push(Expr::int(1));
    }
    let strides = match &container.strides {
        Some(s) => exprs(s)?,
        None => {
            let mut strides = vec![Expr::int(1); shape.len()];
            for i in (0..shape.len().saturating_sub(1)).rev() {
                strides[i] = Expr::mul(&strides[i + 1], &shape[i + 1]);
            }
            strides
        }
    };
    let offsets = match &container.offset {
        Some(o) => exprs(o)?,
        None => vec![Expr::int(0); shape.len()],
    };
    Ok(Layout {
        elem,
        scalar: kind == ContainerKind::Scalar,
        shape,
        strides,
        offsets,
        view: kind == ContainerKind::View,
        stream,
        reference: kind == ContainerKind::Reference,
    })
}
