//! Control flow and symbols of the conversion (`convert-sdfg-to-scf`):
//! states, inter-state edges, loop regions, conditional blocks, regions,
//! break/continue/return as `cf` blocks; symbols as `index` values, or
//! `f32`/`f64` for DaCe's floating-point symbols (`memref` variables for
//! assigned ones); inter-state expressions as integer arithmetic, or
//! through the tasklet translator when they read floating-point data or
//! symbols.

use std::collections::HashMap;

use sdfg_dialect::ir::Op;
use sdfg_symbolic::Expr;

use super::gpu;
use super::lifetimes::Cfg;
use super::text::{DataReader, IndexEmitter};
use super::{fail, parse_expr, Failure, Function, Placement, Result, SymbolType};
use sdfg_analysis::symbols::assigned_symbols;
use sdfg_analysis::symbols::blocks_and_edges;

/// Loop context for break and continue.
#[derive(Clone)]
pub(super) struct Jumps {
    pub(super) break_to: Option<String>,
    pub(super) continue_to: Option<String>,
    pub(super) return_to: String,
}

impl<'a> Function<'a, '_> {
    /// Declares a variable for every assigned symbol (of the symbol's
    /// type); one that is also an argument (read before its first
    /// assignment) starts with its value.
    pub(super) fn declare_symbol_vars(&mut self) {
        for s in assigned_symbols(self.sdfg) {
            let ty = self.symbol_type(&s).mlir();
            let v = self.body.assign(format!("memref.alloca() : memref<{ty}>"));
            if let Some(initial) = self.free.get(&s) {
                self.body
                    .line(format!("memref.store {initial}, {v}[] : memref<{ty}>"));
            }
            self.vars.insert(s, v);
        }
    }

    /// The symbols at the current point: free symbols and the current
    /// values of the assigned ones.
    pub(super) fn symbol_env(&mut self) -> HashMap<String, String> {
        let mut env = self.free.clone();
        let mut vars: Vec<(String, String)> = self
            .vars
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        vars.sort();
        for (name, var) in vars {
            let ty = self.symbol_type(&name).mlir();
            let v = self
                .body
                .assign(format!("memref.load {var}[] : memref<{ty}>"));
            env.insert(name, v);
        }
        env
    }

    /// The type symbol `name` is computed in.
    pub(super) fn symbol_type(&self, name: &str) -> SymbolType {
        self.containers
            .float_symbols
            .get(name)
            .copied()
            .unwrap_or(SymbolType::Integer)
    }

    /// The value of expression `text` as a symbol of type `ty`: integer
    /// expressions through the symbolic engine, floating-point ones (and
    /// integer ones that read floating-point data or symbols) with C++'s
    /// semantics through the tasklet translator, converted as C++ converts
    /// on assignment.
    pub(super) fn symbol_value(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        text: &str,
        ty: SymbolType,
    ) -> Result<'a, String> {
        let expr = parse_expr(op, text)?;
        match ty {
            SymbolType::Integer if self.reads_float_data(&expr, env) => {
                let v = self.python_expression(op, env, text, &expr, "i64")?;
                Ok(self
                    .body
                    .assign(format!("arith.index_cast {v} : i64 to index")))
            }
            SymbolType::Integer => self.emit_int(op, env, &expr),
            SymbolType::Float32
            | SymbolType::Float64
            | SymbolType::Complex64
            | SymbolType::Complex128 => self.python_expression(op, env, text, &expr, ty.mlir()),
        }
    }

    pub(super) fn emit_int(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        expr: &Expr,
    ) -> Result<'a, String> {
        let mut e = IndexEmitter::new(&mut self.body, env, &self.containers);
        e.int(expr).map_err(|m| Failure {
            op,
            message: format!("cannot lower `{expr}`: {m}"),
        })
    }

    pub(super) fn emit_bool(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        text: &str,
    ) -> Result<'a, String> {
        let expr = parse_expr(op, text)?;
        if self.reads_float_data(&expr, env) {
            return self.python_expression(op, env, text, &expr, "i1");
        }
        let mut e = IndexEmitter::new(&mut self.body, env, &self.containers);
        e.boolean(&expr).map_err(|m| Failure {
            op,
            message: format!("cannot lower condition `{text}`: {m}"),
        })
    }

    /// Whether `expr` reads floating-point data or symbols (then it is not
    /// an integer expression and SymPy's normal form of it is wrong:
    /// `x > 0.5` is not `x >= 1`).
    pub(super) fn reads_float_data(&self, expr: &Expr, env: &HashMap<String, String>) -> bool {
        expr.free_symbols()
            .iter()
            .chain(expr.subscripted_names().iter())
            .any(|name| {
                self.containers.float_symbols.contains_key(name)
                    || (!env.contains_key(name) && self.containers.is_float(name))
            })
    }

    /// Computes an inter-state expression that reads floating-point data as
    /// DaCe's generated C++ does: the Python text is translated by the
    /// tasklet translator into a private function of the scalars and
    /// symbols it reads, called here; its result has type `ty`. `expr` is
    /// `text` parsed, for the names it reads.
    pub(super) fn python_expression(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        text: &str,
        expr: &Expr,
        ty: &str,
    ) -> Result<'a, String> {
        use sdfg_tasklet::{translate, InputType, Signature};
        // A symbol read as its own type is its value.
        if let Some(v) = expr
            .as_symbol()
            .filter(|s| self.symbol_type(s).mlir() == ty)
            .and_then(|s| env.get(s))
        {
            return Ok(v.clone());
        }
        let mut inputs = Vec::new();
        let mut operands = Vec::new();
        let mut types = Vec::new();
        let mut staged = Vec::new();
        for name in expr
            .free_symbols()
            .into_iter()
            .chain(expr.subscripted_names())
        {
            if let (Some(v), Some(ty)) = (env.get(&name), self.containers.float_symbols.get(&name))
            {
                inputs.push((name.clone(), InputType::Element(ty.mlir().into())));
                operands.push(v.clone());
                types.push(ty.mlir().to_string());
                continue;
            }
            if let Some(v) = env.get(&name) {
                let wide = self
                    .body
                    .assign(format!("arith.index_cast {v} : index to i64"));
                inputs.push((name.clone(), InputType::Element("i64".into())));
                operands.push(wide);
                types.push("i64".to_string());
                continue;
            }
            let Some(mut data) = self.containers.by_name.get(&name).cloned() else {
                return fail(
                    op,
                    format!("`{text}`: `{name}` is neither a symbol nor a container"),
                );
            };
            let dace_ty = if data.elem.unsigned {
                format!("u{}", data.elem.ty)
            } else {
                data.elem.ty.clone()
            };
            if data.memref.is_empty() {
                return fail(op, format!("`{text}`: view `{name}` cannot be read here"));
            }
            if data.stream || data.reference.is_some() {
                return fail(
                    op,
                    format!("`{text}`: stream or reference `{name}` cannot be read here"),
                );
            }
            // Host code reads device memory through a host copy of it
            // (code in a kernel reads it where it is).
            if self.on_device(&data) && !self.module.in_kernel {
                let ty = data.memref_type();
                data.memref = gpu::host_copy(&mut self.body, &data.memref, &ty, data.scalar);
                data.gpu_global = false;
                staged.push((data.memref.clone(), ty));
            }
            if data.scalar {
                let v = self.body.assign(format!(
                    "memref.load {}[] : {}",
                    data.memref,
                    data.memref_type()
                ));
                inputs.push((name.clone(), InputType::Element(dace_ty)));
                operands.push(v);
                types.push(data.elem.ty.clone());
                continue;
            }
            // An array is passed as a memref of its shape: one of identity
            // layout when its flat buffer is in C order at offset 0, else
            // a strided view of it (a nested SDFG's argument, a view).
            let rank = data.shape.len();
            let mut c_order = vec![Expr::int(1); rank];
            for d in (0..rank.saturating_sub(1)).rev() {
                c_order[d] = Expr::mul(&c_order[d + 1], &data.shape[d + 1]);
            }
            let contiguous = data.base.is_none()
                && data.strides == c_order
                && data.offsets.iter().all(|o| o.as_int() == Some(0));
            let mut sizes = Vec::new();
            let mut strides = Vec::new();
            for (size, stride) in data.shape.iter().zip(&data.strides) {
                sizes.push(self.emit_int(op, env, size)?);
                strides.push(self.emit_int(op, env, stride)?);
            }
            // Element (i, j) is at base + sum((i + offset) * stride): the
            // view starts at base + sum(offset * stride).
            let mut start = data.base.clone().unwrap_or_else(|| self.body.index(0));
            for (offset, stride) in data.offsets.iter().zip(&strides) {
                if offset.as_int() == Some(0) {
                    continue;
                }
                let o = self.emit_int(op, env, offset)?;
                let term = self
                    .body
                    .assign(format!("arith.muli {o}, {stride} : index"));
                start = self
                    .body
                    .assign(format!("arith.addi {start}, {term} : index"));
            }
            let input = if contiguous {
                InputType::Array {
                    element: dace_ty,
                    shape: vec![None; rank],
                }
            } else {
                InputType::Strided {
                    element: dace_ty,
                    rank,
                }
            };
            let ty = input.mlir();
            let v = self.body.assign(format!(
                "memref.reinterpret_cast {} to offset: [{start}], sizes: [{}], strides: [{}] : {} to {ty}",
                data.memref,
                sizes.join(", "),
                strides.join(", "),
                data.memref_type()
            ));
            inputs.push((name.clone(), input));
            operands.push(v);
            types.push(ty);
        }
        let no_symbols = |_: &str| None;
        let signature = Signature {
            inputs,
            outputs: vec![("__value".into(), ty.into())],
            refs: Vec::new(),
            symbol_type: &no_symbols,
        };
        let body = translate(&format!("__value = {text}"), &signature)
            .map_err(|m| Failure::new(op, format!("cannot lower `{text}`: {m}")))?;
        let Some((rest, last)) = body.trim_end().rsplit_once('\n') else {
            return fail(op, format!("cannot lower `{text}`"));
        };
        let name = self.module.unique("__expression");
        let ret = last.replacen("sdfg.yield", "func.return", 1);
        self.module.functions.push(format!(
            "\"func.func\"() <{{function_type = ({}) -> {ty}, sym_name = \"{name}\", sym_visibility = \"private\"}}> ({{\n{rest}\n{ret}\n}}) : () -> ()\n",
            types.join(", ")
        ));
        let value = self.body.assign(format!(
            "func.call @{name}({}) : ({}) -> {ty}",
            operands.join(", "),
            types.join(", ")
        ));
        for (memref, ty) in staged {
            self.body.line(format!("memref.dealloc {memref} : {ty}"));
        }
        Ok(value)
    }

    /// Assigns symbols in order, as DaCe's generated code does (an
    /// assignment that reads a symbol the same edge assigns is a race that
    /// validation rejects, so the order does not change what valid SDFGs
    /// compute).
    pub(super) fn assign(
        &mut self,
        op: Op<'a>,
        env: &HashMap<String, String>,
        names: &[&str],
        values: &[&str],
    ) -> Result<'a, ()> {
        let mut env = env.clone();
        for (name, value) in names.iter().zip(values) {
            let v = self.symbol_value(op, &env, value, self.symbol_type(name))?;
            let Some(var) = self.vars.get(*name).cloned() else {
                return fail(
                    op,
                    format!("symbol `{name}` is assigned but is a free symbol of the SDFG"),
                );
            };
            let ty = self.symbol_type(name).mlir();
            self.body
                .line(format!("memref.store {v}, {var}[] : memref<{ty}>"));
            env.insert(name.to_string(), v);
        }
        Ok(())
    }

    /// Lowers the control-flow graph in `owner`'s region; control leaves
    /// it by branching to `exit`.
    pub(super) fn lower_cfg(&mut self, owner: Op<'a>, exit: &str, jumps: &Jumps) -> Result<'a, ()> {
        let (mut blocks, edges) = blocks_and_edges(owner);
        // A transient living across states is allocated by its first one,
        // which must be lowered before the others: dominators first.
        let spans_here = self
            .placements
            .values()
            .any(|p| matches!(p, Placement::Span { first, .. } if first.parent() == Some(owner)));
        if spans_here {
            blocks = Cfg::of(owner).reverse_post_order();
        }
        let Some(start) = blocks.first() else {
            self.body.line(format!("cf.br {exit}"));
            return Ok(());
        };
        let labels: HashMap<&str, String> = blocks
            .iter()
            .map(|b| (b.symbol_name().unwrap_or_default(), self.body.label()))
            .collect();
        self.body.line(format!(
            "cf.br {}",
            labels[start.symbol_name().unwrap_or_default()]
        ));
        for block in &blocks {
            let name = block.symbol_name().unwrap_or_default();
            self.body.block(&labels[name]);
            match block.name() {
                "sdfg.state" => self.lower_state(*block)?,
                "sdfg.break" | "sdfg.continue" | "sdfg.return" => {
                    let target = match block.name() {
                        "sdfg.break" => jumps.break_to.clone(),
                        "sdfg.continue" => jumps.continue_to.clone(),
                        _ => Some(jumps.return_to.clone()),
                    };
                    let Some(target) = target else {
                        return fail(*block, "is not inside a loop");
                    };
                    self.body.line(format!("cf.br {target}"));
                    continue;
                }
                _ => {
                    let after = self.body.label();
                    self.lower_structured(*block, &after, jumps)?;
                    self.body.block(&after);
                }
            }
            let outgoing: Vec<Op> = edges
                .iter()
                .copied()
                .filter(|e| e.symbol_ref_attr("src") == Some(name))
                .collect();
            self.dispatch(&outgoing, &labels, exit)?;
        }
        Ok(())
    }

    /// Branches along the first outgoing edge whose condition holds (in
    /// op order), or to `exit` when none does.
    pub(super) fn dispatch(
        &mut self,
        edges: &[Op<'a>],
        labels: &HashMap<&str, String>,
        exit: &str,
    ) -> Result<'a, ()> {
        let env = self.symbol_env();
        for edge in edges {
            let dst = edge.symbol_ref_attr("dst").unwrap_or_default();
            let Some(target) = labels.get(dst).cloned() else {
                return fail(
                    *edge,
                    format!("destination `{dst}` is not a block of this region"),
                );
            };
            let names = edge.str_array_attr("assign_names");
            let values = edge.str_array_attr("assign_values");
            let condition = edge.str_attr("condition").unwrap_or("1");
            let always = parse_expr(*edge, condition)?.as_bool() == Some(true)
                || parse_expr(*edge, condition)?
                    .as_int()
                    .is_some_and(|v| v != 0);
            if always {
                self.assign(*edge, &env, &names, &values)?;
                self.body.line(format!("cf.br {target}"));
                return Ok(());
            }
            let c = self.emit_bool(*edge, &env, condition)?;
            let (taken, next) = (self.body.label(), self.body.label());
            self.body.line(format!("cf.cond_br {c}, {taken}, {next}"));
            self.body.block(&taken);
            self.assign(*edge, &env, &names, &values)?;
            self.body.line(format!("cf.br {target}"));
            self.body.block(&next);
        }
        self.body.line(format!("cf.br {exit}"));
        Ok(())
    }

    /// Lowers a loop, conditional or plain region; control continues at
    /// `after`.
    pub(super) fn lower_structured(
        &mut self,
        block: Op<'a>,
        after: &str,
        jumps: &Jumps,
    ) -> Result<'a, ()> {
        match block.name() {
            "sdfg.loop" => self.lower_loop(block, after, jumps),
            "sdfg.conditional" => {
                let env = self.symbol_env();
                let branches: Vec<Op> = block
                    .region_ops(0)
                    .into_iter()
                    .filter(|o| o.is("sdfg.branch"))
                    .collect();
                let mut conditions = Vec::new();
                for branch in &branches {
                    conditions.push(match branch.str_attr("condition") {
                        Some(c) => Some(self.emit_bool(*branch, &env, c)?),
                        None => None,
                    });
                }
                let labels: Vec<String> = branches.iter().map(|_| self.body.label()).collect();
                for (condition, label) in conditions.iter().zip(&labels) {
                    match condition {
                        Some(c) => {
                            let next = self.body.label();
                            self.body.line(format!("cf.cond_br {c}, {label}, {next}"));
                            self.body.block(&next);
                        }
                        None => {
                            self.body.line(format!("cf.br {label}"));
                            let dead = self.body.label();
                            self.body.block(&dead);
                        }
                    }
                }
                self.body.line(format!("cf.br {after}"));
                for (branch, label) in branches.iter().zip(&labels) {
                    self.body.block(label);
                    self.lower_cfg(*branch, after, jumps)?;
                }
                Ok(())
            }
            // A function-call region's arguments only record the call it
            // was inlined from (DaCe's code generator ignores them too).
            "sdfg.region" | "sdfg.call_region" => self.lower_cfg(block, after, jumps),
            other => fail(block, format!("`{other}` cannot be lowered")),
        }
    }

    pub(super) fn lower_loop(&mut self, lp: Op<'a>, after: &str, jumps: &Jumps) -> Result<'a, ()> {
        let var = lp.str_attr("var");
        let cond = lp.str_attr("cond").unwrap_or("1");
        let inverted = lp.attr("inverted").is_some();
        let update_first = lp.attr("update_before_condition").is_some();
        let (check, body, latch) = (self.body.label(), self.body.label(), self.body.label());
        if let (Some(var), Some(init)) = (var, lp.str_attr("init")) {
            let env = self.symbol_env();
            self.assign(lp, &env, &[var], &[init])?;
        }
        self.body
            .line(format!("cf.br {}", if inverted { &body } else { &check }));
        // The condition check.
        self.body.block(&check);
        let env = self.symbol_env();
        let c = self.emit_bool(lp, &env, cond)?;
        self.body.line(format!("cf.cond_br {c}, {body}, {after}"));
        // The body; continue goes to the latch.
        self.body.block(&body);
        let inner = Jumps {
            break_to: Some(after.to_string()),
            continue_to: Some(latch.clone()),
            return_to: jumps.return_to.clone(),
        };
        self.lower_cfg(lp, &latch, &inner)?;
        // The latch: update, then check (a do-while loop without
        // update_before_condition checks before updating).
        self.body.block(&latch);
        let update = match (var, lp.str_attr("update")) {
            (Some(var), Some(update)) => Some((var, update)),
            _ => None,
        };
        if inverted && !update_first {
            let env = self.symbol_env();
            let c = self.emit_bool(lp, &env, cond)?;
            let next = self.body.label();
            self.body.line(format!("cf.cond_br {c}, {next}, {after}"));
            self.body.block(&next);
            if let Some((var, update)) = update {
                let env = self.symbol_env();
                self.assign(lp, &env, &[var], &[update])?;
            }
            self.body.line(format!("cf.br {body}"));
        } else {
            if let Some((var, update)) = update {
                let env = self.symbol_env();
                self.assign(lp, &env, &[var], &[update])?;
            }
            self.body.line(format!("cf.br {check}"));
        }
        Ok(())
    }

    /// The transients whose `Placement::Span` starts at `state`, with the
    /// state that ends it.
    fn spans_from(&self, state: Op<'a>) -> Vec<(Op<'a>, Op<'a>)> {
        self.sdfg
            .region_ops(0)
            .into_iter()
            .filter(|o| o.is("sdfg.alloc"))
            .filter_map(|o| match self.placements.get(o.str_attr("name")?) {
                Some(Placement::Span { first, last }) if *first == state => Some((o, *last)),
                _ => None,
            })
            .collect()
    }

    pub(super) fn lower_state(&mut self, state: Op<'a>) -> Result<'a, ()> {
        let mut env = self.symbol_env();
        let owned = self.owned_transients(Placement::State(state));
        let mut frees = Vec::new();
        for alloc in owned {
            for data in self.allocate_scoped(alloc, &env, &mut frees, true)? {
                self.containers.by_name.insert(data.name.clone(), data);
            }
        }
        for (alloc, last) in self.spans_from(state) {
            let mut span = Vec::new();
            for data in self.allocate_scoped(alloc, &env, &mut span, false)? {
                self.containers.by_name.insert(data.name.clone(), data);
            }
            self.span_frees
                .entry(last.raw().ptr as usize)
                .or_default()
                .extend(span);
        }
        let ops = state.region_ops(0);
        self.lower_dataflow(&ops, &mut env, &[])?;
        let ended = self
            .span_frees
            .remove(&(state.raw().ptr as usize))
            .unwrap_or_default();
        for allocation in frees.iter().chain(&ended) {
            self.release(allocation);
        }
        Ok(())
    }
}
