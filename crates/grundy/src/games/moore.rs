//! Moore's Nim_k: a move takes a positive number of stones from at least one
//! and at most K heaps. One position is all the heaps together (for K >= 2
//! the heaps are not independent games).
//!
//! Moore's theorem (E. H. Moore, *A generalization of the game called Nim*,
//! Annals of Mathematics 11, 1910): a position is a P-position exactly when,
//! for every binary digit, the number of heaps with that digit set is a
//! multiple of K + 1. That decides the winner of any position. The Grundy
//! values themselves have no known formula for K >= 2, so they come from
//! the generic solver over the rules ([`MooreGame`]) when the search is
//! small enough; beyond that a P-position still has value 0 (a position is a
//! P-position exactly when its value is 0), and an N-position is reported
//! as a win for the player to move, its value not computed.

use crate::error::{Error, Result};
use crate::family::{solve_error, Family, Move, Settings};
use crate::game::{Game, Parts, Syntax};
use crate::games::staircase::{counts_of, counts_position, parse_counts};
use crate::nimber::Value;
use crate::position::Position;
use crate::solve::Solver;
use num_bigint::BigUint;

/// The largest K.
pub const MAX_K: u64 = 1000;

/// The most heaps a position may have.
pub const MAX_HEAPS: usize = 10_000;

/// The most positions a search for a value may meet (fewer if the state
/// budget is smaller); beyond it only the outcome is given.
pub const MAX_SEARCHED: u128 = 30_000_000;

/// The largest search for a value, in heap sizes written: the positions it
/// may meet, times the moves of the position asked, times its heaps.
pub const MAX_WORK: u128 = 100_000_000;

/// The most moves [`Family::moves`] lists.
const MAX_LISTED_MOVES: u128 = 1_000_000;

/// The most numbers (moves times heaps) the listed moves may hold.
const MAX_LISTED_NUMBERS: u128 = 10_000_000;

/// Moore's theorem: whether the heaps are a P-position of Nim_k.
pub fn moore_is_p(heaps: &[BigUint], k: u64) -> bool {
    let bits = heaps.iter().map(BigUint::bits).max().unwrap_or(0);
    (0..bits).all(|b| (heaps.iter().filter(|h| h.bit(b)).count() as u64).is_multiple_of(k + 1))
}

/// Nim_k for the generic solver. Positions are heap sizes sorted, without
/// empty heaps (the memo key); options come from the rules.
#[derive(Debug, Clone, Copy)]
pub struct MooreGame {
    /// The most heaps a move may take from.
    pub k: usize,
}

impl MooreGame {
    /// Every position one move from `heaps`, heaps in the same order.
    pub fn successors(&self, heaps: &[u64]) -> Vec<Vec<u64>> {
        fn walk(
            k: usize,
            heaps: &[u64],
            at: usize,
            taken: usize,
            now: &mut Vec<u64>,
            out: &mut Vec<Vec<u64>>,
        ) {
            if at == heaps.len() {
                if taken > 0 {
                    out.push(now.clone());
                }
                return;
            }
            // Taking from this heap first, fewer stones first.
            if taken < k {
                for left in (0..heaps[at]).rev() {
                    now[at] = left;
                    walk(k, heaps, at + 1, taken + 1, now, out);
                }
                now[at] = heaps[at];
            }
            walk(k, heaps, at + 1, taken, now, out);
        }
        let mut out = Vec::new();
        walk(self.k, heaps, 0, 0, &mut heaps.to_vec(), &mut out);
        out
    }
}

impl Game for MooreGame {
    type Position = Vec<u64>;

    fn options(&self, position: &Vec<u64>, out: &mut Vec<Parts<Vec<u64>>>) {
        for next in self.successors(position) {
            let mut parts = Parts::new();
            parts.push(next);
            out.push(parts);
        }
    }

    fn canonical(&self, mut position: Vec<u64>) -> Vec<u64> {
        position.retain(|&h| h > 0);
        position.sort_unstable();
        position
    }
}

impl Syntax for MooreGame {
    fn parse_position(&self, text: &str) -> Result<Vec<u64>> {
        parse_counts(text, "heap", "3,5,6", MAX_HEAPS)?
            .iter()
            .map(|n| {
                u64::try_from(n)
                    .map_err(|_| Error::TooLarge(format!("the heap {n} is too large to search")))
            })
            .collect()
    }

    fn format_position(&self, position: &Vec<u64>) -> String {
        position
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// The number of moves from `heaps`: the sum over 1..=k of the elementary
/// symmetric sums of the heap sizes (saturating).
fn move_count(heaps: &[u64], k: usize) -> u128 {
    // e[j]: the ways to take from j of the heaps seen so far.
    let mut e = vec![0u128; k + 1];
    e[0] = 1;
    for &h in heaps {
        for j in (1..=k.min(heaps.len())).rev() {
            e[j] = e[j].saturating_add(e[j - 1].saturating_mul(h as u128));
        }
    }
    e[1..].iter().fold(0u128, |a, &b| a.saturating_add(b))
}

/// The number of positions a search from `heaps` may meet: the sorted lists
/// bounded by the sorted heaps, or `None` if beyond `cap`.
fn state_count(heaps: &[u64], cap: u128) -> Option<u128> {
    let mut sorted: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
    sorted.sort_unstable();
    let product = sorted
        .iter()
        .fold(1u128, |a, &h| a.saturating_mul(h as u128 + 1));
    if product <= cap {
        return Some(product);
    }
    let largest = *sorted.last()?;
    if largest > 1 << 20 {
        return None;
    }
    // ways[v]: non-decreasing lists so far ending at v; each next entry is at
    // least the last and at most its own bound.
    let mut ways = vec![1u128; 1];
    for &bound in &sorted {
        let mut next = vec![0u128; bound as usize + 1];
        let mut running = 0u128;
        for (v, slot) in next.iter_mut().enumerate() {
            running = running.saturating_add(ways.get(v).copied().unwrap_or(0));
            *slot = running;
        }
        ways = next;
    }
    let total = ways.iter().fold(0u128, |a, &b| a.saturating_add(b));
    (total <= cap).then_some(total)
}

/// The family `moore:K`.
pub struct Moore {
    k: u64,
    solver: Solver<MooreGame>,
    max_states: usize,
}

impl Moore {
    /// Nim_k, searching at most `settings.max_states` positions.
    pub fn new(k: u64, settings: Settings) -> Self {
        Moore {
            k,
            solver: Solver::with_max_states(MooreGame { k: k as usize }, settings.max_states),
            max_states: settings.max_states,
        }
    }

    fn heaps(&self, position: &Position) -> Result<Vec<BigUint>> {
        counts_of(position, &self.spec(), "heap")
    }

    /// The heaps as machine words if a search for the value is within
    /// reach, or why not.
    fn searchable(&self, heaps: &[BigUint]) -> std::result::Result<Vec<u64>, String> {
        let small: Option<Vec<u64>> = heaps.iter().map(|h| u64::try_from(h).ok()).collect();
        let Some(small) = small else {
            return Err("a heap is beyond 2^64".into());
        };
        let moves = move_count(&small, self.k as usize);
        let cap = (self.max_states as u128).min(MAX_SEARCHED);
        let Some(states) = state_count(&small, cap) else {
            return Err(format!("the search would meet more than {cap} positions"));
        };
        let heaps = small.iter().filter(|&&h| h > 0).count() as u128;
        let work = states.saturating_mul(moves).saturating_mul(heaps);
        if work > MAX_WORK {
            return Err(format!(
                "the search would meet up to {states} positions with up to {moves} moves each, more than it takes on ({MAX_WORK} heap sizes in all)"
            ));
        }
        Ok(small)
    }

    fn solve(&mut self, heaps: &[u64]) -> Result<u64> {
        let key = self.solver.game().canonical(heaps.to_vec());
        self.solver
            .value(&key)
            .map_err(|e| solve_error(self.solver.game(), e))
    }
}

impl Family for Moore {
    fn spec(&self) -> String {
        format!("moore:{}", self.k)
    }

    fn parse(&self, text: &str) -> Result<Position> {
        Ok(counts_position(&parse_counts(
            text, "heap", "3,5,6", MAX_HEAPS,
        )?))
    }

    fn value(&mut self, position: &Position) -> Result<Value> {
        let heaps = self.heaps(position)?;
        match self.searchable(&heaps) {
            Ok(small) => Ok(Value::finite(self.solve(&small)?)),
            // A P-position is exactly a position of value 0.
            Err(_) if moore_is_p(&heaps, self.k) => Ok(Value::zero()),
            Err(why) => Err(Error::TooLarge(format!(
                "{} {}: by Moore's theorem the player to move wins (an N-position, so its value is not 0), but the Grundy value is not computed: {why}",
                self.spec(),
                self.format(position)
            ))),
        }
    }

    fn moves(&mut self, position: &Position) -> Result<Vec<Move>> {
        let heaps = self.heaps(position)?;
        let small = self.searchable(&heaps).map_err(|why| {
            Error::TooLarge(format!(
                "{} {}: its moves are not listed with their values, which need a search: {why}",
                self.spec(),
                self.format(position)
            ))
        })?;
        let count = move_count(&small, self.k as usize);
        if count > MAX_LISTED_MOVES
            || count.saturating_mul(small.len() as u128) > MAX_LISTED_NUMBERS
        {
            return Err(Error::TooLarge(format!(
                "{} {} has too many moves to list one by one (at most {MAX_LISTED_MOVES})",
                self.spec(),
                self.format(position)
            )));
        }
        let game = *self.solver.game();
        let mut out = Vec::new();
        for next in game.successors(&small) {
            let value = self.solve(&next)?;
            out.push(Move {
                to: vec![counts_position(
                    &next.into_iter().map(BigUint::from).collect::<Vec<_>>(),
                )],
                value: Value::finite(value),
            });
        }
        Ok(out)
    }

    fn moves_to(&mut self, position: &Position, target: &Value, limit: usize) -> Result<Vec<Move>> {
        let heaps = self.heaps(position)?;
        if let Err(why) = self.searchable(&heaps) {
            // The theorem tells P-positions, not values, and listing every
            // move to a P-position would mean trying the moves one by one.
            return Err(Error::TooLarge(format!(
                "{} {}: its winning moves are not listed: they need the values of its options, and {why}",
                self.spec(),
                self.format(position)
            )));
        }
        Ok(self
            .moves(position)?
            .into_iter()
            .filter(|m| &m.value == target)
            .take(limit)
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn big(heaps: &[u64]) -> Vec<BigUint> {
        heaps.iter().copied().map(BigUint::from).collect()
    }

    /// Every list of `heaps` heaps of at most `most` stones, sorted.
    fn all_sorted(heaps: usize, most: u64) -> Vec<Vec<u64>> {
        let mut all: Vec<Vec<u64>> = vec![vec![]];
        for _ in 0..heaps {
            all = all
                .into_iter()
                .flat_map(|p| {
                    let from = p.last().copied().unwrap_or(0);
                    (from..=most).map(move |h| {
                        let mut q = p.clone();
                        q.push(h);
                        q
                    })
                })
                .collect();
        }
        all
    }

    #[test]
    fn the_theorem_holds_for_small_positions() {
        for k in 1..=3usize {
            let mut solver = Solver::new(MooreGame { k });
            for heaps in 1..=4 {
                let most = if heaps == 4 { 5 } else { 7 };
                for p in all_sorted(heaps, most) {
                    let value = solver.value(&MooreGame { k }.canonical(p.clone())).unwrap();
                    assert_eq!(
                        value == 0,
                        moore_is_p(&big(&p), k as u64),
                        "moore:{k} {p:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn k_1_is_nim() {
        let mut solver = Solver::new(MooreGame { k: 1 });
        for p in all_sorted(3, 9) {
            let nim = p.iter().fold(0, |a, b| a ^ b);
            assert_eq!(solver.value(&p).unwrap(), nim, "{p:?}");
        }
    }

    #[test]
    fn moves_follow_the_rules() {
        let game = MooreGame { k: 2 };
        let next = game.successors(&[1, 1, 1]);
        assert_eq!(next.len(), 6);
        assert!(!next.contains(&vec![0, 0, 0]));
        assert_eq!(move_count(&[1, 1, 1], 2), 6);
        assert_eq!(move_count(&[3, 4], 1), 7);
        assert_eq!(move_count(&[3, 4], 2), 19);
        assert_eq!(state_count(&[2, 2], 1 << 40), Some(9));
        assert_eq!(state_count(&[2, 2], 5), None);
    }

    #[test]
    fn big_positions_give_the_outcome() {
        let mut m = Moore::new(2, Settings::default());
        let p = m.parse("1000000,1000000,1000000").unwrap();
        assert_eq!(m.value(&p).unwrap(), Value::zero());
        let n = m.parse("1000000,1000000,999999").unwrap();
        let e = m.value(&n).unwrap_err().to_string();
        assert!(e.contains("player to move wins"), "{e}");
        assert!(m.moves_to(&p, &Value::finite(1), 5).is_err());
        assert!(m.parse("1,x").is_err());
        // Many heaps: the search is refused before it starts.
        let ones = m.parse(&vec!["1"; 3000].join(",")).unwrap();
        assert_eq!(m.value(&ones).unwrap(), Value::zero());
        let e = m.value(&m.parse(&vec!["1"; 3001].join(",")).unwrap());
        assert!(e.unwrap_err().to_string().contains("not computed"));
    }

    proptest! {
        #[test]
        fn values_of_the_family_match_the_theorem(
            k in 1u64..4,
            p in proptest::collection::vec(0u64..6, 1..4),
        ) {
            let mut m = Moore::new(k, Settings::default());
            let position = counts_position(&big(&p));
            let value = m.value(&position).unwrap();
            prop_assert_eq!(value.is_zero(), moore_is_p(&big(&p), k));
            let moves = m.moves(&position).unwrap();
            prop_assert_eq!(moves.len() as u128, move_count(&p, k as usize));
            let mex = crate::nimber::mex(moves.iter().map(|m| m.value.as_u64().unwrap()));
            prop_assert_eq!(Value::finite(mex), value);
        }
    }
}
