//! The one list of the project's passes, pipelines and translations:
//! `sdfg-opt`, `sdfg-translate`, `sdfg-run` and the tests register from it,
//! and `docs/Passes.md` is generated from it.
//!
//! The registry depends on every pass and translation crate; nothing but
//! the tools, the execution engine (which runs the registered lowering
//! pipeline) and the benchmarks depend on it.

#![deny(missing_docs)]

use sdfg_dialect::driver::{
    self, PassRegistration, PipelineRegistration, TranslationFromMlir, TranslationToMlir,
};

/// Every Rust pass, in the order `--help` lists them.
pub static PASSES: &[&PassRegistration] = &[
    &sdfg_analysis::validate::REGISTRATION,
    &sdfg_analysis::propagate::REGISTRATION,
    &sdfg_analysis::executions::REGISTRATION,
    &sdfg_analysis::history::REGISTRATION,
    &sdfg_transforms::expand_library::REGISTRATION,
    &sdfg_transforms::simplify::REGISTRATION,
    &sdfg_transforms::inline_sdfgs::REGISTRATION,
    &sdfg_transforms::inline_multistate::REGISTRATION,
    &sdfg_transforms::dead_state_elimination::REGISTRATION,
    &sdfg_transforms::state_fusion::REGISTRATION,
    &sdfg_transforms::constant_propagation::REGISTRATION,
    &sdfg_transforms::loop_raising::REGISTRATION,
    &sdfg_transforms::branch_raising::REGISTRATION,
    &sdfg_transforms::trivial_tasklet::REGISTRATION,
    &sdfg_transforms::view_elimination::REGISTRATION,
    &sdfg_transforms::redundant_array::REGISTRATION,
    &sdfg_transforms::consolidate_edges::REGISTRATION,
    &sdfg_transforms::dead_dataflow_elimination::REGISTRATION,
    &sdfg_transforms::scalar_to_symbol::REGISTRATION,
    &sdfg_transforms::remove_unused_containers::REGISTRATION,
    &sdfg_transforms::persistent::REGISTRATION,
    &sdfg_transforms::remove_unused_symbols::REGISTRATION,
    &sdfg_transforms::maps::tiling::REGISTRATION,
    &sdfg_transforms::maps::strip_mining::REGISTRATION,
    &sdfg_transforms::maps::accumulate::REGISTRATION,
    &sdfg_transforms::maps::accumulate::WCR_TILING,
    &sdfg_transforms::maps::expansion::REGISTRATION,
    &sdfg_transforms::maps::collapse::REGISTRATION,
    &sdfg_transforms::maps::interchange::REGISTRATION,
    &sdfg_transforms::maps::reorder::REGISTRATION,
    &sdfg_transforms::maps::fusion::REGISTRATION,
    &sdfg_transforms::maps::reduce_fusion::REGISTRATION,
    &sdfg_transforms::maps::reduce_peeling::REGISTRATION,
    &sdfg_transforms::maps::local_storage::IN_REGISTRATION,
    &sdfg_transforms::maps::local_storage::OUT_REGISTRATION,
    &sdfg_transforms::maps::vectorization::REGISTRATION,
    &sdfg_transforms::maps::fission::REGISTRATION,
    &sdfg_transforms::loop_to_map::REGISTRATION,
    &sdfg_transforms::auto_optimize::REGISTRATION,
    &sdfg_transforms::fpga_transform::REGISTRATION,
    &sdfg_transforms::gpu_transform::REGISTRATION,
    &sdfg_transforms::move_loop_into_map::REGISTRATION,
    &sdfg_transforms::transpose_folding::REGISTRATION,
    &sdfg_conversion::sdfg_to_scf::REGISTRATION,
    &sdfg_conversion::openmp_if::REGISTRATION,
    &sdfg_conversion::to_sdfg::REGISTRATION,
    &sdfg_conversion::sdfg_to_gpu::REGISTRATION,
    &sdfg_conversion::sdfg_to_gpu::launch_scopes::REGISTRATION,
];

/// Every named pipeline.
pub static PIPELINES: &[&PipelineRegistration] = &[
    &sdfg_conversion::LOWER_TO_LLVM,
    &sdfg_conversion::sdfg_to_gpu::LOWER_TO_NVVM,
    &sdfg_conversion::to_sdfg::FROM_UPSTREAM,
];

/// Every Rust translation from MLIR.
pub static TRANSLATIONS_FROM_MLIR: &[&TranslationFromMlir] = &[
    &sdfg_target_dot::TRANSLATION,
    &sdfg_target_dace::export::TRANSLATION,
    &sdfg_target_dace::export::TRANSLATION_COMPRESSED,
    &sdfg_target_hls::TRANSLATION,
    &sdfg_target_hls::TESTBENCH,
];

/// Every Rust translation to MLIR.
pub static TRANSLATIONS_TO_MLIR: &[&TranslationToMlir] = &[&sdfg_target_dace::import::TRANSLATION];

/// Registers all passes and translations with MLIR and installs
/// [`sdfg_analysis::validate::validate_one`] as the validation every
/// `sdfg.sdfg` verifier runs. Idempotent.
pub fn register_all() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        driver::set_validator(sdfg_analysis::validate::validate_one);
        for pass in PASSES {
            driver::register_pass(pass);
        }
        for pipeline in PIPELINES {
            driver::register_pipeline(pipeline);
        }
        for translation in TRANSLATIONS_FROM_MLIR {
            driver::register_translation_from_mlir(translation);
        }
        for translation in TRANSLATIONS_TO_MLIR {
            driver::register_translation_to_mlir(translation);
        }
    });
}

/// The text of `docs/Passes.md`.
pub fn passes_markdown() -> String {
    let mut out = String::from(
        "# Passes and translations\n\n\
         Generated from `passes/registry/src/lib.rs`; `cargo test` fails when this file is stale \
         (regenerate with `SDFG_BLESS=1 cargo test`).\n\n## Passes (`sdfg-opt`)\n\n\
         | pass | runs on | summary |\n| --- | --- | --- |\n",
    );
    for pass in PASSES {
        let on = if pass.op_name.is_empty() {
            "any op"
        } else {
            pass.op_name
        };
        out.push_str(&format!(
            "| `{}` | {} | {} |\n",
            pass.argument, on, pass.summary
        ));
    }
    out.push_str(
        "\n## Pipelines (`sdfg-opt`)\n\n| pipeline | summary | passes |\n| --- | --- | --- |\n",
    );
    for p in PIPELINES {
        out.push_str(&format!(
            "| `{}` | {} | `{}` |\n",
            p.argument,
            p.summary,
            p.pipeline.split_whitespace().collect::<String>()
        ));
    }
    out.push_str("\n## Translations (`sdfg-translate`)\n\n| flag | summary |\n| --- | --- |\n");
    for t in TRANSLATIONS_FROM_MLIR {
        out.push_str(&format!("| `--{}` | {} |\n", t.name, t.summary));
    }
    for t in TRANSLATIONS_TO_MLIR {
        out.push_str(&format!("| `--{}` | {} |\n", t.name, t.summary));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pass, pipeline and translation has its own name and a summary,
    /// and the generated documentation lists each of them.
    #[test]
    fn every_registration_is_named_once_and_documented() {
        let names: Vec<&str> = PASSES
            .iter()
            .map(|p| p.argument)
            .chain(PIPELINES.iter().map(|p| p.argument))
            .chain(TRANSLATIONS_FROM_MLIR.iter().map(|t| t.name))
            .chain(TRANSLATIONS_TO_MLIR.iter().map(|t| t.name))
            .collect();
        let unique: std::collections::BTreeSet<&str> = names.iter().copied().collect();
        assert_eq!(unique.len(), names.len(), "duplicate names in {names:?}");
        let summaries = PASSES
            .iter()
            .map(|p| p.summary)
            .chain(PIPELINES.iter().map(|p| p.summary))
            .chain(TRANSLATIONS_FROM_MLIR.iter().map(|t| t.summary))
            .chain(TRANSLATIONS_TO_MLIR.iter().map(|t| t.summary));
        assert!(summaries.into_iter().all(|s| !s.trim().is_empty()));
        let doc = passes_markdown();
        for name in names {
            assert!(doc.contains(&format!("`{name}`")) || doc.contains(&format!("`--{name}`")));
        }
    }
}
