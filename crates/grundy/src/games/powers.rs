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

    fn period_rule(&self) -> crate::period::PeriodRule {
        // Taking a power of K: for odd K every power is odd, so G(n) = n mod 2;
        // for even K, G(n) depends on r = n mod (K + 1): 2 when r = K, else
        // r mod 2 (Berlekamp, Conway and Guy, Winning Ways; checked against
        // the table in the tests).
        let block: Vec<u32> = if self.base % 2 == 1 {
            vec![0, 1]
        } else {
            (0..=self.base)
                .map(|r| if r == self.base { 2 } else { (r % 2) as u32 })
                .collect()
        };
        crate::period::PeriodRule::Known(
            crate::period::Periodicity {
                preperiod: 0,
                period: block.len() as u64,
                saltus: 0,
                block,
                prefix: vec![],
            },
            "closed form for subtraction of powers",
        )
    }

    fn big_options(&self, n: &num_bigint::BigUint) -> Option<Vec<Vec<num_bigint::BigUint>>> {
        let base = num_bigint::BigUint::from(self.base);
        let mut power = num_bigint::BigUint::from(1u32);
        let mut out = Vec::new();
        while &power <= n {
            let left = n - &power;
            out.push(if left == num_bigint::BigUint::default() {
                vec![]
            } else {
                vec![left]
            });
            power *= &base;
        }
        Some(out)
    }

    fn dense_value(&self, n: usize, table: &[u32], scratch: &mut Scratch) -> u32 {
        for take in self.powers_up_to(n as u64) {
            scratch.mex.insert(table[n - take as usize] as u64);
        }
        scratch.mex.take() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::HeapTable;
    use crate::period::PeriodRule;

    #[test]
    fn the_closed_form_matches_the_table() {
        for base in 2..12 {
            let game = Powers::new(base);
            let mut table = HeapTable::new();
            table.extend_to(&game, 3000);
            let PeriodRule::Known(period, _) = game.period_rule() else {
                panic!("known")
            };
            for n in 0..=3000u64 {
                assert_eq!(
                    period.value_u64(n),
                    table.get(n as usize).unwrap() as u64,
                    "pow:{base} {n}"
                );
            }
        }
    }
}
