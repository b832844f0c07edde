//! Chocolate bars: a move eats the last row or the last column of an R x C
//! bar, or breaks it in two along a line between rows or between columns.
//! A 1 x 1 piece is eaten at once, so it is never a position of its own: a
//! move that would leave one leaves nothing there, and `1x1` has value 0.

use crate::error::{Error, Result};
use crate::family::{dedupe_moves, Family, Move};
use crate::nimber::{Mex, Value};
use crate::position::{AsPosition, Position};

/// The largest side of a bar (the table is side x side).
pub const MAX_SIDE: usize = 2000;

/// The chocolate-bar family, tabulating values densely as bars are asked for.
#[derive(Debug, Clone)]
pub struct Chocolate {
    spec: String,
    /// The table size of `grundy table` (`choco:RxC`), 10 x 10 by default.
    table_size: (usize, usize),
    /// values[r][c] for 0 <= r, c <= side (row or column 0: no bar).
    values: Vec<Vec<u32>>,
}

impl Chocolate {
    /// The family; `table_size` is what `grundy table` prints.
    pub fn new(spec: impl Into<String>, table_size: (usize, usize)) -> Self {
        Chocolate {
            spec: spec.into(),
            table_size,
            values: Vec::new(),
        }
    }

    /// Reads `RxC`.
    pub fn parse_bar(text: &str) -> Result<(usize, usize)> {
        let bad = |column: usize| {
            Error::syntax(
                "a bar is written RxC (rows x columns, each at least 1), like 3x5",
                text,
                Some(column),
            )
        };
        let (r, c) = text.split_once(['x', 'X']).ok_or_else(|| bad(text.len()))?;
        let side = |part: &str, offset: usize| -> Result<usize> {
            if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad(offset));
            }
            match part.parse::<usize>() {
                Ok(0) => Err(bad(offset)),
                Ok(n) if n <= MAX_SIDE => Ok(n),
                _ => Err(Error::TooLarge(format!(
                    "bars are limited to {MAX_SIDE} rows and columns"
                ))),
            }
        };
        Ok((side(r, 0)?, side(c, r.len() + 1)?))
    }

    /// Fills the table to bars of at most `side` rows and columns.
    fn tabulate(&mut self, side: usize) {
        let old = self.values.len();
        if side < old {
            return;
        }
        // Recompute from scratch at the new size: simple, and quadratic growth
        // keeps it rare (sizes double).
        let side = side.max(old * 2).min(MAX_SIDE);
        let mut values = vec![vec![0u32; side + 1]; side + 1];
        let mut mex = Mex::new();
        let v = |values: &Vec<Vec<u32>>, r: usize, c: usize| -> u32 {
            if r * c <= 1 {
                0
            } else {
                values[r][c]
            }
        };
        for r in 1..=side {
            for c in 1..=r {
                if r * c == 1 {
                    continue;
                }
                mex.insert(v(&values, r - 1, c) as u64);
                mex.insert(v(&values, r, c - 1) as u64);
                for a in 1..=r / 2 {
                    mex.insert((v(&values, a, c) ^ v(&values, r - a, c)) as u64);
                }
                for b in 1..=c / 2 {
                    mex.insert((v(&values, r, b) ^ v(&values, r, c - b)) as u64);
                }
                let g = mex.take() as u32;
                values[r][c] = g;
                values[c][r] = g;
            }
        }
        self.values = values;
    }

    fn value_of(&mut self, (r, c): (usize, usize)) -> u32 {
        if r * c <= 1 {
            return 0;
        }
        self.tabulate(r.max(c));
        self.values[r][c]
    }
}

/// What a bar leaves: nothing for a 1 x 1 piece (it is eaten at once).
fn bar(r: usize, c: usize) -> Option<Position> {
    (r * c > 1).then(|| Position::pair(r as u64, c as u64))
}

impl Chocolate {
    /// The bar a position stands for.
    fn bar_of(&self, position: &Position) -> Result<(usize, usize)> {
        <(u64, u64)>::from_position(position)
            .filter(|&(r, c)| {
                (1..=MAX_SIDE as u64).contains(&r) && (1..=MAX_SIDE as u64).contains(&c)
            })
            .map(|(r, c)| (r as usize, c as usize))
            .ok_or_else(|| {
                Error::invalid(format!(
                    "{position} is not a bar of {}: a bar is [rows, columns], each from 1 to {MAX_SIDE}",
                    self.spec
                ))
            })
    }
}

impl Family for Chocolate {
    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn parse(&self, text: &str) -> Result<Position> {
        let (r, c) = Self::parse_bar(text)?;
        Ok(Position::pair(r as u64, c as u64))
    }

    fn format(&self, position: &Position) -> String {
        match self.bar_of(position) {
            Ok((r, c)) => format!("{r}x{c}"),
            Err(_) => position.to_string(),
        }
    }

    fn value(&mut self, position: &Position) -> Result<Value> {
        let bar = self.bar_of(position)?;
        Ok(Value::finite(self.value_of(bar) as u64))
    }

    fn moves(&mut self, position: &Position) -> Result<Vec<Move>> {
        let (r, c) = self.bar_of(position)?;
        if r * c <= 1 {
            return Ok(vec![]);
        }
        let mut options: Vec<Vec<(usize, usize)>> = vec![vec![(r - 1, c)], vec![(r, c - 1)]];
        for a in 1..=r / 2 {
            options.push(vec![(r - a, c), (a, c)]);
        }
        for b in 1..=c / 2 {
            options.push(vec![(r, c - b), (r, b)]);
        }
        let mut moves = Vec::new();
        for parts in options {
            let value = parts.iter().fold(0, |acc, p| acc ^ self.value_of(*p));
            moves.push(Move {
                to: parts.iter().filter_map(|&(r, c)| bar(r, c)).collect(),
                value: Value::finite(value as u64),
            });
        }
        Ok(dedupe_moves(moves))
    }

    fn show(&self, position: &Position) -> String {
        let text = self.format(position);
        match self.bar_of(position) {
            Ok((r, c)) if r <= 12 && c <= 30 => {
                let row = "#".repeat(c);
                format!("{text}\n{}", vec![row; r].join("\n"))
            }
            _ => format!("a {text} bar"),
        }
    }

    fn table_origin(&self) -> [u64; 2] {
        [1, 1]
    }

    fn table(&mut self) -> Result<Vec<Vec<Value>>> {
        let (rows, cols) = self.table_size;
        self.tabulate(rows.max(cols));
        Ok((1..=rows)
            .map(|r| {
                (1..=cols)
                    .map(|c| Value::finite(self.value_of((r, c)) as u64))
                    .collect()
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Plain recursion over the rules, with no table: the reference.
    fn reference(r: usize, c: usize, memo: &mut HashMap<(usize, usize), u64>) -> u64 {
        if r * c <= 1 {
            return 0;
        }
        if let Some(v) = memo.get(&(r, c)) {
            return *v;
        }
        let mut options = vec![reference(r - 1, c, memo), reference(r, c - 1, memo)];
        for a in 1..r {
            options.push(reference(a, c, memo) ^ reference(r - a, c, memo));
        }
        for b in 1..c {
            options.push(reference(r, b, memo) ^ reference(r, c - b, memo));
        }
        let v = crate::nimber::mex(options);
        memo.insert((r, c), v);
        v
    }

    #[test]
    fn table_agrees_with_plain_recursion() {
        let mut family = Chocolate::new("choco", (12, 12));
        let table = family.table().unwrap();
        let mut memo = HashMap::new();
        for r in 1..=12 {
            for c in 1..=12 {
                assert_eq!(
                    table[r - 1][c - 1],
                    Value::finite(reference(r, c, &mut memo)),
                    "{r}x{c}"
                );
            }
        }
        // A 1 x n bar: eat one end or break: it is the octal game 0.7 shifted.
        assert_eq!(
            family.value(&Position::pair(1, 2)).unwrap(),
            Value::finite(1)
        );
        assert_eq!(family.format(&family.parse("3X5").unwrap()), "3x5");
    }

    #[test]
    fn bars_parse() {
        assert_eq!(Chocolate::parse_bar("3x5").unwrap(), (3, 5));
        for bad in ["3", "0x5", "x5", "3x", "3x-1", "axb"] {
            assert!(Chocolate::parse_bar(bad).is_err(), "{bad}");
        }
        assert!(matches!(
            Chocolate::parse_bar("99999x2"),
            Err(Error::TooLarge(_))
        ));
    }
}
