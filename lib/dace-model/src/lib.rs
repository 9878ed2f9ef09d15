//! Serde model of DaCe's `.sdfg` file format (DaCe 1.0).
//!
//! An `.sdfg` file is the JSON that DaCe's `SDFG.to_json()` writes; `.sdfgz` is
//! the same JSON compressed with gzip. This crate mirrors that JSON one to
//! one: every DaCe object is a Rust value with the same nesting and key names,
//! so a path in an error message (`nodes[3].nodes[7].attributes.code`) is a
//! path in the file and in the model alike.
//!
//! - [`Sdfg`] is the root: `attributes` ([`SdfgAttributes`], with the data
//!   containers in `arrays`, i.e. `_arrays`), `nodes` ([`ControlFlowBlock`]s)
//!   and `edges` ([`CfgEdge`]s carrying [`InterstateEdge`]s).
//! - A [`ControlFlowBlock`] is a [`State`], a [`Region`] (plain, loop,
//!   function call or named), a [`ConditionalBlock`] with its [`Branch`]es, or
//!   a break/continue/return [`SimpleBlock`].
//! - A [`State`] holds dataflow [`Node`]s and [`DataflowEdge`]s carrying
//!   [`Memlet`]s with [`Subset`]s.
//! - Data containers are [`DataDescriptor`]s; element types are [`DType`]s;
//!   symbolic expressions are kept as text in [`SymExpr`].
//!
//! # Defaults
//!
//! DaCe writes only the properties whose value differs from the property's
//! default, and fills in the default when it reads a file. Every property
//! field here carries DaCe 1.0.2's default (`#[serde(default = ..)]`, taken
//! from DaCe's property definitions; each field's documentation names it), and
//! [`save_sdfg`] leaves a property out when it equals its default, as DaCe
//! does. So a missing `"transient"` reads as `false`, a missing `"storage"` as
//! [`StorageType::Default`], a missing `"dtype"` of a descriptor as `int32`,
//! a missing inter-state `"condition"` as `1`. Structural keys that DaCe
//! always writes (`type`, `label`, `id`, `scope_entry`, `scope_exit`, edge
//! connectors, memlet `src_subset`/`dst_subset`, `debuginfo` of nodes,
//! descriptors and memlets) are always written. Values that DaCe derives on
//! load (C-order `strides`, zero `offset`, `total_size`) are not derived here:
//! the model keeps what the file says.
//!
//! # Unknown data
//!
//! Nothing is dropped. Each object keeps the keys this model does not know in
//! an `extra` map (`properties` for a library node's own properties), written
//! back after the known ones. An object whose `"type"` is unknown (a node,
//! block, descriptor, subset or type class) is kept whole in the enum's
//! `Other` variant, `"type"` included, so that an importer can report it by
//! its JSON path. An unknown enumeration member is kept in the enum's `Other`.
//!
//! # Older forms
//!
//! `Indices` subsets, `View`/`Reference` descriptors (read as
//! `ArrayView`/`ArrayReference`), nested SDFGs without `dace_version` or
//! stored as JSON text, states-only SDFGs and the pre-1.0 `start_state` and
//! `sdfg_list_id` keys are all read.
#![deny(missing_docs)]

mod data;
mod edges;
mod enums;
mod nodes;
mod sdfg;
mod subsets;
mod tagged;
mod types;
mod util;

use std::io::{Read, Write};

use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;

pub use data::{
    ArrayAttributes, CommonData, DataDescriptor, Descriptor, Member, ScalarAttributes,
    StreamAttributes, StructureAttributes,
};
pub use edges::{
    CfgEdge, DataflowEdge, EdgeAttributes, InterstateEdge, InterstateEdgeAttributes, Memlet,
    MemletAttributes,
};
pub use enums::{
    AllocationLifetime, DataInstrumentationType, InstrumentationType, Language, OmpScheduleType,
    ScheduleType, StorageType,
};
pub use nodes::{
    AccessNodeAttributes, ConsumeAttributes, ExitAttributes, LibraryNode, LibraryNodeAttributes,
    MapAttributes, NestedSdfgAttributes, Node, NodeBody, State, StateAttributes, TaskletAttributes,
};
pub use sdfg::{
    BlockFields, Branch, ConditionalBlock, ControlFlowBlock, FunctionCallAttributes,
    LoopAttributes, NamedRegionAttributes, Region, RegionAttributes, Sdfg, SdfgAttributes,
    SimpleBlock,
};
pub use subsets::{Indices, Range, RangeDim, RangeExpr, Subset};
pub use types::{
    CallbackType, CodeBlock, Connectors, Constants, DType, DebugInfo, OpaqueType, PointerType,
    StructType, TypeBody, VectorType,
};
pub use util::SymExpr;

/// Why a file could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The gzip stream of an `.sdfgz` file is corrupt or truncated.
    #[error("cannot decompress the gzip stream: {0}")]
    Gzip(#[source] std::io::Error),
    /// The JSON is malformed or does not match the format. `path` is the JSON
    /// path of the offending value (`.` when it is the document itself).
    #[error("at {path}: {message}")]
    Json {
        /// JSON path of the offending value, e.g. `nodes[3].nodes[7].attributes.code`.
        path: String,
        /// What is wrong there.
        message: String,
        /// The underlying parser error.
        #[source]
        source: serde_json::Error,
    },
}

impl LoadError {
    /// The JSON path of the error, if it is a JSON error.
    pub fn path(&self) -> Option<&str> {
        match self {
            Self::Gzip(_) => None,
            Self::Json { path, .. } => Some(path),
        }
    }
}

/// The first two bytes of a gzip stream.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Stack size of the thread that loads or saves a file.
///
/// The JSON parser stops at 128 levels of nesting; this stack holds that many
/// levels of this model's deserializers with a wide margin, even in debug
/// builds, where a level of nested regions takes tens of kilobytes. Only the
/// pages actually touched are committed.
const WORKER_STACK: usize = 256 << 20;

/// Runs `work` on a thread with a [`WORKER_STACK`]-sized stack (or on this
/// thread if none can be started), so that deeply nested input cannot
/// overflow the caller's stack.
fn on_large_stack<T: Send>(work: impl FnOnce() -> T + Send + Copy) -> T {
    std::thread::scope(|scope| {
        match std::thread::Builder::new()
            .name("sdfg-dace-model".to_owned())
            .stack_size(WORKER_STACK)
            .spawn_scoped(scope, work)
        {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) => work(),
        }
    })
}

/// Loads an SDFG from the bytes of an `.sdfg` (JSON) or `.sdfgz` (gzip) file.
///
/// Gzip is recognized by its magic number, whatever the file's name. Deeply
/// nested input is parsed on a helper thread with a large stack, so it gives
/// an error (`recursion limit exceeded`) rather than a stack overflow.
pub fn load_sdfg(bytes: &[u8]) -> Result<Sdfg, LoadError> {
    if bytes.starts_with(&GZIP_MAGIC) {
        let mut json = Vec::new();
        GzDecoder::new(bytes)
            .read_to_end(&mut json)
            .map_err(LoadError::Gzip)?;
        load_nested(&json)
    } else {
        load_nested(bytes)
    }
}

/// Nesting depth up to which JSON is parsed on the caller's stack: real
/// files stay far below it (an SDFG with two levels of nested SDFGs is about
/// 25 deep), and starting a large-stack thread per file costs more than
/// parsing a small file.
const SHALLOW_DEPTH: usize = 32;

/// The deepest nesting of objects and arrays in a JSON text (strings are
/// skipped; malformed text gives some depth, and the parser reports it).
fn json_depth(json: &[u8]) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for &byte in json {
        if in_string {
            match byte {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match byte {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

fn load_nested(json: &[u8]) -> Result<Sdfg, LoadError> {
    if json_depth(json) <= SHALLOW_DEPTH {
        load_json(json)
    } else {
        on_large_stack(|| load_json(json))
    }
}

fn load_json(json: &[u8]) -> Result<Sdfg, LoadError> {
    let mut de = serde_json::Deserializer::from_slice(json);
    let sdfg: Sdfg = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let source = e.into_inner();
        LoadError::Json {
            path,
            message: source.to_string(),
            source,
        }
    })?;
    de.end().map_err(|source| LoadError::Json {
        path: ".".to_owned(),
        message: source.to_string(),
        source,
    })?;
    Ok(sdfg)
}

/// Writes an SDFG as `.sdfg` JSON (indented by two spaces, as DaCe does), or
/// as gzip-compressed `.sdfgz` when `compress` is set.
///
/// Properties equal to DaCe's defaults are left out; unknown keys kept in
/// `extra` maps are written back. Like loading, this runs on a helper thread
/// with a large stack.
pub fn save_sdfg(sdfg: &Sdfg, compress: bool) -> Vec<u8> {
    on_large_stack(|| save_bytes(sdfg, compress))
}

fn save_bytes(sdfg: &Sdfg, compress: bool) -> Vec<u8> {
    // Serializing the model cannot fail: every map key is a string and every
    // number comes from JSON, so it is finite; writing to a Vec cannot fail.
    let json = serde_json::to_vec_pretty(sdfg).expect("the SDFG model always serializes to JSON");
    if !compress {
        return json;
    }
    let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
    encoder
        .write_all(&json)
        .and_then(|()| encoder.finish())
        .expect("gzip into memory cannot fail")
}

#[cfg(test)]
mod tests {
    use super::json_depth;

    #[test]
    fn depth_counts_nesting_outside_strings() {
        assert_eq!(json_depth(br#"{}"#), 1);
        assert_eq!(json_depth(br#"{"a": [1, {"b": [[]]}]}"#), 5);
        assert_eq!(json_depth(br#"{"a": "[[[{{{\"]]]"}"#), 1);
        assert_eq!(json_depth(b"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["), 35);
    }
}
