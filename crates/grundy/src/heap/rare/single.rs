//! The rare-value method one heap at a time: marks through rare heaps (in
//! bytes, or stamps with AVX-512), then [`super::search`].

use super::search::{confirm, decide};
use super::{without_equal, Bits, Cell, RareSplit, Scratch, Stats, TakeBreak, MAX_RARE_BOUND};
use crate::heap::simd;

/// G(n) by the rare-value method (see the module documentation), for values
/// below `64 * W`, with the marks in registers.
#[inline]
pub(super) fn rare_value_fixed<T: Cell, const W: usize>(
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
pub(super) fn pair_marks<T: Cell, const W: usize>(
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
    if let (true, Some(narrow)) = (context.vector.marks.avx512(), T::narrow(table)) {
        let stamp = scratch.next_stamp();
        for (m, lo, hi) in ranges {
            for range in without_equal(context.rules, rare, m, lo..hi) {
                steps += range.len() as u64;
                let (heaps, values) = (&rare[range.clone()], &context.rare_values[range]);
                simd::mark_pairs(
                    context.vector.marks,
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
        simd::fold_stamps(
            context.vector.marks,
            &scratch.stamps[..64 * W],
            stamp,
            &mut marks.0,
        );
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

/// Marks the values left by taking without splitting.
#[inline(always)]
pub(super) fn take_marks<T: Copy + Into<u32>, const W: usize>(
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
pub(super) fn mark_rare_pairs<T: Copy + Into<u32>, const W: usize>(
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

/// ORs the byte marks `seen` (one byte per value, 1 when marked, else 0)
/// into bit words.
#[inline(always)]
pub(super) fn fold_seen(seen: &[u8], words: &mut [u64]) {
    for (word, bytes) in words.iter_mut().zip(seen.chunks_exact(64)) {
        let mut bits = 0u64;
        for (i, eight) in bytes.chunks_exact(8).enumerate() {
            bits |= u64::from(simd::bits_of_bytes(eight.try_into().expect("8 bytes"))) << (8 * i);
        }
        *word |= bits;
    }
}
