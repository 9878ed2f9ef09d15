//! `sdfg-trivial-tasklet-elimination`: replaces a tasklet that only passes
//! one element from an access node to another by a copy between the two,
//! as DaCe's `TrivialTaskletElimination` does.
//!
//! ```mlir
//! // before: the frontend's `s = __tmp2`
//! %o = sdfg.tasklet "assign" ins("i" = %t["0"] : !sdfg.scalar<f64>) outs("o" : f64) {
//! ^bb0(%i: f64):
//!   sdfg.yield %i : f64
//! }
//! %s = sdfg.access %S writes(%o["0"] : f64) : !sdfg.scalar<f64>
//! // after
//! %s = sdfg.access %S writes(%t["0" -> "0"] : !sdfg.scalar<f64>) : !sdfg.scalar<f64>
//! ```
//!
//! The tasklet has one input, read from an access node of its state, and
//! one output, written to one access node; its body yields its argument
//! unchanged; both containers hold the same element type, and neither
//! memlet resolves write conflicts. The copy then moves the same element
//! at the same point of the state's order, and the redundant-array pass
//! can remove the transient it leaves between two containers.

use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::Op;
use sdfg_dialect::{memlet_at, rewrite, set_memlet_at, Container, Memlet, Wcr};

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-trivial-tasklet-elimination",
    summary: "Replace tasklets that pass one element unchanged between access nodes by copies (DaCe's TrivialTaskletElimination)",
    op_name: "builtin.module",
    create: || Box::new(TrivialTaskletElimination),
};

/// The pass (no options).
#[derive(Clone, Copy)]
pub struct TrivialTaskletElimination;

impl RustPass for TrivialTaskletElimination {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        crate::no_options("sdfg-trivial-tasklet-elimination", options)
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        eliminate_trivial_tasklets(module);
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(*self)
    }
}

/// Replaces every trivial tasklet under `root` that sits between two
/// access nodes of a state; returns how many were replaced.
pub fn eliminate_trivial_tasklets(root: Op<'_>) -> usize {
    let tasklets: Vec<Op<'_>> = root
        .descendants()
        .into_iter()
        .filter(|op| op.is("sdfg.tasklet") && op.parent().is_some_and(|p| p.is("sdfg.state")))
        .collect();
    tasklets
        .into_iter()
        .filter(|t| eliminate(*t).is_ok())
        .count()
}

/// Replaces one trivial tasklet by a copy, or says why it is not one.
pub fn eliminate(tasklet: Op<'_>) -> Result<(), String> {
    let inputs = tasklet.operand_segment(0);
    let results = tasklet.results();
    let ([input], [output]) = (inputs.as_slice(), results.as_slice()) else {
        return Err("the tasklet does not have exactly one input and one output".into());
    };
    if tasklet.attr("code").is_some() || tasklet.attr("side_effects").is_some() {
        return Err("the tasklet has foreign code or side effects".into());
    }
    if !tasklet.operand_segment(1).is_empty() || tasklet.bool_array_attr("by_ref").contains(&true) {
        return Err("the tasklet has ordering edges or writes by reference".into());
    }
    let body = tasklet.region_ops(0);
    let args = tasklet.region_args(0);
    let identity = matches!(body.as_slice(), [y] if y.is("sdfg.yield") && y.operands() == args);
    if !identity || args.len() != 1 {
        return Err("the body does more than yield its argument".into());
    }
    let source = input
        .defining_op()
        .filter(|s| s.is("sdfg.access"))
        .ok_or("the input does not come from an access node")?;
    let uses = output.uses();
    let [(dest, operand)] = uses.as_slice() else {
        return Err("the output is not used exactly once".into());
    };
    let writes = dest.operand_segment(1).len();
    if !dest.is("sdfg.access") || *operand == 0 || *operand > writes {
        return Err("the output does not go to an access node".into());
    }
    let element = |v| Container::from_type(v).map(|c| c.element.0.ptr);
    let (from, to) = (source.operands()[0], dest.operands()[0]);
    if element(from.ty()).is_none() || element(from.ty()) != element(to.ty()) {
        return Err("the containers hold different element types".into());
    }
    let read = memlet_at(tasklet, 0).ok_or("the input has no memlet")?;
    let written = memlet_at(*dest, *operand).ok_or("the output has no memlet")?;
    if read.wcr != Wcr::None || written.wcr != Wcr::None || read.dynamic || written.dynamic {
        return Err("a memlet resolves write conflicts or is dynamic".into());
    }
    let copy = Memlet {
        subset: read.subset,
        other: Some(written.subset),
        volume: None,
        dynamic: false,
        wcr: Wcr::None,
        data: None,
    };
    rewrite::set_operand(*dest, *operand, *input);
    set_memlet_at(*dest, *operand, &copy);
    // SAFETY: the tasklet's only result has no use left.
    unsafe { rewrite::erase(tasklet) };
    Ok(())
}
