//! From the marks to the value: the cheap mex, and the search of the splits
//! that confirms each wanted (rare) value below it.

use super::{Bits, Cell, RareSplit, Stats, MAX_RARE_BOUND};
use crate::heap::simd::{self, Path};

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
    // Without vector code, byte marks (below) beat the lookups of
    // `simd::search_to` (measured on 0.6).
    if let (true, Some(narrow)) = (context.vector.search != Path::Portable, T::narrow(table)) {
        let mut wanted = simd::Wanted::from_bits(&want.0);
        for &k in &context.rules.splits {
            if n >= k + 2 && searchable[(context.split.domain as usize) & ((n - k) & 1)] {
                let m = n - k;
                let half = context.rules.half(m);
                stats.scan_steps +=
                    simd::search_to(context.vector.search, narrow, m, 1, half, &mut wanted) as u64;
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
