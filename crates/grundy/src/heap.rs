//! Dense tables for heap games: games whose positions are heap sizes and whose
//! moves leave smaller heaps, so the values of 0, 1, 2, ... can be filled in order.
//!
//! A [`HeapGame`] lists the options of a heap; [`HeapTable`] fills the values
//! bottom-up in one flat array, which is far faster and smaller than a hash memo.
//! Families override [`HeapGame::dense_value`] with a loop that reads the table
//! directly; the default goes through [`HeapGame::heap_options`], and
//! [`HeapAsGame`] exposes any heap game to the plain [`Solver`](crate::solve::Solver),
//! which is the reference the property tests compare against.

pub mod checkpoint;
pub mod huge;
pub mod rare;
pub mod simd;

use crate::game::{Game, Parts};
use crate::nimber::Mex;
use std::ops::ControlFlow;

/// A game played on heaps, in which every move leaves heaps smaller than the one moved on.
pub trait HeapGame {
    /// Appends every option of a heap of size `n`, each as the heaps it leaves
    /// (empty heaps omitted). Every heap left must be smaller than `n`.
    fn heap_options(&self, n: u64, out: &mut Vec<Parts<u64>>);

    /// Gives `visit` the options of heap `n` one at a time, in the order of
    /// [`HeapGame::heap_options`], until it breaks. Games with very many
    /// options (codes that leave three heaps: O(n²) of them) override this,
    /// so that a caller looking for a few never builds the whole list.
    fn each_option(
        &self,
        n: u64,
        visit: &mut dyn FnMut(Parts<u64>) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let mut options = Vec::new();
        self.heap_options(n, &mut options);
        for parts in options {
            visit(parts)?;
        }
        ControlFlow::Continue(())
    }

    /// The value of heap `n`, given `table[m]` for every `m < n` (`table.len() == n`).
    ///
    /// Override with a direct loop over the table for speed; the default
    /// enumerates [`HeapGame::heap_options`].
    fn dense_value(&self, n: usize, table: &[u32], scratch: &mut Scratch) -> u32 {
        scratch.options.clear();
        self.heap_options(n as u64, &mut scratch.options);
        for option in &scratch.options {
            let value = option
                .iter()
                .fold(0u32, |acc, &heap| acc ^ table[heap as usize]);
            scratch.mex.insert(value as u64);
        }
        scratch.mex.take() as u32
    }

    /// The game as a take-and-break code, if it is one: its table is then
    /// filled by the fast [`rare::Engine`] instead of `dense_value`.
    fn take_break(&self) -> Option<rare::TakeBreak> {
        None
    }

    /// How a period of this game can be proven (see [`crate::period`]).
    fn period_rule(&self) -> crate::period::PeriodRule {
        crate::period::PeriodRule::Unknown
    }

    /// The options of a heap too large for a machine word, when there are
    /// few of them (subtraction-like games); `None` when they cannot be listed.
    fn big_options(&self, n: &num_bigint::BigUint) -> Option<Vec<Vec<num_bigint::BigUint>>> {
        let _ = n;
        None
    }
}

/// [`HeapGame::heap_options`] for games that enumerate their options in
/// [`HeapGame::each_option`]: every option, appended to `out`.
pub fn push_options<H: HeapGame + ?Sized>(game: &H, n: u64, out: &mut Vec<Parts<u64>>) {
    let _ = game.each_option(n, &mut |parts| {
        out.push(parts);
        ControlFlow::Continue(())
    });
}

/// Buffers reused across heaps so the table loop does not allocate.
#[derive(Default)]
pub struct Scratch {
    /// The mex accumulator.
    pub mex: Mex,
    /// Options of the current heap, for the default `dense_value`.
    pub options: Vec<Parts<u64>>,
}

/// The values of heaps `0..len()` of one heap game.
///
/// Take-and-break codes are tabulated by the [`rare::Engine`] (two bytes a
/// heap, the rare-value method where values are sparse); every other heap
/// game by its own [`HeapGame::dense_value`] into four-byte values.
///
/// ```
/// use grundy::games::octal::TakeBreakGame;
/// use grundy::heap::HeapTable;
///
/// // Officers (0.6): the rare-value engine fills the table.
/// let officers = TakeBreakGame::from_digits(&[0, 6], false).unwrap();
/// let mut table = HeapTable::new();
/// table.extend_to(&officers, 10_000);
/// assert_eq!(table.len(), 10_001);
/// assert_eq!(&table.to_vec()[..8], &[0, 0, 1, 2, 0, 1, 2, 3]); // OEIS A046695
/// ```
#[derive(Debug, Clone)]
pub struct HeapTable {
    storage: Storage,
}

#[derive(Debug, Clone)]
enum Storage {
    /// Not yet decided: the first extension picks by the game.
    Empty,
    Dense(Vec<u32>),
    TakeBreak(Box<rare::Engine>),
}

impl Default for HeapTable {
    fn default() -> Self {
        HeapTable {
            storage: Storage::Empty,
        }
    }
}

impl HeapTable {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// A table resumed from values saved earlier (see [`checkpoint`]).
    pub fn resume<H: HeapGame + ?Sized>(game: &H, values: rare::Values) -> Self {
        let storage = match game.take_break() {
            Some(rules) => Storage::TakeBreak(Box::new(rare::Engine::resume(rules, values))),
            None => Storage::Dense(values.to_u32()),
        };
        HeapTable { storage }
    }

    /// Number of heaps tabulated.
    pub fn len(&self) -> usize {
        match &self.storage {
            Storage::Empty => 0,
            Storage::Dense(v) => v.len(),
            Storage::TakeBreak(engine) => engine.values().len(),
        }
    }

    /// Whether nothing is tabulated yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value of heap `n`, if tabulated.
    #[inline]
    pub fn get(&self, n: usize) -> Option<u32> {
        match &self.storage {
            Storage::Empty => None,
            Storage::Dense(v) => v.get(n).copied(),
            Storage::TakeBreak(engine) => {
                let values = engine.values();
                (n < values.len()).then(|| values.get(n))
            }
        }
    }

    /// Appends the values of heaps `range`, all tabulated, to `out`.
    pub fn extend_values(&self, range: std::ops::Range<usize>, out: &mut Vec<u64>) {
        match &self.storage {
            Storage::Empty => assert!(range.is_empty(), "heaps not tabulated"),
            Storage::Dense(v) => out.extend(v[range].iter().map(|x| u64::from(*x))),
            Storage::TakeBreak(engine) => match engine.values() {
                rare::Values::Narrow(v) => out.extend(v[range].iter().map(|x| u64::from(*x))),
                rare::Values::Wide(v) => out.extend(v[range].iter().map(|x| u64::from(*x))),
                rare::Values::Packed(p) => out.extend(range.map(|i| u64::from(p.get(i)))),
            },
        }
    }

    /// Every tabulated value, widened to `u32` (a copy for compact tables).
    pub fn to_vec(&self) -> Vec<u32> {
        match &self.storage {
            Storage::Empty => Vec::new(),
            Storage::Dense(v) => v.clone(),
            Storage::TakeBreak(engine) => engine.values().to_u32(),
        }
    }

    /// What `rule` needs of the periods of the suffixes of the first `len`
    /// values ([`crate::period::SuffixPeriods`]), read straight from the
    /// table (panics if fewer are tabulated).
    pub fn suffix_periods(
        &self,
        len: usize,
        rule: &crate::period::PeriodRule,
    ) -> crate::period::SuffixPeriods {
        use crate::period::SuffixPeriods;
        match &self.storage {
            Storage::Empty => SuffixPeriods::of::<u32>(&[][..len], rule),
            Storage::Dense(v) => SuffixPeriods::of(&v[..len], rule),
            Storage::TakeBreak(engine) => match engine.values() {
                rare::Values::Narrow(v) => SuffixPeriods::of(&v[..len], rule),
                rare::Values::Wide(v) => SuffixPeriods::of(&v[..len], rule),
                rare::Values::Packed(p) => {
                    assert!(len <= p.len(), "heaps not tabulated");
                    SuffixPeriods::of_by(len, |i| p.get(i), rule)
                }
            },
        }
    }

    /// The values as a checkpoint holds them, borrowed: saving a checkpoint
    /// of a table of 10^9 values must not hold a second copy of them.
    pub fn checkpoint_slice(&self) -> checkpoint::Slice<'_> {
        match &self.storage {
            Storage::Empty => checkpoint::Slice::Narrow(&[]),
            Storage::Dense(v) => checkpoint::Slice::Wide(v),
            Storage::TakeBreak(engine) => engine.values().into(),
        }
    }

    /// The values in their compact form, for checkpoints.
    pub fn compact(&self) -> rare::Values {
        match &self.storage {
            Storage::Empty => rare::Values::default(),
            Storage::Dense(v) => {
                let mut values = rare::Values::default();
                values.reserve(v.len());
                for x in v {
                    values.push(*x);
                }
                values
            }
            Storage::TakeBreak(engine) => engine.values().clone(),
        }
    }

    /// The take-and-break engine, when this table uses one (for statistics).
    pub fn engine(&self) -> Option<&rare::Engine> {
        match &self.storage {
            Storage::TakeBreak(engine) => Some(engine),
            _ => None,
        }
    }

    /// Fills the table up to and including heap `n`.
    pub fn extend_to<H: HeapGame + ?Sized>(&mut self, game: &H, n: usize) {
        let _ = self.extend_with_progress(game, n, &mut |_| ControlFlow::Continue(()));
    }

    /// Fills the table up to and including heap `n`, calling `progress` with
    /// the number of heaps done every [`rare::PROGRESS_STEP`] heaps; when it
    /// returns `Break` the table stops, keeping every value finished.
    pub fn extend_with_progress<H: HeapGame + ?Sized>(
        &mut self,
        game: &H,
        n: usize,
        progress: &mut dyn FnMut(usize) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if let Storage::Empty = self.storage {
            self.storage = match game.take_break() {
                Some(rules) => Storage::TakeBreak(Box::new(rare::Engine::new(rules))),
                None => Storage::Dense(Vec::new()),
            };
        }
        match &mut self.storage {
            Storage::Empty => unreachable!("decided above"),
            Storage::TakeBreak(engine) => engine.extend_to(n, progress),
            Storage::Dense(values) => {
                if n < values.len() {
                    return ControlFlow::Continue(());
                }
                values.reserve(n + 1 - values.len());
                let mut scratch = Scratch::default();
                while values.len() <= n {
                    let m = values.len();
                    let value = game.dense_value(m, values, &mut scratch);
                    values.push(value);
                    if (m + 1).is_multiple_of(rare::PROGRESS_STEP) && progress(m + 1).is_break() {
                        return ControlFlow::Break(());
                    }
                }
                ControlFlow::Continue(())
            }
        }
    }
}

/// The value of tabulated heap `n` recomputed the plain way, from the
/// definition and the values below `n`: the reference for `--verify`.
///
/// Take-and-break codes use [`rare::TakeBreak::plain_value`]; other games
/// enumerate [`HeapGame::heap_options`].
pub fn reference_value<H: HeapGame + ?Sized>(game: &H, n: usize, table: &HeapTable) -> u32 {
    fn by_options<H: HeapGame + ?Sized, T: Copy + Into<u32>>(
        game: &H,
        n: usize,
        below: &[T],
    ) -> u32 {
        by_options_of(game, n, |h| below[h].into())
    }
    fn by_options_of<H: HeapGame + ?Sized>(
        game: &H,
        n: usize,
        below: impl Fn(usize) -> u32,
    ) -> u32 {
        let mut options = Vec::new();
        game.heap_options(n as u64, &mut options);
        let mut mex = Mex::new();
        for option in &options {
            let value = option.iter().fold(0u32, |acc, &h| acc ^ below(h as usize));
            mex.insert(value as u64);
        }
        mex.take() as u32
    }
    let mut marks = rare::Marks::default();
    match (&table.storage, game.take_break()) {
        (Storage::TakeBreak(engine), Some(rules)) => match engine.values() {
            rare::Values::Narrow(v) => rules.plain_value(n, &v[..n], &mut marks),
            rare::Values::Wide(v) => rules.plain_value(n, &v[..n], &mut marks),
            rare::Values::Packed(p) => {
                assert!(n <= p.len(), "heap {n} is not tabulated");
                rules.plain_value_by(n, |i| p.get(i), &mut marks)
            }
        },
        (Storage::TakeBreak(engine), None) => match engine.values() {
            rare::Values::Narrow(v) => by_options(game, n, &v[..n]),
            rare::Values::Wide(v) => by_options(game, n, &v[..n]),
            rare::Values::Packed(p) => {
                assert!(n <= p.len(), "heap {n} is not tabulated");
                by_options_of(game, n, |i| p.get(i))
            }
        },
        (Storage::Dense(v), _) => by_options(game, n, &v[..n]),
        (Storage::Empty, _) => panic!("heap {n} is not tabulated"),
    }
}

/// Any heap game seen as a [`Game`] on `u64` heaps, for the generic solver.
pub struct HeapAsGame<H>(pub H);

impl<H: HeapGame> Game for HeapAsGame<H> {
    type Position = u64;
    fn options(&self, n: &u64, out: &mut Vec<Parts<u64>>) {
        self.0.heap_options(*n, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use smallvec::smallvec;

    struct Kayles;
    impl HeapGame for Kayles {
        fn heap_options(&self, n: u64, out: &mut Vec<Parts<u64>>) {
            for take in 1..=2u64.min(n) {
                for left in 0..=(n - take) / 2 {
                    let right = n - take - left;
                    out.push(
                        [left, right]
                            .into_iter()
                            .filter(|h| *h > 0)
                            .collect::<Parts<u64>>(),
                    );
                }
            }
            let _: Parts<u64> = smallvec![];
        }
    }

    #[test]
    fn dense_table_agrees_with_the_memo_solver() {
        let mut table = HeapTable::new();
        table.extend_to(&Kayles, 120);
        let mut solver = crate::solve::Solver::new(HeapAsGame(Kayles));
        for n in 0..=120u64 {
            assert_eq!(
                table.get(n as usize).unwrap() as u64,
                solver.value(&n).unwrap()
            );
        }
        assert_eq!(table.len(), 121);
        assert_eq!(table.get(121), None);
        // Kayles is periodic with period 12 from n = 71 on (Guy and Smith).
        for n in 71..=108 {
            assert_eq!(table.get(n), table.get(n + 12));
        }
    }
}
