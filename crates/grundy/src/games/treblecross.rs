//! Treblecross: a row of cells; a player marks an empty cell, and whoever
//! makes three marked cells in a row wins.
//!
//! Nobody sane marks a cell within distance 2 of a mark: the opponent would
//! complete three at once. So while no three can be completed, the row falls
//! into independent gaps of *safe* cells, and marking a safe cell removes it
//! and the two cells on each side from play. On a gap of `m` safe cells that
//! is the octal game 0.11337 (removing 1 to 5 cells: 5 from the middle
//! leaving two gaps, 3 or 4 at an edge, everything when the gap is short),
//! derived here and checked against brute-force search of whole rows in the
//! tests. A player with no safe cell must hand the opponent the win, exactly
//! as a player with no move loses (a row of at least 3 cells cannot fill up
//! without three in a row, so there are no draws; shorter rows are refused),
//! so the Grundy value of a row is the XOR of its gaps' values and it adds to
//! other games normally. A row where three can
//! be completed is an immediate win for the player to move ([`Value::Win`]).

use crate::error::{Error, Result};
use crate::family::{Family, Move};
use crate::heap::HeapTable;
use crate::nimber::Value;
use crate::position::Position;

use super::octal::TakeBreakGame;

/// The longest row accepted.
pub const MAX_CELLS: usize = 10_000_000;

/// The Treblecross family.
pub struct Treblecross {
    gaps: TakeBreakGame,
    table: HeapTable,
}

impl Default for Treblecross {
    fn default() -> Self {
        Self::new()
    }
}

/// A parsed row: `true` for a marked cell.
type Row = Vec<bool>;

impl Treblecross {
    /// The family.
    pub fn new() -> Self {
        Treblecross {
            gaps: TakeBreakGame::from_digits(&[0, 1, 1, 3, 3, 7], false).expect("a valid code"),
            table: HeapTable::new(),
        }
    }

    /// The row a position stands for (its text, checked).
    fn row_of(position: &Position) -> Result<Row> {
        match position {
            Position::Text(text) => Self::parse_row(text),
            other => Err(Error::invalid(format!(
                "{other} is not a Treblecross row (a row is text of . and X)"
            ))),
        }
    }

    /// Reads a row of `.` (empty) and `X` (marked) cells.
    pub fn parse_row(text: &str) -> Result<Row> {
        if text.chars().count() < 3 {
            return Err(Error::syntax(
                "a Treblecross row needs at least 3 cells (a shorter row can never have three in a row)",
                text,
                None,
            ));
        }
        if text.len() > MAX_CELLS {
            return Err(Error::TooLarge(format!(
                "rows are limited to {MAX_CELLS} cells"
            )));
        }
        let mut row = Vec::with_capacity(text.len());
        for (i, c) in text.chars().enumerate() {
            match c {
                '.' => row.push(false),
                'X' | 'x' => row.push(true),
                _ => {
                    return Err(Error::syntax(
                        format!("{c:?} is not a cell: use . for empty and X for marked"),
                        text,
                        Some(i),
                    ))
                }
            }
        }
        if let Some(i) = (2..row.len()).find(|&i| row[i] && row[i - 1] && row[i - 2]) {
            return Err(Error::syntax(
                "this row already has three marks in a row: the game is over",
                text,
                Some(i - 2),
            ));
        }
        Ok(row)
    }

    fn show(row: &[bool]) -> String {
        row.iter().map(|m| if *m { 'X' } else { '.' }).collect()
    }

    /// Empty cells whose mark completes three in a row, ascending.
    pub fn completing_cells(row: &[bool]) -> Vec<usize> {
        let marked = |i: isize| i >= 0 && (i as usize) < row.len() && row[i as usize];
        (0..row.len())
            .filter(|&i| {
                let i = i as isize;
                !row[i as usize]
                    && ((marked(i - 2) && marked(i - 1))
                        || (marked(i - 1) && marked(i + 1))
                        || (marked(i + 1) && marked(i + 2)))
            })
            .collect()
    }

    /// The gaps of safe cells, as (first safe cell, number of safe cells).
    fn gaps(row: &[bool]) -> Vec<(usize, usize)> {
        let n = row.len();
        let mut safe = vec![true; n];
        for (i, &m) in row.iter().enumerate() {
            if m {
                for s in safe
                    .iter_mut()
                    .take((i + 3).min(n))
                    .skip(i.saturating_sub(2))
                {
                    *s = false;
                }
            }
        }
        let mut gaps = Vec::new();
        let mut i = 0;
        while i < n {
            if safe[i] {
                let start = i;
                while i < n && safe[i] {
                    i += 1;
                }
                gaps.push((start, i - start));
            } else {
                i += 1;
            }
        }
        gaps
    }

    fn gap_value(&mut self, m: usize) -> u32 {
        self.table.extend_to(&self.gaps, m);
        self.table.get(m).expect("tabulated")
    }
}

impl Family for Treblecross {
    fn spec(&self) -> String {
        "treblecross".into()
    }

    fn parse(&self, text: &str) -> Result<Position> {
        Ok(Position::Text(Self::show(&Self::parse_row(text)?)))
    }

    fn value(&mut self, position: &Position) -> Result<Value> {
        let row = Self::row_of(position)?;
        if !Self::completing_cells(&row).is_empty() {
            return Ok(Value::Win);
        }
        let gaps = Self::gaps(&row);
        let value = gaps
            .iter()
            .fold(0, |acc, &(_, len)| acc ^ self.gap_value(len));
        Ok(Value::finite(value as u64))
    }

    fn moves(&mut self, position: &Position) -> Result<Vec<Move>> {
        let row = Self::row_of(position)?;
        let mut moves = Vec::new();
        for i in (0..row.len()).filter(|&i| !row[i]) {
            let mut next = row.clone();
            next[i] = true;
            let after = Position::Text(Self::show(&next));
            let value = if (2..next.len()).any(|j| next[j] && next[j - 1] && next[j - 2]) {
                // Three in a row: the game is over and the mover has won.
                Value::zero()
            } else {
                self.value(&after)?
            };
            moves.push(Move {
                to: vec![after],
                value,
            });
        }
        Ok(moves)
    }

    fn moves_to(&mut self, position: &Position, target: &Value, limit: usize) -> Result<Vec<Move>> {
        let row = Self::row_of(position)?;
        let Some(target) = target.as_u64() else {
            return Ok(vec![]);
        };
        // Only safe cells can be good moves; their effect is local to one gap.
        let gaps = Self::gaps(&row);
        let total = gaps
            .iter()
            .fold(0, |acc, &(_, len)| acc ^ self.gap_value(len)) as u64;
        let mut moves = Vec::new();
        for &(start, len) in &gaps {
            let without = total ^ self.gap_value(len) as u64;
            for offset in 0..len {
                let left = offset.saturating_sub(2);
                let right = len.saturating_sub(offset + 3);
                let value = without ^ (self.gap_value(left) ^ self.gap_value(right)) as u64;
                if value == target {
                    if moves.len() == limit {
                        return Ok(moves);
                    }
                    let mut next = row.clone();
                    next[start + offset] = true;
                    moves.push(Move {
                        to: vec![Position::Text(Self::show(&next))],
                        value: Value::finite(value),
                    });
                }
            }
        }
        Ok(moves)
    }

    fn immediate_wins(&mut self, position: &Position) -> Result<Vec<Move>> {
        let row = Self::row_of(position)?;
        Ok(Self::completing_cells(&row)
            .into_iter()
            .map(|i| {
                let mut next = row.clone();
                next[i] = true;
                Move {
                    to: vec![Position::Text(Self::show(&next))],
                    value: Value::zero(),
                }
            })
            .collect())
    }

    fn show(&self, position: &Position) -> String {
        let position = position.to_string();
        if position.len() > 120 {
            return format!(
                "{} cells, {} marked",
                position.len(),
                position.matches('X').count()
            );
        }
        let numbers: String = (1..=position.len())
            .map(|i| char::from_digit((i % 10) as u32, 10).unwrap())
            .collect();
        format!("{numbers}\n{position}")
    }

    fn ends_game(&self, position: &Position) -> bool {
        position.as_text().is_some_and(|row| row.contains("XXX"))
    }

    fn shorthand(&self, position: &Position, text: &str) -> Option<Vec<Position>> {
        let cell: usize = text.trim().parse().ok()?;
        let mut row: Vec<char> = position.as_text()?.chars().collect();
        if cell == 0 || cell > row.len() || row[cell - 1] != '.' {
            return None;
        }
        row[cell - 1] = 'X';
        Some(vec![Position::Text(row.into_iter().collect())])
    }

    fn describe_move(&self, from: &Position, to: &[Position]) -> Option<String> {
        let to = to.first()?.as_text()?;
        let cell = from
            .as_text()?
            .chars()
            .zip(to.chars())
            .position(|(a, b)| a != b)?;
        Some(format!("mark cell {}", cell + 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    /// Whether the player to move wins, by search over whole rows with the
    /// real rule (completing three wins): no gaps, no Grundy values.
    fn wins(row: &mut Vec<bool>, memo: &mut HashMap<Vec<bool>, bool>) -> bool {
        if let Some(w) = memo.get(row.as_slice()) {
            return *w;
        }
        let mut result = false;
        for i in 0..row.len() {
            if row[i] {
                continue;
            }
            row[i] = true;
            let three = (2..row.len()).any(|j| row[j] && row[j - 1] && row[j - 2]);
            let good = three || !wins(row, memo);
            row[i] = false;
            if good {
                result = true;
                break;
            }
        }
        memo.insert(row.clone(), result);
        result
    }

    fn row_of(bits: u32, len: usize) -> Vec<bool> {
        (0..len).map(|i| bits >> i & 1 == 1).collect()
    }

    #[test]
    fn every_small_row_agrees_with_search() {
        let mut family = Treblecross::new();
        let mut memo = HashMap::new();
        for len in 3..=13 {
            for bits in 0..(1u32 << len) {
                let mut row = row_of(bits, len);
                if (2..len).any(|j| row[j] && row[j - 1] && row[j - 2]) {
                    continue;
                }
                let text = Position::Text(Treblecross::show(&row));
                let value = family.value(&text).unwrap();
                let expected = wins(&mut row, &mut memo);
                assert_eq!(!value.is_zero(), expected, "{text}");
                if expected && value != Value::Win {
                    // The winning moves are exactly the cells after which the opponent loses.
                    let mut good: Vec<Position> = Vec::new();
                    for i in 0..len {
                        if row[i] {
                            continue;
                        }
                        row[i] = true;
                        if !wins(&mut row, &mut memo)
                            && !(2..len).any(|j| row[j] && row[j - 1] && row[j - 2])
                        {
                            good.push(Position::Text(Treblecross::show(&row)));
                        }
                        row[i] = false;
                    }
                    let got: Vec<Position> = family
                        .moves_to(&text, &Value::zero(), usize::MAX)
                        .unwrap()
                        .into_iter()
                        .map(|m| m.to[0].clone())
                        .collect();
                    assert_eq!(got, good, "{text}");
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(40))]
        #[test]
        fn longer_random_rows_agree_with_search(bits in proptest::collection::vec(0u8..4, 14..19)) {
            // About one cell in four marked, never three in a row.
            let mut row: Vec<bool> = bits.iter().map(|b| *b == 0).collect();
            for j in 2..row.len() {
                if row[j] && row[j - 1] && row[j - 2] {
                    row[j] = false;
                }
            }
            let text = Position::Text(Treblecross::show(&row));
            let mut family = Treblecross::new();
            let value = family.value(&text).unwrap();
            let mut memo = HashMap::new();
            prop_assert_eq!(!value.is_zero(), wins(&mut row, &mut memo), "{}", text);
        }
    }

    #[test]
    fn rows_parse() {
        assert!(Treblecross::parse_row("..X...X").is_ok());
        assert!(Treblecross::parse_row("XXX").is_err());
        assert!(Treblecross::parse_row("..o").is_err());
        assert!(Treblecross::parse_row("").is_err());
        assert!(Treblecross::parse_row("..").is_err());
        assert_eq!(
            Treblecross::completing_cells(&Treblecross::parse_row("X.X..XX").unwrap()),
            [1, 4]
        );
    }
}
