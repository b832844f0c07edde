//! The small-value loop: the rare-value method fused into one loop for games
//! whose values all stay below 64.

use super::search::{cheap_class, searchable};
use super::{rare_under, RareSplit, Split, TakeBreak, Vector};
use crate::heap::simd::{self, Path};

/// Heaps at the start of the table that the small-value loop's search
/// reads as bytes (see [`simd::SmallSets::BYTES`]); the wanted values turn
/// up in the first few dozen splits as a rule. Tests take fewer, so that
/// their short tables have splits past the copies too. With the copies
/// the portable path took 0.1777 to 10^7 in 0.566-0.597 s against
/// 0.619-0.670 s, and 0.16 to 10^6 in 0.111-0.112 s against 0.128-0.133 s
/// (`GRUNDY_SIMD=portable octal_speed CODE N serial`, five runs of each
/// binary alternated, AMD EPYC Zen 4).
#[cfg(not(test))]
const HEAD: usize = 4096;
#[cfg(test)]
const HEAD: usize = 64;

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
pub(super) fn small_run(
    rules: &TakeBreak,
    split: Split,
    odd: &[u64],
    table: &mut Vec<u16>,
    rare: (&mut Vec<u32>, &mut Vec<u32>),
    limit: usize,
    bound: u32,
    path: Path,
) -> (u64, u64, u64, u32) {
    #[cfg(target_arch = "x86_64")]
    if path == Path::Avx512 && simd::avx512_available() {
        // SAFETY: the features were just checked.
        return unsafe { small_run_avx512(rules, split, odd, table, rare, limit, bound) };
    }
    #[cfg(target_arch = "x86_64")]
    if path == Path::Avx2 && simd::avx2_available() {
        // SAFETY: the feature was just checked.
        return unsafe { small_run_avx2(rules, split, odd, table, rare, limit, bound) };
    }
    let _ = path;
    // SAFETY: the portable operations need no processor features.
    unsafe { small_run_with::<simd::Portable>(rules, split, odd, table, rare, limit, bound) }
}

/// [`small_run_with`] with [`simd::Avx2`]'s operations.
///
/// # Safety
/// AVX2 must be available.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(super) unsafe fn small_run_avx2(
    rules: &TakeBreak,
    split: Split,
    odd: &[u64],
    table: &mut Vec<u16>,
    rare: (&mut Vec<u32>, &mut Vec<u32>),
    limit: usize,
    bound: u32,
) -> (u64, u64, u64, u32) {
    small_run_with::<simd::Avx2>(rules, split, odd, table, rare, limit, bound)
}

/// [`small_run_with`] compiled for AVX-512.
///
/// # Safety
/// AVX-512F/BW must be available.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) unsafe fn small_run_avx512(
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
pub(super) unsafe fn small_run_with<S: simd::SmallSets>(
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
        vector: Vector::on(Path::Portable),
        far: None,
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
    // Split sizes within four of each other: `ks` has bit `kmax - k` for
    // each split size `k`, `kmax` being the smallest plus 3. With one split
    // size, a heap's options through rare heaps come from
    // [`SmallSets::rare_span`] (the AVX2 one loads four partners a rare
    // heap in vector lanes, which beats one at a time there).
    //
    // With several, the options of one heap for split size k are those of
    // the heap before it for k - 1: G(r) ^ G(m - r) depends on m = n - k
    // only. So each heap works out the set of one m, n - (kmax - 3), and
    // takes the others from the heaps before it: `ring` holds the sets of
    // the last four m, those from `ring_start` on made with the rare heaps
    // as they are now (`ring_rare` of them), one a heap up to `ring_next`.
    // 0.1777 (split sizes 2, 3 and 4) to 10^6 took 0.063-0.067 s on the
    // portable path against 0.076-0.078 s with the four partners of each
    // rare heap, 0.037-0.041 s against 0.040-0.049 s on AVX2 and
    // 0.040-0.042 s against 0.043-0.044 s on AVX-512 (`octal_speed 01777
    // 1000000 serial`, AMD EPYC Zen 4).
    let kmax = rules.splits.iter().copied().min().unwrap_or(0) + 3;
    let span = rules
        .splits
        .iter()
        .all(|&k| k <= kmax)
        .then(|| rules.splits.iter().fold(0u8, |ks, &k| ks | 1 << (kmax - k)));
    let several = span.is_some_and(|ks| ks.count_ones() > 1);
    // Where `S` reads them, byte copies of the first `HEAD` heaps and of
    // the heaps from `base` on (the run's, added as they are found): the
    // splits (a, m - a) with a + 7 < HEAD read both parts there.
    let (head, mut tail, base) = if S::BYTES {
        // The largest split size, not `kmax`: sizes need not be close.
        let kbig = rules.splits.iter().copied().max().unwrap_or(0);
        let base = first.saturating_sub(HEAD + kbig + 8);
        let bytes = |range: std::ops::Range<usize>| -> Vec<u8> {
            table[range].iter().map(|&v| v as u8).collect()
        };
        let mut tail = bytes(base..first);
        tail.reserve(limit - first);
        (bytes(0..HEAD.min(first)), tail, base)
    } else {
        (Vec::new(), Vec::new(), 0)
    };
    let mut ring = [0u64; 4];
    let (mut ring_start, mut ring_next, mut ring_rare) = (0, usize::MAX, usize::MAX);
    while table.len() < limit {
        let n = table.len();
        let (class, searched) = &parities[n & 1];
        let mut marks = 0u64;
        for &k in &singles {
            marks |= 1 << (table[n - k] & 63);
        }
        match (span, rare.last()) {
            (_, None) => {}
            (Some(ks), Some(&last)) if last as usize + kmax < n && !several => {
                // SAFETY: checked just above; n = table.len() < 2^31.
                marks |= unsafe { S::rare_span(table, rare, rare_values, n, kmax, ks) };
                pair_steps += rare.len() as u64;
            }
            (Some(ks), Some(&last)) if last as usize + kmax < n => {
                let low = n - (kmax - 3);
                if ring_rare != rare.len() || ring_next != low {
                    // A new rare heap, or heaps since that took another way.
                    ring_start = low;
                    ring_rare = rare.len();
                }
                ring_next = low + 1;
                // SAFETY: every rare heap is below n - kmax <= low, and
                // its partner below n = table.len() < 2^31.
                ring[low & 3] = unsafe { S::rare_set(table, rare, rare_values, low) };
                pair_steps += rare.len() as u64;
                for j in 0..4 {
                    if ks & (1 << j) == 0 {
                        continue;
                    }
                    // k = kmax - j, m = n - k = low - (3 - j).
                    let m = low - (3 - j);
                    marks |= if m >= ring_start {
                        ring[m & 3]
                    } else {
                        pair_steps += rare.len() as u64;
                        // SAFETY: as above, m > every rare heap.
                        unsafe { S::rare_set(table, rare, rare_values, m) }
                    };
                }
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
        // searched, looked at whatever the marks where vectors make them
        // cheap (they do not wait for the marks). Plain code looks at
        // eight splits at a time, and stops as soon as nothing is wanted.
        let early_done = searched.iter().all(|k| (n - k) / 2 >= 64) && S::EAGER;
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
                    // Both parts in the byte copies: a + 7 < HEAD, and
                    // m - a - 7 > n - k - HEAD - 8 >= base (k <= kbig).
                    while S::BYTES && a + 7 <= end.min(head.len().saturating_sub(1)) {
                        debug_assert!(m - a - 7 >= base && m - a - base < tail.len());
                        // SAFETY: a + 7 < head.len(), and the eight heaps from
                        // m - a - 7 >= base are below n = base + tail.len().
                        want &= !unsafe {
                            simd::pair_set_bytes(
                                head.as_ptr().add(a),
                                tail.as_ptr().add(m - a - 7 - base),
                            )
                        };
                        a += 8;
                        scan_steps += 8;
                        if want == 0 {
                            break 'search;
                        }
                    }
                    while a + S::STEP - 1 <= end {
                        // SAFETY: a + STEP - 1 <= m - a and m - a < n = len.
                        want &= !unsafe { S::pair_set(ptr, m, a) };
                        a += S::STEP;
                        scan_steps += S::STEP as u64;
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
        if S::BYTES {
            tail.push(value as u8);
        }
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
