// RUN: sdfg-opt %s -split-input-file -verify-diagnostics --convert-sdfg-to-gpu

// What cannot run on a GPU is a diagnostic naming the op, never a crash at
// run time.

sdfg.sdfg @host_reads_device(%A: !sdfg.array<f64 ["4"] storage GPU_Global> as "A", %B: !sdfg.array<f64 ["4"]> as "B") {
  sdfg.state @s {
    %a = sdfg.access %A : !sdfg.array<f64 ["4"] storage GPU_Global>
    // The validation that follows parsing reports it first.
    // expected-error @+1 {{reads an element of data container "A", stored as GPU_Global, in code that runs on the host}}
    %t = sdfg.tasklet "host" ins("x" = %a["0"] : !sdfg.array<f64 ["4"] storage GPU_Global>) outs("y" : f64) {
    ^bb0(%x: f64):
      sdfg.yield %x : f64
    }
    %b = sdfg.access %B writes(%t["0"] : f64) : !sdfg.array<f64 ["4"]>
  }
}

// -----

sdfg.sdfg @thread_block_outside(%A: !sdfg.array<f64 ["4"] storage GPU_Global> as "A") {
  sdfg.state @s {
    // expected-error @+1 {{GPU_ThreadBlock map outside a GPU_Device map}}
    %r = sdfg.map "t" ["i" = "0:4"] schedule GPU_ThreadBlock outs("a" : !sdfg.array<f64 ["4"] storage GPU_Global>) {
      %t = sdfg.tasklet "one" outs("y" : f64) {
        %c = arith.constant 1.0 : f64
        sdfg.yield %c : f64
      }
      sdfg.exit ("a" = %t["i"] : f64)
    }
    %a = sdfg.access %A writes(%r["0:4"] : !sdfg.array<f64 ["4"] storage GPU_Global>) : !sdfg.array<f64 ["4"] storage GPU_Global>
  }
}

// -----

sdfg.sdfg @kernel_in_kernel(%A: !sdfg.array<f64 ["4", "4"] storage GPU_Global> as "A") {
  sdfg.state @s {
    %r = sdfg.map "outer" ["i" = "0:4"] schedule GPU_Device outs("a" : !sdfg.array<f64 ["4", "4"] storage GPU_Global>) {
      // expected-error @+1 {{GPU_Device map inside a GPU kernel (kernels do not launch kernels)}}
      %q = sdfg.map "inner" ["j" = "0:4"] schedule GPU_Device outs("a" : !sdfg.array<f64 ["4", "4"] storage GPU_Global>) {
        %t = sdfg.tasklet "one" outs("y" : f64) {
          %c = arith.constant 1.0 : f64
          sdfg.yield %c : f64
        }
        sdfg.exit ("a" = %t["i, j"] : f64)
      }
      sdfg.exit ("a" = %q["i, 0:4"] : !sdfg.array<f64 ["4", "4"] storage GPU_Global>)
    }
    %a = sdfg.access %A writes(%r["0:4, 0:4"] : !sdfg.array<f64 ["4", "4"] storage GPU_Global>) : !sdfg.array<f64 ["4", "4"] storage GPU_Global>
  }
}

// -----

sdfg.sdfg @dynamic_in_kernel(%A: !sdfg.array<f64 ["N"] storage GPU_Global> as "A") symbols {N = i64} {
  // expected-error @+1 {{transient `T` of size `N` inside a GPU kernel: dynamic allocation inside a kernel is not supported}}
  %T = sdfg.alloc "T" : !sdfg.array<f64 ["N"]>
  sdfg.state @s {
    %r = sdfg.map "k" ["i" = "0:N"] schedule GPU_Device outs("a" : !sdfg.array<f64 ["N"] storage GPU_Global>) {
      %t = sdfg.tasklet "one" outs("y" : f64) {
        %c = arith.constant 1.0 : f64
        sdfg.yield %c : f64
      }
      %x = sdfg.access %T writes(%t["0"] : f64) : !sdfg.array<f64 ["N"]>
      %u = sdfg.tasklet "copy" ins("v" = %x["0"] : !sdfg.array<f64 ["N"]>) outs("y" : f64) {
      ^bb0(%v: f64):
        sdfg.yield %v : f64
      }
      sdfg.exit ("a" = %u["i"] : f64)
    }
    %a = sdfg.access %A writes(%r["0:N"] : !sdfg.array<f64 ["N"] storage GPU_Global>) : !sdfg.array<f64 ["N"] storage GPU_Global>
  }
}

// -----

sdfg.sdfg @dynamic_shared(%A: !sdfg.array<f64 ["N"] storage GPU_Global> as "A") symbols {N = i64} {
  // expected-error @+1 {{GPU_Shared transient `S` has size `N`, and shared memory needs a constant size}}
  %S = sdfg.alloc "S" : !sdfg.array<f64 ["N"] storage GPU_Shared>
  sdfg.state @s {
    %r = sdfg.map "k" ["i" = "0:N"] schedule GPU_Device outs("a" : !sdfg.array<f64 ["N"] storage GPU_Global>) {
      %t = sdfg.tasklet "one" outs("y" : f64) {
        %c = arith.constant 1.0 : f64
        sdfg.yield %c : f64
      }
      %x = sdfg.access %S writes(%t["0"] : f64) : !sdfg.array<f64 ["N"] storage GPU_Shared>
      %u = sdfg.tasklet "copy" ins("v" = %x["0"] : !sdfg.array<f64 ["N"] storage GPU_Shared>) outs("y" : f64) {
      ^bb0(%v: f64):
        sdfg.yield %v : f64
      }
      sdfg.exit ("a" = %u["i"] : f64)
    }
    %a = sdfg.access %A writes(%r["0:N"] : !sdfg.array<f64 ["N"] storage GPU_Global>) : !sdfg.array<f64 ["N"] storage GPU_Global>
  }
}

// -----

sdfg.sdfg @too_many_threads(%A: !sdfg.array<f64 ["N"] storage GPU_Global> as "A") symbols {N = i64} {
  sdfg.state @s {
    // expected-error @+1 {{gpu_block_size `64, 32, 1` has more than 1024 threads}}
    %r = sdfg.map "k" ["i" = "0:N"] schedule GPU_Device gpu_block_size ["64", "32", "1"] outs("a" : !sdfg.array<f64 ["N"] storage GPU_Global>) {
      %t = sdfg.tasklet "one" outs("y" : f64) {
        %c = arith.constant 1.0 : f64
        sdfg.yield %c : f64
      }
      sdfg.exit ("a" = %t["i"] : f64)
    }
    %a = sdfg.access %A writes(%r["0:N"] : !sdfg.array<f64 ["N"] storage GPU_Global>) : !sdfg.array<f64 ["N"] storage GPU_Global>
  }
}
