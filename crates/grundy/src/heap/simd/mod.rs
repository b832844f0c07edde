//! The search for wanted values with AVX-512 (x86-64 processors with
//! AVX-512BW): 32 splits per step instead of one.
//!
//! The rare-value method spends most of its time checking that every wanted
//! (rare) value below the cheap mex turns up as `G(a) ^ G(m - a)` for some
//! split of `m`. Here the wanted values, all below 4096, live as a bit set in
//! registers (two for values below 1024, up to eight); a step loads 32 values going up from `a` and 32 going down
//! from `m - a`, reverses the second, XORs them, and looks each result up in
//! the set with a word permutation and a variable shift. Only lanes that hit
//! are looked at one by one (a hit removes its value from the set), so the
//! search costs a few instructions per 32 splits. The scalar search in
//! [`super::rare`] is the reference; property tests compare the two.

/// Values below this can be searched here (the set is 256 words of 16 bits).
pub const SIMD_BOUND: u32 = 4096;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
pub use avx2::Avx2;
mod path;
mod portable;
pub use path::{
    avx2_available, avx512_available, bmi2_available, vbmi2_available, Path, PATH_VARIABLE,
};

/// Whether this processor can run the AVX-512 kernels.
pub fn available() -> bool {
    avx512_available()
}

/// The wanted values as 256 words of 16 bits: bit `v & 15` of word `v >> 4`.
///
/// Not `Copy`: the portable search may keep a copy of the set with a byte
/// a value for this set alone (its `mirror`), which a copy of the set
/// taking values apart from it would contradict. A clone has no such copy.
#[derive(Debug)]
pub struct Wanted {
    words: [u16; 256],
    /// Values are below `1024 * groups` (1, 2 or 4 groups of 64 words).
    groups: usize,
    /// How many bits are set.
    pub count: usize,
    /// Which filling of the portable search's byte copy is this set's
    /// (0: none). The copy may still hold values taken out since
    /// (found again, they are checked exactly), never lack one it holds.
    mirror: u64,
}

impl Clone for Wanted {
    fn clone(&self) -> Self {
        Wanted { mirror: 0, ..*self }
    }
}

impl Wanted {
    /// The set of values whose bits are set in `bits` (64-bit words, values below 4096).
    pub fn from_bits(bits: &[u64]) -> Self {
        let mut words = [0u16; 256];
        let mut count = 0;
        let mut top = 0;
        for (i, &w) in bits.iter().enumerate().take(64) {
            for j in 0..4 {
                words[4 * i + j] = (w >> (16 * j)) as u16;
            }
            count += w.count_ones() as usize;
            if w != 0 {
                top = i;
            }
        }
        let groups = (top / 16 + 1).next_power_of_two();
        Wanted {
            words,
            groups,
            count,
            mirror: 0,
        }
    }

    /// Removes `v` if present; whether it was.
    #[inline(always)]
    pub(crate) fn take(&mut self, v: u32) -> bool {
        let present = self.take_uncounted(v);
        self.count -= present as usize;
        present
    }

    /// [`Wanted::take`] leaving `count` to the caller.
    #[inline(always)]
    pub(crate) fn take_uncounted(&mut self, v: u32) -> bool {
        if v >= SIMD_BOUND {
            return false;
        }
        let (word, bit) = ((v >> 4) as usize, 1u16 << (v & 15));
        let present = self.words[word] & bit != 0;
        self.words[word] &= !bit;
        present
    }

    /// Writes the set's members, smallest first, into `out` as far as it
    /// goes; returns how many were written.
    pub fn list(&self, out: &mut [u16]) -> usize {
        let words = &self.words[..64 * self.groups.min(4)];
        let mut count = 0;
        for (slot, v) in out.iter_mut().zip(members(words, self.count)) {
            *slot = v;
            count += 1;
        }
        count
    }

    /// The smallest value in the set, if any.
    pub fn first(&self) -> Option<u32> {
        let i = self.words.iter().position(|w| *w != 0)?;
        Some(i as u32 * 16 + self.words[i].trailing_zeros())
    }
}

/// The values whose bits are set in `words` (laid out as [`Wanted`]'s),
/// smallest first, at most `count` of them: read four words at a time, and
/// no further than the `count`th.
fn members(words: &[u16], count: usize) -> impl Iterator<Item = u16> + '_ {
    words
        .chunks_exact(4)
        .enumerate()
        .flat_map(|(i, quad)| {
            let bits = quad
                .iter()
                .rev()
                .fold(0u64, |acc, &x| acc << 16 | u64::from(x));
            std::iter::successors((bits != 0).then_some(bits), |w| {
                let rest = w & (w - 1);
                (rest != 0).then_some(rest)
            })
            .map(move |w| (64 * i) as u16 + w.trailing_zeros() as u16)
        })
        .take(count)
}

/// Sets `bytes[v]` to `to` for each value `v` whose bit is set in `words`
/// (laid out as [`Wanted`]'s), the others left as they are; `count` is how
/// many bits are set (the words past the last are not read).
fn set_bytes(words: &[u16; 256], count: usize, bytes: &mut [u8; SIMD_BOUND as usize], to: u8) {
    for v in members(words, count) {
        bytes[usize::from(v)] = to;
    }
}

/// Searches the splits `(a, m - a)` for `a` in `from..=m / 2`, taking every
/// value found out of `want`, and stops as soon as it is empty. Returns the
/// number of splits looked at. Every value of `table[..=m]` must be below
/// [`SIMD_BOUND`] for the search to be fast; larger ones are still handled
/// exactly (looked at one by one), only slowly. Panics if `m > table.len()`.
pub fn search(path: Path, table: &[u16], m: usize, from: usize, want: &mut Wanted) -> usize {
    search_to(path, table, m, from, m / 2, want)
}

/// [`search`] over the splits `(a, m - a)` for `a` in `from..=half` only
/// (`half <= m / 2`): `(m - 1) / 2` leaves out the equal split.
pub fn search_to(
    path: Path,
    table: &[u16],
    m: usize,
    from: usize,
    half: usize,
    want: &mut Wanted,
) -> usize {
    // Parts are at least 1: the largest read is `table[m - 1]` (a split
    // without taking, of the heap being computed, has `m == table.len()`).
    assert!(m <= table.len(), "split beyond the table");
    assert!(half <= m / 2, "splits past the middle");
    let mut a = from.max(1);
    if want.count == 0 || a > half {
        return 0;
    }
    #[cfg(target_arch = "x86_64")]
    if path.avx512() && available() {
        while want.count > 0 && a + 31 <= half {
            if want.count <= MAX_COMPARED_512 {
                let mut values = [0u16; MAX_COMPARED_512];
                let count = want.list(&mut values);
                let values = &values[..count];
                // SAFETY: the features were detected here; `a + 31 <= half`
                // keeps the loads inside `table`, as in `compare_avx512`.
                a = unsafe {
                    match count {
                        1 => compare_avx512::<1>(table, m, a, half, values, want),
                        _ => compare_avx512::<2>(table, m, a, half, values, want),
                    }
                };
                continue;
            }
            // SAFETY: the features were detected here; the loads stay inside
            // `table` (checked in `search_avx512` before each one).
            a = unsafe {
                match (want.groups, vbmi2_available() && !unbatched()) {
                    (1, true) => search_avx512_batched::<1>(table, m, a, half, want),
                    (2, true) => search_avx512_batched::<2>(table, m, a, half, want),
                    (_, true) => search_avx512_batched::<4>(table, m, a, half, want),
                    (1, false) => search_avx512::<1>(table, m, a, half, want),
                    (2, false) => search_avx512::<2>(table, m, a, half, want),
                    _ => search_avx512::<4>(table, m, a, half, want),
                }
            };
        }
    }
    #[cfg(target_arch = "x86_64")]
    if path == Path::Avx2 && avx2_available() {
        // SAFETY: the feature was detected here; `half <= m / 2` and
        // `m <= table.len()` were checked above.
        a = unsafe { avx2::search(table, m, a, half, want) };
    }
    if path == Path::Portable {
        a = portable::search(table, m, a, half, want);
    }
    let start = from.max(1);
    while a <= half && want.count > 0 {
        want.take(u32::from(table[a] ^ table[m - a]));
        a += 1;
    }
    a.min(half + 1) - start
}

#[cfg(test)]
thread_local! {
    /// Testing aid: the AVX-512 search of processors without VBMI2, on
    /// this thread.
    static UNBATCHED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the AVX-512 search must take a branch per step (tests only).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn unbatched() -> bool {
    #[cfg(test)]
    return UNBATCHED.with(|u| u.get());
    #[cfg(not(test))]
    false
}

/// The wanted set in 2G registers of 32 words: group g is words
/// 64g..64g+64.
///
/// # Safety
/// AVX-512F and BW; `G` at most 4.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
unsafe fn set_registers<const G: usize>(want: &Wanted) -> [[std::arch::x86_64::__m512i; 2]; G] {
    use std::arch::x86_64::*;
    let mut set = [[_mm512_setzero_si512(); 2]; G];
    for (g, pair) in set.iter_mut().enumerate() {
        // SAFETY: 64 words per group, 4 groups at most: inside `words`.
        unsafe {
            pair[0] = _mm512_loadu_si512(want.words.as_ptr().add(64 * g) as *const _);
            pair[1] = _mm512_loadu_si512(want.words.as_ptr().add(64 * g + 32) as *const _);
        }
    }
    set
}

/// The values of the 32 splits `(a + i, m - a - i)`.
///
/// # Safety
/// AVX-512F and BW; `a..=a + 31` and `m - a - 31..=m - a` inside the table
/// at `ptr`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
unsafe fn splits32(ptr: *const u16, m: usize, a: usize) -> std::arch::x86_64::__m512i {
    use std::arch::x86_64::*;
    let reverse = _mm512_set_epi16(
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
        25, 26, 27, 28, 29, 30, 31,
    );
    // SAFETY: as documented.
    let (up, down) = unsafe {
        (
            _mm512_loadu_si512(ptr.add(a) as *const _),
            _mm512_loadu_si512(ptr.add(m - a - 31) as *const _),
        )
    };
    _mm512_xor_si512(up, _mm512_permutexvar_epi16(reverse, down))
}

/// At most this many wanted values are compared with each step's values
/// by the AVX-512 search (one `vpcmpeqw` each) instead of looked up in
/// the set: the last few values of a search take most of its splits, and
/// a comparison costs less than the lookup's permutation and shift.
/// Officers to 10^6 took 1.14-1.18 s against 1.16-1.26 s with every step
/// looked up, and 1.17-1.19 s comparing up to four (`GRUNDY_SIMD=avx512
/// GRUNDY_THREADS=1 taskset -c 1 octal_speed 06 1000000 serial`, five
/// runs of each alternated, Intel Xeon, family 6 model 207); 0.007 alike.
#[cfg(target_arch = "x86_64")]
const MAX_COMPARED_512: usize = 2;

/// Steps of 32 splits comparing each split's value with `values` (at most
/// `K`, repeated to fill `K`) until a step hits: its hits are taken out of
/// `want` and the next split is returned (or `a` once `a + 31 > half`).
///
/// # Safety
/// AVX-512F and BW; `half <= m / 2` and `m <= table.len()`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn compare_avx512<const K: usize>(
    table: &[u16],
    m: usize,
    mut a: usize,
    half: usize,
    values: &[u16],
    want: &mut Wanted,
) -> usize {
    use std::arch::x86_64::*;
    let wanted: [__m512i; K] =
        std::array::from_fn(|i| _mm512_set1_epi16(values[i % values.len()] as i16));
    while a + 31 <= half {
        // a + 31 <= half <= m - a - 31: both loads are inside the table.
        // SAFETY: as just said.
        let v = unsafe { splits32(table.as_ptr(), m, a) };
        let mut hits = 0u32;
        for &w in &wanted {
            hits |= _mm512_cmpeq_epi16_mask(v, w);
        }
        if hits != 0 {
            take_lanes(v, hits, want);
            return a + 32;
        }
        a += 32;
    }
    a
}

/// Takes out of `want` the values of the lanes of `v` set in `hits` (each
/// checked exactly: one that is not in the set is left alone).
///
/// # Safety
/// AVX-512F must be available.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
#[inline]
unsafe fn take_lanes(v: std::arch::x86_64::__m512i, mut hits: u32, want: &mut Wanted) {
    let mut lanes = [0u16; 32];
    // SAFETY: 32 words.
    unsafe { std::arch::x86_64::_mm512_storeu_si512(lanes.as_mut_ptr() as *mut _, v) };
    while hits != 0 {
        let lane = hits.trailing_zeros() as usize;
        hits &= hits - 1;
        want.take(u32::from(lanes[lane]));
    }
}

/// One step of the AVX-512 search: the values of the 32 splits
/// `(a + i, m - a - i)`, and the lanes whose value is in `set` (values
/// beyond the groups alias: a hit is checked exactly when it is taken).
///
/// # Safety
/// AVX-512F and BW; `a..=a + 31` and `m - a - 31..=m - a` inside the table
/// at `ptr`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
unsafe fn step_hits<const G: usize>(
    set: &[[std::arch::x86_64::__m512i; 2]; G],
    ptr: *const u16,
    m: usize,
    a: usize,
) -> (u32, std::arch::x86_64::__m512i) {
    use std::arch::x86_64::*;
    // SAFETY: as documented.
    let v = unsafe { splits32(ptr, m, a) };
    let index = _mm512_srli_epi16::<4>(v);
    let mut word = _mm512_permutex2var_epi16(set[0][0], index, set[0][1]);
    for (g, pair) in set.iter().enumerate().skip(1) {
        let other = _mm512_permutex2var_epi16(pair[0], index, pair[1]);
        let group =
            _mm512_cmpeq_epi16_mask(_mm512_srli_epi16::<6>(index), _mm512_set1_epi16(g as i16));
        word = _mm512_mask_blend_epi16(group, word, other);
    }
    let bit = _mm512_sllv_epi16(
        _mm512_set1_epi16(1),
        _mm512_and_si512(v, _mm512_set1_epi16(15)),
    );
    (_mm512_test_epi16_mask(word, bit), v)
}

/// The vector part of [`search_to`], for values below `1024 * G`: full
/// steps of 32 splits from `a` up to `half` (at most `m / 2`); returns where
/// it stopped (the first split not looked at, or past a hit that left at
/// most [`MAX_COMPARED_512`] values).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn search_avx512<const G: usize>(
    table: &[u16],
    m: usize,
    mut a: usize,
    half: usize,
    want: &mut Wanted,
) -> usize {
    debug_assert!(half <= m / 2);
    let mut set = set_registers::<G>(want);
    // A full step looks at a..a+32, all at most `half`; the downward load
    // then starts at m - a - 31 >= m - half >= 0 and ends at m - a < table.len().
    while a + 31 <= half {
        debug_assert!(m - a < table.len() && a + 31 < table.len());
        let (hits, v) = step_hits(&set, table.as_ptr(), m, a);
        if hits != 0 {
            // Values beyond the groups alias in the lookup: the exact check is here.
            take_lanes(v, hits, want);
            if want.count <= MAX_COMPARED_512 {
                return a + 32;
            }
            set = set_registers::<G>(want);
        }
        a += 32;
    }
    a
}

/// Steps of 32 splits per batch of [`search_avx512_batched`]: 256 splits
/// between two updates of the set.
#[cfg(target_arch = "x86_64")]
const BATCH_STEPS: usize = 8;

/// Steps of the first batch of [`search_avx512_batched`]; each batch after
/// it has twice as many, up to [`BATCH_STEPS`]. Officers to 10^6 took
/// 1.09-1.21 s (median 1.14 s) against 1.18-1.23 s (median 1.22 s) with
/// every batch of eight, five runs of each alternated; 0.007 to 10^5 did
/// not change, nor did the AVX2 search with the same schedule
/// (`GRUNDY_SIMD=avx512 GRUNDY_THREADS=1 taskset -c 1 octal_speed 06
/// 1000000 serial`, AMD EPYC Zen 4).
#[cfg(target_arch = "x86_64")]
const FIRST_BATCH_STEPS: usize = 2;

/// [`search_avx512`] without a branch per step: each step's hits are
/// packed (`vpcompressw`, AVX-512 VBMI2) into a buffer, and the buffer's
/// values are taken out of `want` once per [`BATCH_STEPS`] steps, when the
/// set in the registers is renewed. Early in a search most steps hit, in
/// lanes no branch predictor can foresee; here a batch costs one branch.
/// A value found twice in a batch is taken once. Returns where it stopped
/// (the first split not looked at), at most one batch past the hit that
/// left at most [`MAX_COMPARED_512`] values.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt")]
unsafe fn search_avx512_batched<const G: usize>(
    table: &[u16],
    m: usize,
    mut a: usize,
    half: usize,
    want: &mut Wanted,
) -> usize {
    use std::arch::x86_64::*;
    debug_assert!(half <= m / 2);
    // The hits of a batch, packed; each step stores a whole register at
    // the end of those so far, so the buffer holds one step more.
    let mut found = [0u16; 32 * (BATCH_STEPS + 1)];
    // Short batches first, while most steps hit and a value would be
    // found again before it is taken out: from the first splits only (a
    // search that starts further in has found most values already).
    let mut steps = if a <= 32 * BATCH_STEPS {
        FIRST_BATCH_STEPS
    } else {
        BATCH_STEPS
    };
    while a + 31 <= half {
        let set = set_registers::<G>(want);
        let mut count = 0;
        for _ in 0..steps {
            if a + 31 > half {
                break;
            }
            // A full step looks at a..a+32, all at most `half`; the
            // downward load then starts at m - a - 31 >= m - half >= 0 and
            // ends at m - a < table.len().
            debug_assert!(m - a < table.len() && a + 31 < table.len());
            let (hits, v) = step_hits(&set, table.as_ptr(), m, a);
            // The hit lanes first, then whatever: only `count` are kept.
            let packed = _mm512_maskz_compress_epi16(hits, v);
            // SAFETY: `count <= 32 * steps so far`, so 32 words fit.
            _mm512_storeu_si512(found.as_mut_ptr().add(count) as *mut _, packed);
            count += hits.count_ones() as usize;
            a += 32;
        }
        steps = (2 * steps).min(BATCH_STEPS);
        if count > 0 {
            // Values beyond the groups alias in the lookup, and a value may
            // hit twice in a batch: the exact check is here. The count is
            // kept in a register: through memory, each hit would wait for
            // the one before.
            let mut left = want.count;
            for &v in &found[..count] {
                left -= want.take_uncounted(u32::from(v)) as usize;
            }
            want.count = left;
            if left <= MAX_COMPARED_512 {
                return a;
            }
        }
    }
    a
}

/// Stamps `stamps[(values[i] ^ table[m - rare[i]]) & top] = stamp` for every
/// rare heap `rare[i]` (each in `1..m` with its partner `m - rare[i]` in the
/// table, else this panics; `values[i]` its value): the options
/// through rare heaps, marked with a stamp instead of a flag so that the
/// buffer never needs clearing. 16 heaps per step with AVX-512 (a gather of
/// the partners' values and a scatter of the stamps).
#[allow(clippy::too_many_arguments)]
pub fn mark_pairs(
    path: Path,
    table: &[u16],
    rare: &[u32],
    values: &[u32],
    m: usize,
    stamps: &mut [u32],
    stamp: u32,
    top: u32,
) {
    assert!(rare.len() == values.len() && (top as usize) < stamps.len());
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
    let mut i = 0;
    #[cfg(not(target_arch = "x86_64"))]
    let _ = path;
    #[cfg(target_arch = "x86_64")]
    if path.avx512() && available() && m < i32::MAX as usize {
        // SAFETY: features detected; see `mark_pairs_avx512` for the bounds.
        i = unsafe { mark_pairs_avx512(table, rare, values, m, stamps, stamp, top) };
    }
    for (r, v) in rare[i..].iter().zip(&values[i..]) {
        let y = u32::from(table[m - *r as usize]);
        stamps[((v ^ y) & top) as usize] = stamp;
    }
}

/// The vector part of [`mark_pairs`]: whole steps of 16; returns how many
/// rare heaps it did.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn mark_pairs_avx512(
    table: &[u16],
    rare: &[u32],
    values: &[u32],
    m: usize,
    stamps: &mut [u32],
    stamp: u32,
    top: u32,
) -> usize {
    use std::arch::x86_64::*;
    let mut i = 0;
    let last = _mm512_set1_epi32(m as i32 - 1);
    // Rare heaps below this have partners beyond the table.
    let lowest = _mm512_set1_epi32((m + 1).saturating_sub(table.len()) as i32);
    let mask = _mm512_set1_epi32(top as i32);
    let stamp = _mm512_set1_epi32(stamp as i32);
    while i + 16 <= rare.len() {
        let r = _mm512_loadu_si512(rare.as_ptr().add(i) as *const _);
        // 32 bits read at m - r - 1: the partner's value is the upper half.
        // With r in 1..m and m - r < table.len() the reads stay inside the
        // table; any other heap is left to the scalar loop (which panics).
        let outside = _mm512_cmpgt_epu32_mask(r, last) | _mm512_cmplt_epu32_mask(r, lowest);
        if outside != 0 || m < 1 {
            break;
        }
        let at = _mm512_sub_epi32(last, r);
        let pair = _mm512_i32gather_epi32::<2>(at, table.as_ptr() as *const i32);
        let partner = _mm512_srli_epi32::<16>(pair);
        let own = _mm512_loadu_si512(values.as_ptr().add(i) as *const _);
        // Masked with `top` < stamps.len(): every store is inside the buffer.
        let v = _mm512_and_si512(_mm512_xor_si512(partner, own), mask);
        _mm512_i32scatter_epi32::<4>(stamps.as_mut_ptr() as *mut i32, v, stamp);
        i += 16;
    }
    i
}

/// ORs into `words` (bit `v` of word `v / 64`) the values whose stamp is `stamp`.
pub fn fold_stamps(path: Path, stamps: &[u32], stamp: u32, words: &mut [u64]) {
    assert!(stamps.len() >= words.len() * 64);
    #[cfg(not(target_arch = "x86_64"))]
    let _ = path;
    #[cfg(target_arch = "x86_64")]
    if path.avx512() && available() {
        // SAFETY: features detected; 64 stamps per word, checked above.
        unsafe { fold_stamps_avx512(stamps, stamp, words) };
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if path == Path::Avx2 && avx2_available() {
        // SAFETY: the feature was detected; 64 stamps per word, checked above.
        unsafe { avx2::fold_stamps(stamps, stamp, words) };
        return;
    }
    for (word, chunk) in words.iter_mut().zip(stamps.chunks_exact(64)) {
        let mut bits = 0u64;
        for (i, eight) in chunk.chunks_exact(8).enumerate() {
            let bytes: [u8; 8] = std::array::from_fn(|j| (eight[j] == stamp) as u8);
            bits |= u64::from(bits_of_bytes(bytes)) << (8 * i);
        }
        *word |= bits;
    }
}

/// ORs into `words` the bytes of `row` that are 1 (every byte must be 0 or
/// 1), as bits (bit `v & 63` of word `v >> 6` for byte `v`), and clears the
/// row for its next use.
pub fn fold_bytes(path: Path, row: &mut [u8], words: &mut [u64]) {
    assert!(row.len() >= words.len() * 64);
    #[cfg(not(target_arch = "x86_64"))]
    let _ = path;
    #[cfg(target_arch = "x86_64")]
    if path.avx512() && available() {
        // SAFETY: features detected; 64 bytes per word, checked above.
        unsafe { fold_bytes_avx512(row, words) };
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if path == Path::Avx2 && avx2_available() {
        // SAFETY: the feature was detected; 64 bytes per word, checked above.
        unsafe { avx2::fold_bytes(row, words) };
        return;
    }
    // The marks are bytes of 1: eight of them gather into a byte at once.
    for (word, chunk) in words.iter_mut().zip(row.chunks_exact_mut(64)) {
        let mut bits = 0u64;
        for (i, eight) in chunk.chunks_exact(8).enumerate() {
            let eight: [u8; 8] = eight.try_into().expect("eight bytes");
            bits |= u64::from(bits_of_bytes(eight)) << (8 * i);
        }
        chunk.fill(0);
        *word |= bits;
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn fold_bytes_avx512(row: &mut [u8], words: &mut [u64]) {
    use std::arch::x86_64::*;
    let p = row.as_mut_ptr();
    for (j, word) in words.iter_mut().enumerate() {
        let at = p.add(64 * j) as *mut _;
        let v = _mm512_loadu_si512(at);
        *word |= _mm512_test_epi8_mask(v, v);
        _mm512_storeu_si512(at, _mm512_setzero_si512());
    }
}

/// Bit `j` set for each byte `j` that is 1 (every byte must be 0 or 1):
/// one multiplication gathers the eight bytes' low bits into the top byte
/// (byte `j` lands on bit `56 + j`; the partial products never overlap, so
/// nothing carries).
#[inline(always)]
pub fn bits_of_bytes(bytes: [u8; 8]) -> u8 {
    debug_assert!(bytes.iter().all(|b| *b <= 1));
    (u64::from_le_bytes(bytes).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn fold_stamps_avx512(stamps: &[u32], stamp: u32, words: &mut [u64]) {
    use std::arch::x86_64::*;
    let stamp = _mm512_set1_epi32(stamp as i32);
    let p = stamps.as_ptr();
    for (j, word) in words.iter_mut().enumerate() {
        let mut bits = 0u64;
        for q in 0..4 {
            let s = _mm512_loadu_si512(p.add(64 * j + 16 * q) as *const _);
            bits |= (_mm512_cmpeq_epi32_mask(s, stamp) as u64) << (16 * q);
        }
        *word |= bits;
    }
}

/// For values below 64: the set of `table[a + i] ^ table[m - a - i]` for
/// `i` in `0..32`, as the bits of a word.
///
/// # Safety
/// AVX-512F/BW must be available, and `a + 31 <= m - a - 31 + 31 < len`,
/// that is `a + 31 <= m - a` and `m - a < len`, for the `len` values at `table`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
pub unsafe fn pair_set64(table: *const u16, m: usize, a: usize) -> u64 {
    use std::arch::x86_64::*;
    let reverse = _mm512_set_epi16(
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
        25, 26, 27, 28, 29, 30, 31,
    );
    let up = _mm512_loadu_si512(table.add(a) as *const _);
    let down = _mm512_loadu_si512(table.add(m - a - 31) as *const _);
    let v = _mm512_xor_si512(up, _mm512_permutexvar_epi16(reverse, down));
    _mm512_reduce_or_epi64(word_bits(v, !0)) as u64
}

/// [`pair_set64`] for `n - k` with each `k` in `ks`, ORed: one reduction
/// for all.
///
/// # Safety
/// As [`pair_set64`] for each `m = n - k` (so `k <= n`).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
pub unsafe fn pair_sets64(table: *const u16, n: usize, ks: &[usize], a: usize) -> u64 {
    use std::arch::x86_64::*;
    let reverse = _mm512_set_epi16(
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
        25, 26, 27, 28, 29, 30, 31,
    );
    let mut bits = _mm512_setzero_si512();
    for &k in ks {
        let m = n - k;
        let up = _mm512_loadu_si512(table.add(a) as *const _);
        let down = _mm512_loadu_si512(table.add(m - a - 31) as *const _);
        let v = _mm512_xor_si512(up, _mm512_permutexvar_epi16(reverse, down));
        bits = _mm512_or_si512(bits, word_bits(v, !0));
    }
    _mm512_reduce_or_epi64(bits) as u64
}

/// For the 32 words of `v` whose bits are set in `keep`: in each 64-bit
/// lane, bits `1 << (w & 63)` for some of them, so that the OR of the lanes
/// has every kept word's bit.
///
/// The words are masked to six bits first: `_mm512_sllv_epi64` is written as
/// a shift that gives 0 from 64 on, and without the mask the compiler adds a
/// comparison per eight words to honour that. Words to drop are masked out
/// of the shifts instead.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
unsafe fn word_bits(v: std::arch::x86_64::__m512i, keep: u32) -> std::arch::x86_64::__m512i {
    use std::arch::x86_64::*;
    let ones = _mm512_set1_epi64(1);
    let v = _mm512_and_si512(v, _mm512_set1_epi16(63));
    // Four quarters of eight words, widened to 64-bit lanes, become bits.
    let q0 = _mm512_cvtepu16_epi64(_mm512_castsi512_si128(v));
    let q1 = _mm512_cvtepu16_epi64(_mm512_extracti32x4_epi32::<1>(v));
    let q2 = _mm512_cvtepu16_epi64(_mm512_extracti32x4_epi32::<2>(v));
    let q3 = _mm512_cvtepu16_epi64(_mm512_extracti32x4_epi32::<3>(v));
    let shift = |k: u32, q| _mm512_maskz_sllv_epi64((k & 0xff) as __mmask8, ones, q);
    _mm512_or_si512(
        _mm512_or_si512(shift(keep, q0), shift(keep >> 8, q1)),
        _mm512_or_si512(shift(keep >> 16, q2), shift(keep >> 24, q3)),
    )
}

/// For values below 64: the set of `values[i] ^ table[m - rare[i]]` over
/// every rare heap, as the bits of a word: the options through rare heaps, 16 per step (a gather of the
/// partners).
///
/// # Safety
/// AVX-512F/BW must be available, `rare` and `values` as long, every
/// `rare[i]` in `1..m` with `m - rare[i] < table.len()`, and `m < 2^31`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
pub unsafe fn rare_set64(table: &[u16], rare: &[u32], values: &[u32], m: usize) -> u64 {
    use std::arch::x86_64::*;
    debug_assert!(rare.len() == values.len());
    debug_assert!(rare
        .iter()
        .all(|&r| r >= 1 && (r as usize) < m && m - (r as usize) < table.len()));
    let ones = _mm512_set1_epi64(1);
    let last = _mm512_set1_epi32(m as i32 - 1);
    let mut bits = _mm512_setzero_si512();
    let mut i = 0;
    while i < rare.len() {
        let left = rare.len() - i;
        let lanes: __mmask16 = if left >= 16 { !0 } else { (1 << left) - 1 };
        let r = _mm512_maskz_loadu_epi32(lanes, rare.as_ptr().add(i) as *const i32);
        let own = _mm512_maskz_loadu_epi32(lanes, values.as_ptr().add(i) as *const i32);
        // 32 bits read at m - r - 1 (inside the table): the partner is the upper half.
        let at = _mm512_sub_epi32(last, r);
        let pair = _mm512_mask_i32gather_epi32::<2>(
            _mm512_setzero_si512(),
            lanes,
            at,
            table.as_ptr() as *const i32,
        );
        // Six bits (see `word_bits`); lanes beyond the list set no bit.
        let x = _mm512_and_si512(
            _mm512_xor_si512(_mm512_srli_epi32::<16>(pair), own),
            _mm512_set1_epi32(63),
        );
        let lo = _mm512_cvtepu32_epi64(_mm512_castsi512_si256(x));
        let hi = _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64::<1>(x));
        bits = _mm512_or_si512(
            bits,
            _mm512_or_si512(
                _mm512_maskz_sllv_epi64(lanes as __mmask8, ones, lo),
                _mm512_maskz_sllv_epi64((lanes >> 8) as __mmask8, ones, hi),
            ),
        );
        i += 16;
    }
    _mm512_reduce_or_epi64(bits) as u64
}

/// The word-set operations of the small-value loop, for a processor with
/// AVX-512 ([`Avx512`]), AVX2 ([`Avx2`]) or any other ([`Portable`]): the
/// loop is written once over this trait. Every value they read must be below
/// 64.
pub trait SmallSets {
    /// Whether the loop looks at the first splits before it knows whether
    /// any value is wanted: true where they cost a few vector
    /// instructions, false in plain code.
    const EAGER: bool = true;
    /// The splits [`SmallSets::pair_set`] looks at.
    const STEP: usize = 32;
    /// Whether the search reads byte copies of the table's first and last
    /// heaps through [`pair_set_bytes`] where it can.
    const BYTES: bool = false;
    /// See [`rare_set64`]; same contract.
    ///
    /// # Safety
    /// As [`rare_set64`] (the features only for [`Avx512`]).
    unsafe fn rare_set(table: &[u16], rare: &[u32], values: &[u32], m: usize) -> u64;
    /// For splits `k` within four of each other: the set of `values[i] ^
    /// table[n - k - rare[i]]` for every rare heap and every `k` in `kmax -
    /// 3..=kmax` whose bit `kmax - k` is set in `ks`, as the bits of a word
    /// (values below 64): the options of `n` through rare heaps. The
    /// small-value loop calls it with one split size; with several it
    /// takes [`SmallSets::rare_set`] for one and the others from the heaps
    /// before.
    ///
    /// # Safety
    /// The features of `Self`; `rare` and `values` as long, every
    /// `rare[i] + kmax < n <= table.len()`, `kmax >= 3`, and `n < 2^31`.
    ///
    /// By default [`SmallSets::rare_set`] for each split size in turn: one
    /// partner a rare heap, not the four of all sizes loaded at once and
    /// three dropped. With one split size (0.16's) that took 0.16 to 10^6
    /// 0.128-0.147 s against 0.190-0.193 s on the portable path and
    /// 0.070-0.072 s against 0.086-0.096 s with AVX-512's gathers
    /// (`octal_speed 016 1000000 serial`, AMD EPYC Zen 4). The AVX2 version
    /// keeps the four-partner load, as fast or faster there.
    #[inline(always)]
    unsafe fn rare_span(
        table: &[u16],
        rare: &[u32],
        values: &[u32],
        n: usize,
        kmax: usize,
        ks: u8,
    ) -> u64 {
        debug_assert!(rare.len() == values.len() && kmax >= 3 && n <= table.len());
        debug_assert!(rare.iter().all(|&r| r as usize + kmax < n));
        (0..4).filter(|j| ks & (1 << j) != 0).fold(0, |bits, j| {
            // SAFETY: as documented; every partner n - (kmax - j) - r is
            // below n <= table.len().
            bits | unsafe { Self::rare_set(table, rare, values, n - (kmax - j)) }
        })
    }
    /// See [`pair_set64`], for the [`SmallSets::STEP`] splits from `a`
    /// (32 there).
    ///
    /// # Safety
    /// As [`pair_set64`], with `a + STEP - 1 <= m - a`.
    unsafe fn pair_set(table: *const u16, m: usize, a: usize) -> u64;
    /// See [`pair_sets64`].
    ///
    /// # Safety
    /// As [`pair_sets64`].
    unsafe fn pair_sets(table: *const u16, n: usize, ks: &[usize], a: usize) -> u64;
}

/// [`SmallSets`] with AVX-512F/BW (callers must have checked [`available`]).
#[cfg(target_arch = "x86_64")]
pub struct Avx512;

#[cfg(target_arch = "x86_64")]
impl SmallSets for Avx512 {
    #[inline(always)]
    unsafe fn rare_set(table: &[u16], rare: &[u32], values: &[u32], m: usize) -> u64 {
        rare_set64(table, rare, values, m)
    }
    #[inline(always)]
    unsafe fn pair_set(table: *const u16, m: usize, a: usize) -> u64 {
        pair_set64(table, m, a)
    }
    #[inline(always)]
    unsafe fn pair_sets(table: *const u16, n: usize, ks: &[usize], a: usize) -> u64 {
        pair_sets64(table, n, ks, a)
    }
}

/// The set of `up[j] ^ down[7 - j]` for `j` in `0..8` (values below 64),
/// as the bits of a word: [`SmallSets::pair_set`] for eight splits over
/// copies of the table with a byte a value, `up` at heap `a` and `down` at
/// heap `m - a - 7`. The eight values of a run are one 64-bit word, and
/// the run down is reversed by swapping its bytes (one instruction, where
/// the lanes of two bytes take six).
///
/// # Safety
/// Eight bytes readable at `up` and at `down`.
#[inline(always)]
pub unsafe fn pair_set_bytes(up: *const u8, down: *const u8) -> u64 {
    // SAFETY: as documented.
    let (up, down) = unsafe {
        (
            up.cast::<u64>().read_unaligned(),
            down.cast::<u64>().read_unaligned(),
        )
    };
    let values = up ^ down.swap_bytes();
    (0..8).fold(0, |bits, j| bits | bit(values >> (8 * j) & 63))
}

/// [`SmallSets`] in plain Rust, for any processor: the reference of the
/// vector versions, and the fallback without AVX-512.
pub struct Portable;

/// `1 << i` at `i`.
static BITS: [u64; 64] = {
    let mut bits = [0; 64];
    let mut i = 0;
    while i < 64 {
        bits[i] = 1 << i;
        i += 1;
    }
    bits
};

/// `1 << v` for `v` below 64 (the small-value loop's values are), from a
/// table: a shift by a per-lane amount, vectorized by the compiler, costs
/// SSE2 a shuffle and a blend each (twice the time on 0.1777).
#[inline(always)]
fn bit(v: u64) -> u64 {
    debug_assert!(v < 64);
    BITS[(v & 63) as usize]
}

impl SmallSets for Portable {
    const EAGER: bool = false;
    const STEP: usize = 8;
    const BYTES: bool = true;
    #[inline(always)]
    unsafe fn rare_set(table: &[u16], rare: &[u32], values: &[u32], m: usize) -> u64 {
        debug_assert!(rare.iter().all(|&r| (1..m).contains(&(r as usize))));
        debug_assert!(rare.iter().all(|&r| m - (r as usize) < table.len()));
        rare.iter().zip(values).fold(0, |bits, (&r, &v)| {
            // SAFETY: every partner m - r is in the table (the contract).
            let partner = unsafe { *table.get_unchecked(m - r as usize) };
            bits | bit(u64::from(v ^ u32::from(partner)))
        })
    }
    #[inline(always)]
    unsafe fn pair_set(table: *const u16, m: usize, a: usize) -> u64 {
        // Four values to a 64-bit word, in plain integer code: the two runs
        // read as words, the downward one with its lanes reversed. (Left
        // to the compiler, the lanes took a trip through memory.)
        let word = |at: usize| {
            // SAFETY: the caller guarantees a..a + 8 and m - a - 7..=m - a are readable.
            unsafe { table.add(at).cast::<u64>().read_unaligned() }
        };
        // Lane j of the result (16 bits at `16 * j` on a little-endian
        // processor) from lane 3 - j.
        let reverse = |x: u64| {
            let x = x.rotate_left(32);
            (x >> 16 & 0x0000_ffff_0000_ffff) | (x & 0x0000_ffff_0000_ffff) << 16
        };
        let low = word(a) ^ reverse(word(m - a - 3));
        let high = word(a + 4) ^ reverse(word(m - a - 7));
        let at = |x: u64, j: u32| bit(x >> (16 * j) & 63);
        (at(low, 0) | at(high, 0))
            | (at(low, 1) | at(high, 1))
            | (at(low, 2) | at(high, 2))
            | (at(low, 3) | at(high, 3))
    }
    #[inline(always)]
    unsafe fn pair_sets(table: *const u16, n: usize, ks: &[usize], a: usize) -> u64 {
        ks.iter().fold(0, |bits, &k| {
            (0..32)
                .step_by(Self::STEP)
                .fold(bits, |bits, i| bits | Self::pair_set(table, n - k, a + i))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The plain search: one split at a time.
    fn reference(table: &[u16], m: usize, from: usize, want: &mut Wanted) {
        for a in from.max(1)..=m / 2 {
            if want.count == 0 {
                break;
            }
            want.take(u32::from(table[a] ^ table[m - a]));
        }
    }

    proptest! {
        #[test]
        fn vector_search_agrees_with_one_at_a_time(
            table in prop::collection::vec(0u16..1100, 2..3000),
            picks in prop::collection::vec(0u32..1024, 0..40),
            scale in 0u32..3,
            m_frac in 0.0f64..1.0,
            from in 0usize..50,
        ) {
            let m = ((table.len() - 1) as f64 * m_frac) as usize;
            // Values and wanted sets below 1024, 2048 or 4096.
            let table: Vec<u16> = table.iter().map(|v| (*v << scale) ^ (*v & 3)).collect();
            let mut bits = [0u64; 64];
            for v in picks {
                let v = (v << scale) ^ (v & 3);
                bits[(v >> 6) as usize] |= 1 << (v & 63);
            }
            let mut slow = Wanted::from_bits(&bits);
            reference(&table, m, from, &mut slow);
            // On AVX-512, both searches: a branch per step, and in batches
            // where VBMI2 packs the hits.
            for (path, unbatched) in Path::supported_paths().into_iter().flat_map(|p| [(p, false), (p, true)]) {
                UNBATCHED.with(|u| u.set(unbatched));
                let mut fast = Wanted::from_bits(&bits);
                search(path, &table, m, from, &mut fast);
                prop_assert_eq!(fast.count, slow.count);
                prop_assert_eq!(fast.first(), slow.first());
                prop_assert_eq!(fast.words, slow.words);
            }
            UNBATCHED.with(|u| u.set(false));
        }
    }

    proptest! {
        /// Two sets searched span by span in turns on one thread; then a
        /// set searched halfway, cloned, and both searched on, the
        /// original first: the portable search's byte copy of a set passes
        /// from one set to another and back, and each set ends as the
        /// plain search leaves it.
        #[test]
        fn searches_in_turns_agree_with_one_at_a_time(
            table in prop::collection::vec(0u16..2000, 2..3000),
            picks in prop::collection::vec((0u32..2048, any::<bool>()), 0..80),
            span in 1usize..200,
            m_frac in 0.0f64..1.0,
        ) {
            let m = ((table.len() - 1) as f64 * m_frac) as usize;
            let half = m / 2;
            let mut bits = [[0u64; 64]; 2];
            for (v, second) in picks {
                bits[second as usize][(v >> 6) as usize] |= 1 << (v & 63);
            }
            let expected = bits.map(|bits| {
                let mut slow = Wanted::from_bits(&bits);
                reference(&table, m, 1, &mut slow);
                slow
            });
            for path in Path::supported_paths() {
                let mut sets = bits.map(|bits| Wanted::from_bits(&bits));
                let mut from = 1;
                while from <= half {
                    let to = (from + span - 1).min(half);
                    for set in &mut sets {
                        search_to(path, &table, m, from, to, set);
                    }
                    from = to + 1;
                }
                for (set, slow) in sets.iter().zip(&expected) {
                    prop_assert_eq!(set.count, slow.count);
                    prop_assert_eq!(set.words, slow.words);
                }
                let mut original = Wanted::from_bits(&bits[0]);
                search_to(path, &table, m, 1, half / 2, &mut original);
                let mut clone = original.clone();
                for set in [&mut original, &mut clone] {
                    search_to(path, &table, m, half / 2 + 1, half, set);
                    prop_assert_eq!(set.count, expected[0].count);
                    prop_assert_eq!(set.words, expected[0].words);
                }
            }
        }
    }

    proptest! {
        #[test]
        fn vector_marks_agree_with_one_at_a_time(
            table in prop::collection::vec(0u16..300, 2..300),
            picks in prop::collection::vec(any::<prop::sample::Index>(), 0..60),
            m_frac in 0.0f64..1.0,
        ) {
            let m = ((table.len() - 1) as f64 * m_frac) as usize;
            let mut rare: Vec<u32> = picks.iter().filter(|_| m >= 2).map(|i| 1 + i.index(m - 1) as u32).collect();
            rare.sort_unstable();
            rare.dedup();
            let values: Vec<u32> = rare.iter().map(|r| u32::from(table[*r as usize])).collect();
            let mut expected = [0u64; 8];
            for r in &rare {
                let v = (table[*r as usize] ^ table[m - *r as usize]) as usize & 511;
                expected[v / 64] |= 1 << (v % 64);
            }
            for path in Path::supported_paths() {
                let mut stamps = vec![7u32; 512];
                mark_pairs(path, &table, &rare, &values, m, &mut stamps, 9, 511);
                let mut words = [0u64; 8];
                fold_stamps(path, &stamps, 9, &mut words);
                prop_assert_eq!(words, expected);
            }
        }
    }

    /// `1 << v` for each `v` below 64, ORed.
    fn bits_of(values: impl IntoIterator<Item = u32>) -> u64 {
        values
            .into_iter()
            .filter(|v| *v < 64)
            .fold(0, |bits, v| bits | 1 << v)
    }

    proptest! {
        #[test]
        fn small_value_sets_agree_with_one_at_a_time(
            // The sets ask for values below 64.
            table in prop::collection::vec(0u16..64, 80..300),
            picks in prop::collection::vec(any::<prop::sample::Index>(), 0..40),
            ks in prop::collection::btree_set(0usize..4, 1..4),
            base in 1usize..6,
            n_frac in 0.0f64..1.0,
        ) {

            let len = table.len();
            let ks: Vec<usize> = ks.into_iter().map(|k| k + base).collect();
            let kmax = base + 3;
            let n = 72 + ((len - 72) as f64 * n_frac) as usize;
            let mut rare: Vec<u32> = picks.iter().map(|i| 1 + i.index(n - kmax - 1) as u32).collect();
            rare.sort_unstable();
            rare.dedup();
            let values: Vec<u32> = rare.iter().map(|r| u32::from(table[*r as usize])).collect();
            let pair = |m: usize, r: u32| u32::from(table[r as usize] ^ table[m - r as usize]);
            let mask = ks.iter().fold(0u8, |acc, k| acc | 1 << (kmax - k));
            let spans = bits_of(ks.iter().flat_map(|&k| rare.iter().map(move |&r| (k, r))).map(|(k, r)| pair(n - k, r)));
            let long = ks.iter().all(|k| (n - k) / 2 >= 64);
            let pairs = bits_of(ks.iter().flat_map(|&k| (33..65).map(move |a| pair(n - k, a as u32))));
            let first = |step: usize| bits_of((33..33 + step).map(|a| pair(n - ks[0], a as u32)));
            // SAFETY: the bounds as below; the portable versions need no features.
            unsafe {
                prop_assert_eq!(<Portable as SmallSets>::rare_span(&table, &rare, &values, n, kmax, mask), spans);
                if long {
                    prop_assert_eq!(<Portable as SmallSets>::pair_sets(table.as_ptr(), n, &ks, 33), pairs);
                    prop_assert_eq!(<Portable as SmallSets>::pair_set(table.as_ptr(), n - ks[0], 33), first(Portable::STEP));
                    let bytes: Vec<u8> = table.iter().map(|&v| v as u8).collect();
                    let m = n - ks[0];
                    prop_assert_eq!(
                        pair_set_bytes(bytes.as_ptr().add(33), bytes.as_ptr().add(m - 33 - 7)),
                        first(8)
                    );
                }
            }
            #[cfg(target_arch = "x86_64")]
            if avx2_available() {
                // SAFETY: AVX2 is available; the bounds as below.
                unsafe {
                    prop_assert_eq!(<Avx2 as SmallSets>::rare_span(&table, &rare, &values, n, kmax, mask), spans);
                    if long {
                        prop_assert_eq!(<Avx2 as SmallSets>::pair_sets(table.as_ptr(), n, &ks, 33), pairs);
                        prop_assert_eq!(<Avx2 as SmallSets>::pair_set(table.as_ptr(), n - ks[0], 33), first(Avx2::STEP));
                    }
                }
            }
            if !available() {
                return Ok(());
            }
            // Options through rare heaps, one split size at a time and all at once.
            for &k in &ks {
                let m = n - k;
                let fast = unsafe { rare_set64(&table, &rare, &values, m) };
                prop_assert_eq!(fast, bits_of(rare.iter().map(|&r| pair(m, r))));
            }
            let mask = ks.iter().fold(0u8, |acc, k| acc | 1 << (kmax - k));
            let slow = bits_of(ks.iter().flat_map(|&k| rare.iter().map(move |&r| (k, r))).map(|(k, r)| pair(n - k, r)));
            let fast = unsafe { <Avx512 as SmallSets>::rare_span(&table, &rare, &values, n, kmax, mask) };
            prop_assert_eq!(fast, slow);
            // Splits (a, m - a) for a in 33..65.
            if ks.iter().all(|k| (n - k) / 2 >= 64) {
                let fast = unsafe { pair_sets64(table.as_ptr(), n, &ks, 33) };
                let slow = bits_of(ks.iter().flat_map(|&k| (33..65).map(move |a| pair(n - k, a as u32))));
                prop_assert_eq!(fast, slow);
                let k = ks[0];
                let fast = unsafe { pair_set64(table.as_ptr(), n - k, 33) };
                prop_assert_eq!(fast, bits_of((33..65).map(|a| pair(n - k, a as u32))));
            }
        }
    }

    #[test]
    fn bits_of_bytes_gathers_every_pattern() {
        for bits in 0..=255u8 {
            let bytes: [u8; 8] = std::array::from_fn(|j| (bits >> j) & 1);
            assert_eq!(bits_of_bytes(bytes), bits);
        }
    }

    #[test]
    fn finds_a_value_in_the_last_split() {
        let mut table = vec![0u16; 201];
        table[99] = 5;
        table[101] = 3;
        let mut bits = [0u64; 16];
        bits[0] = 1 << 6;
        let mut want = Wanted::from_bits(&bits);
        let steps = search(Path::best(), &table, 200, 0, &mut want);
        assert_eq!(want.count, 0);
        assert_eq!(steps, 99);
        for path in Path::supported_paths() {
            let mut bits = [0u64; 64];
            bits[63] = 1 << 63;
            let mut want = Wanted::from_bits(&bits);
            search(path, &table, 199, 3, &mut want);
            assert_eq!(want.first(), Some(4095));
        }
    }
}
