//! The search spread over many processes or machines (a Dask cluster, driven
//! from Python's `grundy.search`).
//!
//! A driver keeps the facts: a [`Searcher`]'s table, saved to a file now and
//! then (atomic and checksummed, like every search table), so that a stopped
//! driver resumes from what it had learned. It expands the top of the pruned
//! nimber search itself (the root's tests, and the options below them) and
//! hands the tests below that depth to workers as tasks: "has this sum of
//! components nimber k?", or "what is this component's nimber?". A worker
//! answers with its own searcher, first merging the facts the driver sent;
//! it returns the facts it learned (nimbers and "not k" of components) whose
//! work was large enough to be worth sending, which the driver merges and
//! passes on to later tasks, so no worker repeats a finished component.
//!
//! Components travel in the engine's own layout, widened to 128 bits
//! ([`super::Bits::to_u128`]); facts travel as [`encode`]d bytes, tagged with
//! the engine's name so that facts of another board are refused.

use super::table::Knowledge;
use super::{Bits, SearchGame, Searcher, Stop};
use crate::error::{Error, Result};
use crate::heap::checkpoint::{fnv1a, FNV_OFFSET};

/// A fact: a component (widened) and its knowledge word.
pub type Fact = (u128, u64);

/// What a search engine offers to a search spread over many processes.
pub trait Distributed {
    /// The canonical components (with moves) of a whole position given in
    /// the family's layout (as [`Engine::nimber`](super::family::Engine::nimber) takes it).
    fn components(&self, pos: u128) -> Vec<u128>;
    /// The options of a canonical component, each as its canonical
    /// components (equal pairs cancelled, sorted), in the search's move
    /// order, each distinct sum once.
    fn component_options(&self, c: u128) -> Vec<Vec<u128>>;
    /// A component's size: of a sum, the largest is tested and the others
    /// are computed exactly.
    fn size(&self, c: u128) -> u32;
    /// What the table and the game's theorems know of a component.
    fn known(&mut self, c: u128) -> Knowledge;
    /// Records a component's nimber.
    fn record_exact(&mut self, c: u128, nimber: u32);
    /// Records that a component's nimber is not `k`.
    fn record_not(&mut self, c: u128, k: u32);
    /// Whether the sum of canonical components has nimber `k`.
    fn sum_is(&mut self, comps: &[u128], k: u32) -> std::result::Result<bool, Stop>;
    /// The nimber of a canonical component within `max_nodes` positions:
    /// None when they ran out first (what was learned stays in the table).
    fn nimber_within(&mut self, c: u128, max_nodes: u64) -> std::result::Result<Option<u32>, Stop>;
    /// [`Self::sum_is`] within `max_nodes` positions: None when they ran
    /// out first (what was learned stays in the table).
    fn sum_is_within(
        &mut self,
        comps: &[u128],
        k: u32,
        max_nodes: u64,
    ) -> std::result::Result<Option<bool>, Stop>;
    /// The facts whose work was at least 2^`min_log2` positions, and those
    /// of `always` (the components a task was asked about) whatever their work.
    fn facts(&mut self, min_log2: u32, always: &[u128]) -> Vec<Fact>;
    /// The `most` costliest facts (for sending with every task).
    fn best_facts(&mut self, most: usize) -> Vec<Fact>;
    /// Merges facts learned elsewhere; how many were taken.
    fn merge(&mut self, facts: &[Fact]) -> usize;
}

impl<G: SearchGame> Distributed for Searcher<G> {
    fn components(&self, pos: u128) -> Vec<u128> {
        let game = self.game();
        let mut parts = Vec::new();
        game.split(game.import(pos), &mut parts);
        parts
            .into_iter()
            .map(|p| game.canonical(p).to_u128())
            .collect()
    }

    fn component_options(&self, c: u128) -> Vec<Vec<u128>> {
        let game = self.game();
        let mut options = Vec::new();
        game.options(G::Pos::from_u128(c), &mut options);
        let mut parts = Vec::new();
        let mut seen = std::collections::HashSet::new();
        options
            .into_iter()
            .filter_map(|o| {
                parts.clear();
                game.split(o, &mut parts);
                let mut keys: Vec<u128> =
                    parts.iter().map(|&p| game.canonical(p).to_u128()).collect();
                super::cancel_pairs(&mut keys, 0);
                seen.insert(keys.clone()).then_some(keys)
            })
            .collect()
    }

    fn size(&self, c: u128) -> u32 {
        self.game().size(G::Pos::from_u128(c))
    }

    fn known(&mut self, c: u128) -> Knowledge {
        let key = G::Pos::from_u128(c);
        let known = self.main.tt.get(key);
        if known.exact.is_some() || known.not != 0 {
            return known;
        }
        // What the game's theorems tell, kept as the search keeps it.
        match self.main.learn(key) {
            Some(v) => Knowledge {
                exact: Some(v),
                not: 0,
            },
            None => self.main.tt.get(key),
        }
    }

    fn record_exact(&mut self, c: u128, nimber: u32) {
        self.main.tt.set_exact(G::Pos::from_u128(c), nimber, 1);
    }

    fn record_not(&mut self, c: u128, k: u32) {
        self.main.tt.set_not(G::Pos::from_u128(c), k, 1);
    }

    fn sum_is(&mut self, comps: &[u128], k: u32) -> std::result::Result<bool, Stop> {
        let mut parts: Vec<G::Pos> = comps.iter().map(|&c| G::Pos::from_u128(c)).collect();
        self.main.check()?;
        self.main.sum_is(&mut parts, k)
    }

    fn sum_is_within(
        &mut self,
        comps: &[u128],
        k: u32,
        max_nodes: u64,
    ) -> std::result::Result<Option<bool>, Stop> {
        self.set_max_nodes(max_nodes);
        let answer = self.sum_is(comps, k);
        self.set_max_nodes(u64::MAX);
        match answer {
            Ok(a) => Ok(Some(a)),
            Err(Stop::Budget(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }

    fn nimber_within(&mut self, c: u128, max_nodes: u64) -> std::result::Result<Option<u32>, Stop> {
        self.set_max_nodes(max_nodes);
        let answer = self.main.component_nimber(G::Pos::from_u128(c));
        self.set_max_nodes(u64::MAX);
        match answer {
            Ok(v) => Ok(Some(v)),
            Err(Stop::Budget(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }

    fn facts(&mut self, min_log2: u32, always: &[u128]) -> Vec<Fact> {
        let mut out: Vec<Fact> = self
            .main
            .exclusive(|t| t.facts(min_log2))
            .into_iter()
            .map(|(k, m)| (k.to_u128(), m))
            .collect();
        for &c in always {
            if let Some(m) = self.main.tt.fact(G::Pos::from_u128(c)) {
                out.push((c, m));
            }
        }
        out
    }

    fn best_facts(&mut self, most: usize) -> Vec<Fact> {
        let mut all = self.facts(0, &[]);
        if all.len() > most {
            all.select_nth_unstable_by_key(most, |&(_, m)| std::cmp::Reverse(m >> 48));
            all.truncate(most);
        }
        all
    }

    fn merge(&mut self, facts: &[Fact]) -> usize {
        let mut taken = 0;
        for &(c, m) in facts {
            if G::Pos::WIDTH < 128 && c >> G::Pos::WIDTH != 0 {
                continue; // not a position of this engine
            }
            if self.main.tt.merge(G::Pos::from_u128(c), m) {
                taken += 1;
            }
        }
        if self.main.tt.wants_growth() {
            self.main.exclusive(|t| {
                if t.wants_growth() {
                    t.grow();
                }
            });
        }
        taken
    }
}

const MAGIC: &[u8] = b"GRUNDY-FACTS\n";

/// Facts as bytes for another process: a magic line, the engine's name,
/// the count, 24 bytes a fact (component, then word, little-endian) and an
/// FNV-1a checksum of all before it.
pub fn encode(tag: &str, facts: &[Fact]) -> Vec<u8> {
    let mut out = Vec::with_capacity(MAGIC.len() + 4 + tag.len() + 8 + facts.len() * 24 + 8);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(tag.len() as u32).to_le_bytes());
    out.extend_from_slice(tag.as_bytes());
    out.extend_from_slice(&(facts.len() as u64).to_le_bytes());
    for &(c, m) in facts {
        out.extend_from_slice(&c.to_le_bytes());
        out.extend_from_slice(&m.to_le_bytes());
    }
    let mut hash = FNV_OFFSET;
    fnv1a(&mut hash, &out);
    out.extend_from_slice(&hash.to_le_bytes());
    out
}

/// Reads [`encode`]d facts, refusing those of another engine or damaged ones.
pub fn decode(tag: &str, bytes: &[u8]) -> Result<Vec<Fact>> {
    let refuse = |why: &str| Error::invalid(format!("refusing facts: {why}"));
    if !bytes.starts_with(MAGIC) || bytes.len() < MAGIC.len() + 4 + 8 + 8 {
        return Err(refuse("they are not grundy search facts"));
    }
    let (body, tail) = bytes.split_at(bytes.len() - 8);
    let mut hash = FNV_OFFSET;
    fnv1a(&mut hash, body);
    if hash.to_le_bytes() != tail {
        return Err(refuse("their checksum does not match"));
    }
    let mut at = MAGIC.len();
    let mut take = |n: usize| -> Result<&[u8]> {
        let s = body
            .get(at..at + n)
            .ok_or_else(|| refuse("they are truncated"))?;
        at += n;
        Ok(s)
    };
    let len = u32::from_le_bytes(take(4)?.try_into().expect("4 bytes")) as usize;
    let saved = take(len)?;
    if saved != tag.as_bytes() {
        return Err(refuse(&format!(
            "they are for {}, not {tag}",
            String::from_utf8_lossy(saved)
        )));
    }
    let count = u64::from_le_bytes(take(8)?.try_into().expect("8 bytes"));
    let header = MAGIC.len() + 4 + len + 8;
    if count.checked_mul(24) != Some((body.len() - header) as u64) {
        return Err(refuse("their count does not match their length"));
    }
    let mut facts = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let c = u128::from_le_bytes(take(16)?.try_into().expect("16 bytes"));
        let m = u64::from_le_bytes(take(8)?.try_into().expect("8 bytes"));
        facts.push((c, m));
    }
    Ok(facts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::open_distributed as open;

    /// Runs the driver's expansion on one machine: the root's tests and the
    /// options below them expanded here, the rest answered by a second
    /// engine that sees only the facts sent to it, as a worker would.
    fn nimber_by_tasks(
        driver: &mut dyn Distributed,
        worker: &mut dyn Distributed,
        c: u128,
        depth: u32,
    ) -> u32 {
        if let Some(v) = driver.known(c).exact {
            return v;
        }
        if depth == 0 {
            let facts = driver.best_facts(1000);
            worker.merge(&facts);
            let k = worker.nimber_within(c, u64::MAX).unwrap().unwrap();
            let learned = worker.facts(4, &[c]);
            driver.merge(&learned);
            return k;
        }
        let options = driver.component_options(c);
        let mut k = 0;
        loop {
            let reached = options.iter().any(|o| {
                let mut parts = o.clone();
                parts.sort_by_key(|&p| driver.size(p));
                let (last, rest) = parts
                    .split_last()
                    .map_or((None, &[][..]), |(l, r)| (Some(*l), r));
                let mut x = k;
                for &p in rest {
                    x ^= nimber_by_tasks(driver, worker, p, depth - 1);
                }
                match last {
                    None => x == 0,
                    Some(l) => nimber_by_tasks(driver, worker, l, depth - 1) == x,
                }
            });
            if !reached {
                driver.record_exact(c, k);
                return k;
            }
            driver.record_not(c, k);
            k += 1;
        }
    }

    #[test]
    fn tasks_agree_with_the_local_search_on_small_cram_boards() {
        for (r, cols) in [(2, 5), (3, 4), (3, 5), (4, 4), (4, 5)] {
            let board = format!("{r}x{cols}");
            let mut local = open("cram", &board, 1 << 22).unwrap();
            let expected = local.engine.nimber(local.root).unwrap();
            let mut d = open("cram", &board, 1 << 22).unwrap();
            let mut w = open("cram", &board, 1 << 22).unwrap();
            let driver = d.engine.distributed().unwrap();
            let worker = w.engine.distributed().unwrap();
            let mut x = 0;
            for c in driver.components(d.root) {
                x ^= nimber_by_tasks(driver, worker, c, 2);
            }
            assert_eq!(x, expected, "cram {board}");
        }
    }

    #[test]
    fn facts_round_trip_and_refuse_damage() {
        let facts = vec![(5u128, (1u64 << 63) | 3), (u128::MAX >> 1, 1 << 63)];
        let bytes = encode("cram 5x8", &facts);
        assert_eq!(decode("cram 5x8", &bytes).unwrap(), facts);
        assert!(decode("cram 6x7", &bytes)
            .unwrap_err()
            .to_string()
            .contains("for cram 5x8"));
        let mut bad = bytes.clone();
        bad[20] ^= 1;
        assert!(decode("cram 5x8", &bad)
            .unwrap_err()
            .to_string()
            .contains("checksum"));
        assert!(decode("cram 5x8", &bytes[..10]).is_err());
    }
}
