//! Sums of games: the Sprague-Grundy theorem at work. The value of a sum is the
//! nim-sum (XOR) of its components' values; the player to move wins exactly when
//! it is non-zero, and the winning moves are the moves of one component to a
//! position whose value equals the nim-sum of all the others.
//!
//! Components carry generalised values (see [`Value`]); a sum with infinite
//! components follows Smith's rule for loopy games: one ∞(K) beside a finite
//! remainder `a` is a first-player win when `a` is in K and a draw otherwise;
//! two or more infinities are a draw.

use crate::error::Result;
use crate::family::Family;
use crate::nimber::Value;
use crate::position::Position;
use num_bigint::BigUint;

/// Who wins a sum with best play, from the point of view of the player to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Winner {
    /// The player to move wins.
    First,
    /// The player to move loses.
    Second,
    /// Neither can force a win (loopy games only).
    Draw,
}

impl Winner {
    /// `"first"`, `"second"` or `"draw"`, as in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Winner::First => "first",
            Winner::Second => "second",
            Winner::Draw => "draw",
        }
    }
}

/// One component of a sum: a position of one of the sum's families.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Component {
    /// Index into the sum's families.
    pub family: usize,
    /// The position (its family writes it: [`Family::format`]).
    pub position: Position,
}

/// A move in a sum that wins (or, in a drawn loopy sum, keeps the draw).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WinningMove {
    /// Index of the component moved in (0-based).
    pub component: usize,
    /// Its position before the move.
    pub from: Position,
    /// What the move leaves of it.
    pub to: Vec<Position>,
}

/// Everything `grundy value` reports about a sum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    /// The value of each component, in order.
    pub values: Vec<Value>,
    /// The value of the whole sum.
    pub nim_sum: Value,
    /// The outcome with best play.
    pub winner: Winner,
    /// The winning moves: all of them unless `truncated`.
    pub winning_moves: Vec<WinningMove>,
    /// Whether more winning moves exist than were listed: the limit cut
    /// the search short. (Those of an `unlisted` component may exist too.)
    pub truncated: bool,
    /// Components whose winning moves are not among `winning_moves`, each
    /// with the reason: too many moves to search (a heap of a three-heap
    /// code past what a scan can cover, a Moore's Nim position past the
    /// search). The sum still has the value and winner above.
    pub unlisted: Vec<(usize, String)>,
    /// In a drawn sum, the moves that keep the draw (after which the opponent
    /// cannot win); empty otherwise. Components with too many moves to list
    /// (a Nim heap of 2^90) are left out.
    pub drawing_moves: Vec<WinningMove>,
}

/// A sum of components from one or more families.
///
/// ```
/// use grundy::family::Settings;
/// use grundy::spec::parse_game;
/// use grundy::sum::{Sum, Winner};
///
/// let mut sum = Sum::new();
/// let take = sum.add_family(parse_game("sub:1,2,3", Settings::default())?);
/// let nim = sum.add_family(parse_game("nim", Settings::default())?);
/// for heap in ["3", "4", "5"] {
///     sum.add_component(take, heap)?;
/// }
/// sum.add_component(nim, "7")?;
/// let analysis = sum.analyze(1000)?;
/// assert_eq!(analysis.nim_sum.to_string(), "5"); // 3 ^ 0 ^ 1 ^ 7
/// assert_eq!(analysis.winner, Winner::First);
/// // The only winning move: the Nim heap of 7 down to 2.
/// let only = &analysis.winning_moves[..];
/// assert_eq!(only.len(), 1);
/// assert_eq!(sum.format(nim, &only[0].from), "7");
/// assert_eq!(sum.format(nim, &only[0].to[0]), "2");
/// # Ok::<(), grundy::Error>(())
/// ```
#[derive(Default)]
pub struct Sum {
    families: Vec<Box<dyn Family>>,
    components: Vec<Component>,
    /// What searches over the whole sum (misère play) watch.
    watch: Watch,
}

/// What needs the memory when a misère search fills the budget, and what to do.
pub(crate) const MISERE_WORK: &str = "misère play of this sum";
pub(crate) const MISERE_ADVICE: &str = "try smaller heaps or fewer components";

/// The stop flag and progress report of searches over a whole sum.
#[derive(Default)]
struct Watch {
    stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    progress: Option<Box<dyn FnMut(u64, u64)>>,
    /// When the current search reports.
    pace: Option<crate::pace::Pace>,
}

impl Sum {
    /// An empty sum.
    pub fn new() -> Self {
        Self::default()
    }

    /// Makes searches over the whole sum (misère play) stop soon after
    /// `stop` is set, and report how many positions they have examined to
    /// `progress` (with a total of 0: open-ended) about once a second after
    /// the first.
    pub fn watch(
        &mut self,
        stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
        progress: Box<dyn FnMut(u64, u64)>,
    ) {
        self.watch = Watch {
            stop: Some(stop),
            progress: Some(progress),
            pace: None,
        };
    }

    /// The flag of [`Sum::watch`], if any: set when work on the sum must stop.
    pub fn stop_flag(&self) -> Option<std::sync::Arc<std::sync::atomic::AtomicBool>> {
        self.watch.stop.clone()
    }

    /// Starts the clock of a search over the whole sum.
    pub fn search_started(&mut self) {
        self.watch.pace = Some(crate::pace::Pace::start());
    }

    /// An error if the search must stop: the flag of [`Sum::watch`] is set,
    /// or (looked at every 4096 positions) the process holds more memory
    /// than [`crate::memory`]'s budget; reports `examined` positions now
    /// and then.
    pub fn search_step(&mut self, examined: usize) -> Result<()> {
        let watch = &mut self.watch;
        if watch
            .stop
            .as_ref()
            .is_some_and(|flag| flag.load(std::sync::atomic::Ordering::Relaxed))
        {
            return Err(crate::Error::Interrupted(format!(
                "interrupted after {examined} positions of the search"
            )));
        }
        if examined.is_multiple_of(4096) {
            crate::memory::check_work(MISERE_WORK, MISERE_ADVICE)?;
        }
        if let (Some(report), Some(pace)) = (&mut watch.progress, &mut watch.pace) {
            if pace.due() {
                report(examined as u64, 0);
            }
        }
        Ok(())
    }

    /// Adds a family and returns its index.
    pub fn add_family(&mut self, family: Box<dyn Family>) -> usize {
        self.families.push(family);
        self.families.len() - 1
    }

    /// Adds a component of family `family` from what a person typed.
    pub fn add_component(&mut self, family: usize, text: &str) -> Result<()> {
        let position = self.families[family].parse(text)?;
        self.components.push(Component { family, position });
        Ok(())
    }

    /// Adds a component of family `family` given as a value (from Python or
    /// JSON, say), checking that the family knows the position.
    pub fn add_position(&mut self, family: usize, position: Position) -> Result<()> {
        self.families[family].value(&position)?;
        self.components.push(Component { family, position });
        Ok(())
    }

    /// A position written in its family's syntax.
    pub fn format(&self, family: usize, position: &Position) -> String {
        self.families[family].format(position)
    }

    /// The components, in order.
    pub fn components(&self) -> &[Component] {
        &self.components
    }

    /// Replaces the components (after a move in play).
    pub fn set_components(&mut self, components: Vec<Component>) {
        self.components = components;
    }

    /// The family with index `index`.
    pub fn family(&self, index: usize) -> &dyn Family {
        self.families[index].as_ref()
    }

    /// How many families the sum's components are of (their indices are
    /// below this).
    pub fn families_len(&self) -> usize {
        self.families.len()
    }

    /// The family with index `index`, mutably (families memoise as they solve).
    pub fn family_mut(&mut self, index: usize) -> &mut dyn Family {
        self.families[index].as_mut()
    }

    /// Values, outcome and winning moves of the sum, listing at most `max_moves` moves.
    pub fn analyze(&mut self, max_moves: usize) -> Result<Analysis> {
        let mut values = Vec::with_capacity(self.components.len());
        for component in &self.components {
            values.push(self.families[component.family].value(&component.position)?);
        }
        let mut finite = BigUint::default();
        let mut infinite = Vec::new();
        let mut instant = Vec::new();
        for (index, value) in values.iter().enumerate() {
            match value {
                Value::Finite(n) => finite ^= n,
                Value::Infinite(_) => infinite.push(index),
                Value::Win => instant.push(index),
            }
        }
        let mut moves = Vec::new();
        let mut truncated = false;
        let mut unlisted = Vec::new();
        if !instant.is_empty() {
            // Whoever moves wins at once: the other components do not matter.
            for index in instant {
                let component = &self.components[index];
                let found = self.families[component.family].immediate_wins(&component.position)?;
                for m in found {
                    if moves.len() == max_moves {
                        truncated = true;
                        break;
                    }
                    moves.push(WinningMove {
                        component: index,
                        from: component.position.clone(),
                        to: m.to,
                    });
                }
            }
            return Ok(Analysis {
                values,
                nim_sum: Value::Win,
                winner: Winner::First,
                winning_moves: moves,
                truncated,
                unlisted: vec![],
                drawing_moves: vec![],
            });
        }
        let (nim_sum, winner) = match infinite.as_slice() {
            [] => {
                let winner = if finite.bits() == 0 {
                    Winner::Second
                } else {
                    Winner::First
                };
                if winner == Winner::First && max_moves == 0 {
                    // A non-zero nim-sum always has a winning move (Bouton):
                    // none is listed, so none is searched for.
                    truncated = true;
                } else if winner == Winner::First {
                    for (index, value) in values.iter().enumerate() {
                        let Value::Finite(own) = value else {
                            unreachable!()
                        };
                        let target = Value::Finite(&finite ^ own);
                        truncated |= self.collect_moves(
                            index,
                            &target,
                            max_moves,
                            &mut moves,
                            &mut unlisted,
                        )?;
                        if truncated {
                            break;
                        }
                    }
                }
                (Value::Finite(finite), winner)
            }
            [only] => {
                let Value::Infinite(set) = &values[*only] else {
                    unreachable!()
                };
                let shifted = shift(set, &finite);
                let wins = u64::try_from(&finite).is_ok_and(|a| set.contains(&a));
                if wins && max_moves == 0 {
                    // The move to the finite value exists: not searched for.
                    truncated = true;
                    (Value::Infinite(shifted), Winner::First)
                } else if wins {
                    let target = Value::Finite(finite.clone());
                    truncated =
                        self.collect_moves(*only, &target, max_moves, &mut moves, &mut unlisted)?;
                    (Value::Infinite(shifted), Winner::First)
                } else {
                    (Value::Infinite(shifted), Winner::Draw)
                }
            }
            _ => (Value::Infinite(Vec::new()), Winner::Draw),
        };
        let drawing_moves = if winner == Winner::Draw {
            self.drawing_moves(&values, max_moves)?
        } else {
            vec![]
        };
        Ok(Analysis {
            values,
            nim_sum,
            winner,
            winning_moves: moves,
            truncated,
            unlisted,
            drawing_moves,
        })
    }

    /// The moves of a drawn sum after which the opponent still cannot win.
    fn drawing_moves(&mut self, values: &[Value], max_moves: usize) -> Result<Vec<WinningMove>> {
        let mut out = Vec::new();
        for index in 0..self.components.len() {
            let component = self.components[index].clone();
            let moves = match self.families[component.family].moves(&component.position) {
                Ok(moves) => moves,
                Err(crate::Error::TooLarge(_)) => continue,
                Err(e) => return Err(e),
            };
            for m in moves {
                let mut after = values.to_vec();
                after[index] = m.value.clone();
                if outcome(&after) != Winner::First && out.len() < max_moves {
                    out.push(WinningMove {
                        component: index,
                        from: component.position.clone(),
                        to: m.to,
                    });
                }
            }
        }
        Ok(out)
    }

    /// Appends the moves of component `index` to a position of value `target`;
    /// returns whether the list had to be cut at `max_moves`. A component
    /// with too many moves to search goes into `unlisted`, with the reason.
    fn collect_moves(
        &mut self,
        index: usize,
        target: &Value,
        max_moves: usize,
        out: &mut Vec<WinningMove>,
        unlisted: &mut Vec<(usize, String)>,
    ) -> Result<bool> {
        let component = &self.components[index];
        let room = max_moves.saturating_sub(out.len());
        let found = match self.families[component.family].moves_to(
            &component.position,
            target,
            room.saturating_add(1),
        ) {
            Ok(found) => found,
            Err(crate::Error::TooLarge(why)) => {
                unlisted.push((index, why));
                return Ok(false);
            }
            Err(e) => return Err(e),
        };
        let truncated = found.len() > room;
        for found in found.into_iter().take(room) {
            out.push(WinningMove {
                component: index,
                from: component.position.clone(),
                to: found.to,
            });
        }
        Ok(truncated)
    }
}

/// The outcome of a sum for the player to move, from its values (Smith's rule).
pub fn outcome(values: &[Value]) -> Winner {
    let mut finite = BigUint::default();
    let mut infinite = Vec::new();
    for value in values {
        match value {
            Value::Finite(n) => finite ^= n,
            Value::Infinite(k) => infinite.push(k),
            Value::Win => return Winner::First,
        }
    }
    match infinite.as_slice() {
        [] if finite.bits() == 0 => Winner::Second,
        [] => Winner::First,
        [k] if u64::try_from(&finite).is_ok_and(|a| k.contains(&a)) => Winner::First,
        _ => Winner::Draw,
    }
}

/// K XOR a for every finite value in K: the infinity of a loopy sum.
fn shift(set: &[u64], by: &BigUint) -> Vec<u64> {
    let by = by.to_u64_digits().first().copied().unwrap_or(0);
    let mut shifted: Vec<u64> = set.iter().map(|k| k ^ by).collect();
    shifted.sort_unstable();
    shifted
}
