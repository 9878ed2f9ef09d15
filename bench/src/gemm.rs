//! `sdfg-bench gemm [--reps R] [--n N]`: the SC'19 paper's transformation
//! chain on a naive matrix multiplication (default 2048 x 2048), as pass
//! pipelines, timed after each step against NumPy's `A @ B` (OpenBLAS) in
//! the same run. Our code never calls a BLAS here: every step is the
//! program's own maps, lowered by `sdfg-lower-to-llvm`.
//!
//! The naive program is the paper's: a map over `i, j, k` writes every
//! product into a transient `tmp[i, j, k]`, and a `Reduce` sums it over
//! `k` into `C`. Each step adds passes to the pipeline of the one before:
//!
//! | step | passes |
//! | --- | --- |
//! | map-reduce fusion | `sdfg-map-reduce-fusion`: the map adds into `C` |
//! | reordering | `sdfg-map-reorder{order=i,k,j}`: `j` innermost, along rows |
//! | tiling for the cache | `sdfg-map-tiling` by 512 x 512 x 512, then `sdfg-map-reorder{order=tile_i,tile_j,tile_k}`: tiles of `i` and `j` in parallel, the tiles of `k` of one `C` tile one after the other |
//! | local storage of A tiles | `sdfg-in-local-storage{data=A}`: each tile of `A` copied next to each other |
//! | tiling for registers | `sdfg-map-tiling` by 4 x 512 x 32 inside a tile, `k` outermost in it |
//! | local storage of B slivers | the map over blocks reordered and expanded (`j` blocks outside `i` blocks), and `sdfg-in-local-storage{data=B}` on the `i` blocks: each 512 x 32 sliver of `B` copied next to each other once for all `i` blocks |
//! | accumulator | `sdfg-accumulate-transient`: a 4 x 32 block of `C` accumulates in a transient, added into `C` once |
//! | vectorization | `sdfg-vectorization` by 8: the block's rows move as `vector<8xf64>`, `A`'s element broadcast |
//! | reduce peeling | `sdfg-reduce-peeling` inside, then outside: each block's first `k` writes its accumulator, and the first tile of `k` writes `C`; neither is zeroed first |
//!
//! The tiles of `A` are the paper's first local storage and the slivers of
//! `B` its second: the micro-kernel then reads `B` from consecutive
//! addresses (rows of a 512-wide tile lie 4 KiB apart, each on its own page
//! and in the same cache set), and the slivers replace copies of whole `B`
//! tiles.
//!
//! Vectorized, the block is 16 `vector<8xf64>` accumulators (4 rows of 4
//! vectors), which LLVM keeps in registers across the `k` loop (the
//! transient is a heap array no other pointer reaches), and each
//! product-sum is one fused multiply-add: per `k`, four broadcasts of `A`
//! and four loads of `B` feed 16 multiply-adds. The block is 4 x 32 rather
//! than 8 x 16 because the rows of an `A` tile lie 4 KiB apart, in one
//! cache set: eight of them fill the set that the `B` sliver also passes
//! through, four do not (8 x 16 ran about 8% slower here). After reduce
//! peeling the first `k` sets the accumulators instead of adding to zeros,
//! and the first tile of `k` sets `C`. Every step must compute what the
//! first one computed (the step's `C` is compared with it) and NumPy's
//! `A @ B`. The naive program itself is timed only where its transient
//! fits in memory (N^3 doubles: 64 GiB at 2048).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use sdfg_execution::{self as execute, npy::Array, Options};

const SCRIPT: &str = r#"
import sys, time
import numpy as np
n, reps, folder = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
a = np.load(folder + "/A.npy"); b = np.load(folder + "/B.npy")
c = a @ b
times = []
for _ in range(reps):
    start = time.perf_counter(); a @ b; times.append(time.perf_counter() - start)
np.save(folder + "/C.npy", c)
print(sorted(times)[len(times) // 2] * 1e3)
"#;

/// The transient of the naive program may take at most this many bytes.
const NAIVE_LIMIT: u64 = 4 << 30;

/// The naive matrix multiplication of `n` x `n` matrices.
fn naive(n: usize) -> String {
    let m = format!("!sdfg.array<f64 [\"{n}\", \"{n}\"]>");
    let t = format!("!sdfg.array<f64 [\"{n}\", \"{n}\", \"{n}\"]>");
    format!(
        r#"sdfg.sdfg @gemm(%A: {m} as "A", %B: {m} as "B", %C: {m} as "C") {{
  %T = sdfg.alloc "tmp" : {t}
  sdfg.state @s {{
    %a = sdfg.access %A : {m}
    %b = sdfg.access %B : {m}
    %p = sdfg.map "mm" ["i" = "0:{n}", "j" = "0:{n}", "k" = "0:{n}"] ins("A" = %a["0:{n}, 0:{n}"] : {m}, "B" = %b["0:{n}, 0:{n}"] : {m}) outs("tmp" : {t}) {{
    ^bb0(%ai: {m}, %bi: {m}):
      %x = sdfg.tasklet "mult" ins("a" = %ai["i, k"] : {m}, "b" = %bi["k, j"] : {m}) outs("o" : f64) {{
      ^bb0(%u: f64, %v: f64):
        %w = arith.mulf %u, %v : f64
        sdfg.yield %w : f64
      }}
      sdfg.exit ("tmp" = %x["i, j, k"] : f64)
    }}
    %tw = sdfg.access %T writes(%p["0:{n}, 0:{n}, 0:{n}"] : {t}) : {t}
    %r = sdfg.library "sum" "dace.libraries.standard.nodes.reduce.Reduce"
        ins("" = %tw["0:{n}, 0:{n}, 0:{n}"] : {t}) outs("" : {m})
        properties {{axes = "[2]", wcr = "lambda a, b: a + b", identity = "0"}}
    %c = sdfg.access %C writes(%r["0:{n}, 0:{n}"] : {m}) : {m}
  }}
}}
"#
    )
}

/// The steps: a name and the passes it adds.
const STEPS: &[(&str, &str)] = &[
    ("naive (transient + Reduce)", ""),
    ("map-reduce fusion", "sdfg-map-reduce-fusion"),
    ("reordering (i, k, j)", "sdfg-map-reorder{order=i,k,j label=mm}"),
    (
        "tiling for the cache",
        "sdfg-map-tiling{tile-sizes=512,512,512 label=mm},sdfg-map-reorder{order=tile_i,tile_j,tile_k level=outermost label=mm}",
    ),
    (
        "local storage of A tiles",
        "sdfg-in-local-storage{data=A level=innermost label=mm}",
    ),
    (
        "tiling for registers",
        "sdfg-map-tiling{tile-sizes=4,512,32 level=innermost label=mm},sdfg-map-reorder{order=k,i,j level=innermost label=mm}",
    ),
    (
        "local storage of B slivers",
        "sdfg-map-reorder{order=tile_j0,tile_i0 param=tile_i0},sdfg-map-expansion{param=tile_i0},sdfg-in-local-storage{data=B param=tile_i0}",
    ),
    (
        "accumulator of a C block",
        "sdfg-accumulate-transient{level=innermost label=mm}",
    ),
    (
        "vectorization (8 lanes of j)",
        "sdfg-vectorization{vector-length=8 level=innermost label=mm}",
    ),
    (
        "reduce peeling (k, tile_k)",
        "sdfg-reduce-peeling{level=innermost label=mm},sdfg-reduce-peeling{level=outermost label=mm}",
    ),
];

/// Runs the benchmark (see the module's documentation).
pub fn run(reps: usize, n: usize, python: &Result<PathBuf, String>) -> Result<(), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let program = dir.path().join("gemm.mlir");
    std::fs::write(&program, naive(n)).map_err(|e| e.to_string())?;
    let python = python.as_ref().map_err(|e| e.clone())?;
    println!("sdfg-bench gemm: C = A @ B, {n} x {n} doubles, median of {reps} runs");
    let mut inputs: Option<Vec<execute::Buffer>> = None;
    let mut reference: Option<Array> = None;
    let mut pipeline: Vec<&str> = Vec::new();
    let mut last = f64::NAN;
    for (step, (name, passes)) in STEPS.iter().enumerate() {
        if !passes.is_empty() {
            pipeline.push(passes);
        }
        let bytes = 8 * (n as u64).pow(3);
        if step == 0 && bytes > NAIVE_LIMIT {
            println!(
                "{name:<30} not run: its transient takes {:.1} GiB",
                bytes as f64 / f64::from(1u32 << 30)
            );
            continue;
        }
        let options = Options {
            pass_pipeline: (!pipeline.is_empty())
                .then(|| format!("builtin.module({})", pipeline.join(","))),
            ..Options::default()
        };
        let compiled = execute::compile(&program, &options)?;
        let mut buffers = match &inputs {
            Some(b) => b.clone(),
            None => {
                let mut b = execute::buffers(&compiled.abi, &HashMap::new())?;
                for (k, buffer) in b.iter_mut().enumerate() {
                    buffer.randomize(k as u64 + 1);
                }
                inputs = Some(b.clone());
                b
            }
        };
        let pristine = buffers.clone();
        let symbols = execute::SymbolValues::integers(HashMap::new());
        compiled.call(&mut buffers, &symbols)?;
        let c = buffers[2].to_array();
        match &reference {
            None => reference = Some(c),
            Some(r) => same(r, &c).map_err(|e| format!("{name}: {e}"))?,
        }
        let mut times = Vec::new();
        for _ in 0..reps {
            let mut fresh = pristine.clone();
            let start = Instant::now();
            compiled.call(&mut fresh, &symbols)?;
            times.push(start.elapsed().as_secs_f64() * 1e3);
        }
        times.sort_by(f64::total_cmp);
        last = times[times.len() / 2];
        println!("{name:<30} {last:>10.1} ms");
    }
    let (Some(inputs), Some(ours)) = (inputs, reference) else {
        return Err("no step ran".into());
    };
    let numpy = numpy_ms(python, dir.path(), &inputs, n, reps)?;
    same(&Array::read(&dir.path().join("C.npy"))?, &ours)
        .map_err(|e| format!("NumPy's A @ B differs from ours: {e}"))?;
    println!("{:<30} {numpy:>10.1} ms", "NumPy A @ B (OpenBLAS)");
    println!(
        "last step: {:.1}% of NumPy's speed (the aim is 90%); every step computed NumPy's C",
        100.0 * numpy / last
    );
    Ok(())
}

/// NumPy's time for `A @ B` on the same inputs; writes its `C.npy` into
/// `dir`.
fn numpy_ms(
    python: &Path,
    dir: &Path,
    inputs: &[execute::Buffer],
    n: usize,
    reps: usize,
) -> Result<f64, String> {
    inputs[0].to_array().write(&dir.join("A.npy"))?;
    inputs[1].to_array().write(&dir.join("B.npy"))?;
    let output = Command::new(python)
        .args(["-c", SCRIPT])
        .arg(n.to_string())
        .arg(reps.to_string())
        .arg(dir)
        .output()
        .map_err(|e| format!("{}: {e}", python.display()))?;
    if !output.status.success() {
        return Err(format!(
            "NumPy failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .map_err(|e| format!("NumPy's time: {e}"))
}

/// Whether `b` holds `a`'s values up to rounding (sums in another order).
fn same(a: &Array, b: &Array) -> Result<(), String> {
    if a.len() != b.len() {
        return Err(format!("{} elements, expected {}", b.len(), a.len()));
    }
    for i in 0..a.components() {
        let (x, y) = (a.dtype.get(&a.data, i), b.dtype.get(&b.data, i));
        if (x - y).abs() > 1e-9 * (1.0 + x.abs()) {
            return Err(format!("element {i} is {y}, expected {x}"));
        }
    }
    Ok(())
}
