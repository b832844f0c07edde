//! Subtraction games: remove a number of stones that belongs to a fixed set S.

use crate::game::Parts;
use crate::heap::{HeapGame, Scratch};
use smallvec::smallvec;

/// The subtraction game with subtraction set `S` (sorted, distinct, positive).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subtraction {
    set: Vec<u64>,
}

impl Subtraction {
    /// The game with set `set`; it is sorted and deduplicated, zeros dropped.
    pub fn new(mut set: Vec<u64>) -> Self {
        set.retain(|s| *s > 0);
        set.sort_unstable();
        set.dedup();
        Subtraction { set }
    }

    /// The subtraction set, ascending.
    pub fn set(&self) -> &[u64] {
        &self.set
    }
}

impl HeapGame for Subtraction {
    fn heap_options(&self, n: u64, out: &mut Vec<Parts<u64>>) {
        for &take in self.set.iter().take_while(|s| **s <= n) {
            out.push(if take == n {
                smallvec![]
            } else {
                smallvec![n - take]
            });
        }
    }

    fn dense_value(&self, n: usize, table: &[u32], scratch: &mut Scratch) -> u32 {
        for &take in self.set.iter().take_while(|s| **s as usize <= n) {
            scratch.mex.insert(table[n - take as usize] as u64);
        }
        scratch.mex.take() as u32
    }
}
