//! Runs the lit suite under `test/`.
