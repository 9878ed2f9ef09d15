// RUN: sdfg-translate --emit-hls-testbench %s --split-input-file --verify-diagnostics

// The testbench reads and writes the program's arguments as .npy files,
// which have no integers of widths C++ has no type for (the kernel itself
// can take them: transients between processing elements are ap_int).

// expected-error @+1 {{--emit-hls-testbench: argument 'A' has `ap_int<12>` elements, which .npy files do not have}}
sdfg.sdfg @narrow(%A: !sdfg.array<i12 ["4"] storage FPGA_Global> as "A") {
  sdfg.state @s {
  }
}
