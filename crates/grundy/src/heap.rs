//! Dense tables for heap games: games whose positions are heap sizes and whose
//! moves leave smaller heaps, so the values of 0, 1, 2, ... can be filled in order.
//!
//! A [`HeapGame`] lists the options of a heap; [`HeapTable`] fills the values
//! bottom-up in one flat array, which is far faster and smaller than a hash memo.
//! Families override [`HeapGame::dense_value`] with a loop that reads the table
//! directly; the default goes through [`HeapGame::heap_options`], and
//! [`HeapAsGame`] exposes any heap game to the plain [`Solver`](crate::solve::Solver),
//! which is the reference the property tests compare against.

pub mod rare;

use crate::game::{Game, Parts};
use crate::nimber::Mex;

/// A game played on heaps, in which every move leaves heaps smaller than the one moved on.
pub trait HeapGame {
    /// Appends every option of a heap of size `n`, each as the heaps it leaves
    /// (empty heaps omitted). Every heap left must be smaller than `n`.
    fn heap_options(&self, n: u64, out: &mut Vec<Parts<u64>>);

    /// The value of heap `n`, given `table[m]` for every `m < n` (`table.len() == n`).
    ///
    /// Override with a direct loop over the table for speed; the default
    /// enumerates [`HeapGame::heap_options`].
    fn dense_value(&self, n: usize, table: &[u32], scratch: &mut Scratch) -> u32 {
        scratch.options.clear();
        self.heap_options(n as u64, &mut scratch.options);
        for option in &scratch.options {
            let value = option
                .iter()
                .fold(0u32, |acc, &heap| acc ^ table[heap as usize]);
            scratch.mex.insert(value as u64);
        }
        scratch.mex.take() as u32
    }
}

/// Buffers reused across heaps so the table loop does not allocate.
#[derive(Default)]
pub struct Scratch {
    /// The mex accumulator.
    pub mex: Mex,
    /// Options of the current heap, for the default `dense_value`.
    pub options: Vec<Parts<u64>>,
}

/// The values of heaps `0..len()` of one heap game.
#[derive(Debug, Default, Clone)]
pub struct HeapTable {
    values: Vec<u32>,
}

impl HeapTable {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Number of heaps tabulated.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether nothing is tabulated yet.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The tabulated values, index = heap size.
    pub fn values(&self) -> &[u32] {
        &self.values
    }

    /// The value of heap `n`, if tabulated.
    pub fn get(&self, n: usize) -> Option<u32> {
        self.values.get(n).copied()
    }

    /// Fills the table up to and including heap `n`.
    pub fn extend_to<H: HeapGame + ?Sized>(&mut self, game: &H, n: usize) {
        if n < self.values.len() {
            return;
        }
        self.values.reserve(n + 1 - self.values.len());
        let mut scratch = Scratch::default();
        while self.values.len() <= n {
            let m = self.values.len();
            let value = game.dense_value(m, &self.values, &mut scratch);
            self.values.push(value);
        }
    }
}

/// Any heap game seen as a [`Game`] on `u64` heaps, for the generic solver.
pub struct HeapAsGame<H>(pub H);

impl<H: HeapGame> Game for HeapAsGame<H> {
    type Position = u64;
    fn options(&self, n: &u64, out: &mut Vec<Parts<u64>>) {
        self.0.heap_options(*n, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use smallvec::smallvec;

    struct Kayles;
    impl HeapGame for Kayles {
        fn heap_options(&self, n: u64, out: &mut Vec<Parts<u64>>) {
            for take in 1..=2u64.min(n) {
                for left in 0..=(n - take) / 2 {
                    let right = n - take - left;
                    out.push(
                        [left, right]
                            .into_iter()
                            .filter(|h| *h > 0)
                            .collect::<Parts<u64>>(),
                    );
                }
            }
            let _: Parts<u64> = smallvec![];
        }
    }

    #[test]
    fn dense_table_agrees_with_the_memo_solver() {
        let mut table = HeapTable::new();
        table.extend_to(&Kayles, 120);
        let mut solver = crate::solve::Solver::new(HeapAsGame(Kayles));
        for n in 0..=120u64 {
            assert_eq!(
                table.get(n as usize).unwrap() as u64,
                solver.value(&n).unwrap()
            );
        }
        // Kayles is periodic with period 12 from n = 71 on (Guy and Smith).
        for n in 71..=108 {
            assert_eq!(table.get(n), table.get(n + 12));
        }
    }
}
