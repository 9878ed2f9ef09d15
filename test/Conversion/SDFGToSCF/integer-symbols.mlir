// RUN: sdfg-opt %s --pass-pipeline='builtin.module(convert-sdfg-to-scf)' | FileCheck %s
// RUN: sdfg-run %s --function crc --set R=2 --set L=3 --check-bounds | FileCheck %s --check-prefix=CRC
// RUN: sdfg-run %s --function crc --set R=3 --set L=2 --check-bounds | FileCheck %s --check-prefix=CRC3

// Integer symbols as DaCe's simplification leaves them: scalars promoted
// to symbols that inter-state edges update with Python's bitwise operators
// (a CRC-16 loop, `crc = (crc >> 1) ^ 0xA001` while `crc & 1`), sizes and
// ranges that are symbolic powers (`R**L`), and symbols the program
// defines itself, which are not arguments of its function (DaCe's
// `free_symbols` does not list them either).

// Only R and L are arguments: crc, k and j are assigned before they are
// read on every edge that reads them.
// CHECK-LABEL: func.func @crc(
// CHECK-SAME: %{{.*}}: memref<?xi64>, %{{.*}}: index, %{{.*}}: index)
// The size R**L has integer code.
// CHECK: math.ipowi
// `i << 2` is `i * 4`; `^`, `>>` of a symbol and `&` are bitwise ops.
// CHECK-DAG: arith.xori
// CHECK-DAG: arith.andi
// CHECK-DAG: arith.shrsi

// out[i] = (i << 2) ^ (i >> R) for i < R**L, then out[0] = the CRC-16 of
// the bytes 0 .. R**L - 1: the sums Python computes for the same program.
// CRC: out: <i8[8] checksum 2.9050000000e4
// CRC3: out: <i8[9] checksum 5.0561000000e4
sdfg.sdfg @crc(%out: !sdfg.array<i64 ["R**L"]> as "out") symbols {R = i64, L = i64, crc = i64, k = i64, j = i64} {
  sdfg.state @fill {
    %r = sdfg.map "fill" ["i" = "0:R**L"] outs("out" : !sdfg.array<i64 ["R**L"]>) {
      %v = sdfg.tasklet "shift" outs("o" : i64) {
        %s = sdfg.sym "(i << 2) ^ (i >> R)" : i64
        sdfg.yield %s : i64
      }
      sdfg.exit("out" = %v["i"] : i64)
    }
    %o = sdfg.access %out writes(%r["0:R**L"] : !sdfg.array<i64 ["R**L"]>) : !sdfg.array<i64 ["R**L"]>
  }
  sdfg.state @byte_guard {
  }
  sdfg.state @bit_guard {
  }
  sdfg.state @odd {
  }
  sdfg.state @even {
  }
  sdfg.state @next_bit {
  }
  sdfg.state @next_byte {
  }
  sdfg.state @done {
    %v = sdfg.tasklet "store" outs("o" : i64) {
      %s = sdfg.sym "crc" : i64
      sdfg.yield %s : i64
    }
    %o = sdfg.access %out writes(%v["0"] : i64) : !sdfg.array<i64 ["R**L"]>
  }
  sdfg.edge @fill -> @byte_guard assign("crc" = "0", "k" = "0")
  sdfg.edge @byte_guard -> @bit_guard if "k < R**L" assign("crc" = "crc ^ k", "j" = "0")
  sdfg.edge @byte_guard -> @done if "not (k < R**L)"
  sdfg.edge @bit_guard -> @odd if "(j < 8) and (crc & 1)"
  sdfg.edge @bit_guard -> @even if "(j < 8) and not (crc & 1)"
  sdfg.edge @bit_guard -> @next_byte if "j >= 8"
  sdfg.edge @odd -> @next_bit assign("crc" = "(crc >> 1) ^ 40961")
  sdfg.edge @even -> @next_bit assign("crc" = "crc >> 1")
  sdfg.edge @next_bit -> @bit_guard assign("j" = "j + 1")
  sdfg.edge @next_byte -> @byte_guard assign("k" = "k + 1")
}
