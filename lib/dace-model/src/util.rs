//! Small shared value types and the serde helpers for DaCe's defaults.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::ser::{Serialize, Serializer};

/// A symbolic expression as DaCe writes it: a SymPy-printable string such as
/// `"N - 1"` or `"2*i + 1"`.
///
/// Integers and floats in the JSON are accepted and kept as their decimal
/// text; the expression is always written back as a string.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct SymExpr(pub String);

impl SymExpr {
    /// Creates an expression from its text.
    pub fn new(text: impl Into<String>) -> Self {
        Self(text.into())
    }

    /// The expression's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SymExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for SymExpr {
    fn from(s: &str) -> Self {
        Self(s.to_owned())
    }
}

impl From<String> for SymExpr {
    fn from(s: String) -> Self {
        Self(s)
    }
}

impl From<i64> for SymExpr {
    fn from(v: i64) -> Self {
        Self(v.to_string())
    }
}

impl Serialize for SymExpr {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

struct SymExprVisitor;

impl Visitor<'_> for SymExprVisitor {
    type Value = SymExpr;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a symbolic expression (string or number)")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<SymExpr, E> {
        Ok(SymExpr(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<SymExpr, E> {
        Ok(SymExpr(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<SymExpr, E> {
        Ok(SymExpr(v.to_string()))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<SymExpr, E> {
        Ok(SymExpr(v.to_string()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<SymExpr, E> {
        serde_json::Number::from_f64(v)
            .map(|n| SymExpr(n.to_string()))
            .ok_or_else(|| E::custom("non-finite number in a symbolic expression"))
    }
}

impl<'de> Deserialize<'de> for SymExpr {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(SymExprVisitor)
    }
}

/// Serde for node indices that DaCe writes as decimal strings (`"3"`); plain
/// integers are accepted too.
pub(crate) mod index_str {
    use super::*;

    struct IndexVisitor;

    impl Visitor<'_> for IndexVisitor {
        type Value = usize;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a node index (decimal string or non-negative integer)")
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<usize, E> {
            v.trim()
                .parse()
                .map_err(|_| E::custom(format_args!("invalid node index {v:?}")))
        }

        fn visit_u64<E: de::Error>(self, v: u64) -> Result<usize, E> {
            usize::try_from(v).map_err(|_| E::custom(format_args!("node index {v} too large")))
        }

        fn visit_i64<E: de::Error>(self, v: i64) -> Result<usize, E> {
            usize::try_from(v).map_err(|_| E::custom(format_args!("invalid node index {v}")))
        }
    }

    pub(crate) fn serialize<S: Serializer>(v: &usize, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(v)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
        d.deserialize_any(IndexVisitor)
    }

    /// The same for an optional index written as a string or `null`.
    pub(crate) mod opt {
        use super::*;

        pub(crate) fn serialize<S: Serializer>(v: &Option<usize>, s: S) -> Result<S::Ok, S::Error> {
            match v {
                Some(v) => s.collect_str(v),
                None => s.serialize_none(),
            }
        }

        struct OptVisitor;

        impl<'de> Visitor<'de> for OptVisitor {
            type Value = Option<usize>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a node index or null")
            }

            fn visit_none<E: de::Error>(self) -> Result<Option<usize>, E> {
                Ok(None)
            }

            fn visit_unit<E: de::Error>(self) -> Result<Option<usize>, E> {
                Ok(None)
            }

            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<usize>, D::Error> {
                super::deserialize(d).map(Some)
            }
        }

        pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
            d: D,
        ) -> Result<Option<usize>, D::Error> {
            d.deserialize_option(OptVisitor)
        }
    }
}

pub(crate) fn is_false(v: &bool) -> bool {
    !*v
}

pub(crate) fn is_true(v: &bool) -> bool {
    *v
}

pub(crate) fn default_true() -> bool {
    true
}

pub(crate) fn is_zero(v: &i64) -> bool {
    *v == 0
}

pub(crate) fn one() -> i64 {
    1
}

pub(crate) fn is_one(v: &i64) -> bool {
    *v == 1
}

pub(crate) fn expr_zero() -> SymExpr {
    SymExpr::new("0")
}

pub(crate) fn is_expr_zero(v: &SymExpr) -> bool {
    v.0 == "0"
}

pub(crate) fn expr_one() -> SymExpr {
    SymExpr::new("1")
}

pub(crate) fn is_expr_one(v: &SymExpr) -> bool {
    v.0 == "1"
}
