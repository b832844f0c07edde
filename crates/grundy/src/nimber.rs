//! Nimbers, the mex rule and nim-addition: the arithmetic every other module builds on.
//!
//! Engines store values as small machine integers (`u32` in tables, `u64` in the
//! memo); the value of a whole component, which for a Nim heap of 2^90 is 2^90,
//! is a [`Value`] holding an arbitrary-precision nimber, or, for a loopy game, the
//! infinity symbol of the generalised Sprague-Grundy function.

use num_bigint::BigUint;
use std::fmt;

/// A reusable minimum-excludant accumulator.
///
/// Insert the values of a position's options, then [`Mex::take`] returns the
/// smallest value not inserted and resets the accumulator. Its bitset grows to the
/// largest value seen and is reused, so the hot loops of the engines never allocate
/// per position, and values larger than 64 need no special case.
#[derive(Debug, Default, Clone)]
pub struct Mex {
    words: Vec<u64>,
    /// One past the highest word written since the last `take`, so reset is cheap.
    dirty: usize,
}

impl Mex {
    /// An empty accumulator.
    pub fn new() -> Self {
        Self::default()
    }

    /// Marks `value` as the value of some option.
    #[inline]
    pub fn insert(&mut self, value: u64) {
        let word = (value / 64) as usize;
        if word >= self.words.len() {
            // Values are bounded by the number of options, so this stays small.
            self.words.resize(word + 1, 0);
        }
        self.words[word] |= 1u64 << (value % 64);
        if word >= self.dirty {
            self.dirty = word + 1;
        }
    }

    /// Returns the minimum excludant of the values inserted so far and clears them.
    #[inline]
    pub fn take(&mut self) -> u64 {
        let mut result = (self.dirty as u64) * 64;
        for (index, word) in self.words[..self.dirty].iter().enumerate() {
            if *word != u64::MAX {
                result = index as u64 * 64 + word.trailing_ones() as u64;
                break;
            }
        }
        self.words[..self.dirty].fill(0);
        self.dirty = 0;
        result
    }
}

/// The minimum excludant of a set of values: the smallest non-negative integer not in it.
pub fn mex<I: IntoIterator<Item = u64>>(values: I) -> u64 {
    let mut acc = Mex::new();
    for value in values {
        acc.insert(value);
    }
    acc.take()
}

/// The Grundy value of a whole component or sum.
///
/// Finite values are nimbers of any size. `Infinite` is Smith's symbol
/// ∞(K) for a position of a loopy game from which the player to move can
/// avoid losing forever: `K` holds the finite values among its options, sorted.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Value {
    /// The nimber *n: the position plays like a Nim heap of this size.
    Finite(BigUint),
    /// ∞(K): a position that can be drawn; `K` lists its finite option values.
    Infinite(Vec<u64>),
    /// A position from which the player to move wins the whole game at once
    /// (a Treblecross row where three in a row can be completed): no nimber
    /// describes it, and any sum containing it is a first-player win.
    Win,
}

impl Value {
    /// The finite value `n`.
    pub fn finite(n: u64) -> Self {
        Value::Finite(BigUint::from(n))
    }

    /// The zero nimber: a previous-player win.
    pub fn zero() -> Self {
        Value::Finite(BigUint::default())
    }

    /// Whether this is the finite value 0.
    pub fn is_zero(&self) -> bool {
        matches!(self, Value::Finite(n) if n.bits() == 0)
    }

    /// The finite value as a `u64`, if it is finite and fits.
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Value::Finite(n) => u64::try_from(n).ok(),
            Value::Infinite(_) | Value::Win => None,
        }
    }
}

impl From<u64> for Value {
    fn from(n: u64) -> Self {
        Value::finite(n)
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Finite(n) => write!(f, "{n}"),
            Value::Win => write!(f, "win"),
            Value::Infinite(set) => {
                write!(f, "inf(")?;
                for (i, v) in set.iter().enumerate() {
                    if i > 0 {
                        write!(f, ",")?;
                    }
                    write!(f, "{v}")?;
                }
                write!(f, ")")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mex_of_small_sets() {
        assert_eq!(mex([]), 0);
        assert_eq!(mex([1, 2]), 0);
        assert_eq!(mex([0, 1, 3]), 2);
        assert_eq!(mex([0, 0, 1, 1, 2]), 3);
    }

    #[test]
    fn mex_beyond_one_word_and_reuse() {
        let mut acc = Mex::new();
        for v in 0..200 {
            acc.insert(v);
        }
        assert_eq!(acc.take(), 200);
        // Reuse after a large set: stale bits must be gone.
        acc.insert(1);
        assert_eq!(acc.take(), 0);
        for v in (0..130).filter(|v| *v != 64) {
            acc.insert(v);
        }
        assert_eq!(acc.take(), 64);
    }

    #[test]
    fn value_display() {
        assert_eq!(Value::finite(7).to_string(), "7");
        assert_eq!(Value::Infinite(vec![0, 2]).to_string(), "inf(0,2)");
        assert_eq!(Value::Infinite(vec![]).to_string(), "inf()");
        assert!(Value::zero().is_zero());
    }

    proptest::proptest! {
        #[test]
        fn mex_agrees_with_definition(values in proptest::collection::vec(0u64..300, 0..80)) {
            let expected = (0..).find(|n| !values.contains(n)).unwrap();
            proptest::prop_assert_eq!(mex(values.iter().copied()), expected);
        }
    }
}
