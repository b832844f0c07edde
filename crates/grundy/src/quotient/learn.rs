//! Finding a misère quotient: a candidate is learned from outcomes, then
//! proved correct for every sum of heaps by a finite check, or refuted by
//! its smallest failing sum, which the next candidate learns from.
//!
//! **Positions.** A sum of heaps is a multiset of heap sizes (heaps with no
//! move are dropped: they change nothing). Heap h weighs 2h − 1, and a move
//! always lowers the total weight μ (a part left by a move of h weighs at
//! most what it took from h), so μ orders every game before its options.
//!
//! **Candidates** are learned with Angluin's L* (as in Rivest and
//! Schapire's form): rows are sums, columns ("contexts") are sums, a cell
//! is the outcome of row + context, and a candidate's elements are the
//! distinct rows. The outcome oracle is exact: the misère rule (a sum is a
//! P-position when it has a move and every option is an N-position) applied
//! recursively, where every sum of heaps below the newest is answered by the
//! quotient already proved for them, and every sum lighter than a
//! candidate's first failure by that candidate.
//!
//! **The proof** (our check of the Plambeck–Siegel condition). Let Φ map
//! sums into a commutative monoid Q with a P-portion P. Φ is correct for
//! every sum (Φ(G) ∈ P exactly when G is a misère P-position) if and only
//! if for every sum G: Φ(G) ∈ P ⟺ G has a move and no option G' has
//! Φ(G') ∈ P (induction on μ). The options of G are (G − h) + o for a heap
//! h of G and an option o of h, so with U(G) = {z : Φ(G − h)·Φ(o)·z ∈ P
//! for some such h, o}, the condition reads Φ(G) ∈ P ⟺ G has a move and
//! 1 ∉ U(G). Adding a heap k gives U(G + k) = {z : Φ(k)·z ∈ U(G)} ∪
//! {z : Φ(G)·Φ(o)·z ∈ P for an option o of k}: the triple (Φ(G), U(G),
//! "G has a move") follows the heaps added, whatever the rest of G. The
//! triples reachable from the empty sum are finitely many; the condition is
//! checked on each. They are visited in order of the lightest sum reaching
//! them, so the first failure is a lightest failing sum, and every lighter
//! sum is answered correctly by the candidate.

use super::monoid::{Law, Monoid};
use crate::error::{Error, Result};
use std::collections::{BinaryHeap, HashMap};

/// A sum of heaps: sizes in ascending order, heaps with no move left out.
pub type Sum = Vec<u32>;

/// The rules of a heap game, as far as quotients need them.
pub struct Rules {
    /// `options[h]`: the options of heap h, each a sum (h = 0 has none).
    pub options: Vec<Vec<Sum>>,
    /// The weight of each heap, when it is not 2h − 1 (the heaps of a joint
    /// quotient weigh by their size in their own game).
    pub weights: Option<Vec<u64>>,
}

impl Rules {
    /// The weight of heap h: 2h − 1 unless given.
    pub fn heap_weight(&self, h: u32) -> u64 {
        match &self.weights {
            Some(w) => w[h as usize],
            None => 2 * h as u64 - 1,
        }
    }

    /// μ: the weight that every move lowers.
    pub fn weight(&self, sum: &[u32]) -> u64 {
        sum.iter().map(|h| self.heap_weight(*h)).sum()
    }
}

/// A quotient proved for the sums of heaps 1..=n: what the oracle trusts.
pub struct Proved {
    /// The monoid.
    pub monoid: Monoid,
    /// The element of each heap 0..=n.
    pub heap_map: Vec<u32>,
}

impl Proved {
    /// The element of a sum of heaps.
    pub(crate) fn element(&self, sum: &[u32]) -> u32 {
        sum.iter()
            .fold(0, |x, h| self.monoid.mul(x, self.heap_map[*h as usize]))
    }
}

/// Outcomes of sums, exactly, with what is already proved.
struct Oracle<'a> {
    rules: &'a Rules,
    /// The quotient of the heaps below `newest`, proved.
    below: &'a Proved,
    newest: u32,
    /// A candidate and the weight below which it is known to be right.
    trusted: Option<(Proved, u64)>,
    memo: rustc_hash::FxHashMap<Sum, bool>,
    max_states: usize,
    /// Called now and then: an error stops the search (Ctrl-C).
    check: &'a mut dyn FnMut() -> Result<()>,
}

impl Oracle<'_> {
    /// Whether `sum` is a misère P-position.
    fn is_p(&mut self, sum: &[u32]) -> Result<bool> {
        if sum.is_empty() {
            return Ok(false);
        }
        if *sum.last().expect("not empty") < self.newest {
            let x = self.below.element(sum);
            return Ok(self.below.monoid.p[x as usize]);
        }
        if let Some((candidate, mu)) = &self.trusted {
            if self.rules.weight(sum) < *mu {
                let x = candidate.element(sum);
                return Ok(candidate.monoid.p[x as usize]);
            }
        }
        if let Some(p) = self.memo.get(sum) {
            return Ok(*p);
        }
        if self.memo.len() % 65_536 == 65_535 {
            (self.check)()?;
        }
        let entry = std::mem::size_of::<(Sum, bool)>() + 4 * sum.len();
        if crate::memory::growth_over_budget(self.memo.len(), self.memo.capacity(), entry) {
            return Err(Error::TooLarge(super::OUT_OF_MEMORY.into()));
        }
        if self.memo.len() >= self.max_states {
            return Err(Error::Budget {
                limit: self.max_states,
            });
        }
        // P exactly when there is a move and no option is P: options are
        // made one at a time, and the first P option ends the look.
        let rules = self.rules;
        let mut any = false;
        let mut p = true;
        let mut next: Sum = Vec::with_capacity(sum.len() + 2);
        'all: for (i, h) in sum.iter().enumerate() {
            if i > 0 && sum[i - 1] == *h {
                continue;
            }
            for o in &rules.options[*h as usize] {
                any = true;
                next.clear();
                next.extend_from_slice(&sum[..i]);
                next.extend_from_slice(&sum[i + 1..]);
                next.extend_from_slice(o);
                next.sort_unstable();
                if self.is_p(&next)? {
                    p = false;
                    break 'all;
                }
            }
        }
        let p = any && p;
        self.memo.insert(sum.to_vec(), p);
        Ok(p)
    }
}

/// Merges two sorted sums.
fn plus(a: &[u32], b: &[u32]) -> Sum {
    let mut s: Sum = a.iter().chain(b).copied().collect();
    s.sort_unstable();
    s
}

/// The L* observation table.
struct Table {
    /// Representative sums: the candidate's elements (closed under adding a
    /// heap up to equal rows), the empty sum first.
    reps: Vec<Sum>,
    contexts: Vec<Sum>,
    /// The row of each sum asked about.
    rows: HashMap<Sum, Vec<bool>>,
}

impl Table {
    fn row(&mut self, oracle: &mut Oracle, sum: &[u32]) -> Result<Vec<bool>> {
        if let Some(r) = self.rows.get(sum) {
            if r.len() == self.contexts.len() {
                return Ok(r.clone());
            }
        }
        let mut row = self.rows.get(sum).cloned().unwrap_or_default();
        for c in &self.contexts[row.len()..] {
            row.push(oracle.is_p(&plus(sum, c))?);
        }
        self.rows.insert(sum.to_vec(), row.clone());
        Ok(row)
    }
}

/// Extends a quotient proved for heaps below `n` to heaps up to `n`. The
/// contexts of the previous step are a good start, and are updated
/// (representatives are rebuilt each round; their rows are remembered).
/// `trusted` is a candidate known to answer every sum lighter than its
/// weight correctly, if any. `check` is called now and then (progress,
/// interruption).
///
/// Representatives are built a heap at a time (each is an earlier one plus
/// a heap, its *access word*), and `step[x][h]` is the element whose row
/// representative x plus heap h has. A candidate's product x·y reads y's
/// access word from x, a heap's element is `step[0][h]` (element 0 is the identity). When a candidate
/// fails (the monoid laws, or the proof), a *chain* of sums leads from a
/// sum it answers wrongly to the candidate's answer, each link replacing
/// part of a sum by another with the same row; where the outcome flips, the
/// rest of the sum is a new context that splits those two rows, so every
/// round makes progress.
#[allow(clippy::too_many_arguments)]
pub fn learn(
    rules: &Rules,
    below: &Proved,
    n: u32,
    trusted: Option<(Proved, u64)>,
    contexts: &mut Vec<Sum>,
    max_order: usize,
    max_states: usize,
    check: &mut dyn FnMut() -> Result<()>,
) -> Result<Proved> {
    let mut oracle = Oracle {
        rules,
        below,
        newest: n,
        trusted,
        memo: Default::default(),
        max_states,
        check,
    };
    let letters: Vec<u32> = (1..=n)
        .filter(|h| !rules.options[*h as usize].is_empty())
        .collect();
    let mut table = Table {
        reps: Vec::new(),
        contexts: std::mem::take(contexts),
        rows: HashMap::new(),
    };
    if table.contexts.is_empty() {
        table.contexts.push(Vec::new());
    }
    loop {
        (oracle.check)()?;
        // Representatives: the empty sum, then closure under adding heaps,
        // lightest first; access[x] = (parent, heap).
        let mut seen: HashMap<Vec<bool>, u32> = HashMap::new();
        let mut access: Vec<(u32, u32)> = vec![(0, 0)];
        table.reps = vec![Vec::new()];
        let row = table.row(&mut oracle, &[])?;
        seen.insert(row, 0);
        let mut step: Vec<Vec<u32>> = Vec::new();
        let mut x = 0;
        while x < table.reps.len() {
            let mut out = vec![0u32; n as usize + 1];
            for h in &letters {
                let sum = plus(&table.reps[x], &[*h]);
                let row = table.row(&mut oracle, &sum)?;
                out[*h as usize] = match seen.get(&row) {
                    Some(y) => *y,
                    None => {
                        let y = table.reps.len() as u32;
                        if table.reps.len() >= max_order {
                            return Err(Error::TooLarge(format!(
                                "the quotient of heaps up to {n} has more than {max_order} elements (--max-order)"
                            )));
                        }
                        seen.insert(row, y);
                        table.reps.push(sum);
                        access.push((x as u32, *h));
                        y
                    }
                };
            }
            step.push(out);
            x += 1;
        }
        let order = table.reps.len();
        let word = |y: u32| -> Sum {
            let mut w = Vec::new();
            let mut at = y;
            while at != 0 {
                w.push(access[at as usize].1);
                at = access[at as usize].0;
            }
            w.reverse();
            w
        };
        let words: Vec<Sum> = (0..order as u32).map(word).collect();
        let read =
            |x: u32, w: &[u32]| -> u32 { w.iter().fold(x, |s, h| step[s as usize][*h as usize]) };
        let mut flat = vec![0u32; order * order];
        for x in 0..order {
            for y in 0..order {
                flat[x * order + y] = read(x as u32, &words[y]);
            }
        }
        let p: Vec<bool> = (0..order).map(|x| table.rows[&table.reps[x]][0]).collect();
        let mut heap_map = vec![0u32; n as usize + 1];
        for h in &letters {
            heap_map[*h as usize] = step[0][*h as usize];
        }
        let candidate = Proved {
            monoid: Monoid { table: flat, p },
            heap_map,
        };
        // Chains: (sums, the context of each link).
        let mut sums: Vec<Sum> = Vec::new();
        let mut links: Vec<Sum> = Vec::new();
        // From rep(x) + w + rest, read w a heap at a time.
        let consume =
            |sums: &mut Vec<Sum>, links: &mut Vec<Sum>, x: u32, w: &[u32], rest: &Sum| -> u32 {
                let mut s = x;
                for (i, h) in w.iter().enumerate() {
                    let tail = plus(&w[i + 1..], rest);
                    s = step[s as usize][*h as usize];
                    sums.push(plus(&table.reps[s as usize], &tail));
                    links.push(tail);
                }
                s
            };
        // Element 0 is an identity by construction (reading no heaps, and
        // reading x's word from 0); commutativity and associativity are not.
        let law = match candidate.monoid.broken_law() {
            None => None,
            Some(Law::Commutative(x, y)) => Some((x, y, 0)),
            Some(Law::Associative(x, y, z)) => Some((x, y, z)),
            Some(Law::Identity(_)) => {
                return Err(Error::invalid(
                    "misère quotient: a candidate without an identity (an internal error)",
                ))
            }
        };
        let (endpoints_differ, chain) = if let Some((x, y, z)) = law {
            // (xy)z and x(yz) (or xy and yx, z = 1) differ in some context
            // c; chains from rep(x) + rep(y) + rep(z) + c to each.
            let m = &candidate.monoid;
            let (u, v) = if z == 0 {
                (m.mul(x, y), m.mul(y, x))
            } else {
                (m.mul(m.mul(x, y), z), m.mul(x, m.mul(y, z)))
            };
            let (ru, rv) = (
                table.rows[&table.reps[u as usize]].clone(),
                table.rows[&table.reps[v as usize]].clone(),
            );
            let ci = (0..ru.len())
                .find(|i| ru[*i] != rv[*i])
                .expect("distinct rows");
            let c = table.contexts[ci].clone();
            let start = plus(
                &plus(
                    &plus(&words[x as usize], &words[y as usize]),
                    &words[z as usize],
                ),
                &c,
            );
            // Chain to u: read x, y, z in turn.
            sums.push(start.clone());
            let all: Sum = [
                words[x as usize].clone(),
                words[y as usize].clone(),
                words[z as usize].clone(),
            ]
            .concat();
            consume(&mut sums, &mut links, 0, &all, &c);
            let truth = oracle.is_p(&start)?;
            if truth != ru[ci] {
                (true, (sums, links))
            } else {
                // Chain to v: y then z (to yz, in the context x + c), then
                // x, then yz's word.
                let (mut sums, mut links) = (vec![start], Vec::new());
                let xc = plus(&words[x as usize], &c);
                let yz_all: Sum = [words[y as usize].clone(), words[z as usize].clone()].concat();
                let yz = consume(&mut sums, &mut links, 0, &yz_all, &xc);
                // rep(yz) + x + c: now read x from yz... by commutativity
                // of sums, rep(yz) + word(x) + c; read x's word.
                // The table is commutative here, so (yz)x is x(yz) = v.
                let v = consume(&mut sums, &mut links, yz, &words[x as usize], &c);
                (
                    truth != table.rows[&table.reps[v as usize]][ci],
                    (sums, links),
                )
            }
        } else {
            let verdict = verify(rules, &candidate, n)?;
            let Some(failure) = verdict else {
                *contexts = table.contexts.clone();
                return Ok(candidate);
            };
            let mu = rules.weight(&failure);
            if oracle.trusted.as_ref().is_none_or(|(_, best)| mu > *best) {
                oracle.trusted = Some((
                    Proved {
                        monoid: candidate.monoid.clone(),
                        heap_map: candidate.heap_map.clone(),
                    },
                    mu,
                ));
            }
            // From the failing sum to the candidate's element of it: each
            // heap h is replaced by its element's word, which is read.
            let mut s = 0u32;
            sums.push(plus(&failure, &[]));
            for (i, h) in failure.iter().enumerate() {
                let rest: Sum = plus(&failure[i + 1..], &[]);
                let e = candidate.heap_map[*h as usize];
                // rep(s) + h + rest -> rep(s) + word(e) + rest.
                sums.push(plus(
                    &plus(&table.reps[s as usize], &words[e as usize]),
                    &rest,
                ));
                links.push(plus(&table.reps[s as usize], &rest));
                s = consume(&mut sums, &mut links, s, &words[e as usize], &rest);
            }
            (true, (sums, links))
        };
        let (sums, links) = chain;
        // The outcome flips somewhere along the chain: binary search.
        let (mut lo, mut hi) = (0, sums.len() - 1);
        let a0 = oracle.is_p(&sums[lo])?;
        let ak = oracle.is_p(&sums[hi])?;
        if !endpoints_differ || a0 == ak {
            return Err(Error::invalid(
                "misère quotient: a failing candidate's chain does not flip (an internal error)",
            ));
        }
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if oracle.is_p(&sums[mid])? == a0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let context = links[lo].clone();
        if table.contexts.contains(&context) {
            return Err(Error::invalid(
                "misère quotient: learning made no progress (an internal error)",
            ));
        }
        table.contexts.push(context);
    }
}

/// The proof of the module's documentation: None when `candidate` answers
/// every sum of heaps 1..=n correctly, else a lightest sum it answers
/// wrongly (its heaps in the order they were added).
pub fn verify(rules: &Rules, candidate: &Proved, n: u32) -> Result<Option<Sum>> {
    let m = &candidate.monoid;
    let order = m.order();
    let words = order.div_ceil(64);
    // The tables below grow with the candidate's order squared: a large
    // candidate is refused before it fills the memory budget.
    let fits = |bytes: usize| crate::memory::fits(bytes as u64);
    if !fits(order * words * 8) {
        return Err(Error::TooLarge(super::OUT_OF_MEMORY.into()));
    }
    // inv[y] = {z : y·z ∈ P}, as bits.
    let mut inv = vec![0u64; order * words];
    for y in 0..order {
        for z in 0..order {
            if m.p[m.mul(y as u32, z as u32) as usize] {
                inv[y * words + z / 64] |= 1 << (z % 64);
            }
        }
    }
    // Heaps that act alike are one letter: (element, option elements).
    let mut letters: Vec<(u32, u32, Vec<u32>)> = Vec::new(); // (heap, element, options)
    for h in 1..=n {
        let options = &rules.options[h as usize];
        if options.is_empty() {
            continue;
        }
        let mut images: Vec<u32> = options.iter().map(|o| candidate.element(o)).collect();
        images.sort_unstable();
        images.dedup();
        let x = candidate.heap_map[h as usize];
        if !letters.iter().any(|(_, e, o)| *e == x && *o == images) {
            letters.push((h, x, images));
        }
    }
    // A state is (x, U, "has a move"), kept as U's words then one word
    // holding x and the flag; states are numbered in order of discovery,
    // their keys stored end to end.
    let key_len = words + 1;
    let mut keys: Vec<u64> = vec![0; key_len];
    let mut ids: rustc_hash::FxHashMap<Box<[u64]>, usize> = Default::default();
    ids.insert(keys.clone().into_boxed_slice(), 0);
    let mut parent: Vec<(usize, u32)> = vec![(usize::MAX, 0)];
    let mut queue: BinaryHeap<std::cmp::Reverse<(u64, usize)>> = BinaryHeap::new();
    queue.push(std::cmp::Reverse((0, 0)));
    let mut done = vec![false];
    let mut dist = vec![0u64];
    // The options' part of U for each letter and element x, made when first
    // needed: ⋃_o inv[x·o].
    let mut option_part: Vec<Option<Box<[u64]>>> = vec![None; letters.len() * order];
    let mut parts_made = 0usize;
    // Each state holds its set U as `words` words, twice (the list and the
    // index): at most about 2 GB of them, and the memory budget watched.
    let max_states = (20_000_000usize).min((1usize << 28) / (2 * words + 4));
    let mut next = vec![0u64; key_len];
    let mut shared = vec![0u64; words];
    let mut u_bytes = vec![0u8; order];
    letters.sort_by_key(|(h, e, _)| (*e, *h));
    while let Some(std::cmp::Reverse((mu, id))) = queue.pop() {
        if done[id] {
            continue;
        }
        done[id] = true;
        let tail = keys[id * key_len + words];
        let (x, moves) = ((tail >> 1) as u32, tail & 1 == 1);
        let has_p_option = keys[id * key_len] & 1 == 1;
        if m.p[x as usize] != (moves && !has_p_option) {
            let mut sum = Vec::new();
            let mut at = id;
            while parent[at].0 != usize::MAX {
                sum.push(parent[at].1);
                at = parent[at].0;
            }
            sum.reverse();
            return Ok(Some(sum));
        }
        let mut last_e = u32::MAX;
        // U one byte an element, for the gathers below.
        for (z, b) in u_bytes.iter_mut().enumerate() {
            *b = (keys[id * key_len + z / 64] >> (z % 64)) as u8 & 1;
        }
        for (l, (h, e, images)) in letters.iter().enumerate() {
            // {z : e·z ∈ U} ∪ ⋃_o inv[x·o]; letters of one element are
            // together, and the first part is theirs in common.
            if *e != last_e {
                last_e = *e;
                let row = &m.table[*e as usize * order..(*e as usize + 1) * order];
                for (w, chunk) in row.chunks(64).enumerate() {
                    let mut bits = 0u64;
                    for (j, ez) in chunk.iter().enumerate() {
                        bits |= (u_bytes[*ez as usize] as u64) << j;
                    }
                    shared[w] = bits;
                }
            }
            next[..words].copy_from_slice(&shared);
            let slot = &mut option_part[l * order + x as usize];
            if slot.is_none() {
                parts_made += 1;
                if parts_made.is_multiple_of(64) && !fits(64 * words * 8) {
                    return Err(Error::TooLarge(super::OUT_OF_MEMORY.into()));
                }
            }
            let part = slot.get_or_insert_with(|| {
                let mut bits = vec![0u64; words];
                for o in images {
                    let y = m.mul(x, *o) as usize;
                    for w in 0..words {
                        bits[w] |= inv[y * words + w];
                    }
                }
                bits.into_boxed_slice()
            });
            for w in 0..words {
                next[w] |= part[w];
            }
            next[words] = (m.mul(x, *e) as u64) << 1 | 1;
            let next_mu = mu + rules.heap_weight(*h);
            let next_id = match ids.get(next.as_slice()) {
                Some(i) => *i,
                None => {
                    if dist.len() >= max_states {
                        return Err(Error::TooLarge(format!(
                            "proving the misère quotient of heaps up to {n} needs more than {max_states} states"
                        )));
                    }
                    // The index of states doubles when full, and the keys'
                    // list with it: both are looked at before they grow.
                    let grows = (ids.len() >= ids.capacity())
                        .then(|| ids.capacity() * (2 * key_len * 8 + 24))
                        .into_iter()
                        .chain(
                            (keys.len() + key_len > keys.capacity()).then(|| keys.capacity() * 8),
                        )
                        .sum::<usize>();
                    if (grows > 0 || dist.len().is_multiple_of(4096)) && !fits(grows) {
                        return Err(Error::TooLarge(super::OUT_OF_MEMORY.into()));
                    }
                    let i = dist.len();
                    ids.insert(next.clone().into_boxed_slice(), i);
                    keys.extend_from_slice(&next);
                    parent.push((id, *h));
                    done.push(false);
                    dist.push(next_mu);
                    queue.push(std::cmp::Reverse((next_mu, i)));
                    continue;
                }
            };
            if !done[next_id] && next_mu < dist[next_id] {
                // A lighter way to reach it: Dijkstra's update.
                dist[next_id] = next_mu;
                parent[next_id] = (id, *h);
                queue.push(std::cmp::Reverse((next_mu, next_id)));
            }
        }
    }
    Ok(None)
}
