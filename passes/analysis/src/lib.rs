//! Analyses of SDFGs: `petgraph` views of a state's dataflow graph and of
//! an SDFG's control flow ([`graph`]), DaCe's validation catalogue as the
//! `sdfg-validate` pass ([`validate`]), how often each control-flow block
//! runs ([`executions`], DaCe's `propagate_states`), the transformation
//! chain that produced a module ([`history`]), what one iteration
//! of a loop touches ([`iterations`]), and memlet
//! propagation through scopes and nested SDFGs as `sdfg-propagate-memlets`
//! ([`propagate`]), and the symbols an SDFG defines or reads ([`symbols`]).
//!
//! Analyses depend on the dialect and the core libraries only: never on
//! transformations, conversions, translations or the execution engine, so
//! that each of those may use them.

#![deny(missing_docs)]

pub mod executions;
pub mod graph;
pub mod history;
pub mod iterations;
pub mod propagate;
pub mod symbols;
pub mod validate;
