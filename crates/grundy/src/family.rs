//! One object-safe face for every family of games, so that a sum can mix Nim
//! heaps, subtraction games and knights, and the command line can treat them
//! alike.
//!
//! Positions cross this boundary as text in command-line syntax: that is what
//! users type and what JSON reports, and it lets families keep whatever typed
//! representation suits their engine. Adapters turn a typed [`Game`] (solved by
//! the sparse [`Solver`]) or a [`HeapGame`] (solved by a dense [`HeapTable`])
//! into a [`Family`].

use crate::error::{Error, Result};
use crate::game::{Parts, Syntax};
use crate::heap::{HeapGame, HeapTable};
use crate::nimber::Value;
use crate::solve::{SolveError, Solver};
use num_bigint::BigUint;
use num_traits::ToPrimitive;

/// Limits that every family honours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    /// The most positions a family may tabulate or remember.
    pub max_states: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            max_states: crate::solve::DEFAULT_MAX_STATES,
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

/// A move of one component: what it leaves, and the value of what it leaves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Move {
    /// The positions left, in command-line syntax (empty: nothing is left).
    pub to: Vec<String>,
    /// The Grundy value of the sum of `to`.
    pub value: Value,
}

/// A family of games, as the command line and sums see it.
pub trait Family {
    /// The family's spec in canonical form, e.g. `sub:1,2,3`.
    fn spec(&self) -> String;

    /// Parses a position and writes it back in canonical syntax.
    fn normalize(&self, position: &str) -> Result<String>;

    /// The Grundy value of a position.
    fn value(&mut self, position: &str) -> Result<Value>;

    /// Every move from a position, without repeats, in a stable order.
    fn moves(&mut self, position: &str) -> Result<Vec<Move>>;

    /// The moves whose result has value `target`, at most `limit` of them.
    ///
    /// Families with too many moves to list (a Nim heap of 2^90) override this.
    fn moves_to(&mut self, position: &str, target: &Value, limit: usize) -> Result<Vec<Move>> {
        Ok(self
            .moves(position)?
            .into_iter()
            .filter(|m| &m.value == target)
            .take(limit)
            .collect())
    }

    /// The board of values of a grid or bar game (`grundy table`), rows first.
    fn table(&mut self) -> Result<Vec<Vec<Value>>> {
        Err(Error::invalid(format!(
            "{} has no table of values; `grundy table` is for board games such as knight:8 or choco:10x10",
            self.spec()
        )))
    }

    /// Sets how long computations report progress, notice interruption and
    /// save their work. Families whose work is always quick ignore it.
    fn configure_long_run(&mut self, run: LongRun) {
        let _ = run;
    }

    /// Recomputes `samples` tabulated heaps (spread over the table) by the
    /// plain reference method and returns how many were checked; an error if
    /// any differs. Families without a separate fast path check nothing.
    fn verify(&mut self, samples: usize) -> Result<usize> {
        let _ = samples;
        Ok(0)
    }

    /// Whether positions are heap sizes, so that `seq` makes sense.
    fn is_heap_game(&self) -> bool {
        false
    }

    /// Streams the values of heaps `from..=to` to `sink`.
    fn sequence(
        &mut self,
        from: u64,
        to: u64,
        sink: &mut dyn FnMut(u64, &Value) -> Result<()>,
    ) -> Result<()> {
        if !self.is_heap_game() {
            return Err(Error::invalid(format!(
                "{} positions are not heap sizes, so it has no Grundy sequence (try `grundy table` or `grundy value`)",
                self.spec()
            )));
        }
        for n in from..=to {
            let value = self.value(&n.to_string())?;
            sink(n, &value)?;
        }
        Ok(())
    }
}

/// Turns a solver failure into a user-facing error, naming positions in syntax.
pub fn solve_error<G: Syntax>(game: &G, error: SolveError<G::Position>) -> Error {
    match error {
        SolveError::Budget(limit) => Error::Budget { limit },
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
pub struct GameFamily<G: Syntax> {
    spec: String,
    solver: Solver<G>,
    heap_positions: bool,
}

impl<G: Syntax> GameFamily<G> {
    /// Wraps `game`, calling it `spec`; `heap_positions` enables `seq`.
    pub fn new(spec: impl Into<String>, game: G, settings: Settings, heap_positions: bool) -> Self {
        GameFamily {
            spec: spec.into(),
            solver: Solver::with_max_states(game, settings.max_states),
            heap_positions,
        }
    }
}

impl<G: Syntax> Family for GameFamily<G> {
    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn normalize(&self, position: &str) -> Result<String> {
        let game = self.solver.game();
        Ok(game.format_position(&game.parse_position(position)?))
    }

    fn value(&mut self, position: &str) -> Result<Value> {
        let position = self.solver.game().parse_position(position)?;
        match self.solver.value(&position) {
            Ok(v) => Ok(Value::finite(v)),
            Err(e) => Err(solve_error(self.solver.game(), e)),
        }
    }

    fn moves(&mut self, position: &str) -> Result<Vec<Move>> {
        let position = self.solver.game().parse_position(position)?;
        let options = match self.solver.options_with_values(&position) {
            Ok(options) => options,
            Err(e) => return Err(solve_error(self.solver.game(), e)),
        };
        let game = self.solver.game();
        Ok(dedupe_moves(
            options
                .into_iter()
                .map(|(parts, value)| Move {
                    to: parts.iter().map(|p| game.format_position(p)).collect(),
                    value: Value::finite(value),
                })
                .collect(),
        ))
    }

    fn is_heap_game(&self) -> bool {
        self.heap_positions
    }
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

/// A [`HeapGame`] tabulated densely, as a [`Family`].
pub struct HeapFamily<H: HeapGame> {
    spec: String,
    game: H,
    table: HeapTable,
    settings: Settings,
    long_run: Option<LongRun>,
}

impl<H: HeapGame> HeapFamily<H> {
    /// Wraps `game`, calling it `spec`.
    pub fn new(spec: impl Into<String>, game: H, settings: Settings) -> Self {
        HeapFamily {
            spec: spec.into(),
            game,
            table: HeapTable::new(),
            settings,
            long_run: None,
        }
    }

    /// Fills the table to heap `m`, honouring the long-run settings: resumes
    /// from the checkpoint, reports progress, saves periodically and stops
    /// (saving first) when interrupted.
    fn tabulate(&mut self, m: usize) -> Result<()> {
        if m < self.table.len() {
            return Ok(());
        }
        let Some(run) = self.long_run.as_mut() else {
            self.table.extend_to(&self.game, m);
            return Ok(());
        };
        if self.table.is_empty() {
            if let Some(path) = &run.checkpoint {
                if let Some(values) = crate::heap::checkpoint::load(path, &self.spec)? {
                    self.table = HeapTable::resume(&self.game, values);
                }
            }
        }
        let mut last_save = std::time::Instant::now();
        loop {
            let interrupted = run.interrupted.clone();
            let progress = &mut run.progress;
            let every = run.checkpoint_every;
            let wants_save = run.checkpoint.is_some();
            let outcome = self.table.extend_with_progress(&self.game, m, &mut |done| {
                progress(done as u64, m as u64 + 1);
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
                    crate::heap::checkpoint::save(path, &self.spec, &self.table.compact())?;
                    last_save = std::time::Instant::now();
                }
            }
            if done {
                (run.progress)(self.table.len() as u64, m as u64 + 1);
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
                        " after {} heaps (use --checkpoint FILE to keep the work)",
                        self.table.len()
                    ),
                };
                return Err(Error::Interrupted(format!("interrupted{saved}")));
            }
        }
    }

    /// The value of heap `n`, tabulating up to it if needed and allowed.
    fn lookup(&mut self, n: &BigUint) -> Result<u64> {
        let small = n.to_usize().filter(|m| *m < self.settings.max_states);
        match small {
            Some(m) => {
                self.tabulate(m)?;
                Ok(self.table.get(m).expect("tabulated just now") as u64)
            }
            None => Err(Error::TooLarge(format!(
                "heap {n} of {} is beyond the state budget ({} heaps) and no period is known for this game; \
                 raise --max-states, or see whether `grundy period {}` proves one",
                self.spec, self.settings.max_states, self.spec
            ))),
        }
    }

    fn heap_value(&mut self, parts: &[u64]) -> Result<u64> {
        let mut value = 0;
        for part in parts {
            value ^= self.lookup(&BigUint::from(*part))?;
        }
        Ok(value)
    }
}

impl<H: HeapGame> Family for HeapFamily<H> {
    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn configure_long_run(&mut self, run: LongRun) {
        self.long_run = Some(run);
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

    fn normalize(&self, position: &str) -> Result<String> {
        Ok(parse_heap(position)?.to_string())
    }

    fn value(&mut self, position: &str) -> Result<Value> {
        let n = parse_heap(position)?;
        Ok(Value::finite(self.lookup(&n)?))
    }

    fn moves(&mut self, position: &str) -> Result<Vec<Move>> {
        let n = parse_heap(position)?;
        // Tabulating first also checks the heap is within reach.
        self.lookup(&n)?;
        let n = n.to_u64().expect("tabulated heaps fit in u64");
        let mut options: Vec<Parts<u64>> = Vec::new();
        self.game.heap_options(n, &mut options);
        let mut moves = Vec::with_capacity(options.len());
        for mut parts in options {
            parts.retain(|h| *h > 0);
            parts.sort_unstable_by(|a, b| b.cmp(a));
            let value = self.heap_value(&parts)?;
            moves.push(Move {
                to: parts.iter().map(|h| h.to_string()).collect(),
                value: Value::finite(value),
            });
        }
        Ok(dedupe_moves(moves))
    }

    fn is_heap_game(&self) -> bool {
        true
    }

    fn sequence(
        &mut self,
        from: u64,
        to: u64,
        sink: &mut dyn FnMut(u64, &Value) -> Result<()>,
    ) -> Result<()> {
        self.lookup(&BigUint::from(to))?;
        for n in from..=to {
            let value = self.table.get(n as usize).expect("tabulated above");
            sink(n, &Value::finite(value as u64))?;
        }
        Ok(())
    }
}
