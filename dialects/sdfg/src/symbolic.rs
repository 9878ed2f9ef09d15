//! The checker the dialect's verifiers use for symbolic strings.
//!
//! Verifiers are C++, but what a DaCe expression is gets decided in one
//! place, the Rust symbolic engine (`sdfg-symbolic`): the C++ side calls
//! back into [`check`] through the hook installed by [`install`].

use crate::driver::{set_symbolic_checker, SymbolicKind};

/// Checks `text` as a `kind`: the number of dimensions for subsets, 0 for
/// valid expressions and conditions, or a message saying what is wrong.
pub fn check(kind: SymbolicKind, text: &str) -> Result<usize, String> {
    match kind {
        SymbolicKind::Expression => {
            let expr = sdfg_symbolic::parse(text).map_err(|e| e.to_string())?;
            if expr.is_bool() {
                return Err("expected an integer expression, got a condition".into());
            }
            Ok(0)
        }
        SymbolicKind::Condition | SymbolicKind::Value => sdfg_symbolic::parse(text)
            .map(|_| 0)
            .map_err(|e| e.to_string()),
        SymbolicKind::Subset => {
            let subset = sdfg_symbolic::parse_subset(text).map_err(|e| e.to_string())?;
            Ok(subset.dims())
        }
    }
}

/// Installs [`check`] as the verifiers' symbolic checker (idempotent).
pub fn install() {
    set_symbolic_checker(check);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_report_their_dimensions() {
        assert_eq!(check(SymbolicKind::Subset, "0:N, i"), Ok(2));
        assert_eq!(check(SymbolicKind::Subset, "t % 2, i-1:i+2"), Ok(2));
    }

    #[test]
    fn errors_name_the_column() {
        let error = check(SymbolicKind::Expression, "N +* 2").unwrap_err();
        assert!(error.starts_with("column "), "{error}");
    }

    #[test]
    fn conditions_are_not_sizes() {
        assert!(check(SymbolicKind::Expression, "N < 2").is_err());
        assert_eq!(check(SymbolicKind::Condition, "N < 2"), Ok(0));
        // DaCe assigns conditions to its `bool` symbols.
        assert_eq!(check(SymbolicKind::Value, "abs(s) > r"), Ok(0));
        assert_eq!(check(SymbolicKind::Value, "N + 1"), Ok(0));
    }
}
