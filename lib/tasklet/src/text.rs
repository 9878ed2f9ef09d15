//! Text helpers shared by the translations: MLIR string literals and
//! Python string literals, and the parentheses of Python expressions.

use std::fmt::Write;

/// Prints a string as an MLIR string literal.
pub fn lit(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\{:02X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Removes one pair of enclosing parentheses (when they match each other).
pub fn strip(expr: &str) -> &str {
    let Some(inner) = expr.strip_prefix('(').and_then(|e| e.strip_suffix(')')) else {
        return expr;
    };
    let mut depth = 0i32;
    for c in inner.chars() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth < 0 {
                    return expr;
                }
            }
            _ => {}
        }
    }
    inner
}

/// A string as a Python literal (single-quoted, escapes for quotes,
/// backslashes and control characters).
pub fn python_string(text: &str) -> String {
    let mut out = String::from("'");
    for c in text.chars() {
        match c {
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}
