//! `sdfg-in-local-storage` and `sdfg-out-local-storage`: DaCe's
//! `InLocalStorage` and `OutLocalStorage`. A map nested in another scope
//! reads (or writes) its box of some data through a transient buffer of
//! its own: the box is copied into the buffer before the map, and the
//! map's memlets index the buffer (or the map writes the buffer, which is
//! copied out after it). In the SC'19 paper's matrix multiplication these
//! are the tiles of `A` and `B` packed next to each other and the tile of
//! `C` kept together while a tile of `k` accumulates into it; the lowering
//! gives each outer iteration its own buffer, small enough for a cache.
//!
//! ```mlir
//! // before: the inner map reads A's tile where it lies
//! %o = sdfg.map ["ti" = "0:N:32"] ins("A" = %a["0:N, 0:K"] : ...) {
//! ^bb0(%ai: ...):
//!   %m = sdfg.map ["i" = "ti:Min(N, ti + 32)", "k" = "0:K"]
//!          ins("A" = %ai["ti:Min(N, ti + 32), 0:K"] : ...) { ... %aj["i, k"] ... }
//! }
//! // after: it reads a 32 x K copy of the tile
//! %A_local = sdfg.alloc "A_local" : !sdfg.array<f64 ["32", "K"]>
//! %o = sdfg.map ["ti" = "0:N:32"] ins("A" = %a["0:N, 0:K"] : ...) {
//! ^bb0(%ai: ...):
//!   %l = sdfg.access %A_local writes(%ai["ti:Min(N, ti + 32), 0:K" -> "0:Min(N, ti + 32) - ti, 0:K"] : ...)
//!   %m = sdfg.map [...] ins("A" = %l["0:Min(N, ti + 32) - ti, 0:K"] : ...) { ... %aj["i - ti, k"] ... }
//! }
//! ```
//!
//! The buffer has the box's extents, bounded where they depend on the
//! parameters of the scopes around (a partial tile is at most a whole
//! one, [`sdfg_symbolic::Expr::upper_bound_free_of`]); only the box itself
//! is copied. It applies to a map inside a map or consume scope, and to a
//! box of unit steps of an array or view (not a scalar or stream) that is
//! not a copy. For the output, the map must write every element of its
//! box exactly once (its outer memlet's volume is the box's size) and
//! resolve no conflicts: what the buffer holds replaces the box, so an
//! element the map did not write would be overwritten with garbage, and
//! a resolution would combine with an uninitialised buffer (DaCe's
//! `AccumulateTransient` is the transformation for those,
//! `sdfg-accumulate-transient`). Data the map both reads and writes
//! keeps going to memory (a copy would miss the map's own writes), and so
//! does the data of a map that holds a nested SDFG taking data with
//! explicit strides (the buffer's are its own). The option `data=NAME`
//! picks the connectors of one container.

use super::Target;
use crate::memlet_paths::Moves;
use sdfg_dialect::driver::{Diagnosed, PassRegistration, RustPass};
use sdfg_dialect::ir::{type_to_string, Op, Val};
use sdfg_dialect::{memlet_at, rewrite, set_memlet_at, Container, ContainerKind, Memlet, Wcr};
use sdfg_symbolic::{parse, parse_subset, Embedding, Expr, Range, Subset};
use std::collections::BTreeSet;

/// The registration of `sdfg-in-local-storage`.
pub static IN_REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-in-local-storage",
    summary: "Copy what a map nested in another scope reads into a transient buffer of its own, and read that (DaCe's InLocalStorage); options data, label, level, param",
    op_name: "builtin.module",
    create: || Box::new(LocalStorage::new(Direction::In)),
};

/// The registration of `sdfg-out-local-storage`.
pub static OUT_REGISTRATION: PassRegistration = PassRegistration {
    argument: "sdfg-out-local-storage",
    summary: "Let a map nested in another scope write into a transient buffer of its own, copied out after it (DaCe's OutLocalStorage); options data, label, level, param",
    op_name: "builtin.module",
    create: || Box::new(LocalStorage::new(Direction::Out)),
};

/// Whether the buffer holds what a map reads or what it writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// The map's inputs (`InLocalStorage`).
    In,
    /// The map's outputs (`OutLocalStorage`).
    Out,
}

/// `sdfg-in-local-storage` or `sdfg-out-local-storage`, with its options.
#[derive(Clone, Debug)]
pub struct LocalStorage {
    /// Inputs or outputs.
    pub direction: Direction,
    /// Only the connectors of this container.
    pub data: Option<String>,
    /// The maps to give buffers.
    pub target: Target,
}

impl LocalStorage {
    /// The pass for `direction`, on every connector of every map.
    pub fn new(direction: Direction) -> Self {
        LocalStorage {
            direction,
            data: None,
            target: Target::default(),
        }
    }

    fn name(&self) -> &'static str {
        match self.direction {
            Direction::In => "sdfg-in-local-storage",
            Direction::Out => "sdfg-out-local-storage",
        }
    }
}

impl RustPass for LocalStorage {
    fn set_options(&mut self, options: &str) -> Result<(), String> {
        let mut data = None;
        self.target = Target::parse_with(
            self.name(),
            options,
            "data, label, level and param",
            |key, value| {
                if key != "data" {
                    return Ok(false);
                }
                data = Some(value.to_string());
                Ok(true)
            },
        )?;
        self.data = data;
        Ok(())
    }

    fn run(&mut self, module: Op<'_>) -> Result<(), Diagnosed> {
        let data = self.data.as_deref();
        let direction = self.direction;
        self.target
            .apply_each(self.name(), module, |map| match direction {
                Direction::In => in_local_storage(map, data),
                Direction::Out => out_local_storage(map, data),
            });
        Ok(())
    }

    fn clone_pass(&self) -> Box<dyn RustPass> {
        Box::new(self.clone())
    }
}

/// DaCe's `InLocalStorage` on every input of `map` it applies to (of the
/// container `data` only, where given); returns the buffers' names, or
/// why it applies to none.
pub fn in_local_storage(map: Op<'_>, data: Option<&str>) -> Result<Vec<String>, String> {
    nested(map)?;
    let results = map.results();
    let written: Vec<Option<String>> = results
        .iter()
        .map(|r| sdfg_dialect::written_container(*r))
        .collect();
    if results.iter().any(|r| r.uses().len() != 1) || written.contains(&None) {
        return Err(
            "its outputs do not each go to one known container, which its reads of copies could miss"
                .into(),
        );
    }
    let inputs = map.operand_segment(0);
    let mut made = Vec::new();
    let mut why = Vec::new();
    for (k, source) in inputs.into_iter().enumerate() {
        let name = sdfg_dialect::container_name(sdfg_dialect::underlying_container(source))
            .unwrap_or_else(|| "data".into());
        if data.is_some_and(|d| d != name) {
            continue;
        }
        if written.contains(&Some(name.clone())) {
            why.push(format!(
                "'{name}' is also written by the map, whose reads of a copy would miss its writes"
            ));
            continue;
        }
        let planned = memlet_at(map, k)
            .ok_or_else(|| format!("input '{name}' has no memlet"))
            .and_then(|memlet| Buffer::plan(map, source, &memlet, &name));
        match planned {
            Ok(buffer) => made.push(buffer.feed(map, k, source)?),
            Err(reason) => why.push(reason),
        }
    }
    finish(made, why, data)
}

/// DaCe's `OutLocalStorage` on every output of `map` it applies to (of
/// the container `data` only, where given); returns the buffers' names,
/// or why it applies to none.
pub fn out_local_storage(map: Op<'_>, data: Option<&str>) -> Result<Vec<String>, String> {
    nested(map)?;
    let read: Vec<Option<String>> = map
        .operand_segment(0)
        .into_iter()
        .map(|v| sdfg_dialect::container_name(sdfg_dialect::underlying_container(v)))
        .collect();
    let mut made = Vec::new();
    let mut why = Vec::new();
    for (r, result) in map.results().into_iter().enumerate() {
        let uses = result.uses();
        let [(user, operand)] = uses.as_slice() else {
            why.push(format!("output {r} does not go to exactly one place"));
            continue;
        };
        let name = sdfg_dialect::written_container(result).unwrap_or_else(|| "data".into());
        if data.is_some_and(|d| d != name) {
            continue;
        }
        if read.contains(&Some(name.clone())) {
            why.push(format!(
                "'{name}' is also read by the map, whose reads would miss the writes held back in the buffer"
            ));
            continue;
        }
        match plan_out(map, r, *user, *operand, &name) {
            Ok(buffer) => made.push(buffer.drain(map, r, *user, *operand)?),
            Err(reason) => why.push(reason),
        }
    }
    finish(made, why, data)
}

/// Why `map` cannot have a buffer of its own: it is not in another scope,
/// or a nested SDFG in it takes data with the strides of the data's
/// layout (which a buffer does not have, and the moves do not change).
fn nested(map: Op<'_>) -> Result<(), String> {
    match map.parent() {
        Some(p) if matches!(p.name(), "sdfg.map" | "sdfg.consume") => {}
        _ => {
            return Err(
                "is not inside another scope, so its buffer would be the data's size".into(),
            )
        }
    }
    let laid_out = map
        .descendants()
        .into_iter()
        .filter(|o| o.is("sdfg.sdfg"))
        .flat_map(|sdfg| sdfg.region_args(0))
        .filter_map(|arg| Container::from_type(arg.ty()))
        .any(|c| c.strides.is_some() || c.offset.is_some());
    if laid_out {
        return Err(
            "a nested SDFG in it takes data with explicit strides, which a buffer would change"
                .into(),
        );
    }
    Ok(())
}

fn finish(made: Vec<String>, why: Vec<String>, data: Option<&str>) -> Result<Vec<String>, String> {
    if !made.is_empty() {
        return Ok(made);
    }
    if why.is_empty() {
        return Err(match data {
            Some(d) => format!("has no connector of '{d}'"),
            None => "has no connectors".into(),
        });
    }
    Err(why.join("; "))
}

/// The plan for the output `r` of `map`, which goes to `user`.
fn plan_out<'a>(
    map: Op<'a>,
    r: usize,
    user: Op<'a>,
    operand: usize,
    name: &str,
) -> Result<Buffer, String> {
    if !(user.is("sdfg.exit") || user.is("sdfg.access") && operand >= 1) {
        return Err(format!(
            "output '{name}' goes to neither an exit nor an access node"
        ));
    }
    let memlet =
        memlet_at(user, operand).ok_or_else(|| format!("output '{name}' has no memlet"))?;
    if memlet.wcr != Wcr::None {
        return Err(format!(
            "output '{name}' resolves conflicts (sdfg-accumulate-transient gives those an accumulator)"
        ));
    }
    let exit = crate::scope_exit(map).ok_or("has no exit")?;
    let connector = map
        .str_array_attr("out_names")
        .get(r)
        .map(|s| s.to_string())
        .unwrap_or_default();
    let memlets = exit.array_attr("memlets");
    let resolves = crate::exit_entries(exit, &connector).into_iter().any(|k| {
        memlets
            .get(k)
            .copied()
            .and_then(Memlet::from_attr)
            .is_none_or(|m| m.wcr != Wcr::None)
    });
    if resolves {
        return Err(format!(
            "output '{name}' resolves conflicts inside (sdfg-accumulate-transient gives those an accumulator)"
        ));
    }
    let buffer = Buffer::plan(map, map.results()[r], &memlet, name)?;
    let volume = match &memlet.volume {
        Some(v) => parse(v).map_err(|e| e.to_string())?,
        None => buffer.subset.volume(),
    };
    if memlet.dynamic || Expr::sub(&volume, &buffer.subset.volume()).as_int() != Some(0) {
        return Err(format!(
            "output '{name}': the map may not write every element of its box once, and the copy out would write them all"
        ));
    }
    Ok(buffer)
}

/// A buffer for one box of data.
struct Buffer {
    /// The box, in the data's coordinates.
    subset: Subset,
    /// The box's extents, which may name the parameters around.
    extents: Vec<Expr>,
    /// The buffer's type and element type.
    ty: String,
    /// The container's name, for the buffer's.
    name: String,
}

impl Buffer {
    /// The buffer for the box `memlet` moves of the data behind `value`.
    fn plan(map: Op<'_>, value: Val<'_>, memlet: &Memlet, name: &str) -> Result<Buffer, String> {
        let container =
            Container::from_type(value.ty()).ok_or_else(|| format!("'{name}' is not data"))?;
        if !matches!(container.kind, ContainerKind::Array | ContainerKind::View) {
            return Err(format!("'{name}' is not an array or a view"));
        }
        if memlet.other.is_some() {
            return Err(format!("the memlet of '{name}' is a copy"));
        }
        let subset = parse_subset(&memlet.subset).map_err(|e| e.to_string())?;
        if !subset.is_dense() {
            return Err(format!("the box of '{name}' is strided"));
        }
        let sdfg = crate::enclosing_sdfg(map).ok_or("is in no SDFG")?;
        let declared: BTreeSet<String> = sdfg_dialect::declared_symbols(sdfg)
            .into_iter()
            .map(|(n, _)| n.to_string())
            .collect();
        let extents: Vec<Expr> = subset.ranges().iter().map(Range::size).collect();
        let locals: BTreeSet<String> = extents
            .iter()
            .flat_map(Expr::free_symbols)
            .filter(|s| !declared.contains(s))
            .collect();
        let bounds: Vec<Expr> = extents
            .iter()
            .map(|e| {
                e.upper_bound_free_of(&locals).ok_or_else(|| {
                    format!("the box of '{name}' has extent {e}, which nothing bounds but the parameters around")
                })
            })
            .collect::<Result<_, _>>()?;
        // A box that the clamping to the data's bounds left empty (an
        // invalid program's, which reads outside) gets an empty buffer,
        // not one of a negative size.
        let sizes = sdfg_analysis::executions::size_assumptions(sdfg);
        let dims: Vec<String> = bounds
            .iter()
            .map(|b| match sizes.prove_nonnegative(b) {
                true => format!("\"{b}\""),
                false => format!("\"{}\"", Expr::max(vec![Expr::int(0), b.clone()])),
            })
            .collect();
        let element = type_to_string(container.element.0);
        Ok(Buffer {
            subset,
            extents,
            ty: format!("!sdfg.array<{element} [{}]>", dims.join(", ")),
            name: name.to_string(),
        })
    }

    /// The box in the buffer's coordinates, and how the data's move there.
    fn local(&self) -> (String, Embedding) {
        let local = Subset::new(
            self.extents
                .iter()
                .map(|e| Range::new(Expr::int(0), e.clone(), Expr::int(1)))
                .collect(),
        );
        let shift: Vec<Expr> = self
            .subset
            .ranges()
            .iter()
            .map(|r| Expr::neg(&r.start))
            .collect();
        (local.to_string(), Embedding::shift(&shift))
    }

    /// Makes the buffer and the container for it in the SDFG around `map`.
    fn create<'a>(&self, map: Op<'a>) -> Result<(String, Val<'a>), String> {
        let sdfg = crate::enclosing_sdfg(map).ok_or("is in no SDFG")?;
        let ty = rewrite::parse_type(map, &self.ty)
            .ok_or_else(|| format!("type `{}` does not parse", self.ty))?;
        let name = crate::fresh_name(sdfg, &format!("{}_local", self.name));
        let alloc = rewrite::create_alloc(sdfg, &name, ty).ok_or("the buffer could not be made")?;
        Ok((name, alloc))
    }

    /// Copies the box into the buffer before `map`, which reads its input
    /// `k` (from `source`) there.
    fn feed<'a>(self, map: Op<'a>, k: usize, source: Val<'a>) -> Result<String, String> {
        let (local, embedding) = self.local();
        let arg = map.region_args(0)[k];
        let mut moves = Moves::default();
        moves.into_type(rewrite::parse_type(map, &self.ty).ok_or("the buffer's type")?);
        moves.retype(arg)?;
        moves.reads(arg, &embedding)?;
        let (name, buffer) = self.create(map)?;
        let copy = Memlet {
            other: Some(local.clone()),
            ..Memlet::plain(&self.subset.to_string())
        };
        let node = crate::write_node(map, buffer, source, &copy)?;
        moves.apply();
        rewrite::set_operand(map, k, node.results()[0]);
        set_memlet_at(map, k, &Memlet::plain(&local));
        Ok(name)
    }

    /// Makes `map` write its output `r` into the buffer, which is copied
    /// to `user` (where the output went) after it.
    fn drain<'a>(
        self,
        map: Op<'a>,
        r: usize,
        user: Op<'a>,
        operand: usize,
    ) -> Result<String, String> {
        let (local, embedding) = self.local();
        let mut moves = Moves::default();
        moves.into_type(rewrite::parse_type(map, &self.ty).ok_or("the buffer's type")?);
        moves.writes(map, r, &embedding)?;
        let (name, buffer) = self.create(map)?;
        moves.apply();
        let node = crate::write_node(user, buffer, map.results()[r], &Memlet::plain(&local))?;
        rewrite::set_operand(user, operand, node.results()[0]);
        let copy = Memlet {
            other: Some(self.subset.to_string()),
            ..Memlet::plain(&local)
        };
        set_memlet_at(user, operand, &copy);
        Ok(name)
    }
}
