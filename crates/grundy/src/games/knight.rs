//! The knight game: a knight on an N x N board moves only towards the corner
//! (0, 0), by (+1,-2), (-1,-2), (-2,+1) or (-2,-1); the player who cannot
//! move loses. Several knights on one board are a sum (they never block).

use crate::error::{Error, Result};
use crate::game::{Game, Parts, Syntax};
use smallvec::smallvec;

/// The largest board side accepted.
pub const MAX_SIDE: u64 = 1 << 31;

/// The knight game on an N x N board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Knight {
    side: u64,
}

impl Knight {
    /// The game on a board of side `side` (at least 1).
    pub fn new(side: u64) -> Self {
        Knight { side }
    }

    /// The board side N.
    pub fn side(&self) -> u64 {
        self.side
    }
}

/// The moves of the knight game, as (row, column) steps.
pub const STEPS: [(i64, i64); 4] = [(1, -2), (-1, -2), (-2, 1), (-2, -1)];

impl Game for Knight {
    type Position = (u64, u64);

    fn options(&self, &(r, c): &(u64, u64), out: &mut Vec<Parts<(u64, u64)>>) {
        for (dr, dc) in STEPS {
            let (nr, nc) = (r as i64 + dr, c as i64 + dc);
            if nr >= 0 && nc >= 0 && (nr as u64) < self.side && (nc as u64) < self.side {
                out.push(smallvec![(nr as u64, nc as u64)]);
            }
        }
    }
}

impl Syntax for Knight {
    fn parse_position(&self, text: &str) -> Result<(u64, u64)> {
        let bad = |column: usize| {
            Error::syntax(
                "a square is written r,c (row and column from 0), like 3,4",
                text,
                Some(column),
            )
        };
        let (r, c) = text.split_once(',').ok_or_else(|| bad(text.len()))?;
        let number = |part: &str, offset: usize| -> Result<u64> {
            let digits = part.strip_prefix('-').unwrap_or(part);
            if part.starts_with('-')
                && !digits.is_empty()
                && digits.bytes().all(|b| b.is_ascii_digit())
            {
                return Err(Error::syntax(
                    format!(
                        "square {text} is off the {n}x{n} board (rows and columns count from 0 to {})",
                        self.side - 1,
                        n = self.side
                    ),
                    text,
                    Some(offset),
                ));
            }
            if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad(offset));
            }
            part.parse().map_err(|_| bad(offset))
        };
        let (row, col) = (number(r, 0)?, number(c, r.len() + 1)?);
        if row >= self.side || col >= self.side {
            return Err(Error::invalid(format!(
                "square {row},{col} is off the {n}x{n} board (rows and columns count from 0 to {})",
                self.side - 1,
                n = self.side
            )));
        }
        Ok((row, col))
    }

    fn format_position(&self, &(r, c): &(u64, u64)) -> String {
        format!("{r},{c}")
    }
}

/// The values of every square, rows first, by a dense pass in order of r + c
/// (every move lowers r + c).
pub fn board_values(side: usize) -> Vec<Vec<u32>> {
    let mut values = vec![vec![0u32; side]; side];
    let mut mex = crate::nimber::Mex::new();
    for sum in 0..(2 * side).saturating_sub(1) {
        for r in sum.saturating_sub(side - 1)..=sum.min(side - 1) {
            let c = sum - r;
            for (dr, dc) in STEPS {
                let (nr, nc) = (r as i64 + dr, c as i64 + dc);
                if nr >= 0 && nc >= 0 && (nr as usize) < side && (nc as usize) < side {
                    mex.insert(values[nr as usize][nc as usize] as u64);
                }
            }
            values[r][c] = mex.take() as u32;
        }
    }
    values
}

/// The knight game as a [`Family`](crate::family::Family): the sparse memo for
/// values, and a dense pass for `grundy table`.
pub struct KnightFamily {
    inner: crate::family::GameFamily<Knight>,
    side: u64,
}

/// The largest board `grundy table` prints.
pub const MAX_TABLE_SIDE: u64 = 2000;

impl KnightFamily {
    /// The family for an N x N board.
    pub fn new(side: u64, settings: crate::family::Settings) -> Self {
        KnightFamily {
            inner: crate::family::GameFamily::new(
                format!("knight:{side}"),
                Knight::new(side),
                settings,
                false,
            ),
            side,
        }
    }
}

impl crate::family::Family for KnightFamily {
    fn spec(&self) -> String {
        self.inner.spec()
    }
    fn parse(&self, text: &str) -> Result<crate::Position> {
        self.inner.parse(text)
    }
    fn format(&self, position: &crate::Position) -> String {
        self.inner.format(position)
    }
    fn value(&mut self, position: &crate::Position) -> Result<crate::nimber::Value> {
        self.inner.value(position)
    }
    fn moves(&mut self, position: &crate::Position) -> Result<Vec<crate::family::Move>> {
        self.inner.moves(position)
    }
    fn show(&self, position: &crate::Position) -> String {
        let Ok((r, c)) = self.inner.typed(position) else {
            return position.to_string();
        };
        if self.side > 16 {
            return format!("knight at row {r}, column {c}");
        }
        let mut out = String::new();
        for row in 0..self.side {
            for col in 0..self.side {
                out.push(if (row, col) == (r, c) { 'N' } else { '.' });
                out.push(' ');
            }
            if row + 1 < self.side {
                out.push('\n');
            }
        }
        out
    }

    fn table_is_whole_game(&self) -> bool {
        true
    }

    fn table(&mut self) -> Result<Vec<Vec<crate::nimber::Value>>> {
        if self.side > MAX_TABLE_SIDE {
            return Err(Error::TooLarge(format!(
                "the table of knight:{} would have {} squares; tables go up to {MAX_TABLE_SIDE}x{MAX_TABLE_SIDE}",
                self.side,
                self.side as u128 * self.side as u128
            )));
        }
        Ok(board_values(self.side as usize)
            .into_iter()
            .map(|row| {
                row.into_iter()
                    .map(|v| crate::nimber::Value::finite(v as u64))
                    .collect()
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::Solver;

    #[test]
    fn the_8x8_table() {
        // Computed by the dense pass; the memo solver below checks every
        // square independently, and this pins the table against regressions.
        let expected: [[u32; 8]; 8] = [
            [0, 0, 1, 1, 0, 0, 1, 1],
            [0, 0, 2, 1, 0, 0, 1, 1],
            [1, 2, 2, 2, 3, 2, 2, 2],
            [1, 1, 2, 1, 4, 3, 2, 3],
            [0, 0, 3, 4, 0, 0, 1, 1],
            [0, 0, 2, 3, 0, 0, 2, 1],
            [1, 1, 2, 2, 1, 2, 2, 2],
            [1, 1, 2, 3, 1, 1, 2, 0],
        ];
        let table = board_values(8);
        let mut solver = Solver::new(Knight::new(8));
        for (r, row) in table.iter().enumerate() {
            for (c, value) in row.iter().enumerate() {
                assert_eq!(solver.value(&(r as u64, c as u64)).unwrap(), *value as u64);
            }
        }
        for (r, row) in expected.iter().enumerate() {
            assert_eq!(&table[r][..], &row[..], "row {r}");
        }
    }

    #[test]
    fn squares_parse() {
        let k = Knight::new(8);
        assert_eq!(k.parse_position("3,4").unwrap(), (3, 4));
        assert!(k.parse_position("8,0").is_err());
        assert!(k.parse_position("3").is_err());
        assert!(k.parse_position("-1,2").is_err());
        assert!(k.parse_position("a,b").is_err());
    }
}
