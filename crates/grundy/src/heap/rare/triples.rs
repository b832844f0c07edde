//! Codes whose moves leave three heaps (hexadecimal digits with bit 8)
//! without the cubic loop over every three-way split.
//!
//! The values of the three-way splits of `m` are the values G(c) ^ x for
//! `1 <= c <= m - 2` and x in the set of G(a) ^ G(b) over the two-way splits
//! a + b = m - c. That set depends on `m - c` alone, so it is kept once per
//! sum, as a bitset ([`Pairs`]), built with O(s) work for sum s. A heap then
//! needs one pass over c instead of one over every (a, c), each c merging a
//! set translated by G(c) in a few word operations per 64 values: O(n) a
//! heap while values stay small, O(n²) in all, against O(n³) for the
//! definition. When values grow with n (`hex:0.F8`: about 2n/3) the sets
//! widen with them, and the cost is O(n · V / 64) a heap for values below
//! V (`hex:0.F8` to heap 4095: 0.46 s, against 5.6 s by the definition, on
//! one core of an AMD EPYC Zen 4, on every instruction path: this loop is scalar).

use super::{TakeBreak, Work};

/// For each sum s tabulated, the set of G(a) ^ G(s - a), 1 <= a <= s / 2,
/// as a bitset wide enough for the values when it was built.
#[derive(Debug, Default, Clone)]
pub(super) struct Pairs {
    words: Vec<u64>,
    /// Row s is `words[start[s]..start[s + 1]]`.
    start: Vec<usize>,
}

impl Pairs {
    /// The rows built so far.
    fn len(&self) -> usize {
        self.start.len().saturating_sub(1)
    }

    #[inline(always)]
    fn row(&self, s: usize) -> &[u64] {
        &self.words[self.start[s]..self.start[s + 1]]
    }

    /// Builds the rows of sums up to `upto`; `table` holds every value below
    /// `upto`, all below `bound` (a power of two).
    fn extend<T: Copy + Into<u32>>(&mut self, table: &[T], upto: usize, bound: u32) {
        if self.start.is_empty() {
            self.start.push(0);
        }
        let width = (bound as usize).div_ceil(64).max(1);
        for s in self.len()..=upto {
            let at = self.words.len();
            self.words.resize(at + width, 0);
            let row = &mut self.words[at..];
            for a in 1..=s / 2 {
                let x = table[a].into() ^ table[s - a].into();
                row[(x >> 6) as usize] |= 1 << (x & 63);
            }
            self.start.push(self.words.len());
        }
    }
}

/// Bits of a word whose position has bit j clear, for j = 0..6.
const LOW: [u64; 6] = [
    0x5555_5555_5555_5555,
    0x3333_3333_3333_3333,
    0x0F0F_0F0F_0F0F_0F0F,
    0x00FF_00FF_00FF_00FF,
    0x0000_FFFF_0000_FFFF,
    0x0000_0000_FFFF_FFFF,
];

/// The word with bit i moved to bit i ^ v (v < 64).
#[inline(always)]
fn permute(mut x: u64, v: u32) -> u64 {
    for (j, low) in LOW.iter().enumerate() {
        if v >> j & 1 != 0 {
            let s = 1 << j;
            x = ((x >> s) & low) | ((x & low) << s);
        }
    }
    x
}

/// The value of heap `n` of a code with three-heap moves (parts may be
/// equal), from `table[0..n]`: the same options as
/// [`TakeBreak::plain_value`].
pub(super) fn triple_value<T: Copy + Into<u32>>(
    rules: &TakeBreak,
    n: usize,
    table: &[T],
    work: &mut Work,
) -> u32 {
    let g = |i: usize| -> u32 { table[i].into() };
    let bound = work.bound.max(1);
    work.pairs.extend(table, n, bound);
    let pairs = &work.pairs;
    let marks = &mut work.marks;
    marks.prepare(bound);
    for (k, &d) in rules.digits.iter().enumerate().take(n + 1) {
        if d & 1 != 0 && n == k {
            marks.set(0);
        }
        if d & 2 != 0 && n > k {
            marks.set(g(n - k));
        }
        if d & 4 != 0 && n >= k + 2 {
            for (w, x) in marks.words.iter_mut().zip(pairs.row(n - k)) {
                *w |= x;
            }
        }
        if d & 8 != 0 && n >= k + 3 {
            let m = n - k;
            for c in 1..=m - 2 {
                // The row's values XOR G(c): words move by its high bits,
                // bits within a word by its low six.
                let v = g(c);
                let (high, low) = ((v >> 6) as usize, v & 63);
                for (i, x) in pairs.row(m - c).iter().enumerate() {
                    if *x != 0 {
                        marks.words[i ^ high] |= permute(*x, low);
                    }
                }
            }
        }
    }
    marks.take_mex()
}

#[cfg(test)]
mod tests {
    use super::super::{Engine, Marks};
    use super::*;
    use proptest::prelude::*;
    use std::ops::ControlFlow;

    /// Values by the definition, [`TakeBreak::plain_value`]: the reference.
    fn by_definition(rules: &TakeBreak, n: usize) -> Vec<u32> {
        let mut values = Vec::with_capacity(n + 1);
        let mut marks = Marks::default();
        for heap in 0..=n {
            let value = rules.plain_value(heap, &values, &mut marks);
            values.push(value);
        }
        values
    }

    fn by_engine(rules: &TakeBreak, n: usize) -> Vec<u32> {
        let mut engine = Engine::new(rules.clone());
        let _ = engine.extend_to(n, &mut |_| ControlFlow::Continue(()));
        engine.values().to_u32()
    }

    #[test]
    fn growing_values_widen_the_sets() {
        // hex:0.F8's values grow about as 2n/3: the sets of sums tabulated
        // early are narrower than the later ones they are merged with.
        let rules = TakeBreak::new(&[0, 15, 8]).unwrap();
        let plain = by_definition(&rules, 1500);
        assert!(plain[1500] > 900);
        assert_eq!(by_engine(&rules, 1500), plain);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// The engine agrees with the definition on random hexadecimal
        /// codes with three-heap digits.
        #[test]
        fn three_heap_codes_agree_with_the_definition(
            digits in proptest::collection::vec(0u8..16, 1..6),
            first in prop_oneof![Just(0u8), Just(4), Just(8), Just(12)],
            three in 0usize..6,
            n in 0usize..260,
        ) {
            let mut digits = digits;
            digits.insert(0, first);
            let at = three % digits.len();
            digits[at] |= 8;
            let rules = TakeBreak::new(&digits).unwrap();
            prop_assert_eq!(by_engine(&rules, n), by_definition(&rules, n), "{:?}", digits);
        }
    }

    #[test]
    fn permute_moves_every_bit_by_xor() {
        for v in 0..64u32 {
            for i in 0..64u32 {
                assert_eq!(permute(1 << i, v), 1 << (i ^ v));
            }
        }
    }
}
