//! Typed views of the dialect's types, attributes and dataflow edges.

use crate::{
    ffi,
    ir::{
        array_elements, attr_str, attr_str_array, dictionary_entries, str_of, string_ref, Op, Val,
    },
};
use mlir_sys::{
    mlirAttributeIsAType, mlirStringAttrGet, mlirTypeAttrGetValue, MlirAttribute, MlirContext,
    MlirType,
};
use sdfg_symbolic::Expr;
use std::collections::HashMap;
use std::fmt;

macro_rules! dace_enum {
    ($(#[$doc:meta])* $name:ident, $names:path) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name(pub i32);

        impl $name {
            /// DaCe's name of the value (empty if out of range).
            pub fn name(self) -> &'static str {
                // SAFETY: enum names are static strings of the C++ library.
                unsafe { str_of($names(self.0)) }
            }

            /// The value with DaCe's name `name`.
            pub fn from_name(name: &str) -> Option<Self> {
                (0..64).map(Self).find(|v| !v.name().is_empty() && v.name() == name)
            }

            /// Reads the value from an enum attribute of the dialect.
            pub fn from_attr(attr: MlirAttribute) -> Option<Self> {
                // SAFETY: the accessor checks the attribute's kind.
                let value = unsafe { ffi::sdfgEnumAttrValue(attr) };
                (value >= 0).then_some(Self(value))
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

dace_enum!(
    /// A DaCe schedule type (`Default`, `Sequential`, `CPU_Multicore`, ...).
    Schedule,
    ffi::sdfgScheduleName
);
dace_enum!(
    /// A DaCe storage type (`Default`, `Register`, `GPU_Global`, ...).
    Storage,
    ffi::sdfgStorageName
);
dace_enum!(
    /// A DaCe allocation lifetime (`Scope`, `State`, `SDFG`, ...).
    Lifetime,
    ffi::sdfgLifetimeName
);
dace_enum!(
    /// A named write-conflict resolution (`none`, `sum`, `min`, ...).
    WcrKind,
    ffi::sdfgWcrName
);

impl WcrKind {
    /// No write-conflict resolution.
    pub const NONE: WcrKind = WcrKind(0);
    /// A custom lambda.
    pub const CUSTOM: WcrKind = WcrKind(14);
}

/// The kinds of data container.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ContainerKind {
    /// `!sdfg.array`
    Array,
    /// `!sdfg.view`
    View,
    /// `!sdfg.ref`
    Reference,
    /// `!sdfg.scalar`
    Scalar,
    /// `!sdfg.stream`
    Stream,
    /// `!sdfg.structure`
    Structure,
}

/// A data container type, read out of its MLIR type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Container {
    /// Which container.
    pub kind: ContainerKind,
    /// The element type.
    pub element: MlirTypeHandle,
    /// Symbolic sizes (empty for scalars and single streams).
    pub shape: Vec<String>,
    /// Symbolic strides, if not C order.
    pub strides: Option<Vec<String>>,
    /// Symbolic per-dimension offsets, if not zero.
    pub offset: Option<Vec<String>>,
    /// Where the container lives.
    pub storage: Storage,
    /// A stream's buffer size.
    pub buffer: Option<String>,
}

/// An `MlirType` that compares by identity (types are uniqued).
#[derive(Clone, Copy, Debug)]
pub struct MlirTypeHandle(pub MlirType);

impl PartialEq for MlirTypeHandle {
    fn eq(&self, other: &Self) -> bool {
        self.0.ptr == other.0.ptr
    }
}
impl Eq for MlirTypeHandle {}

fn optional_strings(attr: MlirAttribute) -> Option<Vec<String>> {
    (!attr.ptr.is_null()).then(|| attr_str_array(attr).into_iter().map(String::from).collect())
}

fn optional_string(attr: MlirAttribute) -> Option<String> {
    (!attr.ptr.is_null()).then(|| attr_str(attr).unwrap_or_default().to_string())
}

/// The types of a list of type attributes.
fn type_list(attr: MlirAttribute) -> Vec<MlirType> {
    array_elements(attr)
        .into_iter()
        // SAFETY: the dialect's verifiers make these lists TypeAttrs.
        .map(|a| unsafe { mlir_sys::mlirTypeAttrGetValue(a) })
        .collect()
}

/// Named entries: `names` zipped with `types`.
fn named_types(names: MlirAttribute, types: MlirAttribute) -> Vec<(String, MlirType)> {
    attr_str_array(names)
        .into_iter()
        .map(String::from)
        .zip(type_list(types))
        .collect()
}

/// One of the dialect's element types for DaCe's type classes that MLIR's
/// builtin types do not express, read out of its MLIR type.
#[derive(Clone, Debug)]
pub enum ElementType {
    /// `!sdfg.ptr<T>`: the pointee (`none` for `void *`).
    Pointer(MlirType),
    /// `!sdfg.struct<..>`.
    Struct {
        /// The C struct's name.
        name: String,
        /// Fields in order, with their types.
        fields: Vec<(String, MlirType)>,
        /// Pointer fields and the symbolic lengths of what they point at.
        lengths: Vec<(String, String)>,
        /// The size DaCe recorded.
        bytes: i64,
    },
    /// `!sdfg.opaque<"ctype">`.
    Opaque(String),
    /// `!sdfg.callback<[args] -> [results]>`.
    Callback {
        /// Argument types (containers or elements; `none` untyped).
        arguments: Vec<MlirType>,
        /// Result types.
        results: Vec<MlirType>,
    },
}

impl ElementType {
    /// Reads one of these types; `None` for any other type.
    pub fn from_type(ty: MlirType) -> Option<Self> {
        // SAFETY: the accessors check the type's kind and return null
        // attributes for other types.
        unsafe {
            Some(match ffi::sdfgElementTypeKind(ty) {
                1 => ElementType::Pointer(ffi::sdfgPointerPointee(ty)),
                2 => ElementType::Struct {
                    name: attr_str(ffi::sdfgTypeName(ty))
                        .unwrap_or_default()
                        .to_string(),
                    fields: named_types(ffi::sdfgTypeFieldNames(ty), ffi::sdfgTypeFieldTypes(ty)),
                    lengths: dictionary_entries(ffi::sdfgStructLengths(ty))
                        .into_iter()
                        .map(|(k, v)| (k.to_string(), attr_str(v).unwrap_or_default().to_string()))
                        .collect(),
                    bytes: ffi::sdfgStructBytes(ty),
                },
                3 => ElementType::Opaque(
                    attr_str(ffi::sdfgTypeName(ty))
                        .unwrap_or_default()
                        .to_string(),
                ),
                4 => ElementType::Callback {
                    arguments: type_list(ffi::sdfgTypeFieldTypes(ty)),
                    results: type_list(ffi::sdfgCallbackResults(ty)),
                },
                _ => return None,
            })
        }
    }
}

/// The name and the members (in order, with their container types) of a
/// `!sdfg.structure`; `None` for other types.
pub fn structure_members(ty: MlirType) -> Option<(String, Vec<(String, MlirType)>)> {
    // SAFETY: the accessors check the type's kind.
    unsafe {
        (ffi::sdfgContainerKind(ty) == 6).then(|| {
            (
                attr_str(ffi::sdfgTypeName(ty))
                    .unwrap_or_default()
                    .to_string(),
                named_types(ffi::sdfgTypeFieldNames(ty), ffi::sdfgTypeFieldTypes(ty)),
            )
        })
    }
}

impl Container {
    /// Reads a container type; `None` if `ty` is not one.
    pub fn from_type(ty: MlirType) -> Option<Self> {
        // SAFETY: the accessors check the type's kind and return null
        // attributes for absent parameters.
        unsafe {
            let kind = match ffi::sdfgContainerKind(ty) {
                1 => ContainerKind::Array,
                2 => ContainerKind::View,
                3 => ContainerKind::Reference,
                4 => ContainerKind::Scalar,
                5 => ContainerKind::Stream,
                6 => ContainerKind::Structure,
                _ => return None,
            };
            Some(Self {
                kind,
                element: MlirTypeHandle(ffi::sdfgContainerElementType(ty)),
                shape: optional_strings(ffi::sdfgContainerShape(ty)).unwrap_or_default(),
                strides: optional_strings(ffi::sdfgContainerStrides(ty)),
                offset: optional_strings(ffi::sdfgContainerOffset(ty)),
                storage: Storage(ffi::sdfgContainerStorage(ty)),
                buffer: optional_string(ffi::sdfgStreamBuffer(ty)),
            })
        }
    }

    /// Number of dimensions a memlet subset of this container has.
    pub fn rank(&self) -> usize {
        self.shape.len().max(1)
    }

    /// The container type `ty` with its storage set to `storage`; `None`
    /// where `ty` is not an array, view, reference, scalar or stream.
    pub fn with_storage(ty: MlirType, storage: Storage) -> Option<MlirType> {
        // SAFETY: the accessors check the type's kind; the constructor
        // returns a null type for parameters it does not accept.
        let new = unsafe {
            let kind = ffi::sdfgContainerKind(ty);
            if !(1..=5).contains(&kind) {
                return None;
            }
            ffi::sdfgContainerTypeGet(
                mlir_sys::mlirTypeGetContext(ty),
                kind,
                ffi::sdfgContainerElementType(ty),
                ffi::sdfgContainerShape(ty),
                ffi::sdfgContainerStrides(ty),
                ffi::sdfgContainerOffset(ty),
                storage.0,
                ffi::sdfgStreamBuffer(ty),
            )
        };
        (!new.ptr.is_null()).then_some(new)
    }
}

/// A memlet: what one dataflow edge moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Memlet {
    /// The subset (Python slices) at the access-node end of the path.
    pub subset: String,
    /// The subset at the other end of a copy.
    pub other: Option<String>,
    /// The number of elements moved, if not the subset's size.
    pub volume: Option<String>,
    /// Whether `volume` is only an upper bound.
    pub dynamic: bool,
    /// Write-conflict resolution.
    pub wcr: Wcr,
    /// The container's name, only where the SSA value does not imply it
    /// (tasklet-to-tasklet edges).
    pub data: Option<String>,
}

/// A write-conflict resolution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Wcr {
    /// Conflicting writes are not resolved.
    None,
    /// A named reduction.
    Named(WcrKind),
    /// A custom Python lambda.
    Custom(String),
}

impl Wcr {
    /// The resolution a DaCe lambda of two arguments computes: the named
    /// one where the body is one of them (`lambda a, b: a + b` is `sum`,
    /// also with the arguments swapped or the body in parentheses), a
    /// custom lambda otherwise.
    pub fn from_lambda(lambda: &str) -> Wcr {
        match named_lambda(lambda).and_then(WcrKind::from_name) {
            Some(kind) => Wcr::Named(kind),
            None => Wcr::Custom(lambda.to_string()),
        }
    }
}

/// The name of the resolution `lambda` computes, where it is a sum, a
/// product, a minimum, a maximum or an exchange.
fn named_lambda(lambda: &str) -> Option<&'static str> {
    let mut text = lambda.trim();
    while let Some(inner) = text.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
        // Only parentheses around the whole lambda: `(a)(b)` keeps its.
        let balanced = inner
            .chars()
            .try_fold(0i32, |depth, c| match c {
                '(' => Some(depth + 1),
                ')' => (depth > 0).then(|| depth - 1),
                _ => Some(depth),
            })
            .is_some();
        if !balanced {
            break;
        }
        text = inner.trim();
    }
    let (args, body) = text.strip_prefix("lambda")?.split_once(':')?;
    let names: Vec<&str> = args.split(',').map(str::trim).collect();
    let [a, b] = names.as_slice() else {
        return None;
    };
    let body = sdfg_symbolic::parse(body.trim()).ok()?;
    let (a, b) = (Expr::symbol(a), Expr::symbol(b));
    if body == Expr::add(&a, &b) {
        Some("sum")
    } else if body == Expr::mul(&a, &b) {
        Some("product")
    } else if body == Expr::min(vec![a.clone(), b.clone()]) {
        Some("min")
    } else if body == Expr::max(vec![a, b.clone()]) {
        Some("max")
    } else if body == b {
        Some("exchange")
    } else {
        None
    }
}

impl Memlet {
    /// Reads a `#sdfg.memlet`; `None` for other attributes.
    pub fn from_attr(attr: MlirAttribute) -> Option<Self> {
        // SAFETY: the kind is checked before the accessors run.
        unsafe {
            if attr.ptr.is_null() || !ffi::sdfgAttributeIsMemlet(attr) {
                return None;
            }
            let kind = WcrKind(ffi::sdfgMemletWcr(attr));
            let wcr = match kind {
                WcrKind::NONE => Wcr::None,
                WcrKind::CUSTOM => {
                    Wcr::Custom(optional_string(ffi::sdfgMemletWcrLambda(attr)).unwrap_or_default())
                }
                named => Wcr::Named(named),
            };
            Some(Self {
                subset: optional_string(ffi::sdfgMemletSubset(attr)).unwrap_or_default(),
                other: optional_string(ffi::sdfgMemletOther(attr)),
                volume: optional_string(ffi::sdfgMemletVolume(attr)),
                dynamic: ffi::sdfgMemletDynamic(attr),
                wcr,
                data: optional_string(ffi::sdfgMemletData(attr)),
            })
        }
    }
}

impl Memlet {
    /// The memlet that moves `subset`: no other subset, volume, conflict
    /// resolution or data name.
    pub fn plain(subset: &str) -> Self {
        Memlet {
            subset: subset.to_string(),
            other: None,
            volume: None,
            dynamic: false,
            wcr: Wcr::None,
            data: None,
        }
    }

    /// The `#sdfg.memlet` attribute of this memlet in `ctx`.
    pub fn to_attr(&self, ctx: MlirContext) -> MlirAttribute {
        let string = |text: &Option<String>| match text {
            // SAFETY: a string attribute of a live context.
            Some(t) => unsafe { mlirStringAttrGet(ctx, string_ref(t)) },
            None => MlirAttribute {
                ptr: std::ptr::null(),
            },
        };
        let (kind, lambda) = match &self.wcr {
            Wcr::None => (WcrKind::NONE, None),
            Wcr::Named(kind) => (*kind, None),
            Wcr::Custom(lambda) => (WcrKind::CUSTOM, Some(lambda.clone())),
        };
        // SAFETY: the attributes are live in `ctx`, or null where absent.
        unsafe {
            ffi::sdfgMemletGet(
                ctx,
                string_ref(&self.subset),
                string(&self.other),
                string(&self.volume),
                self.dynamic,
                kind.0,
                string(&lambda),
                string(&self.data),
            )
        }
    }
}

/// Where an operand's memlet is stored: the op's attribute holding it and,
/// for array attributes, the position in the array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemletSlot {
    /// The attribute's name (`in_memlets`, `write_memlets`, `memlets`, ...).
    pub attr: &'static str,
    /// The position in the array, or `None` for a single-memlet attribute
    /// (`source_memlet`, `stream_memlet`).
    pub index: Option<usize>,
}

/// Where the memlet of operand `operand` of `op` is stored; `None` for
/// operands without one (ordering edges, ops without memlets).
pub fn memlet_slot(op: Op<'_>, operand: usize) -> Option<MemletSlot> {
    let sizes: Vec<usize> = (0..4).map(|k| op.operand_segment(k).len()).collect();
    let segment = |k: usize| -> Option<usize> {
        let start: usize = sizes[..k].iter().sum();
        (operand >= start && operand < start + sizes[k]).then(|| operand - start)
    };
    let array = |attr, index| {
        Some(MemletSlot {
            attr,
            index: Some(index),
        })
    };
    let single = |attr| Some(MemletSlot { attr, index: None });
    match op.name() {
        "sdfg.exit" => array("memlets", operand),
        "sdfg.access" => match (segment(1), segment(2)) {
            (Some(i), _) => array("write_memlets", i),
            (_, Some(_)) => single("source_memlet"),
            _ => None,
        },
        "sdfg.tasklet" | "sdfg.nested" | "sdfg.library" => array("in_memlets", segment(0)?),
        "sdfg.map" => match (segment(0), segment(1)) {
            (Some(i), _) => array("in_memlets", i),
            (_, Some(i)) => array("dyn_memlets", i),
            _ => None,
        },
        "sdfg.consume" => match (segment(0), segment(1)) {
            (Some(_), _) => single("stream_memlet"),
            (_, Some(i)) => array("in_memlets", i),
            _ => None,
        },
        _ => None,
    }
}

/// The memlet of operand `operand` of `op`, if it has one.
pub fn memlet_at(op: Op<'_>, operand: usize) -> Option<Memlet> {
    let slot = memlet_slot(op, operand)?;
    match slot.index {
        Some(i) => op
            .array_attr(slot.attr)
            .get(i)
            .copied()
            .and_then(Memlet::from_attr),
        None => op.attr(slot.attr).and_then(Memlet::from_attr),
    }
}

/// Replaces the memlet of operand `operand` of `op`; false where the
/// operand has no memlet.
pub fn set_memlet_at(op: Op<'_>, operand: usize, memlet: &Memlet) -> bool {
    let Some(slot) = memlet_slot(op, operand) else {
        return false;
    };
    let attr = memlet.to_attr(op.context());
    match slot.index {
        Some(i) => {
            let mut all = op.array_attr(slot.attr);
            let Some(entry) = all.get_mut(i) else {
                return false;
            };
            *entry = attr;
            op.set_attr(slot.attr, crate::ir::array_of(op.context(), &all));
        }
        None => op.set_attr(slot.attr, attr),
    }
    true
}

impl fmt::Display for Memlet {
    /// The bracketed form used in the dialect's operand lists.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{:?}", self.subset)?;
        if let Some(other) = &self.other {
            write!(f, " -> {other:?}")?;
        }
        if let Some(volume) = &self.volume {
            write!(f, ", volume {volume:?}")?;
        }
        if self.dynamic {
            f.write_str(", dynamic")?;
        }
        match &self.wcr {
            Wcr::None => {}
            Wcr::Named(kind) => write!(f, ", wcr {kind}")?,
            Wcr::Custom(lambda) => write!(f, ", wcr {lambda:?}")?,
        }
        if let Some(data) = &self.data {
            write!(f, ", data {data:?}")?;
        }
        f.write_str("]")
    }
}

/// What an incoming dataflow edge of an op stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeRole {
    /// Data into an input connector (or into an access node).
    Input,
    /// A dynamic map-range input.
    Dynamic,
    /// The edge binding a view or reference (`bind`).
    Bind,
    /// The stream a consume scope drains.
    Stream,
    /// An edge into a scope's exit node (operand of `sdfg.exit`).
    Exit,
    /// An ordering-only edge (empty memlet).
    After,
}

/// One incoming dataflow edge of a node.
#[derive(Clone, Debug)]
pub struct Edge<'a> {
    /// Where the data comes from.
    pub source: Val<'a>,
    /// The memlet; `None` for ordering-only edges.
    pub memlet: Option<Memlet>,
    /// The connector the edge arrives at, for nodes with named connectors.
    pub connector: Option<&'a str>,
    /// What the edge is.
    pub role: EdgeRole,
}

fn collect_edges<'a>(
    out: &mut Vec<Edge<'a>>,
    values: Vec<Val<'a>>,
    memlets: Vec<MlirAttribute>,
    names: Vec<&'a str>,
    role: EdgeRole,
) {
    for (i, source) in values.into_iter().enumerate() {
        out.push(Edge {
            source,
            memlet: memlets.get(i).copied().and_then(Memlet::from_attr),
            connector: names.get(i).copied(),
            role,
        });
    }
}

/// The incoming edges of a dataflow op (access node, tasklet, scope, nested
/// SDFG, library node or scope exit), in operand order.
pub fn incoming_edges<'a>(op: Op<'a>) -> Vec<Edge<'a>> {
    let mut edges = Vec::new();
    match op.name() {
        "sdfg.access" => {
            collect_edges(
                &mut edges,
                op.operand_segment(1),
                op.array_attr("write_memlets"),
                Vec::new(),
                EdgeRole::Input,
            );
            let bind = op.attr("source_memlet").into_iter().collect();
            collect_edges(
                &mut edges,
                op.operand_segment(2),
                bind,
                Vec::new(),
                EdgeRole::Bind,
            );
            collect_edges(
                &mut edges,
                op.operand_segment(3),
                Vec::new(),
                Vec::new(),
                EdgeRole::After,
            );
        }
        "sdfg.tasklet" | "sdfg.nested" | "sdfg.library" => {
            collect_edges(
                &mut edges,
                op.operand_segment(0),
                op.array_attr("in_memlets"),
                op.str_array_attr("in_names"),
                EdgeRole::Input,
            );
            collect_edges(
                &mut edges,
                op.operand_segment(1),
                Vec::new(),
                Vec::new(),
                EdgeRole::After,
            );
        }
        "sdfg.map" => {
            collect_edges(
                &mut edges,
                op.operand_segment(0),
                op.array_attr("in_memlets"),
                op.str_array_attr("in_names"),
                EdgeRole::Input,
            );
            collect_edges(
                &mut edges,
                op.operand_segment(1),
                op.array_attr("dyn_memlets"),
                op.str_array_attr("dyn_names"),
                EdgeRole::Dynamic,
            );
            collect_edges(
                &mut edges,
                op.operand_segment(2),
                Vec::new(),
                Vec::new(),
                EdgeRole::After,
            );
        }
        "sdfg.consume" => {
            let stream = op.attr("stream_memlet").into_iter().collect();
            collect_edges(
                &mut edges,
                op.operand_segment(0),
                stream,
                Vec::new(),
                EdgeRole::Stream,
            );
            collect_edges(
                &mut edges,
                op.operand_segment(1),
                op.array_attr("in_memlets"),
                op.str_array_attr("in_names"),
                EdgeRole::Input,
            );
            collect_edges(
                &mut edges,
                op.operand_segment(2),
                Vec::new(),
                Vec::new(),
                EdgeRole::After,
            );
        }
        "sdfg.exit" => {
            collect_edges(
                &mut edges,
                op.operands(),
                op.array_attr("memlets"),
                op.str_array_attr("names"),
                EdgeRole::Exit,
            );
        }
        _ => {}
    }
    edges
}

/// The container an access node accesses (its first operand).
pub fn accessed_container<'a>(access: Op<'a>) -> Option<Val<'a>> {
    access.operands().first().copied()
}

/// The DaCe name of a data container value: the SDFG argument name, the
/// `sdfg.alloc` name, or `structure.member` for an `sdfg.member`.
pub fn container_name(value: Val<'_>) -> Option<String> {
    if let Some(op) = value.defining_op() {
        return match op.name() {
            "sdfg.alloc" => op.str_attr("name").map(String::from),
            "sdfg.member" => {
                let structure = container_name(*op.operands().first()?)?;
                Some(format!("{structure}.{}", op.str_attr("member")?))
            }
            _ => None,
        };
    }
    let (owner, index) = value.block_arg()?;
    owner
        .is("sdfg.sdfg")
        .then(|| {
            owner
                .str_array_attr("arg_names")
                .get(index)
                .map(|n| n.to_string())
        })
        .flatten()
}

/// The name of the container that a scope or nested-SDFG output `value`
/// is written to: through scope exits to the access node that takes it
/// (the first use's, where the value has several).
pub fn written_container(value: Val<'_>) -> Option<String> {
    value
        .uses()
        .into_iter()
        .find_map(|(user, operand)| match user.name() {
            "sdfg.access" => user.operands().first().and_then(|c| container_name(*c)),
            "sdfg.exit" => {
                let scope = user.parent()?;
                let name = user.str_array_attr("names").get(operand)?.to_string();
                let k = scope
                    .str_array_attr("out_names")
                    .iter()
                    .position(|n| *n == name)?;
                written_container(*scope.results().get(k)?)
            }
            _ => None,
        })
}

/// Follows a dataflow value back to the data container it stands for:
/// through access nodes (to the container they access) and scope block
/// arguments (to the scope's input). Values that stand for no container
/// (tasklet outputs) are returned unchanged.
pub fn underlying_container(value: Val<'_>) -> Val<'_> {
    let mut value = value;
    loop {
        let next = if let Some(op) = value.defining_op() {
            op.is("sdfg.access")
                .then(|| op.operands().first().copied())
                .flatten()
        } else if let Some((owner, index)) = value.block_arg() {
            match owner.name() {
                "sdfg.map" => {
                    let mut inputs = owner.operand_segment(0);
                    inputs.extend(owner.operand_segment(1));
                    inputs.get(index).copied()
                }
                "sdfg.consume" if index > 0 => owner.operand_segment(1).get(index - 1).copied(),
                _ => None,
            }
        } else {
            None
        };
        match next {
            Some(next) => value = next,
            None => return value,
        }
    }
}

/// The ops that are control-flow blocks (`sdfg.state`, `sdfg.loop`, ...).
pub const CONTROL_FLOW_BLOCKS: &[&str] = &[
    "sdfg.state",
    "sdfg.loop",
    "sdfg.conditional",
    "sdfg.region",
    "sdfg.call_region",
    "sdfg.break",
    "sdfg.continue",
    "sdfg.return",
];

/// The ops that are dataflow nodes of a state.
pub const DATAFLOW_NODES: &[&str] = &[
    "sdfg.access",
    "sdfg.tasklet",
    "sdfg.map",
    "sdfg.consume",
    "sdfg.nested",
    "sdfg.library",
];

/// The symbol that holds how many elements a consume scope with a chunk
/// size other than 1 took (DaCe's `__dace_<label>_numelems`), defined
/// inside the scope.
pub fn chunk_count_symbol(label: &str) -> String {
    format!("__dace_{label}_numelems")
}

/// The chunk size of a consume scope, `None` when it takes one element at
/// a time (no `chunksize`, or `"1"`).
pub fn consume_chunk_size(consume: Op<'_>) -> Option<&str> {
    consume
        .str_attr("chunksize")
        .map(str::trim)
        .filter(|c| *c != "1")
}

/// The symbols `sdfg` declares (its `symbols` attribute) with their types.
pub fn declared_symbols<'s>(sdfg: Op<'s>) -> Vec<(&'s str, MlirType)> {
    sdfg.attr("symbols")
        .map(dictionary_entries)
        .unwrap_or_default()
        .into_iter()
        // SAFETY: the kind is checked before the type is read.
        .filter(|(_, a)| unsafe { mlirAttributeIsAType(*a) })
        .map(|(n, a)| (n, unsafe { mlirTypeAttrGetValue(a) }))
        .collect()
}

/// The containers an SDFG declares: its arguments, then its transients
/// (`sdfg.alloc`), in order.
pub fn containers(sdfg: Op<'_>) -> Vec<Val<'_>> {
    sdfg.region_args(0)
        .into_iter()
        .chain(
            sdfg.region_ops(0)
                .into_iter()
                .filter(|o| o.is("sdfg.alloc"))
                .flat_map(|o| o.results()),
        )
        .collect()
}

/// The value, the target and the indices of a `memref.store` (or of an
/// `sdfg.push`, which has no indices) in a tasklet body.
pub fn stored<'a>(op: Op<'a>) -> (Val<'a>, Val<'a>, Vec<Val<'a>>) {
    let operands = op.operands();
    if op.is("sdfg.push") {
        (operands[1], operands[0], operands[2..].to_vec())
    } else {
        (operands[0], operands[1], operands[2..].to_vec())
    }
}

/// `name` with every character that is not an ASCII letter, digit or `_`
/// replaced by `_` (a name C and MLIR symbols accept).
pub fn sanitized(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The identifiers in a piece of code or a symbolic expression.
pub fn identifiers(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty() && !w.starts_with(|c: char| c.is_ascii_digit()))
        .map(str::to_string)
}

/// The identifiers that type `ty` names: none for numbers and vectors of
/// them; for an array, view, reference, scalar or stream, those of its
/// sizes, strides, offsets and buffer size and of its element type; for
/// any other type, those of its printed form. Printing a type sets up the
/// MLIR printer's state each time, which was most of [`mention_counts`]'s
/// time.
fn type_mentions(ty: MlirType) -> Vec<String> {
    // SAFETY: `ty` is a live type.
    let plain = unsafe {
        mlir_sys::mlirTypeIsAInteger(ty)
            || mlir_sys::mlirTypeIsAFloat(ty)
            || mlir_sys::mlirTypeIsAIndex(ty)
            || mlir_sys::mlirTypeIsAVector(ty)
    };
    if plain {
        return Vec::new();
    }
    let container = Container::from_type(ty)
        .filter(|c| c.kind != ContainerKind::Structure && !c.element.0.ptr.is_null());
    let Some(container) = container else {
        return identifiers(&crate::ir::type_to_string(ty)).collect();
    };
    let texts = container
        .shape
        .iter()
        .chain(container.strides.iter().flatten())
        .chain(container.offset.iter().flatten())
        .chain(container.buffer.iter());
    let mut names: Vec<String> = texts.flat_map(|t| identifiers(t)).collect();
    names.extend(type_mentions(container.element.0));
    names
}

/// How often each identifier appears under `sdfg`: in every string
/// attribute (declaring ones included, so that an assignment's target
/// counts), in every memlet's subsets, volume and reduction, and inside
/// arrays and dictionaries (library nodes' properties).
pub fn mention_counts(sdfg: Op<'_>) -> HashMap<String, usize> {
    fn visit(attr: MlirAttribute, counts: &mut HashMap<String, usize>) {
        let mut count = |text: &str| {
            for word in identifiers(text) {
                *counts.entry(word).or_default() += 1;
            }
        };
        if let Some(text) = attr_str(attr) {
            count(text);
        } else if let Some(memlet) = Memlet::from_attr(attr) {
            count(&memlet.subset);
            memlet.other.as_deref().map(&mut count);
            memlet.volume.as_deref().map(&mut count);
            if let Wcr::Custom(lambda) = &memlet.wcr {
                count(lambda);
            }
        } else {
            for element in array_elements(attr) {
                visit(element, counts);
            }
            for (_, value) in dictionary_entries(attr) {
                visit(value, counts);
            }
        }
    }
    let mut counts = HashMap::new();
    let mut type_names: HashMap<*const std::ffi::c_void, Vec<String>> = HashMap::new();
    for op in std::iter::once(sdfg).chain(sdfg.descendants()) {
        for (_, attr) in op.attributes() {
            visit(attr, &mut counts);
        }
        // Container types name symbols in their shapes, strides and
        // offsets.
        let values = op
            .results()
            .into_iter()
            .chain((0..op.num_regions()).flat_map(|r| op.region_args(r)));
        for value in values {
            let ty = value.ty();
            let names = type_names
                .entry(ty.ptr)
                .or_insert_with(|| type_mentions(ty));
            for name in names.iter() {
                *counts.entry(name.clone()).or_default() += 1;
            }
        }
    }
    counts
}

/// The dataflow value a view node is bound to (an access node or a
/// scope argument of the viewed data) and the subset of it (the data's
/// side of the binding edge); `None` when nothing binds it. A node
/// without a `bind` edge shares the binding of the state's bound node
/// of the same view (as DaCe's code generator defines one pointer per
/// view and state), or else is bound by the edge writing it back into
/// its data.
pub fn view_binding<'a>(access: Op<'a>, container: Val<'a>) -> Option<(Val<'a>, String)> {
    let bind = |node: Op<'a>| {
        let edge = incoming_edges(node)
            .into_iter()
            .find(|e| e.role == EdgeRole::Bind)?;
        Some((
            edge.source,
            edge.memlet.map(|m| m.subset).unwrap_or_default(),
        ))
    };
    if let Some(binding) = bind(access) {
        return Some(binding);
    }
    let shared = container
        .uses()
        .into_iter()
        .map(|(user, _)| user)
        .filter(|other| other.parent() == access.parent() && *other != access)
        .find_map(bind);
    shared.or_else(|| {
        let (user, subset) = view_write_back(access)?;
        Some((user.results()[0], subset))
    })
}

/// For a view node without a `bind` edge: the access node it is written
/// back into and that node's subset. The importer keeps DaCe's view edge as
/// `bind` when it is the incoming one, so an unbound view's outgoing edge to
/// data is its view edge (DaCe's `views` connector): it binds the view and
/// moves nothing.
pub fn view_write_back(view: Op<'_>) -> Option<(Op<'_>, String)> {
    if incoming_edges(view)
        .iter()
        .any(|e| e.role == EdgeRole::Bind)
    {
        return None;
    }
    let is_view = |node: Op<'_>| {
        accessed_container(node)
            .and_then(|c| Container::from_type(c.ty()))
            .is_some_and(|c| c.kind == ContainerKind::View)
    };
    if !is_view(view) {
        return None;
    }
    let node = view.results()[0];
    node.uses().into_iter().find_map(|(user, operand)| {
        if !user.is("sdfg.access") || operand == 0 {
            return None;
        }
        let k = user.operand_segment(1).iter().position(|w| *w == node)?;
        let memlet = user
            .array_attr("write_memlets")
            .get(k)
            .copied()
            .and_then(Memlet::from_attr)?;
        Some((user, memlet.other.unwrap_or(memlet.subset)))
    })
}

/// Whether the edge from `source` into `access` is a view's edge into the
/// data it is written back into: it binds the view and moves nothing.
pub fn binds_view(source: Val<'_>, access: Op<'_>) -> bool {
    source
        .defining_op()
        .and_then(view_write_back)
        .is_some_and(|(user, _)| user == access)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_mentions_are_the_symbols_of_the_printed_type() {
        let context = crate::create_context();
        for (text, expected) in [
            ("f64", vec![]),
            ("vector<4xf32>", vec![]),
            ("!sdfg.array<f64 [\"N\", \"M + 1\"]>", vec!["N", "M"]),
            (
                "!sdfg.array<f32 [\"N\"] strides [\"2*S\"] offset [\"o\"] storage GPU_Global>",
                vec!["N", "S", "o"],
            ),
            ("!sdfg.scalar<i32>", vec![]),
            (
                "!sdfg.stream<f64 shape [\"P\"] buffer \"B\" storage FPGA_Local>",
                vec!["P", "B"],
            ),
        ] {
            let ty = melior::ir::r#type::TypeLike::to_raw(
                &melior::ir::Type::parse(&context, text).expect("a type"),
            );
            let mut names = type_mentions(ty);
            names.sort();
            let mut expected: Vec<String> = expected.into_iter().map(String::from).collect();
            expected.sort();
            assert_eq!(names, expected, "{text}");
            // Every name is one the printed type mentions.
            let printed: Vec<String> = identifiers(&crate::ir::type_to_string(ty)).collect();
            assert!(names.iter().all(|n| printed.contains(n)), "{text}");
        }
    }
}
