//! Positions as they cross the boundary between a family and the rest of the
//! engine: values, not text.
//!
//! A person types a position once, in command-line syntax, and the family
//! reads it ([`Family::parse`](crate::family::Family::parse)); from then on
//! the position travels as a [`Position`]: through sums, moves, misère
//! search, play and JSON. It is written back as text only to be shown
//! ([`Family::format`](crate::family::Family::format)), never to be read
//! again. So a game's own reading of text (a script's `parse`, say, that
//! turns `5` into the pair `[5, 0]`) is applied to what people type and to
//! nothing else, and faces where positions are not text at all (Python
//! objects, JSON from a web page) hand over values directly.
//!
//! The shape is deliberately small: integers of any size (heaps, counters),
//! strings (a Treblecross row, a vertex name) and lists of positions (a
//! square `[r, c]`, a bar `[rows, columns]`, a script's array). Typed
//! positions convert to and from it through [`AsPosition`].

use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{Signed, ToPrimitive};
use std::fmt;

/// A position of some family, as a value.
///
/// ```
/// use grundy::Position;
/// let square = Position::pair(3, 4);
/// assert_eq!(square.to_string(), "3,4");
/// assert_eq!(Position::from(7u64).as_u64(), Some(7));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Position {
    /// An integer of any size: a heap, a counter.
    Int(BigInt),
    /// A string: a row of cells, a vertex name.
    Text(String),
    /// A list of positions: a square, a bar, an array from a script.
    List(Vec<Position>),
    /// A value the library cannot see into, kept by the face that made the
    /// game (a Python object, say), named by a handle into that face's own
    /// table. Only the family that handed it out knows what it stands for and
    /// how to write it; equal handles are equal positions.
    Opaque(u64),
}

impl Position {
    /// A heap or any other non-negative integer.
    pub fn heap(n: impl Into<BigUint>) -> Self {
        Position::Int(BigInt::from_biguint(Sign::Plus, n.into()))
    }

    /// A string position.
    pub fn text(s: impl Into<String>) -> Self {
        Position::Text(s.into())
    }

    /// A pair of integers, such as a square `(r, c)`.
    pub fn pair(a: u64, b: u64) -> Self {
        Position::List(vec![Position::from(a), Position::from(b)])
    }

    /// The integer, if this is a non-negative one.
    pub fn as_biguint(&self) -> Option<BigUint> {
        match self {
            Position::Int(n) if !n.is_negative() => n.to_biguint(),
            _ => None,
        }
    }

    /// The integer, if this is one that fits in a `u64`.
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Position::Int(n) => n.to_u64(),
            _ => None,
        }
    }

    /// The string, if this is one.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Position::Text(s) => Some(s),
            _ => None,
        }
    }

    /// The items, if this is a list.
    pub fn as_list(&self) -> Option<&[Position]> {
        match self {
            Position::List(items) => Some(items),
            _ => None,
        }
    }
}

impl From<u64> for Position {
    fn from(n: u64) -> Self {
        Position::Int(BigInt::from(n))
    }
}

impl From<i64> for Position {
    fn from(n: i64) -> Self {
        Position::Int(BigInt::from(n))
    }
}

impl From<BigUint> for Position {
    fn from(n: BigUint) -> Self {
        Position::heap(n)
    }
}

impl From<&str> for Position {
    fn from(s: &str) -> Self {
        Position::Text(s.to_string())
    }
}

/// The plain written form: integers in decimal, strings as they are, lists
/// comma-separated with nested lists in brackets (`3,4`, `1,[2,3]`).
/// Families with a syntax of their own (a bar `3x5`) write through
/// [`Family::format`](crate::family::Family::format) instead.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Position::Int(n) => write!(f, "{n}"),
            Position::Text(s) => f.write_str(s),
            Position::Opaque(handle) => write!(f, "#{handle}"),
            Position::List(items) => {
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    match item {
                        Position::List(_) => write!(f, "[{item}]")?,
                        other => write!(f, "{other}")?,
                    }
                }
                Ok(())
            }
        }
    }
}

/// A typed position that converts to and from a [`Position`] losslessly.
pub trait AsPosition: Sized {
    /// The position as a value.
    fn to_position(&self) -> Position;
    /// The typed position, if `position` has the right shape.
    fn from_position(position: &Position) -> Option<Self>;
}

impl AsPosition for u64 {
    fn to_position(&self) -> Position {
        Position::from(*self)
    }
    fn from_position(position: &Position) -> Option<Self> {
        position.as_u64()
    }
}

impl AsPosition for i64 {
    fn to_position(&self) -> Position {
        Position::from(*self)
    }
    fn from_position(position: &Position) -> Option<Self> {
        match position {
            Position::Int(n) => n.to_i64(),
            _ => None,
        }
    }
}

impl AsPosition for BigUint {
    fn to_position(&self) -> Position {
        Position::heap(self.clone())
    }
    fn from_position(position: &Position) -> Option<Self> {
        position.as_biguint()
    }
}

impl AsPosition for String {
    fn to_position(&self) -> Position {
        Position::Text(self.clone())
    }
    fn from_position(position: &Position) -> Option<Self> {
        position.as_text().map(str::to_string)
    }
}

impl<A: AsPosition, B: AsPosition> AsPosition for (A, B) {
    fn to_position(&self) -> Position {
        Position::List(vec![self.0.to_position(), self.1.to_position()])
    }
    fn from_position(position: &Position) -> Option<Self> {
        match position.as_list()? {
            [a, b] => Some((A::from_position(a)?, B::from_position(b)?)),
            _ => None,
        }
    }
}

impl AsPosition for Position {
    fn to_position(&self) -> Position {
        self.clone()
    }
    fn from_position(position: &Position) -> Option<Self> {
        Some(position.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn plain_text() {
        assert_eq!(Position::from(7u64).to_string(), "7");
        assert_eq!(Position::pair(3, 4).to_string(), "3,4");
        assert_eq!(
            Position::List(vec![Position::from(1u64), Position::pair(2, 3)]).to_string(),
            "1,[2,3]"
        );
        assert_eq!(Position::text("..X").to_string(), "..X");
        // Handles are written only where the face that made them cannot be asked.
        assert_eq!(Position::Opaque(3).to_string(), "#3");
        assert_eq!(u64::from_position(&Position::Opaque(3)), None);
    }

    proptest! {
        #[test]
        fn typed_positions_round_trip(a in any::<u64>(), b in any::<i64>(), s in ".*") {
            prop_assert_eq!(u64::from_position(&a.to_position()), Some(a));
            prop_assert_eq!(i64::from_position(&b.to_position()), Some(b));
            prop_assert_eq!(String::from_position(&s.to_position()), Some(s.clone()));
            prop_assert_eq!(<(u64, u64)>::from_position(&(a, a / 2).to_position()), Some((a, a / 2)));
            prop_assert_eq!(BigUint::from_position(&Position::from(a)), Some(BigUint::from(a)));
            prop_assert_eq!(u64::from_position(&Position::text("x")), None);
        }
    }
}
