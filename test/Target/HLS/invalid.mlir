// RUN: sdfg-translate --emit-hls %s --split-input-file --verify-diagnostics

// What HLS cannot synthesize, and what the emitter does not support yet,
// is an error at the op that has it.

// A program that was not made FPGA-scheduled reads host memory.
// expected-error @+1 {{container 'A' is in Default storage, which the kernel cannot access (run sdfg-fpga-transform first)}}
sdfg.sdfg @host(%A: !sdfg.array<f64 ["N"]> as "A") symbols {N = i64} {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"]>
    %m = sdfg.map "m" ["i" = "0:N"] ins("a" = %a["0:N"] : !sdfg.array<f64 ["N"]>) outs("A" : !sdfg.array<f64 ["N"]>) {
    ^bb0(%ai: !sdfg.array<f64 ["N"]>):
      %t = sdfg.tasklet "t" ins("x" = %ai["i"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) {
      ^bb0(%x: f64):
        sdfg.yield %x : f64
      }
      sdfg.exit ("A" = %t["i"] : f64)
    }
    %w = sdfg.access %A writes(%m["0:N"] : !sdfg.array<f64 ["N"]>) : !sdfg.array<f64 ["N"]>
  }
}

// -----

// Python tasklet code is foreign to HLS.
sdfg.sdfg @python(%A: !sdfg.array<f64 ["4"] storage FPGA_Global> as "A") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4"] storage FPGA_Global>
    %m = sdfg.map "m" ["i" = "0:4"] schedule FPGA_Device ins("a" = %a["0:4"] : !sdfg.array<f64 ["4"] storage FPGA_Global>) outs("A" : !sdfg.array<f64 ["4"] storage FPGA_Global>) {
    ^bb0(%ai: !sdfg.array<f64 ["4"] storage FPGA_Global>):
      // expected-error @+1 {{has foreign Python code, which HLS cannot synthesize; translate it to an MLIR body first}}
      %t = sdfg.tasklet "t" ins("x" = %ai["i"] : !sdfg.array<f64 ["4"] storage FPGA_Global>) outs("y" : f64) code python "y = x if x > 0 else -x"
      sdfg.exit ("A" = %t["i"] : f64)
    }
    %w = sdfg.access %A writes(%m["0:4"] : !sdfg.array<f64 ["4"] storage FPGA_Global>) : !sdfg.array<f64 ["4"] storage FPGA_Global>
  }
}

// -----

// C++ tasklet code that allocates memory, or uses a standard container,
// is refused: it is written as it is, and HLS cannot synthesize it.
sdfg.sdfg @cpp_malloc(%A: !sdfg.array<f64 ["4"] storage FPGA_Global> as "A") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4"] storage FPGA_Global>
    %m = sdfg.map "m" ["i" = "0:4"] schedule FPGA_Device ins("a" = %a["0:4"] : !sdfg.array<f64 ["4"] storage FPGA_Global>) outs("A" : !sdfg.array<f64 ["4"] storage FPGA_Global>) {
    ^bb0(%ai: !sdfg.array<f64 ["4"] storage FPGA_Global>):
      // expected-error @+1 {{has C++ code that allocates memory dynamically (`malloc`), which HLS cannot synthesize}}
      %t = sdfg.tasklet "t" ins("x" = %ai["i"] : !sdfg.array<f64 ["4"] storage FPGA_Global>) outs("y" : f64) code cpp "double *p = (double *)malloc(8); *p = x; y = *p;"
      sdfg.exit ("A" = %t["i"] : f64)
    }
    %w = sdfg.access %A writes(%m["0:4"] : !sdfg.array<f64 ["4"] storage FPGA_Global>) : !sdfg.array<f64 ["4"] storage FPGA_Global>
  }
}

// -----

sdfg.sdfg @cpp_vector(%A: !sdfg.array<f64 ["4"] storage FPGA_Global> as "A") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4"] storage FPGA_Global>
    %m = sdfg.map "m" ["i" = "0:4"] schedule FPGA_Device ins("a" = %a["0:4"] : !sdfg.array<f64 ["4"] storage FPGA_Global>) outs("A" : !sdfg.array<f64 ["4"] storage FPGA_Global>) {
    ^bb0(%ai: !sdfg.array<f64 ["4"] storage FPGA_Global>):
      // expected-error @+1 {{has C++ code that uses `std::vector`, a container HLS cannot synthesize}}
      %t = sdfg.tasklet "t" ins("x" = %ai["i"] : !sdfg.array<f64 ["4"] storage FPGA_Global>) outs("y" : f64) code cpp "std::vector<double> v(1, x); y = v[0];"
      sdfg.exit ("A" = %t["i"] : f64)
    }
    %w = sdfg.access %A writes(%m["0:4"] : !sdfg.array<f64 ["4"] storage FPGA_Global>) : !sdfg.array<f64 ["4"] storage FPGA_Global>
  }
}

// -----

// On-chip memory needs a size known at synthesis, or a bound on it (N has
// none).
sdfg.sdfg @dynamic_local(%A: !sdfg.array<f64 ["N"] storage FPGA_Global> as "A") symbols {N = i64} {
  // expected-error @+1 {{local container 'buf' has no constant size or bound on it, which on-chip memory needs}}
  %buf = sdfg.alloc "buf" : !sdfg.array<f64 ["N"] storage FPGA_Local>
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["N"] storage FPGA_Global>
    %b = sdfg.access %buf writes(%a["0:N"] : !sdfg.array<f64 ["N"] storage FPGA_Global>) : !sdfg.array<f64 ["N"] storage FPGA_Local>
  }
}

// -----

// A library node needs its expansion first.
sdfg.sdfg @library(%A: !sdfg.array<f64 ["4", "4"] storage FPGA_Global> as "A", %C: !sdfg.array<f64 ["4", "4"] storage FPGA_Global> as "C") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4", "4"] storage FPGA_Global>
    // expected-error @+1 {{is a library node, which the HLS emitter does not implement (expand it first: sdfg-expand-library-nodes)}}
    %mm = sdfg.library "mm" "dace.libraries.blas.nodes.matmul.MatMul"
        ins("_a" = %a["0:4, 0:4"] : !sdfg.array<f64 ["4", "4"] storage FPGA_Global>, "_b" = %a["0:4, 0:4"] : !sdfg.array<f64 ["4", "4"] storage FPGA_Global>)
        outs("_c" : !sdfg.array<f64 ["4", "4"] storage FPGA_Global>) properties {}
    %c = sdfg.access %C writes(%mm["0:4, 0:4"] : !sdfg.array<f64 ["4", "4"] storage FPGA_Global>) : !sdfg.array<f64 ["4", "4"] storage FPGA_Global>
  }
}

// -----

// Half-precision elements have no HLS C++ type here, nor integers wider
// than ap_int's 1024 bits.
// expected-error @+1 {{container 'A': element type `f16` has no HLS C++ type here}}
sdfg.sdfg @half(%A: !sdfg.array<f16 ["4"] storage FPGA_Global> as "A") {
  sdfg.state @s {
  }
}

// -----

// expected-error @+1 {{container 'A': element type `i1025` has no HLS C++ type here}}
sdfg.sdfg @wide(%A: !sdfg.array<i1025 ["4"] storage FPGA_Global> as "A") {
  sdfg.state @s {
  }
}
