//! The `Game` trait: what a family of impartial games must say about its positions.
//!
//! A move may leave several independent games behind (a take-and-break move
//! splits a heap in two), so an option is a *sum* of positions, a short list of
//! parts. A position may itself fall apart into independent components (a
//! Treblecross row into its gaps); games that know this say so through
//! [`Game::components`], and the solver then memoises the small parts instead of
//! the big whole. [`Game::canonical`] lets symmetric positions share a memo entry.

use smallvec::SmallVec;
use std::fmt::Debug;
use std::hash::Hash;

/// The positions a move leaves: empty when nothing is left, two heaps after a split.
pub type Parts<P> = SmallVec<[P; 2]>;

/// An impartial game under normal play, described by its moves.
///
/// Kayles: knock down one pin or two adjacent ones from a row, which may split
/// it in two; the memo [`Solver`](crate::solve::Solver) does the rest.
///
/// ```
/// use grundy::game::{Game, Parts};
/// use grundy::solve::Solver;
/// use smallvec::smallvec;
///
/// struct Kayles;
///
/// impl Game for Kayles {
///     type Position = u64;
///     fn options(&self, &n: &u64, out: &mut Vec<Parts<u64>>) {
///         for take in 1..=2.min(n) {
///             for left in 0..=(n - take) / 2 {
///                 out.push(smallvec![left, n - take - left]);
///             }
///         }
///     }
/// }
///
/// let mut solver = Solver::new(Kayles);
/// let values: Vec<u64> = (0..12).map(|n| solver.value(&n).unwrap()).collect();
/// assert_eq!(values, [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]); // OEIS A002186
/// ```
pub trait Game {
    /// A position of the game. It must be cheap to clone and hash: it is a memo key.
    type Position: Clone + Eq + Hash + Debug;

    /// Appends every option of `position` to `out`, each as the sum of parts it leaves.
    ///
    /// The order is the order in which moves are listed to the user; duplicates
    /// are allowed (the solver does not care) but listings remove them.
    fn options(&self, position: &Self::Position, out: &mut Vec<Parts<Self::Position>>);

    /// Splits a position into independent components whose values add by XOR.
    ///
    /// The default keeps the position whole. Parts that are terminal may be
    /// dropped: a sum with nothing in it has value 0.
    fn components(&self, position: &Self::Position) -> Parts<Self::Position> {
        let mut parts = Parts::new();
        parts.push(position.clone());
        parts
    }

    /// A representative of the position's symmetry class, used as the memo key.
    fn canonical(&self, position: Self::Position) -> Self::Position {
        position
    }
}

/// Positions of a game that the command line can read and print.
pub trait Syntax: Game {
    /// Reads a position in command-line syntax.
    fn parse_position(&self, text: &str) -> crate::Result<Self::Position>;
    /// Writes a position in command-line syntax; `parse_position` must read it back.
    fn format_position(&self, position: &Self::Position) -> String;
}
