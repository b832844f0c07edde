//! The fast engine for take-and-break codes (octal and hexadecimal games): the
//! rare-value method, with the plain quadratic engine as its reference and fallback.
//!
//! A code is a list of digits `d0.d1d2...`: digit `d_k` says what may be left
//! after removing `k` tokens from a heap (bit 1: nothing, only when the heap
//! was exactly `k`; bit 2: one non-empty heap; bit 4: two; bit 8, hexadecimal
//! codes only: three). The plain engine computes G(n) as the mex over every
//! option, which costs O(n) per heap for codes that split, O(n²) in all.
//!
//! # The rare-value method
//!
//! Berlekamp, Conway and Guy (*Winning Ways*, ch. 4, "Sparse space spells
//! speed") observed that for many octal games there is a bit mask `m` such that
//! almost every value has an odd number of bits under `m` ("common" values) and
//! only a few heaps have an even number ("rare"). Since the parity of
//! `(a ^ b) & m` is the XOR of the parities, two common values always XOR to a
//! rare one: a *common* value can only arise from a split with at least one rare
//! heap. So the common values among the options of `n` are found exactly by
//! pairing every rare heap `r` with `n - k - r`, in O(#rare) instead of O(n);
//! a rare candidate below the mex is confirmed by scanning splits until one
//! produces it, which for values that do occur takes a few steps, and a full
//! scan is needed only when `G(n)` itself turns out rare, which is rare.
//! Flammenkamp's tables extend this to "domain" sparse spaces, where the parity
//! also depends on the heap's parity: heap `x` is common when
//! `parity(G(x) & m) ^ (x - t) & 1` is odd, `t` a split size
//! (<https://wwwhomes.uni-bielefeld.de/achim/octal_sparse.html>). Gangolli and
//! Plambeck used the same split; Beling's `ogsolve` (RC, RC2) is a modern
//! implementation. This one is written from those descriptions.
//!
//! The mask is chosen automatically from the values found so far: the number of
//! common heaps for every mask at once is a Walsh-Hadamard transform of the
//! value histogram. The choice is revisited as the table doubles, and when no
//! mask makes values sparse the engine stays plain. Every value is the exact mex
//! whatever the mask: the mask only decides which options are enumerated and
//! which are searched, so a bad mask costs time, never correctness.

use super::simd;
use std::ops::ControlFlow;

/// Errors in a take-and-break code, before any text parsing is involved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeError(pub String);

/// The rules of a take-and-break game, as code digits `d0, d1, d2, ...`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TakeBreak {
    digits: Vec<u8>,
    /// Removal sizes `k` whose digit allows splitting into two heaps.
    splits: Vec<usize>,
    /// Removal sizes whose digit allows leaving three heaps.
    triples: Vec<usize>,
    /// Heaps left by a split must all differ in size (Grundy's game is `4.`
    /// with this: a heap splits into two unequal heaps).
    unequal: bool,
}

impl TakeBreak {
    /// A game from its digits; `digits[0]` is the digit before the point.
    pub fn new(digits: &[u8]) -> Result<Self, CodeError> {
        if digits.iter().any(|d| *d > 15) {
            return Err(CodeError("a digit is larger than 15".into()));
        }
        if digits.first().is_some_and(|d| d & 3 != 0) {
            return Err(CodeError(
                "the digit before the point may only allow splitting (4, 8 or 12)".into(),
            ));
        }
        let mut digits = digits.to_vec();
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        let splits = (0..digits.len()).filter(|k| digits[*k] & 4 != 0).collect();
        let triples = (0..digits.len()).filter(|k| digits[*k] & 8 != 0).collect();
        Ok(TakeBreak {
            digits,
            splits,
            triples,
            unequal: false,
        })
    }

    /// The same rules, except that the heaps a split leaves must all differ
    /// in size: `(a, a)` and `(a, a, b)` are not moves. Grundy's game is
    /// `TakeBreak::new(&[4])?.unequal_parts()`.
    pub fn unequal_parts(mut self) -> Self {
        self.unequal = true;
        self
    }

    /// Whether the heaps a split leaves must differ in size.
    pub fn unequal(&self) -> bool {
        self.unequal
    }

    /// The digits, trailing zeros removed.
    pub fn digits(&self) -> &[u8] {
        &self.digits
    }

    /// The largest smaller part `a` of a split of `m` into two, `(a, m - a)`:
    /// `m / 2`, or below half when the parts must differ.
    #[inline(always)]
    pub fn half(&self, m: usize) -> usize {
        if self.unequal {
            m.saturating_sub(1) / 2
        } else {
            m / 2
        }
    }

    /// The part `m / 2` of the equal split of `m`, when it is not a move
    /// (parts must differ and `m` is even): the one rare heap whose pairing
    /// with `m - r` must be left out.
    #[inline(always)]
    fn equal_part(&self, m: usize) -> Option<usize> {
        (self.unequal && m.is_multiple_of(2)).then_some(m / 2)
    }

    /// The splits of `m` into three, `(a, b, m - a - b)` with
    /// `a <= b <= m - a - b` (strictly increasing when parts must differ),
    /// each given to `f` as `(a, b)`.
    #[inline(always)]
    fn for_each_triple(&self, m: usize, mut f: impl FnMut(usize, usize)) {
        let strict = self.unequal as usize;
        for a in 1..=m / 3 {
            let first = a + strict;
            // b <= m - a - b, or b < m - a - b when strict.
            let last = (m - a - strict) / 2;
            for b in first..=last {
                f(a, b);
            }
        }
    }

    /// The value of heap `n` by the definition, from `table[0..n]`: the reference.
    pub fn plain_value<T: Copy + Into<u32>>(&self, n: usize, table: &[T], mex: &mut Marks) -> u32 {
        let g = |i: usize| -> u32 { table[i].into() };
        for (k, &d) in self.digits.iter().enumerate().take(n + 1) {
            if d & 1 != 0 && n == k {
                mex.mark(0);
            }
            if d & 2 != 0 && n > k {
                mex.mark(g(n - k));
            }
            if d & 4 != 0 && n >= k + 2 {
                let m = n - k;
                for a in 1..=self.half(m) {
                    mex.mark(g(a) ^ g(m - a));
                }
            }
            if d & 8 != 0 && n >= k + 3 {
                let m = n - k;
                self.for_each_triple(m, |a, b| mex.mark(g(a) ^ g(b) ^ g(m - a - b)));
            }
        }
        mex.take_mex()
    }
}

/// The plain method with the engine's prepared buffers: the same loops as
/// [`TakeBreak::plain_value`], with unchecked-growth marking.
#[inline]
fn fast_plain_value<T: Copy + Into<u32>>(
    rules: &TakeBreak,
    n: usize,
    table: &[T],
    work: &mut Work,
) -> u32 {
    let g = |i: usize| -> u32 { table[i].into() };
    let marks = &mut work.marks;
    marks.prepare(work.bound);
    for (k, &d) in rules.digits.iter().enumerate().take(n + 1) {
        if d & 1 != 0 && n == k {
            marks.set(0);
        }
        if d & 2 != 0 && n > k {
            marks.set(g(n - k));
        }
        if d & 4 != 0 && n >= k + 2 {
            let m = n - k;
            mark_splits(marks, &mut work.lanes, table, m, 1, rules.half(m) + 1);
        }
        if d & 8 != 0 && n >= k + 3 {
            let m = n - k;
            rules.for_each_triple(m, |a, b| marks.set(g(a) ^ g(b) ^ g(m - a - b)));
        }
    }
    marks.take_mex()
}

/// Marks `G(a) ^ G(m - a)` for `a` in `from..to`: the hot loop of the plain method.
///
/// Four bitsets take turns so that consecutive options do not wait on each
/// other's read-modify-write of the same word; they are merged at the end.
#[inline]
fn mark_splits<T: Copy + Into<u32>>(
    marks: &mut Marks,
    lanes: &mut [Vec<u64>; 4],
    table: &[T],
    m: usize,
    from: usize,
    to: usize,
) {
    if from >= to {
        return;
    }
    let words = marks.dirty;
    for lane in lanes.iter_mut() {
        lane.clear();
        lane.resize(words, 0);
    }
    let [l0, l1, l2, l3] = lanes;
    let set = |lane: &mut Vec<u64>, x: u32| lane[(x >> 6) as usize] |= 1 << (x & 63);
    // lo[i] = G(from + i) pairs with hi[len - 1 - i] = G(m - from - i).
    let lo = &table[from..to];
    let hi = &table[m + 1 - to..m + 1 - from];
    for (l, h) in lo.chunks_exact(4).zip(hi.rchunks_exact(4)) {
        set(l0, l[0].into() ^ h[3].into());
        set(l1, l[1].into() ^ h[2].into());
        set(l2, l[2].into() ^ h[1].into());
        set(l3, l[3].into() ^ h[0].into());
    }
    let done = lo.len() / 4 * 4;
    for a in from + done..to {
        marks.set(table[a].into() ^ table[m - a].into());
    }
    for w in 0..words {
        marks.words[w] |= l0[w] | l1[w] | l2[w] | l3[w];
    }
}

/// A bitset of values marked as options, with cheap reset and mex.
#[derive(Debug, Default, Clone)]
pub struct Marks {
    words: Vec<u64>,
    dirty: usize,
}

impl Marks {
    /// Marks value `v`.
    #[inline(always)]
    pub fn mark(&mut self, v: u32) {
        let w = (v >> 6) as usize;
        if w >= self.words.len() {
            self.words.resize(w + 1, 0);
        }
        self.words[w] |= 1 << (v & 63);
        if w >= self.dirty {
            self.dirty = w + 1;
        }
    }

    /// Makes room for every value below `bound` (a power of two, so that XORs of
    /// values below it stay below it) and clears all marks; [`Marks::set`] may
    /// then be used for those values.
    #[inline]
    pub fn prepare(&mut self, bound: u32) {
        let words = (bound as usize).div_ceil(64).max(1);
        if self.words.len() < words {
            self.words.resize(words, 0);
        }
        self.clear();
        self.dirty = words;
    }

    /// Marks `v`, which must be below the bound given to [`Marks::prepare`].
    #[inline(always)]
    pub fn set(&mut self, v: u32) {
        self.words[(v >> 6) as usize] |= 1 << (v & 63);
    }

    /// Clears every mark.
    #[inline]
    pub fn clear(&mut self) {
        self.words[..self.dirty].fill(0);
        self.dirty = 0;
    }

    /// The smallest unmarked value; clears the marks.
    #[inline]
    pub fn take_mex(&mut self) -> u32 {
        let mut result = (self.dirty as u32) * 64;
        for (i, w) in self.words[..self.dirty].iter().enumerate() {
            if *w != u64::MAX {
                result = i as u32 * 64 + w.trailing_ones();
                break;
            }
        }
        self.clear();
        result
    }
}

/// Values of heaps `0..len`, two bytes each until a value needs more.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Values {
    /// Every value fits in 16 bits.
    Narrow(Vec<u16>),
    /// Some value does not.
    Wide(Vec<u32>),
}

impl Default for Values {
    fn default() -> Self {
        Values::Narrow(Vec::new())
    }
}

impl Values {
    /// Number of heaps stored.
    pub fn len(&self) -> usize {
        match self {
            Values::Narrow(v) => v.len(),
            Values::Wide(v) => v.len(),
        }
    }

    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value of heap `n`.
    #[inline]
    pub fn get(&self, n: usize) -> u32 {
        match self {
            Values::Narrow(v) => v[n] as u32,
            Values::Wide(v) => v[n],
        }
    }

    /// Forgets the values of heaps `len..`.
    pub fn truncate(&mut self, len: usize) {
        match self {
            Values::Narrow(v) => v.truncate(len),
            Values::Wide(v) => v.truncate(len),
        }
    }

    /// Appends the value of the next heap, widening the storage if needed.
    pub fn push(&mut self, value: u32) {
        match self {
            Values::Narrow(v) if value <= u16::MAX as u32 => v.push(value as u16),
            Values::Narrow(v) => {
                let mut wide: Vec<u32> = Vec::with_capacity(v.capacity().max(v.len() + 1));
                wide.extend(v.iter().map(|x| *x as u32));
                wide.push(value);
                *self = Values::Wide(wide);
            }
            Values::Wide(v) => v.push(value),
        }
    }

    /// Reserves room for `additional` more heaps.
    pub fn reserve(&mut self, additional: usize) {
        match self {
            Values::Narrow(v) => v.reserve(additional),
            Values::Wide(v) => v.reserve(additional),
        }
    }

    /// All values, widened (for callers that want a plain slice).
    pub fn to_u32(&self) -> Vec<u32> {
        match self {
            Values::Narrow(v) => v.iter().map(|x| *x as u32).collect(),
            Values::Wide(v) => v.clone(),
        }
    }
}

/// The rare/common split in force: which heaps are rare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split {
    /// Value bits whose parity decides (0 with a sum-free set instead).
    pub mask: u32,
    /// Common values form a sum-free set chosen from the histogram instead
    /// of a parity class: no two of them XOR to a third. This many values.
    pub free: u32,
    /// Whether the heap's own parity takes part ("domain" sparse space).
    pub domain: bool,
    /// Constant added to the class so that typical values are cheap.
    pub shift: u32,
}

impl Split {
    /// 1 for common heaps, 0 for rare ones.
    #[inline(always)]
    fn class(&self, heap: usize, value: u32) -> u32 {
        ((value & self.mask).count_ones() ^ (self.domain as u32 & heap as u32) ^ self.shift) & 1
    }
}

/// Buffers and counters the rare-value method reuses from heap to heap.
#[derive(Debug, Default, Clone)]
struct Work {
    scratch: Scratch,
    marks: Marks,
    stats: Stats,
    /// A power of two above every value so far: option values stay below it.
    bound: u32,
    /// Scratch bitsets for [`mark_splits`].
    lanes: [Vec<u64>; 4],
}

/// Per-heap buffers of the rare-value method, one set per thread.
#[derive(Debug, Clone)]
struct Scratch {
    /// One byte per value below [`MAX_RARE_BOUND`]: marks without bit twiddling.
    seen: Vec<u8>,
    /// Values still wanted during a search.
    wanted: Vec<u16>,
    /// Per value, the last heap (`generation`) an option had it: marks that
    /// never need clearing, for [`simd::mark_pairs`].
    stamps: Vec<u32>,
    generation: u32,
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            seen: vec![0; MAX_RARE_BOUND as usize],
            wanted: vec![0; MAX_RARE_BOUND as usize],
            stamps: vec![0; MAX_RARE_BOUND as usize],
            generation: 0,
        }
    }
}

impl Scratch {
    /// A fresh stamp: no value has it yet.
    fn next_stamp(&mut self) -> u32 {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamps.fill(0);
            self.generation = 1;
        }
        self.generation
    }
}

/// Statistics of a run, for reports and tuning.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Stats {
    /// Heaps computed by the plain method.
    pub plain_heaps: u64,
    /// Heaps computed by the rare-value method.
    pub rare_heaps_computed: u64,
    /// Times the split was chosen again.
    pub rebuilds: u64,
    /// Number of rare heaps under the split in force.
    pub rare: u64,
    /// Options enumerated through rare heaps.
    pub pair_steps: u64,
    /// Options enumerated while searching for missing values.
    pub scan_steps: u64,
    /// Heaps whose search ran through every option (a missing value: rare).
    pub exhausted: u64,
}

/// Grundy values of a take-and-break game, extended on demand.
#[derive(Debug, Clone)]
pub struct Engine {
    rules: TakeBreak,
    values: Values,
    split: Option<Split>,
    /// Rare heaps under `split`, ascending, excluding heap 0.
    rare: Vec<u32>,
    /// Their values, in the same order.
    rare_values: Vec<u32>,
    /// The common values under the split, below [`MAX_RARE_BOUND`], as bits.
    odd: Vec<u64>,
    work: Work,
    next_review: usize,
    /// Forces the plain method (for tests and `--verify`).
    plain_only: bool,
    /// Heaps from which blocks are computed on two threads (`usize::MAX`: never).
    parallel_from: usize,
    /// Which vector paths are used (when the processor has AVX-512).
    vector: Vector,
    /// Whether heaps whose values are all below 64 take [`small_run`]
    /// (with AVX-512 when the vector paths are on).
    small: bool,
}

/// Which parts of the rare-value method use [`simd`]'s vector code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Vector {
    /// Options through rare heaps: [`simd::mark_pairs`] with stamps.
    marks: bool,
    /// Wanted values: [`simd::search`].
    search: bool,
}

/// How often (in heaps) progress is reported and interruption checked.
pub const PROGRESS_STEP: usize = 1 << 16;

/// Values must stay below this for the rare-value method (its marks are
/// arrays of this many bits and bytes).
const MAX_RARE_BOUND: u32 = 4096;

/// Heaps from which the two-thread path is used, when there are two cores.
const PARALLEL_FROM: usize = 1 << 16;

/// Heaps per block of the two-thread path.
const BLOCK: usize = 512;

/// Heaps computed plainly before a split is first considered.
const FIRST_REVIEW: usize = 1 << 10;

impl Engine {
    /// An engine for `rules`, with no values yet.
    pub fn new(rules: TakeBreak) -> Self {
        Engine {
            rules,
            values: Values::default(),
            split: None,
            rare: Vec::new(),
            rare_values: Vec::new(),
            odd: vec![0; MAX_RARE_BOUND as usize / 64],
            work: Work {
                bound: 1,
                ..Work::default()
            },
            next_review: FIRST_REVIEW,
            plain_only: false,
            parallel_from: if std::thread::available_parallelism().map_or(1, |n| n.get()) >= 2 {
                PARALLEL_FROM
            } else {
                usize::MAX
            },
            vector: Vector {
                marks: simd::available(),
                search: simd::available(),
            },
            small: true,
        }
    }

    /// An engine that never uses the rare-value method: the reference.
    pub fn plain(rules: TakeBreak) -> Self {
        let mut engine = Self::new(rules);
        engine.plain_only = true;
        engine
    }

    /// Resumes from values computed earlier (a checkpoint).
    pub fn resume(rules: TakeBreak, values: Values) -> Self {
        let mut engine = Self::new(rules);
        let len = values.len();
        let max = (0..len).map(|i| values.get(i)).max().unwrap_or(0);
        engine.work.bound = (max + 1).next_power_of_two();
        engine.values = values;
        engine.next_review = len.max(FIRST_REVIEW);
        engine.review();
        engine
    }

    /// The game's rules.
    pub fn rules(&self) -> &TakeBreak {
        &self.rules
    }

    /// The values computed so far.
    pub fn values(&self) -> &Values {
        &self.values
    }

    /// Run statistics.
    pub fn stats(&self) -> Stats {
        let mut stats = self.work.stats;
        stats.rare = self.rare.len() as u64;
        stats
    }

    /// The split in force, if any.
    pub fn split(&self) -> Option<Split> {
        self.split
    }

    /// Computes values up to and including heap `n`. `progress` is called every
    /// [`PROGRESS_STEP`] heaps with the number of heaps done; returning
    /// `Break` stops early, keeping every value finished so far.
    pub fn extend_to(
        &mut self,
        n: usize,
        progress: &mut dyn FnMut(usize) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        if n < self.values.len() {
            return ControlFlow::Continue(());
        }
        self.values.reserve(n + 1 - self.values.len());
        while self.values.len() <= n {
            let heap = self.values.len();
            if heap >= self.next_review && !self.plain_only {
                self.review();
            }
            if self.small && self.work.bound <= 64 && self.split.is_some() {
                // Back here at every progress step and review.
                let step_end = (heap / PROGRESS_STEP + 1) * PROGRESS_STEP;
                let limit = (n + 1).min(self.next_review.max(heap + 1)).min(step_end);
                let done = self.small_block(limit);
                if done > 0 {
                    let now = self.values.len();
                    if now / PROGRESS_STEP > heap / PROGRESS_STEP && progress(now).is_break() {
                        return ControlFlow::Break(());
                    }
                    continue;
                }
            }
            if heap >= self.parallel_from && self.split.is_some() {
                // Back here at every progress step: reports, interruptions.
                let step_end = (heap / PROGRESS_STEP + 1) * PROGRESS_STEP;
                let limit = (n + 1).min(self.next_review.max(heap + 1)).min(step_end);
                let done = self.parallel_block(limit);
                if done > 0 {
                    let now = self.values.len();
                    if now / PROGRESS_STEP > heap / PROGRESS_STEP && progress(now).is_break() {
                        return ControlFlow::Break(());
                    }
                    continue;
                }
            }
            let value = match self.split {
                Some(split) if self.work.bound <= MAX_RARE_BOUND => {
                    self.work.stats.rare_heaps_computed += 1;
                    let context = RareSplit {
                        rules: &self.rules,
                        split,
                        odd: &self.odd,
                        rare: &self.rare,
                        rare_values: &self.rare_values,
                        vector: self.vector,
                    };
                    let work = &mut self.work;
                    let (stats, bound) = (&mut work.stats, work.bound);
                    let buffers = &mut work.scratch;
                    macro_rules! fixed {
                        ($t:expr) => {
                            match bound {
                                0..=64 => rare_value_fixed::<_, 1>(
                                    &context, heap, $t, stats, bound, buffers,
                                ),
                                65..=128 => rare_value_fixed::<_, 2>(
                                    &context, heap, $t, stats, bound, buffers,
                                ),
                                129..=256 => rare_value_fixed::<_, 4>(
                                    &context, heap, $t, stats, bound, buffers,
                                ),
                                257..=512 => rare_value_fixed::<_, 8>(
                                    &context, heap, $t, stats, bound, buffers,
                                ),
                                513..=1024 => rare_value_fixed::<_, 16>(
                                    &context, heap, $t, stats, bound, buffers,
                                ),
                                1025..=2048 => rare_value_fixed::<_, 32>(
                                    &context, heap, $t, stats, bound, buffers,
                                ),
                                _ => rare_value_fixed::<_, 64>(
                                    &context, heap, $t, stats, bound, buffers,
                                ),
                            }
                        };
                    }
                    match &self.values {
                        Values::Narrow(t) => fixed!(t),
                        Values::Wide(t) => fixed!(t),
                    }
                }
                // No split, or values too large for the register bitsets.
                _ => {
                    self.work.stats.plain_heaps += 1;
                    match &self.values {
                        Values::Narrow(t) => fast_plain_value(&self.rules, heap, t, &mut self.work),
                        Values::Wide(t) => fast_plain_value(&self.rules, heap, t, &mut self.work),
                    }
                }
            };
            self.push_value(heap, value);
            if (heap + 1).is_multiple_of(PROGRESS_STEP) && progress(heap + 1).is_break() {
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    }

    /// Chooses the split for the values so far, and when to look again.
    fn review(&mut self) {
        let len = self.values.len();
        self.next_review = (len * 2).max(FIRST_REVIEW);
        // Games that never split, or split in three, gain nothing here.
        if self.rules.splits.is_empty() || !self.rules.triples.is_empty() {
            self.split = None;
            return;
        }
        let values = &self.values;
        let (best, common) = match choose_split(&self.rules, len, |i| values.get(i)) {
            Some(split) => (Some(split), parity_words(split.mask)),
            None => match choose_sum_free(len, |i| values.get(i)) {
                Some((split, common)) => (Some(split), common),
                None => (None, parity_words(0)),
            },
        };
        if best != self.split || common != self.odd {
            self.work.stats.rebuilds += 1;
            self.split = best;
            self.odd = common;
            self.rare.clear();
            if best.is_some() {
                let rare: Vec<u32> = (1..len)
                    .filter(|&i| self.is_rare(i, self.values.get(i)))
                    .map(|i| i as u32)
                    .collect();
                self.rare = rare;
            }
            self.rare_values = self
                .rare
                .iter()
                .map(|&r| self.values.get(r as usize))
                .collect();
        }
    }

    /// Timing aid: no vector code even when the processor has AVX-512 (what
    /// other processors run).
    pub fn scalar_search(&mut self) {
        self.vector = Vector {
            marks: false,
            search: false,
        };
    }

    /// Testing aid: vector marks (where available) with the scalar search.
    pub fn scalar_search_only(&mut self) {
        self.vector.search = false;
        self.small = false;
    }

    /// Timing aid: scalar marks through rare heaps, vector search.
    pub fn scalar_marks(&mut self) {
        self.vector.marks = false;
    }

    /// Testing aid: the general vector paths even for values below 64.
    pub fn no_small_run(&mut self) {
        self.small = false;
    }

    /// Testing aid: use the two-thread path from heap `from` on.
    pub fn parallel_from(&mut self, from: usize) {
        self.parallel_from = from;
    }

    /// Computes heaps from the next one up to `limit` (exclusive) on two
    /// threads, in blocks: while this thread finishes a block, the other
    /// marks, for every heap of the next block, the options through rare heaps
    /// whose partner is already known (older than the block being finished).
    /// This thread then adds the options through the few remaining rare heaps,
    /// takes the mex and searches for wanted values exactly as on one thread:
    /// nothing is guessed. Returns the number of heaps added, 0 when the
    /// two-thread path does not apply (few rare heaps, few heaps left).
    fn parallel_block(&mut self, limit: usize) -> usize {
        let start = self.values.len();
        let bound = self.work.bound;
        let worth = self.rare.len() >= 64 || self.parallel_from == 0;
        let Some(split) = self.split else { return 0 };
        let Values::Narrow(table) = &mut self.values else {
            return 0;
        };
        if !worth || bound > MAX_RARE_BOUND || start < 4 * BLOCK || limit < start + 2 * BLOCK {
            return 0;
        }
        let context = RareSplit {
            rules: &self.rules,
            split,
            odd: &self.odd,
            rare: &self.rare,
            rare_values: &self.rare_values,
            vector: self.vector,
        };
        let work = &mut self.work;
        macro_rules! run {
            ($w:literal) => {
                pipeline::<$w>(
                    &context,
                    table,
                    limit,
                    &mut work.stats,
                    bound,
                    &mut work.scratch,
                )
            };
        }
        let found = match bound {
            0..=64 => run!(1),
            65..=128 => run!(2),
            129..=256 => run!(4),
            257..=512 => run!(8),
            513..=1024 => run!(16),
            1025..=2048 => run!(32),
            _ => run!(64),
        };
        let added = table.len() - start;
        for (heap, value) in found {
            self.rare.push(heap);
            self.rare_values.push(value);
        }
        for heap in start..start + added {
            let value = self.values.get(heap);
            if value >= self.work.bound {
                self.work.bound = (value + 1).next_power_of_two();
            }
        }
        self.work.stats.rare_heaps_computed += added as u64;
        added
    }

    /// Computes heaps from the next one up to `limit` (exclusive) with
    /// [`small_run`], while every value stays below 64; returns how many.
    fn small_block(&mut self, limit: usize) -> usize {
        let start = self.values.len();
        let Some(split) = self.split else { return 0 };
        let Values::Narrow(table) = &mut self.values else {
            return 0;
        };
        let past_rules = start > self.rules.digits.len() + 2;
        // Its gathers pair every rare heap below each split size, the equal
        // split's included: codes whose parts must differ take the general path.
        if !self.small
            || self.rules.unequal
            || self.work.bound > 64
            || limit <= start
            || !past_rules
        {
            return 0;
        }
        let steps = small_run(
            &self.rules,
            split,
            &self.odd,
            table,
            (&mut self.rare, &mut self.rare_values),
            limit,
            self.work.bound,
            self.vector.marks && self.vector.search,
        );
        let stats = &mut self.work.stats;
        stats.pair_steps += steps.0;
        stats.scan_steps += steps.1;
        stats.exhausted += steps.2;
        // Above every value so far, including any that rose mid-run.
        self.work.bound = self.work.bound.max(steps.3);
        let added = self.values.len() - start;
        self.work.stats.rare_heaps_computed += added as u64;
        added
    }

    /// Appends the value of heap `heap` (the next one) and files it.
    fn push_value(&mut self, heap: usize, value: u32) {
        self.values.push(value);
        if value >= self.work.bound {
            self.work.bound = (value + 1).next_power_of_two();
        }
        if self.split.is_some() && heap > 0 && self.is_rare(heap, value) {
            self.rare.push(heap as u32);
            self.rare_values.push(value);
        }
    }

    /// Whether heap `heap` with value `value` is rare under the split in force.
    #[inline]
    fn is_rare(&self, heap: usize, value: u32) -> bool {
        self.split
            .is_some_and(|split| rare_under(&split, &self.odd, heap, value))
    }
}

/// The best split for heaps `0..len`, or `None` when values are not sparse.
///
/// For each mask, the number of heaps whose class is odd is read off a
/// Walsh-Hadamard transform of the histogram of values (split by heap parity
/// for the domain variant). A split is worth it when rare heaps are at most a
/// small fraction, since each costs one pairing per heap thereafter.
fn choose_split(rules: &TakeBreak, len: usize, value: impl Fn(usize) -> u32) -> Option<Split> {
    if len < 64 {
        return None;
    }
    let max = (1..len).map(&value).max().unwrap_or(0);
    // The rare-value path keeps its marks in registers: values below 1024.
    if max >= 1 << 10 {
        return None;
    }
    let size = (max as usize + 1).next_power_of_two().max(2);
    // Histograms of values at even and odd heaps (heap 0 excluded: never rare-paired).
    let mut even = vec![0i64; size];
    let mut odd = vec![0i64; size];
    for i in 1..len {
        if i % 2 == 0 {
            even[value(i) as usize] += 1;
        } else {
            odd[value(i) as usize] += 1;
        }
    }
    walsh_hadamard(&mut even);
    walsh_hadamard(&mut odd);
    let (n_even, n_odd) = (even[0], odd[0]);
    // The domain variant needs every split size to have one parity.
    let split_parity = rules
        .splits
        .iter()
        .map(|k| (k & 1) as u32)
        .collect::<Vec<_>>();
    let domain_shift = if split_parity.iter().all(|p| *p == split_parity[0]) {
        Some(split_parity[0])
    } else {
        None
    };
    let mut best: Option<(i64, Split)> = None;
    for mask in 1..size as u32 {
        // transform[m] = #even-parity - #odd-parity among values at those heaps.
        let (e, o) = (even[mask as usize], odd[mask as usize]);
        // Range: common = odd parity.
        let rare_range = (n_even + e) / 2 + (n_odd + o) / 2;
        let candidate = Split {
            mask,
            free: 0,
            domain: false,
            shift: 0,
        };
        if best.is_none_or(|(r, _)| rare_range < r) {
            best = Some((rare_range, candidate));
        }
        if let Some(shift) = domain_shift {
            // class = parity ^ (heap & 1) ^ shift; rare when class is 0.
            let rare_domain = if shift == 0 {
                (n_even + e) / 2 + (n_odd - o) / 2
            } else {
                (n_even - e) / 2 + (n_odd + o) / 2
            };
            if best.is_none_or(|(r, _)| rare_domain < r) {
                best = Some((
                    rare_domain,
                    Split {
                        mask,
                        free: 0,
                        domain: true,
                        shift,
                    },
                ));
            }
        }
    }
    // Worth it only when pairing the rare heaps is far cheaper than a full scan.
    best.filter(|(rare, _)| (*rare as usize) * 8 < len)
        .map(|(_, split)| split)
}

/// A sum-free set of common values for codes with no sparse parity class
/// (Treblecross, 0.007): values taken greedily by frequency, each kept only
/// when no two kept values XOR to it, so that no two common heaps ever XOR
/// to a common value and common values again come only from rare heaps.
/// `None` unless the rare heaps are a minority.
fn choose_sum_free(len: usize, value: impl Fn(usize) -> u32) -> Option<(Split, Vec<u64>)> {
    if len < 64 {
        return None;
    }
    let size = MAX_RARE_BOUND as usize;
    let mut count = vec![0u64; size];
    for i in 1..len {
        let v = value(i) as usize;
        if v >= size {
            return None;
        }
        count[v] += 1;
    }
    let mut order: Vec<u32> = (1..size as u32)
        .filter(|v| count[*v as usize] > 0)
        .collect();
    order.sort_by_key(|v| (std::cmp::Reverse(count[*v as usize]), *v));
    let mut common: Vec<u32> = Vec::new();
    // Every XOR of two common values (0 included): a value there may not join.
    let mut sums = vec![false; size];
    sums[0] = true;
    let mut common_heaps = 0u64;
    for v in order {
        if sums[v as usize] {
            continue;
        }
        common.push(v);
        for c in &common {
            sums[(c ^ v) as usize] = true;
        }
        common_heaps += count[v as usize];
    }
    let rare = (len as u64 - 1) - common_heaps;
    // Each rare heap costs one pairing per heap: worth it up to about a third
    // (0.007 has a fifth).
    if rare as usize * 3 >= len {
        return None;
    }
    let mut words = vec![0u64; size / 64];
    for c in &common {
        words[(*c >> 6) as usize] |= 1 << (c & 63);
    }
    let split = Split {
        mask: 0,
        free: common.len() as u32,
        domain: false,
        shift: 0,
    };
    Some((split, words))
}

/// In-place Walsh-Hadamard transform: `a[m] = sum_v h[v] * (-1)^parity(v & m)`.
fn walsh_hadamard(a: &mut [i64]) {
    let mut h = 1;
    while h < a.len() {
        for i in (0..a.len()).step_by(h * 2) {
            for j in i..i + h {
                let (x, y) = (a[j], a[j + h]);
                a[j] = x + y;
                a[j + h] = x - y;
            }
        }
        h *= 2;
    }
}

/// A bitset of `64 * W` values held in registers: the rare-value method's
/// marks when every value is below 1024, which is the usual case.
#[derive(Clone, Copy)]
struct Bits<const W: usize>([u64; W]);

impl<const W: usize> Bits<W> {
    #[inline(always)]
    fn set(&mut self, v: u32) {
        self.0[(v >> 6) as usize] |= 1 << (v & 63);
    }

    /// The smallest value set in `self`, or `none`.
    #[inline(always)]
    fn first(&self, none: u32) -> u32 {
        for (i, w) in self.0.iter().enumerate() {
            if *w != 0 {
                return i as u32 * 64 + w.trailing_zeros();
            }
        }
        none
    }
}

/// Words whose bit `v` is the parity of `v & mask`, for values below [`MAX_RARE_BOUND`].
fn parity_words(mask: u32) -> Vec<u64> {
    let mut words = vec![0u64; MAX_RARE_BOUND as usize / 64];
    for v in 0..MAX_RARE_BOUND {
        if (v & mask).count_ones() & 1 == 1 {
            words[(v >> 6) as usize] |= 1 << (v & 63);
        }
    }
    words
}

/// What the rare-value method needs to know besides the table.
struct RareSplit<'a> {
    rules: &'a TakeBreak,
    split: Split,
    /// The common values: [`parity_words`] of the split's mask, or the sum-free set.
    odd: &'a [u64],
    /// The rare heaps, ascending.
    rare: &'a [u32],
    /// Their values.
    rare_values: &'a [u32],
    /// Which vector paths to use.
    vector: Vector,
}

impl RareSplit<'_> {
    /// Whether heap `heap` with value `value` is rare under the split.
    #[inline]
    fn is_rare(&self, heap: usize, value: u32) -> bool {
        rare_under(&self.split, self.odd, heap, value)
    }
}

/// Whether heap `heap` with value `value` is rare under `split`, whose common
/// values are `odd` (as bits) when it is a sum-free split.
#[inline]
fn rare_under(split: &Split, odd: &[u64], heap: usize, value: u32) -> bool {
    match split.free {
        0 => split.class(heap, value) == 0,
        _ => value >= MAX_RARE_BOUND || odd[(value >> 6) as usize] & (1 << (value & 63)) == 0,
    }
}

/// A table entry: 16 bits while values are small, 32 once they are not.
pub trait Cell: Copy + Into<u32> + Sync {
    /// The table as 16-bit values, when it is one.
    fn narrow(table: &[Self]) -> Option<&[u16]>;
}

impl Cell for u16 {
    fn narrow(table: &[u16]) -> Option<&[u16]> {
        Some(table)
    }
}

impl Cell for u32 {
    fn narrow(_: &[u32]) -> Option<&[u16]> {
        None
    }
}

/// G(n) by the rare-value method (see the module documentation), for values
/// below `64 * W`, with the marks in registers.
#[inline]
fn rare_value_fixed<T: Cell, const W: usize>(
    context: &RareSplit,
    n: usize,
    table: &[T],
    stats: &mut Stats,
    bound: u32,
    scratch: &mut Scratch,
) -> u32 {
    let mut marks = Bits::<W>([0; W]);
    take_marks(context.rules, n, table, &mut marks);
    stats.pair_steps += pair_marks(context, n, table, None, &mut marks, scratch);
    let (cheap_mex, want) = decide(context, n, &marks, bound);
    let seen: &mut [u8; MAX_RARE_BOUND as usize] =
        (&mut scratch.seen[..]).try_into().expect("buffer size");
    match confirm::<T, W>(context, n, table, stats, &want, (seen, &mut scratch.wanted)) {
        Some(missing) => missing,
        None => cheap_mex,
    }
}

/// Marks into `marks` the options of `n` through rare heaps `r`, for each
/// split size `k` with `m = n - k`: every rare heap below `m`, or with
/// `partners_below: Some(p)` only those whose partner `m - r` is below `p`.
/// Returns how many were enumerated.
#[inline(always)]
fn pair_marks<T: Cell, const W: usize>(
    context: &RareSplit,
    n: usize,
    table: &[T],
    partners_below: Option<usize>,
    marks: &mut Bits<W>,
    scratch: &mut Scratch,
) -> u64 {
    let rare = context.rare;
    let mut steps = 0;
    let ranges = context
        .rules
        .splits
        .iter()
        .filter(|&&k| n >= k + 2)
        .map(|&k| {
            let m = n - k;
            // Usually every rare heap qualifies: skip the binary searches then.
            let hi = match rare.last() {
                Some(&r) if (r as usize) < m => rare.len(),
                _ => rare.partition_point(|r| (*r as usize) < m),
            };
            let lo = match partners_below {
                None => 0,
                Some(p) => rare.partition_point(|r| (*r as usize) + p <= m).min(hi),
            };
            (m, lo, hi)
        });
    if let (true, Some(narrow)) = (context.vector.marks, T::narrow(table)) {
        let stamp = scratch.next_stamp();
        for (m, lo, hi) in ranges {
            for range in without_equal(context.rules, rare, m, lo..hi) {
                steps += range.len() as u64;
                let (heaps, values) = (&rare[range.clone()], &context.rare_values[range]);
                simd::mark_pairs(
                    narrow,
                    heaps,
                    values,
                    m,
                    &mut scratch.stamps,
                    stamp,
                    64 * W as u32 - 1,
                );
            }
        }
        simd::fold_stamps(&scratch.stamps[..64 * W], stamp, &mut marks.0);
    } else {
        let seen: &mut [u8; MAX_RARE_BOUND as usize] =
            (&mut scratch.seen[..]).try_into().expect("buffer size");
        seen[..64 * W].fill(0);
        for (m, lo, hi) in ranges {
            for range in without_equal(context.rules, rare, m, lo..hi) {
                steps += range.len() as u64;
                mark_rare_pairs::<T, W>(seen, table, &rare[range], m);
            }
        }
        fold_seen(&seen[..64 * W], &mut marks.0);
    }
    steps
}

/// [`pair_marks`] with `partners_below: Some(old.len())` for every heap of
/// the block `first..first + marks.len()` at once: `marks[i]` gets the
/// options of heap `first + i` through rare heaps `r` whose partner
/// `m - r` is in `old`, the table below the block. Rare heap by rare heap
/// the partners of consecutive heaps are consecutive, so this reads `old`
/// in runs (no gather) and sets the bits of heap after heap; returns how
/// many options were marked.
fn block_marks<const W: usize>(
    context: &RareSplit,
    first: usize,
    old: &[u16],
    marks: &mut [Bits<W>],
) -> u64 {
    let cut = old.len();
    let end = first + marks.len();
    let top = 64 * W as u32 - 1;
    let mut steps = 0;
    // Heaps `from..to` of the block, each paired through the rare heap with
    // value `value` whose partner for heap `from` is `old[partner]`.
    let mut run = |from: usize, to: usize, partner: usize, value: u32| {
        if from >= to {
            return;
        }
        steps += (to - from) as u64;
        let heaps = &mut marks[from - first..to - first];
        for (bits, &x) in heaps.iter_mut().zip(&old[partner..partner + (to - from)]) {
            let x = (u32::from(x) ^ value) & top;
            bits.0[(x >> 6) as usize] |= 1 << (x & 63);
        }
    };
    for &k in &context.rules.splits {
        for (&r, &value) in context.rare.iter().zip(context.rare_values) {
            let r = r as usize;
            // Heap n pairs r with m - r = n - k - r: r < m and m - r < cut.
            let from = first.max(r + k + 1);
            let to = end.min(r + k + cut);
            let equal = 2 * r + k;
            if context.rules.unequal && (from..to).contains(&equal) {
                // Parts must differ: heap 2r + k has no split (r, r).
                run(from, equal, from - k - r, value);
                run(equal + 1, to, equal + 1 - k - r, value);
            } else {
                run(from, to, from.saturating_sub(k + r), value);
            }
        }
    }
    steps
}

/// The rare heaps `rare[range]` (ascending) to pair with `m - r`, as two
/// ranges: all of them, or, when the equal split of `m` is not a move
/// ([`TakeBreak::unequal_parts`]), all but the heap `m / 2`, whose pairing
/// with itself would mark 0 for a move that does not exist.
#[inline(always)]
fn without_equal(
    rules: &TakeBreak,
    rare: &[u32],
    m: usize,
    range: std::ops::Range<usize>,
) -> [std::ops::Range<usize>; 2] {
    let (lo, hi) = (range.start, range.end);
    if let Some(half) = rules.equal_part(m).and_then(|h| u32::try_from(h).ok()) {
        if let Ok(i) = rare[lo..hi].binary_search(&half) {
            return [lo..lo + i, lo + i + 1..hi];
        }
    }
    [lo..hi, hi..hi]
}

/// A pointer handed to the helper thread of [`pipeline`], which only reads
/// through it entries that the main thread no longer writes.
#[derive(Clone, Copy)]
struct Shared<T>(*mut T);

// SAFETY: see `pipeline`: the threads never access the same entry while one writes it.
unsafe impl<T> Send for Shared<T> {}
unsafe impl<T> Sync for Shared<T> {}

impl<T> Shared<T> {
    /// The first `len` entries.
    ///
    /// # Safety
    /// They must be initialized and not written while the slice lives.
    unsafe fn prefix<'a>(self, len: usize) -> &'a [T] {
        // SAFETY: as documented.
        unsafe { std::slice::from_raw_parts(self.0, len) }
    }
}

/// The two-thread path of [`Engine::parallel_block`]: extends `table` from
/// its length up to `limit` (or fewer: it stops after a value reaching `bound`,
/// which needs wider marks) and returns the rare heaps found, with their values.
///
/// One helper thread lives for the whole call. While this thread computes
/// block `i`, the helper marks for block `i + 1` the options through rare heaps
/// whose partner is below the start of block `i`. The table and the lists of
/// rare heaps are sized for the whole run up front and written through raw
/// pointers, so nothing moves; the helper only ever reads entries below the
/// start of the block being computed, which this thread no longer writes.
fn pipeline<const W: usize>(
    context: &RareSplit,
    table: &mut Vec<u16>,
    limit: usize,
    stats: &mut Stats,
    bound: u32,
    scratch: &mut Scratch,
) -> Vec<(u32, u32)> {
    use std::sync::mpsc;
    let start = table.len();
    let first_rare = context.rare.len();
    let room = first_rare + (limit - start);
    let mut rare = context.rare.to_vec();
    rare.resize(room, 0);
    let mut rare_values = context.rare_values.to_vec();
    rare_values.resize(room, 0);
    table.resize(limit, 0);
    let (values_at, rare_at, rare_values_at) = (
        Shared(table.as_mut_ptr()),
        Shared(rare.as_mut_ptr()),
        Shared(rare_values.as_mut_ptr()),
    );
    // SAFETY (every `prefix` below): entries below `done` of the table and
    // below `count` of the rare lists are final, and nothing writes them.
    let view = |count: usize| RareSplit {
        rare: unsafe { rare_at.prefix(count) },
        rare_values: unsafe { rare_values_at.prefix(count) },
        ..*context
    };
    // Marks for `heaps` through the first `count` rare heaps whose partner
    // is below `cut`; and the number of options.
    let old_marks = |heaps: std::ops::Range<usize>, cut: usize, count: usize, _: &mut Scratch| {
        let context = view(count);
        let old = unsafe { values_at.prefix(cut) };
        let mut marks = vec![Bits::<W>([0; W]); heaps.len()];
        let steps = block_marks(&context, heaps.start, old, &mut marks);
        (marks, steps)
    };
    let mut count = first_rare;
    let mut done = start;
    std::thread::scope(|scope| {
        let (jobs, job_queue) = mpsc::channel::<(std::ops::Range<usize>, usize, usize)>();
        let (results, result_queue) = mpsc::channel();
        let old_marks = &old_marks;
        scope.spawn(move || {
            let mut scratch = Scratch::default();
            for (heaps, cut, count) in job_queue {
                if results
                    .send(old_marks(heaps, cut, count, &mut scratch))
                    .is_err()
                {
                    break;
                }
            }
        });
        let first = start..(start + BLOCK).min(limit);
        let (mut pre, steps) = old_marks(first, start, count, scratch);
        stats.pair_steps += steps;
        let mut cut = start;
        while done < limit {
            let block = done..(done + BLOCK).min(limit);
            let next = block.end..(block.end + BLOCK).min(limit);
            let asked = !next.is_empty() && jobs.send((next, block.start, count)).is_ok();
            let context = view(count);
            let mut found = 0;
            for n in block.clone() {
                // SAFETY: the values below `n` are final.
                let known = unsafe { values_at.prefix(n) };
                let mut marks = pre[n - block.start];
                let block_found = (
                    unsafe { rare_at.0.add(count) as *const u32 },
                    unsafe { rare_values_at.0.add(count) as *const u32 },
                    found,
                );
                // SAFETY: this block's rare heaps, written below, not yet shared.
                let block_found = unsafe {
                    (
                        std::slice::from_raw_parts(block_found.0, block_found.2),
                        std::slice::from_raw_parts(block_found.1, block_found.2),
                    )
                };
                let value = block_value::<W>(
                    &context,
                    n,
                    known,
                    cut,
                    &mut marks,
                    block_found,
                    stats,
                    bound,
                    scratch,
                );
                // SAFETY: `n < limit`: inside the table, and no slice covers it.
                unsafe { values_at.0.add(n).write(value as u16) };
                if context.is_rare(n, value) {
                    // SAFETY: at most one rare heap per heap: inside `room`.
                    unsafe {
                        rare_at.0.add(count + found).write(n as u32);
                        rare_values_at.0.add(count + found).write(value);
                    }
                    found += 1;
                }
                done = n + 1;
                if value >= bound {
                    break;
                }
            }
            let later = asked.then(|| result_queue.recv().expect("helper thread"));
            count += found;
            if done < block.end {
                // A value reached `bound`: the next block's marks are too narrow.
                break;
            }
            if let Some((marks, steps)) = later {
                stats.pair_steps += steps;
                pre = marks;
            }
            cut = block.start;
        }
        drop(jobs);
    });
    table.truncate(done);
    rare[first_rare..count]
        .iter()
        .copied()
        .zip(rare_values[first_rare..count].iter().copied())
        .collect()
}

/// G(n) on the two-thread path: `marks` holds the options through rare heaps
/// whose partner is below `cut` (those in `context.rare`, all below `n`'s
/// block); this adds the rest (rare heaps up to `m - cut`, from `cut` on, and
/// `block_rare`, this block's, with their values), the take moves, and
/// searches as usual.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn block_value<const W: usize>(
    context: &RareSplit,
    n: usize,
    table: &[u16],
    cut: usize,
    marks: &mut Bits<W>,
    (block_rare, block_values): (&[u32], &[u32]),
    stats: &mut Stats,
    bound: u32,
    scratch: &mut Scratch,
) -> u32 {
    take_marks(context.rules, n, table, marks);
    let (rare, values) = (context.rare, context.rare_values);
    let top = 64 * W as u32 - 1;
    let stamp = scratch.next_stamp();
    for &k in &context.rules.splits {
        if n < k + 2 {
            continue;
        }
        let m = n - k;
        let low = rare.partition_point(|r| (*r as usize) + cut <= m);
        let high = rare.partition_point(|r| (*r as usize) < cut);
        debug_assert!(low <= high, "blocks too long for the cut");
        let end = rare.partition_point(|r| (*r as usize) < m).max(high);
        stats.pair_steps += (low + end - high) as u64;
        let stamps = &mut scratch.stamps;
        let here = block_rare.partition_point(|r| (*r as usize) < m);
        stats.pair_steps += here as u64;
        let older = without_equal(context.rules, rare, m, 0..low)
            .into_iter()
            .chain(without_equal(context.rules, rare, m, high..end))
            .map(|range| (rare, values, range));
        let newer = without_equal(context.rules, block_rare, m, 0..here)
            .into_iter()
            .map(|range| (block_rare, block_values, range));
        for (heaps, heap_values, range) in older.chain(newer) {
            simd::mark_pairs(
                table,
                &heaps[range.clone()],
                &heap_values[range],
                m,
                stamps,
                stamp,
                top,
            );
        }
    }
    simd::fold_stamps(&scratch.stamps[..64 * W], stamp, &mut marks.0);
    let (cheap_mex, want) = decide(context, n, marks, bound);
    let seen: &mut [u8; MAX_RARE_BOUND as usize] =
        (&mut scratch.seen[..]).try_into().expect("buffer size");
    match confirm::<u16, W>(context, n, table, stats, &want, (seen, &mut scratch.wanted)) {
        Some(missing) => missing,
        None => cheap_mex,
    }
}

/// The rare-value method fused into one loop for games whose values are all
/// below 64 (0.1777, 0.104, ...), where the per-heap overhead of the general
/// path dominates: the marks are one word, the options through rare heaps
/// are gathered 16 at a time ([`simd::rare_set64`]) and the wanted values are
/// crossed off 32 splits at a time ([`simd::pair_set64`]). Extends `table`
/// up to `limit` (exclusive), filing rare heaps, and stops after a value of
/// 64 or more. Returns the options enumerated through rare heaps, the splits
/// searched, the heaps whose search ran through every split, and the new
/// bound (a power of two above every value).
///
/// With AVX-512 when `vector` (the caller must have checked
/// [`simd::available`]), else in plain Rust.
#[allow(clippy::too_many_arguments)]
fn small_run(
    rules: &TakeBreak,
    split: Split,
    odd: &[u64],
    table: &mut Vec<u16>,
    rare: (&mut Vec<u32>, &mut Vec<u32>),
    limit: usize,
    bound: u32,
    vector: bool,
) -> (u64, u64, u64, u32) {
    #[cfg(target_arch = "x86_64")]
    if vector {
        assert!(simd::available(), "AVX-512 asked for where there is none");
        // SAFETY: the features were just checked.
        return unsafe { small_run_avx512(rules, split, odd, table, rare, limit, bound) };
    }
    let _ = vector;
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the feature was just checked.
        return unsafe { small_run_avx2(rules, split, odd, table, rare, limit, bound) };
    }
    // SAFETY: the portable operations need no processor features.
    unsafe { small_run_with::<simd::Portable>(rules, split, odd, table, rare, limit, bound) }
}

/// [`small_run_with`] in plain Rust, compiled for AVX2 (which the compiler
/// uses for the folds over 32 splits).
///
/// # Safety
/// AVX2 must be available.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn small_run_avx2(
    rules: &TakeBreak,
    split: Split,
    odd: &[u64],
    table: &mut Vec<u16>,
    rare: (&mut Vec<u32>, &mut Vec<u32>),
    limit: usize,
    bound: u32,
) -> (u64, u64, u64, u32) {
    small_run_with::<simd::Portable>(rules, split, odd, table, rare, limit, bound)
}

/// [`small_run_with`] compiled for AVX-512.
///
/// # Safety
/// AVX-512F/BW must be available.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn small_run_avx512(
    rules: &TakeBreak,
    split: Split,
    odd: &[u64],
    table: &mut Vec<u16>,
    rare: (&mut Vec<u32>, &mut Vec<u32>),
    limit: usize,
    bound: u32,
) -> (u64, u64, u64, u32) {
    small_run_with::<simd::Avx512>(rules, split, odd, table, rare, limit, bound)
}

/// The loop of [`small_run`], over either set of word operations.
///
/// # Safety
/// Those of `S`'s operations (AVX-512 for [`simd::Avx512`]); `table` must
/// hold values below `bound` (a power of two, at most 64), and `rare` list
/// its rare heaps under `split`.
#[inline(always)]
unsafe fn small_run_with<S: simd::SmallSets>(
    rules: &TakeBreak,
    split: Split,
    odd: &[u64],
    table: &mut Vec<u16>,
    (rare, rare_values): (&mut Vec<u32>, &mut Vec<u32>),
    limit: usize,
    mut bound: u32,
) -> (u64, u64, u64, u32) {
    let (mut pair_steps, mut scan_steps, mut exhausted) = (0u64, 0u64, 0u64);
    assert!(!rules.unequal, "the small-value loop pairs equal parts too");
    let first = table.len();
    debug_assert!(table.iter().all(|v| (*v as u32) < bound) && bound <= 64);
    assert!(
        first > rules.digits.len() + 2 && limit < i32::MAX as usize,
        "short or very long tables take the general path"
    );
    table.reserve(limit.saturating_sub(first));
    // Heaps are past every take and split size: what depends on `n` is only
    // its parity. For each: the removals that leave one heap, the class of
    // values no common-common pair makes (see `decide`), and the split sizes
    // worth searching.
    let singles: Vec<usize> = (1..rules.digits.len())
        .filter(|&k| rules.digits[k] & 2 != 0)
        .collect();
    let context = RareSplit {
        rules,
        split,
        odd,
        rare: &[],
        rare_values: &[],
        vector: Vector {
            marks: true,
            search: true,
        },
    };
    let by_parity = |n: usize| {
        let searchable = searchable(&context, n);
        let searched: Vec<usize> = rules
            .splits
            .iter()
            .copied()
            .filter(|&k| searchable[(split.domain as usize) & ((n - k) & 1)])
            .collect();
        (cheap_class(searchable, odd[0]), searched)
    };
    let parities = [by_parity(first & !1), by_parity(first | 1)];
    // Split sizes within four of each other: one gather of four partners per
    // rare heap covers them all ([`simd::rare_span64`]); `ks` has bit
    // `kmax - k` for each split size `k`. The four end at the smallest split
    // size: reading the heaps just stored would wait for their stores.
    let kmax = rules.splits.iter().copied().min().unwrap_or(0) + 3;
    let span = rules
        .splits
        .iter()
        .all(|&k| k <= kmax)
        .then(|| rules.splits.iter().fold(0u8, |ks, &k| ks | 1 << (kmax - k)));
    let per_heap = rules.splits.len() as u64;
    while table.len() < limit {
        let n = table.len();
        let (class, searched) = &parities[n & 1];
        let mut marks = 0u64;
        for &k in &singles {
            marks |= 1 << (table[n - k] & 63);
        }
        match (span, rare.last()) {
            (_, None) => {}
            (Some(ks), Some(&last)) if last as usize + kmax < n => {
                // SAFETY: checked just above; n = table.len() < 2^31.
                marks |= unsafe { S::rare_span(table, rare, rare_values, n, kmax, ks) };
                pair_steps += rare.len() as u64 * per_heap;
            }
            _ => {
                for &k in &rules.splits {
                    let m = n - k;
                    let hi = rare.partition_point(|r| (*r as usize) < m);
                    pair_steps += hi as u64;
                    // SAFETY: rare heaps are in 1..m, their partners below n.
                    marks |= unsafe { S::rare_set(table, &rare[..hi], &rare_values[..hi], m) };
                }
            }
        }
        // As `decide`: the smallest unmarked value of the class no split
        // searched can make, and the unmarked values below it, wanted.
        let cheap = !marks & class;
        let cheap_mex = cheap.trailing_zeros().min(bound);
        let below = if cheap_mex >= 64 {
            !0
        } else {
            (1u64 << cheap_mex) - 1
        };
        // The splits (a, m - a) for 33 <= a < 65 of every split size
        // searched, looked at whatever the marks: they do not wait for them.
        let early_done = searched.iter().all(|k| (n - k) / 2 >= 64);
        let early = if early_done {
            scan_steps += 32 * searched.len() as u64;
            // SAFETY: 33 + 31 <= (n - k) / 2 for each, and n - k - 33 < len.
            unsafe { S::pair_sets(table.as_ptr(), n, searched, 33) }
        } else {
            0
        };
        let mut want = !marks & below & !early;
        let mut value = cheap_mex;
        if want != 0 {
            let ptr = table.as_ptr();
            // Splits (a, m - a) with a > 32 first: the values of the last
            // few heaps, just stored, are slow to load again.
            'search: for phase in [33, 1] {
                for &k in searched {
                    let m = n - k;
                    let (mut a, end) = match phase {
                        1 => (1, (m / 2).min(32)),
                        _ if early_done => (65, m / 2),
                        _ => (33, m / 2),
                    };
                    while a + 31 <= end {
                        // SAFETY: a + 31 <= m - a - 31 + 31 and m - a < n = len.
                        want &= !unsafe { S::pair_set(ptr, m, a) };
                        a += 32;
                        scan_steps += 32;
                        if want == 0 {
                            break 'search;
                        }
                    }
                    while a <= end {
                        want &= !(1u64 << ((table[a] ^ table[m - a]) & 63));
                        a += 1;
                        scan_steps += 1;
                        if want == 0 {
                            break 'search;
                        }
                    }
                }
            }
            if want != 0 {
                exhausted += 1;
                value = want.trailing_zeros();
            }
        }
        table.push(value as u16);
        if rare_under(&split, odd, n, value) {
            rare.push(n as u32);
            rare_values.push(value);
        }
        if value >= bound {
            bound = (value + 1).next_power_of_two();
            if bound > 64 {
                break;
            }
        }
    }
    (pair_steps, scan_steps, exhausted, bound)
}

/// Marks the values left by taking without splitting.
#[inline(always)]
fn take_marks<T: Copy + Into<u32>, const W: usize>(
    rules: &TakeBreak,
    n: usize,
    table: &[T],
    marks: &mut Bits<W>,
) {
    for (k, &d) in rules.digits.iter().enumerate().take(n + 1) {
        if d & 1 != 0 && n == k {
            marks.set(0);
        }
        if d & 2 != 0 && n > k {
            marks.set(table[n - k].into());
        }
    }
}

/// Marks `G(r) ^ G(m - r)` for each `r` in `rare` (all below `m`).
#[inline(always)]
fn mark_rare_pairs<T: Copy + Into<u32>, const W: usize>(
    seen: &mut [u8; MAX_RARE_BOUND as usize],
    table: &[T],
    rare: &[u32],
    m: usize,
) {
    // Every value (and XOR of values) is below `bound` <= 64 * W: indices
    // masked with `top` stay in the buffer without a bounds check.
    let top = 64 * W - 1;
    for &r in rare {
        let r = r as usize;
        let (x, y): (u32, u32) = (table[r].into(), table[m - r].into());
        seen[(x ^ y) as usize & top] = 1;
    }
}

/// Which splits of `n` can produce a rare value from two common heaps,
/// indexed by the parity class of `n - k`.
#[inline(always)]
fn searchable(context: &RareSplit, n: usize) -> [bool; 2] {
    let mut searchable = [false; 2];
    for &k in &context.rules.splits {
        if n >= k + 2 {
            searchable[(context.split.domain as usize) & ((n - k) & 1)] = true;
        }
    }
    searchable
}

/// The values (bits of a word whose common values are `odd`) that no split
/// searched can make from two common heaps, given [`searchable`].
#[inline(always)]
fn cheap_class(searchable: [bool; 2], odd: u64) -> u64 {
    match searchable {
        [true, true] => 0,
        [true, false] => odd,
        [false, true] => !odd,
        [false, false] => !0,
    }
}

/// From the marks of every option through a rare heap (and of any others):
/// the smallest unmarked value no two common heaps can make, which is G(n)
/// unless one of the `want`ed values below it turns out to be missing.
// The word loops index several small arrays in step; iterators would hide that.
#[allow(clippy::needless_range_loop)]
#[inline(always)]
fn decide<const W: usize>(
    context: &RareSplit,
    n: usize,
    marks: &Bits<W>,
    bound: u32,
) -> (u32, Bits<W>) {
    let odd = context.odd;
    let searchable = searchable(context, n);
    // Values that are unmarked and of a class no common-common pair makes.
    let mut cheap = Bits::<W>([0; W]);
    for i in 0..W {
        cheap.0[i] = !marks.0[i] & cheap_class(searchable, odd[i]);
    }
    let cheap_mex = cheap.first(bound).min(bound);
    // Unmarked values below it are wanted: each must turn up in some split.
    let mut want = Bits::<W>([0; W]);
    for i in 0..W {
        let low = i as u32 * 64;
        let below = if cheap_mex >= low + 64 {
            !0
        } else if cheap_mex <= low {
            0
        } else {
            (1u64 << (cheap_mex - low)) - 1
        };
        want.0[i] = !marks.0[i] & below;
    }
    (cheap_mex, want)
}

/// Searches the splits of `n` for every wanted value: `None` when all turn
/// up, else the smallest that no option has.
#[allow(clippy::needless_range_loop)]
#[inline(always)]
fn confirm<T: Cell, const W: usize>(
    context: &RareSplit,
    n: usize,
    table: &[T],
    stats: &mut Stats,
    want: &Bits<W>,
    (seen, wanted): (&mut [u8; MAX_RARE_BOUND as usize], &mut [u16]),
) -> Option<u32> {
    if want.0.iter().all(|w| *w == 0) {
        return None;
    }
    let searchable = searchable(context, n);
    if let (true, Some(narrow)) = (context.vector.search, T::narrow(table)) {
        let mut wanted = simd::Wanted::from_bits(&want.0);
        for &k in &context.rules.splits {
            if n >= k + 2 && searchable[(context.split.domain as usize) & ((n - k) & 1)] {
                let m = n - k;
                let half = context.rules.half(m);
                stats.scan_steps += simd::search_to(narrow, m, 1, half, &mut wanted) as u64;
                if wanted.count == 0 {
                    return None;
                }
            }
        }
        stats.exhausted += 1;
        return wanted.first();
    }
    let top = 64 * W - 1;
    // Only the search marks `seen` from here (wanted values are unmarked).
    seen[..64 * W].fill(0);
    // The wanted values as a list, checked every chunk of the search.
    let mut count = 0;
    for i in 0..W {
        let mut w = want.0[i];
        while w != 0 {
            wanted[count] = (i * 64) as u16 + w.trailing_zeros() as u16;
            count += 1;
            w &= w - 1;
        }
    }
    for &k in &context.rules.splits {
        if n < k + 2 || !searchable[(context.split.domain as usize) & ((n - k) & 1)] {
            continue;
        }
        let m = n - k;
        let half = context.rules.half(m);
        let mut b = 1;
        while b <= half {
            // Long enough chunks that checking the wanted list stays cheap.
            let stop = (b + 32 + 2 * count).min(half + 1);
            // Pairs (a, m - a) for a in b..stop: one slice up, one down.
            let low = &table[b..stop];
            let high = &table[m + 1 - stop..m + 1 - b];
            for (x, y) in low.iter().zip(high.iter().rev()) {
                let (x, y): (u32, u32) = ((*x).into(), (*y).into());
                seen[(x ^ y) as usize & top] = 1;
            }
            stats.scan_steps += (stop - b) as u64;
            b = stop;
            // Drop the values found; done when none is left.
            let mut kept = 0;
            for i in 0..count {
                let v = wanted[i];
                wanted[kept] = v;
                kept += (seen[v as usize & top] == 0) as usize;
            }
            count = kept;
            if count == 0 {
                return None;
            }
        }
    }
    stats.exhausted += 1;
    // The smallest value never found (the list stays in increasing order).
    Some(u32::from(wanted[0]))
}

/// ORs the byte marks `seen` (one byte per value, nonzero when marked) into bit words.
#[inline(always)]
fn fold_seen(seen: &[u8], words: &mut [u64]) {
    for (word, bytes) in words.iter_mut().zip(seen.chunks_exact(64)) {
        let mut bits = 0u64;
        for (i, b) in bytes.iter().enumerate() {
            bits |= ((*b != 0) as u64) << i;
        }
        *word |= bits;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn values(digits: &[u8], n: usize, plain: bool) -> Vec<u32> {
        rules_values(&TakeBreak::new(digits).unwrap(), n, plain)
    }

    fn rules_values(rules: &TakeBreak, n: usize, plain: bool) -> Vec<u32> {
        let rules = rules.clone();
        let mut engine = if plain {
            Engine::plain(rules)
        } else {
            Engine::new(rules)
        };
        let _ = engine.extend_to(n, &mut |_| ControlFlow::Continue(()));
        engine.values().to_u32()
    }

    #[test]
    fn kayles_and_dawson() {
        // OEIS A002186 (Kayles, 0.77) and A002187 (Dawson's Kayles, 0.07).
        assert_eq!(
            values(&[0, 7, 7], 20, true),
            [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1]
        );
        assert_eq!(
            values(&[0, 0, 7], 20, true),
            [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3]
        );
    }

    #[test]
    fn walsh_hadamard_counts_parities() {
        let mut h = vec![3, 0, 1, 2];
        walsh_hadamard(&mut h);
        // mask 1: values 0,2 even (3+1), 1,3 odd (0+2); mask 3: 0,3 even (5), 1,2 odd (1).
        assert_eq!(h, [6, 2, 0, 4]);
    }

    #[test]
    fn rare_value_engine_agrees_on_sparse_games() {
        // 0.16, 0.1777, 0.6 and 0.354 have sparse spaces (Flammenkamp's tables).
        for digits in [&[0u8, 1, 6][..], &[0, 1, 7, 7, 7], &[0, 6], &[0, 3, 5, 4]] {
            let fast = values(digits, 30_000, false);
            let plain = values(digits, 30_000, true);
            assert_eq!(fast, plain, "{digits:?}");
        }
    }

    #[test]
    fn the_split_is_found_for_0_16() {
        let rules = TakeBreak::new(&[0, 1, 6]).unwrap();
        let mut engine = Engine::new(rules);
        let _ = engine.extend_to(20_000, &mut |_| ControlFlow::Continue(()));
        assert!(engine.split().is_some());
        assert!(engine.stats().rare_heaps_computed > 0);
    }

    #[test]
    fn wide_values_are_kept_exactly() {
        let mut v = Values::default();
        v.push(7);
        v.push(70_000);
        assert_eq!(v.get(0), 7);
        assert_eq!(v.get(1), 70_000);
        assert!(matches!(v, Values::Wide(_)));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn any_code_agrees_with_the_plain_engine(
            digits in proptest::collection::vec(0u8..8, 1..5),
            n in 0usize..9000,
        ) {
            let mut digits = digits;
            digits.insert(0, 0);
            prop_assert_eq!(values(&digits, n, false), values(&digits, n, true));
        }

        #[test]
        fn every_mix_of_vector_and_scalar_paths_agrees(
            digits in proptest::collection::vec(0u8..8, 1..5),
            first in prop_oneof![Just(0u8), Just(4u8)],
            n in 0usize..9000,
            two_threads in any::<bool>(),
            all_scalar in any::<bool>(),
            small in any::<bool>(),
        ) {
            // A first digit of 4 splits the heap being computed itself.
            let mut digits = digits;
            digits.insert(0, first);
            let rules = TakeBreak::new(&digits).unwrap();
            let mut engine = Engine::new(rules);
            engine.parallel_from(if two_threads { 0 } else { usize::MAX });
            if all_scalar {
                engine.scalar_search();
            } else {
                engine.scalar_search_only();
            }
            if !small {
                engine.no_small_run();
            }
            let _ = engine.extend_to(n, &mut |_| ControlFlow::Continue(()));
            prop_assert_eq!(engine.values().to_u32(), values(&digits, n, true));
        }

        #[test]
        fn the_small_value_loop_agrees_with_the_plain_engine(
            digits in proptest::collection::vec(0u8..8, 1..9),
            n in 1000usize..6000,
            small in any::<bool>(),
        ) {
            // Codes up to eight digits: split sizes near each other take
            // the gather of four partners, others one gather per size.
            let mut digits = digits;
            digits.insert(0, 0);
            let rules = TakeBreak::new(&digits).unwrap();
            let mut engine = Engine::new(rules);
            engine.parallel_from(usize::MAX);
            if !small {
                engine.no_small_run();
            }
            let _ = engine.extend_to(n, &mut |_| ControlFlow::Continue(()));
            let found = engine.values().to_u32();
            // The bound stays a power of two above every value (the marks
            // and the mex rely on it).
            let top = found.iter().copied().max().unwrap_or(0);
            prop_assert!(engine.work.bound > top && engine.work.bound.is_power_of_two());
            prop_assert_eq!(found, values(&digits, n, true));
        }

        #[test]
        fn two_thread_blocks_agree_with_the_plain_engine(
            digits in proptest::collection::vec(0u8..8, 1..5),
            n in 2048usize..12000,
        ) {
            let mut digits = digits;
            digits.insert(0, 0);
            let rules = TakeBreak::new(&digits).unwrap();
            let mut engine = Engine::new(rules);
            engine.parallel_from(0);
            // Small values would take the small-value loop instead.
            engine.no_small_run();
            let _ = engine.extend_to(n, &mut |_| ControlFlow::Continue(()));
            prop_assert_eq!(engine.values().to_u32(), values(&digits, n, true));
        }

        #[test]
        fn splits_are_exact_whatever_the_mask(
            digits in proptest::collection::vec(0u8..8, 1..4),
            first in prop_oneof![Just(0u8), Just(4u8)],
            unequal in any::<bool>(),
            mask in 1u32..64,
            domain in any::<bool>(),
            shift in 0u32..2,
            n in 100usize..1500,
        ) {
            let mut digits = digits;
            digits.insert(0, first);
            let rules = TakeBreak::new(&digits).unwrap();
            let rules = if unequal { rules.unequal_parts() } else { rules };
            let plain = rules_values(&rules, n, true);
            let split = Split { mask, free: 0, domain, shift };
            let rare: Vec<u32> = (1..n).filter(|&i| split.class(i, plain[i]) == 0).map(|i| i as u32).collect();
            let odd = parity_words(mask);
            let fixed = rare_value_with(&rules, split, &odd, &rare, &plain[..n], n);
            prop_assert_eq!(fixed, plain[n]);
        }

        #[test]
        fn sum_free_splits_are_exact_whatever_the_set(
            digits in proptest::collection::vec(0u8..8, 1..4),
            first in prop_oneof![Just(0u8), Just(4u8)],
            unequal in any::<bool>(),
            order in Just((1u32..64).collect::<Vec<u32>>()).prop_shuffle(),
            n in 100usize..1500,
        ) {
            let mut digits = digits;
            digits.insert(0, first);
            let rules = TakeBreak::new(&digits).unwrap();
            let rules = if unequal { rules.unequal_parts() } else { rules };
            let plain = rules_values(&rules, n, true);
            // A random sum-free set: no two members XOR to a third.
            let mut set: Vec<u32> = Vec::new();
            for v in order {
                if !set.iter().any(|a| set.contains(&(a ^ v))) {
                    set.push(v);
                }
            }
            let mut odd = vec![0u64; MAX_RARE_BOUND as usize / 64];
            for v in &set {
                odd[(*v >> 6) as usize] |= 1 << (v & 63);
            }
            let split = Split { mask: 0, free: set.len() as u32, domain: false, shift: 0 };
            let rare: Vec<u32> = (1..n).filter(|&i| !set.contains(&plain[i])).map(|i| i as u32).collect();
            let fixed = rare_value_with(&rules, split, &odd, &rare, &plain[..n], n);
            prop_assert_eq!(fixed, plain[n]);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn block_marks_are_pair_marks_heap_by_heap(
            digits in proptest::collection::vec(0u8..8, 0..5),
            first in prop_oneof![Just(0u8), Just(4u8)],
            unequal in any::<bool>(),
            mask in 1u32..64,
            cut in 1usize..1200,
            block in 1usize..700,
        ) {
            let mut digits = digits;
            digits.insert(0, first);
            let rules = TakeBreak::new(&digits).unwrap();
            let rules = if unequal { rules.unequal_parts() } else { rules };
            let table: Vec<u16> = rules_values(&rules, cut, true)
                .iter()
                .map(|v| *v as u16)
                .collect();
            let split = Split { mask, free: 0, domain: false, shift: 0 };
            let rare: Vec<u32> = (1..cut).filter(|&i| split.class(i, table[i] as u32) == 0).map(|i| i as u32).collect();
            let rare_values: Vec<u32> = rare.iter().map(|r| table[*r as usize] as u32).collect();
            let odd = parity_words(mask);
            let context = RareSplit {
                rules: &rules,
                split,
                odd: &odd,
                rare: &rare,
                rare_values: &rare_values,
                vector: Vector { marks: false, search: false },
            };
            let old = &table[..cut];
            let start = cut + cut / 3;
            let mut marks = vec![Bits::<4>([0; 4]); block];
            let steps = block_marks(&context, start, old, &mut marks);
            let mut total = 0;
            for (i, got) in marks.iter().enumerate() {
                let mut expected = Bits::<4>([0; 4]);
                let scratch = &mut Scratch::default();
                total += pair_marks(&context, start + i, old, Some(cut), &mut expected, scratch);
                prop_assert_eq!(got.0, expected.0, "heap {}", start + i);
            }
            prop_assert_eq!(steps, total);
        }

        #[test]
        fn unequal_parts_agree_with_the_definition(
            digits in proptest::collection::vec(0u8..16, 0..4),
            first in prop_oneof![Just(0u8), Just(4u8), Just(8u8), Just(12u8)],
            unequal in any::<bool>(),
            n in 0usize..120,
        ) {
            // Hexadecimal digits too: three heaps, all different when
            // parts must differ (the plain engine only: no split then).
            let mut digits = digits;
            digits.insert(0, first);
            let rules = TakeBreak::new(&digits).unwrap();
            let rules = if unequal { rules.unequal_parts() } else { rules };
            let expected = by_definition(rules.digits(), unequal, n);
            prop_assert_eq!(&rules_values(&rules, n, true), &expected);
            prop_assert_eq!(&rules_values(&rules, n, false), &expected);
        }

        #[test]
        fn unequal_parts_agree_on_every_path(
            digits in proptest::collection::vec(0u8..8, 0..5),
            first in prop_oneof![Just(0u8), Just(4u8)],
            n in 0usize..9000,
            two_threads in any::<bool>(),
            marks in prop_oneof![Just("vector"), Just("scalar")],
            search in prop_oneof![Just("vector"), Just("scalar")],
        ) {
            let mut digits = digits;
            digits.insert(0, first);
            let rules = TakeBreak::new(&digits).unwrap().unequal_parts();
            let mut engine = Engine::new(rules.clone());
            engine.parallel_from(if two_threads { 0 } else { usize::MAX });
            if marks == "scalar" {
                engine.scalar_marks();
            }
            if search == "scalar" {
                engine.scalar_search_only();
            }
            let _ = engine.extend_to(n, &mut |_| ControlFlow::Continue(()));
            prop_assert_eq!(engine.values().to_u32(), rules_values(&rules, n, true));
        }
    }

    /// G(n) by the rare-value method with the given split and rare heaps,
    /// searched one split at a time and (where the values fit 16 bits) with
    /// [`simd::search`], which must agree.
    fn rare_value_with(
        rules: &TakeBreak,
        split: Split,
        odd: &[u64],
        rare: &[u32],
        table: &[u32],
        n: usize,
    ) -> u32 {
        fn run<T: Cell>(context: &RareSplit, table: &[T], n: usize, bound: u32) -> u32 {
            let mut stats = Stats::default();
            let scratch = &mut Scratch::default();
            match bound {
                0..=64 => rare_value_fixed::<_, 1>(context, n, table, &mut stats, bound, scratch),
                65..=256 => rare_value_fixed::<_, 4>(context, n, table, &mut stats, bound, scratch),
                _ => rare_value_fixed::<_, 16>(context, n, table, &mut stats, bound, scratch),
            }
        }
        let bound = (table.iter().copied().max().unwrap_or(0) + 1).next_power_of_two();
        let rare_values: Vec<u32> = rare.iter().map(|r| table[*r as usize]).collect();
        let mut context = RareSplit {
            rules,
            split,
            odd,
            rare,
            rare_values: &rare_values,
            vector: Vector {
                marks: false,
                search: false,
            },
        };
        let scalar = run(&context, table, n, bound);
        let narrow: Vec<u16> = table.iter().map(|v| *v as u16).collect();
        for (marks, search) in [(true, true), (true, false), (false, true)] {
            context.vector = Vector { marks, search };
            assert_eq!(
                run(&context, &narrow, n, bound),
                scalar,
                "vector paths differ (marks {marks}, search {search})"
            );
        }
        for vector in [false, simd::available()] {
            // The small-value loop is not used when parts must differ.
            if bound > 64 || n <= rules.digits.len() + 2 || rules.unequal {
                break;
            }
            let mut small = narrow[..n].to_vec();
            let (mut rare, mut rare_values) = (rare.to_vec(), rare_values.clone());
            small_run(
                rules,
                split,
                odd,
                &mut small,
                (&mut rare, &mut rare_values),
                n + 1,
                bound,
                vector,
            );
            assert_eq!(
                u32::from(small[n]),
                scalar,
                "the small-value loop differs (vector {vector})"
            );
            // The portable operations as compiled for any processor.
            let mut small = narrow[..n].to_vec();
            let (mut rare, mut rare_values) = (rare.to_vec(), rare_values.clone());
            // SAFETY: the portable operations need no processor features.
            unsafe {
                small_run_with::<simd::Portable>(
                    rules,
                    split,
                    odd,
                    &mut small,
                    (&mut rare, &mut rare_values),
                    n + 1,
                    bound,
                )
            };
            assert_eq!(u32::from(small[n]), scalar, "the portable loop differs");
        }
        scalar
    }

    /// Values from the definition alone, for codes whose splits may have
    /// to leave heaps of different sizes: every option listed as its heaps.
    fn by_definition(digits: &[u8], unequal: bool, n: usize) -> Vec<u32> {
        let mut g: Vec<u32> = Vec::new();
        for heap in 0..=n {
            let mut options = std::collections::BTreeSet::new();
            for (k, &d) in digits.iter().enumerate().take(heap + 1) {
                let m = heap - k;
                let mut parts: Vec<Vec<usize>> = Vec::new();
                if d & 1 != 0 && m == 0 {
                    parts.push(vec![]);
                }
                if d & 2 != 0 && m > 0 {
                    parts.push(vec![m]);
                }
                for a in 1..m {
                    if d & 4 != 0 && a <= m - a {
                        parts.push(vec![a, m - a]);
                    }
                    for b in a..m.saturating_sub(a) {
                        if d & 8 != 0 && b <= m - a - b {
                            parts.push(vec![a, b, m - a - b]);
                        }
                    }
                }
                for p in parts {
                    if unequal && p.windows(2).any(|w| w[0] == w[1]) {
                        continue;
                    }
                    options.insert(p.iter().fold(0, |x, h| x ^ g[*h]));
                }
            }
            g.push((0..).find(|v| !options.contains(v)).unwrap());
        }
        g
    }

    #[test]
    fn grundys_game_is_four_point_with_unequal_parts() {
        // OEIS A002188: Grundy's game.
        let rules = TakeBreak::new(&[4]).unwrap().unequal_parts();
        let first = [
            0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0,
        ];
        assert_eq!(rules_values(&rules, 20, true), first);
        assert_eq!(by_definition(&[4], true, 20), first);
        // Without the flag, 4. splits anyhow: the equal split adds 0.
        assert_eq!(values(&[4], 4, true), [0, 0, 1, 0, 1]);
    }

    #[test]
    fn two_thread_blocks_agree_on_known_games() {
        // 0.6 and 0.007 (many rare heaps), 0.16 and Kayles from early on, and
        // without the small-value loop, which would take the last two.
        for digits in [&[0u8, 6][..], &[0, 0, 0, 7], &[0, 1, 6], &[0, 7, 7]] {
            let mut engine = Engine::new(TakeBreak::new(digits).unwrap());
            engine.parallel_from(0);
            engine.no_small_run();
            let _ = engine.extend_to(20_000, &mut |_| ControlFlow::Continue(()));
            assert_eq!(
                engine.values().to_u32(),
                values(digits, 20_000, true),
                "{digits:?}"
            );
        }
    }

    #[test]
    fn treblecross_takes_a_sum_free_split() {
        let rules = TakeBreak::new(&[0, 0, 0, 7]).unwrap();
        let mut engine = Engine::new(rules);
        let _ = engine.extend_to(30_000, &mut |_| ControlFlow::Continue(()));
        let split = engine.split().expect("a split for 0.007");
        assert!(split.free > 0, "{split:?}");
        assert_eq!(
            engine.values().to_u32(),
            values(&[0, 0, 0, 7], 30_000, true)
        );
    }
}
