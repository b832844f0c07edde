//! Take-and-break games given by octal codes (`0.07`, `4.07`, `0.137`) and
//! hexadecimal codes (`hex:0.F`), with Kayles, Dawson's Kayles and Sticks as
//! named members. Values are tabulated by the engine in
//! [`crate::heap::rare`]; this file reads and writes codes and lists moves.

use crate::error::{Error, Result};
use crate::game::Parts;
use crate::heap::rare::TakeBreak;
use crate::heap::HeapGame;
use smallvec::smallvec;
use std::ops::ControlFlow;

/// The most digits after the point a code may have.
pub const MAX_DIGITS: usize = 64;

/// A take-and-break game from its code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TakeBreakGame {
    rules: TakeBreak,
    hexadecimal: bool,
}

impl TakeBreakGame {
    /// Reads a code: `D.DDD...`, octal digits, or hexadecimal ones when
    /// `hexadecimal`. `spec` and `offset` place the caret of an error.
    pub fn parse(code: &str, hexadecimal: bool, spec: &str, offset: usize) -> Result<Self> {
        let radix = if hexadecimal { 16 } else { 8 };
        let (kind, a) = if hexadecimal {
            ("hexadecimal", "a")
        } else {
            ("octal", "an")
        };
        let Some(point) = code.find('.') else {
            return Err(Error::syntax(
                format!("{a} {kind} code needs a point, like 0.07"),
                spec,
                Some(offset + code.len()),
            ));
        };
        let (before, after) = (&code[..point], &code[point + 1..]);
        if after.is_empty() {
            return Err(Error::syntax(
                format!("{a} {kind} code needs digits after the point, like 0.07"),
                spec,
                Some(offset + code.len()),
            ));
        }
        if after.len() > MAX_DIGITS {
            return Err(Error::syntax(
                format!("{a} {kind} code may have at most {MAX_DIGITS} digits after the point"),
                spec,
                Some(offset + point + 1 + MAX_DIGITS),
            ));
        }
        let mut digits = Vec::with_capacity(after.len() + 1);
        let first = if before.is_empty() { "0" } else { before };
        if first.len() > 1 {
            return Err(Error::syntax(
                format!("{a} {kind} code has one digit before the point"),
                spec,
                Some(offset),
            ));
        }
        for (i, c) in first.chars().chain(after.chars()).enumerate() {
            let column = offset + if i == 0 { 0 } else { point + i };
            let Some(d) = c.to_digit(radix) else {
                let hint = if !hexadecimal && c.is_ascii_hexdigit() {
                    " (use hex:... for hexadecimal codes)"
                } else {
                    ""
                };
                return Err(Error::syntax(
                    format!("{c:?} is not {a} {kind} digit{hint}"),
                    spec,
                    Some(column),
                ));
            };
            digits.push(d as u8);
        }
        if digits[0] & 3 != 0 {
            let allowed = if hexadecimal {
                "0, 4, 8 or C"
            } else {
                "0 or 4"
            };
            return Err(Error::syntax(
                format!("the digit before the point must be {allowed}: taking nothing must split the heap"),
                spec,
                Some(offset),
            ));
        }
        let rules = TakeBreak::new(&digits).map_err(|e| Error::syntax(e.0, spec, Some(offset)))?;
        Ok(TakeBreakGame { rules, hexadecimal })
    }

    /// The game with these digits (`digits[0]` before the point).
    pub fn from_digits(digits: &[u8], hexadecimal: bool) -> Result<Self> {
        let rules = TakeBreak::new(digits).map_err(|e| Error::invalid(e.0))?;
        Ok(TakeBreakGame { rules, hexadecimal })
    }

    /// The rules as digits.
    pub fn rules(&self) -> &TakeBreak {
        &self.rules
    }

    /// The most tokens a move removes: the number of digits after the point.
    pub fn max_take(&self) -> usize {
        self.rules.digits().len() - 1
    }

    /// Whether some move leaves three heaps (hexadecimal digits with bit 8).
    pub fn leaves_three(&self) -> bool {
        self.rules.digits().iter().any(|d| d & 8 != 0)
    }

    /// The canonical spec: `0.07`, `4.07`, `hex:0.F`.
    pub fn spec(&self) -> String {
        let digits = self.rules.digits();
        let text: String = digits[1..]
            .iter()
            .map(|d| {
                char::from_digit(*d as u32, 16)
                    .unwrap()
                    .to_ascii_uppercase()
            })
            .collect();
        let text = if text.is_empty() {
            "0".to_string()
        } else {
            text
        };
        let first = char::from_digit(digits[0] as u32, 16)
            .unwrap()
            .to_ascii_uppercase();
        if self.hexadecimal {
            format!("hex:{first}.{text}")
        } else {
            format!("{first}.{text}")
        }
    }
}

impl HeapGame for TakeBreakGame {
    fn heap_options(&self, n: u64, out: &mut Vec<Parts<u64>>) {
        crate::heap::push_options(self, n, out);
    }

    fn each_option(
        &self,
        n: u64,
        visit: &mut dyn FnMut(Parts<u64>) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        for (k, &d) in self.rules.digits().iter().enumerate() {
            let k = k as u64;
            if k > n {
                break;
            }
            if d & 1 != 0 && n == k {
                visit(smallvec![])?;
            }
            if d & 2 != 0 && n > k {
                visit(smallvec![n - k])?;
            }
            if d & 4 != 0 && n >= k + 2 {
                let m = n - k;
                for a in 1..=m / 2 {
                    visit(smallvec![m - a, a])?;
                }
            }
            if d & 8 != 0 && n >= k + 3 {
                let m = n - k;
                for a in 1..=m / 3 {
                    for b in a..=(m - a) / 2 {
                        let mut parts: Parts<u64> = smallvec![m - a - b, b, a];
                        parts.sort_unstable_by(|x, y| y.cmp(x));
                        visit(parts)?;
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }

    fn take_break(&self) -> Option<TakeBreak> {
        Some(self.rules.clone())
    }

    fn period_rule(&self) -> crate::period::PeriodRule {
        crate::period::PeriodRule::TakeBreak {
            max_take: self.max_take() as u64,
            parts: if self.leaves_three() { 3 } else { 2 },
        }
    }
}

/// Grundy's game: split a heap into two unequal non-empty heaps.
///
/// Tables are filled by the rare-value engine as the code `4.` (split
/// without taking) with unequal parts ([`TakeBreak::unequal_parts`]);
/// [`HeapGame::dense_value`] is the plain quadratic loop, kept as the
/// reference the tests compare the engine with. No periodicity theorem
/// applies (the period rule stays unknown).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GrundysGame;

impl GrundysGame {
    /// The rules as the engine reads them: `4.` with unequal parts.
    pub fn rules() -> TakeBreak {
        TakeBreak::new(&[4])
            .expect("4. is a valid code")
            .unequal_parts()
    }
}

impl HeapGame for GrundysGame {
    fn heap_options(&self, n: u64, out: &mut Vec<Parts<u64>>) {
        crate::heap::push_options(self, n, out);
    }

    fn each_option(
        &self,
        n: u64,
        visit: &mut dyn FnMut(Parts<u64>) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        for a in 1..n.div_ceil(2) {
            visit(smallvec![n - a, a])?;
        }
        ControlFlow::Continue(())
    }

    fn dense_value(&self, n: usize, table: &[u32], scratch: &mut crate::heap::Scratch) -> u32 {
        for a in 1..n.div_ceil(2) {
            scratch.mex.insert((table[a] ^ table[n - a]) as u64);
        }
        scratch.mex.take() as u32
    }

    fn take_break(&self) -> Option<TakeBreak> {
        Some(Self::rules())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::rare::Engine;
    use crate::heap::{HeapAsGame, HeapTable};
    use crate::solve::Solver;
    use proptest::prelude::*;

    fn parse(code: &str, hex: bool) -> Result<TakeBreakGame> {
        TakeBreakGame::parse(code, hex, code, 0)
    }

    fn table<H: HeapGame>(game: &H, n: usize) -> Vec<u32> {
        let mut table = HeapTable::new();
        table.extend_to(game, n);
        table.to_vec()
    }

    #[test]
    fn codes_read_and_print() {
        assert_eq!(parse("0.07", false).unwrap().spec(), "0.07");
        assert_eq!(parse(".070", false).unwrap().spec(), "0.07");
        assert_eq!(parse("4.07", false).unwrap().spec(), "4.07");
        assert_eq!(parse("0.f", true).unwrap().spec(), "hex:0.F");
        assert_eq!(parse("0.137", false).unwrap().max_take(), 3);
        assert!(parse("0.F8", true).unwrap().leaves_three());
        for bad in ["0.", "5.1", "0.0x", "0.8", "07", "1.7", "00.7", ""] {
            assert!(parse(bad, false).is_err(), "{bad}");
        }
        assert!(parse(&format!("0.{}", "7".repeat(65)), false).is_err());
    }

    #[test]
    fn literature_sequences() {
        // OEIS A002186 (Kayles, 0.77), A002187 (Dawson's Kayles, 0.07) and
        // A002188 (Grundy's game).
        assert_eq!(
            table(&parse("0.77", false).unwrap(), 20),
            [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1]
        );
        assert_eq!(
            table(&parse("0.07", false).unwrap(), 20),
            [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3]
        );
        assert_eq!(
            table(&GrundysGame, 20),
            [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0]
        );
    }

    /// Grundy's game by its own quadratic loop ([`GrundysGame::dense_value`]),
    /// bypassing the engine: the reference.
    fn grundy_plain(n: usize) -> Vec<u32> {
        let mut values = Vec::with_capacity(n + 1);
        let mut scratch = crate::heap::Scratch::default();
        for m in 0..=n {
            let value = GrundysGame.dense_value(m, &values, &mut scratch);
            values.push(value);
        }
        values
    }

    #[test]
    fn grundys_game_takes_the_rare_value_engine_and_agrees_with_the_plain_loop() {
        const N: usize = 30_000;
        let plain = grundy_plain(N);
        let mut table = HeapTable::new();
        table.extend_to(&GrundysGame, N);
        let engine = table.engine().expect("Grundy's game runs on the engine");
        assert!(engine.rules().unequal());
        assert!(engine.split().is_some(), "a sparse split is found");
        assert!(engine.stats().rare_heaps_computed > 25_000);
        assert_eq!(table.to_vec(), plain);
        // Every path of the engine the game can take, forced: two threads
        // from the first heaps, scalar marks or search, no vector code.
        type Force = fn(&mut Engine);
        let forced: [(&str, Force); 6] = [
            ("two threads", |e| e.parallel_from(0)),
            ("blocks on one thread", |e| {
                e.parallel_from(0);
                e.block_helper(false)
            }),
            ("one thread", |e| e.parallel_from(usize::MAX)),
            ("scalar marks", |e| e.scalar_marks()),
            ("scalar search", |e| e.scalar_search_only()),
            ("no vector code", |e| {
                e.parallel_from(0);
                e.scalar_search()
            }),
        ];
        for path in crate::heap::simd::Path::supported_paths() {
            for (name, force) in forced {
                let mut engine = Engine::new(GrundysGame::rules());
                engine.set_path(path).unwrap();
                force(&mut engine);
                let _ = engine.extend_to(N, &mut |_| std::ops::ControlFlow::Continue(()));
                assert_eq!(engine.values().to_u32(), plain, "{name} on {path}");
            }
        }
        // The plain engine with unequal parts is the same game too.
        let mut engine = Engine::plain(GrundysGame::rules());
        let _ = engine.extend_to(3000, &mut |_| std::ops::ControlFlow::Continue(()));
        assert_eq!(engine.values().to_u32(), plain[..=3000]);
        // And `--verify`'s reference recomputes any heap exactly.
        for n in [0, 1, 2, 3, 1000, 12_345, N] {
            assert_eq!(
                crate::heap::reference_value(&GrundysGame, n, &table),
                plain[n]
            );
        }
    }

    #[test]
    fn grundys_game_rare_values_as_published() {
        // Rare ("sparse") values of Grundy's game: those with an even number
        // of bits under the mask ...11110, every bit but the lowest
        // (Flammenkamp, "Sprague-Grundy Values of Grundy's Game",
        // http://wwwhomes.uni-bielefeld.de/achim/grundy.html, writes it
        // m = 01111..., lowest bit first). His list starts with these heaps
        // and values:
        #[rustfmt::skip]
        let published: [(usize, u32); 48] = [
            (0, 0), (1, 0), (2, 0), (3, 1), (4, 0), (6, 1), (7, 0), (9, 1),
            (10, 0), (12, 1), (15, 1), (20, 0), (23, 0), (26, 0), (28, 1),
            (31, 1), (34, 1), (37, 1), (40, 1), (43, 1), (46, 1), (49, 1),
            (50, 0), (52, 1), (53, 0), (55, 1), (58, 1), (61, 1), (87, 7),
            (90, 7), (93, 7), (146, 6), (149, 6), (152, 6), (158, 11),
            (161, 11), (164, 11), (167, 11), (176, 7), (179, 7), (181, 12),
            (182, 7), (185, 7), (188, 7), (190, 12), (193, 12), (196, 10),
            (231, 10),
        ];
        let mut table = HeapTable::new();
        table.extend_to(&GrundysGame, 100_000);
        let rare: Vec<usize> = (0..=100_000)
            .filter(|&n| (table.get(n).unwrap() & !1).count_ones().is_multiple_of(2))
            .collect();
        let first: Vec<(usize, u32)> = rare[..48]
            .iter()
            .map(|&n| (n, table.get(n).unwrap()))
            .collect();
        assert_eq!(first, published);
        // M. Czajka counts 1274 rare values below 2^21, the last at heap
        // 82,860: all of them are below 10^5 (the
        // run to 2^21 is the ignored test below).
        assert_eq!(rare.len(), 1274);
        assert_eq!(rare.last(), Some(&82_860));
    }

    #[test]
    #[ignore = "2^21 heaps: run with --release --ignored"]
    fn grundys_game_has_no_rare_value_past_82860_below_2_to_21() {
        let n = (1 << 21) - 1;
        let mut table = HeapTable::new();
        table.extend_to(&GrundysGame, n);
        let rare = (0..=n)
            .filter(|&m| (table.get(m).unwrap() & !1).count_ones().is_multiple_of(2))
            .count();
        assert_eq!(rare, 1274);
        assert!((82_861..=n).all(|m| (table.get(m).unwrap() & !1).count_ones() % 2 == 1));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn engine_agrees_with_the_memo_solver(
            digits in proptest::collection::vec(0u8..16, 1..5),
            first in prop_oneof![Just(0u8), Just(4u8), Just(8u8)],
            hex in any::<bool>(),
            n in 0usize..60,
        ) {
            let mut digits: Vec<u8> = digits.into_iter().map(|d| if hex { d } else { d & 7 }).collect();
            digits.insert(0, if hex { first } else { first & 4 });
            let game = TakeBreakGame::from_digits(&digits, hex).unwrap();
            let fast = table(&game, n);
            let mut solver = Solver::new(HeapAsGame(game));
            for (heap, value) in fast.iter().enumerate() {
                prop_assert_eq!(*value as u64, solver.value(&(heap as u64)).unwrap());
            }
        }
    }
}
