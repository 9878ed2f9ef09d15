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
use super::text::Body;
use super::types::{convert, Elem};
use super::{fail, Module, Result};
use sdfg_tasklet::printf::conversions;
use sdfg_tasklet::text::lit;

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
