//! Debug information, code blocks and DaCe type classes.

use std::fmt;

use indexmap::IndexMap;
use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::enums::Language;
use crate::tagged::{unknown, visit_tagged, TaggedEnum};
use crate::util::SymExpr;

/// Source location of an element (`dace.dtypes.DebugInfo`), written as
/// `{"type": "DebugInfo", "start_line": .., "filename": ..}`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, serde::Deserialize)]
#[serde(tag = "type", rename = "DebugInfo")]
pub struct DebugInfo {
    /// First line.
    #[serde(default)]
    pub start_line: i64,
    /// Last line.
    #[serde(default)]
    pub end_line: i64,
    /// First column.
    #[serde(default)]
    pub start_column: i64,
    /// Last column.
    #[serde(default)]
    pub end_column: i64,
    /// Source file, if known.
    #[serde(default)]
    pub filename: Option<String>,
}

/// A piece of code with its language (`dace.properties.CodeBlock`), written as
/// `{"string_data": "...", "language": "Python"}`.
///
/// A missing `string_data` reads as empty and a missing `language` as Python,
/// as in DaCe.
#[derive(Debug, Clone, PartialEq, Default, Serialize, serde::Deserialize)]
pub struct CodeBlock {
    /// The code text.
    #[serde(default)]
    pub string_data: String,
    /// The code's language.
    #[serde(default)]
    pub language: Language,
    /// Properties this model does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl CodeBlock {
    /// A code block with no unknown properties.
    pub fn new(code: impl Into<String>, language: Language) -> Self {
        Self {
            string_data: code.into(),
            language,
            extra: Map::new(),
        }
    }

    pub(crate) fn python_true() -> Self {
        Self::new("1", Language::Python)
    }

    pub(crate) fn is_python_true(&self) -> bool {
        *self == Self::python_true()
    }

    pub(crate) fn cpp_true() -> Self {
        Self::new("1", Language::Cpp)
    }

    pub(crate) fn is_cpp_true(&self) -> bool {
        *self == Self::cpp_true()
    }

    pub(crate) fn empty_python() -> Self {
        Self::new("", Language::Python)
    }

    pub(crate) fn is_empty_python(&self) -> bool {
        *self == Self::empty_python()
    }

    pub(crate) fn empty_cpp() -> Self {
        Self::new("", Language::Cpp)
    }

    pub(crate) fn is_empty_cpp(&self) -> bool {
        *self == Self::empty_cpp()
    }
}

/// Connectors of a node: name to optional type class (`null` means untyped).
pub type Connectors = IndexMap<String, Option<DType>>;

/// An SDFG's compile-time constants: name to `[descriptor, value]`.
pub type Constants = IndexMap<String, (crate::DataDescriptor, Value)>;

/// A DaCe type class (`dace.dtypes.typeclass` and its subclasses).
///
/// Basic types are written as their name (`"float64"`, `"int32"`, `"bool"`);
/// compound types are objects tagged by `"type"`. An object with an unknown
/// `"type"` is kept whole in [`DType::Other`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type")]
pub enum DType {
    /// `{"type": "pointer", "dtype": ..}`.
    #[serde(rename = "pointer")]
    Pointer(PointerType),
    /// `{"type": "vector", "dtype": .., "elements": ".."}`.
    #[serde(rename = "vector")]
    Vector(VectorType),
    /// `{"type": "struct", "name": .., "data": [[field, type], ..], ..}`.
    #[serde(rename = "struct")]
    Struct(StructType),
    /// `{"type": "callback", "arguments": [..], "returntypes": [..]}`.
    #[serde(rename = "callback")]
    Callback(CallbackType),
    /// `{"type": "opaque", "ctype": ".."}`.
    #[serde(rename = "opaque")]
    Opaque(OpaqueType),
    /// `{"type": "string"}`.
    #[serde(rename = "string")]
    String(TypeBody),
    /// A basic type by name, such as `"float64"`.
    #[serde(untagged)]
    Basic(String),
    /// A type object of an unknown `"type"`, kept whole.
    #[serde(untagged)]
    Other(Map<String, Value>),
}

impl DType {
    /// A basic type by name.
    pub fn basic(name: impl Into<String>) -> Self {
        Self::Basic(name.into())
    }

    /// DaCe's default element type of a data descriptor: `int32`.
    pub fn default_element() -> Self {
        Self::basic("int32")
    }

    pub(crate) fn is_default_element(&self) -> bool {
        matches!(self, Self::Basic(name) if name == "int32")
    }
}

/// The body of a type object with no fields of its own.
#[derive(Debug, Clone, PartialEq, Default, Serialize, serde::Deserialize)]
pub struct TypeBody {
    /// Properties this model does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A pointer type.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct PointerType {
    /// The pointee type; `null` is an untyped (`void`) pointer.
    #[serde(default)]
    pub dtype: Option<Box<DType>>,
    /// Properties this model does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A short vector type.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct VectorType {
    /// The element type.
    pub dtype: Box<DType>,
    /// The number of elements.
    pub elements: SymExpr,
    /// Properties this model does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A struct type.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct StructType {
    /// The struct's name.
    pub name: String,
    /// Fields in order: `[name, type]` pairs.
    #[serde(default)]
    pub data: Vec<(String, DType)>,
    /// Array fields' length fields: `[name, length]` pairs.
    #[serde(default)]
    pub length: Vec<(String, Value)>,
    /// Size in bytes.
    #[serde(default)]
    pub bytes: i64,
    /// Properties this model does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A callback (function pointer) type.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct CallbackType {
    /// Argument types (`null` for untyped).
    #[serde(default)]
    pub arguments: Vec<Option<DType>>,
    /// Return types (`null` for untyped).
    #[serde(default)]
    pub returntypes: Vec<Option<DType>>,
    /// Properties this model does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// An opaque C type.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct OpaqueType {
    /// The C type's text.
    pub ctype: String,
    /// Properties this model does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl TaggedEnum for DType {
    const EXPECTING: &'static str = "a type name or a type object";

    fn from_body<'de, D: Deserializer<'de>>(tag: &str, body: D) -> Result<Self, D::Error> {
        Ok(match tag {
            "pointer" => Self::Pointer(Deserialize::deserialize(body)?),
            "vector" => Self::Vector(Deserialize::deserialize(body)?),
            "struct" => Self::Struct(Deserialize::deserialize(body)?),
            "callback" => Self::Callback(Deserialize::deserialize(body)?),
            "opaque" => Self::Opaque(Deserialize::deserialize(body)?),
            "string" => Self::String(Deserialize::deserialize(body)?),
            _ => Self::Other(unknown(tag, body)?),
        })
    }
}

struct DTypeVisitor;

impl<'de> Visitor<'de> for DTypeVisitor {
    type Value = DType;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(DType::EXPECTING)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<DType, E> {
        Ok(DType::Basic(v.to_owned()))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<DType, A::Error> {
        visit_tagged(map)
    }
}

impl<'de> Deserialize<'de> for DType {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(DTypeVisitor)
    }
}
