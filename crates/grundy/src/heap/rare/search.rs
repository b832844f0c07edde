//! From the marks to the value: the cheap mex, and the search of the splits
//! that confirms each wanted (rare) value below it.

use super::packed::Far;
use super::{Bits, Cell, RareSplit, Stats, MAX_RARE_BOUND};
use crate::heap::simd::{self, Path};

/// On the portable path, the first splits of the search order ([`Order`],
/// at least this many, whole spans) are marked in bytes before the search
/// proper ([`confirm`]): 0.6 at 10^6 took 3.15 s of processor time against
/// 4.66 s without (and 1.77 s against 2.37 s on 0.007 at 10^5). When the
/// splits were taken from the first one up, 2,048 did best (0.6 to 10^6 in
/// 1.93-2.00 s against 2.07-2.08 s with 1,024); in the order of three runs
/// the first 1,024 find about as many values, and 0.6 to 10^6 took 1.60 s
/// against 1.71 s with 2,048 (medians of three runs); 768 took as long as
/// 1,024 and 512 took 2.0 s (`GRUNDY_SIMD=portable octal_speed 06 1000000
/// serial`, AMD EPYC Zen 4; 0.007 alike either way).
const DENSE_SPLITS: usize = 1024;

/// The same on the AVX2 path: the first round of the search order (three
/// spans of 256). The byte tables' lookup takes a wanted value out of the
/// set one hit at a time, and early in a search most steps hit. Officers
/// (0.6) to 10^6 took 1.31-1.32 s against 1.45-1.48 s without the marks,
/// 1.32-1.34 s with 512 and 1.34-1.35 s with 1,024 (1,280: whole spans);
/// 0.007 to 300,000 took as long either way (`GRUNDY_SIMD=avx2
/// GRUNDY_THREADS=1 taskset -c 1 octal_speed CODE N serial`, Intel Xeon,
/// family 6 model 207). The AVX-512 search is better without: 1.70-1.77 s
/// against 1.24-1.27 s with 512 or 768. For values from 1024 to 2047, an
/// earlier measurement with 1,024 marks found no difference either (0.007
/// to 10^6: 16.4-19.1 s against 16.4-18.2 s without, AMD EPYC Zen 4).
const AVX2_DENSE_SPLITS: usize = 768;

/// The same on the AVX2 path for values of 2048 and more, which its byte
/// tables do not hold (measured with 1024 before the change above).
const WIDE_DENSE_SPLITS: usize = 1024;

/// More wanted values than this (the most the searches compare at once)
/// take [`DENSE_SPLITS`].
const MANY_WANTED: u32 = 8;

/// Where the runs of splits that the search takes in turns begin: the
/// splits `(a, m - a)` with `a` from 1, from 8,192 and from 65,536 (those
/// below the middle), [`TURN`] of each in turn. Small heaps' values are
/// few and repeat, large heaps' spread over the common class, and a wanted
/// value that one kind seldom makes the other often does. On Officers (0.6,
/// 120 heaps between 300,000 and 10^6), every wanted value turned up after
/// 1,526 splits on average in this order against 2,743 from the first split
/// up, and 2.1 values a heap were left after 1,024 splits against 8.4
/// (2.2 after 2,048). Runs from 1, 2,048, 16,384 and 131,072 did almost as
/// well (1,618), runs from 1 and 4,096 worse (2,381).
const RUNS: [usize; 3] = [1, 8192, 65536];

/// Splits of a run taken in its first turn: 32 to 256 gave the same
/// counts, 512 left more values after the first 1,024. Each round of turns
/// takes twice as many as the one before (up to 2^16), so that a search
/// through every split (a rare heap's) is not cut into thousands of calls:
/// with turns of 256 throughout, 0.007 to 10^5 took 1.50-1.62 s on the
/// portable path against 1.01-1.09 s from the first split up.
const TURN: usize = 256;

#[cfg(test)]
thread_local! {
    /// Testing aid: other run starts, so that tables of a few thousand
    /// heaps have several runs.
    pub(super) static TEST_RUNS: std::cell::Cell<Option<[usize; 3]>> =
        const { std::cell::Cell::new(None) };
}

/// The splits `(a, m - a)` for `a` in `1..=half`, in the order the search
/// looks at them: spans `from..=to` from each run of [`RUNS`] in turn,
/// [`TURN`] splits long in the first round and twice as long in each
/// round after it; every split in exactly one span.
#[derive(Clone, Debug)]
pub(super) struct Order {
    /// Each run's next split and its last.
    next: [usize; 3],
    last: [usize; 3],
    /// The run whose turn it is.
    turn: usize,
    /// Splits a turn in this round.
    span: usize,
}

impl Order {
    pub(super) fn new(half: usize) -> Order {
        #[cfg(test)]
        let runs = TEST_RUNS.with(|r| r.get()).unwrap_or(RUNS);
        #[cfg(not(test))]
        let runs = RUNS;
        let last = [half.min(runs[1] - 1), half.min(runs[2] - 1), half];
        Order {
            next: runs,
            last,
            turn: 0,
            span: TURN,
        }
    }

    /// The order past its first `count` splits (rounded up to whole
    /// spans, as the portable path's byte marks take them).
    fn after(half: usize, count: usize) -> Order {
        let mut order = Order::new(half);
        let mut skipped = 0;
        while skipped < count {
            match order.next() {
                Some((from, to)) => skipped += to + 1 - from,
                None => break,
            }
        }
        order
    }
}

impl Iterator for Order {
    type Item = (usize, usize);

    fn next(&mut self) -> Option<(usize, usize)> {
        for _ in 0..3 {
            let i = self.turn;
            self.turn = (i + 1) % 3;
            if self.next[i] <= self.last[i] {
                let from = self.next[i];
                let to = (from + self.span - 1).min(self.last[i]);
                self.next[i] = to + 1;
                if i == 2
                    || self.next[i + 1..]
                        .iter()
                        .zip(&self.last[i + 1..])
                        .all(|(n, l)| n > l)
                {
                    // A round is over: longer turns from now on.
                    self.span = (2 * self.span).min(1 << 16);
                }
                return Some((from, to));
            }
        }
        None
    }
}

/// Which splits of `n` can produce a rare value from two common heaps,
/// indexed by the parity class of `n - k`.
#[inline(always)]
pub(super) fn searchable(context: &RareSplit, n: usize) -> [bool; 2] {
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
pub(super) fn cheap_class(searchable: [bool; 2], odd: u64) -> u64 {
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
pub(super) fn decide<const W: usize>(
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
pub(super) fn confirm<T: Cell, const W: usize>(
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
    let top = 64 * W - 1;
    // Without vector code the first splits of each size in the search
    // order, which hit most wanted values (55 per heap on 0.6 at 10^6, all
    // but 2 on average in the first 1,024), are cheaper marked in bytes
    // without a branch per split than crossed off the set one hit at a
    // time; the few values left are then compared 16 splits at a time
    // (`simd::search_to`). The AVX2 path gains too, with fewer splits
    // ([`AVX2_DENSE_SPLITS`]); the AVX-512 one, which takes a batch's hits
    // out at once, does not.
    // Only when many values are wanted: with a few (0.354, whose wanted
    // values turn up in the first splits), marking 1024 splits costs more
    // than it saves (0.354's proof took 31 s instead of 12 s).
    let many = want.0.iter().map(|w| w.count_ones()).sum::<u32>() > MANY_WANTED;
    let dense = match context.vector.search {
        Path::Portable if many => DENSE_SPLITS,
        // Values of 2048 and more: no byte tables for the AVX2 lookup.
        Path::Avx2 if W > 32 && many => WIDE_DENSE_SPLITS,
        Path::Avx2 if many => AVX2_DENSE_SPLITS,
        _ => 0,
    };
    // Splits up to `near(m)` read only two-byte cells; a packed table's
    // bytes are read past it, one split at a time ([`far_search`]).
    let near = |m: usize| {
        let half = context.rules.half(m);
        context
            .far
            .map_or(half, |far| half.min(far.resident_half(m)))
    };
    let mut want = *want;
    if dense > 0 {
        seen[..64 * W].fill(0);
        for &k in &context.rules.splits {
            if n >= k + 2 && searchable[(context.split.domain as usize) & ((n - k) & 1)] {
                let m = n - k;
                let mut marked = 0;
                for (from, to) in Order::new(near(m)) {
                    if marked >= dense {
                        break;
                    }
                    match T::narrow(table) {
                        Some(narrow) => dense_marks(narrow, m, from, to, seen, top),
                        None => {
                            let low = &table[from..=to];
                            let high = &table[m - to..=m - from];
                            for (x, y) in low.iter().zip(high.iter().rev()) {
                                let (x, y): (u32, u32) = ((*x).into(), (*y).into());
                                seen[(x ^ y) as usize & top] = 1;
                            }
                        }
                    }
                    marked += to + 1 - from;
                }
                stats.scan_steps += marked as u64;
            }
        }
        // The marks as bits, then the wanted values they hold taken out at
        // once: looked up one by one, each value was a branch that went
        // either way.
        let mut found = [0u64; W];
        simd::fold_bytes(context.vector.search, &mut seen[..64 * W], &mut found);
        let mut left = false;
        for (want, found) in want.0.iter_mut().zip(found) {
            *want &= !found;
            left |= *want != 0;
        }
        if !left {
            return None;
        }
    }
    let want = &want;
    // Without vector code and with few values wanted, the byte marks below
    // beat `simd::search_to` (0.354: 13.3 s against 15.1 s).
    let compared = context.vector.search != Path::Portable || dense > 0;
    if let (true, Some(narrow)) = (compared, T::narrow(table)) {
        let mut wanted = simd::Wanted::from_bits(&want.0);
        for &k in &context.rules.splits {
            if n >= k + 2 && searchable[(context.split.domain as usize) & ((n - k) & 1)] {
                let m = n - k;
                for (from, to) in Order::after(near(m), dense) {
                    stats.scan_steps +=
                        simd::search_to(context.vector.search, narrow, m, from, to, &mut wanted)
                            as u64;
                    if wanted.count == 0 {
                        return None;
                    }
                }
            }
        }
        if let Some(far) = context.far {
            return far_splits(
                context,
                (n, searchable),
                (far, narrow),
                near,
                &mut wanted,
                stats,
            );
        }
        stats.exhausted += 1;
        return wanted.first();
    }
    // Few values wanted without vector code, or values of 2^16 and more (a
    // table of 32 bits): byte marks, the wanted list checked every chunk. Only the search marks `seen` from here
    // (wanted values are unmarked).
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
        for (from, to) in Order::after(near(m), dense) {
            let mut b = from;
            while b <= to {
                // Long enough chunks that checking the wanted list stays cheap.
                let stop = (b + 32 + 2 * count).min(to + 1);
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
    }
    if let (Some(far), Some(narrow)) = (context.far, T::narrow(table)) {
        // The packed heaps' splits, one at a time, for the values left.
        let mut bits = [0u64; 64];
        for &v in &wanted[..count] {
            bits[usize::from(v >> 6)] |= 1 << (v & 63);
        }
        let mut left = simd::Wanted::from_bits(&bits);
        return far_splits(
            context,
            (n, searchable),
            (far, narrow),
            near,
            &mut left,
            stats,
        );
    }
    stats.exhausted += 1;
    // The smallest value never found (the list stays in increasing order).
    Some(u32::from(wanted[0]))
}

/// The splits `(a, m - a)` of `n` past `near(m)`, through a packed
/// table's bytes, one at a time, each value found taken out of `wanted`:
/// `None` when all turn up, else the smallest that no split has.
fn far_splits(
    context: &RareSplit,
    (n, searchable): (usize, [bool; 2]),
    (far, table): (Far, &[u16]),
    near: impl Fn(usize) -> usize,
    wanted: &mut simd::Wanted,
    stats: &mut Stats,
) -> Option<u32> {
    for &k in &context.rules.splits {
        if n >= k + 2 && searchable[(context.split.domain as usize) & ((n - k) & 1)] {
            let m = n - k;
            let mut a = near(m) + 1;
            while a <= context.rules.half(m) && wanted.count > 0 {
                wanted.take(far.value(table, a) ^ far.value(table, m - a));
                stats.scan_steps += 1;
                a += 1;
            }
            if wanted.count == 0 {
                return None;
            }
        }
    }
    stats.exhausted += 1;
    wanted.first()
}

/// A chunk's places in [`dense_marks`], on two whole cache lines. With
/// the stack's 16-byte alignment alone, the same code took a tenth longer
/// on Officers' portable path in one build of two (1.71-1.88 s against
/// 1.53-1.56 s to 10^6, Intel Xeon, family 6 model 207), and aligned it
/// took 1.53-1.55 s in that build. The cause was not measured (the
/// processor's counters were out of reach).
#[repr(align(64))]
struct Places([u16; 64]);

/// Marks in `seen` the values of the splits `(a, m - a)` for `a` in
/// `from..=to`, masked with `top` (below `seen.len()`).
#[inline(never)]
fn dense_marks(
    table: &[u16],
    m: usize,
    from: usize,
    to: usize,
    seen: &mut [u8; MAX_RARE_BOUND as usize],
    top: usize,
) {
    let low = &table[from..=to];
    let high = &table[m - to..=m - from];
    let top = (top & (MAX_RARE_BOUND as usize - 1)) as u16;
    // Chunks of 64 splits: the values in vector lanes, stored aside, then
    // marked with a load and a store each (extracting lanes from vector
    // registers costs more instructions a split than the load).
    let mut lows = low.chunks_exact(64);
    let mut highs = high.rchunks_exact(64);
    let mut places = Places([0u16; 64]);
    for (x, y) in (&mut lows).zip(&mut highs) {
        for (i, place) in places.0.iter_mut().enumerate() {
            *place = (x[i] ^ y[63 - i]) & top;
        }
        for &v in std::hint::black_box(&places.0) {
            seen[usize::from(v) & (MAX_RARE_BOUND as usize - 1)] = 1;
        }
    }
    for (x, y) in lows.remainder().iter().zip(highs.remainder().iter().rev()) {
        seen[usize::from((x ^ y) & top)] = 1;
    }
}
