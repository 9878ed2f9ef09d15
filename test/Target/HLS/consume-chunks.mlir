// RUN: sdfg-opt %s --sdfg-fpga-transform | sdfg-translate --emit-hls | FileCheck %s
// RUN: %S/Inputs/simulate.sh %s %t %hls_include N=10 | FileCheck %s --check-prefix=SIM

// A consume scope that takes chunks (DaCe's Consume<CHUNKSIZE>): each
// round reads up to the chunk size of elements into an on-chip array, and
// the body sees how many it took as `__dace_c_numelems`. The chunk size
// must be a constant.

// CHECK-LABEL: static void c_{{[0-9]+}}(int64_t *fpga_out, hls::stream<int32_t, 16> &s) {
// CHECK-NEXT: for (;;) {
// CHECK-NEXT: if (s.empty()) break;
// CHECK-NEXT: int32_t [[C:chunk_[0-9]+]][4];
// CHECK-NEXT: long long [[N:numelems_[0-9]+]] = 0;
// CHECK-NEXT: for (long long [[K:k_[0-9]+]] = 0; [[K]] < 4; ++[[K]]) {
// CHECK-NEXT: #pragma HLS PIPELINE II=1
// CHECK-NEXT: if (s.empty()) break;
// CHECK-NEXT: [[C]][[[N]]] = s.read();
// CHECK-NEXT: [[N]] += 1;
// CHECK: = (long long)([[N]]);
// CHECK: = [[C]][0 + {{.*}}];

// SIM: 1 outputs match
sdfg.sdfg @chunks(%out: !sdfg.array<i64 ["2"]> as "out") symbols {N = i64} {
  %s = sdfg.alloc "s" : !sdfg.stream<i32 buffer "16">
  sdfg.state @fill {
    %r = sdfg.map "m" ["i" = "0:N"] schedule Sequential outs("s" : !sdfg.stream<i32 buffer "16">) {
      %v = sdfg.tasklet "w" outs("o" : i32) {
        %i = sdfg.sym "i" : i32
        sdfg.yield %i : i32
      }
      sdfg.exit ("s" = %v["0"] : i32)
    }
    %a = sdfg.access %s writes(%r["0"] : !sdfg.stream<i32 buffer "16">) : !sdfg.stream<i32 buffer "16">
  }
  sdfg.state @init {
    %z = sdfg.map "z" ["j" = "0:2"] outs("out" : !sdfg.array<i64 ["2"]>) {
      %t = sdfg.tasklet "zero" outs("o" : i64) {
        %c = arith.constant 0 : i64
        sdfg.yield %c : i64
      }
      sdfg.exit ("out" = %t["j"] : i64)
    }
    %o = sdfg.access %out writes(%z["0:2"] : !sdfg.array<i64 ["2"]>) : !sdfg.array<i64 ["2"]>
  }
  sdfg.state @sum {
    %a = sdfg.access %s : !sdfg.stream<i32 buffer "16">
    %c = sdfg.consume "c" (%a["0"] : !sdfg.stream<i32 buffer "16">) pe "p" pes "2" chunksize "4" outs("out" : !sdfg.array<i64 ["2"]>) {
    ^bb0(%e: !sdfg.array<i32 ["4"]>):
      %t:2 = sdfg.tasklet "add" ins("x" = %e["0:4", data "s"] : !sdfg.array<i32 ["4"]>) outs("sum" : i64, "one" : i64) {
      ^bb0(%x: memref<4xi32>):
        %n = sdfg.sym "__dace_c_numelems" : index
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %zero = arith.constant 0 : i64
        %sum = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i64) {
          %xk = memref.load %x[%k] : memref<4xi32>
          %wide = arith.extsi %xk : i32 to i64
          %next = arith.addi %acc, %wide : i64
          scf.yield %next : i64
        }
        %one = arith.constant 1 : i64
        sdfg.yield %sum, %one : i64, i64
      }
      sdfg.exit ("out" = %t#0["0", wcr sum] : i64, "out" = %t#1["1", wcr sum] : i64)
    }
    %o = sdfg.access %out writes(%c["0:2", wcr sum] : !sdfg.array<i64 ["2"]>) : !sdfg.array<i64 ["2"]>
  }
  sdfg.edge @fill -> @init
  sdfg.edge @init -> @sum
}
