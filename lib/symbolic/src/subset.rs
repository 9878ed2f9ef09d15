//! Ranges and subsets (memlet subsets, map ranges).
//!
//! # Range text syntax
//!
//! A subset is a comma-separated list of dimensions (`, ` when printed).
//! Each dimension is a Python slice with an **exclusive** end:
//!
//! * `start:end` — the indices `start, start+1, ..., end-1`;
//! * `start:end:step` — `start, start+step, ...` while below `end` (above
//!   `end` for a negative step);
//! * `i` — the single index `i`, i.e. `i:i + 1`;
//! * any of the slice forms followed by `tile T` (`0:N:4 tile 2`) — every
//!   index `k` of the slice stands for the block `k, ..., k + T - 1`
//!   (DaCe's tile size). `tile` is only printed when `T != 1`.
//!
//! The empty string is the zero-dimensional subset. Ranges are assumed to be
//! non-empty (as DaCe does) when computing volumes and bounding boxes.
//!
//! DaCe's JSON stores *inclusive* ends (`{"start": "1", "end": "N - 2",
//! "step": "1", "tile": "1"}` is `1:N - 1`); the only conversion points are
//! [`Range::from_dace_inclusive`] and [`Range::to_dace_inclusive`].

use std::collections::{BTreeSet, HashMap};
use std::fmt;

use crate::compare::{compare_eq, compare_le, Assumptions, Tri};
use crate::expr::Expr;
use crate::parse::{lower, memoized, Memo, ParseError, Parser, Tok};

/// One dimension: tile origins `start:end:step` (exclusive end), each
/// covering `tile` consecutive indices.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Range {
    /// First tile origin.
    pub start: Expr,
    /// Exclusive end of the tile origins.
    pub end: Expr,
    /// Distance between tile origins (non-zero).
    pub step: Expr,
    /// Number of consecutive indices per origin (at least 1).
    pub tile: Expr,
}

/// Why a subset operation could not be performed.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum SubsetError {
    /// The operands have different numbers of dimensions.
    #[error("dimension mismatch: {0} vs {1}")]
    DimensionMismatch(usize, usize),
    /// A dimension cannot be bounded (its subscript is not analysable).
    #[error("dimension {0} cannot be bounded")]
    Unbounded(usize),
    /// The operation is not defined for these operands.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// A string of a DaCe JSON subset does not parse.
    #[error("{0}")]
    Parse(#[from] ParseError),
    /// The DaCe JSON is not a subset.
    #[error("malformed DaCe subset: {0}")]
    Malformed(String),
}

fn one() -> Expr {
    Expr::int(1)
}

impl Range {
    /// `start:end:step` with tile size 1.
    pub fn new(start: Expr, end: Expr, step: Expr) -> Range {
        Range {
            start,
            end,
            step,
            tile: one(),
        }
    }

    /// The same range with another tile size.
    pub fn with_tile(mut self, tile: Expr) -> Range {
        self.tile = tile;
        self
    }

    /// `0:n`.
    pub fn full(n: Expr) -> Range {
        Range::new(Expr::int(0), n, one())
    }

    /// The single index `i` (`i:i + 1`).
    pub fn index(i: Expr) -> Range {
        let end = Expr::add(&i, &one());
        Range::new(i, end, one())
    }

    fn step_negative(&self) -> bool {
        compare_le(&self.step, &Expr::int(-1), &Assumptions::new()).is_true()
    }

    /// Converts DaCe's inclusive form: `end` is the last tile origin reached
    /// (`end + 1` becomes the exclusive end, `end - 1` for a provably
    /// negative step).
    pub fn from_dace_inclusive(start: Expr, end: Expr, step: Expr, tile: Expr) -> Range {
        let mut r = Range {
            start,
            end: one(),
            step,
            tile,
        };
        let delta = if r.step_negative() { -1 } else { 1 };
        r.end = Expr::add(&end, &Expr::int(delta));
        r
    }

    /// The inclusive DaCe form `(start, end, step, tile)`; inverse of
    /// [`Range::from_dace_inclusive`].
    pub fn to_dace_inclusive(&self) -> (Expr, Expr, Expr, Expr) {
        let delta = if self.step_negative() { 1 } else { -1 };
        (
            self.start.clone(),
            Expr::add(&self.end, &Expr::int(delta)),
            self.step.clone(),
            self.tile.clone(),
        )
    }

    /// Parses a DaCe JSON range object `{"start", "end", "step", "tile"}`.
    pub fn from_dace_json(v: &serde_json::Value) -> Result<Range, SubsetError> {
        let field = |k: &str, default: &str| -> Result<Expr, SubsetError> {
            let s = match v.get(k) {
                Some(serde_json::Value::String(s)) => s.clone(),
                Some(serde_json::Value::Number(n)) => n.to_string(),
                None | Some(serde_json::Value::Null) => default.to_string(),
                Some(o) => return Err(SubsetError::Malformed(format!("{k}: {o}"))),
            };
            Ok(crate::parse(&s)?)
        };
        Ok(Range::from_dace_inclusive(
            field("start", "")?,
            field("end", "")?,
            field("step", "1")?,
            field("tile", "1")?,
        ))
    }

    /// The DaCe JSON range object (inclusive end).
    pub fn to_dace_json(&self) -> serde_json::Value {
        let (s, e, st, t) = self.to_dace_inclusive();
        serde_json::json!({
            "start": s.to_string(), "end": e.to_string(),
            "step": st.to_string(), "tile": t.to_string()
        })
    }

    /// Whether the range is a single index with tile size 1.
    pub fn is_index(&self) -> bool {
        self.tile.as_int() == Some(1)
            && Expr::sub(&self.end, &self.start).as_int() == Some(1)
            && self.step.as_int() == Some(1)
    }

    /// Number of tile origins, `ceil((end - start) / step)`.
    pub fn count(&self) -> Expr {
        if self.step.as_int() == Some(1) {
            return Expr::sub(&self.end, &self.start);
        }
        Expr::ceildiv(&Expr::sub(&self.end, &self.start), &self.step)
    }

    /// Number of indices covered (`count * tile`).
    pub fn size(&self) -> Expr {
        Expr::mul(&self.count(), &self.tile)
    }

    /// The last tile origin.
    pub fn last(&self) -> Expr {
        let k = Expr::sub(&self.count(), &one());
        Expr::add(&self.start, &Expr::mul(&self.step, &k))
    }

    /// Smallest index covered.
    pub fn min_element(&self) -> Expr {
        if self.step_negative() {
            self.last()
        } else {
            self.start.clone()
        }
    }

    /// Largest index covered.
    pub fn max_element(&self) -> Expr {
        let top = if self.step_negative() {
            self.start.clone()
        } else {
            self.last()
        };
        Expr::sub(&Expr::add(&top, &self.tile), &one())
    }

    /// Whether the covered indices are contiguous (`step == 1` or `tile >= |step|`).
    pub fn is_contiguous(&self) -> bool {
        if self.step.as_int() == Some(1) {
            return true;
        }
        compare_le(&Expr::abs(&self.step), &self.tile, &Assumptions::new()).is_true()
    }

    /// The bounding interval `min:max + 1` (step 1, tile 1).
    pub fn bounding(&self) -> Range {
        Range::new(
            self.min_element(),
            Expr::add_into_minmax(&self.max_element(), 1),
            one(),
        )
    }

    fn map(&self, f: &dyn Fn(&Expr) -> Expr) -> Range {
        Range {
            start: f(&self.start),
            end: f(&self.end),
            step: f(&self.step),
            tile: f(&self.tile),
        }
    }

    fn exprs(&self) -> [&Expr; 4] {
        [&self.start, &self.end, &self.step, &self.tile]
    }
}

impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_index() {
            return write!(f, "{}", self.start);
        }
        write!(f, "{}:{}", self.start, self.end)?;
        if self.step.as_int() != Some(1) {
            write!(f, ":{}", self.step)?;
        }
        if self.tile.as_int() != Some(1) {
            write!(f, " tile {}", self.tile)?;
        }
        Ok(())
    }
}

/// One dimension of the array a tasklet connector sees through a subset
/// (see [`Subset::data_dims`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct DataDim {
    /// The subset dimension this one walks.
    pub range: usize,
    /// Its extent: the range's tile origins, or its tile size.
    pub size: Expr,
    /// Whether it walks within a tile (stride: the array's), or across
    /// tile origins (stride: the array's times the range's step).
    pub tile: bool,
}

/// A rectangular (per-dimension) subset of an array.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Subset {
    ranges: Vec<Range>,
}

impl fmt::Display for Subset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, r) in self.ranges.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{r}")?;
        }
        Ok(())
    }
}

thread_local! {
    static PARSED: Memo<Subset> = std::cell::RefCell::default();
}

/// Parses the range text syntax described in the [module docs](self).
pub fn parse_subset(text: &str) -> Result<Subset, ParseError> {
    memoized(&PARSED, text, parse_ranges)
}

fn parse_ranges(text: &str) -> Result<Subset, ParseError> {
    let mut p = Parser::new(text)?;
    let mut ranges = Vec::new();
    if matches!(p.peek().tok, Tok::Eof) {
        return Ok(Subset { ranges });
    }
    loop {
        let start = lower(&p.expr()?)?;
        let mut r = if p.eat_op(":") {
            let end = lower(&p.expr()?)?;
            let step = if p.eat_op(":") {
                lower(&p.expr()?)?
            } else {
                one()
            };
            Range::new(start, end, step)
        } else {
            Range::index(start)
        };
        if p.at_ident("tile") {
            p.next();
            r.tile = lower(&p.expr()?)?;
        }
        ranges.push(r);
        if p.eat_op(",") {
            continue;
        }
        p.expect_eof()?;
        return Ok(Subset { ranges });
    }
}

impl Subset {
    /// A subset from its dimensions.
    pub fn new(ranges: Vec<Range>) -> Subset {
        Subset { ranges }
    }

    /// The subset of single indices.
    pub fn indices(idx: Vec<Expr>) -> Subset {
        Subset::new(idx.into_iter().map(Range::index).collect())
    }

    /// The whole array of the given shape.
    pub fn full(shape: &[Expr]) -> Subset {
        Subset::new(shape.iter().cloned().map(Range::full).collect())
    }

    /// Parses a DaCe JSON subset (`{"type": "Range", "ranges": [...]}` or
    /// `{"type": "Indices", "indices": [...]}`).
    pub fn from_dace_json(v: &serde_json::Value) -> Result<Subset, SubsetError> {
        match v.get("type").and_then(|t| t.as_str()) {
            Some("Range") => {
                let rs = v
                    .get("ranges")
                    .and_then(|r| r.as_array())
                    .ok_or_else(|| SubsetError::Malformed("missing ranges".into()))?;
                Ok(Subset::new(
                    rs.iter()
                        .map(Range::from_dace_json)
                        .collect::<Result<_, _>>()?,
                ))
            }
            Some("Indices") => {
                let is = v
                    .get("indices")
                    .and_then(|r| r.as_array())
                    .ok_or_else(|| SubsetError::Malformed("missing indices".into()))?;
                let mut out = Vec::with_capacity(is.len());
                for i in is {
                    let s = match i {
                        serde_json::Value::String(s) => s.clone(),
                        o => o.to_string(),
                    };
                    out.push(crate::parse(&s)?);
                }
                Ok(Subset::indices(out))
            }
            _ => Err(SubsetError::Malformed("unknown subset type".into())),
        }
    }

    /// The DaCe JSON form (`Range` type, inclusive ends).
    pub fn to_dace_json(&self) -> serde_json::Value {
        serde_json::json!({
            "type": "Range",
            "ranges": self.ranges.iter().map(Range::to_dace_json).collect::<Vec<_>>()
        })
    }

    /// Number of dimensions.
    pub fn dims(&self) -> usize {
        self.ranges.len()
    }

    /// The dimensions.
    pub fn ranges(&self) -> &[Range] {
        &self.ranges
    }

    /// Whether every dimension is a run of consecutive indices (step and
    /// tile 1): a box, not a strided or tiled set.
    pub fn is_dense(&self) -> bool {
        self.ranges
            .iter()
            .all(|r| r.step.as_int() == Some(1) && r.tile.as_int() == Some(1))
    }

    /// Number of elements (product of the dimension sizes).
    pub fn volume(&self) -> Expr {
        self.ranges
            .iter()
            .fold(one(), |acc, r| Expr::mul(&acc, &r.size()))
    }

    /// Per-dimension sizes.
    pub fn size(&self) -> Vec<Expr> {
        self.ranges.iter().map(Range::size).collect()
    }

    /// The dimensions of the array a tasklet connector sees through this
    /// subset, as DaCe's code generator indexes it
    /// (`Range.absolute_strides`, squeezed): first one dimension of
    /// `count()` tile origins for every range whose `size()` is not the
    /// constant 1, then one dimension of `tile` elements for every tiled
    /// range. So `A[2i:2i+10:8 tile 2]` is seen as a 2×2 array whose
    /// element `[k, j]` is `A[2i + 8k + j]`.
    pub fn data_dims(&self) -> Vec<DataDim> {
        let origins = self
            .ranges
            .iter()
            .enumerate()
            .filter(|(_, r)| r.size().as_int() != Some(1))
            .map(|(range, r)| DataDim {
                range,
                size: r.count(),
                tile: false,
            });
        let tiles = self
            .ranges
            .iter()
            .enumerate()
            .filter(|(_, r)| r.tile.as_int() != Some(1))
            .map(|(range, r)| DataDim {
                range,
                size: r.tile.clone(),
                tile: true,
            });
        origins.chain(tiles).collect()
    }

    /// Whether any range has a tile size other than 1.
    pub fn is_tiled(&self) -> bool {
        self.ranges.iter().any(|r| r.tile.as_int() != Some(1))
    }

    /// Smallest index of every dimension.
    pub fn min_element(&self) -> Vec<Expr> {
        self.ranges.iter().map(Range::min_element).collect()
    }

    /// Largest index of every dimension.
    pub fn max_element(&self) -> Vec<Expr> {
        self.ranges.iter().map(Range::max_element).collect()
    }

    /// Free symbols of all dimensions.
    pub fn free_symbols(&self) -> BTreeSet<String> {
        let mut s = BTreeSet::new();
        for r in &self.ranges {
            for e in r.exprs() {
                s.extend(e.free_symbols());
            }
        }
        s
    }

    /// Substitutes symbols in every dimension.
    pub fn substitute(&self, map: &HashMap<String, Expr>) -> Subset {
        Subset::new(
            self.ranges
                .iter()
                .map(|r| r.map(&|e| e.substitute(map)))
                .collect(),
        )
    }

    /// The bounding box (step 1, tile 1 in every dimension).
    pub fn bounding_box(&self) -> Subset {
        Subset::new(self.ranges.iter().map(Range::bounding).collect())
    }

    /// Shifts every dimension by `-offset[d]` (start and end).
    pub fn offset_by(&self, offset: &[Expr]) -> Result<Subset, SubsetError> {
        self.check_dims(offset.len())?;
        Ok(Subset::new(
            self.ranges
                .iter()
                .zip(offset)
                .map(|(r, o)| Range {
                    start: Expr::sub(&r.start, o),
                    end: Expr::sub(&r.end, o),
                    step: r.step.clone(),
                    tile: r.tile.clone(),
                })
                .collect(),
        ))
    }

    /// Expresses `self` relative to the smallest element of `other`
    /// (DaCe's `offset(other, negative=True)`).
    pub fn offset(&self, other: &Subset) -> Result<Subset, SubsetError> {
        self.offset_by(&other.min_element())
    }

    /// Composes a subset `inner`, given relative to `self` (index `k` of
    /// `inner` is the `k`-th index of `self`), into absolute coordinates.
    /// Requires tile size 1 in `self`.
    pub fn compose(&self, inner: &Subset) -> Result<Subset, SubsetError> {
        self.check_dims(inner.dims())?;
        let mut out = Vec::with_capacity(self.dims());
        for (outer, r) in self.ranges.iter().zip(&inner.ranges) {
            if outer.tile.as_int() != Some(1) {
                return Err(SubsetError::Unsupported(
                    "compose with a tiled outer range".into(),
                ));
            }
            let abs = |k: &Expr| Expr::add(&outer.start, &Expr::mul(k, &outer.step));
            let step = Expr::mul(&r.step, &outer.step);
            let tile_ok = r.tile.as_int() == Some(1) || outer.step.as_int() == Some(1);
            if !tile_ok {
                return Err(SubsetError::Unsupported(
                    "compose a tiled range into a strided range".into(),
                ));
            }
            out.push(Range {
                start: abs(&r.start),
                end: abs(&r.end),
                step,
                tile: r.tile.clone(),
            });
        }
        Ok(Subset::new(out))
    }

    /// Removes the dimensions of size 1; returns the subset and the indices
    /// of the kept dimensions. A subset whose dimensions all have size 1
    /// keeps its last dimension.
    pub fn squeeze(&self) -> (Subset, Vec<usize>) {
        let mut kept = Vec::new();
        for (i, r) in self.ranges.iter().enumerate() {
            if r.size().as_int() != Some(1) {
                kept.push(i);
            }
        }
        if kept.is_empty() && !self.ranges.is_empty() {
            kept.push(self.ranges.len() - 1);
        }
        (
            Subset::new(kept.iter().map(|&i| self.ranges[i].clone()).collect()),
            kept,
        )
    }

    /// Inserts `0:1` dimensions so that they end up at the given positions
    /// (sorted ascending) of the result.
    pub fn unsqueeze(&self, axes: &[usize]) -> Result<Subset, SubsetError> {
        let mut out = self.ranges.clone();
        let mut sorted = axes.to_vec();
        sorted.sort_unstable();
        for a in sorted {
            if a > out.len() {
                return Err(SubsetError::Unsupported(format!(
                    "axis {a} out of range for {} dimensions",
                    out.len()
                )));
            }
            out.insert(a, Range::index(Expr::int(0)));
        }
        Ok(Subset::new(out))
    }

    fn check_dims(&self, n: usize) -> Result<(), SubsetError> {
        if self.dims() == n {
            Ok(())
        } else {
            Err(SubsetError::DimensionMismatch(self.dims(), n))
        }
    }

    /// Whether every element of `other` is in `self`.
    pub fn covers(&self, other: &Subset, asm: &Assumptions) -> Result<Tri, SubsetError> {
        self.check_dims(other.dims())?;
        if self == other {
            return Ok(Tri::True);
        }
        if let Some(t) = crate::isl::covers(self, other, asm) {
            return Ok(t);
        }
        let mut acc = Tri::True;
        for (a, b) in self.ranges.iter().zip(&other.ranges) {
            let t = covers_dim(a, b, asm);
            acc = acc.and(t);
        }
        Ok(acc)
    }

    /// Whether `self` at one value of `var` and `other` at a different
    /// value, both in `range`, share an element: whether two iterations
    /// of a loop over `range` touch a common element. `Unknown` where the
    /// subsets are not quasi-affine.
    pub fn meets_across(
        &self,
        other: &Subset,
        var: &str,
        range: &Range,
        asm: &Assumptions,
    ) -> Result<Tri, SubsetError> {
        self.check_dims(other.dims())?;
        if !self.free_symbols().contains(var) && !other.free_symbols().contains(var) {
            // The same elements in every iteration.
            return self.intersects(other, asm);
        }
        Ok(crate::isl::meets_across(self, other, var, range, asm).unwrap_or(Tri::Unknown))
    }

    /// Whether `self` and `other` share an element.
    pub fn intersects(&self, other: &Subset, asm: &Assumptions) -> Result<Tri, SubsetError> {
        self.check_dims(other.dims())?;
        // A dimension where one range ends, by a constant, before the other
        // starts (`i` against `i + 1:M`) settles it without ISL.
        let apart = |a: &Range, b: &Range| {
            Expr::sub(&b.min_element(), &Expr::add(&a.max_element(), &one()))
                .as_int()
                .is_some_and(|gap| gap >= 0)
        };
        if self
            .ranges
            .iter()
            .zip(&other.ranges)
            .any(|(a, b)| apart(a, b) || apart(b, a))
        {
            return Ok(Tri::False);
        }
        // Contiguous ranges that provably overlap in every dimension (the
        // same `0:N` on both sides, as when two states write one array)
        // settle it too: the box of the overlaps is not empty.
        let le = |x: &Expr, y: &Expr| compare_le(x, y, asm).is_true();
        let overlap = |a: &Range, b: &Range| {
            let (a0, a1, b0, b1) = (
                a.min_element(),
                a.max_element(),
                b.min_element(),
                b.max_element(),
            );
            a.is_contiguous()
                && b.is_contiguous()
                && le(&a0, &a1)
                && le(&b0, &b1)
                && le(&a0, &b1)
                && le(&b0, &a1)
        };
        if self
            .ranges
            .iter()
            .zip(&other.ranges)
            .all(|(a, b)| overlap(a, b))
        {
            return Ok(Tri::True);
        }
        if let Some(t) = crate::isl::intersects(self, other, asm) {
            return Ok(t);
        }
        let mut acc = Tri::True;
        for (a, b) in self.ranges.iter().zip(&other.ranges) {
            let disjoint =
                compare_le(&Expr::add(&a.max_element(), &one()), &b.min_element(), asm).or(
                    compare_le(&Expr::add(&b.max_element(), &one()), &a.min_element(), asm),
                );
            let t = if disjoint.is_true() {
                Tri::False
            } else if a.is_contiguous() && b.is_contiguous() && disjoint.is_false() {
                Tri::True
            } else {
                Tri::Unknown
            };
            acc = acc.and(t);
        }
        Ok(acc)
    }

    /// A subset containing both operands: identical dimensions are kept,
    /// others become the bounding interval of both.
    pub fn union(&self, other: &Subset, asm: &Assumptions) -> Result<Subset, SubsetError> {
        self.check_dims(other.dims())?;
        let mut out = Vec::with_capacity(self.dims());
        for (a, b) in self.ranges.iter().zip(&other.ranges) {
            if a == b {
                out.push(a.clone());
                continue;
            }
            if covers_dim(a, b, asm).is_true() {
                out.push(a.clone());
                continue;
            }
            if covers_dim(b, a, asm).is_true() {
                out.push(b.clone());
                continue;
            }
            let lo = asm.min(&a.min_element(), &b.min_element());
            let hi = asm.max(&a.max_element(), &b.max_element());
            out.push(Range::new(lo, Expr::add_into_minmax(&hi, 1), one()));
        }
        Ok(Subset::new(out))
    }

    /// The set of indices accessed when the symbols `params` range over the
    /// given ranges (a map's parameters): what memlet propagation computes.
    ///
    /// Exact (up to the rectangular hull) through ISL when every subscript
    /// and parameter range is quasi-affine; otherwise a sound
    /// over-approximation. Never smaller than the true set.
    pub fn image(
        &self,
        params: &[(String, Range)],
        asm: &Assumptions,
    ) -> Result<Subset, SubsetError> {
        crate::image::image(self, params, asm)
    }

    /// [`Subset::image`] where its rectangular hull is exact (its first and
    /// last elements in each dimension are really accessed), which proves
    /// an access outside a container; `None` where only an
    /// over-approximation is known.
    pub fn exact_image(&self, params: &[(String, Range)], asm: &Assumptions) -> Option<Subset> {
        crate::image::exact_image(self, params, asm)
    }
}

/// Whether the indices of `b` are all indices of `a` (one dimension).
pub(crate) fn covers_dim(a: &Range, b: &Range, asm: &Assumptions) -> Tri {
    if a == b {
        return Tri::True;
    }
    let lo = compare_le(&a.min_element(), &b.min_element(), asm);
    let hi = compare_le(&b.max_element(), &a.max_element(), asm);
    let bounds = lo.and(hi);
    if bounds.is_false() {
        return Tri::False;
    }
    if a.is_contiguous() {
        return bounds;
    }
    // Strided `a`: `b` must hit only origins of `a` (tile 1 on both).
    if a.tile.as_int() == Some(1) && b.tile.as_int() == Some(1) {
        let off = Expr::modulo(&Expr::sub(&b.start, &a.start), &a.step);
        let step_ok = if b.is_index() {
            Tri::True
        } else {
            compare_eq(&Expr::modulo(&b.step, &a.step), &Expr::int(0), asm)
        };
        let t = compare_eq(&off, &Expr::int(0), asm).and(step_ok);
        if t.is_true() {
            return bounds;
        }
    }
    Tri::Unknown.and(bounds)
}
