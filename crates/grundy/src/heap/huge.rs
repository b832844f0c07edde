//! Winning moves of take-and-break games on heaps far too large to list their
//! moves (a heap of 10^30 has 5 x 10^29 ways to split), using a proven period.
//!
//! Splitting m = n - k into a + (m - a): once both parts are past the
//! preperiod e, their values depend only on a mod p, so one period of
//! residues tells which parts work, and the moves are those residues repeated.

use super::rare::TakeBreak;
use crate::period::Periodicity;
use num_bigint::BigUint;
use num_traits::ToPrimitive;

/// The first `limit` moves (in increasing order of the smaller part, after
/// the moves that leave at most one heap) from heap `n` to a position of value
/// `target`; `None` when the code leaves three heaps. With
/// [`TakeBreak::unequal_parts`] the equal split is left out.
pub fn winning_splits(
    rules: &TakeBreak,
    period: &Periodicity,
    n: &BigUint,
    target: u64,
    limit: usize,
) -> Option<Vec<Vec<BigUint>>> {
    if rules.digits().iter().any(|d| d & 8 != 0) {
        return None;
    }
    let value = |h: &BigUint| -> u64 { period.value(h).to_u64().expect("small values") };
    let mut found = Vec::new();
    for (k, &d) in rules.digits().iter().enumerate() {
        let k = BigUint::from(k);
        if &k > n {
            break;
        }
        if d & 1 != 0 && &k == n && target == 0 {
            found.push(vec![]);
        }
        if d & 2 != 0 && n > &k {
            let left = n - &k;
            if value(&left) == target {
                found.push(vec![left]);
            }
        }
    }
    let e = period.preperiod;
    let p = period.period;
    for (k, &d) in rules.digits().iter().enumerate() {
        if d & 4 == 0 || found.len() >= limit {
            continue;
        }
        let m = n - BigUint::from(k);
        // Every part must be past the preperiod or below it: m >= 2e + 2p.
        if m < BigUint::from(2 * e + 2 * p) {
            return None;
        }
        let half = &m / 2u32;
        // Small parts below the preperiod, one by one.
        for a in 1..e.max(1) {
            let a_big = BigUint::from(a);
            if a_big > half {
                break;
            }
            let b = &m - &a_big;
            if rules.unequal() && b == a_big {
                continue;
            }
            if period.value_u64(a) ^ value(&b) == target {
                found.push(vec![b, a_big]);
            }
        }
        // Parts a = e + r + j p: both past the preperiod (m is huge).
        let shift = ((&m - BigUint::from(2 * e)) % BigUint::from(p))
            .to_u64()
            .expect("below p");
        let residues: Vec<u64> = (0..p)
            .filter(|r| {
                let other = (shift + p - r) % p;
                (period.block[*r as usize] ^ period.block[other as usize]) as u64 == target
            })
            .collect();
        let mut j = BigUint::default();
        'rounds: while !residues.is_empty() && found.len() < limit {
            for r in &residues {
                let a = BigUint::from(e + r) + &j * p;
                if a == BigUint::default() {
                    continue;
                }
                if a > half || found.len() >= limit {
                    break 'rounds;
                }
                let b = &m - &a;
                if rules.unequal() && b == a {
                    continue;
                }
                found.push(vec![b, a]);
            }
            j += 1u32;
        }
    }
    found.truncate(limit);
    Some(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::octal::TakeBreakGame;
    use crate::heap::{HeapGame, HeapTable};
    use crate::period::prove;

    /// With unequal parts ([`TakeBreak::unequal_parts`]) the equal split is
    /// never offered: the moves found through a period seen in the values
    /// (no theorem is claimed for these variants; the test only needs the
    /// values of its heaps to follow the period) are the direct enumeration's.
    #[test]
    fn unequal_parts_leave_out_the_equal_split() {
        use crate::heap::rare::Engine;
        use crate::period::PeriodRule;
        let mut checked = 0;
        // Variants with a period (0.7, 4.2 and 0.24 with unequal parts), and
        // some without, skipped.
        for digits in [&[0u8, 7][..], &[4, 2], &[0, 2, 4], &[0, 0, 7], &[0, 6]] {
            let rules = TakeBreak::new(digits).unwrap().unequal_parts();
            let mut engine = Engine::new(rules.clone());
            let _ = engine.extend_to(6000, &mut |_| std::ops::ControlFlow::Continue(()));
            let values = engine.values().to_u32();
            let rule = PeriodRule::TakeBreak {
                max_take: digits.len() as u64 - 1,
                parts: 2,
            };
            let Some(period) = prove(values.len(), |i| values[i], &rule) else {
                continue;
            };
            let first = 2 * period.preperiod + 3 * period.period + 40;
            if first as usize + 4 >= values.len() {
                continue;
            }
            checked += 1;
            // Even and odd heaps: only even ones have an equal split.
            for (n, target) in (first..first + 4).flat_map(|n| (0..8u64).map(move |t| (n, t))) {
                let mut expected: Vec<Vec<BigUint>> = Vec::new();
                for (k, &d) in rules.digits().iter().enumerate() {
                    let m = n - k as u64;
                    if d & 2 != 0 && values[m as usize] as u64 == target {
                        expected.push(vec![BigUint::from(m)]);
                    }
                    for a in 1..m.div_ceil(2) {
                        let v = values[a as usize] ^ values[(m - a) as usize];
                        if d & 4 != 0 && v as u64 == target {
                            expected.push(vec![BigUint::from(m - a), BigUint::from(a)]);
                        }
                    }
                }
                let mut got =
                    winning_splits(&rules, &period, &BigUint::from(n), target, usize::MAX).unwrap();
                expected.sort();
                got.sort();
                assert_eq!(got, expected, "{digits:?} n={n} target={target}");
            }
        }
        assert_eq!(checked, 3, "0.7, 4.2 and 0.24 show their periods");
    }

    /// Through the period, at heaps small enough to enumerate, the moves found
    /// are exactly the direct enumeration's.
    #[test]
    fn residues_agree_with_enumeration() {
        for code in ["0.07", "0.77", "0.137", "4.07", "0.26"] {
            let game = TakeBreakGame::parse(code, false, code, 0).unwrap();
            let mut table = HeapTable::new();
            table.extend_to(&game, 4000);
            let values = table.to_vec();
            let period = prove(values.len(), |i| values[i], &game.period_rule()).unwrap();
            let n = 2 * period.preperiod + 3 * period.period + 40;
            assert!((n as usize) < values.len(), "{code}");
            for target in 0..8u64 {
                let mut options = Vec::new();
                game.heap_options(n, &mut options);
                let mut expected: Vec<Vec<BigUint>> = options
                    .into_iter()
                    .filter(|parts| {
                        parts
                            .iter()
                            .fold(0, |acc, h| acc ^ values[*h as usize] as u64)
                            == target
                    })
                    .map(|parts| parts.iter().map(|h| BigUint::from(*h)).collect())
                    .collect();
                let mut got =
                    winning_splits(game.rules(), &period, &BigUint::from(n), target, usize::MAX)
                        .unwrap();
                expected.sort();
                got.sort();
                assert_eq!(got, expected, "{code} n={n} target={target}");
            }
        }
    }
}
