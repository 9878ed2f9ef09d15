// RUN: sdfg-translate --sdfg-to-dot %s | FileCheck %s
// RUN: sdfg-translate --sdfg-to-dot %s | FileCheck %s --check-prefix=EDGES

// --sdfg-to-dot draws an SDFG as one Graphviz digraph: control-flow blocks
// are clusters (loops and conditionals nest theirs), dataflow nodes use
// DaCe's shapes, dataflow edges carry their memlets and inter-state edges
// join cluster anchors with their conditions and assignments.

// CHECK-LABEL: digraph "drawn" {
// CHECK-NEXT: compound=true;

// A state is a cluster with an invisible anchor node.
// CHECK: subgraph "[[INIT:cluster_[0-9]+]]" {
// CHECK-NEXT: label="state @init";
// CHECK-NEXT: "[[INIT_A:anchor_[0-9]+]]" [shape=point, style=invis];

// A loop is a cluster labelled with its for header, holding its states.
// CHECK: subgraph "[[LOOP:cluster_[0-9]+]]" {
// CHECK-NEXT: label="loop @time: for (t = 0; t < 10; t = t + 1)";
// CHECK-NEXT: "[[LOOP_A:anchor_[0-9]+]]" [shape=point, style=invis];
// CHECK: label="state @step";

// Access nodes are ellipses, map entries and exits trapezia, tasklets
// octagons; edges carry their memlets.
// CHECK: "[[A:node_[0-9]+]]" [shape=ellipse, label="A"];
// CHECK-NEXT: "[[ME:node_[0-9]+]]" [shape=trapezium, label="map scale[i=0:N]"];
// CHECK-NEXT: "[[MX:node_[0-9]+]]" [shape=invtrapezium, label="end map scale"];
// CHECK-NEXT: "[[T:node_[0-9]+]]" [shape=octagon, label="twice"];
// CHECK-NEXT: "[[A2:node_[0-9]+]]" [shape=ellipse, label="A"];
// CHECK-NEXT: "[[A]]" -> "[[ME]]" [label="[\"0:N\"]"];
// CHECK-NEXT: "[[ME]]" -> "[[T]]" [label="[\"i\"]"];
// CHECK-NEXT: "[[T]]" -> "[[MX]]" [label="[\"i\"]"];
// CHECK-NEXT: "[[MX]]" -> "[[A2]]" [label="[\"0:N\"]"];

// A conditional is a cluster with one sub-cluster per branch.
// CHECK: subgraph "[[COND:cluster_[0-9]+]]" {
// CHECK-NEXT: label="conditional @branch";
// CHECK-NEXT: "[[COND_A:anchor_[0-9]+]]" [shape=point, style=invis];
// CHECK: label="branch @pos: N > 0";
// CHECK: label="state @work";

// Consume scopes, library nodes and nested SDFGs have their own shapes;
// write-conflict resolutions appear in the memlet labels.
// CHECK: "[[S:node_[0-9]+]]" [shape=ellipse, label="S"];
// CHECK-NEXT: "[[CE:node_[0-9]+]]" [shape=trapezium, label="consume drain"];
// CHECK-NEXT: "[[CX:node_[0-9]+]]" [shape=invtrapezium, label="end consume drain"];
// CHECK-NEXT: "[[ONE:node_[0-9]+]]" [shape=octagon, label="one"];
// CHECK-NEXT: "[[O:node_[0-9]+]]" [shape=ellipse, label="O"];
// CHECK-NEXT: "[[LIB:node_[0-9]+]]" [shape=folder, label="library red"];
// CHECK-NEXT: "[[NEST:node_[0-9]+]]" [shape=doubleoctagon, label="nested inner"];
// CHECK-NEXT: "[[O2:node_[0-9]+]]" [shape=ellipse, label="O"];
// CHECK: "[[ONE]]" -> "[[CX]]" [label="[\"0\", wcr sum]"];
// CHECK: "[[O]]" -> "[[LIB]]" [label="[\"0\"]"];
// CHECK: "[[NEST]]" -> "[[O2]]" [label="[\"0\"]"];
// CHECK: label="branch @neg: else";
// CHECK: label="state @idle";

// Inter-state edges join the anchors of the clusters they connect.
// CHECK: "[[INIT_A]]" -> "[[LOOP_A]]" [label="t = 0", ltail="[[INIT]]", lhead="[[LOOP]]"];
// CHECK-NEXT: "[[LOOP_A]]" -> "[[COND_A]]" [label="", ltail="[[LOOP]]", lhead="[[COND]]"];
// CHECK-NEXT: }

// Only the SDFG's own edges are drawn: two inter-state edges and twelve
// dataflow edges.
// EDGES-COUNT-14: ->
// EDGES-NOT: ->

sdfg.sdfg @drawn(%A: !sdfg.array<f64 ["N"]> as "A", %S: !sdfg.stream<i32 shape ["1"]> as "S", %O: !sdfg.array<f64 ["1"]> as "O") symbols {N = i64, t = i64} {
  sdfg.state @init {
  }
  sdfg.loop @time var "t" init "0" cond "t < 10" update "t + 1" {
    sdfg.state @step {
      %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
      %r = sdfg.map "scale" ["i" = "0:N"] ins("A" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("A" : !sdfg.array<f64 ["N"]>) {
      ^bb0(%in: !sdfg.array<f64 ["N"]>):
        %x = sdfg.tasklet "twice" ins("a" = %in["i"] : !sdfg.array<f64 ["N"]>) outs("b" : f64) code python "b = 2 * a"
        sdfg.exit ("A" = %x["i"] : f64)
      }
      %b = sdfg.access %A writes(%r["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
    }
  }
  sdfg.conditional @branch {
    sdfg.branch @pos if "N > 0" {
      sdfg.state @work {
        %s = sdfg.access %S : !sdfg.stream<i32 shape ["1"]>
        %c = sdfg.consume "drain" (%s["0"] : !sdfg.stream<i32 shape ["1"]>) pe "p" pes "2" outs("O" : !sdfg.array<f64 ["1"]>) {
        ^bb0(%e: i32):
          %t = sdfg.tasklet "one" ins("e" = %e["0"] : i32) outs("y" : f64) code python "y = 1.0"
          sdfg.exit ("O" = %t["0", wcr sum] : f64)
        }
        %o = sdfg.access %O writes(%c["0", wcr sum] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
        %l = sdfg.library "red" "dace.libraries.standard.nodes.reduce.Reduce" ins("_in" = %o["0"] : !sdfg.array<f64 ["1"]>) outs("_out" : !sdfg.array<f64 ["1"]>) properties {}
        %n = sdfg.nested "inner" ins("x" = %o["0"] : !sdfg.array<f64 ["1"]>) outs("y" : !sdfg.array<f64 ["1"]>) {
          sdfg.sdfg @inner(%x: !sdfg.array<f64 ["1"]> as "x", %y: !sdfg.array<f64 ["1"]> as "y") {
            sdfg.state @copy {
              %xa = sdfg.access %x : !sdfg.array<f64 ["1"]>
              %ya = sdfg.access %y writes(%xa["0"] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
            }
          }
        }
        %o2 = sdfg.access %O writes(%l["0"] : !sdfg.array<f64 ["1"]>, %n["0"] : !sdfg.array<f64 ["1"]>) : !sdfg.array<f64 ["1"]>
      }
    }
    sdfg.branch @neg {
      sdfg.state @idle {
      }
    }
  }
  sdfg.edge @init -> @time assign("t" = "0")
  sdfg.edge @time -> @branch
}
