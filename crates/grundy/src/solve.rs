//! The memoised solver: Grundy values of positions of any [`Game`], found by an
//! iterative depth-first search that visits only the positions reachable from
//! the one asked about.
//!
//! The search keeps its own stack, so a game a million moves deep does not
//! overflow the thread's stack; it marks positions that are on the stack, so a
//! move graph with a cycle is reported (with the positions on the cycle) instead
//! of looping; and it counts memo entries against a state budget, so a runaway
//! search ends with a clear error instead of exhausting memory.

use crate::game::{Game, Parts};
use crate::nimber::Mex;
use rustc_hash::FxHashMap;

/// The options of a position, each with the value of the sum it leaves.
pub type ValuedOptions<P> = Vec<(Parts<P>, u64)>;

/// Default number of positions a solver may remember before it gives up.
pub const DEFAULT_MAX_STATES: usize = 50_000_000;

/// Why a search stopped without a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SolveError<P> {
    /// The positions of a cycle, in move order, the first repeated at the end.
    Cycle(Vec<P>),
    /// The memo reached this many positions.
    Budget(usize),
    /// The stop flag was raised (Ctrl-C, or a server's time budget).
    Interrupted,
    /// The process holds more memory than the budget ([`crate::memory`]);
    /// the message says how much.
    Memory(String),
}

/// How many new positions a solver remembers between looks at the stop
/// flag, the memory it holds and the clock.
const CHECK_EVERY: usize = 4096;

#[derive(Debug, Clone, Copy)]
enum Entry {
    Done(u64),
    /// On the search stack at this depth: reaching it again closes a cycle.
    OnStack(usize),
}

struct Frame<P> {
    position: P,
    /// Each option as the canonical components it leaves.
    options: Vec<Parts<P>>,
    option: usize,
    part: usize,
}

/// A memoised Grundy-value solver for one game.
///
/// Iterative (no recursion limit), it reports cycles and stops at a state
/// budget instead of exhausting memory.
///
/// ```
/// use grundy::game::{Game, Parts};
/// use grundy::solve::{SolveError, Solver};
/// use smallvec::smallvec;
///
/// /// Take 1, 2 or 3 from a heap.
/// struct TakeThree;
/// impl Game for TakeThree {
///     type Position = u64;
///     fn options(&self, &n: &u64, out: &mut Vec<Parts<u64>>) {
///         for k in 1..=3.min(n) {
///             out.push(smallvec![n - k]);
///         }
///     }
/// }
///
/// let mut solver = Solver::new(TakeThree);
/// assert_eq!(solver.value(&10).unwrap(), 2); // 10 mod 4
/// let mut small = Solver::with_max_states(TakeThree, 100);
/// assert!(matches!(small.value(&1000), Err(SolveError::Budget(100))));
/// ```
pub struct Solver<G: Game> {
    game: G,
    memo: FxHashMap<G::Position, Entry>,
    max_states: usize,
    mex: Mex,
    buffer: Vec<Parts<G::Position>>,
    stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Told the number of positions remembered, once a second after the
    /// first, while a search runs.
    progress: Option<Box<dyn FnMut(u64)>>,
    /// When the current search reports.
    pace: Option<crate::pace::Pace>,
    /// When the stop flag, the memory and the progress are looked at next.
    checks: Checks,
}

/// How often the solver looks at its stop flag, the memory and the clock:
/// every [`CHECK_EVERY`] new positions for games whose moves are cheap, but
/// more often for games whose moves are slow (a script doing real work in
/// `moves` may take milliseconds a position, and 4096 of them would keep a
/// terminal silent, and Ctrl-C unseen, for a minute): the interval halves
/// while the time between looks is over a tenth of a second, and doubles
/// while it is under a fortieth.
#[derive(Debug, Clone, Copy)]
struct Checks {
    every: usize,
    left: usize,
    last: crate::clock::Instant,
}

impl Checks {
    /// Starts by looking at once, and doubles the interval while looks
    /// come quickly: a slow game is seen to be slow from its first
    /// positions, a fast one reaches [`CHECK_EVERY`] within a few dozen.
    fn new() -> Self {
        Checks {
            every: 1,
            left: 1,
            last: crate::clock::Instant::now(),
        }
    }

    /// Whether to look now; counts one new position.
    fn due(&mut self) -> bool {
        self.left -= 1;
        if self.left > 0 {
            return false;
        }
        let now = crate::clock::Instant::now();
        let took = now - self.last;
        self.last = now;
        if took > std::time::Duration::from_millis(100) {
            self.every = (self.every / 2).max(1);
        } else if took < std::time::Duration::from_millis(25) {
            self.every = (self.every * 2).min(CHECK_EVERY);
        }
        self.left = self.every;
        true
    }
}

impl<G: Game> Solver<G> {
    /// A solver with the default state budget.
    pub fn new(game: G) -> Self {
        Self::with_max_states(game, DEFAULT_MAX_STATES)
    }

    /// A solver that gives up after remembering `max_states` positions.
    pub fn with_max_states(game: G, max_states: usize) -> Self {
        Solver {
            game,
            memo: FxHashMap::default(),
            max_states: max_states.max(1),
            mex: Mex::new(),
            buffer: Vec::new(),
            stop: None,
            progress: None,
            pace: None,
            checks: Checks::new(),
        }
    }

    /// Reports the number of positions remembered, about once a second,
    /// while a search longer than a second runs.
    pub fn set_progress(&mut self, report: Box<dyn FnMut(u64)>) {
        self.progress = Some(report);
    }

    /// Gives up with [`SolveError::Interrupted`] soon after `flag` is set.
    pub fn set_stop_flag(&mut self, flag: std::sync::Arc<std::sync::atomic::AtomicBool>) {
        self.stop = Some(flag);
    }

    /// Why to give up now, if at all: the stop flag and the memory budget
    /// are looked at once every [`CHECK_EVERY`] new positions at most (see
    /// [`Checks`]), which keeps them off the hot path; progress is reported
    /// then too.
    fn stopped(&mut self) -> Option<SolveError<G::Position>> {
        if !self.checks.due() {
            return None;
        }
        let solved = self.memo.len();
        if self
            .stop
            .as_ref()
            .is_some_and(|flag| flag.load(std::sync::atomic::Ordering::Relaxed))
        {
            return Some(SolveError::Interrupted);
        }
        if let Err(e) = crate::memory::check(solved) {
            return Some(SolveError::Memory(e.to_string()));
        }
        if let (Some(report), Some(pace)) = (&mut self.progress, &mut self.pace) {
            if pace.due() {
                report(solved as u64);
            }
        }
        None
    }

    /// The game being solved.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// How many positions have been solved so far.
    pub fn solved(&self) -> usize {
        self.memo.len()
    }

    /// The Grundy value of a position: the XOR of its components' values.
    pub fn value(&mut self, position: &G::Position) -> Result<u64, SolveError<G::Position>> {
        let mut total = 0;
        for part in self.game.components(position) {
            let part = self.game.canonical(part);
            total ^= self.component_value(part)?;
        }
        Ok(total)
    }

    /// Every option of `position`, with the value of the sum it leaves.
    pub fn options_with_values(
        &mut self,
        position: &G::Position,
    ) -> Result<ValuedOptions<G::Position>, SolveError<G::Position>> {
        let mut options = Vec::new();
        self.game.options(position, &mut options);
        let mut result = Vec::with_capacity(options.len());
        for option in options {
            let mut value = 0;
            for part in &option {
                value ^= self.value(part)?;
            }
            result.push((option, value));
        }
        Ok(result)
    }

    /// Splits every option into canonical components, ready for the memo.
    fn expand(&mut self, position: &G::Position) -> Vec<Parts<G::Position>> {
        self.buffer.clear();
        self.game.options(position, &mut self.buffer);
        let mut options = Vec::with_capacity(self.buffer.len());
        for option in self.buffer.drain(..) {
            let mut flat = Parts::new();
            for part in option {
                for component in self.game.components(&part) {
                    flat.push(self.game.canonical(component));
                }
            }
            options.push(flat);
        }
        options
    }

    fn component_value(&mut self, root: G::Position) -> Result<u64, SolveError<G::Position>> {
        if let Some(Entry::Done(value)) = self.memo.get(&root) {
            return Ok(*value);
        }
        if self.memo.len() >= self.max_states {
            return Err(SolveError::Budget(self.max_states));
        }
        self.pace = Some(crate::pace::Pace::start());
        let mut stack: Vec<Frame<G::Position>> = Vec::new();
        self.memo.insert(root.clone(), Entry::OnStack(0));
        let options = self.expand(&root);
        stack.push(Frame {
            position: root,
            options,
            option: 0,
            part: 0,
        });
        loop {
            let top = stack.last_mut().expect("stack is never empty here");
            let mut child = None;
            while top.option < top.options.len() {
                let parts = &top.options[top.option];
                if top.part == parts.len() {
                    top.option += 1;
                    top.part = 0;
                    continue;
                }
                let part = &parts[top.part];
                match self.memo.get(part) {
                    Some(Entry::Done(_)) => top.part += 1,
                    Some(Entry::OnStack(depth)) => {
                        let depth = *depth;
                        let mut cycle: Vec<_> =
                            stack[depth..].iter().map(|f| f.position.clone()).collect();
                        cycle.push(stack[depth].position.clone());
                        self.abandon(&stack);
                        return Err(SolveError::Cycle(cycle));
                    }
                    None => {
                        child = Some(part.clone());
                        break;
                    }
                }
            }
            if let Some(child) = child {
                if self.memo.len() >= self.max_states {
                    self.abandon(&stack);
                    return Err(SolveError::Budget(self.max_states));
                }
                if let Some(why) = self.stopped() {
                    self.abandon(&stack);
                    return Err(why);
                }
                self.memo.insert(child.clone(), Entry::OnStack(stack.len()));
                let options = self.expand(&child);
                stack.push(Frame {
                    position: child,
                    options,
                    option: 0,
                    part: 0,
                });
                continue;
            }
            let frame = stack.pop().expect("stack is never empty here");
            for option in &frame.options {
                let mut value = 0;
                for part in option {
                    match self.memo.get(part) {
                        Some(Entry::Done(v)) => value ^= v,
                        _ => unreachable!("every part was solved before its parent"),
                    }
                }
                self.mex.insert(value);
            }
            let value = self.mex.take();
            self.memo.insert(frame.position, Entry::Done(value));
            if stack.is_empty() {
                return Ok(value);
            }
        }
    }

    /// Forgets the positions of an interrupted search so the memo stays consistent.
    fn abandon(&mut self, stack: &[Frame<G::Position>]) {
        for frame in stack {
            self.memo.remove(&frame.position);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use smallvec::smallvec;

    /// Subtraction of 1 or 2, and a deliberately cyclic game for the error path.
    struct TakeOneOrTwo;
    impl Game for TakeOneOrTwo {
        type Position = u64;
        fn options(&self, n: &u64, out: &mut Vec<Parts<u64>>) {
            for take in [1, 2] {
                if *n >= take {
                    out.push(smallvec![n - take]);
                }
            }
        }
    }

    struct Ring;
    impl Game for Ring {
        type Position = u64;
        fn options(&self, n: &u64, out: &mut Vec<Parts<u64>>) {
            // 0 -> 1 -> 2 -> 0, and 3 -> 0; 5 is terminal.
            match n {
                0..=2 => out.push(smallvec![(n + 1) % 3]),
                3 => out.push(smallvec![0]),
                _ => {}
            }
        }
    }

    /// Kayles as a take-and-break game: moves leave two heaps.
    struct Kayles;
    impl Game for Kayles {
        type Position = u64;
        fn options(&self, n: &u64, out: &mut Vec<Parts<u64>>) {
            for take in 1..=2u64.min(*n) {
                for left in 0..=(n - take) / 2 {
                    out.push(smallvec![left, n - take - left]);
                }
            }
        }
    }

    #[test]
    fn subtraction_values_are_n_mod_3() {
        let mut solver = Solver::new(TakeOneOrTwo);
        for n in 0..50 {
            assert_eq!(solver.value(&n).unwrap(), n % 3);
        }
    }

    #[test]
    fn kayles_matches_oeis_a002186() {
        // OEIS A002186, Grundy values of Kayles.
        let expected = [
            0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4,
        ];
        let mut solver = Solver::new(Kayles);
        for (n, want) in expected.iter().enumerate() {
            assert_eq!(solver.value(&(n as u64)).unwrap(), *want, "n = {n}");
        }
    }

    #[test]
    fn deep_games_do_not_overflow_the_stack() {
        let mut solver = Solver::new(TakeOneOrTwo);
        assert_eq!(solver.value(&1_000_000).unwrap(), 1_000_000 % 3);
    }

    #[test]
    fn cycles_are_reported_and_the_memo_stays_usable() {
        let mut solver = Solver::new(Ring);
        match solver.value(&3) {
            Err(SolveError::Cycle(cycle)) => {
                assert_eq!(cycle.first(), cycle.last());
                assert!(cycle.len() == 4, "{cycle:?}");
            }
            other => panic!("expected a cycle, got {other:?}"),
        }
        assert_eq!(solver.value(&5).unwrap(), 0);
        assert!(matches!(solver.value(&0), Err(SolveError::Cycle(_))));
    }

    /// A game whose moves take a while to list, as a script's may.
    struct SlowChain;
    impl Game for SlowChain {
        type Position = u64;
        fn options(&self, n: &u64, out: &mut Vec<Parts<u64>>) {
            std::thread::sleep(std::time::Duration::from_millis(2));
            if *n > 0 {
                out.push(smallvec![n - 1]);
            }
        }
    }

    #[test]
    fn a_game_with_slow_moves_reports_progress_and_sees_ctrl_c_soon() {
        // 4096 positions of 2 ms each: a look at the clock only every 4096
        // positions would keep a terminal silent for over eight seconds.
        // The first report presses Ctrl-C (sets the stop flag).
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let first = std::rc::Rc::new(std::cell::Cell::new(None));
        let mut solver = Solver::new(SlowChain);
        solver.set_stop_flag(stop.clone());
        let (seen, started) = (first.clone(), crate::clock::Instant::now());
        solver.set_progress(Box::new(move |n| {
            if seen.get().is_none() {
                seen.set(Some((n, started.elapsed())));
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        }));
        assert_eq!(solver.value(&1_000_000), Err(SolveError::Interrupted));
        let (positions, when) = first.get().expect("a progress report");
        assert!(
            positions > 0 && positions < 4096,
            "{positions} positions at the first report"
        );
        assert!(
            when < std::time::Duration::from_secs(4),
            "first report after {when:?}"
        );
        let stopped_after = started.elapsed() - when;
        assert!(
            stopped_after < std::time::Duration::from_secs(1),
            "{stopped_after:?}"
        );
    }

    #[test]
    fn the_state_budget_stops_runaway_searches() {
        let mut solver = Solver::with_max_states(TakeOneOrTwo, 100);
        assert_eq!(solver.value(&1000), Err(SolveError::Budget(100)));
        assert_eq!(solver.value(&50).unwrap(), 50 % 3);
    }
}
