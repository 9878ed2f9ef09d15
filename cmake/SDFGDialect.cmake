# Shared CMake logic for the dialect builds driven from build.rs: finds the
# Debian LLVM/MLIR 19 packages and offers `sdfg_add_dialect_tablegen`, which
# runs mlir-tblgen over one dialect's ODS files.

find_package(MLIR REQUIRED CONFIG)
list(APPEND CMAKE_MODULE_PATH "${MLIR_CMAKE_DIR}" "${LLVM_CMAKE_DIR}")
include(TableGen)
include(AddLLVM)
include(AddMLIR)

include_directories(SYSTEM ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS})
separate_arguments(SDFG_LLVM_DEFINITIONS NATIVE_COMMAND "${LLVM_DEFINITIONS}")
add_definitions(${SDFG_LLVM_DEFINITIONS})
if(NOT LLVM_ENABLE_RTTI)
  add_compile_options(-fno-rtti)
endif()
set(CMAKE_CXX_STANDARD 17)
set(CMAKE_POSITION_INDEPENDENT_CODE ON)

# sdfg_add_dialect_tablegen(<prefix> <dialect> <include dir> <td file>)
# Generates <prefix>{Ops,Types,Attrs,Enums,Dialect}.{h,cpp}.inc next to the
# build tree's include/<dialect>/ and a target <prefix>IncGen.
function(sdfg_add_dialect_tablegen prefix dialect incdir tdfile)
  set(LLVM_TARGET_DEFINITIONS ${tdfile})
  set(MLIR_TABLEGEN_EXE mlir-tblgen)
  set(TABLEGEN_EXE ${MLIR_TABLEGEN_EXE})
  set(LLVM_TABLEGEN_FLAGS -I ${incdir})
  mlir_tablegen(${dialect}/${prefix}Ops.h.inc -gen-op-decls)
  mlir_tablegen(${dialect}/${prefix}Ops.cpp.inc -gen-op-defs)
  mlir_tablegen(${dialect}/${prefix}Types.h.inc -gen-typedef-decls -typedefs-dialect=${dialect})
  mlir_tablegen(${dialect}/${prefix}Types.cpp.inc -gen-typedef-defs -typedefs-dialect=${dialect})
  mlir_tablegen(${dialect}/${prefix}Attrs.h.inc -gen-attrdef-decls -attrdefs-dialect=${dialect})
  mlir_tablegen(${dialect}/${prefix}Attrs.cpp.inc -gen-attrdef-defs -attrdefs-dialect=${dialect})
  mlir_tablegen(${dialect}/${prefix}Enums.h.inc -gen-enum-decls)
  mlir_tablegen(${dialect}/${prefix}Enums.cpp.inc -gen-enum-defs)
  mlir_tablegen(${dialect}/${prefix}Dialect.h.inc -gen-dialect-decls -dialect=${dialect})
  mlir_tablegen(${dialect}/${prefix}Dialect.cpp.inc -gen-dialect-defs -dialect=${dialect})
  mlir_tablegen(${dialect}/${prefix}Ops.md -gen-dialect-doc -dialect=${dialect})
  add_public_tablegen_target(${prefix}IncGen)
endfunction()
