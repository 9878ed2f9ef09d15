// GEMM, C = alpha * A @ B + beta * C, as the NumPy frontend lowers it: a map
// scales A by alpha into __tmp0, a MatMul library node multiplies __tmp0 by B
// into __tmp1, a map scales C by beta into __tmp2, and a last map adds
// __tmp1 and __tmp2 into C. Mirrors ../shared/corpus/seeds/gemm.sdfg
// (DaCe 1.0.2, after simplify()), all in one state.
sdfg.sdfg @gemm(%alpha: !sdfg.scalar<f64> as "alpha", %beta: !sdfg.scalar<f64> as "beta",
                %C: !sdfg.array<f64 ["M", "N"] strides ["N", "1"]> as "C",
                %A: !sdfg.array<f64 ["M", "K"] strides ["K", "1"]> as "A",
                %B: !sdfg.array<f64 ["K", "N"] strides ["N", "1"]> as "B")
    symbols {K = i32, M = i32, N = i32} {
  %__tmp0 = sdfg.alloc "__tmp0" : !sdfg.array<f64 ["M", "K"] strides ["K", "1"]>
  %__tmp1 = sdfg.alloc "__tmp1" : !sdfg.array<f64 ["M", "N"] strides ["N", "1"]>
  %__tmp2 = sdfg.alloc "__tmp2" : !sdfg.array<f64 ["M", "N"] strides ["N", "1"]>

  sdfg.state @BinOp_42 {
    %a = sdfg.access %A : !sdfg.array<f64 ["M", "K"] strides ["K", "1"]>
    %al = sdfg.access %alpha : !sdfg.scalar<f64>
    // __tmp0 = alpha * A
    %m0 = sdfg.map "_Mult__map" ["__i0" = "0:M", "__i1" = "0:K"]
        ins("A" = %a["0:M, 0:K", volume "K*M"] : !sdfg.array<f64 ["M", "K"] strides ["K", "1"]>,
            "alpha" = %al["0", volume "K*M"] : !sdfg.scalar<f64>)
        outs("__tmp0" : !sdfg.array<f64 ["M", "K"] strides ["K", "1"]>) {
    ^bb0(%A_in: !sdfg.array<f64 ["M", "K"] strides ["K", "1"]>, %alpha_in: !sdfg.scalar<f64>):
      %out = sdfg.tasklet "_Mult_" ins("__in1" = %alpha_in["0"] : !sdfg.scalar<f64>, "__in2" = %A_in["__i0, __i1"] : !sdfg.array<f64 ["M", "K"] strides ["K", "1"]>) outs("__out" : f64) {
      ^bb0(%__in1: f64, %__in2: f64):
        %v = arith.mulf %__in1, %__in2 : f64
        sdfg.yield %v : f64
      }
      sdfg.exit ("__tmp0" = %out["__i0, __i1"] : f64)
    }
    %t0 = sdfg.access %__tmp0 writes(%m0["0:M, 0:K", volume "K*M"] : !sdfg.array<f64 ["M", "K"] strides ["K", "1"]>) : !sdfg.array<f64 ["M", "K"] strides ["K", "1"]>
    // __tmp1 = __tmp0 @ B
    %b = sdfg.access %B : !sdfg.array<f64 ["K", "N"] strides ["N", "1"]>
    %mm = sdfg.library "_MatMult_" "dace.libraries.blas.nodes.matmul.MatMul"
        ins("_a" = %t0["0:M, 0:K", volume "K*M"] : !sdfg.array<f64 ["M", "K"] strides ["K", "1"]>,
            "_b" = %b["0:K, 0:N", volume "K*N"] : !sdfg.array<f64 ["K", "N"] strides ["N", "1"]>)
        outs("_c" : !sdfg.array<f64 ["M", "N"] strides ["N", "1"]>)
        properties {}
    %t1 = sdfg.access %__tmp1 writes(%mm["0:M, 0:N", volume "M*N"] : !sdfg.array<f64 ["M", "N"] strides ["N", "1"]>) : !sdfg.array<f64 ["M", "N"] strides ["N", "1"]>
    %c = sdfg.access %C : !sdfg.array<f64 ["M", "N"] strides ["N", "1"]>
    %be = sdfg.access %beta : !sdfg.scalar<f64>
    // __tmp2 = beta * C
    %m1 = sdfg.map "_Mult__map" ["__i0" = "0:M", "__i1" = "0:N"]
        ins("C" = %c["0:M, 0:N", volume "M*N"] : !sdfg.array<f64 ["M", "N"] strides ["N", "1"]>,
            "beta" = %be["0", volume "M*N"] : !sdfg.scalar<f64>)
        outs("__tmp2" : !sdfg.array<f64 ["M", "N"] strides ["N", "1"]>) {
    ^bb0(%C_in: !sdfg.array<f64 ["M", "N"] strides ["N", "1"]>, %beta_in: !sdfg.scalar<f64>):
      %out = sdfg.tasklet "_Mult_" ins("__in1" = %beta_in["0"] : !sdfg.scalar<f64>, "__in2" = %C_in["__i0, __i1"] : !sdfg.array<f64 ["M", "N"] strides ["N", "1"]>) outs("__out" : f64) {
      ^bb0(%__in1: f64, %__in2: f64):
        %v = arith.mulf %__in1, %__in2 : f64
        sdfg.yield %v : f64
      }
      sdfg.exit ("__tmp2" = %out["__i0, __i1"] : f64)
    }
    %t2 = sdfg.access %__tmp2 writes(%m1["0:M, 0:N", volume "M*N"] : !sdfg.array<f64 ["M", "N"] strides ["N", "1"]>) : !sdfg.array<f64 ["M", "N"] strides ["N", "1"]>
    // C = __tmp1 + __tmp2
    %m2 = sdfg.map "_Add__map" ["__i0" = "0:M", "__i1" = "0:N"]
        ins("__tmp1" = %t1["0:M, 0:N", volume "M*N"] : !sdfg.array<f64 ["M", "N"] strides ["N", "1"]>,
            "__tmp2" = %t2["0:M, 0:N", volume "M*N"] : !sdfg.array<f64 ["M", "N"] strides ["N", "1"]>)
        outs("__tmp3" : !sdfg.array<f64 ["M", "N"] strides ["N", "1"]>) {
    ^bb0(%__tmp1_in: !sdfg.array<f64 ["M", "N"] strides ["N", "1"]>, %__tmp2_in: !sdfg.array<f64 ["M", "N"] strides ["N", "1"]>):
      %out = sdfg.tasklet "_Add_" ins("__in1" = %__tmp1_in["__i0, __i1"] : !sdfg.array<f64 ["M", "N"] strides ["N", "1"]>, "__in2" = %__tmp2_in["__i0, __i1"] : !sdfg.array<f64 ["M", "N"] strides ["N", "1"]>) outs("__out" : f64) {
      ^bb0(%__in1: f64, %__in2: f64):
        %v = arith.addf %__in1, %__in2 : f64
        sdfg.yield %v : f64
      }
      sdfg.exit ("__tmp3" = %out["__i0, __i1"] : f64)
    }
    %c2 = sdfg.access %C writes(%m2["0:M, 0:N", volume "M*N"] : !sdfg.array<f64 ["M", "N"] strides ["N", "1"]>) : !sdfg.array<f64 ["M", "N"] strides ["N", "1"]>
  }
}
