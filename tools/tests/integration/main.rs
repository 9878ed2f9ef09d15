//! The project's single integration-test binary.

mod lit;
