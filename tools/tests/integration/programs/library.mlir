// One SDFG per library node and variant. The execution test
// (execute.rs, `library_expansions_compute_like_the_direct_lowering`) runs
// each as it is (the conversion lowers the node directly) and after
// `sdfg-expand-library-nodes` (the conversion lowers the nested SDFG of
// maps and tasklets), on the same random inputs, and compares.

// Gemm with both operands transposed, alpha, beta and a separate C input.
sdfg.sdfg @gemm_transposed(%A: !sdfg.array<f64 ["7", "5"]> as "A", %B: !sdfg.array<f64 ["6", "7"]> as "B", %Cin: !sdfg.array<f64 ["5", "6"]> as "Cin", %C: !sdfg.array<f64 ["5", "6"]> as "C") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["7", "5"]>
    %b = sdfg.access %B : !sdfg.array<f64 ["6", "7"]>
    %ci = sdfg.access %Cin : !sdfg.array<f64 ["5", "6"]>
    %g = sdfg.library "gemm" "dace.libraries.blas.nodes.gemm.Gemm" impl "pure"
        ins("_a" = %a["0:7, 0:5"] : !sdfg.array<f64 ["7", "5"]>, "_b" = %b["0:6, 0:7"] : !sdfg.array<f64 ["6", "7"]>, "_cin" = %ci["0:5, 0:6"] : !sdfg.array<f64 ["5", "6"]>)
        outs("_c" : !sdfg.array<f64 ["5", "6"]>) properties {transA = "true", transB = "true", alpha = "2.5", beta = "0.5"}
    %c = sdfg.access %C writes(%g["0:5, 0:6"] : !sdfg.array<f64 ["5", "6"]>) : !sdfg.array<f64 ["5", "6"]>
  }
}

// MatMul on subsets with offsets: C[0:5, 0:6] = A[1:6, :] @ B[:, 2:8].
sdfg.sdfg @matmul_subsets(%A: !sdfg.array<f32 ["8", "7"]> as "A", %B: !sdfg.array<f32 ["7", "9"]> as "B", %C: !sdfg.array<f32 ["5", "6"]> as "C") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f32 ["8", "7"]>
    %b = sdfg.access %B : !sdfg.array<f32 ["7", "9"]>
    %m = sdfg.library "mm" "dace.libraries.blas.nodes.matmul.MatMul"
        ins("_a" = %a["1:6, 0:7"] : !sdfg.array<f32 ["8", "7"]>, "_b" = %b["0:7, 2:8"] : !sdfg.array<f32 ["7", "9"]>)
        outs("_c" : !sdfg.array<f32 ["5", "6"]>) properties {}
    %c = sdfg.access %C writes(%m["0:5, 0:6"] : !sdfg.array<f32 ["5", "6"]>) : !sdfg.array<f32 ["5", "6"]>
  }
}

// Batched MatMul: C[b] = A[b] @ B[b].
sdfg.sdfg @matmul_batched(%A: !sdfg.array<f64 ["2", "3", "4"]> as "A", %B: !sdfg.array<f64 ["2", "4", "5"]> as "B", %C: !sdfg.array<f64 ["2", "3", "5"]> as "C") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["2", "3", "4"]>
    %b = sdfg.access %B : !sdfg.array<f64 ["2", "4", "5"]>
    %m = sdfg.library "mm" "dace.libraries.blas.nodes.matmul.MatMul"
        ins("_a" = %a["0:2, 0:3, 0:4"] : !sdfg.array<f64 ["2", "3", "4"]>, "_b" = %b["0:2, 0:4, 0:5"] : !sdfg.array<f64 ["2", "4", "5"]>)
        outs("_c" : !sdfg.array<f64 ["2", "3", "5"]>) properties {}
    %c = sdfg.access %C writes(%m["0:2, 0:3, 0:5"] : !sdfg.array<f64 ["2", "3", "5"]>) : !sdfg.array<f64 ["2", "3", "5"]>
  }
}

// One matrix for every batch (DaCe's BatchedMatMul of a 2-D `_a`):
// C[b] = W @ B[b].
sdfg.sdfg @matmul_batched_shared(%W: !sdfg.array<f64 ["3", "4"]> as "W", %B: !sdfg.array<f64 ["2", "4", "5"]> as "B", %C: !sdfg.array<f64 ["2", "3", "5"]> as "C") {
  sdfg.state @s {
    %w = sdfg.access %W : !sdfg.array<f64 ["3", "4"]>
    %b = sdfg.access %B : !sdfg.array<f64 ["2", "4", "5"]>
    %m = sdfg.library "bmm" "dace.libraries.blas.nodes.batched_matmul.BatchedMatMul"
        ins("_a" = %w["0:3, 0:4"] : !sdfg.array<f64 ["3", "4"]>, "_b" = %b["0:2, 0:4, 0:5"] : !sdfg.array<f64 ["2", "4", "5"]>)
        outs("_c" : !sdfg.array<f64 ["2", "3", "5"]>) properties {}
    %c = sdfg.access %C writes(%m["0:2, 0:3, 0:5"] : !sdfg.array<f64 ["2", "3", "5"]>) : !sdfg.array<f64 ["2", "3", "5"]>
  }
}

// Vector-matrix MatMul on a column of A: y = A[:, 2] @ B.
sdfg.sdfg @matmul_vector(%A: !sdfg.array<f64 ["7", "4"]> as "A", %B: !sdfg.array<f64 ["7", "5"]> as "B", %y: !sdfg.array<f64 ["5"]> as "y") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["7", "4"]>
    %b = sdfg.access %B : !sdfg.array<f64 ["7", "5"]>
    %m = sdfg.library "mv" "dace.libraries.blas.nodes.matmul.MatMul"
        ins("_a" = %a["0:7, 2"] : !sdfg.array<f64 ["7", "4"]>, "_b" = %b["0:7, 0:5"] : !sdfg.array<f64 ["7", "5"]>)
        outs("_c" : !sdfg.array<f64 ["5"]>) properties {}
    %c = sdfg.access %y writes(%m["0:5"] : !sdfg.array<f64 ["5"]>) : !sdfg.array<f64 ["5"]>
  }
}

// Gemv with the matrix transposed, alpha and beta: y = 2 A^T x + 3 y0.
sdfg.sdfg @gemv_transposed(%A: !sdfg.array<f64 ["7", "5"]> as "A", %x: !sdfg.array<f64 ["7"]> as "x", %y0: !sdfg.array<f64 ["5"]> as "y0", %y: !sdfg.array<f64 ["5"]> as "y") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["7", "5"]>
    %xa = sdfg.access %x : !sdfg.array<f64 ["7"]>
    %yi = sdfg.access %y0 : !sdfg.array<f64 ["5"]>
    %g = sdfg.library "gemv" "dace.libraries.blas.nodes.gemv.Gemv"
        ins("_A" = %a["0:7, 0:5"] : !sdfg.array<f64 ["7", "5"]>, "_x" = %xa["0:7"] : !sdfg.array<f64 ["7"]>, "_y_in" = %yi["0:5"] : !sdfg.array<f64 ["5"]>)
        outs("_y" : !sdfg.array<f64 ["5"]>) properties {transA = "true", alpha = "2", beta = "3"}
    %c = sdfg.access %y writes(%g["0:5"] : !sdfg.array<f64 ["5"]>) : !sdfg.array<f64 ["5"]>
  }
}

// Dot product into one element.
sdfg.sdfg @dot(%x: !sdfg.array<f32 ["9"]> as "x", %y: !sdfg.array<f32 ["9"]> as "y", %r: !sdfg.array<f32 ["1"]> as "r") {
  sdfg.state @s {
    %xa = sdfg.access %x : !sdfg.array<f32 ["9"]>
    %ya = sdfg.access %y : !sdfg.array<f32 ["9"]>
    %d = sdfg.library "dot" "dace.libraries.blas.nodes.dot.Dot"
        ins("_x" = %xa["0:9"] : !sdfg.array<f32 ["9"]>, "_y" = %ya["0:9"] : !sdfg.array<f32 ["9"]>)
        outs("_result" : !sdfg.array<f32 ["1"]>) properties {}
    %c = sdfg.access %r writes(%d["0"] : !sdfg.array<f32 ["1"]>) : !sdfg.array<f32 ["1"]>
  }
}

// Maximum over the first axis, with an identity.
sdfg.sdfg @reduce_max(%A: !sdfg.array<f64 ["4", "6"]> as "A", %r: !sdfg.array<f64 ["6"]> as "r") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4", "6"]>
    %red = sdfg.library "Reduce" "dace.libraries.standard.nodes.reduce.Reduce"
        ins("" = %a["0:4, 0:6"] : !sdfg.array<f64 ["4", "6"]>) outs("" : !sdfg.array<f64 ["6"]>)
        properties {axes = "[0]", wcr = "lambda a, b: max(a, b)", identity = "-1e30"}
    %c = sdfg.access %r writes(%red["0:6"] : !sdfg.array<f64 ["6"]>) : !sdfg.array<f64 ["6"]>
  }
}

// A sum over all axes without identity: added to the output's value.
sdfg.sdfg @reduce_into(%A: !sdfg.array<i64 ["3", "5"]> as "A", %r: !sdfg.array<i64 ["1"]> as "r") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<i64 ["3", "5"]>
    %red = sdfg.library "Reduce" "dace.libraries.standard.nodes.reduce.Reduce"
        ins("" = %a["0:3, 0:5"] : !sdfg.array<i64 ["3", "5"]>) outs("" : !sdfg.array<i64 ["1"]>)
        properties {wcr = "lambda a, b: a + b"}
    %c = sdfg.access %r writes(%red["0", wcr sum] : !sdfg.array<i64 ["1"]>) : !sdfg.array<i64 ["1"]>
  }
}

// Transpose.
sdfg.sdfg @transpose(%A: !sdfg.array<f32 ["5", "7"]> as "A", %B: !sdfg.array<f32 ["7", "5"]> as "B") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f32 ["5", "7"]>
    %t = sdfg.library "transpose" "dace.libraries.standard.nodes.transpose.Transpose"
        ins("_inp" = %a["0:5, 0:7"] : !sdfg.array<f32 ["5", "7"]>) outs("_out" : !sdfg.array<f32 ["7", "5"]>) properties {}
    %b = sdfg.access %B writes(%t["0:7, 0:5"] : !sdfg.array<f32 ["7", "5"]>) : !sdfg.array<f32 ["7", "5"]>
  }
}

// Axpy: res = 1.5 x + y.
sdfg.sdfg @axpy(%x: !sdfg.array<f64 ["8"]> as "x", %y: !sdfg.array<f64 ["8"]> as "y", %res: !sdfg.array<f64 ["8"]> as "res") {
  sdfg.state @s {
    %xa = sdfg.access %x : !sdfg.array<f64 ["8"]>
    %ya = sdfg.access %y : !sdfg.array<f64 ["8"]>
    %p = sdfg.library "axpy" "dace.libraries.blas.nodes.axpy.Axpy"
        ins("_x" = %xa["0:8"] : !sdfg.array<f64 ["8"]>, "_y" = %ya["0:8"] : !sdfg.array<f64 ["8"]>)
        outs("_res" : !sdfg.array<f64 ["8"]>) properties {a = "1.5"}
    %r = sdfg.access %res writes(%p["0:8"] : !sdfg.array<f64 ["8"]>) : !sdfg.array<f64 ["8"]>
  }
}

// Ger: res = 0.5 x y^T + A.
sdfg.sdfg @ger(%x: !sdfg.array<f64 ["4"]> as "x", %y: !sdfg.array<f64 ["6"]> as "y", %A: !sdfg.array<f64 ["4", "6"]> as "A", %res: !sdfg.array<f64 ["4", "6"]> as "res") {
  sdfg.state @s {
    %xa = sdfg.access %x : !sdfg.array<f64 ["4"]>
    %ya = sdfg.access %y : !sdfg.array<f64 ["6"]>
    %aa = sdfg.access %A : !sdfg.array<f64 ["4", "6"]>
    %g = sdfg.library "ger" "dace.libraries.blas.nodes.ger.Ger"
        ins("_x" = %xa["0:4"] : !sdfg.array<f64 ["4"]>, "_y" = %ya["0:6"] : !sdfg.array<f64 ["6"]>, "_A" = %aa["0:4, 0:6"] : !sdfg.array<f64 ["4", "6"]>)
        outs("_res" : !sdfg.array<f64 ["4", "6"]>) properties {alpha = "0.5"}
    %r = sdfg.access %res writes(%g["0:4, 0:6"] : !sdfg.array<f64 ["4", "6"]>) : !sdfg.array<f64 ["4", "6"]>
  }
}
