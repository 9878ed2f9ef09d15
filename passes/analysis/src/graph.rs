//! `petgraph` projections of the dialect's graphs.
//!
//! The IR is the graph: a state's dataflow multigraph is its ops and SSA
//! uses, and a control-flow region's state machine is its blocks and
//! `sdfg.edge`s. These views project them into `petgraph` graphs in one walk
//! (linear in the number of ops and uses) for algorithms and printing; they
//! are not kept up to date with later changes to the IR.

use petgraph::graph::{DiGraph, NodeIndex};
use sdfg_dialect::{
    container_name, incoming_edges,
    ir::{Op, Val},
    EdgeRole, Memlet, CONTROL_FLOW_BLOCKS,
};
use std::collections::HashMap;

/// What a node of a state's dataflow graph is, in DaCe's terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// An access node.
    Access,
    /// A tasklet.
    Tasklet,
    /// The entry node of a map.
    MapEntry,
    /// The exit node of a map.
    MapExit,
    /// The entry node of a consume scope.
    ConsumeEntry,
    /// The exit node of a consume scope.
    ConsumeExit,
    /// A nested SDFG.
    NestedSdfg,
    /// A library node.
    Library,
}

/// A node of a state's dataflow graph.
#[derive(Clone, Debug)]
pub struct DataflowNode<'a> {
    /// The op the node comes from (a scope's entry and exit share it).
    pub op: Op<'a>,
    /// The node's kind.
    pub kind: NodeKind,
    /// DaCe-style label: the container name or the op's label.
    pub label: String,
    /// The entry node of the innermost enclosing scope.
    pub scope: Option<NodeIndex>,
}

/// An edge of a state's dataflow graph.
#[derive(Clone, Debug)]
pub struct DataflowEdge {
    /// The memlet (`None` for ordering-only edges).
    pub memlet: Option<Memlet>,
    /// The source connector, DaCe-style (`OUT_x` on scope nodes).
    pub src_conn: Option<String>,
    /// The destination connector.
    pub dst_conn: Option<String>,
}

/// A state's dataflow multigraph.
pub type DataflowGraph<'a> = DiGraph<DataflowNode<'a>, DataflowEdge>;

struct Builder<'a> {
    graph: DataflowGraph<'a>,
    /// Where each SSA value comes from: node and source connector.
    sources: HashMap<Val<'a>, (NodeIndex, Option<String>)>,
}

impl<'a> Builder<'a> {
    fn add_scope_ops(
        &mut self,
        ops: Vec<Op<'a>>,
        scope: Option<NodeIndex>,
        exit: Option<NodeIndex>,
    ) {
        for op in ops {
            self.add_op(op, scope, exit);
        }
    }

    fn add_edges(&mut self, op: Op<'a>, target: NodeIndex, prefix: &str) {
        for edge in incoming_edges(op) {
            let Some((source, src_conn)) = self.sources.get(&edge.source).cloned() else {
                continue;
            };
            let dst_conn = match edge.role {
                EdgeRole::Bind => Some("views".to_string()),
                EdgeRole::Stream => Some("IN_stream".to_string()),
                EdgeRole::Dynamic => edge.connector.map(String::from),
                _ => edge.connector.map(|c| format!("{prefix}{c}")),
            };
            self.graph.add_edge(
                source,
                target,
                DataflowEdge {
                    memlet: edge.memlet,
                    src_conn,
                    dst_conn,
                },
            );
        }
    }

    fn add_op(&mut self, op: Op<'a>, scope: Option<NodeIndex>, exit: Option<NodeIndex>) {
        let label = op.str_attr("label").unwrap_or_default().to_string();
        let node = |kind, label| DataflowNode {
            op,
            kind,
            label,
            scope,
        };
        match op.name() {
            "sdfg.access" => {
                let name = op
                    .operands()
                    .first()
                    .and_then(|v| container_name(*v))
                    .unwrap_or_else(|| "?".into());
                let index = self.graph.add_node(node(NodeKind::Access, name));
                self.add_edges(op, index, "");
                for result in op.results() {
                    self.sources.insert(result, (index, None));
                }
            }
            "sdfg.tasklet" | "sdfg.nested" | "sdfg.library" => {
                let kind = match op.name() {
                    "sdfg.tasklet" => NodeKind::Tasklet,
                    "sdfg.nested" => NodeKind::NestedSdfg,
                    _ => NodeKind::Library,
                };
                let index = self.graph.add_node(node(kind, label));
                self.add_edges(op, index, "");
                let names = op.str_array_attr("out_names");
                for (i, result) in op.results().into_iter().enumerate() {
                    self.sources
                        .insert(result, (index, names.get(i).map(|s| s.to_string())));
                }
            }
            "sdfg.map" | "sdfg.consume" => {
                let is_map = op.is("sdfg.map");
                let (entry_kind, exit_kind) = if is_map {
                    (NodeKind::MapEntry, NodeKind::MapExit)
                } else {
                    (NodeKind::ConsumeEntry, NodeKind::ConsumeExit)
                };
                let entry = self.graph.add_node(node(entry_kind, label.clone()));
                let exit_node = self.graph.add_node(DataflowNode {
                    op,
                    kind: exit_kind,
                    label,
                    scope,
                });
                self.add_edges(op, entry, "IN_");
                let mut arg_names: Vec<String> = Vec::new();
                if !is_map {
                    arg_names.push("OUT_stream".into());
                }
                arg_names.extend(
                    op.str_array_attr("in_names")
                        .iter()
                        .map(|n| format!("OUT_{n}")),
                );
                arg_names.extend(op.str_array_attr("dyn_names").iter().map(|n| n.to_string()));
                for (i, arg) in op.region_args(0).into_iter().enumerate() {
                    self.sources.insert(arg, (entry, arg_names.get(i).cloned()));
                }
                self.add_scope_ops(op.region_ops(0), Some(entry), Some(exit_node));
                let names = op.str_array_attr("out_names");
                for (i, result) in op.results().into_iter().enumerate() {
                    self.sources.insert(
                        result,
                        (exit_node, names.get(i).map(|n| format!("OUT_{n}"))),
                    );
                }
            }
            "sdfg.exit" => {
                if let Some(exit) = exit {
                    self.add_edges(op, exit, "IN_");
                }
            }
            _ => {}
        }
    }
}

/// Projects the dataflow graph of a `sdfg.state`.
pub fn dataflow_graph(state: Op<'_>) -> DataflowGraph<'_> {
    let mut builder = Builder {
        graph: DiGraph::new(),
        sources: HashMap::new(),
    };
    builder.add_scope_ops(state.region_ops(0), None, None);
    builder.graph
}

/// An inter-state edge.
#[derive(Clone, Debug)]
pub struct InterstateEdge<'a> {
    /// The `sdfg.edge` op.
    pub op: Op<'a>,
    /// Its condition, if not `True`.
    pub condition: Option<&'a str>,
    /// Its assignments, in order.
    pub assignments: Vec<(&'a str, &'a str)>,
}

/// The state machine of one control-flow region (the body of an SDFG, a
/// loop, a branch, ...): its blocks and the edges between them. The first
/// block is the start block.
pub type ControlFlowGraph<'a> = DiGraph<Op<'a>, InterstateEdge<'a>>;

/// Projects the state machine of a control-flow region owner.
pub fn control_flow_graph(owner: Op<'_>) -> ControlFlowGraph<'_> {
    let mut graph = DiGraph::new();
    let mut by_name = HashMap::new();
    let ops = owner.region_ops(0);
    for op in &ops {
        if CONTROL_FLOW_BLOCKS.contains(&op.name()) {
            let index = graph.add_node(*op);
            if let Some(name) = op.symbol_name() {
                by_name.insert(name, index);
            }
        }
    }
    for op in ops.into_iter().filter(|op| op.is("sdfg.edge")) {
        let endpoints = op
            .symbol_ref_attr("src")
            .and_then(|s| by_name.get(s))
            .zip(op.symbol_ref_attr("dst").and_then(|d| by_name.get(d)));
        if let Some((&src, &dst)) = endpoints {
            let assignments = op
                .str_array_attr("assign_names")
                .into_iter()
                .zip(op.str_array_attr("assign_values"))
                .collect();
            graph.add_edge(
                src,
                dst,
                InterstateEdge {
                    op,
                    condition: op.str_attr("condition"),
                    assignments,
                },
            );
        }
    }
    graph
}

/// The size of a program as DaCe counts it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Size {
    /// States, nested SDFGs' included.
    pub states: usize,
    /// Dataflow nodes, nested SDFGs' included; a map or consume scope is
    /// two (its entry and its exit node).
    pub nodes: usize,
}

/// Counts the states and dataflow nodes under `root`, nested SDFGs
/// included, as DaCe's `sum(len(s.nodes()) for s in sdfg.all_states())`
/// summed over `sdfg.all_sdfgs_recursive()` does.
pub fn size(root: Op<'_>) -> Size {
    let mut size = Size::default();
    for op in root.descendants() {
        match op.name() {
            "sdfg.state" => size.states += 1,
            "sdfg.map" | "sdfg.consume" => size.nodes += 2,
            "sdfg.access" | "sdfg.tasklet" | "sdfg.nested" | "sdfg.library"
                if op.ancestor("sdfg.tasklet").is_none() =>
            {
                size.nodes += 1
            }
            _ => {}
        }
    }
    size
}

/// Whether the scopes `scopes` (top-level scopes of one state) may run at
/// once: none writes a container another one reads or writes, except the
/// containers `connects` accepts (streams, which connect a writer to a
/// reader). A scope reads the containers behind its inputs and writes
/// those of the access nodes its results go to.
pub fn concurrent_scopes(scopes: &[Op<'_>], connects: &dyn Fn(Val<'_>) -> bool) -> bool {
    let key = |v: &Val<'_>| v.raw().ptr as usize;
    let sets: Vec<(Vec<usize>, Vec<usize>)> = scopes
        .iter()
        .map(|s| {
            let mut inputs = s.operand_segment(0);
            if s.is("sdfg.consume") {
                inputs.extend(s.operand_segment(1));
            }
            let reads = inputs
                .into_iter()
                .map(sdfg_dialect::underlying_container)
                .filter(|c| !connects(*c))
                .map(|c| key(&c))
                .collect();
            let writes = s
                .results()
                .iter()
                .flat_map(|r| r.uses())
                .filter(|(u, _)| u.is("sdfg.access"))
                .map(|(u, _)| u.operands()[0])
                .filter(|c| !connects(*c))
                .map(|c| key(&c))
                .collect();
            (reads, writes)
        })
        .collect();
    sets.iter().enumerate().all(|(i, (_, wi))| {
        sets.iter()
            .enumerate()
            .all(|(j, (rj, wj))| i == j || !wi.iter().any(|w| rj.contains(w) || wj.contains(w)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::ir::Module;
    use sdfg_dialect::ir::Op;

    #[test]
    fn projects_state_machine_and_dataflow_graphs() {
        let context = sdfg_dialect::create_context();
        let laplace = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../examples/laplace.mlir"
        ))
        .expect("the example exists");
        let module = Module::parse(&context, &laplace).expect("laplace parses");
        // SAFETY: the module outlives every handle taken from it in this test.
        let root = unsafe { Op::from_raw(module.as_operation().to_raw()) }.expect("a module op");
        let sdfg = root.region_ops(0)[0];
        let cfg = control_flow_graph(sdfg);
        assert_eq!(cfg.node_count(), 4, "init, guard, body and end states");
        assert_eq!(cfg.edge_count(), 4);
        let body = sdfg
            .region_ops(0)
            .into_iter()
            .find(|op| op.symbol_name() == Some("for_7_MapState"))
            .expect("the map state");
        let graph = dataflow_graph(body);
        let count = |kind| graph.node_weights().filter(|n| n.kind == kind).count();
        assert_eq!(count(NodeKind::MapEntry), 1);
        assert_eq!(count(NodeKind::MapExit), 1);
        assert_eq!(count(NodeKind::Tasklet), 4);
        assert_eq!(
            count(NodeKind::Access),
            5,
            "A twice and three scalar transients"
        );
        assert!(
            petgraph::algo::toposort(&graph, None).is_ok(),
            "a state is acyclic"
        );
    }
}
