// RUN: sdfg-run %s --set N=1000 --emit-object %t.o | FileCheck %s --check-prefix=EXEC
// RUN: llvm-nm %t.o | FileCheck %s

// `sdfg-run --emit-object` writes the compiled program as an object file
// with its C interface, also when the program calls functions it declares
// (malloc and free for heap transients, the stream runtime).

// EXEC: out: <i8[1000] checksum 5.0050000000e5
// CHECK-DAG: T _mlir_ciface_heap_and_stream
// CHECK-DAG: U malloc
// CHECK-DAG: U free
// CHECK-DAG: U sdfg_stream_create
// CHECK-DAG: U sdfg_stream_pop_bulk
sdfg.sdfg @heap_and_stream(%out: !sdfg.array<i64 ["N"]> as "out") symbols {N = i64} {
  %t = sdfg.alloc "t" : !sdfg.array<i64 ["N"]>
  %s = sdfg.alloc "s" : !sdfg.stream<i64>
  sdfg.state @fill {
    %r = sdfg.map "m" ["i" = "0:N"] outs("t" : !sdfg.array<i64 ["N"]>) {
      %v = sdfg.tasklet "w" outs("o" : i64) {
        %i = sdfg.sym "i + 1" : i64
        sdfg.yield %i : i64
      }
      sdfg.exit ("t" = %v["i"] : i64)
    }
    %a = sdfg.access %t writes(%r["0:N"] : !sdfg.array<i64 ["N"]>) : !sdfg.array<i64 ["N"]>
    %b = sdfg.access %s writes(%a["0:N" -> "0"] : !sdfg.array<i64 ["N"]>) : !sdfg.stream<i64>
    %o = sdfg.access %out writes(%b["0" -> "0:N"] : !sdfg.stream<i64>) : !sdfg.array<i64 ["N"]>
  }
}
