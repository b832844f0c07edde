//! Conway's genus theory for misère play (On Numbers and Games, ch. 12;
//! Winning Ways, ch. 13).
//!
//! The *genus* of a game `G` is `g^{γ0 γ1 γ2 ...}`: `g` is its normal-play
//! Grundy value and `γk` the misère Grundy value of `G + *2 + ... + *2` (k
//! heaps of size 2). The sequence `γ` ends by alternating between two values
//! (Conway), so it is written up to the first pair of the alternating tail:
//! `*0` has genus `0^120`, `*1` has `1^031`, `*2` has `2^20`.
//!
//! A game is *tame* when every one of its positions has one of the tame
//! genera `0^120`, `1^031` or `a^{a, a⊕2}` (any `a`, including `0^02` and
//! `1^13`). A sum of tame games is played exactly like misère Nim with each
//! component replaced by Nim heaps of the same genus: `0^120` by nothing,
//! `1^031` by `*1`, `a^{a, a⊕2}` by `*a` (for `a ≥ 2`), `0^02` by `*2+*2` and
//! `1^13` by `*2+*3`. Those substitutes are summarised by a [`Class`]: the
//! nim-sum and whether some heap of 2 or more is present; the misère outcome
//! of a sum depends on nothing else (Bouton).
//!
//! The genus of a position is computed from the classes of its options: the
//! options of `G + Y` (for `Y` a sum of heaps of 1 and 2) are `G' + Y`, whose
//! misère value is read off the class of `G'` (a tame position `T` has misère
//! value `m` exactly when `T + *m` is a second-player win, so equal classes
//! mean equal values), and `G + Y'`, found by the same recursion. When some
//! position reached is not tame, [`analyze`] declines and the caller searches.

use crate::error::Result;
use crate::nimber::mex;
use crate::sum::{Component, Sum, Winner, WinningMove};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt;
use std::rc::Rc;

/// How a tame position plays in misère sums: like Nim heaps with nim-sum `x`
/// that include a heap of 2 or more (`big`) or do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Class {
    /// The nim-sum (the normal-play Grundy value).
    pub x: u64,
    /// Whether the substitute has a heap of size 2 or more.
    pub big: bool,
}

impl Class {
    /// The empty game.
    pub const ZERO: Class = Class { x: 0, big: false };

    /// The class of the Nim heap `*n`.
    pub fn heap(n: u64) -> Class {
        Class { x: n, big: n >= 2 }
    }

    /// The class of a sum.
    pub fn plus(self, other: Class) -> Class {
        Class {
            x: self.x ^ other.x,
            big: self.big || other.big,
        }
    }

    /// The misère Grundy value: `x` with a big heap, else `x ⊕ 1` (Bouton).
    pub fn misere_value(self) -> u64 {
        if self.big {
            self.x
        } else {
            self.x ^ 1
        }
    }

    /// Whether the player to move wins misère play.
    pub fn first_wins(self) -> bool {
        self.misere_value() != 0
    }

    /// The genus of every position of this class.
    pub fn genus(self) -> Genus {
        let tail = if self.big {
            vec![self.x, self.x ^ 2]
        } else if self.x == 0 {
            vec![1, 2, 0]
        } else {
            vec![0, 3, 1]
        };
        Genus {
            normal: self.x,
            gammas: tail,
        }
    }
}

/// A genus `g^{γ0 γ1 ...}`, written up to the first pair of the alternating tail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Genus {
    /// `g`, the normal-play Grundy value.
    pub normal: u64,
    /// `γ0, γ1, ...` up to and including the first pair that then repeats.
    pub gammas: Vec<u64>,
}

impl fmt::Display for Genus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.gammas.iter().map(u64::to_string).collect();
        if self.gammas.iter().all(|g| *g < 10) {
            write!(f, "{}^{}", self.normal, parts.concat())
        } else {
            write!(f, "{}^{{{}}}", self.normal, parts.join(","))
        }
    }
}

/// How many `γ`s are computed before reading off the tail.
const GAMMAS: usize = 16;

/// The genus of a position whose options are tame with the given classes.
pub fn genus_from_options(options: &BTreeSet<Class>) -> Genus {
    // f[a][b]: misère value of G + a heaps of 2 + b heaps of 1, for a + b <= GAMMAS.
    let mut f = vec![vec![0u64; GAMMAS + 1]; GAMMAS + 1];
    for total in 0..=GAMMAS {
        for a in 0..=total {
            let b = total - a;
            if options.is_empty() && total == 0 {
                f[a][b] = 1;
                continue;
            }
            let y = Class {
                x: if a % 2 == 1 { 2 } else { 0 } ^ (b as u64 & 1),
                big: a > 0,
            };
            let mut seen: Vec<u64> = options.iter().map(|c| c.plus(y).misere_value()).collect();
            if a > 0 {
                seen.push(f[a - 1][b + 1]);
                seen.push(f[a - 1][b]);
            }
            if b > 0 {
                seen.push(f[a][b - 1]);
            }
            f[a][b] = mex(seen);
        }
    }
    let gammas: Vec<u64> = (0..=GAMMAS).map(|a| f[a][0]).collect();
    // The tail starts at the first index from which gamma repeats with period 2.
    let start = (0..gammas.len() - 2)
        .find(|&t| (t..gammas.len() - 2).all(|j| gammas[j] == gammas[j + 2]))
        .unwrap_or(gammas.len() - 2);
    Genus {
        normal: mex(options.iter().map(|c| c.x)),
        gammas: gammas[..start + 2].to_vec(),
    }
}

/// The class of a position with this genus, when the genus is tame.
pub fn tame_class(genus: &Genus) -> Option<Class> {
    let g = genus.normal;
    [Class { x: g, big: true }, Class { x: g, big: false }]
        .into_iter()
        .filter(|c| c.big || g <= 1)
        .find(|c| c.genus() == *genus)
}

type Key = (usize, crate::position::Position);

/// The classes of positions met so far, for one sum's families.
struct Tameness {
    classes: HashMap<Key, Class>,
    moves: HashMap<Key, Rc<Vec<Vec<crate::position::Position>>>>,
    /// The tame class (if any) of each set of option classes seen.
    by_options: HashMap<BTreeSet<Class>, Option<Class>>,
    /// The most positions to examine (classified, or left by a move
    /// listed) before giving up.
    budget: usize,
    /// The moves listed so far, and when the memory was last looked at.
    listed: usize,
    checked: usize,
    /// Positions known to be wild.
    wild: HashSet<Key>,
}

/// Why a class could not be found.
enum Untamed {
    /// Some position is wild (or loopy): genus theory does not apply.
    Wild,
    /// Too many positions: leave it to the search (and its budget).
    TooBig,
}

/// The families whose positions are Nim heaps.
pub(crate) fn is_nim(spec: &str) -> bool {
    spec == "nim" || spec == "northcott"
}

impl Tameness {
    fn moves_of(
        &mut self,
        sum: &mut Sum,
        key: &Key,
    ) -> Result<std::result::Result<Rc<Vec<Vec<crate::position::Position>>>, Untamed>> {
        if let Some(m) = self.moves.get(key) {
            return Ok(Ok(m.clone()));
        }
        sum.search_step(self.moves.len())?;
        if self.listed - self.checked >= 4096 {
            self.checked = self.listed;
            if crate::memory::over_budget() {
                // The search that follows reports the budget.
                return Ok(Err(Untamed::TooBig));
            }
        }
        if self.classes.len() + self.listed >= self.budget {
            return Ok(Err(Untamed::TooBig));
        }
        let moves = match sum.family_mut(key.0).moves(&key.1) {
            Ok(moves) => moves,
            // Positions too large to list are left to the search's own errors.
            Err(_) => return Ok(Err(Untamed::TooBig)),
        };
        if moves
            .iter()
            .any(|m| matches!(m.value, crate::nimber::Value::Infinite(_)))
        {
            return Ok(Err(Untamed::Wild));
        }
        self.listed += moves.len();
        let parts = Rc::new(moves.into_iter().map(|m| m.to).collect::<Vec<_>>());
        self.moves.insert(key.clone(), parts.clone());
        Ok(Ok(parts))
    }

    /// The class of a position, computing its followers' first (without recursion).
    fn class(&mut self, sum: &mut Sum, root: Key) -> Result<std::result::Result<Class, Untamed>> {
        struct Frame {
            key: Key,
            moves: Rc<Vec<Vec<crate::position::Position>>>,
            next: usize,
        }
        let mut stack: Vec<Frame> = Vec::new();
        let mut on_stack: HashSet<Key> = HashSet::new();
        let mut pending = Some(root.clone());
        loop {
            if let Some(key) = pending.take().filter(|k| !self.classes.contains_key(k)) {
                if is_nim(&sum.family(key.0).spec()) {
                    let Some(n) = key.1.as_u64() else {
                        return Ok(Err(Untamed::TooBig));
                    };
                    self.classes.insert(key, Class::heap(n));
                } else {
                    if self.wild.contains(&key) || !on_stack.insert(key.clone()) {
                        return Ok(Err(Untamed::Wild));
                    }
                    if self.classes.len() + stack.len() >= self.budget {
                        return Ok(Err(Untamed::TooBig));
                    }
                    let moves = match self.moves_of(sum, &key)? {
                        Ok(m) => m,
                        Err(e) => return Ok(Err(e)),
                    };
                    stack.push(Frame {
                        key,
                        moves,
                        next: 0,
                    });
                }
            }
            let Some(frame) = stack.last_mut() else {
                break;
            };
            // The next part of an option not classified yet.
            let parts = frame.moves.iter().flatten();
            let mut unknown = None;
            for part in parts.skip(frame.next) {
                frame.next += 1;
                let key = (frame.key.0, part.clone());
                if !self.classes.contains_key(&key) {
                    unknown = Some(key);
                    break;
                }
            }
            if unknown.is_some() {
                pending = unknown;
                continue;
            }
            let frame = stack.pop().expect("a frame");
            on_stack.remove(&frame.key);
            let options: BTreeSet<Class> = frame
                .moves
                .iter()
                .map(|parts| self.parts_class(frame.key.0, parts))
                .collect();
            let class = *self
                .by_options
                .entry(options)
                .or_insert_with_key(|options| tame_class(&genus_from_options(options)));
            match class {
                Some(class) => {
                    self.classes.insert(frame.key, class);
                }
                None => return Ok(Err(Untamed::Wild)),
            }
        }
        Ok(Ok(self.classes[&root]))
    }

    /// The class of a sum of already classified positions of one family.
    fn parts_class(&self, family: usize, parts: &[crate::position::Position]) -> Class {
        parts.iter().fold(Class::ZERO, |acc, p| {
            acc.plus(self.classes[&(family, p.clone())])
        })
    }
}

/// What genus theory says of a misère sum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenusAnalysis {
    /// The outcome for the player to move.
    pub winner: Winner,
    /// Every winning move (at most the limit asked for).
    pub winning_moves: Vec<WinningMove>,
    /// Whether the list was cut.
    pub truncated: bool,
    /// Each component's genus, e.g. `0^120`.
    pub genera: Vec<String>,
}

/// Misère analysis by genus theory, or `None` when some position of the sum is
/// not tame (or too large to classify within `budget` positions).
pub fn analyze(sum: &mut Sum, max_moves: usize, budget: usize) -> Result<Option<GenusAnalysis>> {
    let mut tameness = Tameness {
        classes: HashMap::new(),
        moves: HashMap::new(),
        by_options: HashMap::new(),
        budget,
        listed: 0,
        checked: 0,
        wild: HashSet::new(),
    };
    let components: Vec<Component> = sum.components().to_vec();
    let mut classes = Vec::with_capacity(components.len());
    for c in &components {
        // Heaps are classified from the smallest up: a game stops being
        // tame at some small heap, which is met after listing the moves of
        // the heaps below it only (from the top, a whole line of play down
        // from the large heap, each heap with its moves, comes first).
        let family = sum.family(c.family);
        if family.is_heap_game() && !is_nim(&family.spec()) {
            if let Some(n) = c.position.as_u64() {
                for k in 0..n.min(budget as u64) {
                    let key = (c.family, crate::position::Position::from(k));
                    match tameness.class(sum, key.clone())? {
                        Ok(_) => {}
                        // A wild heap the component may never reach: the
                        // search from the component decides.
                        Err(Untamed::Wild) => {
                            tameness.wild.insert(key);
                            break;
                        }
                        Err(Untamed::TooBig) => return Ok(None),
                    }
                }
            }
        }
        match tameness.class(sum, (c.family, c.position.clone()))? {
            Ok(class) => classes.push(class),
            Err(Untamed::Wild | Untamed::TooBig) => return Ok(None),
        }
    }
    let total = classes.iter().fold(Class::ZERO, |acc, c| acc.plus(*c));
    let wins = total.first_wins();
    let mut winning_moves = Vec::new();
    let mut truncated = false;
    if wins {
        'all: for (index, c) in components.iter().enumerate() {
            let rest = classes
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != index)
                .fold(Class::ZERO, |acc, (_, k)| acc.plus(*k));
            let targets: Vec<Vec<crate::position::Position>> =
                if is_nim(&sum.family(c.family).spec()) {
                    nim_targets(classes[index].x, rest)
                } else {
                    let key = (c.family, c.position.clone());
                    let moves = match tameness.moves_of(sum, &key)? {
                        Ok(m) => m,
                        Err(_) => return Ok(None),
                    };
                    moves
                        .iter()
                        .filter(|parts| {
                            !rest
                                .plus(tameness.parts_class(c.family, parts))
                                .first_wins()
                        })
                        .cloned()
                        .collect()
                };
            for to in targets {
                if winning_moves.len() == max_moves {
                    truncated = true;
                    break 'all;
                }
                winning_moves.push(WinningMove {
                    component: index,
                    from: c.position.clone(),
                    to,
                });
            }
        }
    }
    Ok(Some(GenusAnalysis {
        winner: if wins { Winner::First } else { Winner::Second },
        winning_moves,
        truncated,
        genera: classes.iter().map(|c| c.genus().to_string()).collect(),
    }))
}

/// The Nim heap `h` must become: the one that leaves the sum a misère loss
/// for the opponent, if it is smaller than `h`.
fn nim_targets(h: u64, rest: Class) -> Vec<Vec<crate::position::Position>> {
    // With a big heap elsewhere the nim-sum must become 0; otherwise the heap
    // must become 0 or 1 so that an odd number of 1s is left.
    let target = if rest.big { rest.x } else { rest.x ^ 1 };
    if target >= h {
        return vec![];
    }
    if target == 0 {
        vec![vec![]]
    } else {
        vec![vec![crate::position::Position::from(target)]]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nim_genus(n: u64) -> Genus {
        // *n has options *0 .. *(n-1).
        let options: BTreeSet<Class> = (0..n).map(Class::heap).collect();
        genus_from_options(&options)
    }

    #[test]
    fn nim_heaps_have_the_genera_in_winning_ways() {
        let shown: Vec<String> = (0..7).map(|n| nim_genus(n).to_string()).collect();
        assert_eq!(
            shown,
            ["0^120", "1^031", "2^20", "3^31", "4^46", "5^57", "6^64"]
        );
        for n in 0..40 {
            assert_eq!(tame_class(&nim_genus(n)), Some(Class::heap(n)));
        }
    }

    #[test]
    fn sums_of_two_heaps_give_the_other_tame_genera() {
        // *2+*2 has options *2+*1 and *2 (classes 3 and 2, big): genus 0^02.
        let options: BTreeSet<Class> = [Class::heap(3), Class::heap(2)].into();
        let g = genus_from_options(&options);
        assert_eq!(g.to_string(), "0^02");
        assert_eq!(tame_class(&g), Some(Class { x: 0, big: true }));
        // *2+*3: options *3, *1+*3, *2, *2+*1, *2+*2 → 1^13.
        let options: BTreeSet<Class> = [
            Class::heap(3),
            Class::heap(1).plus(Class::heap(3)),
            Class::heap(2),
            Class::heap(2).plus(Class::heap(1)),
            Class::heap(2).plus(Class::heap(2)),
        ]
        .into();
        let g = genus_from_options(&options);
        assert_eq!(g.to_string(), "1^13");
        assert_eq!(tame_class(&g), Some(Class { x: 1, big: true }));
    }

    #[test]
    fn a_wild_genus_is_refused() {
        // Options *2+*2 and *1: normal value 2 but misère value 1, not 2.
        let options: BTreeSet<Class> = [Class { x: 0, big: true }, Class::heap(1)].into();
        let g = genus_from_options(&options);
        assert_eq!(tame_class(&g), None, "genus {g}");
        assert_eq!(
            Genus {
                normal: 12,
                gammas: vec![12, 14]
            }
            .to_string(),
            "12^{12,14}"
        );
    }
}
