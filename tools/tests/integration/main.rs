//! The project's single integration-test binary (every MLIR-linked binary
//! is large, so all integration tests are modules of this one).

mod api;
mod docs;
mod execute;
mod frontends;
mod gpu;
mod hls;
mod import;
mod layout;
mod lit;
mod numpy;
mod propagate;
mod simplify;
mod tasklet_python;
