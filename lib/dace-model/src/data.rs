//! Data descriptors (`dace.data`): the containers in an SDFG's `_arrays`.

use std::fmt;

use indexmap::IndexMap;
use serde::de::{self, Deserialize, Deserializer, SeqAccess, Visitor};
use serde::ser::{SerializeTuple, Serializer};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::enums::{AllocationLifetime, StorageType};
use crate::tagged::{deserialize_tagged, unknown, TaggedEnum};
use crate::types::{DType, DebugInfo};
use crate::util::{expr_zero, is_expr_zero, is_false, is_zero, SymExpr};

/// A data descriptor, tagged by `"type"`.
///
/// The pre-1.0 names `View` and `Reference` read as [`DataDescriptor::ArrayView`]
/// and [`DataDescriptor::ArrayReference`] and are written back under the
/// current names.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type")]
pub enum DataDescriptor {
    /// A scalar.
    Scalar(Descriptor<ScalarAttributes>),
    /// A multi-dimensional array.
    Array(Descriptor<ArrayAttributes>),
    /// A view of (part of) another array.
    ArrayView(Descriptor<ArrayAttributes>),
    /// A reference (pointer) to an array, set by reference-setting memlets.
    ArrayReference(Descriptor<ArrayAttributes>),
    /// An array of nested data containers (`stype`).
    ContainerArray(Descriptor<ArrayAttributes>),
    /// A view of a container array.
    ContainerView(Descriptor<ArrayAttributes>),
    /// A reference to a container array.
    ContainerArrayReference(Descriptor<ArrayAttributes>),
    /// A stream (queue).
    Stream(Descriptor<StreamAttributes>),
    /// A structure with named members.
    Structure(Descriptor<StructureAttributes>),
    /// A view of a structure.
    StructureView(Descriptor<StructureAttributes>),
    /// A reference to a structure.
    StructureReference(Descriptor<StructureAttributes>),
    /// A descriptor of an unknown `"type"`, kept whole.
    #[serde(untagged)]
    Other(Map<String, Value>),
}

/// A data descriptor object: its properties under `"attributes"`.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Descriptor<A> {
    /// The descriptor's properties.
    pub attributes: A,
    /// Keys this model does not know, next to `"attributes"`.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl<A> Descriptor<A> {
    /// A descriptor with the given properties.
    pub fn new(attributes: A) -> Self {
        Self {
            attributes,
            extra: Map::new(),
        }
    }
}

impl TaggedEnum for DataDescriptor {
    const EXPECTING: &'static str = "a data descriptor object";

    fn from_body<'de, D: Deserializer<'de>>(tag: &str, body: D) -> Result<Self, D::Error> {
        let de = |b| Deserialize::deserialize(b);
        Ok(match tag {
            "Scalar" => Self::Scalar(Deserialize::deserialize(body)?),
            "Array" => Self::Array(de(body)?),
            "ArrayView" | "View" => Self::ArrayView(de(body)?),
            "ArrayReference" | "Reference" => Self::ArrayReference(de(body)?),
            "ContainerArray" => Self::ContainerArray(de(body)?),
            "ContainerView" => Self::ContainerView(de(body)?),
            "ContainerArrayReference" => Self::ContainerArrayReference(de(body)?),
            "Stream" => Self::Stream(Deserialize::deserialize(body)?),
            "Structure" => Self::Structure(Deserialize::deserialize(body)?),
            "StructureView" => Self::StructureView(Deserialize::deserialize(body)?),
            "StructureReference" => Self::StructureReference(Deserialize::deserialize(body)?),
            _ => Self::Other(unknown(tag, body)?),
        })
    }
}

deserialize_tagged!(DataDescriptor);

/// The properties every descriptor has, by reference.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CommonData<'a> {
    /// Element type.
    pub dtype: &'a DType,
    /// Shape.
    pub shape: &'a [SymExpr],
    /// Whether the SDFG owns the container.
    pub transient: bool,
    /// Storage location.
    pub storage: &'a StorageType,
    /// Allocation lifetime.
    pub lifetime: &'a AllocationLifetime,
}

impl DataDescriptor {
    /// The `"type"` this descriptor is written with.
    pub fn type_name(&self) -> &str {
        match self {
            Self::Scalar(_) => "Scalar",
            Self::Array(_) => "Array",
            Self::ArrayView(_) => "ArrayView",
            Self::ArrayReference(_) => "ArrayReference",
            Self::ContainerArray(_) => "ContainerArray",
            Self::ContainerView(_) => "ContainerView",
            Self::ContainerArrayReference(_) => "ContainerArrayReference",
            Self::Stream(_) => "Stream",
            Self::Structure(_) => "Structure",
            Self::StructureView(_) => "StructureView",
            Self::StructureReference(_) => "StructureReference",
            Self::Other(m) => m.get("type").and_then(Value::as_str).unwrap_or(""),
        }
    }

    /// The common properties, or `None` for a descriptor of an unknown type.
    pub fn common(&self) -> Option<CommonData<'_>> {
        macro_rules! common {
            ($a:expr) => {
                CommonData {
                    dtype: &$a.dtype,
                    shape: &$a.shape,
                    transient: $a.transient,
                    storage: &$a.storage,
                    lifetime: &$a.lifetime,
                }
            };
        }
        Some(match self {
            Self::Scalar(d) => common!(d.attributes),
            Self::Array(d)
            | Self::ArrayView(d)
            | Self::ArrayReference(d)
            | Self::ContainerArray(d)
            | Self::ContainerView(d)
            | Self::ContainerArrayReference(d) => common!(d.attributes),
            Self::Stream(d) => common!(d.attributes),
            Self::Structure(d) | Self::StructureView(d) | Self::StructureReference(d) => {
                common!(d.attributes)
            }
            Self::Other(_) => return None,
        })
    }
}

macro_rules! data_attributes {
    (
        $(#[$meta:meta])*
        $name:ident {
            $( $(#[$fmeta:meta])* pub $field:ident : $ty:ty, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $ty, )*
            /// Element type; DaCe's default is `int32`.
            #[serde(
                default = "DType::default_element",
                skip_serializing_if = "DType::is_default_element"
            )]
            pub dtype: DType,
            /// Shape, one expression per dimension; default empty.
            #[serde(default, skip_serializing_if = "Vec::is_empty")]
            pub shape: Vec<SymExpr>,
            /// Whether the SDFG owns (allocates) the container; default `false`.
            #[serde(default, skip_serializing_if = "is_false")]
            pub transient: bool,
            /// Storage location; default `Default`.
            #[serde(default, skip_serializing_if = "StorageType::is_default")]
            pub storage: StorageType,
            /// Allocation lifetime; default `Scope`.
            #[serde(default, skip_serializing_if = "AllocationLifetime::is_default")]
            pub lifetime: AllocationLifetime,
            /// Placement hints (e.g. GPU device); default empty.
            #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
            pub location: IndexMap<String, Value>,
            /// Source location; always written (`null` when absent).
            #[serde(default)]
            pub debuginfo: Option<DebugInfo>,
            /// Properties this model does not know.
            #[serde(flatten)]
            pub extra: Map<String, Value>,
        }
    };
}

data_attributes! {
    /// Properties of a `Scalar`.
    ScalarAttributes {
        /// Whether write conflicts are allowed; default `false`.
        #[serde(default, skip_serializing_if = "is_false")]
        pub allow_conflicts: bool,
    }
}

data_attributes! {
    /// Properties of an `Array` and of its view, reference and container forms.
    ///
    /// DaCe derives missing `strides` (C order), `offset` (zeros) and
    /// `total_size` (product of the shape) when it loads a file; this model
    /// keeps what the file says (empty lists and `"0"` when absent).
    ArrayAttributes {
        /// Whether write conflicts are allowed; default `false`.
        #[serde(default, skip_serializing_if = "is_false")]
        pub allow_conflicts: bool,
        /// Strides in elements; default empty (C order).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub strides: Vec<SymExpr>,
        /// Allocated elements; default `"0"` (product of the shape).
        #[serde(default = "expr_zero", skip_serializing_if = "is_expr_zero")]
        pub total_size: SymExpr,
        /// Index offset per dimension; default empty (zeros).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub offset: Vec<SymExpr>,
        /// Whether the array may alias others; default `false`.
        #[serde(default, skip_serializing_if = "is_false")]
        pub may_alias: bool,
        /// Allocation alignment in bytes; default `0`.
        #[serde(default, skip_serializing_if = "is_zero")]
        pub alignment: i64,
        /// Offset of the first element in the allocation; default `0`.
        #[serde(default, skip_serializing_if = "is_zero")]
        pub start_offset: i64,
        /// Whether the argument may be null; default `None` (unknown).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub optional: Option<bool>,
        /// Whether allocation uses a memory pool; default `false`.
        #[serde(default, skip_serializing_if = "is_false")]
        pub pool: bool,
        /// Element descriptor of container arrays; default `None`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub stype: Option<Box<DataDescriptor>>,
    }
}

data_attributes! {
    /// Properties of a `Stream`.
    StreamAttributes {
        /// Index offset per dimension; default empty.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub offset: Vec<SymExpr>,
        /// Queue depth; default `"0"`.
        #[serde(default = "expr_zero", skip_serializing_if = "is_expr_zero")]
        pub buffer_size: SymExpr,
    }
}

data_attributes! {
    /// Properties of a `Structure` and of its view and reference forms.
    StructureAttributes {
        /// Members in order.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        pub members: Vec<Member>,
        /// The structure's name; default empty.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        pub name: String,
    }
}

/// A member of a structure, written as a `[name, descriptor]` pair (the
/// single-key `{name: descriptor}` form is read too).
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    /// The member's name.
    pub name: String,
    /// The member's descriptor.
    pub descriptor: DataDescriptor,
}

impl Serialize for Member {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut t = s.serialize_tuple(2)?;
        t.serialize_element(&self.name)?;
        t.serialize_element(&self.descriptor)?;
        t.end()
    }
}

impl<'de> Deserialize<'de> for Member {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Member;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a [name, descriptor] pair or a {name: descriptor} object")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Member, A::Error> {
                let name = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::invalid_length(0, &self))?;
                let descriptor = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::invalid_length(1, &self))?;
                if seq.next_element::<de::IgnoredAny>()?.is_some() {
                    return Err(de::Error::invalid_length(3, &self));
                }
                Ok(Member { name, descriptor })
            }

            fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Member, A::Error> {
                let (name, descriptor) = map
                    .next_entry()?
                    .ok_or_else(|| de::Error::invalid_length(0, &self))?;
                if map.next_key::<de::IgnoredAny>()?.is_some() {
                    return Err(de::Error::invalid_length(2, &self));
                }
                Ok(Member { name, descriptor })
            }
        }
        d.deserialize_any(V)
    }
}
