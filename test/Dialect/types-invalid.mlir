// RUN: sdfg-opt %s -split-input-file -verify-diagnostics

// Malformed types, memlets and enum spellings.

// expected-error @+1 {{element type must not be a container, got '!sdfg.scalar<f64>'}}
sdfg.sdfg @array_of_containers(%a: !sdfg.array<!sdfg.scalar<f64> ["4"]> as "a") {
}

// -----

// expected-error @+1 {{shape must have at least one dimension}}
sdfg.sdfg @array_no_shape(%a: !sdfg.array<f64 []> as "a") {
}

// -----

// expected-error @+1 {{expected 2 strides, got 1}}
sdfg.sdfg @array_strides(%a: !sdfg.array<f64 ["N", "M"] strides ["1"]> as "a") {
}

// -----

// expected-error @+1 {{expected 1 offsets, got 2}}
sdfg.sdfg @view_offsets(%a: !sdfg.view<f64 ["N"] offset ["0", "0"]> as "a") {
}

// -----

// expected-error @+1 {{shape entries must be strings, got 4 : i64}}
sdfg.sdfg @ref_int_shape(%a: !sdfg.ref<f64 [4]> as "a") {
}

// -----

// expected-error @+1 {{element type must not be a container, got '!sdfg.array<f64 ["4"]>'}}
sdfg.sdfg @scalar_of_array(%a: !sdfg.scalar<!sdfg.array<f64 ["4"]>> as "a") {
}

// -----

// expected-error @+1 {{shape must have at least one dimension}}
sdfg.sdfg @stream_empty_shape(%a: !sdfg.stream<i32 shape []> as "a") {
}

// -----

// expected-error @+1 {{element type must not be a container, got '!sdfg.stream<i32 shape ["1"]>'}}
sdfg.sdfg @stream_of_streams(%a: !sdfg.stream<!sdfg.stream<i32 shape ["1"]> shape ["1"]> as "a") {
}

// -----

// expected-error @+2 {{invalid DaCe storage location specification: GPU_Texture}}
// expected-error @+1 {{failed to parse SDFG_ArrayType parameter 'storage'}}
sdfg.sdfg @bad_storage(%a: !sdfg.array<f64 ["4"] storage GPU_Texture> as "a") {
}

// -----

sdfg.sdfg @bad_lifetime() {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'lifetime' [Scope, State, SDFG, Global, Persistent, External]}}
  %t = sdfg.alloc "t" lifetime Forever : !sdfg.scalar<f64>
}

// -----

sdfg.sdfg @bad_schedule() {
  sdfg.state @s {
    // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'schedule' [Default, Sequential, MPI, CPU_Multicore, CPU_Persistent, Unrolled, SVE_Map, GPU_Default, GPU_Device, GPU_ThreadBlock, GPU_ThreadBlock_Dynamic, GPU_Persistent, FPGA_Device, FPGA_Multi_Pumped, Snitch, Snitch_Multicore]}}
    sdfg.map "m" ["i" = "0:4"] schedule OpenMP {
      sdfg.exit ()
    }
  }
}

// -----

sdfg.sdfg @bad_language() {
  sdfg.state @s {
    // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'language' [python, cpp, mlir]}}
    %t = sdfg.tasklet "t" outs("y" : f64) code fortran "y = 1"
  }
}

// -----

// expected-error @+1 {{memlet subset must not be empty}}
sdfg.sdfg @memlet_empty_subset() attributes {m = #sdfg.memlet<["  "]>} {
}

// -----

// expected-error @+1 {{unknown write-conflict resolution 'avg'}}
sdfg.sdfg @memlet_unknown_wcr() attributes {m = #sdfg.memlet<["0", wcr avg]>} {
}

// -----

// `none` and `custom` are internal; a custom resolution is written as a
// quoted lambda.
// expected-error @+1 {{unknown write-conflict resolution 'custom'}}
sdfg.sdfg @memlet_wcr_custom_keyword() attributes {m = #sdfg.memlet<["0", wcr custom]>} {
}

// -----

// expected-error @+1 {{unknown memlet field 'stride' (expected volume, dynamic, wcr or data)}}
sdfg.sdfg @memlet_unknown_field() attributes {m = #sdfg.memlet<["0", stride "2"]>} {
}

// -----

sdfg.sdfg @operand_memlet_unknown_wcr(%A: !sdfg.scalar<f64> as "A") {
  sdfg.state @s {
    %t = sdfg.tasklet "t" outs("y" : f64) code python "y = 1"
    // expected-error @+1 {{unknown write-conflict resolution 'plus'}}
    %a = sdfg.access %A writes(%t["0", wcr plus] : f64) : !sdfg.scalar<f64>
  }
}

// -----

sdfg.sdfg @operand_memlet_without_brackets(%A: !sdfg.scalar<f64> as "A") {
  sdfg.state @s {
    %t = sdfg.tasklet "t" outs("y" : f64) code python "y = 1"
    // expected-error @+1 {{expected '['}}
    %a = sdfg.access %A writes(%t : f64) : !sdfg.scalar<f64>
  }
}

// -----

// A memlet's data name is not empty.
// expected-error @+1 {{memlet data name must not be empty}}
sdfg.sdfg @empty_data_name() attributes {m = #sdfg.memlet<["0", data ""]>} {
}

// -----

// expected-error @+2 {{struct has 2 fields but 1 field types}}
// expected-error @+1 {{failed to parse SDFG_ScalarType parameter 'elementType'}}
sdfg.sdfg @struct_fields(%a: !sdfg.scalar<!sdfg.struct<"s" fields ["x", "y"] types [i32] bytes 8>> as "a") {
}

// -----

// expected-error @+1 {{callback arguments must be types, got "x"}}
sdfg.sdfg @callback_arguments() symbols {cb = !sdfg.callback<["x"] -> []>} {
}

// -----

sdfg.sdfg @no_such_member(%B: !sdfg.structure<"S" members ["x"] types [!sdfg.scalar<f64>]> as "B") {
  // expected-error @+1 {{'sdfg.member' op structure "S" has no member "y"}}
  %y = sdfg.member %B "y" : !sdfg.structure<"S" members ["x"] types [!sdfg.scalar<f64>]> -> !sdfg.scalar<f64>
}

// -----

sdfg.sdfg @member_type(%B: !sdfg.structure<"S" members ["x"] types [!sdfg.scalar<f64>]> as "B") {
  // expected-error @+1 {{'sdfg.member' op member "x" has type '!sdfg.scalar<f64>', not '!sdfg.scalar<f32>'}}
  %x = sdfg.member %B "x" : !sdfg.structure<"S" members ["x"] types [!sdfg.scalar<f64>]> -> !sdfg.scalar<f32>
}

// -----

// expected-error @+1 {{structure members must be data containers, got f64}}
sdfg.sdfg @member_not_container(%B: !sdfg.structure<"S" members ["x"] types [f64]> as "B") {
}
