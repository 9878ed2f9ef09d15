//! `sdfg-scope-kernel-launches`: puts every host-side `gpu.launch_func`
//! in a `memref.alloca_scope`.
//!
//! The translation to LLVM IR writes a kernel launch's argument array as
//! `alloca`s at the launch, not in the function's entry block, so a launch
//! inside a loop grows the stack by the array at every iteration (a
//! triangular solve launching kernels N^2/2 times overflows it). An
//! `alloca_scope` becomes `llvm.stacksave`/`llvm.stackrestore` around the
//! launch, which frees the array after each launch:
//!
//! ```mlir
//! scf.for %i = ... {
//!   gpu.launch_func @k::@k blocks in (...) threads in (...) args(...)
//! }
//! ```
//!
//! becomes
//!
//! ```mlir
//! scf.for %i = ... {
//!   memref.alloca_scope {
//!     gpu.launch_func @k::@k blocks in (...) threads in (...) args(...)
//!   }
//! }
//! ```
//!
//! It runs after the last canonicalisation of the host code, which would
//! dissolve a scope that holds no `alloca` yet.

use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::Op;
use sdfg_dialect::rewrite;

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-scope-kernel-launches",
    summary: "Put every host-side gpu.launch_func in a memref.alloca_scope, so that launches in loops free their argument arrays",
    op_name: "builtin.module",
    create: || Box::new(ScopeKernelLaunches),
};

/// The pass (no options).
#[derive(Clone, Copy, Default)]
pub struct ScopeKernelLaunches;

impl RustPass for ScopeKernelLaunches {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        if options.trim().is_empty() {
            Ok(())
        } else {
            Err(format!(
                "sdfg-scope-kernel-launches: unknown option `{options}` (it has none)"
            ))
        }
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        let launches: Vec<Op> = module
            .walk()
            .into_iter()
            .filter(|o| {
                o.is("gpu.launch_func")
                    && o.results().is_empty()
                    && o.ancestor("gpu.module").is_none()
                    && !o.parent().is_some_and(|p| p.is("memref.alloca_scope"))
            })
            .collect();
        for launch in launches {
            rewrite::wrap(launch, "memref.alloca_scope", "memref.alloca_scope.return");
        }
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(*self)
    }
}
