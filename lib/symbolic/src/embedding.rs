//! Maps between the coordinates of two containers, for memlets that move
//! from one to the other: a view and the data it views, a nested SDFG's
//! argument and the box of the outer container it is bound to.
//!
//! Memlets are in the coordinates of the data they move: `V[i]` of a view
//! `V = A[1:N-1]` is `A[i + 1]`, and `R[j]` of `R = A[k, 0:N]` is
//! `A[k, j]`. An [`Embedding`] says, for each dimension of the new
//! coordinates, which old dimension it takes and by which offset, or which
//! fixed index it has.

use crate::{parse_subset, Expr, Range, Subset};

/// Where one dimension of the new coordinates comes from.
#[derive(Clone, Debug)]
pub enum Dim {
    /// A fixed index (a dimension the old coordinates do not have).
    Fixed(Expr),
    /// Old dimension `k`, moved by an offset.
    Moved(usize, Expr),
}

/// A map from one container's coordinates into another's: where each
/// dimension of the new coordinates comes from, and how many dimensions
/// the old ones have (old dimensions no new one takes, of extent 1, are
/// dropped).
#[derive(Clone, Debug)]
pub struct Embedding {
    dims: Vec<Dim>,
    old_rank: usize,
}

impl Embedding {
    /// The embedding whose new dimensions come from `dims`, out of old
    /// coordinates of `old_rank` dimensions.
    pub fn new(dims: Vec<Dim>, old_rank: usize) -> Self {
        Embedding { dims, old_rank }
    }

    /// Every dimension moved by `offset`.
    pub fn shift(offset: &[Expr]) -> Self {
        Embedding {
            dims: offset
                .iter()
                .enumerate()
                .map(|(k, o)| Dim::Moved(k, o.clone()))
                .collect(),
            old_rank: offset.len(),
        }
    }

    /// How the coordinates of a box `inner` at the origin (a view's, or a
    /// nested SDFG argument's whole shape) land in those of the box
    /// `outer` of another container, dimension by dimension in order: a
    /// dimension of `outer` with the extent of the next one of `inner`
    /// moves it by its start; otherwise an `outer` dimension of extent 1
    /// is one `inner` drops (fixed at its start), or an `inner` dimension
    /// of extent 1 is a new axis `outer` does not have. Fails for strided
    /// boxes and for boxes that reshape otherwise (`A[i, 0:i]` seen as an
    /// `i x 1` array drops one axis and adds another).
    pub fn of_box(outer: &Subset, inner: &Subset) -> Result<Self, String> {
        let unit = |s: &Subset| s.ranges().iter().all(|r| r.step.as_int() == Some(1));
        if !unit(outer) || !unit(inner) {
            return Err("a box is strided".into());
        }
        let same = |a: &Expr, b: &Expr| Expr::sub(a, b).as_int() == Some(0);
        let is_one = |e: &Expr| e.as_int() == Some(1);
        let kept = inner.ranges();
        let (mut to_drop, mut to_add) = (
            outer.dims().saturating_sub(kept.len()),
            kept.len().saturating_sub(outer.dims()),
        );
        let mut dims = Vec::with_capacity(outer.dims());
        let mut k = 0;
        let mut ranges = outer.ranges().iter().peekable();
        while let Some(r) = ranges.peek() {
            let size = r.size();
            if k < kept.len() && same(&size, &kept[k].size()) {
                dims.push(Dim::Moved(k, r.start.clone()));
                k += 1;
                ranges.next();
            } else if to_drop > 0 && is_one(&size) {
                dims.push(Dim::Fixed(r.start.clone()));
                to_drop -= 1;
                ranges.next();
            } else if to_add > 0 && k < kept.len() && is_one(&kept[k].size()) {
                k += 1;
                to_add -= 1;
            } else {
                return Err("the inner box reshapes the outer one".into());
            }
        }
        while to_add > 0 && k < kept.len() && is_one(&kept[k].size()) {
            k += 1;
            to_add -= 1;
        }
        if k != kept.len() {
            return Err("the inner box reshapes the outer one".into());
        }
        Ok(Embedding {
            dims,
            old_rank: kept.len(),
        })
    }

    /// Where each dimension of the new coordinates comes from.
    pub fn dims(&self) -> &[Dim] {
        &self.dims
    }

    /// `subset` (text) in the new coordinates.
    pub fn apply(&self, subset: &str) -> Result<String, String> {
        let parsed = parse_subset(subset).map_err(|e| format!("subset `{subset}`: {e}"))?;
        self.apply_subset(&parsed)
            .map(|s| s.to_string())
            .map_err(|e| format!("subset `{subset}` {e}"))
    }

    /// `subset` in the new coordinates.
    pub fn apply_subset(&self, parsed: &Subset) -> Result<Subset, String> {
        if parsed.dims() != self.old_rank {
            return Err(format!(
                "has {} dimensions, not {}",
                parsed.dims(),
                self.old_rank
            ));
        }
        let ranges: Vec<Range> = self
            .dims
            .iter()
            .map(|dim| match dim {
                Dim::Fixed(index) => Range::index(index.clone()),
                Dim::Moved(k, o) => {
                    let r = &parsed.ranges()[*k];
                    Range {
                        start: Expr::add(&r.start, o),
                        end: Expr::add(&r.end, o),
                        step: r.step.clone(),
                        tile: r.tile.clone(),
                    }
                }
            })
            .collect();
        Ok(Subset::new(ranges))
    }
}
