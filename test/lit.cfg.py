# lit configuration of the sdfg project's FileCheck suite.
#
# The tools come from the cargo target directory: `cargo test` passes it as
# the `sdfg_bin_dir` parameter; by hand, run
#   python3 /usr/lib/llvm-19/build/utils/lit/lit.py -v test --param sdfg_bin_dir=target/debug
import os

import lit.formats

config.name = "SDFG"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)

bin_dir = lit_config.params.get("sdfg_bin_dir")
if not bin_dir:
    lit_config.fatal("pass --param sdfg_bin_dir=<directory with sdfg-opt>")
bin_dir = os.path.abspath(bin_dir)
llvm_bin = lit_config.params.get("llvm_bin_dir", "/usr/lib/llvm-19/bin")

config.environment["PATH"] = os.pathsep.join(
    [bin_dir, llvm_bin, config.environment.get("PATH", os.environ.get("PATH", ""))]
)
repo_root = os.path.dirname(config.test_source_root)
config.substitutions.append(("%examples", os.path.join(repo_root, "examples")))
corpus = os.environ.get("SDFG_CORPUS_DIR", os.path.join(os.path.dirname(repo_root), "shared", "corpus"))
config.substitutions.append(("%corpus", corpus))
# Debian's Python, with the python3-numpy that scripts/run.sh installs (a
# `python3` earlier on PATH may have no NumPy).
config.substitutions.append(("%python", "/usr/bin/python3"))

# Running whole programs in upstream dialects: upstream's own lowering (the
# reference) and mlir-cpu-runner with its runtime libraries (printing,
# OpenMP for the lowered maps).
llvm_lib = os.path.join(os.path.dirname(llvm_bin), "lib")
runner_libs = " ".join(
    "-shared-libs=" + os.path.join(llvm_lib, lib)
    for lib in ["libmlir_runner_utils.so", "libmlir_c_runner_utils.so", "libomp.so"]
)
config.substitutions.append(
    ("%mlir_run", "mlir-cpu-runner -e main -entry-point-result=void " + runner_libs)
)
config.substitutions.append(
    (
        "%upstream_lower",
        "--convert-linalg-to-loops --expand-strided-metadata --lower-affine --convert-scf-to-cf "
        "--convert-math-to-llvm --convert-math-to-libm --arith-expand --convert-arith-to-llvm --finalize-memref-to-llvm "
        "--convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts",
    )
)

# The headers the code of --emit-hls and --emit-hls-testbench compiles
# against with g++ (C simulation), and the g++ line the HLS tests use.
hls_include = os.path.join(repo_root, "passes", "target", "hls", "include")
config.substitutions.append(("%hls_include", hls_include))
config.substitutions.append(
    (
        "%hls_cxx",
        "g++ -std=c++14 -Wall -Wextra -Werror -Wno-unknown-pragmas -O1 -pthread -I " + hls_include,
    )
)

# Xilinx's ap_int.h for C simulation of integers of widths C++ has no type
# for: scripts/dace-venv.sh extracts it from the hls4ml wheel. Tests that
# simulate such kernels run where it is (`%if ap-types`), and the full test
# run (SDFG_REQUIRE_DACE=1, which sets up the venv) requires it.
ap_types = os.path.join(repo_root, os.environ.get("SDFG_VENV", ".venv"), "ap_types")
if os.path.isfile(os.path.join(ap_types, "ap_int.h")):
    config.available_features.add("ap-types")
elif os.environ.get("SDFG_REQUIRE_DACE") == "1":
    lit_config.fatal(f"{ap_types}/ap_int.h is missing: run scripts/dace-venv.sh")
config.substitutions.append(("%ap_types", ap_types))
