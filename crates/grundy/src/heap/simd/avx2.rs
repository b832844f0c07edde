//! Kernels for x86-64 processors with AVX2 but not AVX-512 (and for the
//! `avx2` path of any x86-64 processor that has it).
//!
//! These are designed for AVX2 rather than being the AVX-512 kernels at half
//! width: gathers are slow on AMD processors, and 16-bit word permutations
//! across a register do not exist. The search for wanted values keeps the
//! few values still wanted each broadcast in a register and compares 16
//! splits' values with each (`vpcmpeqw`): when a search starts, usually only
//! a handful of values are wanted, and every hit removes one.

use super::Wanted;
use std::arch::x86_64::*;

/// At most this many wanted values are compared one register each (up to
/// [`MAX_WIDE_COMPARED`] where the set needs all sixteen byte tables:
/// [`compared_up_to`]); with more, the set is looked up with byte
/// shuffles ([`lookup`]).
const MAX_COMPARED: usize = 4;

/// Sets with values of 2048 or more (no byte tables) are compared, one
/// register a value, up to this many; the caller marks the first splits
/// in bytes first ([`crate::heap::rare`]'s `confirm`), so that few are left.
/// So are sets with values from 1024 to 2047.
const MAX_WIDE_COMPARED: usize = 8;

/// Steps of 32 splits per batch of [`lookup`]: 128 splits between two
/// updates of the set. Shorter batches find a value again fewer times
/// before it is taken out: Officers to 10^6 took 1.41-1.43 s against
/// 1.50-1.60 s with 8 steps and 1.49-1.62 s with 2 (`GRUNDY_SIMD=avx2
/// octal_speed 06 1000000 serial`, AMD EPYC Zen 4; 0.007 to 10^5 alike).
const BATCH_STEPS: usize = 4;

/// The vector part of [`super::search_to`] with AVX2: steps of 16 or 32
/// splits from `a` while they end by `half` (at most `m / 2`); returns the
/// first split not looked at (or one past the step whose hit emptied the
/// set).
///
/// # Safety
/// AVX2 must be available, `half <= m / 2` and `m <= table.len()`.
#[target_feature(enable = "avx2")]
pub unsafe fn search(
    table: &[u16],
    m: usize,
    mut a: usize,
    half: usize,
    want: &mut Wanted,
) -> usize {
    debug_assert!(half <= m / 2 && m <= table.len());
    while want.count > 0 && a + 15 <= half {
        let tables = if want.count > MAX_COMPARED {
            byte_tables(want)
        } else {
            None
        };
        let lookups = tables.is_some() && a + 31 <= half;
        if want.count > compared_up_to(tables) && (lookups || want.count > MAX_WIDE_COMPARED) {
            // SAFETY (each): AVX2 is available; `a + 31 <= half` keeps
            // the loads inside the table, as in `lookup`.
            a = match tables {
                Some(t) if lookups => unsafe {
                    match t {
                        2 => lookup::<2>(table, m, a, half, want),
                        4 => lookup::<4>(table, m, a, half, want),
                        8 => lookup::<8>(table, m, a, half, want),
                        _ => lookup::<16>(table, m, a, half, want),
                    }
                },
                // Many values of 2048 or more, or the last splits before
                // `half`: looked up in a byte a value, 16 splits a step
                // (the plain-code probe, compiled here with AVX2). One by
                // one, each split waited on the one before through the
                // set's count: 0.007 to 400,000 took 7.3-7.5 s, now
                // 5.6-6.4 s (`GRUNDY_SIMD=avx2 octal_speed 0007 400000
                // serial`, AMD EPYC Zen 4).
                _ => super::portable::probe(table, m, a, half, want),
            };
            continue;
        }
        // Few values (of 2048 or more, or needing sixteen tables: up to
        // eight), or the last splits before `half`: compared.
        let mut values = [0u16; MAX_WIDE_COMPARED];
        let count = want.list(&mut values);
        // SAFETY (each): AVX2 is available; `a + 15 <= half` keeps the loads
        // inside the table, as in `compare`.
        a = unsafe {
            match count {
                1 => compare::<1>(table, m, a, half, &values[..count], want),
                2 => compare::<2>(table, m, a, half, &values[..count], want),
                3 | 4 => compare::<4>(table, m, a, half, &values[..count], want),
                _ => compare::<MAX_WIDE_COMPARED>(table, m, a, half, &values[..count], want),
            }
        };
    }
    a
}

/// How many byte tables of 16 bytes (128 values each) [`lookup`] needs for
/// `want`: 2, 4, 8 or 16, as its largest member needs; `None` for members
/// of 2048 or more. Whole ranges of words are ORed (in vector registers),
/// not searched one by one for the last member: that search took a tenth
/// of Officers' search here.
fn byte_tables(want: &Wanted) -> Option<usize> {
    let any = |words: &[u16]| words.iter().fold(0, |acc, &w| acc | w) != 0;
    let words = &want.words;
    (want.groups <= 2).then(|| {
        if any(&words[64..128]) {
            16
        } else if any(&words[32..64]) {
            8
        } else if any(&words[16..32]) {
            4
        } else {
            2
        }
    })
}

/// Up to how many wanted values are compared rather than looked up, given
/// the set's [`byte_tables`]: [`MAX_COMPARED`], and [`MAX_WIDE_COMPARED`]
/// where there are no tables or all sixteen are needed. A step of the
/// sixteen tables' lookup (sixteen shuffles and fifteen blends for 32
/// splits) costs more than eight comparisons of 16 splits twice. `0.007`
/// to 600,000 took 8.32–8.58 s against 8.45–8.46 s with four, to 300,000
/// as long (`GRUNDY_SIMD=avx2 GRUNDY_THREADS=1 taskset -c 1 octal_speed
/// 0007 N serial`, Intel Xeon, family 6 model 207): most of the search is
/// spent on the last one or two values.
fn compared_up_to(tables: Option<usize>) -> usize {
    match tables {
        Some(16) | None => MAX_WIDE_COMPARED,
        Some(_) => MAX_COMPARED,
    }
}

/// [`super::fold_stamps`] with AVX2: eight stamps compared per instruction,
/// their signs gathered with `vmovmskps`.
///
/// # Safety
/// AVX2; `stamps` holds 64 per word of `words`.
#[target_feature(enable = "avx2")]
pub unsafe fn fold_stamps(stamps: &[u32], stamp: u32, words: &mut [u64]) {
    debug_assert!(stamps.len() >= 64 * words.len());
    let stamp = _mm256_set1_epi32(stamp as i32);
    let p = stamps.as_ptr();
    for (j, word) in words.iter_mut().enumerate() {
        let mut bits = 0u64;
        for q in 0..8 {
            let s = _mm256_loadu_si256(p.add(64 * j + 8 * q) as *const __m256i);
            let hit = _mm256_castsi256_ps(_mm256_cmpeq_epi32(s, stamp));
            bits |= (_mm256_movemask_ps(hit) as u64) << (8 * q);
        }
        *word |= bits;
    }
}

/// The sixteen words from `ptr` on, last first.
///
/// The two halves are loaded into each other's 128-bit lane (a load and a
/// `vinserti128` from memory), so only an in-lane `vpshufb` is left to do:
/// no lane-crossing `vpermq`, which shares the one shuffle port on Intel
/// and is slower still on AMD's Zen 3.
///
/// # Safety
/// AVX2; the 16 words inside the table at `ptr`.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn reversed16(ptr: *const u16) -> __m256i {
    let reverse = _mm256_setr_epi8(
        14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 14, 15, 12, 13, 10, 11, 8, 9, 6, 7,
        4, 5, 2, 3, 0, 1,
    );
    let swapped = _mm256_loadu2_m128i(ptr as *const __m128i, ptr.add(8) as *const __m128i);
    _mm256_shuffle_epi8(swapped, reverse)
}

/// The values of the 16 splits `(a + i, m - a - i)`.
///
/// # Safety
/// AVX2; `a..a + 16` and `m - a - 15..=m - a` inside the table at `ptr`.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn splits16(ptr: *const u16, m: usize, a: usize) -> __m256i {
    let up = _mm256_loadu_si256(ptr.add(a) as *const __m256i);
    _mm256_xor_si256(up, reversed16(ptr.add(m - a - 15)))
}

/// Steps of 32 splits looking each split's value up in the set, whose
/// members are all below `128 * T` (T = 2, 4, 8 or 16), as `T` tables of 16
/// bytes (bit `v & 7` of byte `v >> 3`): the byte is fetched with one
/// `vpshufb` per table and a tree of `vpblendvb` (fast on AMD), the bit
/// with one more `vpshufb`. The values of the lanes that
/// hit are taken out of `want` (exactly, one by one), and the tables
/// reloaded; returns the next split once few values are left (or none),
/// else `a` once `a + 31 > half`.
///
/// Sixteen tables (values up to 2047, as Treblecross's near a million
/// heaps) took `GRUNDY_SIMD=avx2 octal_speed 0007 1000000 serial` 15.6 s
/// against 17.3 s when such sets were looked up a split at a time, and
/// 0.007 to 300,000 4.0-4.4 s against 4.3-5.4 s (AMD EPYC Zen 4). Eight
/// tables folded (values modulo 1024, each hit checked) took 5.7-6.7 s
/// there: many splits' values are 1024 or more, and each that aliased a
/// wanted value was a hit to check.
///
/// # Safety
/// AVX2; `half <= m / 2 <= table.len() / 2`; no member of 2048 or more.
#[target_feature(enable = "avx2")]
unsafe fn lookup<const T: usize>(
    table: &[u16],
    m: usize,
    mut a: usize,
    half: usize,
    want: &mut Wanted,
) -> usize {
    let load = |want: &Wanted| {
        let mut tables = [_mm256_setzero_si256(); T];
        for (t, v) in tables.iter_mut().enumerate() {
            // Bytes 16t..16t + 16 of the set are words 8t..8t + 8.
            // SAFETY: T <= 8: inside the 256 words.
            let bytes =
                unsafe { _mm_loadu_si128(want.words.as_ptr().add(8 * t) as *const __m128i) };
            *v = _mm256_broadcastsi128_si256(bytes);
        }
        tables
    };
    let mut tables = load(want);
    let bits = _mm256_setr_epi8(
        1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, -128, 0, 0,
        0, 0, 0, 0, 0, 0,
    );
    let seven = _mm256_set1_epi16(7);
    let limit = _mm256_set1_epi8((16 * T).min(127) as i8);
    let ptr = table.as_ptr();
    while a + 31 <= half {
        // A batch of steps, each keeping its hits as a mask of lanes; the
        // hits are taken out of `want` after the batch, so that a step
        // costs no branch (early in a search most steps hit, in lanes no
        // branch predictor can foresee).
        let mut masks = [0u32; BATCH_STEPS];
        // The steps' values, kept for their hits.
        let mut values = [[0u16; 32]; BATCH_STEPS];
        let mut any = 0u32;
        for (mask, kept) in masks.iter_mut().zip(values.iter_mut()) {
            if a + 31 > half {
                break;
            }
            // Both halves inside the table: a + 31 <= half <= m - a - 31.
            let v0 = splits16(ptr, m, a);
            let v1 = splits16(ptr, m, a + 16);
            _mm256_storeu_si256(kept.as_mut_ptr() as *mut __m256i, v0);
            _mm256_storeu_si256(kept.as_mut_ptr().add(16) as *mut __m256i, v1);
            // Byte index v >> 3 (255 from v >= 2048: with fewer than 16
            // tables no table has it; with 16 it stands for 2040-2047, and
            // such a hit is checked exactly when it is taken) and bit
            // v & 7, packed to bytes in the same (interleaved) lane order.
            let index = _mm256_packus_epi16(_mm256_srli_epi16::<3>(v0), _mm256_srli_epi16::<3>(v1));
            // `vpshufb` gives 0 where bit 7 is set: with 16 tables that
            // bit picks the upper eight instead (the last select below).
            let fetch = match T {
                16 => _mm256_and_si256(index, _mm256_set1_epi8(0x7f)),
                _ => index,
            };
            let low = _mm256_packus_epi16(_mm256_and_si256(v0, seven), _mm256_and_si256(v1, seven));
            // The byte from every table, then the right one by the index's
            // bits 4, 5, 6 and, with 16 tables, 7 (each moved to its byte's
            // top bit for `vpblendvb`).
            let mut level = [_mm256_setzero_si256(); T];
            for (v, tab) in level.iter_mut().zip(&tables) {
                *v = _mm256_shuffle_epi8(*tab, fetch);
            }
            let selects = [
                _mm256_slli_epi16::<3>(index),
                _mm256_slli_epi16::<2>(index),
                _mm256_slli_epi16::<1>(index),
                index,
            ];
            let mut width = T;
            for select in selects {
                if width == 1 {
                    break;
                }
                width /= 2;
                for j in 0..width {
                    level[j] = _mm256_blendv_epi8(level[2 * j], level[2 * j + 1], select);
                }
            }
            // Indices past the tables (values from 128 * T) find nothing.
            // From 128 on, `vpshufb` gives 0 by itself (and the signed
            // comparison would not); 16 tables take every index.
            let byte = match T {
                8 | 16 => level[0],
                _ => _mm256_and_si256(level[0], _mm256_cmpgt_epi8(limit, index)),
            };
            let hit = _mm256_and_si256(byte, _mm256_shuffle_epi8(bits, low));
            let zero = _mm256_cmpeq_epi8(hit, _mm256_setzero_si256());
            *mask = !(_mm256_movemask_epi8(zero) as u32);
            any |= *mask;
            a += 32;
        }
        if any != 0 {
            // The count in a register: through memory, each hit would
            // wait for the one before.
            let mut left = want.count;
            for (&mask, kept) in masks.iter().zip(&values) {
                let mut lanes = mask;
                while lanes != 0 {
                    // Packed bytes 0-7 are splits 0-7, 8-15 are 16-23, 16-23
                    // are 8-15 and 24-31 are 24-31.
                    let p = lanes.trailing_zeros() as usize;
                    lanes &= lanes - 1;
                    let i = (p & 7) | (p & 8) << 1 | (p & 16) >> 1;
                    // A value may hit twice in a batch: this checks.
                    left -= want.take_uncounted(u32::from(kept[i])) as usize;
                }
            }
            want.count = left;
            if want.count <= compared_up_to(Some(T)) {
                return a;
            }
            tables = load(want);
        }
    }
    a
}

/// Steps of 16 splits, comparing each split's value with `values` (the
/// set's members, at most `K`: repeated to fill `K` registers),
/// until a step hits: its hits are taken out of `want`, and the next split
/// is returned (or `a` once `a + 15 > half`).
#[target_feature(enable = "avx2")]
unsafe fn compare<const K: usize>(
    table: &[u16],
    m: usize,
    mut a: usize,
    half: usize,
    values: &[u16],
    want: &mut Wanted,
) -> usize {
    let mut wanted = [_mm256_setzero_si256(); K];
    for (i, w) in wanted.iter_mut().enumerate() {
        *w = _mm256_set1_epi16(values[i % values.len()] as i16);
    }
    let ptr = table.as_ptr();
    while a + 15 <= half {
        // a + 15 <= half <= m - a - 15 ... so m - a - 15 >= a >= 1 and
        // m - a < m <= table.len(): both loads are inside the table.
        let v = splits16(ptr, m, a);
        let mut hit = _mm256_cmpeq_epi16(v, wanted[0]);
        for w in &wanted[1..] {
            hit = _mm256_or_si256(hit, _mm256_cmpeq_epi16(v, *w));
        }
        if _mm256_testz_si256(hit, hit) == 0 {
            let mut lanes = [0u16; 16];
            _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, v);
            let mut bits = _mm256_movemask_epi8(hit) as u32;
            while bits != 0 {
                let lane = bits.trailing_zeros() as usize / 2;
                bits &= !(3 << (2 * lane));
                want.take(u32::from(lanes[lane]));
            }
            return a + 16;
        }
        a += 16;
    }
    a
}

/// The bits of 16 words below 64, as two halves of a 64-bit set: in each
/// 32-bit lane of `low`, bits `1 << w` for words below 32; of `high`, bits
/// `1 << (w - 32)` for the others. The OR of the lanes (low, then high
/// shifted up) has every word's bit.
///
/// Everything stays within 128-bit halves: the words are widened by
/// unpacking with zero (words 0-3 of each half to dwords, then 4-7) and
/// shifted by `vpsllvd`, which gives 0 for counts of 32 and more, so each
/// word sets a bit in one half only (`w - 32` wraps to a huge count for
/// small words). Widening to 64-bit lanes instead takes lane-crossing
/// `vpmovzxwq ymm` shuffles, which compete for the shuffle port; on AMD's
/// Zen 3 a 256-bit lane-crossing shuffle also costs more than an in-lane
/// unpack. Dword `d` of a 128-bit half holds word `d` (or `d + 4`) of each
/// 64-bit lane, which [`Avx2::rare_span`] relies on.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn word_bits(v: __m256i) -> (__m256i, __m256i) {
    let v = _mm256_and_si256(v, _mm256_set1_epi16(63));
    let zero = _mm256_setzero_si256();
    let a = _mm256_unpacklo_epi16(v, zero);
    let b = _mm256_unpackhi_epi16(v, zero);
    let ones = _mm256_set1_epi32(1);
    let thirty_two = _mm256_set1_epi32(32);
    let low = _mm256_or_si256(_mm256_sllv_epi32(ones, a), _mm256_sllv_epi32(ones, b));
    let high = _mm256_or_si256(
        _mm256_sllv_epi32(ones, _mm256_sub_epi32(a, thirty_two)),
        _mm256_sllv_epi32(ones, _mm256_sub_epi32(b, thirty_two)),
    );
    (low, high)
}

/// The 64-bit set of [`word_bits`]' halves: the OR of `low`'s 32-bit lanes,
/// and above it the OR of `high`'s.
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn or_lanes(low: __m256i, high: __m256i) -> u64 {
    // Low lanes in the low dword of each qword, high lanes in the high one.
    let both = _mm256_or_si256(
        _mm256_blend_epi32::<0b1010_1010>(low, _mm256_slli_epi64::<32>(high)),
        _mm256_blend_epi32::<0b1010_1010>(_mm256_srli_epi64::<32>(low), high),
    );
    let x = _mm_or_si128(
        _mm256_castsi256_si128(both),
        _mm256_extracti128_si256::<1>(both),
    );
    (_mm_cvtsi128_si64(x) | _mm_extract_epi64::<1>(x)) as u64
}

/// [`super::SmallSets`] with AVX2 (callers must have checked for it): the
/// options through rare heaps four partners per load (no gathers), the
/// splits' values turned into bits with `vpsllvq`.
pub struct Avx2;

impl super::SmallSets for Avx2 {
    #[inline(always)]
    unsafe fn rare_set(table: &[u16], rare: &[u32], values: &[u32], m: usize) -> u64 {
        // One partner per rare heap: scalar loads beat gathers on AMD.
        super::Portable::rare_set(table, rare, values, m)
    }

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
        // Words of a 64-bit lane: partners for k = kmax, kmax - 1, ...; in
        // the bits, 64-bit lane j holds the options for k = kmax - j of every
        // heap, kept only if that split size is a move.
        // Dword d of each 128-bit half holds word d of a 64-bit lane.
        let keep = _mm256_setr_epi32(
            -i32::from(ks & 1),
            -i32::from(ks >> 1 & 1),
            -i32::from(ks >> 2 & 1),
            -i32::from(ks >> 3 & 1),
            -i32::from(ks & 1),
            -i32::from(ks >> 1 & 1),
            -i32::from(ks >> 2 & 1),
            -i32::from(ks >> 3 & 1),
        );
        let base = table.as_ptr().add(n - kmax);
        let (mut low, mut high) = (_mm256_setzero_si256(), _mm256_setzero_si256());
        let mut i = 0;
        while i + 4 <= rare.len() {
            // Four partners of each of four rare heaps, one load each.
            let at = |j: usize| {
                // SAFETY: rare[j] + kmax < n: the four words at
                // n - kmax - rare[j] are below n <= table.len().
                unsafe { (base.sub(rare[j] as usize) as *const i64).read_unaligned() }
            };
            let partners = _mm256_set_epi64x(at(i + 3), at(i + 2), at(i + 1), at(i));
            let own =
                _mm256_cvtepu32_epi64(_mm_loadu_si128(values.as_ptr().add(i) as *const __m128i));
            let own = _mm256_or_si256(own, _mm256_slli_epi64::<16>(own));
            let own = _mm256_or_si256(own, _mm256_slli_epi64::<32>(own));
            let (l, h) = word_bits(_mm256_xor_si256(partners, own));
            low = _mm256_or_si256(low, l);
            high = _mm256_or_si256(high, h);
            i += 4;
        }
        let mut word = or_lanes(_mm256_and_si256(low, keep), _mm256_and_si256(high, keep));
        for j in 0..4 {
            if ks & (1 << j) != 0 {
                word |= super::Portable::rare_set(table, &rare[i..], &values[i..], n - (kmax - j));
            }
        }
        word
    }

    #[inline(always)]
    unsafe fn pair_set(table: *const u16, m: usize, a: usize) -> u64 {
        let (l0, h0) = word_bits(splits16(table, m, a));
        let (l1, h1) = word_bits(splits16(table, m, a + 16));
        or_lanes(_mm256_or_si256(l0, l1), _mm256_or_si256(h0, h1))
    }

    #[inline(always)]
    unsafe fn pair_sets(table: *const u16, n: usize, ks: &[usize], a: usize) -> u64 {
        let (mut low, mut high) = (_mm256_setzero_si256(), _mm256_setzero_si256());
        for &k in ks {
            let m = n - k;
            for at in [a, a + 16] {
                let (l, h) = word_bits(splits16(table, m, at));
                low = _mm256_or_si256(low, l);
                high = _mm256_or_si256(high, h);
            }
        }
        or_lanes(low, high)
    }
}

/// [`super::fold_bytes`] with AVX2.
///
/// # Safety
/// AVX2 must be available and `row` hold 64 bytes per word.
#[target_feature(enable = "avx2")]
pub unsafe fn fold_bytes(row: &mut [u8], words: &mut [u64]) {
    let p = row.as_mut_ptr();
    for (j, word) in words.iter_mut().enumerate() {
        let mut bits = 0u64;
        for half in 0..2 {
            let at = p.add(64 * j + 32 * half) as *mut __m256i;
            let v = _mm256_loadu_si256(at);
            // A byte of 1 (the only marks) has its top bit set after the shift.
            let set = _mm256_movemask_epi8(_mm256_slli_epi16(v, 7)) as u32;
            bits |= u64::from(set) << (32 * half);
            _mm256_storeu_si256(at, _mm256_setzero_si256());
        }
        *word |= bits;
    }
}
