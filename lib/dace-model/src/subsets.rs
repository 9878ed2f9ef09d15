//! Subsets (`dace.subsets`): `Range` and the older `Indices` form.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use crate::tagged::{deserialize_tagged, strip_indices, strip_range, unknown, TaggedEnum};
use crate::util::{expr_one, SymExpr};

/// A subset of a data container, tagged by `"type"` (the variants write
/// their own tag).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Subset {
    /// `{"type": "Range", "ranges": [..]}`.
    Range(Range),
    /// `{"type": "Indices", "indices": [..]}`: one element per dimension
    /// (the pre-`Range` form, still written by DaCe for some memlets).
    Indices(Indices),
    /// A subset of an unknown `"type"`, kept whole.
    Other(Map<String, Value>),
}

/// A multi-dimensional strided range: one [`RangeDim`] per dimension.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(tag = "type", rename = "Range")]
pub struct Range {
    /// The dimensions.
    pub ranges: Vec<RangeDim>,
    /// Properties this model does not know.
    #[serde(flatten, deserialize_with = "strip_range")]
    pub extra: Map<String, Value>,
}

/// One dimension of a [`Range`]: `start:end:step` with `end` inclusive, and a
/// tile size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RangeDim {
    /// First index.
    pub start: RangeExpr,
    /// Last index (inclusive).
    pub end: RangeExpr,
    /// Stride; DaCe's default is `1`.
    #[serde(default = "one_expr")]
    pub step: RangeExpr,
    /// Tile size; DaCe's default is `1`.
    #[serde(default = "one_expr")]
    pub tile: RangeExpr,
}

fn one_expr() -> RangeExpr {
    RangeExpr::Expr(expr_one())
}

/// One bound of a [`RangeDim`]: an expression, or DaCe's `SymExpr` pair of an
/// exact expression and an approximation (`{"main": .., "approx": ..}`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum RangeExpr {
    /// A plain expression.
    Expr(SymExpr),
    /// An exact expression with an approximation.
    Approx {
        /// The exact expression.
        main: SymExpr,
        /// Its approximation.
        approx: SymExpr,
    },
}

impl RangeExpr {
    /// The exact expression.
    pub fn main(&self) -> &SymExpr {
        match self {
            Self::Expr(e) | Self::Approx { main: e, .. } => e,
        }
    }
}

#[derive(Deserialize)]
struct ApproxRepr {
    main: SymExpr,
    approx: SymExpr,
}

impl<'de> Deserialize<'de> for RangeExpr {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = RangeExpr;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an expression or {\"main\": .., \"approx\": ..}")
            }

            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<RangeExpr, E> {
                Ok(RangeExpr::Expr(SymExpr::new(v)))
            }

            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<RangeExpr, E> {
                Ok(RangeExpr::Expr(SymExpr::from(v)))
            }

            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<RangeExpr, E> {
                Ok(RangeExpr::Expr(SymExpr::new(v.to_string())))
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<RangeExpr, A::Error> {
                let r = ApproxRepr::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(RangeExpr::Approx {
                    main: r.main,
                    approx: r.approx,
                })
            }
        }
        d.deserialize_any(V)
    }
}

/// A single element: one index per dimension.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(tag = "type", rename = "Indices")]
pub struct Indices {
    /// The index of each dimension.
    pub indices: Vec<SymExpr>,
    /// Properties this model does not know.
    #[serde(flatten, deserialize_with = "strip_indices")]
    pub extra: Map<String, Value>,
}

impl TaggedEnum for Subset {
    const EXPECTING: &'static str = "a subset object";

    fn from_body<'de, D: Deserializer<'de>>(tag: &str, body: D) -> Result<Self, D::Error> {
        Ok(match tag {
            "Range" => Self::Range(Deserialize::deserialize(body)?),
            "Indices" => Self::Indices(Deserialize::deserialize(body)?),
            _ => Self::Other(unknown(tag, body)?),
        })
    }
}

deserialize_tagged!(Subset);
