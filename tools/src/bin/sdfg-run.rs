//! `sdfg-run`: lowers, compiles and runs an SDFG (`.mlir` or DaCe
//! `.sdfg`/`.sdfgz`) on `.npy` inputs or seeded random data, and reports or
//! writes its outputs.

use sdfg_conversion::sdfg_to_scf::SymbolType;
use sdfg_execution::{self as execute, npy::Array, Buffer, Options, SymbolValues};
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "usage: sdfg-run PROGRAM.{mlir,sdfg,sdfgz} [options]
  --set NAME=VALUE        the value of a symbol (a float for DaCe's floating-point
                          symbols), or of a scalar argument
  --input NAME=FILE.npy   an argument's contents (default: random data); a
                          structure's members are arguments NAME.MEMBER
  --seed N                seed of the random inputs (default 0)
  --out DIR               write every container the program writes as DIR/NAME.npy
  --save-inputs DIR       write the inputs as DIR/NAME.npy
  --time                  time repeated runs (compilation excluded), report the median
  --repeat N              number of timed runs (default 10)
  --function NAME         the sdfg.sdfg to run (default: the first); the others
                          are not lowered
  --check-bounds          check every memlet access against its container's
                          bounds; an access outside stops the program with an error
  --blas                  MatMul (batched too), Gemm, Gemv, Dot and Ger nodes call
                          CBLAS (libblas.so.3, OpenBLAS where installed), as DaCe's
                          fast implementations
  --linalg                MatMul, Gemm, Gemv, Dot and Transpose nodes become linalg
                          named ops, lowered by upstream's convert-linalg-to-loops
  -O                      optimise: run sdfg-auto-optimize before lowering (after
                          --pass-pipeline); BLAS nodes then call CBLAS
  --pass-pipeline=PIPELINE  run a pass pipeline on the program before lowering it
                          (as sdfg-opt takes it: builtin.module(sdfg-simplify))
  --emit-object FILE      write the compiled object file (C interface:
                          _mlir_ciface_NAME(memref descriptors..., symbols...): int64_t
                          per integer symbol, float or double per floating-point one)
  --emit-llvm-dialect FILE  write the lowered module (llvm dialect)
  --cpu-fallback          run GPU-scheduled maps on the CPU (without it, a program
                          with GPU_Device maps needs an NVIDIA GPU and its driver)
  --gpu-chip sm_XY        compile kernels for this chip (default: the GPU's own)
  --emit-ptx DIR          write each kernel module's PTX as DIR/NAME.ptx (for
                          --gpu-chip, default sm_90) and stop; needs no GPU";

#[derive(Default)]
struct Args {
    program: Option<PathBuf>,
    sets: Vec<(String, String)>,
    inputs: Vec<(String, PathBuf)>,
    seed: u64,
    out: Option<PathBuf>,
    save_inputs: Option<PathBuf>,
    time: bool,
    repeat: usize,
    emit_ptx: Option<PathBuf>,
    options: Options,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        repeat: 10,
        ..Args::default()
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = |flag: &str| it.next().ok_or_else(|| format!("{flag} needs a value"));
        let pair = |text: String, flag: &str| -> Result<(String, String), String> {
            text.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .ok_or_else(|| format!("{flag} takes NAME=VALUE, got `{text}`"))
        };
        match a.as_str() {
            "--set" => args.sets.push(pair(value("--set")?, "--set")?),
            "--input" => {
                let (k, v) = pair(value("--input")?, "--input")?;
                args.inputs.push((k, PathBuf::from(v)));
            }
            "--seed" => {
                args.seed = value("--seed")?
                    .parse()
                    .map_err(|_| "--seed takes an integer")?
            }
            "--out" => args.out = Some(value("--out")?.into()),
            "--save-inputs" => args.save_inputs = Some(value("--save-inputs")?.into()),
            "--time" => args.time = true,
            "--repeat" => {
                args.repeat = value("--repeat")?
                    .parse()
                    .map_err(|_| "--repeat takes an integer")?
            }
            "--function" => args.options.function = Some(value("--function")?),
            "--check-bounds" => args.options.check_bounds = true,
            "--blas" => args.options.blas = true,
            "--linalg" => args.options.linalg = true,
            "-O" => args.options.optimize = true,
            "--pass-pipeline" => args.options.pass_pipeline = Some(value("--pass-pipeline")?),
            flag if flag.starts_with("--pass-pipeline=") => {
                args.options.pass_pipeline = Some(flag["--pass-pipeline=".len()..].to_string())
            }
            "--emit-object" => args.options.object_file = Some(value("--emit-object")?.into()),
            "--emit-llvm-dialect" => {
                args.options.llvm_dialect_file = Some(value("--emit-llvm-dialect")?.into())
            }
            "--cpu-fallback" => args.options.cpu_fallback = true,
            "--gpu-chip" => args.options.gpu_chip = Some(value("--gpu-chip")?),
            "--emit-ptx" => args.emit_ptx = Some(value("--emit-ptx")?.into()),
            "-h" | "--help" => return Err(USAGE.to_string()),
            flag if flag.starts_with('-') => {
                return Err(format!("unknown option `{flag}`\n{USAGE}"))
            }
            path => {
                if args.program.replace(PathBuf::from(path)).is_some() {
                    return Err(format!("more than one program given\n{USAGE}"));
                }
            }
        }
    }
    if args.program.is_none() {
        return Err(USAGE.to_string());
    }
    Ok(args)
}

fn checksum(array: &Array) -> f64 {
    (0..array.components())
        .map(|i| array.dtype.get(&array.data, i))
        .sum()
}

fn describe(array: &Array) -> String {
    let dims: Vec<String> = array.shape.iter().map(|d| d.to_string()).collect();
    format!("{}[{}]", array.dtype.descr(), dims.join(", "))
}

extern "C" {
    fn signal(signum: i32, handler: usize) -> usize;
    fn fflush(stream: *mut std::ffi::c_void) -> i32;
    fn _exit(status: i32) -> !;
}

/// A failed bounds check (`cf.assert`) and the stream runtime's errors (a
/// pop from an empty stream, a consume scope that would wait forever) print
/// their message and abort; this turns the abort into sdfg-run's error
/// exit.
extern "C" fn on_abort(_: i32) {
    const MESSAGE: &[u8] =
        b"\nsdfg-run: error: the program stopped at a failed check or a runtime error (message above)\n";
    // SAFETY: the process is ending: the check's message (printed through
    // C's stdio) is flushed, then the process leaves without unwinding.
    unsafe { fflush(std::ptr::null_mut()) };
    std::io::Write::write_all(&mut std::io::stderr(), MESSAGE).ok();
    unsafe { _exit(1) }
}

fn run(args: Args) -> Result<(), String> {
    let program_path = args.program.clone().unwrap_or_default();
    const SIGABRT: i32 = 6;
    // SAFETY: installs a handler that only writes and exits.
    unsafe { signal(SIGABRT, on_abort as *const () as usize) };
    if let Some(dir) = &args.emit_ptx {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let kernels = execute::compile_ptx(&program_path, &args.options)?;
        for (name, ptx) in &kernels {
            let path = dir.join(format!("{name}.ptx"));
            std::fs::write(&path, ptx).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        println!(
            "{} kernel modules written to {}",
            kernels.len(),
            dir.display()
        );
        return Ok(());
    }
    let program = execute::compile(&program_path, &args.options)?;
    if let Some(gpu) = &program.gpu {
        eprintln!("sdfg-run: note: kernels run on {gpu}");
    }
    let abi = &program.abi;
    // Symbols: --set, else the sizes of input arrays whose dimension is a
    // bare symbol.
    let mut symbols: HashMap<String, i64> = HashMap::new();
    let mut floats: HashMap<String, f64> = HashMap::new();
    let mut complexes: HashMap<String, (f64, f64)> = HashMap::new();
    let mut scalars: HashMap<String, f64> = HashMap::new();
    let symbol_type = |name: &str| abi.symbols.iter().find(|s| s.name == name).map(|s| s.ty);
    for (name, value) in &args.sets {
        let number = || -> Result<f64, String> {
            value
                .parse()
                .map_err(|_| format!("--set {name}: `{value}` is not a number"))
        };
        if abi.arguments.iter().any(|a| &a.name == name) {
            scalars.insert(name.clone(), number()?);
        } else if let Some(SymbolType::Complex64 | SymbolType::Complex128) = symbol_type(name) {
            let z = execute::parse_complex(value).ok_or_else(|| {
                format!("--set {name}: `{value}` is not a complex number (write it as Python does: 1.5-2j)")
            })?;
            complexes.insert(name.clone(), z);
        } else if symbol_type(name).is_some_and(|t| t != SymbolType::Integer) {
            floats.insert(name.clone(), number()?);
        } else {
            let v: i64 = value
                .parse()
                .map_err(|_| format!("--set {name}: `{value}` is not an integer"))?;
            symbols.insert(name.clone(), v);
        }
    }
    let mut arrays: HashMap<String, Array> = HashMap::new();
    for (name, path) in &args.inputs {
        let Some(arg) = abi.arguments.iter().find(|a| &a.name == name) else {
            return Err(format!(
                "--input {name}: the program has no argument `{name}`"
            ));
        };
        let array = Array::read(path)?;
        for (dim, size) in arg.layout.shape.iter().zip(&array.shape) {
            if let Some(s) = dim.as_symbol() {
                symbols.entry(s.to_string()).or_insert(*size as i64);
            }
        }
        arrays.insert(name.clone(), array);
    }
    for s in &abi.symbols {
        if !symbols.contains_key(&s.name)
            && !floats.contains_key(&s.name)
            && !complexes.contains_key(&s.name)
        {
            return Err(format!(
                "symbol `{0}` has no value: pass --set {0}=VALUE",
                s.name
            ));
        }
    }
    let mut buffers = execute::buffers(abi, &symbols)?;
    let symbols = SymbolValues {
        ints: symbols,
        floats,
        complexes,
    };
    for (i, (arg, buffer)) in abi.arguments.iter().zip(buffers.iter_mut()).enumerate() {
        if let Some(array) = arrays.get(&arg.name) {
            let note = buffer
                .fill(array)
                .map_err(|e| format!("--input {}: {e}", arg.name))?;
            if let Some(note) = note {
                eprintln!("sdfg-run: note: --input {}: {note}", arg.name);
            }
        } else if let Some(v) = scalars.get(&arg.name) {
            let one = Array {
                dtype: execute::npy::Dtype::Float(8),
                shape: buffer.shape.clone(),
                data: std::iter::repeat_n(v.to_le_bytes(), buffer.shape.iter().product())
                    .flatten()
                    .collect(),
            };
            buffer
                .fill(&one)
                .map_err(|e| format!("--set {}: {e}", arg.name))?;
        } else {
            buffer.randomize(args.seed.wrapping_add(i as u64));
        }
    }
    if let Some(dir) = &args.save_inputs {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for (arg, buffer) in abi.arguments.iter().zip(&buffers) {
            buffer
                .to_array()
                .write(&dir.join(format!("{}.npy", arg.name)))?;
        }
    }
    let pristine: Vec<Buffer> = buffers.clone();
    program.call(&mut buffers, &symbols)?;
    // What the program printed (`sdfg.printf`, through C's stdio) comes
    // before the report.
    // SAFETY: flushing every C stream has no other effect.
    unsafe { fflush(std::ptr::null_mut()) };
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    for (arg, buffer) in abi.arguments.iter().zip(&buffers) {
        if !arg.written {
            continue;
        }
        let array = buffer.to_array();
        println!(
            "{}: {} checksum {:.10e}",
            arg.name,
            describe(&array),
            checksum(&array)
        );
        if let Some(dir) = &args.out {
            array.write(&dir.join(format!("{}.npy", arg.name)))?;
        }
    }
    if args.time {
        let mut times = Vec::new();
        for _ in 0..args.repeat.max(1) {
            let mut fresh = pristine.clone();
            let start = Instant::now();
            program.call(&mut fresh, &symbols)?;
            times.push(start.elapsed().as_secs_f64() * 1e3);
        }
        times.sort_by(f64::total_cmp);
        println!(
            "time: median {:.3} ms, min {:.3} ms over {} runs",
            times[times.len() / 2],
            times[0],
            times.len()
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("sdfg-run: error: {message}");
            ExitCode::FAILURE
        }
    }
}
