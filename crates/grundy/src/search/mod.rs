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
pub mod cluster;
pub mod family;
pub mod table;

pub use bits::Bits;

use crate::clock::Instant;
use parking_lot::lock_api::ArcRwLockReadGuard;
use parking_lot::{RawRwLock, RwLock};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use table::{not_bit, Table, NOT_BITS};

/// A game whose positions are sets of cells or vertices, solved by search.
pub trait SearchGame: Clone + Send {
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

/// The search solver for one game: one thread's search, and helpers on the
/// other cores at the root (see [`Searcher::set_threads`]).
///
/// ```
/// use grundy::games::cram::CramGame;
/// use grundy::search::Searcher;
///
/// // Cram on a 3x4 board (a row a byte), with a 1 MiB table.
/// let mut searcher = Searcher::new(CramGame::<u64>::with_stride(4, 8), 1 << 20)?;
/// let board: u64 = 0x0f0f0f; // three rows of four free cells
/// assert_eq!(searcher.nimber(board).unwrap(), 1); // as `grundy value cram 3x4` says
/// assert!(!searcher.has_nimber(board, 0).unwrap()); // a first-player win
/// # Ok::<(), grundy::Error>(())
/// ```
pub struct Searcher<G: SearchGame> {
    main: Worker<G, Main>,
}

/// Threads a search uses: `GRUNDY_THREADS` if set to a number (at most
/// [`thread_cap`]), else one per core.
pub fn default_threads() -> usize {
    threads_from_env().ok().flatten().unwrap_or_else(cores)
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Threads a search runs per core at most: more only take turns on the same
/// cores, each with its own stack and share of the table's traffic (a
/// thousand threads on two cores made Cram 5x8 twenty times slower, and
/// a hundred thousand could not be started at all).
pub const THREADS_PER_CORE: usize = 4;

/// The most threads a search uses on this machine: one in a page, which
/// cannot start threads.
pub fn thread_cap() -> usize {
    if crate::THREADS {
        cores() * THREADS_PER_CORE
    } else {
        1
    }
}

/// `GRUNDY_THREADS` as set, capped at [`thread_cap`]: `None` when it is
/// not set, an error when it is not a whole number of at least 1 (the
/// command line checks it before work).
pub fn threads_from_env() -> Result<Option<usize>, String> {
    Ok(threads_asked()?.map(|n| n.min(thread_cap())))
}

/// What the command line says when `GRUNDY_THREADS` asks for more than
/// [`thread_cap`] threads.
pub fn threads_warning() -> Option<String> {
    match threads_asked() {
        Ok(Some(n)) if n > 1 && !crate::THREADS => Some(format!(
            "GRUNDY_THREADS={n}: grundy in the browser runs one thread; the native grundy runs more"
        )),
        Ok(Some(n)) if n > thread_cap() => Some(format!(
            "GRUNDY_THREADS={n} is more than {THREADS_PER_CORE} threads for each of this machine's {} cores: using {}",
            cores(),
            thread_cap()
        )),
        _ => None,
    }
}

fn threads_asked() -> Result<Option<usize>, String> {
    match crate::page::var("GRUNDY_THREADS") {
        Err(std::env::VarError::NotPresent) => Ok(None),
        Ok(v) => match v.trim().parse::<usize>() {
            Ok(n) if n >= 1 => Ok(Some(n)),
            _ => Err(format!(
                "GRUNDY_THREADS={v:?} is not a number of threads: write a whole number of at least 1, or unset it"
            )),
        },
        Err(std::env::VarError::NotUnicode(_)) => {
            Err("GRUNDY_THREADS is not valid text".to_string())
        }
    }
}

/// What the threads of one search share.
struct Shared<K: Bits> {
    table: Arc<RwLock<Table<K>>>,
    /// Threads waiting to have the table alone (to double or save it): the
    /// others step aside at their next position.
    waiting: AtomicUsize,
    /// Positions searched by all threads (each adds its own now and then).
    nodes: AtomicU64,
    /// The search stops with [`Stop::Budget`] once `nodes` reaches this.
    max_nodes: AtomicU64,
    /// Components some thread is searching right now, by hash (a slot per
    /// hash, 0 when free): the others search other options first and come
    /// back to these later, when the table most often knows them (the
    /// "deferred" searches of Weill's ABDADA, for chess).
    busy: Vec<AtomicU64>,
}

/// log2 of the entries of a worker's cache of keys (256 KiB of 64-bit
/// positions: it stays in the processor's second-level cache).
const KEY_CACHE_BITS: u32 = 14;

/// Slots in [`Shared::busy`].
const BUSY_SLOTS: usize = 1 << 16;

/// One thread's search state. `H` is what only the caller's thread does:
/// reporting progress and saving the table ([`Main`]), or nothing (`()`,
/// the helpers).
struct Worker<G: SearchGame, H: Hooks> {
    game: G,
    shared: Arc<Shared<G::Pos>>,
    /// This thread's share of the table: held while searching, given up
    /// for a moment when another thread needs the table alone.
    tt: ArcRwLockReadGuard<RawRwLock, Table<G::Pos>>,
    nodes: u64,
    /// Of `nodes`, how many were added to the shared count.
    flushed: u64,
    /// `nodes` at which to look at the flags, budget and table next.
    limit: u64,
    expanded: u64,
    pool: Vec<Vec<G::Pos>>,
    open_pool: Vec<Vec<Range>>,
    /// Recent components and their keys, by a hash of the component: the
    /// same regions come up again and again as options are split, and a
    /// key costs more to compute than to look up here.
    keys: Vec<(G::Pos, G::Pos)>,
    stop: Option<Arc<AtomicBool>>,
    /// Set when the other threads of a parallel step have the answer (or
    /// failed): this thread's part is abandoned.
    cancel: Option<Arc<AtomicBool>>,
    /// Threads to search with (at the root; 1: alone).
    threads: usize,
    /// How many tests deep the search is (the root's tests are 0).
    depth: u32,
    /// Whether other threads are searching too (then busy components are
    /// marked and deferred).
    together: bool,
    /// Whether to print each of the root's tests with its time and positions
    /// (`GRUNDY_SEARCH_STATS` set).
    trace: bool,
    hooks: H,
}

/// What only the caller's thread does while searching.
trait Hooks: Sized {
    fn duties<G: SearchGame>(w: &mut Worker<G, Self>) -> R<()>;
}

impl Hooks for () {
    #[inline]
    fn duties<G: SearchGame>(_: &mut Worker<G, ()>) -> R<()> {
        Ok(())
    }
}

/// Progress reports and table saving.
struct Main {
    progress: Option<Box<dyn FnMut(Stats)>>,
    saving: Option<Saving>,
    started: Instant,
    last_report: Instant,
    last_save: Instant,
}

impl Hooks for Main {
    fn duties<G: SearchGame>(w: &mut Worker<G, Main>) -> R<()> {
        if w.hooks.progress.is_some() && w.hooks.last_report.elapsed() >= Duration::from_millis(500)
        {
            w.hooks.last_report = Instant::now();
            let stats = w.stats();
            if let Some(report) = w.hooks.progress.as_mut() {
                report(stats);
            }
        }
        if let Some(s) = &w.hooks.saving {
            if w.hooks.last_save.elapsed() >= s.every {
                w.save().map_err(|e| Stop::Io(e.to_string()))?;
            }
        }
        Ok(())
    }
}

impl<G: SearchGame> Searcher<G> {
    /// A solver with a table of at most `tt_bytes` bytes, searching with as
    /// many threads as the machine has cores.
    pub fn new(game: G, tt_bytes: usize) -> crate::Result<Self> {
        let now = Instant::now();
        let table = Arc::new(RwLock::new(Table::new(tt_bytes)?));
        let shared = Arc::new(Shared {
            table,
            waiting: AtomicUsize::new(0),
            nodes: AtomicU64::new(0),
            max_nodes: AtomicU64::new(u64::MAX),
            busy: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
        });
        let hooks = Main {
            progress: None,
            saving: None,
            started: now,
            last_report: now,
            last_save: now,
        };
        let mut s = Searcher {
            main: Worker::new(game, shared, hooks),
        };
        s.set_threads(default_threads());
        Ok(s)
    }

    /// Searches with `threads` threads (1: alone). The options of the
    /// root's tests are dealt out to the threads as they come free, and the
    /// threads share the table, so what one learns the others use; when one
    /// finds the option a test asks for, the others drop theirs.
    pub fn set_threads(&mut self, threads: usize) {
        let threads = threads.max(1);
        self.main.threads = threads;
        self.main.exclusive(|t| t.set_shared(threads > 1));
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.main.game
    }

    /// Stops the search (with [`Stop::Interrupted`]) once `flag` is set.
    pub fn set_stop_flag(&mut self, flag: Arc<AtomicBool>) {
        self.main.stop = Some(flag);
    }

    /// Stops the search (with [`Stop::Budget`]) after `max` more positions.
    pub fn set_max_nodes(&mut self, max: u64) {
        self.main.flush();
        let shared = &self.main.shared;
        let total = shared.nodes.load(Ordering::Relaxed);
        shared
            .max_nodes
            .store(total.saturating_add(max), Ordering::Relaxed);
        self.main.set_limit(total);
    }

    /// Reports [`Stats`] about twice a second while searching.
    pub fn set_progress(&mut self, report: Box<dyn FnMut(Stats)>) {
        self.main.hooks.progress = Some(report);
    }

    /// Saves the table now and then while searching (see [`Self::save`]).
    pub fn set_saving(&mut self, saving: Saving) {
        self.main.hooks.saving = Some(saving);
    }

    /// Loads a table saved before; the number of entries read, if the file exists.
    pub fn load(&mut self) -> crate::Result<Option<usize>> {
        let Some(s) = &self.main.hooks.saving else {
            return Ok(None);
        };
        let (path, spec) = (s.path.clone(), s.spec.clone());
        self.main.exclusive(|t| t.load(&path, &spec))
    }

    /// Saves the table to the configured file, if any.
    pub fn save(&mut self) -> crate::Result<()> {
        self.main.save()
    }

    /// The statistics so far.
    pub fn stats(&self) -> Stats {
        self.main.stats()
    }

    /// The nimber of a position (a sum of its components).
    pub fn nimber(&mut self, pos: G::Pos) -> R<u32> {
        self.main.nimber(pos)
    }

    /// Whether a position has nimber `k`: with pruning, cheaper than
    /// [`Self::nimber`] when the answer is no (used for winning moves).
    pub fn has_nimber(&mut self, pos: G::Pos, k: u32) -> R<bool> {
        self.main.has_nimber(pos, k)
    }
}

impl<G: SearchGame> Worker<G, Main> {
    fn save(&mut self) -> crate::Result<()> {
        if let Some(s) = &self.hooks.saving {
            let (path, spec) = (s.path.clone(), s.spec.clone());
            self.exclusive(|t| t.save(&path, &spec))?;
            self.hooks.last_save = Instant::now();
        }
        Ok(())
    }

    fn stats(&self) -> Stats {
        Stats {
            nodes: self.shared.nodes.load(Ordering::Relaxed) + (self.nodes - self.flushed),
            expanded: self.expanded,
            entries: self.tt.len(),
            capacity: self.tt.capacity(),
            replaced: self.tt.replaced(),
            elapsed: self.hooks.started.elapsed(),
        }
    }

    /// The nimber of a position (a sum of its components).
    fn nimber(&mut self, pos: G::Pos) -> R<u32> {
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

    fn has_nimber(&mut self, pos: G::Pos, k: u32) -> R<bool> {
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
}

impl<G: SearchGame, H: Hooks> Worker<G, H> {
    fn new(game: G, shared: Arc<Shared<G::Pos>>, hooks: H) -> Self {
        let tt = shared.table.read_arc();
        let mut w = Worker {
            game,
            shared,
            tt,
            nodes: 0,
            flushed: 0,
            limit: 0,
            expanded: 0,
            pool: Vec::new(),
            open_pool: Vec::new(),
            keys: vec![(G::Pos::ZERO, G::Pos::ZERO); 1 << KEY_CACHE_BITS],
            stop: None,
            cancel: None,
            threads: 1,
            depth: 0,
            together: false,
            trace: crate::page::is_set("GRUNDY_SEARCH_STATS"),
            hooks,
        };
        w.set_limit(w.shared.nodes.load(Ordering::Relaxed));
        w
    }

    /// [`Self::some_option_is`] at the root, with helpers: every thread
    /// takes the next option not yet taken, until one finds nimber `k` (the
    /// others are then called off) or none is left.
    fn some_option_is_together(&mut self, flat: &[G::Pos], open: &[Range]) -> R<bool> {
        let next = Deal::new(open.len());
        let found = AtomicBool::new(false);
        let cancel = Arc::new(AtomicBool::new(false));
        self.cancel = Some(cancel.clone());
        self.depth += 1;
        self.together = true;
        let (mine, theirs) = std::thread::scope(|scope| {
            let handles: Vec<_> = (1..self.threads)
                .map(|_| {
                    let (next, found, cancel) = (&next, &found, &cancel);
                    let (game, shared, stop) =
                        (self.game.clone(), self.shared.clone(), self.stop.clone());
                    scope.spawn(move || {
                        // A helper: its own pools, the shared table.
                        let mut h = Worker::new(game, shared, ());
                        h.stop = stop;
                        h.cancel = Some(cancel.clone());
                        h.depth = 1;
                        h.together = true;
                        let r = h.take_options(flat, open, next, found, cancel);
                        (r, h.expanded)
                    })
                })
                .collect();
            let mine = self.take_options(flat, open, &next, &found, &cancel);
            // Waiting, this thread gives up its share of the table: a
            // helper may need the table alone to double it.
            let theirs: Vec<(R<bool>, u64)> = ArcRwLockReadGuard::unlocked(&mut self.tt, || {
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a search thread panicked"))
                    .collect()
            });
            (mine, theirs)
        });
        self.depth -= 1;
        self.together = false;
        self.cancel = None;
        let mut results = vec![mine];
        for (r, expanded) in theirs {
            self.expanded += expanded;
            results.push(r);
        }
        if self
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
        {
            return Err(Stop::Interrupted);
        }
        let mut answer = false;
        for r in results {
            match r {
                Ok(a) => answer |= a,
                // Called off: another thread found it, or failed below.
                Err(Stop::Interrupted) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(answer || found.load(Ordering::Relaxed))
    }

    /// This thread's part of a parallel step: options `open` (in `flat`)
    /// taken one at a time; true if one has nimber `x` (each range's own).
    /// Once none is left to take, the thread joins another thread's option
    /// still being searched, the earliest first: the two search it together,
    /// each putting off what the other is busy with (ABDADA), so that one
    /// big option does not leave a thread idle.
    fn take_options(
        &mut self,
        flat: &[G::Pos],
        open: &[Range],
        deal: &Deal,
        found: &AtomicBool,
        cancel: &AtomicBool,
    ) -> R<bool> {
        let mut parts = self.take();
        let result = loop {
            if found.load(Ordering::Relaxed) {
                break Ok(true);
            }
            let Some(i) = deal.next() else {
                break Ok(false);
            };
            let (from, to, x, _) = open[i];
            parts.clear();
            parts.extend_from_slice(&flat[from as usize..to as usize]);
            match self.sum_is(&mut parts, x) {
                Ok(false) => deal.done(i),
                Ok(true) => {
                    found.store(true, Ordering::Relaxed);
                    cancel.store(true, Ordering::Relaxed);
                    break Ok(true);
                }
                Err(e) => {
                    cancel.store(true, Ordering::Relaxed);
                    break Err(e);
                }
            }
        };
        self.give(parts);
        self.flush();
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
        if self.nodes >= self.limit
            || self.tt.wants_growth()
            || self.shared.waiting.load(Ordering::Relaxed) != 0
        {
            self.check()?;
        }
        Ok(())
    }

    /// Adds this thread's new positions to the shared count; the total.
    fn flush(&mut self) -> u64 {
        let new = self.nodes - self.flushed;
        self.flushed = self.nodes;
        self.shared.nodes.fetch_add(new, Ordering::Relaxed) + new
    }

    /// The next look at the flags: in 4096 positions, or at the budget.
    fn set_limit(&mut self, total: u64) {
        let left = self
            .shared
            .max_nodes
            .load(Ordering::Relaxed)
            .saturating_sub(total);
        self.limit = self.nodes + left.clamp(1, 0x1000);
    }

    #[cold]
    fn check(&mut self) -> R<()> {
        let total = self.flush();
        self.set_limit(total);
        if self
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
            || self
                .cancel
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
        {
            return Err(Stop::Interrupted);
        }
        if total >= self.shared.max_nodes.load(Ordering::Relaxed) {
            return Err(Stop::Budget(total));
        }
        if self.shared.waiting.load(Ordering::Relaxed) != 0 {
            // Another thread needs the table alone: step aside until it is
            // done (its lock is queued first, so the read waits).
            ArcRwLockReadGuard::unlocked(&mut self.tt, std::thread::yield_now);
        }
        if self.tt.wants_growth() {
            self.exclusive(|t| {
                if t.wants_growth() {
                    t.grow();
                }
            });
        }
        H::duties(self)
    }

    /// Runs `f` with the table to itself, once every other thread has
    /// stepped aside.
    fn exclusive<T>(&mut self, f: impl FnOnce(&mut Table<G::Pos>) -> T) -> T {
        let shared = self.shared.clone();
        shared.waiting.fetch_add(1, Ordering::Relaxed);
        ArcRwLockReadGuard::unlocked(&mut self.tt, || {
            let mut table = shared.table.write();
            let out = f(&mut table);
            shared.waiting.fetch_sub(1, Ordering::Relaxed);
            out
        })
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
        if !self.together {
            return self.examine_alone(c, want);
        }
        let (slot, mark) = busy_slot(c);
        self.shared.busy[slot].store(mark, Ordering::Relaxed);
        let result = self.examine_alone(c, want);
        let _ =
            self.shared.busy[slot].compare_exchange(mark, 0, Ordering::Relaxed, Ordering::Relaxed);
        result
    }

    /// Whether another thread is searching one of `parts` (or one with the
    /// same hash).
    fn busy(&self, parts: &[G::Pos]) -> bool {
        parts.iter().any(|&p| {
            let (slot, mark) = busy_slot(p);
            self.shared.busy[slot].load(Ordering::Relaxed) == mark
        })
    }

    /// [`Self::examine`] without marking `c` busy.
    fn examine_alone(&mut self, c: G::Pos, want: Option<u32>) -> R<Option<u32>> {
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
        // The values of the options the table settles, seen on the way:
        // the component has none of them.
        let mut reach = 0u32;
        for &o in &options {
            scratch.clear();
            self.game.split(o, &mut scratch);
            let from = flat.len() as u32;
            for &part in &scratch {
                let key = self.key(part);
                self.tt.prefetch(key);
                flat.push(key);
            }
            cancel_pairs(&mut flat, from as usize);
            ranges.push((from, flat.len() as u32, 0, 0));
            // Asked "is it k?": an option the table already knows to be k
            // answers no, and the options after it are not even split.
            // (The option before this one is checked: its buckets were
            // fetched while this one was split.)
            if let (Some(k), 2..) = (want, ranges.len()) {
                let before = ranges.len() - 2;
                if self.seen_to_be(&flat, &mut ranges[before], k, &mut reach) {
                    cut = true;
                    break;
                }
            }
        }
        if let (Some(k), false, 1..) = (want, cut, ranges.len()) {
            let last = ranges.len() - 1;
            cut = self.seen_to_be(&flat, &mut ranges[last], k, &mut reach);
        }
        self.give(scratch);
        self.give(options);
        if cut {
            self.tt.set_nots(c, reach, self.nodes - start);
            self.give(flat);
            self.give_ranges(ranges);
            return Ok(None);
        }
        let result = self.examine_with(c, want, &mut flat, &ranges, start, reach);
        if self.nodes > start {
            self.expanded += 1;
        }
        self.give(flat);
        self.give_ranges(ranges);
        result
    }

    /// The canonical key of component `part` (not empty), from the cache
    /// of recent keys if there.
    #[inline]
    fn key(&mut self, part: G::Pos) -> G::Pos {
        // One multiply, not the table's `mix`: a poor spread here costs a
        // recomputed key, not a lost entry.
        let x = part.to_u128();
        let h =
            ((x as u64) ^ ((x >> 64) as u64).rotate_left(29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let slot = &mut self.keys[(h >> (64 - KEY_CACHE_BITS)) as usize];
        if slot.0 != part {
            *slot = (part, self.game.canonical(part));
        }
        slot.1
    }

    /// Whether the table settles an option (components `flat[from..to]` of
    /// its `range`) to `k`; the value it settles the option to, if any,
    /// goes into `reach`, and a value below 32 is marked in the range.
    #[inline]
    fn seen_to_be(&self, flat: &[G::Pos], range: &mut Range, k: u32, reach: &mut u32) -> bool {
        let v = self.settled_value(&flat[range.0 as usize..range.1 as usize]);
        if let Some(v) = v {
            *reach |= not_bit(v);
            if v < NOT_BITS {
                *range = (range.0, range.1, v, SETTLED);
            }
        }
        v == Some(k)
    }

    /// The nimber of an option whose every component the table knows.
    #[inline]
    fn settled_value(&self, parts: &[G::Pos]) -> Option<u32> {
        let mut x = 0;
        for &part in parts {
            x ^= self.tt.get(part).exact?;
        }
        Some(x)
    }

    fn examine_with(
        &mut self,
        c: G::Pos,
        want: Option<u32>,
        flat: &mut [G::Pos],
        ranges: &[Range],
        start: u64,
        reach: u32,
    ) -> R<Option<u32>> {
        if let Some(k) = want {
            // The cheap cutoff first: an option of nimber k.
            if self.option_test(flat, ranges, k)? {
                self.tt.set_nots(c, reach | not_bit(k), self.nodes - start);
                return Ok(None);
            }
        }
        // The least value no option has is the nimber (below `want`, if
        // asked: then "no option has k" is already known). The values of
        // the options the table settles alone are read once.
        let (reach, all_known) = self.settled_reach(flat, ranges);
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
                let reached =
                    reach & (1 << k) != 0 || (!all_known && self.option_test(flat, ranges, k)?);
                if !reached {
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

    /// The values (below 32) of the options whose every component the table
    /// knows, as bits, and whether that is every option.
    fn settled_reach(&self, flat: &[G::Pos], ranges: &[Range]) -> (u32, bool) {
        let (mut reach, mut all) = (0u32, true);
        for &(from, to, value, mark) in ranges {
            if mark == SETTLED {
                reach |= not_bit(value);
                continue;
            }
            match self.settled_value(&flat[from as usize..to as usize]) {
                Some(v) => reach |= not_bit(v),
                None => all = false,
            }
        }
        (reach, all)
    }

    /// [`Self::some_option_is`], traced at the root when asked.
    fn option_test(&mut self, flat: &mut [G::Pos], ranges: &[Range], k: u32) -> R<bool> {
        if !(self.trace && self.depth == 0) {
            return self.some_option_is(flat, ranges, k);
        }
        let (started, nodes) = (Instant::now(), self.flush());
        let found = self.some_option_is(flat, ranges, k);
        let answer = match &found {
            Ok(true) => "yes",
            Ok(false) => "no",
            Err(_) => "stopped",
        };
        crate::page::note(&format!(
            "search: root test \"some option has nimber {k}\": {answer} after {} positions, {:.2} s",
            self.flush() - nodes,
            started.elapsed().as_secs_f64()
        ));
        found
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
        for &(from, to, _, mark) in ranges {
            if mark == SETTLED {
                // Settled when the options were split: its value is not k
                // (the visit asks only values no settled option has).
                continue;
            }
            let mut x = k;
            let mut unknown = from as usize;
            let mut cost = 0;
            for i in from as usize..to as usize {
                let part = flat[i];
                match self.tt.get(part).exact {
                    Some(v) => x ^= v,
                    None => {
                        // Options whose hardest part has the fewest moves
                        // and cells first: they are settled soonest. (On
                        // Cram, moves alone search half the positions of
                        // cells alone; weighing them 5 to 8 searches 13%
                        // fewer than moves alone on 4x11, 8% on 4x9, 7% on
                        // 6x5 and as many on 5x8.)
                        let (moves, cells) = (self.game.mobility(part), self.game.size(part));
                        cost = cost.max(moves * 40 + cells * 64);
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
            if unknowns == 1 && x < NOT_BITS {
                let not = self.tt.get(flat[from as usize]).not;
                if not & (1 << x) != 0 {
                    continue;
                }
                // A part known to be at least x is x unless one of its
                // options is: the test needs no lower value, so it goes first.
                if x > 0 && not & ((1 << x) - 1) == (1 << x) - 1 {
                    cost /= 2;
                }
            }
            open.push((from, unknown as u32, x, cost));
        }
        // Then search, cheapest options first.
        open.sort_unstable_by_key(|&(_, _, _, cost)| cost);
        if self.depth == 0 && self.threads > 1 && open.len() > 1 {
            let result = self.some_option_is_together(flat, &open);
            self.give_ranges(open);
            return result;
        }
        self.depth += 1;
        let mut result = Ok(false);
        let mut later = self.take_ranges();
        // Options another thread is searching wait until the rest are done.
        for pass in 0..2 {
            let list = if pass == 0 { &open } else { &later };
            for i in 0..list.len() {
                let (from, to, x, cost) = if pass == 0 { open[i] } else { later[i] };
                let parts = &mut flat[from as usize..to as usize];
                if pass == 0 && self.together && self.busy(parts) {
                    later.push((from, to, x, cost));
                    continue;
                }
                match self.sum_is(parts, x) {
                    Ok(false) => {}
                    other => {
                        result = other;
                        break;
                    }
                }
            }
            if !matches!(result, Ok(false)) {
                break;
            }
        }
        self.give_ranges(later);
        self.depth -= 1;
        self.give_ranges(open);
        result
    }
}

/// Drops pairs of equal components from the sum `flat[from..]` (sorting
/// it): a game plus itself has nimber 0.
#[inline]
pub(crate) fn cancel_pairs<P: Ord + Copy>(flat: &mut Vec<P>, from: usize) {
    match flat.len() - from {
        0 | 1 => return,
        2 => {
            if flat[from] == flat[from + 1] {
                flat.truncate(from);
            }
            return;
        }
        _ => {}
    }
    flat[from..].sort_unstable();
    let mut w = from;
    let mut i = from;
    while i < flat.len() {
        if i + 1 < flat.len() && flat[i] == flat[i + 1] {
            i += 2;
        } else {
            flat[w] = flat[i];
            w += 1;
            i += 1;
        }
    }
    flat.truncate(w);
}

/// The options of a parallel step, dealt out to the threads: each option is
/// untaken, taken or done.
struct Deal {
    next: AtomicUsize,
    state: Vec<std::sync::atomic::AtomicU8>,
}

impl Deal {
    const TAKEN: u8 = 1;
    const DONE: u8 = 2;

    fn new(options: usize) -> Self {
        Deal {
            next: AtomicUsize::new(0),
            state: (0..options)
                .map(|_| std::sync::atomic::AtomicU8::new(0))
                .collect(),
        }
    }

    /// The next option to search: one not yet taken, else the earliest one
    /// taken and not done (to search together); None when all are done.
    fn next(&self) -> Option<usize> {
        let i = self.next.fetch_add(1, Ordering::Relaxed);
        if let Some(state) = self.state.get(i) {
            state.store(Self::TAKEN, Ordering::Relaxed);
            return Some(i);
        }
        self.state
            .iter()
            .position(|s| s.load(Ordering::Relaxed) == Self::TAKEN)
    }

    fn done(&self, i: usize) {
        self.state[i].store(Self::DONE, Ordering::Relaxed);
    }
}

/// A component's slot in [`Shared::busy`] and the mark it leaves there.
#[inline]
fn busy_slot<B: Bits>(c: B) -> (usize, u64) {
    let h = c.mix();
    ((h >> 40) as usize % BUSY_SLOTS, h | 1)
}

/// An option's components in the flat list (from, to), with the XOR and
/// cost a test worked out; or with the option's value and [`SETTLED`] when
/// the table settled it as the options were split.
type Range = (u32, u32, u32, u32);

/// Marks a [`Range`] the table settled to its third field.
const SETTLED: u32 = u32::MAX;

#[cfg(test)]
mod tests {
    use super::*;

    /// Kayles on a row of pins as a bit set: a move knocks down one pin or
    /// two adjacent ones; runs of pins are the components.
    #[derive(Clone)]
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
        let mut s = Searcher::new(RowKayles, 1 << 20).unwrap();
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
    fn a_deal_hands_out_each_option_then_the_unfinished_ones() {
        let deal = Deal::new(3);
        assert_eq!(
            (deal.next(), deal.next(), deal.next()),
            (Some(0), Some(1), Some(2))
        );
        deal.done(0);
        // None left to take: the earliest still searched, to join.
        assert_eq!(deal.next(), Some(1));
        deal.done(1);
        assert_eq!(deal.next(), Some(2));
        deal.done(2);
        assert_eq!(deal.next(), None);
        assert_eq!(Deal::new(0).next(), None);
    }

    #[test]
    fn threads_joining_each_others_options_agree_with_one_thread() {
        // Kayles rows of 30 to 40 pins: many options at the root, so the
        // threads run out of options to take and join each other's.
        let mut alone = Searcher::new(RowKayles, 1 << 20).unwrap();
        alone.set_threads(1);
        let mut together = Searcher::new(RowKayles, 1 << 20).unwrap();
        together.set_threads(4);
        for n in 30..40 {
            let pos = (1u64 << n) - 1;
            let v = alone.nimber(pos).unwrap();
            assert_eq!(together.nimber(pos).unwrap(), v, "Kayles {n}");
            assert!(
                together.has_nimber(pos ^ 0b101, v ^ 1).unwrap()
                    == alone.has_nimber(pos ^ 0b101, v ^ 1).unwrap()
            );
        }
    }

    #[test]
    fn stops_on_the_flag_and_the_budget() {
        let mut s = Searcher::new(RowKayles, 1 << 20).unwrap();
        // One thread: helpers add their positions to the shared count only
        // now and then, and on a loaded machine one of them could finish
        // the search before the count shows the budget spent.
        s.set_threads(1);
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
