//! Misère play: the player who makes the last move *loses*. The
//! Sprague-Grundy theorem does not hold, so sums are never added by XOR here.
//!
//! - Sums of Nim heaps follow Bouton's misère rule: play as in normal Nim
//!   unless the move would leave only heaps of size 0 or 1; then leave an odd
//!   number of 1s. The player to move wins exactly when the nim-sum is not
//!   zero, except that with every heap at most 1 they win when the number of
//!   1s is even (Bouton 1901).
//! - Every other sum is solved by search over the whole sum: a state is the
//!   sorted multiset of its components (so equal positions reached in any
//!   order share one memo entry), components without moves are dropped, and
//!   the search honours the state budget.
//!
//! - Sums whose every position is tame are played by Conway's genus theory
//!   ([`crate::genus`]): like misère Nim with substitute heaps.
//!
//! `method` says which: `bouton`, `genus` or `search`.

use crate::error::{Error, Result};
use crate::family::Move;
use crate::genus::{self, is_nim};
use crate::nimber::Value;
use crate::position::Position;
use crate::sum::{Component, Sum, Winner, WinningMove};
use num_bigint::BigUint;
use std::collections::HashMap;

/// What `grundy value --misere` reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MisereAnalysis {
    /// The outcome for the player to move.
    pub winner: Winner,
    /// Every winning move (at most the limit asked for).
    pub winning_moves: Vec<WinningMove>,
    /// Whether the list was cut.
    pub truncated: bool,
    /// `"bouton"`, `"genus"`, `"quotient"` or `"search"`.
    pub method: &'static str,
    /// With `method` `genus`: each component's genus, e.g. `0^120`.
    pub genera: Vec<String>,
    /// Components whose winning moves are not listed: heaps with too many
    /// moves to list one by one (answered by a final quotient).
    pub unlisted: Vec<usize>,
}

impl From<genus::GenusAnalysis> for MisereAnalysis {
    fn from(g: genus::GenusAnalysis) -> Self {
        MisereAnalysis {
            winner: g.winner,
            winning_moves: g.winning_moves,
            truncated: g.truncated,
            method: "genus",
            genera: g.genera,
            unlisted: vec![],
        }
    }
}

/// The most positions genus theory classifies before leaving a sum to search.
const GENUS_BUDGET: usize = 1_000_000;

/// The longest line of play the search follows (its recursion depth).
const MAX_SEARCH_DEPTH: usize = 100_000;

/// The heaps, summed over the positions remembered, that a first search of
/// a sum of heaps may hold before a quotient is considered: small sums (a
/// heap or two of moderate size) are answered within it in well under a
/// second, faster than any quotient is built, while a sum of many heaps
/// (each position a long key) goes to the quotient almost at once.
const PROBE_STATES: usize = 250_000;

/// The sums a quotient's outcome search may remember when `value` builds
/// one; past it, the quotient of the heaps done so far helps the search.
const QUOTIENT_STATES: usize = 2_000_000;

/// Misère analysis of a sum.
///
/// Methods are tried from the cheapest: Bouton's rule, genus theory, then a
/// search of the sum (over multisets of heap sizes when every component is
/// a heap), which is given a small budget first. Only when that is not
/// enough is a misère quotient built, and then the search uses it: every
/// sum of heaps the quotient covers is answered by it at once.
pub fn analyze(sum: &mut Sum, max_moves: usize, max_states: usize) -> Result<MisereAnalysis> {
    for component in sum.components().to_vec() {
        let family = sum.family_mut(component.family);
        if family.spec() == "treblecross" {
            return Err(Error::invalid(
                "misère Treblecross (three in a row loses) is a different game; it is not supported",
            ));
        }
    }
    let all_nim = sum
        .components()
        .iter()
        .all(|c| is_nim(&sum.family(c.family).spec()));
    if all_nim {
        return Ok(bouton(sum, max_moves));
    }
    sum.search_started();
    crate::memory::check_work(crate::sum::MISERE_WORK, crate::sum::MISERE_ADVICE)?;
    if let Some(analysis) = genus::analyze(sum, max_moves, max_states.min(GENUS_BUDGET))? {
        return Ok(analysis.into());
    }
    if let Some(analysis) = by_heaps(sum, max_moves, max_states)? {
        return Ok(analysis);
    }
    by_search(sum, max_moves, max_states)
}

/// How long a misère quotient may take to build when `value` or `play`
/// asks for one: past it, the quotient of the heaps finished so far helps
/// the search. Quotients are kept for the process, so this is paid once.
const QUOTIENT_SECONDS: f64 = 4.0;

/// The most elements such a quotient may have.
const QUOTIENT_MAX_ORDER: usize = 4096;

/// The largest heap size a joint quotient of several games is built to.
const JOINT_MAX_SIZE: u32 = 200;

/// A heap of a heap game in a sum: family `f`, size `h` as `f << 32 | h`.
type Heap = u64;

fn heap_of(family: usize, size: u64) -> Option<Heap> {
    (size <= u32::MAX as u64 && family < (1 << 31)).then_some(((family as u64) << 32) | size)
}

fn family_of(heap: Heap) -> usize {
    (heap >> 32) as usize
}

fn size_of(heap: Heap) -> u64 {
    heap & 0xffff_ffff
}

/// A misère quotient that answers sums of heaps of some of the sum's
/// families: of one game, or of several together ([`crate::quotient::build_joint`]).
#[derive(Clone)]
struct Oracle {
    /// The game of each family of the sum in the quotient (its place among
    /// the quotient's games), `None` for families it is not of.
    slots: Vec<Option<usize>>,
    /// For a quotient of several games, the quotient's heap for heap h of
    /// game f ([`crate::quotient::joint_indices`]); `None` for one game.
    indices: Option<std::sync::Arc<Vec<Vec<u32>>>>,
    quotient: std::sync::Arc<crate::quotient::Quotient>,
}

impl Oracle {
    /// The element of a heap, if the quotient covers it.
    fn element(&self, heap: Heap) -> Option<u32> {
        let slot = (*self.slots.get(family_of(heap))?)?;
        let q = &self.quotient;
        let Some(indices) = &self.indices else {
            return q.heap_element(size_of(heap));
        };
        let index = *indices[slot].get(size_of(heap) as usize)?;
        (index <= q.max_heap).then(|| q.heap_map[index as usize])
    }

    /// Whether the sum of `heaps` is a misère P-position, if the quotient
    /// covers every heap.
    fn is_p(&self, heaps: &[Heap]) -> Option<bool> {
        let m = &self.quotient.monoid;
        let mut x = 0;
        for h in heaps {
            x = m.mul(x, self.element(*h)?);
        }
        Some(m.p[x as usize])
    }

    /// Whether every heap of `heaps` is covered.
    fn covers(&self, heaps: &[Heap]) -> bool {
        heaps.iter().all(|h| self.element(*h).is_some())
    }

    /// How far the quotient reaches, in words.
    fn reach(&self) -> String {
        let q = &self.quotient;
        if q.finality.is_some() {
            return "every heap".into();
        }
        let Some(indices) = &self.indices else {
            return format!("heaps up to {}", q.max_heap);
        };
        // The largest size covered in every game.
        let sizes: Vec<String> = indices
            .iter()
            .map(|game| {
                let h = game.iter().rposition(|i| *i <= q.max_heap).unwrap_or(0);
                h.to_string()
            })
            .collect();
        format!("heaps up to {} of its games", sizes.join(", "))
    }
}

/// Misère analysis of a sum whose every component is a heap of a heap
/// game (None for other sums): search over sorted multisets of heap sizes,
/// helped by the misère quotient of the sum's games (of one game, or of
/// several together) when a first search does not suffice.
fn by_heaps(sum: &mut Sum, max_moves: usize, max_states: usize) -> Result<Option<MisereAnalysis>> {
    let heaps = sum.components().len().max(1);
    by_heaps_probing(sum, max_moves, max_states, (PROBE_STATES / heaps).max(1))
}

/// [`by_heaps`] with a first search of at most `probe` positions.
fn by_heaps_probing(
    sum: &mut Sum,
    max_moves: usize,
    max_states: usize,
    probe: usize,
) -> Result<Option<MisereAnalysis>> {
    let components = sum.components().to_vec();
    let mut root = Vec::with_capacity(components.len());
    let mut quotient_fits = true;
    for c in &components {
        let family = sum.family(c.family);
        let nim = is_nim(&family.spec());
        if !family.is_heap_game() && !nim {
            return Ok(None);
        }
        quotient_fits &= !nim;
        match c.position.as_u64().and_then(|h| heap_of(c.family, h)) {
            Some(h) => root.push(h),
            None => return Ok(None),
        }
    }
    let mut search = HeapSearch::new(max_states);
    if quotient_fits {
        // One built earlier in this process answers at once.
        search.oracle = cached_quotient(sum, &root, false)?;
        // A heap too large to list its moves: only a quotient of every
        // heap (a final one) can answer.
        if search.oracle.is_none()
            && root
                .iter()
                .any(|h| size_of(*h) > crate::quotient::MAX_HEAP as u64)
        {
            search.oracle = cached_quotient(sum, &root, true)?;
        }
        if let Some(oracle) = search.oracle.clone().filter(|o| o.covers(&root)) {
            return by_quotient(sum, &components, &root, &oracle, max_moves).map(Some);
        }
    }
    let Some(start) = search.canonical(sum, &root)? else {
        return Ok(None);
    };
    search.limit = max_states.min(probe);
    let mut first = search.wins(sum, &start);
    if matches!(first, Err(Error::Budget { .. })) && search.limit < max_states {
        let covered = search.oracle.as_ref().is_some_and(|o| o.covers(&root));
        if quotient_fits && !covered {
            search.oracle = cached_quotient(sum, &root, true)?.or(search.oracle.take());
            if let Some(oracle) = search.oracle.clone().filter(|o| o.covers(&root)) {
                return by_quotient(sum, &components, &root, &oracle, max_moves).map(Some);
            }
        }
        // The positions remembered so far stay: the budget is only raised.
        search.limit = max_states;
        first = search.wins(sum, &start);
    }
    search.limit = max_states;
    let wins = match first {
        Ok(w) => w,
        Err(e) if is_not_heaps(&e) => return Ok(None),
        Err(e) => return Err(beyond_the_quotient(sum, &search, &root, e)),
    };
    let by_quotient = search.oracle.as_ref().is_some_and(|o| o.covers(&root));
    let mut winning_moves = Vec::new();
    let mut truncated = false;
    if wins {
        'all: for (index, c) in components.iter().enumerate() {
            let others: Vec<Heap> = root[..index]
                .iter()
                .chain(&root[index + 1..])
                .copied()
                .collect();
            for mv in sum.family_mut(c.family).moves(&c.position)? {
                let mut next = others.clone();
                for part in &mv.to {
                    match part.as_u64().and_then(|h| heap_of(c.family, h)) {
                        Some(h) => next.push(h),
                        None => return Ok(None),
                    }
                }
                let next = match search.canonical(sum, &next)? {
                    Some(n) => n,
                    None => return Ok(None),
                };
                let loses = match search.wins(sum, &next) {
                    Ok(w) => !w,
                    Err(e) if is_not_heaps(&e) => return Ok(None),
                    Err(e) => return Err(beyond_the_quotient(sum, &search, &root, e)),
                };
                if loses && !push_winning(&mut winning_moves, max_moves, index, &c.position, &mv.to)
                {
                    truncated = true;
                    break 'all;
                }
            }
        }
    }
    Ok(Some(MisereAnalysis {
        winner: if wins { Winner::First } else { Winner::Second },
        winning_moves,
        truncated,
        method: if by_quotient { "quotient" } else { "search" },
        genera: vec![],
        unlisted: vec![],
    }))
}

/// Misère analysis of a sum of heaps that `oracle` covers, every heap and
/// every option: read off the quotient. A heap with too many moves to list
/// (a heap of millions, answered by a final quotient) is left out of the
/// winning moves, which are then marked as cut.
fn by_quotient(
    sum: &mut Sum,
    components: &[Component],
    root: &[Heap],
    oracle: &Oracle,
    max_moves: usize,
) -> Result<MisereAnalysis> {
    let is_p = |heaps: &[Heap]| -> Result<bool> {
        oracle
            .is_p(heaps)
            .ok_or_else(|| Error::invalid("a heap is not covered by the quotient"))
    };
    let wins = !is_p(root)?;
    let mut winning_moves = Vec::new();
    let mut truncated = false;
    let mut unlisted = Vec::new();
    if wins {
        'all: for (index, c) in components.iter().enumerate() {
            let moves = match sum.family_mut(c.family).moves(&c.position) {
                Ok(moves) => moves,
                Err(Error::TooLarge(_)) => {
                    unlisted.push(index);
                    continue;
                }
                Err(e) => return Err(e),
            };
            let mut next: Vec<Heap> = Vec::with_capacity(root.len() + 2);
            for mv in moves {
                next.clear();
                next.extend(root[..index].iter().chain(&root[index + 1..]));
                for part in &mv.to {
                    match part.as_u64().and_then(|h| heap_of(c.family, h)) {
                        Some(h) => next.push(h),
                        None => return Err(not_heaps()),
                    }
                }
                if is_p(&next)?
                    && !push_winning(&mut winning_moves, max_moves, index, &c.position, &mv.to)
                {
                    truncated = true;
                    break 'all;
                }
            }
        }
    }
    Ok(MisereAnalysis {
        winner: if wins { Winner::First } else { Winner::Second },
        winning_moves,
        truncated,
        method: "quotient",
        genera: vec![],
        unlisted,
    })
}

/// Adds the move of component `component` from `from` to `to` to `moves`;
/// false (and nothing added) when `moves` already holds `max_moves`.
fn push_winning(
    moves: &mut Vec<WinningMove>,
    max_moves: usize,
    component: usize,
    from: &Position,
    to: &[Position],
) -> bool {
    if moves.len() == max_moves {
        return false;
    }
    moves.push(WinningMove {
        component,
        from: from.clone(),
        to: to.to_vec(),
    });
    true
}

/// The search's budget error, saying which heap the quotient did not reach
/// when that is why the search had to go so far.
fn beyond_the_quotient(sum: &Sum, search: &HeapSearch, root: &[Heap], e: Error) -> Error {
    let Some(oracle) = &search.oracle else {
        return e;
    };
    let Some(past) = root.iter().copied().find(|h| oracle.element(*h).is_none()) else {
        return e;
    };
    let game = sum.family(family_of(past)).spec();
    let past_it = format!(
        "heap {} of {game} is past the misère quotient of {} that could be built within {QUOTIENT_SECONDS} s and {QUOTIENT_MAX_ORDER} elements ({}, order {})",
        size_of(past),
        oracle.quotient.game,
        oracle.reach(),
        oracle.quotient.monoid.order(),
    );
    match &e {
        Error::Budget { limit } => Error::TooLarge(format!(
            "misère play of this sum: {past_it}, and the search beyond it needs more than {limit} positions (--max-states); try heaps within the quotient"
        )),
        Error::TooLarge(m) if m.contains("memory") => Error::TooLarge(format!("{m} ({past_it})")),
        _ => e,
    }
}

/// What this process knows of one game's (or games') misère quotient: the
/// largest built (perhaps of fewer heaps than asked for), the largest heap
/// of each game it was asked for, and whether it was finished.
#[derive(Clone)]
struct KnownQuotient {
    quotient: Option<std::sync::Arc<crate::quotient::Quotient>>,
    indices: Option<std::sync::Arc<Vec<Vec<u32>>>>,
    sizes: Vec<u32>,
}

/// The misère quotient of the games of the heaps `root` (every heap of a
/// heap game other than Nim), covering their heaps or the largest part of
/// them that can be had: from what this process built before, and (with
/// `build`) built now. Quotients are kept for the process (a game played
/// move after move asks for the same one each turn); scripts are left out,
/// as one name can hold different rules.
fn cached_quotient(sum: &mut Sum, root: &[Heap], build: bool) -> Result<Option<Oracle>> {
    type Cache = std::sync::Mutex<HashMap<String, KnownQuotient>>;
    static CACHE: std::sync::OnceLock<Cache> = std::sync::OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    // The games, by spec (families with one spec are one game), with the
    // largest heap of each.
    let mut specs: Vec<(String, usize, u64)> = Vec::new();
    for h in root {
        let spec = sum.family(family_of(*h)).spec();
        match specs.iter_mut().find(|(s, _, _)| *s == spec) {
            Some(entry) => entry.2 = entry.2.max(size_of(*h)),
            None => specs.push((spec, family_of(*h), size_of(*h))),
        }
    }
    specs.sort();
    if specs.is_empty() {
        return Ok(None);
    }
    let joint = specs.len() > 1;
    let mut slots: Vec<Option<usize>> = vec![None; sum.families_len()];
    for h in root {
        let spec = sum.family(family_of(*h)).spec();
        slots[family_of(*h)] = specs.iter().position(|(s, _, _)| *s == spec);
    }
    let cap = if joint {
        JOINT_MAX_SIZE
    } else {
        crate::quotient::MAX_HEAP
    } as u64;
    let wanted: Vec<u32> = specs.iter().map(|(_, _, m)| (*m).min(cap) as u32).collect();
    let key = specs
        .iter()
        .map(|(s, _, _)| s.as_str())
        .collect::<Vec<_>>()
        .join(" + ");
    let cacheable = !specs.iter().any(|(s, _, _)| s.starts_with("script:"));
    let oracle = |known: &KnownQuotient| {
        known.quotient.clone().map(|quotient| Oracle {
            slots: slots.clone(),
            indices: known.indices.clone(),
            quotient,
        })
    };
    let known = cacheable
        .then(|| cache.lock().ok().and_then(|c| c.get(&key).cloned()))
        .flatten();
    let mut sizes = wanted.clone();
    if let Some(known) = &known {
        let final_ = known
            .quotient
            .as_ref()
            .is_some_and(|q| q.finality.is_some());
        // Asked before for heaps as large: building again would do no better.
        let asked = wanted.iter().zip(&known.sizes).all(|(w, k)| w <= k);
        if final_ || asked || !build {
            return Ok(oracle(known));
        }
        for (s, k) in sizes.iter_mut().zip(&known.sizes) {
            *s = (*s).max(*k);
        }
    }
    if !build {
        return Ok(None);
    }
    let limits = crate::quotient::Limits {
        max_order: QUOTIENT_MAX_ORDER,
        max_states: QUOTIENT_STATES,
    };
    let stop = sum.stop_flag();
    let stopped = move || {
        stop.as_ref()
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
    };
    let started = crate::clock::Instant::now();
    let out_of_time = || started.elapsed().as_secs_f64() > QUOTIENT_SECONDS;
    let interrupted = || stopped() || out_of_time();
    let built = if !joint {
        let family = sum.family_mut(specs[0].1);
        crate::quotient::build_as_far_as_possible(
            family,
            sizes[0],
            &limits,
            &mut |_, _| {},
            &interrupted,
        )
    } else {
        let mut listed = Vec::with_capacity(specs.len());
        let mut failed = None;
        for ((spec, family, _), size) in specs.iter().zip(&sizes) {
            match crate::quotient::rules(sum.family_mut(*family), *size) {
                Ok(rules) => listed.push((spec.clone(), rules)),
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            }
        }
        match failed {
            Some(e) => Err(e),
            None => crate::quotient::build_joint(&listed, &limits, &interrupted),
        }
    };
    let known = match built {
        Ok((q, _)) => {
            if stopped() {
                return Err(Error::Interrupted(format!(
                    "interrupted while building the misère quotient of {key} (heaps up to {} were done)",
                    q.max_heap
                )));
            }
            KnownQuotient {
                quotient: (q.max_heap > 0).then(|| std::sync::Arc::new(q)),
                indices: joint.then(|| std::sync::Arc::new(crate::quotient::joint_indices(&sizes))),
                sizes,
            }
        }
        // Rules a quotient cannot take (heaps that grow, say): search alone.
        Err(Error::Invalid(_)) | Err(Error::TooLarge(_)) | Err(Error::Budget { .. }) => {
            KnownQuotient {
                quotient: None,
                indices: None,
                sizes,
            }
        }
        Err(e) => return Err(e),
    };
    if let (true, Ok(mut c)) = (cacheable, cache.lock()) {
        if c.len() > 64 {
            c.clear();
        }
        c.insert(key, known.clone());
    }
    Ok(oracle(&known))
}

/// A memoised misère search over sorted multisets of heaps.
struct HeapSearch {
    /// Whether the player to move wins; `None` while the sum is being
    /// searched (meeting it again closes a cycle).
    memo: rustc_hash::FxHashMap<Vec<Heap>, Option<bool>>,
    /// The options of each heap listed so far, as a range of `options`:
    /// each option its number of parts, then the parts (heaps with no move
    /// left out, in order).
    listed: rustc_hash::FxHashMap<Heap, (usize, usize)>,
    options: Vec<Heap>,
    /// Options listed since the memory was last looked at.
    unchecked: usize,
    /// The most positions (sums remembered and options listed) to keep.
    limit: usize,
    depth: usize,
    /// A quotient of one family's heaps (perhaps of fewer heaps than the
    /// sum has): sums of that family's heaps that it covers are answered
    /// by it.
    oracle: Option<Oracle>,
}

impl HeapSearch {
    fn new(limit: usize) -> Self {
        HeapSearch {
            memo: Default::default(),
            listed: Default::default(),
            options: Vec::new(),
            unchecked: 0,
            limit,
            depth: 0,
            oracle: None,
        }
    }

    /// The range of `options` holding the options of `heap`, listed now if
    /// they were not.
    fn list(&mut self, sum: &mut Sum, heap: Heap) -> Result<(usize, usize)> {
        if let Some(range) = self.listed.get(&heap) {
            return Ok(*range);
        }
        let family = family_of(heap);
        let moves = sum
            .family_mut(family)
            .moves(&Position::from(size_of(heap)))
            .map_err(too_many_moves)?;
        let start = self.options.len();
        let mut parts: Vec<Heap> = Vec::new();
        let mut seen: Vec<Vec<Heap>> = Vec::with_capacity(moves.len());
        for m in moves {
            if matches!(m.value, Value::Infinite(_)) {
                return Err(cycles());
            }
            parts.clear();
            for p in &m.to {
                match p.as_u64().and_then(|h| heap_of(family, h)) {
                    Some(h) if size_of(h) == 0 => {}
                    Some(h) => parts.push(h),
                    None => return Err(not_heaps()),
                }
            }
            parts.sort_unstable();
            seen.push(parts.clone());
        }
        seen.sort();
        seen.dedup();
        for option in seen {
            self.options.push(option.len() as Heap);
            self.options.extend_from_slice(&option);
        }
        let range = (start, self.options.len());
        self.listed.insert(heap, range);
        self.unchecked += range.1 - range.0;
        if self.unchecked >= 1 << 16 {
            self.unchecked = 0;
            crate::memory::check_work(crate::sum::MISERE_WORK, crate::sum::MISERE_ADVICE)?;
        }
        self.budget()?;
        Ok(range)
    }

    fn budget(&self) -> Result<()> {
        if self.memo.len() + self.options.len() / 2 >= self.limit {
            return Err(Error::Budget { limit: self.limit });
        }
        Ok(())
    }

    /// The sorted heaps of `heaps` that have a move (None when some
    /// position is not a heap after all).
    fn canonical(&mut self, sum: &mut Sum, heaps: &[Heap]) -> Result<Option<Vec<Heap>>> {
        let mut state = Vec::with_capacity(heaps.len());
        for h in heaps {
            let (a, b) = match self.list(sum, *h) {
                Err(e) if is_not_heaps(&e) => return Ok(None),
                other => other?,
            };
            if a < b {
                state.push(*h);
            }
        }
        state.sort_unstable();
        Ok(Some(state))
    }

    /// The quotient's answer for `state`, when it covers every heap.
    fn quotient_says(&self, state: &[Heap]) -> Option<bool> {
        Some(!self.oracle.as_ref()?.is_p(state)?)
    }

    /// Whether the player to move wins misère play from `state` (sorted,
    /// every heap with a move).
    fn wins(&mut self, sum: &mut Sum, state: &[Heap]) -> Result<bool> {
        // No move at all: the opponent moved last and lost.
        if state.is_empty() {
            return Ok(true);
        }
        if let Some(w) = self.quotient_says(state) {
            return Ok(w);
        }
        match self.memo.get(state) {
            Some(Some(w)) => return Ok(*w),
            Some(None) => return Err(cycles()),
            None => {}
        }
        self.budget()?;
        if self.memo.len().is_multiple_of(1024) {
            sum.search_step(self.memo.len())?;
        }
        let entry = std::mem::size_of::<(Vec<Heap>, Option<bool>)>() + 8 * state.len();
        if crate::memory::growth_over_budget(self.memo.len(), self.memo.capacity(), entry) {
            return Err(crate::memory::exceeded(
                crate::sum::MISERE_WORK,
                crate::sum::MISERE_ADVICE,
            ));
        }
        if self.depth >= MAX_SEARCH_DEPTH {
            return Err(too_deep());
        }
        self.memo.insert(state.to_vec(), None);
        self.depth += 1;
        let result = self.any_losing_option(sum, state);
        self.depth -= 1;
        let result = match result {
            Ok(r) => r,
            Err(e) => {
                self.memo.remove(state);
                return Err(e);
            }
        };
        // Set in place: `insert` makes room for one more entry before it
        // looks for the key, so on a full table it would double the table
        // past the check above even though the key is already there.
        if let Some(entry) = self.memo.get_mut(state) {
            *entry = Some(result);
        }
        Ok(result)
    }

    fn any_losing_option(&mut self, sum: &mut Sum, state: &[Heap]) -> Result<bool> {
        let mut next: Vec<Heap> = Vec::with_capacity(state.len() + 2);
        for i in 0..state.len() {
            if i > 0 && state[i] == state[i - 1] {
                continue;
            }
            let (mut at, end) = self.list(sum, state[i])?;
            while at < end {
                let k = self.options[at] as usize;
                next.clear();
                next.extend_from_slice(&state[..i]);
                next.extend_from_slice(&state[i + 1..]);
                for j in 0..k {
                    let part = self.options[at + 1 + j];
                    let (a, b) = self.list(sum, part)?;
                    if a < b {
                        next.push(part);
                    }
                }
                at += 1 + k;
                next.sort_unstable();
                let option = std::mem::take(&mut next);
                let loses = !self.wins(sum, &option)?;
                next = option;
                if loses {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }
}

/// Why the search of heaps gives the sum up to the general search: some
/// move leaves a position that is not a heap.
const NOT_HEAPS: &str = "a move leaves a position that is not a heap";

fn not_heaps() -> Error {
    Error::Invalid(NOT_HEAPS.into())
}

fn is_not_heaps(e: &Error) -> bool {
    matches!(e, Error::Invalid(why) if why == NOT_HEAPS)
}

fn cycles() -> Error {
    Error::invalid("misère play on games with cycles is not supported")
}

fn too_deep() -> Error {
    Error::TooLarge(format!(
        "misère search would go more than {MAX_SEARCH_DEPTH} moves deep; \
         this sum is too long a game to search (and not tame, or too large for genus theory)"
    ))
}

/// A family's refusal to list the moves of a position, as misère play
/// explains it.
fn too_many_moves(e: Error) -> Error {
    match e {
        Error::TooLarge(why) => Error::TooLarge(format!(
            "misère play needs every move of every position it reaches, and {why}; \
             this sum is beyond genus theory and search: try smaller heaps"
        )),
        other => other,
    }
}

/// Misère analysis by search over the whole sum.
pub fn by_search(sum: &mut Sum, max_moves: usize, max_states: usize) -> Result<MisereAnalysis> {
    let mut search = Search {
        memo: HashMap::new(),
        moves: HashMap::new(),
        listed: 0,
        checked: 0,
        on_path: std::collections::HashSet::new(),
        max_states,
    };
    let start = search.canonical(sum, sum.components().to_vec())?;
    let wins = search.wins(sum, &start)?;
    let mut winning_moves = Vec::new();
    let mut truncated = false;
    if wins {
        let components = sum.components().to_vec();
        for (index, component) in components.iter().enumerate() {
            for m in search.moves_of(sum, component)? {
                let next = after_move(&components, index, &m);
                let state = search.canonical(sum, next)?;
                if !search.wins(sum, &state)? {
                    if winning_moves.len() == max_moves {
                        truncated = true;
                        break;
                    }
                    winning_moves.push(WinningMove {
                        component: index,
                        from: component.position.clone(),
                        to: m.to.clone(),
                    });
                }
            }
        }
    }
    Ok(MisereAnalysis {
        winner: if wins { Winner::First } else { Winner::Second },
        winning_moves,
        truncated,
        method: "search",
        genera: vec![],
        unlisted: vec![],
    })
}

/// The components after component `index` makes move `m` (its parts take its place).
pub fn after_move(components: &[Component], index: usize, m: &Move) -> Vec<Component> {
    let mut next = Vec::with_capacity(components.len() + m.to.len());
    next.extend_from_slice(&components[..index]);
    for part in &m.to {
        next.push(Component {
            family: components[index].family,
            position: part.clone(),
        });
    }
    next.extend_from_slice(&components[index + 1..]);
    next
}

/// Bouton's rule for misère Nim.
fn bouton(sum: &Sum, max_moves: usize) -> MisereAnalysis {
    let heaps: Vec<BigUint> = sum
        .components()
        .iter()
        .map(|c| c.position.as_biguint().expect("Nim positions are heaps"))
        .collect();
    let one = BigUint::from(1u32);
    let big = heaps.iter().filter(|h| **h > one).count();
    let ones = heaps.iter().filter(|h| **h == one).count();
    let nim_sum = heaps.iter().fold(BigUint::default(), |acc, h| acc ^ h);
    let wins = if big == 0 {
        ones % 2 == 0
    } else {
        nim_sum.bits() != 0
    };
    let mut moves = Vec::new();
    if wins {
        for (index, heap) in heaps.iter().enumerate() {
            let targets: Vec<BigUint> = if big == 0 {
                // Take a whole 1-heap, leaving an odd number of 1s.
                if *heap == one {
                    vec![BigUint::default()]
                } else {
                    vec![]
                }
            } else if big == 1 && *heap > one {
                // The last big heap: leave an odd number of 1-heaps in all.
                let others = ones;
                vec![if others % 2 == 0 {
                    one.clone()
                } else {
                    BigUint::default()
                }]
            } else {
                let target = &nim_sum ^ heap;
                if target < *heap {
                    vec![target]
                } else {
                    vec![]
                }
            };
            for target in targets {
                moves.push(WinningMove {
                    component: index,
                    from: Position::heap(heap.clone()),
                    to: if target.bits() == 0 {
                        vec![]
                    } else {
                        vec![Position::heap(target)]
                    },
                });
            }
        }
    }
    let truncated = moves.len() > max_moves;
    moves.truncate(max_moves);
    MisereAnalysis {
        winner: if wins { Winner::First } else { Winner::Second },
        winning_moves: moves,
        truncated,
        method: "bouton",
        genera: vec![],
        unlisted: vec![],
    }
}

type State = Vec<(usize, Position)>;

struct Search {
    memo: HashMap<State, bool>,
    moves: HashMap<(usize, Position), Vec<Move>>,
    /// The moves held in `moves`: they count against the budgets as the
    /// sums in `memo` do, since a large heap can have thousands.
    listed: usize,
    /// `listed` when the memory was last looked at.
    checked: usize,
    on_path: std::collections::HashSet<State>,
    max_states: usize,
}

impl Search {
    fn moves_of(&mut self, sum: &mut Sum, component: &Component) -> Result<Vec<Move>> {
        let key = (component.family, component.position.clone());
        if let Some(moves) = self.moves.get(&key) {
            return Ok(moves.clone());
        }
        let moves = sum
            .family_mut(component.family)
            .moves(&component.position)
            .map_err(too_many_moves)?;
        if moves.iter().any(|m| matches!(m.value, Value::Infinite(_))) {
            return Err(Error::invalid(
                "misère play on games with cycles is not supported (some position can be drawn)",
            ));
        }
        self.listed += moves.len();
        self.moves.insert(key, moves.clone());
        if self.listed - self.checked >= 4096 {
            self.checked = self.listed;
            crate::memory::check_work(crate::sum::MISERE_WORK, crate::sum::MISERE_ADVICE)?;
        }
        self.budget()?;
        Ok(moves)
    }

    /// An error once the sums remembered and the moves listed reach the
    /// state budget.
    fn budget(&self) -> Result<()> {
        if self.memo.len() + self.listed >= self.max_states {
            return Err(Error::Budget {
                limit: self.max_states,
            });
        }
        Ok(())
    }

    /// The sorted multiset of components that still have moves.
    fn canonical(&mut self, sum: &mut Sum, components: Vec<Component>) -> Result<State> {
        let mut state = Vec::with_capacity(components.len());
        for c in components {
            if !self.moves_of(sum, &c)?.is_empty() {
                state.push((c.family, c.position));
            }
        }
        state.sort();
        Ok(state)
    }

    /// Whether the player to move wins misère play from `state`.
    fn wins(&mut self, sum: &mut Sum, state: &State) -> Result<bool> {
        if let Some(w) = self.memo.get(state) {
            return Ok(*w);
        }
        // No move at all: the opponent moved last and lost.
        if state.is_empty() {
            return Ok(true);
        }
        self.budget()?;
        sum.search_step(self.memo.len())?;
        let entry = std::mem::size_of::<(State, bool)>()
            + state.len() * std::mem::size_of::<(usize, Position)>();
        if crate::memory::growth_over_budget(self.memo.len(), self.memo.capacity(), entry) {
            return Err(crate::memory::exceeded(
                crate::sum::MISERE_WORK,
                crate::sum::MISERE_ADVICE,
            ));
        }
        if self.on_path.len() >= MAX_SEARCH_DEPTH {
            return Err(too_deep());
        }
        if !self.on_path.insert(state.clone()) {
            return Err(Error::invalid(
                "misère play on games with cycles is not supported",
            ));
        }
        let components: Vec<Component> = state
            .iter()
            .map(|(family, position)| Component {
                family: *family,
                position: position.clone(),
            })
            .collect();
        let mut result = false;
        'all: for index in 0..components.len() {
            if index > 0 && components[index] == components[index - 1] {
                continue;
            }
            for m in self.moves_of(sum, &components[index])? {
                let next = self.canonical(sum, after_move(&components, index, &m))?;
                if !self.wins(sum, &next)? {
                    result = true;
                    break 'all;
                }
            }
        }
        self.on_path.remove(state);
        // The options searched above filled the table meanwhile: look
        // again before the entry that could double it.
        if crate::memory::growth_over_budget(self.memo.len(), self.memo.capacity(), entry) {
            return Err(crate::memory::exceeded(
                crate::sum::MISERE_WORK,
                crate::sum::MISERE_ADVICE,
            ));
        }
        self.memo.insert(state.clone(), result);
        Ok(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::Settings;
    use crate::spec::parse_sum;
    use proptest::prelude::*;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    fn misere(text: &str) -> MisereAnalysis {
        let mut sum = parse_sum(&args(text), Settings::default()).unwrap();
        analyze(&mut sum, usize::MAX, 1_000_000).unwrap()
    }

    #[test]
    fn misere_nim() {
        assert_eq!(misere("nim 1").winner, Winner::Second);
        assert_eq!(misere("nim 1 1").winner, Winner::First);
        assert_eq!(misere("nim 2").winner, Winner::First);
        let a = misere("nim 2 1 1");
        assert_eq!(a.method, "bouton");
        // From 2,1,1 the winning move leaves an odd number of 1s: 2 -> 1.
        assert_eq!(a.winning_moves.len(), 1);
        assert_eq!(a.winning_moves[0].to, [Position::from(1u64)]);
    }

    /// Misère outcome by plain recursion over heaps with the rules written
    /// again here: the reference.
    fn reference(
        rules: &[Vec<u64>],
        heaps: &mut Vec<(usize, u64)>,
        memo: &mut HashMap<Vec<(usize, u64)>, bool>,
    ) -> bool {
        heaps.sort();
        if let Some(w) = memo.get(heaps) {
            return *w;
        }
        let mut any_move = false;
        let mut result = false;
        'search: for i in 0..heaps.len() {
            let (family, n) = heaps[i];
            for &take in &rules[family] {
                if take > n {
                    continue;
                }
                any_move = true;
                let mut next = heaps.clone();
                next[i] = (family, n - take);
                if !reference(rules, &mut next, memo) {
                    result = true;
                    break 'search;
                }
            }
        }
        let result = result || !any_move;
        memo.insert(heaps.clone(), result);
        result
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(60))]
        #[test]
        fn subtraction_sums_agree_with_search(
            sets in proptest::collection::vec(proptest::collection::btree_set(1u64..5, 1..3), 1..3),
            heaps in proptest::collection::vec((0usize..2, 0u64..9), 1..4),
        ) {
            let rules: Vec<Vec<u64>> = sets.iter().map(|s| s.iter().copied().collect()).collect();
            let heaps: Vec<(usize, u64)> = heaps.into_iter().map(|(f, n)| (f % rules.len(), n)).collect();
            let mut text = Vec::new();
            for (i, (family, n)) in heaps.iter().enumerate() {
                if i > 0 { text.push("+".to_string()); }
                let set: Vec<String> = rules[*family].iter().map(u64::to_string).collect();
                text.push(format!("sub:{}", set.join(",")));
                text.push(n.to_string());
            }
            let mut sum = parse_sum(&text, Settings::default()).unwrap();
            let analysis = analyze(&mut sum, usize::MAX, 1_000_000).unwrap();
            let mut memo = HashMap::new();
            let expected = reference(&rules, &mut heaps.clone(), &mut memo);
            prop_assert_eq!(analysis.winner == Winner::First, expected);
            // Exactly the moves after which the opponent loses.
            let mut good = 0;
            for i in 0..heaps.len() {
                let mut seen = std::collections::HashSet::new();
                for &take in &rules[heaps[i].0] {
                    if take <= heaps[i].1 && seen.insert(heaps[i].1 - take) {
                        let mut next = heaps.clone();
                        next[i].1 -= take;
                        if !reference(&rules, &mut next, &mut memo) { good += 1; }
                    }
                }
            }
            prop_assert_eq!(analysis.winning_moves.len(), if expected { good } else { 0 });
        }

        #[test]
        fn bouton_agrees_with_search(heaps in proptest::collection::vec(0u64..6, 1..4)) {
            let text: Vec<String> = std::iter::once("nim".to_string()).chain(heaps.iter().map(u64::to_string)).collect();
            let mut sum = parse_sum(&text, Settings::default()).unwrap();
            let fast = analyze(&mut sum, usize::MAX, 1_000_000).unwrap();
            let rules = vec![(1..6).collect::<Vec<u64>>()];
            let mut memo = HashMap::new();
            let expected = reference(&rules, &mut heaps.iter().map(|h| (0, *h)).collect(), &mut memo);
            prop_assert_eq!(fast.winner == Winner::First, expected);
        }
    }

    /// Games with tame heaps and wild ones, as (spec, largest heap tried).
    const GENUS_GAMES: [(&str, u64); 12] = [
        ("0.3", 12),
        ("0.03", 12),
        ("0.07", 12),
        ("0.77", 9),
        ("0.137", 12),
        ("0.51", 12),
        ("4.07", 10),
        ("sub:1,2", 12),
        ("sub:2,3", 12),
        ("sub:1,3,4", 12),
        ("0.6", 11),
        ("grundy", 12),
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        /// The quotient of two or three wild games together gives every
        /// mixed sum of their heaps the outcome the search of the whole sum
        /// finds.
        #[test]
        fn joint_quotients_answer_mixed_sums_as_search_does(
            heaps in proptest::collection::vec((0usize..3, 0u64..10), 1..6),
            games in 2usize..4,
        ) {
            let specs = ["0.07", "0.75", "0.77"];
            let listed: Vec<(String, crate::quotient::learn::Rules)> = specs[..games]
                .iter()
                .map(|g| {
                    let mut family = crate::spec::parse_game(g, Settings::default()).unwrap();
                    (g.to_string(), crate::quotient::rules(family.as_mut(), 9).unwrap())
                })
                .collect();
            let limits = crate::quotient::Limits { max_order: 20_000, max_states: 2_000_000 };
            let (q, stopped) = crate::quotient::build_joint(&listed, &limits, &|| false).unwrap();
            prop_assert!(stopped.is_none());
            let indices = crate::quotient::joint_indices(&vec![9; games]);
            let mut x = 0;
            let mut text = Vec::new();
            for (g, h) in &heaps {
                let g = g % games;
                x = q.monoid.mul(x, q.heap_map[indices[g][*h as usize] as usize]);
                text.push(format!("{} {h}", specs[g]));
            }
            let text = text.join(" + ");
            let mut sum = crate::spec::parse_sum(&args(&text), Default::default()).unwrap();
            let search = by_search(&mut sum, 0, 10_000_000).unwrap();
            prop_assert_eq!(q.monoid.p[x as usize], search.winner == Winner::Second, "{}", text);
        }
    }

    #[test]
    fn mixed_sums_of_two_wild_games_use_their_joint_quotient() {
        let text = "kayles 7 + dawson 8 + kayles 5 + dawson 3";
        let mut sum = crate::spec::parse_sum(&args(text), Default::default()).unwrap();
        let quotient = by_heaps_probing(&mut sum, 1000, 10_000_000, 0)
            .unwrap()
            .unwrap();
        assert_eq!(quotient.method, "quotient");
        let mut sum = crate::spec::parse_sum(&args(text), Default::default()).unwrap();
        let search = by_search(&mut sum, 1000, 10_000_000).unwrap();
        assert_eq!(quotient.winner, search.winner);
        assert_eq!(sorted_moves(&quotient), sorted_moves(&search));
    }

    #[test]
    fn a_final_quotient_answers_heaps_of_any_size() {
        // Kayles' quotient is proved final (heap map periodic with period
        // 12 from heap 71), so heaps far past any table are answered; the
        // winner of heap n + 12k is that of heap n.
        for big in [1_000_000_007u64, 4_000_000_001] {
            let small = big % 12 + 72;
            let a = misere(&format!("kayles {big} 5"));
            let b = misere(&format!("kayles {small} 5"));
            assert_eq!(a.method, "quotient");
            assert_eq!(a.winner, b.winner, "{big}");
            // Heap `big` has too many moves to list: a first-player win
            // says so instead of listing them.
            let unlisted = if a.winner == Winner::First {
                vec![0]
            } else {
                vec![]
            };
            assert_eq!(a.unlisted, unlisted);
        }
    }

    #[test]
    fn a_heap_past_a_quotient_that_is_not_final_is_named_in_the_refusal() {
        let mut sum = crate::spec::parse_sum(&args("dawson 100 70"), Default::default()).unwrap();
        let e = analyze(&mut sum, 10, 200_000).unwrap_err().to_string();
        assert!(
            e.contains("heap 100 of 0.07 is past the misère quotient of 0.07"),
            "{e}"
        );
        assert!(e.contains("more than 200000 positions"), "{e}");
    }

    fn sorted_moves(a: &MisereAnalysis) -> Vec<(usize, Vec<Position>)> {
        let mut moves: Vec<(usize, Vec<Position>)> = a
            .winning_moves
            .iter()
            .map(|m| {
                let mut to = m.to.clone();
                to.sort();
                (m.component, to)
            })
            .collect();
        moves.sort();
        moves
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// Whenever genus theory answers, search over the whole sum agrees:
        /// the winner and exactly the same winning moves.
        #[test]
        fn genus_theory_agrees_with_search(
            parts in proptest::collection::vec((0usize..GENUS_GAMES.len(), 0u64..100, any::<bool>()), 1..5),
        ) {
            let mut text = Vec::new();
            for (i, (game, heap, nim)) in parts.iter().enumerate() {
                if i > 0 { text.push("+".to_string()); }
                let (spec, max) = GENUS_GAMES[*game];
                // Some components are Nim heaps, which genus theory mixes in.
                if *nim && i > 0 {
                    text.push("nim".to_string());
                    text.push((heap % 6).to_string());
                } else {
                    text.push(spec.to_string());
                    text.push((heap % (max + 1)).to_string());
                }
            }
            let mut sum = parse_sum(&text, Settings::default()).unwrap();
            if let Some(fast) = genus::analyze(&mut sum, usize::MAX, 100_000).unwrap() {
                let fast = MisereAnalysis::from(fast);
                let slow = by_search(&mut sum, usize::MAX, 5_000_000).unwrap();
                prop_assert_eq!(fast.winner, slow.winner, "{}", text.join(" "));
                prop_assert_eq!(sorted_moves(&fast), sorted_moves(&slow), "{}", text.join(" "));
            }
        }
    }

    #[test]
    fn genus_theory_is_used_where_it_applies() {
        // Taking 1 or 2 (0.3): every heap is tame.
        let a = misere("0.3 5 7 + nim 4");
        assert_eq!(a.method, "genus");
        assert_eq!(a.genera.len(), 3);
        assert_eq!(a.genera[2], "4^46");
        // A large heap is answered at once.
        let a = misere("0.3 900 + sub:1,2 800");
        assert_eq!(a.method, "genus");
        // Kayles (0.77) is wild: a small sum is searched at once (or
        // answered by a quotient this process built before).
        assert!(["search", "quotient"].contains(&misere("0.77 5 4 3").method));
        // Two wild games in one sum: the same.
        assert!(["search", "quotient"].contains(&misere("0.77 5 4 + 0.07 6").method));
    }

    #[test]
    fn the_quotient_answers_as_search_does_with_every_winning_move() {
        for text in [
            "kayles 1 2 3 4 5 6 7",
            "kayles 3 3 5 8",
            "dawson 4 5 9 10 3",
            "dawson 2 6 7",
            "0.75 5 6 7 1",
        ] {
            let mut sum = crate::spec::parse_sum(&args(text), Default::default()).unwrap();
            // No first search: the quotient answers.
            let quotient = by_heaps_probing(&mut sum, 1000, 10_000_000, 0)
                .unwrap()
                .expect("one wild heap game");
            assert_eq!(quotient.method, "quotient", "{text}");
            let mut sum = crate::spec::parse_sum(&args(text), Default::default()).unwrap();
            let search = by_search(&mut sum, 1000, 10_000_000).unwrap();
            assert_eq!(quotient.winner, search.winner, "{text}");
            assert_eq!(sorted_moves(&quotient), sorted_moves(&search), "{text}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(80))]
        /// The search over multisets of heap sizes, with and without a
        /// quotient to help it, answers as the search of whole sums does:
        /// the winner and exactly the same winning moves.
        #[test]
        fn heap_search_agrees_with_search_of_whole_sums(
            d1 in 0u32..8, d2 in 1u32..8,
            heaps in proptest::collection::vec(0u64..14, 1..4),
            probe in prop_oneof![Just(0usize), Just(PROBE_STATES)],
        ) {
            let mut text = vec![format!("0.{d1}{d2}")];
            text.extend(heaps.iter().map(u64::to_string));
            let mut sum = parse_sum(&text, Settings::default()).unwrap();
            let fast = by_heaps_probing(&mut sum, usize::MAX, 5_000_000, probe).unwrap().unwrap();
            let slow = by_search(&mut sum, usize::MAX, 5_000_000).unwrap();
            prop_assert_eq!(fast.winner, slow.winner, "{}", text.join(" "));
            prop_assert_eq!(sorted_moves(&fast), sorted_moves(&slow), "{}", text.join(" "));
        }
    }

    #[test]
    fn a_single_wild_heap_is_searched_without_building_a_quotient() {
        // One heap of 25 of a wild game is a small search, and its quotient
        // (which takes seconds) is not needed: the method says which was
        // used. Quotients are kept for the life of the process, so the game
        // is one that no other test of this library plays in misère: with
        // Dawson's Kayles, another test's quotient answered whenever that
        // test ran first. The winner was checked by a brute-force search of
        // every multiset of heaps reachable from 25.
        let a = misere("0.53 25");
        assert_eq!(a.method, "search");
        assert_eq!(a.winner, Winner::First);
    }

    #[test]
    fn the_state_budget_counts_the_moves_listed() {
        // Heap 10000 has thousands of moves, and so has each heap below:
        // listing them is what fills memory, so they count.
        let mut sum = parse_sum(&args("0.07 10000"), Settings::default()).unwrap();
        let started = crate::clock::Instant::now();
        let e = analyze(&mut sum, 10, 100_000).unwrap_err().to_string();
        assert!(
            e.contains("heap 10000 of 0.07 is past the misère quotient"),
            "{e}"
        );
        assert!(
            e.contains("more than 100000 positions (--max-states)"),
            "{e}"
        );
        assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
    }

    #[test]
    fn kayles_sums_are_fast_enough() {
        // A dozen small Kayles heaps: splits make many multisets.
        let a = misere("kayles 3 4 5 6 2 3 4 1 2 5 3 4");
        assert!(matches!(a.winner, Winner::First | Winner::Second));
    }
}
