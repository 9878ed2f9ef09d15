//! The GPU lowering on every machine (no GPU needed): every GPU-scheduled
//! program DaCe validates in the corpus, and the seeds after DaCe's
//! `apply_gpu_transformations()`, either lower to PTX that CUDA's `ptxas`
//! (the `nvidia-cuda-nvcc-cu12` wheel in the venv) assembles for sm_80 and
//! sm_90, or get a diagnostic; the seeds after our `sdfg-gpu-transform`
//! instead all lower. `scripts/gpu-check.sh` runs them on a GPU.

use std::path::{Path, PathBuf};
use std::process::Command;

use sdfg_execution::{compile_ptx, Options};

use crate::import::{corpus_dir, dace_index, dace_python};

/// The chips every PTX is assembled for.
const CHIPS: [&str; 2] = ["sm_80", "sm_90"];

/// Programs of the corpus that must lower, of 15 (the others get diagnostics:
/// cuBLAS calls in C++ tasklets, host arrays read inside kernels, a
/// thread-block map saved without its kernel, a block of 2048 threads).
const MINIMUM_CORPUS_LOWERED: usize = 9;

/// `nvidia/cuda_nvcc` of the venv's wheel: `bin/ptxas` and libdevice.
fn cuda_nvcc(python: &Path) -> Option<PathBuf> {
    let out = Command::new(python)
        .args(["-c", "import nvidia.cuda_nvcc as n; print(n.__path__[0])"])
        .output()
        .ok()?;
    let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    dir.join("bin/ptxas").exists().then_some(dir)
}

/// Lowers `path` (after `pipeline`, if any) for every chip and assembles
/// each PTX: `Ok(modules)`, or the diagnostic. A PTX that ptxas rejects
/// fails the test.
fn lower_and_assemble(
    path: &Path,
    pipeline: Option<String>,
    ptxas: &Path,
    work: &Path,
) -> Result<usize, String> {
    let mut modules = 0;
    for chip in CHIPS {
        let options = Options {
            gpu_chip: Some(chip.to_string()),
            pass_pipeline: pipeline.clone(),
            ..Options::default()
        };
        let kernels = compile_ptx(path, &options)?;
        for (name, ptx) in kernels {
            let file = work.join(format!("{name}.{chip}.ptx"));
            std::fs::write(&file, &ptx).expect("write PTX");
            let out = Command::new(ptxas)
                .arg(format!("-arch={chip}"))
                .arg(&file)
                .arg("-o")
                .arg(work.join("out.cubin"))
                .output()
                .expect("run ptxas");
            assert!(
                out.status.success(),
                "ptxas rejects the PTX of {} for {chip} ({name}):\n{}",
                path.display(),
                String::from_utf8_lossy(&out.stderr)
            );
            modules += 1;
        }
    }
    Ok(modules)
}

#[test]
fn gpu_programs_lower_to_ptx_that_ptxas_accepts() {
    let Some(python) = dace_python() else {
        return;
    };
    let toolkit = cuda_nvcc(&python);
    assert!(
        toolkit.is_some() || std::env::var_os("SDFG_REQUIRE_DACE").is_none(),
        "the venv has no nvidia-cuda-nvcc-cu12 (scripts/dace-venv.sh installs it)"
    );
    let Some(toolkit) = toolkit else { return };
    std::env::set_var("SDFG_CUDA_TOOLKIT", &toolkit);
    let ptxas = toolkit.join("bin/ptxas");
    let work = tempfile::tempdir().expect("temporary folder");

    // The seeds after DaCe's GPU transformation.
    let seeds: Vec<PathBuf> = std::fs::read_dir(corpus_dir().join("seeds"))
        .expect("seeds")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "sdfg"))
        .collect();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/python/gpu_cases.py");
    let out = Command::new(&python)
        .arg(&script)
        .arg(work.path().join("cases"))
        .args(&seeds)
        .output()
        .expect("run gpu_cases.py");
    let made = String::from_utf8_lossy(&out.stdout);
    assert!(
        !made.contains("FAILED"),
        "DaCe's GPU transformation fails:\n{made}"
    );
    let mut programs: Vec<(String, PathBuf)> = made
        .lines()
        .filter_map(|l| l.strip_prefix("CASE "))
        .map(|name| {
            (
                name.to_string(),
                work.path().join("cases").join(name).join("gpu.sdfg"),
            )
        })
        .collect();
    let seed_count = programs.len();
    assert_eq!(seed_count, seeds.len(), "{made}");

    // The seeds after our sdfg-gpu-transform instead (the pipeline in
    // each `_ours` case): every one lowers.
    let mut ours_modules = 0;
    for name in made.lines().filter_map(|l| l.strip_prefix("OURS ")) {
        let case = work.path().join("cases").join(name);
        let pipeline = std::fs::read_to_string(case.join("pipeline")).expect("pipeline");
        ours_modules += lower_and_assemble(
            &case.join("program.sdfg"),
            Some(pipeline.trim().to_string()),
            &ptxas,
            work.path(),
        )
        .unwrap_or_else(|e| panic!("seed {name} after sdfg-gpu-transform does not lower: {e}"));
    }
    assert!(
        ours_modules > 0,
        "sdfg-gpu-transform makes no kernels of the seeds:\n{made}"
    );

    // The corpus programs DaCe validates that use the GPU.
    let dir = corpus_dir().join("dace");
    for (file, verdict) in dace_index() {
        let path = dir.join(&file);
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        if verdict == "ok" && text.contains("\"GPU_") {
            programs.push((file, path));
        }
    }

    let (mut lowered, mut corpus_lowered, mut modules) = (0, 0, 0);
    let mut report = String::new();
    for (k, (name, path)) in programs.iter().enumerate() {
        match lower_and_assemble(path, None, &ptxas, work.path()) {
            Ok(n) => {
                lowered += 1;
                corpus_lowered += usize::from(k >= seed_count);
                modules += n;
            }
            Err(e) => {
                // The first error (warnings may come before it).
                let first = e
                    .lines()
                    .find(|l| l.contains("error:"))
                    .or_else(|| e.lines().next())
                    .unwrap_or_default()
                    .to_string();
                assert!(
                    k >= seed_count,
                    "seed {name} after apply_gpu_transformations does not lower: {e}"
                );
                report.push_str(&format!("  diagnostic: {name}: {first}\n"));
            }
        }
    }
    let corpus = programs.len() - seed_count;
    eprintln!(
        "GPU programs lowered to PTX that ptxas assembles for {}: {lowered} of {} \
         ({seed_count} of {seed_count} seeds after apply_gpu_transformations, \
         {corpus_lowered} of {corpus} corpus programs); {modules} kernel modules; \
         the {seed_count} seeds after sdfg-gpu-transform: {ours_modules} kernel modules\n{report}",
        CHIPS.join(" and "),
        programs.len()
    );
    assert!(
        corpus_lowered >= MINIMUM_CORPUS_LOWERED,
        "only {corpus_lowered} corpus programs lower\n{report}"
    );
}
