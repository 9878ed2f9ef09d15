//! What one iteration of a counted loop region reads and writes: for each
//! container, the subsets of every access in the loop's body, in terms of
//! the loop's variable, each taken over the counted loops and the map
//! scopes inside the body. Loop-to-map decides on these whether two
//! iterations touch a common element.
//!
//! The accesses are the memlets of the access nodes of the body's states
//! (what [`crate::propagate`] reads for nested SDFGs): an edge out of a
//! node reads, an edge into it writes, and a map that reads a node has
//! its outer memlet, already the union over its iterations. An access
//! node inside a map is taken over the map's parameters, and one under a
//! counted loop of the body over the loop's variable, so what is left
//! mentions only the loop's own variable and the symbols around it.
//! Where a subset cannot be bounded that way it is the container's whole
//! extent (sound, as for propagation).

use crate::executions::{executions, size_assumptions};
use crate::propagate::{access_memlets, image_in};
use sdfg_dialect::ir::{Op, Val};
use sdfg_dialect::layout::layout;
use sdfg_symbolic::{parse_subset, Range, Subset};
use std::collections::HashSet;

/// What one iteration of a loop does to one container.
#[derive(Clone, Debug)]
pub struct IterationAccess<'a> {
    /// The container (an argument of the SDFG or an `sdfg.alloc`).
    pub data: Val<'a>,
    /// The subsets read, in terms of the loop's variable.
    pub reads: Vec<Subset>,
    /// The subsets written, in terms of the loop's variable.
    pub writes: Vec<Subset>,
    /// The states of the body that access it.
    pub states: HashSet<Op<'a>>,
    /// The access nodes of it in the body.
    pub nodes: Vec<Op<'a>>,
}

/// The accesses of one iteration of the `sdfg.loop` `lp`, per container
/// in order of first access; an error names an access that cannot be
/// read (a consume scope, a subset that does not parse, a memlet of
/// another rank).
pub fn iteration_accesses<'a>(lp: Op<'a>) -> Result<Vec<IterationAccess<'a>>, String> {
    let sdfg = lp.ancestor("sdfg.sdfg").ok_or("the loop is in no SDFG")?;
    let counts = executions(sdfg);
    let asm = size_assumptions(sdfg);
    let inner_loops: HashSet<String> = lp
        .descendants()
        .into_iter()
        .filter(|o| o.is("sdfg.loop") && o.ancestor("sdfg.sdfg") == Some(sdfg))
        .filter_map(|o| o.str_attr("var").map(str::to_string))
        .collect();
    let mut out: Vec<IterationAccess> = Vec::new();
    let nodes = lp
        .descendants()
        .into_iter()
        .filter(|o| o.is("sdfg.access") && o.ancestor("sdfg.sdfg") == Some(sdfg));
    for node in nodes {
        let state = node
            .ancestor("sdfg.state")
            .ok_or("an access node is in no state")?;
        let runs = counts
            .get(&state)
            .ok_or("a state of the loop has no execution count")?;
        // The counted loops of the body around the state, and the maps
        // around the node.
        let mut ranges: Vec<(String, Range)> = runs
            .ranges
            .iter()
            .filter(|(v, _)| inner_loops.contains(v))
            .cloned()
            .collect();
        let mut at = node.parent();
        while let Some(scope) = at.filter(|s| *s != state) {
            match scope.name() {
                "sdfg.map" => {
                    for (p, r) in scope
                        .str_array_attr("params")
                        .into_iter()
                        .zip(scope.str_array_attr("ranges"))
                    {
                        let range = parse_subset(r)
                            .ok()
                            .and_then(|s| s.ranges().first().cloned())
                            .ok_or_else(|| format!("map range `{r}` does not parse"))?;
                        ranges.push((p.to_string(), range));
                    }
                }
                other => return Err(format!("an access node is inside '{other}'")),
            }
            at = scope.parent();
        }
        let names: Vec<String> = ranges.iter().map(|(v, _)| v.clone()).collect();
        let data = node.operands()[0];
        let shape = layout(data.ty())?.shape;
        let subsets = |writes: bool| -> Result<Vec<Subset>, String> {
            let memlets = access_memlets(node, writes)
                .ok_or("an access of a container in the loop cannot be read")?;
            let mut subsets = Vec::new();
            for m in memlets {
                let subset = parse_subset(&m.subset).map_err(|e| e.to_string())?;
                let rank = shape.len().max(1);
                if subset.dims() != rank {
                    return Err(format!(
                        "subset `{}` has rank {}, not {rank}",
                        m.subset,
                        subset.dims()
                    ));
                }
                subsets.push(if shape.is_empty() {
                    subset
                } else {
                    image_in(&subset, &ranges, &names, &shape, &asm)
                });
            }
            Ok(subsets)
        };
        let (writes, reads) = (subsets(true)?, subsets(false)?);
        let entry = match out.iter().position(|a| a.data == data) {
            Some(k) => &mut out[k],
            None => {
                out.push(IterationAccess {
                    data,
                    reads: Vec::new(),
                    writes: Vec::new(),
                    states: HashSet::new(),
                    nodes: Vec::new(),
                });
                out.last_mut().ok_or("no entry")?
            }
        };
        entry.reads.extend(reads);
        entry.writes.extend(writes);
        entry.states.insert(state);
        entry.nodes.push(node);
    }
    Ok(out)
}
