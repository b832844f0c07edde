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
///
/// ```
/// let mut mex = grundy::nimber::Mex::new();
/// for option in [0, 1, 3] {
///     mex.insert(option);
/// }
/// assert_eq!(mex.take(), 2); // options have values {0, 1, 3}, so mex = 2
/// ```
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

/// Nim-addition: the sum of two nimbers, their bitwise XOR.
///
/// ```
/// assert_eq!(grundy::nimber::nim_add(5, 3), 6);
/// ```
pub fn nim_add(a: u64, b: u64) -> u64 {
    a ^ b
}

/// Nim-multiplication in Conway's field of nimbers (On Numbers and Games,
/// ch. 6): the nimbers below 2^64 form the field GF(2^64) under XOR and
/// this product.
///
/// The algorithm splits each factor at a Fermat 2-power F = 2^(2^k) into
/// halves, a = a1 F + a0, and uses F ⊗ F = F ⊕ F/2 (F ⊗ F is F "times 3/2"
/// in ordinary arithmetic): (a1 F + a0)(b1 F + b0) = (a1b1 + a1b0 + a0b1) F +
/// a0b0 + a1b1 ⊗ F/2, with three half-size products by Karatsuba's trick
/// (H. W. Lenstra, "Nim multiplication", Séminaire de Théorie des Nombres de
/// Bordeaux, 1977-78). The definition by mex, a ⊗ b = mex{a'⊗b ⊕ a⊗b' ⊕
/// a'⊗b' : a' < a, b' < b}, is the reference the tests compare against.
///
/// ```
/// use grundy::nimber::nim_mul;
/// assert_eq!(nim_mul(2, 2), 3);
/// assert_eq!(nim_mul(5, 3), 15);
/// assert_eq!(nim_mul(16, 16), 24);
/// ```
pub fn nim_mul(a: u64, b: u64) -> u64 {
    mul_fermat(a, b, 6)
}

/// The product of a and b, both below 2^(2^k).
fn mul_fermat(a: u64, b: u64, k: u32) -> u64 {
    if a <= 1 || b <= 1 {
        // 0 and 1 are the field's zero and one.
        return a * b;
    }
    if k == 0 {
        return a & b;
    }
    let half = 1u32 << (k - 1);
    let mask = (1u64 << half) - 1;
    let (a1, a0) = (a >> half, a & mask);
    let (b1, b0) = (b >> half, b & mask);
    let low = mul_fermat(a0, b0, k - 1);
    let high = mul_fermat(a1, b1, k - 1);
    let cross = mul_fermat(a0 ^ a1, b0 ^ b1, k - 1);
    // (a0 + a1)(b0 + b1) - a0 b0 = a1b1 + a1b0 + a0b1: the coefficient of F.
    let top = cross ^ low;
    let bottom = low ^ mul_fermat(high, 1u64 << (half - 1), k - 1);
    (top << half) | bottom
}

/// The nim-multiplicative inverse of a non-zero nimber below 2^64 (`None`
/// for 0): a^(2^64 - 2), since the non-zero elements of GF(2^64) form a
/// group of order 2^64 - 1.
///
/// ```
/// use grundy::nimber::{nim_inv, nim_mul};
/// let x = nim_inv(7).unwrap();
/// assert_eq!(nim_mul(7, x), 1);
/// ```
pub fn nim_inv(a: u64) -> Option<u64> {
    if a == 0 {
        return None;
    }
    // 2^64 - 2 has every bit set but the lowest: square and multiply.
    let mut result = 1u64;
    let mut power = a;
    for bit in 0..64 {
        if bit > 0 {
            result = nim_mul(result, power);
        }
        power = nim_mul(power, power);
    }
    Some(result)
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

    /// Nim-products of values below 2^k by the definition (mex over smaller pairs).
    fn products_by_definition(size: usize) -> Vec<Vec<u64>> {
        let mut table = vec![vec![0u64; size]; size];
        for a in 0..size {
            for b in 0..size {
                let mut options = Vec::new();
                for a2 in 0..a {
                    for b2 in 0..b {
                        options.push(table[a2][b] ^ table[a][b2] ^ table[a2][b2]);
                    }
                }
                table[a][b] = mex(options);
            }
        }
        table
    }

    #[test]
    fn nim_products_agree_with_the_definition() {
        let table = products_by_definition(64);
        for (a, row) in table.iter().enumerate() {
            for (b, product) in row.iter().enumerate() {
                assert_eq!(nim_mul(a as u64, b as u64), *product, "{a} * {b}");
            }
        }
        // Nim-squares of the Fermat 2-powers: F * F = 3F/2 (OEIS A051775 row values).
        assert_eq!(nim_mul(4, 4), 6);
        assert_eq!(nim_mul(256, 256), 384);
        assert_eq!(nim_mul(1 << 32, 1 << 32), 3 << 31);
    }

    proptest::proptest! {
        #[test]
        fn nimbers_below_2_64_form_a_field(a in proptest::num::u64::ANY, b in proptest::num::u64::ANY, c in proptest::num::u64::ANY) {
            use proptest::prop_assert_eq;
            prop_assert_eq!(nim_mul(a, b), nim_mul(b, a));
            prop_assert_eq!(nim_mul(nim_mul(a, b), c), nim_mul(a, nim_mul(b, c)));
            prop_assert_eq!(nim_mul(a, b ^ c), nim_mul(a, b) ^ nim_mul(a, c));
            prop_assert_eq!(nim_mul(a, 1), a);
            if a != 0 {
                prop_assert_eq!(nim_mul(a, nim_inv(a).unwrap()), 1);
            }
            prop_assert_eq!(nim_inv(0), None);
        }

        #[test]
        fn mex_agrees_with_definition(values in proptest::collection::vec(0u64..300, 0..80)) {
            let expected = (0..).find(|n| !values.contains(n)).unwrap();
            proptest::prop_assert_eq!(mex(values.iter().copied()), expected);
        }
    }
}
