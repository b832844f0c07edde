//! Sets of cells or vertices in one or two machine words: the positions of
//! the search solver. A board of up to 64 cells runs on `u64`, one of up to
//! 128 on `u128`; the solver and the games are written once over [`Bits`].

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Shl, Shr};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// A fixed-width set of small integers, as an unsigned integer.
pub trait Bits:
    Copy
    + Eq
    + Ord
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitAndAssign
    + BitOr<Output = Self>
    + BitOrAssign
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// How many members the set can have.
    const WIDTH: u32;
    /// The empty set.
    const ZERO: Self;
    /// The set {0}.
    const ONE: Self;
    /// How many members.
    fn count(self) -> u32;
    /// The smallest member (`WIDTH` if empty).
    fn lowest(self) -> u32;
    /// The largest member plus one (0 if empty).
    fn end(self) -> u32;
    /// Whether `i` is a member.
    #[inline]
    fn has(self, i: u32) -> bool {
        (self >> i) & Self::ONE != Self::ZERO
    }
    /// The set {i}.
    #[inline]
    fn bit(i: u32) -> Self {
        Self::ONE << i
    }
    /// The set without its smallest member.
    fn clear_lowest(self) -> Self;
    /// The set's smallest member alone.
    fn lowest_bit(self) -> Self;
    /// The sets as numbers, added (wrapping): carries run along runs of
    /// members, which fills rows in one step.
    fn add(self, other: Self) -> Self;
    /// Widened to 128 bits (for files and hashing).
    fn to_u128(self) -> u128;
    /// Narrowed from 128 bits.
    fn from_u128(x: u128) -> Self;
    /// The low 64 bits.
    fn low_u64(self) -> u64;
    /// A place holding a set that threads share: read and written
    /// atomically word by word (a table entry's key).
    type Cell: Default + Send + Sync;
    /// Reads a shared cell.
    fn load(cell: &Self::Cell) -> Self;
    /// Writes a shared cell.
    fn store(cell: &Self::Cell, value: Self);
    /// A well-mixed 64-bit hash: every bit of the set moves every bit of
    /// the hash (the table takes its bucket from the low bits).
    #[inline]
    fn mix(self) -> u64 {
        #[inline]
        fn fmix(mut h: u64) -> u64 {
            // MurmurHash3's 64-bit finaliser.
            h ^= h >> 33;
            h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
            h ^= h >> 33;
            h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
            h ^ (h >> 33)
        }
        let x = self.to_u128();
        let high = (x >> 64) as u64;
        if high == 0 {
            fmix(x as u64)
        } else {
            fmix(x as u64 ^ fmix(high))
        }
    }
    /// The members in increasing order.
    #[inline]
    fn members(self) -> Members<Self> {
        Members(self)
    }
}

/// The members of a [`Bits`] set, smallest first.
pub struct Members<B>(B);

impl<B: Bits> Iterator for Members<B> {
    type Item = u32;
    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.0 == B::ZERO {
            return None;
        }
        let i = self.0.lowest();
        self.0 = self.0.clear_lowest();
        Some(i)
    }
}

/// Two words shared between threads: a `u128` table key.
#[derive(Debug, Default)]
pub struct WordPair([AtomicU64; 2]);

macro_rules! bits_impl {
    ($t:ty, $cell:ty, $load:expr, $store:expr) => {
        impl Bits for $t {
            type Cell = $cell;
            #[inline]
            fn load(cell: &$cell) -> Self {
                $load(cell)
            }
            #[inline]
            fn store(cell: &$cell, value: Self) {
                $store(cell, value)
            }
            const WIDTH: u32 = <$t>::BITS;
            const ZERO: Self = 0;
            const ONE: Self = 1;
            #[inline]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline]
            fn end(self) -> u32 {
                <$t>::BITS - self.leading_zeros()
            }
            #[inline]
            fn clear_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline]
            fn add(self, other: Self) -> Self {
                self.wrapping_add(other)
            }
            #[inline]
            fn lowest_bit(self) -> Self {
                self & self.wrapping_neg()
            }
            #[inline]
            fn to_u128(self) -> u128 {
                self as u128
            }
            #[inline]
            fn from_u128(x: u128) -> Self {
                x as $t
            }
            #[inline]
            fn low_u64(self) -> u64 {
                self as u64
            }
        }
    };
}

bits_impl!(
    u64,
    AtomicU64,
    |c: &AtomicU64| c.load(Relaxed),
    |c: &AtomicU64, v| c.store(v, Relaxed)
);
bits_impl!(
    u128,
    WordPair,
    |c: &WordPair| c.0[0].load(Relaxed) as u128 | (c.0[1].load(Relaxed) as u128) << 64,
    |c: &WordPair, v: u128| {
        c.0[0].store(v as u64, Relaxed);
        c.0[1].store((v >> 64) as u64, Relaxed);
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_and_ends() {
        let s: u128 = (1 << 3) | (1 << 70) | 1;
        assert_eq!(s.members().collect::<Vec<_>>(), [0, 3, 70]);
        assert_eq!(s.end(), 71);
        assert_eq!(s.count(), 3);
        assert!(s.has(70) && !s.has(69));
        assert_eq!(0u64.end(), 0);
        assert_eq!(u64::bit(5).lowest_bit(), 32);
        // Sets differing only in high members fall in different buckets.
        let buckets: std::collections::HashSet<u64> = (0..64u64)
            .map(|i| (1u64 << 63 | i << 50).mix() & 1023)
            .collect();
        assert!(buckets.len() > 50);
    }
}
