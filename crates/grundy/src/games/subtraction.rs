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

    fn period_rule(&self) -> crate::period::PeriodRule {
        // The next value depends only on the last max(S) values.
        crate::period::PeriodRule::Window(self.set.last().copied().unwrap_or(1))
    }

    fn big_options(&self, n: &num_bigint::BigUint) -> Option<Vec<Vec<num_bigint::BigUint>>> {
        Some(
            self.set
                .iter()
                .map(|take| num_bigint::BigUint::from(*take))
                .filter(|take| take <= n)
                .map(|take| {
                    let left = n - take;
                    if left == num_bigint::BigUint::default() {
                        vec![]
                    } else {
                        vec![left]
                    }
                })
                .collect(),
        )
    }

    fn dense_value(&self, n: usize, table: &[u32], scratch: &mut Scratch) -> u32 {
        for &take in self.set.iter().take_while(|s| **s as usize <= n) {
            scratch.mex.insert(table[n - take as usize] as u64);
        }
        scratch.mex.take() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::powers::Powers;
    use crate::heap::{HeapAsGame, HeapTable};
    use crate::solve::Solver;
    use proptest::prelude::*;

    fn dense_agrees_with_memo<H: HeapGame + Clone>(game: H, up_to: u64) {
        let mut table = HeapTable::new();
        table.extend_to(&game, up_to as usize);
        let mut solver = Solver::new(HeapAsGame(game));
        for n in 0..=up_to {
            assert_eq!(
                table.get(n as usize).unwrap() as u64,
                solver.value(&n).unwrap(),
                "heap {n}"
            );
        }
    }

    #[test]
    fn sub_1_2_3_is_n_mod_4() {
        let mut table = HeapTable::new();
        table.extend_to(&Subtraction::new(vec![1, 2, 3]), 100);
        assert!(table
            .to_vec()
            .iter()
            .enumerate()
            .all(|(n, v)| *v as usize == n % 4));
    }

    proptest! {
        #[test]
        fn subtraction_fast_path_agrees_with_memo(set in proptest::collection::vec(1u64..20, 1..6), up_to in 0u64..200) {
            dense_agrees_with_memo(Subtraction::new(set), up_to);
        }

        #[test]
        fn powers_fast_path_agrees_with_memo(base in 2u64..10, up_to in 0u64..300) {
            dense_agrees_with_memo(Powers::new(base), up_to);
        }
    }
}
