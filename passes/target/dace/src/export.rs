//! `--export-dace`: the sdfg dialect to DaCe `.sdfg` files.
//!
//! Every `sdfg.sdfg` at the top of the module becomes one DaCe SDFG (the
//! first one is written; nested SDFGs are written inside their nodes). The
//! JSON is built in DaCe 1.0's format and then read back through the serde
//! model (`sdfg-dace-model`), which checks its shape and writes it the way
//! DaCe does.
//!
//! The mapping is the inverse of `--import-dace`:
//!
//! - arguments are the non-transient containers, in order (`arg_names`),
//!   `sdfg.alloc`s the transients; strides and offsets omitted in the type
//!   are written out (C order, zero), as DaCe expects them;
//! - each op of a state becomes its node (scopes become an entry and an exit
//!   node), each memlet'd operand an edge whose connectors follow DaCe's
//!   conventions (`IN_x`/`OUT_x` on scopes, `views`/`set` on bindings);
//!   `after` operands become empty memlets, and nodes of a scope without
//!   in-edges (out-edges) get the empty edge from its entry (to its exit)
//!   that DaCe uses to keep them in the scope;
//! - a state inside a loop or branch that holds a library node goes into a
//!   nested SDFG of one state (`Exporter::expandable`), since DaCe 1.0.2
//!   cannot expand library nodes in such states; `export_sdfg_as_is`
//!   leaves it in place (import, export, import is then a fixed point);
//! - a memlet's data is the container at the access-node end of its path;
//!   Python slices go back to DaCe's inclusive ends through
//!   `Range::to_dace_inclusive`, the one place that converts.

use crate::mlir_python::print_body;
use mlir_sys::MlirType;
use sdfg_dace_model as dace;
use sdfg_dialect::{
    container_name,
    driver::{Diagnosed, TranslationFromMlir},
    incoming_edges,
    ir::{type_to_string, Op, Val},
    structure_members, underlying_container, Container, ContainerKind, EdgeRole, ElementType,
    Lifetime, Memlet, Schedule, Wcr,
};
use sdfg_symbolic::{parse, parse_subset, Expr};
use serde_json::{json, Map, Value};
use std::collections::HashMap;

/// The DaCe name of an MLIR element type, or a DaCe type object.
fn dtype(op: Op<'_>, ty: MlirType) -> Result<Value, Diagnosed> {
    if let Some(element) = ElementType::from_type(ty) {
        return element_dtype(op, element);
    }
    // SAFETY: the shaped-type accessors are used on vectors only.
    if unsafe { mlir_sys::mlirTypeIsAVector(ty) } {
        let (element, lanes) = unsafe {
            (
                mlir_sys::mlirShapedTypeGetElementType(ty),
                mlir_sys::mlirShapedTypeGetDimSize(ty, 0),
            )
        };
        return Ok(
            json!({"type": "vector", "dtype": dtype(op, element)?, "elements": lanes.to_string()}),
        );
    }
    let text = type_to_string(ty);
    let name = match text.as_str() {
        "i1" => "bool",
        "i8" => "int8",
        "i16" => "int16",
        "i32" => "int32",
        "i64" | "index" => "int64",
        "ui8" => "uint8",
        "ui16" => "uint16",
        "ui32" => "uint32",
        "ui64" => "uint64",
        "f16" => "float16",
        "f32" => "float32",
        "f64" => "float64",
        "complex<f32>" => "complex64",
        "complex<f64>" => "complex128",
        other => {
            op.emit_error(format!("cannot export element type {other} to DaCe"));
            return Err(Diagnosed);
        }
    };
    Ok(Value::String(name.to_string()))
}

/// DaCe's type objects for the dialect's pointer, struct, opaque and
/// callback types.
fn element_dtype(op: Op<'_>, element: ElementType) -> Result<Value, Diagnosed> {
    Ok(match element {
        ElementType::Pointer(pointee) => {
            // SAFETY: a type check on a valid type.
            let pointee = if unsafe { mlir_sys::mlirTypeIsANone(pointee) } {
                Value::Null
            } else {
                dtype(op, pointee)?
            };
            json!({"type": "pointer", "dtype": pointee})
        }
        ElementType::Opaque(ctype) => json!({"type": "opaque", "ctype": ctype}),
        ElementType::Struct {
            name,
            fields,
            lengths,
            bytes,
        } => {
            let mut data = Vec::new();
            for (field, ty) in fields {
                data.push(json!([field, dtype(op, ty)?]));
            }
            let lengths: Vec<Value> = lengths.into_iter().map(|(f, l)| json!([f, l])).collect();
            json!({"type": "struct", "name": name, "data": data, "length": lengths, "bytes": bytes})
        }
        ElementType::Callback { arguments, results } => {
            let list = |types: Vec<MlirType>| -> Result<Vec<Value>, Diagnosed> {
                types.into_iter().map(|t| callback_item(op, t)).collect()
            };
            json!({"type": "callback", "arguments": list(arguments)?, "returntypes": list(results)?})
        }
    })
}

/// One entry of the `constants` attribute as DaCe's `[descriptor, value]`:
/// typed integer, float and boolean attributes are scalars, dense tensors
/// arrays (`{"type": "ndarray", ..}`).
fn constant_json(
    sdfg: Op<'_>,
    name: &str,
    value: mlir_sys::MlirAttribute,
) -> Result<Value, Diagnosed> {
    use mlir_sys::*;
    let unsupported = || {
        sdfg.emit_error(format!(
            "constant \"{name}\" is neither a number nor a dense tensor"
        ));
        Diagnosed
    };
    // SAFETY: every accessor is guarded by the attribute's or type's kind.
    unsafe {
        let ty = mlirAttributeGetType(value);
        if mlirAttributeIsADenseElements(value) && mlirTypeIsARankedTensor(ty) {
            let element = mlirShapedTypeGetElementType(ty);
            let shape: Vec<i64> = (0..mlirShapedTypeGetRank(ty))
                .map(|d| mlirShapedTypeGetDimSize(ty, d as isize))
                .collect();
            let count = shape.iter().product::<i64>().max(0) as isize;
            let float =
                mlirTypeIsAF64(element) || mlirTypeIsAF32(element) || mlirTypeIsAF16(element);
            let flat: Vec<Value> = (0..count)
                .map(|i| {
                    // The multi-index of flat position `i` (C order).
                    let mut index = vec![0u64; shape.len()];
                    let mut rest = i as u64;
                    for (d, size) in shape.iter().enumerate().rev() {
                        let size = (*size).max(1) as u64;
                        index[d] = rest % size;
                        rest /= size;
                    }
                    let element =
                        mlirElementsAttrGetValue(value, index.len() as isize, index.as_mut_ptr());
                    if float {
                        json!(mlirFloatAttrGetValueDouble(element))
                    } else if mlirTypeIsAInteger(mlirAttributeGetType(element))
                        && mlirIntegerTypeGetWidth(mlirAttributeGetType(element)) == 1
                    {
                        json!(mlirIntegerAttrGetValueInt(element) != 0)
                    } else {
                        json!(mlirIntegerAttrGetValueInt(element))
                    }
                })
                .collect();
            fn nest(flat: &[Value], shape: &[i64]) -> Value {
                match shape {
                    [] | [_] => Value::Array(flat.to_vec()),
                    [_, rest @ ..] => {
                        let chunk = rest.iter().product::<i64>().max(1) as usize;
                        Value::Array(flat.chunks(chunk).map(|c| nest(c, rest)).collect())
                    }
                }
            }
            let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
            let dtype_json = dtype(sdfg, element)?;
            let descriptor = json!({"type": "Array", "attributes": {
                "dtype": dtype_json,
                "shape": dims,
                "strides": c_strides(&dims),
                "total_size": total_size(&dims),
                "offset": vec!["0"; dims.len()],
                "transient": true,
            }});
            let data = json!({"type": "ndarray", "data": nest(&flat, &shape), "dtype": dtype_json});
            return Ok(json!([descriptor, data]));
        }
        let scalar = if mlirAttributeIsAFloat(value) {
            json!(mlirFloatAttrGetValueDouble(value))
        } else if mlirAttributeIsABool(value) {
            json!(mlirBoolAttrGetValue(value))
        } else if mlirAttributeIsAInteger(value) {
            json!(mlirIntegerAttrGetValueInt(value))
        } else {
            return Err(unsupported());
        };
        let descriptor = json!({"type": "Scalar", "attributes": {
            "dtype": dtype(sdfg, ty)?,
            "shape": ["1"],
            "transient": true,
        }});
        Ok(json!([descriptor, scalar]))
    }
}

/// A `!sdfg.structure` as DaCe's `Structure` descriptor: its members'
/// descriptors and the pointer-to-struct element type DaCe derives from
/// them (arrays are pointer fields with their sizes as lengths).
fn structure_descriptor(
    op: Op<'_>,
    ty: MlirType,
    transient: bool,
    container: &Container,
) -> Result<Value, Diagnosed> {
    let Some((name, members)) = structure_members(ty) else {
        op.emit_error(format!("{} is not a structure", type_to_string(ty)));
        return Err(Diagnosed);
    };
    let mut described = Vec::new();
    let mut fields = Vec::new();
    let mut lengths = Vec::new();
    let mut layout = (0i64, 1i64);
    for (member, member_ty) in members {
        let descriptor = descriptor_of_type(op, member_ty, transient, None)?;
        let Some(inner) = Container::from_type(member_ty) else {
            op.emit_error(format!("structure member \"{member}\" is not a container"));
            return Err(Diagnosed);
        };
        let (field, size) = match inner.kind {
            ContainerKind::Scalar => (
                dtype(op, inner.element.0)?,
                element_bytes(&type_to_string(inner.element.0)),
            ),
            ContainerKind::Structure => (descriptor["attributes"]["dtype"].clone(), 8),
            _ => {
                let element = dtype(op, inner.element.0)?;
                lengths.push(json!([member.clone(), total_size(&inner.shape)]));
                (json!({"type": "pointer", "dtype": element}), 8)
            }
        };
        // C layout: each field aligned to its size.
        let (offset, align) = layout;
        let offset = (offset + size - 1) / size * size + size;
        layout = (offset, align.max(size));
        fields.push(json!([member.clone(), field]));
        described.push(json!([member, descriptor]));
    }
    let (end, align) = layout;
    let bytes = (end + align - 1) / align * align;
    let mut attrs = Map::new();
    attrs.insert("members".into(), json!(described));
    attrs.insert("name".into(), json!(name));
    attrs.insert(
        "dtype".into(),
        json!({"type": "pointer", "dtype": {"type": "struct", "name": name, "data": fields, "length": lengths, "bytes": bytes}}),
    );
    attrs.insert("shape".into(), json!(["1"]));
    if transient {
        attrs.insert("transient".into(), json!(true));
    }
    if container.storage.name() != "Default" {
        attrs.insert("storage".into(), json!(container.storage.name()));
    }
    Ok(json!({"type": "Structure", "attributes": attrs}))
}

/// The size in bytes of a scalar element type.
fn element_bytes(ty: &str) -> i64 {
    match ty {
        "i1" | "i8" | "ui8" => 1,
        "i16" | "ui16" | "f16" => 2,
        "i32" | "ui32" | "f32" => 4,
        "complex<f64>" => 16,
        _ => 8,
    }
}

/// A callback argument or result: a data descriptor, an element type or
/// `null`.
fn callback_item(op: Op<'_>, ty: MlirType) -> Result<Value, Diagnosed> {
    // SAFETY: a type check on a valid type.
    if unsafe { mlir_sys::mlirTypeIsANone(ty) } {
        return Ok(Value::Null);
    }
    if Container::from_type(ty).is_some() {
        return descriptor_of_type(op, ty, false, None);
    }
    dtype(op, ty)
}

/// C-order strides of a shape.
fn c_strides(shape: &[String]) -> Vec<String> {
    let mut strides = vec![String::new(); shape.len()];
    let mut product = Expr::int(1);
    for (k, size) in shape.iter().enumerate().rev() {
        strides[k] = product.to_string();
        product = match parse(size) {
            Ok(size) => Expr::mul(&product, &size),
            Err(_) => product,
        };
    }
    strides
}

fn total_size(shape: &[String]) -> String {
    shape
        .iter()
        .filter_map(|s| parse(s).ok())
        .fold(Expr::int(1), |p, s| Expr::mul(&p, &s))
        .to_string()
}

/// The elements an array of `shape` laid out by `strides` spans, DaCe's
/// `total_size` for strides other than C order's (a part of a larger
/// array): `1 + sum((size - 1) * stride)`.
fn span(shape: &[String], strides: &[String]) -> String {
    shape
        .iter()
        .zip(strides)
        .filter_map(|(size, stride)| Some((parse(size).ok()?, parse(stride).ok()?)))
        .fold(Expr::int(1), |acc, (size, stride)| {
            Expr::add(&acc, &Expr::mul(&Expr::sub(&size, &Expr::int(1)), &stride))
        })
        .to_string()
}

/// A container type as a DaCe data descriptor.
fn descriptor(
    op: Op<'_>,
    value: Val<'_>,
    transient: bool,
    lifetime: Option<Lifetime>,
) -> Result<Value, Diagnosed> {
    descriptor_of_type(op, value.ty(), transient, lifetime)
}

/// A container type as a DaCe data descriptor.
fn descriptor_of_type(
    op: Op<'_>,
    ty: mlir_sys::MlirType,
    transient: bool,
    lifetime: Option<Lifetime>,
) -> Result<Value, Diagnosed> {
    let Some(container) = Container::from_type(ty) else {
        op.emit_error("exports only data containers as SDFG arguments");
        return Err(Diagnosed);
    };
    if container.kind == ContainerKind::Structure {
        return structure_descriptor(op, ty, transient, &container);
    }
    let element = dtype(op, container.element.0)?;
    let mut attrs = Map::new();
    attrs.insert("dtype".into(), element);
    if transient {
        attrs.insert("transient".into(), json!(true));
    }
    if container.storage.name() != "Default" {
        attrs.insert("storage".into(), json!(container.storage.name()));
    }
    if let Some(lifetime) = lifetime.filter(|l| l.name() != "Scope") {
        attrs.insert("lifetime".into(), json!(lifetime.name()));
    }
    let kind = match container.kind {
        ContainerKind::Scalar => {
            attrs.insert("shape".into(), json!(["1"]));
            "Scalar"
        }
        ContainerKind::Stream => {
            let shape = if container.shape.is_empty() {
                vec!["1".to_string()]
            } else {
                container.shape.clone()
            };
            attrs.insert("shape".into(), json!(shape));
            attrs.insert(
                "buffer_size".into(),
                json!(container.buffer.clone().unwrap_or_else(|| "0".into())),
            );
            "Stream"
        }
        kind => {
            let shape = &container.shape;
            attrs.insert("shape".into(), json!(shape));
            let strides = container
                .strides
                .clone()
                .unwrap_or_else(|| c_strides(shape));
            let size = if container.strides.is_some() && strides != c_strides(shape) {
                span(shape, &strides)
            } else {
                total_size(shape)
            };
            attrs.insert("strides".into(), json!(strides));
            let offset = container
                .offset
                .clone()
                .unwrap_or_else(|| vec!["0".to_string(); shape.len()]);
            attrs.insert("offset".into(), json!(offset));
            attrs.insert("total_size".into(), json!(size));
            match kind {
                ContainerKind::View => "ArrayView",
                ContainerKind::Reference => "ArrayReference",
                _ => "Array",
            }
        }
    };
    Ok(json!({"type": kind, "attributes": attrs}))
}

/// The schedule of a nested SDFG or library node, unless it is `Default`
/// (which DaCe omits).
fn explicit_schedule(op: Op<'_>) -> Option<&'static str> {
    op.attr("schedule")
        .and_then(Schedule::from_attr)
        .map(|s| s.name())
        .filter(|name| *name != "Default")
}

/// The Python lambda of a named write-conflict resolution.
fn wcr_lambda(wcr: &Wcr) -> Option<String> {
    let body = match wcr {
        Wcr::None => return None,
        Wcr::Custom(lambda) => return Some(lambda.clone()),
        Wcr::Named(kind) => match kind.name() {
            "sum" => "a + b",
            "product" => "a * b",
            "min" => "min(a, b)",
            "max" => "max(a, b)",
            "logical_and" => "a and b",
            "logical_or" => "a or b",
            "logical_xor" => "a != b",
            "bitwise_and" => "a & b",
            "bitwise_or" => "a | b",
            "bitwise_xor" => "a ^ b",
            "exchange" => "b",
            "sub" => "a - b",
            "div" => "a / b",
            _ => return None,
        },
    };
    Some(format!("lambda a, b: {body}"))
}

fn subset_json(op: Op<'_>, text: &str) -> Result<Value, Diagnosed> {
    match parse_subset(text) {
        Ok(subset) => Ok(subset.to_dace_json()),
        Err(e) => {
            op.emit_error(format!("cannot export subset \"{text}\": {e}"));
            Err(Diagnosed)
        }
    }
}

/// A memlet on the edge into `op` as DaCe JSON; `data` is the container
/// name it refers to.
fn memlet_json(op: Op<'_>, memlet: &Memlet, data: &str) -> Result<Value, Diagnosed> {
    let mut attrs = Map::new();
    attrs.insert("data".into(), json!(data));
    attrs.insert("subset".into(), subset_json(op, &memlet.subset)?);
    if let Some(other) = &memlet.other {
        attrs.insert("other_subset".into(), subset_json(op, other)?);
    }
    let volume = match &memlet.volume {
        Some(volume) => volume.clone(),
        None => parse_subset(&memlet.subset)
            .map(|s| s.volume().to_string())
            .unwrap_or_else(|_| "1".into()),
    };
    attrs.insert("volume".into(), json!(volume));
    if memlet.dynamic {
        attrs.insert("dynamic".into(), json!(true));
    }
    if let Some(lambda) = wcr_lambda(&memlet.wcr) {
        attrs.insert("wcr".into(), json!(lambda));
    }
    Ok(json!({"type": "Memlet", "attributes": attrs}))
}

fn empty_memlet() -> Value {
    json!({"type": "Memlet", "attributes": {}})
}

fn code(text: &str, language: &str) -> Value {
    json!({"string_data": text, "language": language})
}

/// One state's nodes and edges, in DaCe's numbering.
#[derive(Default)]
struct StateBuilder {
    nodes: Vec<Value>,
    edges: Vec<Value>,
    /// Where each SSA value comes from: node id and source connector.
    sources: HashMap<*const std::ffi::c_void, (usize, Option<String>)>,
    /// Node ids per enclosing scope entry (`None`: the state).
    scopes: Vec<(Option<usize>, usize)>,
    /// Per node id: has in-edges, has out-edges.
    connected: Vec<(bool, bool)>,
    /// The exit node of each scope entry.
    exit_of: HashMap<usize, usize>,
}

impl StateBuilder {
    /// The state labelled `label` with the nodes and edges added, and its
    /// scope dictionary.
    fn state_json(self, label: &str) -> Value {
        let mut scope_dict: Map<String, Value> = Map::new();
        for (scope, id) in &self.scopes {
            let key = scope.map(|s| s.to_string()).unwrap_or_else(|| "-1".into());
            if let Some(list) = scope_dict
                .entry(key)
                .or_insert_with(|| json!([]))
                .as_array_mut()
            {
                list.push(json!(id));
            }
        }
        json!({
            "type": "SDFGState",
            "label": label,
            "attributes": {},
            "nodes": self.nodes,
            "edges": self.edges,
            "scope_dict": scope_dict,
        })
    }

    fn add_node(&mut self, mut node: Value, scope: Option<(usize, usize)>) -> usize {
        let id = self.nodes.len();
        node["id"] = json!(id);
        node["scope_entry"] = scope
            .map(|(entry, _)| json!(entry.to_string()))
            .unwrap_or(Value::Null);
        node["scope_exit"] = scope
            .map(|(_, exit)| json!(exit.to_string()))
            .unwrap_or(Value::Null);
        self.nodes.push(node);
        self.scopes.push((scope.map(|(entry, _)| entry), id));
        self.connected.push((false, false));
        id
    }

    fn add_edge(
        &mut self,
        src: (usize, Option<String>),
        dst: (usize, Option<String>),
        memlet: Value,
    ) {
        self.connected[src.0].1 = true;
        self.connected[dst.0].0 = true;
        self.edges.push(json!({
            "type": "MultiConnectorEdge",
            "attributes": {"data": memlet},
            "src": src.0.to_string(),
            "dst": dst.0.to_string(),
            "src_connector": src.1,
            "dst_connector": dst.1,
        }));
    }

    /// Records the results of `op`, drawn as node `id`, as the sources of
    /// its output connectors (an empty name is DaCe's connector-less edge).
    fn register_outputs(&mut self, op: Op<'_>, id: usize, names: &[&str]) {
        for (result, name) in op.results().into_iter().zip(names) {
            let conn = (!name.is_empty()).then(|| name.to_string());
            self.sources.insert(result.raw().ptr, (id, conn));
        }
    }

    fn source(&self, op: Op<'_>, value: Val<'_>) -> Result<(usize, Option<String>), Diagnosed> {
        match self.sources.get(&value.raw().ptr) {
            Some(source) => Ok(source.clone()),
            None => {
                op.emit_error("uses a value that does not come from a dataflow node of its state");
                Err(Diagnosed)
            }
        }
    }
}

/// Whether `value` is the result of an access node of a view that has no
/// `bind` edge.
fn is_unbound_view(value: Val<'_>) -> bool {
    value.defining_op().is_some_and(|access| {
        access.is("sdfg.access")
            && access.operand_segment(2).is_empty()
            && access
                .operands()
                .first()
                .and_then(|d| Container::from_type(d.ty()))
                .is_some_and(|c| c.kind == ContainerKind::View)
    })
}

/// The container a scope output connector eventually writes: follow the
/// result to the access node (through enclosing exits) that receives it.
fn output_container(result: Val<'_>) -> Option<String> {
    for (user, _) in result.uses() {
        match user.name() {
            "sdfg.access" => return user.operands().first().and_then(|d| container_name(*d)),
            "sdfg.exit" => {
                let index = user.operands().iter().position(|v| *v == result)?;
                let name = user.str_array_attr("names").get(index).copied()?;
                let scope = user.parent()?;
                let k = scope
                    .str_array_attr("out_names")
                    .iter()
                    .position(|n| *n == name)?;
                return output_container(*scope.results().get(k)?);
            }
            _ => {}
        }
    }
    None
}

/// The container name a memlet on an edge into `op` refers to.
fn memlet_data<'a>(
    op: Op<'a>,
    source: Val<'a>,
    role: EdgeRole,
    connector: Option<&str>,
    copy: bool,
) -> Option<String> {
    let is_container = Container::from_type(source.ty()).is_some();
    let from_access = source.defining_op().filter(|d| d.is("sdfg.access"));
    match (op.name(), role) {
        // A copy from an access node into a scope exit names its source
        // (the other subset is the scope output's).
        ("sdfg.exit", _) if copy && from_access.is_some() => from_access
            .and_then(|access| access.operands().first().copied())
            .and_then(container_name),
        ("sdfg.exit", _) => {
            let scope = op.parent()?;
            let k = scope
                .str_array_attr("out_names")
                .iter()
                .position(|n| Some(*n) == connector)?;
            output_container(*scope.results().get(k)?)
        }
        // A write into an access node names the node's container, unless it
        // is a copy from another container (an access node, or a scope's
        // block argument standing for one), which names the source.
        ("sdfg.access", EdgeRole::Input)
            if !(from_access.is_some() || is_container && source.block_arg().is_some()) =>
        {
            op.operands().first().and_then(|d| container_name(*d))
        }
        _ if is_container => container_name(underlying_container(source)),
        _ => None,
    }
}

/// A copy of one element into a stream (`iv[0] -> S`), as DaCe writes it:
/// the memlet names the stream, with the stream's subset first. DaCe's
/// code generator pushes only through a memlet that names the stream; a
/// copy of several elements cannot be written that way (the subset would
/// leave the stream's bounds) and keeps naming its source.
fn pushed_element(op: Op<'_>, source: Val<'_>, memlet: &Memlet) -> Option<(String, Memlet)> {
    let kind = |v: Val<'_>| Container::from_type(v.ty()).map(|c| c.kind);
    let stream = *op.operands().first()?;
    if !op.is("sdfg.access") || kind(stream)? != ContainerKind::Stream {
        return None;
    }
    if kind(source).is_none_or(|k| k == ContainerKind::Stream) {
        return None;
    }
    let other = memlet.other.clone()?;
    let single = parse_subset(&memlet.subset).is_ok_and(|s| s.volume() == Expr::int(1));
    if !single {
        return None;
    }
    let pushed = Memlet {
        subset: other,
        other: Some(memlet.subset.clone()),
        ..memlet.clone()
    };
    Some((container_name(stream)?, pushed))
}

struct Exporter {
    /// Whether states in loops and branches that hold library nodes move
    /// into nested SDFGs, so that DaCe 1.0.2 can expand those nodes
    /// ([`Exporter::expandable`]).
    expandable: bool,
}

impl Exporter {
    fn sdfg(&self, sdfg: Op<'_>) -> Result<Value, Diagnosed> {
        let name = sdfg.symbol_name().unwrap_or("sdfg");
        let arg_names = sdfg.str_array_attr("arg_names");
        let arrays = Self::arrays(sdfg)?;
        let symbols = Self::symbols(sdfg)?;
        let mut constants = Map::new();
        if let Some(dict) = sdfg.attr("constants") {
            for (key, value) in sdfg_dialect::ir::dictionary_entries(dict) {
                constants.insert(key.to_string(), constant_json(sdfg, key, value)?);
            }
        }
        let (nodes, edges) = self.region(sdfg)?;
        Ok(json!({
            "type": "SDFG",
            "attributes": {
                "name": name,
                "arg_names": arg_names,
                "_arrays": arrays,
                "symbols": symbols,
                "constants_prop": constants,
            },
            "nodes": nodes,
            "edges": edges,
            "label": name,
            "start_block": 0,
            "dace_version": "1.0.2",
        }))
    }

    /// The data descriptors of `sdfg`'s containers, by name.
    fn arrays(sdfg: Op<'_>) -> Result<Map<String, Value>, Diagnosed> {
        let mut arrays = Map::new();
        let arg_names = sdfg.str_array_attr("arg_names");
        for (value, arg) in sdfg.region_args(0).into_iter().zip(&arg_names) {
            arrays.insert(arg.to_string(), descriptor(sdfg, value, false, None)?);
        }
        for alloc in sdfg
            .region_ops(0)
            .into_iter()
            .filter(|o| o.is("sdfg.alloc"))
        {
            let lifetime = alloc.attr("lifetime").and_then(Lifetime::from_attr);
            let (Some(name), Some(value)) =
                (alloc.str_attr("name"), alloc.results().first().copied())
            else {
                continue;
            };
            arrays.insert(name.to_string(), descriptor(alloc, value, true, lifetime)?);
        }
        Ok(arrays)
    }

    /// The symbols `sdfg` declares, with their types.
    fn symbols(sdfg: Op<'_>) -> Result<Map<String, Value>, Diagnosed> {
        let mut symbols = Map::new();
        if let Some(dict) = sdfg.attr("symbols") {
            for (key, value) in sdfg_dialect::ir::dictionary_entries(dict) {
                // SAFETY: the values of `symbols` are TypeAttrs (verified).
                let ty = unsafe { mlir_sys::mlirTypeAttrGetValue(value) };
                symbols.insert(key.to_string(), dtype(sdfg, ty)?);
            }
        }
        Ok(symbols)
    }

    /// The blocks and inter-state edges of a control-flow region; the first
    /// block is the start block.
    fn region(&self, owner: Op<'_>) -> Result<(Vec<Value>, Vec<Value>), Diagnosed> {
        let ops = owner.region_ops(0);
        let blocks: Vec<Op<'_>> = ops
            .iter()
            .copied()
            .filter(|o| sdfg_dialect::CONTROL_FLOW_BLOCKS.contains(&o.name()))
            .collect();
        let ids: HashMap<&str, usize> = blocks
            .iter()
            .enumerate()
            .filter_map(|(i, b)| b.symbol_name().map(|n| (n, i)))
            .collect();
        let mut nodes = Vec::new();
        for (i, block) in blocks.iter().enumerate() {
            let mut node = self.block(*block)?;
            node["id"] = json!(i);
            nodes.push(node);
        }
        let mut edges = Vec::new();
        for edge in ops.iter().filter(|o| o.is("sdfg.edge")) {
            let (Some(&src), Some(&dst)) = (
                edge.symbol_ref_attr("src").and_then(|s| ids.get(s)),
                edge.symbol_ref_attr("dst").and_then(|d| ids.get(d)),
            ) else {
                edge.emit_error("joins blocks that are not in its region");
                return Err(Diagnosed);
            };
            let assignments: Map<String, Value> = edge
                .str_array_attr("assign_names")
                .into_iter()
                .zip(edge.str_array_attr("assign_values"))
                .map(|(n, v)| (n.to_string(), json!(v)))
                .collect();
            let mut attrs = Map::new();
            attrs.insert("assignments".into(), Value::Object(assignments));
            attrs.insert(
                "condition".into(),
                code(edge.str_attr("condition").unwrap_or("1"), "Python"),
            );
            edges.push(json!({
                "type": "Edge",
                "attributes": {"data": {"type": "InterstateEdge", "attributes": attrs}},
                "src": src.to_string(),
                "dst": dst.to_string(),
            }));
        }
        Ok((nodes, edges))
    }

    fn block(&self, block: Op<'_>) -> Result<Value, Diagnosed> {
        let label = block.symbol_name().unwrap_or("block");
        Ok(match block.name() {
            "sdfg.state" => {
                let state = self.state(block)?;
                self.expandable(block, state)?
            }
            "sdfg.loop" => {
                let (nodes, edges) = self.region(block)?;
                let var = block.str_attr("var").unwrap_or("");
                let mut attrs = Map::new();
                attrs.insert("loop_variable".into(), json!(var));
                if let Some(init) = block.str_attr("init") {
                    attrs.insert(
                        "init_statement".into(),
                        code(&format!("{var} = {init}"), "Python"),
                    );
                }
                if let Some(update) = block.str_attr("update") {
                    attrs.insert(
                        "update_statement".into(),
                        code(&format!("{var} = {update}"), "Python"),
                    );
                }
                attrs.insert(
                    "loop_condition".into(),
                    code(block.str_attr("cond").unwrap_or("True"), "Python"),
                );
                attrs.insert("inverted".into(), json!(block.attr("inverted").is_some()));
                attrs.insert(
                    "update_before_condition".into(),
                    json!(
                        block.attr("update_before_condition").is_some()
                            || block.attr("inverted").is_none()
                    ),
                );
                json!({"type": "LoopRegion", "label": label, "attributes": attrs, "nodes": nodes, "edges": edges, "start_block": 0})
            }
            "sdfg.conditional" => {
                let mut branches = Vec::new();
                for branch in block.region_ops(0) {
                    let (nodes, edges) = self.region(branch)?;
                    let condition = branch
                        .str_attr("condition")
                        .map(|c| code(c, "Python"))
                        .unwrap_or(Value::Null);
                    let body = json!({
                        "type": "ControlFlowRegion",
                        "label": branch.symbol_name().unwrap_or("branch"),
                        "attributes": {},
                        "nodes": nodes,
                        "edges": edges,
                        "start_block": 0,
                    });
                    branches.push(json!([condition, body]));
                }
                json!({"type": "ConditionalBlock", "label": label, "attributes": {}, "nodes": [], "edges": [], "branches": branches})
            }
            "sdfg.region" | "sdfg.call_region" => {
                let (nodes, edges) = self.region(block)?;
                let mut attrs = Map::new();
                let kind = if block.is("sdfg.call_region") {
                    let args: Map<String, Value> = block
                        .str_array_attr("arg_names")
                        .into_iter()
                        .zip(block.str_array_attr("arg_values"))
                        .map(|(n, v)| (n.to_string(), json!(v)))
                        .collect();
                    attrs.insert("arguments".into(), Value::Object(args));
                    "FunctionCallRegion"
                } else {
                    "ControlFlowRegion"
                };
                json!({"type": kind, "label": label, "attributes": attrs, "nodes": nodes, "edges": edges, "start_block": 0})
            }
            "sdfg.break" => json!({"type": "BreakBlock", "label": label, "attributes": {}}),
            "sdfg.continue" => json!({"type": "ContinueBlock", "label": label, "attributes": {}}),
            "sdfg.return" => json!({"type": "ReturnBlock", "label": label, "attributes": {}}),
            other => {
                block.emit_error(format!("cannot export '{other}' to DaCe"));
                return Err(Diagnosed);
            }
        })
    }

    fn state(&self, state: Op<'_>) -> Result<Value, Diagnosed> {
        let mut builder = StateBuilder::default();
        self.dataflow(state, None, &mut builder)?;
        Ok(builder.state_json(state.symbol_name().unwrap_or("state")))
    }

    /// `json`, the state `state`, as DaCe 1.0.2 can expand its library
    /// nodes. `SDFG.expand_library_nodes` looks each node's state up among
    /// the blocks of the SDFG itself (`LibraryNode.expand` calls
    /// `sdfg.nodes().index(state)`), so a library node in a state inside a
    /// `LoopRegion` or `ConditionalBlock` fails to expand when DaCe
    /// compiles the program. Such a state's dataflow moves into a nested
    /// SDFG of one state, whose state is a block of its own SDFG: the
    /// nested SDFG takes every container the state reads or writes whole,
    /// and maps every symbol to itself. States without library nodes, and
    /// states with views or other non-array containers, stay as they are.
    fn expandable(&self, state: Op<'_>, json: Value) -> Result<Value, Diagnosed> {
        let in_region = state.parent().is_some_and(|p| !p.is("sdfg.sdfg"));
        let has_library = state.descendants().iter().any(|o| o.is("sdfg.library"));
        let Some(sdfg) = state.ancestor("sdfg.sdfg") else {
            return Ok(json);
        };
        if !self.expandable || !in_region || !has_library {
            return Ok(json);
        }
        let arrays = Self::arrays(sdfg)?;
        let nodes = json["nodes"].as_array().cloned().unwrap_or_default();
        let data_of = |id: &Value| -> Option<String> {
            let id: usize = id.as_str()?.parse().ok()?;
            let node = nodes.get(id)?;
            (node["type"] == "AccessNode")
                .then(|| node["attributes"]["data"].as_str().map(String::from))?
        };
        let mut read = std::collections::BTreeSet::new();
        let mut written = std::collections::BTreeSet::new();
        for edge in json["edges"].as_array().into_iter().flatten() {
            read.extend(data_of(&edge["src"]));
            written.extend(data_of(&edge["dst"]));
        }
        let mut inner_arrays = Map::new();
        for node in nodes.iter().filter(|n| n["type"] == "AccessNode") {
            let Some(name) = node["attributes"]["data"].as_str() else {
                continue;
            };
            let Some(mut desc) = arrays.get(name).cloned() else {
                return Ok(json);
            };
            if !matches!(desc["type"].as_str(), Some("Array" | "Scalar")) {
                return Ok(json);
            }
            desc["attributes"]["transient"] = json!(false);
            inner_arrays.insert(name.to_string(), desc);
        }
        let label = state.symbol_name().unwrap_or("state");
        let symbols = Self::symbols(sdfg)?;
        let mapping: Map<String, Value> = symbols.keys().map(|s| (s.clone(), json!(s))).collect();
        let mut inner = json;
        inner["id"] = json!(0);
        let nested = json!({
            "type": "SDFG",
            "attributes": {
                "name": format!("{label}_body"),
                "arg_names": [],
                "_arrays": inner_arrays,
                "symbols": symbols,
                "constants_prop": {},
            },
            "nodes": [inner],
            "edges": [],
            "label": format!("{label}_body"),
            "start_block": 0,
            "dace_version": "1.0.2",
        });
        let read: Vec<&str> = read.iter().map(String::as_str).collect();
        let written: Vec<&str> = written.iter().map(String::as_str).collect();
        let mut builder = StateBuilder::default();
        let access =
            |name: &str| json!({"type": "AccessNode", "label": name, "attributes": {"data": name}});
        let whole = |name: &str| -> Result<Value, Diagnosed> {
            let shape = arrays[name]["attributes"]["shape"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            let subset = if shape.is_empty() || arrays[name]["type"] == "Scalar" {
                "0".to_string()
            } else {
                let dims: Vec<String> = shape
                    .iter()
                    .map(|d| {
                        format!(
                            "0:{}",
                            d.as_str().map_or_else(|| d.to_string(), String::from)
                        )
                    })
                    .collect();
                dims.join(", ")
            };
            let memlet = Memlet {
                subset,
                other: None,
                volume: None,
                dynamic: false,
                wcr: Wcr::None,
                data: None,
            };
            memlet_json(state, &memlet, name)
        };
        let sources: Vec<usize> = read
            .iter()
            .map(|n| builder.add_node(access(n), None))
            .collect();
        let node = builder.add_node(
            json!({"type": "NestedSDFG", "label": format!("{label}_body"), "attributes": {
                "label": format!("{label}_body"),
                "sdfg": nested,
                "symbol_mapping": mapping,
                "in_connectors": Self::connectors(&read, ""),
                "out_connectors": Self::connectors(&written, ""),
            }}),
            None,
        );
        for (name, id) in read.iter().zip(sources) {
            builder.add_edge((id, None), (node, Some(name.to_string())), whole(name)?);
        }
        for name in &written {
            let id = builder.add_node(access(name), None);
            builder.add_edge((node, Some(name.to_string())), (id, None), whole(name)?);
        }
        Ok(builder.state_json(label))
    }

    /// Adds the in-edges of `op`, arriving at node `target` (with `prefix`
    /// before named connectors: `IN_` on scope nodes).
    fn in_edges(
        &self,
        op: Op<'_>,
        target: usize,
        prefix: &str,
        builder: &mut StateBuilder,
    ) -> Result<(), Diagnosed> {
        for edge in incoming_edges(op) {
            let mut source = builder.source(op, edge.source)?;
            // An unbound view that writes into another access node views
            // that node's data: DaCe reads that from the `views` connector.
            if op.is("sdfg.access")
                && edge.role == EdgeRole::Input
                && source.1.is_none()
                && is_unbound_view(edge.source)
            {
                source.1 = Some("views".to_string());
            }
            let dst_conn = match edge.role {
                EdgeRole::After => None,
                EdgeRole::Bind => {
                    let is_ref = op
                        .operands()
                        .first()
                        .and_then(|d| Container::from_type(d.ty()))
                        .is_some_and(|c| c.kind == ContainerKind::Reference);
                    Some(if is_ref { "set" } else { "views" }.to_string())
                }
                EdgeRole::Stream => Some("IN_stream".to_string()),
                EdgeRole::Dynamic => edge.connector.map(String::from),
                _ => edge
                    .connector
                    .filter(|c| !c.is_empty())
                    .map(|c| format!("{prefix}{c}")),
            };
            let memlet = match &edge.memlet {
                Some(memlet) => {
                    let data = memlet.data.clone().or_else(|| {
                        let copy = memlet.other.is_some();
                        memlet_data(op, edge.source, edge.role, edge.connector, copy)
                    });
                    // A value from one tasklet to another through no
                    // container is DaCe's code-to-code edge: no memlet.
                    let value_edge = op.is("sdfg.tasklet")
                        && edge
                            .source
                            .defining_op()
                            .is_some_and(|d| d.is("sdfg.tasklet"));
                    if data.is_none() && value_edge {
                        builder.add_edge(source, (target, dst_conn), empty_memlet());
                        continue;
                    }
                    let Some(data) = data else {
                        op.emit_error(format!(
                            "cannot tell which container the memlet {memlet} refers to (add `data \"name\"`)"
                        ));
                        return Err(Diagnosed);
                    };
                    match pushed_element(op, edge.source, memlet) {
                        Some((stream, pushed)) => memlet_json(op, &pushed, &stream)?,
                        None => memlet_json(op, memlet, &data)?,
                    }
                }
                None => empty_memlet(),
            };
            builder.add_edge(source, (target, dst_conn), memlet);
        }
        Ok(())
    }

    fn connectors(names: &[&str], prefix: &str) -> Value {
        Value::Object(
            names
                .iter()
                .filter(|n| !n.is_empty())
                .map(|n| (format!("{prefix}{n}"), Value::Null))
                .collect(),
        )
    }

    fn dataflow(
        &self,
        owner: Op<'_>,
        scope: Option<(usize, usize)>,
        builder: &mut StateBuilder,
    ) -> Result<(), Diagnosed> {
        let ops = owner.region_ops(0);
        let first_node = builder.nodes.len();
        for op in &ops {
            let op = *op;
            let label = op.str_attr("label").unwrap_or_default();
            let in_names = op.str_array_attr("in_names");
            let out_names = op.str_array_attr("out_names");
            match op.name() {
                "sdfg.access" => {
                    let data = op
                        .operands()
                        .first()
                        .and_then(|d| container_name(*d))
                        .unwrap_or_default();
                    let id = builder.add_node(
                        json!({"type": "AccessNode", "label": data, "attributes": {"data": data}}),
                        scope,
                    );
                    self.in_edges(op, id, "", builder)?;
                    if let Some(result) = op.results().first() {
                        builder.sources.insert(result.raw().ptr, (id, None));
                    }
                }
                "sdfg.tasklet" => {
                    // SAFETY: `language` is an I32EnumAttr (python = 0, cpp = 1).
                    let is_cpp = op
                        .attr("language")
                        .is_some_and(|l| unsafe { mlir_sys::mlirIntegerAttrGetValueInt(l) } == 1);
                    let language = if is_cpp { "CPP" } else { "Python" };
                    let text = match op.str_attr("code") {
                        Some(text) => text.to_string(),
                        None => print_body(op).map_err(|e| {
                            e.op.emit_error(format!(
                                "{} (in the body of tasklet \"{label}\", exported as Python)",
                                e.message
                            ));
                            Diagnosed
                        })?,
                    };
                    let mut attrs = json!({
                        "label": label,
                        "code": code(&text, language),
                        "in_connectors": Self::connectors(&in_names, ""),
                        "out_connectors": Self::connectors(&out_names, ""),
                    });
                    // Output connectors carry their types: DaCe would take
                    // the container's element type otherwise (wrong for
                    // vectors and pointers), and values that flow to other
                    // tasklets through no container have no other type.
                    for (name, result) in out_names.iter().zip(op.results()) {
                        attrs["out_connectors"][*name] = dtype(op, result.ty())?;
                    }
                    // A by_ref output of several elements is a pointer the
                    // code writes through (a memref argument of rank > 0),
                    // not a value of the element type.
                    let by_ref = op.bool_array_attr("by_ref");
                    if op.has_body(0) && by_ref.contains(&true) {
                        let args = op.region_args(0);
                        let mut next = in_names.len();
                        for (k, name) in out_names.iter().enumerate() {
                            if !by_ref.get(k).copied().unwrap_or(false) {
                                continue;
                            }
                            let Some(arg) = args.get(next) else { break };
                            next += 1;
                            // SAFETY: the type is live; rank only of a memref.
                            let ranked = unsafe {
                                mlir_sys::mlirTypeIsAMemRef(arg.ty())
                                    && mlir_sys::mlirShapedTypeGetRank(arg.ty()) > 0
                            };
                            if ranked {
                                // Untyped, as DaCe writes it: DaCe then
                                // infers a pointer from the memlet.
                                attrs["out_connectors"][*name] = json!(null);
                            }
                        }
                    }
                    // A vector input connector is what makes DaCe read a
                    // vector from an array of its lanes.
                    if op.has_body(0) {
                        for (name, arg) in in_names.iter().zip(op.region_args(0)) {
                            let ty = arg.ty();
                            if !name.is_empty() && type_to_string(ty).starts_with("vector<") {
                                attrs["in_connectors"][*name] = dtype(op, ty)?;
                            }
                        }
                    }
                    if op.attr("side_effects").is_some() {
                        attrs["side_effects"] = json!(true);
                    }
                    for name in ["code_global", "code_init", "code_exit"] {
                        if let Some(text) = op.str_attr(&format!("dace.{name}")) {
                            attrs[name] = code(text, "CPP");
                        }
                    }
                    let fields = op.str_array_attr("dace.state_fields");
                    if !fields.is_empty() {
                        attrs["state_fields"] = json!(fields);
                    }
                    let id = builder.add_node(
                        json!({"type": "Tasklet", "label": label, "attributes": attrs}),
                        scope,
                    );
                    self.in_edges(op, id, "", builder)?;
                    builder.register_outputs(op, id, &out_names);
                }
                "sdfg.nested" => {
                    let Some(inner) = op.region_ops(0).into_iter().find(|o| o.is("sdfg.sdfg"))
                    else {
                        op.emit_error("has no nested SDFG");
                        return Err(Diagnosed);
                    };
                    let mapping: Map<String, Value> = op
                        .str_array_attr("symbol_names")
                        .into_iter()
                        .zip(op.str_array_attr("symbol_values"))
                        .map(|(n, v)| (n.to_string(), json!(v)))
                        .collect();
                    let mut attrs = json!({
                        "label": label,
                        "sdfg": self.sdfg(inner)?,
                        "symbol_mapping": mapping,
                        "in_connectors": Self::connectors(&in_names, ""),
                        "out_connectors": Self::connectors(&out_names, ""),
                    });
                    if let Some(schedule) = explicit_schedule(op) {
                        attrs["schedule"] = json!(schedule);
                    }
                    let id = builder.add_node(
                        json!({"type": "NestedSDFG", "label": label, "attributes": attrs}),
                        scope,
                    );
                    self.in_edges(op, id, "", builder)?;
                    builder.register_outputs(op, id, &out_names);
                }
                "sdfg.library" => {
                    let class_path = op.str_attr("class_path").unwrap_or_default();
                    let mut attrs = Map::new();
                    attrs.insert("name".into(), json!(label));
                    attrs.insert("label".into(), json!(label));
                    if let Some(implementation) = op.str_attr("implementation") {
                        attrs.insert("implementation".into(), json!(implementation));
                    }
                    if let Some(schedule) = explicit_schedule(op) {
                        attrs.insert("schedule".into(), json!(schedule));
                    }
                    attrs.insert("in_connectors".into(), Self::connectors(&in_names, ""));
                    attrs.insert("out_connectors".into(), Self::connectors(&out_names, ""));
                    if let Some(props) = op.attr("props") {
                        for (key, value) in sdfg_dialect::ir::dictionary_entries(props) {
                            let text = sdfg_dialect::ir::attr_str(value).unwrap_or_default();
                            attrs.insert(
                                key.to_string(),
                                serde_json::from_str(text).unwrap_or_else(|_| json!(text)),
                            );
                        }
                    }
                    let id = builder.add_node(json!({"type": "LibraryNode", "label": label, "classpath": class_path, "attributes": attrs}), scope);
                    self.in_edges(op, id, "", builder)?;
                    builder.register_outputs(op, id, &out_names);
                }
                "sdfg.map" | "sdfg.consume" => self.scope(op, scope, builder)?,
                "sdfg.exit" => {
                    if let Some((_, exit)) = scope {
                        self.in_edges(op, exit, "IN_", builder)?;
                    }
                }
                other => {
                    op.emit_error(format!("cannot export '{other}' to DaCe"));
                    return Err(Diagnosed);
                }
            }
        }
        // DaCe keeps a scope's nodes in it with empty edges from the entry
        // and to the exit where they have no data edges.
        if let Some((entry, exit)) = scope {
            for id in first_node..builder.nodes.len() {
                if builder.scopes[id].0 != Some(entry) || id == exit {
                    continue;
                }
                // A nested scope leaves through its exit node.
                let last = builder.exit_of.get(&id).copied().unwrap_or(id);
                if !builder.connected[id].0 {
                    builder.add_edge((entry, None), (id, None), empty_memlet());
                }
                if !builder.connected[last].1 {
                    builder.add_edge((last, None), (exit, None), empty_memlet());
                }
            }
        }
        Ok(())
    }

    fn scope(
        &self,
        op: Op<'_>,
        scope: Option<(usize, usize)>,
        builder: &mut StateBuilder,
    ) -> Result<(), Diagnosed> {
        let label = op.str_attr("label").unwrap_or_default();
        let in_names = op.str_array_attr("in_names");
        let dyn_names = op.str_array_attr("dyn_names");
        let out_names = op.str_array_attr("out_names");
        let mut in_connectors = Self::connectors(&in_names, "IN_");
        if let Some(map) = in_connectors.as_object_mut() {
            for name in &dyn_names {
                map.insert(name.to_string(), Value::Null);
            }
        }
        let mut out_connectors = Self::connectors(&in_names, "OUT_");
        let schedule = op
            .attr("schedule")
            .and_then(Schedule::from_attr)
            .map(|s| s.name())
            .unwrap_or("Default");
        let (entry_node, exit_type) = if op.is("sdfg.map") {
            let params = op.str_array_attr("params");
            let mut ranges = Vec::new();
            for range in op.str_array_attr("ranges") {
                match parse_subset(range) {
                    Ok(subset) => ranges.extend(subset.ranges().iter().map(|r| r.to_dace_json())),
                    Err(e) => {
                        op.emit_error(format!("cannot export map range \"{range}\": {e}"));
                        return Err(Diagnosed);
                    }
                }
            }
            let mut attrs = json!({
                "label": label,
                "params": params,
                "range": {"type": "Range", "ranges": ranges},
                "schedule": schedule,
                "in_connectors": in_connectors,
                "out_connectors": out_connectors,
            });
            if op.attr("unroll").is_some() {
                attrs["unroll"] = json!(true);
            }
            for key in ["unroll_factor", "collapse", "omp_num_threads"] {
                if let Some(value) = op.attr(key) {
                    // SAFETY: these are IntegerAttrs (verified).
                    attrs[key] = json!(unsafe { mlir_sys::mlirIntegerAttrGetValueInt(value) });
                }
            }
            if let Some(sizes) = op.attr("gpu_block_size") {
                let sizes: Vec<i64> = sdfg_dialect::ir::attr_str_array(sizes)
                    .iter()
                    .filter_map(|s| s.parse().ok())
                    .collect();
                attrs["gpu_block_size"] = json!(sizes);
            }
            (
                json!({"type": "MapEntry", "label": label, "attributes": attrs}),
                "MapExit",
            )
        } else {
            if let Some(map) = in_connectors.as_object_mut() {
                map.insert("IN_stream".into(), Value::Null);
            }
            if let Some(map) = out_connectors.as_object_mut() {
                map.insert("OUT_stream".into(), Value::Null);
            }
            let mut attrs = json!({
                "label": label,
                "pe_index": op.str_attr("pe").unwrap_or("p"),
                "num_pes": op.str_attr("num_pes").unwrap_or("1"),
                "schedule": schedule,
                "in_connectors": in_connectors,
                "out_connectors": out_connectors,
            });
            if let Some(condition) = op.str_attr("quiescence") {
                attrs["condition"] = code(condition, "Python");
            }
            // The verifier makes the chunk size a positive integer, as DaCe's.
            if let Some(chunksize) = op
                .str_attr("chunksize")
                .and_then(|c| c.trim().parse::<i64>().ok())
            {
                attrs["chunksize"] = json!(chunksize);
            }
            (
                json!({"type": "ConsumeEntry", "label": label, "attributes": attrs}),
                "ConsumeExit",
            )
        };
        let entry = builder.add_node(entry_node, scope);
        let exit_connectors = json!({
            "in_connectors": Self::connectors(&out_names, "IN_"),
            "out_connectors": Self::connectors(&out_names, "OUT_"),
        });
        let exit = builder.add_node(
            json!({"type": exit_type, "label": label, "attributes": exit_connectors}),
            scope,
        );
        // Entry and exit point at each other, and the exit is listed in the
        // scope it closes.
        builder.nodes[entry]["scope_exit"] = json!(exit.to_string());
        builder.nodes[exit]["scope_entry"] = json!(entry.to_string());
        builder.nodes[exit]["scope_exit"] = json!(exit.to_string());
        builder.scopes[exit].0 = Some(entry);
        builder.exit_of.insert(entry, exit);
        self.in_edges(op, entry, "IN_", builder)?;
        let mut arg_connectors: Vec<String> = Vec::new();
        if op.is("sdfg.consume") {
            arg_connectors.push("OUT_stream".into());
        }
        arg_connectors.extend(in_names.iter().map(|n| format!("OUT_{n}")));
        arg_connectors.extend(dyn_names.iter().map(|n| n.to_string()));
        for (arg, conn) in op.region_args(0).into_iter().zip(arg_connectors) {
            builder.sources.insert(arg.raw().ptr, (entry, Some(conn)));
        }
        self.dataflow(op, Some((entry, exit)), builder)?;
        for (result, name) in op.results().into_iter().zip(&out_names) {
            builder
                .sources
                .insert(result.raw().ptr, (exit, Some(format!("OUT_{name}"))));
        }
        Ok(())
    }
}

/// Exports one `sdfg.sdfg` as DaCe JSON (checked and normalised through the
/// serde model); diagnostics are emitted on failure.
pub fn export_sdfg(sdfg: Op<'_>, compress: bool) -> Result<Vec<u8>, Diagnosed> {
    write_sdfg(sdfg, compress, true)
}

/// [`export_sdfg`] without the nested SDFGs added for DaCe 1.0.2's library
/// expansion: every control-flow block and node as the module has it, so
/// that importing the result gives the module back.
pub fn export_sdfg_as_is(sdfg: Op<'_>, compress: bool) -> Result<Vec<u8>, Diagnosed> {
    write_sdfg(sdfg, compress, false)
}

fn write_sdfg(sdfg: Op<'_>, compress: bool, expandable: bool) -> Result<Vec<u8>, Diagnosed> {
    let value = Exporter { expandable }.sdfg(sdfg)?;
    let text = serde_json::to_vec(&value).map_err(|e| {
        sdfg.emit_error(format!("cannot serialise the SDFG: {e}"));
        Diagnosed
    })?;
    let model = dace::load_sdfg(&text).map_err(|e| {
        sdfg.emit_error(format!(
            "internal error: the exported SDFG is malformed: {e}"
        ));
        Diagnosed
    })?;
    Ok(dace::save_sdfg(&model, compress))
}

fn top_sdfg(root: Op<'_>) -> Result<Op<'_>, Diagnosed> {
    if root.is("sdfg.sdfg") {
        return Ok(root);
    }
    match root.region_ops(0).into_iter().find(|op| op.is("sdfg.sdfg")) {
        Some(sdfg) => Ok(sdfg),
        None => {
            root.emit_error("contains no 'sdfg.sdfg' to export");
            Err(Diagnosed)
        }
    }
}

fn write_export(
    root: Op<'_>,
    out: &mut dyn std::io::Write,
    compress: bool,
) -> Result<(), Diagnosed> {
    let bytes = export_sdfg(top_sdfg(root)?, compress)?;
    out.write_all(&bytes).map_err(|e| {
        root.emit_error(format!("cannot write the SDFG: {e}"));
        Diagnosed
    })
}

fn translate(root: Op<'_>, out: &mut dyn std::io::Write) -> Result<(), Diagnosed> {
    write_export(root, out, false)
}

fn translate_compressed(root: Op<'_>, out: &mut dyn std::io::Write) -> Result<(), Diagnosed> {
    write_export(root, out, true)
}

/// The registration of `--export-dace`.
pub static TRANSLATION: TranslationFromMlir = TranslationFromMlir {
    name: "export-dace",
    summary: "Export the first SDFG as a DaCe .sdfg file (JSON)",
    translate,
};

/// The registration of `--export-dace-sdfgz`.
pub static TRANSLATION_COMPRESSED: TranslationFromMlir = TranslationFromMlir {
    name: "export-dace-sdfgz",
    summary: "Export the first SDFG as a gzip-compressed DaCe .sdfgz file",
    translate: translate_compressed,
};
