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

mod compared;
mod mask;
mod packed;
mod pipeline;
mod plain;
mod search;
mod single;
mod small;
mod sum_free;
#[cfg(test)]
mod tests;
mod triples;

pub use packed::Packed;

use mask::{choose_split, parity_words, ValueCounts};
use pipeline::pipeline;
use plain::fast_plain_value;
use single::rare_value_fixed;
use small::small_run;
use sum_free::choose_sum_free;
use triples::triple_value;

use super::simd::Path;
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

    /// An upper bound on the number of options of heap `n` (exact without
    /// three-heap splits), and so on its value.
    pub fn option_count(&self, n: usize) -> u64 {
        let mut count = 0u64;
        for (k, &d) in self.digits.iter().enumerate().take(n.saturating_add(1)) {
            let m = (n - k) as u64;
            count = count
                .saturating_add(u64::from(d & 1 != 0 && m == 0) + u64::from(d & 2 != 0 && m > 0));
            if d & 4 != 0 && m >= 2 {
                count = count.saturating_add(self.half(n - k) as u64);
            }
            if d & 8 != 0 && m >= 3 {
                // The splits of m into three parts, about m^2 / 12.
                count = count.saturating_add(m.saturating_mul(m) / 12 + m);
            }
        }
        count
    }

    /// The value of heap `n` by the definition, from `table[0..n]`: the reference.
    pub fn plain_value<T: Copy + Into<u32>>(&self, n: usize, table: &[T], mex: &mut Marks) -> u32 {
        self.plain_value_by(n, |i| table[i].into(), mex)
    }

    /// [`TakeBreak::plain_value`] with the value of heap `i` as `g(i)`.
    pub fn plain_value_by(&self, n: usize, g: impl Fn(usize) -> u32, mex: &mut Marks) -> u32 {
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

/// Values of heaps `0..len`, two bytes each until a value needs more; the
/// middle of a long table of small values at one byte a heap.
#[derive(Debug, Clone)]
pub enum Values {
    /// Every value fits in 16 bits.
    Narrow(Vec<u16>),
    /// Some value does not.
    Wide(Vec<u32>),
    /// Every value fits in 16 bits, and those of the middle heaps (all
    /// common, below 512) in one byte ([`Packed`]).
    Packed(Box<Packed>),
}

impl PartialEq for Values {
    fn eq(&self, other: &Values) -> bool {
        match (self, other) {
            (Values::Narrow(a), Values::Narrow(b)) => a == b,
            (Values::Wide(a), Values::Wide(b)) => a == b,
            _ => self.len() == other.len() && (0..self.len()).all(|i| self.get(i) == other.get(i)),
        }
    }
}

impl Eq for Values {}

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
            Values::Packed(p) => p.len(),
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
            Values::Packed(p) => p.get(n),
        }
    }

    /// Forgets the values of heaps `len..`.
    pub fn truncate(&mut self, len: usize) {
        match self {
            Values::Narrow(v) => v.truncate(len),
            Values::Wide(v) => v.truncate(len),
            Values::Packed(_) => {
                let Values::Packed(p) = std::mem::take(self) else {
                    unreachable!("matched above")
                };
                *self = (*p).truncate(len);
            }
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
            Values::Packed(p) if value <= u16::MAX as u32 => p.table.push(value as u16),
            Values::Packed(_) => {
                self.unpack();
                self.push(value);
            }
        }
    }

    /// Every value in two-byte cells again, if some were packed.
    fn unpack(&mut self) {
        if let Values::Packed(_) = self {
            let Values::Packed(p) = std::mem::take(self) else {
                unreachable!("matched above")
            };
            *self = Values::Narrow((*p).unpack());
        }
    }

    /// Reserves room for `additional` more heaps.
    pub fn reserve(&mut self, additional: usize) {
        match self {
            Values::Narrow(v) => v.reserve(additional),
            Values::Wide(v) => v.reserve(additional),
            Values::Packed(p) => p.table.reserve(additional),
        }
    }

    /// All values, widened (for callers that want a plain slice).
    pub fn to_u32(&self) -> Vec<u32> {
        match self {
            Values::Narrow(v) => v.iter().map(|x| *x as u32).collect(),
            Values::Wide(v) => v.clone(),
            Values::Packed(p) => (0..p.len()).map(|i| p.get(i)).collect(),
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
    /// The two-way splits' values of every sum, for three-heap moves.
    pairs: triples::Pairs,
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
    /// Heaps whose options through rare heaps were compared with
    /// candidates, then marked again in full: none of the candidates was
    /// left.
    pub remarked: u64,
}

/// Grundy values of a take-and-break game, extended on demand.
///
/// ```
/// use grundy::heap::rare::{Engine, TakeBreak};
/// use std::ops::ControlFlow;
///
/// // Dawson's Kayles, 0.07: remove two adjacent pins from a row.
/// let mut engine = Engine::new(TakeBreak::new(&[0, 0, 7]).unwrap());
/// let _ = engine.extend_to(100_000, &mut |_| ControlFlow::Continue(()));
/// let values = engine.values();
/// assert_eq!((0..10).map(|n| values.get(n)).collect::<Vec<_>>(), [0, 0, 1, 1, 2, 0, 3, 1, 1, 0]);
/// // Period 34 from heap 53 on (Guy and Smith, 1956).
/// assert_eq!(values.get(100_000), values.get(100_000 - 34));
/// ```
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
    /// How many rare heaps there were after the last review.
    rare_at_review: usize,
    /// The values counted for the reviews, heap by heap as the table grows.
    counts: ValueCounts,
    /// Forces the plain method (for tests and `--verify`).
    plain_only: bool,
    /// Heaps from which blocks are computed ([`Engine::parallel_block`];
    /// `usize::MAX`: never).
    parallel_from: usize,
    /// Whether a helper thread marks the next block's options while this
    /// one finishes the current block (two cores or more).
    helper: bool,
    /// The instruction path of each part ([`Path::default_path`] unless set).
    vector: Vector,
    /// Whether heaps whose values are all below 64 take [`small_run`]
    /// (with AVX-512 when the vector paths are on).
    small: bool,
    /// The heaps kept in two-byte cells at the start and at the end of a
    /// table whose middle is packed ([`Packed`]); `None`: never packed.
    packing: Option<(usize, usize)>,
    /// At most this many candidates a heap where options through rare
    /// heaps are compared with candidates instead of marked
    /// ([`compared`]); 0: never.
    candidates: usize,
    /// The next heap at which to pack more of the table.
    next_pack: usize,
}

/// The instruction path of each part of the rare-value method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Vector {
    /// The engine's path (the small-value loop's, when `marks` and
    /// `search` agree with it).
    path: Path,
    /// Options through rare heaps: with [`Path::Avx512`],
    /// [`simd::mark_pairs`] with stamps; else byte marks.
    marks: Path,
    /// Wanted values: [`simd::search_to`] on this path.
    search: Path,
}

impl Vector {
    fn on(path: Path) -> Self {
        Vector {
            path,
            marks: path,
            search: path,
        }
    }
}

/// How often (in heaps) progress is reported and interruption checked.
pub const PROGRESS_STEP: usize = 1 << 16;

/// The same for codes with three-heap moves, whose heaps cost O(n) each
/// even when values are sparse: heap 10^5 of `hex:0.F8` takes milliseconds.
const TRIPLE_PROGRESS_STEP: usize = 1 << 10;

/// Values must stay below this for the rare-value method (its marks are
/// arrays of this many bits and bytes).
const MAX_RARE_BOUND: u32 = 4096;

/// Heaps from which blocks are computed ([`Engine::parallel_block`]).
const PARALLEL_FROM: usize = 1 << 12;

/// Heaps per block of the block path with a helper thread. This thread
/// marks, heap by heap, the options through rare heaps whose partner is in
/// the block before: with 256 rather than 512, fewer of them (0.6 at 10^6
/// on the AVX2 path: 2.48 s against 2.86 s, medians of three alternate
/// runs). With 128, the two threads wait on each other more often: 0.6 to
/// 3·10^6 on two cores took 2.75–2.78 s against 2.51–2.57 s (Intel Xeon,
/// family 6 model 207).
const BLOCK: usize = 256;

/// Heaps per block on one thread, which marks each block through every
/// partner below it, so that only the partners inside the block are left
/// to mark heap by heap: with 128 rather than 256, a heap has about half
/// as many of them (Officers: 31 rare heaps below 128, 51 below 256).
/// `grundy seq 0.6 --to 2000000 --json` on one core took 2.23–2.28 s
/// against 2.45–2.47 s (avx512), 2.45–2.52 s against 2.64–2.68 s (avx2)
/// and 3.00–3.03 s against 3.13–3.22 s (portable), Intel Xeon, family 6
/// model 207; 64 did no better.
const BLOCK_ALONE: usize = 128;

/// Heaps computed plainly before a split is first considered.
const FIRST_REVIEW: usize = 1 << 10;

/// While rare heaps keep turning up, the split is chosen again each time
/// the table has grown by this fraction of itself ([`Engine::review`]).
const REVIEW_GROWTH: usize = 8;

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
            rare_at_review: 0,
            counts: ValueCounts::default(),
            plain_only: false,
            parallel_from: PARALLEL_FROM,
            helper: crate::search::default_threads() >= 2,
            vector: Vector::on(Path::default_path()),
            small: true,
            // Only where the system takes memory back (see `packed`).
            packing: cfg!(target_os = "linux").then_some((packed::PREFIX, packed::WINDOW)),
            next_pack: 0,
            candidates: compared::CANDIDATES,
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
    /// [`PROGRESS_STEP`] heaps (every 1024 for codes with three-heap moves)
    /// with the number of heaps done; returning
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
        // Worked out once, not per heap; both are powers of two, so the
        // test below is a mask.
        let step = if self.rules.triples.is_empty() {
            PROGRESS_STEP
        } else {
            TRIPLE_PROGRESS_STEP
        };
        let triples = !self.plain_only && !self.rules.triples.is_empty() && !self.rules.unequal;
        while self.values.len() <= n {
            let heap = self.values.len();
            if heap >= self.next_review && !self.plain_only {
                self.review();
            }
            if heap >= self.next_pack && !self.plain_only {
                self.pack();
            }
            if self.small && self.work.bound <= 64 && self.split.is_some() {
                // Back here at every progress step and review.
                let step_end = (heap / PROGRESS_STEP + 1) * PROGRESS_STEP;
                let limit = (n + 1)
                    .min(self.next_review.max(heap + 1))
                    .min(self.next_pack.max(heap + 1))
                    .min(step_end);
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
                let limit = (n + 1)
                    .min(self.next_review.max(heap + 1))
                    .min(self.next_pack.max(heap + 1))
                    .min(step_end);
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
                        far: match &self.values {
                            Values::Packed(p) => Some(p.far()),
                            _ => None,
                        },
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
                        Values::Packed(p) => fixed!(&p.table),
                    }
                }
                // No split, or values too large for the register bitsets.
                _ => {
                    // The plain loops read every heap below.
                    self.values.unpack();
                    self.work.stats.plain_heaps += 1;
                    let (rules, work) = (&self.rules, &mut self.work);
                    // The plain engine keeps the definition's cubic loop:
                    // the reference the faster one is tested against.
                    match (&self.values, triples) {
                        (Values::Narrow(t), true) => triple_value(rules, heap, t, work),
                        (Values::Wide(t), true) => triple_value(rules, heap, t, work),
                        (Values::Narrow(t), false) => fast_plain_value(rules, heap, t, work),
                        (Values::Wide(t), false) => fast_plain_value(rules, heap, t, work),
                        (Values::Packed(_), _) => unreachable!("unpacked above"),
                    }
                }
            };
            self.push_value(heap, value);
            if (heap + 1) & (step - 1) == 0 && progress(heap + 1).is_break() {
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    }

    /// Chooses the split for the values so far, and when to look again:
    /// when the table has doubled, or grown by an eighth if rare heaps
    /// turned up since the last review. A heap whose value is rare under
    /// the split in force is searched through every split, and values
    /// that the table had not reached at the last review are rare until
    /// the next. `0.007`'s values keep growing (past 1024 at heap
    /// 109,362), and with a review at each doubling its heaps searched in
    /// full took 2.58·10^9 of its 2.91·10^10 splits to 10^6 (0.91·10^9
    /// with a review every eighth, and the options through rare heaps 3%
    /// fewer). Games whose rare heaps stop early (Officers, `0.16`,
    /// `0.1777`) keep to doublings: each review ends a run of the loops.
    fn review(&mut self) {
        let len = self.values.len();
        let growth = if self.rare.len() > self.rare_at_review {
            len / REVIEW_GROWTH
        } else {
            len
        };
        self.next_review = (len + growth).max(FIRST_REVIEW);
        // Games that never split, or split in three, gain nothing here.
        if self.rules.splits.is_empty() || !self.rules.triples.is_empty() {
            self.split = None;
            return;
        }
        let values = &self.values;
        self.counts.count(len, |i| values.get(i));
        let (best, common) = match choose_split(&self.rules, &self.counts) {
            Some(split) => (Some(split), parity_words(split.mask)),
            None => match choose_sum_free(&self.counts) {
                Some((split, common)) => (Some(split), common),
                None => (None, parity_words(0)),
            },
        };
        // The choice is greedy (a sum-free set) and may leave more rare
        // heaps than the split in force: then that one stays. A split is
        // chosen only for values the counts hold, so they tell how many
        // heaps it leaves rare.
        let changed = best != self.split || common != self.odd;
        let worse = changed
            && match (best, self.split) {
                (Some(split), Some(_)) => {
                    let rare = |parity, v| rare_under(&split, &common, parity, v);
                    self.counts.heaps_where(rare) >= self.rare.len()
                }
                _ => false,
            };
        if changed && !worse {
            // The new rare heaps may pair with packed ones.
            self.values.unpack();
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
        self.rare_at_review = self.rare.len();
    }

    /// The instruction path in force.
    pub fn path(&self) -> Path {
        self.vector.path
    }

    /// Runs every part on `path` from now on; an error (and no change)
    /// when this processor cannot run it.
    pub fn set_path(&mut self, path: Path) -> Result<(), String> {
        if !path.supported() {
            return Err(format!(
                "the {path} instruction path is not supported by this processor"
            ));
        }
        self.vector = Vector::on(path);
        Ok(())
    }

    /// Timing aid: no vector code at all, as [`Path::Portable`].
    pub fn scalar_search(&mut self) {
        self.vector = Vector::on(Path::Portable);
    }

    /// Testing aid: the path's marks with the portable search.
    pub fn scalar_search_only(&mut self) {
        self.vector.search = Path::Portable;
        self.small = false;
    }

    /// Timing aid: portable marks through rare heaps, the path's search.
    pub fn scalar_marks(&mut self) {
        self.vector.marks = Path::Portable;
    }

    /// Testing aid: the general vector paths even for values below 64.
    pub fn no_small_run(&mut self) {
        self.small = false;
    }

    /// Packs the middle of the table from `prefix` heaps on, keeping the
    /// last `window` heaps in two-byte cells (both at least 1024); `None`:
    /// never. For tests: by default (on Linux) long tables are packed from
    /// heap 2^22 on, with the last 2^22 heaps in cells ([`Packed`]).
    pub fn pack_with(&mut self, limits: Option<(usize, usize)>) {
        self.packing = limits.map(|(p, w)| (p.max(1024), w.max(1024)));
        if self.packing.is_none() {
            self.values.unpack();
        }
    }

    /// Heaps between two calls of [`Engine::pack`]: fewer than a quarter
    /// of the packing's prefix, so that a rare heap found among packed
    /// ones is seen before any heap pairs it with a byte.
    fn pack_interval(&self) -> usize {
        match self.packing {
            Some((prefix, _)) => PROGRESS_STEP.min(prefix / 4),
            None => PROGRESS_STEP,
        }
    }

    /// Heaps `(lo, hi)` held as bytes, if any.
    pub fn packed_range(&self) -> Option<(usize, usize)> {
        match &self.values {
            Values::Packed(p) => Some((p.lo, p.hi)),
            _ => None,
        }
    }

    /// Packs more of the table where it can (see [`Packed`]), and unpacks
    /// it where the loops could now read its bytes.
    fn pack(&mut self) {
        let len = self.values.len();
        self.next_pack = len + self.pack_interval();
        let last_rare = self.rare.last().map_or(0, |&r| r as usize);
        // A rare heap among the packed ones would pair with their bytes
        // (within `lo` heaps of it, more than a progress step).
        if let Values::Packed(p) = &self.values {
            if last_rare >= p.lo {
                self.values.unpack();
            }
        }
        let (Some((prefix, window)), Some(split)) = (self.packing, self.split) else {
            return;
        };
        if !packed::bytes_hold(&split) || self.work.bound > 512 {
            return;
        }
        let lo = prefix.max(last_rare + 1);
        // Every rare heap's partner for heaps from `len` on is at least
        // `len - 1 - last_rare`, above `to`.
        let Some(to) = len.checked_sub(window.max(lo) + 1) else {
            return;
        };
        if let Values::Narrow(_) = &self.values {
            if to < lo {
                return;
            }
            let Values::Narrow(table) = std::mem::take(&mut self.values) else {
                unreachable!("matched above")
            };
            let chunk = packed::CHUNK.min(prefix / 2);
            self.values =
                Values::Packed(Box::new(Packed::new(table, lo, split.mask as u16, chunk)));
        }
        let odd = &self.odd;
        if let Values::Packed(p) = &mut self.values {
            if p.worth(to) {
                let fits = p.extend(to, |heap, v| !rare_under(&split, odd, heap, v));
                if !fits {
                    // A value a byte cannot hold: the bytes end there.
                    self.packing = None;
                }
            }
        }
    }

    /// Testing aid: use the block path from heap `from` on.
    pub fn parallel_from(&mut self, from: usize) {
        self.parallel_from = from;
    }

    /// Computes blocks on one thread (`false`) or with a helper thread
    /// (`true`). The default is a helper when `GRUNDY_THREADS` (or, unset,
    /// the processor) allows two threads or more.
    pub fn block_helper(&mut self, helper: bool) {
        self.helper = helper;
    }

    /// Compares the options through rare heaps with at most `candidates`
    /// values a heap (rounded up to a few, at most 32) where the block path
    /// can, instead of marking them all; 0: always marks them. For tests:
    /// by default the block path compares with up to 32 (with a helper
    /// thread, only while the helper marks through every rare heap).
    pub fn compare_with(&mut self, candidates: usize) {
        self.candidates = candidates.min(compared::CANDIDATES);
    }

    /// Computes heaps from the next one up to `limit` (exclusive) in
    /// blocks: for every heap of a block, the options through rare heaps
    /// whose partner is older than the block before are marked block-wise,
    /// by a helper thread while this one finishes the block before (or by
    /// this thread once it is done, with one thread).
    /// This thread then adds the options through the few remaining rare heaps,
    /// takes the mex and searches for wanted values exactly as on one thread:
    /// nothing is guessed. Returns the number of heaps added, 0 when the
    /// block path does not apply (few rare heaps, few heaps left).
    fn parallel_block(&mut self, limit: usize) -> usize {
        let start = self.values.len();
        let bound = self.work.bound;
        let worth = self.rare.len() >= 64 || self.parallel_from == 0;
        let Some(split) = self.split else { return 0 };
        let (table, far) = match &mut self.values {
            Values::Narrow(table) => (table, None),
            Values::Packed(p) => {
                let (table, far) = p.parts();
                (table, Some(far))
            }
            Values::Wide(_) => return 0,
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
            far,
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
                    self.helper,
                    self.candidates,
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
            match self.vector {
                Vector {
                    path,
                    marks,
                    search,
                } if marks == path && search == path => path,
                _ => Path::Portable,
            },
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
    /// The packed heaps of the table, if any: searches read them from here.
    far: Option<packed::Far<'a>>,
}

impl RareSplit<'_> {
    /// Whether heap `heap` with value `value` is rare under the split.
    #[inline]
    fn is_rare(&self, heap: usize, value: u32) -> bool {
        rare_under(&self.split, self.odd, heap, value)
    }
}

/// The values that are common at even heaps and at odd heaps under the split
/// the engine would choose for heaps `0..len` (up to the largest value among
/// them), or `None` when the code never splits in two or its values are not
/// sparse. A certificate lists them so that its checker needs only the
/// splits through rare heaps (see [`crate::certificate`]).
pub fn common_values(
    rules: &TakeBreak,
    len: usize,
    value: impl Fn(usize) -> u32,
) -> Option<[Vec<u32>; 2]> {
    if rules.splits.is_empty() {
        return None;
    }
    let counts = ValueCounts::of(len, &value);
    let (split, odd) = match choose_split(rules, &counts) {
        Some(split) => (split, parity_words(split.mask)),
        None => choose_sum_free(&counts)?,
    };
    // Below MAX_RARE_BOUND: a wider value leaves no split (above).
    let max = counts.max().unwrap_or(MAX_RARE_BOUND - 1);
    Some([0, 1].map(|parity| {
        (0..=max)
            .filter(|&v| !rare_under(&split, &odd, parity, v))
            .collect()
    }))
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
