// RUN: sdfg-translate --sdfg-to-dot %s | FileCheck %s

// Inter-state edge labels combine the condition and the assignments, one
// per line; every SDFG of the module becomes its own digraph.

// CHECK-LABEL: digraph "machine" {
// CHECK: label="state @a";
// CHECK: label="state @b";
// CHECK: -> {{.*}} [label="if i < N\ni = i + 1\nj = 0", ltail=
// CHECK: -> {{.*}} [label="if not (i < N)", ltail=
// CHECK-LABEL: digraph "other" {
// CHECK: label="region @r";
// CHECK: label="call_region @f";
sdfg.sdfg @machine() symbols {N = i64, i = i64, j = i64} {
  sdfg.state @a {
  }
  sdfg.state @b {
  }
  sdfg.edge @a -> @a if "i < N" assign("i" = "i + 1", "j" = "0")
  sdfg.edge @a -> @b if "not (i < N)"
}
sdfg.sdfg @other() {
  sdfg.region @r {
    sdfg.state @s {
    }
  }
  sdfg.call_region @f {
    sdfg.state @t {
    }
  }
  sdfg.edge @r -> @f
}
