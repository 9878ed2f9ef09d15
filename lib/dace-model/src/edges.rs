//! Memlets, inter-state edges and the edge objects that carry them.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::subsets::Subset;
use crate::tagged::{strip_cfg_edge, strip_dataflow_edge, strip_interstate, strip_memlet};
use crate::types::{CodeBlock, DebugInfo};
use crate::util::{expr_zero, index_str, is_expr_zero, is_false, SymExpr};

/// A memlet (`dace.memlet.Memlet`): `{"type": "Memlet", "attributes": {..}}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "Memlet")]
pub struct Memlet {
    /// The memlet's properties.
    pub attributes: MemletAttributes,
    /// Keys this model does not know, next to `"attributes"`.
    #[serde(flatten, deserialize_with = "strip_memlet")]
    pub extra: Map<String, Value>,
}

/// Properties of a [`Memlet`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MemletAttributes {
    /// Number of elements moved; default `"0"`.
    #[serde(default = "expr_zero", skip_serializing_if = "is_expr_zero")]
    pub volume: SymExpr,
    /// Whether the volume is an upper bound (data-dependent access); default `false`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub dynamic: bool,
    /// Subset of `data`; default `None` (empty memlet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subset: Option<Subset>,
    /// Subset of the other end of the edge; default `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub other_subset: Option<Subset>,
    /// Name of the data container; default `None` (empty memlet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<String>,
    /// Write-conflict resolution lambda (e.g. `"(lambda a, b: (a + b))"`); default `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wcr: Option<String>,
    /// Source location; always written (`null` when absent).
    #[serde(default)]
    pub debuginfo: Option<DebugInfo>,
    /// Whether the WCR may be implemented without atomics; default `false`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub wcr_nonatomic: bool,
    /// Whether out-of-bounds accesses are allowed; default `false`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub allow_oob: bool,
    /// Unique id; default empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub guid: String,
    /// Subset at the source node (derived by DaCe); always written (`null` when absent).
    #[serde(default)]
    pub src_subset: Option<Subset>,
    /// Subset at the destination node (derived by DaCe); always written (`null` when absent).
    #[serde(default)]
    pub dst_subset: Option<Subset>,
    /// Whether `data` is the source of the edge; `None` lets DaCe decide.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_data_src: Option<bool>,
    /// Legacy volume field (`-1` when dynamic), ignored by DaCe on load; kept as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub num_accesses: Option<Value>,
    /// Properties this model does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// An inter-state edge's payload (`dace.sdfg.InterstateEdge`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "InterstateEdge")]
pub struct InterstateEdge {
    /// The edge's properties.
    pub attributes: InterstateEdgeAttributes,
    /// Display label (`condition; assignments`) as DaCe computed it; default empty.
    #[serde(default)]
    pub label: String,
    /// Keys this model does not know.
    #[serde(flatten, deserialize_with = "strip_interstate")]
    pub extra: Map<String, Value>,
}

/// Properties of an [`InterstateEdge`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InterstateEdgeAttributes {
    /// Symbol assignments performed on the transition, in order; default none.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub assignments: IndexMap<String, SymExpr>,
    /// Transition condition; default `1` (Python), i.e. unconditional.
    #[serde(
        default = "CodeBlock::python_true",
        skip_serializing_if = "CodeBlock::is_python_true"
    )]
    pub condition: CodeBlock,
    /// Unique id; default empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub guid: String,
    /// Properties this model does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Default for InterstateEdgeAttributes {
    fn default() -> Self {
        Self {
            assignments: IndexMap::new(),
            condition: CodeBlock::python_true(),
            guid: String::new(),
            extra: Map::new(),
        }
    }
}

/// The `"attributes"` of an edge object: its payload under `"data"`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct EdgeAttributes<T> {
    /// The payload (a [`Memlet`] or an [`InterstateEdge`]).
    pub data: T,
    /// Properties this model does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// An edge between control-flow blocks: `{"type": "Edge", "src": "0", "dst": "1", ..}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "Edge")]
pub struct CfgEdge {
    /// The payload.
    pub attributes: EdgeAttributes<InterstateEdge>,
    /// Index of the source block in the region's `nodes`.
    #[serde(with = "index_str")]
    pub src: usize,
    /// Index of the destination block in the region's `nodes`.
    #[serde(with = "index_str")]
    pub dst: usize,
    /// Keys this model does not know.
    #[serde(flatten, deserialize_with = "strip_cfg_edge")]
    pub extra: Map<String, Value>,
}

/// A dataflow edge in a state: `{"type": "MultiConnectorEdge", ..}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename = "MultiConnectorEdge")]
pub struct DataflowEdge {
    /// The payload.
    pub attributes: EdgeAttributes<Memlet>,
    /// Index of the source node in the state's `nodes`.
    #[serde(with = "index_str")]
    pub src: usize,
    /// Index of the destination node in the state's `nodes`.
    #[serde(with = "index_str")]
    pub dst: usize,
    /// Connector on the destination node; always written (`null` when none).
    #[serde(default)]
    pub dst_connector: Option<String>,
    /// Connector on the source node; always written (`null` when none).
    #[serde(default)]
    pub src_connector: Option<String>,
    /// Keys this model does not know.
    #[serde(flatten, deserialize_with = "strip_dataflow_edge")]
    pub extra: Map<String, Value>,
}
