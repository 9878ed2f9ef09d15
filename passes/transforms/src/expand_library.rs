//! `sdfg-expand-library-nodes`: replaces every library node with a nested
//! SDFG of maps and tasklets that computes it, as DaCe's `pure`
//! implementations do (`SDFG.expand_library_nodes()`).
//!
//! The conversion to `scf` lowers library nodes that are left in place
//! directly to loop nests (`sdfg-conversion`'s `sdfg_to_scf/library.rs`,
//! the faster default); expanding them first exposes their maps to the
//! data-centric transformations and to the export, and gives the same
//! results (the execution tests compare both).
//!
//! | node | expansion |
//! | --- | --- |
//! | `MatMul` 2-D/3-D, `Gemm` | state `init`: `C = beta * Cin` (or 0) in a parallel map; state `accumulate`: map over (batch,) rows, in it sequential maps over `k` then `j` adding `alpha * A[i, k] * B[k, j]` into `C[i, j]`; on the GPU, a parallel map over the elements of `C`, each accumulating over `k` from the value `init` left |
//! | `MatMul` with a vector, `Gemv`, `Dot` | per output element (parallel map): an accumulator set to 0, a sequential map over `k` adding `A[i, k] * x[k]` into it, then `alpha * acc (+ beta * y)` stored |
//! | `Reduce` | per kept element: an accumulator set to the identity (or the output's value when there is none), a sequential map over the reduced axes combining the input into it with the node's `wcr`, then stored |
//! | on the GPU, one output element (`Reduce` over all axes, `Dot`, a vector `MatMul`) | a parallel map of partial reductions added into the output with the `wcr` ([`Gen::parallel_reduction`]) |
//! | `Transpose`, `Axpy`, `Ger` | one parallel map of one tasklet |
//!
//! The nested SDFG's arguments are the node's connectors (a `Reduce`'s
//! unnamed ones become `_in` and `_out`), typed as the subsets of the data
//! they connect to, with that data's strides, and its symbols are the free
//! symbols of those shapes and strides, mapped to themselves. DaCe's
//! `Cholesky`, `Solve` and `Inv` stay: DaCe has no pure expansion of them,
//! and the lowering calls LAPACK for them. Nodes of other classes, tiled
//! subsets and complex or vector elements are diagnostics.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

use mlir_sys::*;
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::{string_ref, type_to_string, Op, Val};
use sdfg_dialect::layout::{layout, Layout};
use sdfg_dialect::library::{calls_lapack, logical_dims, Properties, Scalar};
use sdfg_dialect::{declared_symbols, incoming_edges, EdgeRole, Schedule};
use sdfg_symbolic::{parse_subset, Expr, Subset};
use sdfg_tasklet::{float_text, Ty};

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-expand-library-nodes",
    summary: "Replace library nodes (MatMul, Gemm, Gemv, Dot, Reduce, Transpose, Axpy, Ger) with nested SDFGs of maps and tasklets (DaCe's pure expansions)",
    op_name: "builtin.module",
    create: || Box::new(ExpandLibraryNodes),
};

/// The pass (no options).
#[derive(Clone, Copy)]
pub struct ExpandLibraryNodes;

impl RustPass for ExpandLibraryNodes {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        if options.trim().is_empty() {
            Ok(())
        } else {
            Err(format!(
                "sdfg-expand-library-nodes: unknown option `{options}` (the pass has none)"
            ))
        }
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        let nodes: Vec<Op> = module
            .descendants()
            .into_iter()
            .filter(|o| {
                o.is("sdfg.library") && !calls_lapack(o.str_attr("class_path").unwrap_or_default())
            })
            .collect();
        for (k, node) in nodes.into_iter().enumerate() {
            let text = match expansion(node, k) {
                Ok(text) => text,
                Err(message) => {
                    node.emit_error(message);
                    return Err(Diagnosed);
                }
            };
            // SAFETY: `node` is live and replaced (then destroyed) once.
            if let Err(message) = unsafe { replace(node, &text) } {
                node.emit_error(message);
                return Err(Diagnosed);
            }
        }
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(*self)
    }
}

/// What a connector of the node reaches: its data's layout and subset.
struct Reach {
    conn: String,
    layout: Layout,
    subset: Subset,
}

/// A connector as an argument of the nested SDFG.
#[derive(Clone)]
struct Port {
    /// The argument (and connector) name.
    conn: String,
    /// The element type.
    elem: String,
    /// The argument's type.
    ty: String,
    /// Logical sizes (empty for a scalar).
    sizes: Vec<Expr>,
    /// Logical strides.
    strides: Vec<Expr>,
}

impl Port {
    fn rank(&self) -> usize {
        self.sizes.len()
    }

    /// The whole argument as a subset.
    fn full(&self) -> String {
        if self.sizes.is_empty() {
            return "0".into();
        }
        self.sizes
            .iter()
            .map(|s| format!("0:{s}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The element at `index` as a subset.
    fn at(&self, index: &[Expr]) -> String {
        if index.is_empty() {
            return "0".into();
        }
        index
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The node's connectors and properties.
struct Node<'a> {
    op: Op<'a>,
    inputs: Vec<Reach>,
    outputs: Vec<Reach>,
    props: Properties,
}

impl Node<'_> {
    fn find(&self, conn: &str) -> Result<&Reach, String> {
        self.inputs
            .iter()
            .chain(&self.outputs)
            .find(|r| r.conn == conn)
            .ok_or_else(|| format!("has no connector `{conn}`"))
    }

    fn has(&self, conn: &str) -> bool {
        self.find(conn).is_ok()
    }

    /// Connector `conn` seen as an array of `rank` logical dimensions
    /// (`None`: its non-unit ones), named `name` in the nested SDFG.
    fn port(&self, conn: &str, name: &str, rank: Option<usize>) -> Result<Port, String> {
        let reach = self.find(conn)?;
        let elem = reach.layout.elem.ty.clone();
        if reach.layout.scalar {
            return Ok(Port {
                conn: name.into(),
                ty: format!("!sdfg.scalar<{elem}>"),
                elem,
                sizes: Vec::new(),
                strides: Vec::new(),
            });
        }
        let ranges = reach.subset.ranges();
        if ranges.iter().any(|r| r.tile.as_int() != Some(1)) {
            return Err(format!(
                "connector `{conn}` has the tiled subset `{}`, which cannot be expanded",
                reach.subset
            ));
        }
        let dims = logical_dims(&reach.subset, rank)
            .map_err(|m| format!("connector `{conn}` (subset `{}`) {m}", reach.subset))?;
        let sizes: Vec<Expr> = dims.iter().map(|d| ranges[*d].count()).collect();
        let strides: Vec<Expr> = dims
            .iter()
            .map(|d| Expr::mul(&reach.layout.strides[*d], &ranges[*d].step))
            .collect();
        let quote = |v: &[Expr]| {
            v.iter()
                .map(|e| format!("\"{e}\""))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let ty = if sizes.is_empty() {
            format!("!sdfg.array<{elem} [\"1\"]>")
        } else {
            format!(
                "!sdfg.array<{elem} [{}] strides [{}]>",
                quote(&sizes),
                quote(&strides)
            )
        };
        Ok(Port {
            conn: name.into(),
            elem,
            ty,
            sizes,
            strides,
        })
    }
}

fn var(name: &str) -> Expr {
    Expr::symbol(name)
}

/// Map ranges `0:n` for parameters `(name, n)`.
fn from_zero(vars: &[(String, Expr)]) -> Vec<(String, String)> {
    vars.iter()
        .map(|(v, n)| (v.clone(), format!("0:{n}")))
        .collect()
}

/// Gathers the node's connectors; `k` numbers the expansion.
fn expansion(op: Op<'_>, k: usize) -> Result<String, String> {
    let mut inputs = Vec::new();
    for edge in incoming_edges(op)
        .into_iter()
        .filter(|e| e.role == EdgeRole::Input)
    {
        let conn = edge.connector.unwrap_or_default().to_string();
        let layout = layout(edge.source.ty()).map_err(|m| format!("input `{conn}`: {m}"))?;
        let subset = edge.memlet.map(|m| m.subset).unwrap_or_default();
        inputs.push(reach(conn, layout, &subset)?);
    }
    let mut outputs = Vec::new();
    for (conn, result) in op.str_array_attr("out_names").into_iter().zip(op.results()) {
        let layout = layout(result.ty()).map_err(|m| format!("output `{conn}`: {m}"))?;
        let subset = output_subset(result).unwrap_or_default();
        outputs.push(reach(conn.to_string(), layout, &subset)?);
    }
    let node = Node {
        op,
        inputs,
        outputs,
        props: Properties::of(op),
    };
    let class = op.str_attr("class_path").unwrap_or_default();
    let kind = sdfg_dialect::library::node_kind(class);
    let mut g = Gen {
        gpu: op
            .attr("schedule")
            .and_then(Schedule::from_attr)
            .is_some_and(|s| s.name().starts_with("GPU_"))
            || node
                .inputs
                .iter()
                .chain(&node.outputs)
                .any(|r| r.layout.storage.name() == "GPU_Global"),
        ..Gen::default()
    };
    match kind {
        "MatMul" => g.matmul(&node)?,
        "Gemm" => g.gemm(&node, "_a", "_b", true)?,
        "Gemv" => g.gemv(&node)?,
        "Dot" => g.dot(&node)?,
        "Reduce" => g.reduce(&node)?,
        "Transpose" => g.transpose(&node)?,
        "Axpy" => g.axpy(&node)?,
        "Ger" => g.ger(&node)?,
        _ => return Err(format!("library node `{class}` has no expansion")),
    }
    // Arguments in connector order: inputs, then outputs.
    let order: Vec<String> = node
        .inputs
        .iter()
        .map(|r| {
            if r.conn.is_empty() {
                "_in".into()
            } else {
                r.conn.clone()
            }
        })
        .chain(node.outputs.iter().map(|r| {
            if r.conn.is_empty() {
                "_out".into()
            } else {
                r.conn.clone()
            }
        }))
        .collect();
    g.args.sort_by_key(|a| {
        order
            .iter()
            .position(|c| *c == a.conn)
            .unwrap_or(order.len())
    });
    let name = format!("{}_expansion_{k}", identifier(op));
    Ok(g.finish(&name))
}

/// The node's label as an identifier (DaCe requires one for a nested
/// SDFG's label).
fn identifier(op: Op<'_>) -> String {
    op.str_attr("label")
        .unwrap_or("library")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

fn reach(conn: String, layout: Layout, subset: &str) -> Result<Reach, String> {
    let subset = if subset.is_empty() {
        Subset::full(&layout.shape)
    } else {
        parse_subset(subset).map_err(|e| format!("connector `{conn}`: subset `{subset}`: {e}"))?
    };
    if layout.stream {
        return Err(format!(
            "connector `{conn}` is connected to a stream, which cannot be expanded"
        ));
    }
    Ok(Reach {
        conn,
        layout,
        subset,
    })
}

/// The subset of the memlet that takes a library node's result to its
/// data.
fn output_subset(result: Val<'_>) -> Option<String> {
    result.uses().into_iter().find_map(|(user, _)| {
        incoming_edges(user)
            .into_iter()
            .find(|e| e.source == result)
            .and_then(|e| e.memlet)
            .map(|m| m.subset)
    })
}

/// The text of a nested SDFG under construction.
#[derive(Default)]
struct Gen {
    /// Whether the node runs on the GPU (scheduled there, or reading or
    /// writing GPU memory).
    gpu: bool,
    args: Vec<Port>,
    allocs: Vec<String>,
    states: Vec<(String, Vec<String>)>,
    next: usize,
    /// Symbols the tasklets read through symbolic scalar properties, with
    /// their types in the enclosing SDFG.
    symbols: BTreeMap<String, String>,
}

/// A tasklet input: the connector's data at this level and the element.
struct In<'p> {
    port: &'p Port,
    data: String,
    index: Vec<Expr>,
}

impl Gen {
    fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%v{}", self.next)
    }

    fn arg(&mut self, port: &Port) {
        if !self.args.iter().any(|a| a.conn == port.conn) {
            self.args.push(port.clone());
        }
    }

    fn state(&mut self, name: &str) {
        self.states.push((name.to_string(), Vec::new()));
    }

    fn line(&mut self, line: String) {
        if let Some((_, lines)) = self.states.last_mut() {
            lines.push(line);
        }
    }

    /// An access node of argument `port` (read).
    fn read_node(&mut self, port: &Port) -> String {
        let v = self.fresh();
        self.line(format!("{v} = sdfg.access %{} : {}", port.conn, port.ty));
        v
    }

    /// Opens a map over `ranges` (parameter, range text); `ins` are the
    /// data passed in (port, value at this level). Returns the map's result
    /// and the values inside.
    fn open_map(
        &mut self,
        label: &str,
        ranges: &[(String, String)],
        sequential: bool,
        ins: &[(&Port, String)],
        out: (&str, &str),
        after: Option<(&str, &str)>,
    ) -> (String, Vec<String>) {
        let result = self.fresh();
        let mut text = format!("{result} = sdfg.map \"{label}\" [");
        let ranges: Vec<String> = ranges
            .iter()
            .map(|(v, r)| format!("\"{v}\" = \"{r}\""))
            .collect();
        text.push_str(&ranges.join(", "));
        text.push(']');
        if sequential {
            text.push_str(" schedule Sequential");
        }
        if !ins.is_empty() {
            let list: Vec<String> = ins
                .iter()
                .map(|(p, v)| format!("\"{}\" = {v}[\"{}\"] : {}", p.conn, p.full(), p.ty))
                .collect();
            let _ = write!(text, " ins({})", list.join(", "));
        }
        let _ = write!(text, " outs(\"{}\" : {})", out.0, out.1);
        if let Some((v, ty)) = after {
            let _ = write!(text, " after({v} : {ty})");
        }
        text.push_str(" {");
        self.line(text);
        let inner: Vec<String> = ins.iter().map(|_| self.fresh()).collect();
        if !ins.is_empty() {
            let list: Vec<String> = inner
                .iter()
                .zip(ins)
                .map(|(v, (p, _))| format!("{v}: {}", p.ty))
                .collect();
            self.line(format!("^bb0({}):", list.join(", ")));
        }
        (result, inner)
    }

    /// Closes a map whose exit writes `value` (of type `ty`) at `subset`.
    fn close_map(&mut self, out: &str, value: &str, subset: &str, wcr: &str, ty: &str) {
        self.line(format!(
            "sdfg.exit (\"{out}\" = {value}[\"{subset}\"{wcr}] : {ty})"
        ));
        self.line("}".into());
    }

    /// A tasklet reading `ins` and computing one `elem` value with
    /// `body(block argument names, lines) -> result`.
    fn tasklet(
        &mut self,
        label: &str,
        ins: &[In<'_>],
        elem: &str,
        body: impl FnOnce(&mut Body, &[String]) -> String,
    ) -> String {
        let result = self.fresh();
        let mut text = format!("{result} = sdfg.tasklet \"{label}\"");
        if !ins.is_empty() {
            let list: Vec<String> = ins
                .iter()
                .enumerate()
                .map(|(k, i)| {
                    format!(
                        "\"in{k}\" = {}[\"{}\"] : {}",
                        i.data,
                        i.port.at(&i.index),
                        i.port.ty
                    )
                })
                .collect();
            let _ = write!(text, " ins({})", list.join(", "));
        }
        let _ = write!(text, " outs(\"out\" : {elem}) {{");
        self.line(text);
        let mut b = Body {
            lines: Vec::new(),
            next: 0,
        };
        let mut args = Vec::new();
        let mut header = Vec::new();
        for (k, i) in ins.iter().enumerate() {
            let a = format!("%in{k}");
            header.push(format!("{a}: {}", i.port.elem));
            args.push(b.cast(&a, &i.port.elem, elem));
        }
        let value = body(&mut b, &args);
        if !header.is_empty() {
            self.line(format!("^bb0({}):", header.join(", ")));
        }
        for l in b.lines {
            self.line(format!("  {l}"));
        }
        self.line(format!("  sdfg.yield {value} : {elem}"));
        self.line("}".into());
        result
    }

    /// Declares the symbols a symbolic scalar property `key` reads, with
    /// their types in the SDFG around `node`, for the tasklets' `sdfg.sym`
    /// ops; a symbol that SDFG does not declare is an error.
    fn scalar_symbols(&mut self, node: &Node<'_>, key: &str, value: &Scalar) -> Result<(), String> {
        let Scalar::Symbolic(text, expr) = value else {
            return Ok(());
        };
        let declared: HashMap<&str, MlirType> = node
            .op
            .ancestor("sdfg.sdfg")
            .map(declared_symbols)
            .unwrap_or_default()
            .into_iter()
            .collect();
        for symbol in expr.free_symbols() {
            let Some(ty) = declared.get(symbol.as_str()) else {
                return Err(format!(
                    "property `{key}` is `{text}`, which reads symbol `{symbol}` that the SDFG does not declare"
                ));
            };
            self.symbols.insert(symbol, type_to_string(*ty));
        }
        Ok(())
    }

    /// The nested SDFG's text.
    fn finish(self, name: &str) -> String {
        let mut symbols: BTreeMap<String, String> = self.symbols.clone();
        for a in &self.args {
            for e in a.sizes.iter().chain(&a.strides) {
                for s in e.free_symbols() {
                    symbols.entry(s).or_insert_with(|| "i64".into());
                }
            }
        }
        let args: Vec<String> = self
            .args
            .iter()
            .map(|a| format!("%{0}: {1} as \"{0}\"", a.conn, a.ty))
            .collect();
        let mut text = format!("sdfg.sdfg @{name}({})", args.join(", "));
        if !symbols.is_empty() {
            let list: Vec<String> = symbols.iter().map(|(s, t)| format!("{s} = {t}")).collect();
            let _ = write!(text, " symbols {{{}}}", list.join(", "));
        }
        text.push_str(" {\n");
        for a in &self.allocs {
            let _ = writeln!(text, "  {a}");
        }
        for (k, (state, lines)) in self.states.iter().enumerate() {
            let _ = writeln!(text, "  sdfg.state @{state} {{");
            for l in lines {
                let _ = writeln!(text, "    {l}");
            }
            text.push_str("  }\n");
            if k > 0 {
                let _ = writeln!(text, "  sdfg.edge @{} -> @{state}", self.states[k - 1].0);
            }
        }
        text.push_str("}\n");
        text
    }

    /// State `state`: one parallel map of one tasklet,
    /// `out[out_index] = f(ins)`.
    fn pointwise(
        &mut self,
        state: &str,
        vars: &[(String, Expr)],
        ins: &[(&Port, Vec<Expr>)],
        out: (&Port, Vec<Expr>),
        f: impl FnOnce(&mut Body, &[String]) -> String,
    ) {
        for (p, _) in ins {
            self.arg(p);
        }
        self.arg(out.0);
        self.state(state);
        let outer: Vec<(&Port, String)> =
            ins.iter().map(|(p, _)| (*p, self.read_node(p))).collect();
        let (result, inner) = self.open_map(
            "expansion",
            &from_zero(vars),
            false,
            &outer,
            (&out.0.conn, &out.0.ty),
            None,
        );
        let tasklet_ins: Vec<In> = ins
            .iter()
            .zip(&inner)
            .map(|((p, index), data)| In {
                port: p,
                data: data.clone(),
                index: index.clone(),
            })
            .collect();
        let elem = out.0.elem.clone();
        let value = self.tasklet("compute", &tasklet_ins, &elem, f);
        self.close_map(&out.0.conn, &value, &out.0.at(&out.1), "", &elem);
        let v = self.fresh();
        self.line(format!(
            "{v} = sdfg.access %{} writes({result}[\"{}\"] : {}) : {}",
            out.0.conn,
            out.0.full(),
            out.0.ty,
            out.0.ty
        ));
    }

    /// Per element of the output (a parallel map over `outer`, none for a
    /// single element): an accumulator set by `init`, a sequential map
    /// over `inner` combining `product(ins)` into it with `wcr`, and
    /// `finish(acc, extra)` (the accumulator itself when `None`) stored at
    /// `out`. A single element on the GPU is a [`Self::parallel_reduction`].
    #[allow(clippy::too_many_arguments)]
    fn contraction(
        &mut self,
        outer: &[(String, Expr)],
        inner: &[(String, Expr)],
        ins: &[(&Port, Vec<Expr>)],
        out: (&Port, Vec<Expr>),
        init: Init<'_>,
        wcr: &str,
        product: TaskletBody<'_>,
        finish: Option<TaskletBody<'_>>,
        extra: &[(&Port, Vec<Expr>)],
    ) {
        if self.gpu && outer.is_empty() && finish.is_none() && extra.is_empty() {
            return self.parallel_reduction(inner, ins, out, init, wcr, product);
        }
        let (out_port, out_index) = out;
        let elem = out_port.elem.clone();
        for (p, _) in ins.iter().chain(extra) {
            self.arg(p);
        }
        self.arg(out_port);
        let acc_ty = format!("!sdfg.scalar<{elem}>");
        self.allocs
            .push(format!("%__acc = sdfg.alloc \"__acc\" : {acc_ty}"));
        self.state("compute");
        let mut outer_ins: Vec<(&Port, String)> =
            ins.iter().map(|(p, _)| (*p, self.read_node(p))).collect();
        let extra_start = outer_ins.len();
        for (p, _) in extra {
            let v = self.read_node(p);
            outer_ins.push((p, v));
        }
        if let Init::Current = init {
            if !outer_ins.iter().any(|(p, _)| p.conn == out_port.conn) {
                let v = self.read_node(out_port);
                outer_ins.push((out_port, v));
            }
        }
        let opened = if outer.is_empty() {
            None
        } else {
            Some(self.open_map(
                "expansion",
                &from_zero(outer),
                false,
                &outer_ins,
                (&out_port.conn, &out_port.ty),
                None,
            ))
        };
        let level: Vec<String> = match &opened {
            Some((_, inner_values)) => inner_values.clone(),
            None => outer_ins.iter().map(|(_, v)| v.clone()).collect(),
        };
        // The accumulator's initial value.
        let init_value = match init {
            Init::Constant(c) => self.tasklet("init", &[], &elem, |b, _| b.constant(c, &elem)),
            Init::Current => {
                let k = outer_ins
                    .iter()
                    .position(|(p, _)| p.conn == out_port.conn)
                    .unwrap_or_default();
                let read = [In {
                    port: out_port,
                    data: level[k].clone(),
                    index: out_index.clone(),
                }];
                self.tasklet("init", &read, &elem, |_, args| args[0].clone())
            }
        };
        let product_at = |inside: &[String]| -> Vec<In> {
            ins.iter()
                .zip(inside)
                .map(|((port, index), data)| In {
                    port,
                    data: data.clone(),
                    index: index.clone(),
                })
                .collect()
        };
        let (acc1, acc_port) = self.accumulate(
            &elem,
            &init_value,
            &from_zero(inner),
            ins,
            &level,
            &product_at,
            wcr,
            product,
        );
        let mut finish_ins = vec![In {
            port: &acc_port,
            data: acc1,
            index: Vec::new(),
        }];
        for (k, (p, index)) in extra.iter().enumerate() {
            finish_ins.push(In {
                port: p,
                data: level[extra_start + k].clone(),
                index: index.clone(),
            });
        }
        let value = self.tasklet("finish", &finish_ins, &elem, |b, args| match finish {
            Some(f) => f(b, args),
            None => args[0].clone(),
        });
        let out_subset = out_port.at(&out_index);
        match opened {
            Some((result, _)) => {
                self.close_map(&out_port.conn, &value, &out_subset, "", &elem);
                let v = self.fresh();
                self.line(format!(
                    "{v} = sdfg.access %{} writes({result}[\"{}\"] : {}) : {}",
                    out_port.conn,
                    out_port.full(),
                    out_port.ty,
                    out_port.ty
                ));
            }
            None => {
                let v = self.fresh();
                self.line(format!(
                    "{v} = sdfg.access %{} writes({value}[\"{out_subset}\"] : {elem}) : {}",
                    out_port.conn, out_port.ty
                ));
            }
        }
    }

    /// Combines `product(reads(values inside))` into the scalar `__acc` of
    /// `elem`, which starts at `start` (a tasklet's result), with `wcr` in a
    /// sequential map over `ranges` that receives `ins` as `level` holds
    /// them; returns the accumulated value's access node and `__acc` as a
    /// port.
    #[allow(clippy::too_many_arguments)]
    fn accumulate<'p>(
        &mut self,
        elem: &str,
        start: &str,
        ranges: &[(String, String)],
        ins: &[(&'p Port, Vec<Expr>)],
        level: &[String],
        reads: &dyn Fn(&[String]) -> Vec<In<'p>>,
        wcr: &str,
        product: TaskletBody<'_>,
    ) -> (String, Port) {
        let acc_ty = format!("!sdfg.scalar<{elem}>");
        let acc0 = self.fresh();
        self.line(format!(
            "{acc0} = sdfg.access %__acc writes({start}[\"0\"] : {elem}) : {acc_ty}"
        ));
        let level_ins: Vec<(&Port, String)> = ins
            .iter()
            .zip(level)
            .map(|((p, _), v)| (*p, v.clone()))
            .collect();
        let (reduced, inside) = self.open_map(
            "reduce",
            ranges,
            true,
            &level_ins,
            ("__acc", &acc_ty),
            Some((&acc0, &acc_ty)),
        );
        let p = self.tasklet("product", &reads(&inside), elem, product);
        self.close_map("__acc", &p, "0", wcr, elem);
        let acc1 = self.fresh();
        self.line(format!(
            "{acc1} = sdfg.access %__acc writes({reduced}[\"0\"{wcr}] : {acc_ty}) : {acc_ty}"
        ));
        let port = Port {
            conn: "__acc".into(),
            elem: elem.to_string(),
            ty: acc_ty,
            sizes: Vec::new(),
            strides: Vec::new(),
        };
        (acc1, port)
    }

    /// A reduction to one element on the GPU, where one accumulator would
    /// run on one thread: a parallel map of [`PARTS`] iterations (fewer
    /// for fewer elements) in which iteration `p` combines elements `p`,
    /// `p + PARTS`, ... of the flattened `inner` space, starting from the
    /// first of them (so no identity is needed), and adds its partial into
    /// the output with `wcr` (atomics, in a kernel). The output starts at
    /// `init` in a state of its own, a map of one iteration (host code
    /// cannot write device memory); with [`Init::Current`] it keeps its
    /// value, as the sequential form's accumulator would start from it.
    fn parallel_reduction(
        &mut self,
        inner: &[(String, Expr)],
        ins: &[(&Port, Vec<Expr>)],
        out: (&Port, Vec<Expr>),
        init: Init<'_>,
        wcr: &str,
        product: TaskletBody<'_>,
    ) {
        let (out_port, out_index) = out;
        let elem = out_port.elem.clone();
        for (p, _) in ins {
            self.arg(p);
        }
        self.arg(out_port);
        let out_subset = out_port.at(&out_index);
        let write_out = |g: &mut Self, from: &str, wcr: &str| {
            let v = g.fresh();
            g.line(format!(
                "{v} = sdfg.access %{} writes({from}[\"{}\"{wcr}] : {}) : {}",
                out_port.conn,
                out_port.full(),
                out_port.ty,
                out_port.ty
            ));
        };
        if let Init::Constant(c) = init {
            self.state("init");
            let (result, _) = self.open_map(
                "init",
                &[("__z".into(), "0:1".into())],
                false,
                &[],
                (&out_port.conn, &out_port.ty),
                None,
            );
            let value = self.tasklet("init", &[], &elem, |b, _| b.constant(c, &elem));
            self.close_map(&out_port.conn, &value, &out_subset, "", &elem);
            write_out(self, &result, "");
        }
        let total = inner
            .iter()
            .fold(Expr::int(1), |n, (_, size)| Expr::mul(&n, size));
        let parts = Expr::min(vec![total.clone(), Expr::int(PARTS)]);
        // The `inner` indices of flat element `flat` (row-major).
        let sizes: Vec<Expr> = inner.iter().map(|(_, size)| size.clone()).collect();
        let element = |flat: &str| -> HashMap<String, Expr> {
            let names = inner.iter().map(|(name, _)| name.clone());
            names.zip(Expr::unravel(&var(flat), &sizes)).collect()
        };
        let reads = |flat: &str, data: &[String]| -> Vec<In> {
            let indices = element(flat);
            ins.iter()
                .zip(data)
                .map(|((port, index), data)| In {
                    port,
                    data: data.clone(),
                    index: index.iter().map(|e| e.substitute(&indices)).collect(),
                })
                .collect()
        };
        let acc_ty = format!("!sdfg.scalar<{elem}>");
        self.allocs
            .push(format!("%__acc = sdfg.alloc \"__acc\" : {acc_ty}"));
        self.state("compute");
        let outer_ins: Vec<(&Port, String)> =
            ins.iter().map(|(p, _)| (*p, self.read_node(p))).collect();
        let (result, level) = self.open_map(
            "partial",
            &[("__p".into(), format!("0:{parts}"))],
            false,
            &outer_ins,
            (&out_port.conn, &out_port.ty),
            None,
        );
        let first = self.tasklet("first", &reads("__p", &level), &elem, product);
        let (acc1, acc_port) = self.accumulate(
            &elem,
            &first,
            &[("__e".into(), format!("__p + {PARTS}:{total}:{PARTS}"))],
            ins,
            &level,
            &|inside| reads("__e", inside),
            wcr,
            product,
        );
        let partial = [In {
            port: &acc_port,
            data: acc1,
            index: Vec::new(),
        }];
        let value = self.tasklet("finish", &partial, &elem, |_, args| args[0].clone());
        self.close_map(&out_port.conn, &value, &out_subset, wcr, &elem);
        write_out(self, &result, wcr);
    }
}

/// The number of partial results of a [`Gen::parallel_reduction`]: 128
/// blocks of 256 threads, each reading every 32768th element (coalesced),
/// and as many atomic updates of the result.
const PARTS: i64 = 32768;

/// How a contraction's accumulator starts.
enum Init<'s> {
    /// At a constant (the identity).
    Constant(&'s str),
    /// At the output element's current value.
    Current,
}

/// Writes a tasklet's body from its arguments' names, returning the result.
type TaskletBody<'f> = &'f dyn Fn(&mut Body, &[String]) -> String;

/// A tasklet body under construction.
struct Body {
    lines: Vec<String>,
    next: usize,
}

fn is_float(ty: &str) -> bool {
    matches!(ty, "f16" | "bf16" | "f32" | "f64")
}

impl Body {
    fn assign(&mut self, rhs: String) -> String {
        self.next += 1;
        let v = format!("%t{}", self.next);
        self.lines.push(format!("{v} = {rhs}"));
        v
    }

    /// The constant `text` (a number) of type `ty`.
    fn constant(&mut self, text: &str, ty: &str) -> String {
        let value: f64 = text.parse().unwrap_or(0.0);
        if let Some(part) = ty
            .strip_prefix("complex<")
            .and_then(|t| t.strip_suffix('>'))
        {
            // A real number as a complex one.
            let t = Ty::parse(part).unwrap_or(Ty::Float(64));
            return self.assign(format!(
                "complex.constant [{}, {}] : {ty}",
                float_text(value, t),
                float_text(0.0, t)
            ));
        }
        if is_float(ty) {
            let t = Ty::parse(ty).unwrap_or(Ty::Float(64));
            self.assign(format!("arith.constant {} : {ty}", float_text(value, t)))
        } else if ty == "i1" {
            self.assign(format!("arith.constant {}", value != 0.0))
        } else {
            self.assign(format!("arith.constant {} : {ty}", value as i64))
        }
    }

    /// A scalar property's value of type `ty`: a constant, or an
    /// `sdfg.sym` of its symbolic expression.
    fn scalar(&mut self, value: &Scalar, ty: &str) -> String {
        match value {
            Scalar::Number(n) => self.constant(&n.to_string(), ty),
            Scalar::Symbolic(text, _) => self.assign(format!("sdfg.sym \"{text}\" : {ty}")),
        }
    }

    /// `a op b` for `op` in add, mul.
    fn arith(&mut self, op: &str, a: &str, b: &str, ty: &str) -> String {
        if ty.starts_with("complex<") {
            return self.assign(format!("complex.{op} {a}, {b} : {ty}"));
        }
        let suffix = if is_float(ty) { "f" } else { "i" };
        self.assign(format!("arith.{op}{suffix} {a}, {b} : {ty}"))
    }

    /// `value` converted from `from` to `to` as C converts.
    fn cast(&mut self, value: &str, from: &str, to: &str) -> String {
        if from == to {
            return value.to_string();
        }
        let width = |t: &str| -> u32 {
            match t {
                "f16" | "bf16" => 16,
                "f32" => 32,
                "f64" => 64,
                _ => t.trim_start_matches('i').parse().unwrap_or(64),
            }
        };
        let op = match (is_float(from), is_float(to)) {
            (true, true) if width(from) < width(to) => "extf",
            (true, true) => "truncf",
            (false, true) if from == "i1" => "uitofp",
            (false, true) => "sitofp",
            (true, false) => "fptosi",
            (false, false) if width(from) < width(to) && from == "i1" => "extui",
            (false, false) if width(from) < width(to) => "extsi",
            (false, false) => "trunci",
        };
        self.assign(format!("arith.{op} {value} : {from} to {to}"))
    }
}

impl Gen {
    fn matmul(&mut self, node: &Node<'_>) -> Result<(), String> {
        let a = node.port("_a", "_a", None)?;
        let b = node.port("_b", "_b", None)?;
        match (a.rank(), b.rank()) {
            (2, 2) | (3, 3) | (2, 3) => self.gemm(node, "_a", "_b", false),
            (2, 1) | (1, 2) | (1, 1) => {
                let c = node.port("_c", "_c", None)?;
                let (m, k) = if a.rank() == 2 {
                    (Some(a.sizes[0].clone()), a.sizes[1].clone())
                } else {
                    (None, a.sizes[0].clone())
                };
                let n = (b.rank() == 2).then(|| b.sizes[1].clone());
                let outer: Vec<(String, Expr)> = m
                    .into_iter()
                    .map(|m| ("__i".to_string(), m))
                    .chain(n.map(|n| ("__j".to_string(), n)))
                    .collect();
                let a_index = if a.rank() == 2 {
                    vec![var("__i"), var("__k")]
                } else {
                    vec![var("__k")]
                };
                let b_index = if b.rank() == 2 {
                    vec![var("__k"), var("__j")]
                } else {
                    vec![var("__k")]
                };
                let c_index: Vec<Expr> = outer.iter().map(|(n, _)| var(n)).collect();
                let c_index = if c.rank() == c_index.len() {
                    c_index
                } else {
                    vec![Expr::int(0); c.rank()]
                };
                let elem = c.elem.clone();
                self.contraction(
                    &outer,
                    &[("__k".into(), k)],
                    &[(&a, a_index), (&b, b_index)],
                    (&c, c_index),
                    Init::Constant("0"),
                    ", wcr sum",
                    &|body, args| body.arith("mul", &args[0], &args[1], &elem),
                    None,
                    &[],
                );
                Ok(())
            }
            (x, y) => Err(format!(
                "MatMul of {x}-D and {y}-D operands has no expansion"
            )),
        }
    }

    /// `C = alpha * op(A) @ op(B) + beta * C`, batched for a 3-D `B` (with
    /// a 3-D `A`, or one 2-D `A` for every batch, as DaCe's
    /// `BatchedMatMul`).
    fn gemm(&mut self, node: &Node<'_>, a: &str, b: &str, blas: bool) -> Result<(), String> {
        let a = node.port(a, a, None)?;
        let b = node.port(b, b, None)?;
        let c = node.port("_c", "_c", Some(b.rank()))?;
        let elem = c.elem.clone();
        let props = &node.props;
        let (trans_a, trans_b) = if blas {
            (props.flag("transA"), props.flag("transB"))
        } else {
            (false, false)
        };
        let alpha = props.scalar("alpha", Scalar::Number(1.0))?;
        self.scalar_symbols(node, "alpha", &alpha)?;
        let beta = if blas {
            props.number_scalar("beta", 0.0)?
        } else {
            0.0
        };
        let batched = b.rank() == 3;
        let off = usize::from(batched);
        let a_off = usize::from(a.rank() == 3);
        let (m, k) = if trans_a {
            (a.sizes[a_off + 1].clone(), a.sizes[a_off].clone())
        } else {
            (a.sizes[a_off].clone(), a.sizes[a_off + 1].clone())
        };
        let n = if trans_b {
            b.sizes[off].clone()
        } else {
            b.sizes[off + 1].clone()
        };
        let index = |row: Expr, col: Expr| -> Vec<Expr> {
            if batched {
                vec![var("__b"), row, col]
            } else {
                vec![row, col]
            }
        };
        let mut rows = Vec::new();
        if batched {
            rows.push(("__b".to_string(), b.sizes[0].clone()));
        }
        rows.push(("__i".to_string(), m));
        // State `init`: C = beta * Cin (Cin is C itself without `_cin`).
        let mut all = rows.clone();
        all.push(("__j".to_string(), n.clone()));
        let c_ij = index(var("__i"), var("__j"));
        if beta != 0.0 {
            let cin = if node.has("_cin") {
                node.port("_cin", "_cin", Some(c.rank()))?
            } else {
                c.clone()
            };
            let beta_text = beta.to_string();
            let e = elem.clone();
            self.pointwise(
                "init",
                &all,
                &[(&cin, c_ij.clone())],
                (&c, c_ij.clone()),
                |body, args| {
                    let bt = body.constant(&beta_text, &e);
                    body.arith("mul", &bt, &args[0], &e)
                },
            );
        } else {
            let e = elem.clone();
            self.pointwise("init", &all, &[], (&c, c_ij.clone()), |body, _| {
                body.constant("0", &e)
            });
        }
        let mut a_index = if trans_a {
            index(var("__k"), var("__i"))
        } else {
            index(var("__i"), var("__k"))
        };
        if a.rank() < a_index.len() {
            a_index.remove(0);
        }
        let b_index = if trans_b {
            index(var("__j"), var("__k"))
        } else {
            index(var("__k"), var("__j"))
        };
        let e = elem.clone();
        let multiply = move |body: &mut Body, args: &[String]| {
            let p = body.arith("mul", &args[0], &args[1], &e);
            if alpha == Scalar::Number(1.0) {
                p
            } else {
                let al = body.scalar(&alpha, &e);
                body.arith("mul", &al, &p, &e)
            }
        };
        if self.gpu {
            // On the GPU, a thread per element of C (j along x: the reads
            // of B and the writes of C coalesce), accumulating over k from
            // the value `init` left.
            self.contraction(
                &all,
                &[("__k".into(), k)],
                &[(&a, a_index), (&b, b_index)],
                (&c, c_ij),
                Init::Current,
                ", wcr sum",
                &multiply,
                None,
                &[],
            );
            return Ok(());
        }
        // State `accumulate`: rows in parallel, then k, then j.
        self.arg(&a);
        self.arg(&b);
        self.state("accumulate");
        let a0 = self.read_node(&a);
        let b0 = self.read_node(&b);
        let (result, level) = self.open_map(
            "rows",
            &from_zero(&rows),
            false,
            &[(&a, a0), (&b, b0)],
            (&c.conn, &c.ty),
            None,
        );
        let (kres, klevel) = self.open_map(
            "k",
            &from_zero(&[("__k".into(), k)]),
            true,
            &[(&a, level[0].clone()), (&b, level[1].clone())],
            (&c.conn, &c.ty),
            None,
        );
        let (jres, jlevel) = self.open_map(
            "j",
            &from_zero(&[("__j".into(), n)]),
            true,
            &[(&a, klevel[0].clone()), (&b, klevel[1].clone())],
            (&c.conn, &c.ty),
            None,
        );
        let ins = [
            In {
                port: &a,
                data: jlevel[0].clone(),
                index: a_index,
            },
            In {
                port: &b,
                data: jlevel[1].clone(),
                index: b_index,
            },
        ];
        let p = self.tasklet("multiply", &ins, &elem, multiply);
        let c_at = c.at(&c_ij);
        self.close_map(&c.conn, &p, &c_at, ", wcr sum", &elem);
        let row_subset = {
            let mut s: Vec<String> = Vec::new();
            if batched {
                s.push("__b".into());
            }
            s.push("__i".into());
            s.push(format!("0:{}", c.sizes[c.rank() - 1]));
            s.join(", ")
        };
        self.close_map(&c.conn, &jres, &row_subset, ", wcr sum", &c.ty);
        self.close_map(&c.conn, &kres, &row_subset, ", wcr sum", &c.ty);
        let v = self.fresh();
        self.line(format!(
            "{v} = sdfg.access %{} writes({result}[\"{}\", wcr sum] : {}) : {}",
            c.conn,
            c.full(),
            c.ty,
            c.ty
        ));
        Ok(())
    }

    fn gemv(&mut self, node: &Node<'_>) -> Result<(), String> {
        let a = node.port("_A", "_A", Some(2))?;
        let x = node.port("_x", "_x", Some(1))?;
        let y = node.port("_y", "_y", Some(1))?;
        let elem = y.elem.clone();
        let props = &node.props;
        let trans = props.flag("transA");
        let alpha = props.scalar("alpha", Scalar::Number(1.0))?;
        self.scalar_symbols(node, "alpha", &alpha)?;
        let beta = props.number_scalar("beta", 0.0)?;
        let (m, k) = if trans {
            (a.sizes[1].clone(), a.sizes[0].clone())
        } else {
            (a.sizes[0].clone(), a.sizes[1].clone())
        };
        let a_index = if trans {
            vec![var("__k"), var("__i")]
        } else {
            vec![var("__i"), var("__k")]
        };
        let y_in = if beta == 0.0 {
            None
        } else if node.has("_y_in") {
            Some(node.port("_y_in", "_y_in", Some(1))?)
        } else {
            Some(y.clone())
        };
        let extra: Vec<(&Port, Vec<Expr>)> = y_in.iter().map(|p| (p, vec![var("__i")])).collect();
        let (e1, e2) = (elem.clone(), elem.clone());
        let beta_text = beta.to_string();
        self.contraction(
            &[("__i".into(), m)],
            &[("__k".into(), k)],
            &[(&a, a_index), (&x, vec![var("__k")])],
            (&y, vec![var("__i")]),
            Init::Constant("0"),
            ", wcr sum",
            &|body, args| body.arith("mul", &args[0], &args[1], &e1),
            Some(&|body, args| {
                let al = body.scalar(&alpha, &e2);
                let r = body.arith("mul", &al, &args[0], &e2);
                match args.get(1) {
                    Some(old) => {
                        let bt = body.constant(&beta_text, &e2);
                        let s = body.arith("mul", &bt, old, &e2);
                        body.arith("add", &r, &s, &e2)
                    }
                    None => r,
                }
            }),
            &extra,
        );
        Ok(())
    }

    fn dot(&mut self, node: &Node<'_>) -> Result<(), String> {
        let x = node.port("_x", "_x", Some(1))?;
        let y = node.port("_y", "_y", Some(1))?;
        let out = node.port("_result", "_result", None)?;
        let elem = out.elem.clone();
        let index = vec![Expr::int(0); out.rank()];
        self.contraction(
            &[],
            &[("__k".into(), x.sizes[0].clone())],
            &[(&x, vec![var("__k")]), (&y, vec![var("__k")])],
            (&out, index),
            Init::Constant("0"),
            ", wcr sum",
            &|body, args| body.arith("mul", &args[0], &args[1], &elem),
            None,
            &[],
        );
        Ok(())
    }

    fn reduce(&mut self, node: &Node<'_>) -> Result<(), String> {
        let input_reach = node.find("")?;
        let rank = input_reach.subset.dims();
        let input = node.port("", "_in", Some(rank))?;
        let n = input.rank();
        let axes = node.props.axes(n);
        if axes.iter().any(|a| *a >= n) {
            return Err(format!(
                "reduction axes {axes:?} exceed the input's {n} dimensions"
            ));
        }
        let kept: Vec<usize> = (0..n).filter(|d| !axes.contains(d)).collect();
        let out_reach = node
            .outputs
            .iter()
            .find(|r| r.conn.is_empty())
            .ok_or("has no output")?;
        let out_rank = (out_reach.subset.dims() >= kept.len()).then_some(kept.len());
        let output = Node {
            op: node.op,
            inputs: Vec::new(),
            outputs: vec![Reach {
                conn: String::new(),
                layout: out_reach.layout.clone(),
                subset: out_reach.subset.clone(),
            }],
            props: Properties::default(),
        }
        .port("", "_out", out_rank)?;
        let wcr = node
            .props
            .text("wcr")
            .unwrap_or_else(|| "lambda a, b: a + b".into());
        let outer: Vec<(String, Expr)> = kept
            .iter()
            .map(|d| (format!("__r{d}"), input.sizes[*d].clone()))
            .collect();
        let inner: Vec<(String, Expr)> = axes
            .iter()
            .map(|d| (format!("__r{d}"), input.sizes[*d].clone()))
            .collect();
        let out_index: Vec<Expr> = if output.rank() == kept.len() {
            kept.iter().map(|d| var(&format!("__r{d}"))).collect()
        } else {
            vec![Expr::int(0); output.rank()]
        };
        let in_index: Vec<Expr> = (0..n).map(|d| var(&format!("__r{d}"))).collect();
        let identity = node.props.text("identity");
        let init = match &identity {
            Some(text) => Init::Constant(text.as_str()),
            None => Init::Current,
        };
        let wcr = format!(
            ", wcr \"{}\"",
            wcr.replace('\\', "\\5C").replace('"', "\\22")
        );
        self.contraction(
            &outer,
            &inner,
            &[(&input, in_index)],
            (&output, out_index),
            init,
            &wcr,
            &|_, args| args[0].clone(),
            None,
            &[],
        );
        Ok(())
    }

    fn transpose(&mut self, node: &Node<'_>) -> Result<(), String> {
        let inp = node.port("_inp", "_inp", Some(2))?;
        let out = node.port("_out", "_out", Some(2))?;
        let vars = [
            ("__i".to_string(), inp.sizes[0].clone()),
            ("__j".to_string(), inp.sizes[1].clone()),
        ];
        self.pointwise(
            "compute",
            &vars,
            &[(&inp, vec![var("__i"), var("__j")])],
            (&out, vec![var("__j"), var("__i")]),
            |_, args| args[0].clone(),
        );
        Ok(())
    }

    fn axpy(&mut self, node: &Node<'_>) -> Result<(), String> {
        let x = node.port("_x", "_x", Some(1))?;
        let y = node.port("_y", "_y", Some(1))?;
        let res = node.port("_res", "_res", Some(1))?;
        let elem = res.elem.clone();
        let a = node.props.scalar("a", Scalar::symbol("a"))?;
        self.scalar_symbols(node, "a", &a)?;
        let i = vec![var("__i")];
        self.pointwise(
            "compute",
            &[("__i".into(), x.sizes[0].clone())],
            &[(&x, i.clone()), (&y, i.clone())],
            (&res, i),
            |body, args| {
                let av = body.scalar(&a, &elem);
                let p = body.arith("mul", &av, &args[0], &elem);
                body.arith("add", &p, &args[1], &elem)
            },
        );
        Ok(())
    }

    fn ger(&mut self, node: &Node<'_>) -> Result<(), String> {
        let x = node.port("_x", "_x", Some(1))?;
        let y = node.port("_y", "_y", Some(1))?;
        let a = node.port("_A", "_A", Some(2))?;
        let res = node.port("_res", "_res", Some(2))?;
        let elem = res.elem.clone();
        let alpha = node.props.scalar("alpha", Scalar::Number(1.0))?;
        self.scalar_symbols(node, "alpha", &alpha)?;
        let vars = [
            ("__i".to_string(), x.sizes[0].clone()),
            ("__j".to_string(), y.sizes[0].clone()),
        ];
        let ij = vec![var("__i"), var("__j")];
        self.pointwise(
            "compute",
            &vars,
            &[
                (&x, vec![var("__i")]),
                (&y, vec![var("__j")]),
                (&a, ij.clone()),
            ],
            (&res, ij),
            |body, args| {
                let p = body.arith("mul", &args[0], &args[1], &elem);
                let al = body.scalar(&alpha, &elem);
                let q = body.arith("mul", &al, &p, &elem);
                body.arith("add", &q, &args[2], &elem)
            },
        );
        Ok(())
    }
}

/// Replaces `node` with an `sdfg.nested` holding the SDFG `text`, with the
/// node's operands, memlets and connectors (unnamed ones named `_in` and
/// `_out`) and identity symbol mapping.
///
/// # Safety
/// `node` must be a live `sdfg.library` op; it is destroyed.
unsafe fn replace(node: Op<'_>, text: &str) -> Result<(), String> {
    let ctx = mlirOperationGetContext(node.raw());
    let Some(parsed) = sdfg_dialect::rewrite::parse_detached(node, text) else {
        if std::env::var_os("SDFG_DEBUG_LOWERING").is_some() {
            eprintln!("{text}");
        }
        return Err(
            "internal error: the expansion does not parse (set SDFG_DEBUG_LOWERING=1 to print it)"
                .into(),
        );
    };
    let symbols: Vec<String> = parsed
        .attr("symbols")
        .map(sdfg_dialect::ir::dictionary_entries)
        .unwrap_or_default()
        .into_iter()
        .map(|(n, _)| n.to_string())
        .collect();
    let sdfg = parsed.raw();

    let named = |name: &str, attr: MlirAttribute| {
        mlirNamedAttributeGet(mlirIdentifierGet(ctx, string_ref(name)), attr)
    };
    let strings = |values: &[String]| {
        let attrs: Vec<MlirAttribute> = values
            .iter()
            .map(|v| mlirStringAttrGet(ctx, string_ref(v)))
            .collect();
        mlirArrayAttrGet(ctx, attrs.len() as isize, attrs.as_ptr())
    };
    let rename = |names: Vec<&str>, unnamed: &str| -> Vec<String> {
        names
            .into_iter()
            .map(|n| {
                if n.is_empty() {
                    unnamed.to_string()
                } else {
                    n.to_string()
                }
            })
            .collect()
    };
    let label = identifier(node);
    let mut attrs = vec![named("label", mlirStringAttrGet(ctx, string_ref(&label)))];
    for key in ["in_memlets", "operandSegmentSizes", "schedule"] {
        if let Some(a) = node.attr(key) {
            attrs.push(named(key, a));
        }
    }
    let in_names = rename(node.str_array_attr("in_names"), "_in");
    let out_names = rename(node.str_array_attr("out_names"), "_out");
    if !in_names.is_empty() {
        attrs.push(named("in_names", strings(&in_names)));
    }
    if !out_names.is_empty() {
        attrs.push(named("out_names", strings(&out_names)));
    }
    if !symbols.is_empty() {
        attrs.push(named("symbol_names", strings(&symbols)));
        attrs.push(named("symbol_values", strings(&symbols)));
    }
    let loc = mlirOperationGetLocation(node.raw());
    let mut state = mlirOperationStateGet(string_ref("sdfg.nested"), loc);
    let operands: Vec<MlirValue> = node.operands().iter().map(|v| v.raw()).collect();
    mlirOperationStateAddOperands(&mut state, operands.len() as isize, operands.as_ptr());
    let results: Vec<MlirType> = node.results().iter().map(|r| r.ty()).collect();
    mlirOperationStateAddResults(&mut state, results.len() as isize, results.as_ptr());
    mlirOperationStateAddAttributes(&mut state, attrs.len() as isize, attrs.as_ptr());
    let region = mlirRegionCreate();
    let block = mlirBlockCreate(0, std::ptr::null(), std::ptr::null());
    mlirBlockAppendOwnedOperation(block, sdfg);
    mlirRegionAppendOwnedBlock(region, block);
    mlirOperationStateAddOwnedRegions(&mut state, 1, &region);
    let nested = mlirOperationCreate(&mut state);
    if nested.ptr.is_null() {
        return Err("internal error: the nested SDFG op cannot be built".into());
    }
    let parent = mlirOperationGetBlock(node.raw());
    mlirBlockInsertOwnedOperationBefore(parent, node.raw(), nested);
    for (k, r) in node.results().iter().enumerate() {
        mlirValueReplaceAllUsesOfWith(r.raw(), mlirOperationGetResult(nested, k as isize));
    }
    mlirOperationDestroy(node.raw());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn casts_follow_c_conversions() {
        let mut b = Body {
            lines: Vec::new(),
            next: 0,
        };
        b.cast("%a", "i32", "f64");
        b.cast("%b", "f64", "f32");
        b.cast("%c", "i1", "i32");
        assert_eq!(
            b.lines,
            [
                "%t1 = arith.sitofp %a : i32 to f64",
                "%t2 = arith.truncf %b : f64 to f32",
                "%t3 = arith.extui %c : i1 to i32",
            ]
        );
    }
}
