// RUN: sdfg-opt %s -split-input-file | sdfg-opt -split-input-file | FileCheck %s

// The stream forms without a shape, as documented in SDFGTypes.td
// (`!sdfg.stream<i32>`): a single stream, optionally with a buffer size and
// a storage location.

// CHECK-LABEL: sdfg.sdfg @single_stream
// CHECK-SAME: !sdfg.stream<i32> as "s"
sdfg.sdfg @single_stream(%s: !sdfg.stream<i32> as "s") {
  sdfg.state @st {
  }
}

// -----

// CHECK-LABEL: sdfg.sdfg @single_stream_buffer
// CHECK-SAME: !sdfg.stream<f32 buffer "16"> as "s"
// CHECK-SAME: !sdfg.stream<f32 storage FPGA_Local> as "t"
// CHECK-SAME: !sdfg.stream<f32 buffer "B" storage FPGA_Local> as "u"
sdfg.sdfg @single_stream_buffer(%s: !sdfg.stream<f32 buffer "16"> as "s",
                                %t: !sdfg.stream<f32 storage FPGA_Local> as "t",
                                %u: !sdfg.stream<f32 buffer "B" storage FPGA_Local> as "u")
    symbols {B = i64} {
  sdfg.state @st {
  }
}

// -----

// Push and pop on an unshaped stream connector inside a tasklet body.
// CHECK-LABEL: sdfg.sdfg @push_pop_single
// CHECK: sdfg.pop %{{.*}} : <i32>
// CHECK: sdfg.push %{{.*}}, %{{.*}} : <i32>
sdfg.sdfg @push_pop_single(%s: !sdfg.stream<i32> as "s") {
  %out = sdfg.alloc "out" : !sdfg.stream<i32>
  sdfg.state @st {
    %a = sdfg.access %s : !sdfg.stream<i32>
    %t = sdfg.tasklet "move" ins("in" = %a["0"] : !sdfg.stream<i32>) outs("o" : i32) {
    ^bb0(%in: !sdfg.stream<i32>):
      %v = sdfg.pop %in : !sdfg.stream<i32>
      sdfg.push %in, %v : !sdfg.stream<i32>
      sdfg.yield %v : i32
    }
    %b = sdfg.access %out writes(%t["0"] : i32) : !sdfg.stream<i32>
  }
}
