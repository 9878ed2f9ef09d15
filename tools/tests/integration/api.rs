//! The Rust API of the dialect on a real program: containers, memlets and
//! dataflow edges (the petgraph views are tested in `sdfg-analysis`).

use melior::ir::Module;
use sdfg_dialect::{
    container_name, incoming_edges, ir::Op, underlying_container, Container, ContainerKind,
    EdgeRole, Schedule, Storage, Wcr, WcrKind,
};
use std::path::Path;

fn example(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples")
        .join(name);
    std::fs::read_to_string(path).expect("the example exists")
}

#[test]
fn reads_containers_memlets_and_edges_of_spmv() {
    let context = sdfg_dialect::create_context();
    let module = Module::parse(&context, &example("spmv.mlir")).expect("spmv parses");
    // SAFETY: the module outlives every handle taken from it in this test.
    let root = unsafe { Op::from_raw(module.as_operation().to_raw()) }.expect("a module op");
    let ops = root.descendants();
    let sdfg = ops.iter().find(|op| op.is("sdfg.sdfg")).expect("an SDFG");
    assert_eq!(sdfg.symbol_name(), Some("spmv"));

    let row = sdfg.region_args(0)[0];
    assert_eq!(container_name(row).as_deref(), Some("A_row"));
    let container = Container::from_type(row.ty()).expect("a container type");
    assert_eq!(container.kind, ContainerKind::Array);
    assert_eq!(container.shape, vec!["H + 1"]);
    assert_eq!(
        container.storage,
        Storage::from_name("Default").expect("a storage")
    );

    let inner_map = ops
        .iter()
        .find(|op| op.is("sdfg.map") && op.str_attr("label") == Some("spmv_13_4_14"))
        .expect("the inner map");
    let dynamic: Vec<_> = incoming_edges(*inner_map)
        .into_iter()
        .filter(|e| e.role == EdgeRole::Dynamic)
        .collect();
    assert_eq!(dynamic.len(), 2);
    assert_eq!(dynamic[0].connector, Some("__map_14_b0"));
    assert_eq!(
        dynamic[0].memlet.as_ref().map(|m| m.subset.as_str()),
        Some("i")
    );
    assert_eq!(
        container_name(underlying_container(dynamic[0].source)).as_deref(),
        Some("A_row")
    );
    assert_eq!(
        Schedule::from_attr(inner_map.attr("schedule").expect("a schedule")).map(|s| s.name()),
        Some("Default")
    );

    let write = ops
        .iter()
        .filter(|op| op.is("sdfg.access"))
        .flat_map(|op| incoming_edges(*op))
        .find(|edge| edge.memlet.as_ref().is_some_and(|m| m.dynamic))
        .expect("the dynamic WCR write into b");
    let memlet = write.memlet.expect("a memlet");
    assert_eq!(memlet.subset, "0:H");
    assert!(matches!(memlet.wcr, Wcr::Custom(ref lambda) if lambda.contains("a + b")));
    assert_eq!(WcrKind::from_name("sum").map(|k| k.name()), Some("sum"));
}
