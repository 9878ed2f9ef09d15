func.func @missing(%x: memref<?xf64>) {
  // expected-error @+1 {{'nothing' does not name an 'sdfg.sdfg'}}
  sdfg.invoke @nothing(%x : memref<?xf64>) symbols []()
  return
}

// -----

sdfg.sdfg @two(%x: !sdfg.array<f64 ["4"]> as "x", %y: !sdfg.array<f64 ["4"]> as "y") {
  sdfg.state @s {
  }
}
func.func @arity(%x: memref<4xf64>) {
  // expected-error @+1 {{passes 1 memrefs but 'two' takes 2 containers}}
  sdfg.invoke @two(%x : memref<4xf64>) symbols []()
  return
}

// -----

sdfg.sdfg @one(%x: !sdfg.array<f64 ["N"]> as "x") symbols {N = i64} {
  sdfg.state @s {
  }
}
func.func @names(%x: memref<?xf64>, %n: index) {
  // expected-error @+1 {{names 2 symbols but binds 1 values}}
  sdfg.invoke @one(%x : memref<?xf64>) symbols ["N", "M"](%n)
  return
}
