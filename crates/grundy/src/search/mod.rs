//! Nimbers of one big position by search: Cram boards, Chomp, Node-Kayles.
//!
//! Heap games have dense tables; a board of forty cells does not (2^40
//! subsets). This solver finds the nimber of one position by depth-first
//! search with the methods of the field's record computations:
//!
//! - **Decomposition**: a position falls apart into independent components
//!   (regions of a Cram board, pieces of a graph) whose nimbers add by XOR
//!   (Sprague–Grundy). Components without moves are dropped.
//! - **Canonical forms**: each component is keyed by a representative of its
//!   symmetry class ([`SearchGame::canonical`]): a Cram region moved to the
//!   corner and turned the way that gives the least key, a Chomp diagram or
//!   its transpose.
//! - **Nimber search by tests, not by mex**: the nimber of a component C is
//!   the least k for which C + *k is a second-player win, and that test
//!   needs only *one* option of each kind as a witness: C has nimber k if no
//!   option has nimber k and, for each j < k, C's nimber is not j. A sum
//!   option is tested by computing the exact nimbers of all its components
//!   but the largest and testing the largest against the rest's XOR.
//!   This is the method of J. Lemoine and S. Viennot, *Nimbers are
//!   inevitable*, Theoretical Computer Science 462 (2012) 70–79, which
//!   P. Beling and M. Rogalski, *On pruning search trees of impartial
//!   games*, Artificial Intelligence 283 (2020) 103262, compare with mex
//!   search and improve. From the latter we take the bound that a nimber is
//!   at most the number of options (a test for a larger k fails at once)
//!   and the pruning by knowledge kept between tests: every failed test
//!   leaves "not k" in the table, so later tests of the same component skip
//!   the values already excluded.
//! - **Enhanced transposition cutoffs**: before searching any option, all
//!   options are first looked up in the table; one already known to have
//!   the wanted nimber ends the test without search, and options known not
//!   to are skipped. Options left to search go smallest first.
//! - **A transposition table** with a memory budget and replacement
//!   ([`table::Table`]), saved to a file now and then and on Ctrl-C, and
//!   loaded again, so that runs of hours resume where they stopped.
//!
//! The memo [`Solver`](crate::solve::Solver) stays the reference: property
//! tests check this search against it on every small board.

pub mod bits;
pub mod family;
pub mod table;

pub use bits::Bits;

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use table::{Table, NOT_BITS};

/// A game whose positions are sets of cells or vertices, solved by search.
pub trait SearchGame: Send {
    /// A position: the set of cells still free, of vertices still there.
    type Pos: Bits;

    /// Appends the independent components of `pos` that have moves; the
    /// rest have nimber 0 and are left out.
    fn split(&self, pos: Self::Pos, out: &mut Vec<Self::Pos>);

    /// Appends the position after each move of the component `pos` (not
    /// yet split).
    fn options(&self, pos: Self::Pos, out: &mut Vec<Self::Pos>);

    /// The representative of `pos`'s symmetry class: the table key.
    fn canonical(&self, pos: Self::Pos) -> Self::Pos {
        pos
    }

    /// What a theorem tells of a component's nimber without search (a Cram
    /// region symmetric under a half turn is a second-player win, or a
    /// first-player win when the centre is a free domino place: the player
    /// who copies the other's moves wins).
    fn settled(&self, pos: Self::Pos) -> Known {
        let _ = pos;
        Known::Nothing
    }

    /// A position handed in from outside (a family's layout, widened to
    /// 128 bits) in the game's own layout.
    fn import(&self, pos: u128) -> Self::Pos {
        Self::Pos::from_u128(pos)
    }

    /// A position in the family's layout, widened to 128 bits.
    fn export(&self, pos: Self::Pos) -> u128 {
        pos.to_u128()
    }

    /// How many moves a component has (for ordering).
    fn mobility(&self, pos: Self::Pos) -> u32 {
        self.size(pos)
    }

    /// A measure of a component's size: the largest of a sum is searched,
    /// the others are computed exactly.
    fn size(&self, pos: Self::Pos) -> u32 {
        pos.count()
    }
}

/// What [`SearchGame::settled`] tells of a component.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Known {
    /// Nothing: search it.
    Nothing,
    /// Its nimber.
    Exact(u32),
    /// Its nimber is not 0 (the first player wins).
    NotZero,
}

/// Why a search stopped before its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// The stop flag was set (Ctrl-C, a time budget).
    Interrupted,
    /// More positions were searched than allowed.
    Budget(u64),
    /// Saving the table failed.
    Io(String),
}

/// How far a search has come.
#[derive(Debug, Clone, Copy)]
pub struct Stats {
    /// Positions searched (tests started).
    pub nodes: u64,
    /// Positions whose search went on to search an option (the rest were
    /// settled by the table's entries for their options).
    pub expanded: u64,
    /// Entries in the table.
    pub entries: usize,
    /// The most entries the table may hold.
    pub capacity: usize,
    /// Entries replaced because the table was full.
    pub replaced: u64,
    /// Time spent searching.
    pub elapsed: Duration,
}

type R<T> = std::result::Result<T, Stop>;

/// Where and how often to save the table.
pub struct Saving {
    /// The file.
    pub path: PathBuf,
    /// The game's spec, written in the file and checked on loading.
    pub spec: String,
    /// Time between saves.
    pub every: Duration,
}

/// The search solver for one game.
pub struct Searcher<G: SearchGame> {
    game: G,
    tt: Table<G::Pos>,
    nodes: u64,
    expanded: u64,
    max_nodes: u64,
    pool: Vec<Vec<G::Pos>>,
    open_pool: Vec<Vec<Range>>,
    stop: Option<Arc<AtomicBool>>,
    progress: Option<Box<dyn FnMut(Stats)>>,
    saving: Option<Saving>,
    started: Instant,
    last_report: Instant,
    last_save: Instant,
}

impl<G: SearchGame> Searcher<G> {
    /// A solver with a table of at most `tt_bytes` bytes and `max_entries` entries.
    pub fn new(game: G, tt_bytes: usize, max_entries: usize) -> crate::Result<Self> {
        let now = Instant::now();
        Ok(Searcher {
            game,
            tt: Table::new(tt_bytes, max_entries)?,
            nodes: 0,
            expanded: 0,
            max_nodes: u64::MAX,
            pool: Vec::new(),
            open_pool: Vec::new(),
            stop: None,
            progress: None,
            saving: None,
            started: now,
            last_report: now,
            last_save: now,
        })
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Stops the search (with [`Stop::Interrupted`]) once `flag` is set.
    pub fn set_stop_flag(&mut self, flag: Arc<AtomicBool>) {
        self.stop = Some(flag);
    }

    /// Stops the search (with [`Stop::Budget`]) after `max` more positions.
    pub fn set_max_nodes(&mut self, max: u64) {
        self.max_nodes = self.nodes.saturating_add(max);
    }

    /// Reports [`Stats`] about twice a second while searching.
    pub fn set_progress(&mut self, report: Box<dyn FnMut(Stats)>) {
        self.progress = Some(report);
    }

    /// Saves the table now and then while searching (see [`Self::save`]).
    pub fn set_saving(&mut self, saving: Saving) {
        self.saving = Some(saving);
    }

    /// Loads a table saved before; the number of entries read, if the file exists.
    pub fn load(&mut self) -> crate::Result<Option<usize>> {
        match &self.saving {
            Some(s) => self.tt.load(&s.path, &s.spec),
            None => Ok(None),
        }
    }

    /// Saves the table to the configured file, if any.
    pub fn save(&mut self) -> crate::Result<()> {
        if let Some(s) = &self.saving {
            self.tt.save(&s.path, &s.spec)?;
            self.last_save = Instant::now();
        }
        Ok(())
    }

    /// The statistics so far.
    pub fn stats(&self) -> Stats {
        Stats {
            nodes: self.nodes,
            expanded: self.expanded,
            entries: self.tt.len(),
            capacity: self.tt.capacity(),
            replaced: self.tt.replaced(),
            elapsed: self.started.elapsed(),
        }
    }

    /// The nimber of a position (a sum of its components).
    pub fn nimber(&mut self, pos: G::Pos) -> R<u32> {
        self.check()?;
        let mut comps = self.take();
        self.game.split(pos, &mut comps);
        let mut x = 0;
        let mut result = Ok(());
        for &c in &comps {
            match self.component_nimber(self.game.canonical(c)) {
                Ok(v) => x ^= v,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.give(comps);
        result.map(|_| x)
    }

    /// Whether a position has nimber `k`: with pruning, cheaper than
    /// [`Self::nimber`] when the answer is no (used for winning moves).
    pub fn has_nimber(&mut self, pos: G::Pos, k: u32) -> R<bool> {
        self.check()?;
        let mut comps = self.take();
        self.game.split(pos, &mut comps);
        for c in comps.iter_mut() {
            *c = self.game.canonical(*c);
        }
        let result = self.sum_is(&mut comps, k);
        self.give(comps);
        result
    }

    fn take(&mut self) -> Vec<G::Pos> {
        self.pool.pop().unwrap_or_default()
    }

    fn give(&mut self, mut v: Vec<G::Pos>) {
        v.clear();
        self.pool.push(v);
    }

    #[inline]
    fn tick(&mut self) -> R<()> {
        self.nodes += 1;
        if self.nodes & 0xFFF == 0 || self.nodes >= self.max_nodes {
            self.check()?;
        }
        Ok(())
    }

    #[cold]
    fn check(&mut self) -> R<()> {
        if self
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
        {
            return Err(Stop::Interrupted);
        }
        if self.nodes >= self.max_nodes {
            return Err(Stop::Budget(self.nodes));
        }
        if self.progress.is_some() && self.last_report.elapsed() >= Duration::from_millis(500) {
            self.last_report = Instant::now();
            let stats = self.stats();
            if let Some(report) = self.progress.as_mut() {
                report(stats);
            }
        }
        if let Some(s) = &self.saving {
            if self.last_save.elapsed() >= s.every {
                self.save().map_err(|e| Stop::Io(e.to_string()))?;
            }
        }
        Ok(())
    }

    /// The nimber of one canonical component.
    fn component_nimber(&mut self, c: G::Pos) -> R<u32> {
        let known = self.tt.get(c);
        if let Some(v) = known.exact {
            return Ok(v);
        }
        if known.not == 0 {
            if let Some(v) = self.learn(c) {
                return Ok(v);
            }
        }
        Ok(self
            .examine(c, None)?
            .expect("an exact nimber was asked for"))
    }

    /// Whether the sum of canonical components `comps` has nimber `k`.
    /// Reorders `comps`.
    fn sum_is(&mut self, comps: &mut [G::Pos], k: u32) -> R<bool> {
        if comps.is_empty() {
            return Ok(k == 0);
        }
        // Exact nimbers of all but the largest; the largest is tested.
        let game = &self.game;
        comps.sort_unstable_by_key(|&c| game.size(c));
        let (last, rest) = comps.split_last().expect("not empty");
        let mut x = k;
        for &c in rest {
            x ^= self.component_nimber(c)?;
        }
        self.is_nimber(*last, x)
    }

    /// Whether the canonical component `c` has nimber `k`.
    fn is_nimber(&mut self, c: G::Pos, k: u32) -> R<bool> {
        let known = self.tt.get(c);
        if let Some(v) = known.exact {
            return Ok(v == k);
        }
        if k < NOT_BITS && known.not & (1 << k) != 0 {
            return Ok(false);
        }
        if known.not == 0 {
            if let Some(v) = self.learn(c) {
                return Ok(v == k);
            }
            if k == 0 && self.tt.get(c).not & 1 != 0 {
                return Ok(false);
            }
        }
        Ok(self.examine(c, Some(k))? == Some(k))
    }

    /// Stores what the game's theorems tell of a component seen for the
    /// first time; returns its nimber if that is known.
    fn learn(&mut self, c: G::Pos) -> Option<u32> {
        match self.game.settled(c) {
            Known::Exact(v) => {
                self.tt.set_exact(c, v, 1);
                Some(v)
            }
            Known::NotZero => {
                self.tt.set_not(c, 0, 1);
                None
            }
            Known::Nothing => None,
        }
    }

    /// Searches component `c` (not settled by the table). With `want` None,
    /// finds its nimber; with `Some(k)`, settles whether it is k: the
    /// answer is `Some(nimber)` when the nimber was found on the way, `None`
    /// when only "not k" was. The options are split and keyed once, and
    /// every test of this call reuses them.
    fn examine(&mut self, c: G::Pos, want: Option<u32>) -> R<Option<u32>> {
        self.tick()?;
        let start = self.nodes;
        let mut options = self.take();
        self.game.options(c, &mut options);
        let count = options.len() as u32;
        if want.is_some_and(|k| k > count) {
            // A nimber is at most the number of options (Beling–Rogalski's bound).
            self.give(options);
            self.tt.set_not(c, want.expect("some"), 1);
            return Ok(None);
        }
        // Every option's components, canonical, into `flat`; their table
        // buckets fetched ahead so that the lookups overlap.
        let mut flat = self.take();
        let mut ranges = self.take_ranges();
        let mut scratch = self.take();
        let mut cut = false;
        for &o in &options {
            scratch.clear();
            self.game.split(o, &mut scratch);
            let from = flat.len() as u32;
            for &part in &scratch {
                let key = self.game.canonical(part);
                self.tt.prefetch(key);
                flat.push(key);
            }
            ranges.push((from, flat.len() as u32, 0, 0));
            // Asked "is it k?": an option the table already knows to be k
            // answers no, and the options after it are not even split.
            // (The option before this one is checked: its buckets were
            // fetched while this one was split.)
            if let (Some(k), [.., before, _]) = (want, ranges.as_slice()) {
                if self.known_to_be(&flat[before.0 as usize..before.1 as usize], k) {
                    cut = true;
                    break;
                }
            }
        }
        if let (Some(k), false, Some(last)) = (want, cut, ranges.last()) {
            cut = self.known_to_be(&flat[last.0 as usize..last.1 as usize], k);
        }
        self.give(scratch);
        self.give(options);
        if cut {
            self.tt.set_not(c, want.expect("asked"), self.nodes - start);
            self.give(flat);
            self.give_ranges(ranges);
            return Ok(None);
        }
        let result = self.examine_with(c, want, &mut flat, &ranges, start);
        if self.nodes > start {
            self.expanded += 1;
        }
        self.give(flat);
        self.give_ranges(ranges);
        result
    }

    /// Whether the table knows every one of an option's components and
    /// their nimbers' XOR is `k`.
    #[inline]
    fn known_to_be(&self, parts: &[G::Pos], k: u32) -> bool {
        let mut x = k;
        for &part in parts {
            match self.tt.get(part).exact {
                Some(v) => x ^= v,
                None => return false,
            }
        }
        x == 0
    }

    fn examine_with(
        &mut self,
        c: G::Pos,
        want: Option<u32>,
        flat: &mut [G::Pos],
        ranges: &[Range],
        start: u64,
    ) -> R<Option<u32>> {
        if let Some(k) = want {
            // The cheap cutoff first: an option of nimber k.
            if self.some_option_is(flat, ranges, k)? {
                self.tt.set_not(c, k, self.nodes - start);
                return Ok(None);
            }
        }
        // The least value no option has is the nimber (below `want`, if
        // asked: then "no option has k" is already known).
        let end = want.unwrap_or(u32::MAX);
        let mut k = 0;
        while k < end {
            if k >= NOT_BITS {
                let v = self.mex_of(flat, ranges)?;
                self.tt.set_exact(c, v, self.nodes - start);
                return Ok(Some(v));
            }
            let not = self.tt.get(c).not;
            if not & (1 << k) == 0 {
                if !self.some_option_is(flat, ranges, k)? {
                    self.tt.set_exact(c, k, self.nodes - start);
                    return Ok(Some(k));
                }
                self.tt.set_not(c, k, self.nodes - start);
            }
            k += 1;
        }
        self.tt.set_exact(c, end, self.nodes - start);
        Ok(Some(end))
    }

    /// The mex of the options' exact nimbers (for nimbers beyond the
    /// table's "not" bits, rare in these games).
    fn mex_of(&mut self, flat: &mut [G::Pos], ranges: &[Range]) -> R<u32> {
        let mut seen = vec![false; ranges.len() + 1];
        for &(from, to, _, _) in ranges {
            let mut x = 0;
            for &part in &flat[from as usize..to as usize] {
                x ^= self.component_nimber(part)?;
            }
            if let Some(s) = seen.get_mut(x as usize) {
                *s = true;
            }
        }
        Ok(seen
            .iter()
            .position(|s| !s)
            .expect("a slot past the options") as u32)
    }

    fn take_ranges(&mut self) -> Vec<Range> {
        self.open_pool.pop().unwrap_or_default()
    }

    fn give_ranges(&mut self, mut v: Vec<Range>) {
        v.clear();
        self.open_pool.push(v);
    }

    /// Whether some option (components `flat[from..to]` for each range) has
    /// nimber `k`.
    fn some_option_is(&mut self, flat: &mut [G::Pos], ranges: &[Range], k: u32) -> R<bool> {
        // What the table settles alone (enhanced transposition cutoffs).
        // Unknown components move to the front of their range.
        let mut open = self.take_ranges();
        for &(from, to, _, _) in ranges {
            let mut x = k;
            let mut unknown = from as usize;
            let mut cost = 0;
            for i in from as usize..to as usize {
                let part = flat[i];
                match self.tt.get(part).exact {
                    Some(v) => x ^= v,
                    None => {
                        // Options whose hardest part has the fewest moves
                        // first: they are settled soonest (measured on Cram:
                        // half the positions of ordering by size).
                        cost = cost.max(self.game.mobility(part) * 256 + self.game.size(part));
                        flat.swap(unknown, i);
                        unknown += 1;
                    }
                }
            }
            let unknowns = unknown - from as usize;
            if unknowns == 0 {
                if x == 0 {
                    self.give_ranges(open);
                    return Ok(true);
                }
                continue;
            }
            if unknowns == 1 && x < NOT_BITS && self.tt.get(flat[from as usize]).not & (1 << x) != 0
            {
                continue;
            }
            open.push((from, unknown as u32, x, cost));
        }
        // Then search, cheapest options first.
        open.sort_unstable_by_key(|&(_, _, _, cost)| cost);
        let mut result = Ok(false);
        for &(from, to, x, _) in open.iter() {
            match self.sum_is(&mut flat[from as usize..to as usize], x) {
                Ok(false) => {}
                other => {
                    result = other;
                    break;
                }
            }
        }
        self.give_ranges(open);
        result
    }
}

/// An option's components in the flat list (from, to), with the XOR and
/// cost a test worked out.
type Range = (u32, u32, u32, u32);

#[cfg(test)]
mod tests {
    use super::*;

    /// Kayles on a row of pins as a bit set: a move knocks down one pin or
    /// two adjacent ones; runs of pins are the components.
    struct RowKayles;

    impl SearchGame for RowKayles {
        type Pos = u64;
        fn split(&self, pos: u64, out: &mut Vec<u64>) {
            let mut rest = pos;
            while rest != 0 {
                // The lowest run of ones: adding its lowest bit clears it.
                let run = rest & !rest.wrapping_add(rest.lowest_bit());
                out.push(run >> run.trailing_zeros());
                rest &= !run;
            }
        }
        fn options(&self, pos: u64, out: &mut Vec<u64>) {
            for i in pos.members() {
                out.push(pos & !(1 << i));
                if pos.has(i + 1) {
                    out.push(pos & !(3 << i));
                }
            }
        }
    }

    #[test]
    fn kayles_rows_match_oeis_a002186() {
        // OEIS A002186: Grundy values of Kayles.
        let expected = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2];
        let mut s = Searcher::new(RowKayles, 1 << 20, usize::MAX).unwrap();
        for (n, &v) in expected.iter().enumerate() {
            let pos = if n == 0 { 0 } else { (1u64 << n) - 1 };
            assert_eq!(s.nimber(pos).unwrap(), v, "Kayles {n}");
            for k in 0..8 {
                assert_eq!(s.has_nimber(pos, k).unwrap(), k == v);
            }
        }
        // Rows of 3 and 4 pins with a gap: G(3) ^ G(4) = 3 ^ 1.
        assert_eq!(s.nimber(0b1111_0111).unwrap(), 3 ^ 1);
    }

    #[test]
    fn stops_on_the_flag_and_the_budget() {
        let mut s = Searcher::new(RowKayles, 1 << 20, usize::MAX).unwrap();
        let flag = Arc::new(AtomicBool::new(true));
        s.set_stop_flag(flag.clone());
        assert_eq!(s.nimber((1 << 60) - 1), Err(Stop::Interrupted));
        flag.store(false, Ordering::Relaxed);
        s.set_max_nodes(100);
        assert!(matches!(s.nimber((1 << 60) - 1), Err(Stop::Budget(_))));
        s.set_max_nodes(u64::MAX);
        assert_eq!(s.nimber((1 << 20) - 1), Ok(1)); // OEIS A002186
    }
}
