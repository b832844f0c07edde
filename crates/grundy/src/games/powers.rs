//! The powers game `pow:K`: take 1, K, K², ... stones from a heap.

use crate::game::Parts;
use crate::heap::{HeapGame, Scratch};
use smallvec::smallvec;

/// Subtraction of the powers of `base` (base ≥ 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Powers {
    base: u64,
}

impl Powers {
    /// The game taking powers of `base`; `base` must be at least 2.
    pub fn new(base: u64) -> Self {
        assert!(base >= 2, "the powers game needs a base of at least 2");
        Powers { base }
    }

    /// The base K.
    pub fn base(&self) -> u64 {
        self.base
    }

    /// The powers of the base that are at most `n`, ascending.
    fn powers_up_to(&self, n: u64) -> impl Iterator<Item = u64> {
        let base = self.base;
        std::iter::successors(Some(1u64), move |p| p.checked_mul(base)).take_while(move |p| *p <= n)
    }
}

impl HeapGame for Powers {
    fn heap_options(&self, n: u64, out: &mut Vec<Parts<u64>>) {
        for take in self.powers_up_to(n) {
            out.push(if take == n {
                smallvec![]
            } else {
                smallvec![n - take]
            });
        }
    }

    fn dense_value(&self, n: usize, table: &[u32], scratch: &mut Scratch) -> u32 {
        for take in self.powers_up_to(n as u64) {
            scratch.mex.insert(table[n - take as usize] as u64);
        }
        scratch.mex.take() as u32
    }
}
