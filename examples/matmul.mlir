// Matrix multiplication C += A @ B as one three-dimensional map whose
// tasklet writes C[i, j] through a write-conflict-resolved (summing) memlet,
// from DaCe's SC'19 paper. Mirrors ../shared/corpus/seeds/matmul_wcr.sdfg
// (DaCe 1.0.2, after simplify()); DaCe's `lambda a, b: a + b` is the named
// resolution `sum`.
sdfg.sdfg @matmul_wcr(%A: !sdfg.array<f32 ["M", "K"] strides ["K", "1"]> as "A",
                      %B: !sdfg.array<f32 ["K", "N"] strides ["N", "1"]> as "B",
                      %C: !sdfg.array<f32 ["M", "N"] strides ["N", "1"]> as "C")
    symbols {K = i32, M = i32, N = i32} {
  sdfg.state @MapState {
    %a = sdfg.access %A : !sdfg.array<f32 ["M", "K"] strides ["K", "1"]>
    %b = sdfg.access %B : !sdfg.array<f32 ["K", "N"] strides ["N", "1"]>
    %r = sdfg.map "matmul_wcr_23" ["i" = "0:M", "j" = "0:N", "k" = "0:K"]
        ins("A" = %a["0:M, 0:K", volume "K*M*N"] : !sdfg.array<f32 ["M", "K"] strides ["K", "1"]>,
            "B" = %b["0:K, 0:N", volume "K*M*N"] : !sdfg.array<f32 ["K", "N"] strides ["N", "1"]>)
        outs("C" : !sdfg.array<f32 ["M", "N"] strides ["N", "1"]>) {
    ^bb0(%ain: !sdfg.array<f32 ["M", "K"] strides ["K", "1"]>,
         %bin: !sdfg.array<f32 ["K", "N"] strides ["N", "1"]>):
      // c = a * b
      %c = sdfg.tasklet "matmul_wcr_24"
          ins("a" = %ain["i, k"] : !sdfg.array<f32 ["M", "K"] strides ["K", "1"]>,
              "b" = %bin["k, j"] : !sdfg.array<f32 ["K", "N"] strides ["N", "1"]>)
          outs("c" : f32) {
      ^bb0(%x: f32, %y: f32):
        %p = arith.mulf %x, %y : f32
        sdfg.yield %p : f32
      }
      sdfg.exit ("C" = %c["i, j", wcr sum] : f32)
    }
    %cs = sdfg.access %C writes(%r["0:M, 0:N", volume "K*M*N", wcr sum] : !sdfg.array<f32 ["M", "N"] strides ["N", "1"]>) : !sdfg.array<f32 ["M", "N"] strides ["N", "1"]>
  }
}
