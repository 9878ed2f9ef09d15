// RUN: mlir-opt %s %upstream_lower | %mlir_run | grep -v base@ > %t.expected
// RUN: sdfg-opt %s --convert-to-sdfg --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.actual
// RUN: diff %t.expected %t.actual
// RUN: sdfg-opt %s --sdfg-from-upstream --sdfg-lower-to-llvm 2>/dev/null | %mlir_run | grep -v base@ > %t.raised
// RUN: diff %t.expected %t.raised
// RUN: sdfg-opt %s --convert-to-sdfg --convert-sdfg-to-scf 2>/dev/null | mlir-opt %upstream_lower | %mlir_run | grep -v base@ > %t.upstream
// RUN: diff %t.expected %t.upstream
// RUN: FileCheck %s < %t.actual
// RUN: sdfg-opt %s --convert-to-sdfg 2>/dev/null | FileCheck %s --check-prefix=SDFG

// Loop bounds read from memory: sparse matrix-vector product in CSR form
// (each row's range comes from the row pointers) and a loop whose trip
// count is stored in an array. The loaded index goes to an index scalar,
// then into a symbol assigned on the edge into the loop, as DaCe writes
// `n = A[i]` before `for j in range(n)`.

// SDFG-LABEL: sdfg.sdfg @spmv_sdfg
// SDFG: sdfg.map
// SDFG: sdfg.nested
// SDFG: sdfg.alloc "[[LO:v[0-9]*]]" : !sdfg.scalar<index>
// SDFG: sdfg.loop @{{.*}} var "{{.*}}" init "[[LO]]_sym"
// SDFG: sdfg.edge @{{.*}} -> @{{.*}} assign("[[LO]]_sym" = "[[LO]]", "{{.*}}_sym" = "{{.*}}")
// SDFG-LABEL: sdfg.sdfg @counted_sdfg
// SDFG: sdfg.loop @{{.*}} cond "{{.*}} < v_sym"
// CHECK: [0.5625,  2,  0,  -0.1875,  -0.25]
// CHECK-NEXT: [1.5,  -0.5,  3,  0.5,  -0.5]

func.func private @printMemrefF64(memref<*xf64>) attributes {llvm.emit_c_interface}
func.func private @printF64(f64)
func.func private @printNewline()

func.func @init1(%A: memref<?xf64>, %seed: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c11 = arith.constant 11 : index
  %q = arith.constant 0.25 : f64
  %one = arith.constant 1.0 : f64
  %n = memref.dim %A, %c0 : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %k = arith.addi %i, %seed : index
    %k7 = arith.muli %k, %c7 : index
    %r = arith.remui %k7, %c11 : index
    %ri = arith.index_cast %r : index to i64
    %f = arith.sitofp %ri : i64 to f64
    %g = arith.mulf %f, %q : f64
    %h = arith.subf %g, %one : f64
    memref.store %h, %A[%i] : memref<?xf64>
  }
  return
}
func.func @spmv(%rowptr: memref<?xi32>, %cols: memref<?xi32>, %vals: memref<?xf64>, %x: memref<?xf64>, %y: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %n = memref.dim %y, %c0 : memref<?xf64>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %i1 = arith.addi %i, %c1 : index
    %lo32 = memref.load %rowptr[%i] : memref<?xi32>
    %hi32 = memref.load %rowptr[%i1] : memref<?xi32>
    %lo = arith.index_cast %lo32 : i32 to index
    %hi = arith.index_cast %hi32 : i32 to index
    %sum = scf.for %j = %lo to %hi step %c1 iter_args(%acc = %zero) -> f64 {
      %c32 = memref.load %cols[%j] : memref<?xi32>
      %c = arith.index_cast %c32 : i32 to index
      %a = memref.load %vals[%j] : memref<?xf64>
      %b = memref.load %x[%c] : memref<?xf64>
      %p = arith.mulf %a, %b : f64
      %s = arith.addf %acc, %p : f64
      scf.yield %s : f64
    }
    memref.store %sum, %y[%i] : memref<?xf64>
  }
  return
}

func.func @counted(%len: memref<2xi32>, %x: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f64
  %n32 = memref.load %len[%c1] : memref<2xi32>
  %n = arith.index_cast %n32 : i32 to index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf64>
    %w = arith.mulf %v, %two : f64
    memref.store %w, %x[%i] : memref<?xf64>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c9 = arith.constant 9 : index
  // A 5 x 5 matrix with 9 nonzeros; row 2 is empty.
  %rowptr = memref.alloc(%c5) : memref<?xi32>
  %rp = memref.alloc(%c9) : memref<?xi32>
  %r0 = arith.constant 0 : i32
  %r1 = arith.constant 2 : i32
  %r2 = arith.constant 5 : i32
  %r3 = arith.constant 5 : i32
  %r4 = arith.constant 7 : i32
  %r5 = arith.constant 9 : i32
  %rowptr6 = memref.alloc() : memref<6xi32>
  memref.store %r0, %rowptr6[%c0] : memref<6xi32>
  memref.store %r1, %rowptr6[%c1] : memref<6xi32>
  memref.store %r2, %rowptr6[%c2] : memref<6xi32>
  %c3 = arith.constant 3 : index
  memref.store %r3, %rowptr6[%c3] : memref<6xi32>
  memref.store %r4, %rowptr6[%c4] : memref<6xi32>
  memref.store %r5, %rowptr6[%c5] : memref<6xi32>
  %rowptr_d = memref.cast %rowptr6 : memref<6xi32> to memref<?xi32>
  %cols = memref.alloc(%c9) : memref<?xi32>
  scf.for %k = %c0 to %c9 step %c1 {
    %k7 = arith.muli %k, %c3 : index
    %kk = arith.remui %k7, %c5 : index
    %k32 = arith.index_cast %kk : index to i32
    memref.store %k32, %cols[%k] : memref<?xi32>
  }
  %vals = memref.alloc(%c9) : memref<?xf64>
  call @init1(%vals, %c2) : (memref<?xf64>, index) -> ()
  %x = memref.alloc(%c5) : memref<?xf64>
  call @init1(%x, %c1) : (memref<?xf64>, index) -> ()
  %y = memref.alloc(%c5) : memref<?xf64>
  call @spmv(%rowptr_d, %cols, %vals, %x, %y) : (memref<?xi32>, memref<?xi32>, memref<?xf64>, memref<?xf64>, memref<?xf64>) -> ()
  %uy = memref.cast %y : memref<?xf64> to memref<*xf64>
  call @printMemrefF64(%uy) : (memref<*xf64>) -> ()
  %len = memref.alloc() : memref<2xi32>
  %l3 = arith.constant 3 : i32
  memref.store %l3, %len[%c1] : memref<2xi32>
  call @counted(%len, %x) : (memref<2xi32>, memref<?xf64>) -> ()
  %ux = memref.cast %x : memref<?xf64> to memref<*xf64>
  call @printMemrefF64(%ux) : (memref<*xf64>) -> ()
  return
}
