//! Options through rare heaps compared with a few candidates instead of
//! stored one by one.
//!
//! The block marks ([`super::pipeline::block_marks`]) store each option
//! through a rare heap as a byte in its heap's row, and the processor
//! commits those stores about one a cycle: on Officers, 1,583 options a
//! heap. But the marks serve only to find the smallest common value no
//! option makes. Once the options through some of the rare heaps are
//! marked, each heap has a few unmarked common values left below that mex
//! (4 on average after 800 of Officers' 1,583 rare heaps, 300 heaps near
//! 10^6); those *candidates* are the only values the other rare heaps' options
//! must be compared with. A block's heaps pair with a rare heap through
//! consecutive partners, so its options are one run of the table, and a
//! candidate is compared with 64 heaps' options in a few vector
//! instructions.
//!
//! The comparison is in bytes where that is exact, under the same condition
//! as the packed tables ([`super::packed`]): the split's mask has bit 8,
//! every value is below 512, and every partner is common. An option through
//! a rare heap is then common, and a common value is its low byte.
//! Elsewhere (`0.007`'s sum-free set, values past 512, rare heaps still
//! turning up) it is in 16-bit lanes, exact for every value, with AVX-512
//! only (see [`deferred`]): half as many heaps a register. An option
//! through a deferred rare heap that is a rare value is then not marked at
//! all; it is one more wanted value, which the search finds among the
//! splits as it finds the others.
//!
//! A heap's marks of common values are exact below its *limit*: the value
//! after its last candidate (or everywhere, when it had fewer). A heap
//! whose smallest unmarked value reaches its limit is marked again in full
//! ([`super::pipeline::block_value`]); with a candidate list long enough,
//! that is a heap in some hundreds.

use super::packed::bytes_hold;
use super::{Bits, RareSplit};
use crate::heap::simd::Path;

/// Candidates per heap.
pub(super) const CANDIDATES: usize = 32;

/// Candidates compared at once: their running minima stay in registers.
const AT_ONCE: usize = 4;

/// The options of one rare heap for the `LANES` heaps at hand, as bytes:
/// its partners start at `old[at]`, its value's low byte is `value`.
#[derive(Clone, Copy)]
struct Run {
    at: usize,
    value: u16,
}

/// How options are compared with candidates: as bytes (see the module) or
/// as whole 16-bit values.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Width {
    Bytes,
    Words,
}

/// What [`compare`] keeps between groups of heaps, so that a block's groups
/// allocate once: the deferred rare heaps' runs, and their options as
/// bytes where a path reads them so.
#[derive(Default)]
pub(super) struct Scratch {
    runs: Vec<Run>,
    options: Vec<[u8; LANES]>,
}

/// Heaps whose candidates [`made_by`] compares together on `path`: a
/// vector register's lanes (all 64 bytes with AVX-512).
fn chunk(path: Path, width: Width) -> usize {
    let bytes = match path {
        Path::Portable => 16,
        Path::Avx2 => 32,
        Path::Avx512 => LANES,
    };
    match width {
        Width::Bytes => bytes,
        Width::Words => bytes / 2,
    }
}

/// Which candidates of `group` (bit i of entry j: heap i's) some option of
/// `runs` makes, for the heaps of `active` (whole chunks of [`chunk`]; the
/// others' bits say nothing).
#[inline(always)]
fn made_by(
    path: Path,
    old: &[u16],
    runs: &[Run],
    options: &mut Vec<[u8; LANES]>,
    (group, width): (&[[u16; LANES]; AT_ONCE], Width),
    active: u64,
) -> [u64; AT_ONCE] {
    if width == Width::Words {
        return made_by_words(path, old, runs, group, active);
    }
    let group: &[[u8; LANES]; AT_ONCE] = &group.map(|group| group.map(|v| v as u8));
    // The options as bytes, once: every group of candidates reads them.
    if options.len() != runs.len() {
        options.clear();
        options.extend(runs.iter().map(|run| {
            let at = run.at;
            let partners: &[u16; LANES] = old[at..at + LANES].try_into().expect("a whole run");
            std::array::from_fn(|i| (partners[i] ^ run.value) as u8)
        }));
    }
    #[cfg(target_arch = "x86_64")]
    if path.avx512() && crate::heap::simd::available() {
        // SAFETY: the features were just checked.
        return unsafe { made_avx512(options, group) };
    }
    // Heaps a vector register at a time, so that their candidates and
    // least XORs stay in registers while every option goes by.
    // The same widths as [`chunk`], which decides which heaps sit out.
    match chunk(path, Width::Bytes) {
        32 => made_in_chunks::<32>(options, group, active),
        _ => made_in_chunks::<16>(options, group, active),
    }
}

/// [`made_by`] without AVX-512, `C` heaps at a time (a vector register's
/// bytes), the chunks of `active` only: the least XOR of each candidate with the options, 0 where one
/// of them is the candidate.
#[inline(always)]
fn made_in_chunks<const C: usize>(
    options: &[[u8; LANES]],
    group: &[[u8; LANES]; AT_ONCE],
    active: u64,
) -> [u64; AT_ONCE] {
    let mut made = [0u64; AT_ONCE];
    for c in (0..LANES).step_by(C).filter(|c| active >> c & 1 != 0) {
        let mut candidates = [[0u8; C]; AT_ONCE];
        for (candidates, group) in candidates.iter_mut().zip(group) {
            candidates.copy_from_slice(&group[c..c + C]);
        }
        let mut least = [[u8::MAX; C]; AT_ONCE];
        for option in options {
            let option: &[u8; C] = (&option[c..c + C]).try_into().expect("a chunk");
            for j in 0..AT_ONCE {
                min_xor(&mut least[j], option, &candidates[j]);
            }
        }
        for (made, least) in made.iter_mut().zip(&least) {
            let mut bits = 0u64;
            for (i, &l) in least.iter().enumerate() {
                bits |= u64::from(l == 0) << i;
            }
            *made |= bits << c;
        }
    }
    made
}

/// `least[i] = min(least[i], option[i] ^ candidate[i])` in each lane.
#[inline(always)]
fn min_xor<const C: usize>(least: &mut [u8; C], option: &[u8; C], candidate: &[u8; C]) {
    for i in 0..C {
        least[i] = least[i].min(option[i] ^ candidate[i]);
    }
}

/// [`made_by`] with AVX-512: each heap's candidate kept alive until an
/// option equals it (one masked comparison of 64 bytes).
///
/// # Safety
/// AVX-512F and BW must be available.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn made_avx512(options: &[[u8; LANES]], group: &[[u8; LANES]; AT_ONCE]) -> [u64; AT_ONCE] {
    use std::arch::x86_64::*;
    // SAFETY: 64 bytes each.
    let candidates: [__m512i; AT_ONCE] =
        std::array::from_fn(|j| unsafe { _mm512_loadu_si512(group[j].as_ptr() as *const _) });
    let mut alive = [!0u64; AT_ONCE];
    for option in options {
        // SAFETY: 64 bytes.
        let option = unsafe { _mm512_loadu_si512(option.as_ptr() as *const _) };
        for (alive, &candidate) in alive.iter_mut().zip(&candidates) {
            *alive = _mm512_mask_cmpneq_epu8_mask(*alive, option, candidate);
        }
    }
    alive.map(|alive| !alive)
}

/// [`made_by`] in 16-bit lanes: which candidates of `group` some option of
/// `runs` makes, each option read from the table (`old`) and XORed with its
/// rare heap's value as it goes by, for the chunks of `active`.
#[inline(always)]
fn made_by_words(
    path: Path,
    old: &[u16],
    runs: &[Run],
    group: &[[u16; LANES]; AT_ONCE],
    active: u64,
) -> [u64; AT_ONCE] {
    for run in runs {
        assert!(run.at + LANES <= old.len(), "a whole run");
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = path;
    #[cfg(target_arch = "x86_64")]
    if path.avx512() && crate::heap::simd::available() {
        // SAFETY: the features were just checked, and every run is inside
        // `old` (checked above).
        return unsafe { made_words_avx512(old, runs, group, active) };
    }
    made_words_plainly(old, runs, group, active)
}

/// [`made_by_words`] one option at a time, for the heaps of `active`: the
/// reference for the AVX-512 kernel, and the code elsewhere, where
/// [`deferred`] compares nothing in 16-bit lanes.
fn made_words_plainly(
    old: &[u16],
    runs: &[Run],
    group: &[[u16; LANES]; AT_ONCE],
    active: u64,
) -> [u64; AT_ONCE] {
    std::array::from_fn(|j| {
        (0..LANES)
            .filter(|&i| active >> i & 1 != 0)
            .filter(|&i| {
                runs.iter()
                    .any(|run| old[run.at + i] ^ run.value == group[j][i])
            })
            .fold(0u64, |bits, i| bits | 1 << i)
    })
}

/// [`made_by_words`] with AVX-512: 32 heaps a register, each heap's
/// candidate kept alive until an option equals it.
///
/// # Safety
/// AVX-512F and BW must be available, and `old[run.at..run.at + LANES]`
/// inside `old` for every run.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn made_words_avx512(
    old: &[u16],
    runs: &[Run],
    group: &[[u16; LANES]; AT_ONCE],
    active: u64,
) -> [u64; AT_ONCE] {
    use std::arch::x86_64::*;
    let mut made = [0u64; AT_ONCE];
    for half in [0, 32].into_iter().filter(|h| active >> h & 1 != 0) {
        // SAFETY: 32 lanes of 64 each.
        let candidates: [__m512i; AT_ONCE] = std::array::from_fn(|j| unsafe {
            _mm512_loadu_si512(group[j][half..].as_ptr() as *const _)
        });
        let mut alive = [!0u32; AT_ONCE];
        for run in runs {
            // SAFETY: inside `old` (the caller's contract).
            let partners =
                unsafe { _mm512_loadu_si512(old.as_ptr().add(run.at + half) as *const _) };
            let option = _mm512_xor_si512(partners, _mm512_set1_epi16(run.value as i16));
            for (alive, &candidate) in alive.iter_mut().zip(&candidates) {
                *alive = _mm512_mask_cmpneq_epu16_mask(*alive, option, candidate);
            }
        }
        for (made, alive) in made.iter_mut().zip(alive) {
            *made |= u64::from(!alive) << half;
        }
    }
    made
}

/// Heaps compared at once: one run of partners.
pub(super) const LANES: usize = 64;

/// Rare heaps below this many are all marked: too few to gain.
const MIN_RARE: usize = 512;

/// The rare heaps whose options are marked (the last ones of the list), of
/// `rare` in all: three fifths in bytes, three quarters in 16-bit lanes
/// (where a comparison covers half as many heaps). With fewer, more heaps
/// have more unmarked values below their mex, and the comparisons go on for
/// more rounds; with more, more options are stored.
fn marked(rare: usize, width: Width) -> usize {
    match width {
        Width::Bytes => rare * 3 / 5,
        Width::Words => rare * 3 / 4,
    }
}

/// The rare heaps (a range of `context`'s list) whose options the rows
/// `low..low + LANES` may compare with candidates instead of marking,
/// given the table `old` below the block (`cut = old.len()`) and the last
/// rare heap of the whole table below the block: the first ones of those
/// that pair with every row through a partner below `cut`, and how their
/// options are compared (see the module). Empty where the class of a value
/// depends on its heap, or where the code has several split sizes, and in
/// 16-bit lanes without AVX-512.
pub(super) fn deferred(
    context: &RareSplit,
    (low, cut): (usize, usize),
    last_rare: usize,
    path: Path,
) -> (std::ops::Range<usize>, Width) {
    let (rules, split, rare) = (context.rules, context.split, context.rare);
    // The class is the value's alone, for every heap alike.
    let plain = !split.domain && split.shift == 0;
    if !plain || rules.splits.len() != 1 || rules.unequal || rare.is_empty() {
        return (0..0, Width::Words);
    }
    let k = rules.splits[0];
    let last = rare[rare.len() - 1] as usize;
    // In bytes where every partner lies past the last rare heap (so it is
    // common) and the packed tables' rule holds.
    let width = match bytes_hold(&split) {
        true if low > last + k + last_rare => Width::Bytes,
        // Until then, nothing is compared: Officers to 10^6 took
        // 1.15-1.20 s against 1.13-1.15 s with 16-bit lanes before its
        // last rare heap.
        true => return (0..0, Width::Bytes),
        false => Width::Words,
    };
    // Compared 16 heaps a register (AVX2) or 8 (plain code), 16-bit
    // options cost about as much as their stores: `0.007` to 10^6 took
    // 15.60-15.69 s against 15.65-15.91 s on AVX2 with a fifth of the rare
    // heaps compared.
    if width == Width::Words && !path.avx512() {
        return (0..0, width);
    }
    // Each rare heap from `whole` on pairs with every row through a
    // partner below `cut`.
    let whole = rare.partition_point(|&r| r as usize + k + cut < low + LANES);
    let all = rare.len() - whole;
    if all < MIN_RARE {
        return (0..0, width);
    }
    (whole..whole + all - marked(all, width), width)
}

/// The candidates of heaps `low..low + LANES`, whose `marks` hold the options
/// through all rare heaps but those of `deferred` (in `context`'s list):
/// compares those with each heap's first unmarked common values, a few at
/// a time, marks the ones some option makes, and sets each heap's limit.
/// `old` is the table below the block. Returns the options compared.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn compare<const W: usize>(
    context: &RareSplit,
    low: usize,
    old: &[u16],
    (deferred, width): (std::ops::Range<usize>, Width),
    marks: &mut [Bits<W>],
    limits: &mut [u32],
    scratch: &mut Scratch,
    (path, most): (Path, usize),
) -> u64 {
    assert!(marks.len() == LANES && limits.len() == LANES);
    assert!(
        width == Width::Words || W == 8,
        "bytes hold values below 512"
    );
    let k = context.rules.splits[0];
    let odd = context.odd;
    let Scratch { runs, options } = scratch;
    runs.clear();
    runs.extend(
        context.rare[deferred.clone()]
            .iter()
            .zip(&context.rare_values[deferred.clone()])
            .map(|(&r, &value)| {
                let at = low - k - r as usize;
                assert!(at + LANES <= old.len(), "a whole run");
                Run {
                    at,
                    // Values of rare heaps fit the table's cells.
                    value: value as u16,
                }
            }),
    );
    options.clear();
    // Each heap's unmarked common values not yet taken as candidates, a
    // word at a time: candidates are taken in increasing order, so each
    // heap has a word (8: none left) and the values of it still free.
    // The marks of words past it do not change meanwhile (only candidates
    // taken are marked).
    let next_word = |marks: &Bits<W>, mut w: usize| {
        while w < W && !marks.0[w] & odd[w] == 0 {
            w += 1;
        }
        let free = if w < W { !marks.0[w] & odd[w] } else { 0 };
        (w, free)
    };
    let mut word = [0usize; LANES];
    let mut free = [0u64; LANES];
    for i in 0..LANES {
        (word[i], free[i]) = next_word(&marks[i], 0);
    }
    // Candidates are taken and compared a few at a time, smallest first,
    // until every heap has one that no option makes (its smallest is the
    // mex of the options through rare heaps), or has none left. Lane i of
    // `group[j]` is heap i's; `last[i]` is the last it took. Heaps that
    // have settled take more too: their comparisons are free while others'
    // go on, and their limits rise.
    let mut last = [0u16; LANES];
    let mut settled = 0u64;
    let mut compared = 0;
    let chunk = chunk(path, width);
    while settled != !0 && compared < most.min(CANDIDATES) {
        // The heaps of a chunk whose heaps have all settled sit the round
        // out: they take no candidate and their options are not compared.
        let mut active = 0u64;
        for c in (0..LANES).step_by(chunk) {
            let lanes = (!0u64 >> (LANES - chunk)) << c;
            if settled & lanes != lanes {
                active |= lanes;
            }
        }
        let mut group = [[0u16; LANES]; AT_ONCE];
        let mut valid = [0u64; AT_ONCE];
        for i in (0..LANES).filter(|i| active >> i & 1 != 0) {
            for (j, group) in group.iter_mut().enumerate() {
                // With no value left, the lane repeats its last.
                let w = word[i];
                if w < W {
                    let b = free[i].trailing_zeros();
                    free[i] &= free[i] - 1;
                    if free[i] == 0 {
                        (word[i], free[i]) = next_word(&marks[i], w + 1);
                    }
                    last[i] = (64 * w as u32 + b) as u16;
                    valid[j] |= 1 << i;
                }
                group[i] = last[i];
            }
        }
        let found = made_by(path, old, runs, options, (&group, width), active);
        for j in 0..AT_ONCE {
            // Candidates some option makes are marked; one that none makes
            // settles its heap.
            let mut hit = found[j] & valid[j];
            while hit != 0 {
                let i = hit.trailing_zeros() as usize;
                hit &= hit - 1;
                marks[i].set(u32::from(group[j][i]));
            }
            settled |= valid[j] & !found[j];
        }
        // Heaps without values left settle too.
        for (i, &w) in word.iter().enumerate() {
            settled |= u64::from(w == W) << i;
        }
        compared += AT_ONCE;
    }
    for i in 0..LANES {
        // Exact below the last candidate compared, or everywhere once no
        // unmarked value is left.
        limits[i] = if word[i] == W {
            u32::MAX
        } else {
            u32::from(last[i]) + 1
        };
    }
    (deferred.len() * LANES) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        #[test]
        fn options_in_words_make_the_candidates_they_equal_on_every_path(
            old in proptest::collection::vec(0u16..40, 64..200),
            runs in proptest::collection::vec((0usize..200, 0u16..40), 0..30),
            group in proptest::collection::vec(0u16..48, 4 * LANES),
            active in any::<u64>(),
        ) {
            let runs: Vec<Run> = runs
                .into_iter()
                .map(|(at, value)| Run { at: at % (old.len() - LANES + 1), value })
                .collect();
            let group: [[u16; LANES]; AT_ONCE] =
                std::array::from_fn(|j| group[j * LANES..(j + 1) * LANES].try_into().unwrap());
            let plain = made_words_plainly(&old, &runs, &group, !0);
            // The AVX-512 kernel, where the processor has it, by halves of
            // 32 heaps as `compare` asks.
            let lanes = (0..2)
                .filter(|h| active >> (32 * h) & 1 != 0)
                .fold(0u64, |lanes, h| lanes | (u64::from(u32::MAX) << (32 * h)));
            for path in Path::supported_paths() {
                let made = made_by_words(path, &old, &runs, &group, lanes);
                for j in 0..AT_ONCE {
                    prop_assert_eq!(made[j] & lanes, plain[j] & lanes, "{} candidate {}", path, j);
                }
            }
        }
    }
}
