//! Element types and container layouts as the passes and lowerings read
//! them from the dialect's types: a signless element type with its
//! signedness ([`Elem`]) and a container's symbolic shape, strides and
//! offsets ([`Layout`]).

use crate::ir::type_to_string;
use crate::{Container, ContainerKind};
use sdfg_symbolic::{parse, Expr};

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
}

/// `(lanes, lane type)` of a `vector<NxT>` type.
pub fn lanes(ty: &str) -> Option<(u64, &str)> {
    let (n, lane) = ty
        .strip_prefix("vector<")?
        .strip_suffix('>')?
        .split_once('x')?;
    Some((n.parse().ok()?, lane))
}

/// The type of the real and imaginary parts of a `complex<T>` type.
pub fn part(ty: &str) -> Option<&str> {
    ty.strip_prefix("complex<")?.strip_suffix('>')
}

/// The lane type of a vector type, else the type itself.
pub fn lane(ty: &str) -> &str {
    lanes(ty).map_or(ty, |(_, lane)| lane)
}

/// Whether `ty` is a floating-point type (or a vector of one).
pub fn is_float(ty: &str) -> bool {
    matches!(lane(ty), "f16" | "bf16" | "f32" | "f64")
}

/// The width of an integer type (or of a vector's lanes); `index` is 64 bits.
pub fn int_width(ty: &str) -> Option<u32> {
    match lane(ty) {
        "index" => Some(64),
        t => t.strip_prefix('i').and_then(|w| w.parse().ok()),
    }
}

/// The width of a floating-point type (or of a vector's lanes).
pub fn float_width(ty: &str) -> u32 {
    match lane(ty) {
        "f16" | "bf16" => 16,
        "f32" => 32,
        _ => 64,
    }
}

/// What passes and lowerings need of a container type: element,
/// scalar-ness and symbolic layout.
#[derive(Clone, Debug)]
pub struct Layout {
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
    /// Where it lives (`GPU_Global` memory is not addressable by the host).
    pub storage: crate::Storage,
}

fn exprs(texts: &[String]) -> Result<Vec<Expr>, String> {
    texts
        .iter()
        .map(|t| parse(t).map_err(|e| format!("invalid expression `{t}`: {e}")))
        .collect()
}

/// Reads the layout of a container type.
pub fn layout(ty: mlir_sys::MlirType) -> Result<Layout, String> {
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
        storage: container.storage,
    })
}
