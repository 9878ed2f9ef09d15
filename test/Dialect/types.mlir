// RUN: sdfg-opt %s -split-input-file | sdfg-opt -split-input-file | FileCheck %s
// RUN: sdfg-opt %s -split-input-file --mlir-print-op-generic | sdfg-opt -split-input-file | FileCheck %s

// Round trips of the data container types with every optional parameter.

// An array keeps its element type and symbolic shape; default strides,
// offsets and storage are not printed.
// CHECK-LABEL: sdfg.sdfg @array_plain
// CHECK-SAME: %{{.*}}: !sdfg.array<f64 ["2", "N"]> as "A"
// CHECK-SAME: %{{.*}}: !sdfg.array<i32 ["N + 1", "M*K", "4"]> as "B"
// CHECK-SAME: %{{.*}}: !sdfg.array<index ["1"]> as "C"
sdfg.sdfg @array_plain(%A: !sdfg.array<f64 ["2", "N"]> as "A",
                       %B: !sdfg.array<i32 ["N + 1", "M*K", "4"]> as "B",
                       %C: !sdfg.array<index ["1"]> as "C")
    symbols {K = i64, M = i64, N = i64} {
  sdfg.state @s {
  }
}

// -----

// Strides, offsets and storage are printed in that order.
// CHECK-LABEL: sdfg.sdfg @array_full
// CHECK-SAME: !sdfg.array<f32 ["M", "N"] strides ["1", "M"]>
// CHECK-SAME: !sdfg.array<f32 ["M", "N"] offset ["1", "-1"]>
// CHECK-SAME: !sdfg.array<f32 ["M", "N"] strides ["1", "M"] offset ["0", "0"] storage GPU_Global>
sdfg.sdfg @array_full(%A: !sdfg.array<f32 ["M", "N"] strides ["1", "M"]> as "A",
                      %B: !sdfg.array<f32 ["M", "N"] offset ["1", "-1"]> as "B",
                      %C: !sdfg.array<f32 ["M", "N"] strides ["1", "M"] offset ["0", "0"] storage GPU_Global> as "C")
    symbols {M = i64, N = i64} {
  sdfg.state @s {
  }
}

// -----

// A storage written as Default is the default and is not printed.
// CHECK-LABEL: sdfg.sdfg @storage_default
// CHECK-SAME: !sdfg.array<f64 ["N"]> as "A"
sdfg.sdfg @storage_default(%A: !sdfg.array<f64 ["N"] storage Default> as "A") symbols {N = i64} {
  sdfg.state @s {
  }
}

// -----

// Every storage location of DaCe is spelled as in DaCe.
// CHECK-LABEL: sdfg.sdfg @storages
// CHECK-SAME: storage Register>
// CHECK-SAME: storage CPU_Pinned>
// CHECK-SAME: storage CPU_Heap>
// CHECK-SAME: storage CPU_ThreadLocal>
// CHECK-SAME: storage GPU_Global>
// CHECK-SAME: storage GPU_Shared>
// CHECK-SAME: storage FPGA_Global>
// CHECK-SAME: storage FPGA_Local>
// CHECK-SAME: storage FPGA_Registers>
// CHECK-SAME: storage FPGA_ShiftRegister>
// CHECK-SAME: storage SVE_Register>
// CHECK-SAME: storage Snitch_TCDM>
// CHECK-SAME: storage Snitch_SSR>
sdfg.sdfg @storages(%a1: !sdfg.array<f64 ["4"] storage Register> as "a1",
                    %a2: !sdfg.array<f64 ["4"] storage CPU_Pinned> as "a2",
                    %a3: !sdfg.array<f64 ["4"] storage CPU_Heap> as "a3",
                    %a4: !sdfg.array<f64 ["4"] storage CPU_ThreadLocal> as "a4",
                    %a5: !sdfg.array<f64 ["4"] storage GPU_Global> as "a5",
                    %a6: !sdfg.array<f64 ["4"] storage GPU_Shared> as "a6",
                    %a7: !sdfg.array<f64 ["4"] storage FPGA_Global> as "a7",
                    %a8: !sdfg.array<f64 ["4"] storage FPGA_Local> as "a8",
                    %a9: !sdfg.array<f64 ["4"] storage FPGA_Registers> as "a9",
                    %a10: !sdfg.array<f64 ["4"] storage FPGA_ShiftRegister> as "a10",
                    %a11: !sdfg.array<f64 ["4"] storage SVE_Register> as "a11",
                    %a12: !sdfg.array<f64 ["4"] storage Snitch_TCDM> as "a12",
                    %a13: !sdfg.array<f64 ["4"] storage Snitch_SSR> as "a13") {
  sdfg.state @s {
  }
}

// -----

// Views and references take the same parameters as arrays.
// CHECK-LABEL: sdfg.sdfg @views_and_refs
// CHECK-SAME: !sdfg.view<f64 ["N"]> as "V"
// CHECK-SAME: !sdfg.view<f64 ["N"] strides ["M"] offset ["0"] storage CPU_Heap> as "W"
// CHECK-SAME: !sdfg.ref<f64 ["N"]> as "R"
// CHECK-SAME: !sdfg.ref<i8 ["N", "M"] strides ["M", "1"] storage GPU_Global> as "Q"
sdfg.sdfg @views_and_refs(%V: !sdfg.view<f64 ["N"]> as "V",
                          %W: !sdfg.view<f64 ["N"] strides ["M"] offset ["0"] storage CPU_Heap> as "W",
                          %R: !sdfg.ref<f64 ["N"]> as "R",
                          %Q: !sdfg.ref<i8 ["N", "M"] strides ["M", "1"] storage GPU_Global> as "Q")
    symbols {M = i64, N = i64} {
  sdfg.state @s {
  }
}

// -----

// A scalar has an element type and an optional storage location.
// CHECK-LABEL: sdfg.sdfg @scalars
// CHECK-SAME: !sdfg.scalar<f64> as "s"
// CHECK-SAME: !sdfg.scalar<i32 storage Register> as "r"
// CHECK-SAME: !sdfg.scalar<ui32> as "u"
// CHECK-SAME: !sdfg.scalar<complex<f32>> as "c"
sdfg.sdfg @scalars(%s: !sdfg.scalar<f64> as "s",
                   %r: !sdfg.scalar<i32 storage Register> as "r",
                   %u: !sdfg.scalar<ui32> as "u",
                   %c: !sdfg.scalar<complex<f32>> as "c") {
  sdfg.state @s {
  }
}

// -----

// A shaped stream prints its shape, buffer size and storage when present.
// CHECK-LABEL: sdfg.sdfg @shaped_streams
// CHECK-SAME: !sdfg.stream<i32 shape ["1"]> as "a"
// CHECK-SAME: !sdfg.stream<f32 shape ["P"] buffer "16"> as "b"
// CHECK-SAME: !sdfg.stream<f32 shape ["P", "Q"] buffer "16" storage FPGA_Local> as "c"
// CHECK-SAME: !sdfg.stream<f32 shape ["P"] storage FPGA_Local> as "d"
sdfg.sdfg @shaped_streams(%a: !sdfg.stream<i32 shape ["1"]> as "a",
                          %b: !sdfg.stream<f32 shape ["P"] buffer "16"> as "b",
                          %c: !sdfg.stream<f32 shape ["P", "Q"] buffer "16" storage FPGA_Local> as "c",
                          %d: !sdfg.stream<f32 shape ["P"] storage FPGA_Local> as "d")
    symbols {P = i64, Q = i64} {
  sdfg.state @s {
  }
}

// -----

// Transients declared with sdfg.alloc accept every container type.
// CHECK-LABEL: sdfg.sdfg @transient_types
// CHECK: %[[T:.*]] = sdfg.alloc "t" : !sdfg.array<f64 ["N"] storage GPU_Shared>
// CHECK: %[[S:.*]] = sdfg.alloc "s" : !sdfg.scalar<i64>
// CHECK: %[[V:.*]] = sdfg.alloc "v" : !sdfg.view<f64 ["N"]>
// CHECK: %[[R:.*]] = sdfg.alloc "r" : !sdfg.ref<f64 ["N"]>
// CHECK: %[[Q:.*]] = sdfg.alloc "q" : !sdfg.stream<i32 shape ["4"] buffer "2">
sdfg.sdfg @transient_types() symbols {N = i64} {
  %t = sdfg.alloc "t" : !sdfg.array<f64 ["N"] storage GPU_Shared>
  %s = sdfg.alloc "s" : !sdfg.scalar<i64>
  %v = sdfg.alloc "v" : !sdfg.view<f64 ["N"]>
  %r = sdfg.alloc "r" : !sdfg.ref<f64 ["N"]>
  %q = sdfg.alloc "q" : !sdfg.stream<i32 shape ["4"] buffer "2">
  sdfg.state @s {
  }
}

// -----

// DaCe's pointer, struct, opaque and callback type classes are element and
// symbol types: struct fields keep their order and their length fields.
// CHECK-LABEL: sdfg.sdfg @element_types
// CHECK-SAME: !sdfg.array<!sdfg.ptr<f32> ["N"]> as "P"
// CHECK-SAME: !sdfg.array<!sdfg.struct<"csr" fields ["nnz", "data"] types [i32, !sdfg.ptr<f32>] lengths {data = "nnz"} bytes 16> ["4"]> as "S"
// CHECK-SAME: !sdfg.scalar<!sdfg.opaque<"MPI_Request">> as "R"
// CHECK-SAME: !sdfg.scalar<!sdfg.ptr<none>> as "V"
// CHECK-SAME: symbols {N = i64, cb = !sdfg.callback<[!sdfg.scalar<i32>, none] -> [!sdfg.scalar<i64>]>}
sdfg.sdfg @element_types(%P: !sdfg.array<!sdfg.ptr<f32> ["N"]> as "P",
    %S: !sdfg.array<!sdfg.struct<"csr" fields ["nnz", "data"] types [i32, !sdfg.ptr<f32>] lengths {data = "nnz"} bytes 16> ["4"]> as "S",
    %R: !sdfg.scalar<!sdfg.opaque<"MPI_Request">> as "R",
    %V: !sdfg.scalar<!sdfg.ptr<none>> as "V")
    symbols {N = i64, cb = !sdfg.callback<[!sdfg.scalar<i32>, none] -> [!sdfg.scalar<i64>]>} {
  sdfg.state @s {
  }
}

// -----

// A structure is a container of named member containers; `sdfg.member`
// names one (DaCe's `B.indptr`), and access nodes may access it.
// CHECK-LABEL: sdfg.sdfg @structure
// CHECK-SAME: %[[B:.*]]: !sdfg.structure<"CSRMatrix" members ["indptr", "data"] types [!sdfg.array<i32 ["M + 1"]>, !sdfg.array<f32 ["nnz"]>]> as "B"
// CHECK: %[[INDPTR:.*]] = sdfg.member %[[B]] "indptr"
// CHECK-SAME: -> !sdfg.array<i32 ["M + 1"]>
// CHECK: sdfg.access %[[INDPTR]]
sdfg.sdfg @structure(%B: !sdfg.structure<"CSRMatrix" members ["indptr", "data"] types [!sdfg.array<i32 ["M + 1"]>, !sdfg.array<f32 ["nnz"]>]> as "B")
    symbols {M = i64, nnz = i64} {
  %indptr = sdfg.member %B "indptr" : !sdfg.structure<"CSRMatrix" members ["indptr", "data"] types [!sdfg.array<i32 ["M + 1"]>, !sdfg.array<f32 ["nnz"]>]> -> !sdfg.array<i32 ["M + 1"]>
  sdfg.state @s {
    %a = sdfg.access %indptr : !sdfg.array<i32 ["M + 1"]>
  }
}
