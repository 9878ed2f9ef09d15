//! Tasklet outputs marked `by_ref`: the body writes them itself.
//!
//! DaCe's dynamic output memlets are written by the tasklet's own
//! statements: each assignment is a store through the memlet (a
//! write-conflict-resolved update when it has a WCR, a push when it goes to
//! a stream), so a tasklet may write conditionally, several times, or one
//! element at a time. In the dialect such an output is a block argument of
//! the body (after the inputs), and the conversion passes:
//!
//! | target | argument | what the body's writes become |
//! | --- | --- | --- |
//! | array subset, no WCR | strided view of the subset | `memref.store` as written |
//! | scalar container, no WCR | the container's `memref<T>` | `memref.store` as written |
//! | any, with WCR | the view as above | each `memref.store` calls a helper that applies the reduction (atomically inside parallel loops, as the conversion's own WCR stores) |
//! | stream | the stream's queue handle (`i64`) | each `sdfg.push` calls a helper that pushes to the runtime queue |
//!
//! The tasklet's result for such an output has nothing left to write, so
//! the exit or access node that receives it stores nothing.

use std::collections::HashMap;

use sdfg_dialect::ir::{type_to_string, Op, Val};
use sdfg_dialect::{incoming_edges, Memlet};

use super::dataflow::private_to_iteration;
use super::streams::{runtime_call, to_bits};
use super::text::Body;
use super::types::Data;
use super::wcr::{Reduction, Slot};
use super::{fail, parse_memlet_subset, Failure, Function, Lowered, Result};

/// How the outlined tasklet function rewrites the writes of a by-ref
/// output's argument, and its prints.
pub(super) enum Rewrite {
    /// Every `memref.store` into argument `arg` calls `callee(value,
    /// memref, indices...)`.
    Store { arg: usize, callee: String },
    /// Every `sdfg.push` to argument `arg` calls `callee(handle, value)`.
    Push { arg: usize, callee: String },
    /// Every `sdfg.printf` with this format and these operand types calls
    /// `callee(operands...)` (see `printf.rs`).
    Printf {
        format: String,
        types: Vec<String>,
        callee: String,
    },
}

/// What the call passes for one by-ref output.
pub(super) struct ByRefOperand {
    pub(super) value: String,
    pub(super) ty: String,
    pub(super) rewrite: Option<Rewrite>,
}

impl<'a> Function<'a, '_> {
    /// The data and memlet that tasklet result `result` writes through: the
    /// exit or access node it flows into.
    fn written_through(
        &mut self,
        tasklet: Op<'a>,
        result: Val<'a>,
        env: &HashMap<String, String>,
    ) -> Result<'a, (Data, Memlet)> {
        let uses = result.uses();
        let [(user, _)] = uses.as_slice() else {
            return fail(
                tasklet,
                "a by_ref output must flow into exactly one exit or access node",
            );
        };
        let user = *user;
        let Some(edge) = incoming_edges(user)
            .into_iter()
            .find(|e| e.source == result)
        else {
            return fail(user, "has no edge from the tasklet's by_ref output");
        };
        let Some(memlet) = edge.memlet else {
            return fail(user, "the edge from a by_ref output has no memlet");
        };
        let data = match user.name() {
            "sdfg.exit" => {
                let Some(scope) = user.parent() else {
                    return fail(user, "has no scope");
                };
                self.output_data(scope, edge.connector.unwrap_or_default(), env)?
            }
            "sdfg.access" => self.access_data(user, env)?,
            other => {
                return fail(
                    tasklet,
                    format!("a by_ref output flows into `{other}`, not an exit or access node"),
                )
            }
        };
        Ok((data, memlet))
    }

    /// Prepares by-ref output `index` of `tasklet` (body argument `arg`,
    /// declared as `declared`): the value the call passes, and how the
    /// body's writes are rewritten.
    pub(super) fn by_ref_operand(
        &mut self,
        tasklet: Op<'a>,
        (index, arg): (usize, usize),
        declared: &str,
        env: &HashMap<String, String>,
        parallel: &[String],
    ) -> Result<'a, ByRefOperand> {
        let result = tasklet.results()[index];
        let (data, memlet) = self.written_through(tasklet, result, env)?;
        let subset = parse_memlet_subset(tasklet, &memlet.subset)?;
        let wcr = Reduction::of(&memlet.wcr).map_err(|m| Failure {
            op: tasklet,
            message: m,
        })?;
        let label = tasklet.str_attr("label").unwrap_or_default();
        let connector = tasklet
            .str_array_attr("out_names")
            .get(index)
            .copied()
            .unwrap_or_default()
            .to_string();
        if data.stream != declared.starts_with("!sdfg.stream") {
            return fail(
                tasklet,
                format!(
                    "by_ref output `{connector}` is a {declared}, but it writes {} `{}`",
                    if data.stream { "stream" } else { "container" },
                    data.name
                ),
            );
        }
        if data.stream {
            if wcr.is_some() {
                return fail(
                    tasklet,
                    format!(
                        "writes stream `{}` with a write-conflict resolution",
                        data.name
                    ),
                );
            }
            let handle = self.stream_handle(tasklet, env, &data, &subset.min_element())?;
            let callee = self.module.unique(&format!("__push_{label}_{connector}"));
            let mut body = Body::default();
            body.open(format!(
                "func.func private @{callee}(%handle: i64, %value: {})",
                data.elem.ty
            ));
            let bits = to_bits(&mut body, "%value", &data.elem);
            runtime_call(
                &mut body,
                &format!("func.call @sdfg_stream_push(%handle, {bits}) : (i64, i64) -> ()"),
                None,
            );
            body.line("return");
            body.close("");
            self.module.functions.push(body.take());
            return Ok(ByRefOperand {
                value: handle,
                ty: "i64".into(),
                rewrite: Some(Rewrite::Push { arg, callee }),
            });
        }
        let element = declared
            .trim_start_matches("memref<")
            .split(['x', '>', ','])
            .find(|d| *d != "?" && d.parse::<i64>().is_err())
            .unwrap_or_default()
            .trim()
            .to_string();
        if element != data.elem.ty {
            return fail(
                tasklet,
                format!(
                    "by_ref output `{connector}` is a {declared}, but `{}` holds {}",
                    data.name, data.elem.ty
                ),
            );
        }
        let (value, ty) = if data.scalar {
            if declared != format!("memref<{element}>") {
                return fail(
                    tasklet,
                    format!(
                        "by_ref output `{connector}` views scalar `{}` as {declared}",
                        data.name
                    ),
                );
            }
            (data.memref.clone(), data.memref_type())
        } else {
            self.view(tasklet, env, &data, &subset, declared, &connector)?
        };
        let Some(reduction) = wcr else {
            return Ok(ByRefOperand {
                value,
                ty,
                rewrite: None,
            });
        };
        let atomic = data.shared
            || (!parallel.is_empty()
                && !private_to_iteration(&subset, parallel)
                && !self.iteration_private.contains(&data.name));
        // A view `memref<?x..xT, strided<[?, ..], offset: ?>>` has a `?` per
        // size and stride and one for the offset; a scalar's memref none.
        let rank = ty.matches('?').count().saturating_sub(1) / 2;
        let indices: Vec<String> = (0..rank).map(|d| format!("%i{d}")).collect();
        let callee = self.module.unique(&format!("__write_{label}_{connector}"));
        let mut body = Body::default();
        let mut params = vec![format!("%value: {element}"), format!("%m: {ty}")];
        params.extend(indices.iter().map(|i| format!("{i}: index")));
        body.open(format!(
            "func.func private @{callee}({})",
            params.join(", ")
        ));
        let slot = Slot {
            memref: "%m",
            memref_type: &ty,
            index: &indices.join(", "),
        };
        reduction
            .apply(&mut body, "%value", &slot, &data.elem, atomic)
            .map_err(|message| Failure {
                op: tasklet,
                message,
            })?;
        body.line("return");
        body.close("");
        self.module.functions.push(body.take());
        Ok(ByRefOperand {
            value,
            ty,
            rewrite: Some(Rewrite::Store { arg, callee }),
        })
    }
}

/// The by-ref outputs of `tasklet`: `(result index, body argument index)`.
pub(super) fn by_ref_outputs(tasklet: Op<'_>, inputs: usize) -> Vec<(usize, usize)> {
    let flags = tasklet.bool_array_attr("by_ref");
    flags
        .iter()
        .enumerate()
        .filter(|(_, flag)| **flag)
        .enumerate()
        .map(|(k, (index, _))| (index, inputs + k))
        .collect()
}

/// Marks the results of by-ref outputs as written (their exit or access
/// node has nothing left to store).
pub(super) fn mark_written<'a>(
    values: &mut HashMap<Val<'a>, Lowered>,
    tasklet: Op<'a>,
    outputs: &[(usize, usize)],
) {
    let results = tasklet.results();
    for (index, _) in outputs {
        values.insert(results[*index], Lowered::Written);
    }
}

/// The declared type of body argument `arg` of `tasklet`.
pub(super) fn argument_type(tasklet: Op<'_>, arg: usize) -> String {
    tasklet
        .region_args(0)
        .get(arg)
        .map(|a| type_to_string(a.ty()))
        .unwrap_or_default()
}
