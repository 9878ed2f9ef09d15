//! Write-conflict resolution: which reduction a memlet's WCR is, and the
//! code that applies it (a read-modify-write, or an atomic one inside
//! parallel loops).

use sdfg_dialect::{Wcr, WcrKind};

use super::text::Body;
use super::types::Elem;
use sdfg_tasklet::text::strip;

/// The reductions the lowering implements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reduction {
    Sum,
    Product,
    Min,
    Max,
    LogicalAnd,
    LogicalOr,
    LogicalXor,
    BitAnd,
    BitOr,
    BitXor,
    Exchange,
    Sub,
    Div,
}

impl Reduction {
    /// Whether this is a logical reduction (its operands are truth values).
    pub(crate) fn is_logical(self) -> bool {
        matches!(
            self,
            Reduction::LogicalAnd | Reduction::LogicalOr | Reduction::LogicalXor
        )
    }

    /// Reads a memlet's WCR; `Ok(None)` when it has none.
    pub(crate) fn of(wcr: &Wcr) -> Result<Option<Reduction>, String> {
        match wcr {
            Wcr::None => Ok(None),
            Wcr::Named(kind) => Self::named(*kind)
                .map(Some)
                .ok_or_else(|| format!("write-conflict resolution `{kind}` cannot be lowered")),
            Wcr::Custom(lambda) => Self::from_lambda(lambda).map(Some).ok_or_else(|| {
                format!("write-conflict resolution `{lambda}` is not a reduction the lowering knows (sum, product, min, max, logical and bitwise and/or/xor, exchange)")
            }),
        }
    }

    fn named(kind: WcrKind) -> Option<Reduction> {
        Some(match kind.name() {
            "sum" => Reduction::Sum,
            "product" => Reduction::Product,
            "min" => Reduction::Min,
            "max" => Reduction::Max,
            "logical_and" => Reduction::LogicalAnd,
            "logical_or" => Reduction::LogicalOr,
            "logical_xor" => Reduction::LogicalXor,
            "bitwise_and" => Reduction::BitAnd,
            "bitwise_or" => Reduction::BitOr,
            "bitwise_xor" => Reduction::BitXor,
            "exchange" => Reduction::Exchange,
            "sub" => Reduction::Sub,
            "div" => Reduction::Div,
            _ => return None,
        })
    }

    /// Recognises the lambdas DaCe writes for its reductions
    /// (`lambda a, b: a + b`, `lambda x, y: max(x, y)`, ...).
    pub(crate) fn from_lambda(text: &str) -> Option<Reduction> {
        let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let s = strip_all(&compact);
        let rest = s.strip_prefix("lambda")?;
        let (params, body) = rest.split_once(':')?;
        let (a, b) = params.split_once(',')?;
        let body = strip_all(body);
        let ops: &[(&str, Reduction)] = &[
            ("+", Reduction::Sum),
            ("*", Reduction::Product),
            ("&", Reduction::BitAnd),
            ("|", Reduction::BitOr),
            ("^", Reduction::BitXor),
            ("and", Reduction::LogicalAnd),
            ("or", Reduction::LogicalOr),
        ];
        for (op, reduction) in ops {
            if body == format!("{a}{op}{b}") || body == format!("{b}{op}{a}") {
                return Some(*reduction);
            }
        }
        if body == format!("{a}-{b}") {
            return Some(Reduction::Sub);
        }
        if body == format!("{a}/{b}") {
            return Some(Reduction::Div);
        }
        if body == b {
            return Some(Reduction::Exchange);
        }
        for (name, reduction) in [
            ("max", Reduction::Max),
            ("min", Reduction::Min),
            ("np.maximum", Reduction::Max),
            ("np.minimum", Reduction::Min),
            ("numpy.maximum", Reduction::Max),
            ("numpy.minimum", Reduction::Min),
        ] {
            if body == format!("{name}({a},{b})") || body == format!("{name}({b},{a})") {
                return Some(reduction);
            }
        }
        None
    }

    /// The `memref.atomic_rmw` kind for this reduction on `elem`, if one
    /// exists that `finalize-memref-to-llvm` lowers (LLVM's `atomicrmw`
    /// has no multiplication: a product takes the generic compare-and-swap
    /// loop).
    fn atomic_kind(self, elem: &Elem) -> Option<&'static str> {
        let float = elem.is_float();
        Some(match (self, float) {
            (Reduction::Sum, true) => "addf",
            (Reduction::Sum, false) => "addi",
            (Reduction::Max, true) => "maximumf",
            (Reduction::Min, true) => "minimumf",
            (Reduction::Max, false) if elem.unsigned => "maxu",
            (Reduction::Max, false) => "maxs",
            (Reduction::Min, false) if elem.unsigned => "minu",
            (Reduction::Min, false) => "mins",
            (Reduction::BitAnd, false) => "andi",
            (Reduction::BitOr, false) => "ori",
            (Reduction::Exchange, _) => "assign",
            (Reduction::LogicalAnd | Reduction::LogicalOr, false) if elem.ty == "i1" => {
                if self == Reduction::LogicalAnd {
                    "andi"
                } else {
                    "ori"
                }
            }
            _ => return None,
        })
    }

    /// Emits `old (op) new` on `elem` values.
    pub(crate) fn combine(self, body: &mut Body, old: &str, new: &str, elem: &Elem) -> String {
        let t = &elem.ty;
        if elem.is_complex() {
            // [`Self::apply`] admits only these on complex numbers.
            let op = match self {
                Reduction::Sum => "add",
                Reduction::Product => "mul",
                Reduction::Sub => "sub",
                Reduction::Div => "div",
                _ => return new.to_string(),
            };
            return body.assign(format!("complex.{op} {old}, {new} : {t}"));
        }
        let float = elem.is_float();
        let simple =
            |body: &mut Body, op: &str| body.assign(format!("arith.{op} {old}, {new} : {t}"));
        match self {
            Reduction::Sum => simple(body, if float { "addf" } else { "addi" }),
            Reduction::Product => simple(body, if float { "mulf" } else { "muli" }),
            Reduction::Sub => simple(body, if float { "subf" } else { "subi" }),
            Reduction::Div if float => simple(body, "divf"),
            Reduction::Div if elem.unsigned => simple(body, "divui"),
            Reduction::Div => simple(body, "divsi"),
            Reduction::Max if float => simple(body, "maximumf"),
            Reduction::Min if float => simple(body, "minimumf"),
            Reduction::Max if elem.unsigned => simple(body, "maxui"),
            Reduction::Max => simple(body, "maxsi"),
            Reduction::Min if elem.unsigned => simple(body, "minui"),
            Reduction::Min => simple(body, "minsi"),
            Reduction::BitAnd => simple(body, "andi"),
            Reduction::BitOr => simple(body, "ori"),
            Reduction::BitXor => simple(body, "xori"),
            Reduction::Exchange => new.to_string(),
            Reduction::LogicalAnd | Reduction::LogicalOr | Reduction::LogicalXor => {
                let truth = |body: &mut Body, v: &str| {
                    if float {
                        let zero = body.assign(format!("arith.constant 0.0 : {t}"));
                        body.assign(format!("arith.cmpf une, {v}, {zero} : {t}"))
                    } else {
                        let zero = body.assign(format!("arith.constant 0 : {t}"));
                        body.assign(format!("arith.cmpi ne, {v}, {zero} : {t}"))
                    }
                };
                let (a, b) = (truth(body, old), truth(body, new));
                let op = match self {
                    Reduction::LogicalAnd => "andi",
                    Reduction::LogicalOr => "ori",
                    _ => "xori",
                };
                let r = body.assign(format!("arith.{op} {a}, {b} : i1"));
                super::types::convert_lanes(
                    body,
                    &r,
                    &Elem {
                        ty: "i1".into(),
                        unsigned: true,
                    },
                    t,
                )
            }
        }
    }

    /// Emits the resolution of writing `value` into `slot`: atomic when
    /// `atomic`. Complex numbers have only the arithmetic reductions, and
    /// atomic ones only for sums and differences (part by part); vectors
    /// have no atomic update here (the compare-and-swap loop works on
    /// integers and floats) and no logical reductions.
    pub(crate) fn apply(
        self,
        body: &mut Body,
        value: &str,
        slot: &Slot<'_>,
        elem: &Elem,
        atomic: bool,
    ) -> Result<(), String> {
        let t = &elem.ty;
        if atomic && elem.is_complex() && matches!(self, Reduction::Sum | Reduction::Sub) {
            atomic_complex(body, self == Reduction::Sum, value, slot, elem);
            return Ok(());
        }
        let compound = elem.is_complex() || elem.lanes().is_some();
        let arithmetic = matches!(
            self,
            Reduction::Sum
                | Reduction::Product
                | Reduction::Sub
                | Reduction::Div
                | Reduction::Exchange
        );
        if compound && (atomic || (elem.is_complex() && !arithmetic) || self.is_logical()) {
            return Err(format!(
                "the write-conflict resolution {self:?} on {t}{} cannot be lowered yet",
                if atomic {
                    " where iterations may conflict (it must be atomic)"
                } else {
                    ""
                }
            ));
        }
        let Slot {
            memref,
            memref_type,
            index,
        } = *slot;
        if !atomic {
            let old = body.assign(format!("memref.load {memref}[{index}] : {memref_type}"));
            let new = self.combine(body, &old, value, elem);
            body.line(format!(
                "memref.store {new}, {memref}[{index}] : {memref_type}"
            ));
            return Ok(());
        }
        if let Some(kind) = self.atomic_kind(elem) {
            body.assign(format!(
                "memref.atomic_rmw {kind} {value}, {memref}[{index}] : ({t}, {memref_type}) -> {t}"
            ));
            return Ok(());
        }
        if elem.is_float() {
            atomic_float(body, self, value, slot, elem);
            return Ok(());
        }
        let result = body.fresh();
        let current = body.fresh();
        body.open(format!(
            "{result} = memref.generic_atomic_rmw {memref}[{index}] : {memref_type}"
        ));
        body.block(&format!("^bb0({current}: {t})"));
        let new = self.combine(body, &current, value, elem);
        body.line(format!("memref.atomic_yield {new} : {t}"));
        body.close("");
        Ok(())
    }
}

/// An atomic update of a float element that `atomicrmw` has no operation
/// for (a product, a quotient, a difference): a compare-and-swap loop on
/// the element's bits. `memref.generic_atomic_rmw` would be the same loop,
/// but its lowering hands the float type to `llvm.cmpxchg`, which takes
/// only integers and pointers.
fn atomic_float(body: &mut Body, reduction: Reduction, value: &str, slot: &Slot<'_>, elem: &Elem) {
    let t = &elem.ty;
    let bytes = elem.bytes().unwrap_or(8) as i64;
    let bits = format!("i{}", 8 * bytes);
    let pointer = element_pointer(body, slot, elem, bytes);
    let first = body.assign(format!(
        "llvm.load {pointer} atomic monotonic {{alignment = {bytes} : i64}} : !llvm.ptr -> {bits}"
    ));
    let seen = body.fresh();
    let old = body.fresh();
    body.open(format!(
        "{seen} = scf.while ({old} = {first}) : ({bits}) -> {bits}"
    ));
    let current = body.assign(format!("arith.bitcast {old} : {bits} to {t}"));
    let new = reduction.combine(body, &current, value, elem);
    let new = body.assign(format!("arith.bitcast {new} : {t} to {bits}"));
    // MLIR counts `llvm.cmpxchg` as a possible stack allocation, which
    // would keep the `alloca_scope` that `convert-scf-to-openmp` puts
    // around a parallel body, and this loop's blocks cannot go in one: a
    // scope of its own hides it (see `streams::runtime_call`).
    let pair = body.fresh();
    let result = format!("!llvm.struct<({bits}, i1)>");
    body.open(format!("{pair} = memref.alloca_scope -> ({result})"));
    let swap = body.assign(format!(
        "llvm.cmpxchg {pointer}, {old}, {new} acq_rel monotonic : !llvm.ptr, {bits}"
    ));
    body.line(format!("memref.alloca_scope.return {swap} : {result}"));
    body.close("");
    let found = body.assign(format!(
        "llvm.extractvalue {pair}[0] : !llvm.struct<({bits}, i1)>"
    ));
    let swapped = body.assign(format!(
        "llvm.extractvalue {pair}[1] : !llvm.struct<({bits}, i1)>"
    ));
    let yes = body.assign("arith.constant true");
    let again = body.assign(format!("arith.xori {swapped}, {yes} : i1"));
    body.line(format!("scf.condition({again}) {found} : {bits}"));
    body.middle("do");
    let next = body.fresh();
    body.block(&format!("^bb0({next}: {bits})"));
    body.line(format!("scf.yield {next} : {bits}"));
    body.close("");
}

/// An atomic complex sum (`add`) or difference: the real and imaginary
/// parts are independent, so each is one atomic float update of its half of
/// the element.
fn atomic_complex(body: &mut Body, add: bool, value: &str, slot: &Slot<'_>, elem: &Elem) {
    let t = &elem.ty;
    let part = t
        .trim_start_matches("complex<")
        .trim_end_matches('>')
        .to_string();
    let bytes = elem.bytes().unwrap_or(16) as i64;
    let real = element_pointer(body, slot, elem, bytes);
    let imaginary = body.assign(format!(
        "llvm.getelementptr {real}[1] : (!llvm.ptr) -> !llvm.ptr, {part}"
    ));
    let op = if add { "fadd" } else { "fsub" };
    for (pointer, accessor) in [(&real, "re"), (&imaginary, "im")] {
        let v = body.assign(format!("complex.{accessor} {value} : {t}"));
        body.assign(format!(
            "llvm.atomicrmw {op} {pointer}, {v} monotonic : !llvm.ptr, {part}"
        ));
    }
}

/// The address of the element `slot` names (of `bytes` bytes), as an
/// `!llvm.ptr`, from the memref's strided metadata.
fn element_pointer(body: &mut Body, slot: &Slot<'_>, elem: &Elem, bytes: i64) -> String {
    let Slot {
        memref,
        memref_type,
        index,
    } = *slot;
    let t = &elem.ty;
    let indices: Vec<&str> = index.split(", ").filter(|i| !i.is_empty()).collect();
    let rank = indices.len();
    let meta = body.fresh();
    let index_types = vec!["index"; 2 * rank].join(", ");
    let index_types = if rank == 0 {
        String::new()
    } else {
        format!(", {index_types}")
    };
    body.line(format!(
        "{meta}:{} = memref.extract_strided_metadata {memref} : {memref_type} -> memref<{t}>, index{index_types}",
        2 + 2 * rank
    ));
    let mut linear = format!("{meta}#1");
    for (d, i) in indices.iter().enumerate() {
        let step = body.assign(format!("arith.muli {i}, {meta}#{} : index", 2 + rank + d));
        linear = body.assign(format!("arith.addi {linear}, {step} : index"));
    }
    let aligned = body.assign(format!(
        "memref.extract_aligned_pointer_as_index {memref} : {memref_type} -> index"
    ));
    let size = body.index(bytes);
    let offset = body.assign(format!("arith.muli {linear}, {size} : index"));
    let address = body.assign(format!("arith.addi {aligned}, {offset} : index"));
    let address = body.assign(format!("arith.index_cast {address} : index to i64"));
    body.assign(format!("llvm.inttoptr {address} : i64 to !llvm.ptr"))
}

/// `text` without all its enclosing pairs of parentheses.
fn strip_all(mut text: &str) -> &str {
    loop {
        let inner = strip(text);
        if inner.len() == text.len() {
            return text;
        }
        text = inner;
    }
}

/// One element of a memref: `memref[index]` (`index` empty for rank 0).
#[derive(Clone, Copy)]
pub(crate) struct Slot<'s> {
    /// The memref value.
    pub memref: &'s str,
    /// Its type.
    pub memref_type: &'s str,
    /// The index value, or empty.
    pub index: &'s str,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dace_lambdas_are_recognised() {
        let cases = [
            ("(lambda a, b: (a + b))", Some(Reduction::Sum)),
            ("lambda x, y: y + x", Some(Reduction::Sum)),
            ("lambda a,b: a*b", Some(Reduction::Product)),
            ("lambda a, b: max(a, b)", Some(Reduction::Max)),
            ("lambda a, b: min(b, a)", Some(Reduction::Min)),
            ("lambda old, new: new", Some(Reduction::Exchange)),
            ("lambda a, b: a - b", Some(Reduction::Sub)),
            ("lambda a, b: b - a", None),
            ("lambda a, b: a + 2 * b", None),
        ];
        for (text, expected) in cases {
            assert_eq!(Reduction::from_lambda(text), expected, "{text}");
        }
    }
}
