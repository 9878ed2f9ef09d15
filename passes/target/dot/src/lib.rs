//! `--sdfg-to-dot`: Graphviz drawings of SDFGs.
//!
//! Every `sdfg.sdfg` in the input becomes one `digraph`: control-flow blocks
//! are clusters (loops, conditionals and regions nest their blocks), states
//! hold their dataflow graphs drawn with DaCe's node shapes, and inter-state
//! edges join the blocks' anchors with their conditions and assignments.
//! Both graphs come from the `petgraph` views in [`sdfg_analysis::graph`].
//!
//! Like every target, this crate depends on the dialect and the analyses,
//! never on transformations, conversions or the execution engine.

#![deny(missing_docs)]

use petgraph::visit::EdgeRef;
use sdfg_analysis::graph::{control_flow_graph, dataflow_graph, NodeKind};
use sdfg_dialect::{
    driver::{Diagnosed, TranslationFromMlir},
    ir::Op,
};
use std::io::Write;

/// Escapes a string for a double-quoted DOT id or label; line breaks
/// become DOT's `\n`.
fn quote(text: &str) -> String {
    let escaped = text
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n");
    format!("\"{escaped}\"")
}

struct Printer<'w> {
    out: &'w mut dyn Write,
    next_id: usize,
}

impl Printer<'_> {
    fn fresh(&mut self, prefix: &str) -> String {
        self.next_id += 1;
        format!("{prefix}{}", self.next_id)
    }

    fn sdfg(&mut self, sdfg: Op<'_>) -> std::io::Result<()> {
        let name = sdfg.symbol_name().unwrap_or("sdfg");
        writeln!(self.out, "digraph {} {{", quote(name))?;
        writeln!(
            self.out,
            "  compound=true;\n  node [fontname=\"monospace\"];\n  edge [fontname=\"monospace\"];"
        )?;
        self.region(sdfg, "  ")?;
        writeln!(self.out, "}}")
    }

    /// Prints the blocks and edges of a control-flow region; returns the
    /// anchor and cluster of its first block.
    fn region(&mut self, owner: Op<'_>, indent: &str) -> std::io::Result<Option<(String, String)>> {
        let cfg = control_flow_graph(owner);
        let mut anchors = Vec::with_capacity(cfg.node_count());
        for index in cfg.node_indices() {
            anchors.push(self.block(cfg[index], indent)?);
        }
        for edge in cfg.edge_references() {
            let (src_anchor, src_cluster) = &anchors[edge.source().index()];
            let (dst_anchor, dst_cluster) = &anchors[edge.target().index()];
            let data = edge.weight();
            let mut label = data
                .condition
                .map(|c| format!("if {c}"))
                .unwrap_or_default();
            for (name, value) in &data.assignments {
                if !label.is_empty() {
                    label.push('\n');
                }
                label.push_str(&format!("{name} = {value}"));
            }
            writeln!(
                self.out,
                "{indent}{} -> {} [label={}, ltail={}, lhead={}];",
                quote(src_anchor),
                quote(dst_anchor),
                quote(&label),
                quote(src_cluster),
                quote(dst_cluster)
            )?;
        }
        Ok(anchors.into_iter().next())
    }

    /// Prints one control-flow block as a cluster; returns its anchor node
    /// and cluster name.
    fn block(&mut self, block: Op<'_>, indent: &str) -> std::io::Result<(String, String)> {
        let cluster = self.fresh("cluster_");
        let anchor = self.fresh("anchor_");
        let name = block.symbol_name().unwrap_or("?");
        let kind = block.name().trim_start_matches("sdfg.");
        let mut label = format!("{kind} @{name}");
        if block.is("sdfg.loop") {
            let var = block.str_attr("var");
            let parts: Vec<String> = [
                var.zip(block.str_attr("init"))
                    .map(|(v, i)| format!("{v} = {i}")),
                block.str_attr("cond").map(String::from),
                var.zip(block.str_attr("update"))
                    .map(|(v, u)| format!("{v} = {u}")),
            ]
            .into_iter()
            .flatten()
            .collect();
            label.push_str(&format!(": for ({})", parts.join("; ")));
        }
        writeln!(self.out, "{indent}subgraph {} {{", quote(&cluster))?;
        let inner = format!("{indent}  ");
        writeln!(self.out, "{inner}label={};", quote(&label))?;
        writeln!(
            self.out,
            "{inner}{} [shape=point, style=invis];",
            quote(&anchor)
        )?;
        match block.name() {
            "sdfg.state" => self.state(block, &inner)?,
            "sdfg.conditional" => {
                for branch in block.region_ops(0) {
                    let condition = branch.str_attr("condition").unwrap_or("else");
                    let branch_cluster = self.fresh("cluster_");
                    writeln!(self.out, "{inner}subgraph {} {{", quote(&branch_cluster))?;
                    writeln!(
                        self.out,
                        "{inner}  label={};",
                        quote(&format!(
                            "branch @{}: {condition}",
                            branch.symbol_name().unwrap_or("?")
                        ))
                    )?;
                    self.region(branch, &format!("{inner}  "))?;
                    writeln!(self.out, "{inner}}}")?;
                }
            }
            "sdfg.loop" | "sdfg.region" | "sdfg.call_region" => {
                self.region(block, &inner)?;
            }
            _ => {}
        }
        writeln!(self.out, "{indent}}}")?;
        Ok((anchor, cluster))
    }

    fn state(&mut self, state: Op<'_>, indent: &str) -> std::io::Result<()> {
        let graph = dataflow_graph(state);
        let ids: Vec<String> = graph.node_indices().map(|_| self.fresh("node_")).collect();
        for index in graph.node_indices() {
            let node = &graph[index];
            let (shape, prefix) = match node.kind {
                NodeKind::Access => ("ellipse", ""),
                NodeKind::Tasklet => ("octagon", ""),
                NodeKind::MapEntry => ("trapezium", "map "),
                NodeKind::MapExit => ("invtrapezium", "end map "),
                NodeKind::ConsumeEntry => ("trapezium", "consume "),
                NodeKind::ConsumeExit => ("invtrapezium", "end consume "),
                NodeKind::NestedSdfg => ("doubleoctagon", "nested "),
                NodeKind::Library => ("folder", "library "),
            };
            let mut label = format!("{prefix}{}", node.label);
            if node.kind == NodeKind::MapEntry {
                let ranges: Vec<String> = node
                    .op
                    .str_array_attr("params")
                    .into_iter()
                    .zip(node.op.str_array_attr("ranges"))
                    .map(|(p, r)| format!("{p}={r}"))
                    .collect();
                label.push_str(&format!("[{}]", ranges.join(", ")));
            }
            writeln!(
                self.out,
                "{indent}{} [shape={shape}, label={}];",
                quote(&ids[index.index()]),
                quote(&label)
            )?;
        }
        for edge in graph.edge_references() {
            let data = edge.weight();
            let label = match &data.memlet {
                Some(memlet) => memlet.to_string(),
                None => String::new(),
            };
            let style = if data.memlet.is_none() {
                ", style=dashed"
            } else {
                ""
            };
            writeln!(
                self.out,
                "{indent}{} -> {} [label={}{style}];",
                quote(&ids[edge.source().index()]),
                quote(&ids[edge.target().index()]),
                quote(&label)
            )?;
        }
        Ok(())
    }
}

/// Writes the Graphviz drawing of every top-level SDFG in `root`.
pub fn sdfg_to_dot(root: Op<'_>, out: &mut dyn Write) -> std::io::Result<usize> {
    let sdfgs: Vec<Op<'_>> = if root.is("sdfg.sdfg") {
        vec![root]
    } else {
        root.region_ops(0)
            .into_iter()
            .filter(|op| op.is("sdfg.sdfg"))
            .collect()
    };
    let mut printer = Printer { out, next_id: 0 };
    for sdfg in &sdfgs {
        printer.sdfg(*sdfg)?;
    }
    Ok(sdfgs.len())
}

fn translate(root: Op<'_>, out: &mut dyn Write) -> Result<(), Diagnosed> {
    match sdfg_to_dot(root, out) {
        Ok(0) => {
            root.emit_error("contains no 'sdfg.sdfg' to draw");
            Err(Diagnosed)
        }
        Ok(_) => Ok(()),
        Err(error) => {
            root.emit_error(format!("cannot write the drawing: {error}"));
            Err(Diagnosed)
        }
    }
}

/// The registration of `--sdfg-to-dot`.
pub static TRANSLATION: TranslationFromMlir = TranslationFromMlir {
    name: "sdfg-to-dot",
    summary: "Draw SDFGs (state machines and dataflow graphs) as Graphviz DOT",
    translate,
};

#[cfg(test)]
mod tests {
    use super::*;
    use melior::ir::Module;

    /// Laplace's drawing has one digraph, its four states as clusters, and
    /// DaCe's node shapes for the map entry and the four tasklets.
    #[test]
    fn draws_states_as_clusters_with_dace_shapes() {
        let context = sdfg_dialect::create_context();
        let laplace = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../examples/laplace.mlir"
        ))
        .expect("the example exists");
        let module = Module::parse(&context, &laplace).expect("laplace parses");
        // SAFETY: the module outlives every handle taken from it in this test.
        let root = unsafe { Op::from_raw(module.as_operation().to_raw()) }.expect("a module op");
        let mut out = Vec::new();
        assert_eq!(sdfg_to_dot(root, &mut out).expect("writes"), 1);
        let dot = String::from_utf8(out).expect("UTF-8");
        assert_eq!(dot.matches("digraph").count(), 1);
        assert_eq!(dot.matches("subgraph \"cluster_").count(), 4, "{dot}");
        assert!(dot.contains(r#"[shape=trapezium, label="map laplace_8[i=1:N-1]"]"#));
        assert_eq!(dot.matches("shape=octagon").count(), 4, "{dot}");
    }
}
