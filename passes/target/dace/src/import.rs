//! `--import-dace`: DaCe `.sdfg`/`.sdfgz` files to the sdfg dialect.
//!
//! The file is read into the serde model (`sdfg-dace-model`), which keeps
//! every JSON path for diagnostics, and printed as the dialect's textual
//! form, which MLIR then parses and verifies. Going through text keeps the
//! importer independent of builder plumbing and makes every import check
//! itself: the printed module must parse and pass the dialect's verifiers
//! and validation, or the import fails with their diagnostics.
//!
//! The mapping, DaCe to dialect:
//!
//! - non-transient containers become the SDFG's arguments (first those of
//!   `arg_names`, then the others by name), transients `sdfg.alloc`s;
//! - control-flow blocks keep their labels as symbol names; the start block
//!   is printed first; inter-state edges become `sdfg.edge`;
//! - in a state, scope entries stand for their whole scope, nodes are
//!   printed in a topological order of each scope level, and every edge
//!   becomes the operand of its destination: `writes`/`bind` of access
//!   nodes, `ins`/`dyn` of scopes, `ins` of tasklets, nested SDFGs and
//!   library nodes, and operands of `sdfg.exit` for edges into exit nodes.
//!   Empty memlets between nodes become `after` edges; those that only
//!   connect a node to its scope are implied by the region structure;
//! - DaCe's inclusive range ends become Python slices through
//!   `Range::from_dace_inclusive`, the one place that converts;
//! - memlets name the container at their access-node end, so a copy whose
//!   DaCe memlet names the destination is flipped (subset and other subset
//!   swap).
//!
//! Python tasklet code becomes an MLIR body where it translates
//! (`sdfg-tasklet`); other Python code and C++ code are kept as foreign
//! code.

use sdfg_dace_model as dace;
use sdfg_symbolic::{parse, parse_subset, Expr, Range, Subset};
use sdfg_tasklet::text::lit;
use sdfg_tasklet::{InputType, RefType, Signature, Translation};
use std::{
    cmp::Reverse,
    collections::{BTreeMap, BinaryHeap, HashMap, HashSet},
    fmt::Write,
};

/// An import failure: where in the file, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportError {
    /// The JSON path of the offending object (`nodes[3].nodes[7]`).
    pub path: String,
    /// What is wrong or unsupported.
    pub message: String,
}

impl std::fmt::Display for ImportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for ImportError {}

type Result<T> = std::result::Result<T, ImportError>;

fn error<T>(path: &str, message: impl Into<String>) -> Result<T> {
    Err(ImportError {
        path: path.to_string(),
        message: message.into(),
    })
}

/// The canonical text of a symbolic expression, or the text itself when
/// the engine does not parse it (the verifiers then report it).
fn canonical(text: &str) -> String {
    parse(text)
        .map(|e| e.to_string())
        .unwrap_or_else(|_| text.trim().to_string())
}

fn expr(path: &str, text: &str) -> Result<Expr> {
    parse(text).or_else(|e| error(path, format!("invalid expression \"{text}\": {e}")))
}

/// A DaCe subset as the dialect's slice text.
fn subset_text(path: &str, subset: &dace::Subset) -> Result<Subset> {
    match subset {
        dace::Subset::Range(range) => {
            let mut ranges = Vec::new();
            for (k, dim) in range.ranges.iter().enumerate() {
                let at = format!("{path}.ranges[{k}]");
                ranges.push(Range::from_dace_inclusive(
                    expr(&at, &dim.start.main().0)?,
                    expr(&at, &dim.end.main().0)?,
                    expr(&at, &dim.step.main().0)?,
                    expr(&at, &dim.tile.main().0)?,
                ));
            }
            Ok(Subset::new(ranges))
        }
        dace::Subset::Indices(indices) => {
            let mut exprs = Vec::new();
            for (k, index) in indices.indices.iter().enumerate() {
                exprs.push(expr(&format!("{path}.indices[{k}]"), &index.0)?);
            }
            Ok(Subset::indices(exprs))
        }
        dace::Subset::Other(_) => error(path, "unsupported subset type"),
    }
}

/// A DaCe element type as an MLIR type.
fn element_type(path: &str, dtype: &dace::DType) -> Result<String> {
    let name = match dtype {
        dace::DType::Basic(name) => name.as_str(),
        dace::DType::Vector(vector) => {
            let element = element_type(path, &vector.dtype)?;
            return match vector.elements.0.trim().parse::<u64>() {
                // `dace::vec<T, 1>` is `T`.
                Ok(1) => Ok(element),
                Ok(n) if n > 0 => Ok(format!("vector<{n}x{element}>")),
                _ => error(
                    path,
                    format!("unsupported vector length \"{}\"", vector.elements.0),
                ),
            };
        }
        dace::DType::Pointer(pointer) => {
            let pointee = match &pointer.dtype {
                Some(pointee) => element_type(&format!("{path}.dtype"), pointee)?,
                None => "none".to_string(),
            };
            return Ok(format!("!sdfg.ptr<{pointee}>"));
        }
        dace::DType::Struct(record) => {
            let mut names = Vec::new();
            let mut types = Vec::new();
            for (k, (field, ty)) in record.data.iter().enumerate() {
                names.push(lit(field));
                types.push(element_type(&format!("{path}.data[{k}]"), ty)?);
            }
            let lengths: Vec<String> = record
                .length
                .iter()
                .map(|(field, length)| {
                    let text = match length {
                        serde_json::Value::String(text) => canonical(text),
                        other => other.to_string(),
                    };
                    format!("{} = {}", lit(field), lit(&text))
                })
                .collect();
            let lengths = if lengths.is_empty() {
                String::new()
            } else {
                format!(" lengths {{{}}}", lengths.join(", "))
            };
            return Ok(format!(
                "!sdfg.struct<{} fields [{}] types [{}]{lengths} bytes {}>",
                lit(&record.name),
                names.join(", "),
                types.join(", "),
                record.bytes
            ));
        }
        dace::DType::Callback(callback) => {
            let list = |items: &[Option<dace::DType>], what: &str| -> Result<String> {
                let mut out = Vec::new();
                for (k, item) in items.iter().enumerate() {
                    let at = format!("{path}.{what}[{k}]");
                    out.push(match item {
                        None => "none".to_string(),
                        Some(dace::DType::Other(object)) => {
                            let descriptor: dace::DataDescriptor =
                                serde_json::from_value(serde_json::Value::Object(object.clone()))
                                    .or_else(|e| error(&at, format!("invalid descriptor: {e}")))?;
                            container_type(&at, &descriptor)?
                        }
                        Some(ty) => element_type(&at, ty)?,
                    });
                }
                Ok(format!("[{}]", out.join(", ")))
            };
            return Ok(format!(
                "!sdfg.callback<{} -> {}>",
                list(&callback.arguments, "arguments")?,
                list(&callback.returntypes, "returntypes")?
            ));
        }
        dace::DType::Opaque(opaque) => return Ok(format!("!sdfg.opaque<{}>", lit(&opaque.ctype))),
        _ => return error(path, "unsupported element type"),
    };
    let ty = match name {
        "bool" | "bool_" => "i1",
        "int8" => "i8",
        "int16" => "i16",
        "int32" => "i32",
        "int64" => "i64",
        "uint8" => "ui8",
        "uint16" => "ui16",
        "uint32" => "ui32",
        "uint64" => "ui64",
        "float16" => "f16",
        "float32" => "f32",
        "float64" => "f64",
        "complex64" => "complex<f32>",
        "complex128" => "complex<f64>",
        other => return error(path, format!("unsupported element type '{other}'")),
    };
    Ok(ty.to_string())
}

fn string_list(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| lit(s)).collect();
    format!("[{}]", quoted.join(", "))
}

/// Whether `strides` are the C-order strides of `shape`.
fn c_order(shape: &[String], strides: &[String]) -> bool {
    let mut expected = Expr::int(1);
    for (size, stride) in shape.iter().zip(strides).rev() {
        match (parse(stride), parse(size)) {
            (Ok(stride), Ok(size)) => {
                if stride != expected {
                    return false;
                }
                expected = Expr::mul(&expected, &size);
            }
            _ => return false,
        }
    }
    shape.len() == strides.len()
}

/// A data descriptor as a container type.
fn container_type(path: &str, descriptor: &dace::DataDescriptor) -> Result<String> {
    let Some(common) = descriptor.common() else {
        return error(
            path,
            format!("unsupported data descriptor '{}'", descriptor.type_name()),
        );
    };
    let storage = match common.storage.as_str() {
        "Default" => String::new(),
        other => format!(" storage {other}"),
    };
    if let dace::DataDescriptor::Structure(structure) = descriptor {
        // The element type (a pointer to the C struct of the members)
        // follows from the members; the export writes it back.
        let attrs = &structure.attributes;
        let mut names = Vec::new();
        let mut types = Vec::new();
        for (k, member) in attrs.members.iter().enumerate() {
            names.push(lit(&member.name));
            types.push(container_type(
                &format!("{path}.attributes.members[{k}]"),
                &member.descriptor,
            )?);
        }
        return Ok(format!(
            "!sdfg.structure<{} members [{}] types [{}]{storage}>",
            lit(&attrs.name),
            names.join(", "),
            types.join(", ")
        ));
    }
    let element = element_type(&format!("{path}.attributes.dtype"), common.dtype)?;
    let shape: Vec<String> = common.shape.iter().map(|s| canonical(&s.0)).collect();
    let array_like = |mnemonic: &str, attrs: &dace::ArrayAttributes| -> String {
        let strides: Vec<String> = attrs.strides.iter().map(|s| canonical(&s.0)).collect();
        let offset: Vec<String> = attrs.offset.iter().map(|s| canonical(&s.0)).collect();
        let mut text = format!("!sdfg.{mnemonic}<{element} {}", string_list(&shape));
        if !strides.is_empty() && !c_order(&shape, &strides) {
            let _ = write!(text, " strides {}", string_list(&strides));
        }
        if offset.iter().any(|o| o != "0") {
            let _ = write!(text, " offset {}", string_list(&offset));
        }
        format!("{text}{storage}>")
    };
    Ok(match descriptor {
        dace::DataDescriptor::Scalar(_) => format!("!sdfg.scalar<{element}{storage}>"),
        dace::DataDescriptor::Array(d) => array_like("array", &d.attributes),
        dace::DataDescriptor::ArrayView(d) => array_like("view", &d.attributes),
        dace::DataDescriptor::ArrayReference(d) => array_like("ref", &d.attributes),
        dace::DataDescriptor::Stream(d) => {
            let mut text = format!("!sdfg.stream<{element}");
            if shape != ["1"] && !shape.is_empty() {
                let _ = write!(text, " shape {}", string_list(&shape));
            }
            let buffer = canonical(&d.attributes.buffer_size.0);
            if buffer != "0" {
                let _ = write!(text, " buffer {}", lit(&buffer));
            }
            format!("{text}{storage}>")
        }
        other => {
            return error(
                path,
                format!("unsupported data descriptor '{}'", other.type_name()),
            )
        }
    })
}

/// ` attributes {constants = {...}}` for DaCe's `constants_prop`: scalars
/// become typed attributes, arrays dense tensors of their shape.
fn constants_text(path: &str, constants: &dace::Constants) -> Result<String> {
    if constants.is_empty() {
        return Ok(String::new());
    }
    let mut entries = Vec::new();
    for (name, (descriptor, value)) in constants {
        let at = format!("{path}.attributes.constants_prop.{name}");
        let Some(common) = descriptor.common() else {
            return error(&at, "unsupported constant descriptor");
        };
        let element = element_type(&at, common.dtype)?;
        let scalar = |v: &serde_json::Value| -> Result<String> {
            let number = match v {
                serde_json::Value::String(text) => text.trim().parse::<f64>().ok(),
                serde_json::Value::Bool(b) => Some(f64::from(u8::from(*b))),
                other => other.as_f64(),
            };
            let Some(number) = number else {
                return error(&at, format!("unsupported constant value {v}"));
            };
            Ok(match element.as_str() {
                "i1" => (number != 0.0).to_string(),
                _ if !number.is_finite() => {
                    return error(&at, format!("non-finite constant {v}"));
                }
                t if t.starts_with('f') => sdfg_tasklet::float_text(
                    number,
                    sdfg_tasklet::Ty::parse(t).unwrap_or(sdfg_tasklet::Ty::Float(64)),
                ),
                _ if number.fract() == 0.0 => format!("{}", number as i64),
                _ => return error(&at, format!("non-integer value {v} for {element}")),
            })
        };
        let text = match (descriptor, value) {
            (dace::DataDescriptor::Scalar(_), v) => format!("{} : {element}", scalar(v)?),
            (dace::DataDescriptor::Array(_), serde_json::Value::Object(array)) => {
                let data = array.get("data").cloned().unwrap_or_default();
                fn nested(
                    v: &serde_json::Value,
                    scalar: &dyn Fn(&serde_json::Value) -> Result<String>,
                ) -> Result<String> {
                    match v {
                        serde_json::Value::Array(items) => {
                            let inner: Result<Vec<String>> =
                                items.iter().map(|i| nested(i, scalar)).collect();
                            Ok(format!("[{}]", inner?.join(", ")))
                        }
                        other => scalar(other),
                    }
                }
                let mut dims = Vec::new();
                for size in common.shape {
                    match canonical(&size.0).parse::<u64>() {
                        Ok(n) => dims.push(n.to_string()),
                        Err(_) => return error(&at, "constant array of a symbolic shape"),
                    }
                }
                format!(
                    "dense<{}> : tensor<{}x{element}>",
                    nested(&data, &scalar)?,
                    dims.join("x")
                )
            }
            _ => return error(&at, "unsupported constant (a scalar or an ndarray)"),
        };
        entries.push(format!("{} = {text}", lit(name)));
    }
    Ok(format!(
        " attributes {{constants = {{{}}}}}",
        entries.join(", ")
    ))
}

/// ` attributes {sdfg.untranslated = .., dace.code_global = .., ..}` for a
/// tasklet whose code stays foreign: why it was not translated (for the
/// lowering's diagnostic), its global, initialisation and finalisation code
/// (C++) and its state fields, which the dialect keeps as discardable
/// attributes for export.
fn tasklet_state_attributes(attrs: &dace::TaskletAttributes, untranslated: &str) -> String {
    let mut entries = vec![format!("sdfg.untranslated = {}", lit(untranslated))];
    for (name, code) in [
        ("code_global", &attrs.code_global),
        ("code_init", &attrs.code_init),
        ("code_exit", &attrs.code_exit),
    ] {
        if !code.string_data.trim().is_empty() {
            entries.push(format!("dace.{name} = {}", lit(&code.string_data)));
        }
    }
    if !attrs.state_fields.is_empty() {
        entries.push(format!(
            "dace.state_fields = {}",
            string_list(&attrs.state_fields)
        ));
    }
    format!(" attributes {{{}}}", entries.join(", "))
}

/// Maps a DaCe lambda onto a named write-conflict resolution.
fn wcr_text(lambda: &str) -> String {
    let compact: String = lambda.chars().filter(|c| !c.is_whitespace()).collect();
    let body = compact
        .trim_start_matches('(')
        .trim_end_matches(')')
        .strip_prefix("lambdaa,b:")
        .or_else(|| compact.trim_start_matches('(').strip_prefix("lambdax,y:"))
        .map(|b| b.trim_start_matches('(').trim_end_matches(')').to_string());
    let named = match body.as_deref() {
        Some("a+b") | Some("x+y") => Some("sum"),
        Some("a*b") | Some("x*y") => Some("product"),
        Some("min(a,b)") | Some("min(x,y)") => Some("min"),
        Some("max(a,b)") | Some("max(x,y)") => Some("max"),
        Some("aandb") => Some("logical_and"),
        Some("aorb") => Some("logical_or"),
        Some("a&b") => Some("bitwise_and"),
        Some("a|b") => Some("bitwise_or"),
        Some("a^b") => Some("bitwise_xor"),
        Some("b") => Some("exchange"),
        _ => None,
    };
    match named {
        Some(name) => name.to_string(),
        None => lit(lambda),
    }
}

/// The printed memlet (`["subset" -> "other", ...]`), or `None` for empty
/// memlets. `flip`, for a copy whose DaCe memlet names its destination,
/// holds the source container's shape: subset and other subset swap, and
/// when DaCe gives no other subset the source side is the whole source
/// container (what DaCe copies then).
/// `keep_data` writes the container name, for edges whose SSA source does
/// not imply it (tasklet to tasklet).
fn memlet_text(
    path: &str,
    memlet: &dace::Memlet,
    flip: Option<Flip<'_>>,
    keep_data: bool,
    outer: Option<&[(String, Range)]>,
) -> Result<Option<String>> {
    let attrs = &memlet.attributes;
    if attrs.data.is_none() {
        return Ok(None);
    }
    let Some(subset) = &attrs.subset else {
        return Ok(None);
    };
    let mut main = subset_text(&format!("{path}.attributes.subset"), subset)?;
    let mut other = match &attrs.other_subset {
        Some(o) => Some(subset_text(&format!("{path}.attributes.other_subset"), o)?),
        None => None,
    };
    if let Some(Flip {
        source_shape,
        keep_other,
    }) = flip
    {
        let source = match other.take() {
            Some(o) => o,
            None => {
                let whole: Vec<String> = source_shape
                    .iter()
                    .map(|size| format!("0:{size}"))
                    .collect();
                let text = if whole.is_empty() {
                    "0".to_string()
                } else {
                    whole.join(", ")
                };
                parse_subset(&text)
                    .or_else(|e| error(path, format!("invalid source shape: {e}")))?
            }
        };
        other = keep_other.then_some(main);
        main = source;
    }
    // An outer memlet of a map that still uses the map's parameters was
    // never propagated: DaCe's propagation replaces it by its image over
    // the map's range (and drops the inner side's other subset).
    if let Some(params) = outer {
        let symbols = main.free_symbols();
        if params.iter().any(|(p, _)| symbols.contains(p)) {
            if let Ok(image) = main.image(params, &sdfg_symbolic::Assumptions::new()) {
                main = image;
                other = None;
            }
        }
    }
    let mut text = format!("[{}", lit(&main.to_string()));
    if let Some(other) = other {
        let _ = write!(text, " -> {}", lit(&other.to_string()));
    }
    let volume = canonical(&attrs.volume.0);
    if parse(&volume).ok() != Some(main.volume()) && !volume.is_empty() {
        let _ = write!(text, ", volume {}", lit(&volume));
    }
    if attrs.dynamic {
        text.push_str(", dynamic");
    }
    if let Some(wcr) = &attrs.wcr {
        let _ = write!(text, ", wcr {}", wcr_text(wcr));
    }
    if keep_data {
        if let Some(data) = &attrs.data {
            let _ = write!(text, ", data {}", lit(data));
        }
    }
    text.push(']');
    Ok(Some(text))
}

/// How result `index` of an op with `count` results printed as `value` is
/// referenced.
fn result_ref(value: &str, count: usize, index: usize) -> String {
    if count > 1 {
        format!("{value}#{index}")
    } else {
        value.to_string()
    }
}

/// ` keyword(item, ...)`, or nothing for no items.
fn clause(keyword: &str, items: &[String]) -> String {
    if items.is_empty() {
        String::new()
    } else {
        format!(" {keyword}({})", items.join(", "))
    }
}

/// Records the results of node `node` (printed as `value`), one per output
/// connector, as the sources of its out-edges.
fn register_results(
    sources: &mut HashMap<(usize, String), Source>,
    node: usize,
    value: &str,
    results: Vec<(String, String)>,
) {
    let count = results.len();
    for (r, (conn, ty)) in results.into_iter().enumerate() {
        sources.insert(
            (node, conn),
            Source {
                value: result_ref(value, count, r),
                ty,
            },
        );
    }
}

/// The `%v = ` / `%v:n = ` prefix of an op with `count` results.
fn results_lhs(value: &str, count: usize) -> String {
    match count {
        0 => String::new(),
        1 => format!("{value} = "),
        n => format!("{value}:{n} = "),
    }
}

/// How to re-express a DaCe memlet that names the far end of its path for
/// the container at its access-node end (DaCe's `is_data_src` false): its
/// other subset (or the whole source container) becomes the subset.
#[derive(Clone, Copy)]
struct Flip<'a> {
    /// The shape of the source container, for a memlet without other subset.
    source_shape: &'a [String],
    /// Whether the memlet keeps the far end's subset as its other subset
    /// (only copies into access nodes have one).
    keep_other: bool,
}

/// Emits the dialect's text for SDFGs.
struct Printer {
    out: String,
    next_value: usize,
    /// The canonical shapes of the containers of the SDFG being printed.
    shapes: HashMap<String, Vec<String>>,
    /// The symbols of the SDFG being printed, which Python tasklet code may
    /// read, with the type the code reads them as: `i64` for integers
    /// (symbols are computed as integers), the declared type for floats.
    symbol_types: HashMap<String, sdfg_tasklet::Ty>,
    /// The containers of the SDFG being printed that cannot be `None`.
    non_null: HashSet<String>,
    /// The JSON path of the object being printed, and that of each line
    /// printed so far: diagnostics of the dialect on the printed text are
    /// reported at the path of their line.
    path: String,
    line_paths: Vec<String>,
}

/// What SSA value an edge source connector carries, and its type.
#[derive(Clone)]
struct Source {
    value: String,
    ty: String,
}

/// The scope structure of one state.
struct StateInfo<'s> {
    state: &'s dace::State,
    path: String,
    /// Node id to index in `state.nodes`.
    index: HashMap<usize, usize>,
    /// Node index to the index of its scope entry.
    scope: Vec<Option<usize>>,
    /// Entry index to exit index.
    exit_of: HashMap<usize, usize>,
    /// Per node index: (in-edges, out-edges) as edge indices.
    in_edges: Vec<Vec<usize>>,
    out_edges: Vec<Vec<usize>>,
    /// Per map entry: its parameters and their ranges.
    map_params: HashMap<usize, Vec<(String, Range)>>,
}

/// DaCe's `SDFGState.fill_scope_connectors`, which DaCe runs before code
/// generation: data edges into and out of scope entries and exits that
/// have no connectors get `IN_k`/`OUT_k` pairs, numbered after the existing
/// ones and matched by data name. Returns the filled copy of the state, or
/// `None` when every scope edge already has its connectors.
fn fill_scope_connectors(state: &dace::State) -> Option<dace::State> {
    let position: HashMap<usize, usize> = state
        .nodes
        .iter()
        .enumerate()
        .map(|(i, node)| (node_scope(node).0.unwrap_or(i), i))
        .collect();
    let node = |id: usize| position.get(&id).map(|&i| &state.nodes[i]);
    let data = |e: &dace::DataflowEdge| e.attributes.data.attributes.data.clone();
    let missing = state.edges.iter().any(|e| {
        data(e).is_some()
            && ((e.dst_connector.is_none()
                && node(e.dst).is_some_and(|n| is_entry(n) || is_exit(n)))
                || (e.src_connector.is_none()
                    && node(e.src).is_some_and(|n| is_entry(n) || is_exit(n))))
    });
    if !missing {
        return None;
    }
    let mut state = state.clone();
    for (i, scope_node) in state.nodes.clone().iter().enumerate() {
        let id = node_scope(scope_node).0.unwrap_or(i);
        let entry = is_entry(scope_node);
        if !entry && !is_exit(scope_node) {
            continue;
        }
        // Entries number their inputs, exits their outputs; the other side
        // follows by data name.
        let (outer_prefix, inner_prefix) = if entry {
            ("IN_", "OUT_")
        } else {
            ("OUT_", "IN_")
        };
        let outer = |e: &dace::DataflowEdge| if entry { e.dst == id } else { e.src == id };
        let inner = |e: &dace::DataflowEdge| if entry { e.src == id } else { e.dst == id };
        // The outer side of an entry is its destination connector.
        let mut count = state
            .edges
            .iter()
            .filter(|e| outer(e))
            .filter(|e| {
                let conn = if entry {
                    &e.dst_connector
                } else {
                    &e.src_connector
                };
                conn.as_deref().is_some_and(|c| c.starts_with(outer_prefix))
            })
            .count();
        let mut by_data: HashMap<String, String> = HashMap::new();
        let mut added = Vec::new();
        for edge in state.edges.iter_mut().filter(|e| outer(e)) {
            let Some(name) = data(edge) else { continue };
            let conn = if entry {
                &mut edge.dst_connector
            } else {
                &mut edge.src_connector
            };
            match conn {
                Some(c) => {
                    if let Some(suffix) = c.strip_prefix(outer_prefix) {
                        by_data.entry(name).or_insert_with(|| suffix.to_string());
                    }
                }
                None => {
                    count += 1;
                    *conn = Some(format!("{outer_prefix}{count}"));
                    by_data.insert(name, count.to_string());
                    added.push(format!("{outer_prefix}{count}"));
                }
            }
        }
        for edge in state.edges.iter_mut().filter(|e| inner(e)) {
            let Some(name) = data(edge) else { continue };
            let conn = if entry {
                &mut edge.src_connector
            } else {
                &mut edge.dst_connector
            };
            if conn.is_none() {
                if let Some(suffix) = by_data.get(&name) {
                    *conn = Some(format!("{inner_prefix}{suffix}"));
                    added.push(format!("{inner_prefix}{suffix}"));
                }
            }
        }
        if let dace::Node::MapExit(exit) | dace::Node::ConsumeExit(exit) = &mut state.nodes[i] {
            for conn in added {
                let list = if conn.starts_with("IN_") {
                    &mut exit.attributes.in_connectors
                } else {
                    &mut exit.attributes.out_connectors
                };
                list.entry(conn).or_insert(None);
            }
        }
    }
    Some(state)
}

fn node_scope(node: &dace::Node) -> (Option<usize>, Option<usize>, Option<usize>) {
    match node {
        dace::Node::AccessNode(n) => (n.id, n.scope_entry, n.scope_exit),
        dace::Node::Tasklet(n) => (n.id, n.scope_entry, n.scope_exit),
        dace::Node::MapEntry(n) => (n.id, n.scope_entry, n.scope_exit),
        dace::Node::MapExit(n) => (n.id, n.scope_entry, n.scope_exit),
        dace::Node::ConsumeEntry(n) => (n.id, n.scope_entry, n.scope_exit),
        dace::Node::ConsumeExit(n) => (n.id, n.scope_entry, n.scope_exit),
        dace::Node::NestedSdfg(n) => (n.id, n.scope_entry, n.scope_exit),
        dace::Node::LibraryNode(n) => (n.id, n.scope_entry, n.scope_exit),
        dace::Node::Other(_) => (None, None, None),
    }
}

fn is_entry(node: &dace::Node) -> bool {
    matches!(node, dace::Node::MapEntry(_) | dace::Node::ConsumeEntry(_))
}

fn is_exit(node: &dace::Node) -> bool {
    matches!(node, dace::Node::MapExit(_) | dace::Node::ConsumeExit(_))
}

impl<'s> StateInfo<'s> {
    /// Whether edge `k` carries a value from one tasklet's output
    /// connector to another's input connector without a memlet (DaCe's
    /// code-to-code edges): it is printed as a one-element memlet.
    fn is_value_edge(&self, k: usize) -> bool {
        let edge = self.edge(k);
        edge.attributes.data.attributes.data.is_none()
            && edge.src_connector.is_some()
            && edge.dst_connector.is_some()
            && matches!(self.node(self.src(k)), dace::Node::Tasklet(_))
            && matches!(self.node(self.dst(k)), dace::Node::Tasklet(_))
    }

    fn new(state: &'s dace::State, path: &str) -> Result<Self> {
        let n = state.nodes.len();
        let mut index = HashMap::new();
        for (i, node) in state.nodes.iter().enumerate() {
            if let dace::Node::Other(map) = node {
                let kind = map.get("type").and_then(|t| t.as_str()).unwrap_or("?");
                return error(
                    &format!("{path}.nodes[{i}]"),
                    format!("unsupported node type '{kind}'"),
                );
            }
            index.insert(node_scope(node).0.unwrap_or(i), i);
        }
        let mut scope = vec![None; n];
        let mut exit_of = HashMap::new();
        for (i, node) in state.nodes.iter().enumerate() {
            let (_, entry, exit) = node_scope(node);
            if is_exit(node) {
                // An exit node belongs to the scope its entry opens.
                let Some(entry) = entry.and_then(|e| index.get(&e).copied()) else {
                    return error(
                        &format!("{path}.nodes[{i}]"),
                        "exit node without a scope entry",
                    );
                };
                exit_of.insert(entry, i);
                scope[i] = Some(entry);
            } else {
                scope[i] = entry.and_then(|e| index.get(&e).copied());
            }
            if is_entry(node) && exit.and_then(|e| index.get(&e)).is_none() {
                return error(
                    &format!("{path}.nodes[{i}]"),
                    "scope entry without an exit node",
                );
            }
        }
        // Scopes nest: every enclosing scope is an entry node, and walking
        // outwards ends (a damaged file may say otherwise).
        for i in 0..n {
            let mut at = scope[i];
            let mut steps = 0;
            while let Some(entry) = at {
                if !is_entry(&state.nodes[entry]) {
                    return error(
                        &format!("{path}.nodes[{i}].scope_entry"),
                        "names a node that is not a scope entry",
                    );
                }
                steps += 1;
                if steps > n {
                    return error(
                        &format!("{path}.nodes[{i}].scope_entry"),
                        "scope entries form a cycle",
                    );
                }
                at = scope[entry];
            }
        }
        let mut in_edges = vec![Vec::new(); n];
        let mut out_edges = vec![Vec::new(); n];
        for (k, edge) in state.edges.iter().enumerate() {
            let (Some(&src), Some(&dst)) = (index.get(&edge.src), index.get(&edge.dst)) else {
                return error(
                    &format!("{path}.edges[{k}]"),
                    "edge between nodes that do not exist",
                );
            };
            out_edges[src].push(k);
            in_edges[dst].push(k);
        }
        // Each map's parameters and ranges, read once.
        let mut map_params = HashMap::new();
        for (i, node) in state.nodes.iter().enumerate() {
            let dace::Node::MapEntry(map) = node else {
                continue;
            };
            let attrs = &map.attributes;
            let mut params = Vec::new();
            for (d, (param, dim)) in attrs.params.iter().zip(&attrs.range.ranges).enumerate() {
                let at = format!("{path}.nodes[{i}].attributes.range.ranges[{d}]");
                params.push((
                    param.clone(),
                    Range::from_dace_inclusive(
                        expr(&at, &dim.start.main().0)?,
                        expr(&at, &dim.end.main().0)?,
                        expr(&at, &dim.step.main().0)?,
                        expr(&at, &dim.tile.main().0)?,
                    ),
                ));
            }
            map_params.insert(i, params);
        }
        Ok(Self {
            state,
            path: path.to_string(),
            index,
            scope,
            exit_of,
            in_edges,
            out_edges,
            map_params,
        })
    }

    fn node(&self, i: usize) -> &'s dace::Node {
        &self.state.nodes[i]
    }

    fn edge(&self, k: usize) -> &'s dace::DataflowEdge {
        &self.state.edges[k]
    }

    fn src(&self, k: usize) -> usize {
        self.index[&self.edge(k).src]
    }

    /// The edge through scope node `node` that continues edge `k`'s
    /// memlet path on the other side (`IN_x` <-> `OUT_x`), if unique.
    fn through(&self, node: usize, connector: Option<&str>, forward: bool) -> Option<usize> {
        let name = connector?;
        let (from, to) = if forward {
            ("IN_", "OUT_")
        } else {
            ("OUT_", "IN_")
        };
        let other = format!("{to}{}", name.strip_prefix(from)?);
        let edges = if forward {
            &self.out_edges[node]
        } else {
            &self.in_edges[node]
        };
        let mut matching = edges.iter().copied().filter(|&e| {
            let conn = if forward {
                &self.edge(e).src_connector
            } else {
                &self.edge(e).dst_connector
            };
            conn.as_deref() == Some(other.as_str())
        });
        let first = matching.next()?;
        matching.next().is_none().then_some(first)
    }

    /// For an edge into a map entry or out of a map exit (an outer
    /// memlet), the map's parameters and ranges.
    fn outer_map_params(&self, k: usize) -> Option<&[(String, Range)]> {
        let entry = match (self.node(self.src(k)), self.node(self.dst(k))) {
            (dace::Node::MapExit(_), _) => self.scope[self.src(k)]?,
            (_, dace::Node::MapEntry(_)) => self.dst(k),
            _ => return None,
        };
        self.map_params.get(&entry).map(Vec::as_slice)
    }

    /// The node where edge `k`'s memlet path starts (DaCe's
    /// `memlet_path(e)[0].src`).
    fn path_start(&self, k: usize) -> usize {
        self.path_terminal(k, false)
    }

    /// The node where edge `k`'s memlet path ends.
    fn path_end(&self, k: usize) -> usize {
        self.path_terminal(k, true)
    }

    /// Follows edge `k`'s memlet path through scope nodes, forward to its
    /// destination or backward to its source.
    fn path_terminal(&self, k: usize, forward: bool) -> usize {
        let edge = self.edge(k);
        let (node, connector) = if forward {
            (self.dst(k), edge.dst_connector.as_deref())
        } else {
            (self.src(k), edge.src_connector.as_deref())
        };
        if !(is_entry(self.node(node)) || is_exit(self.node(node))) {
            return node;
        }
        match self.through(node, connector, forward) {
            Some(next) => self.path_terminal(next, forward),
            None => node,
        }
    }

    /// The edge of view access node `i` (of container `data`) that leads
    /// to the viewed data: DaCe's `get_view_edge`, rule for rule.
    fn view_edge(&self, i: usize, data: &str) -> Option<usize> {
        let ins = &self.in_edges[i];
        let outs = &self.out_edges[i];
        let is_access = |n: usize| matches!(self.node(n), dace::Node::AccessNode(_));
        if ins.len() == 1 && outs.len() != 1 {
            return is_access(self.path_start(ins[0])).then_some(ins[0]);
        }
        if outs.len() == 1 && ins.len() != 1 {
            return is_access(self.path_end(outs[0])).then_some(outs[0]);
        }
        if ins.len() != 1 {
            return None;
        }
        let (input, output) = (ins[0], outs[0]);
        let src_is_data = is_access(self.path_start(input));
        let dst_is_data = is_access(self.path_end(output));
        match (src_is_data, dst_is_data) {
            (true, false) => return Some(input),
            (false, true) => return Some(output),
            (false, false) => return None,
            (true, true) => {}
        }
        if self.edge(input).dst_connector.as_deref() == Some("views") {
            return Some(input);
        }
        if self.edge(output).src_connector.as_deref() == Some("views") {
            return Some(output);
        }
        let names =
            |e: usize| self.edge(e).attributes.data.attributes.data.as_deref() == Some(data);
        match (names(input), names(output)) {
            (true, false) => return Some(output),
            (false, true) => return Some(input),
            (true, true) => return None,
            (false, false) => {}
        }
        if is_entry(self.node(self.src(input))) {
            return Some(input);
        }
        if is_exit(self.node(self.dst(output))) {
            return Some(output);
        }
        Some(input)
    }

    fn dst(&self, k: usize) -> usize {
        self.index[&self.edge(k).dst]
    }

    /// The node standing for `i` at scope level `level` (an entry stands
    /// for its whole scope, and so for its exit), if `i` is inside that
    /// level.
    fn representative(&self, i: usize, level: Option<usize>) -> Option<usize> {
        let mut n = if is_exit(self.node(i)) {
            self.scope[i]?
        } else {
            i
        };
        loop {
            if self.scope[n] == level {
                return Some(n);
            }
            n = self.scope[n]?;
        }
    }

    /// The nodes printed at `level`, in a topological order that keeps the
    /// file's node order wherever the edges allow (Kahn's algorithm taking
    /// the smallest index first), so that export and re-import reproduce
    /// the same text.
    fn ordered(&self, level: Option<usize>) -> Result<Vec<usize>> {
        let members: Vec<usize> = (0..self.state.nodes.len())
            .filter(|&i| !is_exit(self.node(i)) && self.scope[i] == level)
            .collect();
        let mut successors: HashMap<usize, Vec<usize>> = HashMap::new();
        let mut in_degree: HashMap<usize, usize> = members.iter().map(|&m| (m, 0)).collect();
        for k in 0..self.state.edges.len() {
            let (Some(a), Some(b)) = (
                self.representative(self.src(k), level),
                self.representative(self.dst(k), level),
            ) else {
                continue;
            };
            if a != b && in_degree.contains_key(&a) && in_degree.contains_key(&b) {
                successors.entry(a).or_default().push(b);
                *in_degree.entry(b).or_default() += 1;
            }
        }
        let mut ready: BinaryHeap<Reverse<usize>> = in_degree
            .iter()
            .filter(|(_, d)| **d == 0)
            .map(|(m, _)| Reverse(*m))
            .collect();
        let mut order = Vec::with_capacity(members.len());
        while let Some(Reverse(node)) = ready.pop() {
            order.push(node);
            for next in successors.get(&node).into_iter().flatten() {
                if let Some(degree) = in_degree.get_mut(next) {
                    *degree -= 1;
                    if *degree == 0 {
                        ready.push(Reverse(*next));
                    }
                }
            }
        }
        if order.len() != members.len() {
            return error(&self.path, "the state's dataflow graph has a cycle");
        }
        Ok(order)
    }
}

impl Printer {
    fn fresh(&mut self) -> String {
        self.next_value += 1;
        format!("%v{}", self.next_value)
    }

    /// For edge `k` into or out of a scope entry whose memlet path starts
    /// at an access node other than the container its memlet names: the
    /// shape of the path's source container.
    fn far_end_source(&self, info: &StateInfo<'_>, k: usize) -> Option<Vec<String>> {
        let data = info.edge(k).attributes.data.attributes.data.as_deref()?;
        let start = info.path_start(k);
        // Out of an exit, the value is the scope's output: its memlet
        // names the destination, as the dialect's does.
        if is_exit(info.node(info.src(k)))
            || (start == info.src(k) && !is_entry(info.node(info.dst(k))))
        {
            return None;
        }
        match info.node(start) {
            dace::Node::AccessNode(source) if source.attributes.data != data => {
                self.shapes.get(&source.attributes.data).cloned()
            }
            _ => None,
        }
    }

    /// Records the shape of container `name` and, for a structure, prints
    /// an `sdfg.member` for each of its members (DaCe's `name.member`),
    /// recursively.
    fn members(
        &mut self,
        name: &str,
        descriptor: &dace::DataDescriptor,
        indent: usize,
        containers: &mut HashMap<String, Source>,
        shapes: &mut HashMap<String, Vec<String>>,
    ) -> Result<()> {
        if let Some(common) = descriptor.common() {
            shapes.insert(
                name.to_string(),
                common.shape.iter().map(|s| canonical(&s.0)).collect(),
            );
        }
        let dace::DataDescriptor::Structure(structure) = descriptor else {
            return Ok(());
        };
        let Some(parent) = containers.get(name).cloned() else {
            return Ok(());
        };
        for (k, member) in structure.attributes.members.iter().enumerate() {
            let ty = container_type(
                &format!("{}.attributes.members[{k}]", self.path),
                &member.descriptor,
            )?;
            let value = self.fresh();
            self.line(
                indent,
                &format!(
                    "{value} = sdfg.member {} {} : {} -> {ty}",
                    parent.value,
                    lit(&member.name),
                    parent.ty
                ),
            );
            let full = format!("{name}.{}", member.name);
            containers.insert(full.clone(), Source { value, ty });
            self.members(&full, &member.descriptor, indent, containers, shapes)?;
        }
        Ok(())
    }

    /// Folds `x is None` to `False` and `x is not None` to `True` for the
    /// containers that cannot be `None` (DaCe's `evaluate_optional_arrays`:
    /// scalars, transients and arrays marked `optional: false`); other tests are
    /// left for the symbolic parser to reject.
    fn fold_none_tests(&self, condition: &str) -> String {
        let mut out = condition.to_string();
        for (pattern, value) in [(" is not None", "True"), (" is None", "False")] {
            let mut from = 0;
            while let Some(found) = out[from..].find(pattern).map(|at| at + from) {
                let start = out[..found]
                    .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .map_or(0, |at| at + 1);
                let end = found + pattern.len();
                let boundary = !out[end..].starts_with(|c: char| c.is_alphanumeric() || c == '_');
                if boundary && self.non_null.contains(&out[start..found]) {
                    out.replace_range(start..end, value);
                    from = start + value.len();
                } else {
                    from = end;
                }
            }
        }
        out
    }

    fn line(&mut self, indent: usize, text: &str) {
        self.line_paths.push(self.path.clone());
        for _ in 0..indent {
            self.out.push_str("  ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    /// Prints one SDFG.
    fn sdfg(&mut self, sdfg: &dace::Sdfg, path: &str, indent: usize) -> Result<()> {
        self.path = path.to_string();
        let attrs = &sdfg.attributes;
        let name = if attrs.name.is_empty() {
            "sdfg"
        } else {
            &attrs.name
        };
        let mut order: Vec<&String> = attrs
            .arg_names
            .iter()
            // `arg_names` orders the arguments; DaCe's `arglist` takes only
            // the non-transient containers of it.
            .filter(|n| {
                attrs
                    .arrays
                    .get(*n)
                    .and_then(|d| d.common())
                    .is_some_and(|c| !c.transient)
            })
            .collect();
        let mut rest: Vec<&String> = attrs
            .arrays
            .iter()
            .filter(|(n, d)| !order.contains(n) && d.common().is_some_and(|c| !c.transient))
            .map(|(n, _)| n)
            .collect();
        rest.sort();
        order.extend(rest);
        let mut containers: HashMap<String, Source> = HashMap::new();
        let mut args = Vec::new();
        for name in &order {
            let at = format!("{path}.attributes._arrays.{name}");
            let ty = container_type(&at, &attrs.arrays[*name])?;
            let value = self.fresh();
            args.push(format!("{value}: {ty} as {}", lit(name)));
            containers.insert(name.to_string(), Source { value, ty });
        }
        let mut symbols: BTreeMap<&str, String> = BTreeMap::new();
        for (symbol, dtype) in &attrs.symbols {
            let ty = element_type(&format!("{path}.attributes.symbols.{symbol}"), dtype)?;
            let scalar = ty.starts_with('i')
                || ty.starts_with("ui")
                || ty.starts_with('f')
                || ty.starts_with("complex<");
            if !scalar && !ty.starts_with("!sdfg.callback") {
                return error(
                    &format!("{path}.attributes.symbols.{symbol}"),
                    format!("symbol of non-scalar type {ty}"),
                );
            }
            symbols.insert(symbol, ty);
        }
        let symbols_text = if symbols.is_empty() {
            String::new()
        } else {
            let entries: Vec<String> = symbols
                .iter()
                .map(|(n, t)| format!("{} = {t}", lit(n)))
                .collect();
            format!(" symbols {{{}}}", entries.join(", "))
        };
        self.line(
            indent,
            &format!(
                "sdfg.sdfg @{}({}){symbols_text}{} {{",
                lit(name),
                args.join(", "),
                constants_text(path, &attrs.constants_prop)?
            ),
        );
        for (name, descriptor) in &attrs.arrays {
            let Some(common) = descriptor.common() else {
                return error(
                    &format!("{path}.attributes._arrays.{name}"),
                    format!("unsupported data descriptor '{}'", descriptor.type_name()),
                );
            };
            if !common.transient {
                continue;
            }
            self.path = format!("{path}.attributes._arrays.{name}");
            let ty = container_type(&self.path, descriptor)?;
            let value = self.fresh();
            let lifetime = match common.lifetime.as_str() {
                "Scope" => String::new(),
                other => format!(" lifetime {other}"),
            };
            self.line(
                indent + 1,
                &format!("{value} = sdfg.alloc {}{lifetime} : {ty}", lit(name)),
            );
            containers.insert(name.to_string(), Source { value, ty });
        }
        let mut shapes = HashMap::new();
        for (name, descriptor) in &attrs.arrays {
            self.path = format!("{path}.attributes._arrays.{name}");
            self.members(name, descriptor, indent + 1, &mut containers, &mut shapes)?;
        }
        let start = sdfg.start_block.or(sdfg.start_state);
        let outer_shapes = std::mem::replace(&mut self.shapes, shapes);
        let symbol_types = symbols
            .iter()
            .filter_map(|(name, ty)| {
                let ty = match sdfg_tasklet::Ty::parse(ty)? {
                    ty @ (sdfg_tasklet::Ty::Float(_) | sdfg_tasklet::Ty::Complex(_)) => ty,
                    sdfg_tasklet::Ty::Int(_) | sdfg_tasklet::Ty::UInt(_) => {
                        sdfg_tasklet::Ty::Int(64)
                    }
                    _ => return None,
                };
                Some((name.to_string(), ty))
            })
            .collect();
        let outer_symbols = std::mem::replace(&mut self.symbol_types, symbol_types);
        let non_null = attrs
            .arrays
            .iter()
            .filter(|(_, d)| {
                let known = match d {
                    dace::DataDescriptor::Array(a) => a.attributes.optional == Some(false),
                    dace::DataDescriptor::Scalar(_) => true,
                    _ => false,
                };
                d.common().is_some_and(|c| c.transient || known)
            })
            .map(|(name, _)| name.clone())
            .collect();
        let outer_non_null = std::mem::replace(&mut self.non_null, non_null);
        let body = self.region(
            &sdfg.nodes,
            &sdfg.edges,
            start,
            path,
            indent + 1,
            &containers,
        );
        self.shapes = outer_shapes;
        self.symbol_types = outer_symbols;
        self.non_null = outer_non_null;
        body?;
        self.line(indent, "}");
        Ok(())
    }

    /// Prints the body of a DaCe control-flow region of any kind.
    fn region_body<A>(
        &mut self,
        region: &dace::Region<A>,
        path: &str,
        indent: usize,
        containers: &HashMap<String, Source>,
    ) -> Result<()> {
        self.region(
            &region.nodes,
            &region.edges,
            region.start_block,
            path,
            indent,
            containers,
        )
    }

    /// Prints the blocks and inter-state edges of a control-flow region.
    fn region(
        &mut self,
        blocks: &[dace::ControlFlowBlock],
        edges: &[dace::CfgEdge],
        start: Option<usize>,
        path: &str,
        indent: usize,
        containers: &HashMap<String, Source>,
    ) -> Result<()> {
        let mut labels = Vec::with_capacity(blocks.len());
        let mut used = HashSet::new();
        for block in blocks {
            let base = block_label(block);
            let mut label = base.clone();
            let mut n = 0;
            while !used.insert(label.clone()) {
                n += 1;
                label = format!("{base}_{n}");
            }
            labels.push(label);
        }
        let id_of = |i: usize| block_id(&blocks[i]).unwrap_or(i);
        // As DaCe's `start_block`: the one block without in-edges when there
        // is exactly one (DaCe keeps a stale `start_block` id in files its
        // simplification wrote), else the recorded start block.
        let sources: Vec<usize> = (0..blocks.len())
            .filter(|&i| !edges.iter().any(|e| e.dst == id_of(i)))
            .collect();
        let start = match sources[..] {
            [only] => only,
            _ => start
                .and_then(|s| (0..blocks.len()).find(|&i| id_of(i) == s))
                .or(sources.first().copied())
                .unwrap_or(0),
        };
        let order = std::iter::once(start).chain((0..blocks.len()).filter(|&i| i != start));
        for i in order {
            if i >= blocks.len() {
                break;
            }
            self.block(
                &blocks[i],
                &labels[i],
                &format!("{path}.nodes[{i}]"),
                indent,
                containers,
            )?;
        }
        for (k, edge) in edges.iter().enumerate() {
            let at = format!("{path}.edges[{k}]");
            self.path = at.clone();
            let find = |id: usize| (0..blocks.len()).find(|&i| id_of(i) == id);
            let (Some(src), Some(dst)) = (find(edge.src), find(edge.dst)) else {
                return error(&at, "inter-state edge between blocks that do not exist");
            };
            let data = &edge.attributes.data.attributes;
            let mut text = format!("sdfg.edge @{} -> @{}", lit(&labels[src]), lit(&labels[dst]));
            let condition = self.fold_none_tests(data.condition.string_data.trim());
            if !condition.is_empty() && condition != "1" && condition != "True" {
                let _ = write!(text, " if {}", lit(&condition));
            }
            if !data.assignments.is_empty() {
                let assigns: Vec<String> = data
                    .assignments
                    .iter()
                    .map(|(n, v)| format!("{} = {}", lit(n), lit(v.0.trim())))
                    .collect();
                let _ = write!(text, " assign({})", assigns.join(", "));
            }
            self.line(indent, &text);
        }
        Ok(())
    }

    fn block(
        &mut self,
        block: &dace::ControlFlowBlock,
        label: &str,
        path: &str,
        indent: usize,
        containers: &HashMap<String, Source>,
    ) -> Result<()> {
        self.path = path.to_string();
        let name = lit(label);
        match block {
            dace::ControlFlowBlock::State(state) => {
                self.line(indent, &format!("sdfg.state @{name} {{"));
                let filled = fill_scope_connectors(state);
                let info = StateInfo::new(filled.as_ref().unwrap_or(state), path)?;
                let mut sources = HashMap::new();
                self.dataflow(&info, None, indent + 1, containers, &mut sources)?;
                self.line(indent, "}");
            }
            dace::ControlFlowBlock::Loop(region) => {
                let attrs = &region.attributes;
                let mut text = format!("sdfg.loop @{name}");
                let statement =
                    |code: &Option<dace::CodeBlock>, what: &str| -> Result<Option<String>> {
                        let Some(code) = code else { return Ok(None) };
                        if code.string_data.trim().is_empty() {
                            return Ok(None);
                        }
                        // DaCe's code generator runs the first statement
                        // only; later bare expressions have no effect.
                        let at = format!("{path}.attributes.{what}");
                        let statements = sdfg_symbolic::parse_statements(code.string_data.trim())
                            .or_else(|e| {
                            error(
                                &at,
                                format!("unsupported loop statement \"{}\": {e}", code.string_data),
                            )
                        })?;
                        match statements.as_slice() {
                            [sdfg_symbolic::Statement::Assign(_, value), rest @ ..]
                                if rest
                                    .iter()
                                    .all(|s| matches!(s, sdfg_symbolic::Statement::Expr(_))) =>
                            {
                                Ok(Some(value.to_string()))
                            }
                            _ => error(
                                &at,
                                format!(
                                    "unsupported loop statement \"{}\": expected one assignment",
                                    code.string_data
                                ),
                            ),
                        }
                    };
                let init = statement(&attrs.init_statement, "init_statement")?;
                let update = statement(&attrs.update_statement, "update_statement")?;
                if !attrs.loop_variable.is_empty() {
                    let _ = write!(text, " var {}", lit(&attrs.loop_variable));
                    if let Some(init) = init {
                        let _ = write!(text, " init {}", lit(&init));
                    }
                }
                let cond = attrs
                    .loop_condition
                    .as_ref()
                    .map(|c| self.fold_none_tests(c.string_data.trim()))
                    .unwrap_or_else(|| "True".into());
                let _ = write!(text, " cond {}", lit(&cond));
                if !attrs.loop_variable.is_empty() {
                    if let Some(update) = update {
                        let _ = write!(text, " update {}", lit(&update));
                    }
                }
                if attrs.inverted {
                    text.push_str(" inverted");
                    if attrs.update_before_condition {
                        text.push_str(" update_before_condition");
                    }
                }
                self.line(indent, &format!("{text} {{"));
                self.region_body(region, path, indent + 1, containers)?;
                self.line(indent, "}");
            }
            dace::ControlFlowBlock::Conditional(conditional) => {
                self.line(indent, &format!("sdfg.conditional @{name} {{"));
                for (b, branch) in conditional.branches.iter().enumerate() {
                    let at = format!("{path}.branches[{b}]");
                    let label = if branch.body.label.is_empty() {
                        format!("{label}_branch{b}")
                    } else {
                        branch.body.label.clone()
                    };
                    let mut text = format!("sdfg.branch @{}", lit(&label));
                    if let Some(condition) = &branch.condition {
                        let condition = self.fold_none_tests(condition.string_data.trim());
                        let _ = write!(text, " if {}", lit(&condition));
                    }
                    self.line(indent + 1, &format!("{text} {{"));
                    self.region_body(&branch.body, &at, indent + 2, containers)?;
                    self.line(indent + 1, "}");
                }
                self.line(indent, "}");
            }
            // A named region is a plain control-flow region with a label.
            dace::ControlFlowBlock::Region(region) => {
                self.line(indent, &format!("sdfg.region @{name} {{"));
                self.region_body(region, path, indent + 1, containers)?;
                self.line(indent, "}");
            }
            dace::ControlFlowBlock::Named(region) => {
                self.line(indent, &format!("sdfg.region @{name} {{"));
                self.region_body(region, path, indent + 1, containers)?;
                self.line(indent, "}");
            }
            dace::ControlFlowBlock::FunctionCall(region) => {
                let args: Vec<String> = region
                    .attributes
                    .arguments
                    .iter()
                    .map(|(k, v)| format!("{} = {}", lit(k), lit(v)))
                    .collect();
                let args = clause("args", &args);
                self.line(indent, &format!("sdfg.call_region @{name}{args} {{"));
                self.region_body(region, path, indent + 1, containers)?;
                self.line(indent, "}");
            }
            dace::ControlFlowBlock::Break(_) => self.line(indent, &format!("sdfg.break @{name}")),
            dace::ControlFlowBlock::Continue(_) => {
                self.line(indent, &format!("sdfg.continue @{name}"))
            }
            dace::ControlFlowBlock::Return(_) => self.line(indent, &format!("sdfg.return @{name}")),
            dace::ControlFlowBlock::Other(map) => {
                let kind = map.get("type").and_then(|t| t.as_str()).unwrap_or("?");
                return error(path, format!("unsupported control-flow block '{kind}'"));
            }
        }
        Ok(())
    }

    /// The container type of the data a memlet names.
    fn data_type(containers: &HashMap<String, Source>, memlet: &dace::Memlet) -> Option<String> {
        memlet
            .attributes
            .data
            .as_ref()
            .and_then(|d| containers.get(d))
            .map(|s| s.ty.clone())
    }

    /// The SSA value an edge reads from its source, if printed already.
    fn edge_source(
        info: &StateInfo<'_>,
        k: usize,
        sources: &HashMap<(usize, String), Source>,
    ) -> Option<Source> {
        let edge = info.edge(k);
        let conn = edge.src_connector.clone().unwrap_or_default();
        sources.get(&(info.src(k), conn)).cloned()
    }

    /// Prints the memlet'd operand of edge `k`: `%v[memlet] : type`.
    fn operand(
        &self,
        info: &StateInfo<'_>,
        k: usize,
        sources: &HashMap<(usize, String), Source>,
        flip: Option<Flip<'_>>,
    ) -> Result<Option<String>> {
        let at = format!("{}.edges[{k}]", info.path);
        // From a tasklet or a consume entry (whose element is a value) to
        // anything but an access node or a scope exit, the SSA value does
        // not say which container the data passes through.
        let keep_data = matches!(
            info.node(info.src(k)),
            dace::Node::Tasklet(_) | dace::Node::ConsumeEntry(_)
        ) && !matches!(
            info.node(info.dst(k)),
            dace::Node::AccessNode(_) | dace::Node::MapExit(_) | dace::Node::ConsumeExit(_)
        );
        let outer = info.outer_map_params(k);
        let memlet = if info.is_value_edge(k) {
            Some("[\"0\"]".to_string())
        } else {
            memlet_text(
                &format!("{at}.attributes.data"),
                &info.edge(k).attributes.data,
                flip,
                keep_data,
                outer,
            )?
        };
        let Some(memlet) = memlet else {
            return Ok(None);
        };
        let Some(source) = Self::edge_source(info, k, sources) else {
            return error(
                &at,
                "edge from a node whose output was not printed (unsupported connector or order)",
            );
        };
        Ok(Some(format!("{}{memlet} : {}", source.value, source.ty)))
    }

    /// `after(...)` for the empty-memlet edges into node `i` (those that
    /// only connect a node to its enclosing scope are implied).
    fn after(
        &self,
        info: &StateInfo<'_>,
        i: usize,
        sources: &HashMap<(usize, String), Source>,
    ) -> Result<String> {
        let mut values = Vec::new();
        let mut types = Vec::new();
        for &k in &info.in_edges[i] {
            let edge = info.edge(k);
            if edge.attributes.data.attributes.data.is_some() || info.is_value_edge(k) {
                continue;
            }
            let src = info.src(k);
            if is_entry(info.node(src)) && info.scope[i] == Some(src) {
                continue;
            }
            // Any output of the source orders it; take the first by
            // connector name so that the choice is stable.
            let source = sources
                .iter()
                .filter(|((node, _), _)| *node == src)
                .min_by(|a, b| a.0 .1.cmp(&b.0 .1))
                .map(|(_, s)| s.clone());
            match source {
                Some(s) => {
                    values.push(s.value);
                    types.push(s.ty);
                }
                None => {
                    return error(
                        &format!("{}.edges[{k}]", info.path),
                        "ordering edge from a node without outputs is not supported",
                    )
                }
            }
        }
        if values.is_empty() {
            return Ok(String::new());
        }
        Ok(format!(
            " after({} : {})",
            values.join(", "),
            types.join(", ")
        ))
    }

    /// The type of output connector `conn` of node `i`: the connector's
    /// dtype, else the element type of the data its out-edges write.
    fn output_type(
        info: &StateInfo<'_>,
        i: usize,
        conn: &str,
        dtype: Option<&dace::DType>,
        containers: &HashMap<String, Source>,
        element: bool,
    ) -> Result<String> {
        let at = format!("{}.nodes[{i}]", info.path);
        if element {
            if let Some(dtype) = dtype {
                if let Ok(ty) = element_type(&at, dtype) {
                    return Ok(ty);
                }
            }
        }
        for &k in &info.out_edges[i] {
            let edge = info.edge(k);
            if edge.src_connector.as_deref().unwrap_or("") != conn {
                continue;
            }
            if let Some(ty) = Self::data_type(containers, &edge.attributes.data) {
                if !element {
                    return Ok(ty);
                }
                return Ok(element_of(&ty));
            }
        }
        error(
            &at,
            format!("cannot tell the type of output connector \"{conn}\""),
        )
    }

    /// Prints the nodes of one scope level of a state.
    fn dataflow(
        &mut self,
        info: &StateInfo<'_>,
        level: Option<usize>,
        indent: usize,
        containers: &HashMap<String, Source>,
        sources: &mut HashMap<(usize, String), Source>,
    ) -> Result<()> {
        for i in info.ordered(level)? {
            let path = format!("{}.nodes[{i}]", info.path);
            self.path = path.clone();
            match info.node(i) {
                dace::Node::AccessNode(node) => {
                    let Some(container) = containers.get(&node.attributes.data) else {
                        return error(
                            &format!("{path}.attributes.data"),
                            format!(
                                "access to undeclared container \"{}\"",
                                node.attributes.data
                            ),
                        );
                    };
                    let mut writes = Vec::new();
                    let mut bind = String::new();
                    // The in-edge DaCe takes as the viewed data binds the
                    // view; a view that writes back into the data it views
                    // is a write of that downstream node.
                    let viewed = container
                        .ty
                        .starts_with("!sdfg.view<")
                        .then(|| info.view_edge(i, &node.attributes.data))
                        .flatten()
                        .filter(|&k| info.dst(k) == i);
                    for &k in &info.in_edges[i] {
                        let edge = info.edge(k);
                        let src_is_access =
                            matches!(info.node(info.src(k)), dace::Node::AccessNode(_));
                        let names_destination = src_is_access
                            && edge.attributes.data.attributes.data.as_deref()
                                == Some(node.attributes.data.as_str());
                        let source_shape = match info.node(info.src(k)) {
                            dace::Node::AccessNode(src) if names_destination => Some(
                                self.shapes
                                    .get(&src.attributes.data)
                                    .cloned()
                                    .unwrap_or_default(),
                            ),
                            // Through scopes: the path starts at another
                            // access node than the memlet names.
                            _ => self.far_end_source(info, k),
                        };
                        let Some(operand) = self.operand(
                            info,
                            k,
                            sources,
                            source_shape.as_deref().map(|source_shape| Flip {
                                source_shape,
                                keep_other: true,
                            }),
                        )?
                        else {
                            continue;
                        };
                        match edge.dst_connector.as_deref() {
                            Some("views") | Some("set") => bind = format!(" bind({operand})"),
                            _ if viewed == Some(k) => bind = format!(" bind({operand})"),
                            _ => writes.push(operand),
                        }
                    }
                    let after = self.after(info, i, sources)?;
                    let value = self.fresh();
                    let writes = clause("writes", &writes);
                    self.line(
                        indent,
                        &format!(
                            "{value} = sdfg.access {}{writes}{bind}{after} : {}",
                            container.value, container.ty
                        ),
                    );
                    for &k in &info.out_edges[i] {
                        let conn = info.edge(k).src_connector.clone().unwrap_or_default();
                        sources.insert(
                            (i, conn),
                            Source {
                                value: value.clone(),
                                ty: container.ty.clone(),
                            },
                        );
                    }
                    sources.insert(
                        (i, String::new()),
                        Source {
                            value,
                            ty: container.ty.clone(),
                        },
                    );
                }
                dace::Node::Tasklet(node) => {
                    let attrs = &node.attributes;
                    let ins = self.named_inputs(info, i, sources, |_| true)?;
                    let mut outs = Vec::new();
                    let mut results = Vec::new();
                    for (conn, dtype) in &attrs.out_connectors {
                        let ty = Self::output_type(info, i, conn, dtype.as_ref(), containers, true)
                            .or_else(|e| {
                                self.inferred_output_type(info, i, sources, conn).ok_or(e)
                            })?;
                        outs.push(format!("{} : {ty}", lit(conn)));
                        results.push((conn.clone(), ty));
                    }
                    let after = self.after(info, i, sources)?;
                    let language = match attrs.code.language.as_str() {
                        "CPP" => "cpp",
                        "Python" => "python",
                        other => {
                            return error(
                                &format!("{path}.attributes.code"),
                                format!("unsupported tasklet language '{other}'"),
                            )
                        }
                    };
                    // C++ made of plain assignments is translated as the
                    // Python it reads as.
                    let python = match language {
                        "python" => Ok(attrs.code.string_data.clone()),
                        _ => sdfg_tasklet::cpp_as_python(&attrs.code.string_data),
                    };
                    let body = python.and_then(|code| {
                        self.python_body(info, i, sources, containers, &results, &code)
                    });
                    if let Ok(body) = &body {
                        let typed = results.iter_mut().zip(&body.by_ref);
                        for (out, ((conn, ty), by_ref)) in outs.iter_mut().zip(typed) {
                            *ty = sdfg_tasklet::signless(ty);
                            let by_ref = if *by_ref { " by_ref" } else { "" };
                            *out = format!("{} : {ty}{by_ref}", lit(conn));
                        }
                    }
                    let value = self.fresh();
                    let lhs = results_lhs(&value, results.len());
                    let ins = clause("ins", &ins);
                    let outs_text = clause("outs", &outs);
                    let side_effects = if attrs.side_effects == Some(true) {
                        " side_effects"
                    } else {
                        ""
                    };
                    let head = format!(
                        "{lhs}sdfg.tasklet {}{ins}{outs_text}{after}{side_effects}",
                        lit(&node.label)
                    );
                    match body {
                        Ok(body) => {
                            self.line(indent, &format!("{head} {{"));
                            for line in body.body.lines() {
                                match line.strip_prefix("  ") {
                                    Some(line) => self.line(indent + 1, line),
                                    None => self.line(indent, line),
                                }
                            }
                            self.line(indent, "}");
                        }
                        Err(reason) => self.line(
                            indent,
                            &format!(
                                "{head} code {language} {}{}",
                                lit(&attrs.code.string_data),
                                tasklet_state_attributes(attrs, &reason)
                            ),
                        ),
                    }
                    register_results(sources, i, &value, results);
                }
                dace::Node::MapEntry(_) | dace::Node::ConsumeEntry(_) => {
                    self.scope(info, i, indent, containers, sources)?
                }
                dace::Node::NestedSdfg(node) => {
                    let attrs = &node.attributes;
                    let ins = self.named_inputs(info, i, sources, |_| true)?;
                    let mut outs = Vec::new();
                    let mut results = Vec::new();
                    for conn in attrs.out_connectors.keys() {
                        let ty = Self::output_type(info, i, conn, None, containers, false)?;
                        outs.push(format!("{} : {ty}", lit(conn)));
                        results.push((conn.clone(), ty));
                    }
                    let after = self.after(info, i, sources)?;
                    let value = self.fresh();
                    let lhs = results_lhs(&value, results.len());
                    let mapping: Vec<String> = attrs
                        .symbol_mapping
                        .iter()
                        .map(|(k, v)| format!("{} = {}", lit(k), lit(&canonical(&v.0))))
                        .collect();
                    let ins = clause("ins", &ins);
                    let outs_text = clause("outs", &outs);
                    let symbols = clause("symbols", &mapping);
                    let schedule = schedule_text(&attrs.schedule);
                    self.line(
                        indent,
                        &format!(
                            "{lhs}sdfg.nested {}{ins}{outs_text}{symbols}{schedule}{after} {{",
                            lit(&node.label)
                        ),
                    );
                    self.sdfg(&attrs.sdfg, &format!("{path}.attributes.sdfg"), indent + 1)?;
                    self.line(indent, "}");
                    register_results(sources, i, &value, results);
                }
                dace::Node::LibraryNode(node) => {
                    let attrs = &node.attributes;
                    // Library nodes may take and give data without
                    // connectors (DaCe's `add_nedge`): those edges use the
                    // empty connector name.
                    let ins = self.named_inputs_or_unnamed(info, i, sources)?;
                    let mut outs = Vec::new();
                    let mut results = Vec::new();
                    let mut connectors: Vec<String> =
                        attrs.out_connectors.keys().cloned().collect();
                    let unnamed_out = info.out_edges[i].iter().any(|&k| {
                        let edge = info.edge(k);
                        edge.src_connector.is_none()
                            && edge.attributes.data.attributes.data.is_some()
                    });
                    if unnamed_out {
                        connectors.push(String::new());
                    }
                    for conn in &connectors {
                        let ty = Self::output_type(info, i, conn, None, containers, false)?;
                        outs.push(format!("{} : {ty}", lit(conn)));
                        results.push((conn.clone(), ty));
                    }
                    let after = self.after(info, i, sources)?;
                    let value = self.fresh();
                    let lhs = results_lhs(&value, results.len());
                    let props: Vec<String> = attrs
                        .properties
                        .iter()
                        .map(|(k, v)| format!("{} = {}", lit(k), lit(&v.to_string())))
                        .collect();
                    let implementation = attrs
                        .implementation
                        .as_ref()
                        .map(|i| format!(" impl {}", lit(i)))
                        .unwrap_or_default();
                    let ins = clause("ins", &ins);
                    let outs_text = clause("outs", &outs);
                    let schedule = schedule_text(&attrs.schedule);
                    self.line(
                        indent,
                        &format!("{lhs}sdfg.library {} {}{implementation}{schedule}{ins}{outs_text}{after} properties {{{}}}", lit(&node.label), lit(&node.classpath), props.join(", ")),
                    );
                    register_results(sources, i, &value, results);
                }
                dace::Node::MapExit(_) | dace::Node::ConsumeExit(_) | dace::Node::Other(_) => {}
            }
        }
        Ok(())
    }

    /// `"conn" = %v[memlet] : T` for the data edges into node `i` whose
    /// connector `keep` accepts; returns the operands in edge order.
    fn named_inputs(
        &self,
        info: &StateInfo<'_>,
        i: usize,
        sources: &HashMap<(usize, String), Source>,
        keep: impl Fn(&str) -> bool,
    ) -> Result<Vec<String>> {
        let mut ins = Vec::new();
        for &k in &info.in_edges[i] {
            let Some(conn) = info.edge(k).dst_connector.as_deref() else {
                continue;
            };
            if !keep(conn) {
                continue;
            }
            if let Some(operand) = self.operand(info, k, sources, None)? {
                ins.push(format!("{} = {operand}", lit(conn)));
            }
        }
        Ok(ins)
    }

    /// The MLIR body of tasklet `i` whose outputs are `results`, if its
    /// Python `code` translates (see [`sdfg_tasklet::translate_tasklet`]); `None`
    /// keeps the code as it is.
    fn python_body(
        &self,
        info: &StateInfo<'_>,
        i: usize,
        sources: &HashMap<(usize, String), Source>,
        containers: &HashMap<String, Source>,
        results: &[(String, String)],
        code: &str,
    ) -> std::result::Result<Translation, String> {
        let dace::Node::Tasklet(node) = info.node(i) else {
            return Err("not a tasklet".into());
        };
        let attrs = &node.attributes;
        let extra_code = [&attrs.code_global, &attrs.code_init, &attrs.code_exit];
        if extra_code.iter().any(|c| !c.string_data.trim().is_empty()) {
            return Err("the tasklet has global, init or exit code".into());
        }
        let inputs = Self::tasklet_inputs(info, i, sources)
            .ok_or("the type of an input connector is unknown")?;
        let scope_symbols = Self::scope_symbols(info, i);
        let symbol_type = |name: &str| self.symbol_type(&scope_symbols, name);
        let refs = results
            .iter()
            .map(|(conn, _)| Self::output_ref(info, i, conn, containers))
            .collect();
        let signature = Signature {
            inputs,
            outputs: results.to_vec(),
            refs,
            symbol_type: &symbol_type,
        };
        sdfg_tasklet::translate_tasklet(code, &signature)
    }

    /// How output `conn` of tasklet `i` can be written by its body when
    /// its code does not simply yield a value (see `by_ref`): a stream is
    /// pushed to, an array subset or a dynamic memlet's element is stored
    /// into (as the container's element type). `None` for an output whose
    /// memlet writes one element exactly once.
    fn output_ref(
        info: &StateInfo<'_>,
        i: usize,
        conn: &str,
        containers: &HashMap<String, Source>,
    ) -> Option<RefType> {
        let mut edges = info.out_edges[i]
            .iter()
            .map(|&k| info.edge(k))
            .filter(|e| e.src_connector.as_deref() == Some(conn));
        let edge = edges.next()?;
        if edges.next().is_some() {
            return None;
        }
        let memlet = &edge.attributes.data;
        let ty = Self::data_type(containers, memlet)?;
        let element = element_of(&ty);
        if ty.starts_with("!sdfg.stream") {
            return Some(RefType::Stream(element));
        }
        let shape = squeezed_shape(memlet.attributes.subset.as_ref()?)?;
        if shape.is_empty() {
            let dynamic = memlet.attributes.dynamic;
            return dynamic.then_some(RefType::Memref(InputType::Element(element)));
        }
        Some(RefType::Memref(InputType::Array { element, shape }))
    }

    /// The type of untyped output connector `conn` of Python tasklet `i`
    /// that no container tells, inferred from its code as DaCe's type
    /// inference does (`b = a` has the type of `a`).
    fn inferred_output_type(
        &self,
        info: &StateInfo<'_>,
        i: usize,
        sources: &HashMap<(usize, String), Source>,
        conn: &str,
    ) -> Option<String> {
        let dace::Node::Tasklet(node) = info.node(i) else {
            return None;
        };
        let inputs = Self::tasklet_inputs(info, i, sources)?;
        // Types the translation does not compute in (vectors, say): the
        // inputs' common element type, as `b = a * 2` has.
        let mut elements = inputs.iter().map(|(_, ty)| match ty {
            InputType::Element(t)
            | InputType::Array { element: t, .. }
            | InputType::Strided { element: t, .. } => Some(t.clone()),
            InputType::Opaque => None,
        });
        let first = elements.next().flatten();
        let common = first.filter(|f| elements.all(|t| t.as_ref() == Some(f)));
        let scope_symbols = Self::scope_symbols(info, i);
        let symbol_type = |name: &str| self.symbol_type(&scope_symbols, name);
        let signature = Signature {
            inputs,
            outputs: Vec::new(),
            refs: Vec::new(),
            symbol_type: &symbol_type,
        };
        sdfg_tasklet::infer_type(&node.attributes.code.string_data, &signature, conn)
            .map(|ty| ty.mlir())
            .or(common)
    }

    /// The type Python tasklet code reads symbol `name` as: `i64` for the
    /// scope's parameters, else the SDFG's symbol's.
    fn symbol_type(&self, scope_symbols: &HashSet<String>, name: &str) -> Option<sdfg_tasklet::Ty> {
        if scope_symbols.contains(name) {
            return Some(sdfg_tasklet::Ty::Int(64));
        }
        self.symbol_types.get(name).copied()
    }

    /// The map parameters, consume PE indices and chunk sizes
    /// (`__dace_<label>_numelems`) visible at node `i`.
    fn scope_symbols(info: &StateInfo<'_>, i: usize) -> HashSet<String> {
        let mut scope_symbols = HashSet::new();
        let mut scope = info.scope[i];
        while let Some(entry) = scope {
            match info.node(entry) {
                dace::Node::MapEntry(map) => {
                    scope_symbols.extend(map.attributes.params.iter().cloned())
                }
                dace::Node::ConsumeEntry(consume) => {
                    let attrs = &consume.attributes;
                    scope_symbols.insert(attrs.pe_index.clone());
                    if attrs.chunksize != 1 {
                        let label = if attrs.label.is_empty() {
                            &consume.label
                        } else {
                            &attrs.label
                        };
                        scope_symbols.insert(sdfg_dialect::chunk_count_symbol(label));
                    }
                }
                _ => {}
            }
            scope = info.scope[entry];
        }
        scope_symbols
    }

    /// The input connectors of tasklet `i` as its body sees them, in the
    /// order of its `ins`.
    fn tasklet_inputs(
        info: &StateInfo<'_>,
        i: usize,
        sources: &HashMap<(usize, String), Source>,
    ) -> Option<Vec<(String, InputType)>> {
        let dace::Node::Tasklet(node) = info.node(i) else {
            return None;
        };
        let attrs = &node.attributes;
        let mut inputs = Vec::new();
        for &k in &info.in_edges[i] {
            let edge = info.edge(k);
            let Some(conn) = edge.dst_connector.as_deref() else {
                continue;
            };
            let memlet = &edge.attributes.data.attributes;
            if info.is_value_edge(k) {
                let source = Self::edge_source(info, k, sources)?;
                inputs.push((conn.to_string(), InputType::Element(source.ty)));
                continue;
            }
            let (Some(_), Some(subset)) = (&memlet.data, &memlet.subset) else {
                continue;
            };
            let source = Self::edge_source(info, k, sources)?;
            let declared = attrs.in_connectors.get(conn).and_then(Option::as_ref);
            let pointer = declared.is_some_and(|d| !matches!(d, dace::DType::Basic(_)));
            let ty = if let Some(vector) =
                declared.and_then(|d| vector_connector(d, &source.ty, subset))
            {
                InputType::Element(vector)
            } else if pointer || source.ty.starts_with("!sdfg.stream") {
                InputType::Opaque
            } else {
                let element = element_of(&source.ty);
                let shape = squeezed_shape(subset)?;
                if shape.is_empty() {
                    InputType::Element(element)
                } else {
                    InputType::Array { element, shape }
                }
            };
            inputs.push((conn.to_string(), ty));
        }
        Some(inputs)
    }

    /// Like [`Self::named_inputs`], with connector-less data edges named by
    /// the empty string.
    fn named_inputs_or_unnamed(
        &self,
        info: &StateInfo<'_>,
        i: usize,
        sources: &HashMap<(usize, String), Source>,
    ) -> Result<Vec<String>> {
        let mut ins = Vec::new();
        for &k in &info.in_edges[i] {
            let conn = info.edge(k).dst_connector.clone().unwrap_or_default();
            if let Some(operand) = self.operand(info, k, sources, None)? {
                ins.push(format!("{} = {operand}", lit(&conn)));
            }
        }
        Ok(ins)
    }

    /// Prints a map or consume scope and its contents.
    fn scope(
        &mut self,
        info: &StateInfo<'_>,
        entry: usize,
        indent: usize,
        containers: &HashMap<String, Source>,
        sources: &mut HashMap<(usize, String), Source>,
    ) -> Result<()> {
        let path = format!("{}.nodes[{entry}]", info.path);
        self.path = path.clone();
        let exit = info.exit_of[&entry];
        let mut ins = Vec::new();
        let mut dyns = Vec::new();
        let mut stream = None;
        for &k in &info.in_edges[entry] {
            let Some(conn) = info.edge(k).dst_connector.clone() else {
                continue;
            };
            // A scope input whose memlet names the container at the far end
            // of its path is re-expressed for the access node it reads.
            let source_shape = self.far_end_source(info, k);
            let flip = source_shape.as_deref().map(|source_shape| Flip {
                source_shape,
                keep_other: false,
            });
            let Some(operand) = self.operand(info, k, sources, flip)? else {
                continue;
            };
            let ty = Self::edge_source(info, k, sources)
                .map(|s| s.ty)
                .unwrap_or_default();
            if conn == "IN_stream" && matches!(info.node(entry), dace::Node::ConsumeEntry(_)) {
                stream = Some((operand, ty));
            } else if let Some(name) = conn.strip_prefix("IN_") {
                ins.push((name.to_string(), operand, ty));
            } else {
                dyns.push((conn.clone(), operand, ty));
            }
        }
        let mut outs = Vec::new();
        let mut out_names = Vec::new();
        if let dace::Node::MapExit(n) | dace::Node::ConsumeExit(n) = info.node(exit) {
            for conn in n.attributes.out_connectors.keys() {
                let name = conn.strip_prefix("OUT_").unwrap_or(conn).to_string();
                let ty = Self::output_type(info, exit, conn, None, containers, false)?;
                outs.push(format!("{} : {ty}", lit(&name)));
                out_names.push((conn.clone(), name, ty));
            }
        }
        let after = self.after(info, entry, sources)?;
        let value = self.fresh();
        let lhs = results_lhs(&value, out_names.len());
        let named = |items: &[(String, String, String)]| -> Vec<String> {
            items
                .iter()
                .map(|(n, o, _)| format!("{} = {o}", lit(n)))
                .collect()
        };
        let ins_text = clause("ins", &named(&ins));
        let dyn_text = clause("dyn", &named(&dyns));
        let outs_text = clause("outs", &outs);
        let mut block_args = Vec::new();
        let mut inner_sources: Vec<(String, Source)> = Vec::new();
        let header = match info.node(entry) {
            dace::Node::MapEntry(node) => {
                let attrs = &node.attributes;
                let ranges: Vec<String> = info
                    .map_params
                    .get(&entry)
                    .map(Vec::as_slice)
                    .unwrap_or_default()
                    .iter()
                    .map(|(param, range)| format!("{} = {}", lit(param), lit(&range.to_string())))
                    .collect();
                if attrs.params.len() != attrs.range.ranges.len() {
                    return error(
                        &format!("{path}.attributes.range"),
                        "map has a different number of parameters and ranges",
                    );
                }
                let mut extra = schedule_text(&attrs.schedule);
                if attrs.unroll {
                    extra.push_str(" unroll");
                }
                if attrs.unroll_factor != 0 {
                    let _ = write!(extra, " unroll_factor {}", attrs.unroll_factor);
                }
                if attrs.collapse > 1 {
                    let _ = write!(extra, " collapse {}", attrs.collapse);
                }
                if let Some(sizes) = &attrs.gpu_block_size {
                    let sizes: Vec<String> = sizes.iter().map(|s| s.to_string()).collect();
                    let _ = write!(extra, " gpu_block_size {}", string_list(&sizes));
                }
                if attrs.omp_num_threads != 0 {
                    let _ = write!(extra, " omp_num_threads {}", attrs.omp_num_threads);
                }
                let label = if attrs.label.is_empty() {
                    &node.label
                } else {
                    &attrs.label
                };
                format!(
                    "sdfg.map {} [{}]{extra}{ins_text}{dyn_text}{outs_text}{after} {{",
                    lit(label),
                    ranges.join(", ")
                )
            }
            dace::Node::ConsumeEntry(node) => {
                let attrs = &node.attributes;
                let Some((stream_operand, stream_ty)) = stream else {
                    return error(&path, "consume scope without an IN_stream edge");
                };
                let element = element_of(&stream_ty);
                let taken = if attrs.chunksize == 1 {
                    element
                } else {
                    format!("!sdfg.array<{element} [\"{}\"]>", attrs.chunksize)
                };
                let popped = self.fresh();
                block_args.push(format!("{popped}: {taken}"));
                inner_sources.push((
                    "OUT_stream".into(),
                    Source {
                        value: popped,
                        ty: taken,
                    },
                ));
                let mut extra = format!(
                    " pe {} pes {}",
                    lit(&attrs.pe_index),
                    lit(&canonical(&attrs.num_pes.0))
                );
                if let Some(condition) = &attrs.condition {
                    if !condition.string_data.trim().is_empty() {
                        let _ = write!(extra, " quiescence {}", lit(condition.string_data.trim()));
                    }
                }
                if attrs.chunksize != 1 {
                    let _ = write!(extra, " chunksize {}", lit(&attrs.chunksize.to_string()));
                }
                extra.push_str(&schedule_text(&attrs.schedule));
                let label = if attrs.label.is_empty() {
                    &node.label
                } else {
                    &attrs.label
                };
                format!(
                    "sdfg.consume {} ({stream_operand}){extra}{ins_text}{outs_text}{after} {{",
                    lit(label)
                )
            }
            _ => return error(&path, "not a scope entry"),
        };
        for (n, (name, _, ty)) in ins.iter().chain(dyns.iter()).enumerate() {
            let value = self.fresh();
            block_args.push(format!("{value}: {ty}"));
            let conn = if n < ins.len() {
                format!("OUT_{name}")
            } else {
                name.clone()
            };
            inner_sources.push((
                conn,
                Source {
                    value,
                    ty: ty.clone(),
                },
            ));
        }
        self.line(indent, &format!("{lhs}{header}"));
        self.line(indent, &format!("^bb0({}):", block_args.join(", ")));
        for (conn, source) in inner_sources {
            sources.insert((entry, conn), source);
        }
        self.dataflow(info, Some(entry), indent + 1, containers, sources)?;
        let mut exits = Vec::new();
        for &k in &info.in_edges[exit] {
            let Some(conn) = info.edge(k).dst_connector.as_deref() else {
                continue;
            };
            let name = conn.strip_prefix("IN_").unwrap_or(conn);
            if let Some(operand) = self.operand(info, k, sources, None)? {
                exits.push(format!("{} = {operand}", lit(name)));
            }
        }
        self.line(indent + 1, &format!("sdfg.exit({})", exits.join(", ")));
        self.line(indent, "}");
        let count = out_names.len();
        for (r, (conn, _, ty)) in out_names.into_iter().enumerate() {
            sources.insert(
                (exit, conn),
                Source {
                    value: result_ref(&value, count, r),
                    ty,
                },
            );
        }
        Ok(())
    }
}

fn schedule_text(schedule: &dace::ScheduleType) -> String {
    match schedule.as_str() {
        "Default" => String::new(),
        other => format!(" schedule {other}"),
    }
}

/// The element type of a container type printed by [`container_type`]:
/// the text after `!sdfg.<kind><` up to the first space or `>` outside
/// nested angle brackets (element types such as `complex<f32>` or
/// `vector<2xf32>` nest).
fn element_of(container: &str) -> String {
    let inner = container
        .split_once('<')
        .map(|(_, rest)| rest)
        .unwrap_or(container);
    let mut depth = 0usize;
    for (at, c) in inner.char_indices() {
        match c {
            '<' => depth += 1,
            '>' if depth > 0 => depth -= 1,
            ' ' | '>' if depth == 0 => return inner[..at].to_string(),
            _ => {}
        }
    }
    inner.to_string()
}

fn block_label(block: &dace::ControlFlowBlock) -> String {
    let label = match block {
        dace::ControlFlowBlock::State(s) => &s.label,
        dace::ControlFlowBlock::Region(r) => &r.label,
        dace::ControlFlowBlock::Loop(r) => &r.label,
        dace::ControlFlowBlock::FunctionCall(r) => &r.label,
        dace::ControlFlowBlock::Named(r) => &r.label,
        dace::ControlFlowBlock::Conditional(c) => &c.label,
        dace::ControlFlowBlock::Break(b)
        | dace::ControlFlowBlock::Continue(b)
        | dace::ControlFlowBlock::Return(b) => &b.label,
        dace::ControlFlowBlock::Other(_) => "block",
    };
    if label.is_empty() {
        "block".to_string()
    } else {
        label.to_string()
    }
}

fn block_id(block: &dace::ControlFlowBlock) -> Option<usize> {
    match block {
        dace::ControlFlowBlock::State(s) => s.id,
        dace::ControlFlowBlock::Region(r) => r.id,
        dace::ControlFlowBlock::Loop(r) => r.id,
        dace::ControlFlowBlock::FunctionCall(r) => r.id,
        dace::ControlFlowBlock::Named(r) => r.id,
        dace::ControlFlowBlock::Conditional(c) => c.id,
        dace::ControlFlowBlock::Break(b)
        | dace::ControlFlowBlock::Continue(b)
        | dace::ControlFlowBlock::Return(b) => b.id,
        dace::ControlFlowBlock::Other(_) => None,
    }
}

/// Prints a loaded DaCe SDFG as the dialect's textual form.
pub fn sdfg_to_mlir_text(sdfg: &dace::Sdfg) -> Result<Printed> {
    let mut printer = Printer {
        out: String::new(),
        next_value: 0,
        shapes: HashMap::new(),
        symbol_types: HashMap::new(),
        non_null: HashSet::new(),
        path: String::new(),
        line_paths: Vec::new(),
    };
    printer.sdfg(sdfg, "", 0)?;
    Ok(Printed {
        text: printer.out,
        line_paths: printer.line_paths,
    })
}

/// The dialect's text for an SDFG, with the JSON path each line comes from.
pub struct Printed {
    /// The text of the `sdfg.sdfg` op.
    pub text: String,
    /// Per line of `text`, the JSON path of the object it prints.
    pub line_paths: Vec<String>,
}

/// Loads a `.sdfg`/`.sdfgz` file and prints it as the dialect's textual
/// form.
pub fn import_bytes(bytes: &[u8]) -> Result<String> {
    import_bytes_with_paths(bytes).map(|printed| printed.text)
}

/// Like [`import_bytes`], with the JSON path of every printed line.
pub fn import_bytes_with_paths(bytes: &[u8]) -> Result<Printed> {
    let sdfg = dace::load_sdfg(bytes).map_err(|e| ImportError {
        path: e.path().unwrap_or_default().to_string(),
        message: e.to_string(),
    })?;
    sdfg_to_mlir_text(&sdfg)
}

fn emit_error(location: mlir_sys::MlirLocation, message: &str) {
    // SAFETY: the location is valid; the callee copies the message.
    unsafe { sdfg_dialect::ffi::sdfgEmitError(location, sdfg_dialect::ir::string_ref(message)) }
}

fn translate(context: mlir_sys::MlirContext, file: &str, bytes: &[u8]) -> mlir_sys::MlirOperation {
    let null = mlir_sys::MlirOperation {
        ptr: std::ptr::null_mut(),
    };
    // SAFETY: the context is the live context of the translation driver.
    let location = unsafe {
        mlir_sys::mlirLocationFileLineColGet(context, sdfg_dialect::ir::string_ref(file), 0, 0)
    };
    let (text, line_paths) = match import_bytes_with_paths(bytes) {
        Ok(printed) => (
            format!("module {{\n{}}}\n", printed.text),
            printed.line_paths,
        ),
        Err(e) => {
            emit_error(location, &format!("cannot import the DaCe SDFG: {e}"));
            return null;
        }
    };
    // MLIR's lexer reads up to a NUL terminator, which a Rust string lacks.
    let Ok(text) = std::ffi::CString::new(text) else {
        emit_error(
            location,
            "cannot import the DaCe SDFG: the file contains NUL characters",
        );
        return null;
    };
    let source = mlir_sys::MlirStringRef {
        data: text.as_ptr(),
        length: text.as_bytes().len(),
    };
    // SAFETY: parsing reports its own diagnostics; a null module means
    // failure, and ownership of a parsed module passes to the driver.
    let (module, errors) = unsafe { parse_collecting_errors(context, source) };
    if module.ptr.is_null() {
        // The dialect's diagnostics point into the printed text: report
        // them at the JSON path of the object that line prints.
        for (line, message) in &errors {
            let at = line
                .and_then(|l| l.checked_sub(2))
                .and_then(|l| line_paths.get(l))
                .map(|p| p.trim_start_matches('.'))
                .filter(|p| !p.is_empty())
                .unwrap_or("the SDFG");
            emit_error(
                location,
                &format!("cannot import the DaCe SDFG: {at}: {message}"),
            );
        }
        if errors.is_empty() {
            emit_error(
                location,
                "cannot import the DaCe SDFG: the dialect rejects it",
            );
        }
        return null;
    }
    // SAFETY: the module was just parsed; the driver takes ownership.
    unsafe { mlir_sys::mlirModuleGetOperation(module) }
}

/// Parses `source` as a module; returns it (null on failure) and the
/// errors reported meanwhile, each with the line of the printed text it
/// points at (notes are dropped: they repeat the failing op).
///
/// # Safety
/// `context` must be live and `source` valid for the call.
unsafe fn parse_collecting_errors(
    context: mlir_sys::MlirContext,
    source: mlir_sys::MlirStringRef,
) -> (mlir_sys::MlirModule, Vec<(Option<usize>, String)>) {
    unsafe extern "C" fn collect(
        diagnostic: mlir_sys::MlirDiagnostic,
        data: *mut std::ffi::c_void,
    ) -> mlir_sys::MlirLogicalResult {
        let errors = &mut *(data as *mut Vec<(Option<usize>, String)>);
        if mlir_sys::mlirDiagnosticGetSeverity(diagnostic)
            == mlir_sys::MlirDiagnosticSeverity_MlirDiagnosticError
        {
            let message = sdfg_dialect::ir::print_with(|cb, d| {
                mlir_sys::mlirDiagnosticPrint(diagnostic, cb, d)
            });
            let location = sdfg_dialect::ir::print_with(|cb, d| {
                mlir_sys::mlirLocationPrint(mlir_sys::mlirDiagnosticGetLocation(diagnostic), cb, d)
            });
            // `loc("-":24:3)`: the line of the printed text.
            let line = location
                .split(':')
                .nth(1)
                .and_then(|l| l.trim().parse::<usize>().ok());
            errors.push((line, message));
        }
        mlir_sys::MlirLogicalResult { value: 1 }
    }
    let mut errors: Vec<(Option<usize>, String)> = Vec::new();
    let id = mlir_sys::mlirContextAttachDiagnosticHandler(
        context,
        Some(collect),
        &mut errors as *mut Vec<(Option<usize>, String)> as *mut _,
        None,
    );
    let module = mlir_sys::mlirModuleCreateParse(context, source);
    mlir_sys::mlirContextDetachDiagnosticHandler(context, id);
    (module, errors)
}

/// The registration of `--import-dace`.
pub static TRANSLATION: sdfg_dialect::driver::TranslationToMlir =
    sdfg_dialect::driver::TranslationToMlir {
        name: "import-dace",
        summary: "Import a DaCe .sdfg or .sdfgz file into the sdfg dialect",
        translate,
    };

/// The vector type a tasklet connector declared as the DaCe vector `dtype`
/// reads from `container` through `subset`: one element of a container of
/// that vector type, or as many elements as it has lanes of a container of
/// its lanes (DaCe casts the pointer). `None` for anything else.
fn vector_connector(dtype: &dace::DType, container: &str, subset: &dace::Subset) -> Option<String> {
    let dace::DType::Vector(_) = dtype else {
        return None;
    };
    let vector = element_type("", dtype).ok()?;
    let (lanes, lane) = vector
        .strip_prefix("vector<")?
        .strip_suffix('>')?
        .split_once('x')?;
    let element = element_of(container);
    let volume = subset_text("", subset).ok()?.volume().as_int()?;
    let fits = (element == vector && volume == 1)
        || (element == lane && lanes.parse::<i64>().ok() == Some(volume));
    fits.then_some(vector)
}

/// The shape of the memref a tasklet sees through a memlet subset, as
/// DaCe's code generator indexes it ([`Subset::data_dims`]: the
/// dimensions whose size is not 1, then the tile dimensions; `None` for a
/// size that is not a constant).
fn squeezed_shape(subset: &dace::Subset) -> Option<Vec<Option<u64>>> {
    let subset = subset_text("", subset).ok()?;
    Some(
        subset
            .data_dims()
            .iter()
            .map(|d| d.size.as_int().and_then(|n| u64::try_from(n).ok()))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// DaCe's start block is the one block without in-edges when there is
    /// exactly one, whatever `start_block` says: the file records block 0
    /// (`end`), which `begin` leads to, as DaCe's simplification leaves it.
    #[test]
    fn a_region_starts_at_its_only_source_block() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../test/Target/DaCe/Inputs/stale-start-block.sdfg"
        );
        let bytes = std::fs::read(path).expect("the test input exists");
        let text = import_bytes(&bytes).expect("the file imports");
        let (begin, end) = (
            text.find(r#"sdfg.state @"begin""#),
            text.find(r#"sdfg.state @"end""#),
        );
        assert!(
            begin.is_some() && begin < end,
            "begin is printed first:\n{text}"
        );
    }
}
