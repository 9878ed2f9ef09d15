//! `sdfg-raise-loops`: turns the loops of state machines into `sdfg.loop`
//! regions, counted loops with their variable and while loops with their
//! condition, as DaCe's `LoopLifting` (the loop half of its
//! `ControlFlowRaising`) does.
//!
//! A frontend that writes flat state machines spells `for i in range(N)`
//! as a guard state, an edge that initialises `i` into it, a conditional
//! edge into the body, the negated one out of the loop, and an edge from
//! the end of the body back to the guard that updates `i`. Structured
//! loops are what the transformations that work on loops (loop-to-map,
//! the FPGA and GPU transforms) and the lowering to `scf` want, and what
//! the executions analysis reads without guessing.
//!
//! ```mlir
//! // before
//! sdfg.state @init { }
//! sdfg.state @guard { }
//! sdfg.state @body { ... }
//! sdfg.state @done { }
//! sdfg.edge @init -> @guard assign("i" = "0")
//! sdfg.edge @guard -> @body if "i < N"
//! sdfg.edge @guard -> @done if "not (i < N)"
//! sdfg.edge @body -> @guard assign("i" = "i + 1", "s" = "s * 2")
//! // after
//! sdfg.state @init { }
//! sdfg.loop @guard var "i" init "0" cond "i < N" update "i + 1" {
//!   sdfg.state @body { ... }
//!   sdfg.state @guard_tail { }
//!   sdfg.edge @body -> @guard_tail assign("s" = "s * 2")
//! }
//! sdfg.state @done { }
//! sdfg.edge @init -> @guard
//! sdfg.edge @guard -> @done
//! ```
//!
//! The loops are the ones the executions analysis finds
//! ([`innermost_state_machine_loops`]): a guard with a condition into the
//! body and its negation out of the loop, entered from outside and
//! reached again from the body; counted where one variable is initialised
//! the same way on every edge in and updated the same way on every edge
//! back and the condition bounds it, else a while loop. Other assignments on the back edges move
//! to an edge into a tail state at the end of the body, as DaCe does,
//! those on the edge from the guard into the body to an edge from a head
//! state at its start, and those on the edges in and out stay on them. A loop is left alone when
//! its guard holds dataflow (it would run once more than the body), when
//! the body can be entered or left other than through the guard (a jump
//! into the middle, a `break` edge), when the machine may stop in the
//! body (conditions that do not cover every case: raised, that would end
//! only the iteration), or when the initial value reads a
//! symbol its own edge assigns (the loop would initialise after the
//! edge's assignments, not with them). The variable keeps its last value
//! after the loop, as in the state machine. Nested loops are raised from
//! the inside out: the frontend's inner loop often exits straight into
//! the outer loop's back edge (`inner_guard -> outer_guard` assigning
//! `i = i + 1`), which is the outer loop's latch only once the inner loop
//! is one block. A back edge with a condition keeps it: taking it ends
//! the iteration, as reaching the end of the body does.

use crate::cfg::{assignments, unique_block_name};
use sdfg_analysis::executions::{
    conditions_cover, innermost_state_machine_loops, size_assumptions, LoopForm, StateMachineLoop,
};
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::Op;
use sdfg_dialect::rewrite;
use sdfg_symbolic::Assumptions;
use std::collections::HashSet;

/// The pass's registration.
pub static REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-raise-loops",
    summary: "Turn the loops of state machines (guard, init, condition and update edges) into sdfg.loop regions, counted or while loops (DaCe's LoopLifting)",
    op_name: "builtin.module",
    create: || Box::new(RaiseLoops),
};

/// The pass (no options).
#[derive(Clone, Copy)]
pub struct RaiseLoops;

impl RustPass for RaiseLoops {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        crate::no_options("sdfg-raise-loops", options)
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        raise_loops(module);
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(*self)
    }
}

/// Raises every loop of every state machine under `root` that the module
/// documentation allows; returns how many it raised.
pub fn raise_loops(root: Op<'_>) -> usize {
    let mut raised = 0;
    let mut work = crate::cfg::machine_owners(root);
    while let Some(owner) = work.pop() {
        let Some(sdfg) = crate::sdfg_of(owner) else {
            continue;
        };
        let asm = size_assumptions(sdfg);
        // Innermost first, one at a time: each raise changes the region,
        // and an inner loop's exit edge becomes an edge of its outer
        // loop's body only once the inner loop is a block.
        let mut refused: HashSet<String> = HashSet::new();
        loop {
            let next = innermost_state_machine_loops(owner, &asm)
                .into_iter()
                .find(|lp| lp.guard.symbol_name().is_some_and(|n| !refused.contains(n)));
            let Some(lp) = next else {
                break;
            };
            let raised_loop = match lp.form {
                LoopForm::Guarded => raise(owner, &lp, &asm),
                LoopForm::Inverted {
                    update_before_condition,
                } => raise_inverted(owner, &lp, update_before_condition, &asm),
            };
            match raised_loop {
                Some(_) => raised += 1,
                None => {
                    refused.extend(lp.guard.symbol_name().map(str::to_string));
                }
            }
        }
    }
    raised
}

/// The inter-state edges of `owner`'s region, with their endpoints' names.
fn edges_of(owner: Op<'_>) -> Vec<(Op<'_>, &str, &str)> {
    owner
        .region_ops(0)
        .into_iter()
        .filter(|o| o.is("sdfg.edge"))
        .filter_map(|e| Some((e, e.symbol_ref_attr("src")?, e.symbol_ref_attr("dst")?)))
        .collect()
}

fn assigned<'e>(list: &'e [(String, String)], var: &str) -> Option<&'e str> {
    list.iter().find(|(n, _)| n == var).map(|(_, v)| v.as_str())
}

/// Whether the machine cannot stop in any block of `body` (a block where
/// it may would end only the iteration once raised): the conditions out
/// of each cover every case.
fn never_stops(edges: &[(Op<'_>, &str, &str)], body: &HashSet<&str>, asm: &Assumptions) -> bool {
    body.iter().all(|b| {
        let conditions: Vec<Option<&str>> = edges
            .iter()
            .filter(|(_, src, _)| src == b)
            .map(|(e, _, _)| e.str_attr("condition"))
            .collect();
        conditions_cover(&conditions, asm)
    })
}

/// Moves the blocks named `body` from `owner` into `region`, `begin` first
/// (a region starts at its first block), and the `internal` edges.
fn move_body(
    owner: Op<'_>,
    begin: Op<'_>,
    body: &HashSet<&str>,
    internal: Vec<Op<'_>>,
    region: Op<'_>,
) {
    rewrite::move_to_end(begin, region);
    for block in owner.region_ops(0) {
        if block != begin && block.symbol_name().is_some_and(|n| body.contains(n)) {
            rewrite::move_to_end(block, region);
        }
    }
    for e in internal {
        rewrite::move_to_end(e, region);
    }
}

/// A counted loop's variable; empty for a while loop.
fn loop_variable<'l>(lp: &'l StateMachineLoop<'_>) -> &'l str {
    lp.counted.as_ref().map(|(v, _)| v.as_str()).unwrap_or("")
}

/// The initial value the `entries` give `var`, unless it reads a symbol
/// an entry assigns too (the loop would initialise after the edge's
/// assignments, not with them).
fn initial_value(entries: &[Op<'_>], var: &str) -> Option<String> {
    let init = assigned(&assignments(*entries.first()?), var)?.to_string();
    let init_expr = sdfg_symbolic::parse(&init).ok()?;
    let reads_assigned = entries.iter().any(|e| {
        assignments(*e)
            .iter()
            .any(|(n, _)| n != var && init_expr.mentions(n))
    });
    (!reads_assigned).then_some(init)
}

/// Raises one loop of `owner`'s region into an `sdfg.loop`; returns the
/// new loop, or `None` (nothing changed) where the loop is left alone.
fn raise<'a>(owner: Op<'a>, lp: &StateMachineLoop<'a>, asm: &Assumptions) -> Option<Op<'a>> {
    let guard = lp.guard.symbol_name()?;
    if !lp.guard.is("sdfg.state") || !lp.guard.region_is_empty(0) {
        return None;
    }
    let body: HashSet<&str> = lp.body.iter().filter_map(|b| b.symbol_name()).collect();
    let begin = lp.begin.symbol_name()?;
    let edges = edges_of(owner);
    let (mut entries, mut back, mut internal) = (Vec::new(), Vec::new(), Vec::new());
    let (mut enter, mut leave) = (None, None);
    for &(e, src, dst) in &edges {
        match (
            src == guard,
            dst == guard,
            body.contains(src),
            body.contains(dst),
        ) {
            (true, _, _, true) if dst == begin && enter.is_none() => enter = Some(e),
            (true, _, _, false) if dst != guard && leave.is_none() => leave = Some(e),
            (false, true, true, _) => back.push(e),
            (false, true, false, _) => entries.push(e),
            (false, false, true, true) => internal.push(e),
            // An edge into the body or out of it that bypasses the guard.
            (false, false, true, false) | (false, false, false, true) => return None,
            (false, false, false, false) => {}
            _ => return None,
        }
    }
    let (enter, leave) = (enter?, leave?);
    if !never_stops(&edges, &body, asm) {
        return None;
    }
    let cond = enter.str_attr("condition")?.to_string();
    // A counted loop's variable, initial value and update; a while loop
    // has none, and its edges keep all their assignments.
    let var = loop_variable(lp);
    let mut attributes = vec![("cond", cond)];
    if !var.is_empty() {
        let init = initial_value(&entries, var)?;
        let update = assigned(&assignments(*back.first()?), var)?.to_string();
        attributes.extend([("var", var.to_string()), ("init", init), ("update", update)]);
    }
    let attributes: Vec<(&str, &str)> = attributes.iter().map(|(n, v)| (*n, v.as_str())).collect();
    // The loop takes the guard's name once the guard is gone.
    let name = guard.to_string();
    let region = rewrite::create_block_before(
        lp.guard,
        "sdfg.loop",
        &unique_block_name(owner, &format!("{name}_loop"))?,
        &attributes,
    )?;
    // The body, its first block first (a region starts at its first
    // block), after a head state where the edge into the body assigns.
    let enter_assignments = assignments(enter);
    let head = if enter_assignments.is_empty() {
        None
    } else {
        let head = unique_block_name(owner, &format!("{name}_head"))?;
        rewrite::create_block_at_end(region, "sdfg.state", &head, &[])?;
        Some(head)
    };
    move_body(owner, lp.begin, &body, internal, region);
    if let Some(head) = head {
        rewrite::create_edge(region, &head, begin, &enter_assignments)?;
    }
    // Back edges: their other assignments go into a tail state.
    let leftovers: Vec<(Op, Vec<(String, String)>)> = back
        .iter()
        .map(|e| {
            let rest = assignments(*e)
                .into_iter()
                .filter(|(n, _)| n != var)
                .collect();
            (*e, rest)
        })
        .collect();
    if leftovers.iter().any(|(_, rest)| !rest.is_empty()) {
        let tail_name = unique_block_name(owner, &format!("{name}_tail"))?;
        rewrite::create_block_at_end(region, "sdfg.state", &tail_name, &[])?;
        for (e, rest) in &leftovers {
            let src = e.symbol_ref_attr("src")?.to_string();
            let tail_edge = rewrite::create_edge(region, &src, &tail_name, rest)?;
            if let Some(condition) = e.str_attr("condition") {
                tail_edge.set_attr("condition", rewrite::str_attr(tail_edge, condition));
            }
        }
    }
    // SAFETY: edges have no results; none of these handles is used again.
    unsafe {
        for e in back {
            rewrite::erase(e);
        }
        rewrite::erase(enter);
    }
    for e in entries {
        rewrite::set_symbol_ref(e, "dst", &name);
        let rest: Vec<(String, String)> = assignments(e)
            .into_iter()
            .filter(|(n, _)| n != var)
            .collect();
        rewrite::set_assignments(e, &rest);
    }
    rewrite::set_symbol_ref(leave, "src", &name);
    rewrite::remove_attr(leave, "condition");
    // SAFETY: the guard is empty and no edge names it any more.
    unsafe { rewrite::erase(lp.guard) };
    region.set_attr("sym_name", rewrite::str_attr(region, &name));
    Some(region)
}

/// Raises one inverted (do-while) loop of `owner`'s region into an
/// `inverted` `sdfg.loop`; returns it, or `None` (nothing changed) where
/// the loop is left alone (see the module documentation).
fn raise_inverted<'a>(
    owner: Op<'a>,
    lp: &StateMachineLoop<'a>,
    update_first: bool,
    asm: &Assumptions,
) -> Option<Op<'a>> {
    let latch = lp.guard.symbol_name()?;
    let begin = lp.begin.symbol_name()?;
    let body: HashSet<&str> = lp.body.iter().filter_map(|b| b.symbol_name()).collect();
    let edges = edges_of(owner);
    let (mut entries, mut internal) = (Vec::new(), Vec::new());
    let (mut back, mut leave) = (None, None);
    for &(e, src, dst) in &edges {
        match (body.contains(src), body.contains(dst)) {
            (false, true) if dst == begin => entries.push(e),
            (true, false) if src == latch && leave.is_none() => leave = Some(e),
            (true, true) if src == latch && dst == begin && back.is_none() => back = Some(e),
            (true, true) => internal.push(e),
            (false, false) => {}
            // A jump into the middle of the body, or a `break`.
            _ => return None,
        }
    }
    let (back, leave) = (back?, leave?);
    if entries.is_empty() || !never_stops(&edges, &body, asm) {
        return None;
    }
    let var = loop_variable(lp);
    // The back edge runs only when the loop goes on: its other
    // assignments, moved into the body, would also run after the last
    // iteration.
    if assignments(back).iter().any(|(n, _)| n != var) {
        return None;
    }
    let mut attributes = vec![("cond", back.str_attr("condition")?.to_string())];
    // Updating before the check, the update is on every edge into the
    // latch; their other assignments stay, and must not read the variable
    // (they would read it before the update instead of after).
    let update_edges: Vec<Op> = if update_first && !var.is_empty() {
        internal
            .iter()
            .copied()
            .filter(|e| e.symbol_ref_attr("dst") == Some(latch))
            .collect()
    } else {
        Vec::new()
    };
    if !var.is_empty() {
        let init = initial_value(&entries, var)?;
        let update_edge = if update_first {
            *update_edges.first()?
        } else {
            back
        };
        let update = assigned(&assignments(update_edge), var)?.to_string();
        for e in &update_edges {
            for (n, value) in assignments(*e) {
                let value = sdfg_symbolic::parse(&value).ok()?;
                if n != var && value.mentions(var) {
                    return None;
                }
            }
        }
        attributes.extend([("var", var.to_string()), ("init", init), ("update", update)]);
    }
    let attributes: Vec<(&str, &str)> = attributes.iter().map(|(n, v)| (*n, v.as_str())).collect();
    let name = unique_block_name(owner, &format!("{begin}_loop"))?;
    let region = rewrite::create_block_before(lp.begin, "sdfg.loop", &name, &attributes)?;
    rewrite::set_unit_attr(region, "inverted");
    if update_first {
        rewrite::set_unit_attr(region, "update_before_condition");
    }
    move_body(owner, lp.begin, &body, internal, region);
    for e in update_edges.into_iter().chain(entries) {
        let rest: Vec<(String, String)> = assignments(e)
            .into_iter()
            .filter(|(n, _)| n != var)
            .collect();
        rewrite::set_assignments(e, &rest);
    }
    for e in edges_of(owner) {
        if e.2 == begin {
            rewrite::set_symbol_ref(e.0, "dst", &name);
        }
    }
    // SAFETY: the back edge has no results; its handle is not used again.
    unsafe { rewrite::erase(back) };
    rewrite::set_symbol_ref(leave, "src", &name);
    rewrite::remove_attr(leave, "condition");
    Some(region)
}
