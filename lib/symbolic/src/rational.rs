//! Exact rational numbers with 128-bit numerator and denominator.
//!
//! Every operation is checked: an operation whose exact result does not fit
//! returns `None`, and the caller decides what that means (the normal form
//! turns it into the undefined value, evaluation into an overflow error).

use std::cmp::Ordering;
use std::fmt;

/// An exact rational `num / den` in lowest terms with `den > 0`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rat {
    num: i128,
    den: i128,
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    // Only gcd(i128::MIN, 0) does not fit; 1 is a safe (non-reducing) answer.
    i128::try_from(a).unwrap_or(1)
}

/// Greatest common divisor of two non-negative-or-negative integers (result is non-negative).
pub(crate) fn gcd_i128(a: i128, b: i128) -> i128 {
    gcd(a, b)
}

impl Rat {
    /// Zero.
    pub const ZERO: Rat = Rat { num: 0, den: 1 };
    /// One.
    pub const ONE: Rat = Rat { num: 1, den: 1 };

    /// The integer `n`.
    pub const fn int(n: i128) -> Rat {
        Rat { num: n, den: 1 }
    }

    /// `num / den`, reduced; `None` if `den == 0` or the reduction overflows.
    pub fn new(num: i128, den: i128) -> Option<Rat> {
        if den == 0 {
            return None;
        }
        let g = gcd(num, den);
        let (mut n, mut d) = (num / g, den / g);
        if d < 0 {
            n = n.checked_neg()?;
            d = d.checked_neg()?;
        }
        Some(Rat { num: n, den: d })
    }

    /// Numerator (sign carrier).
    pub fn num(self) -> i128 {
        self.num
    }

    /// Denominator (always positive).
    pub fn den(self) -> i128 {
        self.den
    }

    /// Whether the value is an integer.
    pub fn is_int(self) -> bool {
        self.den == 1
    }

    /// Whether the value is zero.
    pub fn is_zero(self) -> bool {
        self.num == 0
    }

    /// Whether the value is strictly negative.
    pub fn is_negative(self) -> bool {
        self.num < 0
    }

    /// Checked addition.
    pub fn add(self, o: Rat) -> Option<Rat> {
        if self.den == 1 && o.den == 1 {
            return Some(Rat::int(self.num.checked_add(o.num)?));
        }
        let g = gcd(self.den, o.den);
        let l = (self.den / g).checked_mul(o.den)?;
        let a = self.num.checked_mul(l / self.den)?;
        let b = o.num.checked_mul(l / o.den)?;
        Rat::new(a.checked_add(b)?, l)
    }

    /// Checked subtraction.
    pub fn sub(self, o: Rat) -> Option<Rat> {
        self.add(o.neg()?)
    }

    /// Checked negation.
    pub fn neg(self) -> Option<Rat> {
        Some(Rat {
            num: self.num.checked_neg()?,
            den: self.den,
        })
    }

    /// Checked multiplication.
    pub fn mul(self, o: Rat) -> Option<Rat> {
        if self.den == 1 && o.den == 1 {
            return Some(Rat::int(self.num.checked_mul(o.num)?));
        }
        let g1 = gcd(self.num, o.den);
        let g2 = gcd(o.num, self.den);
        let (g1, g2) = (g1.max(1), g2.max(1));
        let n = (self.num / g1).checked_mul(o.num / g2)?;
        let d = (self.den / g2).checked_mul(o.den / g1)?;
        Rat::new(n, d)
    }

    /// Checked reciprocal; `None` for zero.
    pub fn recip(self) -> Option<Rat> {
        Rat::new(self.den, self.num)
    }

    /// Checked division; `None` on division by zero or overflow.
    pub fn div(self, o: Rat) -> Option<Rat> {
        self.mul(o.recip()?)
    }

    /// Largest integer not above the value.
    pub fn floor(self) -> i128 {
        self.num.div_euclid(self.den)
    }

    /// Smallest integer not below the value.
    pub fn ceil(self) -> i128 {
        let f = self.floor();
        if self.den == 1 {
            f
        } else {
            f + 1
        }
    }

    /// Integer power by squaring (negative exponents invert).
    pub fn pow(self, e: i128) -> Option<Rat> {
        let mut base = if e < 0 { self.recip()? } else { self };
        let mut e = e.unsigned_abs();
        let mut acc = Rat::ONE;
        while e > 0 {
            if e & 1 == 1 {
                acc = acc.mul(base)?;
            }
            e >>= 1;
            if e > 0 {
                base = base.mul(base)?;
            }
        }
        Some(acc)
    }

    /// Absolute value.
    pub fn abs(self) -> Option<Rat> {
        if self.num < 0 {
            self.neg()
        } else {
            Some(self)
        }
    }

    /// The value as an `i64`, if it is an integer in range.
    pub fn to_i64(self) -> Option<i64> {
        if self.den == 1 {
            i64::try_from(self.num).ok()
        } else {
            None
        }
    }
}

impl Ord for Rat {
    fn cmp(&self, o: &Rat) -> Ordering {
        if self.den == o.den {
            return self.num.cmp(&o.num);
        }
        match (self.num.checked_mul(o.den), o.num.checked_mul(self.den)) {
            (Some(a), Some(b)) => a.cmp(&b),
            _ => {
                // Compare integer parts first, then the fractional parts exactly.
                let (fa, fb) = (self.floor(), o.floor());
                if fa != fb {
                    return fa.cmp(&fb);
                }
                let ra = self.num - fa * self.den;
                let rb = o.num - fb * o.den;
                (ra as f64 / self.den as f64)
                    .partial_cmp(&(rb as f64 / o.den as f64))
                    .unwrap_or(Ordering::Equal)
            }
        }
    }
}

impl PartialOrd for Rat {
    fn partial_cmp(&self, o: &Rat) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl fmt::Display for Rat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic() {
        let h = Rat::new(1, 2).unwrap();
        let t = Rat::new(1, 3).unwrap();
        assert_eq!(h.add(t), Rat::new(5, 6));
        assert_eq!(h.mul(t), Rat::new(1, 6));
        assert_eq!(h.sub(t), Rat::new(1, 6));
        assert_eq!(h.div(t), Rat::new(3, 2));
        assert_eq!(Rat::new(-3, 2).unwrap().floor(), -2);
        assert_eq!(Rat::new(-3, 2).unwrap().ceil(), -1);
        assert_eq!(Rat::int(2).pow(10), Some(Rat::int(1024)));
        assert_eq!(Rat::int(2).pow(-2), Rat::new(1, 4));
        assert_eq!(Rat::int(2).pow(200), None);
        assert!(Rat::int(i128::MAX).add(Rat::ONE).is_none());
        assert!(Rat::new(1, 0).is_none());
        assert!(Rat::new(1, 3).unwrap() < Rat::new(1, 2).unwrap());
        assert_eq!(Rat::new(i128::MIN, 2), Rat::new(i128::MIN / 2, 1));
        assert!(Rat::new(i128::MIN, -1).is_none());
        assert_eq!(gcd_i128(i128::MIN, 0), 1);
    }
}
