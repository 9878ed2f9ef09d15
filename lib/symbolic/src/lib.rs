//! Symbolic integer and boolean expressions and memlet subsets for SDFGs.
//!
//! This crate replaces DaCe's SymPy-based symbolic layer: sizes, strides,
//! ranges, memlet subsets and volumes, conditions, assignments and symbol
//! mappings are all [`Expr`]s, and subsets are [`Subset`]s of [`Range`]s.
//!
//! # Syntax
//!
//! [`parse`] accepts the expression syntax of DaCe 1.0 files (SymPy
//! spellings and Python operators) and of DaCe 2.0 files:
//!
//! * integers (`3`, `1_000`), decimals (`0.5`, read as the exact rational
//!   `1/2`) and typed literals (`3i64`, `7u32`);
//! * symbols `N`, `__tmp0`, dotted names `a.b`, and `$N` (the symbol `N`);
//! * the undefined value `?` / `$?`;
//! * `+ - * / // % **`, unary `-`/`+`; `/` is exact (rational) division;
//! * `Min`/`min`, `Max`/`max`, `Mod`, `Abs`/`abs`, `int_floor`, `int_ceil`,
//!   `floor`, `ceiling`/`ceil`, `Pow`, `Rational`, and integer casts `int(x)`,
//!   `int64(x)`, `dace.int32(x)`, ... (truncation toward zero);
//! * `True`, `False`, `<`, `<=`, `>`, `>=`, `==`, `!=` (chained comparisons
//!   too), `and`, `or`, `not`, `&`, `|`, `~`, and SymPy's `And`, `Or`, `Not`,
//!   `Eq`, `Ne`, `Lt`, `Le`, `Gt`, `Ge`;
//! * anything else of the form `f(args)` is an opaque function call and
//!   `A[i, j]` an opaque subscript, so that conditions such as `A[0] > 5`
//!   still parse; opaque terms are not assumed to be integers.
//!
//! Errors carry the 1-based column and a reason ([`ParseError`]).
//! [`parse_statements`] reads Python statements such as LoopRegion
//! `init_statement`s (`i = 0`).
//!
//! # Representation and normal form
//!
//! An [`Expr`] is a reference-counted node. Numeric expressions are sparse
//! polynomials with exact rational coefficients (128-bit) over *atoms*,
//! sorted by a total order, so equal normal forms are structurally equal and
//! print equally. Atoms are symbols (integer-valued), `floor`, `Mod`, `Min`,
//! `Max`, `Abs`, non-polynomial powers, opaque calls and subscripts,
//! `int(cond)` for booleans used as numbers, and unexpanded groups.
//! Products and integer powers are expanded unless the expansion would
//! exceed 512 terms, in which case the factors are kept as grouped atoms, so
//! there is no exponential blow-up (canonicity is only guaranteed below that
//! limit). Simplifications applied by the constructors:
//!
//! * `floor(p)` with integer-valued monomials is written `floor(q/d)` with an
//!   integer polynomial `q` and `d > 0`; coefficients are reduced into
//!   `[0, d)` (the integer parts move out of the floor), common factors with
//!   `d` are divided out (`floor((2N+1)/4) = floor(N/2)`), and of `q` and its
//!   reflection (`floor(q/d) = -floor((d-1-q)/d)`) the one with the smaller
//!   coefficient vector is kept. Hence `ceiling(N/32)`, `int_ceil(N, 32)`,
//!   `-int_floor(-N, 32)` and `int_floor(N + 31, 32)` are all the same
//!   expression (printed `int_ceil(N, 32)`).
//! * `Mod(a, d)` for an integer constant `d` uses the same reduction
//!   (`Mod(i + 4, 4) = Mod(i, 4)`, `Mod(2i, 4) = 2*Mod(i, 2)`,
//!   `Mod(-i, 4) = 3 - Mod(i + 3, 4)`); negative `d` follows Python.
//! * `Min`/`Max` are flattened, sorted and deduplicated; an operand that
//!   differs from another by a constant is dropped when dominated
//!   (`Min(N, N + 1) = N`); constants fold.
//! * Comparisons are `p <= 0`, `p == 0`, `p != 0` (and `p < 0` for
//!   non-integer `p`) with integer, primitive coefficients (`2*i < 7` is
//!   `i <= 3`), and `and`/`or` are flattened, sorted and free of `not`.
//! * Anything depending on the undefined value is the undefined value;
//!   arithmetic that overflows 128 bits during normalisation also yields it.
//! * Division by a non-monomial keeps the divisor as a reciprocal atom;
//!   `x/x` cancels to `1` (as in SymPy).
//!
//! # Subsets
//!
//! See [`subset`] for the range text syntax (`start:end:step tile T`,
//! exclusive end) and the single DaCe conversion point
//! [`Range::from_dace_inclusive`] / [`Range::to_dace_inclusive`].
//!
//! # Exactness
//!
//! Comparisons return [`Tri`]. Subset images ([`image`]) are exact through
//! ISL for quasi-affine subscripts and sound over-approximations otherwise:
//! never smaller than the true set.
//!
//! [`image`]: Subset::image
#![deny(missing_docs)]

mod codegen;
mod compare;
pub mod corpus;
mod embedding;
mod eval;
mod expr;
mod image;
mod isl;
mod loops;
mod parse;
mod poly;
mod print;
mod rational;
pub mod subset;

pub use codegen::{CmpOp, Emitter, IntOp};
pub use compare::{compare_eq, compare_le, compare_lt, Assumptions, RationalBound, Tri};
pub use embedding::{Dim, Embedding};
pub use eval::{EvalError, Value};
pub use expr::{BitOp, Expr};
pub use loops::{do_while_range, loop_range, LoopRange};
pub use parse::{parse, parse_assignment, parse_statements, ParseError, Statement};
pub use subset::{parse_subset, DataDim, Range, Subset, SubsetError};

#[cfg(test)]
mod tests;

#[cfg(test)]
mod proptests;
