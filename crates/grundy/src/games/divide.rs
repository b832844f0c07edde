//! Divide games `div:D1,D2,...`: replace a heap n ≥ 1 by ⌊n/d⌋ for a d in the list.
//!
//! From n only the numbers ⌊n/m⌋ with m a product of divisors are reachable,
//! a few thousand even for n = 10^18, so the sparse memo solves huge heaps at
//! once where a table could not.

use crate::error::Result;
use crate::family::parse_heap;
use crate::game::{Game, Parts, Syntax};
use num_bigint::BigUint;
use num_traits::Zero;
use smallvec::smallvec;

/// The divide game with divisors `divisors` (each at least 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divide {
    divisors: Vec<BigUint>,
}

impl Divide {
    /// The game with these divisors; they are sorted and deduplicated.
    pub fn new(mut divisors: Vec<u64>) -> Self {
        assert!(
            divisors.iter().all(|d| *d >= 2),
            "divisors must be at least 2"
        );
        divisors.sort_unstable();
        divisors.dedup();
        Divide {
            divisors: divisors.into_iter().map(BigUint::from).collect(),
        }
    }
}

impl Game for Divide {
    type Position = BigUint;

    fn options(&self, n: &BigUint, out: &mut Vec<Parts<BigUint>>) {
        if n.is_zero() {
            return;
        }
        for d in &self.divisors {
            let q = n / d;
            out.push(if q.is_zero() {
                smallvec![]
            } else {
                smallvec![q]
            });
        }
    }
}

impl Syntax for Divide {
    fn parse_position(&self, text: &str) -> Result<BigUint> {
        parse_heap(text)
    }

    fn format_position(&self, position: &BigUint) -> String {
        position.to_string()
    }
}
