//! Search-solved games as a [`Family`]: `value`, sums with any other family,
//! winning moves, `play`, `table`, scripts, the web page and Python all reach
//! them the same way as every other game.
//!
//! A [`Kind`] is a family's text and drawing (Cram boards, Chomp diagrams,
//! graphs); an [`Engine`] is a [`Searcher`] seen through positions widened
//! to 128 bits, one per board shape.

use super::{SearchGame, Searcher, Stats, Stop};
use crate::error::{Error, Result};
use crate::family::{Family, LongRun, Move, Settings};
use crate::nimber::Value;
use crate::position::Position;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Debug;
use std::hash::Hash;
use std::rc::Rc;
use std::time::Duration;

/// A [`Searcher`] behind positions widened to 128 bits.
pub trait Engine {
    /// The nimber of a whole position.
    fn nimber(&mut self, pos: u128) -> std::result::Result<u32, Stop>;
    /// Whether a whole position has nimber `k`.
    fn has_nimber(&mut self, pos: u128, k: u32) -> std::result::Result<bool, Stop>;
    /// The whole positions one move away, in move order.
    fn options(&self, pos: u128) -> Vec<u128>;
    /// Sets the flag that stops a search.
    fn set_stop_flag(&mut self, flag: std::sync::Arc<std::sync::atomic::AtomicBool>);
    /// Sets the progress report.
    fn set_progress(&mut self, report: Box<dyn FnMut(Stats)>);
    /// Sets where the table is saved, and loads it; entries loaded.
    fn set_saving(&mut self, saving: super::Saving) -> Result<Option<usize>>;
    /// Saves the table, if a file is set.
    fn save(&mut self) -> Result<()>;
    /// Statistics.
    fn stats(&self) -> Stats;
    /// The engine as a distributed search uses it, if it searches (an
    /// engine that tabulates every position does not).
    fn distributed(&mut self) -> Option<&mut dyn super::cluster::Distributed> {
        None
    }
    /// Searches with `threads` threads.
    fn set_threads(&mut self, threads: usize) {
        let _ = threads;
    }
}

impl<G: SearchGame> Engine for Searcher<G> {
    fn nimber(&mut self, pos: u128) -> std::result::Result<u32, Stop> {
        let pos = self.game().import(pos);
        Searcher::nimber(self, pos)
    }
    fn has_nimber(&mut self, pos: u128, k: u32) -> std::result::Result<bool, Stop> {
        let pos = self.game().import(pos);
        Searcher::has_nimber(self, pos, k)
    }
    fn options(&self, outside: u128) -> Vec<u128> {
        // Every move of the whole position as it stands: not of its parts
        // after `split`, whose reductions (a Cram pendant cell dropped, say)
        // keep the value but not every move a player may make.
        let pos = self.game().import(outside);
        let mut opts = Vec::new();
        self.game().options(pos, &mut opts);
        let mut out: Vec<u128> = opts.iter().map(|&o| self.game().export(o)).collect();
        // Moves in board order: by the cells they change.
        out.sort_by_key(|&o| std::cmp::Reverse(outside & !o));
        out.dedup();
        out
    }
    fn set_stop_flag(&mut self, flag: std::sync::Arc<std::sync::atomic::AtomicBool>) {
        Searcher::set_stop_flag(self, flag)
    }
    fn set_progress(&mut self, report: Box<dyn FnMut(Stats)>) {
        Searcher::set_progress(self, report)
    }
    fn set_saving(&mut self, saving: super::Saving) -> Result<Option<usize>> {
        Searcher::set_saving(self, saving);
        self.load()
    }
    fn save(&mut self) -> Result<()> {
        Searcher::save(self)
    }
    fn stats(&self) -> Stats {
        Searcher::stats(self)
    }
    fn distributed(&mut self) -> Option<&mut dyn super::cluster::Distributed> {
        Some(self)
    }
    fn set_threads(&mut self, threads: usize) {
        Searcher::set_threads(self, threads)
    }
}

/// Positions laid out as `grundy table` shows them, rows first.
pub type Board<S> = Vec<Vec<(S, u128)>>;

/// A progress report shared by every engine of a family.
type Shared = Rc<RefCell<Box<dyn FnMut(u64, u64)>>>;

/// What a search-solved family says about its positions' text and shape.
pub trait Kind: Send + 'static {
    /// What selects an engine: a board's shape, or nothing.
    type Shape: Copy + Eq + Hash + Debug + Send + 'static;
    /// The family's canonical spec.
    fn spec(&self) -> String;
    /// Reads a typed position.
    fn parse(&self, text: &str) -> Result<(Self::Shape, u128)>;
    /// Reads a position value (from [`Kind::to_position`]).
    fn read_position(&self, p: &Position) -> Option<(Self::Shape, u128)>;
    /// The position as a value.
    fn to_position(&self, shape: Self::Shape, pos: u128) -> Position;
    /// The position in command-line syntax.
    fn format(&self, shape: Self::Shape, pos: u128) -> String;
    /// The position drawn for a person.
    fn show(&self, shape: Self::Shape, pos: u128) -> String {
        self.format(shape, pos)
    }
    /// A move in words (`domino b1-c1`).
    fn describe(&self, shape: Self::Shape, from: u128, to: u128) -> Option<String>;
    /// A move typed the short way (`a1-b1` for a domino, a vertex's name):
    /// the position it leaves, if `text` is one.
    fn shorthand(&self, shape: Self::Shape, pos: u128, text: &str) -> Option<u128> {
        let _ = (shape, pos, text);
        None
    }
    /// The name of an engine in a saved table.
    fn engine_tag(&self, shape: Self::Shape) -> String;
    /// A new engine for positions of this shape: a search's table gets
    /// `tt_bytes` (`--tt-size`); an engine that tabulates every position
    /// instead (small Chomp boards) does so only for at most `max_states`
    /// positions (`--max-states`).
    fn engine(
        &self,
        shape: Self::Shape,
        tt_bytes: usize,
        max_states: usize,
    ) -> Result<Box<dyn Engine>>;
    /// The positions `grundy table` shows, rows first, if the family has a table.
    fn table_shapes(&self, size: (u32, u32)) -> Option<Board<Self::Shape>> {
        let _ = size;
        None
    }
    /// The board of the first row and column of [`Kind::table_shapes`], as
    /// the game writes it (`[1, 1]` for a table that starts at the 1x1 board).
    fn table_origin(&self) -> [u64; 2] {
        [0, 0]
    }
    /// The heap game that row `row` of the table is, where a row is one
    /// (see [`crate::family::Family::table_row_game`]).
    fn table_row_game(&self, row: u64) -> Option<crate::family::RowGame> {
        let _ = row;
        None
    }
}

/// An engine for one position of a search-solved game, as a distributed
/// search needs it: `game` is `cram` or `chomp`, `position` a board
/// (`6x7`, or the board's text).
pub struct Opened {
    /// The engine.
    pub engine: Box<dyn Engine>,
    /// Its name, checked in facts and saved tables (`cram 6x7`).
    pub tag: String,
    /// The whole position, in the family's layout.
    pub root: u128,
}

/// A search-solved family.
pub struct SearchFamily<K: Kind> {
    kind: K,
    spec: String,
    settings: Settings,
    table_size: Option<(u32, u32)>,
    engines: HashMap<K::Shape, Box<dyn Engine>>,
    order: Vec<K::Shape>,
    run: Option<Run>,
}

/// The long-run settings, with the progress report shared by every engine.
struct Run {
    interrupted: std::sync::Arc<std::sync::atomic::AtomicBool>,
    progress: Shared,
    checkpoint: Option<std::path::PathBuf>,
    every: Duration,
}

impl Run {
    fn report(&self) -> Box<dyn FnMut(Stats)> {
        let progress = self.progress.clone();
        // Open-ended work: (positions searched, 0).
        Box::new(move |stats: Stats| (progress.borrow_mut())(stats.nodes, 0))
    }

    /// Tells the progress display that the search is over.
    fn finish(&self, nodes: u64) {
        (self.progress.borrow_mut())(nodes.max(1), nodes.max(1));
    }
}

impl<K: Kind> SearchFamily<K> {
    /// The family of `kind`, with `table_size` the board `grundy table` shows.
    pub fn new(kind: K, settings: Settings, table_size: Option<(u32, u32)>) -> Self {
        let spec = kind.spec();
        SearchFamily {
            kind,
            spec,
            settings,
            table_size,
            engines: HashMap::new(),
            order: Vec::new(),
            run: None,
        }
    }

    /// The spec with the table size, as the user named the family.
    pub fn with_spec(mut self, spec: String) -> Self {
        self.spec = spec;
        self
    }

    fn typed(&self, p: &Position) -> Result<(K::Shape, u128)> {
        self.kind
            .read_position(p)
            .ok_or_else(|| Error::invalid(format!("{p} is not a position of {}", self.spec)))
    }

    fn engine(&mut self, shape: K::Shape) -> Result<&mut Box<dyn Engine>> {
        if !self.engines.contains_key(&shape) {
            let mut engine =
                self.kind
                    .engine(shape, self.settings.tt_bytes, self.settings.max_states)?;
            if let Some(run) = &self.run {
                engine.set_stop_flag(run.interrupted.clone());
                engine.set_progress(run.report());
                if let Some(path) = &run.checkpoint {
                    // One table file per board shape searched in this run.
                    let path = if self.order.is_empty() {
                        path.clone()
                    } else {
                        let mut p = path.as_os_str().to_owned();
                        p.push(format!(".{}", self.order.len()));
                        p.into()
                    };
                    engine.set_saving(super::Saving {
                        path,
                        spec: self.kind.engine_tag(shape),
                        every: run.every,
                    })?;
                }
            }
            self.engines.insert(shape, engine);
            self.order.push(shape);
        }
        Ok(self.engines.get_mut(&shape).expect("inserted"))
    }

    fn stopped(&mut self, stop: Stop) -> Error {
        match stop {
            Stop::Interrupted => {
                let mut kept = String::new();
                for engine in self.engines.values_mut() {
                    let stats = engine.stats();
                    match engine.save() {
                        Ok(()) => {}
                        Err(e) => return e,
                    }
                    kept = format!(" after {} positions ({} known)", stats.nodes, stats.entries);
                }
                let saved = match self.run.as_ref().and_then(|r| r.checkpoint.as_ref()) {
                    Some(path) => format!(
                        "; the table is saved in {}: run the same command to resume",
                        path.display()
                    ),
                    None => "; keep the work of a long search with --checkpoint FILE".into(),
                };
                Error::Interrupted(format!("interrupted{kept}{saved}"))
            }
            Stop::Budget(n) => Error::Budget { limit: n as usize },
            Stop::Io(e) => Error::Io(e),
        }
    }

    fn done(&mut self, shape: K::Shape) {
        if crate::page::is_set("GRUNDY_SEARCH_STATS") {
            if let Some(engine) = self.engines.get(&shape) {
                let s = engine.stats();
                crate::page::note(&format!(
                    "search: {} positions ({} expanded) in {:.2} s, {} table entries of {} ({} replaced)",
                    s.nodes,
                    s.expanded,
                    s.elapsed.as_secs_f64(),
                    s.entries,
                    s.capacity,
                    s.replaced
                ));
            }
        }
        if let (Some(run), Some(engine)) = (&self.run, self.engines.get(&shape)) {
            run.finish(engine.stats().nodes);
        }
    }

    fn nimber(&mut self, shape: K::Shape, pos: u128) -> Result<u32> {
        let result = self.engine(shape)?.nimber(pos);
        self.done(shape);
        match result {
            Ok(v) => {
                self.engine(shape)?.save()?;
                Ok(v)
            }
            Err(stop) => Err(self.stopped(stop)),
        }
    }

    fn moves_where(
        &mut self,
        position: &Position,
        limit: usize,
        mut wanted: impl FnMut(&mut dyn Engine, u128) -> std::result::Result<Option<u32>, Stop>,
    ) -> Result<Vec<Move>> {
        let (shape, pos) = self.typed(position)?;
        let options = self.engine(shape)?.options(pos);
        let mut moves = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for o in options {
            if moves.len() >= limit {
                break;
            }
            if !seen.insert(o) {
                continue;
            }
            let engine = self.engine(shape)?;
            match wanted(engine.as_mut(), o) {
                Ok(Some(v)) => moves.push(Move {
                    to: vec![self.kind.to_position(shape, o)],
                    value: Value::finite(v as u64),
                }),
                Ok(None) => {}
                Err(stop) => return Err(self.stopped(stop)),
            }
        }
        self.done(shape);
        self.engine(shape)?.save()?;
        Ok(moves)
    }
}

impl<K: Kind> Family for SearchFamily<K> {
    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn parse(&self, text: &str) -> Result<Position> {
        let (shape, pos) = self.kind.parse(text)?;
        Ok(self.kind.to_position(shape, pos))
    }

    fn format(&self, position: &Position) -> String {
        match self.kind.read_position(position) {
            Some((shape, pos)) => self.kind.format(shape, pos),
            None => position.to_string(),
        }
    }

    fn show(&self, position: &Position) -> String {
        match self.kind.read_position(position) {
            Some((shape, pos)) => self.kind.show(shape, pos),
            None => position.to_string(),
        }
    }

    fn describe_move(&self, from: &Position, to: &[Position]) -> Option<String> {
        let (shape, a) = self.kind.read_position(from)?;
        let (_, b) = self.kind.read_position(to.first()?)?;
        self.kind.describe(shape, a, b)
    }

    fn shorthand(&self, position: &Position, text: &str) -> Option<Vec<Position>> {
        let (shape, pos) = self.kind.read_position(position)?;
        let to = self.kind.shorthand(shape, pos, text)?;
        Some(vec![self.kind.to_position(shape, to)])
    }

    fn saves_checkpoints(&self) -> bool {
        true
    }

    fn configure_long_run(&mut self, run: LongRun) {
        let run = Run {
            interrupted: run.interrupted,
            progress: Rc::new(RefCell::new(run.progress)),
            checkpoint: run.checkpoint,
            every: run.checkpoint_every,
        };
        for engine in self.engines.values_mut() {
            engine.set_stop_flag(run.interrupted.clone());
            engine.set_progress(run.report());
        }
        self.run = Some(run);
    }

    fn value(&mut self, position: &Position) -> Result<Value> {
        let (shape, pos) = self.typed(position)?;
        Ok(Value::finite(self.nimber(shape, pos)? as u64))
    }

    fn moves(&mut self, position: &Position) -> Result<Vec<Move>> {
        self.moves_where(position, usize::MAX, |e, o| e.nimber(o).map(Some))
    }

    fn moves_to(&mut self, position: &Position, target: &Value, limit: usize) -> Result<Vec<Move>> {
        let Some(k) = target.as_u64().filter(|k| *k <= u32::MAX as u64) else {
            return Ok(vec![]);
        };
        let k = k as u32;
        self.moves_where(position, limit, |e, o| Ok(e.has_nimber(o, k)?.then_some(k)))
    }

    fn table_origin(&self) -> [u64; 2] {
        self.kind.table_origin()
    }

    fn table_row_game(&self, row: u64) -> Option<crate::family::RowGame> {
        self.kind.table_row_game(row)
    }

    fn table(&mut self) -> Result<Vec<Vec<Value>>> {
        let shapes = self
            .table_size
            .and_then(|size| self.kind.table_shapes(size))
            .ok_or_else(|| {
                Error::invalid(format!(
                    "{} has no table of values without a board size; try `grundy table {}:5x5`",
                    self.spec, self.spec
                ))
            })?;
        let mut rows = Vec::new();
        for row in shapes {
            let mut values = Vec::new();
            for (shape, pos) in row {
                values.push(Value::finite(self.nimber(shape, pos)? as u64));
            }
            rows.push(values);
        }
        Ok(rows)
    }
}

/// How long between table saves when a run does not say.
pub const DEFAULT_SAVE_EVERY: Duration = Duration::from_secs(60);
