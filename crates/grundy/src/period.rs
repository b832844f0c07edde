//! Periodicity of heap games, found in a table of values and *proven*.
//!
//! A sequence G(0), G(1), ... is (arithmetic-)periodic with preperiod `e`,
//! period `p` and saltus `s` when G(n + p) = G(n) + s for every n >= e. A
//! table of values only ever shows that this holds *so far*; what turns an
//! observation into a proof is a theorem about the game:
//!
//! - a finite subtraction game's next value depends only on the last max(S)
//!   values, so once a window of max(S) consecutive values repeats, the whole
//!   sequence repeats from there on ([`PeriodRule::Window`]);
//! - for a take-and-break game that removes at most `t` tokens and leaves at
//!   most two heaps, the Guy-Smith periodicity theorem (Guy and Smith 1956;
//!   *Winning Ways*, ch. 4) says that G(n + p) = G(n) for e <= n < 2e + p + t - 1
//!   implies it for all n >= e, where the e of the window is at least 1 (a
//!   part shortened by p must stay a heap). The same argument with three
//!   parts (the largest part of a three-way split of n - k is at least
//!   (n - k)/3) needs the check up to 3e + 2p + t - 2
//!   ([`PeriodRule::TakeBreak`], [`guy_smith_window`]);
//! - some families have a closed form ([`PeriodRule::Known`]).
//!
//! Finding the candidate: the smallest preperiod is the start of the longest
//! suffix of the table that is periodic with a period the theorem can
//! confirm. The prefix function (Knuth-Morris-Pratt) of the *reversed* table
//! gives the smallest period of every suffix in one linear pass.

/// The most heaps `grundy period` tabulates unless told otherwise.
pub const DEFAULT_MAX: u64 = 1 << 26;

/// The same for codes whose moves leave three heaps: their heaps cost O(n)
/// each at best (O(n · V / 64) for values below V), so the default that
/// other games take would not finish (`hex:0.F8` to heap 4095 takes about
/// a second; its values grow about as 2n/3).
pub const DEFAULT_MAX_THREE_HEAPS: u64 = 1 << 12;

/// How a period of a heap game can be proven.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PeriodRule {
    /// No theorem applies: periods can only be observed.
    Unknown,
    /// G(n) depends only on G(n - 1), ..., G(n - window).
    Window(u64),
    /// A take-and-break game removing at most `max_take` tokens and leaving at
    /// most `parts` heaps (2 or 3): the Guy-Smith theorem.
    TakeBreak {
        /// The most tokens a move removes.
        max_take: u64,
        /// The most heaps a move leaves.
        parts: u32,
    },
    /// The periodicity is known in closed form; `source` cites it.
    Known(Periodicity, &'static str),
}

/// G(n) = block[(n - e) mod p] + saltus * floor((n - e) / p) for n >= e.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Periodicity {
    /// The preperiod e: the first heap from which the pattern holds.
    pub preperiod: u64,
    /// The period p.
    pub period: u64,
    /// The saltus s (0 for ordinary periodicity).
    pub saltus: u64,
    /// G(e), ..., G(e + p - 1).
    pub block: Vec<u32>,
    /// The values before the preperiod, G(0), ..., G(e - 1).
    pub prefix: Vec<u32>,
}

impl Periodicity {
    /// The value of heap `n` (any size) under this periodicity.
    pub fn value(&self, n: &num_bigint::BigUint) -> num_bigint::BigUint {
        use num_traits::ToPrimitive;
        let e = num_bigint::BigUint::from(self.preperiod);
        if *n < e {
            let i = n.to_usize().expect("below the preperiod");
            return self.prefix[i].into();
        }
        let offset = n - &e;
        let p = num_bigint::BigUint::from(self.period);
        let index = (&offset % &p).to_usize().expect("below the period");
        let cycles = offset / p;
        num_bigint::BigUint::from(self.block[index]) + cycles * self.saltus
    }

    /// Appends [`Periodicity::value_u64`] of heaps `from`, `from + 1`, ...
    /// (`count` of them, all at most `u64::MAX`) to `out`, a block's run at
    /// a time instead of a division per heap.
    pub fn extend_values(&self, from: u64, count: usize, out: &mut Vec<u64>) {
        let mut left = count;
        let mut n = from;
        while left > 0 && n < self.preperiod {
            out.push(u64::from(self.prefix[n as usize]));
            n += 1;
            left -= 1;
        }
        if left == 0 {
            return;
        }
        let offset = n - self.preperiod;
        let mut i = (offset % self.period) as usize;
        let mut rise = self.saltus * (offset / self.period);
        while left > 0 {
            let take = (self.block.len() - i).min(left);
            out.extend(self.block[i..i + take].iter().map(|v| u64::from(*v) + rise));
            left -= take;
            i = 0;
            if left > 0 {
                rise += self.saltus;
            }
        }
    }

    /// The value of heap `n` when it fits in a machine word.
    pub fn value_u64(&self, n: u64) -> u64 {
        if n < self.preperiod {
            return self.prefix[n as usize] as u64;
        }
        let offset = n - self.preperiod;
        self.block[(offset % self.period) as usize] as u64 + self.saltus * (offset / self.period)
    }
}

/// What `grundy period` reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PeriodReport {
    /// The periodicity found, proven or only observed.
    pub periodicity: Option<Periodicity>,
    /// Whether a theorem confirms it for all heaps.
    pub proven: bool,
    /// How it is known, in words.
    pub method: String,
    /// Heaps tabulated (0 when a closed form was used).
    pub checked_to: u64,
}

/// For each suffix length `l` (1..=len), the smallest period of the last `l`
/// values: `result[l - 1]`. Linear time (prefix function of the reversal).
pub fn suffix_periods(len: usize, value: impl Fn(usize) -> u32) -> Vec<u32> {
    let rev = |i: usize| value(len - 1 - i);
    let mut border = vec![0u32; len];
    for i in 1..len {
        let mut k = border[i - 1] as usize;
        while k > 0 && rev(i) != rev(k) {
            k = border[k - 1] as usize;
        }
        if rev(i) == rev(k) {
            k += 1;
        }
        border[i] = k as u32;
    }
    for (i, b) in border.iter_mut().enumerate() {
        *b = (i as u32 + 1) - *b;
    }
    border
}

/// [`suffix_periods`] of a slice (its reference): the same prefix function,
/// several times faster without the indirection, for tables of millions.
pub fn suffix_periods_of<T: Copy + Eq>(values: &[T]) -> Vec<u32> {
    let len = values.len();
    let mut border = vec![0u32; len];
    if len == 0 {
        return border;
    }
    // Index i of the reversal is values[last - i].
    let last = len - 1;
    let mut k = 0usize;
    for i in 1..len {
        let x = values[last - i];
        while k > 0 && x != values[last - k] {
            k = border[k - 1] as usize;
        }
        if x == values[last - k] {
            k += 1;
        }
        border[i] = k as u32;
    }
    for (i, b) in border.iter_mut().enumerate() {
        *b = (i as u32 + 1) - *b;
    }
    border
}

/// The suffixes of `values` that hold their smallest period at least
/// twice, without a word per value: `(p, l)` for every p such that the last
/// 2p values have smallest period p, with `l` (at least 2p) the longest
/// suffix of period p, in increasing p. These are all that a take-and-break
/// proof or an observation can use: the Guy-Smith window makes a proven
/// suffix at least twice its period, and an observed one repeats three
/// times. A suffix of length l >= 2p with period p has smallest period p
/// exactly when its last 2p values do (Fine and Wilf: two periods whose
/// sum fits in a string make their gcd a period too), so the suffixes of
/// smallest period p are those from 2p to l long.
///
/// The same theorem skips most candidates: once a suffix of length l has
/// period q, no p with q < p <= l / 2 can be a smallest period of the last
/// 2p values, and a multiple p of q below l matches over the last l - p
/// values without comparing them. Every other p costs one comparison and
/// one more per value it matches, so a table whose values do not repeat
/// costs about one comparison a value. `None` when that would take more than `budget`
/// comparisons.
pub fn square_suffixes<T: Copy + Eq>(values: &[T], budget: u64) -> Option<Vec<(usize, usize)>> {
    // Runs of equal values compared slice against slice.
    let run = |top: usize, below: usize| {
        values[..top]
            .iter()
            .rev()
            .zip(values[..below].iter().rev())
            .take_while(|(x, y)| x == y)
            .count()
    };
    squares(values.len(), |i| values[i], run, budget)
}

/// [`square_suffixes`] of the `len` values `value(0..len)`.
pub fn square_suffixes_by<T: Eq>(
    len: usize,
    value: impl Fn(usize) -> T,
    budget: u64,
) -> Option<Vec<(usize, usize)>> {
    let run = |top: usize, below: usize| {
        let mut equal = 0;
        while equal < below && value(top - 1 - equal) == value(below - 1 - equal) {
            equal += 1;
        }
        equal
    };
    squares(len, &value, run, budget)
}

/// [`square_suffixes`], with `run(top, below)` the number of values
/// before `below` equal to those before `top`, going down.
fn squares<T: Eq>(
    len: usize,
    value: impl Fn(usize) -> T,
    run: impl Fn(usize, usize) -> usize,
    budget: u64,
) -> Option<Vec<(usize, usize)>> {
    let mut found = Vec::new();
    let mut work = 0u64;
    // The longest suffix with a period found so far.
    let mut reach = 0usize;
    let mut p = 1;
    while 2 * p <= len {
        if 2 * p <= reach {
            p = reach / 2 + 1;
            continue;
        }
        // How many values from the end on equal the value p before them.
        let mut matched = 0;
        if value(len - 1) == value(len - 1 - p) {
            // Where a period q found already divides p, its whole suffix
            // matches: the comparisons start past it. (A preperiod that is
            // nearly periodic would otherwise cost a pass per multiple.)
            let known = found
                .iter()
                .filter(|&&(q, l)| p.is_multiple_of(q) && l > p)
                .map(|&(_, l)| l - p)
                .max()
                .unwrap_or(0);
            let compared = run(len - known, len - p - known);
            work += compared as u64;
            matched = known + compared;
        }
        work += 1;
        if work > budget {
            return None;
        }
        if matched >= p {
            found.push((p, p + matched));
            reach = reach.max(p + matched);
        }
        p += 1;
    }
    Some(found)
}

/// The periods of a table's suffixes, as much of them as a proof or an
/// observation needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SuffixPeriods {
    /// The smallest period of every suffix ([`suffix_periods_of`]): four
    /// bytes a value. Proofs through a window of moves need them all.
    All(Vec<u32>),
    /// Only the suffixes at least twice their smallest period, as
    /// [`square_suffixes`] lists them: enough for take-and-break proofs
    /// and for observations, in a few words.
    Squares(Vec<(usize, usize)>),
}

/// Tables up to this long fall back to the border array when the squares
/// would take long to find; longer ones keep looking for them, since the
/// border array would take four bytes a value.
const BORDER_FALLBACK: usize = 1 << 24;

/// The comparisons [`square_suffixes`] may take on `len` values before the
/// border array is taken instead.
fn square_budget(len: usize) -> u64 {
    match len {
        len if len > BORDER_FALLBACK => u64::MAX,
        len => 8 * len as u64 + 1024,
    }
}

impl SuffixPeriods {
    /// [`SuffixPeriods::of`] the `len` values `value(0..len)`, read in
    /// place (copied only for the border array).
    pub fn of_by(len: usize, value: impl Fn(usize) -> u32, rule: &PeriodRule) -> Self {
        if matches!(rule, PeriodRule::TakeBreak { .. } | PeriodRule::Unknown) {
            if let Some(found) = square_suffixes_by(len, &value, square_budget(len)) {
                return SuffixPeriods::Squares(found);
            }
        }
        let values: Vec<u32> = (0..len).map(value).collect();
        SuffixPeriods::All(suffix_periods_of(&values))
    }

    /// What `rule` needs of the suffix periods of `values`.
    pub fn of<T: Copy + Eq>(values: &[T], rule: &PeriodRule) -> Self {
        if matches!(rule, PeriodRule::TakeBreak { .. } | PeriodRule::Unknown) {
            if let Some(found) = square_suffixes(values, square_budget(values.len())) {
                return SuffixPeriods::Squares(found);
            }
        }
        SuffixPeriods::All(suffix_periods_of(values))
    }
}

/// [`attempt_from`] with whichever [`SuffixPeriods`] are at hand (the
/// squares only for take-and-break rules, for which they suffice).
pub fn attempt_with(
    len: usize,
    value: impl Fn(usize) -> u32,
    rule: &PeriodRule,
    periods: &SuffixPeriods,
) -> Attempt {
    let found = match periods {
        SuffixPeriods::All(periods) => return attempt_from(len, value, rule, periods),
        SuffixPeriods::Squares(found) => found,
    };
    assert!(
        matches!(rule, PeriodRule::TakeBreak { .. }),
        "squares prove only take-and-break periods"
    );
    // Within the suffixes of one smallest period the longest is the best
    // (a shorter one has a longer preperiod), so only those are tried.
    let proven = found
        .iter()
        .filter(|&&(p, l)| {
            values_needed(rule, (len - l) as u64, p as u64).is_some_and(|n| n <= len as u64)
        })
        .max_by_key(|(_, l)| *l);
    if let Some(&(p, l)) = proven {
        return Attempt::Proven(periodicity_at(&value, (len - l) as u64, p as u64));
    }
    // The longest suffix that repeats at least twice: what a longer table
    // would prove.
    let guess = found
        .iter()
        .max_by_key(|(_, l)| *l)
        .and_then(|&(p, l)| values_needed(rule, (len - l) as u64, p as u64));
    Attempt::NotYet(guess)
}

/// [`observe_from`] with whichever [`SuffixPeriods`] are at hand.
pub fn observe_with(
    len: usize,
    value: impl Fn(usize) -> u32,
    periods: &SuffixPeriods,
) -> Option<Periodicity> {
    let found = match periods {
        SuffixPeriods::All(periods) => return observe_from(len, value, periods),
        SuffixPeriods::Squares(found) => found,
    };
    found
        .iter()
        .filter(|&&(p, l)| l >= 3 * p && 2 * l >= len)
        .max_by_key(|(_, l)| *l)
        .map(|&(p, l)| periodicity_at(&value, (len - l) as u64, p as u64))
}

/// The periodicity with preperiod `e` and period `p` that `value` shows.
fn periodicity_at(value: impl Fn(usize) -> u32, e: u64, p: u64) -> Periodicity {
    Periodicity {
        preperiod: e,
        period: p,
        saltus: 0,
        block: (e..e + p).map(|i| value(i as usize)).collect(),
        prefix: (0..e).map(|i| value(i as usize)).collect(),
    }
}

/// The end of the Guy-Smith window: G(n + p) = G(n) for `e <= n <` this
/// proves periodicity from `e` for a take-and-break game removing at most
/// `t` tokens and leaving at most `parts` heaps.
///
/// Induction on N at least the window's end: an option of N + p whose parts
/// sum to N + p - k >= 2e' + 2p - 1 has a part of at least e' + p, which
/// shortened by p gives an option of N of the same value, and conversely a
/// part of at least e' of an option of N lengthened by p gives one of N + p
/// (three parts: sums of at least 3e' + 3p - 2 and 3e' + 2p - 2). Here
/// e' = max(e, 1): a shortened part must still be a heap, or a one-heap
/// option of N + p would map to emptying heap N, which is another move.
pub fn guy_smith_window(e: u64, p: u64, t: u64, parts: u32) -> u64 {
    let e = e.max(1);
    if parts <= 2 {
        2 * e + p + t - 1
    } else {
        3 * e + 2 * p + t - 2
    }
}

/// How many values `rule` needs to prove preperiod `e` and period `p`.
pub fn values_needed(rule: &PeriodRule, e: u64, p: u64) -> Option<u64> {
    match rule {
        PeriodRule::Window(w) => Some(e + p + w),
        PeriodRule::TakeBreak { max_take, parts } => {
            Some(guy_smith_window(e, p, *max_take, *parts) + p)
        }
        PeriodRule::Unknown | PeriodRule::Known(..) => None,
    }
}

/// The outcome of one attempt at a proof.
pub enum Attempt {
    /// Proven.
    Proven(Periodicity),
    /// Not proven; if the values look periodic, how many values a proof of
    /// what they show would need.
    NotYet(Option<u64>),
}

/// Like [`prove`], but when it fails, also says how far to tabulate to prove
/// the periodicity the values show so far (a suffix repeating twice).
pub fn attempt(len: usize, value: impl Fn(usize) -> u32, rule: &PeriodRule) -> Attempt {
    attempt_from(len, &value, rule, &suffix_periods(len, &value))
}

/// [`attempt`] with the [`suffix_periods`] of the values already at hand.
pub fn attempt_from(
    len: usize,
    value: impl Fn(usize) -> u32,
    rule: &PeriodRule,
    periods: &[u32],
) -> Attempt {
    if let Some(found) = prove_from(len, &value, rule, periods) {
        return Attempt::Proven(found);
    }
    let guess = (1..=len).rev().find_map(|l| {
        let p = periods[l - 1] as u64;
        (l as u64 >= 2 * p).then(|| values_needed(rule, (len - l) as u64, p))
    });
    Attempt::NotYet(guess.flatten())
}

/// The smallest (preperiod, period) that `rule` proves from the first `len`
/// values, if any.
pub fn prove(len: usize, value: impl Fn(usize) -> u32, rule: &PeriodRule) -> Option<Periodicity> {
    prove_from(len, &value, rule, &suffix_periods(len, &value))
}

/// [`prove`] with the [`suffix_periods`] of the values already at hand.
pub fn prove_from(
    len: usize,
    value: impl Fn(usize) -> u32,
    rule: &PeriodRule,
    periods: &[u32],
) -> Option<Periodicity> {
    assert_eq!(periods.len(), len, "periods of other values");
    // The window G[e..e+w) must be seen again at e + p; the Guy-Smith check
    // for e <= m < bound reads values up to bound - 1 + p.
    let condition = |e: u64, p: u64| -> bool {
        values_needed(rule, e, p).is_some_and(|needed| needed <= len as u64)
    };
    // The longest suffix whose smallest period the theorem confirms.
    for l in (1..=len).rev() {
        let e = (len - l) as u64;
        let p = periods[l - 1] as u64;
        if condition(e, p) {
            return Some(periodicity_at(&value, e, p));
        }
    }
    None
}

/// An unproven guess: the longest suffix that repeats at least three times
/// and spans at least half the table (shorter stretches prove nothing and
/// mislead, like the long constant runs of divide games).
pub fn observe(len: usize, value: impl Fn(usize) -> u32) -> Option<Periodicity> {
    observe_from(len, &value, &suffix_periods(len, &value))
}

/// [`observe`] with the [`suffix_periods`] of the values already at hand.
pub fn observe_from(
    len: usize,
    value: impl Fn(usize) -> u32,
    periods: &[u32],
) -> Option<Periodicity> {
    assert_eq!(periods.len(), len, "periods of other values");
    (1..=len).rev().find_map(|l| {
        let p = periods[l - 1] as usize;
        (l >= 3 * p && 2 * l >= len).then(|| periodicity_at(&value, (len - l) as u64, p as u64))
    })
}

/// A sparse class of values found in a sequence: the values `v` for which
/// `v & mask` has an even number of 1 bits.
///
/// Many octal games' values split this way into *common* values (odd parity:
/// a sum-free class, since the XOR of two of them is even) and *rare* ones,
/// which occur seldom or only finitely often (Gangolli and Plambeck, "A note
/// on periodicity in some octal games", 1989). Kayles' values beyond its
/// preperiod are 1, 2, 4, 7 and 8, all odd under the mask 15. The mask is
/// found by experiment, as here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RareClass {
    /// The parity mask.
    pub mask: u32,
    /// How many values of the sequence are rare.
    pub count: u64,
}

impl RareClass {
    /// Whether `value` is rare.
    pub fn is_rare(&self, value: u32) -> bool {
        (value & self.mask).count_ones().is_multiple_of(2)
    }
}

/// The sparsest even-parity class of `values` over every mask below the
/// next power of two above the largest value (at most 2^20), if it holds at
/// most one value in 20 (and the sequence has at least 100 values): the rare
/// values as the literature marks them (Officers, 0.6, needs the mask 0x1ee).
///
/// The number of even-parity values under every mask at once is half the
/// count plus the Walsh-Hadamard transform of the value histogram; among
/// masks with the fewest, the smallest is taken. Values of 2^20 and more
/// count by their low 20 bits, which is exactly what those masks need.
pub fn rare_class(values: &[u32]) -> Option<RareClass> {
    const MAX_BITS: u32 = 20;
    if values.len() < 100 {
        return None;
    }
    let largest = values.iter().copied().max().unwrap_or(0);
    let bits = (32 - largest.leading_zeros()).clamp(1, MAX_BITS);
    let size = 1usize << bits;
    let mut transform = vec![0i64; size];
    for &v in values {
        transform[v as usize & (size - 1)] += 1;
    }
    let mut half = 1;
    while half < size {
        for block in transform.chunks_exact_mut(2 * half) {
            let (low, high) = block.split_at_mut(half);
            for (a, b) in low.iter_mut().zip(high.iter_mut()) {
                let (x, y) = (*a, *b);
                *a = x + y;
                *b = x - y;
            }
        }
        half *= 2;
    }
    let total = values.len() as i64;
    let mut best: Option<RareClass> = None;
    for (mask, t) in transform.iter().enumerate().skip(1) {
        // Even parity under the mask: (total + transform) / 2.
        let count = ((total + t) / 2) as u64;
        if count > 0 && best.is_none_or(|b| count < b.count) {
            best = Some(RareClass {
                mask: mask as u32,
                count,
            });
        }
    }
    best.filter(|b| b.count * 20 <= values.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::octal::TakeBreakGame;
    use crate::games::subtraction::Subtraction;
    use crate::heap::{HeapGame, HeapTable};
    use proptest::prelude::*;

    fn table<H: HeapGame>(game: &H, n: usize) -> Vec<u32> {
        let mut t = HeapTable::new();
        t.extend_to(game, n);
        t.to_vec()
    }

    fn octal(code: &str) -> TakeBreakGame {
        TakeBreakGame::parse(code, false, code, 0).unwrap()
    }

    #[test]
    fn suffix_periods_of_slices_by_hand() {
        let v = [5u16, 1, 2, 1, 2, 1, 2];
        assert_eq!(suffix_periods_of(&v), [1, 2, 2, 2, 2, 2, 7]);
        assert!(suffix_periods_of::<u16>(&[]).is_empty());
    }

    proptest! {
        #[test]
        fn values_in_runs_are_the_values_one_by_one(
            prefix in proptest::collection::vec(0u32..9, 0..12),
            block in proptest::collection::vec(0u32..9, 1..12),
            saltus in 0u64..4,
            from in prop_oneof![0u64..200, (u64::MAX - 300)..=u64::MAX],
            count in 0usize..300,
        ) {
            // A saltus raises values with the heap: only small heaps then.
            let from = if saltus > 0 { from % 200 } else { from };
            // Heaps up to u64::MAX only.
            let count = count.min((u64::MAX - from).saturating_add(1).min(300) as usize);
            let periodicity = Periodicity {
                preperiod: prefix.len() as u64,
                period: block.len() as u64,
                saltus,
                block,
                prefix,
            };
            let mut got = vec![7];
            periodicity.extend_values(from, count, &mut got);
            let expected: Vec<u64> = std::iter::once(7)
                .chain((0..count as u64).map(|i| periodicity.value_u64(from + i)))
                .collect();
            prop_assert_eq!(got, expected);
        }

        #[test]
        fn suffix_periods_of_slices_agree_with_the_reference(
            values in proptest::collection::vec(0u32..3, 0..300),
        ) {
            prop_assert_eq!(
                suffix_periods_of(&values),
                suffix_periods(values.len(), |i| values[i])
            );
        }
    }

    /// Sequences that are periodic from somewhere, with a few values after
    /// the pattern breaks: random prefixes and blocks over small alphabets,
    /// or the block from the start with a few values changed (a preperiod
    /// that nearly repeats, as 0.354's does).
    fn eventually_periodic() -> impl Strategy<Value = Vec<u32>> {
        (
            1u32..5,
            proptest::collection::vec(0u32..5, 0..40),
            proptest::collection::vec(0u32..5, 1..12),
            0usize..200,
            proptest::collection::vec(0u32..5, 0..3),
            proptest::collection::vec((0usize..40, 0u32..5), 0..4),
            any::<bool>(),
        )
            .prop_map(|(alphabet, prefix, block, length, tail, changes, near)| {
                let mut values: Vec<u32> = if near {
                    let mut start: Vec<u32> =
                        (0..prefix.len()).map(|i| block[i % block.len()]).collect();
                    for (i, v) in changes {
                        if let Some(x) = start.get_mut(i) {
                            *x = v;
                        }
                    }
                    start
                } else {
                    prefix
                };
                let start = values.len();
                values.extend((0..length).map(|i| block[(i + start) % block.len()]));
                values.extend(tail);
                values.iter().map(|v| v % alphabet).collect()
            })
    }

    /// The square suffixes read off every suffix's period: the reference.
    fn squares_by_border(values: &[u32]) -> Vec<(usize, usize)> {
        let periods = suffix_periods_of(values);
        let mut found: Vec<(usize, usize)> = Vec::new();
        for l in 1..=values.len() {
            let p = periods[l - 1] as usize;
            if l >= 2 * p {
                match found.iter_mut().find(|(q, _)| *q == p) {
                    Some(entry) => entry.1 = entry.1.max(l),
                    None => found.push((p, l)),
                }
            }
        }
        found.sort();
        found
    }

    #[test]
    fn square_suffixes_by_hand() {
        // 5 1 2 1 2 1 2: the last 4 and 6 values repeat 2 1 / 1 2; the
        // last two (1 2) do not repeat.
        let v = [5u32, 1, 2, 1, 2, 1, 2];
        assert_eq!(square_suffixes(&v, u64::MAX), Some(vec![(2, 6)]));
        // Constant runs: period 1 over the whole run.
        assert_eq!(square_suffixes(&[7u32; 9], u64::MAX), Some(vec![(1, 9)]));
        assert_eq!(square_suffixes::<u32>(&[], u64::MAX), Some(vec![]));
        // Too little budget says so rather than answering.
        assert_eq!(square_suffixes(&[7u32; 9], 3), None);
    }

    proptest! {
        #[test]
        fn square_suffixes_agree_with_every_suffix_period(values in eventually_periodic()) {
            prop_assert_eq!(square_suffixes(&values, u64::MAX).unwrap(), squares_by_border(&values));
        }

        #[test]
        fn suffix_periods_read_in_place_are_those_of_the_slice(values in eventually_periodic()) {
            // What a packed table's values give, read one by one.
            for rule in [PeriodRule::TakeBreak { max_take: 2, parts: 2 }, PeriodRule::Window(3)] {
                prop_assert_eq!(
                    SuffixPeriods::of_by(values.len(), |i| values[i], &rule),
                    SuffixPeriods::of(&values, &rule)
                );
            }
        }

        #[test]
        fn proofs_and_observations_from_squares_agree_with_the_border_array(
            values in eventually_periodic(),
            max_take in 1u64..5,
            parts in 2u32..4,
        ) {
            let rule = PeriodRule::TakeBreak { max_take, parts };
            let len = values.len();
            let value = |i: usize| values[i];
            let all = SuffixPeriods::All(suffix_periods_of(&values));
            let squares = SuffixPeriods::Squares(square_suffixes(&values, u64::MAX).unwrap());
            let outcome = |a: Attempt| match a {
                Attempt::Proven(found) => (Some(found), None),
                Attempt::NotYet(needed) => (None, needed),
            };
            prop_assert_eq!(
                outcome(attempt_with(len, value, &rule, &squares)),
                outcome(attempt_with(len, value, &rule, &all))
            );
            prop_assert_eq!(
                observe_with(len, value, &squares),
                observe_with(len, value, &all)
            );
        }
    }

    #[test]
    fn octal_periods_from_squares_are_those_of_the_border_array() {
        // Dawson's Kayles, 0.137, Kayles and 0.16 (period 149459 from heap
        // 105351: Gangolli and Plambeck, 1989; Flammenkamp's octal table).
        for (code, n) in [
            ("0.07", 4000),
            ("0.137", 4000),
            ("0.77", 4000),
            ("0.16", 1 << 20),
        ] {
            let game = octal(code);
            let values = table(&game, n);
            let rule = game.period_rule();
            let squares = SuffixPeriods::of(&values, &rule);
            assert!(matches!(squares, SuffixPeriods::Squares(_)), "{code}");
            let light = match attempt_with(values.len(), |i| values[i], &rule, &squares) {
                Attempt::Proven(found) => (found.preperiod, found.period),
                Attempt::NotYet(_) => panic!("{code} is not proven"),
            };
            let found = prove(values.len(), |i| values[i], &rule).unwrap();
            assert_eq!(light, (found.preperiod, found.period), "{code}");
            if code == "0.16" {
                assert_eq!(light, (105351, 149459));
            }
        }
    }

    #[test]
    fn suffix_periods_by_hand() {
        let v = [5, 1, 2, 1, 2, 1, 2];
        let periods = suffix_periods(v.len(), |i| v[i]);
        assert_eq!(periods, [1, 2, 2, 2, 2, 2, 7]);
    }

    #[test]
    fn known_octal_periods() {
        // Winning Ways, ch. 4: 0.07 (Dawson's Kayles) period 34 from 53,
        // 0.137 period 34 from 52, 0.77 (Kayles) period 12 from 71.
        for (code, e, p) in [("0.07", 53, 34), ("0.137", 52, 34), ("0.77", 71, 12)] {
            let game = octal(code);
            let values = table(&game, 2000);
            let found = prove(values.len(), |i| values[i], &game.period_rule()).unwrap();
            assert_eq!((found.preperiod, found.period), (e, p), "{code}");
            // The proof needs values up to 2e + 2p + t - 2: one fewer is not enough.
            let t = game.max_take() as u64;
            let needed = (2 * e + 2 * p + t - 1) as usize;
            let enough = prove(needed, |i| values[i], &game.period_rule()).unwrap();
            assert_eq!((enough.preperiod, enough.period), (e, p), "{code}");
            assert_eq!(
                prove(needed - 1, |i| values[i], &game.period_rule()),
                None,
                "{code}"
            );
        }
    }

    /// The first repeated state of the sequence, by brute force: the reference.
    fn simulate(set: &[u64]) -> (u64, u64) {
        let w = *set.iter().max().unwrap() as usize;
        let values = table(&Subtraction::new(set.to_vec()), 4000);
        let mut seen = std::collections::HashMap::new();
        for i in 0..values.len() - w {
            if let Some(j) = seen.insert(values[i..i + w].to_vec(), i) {
                return (j as u64, (i - j) as u64);
            }
        }
        panic!("no repeat");
    }

    proptest! {
        #[test]
        fn subtraction_periods_are_the_smallest(set in proptest::collection::btree_set(1u64..12, 1..5)) {
            let set: Vec<u64> = set.into_iter().collect();
            let game = Subtraction::new(set.clone());
            let values = table(&game, 4000);
            let found = prove(values.len(), |i| values[i], &game.period_rule()).unwrap();
            let (e, p) = simulate(&set);
            prop_assert_eq!((found.preperiod, found.period), (e, p));
            for n in 0..values.len() as u64 {
                prop_assert_eq!(found.value_u64(n), values[n as usize] as u64);
            }
        }
    }

    #[test]
    fn kayles_rare_values_are_its_preperiod_values() {
        // Kayles (0.77): beyond heap 71 the values are periodic with period 12
        // and take only the values 1, 2, 4, 7 and 8 (Winning Ways; OEIS A002186).
        let mut family =
            crate::spec::parse_game("0.77", crate::family::Settings::default()).unwrap();
        let mut values = Vec::new();
        family
            .sequence(0, 5000, &mut |_, v| {
                values.push(v as u32);
                Ok(())
            })
            .unwrap();
        let class = rare_class(&values).expect("Kayles has rare values");
        for common in [1, 2, 4, 7, 8] {
            assert!(!class.is_rare(common), "{common} under {class:?}");
        }
        assert!(class.is_rare(0) && class.is_rare(3));
        assert!(class.count * 20 <= values.len() as u64);
        assert_eq!(
            values.iter().filter(|&&v| class.is_rare(v)).count() as u64,
            class.count
        );
        // Masks are not limited to a byte: 256 and 257 are common only under
        // masks with bit 8; 0x102 also makes 2 and 3 common, leaving 0 and 1.
        let mut wide = vec![256u32; 600];
        wide.extend([257; 400]);
        wide.extend([0, 1, 2, 3]);
        assert_eq!(
            rare_class(&wide),
            Some(RareClass {
                mask: 0x102,
                count: 2
            })
        );
        // The reference: count every mask one by one.
        let brute = |values: &[u32], mask: u32| {
            values
                .iter()
                .filter(|v| (*v & mask).count_ones().is_multiple_of(2))
                .count() as u64
        };
        let class = rare_class(&values).unwrap();
        assert_eq!(brute(&values, class.mask), class.count);
        assert!((1..256).all(|m| brute(&values, m) == 0 || brute(&values, m) >= class.count));
        // A sequence with every value common has no rare class, nor does a short one.
        assert_eq!(rare_class(&vec![3; 1000]), None);
        assert_eq!(rare_class(&[1, 2, 3]), None);
    }
}
