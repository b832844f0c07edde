//! Staircase Nim: coins stand on the steps of a staircase, step 0 being the
//! floor. A move takes one or more coins from one step i >= 1 down to step
//! i - 1; coins that reach the floor leave the game.
//!
//! The Grundy value is the nim-sum of the coins on the odd steps (E. R.
//! Berlekamp, J. H. Conway, R. K. Guy, *Winning Ways*; A. N. Siegel,
//! *Combinatorial Game Theory*, 2013): a move from an odd step is a Nim move
//! on that step, and a move from an even step to the odd step below adds
//! coins there, which the opponent can undo by moving the same coins on to
//! the next even step. Values come from that theorem, so counts of any size
//! are answered; moves come from the rules, and [`StaircaseGame`] is the
//! same game for the generic solver, which the tests compare with the theorem.

use crate::error::{Error, Result};
use crate::family::{Family, Move};
use crate::game::{Game, Parts};
use crate::nimber::Value;
use crate::position::Position;
use num_bigint::BigUint;

/// The most steps a staircase may have.
pub const MAX_STEPS: usize = 10_000;

/// The most moves [`Staircase::moves`] lists before asking for a smaller staircase.
const MAX_LISTED_MOVES: u64 = 1_000_000;

/// The most numbers (moves times steps) the listed moves may hold.
const MAX_LISTED_NUMBERS: u64 = 10_000_000;

/// Reads `N1,N2,...`: non-negative integers of any size, at most `max` of
/// them; `what` names an item in errors ("step", "heap").
pub(crate) fn parse_counts(
    text: &str,
    what: &str,
    example: &str,
    max: usize,
) -> Result<Vec<BigUint>> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(Error::syntax(
            format!(
                "a position is a list of numbers joined by commas, one per {what}, e.g. {example}"
            ),
            text,
            None,
        ));
    }
    let mut counts = Vec::new();
    let mut at = 0;
    for item in trimmed.split(',') {
        let number = item.trim();
        let lead = item.len() - item.trim_start().len();
        if number.is_empty() {
            return Err(Error::syntax(
                format!(
                    "empty {what} in the position: write a number for each {what}, e.g. {example}"
                ),
                trimmed,
                Some(at),
            ));
        }
        if let Some((i, c)) = number.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
            let message = if c == '-' && i == 0 {
                format!("the number on a {what} cannot be negative")
            } else {
                format!("unexpected {c:?}: a position is a list of numbers joined by commas, one per {what}, e.g. {example}")
            };
            return Err(Error::syntax(
                message,
                trimmed,
                Some(at + lead + number[..i].chars().count()),
            ));
        }
        if counts.len() == max {
            return Err(Error::TooLarge(format!(
                "a position has at most {max} {what}s"
            )));
        }
        counts.push(number.parse().expect("digits parse"));
        at += item.chars().count() + 1;
    }
    Ok(counts)
}

/// The list of counts a position stands for: a list of non-negative
/// integers, or one integer (a single step or heap).
pub(crate) fn counts_of(position: &Position, spec: &str, what: &str) -> Result<Vec<BigUint>> {
    let wrong = || {
        Error::invalid(format!(
            "{position} is not a position of {spec}: a position is a list of non-negative integers, one per {what}"
        ))
    };
    match position {
        Position::List(items) => items
            .iter()
            .map(|p| p.as_biguint().ok_or_else(wrong))
            .collect(),
        Position::Int(_) => Ok(vec![position.as_biguint().ok_or_else(wrong)?]),
        _ => Err(wrong()),
    }
}

/// A list of counts as a position.
pub(crate) fn counts_position(counts: &[BigUint]) -> Position {
    Position::List(counts.iter().cloned().map(Position::heap).collect())
}

/// The theorem: the nim-sum of the coins on the odd steps (steps 1, 3, 5, ...:
/// the items at even indices).
pub fn staircase_value(counts: &[BigUint]) -> BigUint {
    counts
        .iter()
        .step_by(2)
        .fold(BigUint::default(), |acc, n| acc ^ n)
}

/// Staircase Nim for the generic solver: positions are the coins on steps
/// 1, 2, ..., options come from the rules alone.
#[derive(Debug, Clone, Copy, Default)]
pub struct StaircaseGame;

/// Every move from `counts` by the rules, as (step moved from, coins moved,
/// position left), steps from 1, fewer coins first.
pub fn staircase_moves(counts: &[u64]) -> Vec<(usize, u64, Vec<u64>)> {
    let mut out = Vec::new();
    for (i, &n) in counts.iter().enumerate() {
        for c in 1..=n {
            let mut next = counts.to_vec();
            next[i] -= c;
            if i > 0 {
                next[i - 1] += c;
            }
            out.push((i + 1, c, next));
        }
    }
    out
}

impl Game for StaircaseGame {
    type Position = Vec<u64>;

    fn options(&self, position: &Vec<u64>, out: &mut Vec<Parts<Vec<u64>>>) {
        for (_, _, next) in staircase_moves(position) {
            let mut parts = Parts::new();
            parts.push(next);
            out.push(parts);
        }
    }
}

/// The family `staircase`.
#[derive(Debug, Clone, Default)]
pub struct Staircase;

impl Staircase {
    fn counts(&self, position: &Position) -> Result<Vec<BigUint>> {
        counts_of(position, "staircase", "step")
    }
}

fn finite(n: BigUint) -> Value {
    Value::Finite(n)
}

impl Family for Staircase {
    fn spec(&self) -> String {
        "staircase".into()
    }

    fn parse(&self, text: &str) -> Result<Position> {
        Ok(counts_position(&parse_counts(
            text, "step", "3,1,2", MAX_STEPS,
        )?))
    }

    fn value(&mut self, position: &Position) -> Result<Value> {
        Ok(finite(staircase_value(&self.counts(position)?)))
    }

    fn moves(&mut self, position: &Position) -> Result<Vec<Move>> {
        let counts = self.counts(position)?;
        let total: BigUint = counts.iter().sum();
        let limit = MAX_LISTED_MOVES.min(MAX_LISTED_NUMBERS / counts.len().max(1) as u64);
        let small: Option<Vec<u64>> = (total <= BigUint::from(limit)).then(|| {
            counts
                .iter()
                .map(|n| u64::try_from(n).expect("small"))
                .collect()
        });
        let Some(small) = small else {
            return Err(Error::TooLarge(format!(
                "a staircase of {} steps with {total} coins has too many moves to list one by one (at most {limit})",
                counts.len()
            )));
        };
        Ok(staircase_moves(&small)
            .into_iter()
            .map(|(_, _, next)| {
                let next: Vec<BigUint> = next.into_iter().map(BigUint::from).collect();
                Move {
                    value: finite(staircase_value(&next)),
                    to: vec![counts_position(&next)],
                }
            })
            .collect())
    }

    /// Every move to `target`, by the theorem: a move changes the coins on
    /// exactly one odd step (a move from an odd step lowers it; a move from
    /// an even step raises the odd step below), so each step offers at most
    /// one move to a given value.
    fn moves_to(&mut self, position: &Position, target: &Value, limit: usize) -> Result<Vec<Move>> {
        let Value::Finite(target) = target else {
            return Ok(vec![]);
        };
        let counts = self.counts(position)?;
        let now = staircase_value(&counts);
        let mut out = Vec::new();
        for i in 0..counts.len() {
            if out.len() == limit {
                break;
            }
            let mut next = counts.clone();
            if i % 2 == 0 {
                // An odd step: its coins must become `wanted`.
                let wanted = &counts[i] ^ &now ^ target;
                if wanted >= counts[i] {
                    continue;
                }
                let moved = &counts[i] - &wanted;
                next[i] = wanted;
                if i > 0 {
                    next[i - 1] += moved;
                }
            } else {
                // An even step: the odd step below must become `wanted`.
                let below = &counts[i - 1];
                let wanted = below ^ &now ^ target;
                if wanted <= *below || &wanted - below > counts[i] {
                    continue;
                }
                let moved = &wanted - below;
                next[i] -= moved;
                next[i - 1] = wanted;
            }
            out.push(Move {
                to: vec![counts_position(&next)],
                value: finite(target.clone()),
            });
        }
        Ok(out)
    }

    fn describe_move(&self, from: &Position, to: &[Position]) -> Option<String> {
        let before = self.counts(from).ok()?;
        let after = self.counts(to.first()?).ok()?;
        if before.len() != after.len() {
            return None;
        }
        // The step moved from is the highest one that lost coins.
        let step = (0..before.len()).rev().find(|&i| after[i] < before[i])?;
        let moved = &before[step] - &after[step];
        let coins = if moved == BigUint::from(1u32) {
            "1 coin".to_string()
        } else {
            format!("{moved} coins")
        };
        let down = if step == 0 {
            "off the staircase".to_string()
        } else {
            format!("to step {step}")
        };
        Some(format!(
            "{} -> {} ({coins} from step {} {down})",
            self.format(from),
            self.format(&to[0]),
            step + 1
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::Solver;
    use proptest::prelude::*;

    fn big(counts: &[u64]) -> Vec<BigUint> {
        counts.iter().copied().map(BigUint::from).collect()
    }

    /// Every staircase of up to `steps` steps with at most `most` coins a step.
    fn all_small(steps: usize, most: u64) -> Vec<Vec<u64>> {
        let mut all = vec![vec![]];
        for _ in 0..steps {
            let longer: Vec<Vec<u64>> = all
                .iter()
                .filter(|p| p.len() == all.last().unwrap().len())
                .flat_map(|p| {
                    (0..=most).map(move |n| {
                        let mut q = p.clone();
                        q.push(n);
                        q
                    })
                })
                .collect();
            all.extend(longer);
        }
        all.retain(|p| !p.is_empty());
        all
    }

    #[test]
    fn the_theorem_holds_for_every_small_staircase() {
        let mut solver = Solver::new(StaircaseGame);
        let positions = all_small(4, 4);
        assert!(positions.len() > 600);
        for p in positions {
            let searched = solver.value(&p).unwrap();
            assert_eq!(
                BigUint::from(searched),
                staircase_value(&big(&p)),
                "staircase {p:?}"
            );
        }
    }

    #[test]
    fn reads_and_writes_positions() {
        let s = Staircase;
        let p = s.parse("3, 1,2").unwrap();
        assert_eq!(s.format(&p), "3,1,2");
        assert!(s.parse("3,,2").is_err());
        assert!(s.parse("3,-1").is_err());
        assert!(s.parse("").is_err());
        assert!(s.parse("a").is_err());
        let huge = s.parse("123456789012345678901234567890,5").unwrap();
        assert_eq!(
            Staircase.value(&huge).unwrap().to_string(),
            "123456789012345678901234567890"
        );
    }

    #[test]
    fn moves_are_described() {
        let mut s = Staircase;
        let p = s.parse("3,1,2").unwrap();
        let moves = s.moves(&p).unwrap();
        assert_eq!(moves.len(), 6);
        // Long staircases with many coins are not listed move by move.
        let long = s.parse(&vec!["100"; 10_000].join(",")).unwrap();
        assert!(matches!(s.moves(&long), Err(Error::TooLarge(_))));
        assert_eq!(
            s.describe_move(&p, &moves[4].to).unwrap(),
            "3,1,2 -> 3,2,1 (1 coin from step 3 to step 2)"
        );
        assert_eq!(
            s.describe_move(&p, &moves[2].to).unwrap(),
            "3,1,2 -> 0,1,2 (3 coins from step 1 off the staircase)"
        );
    }

    proptest! {
        #[test]
        fn theorem_agrees_with_search(p in proptest::collection::vec(0u64..7, 1..6)) {
            let mut solver = Solver::new(StaircaseGame);
            prop_assert_eq!(BigUint::from(solver.value(&p).unwrap()), staircase_value(&big(&p)));
        }

        #[test]
        fn winning_moves_are_every_move_to_the_target(
            p in proptest::collection::vec(0u64..9, 1..6),
            target in 0u64..16,
        ) {
            let mut s = Staircase;
            let position = counts_position(&big(&p));
            let target = Value::finite(target);
            let mut by_rules: Vec<Move> = s
                .moves(&position)
                .unwrap()
                .into_iter()
                .filter(|m| m.value == target)
                .collect();
            let mut fast = s.moves_to(&position, &target, usize::MAX).unwrap();
            by_rules.sort_by(|a, b| a.to.cmp(&b.to));
            fast.sort_by(|a, b| a.to.cmp(&b.to));
            prop_assert_eq!(fast, by_rules);
        }
    }
}
