//! Control flow (`dace.sdfg.state`): regions, loops, conditionals, and the SDFG.

use std::fmt;

use indexmap::IndexMap;
use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::ser::{SerializeTuple, Serializer};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::data::DataDescriptor;
use crate::edges::CfgEdge;
use crate::enums::InstrumentationType;
use crate::nodes::State;
use crate::tagged::{deserialize_tagged, strip_region, strip_sdfg, unknown, TaggedEnum};
use crate::types::{CodeBlock, DType, DebugInfo};
use crate::util::{default_true, is_false, is_true};

/// A control-flow block in a region's `nodes`, tagged by `"type"`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type")]
pub enum ControlFlowBlock {
    /// A dataflow state.
    #[serde(rename = "SDFGState")]
    State(State),
    /// A plain region of blocks.
    #[serde(rename = "ControlFlowRegion")]
    Region(Region<RegionAttributes>),
    /// A loop.
    #[serde(rename = "LoopRegion")]
    Loop(Region<LoopAttributes>),
    /// An inlined function call.
    #[serde(rename = "FunctionCallRegion")]
    FunctionCall(Region<FunctionCallAttributes>),
    /// A named region.
    #[serde(rename = "NamedRegion")]
    Named(Region<NamedRegionAttributes>),
    /// An if/elif/else (or switch) with one region per branch.
    #[serde(rename = "ConditionalBlock")]
    Conditional(ConditionalBlock),
    /// `break` out of the innermost loop.
    #[serde(rename = "BreakBlock")]
    Break(SimpleBlock),
    /// `continue` with the next iteration of the innermost loop.
    #[serde(rename = "ContinueBlock")]
    Continue(SimpleBlock),
    /// Return from the SDFG.
    #[serde(rename = "ReturnBlock")]
    Return(SimpleBlock),
    /// A block of an unknown `"type"`, kept whole.
    #[serde(untagged)]
    Other(Map<String, Value>),
}

impl TaggedEnum for ControlFlowBlock {
    const EXPECTING: &'static str = "a control-flow block object";

    fn from_body<'de, D: Deserializer<'de>>(tag: &str, body: D) -> Result<Self, D::Error> {
        Ok(match tag {
            "SDFGState" => Self::State(Deserialize::deserialize(body)?),
            "ControlFlowRegion" => Self::Region(Deserialize::deserialize(body)?),
            "LoopRegion" => Self::Loop(Deserialize::deserialize(body)?),
            "FunctionCallRegion" => Self::FunctionCall(Deserialize::deserialize(body)?),
            "NamedRegion" => Self::Named(Deserialize::deserialize(body)?),
            "ConditionalBlock" => Self::Conditional(Deserialize::deserialize(body)?),
            "BreakBlock" => Self::Break(Deserialize::deserialize(body)?),
            "ContinueBlock" => Self::Continue(Deserialize::deserialize(body)?),
            "ReturnBlock" => Self::Return(Deserialize::deserialize(body)?),
            _ => Self::Other(unknown(tag, body)?),
        })
    }
}

deserialize_tagged!(ControlFlowBlock);

impl ControlFlowBlock {
    /// The `"type"` this block is written with.
    pub fn type_name(&self) -> &str {
        match self {
            Self::State(_) => "SDFGState",
            Self::Region(_) => "ControlFlowRegion",
            Self::Loop(_) => "LoopRegion",
            Self::FunctionCall(_) => "FunctionCallRegion",
            Self::Named(_) => "NamedRegion",
            Self::Conditional(_) => "ConditionalBlock",
            Self::Break(_) => "BreakBlock",
            Self::Continue(_) => "ContinueBlock",
            Self::Return(_) => "ReturnBlock",
            Self::Other(m) => m.get("type").and_then(Value::as_str).unwrap_or(""),
        }
    }

    /// The block's label (`None` for a block of an unknown type without one).
    pub fn label(&self) -> Option<&str> {
        Some(match self {
            Self::State(b) => &b.label,
            Self::Region(b) => &b.label,
            Self::Loop(b) => &b.label,
            Self::FunctionCall(b) => &b.label,
            Self::Named(b) => &b.label,
            Self::Conditional(b) => &b.label,
            Self::Break(b) | Self::Continue(b) | Self::Return(b) => &b.label,
            Self::Other(m) => return m.get("label").and_then(Value::as_str),
        })
    }
}

/// Properties every control-flow block has (`ControlFlowBlock`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, serde::Deserialize)]
pub struct BlockFields {
    /// Unique id; default empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub guid: String,
    /// Whether the block is collapsed in viewers; default `false`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub is_collapsed: bool,
    /// Pre-conditions (annotations); default empty.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub pre_conditions: IndexMap<String, Value>,
    /// Post-conditions (annotations); default empty.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub post_conditions: IndexMap<String, Value>,
    /// Invariants (annotations); default empty.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub invariant_conditions: IndexMap<String, Value>,
    /// Properties this model does not know (e.g. `executions` written by
    /// newer DaCe versions on regions).
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A region object: a graph of blocks with inter-state edges.
///
/// Used for `ControlFlowRegion`, `LoopRegion`, `FunctionCallRegion` and
/// `NamedRegion`, which differ in their attributes `A`.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Region<A> {
    /// The region's label.
    #[serde(default)]
    pub label: String,
    /// Index of the region in its parent; always written (`null` for branch bodies).
    #[serde(default)]
    pub id: Option<usize>,
    /// Whether the region is collapsed in viewers; default `false`.
    #[serde(default)]
    pub collapsed: bool,
    /// Index in the SDFG's list of control-flow graphs, as DaCe computed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cfg_list_id: Option<i64>,
    /// Index of the start block in `nodes` (`None`: DaCe picks the block without in-edges).
    #[serde(default)]
    pub start_block: Option<usize>,
    /// The region's properties.
    pub attributes: A,
    /// The blocks; edges refer to them by index.
    #[serde(default)]
    pub nodes: Vec<ControlFlowBlock>,
    /// The inter-state edges.
    #[serde(default)]
    pub edges: Vec<CfgEdge>,
    /// Keys this model does not know.
    #[serde(flatten, deserialize_with = "strip_region")]
    pub extra: Map<String, Value>,
}

/// Properties of a `ControlFlowRegion` (and of `ConditionalBlock`, `BreakBlock`,
/// `ContinueBlock`, `ReturnBlock`).
pub type RegionAttributes = BlockFields;

/// Properties of a `LoopRegion`.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct LoopAttributes {
    /// Update statement, e.g. `i = (i + 1)`; default `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub update_statement: Option<CodeBlock>,
    /// Init statement, e.g. `i = 0`; default `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init_statement: Option<CodeBlock>,
    /// Loop condition; default `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loop_condition: Option<CodeBlock>,
    /// Whether the condition is checked after the body (do-while); default `false`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub inverted: bool,
    /// For inverted loops: whether the update precedes the condition; default `true`.
    #[serde(default = "default_true", skip_serializing_if = "is_true")]
    pub update_before_condition: bool,
    /// The loop variable; default empty (no loop variable).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub loop_variable: String,
    /// Block properties shared with all control-flow blocks.
    #[serde(flatten)]
    pub block: BlockFields,
}

/// Properties of a `NamedRegion`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, serde::Deserialize)]
pub struct NamedRegionAttributes {
    /// Source location; always written (`null` when absent).
    #[serde(default)]
    pub debuginfo: Option<DebugInfo>,
    /// Block properties shared with all control-flow blocks.
    #[serde(flatten)]
    pub block: BlockFields,
}

/// Properties of a `FunctionCallRegion`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, serde::Deserialize)]
pub struct FunctionCallAttributes {
    /// Parameter name to argument name; default empty.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub arguments: IndexMap<String, String>,
    /// Source location; always written (`null` when absent).
    #[serde(default)]
    pub debuginfo: Option<DebugInfo>,
    /// Block properties shared with all control-flow blocks.
    #[serde(flatten)]
    pub block: BlockFields,
}

/// A `ConditionalBlock`: branches tried in order, each a condition and a region.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct ConditionalBlock {
    /// The block's label.
    #[serde(default)]
    pub label: String,
    /// Index of the block in its parent; always written (`null` when absent).
    #[serde(default)]
    pub id: Option<usize>,
    /// Whether the block is collapsed in viewers; default `false`.
    #[serde(default)]
    pub collapsed: bool,
    /// Index in the SDFG's list of control-flow graphs, as DaCe computed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cfg_list_id: Option<i64>,
    /// Start block (always `null` in DaCe's output).
    #[serde(default)]
    pub start_block: Option<usize>,
    /// The block's properties.
    #[serde(default)]
    pub attributes: RegionAttributes,
    /// Graph nodes (always empty in DaCe's output; the branches hold the blocks).
    #[serde(default)]
    pub nodes: Vec<ControlFlowBlock>,
    /// Graph edges (always empty in DaCe's output).
    #[serde(default)]
    pub edges: Vec<CfgEdge>,
    /// The branches in order.
    #[serde(default)]
    pub branches: Vec<Branch>,
    /// Keys this model does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// A branch of a [`ConditionalBlock`], written as `[condition, region]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Branch {
    /// The branch condition; `None` (JSON `null`) is the `else` branch.
    pub condition: Option<CodeBlock>,
    /// The branch body, a `ControlFlowRegion`.
    pub body: Region<RegionAttributes>,
}

#[derive(Serialize)]
#[serde(tag = "type")]
enum BranchBodyRef<'a> {
    ControlFlowRegion(&'a Region<RegionAttributes>),
}

impl Serialize for Branch {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut t = s.serialize_tuple(2)?;
        t.serialize_element(&self.condition)?;
        t.serialize_element(&BranchBodyRef::ControlFlowRegion(&self.body))?;
        t.end()
    }
}

impl<'de> Deserialize<'de> for Branch {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (condition, body) = <(Option<CodeBlock>, Region<RegionAttributes>)>::deserialize(d)?;
        Ok(Self { condition, body })
    }
}

/// A `BreakBlock`, `ContinueBlock` or `ReturnBlock`.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct SimpleBlock {
    /// The block's label.
    #[serde(default)]
    pub label: String,
    /// Index of the block in its parent; always written (`null` when absent).
    #[serde(default)]
    pub id: Option<usize>,
    /// Whether the block is collapsed in viewers; default `false`.
    #[serde(default)]
    pub collapsed: bool,
    /// The block's properties.
    #[serde(default)]
    pub attributes: RegionAttributes,
    /// Keys this model does not know (DaCe writes empty `nodes` and `edges`).
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

/// An SDFG: `{"type": "SDFG", "attributes": {..}, "nodes": [..], "edges": [..], ..}`.
///
/// Since DaCe 1.0 the SDFG is itself a control-flow region whose `nodes` may
/// be any [`ControlFlowBlock`]; older files hold only states.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
#[serde(tag = "type", rename = "SDFG")]
pub struct Sdfg {
    /// The SDFG's properties.
    pub attributes: SdfgAttributes,
    /// The top-level blocks; edges refer to them by index.
    pub nodes: Vec<ControlFlowBlock>,
    /// The top-level inter-state edges.
    pub edges: Vec<CfgEdge>,
    /// Whether the SDFG is collapsed in viewers; default `false`.
    #[serde(default)]
    pub collapsed: bool,
    /// The SDFG's label (its name).
    #[serde(default)]
    pub label: String,
    /// Always `null` for an SDFG.
    #[serde(default)]
    pub id: Option<usize>,
    /// Index in the list of control-flow graphs, as DaCe computed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cfg_list_id: Option<i64>,
    /// Index of the start block in `nodes` (`None`: DaCe picks the block without in-edges).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_block: Option<usize>,
    /// Pre-1.0 name of `start_block`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_state: Option<usize>,
    /// Pre-1.0 name of `cfg_list_id`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sdfg_list_id: Option<i64>,
    /// Version of DaCe that wrote the file; only on the root SDFG.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dace_version: Option<String>,
    /// Keys this model does not know.
    #[serde(flatten, deserialize_with = "strip_sdfg")]
    pub extra: Map<String, Value>,
}

impl Sdfg {
    /// The SDFG's name.
    pub fn name(&self) -> &str {
        &self.attributes.name
    }

    /// Index of the start block, from `start_block` or the pre-1.0 `start_state`.
    pub fn start_block_index(&self) -> Option<usize> {
        self.start_block.or(self.start_state)
    }
}

/// Properties of an [`Sdfg`].
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct SdfgAttributes {
    /// The SDFG's name.
    pub name: String,
    /// Order of the non-transient containers and symbols as arguments; default none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arg_names: Vec<String>,
    /// Compile-time constants: name to `[descriptor, value]`; default none.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub constants_prop: crate::Constants,
    /// Data containers by name; default none.
    #[serde(
        rename = "_arrays",
        default,
        skip_serializing_if = "IndexMap::is_empty"
    )]
    pub arrays: IndexMap<String, DataDescriptor>,
    /// Symbols and their types; default none.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub symbols: IndexMap<String, DType>,
    /// Instrumentation; default `No_Instrumentation`.
    #[serde(default, skip_serializing_if = "InstrumentationType::is_default")]
    pub instrument: InstrumentationType,
    /// Global code per target (e.g. `"frame"`); default none.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub global_code: IndexMap<String, CodeBlock>,
    /// Initialization code per target; default none.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub init_code: IndexMap<String, CodeBlock>,
    /// Finalization code per target; default none.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub exit_code: IndexMap<String, CodeBlock>,
    /// The SDFG before transformations; default `None`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "optional_nested_sdfg"
    )]
    pub orig_sdfg: Option<Box<Sdfg>>,
    /// Applied transformations, as written; default none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub transformation_hist: Vec<Value>,
    /// Logical groups for viewers, as written; default none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub logical_groups: Vec<Value>,
    /// Whether to generate OpenMP sections for parallel states; default `false`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub openmp_sections: bool,
    /// Source location; default `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub debuginfo: Option<DebugInfo>,
    /// MPI process grids, as written; default none.
    #[serde(
        rename = "_pgrids",
        default,
        skip_serializing_if = "IndexMap::is_empty"
    )]
    pub pgrids: IndexMap<String, Value>,
    /// MPI sub-arrays, as written; default none.
    #[serde(
        rename = "_subarrays",
        default,
        skip_serializing_if = "IndexMap::is_empty"
    )]
    pub subarrays: IndexMap<String, Value>,
    /// MPI redistributions, as written; default none.
    #[serde(
        rename = "_rdistrarrays",
        default,
        skip_serializing_if = "IndexMap::is_empty"
    )]
    pub rdistrarrays: IndexMap<String, Value>,
    /// Callback name mapping; default none.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub callback_mapping: IndexMap<String, String>,
    /// Whether the SDFG uses control-flow regions (written by DaCe after 1.0.2); default `false`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub using_explicit_control_flow: bool,
    /// DaCe 1.0's name of the same flag; default `false`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub using_experimental_blocks: bool,
    /// Unique id; default empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub guid: String,
    /// Content hash DaCe computed when saving; default `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
    /// Whether the SDFG is collapsed in viewers; default `false`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub is_collapsed: bool,
    /// Pre-conditions (annotations); default empty.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub pre_conditions: IndexMap<String, Value>,
    /// Post-conditions (annotations); default empty.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub post_conditions: IndexMap<String, Value>,
    /// Invariants (annotations); default empty.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub invariant_conditions: IndexMap<String, Value>,
    /// Properties this model does not know.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

struct NestedSdfgVisitor;

impl<'de> Visitor<'de> for NestedSdfgVisitor {
    type Value = Sdfg;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an SDFG object or its JSON text")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Sdfg, E> {
        let mut json = serde_json::Deserializer::from_str(v);
        serde_path_to_error::deserialize(&mut json).map_err(|e| {
            E::custom(format_args!(
                "in the embedded SDFG text at {}: {}",
                e.path(),
                e.inner()
            ))
        })
    }

    fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Sdfg, A::Error> {
        Sdfg::deserialize(de::value::MapAccessDeserializer::new(map))
    }
}

/// Serde for a nested SDFG that old files store as a JSON string.
pub(crate) mod nested_sdfg {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(v: &Sdfg, s: S) -> Result<S::Ok, S::Error> {
        v.serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Box<Sdfg>, D::Error> {
        d.deserialize_any(NestedSdfgVisitor).map(Box::new)
    }
}

/// The same for an optional nested SDFG.
mod optional_nested_sdfg {
    use super::*;

    pub(crate) fn serialize<S: Serializer>(v: &Option<Box<Sdfg>>, s: S) -> Result<S::Ok, S::Error> {
        v.serialize(s)
    }

    struct OptVisitor;

    impl<'de> Visitor<'de> for OptVisitor {
        type Value = Option<Box<Sdfg>>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an SDFG object, its JSON text, or null")
        }

        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
            nested_sdfg::deserialize(d).map(Some)
        }
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Box<Sdfg>>, D::Error> {
        d.deserialize_option(OptVisitor)
    }
}
