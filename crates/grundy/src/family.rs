//! One object-safe face for every family of games, so that a sum can mix Nim
//! heaps, subtraction games and knights, and the command line can treat them
//! alike.
//!
//! Positions cross this boundary as [`Position`] values. A family reads text
//! only where a person typed it ([`Family::parse`]) and writes text only to
//! show it ([`Family::format`]); everything between (values, moves, sums,
//! search, play) passes the values themselves, so a family's reading of text
//! is never applied to the engine's own writing. Adapters turn a typed
//! [`Game`](crate::game::Game) (solved by the sparse [`Solver`]) or a [`HeapGame`] (solved by a
//! dense [`HeapTable`]) into a [`Family`].

use crate::error::{Error, Result};
use crate::game::Syntax;
use crate::heap::{HeapGame, HeapTable};
use crate::nimber::Value;
use crate::position::{AsPosition, Position};
use crate::solve::{SolveError, Solver};
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use std::ops::ControlFlow;

/// The memory a search's transposition table may use unless told otherwise
/// (`--tt-size`): 1 GiB.
pub const DEFAULT_TT_BYTES: usize = 1 << 30;

/// Limits that every family honours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// The most positions a family may tabulate or remember.
    pub max_states: usize,
    /// The memory a search's transposition table may use, in bytes.
    pub tt_bytes: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            max_states: crate::solve::DEFAULT_MAX_STATES,
            tt_bytes: DEFAULT_TT_BYTES,
        }
    }
}

/// How a long computation reports progress, notices an interruption, and
/// keeps its work (see [`Family::configure_long_run`]).
pub struct LongRun {
    /// Called now and then with (heaps done, heaps wanted).
    pub progress: Box<dyn FnMut(u64, u64)>,
    /// Set (by a Ctrl-C handler, say) to stop the computation.
    pub interrupted: std::sync::Arc<std::sync::atomic::AtomicBool>,
    /// Where to save and resume the table, if anywhere.
    pub checkpoint: Option<std::path::PathBuf>,
    /// How often to save while working.
    pub checkpoint_every: std::time::Duration,
}

/// A row of a board game's table that plays exactly as a heap game, so that
/// its pattern comes from that game's period rather than from the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowGame {
    /// The heap game, as `grundy` reads it (`0.07`, `nim`).
    pub spec: String,
    /// The heap that the board in the table's first column is.
    pub first_heap: u64,
    /// Why the row is that heap game, in a few words.
    pub why: String,
}

/// A move of one component: what it leaves, and the value of what it leaves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Move {
    /// The positions left (empty: nothing is left).
    pub to: Vec<Position>,
    /// The Grundy value of the sum of `to`.
    pub value: Value,
}

/// A family of games, as the command line and sums see it.
///
/// ```
/// use grundy::family::Settings;
/// use grundy::spec::parse_game;
///
/// let mut knight = parse_game("knight:8", Settings::default())?;
/// let square = knight.parse("3,4")?; // what a person types, read once
/// assert_eq!(knight.value(&square)?.to_string(), "4");
/// let moves = knight.moves(&square)?;
/// assert_eq!(knight.format(&moves[0].to[0]), "4,2");
/// # Ok::<(), grundy::Error>(())
/// ```
pub trait Family {
    /// The family's spec in canonical form, e.g. `sub:1,2,3`.
    fn spec(&self) -> String;

    /// Reads a position that a person typed, in command-line syntax, and
    /// checks it is one of this family's.
    fn parse(&self, text: &str) -> Result<Position>;

    /// Writes a position in command-line syntax, to be shown (text output,
    /// JSON). The default is [`Position`]'s plain form (`7`, `3,4`, `..X`).
    fn format(&self, position: &Position) -> String {
        position.to_string()
    }

    /// The Grundy value of a position.
    fn value(&mut self, position: &Position) -> Result<Value>;

    /// Every move from a position, without repeats, in a stable order.
    fn moves(&mut self, position: &Position) -> Result<Vec<Move>>;

    /// The moves whose result has value `target`, at most `limit` of them.
    ///
    /// Families with too many moves to list (a Nim heap of 2^90) override this.
    fn moves_to(&mut self, position: &Position, target: &Value, limit: usize) -> Result<Vec<Move>> {
        Ok(self
            .moves(position)?
            .into_iter()
            .filter(|m| &m.value == target)
            .take(limit)
            .collect())
    }

    /// The first `limit` moves from a position, in the order of
    /// [`Family::moves`], and whether there are more. Families whose
    /// positions have too many moves to list all of them (a heap of a
    /// three-heap code) override this to stop early.
    fn first_moves(&mut self, position: &Position, limit: usize) -> Result<(Vec<Move>, bool)> {
        Ok(first_of(self.moves(position)?, limit))
    }

    /// The board of values of a grid or bar game (`grundy table`), rows first.
    fn table(&mut self) -> Result<Vec<Vec<Value>>> {
        Err(Error::invalid(format!(
            "{} has no table of values; `grundy table` is for board games such as knight:8 or choco:10x10",
            self.spec()
        )))
    }

    /// Whether [`Family::table`] holds every position of the game (a bounded
    /// board such as `knight:8`), so that what fits the table holds for the
    /// whole game.
    fn table_is_whole_game(&self) -> bool {
        false
    }

    /// The position of the first row and column of [`Family::table`], as
    /// two numbers (a chocolate bar's table starts at the 1x1 bar).
    fn table_origin(&self) -> [u64; 2] {
        [0, 0]
    }

    /// The moves that win the whole game at once from this position (a
    /// Treblecross row where three in a row can be completed): asked only of
    /// positions whose value is [`Value::Win`].
    fn immediate_wins(&mut self, position: &Position) -> Result<Vec<Move>> {
        let _ = position;
        Ok(vec![])
    }

    /// The position drawn for a person (`grundy play`): a row of stones, a
    /// board. The default is the position's text.
    fn show(&self, position: &Position) -> String {
        self.format(position)
    }

    /// The heap game that row `row` of [`Family::table`] is (`row` as the
    /// game writes it, from [`Family::table_origin`]), where a row is one.
    fn table_row_game(&self, row: u64) -> Option<RowGame> {
        let _ = row;
        None
    }

    /// Whether reaching this position ends the whole game at once, the mover
    /// winning (three in a row in Treblecross).
    fn ends_game(&self, position: &Position) -> bool {
        let _ = position;
        false
    }

    /// A shorthand for a move that people expect (a cell number in
    /// Treblecross): the parts it leaves, or `None` if `text` is not one.
    fn shorthand(&self, position: &Position, text: &str) -> Option<Vec<Position>> {
        let _ = (position, text);
        None
    }

    /// How to describe a move in words, when the position left is not the
    /// clearest description (Treblecross: "mark cell 7").
    fn describe_move(&self, from: &Position, to: &[Position]) -> Option<String> {
        let _ = (from, to);
        None
    }

    /// Sets how long computations report progress, notice interruption and
    /// save their work. Families whose work is always quick ignore it.
    fn configure_long_run(&mut self, run: LongRun) {
        let _ = run;
    }

    /// Whether [`LongRun::checkpoint`] saves this family's work (a table of
    /// heap values); the others have nothing to save.
    fn saves_checkpoints(&self) -> bool {
        false
    }

    /// Recomputes `samples` tabulated heaps (spread over the table) by the
    /// plain reference method and returns how many were checked; an error if
    /// any differs. Families without a separate fast path check nothing.
    fn verify(&mut self, samples: usize) -> Result<usize> {
        let _ = samples;
        Ok(0)
    }

    /// Finds and, where a theorem allows, proves the period of a heap game,
    /// tabulating at most `max` heaps.
    fn period(&mut self, max: u64) -> Result<crate::period::PeriodReport> {
        let _ = max;
        Err(Error::invalid(format!(
            "{} positions are not heap sizes, so it has no Grundy sequence to be periodic",
            self.spec()
        )))
    }

    /// The most heaps [`Family::period`] tabulates unless told otherwise:
    /// [`crate::period::DEFAULT_MAX`], or fewer where heaps are costly.
    fn default_period_max(&self) -> u64 {
        crate::period::DEFAULT_MAX
    }

    /// Whether [`Family::write_certificate`] writes certificates for this
    /// game: take-and-break codes and Grundy's game.
    fn certifiable(&self) -> bool {
        false
    }

    /// Writes a certificate (see [`crate::certificate`]) of the values of
    /// heaps `0..len`, tabulating them first, and of `claim`.
    fn write_certificate(
        &mut self,
        len: u64,
        claim: Option<&crate::period::Periodicity>,
        out: &mut dyn std::io::Write,
    ) -> Result<crate::certificate::Written> {
        let _ = (len, claim, out);
        Err(Error::invalid(format!(
            "{}: certificates are written for octal and hexadecimal codes and Grundy's game",
            self.spec()
        )))
    }

    /// Whether positions are heap sizes, so that `seq` makes sense.
    fn is_heap_game(&self) -> bool {
        false
    }

    /// How a period of the heaps can be proven from finitely many of them
    /// (see [`crate::period`]): the same rule proves a misère quotient's
    /// heap map periodic, and so the quotient final.
    fn period_rule(&self) -> crate::period::PeriodRule {
        crate::period::PeriodRule::Unknown
    }

    /// The position `seq` calls heap `n`: the integer itself, unless the
    /// family reads a typed `n` as something richer (a script's `parse`).
    fn heap_position(&self, n: u64) -> Result<Position> {
        Ok(Position::from(n))
    }

    /// [`Family::sequence`] a run of consecutive heaps at a time: `sink`
    /// gets the first heap of each run and the run's values, one call for
    /// thousands of values (`seq` writes millions of them). The runs cover
    /// `from..=to` in order; after a failure, the values computed before it
    /// have been handed on.
    fn sequence_runs(
        &mut self,
        from: u64,
        to: u64,
        sink: &mut dyn FnMut(u64, &[u64]) -> Result<()>,
    ) -> Result<()> {
        let mut runs = Runs::new();
        let result = self.sequence(from, to, &mut |n, value| runs.push(n, value, sink));
        runs.finish(result, sink)
    }

    /// Streams the values of heaps `from..=to` to `sink` as (heap, value).
    /// Values are machine words: heap games' values are far smaller than heaps.
    fn sequence(
        &mut self,
        from: u64,
        to: u64,
        sink: &mut dyn FnMut(u64, u64) -> Result<()>,
    ) -> Result<()> {
        if !self.is_heap_game() {
            return Err(Error::invalid(format!(
                "{} positions are not heap sizes, so it has no Grundy sequence (try `grundy table` or `grundy value`)",
                self.spec()
            )));
        }
        for n in from..=to {
            let value = self.value(&self.heap_position(n)?)?;
            let value = value.as_u64().ok_or_else(|| {
                Error::TooLarge(format!("the value of heap {n} is not a machine word"))
            })?;
            sink(n, value)?;
        }
        Ok(())
    }
}

/// The first `limit` of `moves`, and whether there were more.
fn first_of(mut moves: Vec<Move>, limit: usize) -> (Vec<Move>, bool) {
    let more = moves.len() > limit;
    moves.truncate(limit);
    (moves, more)
}

/// For families that stream values without computing them (a period, a
/// closed form): an error once `flag` is up, looked at when `n` is a
/// multiple of 65,536.
pub fn stream_stopped(flag: Option<&std::sync::atomic::AtomicBool>, n: u64) -> Result<()> {
    if n.trailing_zeros() >= 16
        && flag.is_some_and(|flag| flag.load(std::sync::atomic::Ordering::Relaxed))
    {
        return Err(Error::Interrupted(format!(
            "interrupted at heap {n}: the values before it are kept"
        )));
    }
    Ok(())
}

/// Values gathered into runs of consecutive heaps for
/// [`Family::sequence_runs`].
pub struct Runs {
    first: u64,
    values: Vec<u64>,
    /// The sink failed: nothing more goes to it.
    failed: bool,
}

impl Runs {
    /// Values per run.
    const LEN: usize = 4096;

    /// No values yet.
    pub fn new() -> Self {
        Runs {
            first: 0,
            values: Vec::with_capacity(Self::LEN),
            failed: false,
        }
    }

    /// Adds the value of heap `n`, the heap after the last one added (or
    /// the first), handing the run to `sink` when it is full.
    #[inline]
    pub fn push(
        &mut self,
        n: u64,
        value: u64,
        sink: &mut dyn FnMut(u64, &[u64]) -> Result<()>,
    ) -> Result<()> {
        self.push_filled(n, 1, |_, _, values| values.push(value), sink)
    }

    /// Adds the values of heaps `range`, all in `table`.
    fn push_tabulated(
        &mut self,
        table: &crate::heap::HeapTable,
        range: std::ops::Range<usize>,
        sink: &mut dyn FnMut(u64, &[u64]) -> Result<()>,
    ) -> Result<()> {
        let fill = |at: u64, count: usize, values: &mut Vec<u64>| {
            table.extend_values(at as usize..at as usize + count, values)
        };
        self.push_filled(range.start as u64, range.len(), fill, sink)
    }

    /// Adds the values of heaps `first..=last` under `period` (at most a
    /// machine word's worth of heaps apart).
    fn push_periodic(
        &mut self,
        period: &crate::period::Periodicity,
        first: u64,
        last: u64,
        sink: &mut dyn FnMut(u64, &[u64]) -> Result<()>,
    ) -> Result<()> {
        let count = usize::try_from(last - first).expect("a run of heaps in memory") + 1;
        let fill =
            |at: u64, count: usize, values: &mut Vec<u64>| period.extend_values(at, count, values);
        self.push_filled(first, count, fill, sink)
    }

    /// Adds the values of the `count` heaps from `first`, the heap after
    /// the last one added (or the first), a run at a time: `fill(heap, k,
    /// values)` appends those of `k` heaps from `heap`. Each full run goes
    /// to `sink`.
    #[inline]
    fn push_filled(
        &mut self,
        first: u64,
        count: usize,
        mut fill: impl FnMut(u64, usize, &mut Vec<u64>),
        sink: &mut dyn FnMut(u64, &[u64]) -> Result<()>,
    ) -> Result<()> {
        let mut done = 0;
        while done < count {
            // At most the last heap: no overflow.
            let at = first + done as u64;
            if self.values.is_empty() {
                self.first = at;
            }
            debug_assert_eq!(at - self.first, self.values.len() as u64, "heaps in order");
            let k = (count - done).min(Self::LEN - self.values.len());
            fill(at, k, &mut self.values);
            done += k;
            if self.values.len() == Self::LEN {
                self.flush(sink)?;
            }
        }
        Ok(())
    }

    /// Hands the values added so far to `sink`.
    fn flush(&mut self, sink: &mut dyn FnMut(u64, &[u64]) -> Result<()>) -> Result<()> {
        if self.values.is_empty() || self.failed {
            return Ok(());
        }
        let result = sink(self.first, &self.values);
        self.failed = result.is_err();
        self.values.clear();
        result
    }

    /// The end of a stream whose outcome is `result`: what was added goes
    /// to `sink` (unless `sink` failed), also when the stream failed, whose
    /// error is then the one returned.
    pub fn finish(
        mut self,
        result: Result<()>,
        sink: &mut dyn FnMut(u64, &[u64]) -> Result<()>,
    ) -> Result<()> {
        let flushed = self.flush(sink);
        result.and(flushed)
    }
}

impl Default for Runs {
    fn default() -> Self {
        Self::new()
    }
}

/// Turns a solver failure into a user-facing error, naming positions in syntax.
pub fn solve_error<G: Syntax>(game: &G, error: SolveError<G::Position>) -> Error {
    match error {
        SolveError::Budget(limit) => Error::Budget { limit },
        SolveError::Interrupted => Error::Interrupted("interrupted".into()),
        SolveError::Memory(message) => Error::TooLarge(message),
        SolveError::Cycle(positions) => Error::Cycle {
            positions: positions.iter().map(|p| game.format_position(p)).collect(),
        },
    }
}

/// Removes repeated moves (the same multiset of parts), keeping the first.
pub fn dedupe_moves(moves: Vec<Move>) -> Vec<Move> {
    let mut seen = std::collections::HashSet::new();
    moves
        .into_iter()
        .filter(|m| {
            let mut key = m.to.clone();
            key.sort();
            seen.insert(key)
        })
        .collect()
}

/// A [`Game`](crate::game::Game) solved by the sparse memo, as a [`Family`].
pub struct GameFamily<G: Syntax>
where
    G::Position: AsPosition,
{
    spec: String,
    solver: Solver<G>,
    heap_positions: bool,
}

impl<G: Syntax> GameFamily<G>
where
    G::Position: AsPosition,
{
    /// The game being solved.
    pub fn game(&self) -> &G {
        self.solver.game()
    }

    /// Wraps `game`, calling it `spec`; `heap_positions` enables `seq`.
    pub fn new(spec: impl Into<String>, game: G, settings: Settings, heap_positions: bool) -> Self {
        GameFamily {
            spec: spec.into(),
            solver: Solver::with_max_states(game, settings.max_states),
            heap_positions,
        }
    }

    /// The game's own form of `position`, or an error naming it.
    pub fn typed(&self, position: &Position) -> Result<G::Position> {
        G::Position::from_position(position).ok_or_else(|| {
            Error::invalid(format!(
                "{position} is not a position of {} (it has the wrong shape)",
                self.spec
            ))
        })
    }
}

impl<G: Syntax> Family for GameFamily<G>
where
    G::Position: AsPosition,
{
    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn parse(&self, text: &str) -> Result<Position> {
        Ok(self.solver.game().parse_position(text)?.to_position())
    }

    fn format(&self, position: &Position) -> String {
        match G::Position::from_position(position) {
            Some(typed) => self.solver.game().format_position(&typed),
            None => position.to_string(),
        }
    }

    fn configure_long_run(&mut self, run: LongRun) {
        self.solver.set_stop_flag(run.interrupted);
        let mut progress = run.progress;
        // Open-ended work: the count of positions, with no total.
        self.solver
            .set_progress(Box::new(move |positions| progress(positions, 0)));
    }

    fn value(&mut self, position: &Position) -> Result<Value> {
        let position = self.typed(position)?;
        match self.solver.value(&position) {
            Ok(v) => Ok(Value::finite(v)),
            Err(e) => Err(solve_error(self.solver.game(), e)),
        }
    }

    fn moves(&mut self, position: &Position) -> Result<Vec<Move>> {
        let position = self.typed(position)?;
        let options = match self.solver.options_with_values(&position) {
            Ok(options) => options,
            Err(e) => return Err(solve_error(self.solver.game(), e)),
        };
        Ok(dedupe_moves(
            options
                .into_iter()
                .map(|(parts, value)| Move {
                    to: parts.iter().map(AsPosition::to_position).collect(),
                    value: Value::finite(value),
                })
                .collect(),
        ))
    }

    fn is_heap_game(&self) -> bool {
        self.heap_positions
    }

    fn period(&mut self, max: u64) -> Result<crate::period::PeriodReport> {
        if !self.heap_positions {
            return Err(Error::invalid(format!(
                "{} positions are not heap sizes, so it has no Grundy sequence to be periodic",
                self.spec
            )));
        }
        // No periodicity theorem is known for these games: observe only.
        let len = max.clamp(1, 1 << 16);
        let mut values = Vec::with_capacity(len as usize);
        for n in 0..len {
            match self.value(&Position::from(n))?.as_u64() {
                Some(v) if v <= u32::MAX as u64 => values.push(v as u32),
                _ => return Err(Error::invalid("values too large to look for a period")),
            }
        }
        let observed = crate::period::observe(values.len(), |i| values[i]);
        let method = match observed {
            Some(_) => format!(
                "observed period, not proven (no periodicity theorem applies); values to n = {}",
                len - 1
            ),
            None => format!("no period found up to n = {}", len - 1),
        };
        Ok(crate::period::PeriodReport {
            periodicity: observed,
            proven: false,
            method,
            checked_to: len - 1,
        })
    }
}

/// The heap size a position stands for, or an error for any other shape.
pub fn heap_of(position: &Position, spec: &str) -> Result<BigUint> {
    position.as_biguint().ok_or_else(|| {
        Error::invalid(format!(
            "{position} is not a position of {spec}: positions are heap sizes (non-negative integers)"
        ))
    })
}

/// Reads a heap size: a non-negative integer of any size.
pub fn parse_heap(text: &str) -> Result<BigUint> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(Error::syntax("a heap size is missing", text, None));
    }
    if let Some(rest) = trimmed.strip_prefix('-') {
        if !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()) {
            return Err(Error::syntax(
                "heap sizes cannot be negative",
                text,
                Some(0),
            ));
        }
    }
    if let Some(bad) = trimmed.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        return Err(Error::syntax(
            "a heap size is a non-negative integer",
            trimmed,
            Some(trimmed[..bad.0].chars().count()),
        ));
    }
    Ok(trimmed.parse().expect("digits parse"))
}

/// How many heaps `value` tabulates, at most, looking for a period that
/// answers a heap too large to tabulate.
const AUTO_PERIOD_SEARCH: u64 = 1 << 22;

/// How long that search may take: a request that only a table beyond the
/// budget could answer is refused about this soon.
const PERIOD_PROBE_TIME: std::time::Duration = std::time::Duration::from_secs(1);

/// Heaps with more options than this are not listed move by move.
const MAX_LISTED_OPTIONS: u64 = 20_000_000;

/// The most options of one heap looked at, one by one, for winning moves:
/// a few seconds. A heap of a three-heap code has O(n²) options, but every
/// value below its own turns up among them, most of them often.
const MAX_SCANNED_OPTIONS: u64 = 1 << 28;

/// Why [`HeapFamily::scan_options`] stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ScanEnd {
    /// Every option was looked at.
    Done,
    /// `limit` moves were found.
    Limit,
    /// [`MAX_SCANNED_OPTIONS`] were looked at first.
    Budget,
}

/// A [`HeapGame`] tabulated densely, as a [`Family`].
pub struct HeapFamily<H: HeapGame> {
    spec: String,
    game: H,
    table: HeapTable,
    settings: Settings,
    long_run: Option<LongRun>,
    /// A proven periodicity, once found: heaps beyond the table use it.
    period: Option<crate::period::Periodicity>,
    /// The last heap the work under way is for, when it is tabulated a
    /// block at a time (progress reports name it, not the block's end).
    goal: Option<usize>,
    /// Whether [`HeapFamily::probe_period`] has looked already (it would
    /// only start again from the table it left).
    probed: bool,
}

/// Heaps tabulated at a time by [`Family::sequence`] before they are handed
/// on: a consumer on another thread (the CLI's file writer) formats one
/// block while the next is computed.
const SEQUENCE_BLOCK: u64 = 1 << 16;

impl<H: HeapGame> HeapFamily<H> {
    /// Wraps `game`, calling it `spec`.
    pub fn new(spec: impl Into<String>, game: H, settings: Settings) -> Self {
        HeapFamily {
            spec: spec.into(),
            game,
            table: HeapTable::new(),
            settings,
            long_run: None,
            period: None,
            goal: None,
            probed: false,
        }
    }

    /// The values tabulated so far (a census reads them after [`Self::find_period`]).
    pub fn table(&self) -> &HeapTable {
        &self.table
    }

    /// Tabulates (doubling the table each time, up to `max` heaps) until the
    /// game's period rule proves a period, and reports what was found.
    pub fn find_period(&mut self, max: u64) -> Result<crate::period::PeriodReport> {
        self.find_period_within(max, max, None)
    }

    /// [`Self::find_period`] with doubling lengths up to `max`, and beyond
    /// that up to `stretch` only to the length a proof of what the values
    /// show needs. With `time`, no longer length is tried once it would take
    /// the search past that time: doubling a table is taken to cost up to
    /// eight times all before it, as for three-heap codes whose values grow
    /// (O(n²) heaps times the width of their values).
    fn find_period_within(
        &mut self,
        max: u64,
        stretch: u64,
        time: Option<std::time::Duration>,
    ) -> Result<crate::period::PeriodReport> {
        let started = crate::clock::Instant::now();
        use crate::period::{attempt_with, observe_with, Attempt, PeriodReport, PeriodRule};
        let rule = self.game.period_rule();
        if let PeriodRule::Known(periodicity, source) = &rule {
            self.period = Some(periodicity.clone());
            return Ok(PeriodReport {
                periodicity: Some(periodicity.clone()),
                proven: true,
                method: format!("{source} (proven)"),
                checked_to: 0,
            });
        }
        let max = (max.max(1)).min(self.settings.max_states as u64) as usize;
        // The longest table the memory budget holds: two or four bytes a
        // heap, and for rules other than take-and-break four more while
        // periods are sought (a border array over the whole table). The
        // search stops there and reports what it saw, as at --max.
        let room = crate::memory::budget().saturating_sub(crate::memory::resident().unwrap_or(0));
        let held_now = self.heap_bytes();
        let border = match rule {
            PeriodRule::TakeBreak { .. } | PeriodRule::Unknown => 0,
            _ => 4,
        };
        // A sixteenth kept for the rest of the process.
        let fitting = ((room / 16 * 15).saturating_add(held_now * self.table.len() as u64)
            / (held_now + border))
            .min(usize::MAX as u64) as usize;
        let fitting = fitting.max(self.table.len()).max(1024);
        let held = max > fitting;
        let max = max.min(fitting);
        let stretch = (stretch as usize).min(self.settings.max_states).max(max);
        let stretch = if held { max } else { stretch };
        let mut len = self.table.len().clamp(1024.min(max), max);
        loop {
            let mut wanted = None;
            self.tabulate(len - 1)?;
            let table = &self.table;
            let value = |i: usize| table.get(i).expect("tabulated");
            let mut next = len.saturating_mul(2);
            // Computed once per length, for the proof and the guess alike.
            let periods = table.suffix_periods(len, &rule);
            if !matches!(rule, PeriodRule::Unknown) {
                let found = match attempt_with(len, value, &rule, &periods) {
                    Attempt::Proven(found) => Some(found),
                    Attempt::NotYet(needed) => {
                        // Go straight to the length that would prove what the values show.
                        if let Some(needed) = needed.filter(|n| *n as usize > len) {
                            next = next.min(needed as usize);
                            wanted = Some(needed as usize);
                        }
                        None
                    }
                };
                if let Some(found) = found {
                    let method = match &rule {
                        PeriodRule::Window(w) => format!(
                            "proven: a window of {w} consecutive values (the largest move) repeats, and each value depends only on the {w} before it; values checked to n = {}",
                            len - 1
                        ),
                        PeriodRule::TakeBreak { max_take, parts } => {
                            let bound = crate::period::guy_smith_window(
                                found.preperiod,
                                found.period,
                                *max_take,
                                *parts,
                            );
                            format!(
                                "proven by the Guy-Smith periodicity theorem: G(n + {p}) = G(n) checked for {e} <= n < {bound}, with values to n = {}",
                                len - 1,
                                p = found.period,
                                e = found.preperiod,
                            )
                        }
                        _ => unreachable!("only provable rules reach here"),
                    };
                    self.period = Some(found.clone());
                    return Ok(PeriodReport {
                        periodicity: Some(found),
                        proven: true,
                        method,
                        checked_to: len as u64 - 1,
                    });
                }
            }
            let out_of_time = time.is_some_and(|time| {
                let longer = wanted.unwrap_or(next).min(stretch) as f64 / len as f64;
                started.elapsed().as_secs_f64() * longer.powi(3) > time.as_secs_f64()
            });
            if len >= max || out_of_time {
                if let Some(needed) = wanted.filter(|&n| n <= stretch && !out_of_time) {
                    len = needed;
                    continue;
                }
                let observed = observe_with(len, value, &periods);
                let method = match (&observed, &rule) {
                    (Some(_), PeriodRule::Unknown) => format!("observed period, not proven (no periodicity theorem applies to this game); values to n = {}", len - 1),
                    (Some(_), _) => format!("observed period, not proven (too few values for the theorem); values to n = {}", len - 1),
                    (None, _) => format!("no period found up to n = {}", len - 1),
                };
                let method = if held {
                    format!(
                        "{method} (as far as the memory budget holds; raise it with --max-memory)"
                    )
                } else {
                    method
                };
                return Ok(PeriodReport {
                    periodicity: observed,
                    proven: false,
                    method,
                    checked_to: len as u64 - 1,
                });
            }
            len = next.min(max);
        }
    }

    /// Looks for a period that answers heaps too large to tabulate: up to
    /// [`AUTO_PERIOD_SEARCH`] heaps and for about [`PERIOD_PROBE_TIME`].
    fn probe_period(&mut self) -> Result<crate::period::PeriodReport> {
        self.probed = true;
        self.find_period_within(
            AUTO_PERIOD_SEARCH,
            AUTO_PERIOD_SEARCH,
            Some(PERIOD_PROBE_TIME),
        )
    }

    /// Stops a stream of values read from a period, which computes nothing
    /// and so never reaches [`Self::tabulate`]'s check: looked at once every
    /// 65,536 heaps.
    fn check_interrupted(&self, n: u64) -> Result<()> {
        let flag = self.long_run.as_ref().map(|run| &*run.interrupted);
        stream_stopped(flag, n)
    }

    /// Whether the options of heap `n` are few enough to list one by one:
    /// counted from the code where there is one (three-heap splits make
    /// about n^2 / 12), else taken to be about `n`.
    fn listable(&self, n: u64) -> bool {
        let count = match self.game.take_break() {
            Some(rules) => rules.option_count(n.min(usize::MAX as u64) as usize),
            None => n,
        };
        count <= MAX_LISTED_OPTIONS
    }

    /// Whether a period could be proven for this game at all.
    fn provable(&self) -> bool {
        !matches!(self.game.period_rule(), crate::period::PeriodRule::Unknown)
    }

    /// Fills the table to heap `m`, honouring the long-run settings: resumes
    /// from the checkpoint, reports progress, saves periodically and stops
    /// (saving first) when interrupted.
    fn tabulate(&mut self, m: usize) -> Result<()> {
        if m < self.table.len() {
            return Ok(());
        }
        let per_heap = self.heap_bytes();
        let Some(run) = self.long_run.as_mut() else {
            self.table.extend_to(&self.game, m);
            return Ok(());
        };
        if self.table.is_empty() {
            if let Some(path) = &run.checkpoint {
                let (max_states, spec) = (self.settings.max_states, &self.spec);
                let admit = |count: u64| -> Result<()> {
                    if count > max_states as u64 {
                        return Err(Error::invalid(format!(
                            "refusing checkpoint {}: it holds {count} values, more than --max-states {max_states}",
                            path.display()
                        )));
                    }
                    Self::table_fits_for(spec, per_heap, 0, count.saturating_sub(1))
                };
                if let Some(values) = crate::heap::checkpoint::load(path, &self.spec, &admit)? {
                    crate::heap::checkpoint::check_values(path, &self.game, &values)?;
                    self.table = HeapTable::resume(&self.game, values);
                }
            }
        }
        let mut last_save = crate::clock::Instant::now();
        // Progress is reported against the whole run's last heap.
        let goal = self.goal.unwrap_or(m).max(m) as u64 + 1;
        loop {
            let interrupted = run.interrupted.clone();
            let progress = &mut run.progress;
            let every = run.checkpoint_every;
            let wants_save = run.checkpoint.is_some();
            let outcome = self.table.extend_with_progress(&self.game, m, &mut |done| {
                progress(done as u64, goal);
                if interrupted.load(std::sync::atomic::Ordering::Relaxed)
                    || (wants_save && last_save.elapsed() >= every)
                {
                    std::ops::ControlFlow::Break(())
                } else {
                    std::ops::ControlFlow::Continue(())
                }
            });
            let done = outcome.is_continue();
            if let Some(path) = &run.checkpoint {
                if !done || last_save.elapsed() >= every || m >= self.table.len().saturating_sub(1)
                {
                    crate::heap::checkpoint::save_slice(
                        path,
                        &self.spec,
                        self.table.checkpoint_slice(),
                    )?;
                    last_save = crate::clock::Instant::now();
                }
            }
            if done {
                (run.progress)(self.table.len() as u64, goal);
                return Ok(());
            }
            if run.interrupted.load(std::sync::atomic::Ordering::Relaxed) {
                let saved = match &run.checkpoint {
                    Some(path) => format!(
                        "; the {} values found are saved in {}: run the same command to resume",
                        self.table.len(),
                        path.display()
                    ),
                    None => format!(
                        " after {} heaps (seq and period keep their work with --checkpoint FILE)",
                        self.table.len()
                    ),
                };
                return Err(Error::Interrupted(format!("interrupted{saved}")));
            }
        }
    }

    /// Refuses now, naming the size, a table up to heap `to` that would not
    /// fit the memory budget, rather than letting the system stop the run
    /// when the memory runs out hours later: two bytes a heap for a
    /// take-and-break code, four for other heap games (a period is sought
    /// on the table itself, with nothing more per value).
    fn table_fits(&self, to: u64) -> Result<()> {
        Self::table_fits_for(&self.spec, self.heap_bytes(), self.table.len(), to)
    }

    /// Bytes a heap's value takes in the table: two in the take-and-break
    /// engine's (while values stay below 2^16), four in the plain one.
    fn heap_bytes(&self) -> u64 {
        if self.game.take_break().is_some() {
            2
        } else {
            4
        }
    }

    /// [`Self::table_fits`] for the game `spec`, whose table takes `per_heap`
    /// bytes a heap, with `len` values tabulated.
    fn table_fits_for(spec: &str, per_heap: u64, len: usize, to: u64) -> Result<()> {
        let heaps = to.saturating_add(1);
        let new = heaps.saturating_sub(len as u64);
        let bytes = per_heap.saturating_mul(new);
        if crate::memory::fits(bytes) {
            return Ok(());
        }
        let each = if per_heap == 2 { "two" } else { "four" };
        Err(crate::memory::exceeded(
            &format!(
                "a table of the values of {} to heap {to} (about {}: {each} bytes a heap)",
                spec,
                crate::memory::human(bytes)
            ),
            "ask for fewer heaps",
        ))
    }

    /// The value of heap `n`, tabulating up to it if needed and allowed.
    fn lookup(&mut self, n: &BigUint) -> Result<u64> {
        if let Some(value) = n.to_usize().and_then(|m| self.table.get(m)) {
            return Ok(value as u64);
        }
        if self.period.is_none() {
            let known = matches!(
                self.game.period_rule(),
                crate::period::PeriodRule::Known(..)
            );
            // Beyond what can be tabulated: look for a period in a modest table.
            let beyond = n.to_usize().is_none_or(|m| m >= self.settings.max_states);
            if known {
                self.find_period(AUTO_PERIOD_SEARCH)?;
            } else if beyond && self.provable() && !self.probed {
                self.probe_period()?;
            }
        }
        if let Some(period) = &self.period {
            return Ok(period.value(n).to_u64().expect("periodic values are small"));
        }
        let small = n.to_usize().filter(|m| *m < self.settings.max_states);
        match small {
            Some(m) => {
                self.table_fits(m as u64)?;
                self.tabulate(m)?;
                Ok(self.table.get(m).expect("tabulated just now") as u64)
            }
            None => Err(Error::TooLarge(format!(
                "heap {n} of {} is beyond the state budget ({} heap{}), and no period was proven within that budget; \
                 raise --max-states, or see whether `grundy period {}` proves one",
                self.spec,
                self.settings.max_states,
                if self.settings.max_states == 1 { "" } else { "s" },
                self.spec
            ))),
        }
    }

    /// The options of heap `n`, whose value must be known (see
    /// [`Self::known_value`]: then so are its options'), one by one in the
    /// order of [`HeapGame::heap_options`]: the first `limit` distinct ones
    /// whose value `keep` accepts among the first `budget` options, and why
    /// the scan stopped. No list of every option is built.
    fn scan_options(
        &self,
        n: u64,
        limit: usize,
        budget: u64,
        keep: impl Fn(u64) -> bool,
    ) -> (Vec<Move>, ScanEnd) {
        let mut seen = std::collections::HashSet::new();
        let mut found = Vec::new();
        let mut scanned = 0u64;
        let mut end = ScanEnd::Done;
        if limit == 0 {
            return (found, ScanEnd::Limit);
        }
        let _ = self.game.each_option(n, &mut |mut parts| {
            if scanned == budget {
                end = ScanEnd::Budget;
                return ControlFlow::Break(());
            }
            scanned += 1;
            parts.retain(|h| *h > 0);
            let value = parts.iter().fold(0u64, |acc, &h| {
                acc ^ self
                    .known_value(h)
                    .expect("options of a known heap are known")
            });
            if keep(value) {
                parts.sort_unstable_by(|a, b| b.cmp(a));
                if seen.insert(parts.clone()) {
                    found.push(Move {
                        to: parts.iter().map(|h| Position::from(*h)).collect(),
                        value: Value::finite(value),
                    });
                    if found.len() == limit {
                        end = ScanEnd::Limit;
                        return ControlFlow::Break(());
                    }
                }
            }
            ControlFlow::Continue(())
        });
        (found, end)
    }

    /// Heap `n` as a machine word when its value is in the table (and so
    /// are those of all its options).
    fn tabulated(&self, n: &BigUint) -> Option<u64> {
        n.to_u64()
            .filter(|m| usize::try_from(*m).is_ok_and(|m| self.table.get(m).is_some()))
    }

    /// The value of heap `h` when the table or a proven period gives it
    /// (the table holds every heap of the preperiod).
    fn known_value(&self, h: u64) -> Option<u64> {
        usize::try_from(h)
            .ok()
            .and_then(|m| self.table.get(m))
            .map(u64::from)
            .or_else(|| self.period.as_ref().map(|p| p.value_u64(h)))
    }
}

/// A heap drawn as a row of stones, when it is small enough to count.
pub fn show_heap(position: &Position) -> String {
    match position.as_u64() {
        Some(n) if n <= 40 => format!("{n:>3} {}", "o".repeat(n as usize)),
        _ => format!("{position} stones"),
    }
}

impl<H: HeapGame> Family for HeapFamily<H> {
    fn certifiable(&self) -> bool {
        self.game
            .take_break()
            .is_some_and(|rules| crate::certificate::game_name(&rules).is_some())
    }

    fn write_certificate(
        &mut self,
        len: u64,
        claim: Option<&crate::period::Periodicity>,
        out: &mut dyn std::io::Write,
    ) -> Result<crate::certificate::Written> {
        let rules = match self.game.take_break() {
            Some(rules) if self.certifiable() => rules,
            _ => {
                return Err(Error::invalid(format!(
                "{}: certificates are written for octal and hexadecimal codes and Grundy's game",
                self.spec
            )))
            }
        };
        // With a claim, the values its proof needs are enough.
        let needed = claim.and_then(|c| {
            crate::period::values_needed(&self.game.period_rule(), c.preperiod, c.period)
        });
        let len = usize::try_from(needed.map_or(len, |needed| needed.min(len)))
            .ok()
            .filter(|n| *n <= self.settings.max_states)
            .ok_or_else(|| {
                Error::TooLarge(format!(
                    "a certificate of {len} values needs them all in memory, beyond the state budget ({}); raise it with --max-states",
                    self.settings.max_states
                ))
            })?;
        if len > 0 {
            self.tabulate(len - 1)?;
        }
        let table = &self.table;
        crate::certificate::write(
            out,
            &rules,
            len,
            |n| table.get(n).expect("tabulated"),
            claim,
        )
    }

    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn show(&self, position: &Position) -> String {
        show_heap(position)
    }

    fn configure_long_run(&mut self, run: LongRun) {
        self.long_run = Some(run);
    }

    fn saves_checkpoints(&self) -> bool {
        true
    }

    fn verify(&mut self, samples: usize) -> Result<usize> {
        let len = self.table.len();
        if len == 0 || samples == 0 {
            return Ok(0);
        }
        // Heaps spread evenly, plus the last ones, where errors would show first.
        let mut heaps: Vec<usize> = (0..samples).map(|i| i * len / samples).collect();
        heaps.extend(len.saturating_sub(samples.min(16))..len);
        heaps.sort_unstable();
        heaps.dedup();
        for &n in &heaps {
            let fast = self.table.get(n).expect("within the table");
            let plain = crate::heap::reference_value(&self.game, n, &self.table);
            if fast != plain {
                return Err(Error::invalid(format!(
                    "verification failed for {} at heap {n}: the fast engine says {fast}, the plain method {plain}",
                    self.spec
                )));
            }
        }
        Ok(heaps.len())
    }

    fn parse(&self, text: &str) -> Result<Position> {
        Ok(Position::heap(parse_heap(text)?))
    }

    fn value(&mut self, position: &Position) -> Result<Value> {
        let n = heap_of(position, &self.spec)?;
        Ok(Value::finite(self.lookup(&n)?))
    }

    fn moves(&mut self, position: &Position) -> Result<Vec<Move>> {
        let big = heap_of(position, &self.spec)?;
        let listed = big.to_u64().filter(|n| self.listable(*n));
        // Refused before the value is looked up, which may take long.
        let big_options = match listed {
            Some(_) => None,
            None => match self.game.big_options(&big) {
                Some(options) => Some(options),
                None => {
                    return Err(Error::TooLarge(format!(
                        "heap {big} of {} has too many moves to list one by one",
                        self.spec
                    )))
                }
            },
        };
        // Looking the value up first also checks the heap is within reach.
        self.lookup(&big)?;
        let Some(n) = listed else {
            let options = big_options.expect("listed above");
            let mut moves = Vec::with_capacity(options.len());
            for parts in options {
                let mut value = 0;
                for part in &parts {
                    value ^= self.lookup(part)?;
                }
                moves.push(Move {
                    to: parts.into_iter().map(Position::heap).collect(),
                    value: Value::finite(value),
                });
            }
            return Ok(dedupe_moves(moves));
        };
        // The value was looked up: the table or the period has it, and so
        // those of its options.
        let (moves, _) = self.scan_options(n, usize::MAX, u64::MAX, |_| true);
        Ok(moves)
    }

    fn moves_to(&mut self, position: &Position, target: &Value, limit: usize) -> Result<Vec<Move>> {
        let n = heap_of(position, &self.spec)?;
        let listable =
            n.to_u64().is_some_and(|n| self.listable(n)) || self.game.big_options(&n).is_some();
        if listable || n.to_usize().is_some_and(|m| m < self.settings.max_states) {
            // Within reach of the table: it is filled (a budget refuses
            // here), and the answer comes from it below.
            self.lookup(&n)?;
        }
        if let (Some(small), Some(want)) = (self.tabulated(&n), target.as_u64()) {
            // Option by option, keeping only the moves to `target`: the
            // others are never built (a three-heap code has millions).
            let (found, end) = self.scan_options(small, limit, MAX_SCANNED_OPTIONS, |v| v == want);
            if end == ScanEnd::Budget {
                return Err(Error::TooLarge(format!(
                    "heap {n} of {}: its winning moves are not listed: it has more than {MAX_SCANNED_OPTIONS} moves to search",
                    self.spec
                )));
            }
            return Ok(found);
        }
        if listable {
            return Ok(self
                .moves(position)?
                .into_iter()
                .filter(|m| &m.value == target)
                .take(limit)
                .collect());
        }
        self.lookup(&n)?;
        let (Some(rules), Some(period), Some(target)) =
            (self.game.take_break(), self.period.clone(), target.as_u64())
        else {
            return Err(Error::TooLarge(format!(
                "heap {n} of {} has too many moves to list one by one",
                self.spec
            )));
        };
        crate::heap::huge::winning_splits(&rules, &period, &n, target, limit)
            .map(|found| {
                found
                    .into_iter()
                    .map(|to| Move {
                        to: to.into_iter().map(Position::heap).collect(),
                        value: Value::finite(target),
                    })
                    .collect()
            })
            .ok_or_else(|| {
                Error::TooLarge(format!(
                    "heap {n} of {} leaves three heaps in too many ways to list",
                    self.spec
                ))
            })
    }

    fn first_moves(&mut self, position: &Position, limit: usize) -> Result<(Vec<Move>, bool)> {
        let n = heap_of(position, &self.spec)?;
        // Tabulates, or finds the period that answers a larger heap.
        self.lookup(&n)?;
        if let Some(small) = n.to_u64().filter(|m| self.known_value(*m).is_some()) {
            // The first options only, from the table or the period: a heap
            // of a three-heap code has O(n²) of them.
            let (found, _) =
                self.scan_options(small, limit.saturating_add(1), MAX_SCANNED_OPTIONS, |_| {
                    true
                });
            return Ok(first_of(found, limit));
        }
        Ok(first_of(self.moves(position)?, limit))
    }

    fn is_heap_game(&self) -> bool {
        true
    }

    fn period_rule(&self) -> crate::period::PeriodRule {
        self.game.period_rule()
    }

    fn period(&mut self, max: u64) -> Result<crate::period::PeriodReport> {
        self.find_period(max)
    }

    fn default_period_max(&self) -> u64 {
        match self.game.period_rule() {
            crate::period::PeriodRule::TakeBreak { parts: 3, .. } => {
                crate::period::DEFAULT_MAX_THREE_HEAPS
            }
            _ => crate::period::DEFAULT_MAX,
        }
    }

    fn sequence(
        &mut self,
        from: u64,
        to: u64,
        sink: &mut dyn FnMut(u64, u64) -> Result<()>,
    ) -> Result<()> {
        self.sequence_runs(from, to, &mut |first, values| {
            for (i, &value) in values.iter().enumerate() {
                sink(first + i as u64, value)?;
            }
            Ok(())
        })
    }

    fn sequence_runs(
        &mut self,
        from: u64,
        to: u64,
        sink: &mut dyn FnMut(u64, &[u64]) -> Result<()>,
    ) -> Result<()> {
        if to < self.settings.max_states as u64 {
            self.table_fits(to)?;
        }
        // Progress names the run's last heap while the period is looked for
        // and the table is filled a block at a time.
        self.goal = (to < self.settings.max_states as u64).then_some(to as usize);
        let result = self.sequence_blocks(from, to, sink);
        self.goal = None;
        if let (Ok(()), Some(run)) = (&result, self.long_run.as_mut()) {
            // Done, also when a period filled the rest.
            (run.progress)(to.saturating_add(1), to.saturating_add(1));
        }
        result
    }
}

impl<H: HeapGame> HeapFamily<H> {
    /// [`Family::sequence`] a block of the table at a time, `to` within the
    /// budget. A provably periodic game's proof is attempted between blocks,
    /// at doubling lengths up to half the sequence and at the length a proof
    /// of what the values show would need (0.16 to 10^6 is proven at 515,962
    /// values); once one succeeds, the rest is filled from the period.
    fn sequence_in_blocks(
        &mut self,
        from: u64,
        to: u64,
        rule: crate::period::PeriodRule,
        sink: &mut dyn FnMut(u64, &[u64]) -> Result<()>,
    ) -> Result<()> {
        let mut runs = Runs::new();
        let result = self.sequence_in_blocks_to(from, to, rule, &mut runs, sink);
        runs.finish(result, sink)
    }

    /// [`Self::sequence_in_blocks`], adding the values to `runs`.
    fn sequence_in_blocks_to(
        &mut self,
        from: u64,
        to: u64,
        rule: crate::period::PeriodRule,
        runs: &mut Runs,
        sink: &mut dyn FnMut(u64, &[u64]) -> Result<()>,
    ) -> Result<()> {
        use crate::period::{attempt_with, Attempt, PeriodRule};
        let (from, to) = (from as usize, to as usize);
        let half = to.div_ceil(2);
        // The table length at which to try a proof next.
        let mut next_try =
            (!matches!(rule, PeriodRule::Unknown) && to >= 1 << 16).then_some(1usize << 16);
        let mut next = from;
        while next <= to {
            let len = self.table.len();
            if next_try.is_some_and(|at| at <= len) {
                // On the table itself: the search for square suffixes reads
                // each value about once and holds nothing per value, so an
                // attempt costs a few percent of the tabulation before it.
                let periods = self.table.suffix_periods(len, &rule);
                let table = &self.table;
                let value = |i: usize| table.get(i).expect("tabulated");
                match attempt_with(len, value, &rule, &periods) {
                    Attempt::Proven(found) => {
                        self.period = Some(found);
                        break;
                    }
                    Attempt::NotYet(needed) => {
                        let doubled = (len < half).then(|| (2 * len).min(half));
                        let needed = needed
                            .map(|n| n as usize)
                            .filter(|n| *n > len && *n <= to + 1);
                        next_try = match (doubled, needed) {
                            (Some(d), Some(n)) => Some(d.min(n)),
                            (d, n) => d.or(n),
                        };
                    }
                }
            }
            // The next block of the table, and whatever of it is asked for.
            let end = to.min(len + SEQUENCE_BLOCK as usize - 1);
            let tabulated = self.tabulate(end);
            // What was tabulated goes out, also when the run was interrupted.
            let stop = (end + 1).min(self.table.len());
            if next < stop {
                runs.push_tabulated(&self.table, next..stop, sink)?;
                next = stop;
            }
            tabulated?;
        }
        // The rest, once a period is proven.
        self.hand_on(runs, next as u64, to as u64, sink)
    }

    /// Adds to `runs` the values of heaps `from..=to`, tabulated or else
    /// given by the proven period; an interruption is looked at every
    /// 65,536 heaps, as in [`stream_stopped`].
    fn hand_on(
        &self,
        runs: &mut Runs,
        from: u64,
        to: u64,
        sink: &mut dyn FnMut(u64, &[u64]) -> Result<()>,
    ) -> Result<()> {
        let mut next = from;
        while next <= to {
            self.check_interrupted(next)?;
            // Up to the next multiple of 65,536, where the flag is looked at.
            let last = to.min(next | 0xFFFF);
            let len = self.table.len() as u64;
            if next < len {
                let end = last.min(len - 1) + 1;
                runs.push_tabulated(&self.table, next as usize..end as usize, sink)?;
            }
            if last >= len {
                let period = self.period.as_ref().unwrap_or_else(|| {
                    unreachable!("heap {} is tabulated or periodic", next.max(len))
                });
                runs.push_periodic(period, next.max(len), last, sink)?;
            }
            match last.checked_add(1) {
                Some(after) => next = after,
                None => break,
            }
        }
        Ok(())
    }
}

impl<H: HeapGame> HeapFamily<H> {
    /// [`Family::sequence`], once its progress reports are set up.
    fn sequence_blocks(
        &mut self,
        from: u64,
        to: u64,
        sink: &mut dyn FnMut(u64, &[u64]) -> Result<()>,
    ) -> Result<()> {
        // Within the budget and with no period known, the table is filled a
        // block at a time and each block's values are handed on at once, so
        // that a consumer on another thread (the CLI's file writer) works
        // while the next block is computed. Not when the table is saved to a
        // checkpoint: every block would save it.
        let rule = self.game.period_rule();
        let blocks = self.period.is_none()
            && to < self.settings.max_states as u64
            && !matches!(rule, crate::period::PeriodRule::Known(..))
            && self
                .long_run
                .as_ref()
                .is_none_or(|r| r.checkpoint.is_none());
        if blocks {
            return self.sequence_in_blocks(from, to, rule, sink);
        }
        // Long sequences of provably periodic games stop tabulating as soon
        // as the period is proven and fill the rest from it (see
        // `sequence_in_blocks`).
        let mut outcome = Ok(());
        let beyond = to >= self.settings.max_states as u64;
        if self.period.is_none() && beyond && self.provable() {
            // Only a period can answer: a short search, then the refusal.
            outcome = self.probe_period().map(|_| ());
        } else if self.period.is_none() && to >= 1 << 16 && self.provable() {
            outcome = self
                .find_period_within(to.saturating_add(1) / 2, to.saturating_add(1), None)
                .map(|_| ());
        }
        // Tabulates, or finds the closed form, or fails with a clear error.
        if outcome.is_ok() {
            outcome = self.lookup(&BigUint::from(to)).map(|_| ());
        }
        if let Err(e) = outcome {
            // Interrupted: every value tabulated so far is still handed on.
            if matches!(e, Error::Interrupted(_)) {
                let done = (self.table.len() as u64).min(to.saturating_add(1));
                let mut runs = Runs::new();
                let handed = match from < done {
                    true => runs.push_tabulated(&self.table, from as usize..done as usize, sink),
                    false => Ok(()),
                };
                runs.finish(handed, sink)?;
            }
            return Err(e);
        }
        let mut runs = Runs::new();
        let handed = self.hand_on(&mut runs, from, to, sink);
        runs.finish(handed, sink)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    #[test]
    fn runs_cover_the_sequence_in_order_and_agree_with_lookups() {
        // Tabulated, filled from a proven period (0.07 and 0.16 prove theirs
        // on the way), past the table with a checkpointless long run, a
        // closed form (nim, through the default runs), and a plain family.
        for (spec, from, to) in [
            ("0.07", 0, 300_000),
            ("0.16", 70_000, 1_100_000),
            ("0.1777", 3, 140_000),
            ("0.07", 1 << 40, (1 << 40) + 100_000),
            ("nim", 5, 10_000),
            ("sub:1,3,4", 0, 20_000),
        ] {
            let settings = Settings::default();
            let mut family = crate::spec::parse_game(spec, settings).unwrap();
            let mut next = from;
            let mut values = Vec::new();
            family
                .sequence_runs(from, to, &mut |first, run| {
                    assert_eq!(first, next, "{spec}: runs in order");
                    assert!(!run.is_empty());
                    next += run.len() as u64;
                    values.extend_from_slice(run);
                    Ok(())
                })
                .unwrap();
            assert_eq!(next, to + 1, "{spec}");
            let mut fresh = crate::spec::parse_game(spec, Settings::default()).unwrap();
            for n in (from..=to).step_by(997).chain([to]) {
                let expected = fresh.value(&Position::from(n)).unwrap().as_u64().unwrap();
                assert_eq!(values[(n - from) as usize], expected, "{spec} heap {n}");
            }
        }
    }

    #[test]
    fn sequences_in_blocks_agree_with_lookups_and_report_the_whole_run() {
        // 0.1777 has no period proven this early: its values are handed on
        // a block at a time as they are tabulated.
        let settings = Settings::default();
        let mut family = crate::spec::parse_game("0.1777", settings).unwrap();
        let totals = Arc::new(Mutex::new(Vec::new()));
        let seen = totals.clone();
        family.configure_long_run(LongRun {
            progress: Box::new(move |_, total| seen.lock().unwrap().push(total)),
            interrupted: Arc::new(std::sync::atomic::AtomicBool::new(false)),
            checkpoint: None,
            checkpoint_every: std::time::Duration::from_secs(3600),
        });
        let (from, to) = (3 * SEQUENCE_BLOCK / 2, 3 * SEQUENCE_BLOCK + 5);
        let mut values = Vec::new();
        family
            .sequence(from, to, &mut |n, v| {
                assert_eq!(n, from + values.len() as u64);
                values.push(v);
                Ok(())
            })
            .unwrap();
        assert_eq!(values.len() as u64, to - from + 1);
        // Progress always names the last heap of the run, never a block's.
        let totals = totals.lock().unwrap();
        assert!(!totals.is_empty() && totals.iter().all(|t| *t == to + 1));
        // Every value as the engine has it in one run (its tests hold it to
        // the plain method).
        let rules = crate::heap::rare::TakeBreak::new(&[0, 1, 7, 7, 7]).unwrap();
        let mut plain = crate::heap::rare::Engine::new(rules);
        let _ = plain.extend_to(to as usize, &mut |_| std::ops::ControlFlow::Continue(()));
        for (i, v) in values.iter().enumerate() {
            let n = from as usize + i;
            assert_eq!(plain.values().get(n) as u64, *v, "heap {n}");
        }
        // A sink's error stops the run at once.
        let mut calls = 0;
        let stopped = family.sequence(0, to, &mut |_, _| {
            calls += 1;
            Err(Error::Io("full".into()))
        });
        assert!(stopped.is_err() && calls == 1);

        // Interrupted in the middle of a block: every value tabulated by
        // then is still handed on, then the interruption is reported.
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let game = crate::games::octal::TakeBreakGame::parse("0.1777", false, "0.1777", 0).unwrap();
        let mut family = HeapFamily::new("0.1777", game, Settings::default());
        family.configure_long_run(LongRun {
            progress: Box::new(|_, _| {}),
            interrupted: stop.clone(),
            checkpoint: None,
            checkpoint_every: std::time::Duration::from_secs(3600),
        });
        let mut handed = 0u64;
        let outcome = family.sequence(0, 4 * SEQUENCE_BLOCK, &mut |n, _| {
            handed += 1;
            if n == SEQUENCE_BLOCK + 5 {
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            Ok(())
        });
        assert!(matches!(outcome, Err(Error::Interrupted(_))), "{outcome:?}");
        assert!(
            (2 * SEQUENCE_BLOCK..4 * SEQUENCE_BLOCK).contains(&handed),
            "{handed}"
        );
        assert_eq!(
            handed,
            family.table.len() as u64,
            "every value tabulated was handed on"
        );
    }

    #[test]
    fn a_period_proven_beside_the_blocks_fills_the_rest() {
        // 0.16: preperiod 105,351, period 149,459 (Flammenkamp's table of
        // octal games), proven by the Guy-Smith theorem at 515,962 values.
        let game = crate::games::octal::TakeBreakGame::parse("0.16", false, "0.16", 0).unwrap();
        let mut family = HeapFamily::new("0.16", game, Settings::default());
        let to = 1_000_000;
        let mut values = Vec::new();
        family
            .sequence(0, to, &mut |_, v| {
                values.push(v as u32);
                Ok(())
            })
            .unwrap();
        let period = family.period.clone().expect("proven on the way");
        assert_eq!((period.preperiod, period.period), (105_351, 149_459));
        assert!(
            family.table.len() < to as usize,
            "the rest came from the period"
        );
        assert_eq!(values.len() as u64, to + 1);
        for (n, v) in values.iter().enumerate().skip(105_351) {
            assert_eq!(*v, period.value_u64(n as u64) as u32, "heap {n}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        /// Moves found option by option (`moves`, `first_moves`,
        /// `moves_to`) are those of the code's definition, in its order,
        /// for codes that leave one, two or three heaps.
        #[test]
        fn moves_found_one_by_one_agree_with_the_definition(
            digits in proptest::collection::vec(0u8..16, 1..5),
            n in 0u64..90,
            limit in 0usize..40,
            target in 0u64..8,
        ) {
            let text: String = digits.iter().map(|d| format!("{d:X}")).collect();
            let spec = format!("hex:0.{text}");
            let Ok(mut family) = crate::spec::parse_game(&spec, Settings::default()) else {
                return Ok(());
            };
            // The definition: removing k leaves nothing (bit 1, only when
            // n = k), one heap (2), two (4) or three (8), largest first.
            let mut options: Vec<Vec<u64>> = Vec::new();
            for (k, d) in std::iter::once(0).chain(digits.iter().copied()).enumerate() {
                let k = k as u64;
                if k > n {
                    break;
                }
                let m = n - k;
                if d & 1 != 0 && m == 0 {
                    options.push(vec![]);
                }
                if d & 2 != 0 && m > 0 {
                    options.push(vec![m]);
                }
                if d & 4 != 0 {
                    for a in 1..=m / 2 {
                        options.push(vec![m - a, a]);
                    }
                }
                if d & 8 != 0 {
                    for a in 1..=m / 3 {
                        for b in a..=(m - a) / 2 {
                            options.push(vec![m - a - b, b, a]);
                        }
                    }
                }
            }
            let mut all = Vec::new();
            for parts in options {
                let mut value = 0;
                for &h in &parts {
                    value ^= family.value(&Position::heap(h)).unwrap().as_u64().unwrap();
                }
                all.push(Move {
                    to: parts.into_iter().map(Position::heap).collect(),
                    value: Value::finite(value),
                });
            }
            let all = dedupe_moves(all);
            let position = Position::heap(n);
            proptest::prop_assert_eq!(&family.moves(&position).unwrap(), &all);
            let (first, more) = family.first_moves(&position, limit).unwrap();
            proptest::prop_assert_eq!(&first[..], &all[..all.len().min(limit)]);
            proptest::prop_assert_eq!(more, all.len() > limit);
            let target = Value::finite(target);
            let found = family.moves_to(&position, &target, limit).unwrap();
            let expected: Vec<Move> =
                all.into_iter().filter(|m| m.value == target).take(limit).collect();
            proptest::prop_assert_eq!(found, expected);
        }
    }

    #[test]
    fn a_scan_stops_at_its_budget_and_says_so() {
        // hex:0.F's heap 61: one heap left, two (30 ways) or three.
        let rules = crate::games::octal::TakeBreakGame::parse("0.F", true, "hex:0.F", 0).unwrap();
        let mut family = HeapFamily::new("hex:0.F", rules, Settings::default());
        let n = BigUint::from(61u32);
        family.lookup(&n).unwrap();
        let (all, end) = family.scan_options(61, usize::MAX, u64::MAX, |_| true);
        let listed = family.moves(&Position::heap(61u32)).unwrap();
        assert_eq!((&all[..], end), (&listed[..], ScanEnd::Done));
        assert!(all.len() > 300);
        let (some, end) = family.scan_options(61, usize::MAX, 100, |_| true);
        assert_eq!((&some[..], end), (&all[..100], ScanEnd::Budget));
        let (two, end) = family.scan_options(61, 2, u64::MAX, |_| true);
        assert_eq!((&two[..], end), (&all[..2], ScanEnd::Limit));
    }

    #[test]
    fn the_first_options_of_a_heap_past_the_table_come_from_its_period() {
        // Dawson's Kayles (0.07): remove two, leaving one heap or two.
        let mut family = crate::spec::parse_game("0.07", Settings::default()).unwrap();
        let n = 100_000_000_000u64;
        let (first, more) = family.first_moves(&Position::heap(n), 3).unwrap();
        assert!(more);
        let parts: Vec<Vec<Position>> = first.iter().map(|m| m.to.clone()).collect();
        assert_eq!(
            parts,
            [
                vec![Position::heap(n - 2)],
                vec![Position::heap(n - 3), Position::heap(1u32)],
                vec![Position::heap(n - 4), Position::heap(2u32)],
            ]
        );
        for m in &first {
            let value = m.to.iter().fold(0, |acc, part| {
                acc ^ family.value(part).unwrap().as_u64().unwrap()
            });
            assert_eq!(m.value, Value::finite(value));
        }
    }
}
