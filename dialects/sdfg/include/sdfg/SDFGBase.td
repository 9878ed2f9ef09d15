//===- SDFGBase.td - sdfg dialect and enums ----------------*- tablegen -*-===//
//
// The `sdfg` dialect and the enumerations it shares with DaCe: schedules,
// storage locations, allocation lifetimes, write-conflict resolutions and
// tasklet languages. Enumerant spellings are DaCe's own so that `.sdfg`
// files map onto them one to one.
//
//===----------------------------------------------------------------------===//

#ifndef SDFG_BASE_TD
#define SDFG_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def SDFG_Dialect : Dialect {
  let name = "sdfg";
  let cppNamespace = "::mlir::sdfg";
  let summary = "DaCe's Stateful DataFlow multiGraph (SDFG) as an MLIR dialect";
  let description = [{
    The `sdfg` dialect represents every element of a DaCe SDFG. A `sdfg.sdfg`
    op holds data containers (its arguments and `sdfg.alloc` transients),
    control-flow blocks (`sdfg.state`, `sdfg.loop`, `sdfg.conditional`, ...)
    and inter-state edges (`sdfg.edge`). The region of a `sdfg.state` is that
    state's acyclic dataflow multigraph: every node is one op, every edge is
    one SSA use, and the memlet of an edge is an attribute aligned with that
    use. Symbolic expressions are DaCe/Python-syntax strings and ranges are
    Python slices with exclusive ends.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
}

def SDFG_ScheduleType : I32EnumAttr<"ScheduleType", "DaCe schedule type", [
  I32EnumAttrCase<"Default", 0>,
  I32EnumAttrCase<"Sequential", 1>,
  I32EnumAttrCase<"MPI", 2>,
  I32EnumAttrCase<"CPU_Multicore", 3>,
  I32EnumAttrCase<"CPU_Persistent", 4>,
  I32EnumAttrCase<"Unrolled", 5>,
  I32EnumAttrCase<"SVE_Map", 6>,
  I32EnumAttrCase<"GPU_Default", 7>,
  I32EnumAttrCase<"GPU_Device", 8>,
  I32EnumAttrCase<"GPU_ThreadBlock", 9>,
  I32EnumAttrCase<"GPU_ThreadBlock_Dynamic", 10>,
  I32EnumAttrCase<"GPU_Persistent", 11>,
  I32EnumAttrCase<"FPGA_Device", 12>,
  I32EnumAttrCase<"FPGA_Multi_Pumped", 13>,
  I32EnumAttrCase<"Snitch", 14>,
  I32EnumAttrCase<"Snitch_Multicore", 15>
]> {
  let cppNamespace = "::mlir::sdfg";
}

def SDFG_StorageType : I32EnumAttr<"StorageType", "DaCe storage location", [
  I32EnumAttrCase<"Default", 0>,
  I32EnumAttrCase<"Register", 1>,
  I32EnumAttrCase<"CPU_Pinned", 2>,
  I32EnumAttrCase<"CPU_Heap", 3>,
  I32EnumAttrCase<"CPU_ThreadLocal", 4>,
  I32EnumAttrCase<"GPU_Global", 5>,
  I32EnumAttrCase<"GPU_Shared", 6>,
  I32EnumAttrCase<"FPGA_Global", 7>,
  I32EnumAttrCase<"FPGA_Local", 8>,
  I32EnumAttrCase<"FPGA_Registers", 9>,
  I32EnumAttrCase<"FPGA_ShiftRegister", 10>,
  I32EnumAttrCase<"SVE_Register", 11>,
  I32EnumAttrCase<"Snitch_TCDM", 12>,
  I32EnumAttrCase<"Snitch_SSR", 13>
]> {
  let cppNamespace = "::mlir::sdfg";
}

def SDFG_LifetimeType : I32EnumAttr<"LifetimeType",
    "DaCe allocation lifetime of a transient", [
  I32EnumAttrCase<"Scope", 0>,
  I32EnumAttrCase<"State", 1>,
  I32EnumAttrCase<"SDFG", 2>,
  I32EnumAttrCase<"Global", 3>,
  I32EnumAttrCase<"Persistent", 4>,
  I32EnumAttrCase<"External", 5>
]> {
  let cppNamespace = "::mlir::sdfg";
}

def SDFG_WCRKind : I32EnumAttr<"WCRKind", "write-conflict resolution", [
  I32EnumAttrCase<"none", 0>,
  I32EnumAttrCase<"sum", 1>,
  I32EnumAttrCase<"product", 2>,
  I32EnumAttrCase<"min", 3>,
  I32EnumAttrCase<"max", 4>,
  I32EnumAttrCase<"logical_and", 5>,
  I32EnumAttrCase<"logical_or", 6>,
  I32EnumAttrCase<"logical_xor", 7>,
  I32EnumAttrCase<"bitwise_and", 8>,
  I32EnumAttrCase<"bitwise_or", 9>,
  I32EnumAttrCase<"bitwise_xor", 10>,
  I32EnumAttrCase<"exchange", 11>,
  I32EnumAttrCase<"sub", 12>,
  I32EnumAttrCase<"div", 13>,
  I32EnumAttrCase<"custom", 14>
]> {
  let cppNamespace = "::mlir::sdfg";
}

def SDFG_Language : I32EnumAttr<"Language", "tasklet code language", [
  I32EnumAttrCase<"python", 0>,
  I32EnumAttrCase<"cpp", 1>,
  I32EnumAttrCase<"mlir", 2>
]> {
  let cppNamespace = "::mlir::sdfg";
}

#endif // SDFG_BASE_TD
