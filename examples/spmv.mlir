// Sparse matrix-vector multiplication in CSR format, b = A x, from DaCe's
// SC'19 paper. Mirrors ../shared/corpus/seeds/spmv.sdfg (DaCe 1.0.2, after
// simplify()): the row map i holds a column map j whose range
// A_row[i]:A_row[i + 1] comes from two dynamic range inputs, an indirection
// tasklet reads x[A_col[j]], and the products are accumulated into b[i]
// through a write-conflict-resolved (summing) memlet.
sdfg.sdfg @spmv(%A_row: !sdfg.array<ui32 ["H + 1"] strides ["1"]> as "A_row",
                %A_col: !sdfg.array<ui32 ["nnz"] strides ["1"]> as "A_col",
                %A_val: !sdfg.array<f32 ["nnz"] strides ["1"]> as "A_val",
                %x: !sdfg.array<f32 ["W"] strides ["1"]> as "x",
                %b: !sdfg.array<f32 ["H"] strides ["1"]> as "b")
    symbols {H = i32, W = i32, nnz = i32} {
  %__xval_value = sdfg.alloc "__xval_value" : !sdfg.scalar<f32>

  sdfg.state @MapState {
    %row = sdfg.access %A_row : !sdfg.array<ui32 ["H + 1"] strides ["1"]>
    %col = sdfg.access %A_col : !sdfg.array<ui32 ["nnz"] strides ["1"]>
    %val = sdfg.access %A_val : !sdfg.array<f32 ["nnz"] strides ["1"]>
    %xs = sdfg.access %x : !sdfg.array<f32 ["W"] strides ["1"]>
    %rows = sdfg.map "spmv_13" ["i" = "0:H"]
        ins("A_col" = %col["0:nnz", dynamic] : !sdfg.array<ui32 ["nnz"] strides ["1"]>,
            "A_row" = %row["0:H+1", volume "2*H"] : !sdfg.array<ui32 ["H + 1"] strides ["1"]>,
            "A_val" = %val["0:nnz", dynamic] : !sdfg.array<f32 ["nnz"] strides ["1"]>,
            "x" = %xs["0:W", dynamic] : !sdfg.array<f32 ["W"] strides ["1"]>)
        outs("b" : !sdfg.array<f32 ["H"] strides ["1"]>) {
    ^bb0(%col_i: !sdfg.array<ui32 ["nnz"] strides ["1"]>,
         %row_i: !sdfg.array<ui32 ["H + 1"] strides ["1"]>,
         %val_i: !sdfg.array<f32 ["nnz"] strides ["1"]>,
         %x_i: !sdfg.array<f32 ["W"] strides ["1"]>):
      // The column range of row i is read from A_row through the dynamic
      // range inputs __map_14_b0 and __map_14_e1.
      %cols = sdfg.map "spmv_13_4_14" ["j" = "__map_14_b0:__map_14_e1"]
          ins("__tmp2_in_from_2_0" = %col_i["0:nnz", dynamic] : !sdfg.array<ui32 ["nnz"] strides ["1"]>,
              "__tmp_16_24_in_from_2_0" = %val_i["0:nnz", dynamic] : !sdfg.array<f32 ["nnz"] strides ["1"]>,
              "__tmp_17_24_in_from_2_0" = %x_i["0:W", dynamic] : !sdfg.array<f32 ["W"] strides ["1"]>)
          dyn("__map_14_b0" = %row_i["i"] : !sdfg.array<ui32 ["H + 1"] strides ["1"]>,
              "__map_14_e1" = %row_i["i + 1"] : !sdfg.array<ui32 ["H + 1"] strides ["1"]>)
          outs("__tmp_19_23_out_of_2_1" : !sdfg.array<f32 ["H"] strides ["1"]>) {
      ^bb0(%col_j: !sdfg.array<ui32 ["nnz"] strides ["1"]>,
           %val_j: !sdfg.array<f32 ["nnz"] strides ["1"]>,
           %x_j: !sdfg.array<f32 ["W"] strides ["1"]>,
           %begin: !sdfg.array<ui32 ["H + 1"] strides ["1"]>,
           %end: !sdfg.array<ui32 ["H + 1"] strides ["1"]>):
        // lookup = __ind_xval[index_A_col_0]; the unsigned index is an i32
        // value in the body.
        %lookup = sdfg.tasklet "Indirection"
            ins("__ind_xval" = %x_j["0:W", volume "1"] : !sdfg.array<f32 ["W"] strides ["1"]>,
                "index_A_col_0" = %col_j["j"] : !sdfg.array<ui32 ["nnz"] strides ["1"]>)
            outs("lookup" : f32) {
        ^bb0(%ind_xval: memref<?xf32>, %index: i32):
          %k = arith.index_castui %index : i32 to index
          %v = memref.load %ind_xval[%k] : memref<?xf32>
          sdfg.yield %v : f32
        }
        // out = aval * xval; xval is held in the transient __xval_value.
        %out = sdfg.tasklet "spmv_13_4_15"
            ins("aval" = %val_j["j"] : !sdfg.array<f32 ["nnz"] strides ["1"]>,
                "xval" = %lookup["0"] : f32)
            outs("out" : f32) {
        ^bb0(%aval: f32, %xval: f32):
          %p = arith.mulf %aval, %xval : f32
          sdfg.yield %p : f32
        }
        sdfg.exit ("__tmp_19_23_out_of_2_1" = %out["i", wcr "(lambda a, b: (a + b))"] : f32)
      }
      sdfg.exit ("b" = %cols["i", dynamic, wcr "(lambda a, b: (a + b))"] : !sdfg.array<f32 ["H"] strides ["1"]>)
    }
    %bs = sdfg.access %b writes(%rows["0:H", dynamic, wcr "(lambda a, b: (a + b))"] : !sdfg.array<f32 ["H"] strides ["1"]>) : !sdfg.array<f32 ["H"] strides ["1"]>
  }
}
