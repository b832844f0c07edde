//! Games whose moves come from user code (a Rhai script, a Python class):
//! the parts that every such game needs, written once.
//!
//! User code can fail inside [`Game::options`](crate::game::Game::options), which cannot return an error,
//! so such a game keeps the first failure and hands it over through
//! [`Callbacks::take_error`]; [`CallbackFamily`] checks for it after every
//! call into the solver and reports it instead of whatever the solver made of
//! the truncated options. User code can also define moves that go round in a
//! cycle: the sparse solver then reports a cycle, and the family explores
//! every position reachable from the one asked about and gives it its
//! generalised value ([`crate::loopy`]), with draws, when every move leaves
//! one position.

use crate::error::{Error, Result};
use crate::family::{Family, GameFamily, Move, Settings};
use crate::game::Syntax;
use crate::nimber::Value;
use crate::position::{AsPosition, Position};
use std::collections::HashMap;

/// A game that runs user code, which may fail.
pub trait Callbacks: Syntax {
    /// Takes the first failure met inside [`Game::options`](crate::game::Game::options) (or
    /// [`Game::components`](crate::game::Game::components)) since the last call, if any. Once a failure is
    /// kept, the game should answer every call at once, with no options.
    fn take_error(&self) -> Option<Error>;
}

/// A [`Callbacks`] game solved by the sparse memo, with its failures
/// reported and its cycles given generalised values.
pub struct CallbackFamily<G: Callbacks>
where
    G::Position: AsPosition,
{
    inner: GameFamily<G>,
    max_states: usize,
    /// The last cyclic state space explored.
    loopy: Option<LoopySpace<G::Position>>,
    /// Raised to give up (Ctrl-C, or a server's time budget).
    stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// The long run's progress report, shared with the solver.
    progress: Option<SharedProgress>,
}

/// A progress report used by two searches in turn.
type SharedProgress = std::rc::Rc<std::cell::RefCell<Box<dyn FnMut(u64, u64)>>>;

/// A cyclic state space: positions, their index, the graph and its labels.
struct LoopySpace<P> {
    index: HashMap<P, u32>,
    graph: crate::loopy::Graph,
    labels: Vec<crate::loopy::Label>,
    order: Vec<u32>,
    positions: Vec<P>,
}

impl<G: Callbacks> CallbackFamily<G>
where
    G::Position: AsPosition,
{
    /// Wraps `game`, calling it `spec`; `heap_positions` enables `seq`.
    pub fn new(spec: impl Into<String>, game: G, settings: Settings, heap_positions: bool) -> Self {
        CallbackFamily {
            inner: GameFamily::new(spec, game, settings, heap_positions),
            max_states: settings.max_states,
            loopy: None,
            stop: None,
            progress: None,
        }
    }

    /// The game being solved.
    pub fn game(&self) -> &G {
        self.inner.game()
    }

    /// The game's own form of `position`, or an error naming it.
    pub fn typed(&self, position: &Position) -> Result<G::Position> {
        self.inner.typed(position)
    }

    /// `result`, unless the game failed on the way: then its failure. A
    /// state budget run out names the memory too (see
    /// [`crate::memory::positions_exhausted`]).
    pub fn check<T>(&self, result: Result<T>) -> Result<T> {
        if let Some(e) = self.inner.game().take_error() {
            return Err(e);
        }
        result.map_err(budget_in_memory)
    }

    /// Explores every position reachable from `root` and labels the graph.
    fn explore(&mut self, root: &G::Position) -> Result<&LoopySpace<G::Position>> {
        let known = self
            .loopy
            .as_ref()
            .is_some_and(|space| space.index.contains_key(root));
        if !known {
            let game = self.inner.game();
            let mut index = HashMap::new();
            let mut positions = vec![root.clone()];
            index.insert(root.clone(), 0u32);
            let mut edges = Vec::new();
            let mut next = 0;
            let mut options = Vec::new();
            let mut pace = crate::pace::Pace::start();
            while next < positions.len() {
                if positions.len() > self.max_states {
                    return Err(crate::memory::positions_exhausted(self.max_states));
                }
                if next.is_multiple_of(4096) {
                    let stopped = self
                        .stop
                        .as_ref()
                        .is_some_and(|flag| flag.load(std::sync::atomic::Ordering::Relaxed));
                    if stopped {
                        return Err(Error::Interrupted("interrupted".into()));
                    }
                    crate::memory::check(positions.len())?;
                    if let (true, Some(progress)) = (pace.due(), &self.progress) {
                        (progress.borrow_mut())(positions.len() as u64, 0);
                    }
                }
                options.clear();
                game.options(&positions[next], &mut options);
                if let Some(e) = game.take_error() {
                    return Err(e);
                }
                for option in options.drain(..) {
                    let [single] = option.as_slice() else {
                        return Err(Error::invalid(
                            "this game has a cycle and moves that leave several components; generalised values need one position per move",
                        ));
                    };
                    let single = game.canonical(single.clone());
                    let target = *index.entry(single.clone()).or_insert_with(|| {
                        positions.push(single);
                        (positions.len() - 1) as u32
                    });
                    edges.push((next as u32, target));
                }
                next += 1;
            }
            let graph = crate::loopy::Graph::new(positions.len(), &edges);
            let (labels, order) = crate::loopy::label_with_order(&graph);
            self.loopy = Some(LoopySpace {
                index,
                graph,
                labels,
                order,
                positions,
            });
        }
        Ok(self.loopy.as_ref().expect("explored"))
    }

    fn label_value(label: &crate::loopy::Label) -> Value {
        match label {
            crate::loopy::Label::Finite(v) => Value::finite(*v as u64),
            crate::loopy::Label::Infinite(k) => {
                Value::Infinite(k.iter().map(|v| *v as u64).collect())
            }
        }
    }
}

impl<G: Callbacks> Family for CallbackFamily<G>
where
    G::Position: AsPosition,
{
    fn spec(&self) -> String {
        self.inner.spec()
    }

    fn parse(&self, text: &str) -> Result<Position> {
        let r = self.inner.parse(text);
        self.check(r)
    }

    fn format(&self, position: &Position) -> String {
        self.inner.format(position)
    }

    fn configure_long_run(&mut self, run: crate::family::LongRun) {
        self.stop = Some(run.interrupted.clone());
        let shared: SharedProgress = std::rc::Rc::new(std::cell::RefCell::new(run.progress));
        self.progress = Some(shared.clone());
        self.inner.configure_long_run(crate::family::LongRun {
            progress: Box::new(move |done, total| (shared.borrow_mut())(done, total)),
            ..run
        });
    }

    fn value(&mut self, position: &Position) -> Result<Value> {
        let r = self.inner.value(position);
        match self.check(r) {
            Err(Error::Cycle { .. }) => {
                let root = self.game().canonical(self.inner.typed(position)?);
                let space = self.explore(&root)?;
                Ok(Self::label_value(
                    &space.labels[space.index[&root] as usize],
                ))
            }
            other => other,
        }
    }

    fn moves(&mut self, position: &Position) -> Result<Vec<Move>> {
        let r = self.inner.moves(position);
        match self.check(r) {
            Err(Error::Cycle { .. }) => {
                let root = self.game().canonical(self.inner.typed(position)?);
                let space = self.explore(&root)?;
                let v = space.index[&root];
                let mut targets: Vec<u32> = space.graph.followers(v).to_vec();
                targets.sort_unstable();
                targets.dedup();
                // Earliest-labelled first: the first winning move makes progress.
                targets.sort_by_key(|w| space.order[*w as usize]);
                Ok(targets
                    .into_iter()
                    .map(|w| Move {
                        to: vec![space.positions[w as usize].to_position()],
                        value: Self::label_value(&space.labels[w as usize]),
                    })
                    .collect())
            }
            other => other,
        }
    }

    fn is_heap_game(&self) -> bool {
        self.inner.is_heap_game()
    }
}

fn budget_in_memory(e: Error) -> Error {
    match e {
        Error::Budget { limit } => crate::memory::positions_exhausted(limit),
        other => other,
    }
}
