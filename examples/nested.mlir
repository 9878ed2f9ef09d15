// A nested SDFG inside a map: the outer map k = 0:2 calls an inner SDFG
// that processes the k-th half of A through two chained tasklets
// (bb = 5 * aa, then dd = 2 * cc) and writes it to the same half of B; the
// outer symbols N and k are passed down through the symbol mapping.
// Mirrors ../shared/corpus/dace/chained_nested_tasklet_ctasklet_nested_sdfg.sdfg
// (from DaCe's chained_nested_tasklet_test.py; A and B have DaCe's default
// dtype int32).
sdfg.sdfg @chained_nested_tasklet_ctasklet_nested_sdfg(
    %A: !sdfg.array<i32 ["N"] strides ["1"]> as "A",
    %B: !sdfg.array<i32 ["N"] strides ["1"]> as "B") symbols {N = i32} {
  sdfg.state @block {
    %a = sdfg.access %A : !sdfg.array<i32 ["N"] strides ["1"]>
    %r = sdfg.map "omap" ["k" = "0:2"]
        ins("A" = %a["0:N", volume "2*N"] : !sdfg.array<i32 ["N"] strides ["1"]>)
        outs("B" : !sdfg.array<i32 ["N"] strides ["1"]>) {
    ^bb0(%ain: !sdfg.array<i32 ["N"] strides ["1"]>):
      %n = sdfg.nested "ctasklet_nested_sdfg_inner"
          ins("a" = %ain["0:N", volume "N"] : !sdfg.array<i32 ["N"] strides ["1"]>)
          outs("b" : !sdfg.array<i32 ["N"] strides ["1"]>)
          symbols("N" = "N", "k" = "k") {
        sdfg.sdfg @ctasklet_nested_sdfg_inner(
            %ia: !sdfg.array<i32 ["N"] strides ["1"]> as "a",
            %ib: !sdfg.array<i32 ["N"] strides ["1"]> as "b") symbols {N = i32, k = i64} {
          sdfg.state @block {
            %an = sdfg.access %ia : !sdfg.array<i32 ["N"] strides ["1"]>
            %m = sdfg.map "mymap" ["i" = "0:N/2"]
                ins("a" = %an["N*k/2:N*k/2 + N/2", volume "ceiling(N/2)"] : !sdfg.array<i32 ["N"] strides ["1"]>)
                outs("b" : !sdfg.array<i32 ["N"] strides ["1"]>) {
            ^bb0(%aa_in: !sdfg.array<i32 ["N"] strides ["1"]>):
              // bb = 5 * aa
              %bb = sdfg.tasklet "mytasklet" ins("aa" = %aa_in["N*k/2 + i"] : !sdfg.array<i32 ["N"] strides ["1"]>) outs("bb" : i32) {
              ^bb0(%aa: i32):
                %five = arith.constant 5 : i32
                %v = arith.muli %five, %aa : i32
                sdfg.yield %v : i32
              }
              // dd = 2 * cc, fed directly by the first tasklet.
              %dd = sdfg.tasklet "mytasklet2" ins("cc" = %bb["0"] : i32) outs("dd" : i32) {
              ^bb0(%cc: i32):
                %two = arith.constant 2 : i32
                %v = arith.muli %two, %cc : i32
                sdfg.yield %v : i32
              }
              sdfg.exit ("b" = %dd["N*k/2 + i"] : i32)
            }
            %bn = sdfg.access %ib writes(%m["N*k/2:N*k/2 + N/2", volume "ceiling(N/2)"] : !sdfg.array<i32 ["N"] strides ["1"]>) : !sdfg.array<i32 ["N"] strides ["1"]>
          }
        }
      }
      sdfg.exit ("B" = %n["0:N", volume "N"] : !sdfg.array<i32 ["N"] strides ["1"]>)
    }
    %b = sdfg.access %B writes(%r["0:N", volume "2*N"] : !sdfg.array<i32 ["N"] strides ["1"]>) : !sdfg.array<i32 ["N"] strides ["1"]>
  }
}
