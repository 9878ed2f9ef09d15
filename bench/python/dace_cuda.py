"""DaCe 1.0.2's own CUDA code for the GPU cases, built and run where DaCe is not.

usage: dace_cuda.py prepare CASES_DIR [--cpu DIR]...   (with DaCe 1.0.2)
       dace_cuda.py build CASES_DIR [--arch sm_90] [--jobs N] [--nvcc PATH] [--timeout S]
       dace_cuda.py run CASE [--repeat R] [--timeout S]  (these two: python3, NumPy, nvcc, g++)

prepare  generates DaCe's code for each CASES_DIR/CASE/gpu.sdfg (gpu_cases.py's
         cases) as `SDFG.compile` does; keeps the sources, CASE/dace/{src,include}/,
         and CASE/dace/signature.json: the compiler flags and the arguments of
         __dace_init_NAME and __program_NAME in CompiledSDFG's order (checked
         against the generated prototypes). DaCe's runtime headers go to
         CASES_DIR/dace-runtime/. Prints `PREPARED name` or `FAILED name reason`.
         --cpu DIR, a test of the calling convention without a GPU (on a copy of
         CASES_DIR), generates from the program before apply_gpu_transformations():
         DIR/NAME.py (a bench kernel) or, for seed_X[_raw], DIR/X[.raw].sdfg.
build    compiles each CASE/dace into CASE/dace/libprogram.so, in parallel (log:
         CASE/dace/build.log); prints `BUILT name seconds` or `BUILDFAIL name
         first-error-line`. nvcc: --nvcc, $NVCC, PATH, /usr/local/cuda*/bin.
run      calls CASE/dace/libprogram.so through ctypes, with NAME.npy from --inputs (default CASE/in), else
         CASE/symbols, else seeded random data (floats in [0, 1), integers in 0..9,
         as sdfg-run's; __return arrays zeroed); saves the arrays after one call as
         CASE/dace_out/NAME.npy, then times R calls (the __program call alone),
         each on fresh copies of the inputs.

The flags are those of DaCe 1.0.2's CMakeLists.txt (checked against its verbose
build): compiler.cpu.args or compiler.cuda.args, then the build type's flags
(RelWithDebInfo: `-O2 -g -DNDEBUG` after cpu.args' -O3, so host code is built at
-O2; ptxas optimises device code at -O3 regardless), -DWITH_CUDA, OpenMP,
separable compilation (-rdc=true, then a device link) and the shared cudart.
CUDA 13's CCCL 3 needs what later DaCe versions do: -std=c++17 for the CUDA
sources (DaCe 1.0.2 sets C++14, which CCCL 3 rejects), and in the carried headers
thrust's iterators for the removed cub::CountingInputIterator and
cub::TransformInputIterator (reduction.h), __syncthreads() for the removed
CTA_SYNC() (cuda/multidim_gbar.cuh).
"""
import argparse
import concurrent.futures
import ctypes
import faulthandler
import glob
import importlib.util
import itertools
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

RUNTIME = "dace-runtime"
PATCHES = {  # DaCe 1.0.2's headers for CUDA 13 (see above)
    "runtime/include/dace/reduction.h": [
        ("#include <cub/cub.cuh>", ("#include <cub/cub.cuh>\n    #include <thrust/iterator/counting_iterator.h>\n"
                                    "    #include <thrust/iterator/transform_iterator.h>")),
        ("cub::CountingInputIterator<int>", "thrust::counting_iterator<int>"),
        ("cub::TransformInputIterator<int, decltype(conversion_op),",
         "thrust::transform_iterator<decltype(conversion_op),"),
    ],
    "runtime/include/dace/cuda/multidim_gbar.cuh": [("CTA_SYNC()", "__syncthreads()")],
}
# What CMake adds for each build type (its defaults for GCC and nvcc).
BUILD_TYPE_FLAGS = {"Release": "-O3 -DNDEBUG", "RelWithDebInfo": "-O2 -g -DNDEBUG", "Debug": "-g",
                    "MinSizeRel": "-Os -DNDEBUG"}
# The functions in str() of DaCe's symbolic shapes.
FUNCTIONS = {"Min": min, "Max": max, "Abs": abs, "Mod": lambda a, b: a % b, "floor": math.floor,
             "ceiling": math.ceil, "int_floor": lambda a, b: a // b, "int_ceil": lambda a, b: -(-a // b)}


def evaluate(expr, symbols):
    return int(eval(expr, {"__builtins__": {}, **FUNCTIONS}, dict(symbols)))


def read_symbols(case):
    path, pairs = os.path.join(case, "symbols"), []
    if os.path.isfile(path):
        with open(path) as f:
            pairs = [line.split("=", 1) for line in f.read().split()]
    return {k: int(v) if re.fullmatch(r"-?\d+", v) else float(v) for k, v in pairs}


def first_line(error):
    return f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"


# ----------------------------------------------------------------- prepare

def copy_runtime(dest):
    """DaCe's runtime headers (and the queue dace/stream.h includes), patched for CUDA 13."""
    import dace
    root = os.path.dirname(dace.__file__)
    shutil.rmtree(dest, ignore_errors=True)
    for sub in ("runtime/include", "external/moodycamel"):
        shutil.copytree(os.path.join(root, sub), os.path.join(dest, sub))
    for path, edits in PATCHES.items():
        with open(os.path.join(dest, path)) as f:
            text = f.read()
        for old, new in edits:
            if old not in text:
                raise RuntimeError(f"{path}: `{old}` not found (not DaCe 1.0.2?)")
            text = text.replace(old, new)
        with open(os.path.join(dest, path), "w") as f:
            f.write(text)


def lib_flag(lib):
    return lib if os.path.isabs(lib) else f"-l:{lib}" if ".so" in lib or lib.endswith(".a") else f"-l{lib}"


def environment_flags(names, runtime):
    """(compile flags, libraries) of DaCe's library environments (OpenBLAS for LAPACK nodes...), as
    compiler.get_environment_flags gives them to CMake; their headers inside DaCe are copied to `runtime`."""
    import dace
    from dace.codegen.compiler import _get_or_eval
    root = os.path.dirname(dace.__file__)
    cflags, libs = [], []
    for env in dace.library.get_environments_and_dependencies(names):
        env_dir = os.path.relpath(os.path.dirname(env._dace_file_path), root)
        cflags += [f"-I{d}" for d in _get_or_eval(env.cmake_includes)] + list(_get_or_eval(env.cmake_compile_flags))
        headers = _get_or_eval(env.headers)
        for header in itertools.chain(*headers.values()) if isinstance(headers, dict) else headers:
            path = os.path.normpath(os.path.join(env_dir, header))
            if not os.path.isabs(header) and os.path.isfile(os.path.join(root, path)):  # found through -I env_dir
                for folder in (env_dir, os.path.dirname(path)):
                    os.makedirs(os.path.join(runtime, folder), exist_ok=True)
                shutil.copy(os.path.join(root, path), os.path.join(runtime, path))
                cflags.append("-I{runtime}/" + env_dir)
        libs += [lib_flag(lib) for lib in _get_or_eval(env.cmake_libraries)]
    return sorted(set(cflags)), libs


def flags(cuda, env_cflags, env_libs):
    """The compile and link flags of DaCe's CMakeLists.txt, with {build}, {runtime}, {cuda}, {cudalib} and
    {arch} for `build` to fill in."""
    from dace.config import Config
    cpu, nvcc = Config.get("compiler", "cpu", "args").split(), Config.get("compiler", "cuda", "args").split()
    build_type = BUILD_TYPE_FLAGS[Config.get("compiler", "build_type")].split()
    libs = Config.get("compiler", "cpu", "libs").split() + Config.get("compiler", "cuda", "libs").split() * cuda
    common = ['-DDACE_BINARY_DIR="{build}"'] + ["-DWITH_CUDA"] * cuda + ["-I{runtime}/runtime/include"] + env_cflags
    gencode = "--generate-code=arch=compute_{arch},code=[compute_{arch},sm_{arch}]"
    result = {
        "cxx": common + ["-isystem", "{cuda}/include"] * cuda + cpu + build_type + ["-fPIC", "-fopenmp"],
        "link": ["-fPIC", *cpu, *build_type, *Config.get("compiler", "linker", "args").split(), "-shared"],
        "libs": env_libs + [lib_flag(lib) for lib in libs]
        + ["-L{cudalib}", "-Wl,-rpath,{cudalib}", "-lcudart", "-lcudadevrt"] * cuda
        + ["-fopenmp", "-lpthread", "-lrt", "-ldl"],
    }
    if cuda:  # -std=c++17: see above
        result["cuda"] = (["-forward-unknown-to-host-compiler", *common, *nvcc, *build_type, gencode,
                           "-Xcompiler=-fPIC", "-std=c++17", "-x", "cu", "-rdc=true"])
        result["dlink"] = (["-forward-unknown-to-host-compiler", *nvcc, *build_type, gencode,
                            "-Xcompiler=-fPIC", "-Wno-deprecated-gpu-targets", "-shared", "-dlink"])
    return result


def prototype(header, function):
    """[(C declaration, name)] of the parameters of `function` in the generated header."""
    params = re.search(rf"\b{function}\((.*?)\);", header).group(1)
    return [(p.strip(), re.search(r"(\w+)\s*$", p).group(1)) for p in params.split(",") if p.strip()]


def source_sdfg(case, cpu_dirs):
    """CASE's program: gpu.sdfg, or with --cpu the program before apply_gpu_transformations()."""
    import dace
    if not cpu_dirs:
        return dace.SDFG.from_file(os.path.join(case, "gpu.sdfg"))
    name = os.path.basename(case)
    seed = re.fullmatch(r"seed_(\w+?)(_raw)?", name)
    file = f"{seed[1]}{'.raw' if seed[2] else ''}.sdfg" if seed else name + ".py"
    path = next((os.path.join(d, file) for d in cpu_dirs if os.path.isfile(os.path.join(d, file))), None)
    if path is None:
        raise FileNotFoundError(f"no {file} in the --cpu directories")
    if path.endswith(".sdfg"):
        return dace.SDFG.from_file(path)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.PROGRAM.to_sdfg(simplify=True)


def describe(sdfg, name, decl, desc, symbols):
    """signature.json's entry for an argument of __program_NAME."""
    import dace
    from dace import data as dt
    arg = {"name": name, "c": decl, "dtype": np.dtype(desc.dtype.as_numpy_dtype()).name}
    if name not in sdfg.arrays:
        return dict(arg, kind="symbol")
    if not isinstance(desc, dt.Array) and "*" not in decl:  # GPU scalars are pointers
        if not isinstance(desc, dt.Scalar):
            raise NotImplementedError(f"{name}: a {type(desc).__name__} argument")
        return dict(arg, kind="scalar")
    if getattr(desc, "start_offset", 0) != 0:
        raise NotImplementedError(f"{name}: start offset {desc.start_offset}")
    for e in [*desc.shape, *desc.strides, desc.total_size]:  # `run` must agree with DaCe
        if evaluate(str(e), symbols) != int(dace.symbolic.evaluate(e, symbols)):
            raise RuntimeError(f"{name}: cannot evaluate `{e}`")
    return dict(arg, kind="array", storage=desc.storage.name, shape=[str(e) for e in desc.shape],
                strides=[str(e) for e in desc.strides], total_size=str(desc.total_size))


def prepare_case(case, runtime, cpu_dirs):
    from dace.codegen import codegen, compiler
    sdfg, out = source_sdfg(case, cpu_dirs), os.path.join(case, "dace")
    shutil.rmtree(out, ignore_errors=True)
    with tempfile.TemporaryDirectory() as tmp:  # SDFG.compile's steps, in a temporary build folder
        sdfg.build_folder = tmp
        sdfg.fill_scope_connectors()
        objects = codegen.generate_code(sdfg)
        compiler.generate_program_folder(sdfg, objects, tmp)
        for sub in ("src", "include"):
            shutil.copytree(os.path.join(tmp, sub), os.path.join(out, sub))
        with open(os.path.join(tmp, "dace_files.csv")) as f:  # target,target type,file
            sources = ["/".join(["src"] + [p for p in line.strip().split(",") if p]) for line in f if line.strip()]
    with open(os.path.join(out, "include", sdfg.name + ".h")) as f:
        header = f.read()
    # CompiledSDFG calls __program_NAME(handle, *sdfg.arglist()), __dace_init_NAME(its free symbols).
    arglist, decls = sdfg.arglist(), prototype(header, f"__program_{sdfg.name}")[1:]
    init = [a for a in arglist if a in sdfg.free_symbols]
    if [n for _, n in decls] != list(arglist) or [n for _, n in prototype(header, f"__dace_init_{sdfg.name}")] != init:
        raise RuntimeError("the generated prototypes differ from CompiledSDFG's arguments")
    args = [describe(sdfg, n, d, arglist[n], read_symbols(case)) for d, n in decls]
    env_cflags, env_libs = environment_flags(set().union(*(o.environments for o in objects)), runtime)
    signature = {"name": sdfg.name, "sources": sources,
                 "flags": flags(any(s.endswith(".cu") for s in sources), env_cflags, env_libs),
                 "init": [a for a in args if a["name"] in init], "args": args}
    with open(os.path.join(out, "signature.json"), "w") as f:
        json.dump(signature, f, indent=1)


def prepare(cases_dir, cpu_dirs):
    import dace
    runtime = os.path.join(cases_dir, RUNTIME)
    copy_runtime(runtime)
    for case in sorted(os.path.dirname(p) for p in glob.glob(os.path.join(cases_dir, "*", "gpu.sdfg"))):
        dace.symbolic.pystr_to_symbolic.cache_clear()
        try:
            prepare_case(case, runtime, cpu_dirs)
            print("PREPARED", os.path.basename(case), flush=True)
        except Exception as e:  # noqa: BLE001 - one case's failure is reported
            shutil.rmtree(os.path.join(case, "dace"), ignore_errors=True)
            print("FAILED", os.path.basename(case), first_line(e), flush=True)


# ------------------------------------------------------------------- build

def find_nvcc(given):
    versions = sorted(glob.glob("/usr/local/cuda-*/bin/nvcc"), key=lambda p: [int(v) for v in re.findall(r"\d+", p)])
    candidates = [given, os.environ.get("NVCC"), shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc", *versions[::-1]]
    return next((c for c in candidates if c and os.access(c, os.X_OK)), None)


def build_case(case, runtime, nvcc, arch, timeout):
    """Compiles CASE/dace into libprogram.so; returns None or the first error line."""
    start, folder = time.monotonic(), os.path.abspath(os.path.join(case, "dace"))
    with open(os.path.join(folder, "signature.json")) as f:
        sig = json.load(f)
    if "cuda" in sig["flags"] and not nvcc:
        return "nvcc not found (--nvcc PATH)"
    build, library = os.path.join(folder, "build"), os.path.join(folder, "libprogram.so")
    shutil.rmtree(build, ignore_errors=True)
    os.makedirs(build)
    if os.path.exists(library):
        os.remove(library)
    root = os.path.dirname(os.path.dirname(os.path.realpath(nvcc))) if nvcc else ""
    cudalib = next((os.path.join(root, d) for d in ("lib64", "lib") if os.path.isdir(os.path.join(root, d))), "")
    values = {"{build}": build, "{runtime}": os.path.abspath(runtime), "{cuda}": root, "{cudalib}": cudalib,
              "{arch}": arch.removeprefix("sm_")}

    def fill(kind):
        return [re.sub(r"\{\w+\}", lambda m: values.get(m[0], m[0]), flag) for flag in sig["flags"][kind]]

    cxx, commands, objects, device = os.environ.get("CXX", "g++"), [], [], []
    for source in sig["sources"]:
        cu = source.endswith(".cu")
        objects.append(os.path.join(build, os.path.basename(source) + ".o"))
        device += objects[-1:] * cu
        commands.append([nvcc if cu else cxx, *fill("cuda" if cu else "cxx"), "-c", os.path.join(folder, source),
                         "-o", objects[-1]])
    if device:  # separable compilation: the device code is linked first
        objects.append(os.path.join(build, "device_link.o"))
        commands.append([nvcc, *fill("dlink"), *device, "-o", objects[-1], "-lcudadevrt"])
    commands.append([cxx, *fill("link"), "-o", library, *objects, *fill("libs")])
    with open(os.path.join(folder, "build.log"), "w") as log:
        for command in commands:
            log.write("$ " + " ".join(command) + "\n")
            log.flush()
            try:
                done = subprocess.run(command, check=False, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                      text=True, timeout=max(1.0, timeout - (time.monotonic() - start)))
            except subprocess.TimeoutExpired:
                return f"timeout after {timeout} s"
            log.write(done.stdout)
            if done.returncode:
                lines = done.stdout.splitlines() or [f"{command[0]} exited with {done.returncode}"]
                return next((line for line in lines if "error" in line.lower()), lines[0]).strip()
    return None


def build(cases_dir, arch, jobs, nvcc, timeout):
    nvcc = find_nvcc(nvcc)
    print("nvcc:", nvcc, flush=True)

    def one(case):
        start = time.monotonic()
        try:
            error = build_case(case, os.path.join(cases_dir, RUNTIME), nvcc, arch, timeout)
        except Exception as e:  # noqa: BLE001 - one case's failure is reported
            error = first_line(e)
        name = os.path.basename(case)
        print(f"BUILDFAIL {name} {error}" if error else f"BUILT {name} {time.monotonic() - start:.1f}", flush=True)

    signatures = glob.glob(os.path.join(cases_dir, "*", "dace", "signature.json"))
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        list(pool.map(one, sorted(os.path.dirname(os.path.dirname(p)) for p in signatures)))


# --------------------------------------------------------------------- run

def cuda_check(cudart, err, what):
    if err:
        cudart.cudaGetErrorString.restype = ctypes.c_char_p
        sys.exit(f"{what}: {cudart.cudaGetErrorString(err).decode()}")


def memcpy(cudart, dst, src, size, kind):  # kind 1: host to device, 2: device to host
    err = cudart.cudaMemcpy(ctypes.c_void_p(dst), ctypes.c_void_p(src), ctypes.c_size_t(size), kind)
    cuda_check(cudart, err, "cudaMemcpy")


def random_values(index, shape, dtype):
    rng = np.random.default_rng(index)
    return rng.random(shape) if dtype.kind in "fc" else rng.integers(0, 2 if dtype.kind == "b" else 10, shape)


def make_array(arg, index, inputs, symbols, cudart):
    """(buffer of the descriptor's total size, view with its shape and strides, device copy or None)."""
    dtype, shape = np.dtype(arg["dtype"]), tuple(evaluate(e, symbols) for e in arg["shape"])
    base = np.zeros(evaluate(arg["total_size"], symbols), dtype)
    view = np.ndarray(shape, dtype, base, strides=tuple(evaluate(e, symbols) * dtype.itemsize for e in arg["strides"]))
    path = os.path.join(inputs, arg["name"] + ".npy")
    if os.path.isfile(path):
        data = np.load(path)
        if data.shape != shape:
            sys.exit(f"{path}: shape {data.shape}, the program's {arg['name']} has {shape}")
        view[...] = data
    elif not arg["name"].startswith("__return"):
        view[...] = random_values(index, shape, dtype)
    if arg["storage"] != "GPU_Global":  # DaCe passes host arrays as they are (CPU_Pinned ones too)
        return base, view, None
    if cudart is None:
        sys.exit(f"{arg['name']}: a GPU array, but the library has no CUDA runtime")
    device = ctypes.c_void_p()
    cuda_check(cudart, cudart.cudaMalloc(ctypes.byref(device), ctypes.c_size_t(max(base.nbytes, 1))), "cudaMalloc")
    return base, view, device.value


def run(case, repeat, timeout, inputs):
    faulthandler.dump_traceback_later(timeout, exit=True)  # ends even a call that hangs in C
    folder, symbols = os.path.join(case, "dace"), read_symbols(case)
    with open(os.path.join(folder, "signature.json")) as f:
        sig = json.load(f)
    try:
        lib = ctypes.CDLL(os.path.abspath(os.path.join(folder, "libprogram.so")))
    except OSError as e:
        sys.exit(str(e))
    with open("/proc/self/maps") as f:  # the CUDA runtime libprogram.so loaded, if any
        cudart = next((ctypes.CDLL(line.split()[-1]) for line in f if "libcudart.so" in line), None)
    values, arrays = {}, []  # name: ctypes value; (name, buffer, pristine copy, view, device pointer)
    for index, arg in enumerate(sig["args"]):
        name, dtype, path = arg["name"], np.dtype(arg["dtype"]), os.path.join(inputs, arg["name"] + ".npy")
        if arg["kind"] == "array":
            base, view, device = make_array(arg, index, inputs, symbols, cudart)
            arrays.append((name, base, base.copy(), view, device))
            values[name] = ctypes.c_void_p(device or base.ctypes.data)
        elif os.path.isfile(path) or name in symbols or arg["kind"] == "scalar":
            value = (np.load(path).item() if os.path.isfile(path) else symbols[name] if name in symbols
                     else random_values(index, (), dtype).item())
            values[name] = np.ctypeslib.as_ctypes_type(dtype)(value)
        else:
            sys.exit(f"symbol {name} has no value in {case}/symbols")
    init, program, exit_ = (getattr(lib, f"{f}_{sig['name']}") for f in ("__dace_init", "__program", "__dace_exit"))
    init.restype, program.restype, exit_.restype = ctypes.c_void_p, None, ctypes.c_int
    handle = ctypes.c_void_p(init(*(values[a["name"]] for a in sig["init"])))
    if not handle.value:
        sys.exit("DaCe application failed to initialize")

    def call():
        for _, base, pristine, _, device in arrays:
            np.copyto(base, pristine)
            if device:
                memcpy(cudart, device, base.ctypes.data, base.nbytes, 1)
        start = time.perf_counter()
        program(handle, *(values[a["name"]] for a in sig["args"]))
        return (time.perf_counter() - start) * 1e3

    call()
    if cudart:  # as CompiledSDFG does after a call
        cuda_check(cudart, cudart.cudaGetLastError(), "the call")
    out = os.path.join(case, "dace_out")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    for name, base, _, view, device in arrays:
        if device:
            memcpy(cudart, base.ctypes.data, device, base.nbytes, 2)
        np.save(os.path.join(out, name + ".npy"), view)
    print(f"saved {len(arrays)} arrays to {out}", flush=True)
    times = sorted(call() for _ in range(max(repeat, 1)))
    print(f"time: median {times[len(times) // 2]:.3f} ms, min {times[0]:.3f} ms over {len(times)} runs", flush=True)
    err = exit_(handle)
    if err:
        sys.exit(f"__dace_exit_{sig['name']} reported error {err}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["prepare", "build", "run"])
    parser.add_argument("path", help="CASES_DIR (prepare, build) or CASE (run)")
    parser.add_argument("--cpu", action="append", default=[], metavar="DIR", help="prepare: the CPU-only test")
    parser.add_argument("--arch", default="sm_90", help="build: the GPU's (default: H100/H200)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count(), help="build: cases at a time")
    parser.add_argument("--nvcc", help="build: the CUDA compiler")
    parser.add_argument("--repeat", type=int, default=10, help="run: timed calls")
    parser.add_argument("--inputs", help="run: the folder of NAME.npy inputs (default: CASE/in)")
    parser.add_argument("--timeout", type=float, default=300, help="build, run: seconds per case")
    args = parser.parse_args()
    if args.command == "prepare":
        import warnings
        warnings.filterwarnings("ignore")
        prepare(args.path, args.cpu)
    elif args.command == "build":
        build(args.path, args.arch, args.jobs, args.nvcc, args.timeout)
    else:
        run(args.path, args.repeat, args.timeout, args.inputs or os.path.join(args.path, "in"))


if __name__ == "__main__":
    main()
