//! `--emit-hls`: Vitis HLS C++ from an FPGA-scheduled SDFG, and
//! `--emit-hls-testbench`: the host side that runs it in C simulation.
//!
//! `sdfg-fpga-transform` makes a program one FPGA kernel; this target
//! writes that kernel as a synthesizable top-level function
//! ([`kernel`]): `m_axi` interfaces for `FPGA_Global` arrays,
//! `s_axilite` for symbols and scalars, one function per `FPGA_Device`
//! scope, maps as pipelined or unrolled loop nests, tasklets with MLIR
//! bodies as C++ statements ([`tasklet`]). What HLS cannot synthesize
//! (foreign Python code, data without an on-chip size) and what the
//! emitter does not support yet is a diagnostic at the op.
//!
//! The testbench ([`testbench`]) reads the program's inputs from `.npy`
//! files (as `sdfg-run --save-inputs` writes them), performs the host's
//! copies into device memory, calls the kernel, and writes the outputs as
//! `.npy` files, so that C simulation is compared with `sdfg-run` on the
//! same inputs. It compiles with g++ against `include/` (this crate's
//! `hls_stream.h` runs dataflow processes on threads with bounded,
//! blocking streams and reports deadlocks).
//!
//! Like every target, this crate depends on the dialect and the core
//! libraries only.

#![deny(missing_docs)]

pub mod cexpr;
pub mod kernel;
pub mod tasklet;
pub mod testbench;

use sdfg_dialect::driver::{Diagnosed, TranslationFromMlir};
use sdfg_dialect::ir::Op;

/// The `--emit-hls` translation.
pub static TRANSLATION: TranslationFromMlir = TranslationFromMlir {
    name: "emit-hls",
    summary: "Emit Vitis HLS C++ for an FPGA-scheduled SDFG (after sdfg-fpga-transform)",
    translate: |op, out| translate(op, out, false),
};

/// The `--emit-hls-testbench` translation.
pub static TESTBENCH: TranslationFromMlir = TranslationFromMlir {
    name: "emit-hls-testbench",
    summary: "Emit the C++ testbench that runs the --emit-hls kernel on .npy inputs (C simulation)",
    translate: |op, out| translate(op, out, true),
};

/// The directory of the headers the emitted code compiles against with
/// g++ (`hls_stream.h`, `sdfg_hls_testbench.h`).
pub fn include_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("include")
}

fn translate(
    module: Op<'_>,
    out: &mut dyn std::io::Write,
    testbench: bool,
) -> Result<(), Diagnosed> {
    let sdfgs: Vec<Op<'_>> = std::iter::once(module)
        .chain(module.region_ops(0))
        .filter(|o| o.is("sdfg.sdfg"))
        .collect();
    let [sdfg] = sdfgs.as_slice() else {
        module.emit_error(format!(
            "--emit-hls needs exactly one top-level sdfg.sdfg, found {}",
            sdfgs.len()
        ));
        return Err(Diagnosed);
    };
    let kernel = kernel::emit(*sdfg).map_err(|f| {
        f.op.emit_error(f.message);
        Diagnosed
    })?;
    let text = if testbench {
        if let Some((name, ty, _)) = kernel
            .host
            .iter()
            .find(|(_, ty, _)| cexpr::is_arbitrary_precision(ty))
        {
            sdfg.emit_error(format!(
                "--emit-hls-testbench: argument '{name}' has `{ty}` elements, which .npy files do not have"
            ));
            return Err(Diagnosed);
        }
        testbench::emit(&kernel)
    } else {
        kernel.code
    };
    out.write_all(text.as_bytes()).map_err(|e| {
        module.emit_error(format!("cannot write the output: {e}"));
        Diagnosed
    })
}
