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
}

impl From<genus::GenusAnalysis> for MisereAnalysis {
    fn from(g: genus::GenusAnalysis) -> Self {
        MisereAnalysis {
            winner: g.winner,
            winning_moves: g.winning_moves,
            truncated: g.truncated,
            method: "genus",
            genera: g.genera,
        }
    }
}

/// The most positions genus theory classifies before leaving a sum to search.
const GENUS_BUDGET: usize = 1_000_000;

/// The longest line of play the search follows (its recursion depth).
const MAX_SEARCH_DEPTH: usize = 100_000;

/// Misère analysis of a sum.
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
    if let Some(analysis) = genus::analyze(sum, max_moves, max_states.min(GENUS_BUDGET))? {
        return Ok(analysis.into());
    }
    if let Some(analysis) = by_quotient(sum, max_moves)? {
        return Ok(analysis);
    }
    by_search(sum, max_moves, max_states).map_err(|e| match e {
        Error::TooLarge(why) => Error::TooLarge(format!(
            "misère play needs every move of every position it reaches, and {why}; \
             this sum is beyond genus theory and search: try smaller heaps"
        )),
        other => other,
    })
}

/// The largest heap for which a sum is answered through a misère quotient.
pub const QUOTIENT_MAX_HEAP: u64 = 64;

/// Misère analysis through the misère quotient ([`crate::quotient`]) of
/// the heaps of one heap game, when every component is a heap of that game
/// up to [`QUOTIENT_MAX_HEAP`] and the quotient is small enough to build
/// (None otherwise). A move wins when the product of the heaps it leaves
/// lies in the P-portion.
pub fn by_quotient(sum: &mut Sum, max_moves: usize) -> Result<Option<MisereAnalysis>> {
    let components = sum.components().to_vec();
    let Some(first) = components.first() else {
        return Ok(None);
    };
    let spec = sum.family(first.family).spec();
    let mut heaps = Vec::with_capacity(components.len());
    for c in &components {
        let family = sum.family(c.family);
        if family.spec() != spec || !family.is_heap_game() {
            return Ok(None);
        }
        match c.position.as_u64() {
            Some(h) if h <= QUOTIENT_MAX_HEAP => heaps.push(h),
            _ => return Ok(None),
        }
    }
    let max_heap = *heaps.iter().max().expect("components") as u32;
    // Built quotients are kept for the process (a game played move after
    // move asks for the same one each turn), as are games too big for one;
    // scripts are left out, as one name can hold different rules.
    type Cache =
        std::sync::Mutex<HashMap<(String, u32), Option<std::sync::Arc<crate::quotient::Quotient>>>>;
    static CACHE: std::sync::OnceLock<Cache> = std::sync::OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let cacheable = !spec.starts_with("script:");
    let key = (spec.clone(), max_heap);
    let cached = cacheable
        .then(|| cache.lock().ok().and_then(|c| c.get(&key).cloned()))
        .flatten();
    let quotient = match cached {
        Some(None) => return Ok(None),
        Some(Some(q)) => q,
        None => {
            let built = build_quotient(sum, first.family, max_heap)?.map(std::sync::Arc::new);
            if let (true, Ok(mut c)) = (cacheable, cache.lock()) {
                if c.len() > 64 {
                    c.clear();
                }
                c.insert(key, built.clone());
            }
            match built {
                Some(q) => q,
                None => return Ok(None),
            }
        }
    };
    let m = &quotient.monoid;
    let elements: Vec<u32> = heaps
        .iter()
        .map(|h| quotient.heap_map[*h as usize])
        .collect();
    let total = elements.iter().fold(0, |x, e| m.mul(x, *e));
    let wins = !m.p[total as usize];
    let mut winning_moves = Vec::new();
    let mut truncated = false;
    if wins {
        // The product of every component but one: the products before it
        // times those after it (no inverses to divide by).
        let mut after_of = vec![0u32; elements.len() + 1];
        for i in (0..elements.len()).rev() {
            after_of[i] = m.mul(elements[i], after_of[i + 1]);
        }
        let mut before = 0u32;
        'all: for (index, c) in components.iter().enumerate() {
            let others = m.mul(before, after_of[index + 1]);
            before = m.mul(before, elements[index]);
            for mv in sum.family_mut(c.family).moves(&c.position)? {
                let mut after = others;
                for part in &mv.to {
                    let h = part.as_u64().filter(|h| *h <= max_heap as u64);
                    let Some(h) = h else {
                        return Ok(None);
                    };
                    after = m.mul(after, quotient.heap_map[h as usize]);
                }
                if m.p[after as usize] {
                    if winning_moves.len() == max_moves {
                        truncated = true;
                        break 'all;
                    }
                    winning_moves.push(WinningMove {
                        component: index,
                        from: c.position.clone(),
                        to: mv.to.clone(),
                    });
                }
            }
        }
    }
    Ok(Some(MisereAnalysis {
        winner: if wins { Winner::First } else { Winner::Second },
        winning_moves,
        truncated,
        method: "quotient",
        genera: vec![],
    }))
}

/// The quotient of heaps up to `max_heap` of the sum's family `family`, or
/// None when it is too large to build.
fn build_quotient(
    sum: &mut Sum,
    family: usize,
    max_heap: u32,
) -> Result<Option<crate::quotient::Quotient>> {
    let limits = crate::quotient::Limits {
        max_order: 4096,
        max_states: 2_000_000,
    };
    let stop = sum.stop_flag();
    let stopped = move || {
        stop.as_ref()
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
    };
    let family = sum.family_mut(family);
    match crate::quotient::build(family, max_heap, &limits, &mut |_, _| {}, &stopped) {
        Ok(q) if q.max_heap == max_heap => Ok(Some(q)),
        Ok(q) => Err(Error::Interrupted(format!(
            "interrupted while building the misère quotient (heaps up to {} were done)",
            q.max_heap
        ))),
        Err(Error::TooLarge(_)) | Err(Error::Budget { .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Misère analysis by search over the whole sum.
pub fn by_search(sum: &mut Sum, max_moves: usize, max_states: usize) -> Result<MisereAnalysis> {
    let mut search = Search {
        memo: HashMap::new(),
        moves: HashMap::new(),
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
    }
}

type State = Vec<(usize, Position)>;

struct Search {
    memo: HashMap<State, bool>,
    moves: HashMap<(usize, Position), Vec<Move>>,
    on_path: std::collections::HashSet<State>,
    max_states: usize,
}

impl Search {
    fn moves_of(&mut self, sum: &mut Sum, component: &Component) -> Result<Vec<Move>> {
        let key = (component.family, component.position.clone());
        if let Some(moves) = self.moves.get(&key) {
            return Ok(moves.clone());
        }
        sum.search_step(self.moves.len())?;
        let moves = sum
            .family_mut(component.family)
            .moves(&component.position)?;
        if moves.iter().any(|m| matches!(m.value, Value::Infinite(_))) {
            return Err(Error::invalid(
                "misère play on games with cycles is not supported (some position can be drawn)",
            ));
        }
        self.moves.insert(key, moves.clone());
        Ok(moves)
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
        if self.memo.len() >= self.max_states {
            return Err(Error::Budget {
                limit: self.max_states,
            });
        }
        if self.on_path.len() >= MAX_SEARCH_DEPTH {
            return Err(Error::TooLarge(format!(
                "misère search would go more than {MAX_SEARCH_DEPTH} moves deep; \
                 this sum is too long a game to search (and not tame, or too large for genus theory)"
            )));
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
        // Kayles (0.77) is wild: its misère quotient answers.
        assert_eq!(misere("0.77 5 4 3").method, "quotient");
        // Two wild games in one sum: search.
        assert_eq!(misere("0.77 5 4 + 0.07 6").method, "search");
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
            let quotient = by_quotient(&mut sum, 1000)
                .unwrap()
                .expect("one wild heap game");
            let mut sum = crate::spec::parse_sum(&args(text), Default::default()).unwrap();
            let search = by_search(&mut sum, 1000, 10_000_000).unwrap();
            assert_eq!(quotient.winner, search.winner, "{text}");
            assert_eq!(sorted_moves(&quotient), sorted_moves(&search), "{text}");
        }
    }

    #[test]
    fn kayles_sums_are_fast_enough() {
        // A dozen small Kayles heaps: splits make many multisets.
        let a = misere("kayles 3 4 5 6 2 3 4 1 2 5 3 4");
        assert!(matches!(a.winner, Winner::First | Winner::Second));
    }
}
