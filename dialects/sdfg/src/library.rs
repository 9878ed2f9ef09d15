//! Library nodes' properties as DaCe stores them (JSON values kept as
//! strings by the importer), read with DaCe's defaults, and how a node's
//! operand subsets map to the logical dimensions it computes on. Both the
//! expansion into maps and tasklets and the direct lowering read them.

use std::collections::HashMap;

use crate::ir::{attr_str, dictionary_entries, Op};
use sdfg_symbolic::{Expr, Range, Subset};

/// The dimensions of `subset` that a library node's operand of `rank`
/// logical dimensions indexes: all of them, or its non-unit ones (with
/// trailing unit dimensions added to make up the rank); `None` takes the
/// non-unit ones.
pub fn logical_dims(
    subset: &Subset,
    rank: Option<usize>,
) -> std::result::Result<Vec<usize>, String> {
    let all = subset.dims();
    let sizes: Vec<Expr> = subset.ranges().iter().map(Range::size).collect();
    let non_unit: Vec<usize> = (0..all).filter(|d| sizes[*d].as_int() != Some(1)).collect();
    Ok(match rank {
        Some(r) if r == all => (0..all).collect(),
        Some(r) if r == non_unit.len() => non_unit,
        Some(r) if r > non_unit.len() && r < all => {
            // Keep the trailing unit dimensions that make up the rank.
            let mut dims = non_unit.clone();
            for d in (0..all).rev() {
                if dims.len() == r {
                    break;
                }
                if !dims.contains(&d) {
                    dims.push(d);
                }
            }
            dims.sort_unstable();
            dims
        }
        Some(r) => return Err(format!("is not {r}-dimensional")),
        None => non_unit,
    })
}

/// The kind of a library node of class `class_path` (DaCe's `classpath`):
/// its class name, where DaCe's `BatchedMatMul` (what DaCe's `MatMul`
/// specializes into for a 3-D `_b`, with the same connectors) is a
/// `MatMul`, which computes the same for those operands.
pub fn node_kind(class_path: &str) -> &str {
    match class_path.rsplit('.').next().unwrap_or_default() {
        "BatchedMatMul" => "MatMul",
        kind => kind,
    }
}

/// Whether a library node of class `class_path` (DaCe's `classpath`) is one
/// of the linear-algebra nodes DaCe implements only by calling LAPACK
/// (`dace.libraries.linalg`'s `Cholesky`, `Solve` and `Inv`, which have no
/// pure expansion): the lowering calls LAPACKE for them.
pub fn calls_lapack(class_path: &str) -> bool {
    matches!(
        class_path.rsplit('.').next(),
        Some("Cholesky" | "Solve" | "Inv")
    )
}

/// The value of a numeric scalar property of a library node.
#[derive(Clone, Debug, PartialEq)]
pub enum Scalar {
    /// A number.
    Number(f64),
    /// A symbolic expression over the SDFG's symbols (Axpy's default `a`
    /// is the symbol `a`, a floating-point symbol of the SDFG): its text,
    /// computed as C++ computes it, and the text parsed.
    Symbolic(String, Expr),
}

impl Scalar {
    /// The symbol `name` as a scalar.
    pub fn symbol(name: &str) -> Scalar {
        Scalar::Symbolic(name.to_string(), Expr::symbol(name))
    }
}

/// A library node's properties (DaCe's JSON values, kept as strings by the
/// importer).
#[derive(Clone, Default)]
pub struct Properties(HashMap<String, serde_json::Value>);

impl Properties {
    /// The properties of `node`.
    pub fn of(node: Op<'_>) -> Properties {
        Properties(
            node.attr("props")
                .map(dictionary_entries)
                .unwrap_or_default()
                .into_iter()
                .filter_map(|(k, v)| {
                    let text = attr_str(v)?;
                    let value = serde_json::from_str(text)
                        .unwrap_or(serde_json::Value::String(text.to_string()));
                    Some((k.to_string(), value))
                })
                .collect(),
        )
    }

    /// A property as text (`None` when absent or null).
    pub fn text(&self, key: &str) -> Option<String> {
        match self.0.get(key)? {
            serde_json::Value::String(s) => Some(s.clone()),
            serde_json::Value::Null => None,
            other => Some(other.to_string()),
        }
    }

    /// A numeric scalar property (`alpha`, `beta`, `a`): `default` when
    /// absent (DaCe's default, which is the symbol `a` for Axpy's `a`), a
    /// number, or a symbolic expression over the SDFG's symbols
    /// (`SymbolicProperty`), computed at run time.
    pub fn scalar(&self, key: &str, default: Scalar) -> std::result::Result<Scalar, String> {
        match self.0.get(key) {
            None | Some(serde_json::Value::Null) => Ok(default),
            Some(value) => match self.number(key) {
                Some(n) => Ok(Scalar::Number(n)),
                None => {
                    let text = self.text(key).unwrap_or_default();
                    match sdfg_symbolic::parse(&text) {
                        Ok(expr) => Ok(Scalar::Symbolic(text, expr)),
                        Err(_) => Err(format!(
                            "property `{key}` is `{value}`, neither a number nor a symbolic expression"
                        )),
                    }
                }
            },
        }
    }

    /// A numeric scalar property that must be a number (`beta`, which
    /// decides whether the output is read at all).
    pub fn number_scalar(&self, key: &str, default: f64) -> std::result::Result<f64, String> {
        match self.scalar(key, Scalar::Number(default))? {
            Scalar::Number(n) => Ok(n),
            Scalar::Symbolic(text, _) => Err(format!(
                "property `{key}` is the symbolic value `{text}`, which the lowering needs as a number"
            )),
        }
    }

    /// A numeric property.
    pub fn number(&self, key: &str) -> Option<f64> {
        match self.0.get(key)? {
            serde_json::Value::Number(n) => n.as_f64(),
            serde_json::Value::String(s) => s.trim().trim_matches('"').parse().ok(),
            serde_json::Value::Bool(b) => Some(f64::from(u8::from(*b))),
            _ => None,
        }
    }

    /// A boolean property (false when absent).
    pub fn flag(&self, key: &str) -> bool {
        match self.0.get(key) {
            Some(serde_json::Value::Bool(b)) => *b,
            Some(serde_json::Value::String(s)) => s == "True" || s == "true",
            _ => false,
        }
    }

    /// The reduction axes of a `Reduce` over `n` dimensions (all by
    /// default).
    pub fn axes(&self, n: usize) -> Vec<usize> {
        match self.0.get("axes") {
            Some(serde_json::Value::Array(v)) => v
                .iter()
                .filter_map(|x| x.as_u64())
                .map(|x| x as usize)
                .collect(),
            Some(serde_json::Value::String(s)) => {
                serde_json::from_str::<Vec<usize>>(s).unwrap_or_else(|_| (0..n).collect())
            }
            _ => (0..n).collect(),
        }
    }
}
