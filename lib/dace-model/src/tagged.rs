//! Dispatch on DaCe's `"type"` key without losing the JSON path of errors.
//!
//! DaCe writes `"type"` as the first key of every object. When it is first, the
//! rest of the map is handed to the variant's derived deserializer directly, so
//! that `serde_path_to_error` keeps tracking the path into it. Otherwise the
//! object is buffered, and an error names the path inside the object.

use std::fmt;
use std::marker::PhantomData;

use serde::de::value::MapAccessDeserializer;
use serde::de::{Deserialize, Deserializer, Error as _, MapAccess, Visitor};
use serde_json::{Map, Value};

/// An enum whose variant is chosen by the object's `"type"` key.
pub(crate) trait TaggedEnum: Sized {
    /// What the visitor expects, for error messages.
    const EXPECTING: &'static str;

    /// Builds the variant named `tag` from the rest of the object.
    fn from_body<'de, D: Deserializer<'de>>(tag: &str, body: D) -> Result<Self, D::Error>;
}

/// Visitor for the map form of a [`TaggedEnum`].
pub(crate) struct TaggedVisitor<T>(PhantomData<T>);

impl<T> TaggedVisitor<T> {
    pub(crate) fn new() -> Self {
        Self(PhantomData)
    }
}

impl<'de, T: TaggedEnum> Visitor<'de> for TaggedVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(T::EXPECTING)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        visit_tagged(map)
    }
}

/// Reads a tagged object from `map` and dispatches on its `"type"`.
pub(crate) fn visit_tagged<'de, A: MapAccess<'de>, T: TaggedEnum>(
    mut map: A,
) -> Result<T, A::Error> {
    let Some(first) = map.next_key::<String>()? else {
        return Err(A::Error::missing_field("type"));
    };
    if first == "type" {
        let tag: String = map.next_value()?;
        return T::from_body(&tag, MapAccessDeserializer::new(map));
    }
    let mut body = Map::new();
    body.insert(first, map.next_value()?);
    while let Some((key, value)) = map.next_entry::<String, Value>()? {
        body.insert(key, value);
    }
    let tag = match body.shift_remove("type") {
        Some(Value::String(tag)) => tag,
        Some(other) => {
            return Err(A::Error::custom(format_args!(
                "\"type\" must be a string, found {other}"
            )))
        }
        None => return Err(A::Error::missing_field("type")),
    };
    let mut track = serde_path_to_error::Track::new();
    let de = serde_path_to_error::Deserializer::new(Value::Object(body), &mut track);
    T::from_body(&tag, de).map_err(|e| A::Error::custom(format_args!("{}: {e}", track.path())))
}

/// Keeps an object of an unknown `"type"` whole, `"type"` first.
pub(crate) fn unknown<'de, D: Deserializer<'de>>(
    tag: &str,
    body: D,
) -> Result<Map<String, Value>, D::Error> {
    let body = Map::deserialize(body)?;
    let mut object = Map::with_capacity(body.len() + 1);
    object.insert("type".to_owned(), Value::String(tag.to_owned()));
    object.extend(body);
    Ok(object)
}

/// Deserializes the unknown properties of an object, dropping its `"type"` key
/// after checking it against `expected`.
fn strip_tag<'de, D: Deserializer<'de>>(
    d: D,
    expected: &str,
) -> Result<Map<String, Value>, D::Error> {
    let mut extra = Map::deserialize(d)?;
    match extra.shift_remove("type") {
        None => Ok(extra),
        Some(Value::String(tag)) if tag == expected => Ok(extra),
        Some(other) => Err(D::Error::custom(format_args!(
            "expected \"type\": \"{expected}\", found {other}"
        ))),
    }
}

macro_rules! strippers {
    ($($name:ident => $tag:literal,)+) => {$(
        #[doc = concat!("Unknown properties of a `", $tag, "` object, without its `\"type\"`.")]
        pub(crate) fn $name<'de, D: Deserializer<'de>>(
            d: D,
        ) -> Result<Map<String, Value>, D::Error> {
            strip_tag(d, $tag)
        }
    )+};
}

strippers! {
    strip_sdfg => "SDFG",
    strip_region => "ControlFlowRegion",
    strip_range => "Range",
    strip_indices => "Indices",
    strip_memlet => "Memlet",
    strip_interstate => "InterstateEdge",
    strip_cfg_edge => "Edge",
    strip_dataflow_edge => "MultiConnectorEdge",
}

/// Implements `Deserialize` for a [`TaggedEnum`] through [`TaggedVisitor`].
macro_rules! deserialize_tagged {
    ($ty:ty) => {
        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                d.deserialize_map($crate::tagged::TaggedVisitor::<$ty>::new())
            }
        }
    };
}
pub(crate) use deserialize_tagged;
