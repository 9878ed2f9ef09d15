//! `sdfg.printf` in tasklet bodies, lowered to C's `printf`.
//!
//! Each distinct format and argument list of a tasklet becomes a private
//! helper function: it takes the op's operands, converts each to the type
//! its conversion reads (an `int`, a 64-bit integer or a `double`, as the
//! dialect documents) and calls `printf` through `llvm.call` with the
//! format as a private constant global. The outlined tasklet body calls
//! the helper in its own `memref.alloca_scope`, as it calls the stream
//! runtime (see `streams::runtime_call`): an unknown call inside an OpenMP
//! body would otherwise keep the scope `convert-scf-to-openmp` adds.

use sdfg_dialect::ir::{type_to_string, Op};

use super::by_ref::Rewrite;
use super::sdfg_to_scf::{fail, Module, Result};
use super::text::Body;
use super::types::{convert, Elem};
use crate::translate::dace_import::lit;

/// The C type a `printf` conversion reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reads {
    /// `int` (`%d`, `%x`, `%c`, a `*` width, ...).
    Int,
    /// A 64-bit integer (`%ld`, `%lld`, `%zu`, ...).
    Long,
    /// `double` (`%f`, `%e`, `%g`, `%a`).
    Double,
}

impl Reads {
    fn mlir(self) -> &'static str {
        match self {
            Reads::Int => "i32",
            Reads::Long => "i64",
            Reads::Double => "f64",
        }
    }
}

/// What each argument of `format` is read as, in order; an error names a
/// conversion that cannot print a number (the dialect's verifier rejects
/// those already).
fn conversions(format: &str) -> std::result::Result<Vec<Reads>, String> {
    let chars: Vec<char> = format.chars().collect();
    let mut reads = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '%' {
            i += 1;
            continue;
        }
        i += 1;
        if chars.get(i) == Some(&'%') {
            i += 1;
            continue;
        }
        while chars.get(i).is_some_and(|c| "-+ #0'".contains(*c)) {
            i += 1;
        }
        for part in 0..2 {
            if part == 1 {
                if chars.get(i) != Some(&'.') {
                    break;
                }
                i += 1;
            }
            if chars.get(i) == Some(&'*') {
                reads.push(Reads::Int);
                i += 1;
            }
            while chars.get(i).is_some_and(char::is_ascii_digit) {
                i += 1;
            }
        }
        let length_start = i;
        while chars.get(i).is_some_and(|c| "hljztL".contains(*c)) {
            i += 1;
        }
        let wide = chars[length_start..i]
            .iter()
            .any(|c| matches!(c, 'l' | 'j' | 'z' | 't'));
        match chars.get(i) {
            Some('d' | 'i' | 'o' | 'u' | 'x' | 'X' | 'c') => {
                reads.push(if wide { Reads::Long } else { Reads::Int })
            }
            Some('f' | 'F' | 'e' | 'E' | 'g' | 'G' | 'a' | 'A') => reads.push(Reads::Double),
            other => {
                return Err(format!(
                    "format {format:?} has a conversion ending in {other:?}, which cannot print a number"
                ))
            }
        }
        i += 1;
    }
    Ok(reads)
}

/// How many arguments the C `printf` format `format` reads, or why it
/// cannot print numbers.
pub fn printf_conversions(format: &str) -> std::result::Result<usize, String> {
    conversions(format).map(|reads| reads.len())
}

impl Module<'_> {
    /// How the outlined body calls the helper that prints like `op` (an
    /// `sdfg.printf`), creating the helper on first use.
    pub(super) fn printf_helper<'a>(&mut self, op: Op<'a>) -> Result<'a, Rewrite> {
        let format = op.str_attr("format").unwrap_or_default().to_string();
        let types: Vec<String> = op
            .operands()
            .iter()
            .map(|v| type_to_string(v.ty()))
            .collect();
        let key = (format.clone(), types.clone());
        if let Some(callee) = self.printf_helpers.get(&key) {
            return Ok(Rewrite::Printf {
                format,
                types,
                callee: callee.clone(),
            });
        }
        // The verifier has checked that the format reads these operands.
        let reads = match conversions(&format) {
            Ok(reads) => reads,
            Err(message) => return fail(op, message),
        };
        let name = self.unique("__printf");
        let global = format!("{name}_format");
        if !self.declares_printf {
            self.declares_printf = true;
            self.functions
                .push("llvm.func @printf(!llvm.ptr, ...) -> i32\n".into());
        }
        self.functions.push(format!(
            "llvm.mlir.global private constant @{global}({}) {{addr_space = 0 : i32}}\n",
            lit(&format!("{format}\0"))
        ));
        let mut body = Body::default();
        let params: Vec<String> = types
            .iter()
            .enumerate()
            .map(|(k, ty)| format!("%a{k}: {ty}"))
            .collect();
        body.open(format!("func.func private @{name}({})", params.join(", ")));
        let pointer = body.assign(format!("llvm.mlir.addressof @{global} : !llvm.ptr"));
        let mut values = vec![pointer];
        let mut value_types = vec!["!llvm.ptr".to_string()];
        for (k, (ty, reads)) in types.iter().zip(&reads).enumerate() {
            // `index` and `iN` are signless; C's conversions treat them as
            // signed, as DaCe's integers are.
            let from = Elem {
                ty: ty.clone(),
                unsigned: false,
            };
            match convert(&mut body, &format!("%a{k}"), &from, reads.mlir()) {
                Ok(v) => values.push(v),
                Err(message) => return fail(op, message),
            }
            value_types.push(reads.mlir().to_string());
        }
        body.assign(format!(
            "llvm.call @printf({}) vararg(!llvm.func<i32 (ptr, ...)>) : ({}) -> i32",
            values.join(", "),
            value_types.join(", ")
        ));
        body.line("return");
        body.close("");
        self.functions.push(body.take());
        self.printf_helpers.insert(key, name.clone());
        Ok(Rewrite::Printf {
            format,
            types,
            callee: name,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_read_ints_longs_and_doubles() {
        use Reads::*;
        assert_eq!(conversions("hello world %f\n"), Ok(vec![Double]));
        assert_eq!(
            conversions("%d %5.2f %ld %llu %zx %% %-*.*e %c"),
            Ok(vec![Int, Double, Long, Long, Long, Int, Int, Double, Int])
        );
        assert_eq!(conversions("100%%"), Ok(vec![]));
        assert!(conversions("%s").is_err());
        assert!(conversions("%p").is_err());
        assert!(conversions("%n").is_err());
        assert!(conversions("ends in %").is_err());
    }
}
