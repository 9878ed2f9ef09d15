//! Dataflow nodes (`dace.sdfg.nodes`) and states (`dace.sdfg.state.SDFGState`).

use indexmap::IndexMap;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use crate::edges::DataflowEdge;
use crate::enums::{DataInstrumentationType, InstrumentationType, OmpScheduleType, ScheduleType};
use crate::sdfg::{nested_sdfg, BlockFields, Sdfg};
use crate::subsets::Range;
use crate::tagged::{deserialize_tagged, unknown, TaggedEnum};
use crate::types::{CodeBlock, Connectors, DebugInfo};
use crate::util::{
    default_true, expr_one, expr_zero, index_str, is_expr_one, is_expr_zero, is_false, is_one,
    is_true, is_zero, one, SymExpr,
};

/// A dataflow node in a state, tagged by `"type"`.
// Variants are unboxed so that importers can match on them directly; nodes
// live in `Vec`s, where the size difference costs only memory.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type")]
pub enum Node {
    /// A reference to a data container.
    AccessNode(NodeBody<AccessNodeAttributes>),
    /// A computation.
    Tasklet(NodeBody<TaskletAttributes>),
    /// Entry of a parametric parallel scope.
    MapEntry(NodeBody<MapAttributes>),
    /// Exit of a map scope (the map's properties live on its entry).
    MapExit(NodeBody<ExitAttributes>),
    /// Entry of a consume (stream-processing) scope.
    ConsumeEntry(NodeBody<ConsumeAttributes>),
    /// Exit of a consume scope.
    ConsumeExit(NodeBody<ExitAttributes>),
    /// A nested SDFG.
    #[serde(rename = "NestedSDFG")]
    NestedSdfg(NodeBody<NestedSdfgAttributes>),
    /// A library node, identified by its `classpath`.
    LibraryNode(LibraryNode),
    /// A node of an unknown `"type"`, kept whole.
    #[serde(untagged)]
    Other(Map<String, Value>),
}

impl TaggedEnum for Node {
    const EXPECTING: &'static str = "a dataflow node object";

    fn from_body<'de, D: Deserializer<'de>>(tag: &str, body: D) -> Result<Self, D::Error> {
        Ok(match tag {
            "AccessNode" => Self::AccessNode(Deserialize::deserialize(body)?),
            "Tasklet" => Self::Tasklet(Deserialize::deserialize(body)?),
            "MapEntry" => Self::MapEntry(Deserialize::deserialize(body)?),
            "MapExit" => Self::MapExit(Deserialize::deserialize(body)?),
            "ConsumeEntry" => Self::ConsumeEntry(Deserialize::deserialize(body)?),
            "ConsumeExit" => Self::ConsumeExit(Deserialize::deserialize(body)?),
            "NestedSDFG" => Self::NestedSdfg(Deserialize::deserialize(body)?),
            "LibraryNode" => Self::LibraryNode(Deserialize::deserialize(body)?),
            _ => Self::Other(unknown(tag, body)?),
        })
    }
}

deserialize_tagged!(Node);

impl Node {
    /// The `"type"` this node is written with.
    pub fn type_name(&self) -> &str {
        match self {
            Self::AccessNode(_) => "AccessNode",
            Self::Tasklet(_) => "Tasklet",
            Self::MapEntry(_) => "MapEntry",
            Self::MapExit(_) => "MapExit",
            Self::ConsumeEntry(_) => "ConsumeEntry",
            Self::ConsumeExit(_) => "ConsumeExit",
            Self::NestedSdfg(_) => "NestedSDFG",
            Self::LibraryNode(_) => "LibraryNode",
            Self::Other(m) => m.get("type").and_then(Value::as_str).unwrap_or(""),
        }
    }

    /// The node's display label (`None` for a node of an unknown type without one).
    pub fn label(&self) -> Option<&str> {
        Some(match self {
            Self::AccessNode(n) => &n.label,
            Self::Tasklet(n) => &n.label,
            Self::MapEntry(n) => &n.label,
            Self::MapExit(n) => &n.label,
            Self::ConsumeEntry(n) => &n.label,
            Self::ConsumeExit(n) => &n.label,
            Self::NestedSdfg(n) => &n.label,
            Self::LibraryNode(n) => &n.label,
            Self::Other(m) => return m.get("label").and_then(Value::as_str),
        })
    }
}

/// A node object: `{"type", "label", "attributes", "id", "scope_entry", "scope_exit"}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NodeBody<A> {
    /// Display label as DaCe computed it; default empty.
    #[serde(default)]
    pub label: String,
    /// The node's properties.
    pub attributes: A,
    /// Index of the node in its state; always written (`null` when absent).
    #[serde(default)]
    pub id: Option<usize>,
    /// Index of the entry node of the enclosing scope (DaCe writes it as a string).
    #[serde(default, with = "index_str::opt")]
    pub scope_entry: Option<usize>,
    /// Index of the exit node of the enclosing scope, or of its own scope for entry nodes.
    #[serde(default, with = "index_str::opt")]
    pub scope_exit: Option<usize>,
    /// Keys this model does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A library node: a [`NodeBody`] plus the Python class path of the node type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LibraryNode {
    /// Display label as DaCe computed it; default empty.
    #[serde(default)]
    pub label: String,
    /// The node's properties, including the subclass's own.
    pub attributes: LibraryNodeAttributes,
    /// Index of the node in its state; always written (`null` when absent).
    #[serde(default)]
    pub id: Option<usize>,
    /// Index of the entry node of the enclosing scope.
    #[serde(default, with = "index_str::opt")]
    pub scope_entry: Option<usize>,
    /// Index of the exit node of the enclosing scope.
    #[serde(default, with = "index_str::opt")]
    pub scope_exit: Option<usize>,
    /// Python class path, e.g. `dace.libraries.standard.nodes.reduce.Reduce`.
    pub classpath: String,
    /// Keys this model does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Properties of an `AccessNode`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AccessNodeAttributes {
    /// Name of the data container.
    pub data: String,
    /// Whether the container is zeroed on allocation; default `false`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub setzero: bool,
    /// Source location; always written (`null` when absent).
    #[serde(default)]
    pub debuginfo: Option<DebugInfo>,
    /// Data instrumentation; default `No_Instrumentation`.
    #[serde(default, skip_serializing_if = "DataInstrumentationType::is_default")]
    pub instrument: DataInstrumentationType,
    /// Condition for data instrumentation; default `1` (C++).
    #[serde(
        default = "CodeBlock::cpp_true",
        skip_serializing_if = "CodeBlock::is_cpp_true"
    )]
    pub instrument_condition: CodeBlock,
    /// Input connectors (used by views and references); default none.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub in_connectors: Connectors,
    /// Output connectors; default none.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub out_connectors: Connectors,
    /// Unique id; default empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub guid: String,
    /// Properties this model does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Properties of a `Tasklet`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskletAttributes {
    /// The tasklet's label (its name).
    #[serde(default)]
    pub label: String,
    /// The tasklet's code; default empty Python.
    #[serde(
        default = "CodeBlock::empty_python",
        skip_serializing_if = "CodeBlock::is_empty_python"
    )]
    pub code: CodeBlock,
    /// Fields added to the generated state struct; default none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub state_fields: Vec<String>,
    /// Global (file-level) code; default empty C++.
    #[serde(
        default = "CodeBlock::empty_cpp",
        skip_serializing_if = "CodeBlock::is_empty_cpp"
    )]
    pub code_global: CodeBlock,
    /// Initialization code; default empty C++.
    #[serde(
        default = "CodeBlock::empty_cpp",
        skip_serializing_if = "CodeBlock::is_empty_cpp"
    )]
    pub code_init: CodeBlock,
    /// Finalization code; default empty C++.
    #[serde(
        default = "CodeBlock::empty_cpp",
        skip_serializing_if = "CodeBlock::is_empty_cpp"
    )]
    pub code_exit: CodeBlock,
    /// Source location; always written (`null` when absent).
    #[serde(default)]
    pub debuginfo: Option<DebugInfo>,
    /// Instrumentation; default `No_Instrumentation`.
    #[serde(default, skip_serializing_if = "InstrumentationType::is_default")]
    pub instrument: InstrumentationType,
    /// Whether the tasklet has side effects; default `None` (DaCe infers it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side_effects: Option<bool>,
    /// Symbols the tasklet's code does not depend on; default none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignored_symbols: Vec<String>,
    /// Placement hints; default empty.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub location: IndexMap<String, Value>,
    /// Library environments needed; default none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub environments: Vec<String>,
    /// Input connectors; default none.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub in_connectors: Connectors,
    /// Output connectors; default none.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub out_connectors: Connectors,
    /// Unique id; default empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub guid: String,
    /// Properties this model does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Properties of a `MapEntry` (the map's properties).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MapAttributes {
    /// The map's label.
    #[serde(default)]
    pub label: String,
    /// Iteration variables, one per dimension of `range`.
    #[serde(default)]
    pub params: Vec<String>,
    /// Iteration space.
    #[serde(default)]
    pub range: Range,
    /// Schedule; default `Default`.
    #[serde(default, skip_serializing_if = "ScheduleType::is_default")]
    pub schedule: ScheduleType,
    /// Whether to unroll; default `false`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub unroll: bool,
    /// Unroll factor (0: full); default `0`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unroll_factor: i64,
    /// Number of dimensions to collapse (OpenMP); default `1`.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub collapse: i64,
    /// Source location; always written (`null` when absent).
    #[serde(default)]
    pub debuginfo: Option<DebugInfo>,
    /// Whether the scope is collapsed in viewers; default `false`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub is_collapsed: bool,
    /// Instrumentation; default `No_Instrumentation`.
    #[serde(default, skip_serializing_if = "InstrumentationType::is_default")]
    pub instrument: InstrumentationType,
    /// OpenMP thread count (0: runtime default); default `0`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub omp_num_threads: i64,
    /// OpenMP schedule; default `Default`.
    #[serde(default, skip_serializing_if = "OmpScheduleType::is_default")]
    pub omp_schedule: OmpScheduleType,
    /// OpenMP chunk size (0: runtime default); default `0`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub omp_chunk_size: i64,
    /// GPU thread-block size; default `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_block_size: Option<Vec<i64>>,
    /// GPU `__launch_bounds__` value; default `"0"`.
    #[serde(default = "expr_zero", skip_serializing_if = "is_expr_zero")]
    pub gpu_launch_bounds: SymExpr,
    /// Input connectors; default none.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub in_connectors: Connectors,
    /// Output connectors; default none.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub out_connectors: Connectors,
    /// Unique id; default empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub guid: String,
    /// Properties this model does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Properties of a `ConsumeEntry` (the consume scope's properties).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConsumeAttributes {
    /// The scope's label.
    #[serde(default)]
    pub label: String,
    /// Name of the processing-element index variable; default empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub pe_index: String,
    /// Number of processing elements; default `"1"`.
    #[serde(default = "expr_one", skip_serializing_if = "is_expr_one")]
    pub num_pes: SymExpr,
    /// Quiescence condition; default `None` (until the stream is empty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<CodeBlock>,
    /// Schedule; default `Default`.
    #[serde(default, skip_serializing_if = "ScheduleType::is_default")]
    pub schedule: ScheduleType,
    /// Elements consumed at once; default `1`.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub chunksize: i64,
    /// Source location; always written (`null` when absent).
    #[serde(default)]
    pub debuginfo: Option<DebugInfo>,
    /// Whether the scope is collapsed in viewers; default `false`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub is_collapsed: bool,
    /// Instrumentation; default `No_Instrumentation`.
    #[serde(default, skip_serializing_if = "InstrumentationType::is_default")]
    pub instrument: InstrumentationType,
    /// Input connectors; default none.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub in_connectors: Connectors,
    /// Output connectors; default none.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub out_connectors: Connectors,
    /// Unique id; default empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub guid: String,
    /// Properties this model does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Properties of a scope exit node (`MapExit`, `ConsumeExit`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct ExitAttributes {
    /// Input connectors; default none.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub in_connectors: Connectors,
    /// Output connectors; default none.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub out_connectors: Connectors,
    /// Unique id; default empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub guid: String,
    /// Properties this model does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Properties of a `NestedSDFG` node.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NestedSdfgAttributes {
    /// The node's label.
    #[serde(default)]
    pub label: String,
    /// The nested SDFG (old files store it as a JSON string; it is read either way).
    #[serde(with = "nested_sdfg")]
    pub sdfg: Box<Sdfg>,
    /// Schedule; default `Default`.
    #[serde(default, skip_serializing_if = "ScheduleType::is_default")]
    pub schedule: ScheduleType,
    /// Inner symbol name to outer expression; default none.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub symbol_mapping: IndexMap<String, SymExpr>,
    /// Source location; always written (`null` when absent).
    #[serde(default)]
    pub debuginfo: Option<DebugInfo>,
    /// Whether the node is collapsed in viewers; default `false`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub is_collapsed: bool,
    /// Instrumentation; default `No_Instrumentation`.
    #[serde(default, skip_serializing_if = "InstrumentationType::is_default")]
    pub instrument: InstrumentationType,
    /// Whether inlining is forbidden; default `false`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub no_inline: bool,
    /// Name for code generation; default empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub unique_name: String,
    /// Placement hints; default empty.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub location: IndexMap<String, Value>,
    /// Library environments needed; default none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub environments: Vec<String>,
    /// Input connectors; default none.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub in_connectors: Connectors,
    /// Output connectors; default none.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub out_connectors: Connectors,
    /// Unique id; default empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub guid: String,
    /// Properties this model does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Properties of a library node: the `LibraryNode` base properties, with the
/// subclass's own properties (e.g. `wcr`, `axes`, `identity` of `Reduce`)
/// kept in `properties`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LibraryNodeAttributes {
    /// The node's name.
    #[serde(default)]
    pub name: String,
    /// The node's label.
    #[serde(default)]
    pub label: String,
    /// Chosen expansion; default `None` (the library's default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub implementation: Option<String>,
    /// Schedule; default `Default`.
    #[serde(default, skip_serializing_if = "ScheduleType::is_default")]
    pub schedule: ScheduleType,
    /// Source location; always written (`null` when absent).
    #[serde(default)]
    pub debuginfo: Option<DebugInfo>,
    /// Placement hints; default empty.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub location: IndexMap<String, Value>,
    /// Library environments needed; default none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub environments: Vec<String>,
    /// Input connectors; default none.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub in_connectors: Connectors,
    /// Output connectors; default none.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub out_connectors: Connectors,
    /// Unique id; default empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub guid: String,
    /// The subclass's own properties, as written.
    #[serde(flatten)]
    pub properties: Map<String, Value>,
}

/// A state: a dataflow graph of [`Node`]s and [`DataflowEdge`]s.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// The state's label.
    #[serde(default)]
    pub label: String,
    /// Index of the state in its region; always written (`null` when absent).
    #[serde(default)]
    pub id: Option<usize>,
    /// Whether the state is collapsed in viewers; default `false`.
    #[serde(default)]
    pub collapsed: bool,
    /// Scope tree as DaCe computed it: scope entry index (`"-1"` for the
    /// top level) to the indices of the nodes directly in that scope.
    #[serde(default)]
    pub scope_dict: IndexMap<String, Vec<i64>>,
    /// The nodes; edges refer to them by index.
    pub nodes: Vec<Node>,
    /// The dataflow edges.
    pub edges: Vec<DataflowEdge>,
    /// The state's properties.
    #[serde(default)]
    pub attributes: StateAttributes,
    /// Keys this model does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// Properties of a state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StateAttributes {
    /// Whether to skip GPU synchronization at the end; default `false`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub nosync: bool,
    /// Instrumentation; default `No_Instrumentation`.
    #[serde(default, skip_serializing_if = "InstrumentationType::is_default")]
    pub instrument: InstrumentationType,
    /// Symbol instrumentation; default `No_Instrumentation`.
    #[serde(default, skip_serializing_if = "DataInstrumentationType::is_default")]
    pub symbol_instrument: DataInstrumentationType,
    /// Condition for symbol instrumentation; default `1` (C++).
    #[serde(
        default = "CodeBlock::cpp_true",
        skip_serializing_if = "CodeBlock::is_cpp_true"
    )]
    pub symbol_instrument_condition: CodeBlock,
    /// Number of executions (analysis result); default `"0"`.
    #[serde(default = "expr_zero", skip_serializing_if = "is_expr_zero")]
    pub executions: SymExpr,
    /// Whether `executions` is an upper bound; default `true`.
    #[serde(default = "default_true", skip_serializing_if = "is_true")]
    pub dynamic_executions: bool,
    /// Symbol ranges (analysis result); default empty.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub ranges: IndexMap<String, Value>,
    /// Placement hints; default empty.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub location: IndexMap<String, Value>,
    /// Block properties shared with all control-flow blocks.
    #[serde(flatten)]
    pub block: BlockFields,
}

impl Default for StateAttributes {
    fn default() -> Self {
        Self {
            nosync: false,
            instrument: InstrumentationType::default(),
            symbol_instrument: DataInstrumentationType::default(),
            symbol_instrument_condition: CodeBlock::cpp_true(),
            executions: expr_zero(),
            dynamic_executions: true,
            ranges: IndexMap::new(),
            location: IndexMap::new(),
            block: BlockFields::default(),
        }
    }
}
