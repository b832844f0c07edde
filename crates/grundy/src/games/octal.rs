//! Take-and-break games given by octal codes (`0.07`, `4.07`, `0.137`) and
//! hexadecimal codes (`hex:0.F`), with Kayles, Dawson's Kayles and Sticks as
//! named members. Values are tabulated by the engine in
//! [`crate::heap::rare`]; this file reads and writes codes and lists moves.

use crate::error::{Error, Result};
use crate::game::Parts;
use crate::heap::rare::TakeBreak;
use crate::heap::HeapGame;
use smallvec::smallvec;

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
        for (k, &d) in self.rules.digits().iter().enumerate() {
            let k = k as u64;
            if k > n {
                break;
            }
            if d & 1 != 0 && n == k {
                out.push(smallvec![]);
            }
            if d & 2 != 0 && n > k {
                out.push(smallvec![n - k]);
            }
            if d & 4 != 0 && n >= k + 2 {
                let m = n - k;
                for a in 1..=m / 2 {
                    out.push(smallvec![m - a, a]);
                }
            }
            if d & 8 != 0 && n >= k + 3 {
                let m = n - k;
                for a in 1..=m / 3 {
                    for b in a..=(m - a) / 2 {
                        let mut parts: Parts<u64> = smallvec![m - a - b, b, a];
                        parts.sort_unstable_by(|x, y| y.cmp(x));
                        out.push(parts);
                    }
                }
            }
        }
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
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GrundysGame;

impl HeapGame for GrundysGame {
    fn heap_options(&self, n: u64, out: &mut Vec<Parts<u64>>) {
        for a in 1..n.div_ceil(2) {
            out.push(smallvec![n - a, a]);
        }
    }

    fn dense_value(&self, n: usize, table: &[u32], scratch: &mut crate::heap::Scratch) -> u32 {
        for a in 1..n.div_ceil(2) {
            scratch.mex.insert((table[a] ^ table[n - a]) as u64);
        }
        scratch.mex.take() as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
